"""Where one ask of a structured message ends: fields, numbered points, a chosen option, spoken punctuation.

Lawyers send asks in the shapes their work runs on: a closing-checklist row ("item 14 | Document: ... |
Action: ... | Comment: ..."), an issues table ("Issue | Position | Action"), a decision log ("Decision 1:
... Rationale: ... Owner: ..."), an options ladder ("Option A ... Option B ... -> B"), a dictation ("Point
one colon ... full stop"), a trade ("We give: ... We get: ..."), a decision path ("1. ... -> Go to 2.").
The shape says where each ask ends before any word of it is read, so each limb is a part of its own (read,
or unread on its own) rather than the whole message read as one unread part.

Fields that describe the row (Owner, Status, Responsible, Document, Rationale, Title, Use in, Issue) ask
nothing; an options ladder asks only for the option chosen; a step of a decision path that routes on ("Go
to 2") is reasoning. ``split`` returns the message with each limb labelled "(n)" and joined by "; ", the
form read_instruction already reads as the items of a lawyer's list; or the text unchanged where it has
none of these shapes.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from index_builder.reading.sentences import sentence_spans

from addin_server.draft.instruction_words import ASK

if TYPE_CHECKING:
    from addin_server.draft.instruction_model import Part

_NUMBER_WORD = r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)"
# Fields about the row or the decision, not what the clause should become ("Current": the clause as it stands).
_META = re.compile(r"^\s*(?:current|existing|now|as\s+is|original|owner|status|responsible|document|doc|rationale|reason|title|use\s+in|issue|topic|ref(?:erence)?|"
                   r"date|due|priority|source|file|matter|item|no\.?|#|card|impact|rating|requester|requested\s+by|clause|time(?:\s+entry)?|"
                   # Why and for whom, and what a tool worked out: the case for the ask, never the ask ("Objective:
                   # both logos sit side by side", "Audience: the brand teams", "Inputs: ... 8 weeks", "Result: ...").
                   r"objective|purpose|goal|aim|background|context|audience|inputs?|results?|outputs?|warning)(?:\s*[\w.-]*\d[\w.-]*)?\s*$|"
                   # The other side's stated position is the case, not the ask: "BP's position", "Customer's ask".
                   r"^\s*[A-Z][\w&.-]*(?:\s[A-Z][\w&.-]*)?['’]s?\s+(?:position|proposal|ask|request|view|markup|mark-up)\s*$",
                   re.I)
_LABELLED_FIELD = re.compile(r"^\s*([A-Za-z][\w ./#'’-]{0,30}?)\s*:\s*(.*)$", re.S)
# A point, decision or item of a log or a dictation, opening a line or a sentence.
_POINT = re.compile(rf"(?:^|(?<=[.!?:;]\s)|(?<=\n))\s*(?:point|decision|item|step|fix|sentence|ask|change)\s+{_NUMBER_WORD}\b\s*[:.\-–—]?\s*", re.I | re.M)
_TRADE = re.compile(r"(?:^|(?<=\n))\s*(?:[-•*–]\s*)?(?:we|they)\s+(?:give|get)\s*:\s*", re.I | re.M)
# Spoken punctuation, read only in dictation (two "full stop"s, or the word "dictation"): typed text says
# "insert a full stop after ..." as an ask, never as punctuation.
_SPOKEN = ((re.compile(r"\s*\bfull\s+stop\b", re.I), "."), (re.compile(r"\s+\bcomma\b", re.I), ","),
           (re.compile(r"\s+\bcolon\b", re.I), ":"), (re.compile(r"\s*\bnew\s+paragraph\b", re.I), ".\n"))
_OPTION = re.compile(r"\boption\s+([A-Z])\b\s*(?:\([^)]*\))?\s*[:.\-–—]?\s*", re.I)
_CHOSEN = re.compile(r"(?:->|→|=>)\s*(?:option\s+)?([A-Z])\b\.?|\boption\s+([A-Z])\s*\((?:chosen|agreed|preferred|selected)\)",
                     re.I)
_ROUTES_ON = re.compile(r"(?:->|→)?\s*\bgo\s+to\s+(?:step\s+)?\d+\b", re.I)


_ASK_WORD = re.compile(rf"\b(?:{ASK}|may|must|shall|should|please)\b", re.I)


def _dictated(text: str) -> str:
    if len(re.findall(r"\bfull\s+stop\b", text, re.I)) < 2 and not re.search(r"\bdictat\w*\b", text, re.I):
        return text
    for rx, mark in _SPOKEN:
        text = rx.sub(mark, text)
    text = re.sub(r"\.(?:\s*\.)+", ".", text)
    # "One comma the post-term tail ...": a dictated point's number, said at the start of a sentence.
    for a, _ in reversed(sentence_spans(text)):
        m = re.match(rf"({_NUMBER_WORD})\s*[,:]\s+", text[a:], re.I)
        if m:
            text = text[:a] + f"Point {m.group(1)}: " + text[a + m.end():]
    return text


def _chosen(limb: str) -> str:
    """An options ladder asks only for the option marked chosen; a limb with no ladder is itself."""
    options = list(_OPTION.finditer(limb))
    chosen = _CHOSEN.search(limb)
    if len(options) < 2 or not chosen:
        return limb
    letter = (chosen.group(1) or chosen.group(2)).upper()
    for i, m in enumerate(options):
        if m.group(1).upper() == letter:
            end = options[i + 1].start() if i + 1 < len(options) else len(limb)
            text = _CHOSEN.sub(" ", limb[m.end():end])
            # "Option C: B plus ...": the chosen option's own words, never a ladder's heading before it.
            return text.strip(" .;:-")
    return limb


def _fields(line: str, header: list[str] | None) -> list[str]:
    """The fields of one " | " row that carry an ask: metadata fields and labels dropped."""
    out = []
    cells = [c.strip() for c in line.split("|")]
    labelled = sum(bool(_LABELLED_FIELD.match(c)) for c in cells) >= 2
    for i, cell in enumerate(cells):
        label = header[i] if header and i < len(header) else ""
        m = _LABELLED_FIELD.match(cell)
        if labelled and not m and i == 0:
            continue  # "CLOSING CHECKLIST - item 14 | Document: ... | Action: ...": the row's name, no ask
        if not label and not m and len(cell.split()) <= 2 and not re.search(r"\d", cell):
            continue  # "Issue 14 | Assignment | ...": a topic's name, no ask
        if m and not label:
            label, cell = m.group(1), m.group(2)
        if label and _META.match(label) or not cell or _META.match(cell.split(" - ")[0]):
            continue
        out.append(cell)
    return out


def _rows(text: str) -> list[str] | None:
    """Each field of a table or a checklist row (" | " separated) that asks, or None where there are none."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not any(ln.count(" | ") >= 2 for ln in lines):
        return None
    out: list[str] = []
    header: list[str] | None = None
    for ln in lines:
        if ln.count(" | ") < 2:
            if _records(ln.strip()):
                continue  # "Issue: (1) ... is too soft": a field that says what the row is about, no ask
            if header is None and not out and not _ASK_WORD.search(re.sub(r"\b[A-Z][\w-]*", " ", ln)):
                # "State survey - restrictive covenants (rows for action only)": the table's title (its
                # capitalised words are its name: "State" names the survey, it asks nothing).
                continue
            out.append(ln.strip())
            continue
        cells = [c.strip() for c in ln.split("|")]
        if header is None and all(len(c.split()) <= 3 and not re.search(r"[:.;]", c) for c in cells):
            header = cells  # "Issue | Position | Action": the columns' names, no ask
            continue
        if header and any(_ACTION_COLUMN.match(h) for h in header):
            # "State | Form | Current rule | Group policy | Action": where a column is headed as the action, the
            # other columns say what the row is and why; only the action asks ("employment covers restraints of up
            # to eighteen months" is the rule as it stands, not an ask).
            out += [c for h, c in zip(header, cells) if c and _ACTION_COLUMN.match(h)]
            continue
        out += _fields(ln, header)
    return out


