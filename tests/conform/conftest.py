"""Fixtures for conforming: an index of two real Common Paper agreements (CC BY 4.0) built
with the hashing embedder, and an app over it. Nothing here needs a network or a model."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

from addin_server.service import build_service
from addin_server.web.app import create_app
from index_builder.index.build import build_index
from index_builder.settings import Settings, updated

DOCS = ("common-paper-cc-by-4.0/common-paper-pilot-agreement.docx",
        "common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx")


@pytest.fixture(scope="module")
def conform_index(tmp_path_factory: pytest.TempPathFactory, contracts_dir: Path,
                  embedder_factory: Any) -> Path:
    root = tmp_path_factory.mktemp("conform")
    library = root / "library"
    library.mkdir()
    for name in DOCS:
        shutil.copy(contracts_dir / name, library / Path(name).name)
    settings = Settings(index_dir=root / "index")
    build_index(settings, [library], embedder_factory(), progress=False)
    return root / "index"


@pytest.fixture
def conform_app(conform_index: Path, embedder: Any, tmp_path: Path) -> Iterator[Any]:
    settings = updated(Settings(index_dir=conform_index), {
        "rerank.default": "off", "rerank.cross_encoder": "", "server.rate_limit": "off",
        "audit.file": tmp_path / "audit.jsonl"})
    service = build_service(settings, embedder=embedder)
    app = create_app(settings, service)
    app.config["TESTING"] = True
    yield app
    service.close()
