"""Parties: the one table of party roles and their counterparts, and which parties a document
or a clause names.

A role is one side of a relation: in confidentiality the Discloser gives information and the
Recipient receives it; in supply the Provider supplies and the Customer buys; in employment
the Employer employs the Employee. Names on one side of one relation stand for the same
party ("Provider" and "Supplier"; "Discloser" and "Disclosing Party"); the other side is the
counterpart. "Company" (and its like) has no side of its own: it is read from the party
across from it (across from a Contractor it buys the services, across from an Employee or a
Founder it employs).

A document names its parties in a few ways, all read here: "between X and Y", a preamble's
(the “X”), “X” means ... party, a cover page's row asking for a party's legal name, an
all-capitals signature label ("RECIPIENT"), and a role word the document uses as a party
over and over without defining it ("Company will pay ...").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from index_builder.reading.defined_terms import meaning, mentions, singular
from index_builder.reading.paragraphs import Paragraph


@dataclass(frozen=True)
class Role:
    relation: str  # "supply", "confidentiality", "employment", ...
    side: str  # "supplier" | "customer", "discloser" | "recipient", ...

    @property
    def counterpart(self) -> "Role":
        a, b = _SIDES[self.relation]
        return Role(self.relation, b if self.side == a else a)

    def __str__(self) -> str:
        return self.side


# relation: (first side, its names), (second side, its names). The first name of a side is
# how the side is called in messages. Each name appears once in the whole table.
RELATIONS: tuple[tuple[str, tuple[str, tuple[str, ...]], tuple[str, tuple[str, ...]]], ...] = (
    ("supply",
     ("supplier", ("Supplier", "Provider", "Service Provider", "Vendor", "Contractor", "Independent Contractor",
                   "Consultant", "Seller", "Licensor", "Servicer", "Agency", "Manufacturer")),
     ("customer", ("Customer", "Client", "Buyer", "Purchaser", "Licensee", "Subscriber", "Partner", "Design Partner",
                   "User Organisation", "User Organization", "Distributor", "Reseller", "Owner"))),
    # Roles the law gives a party (GDPR, HIPAA): a Provider is "a Processor" in a DPA, so these
    # are never the same as a deal's names ("Customer is a Controller" must not become
    # "Customer is a Customer").
    ("data protection",
     ("controller", ("Controller", "Data Exporter")),
     ("processor", ("Processor", "Data Importer", "Subprocessor"))),
    ("health privacy",
     ("covered entity", ("Covered Entity",)),
     ("business associate", ("Business Associate",))),
    ("confidentiality",
     ("discloser", ("Discloser", "Disclosing Party")),
     ("recipient", ("Recipient", "Receiving Party"))),
    ("employment",
     ("employer", ("Employer",)),
     ("employee", ("Employee", "Executive", "Worker", "Staff Member", "Founder"))),
    ("lending",
     ("lender", ("Lender",)),
     ("borrower", ("Borrower",))),
    ("lease",
     ("landlord", ("Landlord", "Lessor")),
     ("tenant", ("Tenant", "Lessee"))),
    ("indemnity",
     ("indemnifying", ("Indemnifying Party", "Indemnitor")),
     ("indemnified", ("Indemnified Party", "Protected Party", "Indemnitee"))),
    ("assignment",
     ("assignor", ("Assignor",)),
     ("assignee", ("Assignee",))),
    ("investment",
     ("issuer", ("Issuer",)),
     ("investor", ("Investor", "Stockholder", "Holder"))),
    ("agency",
     ("principal", ("Principal",)),
     ("agent", ("Agent",))),
)
# Names whose side is read from the party across from them.
NEUTRAL = frozenset({"Company", "Corporation", "Organisation", "Organization"})
# Names that stand for their side less surely: "Partner" (a design partner buys, a business
# partner may not), "Founder" (the individual across from the Company, not always employed).
WEAK = frozenset({"Partner", "Founder", "Owner", "Agent", "Principal", "Holder"})

_SIDES = {relation: (a[0], b[0]) for relation, a, b in RELATIONS}
_BY_NAME: dict[str, Role] = {name.lower(): Role(relation, side)
                             for relation, *sides in RELATIONS for side, names in sides for name in names}
ROLE_NAMES: frozenset[str] = frozenset(name for _, *sides in RELATIONS for _, names in sides for name in names)
PARTY_NAMES: frozenset[str] = ROLE_NAMES | NEUTRAL  # every word that names a party by its role


def names_of(role: Role) -> tuple[str, ...]:
    """The table's names for a role, the usual one first."""
    for relation, *sides in RELATIONS:
        for side, names in sides:
            if (relation, side) == (role.relation, role.side):
                return names
    return ()


