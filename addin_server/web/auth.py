"""Who is calling: Microsoft Entra ID access tokens, service-account tokens, and their groups.

Every /api/ request except ``GET /api/v1/auth/config`` (which the pane reads before it can
sign in) and CORS preflights is authenticated before it reaches a view. The result is an
``Identity`` on ``flask.g``: the audit trail records it, the rate limiter keys on it, and
``current_access()`` turns its groups into the ethical-wall filters every search, clause
fetch, redraft and count is run with.

Entra ID tokens are checked with PyJWT: RS256 only (so ``alg: none`` and HS256 signed with
the public key are refused before any key is used), the signature against the tenant's
published keys (cached; an unknown key id refetches them at most every
``PRECEDENT_AUTH_JWKS_MIN_REFRESH_S``), issuer and tenant against the allow-list, audience
(the API's Application ID URI or client id), exp/nbf with a small leeway, the delegated
scope, and the client the token was issued to (the add-in). Static tokens stay for service
accounts. No token, and no part of one, is ever logged.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import json
import logging
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import jwt
from flask import Blueprint, Flask, current_app, g, jsonify, request

from addin_server.web.context import ANONYMOUS, Identity, current_identity
from index_builder.errors import (ConfigError, ForbiddenError, SignInUnavailableError,
                                  UnauthorizedError)
from index_builder.model import Condition, Filters
from index_builder.ingest.policy import ACCESS_FIELD, DENIED_FIELD, EVERYONE, normalise_group
from index_builder.settings import AuthSettings, Settings, WallsSettings

log = logging.getLogger(__name__)

ALGORITHMS = ("RS256",)  # what Entra ID signs access tokens with; nothing else is accepted
PUBLIC_CLOUD = "https://login.microsoftonline.com"
EXTENSION = "precedent_auth"

bp = Blueprint("auth", __name__, url_prefix="/api/v1/auth")


# --- service accounts -------------------------------------------------------------------

@dataclass(frozen=True)
class ServiceAccount:
    name: str
    token_sha256: bytes
    groups: tuple[str, ...]


def load_service_accounts(settings: Settings) -> list[ServiceAccount]:
    """PRECEDENT_API_TOKENS (unnamed, no groups) plus PRECEDENT_SERVICE_ACCOUNTS_FILE."""
    accounts = [ServiceAccount(f"service-token-{n}", _sha256(token), ())
                for n, token in enumerate(settings.server.api_tokens, 1)]
    path = settings.auth.service_accounts_file
    if path is None:
        return accounts
    where = f"PRECEDENT_SERVICE_ACCOUNTS_FILE {path}"
    try:
        entries = json.loads(Path(path).read_text("utf-8"))
    except OSError as exc:
        raise ConfigError(f"{where} cannot be read ({exc.strerror or exc}).") from None
    except ValueError as exc:
        raise ConfigError(f"{where} is not valid JSON ({exc}).") from None
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f'{where}: expected a list like [{{"name": "dms-sync", '
                          f'"token_sha256": "<hex>", "groups": ["knowledge"]}}].')
    for n, entry in enumerate(entries, 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"]:
            raise ConfigError(f"{where}: account {n} needs a 'name'.")
        if isinstance(entry.get("token_sha256"), str) and len(entry["token_sha256"]) == 64:
            digest = bytes.fromhex(entry["token_sha256"])
        elif isinstance(entry.get("token"), str) and len(entry["token"].strip()) >= 16:
            digest = _sha256(entry["token"].strip())
        else:
            raise ConfigError(f"{where}: account {entry['name']!r} needs 'token_sha256' (64 hex "
                              f"digits, preferred) or a 'token' of at least 16 characters.")
        groups = entry.get("groups", [])
        if not isinstance(groups, list) or not all(isinstance(x, str) for x in groups):
            raise ConfigError(f"{where}: account {entry['name']!r}: 'groups' must be a list of names.")
        accounts.append(ServiceAccount(entry["name"], digest,
                                       tuple(sorted({normalise_group(x) for x in groups if x.strip()}))))
    return accounts


def _sha256(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


# --- directory export (users whose tokens do not list their groups) ---------------------

class Directory:
    """user (UPN or object id, case-insensitive) -> groups, from a CSV or JSON export.

    CSV: header ``user,groups`` with groups separated by ``;``. JSON: ``{"user": [groups]}``.
    The file is re-read when it changes (IT replaces it from a nightly export).
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._stamp: tuple[float, int] | None = None
        self._groups: dict[str, tuple[str, ...]] = {}
        self._load()

    def groups(self, *names: str) -> tuple[str, ...] | None:
        """The groups of the first listed name, or None when the user is not in the export."""
        self._load()
        for name in names:
            if name and name.casefold() in self._groups:
                return self._groups[name.casefold()]
        return None

    def _load(self) -> None:
        where = f"PRECEDENT_WALLS_DIRECTORY_FILE {self.path}"
        try:
            stat = self.path.stat()
        except OSError as exc:
            if self._stamp is None:
                raise ConfigError(f"{where} cannot be read ({exc.strerror or exc}).") from None
            log.warning("%s is gone; keeping the groups read earlier.", where)
            return
        stamp = (stat.st_mtime, stat.st_size)
        with self._lock:
            if stamp == self._stamp:
                return
            text = self.path.read_text("utf-8-sig")
            if self.path.suffix.lower() == ".json":
                try:
                    data = json.loads(text)
                except ValueError as exc:
                    raise ConfigError(f"{where} is not valid JSON ({exc}).") from None
                if not isinstance(data, dict):
                    raise ConfigError(f'{where}: expected {{"user@firm.com": ["group", ...]}}.')
                rows = [(user, groups) for user, groups in data.items()]
            else:
                rows = [((r.get("user") or "").strip(), (r.get("groups") or "").split(";"))
                        for r in csv.DictReader(text.splitlines())]
            table = {}
            for user, groups in rows:
                if not isinstance(groups, list) or not all(isinstance(x, str) for x in groups):
                    raise ConfigError(f"{where}: groups of {user!r} must be a list of names.")
                table[str(user).casefold()] = tuple(sorted({normalise_group(x) for x in groups
                                                            if x.strip()}))
            self._groups, self._stamp = table, stamp
        log.info("Directory export %s: %d users", self.path.name, len(table))


