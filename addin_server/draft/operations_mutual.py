"""Make mutual: every one-sided obligation and protection the part names made to bind both parties,
possessives included, read again after (operations.py)."""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import binding
from index_builder.reading.binding import MUTUAL, Provision
from index_builder.reading.parties import role_by_name

from addin_server.draft.edits import Declined, Edit, OperationResult, edit
from addin_server.draft.instruction import Part
from addin_server.draft.parts_scope import targets
from addin_server.draft.operations_base import (AlreadyDone, apostrophe_of, cap, compounds, sorted_edits, provision_spans,
                                                the_named)


def make_mutual(clause: str, part: Part, parties: Sequence[str] = ()) -> OperationResult:
    read = binding.read(clause, parties)
    wanted = targets(part, read, clause)
    if not wanted:
        if read.is_mutual():
            raise AlreadyDone("The clause already binds both parties alike; nothing was changed.")
        raise Declined("No party in this clause is bound by “will”, “must”, “may” or “shall” in a way the "
                       "operation can read, so there is nothing it can make mutual.")
    sides = {t.bound for t in wanted} | {o for t in wanted for o in t.others}
    sides.discard(MUTUAL)
    if len(sides) > 2:
        raise Declined(f"The provision names {len(sides)} parties ({', '.join(sorted(sides))}); a mutual clause "
                       "binds two. Say which two, or ask the drafting assistant.")
    if any(t.how == "option" for t in wanted):
        raise Declined("The clause gives a choice to one party (“at its option”); whose choice it becomes in a "
                       "mutual clause is a drafting decision the operation does not make.")
    _refuse_one_sided_words(clause, wanted, part, read, parties)
    apostrophe = apostrophe_of(clause)
    edits: list[Edit] = []
    notes: list[str] = []
    pair = sorted(sides)
    for start, end in provision_spans(wanted):
        here = [t for t in wanted if t.start == start]
        a = here[0].bound
        b = next((p for p in pair if p != a), None) or next(
            (p for p in list(parties) + list(read.parties) if p != a and binding.party_mentions(clause[start:end], p)), None)
        edits += _mutual_span(clause, start, end, here, a, b, apostrophe)
        for name in (a, b):
            if name:
                notes += [f"“{c}” is a defined term of one party; check whether your document has a mutual "
                          "equivalent." for c in compounds(clause[start:end], name)]
    result = OperationResult("make_mutual", "Made mutual", clause, sorted_edits(edits), notes=list(dict.fromkeys(notes)))
    _verify_mutual(result.text, part, wanted, parties)
    return result


_TRIGGER = re.compile(r"\b(?:if|in the event(?: that)?|where|when|whenever|should|upon|unless)\s+(?:the\s+)?$", re.I)
_ONE_SIDED_NOUNS = re.compile(r"\b(?:its|his|her)\s+(?:consultancy|employment|engagement|appointment|directorship|"
                              r"tenancy|franchise)\b", re.I)
_ASSETS = r"(?:House\s+)?(?:Marks|Trademarks|Confidential Information|Information|Materials|Data|Property|Personnel|" \
          r"Employees|Customers|Intellectual Property|Content|Technology|Know-How|Developments|Records)"


