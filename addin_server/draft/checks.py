"""Run-time checks on a draft: did it do what was asked, and nothing else, and is what it cites real?

One implementation for the API (every redraft), the pane (through the API) and the workbench
(`precedent-bench drafting`, which builds the request /redraft receives and scores the answers
against its labels outside this code). ``run_checks(task, answer)`` takes what was asked
(``DraftTask``: the lawyer's clause, the instruction, the precedents, the document's parties
and terms — nothing else) and the raw draft, and returns one ``CheckResult`` per check, each
with a reason a lawyer reads; ``passed`` is None where a check does not apply.

* changed: the draft is not the clause again;
* instruction: each part of the instruction, done or not (parts.py), said part by part;
* markers, quotations, support: every citation names a precedent given, every quotation is in
  it, every cited sentence is backed by it (a faithful paraphrase is; a changed meaning is not);
* additions: nothing new — an amount, a period, an obligation, a right, a condition — that the
  clause, the instruction or a cited precedent does not give;
* meaning: nothing the instruction did not touch now means something else;
* defined_terms: no term the lawyer's document does not have;
* length: as long as the instruction allows.
"""

from __future__ import annotations

import difflib
import re
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from index_builder.model import Clause
from index_builder.reading import binding
from index_builder.reading.defined_terms import capitalised_terms, defined_terms, same_term, used_terms
from index_builder.reading.parties import PARTY_NAMES, names_of, role_by_name
from index_builder.reading.sentences import sentence_spans

from addin_server.draft import compare as C
from addin_server.draft.citations import VerifiedRedraft, verify
from addin_server.draft.instruction import Instruction, Part, read_instruction
from addin_server.draft.lengths import length_problem, word_count
from addin_server.draft.parts import ARCHAIC, Context, PartResult, allowances, anchored, check_part, kept_terms
from addin_server.draft.quotes import contains, words

NEARLY_SAME = 0.97  # word-sequence similarity at or above which a draft is "unchanged"
CHECK_NAMES = ("changed", "instruction", "markers", "quotations", "support", "additions", "meaning",
               "defined_terms", "length")
_MARKER = re.compile(r"\s*\[\d+\s*\]")


@dataclass(frozen=True)
class DraftTask:
    """What was asked, as the request gives it: nothing here comes from an evaluation set."""

    clause: str  # the lawyer's clause
    instruction: str = ""
    precedents: tuple[Clause, ...] = ()  # numbered [1]..[k] in this order
    document_terms: tuple[str, ...] | None = None  # the lawyer's document's terms; None = unknown
    document_parties: tuple[str, ...] = ()  # the lawyer's document's party names, as the pane reads them
    # Guidance for the model only (the document's parties and terms, issue 23).
    model_note: str = ""

    def context(self) -> Context:
        return Context(self.document_parties, self.document_terms, tuple(p.text for p in self.precedents))


@dataclass(frozen=True)
class CheckResult:
    name: str
    passed: bool | None  # None = not applicable, or not checked (``abstained``)
    reason: str  # in a lawyer's words
    # The check applies but could not read what it would compare: the lawyer reads it. Never
    # "passed" (that would be a draft shown checked on trust) and never "failed" (a guess).
    abstained: bool = False

    @property
    def status(self) -> str:
        """"passed", "failed", "not_checked" or "not_applicable": what the pane shows."""
        if self.passed is True:
            return "passed"
        if self.passed is False:
            return "failed"
        return "not_checked" if self.abstained else "not_applicable"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "passed": self.passed, "status": self.status, "reason": self.reason}


def not_checked(name: str, reason: str) -> CheckResult:
    return CheckResult(name, None, reason, abstained=True)


@dataclass(frozen=True)
class Checked:
    """Every check's result and each part of the instruction's."""

    checks: list[CheckResult]
    parts: list[PartResult]


def run_checks(task: DraftTask, answer: str, verified: VerifiedRedraft | None = None,
               timings: dict[str, float] | None = None) -> list[CheckResult]:
    """Every check on one draft (see ``check_draft`` for the parts too)."""
    return check_draft(task, answer, verified, timings).checks


