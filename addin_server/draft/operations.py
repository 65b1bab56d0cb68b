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
from index_builder.reading import figures as F
from index_builder.reading.binding import MUTUAL, Provision
from index_builder.reading.defined_terms import used_terms
from index_builder.reading.numbers import SCALES, SMALL, to_words
from index_builder.reading.parties import NEUTRAL, WEAK, role_by_name, role_of
from index_builder.reading.sentences import part_spans

from addin_server.draft.edits import Declined, Edit, OperationResult, apply, edit
from addin_server.draft.instruction import Part
from addin_server.draft.parts import _targeted_old, deleted_span, joined_span, targets


NUMBER_WORDS = "|".join(sorted(list(SMALL) + list(SCALES), key=len, reverse=True))


class AlreadyDone(Declined):
    """The clause already says what was asked: nothing to change."""


# Words after a party name that show it is a noun on its own ("referencing Customer without"),
# not an attribute ("any Company personnel").
_FUNCTION = frozenset(
    "without from for to if and or with in on of by as that which who under upon at will may must shall is are was "
    "has have does did can could would should agrees acknowledges represents warrants undergoes gives provides "
    "itself a an the its hereby".split())
_ROLE_NOUNS = re.compile(r"\s+(?:(?:total|entire|aggregate|sole|prior|written|reasonable|own|cumulative|maximum|overall)\s+)*"
                         r"(?:liability|option|name|names|logo|logos|marks|trademarks|identity|information|personnel|"
                         r"employees|records|books|facilities|premises|"
                         r"election|discretion|consent|approval|obligations?|rights?|benefit|expense|cost|request|"
                         r"ownership|behalf|breach|default|request)\b", re.I)


def _cap(text: str, at: int, words: str) -> str:
    before = text[:at].rstrip()
    start = not before or before[-1] in ".!?\n:;" or re.search(r"(?:^|\n)\s*\(?[a-z0-9]{1,3}[.)]$", before)
    return words[0].upper() + words[1:] if start else words


def _apostrophe(text: str) -> str:
    """The clause's own apostrophe; a curly one where it has none."""
    return "'" if "'" in text and "’" not in text else "’"


def _spans(provisions: Sequence[Provision]) -> list[tuple[int, int]]:
    return sorted({(p.start, p.end) for p in provisions})


def _compounds(text: str, name: str) -> list[str]:
    return sorted(set(re.findall(rf"\b{re.escape(name)} [A-Z][a-z]+(?: [A-Z][a-z]+)*", text)))


# --- make mutual ----------------------------------------------------------------------------

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
    apostrophe = _apostrophe(clause)
    edits: list[Edit] = []
    notes: list[str] = []
    pair = sorted(sides)
    for start, end in _spans(wanted):
        here = [t for t in wanted if t.start == start]
        a = here[0].bound
        b = next((p for p in pair if p != a), None) or next(
            (p for p in list(parties) + list(read.parties) if p != a and binding._mentions(clause[start:end], p)), None)
        edits += _mutual_span(clause, start, end, here, a, b, apostrophe)
        for name in (a, b):
            if name:
                notes += [f"“{c}” is a defined term of one party; check whether your document has a mutual "
                          "equivalent." for c in _compounds(clause[start:end], name)]
    result = OperationResult("make_mutual", "Made mutual", clause, _sorted(edits), notes=list(dict.fromkeys(notes)))
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
    for start, end in _spans(wanted):
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
    if b and any(_TRIGGER.search(clause[max(start, s - 20):s]) for s, _, _ in binding._mentions(clause, b)
                 if start <= s < first_subject):
        return _conditional_span(clause, start, end, here, a, b, apostrophe)
    edits: list[Edit] = []
    subjects = {t.subject: t for t in here}
    first_subject = min(t.subject[0] for t in here)
    mentions_a = [m for m in binding._mentions(clause, a) if start <= m[0] < end]
    used_a_party = False
    why = f"binds both parties instead of only {_the(a)}"
    for s, e, possessive in mentions_a:
        t = subjects.get((s, e))
        if t is None and re.match(r"\s+(?:agrees?|covenants?|undertakes?|acknowledges?)\b", clause[e:e + 14], re.I):
            t = here[0]  # "CONSULTANT agrees that ... it will not": the promise is its
            edits.append(edit(clause, s, e, _cap(clause, s, "each party"), why))
            continue
        if t is not None:
            edits += _subject_edits(clause, s, e, t, used_a_party, apostrophe, why)
        elif s < first_subject and not possessive and not used_a_party:
            edits.append(edit(clause, s, e, _cap(clause, s, "a party"), "either party’s, not only " + _the(a) + "’s"))
            used_a_party = True
        elif possessive:
            edits.append(edit(clause, s, e, _cap(clause, s, "its"), f"refers to whichever party is bound, not only "
                                                                   f"{_the(a)}"))
        else:
            edits.append(edit(clause, s, e, _cap(clause, s, "it"), f"refers to whichever party is bound, not only "
                                                                  f"{_the(a)}"))
    if b:
        for s, e, possessive in binding._mentions(clause, b):
            if not (start <= s < end):
                continue
            after = re.match(r"\s+([a-z]+)", clause[e:])
            attributive = not possessive and after is not None and after.group(1) not in _FUNCTION and \
                not _indirect_object(clause, s, e) and binding.possessive_has_noun(clause, e)
            if possessive or attributive:
                quantifier = re.search(r"\b(?:any|all|each|some|no)\s+$", clause[:s])
                new = ("of " if quantifier and attributive else "") + f"the other party{apostrophe}s"
            else:
                new = "the other party"
            edits.append(edit(clause, s, e, _cap(clause, s, new), f"{_the(b)} becomes “the other party”, so either "
                                                                  "party is protected"))
    return edits


