"""Document metadata for filters and facets: type, governing law, parties, effective date.

Found by rules over a document's title, headings and text at index time; a firm's own
metadata file (CSV: ``file`` column, then any of the fields) overrides what the rules found.
Every clause of a document carries its document's fields in ``Clause.metadata``:

* ``document_type``: a canonical type ("Mutual NDA", "Cloud Service Agreement") from the
  title, the first headings or the file name; else the title when it names a kind of
  document ("... Agreement", "... Consent").
* ``governing_law``: a jurisdiction from a "Governing Law" cover-page field, or from
  "governed by the laws of the State of X" / "X law governs" in the text.
* ``parties``: the parties' names from "between A and B" or "Party Name: A"
  (reading/legal_names.py); ``party_roles``: the role words the document names its parties by
  (Customer, Provider, Employer, ...) as the clause-reading core reads them
  (reading/parties.py ``document_parties``), comma separated (filters and facets treat the
  field as a list).
* ``effective_date``: ISO date from "effective as of <date>", "dated as of <date>", "entered
  into on <date>" or an "Effective Date" field; ``effective_year`` its year, for facets.

A template's blanks ("{governing_law}", "[Legal name of the employer]", "____") are not
values: a field whose only evidence is a blank is left out, never guessed.
"""

from __future__ import annotations

import csv
import logging
import re
from dataclasses import replace
from datetime import date
from pathlib import Path, PurePath
from typing import Any, Iterable, Mapping, Sequence

from index_builder.errors import DataNotFoundError, InvalidRequestError
from index_builder.ingest.blocks import ParsedDocument
from index_builder.model import Clause
from index_builder.reading.blanks import filled_prose, is_blank
from index_builder.reading.dates import dates, first_date
from index_builder.reading.document import definitions
from index_builder.reading.jurisdictions import PLACES, canonical, law_places
from index_builder.reading.legal_names import legal_names
from index_builder.reading.paragraphs import Paragraph
from index_builder.reading.parties import PARTY_NAMES, deal_parties, document_parties

log = logging.getLogger(__name__)

# Bump when the rules above read a document's fields differently: an index built by older
# rules records the old value, so the next build re-reads every document's fields instead of
# keeping stale facets on documents that did not change (their texts and vectors are reused).
VERSION = "facets-3"

FIELDS = ("document_type", "governing_law", "parties", "party_roles", "effective_date",
          "effective_year")
FACET_FIELDS = ("document_type", "governing_law", "party_roles", "effective_year")
# Fields whose value is a comma-separated list (a document has several party roles).
LIST_VALUED = frozenset({"party_roles"})

# First match wins: specific kinds before the general ones they contain.
_TYPES: tuple[tuple[str, str], ...] = (
    (r"notice of restrictive covenants?|restrictive covenant notice", "Restrictive Covenant Notice"),
    (r"restrictive covenant", "Restrictive Covenant Agreement"),
    (r"invention assignment|\bciiaa\b|\bpiiaa\b", "Confidentiality and Invention Assignment Agreement"),
    (r"mutual (?:nda|non-?disclosure)|\bmnda\b", "Mutual NDA"),
    (r"one-way (?:nda|non-?disclosure)|unilateral (?:nda|non-?disclosure)", "One-Way NDA"),
    (r"\bnda\b|non-?disclosure agreement|confidentiality agreement", "NDA"),
    (r"cloud service agreement|\bcsa\b|terms of service|subscription agreement", "Cloud Service Agreement"),
    (r"order form", "Order Form"),
    (r"statement of work|\bsow\b", "Statement of Work"),
    (r"professional services agreement|\bpsa\b", "Professional Services Agreement"),
    (r"data processing (?:agreement|addendum)|\bdpa\b", "Data Processing Agreement"),
    (r"business associate agreement|\bbaa\b", "Business Associate Agreement"),
    (r"\bai addendum", "AI Addendum"),
    (r"\bamendment\b", "Amendment"),
    (r"letter of intent|\bloi\b", "Letter of Intent"),
    (r"term sheet", "Term Sheet"),
    (r"offer letter", "Employment Offer Letter"),
    (r"employment agreement", "Employment Agreement"),
    (r"independent contractor|consulting agreement", "Independent Contractor Agreement"),
    (r"software licen[cs]e", "Software License Agreement"),
    (r"design partner", "Design Partner Agreement"),
    (r"pilot agreement", "Pilot Agreement"),
    (r"partnership agreement", "Partnership Agreement"),
    (r"master services agreement|\bmsa\b", "Master Services Agreement"),
    (r"board (?:written )?consent|consent of the board", "Board Consent"),
    (r"stockholders?'? (?:written )?consent|shareholders?'? (?:written )?consent", "Stockholder Consent"),
    (r"(?:stock|share) repurchase (?:and cancellation )?agreement", "Stock Repurchase Agreement"),
    (r"repurchase (?:election )?notice", "Repurchase Notice"),
    (r"stock assignment", "Stock Assignment"),
    (r"resignation letter", "Resignation Letter"),
    (r"due diligence request", "Due Diligence Request List"),
    (r"closing checklist", "Closing Checklist"),
    (r"working group list", "Working Group List"),
)
_TYPE_PATTERNS = tuple((re.compile(p, re.I), name) for p, name in _TYPES)
_KIND_WORDS = re.compile(r"\b(?:agreement|letter|consent|notice|addendum|amendment|certificate|"
                         r"confirmation|instructions|checklist|list|terms|contract|lease|deed)\b", re.I)