def check_draft(task: DraftTask, answer: str, verified: VerifiedRedraft | None = None,
                timings: dict[str, float] | None = None, instruction: Instruction | None = None) -> Checked:
    """Every check on one draft; ``verified`` reuses a citation check already made; ``timings``
    (when given) receives each check's milliseconds."""
    clock = _Clock(timings)
    ins = instruction or read_instruction(task.instruction, task.clause, task.document_parties)
    clock.lap("read_instruction")
    verified = verified or verify(answer, task.precedents, task.clause)
    clock.lap("verify")  # 0 in the API: the redraft's own citation check is reused
    draft = _MARKER.sub("", verified.text).strip()
    ctx = task.context()
    parts = [check_part(p, ins, task.clause, draft, ctx) for p in ins.parts]
    clock.lap("parts")
    comparison = C.compare(task.clause, draft)
    allow = allowances(ins, task.clause, draft, ctx, verified.cited)
    cited = _cited_sentences(verified)
    instruction_result = _instruction(ins, parts)
    # A part the checks could not read may ask for what the draft adds or changes: what the
    # instruction leaves alone is then not known, and a difference is not a fault (unambiguous.py).
    unread = [p.part.label() for p in parts
              if p.status == "unchecked" and _open_ended(p.part, task.clause, task.document_parties)]
    results = [
        clock.time("changed", _changed, task, ins, draft, instruction_result),
        instruction_result,
        clock.time("markers", _markers, verified, answer),
        clock.time("quotations", _quotations, verified),
        clock.time("support", _support, verified, task.precedents, task.clause, ins, allow),
        _unless_unread(clock.time("additions", _additions, comparison, allow, task, cited, ins), unread),
        _unless_unread(clock.time("meaning", _meaning, comparison, allow, task, ins), unread),
        clock.time("defined_terms", _defined_terms, task, ins, draft),
        clock.time("length", _length, ins, task, draft),
    ]
    return Checked(results, parts)


class _Clock:
    def __init__(self, timings: dict[str, float] | None) -> None:
        self.timings = timings
        self.last = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        if self.timings is not None:
            self.timings[name] = (now - self.last) * 1000
        self.last = now

    def time(self, name: str, check: Callable[..., CheckResult], *args: Any) -> CheckResult:
        self.last = time.perf_counter()
        result = check(*args)
        self.lap(name)
        return result


def _open_ended(part: Part, clause: str, parties: tuple[str, ...] = ()) -> bool:
    """A part that, unread, may ask for the change found: one no kind reads that names a party or a value,
    one read more than one way, or a figure whose value was not read. (An unread "mutual" asks for no new
    figure or condition.)"""
    from addin_server.draft.unambiguous import doubt, names_a_value
    if part.kind == "other":
        # An ask no kind reads, that names a party of the clause or a value, may move a right or set a figure.
        return bool(names_a_value(part.text)) or any(binding.uses(part.text, n) for n in binding.party_names(clause, parties))
    return bool(doubt(part, clause, parties)) or part.kind in ("period", "amount")


def _unless_unread(result: CheckResult, unread: list[str]) -> CheckResult:
    """A difference found beside a part of the instruction that could not be read: said, not failed."""
    if result.passed is not False or not unread:
        return result
    return not_checked(result.name, f"Not checked: {result.reason} Your instruction's “{'; '.join(unread)}” could not "
                                    "be read, and it may ask for this; read the draft.")


def failed(results: list[CheckResult]) -> list[CheckResult]:
    return [r for r in results if r.passed is False]


# --- one function per check ---------------------------------------------------------------

def _changed(task: DraftTask, ins: Instruction, draft: str, instruction: CheckResult) -> CheckResult:
    if ins.kind == "none":
        return CheckResult("changed", None, "No instruction was given.")
    same = similarity(task.clause, draft)
    # A small change is what "make it 15 days" asks for: nearly unchanged is a failure only
    # where the instruction's own check does not pass.
    if same == 1 or (same >= NEARLY_SAME and instruction.passed is False):
        return CheckResult("changed", False, "The draft is the same as your clause"
                           + (" word for word" if same == 1 else " but for a word or two")
                           + ": the instruction was not carried out.")
    if same >= NEARLY_SAME and instruction.passed is None:
        # A word or two may be all that was asked: with the instruction not checked, neither is this.
        return not_checked("changed", "Not checked: the draft changes a word or two of your clause, and whether "
                                      "that is all you asked is for you to read.")
    return CheckResult("changed", True, "The draft changes your clause.")