# --- Entra ID tokens --------------------------------------------------------------------

class EntraValidator:
    """Validates Entra ID access tokens for this API; ``claims(token)`` or UnauthorizedError."""

    def __init__(self, settings: AuthSettings) -> None:
        self.settings = settings
        self.tenants = frozenset(t.strip().casefold() for t in settings.tenant_ids)
        self.audiences = [a for a in (settings.app_id_uri, settings.api_client_id or settings.client_id) if a]
        self.jwks_url = settings.jwks_url or _default_jwks_url(settings)
        # PyJWKClient caches the key set for `lifespan`, refetches on an unknown key id at most
        # once per `cooldown_duration`, and does not follow redirects.
        self.keys = jwt.PyJWKClient(self.jwks_url, cache_jwk_set=True, lifespan=settings.jwks_cache_s,
                                    cooldown_duration=settings.jwks_min_refresh_s, timeout=5)

    def claims(self, token: str) -> dict[str, Any]:
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            raise _rejected("not a sign-in token") from None
        if header.get("alg") not in ALGORITHMS:
            raise _rejected(f"algorithm {str(header.get('alg'))[:10]!r} is not accepted")
        kid = header.get("kid")
        if not isinstance(kid, str) or not kid:
            raise _rejected("no key id")
        key = self._key(kid)
        try:
            claims = jwt.decode(token, key, algorithms=list(ALGORITHMS), audience=self.audiences,
                                leeway=self.settings.leeway_s,
                                options={"require": ["exp", "nbf", "iat", "iss", "aud", "tid", "oid"],
                                         "verify_iss": False})  # checked below, per tenant
        except jwt.ExpiredSignatureError:
            raise _rejected("expired", "Your sign-in has expired: sign in again.") from None
        except jwt.ImmatureSignatureError:
            raise _rejected("not valid yet (check the server's clock)") from None
        except jwt.InvalidAudienceError:
            raise _rejected("issued for another application") from None
        except jwt.PyJWTError as exc:
            raise _rejected(type(exc).__name__) from None
        tenant = str(claims["tid"]).casefold()
        if tenant not in self.tenants:
            raise _rejected("tenant not allowed")
        if claims["iss"] not in _issuers(self.settings.authority_host, str(claims["tid"])):
            raise _rejected("issuer does not match the tenant")
        client = claims.get("azp") or claims.get("appid")
        if client != self.settings.client_id:
            raise _rejected("issued to another client application")
        scopes = str(claims.get("scp", "")).split()
        if self.settings.scope not in scopes:
            raise _rejected("missing the delegated scope",
                            "This sign-in does not grant access to Precedent: sign in again "
                            "from the add-in, or ask IT to check the app registration.")
        return claims

    def _key(self, kid: str) -> Any:
        try:
            return self.keys.get_signing_key(kid)
        except jwt.PyJWKClientConnectionError:
            log.warning("Sign-in keys could not be fetched from %s", self.jwks_url)
            raise SignInUnavailableError(
                "The server cannot check sign-ins right now (Microsoft's sign-in keys are out of "
                "reach). Try again in a minute; if it persists, ask IT to check the server's "
                "access to login.microsoftonline.com.") from None
        except jwt.PyJWTError:
            raise _rejected("signed with an unknown key") from None


