"""Draw the clauses of the second caps tranche at random, deterministically (issue 38).

A fresh, never-seen set of liability-cap clauses, built after the first set
(``benchmarks/sets/figures``) had been used to build a cap reader and its held-out half seen once.

* **Pool.** Clauses of the ACORD corpus and of the shared agreements (split by the project's own
  ingest) of at most 4,000 characters that match a broad cap pattern (``CAP_CANDIDATE``), minus
  every clause of the first set, minus near copies of a first-set clause, minus exact and near
  copies of an earlier pool clause (see ``pool``).
* **Random draw** (``draw: "random"``): the pool in a fixed random order.
* **Kind draws** (``draw: "kind:<name>"``): for each cap kind, a fixed random order of the pool
  clauses that match the kind's pattern (``CAP_KINDS``), so a kind the random draw under-covers can
  be topped up at random.

Labelling happens by hand between drawing and splitting: the annotator reads each step's clauses
before choosing the next step. The steps taken (``STEPS``) were fixed that way and are committed
here, so a re-run gives the same sample.

    python benchmarks/sets/caps2/sample.py draw --out SAMPLE.jsonl
    python benchmarks/sets/caps2/sample.py split --labels LABELS.jsonl

``split`` shuffles with the seed and alternates tuning / held-out within each group of clauses
that share their first cap's kind (clauses without a cap form one more group).
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import re
from pathlib import Path

from precedent_bench.common.sampling import acord_clauses, contract_clauses, write_jsonl

log = logging.getLogger("caps2.sample")

SEED = 3802  # issue 38, second caps tranche; distinct from the first set's 38
MAX_CHARS = 4000
DATA = Path("/work/shared/data")  # ACORD in BEIR form under acord/, agreements under contracts/
HERE = Path(__file__).resolve().parent
FIRST_SET = HERE.parent / "figures"
# Two clauses are near copies when their 5-word shingles overlap this much (Jaccard), or when this
# share of the smaller clause's shingles lies in the other (containment): ACORD holds the same cap
# at several granularities (a sentence, its section, the section with its neighbours).
NEAR_JACCARD = 0.6
NEAR_CONTAINED = 0.8

# The drawing steps, in order: (order, number of clauses to take from it). A step takes the next
# clauses of its order that no earlier step drew, so a second "random" step reads on down the same
# order. Fixed while labelling (the annotator read each step's clauses before choosing the next).
STEPS: list[tuple[str, int]] = [
    # The first 90 of the random order.
    ("random", 90),
    # After them, counting parts of lesser/greater-of: multiple 5, lesser_of 3 and cap amounts
    # written in words 4 were under 6; every other kind the brief lists had 9 or more. Each kind
    # order was read from the top until the kind reached 6 or the order ran out: multiple had one
    # clause left (taken);
    # lesser_of had none left; words took 3 (two capping clauses with amounts in words, one
    # insurance clause).
    ("kind:multiple", 1),
    ("kind:lesser_of", 0),
    ("kind:words", 3),
    # The random draw had reached 49 capping clauses of the 90 aimed for, so the rest of the random
    # order was drawn: the pool (123 clauses) is exhausted.
    ("random", 29),
]

# The brief's pattern (its space before the verb group read as a word boundary; ".*" spans lines,
# as clauses are multi-paragraph), plus three
# alternations that reach caps it misses: "liability ... will be limited in the aggregate to",
# "IBM is liable for no more than", "indemnification obligations ... shall not exceed".
CAP_CANDIDATE = re.compile(
    r"liabilit.*?\b(?:exceed|limited to|not exceed|in excess of|cap)"
    r"|aggregate liability|maximum liability|total liability"
    r"|shall not be liable.*?in excess|liability.*?shall be limited"
    r"|liabilit[^.;]{0,300}\b(?:limited|limit)\b"
    r"|\bliable\b[^.;]{0,300}\b(?:in excess of|exceed|greater than|more than)\b"
    r"|\b(?:damages|recovery|indemnif\w*|obligations?)\b[^.;]{0,200}\b(?:exceed|capped)\b",
    re.IGNORECASE | re.DOTALL,
)

_MULTIPLE = (
    r"(?:\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty[- ]four|half)\b"
    r"|\d+(?:\.\d+)?|½)\s*(?:\(\s*[\d½]+(?:\.\d+)?\s*[xX]?\s*\)\s*)?(?:times\b|[xX]\b)"
    r"|\btwice\b|\bdouble\b|\bone[- ]half\b|\bone and (?:a|one)[- ]half\b"
    r"|(?:percent|per cent|%)\)?\s+of\s+(?:the\s+)?(?:total\s+|aggregate\s+)?"
    r"(?:fees|amounts?|price|value|sums?|payments?)"
)
# Kind-specific patterns for the coverage draws: each names a way a cap is written.
CAP_KINDS = {
    "fixed": re.compile(r"\$\s?\d|\bdollars\b|\b(?:USD|EUR|GBP|AUD)\b|[€£]", re.IGNORECASE),
    "fees_period": re.compile(
        r"\b(?:paid|payable|received)\b[^.;]{0,120}\b(?:months?|years?|period)\b"
        r"|\b(?:months?|years?|period)\b[^.;]{0,120}\b(?:paid|payable|received)\b",
        re.IGNORECASE,
    ),
    "fees_all": re.compile(
        r"\b(?:paid|payable|received)\b[^.;]{0,80}\b(?:hereunder|under this agreement|"
        r"pursuant to this agreement|under these terms|for the (?:products?|services?))\b",
        re.IGNORECASE,
    ),
    "multiple": re.compile(_MULTIPLE, re.IGNORECASE),
    "lesser_of": re.compile(r"\blesser of\b|\bless of\b|\blessor of\b|\bwhichever is (?:the )?(?:less|lesser|lower)\b",
                            re.IGNORECASE),
    "greater_of": re.compile(
        r"\bgreater of\b|\bhigher of\b|\bwhichever is (?:the )?(?:greater|higher|highest)\b", re.IGNORECASE
    ),
    "redacted": re.compile(r"\[\s*\*[\s*]*\]|\*\*\*"),
    "words": re.compile(r"\b(?:dollars|hundred|thousand|million)\b", re.IGNORECASE),
}


def first_set() -> dict[str, str]:
    """Every clause of the first labelled set (both splits), id -> text."""
    out = {}
    for name in ("tuning.jsonl", "heldout.jsonl"):
        with (FIRST_SET / name).open(encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                out[row["id"]] = row["text"]
    return out


def shingles(text: str, k: int = 5) -> frozenset[str]:
    words = re.sub(r"[^a-z0-9]+", " ", text.lower()).split()
    return frozenset(" ".join(words[i:i + k]) for i in range(max(1, len(words) - k + 1)))


def near(a: frozenset[str], b: frozenset[str]) -> bool:
    common = len(a & b)
    return common / len(a | b) >= NEAR_JACCARD or common / max(1, min(len(a), len(b))) >= NEAR_CONTAINED


def pool(data: Path = DATA) -> list[dict]:
    """The candidates, in (source, id) order, each once, none seen in the first set.

    A clause of the first set, or a near copy of one, was seen by the code built on that set; a near
    copy of an earlier candidate would put one clause in both halves. Both are left out.
    """
    seen_first = first_set()
    first_shingles = [shingles(t) for t in seen_first.values()]
    rows = sorted(acord_clauses(data) + contract_clauses(data), key=lambda r: (r["source"], r["clause_id"]))
    out, kept, dropped = [], [], {"first set": 0, "near first set": 0, "near earlier": 0}
    for row in rows:
        if len(row["text"]) > MAX_CHARS or not CAP_CANDIDATE.search(row["text"]):
            continue
        if f"{row['source']}:{row['clause_id']}" in seen_first:
            dropped["first set"] += 1
            continue
        sh = shingles(row["text"])
        if any(near(sh, f) for f in first_shingles):
            dropped["near first set"] += 1
            continue
        if any(near(sh, k) for k in kept):
            dropped["near earlier"] += 1
            continue
        kept.append(sh)
        out.append(row)
    log.info("pool: %d candidates (acord %d, contracts %d); left out %s", len(out),
             sum(r["source"] == "acord" for r in out), sum(r["source"] == "contracts" for r in out), dropped)
    return out


def shuffled(rows: list[dict], salt: str) -> list[dict]:
    """A fixed random order of rows (seeded by SEED and the order's name)."""
    order = list(rows)
    random.Random(f"{SEED}:{salt}").shuffle(order)
    return order


def orders(data: Path = DATA) -> dict[str, list[dict]]:
    """Every random order the sample is drawn from, keyed by draw name, in drawing order."""
    rows = pool(data)
    out = {"random": shuffled(rows, "random")}
    for kind, pattern in CAP_KINDS.items():
        out[f"kind:{kind}"] = shuffled([r for r in rows if pattern.search(r["text"])], f"kind:{kind}")
    return out


def draw(steps: list[tuple[str, int]], data: Path = DATA) -> list[dict]:
    """The sample: each step's next `n` clauses of its order not drawn already, each clause once."""
    all_orders = orders(data)
    position = {name: 0 for name in all_orders}
    sample, seen = [], set()
    for name, n in steps:
        order, taken = all_orders[name], 0
        while taken < n and position[name] < len(order):
            row = order[position[name]]
            position[name] += 1
            key = f"{row['source']}:{row['clause_id']}"
            if key in seen:  # drawn already by an earlier step; the next one in this order stands in
                continue
            seen.add(key)
            sample.append({"id": key, **row, "draw": name, "stratum": "caps"})
            taken += 1
        if taken < n:
            log.info("step %s: order exhausted after %d of %d", name, taken, n)
    return sample


ROW_HEAD = ("id", "source", "clause_id", "text", "draw", "stratum")
ROW_TAIL = ("figures", "caps", "notes")


def split(labelled: list[dict]) -> tuple[list[dict], list[dict]]:
    """Shuffle with the seed, then alternate tuning / held-out within each first-cap-kind group.

    Groups are taken in a fixed order; each starts on the half that holds fewer clauses so far
    (tuning on a tie), so the halves stay within one clause of each other.
    """
    rows = sorted(labelled, key=lambda r: r["id"])
    random.Random(f"{SEED}:split").shuffle(rows)
    groups: dict[str, list[dict]] = {}
    for row in rows:
        groups.setdefault(row["caps"][0]["kind"] if row["caps"] else "no cap", []).append(row)
    tuning: list[dict] = []
    heldout: list[dict] = []
    for group in sorted(groups):
        first = "tuning" if len(tuning) <= len(heldout) else "held-out"
        second = "held-out" if first == "tuning" else "tuning"
        for k, row in enumerate(groups[group]):
            side = first if k % 2 == 0 else second
            row = {**{key: row[key] for key in ROW_HEAD}, "split": side, **{key: row[key] for key in ROW_TAIL}}
            (tuning if side == "tuning" else heldout).append(row)
    return tuning, heldout


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the shared data folder (default %(default)s)")
    sub = parser.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draw", help="write the drawn clauses (no labels) in draw order")
    d.add_argument("--out", type=Path, required=True)
    d.add_argument("--steps", type=json.loads, default=None,
                   help='override STEPS, e.g. \'[["random", 90], ["kind:multiple", 3]]\' (to read further)')
    s = sub.add_parser("split", help="split labelled clauses into tuning.jsonl / heldout.jsonl")
    s.add_argument("--labels", type=Path, nargs="+", required=True,
                   help="labelled rows (JSON Lines); tuning.jsonl and heldout.jsonl together re-split")
    args = parser.parse_args()
    if args.cmd == "draw":
        sample = draw([tuple(step) for step in args.steps] if args.steps is not None else STEPS, args.data)
        write_jsonl(args.out, sample)
        counts: dict[str, int] = {}
        for row in sample:
            key = f"{row['draw']:16} {row['source']}"
            counts[key] = counts.get(key, 0) + 1
        for key in sorted(counts):
            log.info("%-40s %4d", key, counts[key])
        log.info("%-40s %4d", "total", len(sample))
        return
    labelled = [json.loads(line) for path in args.labels for line in path.open(encoding="utf-8")]
    drawn = {r["id"]: r for r in draw(STEPS, args.data)}
    have = {r["id"] for r in labelled}
    if set(drawn) != have:
        raise SystemExit(f"labels do not match the draw: {len(set(drawn) - have)} drawn but unlabelled, "
                         f"{len(have - set(drawn))} labelled but not drawn")
    for row in labelled:
        if row["text"] != drawn[row["id"]]["text"] or row["draw"] != drawn[row["id"]]["draw"]:
            raise SystemExit(f"{row['id']}: text or draw differs from the draw")
    tuning, heldout = split(labelled)
    write_jsonl(HERE / "tuning.jsonl", tuning)
    write_jsonl(HERE / "heldout.jsonl", heldout)
    log.info("tuning %d, held-out %d", len(tuning), len(heldout))


if __name__ == "__main__":
    main()
