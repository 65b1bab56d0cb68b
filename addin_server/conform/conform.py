"""Conform a precedent to the lawyer's document: map terms, rewrite mentions, map references.

The terms a precedent uses are its document's parties, the terms its document defines, what
it calls itself, party words it uses as parties and capitalised terms it uses without
defining (index_builder/reading). Each is mapped (mapping.py); only mappings at or above
``apply_min`` are applied, the rest are shown unapplied; a mention is rewritten in its own
form (plural, possessive, capitals) and never inside a longer term or a cross-reference's
title. The lawyer's overrides change exactly the term they name.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from typing import Sequence

from index_builder.model import Clause
from index_builder.reading.defined_terms import (Mention, capitalised_terms, defined_terms, fix_article, known_forms,
                                                 mentions, quoted_mentions, singular, written_as)
from index_builder.reading.document import (Document, acronyms, after_this, article_before, headings_in,
                                            read_document)
from index_builder.reading.labels import clause_label
from index_builder.reading.paragraphs import from_clauses
from index_builder.reading.parties import ROLE_NAMES
from index_builder.reading.references import references as cross_references
from index_builder.settings import ConformSettings
from addin_server.conform import references
from addin_server.conform.mapping import NOT_DEFINED, map_term
from addin_server.conform.model import ConformResult, MissingTerm, Substitution, TermMapping

log = logging.getLogger(__name__)


def source_document(clauses: Sequence[Clause]) -> Document:
    """The precedent's document as the index holds it (its clauses in order), read by the core."""
    citation = (clauses[0].doc_title or clauses[0].doc_id) if clauses else ""
    return read_document(from_clauses(clauses), citation)


def _candidates(text: str, source: Document) -> set[str]:
    """Terms of the precedent its text may use: its document's terms, parties, name for
    itself; party words; capitalised terms nobody defines (not headings, not known plurals)."""
    known = set(source.terms) | set(source.party_names) | ({source.self_name} - {""})
    # Party words the clause uses as a party: in the singular, past its own heading line
    # ("Non-Solicitation of Customers, Vendors ..." names no party).
    body_start = len(text.split("\n", 1)[0]) if "\n" in text else 0
    known |= {name for name in ROLE_NAMES if any(not m.plural and m.start >= body_start for m in mentions(text, name))}
    forms = known_forms(sorted(known))
    # A term in a section's heading or a heading in the clause is a title, not a use ("Reservation of Rights").
    headings = {sec.heading.lower() for sec in source.sections if sec.heading}
    headings |= {h.lower() for h in headings_in(text)}
    out = set(known)
    # Acronyms its own document uses as terms ("the CIIAA"), defined there or not, past the
    # clause's heading line; a roman numeral ("Schedule IV") is a number, never mapped.
    for word in acronyms(text[body_start:]):
        if source.uses(word) >= 3 and not re.fullmatch(r"[IVXLC]+", word):
            out.add(word)
    for found in capitalised_terms(text):
        phrase = found.phrase
        if phrase.lower() in forms or found.full.lower() in forms or any(phrase.lower() in h for h in headings):
            continue
        if 2 <= len(phrase.split()) <= 5 and not all(w.lower() in forms or w in ("of", "for") for w in phrase.split()):
            out.add(phrase)
    return out


def _used_terms(text: str, source: Document) -> list[tuple[str, list[Mention]]]:
    """Terms of the precedent that its text uses, longest first, mentions not overlapping and
    never inside a cross-reference's title ("Section 2.1 (Restrictions on Customer)")."""
    taken = [(s, e) for s, e, _, heading in references.find(text) if heading]
    out = []
    for term in sorted(_candidates(text, source), key=lambda t: (-len(t), t)):
        found = [m for m in _forms_used(text, term, source) if not any(m.start < e and s < m.end for s, e in taken)]
        if found:
            taken.extend((m.start, m.end) for m in found)
            out.append((term, found))
    return sorted(out, key=lambda item: item[1][0].start)


