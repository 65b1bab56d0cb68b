"""Which segments of an instruction are asks, read from what the sentence does, not from its topic.

An instruction is a message. Beside its asks (what the clause should become) it carries logistics about
the draft itself ("Please have the draft ready to share on screen", "send it over by Friday"), headings
and statements about the clause as it stands ("Audit finding L-07: rate-change notice gives Licensee
too little time"), and follow-ups that only point back at an ask already made ("If none, make it two",
"For this turn, put in the opening number"). None of these is a part of its
own: a part no kind reads is reported "not done" when the draft changes nothing but the other parts, so a
non-ask read as one flags a sound draft.

Nor is the other side's ask that the lawyer counters ("Customer's markup asks for 7 years. We'll meet them
at 5": the ask is 5), nor the case made before "so" ("nobody can ever give twelve months' notice in time -
so the Attachment's notice has to come down: three months": the figures of the case are argued, not asked).

read_instruction (instruction.py) asks these questions of each segment; done.pinned_changed asks
``reasons``. The vocabulary of asks stays in instruction_words.py.
"""

from __future__ import annotations

import re

from index_builder.reading import figures as F
from index_builder.reading import numbers

from addin_server.draft.instruction_kinds import kind_of
from addin_server.draft.instruction_words import ASK, STATEMENT, KEEP_VERBS, STAY_STATES, STAY_VERBS

# The draft as a thing to handle (share, send, have ready), not the clause's words: "the draft", "a clean
# version", "the redline", "this turn's mark-up".
_THE_DRAFT = re.compile(r"\b(?:the|a|this|that|our|your|my|a\s+clean|the\s+clean|a\s+revised|the\s+revised|the\s+updated)\s+"
                        r"(?:\w+\s+)?(?:draft|redline|red-line|mark-?up|version|document|doc|copy|comparison|blackline)s?\b",
                        re.I)
# What one does with a draft as a document: logistics, never a change to the clause.
_HANDLE = re.compile(r"\b(?:share|sharing|send|sending|circulat\w*|forward|e-?mail|print|table|present|upload|attach|"
                     r"on\s+screen|ready|by\s+(?:monday|tuesday|wednesday|thursday|friday|tomorrow|tonight|noon|eod|cob|"
                     r"close\s+of\s+business|end\s+of\s+(?:the\s+)?day)|before\s+(?:the|our|thursday|friday|monday|"
                     r"tuesday|wednesday)\b)", re.I)


def about_the_draft(segment: str) -> bool:
    """"Please have the draft ready to share on screen", "Send me a clean version by Friday": what to do
    with the draft as a document (share, send, have ready), naming no figure: no ask of the clause."""
    return bool(_THE_DRAFT.search(segment) and _HANDLE.search(segment)) and not F.figures(segment)


_ASK_WORD = re.compile(rf"\b(?:{ASK})\b", re.I)
_KEEPS = re.compile(rf"\b(?:{KEEP_VERBS}|{STAY_VERBS}|{STAY_STATES}|as\s+drafted)\b", re.I)


_COMPOUND_VERB = re.compile(r"(?:^|\b(?:so|then|and|please|to)\s+|[,;:]\s+)[\w']+(?:-[\w']+)+\s+(?:it|them|this|that|these|those|"
                            r"the|a|an|all|any|each|every)\b", re.I)


def asks_only_in_compounds(segment: str) -> bool:
    """The segment's only ask-verbs sit inside hyphenated nouns ("rate-change notice", "cap-free period",
    "set-off right"): a noun compound names a thing, it asks nothing."""
    if not _ASK_WORD.search(segment) or _KEEPS.search(segment):
        return False  # (what stays is read as it was: "the repair-or-replace sentence ... stays exactly as drafted")
    if _COMPOUND_VERB.search(segment):
        return False  # "so lower-case it": a compound with an object of its own is a verb, asked
    bare = re.sub(r"[\w']+(?:-[\w']+)+", " ", segment)
    return not _ASK_WORD.search(bare)


# The figure of the part before, pointed back at with no figure of its own: "make it two" (after "two
# years"), "put in the opening number", "use that figure", "go with the lower one".
_RESTATED = re.compile(r"^(?:(?:so|then|and|if\s+none|if\s+not|for\s+this\s+turn|for\s+now)[,;]?\s+)*"
                       r"(?:(?:please\s+)?(?:make|set|put|have|take|keep)\s+(?:it|that|this|them)\s+(?:at\s+|to\s+)?)"
                       r"(?P<n>[a-z]+(?:[\s-][a-z]+)?|\d+(?:\.\d+)?)[.!]?$", re.I)