def _indirect_object(clause: str, s: int, e: int) -> bool:
    """"upon giving JHU sixty (60) days written notice", "provides the Discloser reasonable advance
    notice": the party is who receives, not a word describing the noun after it ("Company personnel"),
    so it becomes "the other party", never "the other party's"."""
    return bool(binding.GIVING_TO.search(clause[max(0, s - 30):s])) or bool(F.figures(clause[e:e + 30]) and re.match(
        r"\s+(?:[a-z]+\s+)?(?:\(?\d|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|"
        r"forty|forty-five|sixty|ninety|a hundred)\b", clause[e:e + 30], re.I))


def _conditional_span(clause: str, start: int, end: int, here: list[Provision], a: str, b: str,
                      apostrophe: str) -> list[Edit]:
    """"In the event Agent changes ..., Kallo may terminate": the trigger names the other party, so the
    mutual clause reads "In the event either party changes ..., the other party may terminate"."""
    edits: list[Edit] = []
    first_subject = min(t.subject[0] for t in here)
    for s, e, possessive in binding._mentions(clause, b):
        if start <= s < end:
            word = f"either party{apostrophe}s" if possessive else "either party"
            edits.append(edit(clause, s, e, _cap(clause, s, word if s < first_subject else "it"),
                              "either party, not only " + _the(b)))
    for s, e, possessive in binding._mentions(clause, a):
        if start <= s < end:
            word = f"the other party{apostrophe}s" if possessive else "the other party"
            edits.append(edit(clause, s, e, _cap(clause, s, word), f"{_the(a)} becomes “the other party”"))
    return edits


def _subject_edits(clause: str, s: int, e: int, t: Provision, a_party: bool, apostrophe: str, why: str) -> list[Edit]:
    if t.how == "liability_of":
        return [edit(clause, s, e + (len(clause[e:e + 2]) if clause[e:e + 2] in ("’s", "'s") else 0),
                     _cap(clause, s, f"each party{apostrophe}s"), why)]
    if t.how in ("passive",):
        return [edit(clause, s, e, "each party", why)]
    if t.how == "no_liability":
        return [edit(clause, s, e, "either party", why)]
    if a_party:
        return [edit(clause, s, e, _cap(clause, s, "that party"), "the party it names, whichever it is")]
    rest = clause[e:e + 60]
    neg = re.match(r"(\s+(?:(?:shall|will|must|may|can|does)(?:\s+have)?|has|have|is|are)\s+(?:not|no)\b)", rest, re.I)
    if t.negated and neg:
        out = [edit(clause, s, e, _cap(clause, s, "neither party"), why)]
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
    return [edit(clause, s, e, _cap(clause, s, word), why)]


