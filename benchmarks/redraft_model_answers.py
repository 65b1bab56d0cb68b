"""Ask the embedded model (Qwen2.5-Coder-1.5B via xllamacpp) for every task's redraft; cache
each raw answer by the hash of its prompt, so reruns and redraft_eval.py reuse them.

    timeout 1500 python -m benchmarks.redraft_model_answers --split held-out

Slow on two shared cores (20 s+ a task): run it in the background with `timeout`; an
interrupted run keeps every answer it got. The prompt is the server's own (prompts/
redraft.prompt built by Redrafter.build_messages), so the answers are what /redraft sees.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import time
from pathlib import Path

from addin_server.draft.prompts import REDRAFT_VARIABLES, load_prompt
from addin_server.draft.redraft import Redrafter
from addin_server.draft.taskset import load_tasks
from addin_server.llm.client import OpenAIChatClient
from addin_server.llm.local import LocalLLMServer
from index_builder.errors import LLMUnavailableError
from index_builder.settings import load_settings

CACHE = Path("benchmarks/results/redraft/model_answers.jsonl")
log = logging.getLogger("redraft_model_answers")


def prompt_hash(messages: list[dict[str, str]]) -> str:
    return hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()[:16]


def load_cache(path: Path = CACHE) -> dict[str, dict]:
    if not path.exists():
        return {}
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return {row["prompt_sha"]: row for row in rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("tuning", "held-out"), default=None)
    parser.add_argument("--limit", type=int, default=0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    settings = load_settings()
    cache = load_cache()
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    with LocalLLMServer(settings.local_llm) as server:
        llm = server.llm_settings(settings.llm)
        client = OpenAIChatClient(llm)
        prompt = load_prompt(settings.server.prompts_dir / "redraft.prompt", REDRAFT_VARIABLES)
        redrafter = Redrafter(client, prompt, llm)
        tasks = load_tasks(split=args.split)
        done = 0
        for task_id, category, task, split in tasks:
            messages, used, _, _ = redrafter.build_messages(task.clause, task.precedents,
                                                            task.instruction)
            key = prompt_hash(messages)
            if key in cache:
                continue
            started = time.perf_counter()
            try:
                completion = client.complete(messages, model=llm.redraft_model,
                                             max_tokens=llm.redraft_max_tokens,
                                             temperature=llm.redraft_temperature,
                                             timeout_s=llm.redraft_timeout_s)
            except LLMUnavailableError as exc:  # a timeout on a busy machine: next task
                log.warning("%s: no answer after %.0f s (%s)", task_id,
                            time.perf_counter() - started, exc.message)
                continue
            row = {"prompt_sha": key, "task_id": task_id, "split": split,
                   "answer": completion.text, "seconds": round(time.perf_counter() - started, 1),
                   "precedents_used": len(used), "model": llm.redraft_model}
            with CACHE.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
            done += 1
            log.info("%s %.1f s", task_id, row["seconds"])
            if args.limit and done >= args.limit:
                break


if __name__ == "__main__":
    main()
