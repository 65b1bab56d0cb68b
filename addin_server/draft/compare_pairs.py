"""The meaning check's reading of a reworded clause part by part (issue 38): each part of the clause (a
sentence, or a limb of one split at ";" and list marks) paired with the part of the draft that says it, and
inside each pair only what the core reads compared (reading/logic.py's turns).

compare_reword.py reads the clause and the draft as wholes, so it cannot tell a limit said again in another
sentence from one dropped. A faithful rewording keeps each part's subject matter, so its words pair clause
part and draft part even where the wording changed; where the best pair is not clearly better than the
next, the part is not read (a merged or split sentence), never held to be the same.

Read inside a pair:
- a "not" the clause part says, where the draft part says what it was said on (two thirds of its content
  words) and no denial of any kind ("not", an exception, a limit, "without", "excludes", a comparison...):
  what the clause denies, the draft affirms ("Customer is not responsible for its Affiliates' agreement" said
  "Customer remains responsible for that Affiliate's agreement"); and the same the other way round, a "not"
  the draft part adds to a statement the clause part makes with no denial;
- a limit ("only", "solely", "exclusively") the clause part says and the draft part says no limit of any
  kind for ("only", an exception, a "not", a cap), nor "exclusive"/"sole": what the clause confined, the draft
  leaves open (a "may only process on instructions" said "may process on instructions").
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import logic as L
from index_builder.reading import polarity as P
from index_builder.reading.sentences import part_spans

from addin_server.draft.compare_base import (POINTERS, Allowances, content_stems, hung_on, short, stem_of, stem_set,
                                             words_gone)
from addin_server.draft.compare_logic import asked_spans, asks_drop, inside

# How much of the two parts' content words the best pair must share, and by how much it must beat the
# next best (either way: the clause part's best draft part, and that draft part's best clause part).
_PAIRED = 0.45
_CLEAR = 0.15
# A draft part that keeps a limit however worded: any of these kinds of turn, or a word of exclusivity.
_LIMITS = frozenset({"only", "unless", "not", "limit"})
_SOLE = re.compile(rf"\b(?:{P.ONLY_WORDING}|exclusive|sole|alone|nobody\s+else|no\s+one\s+else|no\s+other)\b", re.I)


_CONDITION_AFTER = re.compile(r"\s+(?:if|where|when|to\s+the\s+extent|so\s+long|in\s+the\s+event)\b", re.I)
# What a lawyer writes of a thing that must stay ("HOC's exclusive right ... all stay", "to keep:", "must survive").
_KEEP = re.compile(r"\b(?:stays?|stay(?:ing)?|keep(?:s|ing)?|kept|remains?|surviv\w*|unchanged|untouched|intact|"
                   r"as\s+(?:it\s+)?is|not\s+(?:moving|changing|to\s+change))\b", re.I)


def _kept_by(asked: str, word: str) -> bool:
    """Whether the instruction leaves the limit alone: it never speaks of it, or only in a sentence that says
    what stays. Any other sentence that names it ("make it non-exclusive", "drop 'only'") may ask for the
    change, and excuses it."""
    stem = "exclusiv" if word.startswith("exclusiv") else "sole" if word.startswith("sole") else word
    for sentence in re.split(r"(?<=[.!?;])\s+|\n", asked):
        if re.search(rf"\b{stem}", sentence) and not _KEEP.search(sentence):
            return False
    return True


def _parts(text: str) -> list[str]:
    return [text[a:b] for a, b in part_spans(text)]


def _share(a: set[str], b: set[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


def pairs(clause: str, draft: str) -> list[tuple[str, str]]:
    """Each clause part with the draft part that says it, where one clearly does (content-word overlap,
    best over the next by a clear margin both ways); parts with no clear partner are left out."""
    mine, theirs = _parts(clause), _parts(draft)
    a, b = [content_stems(p) for p in mine], [content_stems(p) for p in theirs]
    grid = [[_share(x, y) for y in b] for x in a]
    out = []
    for i, row in enumerate(grid):
        if not row:
            break
        j = max(range(len(row)), key=row.__getitem__)
        col = [grid[k][j] for k in range(len(grid))]
        second = max([v for n, v in enumerate(row) if n != j] + [v for n, v in enumerate(col) if n != i] + [0.0])
        if row[j] >= _PAIRED and row[j] - second >= _CLEAR:
            out.append((mine[i], theirs[j]))
    return out


def paired_changes(clause: str, draft: str, allow: Allowances, asked: str, names: Sequence[str] = ()) -> list[str]:
    """What a rewording turned inside a clause part and the draft part that says it, in a lawyer's words."""
    if allow.parties or allow.mirror:
        # (A flip or a mutual ask moves whole provisions and their limits: compare_logic.py reads it.)
        return []
    own = {stem_of(w) for n in names for w in re.findall(r"[A-Za-z]+", n)}
    spared = allow.delete + asked_spans(clause, asked)
    for mine, theirs in pairs(clause, draft):
        at = clause.find(mine)
        if inside(at, at + len(mine), spared):
            continue
        found = _not_turned(mine, theirs, asked, own) or _limit_dropped(mine, theirs, asked)
        if not found and not asks_drop(asked):
            # (Where the ask asks for something to go, a condition may be it.)
            found = _condition_dropped(mine, theirs, draft, asked, own)
        if found:
            return [found]
    return []