# The places: the core's one list (index_builder/reading/jurisdictions.py), shared with Compare terms.
_JURISDICTION = re.compile(rf"\b({PLACES})\b")
# (Which sentences choose a law is the core's reading: reading/jurisdictions.law_places.)
_LAW_LABEL = re.compile(r"^\W*(?:governing law|governing state|choice of law|applicable law)"
                        r"(?: state)?\W*(?::\W*(.*))?$", re.I)

# A party named by a role: a word of the one role table, or a mutual form's "Party 1"/"Party A".
_PARTY_NUMBER = re.compile(r"Party [0-9A-Z]")

# "dated" alone often dates another document ("the NDA dated ..."): not enough.
_DATE_CONTEXT = re.compile(r"(?:effective (?:as of|on)|dated as of|entered into (?:as of|on)|"
                           r"made (?:and entered into )?(?:as of|on))\s*$", re.I)
_DATE_LABEL = re.compile(r"^\W*(?:\w+ )?effective date\W*(?::\W*(.*))?$", re.I)


def extract(texts: Sequence[str] | Sequence[Paragraph], title: str = "", file_name: str = "") -> dict[str, str]:
    """The fields found in a document's paragraphs (in order: their texts, or as Paragraphs
    with Word's numbers and table cells, which the party reading needs), title and file name."""
    paragraphs = [t if isinstance(t, Paragraph) else Paragraph(i, t) for i, t in enumerate(texts)]
    texts = [p.text for p in paragraphs]
    found: dict[str, str] = {}
    kind = document_type(texts, title, file_name)
    if kind:
        found["document_type"] = kind
    law = governing_law(texts)
    if law:
        found["governing_law"] = law
    names = legal_names(texts)
    if names:
        found["parties"] = "; ".join(names)
    roles = party_roles(paragraphs)
    if roles:
        found["party_roles"] = ", ".join(roles)
    when = effective_date(texts)
    if when:
        found["effective_date"] = when.isoformat()
        found["effective_year"] = str(when.year)
    return found


def from_parsed(parsed: ParsedDocument, title: str, path: Path | str) -> dict[str, str]:
    """``extract`` over a parsed document (the builder's entry point)."""
    paragraphs = [Paragraph(i, b.text, b.label, is_heading=b.outline_level is not None, in_table=bool(b.table_id))
                  for i, b in enumerate(parsed.blocks)]
    return extract(paragraphs, title, PurePath(str(path)).name)


def for_file(path: Path) -> dict[str, str]:
    """Read a document and extract its fields (for tools; the builder reuses its own parse)."""
    from index_builder.ingest.clauses import document_title
    from index_builder.ingest.outline import place
    from index_builder.ingest.readers import READERS

    path = Path(path)
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        return {}
    parsed = reader(path)
    return from_parsed(parsed, document_title(parsed, place(parsed.blocks), path), path)


def with_fields(clauses: Sequence[Clause], fields: Mapping[str, str]) -> list[Clause]:
    """The document's clauses carrying its fields in their metadata (clause keys win)."""
    return [replace(c, metadata={**fields, **c.metadata}) for c in clauses]


def document_type(texts: Sequence[str], title: str = "", file_name: str = "") -> str:
    headings = [t for t in texts[:3] if len(t.split()) <= 12]
    stem = re.sub(r"[-_]+", " ", PurePath(file_name).stem) if file_name else ""
    for evidence in [title, *headings, stem]:
        for pattern, name in _TYPE_PATTERNS:
            if evidence and pattern.search(evidence):
                return name
    for evidence in [title, *headings]:
        clean = " ".join(evidence.split())
        if clean and not is_blank(clean) and len(clean.split()) <= 10 and _KIND_WORDS.search(clean):
            return clean
    return ""


def governing_law(texts: Sequence[str]) -> str:
    for i, text in enumerate(texts):  # a cover-page field: the label, then its value
        label = _LAW_LABEL.match(text.replace("*", ""))
        if not label:
            continue
        value = label.group(1) or (texts[i + 1] if i + 1 < len(texts) else "")
        found = _jurisdiction(value) if len(value.split()) <= 12 else ""
        if found:
            return found
    for text in map(filled_prose, texts):
        places = law_places(text)
        if places:
            return places[0][0]
    return ""


def _jurisdiction(text: str) -> str:
    if is_blank(text):
        return ""
    if re.search(r"Washington,? D\.?C\.?", text):
        return "District of Columbia"
    match = _JURISDICTION.search(text)
    return canonical(match.group(1)) if match else ""


