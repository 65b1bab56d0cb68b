"""The defined-terms check: the draft uses only terms the lawyer's document has (or, where the document is
not known, none that only a precedent has)."""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import binding
from index_builder.reading import polarity as P
from index_builder.reading.figures import without_figures
from index_builder.reading.defined_terms import capitalised_terms, defined_terms, quoted_terms, same_term, used_terms
from index_builder.reading.parties import PARTY_NAMES, names_of, role_by_name

from addin_server.draft.checks_base import CheckResult, DraftTask, not_checked
from addin_server.draft.checks_base import short as _short
from addin_server.draft.compare_additions import in_cited
from addin_server.draft.compare_base import Region
from addin_server.draft.instruction import Instruction
from addin_server.draft.parts_terms import anchored, undefined_kept
from addin_server.draft.parts_terms import carried_over, mapped_away, parties_kept


def check_defined_terms(task: DraftTask, ins: Instruction, draft: str) -> CheckResult:
    document = set(task.document_terms or ()) | set(task.document_parties)
    conform = "conform" in ins.kinds
    clause_terms = _terms_in(task.clause, task)
    # Conform read from the instruction, or shown by the draft itself (it brings in the document's names in
    # place of the clause's): a party or term of the clause the document lacks, kept, is one it does not define.
    shown = not conform and carried_over(task.clause, draft, task.context())
    kept = (undefined_kept(task.clause, draft, task.context(), task.instruction) if conform
            else parties_kept(task.clause, draft, task.context()))
    if shown and not kept:
        # Shown by the draft alone, only the clause's parties, role words and one-word names ("Sponsor") are
        # read as kept: a longer capitalised run the clause merely mentions ("rated by the A.M. Best Company")
        # is as likely a proper name as a term of either document.
        clause_parties = set(binding.party_names(task.clause))
        kept = [k for k in undefined_kept(task.clause, draft, task.context(), task.instruction)
                if k in PARTY_NAMES or k in clause_parties or _used_as_name(k, task.clause)]
    if kept:
        return CheckResult("defined_terms", False, f"The draft keeps “{kept[0]}” from your clause, which your "
                                                   "document does not define.")
    dropped = definitions_dropped(task.clause, draft)
    if dropped:
        return CheckResult("defined_terms", False, f"The draft uses “{dropped[0]}” but no longer defines it, as your "
                                                   "clause did: the term now hangs on nothing.")
    replaced = _replaced_kept(task, draft, clause_terms, document)
    if replaced:
        return CheckResult("defined_terms", False, f"The draft keeps “{replaced[0]}” from your clause, which your "
                                                   "instruction replaces and your document does not define.")
    lacking = lacking_terms(task, draft, conform, clause_terms)
    if task.document_terms is None and not task.document_parties and not lacking:
        return not_checked("defined_terms", "Your document's defined terms are not known.")
    if lacking:
        return CheckResult("defined_terms", False, f"The draft uses “{lacking[0]}”, which your document does not "
                                                   "define.")
    return CheckResult("defined_terms", True, "The draft uses only terms your document has.")


# A word before a noun that makes it a thing, not a name ("the Products", "any Updates").
_ARTICLES = frozenset("the a an any such all each its their his her our your this that these those".split())


def _used_as_name(word: str, clause: str) -> bool:
    """One capitalised word the clause uses on its own, as a party is named ("fees paid by Sponsor"), not as
    a piece of a longer title ("Errors and Omissions insurance", "the A.M. Best Company")."""
    if " " in word:
        return False
    for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", clause):
        before = re.findall(r"[A-Za-z][\w.-]*", clause[max(0, m.start() - 30):m.start()])
        after = re.findall(r"[A-Za-z][\w.-]*", clause[m.end():m.end() + 30])
        joined = lambda ws: [w for w in ws[:2] if w.lower() not in ("and", "of", "&")][:1]  # noqa: E731
        near = joined(list(reversed(before))) + joined(after)
        article = bool(before) and before[-1].lower() in _ARTICLES
        if before and not article and not any(w[:1].isupper() for w in near):
            return True
    return False


def definitions_dropped(clause: str, draft: str) -> list[str]:
    """The names the clause gives a blank or a figure ('[Date the repurchase closes] (the "Closing Date")')
    that the draft still uses with the blank or figure gone and the name no longer defined: the name now
    stands for a value written nowhere. (A term defined by words may be glossed or left to the document's
    own definition; a name for a value has nothing to stand for once the value is dropped.)"""
    theirs = set(defined_terms(draft)) | set(quoted_terms(draft))
    out = []
    for m in _NAMED_VALUE.finditer(clause):
        value, term = m.group("value"), m.group("term").strip()
        if " ".join(value.split()) in " ".join(draft.split()) or any(same_term(term, d) for d in theirs):
            continue
        if re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", draft):
            out.append(term)
    return out


