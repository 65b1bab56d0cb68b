"""Clause numbers typed at a paragraph's start ("12.2", "(a)", "Section 9", "Article IV"): the
core's one reader of them. ``typed_label`` reads one and says what it tells about depth, so the
index's outline builder (ingest/outline.py) can nest it; ``typed_number`` is where a paragraph's
words begin after it, for the readers of a paragraph Word gives whole (the section map, a
clause's label, a definition's text). ``automatic_label`` describes a number Word generates.

Articles, "Section N" and dotted decimals have a fixed rank (more dots = deeper). Letters,
roman numerals and parenthesised numbers do not: a lawyer may put "(a)" under "1." or
"(i)" under "(a)", so their depth is decided by the order they appear in (see outline.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

# "Section 9" is a label only when a heading or the end follows, not "Section 9 of ..." (nor
# "Section 5." of "Section 5.1 of ...": a full stop before a figure is inside the number).
_LABEL_END = r"(?=\s*[.:\u2013\u2014](?!\d)|\s+-\s|\s+[A-Z\u201c\"(\[]|\s*$)"
_ARTICLE = re.compile(r"^(?:ARTICLE|Article)\s+([IVXLC]+|\d{1,3})" + _LABEL_END + r"\.?")
# "Article 5.1" and "Clause 4" number a section like "Section 5.1".
_SECTION = re.compile(
    r"^(?:SECTION|Section|Sec\.|§§?|CLAUSE|Clause|(?:ARTICLE|Article)(?=\s+\d{1,3}\.\d))\s*(\d{1,3}(?:\.\d{1,3})*)" + _LABEL_END + r"\.?"
)
# On a line of plain text a number is a label with its full stop ("1.", "12.2.") or before a
# word that is no continuation ("12.2 Fees"): a wrapped line may begin with a figure ("30 days
# after ..."). A paragraph given whole is no wrapped line (``whole``): there a number before a
# space is one ("8 INDEMNIFICATION", "6.1.1 the Owner ...").
_DECIMAL = re.compile(r"^(\d{1,3}(?:\.\d{1,3})+)(?:\.(?=\s)|(?=\s+[^a-z\s]))|^(\d{1,3})\.(?=\s)")
_WHOLE_DECIMAL = re.compile(r"^\s*(\d{1,3}(?:\.\d{1,3})*)\.?(?=\s)")
_NUMBER_PAREN = re.compile(r"^(\d{1,2})\)(?=\s)")
_PAREN = re.compile(r"^\(([a-z]{1,4}|[A-Z]{1,4}|\d{1,2})\)(?=\s)")
_DOTTED = re.compile(r"^([a-z]|[A-Z]|[ivx]{2,5}|[IVX]{2,5})[.)](?=\s)")
_BULLET = re.compile(r"^[•·▪◦‣○■□●–\-*+](?=\s)")
_ROMAN = re.compile(r"^(?=[ivxlcdm]+$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_MD_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*$")
# The letter an ambiguous single roman character would follow in an (a), (b) ... list.
_LETTER_BEFORE = {"i": "h", "v": "u", "x": "w", "l": "k", "c": "b", "d": "c", "m": "l"}


@dataclass(frozen=True)
class Label:
    """A section number as the reader sees it, and what it tells about depth."""

    text: str  # as displayed: "12.2", "(a)", "Section 9", "Article IV"
    token: str  # the number alone: "12.2", "a", "iv", "IV", "9"
    kind: str  # "article" | "decimal" | "letter" | "roman" | "number"
    style: str  # the visual family, e.g. "(a)" or "a." or "1."; equal styles are siblings
    rank: int | None  # fixed depth for articles and decimals; None = decided by order
    end: int = field(default=0, compare=False)  # where the typed number ends in its text (its "." too)

    @property
    def standalone(self) -> bool:
        """True when the token is a full section number ("12.2"), not relative ("(a)")."""
        return self.kind == "decimal" and self.rank is not None


def typed_label(text: str, previous_letters: dict[str, str] | None = None, *, whole: bool = False) -> Label | None:
    """The number typed at the start of a paragraph, or None.

    ``previous_letters`` maps a letter style ("(a)", "a.") to the last letter seen in it, so
    "(i)" after "(h)" reads as a letter and otherwise as a roman numeral. ``whole``: the text is
    a paragraph Word gives whole, not a line of plain text that may be wrapped (_WHOLE_DECIMAL).
    """
    if match := _ARTICLE.match(text):
        return Label(match.group(0).rstrip("."), match.group(1), "article", "article", 0, match.end())
    if match := _SECTION.match(text):
        number = match.group(1)
        return Label(match.group(0).rstrip("."), number, "decimal", "1.", number.count(".") + 1, match.end())
    if match := _DECIMAL.match(text):
        number = match.group(1) or match.group(2)
        return Label(match.group(0), number, "decimal", "1.", number.count(".") + 1, match.end())
    if whole and (match := _WHOLE_DECIMAL.match(text)):
        number = match.group(1)
        return Label(match.group(0), number, "decimal", "1.", number.count(".") + 1, match.end())
    if match := _NUMBER_PAREN.match(text):
        return Label(match.group(0), match.group(1), "number", "1)", None, match.end())
    if match := _PAREN.match(text):
        return replace(_letter_label(match.group(0), match.group(1), "({})", previous_letters), end=match.end())
    if match := _DOTTED.match(text):
        return replace(_letter_label(match.group(0), match.group(1), "{}.", previous_letters), end=match.end())
    return None


_NUMBER_WORD = re.compile(r"(?:article|section|clause|sec\.|\u00a7\u00a7?)\s*", re.I)


@dataclass(frozen=True)
class Typed:
    """A number typed at a paragraph's start: where its words begin, and the number as typed."""

    end: int  # offset after the number (not the spaces after it)
    shown: str  # "Section 4.", "(a)", "ARTICLE VII"
    number: str  # without its word: "4.", "(a)", "VII"


