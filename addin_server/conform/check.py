"""Check document: defined-term and cross-reference problems in the lawyer's open document,
each with the paragraph it is in so the pane can select it.

Read with the clause-reading core (the same definitions, capitalised terms and mentions
conforming uses; reading/); findings are plain dicts the pane shows as they come:
{kind, term, message, index, search}, kind one of KINDS, in KINDS order.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from index_builder.reading.defined_terms import capitalised_terms, quoted_spans, term_key
from index_builder.reading.document import Definition, Document, Section, is_heading, lead_heading, normalise_number
from index_builder.reading.paragraphs import Paragraph, without_number
from index_builder.reading.term_uses import TermUses
from index_builder.reading.references import references

KINDS = ("undefined", "defined-twice", "unused", "capitalisation", "missing-section")
_CONNECTOR = re.compile(r"^(?:of|for|de|du)$")


def check_document(paragraphs: Sequence[Paragraph], document: Document) -> list[dict[str, Any]]:
    """Every finding for the document, grouped in KINDS order, then by paragraph."""
    quoted = [d for d in document.definitions if d.how == "quoted"]
    known = {term_key(d.term) for d in document.definitions} | {term_key(p) for p in document.party_names}
    headings = {s.heading.lower() for s in document.sections if s.heading}
    findings = (_undefined(paragraphs, known, headings) + _defined_twice(quoted) + _usage(paragraphs, quoted)
                + _missing_sections(paragraphs, document.sections))
    return sorted(findings, key=lambda f: (KINDS.index(f["kind"]), f["index"]))


def _prose(text: str) -> str:
    """Quoted terms, cross-references with their headings and placeholders blanked (same length)."""
    blank = lambda m: " " * len(m.group(0))  # noqa: E731
    for start, end in quoted_spans(text):
        text = text[:start] + " " * (end - start) + text[end:]
    for ref in references(text):  # the core's reader of cross-references, any document's
        text = text[:ref.start] + " " * (ref.end - ref.start) + text[ref.end:]
    return re.sub(r"[{\[][^\]}]{0,120}[\]}]", blank, text)


def _undefined(paragraphs: Sequence[Paragraph], known: set[str], headings: set[str]) -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    for p in paragraphs:
        if is_heading(p.text) or len(p.text.split()) < 4:
            continue  # a heading, numbered or not; labels and table headers, not prose
        # The words of its run-in heading ("3. Exceptions. ...") and the opener of the sentence after it.
        lead = lead_heading(p.text)
        skip = lead[1] + len(re.match(r"\s*[.:\u2014]\s*", p.text[lead[1]:]).group(0)) + 1 if lead else 0
        for found in capitalised_terms(_prose(p.text)):
            phrase = found.phrase
            if found.start < skip or term_key(phrase) in known or term_key(found.full) in known:
                continue
            if _named(p.text, found.start + len(phrase)):
                continue  # a company's name that the sentence gives a defined name: "Harbour Freight plc (the “Client”)"
            if any(phrase.lower() in h for h in headings):
                continue
            if all(_CONNECTOR.match(w) or term_key(w) in known for w in phrase.split()):
                continue  # "Provider Customer" is two terms, not a new one
            key = " ".join(term_key(w) for w in phrase.split())
            item = seen.setdefault(key, {"kind": "undefined", "term": phrase, "index": p.index, "search": phrase, "count": 0})
            item["count"] += 1
    out = []
    for f in seen.values():
        times = f" {f['count']} times" if f["count"] > 1 else ""
        out.append({k: v for k, v in f.items() if k != "count"} | {"message": f"\u201c{f['term']}\u201d is used{times} but not defined."})
    return out


# A name the sentence then defines: "Harbour Freight plc (the “Client”)", "Acme, Inc. ("Acme")", or
# a company's name by its legal form ("Northwind Analytics Ltd"). A new user's document check
# called the Client's company name "used but not defined" (session 8).
_COMPANY_FORM = r"(?:Ltd|Limited|plc|PLC|Inc|LLC|L\.L\.C|LLP|LP|Corp|Corporation|Co|GmbH|AG|S\.?A|B\.?V|N\.?V|Pty|SE|SAS|SARL|S\.?p\.?A)\b\.?"
_NAMED = re.compile(r"(?:,?[ \t]+" + _COMPANY_FORM + r")|[ \t]*,?[ \t]*\([ \t]*(?:the[ \t]+|hereinafter[ \t]+)?[\"\u201c]")


def _named(text: str, end: int) -> bool:
    """Whether the capitalised words ending at ``end`` are a name the text gives a defined name
    to, or a company's name by its legal form."""
    return bool(_NAMED.match(text, end))