def _verify_mutual(text: str, part: Part, wanted: Sequence[Provision], parties: Sequence[str]) -> None:
    """The operation's own result, read again: every provision it was to change binds both."""
    after = binding.read(text, parties)
    for t in wanted:
        same = [q for q in after.provisions if binding.similar(t, q)]
        if not same or not all(q.mutual and not q.others for q in same if q.start >= t.start - 5):
            raise Declined("The clause is worded in a way the operation cannot make mutual reliably; the drafting "
                           "assistant can, or edit it by hand.")


# --- give it to the other party ----------------------------------------------------------------

def flip_party(clause: str, part: Part, parties: Sequence[str] = ()) -> OperationResult:
    holder, other = part.params.get("holder"), part.params.get("other")
    read = binding.read(clause, parties)
    if not holder or not other or holder not in read.parties and other not in read.parties:
        raise Declined("The instruction or the clause does not name both parties, so the right or duty cannot be "
                       "moved between them.")
    if not any(p.bound == other for p in read.provisions) and any(p.bound == holder for p in read.provisions) and \
            all(_holds(p, clause) for p in read.provisions if p.bound == holder):
        raise AlreadyDone(f"The clause already gives this to {_the(holder)}; nothing was changed.")
    wanted = targets(part, read, clause)
    if not wanted:
        raise Declined(f"No provision of the clause binds {_the(other)} in a way the operation can read.")
    from addin_server.draft.parts import counter_provisions
    spans = sorted(set(_spans(wanted)) | set(_spans(counter_provisions(part, read, clause))))
    # What the instruction names as it is ("claims coming from DGT's products") stays as it is.
    kept = [m.span() for name in (holder, other)
            for noun in re.findall(rf"(?<![\w-]){re.escape(name)}['’]s\s+([a-z]+)", part.text)
            for m in re.finditer(rf"(?<![\w-]){re.escape(name)}['’]s\s+{noun}\b(?:[^.;,]{{0,40}}?\bby\s+(?:the\s+)?"
                                 rf"(?:{re.escape(holder)}|{re.escape(other)})\b)?", clause)]
    for a, b in part_spans(clause):
        if any(s <= a < e for s, e in spans):
            continue
        text = clause[a:b]
        if binding._mentions(text, holder) and binding._mentions(text, other):
            raise Declined(f"Another sentence also names both {_the(holder)} and {_the(other)} "
                           f"(“{_short(text)}”); whether it changes too is a drafting choice. Say which sentences to "
                           "change, or ask the drafting assistant.")
    def measured(at: int) -> bool:  # "the fees paid or payable to Contractor": the measure, not the role
        return bool(re.search(r"\b(?:paid|payable|incurred|received|owed|charged)\s+(?:\S+\s+){0,3}$", clause[max(0, at - 40):at]))

    for s, e in spans:
        for name in (holder, other):
            for ms, me, possessive in binding._mentions(clause, name):
                if any(x <= ms < y for x, y in kept) or measured(ms):
                    continue
                if s <= ms < e and possessive and not _ROLE_NOUNS.match(clause[me:me + 50]):
                    thing = " ".join(clause[ms:me + 30].split()[:4])
                    raise Declined(f"The clause also speaks of “{thing}…”; whether that changes hands too is for you "
                                   "to say. Say so, or ask the drafting assistant.")
    edits = []
    for s, e in spans:
        for name, to in ((holder, other), (other, holder)):
            for ms, me, possessive in binding._mentions(clause, name):
                if not (s <= ms < e) or any(x <= ms < y for x, y in kept) or measured(ms):
                    continue
                found = clause[ms:me]
                the = found[:4] if found[:4].lower() == "the " else ""
                tail = found[len(found.rstrip("’s'")):] if possessive else ""
                new = (the + to + tail) if the else (_the_as(found, to) + tail)
                edits.append(edit(clause, ms, me, new, f"{_the(holder)} and {_the(other)} change places, as "
                                                      "instructed"))
    notes = [f"“{c}” is left as it is; check whether it should name the other party."
             for s, e in spans for n in (holder, other) for c in _compounds(clause[s:e], n)]
    return OperationResult("flip_party", f"Given to {_the(holder)}", clause, _sorted(edits), notes=notes)


