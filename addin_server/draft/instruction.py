"""What a drafting instruction asks for, part by part, read once for the operations and the checks.

Lawyers write one ask or several ("Make the non-solicit mutual, cut the tail to six months, and
carve out general job ads"), in jargon or in words ("Distributor should be able to check
Airspan's books as well", "The cap should protect Contractor, not Company"), with reasons and
asides ("We're disclosing too: ..."). ``read_instruction`` splits the text into parts at
semicolons, sentences and the commas and "and"s that start a new ask; reads each part's kind
and values (a period, an amount, the party a right moves to, the words a carve-out names, a
length); and notes what a part names to leave alone ("leave the first sentence alone", "keep
the caps on Galaxy"). Sentences that ask nothing are read as context of the part they explain.

The operations carry out the parts they can (router.py); the checks hold the draft to every
part (checks.py). Nothing else — no label, no expectation — reaches either.

Here: the model (Part, Instruction) and the reading of the instruction's structure. Each segment's
kind is read in instruction_kinds.py, each part's values in instruction_values.py, its scope in
instruction_scope.py, from the vocabulary in instruction_words.py; every name stays importable
from here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from index_builder.reading import binding
from index_builder.reading import figures as F

# Which segments are asks (session 11): logistics, statements, a figure said again, a counter, a case made.
from addin_server.draft.instruction_asks import (about_the_draft, after_the_reason, asks_nothing_after_so, countered, describes_the_clause,
                                                 log_entry, not_an_ask, reason_under_heading, reported, restates_figure)
from addin_server.draft import instruction_lines as lines  # lines and quotations cut before reading (session 13)
from addin_server.draft import instruction_limbs as limbs  # a structured message's asks, limb by limb (session 11)
from addin_server.draft import instruction_named as named  # names swapped, words said to go (session 12)
# Re-exported: callers and tests import these from instruction.py, as before the split.
from addin_server.draft.instruction_kinds import kind_of, period_change, restated_out, move_of_nothing, not_between_parties  # noqa: F401
from addin_server.draft.instruction_scope import GENERIC_WORDS, SYNONYMS, Scope, scope_of, stems, pointed_sentence  # noqa: F401
from addin_server.draft.instruction_moves import FALLBACK_LEAD as _FALLBACK_LEAD
from addin_server.draft.instruction_moves import settle
from addin_server.draft.instruction_values import (  # noqa: F401
    HOLDER_CUES, JUDGED_THEN_ASKED, KEPT_FIGURE, in_clause_units, unread_figures, NEWLY_BOUND, ONE_UNIT, REPLACED_BY, UNITS, after_verb, carve,
    flip, named_in, newly_bound, number, period, renames, same, whole, whose, recorded_figures)
from addin_server.draft.instruction_words import (  # noqa: F401
    ARCHAIC_NAMED, ASK, BARE_NUMBER, BOTH_ASK, CARVE, CARVE_LEAD, CHANGE, CONDITION, CONFORM, DELETE,
    FEES_BASIS, FLIP, FOREIGN, LEAVE, MODIFIER, MUTUAL, NON_LATIN, NOT_APPLY, NUMBER_WORDS, ORDINALS,
    PLAIN, PRECEDENT_REF, QUOTED, SENTENCE_COUNT, SHORTEN, SOURCE, STATEMENT, STRONG_MUTUAL, SUBJECT,
    WORD_COUNT, ARCHAIC, KEEP_VERBS, STAY_STATES, STAY_VERBS)
from addin_server.draft.quotes import short as short_at_a_word


KINDS = ("mutual", "flip", "period", "amount", "carve_out", "conform", "shorten", "plain", "delete", "other")
# Kinds a drafting operation can carry out on the clause's own words.
OPERABLE = ("mutual", "flip", "period", "amount", "carve_out", "conform", "delete")

# Sentences end at a stop, never after an abbreviation ("cf. the Buyer carve-back in [1]"), and the
# next may open with a figure or a list label ("We act for Miltenyi. 90 days is nothing ...", "... (1)
# LKPL gets 15 days"); a dash
# before a statement ("bring it down to 30 - we can't sit in limbo for two months") ends an ask too.
_SPLIT = re.compile(rf"\s*;\s*|(?<!\bcf\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bviz\.)(?<!\bArt\.)(?<!\bs\.)(?<!\bcl\.)(?<!\bNo\.)(?<=[.?!])\s+(?=[A-Z\"“\[]|\d|\(\w{{1,3}}\)\s)|(?<=[.?!][\"”])\s+(?=[A-Z\"“\[]|\d)|"
                    rf"\s+[-–—]+\s+(?=(?:we|i|they|he|she|it|this|that)\b(?:\s*\([^)]*\))?\s+\w+)|\s+[-–—]+\s+(?=(?:can|could|would|please)\s)|,?\s+(?:and|but|then|plus)\s+(?=(?:also\s+)?(?:{ASK})\b)|"
                    rf",\s+(?=(?:{ASK})\b)|,\s+(?:and|but|plus)\s+|\s+[-–—]+\s+(?:and|but|plus|also)\s+", re.I)


@dataclass(frozen=True)
class Part:
    """One ask of an instruction."""

    kind: str  # one of KINDS
    text: str  # the instruction's own words for it
    params: Mapping[str, Any] = field(default_factory=dict)
    scope: Scope = field(default_factory=Scope)

    def label(self) -> str:
        """The part in a few words, for "done: ...; not done: ..."."""
        p = self.params
        if self.kind == "mutual":
            return "mutual" + (f" ({p['named']} bound too)" if p.get("named") else "")
        if self.kind == "flip":
            return f"given to {_the(p['holder'])}" if p.get("holder") else "the other party"
        if self.kind == "period" and p.get("value") is not None:
            unit = p["unit"] if p["value"] != 1 else p["unit"].rstrip("s")
            return f"{number(p['value'])} {unit}"
        if self.kind == "amount" and p.get("amount") is not None:
            return F.format_amount(p["amount"], currency=p.get("currency"))
        if self.kind == "carve_out":
            return "carve-out" + (f" for {p['phrase']}" if p.get("phrase") else "") + \
                (f" from precedent [{p['precedent']}]" if p.get("precedent") else "")
        if self.kind == "delete" and p.get("what"):
            return f"delete {p['what']}"
        return {"conform": "your document's terms", "shorten": "shorter", "plain": "plain English"}.get(
            self.kind, _short(self.text))


@dataclass(frozen=True)
class Instruction:
    text: str
    parts: tuple[Part, ...] = ()
    problems: tuple[str, ...] = ()  # "language", "contradictory"
    reason: str = ""  # for the lawyer, when a problem stops the instruction being read
    length: Mapping[str, Any] = field(default_factory=dict)  # ratio | sentences | words

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(p.kind for p in self.parts)

    @property
    def kind(self) -> str:
        """"none", the one part's kind, "multi" or "other"."""
        if not self.text.strip():
            return "none"
        if not self.parts:
            return "other"
        return self.parts[0].kind if len(self.parts) == 1 else "multi"


