"""Document sources a build can follow incrementally: a folder, SharePoint/OneDrive
(Microsoft Graph), iManage Work. ``open_source("sharepoint:...", settings)`` gives one;
``sync.sync_and_build`` follows it. The interface is in ``base.py``; docs/sources.md."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from index_builder.errors import ConfigError
from index_builder.settings import Settings
from index_builder.sources.base import ChangePage, Source, SourceItem
from index_builder.sources.http import ApiClient, RetryPolicy, make_session

__all__ = ["ChangePage", "Source", "SourceItem", "open_source"]

KINDS = ("folder", "sharepoint", "imanage")


def open_source(spec: str, settings: Settings, sleep: Callable[[float], None] | None = None) -> Source:
    """The source a ``--source`` value names: ``folder:PATH``, ``sharepoint:...``, ``imanage:...``."""
    kind, sep, rest = spec.partition(":")
    if not sep or kind not in KINDS or not rest.strip():
        raise ConfigError(f"--source {spec!r}: use folder:<path>, sharepoint:<drives/ID | "
                          f"sites/HOST:/sites/NAME | users/UPN> or imanage:<workspace id>[,<id>...] "
                          f"(docs/sources.md).")
    s = settings.sources
    if kind == "folder":
        from index_builder.sources.folder import FolderSource

        return FolderSource(Path(rest), s.folder_link_base, settings.follow_links)
    session = make_session(s.ca_bundle)
    retry = RetryPolicy(s.max_attempts, s.max_wait_s)
    extra = {"sleep": sleep} if sleep is not None else {}
    if kind == "sharepoint":
        from index_builder.sources.graph import GraphSource, MsalTokens

        _need(s.graph_tenant_id, "PRECEDENT_GRAPH_TENANT_ID")
        _need(s.graph_client_id, "PRECEDENT_GRAPH_CLIENT_ID")
        pem = _read(s.graph_certificate_file, "PRECEDENT_GRAPH_CERTIFICATE_FILE")
        tokens = MsalTokens(f"{s.graph_authority_url.rstrip('/')}/{s.graph_tenant_id}",
                            s.graph_client_id, s.secret("graph_client_secret"), pem,
                            scope=_graph_scope(s.graph_url), session=session)
        client = ApiClient("Microsoft Graph", tokens, session, retry, timeout_s=s.timeout_s, **extra)
        return GraphSource(rest, client, s.graph_url, s.sharepoint_libraries, s.sharepoint_link_scopes,
                           tenant_id=s.graph_tenant_id)
    from index_builder.sources.imanage import IManageSource, IManageTokens

    _need(s.imanage_client_id, "PRECEDENT_IMANAGE_CLIENT_ID")
    _need(s.imanage_username, "PRECEDENT_IMANAGE_USERNAME")
    tokens = IManageTokens(s.imanage_url, s.imanage_client_id, s.secret("imanage_client_secret"),
                           s.imanage_username, s.secret("imanage_password"), session, s.timeout_s)
    client = ApiClient("iManage Work", tokens, session, retry, auth_header="X-Auth-Token",
                       timeout_s=s.timeout_s, **extra)
    return IManageSource(rest, client, s.imanage_url, s.imanage_customer_id, s.imanage_library,
                         full_every=s.imanage_full_every)


def _graph_scope(graph_url: str) -> str:
    """The app-only scope for the Graph host in use (national clouds have their own)."""
    from urllib.parse import urlsplit

    parts = urlsplit(graph_url)
    return f"{parts.scheme}://{parts.netloc}/.default"


def _need(value: str, name: str) -> None:
    if not value:
        raise ConfigError(f"{name} is not set: see docs/deployment.md for the app registration "
                          f"that gives it.")


def _read(path: Path | None, name: str) -> str:
    if path is None:
        return ""
    try:
        return Path(path).read_text("ascii")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{name} {path} cannot be read ({exc}).") from None
