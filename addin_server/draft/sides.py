"""Who stands where in a redraft: the checks that a mutual or flipped draft keeps each party on its
own side (parts.py asks them for its mutual and flip parts, checks.py for meaning).

A mutual draft reads right only if every mention of the party a provision binds becomes that
party again ("it", "each party") and every mention of its counterparty becomes "the other party";
a mirror written out beside the clause must swap every name; a flip must turn every sentence that
names both parties.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Sequence

from index_builder.reading.binding import Binding, Provision, generic_side
from index_builder.reading.polarity import conditions_denied
from index_builder.reading.sentences import sentence_spans

from addin_server.draft.compare import raw_edits, the_named, compare


def crossed_roles(clause: str, draft: str, mine: Binding) -> str:
    """A mutual draft that puts a party in the other's place: the party the clause binds becomes
    "the other party" somewhere while it is "each party" elsewhere (or the other way round)."""
    bound = {p.bound for p in mine.one_sided()}
    c = compare(clause, draft)
    swapped = names_swapped(c.regions, draft, mine.parties)
    if swapped:
        return (f"The draft swaps {swapped[0]} and {swapped[1]} (“{swapped[2]}”) instead of giving the term to "
                "both: the party your clause names loses it.")
    seen: dict[str, set[str]] = {}
    where: dict[tuple[str, str], str] = {}
    others_at: dict[str, list[int]] = {}
    astray: set[str] = set()  # parties put on a side their own sentence does not give them
    for r in raw_edits(c):
        old = re.sub(r"^the\s+", "", " ".join(r.old.split()), flags=re.I).rstrip(",;.")
        new = " ".join(r.new.split()).rstrip(",;.")
        if re.search(r"\bthe\s+$", c.draft[max(0, r.new_start - 4):r.new_start], re.I) and not new.lower().startswith("the "):
            new = "the " + new  # "the Individual" -> "the other party" with "the" left as it was
        name = next((p for p in mine.parties if re.fullmatch(rf"{re.escape(p)}(?:['’]s?)?", old, re.I)), None)
        if not name:
            continue
        side = generic_side(new)
        if side:
            seen.setdefault(name, set()).add(side)
            where.setdefault((name, side), new)
            here = _expected_here(mine, clause, name, r.old_start)
            if here and here != side:
                astray.add(name)
            if side == "other":
                others_at.setdefault(name, []).append(r.old_start)
    for name, sides in seen.items():
        expected = "self" if name in bound else "other"
        if sides == {"other"} and any(_binds_alone_there(mine, clause, name, at) for at in others_at.get(name, ())):
            # The party the clause binds, named again in it ("made by the Individual"), is the party
            # bound in the mutual draft too ("it"), never "the other party".
            return (f"The draft puts “{where[(name, 'other')]}” where your clause names {the_named(name)}, the party it "
                    "binds: a condition now runs against the wrong party.")
        if len(sides) == 2 and name in astray:
            wrong = "other" if expected == "self" else "self"
            return (f"The draft mixes up who is who: {the_named(name)} becomes “{where.get((name, wrong), '')}” in one place "
                    f"and “{where.get((name, expected), '')}” in another, so a condition now runs against the wrong "
                    "party.")
    return ""


def names_swapped(regions: Sequence, draft: str, parties: Sequence[str]) -> tuple[str, str, str] | None:
    """Two parties put in each other's places and nothing else changed there ("Customer notifies Metavante"
    -> "Metavante notifies Customer"), the clause's wording gone from the draft: the term moved from one
    to the other, not shared. (A mirror written out beside the clause keeps the clause's wording.)"""
    names = sorted(parties, key=len, reverse=True)
    if len(names) < 2:
        return None
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(n)}(?![\w-])" for n in names))
    for r in regions:
        olds, news = pattern.findall(r.old), pattern.findall(r.new)
        if len(olds) < 2 or len(olds) != len(news) or r.old in draft:
            continue
        pairs = {(a, b) for a, b in zip(olds, news) if a != b}
        if not pairs or any((b, a) not in pairs for a, b in pairs):
            continue
        swap = {a: b for a, b in pairs}
        if pattern.sub(lambda m: swap.get(m.group(0), m.group(0)), r.old) == r.new:
            a, b = sorted(pairs)[0]
            return a, b, " ".join(r.new.split())
    return None


