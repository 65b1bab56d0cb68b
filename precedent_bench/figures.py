"""`precedent-bench figures`: the figures and liability caps the product reads, against a
hand-labelled set (benchmarks/sets/figures/, or the caps tranche benchmarks/sets/caps2/), scored
outside the code under test.

The product's reading is the one function the index build (``terms.stamp``) and ``/market``
call: ``index_builder.terms.extract``. It receives each clause's text and nothing else; every
label stays here, on the scoring side.

    precedent-bench figures --split tuning --out benchmarks/results/figures/tuning
    precedent-bench figures --set caps2 --split tuning      # a set by name, or by its folder

Scores (docs in benchmarks/results/figures/README.md):

* all figures: precision and recall; a figure matches a label of the same kind whose value (and
  unit or currency) is equal and whose span overlaps it; per kind, per written form (digits,
  words, both, ocr), per source;
* caps: kind+value accuracy over the labelled caps (a cap matches when its kind and value agree
  and its span overlaps the label's; lesser/greater-of when their parts agree); extra caps;
* invented figures: a figure with no labelled counterpart whose value is not written in the
  clause at all (checked here, by an independent reading of the clause's numbers).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

log = logging.getLogger(__name__)

SETS = Path("benchmarks/sets")
SET_DIR = SETS / "figures"
SPLITS = {"tuning": "tuning.jsonl", "held-out": "heldout.jsonl"}


@dataclass(frozen=True)
class Got:
    """One figure as the product read it, in the set's vocabulary."""

    kind: str  # period | amount | percentage | multiple
    value: float
    unit: str | None
    currency: str | None
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class GotCap:
    kind: str
    amount: float | None = None
    currency: str | None = None
    multiple: float | None = None
    period_months: float | None = None
    start: int = 0
    end: int = 0
    parts: tuple["GotCap", ...] = ()


@dataclass
class Reading:
    figures: list[Got] = field(default_factory=list)
    caps: list[GotCap] = field(default_factory=list)


def product_reading(text: str) -> Reading:
    """The production extractor on the clause's text alone, in the set's vocabulary."""
    from index_builder.terms import extract

    found = extract(text)
    kinds = {"period": "period", "money": "amount", "percentage": "percentage", "multiple": "multiple"}
    figures = [Got(kinds[t.type], float(t.value), t.unit if t.type == "period" else None,
                   t.unit if t.type == "money" else None, t.start, t.end, t.text)
               for t in found.terms if t.type in kinds]
    return Reading(figures, [_cap(c) for c in found.caps])


def _cap(cap: Any) -> GotCap:
    return GotCap(cap.kind, cap.amount, cap.currency, cap.multiple, cap.period_months,
                  cap.start, cap.end, tuple(_cap(p) for p in cap.parts))


# -- the labels -------------------------------------------------------------------------------

def load(folder: Path, split: str) -> list[dict[str, Any]]:
    path = folder / SPLITS[split]
    return [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]


def span_of(text: str, span: str, occurrence: int = 1) -> tuple[int, int]:
    """Where the label's span stands: its occurrence-th start, overlapping starts counted."""
    starts = [i for i in range(len(text)) if text.startswith(span, i)]
    start = starts[occurrence - 1]
    return start, start + len(span)


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(float(a), float(b), rel_tol=1e-4, abs_tol=1e-9)


def _figure_matches(label: dict[str, Any], where: tuple[int, int], got: Got) -> bool:
    return (label["kind"] == got.kind and _same(label["value"], got.value)
            and (label["unit"] or None) == (got.unit or None)
            and (label["currency"] or None) == (got.currency or None)
            and _overlap(where, (got.start, got.end)))


def _cap_value_matches(label: dict[str, Any], got: GotCap) -> bool:
    if label["kind"] != got.kind:
        return False
    kind = label["kind"]
    if kind == "fixed":
        return _same(label["amount"], got.amount) and (
            label["amount"] is None or label["currency"] == got.currency)
    if kind == "fees_period":
        return _same(label["period_months"], got.period_months)
    if kind == "multiple":
        return _same(label["multiple"], got.multiple) and _same(label["period_months"], got.period_months)
    if kind in ("lesser_of", "greater_of"):
        return _parts_match(label["parts"], list(got.parts))
    return True  # fees_all, redacted, other: the kind is the value