def role_by_name(name: str) -> Role | None:
    """The role a name stands for by itself (the table), or None ("Company", "Acme")."""
    key = name.strip().lower()
    return _BY_NAME.get(key) or _BY_NAME.get(singular(name.strip()).lower())


_DEFINED_AS = (
    (re.compile(r"\b(?:provid|suppl|perform|deliver|licens(?:ing|or)\b|sell)\w*\b.{0,40}\b(?:services|products?|software|goods|deliverables)", re.I), Role("supply", "supplier")),
    (re.compile(r"\b(?:receiv|purchas|buy|acquir|us)\w*\b.{0,40}\b(?:services|products?|software|goods|deliverables)", re.I), Role("supply", "customer")),
    (re.compile(r"\bdisclos\w*\b.{0,30}\bconfidential", re.I), Role("confidentiality", "discloser")),
    (re.compile(r"\breceiv\w*\b.{0,30}\bconfidential", re.I), Role("confidentiality", "recipient")),
)
# A cover page's party row: "Staff Member" / "[Full legal name of the employee]".
_LEGAL_NAME = re.compile(r"\[\s*(?:full\s+)?(?:legal\s+)?name\s+of\s+(?:the\s+|an?\s+)?([a-z]+(?:\s[a-z]+)?)", re.I)


def role_of(name: str, definition: str = "", others: Sequence[str] = (), known: dict[str, Role] | None = None) -> Role | None:
    """The role a party name stands for: by the table, else by the party across from it
    (``others``: the document's other parties; ``known``: roles read for some of them), else
    by its cover row or its definition."""
    role = role_by_name(name)
    if role:
        return role
    if name.strip() in NEUTRAL or name.strip().title() in NEUTRAL:
        across = across_from(name, others, known)
        if across:
            return across
    named = _LEGAL_NAME.search(definition)
    if named and role_by_name(named.group(1)):
        return role_by_name(named.group(1))
    body = meaning(definition)
    for pattern, found in _DEFINED_AS:
        if body and pattern.search(body):
            return found
    return None


_EITHER = ("confidentiality", "indemnity", "data protection", "health privacy")  # played by either party


def across_from(name: str, others: Sequence[str], known: dict[str, Role] | None = None) -> Role | None:
    """The side a neutral name ("Company") takes: the counterpart of the side the other party
    stands for (``known``: roles already read for some names, e.g. from their cover rows).
    Confidentiality and indemnity roles are played by either party, so they count only when no
    deal role (supply, employment ...) is there; several sides: None."""
    known = known or {}
    sides = {role for o in others if o.strip().lower() != name.strip().lower()
             and (role := known.get(o) or role_by_name(o))}
    deal = {r for r in sides if r.relation not in _EITHER}
    if len(deal) == 1:
        return next(iter(deal)).counterpart
    if not deal and len(sides) == 1:
        return next(iter(sides)).counterpart
    return None


# -- a document's parties --------------------------------------------------------------------

@dataclass(frozen=True)
class Party:
    name: str  # as the document writes it: "Supplier", "Disclosing Party", "Party 1"
    role: Role | None
    how: str  # between | preamble | means | row | signature | used
    index: int  # the paragraph that names it
    aliases: tuple[str, ...] = ()  # other names the document gives the same party ("Founder (Assignor)")


_NOT_PARTY = re.compile(r"\b(?:agreement|terms?|page|sheet|order|form|addendum|schedule|exhibit|parties|the|this|"
                        r"statement|SOW|NDA|DPA|LOI|BAA)\b", re.I)
_BETWEEN = re.compile(r"\b(?:by and )?between\s+(?:the\s+)?([A-Z][A-Za-z\s]{1,40}?)\s+and\s+(?:the\s+)?([A-Z][A-Za-z\s]{1,40}?)"
                      r"(?=[,.;(]|\s+(?:each|as|who|which|that|under|for|to|in|with|is|are|will|shall|have|has)\b)")
