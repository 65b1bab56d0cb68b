"""Conform a precedent to the lawyer's document: map terms, rewrite mentions, map references.

Order of evidence for each term the precedent uses (its parties, the terms its own document
defines, and capitalised terms it uses without defining):
1. exact: the document defines the same term (nothing to change);
2. role: both are parties standing for the same side ("Provider" -> "Supplier");
3. definition: the document defines a term whose definition says the same thing;
otherwise the term is listed as missing, with the precedent's own definition to insert.
Only mappings at or above ``apply_min`` are applied; the rest are shown, unapplied.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from typing import Iterable, Sequence

from index_builder.ingest.terms import defined_terms
from index_builder.model import Clause
from index_builder.settings import ConformSettings
from addin_server.conform import forms, references, roles
from addin_server.conform.model import (ConformResult, Definition, MissingTerm, Section, SourceDocument,
                                        Substitution, TargetDocument, TermMapping)
from addin_server.conform.similarity import definition_similarity, name_similarity

log = logging.getLogger(__name__)

_BETWEEN = re.compile(r"\bbetween\s+(?:the\s+)?([A-Z][a-z]+(?: [A-Z][a-z]+){0,2})\s+and\s+(?:the\s+)?([A-Z][a-z]+(?: [A-Z][a-z]+){0,2})\b")
_PHRASE = re.compile(r"\b([A-Z][a-z][\w\-]*(?:[ \t]+(?:of[ \t]+)?[A-Z][a-z][\w\-]*)+)")  # never across lines
_HEADINGS = re.compile(r"(?:^|\n)\s*(?:\d{1,3}(?:\.\d{1,3})*\.?\s+)?([A-Z][^.\n]{2,60}?)\.\s|\d\s*\(([^()]{2,80})\)")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;(]\s*|\n\s*|^\s*[\d.()a-z]{1,8}\s+)$")
_NOT_TERM = re.compile(r"\b(?:Act|Convention|Regulation|Code|Department|Commission|Office|Council|Agreement|Version|"
                       r"United|States|European|January|February|March|April|May|June|July|August|September|"
                       r"October|November|December|Section|Sections|Clause|Article|"
                       # Bodies, officers and places, as the document check skips them (issue 23,
                       # added after the second held-out set's first look).
                       r"Administration|Authority|Agency|Bureau|Commissioner|Nations|Delaware|California|"
                       r"Swiss|Federal)\b")
# Words that start sentences, so are capitalised for that reason only ("Each Party", "The Services").
_STARTERS = frozenset("The This That These Those Each Every Any All No Neither Either If In On Upon For To By As At "
                      "After Before During Unless Except Subject Notwithstanding Where When While Such Its Their A An "
                      "Both Nothing Following Within Without Under With From Until Only Other Our Your We You It "
                      "Including Provided Promptly Otherwise Further".split())
_LEAD_NUMBER = re.compile(r"^(?:\d{1,3}(?:\.\d{1,3})*\.?|\([a-z0-9]{1,4}\)|[a-z]\.)\s+")  # the precedent's own number
_WEAK_ROLES = frozenset({"partner"})


def source_document(clauses: Sequence[Clause]) -> SourceDocument:
    """The precedent's document as the index holds it (its clauses in order)."""
    defs: list[Definition] = []
    sections: list[Section] = []
    parties: list[str] = []
    for clause in clauses:
        if clause.section:
            sections.append(Section(clause.section.rstrip("."), clause.heading))
        for line in clause.text.splitlines():
            for term in defined_terms(line):
                defs.append(Definition(term, _LEAD_NUMBER.sub("", line.strip())[:2000], clause.section))
        for role in (clause.metadata.get("party_roles") or "").split(","):
            if role.strip():
                parties.append(role.strip())
    text = "\n".join(c.text for c in clauses[:400])
    pairs = [m.groups() for m in _BETWEEN.finditer(text)]
    if pairs:
        counts = {p: sum(text.count(w) for w in p) for p in pairs}
        parties.extend(max(counts, key=counts.get))
    for d in defs:
        if re.search(r"\bmeans\s+(?:the\s+|a\s+|each\s+)?party\b(?![\u2019'])", d.text):
            parties.append(d.term)
    citation = (clauses[0].doc_title or clauses[0].doc_id) if clauses else ""
    return SourceDocument(tuple(defs), tuple(dict.fromkeys(parties)), tuple(sections), citation)


