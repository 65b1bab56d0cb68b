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

Here: ``read_instruction``, which walks the segments and decides which are asks, which join the part
before and which are context. Along the data path: the message is cut into segments in
instruction_segments.py; each segment's kind is read in instruction_kinds.py (which segments ask nothing
in instruction_asks.py); a part is made from its words in instruction_part.py (its values from
instruction_values.py, its scope from instruction_scope.py, new against old figure in instruction_moves.py);
figures read across the parts in instruction_figures.py; the length the draft is held to in
instruction_length.py; all from the vocabulary in instruction_words.py. The model (``Instruction``,
``Part``) is in instruction_model.py and importable from here, as callers always have.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

from index_builder.reading import binding
from index_builder.reading import figures as F

# Which segments are asks (session 11): logistics, statements, a figure said again, a counter, a case made.
from addin_server.draft.instruction_asks import (about_the_draft, asks_nothing_after_so, countered, describes_the_clause,
                                                 log_entry, not_an_ask, reason_under_heading, reported, restates_figure)
from addin_server.draft import instruction_lines as lines  # lines and quotations cut before reading (session 13)
from addin_server.draft import instruction_limbs as limbs  # a structured message's asks, limb by limb (session 11)
from addin_server.draft import instruction_named as named  # names swapped, words said to go (session 12)
from addin_server.draft.instruction_figures import JUDGED, restated_as_old, said_twice, unread_asks
from addin_server.draft.instruction_kinds import kind_of, move_of_nothing, restated_out
from addin_server.draft.instruction_length import length_of, only_length
# The model, importable from here as callers always have.
from addin_server.draft.instruction_model import KINDS, OPERABLE, Instruction, Part
from addin_server.draft.instruction_moves import FALLBACK_LEAD as _FALLBACK_LEAD
from addin_server.draft.instruction_moves import settle
from addin_server.draft.instruction_part import countered_part, figure_value, part_of, said_again, with_text
from addin_server.draft.instruction_segments import NUMBER, item_leads, labelled, message_text, segments_of
from addin_server.draft.instruction_values import recorded_figures
from addin_server.draft.instruction_words import (BARE_NUMBER, BOTH_ASK, FLIP, FOREIGN, MODIFIER, NON_LATIN, PRECEDENT_REF,
                                                  SOURCE, STATEMENT, SUBJECT)

__all__ = ["KINDS", "OPERABLE", "Instruction", "Part", "read_instruction"]


