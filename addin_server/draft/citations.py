"""Verifying a redraft's citations and placing one Word comment per cited sentence.

The answer is normalised (NFKC, odd brackets and spaces) and every marker form a model
writes is parsed (see markers.py). A marker that names no given precedent, or names one
in a form no one can check, is removed and reported, never shown. A quotation (four words
or more, in any quotation marks) must be in a precedent its sentence cites or in the
lawyer's own text; if not, the sentence's markers are removed and the quotation marks
too, so nothing reads as a quotation that is not one. Each surviving (sentence, precedent)
pair gets a support score (support.py); weak ones are flagged. A sentence left with no
citation that is not the lawyer's own wording is listed as uncited. Offsets are Python
string indices (Unicode code points) into the returned redraft.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Sequence

from index_builder.model import Clause

from addin_server.draft.instruction import read_instruction
from addin_server.draft.markers import Found, Marker, fill_in_shapes, find_markers, normalise
from addin_server.draft.parts_carve_out import reads_as_phrase
from addin_server.draft.quotes import Quotation, contains, find_quotations
from index_builder.reading.sentences import sentence_spans
from addin_server.draft.support import THRESHOLD, Support, is_own_wording, score_support
from addin_server.draft.support_words import stems

FLAG = "check: the precedent may not say this"
_COMMENT_QUOTE_CHARS = 200
_CANONICAL = re.compile(r"\[\d+\]")


@dataclass
class Comment:
    marker: str
    clause_id: str
    start: int
    end: int
    sentence: str
    text: str
    n: int = 0
    support: Support | None = None

    @property
    def flag(self) -> str | None:
        return FLAG if self.support is not None and not self.support.supported else None


@dataclass
class VerifiedRedraft:
    text: str
    cited: list[int]  # precedent numbers cited at least once, ascending
    comments: list[Comment]
    removed_markers: list[str] = field(default_factory=list)
    problems: list[dict[str, str]] = field(default_factory=list)
    uncited: list[tuple[int, int]] = field(default_factory=list)  # sentence spans, no source

    @property
    def flagged(self) -> list[Comment]:
        return [c for c in self.comments if c.flag]


@dataclass
class _QuoteMark:
    char: str
    keep: bool = True


_Piece = str | Marker | _QuoteMark


def verify(answer: str, precedents: Sequence[Clause], source_text: str, asked: str = "") -> VerifiedRedraft:
    """Check the model's answer against the k precedents it was given (numbered from 1). ``asked``: the
    lawyer's instruction, whose new words a cited sentence claims from its precedent."""
    k = len(precedents)
    text = normalise(_clean(answer))
    own_text = normalise(source_text)
    borrowed = set().union(*(fill_in_shapes(c.text) for c in precedents)) if precedents else set()
    found = find_markers(text, k, fill_in_shapes(source_text), borrowed)
    removed = [r for f in found for r in f.marker.removed]
    # Quotations are looked for once unverifiable markers are gone: "‘...’Precedent 9" only
    # reads as a quotation after "Precedent 9" is removed.
    text, placed = _render(_cut(text, found, []))
    found = [Found(pos, pos + len(m.display()), m) for m, pos in placed if isinstance(m, Marker)]
    pieces = _cut(text, found, find_quotations(text))
    problems = [{"marker": r, "reason": "names no precedent that was given"} for r in removed]
    quote_removed, quote_problems = _check_quotations(pieces, precedents, own_text)
    text, placed = _render(pieces)
    comments, uncited = _comments(text, placed, precedents, own_text, _added_subject(asked, source_text))
    cited_numbers = sorted({n for m, _ in placed if isinstance(m, Marker) for n in m.numbers})
    return VerifiedRedraft(text, cited_numbers, comments, removed + quote_removed,
                           problems + quote_problems, uncited)