# A figure judged, not asked for: "six months is too long", "$1m is far too low", "30 days isn't enough".
_JUDGED = re.compile(r"^\s*(?:the\s+)?(?:current\s+)?[^;]{1,40}?\s+(?:is|are|seems|looks|feels)\s+(?:(?:far|way|much|a\s+bit|"
                     r"rather|just)\s+)?(?:too\s+(?:long|short|high|low|much|little|generous|tight|many|few)|excessive|"
                     r"unreasonable|off-?market|not\s+(?:enough|market|acceptable)|a\s+lot|overkill|a\s+stretch|onerous)\b|"
                     r"^\s*[^;]{1,40}?\s+isn['’]t\s+(?:enough|market|acceptable)\b|"
                     # "A five-year non-solicit ... will not survive a reasonableness challenge", "... makes no sense"
                     r"^\s*[^;]{1,60}?\s+(?:(?:will|would)\s+not|won['’]t|wouldn['’]t)\s+(?:survive|fly|hold\s+up|stand\s+up)\b|"
                     r"^\s*[^;]{1,60}?\s+makes?\s+no\s+sense\b", re.I)


def read_instruction(instruction: str, clause: str = "", parties: Sequence[str] = ()) -> Instruction:
    """The parts an instruction asks for, read against the clause and the document's parties."""
    # A list's items, one a line ("- media returns: 180 days", "(b) a passive-holding carve-out"), and a structured
    # message's limbs (fields, points, a chosen option: instruction_limbs.py) are parts of their own.
    listed = re.sub(r"\n\s*(?:[-•*–]|\(?[a-z0-9]{1,3}[.)])\s+", "; ", limbs.split(instruction), flags=re.I)
    listed = lines.cut_at_lines(listed)  # a heading, a field, a quoted paragraph: a line ends a segment
    text = _ABBREVIATED.sub(lambda m: _UNIT_WORDS[m.group(1).lower()], " ".join(listed.split()))
    # "a full month rather than 15 days": one unit, said as lawyers say it (the figures reader reads numbers).
    text = re.sub(r"\ban?\s+(?:full|whole|clear)\s+(day|week|month|year)\b", r"one \1", text, flags=re.I)
    text = _corrected(text)
    text = in_clause_units(_in_clause_currency(text, clause), clause)  # "both eighteens": the clause's unit
    if not text:
        return Instruction("")
    if FOREIGN.search(text) or len(NON_LATIN.findall(text)) > 2:
        return Instruction(text, problems=("language",), reason=(
            "The instruction does not seem to be in English, so no drafting operation can read it; the "
            "drafting assistant was asked instead, and the checks cannot tell whether it did what you asked."))
    names = binding.party_names(clause + "\n" + text, parties)
    parts: list[Part] = []
    context = judged_before = quoted_before = ""
    items = _labelled(text)
    leads = _item_leads(instruction)
    segments = _segments(text)
    # Words quoted (a side letter, a regulator's comment) are what was said, not this message's ask, where
    # the lawyer's own words after them ask a kind ("fold this in as an exception for TDA"); where those only
    # point back ("Please build both into 4.3", "Our client accepts all three"), the quotation is the ask.
    as_context = lines.context_quotes(segments, lambda s: kind_of(s) not in (None, "other"))
    after_quote = lines.after_asks_quoted(segments, as_context)
    for segment, is_context, answers in zip(segments, as_context, after_quote):
        if parts and _only_length(segment) and kind_of(segment) in (None, "other", "shorten"):
            # "keep it under 40 words": the length the whole draft is held to (Instruction.length), read
            # by the length check; never words of the part before it, whose figure it is not.
            continue
        if parts and MODIFIER.match(segment):  # "leave the first alone", "keep the caps on Galaxy"
            parts[-1] = _with_text(parts[-1], parts[-1].text + "; " + segment, clause, names)
            continue
        if log_entry(segment):
            continue  # "14 March: warehouse confirms ... under five months": what happened, no words of an ask
        if is_context:
            # Context fills in only what the ask points to ("fold this into the restriction"); an ask that does
            # not point back ("Target for award: renewal terms of two years") is read in its own words alone.
            quoted_before += segment + " "
            continue
        if quoted_before and lines.points_back(segment):
            context, quoted_before = context + quoted_before, ""
        kind = kind_of(restated_out(segment, clause))
        if kind == "period" and recorded_figures(segment, clause) != segment:
            # "Time entry, 0.2 hours: ... redrafted within 45 words": the figure records the work; the ask is the rest.
            segment = recorded_figures(segment, clause)
            kind = kind_of(restated_out(segment, clause))
        if kind == "flip" and move_of_nothing(segment, names):
            kind = "other"  # "certificates, not full policies": a replacement of words, said of no party
        if kind not in (None, "period", "amount") and asks_nothing_after_so(segment):
            # "Finding does not cover the 10% cap ..., so no action on those": the case made, then what follows
            # from it, which asks nothing; the words of the case ("does not cover") are no carve-out asked.
            kind = None
        if kind in ("period", "amount") and not _JUDGED.match(segment) and describes_the_clause(segment, clause):
            kind = None  # "In this clause the same window is thirty days, used twice": the figure as it stands
        if kind is not None and reason_under_heading(segment):
            kind = None
        if kind == "other" and parts and answers and lines.points_back(segment):
            # "Please build both into 4.3" after the CFO's two asks, quoted: the order to do what the quotation
            # asks, read with it, never an unread ask of its own; its kind is read from both ("Both points go
            # into the Servicer's covenant": the quoted ask is one of several, not a right moved by itself); a
            # figure quoted stays the figure asked.
            joined, kind = parts[-1].text + " " + segment, parts[-1].kind
            kind = kind if kind in ("period", "amount") else kind_of(restated_out(joined, clause)) or kind
            parts[-1] = _part(kind, joined, clause, names)
            continue
        if kind == "other" and about_the_draft(segment):
            continue  # "Please have the draft ready to share on screen": what to do with the draft, no ask
        if kind == "other" and not_an_ask(segment):
            kind = None  # "Audit finding L-07: rate-change notice gives Licensee too little time": a statement
        if kind is None and parts and segment in leads and segment not in items:
            # "- the last sentence is the only one-way one; have eDiets acknowledge ...": a statement that
            # opens a list item is about that item's ask, not the item before.
            context += segment + " "
            continue
        counter = countered(segment) if parts and parts[-1].kind in ("period", "amount") and \
            reported(parts[-1].text) else None
        if counter is not None:
            # "Customer's markup asks for 7 years of compliance records. We'll meet them at 5": the counter is
            # the ask, in the unit of the figure it answers; theirs is the figure on the table, not asked.
            parts[-1] = _countered(parts[-1], segment, counter, clause, names)
            continue
        judged = _JUDGED.match(segment)
        if judged and kind in ("period", "amount") and not (parts and parts[-1].kind == kind):
            # "Ten Business Days' notice isn't enough; please make it thirty days": the figure judged is
            # the clause's, said before the ask; it is read after the ask's own figure (the old value).
            judged_before += "; " + segment
            continue
        if judged_before and kind in (None, "other"):
            # "180 days' notice ... makes no sense. Ninety, worded like [1]": a bare number after a judged
            # figure is the value asked, in that figure's unit.
            bare = re.match(rf"^\s*(?:(?:make|set)\s+it\s+|say\s+|so\s+)?({_NUMBER})\b(?!\s*(?:%|per\s*cent|[-\s](?:business|"
                            r"calendar|days?|weeks?|months?|years?|hours?)))", segment, re.I)
            judged_figures = F.periods(judged_before) + F.amounts(judged_before)
            if bare and judged_figures and judged_figures[0].kind == "period":
                unit = (judged_figures[0].unit or "day").replace("_", " ") + "s"
                rewritten = segment[:bare.end()] + " " + unit + segment[bare.end():]
                if F.periods(rewritten):
                    segment, kind = rewritten, "period"
        if judged_before and kind in ("period", "amount"):
            segment, judged_before = segment + judged_before, ""
        if kind == "other" and parts and (SUBJECT.match(segment) or (
                parts[-1].kind in ("period", "amount") and (BARE_NUMBER.search(segment) or _said_again(segment, parts[-1])
                                                             or restates_figure(segment, _figure_value(parts[-1]))))):
            # "we must be able to move this into a group company": why the part before is asked;
            # "bring it down to 30" after "... longer than 30 days": the same figure said again.
            parts[-1] = _with_text(parts[-1], parts[-1].text + (" - " if SUBJECT.match(segment) else " ") + segment,
                                   clause, names)
            continue
        if kind == "other" and re.match(r"(?:if|where|when|once|in case|should)\b", segment, re.I) and \
                not re.search(r"[.;:]\s*$", segment):
            # "If the aggregate is less than three times the per-occurrence limit, take it to $15m": the
            # condition the ask after it is under, not an ask of its own.
            context += segment + ", "
            continue
        if kind in (None, "other") and parts and SOURCE.search(segment):
            # "Lift the wording from [1]", "DIALOG's sentence in [1] is the model": where the words come from.
            ref = PRECEDENT_REF.search(segment)
            params = dict(parts[-1].params)
            if ref and params.get("precedent") is None:
                params["precedent"] = int(ref.group(1) or ref.group(2))
            parts[-1] = replace(parts[-1], text=parts[-1].text + " " + segment, params=params)
            continue
        if parts and parts[-1].kind == kind and kind in ("period", "amount") and _FALLBACK_LEAD.match(segment):
            # "go to 45 days? if not, 60": a second value as a fallback is the same ask, read two ways
            # (instruction_moves.settle says so), never a second ask.
            parts[-1] = _with_text(parts[-1], parts[-1].text + "; " + segment, clause, names)
            continue
        if judged and parts and parts[-1].kind == kind and kind in ("period", "amount"):
            # "90 days is market; six months is too long": the second figure is the clause's, judged,
            # not a second ask.
            said = (F.periods(segment) if kind == "period" else F.amounts(segment))[:1]
            params = dict(parts[-1].params)
            if said and params.get("old") is None:
                params["old"] = said[0].value
            params = settle(kind, parts[-1].text + "; " + segment, clause, params)
            parts[-1] = replace(parts[-1], text=parts[-1].text + "; " + segment, params=params)
            continue
        if kind == "mutual" and BOTH_ASK.search(segment) and (F.periods(segment) or F.amounts(segment)):
            # "Either party should be able to walk away on 60 days' notice": both sides, and that period.
            parts.append(_part("mutual", (context + segment).strip(), clause, names))
            kind, context = ("amount" if F.amounts(segment) else "period"), ""
        if kind is None and segment in items and not STATEMENT.match(segment) and len(segment.split()) >= 2 and \
                not re.search(r"\b(?:stays?|remains?|as\s+it\s+is|unchanged|alone|untouched|leave|keep|same)\b", segment, re.I):
            # "(i) English law": an item of the lawyer's list is an ask, even where no kind reads it;
            # a part of its own (not checked), never folded into the part before it.
            kind = "other"
        if kind is None:
            if parts:  # a reason or an aside: it explains the part before it
                parts[-1] = _with_text(parts[-1], parts[-1].text + " " + segment, clause, names)
            else:
                context += segment + " "
            continue
        if parts and parts[-1].kind == "mutual" and kind == "flip" and not FLIP.search(segment):
            # "Reciprocity, please. Any sublicence SIGA grants ... should need MMT's approval": what the
            # other side should now owe, said after the mutual ask, is that ask spelt out, not a move.
            parts[-1] = _with_text(parts[-1], parts[-1].text + " " + segment, clause, names)
            continue
        if parts and parts[-1].kind == kind and kind in ("shorten", "plain", "mutual", "conform", "flip"):
            parts[-1] = _with_text(parts[-1], parts[-1].text + " " + segment, clause, names)
            continue
        parts.append(_part(kind, (context + segment).strip(), clause, names))
        context = ""
    if context.strip() and not parts:
        parts.append(Part("other", context.strip()))
    parts = [limbs.as_limb(p, items) for p in parts]
    parts = named.renames_read_as_moves(parts, clause, parties)  # swaps of names, never rights moved
    parts = _restated_as_old(parts, clause, names)
    parts = _said_twice(parts, clause, names)
    unread = _unread_asks(text, parts, clause)
    if unread:
        # Every ask is read or said unread: a figure no part takes is an ask the reading missed, left to
        # the drafting assistant and never checked as done (unambiguous.py).
        parts.append(Part("other", unread))
    problem = _contradiction(text, parts)
    if problem:
        return Instruction(text, tuple(parts), ("contradictory",), problem)
    return Instruction(text, tuple(parts), length=_length(text, parts))


