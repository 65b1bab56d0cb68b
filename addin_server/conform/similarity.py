"""How alike two definitions (or two terms' names) are: a token-set cosine, deterministic.

Words are lower-cased, stop words and the defined term itself dropped, and a light suffix
strip makes "provides"/"provided"/"providing" one word. Enough to see that "the services
described in the SOW" and "the services set out in a Statement of Work" are the same thing,
without a model.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from index_builder.reading.defined_terms import meaning

_STOP = frozenset(
    "a an the and or of to in on for by with as at from under any all each this that these those such "
    "its their his her it is are be been will shall may must means mean has have had including include "
    "other party parties agreement which who whom where when than then there herein hereunder thereof".split())
_WORD = re.compile(r"[a-z][a-z\-]+")


def _stem(word: str) -> str:
    for suffix in ("ations", "ation", "ings", "ing", "ies", "ied", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def tokens(text: str, drop: str = "") -> Counter[str]:
    dropped = {_stem(w) for w in _WORD.findall(drop.lower())}
    return Counter(s for w in _WORD.findall(text.lower()) if w not in _STOP
                   and (s := _stem(w)) not in dropped)


def cosine(a: Counter[str], b: Counter[str]) -> float:
    if not a or not b:
        return 0.0
    dot = sum(a[w] * b[w] for w in a.keys() & b.keys())
    return dot / math.sqrt(sum(v * v for v in a.values()) * sum(v * v for v in b.values()))


def definition_similarity(term_a: str, text_a: str, term_b: str, text_b: str) -> float:
    """Cosine of the two definitions' words, each without its own term's words."""
    # What each definition says, after its "means" (the core's reading of a definition; a
    # cover-page row has none and is compared whole, its label dropped as the term's words).
    a, b = (meaning(text_a) or text_a).split(), (meaning(text_b) or text_b).split()
    # The pane sends the first 160 characters of a definition ("…"): compare like with like,
    # or a long precedent definition looks unlike its own clipped copy.
    if text_b.rstrip().endswith("\u2026") and len(a) > len(b):
        a = a[:len(b)]
    elif text_a.rstrip().endswith("\u2026") and len(b) > len(a):
        b = b[:len(a)]
    return cosine(tokens(" ".join(a), term_a), tokens(" ".join(b), term_b))


def name_similarity(a: str, b: str) -> float:
    """Share of words the two terms have in common ("Covered Claim" / "Provider Covered Claim")."""
    wa, wb = {_stem(w) for w in _WORD.findall(a.lower())}, {_stem(w) for w in _WORD.findall(b.lower())}
    return len(wa & wb) / max(len(wa | wb), 1)
