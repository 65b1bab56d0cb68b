"""The support check: every cited sentence backed by the precedent it cites (a faithful paraphrase is,
a changed meaning or an added figure is not), and no precedent's words brought in uncited."""

from __future__ import annotations

import difflib
import re

from index_builder.model import Clause
from index_builder.reading import polarity as P
from index_builder.reading.figures import without_figures
from index_builder.reading.sentences import sentence_spans

from addin_server.draft import compare as C
from addin_server.draft.checks_base import MARKER, CheckResult
from addin_server.draft.checks_base import short as _short
from addin_server.draft.citations import VerifiedRedraft
from addin_server.draft.instruction import Instruction
from addin_server.draft.quotes import contains, words
from addin_server.draft.support_phrase import phrase_cited_unsaid
from addin_server.draft.support_words import word_roots
from addin_server.draft.support_claims import claim_unbacked


def check_support(verified: VerifiedRedraft, precedents: tuple[Clause, ...], clause: str, ins: Instruction,
             allow: C.Allowances | None = None) -> CheckResult:
    # A precedent the instruction names for its wording ("the way the PSA does [1]") is where the lawyer
    # asked the words to come from: borrowing them is the ask, not a planted addition.
    named = {int(n) for n in re.findall(r"\[(\d+)\]", ins.text)} | {
        p.params["precedent"] for p in ins.parts if isinstance(p.params.get("precedent"), int)}
    borrowed = _uncited_borrowing(verified.text, precedents, clause, named)
    if borrowed and "carve_out" in ins.kinds and P.negation_or_exception(nor=True).search(
            borrowed[0]):
        borrowed = None  # the carve-out the lawyer asked for, in the precedent's words: wanted, not planted
    if borrowed:
        sentence, n = borrowed
        return CheckResult("support", False, f"“{_short(sentence)}” adds words taken from precedent [{n}] without "
                                             "citing it; read them before Apply.")
    if not verified.comments:
        return CheckResult("support", None, "No cited sentence to check.")
    # A sentence copied word for word from the precedent it cites is backed by it, whatever
    # the lexical score says (a carve-out taken verbatim reads as "may say the opposite").
    flagged = [c for c in verified.flagged if not (
        1 <= c.n <= len(precedents) and contains(precedents[c.n - 1].text, MARKER.sub("", c.sentence)))]
    if flagged:
        c = flagged[0]
        why = c.support.reason if c.support is not None and c.support.reason else "it may not say this"
        return CheckResult("support", False, f"“{_short(MARKER.sub('', c.sentence))}” cites [{c.n}], but precedent "
                                             f"[{c.n}] does not back it: {why}.")
    for c in verified.comments:  # what a cited sentence adds that neither the precedent nor the lawyer gave
        if not 1 <= c.n <= len(precedents):
            continue
        sentence = MARKER.sub("", c.sentence)
        unsaid = phrase_cited_unsaid(c.sentence, c.n, precedents[c.n - 1].text, clause + " " + ins.text)
        if unsaid:
            return CheckResult("support", False, f"“{_short(sentence)}” cites [{c.n}] for “{unsaid}”, but precedent "
                                                 f"[{c.n}] does not say it.")
        extra = _beyond_precedent(sentence, precedents[c.n - 1].text, clause, ins, allow)
        if extra:
            return CheckResult("support", False, f"“{_short(sentence)}” cites [{c.n}], but precedent [{c.n}] does not "
                                                 f"give “{extra}”.")
        # What the marker's place claims (an attribution in the prose, a citation on the clause's kept words,
        # a limit of the precedent given up): the score above reads the sentence whole (support_claims.py).
        unbacked = claim_unbacked(c.sentence, c.n, precedents[c.n - 1].text, clause, ins.text)
        if unbacked:
            return CheckResult("support", False, f"“{_short(sentence)}” cites [{c.n}], but {unbacked}.")
        beyond = _exception_unbacked(verified.text, sentence, precedents[c.n - 1].text, clause, ins, allow)
        if beyond:
            return CheckResult("support", False, f"“{_short(sentence)}” cites [{c.n}] for an exception that also "
                                                 f"covers “{_short(beyond)}”, which precedent [{c.n}] does not give.")
    return CheckResult("support", True, "Each cited sentence is backed by its precedent.")


def _exception_unbacked(text: str, sentence: str, precedent: str, clause: str, ins: Instruction,
                        allow: C.Allowances | None) -> str:
    """A limb of the exception a cited sentence adds that neither the precedent it cites, the clause nor the
    ask gives ("..., willful misconduct or breach of confidentiality, each as provided in [1]" where [1] has
    no confidentiality): the score reads the sentence whole, and the precedent's own limbs carry it."""
    from addin_server.draft.carve_limbs import unbacked_limbs
    from addin_server.draft.compare_additions import carve_out_alone
    if allow is None or not carve_out_alone(allow):
        return ""
    draft = MARKER.sub("", text)
    at = draft.find(sentence.strip())
    if at < 0:
        return ""
    end = at + len(sentence.strip())
    limbs = unbacked_limbs(clause, draft, ins.text + " " + precedent)
    return next((limb.text for limb in limbs if at <= limb.start < end), "")


