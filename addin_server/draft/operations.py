"""Drafting operations that need no language model: done on the clause's own words.

Each takes the lawyer's clause and one part of the instruction (instruction.py) and returns an
``OperationResult`` (edits with reasons), or raises ``Declined`` saying why it cannot do it
here (three parties, two periods and no way to tell which, a right whose other mentions may or
may not move), or ``AlreadyDone`` when the clause already says what was asked. Only the words
the part names are touched: the parties' names for mutual and flip, the figure for a period or
an amount, the party names for conform, the sentence a "drop" names. Who a provision binds is
read by the clause-reading core (index_builder/reading/binding.py).
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import binding
from index_builder.reading.binding import Provision
from index_builder.reading.defined_terms import used_terms
from index_builder.reading.parties import NEUTRAL, WEAK, role_by_name, role_of
from index_builder.reading.sentences import part_spans

from addin_server.draft.edits import Declined, OperationResult, apply, edit
from addin_server.draft.instruction import Part
from addin_server.draft.parts_scope import targets
from addin_server.draft.parts_wording import deleted_span, joined_span
from addin_server.draft.operations_base import ROLE_NOUNS, cap, AlreadyDone, compounds, sorted_edits, provision_spans, the_named
from addin_server.draft.quotes import short
from addin_server.draft.operations_figures import change_amount, change_period
from addin_server.draft.operations_mutual import make_mutual


# --- give it to the other party ----------------------------------------------------------------

def flip_party(clause: str, part: Part, parties: Sequence[str] = ()) -> OperationResult:
    holder, other = part.params.get("holder"), part.params.get("other")
    read = binding.read(clause, parties)
    if not holder or not other or holder not in read.parties and other not in read.parties:
        raise Declined("The instruction or the clause does not name both parties, so the right or duty cannot be "
                       "moved between them.")
    if not any(p.bound == other for p in read.provisions) and any(p.bound == holder for p in read.provisions) and \
            all(_holds(p, clause) for p in read.provisions if p.bound == holder):
        raise AlreadyDone(f"The clause already gives this to {the_named(holder)}; nothing was changed.")
    wanted = targets(part, read, clause)
    if not wanted:
        raise Declined(f"No provision of the clause binds {the_named(other)} in a way the operation can read.")
    from addin_server.draft.parts_scope import counter_provisions
    spans = sorted(set(provision_spans(wanted)) | set(provision_spans(counter_provisions(part, read, clause))))
    # What the instruction names as it is ("claims coming from DGT's products") stays as it is.
    kept = [m.span() for name in (holder, other)
            for noun in re.findall(rf"(?<![\w-]){re.escape(name)}['’]s\s+([a-z]+)", part.text)
            for m in re.finditer(rf"(?<![\w-]){re.escape(name)}['’]s\s+{noun}\b(?:[^.;,]{{0,40}}?\bby\s+(?:the\s+)?"
                                 rf"(?:{re.escape(holder)}|{re.escape(other)})\b)?", clause)]
    for a, b in part_spans(clause):
        if any(s <= a < e for s, e in spans):
            continue
        text = clause[a:b]
        if binding.party_mentions(text, holder) and binding.party_mentions(text, other):
            raise Declined(f"Another sentence also names both {the_named(holder)} and {the_named(other)} "
                           f"(“{short(text)}”); whether it changes too is a drafting choice. Say which sentences to "
                           "change, or ask the drafting assistant.")
    def measured(at: int) -> bool:  # "the fees paid or payable to Contractor": the measure, not the role
        return bool(re.search(r"\b(?:paid|payable|incurred|received|owed|charged)\s+(?:\S+\s+){0,3}$", clause[max(0, at - 40):at]))

    for s, e in spans:
        for name in (holder, other):
            for ms, me, possessive in binding.party_mentions(clause, name):
                if any(x <= ms < y for x, y in kept) or measured(ms):
                    continue
                if s <= ms < e and possessive and not ROLE_NOUNS.match(clause[me:me + 50]):
                    thing = " ".join(clause[ms:me + 30].split()[:4])
                    raise Declined(f"The clause also speaks of “{thing}…”; whether that changes hands too is for you "
                                   "to say. Say so, or ask the drafting assistant.")
    edits = []
    for s, e in spans:
        for name, to in ((holder, other), (other, holder)):
            for ms, me, possessive in binding.party_mentions(clause, name):
                if not (s <= ms < e) or any(x <= ms < y for x, y in kept) or measured(ms):
                    continue
                found = clause[ms:me]
                the = found[:4] if found[:4].lower() == "the " and _takes_article(clause, to) else ""
                tail = found[len(found.rstrip("’s'")):] if possessive else ""
                new = (the + to + tail) if the else (_the_as(clause, ms, to) + tail)
                edits.append(edit(clause, ms, me, new, f"{the_named(holder)} and {the_named(other)} change places, as "
                                                      "instructed"))
    notes = [f"“{c}” is left as it is; check whether it should name the other party."
             for s, e in spans for n in (holder, other) for c in compounds(clause[s:e], n)]
    return OperationResult("flip_party", f"Given to {the_named(holder)}", clause, sorted_edits(edits), notes=notes)


# Verbs by which the party named gives something away: "Customer hereby grants eGain a right" is
# the Customer's grant, so the right is eGain's, not the Customer's.
_GIVES = re.compile(r"^[^.;]{0,40}?\b(?:grant|licen[cs]e|assign|transfer|give|provide|pay|deliver|convey|allow|permit|"
                    r"consent|waive|release|authori[sz]e|agree)(?:s|d|ed)?\b", re.I)


def _holds(p: Provision, clause: str) -> bool:
    """Whether the party a provision names holds what it gives: only a right of its own that it does not
    give away ("Company may terminate"), never a duty, a prohibition or a grant to another."""
    return p.kind == "right" and not p.negated and not _GIVES.match(clause[p.subject[1]:p.end])


def _article_uses(clause: str, name: str) -> tuple[int, int]:
    """(uses of the name, uses with "the"): how the clause writes the party ("the Company", "Lucid")."""
    uses = [m.start() for m in re.finditer(rf"(?<![\w-]){re.escape(name)}\b", clause)]
    return len(uses), sum(1 for at in uses if re.search(r"\bthe\s+$", clause[max(0, at - 5):at], re.I))


def _takes_article(clause: str, name: str) -> bool:
    """Whether the clause writes the name with "the" ("the Distributor") or bare ("Lucid", never "the
    Lucid"): the party taking another's place is written as the clause writes it."""
    uses, with_the = _article_uses(clause, name)
    return not uses or with_the > 0


def _the_as(clause: str, at: int, name: str) -> str:
    """A bare mention replaced by a party the clause always writes with "the" ("to Company" -> "to the Company")."""
    uses, with_the = _article_uses(clause, name)
    return cap(clause, at, f"the {name}") if uses and with_the == uses else name


# --- conform, delete --------------------------------------------------------------------------

def conform_terms(clause: str, part: Part, document_terms: Sequence[str] | None,
                  document_parties: Sequence[str] = ()) -> OperationResult:
    """Rename the clause's parties to the ones the lawyer's document uses."""
    renames = dict(part.params.get("renames") or {})
    theirs = list(document_parties) or [t for t in (document_terms or ()) if role_by_name(t) or t in NEUTRAL]
    if not theirs and not renames:
        raise Declined("Your document's parties were not sent, so the clause cannot be conformed to them.")
    mine = binding.party_names(clause, ())
    missing = [p for p in mine if p not in theirs and p not in renames.values()]
    mapping = {old: new for old, new in renames.items() if binding.party_mentions(clause, old)}
    available = [t for t in theirs if t not in mine]
    for role in missing:
        if role in mapping:
            continue
        side = _side(role)
        # A neutral name ("Company") takes its side from the party across from it ("Employee"): the core's reading.
        same = [t for t in available if side and _side(t, theirs) == side and t not in mapping.values()]
        neutral = [t for t in available if not _side(t, theirs) and t not in mapping.values()]
        choices = same or (neutral if not side and len(neutral) == 1 else [])
        if len(choices) != 1:
            names = " and ".join(f"“{t}”" for t in available) or "no other party names"
            raise Declined(f"Your document has {names}; it is not clear which one replaces “{role}”. Say which, for "
                           f"example “call the {role} the {available[0] if available else 'Company'}”.")
        mapping[role] = choices[0]
    lacking = [t for t in used_terms(clause, parts=True, singles=True) if document_terms is not None and t not in set(document_terms)
               and t not in mapping]
    if not mapping:
        if lacking:
            raise Declined(f"The clause's parties are already your document's, but it also uses “{lacking[0]}”, which "
                           "your document does not define; fitting that in is for the drafting assistant.")
        raise AlreadyDone("The clause already uses your document's party names; nothing was changed.")
    edits, notes = [], []
    for role, to in mapping.items():
        for s, e, possessive in binding.party_mentions(clause, role):
            found = clause[s:e]
            the = found[:4] if found[:4].lower() == "the " else ""
            tail = found[len(found.rstrip("’s'")):] if possessive else ""
            if the and (to.isupper() or not to[:1].isupper()):
                the = ""
            edits.append(edit(clause, s, e, the + to + tail, f"your document calls the {role} “{to}”"))
        for c in compounds(clause, role):
            notes.append(f"“{c}” has no counterpart named here; check it against your document's defined terms.")
    if lacking:
        notes.append(f"Your document does not define “{lacking[0]}”" + (f" (or {len(lacking) - 1} other term(s))"
                                                                        if len(lacking) > 1 else "")
                     + "; only the party names were conformed.")
    return OperationResult("conform_terms", "Party names conformed to your document", clause, sorted_edits(edits),
                           notes=list(dict.fromkeys(notes)))


def _side(role: str, others: Sequence[str] = ()) -> str:
    """The role's side in the one table (a neutral "Company" read from the parties across from it);
    "" when it has none, and for a weak role word ("Partner")."""
    found = role_of(role, "", list(others)) if role not in WEAK else None
    return f"{found.relation}:{found.side}" if found else ""


def delete_part(clause: str, part: Part) -> OperationResult:
    span = deleted_span(part, clause)
    if span is None:
        raise Declined(f"Which words “{part.params.get('what')}” means could not be found in the clause; select them "
                       "and delete them, or ask the drafting assistant.")
    start, end = span
    sentence = next(((a, b) for a, b in _sentences(clause) if a <= start and end <= b), None)
    if sentence is not None and not any(a == start and b == end for a, b in part_spans(clause)) and \
            (sentence[1] - sentence[0]) > (end - start) + 3:
        # Words inside a sentence ("without the need to post a bond and without limiting ..."): those
        # words go, with the "and" or comma that joined them, and the sentence stays.
        start, end = joined_span(clause, start, end)
        _keeps_predicate(clause, start, end)
        return OperationResult("delete", "Words deleted", clause,
                               [edit(clause, start, end, "", "deleted, as instructed")])
    if sentence is None or (sentence[1] - sentence[0]) > (end - start) + 3:
        raise Declined("The words to drop are part of a longer sentence; dropping them means rewording it, which the "
                       "drafting assistant can do.")
    if _NAMES_WORDS.search(str(part.params.get("what") or "")):
        # "drop the reference to the Advance Delivery Date": words within the sentence, not the sentence.
        raise Declined(f"Your instruction names words (“{part.params.get('what')}”), and the operation would drop the "
                       "whole sentence that holds them; taking out only those words is for the drafting assistant.")
    while end < len(clause) and clause[end] in " \t":
        end += 1
    if start > 0 and clause[start - 1] == " " and end >= len(clause.rstrip()):
        start -= 1
    return OperationResult("delete", "Sentence deleted", clause,
                           [edit(clause, start, end, "", "deleted, as instructed")])


# What names words inside a sentence, not a sentence: "the reference to", "the word 'shall'", "that phrase".
# Words quoted ("lose 'shall'"), and words placed "in the first sentence", are words inside a sentence too.
_NAMES_WORDS = re.compile(r"\b(?:references?|mentions?|words?|wording|phrases?|language|expressions?)\b|"
                          r"['‘\"“][^'’\"”]{1,40}['’\"”]|\b(?:in|from|of)\s+(?:the\s+)?(?:\w+\s+)?sentence\b", re.I)
# A finite verb opening the words deleted: an auxiliary or modal, or a verb in the past or the third person.
_FINITE = re.compile(r"(?:shall|will|must|may|can|should|would|could|is|are|was|were|has|have|had|does|did|agrees?|"
                     r"[a-z]{2,}(?:ed|[^s\W]s))\b")


def _keeps_predicate(clause: str, start: int, end: int) -> None:
    """Declined where the words deleted are what a party's sentence says of it ("Employer [provided the
    provision to Employee in writing on the Advance Delivery Date], at least 14 days before ..."): the
    subject is left with no verb, and the sentence with no statement."""
    first = re.match(r"\s*(?:hereby\s+|also\s+|not\s+)?([a-z]+)", clause[start:end])
    before = clause[:start].rstrip()
    subject = any(before.endswith(n) for n in binding.party_names(clause, ())) or \
        re.search(r"\b(?:it|they|he|she)$", before, re.I)
    if subject and first and _FINITE.fullmatch(first.group(1)):
        raise Declined("The words to drop include what the sentence says its party does; dropping them leaves the "
                       "sentence without its verb, and rewording it is for the drafting assistant.")


def _sentences(text: str) -> list[tuple[int, int]]:
    from index_builder.reading.sentences import sentence_spans
    return sentence_spans(text)


__all__ = ["AlreadyDone", "Declined", "OperationResult", "apply", "change_amount", "change_period", "conform_terms",
           "delete_part", "flip_party", "make_mutual"]