# A table's column headed as what to do: its cells are the asks of the row.
_ACTION_COLUMN = re.compile(r"^\s*(?:agreed\s+|required\s+|proposed\s+|next\s+)?(?:action|fix|change|ask|"
                            r"amendment|instruction|to\s+do)s?(?:\s+(?:required|needed|agreed))?\s*$", re.I)


_META_LINE = re.compile(r"(?:^|(?<=\n))[ \t]*(?:rationale|owner|status|responsible|title|use\s+in|reason|approved\s+by|"
                        r"prepared\s+by|reviewed\s+by|author|version|date|ref(?:erence)?)\s*:[^\n]*", re.I)
_META_LABEL = re.compile(r"\s*(?:rationale|owner|status|responsible|title|use\s+in|reason)\s*:", re.I)


def _without_metadata(text: str) -> str:
    """The text without its metadata lines ("Title: ...") and sentences ("Rationale: ... Owner: drafting.")."""
    text = _META_LINE.sub("", text)
    spans = [(a, b) for a, b in sentence_spans(text) if _META_LABEL.match(text[a:b])]
    for a, b in reversed(spans):
        text = text[:a] + " " + text[b:]
    return text


# A mark-up's place ("p. 14, l. 5 - handwritten insert ...") or a card's field ("Adaptation note: ..."), opening a line.
_PLACE = re.compile(r"(?:^|(?<=\n))\s*(?:p(?:age)?\.?\s*\d+\s*,?\s*)?(?:ll?\.|lines?)\s*\d+(?:\s*[-–]\s*\d+)?\s*[-–—:]\s*", re.I)
# (A card's field keeps its label: "Unchanged: the reasonableness standard" says what stays.)
_FIELD_LINE = re.compile(r"(?:^|(?<=\n))(?=\s*[A-Z][A-Za-z ]{0,24}:\s+\S)")


