"""Closeness of meaning (cosine, the search model) of every cited sentence the support score fails on words
alone with no veto (no figure, party or "not" the precedent lacks), per draft of the given drafting sets:
what SEMANTIC_THRESHOLD is fitted on. Behaviour is today's (the rule is recorded, never applied).

    PYTHONPATH=$PWD python benchmarks/results/drafting/session14-cite2/closeness.py OUT.jsonl SET.jsonl...
"""
from __future__ import annotations

import json
import sys

from addin_server.draft import support
from precedent_bench.drafting import drafting_set as D

current: list[float] = []


def recording(sentence, precedent, f, similar):  # type: ignore[no-untyped-def]
    if f.amount or f.party or f.negation:
        return False
    passage = precedent[f.passage[0]:f.passage[1]]
    if support._opposed(sentence, passage):
        return False
    value = similar(sentence, passage)
    if value is not None:
        current.append(round(value, 4))
    return False


def main(out: str, paths: list[str]) -> None:
    support._same_meaning = recording
    calls: list[list[float]] = []
    post = D._post

    def tagged(client, body):  # type: ignore[no-untyped-def]
        current.clear()
        answer = post(client, body)
        calls.append(list(current))
        return answer

    D._post = tagged
    with open(out, "w") as fh:
        for path in paths:
            tasks = [json.loads(line) for line in open(path)]
            calls.clear()
            D.ask(tasks)
            rows = iter(calls)
            for task in tasks:
                for draft in task["drafts"]:
                    fh.write(json.dumps({"set": path, "draft_id": draft["draft_id"], "sound": draft["sound"],
                                         "faults": [x.get("kind") if isinstance(x, dict) else x for x in draft.get("faults", [])],
                                         "closeness": next(rows)}) + "\n")
                fh.write(json.dumps({"set": path, "draft_id": task["task_id"] + "-op", "sound": None,
                                     "closeness": next(rows)}) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