_PREAMBLE_PARTY = re.compile(r"\bbetween\b|\bby\b.{0,200}\bto\b|\bby and among\b|\bentered into\b|\bexecuted by\b", re.I)
_ALIAS = re.compile(r"^([A-Z][\w ]{1,30}?)\s*\(\s*(?:the\s+)?([A-Z][\w ]{1,30}?)\s*\)$")
_SIGNATURE = re.compile(r"^([A-Z][A-Z ]{2,30}?|PARTY\s+\d|PARTY\s+[AB])\s*:?\s*(?:\{[^}]*\})?$")
_SIGN_FIELD = re.compile(r"\s*(?:signature|signed|by)\s*:?\s*(?:_{2,}\s*)?$", re.I)
_PROSE_WORDS = 6


def _first_use(text: str, name: str) -> int:
    """Where ``name`` first stands as a word in ``text`` (its length when it never does)."""
    m = re.search(rf"\b{re.escape(name)}\b", text)
    return m.start() if m else len(text)


def document_parties(paragraphs: Sequence[Paragraph], definitions: Sequence[tuple[str, str, int, str]] = ()) -> list[Party]:
    """The parties a document names, in order of how surely: [Party].

    ``definitions``: (term, defining text, paragraph index, how) as ``document.definitions``
    reads them (how "quoted" or "table").
    """
    found: dict[str, Party] = {}
    body = "\n".join(p.text for p in paragraphs if len(p.text.split()) >= _PROSE_WORDS)
    counted: dict[str, int] = {}

    def uses(name: str) -> int:
        if name not in counted:
            counted[name] = _uses(body, name)
        return counted[name]

    def add(name: str, how: str, index: int, aliases: tuple[str, ...] = ()) -> None:
        if name and name in found and aliases:
            old = found[name]
            found[name] = Party(name, None, old.how, old.index, tuple(dict.fromkeys(old.aliases + aliases)))
        elif name:
            found.setdefault(name, Party(name, None, how, index, aliases))

    first_section = next((p.index for p in paragraphs if not p.in_table and re.match(r"\d", p.number or "")), None)
    preamble_end = first_section if first_section is not None else min(len(paragraphs), 40)
    for name_a, name_b, index in _between_pairs(paragraphs, uses):
        add(name_a, "between", index)
        add(name_b, "between", index)
    for term, text, index, how in definitions:
        if how != "quoted" or _NOT_PARTY.search(term) or term == term.upper():
            continue
        means_party = re.search(r"[\u201c\"]" + re.escape(term) + r"[\u201d\"]\s*(?:means|shall mean|will mean)\s+"
                                r"(?:the\s+|a\s+|each\s+|any\s+)?party\b(?![\u2019'])", text, re.I)
        preamble = index < preamble_end and _PREAMBLE_PARTY.search(text) and re.search(
            r"\(\s*(?:each,?\s+)?(?:a|an|the)?\s*[\u201c\"]" + re.escape(term), text)
        if means_party:
            add(term, "means", index)
        elif preamble and (term in PARTY_NAMES or role_by_name(term) or _names_a_person(text, term)):
            add(term, "preamble", index, _described_as(text, term))
    for i, p in enumerate(paragraphs):
        if not p.in_table:
            continue
        label = p.text.strip().rstrip(":")
        value = next((q.text for q in paragraphs[i + 1:i + 4] if q.in_table and q.text.strip()), "")
        alias = _ALIAS.match(label)
        if alias and (role_by_name(alias.group(2)) or alias.group(2) in PARTY_NAMES):
            add(alias.group(2), "row", p.index, (alias.group(1),))  # "Founder (Assignor)"
            continue
        if re.fullmatch(r"[A-Z][a-z]+(?: [A-Z][a-z]+){0,2}", label) and not _NOT_PARTY.search(label):
            asks_name = bool(_LEGAL_NAME.search(value)) or bool(re.fullmatch(r"\{[a-z_]*name[a-z_]*\}", value.strip()))
            if (label in PARTY_NAMES and (asks_name or uses(label) >= 3)) or (asks_name and uses(label) >= 3):
                add(label, "row", p.index)
        signature = _SIGNATURE.match(p.text.strip())
        if signature:
            word = signature.group(1).strip()
            name = _as_used(word, body)
            if name in PARTY_NAMES or re.fullmatch(r"Party \w", name):
                add(name, "signature", p.index)
    for i, p in enumerate(paragraphs):
        # A signature block's party label over its signature field: "Customer:" / "Signature:"
        # (Bonterms), "Stockholder" over a table of "Signature", "Print Name" (OpenAgreements).
        label = p.text.strip().rstrip(":").strip()
        after = next((q.text for q in paragraphs[i + 1:i + 3] if q.text.strip()), "")
        if label in PARTY_NAMES and _SIGN_FIELD.match(after):
            add(label, "signature", p.index)
    # Longer names first (so "Receiving Party" is read before "Party"); names of one length in
    # the order the document first uses them, never in a set's hash order (which would change
    # the parties' order from one server process to the next).
    # Only a name used three times can be added, so only those are ordered: by length, then by
    # first use (never a set's hash order); finding first uses for every role word cost 4x the reading.
    used = [n for n in PARTY_NAMES if n not in found and uses(n) >= 3]
    for name in sorted(used, key=lambda n: (-len(n), _first_use(body, n), n)):
        if name not in found and not any(name in f for f in found):
            add(name, "used", -1)
    for name, index in _subjects(body, found, definitions):
        add(name, "used", index)
    names = list(found)
    # Roles by name, cover row or definition first; then the neutral ones ("Company") across from those.
    known = {p.name: role for p in found.values()
             if (role := role_by_name(p.name) or _row_role(p.name, _definition(p.name, definitions))
                 or (role_by_name(p.aliases[0]) if p.aliases else None))}
    return [Party(p.name, known.get(p.name) or role_of(p.name, _definition(p.name, definitions), names, known), p.how,
                  p.index, p.aliases) for p in found.values()]


