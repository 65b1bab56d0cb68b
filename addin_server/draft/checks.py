"""Run-time checks on a draft: did it do what was asked, and is what it cites real?

One implementation for the API (every redraft), the pane (through the API) and the
prompt engineers' workbench (`precedent-bench redraft`). ``run_checks(task, answer)`` takes
what was asked (``DraftTask``) and the raw draft (a model answer with [n] markers, or an
operation's output) and returns one ``CheckResult`` per check, each with a reason a lawyer
reads. ``passed`` is None where a check does not apply. Expectations come from
``task.expect`` (the evaluation set's labels) and, where it is silent, from the
instruction itself (``instruction.read_instruction``, the reading the router uses too).
"""

from __future__ import annotations

import difflib
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from index_builder.reading.defined_terms import defined_terms
from index_builder.model import Clause

from addin_server.draft import parties as P
from addin_server.draft.citations import VerifiedRedraft, verify
from addin_server.draft.instruction import Intent, read_instruction
from addin_server.draft.periods import amounts, periods, same_unit, spell
from addin_server.draft.quotes import contains, words
from index_builder.reading.sentences import sentence_spans

NEARLY_SAME = 0.97  # word-sequence similarity at or above which a draft is "unchanged"
CHECK_NAMES = ("changed", "instruction", "markers", "quotations", "support", "defined_terms",
               "length")
ARCHAIC = ("hereby", "herein", "hereof", "hereto", "hereunder", "hereinafter", "thereof",
           "therein", "thereto", "thereunder", "therewith", "whereas", "witnesseth",
           "aforementioned", "aforesaid", "pursuant to", "notwithstanding", "forthwith",
           "inter alia", "be, and it hereby is", "resolved further")
_MARKER = re.compile(r"\s*\[\d+\]")
_CAPS_RUN = re.compile(r"\b[A-Z][a-z]+(?:[- ][A-Z][a-z]+){0,4}\b")
_COMMON_CAPS = frozenset("I A The This That These Those Section Sections Schedule Exhibit "
                         "Annex Appendix Article Clause However If Each Either Neither Upon "
                         "Unless Any All No Not In On For To Of And Or Under With Without "
                         "Within During After Before Except Subject Notwithstanding United "
                         "States Department Commerce Treasury Office".split())


@dataclass(frozen=True)
class DraftTask:
    """Everything a check needs about what was asked."""

    clause: str  # the lawyer's clause
    instruction: str = ""
    precedents: tuple[Clause, ...] = ()  # numbered [1]..[k] in this order
    document_terms: tuple[str, ...] | None = None  # the lawyer's document's terms; None = unknown
    expect: Mapping[str, Any] = field(default_factory=dict)  # task-specific expectations
    # Guidance for the model only (the document's parties and terms, issue 23): operations
    # and checks read the lawyer's instruction alone.
    model_note: str = ""


@dataclass(frozen=True)
class CheckResult:
    name: str
    passed: bool | None  # None = not applicable to this task
    reason: str  # in a lawyer's words

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "passed": self.passed, "reason": self.reason}


def run_checks(task: DraftTask, answer: str, verified: VerifiedRedraft | None = None,
               timings: dict[str, float] | None = None) -> list[CheckResult]:
    """Every check on one draft; ``verified`` reuses a citation check already made;
    ``timings`` (when given) receives each check's milliseconds."""
    clock = _Clock(timings)
    intent = read_instruction(task.instruction, task.clause)
    expect = {**intent.expect(), **task.expect}
    clock.lap("read_instruction")
    verified = verified or verify(answer, task.precedents, task.clause)
    clock.lap("verify")  # 0 in the API: the redraft's own citation check is reused
    draft = _MARKER.sub("", verified.text).strip()
    instruction = clock.time("instruction", _instruction, task, intent, expect, draft, answer)
    return [
        clock.time("changed", _changed, task, intent, draft, instruction),
        instruction,
        clock.time("markers", _markers, verified),
        clock.time("quotations", _quotations, verified),
        clock.time("support", _support, verified, task.precedents, task.clause),
        clock.time("defined_terms", _defined_terms, task, expect, draft),
        clock.time("length", _length, task, expect, draft),
    ]


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


def failed(results: list[CheckResult]) -> list[CheckResult]:
    return [r for r in results if r.passed is False]


# --- one function per check ---------------------------------------------------------------

