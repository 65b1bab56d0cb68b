"""What the instruction says stays, checked on the draft.

Lawyers say what must not change beside what to change: "May 1, 2020 and April 30, 2029 are not
moving", "Every ORS reference has to survive", "KEEP: the [***] rate; Net Sales; ...", "Not touching
277,760 / 130,300 / 27,900". Such a segment is never an ask; it names things of the clause, and each
is checkable where it can be anchored there: a date or a number by value, a reference by its
number, quoted words, a name or defined term, and a described element ("NTC's evidence of an earlier
sample referral") by the words that only it has in the clause. A draft that drops an anchored kept
element fails the meaning check, naming it; one the clause cannot anchor is not checked (never a
guess). A rewording (shorten, plain English) says a described element in other words, so there a
description counts as dropped only when two or more of its own words are all gone.

The keep vocabulary is instruction_words.py's (KEEP_VERBS, STAY_*, KEPT_BEFORE, KEPT_AFTER), the one
list guards.protected (the operations' reader of "leave X at Y") and unambiguous.says_to_keep read too.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from index_builder.reading import dates as D
from index_builder.reading import figures as F
from index_builder.reading.polarity import NOT_WORDING, UNLESS_WORDING
from index_builder.reading.references import references
from index_builder.reading.sentences import sentence_spans

from addin_server.draft.compare_base import STOP, stem_of
from addin_server.draft.instruction_words import (QUOTED_ANY, KEEP_VERBS, KEPT_AFTER, KEPT_BEFORE, STAY_STATES,
                                                  STAY_VERBS)

# A cue after which the kept things are named ("keeping X", "Not touching X", "leave X"); never "leave
# out" / "leave off" (a deletion) or "keep in mind".
_AFTER = re.compile(rf"(?<![\w-])(?:{KEPT_AFTER}|{KEEP_VERBS}(?![\w-])(?!\s+(?:out|off|aside|open|in\s+mind)\b))", re.I)
# A cue after the kept things ("X stays", "X is not moving", "X has to survive").
_BEFORE = re.compile(rf"(?<![\w-])(?:{KEPT_BEFORE}|{STAY_VERBS}|{STAY_STATES})\b", re.I)
# Where a kept span stops (an ask follows) or starts (after an ask): "... but raise the basket to $50k".
_ASK_VERB = (r"(?:make|change|set|raise|lower|cut|add|drop|delete|remove|move|extend|reduce|increase|replace|"
             r"bring|put|shorten|halve|get|give|turn|rewrite|say|fix|correct)")
_STOP_AT = re.compile(rf"\b(?:but|while|whereas)\b|[;,]?\s*(?:and\s+|then\s+|so\s+)?(?:please\s+)?(?<![\w-]){_ASK_VERB}(?![\w-])", re.I)
_START_AFTER_ASK = re.compile(rf"(?<![\w-]){_ASK_VERB}(?![\w-])[^;:]*?(?:,\s*|;\s*|:\s*|\s+and\s+|\s+but\s+)", re.I)
_NEGATED = re.compile(r"\b(?:not|n['’]t|never|no\s+longer)\s+(?:\w+\s+)?$", re.I)
_LIST_LABEL = re.compile(r"^\s*(?:\(?\d{1,2}[.)]|\(?[a-z][.)]|[-*•])\s+")
_PRECEDENT = re.compile(r"\[\d{1,2}\]|\bprecedent\s+\d{1,2}\b", re.I)
# A number as written in a clause: "130,300", "12.3", "659A.082", "2.1.2" (a bracketed tail kept apart).
_TOKEN = re.compile(r"(?<![\w.$])\d[\dA-Za-z]*(?:[.,]\d[\dA-Za-z]*)*")
_BLANK = re.compile(r"\[\s*\*+\s*\]")
# "Every ORS reference", "all Section references": a class of references, all of the clause's that share
# the named word's shape.
_EVERY_REF = re.compile(r"\b(?:every|all|each|any)\s+(?:of\s+the\s+)?(?:(\S+)\s+)?(?:references?|citations?|cross-references?|"
                        r"cites?)\b", re.I)
_NAME = re.compile(r"(?<![\w'’])[A-Z][\w&-]*(?:\s+(?:of\s+)?[A-Z][\w&-]*)*")
_NOT_NAMES = frozenset("""the this that these those every all each any not no keep keeping leave it its our we
they their and or but also so both as if when where note please i one none nothing section sections clause
clauses article articles paragraph paragraphs schedule exhibit annex""".split())
# Words that say what sort of thing is kept, not which: "the no-bond point", "the renewal sentence".
_GENERIC = frozenset(stem_of(w) for w in """point points sentence sentences limb limbs wording words language bit
part parts clause provision provisions reference references thing things line lines item items whole rest
same still named name section sections exactly drafted here there scope situation situations end start first second last
other both three two four where when which what there about during before after within under exception exceptions
carve carveout exclusion exclusions""".split())


@dataclass(frozen=True)
class Kept:
    """One thing the instruction keeps, anchored in the clause."""

    said: str  # in the lawyer's words, for the reason
    how: str  # "date" | "value" | "reference" | "words" | "sentence" | "described" | "negated"
    key: object  # what is looked for in the draft


def keep_segments(instruction: str) -> list[str]:
    """The instruction's words naming what stays, one piece per cue ("" pieces dropped)."""
    out: list[str] = []
    for line in instruction.splitlines():
        line = _PRECEDENT.sub(" ", _LIST_LABEL.sub("", line))
        for a, b in sentence_spans(line) or [(0, len(line))]:
            out += _pieces(line[a:b])
    out = [" ".join(p.split()).strip(" ,;:-") for p in out]
    return [re.sub(r"^(?:and|or|so|as\s+(?:for|to)|regarding)\s+", "", p, flags=re.I) for p in dict.fromkeys(out) if p]


