"""Entra ID and Microsoft Graph as the SharePoint/OneDrive source calls them, on loopback TLS.

Entra ID (MSAL client credentials):
* GET  /{tenant}/v2.0/.well-known/openid-configuration
  https://learn.microsoft.com/entra/identity-platform/v2-protocols-oidc
* POST /{tenant}/oauth2/v2.0/token (client_secret, or client_assertion signed by the certificate)
  https://learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow
Microsoft Graph v1.0:
* GET  /v1.0/drives/{id}, /v1.0/sites/{site}/drives, /v1.0/users/{upn}/drive (each with webUrl)
  https://learn.microsoft.com/graph/api/drive-get, drive-list
* GET  /v1.0/drives/{id}/root/delta (nextLink/deltaLink, deleted facet, 410 resyncRequired)
  https://learn.microsoft.com/graph/api/driveitem-delta. Folders keep their ids when renamed;
  a renamed, deleted or re-permissioned folder is reported as the folder alone (the files
  below are not listed again: the stricter of the behaviours the scanning guidance allows).
* POST /v1.0/$batch (permissions of up to 20 items)       https://learn.microsoft.com/graph/json-batching
* GET  /v1.0/drives/{d}/items/{id}/permissions (grantedToV2, grantedToIdentitiesV2, link,
  inheritedFrom; tenant-wide grants as a siteUser whose loginName is the SharePoint claim:
  "c:0-.f|rolemanager|spo-grid-all-users/<tenant id>" for "Everyone except external users",
  "c:0(.s|true" for "Everyone")
  https://learn.microsoft.com/graph/api/driveitem-list-permissions,
  https://learn.microsoft.com/graph/api/resources/permission, .../resources/sharepointidentity
* GET  /v1.0/drives/{d}/items/{id}/content -> 302 to a pre-authenticated URL on the same host
  (as a tenant's own SharePoint host can be); the download records any Authorization header
  https://learn.microsoft.com/graph/api/driveitem-get-content
* 429/503 + Retry-After                                   https://learn.microsoft.com/graph/throttling
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

import jwt

from index_builder.sources.standins.library import (EVERYONE, EVERYONE_EXCEPT_EXTERNAL, Doc,
                                                    Library)
from index_builder.sources.standins.server import Emulator

SITE_URL = "https://contoso.sharepoint.com/sites/Legal"
TENANT_GUID = "5f1c7a2e-3b9d-4e61-a0c8-9d2b7e4f6a13"  # the emulated tenant's directory id
BLOCK_PAGE = (b"<html><body><h1>Access denied</h1><p>The URL you requested is blocked by "
              b"your organisation's web proxy policy.</p></body></html>")


class GraphEmulator(Emulator):
    """Entra ID's token endpoint and Graph's drive, delta, permissions, batch and content."""

    def __init__(self, cert: tuple[Path, Path], library: Library, tenant: str = "contoso-tenant",
                 client_id: str = "app-1", secret: str = "s3cret-Graph-77", public_key: Any = None,
                 page_size: int = 200) -> None:
        super().__init__(cert)
        self.library = library
        self.tenant, self.client_id, self.secret = tenant, client_id, secret
        self.tenant_guid = TENANT_GUID
        self.public_key = public_key  # the app's certificate key: client_assertion is checked
        self.page_size = page_size
        self.drive_id = "b!drive-precedents"
        self.drive_name = "Precedents"
        self.organisation_link = True  # every file also has an org-wide view link
        self._cached: tuple[Any, list[dict[str, Any]]] = (None, [])
        self.missing: set[str] = set()  # documents whose download answers 404
        self.gone: set[str] = set()  # documents whose download answers 410 Gone
        # More document libraries of the same site: drive id -> [name, library, cache]. A
        # request for one swaps it in under a lock (the sync's requests come one at a time).
        self.drives: dict[str, list[Any]] = {}
        self.onedrives: dict[str, str] = {}  # user principal name -> drive id (users/UPN/drive)
        self._swap = threading.RLock()
        self.download_auth: list[str] = []  # Authorization headers that reached a download URL

    def add_drive(self, drive_id: str, name: str, library: Library) -> None:
        self.drives[drive_id] = [name, library, (None, [])]

    def add_onedrive(self, upn: str, drive_id: str, library: Library) -> None:
        self.add_drive(drive_id, "OneDrive", library)
        self.onedrives[upn.casefold()] = drive_id

    def drive_url(self, name: str | None = None) -> str:
        return f"{SITE_URL}/{quote(name or self.drive_name)}"

    def route(self, method: str, path: str, query: dict[str, str], body: bytes,
              headers: Any) -> tuple[int, dict[str, str], Any]:
        parts = path.split("/")
        wanted = parts[3] if path.startswith("/v1.0/drives/") else \
            parts[2] if path.startswith("/download/") and len(parts) > 3 else None
        if path.startswith("/v1.0/users/") and path.endswith("/drive"):
            wanted = self.onedrives.get(parts[3].casefold())
        if wanted not in self.drives:
            return self._route(method, path, query, body, headers)
        with self._swap:
            home = [self.drive_name, self.library, self._cached]
            self.drive_name, self.library, self._cached = self.drives[wanted]
            self.drive_id, home_id = wanted, self.drive_id
            try:
                return self._route(method, path, query, body, headers)
            finally:
                self.drives[wanted] = [self.drive_name, self.library, self._cached]
                self.drive_name, self.library, self._cached = home
                self.drive_id = home_id

    def _route(self, method: str, path: str, query: dict[str, str], body: bytes,
               headers: Any) -> tuple[int, dict[str, str], Any]:
        if path == f"/{self.tenant}/v2.0/.well-known/openid-configuration":
            base = f"{self.url}/{self.tenant}"
            return 200, {}, {"token_endpoint": f"{base}/oauth2/v2.0/token",
                             "authorization_endpoint": f"{base}/oauth2/v2.0/authorize",
                             "issuer": f"{base}/v2.0"}
        if path == f"/{self.tenant}/oauth2/v2.0/token" and method == "POST":
            return self._token(body)
        if path.startswith("/download/"):  # pre-authenticated: no token needed, none wanted
            if headers.get("Authorization"):
                self.download_auth.append(headers["Authorization"])
            try:
                return 200, {}, self._content(self.library.docs[path.rsplit("/", 1)[1]])  # /download/[drive/]id
            except _Gone:
                return 410, {}, {"error": {"code": "itemNotFound", "message": "The resource is gone."}}
        if path == "/v1.0/$batch" and method == "POST" and self.faults.block_batch:
            self.requests.append((method, path))
            return 403, {"Content-Type": "text/html"}, BLOCK_PAGE  # the proxy, not Graph
        auth = headers.get("Authorization", "")
        gate = self._api_gate(method, path, query, auth.removeprefix("Bearer ") or None)
        if gate is not None:
            return gate
        drive = f"/v1.0/drives/{self.drive_id}"
        about = {"id": self.drive_id, "name": self.drive_name, "driveType": "documentLibrary",
                 "webUrl": self.drive_url()}
        if path == drive:
            return 200, {}, about
        if path.startswith("/v1.0/users/") and path.endswith("/drive"):
            if self.drive_id not in self.onedrives.values():
                return 404, {}, {"error": {"code": "itemNotFound", "message": "no such user's drive"}}
            return 200, {}, {**about, "driveType": "business"}
        if path == "/v1.0/sites/contoso.sharepoint.com:/sites/Legal/drives":
            listed = [(self.drive_id, self.drive_name)] + [(k, v[0]) for k, v in self.drives.items()
                                                          if k not in self.onedrives.values()]
            return 200, {}, {"value": [{"id": d, "name": n, "driveType": "documentLibrary",
                                        "webUrl": self.drive_url(n)} for d, n in listed]}
        if path == f"{drive}/root/delta":
            # As Graph: a change to permissions alone shows in delta only when asked for.
            return self._delta(query, "deltashowsharingchanges" in headers.get("Prefer", ""))
        if path == "/v1.0/$batch" and method == "POST":
            requests_ = json.loads(body)["requests"]
            assert len(requests_) <= 20, "Graph batches hold at most 20 requests"
            return 200, {}, {"responses": [
                {"id": r["id"], "status": 200, "headers": {"Content-Type": "application/json"},
                 "body": {"value": self._batch_permissions(r["url"])}} for r in requests_]}
        if path.startswith(f"{drive}/items/") and path.endswith("/permissions"):
            return 200, {}, {"value": self._permissions(path.split("/")[5])}
        if path.startswith(f"{drive}/items/") and path.endswith("/content"):
            doc = self.library.docs[path.split("/")[5]]
            where = f"{self.drive_id}/{doc.id}" if self.drive_id in self.drives else doc.id
            return 302, {"Location": f"{self.url}/download/{where}"}, b""
        return 404, {}, {"error": {"code": "itemNotFound", "message": path}}

    def _token(self, body: bytes) -> tuple[int, dict[str, str], Any]:
        form = {k: v[-1] for k, v in parse_qs(body.decode()).items()}
        ok = form.get("grant_type") == "client_credentials" and form.get("client_id") == self.client_id
        if "client_assertion" in form:
            try:
                jwt.decode(form["client_assertion"], self.public_key, algorithms=["RS256", "PS256"],
                           audience=f"{self.url}/{self.tenant}/oauth2/v2.0/token")
            except jwt.PyJWTError:
                ok = False
        elif form.get("client_secret") != self.secret:
            ok = False
        if not ok:
            return 401, {}, {"error": "invalid_client",
                             "error_description": "AADSTS7000215: Invalid client secret provided."}
        return 200, {}, {"token_type": "Bearer", "expires_in": 3599, "access_token": self.issue()}

    def _content(self, doc: Doc) -> bytes | Path:
        if doc.id in self.missing or doc.deleted:
            raise KeyError(doc.id)  # 404: deleted after the listing saw it
        if doc.id in self.gone:
            raise _Gone(doc.id)
        return doc.content

    # delta: token = the change sequence the caller has seen
    def _delta(self, query: dict[str, str], sharing: bool) -> tuple[int, dict[str, str], Any]:
        token = query.get("token")
        if token is not None and self.faults.expire_delta:
            self.faults.expire_delta = False
            return 410, {}, {"error": {"code": "resyncRequired",
                                       "message": "Resync required. Replace any local items with the server's version."}}
        since = int(token or query.get("since", 0) or 0)
        snap = int(query.get("snap", self.library.seq))
        skip = int(query.get("skip", 0))
        top = int(query.get("$top", self.page_size))
        if self._cached[0] != (since, snap, self.library.seq, sharing):  # one listing per round
            self._cached = ((since, snap, self.library.seq, sharing), self._changed(since, snap, sharing))
        items = self._cached[1]
        page = items[skip:skip + top]
        out: dict[str, Any] = {"value": page}
        base = f"{self.url}/v1.0/drives/{self.drive_id}/root/delta"
        if skip + top < len(items):
            out["@odata.nextLink"] = f"{base}?since={since}&snap={snap}&skip={skip + top}&$top={top}"
        else:
            out["@odata.deltaLink"] = f"{base}?token={snap}"
        return 200, {}, out

    def _changed(self, since: int, snap: int, sharing: bool = True) -> list[dict[str, Any]]:
        lib = self.library
        docs = sorted((d for d in lib.docs.values() if since < d.seq <= snap or
                       (since == 0 and not d.deleted and d.seq <= snap)), key=lambda d: d.id)
        if since and not sharing:
            docs = [d for d in docs if not d.sharing_only]
        if since == 0:
            docs = [d for d in docs if not d.deleted]
        folders: dict[str, dict[str, Any]] = {"root": {"id": "root", "name": "root", "root": {},
                                                       "folder": {"childCount": 0}}}
        for doc in docs:
            if not doc.deleted:
                parts = doc.path.split("/")[:-1]
                for depth in range(len(parts)):
                    self._folder_entry("/".join(parts[:depth + 1]), folders)
        for fid, folder in sorted(lib.folders.items()):
            if not since < folder.seq <= snap or (folder.sharing_only and since and not sharing):
                continue
            path = lib.folder_path(fid) or ""
            if folder.deleted:
                if since:  # a first listing never shows what is already gone
                    folders[fid] = {"id": fid, "deleted": {"state": "deleted"},
                                    "parentReference": {"driveId": self.drive_id}}
            elif path:
                self._folder_entry(path, folders)
        files = []
        for doc in docs:
            parent = {"driveId": self.drive_id, "id": lib.folder_id(doc.path.rpartition("/")[0])}
            if doc.deleted:
                files.append({"id": doc.id, "deleted": {"state": "deleted"}, "parentReference": parent})
                continue
            files.append({"id": doc.id, "name": doc.path.rsplit("/", 1)[-1], "size": doc.size,
                          "cTag": f'"c:{{{doc.id}}},{doc.version}"', "eTag": f'"{{{doc.id}}},{doc.seq}"',
                          "webUrl": f"{self.drive_url()}/{quote(doc.path)}",
                          "lastModifiedDateTime": doc.edited, "parentReference": parent,
                          "file": {"mimeType": "application/octet-stream"}})
        return sorted(folders.values(), key=lambda f: f["id"] != "root") + files

    def _folder_entry(self, path: str, folders: dict[str, dict[str, Any]]) -> None:
        fid = self.library.folder_id(path)
        parent, _, name = path.rpartition("/")
        folders.setdefault(fid, {"id": fid, "name": name, "folder": {"childCount": 1},
                                 "webUrl": f"{self.drive_url()}/{quote(path)}",
                                 "parentReference": {"driveId": self.drive_id,
                                                     "id": self.library.folder_id(parent)}})

    def _batch_permissions(self, url: str) -> list[dict[str, Any]]:
        drive, item = url.split("/")[2], url.split("/")[4]  # /drives/{d}/items/{i}/permissions
        if drive not in self.drives:
            return self._permissions(item)
        with self._swap:
            home = self.library
            self.library = self.drives[drive][1]
            try:
                return self._permissions(item)
            finally:
                self.library = home

    def _permissions(self, item_id: str) -> list[dict[str, Any]]:
        lib = self.library
        if item_id in lib.docs:
            doc = lib.docs[item_id]
            allowed, own = lib.effective(doc), doc.allowed is not None
            folder_path = doc.path.rpartition("/")[0]
        else:  # a folder (or the root)
            path = "" if item_id == "root" else lib.folder_path(item_id)
            if path is None:
                raise KeyError(item_id)
            folder = lib.folders.get(item_id)
            allowed, own = lib.folder_effective(path), folder is not None and folder.access is not None
            folder_path = path.rpartition("/")[0]
        inherited = {} if own else {"inheritedFrom": {"driveId": self.drive_id,
                                                      "id": lib.folder_id(folder_path)}}
        perms = [{"id": f"p-{g}", "roles": ["read"], "grantedToV2": self._grantee(g), **inherited}
                 for g in allowed if not g.startswith("user:") and g != "*"]
        users = [{"user": {"id": g[5:], "displayName": g[5:]}} for g in allowed if g.startswith("user:")]
        if users:  # a "specific people" sharing link
            perms.append({"id": "p-link-users", "roles": ["read"], "link": {"scope": "users", "type": "view"},
                          "grantedToIdentitiesV2": users})
        if self.organisation_link:
            perms.append({"id": "p-link-org", "roles": ["read"], "link": {"scope": "organization", "type": "view",
                          "webUrl": "https://contoso.sharepoint.com/:w:/s/Legal/x"}})
        perms.append({"id": "p-owners", "roles": ["owner"],
                      "grantedToV2": {"siteGroup": {"id": "3", "displayName": "Legal Owners"}}})
        return perms

    def _grantee(self, group: str) -> dict[str, Any]:
        if group == EVERYONE_EXCEPT_EXTERNAL:
            return {"siteUser": {"id": "7", "displayName": "Everyone except external users",
                                 "loginName": f"c:0-.f|rolemanager|spo-grid-all-users/{self.tenant_guid}"}}
        if group == EVERYONE:
            return {"siteUser": {"id": "8", "displayName": "Everyone", "loginName": "c:0(.s|true"}}
        return {"group": {"id": group, "displayName": group}}


class _Gone(Exception):
    pass


def _serve_big_graph(cert: tuple[Path, Path], count: int, queue: Any) -> None:
    library = Library()
    server = GraphEmulator(cert, library, page_size=1000)
    server.organisation_link = False
    for n in range(count):  # metadata-only files in 50 folders
        doc = Doc(f"D{n + 1:06d}", f"Matters/M{n % 50:02d}/form-{n}.docx", b"", [f"g-m{n % 50:02d}"],
                  [], 1, n + 1, "2026-01-05T09:00:00Z")
        library.docs[doc.id] = doc
    library.seq = count
    queue.put(server.url)
    server.server.serve_forever()


def big_graph_in_process(cert: tuple[Path, Path], count: int) -> tuple[str, Any]:
    """A Graph emulation of ``count`` files in its own process; (url, process)."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    process = context.Process(target=_serve_big_graph, args=(cert, count, queue), daemon=True)
    process.start()
    return queue.get(timeout=60), process
