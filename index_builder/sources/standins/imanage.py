"""iManage Work as the iManage source calls it, on loopback TLS.

iManage Work API v2 (help.imanage.com "Universal API" reference; sign-in required there, so
these shapes are as documented to iManage customers and are unverified here):
* POST /auth/oauth2/token (grant_type=password), token in X-Auth-Token; GET /api (discovery)
* GET  /work/api/v2/customers/{c}/libraries/{l}/workspaces/{id} and /security
* GET  /work/api/v2/customers/{c}/libraries/{l}/documents?workspace_id&latest&edit_date_from&limit&offset
* GET  .../documents/{id}/security, .../documents/{id}/download

A document's own security change (``Library.set_access`` on a private document) does not
change its edit date, and a deleted document simply stops being listed: neither shows in the
edit-date feed, as the source's docstring says of the real service.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from index_builder.sources.standins.library import Doc, Library
from index_builder.sources.standins.server import Emulator


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
            return 200, {}, {"data": {"default_security": "private", "acl": _acl(doc.allowed or [], doc.denied)}}
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