def _changed(task: DraftTask, intent: Intent, draft: str, instruction: CheckResult
             ) -> CheckResult:
    if intent.kind == "none":
        return CheckResult("changed", None, "No instruction was given.")
    same = similarity(task.clause, draft)
    # A small change is what "make it 15 days" asks for: nearly unchanged is a failure only
    # where the instruction's own check does not pass.
    if same == 1 or (same >= NEARLY_SAME and instruction.passed is not True):
        return CheckResult("changed", False, "The draft is the same as your clause"
                           + (" word for word" if same == 1 else " but for a word or two")
                           + ": the instruction was not carried out.")
    return CheckResult("changed", True, "The draft changes your clause.")


def _instruction(task: DraftTask, intent: Intent, expect: Mapping[str, Any], draft: str,
                 answer: str) -> CheckResult:
    if intent.problems and not task.expect:
        return CheckResult("instruction", None, intent.reason)
    reasons: list[str] = []
    checked = False
    for key, check in _EXPECTATIONS.items():
        if key in expect:
            checked = True
            reasons += check(task, expect, draft, answer)
    if not checked:
        return CheckResult("instruction", None, "This instruction cannot be checked "
                           "automatically; read the draft against it.")
    if reasons:
        return CheckResult("instruction", False, " ".join(dict.fromkeys(reasons)))
    return CheckResult("instruction", True, "The draft does what the instruction asks, as far "
                       "as it can be checked.")


def _expect_mutual(task: DraftTask, expect: Mapping[str, Any], draft: str, _: str) -> list[str]:
    if not expect.get("mutual"):
        return []
    bound = P.bound_parties(draft)
    named = [p for p in P.parties(task.clause) if p in P.parties(draft)]
    one_sided = [p for p in bound if not any(q != p and bound[q] for q in bound)]
    if one_sided:
        return [f"The draft still binds only the {one_sided[0]}."]
    if not P.MUTUAL_RE.search(draft) and len(bound) < 2:
        return ["The draft does not say that both parties are bound."]
    favoured = [p for p in named if p not in bound and not _possessive_only(draft, p)]
    if favoured and not bound:
        return [f"The draft still protects only the {favoured[0]}."]
    return []


def _possessive_only(text: str, party: str) -> bool:
    return not re.search(rf"\b{re.escape(party)}\b(?!’s|'s)", text)


def _expect_holder(task: DraftTask, expect: Mapping[str, Any], draft: str, _: str) -> list[str]:
    holder, other = expect.get("holder"), expect.get("other")
    if not holder:
        return []
    bound = P.bound_parties(draft)
    if bound.get(holder, 0) == 0:
        return [f"The draft does not give this to the {holder}."]
    if other and bound.get(other, 0) >= bound[holder]:
        return [f"The draft still gives this to the {other}."]
    return []


def _expect_period(task: DraftTask, expect: Mapping[str, Any], draft: str, _: str) -> list[str]:
    reasons = []
    for key, unit in (("period_days", "days"), ("period_weeks", "weeks"),
                      ("period_months", "months"), ("period_years", "years")):
        if key not in expect:
            continue
        value = int(expect[key])
        unit = expect.get("unit", unit) if unit == "days" else unit
        reasons += _period_present(task.clause, draft, value, unit)
    return reasons


def _expect_conform_period(task: DraftTask, expect: Mapping[str, Any], draft: str,
                           _: str) -> list[str]:
    n = int(expect["conform_period"])
    if not 1 <= n <= len(task.precedents):
        return [f"Precedent [{n}] was not given, so the period cannot be compared."]
    mine = periods(task.clause)
    theirs = [p for p in periods(task.precedents[n - 1].text)
              if not mine or same_unit(p.unit, mine[0].unit)]
    if not theirs:
        return [f"Precedent [{n}] names no period to conform to."]
    return _period_present(task.clause, draft, theirs[0].value, theirs[0].unit)


def _period_present(clause: str, draft: str, value: int, unit: str) -> list[str]:
    found = periods(draft)
    wanted = spell(value, unit, None).split(" (")[0] + f" ({value})"
    inconsistent = [p for p in found if not p.consistent]
    if inconsistent:
        return [f"The draft says “{inconsistent[0].text}”: the words and the figure differ."]
    if not any(p.value == value and _unit_matches(p.unit, unit) for p in found):
        return [f"The draft does not give {wanted} {unit} anywhere."]
    old = [p for p in periods(clause) if _unit_matches(p.unit, unit) and p.value != value]
    left = [p for p in found if any(o.value == p.value and o.unit == p.unit for o in old)]
    if len(old) == 1 and left:
        return [f"The draft still says {left[0].text}."]
    return []


