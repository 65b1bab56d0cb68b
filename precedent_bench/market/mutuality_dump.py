"""Compare terms' "Who is bound" reading of every clause of a corpus, and what a change moved.

``dump`` writes one line per clause (corpus, clause id, reading) for the ACORD corpus
(BEIR ``corpus.jsonl``) and the real agreements (``*.docx``, read as the index reads them);
``diff`` counts the clauses whose reading differs between two dumps and draws a seeded sample of
them to read by hand (ids and readings only; the texts stay in the data folder).

    precedent-bench market-mutuality dump --out /tmp/before.jsonl     # on the code before
    precedent-bench market-mutuality dump --out /tmp/after.jsonl      # on the code after
    precedent-bench market-mutuality diff --before /tmp/before.jsonl --after /tmp/after.jsonl --sample 25
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path
from typing import Iterator

from precedent_bench.catalogue import subparser
from precedent_bench.common import data


def clauses(acord: Path, contracts: Path) -> Iterator[tuple[str, str, str]]:
    """(corpus, clause id, text) for every ACORD clause and every clause of the agreements."""
    from index_builder.ingest import read_clauses

    with open(acord / "corpus.jsonl", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            yield "acord", row["_id"], row["text"]
    for path in sorted(contracts.rglob("*.docx")):
        doc_id = path.relative_to(contracts).with_suffix("").as_posix()
        for clause in read_clauses(path, doc_id, str(path)):
            yield "contracts", clause.clause_id, clause.text


def dump(out: Path, acord: Path, contracts: Path) -> Counter:
    from index_builder.terms.extract import extract

    tally: Counter = Counter()
    with open(out, "w", encoding="utf-8") as f:
        for corpus, clause_id, text in clauses(acord, contracts):
            reading = extract(text).mutuality
            tally[(corpus, reading)] += 1
            f.write(json.dumps({"corpus": corpus, "id": clause_id, "mutuality": reading}) + "\n")
    return tally


def _load(path: Path) -> dict[tuple[str, str], str | None]:
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    return {(r["corpus"], r["id"]): r["mutuality"] for r in rows}


def diff(before: Path, after: Path, sample: int, seed: int) -> dict:
    a, b = _load(before), _load(after)
    changed = sorted(k for k in a if k in b and a[k] != b[k])
    moves = Counter((k[0], a[k], b[k]) for k in changed)
    drawn = random.Random(seed).sample(changed, min(sample, len(changed)))
    return {"clauses": {c: sum(1 for k in a if k[0] == c) for c in ("acord", "contracts")},
            "changed": {c: sum(1 for k in changed if k[0] == c) for c in ("acord", "contracts")},
            "moves": [{"corpus": c, "before": x, "after": y, "clauses": n} for (c, x, y), n in sorted(
                moves.items(), key=lambda kv: -kv[1])],
            "sample": [{"corpus": k[0], "id": k[1], "before": a[k], "after": b[k]} for k in drawn]}


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("step", choices=("dump", "diff"))
    parser.add_argument("--out", type=Path, help="dump: where to write the readings (JSON lines)")
    parser.add_argument("--acord", type=Path, default=data.ACORD)
    parser.add_argument("--contracts", type=Path, default=data.CONTRACTS)
    parser.add_argument("--before", type=Path, help="diff: the dump of the code before")
    parser.add_argument("--after", type=Path, help="diff: the dump of the code after")
    parser.add_argument("--sample", type=int, default=25, help="diff: changed clauses to draw for reading")
    parser.add_argument("--seed", type=int, default=7)


def run(args: argparse.Namespace) -> None:
    if args.step == "dump":
        if args.out is None:
            raise SystemExit("market-mutuality dump: say where to write the readings: --out FILE")
        tally = dump(args.out, args.acord, args.contracts)
        print(json.dumps({f"{c}:{r}": n for (c, r), n in sorted(tally.items(), key=str)}, indent=1))
    else:
        if args.before is None or args.after is None:
            raise SystemExit("market-mutuality diff: give both dumps: --before FILE --after FILE")
        print(json.dumps(diff(args.before, args.after, args.sample, args.seed), indent=1))