_SUBJECT = re.compile(r"(?<![\w\u201c\"])([A-Z][a-z]{2,})(?:[\u2019']s)?\s+(?:will|shall|may|must)\s+(?:not\s+)?[a-z]")


def _subjects(body: str, found: dict[str, Party], definitions: Sequence[tuple[str, str, int, str]]) -> list[tuple[str, int]]:
    """Single words the document uses as a party without defining one: the subject of "will",
    "shall", "may", "must" at least three times ("Business will pay ...", where a firm renamed
    its "Company"), not a sentence's first word, a document, a term defined otherwise."""
    from index_builder.reading.defined_terms import STARTERS  # the words that start sentences

    counts: dict[str, int] = {}
    defined = {term for term, _, _, _ in definitions}
    for m in _SUBJECT.finditer(body):
        word = m.group(1)
        if re.search(r"[A-Z][\w\-]*[ \t]+$", body[max(0, m.start() - 30):m.start()]):
            continue  # the last word of a longer name ("Staff Member will")
        if word in STARTERS or word in found or word in _NOT_SUBJECTS or (word in defined and word not in PARTY_NAMES):
            continue
        counts[word] = counts.get(word, 0) + 1
    return [(word, -1) for word, n in counts.items() if n >= 3]


_NOT_SUBJECTS = frozenset("Agreement Order Section Clause Article Schedule Exhibit Notice Consent Letter Addendum "
                          "Amendment Terms Product Service Services Software Documentation Fees Payment Party Parties "
                          "Either Neither Such Any This That Each Nothing Confidentiality Termination".split())


def deal_parties(parties: Sequence[Party]) -> list[Party]:
    """The parties that make the deal, of those ``document_parties`` read: a role every party
    may play in some clause (Discloser, Indemnifying Party, Controller) only when no party has
    a deal role (Provider; "Party 1"; a "Company" across from a Contractor), as in a one-way
    NDA between Company and Recipient; a name read only by how often it is used only when
    fewer than two are read otherwise."""
    def either(p: Party) -> bool:
        return p.role is not None and p.role.relation in _EITHER

    def deal(p: Party) -> bool:  # a "Company" whose side could not be read is neither
        return (p.role is not None and not either(p)) or (p.role is None and p.name not in NEUTRAL)

    dealing = any(deal(p) for p in parties)
    kept = [p for p in parties if not (dealing and either(p))]
    named = [p for p in kept if p.how != "used"]
    return named if len(named) >= 2 else kept


def _row_role(name: str, definition: str) -> Role | None:
    """A role read from a cover row's value ("[Full legal name of the employee]")."""
    named = _LEGAL_NAME.search(definition)
    return role_by_name(named.group(1)) if named else None


def _between_pairs(paragraphs: Sequence[Paragraph], uses) -> list[tuple[str, str, int]]:
    """"between Provider and Customer": the pair of capitalised names the document uses most."""
    best: tuple[int, str, str, int] | None = None
    for p in paragraphs:
        m = _BETWEEN.search(p.text)
        if not m:
            continue
        pair = (m.group(1).strip(), m.group(2).strip())
        if not all(len(w.split()) <= 3 and re.match(r"[A-Z][a-z]", w) and not _NOT_PARTY.search(w) for w in pair):
            continue
        score = uses(pair[0]) + uses(pair[1])
        if best is None or score > best[0]:
            best = (score, pair[0], pair[1], p.index)
    return [best[1:]] if best else []


