"""Rerank A/B: the shipped prompt against a reversed-scale edit, with a scripted model that
follows whichever scale its prompt states; the loss must be detected and reported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from addin_server.rerank import load_rerank_prompt
from index_builder.evaluate.evaluation import EvalQuery
from index_builder.model import Clause, SearchHit

from precedent_bench.cli import main
from precedent_bench.report import write_report
from precedent_bench.rerank_ab import head_of, run_ab

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "prompts" / "rerank.prompt"
REVERSED = ROOT / "benchmarks" / "prompt_edits" / "rerank-reversed-scale.prompt"


def heads(count: int = 8) -> list[Any]:
    """Queries whose retrieval order is the worst one (grades ascending), in two categories."""
    out = []
    for q in range(count):
        grades = [0, 1, 2, 3, 4]
        judged = {f"c{q}-{g}": g for g in grades}
        hits = [SearchHit(Clause(f"c{q}-{g}", f"Clause of grade {g} for query {q}.", "d"),
                          score=1.0 - i / 10, rank=i + 1) for i, g in enumerate(grades)]
        hits.insert(2, SearchHit(Clause(f"u{q}", "unjudged", "d"), score=0.75, rank=3))
        query = EvalQuery(f"q{q}", f"need {q}", "cap" if q % 2 else "term", judged)
        out.append(head_of(f"valid/short/q{q}", query, hits, depth=4))
    return out


def test_head_is_the_first_judged_clauses_and_the_tail_the_rest() -> None:
    head = heads(1)[0]
    assert [h.clause.clause_id for h in head.head] == ["c0-0", "c0-1", "c0-2", "c0-3"]
    assert head.tail == ("c0-4",)


def test_the_reversed_scale_loses_and_the_verdict_says_so(bench_model: Any, tmp_path: Path) -> None:
    prompts = (load_rerank_prompt(SHIPPED), load_rerank_prompt(REVERSED))
    ab = run_ab(heads(), prompts, bench_model, "synthetic")
    deltas = ab.deltas(resamples=2000)
    overall = deltas[0]
    assert overall.mean_a > overall.mean_b and overall.direction == "worse"
    assert ab.verdict(deltas).startswith("B is worse overall")
    html = write_report(ab, deltas, tmp_path / "report")
    md = (tmp_path / "report" / "report.md").read_text()
    assert "-4 = highly relevant" in md and "+0 = highly relevant" in md  # the prompts' diff
    assert md.count("### valid/short/") == 10  # five worst under each prompt
    assert "rated 0.00" in md  # what the model did, item by item
    assert "B is worse overall" in html.read_text()
    for png in ("deltas.png", "distributions.png"):
        assert (tmp_path / "report" / png).read_bytes()[:4] == b"\x89PNG"
    saved = json.loads((tmp_path / "report" / "results.json").read_text())
    assert saved["deltas"][0]["direction"] == "worse" and len(saved["items"]) == 8


def test_a_rerun_of_unchanged_prompts_costs_no_call(bench_model: Any, scripted: Any) -> None:
    prompts = (load_rerank_prompt(SHIPPED), load_rerank_prompt(SHIPPED))
    run_ab(heads(4), prompts, bench_model, "synthetic")
    first = len(scripted.chat_requests())
    ab = run_ab(heads(4), prompts, bench_model, "synthetic")
    assert first == 16 and len(scripted.chat_requests()) == 16  # B = A: even B was cached
    assert ab.verdict(ab.deltas(resamples=1000)).startswith("Too few items overall, +0.0")


def test_the_test_split_needs_an_explicit_flag(capsys: Any) -> None:
    code = main(["rerank", "--prompt", str(SHIPPED), "--prompt", str(REVERSED), "--split", "test"])
    assert code == 2


def test_two_prompts_are_required() -> None:
    assert main(["rerank", "--prompt", str(SHIPPED), "--split", "valid"]) == 2


def test_bm25_heads_on_a_small_real_acord(mini_acord: Path) -> None:
    from index_builder.settings import load_settings
    from precedent_bench.rerank_ab import acord_heads

    settings = load_settings({}, {"acord_dir": mini_acord})
    found = acord_heads(settings, ["test"], ["short"], None, 3, first_stage="bm25")
    assert len(found) == 4
    for head in found:
        ids = [h.clause.clause_id for h in head.head] + list(head.tail)
        assert len(head.head) == 3 and set(ids) <= set(head.judged) and len(set(ids)) == len(ids)


def test_served_heads_come_from_the_served_pipeline(mini_acord: Path, tmp_path: Path,
                                                    embedder: Any) -> None:
    from index_builder.evaluate.runner import EvalConfig, eval_pipeline, eval_search
    from index_builder.settings import load_settings
    from precedent_bench.rerank_ab import acord_heads

    settings = load_settings({}, {"acord_dir": mini_acord, "index_dir": tmp_path / "index"})
    found = acord_heads(settings, ["test"], ["short"], 2, 3, embedder=embedder)
    config = EvalConfig(split="test")
    search = eval_search(eval_pipeline(settings, config, embedder), config)
    for head in found:
        served = [h.clause.clause_id for h in search(head.query) if h.clause.clause_id in head.judged]
        assert [h.clause.clause_id for h in head.head] + list(head.tail) == served
