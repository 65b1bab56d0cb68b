import io
import zipfile

import numpy as np
import pytest
import responses

from index_builder.evaluate.acord import ACORD_ARCHIVE_URL, download_acord, load_acord
from index_builder.index.embedder import SentenceTransformerEmbedder
from index_builder.errors import DataNotFoundError, ModelLoadError, PrecedentError
from index_builder.settings import EmbeddingSettings


def _archive_of(folder) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as bundle:
        for path in folder.rglob("*"):
            if path.is_file():
                bundle.write(path, f"acord-main/data/{path.relative_to(folder).as_posix()}")
        bundle.writestr("acord-main/README.md", "ACORD")
    return buffer.getvalue()


@responses.activate
def test_download_unpacks_the_beir_files(tmp_path, mini_acord):
    responses.get(ACORD_ARCHIVE_URL, body=_archive_of(mini_acord), content_type="application/zip")
    dest = download_acord(tmp_path / "acord")
    acord = load_acord(dest)
    assert acord.split_queries("test")
    assert (dest / "query_formats.tsv").is_file()


@responses.activate
def test_download_failure_says_what_to_do(tmp_path):
    responses.get(ACORD_ARCHIVE_URL, status=503)
    with pytest.raises(PrecedentError, match="download it by hand"):
        download_acord(tmp_path / "acord")


@responses.activate
def test_download_of_something_else_is_refused(tmp_path):
    responses.get(ACORD_ARCHIVE_URL, body=b"<html>rate limited</html>")
    with pytest.raises(PrecedentError, match="not a zip"):
        download_acord(tmp_path / "acord")


def test_missing_acord_names_the_fix(tmp_path):
    with pytest.raises(DataNotFoundError, match="download-acord"):
        load_acord(tmp_path)


@pytest.mark.slow
def test_packaged_minilm_embeds_offline():
    embedder = SentenceTransformerEmbedder(EmbeddingSettings())
    vectors = embedder.embed(["The liability of either party is capped at the fees paid.",
                              "Neither party's aggregate liability shall exceed amounts paid.",
                              "This agreement is governed by the laws of Delaware."])
    assert vectors.shape == (3, embedder.dimension) == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]


def test_unknown_model_names_the_setting(tmp_path):
    with pytest.raises(ModelLoadError, match="PRECEDENT_EMBEDDING_MODEL"):
        SentenceTransformerEmbedder(EmbeddingSettings(model=str(tmp_path / "no-such-model")))
