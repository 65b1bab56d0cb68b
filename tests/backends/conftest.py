"""The backend contract suite runs once per engine: ``store_factory(settings) -> IndexStore``.

Engines register here; a test module that uses ``store_factory`` runs against each.
Milvus runs as milvus-lite (the real engine in a subprocess), started once per test session
on one file; each test gets its own collection, named after its index folder.
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable, Iterator

import pytest

from index_builder.index.backend import IndexStore
from index_builder.index.embedded import EmbeddedStore
from index_builder.settings import Settings, updated

Factory = Callable[[Settings], IndexStore]


def _embedded(uri: str) -> Factory:
    return lambda s: EmbeddedStore(s.index_dir, s.bm25)


def _segmented(uri: str) -> Factory:
    """The embedded engine's layout for large libraries (IVF-PQ, postings per segment),
    forced at test size, with segments small enough that the 10k-clause tests span three."""
    from index_builder.index.segmented_build import SegmentSettings

    return lambda s: EmbeddedStore(s.index_dir, s.bm25, dense="ivfpq",
                                   segments=SegmentSettings(segment_clauses=4_000))


def milvus_settings(settings: Settings, uri: str) -> Settings:
    """Settings for a Milvus store on the session's milvus-lite file, one collection per index."""
    name = "t_" + hashlib.sha1(str(settings.index_dir).encode()).hexdigest()[:16]
    return updated(settings, {"backend": "milvus", "milvus.uri": uri, "milvus.collection": name})


def _milvus(uri: str) -> Factory:
    from index_builder.index.milvus import MilvusStore

    return lambda s: MilvusStore(milvus_settings(s, uri))


ENGINES: dict[str, Callable[[str], Factory]] = {"embedded": _embedded, "milvus": _milvus,
                                                "segmented": _segmented}


@pytest.fixture(scope="session")
def milvus_lite_uri(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One milvus-lite server for the whole session (starting one costs ~1 s and a process)."""
    path = str(tmp_path_factory.mktemp("milvus") / "milvus.db")
    yield path
    from index_builder.index.milvus_connection import stop_lite

    stop_lite(path)


@pytest.fixture(params=sorted(ENGINES))
def store_factory(request: Any) -> Factory:
    uri = request.getfixturevalue("milvus_lite_uri") if request.param == "milvus" else ""
    return ENGINES[request.param](uri)
