"""Quotations in any quotation marks, and whether a text really contains them; and ``short``, how
every check, part and operation quotes a piece of text in a reason (cut at a word, "…").

Marks: straight and curly double and single quotes, guillemets both ways, German and
Polish low-high quotes („…“, ‚…‘), CJK corner brackets. A straight or curly single quote
only opens after a space or an opening bracket and only closes before a non-letter, so
the apostrophes of "the Supplier's fees" and "the parties' rights" are not quotation marks.
Matching ignores case, punctuation, quote and dash shapes and whitespace, and treats an
ellipsis (..., …, [...]) as a gap: each quoted part must appear, in order, as whole words.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

QUOTE_MIN_WORDS = 4  # shorter quotations are defined terms ("Confidential Information")

_PAIRS = [
    # A straight double quote opens only after a space, a bracket or a dash (not after a word: that
    # one closes "Documentation") and closes only before a non-letter.
    r'(?:(?<=^)|(?<=[\s(\[{—–-]))"(?P<a>[^"\n]+?)"(?!\w)',
    r"“(?P<b>[^“”\n]+?)[”“]",
    r"„(?P<c>[^„“”\n]+?)[“”]",
    r"«\s?(?P<d>[^«»\n]+?)\s?»",
    r"»(?P<e>[^«»\n]+?)«",
    r"‹(?P<f>[^‹›\n]+?)›",
    r"「(?P<g>[^「」\n]+?)」",
    r"『(?P<h>[^『』\n]+?)』",
    r"‚(?P<i>[^‚‘’\n]+?)[‘’](?!\w)",
    r"(?:(?<=^)|(?<=[\s(\[]))‘(?P<j>\S[^\n]*?)(?<=\S)’(?!\w)",
    r"(?:(?<=^)|(?<=[\s(\[]))'(?P<k>\w[^\n]*?)(?<=\S)'(?!\w)",
]
_QUOTE = re.compile("|".join(_PAIRS), re.MULTILINE)
_ELLIPSIS = re.compile(r"\[\s*(?:\.\s*){3}\]|\(\s*(?:\.\s*){3}\)|(?:\.\s*){3}|…")
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Quotation:
    """A quotation in a text: the mark positions and the words between them."""

    open: int  # index of the opening mark
    close: int  # index of the closing mark
    inner: str

    @property
    def words(self) -> int:
        return len(_WORD.findall(self.inner))


def find_quotations(text: str, min_words: int = QUOTE_MIN_WORDS) -> list[Quotation]:
    """Quotations of ``min_words`` words or more, left to right, never overlapping."""
    found: list[Quotation] = []
    position = 0
    while match := _QUOTE.search(text, position):
        group = next(name for name, value in match.groupdict().items() if value is not None)
        quote = Quotation(match.start(), match.end() - 1, match.group(group))
        if quote.words >= min_words:
            found.append(quote)
            position = match.end()
        else:
            position = match.start() + 1  # a short pair may be the opening of a longer one
    return found


def words(text: str) -> list[str]:
    """Comparable words: NFKC, case-folded, apostrophes and dashes ignored."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"['’‘`´]", "", text)
    return _WORD.findall(text)


def contains(text: str, quote: str) -> bool:
    """Whether ``text`` has the quotation's words in order ("..." may skip words)."""
    haystack = " " + " ".join(words(text)) + " "
    position = 0
    parts = [words(part) for part in _ELLIPSIS.split(quote)]
    parts = [part for part in parts if part]
    if not parts:
        return False
    for part in parts:
        found = haystack.find(" " + " ".join(part) + " ", position)
        if found < 0:
            return False
        position = found + len(" ".join(part)) + 1
    return True


def short(text: str, limit: int = 70) -> str:
    """``text`` on one line, cut at the last whole word within ``limit`` characters, with "…"."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"
