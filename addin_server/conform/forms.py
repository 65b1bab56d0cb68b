"""Finding a term's mentions in a text and writing another term in the same form.

A mention keeps its form when rewritten: plural ("Providers" -> "Suppliers"), possessive
("Provider's" -> "Supplier's", "Providers'" -> "Suppliers'"), capitals ("PROVIDER" ->
"SUPPLIER"), and the article before it ("a Provider" -> "an Operator").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_APOSTROPHES = "\u2019'"


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    surface: str
    plural: bool
    possessive: str  # "" | "’s" | "’" (as written, with its apostrophe)
    upper: bool


def _pattern(term: str) -> re.Pattern[str]:
    return re.compile(
        r"(?<![\w\u201c\"\-])(?P<term>" + re.escape(term) + r")(?P<plural>e?s)?"
        r"(?P<pos>[\u2019']s(?!\w)|[\u2019'](?=[\s,.;:)]))?(?![\w\-\u201d\"])",
        re.IGNORECASE)


def mentions(text: str, term: str) -> list[Mention]:
    """Uses of the defined term: its own capitals or all capitals, never a lower-case word."""
    found = []
    for m in _pattern(term).finditer(text):
        written = m.group("term")
        upper = written.isupper() and not term.isupper() and len(term) > 1
        if written != term and not upper:
            continue  # "provider" in lower case is an ordinary word, not the defined term
        plural = bool(m.group("plural")) and not term.endswith("s")
        if m.group("plural") and term.endswith("s"):
            continue  # "Servicess"? not a form
        found.append(Mention(m.start(), m.end(), m.group(0), plural, m.group("pos") or "", upper))
    return found


def pluralise(term: str) -> str:
    words = term.split(" ")
    last = words[-1]
    if re.search(r"[^aeiou]y$", last):
        last = last[:-1] + "ies"
    elif re.search(r"(?:s|x|z|ch|sh)$", last):
        last += "es"
    else:
        last += "s"
    return " ".join(words[:-1] + [last])


def written_as(target: str, mention: Mention) -> str:
    """`target` in the form of `mention`."""
    out = pluralise(target) if mention.plural else target
    if mention.possessive:
        apostrophe = mention.possessive[0]
        out += apostrophe if out.endswith("s") and (mention.plural or mention.possessive == apostrophe) else apostrophe + "s"
    return out.upper() if mention.upper else out


_ARTICLE = re.compile(r"\b(a|an|A|An|AN)\s+$")


def fix_article(before: str, replacement: str) -> str:
    """`before` (the text up to a replaced mention) with a/an agreeing with the replacement."""
    m = _ARTICLE.search(before)
    if not m:
        return before
    vowel = bool(re.match(r"[aeiouAEIOU]", replacement)) and not re.match(r"(?:[Uu]ni|[Uu]s[eu]|[Oo]ne)", replacement)
    word = m.group(1)
    wanted = ("an" if vowel else "a")
    wanted = wanted.upper() if word.isupper() and len(word) > 1 else (wanted.capitalize() if word[0].isupper() else wanted)
    return before[:m.start(1)] + wanted + before[m.end(1):]