def parts_line(parts: Sequence[PartResult]) -> str:
    """"Done: mutual; six (6) months. Not done: carve-out for general job ads." """
    done = [p.part.label() for p in parts if p.status == "done"]
    not_done = [p.part.label() for p in parts if p.failed]
    unchecked = [p.part.label() for p in parts if p.status == "unchecked"]
    out = []
    if done:
        out.append("Done: " + "; ".join(done) + ".")
    if not_done:
        out.append("Not done: " + "; ".join(not_done) + ".")
    if unchecked:
        out.append("Not checked (read it): " + "; ".join(unchecked) + ".")
    return " ".join(out)


def _instruction(ins: Instruction, parts: Sequence[PartResult]) -> CheckResult:
    if ins.problems:
        return not_checked("instruction", ins.reason)
    if not parts:
        if ins.text:
            return not_checked("instruction", "This instruction cannot be checked automatically; read the draft "
                                              "against it.")
        return CheckResult("instruction", None, "No instruction was given.")
    bad = [p for p in parts if p.failed]
    if bad:
        reasons = " ".join(dict.fromkeys(p.reason for p in bad))
        return CheckResult("instruction", False, (parts_line(parts) + " " + reasons).strip())
    if any(p.status == "unchecked" for p in parts):
        # Some part could not be read on the draft: the draft is not shown as doing what was asked.
        return not_checked("instruction", parts_line(parts))
    return CheckResult("instruction", True, parts_line(parts))


_ODD_MARKER = re.compile(r"\[\s+\d+\s*\]|\[\d+\s+\]|\[\s*\d+\s*[,;-]\s*\d+\s*\]|\(\s*\d+\s*\)(?=\s*[.;]?\s*$)")


def _markers(verified: VerifiedRedraft, answer: str = "") -> CheckResult:
    bad = [p for p in verified.problems if p.get("reason") in ("names no precedent that was given",)
           or "malformed" in p.get("reason", "") or "form no one can check" in p.get("reason", "")]
    if bad or verified.removed_markers:
        marker = bad[0].get("marker") if bad else verified.removed_markers[0]
        return CheckResult("markers", False, f"The draft cited {marker}, which is not one of the precedents given "
                                             "(or is not a citation anyone can check); the citation was removed.")
    odd = [m.group(0) for m in re.finditer(r"\[[^\]\n]{1,12}\]", answer)
           if re.fullmatch(r"\[\s*\d+\s*\]", m.group(0)) and not re.fullmatch(r"\[\d+\]", m.group(0))]
    if odd:
        return CheckResult("markers", False, f"The draft writes a citation as “{odd[0]}”, which is not a citation "
                                             "marker anyone can rely on; it was read as the precedent it names.")
    if not verified.cited:
        return CheckResult("markers", None, "The draft cites no precedent.")
    return CheckResult("markers", True, "Every citation names a precedent that was given.")


def _quotations(verified: VerifiedRedraft) -> CheckResult:
    bad = [p for p in verified.problems if p.get("quote")]
    if bad:
        return CheckResult("quotations", False, f"“{_short(bad[0]['quote'])}” was shown as a quotation but is not in "
                                                "the precedent it cites.")
    return CheckResult("quotations", True if verified.cited else None,
                       "No quotation the precedents do not contain.")