def _pieces(s: str) -> list[str]:
    cues = sorted([(m.start(), m.end(), "after") for m in _AFTER.finditer(s)]
                  + [(m.start(), m.end(), "before") for m in _BEFORE.finditer(s)])
    out, last = [], 0
    for i, (cs, ce, side) in enumerate(cues):
        if cs < last or _NEGATED.search(s[max(0, cs - 30):cs]):
            continue  # "must not leave a reader guessing", "should no longer stay": an ask, not a keep
        if side == "after":
            out.append(_after(s, ce, cues[i + 1][0] if i + 1 < len(cues) else len(s)))
        else:
            out += _before(s, last, cs, ce)
        last = ce
    return out


def _after(s: str, ce: int, end: int) -> str:
    """What a cue before it keeps ("keeping X", "Not touching X"), up to an ask or the next cue."""
    stop = _STOP_AT.search(s, ce, end)
    end = stop.start() if stop else end
    # A list after a colon ("KEEP: a; b; c") runs to the end; otherwise a semicolon, a dash, a new clause
    # or a bracket closed that the piece did not open ends what is kept.
    listed = s[:ce].rstrip().endswith(":") or s[ce:end].lstrip().startswith(":")
    bound = re.search(r"\s[-–—]\s|—|,\s+(?:it|this|that|they|which|as|because|since|so)\b" + ("" if listed else r"|;"),
                      s[ce:end])
    end = ce + bound.start() if bound else end
    close = _unopened(s[ce:end])
    return s[ce:ce + close if close is not None else end]


