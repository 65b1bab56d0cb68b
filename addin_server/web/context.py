"""What every view shares for one request: the service, the caller, their walls, the settings.

The blueprints (api, explore, market, conform, usage, auth) are peers: each reads the request
context here and never another blueprint. ``web/auth.py`` sets the caller (``g.identity``)
and their ethical walls (``g.precedent_access``) before any /api/ view runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import current_app, g, request

from addin_server.service import PrecedentService
from index_builder.errors import UnauthorizedError
from index_builder.model import Filters
from index_builder.settings import ServerSettings, Settings


@dataclass(frozen=True)
class Identity:
    """The caller: ``user`` is what the audit trail names (UPN, else object id, else account)."""

    user: str
    kind: str  # "entra", "service" or "anonymous" (no sign-in configured), "cli"
    groups: tuple[str, ...] = ()
    groups_known: bool = True  # False: a token without its groups (overage, no claim)
    oid: str = ""
    tenant: str = ""
    # The tenant-wide groups its token proves (auth.tenant_groups): what SharePoint's
    # "Everyone" and "Everyone except external users" grants become.
    tenant_groups: tuple[str, ...] = ()


ANONYMOUS = Identity("anonymous", "anonymous")


def service() -> PrecedentService:
    """The app's service: the live search pipeline and the LLM parts (addin_server/service.py)."""
    return current_app.extensions["precedent"]


def settings() -> Settings:
    """The one settings object the app was built with."""
    return current_app.config["PRECEDENT_SETTINGS"]


def server_settings() -> ServerSettings:
    return settings().server


def current_identity() -> Identity:
    """The caller of this request (anonymous outside an authenticated request)."""
    return g.get("identity", ANONYMOUS)


def access() -> Filters:
    """The signed-in caller's ethical walls as filters (none without walls configured).

    Set by web/auth.py before every API view; missing means the view ran unauthenticated,
    so it fails closed rather than serving without walls.
    """
    if "precedent_access" not in g:
        raise UnauthorizedError("Sign in to use Precedent.")
    return g.precedent_access


def document_cache() -> Any:
    """The lawyer's read documents (conform/documents.py), shared by the worker processes."""
    from addin_server.conform.documents import cache_of

    return cache_of(current_app.extensions, settings().conform,
                    current_app.config.get("PRECEDENT_SHARED_DIR"))


def caller_key() -> str:
    """Whom a per-user limit counts: the signed-in user (service accounts by name), else,
    without sign-in, the client address."""
    identity = current_identity()
    return (f"{identity.kind}:{identity.oid or identity.user}" if identity.kind != "anonymous"
            else f"address:{request.remote_addr}")
