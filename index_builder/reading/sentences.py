"""Sentences in contract prose, and the parts of a sentence that each say one thing.

Abbreviations and section numbers do not end a sentence, and citation markers right after a
full stop stay with the sentence they follow. A sentence's parts are what its semicolons and
its lettered or numbered list items separate ("(a) ...; (b) ..."): a lawyer writes one
obligation, right or limit to a part.
"""

from __future__ import annotations

import re

# Abbreviations whose full stop does not end a sentence in contract prose.
_ABBREVIATIONS = {"e.g", "i.e", "inc", "ltd", "co", "corp", "no", "nos", "sec", "secs", "art",
                  "para", "cl", "u.s", "u.k", "vs", "v", "etc", "mr", "ms", "dr", "st", "llc",
                  "cf", "ibid", "approx", "dept", "viz"}
_BOUNDARY = re.compile(r"[.!?][\"”’'»)\]]*(?:\s*(?:\[\d+\])+)?(?=\s|$)|\n\s*")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, whitespace trimmed, in order."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        if match.group(0)[0] == "." and _is_abbreviation(text, match.start()):
            continue
        if match.group(0).strip() and _continues(text, match.end()):
            continue  # "the fees paid ... before the claim": an ellipsis inside a sentence
        end = match.end() if match.group(0).strip() else match.start()
        spans.append((start, end))
        start = match.end()
    spans.append((start, len(text)))
    return [(a, b) for a, b in (_trim(text, s, e) for s, e in spans) if b > a]


def _continues(text: str, position: int) -> bool:
    following = re.match(r"\s*(\S)", text[position:])
    return bool(following and following.group(1).islower())


def _is_abbreviation(text: str, dot: int) -> bool:
    word = re.search(r"([A-Za-z.]+|\d+)$", text[:dot])
    if not word:
        return False
    # Only known abbreviations: "as set out in Section 12." and "Exhibit A." end sentences.
    return word.group(1).lower() in _ABBREVIATIONS


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


_PART_BREAK = re.compile(r";\s*(?:and\s+|or\s+)?|\n\s*(?=(?:\(?[a-z0-9ivx]{1,4}[.)]\s))")


def part_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each part of each sentence: split at semicolons and list items, never
    inside brackets."""
    out: list[tuple[int, int]] = []
    for start, end in sentence_spans(text):
        depth, last = 0, start
        i = start
        while i < end:
            ch = text[i]
            depth += ch in "(["
            depth -= ch in ")]" and depth > 0
            if depth == 0 and ch in ";\n":
                m = _PART_BREAK.match(text, i)
                if m and m.end() > i:
                    out.append((last, i))
                    last = m.end()
                    i = m.end()
                    continue
            i += 1
        out.append((last, end))
    return [(a, b) for a, b in (_trim(text, s, e) for s, e in out) if b > a]
