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


# -- text that speaks to the template's user, not between the parties -----------------------------

# A sentence that tells the reader to prepare the document: an imperative verb of editing it,
# after its list number and at most one opening phrase ("If they apply, customize ...", "Once
# completed, remove ..."). Contracts bind their parties in the third person ("Customer will
# review ..."); a subjectless "Delete all [informational text]." is addressed to the drafter.
_EDITING_VERBS = (r"review|fill|delete|remove|insert|replace|select|choose|complete|customi[sz]e|"
                  r"send|enter|edit|tick|print|copy|paste|update")
_INSTRUCTION = re.compile(
    r"^[\s(]*(?:\d{1,2}[.)]|[a-z][.)])?\s*"  # "4.", "(b)"
    r"(?:(?:if|once|to|when|after|before|where)\b[^,.;]{0,80},\s*)?(?:please\s+)?"
    rf"(?:{_EDITING_VERBS})\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def instruction_share(text: str) -> float:
    """The share of a unit's sentences that instruct its drafter ("Delete all [informational
    text].", "Review each variable on the Cover Page and fill in your details.")."""
    sentences = [s for s in _SENTENCE_END.split(text) if _WORD.search(s)]
    if not sentences:
        return 0.0
    return sum(bool(_INSTRUCTION.match(s)) for s in sentences) / len(sentences)


# A suggested value the template's user is to customise ("[[ 1x the fees paid ... ]]": the
# click-through's own instructions say to "customize the [[ double bracketed fields ]]").
SUGGESTION = re.compile(r"\[\[.*?\]\]", re.DOTALL)
_LABEL_LINE = re.compile(r"^[\s*_#]*(?:[A-Z][\w’'()-]*\s*){1,6}:?[\s*_]*$")  # "**Covered Claims:**", "*Key Terms*"


def only_labels_and_suggestions(text: str) -> bool:
    """Whether a unit holds only labels, suggested values ([[...]]) and comments: a variable
    list of a template, which states nothing the parties agreed."""
    if not SUGGESTION.search(text):
        return False
    rest = _COMMENT.sub(" ", SUGGESTION.sub(" ", FIELD.sub(" ", text)))
    return all(_LABEL_LINE.match(line) for line in rest.splitlines() if line.strip())


_BOX = re.compile(r"^\s*(?:\[\s*[xX\u2713\u2714#]?\s*\]|\(\s*[xX\u2713\u2714]?\s*\)|[\u2610\u2611\u2612])")
_CHOSEN = re.compile(r"^\s*(?:\[\s*[xX\u2713\u2714]\s*\]|\(\s*[xX\u2713\u2714]\s*\)|[\u2611\u2612])")


def open_form(lines: list[str]) -> bool:
    """Whether a unit is a menu of options none of which is chosen, whose options still have
    blanks in their own words ("[ ] ... a separate Increased Cap Amount of $[_________]"): a form
    to fill, not a clause. A menu with a chosen option ("[ x ] Provider will ...") states the
    template's choice, and a unit with a whole sentence beside its menu, blanks aside, stays."""
    options = [line for line in lines if _BOX.match(line)]
    if not options or any(_CHOSEN.match(line) for line in options):
        return False
    if any(is_sentence(line) and not FIELD.search(line) for line in lines if not _BOX.match(line)):
        return False  # a whole sentence beside the menu ("Provider will Process ... as instructed in ...") is agreed text
    return any(FIELD.search(_BOX.sub("", line)) for line in options)


def header_row(cells: list[str]) -> bool:
    """Whether a table row's cells are all short labels with no value ("ID / Title / Link",
    "Name / Organization / Role"): a header names columns and says nothing. A row with a figure
    ("Duration / 24 months") or a sentence holds a term and stays."""
    rest = [FIELD.sub(" ", cell).strip() for cell in cells]
    words = [len(_WORD.findall(cell)) for cell in rest]
    return len(cells) >= 2 and all(n <= 3 for n in words) and not any(re.search(r"\d", c) for c in rest) \
        and not any(is_sentence(cell) for cell in cells)
