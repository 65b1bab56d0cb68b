"""Test helper: search an index through the one pipeline, returning plain hits."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping, Sequence

from index_builder.index.backend import filters_from_mapping
from index_builder.model import SearchHit
from index_builder.retrieve.pipeline import RETRIEVERS, SearchRequest, build_pipeline, hits_only
from index_builder.settings import Settings

Search = Callable[..., list[SearchHit]]


def searcher(settings: Settings, embedder: Any, retrievers: Sequence[str] = RETRIEVERS,
             fold: bool = False, **retrieval: Any) -> Search:
    """search(text, top_k=10, filters=None) over the live index at settings.index_dir.

    Folding is off unless asked for, so tests about retrieval see every copy.
    """
    threshold = settings.retrieval.variation_threshold if fold else 0.0
    settings = replace(settings, retrieval=replace(settings.retrieval, variation_threshold=threshold,
                                                   **retrieval))
    pipeline = build_pipeline(settings, embedder, retrievers=retrievers, cross_encoder=False)

    def search(text: str, top_k: int | None = None,
               filters: Mapping[str, Any] | None = None) -> list[SearchHit]:
        request = SearchRequest(text=text, top_k=top_k, filters=filters_from_mapping(filters))
        return hits_only(pipeline.search(request))

    return search
