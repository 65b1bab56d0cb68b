"""A clause's logic: the words on which what it says turns, and how two wordings of it differ.

The core's one reading of a clause's turning words (issue 38): a "not", a condition ("unless",
"subject to", "provided that", "if"), its opposite ("even if", "whether or not",
"notwithstanding"), a limit ("only", "solely"), a duty or a permission ("shall" / "may"), and a
hook on another section ("Subject to Section 1.6"). The drafting checks compare a clause with
its draft through ``differences``: both are read with the parties blanked out first (who is who
is what a flip or a mutual ask changes, never the logic), aligned word by word, and each place
where the words changed is compared by the kinds of turn it holds. Equivalent wordings are one
kind ("unless" = "except where" = "save where"; "shall not ... unless" = "only if"), so a
faithful paraphrase reads the same. Where the two cannot be aligned (a rewording throughout),
``differences`` returns None: not read, never "the same".
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Sequence

from index_builder.reading import polarity as P
from index_builder.reading.references import own_references
from index_builder.reading.sentences import sentence_spans

# Each kind of turn, with its wordings (longest first at each place). A kind is what a faithful
# paraphrase keeps; the words are how lawyers write it.
_KINDS: tuple[tuple[str, str], ...] = (
    # Said-the-same-either-way limits and boilerplate: read as no turn at all ("not to exceed" =
    # "up to"; "notwithstanding anything to the contrary" hangs nothing on anything).
    ("none", r"notwithstanding\s+(?:anything|any\s+(?:other\s+)?provision)[^,.;]{0,60}?to\s+the\s+contrary|"
             r"(?:including|include|includes),?\s+(?:but\s+)?(?:without\s+limitation|not\s+limited\s+to)|"
             r"without\s+(?:limitation|prejudice|limiting)|with\s+or\s+without|"
             r"(?:right|option),?\s+but\s+not\s+the\s+obligation|"
             rf"{P.NOT_A_TURN}"),
    # ("whether due to negligence or otherwise" holds either way, as "whether or not" does.)
    ("regardless", r"even\s+if|even\s+though|whether\s+or\s+not|regardless\s+of(?:\s+whether)?|irrespective\s+of|"
                   r"notwithstanding|despite|whether(?=\s[^,.;:]{1,80}?\bor\s+otherwise\b)"),
    ("subject", r"subject\s+to|bound\s+by"),
    # A time condition: the duty holds only while the state lasts ("while this Agreement is in force",
    # "for so long as Supplier holds the licence"); a draft that drops it changes when the duty holds.
    # ("during" is not read: it is as often a cap's or a fee's window, "the fees paid during the 12 months".)
    ("while", r"while|whilst|for\s+(?:so|as)\s+long\s+as"),
    ("unless", P.UNLESS_WORDING),
    ("if", r"provided\s*,?\s*(?:however\s*,?\s*)?that|provided\s*,\s*however|so\s+long\s+as|as\s+long\s+as|"
           r"on\s+condition\s+that|conditional\s+(?:up)?on|in\s+the\s+event\s+(?:that|of)|if|in\s+case"),
    # An inclusion, the plain opposite of an exception at its place ("including" -> "except").
    ("include", P.INCLUDE_WORDING),
    ("only", P.ONLY_WORDING),
    # ("neither ... nor" is one "not": "Neither X nor Y shall" says what "X shall not" did, for both.)
    # A cap or a time limit, said with a "not" or without ("not to exceed" = "up to" = "no more than").
    ("limit", P.LIMIT_WORDING),
    ("floor", P.FLOOR_WORDING),
    ("not", P.NOT_WORDING),
    # A permission said as a right; a duty said as an agreement ("agrees to", "is required to").
    ("may", r"may|(?:shall|will)\s+(?:have\s+the\s+right|be\s+entitled|be\s+permitted)\s+to|"
            r"(?:shall|will)\s+be\s+free(?=\s+(?:not\s+)?to\b)|"
            r"(?:is|are)\s+(?:entitled|permitted|free)\s+to|has\s+the\s+right\s+to|can"),
    ("duty", r"shall|must|will|agrees?\s+to|(?:is|are)\s+(?:required|obliged|obligated)\s+to|undertakes?\s+to"),
)
_TURN = re.compile("|".join(rf"(?P<{kind}>\b(?:{words})\b)" for kind, words in _KINDS), re.I)
# "the greater of" turned into "the lesser of" turns a floor into a ceiling ("the earlier of" into "the
# later of" a term's end into its last event): a pair of opposite
# words is its own kind, read on each side of the pair.
GREATER_WORDING = r"greater|higher|larger|longer|more|maximum|later"
LESSER_WORDING = r"lesser|lower|smaller|shorter|less|fewer|minimum|earlier"
_OPPOSITE = re.compile(rf"\b(?:(?P<greater>{GREATER_WORDING})|(?P<lesser>{LESSER_WORDING}))\s+of\b", re.I)
# A comparison said before what it measures: "at the same (or a lesser) scale", "a longer period".
_COMPARED = re.compile(rf"\b(?:(?P<greater>{GREATER_WORDING})|(?P<lesser>{LESSER_WORDING}))\b\W{{0,3}}(?P<what>[a-z]{{3,}})", re.I)


def comparisons(text: str) -> list[tuple[str, str, str]]:
    """Each comparison of the text that names what it measures, as (its side, "greater" or "lesser"; its
    word as written; the word it measures, lower case): "a lesser scale" -> ("lesser", "lesser", "scale").
    A faithful rewording keeps the side; turning it ("a larger scale") turns the test round."""
    return [("greater" if m.group("greater") else "lesser", m.group("greater") or m.group("lesser"),
             m.group("what").lower()) for m in _COMPARED.finditer(text)
            if m.group("what").lower() not in ("than", "of", "and", "or", "the", "that", "then")]


@dataclass(frozen=True)
class Turn:
    kind: str  # "not", "unless", "subject", "while", "if", "regardless", "include", "only", "may", "duty", "limit", "floor",
    # "greater", "lesser", "hook"
    text: str  # as written
    start: int
    end: int


def turns(text: str) -> list[Turn]:
    """Every turning word of ``text``, in order (a "not" in "not to exceed" is none)."""
    out = [Turn(m.lastgroup or "", m.group(0), m.start(), m.end()) for m in _TURN.finditer(text)
           if m.lastgroup and m.lastgroup != "none"]
    out += [Turn(m.lastgroup or "", m.group(0), m.start(), m.end()) for m in _OPPOSITE.finditer(text)]
    # A hook on another section of this agreement: "Subject to Section 1.6", "pursuant to Clause 4".
    out += [Turn("hook", text[s:e], s, e) for s, e, _, _ in own_references(text)]
    return sorted(out, key=lambda t: t.start)


# Who is who: a party's name, its possessive, "each party", "the other party", "it", "its".
_GENERIC_PARTY = (r"(?:(?:each|either|any|a|that|such|whichever|both|the\s+(?:other|relevant|applicable|terminating|"
                  r"notifying|requesting|receiving|disclosing|affected|first|second))\s+)?(?:part(?:y|ies)|other)(?:['’]s?)?|"
                  r"(?:both|each)\s+of\s+(?:them|us)|it(?:s|self)?|they|them|their|themselves|he|she|his|her")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’&.-]*")


def said_on(text: str, t: Turn) -> str:
    """What a condition or a limit hangs on: the words after its turn, to the next stop or comma."""
    m = re.match(r"[^,;.:()]{0,160}", text[t.end:])
    return (m.group(0) if m else "").strip()


def counts(found: Sequence[Turn]) -> dict[str, int]:
    """How many turns of each kind; a condition however written ("unless", "if", "subject to") one kind."""
    out: dict[str, int] = {}
    for t in found:
        key = "condition" if t.kind in ("unless", "if", "subject") else t.kind
        out[key] = out.get(key, 0) + 1
    return out


def _party_spans(text: str, names: Sequence[str]) -> list[tuple[int, int]]:
    # Names as written (a capitalised "Company" is the party, "company" may not be); the generic
    # words in any case.
    alt = "|".join(re.escape(n) for n in sorted({n for n in names if n}, key=len, reverse=True))
    named = rf"|(?<![\w-])(?:{alt})(?:['’]s?)?(?![\w-])" if alt else ""
    pattern = rf"(?:\b(?i:the)\s+)?(?:\b(?i:{_GENERIC_PARTY})\b{named})"
    return [(m.start(), m.end()) for m in re.finditer(pattern, text)]


def _tokens(text: str, names: Sequence[str]) -> list[tuple[str, int, int]]:
    """The text's words, lower-cased, each party mention (and a run of them: "Backhaul and Buyer") one "<p>"."""
    spans = _party_spans(text, names)
    out: list[tuple[str, int, int]] = []
    i = 0
    for m in _WORD.finditer(text):
        while i < len(spans) and spans[i][1] <= m.start():
            i += 1
        if i < len(spans) and spans[i][0] <= m.start() < spans[i][1]:
            if out and out[-1][0] == "<p>":
                out[-1] = ("<p>", out[-1][1], max(out[-1][2], spans[i][1]))
            elif len(out) >= 2 and out[-1][0] in ("and", "or", "nor") and out[-2][0] == "<p>":
                out.pop()
                out[-1] = ("<p>", out[-1][1], spans[i][1])
            else:
                out.append(("<p>", spans[i][0], spans[i][1]))
            continue
        out.append((m.group(0).lower().rstrip(".").replace("’", "'"), m.start(), m.end()))
    return out


