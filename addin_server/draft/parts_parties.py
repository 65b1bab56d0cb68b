"""The tests of the parts that move a duty or a right between the parties: mutual and flip.

Both read who is bound, before and after, through the clause-reading core (binding.py); apart from
the figure and wording tests because they share nothing with them but the result they return.
"""

from __future__ import annotations

import re

from index_builder.reading import binding
from index_builder.reading.sentences import sentence_spans
from index_builder.reading.binding import MUTUAL, Binding, Provision

from addin_server.draft.instruction import Instruction, Part
from addin_server.draft.parts_result import Context, PartResult, phrase, short, the_named
from addin_server.draft.parts_scope import counter_provisions, left_alone, targets
from addin_server.draft.sides import condition_dropped, half_mirrored, one_party_terms, proviso_swapped, untouched


def mutual_part(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    widens = part.params.get("widens")
    if widens:
        # "Users can access it too": whatever else it asks, the draft must name them; where it does, whether
        # they now have what the party has is for the lawyer to read (the reading of the ask is unsure).
        missing = [w for w in widens if not re.search(rf"(?<![\w-]){re.escape(w.rstrip('s'))}", draft, re.I)]
        if missing:
            return PartResult(part, "not_done", f"The draft does not mention {missing[0]}, whom your instruction "
                                                "names to have it too.")
        return PartResult(part, "unchecked", f"Not checked: your instruction adds {widens[0]}, who is not a party; "
                                             "whether the draft gives them what it should is for you to read.")
    mine = binding.read(clause, ctx.parties)
    theirs = binding.read(draft, ctx.parties)
    wanted = targets(part, mine, clause)
    if not wanted:
        return PartResult(part, "unchecked", "No party in your clause is bound on its own, so whether the draft is "
                                             "mutual cannot be checked; read it.")
    ok, one, wrong, protects = [], [], [], []
    lone = {q.bound for q in theirs.one_sided()}
    for t in wanted:
        same = [q for q in theirs.provisions if binding.similar(t, q)]
        if not same and t.bound not in lone and any(q.mutual for q in theirs.provisions):
            ok.append(t)  # reworded past recognition, but nothing in the draft binds that party alone
            continue
        mutual = [q for q in same if q.mutual]
        sides = {q.bound for q in same if q.bound not in ("", MUTUAL)}
        if mutual or len(sides) >= 2:
            leftover = [o for q in mutual for o in q.others if o in mine.parties and
                        not any(o2 != o and o2 in mine.parties for q2 in mutual for o2 in q2.others)]
            if leftover:
                protects.append((t, leftover[0]))
            else:
                ok.append(t)
        elif sides and t.bound not in sides:
            wrong.append((t, next(iter(sides))))
        else:
            one.append(t)
    named = part.params.get("named")
    if named and part.scope.partial:
        # "Company should cover Contractor for Company's own negligence (limb (c) only)": done when the
        # party named now takes on the same kind of promise, and the clause's own party keeps its own.
        takes = [q for t in wanted for q in theirs.provisions if binding.similar(t, q) and q.bound in (named, MUTUAL)]
        keeps = [q for t in wanted for q in theirs.provisions if binding.similar(t, q) and q.bound in (t.bound, MUTUAL)]
        # Only one party left protected: where the mutual provision names both of the clause's parties
        # ("in the case of Distributor ..., in the case of Cisco ..."), it protects both.
        leftover = [(q, o) for q in takes if q.mutual for o in q.others if o in mine.parties
                    and not any(o2 != o and o2 in mine.parties for o2 in q.others)]
        if takes and keeps and leftover:
            q, who = leftover[0]
            return PartResult(part, "partly", f"Both parties are bound, but the draft still protects only {the_named(who)} "
                                              f"(“{phrase(draft, q)}”).")
        if takes and keeps:
            half = half_mirrored(clause, draft, mine.parties)
            if half:
                return PartResult(part, "wrong", half)
            left = _named_but_kept(part, clause, draft, mine.parties)
            if left:
                return PartResult(part, "partly", f"Only some of it is mutual: “{short(left)}”, which your instruction "
                                                  "names, is as it was.")
            dropped = condition_dropped(clause, draft)
            if dropped:
                return PartResult(part, "partly", dropped)
            return PartResult(part, "done", f"{the_named(named)} is bound too, as asked.")
        if takes:
            return PartResult(part, "wrong", f"The draft binds {the_named(named)} instead of both parties.")
        return PartResult(part, "not_done", f"The draft does not bind {the_named(named)} as well.")
    if not one and not wrong and not protects:
        compound = one_party_terms(clause, draft, mine, wanted, ctx.parties)
        if compound:
            return PartResult(part, "unchecked" if compound.startswith("Not checked") else "partly", compound)
        half = half_mirrored(clause, draft, mine.parties)
        if half:
            return PartResult(part, "wrong", half)
        left = _named_but_kept(part, clause, draft, mine.parties)
        if left:
            return PartResult(part, "partly", f"Only some of it is mutual: “{short(left)}”, which your instruction "
                                              "names, is as it was.")
        fewer = _fewer_acts(wanted, theirs, clause, draft) or condition_dropped(clause, draft)
        if fewer:
            return PartResult(part, "partly", fewer)
        return PartResult(part, "done", "Binds both parties alike" + ("" if len(ok) < 2 else
                                                                      f" ({len(ok)} provisions)") + ".")
    if wrong and not ok:
        t, who = wrong[0]
        return PartResult(part, "wrong", f"The draft now binds only {the_named(who)}, not both parties: "
                                         f"“{phrase(clause, t)}” was to bind both.")
    if protects and not one and not wrong:
        t, who = protects[0]
        return PartResult(part, "partly", f"Both parties are bound, but the draft still protects only {the_named(who)} "
                                          f"(“{phrase(draft, like(theirs, t) or t)}”).")
    t = (one or [w[0] for w in wrong] or [p[0] for p in protects])[0]
    status = "not_done" if not ok and not protects else "partly"
    return PartResult(part, status, f"The draft still binds only {the_named(t.bound)} in “{phrase(clause, t)}”.")


def left_as_it_was(part: Part, clause: str, draft: str, ctx: Context) -> bool:
    """A reworded draft that plainly leaves the asked thing where it was: the provision the part moves (flip)
    or shares (mutual) is still there, bound to the same party, and the party it should go to is bound by
    nothing in the draft at all ("Roche may terminate ..." for "FMI should hold this right instead of
    Roche"). Read from the draft's own provisions, so a rewording does not hide it; a party the draft
    binds anywhere, however worded, leaves it to the lawyer."""
    mine = binding.read(clause, ctx.parties)
    theirs = binding.read(draft, ctx.parties)
    wanted = targets(part, mine, clause)
    to = part.params.get("holder") if part.kind == "flip" else part.params.get("named")
    if not wanted or not to or to not in (*mine.parties, *ctx.parties):
        return False
    if any(q.bound in (to, MUTUAL) or to in q.others and q.kind == "protection" for q in theirs.provisions):
        return False
    if re.search(r"\b(?:each|either|both|neither)\s+(?:party|parties)\b", draft, re.I):
        return False
    return any(binding.similar(t, q) and q.bound == t.bound and q.negated == t.negated
               for t in wanted if t.bound != to for q in theirs.provisions)


def _named_but_kept(part: Part, clause: str, draft: str, names: tuple[str, ...]) -> str:
    """A sentence of the clause that names both parties, that the draft keeps word for word while it makes
    another mutual, and that holds a word of the ask no other sentence of the clause has ("the consent
    requirement and the 'voidable' consequence bind BP as well": the voidable sentence untouched). The
    ask names it, so keeping it as it was is evidence it was not done (the binding reader may hold no
    provision for it: "shall be voidable by BP")."""
    if len(names) < 2 or part.scope.leave or part.scope.leave_sentences:
        return ""
    kept = untouched(clause, draft, names[:2])
    if not kept:
        return ""
    others = [" ".join(clause[a:b].split()).lower() for a, b in sentence_spans(clause)]
    theirs = binding.read(draft, names).provisions
    for sentence in kept:
        if any(binding.similar(q, r) and r.bound != q.bound for q in binding.read(sentence, names).provisions
               for r in theirs):
            continue  # kept beside its mirror ("... Company will indemnify Contractor likewise"): mutual by addition
        low = sentence.lower()
        rest = [o for o in others if o != low]
        if len(rest) == len(others):
            continue
        own = [k for k in part.scope.keywords if len(k) >= 5 and k in low and not any(k in o for o in rest)]
        if own:
            return sentence
    return ""


def _still_owned(moved: list[Provision], clause: str, draft: str, theirs: Binding, holder: str) -> str:
    """In a moved provision, the old party's own thing the clause tied it to ("from MMI's or its employees'
    activities") still said of the old party in the draft's moved provision: the duty moved, what it
    answers for may not have ("" where none). Read only where the clause names the bound party's possession
    after its subject and the draft's provision, now bound to the holder, names the same possession."""
    for t in moved:
        after = clause[t.subject[1]:t.end]
        for q in theirs.provisions:
            if q.bound != holder or not binding.similar(t, q):
                continue
            said = draft[q.subject[1]:q.end]
            for m in re.finditer(rf"(?<![\w-]){re.escape(t.bound)}['’]s?\s+(?:own\s+)?(?:or\s+its\s+)?([a-z]+)", after):
                if re.search(rf"(?<![\w-]){re.escape(t.bound)}['’]s?\s+(?:own\s+)?(?:or\s+its\s+)?{m.group(1)}\b", said):
                    return f"“{m.group(0)}”"
    return ""


# A list of acts or things the clause names ("assign, transfer, encumber or dispose of"): three or more words.
_LIST = re.compile(r"\b([a-z]+)((?:,\s+[a-z]+)+),?\s+(?:and/or|and|or)\s+([a-z]+)\b")


def _limb(read: Binding, q: Provision) -> str:
    """The words of one party's provision: from where its party is named to where the next one's is."""
    after = [p.subject[0] for p in read.provisions if q.start <= p.subject[0] < q.end and p.subject[0] > q.subject[0]]
    return read.text[q.subject[0]:min(after, default=q.end)]


def _fewer_acts(wanted: list[Provision], theirs: Binding, clause: str, draft: str) -> str:
    """Where the draft binds the other party in a limb of its own, that limb names every act of the clause's
    list its first party is still bound by ("the Franchisor shall not assign" beside "the Franchisee shall not
    assign, transfer, encumber or dispose of"): a mirrored limb with some of the list is done in part. Only
    from what the draft shows: a limb that names none of the list is reworded, and not read here."""
    for t in wanted:
        limb = clause[t.subject[0]:t.end]
        # Only what the party does, named before any other party: "its owners, officers, directors or employees"
        # after "the Company" are the other party's people, whom a mirrored limb rightly leaves out.
        others = [m.start() for n in theirs.parties if n != t.bound for m in re.finditer(rf"\b{re.escape(n)}\b", limb)]
        for m in _LIST.finditer(limb[:min(others, default=len(limb))]):
            if m.group(3) in ("otherwise", "other", "any"):
                continue  # "assign, sublicense or otherwise transfer": examples of the last act, which covers them
            items = [m.group(1)] + re.findall(r"[a-z]+", m.group(2)) + [m.group(3)]
            own = [q for q in theirs.provisions if q.bound == t.bound and binding.similar(t, q)]
            other = [q for q in theirs.provisions if q.bound not in ("", MUTUAL, t.bound) and q.negated == t.negated]
            for q, r in ((q, r) for q in own for r in other):
                mine_, new = _limb(theirs, q), _limb(theirs, r)
                kept = [w for w in items if re.search(rf"\b{w}", mine_)]
                missing = [w for w in kept if not re.search(rf"\b{w[:5]}", new)]
                if missing and len(missing) < len(kept):
                    return (f"Both parties are bound, but not alike: {the_named(r.bound)} is not bound to "
                            f"“{', '.join(missing)}”, as {the_named(t.bound)} is.")
    return ""


def _held_by_both(t: Provision, mine: Binding) -> bool:
    """The clause itself gives the same kind of provision to the other party too."""
    return any(q is not t and q.bound and q.bound != t.bound and q.negated == t.negated and q.kind == t.kind
               and q.verb == t.verb for q in mine.provisions)


def like(read: Binding, t: Provision) -> Provision | None:
    return next((q for q in read.provisions if binding.similar(t, q)), None)


def flip_part(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    holder, other = part.params.get("holder"), part.params.get("other")
    if not holder or not other:
        return PartResult(part, "unchecked", "The instruction does not say clearly which party should have it; "
                                             "read the draft.")
    mine = binding.read(clause, ctx.parties)
    theirs = binding.read(draft, ctx.parties)
    wanted = targets(part, mine, clause)
    if not wanted:
        return PartResult(part, "unchecked", f"Your clause does not bind {the_named(other)} in a way the checks can read; "
                                             "read the draft.")
    moved, kept, both, denied = [], [], [], []
    # What the ask leaves as it is ("Section 10 (patents) stays as it is"), kept word for word in the draft,
    # still runs the old way by design: it is not the provision moved, nor a sign it went to both.
    alone = {" ".join(clause[a:b].split()) for a, b in left_alone(part, mine, clause, wanted)}
    others = [q for q in theirs.provisions if " ".join(draft[q.start:q.end].split()) not in alone]
    for t in wanted:
        same = [q for q in others if q.verb == t.verb or binding.similar(t, q)]
        to, frm = (holder, other) if t.bound != holder else (other, holder)
        to_holder = [q for q in same if q.bound == to and q.negated == t.negated]
        to_other = [q for q in same if q.bound == frm and q.negated == t.negated]
        refused = [q for q in same if q.bound == to and q.negated != t.negated and t.kind != "protection"]
        if refused and not to_holder:
            denied.append(t)
        elif (to_holder and to_other) or any(q.mutual for q in same):
            both.append(t)
        elif to_holder:
            moved.append(t)
        else:
            kept.append(t)
    if denied:
        return PartResult(part, "wrong", f"The draft keeps it with {the_named(other)} and denies it to {the_named(holder)}.")
    for c in counter_provisions(part, mine, clause):
        same = [q for q in theirs.provisions if binding.similar(c, q)]
        if same and any(q.bound == holder for q in same) and not any(q.bound == other for q in same):
            return PartResult(part, "partly", f"Only some of it moved: “{phrase(clause, c)}” still runs from "
                                              f"{the_named(holder)} to {the_named(other)}.")
    if not kept and not both:
        left = [] if part.scope.partial else untouched(clause, draft, (holder, other))
        if left and moved:
            # "Switch this round": a sentence of the clause that names both parties and is word for word
            # as it was still runs the old way (it may hold no "shall" the binding reads).
            return PartResult(part, "partly", f"Only some of it moved: “{short(left[0])}” is as it was.")
        if proviso_swapped(clause, draft, (holder, other)):
            return PartResult(part, "unchecked", "Not checked: the draft moves your clause's proviso to the other party "
                                                 "too; whether it goes with the right is for you to read.")
        still = _still_owned(moved, clause, draft, theirs, holder)
        if still:
            # Whose a possession should be after a move is not read from the names ("Customer's use of the
            # Product" may stay): said, not failed, and never "done" (tests/draft/test_done.py).
            return PartResult(part, "unchecked", f"Not checked: the draft gives it to {the_named(holder)} but still ties it "
                                                 f"to {still} as your clause did; whether that should have moved "
                                                 "too is for you to read.")
        return PartResult(part, "done", f"Given to {the_named(holder)} instead of {the_named(other)}.")
    if both and not kept and all(_held_by_both(t, mine) for t in both):
        # "Swap the two regimes": the clause already gives each party its own version (NVOS on notice, HGF
        # with approval); after a swap both still hold one, so who holds it cannot say whether it moved.
        return PartResult(part, "unchecked", "Your clause gives each party a version of it, so a swap is read by "
                                             "its terms, not by who holds it; read the draft.")
    if both and not kept:
        return PartResult(part, "partly", f"The draft gives it to both parties; it was to move to {the_named(holder)}.")
    if moved or both:
        return PartResult(part, "partly", f"Only some of it moved: “{phrase(clause, kept[0])}” still rests with "
                                          f"{the_named(other)}.")
    return PartResult(part, "not_done", f"The draft still gives it to {the_named(other)}, not {the_named(holder)}.")
