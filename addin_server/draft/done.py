"""The positive "done" check: a part is done only when the text it names changed as it asks.

The tests in parts.py read whether the draft *states* what was asked: the new period is somewhere,
both parties are bound somewhere. That let drafts through that put "fifteen days" in place of a
"five year" depreciation basis, changed the aggregate but not the per-occurrence limit, left a
change-of-control sentence naming one party, or said the same indemnity twice. ``confirm`` reads a
part those tests call done once more, through the reading core (figures for periods and amounts,
binding for who a sentence names), and keeps "done" only where:

* period / amount: the asked value replaced a figure in the place the part names (its words are
  around that figure, or it is the only figure of that kind and unit), every place the part names
  now holds it, and no figure the instruction gives as it stands was changed;
* mutual: no sentence is said twice, no mutualised sentence still names one party alone, and no
  sentence the part names that names one party is left word for word;
* flip: the party the right moves to is a party of the clause (else the ask is a rename);
* conform: where the lawyer's document's terms are unknown, a kept capitalised term of the
  clause cannot be checked, so the part is "not checked", never "done".

Nothing here reads a label: only the instruction, the clause, the draft and the request's context.
"""

from __future__ import annotations

import difflib
import re
from typing import Sequence

from index_builder.reading import binding
from index_builder.reading import figures as F
from index_builder.reading.sentences import sentence_spans

from addin_server.draft.instruction_asks import reasons
from addin_server.draft.instruction_lines import quotation_spans
from addin_server.draft.instruction import Instruction, Part
from addin_server.draft.instruction_words import LEAVE
from addin_server.draft.places import around, joined, named_by_words, place_words
from addin_server.draft.quotes import short as _short

# A sentence that binds or protects both parties says so in one of these ways.
_BOTH = re.compile(r"\b(?:each|either|neither|both)\s+(?:of\s+the\s+)?(?:part(?:y|ies)|sides?)\b|"
                   r"\bthe\s+other\s+(?:party|side)\b|\bthe\s+parties\b", re.I)
LEAVE_WORDS = re.compile(r"\b(?:leave|keep|stays?|remains?|unchanged|as it is|alone|untouched|same)\b", re.I)


def confirm(part: Part, ins: Instruction, clause: str, draft: str, parties: Sequence[str],
            found_status: str) -> tuple[str, str] | None:
    """For a part the kind's test calls done: (status, reason) where it is not, else None."""
    if found_status != "done":
        return None
    from addin_server.draft.done_words import direction_turned, named_words_gone
    kept = named_words_gone(ins, clause, draft)
    if kept:
        return kept
    if part.kind in ("period", "amount"):
        return _figure_done(part, ins, clause, draft, parties) or _judged_words_left(part, clause, draft) or \
            direction_turned(part, clause, draft) or pinned_changed(ins, clause, draft)
    if part.kind == "mutual":
        return duplicated(clause, draft) or _mutual_done(part, clause, draft, parties) or \
            pinned_changed(ins, clause, draft)
    if part.kind == "conform":
        return _said_undefined_left(ins, draft) or pinned_changed(ins, clause, draft)
    if part.kind == "flip":
        return _flip_done(part, clause, parties) or _flip_swapped(part, clause, draft) or \
            pinned_changed(ins, clause, draft)
    return pinned_changed(ins, clause, draft)


# --- figures -------------------------------------------------------------------------------------

_same = F.same


def unmatched(mine: Sequence[F.Figure], theirs: Sequence[F.Figure]) -> list[F.Figure]:
    """``mine`` less those ``theirs`` also has (as a multiset): a figure written another way
    ("thirty (30) days" for "30 days") is the same figure."""
    left = list(theirs)
    out = []
    for f in mine:
        twin = next((g for g in left if _same(f, g)), None)
        if twin is None:
            out.append(f)
        else:
            left.remove(twin)
    return out


def _quoted_places(instruction: str, clause: str) -> list[int]:
    """Where in the clause the instruction's quoted words are ("'Reasonable prior notice' won't do")."""
    out = []
    for m in re.finditer(r"['‘\"“]([^'’\"”]{6,80})['’\"”]", instruction):
        at = clause.lower().find(m.group(1).lower().strip())
        if at >= 0:
            out.append(at)
    return out


def asked_figure(part: Part) -> F.Figure | None:
    if part.kind == "period" and part.params.get("value") is not None:
        found = F.periods(f"{part.params['value']} {part.params.get('unit') or 'days'}")
    elif part.kind == "amount" and part.params.get("amount") is not None:
        found = F.amounts(F.format_amount(part.params["amount"], currency=part.params.get("currency")))
    else:
        return None
    return found[0] if found else None