def _before(s: str, last: int, cs: int, ce: int) -> list[str]:
    """What a cue after it keeps ("X stays", "X is not moving"): the phrase just before it, after any ask."""
    start = last
    for m in _START_AFTER_ASK.finditer(s, last, cs):
        start = max(start, m.end())
    # After the last comma (not a date's or a number's), colon, quote mark or dash, inside an open bracket;
    # where that is long, what is kept is not plain.
    cut = [m.end() for m in re.finditer(r",\s+(?!\d)|[;:\"“”]|\s[-–—]\s", s[start:cs])]
    if cut and re.match(r"(?:that|this|it|which)(?:\s+one)?\b", s[start + cut[-1]:cs], re.I):
        # "As for the repair-or-replace sentence after it, that one ... stays": the thing is named before.
        cut = cut[:-1] + [0] if len(cut) == 1 else cut[:-1]
    listed = start
    start += cut[-1] if cut else 0
    # "The five-year tail after the Term, the A- rating, and Pfizer's status are all agreed and must not move":
    # a list's last item ("and ...") before the cue, the whole list kept (commas only, each item short).
    if re.match(r"\s*and\b", s[start:cs], re.I) and start > listed and not re.search(r"[;:\"“”]", s[listed:cs]) and \
            len(s[listed:cs].split()) <= 30 and all(len(i.split()) <= 8 for i in s[listed:cs].split(",")[:-1]):
        start = listed
    opened = s[start:cs].rfind("(")
    if opened >= 0 and ")" not in s[start + opened:cs]:
        start += opened + 1  # "(keep the square brackets as they are": inside the bracket
    if len(s[start:cs].split()) > (30 if start == listed and "," in s[start:cs] else 15):
        return []
    tail = re.match(r"\s+(?:at|as)\s+([^,;.]{1,30})", s[ce:]) if re.match(STAY_VERBS, s[cs:ce], re.I) else None
    # "... sentence works and should be left as it is": the verb before the cue is not what is kept.
    kept = re.sub(r"(?:\s+\w+\s+and)?\s+(?:should|must|shall|will|is|are|can|has\s+to)(?:\s+\w+){0,3}\s*$", "", s[start:cs])
    out = [kept + (" " + tail.group(1) if tail else "")]
    # "The intention / gross negligence exception stays, and the first sentence too": a second thing kept.
    also = re.match(r"\s*,?\s+and\s+(?:so\s+(?:does|do)\s+)?(?P<what>[^,;.]{3,60}?)(?:\s+(?:too|as\s+well|also))?\s*(?:[,;.]|$)",
                    s[ce:])
    if also and re.search(r"\b(?:too|as\s+well|also)\s*(?:[,;.]|$)|^\s*,?\s+and\s+so\s+(?:does|do)\b", s[ce:ce + also.end()]):
        out.append(also.group("what"))
    return out


def _unopened(piece: str) -> int | None:
    """Where a bracket closes that the piece did not open ("keep the brackets, it's a placeholder); and ...")."""
    depth = 0
    for i, ch in enumerate(piece):
        depth += ch == "("
        if ch == ")":
            if depth == 0:
                return i
            depth -= 1
    return None


# --- anchoring in the clause -------------------------------------------------------------------

def _key(token: str) -> object:
    plain = re.sub(r",(?=\d{3}\b)", "", token)
    try:
        return float(plain)
    except ValueError:
        return plain.lower()


def _values(text: str) -> set[object]:
    """Every number the text writes, by value (digits, "twelve (12)", "$1.29") or as written ("659A.082")."""
    found = {_key(t) for t in _TOKEN.findall(text)}
    found |= {f.value for f in F.figures(text)}
    return found


def _shape(token: str) -> str:
    return re.sub(r"[A-Za-z]", "A", re.sub(r"\d", "9", token))


def kept_in(instruction: str, clause: str, names: bool = True) -> list[Kept]:
    """The clause's things the instruction keeps, each anchored there; what cannot be anchored is left out."""
    out: list[Kept] = []
    clause_values = _values(clause)
    clause_dates = {d.value for d in D.dates(clause)}
    counts = Counter(stem_of(w) for w in re.findall(r"[a-z]{3,}", clause.lower().replace("-", " ")))
    pieces = keep_segments(instruction)
    # What the asks say, apart from the keeps: a name an ask changes ("keep the Vienna Convention exclusion
    # but give the Convention its proper name") is the ask's to change, never kept against it.
    asks = " ".join(instruction.split())
    for piece in pieces:
        asks = asks.replace(piece, " ")
    for piece in pieces:
        rest = piece
        for d in D.dates(piece):
            if d.value in clause_dates:
                out.append(Kept(piece[d.start:d.end], "date", d.value))
            rest = rest.replace(piece[d.start:d.end], " ")
        out += _references(rest, clause, clause_values)
        out += _worded_figures(rest, clause)
        for t in _TOKEN.findall(rest):
            k = _key(t)
            small = isinstance(k, float) and k < 10 and "." not in t
            if not small and k in clause_values:
                out.append(Kept(t, "value", k))
        for q in QUOTED_ANY.findall(rest) + _BLANK.findall(rest):
            if " ".join(q.lower().split()) in " ".join(clause.lower().split()) and not _asked(q, asks):
                out.append(Kept(q, "words", q))
        if names:
            out += [Kept(n, "words", n) for n in _names(rest, clause) if not _asked(n, asks)]
        out += _described(rest, clause, counts)
    seen: set[object] = set()
    return [k for k in out if not (k.key in seen or seen.add(k.key))]