# Verbs by which the party named gives something away: "Customer hereby grants eGain a right" is
# the Customer's grant, so the right is eGain's, not the Customer's.
_GIVES = re.compile(r"^[^.;]{0,40}?\b(?:grant|licen[cs]e|assign|transfer|give|provide|pay|deliver|convey|allow|permit|"
                    r"consent|waive|release|authori[sz]e|agree)(?:s|d|ed)?\b", re.I)


def _holds(p: Provision, clause: str) -> bool:
    """Whether the party a provision names holds what it gives: only a right of its own that it does not
    give away ("Company may terminate"), never a duty, a prohibition or a grant to another."""
    return p.kind == "right" and not p.negated and not _GIVES.match(clause[p.subject[1]:p.end])


def _the_as(found: str, name: str) -> str:
    return name


# --- periods and amounts ----------------------------------------------------------------------

_UNIT_WORDS = {"days": "day", "business days": "business day", "calendar days": "calendar day", "weeks": "week",
               "months": "month", "years": "year", "hours": "hour"}


def change_period(clause: str, part: Part) -> OperationResult:
    value, unit = part.params.get("value"), part.params.get("unit", "")
    if value is None:
        raise Declined("The period asked for could not be read.")
    if part.params.get("basis") == "fees":
        raise Declined("A cap measured by the fees of a period is reworded, not a figure swapped; the drafting "
                       "assistant can do it.")
    found = F.periods(clause)
    if not found:
        raise Declined("The clause states no period (such as “30 days”) to change; adding one is for the drafting "
                       "assistant.")
    old = _targeted_old(part, clause, "period")
    if not old and not any(_same_unit(f, unit) for f in found):
        raise Declined(f"The clause has no period of {unit} to change (it says {', '.join(f.text for f in found)}); "
                       "adding a new limit is for the drafting assistant.")
    if not old:
        listed = ", ".join(f.text for f in found)
        raise Declined(f"The clause has more than one period ({listed}); say which one to change, for example "
                       "“change the 30 days to 15 days”.")
    if all(abs(o.value - value) < 1e-9 and _same_unit(o, unit) for o in old):
        raise AlreadyDone(f"The clause already says {old[0].text}; nothing was changed.")
    edits = []
    for o in old:
        new = _spell_period(value, unit, o, clause)
        edits.append(edit(clause, o.start, o.end, new, f"the period changes from {o.text} to {new}, as instructed"))
    notes = [f"“{o.text}” had words and figure that differed." for o in old if o.disagree]
    return OperationResult("change_period", f"Period changed to {_spell_period(value, unit, old[0], clause)}", clause,
                           edits, notes=notes)


def _same_unit(f: F.Figure, unit: str) -> bool:
    return _UNIT_WORDS.get(unit, unit).replace(" ", "_").replace("calendar_day", "day") == (f.unit or "")


_ATTRIBUTIVE = re.compile(r"\s+(?:period|term|extension|notice|cap|tail|window|look-?back|limit|minimum|maximum|"
                          r"commitment|restriction|deadline|moratorium)\b", re.I)


def _spell_period(value: float, unit: str, like: F.Figure, clause: str = "") -> str:
    """The new period in the form the clause used, every other word kept: "thirty (30) days" -> "fifteen
    (15) days", "36 consecutive months" -> "48 consecutive months", "one-year cap" -> "six-month cap", "a
    three (3) month period" -> "a six (6) month period"."""
    number = F.spell_number(int(value), like)
    singular = _UNIT_WORDS.get(unit, unit.rstrip("s"))
    lead = re.match(r"(?:[A-Za-z]+(?:[ -][A-Za-z]+)*\s*\(\s*\d[\d,.]*\s*\)|\d[\d,.]*\s*\([^)]*\)|\d[\d,.]*|"
                    r"[A-Za-z]+(?:-(?=[a-z]+-)[A-Za-z]+)*)", like.text)
    rest = like.text[lead.end():] if lead else ""
    unit_word = re.search(r"(?i)\b(business\s+day|calendar\s+day|day|week|month|year|hour)s?\b", rest)
    if rest.startswith("-"):
        return f"{number}-{singular}"
    if unit_word is None:
        return f"{number} {unit if value != 1 else singular}"
    attributive = bool(_ATTRIBUTIVE.match(clause[like.end:like.end + 16])) and not _was_plural(like.text)
    plural = value != 1 and not attributive
    same_unit = _UNIT_WORDS.get(unit, "").replace("calendar ", "") == unit_word.group(1).lower().replace("calendar ", "")
    words = (unit_word.group(1) if same_unit else singular) + ("s" if plural else "")
    if like.text.isupper():
        words = words.upper()
    elif unit_word.group(0)[:1].isupper():
        words = words.title()
    return number + rest[:unit_word.start()] + words + rest[unit_word.end():]


