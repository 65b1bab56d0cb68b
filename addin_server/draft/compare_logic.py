"""The meaning check's reading of a clause's logic across a change of parties (reading/logic.py reads
it; this says which differences the instruction does not explain, in a lawyer's words).

A flip or a mutual ask moves rights between the parties; the core aligns clause and draft with the
parties blanked, so what is left is the logic: a condition dropped while making an exit mutual,
"unless approved" turned into "even if approved" while flipping, a "not" added, a hook on another
section gone. None where the two cannot be aligned: the check then says "not checked", as before.
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import binding
from index_builder.reading import logic as L
from index_builder.reading import polarity as P

from addin_server.draft.compare_base import STOP_STEMS, Allowances, short, stem_list, stem_set

# What a lawyer loses when a turn of each kind goes.
_WHY = {
    "unless": "a condition or exception your clause sets is gone",
    "if": "a condition your clause sets is gone",
    "while": "the time your clause limits it to is gone, so it now holds at other times too",
    "subject": "what your clause makes subject to something no longer is",
    "regardless": "what held either way now depends on it",
    "only": "it now allows more than your clause does",
    "not": "it now says the opposite",
    "hook": "the reference that ties it to another section is gone",
}
# ("cut both ways" asks for a mutual provision, nothing to go; "no longer than 80 words" is a length.)
_DROP_ASK = re.compile(r"\b(?:drop|delete|remove|strike|take\s+out|cut(?!s?\s+both\s+ways)|omit|lose|get\s+rid\s+of|"
                       r"no\s+longer(?!\s+than)|do\s+not\s+carry|don't\s+carry|without\s+the)\b", re.I)
# What an ask to drop names when it is about the form, not the content: "lose the block capitals", "remove
# the legalese", "cut the unnecessary words", "cut it down to 80 words". Such an ask takes nothing out of
# what the clause says ("remove the words 'without limitation'", "drop the words in brackets" name words of the
# clause: content).
_FORM_DROPPED = re.compile(
    r"\s+(?:(?:it|this|that|the\s+(?:clause|text|draft|thing))\s+)?(?:down|back|short(?:er)?|to\s+(?:under\s+)?\S+\s+words|"
    r"by\s+(?:a\s+)?(?:third|half|quarter|\S+\s*(?:%|per\s*cent|percent|words)))\b"
    r"|\s+(?:(?:the|all|any|its|some|of|that|this|those|these)\s+)*(?:[\w-]+\s+)?(?:capitals|caps|capitali[sz]ation|"
    r"upper[- ]?case|legalese|jargon|archaisms?|lawyer-?speak|waffle|fluff|padding|verbiage|wordiness|repetitions?|"
    r"length|word\s+count|shouting|words(?=\s*(?:[,.;:!?)]|and\b|or\b|please\b|$))|hereins?|hereofs?|hereunders?|thereofs?)\b", re.I)


def logic_changes(clause: str, draft: str, allow: Allowances, instruction: str,
                  parties: Sequence[str] = (), rewording: bool = False, only_rewording: bool = False) -> list[str] | None:
    """What now turns differently in a part the instruction does not ask to change; None where the core
    cannot align clause and draft. ``rewording``: the instruction asks for the clause shorter or in plain
    words, which says its conditions in other places: only a condition turned round is read there (and a "not"
    lost at one short place; a duty made an option where the instruction asks for nothing but the rewording,
    ``only_rewording``: an ask that also hands a party a choice may make "will" "may")."""
    names = binding.party_names(clause + "\n" + draft, parties)
    found = L.differences(clause, draft, names)
    if found is None:
        return None
    asked = " ".join(instruction.lower().replace("’", "'").split())
    # A turn moved rather than lost: the draft says as many of its kind as the clause does.
    was, now = L.counts(L.turns(clause)), L.counts(L.turns(draft))
    have = stem_set(draft)
    out = []
    for d in found:
        if inside(d.old_start, d.old_end, allow.delete) or inside(d.old_start, d.old_end, asked_spans(clause, asked)) \
                or any(f.text in d.old for f in allow.old_figures):
            continue  # what the instruction deletes, quotes or sets a new figure in
        turned = _turned(d, clause, draft) or _excepted(d, allow)
        if turned:
            if all(_unasked(t, asked) for t in turned):
                said, says = turned[0].text.strip(), turned[1].text.strip()
                out.append(f"The draft turns “{said}” into “{says}”{_where(clause, d)}, which your instruction does not "
                           "ask for: your clause now says something else.")
            continue
        if rewording or allow.drop_ok:
            # A rewording says its conditions in other places, but "will maintain" -> "may maintain" at one
            # place is a duty made an option however the rest is worded.
            # So is a "not" lost at one place of a few words ("do not intend" -> "intend") where the draft
            # says fewer of them in all.
            modal = _modal(clause, draft, d) if rewording and only_rewording else ""
            if modal:
                out.append(modal)
            elif rewording and not allow.drop_ok and len(d.old.split()) <= 4 and len(d.new.split()) <= 4 and \
                    any(t.kind == "not" and _lost(t, clause, draft, was, now, have, allow) and not _without(t, d)
                        for t in d.dropped) \
                    and not d.added and not asks_drop(asked):
                out.append(f"The draft drops “{short(d.old, 70)}” from your clause, which your instruction does not ask "
                           f"for: {_WHY['not']}.")
            continue
        # (A dropped turn the instruction names is one it keeps, "Keep the Section 1.6 hook", unless it asks
        # for something to go.)
        dropped = [t for t in d.dropped if _lost(t, clause, draft, was, now, have, allow) and not _without(t, d)]
        if dropped and not asks_drop(asked):
            out.append(f"The draft drops “{short(d.old, 70)}” from your clause, which your instruction does not ask "
                       f"for: {_WHY[dropped[0].kind]}.")
            continue
        # A "not" gained in a word or two's change (a longer passage is a sentence said again, for the
        # other party or in other words: the additions check reads what it adds).
        added = [t for t in d.added if t.kind == "not" and now.get("not", 0) + now.get("limit", 0) >
                 was.get("not", 0) + was.get("limit", 0)
                 and len(d.old.split()) <= 4 and len(d.new.split()) <= 4 and not d.inserted
                 # An exception asked for is said with a "not" ("shall not apply to fraud"); a bare "not" in
                 # words the instruction leaves ("are permitted" -> "are not permitted") is none.
                 and not (allow.exception and _EXCEPTS.search(d.new))
                 and not allow.mirror and not _NEGATIVE_WORD.search(d.old)
                 # "Neither party's liability shall exceed" is "each party's ... shall not exceed": a cap.
                 and not (t.text.lower() == "neither" and re.search(r"\bexceed", draft, re.I))]
        if added:
            out.append(f"The draft adds “{added[0].text}” (“{short(d.new, 60)}”), which your instruction does not ask "
                       "for: it now says the opposite.")
            continue
        modal = _modal(clause, draft, d)
        if modal:
            out.append(modal)
    return out


# A condition turned into its opposite: "unless approved" -> "even if approved"; "the greater of" ->
# "the lesser of"; a ceiling into a floor ("not to exceed" / "only once a year" -> "at least").
_OPPOSITE_KINDS = ({"unless", "if", "subject"}, {"regardless"}), ({"greater"}, {"lesser"}), ({"limit", "only"}, {"floor"})


def _one_way(t: L.Turn, text: str) -> bool:
    """A limit that is a ceiling: a bare "exceeds" is a floor ("provided the amount equals or exceeds
    $50,000") unless a "not" before it in its sentence makes it a ceiling ("in no event shall ... exceed")."""
    if t.kind != "limit" or not re.match(r"exceed", t.text, re.I):
        return True
    before = re.split(r"[.;:]", text[max(0, t.start - 240):t.start])[-1]
    if re.search(r"\b(?:equals?|meets?|matches?)\s+or\s+$", before, re.I):
        return False  # "equals or exceeds $162,164" is "is at least", whatever "not" comes before it
    return bool(re.search(rf"\b(?:{P.NOT_WORDING})\b", before, re.I))


def _turned(d: L.Difference, clause: str, draft: str) -> tuple[L.Turn, L.Turn] | None:
    for x, y in _OPPOSITE_KINDS:
        for p, q in ((x, y), (y, x)):
            a = next((t for t in d.dropped if t.kind in p and _one_way(t, clause)), None)
            b = next((t for t in d.added if t.kind in q and _one_way(t, draft)), None)
            if a is not None and b is not None:
                return a, b
    b = next((t for t in d.added if t.kind == "regardless" and t.text.lower() != "whether"), None)
    # ("whether for compensation or without compensation" -> "whether or not for compensation": it held
    # either way already.)
    if b is not None and not d.inserted and d.old.strip() and not re.search(r"\bwhether\b.+\bor\b", d.old, re.I):
        # "permitted successors" -> "successors, whether or not permitted": a limit now holds either way.
        # (Not "whether ... or otherwise" added: "by operation of law or otherwise" said it already.)
        return L.Turn("limit", short(d.old, 40), d.old_start, d.old_end), b
    return None


def _without(t: L.Turn, d: L.Difference) -> bool:
    """A "not" said again by "without" in its place: "in a manner that does not cause" -> "without"."""
    return t.kind == "not" and bool(re.search(r"\bwithout\b", d.new, re.I))


def asks_drop(asked: str) -> bool:
    """The instruction asks for something of the clause's content to go. "without the counterparty's consent"
    describes a right the ask gives (the polarity reader's exception), not words to take out; "lose the block
    capitals" asks about the form."""
    text = _WITHOUT_ASSENT.sub(" ", asked)
    return any(not _FORM_DROPPED.match(text, m.end()) for m in _DROP_ASK.finditer(text))


_WITHOUT_ASSENT = re.compile(rf"\b(?=without\b)(?:{P.UNLESS_WORDING})[^,;.]*", re.I)


def _excepted(d: L.Difference, allow: Allowances) -> tuple[L.Turn, L.Turn] | None:
    """An exception and an inclusion swapped at one place of a few words, nothing else said there:
    "including to an affiliate" -> "except to an affiliate", "without the consent of" -> "with the consent
    of". What the clause took in is now left out, or what it freed now needs assent. (A longer passage
    that swaps them is a limb said again, read by the other checks; a carve-out asked for may except.)"""
    if d.inserted or len(d.old.split()) > 4 or len(d.new.split()) > 4:
        return None
    for p, q in (("unless", "include"), ("include", "unless")):
        a = [t for t in d.dropped if t.kind == p]
        b = [t for t in d.added if t.kind == q]
        rest = [t for t in d.dropped + d.added if t.kind not in (p, q)]
        if a and b and not rest and not (q == "unless" and allow.exception):
            return a[0], b[0]
    return None


def _lost(t: L.Turn, clause: str, draft: str, was: dict[str, int], now: dict[str, int], have: set[str],
          allow: Allowances) -> bool:
    """A turn the draft no longer says anywhere: a "not" fewer; a condition fewer whose words are gone too
    (a paraphrase keeps them: "subject to not being in breach" -> "a party that is not in breach"); a hook
    on a section the draft no longer names."""
    if t.kind == "hook":
        return not allow.conform and t.text not in draft
    key = "condition" if t.kind in ("unless", "if", "subject") else t.kind
    # A mutual draft may say in one sentence what the clause said twice, once for each party: a kind
    # is lost there only when the draft has none of it left.
    fewer = now.get(key, 0) == 0 if allow.mirror else now.get(key, 0) < was.get(key, 0)
    if allow.mirror and t.kind == "not" and not fewer and now.get(key, 0) < was.get(key, 0):
        # What a mutual draft merges away is a "not" said twice, once for each party, and the words it
        # denies stay ("Neither party shall disclose"). A "not" whose own words are gone too ("which consent
        # shall not be unreasonably withheld") was said once, and is lost however many others remain.
        return _words_gone(L.said_on(clause, t), have, 3)
    if t.kind == "not" or not fewer:
        return fewer
    # (A time condition, "while this Agreement is in force", is lost as a condition is: its words gone too.)
    if key not in ("condition", "only", "while"):
        return False
    hangs = [w for w in stem_list(L.said_on(clause, t)) if w not in STOP_STEMS]
    if key == "while":
        # A time is said by few words, and each counts ("while this Agreement is in force": "force"); a
        # paraphrase that says it otherwise says it with a word of this kind ("for so long as"), so is not fewer.
        return len(hangs) >= 1 and not all(w in have for w in hangs)
    return len(hangs) >= 1 and sum(w in have for w in hangs) < 0.5 * len(hangs)


def _words_gone(said: str, have: set[str], first: int) -> bool:
    """None of the first few words a turn hangs on is in the draft (the verb it turns, and its object)."""
    hangs = [w for w in stem_list(said) if w not in STOP_STEMS][:first]
    return bool(hangs) and not any(w in have for w in hangs)


def _modal(clause: str, draft: str, d: L.Difference) -> str:
    """"shall" -> "may" at one place, no "not" there: a duty made an option (or the other way)."""
    a = [t for t in d.dropped if t.kind in ("duty", "may")]
    b = [t for t in d.added if t.kind in ("duty", "may")]
    if not a or not b or a[0].kind == b[0].kind or len(d.old.split()) > 4 or len(d.new.split()) > 4 or \
            re.search(r"\bnot\b|n't\b|\bno\b", d.old + " " + d.new, re.I):
        return ""
    # "must not" -> "may not" (both forbid): the "not" right after the modal, outside the changed words.
    if re.match(r"\s+not\b", clause[a[0].end:]) or re.match(r"\s+not\b", draft[b[0].end:]):
        return ""
    change = "what was required is now optional" if a[0].kind == "duty" else "what was optional is now required"
    return f"The draft turns “{a[0].text}” into “{b[0].text}”{_where(clause, d)}: {change}."


def _where(clause: str, d: L.Difference) -> str:
    """The clause's words around the change, for the lawyer to find it: "(in “... unless approved by ...”)"."""
    start = clause.rfind(" ", 0, max(0, d.old_start - 25)) + 1
    end = clause.find(" ", min(len(clause), d.old_end + 25))
    return f" (in “…{' '.join(clause[start:end if end > 0 else len(clause)].split())}…”)"


def _unasked(t: L.Turn, asked: str) -> bool:
    """A turn whose own words the instruction does not use ("make it 'unless approved'")."""
    words = " ".join(t.text.lower().replace("’", "'").split())
    if t.kind in ("duty", "may", "not"):
        return True  # too common in instructions to tell an ask ("do not change ...")
    return not re.search(rf"(?<!\w){re.escape(words)}(?!\w)", asked)


def asked_spans(clause: str, asked: str) -> list[tuple[int, int]]:
    """Clause text the instruction quotes (what it quotes is what it asks to change)."""
    out = []
    for q in re.findall(r"[‘'\"“]([^'\"“”‘’]{6,200})[’'\"”]", asked):
        at = clause.lower().replace("’", "'").find(q.strip())
        if at >= 0:
            out.append((at, at + len(q.strip())))
    return out


def inside(start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(s <= start and end <= e or max(0, min(end, e) - max(start, s)) >= 0.6 * max(end - start, 1)
               for s, e in spans)


# "inadequate" says "not adequate": a "not" said by the word's own prefix.
_NEGATIVE_WORD = P.negative_prefixed
_EXCEPTS = P.exception(disapplied="score", nothing_in=True)