def _defined_twice(defs: Sequence[Definition]) -> list[dict[str, Any]]:
    by_term: dict[str, list[Definition]] = {}
    for d in defs:
        by_term.setdefault(d.term.lower(), []).append(d)
    # The same definition twice is no finding: compared without its clause number (the core's without_number).
    norm = lambda t: re.sub(r"\s+", " ", without_number(t)).strip().lower()  # noqa: E731
    out = []
    for found in by_term.values():
        if len(found) < 2 or len({norm(d.text) for d in found}) < 2:
            continue
        where = " and ".join(f"section {d.section}" if d.section else f"paragraph {d.index + 1}" for d in found)
        out.append({"kind": "defined-twice", "term": found[0].term, "index": found[1].index, "search": found[0].term,
                    "message": f"\u201c{found[0].term}\u201d is defined {len(found)} times, differently ({where})."})
    return out


def _usage(paragraphs: Sequence[Paragraph], defs: Sequence[Definition]) -> list[dict[str, Any]]:
    """Unused definitions and odd capitals in one pass: every defined term's uses in any
    capitals (reading/term_uses.py: one scan per paragraph, even for 2,000 terms)."""
    scanner = TermUses(d.term for d in defs)
    terms = scanner.terms
    if not terms:
        return []
    used = dict.fromkeys(terms, 0)
    odd: dict[str, tuple[int, str]] = {}
    for p in paragraphs:
        capitals = p.text != p.text.upper()
        for use in scanner.uses(p.text):
            form, term = use.written, use.term
            if use.proper:
                used[term] += 1
                continue
            if not capitals or term in odd:
                continue
            before = p.text[:use.start].rstrip()
            if (not before or before[-1] in ".!?:;") and form[1:] == term[1:]:
                continue  # capitalised to start a sentence
            if " " not in term and form == form.lower():
                continue  # "services" as a plain word
            odd[term] = (p.index, form)
    first = {}
    for d in defs:
        first.setdefault(d.term, d)
    out = []
    for term in terms:
        if not used[term]:  # its own "“X” means" is not a use: the quote comes first
            out.append({"kind": "unused", "term": term, "index": first[term].index, "search": term,
                        "message": f"\u201c{term}\u201d is defined but never used."})
        if term in odd:
            index, form = odd[term]
            out.append({"kind": "capitalisation", "term": term, "index": index, "search": form,
                        "message": f"\u201c{form}\u201d: the defined term is \u201c{term}\u201d."})
    return out


def _missing_sections(paragraphs: Sequence[Paragraph], sections: Sequence[Section]) -> list[dict[str, Any]]:
    numbers = {s.number for s in sections}
    if not any(n[:1].isdigit() for n in numbers):
        return []  # no numbered sections: nothing to check against
    # "Section 141(k)" in a document of 12 sections is a statute's.
    top = max((int(m.group(0)) for n in numbers if (m := re.match(r"\d+", n))), default=0)
    text_at = {p.index: p.text for p in paragraphs}

    def exists(ref: str) -> bool:
        n = normalise_number(ref)
        if n in numbers:
            return True
        m = re.fullmatch(r"([\d.]+)((?:\([a-z0-9]+\))*)", n)
        if not m or m.group(1) not in numbers:
            return False
        if not m.group(2):
            return True
        s = next(x for x in sections if x.number == m.group(1))
        return re.match(r"\([a-z0-9]+\)", m.group(2)).group(0) in text_at.get(s.index, "")

    out = []
    for p in paragraphs:
        for ref in (r for r in references(p.text) if r.own):
            for n, (start, end, number, _) in enumerate(ref.numbers):
                start = ref.start if n == 0 else start  # "Section 14.2", as the lawyer reads it
                lead = int(re.match(r"\d+", number).group(0))
                if exists(number) or (lead >= 50 and lead > 3 * top):
                    continue
                out.append({"kind": "missing-section", "term": number, "index": p.index,
                            "search": p.text[start:end][:255],
                            "message": f"Refers to section {number}, which this document does not have."})
    return out
