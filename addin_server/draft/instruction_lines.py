"""Where a lawyer's message breaks before any word of it is read: its lines, and the words it quotes.

A line break is where a message breaks: a heading ("Chronology - sell-off period"), a field ("Requester:
K. Brandt"), a log's entry, a quoted letter's paragraph, the lawyer's own line after it. Joined into one
run of words, a heading with no full stop becomes the first words of the sentence below it and a quoted
paragraph's last sentence runs into the ask after it ('... void." Client's instruction: fine, give ...').
``cut_at_lines`` ends a segment at every line break that ends a line, unless the line plainly runs on
(a hard-wrapped sentence: it ends on a comma, a colon, a joining word, or the next line opens in lower
case).

A message that quotes another's words (a side letter, a regulator's comment, a client's e-mail) before
or after its own ask: the quotation is what was said, not the ask of this message, and words of the
label before it ("countersigned by both sides") are no kind of ask. ``context_quotes`` says which
segments are only words quoted (or a label and a quotation) that the lawyer's own words after them answer
with an ask of its own kind: those are context of that ask.
"""

from __future__ import annotations

import re
from typing import Callable

# A line that runs on into the next: it ends on a comma, a colon, a dash, an opening bracket, or a word that
# joins (a hard-wrapped sentence), or the next line opens in lower case.
_RUNS_ON = re.compile(r"(?:[,:(\[–—-]|\b(?:and|or|but|the|a|an|of|to|in|on|for|with|by|from|that|which|is|are|be|as|at|"
                      r"than|not|any|its|their|our|your|this|these|those|if|so|nor)\b)\s*$", re.I)
# A line that already ends its sentence: the sentence splitter cuts there.
_ENDED = re.compile(r"[.?!;]\s*$")
# The next line opens as a new sentence, field, item or quotation.
_OPENS = re.compile(r"^\s*(?:[A-Z0-9\"“‘'(\[@#*•]|-\s)")


def cut_at_lines(text: str) -> str:
    """The text with each line break that ends a line marked as a segment's end ("; ")."""
    lines = text.split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        before = out[-1]
        if before.strip() and line.strip() and not _ENDED.search(before) and not _RUNS_ON.search(before) \
                and _OPENS.match(line):
            out[-1] = before.rstrip() + ";"
        out.append(line)
    return "\n".join(out)


def quoted_only(segments: list[str]) -> list[bool]:
    """For each segment, whether it is only words quoted (a sentence of a quotation, or a label and a
    quotation: 'Side letter, paragraph 2 (...): "The parties confirm ...'), read across segments, since the
    sentence splitter cuts inside a quotation of several sentences. Single quotes count where they can
    only be quotation marks (``_single_quote``), never an apostrophe ("the Licensee's", "the Notes' term")."""
    out, inside = [], ""
    for seg in segments:
        outside, quoted, first_open = [], 0, None
        for i, ch in enumerate(seg):
            mark = ch if ch in "\"“”" and inside != "'" else _single_quote(seg, i, inside)
            if mark:
                inside = "" if mark in "”’" or mark == inside else ("'" if mark in "'‘" else '"')
                if inside and first_open is None and not quoted:
                    first_open = i
                continue
            if inside:
                quoted += 1
            else:
                outside.append((i, ch))
        words_out = [i for i, ch in outside if ch.isalnum()]
        label = first_open is not None and seg[:first_open].rstrip().endswith(":")
        out.append(quoted >= 12 and (not words_out or label and all(i < first_open for i in words_out)))
    return out


def _single_quote(seg: str, i: int, inside: str) -> str:
    """The quotation mark a single quote is, or "": it opens a quotation where it stands after a space, a
    colon or a bracket and before a word ("report: '4.3 Zanotti's ..."), and closes one it opened where it
    follows the end of a sentence or a word and ends the words (".'", "... free to file'."); an apostrophe
    inside a word ("Zanotti's") or after a plural before more words ("the Notes' term") is neither."""
    ch = seg[i]
    if ch not in "'‘’" or inside == '"':
        return ""
    before, after = seg[i - 1] if i else " ", seg[i + 1] if i + 1 < len(seg) else " "
    if not inside:
        return "'" if ch in "'‘" and before in " \t([:—–-" and after.isalnum() else ""
    if before in ".?!,;" or (before.isalnum() and after in " .,;:?!)" and not after.isspace()) \
            or (before.isalnum() and i + 1 == len(seg)):
        return "’"
    return ""


def context_quotes(segments: list[str], asks_a_kind: Callable[[str], bool]) -> list[bool]:
    """For each segment, whether it is words quoted that the lawyer's own next segment answers with an ask of
    its own kind: context of that ask, never a kind asked. A quotation the lawyer's words only point back to
    ("give them that"), or that ends the message, is read as before."""
    quoted = quoted_only(segments)
    out = [False] * len(segments)
    for i, q in enumerate(quoted):
        if not q:
            continue
        after = next((s for s, q2 in zip(segments[i + 1:], quoted[i + 1:]) if not q2), None)
        out[i] = after is not None and asks_a_kind(after)
    return out


# The lawyer's words that point back to what was quoted: "both", "all three", "it", "that", "the answer", or the
# quoted paper named as the source of the ask ("as the report proposes", "what the agency's comment asks").
_POINTS_BACK = re.compile(r"\b(?:both|all\s+(?:two|three|four|five|of\s+them|these|those)|them|these|those|it|that|this|"
                          r"the\s+(?:answer|response|changes?|points?|asks?|requests?|conditions?|comments?)|"
                          r"(?:as|what|per)\s+the\s+(?:\w+['’]s?\s+)?(?:report|letter|memo|note|e-?mail|comment|finding|minutes|"
                          r"resolution|reply|markup|proposal|review)\s+(?:proposes?|asks?|says?|suggests?|recommends?|wants?))\b", re.I)


def points_back(segment: str) -> bool:
    return bool(_POINTS_BACK.search(segment))


def after_asks_quoted(segments: list[str], as_context: list[bool]) -> list[bool]:
    """For each segment, whether it comes straight after words quoted that are read as asks (not context)."""
    quoted = quoted_only(segments)
    return [i > 0 and quoted[i - 1] and not as_context[i - 1] and not quoted[i] for i in range(len(segments))]


# A quotation of another's words, not a phrase quoted from the clause ("keep 'thirty (30) days'"): 40 or more
# characters between double quotes.
_QUOTATION = re.compile(r"[\"“]([^\"“”]{40,})[\"”]")


def quotation_spans(text: str) -> list[tuple[int, int]]:
    """Where the text quotes another's words at length (a scorer's note, a client's e-mail)."""
    return [(m.start(), m.end()) for m in _QUOTATION.finditer(text)]