_POINTS_BACK = re.compile(r"^(?:(?:so|then|and|if\s+none|if\s+not|for\s+this\s+turn|for\s+now)[,;]?\s+)*(?:please\s+)?"
                          r"(?:put\s+in|put|use|insert|go\s+(?:in\s+)?with|take|enter|plug\s+in)\s+"
                          r"(?:the|that|this|our|your)\s+(?:[\w-]+\s+)?(?:number|figure|one|value)\b[.!]?$", re.I)


def restates_figure(segment: str, value: float | None) -> bool:
    """The segment says the part before's figure again, in words ("make it two" after "two years") or
    by pointing at it ("put in the opening number"): the same ask, never a second part."""
    text = segment.strip()
    if F.figures(text) and not _RESTATED.match(text):
        return False
    if _POINTS_BACK.match(text):
        return True
    m = _RESTATED.match(text)
    if not m or value is None:
        return False
    said = numbers.value(m.group("n"))
    return said is not None and abs(float(said) - float(value)) < 1e-9


def not_an_ask(segment: str) -> bool:
    """A segment no kind reads that asks nothing of the clause: logistics about the draft, a statement
    whose only ask-words are parts of nouns, or the order to do what the message has said."""
    return about_the_draft(segment) or asks_only_in_compounds(segment) or only_points_back(segment)


# Words that point at the asks already said rather than say one: "amended accordingly", "put that right",
# "as agreed", "as discussed".
_POINTER = re.compile(r"\b(?:accordingly|as\s+(?:above|agreed|discussed|requested|instructed|set\s+out\s+above|"
                      r"(?:noted|described|explained)\s+above)|(?:put|set)\s+(?:that|this|it|them|these|those|things)\s+"
                      r"(?:right|straight))\b", re.I)
# The verbs and objects of such an order: changing the whole, no change of its own ("have the clause amended").
_WHOLE = re.compile(r"\b(?:have|get|make|do|amend\w*|chang\w*|updat\w*|revis\w*|redraft\w*|fix\w*|correct\w*|"
                    r"the\s+(?:clause|draft|wording|text|paragraph|provision|section)|it|that|this|them)\b", re.I)


def only_points_back(segment: str) -> bool:
    """"Pls have the clause amended accordingly and revert", "Could you put that right in the Service Days
    list before it goes out again?": the order to make the changes the message has already said, with no
    figure, quotation or ask-word of its own. It is not a part: read as one, a draft that made the changes
    asked is said to have left it "not done"."""
    if not _POINTER.search(segment) or F.figures(segment) or re.search(r"[\"“”‘]", segment):
        return False
    return not _ASK_WORD.search(_WHOLE.sub(" ", _POINTER.sub(" ", segment)))


# The other side's ask, reported: "Customer's markup asks for 7 years", "their counsel wants sixty days",
# "the other side proposes $5m". What they asked is the figure on the table, not the lawyer's ask.
_REPORTED = re.compile(r"(?:\b[A-Z][\w&.-]*['’]s?\s+(?:\w+\s+)?(?:mark-?up|redline|draft|comments?|counter-?proposal|"
                       r"proposal|turn|counsel|lawyers?)|\b(?:the\s+other\s+side|their\s+side|opposing\s+counsel|"
                       r"(?:the\s+)?counterparty|their\s+(?:counsel|lawyers?|markup|mark-up|draft)))\s+"
                       r"(?:asks?\s+for|wants?|proposes?|requests?|seeks?|insists?\s+on|(?:has|have)\s+asked\s+for|"
                       r"(?:is|are)\s+asking\s+for|came\s+back\s+with|offers?)\b")
# The lawyer's counter to it, a bare number: "We'll meet them at 5", "we can go to 45", "we'd settle at 60".
_COUNTER = re.compile(r"^(?:but\s+|so\s+)?we(?:['’]ll|\s+will|\s+can|\s+could|['’]d|\s+would|\s+should)\s+"
                      r"(?:meet\s+(?:them|\w+)(?:\s+halfway)?\s+at|go\s+(?:to|with)|offer|counter\s+(?:at|with)|"
                      r"settle\s+(?:at|on|for)|come\s+down\s+to|go\s+up\s+to)\s+(?P<n>[\w.,-]+)[.!]?$", re.I)


def reported(text: str) -> bool:
    """The text reports the other side's ask ("Customer's markup asks for 7 years")."""
    return bool(_REPORTED.search(text))


def countered(segment: str) -> float | None:
    """The number of a counter-offer said as a bare number ("We'll meet them at 5"), or None."""
    m = _COUNTER.match(segment.strip())
    if not m:
        return None
    said = numbers.value(m.group("n").rstrip(".,"))
    return float(said) if said is not None else None