def _parts_match(labels: list[dict[str, Any]], got: list[GotCap]) -> bool:
    if len(labels) != len(got):
        return False
    left = list(got)
    for part in labels:
        hit = next((g for g in left if _cap_value_matches(part, g)), None)
        if hit is None:
            return False
        left.remove(hit)
    return True


# -- an independent reading of the numbers a clause writes (for "invented") ------------------------

_SMALL = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven "
                                     "twelve thirteen fourteen fifteen sixteen seventeen eighteen "
                                     "nineteen".split())}
_SMALL.update({w: 10 * (i + 2) for i, w in enumerate(
    "twenty thirty forty fifty sixty seventy eighty ninety".split())})
_SMALL.update({"half": 0.5, "third": 1 / 3, "quarter": 0.25, "twice": 2, "double": 2})
_BIG = {"hundred": 100, "thousand": 1e3, "million": 1e6, "billion": 1e9, "mm": 1e6, "m": 1e6,
        "k": 1e3, "bn": 1e9}


def written_numbers(text: str) -> set[float]:
    """Every number the clause writes in digits, and in words up to a few words long, with the
    scales that may follow it and the percent/cents readings; a coarse superset on purpose."""
    low = text.lower()
    found: set[float] = set()
    for m in re.finditer(r"\d[\d,]*(?:\.\d+)?|\.\d+", low):
        try:
            found.add(float(m.group(0).replace(",", "")))
        except ValueError:
            continue
    words = re.findall(r"[a-z]+", low)
    for i in range(len(words)):
        total, current = 0.0, 0.0
        for w in words[i:i + 8]:
            if w in _SMALL:
                current += _SMALL[w]
            elif w == "hundred":
                current = max(current, 1) * 100
            elif w in _BIG:
                total += max(current, 1) * _BIG[w]
                current = 0
            elif w in {"and", "a", "one"}:
                continue
            else:
                break
            found.add(total + current)
    scaled = {n * s for n in found for s in (1, 1e3, 1e6, 1e9, 0.01, 1 / 12, 12)}
    return found | scaled


def _invented(got: Got | GotCap, numbers: set[float]) -> bool:
    values = ([got.value] if isinstance(got, Got)
              else [v for v in (got.amount, got.multiple, got.period_months) if v is not None])
    return any(not any(_same(v, n) for n in numbers) for v in values)


# -- scoring ---------------------------------------------------------------------------------------

def form_of(span: str) -> str:
    """The written form of a span, read here (not by the product): ocr, both, digits, words."""
    if re.search(r"\d[Oo]|[Oo]\d|\$[Oo]\b", span):
        return "ocr"
    digits = bool(re.search(r"\d", span))
    words = bool(re.search(r"(?i)\b(?:" + "|".join(list(_SMALL) + ["hundred", "thousand", "million",
                                                                   "billion"]) + r")\b", span))
    return "both" if digits and words else "digits" if digits else "words"


def score(rows: Sequence[dict[str, Any]], reader: Callable[[str], Reading] = product_reading) -> dict[str, Any]:
    """Every clause through ``reader`` (its text only); the counts, and each clause that differs."""
    tally: dict[str, Counter] = defaultdict(Counter)
    caps: Counter = Counter()
    cap_kinds: dict[str, Counter] = defaultdict(Counter)
    invented: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    started = time.perf_counter()
    for row in rows:
        text = row["text"]
        reading = reader(text)
        numbers = written_numbers(text)
        missed, extra = _score_figures(row, reading.figures, tally)
        for got in extra:
            if _invented(got, numbers):
                invented.append({"id": row["id"], "figure": got.text, "value": got.value})
        cap_missed, cap_extra = _score_caps(row, reading.caps, caps, cap_kinds)
        for got in cap_extra:
            if _invented(got, numbers):
                invented.append({"id": row["id"], "cap": text[got.start:got.end][:80], "kind": got.kind})
        if missed or extra or cap_missed or cap_extra:
            errors.append({"id": row["id"], "missed": missed, "extra": [_got_json(g) for g in extra],
                           "caps_missed": cap_missed, "caps_extra": [_cap_json(c) for c in cap_extra]})
    seconds = time.perf_counter() - started
    return {"clauses": len(rows), "figures": {k: _prf(c) for k, c in sorted(tally.items())},
            "caps": {"labelled": caps["labelled"], "kind_value_right": caps["right"],
                     "kind_value_accuracy": _ratio(caps["right"], caps["labelled"]),
                     "kind_right": caps["kind"], "kind_accuracy": _ratio(caps["kind"], caps["labelled"]),
                     "read": caps["read"], "extra": caps["extra"],
                     "precision": _ratio(caps["read"] - caps["extra"], caps["read"]),
                     "per_kind": {k: {"labelled": c["labelled"], "right": c["right"],
                                      "accuracy": _ratio(c["right"], c["labelled"])}
                                  for k, c in sorted(cap_kinds.items())}},
            "invented": len(invented), "invented_examples": invented[:20],
            "seconds": round(seconds, 2), "errors": errors}