@dataclass(frozen=True)
class Difference:
    """One place where the draft's logic is not the clause's: ``dropped`` kinds the clause had there and
    the draft does not, ``added`` kinds the draft has and the clause did not."""

    old: str  # the clause's words there
    new: str  # the draft's words there
    old_start: int
    old_end: int
    dropped: tuple[Turn, ...]
    added: tuple[Turn, ...]
    inserted: bool  # the draft's words there are a passage of their own (a new sentence or limb)


# Wordings that say the same thing with other kinds: "shall not ... unless" = "only if"; "shall not ...
# without consent" = "may ... only with consent"; "unless" = "if ... not"; "neither ... nor" = "not ... or".
_SAME = (({"duty", "not", "unless"}, {"may", "only", "include"}), ({"not", "unless"}, {"only", "include"}),
         ({"duty", "not", "unless"}, {"may", "only"}), ({"not", "duty"}, {"unless"}), ({"limit"}, {"not", "limit"}),
         ({"floor"}, {"not", "floor"}),
         ({"not", "may"}, {"unless"}), ({"not", "unless"}, {"only"}), ({"not", "unless"}, {"only", "if"}),
         ({"unless"}, {"if", "not"}), ({"not", "unless"}, {"only", "duty"}), ({"not", "may"}, {"not", "duty"}),
         ({"not", "duty"}, {"not", "may"}), ({"while"}, {"if"}))