def _support(verified: VerifiedRedraft, precedents: tuple[Clause, ...], clause: str, ins: Instruction,
             allow: C.Allowances | None = None) -> CheckResult:
    borrowed = _uncited_borrowing(verified.text, precedents, clause)
    if borrowed and "carve_out" in ins.kinds and re.search(
            r"\b(?:not|no|nor|except|unless|exclud\w*|does not|nothing)\b", borrowed[0], re.I):
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
        1 <= c.n <= len(precedents) and contains(precedents[c.n - 1].text, _MARKER.sub("", c.sentence)))]
    if flagged:
        c = flagged[0]
        why = c.support.reason if c.support is not None and c.support.reason else "it may not say this"
        return CheckResult("support", False, f"“{_short(_MARKER.sub('', c.sentence))}” cites [{c.n}], but precedent "
                                             f"[{c.n}] does not back it: {why}.")
    for c in verified.comments:  # what a cited sentence adds that neither the precedent nor the lawyer gave
        if not 1 <= c.n <= len(precedents):
            continue
        sentence = _MARKER.sub("", c.sentence)
        extra = _beyond_precedent(sentence, precedents[c.n - 1].text, clause, ins, allow)
        if extra:
            return CheckResult("support", False, f"“{_short(sentence)}” cites [{c.n}], but precedent [{c.n}] does not "
                                                 f"give “{extra}”.")
    return CheckResult("support", True, "Each cited sentence is backed by its precedent.")


def _beyond_precedent(sentence: str, precedent: str, clause: str, ins: Instruction,
                      allow: C.Allowances | None) -> str:
    """A figure or a word of substance ("certified mail", "death or personal injury") in a cited sentence
    that neither the precedent, the lawyer's clause nor the instruction has."""
    from index_builder.reading import figures as F
    given = F.figures(precedent) + F.figures(clause) + F.figures(ins.text)
    for g in F.figures(sentence):
        if not any(g.kind == f.kind and abs(g.value - f.value) < 1e-9 and (g.unit or "") == (f.unit or "") for f in given):
            return g.text
    known = {C._stem(w) for w in re.findall(r"[a-z]{3,}", (precedent + " " + clause + " " + ins.text).lower())}
    for w in re.findall(r"[a-z]{4,}", sentence.lower()):
        if C._stem(w) not in known and any(w.startswith(x) for x in C.SUBSTANCE):
            return w
    return _added_elsewhere(sentence, precedent, clause, ins)


def _added_elsewhere(sentence: str, precedent: str, clause: str, ins: Instruction) -> str:
    """A cited sentence that is the lawyer's own sentence with words added: the added words are what
    the citation vouches for, so most of them must be the cited precedent's ("a pre-existing
    relationship" cited to a precedent about general advertisements is not)."""
    from difflib import SequenceMatcher

    from addin_server.draft.support import stems
    backed = set(stems(precedent)) | set(stems(ins.text))
    # Figures are judged as figures (above), and "not"/"neither" by the meaning and support scores:
    # the words counted here are the ones of substance ("two million U.S. dollars" is one figure).
    mine, said = [w.lower() for w in re.findall(r"\w+", clause)], re.findall(r"\w+", sentence)
    in_figures = set(re.findall(r"\w+", sentence)) - set(re.findall(r"\w+", _without_figures(sentence)))
    blocks = SequenceMatcher(None, mine, [w.lower() for w in said], autojunk=False).get_matching_blocks()
    if not any(b.size >= 10 for b in blocks) or sum(b.size for b in blocks) < 0.6 * len(said):
        return ""  # a sentence of its own, not the clause's sentence with words added: the score judged it
    kept = {j for b in blocks for j in range(b.b, b.b + b.size)}
    own = set(stems(clause))
    added = list(dict.fromkeys(s for j, w in enumerate(said) if j not in kept for s in stems(w) if s not in own))
    judged = {s for j, w in enumerate(said) if w.lower() in _FUNCTION_WORDS or w in in_figures for s in stems(w)}
    unbacked = [s for s in added if s not in backed and s not in judged]
    if len(added) >= 3 and len(unbacked) > 0.5 * len(added):
        words = re.findall(r"[\w’'-]+", sentence)
        return next((w for w in words if stems(w) and stems(w)[0] == unbacked[0]), unbacked[0])
    return ""


_FUNCTION_WORDS = frozenset("not no nor neither either each every any all none never".split())


def _without_figures(text: str) -> str:
    from index_builder.reading import figures as F
    chars = list(text)
    for f in F.figures(text):
        chars[f.start:f.end] = " " * (f.end - f.start)
    return "".join(chars)


# A run this long that a precedent has and the lawyer's clause lacks is borrowed text, not an edit:
# the drafting operations change two or three words at a time ("Neither party", "fifteen (15)").
_BORROWED_RUN = 6


