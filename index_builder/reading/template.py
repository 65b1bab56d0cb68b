"""Template text: what a template says to its drafter, not to the other side. The one reader of
notes to the drafter and fill-in fields; every caller asks it, with the option its job needs:

* ingest (ingest/template.py: what leaves the index) strips notes (``strip_notes``), measures
  fields (``field_share``) and asks whether a menu line reads as a sentence (``is_sentence``);
* figures (reading/figures.py ``mask``): ``blank(text, comments="all", brackets="capitalised")``:
  a figure never comes from a note, a field, a commented-out option ("<!-- ... 5x the fees -->")
  or a bracketed instruction ("[Number of days ... (commonly 60, 90, or 120 days)]");
* the segmenter (ingest/segment.py): ``remove(text, brackets="all", notes=False)``: the letters a unit holds
  besides its fill-ins, whatever is bracketed ("[Fill in state]", "[●]", "[***]" alike);
* the document reader (reading/document.py): ``blank(text, brackets="nested", keep_lines=True)``:
  a term the prose uses, not one inside a placeholder or a drafting note spanning paragraphs.

What each reading takes, always: notes to the drafter ("[Drafting note: ...]", "[NTD: ...]",
"(Note to draft: ...)", "<!-- Note: ... -->", "NTD: ..." as a paragraph of its own) and fill-in
fields ({customer_name}, ${cap}, [ ], [ x ], [ # ], ( ), ☐, [●], [___], $_____). What differs on
purpose is an option, not a second pattern:

* ``comments``: "notes" (only a comment that is a note) or "all" (any HTML comment of a markdown
  form: a commented-out option is no figure, but ingest keeps the clause text around it as it was);
* ``notes``: False leaves notes to the drafter in (the segmenter: ingest/template.py takes them
  out after it and reports them in the build's notes);
* ``brackets``: what else in square brackets (or braces) is template text: "none"; "capitalised"
  (a bracket opening on a capitalised word, "[Customer Name]", "[Insert date]": an instruction to
  the drafter; never "[***]", a redaction in a filed agreement, nor "[[...]]"); "all" (every
  bracket or brace pair, innermost, within a line); "nested" (every bracket and brace, nested and
  across lines: a drafting note of several paragraphs).

"[***]" and "[*]" are redactions in filed agreements (the text around them is real): only
``brackets="all"``/``"nested"`` take them, where only letters or uses are counted.
"""

from __future__ import annotations

import re
from typing import Literal

Comments = Literal["notes", "all"]
Brackets = Literal["none", "capitalised", "all", "nested"]

# A note's opening words, after "[", "(" or "<!--": what templates call a note to the drafter.
_NOTE_WORDS = (r"(?:drafting\s+notes?|notes?\s+to\s+(?:the\s+)?draft(?:er|ing|sman|sperson)?s?"
               r"|NTD|note|instructions?(?:\s+to\s+(?:the\s+)?drafter)?)")
# In parentheses only the unmistakable words: "(Note: the fiscal year ends ...)" is contract text.
_DRAFTER_WORDS = r"(?:drafting\s+notes?|notes?\s+to\s+(?:the\s+)?draft(?:er|ing)?s?|NTD)"
NOTE = re.compile(
    rf"\[\s*{_NOTE_WORDS}\s*[:\-\u2013\u2014][^\[\]]*\]"  # [Drafting note: ...]
    rf"|\(\s*{_DRAFTER_WORDS}\s*:[^()]*\)"  # (Note to draft: ...)
    rf"|<\s*!\s*-\s*-\s*{_NOTE_WORDS}\s*:.*?-\s*-\s*>"  # <!-- Note: ... --> (markdown forms)
    rf"|^\s*(?:NTD|notes?\s+to\s+draft(?:er)?)\s*:[^\n]*$",  # NTD: ... as a paragraph (a line) of its own
    re.IGNORECASE | re.DOTALL | re.MULTILINE)