def _worded_figures(piece: str, clause: str) -> list[Kept]:
    """A figure the lawyer writes in words, its unit with it ("the five-year tail", "the twelve-month
    look-back"), anchored by kind, value and unit in the clause ("five (5) years"). Digits are read by value."""
    mine = {(f.kind, f.value, f.unit) for f in F.figures(clause)}
    return [Kept(f.text, "figure", (f.kind, f.value, f.unit)) for f in F.figures(piece)
            if not re.search(r"\d", f.text) and f.unit and (f.kind, f.value, f.unit) in mine]


def _asked(words: str, asks: str) -> bool:
    return any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", asks, re.I) for w in re.findall(r"[\w&-]{3,}", words)
               if w.lower() not in _NOT_NAMES)


def _references(piece: str, clause: str, clause_values: set[object]) -> list[Kept]:
    out = []
    for r in references(piece):
        for _a, _b, number, _h in r.numbers:
            k = _key(re.sub(r"\(.*", "", number))
            if any(n == number or _key(re.sub(r"\(.*", "", n)) == k for c in references(clause) for _x, _y, n, _z in c.numbers):
                out.append(Kept(f"{r.word} {number}", "reference", k))
    m = _EVERY_REF.search(piece)
    if m and m.group(1):
        word = re.escape(m.group(1))
        shapes = {_shape(t) for t in re.findall(rf"\b{word}\s+(\d[\dA-Za-z]*(?:\.\d[\dA-Za-z]*)*)", clause, re.I)}
        for t in _TOKEN.findall(clause):
            if _shape(t) in shapes and "." in t:
                out.append(Kept(f"{m.group(1)} {t}", "value", _key(t)))
    return out


def _names(piece: str, clause: str) -> list[str]:
    out = []
    for m in _NAME.finditer(piece):
        words = m.group(0).split()
        while words and words[0].lower() in _NOT_NAMES:
            words = words[1:]
        name = " ".join(words)
        if name in D.MONTHS:
            continue  # a month is part of a date (read by value), never a name
        if len(name) < 3 or name.isupper() and len(name) <= 3 and not re.search(rf"\b{re.escape(name)}\b", clause):
            continue
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", clause):
            out.append(name)
    return out


def _described(piece: str, clause: str, counts: Counter) -> list[Kept]:
    """Each listed element of the piece by the words only it has in the clause (a stem written at most
    twice there); none where it shares no such word."""
    out = []
    for item in re.split(r"[,;()]|\s+(?:and|or)\s+", piece):
        words = [w for w in re.findall(r"[a-z]{4,}", item.lower().replace("-", " ")) if w not in STOP]
        own = sorted({stem_of(w) for w in words if stem_of(w) not in _GENERIC and 0 < counts[stem_of(w)] <= 2})
        said = " ".join(item.split()).strip(" .:")
        if not own and _EXCEPTIONS.search(item) and not re.search(r"\b(?:new|added|extra|further|fourth|another)\b", item, re.I):
            out += _exceptions(clause, counts)
            continue
        sentence = _sentence_named(item, clause, own) if _SENTENCE_WORD.search(item) else ""
        if sentence:
            out.append(Kept(said, "sentence", sentence))
        elif own:
            # "the no-bond point": a point the clause makes with a "not" ("without the need to post a bond").
            out.append(Kept(said, "negated" if _NEGATED_ITEM.search(item) else "described", tuple(own)))
    return out


