"""Who a provision binds, read before and after: terms or parties swapped, a provision that now binds
another party, a party picked out by the opposite event, a promise that now runs the other way."""

from __future__ import annotations

import dataclasses
import re
from typing import Sequence

from index_builder.reading import binding
from index_builder.reading.defined_terms import used_terms
from index_builder.reading.directions import (Direction, directions, mention_order, mentions_swapped,
                                                 reversed_acts)

from addin_server.draft.compare_base import Allowances, Comparison, key_of, raw_edits, the_named


def swaps(c: Comparison, allow: Allowances) -> list[str]:
    """Two edits that exchange the same words: durations, parties or terms swapped between places."""
    out = []
    edits = [(r, key_of(r.old), key_of(r.new)) for r in raw_edits(c) if r.old.strip() and r.new.strip()]
    for i, (r1, o1, n1) in enumerate(edits):
        for r2, o2, n2 in edits[i + 1:]:
            if o1 and n1 and o1 != n1 and _contains(n2, o1) and _contains(o2, n1) and \
                    not _only_parties(o1, n1, allow.parties):
                out.append(f"The draft swaps “{r1.old.strip()}” and “{r1.new.strip()}”, so each now stands where "
                           "the other was.")
    return out


def term_for_term(c: Comparison, allow: Allowances, parties: Sequence[str]) -> list[str]:
    """One of the clause's terms put where it had another ("the Increased Cap Amount" -> "the General
    Cap Amount"), the other gone from the draft: two things the clause told apart are now one."""
    if allow.parties or allow.delete:
        return []
    names = set(binding.party_names(c.clause, parties))
    terms = [t for t in used_terms(c.clause) if t not in names and " " in t]

    def at(term: str, text: str, start: int, end: int) -> bool:
        return any(m.start() < max(end, start + 1) and m.end() > start
                   for m in re.finditer(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text))

    for r in raw_edits(c):
        for old in terms:
            for new in terms:
                if old != new and at(old, c.clause, r.old_start, r.old_end) and at(new, c.draft, r.new_start, r.new_end) \
                        and not at(old, c.draft, 0, len(c.draft)):
                    return [f"The draft puts “{new}” where your clause says “{old}”, which it no longer mentions: "
                            "two things your clause tells apart are now one."]
    return []


def _contains(haystack: str, needle: str) -> bool:
    return bool(needle) and f" {needle} " in f" {haystack} "


def _only_parties(a: str, b: str, parties: set[str]) -> bool:
    low = {p.lower() for p in parties}
    return binding.bare_name(a) in low or binding.bare_name(b) in low


def role_changes(c: Comparison, allow: Allowances, parties: Sequence[str]) -> list[str]:
    """A provision the instruction did not touch that now binds (or shelters) another party."""
    mine = binding.read(c.clause, parties)
    theirs = binding.read(c.draft, parties)
    targets = allow.targets
    renamed = _renaming(c, mine, theirs)
    out = []
    for p in mine.provisions:
        if p.bound in ("", binding.MUTUAL) or any(p.start == t.start and p.verb == t.verb for t in targets):
            continue
        same = _counterparts(p, [q for q in theirs.provisions
                                 if (q.verb == p.verb or binding._same_act(q.verb, p.verb)) and q.kind == p.kind],
                             [o for o in mine.provisions
                              if (o.verb == p.verb or binding._same_act(o.verb, p.verb)) and o.kind == p.kind])
        if p.bound in allow.renamed:
            # Renamed to the document's party: fine, unless it became the clause's other party, or a party
            # other than the one the instruction says takes its place.
            if same and all(q.bound in mine.parties and q.bound != p.bound for q in same if q.bound):
                out.append(f"The draft gives “{_verb_phrase(c.clause, p)}” to {the_named(same[0].bound)}, the other party, "
                           f"not to the party that takes {the_named(p.bound)}'s place.")
            elif same and _mapped_elsewhere(p, same, allow.renames):
                out.append(f"The draft gives “{_verb_phrase(c.clause, p)}” to {the_named(same[0].bound)}; your instruction "
                           f"makes {the_named(allow.renames[p.bound])} the party in {the_named(p.bound)}'s place.")
            continue
        if not same or any(q.bound in (p.bound, binding.MUTUAL, "") for q in same):
            continue
        other = same[0].bound
        if renamed.get(p.bound) == other:
            continue  # the same party under the name the draft gives it throughout
        if allow.parties and p.bound in allow.parties and not allow.targets:
            continue
        if allow.conform and other not in mine.parties:
            continue  # a name the clause never had: the document's name for the same party (a rename)
        out.append(f"In a part your instruction does not touch, the draft now gives “{_verb_phrase(c.clause, p)}” "
                   f"to {the_named(other)} instead of {the_named(p.bound)}.")
    return out + (renames_crossed(c, allow, parties) if not out else []) + direction_changes(c, allow, parties)