# Aligned word sequences below this share are two texts, not one text edited.
ALIGNED = 0.5


def differences(clause: str, draft: str, names: Sequence[str] = ()) -> list[Difference] | None:
    """Where the draft turns differently from the clause, parties read as one word; None where the two
    cannot be aligned (a rewording throughout), which is not the same as no difference."""
    a, b = _tokens(clause, names), _tokens(draft, names)
    matcher = difflib.SequenceMatcher(None, [t for t, _, _ in a], [t for t, _, _ in b], autojunk=False)
    if not a or not b or matcher.ratio() < ALIGNED:
        return None
    mine, theirs = turns(clause), turns(draft)
    out = []
    for tag, i1, i2, j1, j2 in _merged(matcher.get_opcodes()):
        os_, oe = (a[i1][1], a[i2 - 1][2]) if i2 > i1 else (a[min(i1, len(a) - 1)][1],) * 2
        ns, ne = (b[j1][1], b[j2 - 1][2]) if j2 > j1 else (b[min(j1, len(b) - 1)][1],) * 2
        old = [t for t in mine if os_ <= t.start < oe or (i2 > i1 and t.start < oe <= t.end)]
        new = [t for t in theirs if ns <= t.start < ne or (j2 > j1 and t.start < ne <= t.end)]
        dropped, added = _unmatched(old, new)
        if dropped or added:
            out.append(Difference(clause[os_:oe], draft[ns:ne], os_, oe, tuple(dropped), tuple(added),
                                  inserted=i2 == i1 and j2 - j1 >= 8))
    return _within_sentences(clause, out)


def _within_sentences(clause: str, found: list[Difference]) -> list[Difference]:
    """Equivalents split over two edits of one sentence ("shall not assign ... without consent" -> "may
    assign ... only with consent") matched again across the sentence's edits."""
    out: list[Difference] = []
    for start, end in sentence_spans(clause) or [(0, len(clause))]:
        group = [d for d in found if start <= d.old_start < end or (d.old_start == d.old_end == end)]
        if len(group) < 2:
            out += group
            continue
        # A passage the draft adds of its own (a new limb) says its own thing, read by the additions check:
        # its words never stand in for a limb the draft drops elsewhere in the sentence ("which consent shall
        # not be unreasonably withheld" gone, "(c) ... without the consent of" added).
        left, right = _unmatched([t for d in group for t in d.dropped],
                                 [t for d in group if not d.inserted for t in d.added])
        right += [t for d in group if d.inserted for t in d.added]
        for d in group:
            d = Difference(d.old, d.new, d.old_start, d.old_end, tuple(t for t in d.dropped if t in left),
                           tuple(t for t in d.added if t in right), d.inserted)
            if d.dropped or d.added:
                out.append(d)
    return sorted(set(out), key=lambda d: d.old_start)