def _names_a_person(text: str, term: str) -> bool:
    """A preamble's (the “Founder”) after a bracketed name: "[Full name of the founder] (the “Founder”)"."""
    return bool(re.search(r"\[[^\]]*\bname\b[^\]]*\]\s*(?:,[^()]{0,80})?\(\s*(?:the\s+)?[\u201c\"]" + re.escape(term), text))


def _described_as(text: str, term: str) -> tuple[str, ...]:
    """The party word a preamble's placeholder gives the party: "[Full name of the founder
    assigning the shares] (the “Assignor”)" -> ("Founder",)."""
    m = re.search(r"\[[^\]]*?\bname\s+of\s+(?:the\s+|an?\s+)?([a-z]+)(?:\s+([a-z]+))?[^\]]*\]\s*(?:,[^()]{0,80})?"
                  r"\(\s*(?:the\s+)?[\u201c\"]" + re.escape(term), text)
    if not m:
        return ()
    for words in ((m.group(1), m.group(2)), (m.group(1),)):
        name = " ".join(w.capitalize() for w in words if w)
        if name in PARTY_NAMES and name != term:
            return (name,)
    return ()


def _uses(body: str, name: str) -> int:
    return len(mentions(body, name))


def _as_used(word: str, body: str) -> str:
    """"RECIPIENT" as the document writes it in prose ("Recipient"), else in title case."""
    title = " ".join(w.capitalize() for w in word.split())
    return title if re.search(r"\b" + re.escape(title) + r"\b", body) or re.fullmatch(r"Party \w", title) else word


def _definition(name: str, definitions: Sequence[tuple[str, str, int, str]]) -> str:
    return next((text for term, text, _, _ in definitions if term == name), "")


# -- a clause's parties ----------------------------------------------------------------------

def clause_parties(text: str, names: Iterable[str] = PARTY_NAMES) -> list[str]:
    """The party names a clause uses on their own, in order of first use, possessive-only uses
    ("the Discloser’s") included; never a party word inside a longer term ("Customer Content")."""
    first: dict[str, int] = {}
    for name in sorted(set(names), key=lambda n: (-len(n), n)):  # longest first; ties by name, not hash order
        found = [m for m in mentions(text, name) if not m.upper]
        taken = [m for m in found if not any(s <= m.start < e for s, e in _spans(first, text))]
        if taken:
            first[name] = taken[0].start
    return sorted(first, key=first.get)


def _spans(first: dict[str, int], text: str) -> list[tuple[int, int]]:
    return [(m.start, m.end) for name in first for m in mentions(text, name)]


# -- the role a party plays in a clause ------------------------------------------------------

_CI = r"(?:Confidential Information|confidential information|Proprietary Information|Protected Information)"
_HOLDS = re.compile(r"(?:will|shall|must|may|agrees to|is required to)\s+(?:not\s+|only\s+|promptly\s+)*"
                    r"(?:use|disclose|protect|hold|keep|return|destroy|delete|safeguard|copy|access|treat|maintain)\b[^.;]{0,80}?"
                    + _CI + r"|(?:receiv|obtain)\w*\s[^.;]{0,40}?" + _CI)


def confidentiality_role(text: str, name: str) -> Role | None:
    """Whether ``name`` receives or discloses confidential information in this clause: its
    own ("the Company’s Confidential Information", "disclosed by the Company") makes it the
    discloser; obligations on it ("Contractor will not disclose ... Confidential Information",
    "received by Contractor") the recipient. None when the clause says neither, or both."""
    who = re.escape(name)
    owns = re.search(who + r"[\u2019']s\s+(?:[a-z]+\s+){0,2}" + _CI + r"|" + _CI + r"\s+(?:of|from)\s+(?:the\s+)?" + who
                     + r"|disclosed\s+(?:to\s+\w+\s+)?by\s+(?:the\s+)?" + who + r"\b", text)
    bound = re.search(r"\b" + who + r"\s+" + _HOLDS.pattern + r"|" + _CI + r"\s+(?:\w+\s+){0,3}(?:received|obtained)\s+by\s+(?:the\s+)?"
                      + who + r"\b", text)
    if bool(owns) == bool(bound):
        return None
    return Role("confidentiality", "discloser" if owns else "recipient")
