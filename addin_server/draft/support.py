"""Does a cited precedent back a redraft sentence? A measured lexical check.

For each (sentence, precedent) pair: the passage of the precedent (one to three of its
sentences) that shares most content words with the sentence, and five signals: how many
of the sentence's content words that passage has (``coverage``), how many of its word
pairs (``pairs``), an amount or duration the precedent never gives (``amount``), a "not"
that one side has and the other lacks (``negation``), and a party the precedent does not
name or names in another role (``party``). A logistic model over them gives the score;
weights and threshold were fitted on a labelled set built from real agreements and are
checked on held-out documents (`precedent-bench citations`, results in
benchmarks/results/citations/citations.md). Words, amounts and parties the lawyer's own text has are
the lawyer's, not claimed from the precedent, so they count neither way.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

from index_builder.reading import figures as F
from index_builder.reading import polarity as P
from index_builder.reading.sentences import sentence_spans

# The party signal and the words counted, each in its own module (support_parties.py, support_words.py).
from addin_server.draft.support_parties import missing_party as _missing_party
from addin_server.draft.support_words import LIMITING, NEGATORS, WORD, stems

# Fitted by `precedent-bench citations --fit` on the train documents.
WEIGHTS = {"bias": -2.68, "coverage": 2.12, "pairs": 3.76, "amount": -4.40, "negation": -5.31,
           "party": -3.96}
THRESHOLD = 0.25  # highest balanced accuracy on the train part
MAX_WINDOW = 3  # precedent sentences one redraft sentence may draw on
PARAPHRASE_COVERAGE = 0.6  # at or above, with no figure, party or reversal the precedent lacks: backed

_COVENANT = re.compile(rf"\b{P.COVENANTS}\b", re.I)


@dataclass(frozen=True)
class Support:
    """How well one precedent backs one sentence, and the passage relied on."""

    score: float  # 0..1
    supported: bool
    reason: str  # why it is flagged, in a lawyer's words; "" when supported
    start: int  # the passage of the precedent relied on (offsets into its text)
    end: int
    model_confirmed: bool | None = None  # the optional model check's answer; None = not asked


@dataclass(frozen=True)
class Features:
    coverage: float
    pairs: float
    amount: float
    negation: float
    party: float
    passage: tuple[int, int]
    missing_amount: str = ""
    missing_party: str = ""


def score_support(sentence: str, precedent: str, own_text: str = "", asked: str = "") -> Support:
    """The support score of ``precedent`` for ``sentence`` (markers already removed). ``asked``: what the
    lawyer's ask adds to the clause (a carve-out's subject, citations.py reads it)."""
    f = features(sentence, precedent, own_text)
    unsaid = asked_terms_unsaid(sentence, precedent, own_text, asked)
    if unsaid:
        # "..., except for fraud. [1]" where [1] never says fraud: what the ask adds to the clause is the
        # sentence's point, and a precedent that never mentions it cannot back it, however many of the
        # clause's other words it shares (a new user saw 0.81 "supported").
        return Support(0.0, False, f"the precedent does not mention “{unsaid}”", *f.passage)
    z = WEIGHTS["bias"] + sum(WEIGHTS[name] * getattr(f, name)
                              for name in ("coverage", "pairs", "amount", "negation", "party"))
    score = 1 / (1 + math.exp(-z))
    supported = score >= THRESHOLD
    if not supported and f.coverage >= PARAPHRASE_COVERAGE and not f.amount and not f.party and \
            not f.negation and not _opposed(sentence, precedent[f.passage[0]:f.passage[1]]):
        # A faithful paraphrase: most of its words are the precedent's, in another order, and it
        # gives no figure or party the precedent does not and says "not" where the precedent does
        # (``negation``: limits count as negations, and beside an exception only words that turn a
        # limit round count).
        # Without that last test the rule passed 109 of 109 held-out sentences of the citation set
        # with a "not" put in or taken out (benchmarks/results/citations, session 8).
        supported = True
    if not supported and not f.amount and not f.party and _mostly_own(sentence, precedent, own_text):
        # The lawyer's own sentence (clause and instruction) with the precedent's point in it: "for
        # six (6) months after it ends, unless Logan's gives its prior written consent (which will not
        # be unreasonably withheld or delayed) [1]". What it claims from the precedent is the little
        # that is new, and the precedent shares it; the score, made for whole restatements, cannot judge it.
        supported = True
    return Support(round(score, 4), supported, "" if supported else _reason(f), *f.passage)


def asked_terms_unsaid(sentence: str, precedent: str, own_text: str, asked: str) -> str:
    """A word of what the ask adds (the carve-out's subject, "fraud", less the clause's words) that the
    sentence says and the cited precedent nowhere does ("" where there is none). New parties and figures are the
    ``party`` and ``amount`` features; this is the subject of what is added."""
    if not asked.strip():
        return ""
    # (``own_text`` may hold the ask itself, so the clause's words are taken out by the caller.)
    subject = set(stems(asked)) - set(stems(_ASK_WORDS))
    if subject & set(stems(precedent)):
        # The precedent speaks of the subject in some words ("passive holdings" where the ask said "holding
        # shares as a passive investor"): a paraphrase may use the lawyer's other words (measured: any word
        # of the subject missing flagged 7 sound paraphrases on a-g, "defence", "knew", "hold").
        return ""
    return next((w for w in stems(sentence) if w in subject and len(w) >= 4), "")


# The ask's own words (what to do, not what the clause should say).
_ASK_WORDS = ("add carve carve-out carveout exception exclusion exclude include insert precedent "
                             "clause wording language please make change mutual reciprocal bilateral version "
                             "sentence draft redraft borrow take copy follow like model shorten tighten plain "
                             "conform replace delete remove")


OWN_SHARE = 0.75  # at or above, a sentence is the lawyer's own wording with a point added


def _mostly_own(sentence: str, precedent: str, own_text: str) -> bool:
    words = stems(sentence)
    if not own_text.strip() or len(words) < 6:
        return False
    own, theirs = set(stems(own_text)), set(stems(precedent))
    new = [w for w in words if w not in own]
    shared = {w for w in words if w in theirs}
    return len(words) - len(new) >= OWN_SHARE * len(words) and (
        # Something is new (a sentence all of the lawyer's words claims nothing of its own to cite).
        len(shared) >= 2 and bool(new) and (any(w in theirs for w in new) or len(set(new)) <= 2))


def _reason(f: Features) -> str:
    if f.coverage < 0.5:
        return "few of the sentence's words are in the precedent"
    if f.amount:
        return f"the precedent does not give “{f.missing_amount}”"
    if f.negation:
        return "the precedent may say the opposite"
    if f.party:
        return f"the precedent does not say this of {f.missing_party}"
    return "few of the sentence's words are in the precedent"


def features(sentence: str, precedent: str, own_text: str = "") -> Features:
    """The signals the score is made of (also what the benchmark fits)."""
    own = set(stems(own_text))
    precedent_stems = set(stems(precedent))
    wanted = [s for s in stems(sentence) if s in precedent_stems or s not in own]
    if len(set(wanted)) < 3:
        wanted = stems(sentence)
    spans = sentence_spans(precedent) or [(0, len(precedent))]
    best = (-1.0, 0.0, (0, len(precedent)), "")
    target = set(wanted)
    for size in range(1, MAX_WINDOW + 1):  # shorter passages first: a tie keeps the shorter
        for i in range(len(spans) - size + 1):
            j = i + size - 1
            passage = precedent[spans[i][0]:spans[j][1]]
            have = set(stems(passage))
            coverage = len(target & have) / len(target) if target else 0.0
            if coverage > best[0] + 1e-9:
                best = (coverage, _pair_share(wanted, stems(passage)),
                        (spans[i][0], spans[j][1]), passage)
    coverage, pairs, passage_span, passage = best
    missing_amount = _missing_amount(sentence, precedent, own_text)
    closest = _closest_sentence(sentence, passage)
    missing_party = _missing_party(sentence, closest, passage, precedent, own_text)
    # Limiting words count as negations: "shall not exceed" and "is capped at" agree. An exception
    # is said either way round ("Except for fraud, liability is limited" = "the limits do not apply
    # to fraud"), so where either side states one, only words that turn a limit round count.
    if _EXCEPTION.search(sentence) or _EXCEPTION.search(closest):
        negation = float(_opposed(sentence, closest))
    else:
        # A "not" of a limb of its own can explain a difference of parity away, never make one: read whole,
        # "Reseller will not ..., without (a) ..." against "X and Y agree not to engage in any attempt ..., to
        # hire" agree, though the precedent's "not" stands in a limb the sentence does not restate.
        mine, theirs = _restated(sentence, closest, own - precedent_stems), _restated(closest, sentence)
        negation = float(_negations(sentence) % 2 != _negations(closest) % 2
                         and _negations(mine) % 2 != _negations(theirs) % 2 or _opposed(sentence, closest))
    return Features(coverage, pairs, float(bool(missing_amount)), negation,
                    float(bool(missing_party)), passage_span, missing_amount, missing_party)


def is_own_wording(sentence: str, own_text: str) -> bool:
    """A sentence that the lawyer's text already says (in most of its words and amounts)."""
    if not own_text.strip():
        return False
    words = set(stems(sentence))
    if not words:
        return True  # a stray marker or punctuation, no claim at all
    own = set(stems(own_text))
    new_amounts = _quantities(sentence) - _quantities(own_text)
    return len(words & own) / len(words) >= 0.8 and not new_amounts