def _uncited_borrowing(text: str, precedents: tuple[Clause, ...], clause: str) -> tuple[str, int] | None:
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
        if _MARKER.search(sentence):
            continue  # cited: the support score judges it
        said = words(sentence)
        for tag, _, _, j1, j2 in difflib.SequenceMatcher(None, own, said, autojunk=False).get_opcodes():
            if tag not in ("insert", "replace") or j2 - j1 < _BORROWED_RUN:
                continue
            inserted = _runs(said[j1:j2]) - own_runs
            theirs = theirs if theirs is not None else [_runs(words(p.text)) for p in precedents]
            for n, runs in enumerate(theirs, 1):
                if inserted & runs:
                    return sentence, n
    return None


def _runs(tokens: list[str]) -> set[tuple[str, ...]]:
    return {tuple(tokens[i:i + _BORROWED_RUN]) for i in range(len(tokens) - _BORROWED_RUN + 1)}


def _cited_sentences(verified: VerifiedRedraft) -> list[str]:
    return [_MARKER.sub("", c.sentence).strip() for c in verified.comments]


def _additions(comparison: C.Comparison, allow: C.Allowances, task: DraftTask, cited: list[str],
               ins: Instruction) -> CheckResult:
    found = C.additions(comparison, allow, task.document_parties, cited)
    if found:
        return CheckResult("additions", False, found[0] + (f" ({len(found) - 1} more.)" if len(found) > 1 else ""))
    return CheckResult("additions", True, "Nothing added that your clause, your instruction or a cited precedent "
                                          "does not give.")


def _meaning(comparison: C.Comparison, allow: C.Allowances, task: DraftTask, ins: Instruction) -> CheckResult:
    if ins.problems:
        return not_checked("meaning", "The instruction could not be read, so what it leaves alone is not known; "
                                      "read the draft.")
    found = C.meaning_changes(comparison, allow, task.document_parties)
    if "mutual" in ins.kinds:
        from addin_server.draft.sides import crossed_roles
        crossed = crossed_roles(task.clause, comparison.draft, binding.read(task.clause, task.document_parties))
        found = ([crossed] if crossed else []) + found
    if found:
        return CheckResult("meaning", False, found[0] + (f" ({len(found) - 1} more.)" if len(found) > 1 else ""))
    beside = _beside_the_values(comparison, ins)
    if beside:
        # A value asked for, and other words changed beside it: no rule found them a fault, and none
        # can show they keep the meaning (a condition moved, a direction swapped): said, not passed.
        return not_checked("meaning", f"Not checked: besides the figure you asked for, the draft changes “{beside}”; "
                                      "read it.")
    if allow.rewrite or comparison.rewritten:
        # A rewording says its "not"s and conditions in other places (compare.py does not count them),
        # so finding no change is not reading none: said, not passed.
        return not_checked("meaning", "Not checked: the draft rewords your clause, and a rewording cannot be held "
                                      "against it sentence by sentence; read it for a changed meaning.")
    return CheckResult("meaning", True, "What your instruction does not touch still means what it meant.")


def _beside_the_values(comparison: C.Comparison, ins: Instruction) -> str:
    """Where every part asks for a value (a period, an amount), the first edit that changes words other
    than figures and their units ("" where the draft changes nothing but the values)."""
    if not ins.parts or any(p.kind not in ("period", "amount") for p in ins.parts):
        return ""
    from index_builder.reading import figures as F

    def masked(text: str) -> list[str]:
        # Each figure one token, so that "twelve (12) months" -> "eighteen (18) months" is one value changed.
        for f in sorted(F.figures(text), key=lambda f: -f.start):
            text = text[:f.start] + " figurex " + text[f.end:]
        return [w for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in C._STOP and w not in _UNIT_WORDS]

    old, new = masked(comparison.clause), masked(comparison.draft)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "equal" and sorted(w for w in old[i1:i2] if w != "figurex") != sorted(
                w for w in new[j1:j2] if w != "figurex"):
            return _short(" ".join(new[j1:j2]) or " ".join(old[i1:i2]), 70)
    return ""


_UNIT_WORDS = frozenset("day days business calendar week weeks month months year years hour hours dollars dollar usd "
                        "eur euros pounds percent per cent cents".split())


