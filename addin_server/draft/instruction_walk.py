"""The rules ``read_instruction`` walks each segment of a message through, one named function per rule.

A message is cut into segments (instruction_segments.py); the walk takes them in order and, for each, asks
the rules in the order instruction.RULES lists them. A rule either *re-reads* the segment (sets its kind,
or its words, and returns False so the next rule sees the new reading) or *places* it and returns True:
as a part of its own, as words of the part before, as context of the part after, or as nothing asked.
The order matters: a rule is written for the segments the rules before it have left.

What the walk carries from one segment to the next is a ``Walk``, passed to every rule; what one
segment is read as so far is a ``Segment``. Nothing else is shared: no globals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

from index_builder.reading import figures as F

from addin_server.draft import instruction_lines as lines
from addin_server.draft.instruction_asks import (about_the_draft, asks_nothing_after_so, countered, describes_the_clause,
                                                 log_entry, not_an_ask, reason_under_heading, reported, restates_figure)
from addin_server.draft.instruction_figures import JUDGED
from addin_server.draft.instruction_kinds import kind_of, move_of_nothing, restated_out
from addin_server.draft.instruction_length import only_length
from addin_server.draft.instruction_model import Part
from addin_server.draft.instruction_moves import FALLBACK_LEAD, settle
from addin_server.draft.instruction_part import countered_part, figure_value, part_of, said_again, with_text
from addin_server.draft.instruction_segments import NUMBER
from addin_server.draft.instruction_values import recorded_figures
from addin_server.draft.instruction_words import (BARE_NUMBER, BOTH_ASK, FLIP, MODIFIER, PRECEDENT_REF, SOURCE,
                                                  STATEMENT, SUBJECT)

FIGURES = ("period", "amount")


@dataclass
class Walk:
    """What the walk carries from one segment to the next."""

    clause: str
    names: Sequence[str]  # the document's parties the clause and message name (binding.party_names)
    items: set[str]  # segments the lawyer labelled as items of a list ("(i) English law")
    leads: set[str]  # the first sentence of each item of a list
    parts: list[Part] = field(default_factory=list)
    context: str = ""  # words that ask nothing, waiting for the next part made
    judged_before: str = ""  # the clause's figure judged before the ask that changes it
    quoted_before: str = ""  # words quoted, waiting for an ask of the lawyer's own that points back to them

    def fold(self, words: str, joint: str = " ") -> None:
        """The segment's words join the part before, which is read again with them."""
        self.parts[-1] = with_text(self.parts[-1], self.parts[-1].text + joint + words, self.clause, self.names)

    def before_is(self, *kinds: str | None) -> bool:
        return bool(self.parts) and self.parts[-1].kind in kinds


@dataclass
class Segment:
    """One segment as the rules have read it so far."""

    text: str
    quoted_context: bool  # words quoted that the lawyer's own next segment answers (lines.context_quotes)
    after_quoted_asks: bool  # straight after words quoted that are read as asks (lines.after_asks_quoted)
    kind: str | None = None  # set by read_kind; None: asks nothing
    judged: re.Match[str] | None = None  # set by note_figure_judged: "... isn't enough", "... is market"


# A rule: True where it has placed the segment (the walk goes on to the next segment), False where it has only
# re-read it (or does not apply) and the next rule is to see it.
Rule = Callable[[Walk, Segment], bool]


# --- Before the kind is read: segments that are never an ask of their own --------------------------------------

def length_of_the_whole_draft(w: Walk, s: Segment) -> bool:
    """"keep it under 40 words" (session 10): the length the whole draft is held to (Instruction.length, read by
    the length check), never words of the part before it, whose figure it is not."""
    return bool(w.parts and only_length(s.text) and kind_of(s.text) in (None, "other", "shorten"))


def modifier_of_the_part_before(w: Walk, s: Segment) -> bool:
    """"leave the first alone", "keep the caps on Galaxy": what the part before is to leave as it is."""
    if not (w.parts and MODIFIER.match(s.text)):
        return False
    w.fold(s.text, "; ")
    return True


def entry_of_a_log(w: Walk, s: Segment) -> bool:
    """"14 March: warehouse confirms ... under five months" (session 13): what happened, headed by a date; no
    words of an ask, so its figures are never a value asked."""
    return bool(log_entry(s.text))


