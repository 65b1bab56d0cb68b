"""Strict mode: "have we used (nearly) these exact words before?"

The ranked search answers "what is like my clause"; strict mode answers a narrower question
lawyers ask when they check a paragraph against wording the firm has used: which precedents
say the *same words*, or nearly. It reads the candidates the pipeline already retrieved for
the paragraph (pipeline.py, ``mode="strict"``) and keeps those whose word-level edit
similarity to the lawyer's words reaches a threshold, most similar first.

Similarity is the variation folding's (retrieve/variations.py): ``2·LCS/(len a + len b)``
over the word sequences, ignoring case, punctuation and leading clause numbers, so 1.0 means
the same words in the same order ("identical", said plainly in the pane) and 0.9 about one
word in ten inserted, deleted or changed. One measure for folding, the explorer and strict
mode, so a threshold means the same thing everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from index_builder.model import SearchHit
# The explorer's bounded similarity (stops early when a pair cannot reach the threshold):
# reused, not copied, so strict mode and the explorer decide alike to the last bit.
from index_builder.retrieve.variations import _similarity_at_least, words

MODES = ("ranked", "strict")


@dataclass(frozen=True)
class StrictMatch:
    """How a precedent's words compare with the lawyer's paragraph."""

    similarity: float  # word-level edit similarity in [0, 1], rounded to 4 places
    identical: bool  # the same words in the same order (case, punctuation, numbering aside)


def near_copies(query: str, hits: Sequence[SearchHit], threshold: float
                ) -> list[tuple[SearchHit, StrictMatch]]:
    """The hits whose words are at least ``threshold`` similar to ``query``, most similar first.

    Ties keep the retrieval order. A query without words matches nothing.
    """
    mine = words(query)
    if not mine:
        return []
    found: list[tuple[SearchHit, StrictMatch]] = []
    for hit in hits:
        theirs = words(hit.clause.text)
        score = _similarity_at_least(mine, theirs, threshold)
        if score and score >= threshold:
            found.append((hit, StrictMatch(round(score, 4), tuple(theirs) == tuple(mine))))
    order = {id(hit): i for i, hit in enumerate(hits)}
    found.sort(key=lambda pair: (-pair[1].similarity, order[id(pair[0])]))
    return found