def typed_number(text: str) -> Typed | None:
    """The number typed at the start of a paragraph Word gives whole (the lawyer's, or an index
    clause's line), or None: the outline's reading (``typed_label``: "a)", "(iv)", "ARTICLE
    VII", "\u00a7 4", "12.2") of a paragraph given whole ("8 INDEMNIFICATION")."""
    lead = len(text) - len(text.lstrip())
    label = typed_label(text[lead:], whole=True)
    if label is None:
        return None
    end = lead + label.end
    shown = text[lead:end]
    word = _NUMBER_WORD.match(shown)
    if text[end:end + 1] == ":":  # "Section 14: EXCEPT ...": the colon goes with its number
        end += 1
    return Typed(end, shown, shown[word.end():] if word else shown)


def _letter_label(
    shown: str, token: str, frame: str, previous_letters: dict[str, str] | None
) -> Label:
    if token.isdigit():
        return Label(shown, token, "number", frame.format("1"), None)
    lower = token.lower()
    case = "a" if token.islower() else "A"
    letter_style = frame.format(case)
    is_roman = bool(_ROMAN.match(lower)) and (
        len(lower) > 1
        or (previous_letters or {}).get(letter_style) != _LETTER_BEFORE.get(lower)
    )
    if is_roman and lower in _LETTER_BEFORE and len(lower) == 1 and lower not in "ivx":
        is_roman = False  # a lone l, c, d or m is a letter; nobody numbers (l) as 50
    if is_roman:
        return Label(shown, token, "roman", frame.format("i" if case == "a" else "I"), None)
    return Label(shown, token, "letter", letter_style, None)


def automatic_label(shown: str, number_format: str, ilvl: int) -> Label:
    """Describe a label Word generates, using the level's w:numFmt rather than guessing."""
    word, _, number = shown.rpartition(" ")  # "Article IV", "Section 1.2."
    token = number.strip("().:- \t").rstrip(".") or shown
    if word.lower() == "article":
        return Label(shown, token, "article", "article", 0)
    if number_format in ("decimal", "decimalZero", "ordinal") or not number_format:
        if number.startswith("("):
            return Label(shown, token, "number", "(1)", None)
        parts = [part for part in re.split(r"[.\-]", token) if part]
        rank = len(parts) if len(parts) > 1 or ilvl == 0 else None
        # A single number below the first level ("%2.") is ranked by its list level.
        return Label(shown, token, "decimal", "1." if rank else f"1.@{ilvl}", rank)
    framed = "({})" if number.startswith("(") else "{}."
    if number_format in ("lowerRoman", "upperRoman"):
        case = "i" if number_format == "lowerRoman" else "I"
        return Label(shown, token, "roman", framed.format(case), None)
    if number_format in ("lowerLetter", "upperLetter"):
        case = "a" if number_format == "lowerLetter" else "A"
        return Label(shown, token, "letter", framed.format(case), None)
    return Label(shown, token, "number", f"{number_format}@{ilvl}", None)


def is_bullet(text: str) -> bool:
    """A typed bullet ("• ", "- ", "* ") that marks a list item without a number."""
    return bool(_BULLET.match(text))


def markdown_heading(text: str) -> tuple[int, str] | None:
    """(level, title) for a markdown "## Title" line, level 0 for "#"."""
    match = _MD_HEADING.match(text)
    return (len(match.group(1)) - 1, match.group(2)) if match else None


def section_for(label: Label, parent_section: str) -> str:
    """The citable section number: "12.2", "8(a)", "8.1(a)(i)", "Article IV"."""
    if label.kind == "article":
        return f"Article {label.token}"
    if label.kind == "decimal" and (label.standalone or not parent_section):
        return label.token
    if not parent_section:
        return f"({label.token})"
    return f"{parent_section}({label.token})"