def _unit_matches(found: str, wanted: str) -> bool:
    if wanted in {"business days", "calendar days"}:
        return found == wanted
    return same_unit(found, wanted) or (wanted == "days" and found.endswith("days"))


def _expect_amount(task: DraftTask, expect: Mapping[str, Any], draft: str, _: str) -> list[str]:
    value = int(expect["amount"])
    found = amounts(draft)
    if not any(a.value == value for a in found):
        return [f"The draft does not state the amount of {value:,}."]
    old = [a for a in amounts(task.clause) if a.value != value]
    if len(old) == 1 and any(a.value == old[0].value for a in found):
        return [f"The draft still says {old[0].text}."]
    return []


def _expect_carve_out(task: DraftTask, expect: Mapping[str, Any], draft: str,
                      answer: str) -> list[str]:
    phrase = str(expect.get("carve_out") or "")
    reasons = []
    if phrase and not _has_phrase(draft, phrase):
        reasons.append(f"The draft does not contain the carve-out (“{phrase}”).")
    cite = expect.get("cite")
    if cite and f"[{cite}]" not in answer:
        reasons.append(f"The carve-out is not cited to precedent [{cite}], where it comes from.")
    return reasons


def _expect_terms(task: DraftTask, expect: Mapping[str, Any], draft: str, _: str) -> list[str]:
    reasons = []
    for old, new in dict(expect["terms"]).items():
        if re.search(rf"\b{re.escape(old)}\b", draft):
            reasons.append(f"The draft still says “{old}”; your document calls it “{new}”.")
        elif not re.search(rf"\b{re.escape(new)}\b", draft):
            reasons.append(f"The draft does not use your document's term “{new}”.")
    return reasons


def _expect_plain(task: DraftTask, expect: Mapping[str, Any], draft: str, _: str) -> list[str]:
    if not expect.get("plain"):
        return []
    left = [w for w in ARCHAIC if re.search(rf"\b{re.escape(w)}\b", draft, re.I)]
    if left:
        return [f"The draft still uses legalese (“{left[0]}”)."]
    if _mean_sentence_words(draft) > max(_mean_sentence_words(task.clause), 25):
        return ["The draft's sentences are longer than your clause's."]
    return []


def _expect_length(task: DraftTask, expect: Mapping[str, Any], draft: str, _: str) -> list[str]:
    return []  # the "length" check reports it; listed so that an expectation counts as checked


_EXPECTATIONS: dict[str, Callable[[DraftTask, Mapping[str, Any], str, str], list[str]]] = {
    "mutual": _expect_mutual, "holder": _expect_holder, "period_days": _expect_period,
    "period_weeks": _expect_period, "period_months": _expect_period,
    "period_years": _expect_period, "conform_period": _expect_conform_period,
    "amount": _expect_amount, "carve_out": _expect_carve_out, "cite": _expect_carve_out,
    "terms": _expect_terms, "plain": _expect_plain, "max_length_ratio": _expect_length,
}


def _markers(verified: VerifiedRedraft) -> CheckResult:
    bad = [p for p in verified.problems if p.get("reason") == "names no precedent that was given"]
    if bad:
        return CheckResult("markers", False, f"The draft cited {bad[0]['marker']}, which is not "
                           "one of the precedents given; the citation was removed.")
    if not verified.cited:
        return CheckResult("markers", None, "The draft cites no precedent.")
    return CheckResult("markers", True, "Every citation names a precedent that was given.")


def _quotations(verified: VerifiedRedraft) -> CheckResult:
    bad = [p for p in verified.problems if p.get("quote")]
    if bad:
        return CheckResult("quotations", False, f"“{_short(bad[0]['quote'])}” was shown as a "
                           "quotation but is not in the precedent it cites.")
    return CheckResult("quotations", True if verified.cited else None,
                       "No quotation the precedents do not contain.")


