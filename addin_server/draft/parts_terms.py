"""The test of a conform part: the draft uses the lawyer's document's parties and defined terms,
not the precedent's.

Apart because the document's terms (kept_terms, anchored) are read by the run-time checks
(checks.py) as well as by this test.
"""

from __future__ import annotations

import re

from index_builder.reading import binding
from index_builder.reading.defined_terms import used_terms

from addin_server.draft.instruction import Instruction, Part
from addin_server.draft.parts_result import Context, PartResult


def _conform(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
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


_ANCHOR = r"(?:as\s+)?(?:stated|set\s+out|set\s+forth|specified|identified|listed|shown|defined|named)\s+(?:in|on)"
_NAMES_ON = r"(?:states|sets\s+out|sets\s+forth|specifies|identifies|lists|shows|defines|names)"


def undefined_kept(clause: str, draft: str, ctx: Context, instruction: str = "") -> list[str]:
    """The one answer to "which of the clause's terms does a conformed draft keep that the lawyer's
    document does not define": the conform part (above) and the defined_terms check (checks_terms.py)
    both ask it, so the two cannot disagree. Where the document's terms were not sent, nothing can be
    said to be undefined (its parties alone are not its terms), so nothing is named."""
    if not ctx.document_terms:
        return []
    return kept_terms(clause, draft, set(ctx.document_terms) | document_party_names(ctx), instruction)


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


def anchored(term: str, draft: str, document: set[str]) -> bool:
    """The draft ties ``term`` to a part of the lawyer's document (one of ``document``'s terms)."""
    parts = "|".join(re.escape(t) for t in sorted(document, key=len, reverse=True)) or "(?!)"
    return bool(re.search(rf"{re.escape(term)}\s+{_ANCHOR}\s+(?:the\s+)?(?:{parts})\b", draft) or
                re.search(rf"\b(?:{parts})\s+{_NAMES_ON}\s+(?:the\s+|any\s+)?{re.escape(term)}", draft))


def document_party_names(ctx: Context) -> set[str]:
    """The document's parties as the pane sends them; else the role words among its defined terms."""
    from index_builder.reading.parties import NEUTRAL, role_by_name
    return set(ctx.parties) or {t for t in ctx.document_terms or () if role_by_name(t) or t in NEUTRAL}
