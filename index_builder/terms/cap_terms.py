"""Liability caps as Compare terms counts them: each kind of cap its own family of values.

A fixed amount is compared with fixed amounts (per currency), a fee window with fee windows
(months of fees), a multiple with multiples, "all fees paid" with itself, and a lesser-of or
greater-of is shown as such, with its limbs in its label. A cap whose measure is a placeholder
(``${general_cap_amount}``, ``{cap_multiplier}x``) is its kind's "left blank" family: it has no
value to place.
"""

from __future__ import annotations

from index_builder.reading.caps import Cap
from index_builder.terms.extract import Term

TITLES = {
    "cap:fixed": "Liability cap: fixed amount",
    "cap:fees_period": "Liability cap: fees over a period",
    "cap:fees_all": "Liability cap: all fees paid (no period)",
    "cap:multiple": "Liability cap: multiple",
    "cap:lesser_of": "Liability cap: the lesser of",
    "cap:greater_of": "Liability cap: the greater of",
    "cap:redacted": "Liability cap: amount redacted",
    "cap:other": "Liability cap: another measure",
}
_ORDERED = {"fixed", "fees_period", "multiple"}


def cap_term(cap: Cap) -> Term:
    """The cap as one market figure: ``type`` "cap:<kind>"; ``value`` its number on the family's
    scale (amount, months of fees, multiple) or, for the other kinds, its label."""
    value = _number(cap)
    unit = cap.currency or "" if cap.kind == "fixed" else "month" if cap.kind == "fees_period" else \
        (f"{_n(cap.period_months)}m" if cap.kind == "multiple" and cap.period_months else "")
    # the label of a numbered cap is Term's own (Term.label); the others carry it as their value
    return Term(f"cap:{cap.kind}", value if value is not None else cap_label(cap), unit, "cap",
                cap.start, cap.end, cap.text)


def _number(cap: Cap) -> float | None:
    if cap.kind == "fixed":
        return cap.amount
    if cap.kind == "fees_period":
        return cap.period_months
    if cap.kind == "multiple":
        return cap.multiple
    return None


def cap_dimension(term: Term) -> str:
    """fixed amounts per currency; a cap with no stated number in its kind's "left blank" family."""
    kind = term.type.split(":", 1)[1]
    if kind in _ORDERED and isinstance(term.value, str):
        return f"{term.type}:unstated"
    if kind == "fixed":
        return f"{term.type}:{term.unit}"
    return term.type


def cap_title(dimension: str) -> str:
    base, _, rest = dimension.partition(":")[2].partition(":")
    title = TITLES.get(f"cap:{base}", dimension)
    if rest == "unstated":
        return f"{title} (left blank)"
    return f"{title} ({rest})" if rest else title


def cap_label(cap: Cap) -> str:
    """As a lawyer reads it: "USD 1,000,000", "fees of 12 months", "3x fees of 12 months",
    "all fees paid", "the lesser of USD 50,000 and fees of 12 months", "redacted"."""
    if cap.kind == "fixed":
        return f"{cap.currency or ''} {cap.amount:,.2f}".removesuffix(".00").strip() \
            if cap.amount is not None else "an amount left blank"
    if cap.kind == "fees_period":
        return f"fees of {_n(cap.period_months)} months" if cap.period_months else "fees over a term"
    if cap.kind == "multiple":
        times = f"{_n(cap.multiple)}x" if cap.multiple is not None else "a multiple (left blank)"
        return f"{times} fees of {_n(cap.period_months)} months" if cap.period_months else f"{times} {_basis(cap)}".strip()
    if cap.kind in ("lesser_of", "greater_of"):
        which = "lesser" if cap.kind == "lesser_of" else "greater"
        # the limbs in one order, so "$50,000 or the fees" and "the fees or $50,000" are one value
        return f"the {which} of " + " and ".join(sorted(cap_label(p) for p in cap.parts))
    if cap.kind == "fees_all":
        return "all fees paid"
    return "redacted" if cap.kind == "redacted" else (cap.basis or "another measure")[:60]


def _basis(cap: Cap) -> str:
    return "of " + cap.basis.lower().removeprefix("the ")[:40] if cap.basis else ""


def _n(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}".rstrip("0").rstrip(".")
