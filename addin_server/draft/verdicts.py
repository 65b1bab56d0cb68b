"""The gate on "not done": a part is failed only where the draft itself shows it, on a part the reader read
cleanly. Elsewhere the part is "not checked" and the lawyer reads it, in the lawyer's words.

The kinds' tests (parts_*.py) answer on the reader's part as given. Three things make that answer a guess,
whatever the wording, and each is read here from the structure of the ask and the draft, never its words:

* the part's target is not a clean ask (``garbled``): several sentences run together, a message header or
  time stamp, a table's pipes, a span cut off on "the" or "an", a carve-out "for" a whole
  instruction ("Redraft clause 14 so that ..."). The test then looked for words the lawyer never meant as
  the thing to find;
* a figure part failed where every new figure of its kind in the draft is the value another part asks
  (``rival_figure``): "twelve weeks, not eight ... was out ten weeks" read as both "10 weeks" and "12
  weeks" while the draft says twelve. Which the lawyer meant is then the reader's pick, not the draft's
  fault. A draft that changes no figure of that kind, or writes a value no other part asks, still fails;
* the parts disagree among themselves (``settle``): one target both done and not done.
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import figures as F
from index_builder.reading.sentences import sentence_spans

from addin_server.draft.done import asked_figure, unmatched
from addin_server.draft.instruction import Instruction, Part
from addin_server.draft.parts_carve_out import EXCEPTION_WORDS, added_text
from addin_server.draft.parts_result import PartResult, short

# A time stamp or a message header: the reader took a thread, not one ask ("Message 2 (11:40): ...").
_STAMP = re.compile(r"\b\d{1,2}:\d{2}\b|\bmessage\s+\d+\b", re.I)
# Two sentences run together with the full stop lost: a sentence's opening word after a word of the last one
# ("odd in the middle of a sentence Does it still cover"); sentences with their stops the core splits.
_RUN_ON = re.compile(r"[a-z,]\s+(?:Does|Do|Is|Are|Can|Could|Will|Would|Should|Please|It|We|They|You|I)\s")
# A span cut off where a phrase cannot end ("Only the Competitors II point gets an").
_CUT = re.compile(r"\b(?:a|an|the|of|to|for|and|or|with|by|on|in|that|so|than|as)\W*$", re.I)
# A carve-out's target is what is carved out, a noun phrase; one that opens with a verb of drafting or
# "to" is the ask itself read as the target ("Redraft clause 14 so that ...", "to cover answering ...").
_ASK_OPENER = re.compile(r"^\W*(?:to|redraft|draft|make|change|add|carve|delete|remove|take|put|keep|leave|use|"
                         r"please|can|could|would|will)\b", re.I)
# A target longer than this is several asks, or an ask with its reasons, not a span to look for.
_MOST_WORDS = 20


def _target(part: Part) -> str:
    """The words the kind's test looks for in the draft."""
    if part.kind == "carve_out":
        return str(part.params.get("phrase") or "")
    if part.kind == "delete":
        return str(part.params.get("what") or "")
    if part.kind == "other":
        return part.text
    return ""


def garbled(part: Part) -> str:
    """Why the part's target is not a clean ask, in a lawyer's words; "" where it is."""
    target = _target(part)
    if not target:
        return ""
    if "|" in target:
        return "it reads as a row of a table"
    if _STAMP.search(target):
        return "it runs several messages together"
    if "?" in target or _RUN_ON.search(target) or len(sentence_spans(target)) > 1:
        return "it runs several sentences together"
    if part.kind != "other" and len(target.split()) > _MOST_WORDS:
        # (An unread part is the lawyer's whole sentence, long by nature; only a span to find is held short.)
        return "it is a passage, not one ask"
    if _CUT.search(target):
        return "its words stop mid-phrase"
    if part.kind == "carve_out" and _ASK_OPENER.search(target):
        return "it reads as the whole ask, not what to carve out"
    return ""


_same = F.same


