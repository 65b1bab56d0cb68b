"""The tests of the parts that rework the clause's words: plain English, delete, shorten.

Apart because they read the text itself (legalese, sentence length, the span a "drop the X" part
names) rather than parties or figures; the operations use deleted_span and joined_span too.
"""

from __future__ import annotations

import re

from index_builder.reading.sentences import part_spans, sentence_spans

from addin_server.draft.instruction import Instruction, Part
from addin_server.draft.instruction_words import ARCHAIC
from addin_server.draft.parts_result import Context, PartResult, mean_sentence_words, short


def plain_part(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    left = [w for w in ARCHAIC if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", draft, re.I)]
    if left:
        return PartResult(part, "not_done", f"The draft still uses legalese (“{left[0]}”).")
    if part.params.get("legalese_only"):
        return PartResult(part, "done", "No legalese left.")
    if re.search(r"\bshall\b", draft, re.I) and re.search(r"\bshall\b", clause, re.I):
        # Plain-language drafting guides agree on this one: "must" for a duty, "will" for what happens.
        return PartResult(part, "partly", "The draft still uses “shall”; plain English says “must” or “will”.")
    # Sentences much longer than the clause's: a plain-English draft may join two short ones, or set
    # out a list, so only a clear lengthening counts.
    if mean_sentence_words(draft) > max(1.4 * mean_sentence_words(clause), 40):
        return PartResult(part, "partly", "The draft's sentences are longer than your clause's.")
    if word_for_word(clause, draft):
        return PartResult(part, "not_done", "The draft keeps your clause's wording almost word for word; it was not "
                                            "rewritten in plain English.")
    return PartResult(part, "done", "In plain English: no legalese, sentences no longer than yours.")


def word_for_word(clause: str, draft: str, at_least: float = 0.9) -> bool:
    """Whether the draft is the clause with a few words changed (figures count as one word each): a
    plain-English rewrite that is not one."""
    from difflib import SequenceMatcher
    words = lambda t: re.findall(r"[a-z]+|\d[\d,.]*", t.lower())  # noqa: E731
    a, b = words(clause), words(draft)
    return len(a) >= 8 and SequenceMatcher(None, a, b, autojunk=False).ratio() >= at_least


QUOTED = re.compile(r"(?<!\w)[‘'\"“]([^‘’'\"“”]{1,60})[’'\"”](?!\w)")


def delete_quoted(part: Part, clause: str, draft: str) -> PartResult | None:
    """"lose 'shall'", "strike “best efforts”": the words quoted are gone from the draft, however the
    sentence around them was reworded; None where the instruction quotes nothing the clause has."""
    from addin_server.draft.instruction_words import replacement_quotes
    put_in = set(replacement_quotes(part.text))  # "say 'Consultant'": words to put in, not to take out
    quoted = [q.strip() for q in QUOTED.findall(part.text) if q.strip() and q.strip() not in put_in]
    count = lambda q, t: len(re.findall(rf"(?<![\w-]){re.escape(q)}(?![\w-])", t, re.I))  # noqa: E731
    quoted = [q for q in quoted if count(q, clause)]
    if not quoted:
        return None
    left = [q for q in quoted if count(q, draft) >= count(q, clause)]
    if left:
        return PartResult(part, "not_done", f"The draft still has “{left[0]}”.")
    return PartResult(part, "done", f"“{quoted[0]}” is gone.")


def delete_part(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    quoted = delete_quoted(part, clause, draft)
    if quoted is not None:
        return quoted
    span = deleted_span(part, clause)
    if span is None:
        return PartResult(part, "unchecked", f"Which words “{part.label()}” means could not be found; read the draft.")
    text = clause[span[0]:span[1]]
    named = named_stems(part)
    if named and is_phrase(span, clause):
        # Words named inside a sentence ("the no-bond language"): gone from the draft, the rest of
        # the sentence kept.
        left = [w for w in named if stem_count(draft, w) >= stem_count(clause, w)]
        if left:
            return PartResult(part, "not_done", f"The draft still has “{short(text)}”.")
        a, b = next(((a, b) for a, b in sentence_spans(clause) if a <= span[0] < b), span)
        rest = {w[:5] for w in re.findall(r"[a-z]{4,}", (clause[a:span[0]] + " " + clause[span[1]:b]).lower())}
        have = {w[:5] for w in re.findall(r"[a-z]{4,}", draft.lower())}
        if rest and len(rest & have) / len(rest) < 0.5:
            return PartResult(part, "wrong", f"The draft drops more than “{short(text)}”: the rest of that sentence "
                                             "is gone too.")
        return PartResult(part, "done", f"“{short(text)}” is gone; the rest of the sentence stays.")
    stems = [w[:5] for w in re.findall(r"[a-z]{4,}", text.lower())]
    have = {w[:5] for w in re.findall(r"[a-z]{4,}", draft.lower())}
    kept = sum(1 for s in stems if s in have) / max(len(stems), 1)
    if kept > 0.6:
        return PartResult(part, "not_done", f"The draft still has “{short(text)}”.")
    return PartResult(part, "done", f"“{short(text)}” is gone.")


DELETE_GENERIC = frozenset("language wording words word sentence sentences clause part parts bit bits provision "
                            "provisions reference references mention mentions text the all any every no".split())
# Where a phrase inside a sentence starts: after a comma or bracket, or at one of these words.
PHRASE_OPENERS = re.compile(r"\b(?:without|with|including|provided|except|unless|subject to|and|or|but)\b|[,;(]")


def joined_span(clause: str, start: int, end: int) -> tuple[int, int]:
    """A phrase to drop with what joins it: "X and without Y" -> "without Y" (the "and" after it
    goes); "A, B" -> "A" (the comma before it); else the space before it."""
    after = re.match(r"\s+(?:and|or)\s+", clause[end:])
    if after:
        return start, end + after.end()
    before = re.search(r"(?:,|\s+(?:and|or))\s*$", clause[:start])
    if before:
        return before.start(), end
    return (start - 1, end) if start > 0 and clause[start - 1] == " " else (start, end)


def named_stems(part: Part) -> list[str]:
    """The words a "drop the X" part names, less the words that only say "words" ("the no-bond language"
    names "bond")."""
    what = str(part.params.get("what") or "").lower()
    words = [w for w in re.split(r"[^a-z]+", what) if len(w) >= 3 and w not in DELETE_GENERIC]
    return [w[:5] for w in words]


def stem_count(text: str, stem: str) -> int:
    return sum(1 for w in re.findall(r"[a-z]+", text.lower()) if w.startswith(stem))


def is_phrase(span: tuple[int, int], clause: str) -> bool:
    return not any(a == span[0] and b == span[1] for a, b in part_spans(clause))


def deleted_span(part: Part, clause: str) -> tuple[int, int] | None:
    """The clause words a "drop the X" part names: the words themselves where they are a phrase inside
    a sentence ("without the need to post a bond"), else the sentence part sharing most of its words."""
    named = named_stems(part)
    if len(named) == 1:
        phrase = phrase_around(clause, named[0])
        if phrase:
            return phrase
    what = [w[:5] for w in re.findall(r"[a-z]{4,}", str(part.params.get("what") or "").lower())
            if w not in DELETE_GENERIC]
    if not what:
        return None
    best, score = None, 0
    for a, b in part_spans(clause):
        have = {w[:5] for w in re.findall(r"[a-z]{4,}", clause[a:b].lower())}
        hits = sum(1 for w in what if w in have or any(h.startswith(w[:4]) for h in have))
        if hits > score:
            best, score = (a, b), hits
    return best if score else None


def phrase_around(clause: str, stem: str) -> tuple[int, int] | None:
    """The one phrase of the clause that holds the only word starting with ``stem``: from the opener
    before it ("without", a comma) to the next comma, "and", bracket or the sentence's end. None where
    the word is used more than once or the phrase would be the whole sentence part."""
    hits = [m for m in re.finditer(r"[A-Za-z]+", clause) if m.group(0).lower().startswith(stem)]
    if len(hits) != 1:
        return None
    at = hits[0]
    a, b = next(((a, b) for a, b in part_spans(clause) if a <= at.start() < b), (None, None))
    if a is None:
        return None
    openers = [m for m in PHRASE_OPENERS.finditer(clause, a, at.start())]
    if not openers:
        return None
    opener = openers[-1]
    start = opener.end() if opener.group(0) in ",;(" else opener.start()
    end_m = re.compile(r"\s+(?:and|or|but)\b|[,;)]|[.]\s|[.]$").search(clause, at.end(), b)
    end = end_m.start() if end_m else b
    if end == b and clause[end - 1:end] == ".":
        end -= 1
    while start < end and clause[start] == " ":
        start += 1
    if end - start < 4 or (start <= a + 1 and end >= b - 1):
        return None
    return start, end


def shorten_part(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    from addin_server.draft.lengths import length_problem
    problem = length_problem(ins.length, clause, draft)
    if problem:
        return PartResult(part, "not_done", problem)
    return PartResult(part, "done", "Shorter, as asked.")
