"""Guards on an operation's edits, read before its draft is shown as done.

An operation works on the clause's own words, so it can be wrong in ways no later check reads as
"not done": a possessive left where a verb follows ("the other party's declines"), more words
deleted than the lawyer named ("lose 'shall'" taking the whole sentence), a figure changed that the
lawyer said to leave ("leave the others at five"), a currency marker lost ("US$" -> "$"). Each
guard here reads only the instruction's words, the text before and the edits, never a task's
label; where one finds a fault the operation is not offered (``Declined``): the part goes to the
drafting assistant, or is said plainly as not done.
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import figures as F
from index_builder.reading.binding import GIVING_TO, possessive_has_noun

from addin_server.draft.edits import Declined, Edit
from addin_server.draft.instruction_values import figure_of
from addin_server.draft.instruction_words import KEEP_VERBS, STAY_STATES, STAY_VERBS
from addin_server.draft.quotes import short as short_at_a_word

_POSSESSIVE_END = re.compile(r"['’]s?$")
_QUOTED = re.compile(r"[‘'\"“]([^‘’'\"“”]{1,60})[’'\"”]")
# The words a lawyer uses to keep a part as it is.
_LEAVE = KEEP_VERBS
_LEAVE_AT = re.compile(rf"\b{_LEAVE}\s+(?P<what>[^.;:]{{0,80}}?)\s+(?:at|as|to)\s+(?P<figure>[^.;:,]{{1,40}})", re.I)
# The part named, then "leave it": "The defective-product limb is Seller's by nature; leave it."
_LEAVE_IT = re.compile(r"\b(?:the\s+)?(?P<what>[\w'’-]+(?:\s+[\w'’-]+){0,2}?)\s+(?:limb|sentence|proviso|wording|cap|right|"
                       r"exception|carve-out|bit)\b[^.;]{0,60}?[;,.:-]\s*(?:so\s+|just\s+|please\s+)?(?:leave|keep)\s+"
                       r"(?:it|that|this|them)\b(?!\s+(?:to|for|with|at|as\s+(?!it\b)))", re.I)
# The part named before the verb: "Per-occurrence stays at $1m", "the audit remains at 2 business days".
_STAYS_AT = re.compile(r"(?P<what>[\w'’-]+(?:\s+[\w'’-]+){0,3}?)\s+" + STAY_VERBS + r"\s+(?:at|as)\s+"
                       r"(?P<figure>[^.;:,]{1,40})", re.I)
_LEAVE_ALONE = re.compile(rf"\b{_LEAVE}\s+(?P<what>[^.;:]{{2,80}}?)\s+{STAY_STATES}\b", re.I)
# A keep of the remainder ("otherwise", "everything else", "the rest"): of what the asks do not change.
_REST = re.compile(r"\b(?:otherwise|else|the\s+rest|remainder|remaining)\b", re.I)
_STOP = frozenset("the a an of to for and or its their our your his her it this that these those other others "
                  "right rights clause part limb provision sentence words wording as is at in on".split())
_MODALS = frozenset("shall will must may should would can could".split())
_CURRENCY = re.compile(r"(?:US\$|U\.S\.\s?\$|USD|A\$|AU\$|C\$|CA\$|NZ\$|HK\$|S\$|EUR|GBP|CHF|JPY|RUB|€|£|¥|\$)")


def check_edits(instruction: str, part_text: str, kind: str, before: str, edits: Sequence[Edit]) -> None:
    """Raise ``Declined`` where an edit reads wrong on its own words; return where none does."""
    after_text = _apply(before, edits)
    _possessives(before, edits, after_text)
    _currency(edits)
    _left_as_it_is(instruction, kind, before, edits)
    _kept_said(instruction, before, after_text)
    if kind == "delete":
        _deletion_scope(part_text, before, edits)


def _apply(text: str, edits: Sequence[Edit]) -> str:
    out, at = [], 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        out += [text[at:e.start], e.new]
        at = e.end
    return "".join(out) + text[at:]


def _possessives(before: str, edits: Sequence[Edit], after_text: str) -> None:
    """A party name made possessive ("Vapotherm declines" -> "the other party's declines") must be
    followed by the noun it owns; a possessive before a verb, a modal or a full stop is broken."""
    shift = 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        old = before[e.start:e.end]
        at = e.start + shift + len(e.new)
        shift += len(e.new) - (e.end - e.start)
        if not e.new or not _POSSESSIVE_END.search(e.new.rstrip()) or _POSSESSIVE_END.search(old.rstrip()):
            continue
        if re.search(r"\b(?:s|S)$", e.new) and not re.search(r"['’]s$", e.new):
            continue
        if GIVING_TO.search(before[max(0, e.start - 30):e.start]):
            raise Declined(f"Renaming “{old}” would write “… {e.new} …” where {old} is who receives (“"
                           f"{_short(before[max(0, e.start - 30):e.end + 20])}”); the drafting assistant can word it.")
        if not possessive_has_noun(after_text, at):
            following = " ".join(after_text[at:at + 30].split()[:2])
            raise Declined(f"Renaming “{old}” would leave a possessive with no noun after it (“{e.new} "
                           f"{following}…”); the sentence needs rewording, which the drafting assistant can do.")


def _currency(edits: Sequence[Edit]) -> None:
    """A changed amount keeps its currency marker: "US$2,000,000" is never silently "$5,000,000"."""
    for e in edits:
        old = _CURRENCY.findall(e.old)
        if not old:
            continue
        new = _CURRENCY.findall(e.new)
        lost = [m for m in dict.fromkeys(old) if m not in new]
        if lost and e.new:
            raise Declined(f"The change would drop the currency marker “{lost[0]}” from “{e.old}”; the drafting "
                           "assistant can word it, or edit the figure by hand.")


def protected(instruction: str) -> tuple[list[tuple[F.Figure, list[str]]], list[list[str]]]:
    """What the lawyer said to leave: figures with the words naming whose they are ("leave the other
    physicians at five"), and parts named in words ("leave LBIO's use right as it is"), as lower-case
    stems."""
    figures: list[tuple[F.Figure, list[str]]] = []
    words: list[list[str]] = []
    for m in list(_LEAVE_AT.finditer(instruction)) + list(_STAYS_AT.finditer(instruction)):
        said = m.group("figure")
        found = F.figures(said) or F.figures(said + " days")
        if found:
            figures.append((found[0], _stems(m.group("what"))))
        elif not _REST.search(m.group("what")):
            # "IMPCO's rights otherwise stay as broad as they are": what the asks leave, never one part.
            words.append(_stems(m.group("what")))
    for m in list(_LEAVE_ALONE.finditer(instruction)) + list(_LEAVE_IT.finditer(instruction)):
        stems = _stems(m.group("what"))
        if stems and not _REST.search(m.group("what")):
            words.append(stems)
    return figures, [w for w in words if w]


def _stems(text: str) -> list[str]:
    text = re.sub(r"['’]s\b", "", text)
    return [w.lower()[:5] for w in re.findall(r"[A-Za-z]{2,}", text) if w.lower() not in _STOP]


def _same(f: F.Figure, keep: F.Figure) -> bool:
    return abs(f.value - keep.value) < 1e-9 and (not keep.unit or not f.unit or keep.unit == f.unit
                                                 or keep.unit == "day")


def _kept_figure(before: str, keep: F.Figure, whose: list[str]) -> F.Figure | None:
    """Which of the clause's figures the lawyer said to leave: the only one of that value, or, where
    several have it, the one nearest the words naming whose it is; None where that cannot be told."""
    same = [f for f in F.figures(before) if _same(f, keep)]
    if len(same) <= 1:
        return same[0] if same else None
    named = [m.start() for m in re.finditer(r"[A-Za-z]{2,}", before) if m.group(0).lower()[:5] in set(whose)]
    if not named:
        return None
    far = sorted((min(abs(f.start - at) for at in named), i) for i, f in enumerate(same))
    return same[far[0][1]] if far[0][0] < far[1][0] else None


def kept_figures(instruction: str, before: str) -> list[F.Figure]:
    """The clause's figures the instruction says to leave, where it can be told which."""
    out = []
    for keep, whose in protected(instruction)[0]:
        kept = _kept_figure(before, keep, whose)
        if kept is not None:
            out.append(kept)
    return out


def _left_as_it_is(instruction: str, kind: str, before: str, edits: Sequence[Edit]) -> None:
    """No edit touches what the lawyer said to leave: the figure named, or the words of a part named
    ("LBIO's use right")."""
    figures, parts = protected(instruction)
    for e in edits:
        for f in F.figures(before[max(0, e.start - 2):e.end + 2]) if figures else ():
            for keep, whose in figures:
                if not _same(f, keep):
                    continue
                kept = _kept_figure(before, keep, whose)
                if kept is None or kept.start <= e.start + f.start - max(0, e.start - 2) < kept.end or \
                        e.start <= kept.start < e.end:
                    raise Declined(f"The change would alter “{f.text}”, which the instruction says to leave (or it "
                                   "cannot be told which one it says to leave); which figure to change is for the "
                                   "drafting assistant, or say it again naming the one to change.")
        if not parts or _is_the_asked_figure(kind, before, e):
            continue  # the place the asked change sits is never "to leave", however wide the keep's words
        from index_builder.reading.sentences import part_spans
        for a, b in part_spans(before):
            if not (a <= e.start < b):
                continue
            have = {w.lower()[:5] for w in re.findall(r"[A-Za-z]{2,}", re.sub(r"['’]s\b", "", before[a:b]))}
            for stems in parts:
                if all(s in have for s in stems):
                    raise Declined(f"The change would touch “{_short(before[a:b])}”, which the instruction says to "
                                   "leave as it is; the drafting assistant can do the rest around it.")


def _is_the_asked_figure(kind: str, before: str, e: Edit) -> bool:
    """A period or amount operation's edit that replaces one figure of the clause and nothing more: the
    asked change's own place (a figure said to leave is read by the figure branch, never here)."""
    if kind not in ("period", "amount"):
        return False
    old = before[e.start:e.end].strip()
    found = F.figures(old)
    return len(found) == 1 and len(old) - len(found[0].text) <= 4


def _kept_said(instruction: str, before: str, after_text: str) -> None:
    """No edit drops what the instruction keeps ("April 30, 2029 is not moving", "Not touching 130,300",
    "Every ORS reference has to survive"): read by parts_keep.py, the reader the meaning check uses."""
    from addin_server.draft.parts_keep import dropped
    lost, _ = dropped(instruction, before, after_text, rewrite=False, names=False)
    if lost:
        raise Declined(f"The change would drop or alter “{lost[0]}”, which the instruction keeps; the drafting "
                       "assistant can word it.")


def _deletion_scope(part_text: str, before: str, edits: Sequence[Edit]) -> None:
    """An instruction that quotes the words to remove ("lose 'shall'") removes those words only, and a
    word that carries the grammar (a modal) cannot go without rewording."""
    quoted = [q.strip() for q in _QUOTED.findall(part_text) if q.strip()]
    if not quoted:
        return
    for e in edits:
        gone = re.sub(r"[\s,;.]+", " ", before[e.start:e.end]).strip().lower()
        named = [q.lower() for q in quoted]
        if not any(gone == q or gone in (f"and {q}", f"{q} and", f"or {q}", f"{q} or") for q in named):
            raise Declined(f"The instruction names “{quoted[0]}” to remove, and the operation would remove "
                           f"“{_short(before[e.start:e.end])}”; the drafting assistant can word it.")
        if any(q in _MODALS for q in named):
            raise Declined(f"Removing “{quoted[0]}” on its own leaves the sentence without its verb; it needs "
                           "rewording, which the drafting assistant can do.")


def _short(text: str, limit: int = 60) -> str:  # this stage quotes 60 characters
    return short_at_a_word(text, limit)


# --- the same faults read on any draft (the model's too), for the part checks ----------------------

def changed_what_to_leave(instruction: str, clause: str, draft: str) -> str:
    """A figure the instruction says to leave that the draft no longer has ("" where none): gone
    altogether, or, where the clause had several of that value, not the one nearest whose it is."""
    for keep, whose in protected(instruction)[0]:
        kept = _kept_figure(clause, keep, whose)
        if kept is None:
            continue
        had = [f for f in F.figures(clause) if _same(f, kept)]
        have = [f for f in F.figures(draft) if _same(f, kept)]
        if len(have) >= len(had):
            continue
        if have and len(had) > 1:
            unit = [f for f in F.figures(draft) if f.kind == kept.kind and (not kept.unit or f.unit == kept.unit)]
            named = [m.start() for m in re.finditer(r"[A-Za-z]{2,}", draft) if m.group(0).lower()[:5] in set(whose)]
            if named and unit:
                nearest = min(unit, key=lambda f: min(abs(f.start - at) for at in named))
                if _same(nearest, kept):
                    continue
        return f"The draft changes “{kept.text}”, which the instruction says to leave."
    return ""


def dangling_possessive(clause: str, draft: str) -> str:
    """A possessive the draft writes with no noun after it ("the other party's declines to accept")
    that the clause did not have ("" where none)."""
    for m in re.finditer(r"\b([A-Za-z][\w-]*)['’]s\b", draft):
        following = " ".join(draft[m.end():m.end() + 30].split()[:1])
        owner = re.search(r"(?:\bthe\s+)?(?:other\s+|each\s+|either\s+)?[\w-]+$", draft[:m.start() + len(m.group(1))])
        # "provides the other party's written notice" where the clause gave notice to a party by name
        # ("provides Vapotherm written notice"): the party receives, it owns nothing.
        given = owner is not None and following and GIVING_TO.search(draft[max(0, owner.start() - 30):owner.start()]) \
            and re.search(rf"\b[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*)?\s+{re.escape(following)}\b", clause)
        if possessive_has_noun(draft, m.end()) and not given:
            continue
        if re.search(rf"{re.escape(m.group(0))}\s+{re.escape(following)}", clause):
            continue  # the lawyer's own wording
        if re.search(rf"['’]s{re.escape(draft[m.end():m.end() + 12])}", clause):
            continue  # the clause's own possessive, its owner renamed ("WPD's, its employees'" -> "CNS's, ...")
        start = max(0, draft.rfind(" ", 0, max(0, m.start() - 12)))
        said = f"“{draft[start:m.end()].strip()} {following}…”"
        if given:
            return f"The draft makes the party who receives into an owner ({said}); it should name that party."
        return f"The draft leaves a possessive with no noun after it ({said})."
    return ""


def changed_part_to_leave(instruction: str, clause: str, draft: str,
                          asked: Sequence[tuple[int, int]] = ()) -> tuple[str, str] | None:
    """A part of the clause the instruction says to leave as it is ("leave LBIO's use right as it
    is"), found by its words, that the draft changes: ("wrong", reason), ("unchecked", reason) or None.

    A keep protects what the ask does not change: the place an asked change sits (``asked``, clause
    spans: the figure a period or amount part replaces) is never "to leave", however wide the keep's
    words ("The thirty road miles stays" over the sentence whose one year the ask cuts). Such a part is
    changed only where the draft changes words outside every asked place; where the draft rewords it,
    whether the words the keep reaches stay is not read ("not checked")."""
    from index_builder.reading.sentences import part_spans
    for stems in protected(instruction)[1]:
        spans = []
        for a, b in part_spans(clause):
            have = {w.lower()[:5] for w in re.findall(r"[A-Za-z]{2,}", re.sub(r"['’]s\b", "", clause[a:b]))}
            if all(s in have for s in stems):
                spans.append((a, b))
        if len(spans) != 1:
            continue
        a, b = _named_limb(clause, *spans[0], stems)
        if _norm(clause[a:b]) in _norm(draft):
            continue
        places = [(x, y) for x, y in asked if a <= x and y <= b]
        if not places:
            return "wrong", f"The draft changes “{_short(clause[a:b])}”, which the instruction says to leave as it is."
        if _only_places_changed(clause, a, b, places, draft):
            continue
        if _said_in_other_words(clause, a, b, places, draft):
            return "unchecked", (f"Not checked: the draft rewords “{_short(clause[a:b])}”, where your instruction both "
                                 f"changes “{_short(clause[places[0][0]:places[0][1]])}” and says to leave the rest; "
                                 "whether the rest still says the same is for you to read.")
        return "wrong", (f"The draft changes “{_short(clause[a:b])}” beyond “{_short(clause[places[0][0]:places[0][1]])}”, "
                         "which the instruction says to leave as it is.")
    return None


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def _named_limb(clause: str, a: int, b: int, stems: list[str]) -> tuple[int, int]:
    """The limb named, where the part joins two of them ("... SHALL BE LIABLE FOR ... DAMAGES AND
    DISTRIBUTOR'S REMEDIES SHALL BE LIMITED TO REPAIR ..."): the one with the named words."""
    for piece in re.split(r"\s+(?:and|but)\s+(?=(?:[\w'’]+\s+){0,3}(?:shall|will|may|must)\b)", clause[a:b], flags=re.I):
        have = {w.lower()[:5] for w in re.findall(r"[A-Za-z]{2,}", re.sub(r"['’]s\b", "", piece))}
        if all(s in have for s in stems) and len(piece) < b - a:
            start = clause.find(piece, a)
            return start, start + len(piece)
    return a, b


def _only_places_changed(clause: str, a: int, b: int, places: Sequence[tuple[int, int]], draft: str) -> bool:
    """Whether the draft keeps the part's words word for word in order, apart from the asked places (each
    a gap of a few words in the draft: "fifteen (15) years" -> "twelve (12) years")."""
    cuts = sorted(places)
    pieces, at = [], a
    for x, y in cuts:
        pieces.append(clause[at:x])
        at = max(at, y)
    pieces.append(clause[at:b])
    gap = r"(?: [a-z0-9]+){0,8}"
    pattern = gap.join(re.escape((" " + _norm(p)) if _norm(p) else "") for p in pieces)
    return bool(re.search(pattern, " " + _norm(draft)))


def _said_in_other_words(clause: str, a: int, b: int, places: Sequence[tuple[int, int]], draft: str) -> bool:
    """Whether the draft may say the part's words outside the asked places again in words of its own: each of
    their figures and counts still there by value, and most (seven in ten, as parts_keep reads a passage said again) of their own words. A figure
    or a word of substance gone ("one year" made "ninety day") is a change, never a rewording."""
    from addin_server.draft.compare_base import content_stems
    rest, at = [], a
    for x, y in sorted(places):
        rest.append(clause[at:x])
        at = max(at, y)
    rest.append(clause[at:b])
    rest_text = " ".join(rest)
    have = {f.value for f in F.figures(draft) + F.counts(draft)}
    # A bare "one" in words is as often a pronoun ("one to the other") as a number: not a figure here.
    numbers = F.figures(rest_text) + [c for c in F.counts(rest_text) if not (c.value == 1 and c.written == "words")]
    if any(f.value not in have for f in numbers):
        return False
    own, there = content_stems(rest_text), content_stems(draft)
    return bool(own) and len(own & there) >= 0.7 * len(own)


def asked_places(parts: Sequence, clause: str, kept: Sequence[F.Figure] = ()) -> list[tuple[int, int]]:
    """Where in the clause the period and amount parts' changes sit: the clause's figure of the asked kind
    the part names as its old one, or, where it names none, each of that kind but those said to stay."""
    held = F.figures(clause)
    out: list[tuple[int, int]] = []
    for p in parts:
        if p.kind not in ("period", "amount") or p.params.get("kept") or p.params.get("unclear"):
            continue
        kinds = {f.kind for f in figure_of(p)}
        pool = [f for f in held if f.kind in kinds and not any(f.start == k.start for k in kept)]
        old = p.params.get("old")
        named = [f for f in pool if old is not None and abs(f.value - float(old)) < 1e-9]
        out += [(f.start, f.end) for f in (named or pool)]
    return out
