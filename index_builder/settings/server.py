"""Settings of the HTTP server and who may use it: the server's limits, sign-in, ethical walls,
the audit trail.

Walls sit here and not with the sources because the server enforces them at each request;
the build only labels clauses with their groups (index_builder/ingest/walls.py).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from index_builder.errors import ConfigError


def default_prompts_dir() -> Path:
    """The shipped prompt templates: top-level prompts/ in a checkout, package data in a wheel."""
    return Path(str(resources.files("prompts")))


@dataclass(frozen=True)
class ServerSettings:
    """The HTTP server and the API's limits."""

    host: str = "127.0.0.1"
    port: int = 8443
    cert_file: Path | None = None
    key_file: Path | None = None
    threads: int = 8  # request threads per process
    # Server processes sharing the port (addin_server/web/prefork.py): each has its own
    # interpreter lock, so a search's Python runs on every core; 0 = one per core.
    workers: int = 2
    api_tokens: tuple[str, ...] = field(default=(), repr=False)
    cors_origins: tuple[str, ...] = ()
    max_text_chars: int = 20_000
    max_instructions_chars: int = 1_000
    max_top_k: int = 50
    redraft_precedents: int = 3
    max_redraft_precedents: int = 8
    prompts_dir: Path = field(default_factory=default_prompts_dir)
    # How often a request may check for a rebuilt index (0 = never reload without a restart).
    index_reload_s: float = 10.0
    # Per-user request limits ("N/second|minute|hour|day"; "" = none): addin_server/web/limits.py.
    rate_limit: str = "120/minute"
    redraft_rate_limit: str = "10/minute"  # redraft calls the LLM: its own, tighter limit
    # The Word add-in's GUID in its manifest: set once per deployment and never changed (a new
    # id is a new add-in for every user); addin_server/manifest.py refuses to invent one.
    addin_id: str = ""
    # Connections (issue 29, docs/deployment.md "Sizing for N lawyers"). cheroot's own defaults,
    # a listen queue of 5 and 10 idle keep-alive connections, closed most connections after one
    # request under 20+ panes and then dropped the reconnects: benchmarks/results/connection-faults/.
    backlog: int = 256  # connections the kernel queues before the server accepts them
    keep_alive_limit: int = 500  # idle keep-alive connections kept open (one per open pane)
    idle_timeout_s: float = 30.0  # an idle keep-alive connection, or a stalled read, is closed after this
    # glibc allocation arenas for the server process (0 = glibc's default, 8 per core): with
    # more, each index swap left freed memory stranded in thread arenas (index/heap.py).
    malloc_arenas: int = 2

    @property
    def resolved_workers(self) -> int:
        """Processes to run: ``workers``, or one per core for 0."""
        return self.workers or (os.cpu_count() or 1)

    @property
    def max_content_length(self) -> int:
        """Request body limit: the text at its worst JSON escaping (6 bytes a char) plus room."""
        return self.max_text_chars * 6 + self.max_instructions_chars * 6 + 64 * 1024


@dataclass(frozen=True)
class AuthSettings:
    """Sign-in: Microsoft Entra ID access tokens (on when tenant_ids is set) and service accounts."""

    tenant_ids: tuple[str, ...] = ()  # allow-listed directory (tenant) ids; set = Entra ID on
    client_id: str = ""  # the add-in's application (client) id, which the pane signs in with
    app_id_uri: str = ""  # the API's Application ID URI (api://...): accepted audience, scope prefix
    api_client_id: str = ""  # the API's client id when it is a separate registration ("" = client_id)
    scope: str = "access_as_user"  # delegated scope a user's token must carry (scp claim)
    authority_host: str = "https://login.microsoftonline.com"
    jwks_url: str = ""  # "" = the tenant's published keys under authority_host
    leeway_s: float = 60.0  # clock skew allowed on exp/nbf
    jwks_cache_s: float = 3600.0  # how long fetched signing keys are trusted before a refetch
    jwks_min_refresh_s: float = 30.0  # an unknown key id triggers a refetch at most this often
    service_accounts_file: Path | None = None  # JSON [{"name","token","groups"}] for service accounts

    def __post_init__(self) -> None:
        if self.tenant_ids and not (self.client_id and self.app_id_uri):
            raise ConfigError("Entra ID sign-in (PRECEDENT_AUTH_TENANT_IDS) also needs "
                              "PRECEDENT_AUTH_CLIENT_ID and PRECEDENT_AUTH_APP_ID_URI "
                              "(docs/security.md, app registration).")
        if (self.client_id or self.app_id_uri) and not self.tenant_ids:
            raise ConfigError("PRECEDENT_AUTH_CLIENT_ID / PRECEDENT_AUTH_APP_ID_URI are set but "
                              "PRECEDENT_AUTH_TENANT_IDS is not: name the tenant id(s) to accept.")
        if not self.authority_host.startswith("https://"):
            raise ConfigError("PRECEDENT_AUTH_AUTHORITY_HOST must be an https:// address.")
        if self.jwks_url and not self.jwks_url.startswith(("https://", "http://127.0.0.1:",
                                                           "http://localhost:")):
            raise ConfigError("PRECEDENT_AUTH_JWKS_URL must be https:// (http only on loopback).")
        if self.leeway_s < 0 or self.leeway_s > 300:
            raise ConfigError("PRECEDENT_AUTH_LEEWAY_S must be from 0 to 300 seconds.")
        if self.jwks_cache_s <= 0 or self.jwks_min_refresh_s < 0:
            raise ConfigError("PRECEDENT_AUTH_JWKS_CACHE_S must be positive and "
                              "PRECEDENT_AUTH_JWKS_MIN_REFRESH_S zero or more.")


@dataclass(frozen=True)
class WallsSettings:
    """Ethical walls: documents' groups come from a policy at build time, users' at sign-in."""

    policy_file: Path | None = None  # build time: folder/file patterns -> allowed/denied groups
    default: str = "open"  # documents no rule covers: open (everyone), closed, or group names
    directory_file: Path | None = None  # user -> groups (CSV/JSON) for tokens with group overage
    # While walls are up, refuse a signed-in user whose groups are unknown (no groups claim,
    # not in the directory file): an empty group list would slip past "denied" rules.
    require_groups: bool = True


@dataclass(frozen=True)
class AuditSettings:
    """The append-only audit trail (JSON Lines): who retrieved which clause ids, when."""

    enabled: bool = True
    file: Path | None = None  # None = audit/audit.jsonl beside the index folder
    rotate: str = "daily"  # daily (UTC midnight) or size
    max_mb: int = 100  # size rotation: roll the file at this many megabytes
    keep: int = 400  # rotated files kept (days or files)
    # The key of the queries' keyed hashes (HMAC-SHA256): a secret, so not shown in repr or
    # docs. Empty = a random key made once in key_file (addin_server/web/audit_key.py).
    key: str = field(default="", repr=False)
    key_file: Path | None = None  # None = keys/audit-query.key beside the index folder

    def __post_init__(self) -> None:
        if self.key and len(self.key.strip()) < 32:
            raise ConfigError("PRECEDENT_AUDIT_KEY must be at least 32 characters (e.g. the output of "
                              "`python -c \"import secrets; print(secrets.token_hex(32))\"`), or unset "
                              "it to use the key file the server makes once.")
        if self.rotate not in ("daily", "size"):
            raise ConfigError(f"PRECEDENT_AUDIT_ROTATE must be daily or size, got {self.rotate!r}.")
        if self.max_mb <= 0 or self.keep <= 0:
            raise ConfigError("PRECEDENT_AUDIT_MAX_MB and PRECEDENT_AUDIT_KEEP must be positive.")

