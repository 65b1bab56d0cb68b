"""Near-duplicate grouping: one result per *major variation*, its *minor variations* nested.

Precedent libraries are full of near copies (the same form per state, per product line);
ten copies of one clause in a top ten hide the real alternatives (Pitis, ICAIL 2017).

Similarity is word-level edit similarity: ``2·LCS / (len a + len b)`` over the two word
sequences (the normalised indel distance), so 0.9 means that about one word in ten differs
(inserted, deleted or changed) and 1.0 means identical wording, ignoring case,
punctuation and clause numbering. It is symmetric, which the guarantees below rely on.

Two uses:

* ``group_variations``: the search results' folding, one threshold (the server's API).
* ``explore``: the variation explorer. Every match is put in exactly one *major
  variation*, and inside it in exactly one *wording* (the representative's own wording,
  or a *minor variation*). Guarantees, for thresholds ``major <= minor``:

  1. every member of a major is at least ``major`` similar to the major's representative;
  2. every member of a wording is at least ``minor`` similar to that wording's
     representative (and a minor's representative is a member of its major, so 1 holds
     for it too);
  3. the representatives of two majors are less than ``major`` similar (they are
     distinct wordings), and two minor representatives of one major are less than
     ``minor`` similar to each other and to the major's representative.

  Representatives are the most relevant match of their group (matches come best first);
  a match joins the most similar representative that qualifies (ties: the earlier group).
"""

from __future__ import annotations

import math
import re
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Generic, Hashable, Sequence, TypeVar

from rapidfuzz.distance import Indel

from index_builder.errors import InvalidRequestError
from index_builder.model import SearchHit
from index_builder.reading.paragraphs import without_number

T = TypeVar("T")
_WORD = re.compile(r"[a-z0-9]+")
# Blackline tokens: words, single punctuation marks, and the whitespace after them.
_TOKEN = re.compile(r"\s*(?:\w+(?:['\u2019]\w+)*|[^\w\s])")


@dataclass
class Group(Generic[T]):
    """A major variation and its minor variations, each with its similarity to the leader."""

    leader: T
    variants: list[tuple[T, float]] = field(default_factory=list)


def words(text: str) -> list[str]:
    return list(_words(text))


@lru_cache(maxsize=8192)
def _words(text: str) -> tuple[str, ...]:
    # Every search folds its ~100 candidates, mostly clauses it has folded before: the regex
    # work was 20% of a search's CPU (pyinstrument, ACORD); a few thousand clauses cover it.
    # Leading clause numbers ("12.3", "(a)", "ARTICLE XII") differ between copies of the same
    # clause: the core's reader of a typed number drops them (issue 38: one reader).
    return tuple(_WORD.findall(without_number(text).lower()))


_CODES: dict[str, str] = {}
_CODES_LOCK = threading.Lock()
_FIRST_CODE, _SURROGATES = 0x100, range(0xD800, 0xE000)


@lru_cache(maxsize=8192)
def _coded(text: str) -> str | tuple[str, ...]:
    """The words of ``text`` with each distinct word written as one character of its own.

    An alignment of two such strings is the alignment of the two word sequences (the map is
    one to one), so every distance and score is the same; rapidfuzz aligns strings natively,
    where sequences of Python strings are hashed word by word on every call (issue 39: the
    folding of a never-seen query's candidates). Past the characters Unicode has, the words
    themselves are returned, which align the same way, only slower.
    """
    found = _words(text)
    try:
        return "".join([_CODES[w] if w in _CODES else _code(w) for w in found])
    except OverflowError:
        return found


def _code(word: str) -> str:
    with _CODES_LOCK:  # two threads must never give two words one character
        code = _CODES.get(word)
        if code is None:
            number = _FIRST_CODE + len(_CODES)
            number += len(_SURROGATES) if number >= _SURROGATES.start else 0
            if number > 0x10FFFF:
                raise OverflowError("no characters left for new words")
            code = _CODES[word] = chr(number)
        return code