def _pair_share(wanted: list[str], passage: list[str]) -> float:
    pairs = set(zip(wanted, wanted[1:]))
    have = set(zip(passage, passage[1:]))
    return len(pairs & have) / len(pairs) if pairs else 0.0


def _quantities(text: str) -> set[tuple[float, str]]:
    return set(_quantities_as_written(text))


def _quantities_as_written(text: str) -> dict[tuple[float, str], str]:
    """The figures a text gives, read by the core (reading/figures.py): periods by their unit,
    amounts, percentages and multiples, then every other number ("five copies"); "Section 7.2"
    names a place, not an amount."""
    out: dict[tuple[float, str], str] = {}
    for f in F.figures(text) + F.counts(text):
        out.setdefault((float(f.value), _FIGURE_UNIT.get(f.kind) or (f.unit or "").rsplit("_", 1)[-1]), f.text)
    return out


_FIGURE_UNIT = {"amount": "$", "percentage": "%", "multiple": "x", "count": ""}


def _missing_amount(sentence: str, precedent: str, own_text: str) -> str:
    have = set(F.duration_words(precedent)) | set(F.duration_words(own_text))
    for unit, written in F.duration_words(sentence).items():
        if unit not in have:
            return written  # "weeks" where the precedent speaks of days
    given = _quantities(precedent) | _quantities(own_text)
    values = {v for v, _ in given}
    for (value, unit), written in sorted(_quantities_as_written(sentence).items()):
        if not unit and value == 1 and written.lower() in ("one", "a", "an"):
            continue  # "no one", "one of them": a pronoun, not a figure
        if (value, unit) in given or unit and (value, "") in given or not unit and value in values:
            continue  # "30 days" against "thirty (30) calendar days" is the same amount
        return written
    # A place in a document is not a figure, and a redraft may name its own ("This Section 7.2"):
    # only a reference the precedent gives as another number of the same kind is a changed one.
    theirs, own = set(F.references(precedent)), set(F.references(own_text))
    for kind, number in F.references(sentence):
        if (kind, number) not in theirs | own and any(k == kind for k, _ in theirs):
            return f"{kind.title()} {number}"
    return ""


