"""Structures of a clause that the drafting operations do not model (issue 38, session 10).

An operation renames parties or swaps a figure on the lawyer's own words. Where the clause is built
in a way that renaming cannot follow, the draft needs drafting judgement, so the operation declines
and the drafting assistant (or the "not set up" answer) takes the ask. Each reading here is of how
lawyers build clauses, not of any one clause's words:

- a lead-in ("Licensor may terminate this Agreement:") governs every limb under it, shown or not;
- "this warranty", "such representations": a promise given by one party, named by reference;
- a new figure of another scale ("30 days" for "2 years") is a new deadline, not the old one changed;
- a deletion that takes a sentence's only verb leaves words that say nothing.

gates.py asks these after an operation ran; none of them reads an evaluation label.
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import binding

from addin_server.draft.edits import Edit

# A lead-in: words ending in ":" or a dash, then a list (a limb marker or a gap where limbs were left out).
_LEAD_IN = re.compile(r"[:\u2014\u2013]\s*(?=<omitted>|\[\.\.\.\]|…|\(?(?:[a-z]|[ivx]{1,4}|\d{1,2})\)|"
                      r"(?:[A-Z]|\d{1,2})\.\s)")
_SENTENCE_END = re.compile(r"[.;!?]\s|\n")


def lead_in_edited(original: str, edits: Sequence[Edit], ask: str = "") -> str:
    """The lead-in an edit changes where the list under it is not all before the lawyer ("" otherwise).
    A lead-in is shared by every limb below it: changing who it binds changes limbs the draft does not
    show ("<omitted>") or the ask does not name ("limb (b)"). Where every limb is shown and the ask
    names none, the whole list is what was asked about."""
    for m in _LEAD_IN.finditer(original):
        colon = m.start()
        starts = [x.end() for x in _SENTENCE_END.finditer(original, 0, colon)]
        begin = starts[-1] if starts else 0
        if not any(begin <= e.start < colon for e in edits):
            continue
        if _GAP.search(original, colon) or _NAMES_LIMB.search(ask):
            return " ".join(original[begin:colon + 1].split())
    return ""


# Limbs left out of what the lawyer selected, and an ask that points at one limb.
_GAP = re.compile(r"<omitted>|\[\.\.\.\]|\[…\]|…|\.\.\.")
_NAMES_LIMB = re.compile(r"\b(?:limb|paragraph|sub-?clause|item|ground|prong)s?\s+\(?[a-z0-9]{1,4}\)|"
                         r"(?<![\w(])\((?:[a-z]|[ivx]{1,4}|\d{1,2})\)", re.I)


# A promise named by reference: "this warranty", "such representations", "the foregoing covenants".
# Whose promise it is was said once, by one party; a mutual or moved clause still points at that one.
_PROMISE = re.compile(r"\b(?:this|these|such|said|the\s+foregoing|the\s+above|the\s+preceding)\s+"
                      r"(?:(?:express|limited|above|foregoing)\s+)?(?:warrant(?:y|ies)|representations?|covenants?|"
                      r"undertakings?|guarantee?s?|guaranty|assurances?)\b", re.I)


def promise_by_reference(original: str, edits: Sequence[Edit]) -> str:
    """A promise named by reference in a sentence an edit changes ("" where none)."""
    for m in _PROMISE.finditer(original):
        if any(_same_sentence(original, e.start, m.start()) for e in edits):
            return m.group(0)
    return ""


def _same_sentence(text: str, a: int, b: int) -> bool:
    lo, hi = sorted((a, b))
    return not _SENTENCE_END.search(text, lo, hi)


def slip(original: str, draft: str, names: Sequence[str]) -> str:
    """A slip of grammar an operation's edits brought in ("" where none): a word or an article doubled
    ("the the", "a the"), a name given "the" that the clause always writes bare ("the Lucid"). Any
    operation can slip so; the draft is then not offered, whatever the operation."""
    for pattern in (_DOUBLED, _ARTICLES):
        new = _count(pattern, draft) - _count(pattern, original)
        if new > 0:
            found = next(m.group(0) for m in pattern.finditer(draft))
            return f"“{found}”"
    # A possessive that owns nothing ("keep the other party’s informed", "the Client's."): a noun the
    # edit lost, or an object written as an owner; counted against the clause, which may have its own.
    owning = [m for m in _POSSESSIVE.finditer(draft) if not binding.possessive_has_noun(draft, m.end())]
    if len(owning) > sum(1 for m in _POSSESSIVE.finditer(original) if not binding.possessive_has_noun(original, m.end())):
        m = owning[-1]
        return f"“{draft[max(0, m.start() - 20):m.end() + 12].strip()}” (a possessive that owns nothing)"
    for name in names:
        bare = re.compile(rf"\bthe\s+{re.escape(name)}\b", re.I)
        if original.count(name) and not bare.search(original) and bare.search(draft):
            return f"“{bare.search(draft).group(0)}”"
    return ""


def possessive_made(original: str, edits: Sequence[Edit]) -> str:
    """A possessive an edit wrote where the clause had none ("" where none): "which DCL incurs" made
    "which the other party’s incurs". Renaming a party keeps its grammar: an owner ("DCL’s", "its")
    stays an owner and a subject or object stays one, so an edit may write no more possessives than the
    words it replaced had. Each edit is read with the two characters after it, where a possessive
    ending the edit left alone ("DCL" + "’s") would be."""
    for e in edits:
        # Only a renaming: a few words replaced. A sentence inserted from a precedent (a carve-out)
        # replaces nothing and brings the precedent's own grammar ("Employer's employees").
        if not _is_renaming(original[e.start:e.end]):
            continue
        after = original[e.end:e.end + 2]
        had = _owners(original[e.start:e.end] + after) + _owner_by_position(original, e.start, e.end)
        if _owners(e.new + after) > had:
            shown = (e.new + original[e.end:e.end + 16]).rsplit(" ", 1)[0].strip()
            return f"“{shown}” (an owner where the clause had none)"
    return ""


def _is_renaming(replaced: str) -> bool:
    """The edit replaced a name (a few words of the clause), not nothing and not a passage."""
    return 0 < len(replaced.split()) <= _RENAMING_WORDS


_RENAMING_WORDS = 6  # "the Receiving Party's" .. "the Company and its Affiliates": a name, not a passage


def _owner_by_position(original: str, start: int, end: int) -> int:
    """1 where the replaced name stands as a noun's modifier: after a quantifier or a preposition and
    before the noun it qualifies ("any Company personnel", "on Customer premises"), which owns that noun
    as "the other party’s personnel" does. A name after "which", "that" or a conjunction, before its
    verb ("which DCL incurs"), is the verb's subject and owns nothing."""
    before = re.search(r"\b(?:any|all|each|every|some|no|such|of|for|to|by|with|from|on|in|against|under)\s+$",
                       original[:start], re.I)
    return int(bool(before) and bool(re.match(r"\s+[a-z]", original[end:]))
               and binding.possessive_has_noun(original, end))


def _owners(text: str) -> int:
    return sum(1 for _ in _POSSESSIVE.finditer(text)) + len(_OWNING_PRONOUN.findall(text))


# An owning pronoun: what "X’s" becomes when a party is referred to, not named ("its employees").
_OWNING_PRONOUN = re.compile(r"\b(?:its|their|his)\b", re.I)
_POSSESSIVE = re.compile(r"\b(?!(?:it|that|there|what|who|here|let|he|she)['’]s\b)[\w-]+['’]s\b|\b[\w-]+s['’](?=[\s.,;:)])")
_DOUBLED = re.compile(r"\b([A-Za-z]+)\s+\1\b", re.I)
_ARTICLES = re.compile(r"\b(?:the|a|an)\s+(?:the|a|an)\b", re.I)


def _count(pattern: re.Pattern[str], text: str) -> int:
    return sum(1 for m in pattern.finditer(text) if m.group(0).lower() != "that that")
