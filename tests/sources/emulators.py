"""Loopback emulations of Entra ID, Microsoft Graph and iManage Work, over TLS on 127.0.0.1.

They answer the documented request and response shapes, so the sources' real client code
(MSAL, ``index_builder/sources/http.py``) talks to them unchanged, pointed at by URL. Faults
are switched on per test: throttling (429/503 with Retry-After), expired tokens (401), an
expired delta link (410), a service that is down. Each route names its reference page.

Entra ID (MSAL client credentials):
* GET  /{tenant}/v2.0/.well-known/openid-configuration
  https://learn.microsoft.com/entra/identity-platform/v2-protocols-oidc
* POST /{tenant}/oauth2/v2.0/token (client_secret, or client_assertion signed by the certificate)
  https://learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow
Microsoft Graph v1.0:
* GET  /v1.0/drives/{id}, /v1.0/sites/{site}/drives       https://learn.microsoft.com/graph/api/drive-get, drive-list
* GET  /v1.0/drives/{id}/root/delta (nextLink/deltaLink, deleted facet, 410 resyncRequired)
  https://learn.microsoft.com/graph/api/driveitem-delta
* POST /v1.0/$batch (permissions of up to 20 items)       https://learn.microsoft.com/graph/json-batching
* GET  /v1.0/drives/{d}/items/{id}/permissions (grantedToV2, grantedToIdentitiesV2, link)
  https://learn.microsoft.com/graph/api/driveitem-list-permissions,
  https://learn.microsoft.com/graph/api/resources/permission, .../resources/sharinglink
* GET  /v1.0/drives/{d}/items/{id}/content -> 302 to a pre-authenticated URL
  https://learn.microsoft.com/graph/api/driveitem-get-content
* 429/503 + Retry-After                                   https://learn.microsoft.com/graph/throttling
iManage Work API v2 (help.imanage.com "Universal API" reference; sign-in required there, so
these shapes are as documented to iManage customers and are unverified here):
* POST /auth/oauth2/token (grant_type=password), token in X-Auth-Token; GET /api (discovery)
* GET  /work/api/v2/customers/{c}/libraries/{l}/workspaces/{id} and /security
* GET  /work/api/v2/customers/{c}/libraries/{l}/documents?workspace_id&latest&edit_date_from&limit&offset
* GET  .../documents/{id}/security, .../documents/{id}/download
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
import ssl
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import jwt


# --- the library both services hold ------------------------------------------------------

@dataclass
class Doc:
    id: str
    path: str  # "Matters/Acme/spa.docx" (iManage: the first folder is the workspace)
    content: bytes | Path  # bytes, or a file streamed from disk (the 200 MB test)
    allowed: list[str]
    denied: list[str] = field(default_factory=list)
    version: int = 1
    seq: int = 0  # change sequence (Graph delta)
    edited: str = ""  # ISO time (iManage edit_date)
    deleted: bool = False
    sharing_only: bool = False  # its last change was to its permissions alone

    @property
    def size(self) -> int:
        return self.content.stat().st_size if isinstance(self.content, Path) else len(self.content)


class Library:
    """Documents as a DMS holds them; every change bumps a sequence number and a clock."""

    def __init__(self) -> None:
        self.docs: dict[str, Doc] = {}
        self.seq = 0
        self.clock = dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.timezone.utc)
        self.lock = threading.Lock()

    def _touch(self, doc: Doc, content_changed: bool = True) -> None:
        self.seq += 1
        self.clock += dt.timedelta(minutes=1)
        doc.seq = self.seq
        doc.sharing_only = False
        if content_changed:
            doc.version += 1
            doc.edited = self.clock.strftime("%Y-%m-%dT%H:%M:%SZ")

    def add(self, path: str, content: bytes | Path, allowed: list[str], denied: list[str] = ()) -> Doc:
        with self.lock:
            doc = Doc(f"D{len(self.docs) + 1:06d}", path, content, list(allowed), list(denied), 0)
            self.docs[doc.id] = doc
            self._touch(doc)
            return doc

    def find(self, path: str) -> Doc:
        return next(d for d in self.docs.values() if d.path == path and not d.deleted)

    def edit(self, path: str, content: bytes) -> None:
        with self.lock:
            doc = self.find(path)
            doc.content = content
            self._touch(doc)

    def move(self, path: str, new_path: str) -> None:
        with self.lock:
            doc = self.find(path)
            doc.path = new_path
            self._touch(doc)

    def delete(self, path: str) -> None:
        with self.lock:
            doc = self.find(path)
            doc.deleted = True
            self._touch(doc, content_changed=False)

    def set_access(self, path: str, allowed: list[str], denied: list[str] = ()) -> None:
        with self.lock:
            doc = self.find(path)
            doc.allowed, doc.denied = list(allowed), list(denied)
            self._touch(doc, content_changed=False)
            doc.sharing_only = True

    def live(self) -> list[Doc]:
        return [d for d in self.docs.values() if not d.deleted]


# --- TLS loopback server with fault injection ---------------------------------------------

@dataclass
class Faults:
    throttle: int = 0  # the next N API requests answer `throttle_status` with Retry-After
    throttle_status: int = 429
    retry_after: str = "3"
    expire_delta: bool = False  # the next delta call with a token answers 410 resyncRequired


class Emulator:
    """One HTTPS server on 127.0.0.1; subclasses route. ``url`` is its base."""

    def __init__(self, cert: tuple[Path, Path]) -> None:
        self.faults = Faults()
        self.tokens: set[str] = set()
        self.token_requests = 0
        self.requests: list[tuple[str, str]] = []  # (method, path?query) of API calls
        emulator = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                emulator._handle(self, "GET")

            def do_POST(self) -> None:
                emulator._handle(self, "POST")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(str(cert[0]), str(cert[1]))
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.url = f"https://localhost:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "Emulator":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def expire_tokens(self) -> None:
        """Every token issued so far is now refused (401), as an expired one is."""
        self.tokens.clear()

    def issue(self) -> str:
        token = secrets.token_urlsafe(16)
        self.tokens.add(token)
        self.token_requests += 1
        return token

    # subclasses: route(handler, method, path, query, body) -> (status, headers, body)
    def route(self, method: str, path: str, query: dict[str, str], body: bytes,
              headers: Any) -> tuple[int, dict[str, str], Any]:
        raise NotImplementedError

    def _handle(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        parts = urlsplit(handler.path)
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        try:
            status, headers, payload = self.route(method, unquote(parts.path), query, body,
                                                  handler.headers)
        except KeyError:
            status, headers, payload = 404, {}, {"error": {"code": "itemNotFound"}}
        if isinstance(payload, Path):  # streamed from disk, 1 MiB at a time
            size = payload.stat().st_size
            handler.send_response(status)
            handler.send_header("Content-Length", str(size))
            handler.send_header("Content-Type", "application/octet-stream")
            handler.end_headers()
            with open(payload, "rb") as data:
                while block := data.read(1 << 20):
                    handler.wfile.write(block)
            return
        raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        handler.send_response(status)
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(raw)))
        if not isinstance(payload, bytes):
            handler.send_header("Content-Type", "application/json")
        handler.end_headers()
        handler.wfile.write(raw)

    def _api_gate(self, method: str, path: str, query: dict[str, str], token: str | None
                  ) -> tuple[int, dict[str, str], Any] | None:
        """Throttling first (as Graph does), then the token."""
        self.requests.append((method, path + ("?" + "&".join(f"{k}={v}" for k, v in sorted(query.items()))
                                              if query else "")))
        if self.faults.throttle > 0:
            self.faults.throttle -= 1
            return (self.faults.throttle_status, {"Retry-After": self.faults.retry_after},
                    {"error": {"code": "activityLimitReached", "message": "The request has been throttled"}})
        if token not in self.tokens:
            return 401, {}, {"error": {"code": "InvalidAuthenticationToken",
                                       "message": "Access token has expired or is not yet valid."}}
        return None


# --- Entra ID + Microsoft Graph -----------------------------------------------------------

class GraphEmulator(Emulator):
    """Entra ID's token endpoint and Graph's drive, delta, permissions, batch and content."""

    def __init__(self, cert: tuple[Path, Path], library: Library, tenant: str = "contoso-tenant",
                 client_id: str = "app-1", secret: str = "s3cret-Graph-77", public_key: Any = None,
                 page_size: int = 200) -> None:
        super().__init__(cert)
        self.library = library
        self.tenant, self.client_id, self.secret = tenant, client_id, secret
        self.public_key = public_key  # the app's certificate key: client_assertion is checked
        self.page_size = page_size
        self.drive_id = "b!drive-precedents"
        self.drive_name = "Precedents"
        self.organisation_link = True  # every file also has an org-wide view link
        self._cached: tuple[Any, list[dict[str, Any]]] = (None, [])
        self.missing: set[str] = set()  # documents whose download answers 404
        # More document libraries of the same site: drive id -> [name, library, cache]. A
        # request for one swaps it in under a lock (the sync's requests come one at a time).
        self.drives: dict[str, list[Any]] = {}
        self._swap = threading.RLock()

    def add_drive(self, drive_id: str, name: str, library: Library) -> None:
        self.drives[drive_id] = [name, library, (None, [])]

    def route(self, method: str, path: str, query: dict[str, str], body: bytes,
              headers: Any) -> tuple[int, dict[str, str], Any]:
        parts = path.split("/")
        wanted = parts[3] if path.startswith("/v1.0/drives/") else \
            parts[2] if path.startswith("/download/") and len(parts) > 3 else None
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
        if path.startswith("/download/"):  # pre-authenticated: no token, as Graph's is
            return 200, {}, self._content(self.library.docs[path.rsplit("/", 1)[1]])  # /download/[drive/]id
        auth = headers.get("Authorization", "")
        gate = self._api_gate(method, path, query, auth.removeprefix("Bearer ") or None)
        if gate is not None:
            return gate
        drive = f"/v1.0/drives/{self.drive_id}"
        if path in (drive, ):
            return 200, {}, {"id": self.drive_id, "name": self.drive_name, "driveType": "documentLibrary"}
        if path == "/v1.0/sites/contoso.sharepoint.com:/sites/Legal/drives":
            return 200, {}, {"value": [{"id": d, "name": n, "driveType": "documentLibrary"} for d, n in
                                       [(self.drive_id, self.drive_name)] + [(k, v[0]) for k, v in self.drives.items()]]}
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
        if doc.id in self.missing:
            raise KeyError(doc.id)  # 404: deleted after the listing saw it
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
        docs = sorted((d for d in self.library.docs.values() if since < d.seq <= snap or
                       (since == 0 and not d.deleted and d.seq <= snap)), key=lambda d: d.id)
        if since and not sharing:
            docs = [d for d in docs if not d.sharing_only]
        if since == 0:
            docs = [d for d in docs if not d.deleted]
        folders: dict[str, dict[str, Any]] = {"": {"id": "root", "name": "root", "root": {},
                                                   "folder": {"childCount": 0}}}
        for doc in docs:
            if doc.deleted:
                continue
            parts = doc.path.split("/")[:-1]
            for depth in range(len(parts)):
                key = "/".join(parts[:depth + 1])
                folders.setdefault(key, {"id": _fid(key), "name": parts[depth], "folder": {"childCount": 1},
                                         "parentReference": {"driveId": self.drive_id,
                                                             "id": _fid("/".join(parts[:depth]))}})
        files = []
        for doc in docs:
            parent = {"driveId": self.drive_id, "id": _fid(doc.path.rpartition("/")[0])}
            if doc.deleted:
                files.append({"id": doc.id, "deleted": {"state": "deleted"}, "parentReference": parent})
                continue
            files.append({"id": doc.id, "name": doc.path.rsplit("/", 1)[-1], "size": doc.size,
                          "cTag": f'"c:{{{doc.id}}},{doc.version}"', "eTag": f'"{{{doc.id}}},{doc.seq}"',
                          "webUrl": f"https://contoso.sharepoint.com/sites/Legal/Precedents/{doc.path}",
                          "lastModifiedDateTime": doc.edited, "parentReference": parent,
                          "file": {"mimeType": "application/octet-stream"}})
        return sorted(folders.values(), key=lambda f: f["id"] != "root") + files

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
        doc = self.library.docs[item_id]
        perms = [{"id": f"p-{g}", "roles": ["read"], "grantedToV2": {"group": {"id": g, "displayName": g}}}
                 for g in doc.allowed if not g.startswith("user:") and g != "*"]
        users = [{"user": {"id": g[5:], "displayName": g[5:]}} for g in doc.allowed if g.startswith("user:")]
        if users:  # a "specific people" sharing link
            perms.append({"id": "p-link-users", "roles": ["read"], "link": {"scope": "users", "type": "view"},
                          "grantedToIdentitiesV2": users})
        if self.organisation_link:
            perms.append({"id": "p-link-org", "roles": ["read"], "link": {"scope": "organization", "type": "view",
                          "webUrl": "https://contoso.sharepoint.com/:w:/s/Legal/x"}})
        perms.append({"id": "p-owners", "roles": ["owner"],
                      "grantedToV2": {"siteGroup": {"id": "3", "displayName": "Legal Owners"}}})
        return perms


def _fid(folder_path: str) -> str:
    return "root" if not folder_path else "F" + hashlib.sha1(folder_path.encode()).hexdigest()[:10]


# --- iManage Work -------------------------------------------------------------------------

class IManageEmulator(Emulator):
    """iManage Work's sign-in, discovery, workspaces, documents, security and download."""

    def __init__(self, cert: tuple[Path, Path], library: Library, customer: str = "42",
                 db: str = "ACTIVE", username: str = "svc-precedent", password: str = "pw-iManage-42",
                 client_id: str = "precedent-app", client_secret: str = "cs-iManage-13") -> None:
        super().__init__(cert)
        self.library = library
        self.customer, self.db = customer, db
        self.credentials = {"username": username, "password": password, "client_id": client_id,
                            "client_secret": client_secret}
        # workspace id -> (name, default security, ACL); a document's workspace is its first folder
        self.workspaces: dict[str, dict[str, Any]] = {}
        self.private: set[str] = set()  # document ids with their own ACL
        self._listed: dict[tuple[str, str, int], list[Doc]] = {}

    def add_workspace(self, ws_id: str, name: str, groups: list[str], denied: list[str] = ()) -> None:
        self.workspaces[ws_id] = {"name": name, "default_security": "private",
                                  "acl": _acl(groups, denied)}

    def route(self, method: str, path: str, query: dict[str, str], body: bytes,
              headers: Any) -> tuple[int, dict[str, str], Any]:
        if path == "/auth/oauth2/token" and method == "POST":
            form = {k: v[-1] for k, v in parse_qs(body.decode()).items()}
            if form.get("grant_type") != "password" or any(form.get(k) != v for k, v in self.credentials.items()):
                return 401, {}, {"error": "invalid_grant"}
            return 200, {}, {"access_token": self.issue(), "token_type": "bearer", "expires_in": 1800}
        gate = self._api_gate(method, path, query, headers.get("X-Auth-Token"))
        if gate is not None:
            return gate
        if path == "/api":
            return 200, {}, {"data": {"user": {"customer_id": int(self.customer), "id": "SVC-PRECEDENT"},
                                      "versions": [{"name": "v2", "url": f"{self.url}/work/api/v2"}]}}
        base = f"/work/api/v2/customers/{self.customer}/libraries/{self.db}"
        if not path.startswith(base):
            return 404, {}, {"error": {"code": "NOT_FOUND"}}
        rest = path[len(base):].strip("/").split("/")
        if rest[0] == "workspaces":
            ws = self.workspaces[rest[1]]
            if len(rest) == 3 and rest[2] == "security":
                return 200, {}, {"data": {"default_security": ws["default_security"], "acl": ws["acl"]}}
            return 200, {}, {"data": {"id": rest[1], "name": ws["name"], "wstype": "workspace",
                                      "default_security": ws["default_security"]}}
        if rest == ["documents"]:
            return 200, {}, {"data": self._documents(query)}
        number = int(rest[1].split(".")[0].split("!")[-1])  # ACTIVE!12.3 -> document 12
        doc = self.library.docs[f"D{number:06d}"]
        if rest[2] == "security":
            return 200, {}, {"data": {"default_security": "private", "acl": _acl(doc.allowed, doc.denied)}}
        if rest[2] == "download":
            return 200, {}, doc.content
        return 404, {}, {"error": {"code": "NOT_FOUND"}}

    def _documents(self, query: dict[str, str]) -> list[dict[str, Any]]:
        ws_id = query["workspace_id"]
        ws_name = self.workspaces[ws_id]["name"]
        since = query.get("edit_date_from", "")
        key = (ws_id, since, self.library.seq)
        if key not in self._listed:  # one sorted listing per library state (50,000-item test)
            self._listed = {key: sorted((d for d in self.library.live()
                                         if d.path.split("/")[0] == ws_name and d.edited >= since),
                                        key=lambda d: (d.edited, d.id))}
        docs = self._listed[key]
        offset, limit = int(query.get("offset", 0)), int(query.get("limit", 500))
        out = []
        for doc in docs[offset:offset + limit]:
            name, _, ext = doc.path.rsplit("/", 1)[-1].rpartition(".")
            number = int(doc.id[1:])
            out.append({"id": f"{self.db}!{number}.{doc.version}", "document_number": number,
                        "version": doc.version, "name": name, "extension": ext.upper(),
                        "size": doc.size, "edit_date": doc.edited, "workspace_id": ws_id,
                        "default_security": "private" if doc.id in self.private else "inherit",
                        "database": self.db, "is_latest": True})
        return out