# "If the Attachment only renews for six months at a time, nobody can ever give twelve months' notice in
# time - so the Attachment's notice has to come down: three months": a reason, then "so" and the ask.
# (Not "so that" (a purpose), "so long as", "and so on", nor "and so does Customer" / "so should Provider": "likewise".)
_SO = re.compile(r"(?:,|;|\s[-–—]+)\s+(?:and\s+)?so\s+(?!(?:that|long|far|much|many|on|forth|do|does|did|is|are|was|were|"
                 r"will|would|should|must|can|could|has|have|had|shall|may|might)\b)", re.I)


def after_the_reason(text: str, kind: str) -> str:
    """The words of the ask after a reason joined to it by "so", where they hold a figure of the ask's kind
    (the figures of the reason are the case made, not the values asked); else the whole text."""
    m = None
    for m in _SO.finditer(text):
        pass
    if m is None:
        return text
    rest = text[m.end():]
    of_kind = F.periods if kind == "period" else F.amounts
    asked, argued = of_kind(rest), of_kind(text[:m.start()])
    # ("make that five years, the broker said five, so five years": the same figure said again, read whole.)
    if not asked or not argued or any(abs(a.value - b.value) < 1e-9 for a in asked for b in argued):
        return text
    return rest


def reasons(text: str) -> list[tuple[int, int]]:
    """The spans of the instruction that make the case for an ask joined to them by "so" (from the start of
    their sentence to the "so"): their figures are argued, neither asked nor given as standing."""
    out = []
    for m in _SO.finditer(text):
        start = max(text.rfind(c, 0, m.start()) for c in ".;?!\n") + 1
        out.append((start, m.start()))
    return out


# A sentence that opens with a verb of asking is itself the ask ("Make it mutual, so both of us are covered").
_IMPERATIVE = re.compile(rf"^\s*(?:please\s+|just\s+|also\s+|and\s+)*(?:{ASK})\b", re.I)


def asks_nothing_after_so(segment: str) -> bool:
    """A statement making a case, then "so" and words that ask nothing ("Finding does not cover the 10% cap
    or the supporting documentation, so no action on those"): the whole asks nothing. Not where the words
    before "so" ask themselves ("Make it mutual, so ..."), nor where those after it ask ("so lower-case it",
    "so use 'legitimate business interests'")."""
    found = list(_SO.finditer(segment))
    if not found or _IMPERATIVE.match(segment):
        return False
    after = segment[found[-1].end():]
    return kind_of(after) is None and not _IMPERATIVE.match(after) and not _COMPOUND_VERB.search(after)


# A sentence about the clause as it stands: its verb "is/are/has/have" (not "has to", "is to be"), and no
# word that asks, wants or keeps anywhere in it: "In this clause the same window is thirty days, used twice",
# "It is one-sided". It states the problem the ask after it answers; it is never an ask, nor a keep.
_AS_IT_STANDS = re.compile(r"\b(?:is|are|has|have)\b(?!\s+(?:to|got\s+to|been\s+asked|asked)\b)(?!\s+(?:\w+\s+)?to\s+be\b)", re.I)
# ("while the agreement is in force": a verb of a clause within; "Agreed:", "Mitigation": the state asked.)
_SUBORDINATE = re.compile(r"\b(?:while|when|whenever|if|where|wherever|that|which|who|until|unless|once|because|since|after|"
                          r"before|as\s+long\s+as)\b", re.I)
_WANTS = re.compile(rf"\b(?:should|must|need|needs|want|wants|would|could|please|ought|shall|will|let['’]?s|agree\w*|"
                    rf"instead|rather|prefer|go|goes|becomes?|{KEEP_VERBS}|{STAY_VERBS}|{STAY_STATES})\b|[?!]|->|=|→", re.I)


def describes_the_clause(segment: str, clause: str = "") -> bool:
    """The segment describes the clause as it stands and asks nothing (above). Given the clause, every figure
    it names must be the clause's: "the only restraint there is one year", of another document, carries
    the figure asked."""
    text = segment.strip()
    verb = _AS_IT_STANDS.search(text)
    if not verb or _WANTS.search(text) or _SUBORDINATE.search(text[:verb.start()]):
        return False
    if not all(any(_same(f, g) for g in F.figures(clause)) for f in F.figures(text)):
        return False
    if any(f.start < verb.start() for f in F.figures(text)):
        return False  # "The five days for 3.3(c) is non-negotiable": the figure judged or kept, not described
    # (An imperative opening asks, whatever follows: "Make sure the cap is $1m"; so does one after a stop
    # or a joint: "the cap is $1m, make it $2m".)
    return not re.search(rf"(?:^|[,;:(]\s*|\s[-–—]\s+|\b(?:and|so|then|but)\s+)(?:please\s+)?(?:{ASK}|ask)\b", text, re.I)


