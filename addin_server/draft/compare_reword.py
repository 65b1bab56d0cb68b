"""The meaning check's reading of a reworded clause (issue 38): what a faithful rewording keeps whatever its
words, read on the clause and on the draft by the core (reading/logic.py), with no word-by-word alignment.

A rewording (plain English, a shortening, a conform, or an unread part that may ask for any words) moves a
clause's conditions and exceptions about and says them in other words, so compare_logic.py, which aligns
clause and draft word by word, reads nothing there and the check said "not checked". Some things a faithful
rewording keeps however it is worded, and each is read here on the two texts as wholes:

- an exception or condition (its turn, "except for", "other than", "subject to", "provided that") whose own
  words are gone from the draft while the draft says fewer of its kind: what it excepted is now caught;
- an exception turned into an inclusion ("except for conflict of laws provisions" -> "including its
  conflict of laws provisions"): what the clause left out is now taken in;
- a comparison turned to its other side before what it measures ("a lesser scale" -> "a larger scale");
- a grant's quality said with "non-" turned ("non-exclusive" -> "exclusive").

Where none of these reads a change, compare_pairs.py reads the clause part by part (a limit or a condition
dropped inside the pair of a clause part and the draft part that says it).

Each is excused where the instruction asks for something to go, quotes the words, or uses the new side's
word; an unread part that asked for it would use its words.
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import binding
from index_builder.reading import logic as L
from index_builder.reading import polarity as P

from addin_server.draft.compare_base import Allowances, hung_on, short, stem_of, stem_set, words_gone
from addin_server.draft.compare_logic import asked_spans, asks_drop, inside
from addin_server.draft.compare_pairs import paired_changes


def reworded_changes(clause: str, draft: str, allow: Allowances, instruction: str,
                     parties: Sequence[str] = ()) -> list[str]:
    """What a rewording turned or dropped that the instruction does not ask for, in a lawyer's words."""
    asked = " ".join(instruction.lower().replace("’", "'").split())
    names = binding.party_names(clause + "\n" + draft, parties)
    own = {stem_of(w) for n in names for w in re.findall(r"[A-Za-z]+", n)}
    out = _comparisons_turned(clause, draft, asked)
    out += _quality_turned(clause, draft, asked)
    out += _exceptions_included(clause, draft, own, asked)
    if not out:
        out += _conditions_dropped(clause, draft, allow, own, asked)
    if not out:
        # Part by part (compare_pairs.py): a limit or a condition the draft part that says a clause part drops.
        out += paired_changes(clause, draft, allow, asked, names)
    return out


def _conditions_dropped(clause: str, draft: str, allow: Allowances, own: set[str], asked: str) -> list[str]:
    if asks_drop(asked) or allow.parties or allow.mirror:
        # (A flip or a mutual ask moves whole provisions, and an exception with them: compare_logic.py reads it.)
        return []
    was, now = L.counts(L.turns(clause)), L.counts(L.turns(draft))
    have = stem_set(draft)
    quoted = asked_spans(clause, asked)
    if now.get("condition", 0) >= was.get("condition", 0):
        return []
    for t in L.turns(clause):
        # An exception only: a condition ("if", "subject to") is as often said again as a "where" or a "once",
        # and an assent ("without consent") as an "approval"; neither is read here.
        if t.kind != "unless" or t.text.lower().startswith("without"):
            continue
        if not words_gone(clause, t, own, have):
            continue
        said = f"{t.text} {L.said_on(clause, t)}".strip()
        if inside(t.start, t.end + len(L.said_on(clause, t)) + 1, allow.delete + quoted):
            continue
        return [f"The draft drops “{short(said, 70)}” from your clause, which your instruction does not ask for: "
                "what your clause excepts is now caught by it."]
    return []




def _exceptions_included(clause: str, draft: str, own: set[str], asked: str) -> list[str]:
    """"except for X" -> "including X": an exception (not an assent, "without consent") whose words the draft
    says after an inclusion and after no exception."""
    excepts = [t for t in L.turns(clause) if t.kind == "unless" and not t.text.lower().startswith("without")]
    if not excepts:
        return []
    theirs = L.turns(draft)
    for t in excepts:
        hangs = set(hung_on(clause, t, own))
        if len(hangs) < 2:
            continue
        for u in (x for x in theirs if x.kind == "include"):
            now = set(hung_on(draft, u, own))
            if len(hangs & now) < 0.6 * len(hangs):
                continue
            still = any(len(hangs & set(hung_on(draft, x, own))) >= 0.5 * len(hangs) for x in theirs if x.kind == "unless")
            mine = any(len(hangs & set(hung_on(clause, x, own))) >= 0.5 * len(hangs)
                       for x in L.turns(clause) if x.kind == "include")
            if not still and not mine and u.text.lower() not in asked:
                return [f"The draft turns “{short(t.text + ' ' + L.said_on(clause, t), 60)}” into "
                        f"“{short(u.text + ' ' + L.said_on(draft, u), 60)}”, which your instruction does not ask for: "
                        "what your clause leaves out, the draft takes in."]
    return []


def _comparisons_turned(clause: str, draft: str, asked: str) -> list[str]:
    """A comparison turned to its other side before the same word, the clause's side said nowhere in the
    draft before it, and the new side's word not in the instruction."""
    mine, theirs = L.comparisons(clause), L.comparisons(draft)
    for side, word, what in mine:
        if any(s == side and w == what for s, _, w in theirs):
            continue
        turned = next(((s, x) for s, x, w in theirs if w == what and s != side), None)
        if turned is None or any(s == turned[0] and w == what for s, _, w in mine):
            continue
        if re.search(rf"\b{re.escape(turned[1].lower())}\b", asked):
            continue
        return [f"The draft says “{turned[1]} {what}” where your clause says “{word} {what}”, which your instruction "
                "does not ask for: the comparison is turned round."]
    return []


def _quality_turned(clause: str, draft: str, asked: str) -> list[str]:
    """A grant's quality turned ("non-exclusive" -> "exclusive", polarity.non_turned), excused where the
    instruction speaks of that quality at all ("make it exclusive", "keep it non-exclusive")."""
    turned = P.non_turned(clause, draft)
    if turned is None or re.search(rf"\b{re.escape(turned[0].removeprefix('non-'))}", asked):
        return []
    return [f"The draft says “{turned[1]}” where your clause says “{turned[0]}”, which your instruction does not ask "
            "for: what is granted is turned round."]