def _used_terms(text: str, source: SourceDocument) -> list[tuple[str, list[forms.Mention]]]:
    """Terms of the precedent that its text uses, longest first, mentions not overlapping."""
    candidates = {d.term for d in source.definitions} | set(source.parties)
    known_lower = {c.lower() for c in candidates}
    headings = {sec.heading.lower() for sec in source.sections if sec.heading}
    for match in _HEADINGS.finditer(text):  # the clause's own and those its references name
        headings.add((match.group(1) or match.group(2)).strip().lower())
    for m in _PHRASE.finditer(text):  # capitalised terms its own document never defines
        phrase = m.group(1)
        if phrase.split(" ", 1)[0] in _STARTERS:
            phrase = phrase.split(" ", 1)[1] if " " in phrase else ""  # "Each Recipient": capitalised to start a sentence
            if phrase.startswith("of "):
                continue
        words = phrase.split()
        if any(phrase.lower() in h for h in headings) or phrase.rstrip("s").lower() in known_lower:
            continue  # a section heading ("Reservation of Rights"), or a known term's plural
        if not _NOT_TERM.search(phrase) and phrase.lower() not in known_lower and 2 <= len(words) <= 5:
            if not all(w.lower() in known_lower or w == "of" for w in words):
                candidates.add(phrase)
    taken: list[tuple[int, int]] = []
    out = []
    for term in sorted(candidates, key=lambda t: (-len(t), t)):
        found = [m for m in forms.mentions(text, term)
                 if not any(m.start < e and s < m.end for s, e in taken)]
        if found:
            taken.extend((m.start, m.end) for m in found)
            out.append((term, found))
    return sorted(out, key=lambda item: item[1][0].start)


def _definition_of(term: str, docs: Iterable[Definition]) -> Definition | None:
    return next((d for d in docs if d.term.lower() == term.lower()), None)


def _map_term(term: str, count: int, source: SourceDocument, target: TargetDocument,
              settings: ConformSettings, known: Sequence[TermMapping] = ()) -> TermMapping:
    own = _definition_of(term, source.definitions)
    exact = _definition_of(term, target.definitions) or next(
        (Definition(p) for p in target.parties if p.lower() == term.lower()), None)
    if exact:
        return TermMapping(term, exact.term, "exact", 1.0, exact.term != term, count, "your document defines it")
    if term in source.parties:
        mapped = _map_party(term, count, own, source, target, settings)
        if mapped:
            return mapped
    if own and own.text:
        # Compared in the document's own words: "relating to Employer's business" reads
        # "relating to Organisation's business" once the parties are mapped.
        # (The better of the two readings: the rewritten one keeps the party's new name, which
        # the document's own definition of "Buyer Content" does not count.)
        own_text = _rewrite(own.text, known) if known else own.text
        alike = lambda d: max(definition_similarity(term, own.text, d.term, d.text),  # noqa: E731
                              definition_similarity(term, own_text, d.term, d.text))
        scored = sorted(((alike(d) * (1 - settings.name_weight)
                          + name_similarity(term, d.term) * settings.name_weight, d.term)
                         for d in target.definitions if d.text), reverse=True)
        if scored and scored[0][0] >= settings.suggest_min:
            best, name = scored[0]
            margin = best - (scored[1][0] if len(scored) > 1 else 0.0)
            apply = best >= settings.apply_min and margin >= settings.margin
            why = f"definitions alike ({best:.2f})" + ("" if apply else "; check before applying")
            return TermMapping(term, name, "definition", round(best, 3), apply, count, why,
                               tuple(n for _, n in scored[1:3]))
    return TermMapping(term, "", "none", 0.0, False, count, "your document does not define it")