# Units as lawyers abbreviate them in a quick instruction ("5 yrs", "18 mos"): read as the words
# (the figures reader reads contract prose, where they are spelt out).
_UNIT_WORDS = {"yr": "year", "yrs": "years", "mo": "month", "mos": "months", "mth": "month", "mths": "months",
               "wk": "week", "wks": "weeks", "hr": "hour", "hrs": "hours", "bus. days": "business days"}
_ABBREVIATED = re.compile(r"(?<=\d )(yrs?|mos?|mths?|wks?|hrs?)\b\.?", re.I)


_LABEL = re.compile(r"^(?:\(?[a-z0-9]{1,3}\)|[a-z0-9]{1,2}\.)\s+", re.I)


def _restated_as_old(parts: list[Part], clause: str, names: Sequence[str]) -> list[Part]:
    """A figure of the clause's, named without a word of keeping ("Amend the two-year tail", "A five-year
    non-solicit ... will not survive"), beside one other part of its kind that asks for a new value and
    names no old one: the figure is the one to change, not one kept (the clause holds it once, so it
    cannot both stay and change)."""
    # Only a figure named with no word of keeping ("the 30-day cure stays" keeps it, whatever else is asked).
    stays = re.compile(rf"\b(?:{KEEP_VERBS}|{STAY_VERBS}|{STAY_STATES}|same|survive|survives|unchanged)\b", re.I)
    restated = [p for p in parts if p.params.get("restated") and not stays.search(p.text)]
    for r in restated:
        kind = r.kind
        value = float(r.params.get("value" if kind == "period" else "amount"))
        held = [f for f in (F.periods(clause) if kind == "period" else F.amounts(clause)) if abs(f.value - value) < 1e-9]
        asks = [p for p in parts if p is not r and p.kind == kind and not p.params.get("kept")
                and not p.params.get("unclear") and p.params.get("old") is None]
        # Held once, or in several places the ask says it reaches ("in both places it appears").
        every = bool(asks) and re.search(r"\b(?:both|all|each|every)\s+(?:\w+\s+){0,2}(?:places?|mentions?|references?)\b|"
                                         r"\bthroughout\b|\bwherever\b", asks[0].text, re.I)
        if not held or (len(held) > 1 and not every) or len(asks) != 1:
            continue
        target = asks[0]
        pointed = pointed_sentence(target.text, clause)
        of_kind = F.periods if kind == "period" else F.amounts
        if pointed and len(held) == 1 and not pointed[0] <= held[0].start < pointed[1] and \
                of_kind(clause[pointed[0]:pointed[1]]):
            # "Customer gets 60 days after an automatic payment ...; Resolution window (15 days) not on the
            # agenda": the ask points at one sentence, which has a figure of that kind of its own; the figure
            # restated sits in another, and is not its target.
            continue
        params = dict(target.params)
        params["old"] = r.params.get("value" if kind == "period" else "amount")
        if kind == "period":
            params["old_unit"] = r.params.get("unit")
        parts = [replace(target, text=target.text + "; " + r.text, params=params) if p is target else p
                 for p in parts if p is not r]
    return parts