def _limit_dropped(mine: str, theirs: str, asked: str) -> str:
    # ("only if" is a condition, said again as often by a relative clause, "who are bound by", as by a limit.)
    limits = [t for t in L.turns(mine) if t.kind == "only" and not _CONDITION_AFTER.match(mine, t.end)]
    if not limits or _SOLE.search(theirs) or any(t.kind in _LIMITS for t in L.turns(theirs)):
        return ""
    word = limits[0].text.lower()
    if not _kept_by(asked, word):
        return ""
    return (f"The draft says “{short(theirs, 70)}” without the “{word}” of your clause’s “{short(mine, 70)}”, which "
            "your instruction does not ask for: what your clause confined, the draft leaves open.")


_CONDITIONS = frozenset({"if", "unless", "subject", "while"})
_COMPARED = re.compile(rf"\b(?:{L.GREATER_WORDING}|{L.LESSER_WORDING}|exceed\w*|equals?|below|above)\b", re.I)
_BOUNDS = frozenset({"only", "limit", "floor"})
# "if" after a verb of knowing is "whether" ("for the purpose of determining if the increase is justified"):
# what is asked, not a condition on the provision.
_WHETHER = re.compile(r"\b(?:determin\w*|ascertain\w*|verify\w*|check\w*|decid\w*|know\w*|see|ask\w*|assess\w*|"
                      r"establish\w*|confirm\w*|evaluat\w*|consider\w*)\s*$", re.I)


def _condition_dropped(mine: str, theirs: str, draft: str, asked: str, own: set[str]) -> str:
    """A condition the clause part hangs on content words of its own (party names and pointers at the agreement
    aside, two at least), where the draft part says no condition at all and the whole draft says two thirds of
    those words nowhere: what held only on a condition now holds always."""
    # (A condition on a figure is as often said as a limit or a floor: "provided that it equals or exceeds
    # $50,000" is "at least $50,000"; any of those kinds in the draft part is read as the condition kept.)
    if any(t.kind in _CONDITIONS | _BOUNDS for t in L.turns(theirs)):
        return ""
    have = stem_set(draft)
    for t in L.turns(mine):
        if t.kind not in _CONDITIONS or t.text.lower().startswith("without") or _WHETHER.search(mine[:t.start]):
            continue
        if not words_gone(mine, t, own, have):
            continue
        said = short(f"{t.text} {L.said_on(mine, t)}".strip(), 70)
        if _COMPARED.search(said) and _COMPARED.search(theirs):
            # (A condition on a figure said as a bound the core does not read: "which cannot be less than".)
            continue
        return (f"The draft says “{short(theirs, 70)}” without “{said}”, which your instruction does not ask for: "
                "what your clause says holds only on that condition, the draft says holds always.")
    return ""


# A draft part that may carry a clause's "not" however worded: any of these kinds of turn ("regardless": "either
# done so or chosen not to" = "whether or not").
_DENIALS = frozenset({"not", "unless", "only", "limit", "floor", "regardless"})
# What the words a "not" is said on must keep in the draft part for the statement to be the same one.
_SAID_AGAIN = 2 / 3