def read_instruction(instruction: str, clause: str = "", parties: Sequence[str] = ()) -> Instruction:
    """The parts an instruction asks for, read against the clause and the document's parties."""
    text = message_text(instruction, clause)
    if not text:
        return Instruction("")
    if FOREIGN.search(text) or len(NON_LATIN.findall(text)) > 2:
        return Instruction(text, problems=("language",), reason=(
            "The instruction does not seem to be in English, so no drafting operation can read it; the "
            "drafting assistant was asked instead, and the checks cannot tell whether it did what you asked."))
    names = binding.party_names(clause + "\n" + text, parties)
    parts: list[Part] = []
    context = judged_before = quoted_before = ""
    items = labelled(text)
    leads = item_leads(instruction)
    segments = segments_of(text)
    # Words quoted (a side letter, a regulator's comment) are what was said, not this message's ask, where
    # the lawyer's own words after them ask a kind ("fold this in as an exception for TDA"); where those only
    # point back ("Please build both into 4.3", "Our client accepts all three"), the quotation is the ask.
    as_context = lines.context_quotes(segments, lambda s: kind_of(s) not in (None, "other"))
    after_quote = lines.after_asks_quoted(segments, as_context)
    for segment, is_context, answers in zip(segments, as_context, after_quote):
        if parts and only_length(segment) and kind_of(segment) in (None, "other", "shorten"):
            # "keep it under 40 words": the length the whole draft is held to (Instruction.length), read
            # by the length check; never words of the part before it, whose figure it is not.
            continue
        if parts and MODIFIER.match(segment):  # "leave the first alone", "keep the caps on Galaxy"
            parts[-1] = with_text(parts[-1], parts[-1].text + "; " + segment, clause, names)
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
        if kind in ("period", "amount") and not JUDGED.match(segment) and describes_the_clause(segment, clause):
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
            parts[-1] = part_of(kind, joined, clause, names)
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
            parts[-1] = countered_part(parts[-1], segment, counter, clause, names)
            continue
        judged = JUDGED.match(segment)
        if judged and kind in ("period", "amount") and not (parts and parts[-1].kind == kind):
            # "Ten Business Days' notice isn't enough; please make it thirty days": the figure judged is
            # the clause's, said before the ask; it is read after the ask's own figure (the old value).
            judged_before += "; " + segment
            continue
        if judged_before and kind in (None, "other"):
            # "180 days' notice ... makes no sense. Ninety, worded like [1]": a bare number after a judged
            # figure is the value asked, in that figure's unit.
            bare = re.match(rf"^\s*(?:(?:make|set)\s+it\s+|say\s+|so\s+)?({NUMBER})\b(?!\s*(?:%|per\s*cent|[-\s](?:business|"
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
                parts[-1].kind in ("period", "amount") and (BARE_NUMBER.search(segment) or said_again(segment, parts[-1])
                                                             or restates_figure(segment, figure_value(parts[-1]))))):
            # "we must be able to move this into a group company": why the part before is asked;
            # "bring it down to 30" after "... longer than 30 days": the same figure said again.
            parts[-1] = with_text(parts[-1], parts[-1].text + (" - " if SUBJECT.match(segment) else " ") + segment,
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
            parts[-1] = with_text(parts[-1], parts[-1].text + "; " + segment, clause, names)
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
            parts.append(part_of("mutual", (context + segment).strip(), clause, names))
            kind, context = ("amount" if F.amounts(segment) else "period"), ""
        if kind is None and segment in items and not STATEMENT.match(segment) and len(segment.split()) >= 2 and \
                not re.search(r"\b(?:stays?|remains?|as\s+it\s+is|unchanged|alone|untouched|leave|keep|same)\b", segment, re.I):
            # "(i) English law": an item of the lawyer's list is an ask, even where no kind reads it;
            # a part of its own (not checked), never folded into the part before it.
            kind = "other"
        if kind is None:
            if parts:  # a reason or an aside: it explains the part before it
                parts[-1] = with_text(parts[-1], parts[-1].text + " " + segment, clause, names)
            else:
                context += segment + " "
            continue
        if parts and parts[-1].kind == "mutual" and kind == "flip" and not FLIP.search(segment):
            # "Reciprocity, please. Any sublicence SIGA grants ... should need MMT's approval": what the
            # other side should now owe, said after the mutual ask, is that ask spelt out, not a move.
            parts[-1] = with_text(parts[-1], parts[-1].text + " " + segment, clause, names)
            continue
        if parts and parts[-1].kind == kind and kind in ("shorten", "plain", "mutual", "conform", "flip"):
            parts[-1] = with_text(parts[-1], parts[-1].text + " " + segment, clause, names)
            continue
        parts.append(part_of(kind, (context + segment).strip(), clause, names))
        context = ""
    if context.strip() and not parts:
        parts.append(Part("other", context.strip()))
    parts = [limbs.as_limb(p, items) for p in parts]
    parts = named.renames_read_as_moves(parts, clause, parties)  # swaps of names, never rights moved
    parts = restated_as_old(parts, clause, names)
    parts = said_twice(parts, clause, names)
    unread = unread_asks(text, parts, clause)
    if unread:
        # Every ask is read or said unread: a figure no part takes is an ask the reading missed, left to
        # the drafting assistant and never checked as done (unambiguous.py).
        parts.append(Part("other", unread))
    problem = _contradiction(text, parts)
    if problem:
        return Instruction(text, tuple(parts), ("contradictory",), problem)
    return Instruction(text, tuple(parts), length=length_of(text, parts))


def _contradiction(text: str, parts: Sequence[Part]) -> str:
    kinds = {p.kind for p in parts}
    # ("It is one-sided." is the complaint, not the ask: what describes the clause as it stands asks nothing.)
    text = " ; ".join(seg for seg in segments_of(text) if not describes_the_clause(seg))
    if "mutual" in kinds and re.search(r"\b(?:one[- ]sided|unilateral)\b|\bonly (?:binds?|binding|applies to|"
                                       r"apply to|protects?) (?:the )?[A-Z]", text):
        return ("Your instruction asks for the clause to be both mutual and one-sided; say which you want. "
                "Nothing was changed.")
    if "shorten" in kinds and re.search(r"(?<!\bno\s)\b(?:longer|expand|more detail|elaborate|lengthen)\b(?!\s+than)", text, re.I):
        return ("Your instruction asks for the clause to be both shorter and longer; say which you want. "
                "Nothing was changed.")
    return ""