def _defined_terms(task: DraftTask, ins: Instruction, draft: str) -> CheckResult:
    document = set(task.document_terms or ()) | set(task.document_parties)
    conform = "conform" in ins.kinds
    clause_terms = _terms_in(task.clause, task)
    if conform and document:
        kept = kept_terms(task.clause, draft, document, task.instruction)
        if kept:
            return CheckResult("defined_terms", False, f"The draft keeps “{kept[0]}” from your clause, which your "
                                                       "document does not define.")
    known = set(document) if conform and document else set(document) | set(clause_terms)
    named = list(task.document_parties) or list(binding.party_names(task.clause))
    if not conform and len(named) == 1 and role_by_name(named[0]):
        # One party is known ("Employee"): its counterpart in the one role table is the other ("Employer").
        known |= set(names_of(role_by_name(named[0]).counterpart))
    known |= {w for w in re.findall(r"[A-Z][\w&.-]+(?:\s+[A-Z][\w&.-]+)*", task.instruction)}
    lacking = [t for t in _terms_in(draft, task, task.clause) if not any(same_term(t, k) or t.lower() == k.lower() for k in known)
               and not _part_of_known(t, known) and not anchored(t, draft, document)
               and not (not conform and _lawyers_own(t, task.clause, draft, known))]
    if task.document_terms is None and not task.document_parties:
        # The document is not known: only a precedent's own terms and parties are sure to be foreign.
        foreign = _precedent_terms(task)
        lacking = [t for t in lacking if t in foreign]
        if not lacking:
            return not_checked("defined_terms", "Your document's defined terms are not known.")
    if lacking:
        return CheckResult("defined_terms", False, f"The draft uses “{lacking[0]}”, which your document does not "
                                                   "define.")
    return CheckResult("defined_terms", True, "The draft uses only terms your document has.")


def _lawyers_own(term: str, clause: str, draft: str, known: set[str]) -> bool:
    """A capitalised phrase that is not a new term: written so in the lawyer's own clause ("after
    Termination", "(Representations & Warranties)"), or a known name after the sentence's first word,
    whose capital is the sentence's ("Once Employee's internship")."""
    if re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", clause):
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


def _part_of_known(term: str, known: set[str]) -> bool:
    """Known as written, as the end of a known term read without its first word ("Public Holdings" of
    "Passive Public Holdings"), or as the other party's counterpart ("Partner Covered Claims" where the
    document has "Company Covered Claims")."""
    low = term.lower()
    # "Affiliate of Green Cross", "Confidential Information of the Company": known words joined by "of".
    pieces = re.split(r"\s+of\s+(?:the\s+|any\s+|each\s+)?", term)
    if len(pieces) > 1 and all(any(same_term(p, k) or p.lower() == k.lower() for k in known) for p in pieces):
        return True
    if any(low in k.lower().split(" and ") or low == k.lower().rstrip("s") or k.lower().endswith(" " + low)
           for k in known):
        return True
    head, _, rest = term.partition(" ")
    return head in PARTY_NAMES and bool(rest) and any(
        k.partition(" ")[0] in PARTY_NAMES and same_term(k.partition(" ")[2], rest) for k in known)


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


def _length(ins: Instruction, task: DraftTask, draft: str) -> CheckResult:
    if not ins.length:
        return CheckResult("length", None, "No length was asked for.")
    problem = length_problem(ins.length, task.clause, draft)
    if problem:
        return CheckResult("length", False, problem)
    mine, theirs = word_count(task.clause), word_count(draft)
    return CheckResult("length", True, f"The draft is {theirs / max(mine, 1):.0%} of your clause's length.")


# --- helpers ------------------------------------------------------------------------------

def similarity(a: str, b: str) -> float:
    wa, wb = words(a), words(b)
    if wa == wb:
        return 1.0
    return difflib.SequenceMatcher(None, wa, wb, autojunk=False).ratio()


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"


__all__ = ["ARCHAIC", "CHECK_NAMES", "CheckResult", "Checked", "DraftTask", "check_draft", "failed", "not_checked",
           "parts_line", "run_checks", "similarity"]
