"""Near-duplicate grouping: one result per *major variation*, its *minor variations* nested.

Precedent libraries are full of near copies (the same form per state, per product line);
ten copies of one clause in a top ten hide the real alternatives (Pitis, ICAIL 2017). Two
clauses are minor variations of each other when their word sequences are at least
``threshold`` similar: difflib's ratio 2·M/T over words, so 0.9 means that about one word
in ten differs (inserted, deleted or changed) and 1.0 means identical wording (ignoring
case, punctuation and numbering).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Callable, Generic, Sequence, TypeVar

T = TypeVar("T")
_WORD = re.compile(r"[a-z0-9]+")
# Leading clause numbers ("12.3", "(a)") differ between copies of the same clause.
_NUMBERING = re.compile(r"^\s*(?:section\s+)?(?:\d+(?:\.\d+)*\.?|\(?[a-z]{1,4}\)|[a-z]\.)\s+", re.I)


@dataclass
class Group(Generic[T]):
    """A major variation and its minor variations, each with its similarity to the leader."""

    leader: T
    variants: list[tuple[T, float]] = field(default_factory=list)


def words(text: str) -> list[str]:
    return _WORD.findall(_NUMBERING.sub("", text).lower())


def similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """Word-level similarity in [0, 1]: difflib's ratio over the two word sequences."""
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return matcher.ratio()


def group_variations(items: Sequence[T], text_of: Callable[[T], str], limit: int,
                     threshold: float) -> list[Group[T]]:
    """Greedy in rank order: an item joins the first leader it matches, else leads a group.

    At most ``limit`` groups are returned; later items still join them as variants, so
    "also in N other documents" counts every copy among the candidates given.
    """
    groups: list[Group[T]] = []
    keys: list[list[str]] = []
    for item in items:
        mine = words(text_of(item))
        match = _best_leader(mine, keys, threshold) if threshold > 0 else None
        if match is not None:
            index, score = match
            groups[index].variants.append((item, score))
        elif len(groups) < limit:
            groups.append(Group(item))
            keys.append(mine)
    return groups


def _best_leader(mine: list[str], keys: list[list[str]], threshold: float) -> tuple[int, float] | None:
    for index, theirs in enumerate(keys):
        matcher = SequenceMatcher(None, theirs, mine, autojunk=False)
        if matcher.real_quick_ratio() < threshold or matcher.quick_ratio() < threshold:
            continue
        score = matcher.ratio()
        if score >= threshold:
            return index, round(score, 4)
    return None
