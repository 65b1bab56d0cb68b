"""Where a clause's terms stand among the matching precedents: distributions counted per document.

Input: the lawyer's clause terms and the explorer's matches (``SearchHit``s best first, walls and
filters already applied by the search). Output: per *dimension* (a kind of term: notice period,
non-compete duration, fee cap, governing law ...) the buckets of values with the documents in each,
the lawyer's value placed among them, and the sub-provisions most matching documents have that the
lawyer's clause lacks.

Counting is per document, not per clause or near copy: a document counts once per dimension, with
the value its most similar matching clause states (its first figure of that dimension), so
"18 of 25" means 18 documents; and documents whose matching clauses are near copies word for word
(the same form filed twice, one state's variant of another) count once, folded by their words.
Liability caps count in one family per kind (reading.caps): fixed amounts with fixed amounts, fee
windows with fee windows, multiples with multiples, "all fees paid" on its own, lesser/greater-of
as such; a figure that measures a cap is counted in the cap's family only. Buckets merge values within 1.5% of each other once converted to
one scale (days, months of fees, the amount): "12 months" and "1 year" are one bucket.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from index_builder.model import SearchHit
from rapidfuzz import fuzz
from index_builder.terms.cap_terms import cap_dimension, cap_term, cap_title
from index_builder.terms.extract import ClauseTerms, Term
from index_builder.terms.stored import terms_of

# Every unit the figures reader gives a period (reading/figures.py): "48 hours" had none and
# /market failed on a lawyer's clause that gave one (KeyError, found in session 8).
_DAYS = {"hour": 1 / 24, "day": 1.0, "business_day": 7 / 5, "week": 7.0, "month": 365.25 / 12, "year": 365.25}
_TOLERANCE = 0.015
TITLES = {
    "period:notice": "Notice period", "period:cure": "Cure period", "period:term": "Term",
    "period:renewal": "Renewal term", "period:survival": "Survival", "period:payment": "Payment period",
    "period:non_compete": "Non-compete duration", "period:non_solicit": "Non-solicitation duration",
    "period:lookback": "Look-back period", "period:retention": "Retention period",
    "period:response": "Response time", "period:confidentiality": "Confidentiality period",
    "period:other": "Other period",
    "multiple": "Multiple", "percentage:interest": "Late-payment interest",
    "percentage:credit": "Service credit", "percentage:other": "Percentage",
    "governing_law": "Governing law", "forum": "Courts (forum)", "mutuality": "Who is bound",
}
SUBPROVISION_TITLES = {"liability_cap": "Cap on liability", "super_cap": "Higher cap (super-cap) for some claims",
                       "cap_carveout": "Carve-outs from the cap or exclusion",
                       "consequential_exclusion": "Exclusion of consequential damages"}
# Shown even when the lawyer's clause lacks them only if this share of documents holds them.
_SHOWN_SHARE = 0.2
# Two documents whose best matching clauses are this alike (rapidfuzz's normalised edit similarity
# of their lower-cased words, 0..100) are one precedent twice: the same form filed under two names.
NEAR_COPY = 90


def dimension(term: Term) -> str:
    if term.type.startswith("cap:"):
        return cap_dimension(term)
    if term.type in {"period", "percentage"}:
        return f"{term.type}:{term.role}"
    if term.type == "money":
        return f"money:{term.unit}"
    return term.type


def title(dim: str) -> str:
    if dim.startswith("cap:"):
        return cap_title(dim)
    return TITLES.get(dim) or (f"Amount ({dim.split(':', 1)[1]})" if dim.startswith("money:") else dim)


def scale(term: Term) -> float | None:
    """The term on one scale per dimension (days, months of fees, amount, percent); None: categorical."""
    if term.type == "period":
        return float(term.value) * _DAYS[term.unit]
    if term.type in {"money", "percentage", "multiple"} or (term.type.startswith("cap:")
                                                            and not isinstance(term.value, str)):
        return float(term.value)
    return None


def market_terms(found: ClauseTerms) -> list[Term]:
    """What a clause is compared on: its figures (a cap's own figures only through its cap), law,
    forum, and one term per liability cap."""
    return [t for t in found.terms if t.role != "cap"] + [cap_term(c) for c in found.caps]


@dataclass
class Precedent:
    hit: SearchHit
    term: Term | None  # the figure in this clause (None for a clause-level reading)
    reading: str | None = None  # the clause-level reading (mutuality) when ``term`` is None


@dataclass
class Bucket:
    label: str
    value: float | str
    precedents: list[Precedent] = field(default_factory=list)  # one per document
    yours: bool = False

    @property
    def documents(self) -> int:
        return len(self.precedents)


@dataclass
class TermMarket:
    dimension: str
    ordered: bool
    buckets: list[Bucket]
    yours: Term | None = None
    yours_label: str | None = None
    below: int = 0  # documents whose value yours is below
    same: int = 0
    above: int = 0
    status: str = "usual"  # usual | below | above | differs | not_stated | not_read | other_kind | no_market

    @property
    def documents(self) -> int:
        return sum(b.documents for b in self.buckets)

    @property
    def title(self) -> str:
        return title(self.dimension)

    @property
    def usual(self) -> Bucket | None:
        return max(self.buckets, key=lambda b: b.documents) if self.buckets else None


@dataclass
class SubprovisionMarket:
    name: str
    documents: int
    yours: bool
    precedents: list[Precedent]

    @property
    def title(self) -> str:
        return SUBPROVISION_TITLES.get(self.name, self.name)


@dataclass
class Market:
    yours: ClauseTerms
    terms: list[TermMarket]
    subprovisions: list[SubprovisionMarket]
    missing: list[str]  # sub-provisions at least ``usual_share`` of documents have and yours lacks
    documents: int
    matches: int
    folded: int = 0  # documents counted as near copies of another

    @property
    def your_terms(self) -> int:
        """The lawyer's terms the comparison shows, one per kind (a card each): a clause that
        states its notice period twice is compared once, so it is one term, not two (the
        summary counted figures and said "2 terms" over one card)."""
        return sum(1 for t in self.terms if t.yours is not None)

    @property
    def stands_out(self) -> bool:
        return bool(self.missing) or any(t.status in {"below", "above", "differs"} for t in self.terms)


def compare(yours: ClauseTerms, hits: Sequence[SearchHit], usual_share: float = 0.5) -> Market:
    """The market for ``yours`` among ``hits`` (best first; the caller applied walls and filters)."""
    per_doc: dict[str, dict[str, Precedent]] = {}  # doc -> dimension -> its best clause's figure
    subs: dict[str, dict[str, Precedent]] = {}  # sub-provision -> doc -> best clause holding it
    docs: dict[str, None] = {}
    group = _near_copies(hits)
    for hit in hits:
        doc = group[hit.clause.doc_id]
        docs.setdefault(doc, None)
        found = terms_of(hit.clause)
        mine = per_doc.setdefault(doc, {})
        for term in market_terms(found):
            mine.setdefault(dimension(term), Precedent(hit, term))
        if found.mutuality:
            mine.setdefault("mutuality", Precedent(hit, None, found.mutuality))
        for name in found.subprovisions:
            subs.setdefault(name, {}).setdefault(doc, Precedent(hit, None))
    total = len(docs)
    yours_by_dim: dict[str, Term] = {}
    for term in market_terms(yours):
        yours_by_dim.setdefault(dimension(term), term)
    dims = {d for m in per_doc.values() for d in m}
    counts = {d: sum(1 for m in per_doc.values() if d in m) for d in dims}
    shown = [d for d in dims if d in yours_by_dim or (d == "mutuality" and yours.mutuality)
             or (counts[d] >= 2 and counts[d] >= _SHOWN_SHARE * total and not d.endswith(":other"))
             # a clause that caps liability is shown every way its precedents cap it
             or (d.startswith("cap:") and bool(yours.caps) and counts[d] >= 2)]
    shown += [d for d in yours_by_dim if d not in dims]  # yours alone: nothing to compare with
    markets = [_term_market(d, per_doc, yours_by_dim.get(d), yours, usual_share) for d in shown]
    markets.sort(key=lambda m: (m.yours is None and m.dimension != "mutuality", -m.documents, m.dimension))
    sub_markets = [SubprovisionMarket(n, len(d), n in yours.subprovisions, list(d.values()))
                   for n, d in sorted(subs.items(), key=lambda kv: -len(kv[1]))]
    # a clause that caps liability in any way is never "missing" its cap
    missing = [s.name for s in sub_markets if not s.yours and total and s.documents >= usual_share * total
               and not (s.name == "liability_cap" and yours.caps)]
    folded = len({h.clause.doc_id for h in hits}) - total
    return Market(yours, markets, sub_markets, missing, total, len(hits), folded)


def _near_copies(hits: Sequence[SearchHit]) -> dict[str, str]:
    """Each document -> the first document (best first) whose best matching clause its own best
    matching clause copies nearly word for word, figures included; itself when none does."""
    out: dict[str, str] = {}
    firsts: list[tuple[str, str, set[tuple[str, str]]]] = []
    for hit in hits:
        doc = hit.clause.doc_id
        if doc in out:
            continue
        mine = " ".join(hit.clause.text.lower().split())
        # the same words with another figure are another deal: only equal figures fold
        keys = {(dimension(t), t.key) for t in market_terms(terms_of(hit.clause))}
        out[doc] = next((d for d, theirs, their_keys in firsts
                         if keys == their_keys and fuzz.ratio(mine, theirs) >= NEAR_COPY), doc)
        if out[doc] == doc:
            firsts.append((doc, mine, keys))
    return out


def _term_market(dim: str, per_doc: dict[str, dict[str, Precedent]], mine: Term | None,
                 yours: ClauseTerms, usual_share: float) -> TermMarket:
    held = [m[dim] for m in per_doc.values() if dim in m]
    if dim == "mutuality":
        buckets = _categorical([(p.reading or "", p) for p in held])
        label = yours.mutuality.replace("_", "-") if yours.mutuality else None
        market = TermMarket(dim, False, buckets, yours_label=label)
        if yours.mutuality is None:
            # every clause binds someone or grants a right: None is "not read as either" (a right
            # only one side holds, duties on both sides unlike), never "not in your clause"
            market.status = "not_read"
            return market
        return _place_categorical(market, yours.mutuality, usual_share)
    ordered = scale(held[0].term) is not None if held else (mine is not None and scale(mine) is not None)
    if ordered:
        market = TermMarket(dim, True, _ordered(held), mine, mine.label if mine else None)
        market = _place_ordered(market, mine, usual_share)
    else:
        buckets = _categorical([(str(p.term.value), p) for p in held if p.term is not None])
        market = TermMarket(dim, False, buckets, mine, mine.label if mine else None)
        market = _place_categorical(market, str(mine.value) if mine else None, usual_share)
    if mine is None and dim.startswith("cap:") and yours.caps:
        # the lawyer's clause caps liability, in another way: say so, never "not in your clause"
        market.status = "other_kind"
        market.yours_label = "; ".join(dict.fromkeys(cap_term(c).label for c in yours.caps))
    return market


def _ordered(held: list[Precedent]) -> list[Bucket]:
    """Buckets of nearly equal values (within 1.5%), smallest first, labelled by their commonest wording."""
    points = sorted(((scale(p.term), p) for p in held if p.term is not None), key=lambda x: x[0])
    groups: list[list[tuple[float, Precedent]]] = []
    for value, p in points:
        if groups and value <= groups[-1][0][0] * (1 + _TOLERANCE) + 1e-9:
            groups[-1].append((value, p))
        else:
            groups.append([(value, p)])
    buckets = []
    for group in groups:
        labels = [p.term.label for _, p in group]
        label = max(dict.fromkeys(labels), key=labels.count)
        buckets.append(Bucket(label, group[0][0], [p for _, p in group]))
    return buckets


def _categorical(pairs: list[tuple[str, Precedent]]) -> list[Bucket]:
    buckets: dict[str, Bucket] = {}
    for value, p in pairs:
        if value:
            buckets.setdefault(value, Bucket(value.replace("_", "-"), value)).precedents.append(p)
    return sorted(buckets.values(), key=lambda b: (-b.documents, b.label))


def _place_ordered(market: TermMarket, mine: Term | None, usual_share: float) -> TermMarket:
    if mine is None:
        market.status = "not_stated"
        return market
    if not market.buckets:
        market.status = "no_market"
        return market
    v = scale(mine)
    for bucket in market.buckets:
        same = abs(v - float(bucket.value)) <= _TOLERANCE * max(abs(v), abs(float(bucket.value)), 1e-9)
        bucket.yours = same
        if same:
            market.same += bucket.documents
        elif v < float(bucket.value):
            market.below += bucket.documents
        else:
            market.above += bucket.documents
    usual = market.usual
    if usual is not None and not usual.yours and usual.documents >= usual_share * market.documents:
        market.status = "below" if v < float(usual.value) else "above"
    return market


def _place_categorical(market: TermMarket, mine: str | None, usual_share: float) -> TermMarket:
    if mine is None:
        market.status = "not_stated"
        return market
    if not market.buckets:
        market.status = "no_market"
        return market
    for bucket in market.buckets:
        bucket.yours = bucket.value == mine
        if bucket.yours:
            market.same += bucket.documents
    usual = market.usual
    if usual is not None and not usual.yours and usual.documents >= usual_share * market.documents:
        market.status = "differs"
    return market