_EXCEPTION = P.exception(disapplied="score", nothing_in=True, headings=True)
_OPPOSED = (({"lesser", "less", "lower", "minimum", "least", "fewer"}, {"greater", "more", "higher", "maximum", "most"}),
            ({"before", "prior", "preceding"}, {"after", "following"}),
            ({"refundable"}, {"nonrefundable", "non-refundable"}))


def _opposed(a: str, b: str) -> bool:
    """One text says "lesser", "before", "refundable" where the other says the opposite and not it."""
    wa, wb = set(WORD.findall(a.casefold())), set(WORD.findall(b.casefold()))
    return any((wa & left and wb & right and not wa & right and not wb & left) or
               (wa & right and wb & left and not wa & left and not wb & right) for left, right in _OPPOSED)


_LIMB = re.compile(r"[,;:()\[\]]")


def _restated(text: str, other: str, own: set[str] = frozenset()) -> str:
    """The limbs of ``text`` (between commas, semicolons, brackets) that restate ``other``: a "not" is
    read where both sides say the proposition. A limb that shares under a third of its words with the
    other side is a proposition of its own ("..., but with limits not less than the following" in a
    precedent the sentence cites for its first limb), and so is a limb of the lawyer's own words the
    precedent lacks (the clause's "but no more frequently than once per year" after a cited period):
    its "not" neither backs nor turns round what is cited, and the coverage judges its words. A limb of
    one content word or none ("Neither Party shall,") is kept: its "not" is the sentence's."""
    theirs = set(stems(other))
    kept = []
    for limb in _LIMB.split(text):
        words = set(stems(limb))
        shared, new = words & theirs, words - theirs
        foreign = 3 * len(shared) < len(words) or (len(new) > len(shared) and new <= own)
        if len(words) < 2 or not foreign:
            kept.append(limb)
    # Where no limb restates the other side the sentence says something else altogether: read it whole.
    return " , ".join(kept) if any(len(set(stems(limb))) >= 2 for limb in kept) else text


def _negations(text: str) -> int:
    # A covenant's name ("non-solicitation", "covenant not to compete") says no "not" (polarity.py).
    lowered = _COVENANT.sub(" covenant ", unicodedata.normalize("NFKC", text).casefold().replace("’", "'"))
    # A verb of restraint is a "not" of its object's act ("prevents X from hiring" = "X shall not hire"), so
    # "does not stop X from owning" is "X may own", as a permission in the precedent says it (polarity.py;
    # the limiting words already count "prohibited", "restricted").
    restraints = _restraints(lowered)
    return (sum(w in NEGATORS or w in LIMITING for w in WORD.findall(lowered))
            + lowered.count("n't") + restraints)


def _restraints(lowered: str) -> int:
    """Verbs of restraint, one for a pair said together ("prohibit or restrict X from" is one restraint)."""
    count, end = 0, -1
    for m in P.NEGATIVE_VERBS.finditer(lowered):
        joined = end >= 0 and lowered[end:m.start()].strip(" ,") in ("or", "and", "")
        count += not joined and m.group(0) not in LIMITING
        end = m.end()
    return count


def _closest_sentence(sentence: str, passage: str) -> str:
    wanted = set(stems(sentence))
    parts = [passage[a:b] for a, b in sentence_spans(passage)] or [passage]
    return max(parts, key=lambda p: len(wanted & set(stems(p))))