def direction_changes(c: Comparison, allow: Allowances, parties: Sequence[str]) -> list[str]:
    """An act that passes something between the parties (a grant, a release, a transfer, a payment, a notice)
    now running the other way (reading/directions.py): against the clause, where no part of the instruction
    moves a party's place (a rewording, a shortening never turns a grant round); against the instruction,
    where it says which way a new act runs ("Oaktree US reimburses the Sub-Advisor's costs") and does not
    say it both ways (a flip quotes the old way beside the new)."""
    names = list(dict.fromkeys([*parties, *binding.party_names(c.clause, parties), *binding.party_names(c.draft, parties)]))
    out = []
    swapped = None if allow.parties else mentions_swapped(c.clause, c.draft, names)
    if swapped:
        out.append(f"The draft names {the_named(swapped[1])} wherever your clause names {the_named(swapped[0])}, and the "
                   "other way round: who does what is reversed, which your instruction does not ask.")
    theirs = directions(c.draft, names)
    if not theirs:
        return out
    if not allow.parties and not out:
        # A clause carried into the document under names the instruction maps ("the contractor is our
        # Provider"): its acts read under the new names.
        from addin_server.draft.parts_terms import mapped_pairs
        mapping = mapped_pairs(allow.asked, binding.party_names(c.clause, parties), parties) if allow.asked else {}
        mine = [dataclasses.replace(d, giver=mapping.get(d.giver, d.giver), receiver=mapping.get(d.receiver, d.receiver))
                for d in directions(c.clause, names)]
        for d, t in reversed_acts(mine, theirs):
            out.append(f"Your clause has “{_around(c.clause, d)}”, the draft “{_around(c.draft, t)}”: it now runs the "
                       "other way, which your instruction does not ask.")
            break
    # (A flip or a mutual ask says who gives in its own words: the parts' checks read it.)
    asked = [d for d in directions(allow.asked, names) if d.giver and d.receiver] if allow.asked and not allow.parties else []
    both = {d.stem for d in asked if any(e.stem == d.stem and e.giver == d.receiver for e in asked)}
    for d, t in reversed_acts([d for d in asked if d.stem not in both], theirs):
        if not out:
            out.append(f"Your instruction has {the_named(d.giver)} give to {the_named(d.receiver)}; the draft has "
                       f"“{_around(c.draft, t)}”, the other way round.")
        break
    return out


def _around(text: str, d: Direction) -> str:
    """A few words either side of the act's verb."""
    before = text[:d.start].split()[-5:]
    after = text[d.start:].split()[:6]
    return " ".join(before + after).strip(",;.")


def renames_crossed(c: Comparison, allow: Allowances, parties: Sequence[str]) -> list[str]:
    """The instruction maps two of the clause's parties to the document's ("Employer is Company, Employee is
    Contractor") and the draft names them the other way round: each new name is used as often as the
    clause used the other old one, and not as often as its own. (A rename keeps every mention, in whatever
    order a rewording puts them; read only where the two are named unequally often, so the counts tell.)"""
    from addin_server.draft.parts_terms import mapped_pairs  # (parts_terms reads the instruction module)
    if not allow.asked or not parties:
        return []
    mapping = mapped_pairs(allow.asked, binding.party_names(c.clause, parties), parties)
    if len(mapping) != 2 or len(set(mapping.values())) != 2:
        return []
    (a, x), (b, y) = mapping.items()
    mine, theirs = mention_order(c.clause, [a, b]), mention_order(c.draft, [x, y])
    if mine.count(a) == mine.count(b) or len(mine) != len(theirs):
        return []
    if theirs.count(y) == mine.count(a) and theirs.count(x) == mine.count(b):
        return [f"Your instruction makes {the_named(a)} {the_named(x)} and {the_named(b)} {the_named(y)}; the draft "
                f"names {the_named(y)} where your clause names {the_named(a)}, so the parties are mapped the wrong way "
                "round."]
    return []


