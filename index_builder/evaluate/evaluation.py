"""ACORD evaluation: NDCG@5/10 with pytrec_eval and k-star precision@5, as the paper reports.

Conventions (see the README): clauses a query has no judgment for are dropped from its
ranking before scoring; k-star P@5 is top-5 hits rated >= k stars divided by 5, averaged
over queries that have at least one clause rated >= k. The appendix's normalised form
(divided by min(5, n_k)) is reported beside it with the suffix ``_norm``.
"""

from __future__ import annotations

import logging
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

import pytrec_eval
from tqdm import tqdm

from index_builder.evaluate.acord import Acord
from index_builder.model import SearchHit

log = logging.getLogger(__name__)

STARS = (3, 4, 5)
METRICS = ("ndcg@5", "ndcg@10", "p@5_3star", "p@5_4star", "p@5_5star")
Search = Callable[[str], Sequence[SearchHit]]


@dataclass(frozen=True)
class EvalQuery:
    """One scored query: its text, category and graded judgments; ``exclude`` is left out."""

    query_id: str
    text: str
    category: str
    judged: dict[str, int]
    exclude: str = ""


@dataclass
class EvalResult:
    overall: dict[str, float]
    categories: dict[str, dict[str, float]]
    per_query: dict[str, dict[str, float]] = field(default_factory=dict)
    latency_ms: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"overall": self.overall, "categories": self.categories,
                "latency_ms": self.latency_ms, "per_query": self.per_query}


def eval_queries(acord: Acord, split: str, wording: str = "short", mode: str = "query",
                 corpus: Mapping[str, str] | None = None) -> list[EvalQuery]:
    """The queries to score. ``mode="clause"`` turns each 5-star clause into a query.

    In clause mode the query text is the clause itself (as the add-in sends a whole
    paragraph), the labels are the original query's other judgments, and the clause is
    excluded from its own ranking. ``corpus`` maps clause ids to their text.
    """
    if mode == "clause" and corpus is None:
        raise ValueError("Clause-as-query evaluation needs the corpus texts.")
    items = []
    for query in acord.split_queries(split):
        judged = acord.qrels[split][query.query_id]
        if mode == "query":
            text = query.wordings.get(wording)
            if text is None:
                raise ValueError(f"Query {query.query_id!r} has no {wording} wording.")
            items.append(EvalQuery(query.query_id, text, query.category, judged))
        elif mode == "clause":
            for clause_id, grade in sorted(judged.items()):
                if grade == 4:
                    labels = {c: g for c, g in judged.items() if c != clause_id}
                    items.append(EvalQuery(f"{query.query_id} <- {clause_id}", corpus[clause_id],
                                           query.category, labels, exclude=clause_id))
        else:
            raise ValueError(f"Unknown evaluation mode {mode!r}: use 'query' or 'clause'.")
    return items


def run_queries(queries: Iterable[EvalQuery], search: Search, progress: bool = True
                ) -> tuple[dict[str, list[str]], list[float]]:
    """Rank clause ids for each query; returns the runs and per-query latencies in ms."""
    runs: dict[str, list[str]] = {}
    latencies: list[float] = []
    queries = list(queries)
    for query in tqdm(queries, desc="Queries", unit="q", disable=not progress):
        started = time.perf_counter()
        hits = search(query.text)
        latencies.append((time.perf_counter() - started) * 1000)
        runs[query.query_id] = [h.clause.clause_id for h in hits if h.clause.clause_id != query.exclude]
    return runs, latencies


def score_runs(queries: Sequence[EvalQuery], runs: dict[str, list[str]]) -> EvalResult:
    """Per-query metrics and their means overall and per category."""
    per_query = {q.query_id: score_ranking(runs.get(q.query_id, []), q.judged) for q in queries}
    categories = sorted({q.category for q in queries})
    by_category = {
        cat: _mean([per_query[q.query_id] for q in queries if q.category == cat])
        for cat in categories
    }
    return EvalResult(_mean(list(per_query.values())), by_category, per_query)


def score_ranking(ranking: Sequence[str], judged: dict[str, int]) -> dict[str, float]:
    """Metrics of one ranking (clause ids, best first) against graded judgments, in percent."""
    kept = [c for c in dict.fromkeys(ranking) if c in judged]
    run = {c: float(len(kept) - i) for i, c in enumerate(kept)}  # strictly decreasing: no ties
    evaluator = pytrec_eval.RelevanceEvaluator({"q": judged}, {"ndcg_cut.5", "ndcg_cut.10"})
    ndcg = evaluator.evaluate({"q": run})["q"] if run else {"ndcg_cut_5": 0.0, "ndcg_cut_10": 0.0}
    scores = {"ndcg@5": 100 * ndcg["ndcg_cut_5"], "ndcg@10": 100 * ndcg["ndcg_cut_10"]}
    for stars in STARS:
        relevant = sum(1 for grade in judged.values() if grade >= stars - 1)
        if relevant:  # queries with no such clause are skipped for this metric
            hits = sum(1 for c in kept[:5] if judged[c] >= stars - 1)
            scores[f"p@5_{stars}star"] = 100 * hits / 5
            scores[f"p@5_{stars}star_norm"] = 100 * hits / min(5, relevant)
    return scores


def _mean(rows: list[dict[str, float]]) -> dict[str, float]:
    names = sorted({name for row in rows for name in row}, key=_metric_order)
    means = {name: statistics.fmean(row[name] for row in rows if name in row) for name in names}
    means["queries"] = float(len(rows))
    return means


def _metric_order(name: str) -> tuple[int, str]:
    base = name.removesuffix("_norm")
    return (METRICS.index(base) if base in METRICS else len(METRICS), name)


def latency_summary(latencies: Sequence[float]) -> dict[str, float]:
    if not latencies:
        return {}
    ordered = sorted(latencies)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"p50": round(pick(0.5), 2), "p95": round(pick(0.95), 2),
            "mean": round(statistics.fmean(ordered), 2)}


def format_table(result: EvalResult, title: str = "") -> str:
    """A plain-text table: one row per category, then the overall row."""
    columns = METRICS + tuple(f"p@5_{s}star_norm" for s in STARS)
    headers = ["category", "n", "nDCG@5", "nDCG@10", "3★", "4★", "5★", "3★n", "4★n", "5★n"]
    rows = [[cat, *_cells(m, columns)] for cat, m in result.categories.items()]
    rows.append(["OVERALL", *_cells(result.overall, columns)])
    widths = [max(len(str(r[i])) for r in rows + [headers]) for i in range(len(headers))]
    line = lambda r: "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)  # noqa: E731
                               for i, (c, w) in enumerate(zip(r, widths)))
    out = [title] if title else []
    out += [line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows]
    return "\n".join(out)


def _cells(metrics: dict[str, float], columns: Sequence[str]) -> list[str]:
    return [str(int(metrics.get("queries", 0)))] + [
        f"{metrics[c]:.1f}" if c in metrics else "-" for c in columns]
