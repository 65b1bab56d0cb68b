"""The data the benchmarks read: ACORD, the shared agreements and the labelled sets.

ACORD and the agreements sit beside the checkout in ../shared/data, never inside it: like
the indexes under var/, relative to the repository root, where the benchmarks run (as the
commands in benchmarks/results/ show; PRECEDENT_ACORD_DIR's default is the same). The
labelled sets and the results are part of the source checkout: benchmarks/ in the tree this
code runs from (an installed wheel has neither).
"""

from __future__ import annotations

import importlib.util
import json
import logging
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from index_builder.errors import DataNotFoundError

if TYPE_CHECKING:
    from index_builder.model import Clause

log = logging.getLogger(__name__)

SHARED_DATA = Path("../shared/data")
ACORD = SHARED_DATA / "acord"  # ACORD in BEIR format: corpus.jsonl, queries.jsonl, qrels/
CONTRACTS = SHARED_DATA / "contracts"  # the real agreements, .docx
# The agreement firm IT adds in the load benchmarks' mid-run rebuilds.
ADDED_CONTRACT = CONTRACTS / "bonterms-cc0-1.0" / "bonterms-mutual-nda.docx"
CHECKOUT = Path(__file__).resolve().parents[2]  # the source tree this code runs from
SETS = CHECKOUT / "benchmarks"  # labelled sets: benchmarks/<set>/
RESULTS = SETS / "results"  # benchmarks/results/<benchmark>/


def jsonl(path: Path) -> list[dict[str, Any]]:
    """The rows of a JSON-lines file (blank lines skipped)."""
    return [json.loads(line) for line in Path(path).read_text("utf-8").splitlines() if line.strip()]


def acord_corpus(acord: Path = ACORD) -> list[dict[str, Any]]:
    """ACORD's clauses as BEIR rows: ``{"_id", "title", "text"}``, in file order."""
    return jsonl(Path(acord) / "corpus.jsonl")


def acord_queries(acord: Path = ACORD) -> list[dict[str, Any]]:
    """ACORD's queries as BEIR rows: ``{"_id", "text", ...}``, in file order."""
    return jsonl(Path(acord) / "queries.jsonl")


def agreements(folder: Path = CONTRACTS) -> list[Path]:
    """Every .docx under ``folder``, in a stable order."""
    return sorted(Path(folder).rglob("*.docx"))


def agreement_clauses(folder: Path = CONTRACTS) -> list[Clause]:
    """Every clause of every agreement under ``folder``, as the index builder reads them
    (doc id: the file's stem; source: its path under ``folder``). An unreadable file is
    skipped with a warning, as a build skips it."""
    from index_builder.errors import DocumentError
    from index_builder.ingest import read_clauses

    clauses: list[Clause] = []
    for path in agreements(folder):
        try:
            clauses += read_clauses(path, path.stem, path.relative_to(folder).as_posix())
        except DocumentError as exc:
            log.warning("Skipped %s: %s", path.name, exc.message)
    return clauses


def set_file(*parts: str) -> Path:
    """A labelled set's file under benchmarks/, or an error saying where it is expected."""
    path = SETS.joinpath(*parts)
    if not path.exists():
        raise DataNotFoundError(f"{path} is not here: the labelled sets come with a source "
                                "checkout of Precedent (benchmarks/), not with an installed wheel.")
    return path


def set_module(*parts: str) -> ModuleType:
    """A labelled set's own reader (e.g. benchmarks/market/labelled_set.py), loaded from its
    file: the sets live beside the code, not in the installed package."""
    path = set_file(*parts)
    spec = importlib.util.spec_from_file_location(f"benchmark_set_{path.parent.name}_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


@dataclass
class Workload:
    """The load benchmarks' query mix: texts a pane sends, and clause ids it redrafts on."""

    queries: list[str]
    clause_ids: list[str]


def workload(acord: Path, count: int, seed: int) -> Workload:
    """``count`` ACORD queries and ``count`` ACORD clauses (a lawyer's selection), shuffled;
    200 clause ids for redrafts. Deterministic for a seed."""
    rng = random.Random(seed)
    queries = [row["text"] for row in acord_queries(acord)]
    corpus = acord_corpus(acord)
    selections = [c["text"] for c in rng.sample(corpus, count)]
    texts = rng.sample(queries, min(count, len(queries))) + selections
    rng.shuffle(texts)
    return Workload(texts, [c["_id"] for c in rng.sample(corpus, 200)])