def quoted_as_context(w: Walk, s: Segment) -> bool:
    """Words quoted (a side letter, a regulator's comment) are what was said, not this message's ask, where the
    lawyer's own words after them ask a kind ("fold this in as an exception for TDA"). They wait in
    ``quoted_before``: context fills in only what the ask points to ("fold this into the restriction"); an ask
    that does not point back ("Target for award: renewal terms of two years") is read in its own words alone."""
    if not s.quoted_context:
        return False
    w.quoted_before += s.text + " "
    return True


def ask_pointing_back_to_a_quotation(w: Walk, s: Segment) -> bool:
    """Re-reads: "fold this into the restriction" after words quoted takes them as its context."""
    if w.quoted_before and lines.points_back(s.text):
        w.context, w.quoted_before = w.context + w.quoted_before, ""
    return False


def read_kind(w: Walk, s: Segment) -> bool:
    """Re-reads: the segment's kind, with a figure the clause already has said again taken out
    (instruction_kinds.py)."""
    s.kind = kind_of(restated_out(s.text, w.clause))
    return False


# --- Re-readings of the kind: what looks like an ask and is not ------------------------------------------------

def figure_recording_the_work(w: Walk, s: Segment) -> bool:
    """Re-reads: "Time entry, 0.2 hours: ... redrafted within 45 words" (session 12): a period in a unit the
    clause never uses, labelling what follows, records the work; the ask is the rest."""
    if s.kind == "period" and recorded_figures(s.text, w.clause) != s.text:
        s.text = recorded_figures(s.text, w.clause)
        s.kind = kind_of(restated_out(s.text, w.clause))
    return False


def words_replaced_of_no_party(w: Walk, s: Segment) -> bool:
    """Re-reads: "certificates, not full policies" (sessions 11, 14): a replacement of words, said of no party,
    is no right moved."""
    if s.kind == "flip" and move_of_nothing(s.text, w.names):
        s.kind = "other"
    return False


def what_follows_from_a_case(w: Walk, s: Segment) -> bool:
    """Re-reads: "Finding does not cover the 10% cap ..., so no action on those" (session 11): the case made,
    then what follows from it, which asks nothing; the words of the case ("does not cover") are no carve-out
    asked."""
    if s.kind not in (None, *FIGURES) and asks_nothing_after_so(s.text):
        s.kind = None
    return False


def figure_as_it_stands(w: Walk, s: Segment) -> bool:
    """Re-reads: "In this clause the same window is thirty days, used twice" (session 12): a statement of the
    clause's figure asks nothing, unless it judges it ("... isn't enough")."""
    if s.kind in FIGURES and not JUDGED.match(s.text) and describes_the_clause(s.text, w.clause):
        s.kind = None
    return False


def reason_under_a_heading(w: Walk, s: Segment) -> bool:
    """Re-reads: "Note from the disputes side, for the file: We fought ... and lost" (session 12): a heading,
    then a statement with no word that asks or wants, is a reason."""
    if s.kind is not None and reason_under_heading(s.text):
        s.kind = None
    return False


def order_to_do_what_was_quoted(w: Walk, s: Segment) -> bool:
    """"Please build both into 4.3" after the CFO's two asks, quoted (session 13): the order to do what the
    quotation asks, read with it, never an unread ask of its own; its kind is read from both ("Both points go
    into the Servicer's covenant": the quoted ask is one of several, not a right moved by itself); a figure
    quoted stays the figure asked."""
    if not (s.kind == "other" and w.parts and s.after_quoted_asks and lines.points_back(s.text)):
        return False
    joined, kind = w.parts[-1].text + " " + s.text, w.parts[-1].kind
    kind = kind if kind in FIGURES else kind_of(restated_out(joined, w.clause)) or kind
    w.parts[-1] = part_of(kind, joined, w.clause, w.names)
    return True


def what_to_do_with_the_draft(w: Walk, s: Segment) -> bool:
    """"Please have the draft ready to share on screen": what to do with the draft, no ask of the clause."""
    return bool(s.kind == "other" and about_the_draft(s.text))


def statement_of_fact(w: Walk, s: Segment) -> bool:
    """Re-reads: "Audit finding L-07: rate-change notice gives Licensee too little time" (session 11): a
    statement, which asks nothing by itself."""
    if s.kind == "other" and not_an_ask(s.text):
        s.kind = None
    return False


