"""An in-memory embedded backend over a few clauses, for the explorer's pure functions."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import faiss
import pytest

from index_builder.index.embedded import EmbeddedBackend
from index_builder.index.lexical import BM25Index
from index_builder.index.store import ClauseIndex
from index_builder.model import Clause
from index_builder.settings import BM25Settings


def memory_backend(clauses: Sequence[Clause], embedder) -> EmbeddedBackend:  # type: ignore[no-untyped-def]
    vectors = embedder.embed([c.text for c in clauses])
    dense = faiss.IndexFlatIP(vectors.shape[1])
    dense.add(vectors)
    bm25 = BM25Index.build([c.text for c in clauses], BM25Settings())
    documents = {c.doc_id: {"kind": "file"} for c in clauses}
    index = ClauseIndex(Path("memory"), {"embedding_model": embedder.model_id}, list(clauses),
                        documents, vectors, dense, bm25)
    return EmbeddedBackend(index)


@pytest.fixture
def backend_of(embedder):  # type: ignore[no-untyped-def]
    return lambda clauses: memory_backend(clauses, embedder)