# Fill-in fields and the boxes of an option menu; never "[***]" (a redaction). A field's closing
# bracket goes with it ("[{cap}]x": the "]" is the field's).
FIELD = re.compile(
    r"\$?\{[^{}]*\}\]?"  # {customer_name}, ${general_cap_amount}
    r"|\[\s*[xX\u2713\u2714#]?\s*\]|\(\s*[xX\u2713\u2714]?\s*\)"  # [ ], [ x ], [ # ], ( ), ( x )
    r"|[\u2610\u2611\u2612]"  # ballot boxes
    r"|\[\s*[\u25cf\u2022_.\u2026]+\s*\]|\$?_{3,}")  # [●], [___], $_______
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_CAPITALISED = re.compile(r"(?<!\[)\[(?!\[)(?:Drafting note|drafting note|[A-Z][a-z])[^\[\]]*\]")
_ANY_BRACKET = re.compile(r"\{[^{}]*\}|\[[^\[\]]*\]")


def spans(text: str, comments: Comments = "notes", brackets: Brackets = "none",
          notes: bool = True) -> list[tuple[int, int]]:
    """Where ``text`` holds template text, merged and in order."""
    found = [m.span() for pattern in _patterns(comments, brackets, notes) for m in pattern.finditer(text)]
    if brackets == "nested":
        found += _nested(text)
    merged: list[tuple[int, int]] = []
    for start, end in sorted(s for s in found if s[1] > s[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def blank(text: str, comments: Comments = "notes", brackets: Brackets = "none", keep_lines: bool = False) -> str:
    """``text`` with its template text blanked to spaces (same length: spans still hold);
    ``keep_lines`` keeps line breaks inside it (paragraphs stay paragraphs)."""
    out = list(text)
    for start, end in spans(text, comments, brackets):
        for i in range(start, end):
            if not (keep_lines and out[i] == "\n"):
                out[i] = " "
    return "".join(out)


def remove(text: str, comments: Comments = "notes", brackets: Brackets = "none", notes: bool = True) -> str:
    """``text`` without its template text (for counting what is left)."""
    taken = spans(text, comments, brackets, notes)
    if not taken:
        return text
    parts, at = [], 0
    for start, end in taken:
        parts.append(text[at:start])
        at = end
    return "".join(parts) + text[at:]


def strip_notes(text: str) -> tuple[str, int]:
    """``text`` without its notes to the drafter, and how many there were."""
    out, n = NOTE.subn("", text)
    return (re.sub(r"[ \t]{2,}", " ", out).strip() if n else text), n


_WORD = re.compile(r"[^\W_]{2,}")


def field_share(text: str) -> float:
    """Fill-in fields as a share of fields plus words outside them (0 for plain text)."""
    fields = len(FIELD.findall(text))
    words = len(_WORD.findall(FIELD.sub(" ", text)))
    return fields / (fields + words) if fields else 0.0


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


def is_sentence(line: str) -> bool:
    """Whether a line, its option box and fields aside, reads as a clause's sentence."""
    rest = FIELD.sub(" ", line).strip()
    words = len(_WORD.findall(rest))
    first = next((ch for ch in rest if ch.isalpha()), "")
    verb = bool(_CLAUSE_VERB.search(rest) or _SUBJECT_VERB.match(rest))
    sentence = words >= MIN_SENTENCE_WORDS and first.isupper() and rest.endswith((".", ";")) and verb
    binding = words >= MIN_BINDING_WORDS and bool(_CLAUSE_VERB.search(rest))
    return sentence or binding or words >= MIN_SCOPE_WORDS


def _patterns(comments: Comments, brackets: Brackets, notes: bool = True) -> list[re.Pattern[str]]:
    out = [NOTE, FIELD] if notes else [FIELD]
    if comments == "all":
        out.append(_COMMENT)
    if brackets == "capitalised":
        out.append(_CAPITALISED)
    elif brackets == "all":
        out.append(_ANY_BRACKET)
    return out


def _nested(text: str) -> list[tuple[int, int]]:
    """Every [ ] and { } pair, nested and across lines; an unclosed one runs to the end."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "[{":
            if not depth:
                start = i
            depth += 1
        elif ch in "]}" and depth:
            depth -= 1
            if not depth:
                out.append((start, i + 1))
    if depth:
        out.append((start, len(text)))
    return out
