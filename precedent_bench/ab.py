"""The shape every A/B run hands to the statistics and the report."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from addin_server.draft.prompt_checks import check_prompt
from addin_server.draft.prompts import PromptTemplate
from addin_server.llm.tokens import TokenCounter
from index_builder.settings import LLMSettings

from precedent_bench.stats import Delta, Paired, compare, verdict


@dataclass(frozen=True)
class ItemRun:
    """One item (a drafting task, an ACORD query) under one prompt."""

    item_id: str
    category: str
    score: float
    output: str  # what the model wrote (a draft) or did (ratings), for the report
    notes: tuple[str, ...] = ()  # failed checks, in words


@dataclass
class ABRun:
    """Two prompts run on the same items with the same model."""

    kind: str  # "redraft" or "rerank"
    metric: str  # what ``score`` is, in words
    prompt_a: PromptTemplate
    prompt_b: PromptTemplate
    runs_a: Sequence[ItemRun]
    runs_b: Sequence[ItemRun]
    model: str
    subset: str  # which items, in words (the split, the limit)
    calls: dict[str, int] = field(default_factory=dict)
    warnings: dict[str, list[str]] = field(default_factory=dict)  # prompt checks, per label

    def paired(self) -> list[Paired]:
        b = {r.item_id: r for r in self.runs_b}
        return [Paired(a.item_id, a.category, a.score, b[a.item_id].score)
                for a in self.runs_a if a.item_id in b]

    def deltas(self, confidence: float = 0.95, resamples: int = 10_000) -> list[Delta]:
        return compare(self.paired(), confidence, resamples)

    def verdict(self, deltas: Sequence[Delta]) -> str:
        return verdict(deltas, digits=self.digits)

    @property
    def digits(self) -> int:
        return 1 if self.kind == "rerank" else 2  # NDCG in points, check shares in 0..1


def prompt_warnings(kind: str, prompts: Sequence[PromptTemplate], llm: LLMSettings) -> dict[str, list[str]]:
    """The load-time checks of each prompt (addin_server/draft/prompt_checks.py), by label."""
    counter = TokenCounter(llm.encoding)
    found = {label: check_prompt(p, kind, llm, counter) for label, p in zip("AB", prompts)}
    return {label: warnings for label, warnings in found.items() if warnings}
