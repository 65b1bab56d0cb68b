"""The source drivers of the contract suite: one per source (folder, SharePoint through Graph,
iManage) with the same verbs: add, edit, move, delete, revoke a group's access, throttle,
expire tokens. A module of its own (not conftest) so test files import it by a name no other
test folder's conftest shadows when several folders run together."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from addin_server.web.auth import Identity, access_filters
from index_builder.index import open_store
from index_builder.settings import Settings, load_settings
from index_builder.sources import open_source
from index_builder.sources.sync import SyncReport, sync_and_build

from index_builder.sources.standins import GraphEmulator, IManageEmulator, Library


class Driver:
    """One source under test: change its library, sync, and look at the index as a user."""

    kind = ""
    http = True
    move_to = "Acme/Signed/spa-final.txt"  # a rename and a move into a new folder

    def __init__(self, tmp: Path, embedder: Any) -> None:
        self.tmp = tmp
        self.embedder = embedder
        self.waits: list[float] = []
        self.values: dict[str, Any] = {"index_dir": tmp / "index"}

    # verbs each driver implements
    def add(self, path: str, text: str, groups: list[str]) -> None: ...
    def edit(self, path: str, text: str) -> None: ...
    def move(self, path: str, new_path: str) -> None: ...
    def delete(self, path: str) -> None: ...
    def revoke(self, path: str, group: str) -> None: ...
    def spec(self) -> str: ...
    def doc_id(self, path: str) -> str: ...

    def settings(self) -> Settings:
        return load_settings({}, self.values)

    def state_count(self) -> int:
        """Items the sync state holds (what pages were saved before a crash)."""
        from index_builder.sources.state import SyncState, state_path

        source = open_source(self.spec(), self.settings())
        state = SyncState(state_path(self.settings().index_dir, source.name), source.name)
        try:
            return state.count()
        finally:
            state.close()

    def sync(self, **kwargs: Any) -> SyncReport:
        source = open_source(self.spec(), self.settings(), sleep=self.waits.append)
        return sync_and_build(self.settings(), source, self.embedder, progress=False, **kwargs)

    def visible(self, groups: list[str]) -> dict[str, set[str]]:
        """doc id -> clause ids a user in ``groups`` can retrieve (through the wall filters)."""
        backend = open_store(self.settings()).open()
        try:
            filters = access_filters(Identity("user", "cli", tuple(groups)), True)
            total = backend.stats()["clauses"]
            ids = [cid for cid, _ in backend.dense(np.ones((1, backend.dimension), np.float32),
                                                   total, filters)]
            out: dict[str, set[str]] = {}
            for clause in backend.get(ids):
                out.setdefault(clause.doc_id, set()).add(clause.clause_id)
            return out
        finally:
            backend.close()

    def clauses(self) -> dict[str, Any]:
        """Every clause in the live version by id (no walls: the builder's view)."""
        backend = open_store(self.settings()).open()
        try:
            total = backend.stats()["clauses"]
            ids = [cid for cid, _ in backend.dense(np.ones((1, backend.dimension), np.float32), total)]
            return {c.clause_id: c for c in backend.get(ids)}
        finally:
            backend.close()


class FolderDriver(Driver):
    """A folder; access is the wall policy file (a folder has none of its own)."""

    kind, http = "folder", False

    def __init__(self, tmp: Path, embedder: Any) -> None:
        super().__init__(tmp, embedder)
        self.root = tmp / "library"
        self.root.mkdir()
        self.rules: dict[str, list[str]] = {}
        self.policy = tmp / "walls.json"
        self.values.update({"walls.policy_file": self.policy, "walls.default": "closed",
                            "sources.folder_link_base": "file://fileserver/precedents"})
        self._write_policy()

    def _write_policy(self) -> None:
        self.policy.write_text(json.dumps({"rules": [{"pattern": p, "allow": g} for p, g in self.rules.items()]}))

    def add(self, path: str, text: str, groups: list[str]) -> None:
        (self.root / path).parent.mkdir(parents=True, exist_ok=True)
        (self.root / path).write_text(text)
        self.rules[path] = list(groups)
        self._write_policy()

    def edit(self, path: str, text: str) -> None:
        (self.root / path).write_text(text)

    def move(self, path: str, new_path: str) -> None:
        (self.root / new_path).parent.mkdir(parents=True, exist_ok=True)
        (self.root / path).rename(self.root / new_path)
        self.rules[new_path] = self.rules.pop(path)
        self._write_policy()

    def delete(self, path: str) -> None:
        (self.root / path).unlink()

    def revoke(self, path: str, group: str) -> None:
        self.rules[path] = [g for g in self.rules[path] if g != group]
        self._write_policy()

    def spec(self) -> str:
        return f"folder:{self.root}"

    def doc_id(self, path: str) -> str:
        return path.rsplit(".", 1)[0]


class GraphDriver(Driver):
    """A SharePoint document library ("Precedents") behind the Graph emulation."""

    kind = "sharepoint"

    def __init__(self, tmp: Path, embedder: Any, tls: tuple[Path, Path], page_size: int = 200) -> None:
        super().__init__(tmp, embedder)
        self.library = Library()
        self.server = GraphEmulator(tls, self.library, page_size=page_size).__enter__()
        self.values.update({"sources.graph_tenant_id": "contoso-tenant", "sources.graph_client_id": "app-1",
                            "sources.graph_client_secret": "s3cret-Graph-77", "sources.ca_bundle": tls[0],
                            "sources.graph_authority_url": self.server.url,
                            "sources.graph_url": f"{self.server.url}/v1.0"})

    def add(self, path: str, text: str, groups: list[str]) -> None:
        self.library.add(path, text.encode(), groups)

    def edit(self, path: str, text: str) -> None:
        self.library.edit(path, text.encode())

    def move(self, path: str, new_path: str) -> None:
        self.library.move(path, new_path)

    def delete(self, path: str) -> None:
        self.library.delete(path)

    def revoke(self, path: str, group: str) -> None:
        doc = self.library.find(path)
        self.library.set_access(path, [g for g in doc.allowed if g != group])

    def spec(self) -> str:
        return f"sharepoint:drives/{self.server.drive_id}"

    def doc_id(self, path: str) -> str:
        return "Precedents/" + path.rsplit(".", 1)[0]

    def throttle(self, n: int, retry_after: str = "3", status: int = 429) -> None:
        self.server.faults.throttle, self.server.faults.retry_after = n, retry_after
        self.server.faults.throttle_status = status


class IManageDriver(Driver):
    """An iManage library: each top folder of a path is a workspace with its own ACL."""

    kind = "imanage"
    move_to = "Acme/spa-final.txt"  # iManage: a rename of the profile (workspaces hold no paths here)

    def __init__(self, tmp: Path, embedder: Any, tls: tuple[Path, Path]) -> None:
        super().__init__(tmp, embedder)
        self.library = Library()
        self.server = IManageEmulator(tls, self.library).__enter__()
        self.values.update({"sources.imanage_url": self.server.url, "sources.imanage_library": "ACTIVE",
                            "sources.imanage_client_id": "precedent-app", "sources.imanage_client_secret": "cs-iManage-13",
                            "sources.imanage_username": "svc-precedent", "sources.imanage_password": "pw-iManage-42",
                            "sources.ca_bundle": tls[0]})  # every sync lists whole: the default

    def add(self, path: str, text: str, groups: list[str]) -> None:
        space = path.split("/")[0]
        if f"WS-{space}" not in self.server.workspaces:
            self.server.add_workspace(f"WS-{space}", space, groups)
        self.library.add(path, text.encode(), groups)

    def edit(self, path: str, text: str) -> None:
        self.library.edit(path, text.encode())

    def move(self, path: str, new_path: str) -> None:  # a rename of the document's profile
        self.library.move(path, new_path)

    def delete(self, path: str) -> None:
        self.library.delete(path)

    def revoke(self, path: str, group: str) -> None:  # the matter's wall: the workspace ACL
        ws = self.server.workspaces[f"WS-{path.split('/')[0]}"]
        ws["acl"] = [e for e in ws["acl"] if e["id"] != group]

    def spec(self) -> str:
        return "imanage:" + ",".join(sorted(self.server.workspaces))

    def doc_id(self, path: str) -> str:
        doc = next(d for d in reversed(list(self.library.docs.values())) if d.path == path)
        stem = path.rsplit(".", 1)[0]
        return f"{stem} ({int(doc.id[1:])})"

    def throttle(self, n: int, retry_after: str = "3", status: int = 429) -> None:
        self.server.faults.throttle, self.server.faults.retry_after = n, retry_after
        self.server.faults.throttle_status = status