def _was_plural(text: str) -> bool:
    return bool(re.search(r"(?:days|weeks|months|years|hours)\b", text, re.I))


def change_amount(clause: str, part: Part) -> OperationResult:
    value = part.params.get("amount")
    if value is None:
        raise Declined("The amount asked for could not be read.")
    found = F.amounts(clause)
    if not found:
        raise Declined("The clause states no amount to change.")
    old = _targeted_old(part, clause, "amount")
    if not old:
        raise Declined("The clause states " + f"{len(found)} amounts ({', '.join(f.text for f in found)}); say which "
                       "one to change.")
    if all(abs(o.value - value) < 1e-6 for o in old):
        raise AlreadyDone(f"The clause already says {old[0].text}; nothing was changed.")
    edits = []
    for o in old:
        start, end, new = _amount_span(clause, o, value)
        edits.append(edit(clause, start, end, new, f"the amount changes from {clause[start:end]} to {new}, as "
                                                   "instructed"))
    return OperationResult("change_amount", f"Amount changed to {edits[0].new}", clause, edits)


_WORDS_BEFORE = re.compile(rf"((?:{NUMBER_WORDS})(?:[ -]+(?:{NUMBER_WORDS}|and))*)(\s+(?:and\s+No/100\s+)?"
                           r"(?:Dollars|DOLLARS|dollars|Euros|Pounds|Rubles|Roubles)?)\s*\($", re.I)


def _amount_span(clause: str, like: F.Figure, value: float) -> tuple[int, int, str]:
    """(start, end, new text): the figure, and the words before it when the clause writes both
    ("One Million and No/100 Dollars ($1,000,000.00)")."""
    words = _WORDS_BEFORE.search(clause[max(0, like.start - 90):like.start])
    if like.written != "both" and words and clause[like.end:like.end + 1] == ")":
        start = like.start - len(words.group(0))
        figure = _write_amount(value, like)
        number = _words_like(value, words.group(1))
        return start, like.end + 1, f"{number}{words.group(2)} ({figure})"
    return like.start, like.end, _write_amount(value, like)


def _words_like(value: float, old: str) -> str:
    number = to_words(int(value)) if float(value).is_integer() else ""
    if not number or number.isdigit():
        raise Declined("The clause writes the amount in words as well as figures, and the new amount cannot be "
                       "written in words here; the drafting assistant can.")
    if old.isupper():
        return number.upper()
    if old[:1].isupper():
        return "-".join(p[:1].upper() + p[1:] for p in " ".join(w.capitalize() if w != "and" else w
                                                                for w in number.split(" ")).split("-"))
    return number


def _same_marker(figure: str, old: str) -> str:
    """The new figure with the old one's currency marker: "US$2,000,000" -> "US$5,000,000", not "$5,000,000"."""
    had = re.search(r"(?:US|U\.S\.\s?|A|AU|C|CA|NZ|HK|S)\$(?=\s?\d)", old)
    if had and figure.startswith("$"):
        return had.group(0) + figure[1:]
    return figure


