"""The test of a conform part: the draft uses the lawyer's document's parties and defined terms,
not the precedent's.

Apart because the document's terms (kept_terms, anchored) are read by the run-time checks
(checks.py) as well as by this test.
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import binding
from index_builder.reading.defined_terms import used_terms

from addin_server.draft.instruction import Instruction, Part
from addin_server.draft.parts_result import Context, PartResult


def conform_part(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    renames = dict(part.params.get("renames") or {})
    theirs = document_party_names(ctx)
    foreign = [p for p in binding.party_names(clause, ()) if theirs and p not in theirs]
    foreign += [old for old in renames if old not in foreign]
    left = [p for p in foreign if re.search(rf"(?<![\w-]){re.escape(p)}(?![\w-])", draft)]
    if not theirs and not renames:
        return PartResult(part, "unchecked", "Your document's parties were not sent, so conforming cannot be checked.")
    kept = undefined_kept(clause, draft, ctx, ins.text)
    if kept and not left:
        return PartResult(part, "partly", f"The draft keeps “{kept[0]}” from your clause, which your document does "
                                          "not define.")
    if left:
        return PartResult(part, "partly" if len(left) < len(foreign) else "not_done",
                          f"The draft still says “{left[0]}”, which your document does not use.")
    return PartResult(part, "done", "Uses your document's parties.")


ANCHOR = r"(?:as\s+)?(?:stated|set\s+out|set\s+forth|specified|identified|listed|shown|defined|named)\s+(?:in|on)"
NAMES_ON = r"(?:states|sets\s+out|sets\s+forth|specifies|identifies|lists|shows|defines|names)"


def undefined_kept(clause: str, draft: str, ctx: Context, instruction: str = "") -> list[str]:
    """The one answer to "which of the clause's terms does a conformed draft keep that the lawyer's
    document does not define": the conform part (above) and the defined_terms check (checks_terms.py)
    both ask it, so the two cannot disagree. Where the document's terms were not sent, nothing can be
    said to be undefined (its parties alone are not its terms), so only its parties are read: a party
    of the clause the document lacks, kept where the draft brings in the document's (``parties_kept``)."""
    parties = parties_kept(clause, draft, ctx)
    if not ctx.document_terms:
        return parties
    terms = kept_terms(clause, draft, set(ctx.document_terms) | document_party_names(ctx), instruction)
    return parties + [t for t in terms if t not in parties]


def kept_terms(clause: str, draft: str, document: set[str], instruction: str = "") -> list[str]:
    """The clause's own terms a conformed draft keeps that the lawyer's document does not define. A
    term the draft ties to a part of that document ("the General Cap Amount stated on the Cover
    Page", "if the Cover Page identifies Increased Claims") is defined there, by reference."""
    from index_builder.reading.defined_terms import defined_terms, quoted_terms, same_term
    # A term the draft defines itself ('(collectively the "Release Conditions")') or the lawyer names in
    # the instruction ("we'll define Target Uptime in the SOW") is not left undefined.
    own = set(defined_terms(draft)) | set(quoted_terms(draft)) | set(re.findall(r"[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*", instruction))
    return [t for t in used_terms(clause, parts=True, singles=True) if t in draft and not anchored(t, draft, document)
            and not any(same_term(t, k) or t.lower() == k.lower() for k in document | own)]


_Q = "[\"“”'‘’]"
# How a lawyer writes "the clause's name X becomes the document's Y": "X = Y", "X -> Y", 'Find "X" - replace
# "Y"', "replace X with Y", "X is our Y", "X is what the services paper calls Y", "X reads Y", "X becomes Y".
_MAPPED_FROM = [re.compile(p) for p in (
    rf"{_Q}?(?P<x>[^\"“”=\n|;]{{2,80}}?){_Q}?\s*(?:=|→|->|=>)\s*\S",
    rf"\b[Ff]ind\s+{_Q}(?P<x>[^\"“”\n]{{2,80}}){_Q}\s*[-–—:,]?\s*replace",
    rf"\b[Rr]eplace\s+{_Q}?(?P<x>[^\"“”\n]{{2,60}}?){_Q}?\s+(?:with|by)\b",
    r"\b(?P<x>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)\s+(?:is|are)\s+(?:our|what\s+[^.\n]{1,40}\s+calls)\s",
    r"\b(?P<x>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)\s+(?:reads|becomes|is\s+renamed)\s")]


