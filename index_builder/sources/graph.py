"""SharePoint and OneDrive document libraries through Microsoft Graph (app-only).

Why plain HTTP + MSAL rather than the Graph SDK (msgraph-sdk): the sync needs five calls
(drives, delta, permissions in ``$batch``, content), and the SDK brings Kiota, azure-identity
and an async runtime (~40 packages) for them; MSAL is Microsoft's own sign-in library (token
cache, certificate assertions), and the rest is ``requests`` with the retry rules Microsoft's
throttling guidance asks for (``http.py``), which the tests exercise against loopback
emulations of the documented shapes, pointed at by URL.

Reference pages (each call below follows one):

* sign-in: MSAL client credentials, https://learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow
* drives: https://learn.microsoft.com/graph/api/drive-list and drive-get
* delta: https://learn.microsoft.com/graph/api/driveitem-delta (nextLink pages, the deltaLink
  as the cursor, ``deleted`` facet, 410 resyncRequired, the ``Prefer`` headers of the scanning
  guidance, https://techcommunity.microsoft.com/t5/microsoft-sharepoint-blog/how-to-retrieve-complete-set-of-permission-changes-while/ba-p/1741127:
  delta reports every permission change only to an app with full control of the site)
* permissions: https://learn.microsoft.com/graph/api/driveitem-list-permissions and the
  permission / sharingLink resources (grantedToV2, grantedToIdentitiesV2, link.scope)
* batching: https://learn.microsoft.com/graph/json-batching (20 requests per call)
* content: https://learn.microsoft.com/graph/api/driveitem-get-content (302 to a
  pre-authenticated download URL, streamed)
* throttling: https://learn.microsoft.com/graph/throttling (429/503 + Retry-After)

Access mapping (docs/sources.md says the same for IT): an Entra group grant becomes the
group's object id (what the ``groups`` claim of a user's token lists); a SharePoint site group
``sp:<name>``; a single user ``user:<object id>``; a sharing link for specific people grants
those people; "organization" and "anonymous" links grant no one unless
``PRECEDENT_SHAREPOINT_LINK_SCOPES`` says so (a link is not a grant until it is used). The
tenant-wide grants are recognised by the SharePoint claim in their ``loginName`` (never by a
display name, which anyone can give a group): "Everyone except external users"
(``c:0-.f|rolemanager|spo-grid-all-users/<tenant>``) becomes ``members:<tenant id>``, every
member of the tenant and no guest; "Everyone" (``c:0(.s|true``) becomes ``tenant:<tenant
id>``, every user the tenant signs in, guests included. The server gives a signed-in user
those groups from their token's ``tid`` and ``acct`` claims (addin_server/web/auth.py).

Folders: a folder's own permissions are read with the files', and kept (as a digest) in the
sync state; when a folder comes back from delta with different permissions, the files below
it are read again (whether or not delta lists them: the scanning guidance lets it report the
folder alone). A deleted folder takes the files below it with it (``state.py``). A file's
link is rebuilt from its path when the folder above it is renamed (``extra["web_base"]``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote, urlsplit

import requests

from index_builder.errors import ConfigError, SourceUnavailableError
from index_builder.ingest.policy import EVERYONE
from index_builder.sources.base import ChangePage, SourceItem
from index_builder.sources.http import ApiClient

log = logging.getLogger(__name__)

BATCH = 20  # Graph's JSON batching limit
# What a web proxy that blocks $batch answers (Graph itself answers JSON, also for errors).
BATCH_BLOCKED = frozenset({400, 403, 404, 405, 501})
_GUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
# SharePoint's claims for the tenant-wide grants, as a permission's loginName carries them.
MEMBERS_CLAIM = re.compile(r"^c:0-\.f\|rolemanager\|spo-grid-all-users/(?P<tenant>[0-9a-f-]{36})$", re.I)
EVERYONE_CLAIM = "c:0(.s|true"
# Microsoft's scanning guidance for permission-aware sync (aka.ms/scanguidance): report items
# whose sharing changed, deleted items as deleted, and items behind permission gaps. Without
# "hierarchicalsharing", a folder's permission change is reported on each affected item.
PREFER = "deltashowremovedasdeleted, deltatraversepermissiongaps, deltashowsharingchanges"


class MsalTokens:
    """App-only tokens for Graph from MSAL (client secret or certificate)."""

    def __init__(self, authority: str, client_id: str, secret: str = "",
                 certificate_pem: str = "", scope: str = "https://graph.microsoft.com/.default",
                 session: Any = None) -> None:
        import msal

        if certificate_pem:
            credential: Any = {"private_key": certificate_pem,
                               "thumbprint": certificate_thumbprint(certificate_pem)}
        elif secret:
            credential = secret
        else:
            raise ConfigError("SharePoint sign-in needs a certificate (PRECEDENT_GRAPH_CERTIFICATE_FILE) "
                              "or a client secret (PRECEDENT_GRAPH_CLIENT_SECRET or "
                              "PRECEDENT_GRAPH_CLIENT_SECRET_FILE); see docs/deployment.md.")
        self.scope = scope
        self.authority = authority
        # MSAL reaches the authority when built (OpenID discovery): build on first use, inside
        # the sync, so an outage is recorded for /health like any other.
        self._make = lambda: msal.ConfidentialClientApplication(
            client_id, client_credential=credential, authority=authority, http_client=session,
            instance_discovery=False)
        self._app: Any = None

    @property
    def app(self) -> Any:
        if self._app is None:
            try:
                self._app = self._make()
            except ValueError as exc:  # authority not an https URL, a key that does not load
                raise ConfigError(f"SharePoint sign-in settings are not usable: {exc}") from None
            except Exception as exc:  # requests' errors, MSAL's discovery errors
                raise SourceUnavailableError(
                    f"Entra ID sign-in at {self.authority} cannot be reached "
                    f"({type(exc).__name__}); check PRECEDENT_GRAPH_TENANT_ID and the network; "
                    f"the live index keeps serving.") from None
        return self._app

    def token(self, refresh: bool = False) -> str:
        if refresh:
            self.app.remove_tokens_for_client()  # a 401 means ours expired or was revoked
        try:
            result = self.app.acquire_token_for_client(scopes=[self.scope])
        except requests.RequestException as exc:
            raise SourceUnavailableError(
                f"Entra ID sign-in at {self.authority} cannot be reached ({type(exc).__name__}); "
                f"check the network and proxy; the live index keeps serving.") from None
        if "access_token" not in result:
            reason = str(result.get("error_description") or result.get("error") or "no token")
            raise SourceUnavailableError(
                f"Entra ID refused the app's sign-in ({result.get('error', 'error')}: "
                f"{reason.splitlines()[0][:200]}); check PRECEDENT_GRAPH_CLIENT_ID, the secret or "
                f"certificate and admin consent (docs/deployment.md).")
        return str(result["access_token"])


def certificate_thumbprint(pem: str) -> str:
    """SHA-1 of the certificate in a PEM file (what Entra shows for an uploaded certificate)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes

    try:
        cert = x509.load_pem_x509_certificate(pem.encode("ascii"))
    except ValueError:
        raise ConfigError("PRECEDENT_GRAPH_CERTIFICATE_FILE must hold the private key and the "
                          "certificate, both PEM.") from None
    return cert.fingerprint(hashes.SHA1()).hex()  # noqa: S324 - Entra's thumbprint is SHA-1


