"""Shared fixtures: real ACORD and contract data from ../shared/data, and a fast fake embedder."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Sequence

import numpy as np
import pytest

from index_builder.settings import Settings, load_settings

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
ACORD_DIR = SHARED_DATA / "acord"
CONTRACTS_DIR = SHARED_DATA / "contracts"


class HashingEmbedder:
    """Deterministic bag-of-words embedder: fast, no model, similar texts get similar vectors."""

    model_id = "test-hashing"
    dimension = 64

    def __init__(self) -> None:
        self.calls: list[int] = []  # batch sizes, so tests can see what was (re-)embedded

    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        self.calls.append(len(texts))
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"[a-z]+", text.lower()):
                slot = int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dimension
                out[row, slot] += 1.0
            norm = np.linalg.norm(out[row])
            out[row] /= norm if norm else 1.0
        return out


@pytest.fixture
def embedder() -> HashingEmbedder:
    return HashingEmbedder()


@pytest.fixture(scope="session")
def embedder_factory() -> type[HashingEmbedder]:
    """For module- or session-scoped fixtures, which cannot use the function-scoped one."""
    return HashingEmbedder


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings({}, {"index_dir": tmp_path / "index", "acord_dir": ACORD_DIR})


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"shared data not found at {path} (tests read ../shared/data beside the repo)")
    return path


@pytest.fixture(scope="session")
def acord_dir() -> Path:
    return _need(ACORD_DIR)


@pytest.fixture(scope="session")
def contracts_dir() -> Path:
    return _need(CONTRACTS_DIR)


@pytest.fixture(scope="session")
def mini_acord(tmp_path_factory: pytest.TempPathFactory, acord_dir: Path) -> Path:
    """A small real ACORD: 4 test queries, their graded clauses (up to 12 each), same format."""
    out = tmp_path_factory.mktemp("acord-mini")
    queries = [json.loads(l) for l in (acord_dir / "queries.jsonl").read_text().splitlines() if l]
    chosen = [q for q in queries if q["metadata"]["split"] == "test"][:4]
    ids = {q["_id"] for q in chosen}
    rows = (acord_dir / "qrels" / "test.tsv").read_text().splitlines()
    per_query: dict[str, list[str]] = {}
    for row in rows[1:]:
        qid, cid, grade = row.split("\t")
        if qid in ids:
            per_query.setdefault(qid, []).append(row)
    # Keep each query's best and worst judged clauses so rankings are meaningful.
    kept_rows = []
    for qid, q_rows in per_query.items():
        q_rows.sort(key=lambda r: -int(r.split("\t")[2]))
        kept_rows += q_rows[:8] + q_rows[-4:]
    clause_ids = {r.split("\t")[1] for r in kept_rows}
    corpus = [l for l in (acord_dir / "corpus.jsonl").read_text().splitlines()
              if l and json.loads(l)["_id"] in clause_ids]
    (out / "qrels").mkdir()
    (out / "corpus.jsonl").write_text("\n".join(corpus) + "\n")
    (out / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in chosen) + "\n")
    for split in ("train", "valid", "test"):
        body = kept_rows if split == "test" else []
        (out / "qrels" / f"{split}.tsv").write_text("\n".join(["query-id\tcorpus-id\tscore", *body]) + "\n")
    formats = (acord_dir / "query_formats.tsv").read_text().splitlines()
    (out / "query_formats.tsv").write_text("\n".join(formats) + "\n")
    return out