def _marks(text: str) -> list[re.Match[str]]:
    found = list(_POINT.finditer(text)) + list(_TRADE.finditer(text)) + list(_PLACE.finditer(text))
    if len(_FIELD_LINE.findall(text)) >= 2 and not found or len(_FIELD_LINE.findall(text)) == 1 and \
            not any(_META_LABEL.match(ln) for ln in text.splitlines()) and not found and text.count("\n") >= 2:  # a card of "Label: value" lines
        found = [m for m in _FIELD_LINE.finditer(text)]
    if _ROUTES_ON.search(text):  # a decision path's numbered steps: "1. ... -> Go to 2."
        found += list(re.finditer(r"(?:^|(?<=\n))\s*\d{1,2}[.)]\s+", text))
    return sorted(found, key=lambda m: m.start())


_ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "sixth": "6"}
# A later word that takes back a point of the lawyer's own list ("Update: ignore 2", "scrap point 3", "drop
# the second ask"): words that speak of the message, never of the clause ("delete (b)" may be the clause's (b)).
_WITHDRAWS = re.compile(r"\b(?:(?:ignore|disregard|forget|scrap|withdraw|cancel)\s+(?:my\s+|the\s+)?"
                        r"(?:(?:point|item|ask|request|no\.?|number)\s+)?|(?:drop|strike|delete|remove)\s+(?:my\s+|the\s+)?"
                        r"(?=(?:point|item|ask|request|no\.?|number)\s|(?:first|second|third|fourth|fifth|sixth)\s))"
                        r"(?:(?:point|item|ask|request|no\.?|number)\s+)?"
                        r"(?:\(?(\d{1,2}|[a-h]|i{1,3}|iv|v|vi)\)?(?![\w%])|(first|second|third|fourth|fifth|sixth)\s+"
                        r"(?:point|item|ask|request|one)\b)", re.I)
_ITEM_LINE = re.compile(r"^[ \t]*(?:point\s+)?\(?(\d{1,2}|[a-h]|i{1,3}|iv|v|vi)[.):][ \t]+\S[^\n]*(?:\n|$)", re.I | re.M)