def _refuse_one_sided_words(clause: str, wanted: Sequence[Provision], part: Part, read: binding.Binding,
                            parties: Sequence[str] = ()) -> None:
    """Declined where renaming the parties cannot make the clause mutual: it speaks of what only one
    side has ("its consultancy", "Customers", "SpinCo House Marks"), or the lawyer asked for a way of
    binding the other side that the clause does not have ("Employer to instruct its officers")."""
    for start, end in provision_spans(wanted):
        text = clause[start:end]
        odd = _ONE_SIDED_NOUNS.search(text)
        if odd:
            raise Declined(f"The clause speaks of “{odd.group(0)}”, which only one party has; making it mutual needs "
                           "rewording, which the drafting assistant can do.")
        such = next((m for m in re.finditer(r"\bsuch\s+([A-Z][a-z]+?)(?:s)?\b", text)
                     if not re.search(rf"\b{m.group(1)}", text[:m.start()])), None)  # refers outside the clause
        if such:
            raise Declined(f"The clause refers back to “{such.group(0)}”; whose they are for the other party is a drafting "
                           "choice (the drafting assistant can write it, or say whose).")
        # A role of the one table in the plural ("Customers", "Lenders"), or the people one side serves.
        plural = next((m for m in re.finditer(r"\b([A-Z][a-z]+)s\b", text)
                       if role_by_name(m.group(1)) or m.group(0) in ("Members", "Users")), None)
        if plural:
            raise Declined(f"“{plural.group(0)}” are one party's; whose they are for the other party is a drafting "
                           "choice (the drafting assistant can write it, or say whose).")
        for name in dict.fromkeys(list(read.parties) + list(parties)):
            head = name.split()[0]
            asset = re.search(rf"\b{re.escape(head)}(?:\s+[A-Z][a-z]+)?\s+{_ASSETS}\b", text)
            if asset and asset.group(0) != name:
                raise Declined(f"“{asset.group(0)}” protects one party's assets only; the other party's need words of "
                               "their own, which the drafting assistant can write.")
    for name in dict.fromkeys(list(read.parties) + list(parties)):
        # "... no broader than necessary to protect Employer's goodwill": the restriction exists for one party's
        # interest, which the other has no counterpart of in this clause (an employee's customers, its own
        # goodwill); renaming the parties would bar that party from what is its own to do.
        served = re.search(rf"\bprotect\w*\s+(?:the\s+)?{re.escape(name)}['’]s?\s+(?:legitimate\s+)?(?:business\s+)?"
                           r"(?:goodwill|interests?|customers|clients|business|trade\s+secrets|relationships)\b", clause)
        if served:
            raise Declined(f"The clause says it protects “{served.group(0).split(None, 1)[1]}”, one party's interest; "
                           "a mutual clause needs words for what the other party protects, which the drafting "
                           "assistant can write, or it may be one-way by design.")
    mechanism = re.search(r"\(([^()]*\bto\s+(?!the\b)[a-z]+[^()]*)\)", part.text)
    if mechanism:
        raise Declined(f"You asked for a particular way of binding the other party (“{mechanism.group(1)}”); the "
                       "drafting assistant can write it.")


def _mutual_span(clause: str, start: int, end: int, here: list[Provision], a: str, b: str | None,
                 apostrophe: str) -> list[Edit]:
    edits = _mutual_span_edits(clause, start, end, here, a, b, apostrophe)
    # "the Agreement between HEMISPHERX and SCIEN" names a document, not a duty: it stays as it is.
    between = binding.between_spans(clause, [n for n in (a, b) if n])
    return [e for e in edits if not any(x <= e.start < y for x, y in between)]


def _mutual_span_edits(clause: str, start: int, end: int, here: list[Provision], a: str, b: str | None,
                       apostrophe: str) -> list[Edit]:
    first_subject = min(t.subject[0] for t in here)
    if b and any(_TRIGGER.search(clause[max(start, s - 20):s]) for s, _, _ in binding.party_mentions(clause, b)
                 if start <= s < first_subject):
        return _conditional_span(clause, start, end, here, a, b, apostrophe)
    edits: list[Edit] = []
    subjects = {t.subject: t for t in here}
    first_subject = min(t.subject[0] for t in here)
    mentions_a = [m for m in binding.party_mentions(clause, a) if start <= m[0] < end]
    used_a_party = False
    why = f"binds both parties instead of only {the_named(a)}"
    for s, e, possessive in mentions_a:
        t = subjects.get((s, e))
        if t is None and re.match(r"\s+(?:agrees?|covenants?|undertakes?|acknowledges?)\b", clause[e:e + 14], re.I):
            t = here[0]  # "CONSULTANT agrees that ... it will not": the promise is its
            edits.append(edit(clause, s, e, cap(clause, s, "each party"), why))
            continue
        if t is not None:
            edits += _subject_edits(clause, s, e, t, used_a_party, apostrophe, why)
        elif s < first_subject and not possessive and not used_a_party:
            edits.append(edit(clause, s, e, cap(clause, s, "a party"), "either party’s, not only " + the_named(a) + "’s"))
            used_a_party = True
        elif not possessive and binding.attributive(clause, s, e) and not binding.acts(clause, e):
            # (binding.acts, a verb in -s after the name, is read for the bound party only, whose mentions
            # are mostly subjects.)
            # "access the Chase site", "booking Chase products": the name describes a thing (that party's site,
            # its products), no party a pronoun stands for ("access it site"); whose it is in a mutual clause
            # is a drafting choice.
            said = clause[s:e] + re.match(r"\s+[a-z]+", clause[e:]).group(0)
            raise Declined(f"“{said}” uses "
                           "a party's name to describe a thing of its own; whose it is for the other party is a "
                           "drafting choice (the drafting assistant can write it).")
        elif possessive:
            edits.append(edit(clause, s, e, cap(clause, s, "its"), f"refers to whichever party is bound, not only "
                                                                   f"{the_named(a)}"))
        else:
            edits.append(edit(clause, s, e, cap(clause, s, "it"), f"refers to whichever party is bound, not only "
                                                                  f"{the_named(a)}"))
    if b:
        for s, e, possessive in binding.party_mentions(clause, b):
            if not (start <= s < end):
                continue
            attributive = not possessive and binding.attributive(clause, s, e)
            if possessive or attributive:
                quantifier = re.search(r"\b(?:any|all|each|some|no)\s+$", clause[:s])
                new = ("of " if quantifier and attributive else "") + f"the other party{apostrophe}s"
            else:
                new = "the other party"
            edits.append(edit(clause, s, e, cap(clause, s, new), f"{the_named(b)} becomes “the other party”, so either "
                                                                  "party is protected"))
    return edits