def _support(verified: VerifiedRedraft, precedents: tuple[Clause, ...], clause: str) -> CheckResult:
    borrowed = _uncited_borrowing(verified.text, precedents, clause)
    if borrowed:
        sentence, n = borrowed
        return CheckResult("support", False, f"“{_short(sentence)}” adds words taken from precedent "
                           f"[{n}] without citing it; read them before Apply.")
    if not verified.comments:
        return CheckResult("support", None, "No cited sentence to check.")
    # A sentence copied word for word from the precedent it cites is backed by it, whatever
    # the lexical score says (a carve-out taken verbatim reads as "may say the opposite").
    flagged = [c for c in verified.flagged if not (
        1 <= c.n <= len(precedents) and contains(precedents[c.n - 1].text, _MARKER.sub("", c.sentence)))]
    if flagged:
        c = flagged[0]
        return CheckResult("support", False, f"“{_short(_MARKER.sub('', c.sentence))}” cites "
                           f"[{c.n}], but precedent [{c.n}] may not say this.")
    return CheckResult("support", True, "Each cited sentence is backed by its precedent.")


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


def _defined_terms(task: DraftTask, expect: Mapping[str, Any], draft: str) -> CheckResult:
    if task.document_terms is None:
        return CheckResult("defined_terms", None, "Your document's defined terms are not known.")
    known = set(task.document_terms)
    defined = {t for p in task.precedents for t in defined_terms(p.text)} | known
    own = set(_terms_in(task.clause, defined))
    lacking = []
    for term in _terms_in(draft, defined):
        if term in known or term.rstrip("s") in known or term + "s" in known:
            continue
        if _same_term_other_party(term, known | own):
            continue  # "Partner Covered Claims" where the clause had "Company Covered Claims"
        is_role = term in P.ROLES
        if is_role or term not in own:
            lacking.append(term)
    if lacking:
        return CheckResult("defined_terms", False, f"The draft uses “{lacking[0]}”, which your "
                           "document does not define.")
    return CheckResult("defined_terms", True, "The draft uses only terms your document has.")


def _same_term_other_party(term: str, known: set[str]) -> bool:
    head, _, rest = term.partition(" ")
    if head not in P.ROLES or not rest:
        return False
    stem = rest.rstrip("s")
    return any(k.partition(" ")[0] in P.ROLES and k.partition(" ")[2].rstrip("s") == stem
               for k in known)


def _terms_in(text: str, defined: set[str] = frozenset()) -> list[str]:
    """Defined-term candidates: runs of two or more capitalised words ("Covered Employee"),
    party roles, and single words the precedents define; a proper name ("Alabama") is none."""
    found: dict[str, None] = {}
    for m in _CAPS_RUN.finditer(text):
        run = [w for w in m.group(0).split()]
        while run and run[0] in _COMMON_CAPS:
            run = run[1:]
        term = " ".join(run)
        if len(run) >= 2 or term in defined:
            found.setdefault(term, None)
    for role in P.parties(text):
        found.setdefault(role, None)
    return list(found)


def _length(task: DraftTask, expect: Mapping[str, Any], draft: str) -> CheckResult:
    ratio = expect.get("max_length_ratio")
    if ratio is None:
        return CheckResult("length", None, "No length was asked for.")
    mine, theirs = len(words(task.clause)), len(words(draft))
    share = theirs / max(mine, 1)
    if share > float(ratio):
        return CheckResult("length", False, f"The draft is {share:.0%} of your clause's length; "
                           f"you asked for it to be shorter (at most {float(ratio):.0%}).")
    return CheckResult("length", True, f"The draft is {share:.0%} of your clause's length.")


# --- helpers ----------------------------------------------------------------------------

def similarity(a: str, b: str) -> float:
    wa, wb = words(a), words(b)
    if wa == wb:
        return 1.0
    return difflib.SequenceMatcher(None, wa, wb, autojunk=False).ratio()


def _has_phrase(draft: str, phrase: str) -> bool:
    """Most of the phrase's content words, in any form ("reference" ~ "references")."""
    wanted = [w for w in words(phrase) if len(w) > 3 or w.isdigit()]
    if not wanted:
        return True
    have = words(draft)
    hits = sum(1 for w in wanted if any(h.startswith(w[:max(len(w) - 2, 4)]) for h in have))
    return hits / len(wanted) >= 0.75


def _mean_sentence_words(text: str) -> float:
    sentences = [s for s in re.split(r"(?<=[.;!?])\s+", text) if s.strip()]
    return len(words(text)) / max(len(sentences), 1)


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"
