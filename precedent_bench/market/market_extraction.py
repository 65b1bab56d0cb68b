"""Term extraction against the hand-labelled set, and the no-invented-figure check.

Usage (from the repo root):
    precedent-bench market-extraction --split tuning
    precedent-bench market-extraction --split held_out --json benchmarks/results/market/extraction-held_out.json

Per term type: precision and recall of (type, value) over the split's clauses, counted as
multisets per clause; periods also: role accuracy among matched periods. Mutuality and
sub-provisions: precision and recall of the clause-level labels. The invented-figure check runs
over *every* clause of the agreements (not only the labelled ones): a figure's span must hold its
text, and its value must parse back from that text.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from pathlib import Path

from index_builder.reading.numbers import NUMBER, value as number_value
from index_builder.terms import extract
from index_builder.terms.extract import Term

from precedent_bench.catalogue import subparser
from precedent_bench.common import data


def score(split: str, contracts: Path) -> dict:
    labelled = data.set_module("market", "labelled_set.py")  # the set's own reader
    clauses = [c for c in labelled.load(contracts) if split == "all" or c.split == split]
    counts: dict[str, Counter] = defaultdict(Counter)
    roles = Counter()
    errors: list[dict] = []
    for clause in clauses:
        got = extract(clause.text)
        gold = Counter((g.type, g.value) for g in clause.terms if g.type != "subprovision")
        pred = Counter(_old_keys(got))
        for key in gold | pred:
            hit = min(gold[key], pred[key])
            counts[key[0]]["tp"] += hit
            counts[key[0]]["fn"] += gold[key] - hit
            counts[key[0]]["fp"] += pred[key] - hit
        if gold != pred:
            errors.append({"clause_id": clause.clause_id, "missed": sorted(map(list, (gold - pred).elements())),
                           "extra": sorted(map(list, (pred - gold).elements()))})
        _roles(clause, got.terms, roles)
        sub_gold = {g.value for g in clause.terms if g.type == "subprovision"}
        for name in sub_gold | set(got.subprovisions):
            counts["subprovision"]["tp" if name in sub_gold and name in got.subprovisions else
                                   "fn" if name in sub_gold else "fp"] += 1
        if clause.mutuality or got.mutuality:
            counts["mutuality"]["tp" if clause.mutuality == got.mutuality else "fp" if got.mutuality else "fn"] += 1
            if clause.mutuality and got.mutuality and clause.mutuality != got.mutuality:
                counts["mutuality"]["fn"] += 1
    table = {name: _prf(c) for name, c in sorted(counts.items())}
    total = sum((c for c in counts.values()), Counter())
    return {"split": split, "clauses": len(clauses), "per_type": table, "micro": _prf(total),
            "period_role_accuracy": round(roles["right"] / max(1, roles["right"] + roles["wrong"]), 3),
            "period_roles_scored": roles["right"] + roles["wrong"], "errors": errors}


def _old_keys(got) -> list[tuple[str, str]]:
    """The core's reading in this set's older vocabulary (it predates cap kinds): a fee window
    with a stated multiple is a ``fee_cap`` "Mx/Nm" (1x when fees over a period); a placeholder
    multiplier leaves only its window, labelled here as a period; multiples are not labelled."""
    keys, windows = [], []
    for cap in got.caps:
        for c in (cap, *cap.parts):
            if c.period_months and (c.kind == "fees_period" or (c.kind == "multiple" and c.multiple)):
                keys.append(("fee_cap", f"{c.multiple or 1:g}x/{c.period_months:g}m"))
                windows.append((c.start, c.end))
    for t in got.terms:
        inside = any(a <= t.start and t.end <= b for a, b in windows)
        if t.type == "multiple" or (t.type == "period" and inside):
            continue
        keys.append((t.type, t.key))
    return keys


def _roles(clause, terms, roles: Counter) -> None:
    """Role accuracy among periods whose value matched a gold period (paired in text order)."""
    gold = defaultdict(list)
    for g in sorted(clause.terms, key=lambda g: g.start):
        if g.type == "period":
            gold[g.value].append(g.role)
    for t in terms:
        if t.type == "period" and gold.get(t.key):
            roles["right" if gold[t.key].pop(0) == t.role else "wrong"] += 1


def _prf(c: Counter) -> dict:
    p = c["tp"] / (c["tp"] + c["fp"]) if c["tp"] + c["fp"] else None
    r = c["tp"] / (c["tp"] + c["fn"]) if c["tp"] + c["fn"] else None
    return {"tp": c["tp"], "fp": c["fp"], "fn": c["fn"],
            "precision": None if p is None else round(p, 3), "recall": None if r is None else round(r, 3)}


def invented(contracts: Path) -> dict:
    """Every clause of every agreement: figures whose span or value does not come from the text."""
    import re

    from index_builder.ingest import read_clauses

    checked, figures, bad = 0, 0, []
    started = time.perf_counter()
    for path in sorted(contracts.rglob("*.docx")):
        doc_id = path.relative_to(contracts).with_suffix("").as_posix()
        for clause in read_clauses(path, doc_id, str(path)):
            checked += 1
            for term in extract(clause.text).terms:
                figures += 1
                if clause.text[term.start:term.end] != term.text or not _value_in(term, re):
                    bad.append({"clause_id": clause.clause_id, "term": term.to_json()})
    return {"clauses": checked, "figures": figures, "invented": len(bad), "examples": bad[:10],
            "seconds": round(time.perf_counter() - started, 2)}


def _value_in(term: Term, re) -> bool:  # type: ignore[no-untyped-def]
    """The term's number (or place) is written in its own span."""
    if term.type in {"governing_law", "forum"}:
        return term.text == term.value
    grouped = re.sub(r"(?<=\d)[ \u00a0\u202f](?=\d{3}\b)", "", term.text)  # "100 000" is one number
    numbers = [number_value(m.group(0)) for m in re.finditer(NUMBER, grouped, re.I)]
    numbers = [n for n in numbers if n is not None]
    if term.type == "multiple" and re.fullmatch(r"(?i)twice|double", term.text):
        return float(term.value) == 2
    if term.type == "money":
        scaled = [n * s for n in numbers for s in (1, 1e3, 1e6, 1e9)]
        return any(abs(n - float(term.value)) < 1e-6 for n in scaled)
    return float(term.value) in numbers


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--split", choices=["tuning", "held_out", "all"], default="tuning")
    parser.add_argument("--contracts", type=Path, default=data.CONTRACTS)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--errors", action="store_true", help="print every clause that differs")


def run(args: argparse.Namespace) -> None:
    result = score(args.split, args.contracts)
    result["invented_check"] = invented(args.contracts)
    print(f"{result['split']}: {result['clauses']} clauses")
    print(f"{'type':16} {'P':>6} {'R':>6}  tp fp fn")
    for name, row in result["per_type"].items():
        print(f"{name:16} {_fmt(row['precision'])} {_fmt(row['recall'])}  {row['tp']} {row['fp']} {row['fn']}")
    print(f"{'micro':16} {_fmt(result['micro']['precision'])} {_fmt(result['micro']['recall'])}")
    print(f"period role accuracy {result['period_role_accuracy']} over {result['period_roles_scored']}")
    check = result["invented_check"]
    print(f"invented figures: {check['invented']} of {check['figures']} over {check['clauses']} clauses")
    if args.errors:
        for e in result["errors"]:
            print(e)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")


def _fmt(x: float | None) -> str:
    return "   n/a" if x is None else f"{x:6.3f}"