def _figure_done(part: Part, ins: Instruction, clause: str, draft: str,
                 parties: Sequence[str]) -> tuple[str, str] | None:
    asked = asked_figure(part)
    if asked is None:
        return None
    kind = part.kind
    mine = [f for f in F.figures(clause) if f.kind in ("period", "amount")]
    theirs = [f for f in F.figures(draft) if f.kind in ("period", "amount")]
    gone = unmatched(mine, theirs)
    new = [f for f in unmatched(theirs, mine) if f.kind == kind and abs(f.value - asked.value) < 1e-9]
    said = place_words(part.text, parties)
    old = part.params.get("old")
    same_kind = [f for f in mine if f.kind == kind]

    def by_words(f: F.Figure) -> bool:
        return named_by_words(part.text, clause, f, mine, parties)

    def named(f: F.Figure) -> bool:
        if old is not None and abs(f.value - old) < 1e-9:
            return True
        return by_words(f) or len(same_kind) == 1 and (kind == "amount" or (f.unit or "") == (asked.unit or ""))

    quoted = _quoted_places(part.text if len(ins.parts) > 1 else ins.text, clause)

    if new:
        # Which of the clause's figures the new value took the place of: those gone from the text
        # the draft rewrote around it.
        from addin_server.draft.compare import compare
        for r in compare(clause, draft).regions:
            if not any(r.new_start <= f.start < max(r.new_end, r.new_start + 1) for f in new):
                continue
            replaced = [f for f in gone if r.old_start <= f.start < max(r.old_end, r.old_start + 1)]
            stray = [f for f in replaced if not named(f)]
            if not stray or any(named(f) for f in replaced):
                continue
            # Not named is not enough ("cut the tail to six months" names the one period by no word
            # of it): the part must name another place, a figure it names that is left, or words it
            # quotes that lie elsewhere in the clause.
            elsewhere = [f for f in same_kind if f not in replaced and f not in gone and by_words(f)]
            far = quoted and all(abs(q - f.start) > 80 for q in quoted for f in replaced)
            if elsewhere or far:
                return ("wrong", f"The draft puts {asked.text} in place of “{stray[0].text}”, which the "
                                 f"instruction does not name; {part.label()} was asked elsewhere.")
    # One value, several places named ("$5m per occurrence and in the aggregate"): each must hold it.
    if len(same_kind) >= 2 and not LEAVE_WORDS.search(part.text):
        # (A place another part says stays is not one this part asks: "the Sales Report deadline (30 days ...) is
        # not affected" beside "the sell-off runs for 180 days".)
        distinct = [f for f in _distinctly_named(clause, same_kind, mine, said, parties) if not _kept_by_another(f, part, ins)]
        if len(distinct) >= 2:
            # Judged only where the draft changed some of them: changing none is the kind's test's.
            left = [f for f in distinct if f in gone] and [f for f in distinct if f not in gone]
            if left and abs(left[0].value - asked.value) > 1e-9:
                return ("partly", f"The draft still says “{left[0].text}” where the instruction also asks for "
                                  f"{asked.text}.")
    return None


def _kept_by_another(f: F.Figure, part: Part, ins: Instruction) -> bool:
    """Another part of the instruction says this figure stays as it is."""
    kept = [asked_figure(p) for p in ins.parts if p is not part and p.kind == part.kind and p.params.get("kept")]
    return any(k is not None and F.same(k, f) for k in kept)


def named_by_pairs(part_text: str, clause: str, f: F.Figure, figures: Sequence[F.Figure],
                   parties: Sequence[str]) -> bool:
    """Whether two words together of the part ("purchase price") stand around this figure, what it
    says to keep left out ("Per-occurrence stays at $5m")."""
    asked = re.sub(r"[^.;]*\b(?:stays?|remains?|leave|keep|unchanged|untouched)\b[^.;]*", " ", part_text, flags=re.I)
    return bool(_pairs(around(clause, f, figures), parties) & _pairs(asked, parties))


def quoted_elsewhere(instruction: str, clause: str, f: F.Figure) -> bool:
    """Words the instruction quotes from the clause, lying away from this figure: the place named is
    there, not here ("'Reasonable prior notice' won't do")."""
    quoted = _quoted_places(instruction, clause)
    return bool(quoted) and all(abs(q - f.start) > 80 for q in quoted)


