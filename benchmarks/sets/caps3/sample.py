"""Draw the clauses of the third caps tranche at random, deterministically (issue 38).

A fresh, never-seen set of liability-cap clauses, built after the first set
(``benchmarks/sets/figures``) and the second (``benchmarks/sets/caps2``) had been used to build the
cap reader. The second tranche drew every clause its pool rule allowed, so this one widens the rule
(any length; a wider cap pattern) and leaves out every clause an earlier labelled set holds.

* **Seen** (``seen``): every clause of the figures, caps2, drafting and drafting-c sets (ids, and the
  texts of their clauses and precedents).
* **Pool** (``pool``): clauses of the ACORD corpus and of the shared agreements (split by the
  project's own ingest) that match ``CAP_POOL`` (caps2's ``CAP_CANDIDATE`` or ``WIDE``), minus the
  seen clauses, minus near copies of a seen clause (caps2's rule), minus near copies of an earlier
  pool clause.
* **Order and split** (``order``): the pool shuffled with the seed; every third clause of that
  order (positions 0, 3, 6, ...) is tuning, the rest held-out. Fixed before any clause was read.
* **Reading** (``draws.jsonl``): every pool clause, in order, read and marked ``cap`` (it caps
  liability: labelled), ``figures`` (no cap, figures: labelled while its half's quota of non-cap
  clauses, ``NONCAP_QUOTA``, lasts) or ``rejected`` (with the reason).

    python benchmarks/sets/caps3/sample.py order --out ORDER.jsonl      # the pool, in order, with splits
    python benchmarks/sets/caps3/sample.py split --labels LABELS.jsonl  # writes tuning/heldout.jsonl
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import random
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

from precedent_bench.common.sampling import acord_clauses, contract_clauses, write_jsonl

log = logging.getLogger("caps3.sample")

HERE = Path(__file__).resolve().parent
SETS = HERE.parent


def _load(name: str, path: Path):
    """A sibling set's script as a module (benchmarks/sets is not a package)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# The second tranche's sampler: its near-copy rule, shingles and cap pattern are reused, not copied.
caps2 = sys.modules.get("caps2_sample") or _load("caps2_sample", SETS / "caps2" / "sample.py")

SEED = 3807  # issue 38, third caps tranche (the first set used 38, the second 3802)
DATA = caps2.DATA
TUNING_EVERY = 3  # positions 0, 3, 6, ... of the order are tuning: one third
# Non-cap clauses with figures kept per half (about 20 in all, a third tuning), so that a reader's
# invented caps and figures can be counted on clauses near caps; later ones are recorded, not kept.
NONCAP_QUOTA = {"tuning": 7, "held-out": 13}
# Earlier labelled sets whose clauses (and near copies) this tranche leaves out. Draw logs are not
# sets: a clause only drawn and rejected there was never labelled nor shown to any code.
SEEN_FILES = ["figures/tuning.jsonl", "figures/heldout.jsonl", "caps2/tuning.jsonl", "caps2/heldout.jsonl",
              "drafting/a-tuning.jsonl", "drafting/a-heldout.jsonl", "drafting/b-tuning.jsonl",
              "drafting/b-heldout.jsonl", "drafting-c/heldout.jsonl"]
_TEXT_KEYS = {"text", "clause", "precedent", "draft"}

# caps2's pool took every clause of at most 4,000 characters matching its CAP_CANDIDATE, so what is
# left of that pattern is only longer clauses. WIDE reaches caps worded otherwise: "shall be liable
# ... up to a maximum aggregate amount of", "Maximum Liability means", "in no event ... exceed", a
# "Limitation of Liability" heading. Most of its matches cap nothing; reading decides.
WIDE = re.compile(
    r"\bliab\w*[^.;]{0,400}\b(?:exceed|limited|limit|cap|maximum|up to|no more than|in excess)\b"
    r"|\b(?:exceed|limited|limit|cap|maximum|up to|no more than|in excess)\b[^.;]{0,300}\bliab\w*"
    r"|\bin no event\b[^.;]{0,400}\b(?:exceed|in excess|more than)\b"
    r"|\b(?:damages|recovery|indemnif\w*|obligations?|responsibility|claims?)\b[^.;]{0,300}"
    r"\b(?:exceed|capped|limited to|up to)\b"
    r"|limitation of liability|limitations? on liability|liability cap",
    re.IGNORECASE | re.DOTALL,
)


def cap_pool_match(text: str) -> bool:
    return bool(caps2.CAP_CANDIDATE.search(text) or WIDE.search(text))


