"""Where an instruction part no kind reads ("other") points: the sentences whose words it shares.

An unread part may ask for any change, but a lawyer who asks for one names what it is about
("the audit sentence should allow one visit a year"): its words point at the sentence it changes.
So it excuses changes only there. Elsewhere the meaning and additions checks run as if the part
were not there; the whole clause is excused only where the part asks for a whole-clause change
("rewrite", "plain English", "shorten", "restructure") or where its words point nowhere, or everywhere.
"""

from __future__ import annotations

import difflib
import re
from typing import Sequence

from index_builder.reading import logic as L
from index_builder.reading.sentences import sentence_spans

from addin_server.draft.compare_base import STOP, stem_of
from addin_server.draft.instruction import Part

# Words that ask for a change of the whole clause, not of one sentence of it.
WHOLE = re.compile(r"\b(?:re-?writ\w*|re-?draft\w*|re-?word\w*|restructur\w*|reorganis\w*|reorganiz\w*|"
                    r"simplif\w*|plain|shorten\w*|short(?:er)?|tight\w*|tidy|clean\w*|whole|entire|throughout|"
                    r"overall|all of it|modern\w*|streamlin\w*|concise\w*|consolidat\w*|merge|combine|split|"
                    r"reorder|re-?order|style|tone|format\w*|clause|provision|paragraph|"
                    # Moving the clause into another document renames and rewords it throughout (a conform).
                    r"conform\w*|consistent|align\w*|(?:mov|put|port|bring|tak|drop|fold|transplant)\w*\s+"
                    r"(?:this|it)\s+(?:in)?to)\b", re.I)
# The ask's own verbs and fillers: they say what to do, not where.
_ASK = frozenset(stem_of(w) for w in """make add change amend update insert include remove delete replace
keep also please should would could need needs want just like instead rather ensure sure clear clarify
reflect state says said read reads more less only sentence wording words language""".split())


def _pointers(text: str) -> set[str]:
    return {stem_of(w) for w in re.findall(r"[a-z]{4,}", text.lower())
            if w not in STOP and stem_of(w) not in _ASK}


def scope(part: Part, clause: str) -> list[tuple[int, int]] | None:
    """The clause's sentence spans an unread part points at, or None where it is about the whole clause."""
    if WHOLE.search(part.text):
        return None
    spans = [(a, b) for a, b in sentence_spans(clause) if clause[a:b].strip()]
    if len(spans) < 2:
        return None
    asked = _pointers(part.text)
    hit = [(a, b) for a, b in spans if asked & {stem_of(w) for w in re.findall(r"[a-z]{4,}", clause[a:b].lower())}]
    if not hit or len(hit) == len(spans):
        return None
    return hit


def excused_clause(clause: str, draft: str, scopes: Sequence[tuple[int, int]]) -> str:
    """The clause with each sentence an unread part points at replaced by the draft's sentence that
    stands for it: what the part may have asked is then no difference, and the rest is compared as
    if the part were not there. A pointed sentence the draft has no counterpart for is left out."""
    words = lambda s: re.findall(r"[a-z0-9]+", s.lower())  # noqa: E731
    mine = [draft[a:b].strip() for a, b in sentence_spans(draft) if draft[a:b].strip()]
    out, last = [], 0
    for a, b in sorted(set(scopes)):
        old = words(clause[a:b])
        best = max(mine, key=lambda s: difflib.SequenceMatcher(None, old, words(s), autojunk=False).ratio(),
                   default="")
        ratio = difflib.SequenceMatcher(None, old, words(best), autojunk=False).ratio() if best else 0.0
        out.append(clause[last:a])
        out.append(best if ratio >= 0.3 else "")
        last = b
    out.append(clause[last:])
    return "".join(out)


def renamed_clause(parts: Sequence[Part], clause: str, draft: str) -> str | None:
    """The clause with the names unread parts swap ("Minnesota becomes Georgia", "JHU = Company") swapped,
    or None where they swap none. A swap of names changes those words and nothing else, so the clause so
    renamed is what the draft's meaning is held to. Only swaps the draft shows (the new name is in it) are
    made: a part with a misread new name is left out rather than compared half renamed. All are made at once (JHU -> Company and
    Company -> Partner never chain)."""
    from addin_server.draft.instruction_named import count, swaps
    pairs: dict[str, str] = {}
    for part in parts:
        found = swaps(part.text, clause) if part.kind == "other" else []
        # (A part with a swap the draft does not show was misread, or asks what the draft did not do: none
        # of its swaps is made, so that the rest is not compared half renamed.)
        if found and all(count(draft, new) for _, new in found):
            pairs.update(found)
    if not pairs:
        return None
    names = sorted(pairs, key=len, reverse=True)
    pattern = "|".join(r"\s+".join(re.escape(w) for w in old.split()) for old in names)
    lookup = {" ".join(old.split()).lower(): new for old, new in pairs.items()}
    return re.sub(rf"(?<![\w-])(?:{pattern})(?![\w-])",
                  lambda m: lookup[" ".join(m.group(0).split()).lower()], clause, flags=re.I)


def could_turn(parts: Sequence[Part], was: str, now: str) -> bool:
    """Whether unread parts could have asked for a promise said ``was`` to be said ``now`` ("will not enter
    into" -> "may, after notice, enter into"). A lawyer who turns a promise round names what it becomes: a
    permission with a word of permission ("may", "can", "is free to"), a ban with a "not", a duty with a
    "shall"; the words are the core's (logic.turns). Where the promise gains no kind of word (a "not" lost),
    the words of what it loses are looked for instead. An ask without them (a rewrite, a figure, a
    carve-out of named matter) cannot have asked for the turn."""
    kinds = lambda text: {t.kind for t in L.turns(text)}  # noqa: E731
    new = kinds(now) - kinds(was) or kinds(was) - kinds(now)
    if not new:
        return True  # no word of the turn to look for: the unread part may have asked it
    return any(new & kinds(p.text) for p in parts)


def names_none(parts: Sequence[Part], provision: str, names: Sequence[str] = ()) -> bool:
    """Whether no part uses a word of a provision (its words less the parties' names and a last word cut
    short): such an ask cannot have asked for it."""
    words = provision.rstrip("…").split()
    if provision.endswith("…") and words:
        words = words[:-1]
    own = {stem_of(w) for n in names for w in re.findall(r"[a-z]{4,}", n.lower())}
    said = _pointers(" ".join(words)) - own
    return bool(said) and not any(said & _pointers(p.text) for p in parts)