def rival_figure(part: Part, ins: Instruction, clause: str, draft: str) -> F.Figure | None:
    """The draft's new figure where it is the value another part asks for in the very place this part was read
    to hold: the other part names the figure it replaces ("twelve weeks, not eight") and this one names none
    ("was out ten weeks"), or this one says that figure stays ("the 30 days is fine") while the other's value
    took its place ("make both sixty days"). The reader then read two values for one place, and which the
    lawyer meant is its pick, not the draft's fault. Two asks for two places ("45 days overdue and 10 days'
    notice") are no rivals: a draft doing one still fails the other."""
    if part.kind not in ("period", "amount"):
        return None
    kinds = ("period", "amount", "percentage")
    mine = [f for f in F.figures(clause) if f.kind in kinds]
    theirs = [f for f in F.figures(draft) if f.kind in kinds]
    new, gone = unmatched(theirs, mine), unmatched(mine, theirs)
    if not new or any(f.kind != part.kind for f in new + gone):
        return None
    own_old, kept, own = part.params.get("old"), part.params.get("kept"), asked_figure(part)
    if own is None:
        return None
    for other in ins.parts:
        asked = asked_figure(other) if other is not part and other.kind == part.kind else None
        if asked is None or not all(_same(f, asked) for f in new) or (asked.unit or "") != (own.unit or ""):
            continue  # (a period in days beside one in months asks for two places: "30 days' notice", "3 months")
        old = other.params.get("old")
        named = old is not None and own_old is None and any(abs(g.value - float(old)) < 1e-9 for g in gone)
        stays = kept and any(abs(g.value - float(part.params.get("value") or -1)) < 1e-9 for g in gone)
        if named or stays:
            return new[0]
    return None


def gate(found: PartResult, ins: Instruction, clause: str, draft: str) -> PartResult:
    """A failed part kept failed only where the part was read cleanly and the draft shows the failure."""
    if not found.failed:
        return found
    part = found.part
    why = garbled(part)
    if why and not _shown(part, clause, draft):
        return PartResult(part, "unchecked", f"Not checked: “{short(part.text)}” could not be read as one ask "
                                             f"({why}); read the draft against it.")
    figure = rival_figure(part, ins, clause, draft)
    if figure is not None:
        return PartResult(part, "unchecked", f"Not checked: your instruction was read as asking both "
                                             f"{part.label()} and “{figure.text}”, which the draft writes; which "
                                             "you meant is for you to read.")
    thinned = kept_but_fewer(part, ins, draft)
    if thinned:
        return PartResult(part, "unchecked", thinned)
    return found


# Kinds of part that drop or reword words of the clause: what they take may carry a kept figure or kept
# words along ("the second just repeats the first, so drop it ... Three years stays").
REWORDING = ("delete", "shorten", "plain", "conform")


def kept_but_fewer(part: Part, ins: Instruction, draft: str) -> str:
    """A figure the part keeps, still in the draft but fewer times than in the clause, beside a part that drops
    or rewords words: which of its places went with them is for the lawyer to read ("" where not so)."""
    if part.kind not in ("period", "amount") or not part.params.get("kept"):
        return ""
    if not any(p.kind in REWORDING for p in ins.parts if p is not part):
        return ""
    asked = asked_figure(part)
    if asked is None or not any(_same(f, asked) for f in F.figures(draft)):
        return ""
    return (f"Not checked: the draft still says {part.label()}, in fewer places than your clause, and your instruction "
            "also asks for words dropped or reworded; whether the right ones went is for you to read.")


def _shown(part: Part, clause: str, draft: str) -> bool:
    """The draft shows the part not done whatever its target means: the draft is the clause but for a word or
    two, a carve-out was asked and no exception added at all, words a delete quotes are still there, or the
    sentence an unread part points at is left word for word."""
    from addin_server.draft.checks_base import NEARLY_SAME, similarity
    if similarity(clause, draft) >= NEARLY_SAME:
        return True
    if part.kind == "carve_out":
        new_text, context = added_text(clause, draft)
        return not new_text.strip() or not EXCEPTION_WORDS.search(context)
    if part.kind == "delete":
        # The words it quotes to strike, still in the draft as the clause has them.
        quoted = re.findall(r"['‘\"“]([^'’\"”]{3,80})['’\"”]", part.text)
        return any(q.strip() in clause and q.strip() in draft for q in quoted)
    if part.kind == "other" and part.params.get("limb"):
        from addin_server.draft.instruction_scope import pointed_sentence
        pointed = pointed_sentence(part.params["limb"], clause)
        said = " ".join(clause[pointed[0]:pointed[1]].split()) if pointed else ""
        return bool(said) and said in " ".join(draft.split())
    return False


def settle(results: Sequence[PartResult]) -> list[PartResult]:
    """Parts with one label and opposite verdicts ("Done: 18 months. Not done: 18 months") are the reader
    disagreeing with itself: neither is said; both are "not checked"."""
    out = list(results)
    for i, r in enumerate(results):
        twins = [s for s in results if s is not r and s.part.label() == r.part.label()]
        if r.status in ("done", "partly", "not_done", "wrong") and any(s.failed != r.failed and
                                                                        s.status != "unchecked" for s in twins):
            out[i] = PartResult(r.part, "unchecked", f"Not checked: your instruction was read as asking "
                                                     f"“{r.part.label()}” twice, once done and once not; read it.")
    return out