def _expected_here(mine: Binding, clause: str, name: str, at: int) -> str:
    """The side a mention of ``name`` takes in a mutual draft, read in its own sentence: "self" where
    that sentence binds it, "other" where it binds only another party ("Provider is not responsible
    ... caused by Customer's failure": Customer is the other party there), "" where it binds nobody."""
    span = next(((a, b) for a, b in sentence_spans(clause) if a <= at < b), None)
    if span is None:
        return ""
    bound = {p.bound for p in mine.provisions if span[0] <= p.start < span[1]} - {""}
    if name in bound:
        return "self"
    return "other" if bound else ""


def _binds_alone_there(mine: Binding, clause: str, name: str, at: int) -> bool:
    """The sentence holding ``at`` binds ``name`` (an obligation or prohibition) and nobody else, and
    gives it no right: a mention of ``name`` there is the bound party, never the other."""
    span = next(((a, b) for a, b in sentence_spans(clause) if a <= at < b), None)
    if span is None:
        return False
    here = [p for p in mine.provisions if span[0] <= p.start < span[1]]
    return any(p.bound == name and p.kind in ("obligation", "prohibition") for p in here) and \
        all(p.bound in (name, "") and p.kind not in ("right", "protection") for p in here)


_NAME_TOKEN = re.compile(r"[\w’'-]+")


def half_mirrored(clause: str, draft: str, names: Sequence[str]) -> str:
    """A provision repeated for the other party that still names the first party where the mirror
    must name the other: "Company will indemnify Contractor ... for the negligence of Contractor"
    written beside "Contractor will indemnify Company ... for the negligence of Contractor"."""
    if len(names) != 2 or any(" " in n for n in names):
        return ""
    a, b = names
    swap = {a: b, b: a}
    mine = [_bare(t) for t in _NAME_TOKEN.findall(clause)]
    for start, end in sentence_spans(draft):
        piece = draft[start:end]
        if " ".join(piece.split()) in " ".join(clause.split()):
            continue  # the clause's own sentence
        tokens = [_bare(t) for t in _NAME_TOKEN.findall(piece)]
        agree, differ = _aligned_names(mine, [swap.get(t, t) for t in tokens], swap)
        if agree < 2 or _aligned_names(mine, tokens, swap)[0] >= agree:
            continue  # not a mirror of the clause's words: its names match better as they are
        if differ:
            return (f"The provision the draft adds for the other party still names {the_named(differ[0])} where the "
                    f"mirror of your clause names {the_named(swap[differ[0]])}, so it runs against the wrong party.")
    return ""


def _bare(token: str) -> str:
    return re.sub(r"[’']s?$", "", token)


def _aligned_names(clause: list[str], piece: list[str], swap: dict[str, str]) -> tuple[int, list[str]]:
    """Party names of ``piece`` at the places of ``clause``'s party names: how many agree, and the
    clause's names where ``piece`` names the other party."""
    agree, differ = 0, []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, clause, piece, autojunk=False).get_opcodes():
        if op == "equal":
            agree += sum(1 for t in clause[i1:i2] if t in swap)
        elif op == "replace" and i2 - i1 == j2 - j1:
            differ += [x for x, y in zip(clause[i1:i2], piece[j1:j2]) if x in swap and y == swap[x]]
    return agree, differ