def _score_figures(row: dict[str, Any], got: list[Got], tally: dict[str, Counter]) -> tuple[list, list]:
    left = list(got)
    missed = []
    for label in row["figures"]:
        where = span_of(row["text"], label["span"], label.get("occurrence", 1))
        hit = next((g for g in left if _figure_matches(label, where, g)), None)
        keys = ("all", f"kind:{label['kind']}", f"written:{label['written']}", f"source:{row['source']}")
        for key in keys:
            tally[key]["tp" if hit else "fn"] += 1
        if hit is None:
            missed.append({k: label[k] for k in ("kind", "value", "unit", "currency", "span", "written")})
        else:
            left.remove(hit)
    for g in left:
        for key in ("all", f"kind:{g.kind}", f"written:{form_of(g.text)}", f"source:{row['source']}"):
            tally[key]["fp"] += 1
    return missed, left


def _score_caps(row: dict[str, Any], got: list[GotCap], caps: Counter,
                per_kind: dict[str, Counter]) -> tuple[list, list]:
    left = list(got)
    missed = []
    caps["read"] += len(got)
    for label in row["caps"]:
        where = span_of(row["text"], label["span"])
        near = [g for g in left if _overlap(where, (g.start, g.end))]
        hit = next((g for g in near if _cap_value_matches(label, g)), None)
        caps["labelled"] += 1
        per_kind[label["kind"]]["labelled"] += 1
        if any(g.kind == label["kind"] for g in near):
            caps["kind"] += 1
        if hit is None:
            missed.append({"kind": label["kind"], "amount": label["amount"], "multiple": label["multiple"],
                           "period_months": label["period_months"], "span": label["span"][:100],
                           "got": [_cap_json(g) for g in near]})
        else:
            caps["right"] += 1
            per_kind[label["kind"]]["right"] += 1
            left.remove(hit)
    # a read cap that overlaps a labelled cap but was not its match is wrong, not extra; the rest
    # (no labelled cap there at all) are extra caps
    spans = [span_of(row["text"], c["span"]) for c in row["caps"]]
    extra = [g for g in left if not any(_overlap(s, (g.start, g.end)) for s in spans)]
    caps["extra"] += len(extra)
    return missed, extra


def _prf(c: Counter) -> dict[str, Any]:
    return {"tp": c["tp"], "fp": c["fp"], "fn": c["fn"],
            "precision": _ratio(c["tp"], c["tp"] + c["fp"]), "recall": _ratio(c["tp"], c["tp"] + c["fn"])}


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 3) if b else None


def _got_json(g: Got) -> dict[str, Any]:
    return {"kind": g.kind, "value": g.value, "unit": g.unit, "currency": g.currency, "text": g.text}


def _cap_json(c: GotCap) -> dict[str, Any]:
    return {"kind": c.kind, "amount": c.amount, "currency": c.currency, "multiple": c.multiple,
            "period_months": c.period_months, "parts": [_cap_json(p) for p in c.parts]}


# -- the command -----------------------------------------------------------------------------------

def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("figures", help="figures and liability caps read by the product, against the "
                                       "hand-labelled figures set (benchmarks/sets/figures)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--set", type=set_dir, default=SET_DIR,
                   help=f"the set: a name under {SETS}/ (figures, caps2) or its folder (default {SET_DIR})")
    p.add_argument("--split", choices=list(SPLITS), default="tuning",
                   help="tuning (default); held-out only for the one final run")
    p.add_argument("--out", type=Path, help="write figures.md and figures.json here")
    p.add_argument("--errors", action="store_true", help="print every clause read differently")
    p.set_defaults(handler="precedent_bench.figures:run_command", ab=False)


