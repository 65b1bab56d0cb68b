"""The message cut into segments: its text made plain (list items, lines, abbreviated units, figures taken
back, sums said by scale alone), then split at semicolons, sentences and the commas and "and"s that start a
new ask. instruction.py reads each segment in turn.

Apart from instruction.py because where a segment ends is read before, and apart from, what each one asks.
"""

from __future__ import annotations

import re

from index_builder.reading import figures as F

from addin_server.draft import instruction_lines as lines  # lines and quotations cut before reading (session 13)
from addin_server.draft import instruction_limbs as limbs  # a structured message's asks, limb by limb (session 11)
from addin_server.draft.instruction_values import in_clause_units
from addin_server.draft.instruction_words import ASK


def message_text(instruction: str, clause: str) -> str:
    """The instruction as one line of text ready to cut, read against the clause's units and currency."""
    # A list's items, one a line ("- media returns: 180 days", "(b) a passive-holding carve-out"), and a structured
    # message's limbs (fields, points, a chosen option: instruction_limbs.py) are parts of their own.
    listed = re.sub(r"\n\s*(?:[-•*–]|\(?[a-z0-9]{1,3}[.)])\s+", "; ", limbs.split(instruction), flags=re.I)
    listed = lines.cut_at_lines(listed)  # a heading, a field, a quoted paragraph: a line ends a segment
    text = _ABBREVIATED.sub(lambda m: _UNIT_WORDS[m.group(1).lower()], " ".join(listed.split()))
    # "a full month rather than 15 days": one unit, said as lawyers say it (the figures reader reads numbers).
    text = re.sub(r"\ban?\s+(?:full|whole|clear)\s+(day|week|month|year)\b", r"one \1", text, flags=re.I)
    text = _corrected(text)
    return in_clause_units(_in_clause_currency(text, clause), clause)  # "both eighteens": the clause's unit


# Sentences end at a stop, never after an abbreviation ("cf. the Buyer carve-back in [1]"), and the
# next may open with a figure or a list label ("We act for Miltenyi. 90 days is nothing ...", "... (1)
# LKPL gets 15 days"); a dash
# before a statement ("bring it down to 30 - we can't sit in limbo for two months") ends an ask too.
_SPLIT = re.compile(rf"\s*;\s*|(?<!\bcf\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bviz\.)(?<!\bArt\.)(?<!\bs\.)(?<!\bcl\.)(?<!\bNo\.)(?<=[.?!])\s+(?=[A-Z\"“\[]|\d|\(\w{{1,3}}\)\s)|(?<=[.?!][\"”])\s+(?=[A-Z\"“\[]|\d)|"
                    rf"\s+[-–—]+\s+(?=(?:we|i|they|he|she|it|this|that)\b(?:\s*\([^)]*\))?\s+\w+)|\s+[-–—]+\s+(?=(?:can|could|would|please)\s)|,?\s+(?:and|but|then|plus)\s+(?=(?:also\s+)?(?:{ASK})\b)|"
                    rf",\s+(?=(?:{ASK})\b)|,\s+(?:and|but|plus)\s+|\s+[-–—]+\s+(?:and|but|plus|also)\s+", re.I)


# Units as lawyers abbreviate them in a quick instruction ("5 yrs", "18 mos"): read as the words
# (the figures reader reads contract prose, where they are spelt out).
_UNIT_WORDS = {"yr": "year", "yrs": "years", "mo": "month", "mos": "months", "mth": "month", "mths": "months",
               "wk": "week", "wks": "weeks", "hr": "hour", "hrs": "hours", "bus. days": "business days"}
_ABBREVIATED = re.compile(r"(?<=\d )(yrs?|mos?|mths?|wks?|hrs?)\b\.?", re.I)


_LABEL = re.compile(r"^(?:\(?[a-z0-9]{1,3}\)|[a-z0-9]{1,2}\.)\s+", re.I)


# A figure the lawyer takes back as they say it: "three years, no sorry, five", "60 days - I mean 90 days",
# "ten, scratch that, twelve months". The figure after the cue is the one meant; the one before is no ask.
NUMBER = (r"(?:\d+(?:,\d{3})*(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
           r"eighteen|twenty|thirty|forty|forty-five|fifty|sixty|ninety|hundred)")
_UNIT = r"(?:\s+(?:business\s+|calendar\s+)?(?:days?|weeks?|months?|years?|hours?)|%|\s+per\s*cent)"
_TAKEN_BACK = re.compile(rf"\b(?P<old>{NUMBER})(?P<unit>{_UNIT})?(?:['’]s?)?\s*[,;–—-]*\s*(?:no[,.]?\s+)?"
                         r"(?:sorry|i\s+mean|scratch\s+that|correction|or\s+rather|make\s+that)[,.;:–—-]*\s+"
                         rf"(?P<new>{NUMBER})(?P<unit2>{_UNIT})?\b", re.I)


# A sum said with its scale but no currency ("caps out at twenty-five million, not forty", "CGL at two million").
_SCALED = re.compile(rf"(?<![$£€\w])((?:{NUMBER})(?:[\s-]+(?:and\s+a\s+half|point\s+\w+|{NUMBER}))*\s+(?:million|thousand|billion))\b"
                     r"(?!\s+(?:dollars?|euros?|usd|eur|gbp|pounds?|in\b))", re.I)
_CURRENCY_WORD = {"USD": "dollars", "EUR": "euros"}


def _in_clause_currency(text: str, clause: str) -> str:
    """A sum the lawyer gives by its scale alone, read in the currency of the clause's own amounts where the
    clause has one currency: a lawyer writing "two million" beside a clause in dollars means dollars."""
    currencies = {f.currency for f in F.amounts(clause)}
    if len(currencies) != 1 or next(iter(currencies)) not in _CURRENCY_WORD:
        return text
    word = _CURRENCY_WORD[next(iter(currencies))]
    return _SCALED.sub(lambda m: f"{m.group(1)} {word}", text)


def _corrected(text: str) -> str:
    """The instruction with each figure the lawyer took back replaced by the one they settled on, in the
    first one's unit where the second has none ("three years, no sorry, five" -> "five years")."""
    return _TAKEN_BACK.sub(lambda m: m.group("new") + (m.group("unit2") or m.group("unit") or ""), text)


def segments_of(text: str) -> list[str]:
    # A list's labels ("(b) a passive-holding carve-out") are no words of the ask.
    pieces = [_LABEL.sub("", p.strip(" ,.")) for p in _SPLIT.split(text)]
    return [p for p in pieces if p]


def item_leads(instruction: str) -> set[str]:
    """The first segment of each item of a list, one a line, where the item has more than one segment."""
    items = re.split(r"\n\s*(?:[-•*–]|\(?[a-z0-9]{1,3}[.)])\s+", instruction, flags=re.I)[1:]
    firsts = [segments_of(" ".join(item.split())) for item in items]
    return {f[0] for f in firsts if len(f) > 1}


def labelled(text: str) -> set[str]:
    """The segments that were items of a labelled list ("(i) English law; (ii) ..."): each an ask."""
    return {_LABEL.sub("", p.strip(" ,.")) for p in _SPLIT.split(text) if _LABEL.match(p.strip(" ,."))}