# "Make it 90", "set it at 90", "so 90": a bare number, nothing else asked.
_RESTATES = re.compile(r"^(?:so\s+|and\s+|i\.e\.\s+)?(?:(?:make|set|put|have|take)\s+(?:it|that|this|them)\s+)?(?:at\s+|to\s+)?"
                       r"(\d+(?:\.\d+)?)[.!]?$", re.I)


def _said_again(segment: str, part: Part) -> bool:
    """The value part before, said again as a bare number ("Ninety days is plenty ... Make it 90"): the same
    ask, never a second part that no operation reads (and a check then calls not done)."""
    m = _RESTATES.match(segment.strip())
    value = part.params.get("value" if part.kind == "period" else "amount")
    return bool(m) and isinstance(value, (int, float)) and float(m.group(1)) == float(value)


# A figure the lawyer takes back as they say it: "three years, no sorry, five", "60 days - I mean 90 days",
# "ten, scratch that, twelve months". The figure after the cue is the one meant; the one before is no ask.
_NUMBER = (r"(?:\d+(?:,\d{3})*(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
           r"eighteen|twenty|thirty|forty|forty-five|fifty|sixty|ninety|hundred)")
_UNIT = r"(?:\s+(?:business\s+|calendar\s+)?(?:days?|weeks?|months?|years?|hours?)|%|\s+per\s*cent)"
_TAKEN_BACK = re.compile(rf"\b(?P<old>{_NUMBER})(?P<unit>{_UNIT})?(?:['’]s?)?\s*[,;–—-]*\s*(?:no[,.]?\s+)?"
                         r"(?:sorry|i\s+mean|scratch\s+that|correction|or\s+rather|make\s+that)[,.;:–—-]*\s+"
                         rf"(?P<new>{_NUMBER})(?P<unit2>{_UNIT})?\b", re.I)