# The words between a name and the name that replaces it, as _MAPPED_FROM reads them ("X = Y", 'Find "X" -
# replace "Y"', "X is Y", "X becomes Y").
_MAPS_TO = r"(?:=|→|->|=>|\bis\b|\bbecomes\b|\breads\b|\bis\s+renamed\b|-\s*replace\b)"


def mapped_pairs(instruction: str, olds: Sequence[str], news: Sequence[str]) -> dict[str, str]:
    """The instruction's mapping of the clause's names ``olds`` to the document's names ``news`` ("Employer is
    Company, Employee is Contractor", 'Find "iVillage" - replace "Company"', "the charity becomes Partner"),
    read case-blind (a name may be written in lower case, or by its first word: "the charity" for "Charity
    Tunes"). Only a name mapped to one name counts."""
    low = " ".join(instruction.lower().split())
    out: dict[str, set[str]] = {}
    for old in olds:
        for form in dict.fromkeys([old.lower(), old.lower().split()[0]]):
            for new in news:
                if new.lower() == form:
                    continue
                if re.search(rf"(?<![\w-]){re.escape(form)}[\"”'’]?\s*{_MAPS_TO}\s*[\"“'‘]?(?:the\s+|our\s+)?"
                             rf"{re.escape(new.lower())}(?![\w-])", low):
                    out.setdefault(old, set()).add(new)
    return {old: next(iter(n)) for old, n in out.items() if len(n) == 1}


def mapped_away(instruction: str) -> set[str]:
    """The names the instruction maps to another (the left side of its mapping), each as written and split
    on "or"/"and" ("'Licensed Domain Names or Licensed Content' = the Software"), less a leading "the": a
    name the lawyer asks to be replaced, so keeping it is no use of the lawyer's own word."""
    out: set[str] = set()
    for pattern in _MAPPED_FROM:
        for m in pattern.finditer(instruction):
            for piece in re.split(r"\s+(?:or|and)\s+|,\s*", m.group("x").strip()):
                piece = re.sub(r"^(?:the|a|an)\s+", "", piece.strip(" \"“”'‘’"), flags=re.I)
                if piece[:1].isupper():
                    out.add(piece)
    return out


def anchored(term: str, draft: str, document: set[str]) -> bool:
    """The draft ties ``term`` to a part of the lawyer's document (one of ``document``'s terms)."""
    parts = "|".join(re.escape(t) for t in sorted(document, key=len, reverse=True)) or "(?!)"
    return bool(re.search(rf"{re.escape(term)}\s+{ANCHOR}\s+(?:the\s+)?(?:{parts})\b", draft) or
                re.search(rf"\b(?:{parts})\s+{NAMES_ON}\s+(?:the\s+|any\s+)?{re.escape(term)}", draft))


def document_party_names(ctx: Context) -> set[str]:
    """The document's parties as the pane sends them; else the role words among its defined terms."""
    from index_builder.reading.parties import NEUTRAL, role_by_name
    return set(ctx.parties) or {t for t in ctx.document_terms or () if role_by_name(t) or t in NEUTRAL}


def renamed_in_part(clause: str, draft: str, ctx: Context) -> str:
    """A conform left half done, read from the draft alone: the draft brings in a name of the lawyer's
    document (a party, or a defined term where its terms were sent) that the clause does not use, so it
    carries the clause into that document; and a name of the clause that the document does not have is
    named fewer times than in the clause yet still named: renamed in one place, left in another
    ("... performed for Company. ... performed for Employer"; "use the Brand Elements ...; provided that
    TPC may use the Ogle Endorsement"). Lawyers conform by renaming every mention; a sound draft keeps
    none half way. A party the draft never renamed anywhere is the defined_terms check's
    (``parties_kept``). "" where none; else the reason the instruction check gives."""
    brought = _brought(clause, draft, ctx) or _brought_terms(clause, draft, ctx)
    if not brought:
        return ""
    for p in _foreign(clause, ctx):
        if 0 < _count(draft, p) < _count(clause, p):
            return (f"Partly done: “{p}” is still named in “{_around(draft, p)}”, and your document has no {p} "
                    f"(the draft names {brought[0]} elsewhere).")
    for t in _foreign_terms(clause, ctx):
        if 0 < _words(draft, t) < _words(clause, t):
            return (f"Partly done: “{t}” is still used in “{_around(draft, t)}”, and your document does not define "
                    f"it (the draft uses {brought[0]} elsewhere).")
    return ""