def similarity(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    """Word-level edit similarity in [0, 1], symmetric: 2·LCS/(len a + len b)."""
    total = len(a) + len(b)
    return 1.0 - Indel.distance(a, b) / total if total else 1.0


def _similarity_at_least(a: Sequence[Hashable], b: Sequence[Hashable], threshold: float) -> float:
    """``similarity(a, b)`` when it reaches ``threshold``, else 0.0 (stops early when it cannot).

    The early stop only bounds the work; the decision uses the very formula of ``similarity``,
    so the guarantees hold to the last bit of floating point.
    """
    total = len(a) + len(b)
    if not total:
        return 1.0
    # The lengths alone bound the score (2·min/total): most pairs in a 1,000-clause pool stop
    # here, before any alignment (eval folds 1,000 candidates a query).
    # (Written as the score formula at the smallest possible distance, so the bound and
    # ``similarity`` round alike at the threshold.)
    if 1.0 - (total - 2 * min(len(a), len(b))) / total < threshold:
        return 0.0
    limit = int((1.0 - threshold) * total) + 1
    distance = Indel.distance(a, b, score_cutoff=limit)
    score = 1.0 - distance / total
    return score if distance <= limit and score >= threshold else 0.0


def _aligned_at_least(a: Sequence[Hashable], b: Sequence[Hashable], threshold: float,
                      total: int) -> float:
    """``_similarity_at_least`` for a pair whose lengths' bound has passed (``total`` is
    ``len(a) + len(b)``): the same alignment and arithmetic, without the bound again."""
    if not total:
        return 1.0
    limit = int((1.0 - threshold) * total) + 1
    distance = Indel.distance(a, b, score_cutoff=limit)
    score = 1.0 - distance / total
    return score if distance <= limit and score >= threshold else 0.0


def group_variations(items: Sequence[T], text_of: Callable[[T], str], limit: int,
                     threshold: float, key_of: Callable[[T], Hashable] | None = None,
                     cache: PairCache | None = None) -> list[Group[T]]:
    """Greedy in rank order: an item joins the first leader it matches, else leads a group.

    At most ``limit`` groups are returned; later items still join them as variants, so
    "also in N other documents" counts every copy among the candidates given.
    ``cache`` (with ``key_of``, a key that fixes the text: a clause id within one index
    version) keeps each pair's score across calls: a search folds ~100 candidates against
    up to ten leaders, mostly pairs an earlier search already compared.
    """
    groups: list[Group[T]] = []
    keys: list[Sequence[str]] = []
    sizes: list[int] = []
    ids: list[Hashable] = []
    cached = cache is not None and key_of is not None
    fold = threshold > 0
    for item in items:
        mine = _coded(text_of(item))
        mine_id = key_of(item) if cached else None  # type: ignore[misc]
        match = None
        if fold and keys:
            # The leaders whose length the lengths' bound lets through, in leader order: an
            # interval of lengths per (length, threshold), so a pair it rules out costs two
            # comparisons (issue 39: 100 candidates against up to ten leaders a search).
            size = len(mine)
            low, high = _length_window(size, threshold)
            for index, their_size in enumerate(sizes):
                if low <= their_size <= high:
                    if cached:  # the pair's score kept across searches (cache.get inline)
                        pair = (ids[index], mine_id, threshold)
                        score = cache.get(pair)  # type: ignore[union-attr]
                        if score is None:
                            score = _pair_score(keys[index], mine, threshold, their_size + size,
                                                ids[index], mine_id, cache)
                    else:
                        score = _aligned_at_least(keys[index], mine, threshold, their_size + size)
                    if score and score >= threshold:
                        match = index, round(score, 4)
                        break
        if match is not None:
            index, score = match
            groups[index].variants.append((item, score))
        elif len(groups) < limit:
            groups.append(Group(item))
            keys.append(mine)
            sizes.append(len(mine))
            ids.append(mine_id)
    return groups


class PairCache(dict):  # type: ignore[type-arg]
    """(leader key, item key, threshold) -> score, bounded: emptied when full."""

    def __init__(self, size: int = 200_000) -> None:
        super().__init__()
        self.size = size


def _passes_lengths(size: int, their_size: int, threshold: float) -> bool:
    """Whether two lengths alone allow ``threshold``: the score at the smallest possible
    distance, written exactly as ``_similarity_at_least`` writes it (so both round alike)."""
    total = size + their_size
    return not total or 1.0 - (total - 2 * min(size, their_size)) / total >= threshold


@lru_cache(maxsize=65_536)
def _length_window(size: int, threshold: float) -> tuple[int, int]:
    """The lengths ``[low, high]`` that ``_passes_lengths`` lets through against ``size``.

    The bound rises with the other length up to ``size`` and falls after it (each step a
    correctly rounded division, so monotone in floating point too): an interval holding
    ``size`` when the threshold is at most 1. Found from the real-number estimate, then
    moved by the floating-point test itself, so it is exactly the set the test passes.
    """
    if not _passes_lengths(size, size, threshold):
        return 1, 0  # empty (a threshold above 1)
    low = min(size, max(0, math.floor(size * threshold / (2.0 - threshold))))
    while low > 0 and _passes_lengths(size, low - 1, threshold):
        low -= 1
    while not _passes_lengths(size, low, threshold):
        low += 1
    high = max(size, math.ceil(size * (2.0 - threshold) / threshold)) if threshold > 0 else size
    while not _passes_lengths(size, high, threshold):
        high -= 1
    while _passes_lengths(size, high + 1, threshold):
        high += 1
    return low, high


def _pair_score(leader: Sequence[str], mine: Sequence[str], threshold: float, total: int,
                leader_id: Hashable, mine_id: Hashable, cache: PairCache | None) -> float:
    """The pair's ``_aligned_at_least`` score, read from or kept in ``cache`` when given."""
    if cache is None or mine_id is None:
        return _aligned_at_least(leader, mine, threshold, total)
    pair = (leader_id, mine_id, threshold)
    score = cache.get(pair)
    if score is None:
        score = _aligned_at_least(leader, mine, threshold, total)
        if len(cache) >= cache.size:
            cache.clear()
        cache[pair] = score
    return score


# -- the explorer ------------------------------------------------------------------------------

@dataclass(frozen=True)
class BlacklineOp:
    """One stretch of a word diff: ``op`` is "equal", "insert" or "delete"."""

    op: str
    text: str


@dataclass
class Wording:
    """One wording inside a major variation: its representative and the matches using it."""

    representative: SearchHit
    similarity: float  # of the representative to the major's representative
    members: list[tuple[SearchHit, float]]  # (match, similarity to this representative)
    blackline: list[BlacklineOp] = field(default_factory=list)  # against the major's text

    @property
    def count(self) -> int:
        return len(self.members)

    @property
    def documents(self) -> list[str]:
        return _documents(hit for hit, _ in self.members)


@dataclass
class Major:
    """A major variation: the representative's own wording first, then its minor variations."""

    own: Wording
    minors: list[Wording] = field(default_factory=list)

    @property
    def representative(self) -> SearchHit:
        return self.own.representative

    @property
    def members(self) -> list[tuple[SearchHit, float]]:
        return [m for w in [self.own, *self.minors] for m in w.members]

    @property
    def count(self) -> int:
        return sum(w.count for w in [self.own, *self.minors])

    @property
    def documents(self) -> list[str]:
        return _documents(hit for hit, _ in self.members)


@dataclass
class Exploration:
    majors: list[Major]
    matches: int
    major_threshold: float
    minor_threshold: float

    @property
    def documents(self) -> list[str]:
        return _documents(hit for major in self.majors for hit, _ in major.members)

    @property
    def minor_count(self) -> int:
        return sum(len(major.minors) for major in self.majors)


def check_thresholds(major: float, minor: float) -> None:
    """Refuse thresholds the guarantees do not cover, saying what to send."""
    if not (0.0 < major <= 1.0 and 0.0 < minor <= 1.0):
        raise InvalidRequestError("Variation thresholds are similarities between 0 and 1 "
                                  f"(got major {major}, minor {minor}).")
    if minor < major:
        raise InvalidRequestError(
            f"The minor threshold ({minor}) must be at least the major threshold ({major}): "
            f"minor variations are closer to their major than the majors are to each other.")


def explore(hits: Sequence[SearchHit], major_threshold: float, minor_threshold: float,
            min_score: float | None = None) -> Exploration:
    """Group matches (best first) into major variations with minor variations nested.

    ``min_score`` drops matches scoring below it (the relevance floor) before grouping.
    Majors come in relevance order (their representative is their best match: a query
    for a non-compete lists the non-competes before the non-investment clauses that are
    more numerous among the matches); minors inside a major come most-used first.
    """
    check_thresholds(major_threshold, minor_threshold)
    kept = [h for h in hits if min_score is None or h.score >= min_score]
    vocab: dict[str, int] = {}
    keys = [[vocab.setdefault(w, len(vocab)) for w in words(h.clause.text)] for h in kept]
    majors: list[list[int]] = []  # member positions, representative first
    for pos, key in enumerate(keys):
        best = _best(key, [keys[m[0]] for m in majors], major_threshold)
        if best is None:
            majors.append([pos])
        else:
            majors[best[0]].append(pos)
    out = [_split_major(kept, keys, members, minor_threshold) for members in majors]
    return Exploration(out, len(kept), major_threshold, minor_threshold)


def _split_major(hits: Sequence[SearchHit], keys: list[list[int]], members: list[int],
                 minor_threshold: float) -> Major:
    lead = members[0]
    wordings: list[list[tuple[int, float]]] = [[(lead, 1.0)]]
    for pos in members[1:]:
        best = _best(keys[pos], [keys[w[0][0]] for w in wordings], minor_threshold)
        if best is None:
            wordings.append([(pos, 1.0)])
        else:
            wordings[best[0]].append((pos, best[1]))
    major_text = hits[lead].clause.text
    built = []
    for group in wordings:
        rep = group[0][0]
        built.append(Wording(
            representative=hits[rep],
            similarity=round(similarity(keys[rep], keys[lead]), 4),
            members=[(hits[p], round(s, 4)) for p, s in group],
            blackline=[] if rep == lead else blackline(major_text, hits[rep].clause.text)))
    own, minors = built[0], built[1:]
    order = {id(w): i for i, w in enumerate(minors)}
    minors.sort(key=lambda w: (-w.count, order[id(w)]))
    return Major(own, minors)


def _best(key: list[int], leaders: list[list[int]], threshold: float) -> tuple[int, float] | None:
    """The most similar leader at or above the threshold (ties: the earliest), or None."""
    found: tuple[int, float] | None = None
    for index, theirs in enumerate(leaders):
        score = _similarity_at_least(theirs, key, threshold)
        if score and score >= threshold and (found is None or score > found[1]):
            found = (index, score)
            if score == 1.0:
                break
    return found


def blackline(original: str, revised: str) -> list[BlacklineOp]:
    """Word diff of ``revised`` against ``original``, as merged equal/insert/delete stretches.

    Joining the "equal" and "insert" texts gives ``revised`` exactly; joining "equal" and
    "delete" gives ``original`` up to the amount of whitespace. A token is a word or a mark
    with the spacing before it, and whether it is spaced counts: "a, b" against "a b" is
    one inserted comma, but "a,b" against "a b" also replaces "b" by " b".
    """
    a_tokens, b_tokens = _spaced_tokens(original), _spaced_tokens(revised)
    vocab: dict[tuple[bool, str], int] = {}
    a = [vocab.setdefault(_key(t), len(vocab)) for t in a_tokens]
    b = [vocab.setdefault(_key(t), len(vocab)) for t in b_tokens]
    ops: list[BlacklineOp] = []
    deleted, inserted = "", ""  # a change between two equal stretches: deletion shown first
    for op in Indel.opcodes(a, b):
        if op.tag == "equal":
            _append(ops, "delete", deleted)
            _append(ops, "insert", inserted)
            deleted, inserted = "", ""
            _append(ops, "equal", "".join(b_tokens[op.dest_start:op.dest_end]))
        else:
            deleted += "".join(a_tokens[op.src_start:op.src_end])
            inserted += "".join(b_tokens[op.dest_start:op.dest_end])
    _append(ops, "delete", deleted)
    _append(ops, "insert", inserted)
    return ops


def _spaced_tokens(text: str) -> list[str]:
    found = _TOKEN.findall(text)
    if found and text[len("".join(found)):]:
        found[-1] += text[len("".join(found)):]  # trailing whitespace stays with the last token
    return found


def _key(token: str) -> tuple[bool, str]:
    return (token[:1].isspace(), token.strip())


def _append(ops: list[BlacklineOp], op: str, text: str) -> None:
    if not text:
        return
    if ops and ops[-1].op == op:
        ops[-1] = BlacklineOp(op, ops[-1].text + text)
    else:
        ops.append(BlacklineOp(op, text))


def tokens(text: str) -> list[str]:
    """The blackline's units: words and punctuation marks, without spacing."""
    return [t.strip() for t in _TOKEN.findall(text)]


def _documents(hits) -> list[str]:  # type: ignore[no-untyped-def]
    return list(dict.fromkeys(hit.clause.doc_id for hit in hits))
