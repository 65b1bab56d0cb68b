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

Here: ``read_instruction``, which walks the segments through ``RULES``, the named rules (in
instruction_walk.py) that decide, in order, which segments are asks, which join the part before and which
are context; then reads the parts across the message (limbs, names swapped, figures said twice, asks left
unread, a contradiction). Along the data path: the message is cut into segments in
instruction_segments.py; each segment's kind is read in instruction_kinds.py (which segments ask nothing
in instruction_asks.py); a part is made from its words in instruction_part.py (its values from
instruction_values.py, its scope from instruction_scope.py, new against old figure in instruction_moves.py);
figures read across the parts in instruction_figures.py; the length the draft is held to in
instruction_length.py; all from the vocabulary in instruction_words.py. The model (``Instruction``,
``Part``) is in instruction_model.py and importable from here, as callers always have.
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import binding

from addin_server.draft import instruction_lines as lines  # lines and quotations cut before reading (session 13)
from addin_server.draft import instruction_limbs as limbs  # a structured message's asks, limb by limb (session 11)
from addin_server.draft import instruction_named as named  # names swapped, words said to go (session 12)
from addin_server.draft import instruction_walk as rule
from addin_server.draft.instruction_asks import describes_the_clause
from addin_server.draft.instruction_figures import restated_as_old, said_twice, unread_asks
from addin_server.draft.instruction_kinds import kind_of
from addin_server.draft.instruction_length import length_of
# The model, importable from here as callers always have.
from addin_server.draft.instruction_model import KINDS, OPERABLE, Instruction, Part
from addin_server.draft.instruction_segments import item_leads, labelled, message_text, segments_of
from addin_server.draft.instruction_walk import Segment, Walk
from addin_server.draft.instruction_words import FOREIGN, NON_LATIN

__all__ = ["KINDS", "OPERABLE", "Instruction", "Part", "read_instruction"]

# The rules each segment is walked through, in this order (the order matters: each rule is written for the
# segments the rules before it leave). A rule that *places* the segment ends its walk; one that *re-reads*
# it (its kind or its words) passes it on. Each rule's docstring, in instruction_walk.py, says the shape of
# message it handles and why.
RULES: tuple[rule.Rule, ...] = (
    # Before the kind is read: segments that are never an ask of their own.
    rule.length_of_the_whole_draft,         # places: "keep it under 40 words" is Instruction.length
    rule.modifier_of_the_part_before,       # places: "leave the first alone" joins the part before
    rule.entry_of_a_log,                    # places: "14 March: warehouse confirms ..." asks nothing
    rule.quoted_as_context,                 # places: words quoted wait for the ask that answers them
    rule.ask_pointing_back_to_a_quotation,  # re-reads: "fold this in" takes the quotation as context
    rule.read_kind,                         # re-reads: the segment's kind
    # What looks like an ask and is not.
    rule.figure_recording_the_work,         # re-reads: "Time entry, 0.2 hours: ..."
    rule.words_replaced_of_no_party,        # re-reads: "certificates, not full policies" moves no right
    rule.what_follows_from_a_case,          # re-reads: "..., so no action on those"
    rule.figure_as_it_stands,               # re-reads: "In this clause the window is thirty days"
    rule.reason_under_a_heading,            # re-reads: "Note for the file: We fought ... and lost"
    rule.order_to_do_what_was_quoted,       # places: "Please build both into 4.3" joins the quotation
    rule.what_to_do_with_the_draft,         # places: "have the draft ready to share on screen"
    rule.statement_of_fact,                 # re-reads: "Audit finding L-07: ... too little time"
    rule.statement_opening_a_list_item,     # places: context of that item's ask
    # Figures said more than once: the clause's, theirs, a counter, a fallback.
    rule.counter_to_their_figure,           # places: "We'll meet them at 5" is the ask
    rule.note_figure_judged,                # re-reads: "... isn't enough", "... is market"
    rule.figure_judged_before_its_ask,      # places: waits, to be the old value of the ask after
    rule.bare_number_after_a_judged_figure,  # re-reads: "Ninety" in the judged figure's unit
    rule.judged_figure_joins_its_ask,       # re-reads: the judged figure added to the ask's words
    rule.why_the_part_before_is_asked,      # places: "we must be able to move this ..." joins it
    rule.same_figure_said_again,            # places: "bring it down to 30" joins the figure part
    rule.condition_of_the_ask_after,        # places: "If the aggregate is less than ...," is context
    rule.where_the_words_come_from,         # places: "Lift the wording from [1]" joins the part before
    rule.fallback_value,                    # places: "if not, 60" joins the figure part
    rule.second_figure_judged,              # places: "six months is too long" is the old value
    # The asks.
    rule.both_sides_and_a_figure,           # re-reads: a mutual part made, the rest a figure's ask
    rule.item_of_the_lawyers_list,          # re-reads: "(i) English law" is an ask
    rule.reason_or_aside,                   # places: what asks nothing explains the part before
    rule.mutual_ask_spelt_out,              # places: "Reciprocity, please. Any sublicence ..."
    rule.more_of_the_same_ask,              # places: a second sentence of the same valueless kind
    rule.a_new_part,                        # places: an ask of its own
)


def read_instruction(instruction: str, clause: str = "", parties: Sequence[str] = ()) -> Instruction:
    """The parts an instruction asks for, read against the clause and the document's parties."""
    text = message_text(instruction, clause)
    if not text:
        return Instruction("")
    if FOREIGN.search(text) or len(NON_LATIN.findall(text)) > 2:
        return Instruction(text, problems=("language",), reason=(
            "The instruction does not seem to be in English, so no drafting operation can read it; the "
            "drafting assistant was asked instead, and the checks cannot tell whether it did what you asked."))
    items = labelled(text)
    walk = Walk(clause, binding.party_names(clause + "\n" + text, parties), items, item_leads(instruction))
    segments = segments_of(text)
    # Words quoted are context of the lawyer's own ask after them where it asks a kind of its own; where the
    # lawyer's words only point back ("Please build both into 4.3"), the quotation is the ask.
    as_context = lines.context_quotes(segments, lambda s: kind_of(s) not in (None, "other"))
    after_quote = lines.after_asks_quoted(segments, as_context)
    for words, is_context, answers in zip(segments, as_context, after_quote):
        segment = Segment(words, is_context, answers)
        for a_rule in RULES:
            if a_rule(walk, segment):
                break  # placed
    parts = walk.parts
    if walk.context.strip() and not parts:
        parts.append(Part("other", walk.context.strip()))
    parts = [limbs.as_limb(p, items) for p in parts]
    parts = named.renames_read_as_moves(parts, clause, parties)  # swaps of names, never rights moved
    parts = restated_as_old(parts, clause, walk.names)
    parts = said_twice(parts, clause, walk.names)
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