def carried_over(clause: str, draft: str, ctx: Context) -> bool:
    """The draft itself shows it carries the clause into the lawyer's document: it names one of the
    document's parties (or, where its terms were sent, one of its terms) that the clause does not, where the
    clause has a party or term the document lacks. Read so, the clause's own names are no longer the
    document's, whatever the instruction was read to ask."""
    if _brought(clause, draft, ctx):
        return True
    if not _brought_terms(clause, draft, ctx):
        return False
    # A document term alone is no port (a plain rewrite may name "Employee" in passing, a carve-out the
    # document's "Affiliates"): it is one where the draft also lets go of a name of the clause the document
    # lacks (renamed to the document's), or where the clause has a party the document does not.
    return bool(_foreign(clause, ctx)) or any(not _words(draft, t) for t in _foreign_terms(clause, ctx))


def parties_kept(clause: str, draft: str, ctx: Context) -> list[str]:
    """The clause's parties that the lawyer's document does not have, kept in a draft that carries the
    clause into that document (it brings in one of the document's parties) and leaves another of the
    document's parties unnamed: the kept name stands where the document's party should ("... by written
    notice to Employer" beside "Contractor may rescind"). The document's parties are known exactly (the
    pane sends them), so unlike a term this needs no list of the document's terms."""
    theirs = document_party_names(ctx)
    brought = _brought(clause, draft, ctx)
    if not brought or all(binding.uses(draft, t) for t in theirs):
        return []
    # One renamed in some places and not others is the instruction check's (``renamed_in_part``).
    return [p for p in _foreign(clause, ctx) if _count(draft, p) >= _count(clause, p) > 0]


def _foreign(clause: str, ctx: Context) -> list[str]:
    """The clause's parties (read by the core) that the lawyer's document does not have."""
    low = {t.lower() for t in document_party_names(ctx)}
    return [p for p in binding.party_names(clause, ()) if low and p.lower() not in low]


def _brought(clause: str, draft: str, ctx: Context) -> list[str]:
    """The document's parties the draft names and the clause does not: the draft carries the clause
    into the lawyer's document (only where the clause has a party the document lacks)."""
    if not _foreign(clause, ctx):
        return []
    return [t for t in _in_document_order(document_party_names(ctx), ctx)
            if binding.uses(draft, t) and not binding.uses(clause, t)]


def _in_document_order(names: set[str], ctx: Context) -> list[str]:
    """The names in the order the pane sends the document's parties and terms: the first is the one a reason
    names, and a set's order changes from one server process to the next."""
    order = {t: i for i, t in enumerate(dict.fromkeys([*ctx.parties, *(ctx.document_terms or ())]))}
    return sorted(names, key=lambda t: (order.get(t, len(order)), t))


def _foreign_terms(clause: str, ctx: Context) -> list[str]:
    """The clause's defined terms (read by the core) that the lawyer's document does not define; none
    where its terms were not sent (nothing can then be said to be the document's)."""
    if not ctx.document_terms:
        return []
    from index_builder.reading.defined_terms import same_term
    known = set(ctx.document_terms) | document_party_names(ctx)
    return [t for t in used_terms(clause, parts=True, singles=True)
            if not any(same_term(t, k) or t.lower() == k.lower() for k in known)]


def _brought_terms(clause: str, draft: str, ctx: Context) -> list[str]:
    """The document's names (parties and terms) the draft uses and the clause does not, where the clause
    has a term the document lacks: the draft carries the clause into the lawyer's document."""
    if not _foreign_terms(clause, ctx):
        return []
    names = [*_in_document_order(document_party_names(ctx), ctx), *ctx.document_terms]
    return [t for t in dict.fromkeys(names) if _words(draft, t) and not _words(clause, t)]


def _words(text: str, name: str) -> int:
    return len(re.findall(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text))


def _around(draft: str, name: str) -> str:
    """A few words either side of the last place the draft names ``name``: a partial rename most often
    leaves the later mentions (the proviso, the second sentence)."""
    found = list(re.finditer(rf"(?:\S+\s+){{0,5}}(?<![\w-]){re.escape(name)}(?![\w-])\S*(?:\s+\S+){{0,5}}", draft))
    if not found:
        return name
    m = found[-1]
    return ("…" if m.start() else "") + " ".join(m.group(0).split()) + ("…" if m.end() < len(draft.rstrip()) else "")


def _count(text: str, name: str) -> int:
    return binding.mention_count(text, name)
