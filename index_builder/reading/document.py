"""A whole document read from its paragraphs: definitions, parties, section map, what it
calls its sections and what it calls itself.

The one reader of a document's terms: the pane's blocks (the lawyer's open document, read
on the server) and the index's clauses (a precedent's own document) both come here.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from index_builder.reading.defined_terms import (defined_terms, in_capitals_run, mentions, same_term,
                                                 table_label, used_terms)
from index_builder.reading.numbering import typed_number
from index_builder.reading.paragraphs import Paragraph, without_number
from index_builder.reading.parties import PARTY_NAMES, Party, clause_parties, document_parties
from index_builder.reading.references import references
from index_builder.reading.template import blank, remove

REFERENCE_WORDS = ("Section", "Clause", "Article", "Paragraph")
_BULLETS = re.compile(r"^[\u2022\u25aa\u25cf\u2013\-\u00b7o\uf0b7]$")
_DECIMAL = re.compile(r"^\d{1,3}(?:\.\d{1,3})*$")
_DEFINITION_CHARS = 2000
# What documents call themselves: "this Agreement", "this NDA", "this Stock Power".
# Parts of a document, not the document: "this Cover Page" is not what the NDA calls itself.
_PART = re.compile(r"\b(?:Page|Terms|Schedule|Exhibit|Annex|Appendix|Section|Table)$")
_THIS_NAME = re.compile(r"\b[Tt]his\s+([A-Z][\w\-]*(?:\s+(?:by|of|for|[A-Z][\w\-]*)){1,5})")
_DOCUMENT_KINDS = frozenset("Agreement Addendum Amendment Confirmation Consent Notice Letter Policy Order Certificate "
                            "Power Contract Deed Instrument Plan Statement".split())


@dataclass(frozen=True)
class Definition:
    term: str
    text: str = ""  # the defining sentence ("“Supplier” means ..."), or "Label: value" for a table row
    section: str = ""
    index: int = -1  # the paragraph it is in
    how: str = "quoted"  # quoted | table
    in_table: bool = False


@dataclass(frozen=True)
class Section:
    number: str  # as cited: "4.2", "4.2(a)"
    heading: str = ""
    index: int = -1


@dataclass(frozen=True)
class Document:
    definitions: tuple[Definition, ...] = ()
    parties: tuple[Party, ...] = ()
    sections: tuple[Section, ...] = ()
    reference_word: str = "Section"
    self_name: str = ""  # the defined term the document calls itself by ("Agreement", "NDA"), "" if none
    citation: str = ""
    paragraphs: int = 0
    self_refs: tuple[str, ...] = ()  # every term it calls itself by after "this" ("this Agreement")
    text: str = field(default="", repr=False, compare=False)  # its prose, to tell which words it uses

    @property
    def party_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.parties)

    @property
    def terms(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(d.term for d in self.definitions))

    def definition(self, term: str) -> Definition | None:
        """Its definition of ``term`` (same words in either number, "Covered Employee(s)")."""
        exact = next((d for d in self.definitions if d.term.lower() == term.lower()), None)
        return exact or next((d for d in self.definitions if same_term(d.term, term)), None)

    def party(self, name: str) -> Party | None:
        return next((p for p in self.parties if p.name.lower() == name.lower()), None)

    def uses(self, term: str) -> int:
        """How often its prose uses ``term`` as a term (capitalised, on its own, any form)."""
        return len(mentions(self.text, term)) if self.text and term else 0

    def article(self, name: str) -> str | None:
        """How its prose writes the party ``name``: "the" ("the Supplier shall"), "" (bare:
        "Supplier shall", Common Paper's style), or None when it does not say (fewer than two
        telling uses, or no clear habit). Uses after another determiner ("each Supplier", "a
        Supplier") or quoted in a definition tell nothing."""
        told = [article_before(self.text, m.start) for m in mentions(self.text, name)] if self.text and name else []
        told = [a for a in told if a is not None]
        with_the = sum(1 for a in told if a == "the")
        if len(told) < 2:
            return None
        return "the" if with_the >= 0.8 * len(told) else "" if with_the <= 0.2 * len(told) else None


_DETERMINERS = frozenset("a an any each either every neither no such this that these those its their our "
                         "his her your another other same said all both".split())
_WORD_BEFORE = re.compile(r"([A-Za-z]+)[ \t]+$")


def article_before(text: str, start: int) -> str | None:
    """What stands before the mention at ``start``: "the", "" (nothing: a bare name), or None
    (another determiner, a quotation mark, a possessive: nothing to learn or to change)."""
    before = text[max(0, start - 30):start]
    if before[-1:] in "\"\u201c\u2018'(" and before:
        return None  # (the “Supplier”): a definition, or a quoted word
    word = _WORD_BEFORE.search(before)
    if word is None:
        return ""
    lower = word.group(1).lower()
    if lower == "the":
        return "the"
    return None if lower in _DETERMINERS or before.rstrip().endswith(("'s", "\u2019s")) else ""


def read_document(paragraphs: Sequence[Paragraph], citation: str = "") -> Document:
    """Everything the readers find in ``paragraphs``."""
    sections = section_map(paragraphs)
    defs = definitions(paragraphs, sections)
    parties = document_parties(paragraphs, [(d.term, d.text, d.index, d.how) for d in defs])
    refs = self_references(paragraphs, [d.term for d in defs])
    # Its prose: not a table's one- to three-word cells (field labels such as "Company" in a
    # signature block are not uses of a term), not placeholders and drafting notes in brackets.
    prose = blank("\n".join(p.text for p in paragraphs if not _label(p)), brackets="nested", keep_lines=True)
    return Document(tuple(defs), tuple(parties), tuple(sections), reference_word(paragraphs),
                    _chosen(refs, {d.term for d in defs}), citation, len(paragraphs), tuple(refs), prose)


# -- section map -----------------------------------------------------------------------------

def normalise_number(value: str) -> str:
    """A number as written or displayed: "4.2." -> "4.2", "Section 5" -> "5", "(a)" -> "a"."""
    out = re.sub(r"^(?:section|clause|article|paragraph|\u00a7)\s*", "", str(value).strip(), flags=re.I)
    out = re.sub(r"\.$", "", out)
    out = re.sub(r"^\(([^)]+)\)$", r"\1", out)
    out = re.sub(r"^([a-z]{1,4}|\d{1,3})\)$", r"\1", out, flags=re.I)
    return out.lower()


def number_of(p: Paragraph) -> str:
    """The paragraph's number: Word's automatic one, else one typed at its start; "" if none."""
    if p.number and not _BULLETS.match(p.number.strip()):
        return p.number.strip()
    typed = typed_number(p.text)
    return typed.number if typed else ""


def _heading_of(p: Paragraph, number: str) -> str:
    """"Term. The Agreement ..." -> "Term"; a short heading paragraph is its own heading (the
    core's is_heading, Word's heading style its formatting)."""
    text = p.text.strip()
    if not p.number and number:
        typed = typed_number(text)
        text = text[typed.end:].strip() if typed else text
    if not text:
        return ""
    words = text.split()
    defining = bool(re.search(r"[\u201c\"]", text))
    if len(words) <= 10 and not defining and is_heading(text, styled=p.is_heading):
        return re.sub(r"[.:]$", "", text)
    lead = run_in_heading(text, marks=".:\u2014", shape="label")
    return text[lead[0]:lead[1]].strip() if lead else ""


def lead_heading(text: str, line: bool = False) -> tuple[int, int] | None:
    """The span of a paragraph's (or a line's) run-in heading after its typed number or a
    drafting note's bracket, in any case and ended by ". ", ": " or a dash: "3. Exceptions. The
    cap ..." -> "Exceptions", "[Drafting note: Many ..." -> "Drafting note"; with ``line``, also
    a line that is a heading and nothing else ("7.1 Liability Caps."). None when it has none.
    (run_in_heading's rule, with the marks and shapes a paragraph's words may take.)"""
    number = typed_number(text)
    at = number.end if number else 0
    while at < len(text) and text[at] in " \t[":
        at += 1
    return run_in_heading(text, at, marks=".:\u2014", shape="label", line=line)


def headings_in(text: str) -> list[str]:
    """The section headings a text names: each line's run-in heading and a cross-reference's
    heading ("Section 7 (General Terms)" -> "General Terms"). Words in them are titles, not uses."""
    out = []
    for line in text.split("\n"):
        lead = lead_heading(line, line=True)
        if lead:
            out.append(line[lead[0]:lead[1]].strip())
    out += [heading for ref in references(text) for *_, heading in ref.numbers if heading]
    return out


def is_heading(text: str, *, styled: bool = False) -> bool:
    """Whether a paragraph's words may be a heading: one line, short, no sentence in it, not a
    bare fill-in field ("{effective_date}" heads nothing), not a definition, not begun in lower
    case ("Fees, Payment and Taxes", "Limitation of Liability"). The core's one rule for it.

    ``styled``: Word's formatting may make it one (a heading style, bold type, a title's size:
    the index's reader weighs that, ingest/headings.py). Such a paragraph may have up to fifteen
    words, end with a full stop or a colon ("Definitions.", "Notice Address (choose one):"), but
    not break a line or run past 120 characters. Known by its words alone (the lawyer's
    paragraphs, Word's own numbering not in their text): twelve words at most, and no full stop,
    colon or semicolon at all; a title broken over two lines ("Cover Page / for Bonterms Mutual
    NDA") and a heading with a long aside are still headings."""
    stripped = text.strip()
    bare = remove(stripped, brackets="all")  # its words, fill-in fields and notes aside
    if not stripped or not bare.strip(" []"):
        return False
    if styled and ("\n" in stripped or len(stripped) > 120):
        return False  # a style on a long or broken paragraph: whole clauses set in "Heading 3"
    if len(stripped.split()) > (15 if styled else 12) or stripped.endswith((",", ";")) or " means " in f" {stripped} ":
        return False
    if ". " in stripped.rstrip(".") if styled else re.search(r"[.;:]\s|[.;:]$", stripped):
        return False
    first = next((c for c in bare if c.isalpha()), "")
    return not first.islower()


def headings_in_capitals(paragraphs: Sequence[Paragraph]) -> list[int]:
    """The paragraphs (their ``index``) that are a heading set in capitals and nothing else:
    "12. LIMITATION OF LIABILITY", "ARTICLE 7 CONFIDENTIALITY". The pane skips them when it
    follows the cursor, before any request, from the document's reading (it reads no capitals
    itself); a short one ("13. TERMINATION") is too short to search anyway."""
    return [p.index for p in paragraphs if (body := without_number(p.text).strip()) and is_heading(body)
            and mostly_capitals(body)]


# A run-in heading: a phrase of up to 80 characters at a paragraph's start (after its number),
# then a mark (a full stop; a colon, a dash or a line break where the caller allows) and a sentence
# ("Injunctive Relief. Contractor ...", "Fees, Payment and Taxes. The Customer ...", "Exceptions:
# The cap ...", "CONFIDENTIALITY — Each party ..."), or, on a line of its own, the line's end
# ("7.1 Liability Caps."). (A spaced hyphen or a line break ends one only with more space after
# it, "Fees -  The" or a blank line, as the pane's reader took them.) The one reading of it: the index's
# clause headings (ingest/headings.py), the written terms (a heading's words are titles, not
# uses), the section map, Check document, and a clause's label (labels.py: what the pane's
# Insert drops). Group 3 is the sentence's first character: each shape says which it takes.
_RUN_IN = re.compile(r"([^.:\n\u2014]{1,81}?)\s*([.:\u2014]|\s[-\u2013]\s|\n)(?:\s+(?=(\S))|(\s*)$)")
_HEADING_WORD = re.compile(r"[A-Za-z][\w'\u2019-]*")
_CLAUSE_MARK = re.compile(r"[;!?]")
SMALL_WORDS = frozenset("of and or the to for in on with by a an at from under & vs.".split())
# What may start the sentence after the heading, by shape: a title, a label of a few words, a
# clause's label as the pane reads it (a figure or a quote too: "Fees: 30 days ...").
_STARTS = {"title": "ABCDEFGHIJKLMNOPQRSTUVWXYZ\u201c\"([{", "label": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
           "clause": "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789(\"\u201c'\u2018"}
# A short phrase with one of these is a sentence ("Fees are due."), not a heading ("Liability cap").
_VERB = re.compile(r"\b(?:is|are|was|were|be|been|shall|will|may|must|can|should|would|has|have|had|does|do|"
                   r"agrees?)\b", re.I)
_SPACES = re.compile(r"\s+")


def run_in_heading(text: str, at: int = 0, *, marks: str = ".", shape: str = "title",
                   line: bool = False, known: str = "") -> tuple[int, int] | None:
    """The span of the heading a paragraph starts with at ``at`` (after its number), run in
    before its first sentence; None when it has none. ``marks``: what may end it ("." a full
    stop; ":" a colon, "\u2014" a dash, "-" a spaced hyphen or en dash, "\n" a line break).
    ``shape``: "title", in Title Case, the first word capitalised (as the index reads a heading:
    "Option A \u2014 Cancel and retire. RESOLVED ..." is a choice inside its section, which keeps
    its section's heading); "label", eight words at most, the first capitalised ("Drafting
    note"); "clause", a clause's label as the pane's Insert reads it (``_clause_heading``), with
    ``known`` the index's heading for it, trusted over the shape of its words. ``line``: a line
    that ends with a full stop after it is one."""
    while at < len(text) and text[at] in " \t":
        at += 1
    m = _RUN_IN.match(text, at)
    if not m:
        return None
    mark = m.group(2).strip().replace("\u2013", "-") or "\n"
    if mark not in marks or (m.group(4) is not None and not (line and mark == ".")):
        return None
    if m.group(3) is not None and m.group(3) not in _STARTS[shape]:
        return None
    phrase = m.group(1)
    if shape == "clause":
        shaped = len(phrase) <= 80 and (_same(phrase, known) or _clause_heading(phrase.strip()))
    elif not phrase[:1].isupper():
        return None
    elif shape == "title":  # a title: no clause of a sentence in it, then any sentence start
        shaped = len(phrase) <= 81 and not _CLAUSE_MARK.search(phrase) and title_case(phrase)
    else:  # a label of a few words, then a sentence that starts with a word
        shaped = 2 <= len(phrase) <= 80 and len(phrase.split()) <= 8
    return m.span(1) if shaped else None


def after_run_in(text: str, end: int) -> int:
    """Where the words after a run-in heading ending at ``end`` begin (past its mark)."""
    at = end
    while at < len(text) and text[at].isspace():
        at += 1
    if at < len(text) and text[at] in ".:\u2014-\u2013":
        at += 1
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _same(phrase: str, heading: str) -> bool:
    return bool(heading.strip()) and _SPACES.sub(" ", phrase).strip().lower() == _SPACES.sub(" ", heading).strip().lower()


def _clause_heading(phrase: str) -> bool:
    """A clause's run-in heading as the pane's Insert reads it: Title Case or capitals
    ("Limitation of Liability", "CONFIDENTIALITY"), or a few words in sentence case without a
    verb ("Liability cap"). (Looser than the index's title: the pane drops it from a precedent
    it inserts and keeps the lawyer's; the index makes it a clause's heading.)"""
    words = phrase.split()
    if not words or len(words) > 8 or not any(c.isalpha() for c in phrase):
        return False
    if phrase == phrase.upper() or title_case(phrase):
        return phrase[0].isupper() or phrase[0] in "(\"\u201c'" or phrase[0].isdigit()
    return len(words) <= 4 and phrase[0].isupper() and not _VERB.search(phrase)


def title_case(text: str) -> bool:
    """Ten words at most, each capitalised (or in capitals) but for small words ("of", "and")."""
    words = _HEADING_WORD.findall(text)
    return bool(words) and len(words) <= 10 and all(w[0].isupper() or w.lower() in SMALL_WORDS for w in words)


def section_map(paragraphs: Sequence[Paragraph]) -> list[Section]:
    """Numbered sections as the document cites them ("4.2", "4.2(a)"): a lettered item under a
    decimal section is numbered from it, as a cross-reference names it."""
    out, parent = [], ""
    for p in paragraphs:
        if p.in_table:
            continue
        number = number_of(p)
        plain = normalise_number(number) if number else ""
        if not plain:
            continue
        full = plain
        if _DECIMAL.match(plain):
            parent = plain
        elif parent and re.fullmatch(r"[a-z]{1,4}|\d{1,3}", plain):
            full = f"{parent}({plain})"
        out.append(Section(full, _heading_of(p, number), p.index))
    return out


def section_at(sections: Sequence[Section], index: int) -> str:
    """The section a paragraph belongs to (the nearest numbered paragraph at or before it)."""
    found = ""
    for s in sections:
        if s.index > index:
            break
        found = s.number
    return found


def reference_word(paragraphs: Sequence[Paragraph]) -> str:
    """How the document names its sections in cross-references (the word it uses most)."""
    counts = Counter({w: 0 for w in REFERENCE_WORDS})
    for p in paragraphs:
        for ref in references(p.text):
            counts[ref.word.rstrip("s").capitalize()] += 1  # "clause 7.3" counts for Clause
    word, n = counts.most_common(1)[0]
    return word if n else "Section"


# -- definitions -----------------------------------------------------------------------------

def definitions(paragraphs: Sequence[Paragraph], sections: Sequence[Section] | None = None) -> list[Definition]:
    """Every definition (a term defined twice appears twice): quoted ones, and a key-terms
    table's rows (label cell, meaning in the next cell), as cover pages define terms."""
    sections = section_map(paragraphs) if sections is None else sections
    out = []
    for i, p in enumerate(paragraphs):
        text = p.text
        if "\u201c" in text or '"' in text:
            for term in defined_terms(text):
                out.append(Definition(term, without_number(text.strip())[:_DEFINITION_CHARS],
                                      section_at(sections, p.index), p.index, "quoted", p.in_table))
        if p.in_table:
            label = text.strip().rstrip(":")
            value = next((q.text.strip() for q in paragraphs[i + 1:i + 4] if q.in_table and q.text.strip()), "")
            if table_label(label, value) or _party_row(label, value):
                out.append(Definition(label, f"{label}: {value}"[:_DEFINITION_CHARS], section_at(sections, p.index),
                                      p.index, "table", True))
    return out


def _party_row(label: str, value: str) -> bool:
    """A one-word row that names a party: "Organisation" / "[Legal name of the employer]"."""
    return bool(re.fullmatch(r"[A-Z][a-z][\w\-]*(?: [A-Z][a-z][\w\-]*){0,2}", label)) and bool(
        re.match(r"\s*\[\s*(?:full\s+)?legal\s+name\s+of\b", value, re.I))


# -- what the document calls itself ----------------------------------------------------------

def self_references(paragraphs: Sequence[Paragraph], terms: Sequence[str]) -> Counter[str]:
    """The terms (defined, or kinds of document) the document writes after "this": "this
    Agreement", "this NDA", with how often (a defined one counts two more)."""
    text = "\n".join(p.text for p in paragraphs)
    defined = set(terms)
    counts: Counter[str] = Counter()
    # "this Action by Written Consent", "this Stock Power": a capitalised name ending in a kind of document.
    named = {m.group(1) for m in _THIS_NAME.finditer(text) if m.group(1).split()[-1] in _DOCUMENT_KINDS}
    for term in sorted(defined | _DOCUMENT_KINDS | named):  # sorted: a tie in counts picks the same name in every process
        if not term or not term[:1].isupper() or _PART.search(term):
            continue
        n = sum(1 for m in mentions(text, term) if after_this(text, m.start) and not m.plural)
        if n:
            counts[term] = n + (2 if term in defined else 0)
    return counts


def after_this(text: str, start: int) -> bool:
    """Whether the word at ``start`` follows "this": a document naming itself ("this Agreement")."""
    return bool(re.search(r"\b[Tt]his\s+$", text[max(0, start - 6):start]))


def _label(p: Paragraph) -> bool:
    """A heading or a table's label cell, not prose: "Permitted Uses and Disclosures", "Company".
    (By its words, not its style: some forms set whole clauses in a heading style.) Stricter than
    ``is_heading`` on purpose: a short line with commas ("Customers, Vendors and Business
    Partners") is prose whose terms the document writes; read through ``is_heading`` instead, 74
    of the 104 shared agreements lose such terms from ``written_terms``."""
    words = len(p.text.split())
    return (p.in_table and words <= 3) or (words <= 8 and not re.search(r"[.;:,]\s|[.;]$", p.text.strip()))


def _chosen(counts: Counter[str], defined: set[str]) -> str:
    """What the document calls itself: the most used of its self-references, when defined or used twice."""
    if not counts:
        return ""
    term, n = counts.most_common(1)[0]
    return term if term in defined or n >= 2 else ""


def self_name(paragraphs: Sequence[Paragraph], terms: Sequence[str]) -> str:
    """The term the document calls itself by ("Agreement", "NDA"); "" when it never says."""
    return _chosen(self_references(paragraphs, terms), set(terms))


# -- how the document writes its terms ---------------------------------------------------------

# A short word in capitals inside a sentence ("the SOW", "an NDA"); English words written in
# capitals ("IT", "US", "OR") are left out: restoring them would capitalise every "it".
_ACRONYM = re.compile(r"(?<![\w\-\u2019'])([A-Z]{2,6})(?:s|[\u2019']s)?(?![\w\-])")
_NOT_ACRONYMS = frozenset("A AN AM AS AT BE BY DO GO HE IF IN IS IT ME MY NO OF OK ON OR PM SO TO UP US WE "
                          "THE AND ALL ANY ARE BUT FOR NOT NOR ITS".split())


def written_terms(paragraphs: Sequence[Paragraph], document: Document) -> list[str]:
    """The terms the document writes, as it writes them: what it defines, its parties and their
    other names, what it calls itself ("Agreement"), the capitalised terms and party words its
    sentences use without a definition ("the Supplier's", "Business Day"), and short words in
    capitals inside its sentences ("the SOW"). Headings, table labels and clauses set in
    capitals are not read for use (their capitals are the style, not the term). Only terms with
    a capital letter: a term the document writes in lower case is ordinary words.

    Why: a precedent in capitals is put in sentence case on Insert, and these are the words
    whose capitals the lawyer's document keeps (the pane reads no terms itself)."""
    found: dict[str, None] = {}
    for term in document.terms:
        found.setdefault(term, None)
    for party in document.parties:
        for name in (party.name, *party.aliases):
            found.setdefault(name, None)
    for term in document.self_refs:
        found.setdefault(term, None)
    prose = [_without_headings(p.text) for p in paragraphs if not _label(p) and not mostly_capitals(p.text)]
    names = set(document.party_names) | set(found)
    for text in prose:  # paragraph by paragraph: the readers look back to each word's sentence start
        # Party words used as parties ("the Supplier's"): only those the paragraph has, unread yet.
        for name in clause_parties(text, [n for n in PARTY_NAMES if n in text and n not in found]):
            found.setdefault(name, None)
        for term in used_terms(text, words=names):
            found.setdefault(term, None)
        for word in acronyms(text):
            found.setdefault(word, None)
    return [t for t in found if t.strip() and any(c.isupper() for c in t)]


def acronyms(text: str) -> list[str]:
    """The short words in capitals ``text`` uses as terms ("the SOW", "an NDA's"), in order, each
    once: not English words written in capitals, not a heading's words in capitals."""
    found: dict[str, None] = {}
    for m in _ACRONYM.finditer(text):
        if m.group(1) not in _NOT_ACRONYMS and not in_capitals_run(text, m.start(1), m.end(1)):
            found.setdefault(m.group(1), None)
    return list(found)




def _without_headings(text: str) -> str:
    number = typed_number(text)
    heading = run_in_heading(text, number.end if number else 0)
    if heading:
        text = text[:heading[0]] + " " * (heading[1] - heading[0]) + text[heading[1]:]
    for ref in references(text):  # a cross-reference's heading ("Section 7 (General Terms)") names a section
        for n, (start, end, _, heading) in enumerate(ref.numbers):
            if heading:
                start = ref.start if n == 0 else start
                text = text[:start] + " " * (end - start) + text[end:]
    return text


_NOT_LOWER_ASCII = bytes(b for b in range(256) if not 0x61 <= b <= 0x7A)


def mostly_capitals(text: str, *, least: int = 12, share: float = 0.8) -> bool:
    """Set in capitals: at least ``least`` letters, ``share`` of them capitals (four in five)
    (the core's one rule for a text in capitals; the pane takes it from the server:
    reading/labels.py). A line of plain text is a heading in capitals with every letter a
    capital (``least=2, share=1``: "NOTICES", "ARTICLE I", ingest/text_reader.py)."""
    # Every search result is read (issue 39): a letter a-z is a letter and not a capital, so
    # more of them than (1 - share) of all characters rules the text out, counted in C, exactly.
    if len(text.encode("utf-8", "ignore").translate(None, _NOT_LOWER_ASCII)) > (1 - share) * len(text):
        return False
    letters = sum(map(str.isalpha, text))
    return letters >= least and sum(map(str.isupper, text)) >= share * letters
