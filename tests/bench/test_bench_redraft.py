"""Redraft A/B and the checks' catch rate on the redraft set (issue 32), with a scripted
model: it follows each task under a prompt that asks for grounded, cited drafts, and hands
the clause back unchanged under one that does not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from addin_server.draft.prompts import REDRAFT_VARIABLES, load_prompt
from addin_server.draft.redraft import Redrafter
from addin_server.llm.client import OpenAIChatClient
from addin_server.llm.scripted import Reply, ScriptedLLMServer
from index_builder.settings import LLMSettings

from precedent_bench.cache import AnswerStore, CachedChatClient
from precedent_bench.catch_rate import measure
from precedent_bench.models import BenchModel
from precedent_bench.redraft_ab import load_labels, load_task_file, run_ab, select
from precedent_bench.report import write_report
from precedent_bench.scripted_drafts import BREAKS, ScriptedDrafter, follow

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "benchmarks" / "redraft_set" / "tasks.jsonl"
SHIPPED = ROOT / "prompts" / "redraft.prompt"
WORSE = ROOT / "benchmarks" / "prompt_edits" / "redraft-uncited.prompt"


@pytest.fixture(scope="module")
def tasks() -> list[Any]:
    return select(load_task_file(TASKS, "tuning"), None, 1)  # one task per category


def test_the_subset_has_one_task_of_each_category(tasks: list[Any]) -> None:
    assert [c for _, c, _ in tasks] == ["mutual", "flip", "period", "carve_out", "conform",
                                        "shorten", "plain"]


def test_follow_drafts_pass_and_each_planted_break_is_caught(tasks: list[Any]) -> None:
    drafter = ScriptedDrafter(tasks, load_labels(TASKS, "tuning"))
    with ScriptedLLMServer(drafter) as server:
        llm = LLMSettings(base_url=server.url, api_key="k", redraft_model="m", max_attempts=1)
        client = OpenAIChatClient(llm)
        report = measure(tasks, Redrafter(client, load_prompt(SHIPPED, REDRAFT_VARIABLES), llm),
                         drafter)
        client.close()
    breaks = report["breaks"]
    assert {b.name for b in BREAKS} == set(breaks)
    assert all(t.caught == t.testable for t in breaks.values()), {k: t.missed for k, t in breaks.items()}
    assert breaks["bad marker"].testable == 7 and breaks["too long"].planted == 1
    assert report["follow_passing"] >= 5  # plain rewrites, not a model: most pass every check


def test_the_worse_prompt_loses_and_the_report_shows_why(tasks: list[Any], tmp_path: Path) -> None:
    labels = load_labels(TASKS, "tuning")
    drafter = ScriptedDrafter(tasks, labels)

    def responder(body: dict[str, Any]) -> Reply:
        grounded = "cite it with its number" in body["messages"][0]["content"]
        drafter.mode = "follow" if grounded else "unchanged"
        return drafter(body)

    with ScriptedLLMServer(responder) as server:
        llm = LLMSettings(base_url=server.url, api_key="k", redraft_model="m", max_attempts=1)
        store = AnswerStore(tmp_path / "cache.sqlite")
        cached = CachedChatClient(lambda: OpenAIChatClient(llm), store)
        model = BenchModel(cached, llm, "scripted")
        prompts = (load_prompt(SHIPPED, REDRAFT_VARIABLES), load_prompt(WORSE, REDRAFT_VARIABLES))
        ab = run_ab(tasks, prompts, model, "one task per category")
        store.close()
        cached.inner.close()  # its HTTP connection, not left to the garbage collector
    deltas = ab.deltas(resamples=2000)
    assert deltas[0].direction == "worse" and deltas[0].high < 0
    assert ab.warnings and '"Do not cite"' in " ".join(ab.warnings["B"])  # checked at load too
    write_report(ab, deltas, tmp_path / "r")
    md = (tmp_path / "r" / "report.md").read_text()
    assert "the instruction was not carried out" in md  # the failed checks, in words
    assert follow(tasks[0][2], labels[tasks[0][0]]) in md  # the drafts themselves


def test_the_ab_tunes_on_the_tuning_half_unless_told_otherwise() -> None:
    # Without --split both halves ran, so a prompt engineer tuned on the held-out half by default.
    from precedent_bench.cli import build_parser
    parse = build_parser().parse_args
    assert parse(["redraft", "--prompt", "a", "--prompt", "b"]).split == "tuning"
    assert parse(["redraft", "--prompt", "a", "--prompt", "b", "--split", "held-out"]).split == "held-out"
    assert parse(["redraft", "--prompt", "a", "--prompt", "b", "--split", "both"]).split == "both"
