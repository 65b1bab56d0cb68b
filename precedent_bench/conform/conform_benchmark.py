"""Conform quality on the labelled set: mapping precision/recall, undefined terms, references.

    precedent-bench conform --split tuning|held-out|held-out-2|held-out-3|tuning-3 [--out FILE]

The target document is read by the server's reader (index_builder/reading, as POST
/api/v1/document reads the paragraphs the pane sends) from the paragraphs
benchmarks/conform/paragraphs.py reads from the .docx, as readParagraphs would from Word; the
precedent's document is read by the ingest the index uses; conform() is the function POST
/api/v1/conform serves. Labels: labels.json (written before tuning). The set of issue 38 and
its harness through the pane's own code: `precedent-bench conform-pairs`.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

from addin_server.conform import conform, source_document
from precedent_bench.catalogue import subparser
from precedent_bench.conform.make_candidates import DATA, clauses_of
from precedent_bench.conform.paragraphs import docx_paragraphs
from index_builder.reading.document import Document, read_document
from index_builder.reading.paragraphs import from_pane
from index_builder.settings import load_settings

HERE = Path(__file__).resolve().parents[2] / "benchmarks" / "conform"  # the labels and candidates (data)


@lru_cache(maxsize=None)
def target_summary(path: str) -> Document:
    return read_document(from_pane(docx_paragraphs(DATA / path)))


@lru_cache(maxsize=None)
def constructed_summary(pair_id: str) -> Document:
    """held-out-3: the lawyer's renamed, renumbered version of the target (heldout3.py)."""
    from precedent_bench.conform.heldout3 import target_paragraphs
    return read_document(from_pane(target_paragraphs(pair_id)))


@lru_cache(maxsize=None)
def source_of(path: str):
    return source_document(clauses_of(path))


def _appears(term: str, text: str) -> bool:
    return bool(re.search(r"(?<![\w“\"])" + re.escape(term) + r"(?:e?s)?(?:[’']s?)?(?!\w)", text))


def score_pair(pair: dict, table: dict, result) -> Counter:
    c: Counter = Counter()
    terms, sections = table["terms"], table["sections"]
    seen = set()
    for m in result.mappings:
        gold = terms.get(m.source)
        seen.add(m.source)
        changed = m.apply and bool(m.target) and m.target != m.source
        shown = not changed and bool(m.target) and m.target != m.source
        if gold is None:
            c["unlabelled_terms"] += 1
            c["wrong_applied_unlabelled"] += changed
            c["extra_missing"] += m.method == "none"
            continue
        # Must change: every acceptable answer is another term of the document. Where "not
        # defined" is acceptable too, listing it as missing is as right as mapping it.
        wants = None not in gold and any(g != m.source for g in gold)
        c["gold_changes"] += wants
        if changed:
            c["applied"] += 1
            c["correct_applied" if m.target in gold else "wrong_applied"] += 1
        elif shown:
            c["shown_correct" if m.target in gold else "shown_wrong"] += 1
        if gold == [None]:
            c["gold_undefined"] += 1
            c["found_undefined"] += m.method == "none"
        elif m.method == "none" and None not in gold:
            c["undefined_listed_wrongly"] += 1
    for term, gold in terms.items():  # labelled terms the clause uses that conform never saw
        if term in seen or not _appears(term, pair["text"]) or any(term in s and term != s for s in seen):
            continue
        c["gold_changes"] += None not in gold and any(g != term for g in gold)
        c["gold_undefined"] += gold == [None]
        c["missed_terms"] += 1
    for ref in result.cross_references:
        gold = sections.get(ref.number, "unlabelled")
        c["references"] += 1
        # held-out-3 lists every acceptable section where the same heading occurs twice.
        right = ref.target in gold if isinstance(gold, list) else gold == ref.target
        if ref.status == "mapped":
            if right:
                c["ref_mapped_correct"] += 1
            else:
                c["ref_mapped_wrong"] += 1
        elif ref.status == "suggested":
            c["ref_suggested_correct" if right else "ref_suggested_wrong"] += 1  # shown, not applied
        elif gold == "unlabelled":
            c["ref_flagged_unlabelled"] += 1  # a reference the candidate list missed: flagged, so shown
        else:
            c["ref_flagged_correct" if gold is None else "ref_flagged_but_mappable"] += 1
    return c


def measure(split: str) -> dict:
    # The second held-out set has its own candidates and labels (written before it was run).
    # The third is built by construction (heldout3.py): pairs and labels in one file.
    # tuning-3 is made the same way from other agreements, for improving conform.
    suffix = {"held-out-2": "_heldout2", "held-out-3": "_heldout3", "tuning-3": "_tuning3"}.get(split, "")
    constructed = split in ("held-out-3", "tuning-3")
    labels = json.loads((HERE / f"labels{suffix}.json").read_text())
    data = labels if constructed else json.loads((HERE / f"candidates{suffix}.json").read_text())
    labels = labels["doc_pairs"]
    settings = load_settings({}, {}).conform
    total: Counter = Counter()
    rows = []
    for pair in data["pairs"]:
        if pair["split"] != split:
            continue
        target = constructed_summary(pair["doc_pair"]) if constructed else target_summary(pair["target"])
        result = conform(pair["text"], source_of(pair["source"]), target, settings)
        c = score_pair(pair, labels[pair["doc_pair"]], result)
        total += c
        rows.append({"id": pair["id"], **c, "mappings": [f"{m.source}->{m.target or '-'}:{m.method}:{m.confidence}:{'A' if m.apply else 's'}"
                                                     for m in result.mappings],
                     "refs": [f"{r.number}->{r.target or 'FLAG'}" for r in result.cross_references]})
    applied = total["applied"] + total["wrong_applied_unlabelled"]
    figures = {
        "split": split, "pairs": len(rows),
        "mapping_precision": _ratio(total["correct_applied"], applied),
        "mapping_recall": _ratio(total["correct_applied"], total["gold_changes"]),
        "mapping_recall_with_shown": _ratio(total["correct_applied"] + total["shown_correct"], total["gold_changes"]),
        "undefined_recall": _ratio(total["found_undefined"], total["gold_undefined"]),
        "undefined_precision": _ratio(total["found_undefined"], total["found_undefined"] + total["extra_missing"] + total["undefined_listed_wrongly"]),
        "wrong_substitutions_silent": total["wrong_applied"] + total["wrong_applied_unlabelled"],
        "wrong_suggestions_shown_not_applied": total["shown_wrong"],
        "suggestion_precision": _ratio(total["shown_correct"], total["shown_correct"] + total["shown_wrong"]),
        "references": total["references"], "references_mapped_correct": total["ref_mapped_correct"],
        "references_flagged_correct": total["ref_flagged_correct"],
        "references_flagged_but_mappable": total["ref_flagged_but_mappable"],
        "references_mapped_wrong": total["ref_mapped_wrong"],
        "references_unlabelled_flagged": total["ref_flagged_unlabelled"],
        "references_suggested_not_applied": total["ref_suggested_correct"] + total["ref_suggested_wrong"],
        "counts": dict(total),
    }
    return {"figures": figures, "pairs": rows}


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 3) if b else None


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--split", choices=("tuning", "held-out", "held-out-2", "held-out-3", "tuning-3"), required=True)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--verbose", action="store_true")


def run(args: argparse.Namespace) -> None:
    report = measure(args.split)
    if args.verbose:
        for row in report["pairs"]:
            print(row["id"], row["mappings"], row["refs"])
    if args.out:  # written before printing, so a closed pipe cannot lose it
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    print(json.dumps(report["figures"], indent=1))