_same = F.same


# An entry of a chronology or a log, headed by its date or time ("3 March:", "12/03/2026 -", "Tue 14:02:"): what
# happened, which asks nothing unless its own words ask. (Not "9.1:", a section's number: a date with dots has a year.)
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|"
          r"nov(?:ember)?|dec(?:ember)?)\b\.?")  # (whole names: "Decision 2:" is no date)
_DATED = re.compile(rf"^\s*(?:(?:mon|tues?|wed|thu(?:rs)?|fri|sat|sun)(?:day)?\b\.?,?\s+)?(?:\d{{1,2}}\s+{_MONTH}(?:\s+\d{{4}})?|{_MONTH}\s+\d{{1,2}}"
                    rf"(?:,?\s+\d{{4}})?|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?|\d{{1,2}}[.-]\d{{1,2}}[.-]\d{{2,4}}|\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}:\d{{2}})\s*[:\-–—]\s+(?=\S)",
                    re.I)


def log_entry(segment: str) -> bool:
    """"14 March: warehouse confirms it cannot clear the stock in under five months": an entry of a log, the story
    behind the ask, neither an ask nor words of one (its figures are what happened, never a value asked)."""
    dated = _DATED.match(segment)
    return bool(dated) and not asks_in_its_words(segment[dated.end():])


def reason_under_heading(segment: str) -> bool:
    """"Note from the disputes side, for the file: We fought the Kessler renewal ...": a heading, then a
    statement of what happened with no word that asks or wants ("Dear Anna, ...: we accept that ... should
    bind both" asks): the reason for the ask after it, never an ask."""
    heading = re.match(r"[A-Z][^:;.?!]{0,60}:\s+(?=\S)", segment)
    # ("Flip the audit: we check About's books": a heading that opens with an ask is the ask.)
    return bool(heading) and bool(STATEMENT.match(segment[heading.end():])) and not _WANTS.search(segment) and \
        not re.match(rf"(?:please\s+)?(?:{ASK})\b", segment, re.I)


# Where a message's words ask: a verb of asking that opens the limb (after a field heading such as
# "Required:" or "Action:", a list mark, "please"/"and"/"so"), or a word of wanting or obligation anywhere.
# An ask-word further in is a noun or a statement's verb ("our developers adapt ... for internal use",
# "We do - let me send you a quote"), and words in quotes are mentioned, not used ("'should be made on the
# Cover Page' is advisory only"): a statement under a heading ("Finding B: ...") asks nothing.
_FIELD = re.compile(r"^[^:;.?!\"“'‘]{1,40}:\s+(?=\S)")
_LIST_MARK = re.compile(r"^(?:\(?(?:[ivx]{1,4}|\d{1,2}|[a-z])\)|(?:[ivx]{1,4}|\d{1,2}|[a-z])\.|[-–•*])\s+", re.I)
_OPENS_ASKING = re.compile(rf"^(?:(?:please|kindly|just|also|and|so|then|now)[,]?\s+)*(?:{ASK}|carry|swap|take\s+out|"
                           rf"insert|draft|redraft)\b", re.I)
_OBLIGED = re.compile(r"\b(?:may|must|shall|should|will|can|need|needs|want|wants|require[sd]?|please)\b|['’]ll\b", re.I)
_DETERMINER = re.compile(r"\b(?:the|a|an|it|this|that|these|those|them|our|their|its|his|her|your|my|each|every|all)\b", re.I)
_MENTIONED = re.compile(r"(?<!\w)['‘\"“][^'‘’\"“”]{8,}?['’\"”](?!\w)")


def asks_in_its_words(limb: str) -> bool:
    """The limb is said as an ask (above), not as a statement that happens to hold a verb of asking."""
    text = _MENTIONED.sub(" … ", limb).strip()
    if _OBLIGED.search(text):
        return True
    field = _FIELD.match(text)
    if field and len(field.group().split()) <= 4 and not _DETERMINER.search(field.group()):
        # A bare noun phrase is a field's name ("Change control:", "GIVE:", "Finding B:"), whatever its first
        # word; an ask takes an object ("Flip the audit: we check About's books").
        text = text[field.end():]
    for _ in range(2):  # ("Recommendation: (1) raise the standard": a heading, then a list mark)
        if _OPENS_ASKING.match(text):
            return True
        text = _LIST_MARK.sub("", _FIELD.sub("", text, count=1), count=1).strip()
    return bool(_OPENS_ASKING.match(text))