def _merged(opcodes: Sequence[tuple[str, int, int, int, int]]) -> list[tuple[str, int, int, int, int]]:
    """Edits with at most two equal words between them read as one ("unless approved" -> "even if approved"
    is one turn changed, not a word dropped here and another added there)."""
    out: list[list] = []
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            continue
        if out and i1 - out[-1][2] <= 2 and j1 - out[-1][4] <= 2:
            out[-1][2], out[-1][4] = i2, j2
            out[-1][0] = "replace"
        else:
            out.append([tag, i1, i2, j1, j2])
    return [tuple(x) for x in out]  # type: ignore[misc]


def _unmatched(old: list[Turn], new: list[Turn]) -> tuple[list[Turn], list[Turn]]:
    """The turns of one place that the other side does not say, kind for kind, equivalents matched."""
    left, right = list(old), list(new)
    for t in list(left):
        same = next((u for u in right if u.kind == t.kind), None)
        if same is not None:
            left.remove(t)
            right.remove(same)
    kinds_l, kinds_r = {t.kind for t in left}, {t.kind for t in right}
    for x, y in _SAME:
        for p, q in ((x, y), (y, x)):
            if p <= kinds_l and q <= kinds_r:
                left = [t for t in left if t.kind not in p]
                right = [t for t in right if t.kind not in q]
                kinds_l, kinds_r = {t.kind for t in left}, {t.kind for t in right}
    return left, right


# Which of two documents or terms wins a conflict: "the Cover Page will control over the NDA Terms";
# "If there is any inconsistency between the Order Form and the Standard Terms, the Order Form will
# control". Each side is read by its capitalised name (a document or a defined term), the words a
# lawyer's rewording keeps.
PRECEDENCE_VERB = r"(?:control|controls|prevail|prevails|takes?\s+precedence|(?:has|have|takes?)\s+priority|wins?)"
# (Said of its subject with nothing after it but the other side or the conflict: "will control each party's
# rights" governs, it ranks nothing.)
_PRECEDENCE = re.compile(rf"\b{PRECEDENCE_VERB}\b(?=\s*(?:over|for|in|if|where|with|to\s+the\s+extent|[,;.]|$))", re.I)
_NAME = re.compile(r"(?<![\w-])[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*")
# A capitalised word that opens a sentence names nothing ("The NDA Terms": "The" is no name).
_NOT_NAMES = frozenset("the a an any each this that these those if in where when".split())


_CONFLICT = re.compile(r"\b(?:conflict|inconsisten|disagree|differ)", re.I)


def _names(words: str) -> list[str]:
    found = [" ".join(w for n, w in enumerate(name.split()) if n or w.lower() not in _NOT_NAMES)
             for name in _NAME.findall(words)]
    return [n for n in found if n]


def precedence(text: str) -> list[tuple[str, str]]:
    """Each order of precedence of the text, as (the winner's name, the loser's name): the last name
    before the verb in its part of the sentence; the first name after "over", or else the one other name
    its sentence sets against the winner ("between A and B"). None where either is not plain."""
    out = []
    for start, end in sentence_spans(text) or [(0, len(text))]:
        sentence = text[start:end]
        for m in _PRECEDENCE.finditer(sentence):
            part = re.split(r"[,;:]", sentence[:m.start()])[-1]
            before = _names(part)
            if not before:
                continue
            winner = before[-1]
            # The winner is the verb's subject, a word or two before it ("the Order Form will control"); a
            # name further off ("... as to Personal Data and will prevail") is another verb's object.
            gap = part[part.rfind(winner) + len(winner):]
            if len(gap.split()) > 2 or re.search(r"\b(?:and|or|but)\b", gap, re.I):
                continue
            over = re.match(r"\s+over\s+([^,;.:()]{2,80})", sentence[m.end():])
            # ("the DPA will control in the event of any conflict with this Agreement": the loser after the verb,
            # named or not, "... with it".)
            against = re.match(r"[^,;.:]{0,40}?\b(?:conflict|inconsisten\w*)\s+(?:with|between)\s+([^,;.:()]{2,80})",
                               sentence[m.end():])
            if over:
                others = _names(over.group(1))[:1]
            elif against:
                others = [n for n in _names(against.group(1)) if n.lower() != winner.lower()][:1]
                if not others:
                    out.append((winner, ""))
                    continue
            else:
                others = list(dict.fromkeys(n for n in _names(sentence[:m.start()]) if n.lower() != winner.lower()))
            if len(others) == 1:
                out.append((winner, others[0]))
            elif not others and _CONFLICT.search(sentence[:m.start()]):
                # "If the two parts conflict, the Standard Terms win": the loser is the other side, unnamed.
                out.append((winner, ""))
    return out
