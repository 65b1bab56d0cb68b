"""Draw the clauses of the figures set at random, deterministically (issue 38).

Two strata, each drawn from a fixed-seed random order of its candidates:

* ``figures``: clauses of ACORD and of the shared agreements that contain a digit, a number
  word, a currency sign or code, a percent, "MM" or a redaction ("[***]"); drawn from one
  interleaved order that takes the two sources in proportion to their candidate counts.
  Two small kind draws add the only clauses outside caps that write an amount with OCR'd digits
  or with "MM".
* ``caps``: clauses that match a broad liability-cap pattern, drawn at random; then, so that each
  cap kind is covered, further random draws among the candidates that match a kind's pattern.

Exact copies of an earlier clause's text and clauses over 2,500 characters are never drawn.

Labelling happens by hand between drawing and splitting: the annotator reads the clauses in draw
order and stops each list once its quota is met. The numbers of clauses taken from each list
(``TAKE``) were fixed that way and are committed here, so a re-run gives the same sample.

    python benchmarks/sets/figures/sample.py draw --out SAMPLE.jsonl
    python benchmarks/sets/figures/sample.py split --labels LABELS.jsonl

``split`` shuffles each stratum with the seed and alternates tuning / held-out.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import re
from pathlib import Path

from precedent_bench.common.sampling import acord_clauses, contract_clauses, write_jsonl

log = logging.getLogger("figures.sample")

SEED = 38
MAX_CHARS = 2500
DATA = Path("/work/shared/data")  # ACORD in BEIR form under acord/, agreements under contracts/
HERE = Path(__file__).resolve().parent

# How many clauses each random order gives (fixed while labelling: the first N of each order).
TAKE = {
    # Read in batches of about 50 in draw order; the batch in which the 300th figure-bearing clause
    # was reached ended at 1,000.
    "figures:random": 1000,
    # All there are (one each): the random draw reached no clause outside caps written this way.
    "figures:kind:ocr": 1,
    "figures:kind:mm": 1,
    # The batch in which the 60th clause that caps liability was reached ended at 72.
    "caps:random": 72,
    # The random draws held four caps with a numeric multiple; the pattern had four clauses left:
    # all taken.
    "caps:kind:multiple": 4,
}

_NUMBER_WORDS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen"
    r"|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty"
    r"|ninety|hundred|thousand|million|billion|half|twice|double"
)
FIGURE_CANDIDATE = re.compile(
    r"\d"
    rf"|\b(?:{_NUMBER_WORDS})\b"
    r"|[$€£]|\bUS\$|\b(?:USD|EUR|GBP)\b"
    r"|%|\bpercent\b|\bper cent\b"
    r"|\d\s?MM\b|\bMM\b"
    r"|\[\s*\*+\s*\]",
    re.IGNORECASE,
)
CAP_CANDIDATE = re.compile(
    r"liabilit.{0,200}?\b(?:exceed|limited to|not exceed|in excess of|cap)"
    r"|aggregate liability|maximum liability|total liability",
    re.IGNORECASE | re.DOTALL,
)
# The caps stratum's kind draws reach a little wider than CAP_CANDIDATE: caps written "liability ...
# will be limited in the aggregate to ..." escape the broad pattern above.
CAP_KIND_POOL = re.compile(
    r"liabilit[^.;]{0,300}\b(?:limited|limit)\b|\bliable\b[^.;]{0,100}\bin excess of\b", re.IGNORECASE
)
# Kind-specific patterns for the coverage draws: each names a way a cap is written, so a random draw
# among its matches can reach kinds the plain random draw misses.
_OCR_AMOUNT = r"(?:US)?\$\s?(?=[\dOl,.]*\d)[\dOl,.]*[Ol][\dOl,.]*"
_MULTIPLE = (
    r"(?:\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty[- ]four|half)\b"
    r"|\d+(?:\.\d+)?)\s*(?:\(\s*\d+(?:\.\d+)?\s*[xX]?\s*\)\s*)?(?:times\b|[xX]\b)"
    r"|\btwice\b|\bdouble\b|\bone[- ]half\b|\bone and (?:a|one[- ])half\b"
)
CAP_KINDS = {
    "words": re.compile(r"\b(?:dollars|hundred|thousand|million)\b", re.IGNORECASE),
    "multiple": re.compile(_MULTIPLE, re.IGNORECASE),
    "lesser_of": re.compile(r"\blesser of\b|\bless of\b|\bwhichever is (?:the )?(?:less|lesser|lower)\b",
                            re.IGNORECASE),
    "greater_of": re.compile(
        r"\bgreater of\b|\bhigher of\b|\bwhichever is (?:the )?(?:greater|higher)\b", re.IGNORECASE
    ),
    "redacted": re.compile(r"\[\s*\*+\s*\]"),
    "fees_period": re.compile(
        r"\b(?:paid|payable|received)\b[^.;]{0,120}\b(?:months?|years?|period)\b"
        r"|\b(?:months?|years?|period)\b[^.;]{0,120}\b(?:paid|payable|received)\b",
        re.IGNORECASE,
    ),
    "fees_all": re.compile(
        r"\b(?:paid|payable|received)\b[^.;]{0,80}\b(?:hereunder|under this agreement|"
        r"pursuant to this agreement|under these terms)\b",
        re.IGNORECASE,
    ),
    "fixed": re.compile(r"\$\s?\d|\bdollars\b|\b(?:USD|EUR|GBP)\b|[€£]", re.IGNORECASE),
    "ocr": re.compile(_OCR_AMOUNT),
}
# Figure-bearing clauses outside caps whose way of writing an amount is rare enough that the random
# draw may miss it: OCR'd digits ("US$1,O00,000") and "MM" millions ("$40MM").
FIGURE_KINDS = {
    "ocr": re.compile(_OCR_AMOUNT),
    "mm": re.compile(r"\d\s?MM\b"),
}


def usable(rows: list[dict]) -> list[dict]:
    """Drop clauses over MAX_CHARS and later exact copies of an earlier clause's text.

    The 50-state restrictive-covenant forms repeat many paragraphs word for word; one copy of a
    text is one test item, so only its first occurrence (in id order) can be drawn.
    """
    seen: set[str] = set()
    out = []
    for row in sorted(rows, key=lambda r: (r["source"], r["clause_id"])):
        if len(row["text"]) > MAX_CHARS or row["text"] in seen:
            continue
        seen.add(row["text"])
        out.append(row)
    return out


def shuffled(rows: list[dict], salt: str) -> list[dict]:
    """A fixed random order of rows (seeded by SEED and the list's name)."""
    order = list(rows)
    random.Random(f"{SEED}:{salt}").shuffle(order)
    return order


def interleave(acord: list[dict], contracts: list[dict]) -> list[dict]:
    """Merge two random orders so every prefix holds the sources in proportion to their sizes."""
    out, i, j = [], 0, 0
    total = len(acord) + len(contracts)
    while i < len(acord) or j < len(contracts):
        # Take from ACORD while its share of the prefix is below its share of the pool.
        if j >= len(contracts) or (i < len(acord) and i * total <= (i + j) * len(acord)):
            out.append(acord[i])
            i += 1
        else:
            out.append(contracts[j])
            j += 1
    return out


def orders(data: Path) -> dict[str, list[dict]]:
    """Every random order the sample is drawn from, keyed by draw name, in drawing order."""
    rows = usable(acord_clauses(data) + contract_clauses(data))
    fig = [r for r in rows if FIGURE_CANDIDATE.search(r["text"])]
    caps = [r for r in rows if CAP_CANDIDATE.search(r["text"])]
    pool = [r for r in rows if CAP_CANDIDATE.search(r["text"]) or CAP_KIND_POOL.search(r["text"])]
    log.info("figure candidates: acord %d, contracts %d; cap candidates: acord %d, contracts %d",
             *(sum(r["source"] == s for r in rows_) for rows_ in (fig, caps) for s in ("acord", "contracts")))
    out = {
        "figures:random": interleave(
            shuffled([r for r in fig if r["source"] == "acord"], "figures:acord"),
            shuffled([r for r in fig if r["source"] == "contracts"], "figures:contracts"),
        ),
    }
    # Cap candidates are left to the caps stratum's own draws.
    for kind, pattern in FIGURE_KINDS.items():
        out[f"figures:kind:{kind}"] = shuffled(
            [r for r in fig if pattern.search(r["text"]) and not CAP_CANDIDATE.search(r["text"])], f"figures:{kind}"
        )
    out["caps:random"] = shuffled(caps, "caps:random")
    for kind, pattern in CAP_KINDS.items():
        out[f"caps:kind:{kind}"] = shuffled([r for r in pool if pattern.search(r["text"])], f"caps:{kind}")
    return out


def draw(take: dict[str, int], data: Path = DATA) -> list[dict]:
    """The sample: the first take[name] clauses of each order, each clause once."""
    sample, seen = [], set()
    for name, order in orders(data).items():
        stratum, tag = name.split(":", 1)
        taken = 0
        for row in order:
            if taken >= take.get(name, 0):
                break
            key = f"{row['source']}:{row['clause_id']}"
            if key in seen:  # drawn already by an earlier order; the next one in this order stands in
                continue
            seen.add(key)
            sample.append({"id": key, **row, "draw": tag, "stratum": stratum})
            taken += 1
    return sample


ROW_HEAD = ("id", "source", "clause_id", "text", "draw", "stratum")
ROW_TAIL = ("figures", "caps", "notes")


def split(labelled: list[dict]) -> tuple[list[dict], list[dict]]:
    """Within each stratum, shuffle with the seed and alternate: tuning, held-out, tuning, ..."""
    tuning, heldout = [], []
    for stratum in ("figures", "caps"):
        rows = sorted((r for r in labelled if r["stratum"] == stratum), key=lambda r: r["id"])
        random.Random(f"{SEED}:split:{stratum}").shuffle(rows)
        for k, row in enumerate(rows):
            row = {**{key: row[key] for key in ROW_HEAD}, "split": "tuning" if k % 2 == 0 else "held-out",
                   **{key: row[key] for key in ROW_TAIL}}
            (tuning if k % 2 == 0 else heldout).append(row)
    return tuning, heldout


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the shared data folder (default %(default)s)")
    sub = parser.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draw", help="write the drawn clauses (no labels) in draw order")
    d.add_argument("--out", type=Path, required=True)
    d.add_argument("--take", type=json.loads, default=None,
                   help='override TAKE, e.g. \'{"figures:random": 1200}\' (to read further down an order)')
    s = sub.add_parser("split", help="split labelled clauses into tuning.jsonl / heldout.jsonl")
    s.add_argument("--labels", type=Path, required=True)
    args = parser.parse_args()
    if args.cmd == "draw":
        sample = draw(args.take if args.take is not None else TAKE, args.data)
        write_jsonl(args.out, sample)
        counts: dict[str, int] = {}
        for row in sample:
            key = f"{row['stratum']:8} {row['draw']:16} {row['source']}"
            counts[key] = counts.get(key, 0) + 1
        for key in sorted(counts):
            log.info("%-40s %4d", key, counts[key])
        log.info("%-40s %4d", "total", len(sample))
        return
    labelled = [json.loads(line) for line in args.labels.open(encoding="utf-8")]
    drawn = {r["id"] for r in draw(TAKE, args.data)}
    have = {r["id"] for r in labelled}
    if drawn != have:
        raise SystemExit(f"labels do not match the draw: {len(drawn - have)} drawn but unlabelled, "
                         f"{len(have - drawn)} labelled but not drawn")
    tuning, heldout = split(labelled)
    write_jsonl(HERE / "tuning.jsonl", tuning)
    write_jsonl(HERE / "heldout.jsonl", heldout)
    log.info("tuning %d, held-out %d", len(tuning), len(heldout))


if __name__ == "__main__":
    main()