def _map_party(term: str, count: int, own: Definition | None, source: SourceDocument,
               target: TargetDocument, settings: ConformSettings) -> TermMapping | None:
    role = roles.role_of(term, own.text if own else "", source.parties)
    if not role:
        return None
    target_roles = [(p, roles.role_of(p, (_definition_of(p, target.definitions) or Definition(p)).text, target.parties))
                    for p in target.parties]
    same = [p for p, r in target_roles if r == role]
    if not same:
        return None
    derived = term.lower() == "company" or same[0].lower() == "company" or term.lower() not in roles._NAMES
    weak = term.lower() in _WEAK_ROLES or same[0].lower() in _WEAK_ROLES
    confidence = 0.5 if len(same) > 1 else 0.6 if weak else 0.8 if derived else 0.9
    apply = confidence >= settings.apply_min
    why = f"both are the {role} party" + ("" if apply else "; check before applying")
    return TermMapping(term, same[0], "role", confidence, apply, count, why, tuple(same[1:]))


def conform(text: str, source: SourceDocument, target: TargetDocument, settings: ConformSettings,
            overrides: dict[str, str] | None = None) -> ConformResult:
    """The precedent's text in the document's terms, with every mapping and what was changed.

    ``overrides`` (source term -> target, "" to leave it; "\u00a78.4" -> a section number for a
    reference, "" to leave it) are the lawyer's edits in the pane.
    """
    overrides = overrides or {}
    used = _used_terms(text, source)
    mappings, subs, missing = [], [], []
    known = [m for m in (_map_term(p, 0, source, target, settings) for p in source.parties)
             if m.method == "role" and m.apply and overrides.get(m.source, m.target) == m.target]
    for term, found in used:
        if term.startswith("\u00a7"):
            continue
        mapping = _map_term(term, len(found), source, target, settings, known)
        if term in overrides:
            chosen = overrides[term].strip()
            mapping = TermMapping(term, chosen, "lawyer", 1.0, bool(chosen) and chosen != term, len(found),
                                  "chosen by you" if chosen else "left as the precedent has it")
        mappings.append(mapping)
        if mapping.method == "none":
            own = _definition_of(term, source.definitions)
            missing.append(MissingTerm(term, own.text if own else "", source.citation))
        if mapping.apply and mapping.target and mapping.target != term:
            subs.extend(Substitution(m.start, m.end, m.surface, forms.written_as(mapping.target, m), "term")
                        for m in found)
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
        parties = [_map_term(p, 0, source, target, settings) for p in source.parties if p not in seen]
        missing = [replace(m, definition=_rewrite(m.definition, mappings + parties)) for m in missing]
    result = ConformResult(_apply(text, subs), tuple(mappings), tuple(refs), tuple(missing),
                           tuple(sorted(subs, key=lambda s: s.start)))
    log.info("conform: %d terms (%d applied, %d missing), %d references (%d flagged)",
             len(mappings), sum(m.apply for m in mappings), len(missing), len(refs),
             sum(r.status == "flagged" for r in refs))
    return result


def _rewrite(text: str, mappings: Sequence[TermMapping]) -> str:
    """``text`` with the applied term mappings (only) made, forms kept."""
    subs = [Substitution(m.start, m.end, m.surface, forms.written_as(t.target, m), "term")
            for t in mappings if t.apply and t.target and t.target != t.source
            for m in forms.mentions(text, t.source)]
    taken: list[Substitution] = []
    for sub in sorted(subs, key=lambda s: (s.start, -(s.end - s.start))):
        if not taken or sub.start >= taken[-1].end:
            taken.append(sub)
    return _apply(text, taken)


def _reference_words(text: str, word: str) -> list[Substitution]:
    """"Section 4.2" -> "Clause 4.2" when the document calls its sections clauses."""
    out = []
    for m in re.finditer(r"\b(Section|Clause|Article|Paragraph)(s?)(?=\s+\d)", text):
        if m.group(1) != word and not references._EXTERNAL.match(text[m.end():m.end() + 60].split(")", 1)[-1][:40]):
            out.append(Substitution(m.start(), m.end(), m.group(0), word + m.group(2), "cross-reference"))
    return out


def _apply(text: str, subs: Sequence[Substitution]) -> str:
    out = text
    for sub in sorted(subs, key=lambda s: s.start, reverse=True):
        before = forms.fix_article(out[:sub.start], sub.replacement) if sub.kind == "term" else out[:sub.start]
        out = before + sub.replacement + out[sub.end:]
    return out
