"""A rebuilt index goes live without a restart, and a broken rebuild never takes the server down."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from addin_server.web.app import create_app
from addin_server.service import build_service
from index_builder.settings import Settings as AppSettings, updated
from index_builder.index.build import build_index


def _corpus(folder: Path, clauses: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"_id": cid, "text": text}) for cid, text in clauses.items()]
    (folder / "corpus.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def _poll(client: Any, clause_id: str, service: Any) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if client.get(f"/api/v1/clauses/{clause_id}").status_code == 200:
            return True
        service.live.wait_for_reload(1.0)
        time.sleep(0.05)
    return False


@pytest.fixture
def served(tmp_path: Path, app_settings: AppSettings, embedder: Any) -> Any:
    """(core settings, corpus folder, service, client) over a one-clause index, reload every 10 ms."""
    core = replace(app_settings, index_dir=tmp_path / "index")
    corpus = _corpus(tmp_path / "library", {"old": "Governing law is New York."})
    build_index(core, [corpus], embedder, progress=False)
    settings = updated(core, {"server.index_reload_s": 0.01})
    service = build_service(settings, embedder=embedder)
    yield core, corpus, service, create_app(settings, service).test_client()
    service.close()


def test_rebuilt_index_is_served_without_restart(served: Any, embedder: Any) -> None:
    core, corpus, service, client = served
    first = client.get("/api/v1/health").get_json()["index"]["version"]
    assert client.get("/api/v1/clauses/new").status_code == 404

    _corpus(corpus, {"old": "Governing law is New York.",
                                   "new": "Supplier's liability is capped at the fees paid."})
    build_index(core, [corpus], embedder, progress=False)
    assert _poll(client, "new", service), "the rebuilt index was not picked up"
    assert client.get("/api/v1/health").get_json()["index"]["version"] != first
    hits = client.post("/api/v1/precedents", json={"text": "liability cap", "rerank": False}).get_json()
    assert hits["results"][0]["clause_id"] == "new"


def test_damaged_new_version_keeps_the_old_one_live(served: Any) -> None:
    core, _, service, client = served
    broken = core.index_dir / "v-broken"
    broken.mkdir()
    (broken / "params.json").write_text('{"format_version": 1}')
    (core.index_dir / "CURRENT").write_text("v-broken\n")
    for _ in range(5):
        time.sleep(0.02)
        assert client.get("/api/v1/clauses/old").status_code == 200
        service.live.wait_for_reload(2.0)
    assert client.get("/api/v1/health").get_json()["index"]["version"].startswith("v-2")


def test_version_built_with_another_model_is_not_swapped_in(served: Any, embedder: Any) -> None:
    core, corpus, service, client = served

    class OtherModel(type(embedder)):  # type: ignore[misc]
        model_id = "another-model"

    build_index(core, [corpus], OtherModel(), progress=False)
    before = service.live.current().backend.version
    for _ in range(5):
        time.sleep(0.02)
        assert client.post("/api/v1/precedents", json={"text": "law", "rerank": False}).status_code == 200
        service.live.wait_for_reload(2.0)
    assert service.live.current().backend.version == before


def test_a_swapped_out_version_is_closed_after_its_grace(served: Any, embedder: Any,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by the soak (`precedent-bench soak`): every swap left the old version's SQLite
    connections open, one per server thread, on files the build had already deleted."""
    import os

    from index_builder.retrieve import live as live_module

    core, corpus, service, client = served
    old = service.live.current().backend
    client.post("/api/v1/precedents", json={"text": "governing law", "rerank": False})
    old_db = str(old.index.table.path.resolve())

    def open_on(path: str) -> int:
        fds = os.listdir("/proc/self/fd")
        return sum(1 for fd in fds if os.path.realpath(f"/proc/self/fd/{fd}").startswith(path))

    assert open_on(old_db) >= 1
    _corpus(corpus, {"old": "Governing law is New York.", "new": "Fees are due in 30 days."})
    build_index(core, [corpus], embedder, progress=False)
    assert _poll(client, "new", service)
    assert service.live.current().backend is not old
    monkeypatch.setattr(live_module, "RETIRE_AFTER_S", 0.0)  # the grace has passed
    time.sleep(0.02)
    client.get("/api/v1/health")  # any request runs the reload check, which closes it
    assert open_on(old_db) == 0
    assert client.post("/api/v1/precedents", json={"text": "fees", "rerank": False}).status_code == 200


def test_a_swapped_out_version_drops_its_search_caches_at_the_swap(served: Any, embedder: Any) -> None:
    """Found by the soak: each retired pipeline kept its fold cache (up to 200k clause-id
    pairs) and its result cache, useless to the new version, for its whole grace, one per
    recent swap."""
    core, corpus, service, client = served
    wordings = {f"c{i}": f"Supplier's liability is capped at the fees paid in month {i}." for i in range(6)}
    _corpus(corpus, wordings)
    build_index(core, [corpus], embedder, progress=False)
    assert _poll(client, "c5", service)
    old = service.live.current()
    client.post("/api/v1/precedents", json={"text": "liability cap", "rerank": False})
    assert len(old._fold_cache) > 0  # near-identical wordings were folded, pair by pair
    assert len(old._results) > 0  # and the search kept for a repeat
    _corpus(corpus, {**wordings, "new": "Fees are due in 30 days."})
    build_index(core, [corpus], embedder, progress=False)
    assert _poll(client, "new", service)
    assert service.live.current() is not old
    assert len(old._fold_cache) == 0
    assert len(old._results) == 0 and len(old._spans_cache) == 0
    assert client.post("/api/v1/precedents", json={"text": "liability cap", "rerank": False}).status_code == 200


def test_a_closed_version_is_unreachable_when_its_memory_is_handed_back(
        served: Any, embedder: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The memory a closed version freed goes back to the system (glibc keeps it otherwise:
    index/heap.py); that only works if nothing still holds the version when it runs."""
    import gc
    import weakref

    from index_builder.retrieve import live as live_module

    core, corpus, service, client = served
    client.post("/api/v1/precedents", json={"text": "governing law", "rerank": False})
    old = weakref.ref(service.live.current())
    old_backend = weakref.ref(service.live.current().backend)
    gc.collect()  # only what was garbage before the swap: the check below is on references
    gc.disable()  # a version freed only by the cycle collector would be freed after the trim
    try:
        seen: list[tuple[bool, bool]] = []
        monkeypatch.setattr(live_module, "release_free_memory",
                            lambda: seen.append((old() is None, old_backend() is None)) or 0)
        _corpus(corpus, {"old": "Governing law is New York.", "new": "Fees are due in 30 days."})
        build_index(core, [corpus], embedder, progress=False)
        assert _poll(client, "new", service)
        monkeypatch.setattr(live_module, "RETIRE_AFTER_S", 0.0)  # the grace has passed
        time.sleep(0.02)
        client.get("/api/v1/health")  # the reload check closes it, then hands the memory back
    finally:
        gc.enable()
    assert seen == [(True, True)]


def test_the_server_caps_its_allocation_arenas_before_loading(served: Any, embedder: Any,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """PRECEDENT_SERVER_MALLOC_ARENAS reaches glibc (index/heap.py) when the service is built."""
    from addin_server import service as service_module

    core, _, _, _ = served
    asked: list[int] = []
    monkeypatch.setattr(service_module, "limit_arenas", asked.append)
    build_service(updated(core, {"server.malloc_arenas": 3}), embedder=embedder).close()
    assert asked == [3]