def distinctly_named(part_text: str, clause: str, pool: Sequence[F.Figure]) -> list[F.Figure]:
    """The figures of the pool each named by words of the part that name no other (parts.py's
    figure to change)."""
    every = [f for f in F.figures(clause) if f.kind in ("period", "amount")]
    return _distinctly_named(clause, pool, every, place_words(part_text, ()), ())


def _distinctly_named(clause: str, pool: Sequence[F.Figure], every: Sequence[F.Figure], said: set[str],
                      parties: Sequence[str]) -> list[F.Figure]:
    """The figures each named by words of the part that name no other figure of the pool."""
    # A locating word is one the clause uses once ("aggregate", "2012"); "fee" in a fee clause
    # names every figure of it.
    counts: dict[str, int] = {}
    for w in re.findall(r"[a-z0-9]{3,}", joined(clause)):
        counts[w[:5]] = counts.get(w[:5], 0) + 1
    rare = {w for w, n in counts.items() if n == 1}
    windows = [place_words(around(clause, f, every), parties) & said & rare for f in pool]
    out = []
    for i, f in enumerate(pool):
        own = windows[i] - set().union(*(w for j, w in enumerate(windows) if j != i))
        if own:
            out.append(f)
    return out


_RESTATED = re.compile(r"\b(?:not|from|instead\s+of|rather\s+than|than|replac\w*|was|were|currently|now)\s+(?:the\s+)?$",
                       re.I)


# Said of the figure to be replaced, after it: "ten days to five", "30 days isn't enough", "six
# months is too long".
_JUDGED = re.compile(r"['’]?s?\W{0,3}(?:[\w'’]+\W+){0,4}?(?:to|into|isn['’]t|is\s+not|(?:is|are|seems?)\s+(?:too|"
                     r"off|un\w+|excessive|long|short|high|low)|too|won['’]t|doesn['’]t|->|→)\b", re.I)


def pinned_changed(ins: Instruction, clause: str, draft: str) -> tuple[str, str] | None:
    """A figure the instruction gives just as the clause has it ("same 30 days' notice, 2 business
    days max") stands: a draft that changes it changes what the lawyer restated, whatever else it
    does. A figure said as the one to replace ("not 3%", "from 30 days", a part's old value) is not
    pinned."""
    said = F.figures(ins.text)
    if not said:
        return None
    asked = [a for a in (asked_figure(p) for p in ins.parts) if a is not None]
    # A part's old value, as the one reading of old and new (instruction_moves.settle) has it, is no pin.
    olds = [float(p.params["old"]) for p in ins.parts if p.kind in ("period", "amount") and p.params.get("old") is not None]
    mine = [f for f in F.figures(clause) if f.kind in ("period", "amount", "percentage")]
    theirs = F.figures(draft)
    gone = unmatched(mine, theirs)
    for f in gone:
        for s in said:
            if not _same(f, s) or any(_same(s, a) for a in asked) or any(abs(s.value - o) < 1e-9 for o in olds):
                continue
            if _RESTATED.search(ins.text[max(0, s.start - 20):s.start]) or _JUDGED.match(ins.text, s.end):
                continue
            if any(a <= s.start < b for a, b in reasons(ins.text)):
                continue  # "nobody can ever give twelve months' notice in time - so ...": argued, not pinned
            if any(a <= s.start < b for a, b in quotation_spans(ins.text)):
                continue  # Scorer's note: "One-year renewals mean ...": another's words quoted, not the lawyer's pin
            return ("wrong", f"The draft changes “{f.text}”, which the instruction gives as it stands.")
    return None


# --- who is bound --------------------------------------------------------------------------------

def _sentences(text: str) -> list[str]:
    return [text[a:b].strip() for a, b in sentence_spans(text) if text[a:b].strip()]


def duplicated(clause: str, draft: str) -> tuple[str, str] | None:
    """Two sentences of the draft that say the same thing where the clause's did not: mirror images
    merged into "each party" but both kept."""
    def norm(s: str) -> list[str]:
        return re.findall(r"[a-z]+", s.lower())

    def pairs(text: str) -> list[str]:
        ss = [norm(s) for s in _sentences(text)]
        return [" ".join(a) for i, a in enumerate(ss) for b in ss[i + 1:]
                if len(a) >= 8 and difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.92]
    had = pairs(clause)
    twice = [p for p in pairs(draft) if p not in had]
    if twice:
        return ("wrong", f"The draft says the same thing twice (“{_short(twice[0])}”).")
    return None


