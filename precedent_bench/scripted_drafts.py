"""A scripted drafting model that follows each task's instruction, or breaks it on purpose.

It plays the drafting assistant, so it may read the set's labels (``expect``) to write its
drafts; the checks it is measured against never see them (they read the request only).
It shows what the redraft checks catch: for every task of the set it writes a draft that
does what was asked ("follow": built from the task's own labels with plain rewrites: the
new period spelled like the old one, the document's terms, both parties bound, the
carve-out sentence taken from the precedent with its [n]), then the same draft with one
planted break per check. A break counts as caught when the check it targets fails on the
broken draft; where the follow draft already fails that check, the break proves nothing
and is counted apart ("not testable"). The drafts are served by the loopback scripted
server (addin_server/llm/scripted.py) to the real Redrafter, so they go the way a model's
answer goes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from addin_server.draft.checks import ARCHAIC
from addin_server.draft.periods import periods, same_unit, spell
from index_builder.reading import binding
from index_builder.reading.sentences import sentence_spans
from addin_server.llm.scripted import Reply
from addin_server.llm.untrusted import neutralise


@dataclass(frozen=True)
class Break:
    """One planted fault: the check that must catch it and how to plant it."""

    name: str
    check: str
    plant: Callable[[Any, dict, str], str | None]  # (task, labels, follow draft) -> broken draft, or None
    what: str


def _unchanged(task: Any, expect: dict, _: str) -> str:
    return task.clause


def _instruction_dropped(task: Any, expect: dict, follow: str) -> str | None:
    # The clause with a precedent's sentence added: changed, but not as asked.
    if "max_length_ratio" in expect or not task.precedents:
        return None
    first = _sentences(task.precedents[0].text)[0]
    return f"{task.clause} {first} [1]"


def _too_long(task: Any, expect: dict, follow: str) -> str | None:
    return f"{task.clause} {task.clause}" if "max_length_ratio" in expect else None


def _bad_marker(task: Any, expect: dict, follow: str) -> str:
    return _cite(follow, len(task.precedents) + 1)


def _misquote(task: Any, expect: dict, follow: str) -> str | None:
    if not task.precedents:
        return None
    return f'{follow} The parties further agree that "time is of the essence for every delivery" [1].'


def _unsupported(task: Any, expect: dict, follow: str) -> str | None:
    if not task.precedents:
        return None
    return f"{follow} Each party shall pay liquidated damages of $250,000 for every breach [1]."


def _invented_term(task: Any, expect: dict, follow: str) -> str | None:
    if task.document_terms is None:
        return None
    return f"{follow} Any dispute under this clause shall be referred to the Escrow Arbitrator."


BREAKS = (
    Break("unchanged", "changed", _unchanged, "the clause returned as it was"),
    Break("instruction dropped", "instruction", _instruction_dropped,
          "a precedent sentence added, the instruction not carried out"),
    Break("too long", "length", _too_long, "a 'shorten' draft twice as long"),
    Break("bad marker", "markers", _bad_marker, "a citation [k+1] of a precedent not given"),
    Break("misquote", "quotations", _misquote, "a quotation no precedent contains, cited [1]"),
    Break("unsupported", "support", _unsupported, "an invented obligation cited to [1]"),
    Break("invented term", "defined_terms", _invented_term,
          "a defined term the lawyer's document lacks"),
)


def follow(task: Any, expect: dict) -> str:
    """A draft that does what the task asks, from its labels (see the module doc)."""
    draft = task.clause
    if "terms" in expect:
        for old, new in dict(expect["terms"]).items():
            draft = re.sub(rf"\b{re.escape(old)}\b", new, draft)
    for key, unit in (("period_days", "days"), ("period_weeks", "weeks"),
                      ("period_months", "months"), ("period_years", "years")):
        if key in expect:
            draft = _new_period(draft, int(expect[key]), expect.get("unit", unit) if unit == "days" else unit)
    if "conform_period" in expect:
        n = int(expect["conform_period"])
        theirs = periods(task.precedents[n - 1].text) if 1 <= n <= len(task.precedents) else []
        if theirs:
            draft = _new_period(draft, theirs[0].value, theirs[0].unit)
    if expect.get("holder"):
        draft = _swap(draft, str(expect["holder"]), str(expect.get("other") or ""))
    if expect.get("mutual"):
        draft = _mutual(draft)
    if expect.get("plain"):
        draft = _plain(draft)
    if "max_length_ratio" in expect:
        draft = _shorten(draft, float(expect["max_length_ratio"]))
    if expect.get("carve_out"):
        draft = _add_carve_out(draft, task, str(expect["carve_out"]), int(expect.get("cite") or 1))
    return draft


def _new_period(draft: str, value: int, unit: str) -> str:
    found = [p for p in periods(draft) if same_unit(p.unit, unit) or p.unit.endswith(unit)]
    if not found:
        return f"{draft} This period is {spell(value, unit, None)}."
    for p in sorted(found, key=lambda p: -p.start):
        draft = draft[:p.start] + spell(value, unit, p) + draft[p.end:]
    return draft


def _swap(draft: str, holder: str, other: str) -> str:
    if not other:
        return draft
    marker = "\x00"
    draft = re.sub(rf"\b{re.escape(holder)}\b", marker, draft)
    draft = re.sub(rf"\b{re.escape(other)}\b", holder, draft)
    return draft.replace(marker, other)


def _mutual(draft: str) -> str:
    read = binding.read(draft)
    lone = [p.bound for p in read.one_sided()]
    party = lone[0] if lone else next(iter(read.parties), None)
    if party is None:
        return f"Each party agrees that: {draft}"
    other = next((p for p in read.parties if p != party), None)
    draft = re.sub(rf"\b(?:the )?{re.escape(party)}(?:’s|'s)", "its", draft)
    draft = re.sub(rf"(^|[.;]\s+)(?:The )?{re.escape(party)}\b", r"\1Each party", draft)
    draft = re.sub(rf"\b(?:the )?{re.escape(party)}\b", "each party", draft)
    if other:
        draft = re.sub(rf"\b(?:the )?{re.escape(other)}(?:’s|'s)", "the other party's", draft)
        draft = re.sub(rf"\b(?:the )?{re.escape(other)}\b", "the other party", draft)
    return draft


_PLAIN = {"pursuant to": "under", "notwithstanding": "despite", "forthwith": "at once",
          "aforementioned": "this", "aforesaid": "this", "inter alia": "among other things",
          "whereas": "as", "hereinafter": "", "hereunder": "under this agreement",
          "hereof": "of this agreement", "hereto": "to this agreement", "herein": "in this agreement",
          "thereof": "of it", "therein": "in it", "thereto": "to it", "thereunder": "under it",
          "therewith": "with it", "hereby": "", "witnesseth": ""}


def _plain(draft: str) -> str:
    for word in sorted(ARCHAIC, key=len, reverse=True):
        draft = re.sub(rf"\b{re.escape(word)}\b", _PLAIN.get(word, ""), draft, flags=re.I)
    draft = re.sub(r"\s*;\s*", ". ", re.sub(r"\s{2,}", " ", draft))
    return re.sub(r"(^|\.\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), draft).strip()


def _shorten(draft: str, ratio: float) -> str:
    words = draft.split()
    keep = max(int(len(words) * ratio * 0.9), 1)
    return " ".join(words[:keep]).rstrip(",;:") + "."


def _add_carve_out(draft: str, task: Any, phrase: str, n: int) -> str:
    if not 1 <= n <= len(task.precedents):
        return f"{draft} This does not apply to {phrase}."
    wanted = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", phrase)}
    best = max(_sentences(task.precedents[n - 1].text),
               key=lambda s: len(wanted & {w.lower() for w in re.findall(r"[A-Za-z]{4,}", s)}))
    return f"{draft} {best.rstrip()} [{n}]"


def _sentences(text: str) -> list[str]:
    return [text[a:b].strip() for a, b in sentence_spans(text) if text[a:b].strip()] or [text]


def _cite(draft: str, n: int) -> str:
    first = _sentences(draft)[0]
    at = draft.find(first) + len(first)
    if first.endswith("."):
        at -= 1
    return f"{draft[:at]} [{n}]{draft[at:]}"


class ScriptedDrafter:
    """The responder of a ScriptedLLMServer: answers each task's prompt in the current mode."""

    def __init__(self, tasks: list[tuple[str, str, Any]], labels: dict[str, dict] | None = None) -> None:
        # The prompt carries the clause and instruction defused, as the Redrafter fills them
        # in; one clause can come with two instructions (made mutual, then flipped).
        self.labels = labels or {}
        self._by_text = {(neutralise(t.clause.strip()), neutralise(t.instruction.strip())): (t, self.labels.get(i, {}))
                         for i, _, t in tasks}
        self.mode = "follow"  # or the name of a Break

    def __call__(self, body: dict[str, Any]) -> Reply:
        prompt = str(body.get("messages", [{}])[-1].get("content", ""))
        clause = re.search(r"<selected_text>\n(.*?)\n</selected_text>", prompt, re.S)
        asked = re.search(r"<instructions>\n(.*?)\n</instructions>", prompt, re.S)
        asked_text = asked.group(1).split("\n")[0] if asked else ""
        found = (self._by_text.get((clause.group(1), asked_text)) if clause and asked else None)
        if found is None:
            return Reply(content="(no task matches this prompt)")
        return Reply(content=self.answer_in(self.mode, *found))

    @staticmethod
    def answer_in(mode: str, task: Any, expect: dict) -> str:
        draft = follow(task, expect)
        if mode == "follow":
            return draft
        planted = next(b for b in BREAKS if b.name == mode).plant(task, expect, draft)
        return planted if planted is not None else draft