def _conditional_span(clause: str, start: int, end: int, here: list[Provision], a: str, b: str,
                      apostrophe: str) -> list[Edit]:
    """"In the event Agent changes ..., Kallo may terminate": the trigger names the other party, so the
    mutual clause reads "In the event either party changes ..., the other party may terminate"."""
    edits: list[Edit] = []
    first_subject = min(t.subject[0] for t in here)
    for s, e, possessive in binding.party_mentions(clause, b):
        if start <= s < end:
            word = f"either party{apostrophe}s" if possessive else "either party"
            edits.append(edit(clause, s, e, cap(clause, s, word if s < first_subject else "it"),
                              "either party, not only " + the_named(b)))
    for s, e, possessive in binding.party_mentions(clause, a):
        if start <= s < end:
            word = f"the other party{apostrophe}s" if possessive else "the other party"
            edits.append(edit(clause, s, e, cap(clause, s, word), f"{the_named(a)} becomes “the other party”"))
    return edits


def _subject_edits(clause: str, s: int, e: int, t: Provision, a_party: bool, apostrophe: str, why: str) -> list[Edit]:
    if t.how == "liability_of":
        return [edit(clause, s, e + (len(clause[e:e + 2]) if clause[e:e + 2] in ("’s", "'s") else 0),
                     cap(clause, s, f"each party{apostrophe}s"), why)]
    if t.how in ("passive",):
        return [edit(clause, s, e, "each party", why)]
    if t.how == "no_liability":
        return [edit(clause, s, e, "either party", why)]
    if a_party:
        return [edit(clause, s, e, cap(clause, s, "that party"), "the party it names, whichever it is")]
    rest = clause[e:e + 60]
    neg = re.match(r"(\s+(?:(?:shall|will|must|may|can|does)(?:\s+have)?|has|have|is|are)\s+(?:not|no)\b)", rest, re.I)
    if t.negated and neg:
        out = [edit(clause, s, e, cap(clause, s, "neither party"), why)]
        word = re.search(r"\s+(not|no)\b", neg.group(1), re.I)
        modal = re.match(r"\s+must\b", rest, re.I)
        if modal:  # "neither party must" is not English: "neither party may"
            out.append(edit(clause, e + modal.start(), e + modal.end(), " may", "“neither party may” says the same"))
        if word:
            at = e + word.start()
            replacement = " any" if word.group(1).lower() == "no" and re.match(
                r"\s+(?:liability|authority|right|obligation|responsibility)", clause[at + len(word.group(0)):],
                re.I) else ""
            out.append(edit(clause, at, at + len(word.group(0)), replacement, "“neither party” carries the negative"))
        return out
    may = re.match(r"\s+(?:may|can|(?:shall\s+)?(?:has|have)\s+the\s+right|is\s+entitled)\b", rest, re.I)
    word = "either party" if t.kind == "right" and may else "each party"
    return [edit(clause, s, e, cap(clause, s, word), why)]


def _verify_mutual(text: str, part: Part, wanted: Sequence[Provision], parties: Sequence[str]) -> None:
    """The operation's own result, read again: every provision it was to change binds both."""
    after = binding.read(text, parties)
    for t in wanted:
        same = [q for q in after.provisions if binding.similar(t, q)]
        if not same or not all(q.mutual and not q.others for q in same if q.start >= t.start - 5):
            raise Declined("The clause is worded in a way the operation cannot make mutual reliably; the drafting "
                           "assistant can, or edit it by hand.")