def _mapped_elsewhere(p: binding.Provision, same: list[binding.Provision], renames: dict[str, str]) -> bool:
    """The instruction maps the provision's party to a name ("the contractor is our Provider"), and each
    of the draft's provisions of the same act binds one other named party ("Customer ... transfers"):
    the rename ran the wrong way round."""
    to = renames.get(p.bound)
    named = [q.bound for q in same if q.bound not in ("", binding.MUTUAL)]
    return bool(to) and len(named) == len(same) and all(b.lower() != to.lower() for b in named)


def _counterparts(p: binding.Provision, same: list[binding.Provision],
                  mine: list[binding.Provision]) -> list[binding.Provision]:
    """Of the draft's provisions of the same act, the ones about the same thing: "Provider retains ... the
    Product. Customer retains ... the Customer Content" has two of one act, told apart by what each is
    about (its words), so each is matched to its own and a swap of owners is seen. Only a match both ways
    counts: two cross-licences in the same words ("grants ... a non-exclusive, royalty-free license") are
    not told apart by their words, and then every one of the act stays a candidate."""
    if len(same) < 2 or not p.words:
        return same
    best = max(len(p.words & q.words) for q in same)
    closest = [q for q in same if len(p.words & q.words) == best]
    if not best or len(closest) != 1:
        return same
    q = closest[0]
    back = max(len(o.words & q.words) for o in mine)
    return closest if [o for o in mine if len(o.words & q.words) == back] == [p] else same


def _renaming(c: Comparison, mine: binding.Binding, theirs: binding.Binding) -> dict[str, str]:
    """Parties the draft calls by other names throughout ("Company for Employer, Contractor for Employee"):
    a clause party whose name the draft never says, put, at every place the two line up, in the place of
    one name the clause never says. Who does what is read after it. A duty moved to the other party is
    no renaming: there the old name gives way to two names ("Contractor will maintain" -> "Customer will
    maintain" beside "Contractor acknowledges" -> "Provider acknowledges"), and is read as before."""
    def says(text: str, name: str) -> bool:
        return bool(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text))

    gone = {p for p in mine.parties if says(c.clause, p) and not says(c.draft, p)}
    new = {q for q in theirs.parties if says(c.draft, q) and not says(c.clause, q)}
    seen: dict[str, set[str]] = {}
    for r in raw_edits(c):
        old, now = _bare(r.old), _bare(r.new)
        if old in gone and now in new:
            seen.setdefault(old, set()).add(now)
    out = {old: next(iter(names)) for old, names in seen.items() if len(names) == 1}
    # ... each new name standing for one party only.
    return {old: now for old, now in out.items() if list(out.values()).count(now) == 1}


def _bare(text: str) -> str:
    return re.sub(r"['’]s?$", "", text.strip())


def qualifier_changes(c: Comparison, allow: Allowances) -> list[str]:
    """A party picked out by an event now picked out by its opposite: "the non-breaching party" ->
    "the breaching party", "the Party whose control has changed" -> "... has not changed"."""
    if allow.parties:
        return []  # a flip or a mutual draft moves rights between the parties: the parts' checks judge it
    mine, theirs = binding.party_qualifiers(c.clause), binding.party_qualifiers(c.draft)
    return [f"The draft says “{theirs[key][1]}” where your clause says “{was}”: it now means the other party."
            for key, (positive, was) in mine.items() if key in theirs and theirs[key][0] != positive]


def polarity_changes(c: Comparison, allow: Allowances, parties: Sequence[str]) -> list[str]:
    """A promise now said the other way round: "may not assign" -> "may assign", "shall not be liable"
    -> "shall be liable", read provision by provision however the sentence is reworded."""
    mine = binding.read(c.clause, parties)
    theirs = binding.read(c.draft, parties)
    out = []
    for p in mine.provisions:
        if not p.bound or not p.verb:
            continue
        same = [q for q in theirs.provisions if (q.verb == p.verb or binding._same_act(q.verb, p.verb))
                and (q.bound == p.bound or q.mutual or p.mutual)]
        if same and all(q.negated != p.negated for q in same) and not (allow.exception and not p.negated):
            q = same[0]
            out.append(f"The draft says “{_verb_phrase(c.draft, q)}” where your clause says "
                       f"“{_verb_phrase(c.clause, p)}”: the promise now runs the other way.")
    return out


def _verb_phrase(text: str, p: binding.Provision) -> str:
    phrase = text[p.subject[0]:p.end]
    phrase = " ".join(phrase.split()[:8])
    return phrase.rstrip(",;.") + ("…" if len(text[p.subject[0]:p.end].split()) > 8 else "")