def _default_jwks_url(settings: AuthSettings) -> str:
    tenant = settings.tenant_ids[0] if len(settings.tenant_ids) == 1 else "common"
    return f"{settings.authority_host.rstrip('/')}/{tenant}/discovery/v2.0/keys"


def _issuers(authority_host: str, tenant: str) -> set[str]:
    issuers = {f"{authority_host.rstrip('/')}/{tenant}/v2.0"}  # v2 access tokens
    if authority_host.rstrip("/") == PUBLIC_CLOUD:
        issuers.add(f"https://sts.windows.net/{tenant}/")  # v1 access tokens
    return issuers


def _rejected(reason: str, message: str = "") -> UnauthorizedError:
    log.info("Sign-in token refused: %s", reason)
    return UnauthorizedError(message or "Your sign-in was not accepted: sign in again from the "
                             "add-in. If it keeps happening, ask IT to check the app registration.")


# --- the authenticator ------------------------------------------------------------------

class Authenticator:
    """One per app: turns an Authorization header into an Identity (or 401)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.accounts = load_service_accounts(settings)
        self.entra = EntraValidator(settings.auth) if settings.auth.tenant_ids else None
        walls: WallsSettings = settings.walls
        self.directory = Directory(walls.directory_file) if walls.directory_file else None
        self._acct_warned = False

    @property
    def mode(self) -> str:
        return "entra" if self.entra else "tokens" if self.accounts else "none"

    def authenticate(self, header: str) -> Identity:
        if self.mode == "none":
            return ANONYMOUS
        scheme, _, token = header.partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise UnauthorizedError("Sign in to use Precedent." if self.entra else
                                    "This server needs an API token: enter it in the add-in's Settings."
                                    if not header else "The API token was not accepted: check it "
                                    "in the add-in's Settings.")
        digest = _sha256(token)
        account = None
        for candidate in self.accounts:  # compare with every one: timing says nothing
            if hmac.compare_digest(digest, candidate.token_sha256):
                account = candidate
        if account:
            return Identity(account.name, "service", account.groups)
        if self.entra and token.count(".") == 2:
            return self._user(self.entra.claims(token))
        raise UnauthorizedError("Your sign-in was not accepted: sign in again from the add-in."
                                if self.entra else "The API token was not accepted: check it "
                                "in the add-in's Settings.")

    def _user(self, claims: Mapping[str, Any]) -> Identity:
        oid = str(claims["oid"])
        upn = str(claims.get("preferred_username") or claims.get("upn") or claims.get("unique_name") or "")
        roles = [r for r in claims.get("roles") or [] if isinstance(r, str)]
        groups = claims.get("groups")
        overage = "groups" in (claims.get("_claim_names") or {}) or bool(claims.get("hasgroups"))
        known = isinstance(groups, list) and not overage
        listed = [x for x in groups if isinstance(x, str)] if isinstance(groups, list) else []
        if not known and self.directory is not None:
            exported = self.directory.groups(oid, upn)
            if exported is not None:
                listed, known = list(exported), True
        if "acct" not in claims and not self._acct_warned:
            self._acct_warned = True
            log.warning("Sign-in tokens carry no 'acct' claim, so no one counts as a member of the "
                        "tenant: documents shared with 'Everyone except external users' stay hidden. "
                        "Add the optional claim 'acct' to the access token (docs/security.md).")
        return Identity(upn or oid, "entra", tuple(sorted({normalise_group(x) for x in listed + roles})),
                        known, oid, str(claims["tid"]), tenant_groups(claims))

    def config_json(self) -> dict[str, Any]:
        """What the pane needs to sign in (no secrets: all of it is public in the token anyway)."""
        out: dict[str, Any] = {"mode": self.mode}
        if self.entra:
            auth = self.settings.auth
            tenant = auth.tenant_ids[0] if len(auth.tenant_ids) == 1 else "organizations"
            out["entra"] = {"client_id": auth.client_id,
                            "authority": f"{auth.authority_host.rstrip('/')}/{tenant}",
                            "scopes": [f"{auth.app_id_uri.rstrip('/')}/{auth.scope}"]}
        return out


def tenant_groups(claims: Mapping[str, Any]) -> tuple[str, ...]:
    """The tenant-wide groups a user's token proves (what SharePoint's tenant-wide grants
    become, index_builder/sources/graph.py): ``tenant:<tid>`` for every user the tenant signs
    in ("Everyone"), and ``members:<tid>`` for its members only ("Everyone except external
    users").

    A member: the optional ``acct`` claim is 0 (1 is a guest), and no other claim says guest:
    an ``idp`` naming another tenant or a consumer provider (a guest's home identity provider;
    members have none, or their own tenant's), or ``#EXT#`` in the UPN. Without ``acct`` (not
    configured on the app registration) no one counts as a member: members-only documents stay
    hidden rather than reach a guest.
    """
    tid = str(claims.get("tid") or "").strip().casefold()
    if not tid:
        return ()
    out = [f"tenant:{tid}"]
    idp = str(claims.get("idp") or "").casefold()
    names = " ".join(str(claims.get(k) or "") for k in ("upn", "unique_name", "preferred_username"))
    home = _TENANT_IN_URL.search(idp)
    guest = bool(idp) and (home is None or home.group(0) != tid) or "#ext#" in names.casefold()
    if str(claims.get("acct", "")).strip() == "0" and not guest:
        out.append(f"members:{tid}")
    return tuple(out)


_TENANT_IN_URL = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def identity_for(settings: Settings, user: str = "", groups: tuple[str, ...] = ()) -> Identity:
    """An identity for a command run on the server (``annotate --as-user/--as-group``).

    A named user's groups come from the directory export; ``groups`` are added to them.
    """
    listed = {normalise_group(x) for x in groups if x.strip()}
    if user:
        if settings.walls.directory_file is None:
            raise ConfigError("Running as a user needs PRECEDENT_WALLS_DIRECTORY_FILE (user -> "
                              "groups); or name the groups with --as-group.")
        exported = Directory(settings.walls.directory_file).groups(user)
        if exported is None:
            raise ConfigError(f"{user!r} is not in the directory export "
                              f"{settings.walls.directory_file}.")
        listed |= set(exported)
    name = user or ("groups:" + ",".join(sorted(listed)) if listed else "cli")
    return Identity(name, "cli", tuple(sorted(listed)), True, "", "")


def access_filters(identity: Identity, walls_active: bool) -> Filters:
    """The ethical-wall filters for a caller: allowed to one of their groups, denied to none.

    ``*`` (everyone) is always among the groups, so open documents stay visible and a
    document denied to ``*`` is hidden from all. No walls in the index: no filters.
    """
    if not walls_active:
        return ()
    if not identity.groups_known:
        raise ForbiddenError("Precedent cannot tell which matters you may see: your sign-in "
                             "does not list your groups. Ask IT to add you to the directory "
                             "export (PRECEDENT_WALLS_DIRECTORY_FILE) or to send group claims.")
    mine = set(identity.groups) | {EVERYONE} | set(identity.tenant_groups)
    if identity.oid:
        # A DMS grant to one person (SharePoint/OneDrive via Graph) is stamped user:<object id>.
        mine.add(normalise_group(f"user:{identity.oid}"))
    mine = tuple(sorted(mine))
    return (Condition(ACCESS_FIELD, mine), Condition(DENIED_FIELD, mine, negate=True))


# --- Flask wiring -----------------------------------------------------------------------

def init_app(app: Flask) -> Authenticator:
    """Authenticate every /api/ request (``bp`` serves /api/v1/auth/config). Call before
    limits/audit."""
    settings: Settings = app.config["PRECEDENT_SETTINGS"]
    if settings.walls.require_groups is False and settings.auth.tenant_ids:
        log.warning("PRECEDENT_WALLS_REQUIRE_GROUPS is off: users whose tokens omit their groups "
                    "are treated as in no group, so 'denied' wall rules cannot stop them.")
    authenticator = Authenticator(settings)
    app.extensions[EXTENSION] = authenticator
    app.before_request(_authenticate)
    log.info("API sign-in: %s", authenticator.mode)
    return authenticator


def _authenticate() -> None:
    if not request.path.startswith("/api/") or request.method == "OPTIONS" \
            or request.endpoint == "auth.config":
        return
    g.identity = current_app.extensions[EXTENSION].authenticate(
        request.headers.get("Authorization", ""))
    g.precedent_access = current_access()  # what context.access() hands every service call


def current_access() -> Filters:
    """The wall filters for this request's caller; pass them to every service call. They
    include what a sync has taken from the caller since the served index was built."""
    identity = current_identity()
    if not settings_require_groups() and not identity.groups_known:
        identity = Identity(identity.user, identity.kind, identity.groups, True,
                            identity.oid, identity.tenant, identity.tenant_groups)
    walls = access_filters(identity, walls_active())
    return walls + current_app.extensions["precedent"].withheld(walls)


def walls_active() -> bool:
    """Whether the live index was built with a wall policy (its clauses carry access groups)."""
    return index_has_walls(current_app.extensions["precedent"].pipeline.backend)


def index_has_walls(backend: Any) -> bool:
    """A version built with a wall policy stamps access groups on every clause; without, none."""
    return ACCESS_FIELD in backend.fields()


def annotate_access(settings: Settings, backend: Any, user: str = "",
                    groups: tuple[str, ...] = ()) -> Filters:
    """The walls for `addin-server annotate --as-user/--as-group`; refused on a walled index
    without either, so a batch run never sees more than the lawyer it runs for."""
    walled = index_has_walls(backend)
    if not user and not groups:
        if walled:
            raise ConfigError("This index has ethical walls: run annotate as a user "
                              "(--as-user alice@firm.example) or a group (--as-group NAME).")
        return ()
    identity = identity_for(settings, user, groups)
    log.info("annotate runs as %s", identity.user)
    return access_filters(identity, walled)


def settings_require_groups() -> bool:
    return bool(current_app.config["PRECEDENT_SETTINGS"].walls.require_groups)


@bp.get("/config")
def config() -> Any:
    return jsonify(current_app.extensions[EXTENSION].config_json())