def _denies(theirs: str) -> bool:
    """Whether a draft part says a denial in any way the core reads: a turn of its kinds, a word of exclusivity,
    a "not" said by a word's prefix or by another word, a verb that forbids, or a comparison (a "does not reach
    the Quota" said "less than the Quota")."""
    return (any(t.kind in _DENIALS for t in L.turns(theirs)) or bool(_SOLE.search(theirs))
            or bool(P.DENIED_OTHERWISE.search(theirs)) or bool(P.negative_prefixed.search(theirs))
            or bool(P.NEGATIVE_VERBS.search(theirs)) or bool(_COMPARED.search(theirs)))


_NEGATED = re.compile(rf"\b(?:{P.NOT_WORDING})\b", re.I)


def _asks_for(asked: str, hangs: set[str]) -> bool:
    """Whether a limb of the instruction speaks of what the "not" was said on (two of its words) and says no "not"
    of it: it may ask for the statement as the draft makes it ("JRVS gives a 12-month defects warranty - so 10.1
    can't keep saying it gives none")."""
    for limb in re.split(r"[.!?;:]\s+|\s[-–—]\s|\n", asked):
        if len(content_stems(limb) & hangs) >= 2 and not _NEGATED.search(limb):
            return True
    return False


def _lifted_kept(mine: str, u: L.Turn, have: set[str], own: set[str]) -> bool:
    """Whether a condition or exception after a "not" (what lifts it: "may not assign without consent", "except
    as agreed") is said in the draft part by half its words: "a party needs the other's consent to assign" says
    the same denial as a condition, with no "not"."""
    if u.kind not in ("unless", "if", "only", "subject"):
        return False
    hangs = {w for w in hung_on(mine, u, own) if w not in POINTERS}
    return bool(hangs) and len(hangs & have) >= 0.5 * len(hangs)


def _not_turned(mine: str, theirs: str, asked: str, own: set[str]) -> str:
    """A "not" gone from the draft part that says the clause part's statement again, or gained by it: what the
    clause denied, the draft affirms, or the other way round."""
    dropped = _not_gone(mine, theirs, asked, own)
    if dropped:
        return (f"The draft says “{short(theirs, 70)}” without the “{dropped[0]}” of your clause’s “{dropped[1]}”, "
                "which your instruction does not ask for: what your clause denies, the draft affirms.")
    gained = _not_gone(theirs, mine, asked, own)
    if gained:
        return (f"The draft adds a “{gained[0]}” (“{gained[1]}”) to your clause’s “{short(mine, 60)}”, which your "
                "instruction does not ask for: what your clause affirms, the draft denies.")
    return ""


def _not_gone(mine: str, theirs: str, asked: str, own: set[str]) -> tuple[str, str] | None:
    """A "not" of ``mine`` gone from ``theirs``, which says again what it was said on, as (the "not", what it is
    said with). Not read where the "not" is one of two (a "nothing ... prevents" is a "may"), where it is said on a
    verb of changing ("does not alter" = "stays"), where it denies nothing ("for any or no reason"), or where it is
    lifted by a condition the other part says in its own way ("may not assign without consent" = "needs consent
    to assign")."""
    if _denies(theirs):
        return None
    turns, have = L.turns(mine), stem_set(theirs)
    spared = [m.span() for m in P.NO_NEGATION.finditer(mine)]
    for t in turns:
        if t.kind != "not" or any(a <= t.start < b for a, b in spared):
            continue
        said, before = L.said_on(mine, t), re.split(r"[,;:(]", mine[:t.start])[-1]
        if P.UNCHANGED_AFTER_NOT.match(said) or P.NEGATIVE_VERBS.search(said) or _NEGATED.search(said) or \
                _NEGATED.search(before) or P.DENIED_OTHERWISE.search(before):
            # (Two denials in one limb make an assertion: "without any consent that has not been obtained".)
            continue
        # (An exception lifts the "not" wherever it stands, "Without consent, neither party shall assign"; a
        # condition only after it: "If an Affiliate signs, Customer is not responsible" is still a denial.)
        if any(_lifted_kept(mine, u, have, own) for u in turns if u.kind in ("unless", "only") or u.start > t.start):
            continue
        hangs = {w for w in hung_on(mine, t, own) if w not in POINTERS}
        if len(hangs) < 2 or len(hangs & have) < _SAID_AGAIN * len(hangs) or _asks_for(asked, hangs):
            continue
        return t.text.lower(), short(t.text + " " + said, 60)
    return None
