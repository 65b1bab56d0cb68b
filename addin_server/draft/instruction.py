"""What a drafting instruction asks for, read once and shared by the router and the checks.

``read_instruction`` turns "Make this mutual", "Tighten the cure period to 15 days" or "Add
the carve-out for passive public holdings from [1]" into an ``Intent``: the kind of change,
its parameters, how sure the reading is, and problems (another language, two asks that
contradict each other). The router runs an operation only on a confident single reading;
the checks turn the same reading into expectations (``Intent.expect``), so an instruction
is understood the same way by the operation that carries it out and by the check of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from addin_server.draft import parties as P
from addin_server.draft.periods import Period, periods

KINDS = ("mutual", "flip", "period", "amount", "carve_out", "conform", "shorten", "plain")
CONFIDENT = 0.8

_MUTUAL = re.compile(r"\b(?:mutual(?:ly)?|reciprocal|bilateral|both (?:parties|ways|sides)|"
                     r"(?:each|either) party)\b", re.I)
_FLIP = re.compile(r"\b(?:instead(?: of)?|switch|reverse|swap|flip|other party|"
                   r"give (?:this|the|that)\b[^.]*?\bto\b|put (?:this|the)\b[^.]*?\bon\b|"
                   r"make \w+ the \w+ing party)\b", re.I)
_CHANGE = re.compile(r"\b(?:change|tighten|shorten|extend|reduce|increase|lower|raise|make "
                     r"it|make this|give|set|cut|allow|to|from|at)\b", re.I)
_AMOUNT = re.compile(r"[$£€]\s?\d[\d,]*")
_CARVE = re.compile(r"\b(?:carve[- ]?out|exception|except(?:ion)? for|exclude|exclusion|"
                    r"limit (?:this|it) to|limit on|subject to|permit(?:ted)?)\b", re.I)
_PRECEDENT_REF = re.compile(r"(?:precedent\s*)?\[(\d{1,2})\]|precedent\s+(\d{1,2})\b", re.I)
_CONFORM = re.compile(r"\b(?:conform|consistent with|in line with|align|match)\b|"
                      r"\b(?:defined )?terms of my\b|\bmy (?:document|agreement)(?:'s|’s)? "
                      r"(?:defined )?terms\b|\bdefined terms\b|\bparty names\b", re.I)
_SHORTEN = re.compile(r"\b(?:shorten|shorter|concise|trim|cut (?:this |it )?down|briefer|"
                      r"brief|essentials|by (?:about )?half|fewer words|tighten up)\b", re.I)
_HALF = re.compile(r"\bhalf\b", re.I)
_LONGER = re.compile(r"\b(?:longer|expand|more detail|elaborate|lengthen)\b", re.I)
_PLAIN = re.compile(r"\bplain(?:er)? (?:english|language|words)\b|\bsimplif|\bsimpler\b|"
                    r"\blegalese\b|\bplain\b", re.I)
_ONE_SIDED = re.compile(r"\b(?:one[- ]sided|only (?:the )?[A-Z]\w+|unilateral)\b")
# Words that say the instruction is not in English (the common ones lawyers would type).
_FOREIGN = re.compile(
    r"\b(?:rendre|réciproque|cette|mutuelle|machen|diese|klausel|gegenseitig|bitte|"
    r"hacer|esta|cláusula|mutua|rendere|questa|reciproca|maak|deze|wederzijds|tornar|"
    r"recíproca|bezpośrednio|umowa|wzajemn\w*)\b", re.I)
_NON_LATIN = re.compile(r"[^\x00-\x7F\u00A0-\u024F\u2000-\u206F\u20AC]")


@dataclass(frozen=True)
class Intent:
    """One reading of an instruction."""

    kind: str  # one of KINDS, "none" (no instruction) or "other" (the model's job)
    confidence: float = 0.0
    params: Mapping[str, Any] = field(default_factory=dict)
    also: tuple[str, ...] = ()  # further kinds the instruction asks for
    problems: tuple[str, ...] = ()  # "language", "contradictory"
    reason: str = ""  # for the lawyer, when a problem stops the instruction being read

    @property
    def confident(self) -> bool:
        return self.confidence >= CONFIDENT and not self.problems and not self.also

    def expect(self) -> dict[str, Any]:
        """The expectations the checks hold a draft to, in the evaluation set's vocabulary."""
        out: dict[str, Any] = {}
        for kind in (self.kind, *self.also):
            p = self.params
            if kind == "mutual":
                out["mutual"] = True
            elif kind == "flip" and p.get("holder"):
                out.update(holder=p["holder"], **({"other": p["other"]} if p.get("other") else {}))
            elif kind == "period" and p.get("value"):
                unit = p["unit"]
                key = {"days": "period_days", "business days": "period_days",
                       "calendar days": "period_days", "months": "period_months",
                       "years": "period_years", "weeks": "period_weeks"}.get(unit, "period_days")
                out[key] = p["value"]
                if unit in {"business days", "calendar days"}:
                    out["unit"] = unit
            elif kind == "amount" and p.get("amount"):
                out["amount"] = p["amount"]
            elif kind == "carve_out" and p.get("phrase"):
                out["carve_out"] = p["phrase"]
                if p.get("precedent"):
                    out["cite"] = p["precedent"]
            elif kind == "conform" and p.get("precedent") and p.get("what") == "period":
                out["conform_period"] = p["precedent"]
            elif kind == "shorten":
                out["max_length_ratio"] = p.get("ratio", 0.8)
            elif kind == "plain":
                out["plain"] = True
        return out