_NEGATED_ITEM = re.compile(r"\b(?:no|not|non|never|without)[- ]\w", re.I)
_NOT_BEFORE = re.compile(rf"\b(?:{NOT_WORDING}|without)\b(?:\W+\w+){{0,5}}\W+$", re.I)


def _negated_in(text: str, own: tuple[str, ...]) -> bool | None:
    """Whether the text says the element's own words under a "not" (the polarity reader's words) within a
    few words before them; None where it does not have them."""
    found = [m for m in re.finditer(r"[A-Za-z]{3,}", text) if stem_of(m.group(0).lower()) in own]
    if not found:
        return None
    return any(_NOT_BEFORE.search(text[max(0, m.start() - 60):m.start()]) for m in found)


_EXCEPTIONS = re.compile(r"\b(?:exceptions?|carve-?outs?|exclusions?)\b", re.I)
_EXCEPTION_AT = re.compile(rf"\b(?:{UNLESS_WORDING})", re.I)


def _exceptions(clause: str, counts: Counter) -> list[Kept]:
    """"The existing exceptions stay": each exception the clause makes (the polarity reader's words), from its
    word to the next exception, semicolon or sentence end, by the words only it has there (two or more)."""
    out = []
    starts = [m.start() for m in _EXCEPTION_AT.finditer(clause)]
    ends = sorted({b for _a, b in sentence_spans(clause)} | {m.start() for m in re.finditer(r";", clause)})
    for i, a in enumerate(starts):
        b = min([e for e in ends if e > a] + starts[i + 1:i + 2] + [len(clause)])
        phrase = clause[a:b]
        own = sorted({stem_of(w) for w in re.findall(r"[a-z]{4,}", phrase.lower().replace("-", " "))
                      if w not in STOP and stem_of(w) not in _GENERIC and 0 < counts[stem_of(w)] <= 2})
        if len(own) >= 2:
            words = phrase.split()
            out.append(Kept("the exception “" + " ".join(words[:8]).rstrip(",;") + ("…" if len(words) > 8 else "") + "”",
                            "described", tuple(own)))
    return out


_SENTENCE_WORD = re.compile(r"\b(?:sentence|limb|proviso)\b", re.I)


def _sentence_named(item: str, clause: str, own: list[str]) -> str:
    """The one sentence of the clause a described sentence names ("the repair-or-replace sentence", "The
    Agreement's own renewal sentence"): the one holding all its own words, or, where several do, the one
    whose subject is the name it gives; "" where no one sentence is meant."""
    # A heading ("8. LIABILITY") is not a sentence a lawyer counts.
    spans = [clause[a:b].strip() for a, b in sentence_spans(clause) if len(clause[a:b].split()) >= 5]
    place = re.search(r"\b(first|second|third|fourth|last|final|opening|closing)\s+(?:sentence|limb|proviso)\b", item, re.I)
    if place and len(spans) >= 2:
        n = {"first": 0, "opening": 0, "second": 1, "third": 2, "fourth": 3}.get(place.group(1).lower(), -1)
        return spans[n] if n < len(spans) else ""
    if len(spans) < 2 or not own:
        return ""
    hit = [t for t in spans if own and set(own) <= {stem_of(w) for w in re.findall(r"[a-z]{3,}", t.lower().replace("-", " "))}]
    if len(hit) > 1:
        names = [n for n in re.findall(r"\b[A-Z][\w&-]+", item) if n.lower() not in _NOT_NAMES]
        hit = [t for t in hit if any(n in " ".join(t.split()[:4]) for n in names)]
    return hit[0] if len(hit) == 1 else ""


# --- the check --------------------------------------------------------------------------------

