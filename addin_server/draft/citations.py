"""Verifying a redraft's [n] citations and placing one Word comment per cited sentence.

A marker that names no given precedent is removed and reported, never shown. A sentence
that quotes a precedent (four words or more in double quotes) must find that quotation
in a clause it cites, or its markers are removed too. Bracketed numbers that the lawyer's
text or a precedent already contains (fill-ins like "[30] days") are drafting, not markers.
Offsets are Python string indices (Unicode code points) into the returned redraft.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from index_builder.model import Clause

_GROUP = re.compile(r"\[\s*(\d{1,3}(?:\s*[,;]\s*\d{1,3})*)\s*\]")
_QUOTE = re.compile(r"[\"“]([^\"“”]{3,}?)[\"”]")
_WORD = re.compile(r"[a-z0-9]+")
# Abbreviations whose full stop does not end a sentence in contract prose.
_ABBREVIATIONS = {"e.g", "i.e", "inc", "ltd", "co", "corp", "no", "nos", "sec", "secs", "art",
                  "para", "cl", "u.s", "u.k", "vs", "v", "etc", "mr", "ms", "dr", "st", "llc"}
_QUOTE_MIN_WORDS = 4
_COMMENT_QUOTE_CHARS = 200


@dataclass
class Comment:
    marker: str
    clause_id: str
    start: int
    end: int
    sentence: str
    text: str


@dataclass
class VerifiedRedraft:
    text: str
    cited: list[int]  # precedent numbers cited at least once, ascending
    comments: list[Comment]
    removed_markers: list[str] = field(default_factory=list)
    problems: list[dict[str, str]] = field(default_factory=list)


@dataclass
class _Marker:
    numbers: list[int]
    raw: str


def verify(answer: str, precedents: Sequence[Clause], source_text: str) -> VerifiedRedraft:
    """Check the model's answer against the k precedents it was given (numbered from 1)."""
    k = len(precedents)
    # Bracketed numbers already in the lawyer's text are fill-ins whatever their value; in a
    # precedent only out-of-range ones are, since a precedent may carry a stray "[1]".
    own = {m.group(0) for m in _GROUP.finditer(source_text)}
    borrowed = {m.group(0) for c in precedents for m in _GROUP.finditer(c.text)}
    pieces, removed = _tokenise(_clean(answer), k, own, borrowed)
    problems: list[dict[str, str]] = [{"marker": r, "reason": "names no precedent that was given"}
                                      for r in removed]
    text, placed = _render(pieces)
    for start, end in _sentences(text):
        here = [m for m, pos in placed if start <= pos < end]
        for quote in _long_quotes(text[start:end]):
            cited = {n for m in here for n in m.numbers}
            if cited and not any(_contains(precedents[n - 1].text, quote) for n in cited):
                for m in here:
                    removed += [f"[{n}]" for n in m.numbers]
                    problems += [{"marker": f"[{n}]", "reason": "quoted text is not in this precedent"}
                                 for n in m.numbers]
                    m.numbers = []
    text, placed = _render(pieces)
    comments = _comments(text, placed, precedents)
    cited = sorted({n for m, _ in placed for n in m.numbers})
    return VerifiedRedraft(text, cited, comments, removed, problems)


def _clean(answer: str) -> str:
    """Strip code fences, echoed tags and a leading label that small models add."""
    text = answer.strip()
    text = re.sub(r"^```[a-z]*\n?|\n?```$", "", text).strip()
    # Small models echo the prompt's delimiters around their answer.
    text = re.sub(r"</?\s*(?:selected_text|precedent|instructions)\b[^>]*>", "", text).strip()
    return re.sub(r"^(?:redrafted clause|redraft|revised clause)\s*:\s*", "", text,
                  flags=re.IGNORECASE).strip()