def statement_opening_a_list_item(w: Walk, s: Segment) -> bool:
    """"- the last sentence is the only one-way one; have eDiets acknowledge ..." (session 11): a statement that
    opens a list item is about that item's ask, not the item before: context of the part after."""
    if not (s.kind is None and w.parts and s.text in w.leads and s.text not in w.items):
        return False
    w.context += s.text + " "
    return True


# --- Figures said more than once: the clause's, theirs, a counter, a fallback ----------------------------------

def counter_to_their_figure(w: Walk, s: Segment) -> bool:
    """"Customer's markup asks for 7 years of compliance records. We'll meet them at 5" (session 11): the
    counter is the ask, in the unit of the figure it answers; theirs is the figure on the table, not asked."""
    counter = countered(s.text) if w.before_is(*FIGURES) and reported(w.parts[-1].text) else None
    if counter is None:
        return False
    w.parts[-1] = countered_part(w.parts[-1], s.text, counter, w.clause, w.names)
    return True


def note_figure_judged(w: Walk, s: Segment) -> bool:
    """Re-reads: whether the segment judges a figure ("... isn't enough", "... is market"), read once here, on
    the words before a judged figure is added to them, for the two rules that ask it."""
    s.judged = JUDGED.match(s.text)
    return False


def figure_judged_before_its_ask(w: Walk, s: Segment) -> bool:
    """"Ten Business Days' notice isn't enough; please make it thirty days": the figure judged is the
    clause's, said before the ask; it waits in ``judged_before`` and is read after the ask's own figure (the
    old value)."""
    if not (s.judged and s.kind in FIGURES and not w.before_is(s.kind)):
        return False
    w.judged_before += "; " + s.text
    return True


_BARE = re.compile(rf"^\s*(?:(?:make|set)\s+it\s+|say\s+|so\s+)?({NUMBER})\b(?!\s*(?:%|per\s*cent|[-\s](?:business|"
                   r"calendar|days?|weeks?|months?|years?|hours?)))", re.I)


def bare_number_after_a_judged_figure(w: Walk, s: Segment) -> bool:
    """Re-reads: "180 days' notice ... makes no sense. Ninety, worded like [1]": a bare number after a judged
    period is the value asked, in that period's unit."""
    if not (w.judged_before and s.kind in (None, "other")):
        return False
    bare = _BARE.match(s.text)
    judged_figures = F.periods(w.judged_before) + F.amounts(w.judged_before)
    if bare and judged_figures and judged_figures[0].kind == "period":
        unit = (judged_figures[0].unit or "day").replace("_", " ") + "s"
        rewritten = s.text[:bare.end()] + " " + unit + s.text[bare.end():]
        if F.periods(rewritten):
            s.text, s.kind = rewritten, "period"
    return False


def judged_figure_joins_its_ask(w: Walk, s: Segment) -> bool:
    """Re-reads: the figure judged before is added after the ask's own words, where it is read as the old value."""
    if w.judged_before and s.kind in FIGURES:
        s.text, w.judged_before = s.text + w.judged_before, ""
    return False


def why_the_part_before_is_asked(w: Walk, s: Segment) -> bool:
    """"we must be able to move this into a group company" (session 13): a sentence about the subject of the
    part before says why it is asked; it joins it after a dash."""
    if not (s.kind == "other" and w.parts and SUBJECT.match(s.text)):
        return False
    w.fold(s.text, " - ")
    return True


def same_figure_said_again(w: Walk, s: Segment) -> bool:
    """"bring it down to 30" after "... longer than 30 days": the figure part before, said again (a bare number,
    the same value, or the figure restated), is words of that part, not an unread ask."""
    if not (s.kind == "other" and w.before_is(*FIGURES) and (
            BARE_NUMBER.search(s.text) or said_again(s.text, w.parts[-1])
            or restates_figure(s.text, figure_value(w.parts[-1])))):
        return False
    w.fold(s.text)
    return True


def condition_of_the_ask_after(w: Walk, s: Segment) -> bool:
    """"If the aggregate is less than three times the per-occurrence limit, take it to $15m": the condition the
    ask after it is under, not an ask of its own; it is context of the part after."""
    if not (s.kind == "other" and re.match(r"(?:if|where|when|once|in case|should)\b", s.text, re.I)
            and not re.search(r"[.;:]\s*$", s.text)):
        return False
    w.context += s.text + ", "
    return True


