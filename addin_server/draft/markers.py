"""Finding citation markers in a model's answer, in every form models write them.

The answer is normalised first (NFKC, odd brackets, zero-width characters, superscript
numbers), then three shapes are recognised:

- brackets: ``[1]``, ``[ 1 ]``, ``[1, 2]``, ``[1-3]``, ``[1–3]``, ``[1 and 2]``, ``[#1]``,
  ``[^1]``, ``[P1]``, ``[Precedent 2]``, ``[precedent two]``, ``【1】``, ``［１］``;
- parentheses: ``(Precedent 2)``, ``(see precedents 1 and 3)`` always; a bare ``(1)`` only
  when it is unambiguous: it closes a sentence and no other bare ``(n)`` on its line
  makes it an enumeration ("the Supplier shall (1) pay and (2) deliver");
- prose: ``Precedent 2``, ``precedents 1 and 3``, ``precedent one``, ``the second
  precedent`` (but never "conditions precedent").

A shape that names a citation but no usable number ("[Precedent A]", "[citation needed]")
is a marker that cannot be verified, like a number outside 1..k: it is removed and reported.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

_BRACKETS = str.maketrans({
    "【": "[", "】": "]", "〔": "[", "〕": "]", "〖": "[", "〗": "]", "⟦": "[", "⟧": "]",
    "⁅": "[", "⁆": "]", "❲": "[", "❳": "]", "〘": "[", "〙": "]", "⦋": "[", "⦌": "]",
    "⸨": "(", "⸩": ")", "❨": "(", "❩": ")", "⦅": "(", "⦆": ")",
})
_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad\u200e\u200f\u202a-\u202e]")
_ODD_SPACE = re.compile(r"[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\t]+")
_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
# Superscript numbers after a word or a stop are footnote-style markers ("claim¹."), but
# not after a unit ("100 m²"); NFKC would otherwise glue them onto the word as digits.
_SUPERSCRIPT_MARK = re.compile(r"(?<=[^\s\d⁰¹²³⁴⁵⁶⁷⁸⁹])(?<!\bm)(?<!\bcm)(?<!\bkm)(?<!\bft)"
                               r"([⁰¹²³⁴⁵⁶⁷⁸⁹]+(?:[,˒⸴]\s?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)*)")

_WORD_NUMBERS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split())}
_ORDINALS = {w: n for n, w in enumerate(
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth".split())}
_NUMBER = r"(?:\d{1,4}(?:,\d{3})*|%s)" % "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True))
_SEP = r"\s*(?:,|;|&|/|\band\b|\bor\b|\+)\s*(?:and\s+)?"
_RANGE = r"\s*(?:-|‐|‑|‒|–|—|―|−|~|\.\.|\bto\b|\bthrough\b|\bthru\b)\s*"
_LIST = rf"{_NUMBER}(?:{_RANGE}{_NUMBER})?(?:{_SEP}{_NUMBER}(?:{_RANGE}{_NUMBER})?)*"
_LIST_RE = re.compile(rf"^{_LIST}$", re.IGNORECASE)
# What may open a bracket or parenthesis that holds a citation.
_CITE_WORD = r"(?:precedents?|prec\.?|sources?|refs?\.?|references?|citations?|cites?|cf\.?)"
_PREFIX = re.compile(
    rf"^(?:(?:see|cf\.?|per|according\s+to)\s+(?:also\s+)?)?"
    rf"(?:(?P<word>{_CITE_WORD})|(?P<mark>p\.?|pp\.?|#|\^|§|no\.?|nos\.?))?"
    r"\s*(?:no\.?|nos\.?|number|#)?\s*", re.IGNORECASE)
_BRACKET = re.compile(r"\[([^\[\]\n]{1,60})\]")
_PAREN = re.compile(r"\(([^()\n]{1,60})\)")
# A lead-in ("as in Precedent 7,") goes with the reference when it has to be removed.
_LEAD_IN = r"(?P<lead>(?:(?:as|like|per|see|under|following|according\s+to|consistent\s+with)\s+(?:in\s+)?)?)"
_PROSE = re.compile(
    rf"{_LEAD_IN}\b(?P<word>precedents?)\s*(?:no\.?\s*|nos\.?\s*|number\s+|#\s*)?(?P<list>{_LIST})\b"
    rf"(?P<trail>,?)"
    rf"|{_LEAD_IN.replace('lead', 'lead2')}\b(?:the\s+)?(?P<ordinal>{'|'.join(_ORDINALS)})"
    rf"\s+precedent\b(?P<trail2>,?)",
    re.IGNORECASE)
_CONDITIONS = re.compile(r"\bconditions?\s*$", re.IGNORECASE)
_BARE_ENUM = re.compile(r"\(\s*\d{1,3}\s*\)")
_SENTENCE_END = re.compile(r"\s*(?:[.;!?]|$|\n)")
MAX_RANGE = 20  # "[1-999]" is not a list of citations anyone could check


@dataclass
class Marker:
    """One citation as written: its valid numbers, what was removed, and how to show it."""

    raw: str
    kind: str  # "bracket" (shown as [n]) or "prose" (kept in the words it was written in)
    numbers: list[int] = field(default_factory=list)  # valid, in order, no repeats
    removed: list[str] = field(default_factory=list)  # how each unverifiable part is reported

    def display(self) -> str:
        if not self.numbers:
            return ""
        if self.kind == "bracket":
            return "".join(f"[{n}]" for n in self.numbers)
        if len(self.numbers) == len(_numbers_in(self.raw) or []) and not self.removed:
            return self.raw  # "Precedent 2" stays as the model wrote it
        names = [str(n) for n in self.numbers]
        joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return ("precedents " if len(names) > 1 else "precedent ") + joined


@dataclass(frozen=True)
class Found:
    start: int
    end: int
    marker: Marker


def normalise(text: str) -> str:
    """NFKC, with odd brackets, spaces and zero-width characters made plain."""
    text = _ZERO_WIDTH.sub("", text)
    text = _SUPERSCRIPT_MARK.sub(lambda m: "[" + _plain_digits(m.group(1)) + "]", text)
    text = unicodedata.normalize("NFKC", text).translate(_BRACKETS)
    return _ODD_SPACE.sub(" ", text)


def _plain_digits(text: str) -> str:
    return "".join(str(_SUPERSCRIPTS.index(c)) if c in _SUPERSCRIPTS else "," for c in text
                   if not c.isspace())


def find_markers(text: str, k: int, fill_ins: set[str], borrowed: set[str]) -> list[Found]:
    """Every citation marker in normalised text, left to right, checked against 1..k.

    ``fill_ins`` are bracketed numbers the lawyer's text has ("[30] days"): drafting, never
    markers. ``borrowed`` are those a precedent has: drafting when out of range.
    """
    found: list[Found] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, marker: Marker) -> None:
        if not any(a < end and start < b for a, b in taken):
            found.append(Found(start, end, marker))
            taken.append((start, end))

    for match in _BRACKET.finditer(text):
        numbers = _parse_inside(match.group(1), brackets=True)
        raw = _squash(match.group(0))
        if numbers is None or raw in fill_ins:
            continue
        if numbers and any(not 1 <= n <= k for n in numbers) and raw in borrowed:
            continue  # a precedent's own fill-in such as "[90] days"
        add(match.start(), match.end(), _checked(match.group(0), "bracket", numbers, k))
    for match in _PAREN.finditer(text):
        inside = match.group(1)
        numbers = _parse_inside(inside, brackets=False)
        if numbers is None or _squash(match.group(0)) in fill_ins:
            continue
        if not _PREFIX.match(inside.strip()).group("word") and not _unambiguous_bare(text, match):
            continue
        add(match.start(), match.end(), _checked(match.group(0), "bracket", numbers, k))
    for match in _PROSE.finditer(text):
        if _CONDITIONS.search(text[:match.start()]):
            continue  # "conditions precedent 1 to 3": a legal term, not a citation
        if match.group("ordinal"):
            numbers = [_ORDINALS[match.group("ordinal").lower()]]
        else:
            numbers = _expand(match.group("list"))
        marker = _checked(match.group(0), "prose", numbers, k)
        if marker.numbers:  # a valid reference keeps its words; only the words themselves count
            lead = len(match.group("lead") or match.group("lead2") or "")
            trail = len(match.group("trail") or match.group("trail2") or "")
            start, end = match.start() + lead, match.end() - trail
            marker = _checked(text[start:end], "prose", numbers, k)
            add(start, end, marker)
        else:
            add(match.start(), match.end(), marker)
    return _merge_adjacent(sorted(found, key=lambda f: f.start), text)


def _merge_adjacent(found: list[Found], text: str) -> list[Found]:
    """"[1] [2]" and "[2][2]" are one citation of each precedent, not several."""
    merged: list[Found] = []
    for item in found:
        last = merged[-1] if merged else None
        if (last and last.marker.kind == item.marker.kind == "bracket"
                and not text[last.end:item.start].strip()):
            marker = last.marker
            marker.raw = text[last.start:item.end]
            marker.numbers += [n for n in item.marker.numbers if n not in marker.numbers]
            marker.removed += item.marker.removed
            merged[-1] = Found(last.start, item.end, marker)
        else:
            merged.append(item)
    return merged


def _checked(raw: str, kind: str, numbers: list[int] | None, k: int) -> Marker:
    marker = Marker(raw, kind)
    if not numbers:  # citation-shaped, but no number anyone could check
        marker.removed.append(raw)
        return marker
    for n in dict.fromkeys(numbers):
        if 1 <= n <= k:
            marker.numbers.append(n)
        else:
            marker.removed.append(f"[{n}]")
    return marker


def _parse_inside(inside: str, brackets: bool) -> list[int] | None:
    """Numbers cited inside brackets; [] when citation-shaped but unusable; None: no marker."""
    text = inside.strip().rstrip(".,;:").strip()
    prefix = _PREFIX.match(text)
    rest = text[prefix.end():].strip()
    worded = bool(prefix.group("word"))
    spelled = re.search(r"[a-z]", re.sub(r"\b(?:and|or|to|through|thru)\b", "", rest, flags=re.I), re.I)
    if _LIST_RE.match(rest) and (worded or not spelled):
        return _expand(rest)
    if worded and (brackets or re.match(r"(?:see\s+)?precedent", text, re.IGNORECASE)):
        return []  # "[Precedent A]", "[citation needed]", "(precedent)"
    return None


def _expand(listed: str) -> list[int] | None:
    numbers: list[int] = []
    for item in re.split(_SEP, listed.strip(), flags=re.IGNORECASE):
        if not item:
            continue
        ends = [p for p in re.split(_RANGE, item, flags=re.IGNORECASE) if p]
        values = [_value(p) for p in ends]
        if len(values) == 2:
            low, high = values
            if high < low or high - low > MAX_RANGE:
                return []
            numbers.extend(range(low, high + 1))
        else:
            numbers.extend(values)
    return numbers


def _value(token: str) -> int:
    token = token.strip().lower()
    return _WORD_NUMBERS[token] if token in _WORD_NUMBERS else int(token.replace(",", ""))


def _numbers_in(raw: str) -> list[int] | None:
    match = _PROSE.search(raw)
    if match is None or match.group("lead") or match.group("lead2"):
        return None
    if match.group("ordinal"):
        return [_ORDINALS[match.group("ordinal").lower()]]
    return _expand(match.group("list"))


def _unambiguous_bare(text: str, match: re.Match[str]) -> bool:
    """A bare "(2)" is a citation only where it closes a sentence and lists nothing."""
    if not _SENTENCE_END.match(text, match.end()):
        return False
    if match.start() == 0 or not text[match.start() - 1].isspace():
        return False
    line_start = text.rfind("\n", 0, match.start()) + 1
    line_end = text.find("\n", match.end())
    line = text[line_start:len(text) if line_end < 0 else line_end]
    others = [m for m in _BARE_ENUM.finditer(line) if m.start() + line_start != match.start()]
    return not others


def _squash(raw: str) -> str:
    return re.sub(r"\s+", "", raw)


def fill_in_shapes(text: str) -> set[str]:
    """Bracketed and parenthesised numbers a text already has, spacing ignored."""
    text = normalise(text)
    return {_squash(m.group(0)) for pattern in (_BRACKET, _PAREN) for m in pattern.finditer(text)
            if _parse_inside(m.group(1), brackets=True)}
