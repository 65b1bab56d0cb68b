"""Settings of where the library comes from and what is learnt from its use: DMS sources
(SharePoint/OneDrive, iManage) and usage feedback, curation and relearning the ranker.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from index_builder.errors import ConfigError
from index_builder.settings.env import var_for


@dataclass(frozen=True)
class SourcesSettings:
    """DMS sources (issue 25): SharePoint/OneDrive through Graph, iManage Work. Secrets come
    from the environment or from files, never from the command line; they are never logged."""

    sync_every_s: int = 0  # build --source ... --daemon: seconds between syncs (0 = 900)
    max_attempts: int = 8  # per request, on 429/503/timeouts (Retry-After honoured)
    max_wait_s: float = 300.0  # the longest single wait a Retry-After may ask for
    timeout_s: float = 60.0  # one HTTP request
    ca_bundle: Path | None = None  # the firm's CA file (a TLS-inspecting proxy); else system CAs
    folder_link_base: str = ""  # folder sources: "open" links as this base + the file's path
    max_mb: int = 100  # larger documents are reported and skipped, never downloaded
    graph_tenant_id: str = ""
    graph_client_id: str = ""
    graph_client_secret: str = field(default="", repr=False)
    graph_client_secret_file: Path | None = None
    graph_certificate_file: Path | None = None  # PEM: private key + certificate (preferred)
    graph_authority_url: str = "https://login.microsoftonline.com"
    graph_url: str = "https://graph.microsoft.com/v1.0"
    sharepoint_libraries: tuple[str, ...] = ()  # library names to follow (default: all)
    sharepoint_link_scopes: tuple[str, ...] = ()  # link scopes that grant everyone
    imanage_url: str = "https://cloudimanage.com"
    imanage_customer_id: str = ""
    imanage_library: str = ""
    imanage_client_id: str = ""
    imanage_client_secret: str = field(default="", repr=False)
    imanage_client_secret_file: Path | None = None
    imanage_username: str = ""  # the service account the app signs in as
    imanage_password: str = field(default="", repr=False)
    imanage_password_file: Path | None = None
    # iManage's edit-date feed shows neither deletions nor document security changes: every
    # Nth sync lists the workspaces whole (metadata only) and retires what is gone. 1: every
    # sync, so a deletion or a document's own security change is in the index within one
    # sync (issue 40); more trades that for fewer requests (the lag is on /health).
    imanage_full_every: int = 1

    def __post_init__(self) -> None:
        if self.max_mb < 1:
            raise ConfigError("PRECEDENT_SOURCE_MAX_MB must be at least 1 (megabytes).")
        if self.imanage_full_every < 1:
            raise ConfigError("PRECEDENT_IMANAGE_FULL_EVERY must be 1 (every sync lists all) or more.")
        if self.max_attempts < 1 or self.max_wait_s <= 0 or self.timeout_s <= 0 or self.sync_every_s < 0:
            raise ConfigError("PRECEDENT_SOURCE_MAX_ATTEMPTS must be at least 1, PRECEDENT_SOURCE_MAX_WAIT_S "
                              "and PRECEDENT_SOURCE_TIMEOUT_S positive, PRECEDENT_SOURCE_SYNC_EVERY_S 0 or more.")

    def secret(self, name: str) -> str:
        """A secret from its variable or, when that is empty, its file (first line)."""
        value = str(getattr(self, name))
        path = getattr(self, f"{name}_file", None)
        if value or path is None:
            return value
        try:
            return Path(path).read_text("utf-8").strip()
        except OSError as exc:
            raise ConfigError(f"{var_for(f'sources.{name}_file')} {path} cannot be read "
                              f"({exc.strerror or exc}).") from None


@dataclass(frozen=True)
class LearningSettings:
    """Usage feedback, knowledge-team curation and relearning the ranker (issue 27, docs/learning.md)."""

    feedback: bool = True  # record the pane's usage events (no text: ids, ranks, a keyed hash)
    # SQLAlchemy URL of the events and curation database; "" = SQLite usage/usage.sqlite
    # beside the index folder. A server database (postgresql://...) for several servers.
    db_url: str = ""
    # The key of the query hash (HMAC-SHA256); "" = usage/usage.key beside the index folder,
    # made on first use. Several servers sharing one database must share this file.
    key_file: Path | None = None
    retention_days: int = 365  # events and shown lists older than this are deleted
    rate_limit: str = "300/hour"  # feedback calls per user, on top of PRECEDENT_RATE_LIMIT
    # Share of searches (0..1) whose two adjacent results at a random place are swapped, so
    # `index-builder learn` can measure how much the position alone draws clicks. 0 = never.
    swap_share: float = 0.0
    curation_group: str = "knowledge"  # the group whose members may curate (a wall group name)
    curation_team: str = "Knowledge"  # how cards name them: "Approved by Knowledge, 2026-11"
    curation_lift: int = 3  # places an approved result may rise (within its LLM rating)
    # `index-builder learn`: the ranker folder it writes and installs ("" = learned-ranker
    # beside the index folder), and how much worse (NDCG@5 points) it may be and still install.
    learned_ranker: Path | None = None
    guard_tolerance: float = 0.5
