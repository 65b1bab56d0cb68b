"""Milvus going wrong: clear errors that name the fix, and the live version keeps serving."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from index_builder.errors import (
    ConfigError,
    DocumentError,
    IndexFormatError,
    IndexNotFoundError,
    SearchEngineUnavailableError,
)
from index_builder.index import milvus_connection, milvus_write
from index_builder.index.backend import VersionData
from index_builder.index.milvus import MilvusStore
from index_builder.index.milvus_connection import stop_lite
from index_builder.model import Clause
from index_builder.retrieve.pipeline import build_pipeline
from index_builder.settings import Settings, load_settings, updated
from tests.backends.conftest import milvus_settings
from tests.conftest import REPO, HashingEmbedder


def _data(texts: list[str], groups: str = "everyone") -> VersionData:
    embedder = HashingEmbedder()
    clauses = [Clause(f"c{i}", text, "doc", metadata={"access_groups": groups})
               for i, text in enumerate(texts)]
    params = {"embedding_model": embedder.model_id, "dimension": embedder.dimension,
              "clauses": len(clauses), "documents": 1}
    return VersionData(params, clauses, {"doc": {"kind": "file"}}, embedder.embed(texts))


@pytest.fixture
def milvus_config(tmp_path: Path, milvus_lite_uri: str) -> Settings:
    return milvus_settings(load_settings({}, {"index_dir": tmp_path / "index"}), milvus_lite_uri)


def test_an_unreachable_uri_names_the_setting_and_hides_the_token(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(milvus_connection, "CONNECT_TIMEOUT_S", 0.5)
    settings = load_settings({"PRECEDENT_MILVUS_URI": "http://127.0.0.1:9",
                              "PRECEDENT_MILVUS_TOKEN": "root:s3cret"},
                             {"index_dir": tmp_path, "backend": "milvus"})
    with pytest.raises(SearchEngineUnavailableError) as caught:
        MilvusStore(settings)
    message = caught.value.message
    assert "http://127.0.0.1:9" in message and "PRECEDENT_MILVUS_URI" in message
    assert "s3cret" not in message


def test_a_bad_collection_name_is_a_config_error(tmp_path: Path) -> None:
    settings = load_settings({"PRECEDENT_MILVUS_COLLECTION": "my clauses; drop"},
                             {"index_dir": tmp_path, "backend": "milvus"})
    with pytest.raises(ConfigError, match="PRECEDENT_MILVUS_COLLECTION"):
        MilvusStore(settings)


def test_no_index_yet_says_how_to_build_one(milvus_config: Settings) -> None:
    store = MilvusStore(milvus_config)
    with pytest.raises(IndexNotFoundError, match="index-builder build --backend milvus"):
        store.open()
    assert store.previous("any").version == ""
    with pytest.raises(IndexNotFoundError):
        store.open("not a version")


def test_a_failed_rebuild_leaves_the_live_version_serving(
        milvus_config: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    store = MilvusStore(milvus_config)
    live = store.write(_data(["Liability is capped at the fees paid.", "Notices by email."]))
    reader = store.open()
    before = set(store._client.list_collections())
    # A clause the engine cannot hold: refused after the new collection was created.
    too_many = ",".join(f"g{i}" for i in range(5000))
    with pytest.raises(DocumentError, match="live version is unchanged"):
        store.write(_data(["Governing law is New York."], groups=too_many))
    # The engine failing mid-way: the same, as an error that names the setting to check.
    real_insert = store._client.insert
    calls: list[str] = []

    def failing_insert(collection: str, rows: Any, **kwargs: Any) -> Any:
        calls.append(collection)
        if len(calls) == 2:
            from pymilvus.exceptions import MilvusException

            raise MilvusException(message="node down")
        return real_insert(collection, rows, **kwargs)

    monkeypatch.setattr(milvus_write, "INSERT_BATCH", 1)
    monkeypatch.setattr(store._client, "insert", failing_insert)
    with pytest.raises(SearchEngineUnavailableError, match="node down.*PRECEDENT_MILVUS_URI"):
        store.write(_data(["One.", "Two.", "Three."]))
    monkeypatch.undo()
    assert store.live_version() == live
    assert set(store._client.list_collections()) == before  # the half-written ones were dropped
    assert reader.lexical(["liability fees"], 3)[0][0] == "c0"
    with pytest.raises(IndexFormatError, match="2 clauses but 1 vectors"):
        data = _data(["a", "b"])
        store.write(VersionData(data.params, data.clauses, data.documents, data.embeddings[:1]))


def test_an_index_embedded_with_another_model_is_refused_with_the_fix(
        milvus_config: Settings) -> None:
    store = MilvusStore(milvus_config)
    store.write(_data(["Liability is capped at the fees paid."]))

    class OtherEmbedder(HashingEmbedder):
        model_id = "another-model"

    with pytest.raises(ConfigError, match="PRECEDENT_EMBEDDING_MODEL=test-hashing"):
        build_pipeline(milvus_config, OtherEmbedder(), backend=store.open(), cross_encoder=False)
    assert store.previous("another-model").vectors == {}


def test_milvus_lite_chatter_goes_to_a_log_file_not_the_terminal(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    settings = updated(load_settings({}, {"index_dir": tmp_path}), {"backend": "milvus"})
    store = MilvusStore(settings)  # its own milvus-lite server: INDEX_DIR/milvus.db
    try:
        version = store.write(_data(["Liability is capped at the fees paid."]))
        assert store.open().lexical(["fees"], 1)[0][0] == "c0"
        # Something the engine complains about in its own log: lite builds no array index.
        from pymilvus.exceptions import MilvusException

        index = store._client.prepare_index_params()
        index.add_index("access_groups", index_type="INVERTED")
        with pytest.raises(MilvusException):
            store._client.create_index(version, index)
        assert capfd.readouterr().err == ""
        assert "create_index" in (tmp_path / "milvus.db.log").read_text()
    finally:
        store.close()
        stop_lite(str(tmp_path / "milvus.db"))


def test_a_milvus_lite_file_open_in_another_process_is_explained(milvus_config: Settings) -> None:
    MilvusStore(milvus_config)  # this process holds the session's file
    code = ("import sys; from index_builder.index.milvus import MilvusStore; "
            "from index_builder.settings import load_settings; from index_builder.errors import "
            "PrecedentError\ntry:\n    MilvusStore(load_settings({}, {'index_dir': sys.argv[1], "
            "'backend': 'milvus', 'milvus.uri': sys.argv[2]}))\nexcept PrecedentError as e:\n"
            "    print(e.message)")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", code, str(milvus_config.index_dir),
                           milvus_config.milvus.uri], capture_output=True, text=True, timeout=120,
                          env=env, cwd=REPO)
    assert "another program has it open" in done.stdout
    assert "PRECEDENT_MILVUS_URI" in done.stdout


def test_an_embedded_index_copies_to_milvus_without_re_embedding(
        tmp_path: Path, milvus_config: Settings) -> None:
    from index_builder.index.embedded import EmbeddedStore

    data = _data(["Liability is capped at the fees paid.", "Notices by email."])
    embedded = EmbeddedStore(tmp_path / "embedded")
    embedded.write(VersionData({**data.params, "format_version": 1}, data.clauses,
                               {"doc": {"kind": "file", "sha256": "abc"}}, data.embeddings))
    store = MilvusStore(milvus_config)
    with pytest.raises(IndexFormatError, match="embedded with test-hashing, not other"):
        store.copy_from(embedded, "other")
    store.copy_from(embedded, HashingEmbedder.model_id)
    query = HashingEmbedder().embed(["fees paid"])
    copied, original = store.open().dense(query, 2), embedded.open().dense(query, 2)
    assert [c for c, _ in copied] == [c for c, _ in original] == ["c0", "c1"]
    assert [s for _, s in copied] == pytest.approx([s for _, s in original], abs=1e-6)
    assert store.previous(HashingEmbedder.model_id).documents == {
        "doc": {"kind": "file", "sha256": "abc"}}
