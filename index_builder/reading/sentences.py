"""Sentences in contract prose, and the parts of a sentence that each say one thing.

The one sentence splitter of the tree (search's matching spans, the drafting checks and
operations, the benchmarks all split here). A sentence ends at ". ! ?" (closing quotes or
brackets, and citation markers such as "[2]" right after the full stop, stay with it) before
whitespace, or at a line break; but not:

* after an abbreviation ("e.g.", "Inc.", "No.", "Jan.") or dotted initials ("U.S.C.", "A. M. Best");
* after a clause number or list label that starts the sentence ("8. INDEMNIFICATION.",
  "SECTION 9. Indemnification", "a. ...", "(ii) ...") or follows a colon ("statements: a. ...");
* before a word in lower case ("the fees paid ... before the claim"); nor at a line break
  inside a sentence: one that a word in lower case continues ("for services\nnot yet
  rendered"), or a page's footer left in the text ("written under\nPage 55 of 80\nTexas law").

"as set out in Section 12. The ..." and "listed in Exhibit A. Furthermore ..." do end a
sentence. A sentence's parts are what its semicolons and its lettered or numbered list items
separate ("(a) ...; (b) ..."): a lawyer writes one obligation, right or limit to a part.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Abbreviations whose full stop does not end a sentence in contract prose.
_ABBREVIATIONS = frozenset(
    "e.g i.e etc viz cf ibid vs v inc ltd llc l.l.c co corp no nos sec secs art para cl mr mrs ms "
    "dr st u.s u.k n.a approx incl dept min max jan feb mar apr jun jul aug sep sept oct nov dec".split())
_BOUNDARY = re.compile(r"[.!?][\"”’'»)\]]*(?:\s*(?:\[\d+\])+)?(?=\s|$)|\n\s*")
# The word before a full stop (looked for in the few characters before it only: a search
# anchored at the end of a long text tries every position, issue 39).
_WORD_BEFORE = re.compile(r"([A-Za-z.]+|\d+(?:\.\d+)*)$")
_INITIALS = re.compile(r"(?:[A-Za-z]\.)*[A-Za-z]")
# A sentence so far that is only a label: "8", "10.2", "8.F", "7B", "SECTION 9", "a", "(ii)", "iv".
# Not numbering.typed_number, on purpose (issue 38, session 6): this asks whether a full stop
# after a sentence's first words ends it, anywhere in running text, not where a paragraph's
# words begin. Read through typed_number, 8 of 3,506 such stops over the ACORD corpus and the
# shared agreements read worse: lettered labels a paragraph never types alone ("8.F.
# LIMITATION ON LIABILITY.", "21.D.", "7B.") would end a sentence, and a statute cited at a
# sentence's end ("... Fla. Stat. § 688.002. The ...") would not (tests/reading/test_sentences.py).
_LABEL = re.compile(r"(?:(?:section|article|clause|part)\s+)?(?:\d{1,3}(?:\.\d{1,3})*(?:\.?[a-z])?|[a-z]|[ivxlc]{1,6}|"
                    r"\(?[a-z0-9]{1,4}\))", re.I)
# A single letter that names a document part ends a sentence: "listed in Exhibit A. Then ...".
_PART_LETTER = re.compile(r"(?:exhibit|schedule|annex|appendix|attachment|rider|part|article|section|"
                          r"clause|paragraph|tranche|class|series)\s+[A-Za-z]$", re.I)
_NEXT = re.compile(r"\s*(\S)")
_NEXT_DIGIT = re.compile(r" ?\d")
_LABEL_AFTER = re.compile(r"[:;]\s*(?:[a-z]|[ivx]{1,4}|\d{1,2})$", re.I)


_STRAY = re.compile(r"[.!?\s]+")
# A line break inside a sentence: the line before ends on a word, a figure or a comma (not
# on ". : ;", nor a heading or a defined term's label), and the next line goes on in lower case or is a
# page's footer ("Page 55 of 80") the sentence resumes after. A list item in lower case
# ("a. the fees", "ii) any claim") starts its own part.
_LINE_ENDS_OPEN = re.compile(r"[^\n]*[a-z0-9,][\"”’')\]]?$")
_LIST_ITEM = re.compile(r"\s*(?:[a-z]{1,2}|[ivx]{1,5}|\d{1,3})[.)]\s")
_FOOTER = re.compile(r"\s*(?:page\s+\d+(?:\s+of\s+\d+)?|\d+\s+of\s+\d+|-\s*\d+\s*-)[ \t]*\n\s*(?=\S)", re.I)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, whitespace trimmed, in order."""
    return list(_sentence_spans(text))