# A name run into the next sentence's first word ("the employ of UTEK In turn") is still the party
# named, where the core reads "UTEK In" as a term of its own; "Airspan Products" is a term.
_RUN_ON = r"\s+(?:In|The|This|That|These|Each|Any|Either|Neither|If|Upon|For|Such|All|No)\b"


def _name_at(sentence: str, name: str) -> list[int]:
    return [m.start() for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?!\w)(?!-[A-Za-z])(?!\s+[A-Z])", sentence)] + \
        [m.start() for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?={_RUN_ON})", sentence)]


def _names_in(sentence: str, names: Sequence[str]) -> list[str]:
    return [n for n in names if binding.uses(sentence, n) or _name_at(sentence, n)]


def _only_describes(part: str, name: str) -> bool:
    """Whether every use of a party's name in a part describes the noun after it ("booking Chase products")."""
    uses = binding.party_mentions(part, name)
    return bool(uses) and all(not possessive and binding.attributive(part, a, b) and not binding.acts(part, b)
                              for a, b, possessive in uses)


_ROLE_WORD = re.compile(r"(?:the\s+)?(?:recipient|discloser|receiving\s+party|disclosing\s+party|indemnif\w+\s+party|"
                        r"indemnitee|indemnitor|breaching\s+party|non-breaching\s+party)", re.I)


def _mutual_done(part: Part, clause: str, draft: str, parties: Sequence[str]) -> tuple[str, str] | None:
    # Role words a mutual clause keeps for whichever party is in that role ("Recipient",
    # "the Disclosing Party") are no party named alone.
    names = [n for n in binding.party_names(clause + "\n" + draft, parties) if not _ROLE_WORD.fullmatch(n)]
    if len(names) < 1:
        return None
    from addin_server.draft.compare import compare
    new_text = [(r.new_start, r.new_end) for r in compare(clause, draft).regions]
    at = 0
    for s in _sentences(draft):
        start = draft.find(s, at)
        at = max(at, start)
        # A sentence made mutual that still names, in words carried over from the clause, one party
        # alone: "neither party shall ... induce any employee of the other party to leave the employ
        # of UTEK". A name the draft writes anew ("or Employer's officers") was put there on purpose; a
        # name that only describes a thing ("booking Chase products") is no party.
        if not _BOTH.search(s) or s in clause:
            continue
        named = [n for n in _names_in(s, names) if not _only_describes(s, n)]
        kept = [n for n in named if any(not any(a <= start + i < b for a, b in new_text)
                                        for i in _name_at(s, n))]
        if len(named) == 1 and kept:
            return ("partly", f"The draft makes “{_short(s)}” mutual but it still names only {kept[0]}.")
    one_sided = [s for s in _sentences(clause) if len(_names_in(s, names)) == 1 and not _BOTH.search(s)]
    # What the part names, less what it says to leave ("Leave the equipment sentence alone").
    if part.scope.partial:
        return None  # "limb (c) only": the rest stays one-sided on purpose
    asked = _pairs(LEAVE.sub(" ", part.text), names)
    every = [_pairs(x, names) for x in _sentences(clause)]
    for s in one_sided:
        # Named by two words together that no other sentence of the clause has ("Rogers'
        # change-of-control sentence"); one shared word ("records") names nothing in particular.
        own = _pairs(s, names)
        locating = (own & asked) - set().union(*(e for e in every if e != own))
        if s in draft and locating:
            who = _names_in(s, names)[0]
            return ("partly", f"“{_short(s)}”, which the instruction names, still concerns only {who}.")
    return None


_SMALL = frozenset("the and for with any all its their our your this that such from into upon per".split())


def _pairs(text: str, names: Sequence[str]) -> set[tuple[str, str]]:
    """Consecutive content words as five-letter stems, party names left out."""
    skip = {w.lower() for n in names for w in re.findall(r"[A-Za-z]+", n)}
    stems = [w[:5] for w in re.findall(r"[a-z0-9]{3,}", joined(text)) if w not in _SMALL and w not in skip]
    return set(zip(stems, stems[1:]))


def _flip_done(part: Part, clause: str, parties: Sequence[str]) -> tuple[str, str] | None:
    holder, other = part.params.get("holder"), part.params.get("other")
    # A rename, not a move, only where the party it would come from is not the lawyer's document's
    # either ("Contractor, not Employee" in a contractor agreement); "Company should supply the
    # equipment" gives a duty to the document's other party, whom the clause need not name.
    if holder and not _names_in(clause, [holder]) and (not parties or other not in parties):
        return ("unchecked", f"{holder} is not a party of your clause, so this reads as a rename, not a right "
                             "moved; read the draft.")
    return None


