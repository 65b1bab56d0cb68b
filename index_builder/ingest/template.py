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

"[***]" and "[*]" are redactions in filed agreements (the text around them is real), never
placeholders here.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Sequence

from index_builder.ingest.segment import Draft

# A note's opening words, after "[", "(" or "<!--": what templates call a note to the drafter.
_NOTE_WORDS = (r"(?:drafting\s+notes?|notes?\s+to\s+(?:the\s+)?draft(?:er|ing|sman|sperson)?s?"
               r"|NTD|note|instructions?(?:\s+to\s+(?:the\s+)?drafter)?)")
# In parentheses only the unmistakable words: "(Note: the fiscal year ends ...)" is contract text.
_DRAFTER_WORDS = r"(?:drafting\s+notes?|notes?\s+to\s+(?:the\s+)?draft(?:er|ing)?s?|NTD)"
_NOTE = re.compile(
    rf"\[\s*{_NOTE_WORDS}\s*[:\-\u2013\u2014][^\[\]]*\]"  # [Drafting note: ...]
    rf"|\(\s*{_DRAFTER_WORDS}\s*:[^()]*\)"  # (Note to draft: ...)
    rf"|<\s*!\s*-\s*-\s*{_NOTE_WORDS}\s*:.*?-\s*-\s*>"  # <!-- Note: ... --> (markdown forms)
    rf"|^\s*(?:NTD|notes?\s+to\s+draft(?:er)?)\s*:.*$",  # NTD: ... as a paragraph of its own
    re.IGNORECASE | re.DOTALL)
# Fill-in fields and the boxes of an option menu; never "[***]" (a redaction).
_FIELD = re.compile(
    r"\$?\{[^{}]*\}"  # {customer_name}, ${general_cap_amount}
    r"|\[\s*[xX\u2713\u2714#]?\s*\]|\(\s*[xX\u2713\u2714]?\s*\)"  # [ ], [ x ], [ # ], ( ), ( x )
    r"|[\u2610\u2611\u2612]"  # ballot boxes
    r"|\[\s*[\u25cf\u2022_.\u2026]+\s*\]|\$?_{3,}")  # [●], [___], $_______
_WORD = re.compile(r"[^\W_]{2,}")
# A line of the contract's own: a sentence ("Customer owns Deliverables as they are created.":
# a verb after its subject or a verb that binds; "The greater of $X or 2x the fees ..." is none),
# words that bind ("Provider will ..."), or a long scope of words ("Any action, proceeding, or
# claim that ... infringes ..."). A menu's values are none of these: "{cap_multiplier}x the
# Fees paid ... before the claim" (lower case once the field is out), "Breach of Section 11".
_CLAUSE_VERB = re.compile(r"\b(?:will|shall|may|must|is|are|agrees?|acknowledges?|means)\b",
                          re.IGNORECASE)
_SUBJECT_VERB = re.compile(r"^[^A-Za-z]*[A-Z][\w-]*\s+[a-z]+s\b")  # "Provider maintains PHI ..."
MIN_SENTENCE_WORDS = 6
MIN_BINDING_WORDS = 12
MIN_SCOPE_WORDS = 25
# A unit goes when fill-in fields are at least this share of its fields and words.
MAX_FIELD_SHARE = 0.5


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


def strip_notes(text: str) -> tuple[str, int]:
    """``text`` without its notes to the drafter, and how many there were."""
    out, n = _NOTE.subn("", text)
    return (re.sub(r"[ \t]{2,}", " ", out).strip() if n else text), n


def field_share(text: str) -> float:
    """Fill-in fields as a share of fields plus words outside them (0 for plain text)."""
    fields = len(_FIELD.findall(text))
    words = len(_WORD.findall(_FIELD.sub(" ", text)))
    return fields / (fields + words) if fields else 0.0


def is_sentence(line: str) -> bool:
    """Whether a line, its option box and fields aside, reads as a clause's sentence."""
    rest = _FIELD.sub(" ", line).strip()
    words = len(_WORD.findall(rest))
    first = next((ch for ch in rest if ch.isalpha()), "")
    verb = bool(_CLAUSE_VERB.search(rest) or _SUBJECT_VERB.match(rest))
    sentence = words >= MIN_SENTENCE_WORDS and first.isupper() and rest.endswith((".", ";")) and verb
    binding = words >= MIN_BINDING_WORDS and bool(_CLAUSE_VERB.search(rest))
    return sentence or binding or words >= MIN_SCOPE_WORDS


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
    return ""
