"""Regenerate benchmarks/redraft_set/tasks.jsonl from spec.py and the real agreements.

    python -m benchmarks.redraft_set.build [--contracts ../shared/data/contracts]

Every clause is read with the project's own ingest (index_builder.ingest.read_clauses), so
ids, sections and citations are the ones the index would hold. The lawyer's clause is the
chosen sentences of the clause's body (section number and heading stripped). Precedents:
the hand-chosen ones first, then BM25's best clauses from other documents up to two.
document_terms: the defined terms (index_builder.reading.defined_terms) of the lawyer's document
plus the party names it uses as subjects. Split: within each category, alternate rows,
the first tuning, the second held-out.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import bm25s

from index_builder.reading.sentences import sentence_spans
from benchmarks.redraft_set.spec import TASKS
from index_builder.ingest import read_clauses
from index_builder.reading.defined_terms import defined_terms
from index_builder.model import Clause

HERE = Path(__file__).parent
PRECEDENTS = 2
# Capitalised role words a document uses as its parties ("Provider will", "Company may").
_ROLE = re.compile(r"\b([A-Z][a-z]+)(?:’s|'s)? (?:will|must|may|shall|is|agrees)\b")
_NOT_ROLES = {"This", "The", "Each", "Either", "Neither", "Any", "It", "If", "No", "Such",
              "That", "There", "Where", "Upon", "Unless", "Notice", "Payment", "Fees"}


def read_all(root: Path) -> dict[str, list[Clause]]:
    docs: dict[str, list[Clause]] = {}
    for path in sorted(root.rglob("*.docx")):
        rel = path.relative_to(root)
        doc_id = str(rel.with_suffix(""))
        docs[doc_id] = read_clauses(path, doc_id=doc_id, source_path=str(rel))
    return docs


def body(clause: Clause) -> str:
    """The clause's text without its section number and heading."""
    text = clause.text.strip()
    if clause.section and text.startswith(clause.section):
        text = text[len(clause.section):].lstrip(" .\t")
    if clause.heading and text.startswith(clause.heading):
        text = text[len(clause.heading):].lstrip(" .:\t\n")
    return text.strip()


def select(text: str, sentences: list[int] | None) -> str:
    if sentences is None:
        return text
    spans = sentence_spans(text)
    return " ".join(text[a:b] for i, (a, b) in enumerate(spans) if i in sentences)


def document_terms(clauses: list[Clause]) -> list[str]:
    found: dict[str, None] = {}
    for clause in clauses:
        found.update(dict.fromkeys(defined_terms(clause.text)))
        found.update(dict.fromkeys(m for m in _ROLE.findall(clause.text) if m not in _NOT_ROLES))
    return sorted(found)


def build(root: Path) -> list[dict]:
    docs = read_all(root)
    by_id = {c.clause_id: c for clauses in docs.values() for c in clauses}
    corpus = [c for c in by_id.values() if len(c.text) > 80]
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize([c.text for c in corpus], stopwords="en", show_progress=False),
                    show_progress=False)
    rows, counts = [], {}
    for category, clause_id, sentences, instruction, chosen, document, expect in TASKS:
        clause = by_id[clause_id]  # KeyError: the spec names a clause the ingest does not make
        counts[category] = counts.get(category, 0) + 1
        n = counts[category]
        text = select(body(clause), sentences)
        assert text, clause_id
        precedents = [by_id[c] for c in chosen]
        found, _ = retriever.retrieve(bm25s.tokenize([text], stopwords="en", show_progress=False),
                                      k=40, show_progress=False)
        for index in found[0]:
            candidate = corpus[int(index)]
            if len(precedents) >= len(chosen) + PRECEDENTS - (1 if chosen else 0):
                break
            if candidate.doc_id != clause.doc_id and candidate not in precedents \
                    and body(candidate)[:60] not in {body(p)[:60] for p in precedents}:
                precedents.append(candidate)
        doc_id = document or clause.doc_id
        rows.append({
            "task_id": f"{category}-{n:02d}", "category": category,
            "split": "tuning" if n % 2 else "held-out",
            "clause": text, "clause_source": {"clause_id": clause_id, "doc_id": clause.doc_id,
                                               "section": clause.section, "sentences": sentences},
            "instruction": instruction,
            "precedents": [p.to_dict() for p in precedents],
            "document": doc_id, "document_terms": document_terms(docs[doc_id]),
            "expect": expect,
        })
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contracts", type=Path, default=Path("../shared/data/contracts"))
    parser.add_argument("--out", type=Path, default=HERE / "tasks.jsonl")
    args = parser.parse_args()
    rows = build(args.contracts)
    with args.out.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(rows)} tasks -> {args.out}")


if __name__ == "__main__":
    main()