# Words keeping part of a clause as it is ("same four heads" keeps the heads, not a party's place).
_KEEPS_PART = re.compile(r"\b(?:leave|keep|stays?|remains?|unchanged|as it is|alone|untouched|where it is)\b", re.I)


def _flip_swapped(part: Part, clause: str, draft: str) -> tuple[str, str] | None:
    """A sentence the flip rewrote names the two parties as the clause did, swapped: "WPD ...
    indemnify CNS ... resulting from WPD's" becomes "CNS ... indemnify WPD ... resulting from CNS's".
    One where only some names moved may be half moved ("claims caused by WPD's own conduct" left) or
    right ("Customer's use of the Product" stays): not checked. Read only where the lawyer keeps
    nothing of it ("leave", "keep", a limb only)."""
    holder, other = part.params.get("holder"), part.params.get("other")
    if not holder or not other or part.scope.partial or _KEEPS_PART.search(part.text):
        return None
    mine, theirs = _sentences(clause), _sentences(draft)
    if len(mine) != len(theirs):
        return None

    def count(text: str, name: str) -> int:
        return len(_name_at(text, name))
    for a, b in zip(mine, theirs):
        if a == b:
            continue
        h1, o1, h2, o2 = count(a, holder), count(a, other), count(b, holder), count(b, other)
        if h1 + o1 == h2 + o2 and h1 != o1 and (h2, o2) != (o1, h1):
            # Whose each name is ("Customer's use of the Product" stays; "WPD's negligence" must move)
            # cannot be read from the names alone: the lawyer reads it, and it is never said done.
            return ("unchecked", f"Some names in “{_short(b)}” moved and some did not; read whether each is "
                                 "right.")
    return None


# Terms the lawyer says the document lacks: "that form doesn't define Protected Interests", "That
# agreement has no Restricted Period or Covered Customer".
_LACKS = re.compile(r"\b(?:doesn['’]t|does\s+not|don['’]t|do\s+not|has\s+no|have\s+no|hasn['’]t\s+got|lacks?)\s+"
                    r"(?:define|use|have|contain)?\s*(?:an?\s+|the\s+|any\s+)?((?:[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*)*)"
                    r"(?:\s*(?:,|or|and|nor)\s*(?:an?\s+|the\s+|any\s+)?[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*)*)*)")


def _said_undefined_left(ins: Instruction, draft: str) -> tuple[str, str] | None:
    """A conformed draft that keeps a term the instruction says the lawyer's document lacks."""
    for m in _LACKS.finditer(ins.text):
        for term in re.split(r"\s*(?:,|\bor\b|\band\b|\bnor\b)\s*", m.group(1)):
            term = re.sub(r"^(?:an?|the|any)\s+", "", term.strip())
            if len(term) > 2 and re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", draft):
                return ("partly", f"The draft keeps “{term}”, which the instruction says your document does not "
                                  "define.")
    return None


# A quoted standard the lawyer says will not do: "'Reasonable prior notice' won't do".
_WONT_DO = re.compile(r"^\W{0,3}\s*(?:won['’]t|will\s+not|isn['’]t|is\s+not|doesn['’]t|does\s+not|is\s+too|should\s+go|"
                      r"has\s+to\s+go|must\s+go|needs?\s+replacing|is\s+(?:vague|unclear|out))\b", re.I)


def _judged_words_left(part: Part, clause: str, draft: str) -> tuple[str, str] | None:
    """Words of the clause the part quotes and says will not do must be gone: every place the clause
    says them ("reasonable prior notice", "reasonable prior written notice"), not only one."""
    for m in re.finditer(r"['‘\"“]([^'’\"”]{6,80})['’\"”]", part.text):
        if not _WONT_DO.match(part.text[m.end():m.end() + 30]):
            continue
        said = [w for w in re.findall(r"[a-z]+", m.group(1).lower()) if len(w) > 2]
        if len(said) < 2:
            continue
        # The words in order, a word or two between them ("reasonable prior written notice").
        loose = re.compile(r"\b" + r"\W+(?:\w+\W+){0,2}?".join(map(re.escape, said)) + r"\b", re.I)
        if loose.search(clause) and loose.search(draft):
            return ("partly", f"The draft still says “{loose.search(draft).group(0)}”, which the instruction says "
                              "will not do.")
    return None


