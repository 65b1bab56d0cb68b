"""`precedent-bench redraft-eval` (issue 32's table, one implementation with the workbench):
the model alone, the operations alone and the routed combination through the server's own
DraftRouter, judged by the run-time checks; a scripted model that hands the clause back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from addin_server.draft.prompts import REDRAFT_VARIABLES, load_prompt
from addin_server.draft.redraft import Redrafter
from addin_server.llm.client import OpenAIChatClient
from addin_server.llm.scripted import Reply, ScriptedLLMServer
from index_builder.settings import LLMSettings

from precedent_bench.cache import AnswerStore, CachedChatClient
from precedent_bench.cli import main
from precedent_bench.eval_report import markdown
from precedent_bench.redraft_ab import load_task_file, select
from precedent_bench.redraft_eval import Producers, _references, evaluate

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "benchmarks" / "redraft_set" / "tasks.jsonl"
REFERENCES = ROOT / "benchmarks" / "redraft_set" / "references.jsonl"
SHIPPED = ROOT / "prompts" / "redraft.prompt"


@pytest.fixture(scope="module")
def tasks() -> list[Any]:
    return select(load_task_file(TASKS, "tuning"), ["mutual", "shorten"], 2)


def _echo(body: dict[str, Any]) -> Reply:
    """A weak model: the lawyer's clause back, cited [1] (what the 1.5B model mostly does)."""
    user = body["messages"][-1]["content"]
    clause = user.split("<selected_text>")[1].split("</selected_text>")[0].strip()
    return Reply(content=f"{clause} [1]")


def test_the_model_the_operations_and_the_routed_drafts_each_get_every_check(tasks, tmp_path) -> None:
    with ScriptedLLMServer(_echo) as server:
        llm = LLMSettings(base_url=server.url, api_key="k", redraft_model="m", max_attempts=1)
        store = AnswerStore(tmp_path / "cache.sqlite")
        client = CachedChatClient(lambda: OpenAIChatClient(llm), store, namespace=server.url)
        producers = Producers(Redrafter(client, load_prompt(SHIPPED, REDRAFT_VARIABLES), llm))
        report = evaluate(tasks, producers, _references(REFERENCES), 0.95, 500, repeats=1)
        asked = client.counts()
        store.close()
        client.inner.close()  # its HTTP connection, not left to the garbage collector
    model, ops, routed = (report["producers"][p] for p in ("model", "operations", "routed"))
    # The echo never carries out "make this mutual", and the checks say so on every draft.
    assert model["mutual"]["changed"]["rate"] == 0.0 and model["mutual"]["flagged"]["rate"] == 1.0
    # The operation makes both mutual tasks; there is none for "shorten".
    assert ops["mutual"]["drafted"]["passed"] == 2 and ops["shorten"]["drafted"]["passed"] == 0
    assert ops["mutual"]["instruction"]["rate"] == 1.0
    # Routed: the operation where it applies, the model elsewhere; every task drafted.
    assert routed["all"]["drafted"]["rate"] == 1.0
    assert routed["mutual"]["instruction"]["rate"] == 1.0
    assert routed["shorten"]["changed"]["rate"] == 0.0
    # One model call per task: "routed" reuses the model producer's answer from the cache.
    assert asked["calls"] == len(tasks)
    assert report["sound_drafts"]["judged"] == len(tasks)
    assert report["latency"]["per_operation"]["make_mutual"]["n"] == 2
    text = markdown({**report, "prompt": "p", "model": "echo", "calls": asked, "split": "tuning",
                     "load_before": "-", "load_after": "-", "command": "c"})
    assert "## routed" in text and "| mutual |" in text


def test_a_spent_budget_asks_nothing_new_and_counts_the_cached_answers(tasks, tmp_path) -> None:
    with ScriptedLLMServer(_echo) as server:
        llm = LLMSettings(base_url=server.url, api_key="k", redraft_model="m", max_attempts=1)
        store = AnswerStore(tmp_path / "cache.sqlite")
        client = CachedChatClient(lambda: OpenAIChatClient(llm), store, namespace=server.url)
        redrafter = Redrafter(client, load_prompt(SHIPPED, REDRAFT_VARIABLES), llm)
        evaluate(tasks[:1], Producers(redrafter), {}, 0.95, 200, repeats=1)
        report = evaluate(tasks, Producers(redrafter, budget_s=0), {}, 0.95, 200, repeats=1)
        store.close()
        client.inner.close()  # its HTTP connection: left to the collector it warned (unclosed socket) in a later test
    assert report["producers"]["model"]["all"]["drafted"]["passed"] == 1  # the cached one
    assert client.counts()["calls"] == 1


def test_the_command_without_a_model_writes_its_report(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    out = tmp_path / "eval"
    assert main(["redraft-eval", "--no-model", "--category", "period", "--limit", "2",
                 "--repeats", "1", "--out", str(out)]) == 0
    report = json.loads((out / "eval.json").read_text())
    assert report["producers"]["operations"]["period"]["drafted"]["passed"] == 2
    assert "# Redraft evaluation: 2 tasks" in (out / "eval.md").read_text()


def test_the_cited_score_sees_an_edit_that_stops_citing(tasks) -> None:
    from addin_server.draft.checks import run_checks
    from precedent_bench.redraft_ab import judge

    task_id, category, task = tasks[0]
    cited = judge(task_id, category, task, f"{task.clause} [1]", run_checks, "cited")
    uncited = judge(task_id, category, task, task.clause, run_checks, "cited")
    assert (cited.score, uncited.score) == (1.0, 0.0)
    # The checks score does not fall for the uncited draft: its citation checks do not apply.
    assert judge(task_id, category, task, task.clause, run_checks).score >= 0.0