def _check_quotations(pieces: list[_Piece], precedents: Sequence[Clause],
                      own_text: str) -> tuple[list[str], list[dict[str, str]]]:
    """Unmark quotations no cited precedent (nor the lawyer) has; uncite their sentences."""
    removed: list[str] = []
    problems: list[dict[str, str]] = []
    rendered, placed = _render(pieces)
    spans = sentence_spans(rendered)
    for opening, closing in _pairs(placed):
        first, last = _pos(placed, opening), _pos(placed, closing)
        # The sentence(s) the quotation sits in: a quotation may run over a full stop.
        around = [(a, b) for a, b in spans if a <= last and first < b] or [(first, last + 1)]
        lo, hi = around[0][0], around[-1][1]
        here = [m for m, pos in placed if isinstance(m, Marker) and lo <= pos < hi]
        cited = {n for m in here for n in m.numbers}
        inner = _CANONICAL.sub("", rendered[first + 1:last])
        if any(contains(precedents[n - 1].text, inner) for n in cited) or contains(own_text, inner):
            continue
        for m in here:
            removed += [f"[{n}]" for n in m.numbers]
            problems += [{"marker": f"[{n}]", "reason": "quoted text is not in this precedent"}
                         for n in m.numbers]
            m.numbers = []
        opening.keep = closing.keep = False
        problems.append({"marker": "", "quote": " ".join(inner.split()),
                         "reason": "these words are not in the precedents it cites, so they "
                                   "are no longer shown as a quotation"})
    return removed, problems


def _clean(answer: str) -> str:
    """Strip code fences, echoed tags and a leading label that small models add."""
    text = answer.strip()
    text = re.sub(r"^```[a-z]*\n?|\n?```$", "", text).strip()
    # Small models echo the prompt's delimiters around their answer.
    text = re.sub(r"</?\s*(?:selected_text|precedent|instructions)\b[^>]*>", "", text).strip()
    text = re.sub(r"^(?:redrafted clause|redraft|revised clause)\s*:\s*", "", text,
                  flags=re.IGNORECASE).strip()
    # A marker a model put on a line of its own ("... misconduct.\n\n\n[1]") belongs to the sentence
    # before it; left there it would add empty paragraphs to the lawyer's clause in Word.
    return _MARKER_LINE.sub(lambda m: " " + m.group(1).strip(), text)


_MARKER_LINE = re.compile(r"[ \t]*\n\s*((?:\[\s*\d{1,3}(?:\s*[,\u2013-]\s*\d{1,3})*\s*\][ \t]*)+)(?=\n|$)")


def _cut(text: str, found: list[Found], quotes: list[Quotation]) -> list[_Piece]:
    """The text as strings, markers and quotation marks, in order."""
    cuts: list[tuple[int, int, Marker | _QuoteMark]] = [(f.start, f.end, f.marker) for f in found]
    spans = [(f.start, f.end) for f in found]
    for quote in quotes:
        marks = [(quote.open, quote.open + 1), (quote.close, quote.close + 1)]
        if any(a < e and s < b for a, b in marks for s, e in spans):
            continue
        for a, b in marks:
            cuts.append((a, b, _QuoteMark(text[a])))
    pieces: list[_Piece] = []
    last = 0
    for start, end, item in sorted(cuts, key=lambda c: c[0]):
        pieces += [text[last:start], item]
        last = end
    pieces.append(text[last:])
    return pieces


def _render(pieces: list[_Piece]) -> tuple[str, list[tuple[Marker | _QuoteMark, int]]]:
    """The text with markers as [a][b] (or dropped), and where each marker and mark starts."""
    out = ""
    placed: list[tuple[Marker | _QuoteMark, int]] = []
    capitalise = False  # a dropped "As in Precedent 7," opened the sentence
    for piece in pieces:
        if isinstance(piece, str):
            if (out.endswith(" ") or not out) and piece[:1] in (" ", ".", ",", ";", ":", ")"):
                out = out.rstrip(" ")  # close the gap a dropped marker left
                piece = piece.lstrip(" ") if not out else piece
            if capitalise and piece.strip():
                at = len(piece) - len(piece.lstrip())
                piece = piece[:at] + piece[at].upper() + piece[at + 1:]
            capitalise = capitalise and not piece.strip()
            out += piece
        elif isinstance(piece, _QuoteMark):
            placed.append((piece, len(out)))
            out += piece.char if piece.keep else ""
        elif shown := piece.display():
            placed.append((piece, len(out)))
            out += shown
        elif piece.kind == "prose":
            capitalise = not out.strip() or out.endswith("\n") or out.rstrip().endswith((".", "!", "?"))
    return out, placed