def _forms_used(text: str, term: str, source: Document) -> list[Mention]:
    """Mentions of ``term``, and of its singular where the precedent defines it in the plural
    ("a Covered Employee" for “Covered Employees”)."""
    found = mentions(text, term)
    one = singular(term)
    defined = {d.term for d in source.definitions}
    # Not where the precedent defines the singular as a term of its own ("NDA Term" and "NDA Terms").
    if one != term and term in defined and one not in defined:
        found += [m for m in mentions(text, one) if not m.plural and not m.possessive.endswith(("\u2019", "'"))]
    return sorted(found, key=lambda m: m.start)


def conform(text: str, source: Document, target: Document, settings: ConformSettings,
            overrides: dict[str, str] | None = None) -> ConformResult:
    """The precedent's text in the document's terms, with every mapping and what was changed.

    ``overrides`` (source term -> target, "" to leave it; "\u00a78.4" -> a section number for a
    reference, "" to leave it) are the lawyer's edits in the pane: each changes the term it
    names and nothing else.
    """
    overrides = {k: v for k, v in (overrides or {}).items() if k}
    used = _used_terms(text, source)
    named = {t for t, _ in used}
    for term in sorted((k for k in overrides if not k.startswith("\u00a7") and k not in named), key=len, reverse=True):
        found = mentions(text, term)  # the lawyer named a word conforming did not read as a term
        if found:
            used.append((term, found))
    parties = [map_term(p, 0, source, target, settings)[0] for p in source.party_names]
    known = [m for m in parties if m.method == "role" and m.apply and overrides.get(m.source, m.target) == m.target]
    mappings, missing = [], []
    by_term: dict[str, list[Substitution]] = {}
    defines = set(defined_terms(text))  # terms the clause defines itself come with their definition
    for term, found in used:
        mapping, only_this = map_term(term, len(found), source, target, settings, lambda t: _rewrite(t, known), text)
        if term in defines and term not in overrides and mapping.method != "self":
            mapping, only_this = TermMapping(term, term, "exact", 1.0, False, len(found), "the clause defines it"), False
        if term in overrides:
            chosen = overrides[term].strip()
            mapping, only_this = TermMapping(term, chosen, "lawyer", 1.0, bool(chosen) and chosen != term, len(found),
                                             "chosen by you" if chosen else "left as the precedent has it"), False
        if only_this:
            found = [m for m in found if after_this(text, m.start)]
            mapping = replace(mapping, occurrences=len(found), apply=mapping.apply and bool(found))
        mappings.append(mapping)
        if mapping.method == "none":
            own = source.definition(term)
            missing.append(MissingTerm(term, own.text if own else "", source.citation,
                                       "" if mapping.reason == NOT_DEFINED else mapping.reason))
        if mapping.apply and mapping.target and mapping.target != term:
            if term in defines and not only_this:  # renamed where the clause defines it too: (the “NDA”)
                found = sorted(found + quoted_mentions(text, term), key=lambda m: m.start)
            by_term[term] = [_with_article(text, m, written_as(mapping.target, m), _article(mapping, target, text))
                             for m in found]
    mappings = _no_collisions(text, mappings, by_term)
    subs = [s for m in mappings if m.apply for s in by_term.get(m.source, ())]
    refs = []
    applied = [m for m in mappings if m.apply and m.target and m.target != m.source] + known
    for start, end, ref, new in references.map_references(text, source.sections, target.sections,
                                                          lambda heading: _rewrite(heading, applied)):
        chosen = overrides.get(f"\u00a7{ref.number}")  # the lawyer's choice for a reference: "" keeps it
        if chosen is not None:
            new = chosen if chosen != ref.number else ""
            ref = replace(ref, target=chosen, status="lawyer" if chosen else "flagged")
        refs.append(ref)
        if new:
            subs.append(Substitution(start, end, text[start:end], new, "cross-reference"))
    subs.extend(_reference_words(text, target.reference_word))
    # The definitions offered for insertion speak the document's language too.
    if missing:
        seen = {m.source for m in mappings}
        missing = [replace(m, definition=_rewrite(m.definition, mappings + [p for p in parties if p.source not in seen]))
                   for m in missing]
    result = ConformResult(_apply(text, subs), tuple(mappings), tuple(refs), tuple(missing),
                           tuple(sorted(subs, key=lambda s: s.start)))
    log.info("conform: %d terms (%d applied, %d missing), %d references (%d flagged)",
             len(mappings), sum(m.apply for m in mappings), len(missing), len(refs),
             sum(r.status == "flagged" for r in refs))
    return result