def _beyond_precedent(sentence: str, precedent: str, clause: str, ins: Instruction,
                      allow: C.Allowances | None) -> str:
    """A figure or a word of substance ("certified mail", "death or personal injury") in a cited sentence
    that neither the precedent, the lawyer's clause nor the instruction has."""
    from index_builder.reading import figures as F
    given = F.figures(precedent) + F.figures(clause) + F.figures(ins.text)
    for g in F.figures(sentence):
        if not any(g.kind == f.kind and abs(g.value - f.value) < 1e-9 and (g.unit or "") == (f.unit or "") for f in given):
            return g.text
    known = {C.stem_of(w) for w in re.findall(r"[a-z]{3,}", (precedent + " " + clause + " " + ins.text).lower())}
    limits = _limit_words(sentence, precedent + " " + clause)
    for w in re.findall(r"[a-z]{4,}", sentence.lower()):
        if C.stem_of(w) not in known and w not in limits and any(w.startswith(x) for x in C.SUBSTANCE):
            return w
    return added_elsewhere(sentence, precedent, clause, ins, limits)


def _limit_words(sentence: str, given: str) -> set[str]:
    """The words of a limit the sentence states ("shall not exceed") where the clause or the precedent
    states one too ("is limited to", "the greater of"): one limit said another way, which the meaning
    check reads (polarity.py), not a word of substance the precedent lacks."""
    if not P.limit_phrases.search(given):
        return set()
    return {w.lower() for m in P.limit_phrases.finditer(sentence) for w in re.findall(r"[a-z]+", m.group(0), re.I)}


def added_elsewhere(sentence: str, precedent: str, clause: str, ins: Instruction,
                     limits: set[str] = frozenset()) -> str:
    """A cited sentence that is the lawyer's own sentence with words added: the added words are what
    the citation vouches for, so most of them must be the cited precedent's ("a pre-existing
    relationship" cited to a precedent about general advertisements is not)."""
    from difflib import SequenceMatcher

    from addin_server.draft.support_words import stems
    backed = set(stems(precedent)) | set(stems(ins.text))
    # Figures are judged as figures (above), and "not"/"neither" by the meaning and support scores:
    # the words counted here are the ones of substance ("two million U.S. dollars" is one figure).
    mine, said = [w.lower() for w in re.findall(r"\w+", clause)], re.findall(r"\w+", sentence)
    in_figures = set(re.findall(r"\w+", sentence)) - set(re.findall(r"\w+", without_figures(sentence)))
    blocks = SequenceMatcher(None, mine, [w.lower() for w in said], autojunk=False).get_matching_blocks()
    if not any(b.size >= 10 for b in blocks) or sum(b.size for b in blocks) < 0.6 * len(said):
        return ""  # a sentence of its own, not the clause's sentence with words added: the score judged it
    kept = {j for b in blocks for j in range(b.b, b.b + b.size)}
    own = set(stems(clause))
    added = list(dict.fromkeys(s for j, w in enumerate(said) if j not in kept for s in stems(w) if s not in own))
    judged = {s for j, w in enumerate(said) if w.lower() in _FUNCTION_WORDS or w in in_figures for s in stems(w)}
    # A word the precedent, the clause or the ask has in another form ("expires" for "expiration",
    # "conditioned" for "conditional": the same first five letters) is theirs, and so are a limit's words.
    roots = word_roots(precedent, clause, ins.text)
    in_form = {s for w in said for s in stems(w) if len(w) >= 5 and w[:5].lower() in roots or w.lower() in limits}
    unbacked = [s for s in added if s not in backed and s not in judged and s not in in_form]
    if len(added) >= 3 and len(unbacked) > 0.5 * len(added):
        words = re.findall(r"[\w’'-]+", sentence)
        return next((w for w in words if stems(w) and stems(w)[0] == unbacked[0]), unbacked[0])
    return ""


_FUNCTION_WORDS = frozenset("not no nor neither either each every any all none never".split())


# A run this long that a precedent has and the lawyer's clause lacks is borrowed text, not an edit:
# the drafting operations change two or three words at a time ("Neither party", "fifteen (15)").
_BORROWED_RUN = 6


def _uncited_borrowing(text: str, precedents: tuple[Clause, ...], clause: str,
                       named: set[int] = frozenset()) -> tuple[str, int] | None:
    """The first uncited sentence that inserts a run of a precedent's words absent from the clause.

    Such a sentence reads as the lawyer's own wording to the citation check (most of it is), so
    an instruction planted in a precedent ("..., provided that the Customer waives all claims")
    could ride into the document unmarked; here it fails the support check instead."""
    if not precedents or not clause:
        return None
    own = words(clause)
    own_runs = _runs(own)
    theirs: list[set[tuple[str, ...]]] | None = None  # each precedent's runs, made on first need
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        if MARKER.search(sentence):
            continue  # cited: the support score judges it
        said = words(sentence)
        for tag, _, _, j1, j2 in difflib.SequenceMatcher(None, own, said, autojunk=False).get_opcodes():
            if tag not in ("insert", "replace") or j2 - j1 < _BORROWED_RUN:
                continue
            inserted = _runs(said[j1:j2]) - own_runs
            theirs = theirs if theirs is not None else [_runs(words(p.text)) for p in precedents]
            for n, runs in enumerate(theirs, 1):
                if n not in named and inserted & runs:
                    return sentence, n
    return None


def _runs(tokens: list[str]) -> set[tuple[str, ...]]:
    return {tuple(tokens[i:i + _BORROWED_RUN]) for i in range(len(tokens) - _BORROWED_RUN + 1)}