def _tokenise(text: str, k: int, own: set[str],
              borrowed: set[str]) -> tuple[list[str | _Marker], list[str]]:
    pieces: list[str | _Marker] = []
    removed: list[str] = []
    last = 0
    for match in _GROUP.finditer(text):
        numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
        out_of_range = any(not 1 <= n <= k for n in numbers)
        if match.group(0) in own or (out_of_range and match.group(0) in borrowed):
            continue  # a fill-in such as "[3] business days": drafting, not a citation
        pieces.append(text[last:match.start()])
        valid = [n for n in dict.fromkeys(numbers) if 1 <= n <= k]
        removed += [f"[{n}]" for n in numbers if not 1 <= n <= k]
        pieces.append(_Marker(valid, match.group(0)))
        last = match.end()
    pieces.append(text[last:])
    return pieces, removed


def _render(pieces: list[str | _Marker]) -> tuple[str, list[tuple[_Marker, int]]]:
    """Text with each marker written as [a][b] (or dropped), and where each marker starts."""
    out = ""
    placed: list[tuple[_Marker, int]] = []
    for piece in pieces:
        if isinstance(piece, str):
            if out.endswith(" ") and piece[:1] in (" ", ".", ",", ";", ":", ")"):
                out = out.rstrip(" ")  # close the gap a dropped marker left
            out += piece
        elif piece.numbers:
            placed.append((piece, len(out)))
            out += "".join(f"[{n}]" for n in piece.numbers)
    return out, placed


def _sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) spans of sentences; trailing citation markers stay with their sentence."""
    spans: list[tuple[int, int]] = []
    start = 0
    boundary = re.compile(r"[.!?][\"”')\]]*(?:\s*(?:\[\d+\])+)?(?=\s|$)|\n\s*")
    for match in boundary.finditer(text):
        if match.group(0)[0] == "." and _is_abbreviation(text, match.start()):
            continue
        end = match.end() if match.group(0).strip() else match.start()
        spans.append((start, end))
        start = match.end()
    spans.append((start, len(text)))
    return [(a, b) for a, b in (_trim(text, s, e) for s, e in spans) if b > a]


def _is_abbreviation(text: str, dot: int) -> bool:
    word = re.search(r"([A-Za-z.]+|\d+)$", text[:dot])
    if not word:
        return False
    # Only known abbreviations: "as set out in Section 12." and "Exhibit A." end sentences.
    return word.group(1).lower() in _ABBREVIATIONS


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _long_quotes(sentence: str) -> list[str]:
    return [q for q in _QUOTE.findall(sentence) if len(_WORD.findall(q.lower())) >= _QUOTE_MIN_WORDS]


def _contains(clause_text: str, quote: str) -> bool:
    """Whole words only: "all not exceed the fee" must not match "shall not exceed the fees"."""
    needle = " ".join(_WORD.findall(quote.lower()))
    return f" {needle} " in f" {' '.join(_WORD.findall(clause_text.lower()))} "


def _comments(text: str, placed: list[tuple[_Marker, int]],
              precedents: Sequence[Clause]) -> list[Comment]:
    comments: list[Comment] = []
    for start, end in _sentences(text):
        sentence = text[start:end]
        numbers = dict.fromkeys(n for m, pos in placed if start <= pos < end for n in m.numbers)
        for n in numbers:
            clause = precedents[n - 1]
            quote = _best_quote(sentence, clause.text)
            comments.append(Comment(f"[{n}]", clause.clause_id, start, end, sentence,
                                    f"Precedent [{n}]: {clause.citation()}\n“{quote}”"))
    return comments


def _best_quote(sentence: str, clause_text: str) -> str:
    """The clause sentence that shares most words with the redraft sentence, shortened."""
    quoted = [q for q in _long_quotes(sentence) if _contains(clause_text, q)]
    if quoted:
        return _shorten(quoted[0])
    words = set(_WORD.findall(sentence.lower()))
    parts = [clause_text[a:b] for a, b in _sentences(clause_text)] or [clause_text]
    best = max(parts, key=lambda p: len(words & set(_WORD.findall(p.lower()))))
    return _shorten(" ".join(best.split()))


def _shorten(text: str) -> str:
    if len(text) <= _COMMENT_QUOTE_CHARS:
        return text
    cut = text[:_COMMENT_QUOTE_CHARS].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"
