"""Repeated searches reuse their retrieval (issue 29), and nothing else: same results as an
uncached pipeline, the caller's walls in every key, a new version or ranker starts empty, and
the knowledge team's marks apply to a repeated search at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from index_builder.index import open_store
from index_builder.index.backend import Condition
from index_builder.index.build import build_index
from index_builder.learn.store import Mark
from index_builder.model import Rating, RerankOutcome
from index_builder.retrieve.pipeline import SearchPipeline, SearchRequest, build_pipeline
from index_builder.settings import Settings, updated

CLAUSES = {
    "nda": ["1. Confidentiality. Each party shall keep the Confidential Information of the other "
            "party confidential and use it only for the Purpose.",
            "2. Term. This Agreement lasts two years from the Effective Date."],
    "msa": ["1. Confidentiality. The Supplier shall keep the Customer's Confidential Information "
            "confidential and shall not disclose it to any third party.",
            "2. Liability. Neither party's total liability shall exceed the fees paid in the "
            "twelve months before the claim."],
    "spa": ["1. Confidentiality. The Seller shall keep all Confidential Information about the "
            "Buyer confidential after Completion.",
            "2. Warranties. The Seller warrants that the Shares are free from encumbrances."],
}
QUERY = "keep the Confidential Information confidential"


class Counting:
    """The backend, counting the retrieval calls a search makes."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.calls = inner, 0

    def dense(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return self.inner.dense(*args, **kwargs)

    def lexical(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return self.inner.lexical(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class Marks:
    """The knowledge team's marks, changed by the test between two searches."""

    def __init__(self) -> None:
        self.marks: dict[str, Mark] = {}

    def marks_for(self, clauses: Any) -> dict[str, Mark]:
        return {c.clause_id: self.marks[c.clause_id] for c in clauses if c.clause_id in self.marks}


@pytest.fixture
def built(settings: Settings, embedder: Any, tmp_path: Path) -> Settings:
    library = tmp_path / "library"
    library.mkdir()
    for name, paragraphs in CLAUSES.items():
        (library / f"{name}.txt").write_text("\n\n".join(paragraphs))
    settings = updated(settings, {"retrieval.variation_threshold": 0.0})
    build_index(settings, [library], embedder, progress=False)
    return settings


def _pipeline(settings: Settings, embedder: Any, cache: int) -> tuple[SearchPipeline, Counting]:
    pipeline = build_pipeline(updated(settings, {"retrieval.result_cache": cache}), embedder,
                              open_store(settings).open())
    counting = Counting(pipeline.backend)
    pipeline.backend = counting
    return pipeline, counting


def _shown(outcome: Any) -> list[tuple[str, float, tuple]]:
    return [(r.hit.clause.clause_id, round(r.hit.score, 6), tuple(r.spans)) for r in outcome.results]


def test_a_repeated_search_reuses_its_retrieval_and_answers_the_same(built: Settings,
                                                                      embedder: Any) -> None:
    cached, counting = _pipeline(built, embedder, 16)
    plain, _ = _pipeline(built, embedder, 0)
    first = cached.search(SearchRequest(text=QUERY))
    calls = counting.calls
    again = cached.search(SearchRequest(text=QUERY))
    assert calls > 0 and counting.calls == calls  # no retrieval the second time
    assert _shown(again) == _shown(first) == _shown(plain.search(SearchRequest(text=QUERY)))
    assert [h.clause.clause_id for h in again.candidates] == [h.clause.clause_id for h in first.candidates]
    assert again.feature_rows.keys() == first.feature_rows.keys()
    cached.search(SearchRequest(text=QUERY, top_k=2))  # another depth is another search
    assert counting.calls > calls


def test_the_callers_walls_are_part_of_every_key(built: Settings, embedder: Any) -> None:
    pipeline, _ = _pipeline(built, embedder, 16)
    everyone = pipeline.search(SearchRequest(text=QUERY))
    assert "spa" in {r.hit.clause.doc_id for r in everyone.results}
    walled = (Condition("doc_id", ("spa",), negate=True),)
    for _ in range(2):  # cached or not, the walled-off document never comes back
        outcome = pipeline.search(SearchRequest(text=QUERY, access=walled))
        assert outcome.results and "spa" not in {r.hit.clause.doc_id for r in outcome.results}
        assert "spa" not in {h.clause.doc_id for h in outcome.candidates}
    filtered = pipeline.search(SearchRequest(text=QUERY, filters=(Condition("doc_id", ("nda",)),)))
    assert {r.hit.clause.doc_id for r in filtered.results} == {"nda"}


def test_a_new_version_or_ranker_starts_with_an_empty_cache(built: Settings, embedder: Any) -> None:
    pipeline, counting = _pipeline(built, embedder, 16)
    pipeline.search(SearchRequest(text=QUERY))
    swapped = pipeline.with_backend(counting)
    relearned = pipeline.with_rescorer(None)
    before = counting.calls
    swapped.search(SearchRequest(text=QUERY))
    assert counting.calls > before
    before = counting.calls
    relearned.search(SearchRequest(text=QUERY))
    assert counting.calls > before


def test_a_mark_made_after_the_first_search_applies_to_the_repeat(built: Settings,
                                                                   embedder: Any) -> None:
    pipeline, _ = _pipeline(built, embedder, 16)
    pipeline.curation = Marks()
    top = pipeline.search(SearchRequest(text=QUERY)).results[0].hit.clause.clause_id
    pipeline.curation.marks[top] = Mark("clause", top, "deprecated", "superseded")
    again = pipeline.search(SearchRequest(text=QUERY))
    assert again.results[0].hit.clause.clause_id != top
    assert again.results[-1].hit.clause.clause_id == top  # deprecated: never first, shown last


def test_the_size_is_validated(settings: Settings) -> None:
    from index_builder.errors import ConfigError

    with pytest.raises(ConfigError, match="PRECEDENT_RESULT_CACHE"):
        updated(settings, {"retrieval.result_cache": -1})


class _PartlyRated:
    """A reranker double: the LLM answered for the first hit only (the others timed out)."""

    def rerank_detailed(self, query: str, hits: Any) -> RerankOutcome:
        ratings = [Rating(3.0, "digit")] + [Rating(None, "timeout")] * (len(hits) - 1)
        return RerankOutcome(list(zip(hits, ratings)), "applied")


def test_marks_order_a_page_the_llm_rated_only_in_part(built: Settings, embedder: Any) -> None:
    pipeline, _ = _pipeline(built, embedder, 16)
    pipeline = pipeline.with_curation(Marks())
    pipeline.reranker, pipeline.rerank_default = _PartlyRated(), True
    plain = pipeline.search(SearchRequest(text=QUERY))
    last = plain.results[-1].hit.clause.clause_id
    pipeline.curation.marks[last] = Mark("clause", last, "approved")
    marked = pipeline.search(SearchRequest(text=QUERY))  # unrated results have no tier: no crash
    assert marked.rerank_status == "applied" and marked.marks
    assert {r.hit.clause.clause_id for r in marked.results} == {r.hit.clause.clause_id for r in plain.results}