class GraphSource:
    """``sharepoint:<drives/ID | sites/HOST:/sites/NAME | users/UPN>``: one or more libraries."""

    # Delta (with the Prefer headers) reports deletions and permission changes every sync.
    reports_every_change = True

    def __init__(self, spec: str, client: ApiClient, graph_url: str = "https://graph.microsoft.com/v1.0",
                 libraries: tuple[str, ...] = (), link_scopes: tuple[str, ...] = (),
                 page_size: int = 0, tenant_id: str = "") -> None:
        self.name = f"sharepoint:{spec}"
        self.spec = spec.strip("/")
        self.client = client
        self.base = graph_url.rstrip("/")
        self.libraries = {name.casefold() for name in libraries}
        self.link_scopes = {s.casefold() for s in link_scopes}
        self.page_size = page_size  # $top on the first delta call (0: Graph's default)
        # The directory id tokens carry as ``tid`` (a tenant named by domain has none here).
        self.tenant_id = tenant_id.casefold() if _GUID.fullmatch(tenant_id or "") else ""
        self.batch_blocked = False  # a proxy refused $batch: one permissions call per item
        self._warned: set[str] = set()

    # --- listing ----------------------------------------------------------------------
    def changes(self, cursor: str | None) -> Iterator[ChangePage]:
        """Each library's delta, page by page; the cursor holds every library's link.

        In a full round (the first sync, or after the service expired a delta link) a library
        finished before a crash is marked ``done:``, so the resumed round skips it.
        """
        state = json.loads(cursor) if cursor else {"links": {}, "full": True}
        full = bool(state.get("full"))
        drives = self._drives()
        for position, (drive_id, drive_name, drive_web) in enumerate(drives):
            entry = state["links"].get(drive_id) or ""
            if entry.startswith("done:"):
                continue
            url = entry or f"{self.base}/drives/{quote(drive_id)}/root/delta"
            params = {"$top": str(self.page_size)} if self.page_size and not entry else None
            while url:
                page = self.client.request("GET", url, params=params, cursor=True,
                                           headers={"Prefer": PREFER}).json()
                params = None
                next_link = page.get("@odata.nextLink")
                upserts, deletes, folders, folder_access = self._page_items(
                    page.get("value", []), drive_id, drive_name, drive_web)
                if next_link:
                    state["links"][drive_id] = next_link
                else:
                    delta = str(page.get("@odata.deltaLink", ""))
                    state["links"][drive_id] = f"done:{delta}" if full else delta
                final = not next_link and position == len(drives) - 1
                if final:  # the round is over: every library goes on from its delta link
                    state = {"links": {d: link.removeprefix("done:")
                                       for d, link in state["links"].items()}, "full": False}
                yield ChangePage(upserts, deletes, json.dumps(state), final=final, full=full,
                                 folders=folders, folder_access=folder_access)
                url = next_link

    def _drives(self) -> list[tuple[str, str, str]]:
        """(id, name, web URL) of each library the spec names, filtered by
        PRECEDENT_SHAREPOINT_LIBRARIES."""
        kind, _, rest = self.spec.partition("/")
        if kind == "drives" and rest:
            drive = self.client.get_json(f"{self.base}/drives/{quote(rest, safe='')}")
            found = [(drive["id"], drive.get("name", rest), drive.get("webUrl", ""))]
        elif kind == "sites" and rest:
            listing = self.client.get_json(f"{self.base}/sites/{quote(rest, safe=':/')}/drives")
            found = [(d["id"], d.get("name", d["id"]), d.get("webUrl", ""))
                     for d in listing.get("value", [])]
        elif kind == "users" and rest:
            drive = self.client.get_json(f"{self.base}/users/{quote(rest, safe='@')}/drive")
            found = [(drive["id"], drive.get("name", "OneDrive"), drive.get("webUrl", ""))]
        else:
            raise ConfigError(f"--source sharepoint:{self.spec}: name a library as drives/<drive id>, "
                              f"sites/<host>:/sites/<site> or users/<user principal name>.")
        if self.libraries:
            found = [d for d in found if d[1].casefold() in self.libraries]
        if not found:
            raise ConfigError(f"sharepoint:{self.spec} has no document library named in "
                              f"PRECEDENT_SHAREPOINT_LIBRARIES; check the names (as SharePoint shows them).")
        return found

    def _page_items(self, values: list[dict[str, Any]], drive_id: str, drive_name: str,
                    drive_web: str = ""
                    ) -> tuple[list[SourceItem], list[str], list[tuple[str, str, str]], dict[str, str]]:
        deletes, folders, files, folder_ids = [], [], [], []
        for value in values:
            item_id = f"{drive_id}!{value['id']}"
            parent = value.get("parentReference", {}).get("id")
            if "deleted" in value:
                deletes.append(item_id)
            elif "root" in value:
                folders.append((item_id, drive_name, ""))
                folder_ids.append(value["id"])
            elif "folder" in value:
                folders.append((item_id, value.get("name", ""), f"{drive_id}!{parent}"))
                folder_ids.append(value["id"])
            elif "file" in value:
                files.append(value)
        # Folders' permissions too: a change there reaches the files below (see the module).
        access = self._access([v["id"] for v in files] + folder_ids, drive_id)
        web = drive_web.rstrip("/")
        upserts = [SourceItem(
            item_id=f"{drive_id}!{v['id']}", path=v.get("name", v["id"]),
            version=str(v.get("cTag") or v.get("eTag") or v.get("lastModifiedDateTime", "")),
            size=int(v.get("size", 0)), allowed=access[v["id"]], web_url=v.get("webUrl", ""),
            parent=f"{drive_id}!{v.get('parentReference', {}).get('id', '')}",
            extra={"drive": drive_id, "id": v["id"],
                   # A link made of the file's path goes stale when a folder above is
                   # renamed (delta lists the folder, not the file): rebuilt from the path.
                   **({"web_base": web} if web and str(v.get("webUrl", "")).startswith(web + "/")
                      else {})}) for v in files]
        folder_access = {f"{drive_id}!{f}": access_digest(access[f]) for f in folder_ids}
        return upserts, deletes, folders, folder_access

    def reread(self, items: list[SourceItem]) -> list[SourceItem]:
        """The same items with their permissions read again (the folder above them changed)."""
        out: list[SourceItem] = []
        by_drive: dict[str, list[SourceItem]] = {}
        for item in items:
            by_drive.setdefault(item.extra["drive"], []).append(item)
        for drive_id, listed in by_drive.items():
            access = self._access([i.extra["id"] for i in listed], drive_id)
            out += [replace(i, allowed=access[i.extra["id"]]) for i in listed]
        return out

    # --- access -------------------------------------------------------------------------
    def _access(self, item_ids: list[str], drive_id: str) -> dict[str, tuple[str, ...]]:
        """Each item's groups from its permissions, 20 items per ``$batch`` call (one call
        per item when a proxy blocks ``$batch``)."""
        out: dict[str, tuple[str, ...]] = {}
        for start in range(0, len(item_ids), BATCH):
            chunk = item_ids[start:start + BATCH]
            by_id = {} if self.batch_blocked else self._batch(chunk, drive_id)
            for n, item_id in enumerate(chunk):
                reply = by_id.get(str(n), {})
                if reply.get("status") == 200:
                    perms = reply.get("body", {}).get("value", [])
                else:  # throttled or failed inside the batch, or no batch: this one alone
                    perms = self.client.get_json(
                        f"{self.base}/drives/{quote(drive_id, safe='')}/items/{quote(item_id, safe='')}"
                        f"/permissions").get("value", [])
                out[item_id] = self.groups_of(perms)
        return out

    def _batch(self, chunk: list[str], drive_id: str) -> dict[str, dict[str, Any]]:
        """The batch's answers by request id; {} when something on the way blocks $batch."""
        body = {"requests": [{"id": str(n), "method": "GET",
                              "url": f"/drives/{drive_id}/items/{item_id}/permissions"}
                             for n, item_id in enumerate(chunk)]}
        url = f"{self.base}/$batch"
        response = self.client.request("POST", url, json=body, accept=BATCH_BLOCKED)
        try:
            answer = response.json() if response.status_code == 200 else None
        except ValueError:
            answer = None  # a proxy's page, not Graph's JSON
        if isinstance(answer, dict) and isinstance(answer.get("responses"), list):
            return {str(r.get("id")): r for r in answer["responses"] if isinstance(r, dict)}
        self.batch_blocked = True
        parts = urlsplit(url)
        log.warning("Microsoft Graph's JSON batching (POST %s://%s%s) was refused on the way "
                    "(%d, not an answer from Graph: a web proxy?); reading permissions one item "
                    "at a time instead, up to %dx the requests. Ask the network team to allow POST "
                    "to that address through the proxy.", parts.scheme, parts.netloc, parts.path,
                    response.status_code, BATCH)
        return {}

    def groups_of(self, permissions: list[dict[str, Any]]) -> tuple[str, ...]:
        """The wall groups a driveItem's permissions grant (any role grants reading)."""
        found: set[str] = set()
        for perm in permissions:
            link = perm.get("link")
            if link and str(link.get("scope", "")).casefold() in ("organization", "anonymous"):
                if str(link["scope"]).casefold() in self.link_scopes:
                    found.add(EVERYONE)
                continue
            identities = [perm.get("grantedToV2")] + list(perm.get("grantedToIdentitiesV2") or [])
            for identity in filter(None, identities):
                found.update(self._identity_groups(identity))
        return tuple(sorted(found))

    def _identity_groups(self, identity: dict[str, Any]) -> list[str]:
        out = []
        for kind in ("group", "siteGroup", "siteUser", "user"):
            entry = identity.get(kind) or {}
            claim = str(entry.get("loginName") or entry.get("id") or "")
            tenant_wide = self._tenant_grant(claim)
            if tenant_wide is not None:
                out += [tenant_wide] if tenant_wide else []
            elif kind == "group" and entry.get("id"):
                out.append(str(entry["id"]))
            elif kind == "siteGroup" and entry.get("displayName"):
                out.append(f"sp:{entry['displayName']}")
            elif kind == "user" and entry.get("id"):
                out.append(f"user:{entry['id']}")
        return out

    def _tenant_grant(self, claim: str) -> str | None:
        """The group a tenant-wide grant becomes ("" when it cannot be told whose tenant),
        None when ``claim`` is not one."""
        members = MEMBERS_CLAIM.match(claim)
        if members:
            return f"members:{self.tenant_id or members['tenant'].casefold()}"
        if claim.casefold() == EVERYONE_CLAIM:
            if self.tenant_id:
                return f"tenant:{self.tenant_id}"
            self._warn_once("everyone", "A document is shared with \"Everyone\"; set "
                            "PRECEDENT_GRAPH_TENANT_ID to the directory (tenant) id, a GUID, so "
                            "that grant reaches the tenant's users (until then it opens it to no one).")
            return ""
        return None

    def _warn_once(self, key: str, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            log.warning("%s", message)

    # --- content ------------------------------------------------------------------------
    def fetch(self, item: SourceItem, dest: Path) -> None:
        drive, item_id = item.extra["drive"], item.extra["id"]
        self.client.download(f"{self.base}/drives/{quote(drive, safe='')}/items/"
                             f"{quote(item_id, safe='')}/content", dest)


def access_digest(groups: tuple[str, ...]) -> str:
    """A folder's permissions, compared between syncs (a change reaches the files below)."""
    return hashlib.sha256(",".join(sorted(groups)).encode("utf-8")).hexdigest()[:16]
