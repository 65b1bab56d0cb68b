"""The length an instruction sets the whole draft: N sentences, under N words, half, shorter.

Apart from instruction.py because a length is said of the draft, not of any one part: the length check
reads ``Instruction.length``, and a segment that only sets one is no part (``only_length``).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from addin_server.draft.instruction_model import Part
from addin_server.draft.instruction_words import NUMBER_WORDS, SENTENCE_COUNT, WORD_COUNT


def length_of(text: str, parts: Sequence[Part]) -> dict[str, Any]:
    """The length the instruction sets: N sentences, under N words, half (0.6), shorter (0.8)."""
    out: dict[str, Any] = {}
    sentences = SENTENCE_COUNT.search(text)
    if sentences:
        said = next(g for g in sentences.groups() if g).lower()
        n = 1 if said == "a single" else NUMBER_WORDS.get(said) or (int(said) if said.isdigit() else None)
        if n:
            out["sentences"] = n
    words = WORD_COUNT.search(text)
    if words:
        out["words"] = int(next(g for g in words.groups() if g))
    if any(p.kind == "shorten" for p in parts) and not out:
        if re.search(r"\bhalf\b|\bhalve\b", text, re.I):
            out["ratio"] = 0.6
        elif re.search(r"\bthirds?\b", text, re.I):
            out["ratio"] = 0.75  # "cut it by a third", "two-thirds the length": a lawyer's third, not a count
        elif re.search(r"\b(?:shorter|shorten|trim|cut|wordy|concise|briefer|fewer\s+words|redundan\w*|condense\w*)\b",
                       text, re.I):
            out["ratio"] = 0.8
        else:
            # "Tighten this up", "pare it back", "say it once": less, by no measure the lawyer gave.
            out["ratio"] = 0.95
    return out


def only_length(segment: str) -> bool:
    """A segment that says only how long the draft may be ("keep it under 40 words", "in two sentences")."""
    said = WORD_COUNT.search(segment) or SENTENCE_COUNT.search(segment)
    if not said:
        return False
    rest = (segment[:said.start()] + segment[said.end():]).strip(" ,.;:-")
    return not re.search(r"\d", rest) and len(rest.split()) <= 4


def length_said(text: str) -> tuple[str, ...]:
    """The words of an instruction that set a length ("under 40 words", "in no more than 3 sentences"): a
    count of words or sentences, never an old or new figure of the clause, so no figure a part reads."""
    return tuple(m.group(0) for rx in (WORD_COUNT, SENTENCE_COUNT) for m in rx.finditer(text))
