"""Which way an act runs between two parties: who grants, assigns, releases, pays or notifies, and whom.

A lawyer reads the direction of a transfer off its grammar: the party named as the subject before the
verb gives ("CSA ... grants to Company", "Individual hereby releases Lifeway"), the party named after
it receives ("releases Lifeway", "transfers unto the Assignor", "reimburses the Sub-Advisor's costs");
a passive names the giver after "by" ("is released by Individual"). A party named after a preposition
before the verb ("as agent for Talent") describes the subject and gives nothing. Rewording, shortening
or a plain-English rewrite never turns such an act round; only an ask to move it does.

``directions(text, names)`` lists ``Direction(stem, giver, receiver, start)`` for each act whose both
sides are named parties (a pronoun or "each party" names no side here: binding.py reads those).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from index_builder.reading.binding import party_mentions, uses
from index_builder.reading.sentences import part_spans

# Acts that pass something from one party to another (the one home of this list).
_ACT = re.compile(r"\b(?P<stem>grant|assign|transfer|sell|sold|convey|licen[cs]|releas|discharg|pay|paid|reimburs|"
                  r"indemnif|notif|deliver|lend|lent|giv|gave)(?:e|es|ed|s|ing|ies|ied|y|en)?\b", re.I)
_SAME = {"sold": "sell", "paid": "pay", "lent": "lend", "licens": "licenc", "gave": "giv"}
# Words before a name that make it no subject: the name describes something ("as agent for Talent", "the
# fees of Sponsor", "to Company") or conditions it ("if Employer believes").
_NOT_SUBJECT = re.compile(r"\b(?:for|of|to|unto|by|from|with|against|as|on\s+behalf\s+of|if|unless|when|whether|"
                          r"until|than|between)\s+$", re.I)
_AGENT = re.compile(r"^\s*(?:,\s*)?(?:\w+\s+){0,2}?by\s+$", re.I)
# Where a receiver stops being the act's: a condition, a proviso, or another clause of the sentence.
_STOP = re.compile(r"\b(?:if|unless|when|where|provided|except|subject|which|who|that)\b|[;:]", re.I)
_WINDOW = 120


@dataclass(frozen=True)
class Direction:
    stem: str  # the act: "grant", "releas", "pay"
    giver: str
    receiver: str
    start: int  # where the verb is


def directions(text: str, names: Sequence[str]) -> list[Direction]:
    """Every act in ``text`` with a giver or a receiver among ``names`` (the other side "" where it names
    no party: "[Corporation] ... transfers to the Assignor"), in order. Text written all in lower case
    (an instruction read so) is searched for the names case-blind."""
    # ("Party" names either side: it says nothing of which way an act runs.)
    names = [n for n in names if n and n.strip() and not re.fullmatch(r"part(?:y|ies)", n.strip(), re.I)]
    if text.islower():
        spots = sorted((m.start(), m.end(), n, bool(m.group(1))) for n in names for m in re.finditer(
            rf"(?<![\w-])(?:the\s+)?{re.escape(n)}(['’]s?)?(?![\w-])", text, re.I))
    else:
        spots = sorted((a, b, n, own) for n in names for a, b, own in party_mentions(text, n))
    out = []
    for start, end in part_spans(text):
        for m in _ACT.finditer(text, start, end):
            if not _finite(text, m) or _enclosed(text, m.start()):
                continue  # "attorney-in-fact to transfer", "[shares assigned]": no act of a party's
            before = [(a, b, n, own) for a, b, n, own in spots if start <= a and b <= m.start()]
            after = [(a, b, n, own) for a, b, n, own in spots if m.end() <= a < min(end, m.end() + _WINDOW)]
            agent = next((s for s in after if _AGENT.match(text[m.end():s[0]])), None)
            if agent:
                # "Lifeway is released by Individual": the giver after "by", the receiver the subject before.
                giver = agent[2]
                receiver = next((n for a, b, n, own in reversed(before) if n != giver and not own and not _NOT_SUBJECT.search(
                    text[max(start, a - 30):a])), "")
            elif _PASSIVE_BEFORE.search(text[max(start, m.start() - 20):m.start()]):
                # "Emdeon is hereby granted a right": the subject receives; who gives is not said here.
                giver = ""
                receiver = next((n for a, b, n, own in reversed(before) if not own and not _NOT_SUBJECT.search(
                    text[max(start, a - 30):a])), "")
            else:
                # (An owner is no subject: "Distributor's appointment ... grants to Distributor".)
                giver = next((n for a, b, n, own in reversed(before) if not own
                              and not _NOT_SUBJECT.search(text[max(start, a - 30):a])), "")
                receiver = next((n for a, b, n, own in after if n != giver
                                 and not _STOP.search(text[m.end():a])
                                 and not re.search(r"\b(?:by|of)\s+(?:the\s+)?$", text[max(m.end(), a - 8):a], re.I)), "")
            if giver and _joint(text, before, giver):
                continue  # "each of A and B grants the other", "Neither A nor B may assign": both give
            if (giver or receiver) and giver != receiver:
                stem = m.group("stem").lower()
                out.append(Direction(_SAME.get(stem, stem), giver, receiver, m.start()))
    return out


# A verb a party performs: "grants", "hereby sells", "shall pay", "agrees to indemnify", "is released by".
_MODAL_BEFORE = re.compile(r"\b(?:shall|will|must|may|agrees?\s+to|undertakes?\s+to|covenants?\s+to)\s+"
                           r"(?:(?:not|also|then|first|promptly|hereby|immediately)\s+)*$", re.I)
_PASSIVE_BEFORE = re.compile(r"\b(?:is|are|be|been)\s+(?:hereby\s+)?$", re.I)


def _finite(text: str, m: re.Match[str]) -> bool:
    word = m.group(0).lower()
    if word in ("sold", "paid", "lent", "gave") or word.endswith("ed") or word.endswith("en"):
        return bool(_PASSIVE_BEFORE.search(text[max(0, m.start() - 20):m.start()]) or word == "gave")
    if word.endswith("s") and not word.endswith("ss"):
        return True  # "grants", "releases", "notifies"
    if word.endswith("ing"):
        return False
    # The base form ("pay", "grant"): after a modal, or a verb of a list after another ("sells, assigns, and
    # transfers"; "defend, indemnify and hold").
    before = text[max(0, m.start() - 40):m.start()]
    return bool(_MODAL_BEFORE.search(before) or re.search(r"(?:,|\band|\bor)\s+$", before) and
                _MODAL_BEFORE.search(re.sub(r"(?:[\w-]+,?\s+(?:and\s+|or\s+)?)+$", "", before) + " "))


def _joint(text: str, before: list[tuple[int, int, str, bool]], giver: str) -> bool:
    """The giver is the second of two parties named together as one subject ("A and B", "neither A nor B")."""
    at = max((i for i, (_, _, n, own) in enumerate(before) if n == giver and not own), default=0)
    if at == 0:
        return False
    a, b, _, own = before[at - 1]
    # ("PPD assigns to VS, and VS assigns to PPD": the first is the object of the act before, no subject.)
    return not own and not _NOT_SUBJECT.search(text[max(0, a - 30):a]) and \
        bool(re.fullmatch(r"\s*,?\s*(?:and|or|nor)\s+", text[b:before[at][0]], re.I))


def _enclosed(text: str, at: int) -> bool:
    """Inside square brackets (a blank's label) or a parenthesis."""
    before = text[:at]
    return before.count("[") > before.count("]") or before.count("(") > before.count(")")


def reversed_acts(mine: Sequence[Direction], theirs: Sequence[Direction]) -> list[tuple[Direction, Direction]]:
    """Acts of ``mine`` that ``theirs`` has only the other way round: its giver now receives, or its receiver
    now gives, and no act of the same kind keeps either on its side. (The act as in ``mine``, as in
    ``theirs``.) An act ``theirs`` has both ways (a mutual grant written out) is no reversal. Only acts read
    with both sides named count: one side unread is too often a subject said elsewhere ("will not
    reimburse Contractor's expenses", "may not be assigned by either Party")."""
    out = []
    theirs = [t for t in theirs if t.giver and t.receiver]
    for d in [d for d in mine if d.giver and d.receiver]:
        ways = [t for t in theirs if t.stem == d.stem]
        turned = [t for t in ways if (d.giver and t.receiver == d.giver) or (d.receiver and t.giver == d.receiver)]
        kept = [t for t in ways if (d.giver and t.giver == d.giver) or (d.receiver and t.receiver == d.receiver)]
        if turned and not kept:
            out.append((d, turned[0]))
    return out


def mentions_swapped(clause: str, draft: str, names: Sequence[str]) -> tuple[str, str] | None:
    """Two parties named in each other's places all through: the draft names the clause's parties in the
    clause's order with each of two put where the other was ("Shipper's inventory ... Transporter will
    require Shipper" -> "Transporter's inventory ... Shipper will require Transporter"). A rewording keeps who
    is who whatever its words; only a flip or a mutual ask moves a party, so a swap of every mention is a
    reversal. At least three mentions, the two named unequally often, so that a sentence merely turned
    round ("A pays B" -> "B is paid by A") is no swap."""
    both = [n for n in names if uses(clause, n) and uses(draft, n)]
    if len(both) != 2:
        return None
    mine, theirs = mention_order(clause, both), mention_order(draft, both)
    a, b = both
    if len(mine) < 3 or mine.count(a) == mine.count(b):
        return None
    swap = {a: b, b: a}
    return (a, b) if [swap[n] for n in mine] == theirs else None


def mention_order(text: str, names: Sequence[str]) -> list[str]:
    """The names as ``text`` mentions them, in order (a longer name is read before a shorter one inside it)."""
    spots = sorted((a, -b, n) for n in names for a, b, _ in party_mentions(text, n))
    out, end = [], -1
    for a, b, n in spots:
        if a >= end:
            out.append(n)
            end = -b
    return out