# A name given to a blank or a figure right after it: '[Date the repurchase closes] (the "Closing Date")',
# '$50,000 (the "Cap")'. The name stands for that value and nothing else.
_NAMED_VALUE = re.compile(r"(?P<value>\[[^\]]{1,200}\]|[$€£]\s?[\d,.]+(?:\s+(?:million|billion))?)\s*"
                          r"\((?:the\s+|each\s+a\s+|a\s+)?[\"“](?P<term>[A-Z][^\"”]{1,60})[\"”]\)")


def lacking_terms(task: DraftTask, draft: str, conform: bool, clause_terms: list[str] | None = None) -> list[str]:
    """The terms the draft uses that the lawyer's document (or, where it is not known, nothing but a precedent)
    does not give."""
    document = set(task.document_terms or ()) | set(task.document_parties)
    clause_terms = _terms_in(task.clause, task) if clause_terms is None else clause_terms
    known = set(document) if conform and document else set(document) | set(clause_terms)
    named = list(task.document_parties) or list(binding.party_names(task.clause))
    if not conform and len(named) == 1 and role_by_name(named[0]):
        # One party is known ("Employee"): its counterpart in the one role table is the other ("Employer").
        known |= set(names_of(role_by_name(named[0]).counterpart))
    # (Pieces of a run are judged against the document's and the clause's names only: a name the instruction
    # writes may be the one it replaces, "Customer Personal Data in place of PHI".)
    named_known = set(known)
    known |= {w for w in re.findall(r"[A-Z][\w&.-]+(?:\s+[A-Z][\w&.-]+)*", task.instruction)}
    lacking = [t for t in _terms_in(draft, task, task.clause) if not any(same_term(t, k) or t.lower() == k.lower() for k in known)
               and not _part_of_known(t, known) and not _known_side_by_side(t, named_known)
               and not anchored(t, draft, document)
               and not (not conform and _lawyers_own(t, task.clause, draft, known))
               and not _inside_instruction_name(t, draft, task.instruction)]
    if task.document_terms is None and not task.document_parties:
        # The document is not known: only a precedent's own terms and parties are sure to be foreign.
        foreign = _precedent_terms(task)
        lacking = [t for t in lacking if t in foreign]
    return lacking


def term_added(task: DraftTask, draft: str, regions: Sequence[Region], lacking: Sequence[str],
               cited: Sequence[str] = ()) -> CheckResult | None:
    """A term the document lacks brought in by words the draft adds ("which notice may not be given during the
    first Contract Year", "Restricted Activities: any sales role"): a new concept in new words is an addition
    first, whatever its capitals; the additions check says so (the defined-terms check names the term). A term
    a precedent or the instruction writes is borrowed or asked for, not added; a term in a replaced word
    ("Company" for "Customer") is the meaning's or the term's, not an addition."""
    given = " ".join([task.instruction] + [p.text for p in task.precedents])
    asked = without_figures(task.instruction)
    for term in lacking:
        if re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", given, re.IGNORECASE):
            continue
        if _names_the_ask(term, asked):
            continue  # "a Qualified Sale" in a sale carve-out: the asked-for thing misnamed (the term check's)
        for r in regions:
            new = r.new
            if in_cited(draft, r.new_start, cited):
                continue  # a cited sentence: the support check judges what it brings in
            if len(new.split()) >= 4 and re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", new) and \
                    len(new.split()) > 2 * len(r.old.split()):
                return CheckResult("additions", False, f"The draft adds “{_short(new)}”, with “{term}”, which your "
                                                       "clause does not have and nothing you gave asks for or backs.")
    return None


