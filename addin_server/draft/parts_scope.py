"""Which of the clause's provisions a mutual or flip part is about, and which it leaves alone.

Its scope ("the authority sentence", "limb (c) only", "keep the caps on Galaxy") is read by the
instruction (instruction_scope.py); here it is matched against the clause's provisions, for the
tests (parts_parties.py), the allowances (parts.py) and the operations (operations.py).
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import binding
from index_builder.reading.binding import MUTUAL, Binding, Provision
from index_builder.reading.sentences import part_spans, sentence_spans

from addin_server.draft.compare_base import content_stems  # the comparison's stems: one stemmer
from addin_server.draft.instruction import Part
from addin_server.draft.instruction_scope import pointed_sentence


# --- scope --------------------------------------------------------------------------------

def targets(part: Part, read: Binding, text: str) -> list[Provision]:
    """The clause's provisions a mutual or flip part is about."""
    if part.kind == "mutual":
        pool = read.one_sided() or [p for p in read.provisions if p.bound not in ("", MUTUAL)]
    elif part.kind == "flip":
        other, holder = part.params.get("other"), part.params.get("holder")
        pool = [p for p in read.provisions if p.bound == other] or read.one_sided()
        if re.search(r"\bprotect|\blimit|\bcap\b", part.text, re.I):
            # "These limits should protect Dolphin rather than DGT": a restriction on Dolphin protects DGT
            # too, and moves with the rest, whatever words it uses.
            extra = [p for p in read.provisions if p.bound == holder and p.kind == "prohibition"]
            return scoped(part, scoped_pool(part, pool, text) + extra, text)
    else:
        return []
    return scoped(part, _pointed(part, read, scoped_pool(part, pool, text), text), text)


def scoped_pool(part: Part, pool: list[Provision], text: str) -> list[Provision]:
    if part.scope.keywords:
        hit = [p for p in pool if mentions_any(text[p.start:p.end], part.scope.keywords)]
        return hit or pool
    return pool


def _pointed(part: Part, read: Binding, pool: list[Provision], text: str) -> list[Provision]:
    """The provisions of the one sentence the part's own words point at, where they point at one
    (instruction_scope.pointed_sentence: strictly more shared words than any other sentence): an ask
    about one provision does not reach the clause's other one-sided sentences. Where that sentence
    already binds both parties and holds none of the pool, the part describes the clause as it
    stands ("each side follows the DPA", "what each side may do with the other's brands"): it
    reaches nothing, and the test says so ("not checked"), never "not done" for another sentence.
    A part that names its sentence or limb, or says what to leave, is read by its scope instead."""
    if part.kind != "mutual" or not pool or part.scope.sentences or part.scope.limbs or part.scope.leave_sentences \
            or part.scope.leave:
        return pool
    # Read from the ask's own words, not its asides or what it says it does not reach: "(not the royalty)",
    # "(and name Company as additional insured)" point elsewhere. A flip moves the clause's duty with all
    # the sentences that serve it (the cover, its notice, its certificates), so it is not narrowed here.
    said = re.sub(r"\([^()]*\)|,\s*(?:but\s+)?not\s+(?:the\s+)?[^,;.]*", " ", part.text)
    span = pointed_sentence(said, text)
    if span is None:
        return pool
    a, b = span
    # The ask names a second sentence too ("make the infringement cover and the damages sentence mutual"):
    # any word of it, beyond the parties' names, in a sentence holding another one-sided provision.
    asked = content_stems(said) - content_stems(" ".join(read.parties))
    spans = sentence_spans(text)
    for p in pool:
        if not a <= p.start < b and any(x <= p.start < y and asked & content_stems(text[x:y]) for x, y in spans):
            return pool
    inside = [p for p in pool if a <= p.start < b]
    if inside:
        return inside
    if any(p.mutual and a <= p.start < b for p in read.provisions):
        return []
    return pool


def scoped(part: Part, pool: list[Provision], text: str) -> list[Provision]:
    scope = part.scope
    sentences = sentence_spans(text)
    def sentence_no(p: Provision) -> int:
        return next((n for n, (a, b) in enumerate(sentences, 1) if a <= p.start < b), 0)
    chosen = pool
    if scope.sentences:
        last = len(sentences)
        wanted = {last if n == -1 else n for n in scope.sentences}
        chosen = [p for p in chosen if sentence_no(p) in wanted] or chosen
    if scope.leave or scope.leave_sentences:
        last = len(sentences)
        left = {last if n == -1 else n for n in scope.leave_sentences}
        kept = [p for p in chosen if not (scope.leave and mentions_any(text[p.start:p.end], scope.leave))
                and sentence_no(p) not in left]
        chosen = kept or chosen
    return chosen


def mentions_any(text: str, stems: Sequence[str]) -> bool:
    words = re.findall(r"[a-z]+", text.lower())
    have = set(words) | {binding._stem(w) for w in words}
    return any(any(w.startswith(s[:max(4, min(len(s), 6))]) for w in have) for s in stems if len(s) >= 3)


def left_alone(part: Part, read: Binding, text: str, found: Sequence[Provision]) -> list[tuple[int, int]]:
    """The clause's parts a mutual or flip part says to leave as they are."""
    scope = part.scope
    if not (scope.leave or scope.leave_sentences or scope.only or scope.limbs or scope.sentences):
        return []
    mine = {(t.start, t.end) for t in found}
    sentences = sentence_spans(text)
    out = []
    leave_limbs = set(re.findall(r"\(([a-z])\)", " ".join(re.findall(r"(?:leave|keep)[^.;]*", part.text, re.I))))
    for a, b in part_spans(text):
        if any(s <= a < e or a <= s < b for s, e in mine):
            continue
        piece = text[a:b]
        limb = re.match(r"\(?([a-z])[.)]\s", piece)
        number = next((n for n, (x, y) in enumerate(sentences, 1) if x <= a < y), 0)
        last = len(sentences)
        left = {last if n == -1 else n for n in scope.leave_sentences}
        if (limb and (limb.group(1) in leave_limbs or (scope.limbs and limb.group(1) not in scope.limbs))) or \
                number in left or (scope.leave and mentions_any(piece, scope.leave)) or \
                (scope.sentences and number not in {last if n == -1 else n for n in scope.sentences}) or \
                (scope.only and not scope.limbs and re.search(r"\b(?:rest|others?|first|second|third)\b", part.text, re.I)):
            out.append((a, b))
    return out


def counter_provisions(part: Part, read: Binding, text: str) -> list[Provision]:
    """In a flip, the holder's own provisions about the same thing ("Partner hereby assigns to
    Provider" beside "Provider owns all Feedback"): they change hands too."""
    holder = part.params.get("holder")
    keys = part.scope.keywords
    other = part.params.get("other") or ""
    return [p for p in read.provisions if p.bound == holder and keys and mentions_any(text[p.start:p.end], keys)
            and p.kind != "prohibition" and other in p.others]