def _write_amount(value: float, like: F.Figure) -> str:
    """The new amount in the form the clause used: "$7,500", "Seven Thousand Five Hundred Dollars ($7,500)",
    "($2,000,000.00)", "$85,000USD"."""
    figure = _same_marker(F.format_amount(value, like), like.text)
    if re.search(r"\.\d\d\b", like.text) and "." not in figure:
        figure += ".00"
    suffix = re.search(r"\d([A-Z]{3})\b", like.text)
    if suffix:
        figure += suffix.group(1)
    space = re.search(r"\d([ \u00a0\u202f])\d{3}", like.text.split("(")[0])
    if space:
        figure = figure.replace(",", space.group(1))  # "RUB 50 000 000": the clause groups with spaces
    if like.written != "both":
        return figure
    digits_first = re.match(r"[^()]*\d[^()]*?\s*\((?P<words>[^()\d]+)\)$", like.text)
    if digits_first:  # "RUB 50 000 000 (fifty million roubles)": the figure, then the words in brackets
        said = digits_first.group("words")
        unit = re.search(r"\s+(?:[Dd]ollars|DOLLARS|[Ee]uros|[Pp]ounds(?: [Ss]terling)?|[Rr]o?ubles|[A-Z][a-z]+s)$", said)
        return f"{figure} ({_words_like(value, said)}{unit.group(0) if unit else ''})"
    words_part = re.match(r"(.*?)\s*\(", like.text)
    if not words_part:
        return figure
    old_words = words_part.group(1)
    tail = re.search(r"\s+(?:and\s+No/100\s+)?(?:[Dd]ollars|DOLLARS|[Ee]uros|[Pp]ounds|[A-Z][a-z]+)$", old_words)
    number = to_words(int(value)) if float(value).is_integer() else None
    if number is None or number.isdigit():
        raise Declined("The clause writes the amount in words as well as figures, and the new amount cannot be "
                       "written in words here; the drafting assistant can.")
    if old_words[:1].isupper():
        number = " ".join(w.capitalize() if w not in ("and",) else w for w in re.split(r" ", number))
        number = "-".join(p[:1].upper() + p[1:] for p in number.split("-"))
    if old_words.isupper():
        number = number.upper()
    return f"{number}{tail.group(0) if tail else ''} ({figure})"


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
    mapping = {old: new for old, new in renames.items() if binding._mentions(clause, old)}
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
        for s, e, possessive in binding._mentions(clause, role):
            found = clause[s:e]
            the = found[:4] if found[:4].lower() == "the " else ""
            tail = found[len(found.rstrip("’s'")):] if possessive else ""
            if the and (to.isupper() or not to[:1].isupper()):
                the = ""
            edits.append(edit(clause, s, e, the + to + tail, f"your document calls the {role} “{to}”"))
        for c in _compounds(clause, role):
            notes.append(f"“{c}” has no counterpart named here; check it against your document's defined terms.")
    if lacking:
        notes.append(f"Your document does not define “{lacking[0]}”" + (f" (or {len(lacking) - 1} other term(s))"
                                                                        if len(lacking) > 1 else "")
                     + "; only the party names were conformed.")
    return OperationResult("conform_terms", "Party names conformed to your document", clause, _sorted(edits),
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
        return OperationResult("delete", "Words deleted", clause,
                               [edit(clause, start, end, "", "deleted, as instructed")])
    if sentence is None or (sentence[1] - sentence[0]) > (end - start) + 3:
        raise Declined("The words to drop are part of a longer sentence; dropping them means rewording it, which the "
                       "drafting assistant can do.")
    while end < len(clause) and clause[end] in " \t":
        end += 1
    if start > 0 and clause[start - 1] == " " and end >= len(clause.rstrip()):
        start -= 1
    return OperationResult("delete", "Sentence deleted", clause,
                           [edit(clause, start, end, "", "deleted, as instructed")])


def _sentences(text: str) -> list[tuple[int, int]]:
    from index_builder.reading.sentences import sentence_spans
    return sentence_spans(text)


# --- helpers ----------------------------------------------------------------------------------

def _the(name: str | None) -> str:
    if not name:
        return "the other party"
    return name if name.isupper() or not name[:1].isupper() or " " in name or "-" in name else f"the {name}"


def _short(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"


def _sorted(edits: list[Edit]) -> list[Edit]:
    out: list[Edit] = []
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if out and e.start < out[-1].end:
            continue  # a mention already replaced as part of a subject
        out.append(e)
    return out


__all__ = ["AlreadyDone", "Declined", "OperationResult", "apply", "change_amount", "change_period", "conform_terms",
           "delete_part", "flip_party", "make_mutual"]