def dropped(instruction: str, clause: str, draft: str, rewrite: bool, names: bool = True) -> tuple[list[str], list[str]]:
    """(What the draft drops of what the instruction keeps, in the lawyer's words; what it keeps.)"""
    lost, kept = [], []
    values = _values(draft)
    dates = {d.value for d in D.dates(draft)}
    low = " ".join(draft.lower().split())
    stems = {stem_of(w) for w in re.findall(r"[a-z]{3,}", draft.lower().replace("-", " "))}
    for k in kept_in(instruction, clause, names):
        if k.how == "date":
            ok = k.key in dates
        elif k.how == "value":
            ok = k.key in values
        elif k.how == "figure":
            ok = k.key in {(f.kind, f.value, f.unit) for f in F.figures(draft)}
        elif k.how == "reference":
            # "Section 5" is kept by a reference to 5, not by any five in the draft.
            ok = k.key in {_key(re.sub(r"\(.*", "", n)) for r in references(draft) for _a, _b, n, _h in r.numbers} or \
                (not isinstance(k.key, float) or not float(k.key).is_integer()) and k.key in values
        elif k.how == "words":
            ok = bool(re.search(rf"(?<![\w-]){re.escape(' '.join(str(k.key).lower().split()))}", low))
            if not ok and rewrite and _said_again(str(k.key), clause, draft, stems, whole=True):
                continue  # "notwithstanding any breach" -> "even if ... has breached": said again, not checked
        elif k.how == "sentence":
            ok = _words(str(k.key)) in _words(draft)
            if not ok and (rewrite or _said_again(str(k.key), clause, draft, stems, whole=False)):
                # A sentence named by a description ("the 'Capitalized words' sentence") is the lawyer's
                # pointer, not the clause's words: another ask (a name conformed) may change words in it.
                # Its figures, its turns and most of its words still there: not checked, never failed.
                continue
        elif k.how == "negated" and _negated_in(clause, k.key) and _negated_in(draft, k.key) is False:
            ok = False  # "the no-bond point" kept in words, its "not" gone: "only after posting a bond"
        else:
            gone = [s for s in k.key if s not in stems]
            # A rewording may swap one word for another; an element is gone when all its own words are,
            # and in a rewording only where it had two or more.
            ok = len(gone) < len(k.key) or (rewrite and len(k.key) < 2)
            if ok:
                continue  # words surviving do not show the element kept: said only when plainly gone
        (kept if ok else lost).append(k.said)
    return lost, kept


def _said_again(kept: str, clause: str, draft: str, stems: set[str], whole: bool) -> bool:
    """Whether the draft still says a kept passage in words of its own: every figure of it, at least as
    many of each kind of turn (reading/logic.py: a "not", a condition, "notwithstanding" = "even if"),
    and all (``whole``) or most of its own words."""
    from index_builder.reading import logic as L
    clause_values, draft_values = Counter(f.value for f in F.figures(clause)), Counter(f.value for f in F.figures(draft))
    # A figure counts as said only as often as the clause says it ("six (6) months" twice, once left).
    if any(draft_values[f.value] < clause_values[f.value] for f in F.figures(kept)):
        return False
    # Each name of it (a party, a document) as often as the clause says it, unless renamed throughout (a
    # conformed name, the terms checks' to read): "at Fleet's sole cost" -> "at Columbia's sole cost" is a change.
    for name in set(_NAME.findall(kept)):
        def said(text: str) -> int:
            return len(re.findall(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text))
        if 0 < said(draft) < said(clause):
            return False
    was, now = L.counts(L.turns(kept)), L.counts(L.turns(draft))
    if any(now.get(kind, 0) < n for kind, n in was.items() if kind != "hook"):
        return False
    # (Its own words apart from its turns: "notwithstanding" is said again by "even if", counted above.)
    bare = kept
    for t in L.turns(kept):
        bare = bare[:t.start] + " " * (t.end - t.start) + bare[t.end:]
    own = {stem_of(w) for w in re.findall(r"[a-z]{4,}", bare.lower().replace("-", " ")) if w not in STOP}
    there = sum(1 for w in own if w in stems)
    return bool(own) and (there == len(own) if whole else there >= 0.7 * len(own))


def _words(text: str) -> str:
    return " " + " ".join(re.findall(r"[a-z0-9]+", text.lower())) + " "


def reason(lost: list[str]) -> str:
    named = "; ".join(s if s.startswith("the exception “") else f"“{s}”" for s in lost[:3])
    more = f" ({len(lost) - 3} more)" if len(lost) > 3 else ""
    return f"Your instruction keeps {named}{more}; the draft drops or changes it."