def seen() -> tuple[set[str], list[str]]:
    """Ids and texts of every clause an earlier labelled set holds (clauses and precedents)."""
    ids: set[str] = set()
    texts: list[str] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            if node.get("source") in ("acord", "contracts") and "clause_id" in node:
                ids.add(f"{node['source']}:{node['clause_id']}")
            for key, value in node.items():
                if isinstance(value, str) and key in _TEXT_KEYS and len(value) > 80:
                    texts.append(value)
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for name in SEEN_FILES:
        with (SETS / name).open(encoding="utf-8") as handle:
            for line in handle:
                walk(json.loads(line))
    return ids, list(dict.fromkeys(texts))


class NearIndex:
    """Near-copy look-up (caps2's rule) over many texts, through an inverted shingle index."""

    def __init__(self, texts=()):
        self.shingles: list[frozenset[str]] = []
        self.index: dict[str, list[int]] = defaultdict(list)
        for text in texts:
            self.add(caps2.shingles(text))

    def add(self, sh: frozenset[str]) -> None:
        for g in sh:
            self.index[g].append(len(self.shingles))
        self.shingles.append(sh)

    def near(self, sh: frozenset[str]) -> bool:
        common = Counter(i for g in sh for i in self.index.get(g, ()))
        return any(caps2.near(sh, self.shingles[i]) for i in common)


def pool(data: Path = DATA) -> list[dict]:
    """The candidates, in (source, id) order, each once, none seen in an earlier set."""
    seen_ids, seen_texts = seen()
    seen_index, kept = NearIndex(seen_texts), NearIndex()
    text_set = set(seen_texts)
    rows = sorted(acord_clauses(data) + contract_clauses(data), key=lambda r: (r["source"], r["clause_id"]))
    out, dropped = [], Counter()
    for row in rows:
        if not cap_pool_match(row["text"]):
            continue
        if f"{row['source']}:{row['clause_id']}" in seen_ids or row["text"] in text_set:
            dropped["seen"] += 1
            continue
        sh = caps2.shingles(row["text"])
        if seen_index.near(sh):
            dropped["near seen"] += 1
            continue
        if kept.near(sh):
            dropped["near earlier"] += 1
            continue
        kept.add(sh)
        out.append(row)
    log.info("pool: %d candidates (%s); left out %s", len(out), dict(Counter(r["source"] for r in out)),
             dict(dropped))
    return out


def order(data: Path = DATA) -> list[dict]:
    """The pool in its fixed random order, each clause with its position and its half."""
    rows = pool(data)
    random.Random(f"{SEED}:random").shuffle(rows)
    return [{"position": i, "id": f"{r['source']}:{r['clause_id']}", **r,
             "split": "tuning" if i % TUNING_EVERY == 0 else "held-out"} for i, r in enumerate(rows)]


ROW_HEAD = ("id", "source", "clause_id", "text", "draw", "stratum", "split")
ROW_TAIL = ("figures", "caps", "notes")


def split(labelled: list[dict], data: Path = DATA) -> tuple[list[dict], list[dict]]:
    """Labelled rows into the halves fixed by ``order`` (checking ids and texts against it)."""
    by_id = {r["id"]: r for r in order(data)}
    tuning, heldout = [], []
    for row in sorted(labelled, key=lambda r: by_id[r["id"]]["position"] if r["id"] in by_id else -1):
        drawn = by_id.get(row["id"])
        if drawn is None or drawn["text"] != row["text"]:
            raise SystemExit(f"{row['id']}: not in the order, or its text differs")
        out = {**{k: row[k] for k in ROW_HEAD[:-1]}, "draw": "random", "stratum": "caps",
               "split": drawn["split"], **{k: row[k] for k in ROW_TAIL}}
        (tuning if drawn["split"] == "tuning" else heldout).append(out)
    return tuning, heldout


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the shared data folder (default %(default)s)")
    sub = parser.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser("order", help="write the pool in its random order, with each clause's half")
    o.add_argument("--out", type=Path, required=True)
    s = sub.add_parser("split", help="write labelled rows of one half or both to tuning.jsonl / heldout.jsonl")
    s.add_argument("--labels", type=Path, nargs="+", required=True)
    s.add_argument("--only", choices=("tuning", "held-out"), help="write only this half's file")
    args = parser.parse_args()
    if args.cmd == "order":
        rows = order(args.data)
        write_jsonl(args.out, rows)
        log.info("%s", dict(Counter((r["split"], r["source"]) for r in rows)))
        return
    labelled = [json.loads(line) for path in args.labels for line in path.open(encoding="utf-8")]
    tuning, heldout = split(labelled, args.data)
    if args.only != "held-out":
        write_jsonl(HERE / "tuning.jsonl", tuning)
    if args.only != "tuning":
        write_jsonl(HERE / "heldout.jsonl", heldout)
    log.info("tuning %d, held-out %d", len(tuning), len(heldout))


if __name__ == "__main__":
    main()