def _acl(groups: list[str], denied: list[str] = ()) -> list[dict[str, Any]]:
    acl = [{"id": g.removeprefix("user:"), "type": "user" if g.startswith("user:") else "group",
            "access_level": "read"} for g in groups]
    return acl + [{"id": g, "type": "group", "access_level": "no_access"} for g in denied]


def _serve_big_imanage(cert: tuple[Path, Path], count: int, queue: Any) -> None:
    library = Library()
    server = IManageEmulator(cert, library)
    server.add_workspace("WS-Big", "Big", ["g-all"])
    stamp = library.clock.strftime("%Y-%m-%dT%H:%M:%SZ")
    for n in range(count):  # metadata-only documents (no bytes): the listing is what is measured
        doc = Doc(f"D{n + 1:06d}", f"Big/form-{n}.docx", b"", ["g-all"], [], 1, n + 1, stamp)
        library.docs[doc.id] = doc
    queue.put(server.url)
    server.server.serve_forever()


def big_imanage_in_process(cert: tuple[Path, Path], count: int) -> tuple[str, Any]:
    """An iManage emulation of ``count`` documents in its own process (so the client's memory
    is measured alone); (url, process) - terminate the process when done."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    process = context.Process(target=_serve_big_imanage, args=(cert, count, queue), daemon=True)
    process.start()
    return queue.get(timeout=60), process


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