@lru_cache(maxsize=20_000)
def _sentence_spans(text: str) -> tuple[tuple[int, int], ...]:
    # Each search splits its long results again, and the drafting checks split the same
    # clause many times: the same texts come back again and again.
    bounds: list[tuple[int, int]] = []
    start = 0
    resume: int | None = None
    for match in _BOUNDARY.finditer(text):
        mark = match.group(0)
        if mark.strip():
            if mark[0] == "." and not _full_stop_ends(text, start, match.start()):
                continue
            if _continues(text, match.end()):
                continue  # "the fees paid ... before the claim": an ellipsis inside a sentence
            end = match.end()
        else:
            if resume is not None and match.end() <= resume:
                continue  # the break after a page's footer inside a sentence
            resume = _line_goes_on(text, start, match.start(), match.end())
            if resume is not None:
                continue
            end = match.start()
        bounds.append((start, end))
        start = match.end()
    bounds.append((start, len(text)))
    out: list[tuple[int, int]] = []
    for a, b in (_trim(text, s, e) for s, e in bounds):
        if b <= a:
            continue
        if out and _STRAY.fullmatch(text, a, b):
            out[-1] = (out[-1][0], b)  # "... shareholding. . If": a stray mark stays with its sentence
        else:
            out.append((a, b))
    return tuple(out)


def _full_stop_ends(text: str, start: int, dot: int) -> bool:
    """Whether the full stop at ``dot`` of the sentence begun at ``start`` ends it."""
    before = text[max(start, dot - 40):dot]
    found = _WORD_BEFORE.search(before)
    if not found:
        return True
    word = found.group(1)
    if word.lower() in _ABBREVIATIONS:
        return False
    if dot - start <= 40 and _LABEL.fullmatch(text[start:dot].strip()):
        return False  # "8. INDEMNIFICATION", "SECTION 9. Indemnification", "a. The ..."
    if _LABEL_AFTER.search(before):
        return False  # "one of the following statements: a. ..."
    if word[0].isdigit() and _NEXT_DIGIT.match(text, dot + 1):
        return False  # a number written with spaces: "clause 12. 4. 1"
    if _INITIALS.fullmatch(word) and not before[:found.start()].endswith(("-", "/", "&")):
        # Initials ("A. M. Best", "U.S.C.") go on; a lettered part of a document ends.
        return len(word) == 1 and bool(_PART_LETTER.search(before))
    return True


def _line_goes_on(text: str, start: int, brk: int, after: int) -> int | None:
    """Where the sentence resumes when the line break at ``brk`` is inside it, else None."""
    line = text[max(start, text.rfind("\n", start, brk) + 1):brk]
    if not _LINE_ENDS_OPEN.search(line[-60:]) or _LIST_ITEM.match(text, after) or _label_line(line):
        return None
    footer = _FOOTER.match(text, after)
    if footer:
        return footer.end()
    return after if _continues(text, after) else None


def _label_line(line: str) -> bool:
    """A line that is a heading or a defined term's label ("Restricted Territory", "\"End Date\"",
    "Without-Cause Severance / Disclosed Compensation"): a few words, each long one capitalised."""
    words = re.findall(r"[A-Za-z][\w-]*", line)
    return 0 < len(words) <= 8 and all(w[0].isupper() for w in words if len(w) > 3)


def _continues(text: str, position: int) -> bool:
    following = _NEXT.match(text, position)
    return bool(following and following.group(1).islower())


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
