"""The citation set (`precedent-bench citations`) with the support check as the product runs it, without and
with the closeness of meaning (the search model): per part and kind, pairs shown supported, and the
closeness of every pair the words alone fail with no veto (what SEMANTIC_THRESHOLD is fitted on: train).

    PYTHONPATH=$PWD python benchmarks/results/drafting/session14-cite2/citation_closeness.py OUT.jsonl
"""
from __future__ import annotations

import json
import sys
from collections import Counter

from addin_server.draft import support
from index_builder.index.batcher import query_embedder
from index_builder.settings import load_settings
from precedent_bench.drafting import citation_support as CS


def main(out: str) -> None:
    embedder = query_embedder(load_settings({}, {}).embedding, command=True)
    similar = support.EmbeddingSimilarity(embedder)
    values: dict[int, float | None] = {}
    examples = CS.build_examples(CS.load_documents(CS.CONTRACTS), CS.SEED)
    same = support._same_meaning

    def recording(sentence, precedent, f, sim):  # type: ignore[no-untyped-def]
        values[id(sentence)] = None
        if f.amount or f.party or f.negation or support._opposed(sentence, precedent[f.passage[0]:f.passage[1]]):
            return False
        values[id(sentence)] = sim(sentence, precedent[f.passage[0]:f.passage[1]])
        return False

    support._same_meaning = recording
    counts: Counter = Counter()
    with open(out, "w") as fh:
        for e in examples:
            part = "held-out" if CS.is_test(e.family) else "train"
            values.clear()
            words = support.score_support(e.sentence, e.clause, similar=similar)
            closeness = next(iter(values.values()), None)
            fh.write(json.dumps({"part": part, "kind": e.kind, "label": e.label, "words": words.supported,
                                 "closeness": None if closeness is None else round(closeness, 4)}) + "\n")
            counts[(part, e.kind, words.supported)] += 1
    support._same_meaning = same
    embedder.close() if hasattr(embedder, "close") else None
    for key, n in sorted(counts.items()):
        print(key, n)


if __name__ == "__main__":
    main(sys.argv[1])