def withdrawn(text: str) -> str:
    """The message without the points of its own list that a later line takes back ("ignore 2"), and
    without that line's words of taking back: a withdrawn point is no ask (later overrides earlier)."""
    items = {m.group(1).lower(): m for m in _ITEM_LINE.finditer(text)}
    if len(items) < 2:
        return text
    gone: list[tuple[int, int]] = []
    for w in _WITHDRAWS.finditer(text):
        label = (w.group(1) or _ORDINALS.get((w.group(2) or "").lower(), "")).lower()
        item = items.get(label)
        # Only a point said before the words that take it back, and never the line that takes it back.
        if item is None or item.end() > w.start():
            continue
        gone += [(item.start(), item.end()), (w.start(), w.end())]
    for a, b in sorted(gone, reverse=True):
        text = text[:a] + ("\n" if text[a:b].endswith("\n") else " ") + text[b:]
    return text


# A form's decision field that records the outcome ("Decision: APPROVED by the board"), not what to draft.
_OUTCOME = re.compile(r"\s*decision\s*:\s*(?:approved|agreed|accepted|rejected|declined|deferred|noted)\b", re.I)


def _records(limb: str) -> bool:
    """A form's field that names what it is (Impact, Status, Reference, Current, a decision's outcome): no ask."""
    m = _LABELLED_FIELD.match(limb)
    # ("Current: 30 months" stays: the figure as it stands is the old value of the field that proposes the new one.)
    return bool(_OUTCOME.match(limb) or m and _META.match(m.group(1)) and not _AS_IT_STANDS.match(m.group(1)))


_AS_IT_STANDS = re.compile(r"\s*(?:current|existing|now|as\s+is|original)\s*$", re.I)



def split(text: str) -> str:
    """The message with each ask of its structure labelled "(n)" and joined by "; " (see the module)."""
    text = _dictated(withdrawn(text))
    rows = _rows(text)
    if rows is not None:
        return _joined([(r, True) for r in rows])
    if len(_marks(text)) < 2:
        return text
    cleaned = _without_metadata(text)
    marks = _marks(cleaned)
    if not marks:
        return cleaned
    # A heading before the first limb ("DECISION LOG - assignment clause") asks nothing, unless it has words of asking.
    head = cleaned[:marks[0].start()]
    # (Capitals are a heading's name, not its ask: "TEMPLATE CHANGE LOG v4.2".)
    pieces: list[tuple[str, bool]] = [(head if _ASK_WORD.search(re.sub(r"\b[A-Z]{2,}\b", " ", head)) else "", False)]
    for i, m in enumerate(marks):
        stop = marks[i + 1].start() if i + 1 < len(marks) else len(cleaned)
        # A limb that opens a line ends with it: the line after, unmarked, is a sentence of its own.
        line_end = cleaned.find("\n", m.end(), stop)
        end = line_end if line_end >= 0 and "\n" in cleaned[max(0, m.start() - 1):m.end()] else stop
        if "\n" not in cleaned[max(0, m.start() - 1):m.end()] and m.start() > 0:
            end = stop
        limb = " ".join(cleaned[m.end():end].split())
        if _records(limb):
            limb = ""  # "Impact: delivery schedule only", "Decision: APPROVED by the board": what the form records
        if limb and not _ROUTES_ON.search(limb):  # "Does para 7 ... ? -> ... Go to 2.": a step of the path, no ask
            pieces.append((_chosen(limb), True))
        pieces.append((cleaned[end:stop], False))
    return _joined(pieces)


def _joined(pieces: list[tuple[str, bool]]) -> str:
    """Limbs as a lawyer's labelled list ("(1) ...; (2) ..."); words outside any limb stay unlabelled."""
    out, n = [], 0
    for text, limb in pieces:
        text = " ".join(text.split()).strip(" ;")
        if not text:
            continue
        if limb:
            n += 1
            text = f"({n}) {text}"
        out.append(text)
    return "; ".join(out)


def as_limb(part: "Part", items: set[str]) -> "Part":
    """An unread part that holds an item of the lawyer's list, with the item's words from its start
    (params "limb"): a heading or context before it names no ask of its own (parts_limbs.py)."""
    at = [part.text.find(i) for i in items if i and i in part.text] if part.kind == "other" else []
    if not at:
        return part
    return replace(part, params={**part.params, "limb": part.text[min(at):]})
