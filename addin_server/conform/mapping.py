"""What one precedent term becomes in the lawyer's document, and how sure that is.

Evidence, in order (the first that decides wins):
1. exact: the document has the same term, in either number ("Covered Employee(s)"), or a
   party of that name; a term the precedent defines in the other number than the document
   ("Service" / "Services") takes the document's;
2. self: the precedent's name for itself ("this NDA") becomes the document's ("this
   Agreement"); where the document uses that word for another document, only "this X" moves;
3. party: the document's party of the same role (reading/parties.py: one table), or the
   name the precedent's own document gives the same party ("Founder (Assignor)");
4. compound: a term built on a party or the document's name ("MNDA Term", "Provider
   Covered Claim") becomes the document's term built the same way, when it defines that;
5. definition: the document defines a term whose definition says the same thing;
otherwise it is not defined in the document. Only mappings at ``apply_min`` are applied.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

from index_builder.reading.document import Definition, Document
from index_builder.reading.parties import NEUTRAL, WEAK, Role, confidentiality_role, role_by_name, role_of
from index_builder.settings import ConformSettings
from addin_server.conform.model import TermMapping
from addin_server.conform.similarity import definition_similarity, name_similarity

SELF_CONFIDENCE = 0.85
_PLAIN_NAMES = frozenset({"Agreement", "Contract"})
# The pane used to send a definition's first 160 characters, and the thresholds were set on
# those: the document's definition is compared as far as that (the precedent's as far, too).
_COMPARED_CHARS = 160
ALIAS_CONFIDENCE = 0.9
COMPOUND_CONFIDENCE = 0.9
PLAYED_CONFIDENCE = 0.6
NOT_DEFINED = "your document does not define it"


def map_term(term: str, count: int, source: Document, target: Document, settings: ConformSettings,
             rewrite=None, clause: str = "") -> tuple[TermMapping, bool]:
    """The mapping for ``term`` and whether it moves only where the text says "this <term>".

    ``rewrite`` puts a definition in the document's parties (for the definition comparison);
    ``clause`` is the text being conformed (the role a party plays in it).
    """
    self_mapping = _self(term, count, source, target)
    if self_mapping:
        return self_mapping
    exact = _exact(term, count, source, target)
    if exact:
        return exact, False
    if _is_party(term, source):
        mapped = _party(term, count, source, target, settings) or _played(term, count, target, clause)
        if mapped:
            return mapped, False
    compound = _compound(term, count, source, target, settings)
    if compound:
        return compound, False
    own = source.definition(term)
    if own and own.text and not _is_party(term, source):
        mapped = _by_definition(term, count, own, target, settings, rewrite)
        if mapped:
            return mapped, False
    return TermMapping(term, "", "none", 0.0, False, count, _unresolved(term, source, target, settings)), False


def _unresolved(term: str, source: Document, target: Document, settings: ConformSettings) -> str:
    """Why a term stays as the precedent has it. A term built on a party the text renames
    ("Provider Covered Claims" beside "Provider" -> "Supplier") would read half-changed: it is
    said as such, with the term the document would need, never left as any other unknown term."""
    built = [b for b in _built_on(term, source, target, settings) if b[1] != b[0]]
    if not built:
        return NOT_DEFINED
    head, new, candidate = built[0]
    return (f"built on \u201c{head}\u201d, which becomes \u201c{new}\u201d in your text; your document does not "
            f"define \u201c{candidate}\u201d: define it, or type your term")


def _built_on(term: str, source: Document, target: Document, settings: ConformSettings
              ) -> list[tuple[str, str, str]]:
    """(the party or name the term is built on, what that becomes, the term built the same way)
    for a term whose first or last word is a party (or the precedent's name for itself) that the
    text maps; first word first."""
    words = term.split(" ")
    out: list[tuple[str, str, str]] = []
    if len(words) < 2:
        return out
    for head, rest, join in ((words[0], words[1:], lambda new, r: " ".join([new, *r])),
                             (words[-1], words[:-1], lambda new, r: " ".join([*r, new]))):
        if head == source.self_name and target.self_name:
            new = target.self_name
        elif _is_party(head, source):
            mapped = _party(head, 0, source, target, settings)
            new = mapped.target if mapped and mapped.apply else ""
        else:
            continue
        if new:
            out.append((head, new, join(new, rest)))
    return out


def _exact(term: str, count: int, source: Document, target: Document) -> TermMapping | None:
    party = target.party(term)
    if party:
        return TermMapping(term, party.name, "exact", 1.0, party.name != term, count, "your document has this party")
    found = target.definition(term)
    if not found and target.uses(term):
        # A term the document uses capitalised without defining it here ("Cover Terms", the
        # "Applicable Laws" of incorporated terms) is the document's own word: kept.
        return TermMapping(term, term, "exact", 1.0, False, count, "your document uses it")
    if not found:
        return None
    if found.term != term and any(d.term == found.term for d in source.definitions):
        return None  # the precedent defines "Order Term" and "Order Terms" apart: not one term in two numbers
    own = source.definition(term)
    # The precedent defines "Service", the document "Services": the document's word, in each
    # mention's own form; a use in the other number of the same defined term stays as it is.
    name = found.term if own and own.term.lower() == term.lower() and own.term != found.term else term
    return TermMapping(term, name, "exact", 1.0, name != term, count, "your document defines it")


def _self(term: str, count: int, source: Document, target: Document) -> tuple[TermMapping, bool] | None:
    """The precedent's name for itself: "this NDA" -> "this Agreement"."""
    if not source.self_name or not target.self_name or term != source.self_name or target.self_name == term:
        return None
    if term in target.self_refs:
        return None  # the document says "this Agreement" too: the word is its own (exact)
    # Where the document uses the word for another document ("the Agreement" a DPA supplements),
    # only "this Agreement" means the document itself.
    only_this = bool(target.definition(term)) or bool(target.party(term)) or target.uses(term) > 0
    # Sure only when the document defines the name it calls itself, or it is a plain "Agreement";
    # a title read from "this Employment Offer Letter" alone is shown for the lawyer to tick.
    sure = bool(target.definition(target.self_name)) or target.self_name in _PLAIN_NAMES
    why = (f"your document calls itself the {target.self_name}"
           + (f" (“{term}” there is another document: only “this {term}” changes)" if only_this else "")
           + ("" if sure else "; check before applying"))
    return TermMapping(term, target.self_name, "self", SELF_CONFIDENCE if sure else 0.6, sure, count, why), only_this


def _is_party(term: str, source: Document) -> bool:
    return bool(source.party(term)) or bool(role_by_name(term))


def _role_in(name: str, document: Document) -> Role | None:
    party = document.party(name)
    if party and party.role:
        return party.role
    own = document.definition(name)
    return role_of(name, own.text if own else "", document.party_names)


def _party(term: str, count: int, source: Document, target: Document, settings: ConformSettings) -> TermMapping | None:
    party = source.party(term)
    alias = next((a for a in (party.aliases if party else ()) if target.party(a)), None)
    if alias:
        return TermMapping(term, target.party(alias).name, "role", ALIAS_CONFIDENCE, ALIAS_CONFIDENCE >= settings.apply_min,
                           count, f"the precedent's own document calls the {term} the {alias}")
    role = _role_in(term, source)
    if not role:
        return None
    same = [p.name for p in target.parties if (p.role or _role_in(p.name, target)) == role]
    if not same:
        return None
    derived = term in NEUTRAL or same[0] in NEUTRAL or not role_by_name(term) or not role_by_name(same[0])
    weak = term in WEAK or same[0] in WEAK
    # A party of the document whose side nothing says ("Business will pay ...") may be the one
    # the document uses in its body: the match is shown, with it as the other choice.
    unknown = [p.name for p in target.parties if p.how == "used" and not (p.role or _role_in(p.name, target))]
    confidence = 0.5 if len(same) > 1 else 0.6 if weak or unknown else 0.8 if derived else 0.9
    apply = confidence >= settings.apply_min
    why = f"both are the {role.side}" + ("" if apply else "; check before applying")
    return TermMapping(term, same[0], "role", confidence, apply, count, why, tuple(same[1:] + unknown))


def _played(term: str, count: int, target: Document, clause: str) -> TermMapping | None:
    """A party the document has no role for, read from what it does in the clause: the
    Contractor who must keep the Company's information confidential is the document's
    Recipient. Shown, never applied: the clause, not the deal, says it."""
    role = confidentiality_role(clause, term) if clause else None
    same = [p.name for p in target.parties if p.role == role] if role else []
    if len(same) != 1:
        return None
    return TermMapping(term, same[0], "role", PLAYED_CONFIDENCE, False, count,
                       f"the {term} is the {role.side} of confidential information in this clause; check before applying")


def _compound(term: str, count: int, source: Document, target: Document, settings: ConformSettings) -> TermMapping | None:
    """"MNDA Term" -> "NDA Term", "Provider Covered Claim" -> "Supplier Covered Claim"."""
    for head, new, candidate in _built_on(term, source, target, settings):
        found = target.definition(candidate)
        if found:
            return TermMapping(term, found.term, "compound", COMPOUND_CONFIDENCE, COMPOUND_CONFIDENCE >= settings.apply_min,
                               count, f"your document's term for the same thing (“{head}” is “{new}” there)")
    return None


def _by_definition(term: str, count: int, own: Definition, target: Document, settings: ConformSettings,
                   rewrite) -> TermMapping | None:
    # Compared in the document's own words too: "relating to Employer's business" reads
    # "relating to Organisation's business" once the parties are mapped; the better reading counts.
    own_text = rewrite(own.text) if rewrite else own.text
    candidates = [replace(d, text=_clipped(d.text)) for d in _unique_definitions(target.definitions)
                  if d.text and d.term not in target.party_names]

    def alike(d: Definition) -> float:
        return max(definition_similarity(term, own.text, d.term, d.text), definition_similarity(term, own_text, d.term, d.text))

    scored = sorted(((alike(d) * (1 - settings.name_weight) + name_similarity(term, d.term) * settings.name_weight, d.term)
                     for d in candidates), reverse=True)
    if not scored or scored[0][0] < settings.suggest_min:
        return None
    best, name = scored[0]
    margin = best - (scored[1][0] if len(scored) > 1 else 0.0)
    apply = best >= settings.apply_min and margin >= settings.margin
    why = f"definitions alike ({best:.2f})" + ("" if apply else "; check before applying")
    return TermMapping(term, name, "definition", round(best, 3), apply, count, why, tuple(n for _, n in scored[1:3]))


def _clipped(text: str) -> str:
    if len(text) <= _COMPARED_CHARS:
        return text
    return re.sub(r"\s+\S*$", "", text[:_COMPARED_CHARS - 1]) + "\u2026"


def _unique_definitions(defs: Sequence[Definition]) -> list[Definition]:
    seen: dict[str, Definition] = {}
    for d in defs:
        seen.setdefault(d.term, d)
    return list(seen.values())