def party_roles(paragraphs: Sequence[Paragraph]) -> list[str]:
    """The role words the document names the parties to its deal by, as the clause-reading core
    reads them (between, preamble, "means ... party", cover rows, signature labels, use), sorted.
    One role alone is not a facet value: a document has two sides, so at least two or none."""
    parties = deal_parties(document_parties(paragraphs, [(d.term, d.text, d.index, d.how) for d in definitions(paragraphs)]))
    roles = {name for p in parties for name in (p.name, *p.aliases)
             if name in PARTY_NAMES or _PARTY_NUMBER.fullmatch(name)}
    return sorted(roles) if len(roles) >= 2 else []


def effective_date(texts: Sequence[str]) -> date | None:
    for i, text in enumerate(texts):
        label = _DATE_LABEL.match(text.replace("*", ""))
        if label:
            value = label.group(1) or (texts[i + 1] if i + 1 < len(texts) else "")
            found = first_date(value) if not is_blank(value) and len(value) <= 60 else None
            if found:
                return found
    for text in map(filled_prose, texts[:40]):
        for found in dates(text):
            if _DATE_CONTEXT.search(text[max(0, found.start - 40):found.start]):
                return found.value
    return None


# -- a firm's own metadata --------------------------------------------------------------------

def load_overrides(path: Path) -> dict[str, dict[str, str]]:
    """Read a metadata CSV: a ``file`` column (path as indexed, or file name), then fields.

    Any column other than ``file`` becomes a metadata field; empty cells are ignored, so
    a firm can fill in only what its documents lack.
    """
    path = Path(path)
    if not path.is_file():
        raise DataNotFoundError(f"The metadata file {path} does not exist: check "
                                f"PRECEDENT_METADATA_FILE or --metadata.")
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        columns = [c.strip() for c in reader.fieldnames or []]
        if "file" not in columns:
            raise InvalidRequestError(f"{path} needs a 'file' column (then columns such as "
                                      f"{', '.join(FIELDS[:4])}); it has: {', '.join(columns)}.")
        rows: dict[str, dict[str, str]] = {}
        for number, row in enumerate(reader, 2):
            cells = {(k or "").strip(): (v or "").strip() for k, v in row.items()}
            key = cells.pop("file", "")
            if not key:
                log.warning("%s line %d has no file name; skipped", path, number)
                continue
            rows[_file_key(key)] = {k: v for k, v in cells.items() if k and v}
    log.info("Read metadata for %d files from %s", len(rows), path)
    return rows


def apply_overrides(found: Mapping[str, str], overrides: Mapping[str, Mapping[str, str]],
                    source_path: str) -> dict[str, str]:
    """The extracted fields with the firm's values on top (matched by path, else file name)."""
    row = overrides.get(_file_key(source_path)) or overrides.get(_file_key(PurePath(source_path).name))
    if not row:
        return dict(found)
    merged = {**found, **row}
    if "effective_date" in row:
        year = re.match(r"\d{4}", row["effective_date"])
        merged.pop("effective_year", None)
        if year:
            merged["effective_year"] = year.group()
    return merged


def _file_key(name: str) -> str:
    return PurePath(name.replace("\\", "/")).as_posix().casefold().lstrip("./")


def facet_values(counts: Mapping[str, int], list_valued: bool = False) -> list[dict[str, Any]]:
    """[{value, count}], most documents first; list-valued fields counted per item.

    A list value ("Customer, Provider") counts its documents towards each item; a document
    holds one value per field, so the sums count each document once per item.
    """
    merged: dict[str, int] = {}
    for value, count in counts.items():
        items = [v.strip() for v in value.split(",")] if list_valued else [value]
        for item in filter(None, items):
            merged[item] = merged.get(item, 0) + int(count)
    return [{"value": v, "count": c} for v, c in sorted(merged.items(), key=lambda i: (-i[1], i[0]))]


def clause_facets(clauses: Iterable[Clause], names: Sequence[str] = FACET_FIELDS
                  ) -> dict[str, list[dict[str, Any]]]:
    """Facets over a set of clauses (e.g. a search's candidates): documents per value."""
    docs: dict[str, dict[str, set[str]]] = {name: {} for name in names}
    for clause in clauses:
        metadata = clause.metadata
        if not metadata:  # a clause without metadata (a BEIR corpus's) adds to no facet
            continue
        for name in names:
            value = metadata.get(name)
            if value:
                docs[name].setdefault(value, set()).add(clause.doc_id)
    return {name: facet_values({v: len(d) for v, d in values.items()}, name in LIST_VALUED)
            for name, values in docs.items() if values}


def coverage(rows: Iterable[Mapping[str, str]]) -> dict[str, float]:
    """Share of documents (0-1) for which each field was found."""
    rows = list(rows)
    return {f: (sum(1 for r in rows if r.get(f)) / len(rows) if rows else 0.0) for f in FIELDS}