def _article(mapping: TermMapping, target: Document, text: str) -> tuple[str | None, int]:
    """How the document writes the party a mapping renames to ("the" or bare; None: leave the
    article as the precedent has it), and where the clause's words begin (its heading keeps
    its style: "Protection by Client")."""
    if not target.party(mapping.target) or mapping.target == mapping.source:
        return None, 0
    return target.article(mapping.target), clause_label(text).body


def _with_article(text: str, m: Mention, name: str, how: tuple[str | None, int]) -> Substitution:
    """The substitution of mention ``m`` by ``name``, with "the" as the document writes the
    party: "Customer will" -> "The Client will" where the document says "the Client"; "the
    Provider" -> "Supplier" where it says "Supplier" (a new user's conform kept the
    precedent's habit and read "hold harmless Vendor" in a document of "the Vendor")."""
    want, body = how
    have = article_before(text, m.start) if want is not None and m.start >= body and not m.plural else None
    if have == "" and want == "the":
        prev = text[:m.start].rstrip(" \t")
        starts = not prev[body:].strip() or prev[-1] in ".!?\n" or bool(re.search(r"(?:^|\n)\s*\(?[A-Za-z0-9]{1,4}[.)]$", prev))
        the = "THE" if m.upper else "The" if starts else "the"
        return Substitution(m.start, m.end, m.surface, f"{the} {name}", "term")
    if have == "the" and want == "":
        found = re.search(r"\b(the|The|THE)[ \t]+$", text[:m.start])
        if found:
            return Substitution(found.start(1), m.end, text[found.start(1):m.end], name, "term")
    return Substitution(m.start, m.end, m.surface, name, "term")


def _no_collisions(text: str, mappings: list[TermMapping], by_term: dict[str, list[Substitution]]) -> list[TermMapping]:
    """A term is never renamed to a word the clause already uses for something else:
    "Customer is a Controller" must not become "Customer is a Customer". Such a mapping is
    shown, not applied (a lawyer's own choice is kept)."""
    renamed = [s for m in mappings if m.apply for s in by_term.get(m.source, ())]
    clashing = {m.source for m in mappings if m.apply and m.method != "lawyer" and m.source in by_term
                and any(not any(s.start <= x.start and x.end <= s.end for s in renamed) for x in mentions(text, m.target))}
    return [replace(m, apply=False, reason=f"your clause already uses \u201c{m.target}\u201d for something else; check "
                    "before applying") if m.source in clashing else m for m in mappings]


def _rewrite(text: str, mappings: Sequence[TermMapping]) -> str:
    """``text`` with the applied term mappings (only) made, forms kept."""
    subs = [Substitution(m.start, m.end, m.surface, written_as(t.target, m), "term")
            for t in mappings if t.apply and t.target and t.target != t.source
            for m in mentions(text, t.source)]
    taken: list[Substitution] = []
    for sub in sorted(subs, key=lambda s: (s.start, -(s.end - s.start))):
        if not taken or sub.start >= taken[-1].end:
            taken.append(sub)
    return _apply(text, taken)


def _reference_words(text: str, word: str) -> list[Substitution]:
    """"Section 4.2" -> "Clause 4.2" when the document calls its sections clauses (the clause's
    own references only: not another document's, not a statute's)."""
    out = []
    # Only a capitalised word is the document's name for its sections: a lower-case one
    # ("subject to clause 7.3", "l'article 12") is the prose's own word and stays as written.
    for ref in (r for r in cross_references(text) if r.own and r.word[:1].isupper()):
        plural = "s" if ref.word.endswith("s") else ""
        if ref.word[:len(ref.word) - len(plural)] != word:
            out.append(Substitution(ref.start, ref.start + len(ref.word), ref.word, word + plural, "cross-reference"))
    return out


def _apply(text: str, subs: Sequence[Substitution]) -> str:
    out = text
    for sub in sorted(subs, key=lambda s: s.start, reverse=True):
        before = fix_article(out[:sub.start], sub.replacement) if sub.kind == "term" else out[:sub.start]
        out = before + sub.replacement + out[sub.end:]
    return out
