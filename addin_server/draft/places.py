"""Where in a clause a figure sits, as the words that name its place: those just around it and those of
its own list item ("the cure period", "per occurrence"). Read by the figure checks (done.py, parts_figures.py)
and by the instruction reader (instruction_moves.py: a figure the ask ties to a place is asked for that place),
so it imports nothing that reads an instruction."""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import figures as F
from index_builder.reading.sentences import part_spans, sentence_spans

# Words of an instruction that say nothing about where in the clause a change goes.
PLAIN_WORDS = frozenset("""the and for not but with from that this these those then than into onto upon should would
could must shall will may can make made change changed set sets cut raise lower increase decrease reduce extend
bump need needs want wants same like also both each either party parties side sides other please just only more
less least most max min maximum minimum days day weeks week months month years year hours hour business calendar
per its our their your his her they them what when where which who whom whose have has had does did done are was
were been being give gives given take takes use uses used put keep leave asked ask asks instead rather work works
way ways too well clause sentence provision words wording limb part right rights obligation obligations duty duties
agreement term terms section article""".split())


def place_words(text: str, parties: Sequence[str]) -> set[str]:
    """The words that can say where in a clause something is, as five-letter stems ("settlement"
    and "settled" one, "non-compete" and "noncompete" one, "2012" a word): no party names, no words
    of wanting or changing."""
    names = {w.lower() for p in parties for w in re.findall(r"[A-Za-z]+", p)}
    text = joined(text)
    return {w[:5] for w in re.findall(r"[a-z0-9]{3,}", text) if w not in PLAIN_WORDS and w not in names
            and not (w.isdigit() and len(w) < 4)}


def joined(text: str) -> str:
    """Lower case, a prefix joined to its word ("non-compete" is "noncompete"), other hyphens spaces
    ("change-of-control" is three words)."""
    return re.sub(r"\b(non|co|re|pre|sub|anti)-(?=[a-z])", r"\1", text.lower()).replace("-", " ")


_JOIN = re.compile(r"\s(?:and|or|but|plus)\s|[,;(]")


def _right_end(clause: str, f: F.Figure, figures: Sequence[F.Figure], end: int) -> int:
    """Where the words after a figure stop being its own: the next figure, or the "and" / comma
    before it ("$1m per occurrence and $2m as an annual aggregate")."""
    nxt = min([end, f.end + 40] + [g.start for g in figures if g.start >= f.end])
    if nxt < end and nxt < f.end + 40:
        cut = _JOIN.search(clause, f.end, nxt)
        return cut.start() if cut else nxt
    return nxt


def around(clause: str, f: F.Figure, figures: Sequence[F.Figure]) -> str:
    """The words that say what a figure is: those just before and after it, within its sentence
    and not past a neighbouring figure's own words."""
    a, b = next(((a, b) for a, b in sentence_spans(clause) if a <= f.start < b), (0, len(clause)))
    before = [g for g in figures if g.end <= f.start and g.start >= a]
    left = max([a, f.start - 60] + [_right_end(clause, g, figures, b) for g in before])
    right = _right_end(clause, f, figures, b)
    return clause[min(left, f.start):f.start] + " " + clause[f.end:right]


def named_by_words(part_text: str, clause: str, f: F.Figure, figures: Sequence[F.Figure],
                   parties: Sequence[str]) -> bool:
    """Whether the part's words name this figure's place: words just around it, or in its own list
    item or semicolon part where that is short enough to be about it ("(a) ... fails to cure ...
    following 30 days notice" for "cure period 45 days")."""
    own = next((clause[a:b] for a, b in part_spans(clause) if a <= f.start < b and b - a <= 160), "")
    return bool((place_words(around(clause, f, figures), parties) | place_words(own, parties)) & place_words(part_text, parties))