def read_instruction(instruction: str, clause: str = "") -> Intent:
    """The kind of change an instruction asks for, with its parameters."""
    text = " ".join(instruction.split())
    if not text:
        return Intent("none", 1.0)
    if _FOREIGN.search(text) or len(_NON_LATIN.findall(text)) > 2:
        return Intent("other", 0.0, problems=("language",), reason=(
            "The instruction does not seem to be in English, so no drafting operation can "
            "read it; the drafting assistant was asked instead, and the checks cannot tell "
            "whether it did what you asked."))
    found: dict[str, dict[str, Any]] = {}
    if _MUTUAL.search(text) and not re.search(r"\bnot mutual\b", text, re.I):
        found["mutual"] = {}
    period = _period(text)
    role_swap = re.search(rf"\binstead of (?:the )?(?:{P._ROLE_ALT})\b", text)
    if _FLIP.search(text) and "mutual" not in found and (role_swap or not period):
        found["flip"] = _flip_params(text, clause)
    if period and not (_CONFORM.search(text) and _PRECEDENT_REF.search(text)):
        found["period"] = period
    if amount := _AMOUNT.search(text):
        found["amount"] = {"amount": int(re.sub(r"[^\d]", "", amount.group(0)))}
    if _CARVE.search(text) and not period:
        found["carve_out"] = _carve_params(text)
    if _CONFORM.search(text):
        found["conform"] = _conform_params(text)
    if _SHORTEN.search(text) and not period:
        found["shorten"] = {"ratio": 0.6 if _HALF.search(text) else 0.8}
    if _PLAIN.search(text):
        found["plain"] = {}
    contradiction = _contradiction(text, found)
    if contradiction:
        return Intent("other", 0.0, params={}, also=tuple(found), problems=("contradictory",),
                      reason=contradiction)
    if not found:
        return Intent("other", 0.3)
    kinds = list(found)
    kind = kinds[0]
    params = {k: v for d in found.values() for k, v in d.items()}
    confidence = 0.9 if len(kinds) == 1 else 0.5
    if kind == "flip" and not params.get("holder"):
        confidence = 0.5
    if kind == "carve_out" and not params.get("precedent"):
        confidence = 0.5  # a carve-out with no precedent to take it from: the model writes it
    return Intent(kind, confidence, params, tuple(kinds[1:]))


def _contradiction(text: str, found: dict[str, dict[str, Any]]) -> str:
    if "mutual" in found and (_ONE_SIDED.search(text) or re.search(
            r"\bonly (?:binds?|bind|binding|applies to|apply to|protects?)\b", text, re.I)):
        return ("Your instruction asks for the clause to be both mutual and one-sided; say "
                "which you want. Nothing was changed.")
    if "shorten" in found and _LONGER.search(text):
        return ("Your instruction asks for the clause to be both shorter and longer; say "
                "which you want. Nothing was changed.")
    values = {p.value for p in periods(text)}
    if len(values) > 1 and not re.search(r"\binstead of|from\b", text, re.I):
        return ("Your instruction names more than one period; say which one the clause "
                "should have. Nothing was changed.")
    return ""


def _period(text: str) -> dict[str, Any] | None:
    matches = periods(text)
    if not matches or not _CHANGE.search(text):
        return None
    # "14 days ... instead of 7": the new value is the first one named.
    return {"value": matches[0].value, "unit": matches[0].unit, "old": _old_value(text, matches)}


def _old_value(text: str, matches: list[Period]) -> int | float | None:
    for p in matches[1:]:
        return p.value
    old = re.search(r"instead of (\d+)", text)
    return int(old.group(1)) if old else None


def _flip_params(text: str, clause: str) -> dict[str, Any]:
    """Who should hold the right or obligation ("holder") and who holds it now ("other")."""
    in_clause = P.parties(clause) if clause else []
    instead = re.search(rf"\b(?:the )?({P._ROLE_ALT})\b instead of (?:the )?({P._ROLE_ALT})\b",
                        text)
    if instead:
        return {"holder": instead.group(1), "other": instead.group(2)}
    if re.search(r"\breverse the roles|swap|switch the parties\b", text, re.I) and clause:
        bound = P.main_party(clause)  # it moves to the other party the clause names
        return {"holder": P.other_party(clause, bound) if bound else None, "other": bound}
    named = [m.group(1) for m in P.ROLE_RE.finditer(text)]
    holder = named[0] if named else None
    other = next((p for p in in_clause if p != holder), None) if holder else None
    if holder and not other and clause:
        other = P.other_party(clause, holder)
    return {"holder": holder, "other": other}


def _carve_params(text: str) -> dict[str, Any]:
    ref = _PRECEDENT_REF.search(text)
    precedent = int(ref.group(1) or ref.group(2)) if ref else None
    named = re.search(r"\b(?:the|a|an) ([\w ]+?) (?:carve[- ]?out|exception)\b", text, re.I)
    if named and named.group(1).lower() not in {"", "same"}:
        return {"precedent": precedent, "phrase": named.group(1)}
    phrase = re.search(r"\b(?:carve[- ]?out|for|on|to|of|that)\s+(.+?)(?:\s*(?:,|\bfrom\b|\bas (?:in|precedent)"
                       r"|\bas\b|\bso that\b|\bin\b\s*(?:precedent|\[)|\.|$))", text, re.I)
    words = phrase.group(1) if phrase else ""
    words = re.sub(r"^(?:for|the|a|an)\s+", "", words.strip(), flags=re.I)
    words = re.sub(r"^(?:the|a|an)\s+", "", words, flags=re.I)
    if re.match(r"(?:from|precedent|\[)", words, re.I):
        words = ""
    return {"precedent": precedent, "phrase": words}


def _conform_params(text: str) -> dict[str, Any]:
    ref = _PRECEDENT_REF.search(text)
    what = "period" if re.search(r"\bperiod|days|time\b", text, re.I) else "terms"
    return {"precedent": int(ref.group(1) or ref.group(2)) if ref else None, "what": what}