def _pairs(placed: list) -> list[tuple[_QuoteMark, _QuoteMark]]:
    marks = [m for m, _ in placed if isinstance(m, _QuoteMark)]
    return list(zip(marks[0::2], marks[1::2]))


def _pos(placed: list, item: object) -> int:
    return next(pos for m, pos in placed if m is item)


def _added_subject(asked: str, source_text: str) -> str:
    """What the ask adds to the clause for a precedent to back: a carve-out's subject ("fraud"). Only that:
    the rest of an ask explains, and its words need not be any precedent's (measured: the whole ask's new
    words flagged 40 sound drafts' citations on the spent sets, "writing", "year", "Singapore")."""
    if not asked.strip():
        return ""
    clause = source_text.replace(asked, " ")
    # (Only a subject read as words to look for: "Client is in Singapore Singapore law keep the Vienna
    # Convention" is a misread ask, which the carve-out check itself does not judge.)
    subject = " ".join(p.params.get("phrase") or "" for p in read_instruction(asked, clause).parts
                       if p.kind == "carve_out" and reads_as_phrase(p.params.get("phrase") or ""))
    have = set(stems(clause))
    return " ".join(w for w in normalise(subject).split() if not set(stems(w)) & have)


def _comments(text: str, placed: list, precedents: Sequence[Clause],
              own_text: str, asked: str = "") -> tuple[list[Comment], list[tuple[int, int]]]:
    comments: list[Comment] = []
    uncited: list[tuple[int, int]] = []
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        numbers = dict.fromkeys(n for m, pos in placed if isinstance(m, Marker)
                                and start <= pos < end for n in m.numbers)
        # What the sentence claims, without its own citation markers.
        claim = sentence
        for marker, pos in sorted(((m, p) for m, p in placed if isinstance(m, Marker)
                                   and start <= p < end), key=lambda mp: -mp[1]):
            shown = len(marker.display())
            claim = claim[:pos - start] + claim[pos - start + shown:]
        if not numbers:
            if not is_own_wording(claim, own_text):
                uncited.append((start, end))
            continue
        for n in numbers:
            clause = precedents[n - 1]
            support = _quoted_support(claim, clause.text, score_support(claim, clause.text, own_text, asked))
            comments.append(Comment(f"[{n}]", clause.clause_id, start, end, sentence,
                                    comment_text(n, clause, sentence, support), n, support))
    return comments, uncited


def _quoted_support(claim: str, precedent: str, support: Support) -> Support:
    """A sentence that mostly quotes the precedent verbatim is backed by it."""
    quoted = [q.inner for q in find_quotations(claim) if contains(precedent, q.inner)]
    claimed = set(stems(claim))
    from_quotes = claimed & set(stems(" ".join(quoted)))
    if support.supported or not claimed or len(from_quotes) * 2 < len(claimed):
        return support
    return replace(support, score=max(support.score, THRESHOLD), supported=True, reason="")


def comment_text(n: int, clause: Clause, sentence: str, support: Support) -> str:
    quoted = [q.inner for q in find_quotations(sentence) if contains(clause.text, q.inner)]
    passage = quoted[0] if quoted else clause.text[support.start:support.end]
    text = f"Precedent [{n}]: {clause.citation()}\n“{_shorten(' '.join(passage.split()))}”"
    if not support.supported:
        text += f"\nCheck: the precedent may not say this ({support.reason})."
    return text


def _shorten(text: str) -> str:
    if len(text) <= _COMMENT_QUOTE_CHARS:
        return text
    cut = text[:_COMMENT_QUOTE_CHARS].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"