def one_party_terms(clause: str, draft: str, mine: Binding, wanted: Sequence[Provision],
                    parties: Sequence[str] = ()) -> str:
    """A defined term named after one party ("SpinCo House Marks") left in a provision made mutual, with
    nothing protecting the other's ("house marks of the other group")."""
    names = list(dict.fromkeys(list(mine.parties) + list(parties)))
    for t in wanted:
        for name in names:
            head = name.split()[0] if " " in name else name
            for term in re.findall(rf"\b{re.escape(head)} [A-Z][a-z]+(?: [A-Z][a-z]+)*", clause[t.start:t.end]):
                if term == name or name.startswith(term):
                    continue
                rest = term[len(head):]
                others = [p for p in names if p != name and f"{p.split()[0]}{rest}" in draft]
                if term in draft and not others and not re.search(r"\bof the other\b|\bthe other (?:party|group)['’]s",
                                                                 draft, re.I):
                    if any(p != name and _owner_more(p, clause, draft) for p in names):
                        # A sentence of its own for the other party's things ("any trademark ... of Company"):
                        # whether it matches the term is for the lawyer, neither done nor failed.
                        return (f"Not checked: “{term}” is one party's; the draft protects the other party's in "
                                "words of its own, which the checks cannot match to it.")
                    return f"Both are bound, but only “{term}” is protected; the other party's have no protection."
    return ""


# An exception or proviso inside a clause ("except that the Developer may transfer ..."): the gates decline a
# flip of a clause whose proviso names a party, and the flip check does not call such a flip done.
PROVISO = re.compile(r"\b(?:except\s+that|provided\s+(?:that|however)|provided,\s+however|save\s+that)\b", re.I)


def proviso_swapped(clause: str, draft: str, names: Sequence[str]) -> str:
    """The clause's proviso naming one party, kept in the draft naming another ("except that the Client may
    transfer the right to receive amounts payable to it for its Services"): whether it should move with the
    right is the lawyer's call. Returns the draft's proviso words, or ""."""
    def named(text: str) -> list[tuple[str, str]]:
        out = []
        for m in PROVISO.finditer(text):
            after = text[m.end():m.end() + 60]
            first = min(((after.find(n), n) for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", after)),
                        default=(-1, ""))
            if first[1]:
                out.append((m.group(0).lower(), first[1]))
        return out
    mine, theirs = named(clause), named(draft)
    for (word, who), (word2, who2) in zip(mine, theirs):
        if word == word2 and who != who2:
            return word2
    return ""


def _owner_more(name: str, clause: str, draft: str) -> bool:
    """The draft names ``name`` as an owner ("logo of Company", "Company's marks") more often than the clause
    does: the other party's things are protected in words of their own (a sentence added for it)."""
    owner = re.compile(rf"\b(\w+)\s+(?:of|by)\s+(?:the\s+)?{re.escape(name)}\b|(?<![\w-]){re.escape(name)}['’]s?\s", re.I)

    def count(text: str) -> int:
        # "each of the RemainCo Group", "either of Company": a party counted, not an owner.
        return sum(1 for m in owner.finditer(text) if (m.group(1) or "").lower() not in _QUANTIFIERS)
    return count(draft) > count(clause)


_QUANTIFIERS = {"each", "any", "either", "both", "all", "one", "none", "neither", "some", "behalf"}


def untouched(clause: str, draft: str, names: Sequence[str]) -> list[str]:
    """The clause's sentences that name each of ``names`` and that the draft keeps word for word."""
    flat = " ".join(draft.split())
    out = []
    for start, end in sentence_spans(clause):
        sentence = " ".join(clause[start:end].split())
        if all(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", sentence) for n in names) and sentence in flat:
            out.append(sentence)
    return out


def condition_dropped(clause: str, draft: str) -> str:
    """A mutual or mirrored draft that gives the right without a condition the clause puts on it: "with prior
    written notice" in the clause, "without notice" in the draft. The other party was to have the same right,
    on the same terms; a condition denied that the clause requires is another right."""
    for what in sorted(conditions_denied(draft) - conditions_denied(clause)):
        required = re.search(rf"\bwith\s+(?:[\w-]+\s+){{0,3}}{re.escape(what)}\b", clause, re.I)
        if required:
            return (f"Your clause gives it “{required.group(0)}”; the draft gives it without {what}, which is not the "
                    "same right.")
    return ""
