"""What a template says to its drafter, not to the other side: notes to the drafter and rows
that are only blanks to fill in. Neither is a clause a lawyer would insert, so neither is
indexed as one.

* A note to the drafter ("[Drafting note: Select one option and delete the others.]",
  "[NTD: confirm with tax]", "<!-- Note: This sets what laws ... -->") leaves the clause text
  wherever it stands; a numbered clause that held one stays a clause without it.
* A cover-page row that carried such a note and, without it, is a menu of values to pick
  ("[ x ] {cap_multiplier}x the Fees paid ... / [ ] ${general_cap_amount}") holds no sentence
  of its own: the row goes. A row whose options are sentences ("[ ] To the extent the CCPA
  applies, the parties acknowledge ...") is a template's clause, which is precedent: it stays.
* A unit whose words are mostly fill-in fields ("Company: {customer_name} / Date: {date}") goes.
  A placeholder inside real text ("within {payment_terms_days} days after invoice") is not.
* What speaks to the template's user, not between the parties, goes (session 10: a new user's
  cap search got these as results 2-3, and the redraft prompt got them as precedents): a table's
  header row ("ID / Title / Link"), instructions to the drafter ("4. Delete all [informational
  text]."), a list of variables with only suggested values ("**General Cap Amount:** [[ 1x the
  fees ... ]]"), and a menu none of whose options is chosen whose options still have blanks
  ("[ ] ... Increased Cap Amount of $[_________]"). A menu with a chosen option, or whose options
  are whole sentences without blanks, is a template's clause and stays.

"[***]" and "[*]" are redactions in filed agreements (the text around them is real), never
placeholders here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Sequence

from index_builder.ingest.segment import Draft
# Notes and fields are read by the core's one template reader (reading/template.py); what leaves
# the index is decided here.
from index_builder.reading.template import (field_share, header_row, instruction_share, is_sentence,
                                            only_labels_and_suggestions, open_form, strip_notes)

# A unit goes when fill-in fields are at least this share of its fields and words.
MAX_FIELD_SHARE = 0.5
# A unit goes when at least this share of its sentences instruct the drafter ("Delete all ...").
MAX_INSTRUCTION_SHARE = 0.5


@dataclass
class LeftOut:
    """What one document's template text lost, for the build report."""

    notes: int = 0  # notes to the drafter taken out of clause text
    rows: Counter[str] = field(default_factory=Counter)  # units left out, by reason

    def note(self) -> str:
        parts = []
        if self.notes:
            parts.append(f"{self.notes} note{'s' if self.notes != 1 else ''} to the drafter")
        for reason, n in sorted(self.rows.items()):
            parts.append(f"{n} {reason}{'s' if n != 1 else ''}")
        return f"left out {', '.join(parts)} (template text, not clauses)" if parts else ""


def without_template_text(drafts: Sequence[Draft]) -> tuple[list[Draft], LeftOut]:
    """The drafts with notes to the drafter taken out and template-only rows left out."""
    left = LeftOut()
    kept = []
    for draft in drafts:
        cleaned, notes = _without_notes(draft)
        left.notes += notes
        reason = _template_only(cleaned, had_notes=notes > 0)
        if reason:
            left.rows[reason] += 1
        else:
            kept.append(cleaned)
    return kept, left


def _without_notes(draft: Draft) -> tuple[Draft | None, int]:
    parts, total = [], 0
    for part in draft.parts:
        text, n = strip_notes(part.text)
        total += n
        if text:
            parts.append(replace(part, text=text) if n else part)
    if not total:
        return draft, 0
    return (replace(draft, parts=tuple(parts)) if parts else None), total


def _template_only(draft: Draft | None, had_notes: bool) -> str:
    """Why a draft is template text and not a clause, "" when it is a clause."""
    if draft is None:
        return "drafting note"
    if had_notes and not draft.section and not any(is_sentence(p.text) for p in draft.parts):
        return "drafting-note row"
    if field_share(draft.text) >= MAX_FIELD_SHARE:
        return "placeholder row"
    cells = [p.text for p in draft.parts]
    if all(p.block.row_id for p in draft.parts) and header_row(cells):
        return "table header row"
    if instruction_share(draft.text) >= MAX_INSTRUCTION_SHARE:
        return "drafting instruction"
    if only_labels_and_suggestions(draft.text):
        return "suggested-value row"
    if open_form(draft.text.splitlines()):
        return "unchosen option menu"
    return ""
