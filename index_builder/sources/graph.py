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

Access mapping (docs/deployment.md says the same for IT): an Entra group grant becomes the
group's object id (what the ``groups`` claim of a user's token lists); a SharePoint site group
``sp:<name>``; a single user ``user:<object id>``; a sharing link for specific people grants
those people; "organization" and "anonymous" links grant no one unless
``PRECEDENT_SHAREPOINT_LINK_SCOPES`` says so (a link is not a grant until it is used).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote

import requests

from index_builder.errors import ConfigError, SourceUnavailableError
from index_builder.ingest.policy import EVERYONE
from index_builder.sources.base import ChangePage, SourceItem
from index_builder.sources.http import ApiClient

log = logging.getLogger(__name__)

BATCH = 20  # Graph's JSON batching limit
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

    def __init__(self, spec: str, client: ApiClient, graph_url: str = "https://graph.microsoft.com/v1.0",
                 libraries: tuple[str, ...] = (), link_scopes: tuple[str, ...] = (),
                 page_size: int = 0) -> None:
        self.name = f"sharepoint:{spec}"
        self.spec = spec.strip("/")
        self.client = client
        self.base = graph_url.rstrip("/")
        self.libraries = {name.casefold() for name in libraries}
        self.link_scopes = {s.casefold() for s in link_scopes}
        self.page_size = page_size  # $top on the first delta call (0: Graph's default)

    # --- listing ----------------------------------------------------------------------
    def changes(self, cursor: str | None) -> Iterator[ChangePage]:
        """Each library's delta, page by page; the cursor holds every library's link.

        In a full round (the first sync, or after the service expired a delta link) a library
        finished before a crash is marked ``done:``, so the resumed round skips it.
        """
        state = json.loads(cursor) if cursor else {"links": {}, "full": True}
        full = bool(state.get("full"))
        drives = self._drives()
        for position, (drive_id, drive_name) in enumerate(drives):
            entry = state["links"].get(drive_id) or ""
            if entry.startswith("done:"):
                continue
            url = entry or f"{self.base}/drives/{quote(drive_id)}/root/delta"
            params = {"$top": str(self.page_size)} if self.page_size and not entry else None
            while url:
                page = self.client.request("GET", url, params=params,
                                           headers={"Prefer": PREFER}).json()
                params = None
                next_link = page.get("@odata.nextLink")
                upserts, deletes, folders = self._page_items(page.get("value", []), drive_id,
                                                             drive_name)
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
                                 folders=folders)
                url = next_link

    def _drives(self) -> list[tuple[str, str]]:
        """(id, name) of each library the spec names, filtered by PRECEDENT_SHAREPOINT_LIBRARIES."""
        kind, _, rest = self.spec.partition("/")
        if kind == "drives" and rest:
            drive = self.client.get_json(f"{self.base}/drives/{quote(rest)}")
            found = [(drive["id"], drive.get("name", rest))]
        elif kind == "sites" and rest:
            listing = self.client.get_json(f"{self.base}/sites/{quote(rest, safe=':/')}/drives")
            found = [(d["id"], d.get("name", d["id"])) for d in listing.get("value", [])]
        elif kind == "users" and rest:
            drive = self.client.get_json(f"{self.base}/users/{quote(rest)}/drive")
            found = [(drive["id"], drive.get("name", "OneDrive"))]
        else:
            raise ConfigError(f"--source sharepoint:{self.spec}: name a library as drives/<drive id>, "
                              f"sites/<host>:/sites/<site> or users/<user principal name>.")
        if self.libraries:
            found = [d for d in found if d[1].casefold() in self.libraries]
        if not found:
            raise ConfigError(f"sharepoint:{self.spec} has no document library named in "
                              f"PRECEDENT_SHAREPOINT_LIBRARIES; check the names (as SharePoint shows them).")
        return found

    def _page_items(self, values: list[dict[str, Any]], drive_id: str, drive_name: str
                    ) -> tuple[list[SourceItem], list[str], list[tuple[str, str, str]]]:
        deletes, folders, files = [], [], []
        for value in values:
            item_id = f"{drive_id}!{value['id']}"
            parent = value.get("parentReference", {}).get("id")
            if "deleted" in value:
                deletes.append(item_id)
            elif "root" in value:
                folders.append((item_id, drive_name, ""))
            elif "folder" in value:
                folders.append((item_id, value.get("name", ""), f"{drive_id}!{parent}"))
            elif "file" in value:
                files.append(value)
        access = self._access([v["id"] for v in files], drive_id)
        upserts = [SourceItem(
            item_id=f"{drive_id}!{v['id']}", path=v.get("name", v["id"]),
            version=str(v.get("cTag") or v.get("eTag") or v.get("lastModifiedDateTime", "")),
            size=int(v.get("size", 0)), allowed=access[v["id"]], web_url=v.get("webUrl", ""),
            parent=f"{drive_id}!{v.get('parentReference', {}).get('id', '')}",
            extra={"drive": drive_id, "id": v["id"]}) for v in files]
        return upserts, deletes, folders

    # --- access -------------------------------------------------------------------------
    def _access(self, item_ids: list[str], drive_id: str) -> dict[str, tuple[str, ...]]:
        """Each file's groups from its permissions, 20 items per ``$batch`` call."""
        out: dict[str, tuple[str, ...]] = {}
        for start in range(0, len(item_ids), BATCH):
            chunk = item_ids[start:start + BATCH]
            body = {"requests": [{"id": str(n), "method": "GET",
                                  "url": f"/drives/{drive_id}/items/{item_id}/permissions"}
                                 for n, item_id in enumerate(chunk)]}
            answer = self.client.request("POST", f"{self.base}/$batch", json=body).json()
            by_id = {r["id"]: r for r in answer.get("responses", [])}
            for n, item_id in enumerate(chunk):
                reply = by_id.get(str(n), {})
                if reply.get("status") == 200:
                    perms = reply.get("body", {}).get("value", [])
                else:  # throttled or failed inside the batch: ask for this one alone (retried)
                    perms = self.client.get_json(
                        f"{self.base}/drives/{quote(drive_id)}/items/{quote(item_id)}/permissions"
                    ).get("value", [])
                out[item_id] = self.groups_of(perms)
        return out

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
                found.update(_identity_groups(identity))
        return tuple(sorted(found))

    # --- content ------------------------------------------------------------------------
    def fetch(self, item: SourceItem, dest: Path) -> None:
        drive, item_id = item.extra["drive"], item.extra["id"]
        self.client.download(f"{self.base}/drives/{quote(drive)}/items/{quote(item_id)}/content", dest)


def _identity_groups(identity: dict[str, Any]) -> list[str]:
    out = []
    if identity.get("group", {}).get("id"):
        out.append(str(identity["group"]["id"]))
    if identity.get("siteGroup", {}).get("displayName"):
        out.append(f"sp:{identity['siteGroup']['displayName']}")
    if identity.get("user", {}).get("id"):
        out.append(f"user:{identity['user']['id']}")
    return out
