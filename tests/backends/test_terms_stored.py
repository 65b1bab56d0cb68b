"""Terms are extracted at build time and stored with the clause, on both engines; a rebuild
re-extracts only the clauses of changed documents; terms are never a filter field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from index_builder.errors import InvalidRequestError
from index_builder.index.build import build_index
from index_builder.settings import Settings, load_settings
from index_builder.terms import TERMS_KEY, terms_of

NDA = """# Mutual NDA

1. Term. This Agreement will continue for two (2) years from the Effective Date.

2. Notices. Either party may terminate on thirty (30) days' written notice.

3. Governing law. This Agreement is governed by the laws of the State of New York.
"""
MSA = """# Master Services Agreement

1. Payment. Customer will pay each invoice within 45 days of receipt.

2. Liability. Each party's total liability will not exceed $250,000.
"""


def _library(root: Path, msa: str = MSA) -> Path:
    root.mkdir(exist_ok=True)
    (root / "nda.txt").write_text(NDA)
    (root / "msa.txt").write_text(msa)
    return root


def _all(store: Any) -> dict[str, Any]:
    backend = store.open()
    try:
        ids = [f"{doc}#{n}" for doc in ("nda", "msa") for n in range(1, 4)]
        return {c.clause_id: c for c in backend.get(ids) if c is not None}
    finally:
        backend.close()


def test_terms_are_stored_with_the_clause_and_reextracted_only_for_changed_documents(
        tmp_path: Path, store_factory: Any, embedder: Any) -> None:
    settings: Settings = load_settings({}, {"index_dir": tmp_path / "index"})
    store = store_factory(settings)
    library = _library(tmp_path / "lib")
    first = build_index(settings, [library], embedder, progress=False, store=store)
    assert first.terms_extracted == first.clauses
    clauses = _all(store)
    stored = {cid: json.loads(c.metadata[TERMS_KEY]) for cid, c in clauses.items()}
    keys = {cid: [(t["type"], t["value"], t["unit"], t["text"]) for t in s["terms"]]
            for cid, s in stored.items()}
    assert ("period", 30.0, "day", "thirty (30) days") in keys[next(c for c in keys if "Notices" in clauses[c].text)]
    assert ("money", 250000.0, "USD", "$250,000") in keys[next(c for c in keys if "Liability" in clauses[c].text)]
    for cid, clause in clauses.items():  # every stored figure is the clause's own characters
        for term in terms_of(clause).terms:
            assert clause.text[term.start:term.end] == term.text

    # The MSA changes; the NDA does not: only the MSA's clauses are extracted again.
    _library(library, MSA.replace("45 days", "sixty (60) days"))
    second = build_index(settings, [library], embedder, progress=False, store=store)
    msa_clauses = sum(1 for c in clauses.values() if c.doc_id == "msa")
    assert second.terms_extracted == msa_clauses
    after = _all(store)
    payment = next(c for c in after.values() if "Payment" in c.text)
    assert [t.key for t in terms_of(payment).terms] == ["60 day"]
    assert {cid: c.metadata[TERMS_KEY] for cid, c in after.items() if c.doc_id == "nda"} == \
        {cid: c.metadata[TERMS_KEY] for cid, c in clauses.items() if c.doc_id == "nda"}

    # Terms are kept with the clause but are no filter field (one distinct value per clause).
    backend = store.open()
    try:
        assert TERMS_KEY not in backend.fields()
        with pytest.raises(InvalidRequestError):
            from index_builder.index.backend import check_fields, filters_from_mapping

            check_fields(filters_from_mapping({TERMS_KEY: "x"}), backend.fields())
    finally:
        backend.close()
