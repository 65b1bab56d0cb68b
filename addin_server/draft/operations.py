"""Drafting operations that need no language model: done on the clause's own words.

Each takes the lawyer's clause and the instruction's parameters and returns an
``OperationResult`` (edits with reasons), or raises ``Declined`` saying why it cannot
(three parties, two periods and no way to tell which, a term with no counterpart), or
``AlreadyDone`` when the clause already says what was asked. Only the words the
instruction names are touched: the parties' names and pronouns for mutual and flip, the
period or amount for a change, the party names for conform.
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading.parties import WEAK, role_by_name
from addin_server.draft import parties as P
from addin_server.draft.edits import Declined, Edit, OperationResult, edit
from addin_server.draft.periods import (
    Period,
    amounts,
    format_amount,
    periods,
    same_unit,
    spell,
)


class AlreadyDone(Declined):
    """The clause already says what was asked: nothing to change."""


# Words after a role that show it is a noun on its own ("referencing Customer without"),
# not an attribute ("any Company personnel").
_FUNCTION = frozenset(
    "without from for to if and or with in on of by as that which who under upon at will may "
    "must shall is are was has have does did can could would should agrees acknowledges "
    "represents warrants undergoes gives provides itself a an the its".split())


def _mentions(text: str, role: str) -> list[re.Match[str]]:
    """Standalone mentions of a role ("Provider", "the Recipient", "Customer’s")."""
    pattern = re.compile(rf"\b(?:[Tt]he )?{re.escape(role)}\b(?P<pos>’s|'s)?")
    return [m for m in pattern.finditer(text) if not P._in_compound(text, m.end() - len(m.group(0))
                                                                     + _the_len(m.group(0)))
            and not _starts_compound(text, m.end())]


def _the_len(found: str) -> int:
    return 4 if found[:4].lower() == "the " else 0


def _starts_compound(text: str, end: int) -> bool:
    """"Customer Covered Claims", "Provider Content": the role opens a longer defined term."""
    return bool(re.match(r" [A-Z][a-z]+", text[end:]))


def _sentence_start(text: str, at: int) -> bool:
    before = text[:at].rstrip()
    return not before or before[-1] in ".!?\n"


def _cap(text: str, at: int, words: str) -> str:
    return words[0].upper() + words[1:] if _sentence_start(text, at) else words


def _compounds(text: str, role: str) -> list[str]:
    return sorted(set(re.findall(rf"\b{re.escape(role)} [A-Z][a-z]+(?: [A-Z][a-z]+)*", text)))


def make_mutual(clause: str) -> OperationResult:
    named = P.parties(clause)
    if len(named) > 2:
        raise Declined(f"The clause names {len(named)} parties ({', '.join(named)}); a mutual "
                       "clause binds two. Say which two, or ask the drafting assistant.")
    if P.is_mutual(clause):
        raise AlreadyDone("The clause already binds both parties alike; nothing was changed.")
    bound = P.main_party(clause)
    if bound is None:
        raise Declined("No party in this clause is bound by “will”, “must”, “may” or “shall”, "
                       "so there is nothing to make mutual.")
    other = P.other_party(clause, bound)
    edits: list[Edit] = []
    taken: set[int] = set()
    for s in P.subjects(clause):
        if s.who != bound:
            continue
        words = "neither party" if s.negated else ("either party" if s.modal == "may" else
                                                   "each party")
        edits.append(edit(clause, s.start, s.end, _cap(clause, s.start, words),
                          f"binds both parties instead of only the {bound}"))
        if s.negated:
            edits.append(edit(clause, s.neg_start, s.neg_end, "", "“neither party” carries the "
                              "negative"))
        taken.add(s.start)
    for m in _mentions(clause, bound):
        if m.start() in taken:
            continue
        new = "its" if m.group("pos") else "it"
        edits.append(edit(clause, m.start(), m.end(), _cap(clause, m.start(), new),
                          f"refers to whichever party is bound, not only the {bound}"))
    if other:
        edits += _other_party_edits(clause, other)
    notes = [f"“{c}” is a defined term of one party; check whether your document has a mutual "
             "equivalent." for role in (bound, other) if role for c in _compounds(clause, role)]
    return OperationResult("make_mutual", "Made mutual", clause, _sorted(edits), notes=notes)


def _other_party_edits(clause: str, other: str) -> list[Edit]:
    edits = []
    for m in _mentions(clause, other):
        after = re.match(r"\s+([a-z]+)", clause[m.end():])
        attributive = not m.group("pos") and after is not None and after.group(1) not in _FUNCTION
        if m.group("pos") or attributive:
            before = clause[:m.start()]
            quantifier = re.search(r"\b(?:any|all|each|some|no)\s+$", before)
            new = ("of " if quantifier else "") + "the other party’s"
        else:
            new = "the other party"
        edits.append(edit(clause, m.start(), m.end(), _cap(clause, m.start(), new),
                          f"the {other} becomes “the other party”, so either party is protected"))
    return edits


def flip_party(clause: str, holder: str, other: str | None) -> OperationResult:
    named = P.parties(clause)
    other = other or next((p for p in named if p != holder), None)
    if not other or holder not in named and other not in named:
        raise Declined(f"The clause does not name the {holder} and the other party, so the "
                       "right or obligation cannot be moved between them.")
    if P.main_party(clause) == holder:
        raise AlreadyDone(f"The clause already gives this to the {holder}; nothing was changed.")
    edits = []
    for role, to in ((holder, other), (other, holder)):
        for m in _mentions(clause, role):
            the = m.group(0)[:_the_len(m.group(0))]
            new = the + to + (m.group("pos") or "")
            edits.append(edit(clause, m.start(), m.end(), new,
                              f"the {holder} and the {other} swap places, as instructed"))
    notes = [f"“{c}” is left as it is; check whether it should name the other party."
             for role in (holder, other) for c in _compounds(clause, role)]
    return OperationResult("flip_party", f"Given to the {holder}", clause, _sorted(edits),
                           notes=notes)


def change_period(clause: str, value: int, unit: str, old: int | None = None) -> OperationResult:
    found = periods(clause)
    if not found:
        raise Declined("The clause states no period (such as “30 days”) to change.")
    target = _which_period(found, unit, old)
    keep_unit = target.unit if same_unit(unit.split()[-1], target.unit.split()[-1]) \
        and unit in {"days", "weeks", "months", "years"} else unit
    if target.value == value and same_unit(keep_unit, target.unit):
        raise AlreadyDone(f"The clause already says {target.text}; nothing was changed.")
    new = spell(value, keep_unit, target)
    reason = f"the period changes from {target.text} to {new}, as instructed"
    notes = [] if target.consistent else [f"“{target.text}” had words and figure that differed."]
    return OperationResult("change_period", f"Period changed to {new}", clause,
                           [edit(clause, target.start, target.end, new, reason)], notes=notes)


def _which_period(found: Sequence[Period], unit: str, old: int | None) -> Period:
    if old is not None:
        named = [p for p in found if p.value == old]
        if len(named) == 1:
            return named[0]
    if len(found) == 1:
        return found[0]
    alike = [p for p in found if same_unit(p.unit, unit)]
    if len(alike) == 1:
        return alike[0]
    listed = ", ".join(p.text for p in found)
    raise Declined(f"The clause has more than one period ({listed}); say which one to change, "
                   "for example “change the 30 days to 15 days”.")


def change_amount(clause: str, value: int) -> OperationResult:
    found = amounts(clause)
    if len(found) != 1:
        raise Declined("The clause states " + ("no amount" if not found else
                       f"{len(found)} amounts") + "; say which amount to change.")
    target = found[0]
    if target.value == value:
        raise AlreadyDone(f"The clause already says {target.text}; nothing was changed.")
    new = format_amount(value, target)
    return OperationResult("change_amount", f"Amount changed to {new}", clause,
                           [edit(clause, target.start, target.end, new,
                                 f"the amount changes from {target.text} to {new}, as instructed")])


def conform_terms(clause: str, document_terms: Sequence[str] | None) -> OperationResult:
    """Rename the clause's parties to the ones the lawyer's document defines."""
    if document_terms is None:
        raise Declined("Your document's defined terms were not sent, so the clause cannot be "
                       "conformed to them.")
    terms = set(document_terms)
    mine = P.parties(clause)
    missing = [p for p in mine if p not in terms]
    if not missing:
        raise AlreadyDone("The clause already uses your document's party names; nothing was "
                          "changed.")
    available = [t for t in sorted(terms) if t in P.ROLES and t not in mine]
    mapping = {}
    for role in missing:
        side = _side(role)
        same = [t for t in available if _side(t) == side and side]
        neutral = [t for t in available if not _side(t)]
        choices = same or (neutral if len(neutral) == 1 or len(missing) == 1 else [])
        choices = [c for c in choices if c not in mapping.values()]
        if len(choices) != 1:
            names = " and ".join(f"“{t}”" for t in available) or "no party names"
            raise Declined(f"Your document has {names}; it is not clear which one replaces "
                           f"“{role}”. Say which, for example “call the {role} the "
                           f"{available[0] if available else 'Company'}”.")
        mapping[role] = choices[0]
    edits, notes = [], []
    for role, to in mapping.items():
        for m in _mentions(clause, role):
            the = m.group(0)[:_the_len(m.group(0))]
            edits.append(edit(clause, m.start(), m.end(), the + to + (m.group("pos") or ""),
                              f"your document calls the {role} the {to}"))
        for c in _compounds(clause, role):
            renamed = to + c[len(role):]
            if renamed in terms:
                for m in re.finditer(re.escape(c), clause):
                    edits.append(edit(clause, m.start(), m.end(), renamed,
                                      f"your document's term for “{c}”"))
            else:
                notes.append(f"“{c}” has no counterpart in your document's defined terms.")
    return OperationResult("conform_terms", "Conformed to your document's terms", clause,
                           _sorted(edits), notes=notes)


def _side(role: str) -> str:
    """The role's side in the one table (index_builder/reading/parties.py); "" for "Company" and
    for a weak role word ("Partner"), which is not sure enough to rename a party by."""
    found = role_by_name(role) if role not in WEAK else None
    return f"{found.relation}:{found.side}" if found else ""


def _sorted(edits: list[Edit]) -> list[Edit]:
    out: list[Edit] = []
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if out and e.start < out[-1].end:
            continue  # a mention already replaced as part of a subject
        out.append(e)
    return out