def where_the_words_come_from(w: Walk, s: Segment) -> bool:
    """"Lift the wording from [1]", "DIALOG's sentence in [1] is the model" (session 13): where the part
    before takes its words from, and the precedent it names."""
    if not (s.kind in (None, "other") and w.parts and SOURCE.search(s.text)):
        return False
    ref = PRECEDENT_REF.search(s.text)
    params = dict(w.parts[-1].params)
    if ref and params.get("precedent") is None:
        params["precedent"] = int(ref.group(1) or ref.group(2))
    w.parts[-1] = replace(w.parts[-1], text=w.parts[-1].text + " " + s.text, params=params)
    return True


def fallback_value(w: Walk, s: Segment) -> bool:
    """"go to 45 days? if not, 60" (session 10): a second value as a fallback is the same ask, read two ways
    (instruction_moves.settle says so), never a second ask."""
    if not (s.kind in FIGURES and w.before_is(s.kind) and FALLBACK_LEAD.match(s.text)):
        return False
    w.fold(s.text, "; ")
    return True


def second_figure_judged(w: Walk, s: Segment) -> bool:
    """"90 days is market; six months is too long": after a figure part, a second figure of its kind, judged,
    is the clause's (the part's old value), not a second ask."""
    if not (s.judged and s.kind in FIGURES and w.before_is(s.kind)):
        return False
    said = (F.periods(s.text) if s.kind == "period" else F.amounts(s.text))[:1]
    params = dict(w.parts[-1].params)
    if said and params.get("old") is None:
        params["old"] = said[0].value
    text = w.parts[-1].text + "; " + s.text
    w.parts[-1] = replace(w.parts[-1], text=text, params=settle(s.kind, text, w.clause, params))
    return True


# --- The asks ----------------------------------------------------------------------------------------------------

def both_sides_and_a_figure(w: Walk, s: Segment) -> bool:
    """Re-reads: "Either party should be able to walk away on 60 days' notice" (session 13): both sides, and
    that period: a mutual part is made here, and the segment goes on as the figure's ask."""
    if s.kind == "mutual" and BOTH_ASK.search(s.text) and (F.periods(s.text) or F.amounts(s.text)):
        w.parts.append(part_of("mutual", (w.context + s.text).strip(), w.clause, w.names))
        s.kind, w.context = ("amount" if F.amounts(s.text) else "period"), ""
    return False


_AS_IT_IS = re.compile(r"\b(?:stays?|remains?|as\s+it\s+is|unchanged|alone|untouched|leave|keep|same)\b", re.I)


def item_of_the_lawyers_list(w: Walk, s: Segment) -> bool:
    """Re-reads: "(i) English law": an item of the lawyer's list is an ask, even where no kind reads it; a part
    of its own (not checked), never folded into the part before it. Not a statement, a single word, or an item
    that keeps something as it is."""
    if s.kind is None and s.text in w.items and not STATEMENT.match(s.text) and len(s.text.split()) >= 2 and \
            not _AS_IT_IS.search(s.text):
        s.kind = "other"
    return False


def reason_or_aside(w: Walk, s: Segment) -> bool:
    """What asks nothing explains the part before it; before any part, it is context of the first."""
    if s.kind is not None:
        return False
    if w.parts:
        w.fold(s.text)
    else:
        w.context += s.text + " "
    return True


def mutual_ask_spelt_out(w: Walk, s: Segment) -> bool:
    """"Reciprocity, please. Any sublicence SIGA grants ... should need MMT's approval": what the other side
    should now owe, said after the mutual ask, is that ask spelt out, not a move."""
    if not (s.kind == "flip" and w.before_is("mutual") and not FLIP.search(s.text)):
        return False
    w.fold(s.text)
    return True


def more_of_the_same_ask(w: Walk, s: Segment) -> bool:
    """A second sentence of a kind that has no value of its own (shorter, plainer, mutual, the document's
    terms, a right moved) says more of the part before, not a second ask."""
    if not (s.kind in ("shorten", "plain", "mutual", "conform", "flip") and w.before_is(s.kind)):
        return False
    w.fold(s.text)
    return True


def a_new_part(w: Walk, s: Segment) -> bool:
    """Every other segment is an ask of its own, read with the context waiting for it."""
    w.parts.append(part_of(s.kind, (w.context + s.text).strip(), w.clause, w.names))
    w.context = ""
    return True