# A sum said with its scale but no currency ("caps out at twenty-five million, not forty", "CGL at two million").
_SCALED = re.compile(rf"(?<![$£€\w])((?:{_NUMBER})(?:[\s-]+(?:and\s+a\s+half|point\s+\w+|{_NUMBER}))*\s+(?:million|thousand|billion))\b"
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


def _segments(text: str) -> list[str]:
    # A list's labels ("(b) a passive-holding carve-out") are no words of the ask.
    pieces = [_LABEL.sub("", p.strip(" ,.")) for p in _SPLIT.split(text)]
    return [p for p in pieces if p]


def _item_leads(instruction: str) -> set[str]:
    """The first segment of each item of a list, one a line, where the item has more than one segment."""
    items = re.split(r"\n\s*(?:[-•*–]|\(?[a-z0-9]{1,3}[.)])\s+", instruction, flags=re.I)[1:]
    firsts = [_segments(" ".join(item.split())) for item in items]
    return {f[0] for f in firsts if len(f) > 1}


def _countered(part: Part, segment: str, value: float, clause: str, names: Sequence[str]) -> Part:
    """The part a counter-offer asks: its number, in the unit of the figure the other side's ask names."""
    theirs = (F.periods(part.text) if part.kind == "period" else F.amounts(part.text))[:1]
    if not theirs:
        return _with_text(part, part.text + " " + segment, clause, names)
    f = theirs[0]
    said = number(whole(value)) if part.kind == "period" else F.format_amount(value, currency=f.currency)
    unit = " " + (f.unit or "day").replace("_", " ") + ("s" if value != 1 else "") if part.kind == "period" else ""
    return _part(part.kind, f"{segment} ({said}{unit})", clause, names)


def _figure_value(part: Part) -> float | None:
    value = part.params.get("value" if part.kind == "period" else "amount")
    return float(value) if isinstance(value, (int, float)) else None


def _labelled(text: str) -> set[str]:
    """The segments that were items of a labelled list ("(i) English law; (ii) ..."): each an ask."""
    return {_LABEL.sub("", p.strip(" ,.")) for p in _SPLIT.split(text) if _LABEL.match(p.strip(" ,."))}


def _with_text(part: Part, text: str, clause: str, names: Sequence[str]) -> Part:
    return _part(part.kind, text, clause, names)


def _part(kind: str, text: str, clause: str, names: Sequence[str]) -> Part:
    params: dict[str, Any] = {}
    valued = after_the_reason(text, kind) if kind in ("period", "amount") else text
    if kind == "period":
        params = period(valued) or {}
        ref = PRECEDENT_REF.search(text)
        if not params and ref:
            params = {"from_precedent": int(ref.group(1) or ref.group(2))}
        if FEES_BASIS.search(text):
            params["basis"] = "fees"  # "cap Company at 12 months' fees": the look-back of a cap
    elif kind == "amount":
        found = [f for f in F.amounts(valued) if not KEPT_FIGURE.search(valued[max(0, f.start - 40):f.start])]
        params = {"amount": whole(found[0].value), "currency": found[0].currency} if found else {}
        old = found[1].value if len(found) > 1 else None
        if old is not None:
            params["old"] = whole(old)
    elif kind == "flip":
        params = flip(text, clause, names)
    elif kind == "mutual":
        named = newly_bound(text, names, clause)
        if named:
            params["named"] = named
        widened = not_between_parties(text, names)
        if widened:
            # "Users can access it too": "also" said of someone who is not a party may widen the clause
            # rather than bind the other party; the mutual reading is unsure, and what it adds is named.
            params["widens"] = tuple(widened)
    elif kind == "carve_out":
        params = carve(text)
    elif kind == "conform":
        params = {"renames": renames(text)}
    elif kind == "delete":
        params = {"what": after_verb(text, DELETE)}
    elif kind == "plain" and DELETE.search(text) and ARCHAIC_NAMED.search(text) and not PLAIN.search(text):
        params = {"legalese_only": True}  # "get rid of the hereunders": the words, not the sentences' length
    if kind in ("period", "amount"):
        params = settle(kind, valued, clause, params)  # which figure is new and which old: one reading
        params.update(whose(text, names))
    ref = PRECEDENT_REF.search(text)
    if ref and "precedent" not in params:
        params["precedent"] = int(ref.group(1) or ref.group(2))
    return Part(kind, text, params, scope_of(kind, text, names))


def _unread_asks(text: str, parts: Sequence[Part], clause: str) -> str:
    """The words of figures the instruction asks for that no part reads ("" where every one is read).
    A reason or a judged figure ("we can't sit in limbo for two months", "six months is too long") is
    no ask, nor a figure inside a part whose own words are its check (a carve-out's "claims under $10,000")."""
    values = [float(v) for p in parts for k in ("value", "amount", "old", "old_said") for v in [p.params.get(k)]
              if isinstance(v, (int, float))]
    segments = _segments(text)
    # The other side's ask that the lawyer counters ("... asks for 7 years. We'll meet them at 5") is no ask.
    answered = any(countered(seg) is not None for seg in segments)
    asked = " ; ".join(recorded_figures(seg, clause) for seg in segments if not (STATEMENT.match(seg) or SUBJECT.match(seg)
                                                       or _JUDGED.match(seg) or (answered and reported(seg)) or log_entry(seg)))
    # A value part read more than one way holds its figures (they are said "not checked" with it).
    worded = " ".join(p.text for p in parts if p.kind in ("carve_out", "conform", "delete", "plain", "shorten", "other")
                      or p.params.get("unclear") or p.params.get("kept"))
    found = [f for f in unread_figures(asked, values, clause) if f not in worded]
    return "; ".join(dict.fromkeys(found))


# --- problems and length ------------------------------------------------------------------

def _contradiction(text: str, parts: Sequence[Part]) -> str:
    kinds = {p.kind for p in parts}
    # ("It is one-sided." is the complaint, not the ask: what describes the clause as it stands asks nothing.)
    text = " ; ".join(seg for seg in _segments(text) if not describes_the_clause(seg))
    if "mutual" in kinds and re.search(r"\b(?:one[- ]sided|unilateral)\b|\bonly (?:binds?|binding|applies to|"
                                       r"apply to|protects?) (?:the )?[A-Z]", text):
        return ("Your instruction asks for the clause to be both mutual and one-sided; say which you want. "
                "Nothing was changed.")
    if "shorten" in kinds and re.search(r"(?<!\bno\s)\b(?:longer|expand|more detail|elaborate|lengthen)\b(?!\s+than)", text, re.I):
        return ("Your instruction asks for the clause to be both shorter and longer; say which you want. "
                "Nothing was changed.")
    return ""


def _length(text: str, parts: Sequence[Part]) -> dict[str, Any]:
    """The length the instruction sets: N sentences, under N words, half (0.6), shorter (0.8)."""
    out: dict[str, Any] = {}
    sentences = SENTENCE_COUNT.search(text)
    if sentences:
        said = next(g for g in sentences.groups() if g).lower()
        n = 1 if said == "a single" else NUMBER_WORDS.get(said) or (int(said) if said.isdigit() else None)
        if n:
            out["sentences"] = n
    words = WORD_COUNT.search(text)
    if words:
        out["words"] = int(next(g for g in words.groups() if g))
    if any(p.kind == "shorten" for p in parts) and not out:
        if re.search(r"\bhalf\b|\bhalve\b", text, re.I):
            out["ratio"] = 0.6
        elif re.search(r"\bthirds?\b", text, re.I):
            out["ratio"] = 0.75  # "cut it by a third", "two-thirds the length": a lawyer's third, not a count
        elif re.search(r"\b(?:shorter|shorten|trim|cut|wordy|concise|briefer|fewer\s+words|redundan\w*|condense\w*)\b",
                       text, re.I):
            out["ratio"] = 0.8
        else:
            # "Tighten this up", "pare it back", "say it once": less, by no measure the lawyer gave.
            out["ratio"] = 0.95
    return out


def _only_length(segment: str) -> bool:
    """A segment that says only how long the draft may be ("keep it under 40 words", "in two sentences")."""
    said = WORD_COUNT.search(segment) or SENTENCE_COUNT.search(segment)
    if not said:
        return False
    rest = (segment[:said.start()] + segment[said.end():]).strip(" ,.;:-")
    return not re.search(r"\d", rest) and len(rest.split()) <= 4


def length_said(text: str) -> tuple[str, ...]:
    """The words of an instruction that set a length ("under 40 words", "in no more than 3 sentences"): a
    count of words or sentences, never an old or new figure of the clause, so no figure a part reads."""
    return tuple(m.group(0) for rx in (WORD_COUNT, SENTENCE_COUNT) for m in rx.finditer(text))


def _the(name: str) -> str:
    return name if not name[:1].isupper() or name.isupper() else f"the {name}"


def _short(text: str, limit: int = 60) -> str:  # this stage quotes 60 characters
    return short_at_a_word(text, limit)


def _said_twice(parts: list[Part], clause: str, names: Sequence[str]) -> list[Part]:
    """A period or amount said first as a fact and then asked ("the median tail is six months, and a year puts
    us in the top decile. Bring the tail to six (6) months") is one ask: the statement, which has no ask verb,
    joins the later part of the same value (its words may name the figure replaced: "a year"); two parts
    reported the change twice, and the second as "already says"."""
    def value(p: Part) -> tuple | None:
        return (p.kind, p.params.get("value"), p.params.get("unit"), p.params.get("currency")) \
            if p.kind in ("period", "amount") and p.params.get("value") is not None else None
    out: list[Part] = []
    for i, p in enumerate(parts):
        later = next((j for j in range(i + 1, len(parts)) if value(p) and value(parts[j]) == value(p)), None)
        if later is not None and not re.search(rf"\b(?:{ASK})\b", p.text, re.I):
            joined = _with_text(parts[later], p.text + " " + parts[later].text, clause, names)
            parts[later] = joined if value(joined) == value(p) else parts[later]
            continue
        out.append(p)
    return out