def set_dir(value: str) -> Path:
    """A set by its folder, or by its name under benchmarks/sets/ ("caps2")."""
    for path in (Path(value), SETS / value):
        if (path / SPLITS["tuning"]).is_file():
            return path
    raise argparse.ArgumentTypeError(f"no labelled set at {value!r} or {SETS / value}: give a folder holding "
                                     f"{SPLITS['tuning']} and {SPLITS['held-out']}, or a name under {SETS}/")


def reading_cost(rows: Sequence[dict[str, Any]], repeats: int = 3) -> dict[str, float]:
    """CPU milliseconds per clause the index build spends reading terms (``terms.extract``) and, of
    that, figures alone: the best of ``repeats`` passes (CPU time, so other processes on a shared
    machine inflate it less than wall time)."""
    from index_builder.reading.figures import figures
    from index_builder.terms import extract

    texts = [row["text"] for row in rows]
    out = {}
    for name, read in (("extract_ms_per_clause", extract), ("figures_ms_per_clause", figures)):
        best = math.inf
        for _ in range(repeats):
            started = time.process_time()
            for text in texts:
                read(text)
            best = min(best, time.process_time() - started)
        out[name] = round(best / max(1, len(texts)) * 1000, 2)
    return out


def run_command(args: argparse.Namespace) -> int:
    rows = load(args.set, args.split)
    report = score(rows)
    report["cost"] = reading_cost(rows)
    name = args.set.name
    report.update(set=name, split=args.split, when=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                  commit=_commit(), command=f"precedent-bench figures --set {name} --split {args.split}"
                  + (f" --out {args.out}" if args.out else ""))
    text = markdown(report)
    sys.stdout.write(text)
    if args.errors:
        for e in report["errors"]:
            sys.stdout.write(json.dumps(e, ensure_ascii=False) + "\n")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "figures.md").write_text(text, encoding="utf-8")
        (args.out / "figures.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n",
                                               encoding="utf-8")
    return 0


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             check=False)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=False).stdout.strip()
        return out.stdout.strip() + ("+changes" if dirty else "")
    except OSError:
        return "unknown"


def markdown(report: dict[str, Any]) -> str:
    f = report["figures"]
    lines = [f"# Figures, {report.get('set', 'figures')} {report['split']} ({report['clauses']} clauses)", "",
             f"`{report['command']}` — {report['when']}, commit {report['commit']}", "",
             "| figures | P | R | tp | fp | fn |", "|---|---|---|---|---|---|"]
    for key in _order(f):
        row = f[key]
        lines.append(f"| {key} | {_fmt(row['precision'])} | {_fmt(row['recall'])} | {row['tp']} | "
                     f"{row['fp']} | {row['fn']} |")
    c = report["caps"]
    lines += ["", f"Caps: kind+value **{c['kind_value_right']} of {c['labelled']}** "
                  f"({_fmt(c['kind_value_accuracy'])}); kind alone {c['kind_right']} "
                  f"({_fmt(c['kind_accuracy'])}); {c['read']} caps read, {c['extra']} where no cap is "
                  "labelled.", "", "| cap kind | labelled | kind+value right | accuracy |", "|---|---|---|---|"]
    for kind, row in c["per_kind"].items():
        lines.append(f"| {kind} | {row['labelled']} | {row['right']} | {_fmt(row['accuracy'])} |")
    lines += ["", f"**Invented figures: {report['invented']}** (read, unlabelled, and their value written "
                  f"nowhere in the clause). {report['seconds']} s.", ""]
    if report.get("cost"):
        cost = report["cost"]
        lines += [f"Reading cost (CPU, best of 3 passes): `terms.extract` {cost['extract_ms_per_clause']} ms per "
                  f"clause, of which figures {cost['figures_ms_per_clause']} ms.", ""]
    return "\n".join(lines)


def _order(table: dict[str, Any]) -> Iterable[str]:
    return sorted(table, key=lambda k: (k != "all", k.split(":")[0], k))


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"