def _replaced_kept(task: DraftTask, draft: str, clause_terms: list[str], document: set[str]) -> list[str]:
    """The clause's terms the instruction maps to another name ("Find "the Network" - replace ...", "Work
    Product is what the services paper calls Deliverables") that the draft still uses and the lawyer's
    document does not have: however the instruction was read, the lawyer said the name does not carry over."""
    if task.document_terms is None:
        return []
    away = mapped_away(task.instruction)
    return [t for t in clause_terms if t in away and not any(same_term(t, k) or t.lower() == k.lower() for k in document)
            and re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", draft)]


def _lawyers_own(term: str, clause: str, draft: str, known: set[str]) -> bool:
    """A capitalised phrase that is not a new term: written so in the lawyer's own clause ("after
    Termination", "(Representations & Warranties)"), or a known name after the sentence's first word,
    whose capital is the sentence's ("Once Employee's internship")."""
    if re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", clause):
        return True
    # The clause's heading or conspicuous text in capitals, written in sentence or title case ("10. LIMITED
    # WARRANTY" -> "10. Limited Warranty"): the clause's own words, not a new term.
    if re.search(rf"(?<![\w-]){re.escape(term.upper())}(?![\w-])", clause):
        return True
    words = term.split()
    names = {k.lower() for k in known}
    if len(words) < 2 or not any(w.lower().rstrip("’'s") in names or w.lower() in names for w in words):
        return False
    others = [w for w in words if w.lower() not in names and w.lower().rstrip("’'s") not in names]
    at_start = re.search(rf"(?:^|[.;:!?]\s+|\n\s*)(?:\(?\w{{1,4}}[.)]\s+)?{re.escape(term)}", draft)
    # Not a known name beside the clause's own capitalised word: "Valeant Trademarks" beside the
    # clause's "Dova Trademarks" is a new term.
    return bool(at_start) and words[0] in others and len(others) == 1 and words[0][1:].islower()


def _inside_instruction_name(term: str, draft: str, instruction: str) -> bool:
    """Every use of ``term`` in the draft sits inside a longer name the lawyer writes in the instruction
    ("Partner" in "the Common Paper Design Partner Standard Terms Version 1.3"): the lawyer's name, copied."""
    names = [n for n in re.findall(r"[A-Z][\w&.-]*(?:\s+(?:of\s+|and\s+|&\s+)?[A-Z0-9][\w&.-]*)+", instruction)
             if term in n.split() and n != term and n in draft]
    if not names:
        return False
    rest = draft
    for n in sorted(names, key=len, reverse=True):
        rest = rest.replace(n, " ")
    return not re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", rest)


def _part_of_known(term: str, known: set[str]) -> bool:
    """Known as written, as the end of a known term read without its first word ("Public Holdings" of
    "Passive Public Holdings"), or as the other party's counterpart ("Partner Covered Claims" where the
    document has "Company Covered Claims")."""
    low = term.lower()
    # "Affiliate of Green Cross", "Confidential Information of the Company": known words joined by "of".
    pieces = re.split(r"\s+of\s+(?:the\s+|any\s+|each\s+)?", term)
    if len(pieces) > 1 and all(_is_known(p, known) for p in pieces):
        return True
    if any(low in k.lower().split(" and ") or low == k.lower().rstrip("s") or k.lower().endswith(" " + low)
           for k in known):
        return True
    head, _, rest = term.partition(" ")
    return head in PARTY_NAMES and bool(rest) and any(
        k.partition(" ")[0] in PARTY_NAMES and same_term(k.partition(" ")[2], rest) for k in known)


def _is_known(piece: str, known: set[str]) -> bool:
    return any(same_term(piece, k) or piece.lower() == k.lower() for k in known)


# Small words a capitalised run may take in between two names ("Agreement for TDA", "Agreement of Dragon Systems").
_JOINERS = frozenset("of for to by with and the".split())


def _known_side_by_side(term: str, known: set[str]) -> bool:
    """Known names written next to each other, read as one run of capitals: "Customer Processes Customer
    Personal Data" (a party, the document's defined verb, a defined term), "Cloud Service Fees Customer owes",
    "Agreement for TDA". Each piece is known, so the run names nothing new; a run with any unknown piece
    ("Affiliate of UTK" where "Affiliate" is not defined) is still new."""
    words = term.split()
    if len(words) < 2:
        return False

    # reach[i]: the number of known pieces that cover words[:i] (None where they cannot).
    reach: list[int | None] = [0] + [None] * len(words)
    for j in range(1, len(words) + 1):
        for i in range(j):
            if reach[i] is None:
                continue
            piece = " ".join(words[i:j])
            if _is_known(piece, known):
                reach[j] = max(reach[j] or 0, reach[i] + 1)
            elif j == i + 1 and 0 < i < len(words) - 1 and piece.lower() in _JOINERS:
                reach[j] = max(reach[j] or 0, reach[i])
    return (reach[-1] or 0) >= 2


def _precedent_terms(task: DraftTask) -> set[str]:
    out: set[str] = set()
    for p in task.precedents:
        out |= set(defined_terms(p.text)) | set(binding.party_names(p.text))
        out |= {c.phrase for c in capitalised_terms(p.text)}
    return out


def _terms_in(text: str, task: DraftTask, ordinary: str = "") -> list[str]:
    """The defined terms ``text`` uses (reading/defined_terms.py): role words and the precedents' own
    defined words count wherever capitalised; ``ordinary`` is the clause it was drafted from."""
    defined = {t for p in task.precedents for t in defined_terms(p.text)}
    return used_terms(text, PARTY_NAMES | defined, binding.party_names(text, task.document_parties), ordinary)



def _names_the_ask(term: str, asked: str) -> bool:
    """The term's head word (its last, or the one before "of") is a word the ask uses in some form: the term
    names what the lawyer asked for ("Qualified Sale" for "a sale of substantially all its assets", "Licensor"
    for "the rights MMT licenses"). A figure's unit is no such word ("five-year" asks for no "Contract Year")."""
    from addin_server.draft.support_words import stems, word_roots
    head = re.split(r"\s+of\s+", term)[0].split()[-1]
    asked = _blank(asked, P.things_refused(asked))  # "No affiliate limb is to be added" asks for no Affiliate
    have, roots = set(stems(asked)), word_roots(asked)
    return any(w in have or len(w) >= 5 and w[:5] in roots for w in stems(head))


def _blank(text: str, spans: Sequence[tuple[int, int]]) -> str:
    chars = list(text)
    for a, b in spans:
        chars[a:b] = " " * (b - a)
    return "".join(chars)


