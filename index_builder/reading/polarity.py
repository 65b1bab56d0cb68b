"""Polarity: the words that turn what a clause says round: a "not", an exception, a limit (issue 38).

One home for them. Before session 9 each reader kept its own list (the citation score, the drafting
comparison, the carve-out operation, the caps reader, who-a-sentence-binds), and the lists drifted:
"nor" in one and not another, "except" in one and "except\\w*" in the next. Each reader now takes
its words from here. Where two readers want different words on purpose, the difference is a named
option of one function, with the reason beside it, never a second list.

- ``negators(...)``: the tokens that say "not" (a word-by-word reader counts them).
- ``negation_or_exception(...)``: a passage that says "not" or makes an exception (a check lets an
  added passage through where the instruction asked for one).
- ``exception(...)``: a passage that makes an exception to what the clause says.
- ``limit_phrases``, ``limiting_words``, ``keeps_limit``/``lifts_limit``: a limit, said with or
  without a "not", kept or lifted.
- ``limiting_negation``, ``verb_negation``: the "not" of a limiting verb (caps) and after a modal
  (who a sentence binds).
- ``negative_prefixed``, ``covenant_names``: a "not" said by a word's prefix ("inadequate"), and a
  covenant's name that is none ("the non-compete").

- ``measure_end``, ``ceiling_after``, ``floor_after``, ``BOUND_AFTER``: where a liability cap's
  measure ends (reading/caps.py, reading/cap_measures.py): an exception, a proviso, a second limit.

``reading/logic.py`` reads its turn kinds ("not", "unless", "limit", "only") from the same wordings.
"""

from __future__ import annotations

import re
from functools import lru_cache

# -- "not", one token at a time ------------------------------------------------------------------
# "neither" is one "not" ("neither A nor B" = "not A or B").
_NOT = ("not", "no", "never", "none", "nothing", "cannot", "neither")
# A limit ("only", "solely") and the exception words a tokenised reader counts.
ONLY_WORDS = frozenset("only solely exclusively".split())
EXCEPTION_WORDS = frozenset("except excluding unless save".split())
# Words that limit, read as a "not" by the citation score ("shall not exceed" = "is capped at").
LIMITING_WORDS = frozenset("limited capped cap caps prohibited prohibits forbidden refrain restricted "
                           "exceeding maximum".split())

# -- wordings (regex alternatives), each the one place its words are listed -----------------------
# The turn kinds logic.py reads: a "not" said any way; an exception or condition-to-the-contrary;
# "only"; a cap or a time limit said with a "not" or without ("not to exceed" = "up to").
NOT_WORDING = r"fail(?:s|ed|ing|ure)?\s+to|not|no|never|neither|cannot|can't|won't|shan't|none|nothing|nobody|\w+n't"
# What "without" and "with" take when they make an exception or a condition: a party's assent or notice
# ("without the prior written consent of", "with Provider's approval").
_ASSENT_AFTER = (r"(?=(?:(?:the|its|their|his|her|any|such|prior|express|written|advance|further|first|having|"
                 r"[\w-]+['’]s)\s+){0,4}(?:obtain\w*\s+)?(?:consent|approval|agreement|permission|notice)\b)")
UNLESS_WORDING = (r"unless|except(?:\s+(?:as|where|if|when|to\s+the\s+extent|for|that|in))?|save\s+(?:as|where|for|that|in)|"
                  rf"other\s+than|excluding|without\s+{_ASSENT_AFTER}")
# The plain opposite of an exception at its place: "including" (what "except" / "excluding" leaves out,
# it takes in) and "with" assent (what "without" consent frees, it conditions). "including" said with
# "without limitation" is no turn at all (logic.py reads that first).
INCLUDE_WORDING = rf"including|includes?|inclusive\s+of|with\s+{_ASSENT_AFTER}"
ONLY_WORDING = "only|solely|exclusively"
# ("but in no event later than one business day" = "no later than one business day".)
LIMIT_WORDING = (r"(?:not\s+(?:to\s+)?)?exceed(?:s|ing)?|(?:no|not|in\s+no\s+(?:event|case))\s+(?:be\s+)?(?:more|later|longer|greater)\s+than|"
                 r"up\s+to|at\s+(?:the\s+)?(?:most|latest)|capped\s+at|limited\s+to")
# A floor, the opposite of a ceiling: "at least" = "not less than" = "a minimum of". A ceiling turned
# into a floor ("shall not exceed the fees paid" -> "will be at least the fees paid") turns a cap round.
FLOOR_WORDING = r"at\s+least|(?:no|not)\s+(?:be\s+)?(?:fewer|less)\s+than|(?:a|the)\s+minimum\s+of"
# Names of covenants, not negations: "the non-compete", "a non-disclosure agreement" (logic.py's
# turn reader adds the "non-" words a turn reader must also pass over: "non-refundable" is a term
# of its own, read by the opposites, not a "not").
COVENANTS = r"(?:non-?(?:compete|competes|competition|disclosure|solicit\w*|disparag\w*)|covenants?\s+not\s+to\s+(?:compete|solicit|sue|disparage))"
# ... and the "non-" words that name a thing rather than deny it ("a non-party", "non-public information").
# "non-exclusive" is among them for the comparison, which reads exclusive / non-exclusive as opposites
# of their own; the citation score, which has no such pair, counts its "non" (``COVENANTS`` only).
COVENANT_NAMES = rf"(?:{COVENANTS}|non-?(?:exclusive|public|party|parties|employee\w*))"
NOT_A_TURN = (r"non-?(?:compete|competition|disclosure|solicit\w*|exclusive|public|party|parties|breaching|defaulting|"
              r"terminating|refundable|assignable|transferable)|covenants?\s+not\s+to\s+(?:compete|solicit|sue|disparage)")


def negators(*, nor: bool = False, non: bool = False, nobody: bool = False, contracted: bool = False,
             failure: bool = False) -> frozenset[str]:
    """The tokens that say "not".

    nor: "nor" counts. The drafting comparison aligns word for word, so a "nor" gained is a "not"
    gained; the citation score compares a restatement, which moves "nor" freely ("not A nor B" =
    "not A or B"), so there it does not count.
    non / nobody: a bare "non" (what a tokeniser leaves of "non-exclusive") and "nobody" count (the
    citation score reads words, not phrases).
    contracted: "n't" as a token of its own (the comparison's tokeniser splits "don't" so).
    failure: "fail", "fails", "failure", "failing" ("fails to pay" = "does not pay").
    """
    out = set(_NOT)
    out |= {"nor"} if nor else set()
    out |= {"non"} if non else set()
    out |= {"nobody"} if nobody else set()
    out |= {"n't"} if contracted else set()
    out |= {"fail", "fails", "failure", "failing"} if failure else set()
    return frozenset(out)


@lru_cache(maxsize=None)
def negation_or_exception(*, nor: bool = False, nothing: bool = True, freed: bool = False) -> re.Pattern[str]:
    """A passage that says "not" or makes an exception: an added passage the instruction's carve-out
    or exception may have asked for.

    nor: "nor" counts (a borrowed precedent sentence "nor shall it ..." is the carve-out's own limb).
    nothing: "nothing" counts ("Nothing in this Section prevents ..."); a changed phrase inside a
    sentence is read without it.
    freed: words that free a party from the duty count too ("may", "permitted", "free to",
    "prevent", "exempt", "carve"), and "other than" and "none": the carve-out operation reads an
    ask's context by them.
    """
    words = ["not", "no", "except", "unless", r"exclud\w*"]
    if nor:
        words.insert(2, "nor")
    if nothing:
        words.append("nothing")
    if freed:
        words += ["excluding", "other than", "none", r"prevent\w*", r"preclude\w*", "free to", "may", "permitted",
                  "allowed", r"exempt\w*", r"carve\w*"]
    return re.compile(rf"\b(?:{'|'.join(words)})\b", re.I)


# What disapplies the clause's words: "does not apply" etc., each reader's verbs (see ``exception``).
_DISAPPLIED = {
    # The citation score: a "not" before a verb that excepts ("does not apply / include / cover ...").
    "score": r"not (?:apply|include|cover|limit|exclude|prevent|prohibit|restrict)\w*",
    # The carve-out operation's precedent sentences: "does not prohibit / restrict / ... reach".
    "carve": r"does not (?:prohibit|restrict|restrain|apply|bar|reach)",
    # A draft's added text: "shall not apply", "does not prevent / limit".
    "added": r"(?:does|shall|will)\s+not\s+apply|not\s+apply|does\s+not\s+(?:prevent|restrict|prohibit|limit)",
}


@lru_cache(maxsize=None)
def exception(*, disapplied: str, stems: bool = True, save: bool = False, nothing_in: bool = False,
              headings: bool = False, permitted: bool = False, conditions: bool = False) -> re.Pattern[str]:
    """A passage that makes an exception to what the clause says.

    disapplied: which verbs a "not" disapplies ("score", "carve", "added": ``_DISAPPLIED``).
    stems: "except\\w*" / "exclud\\w*" ("exception", "excludes"), or the words alone ("except",
    "excluding"): the carve-out operation matches its precedent sentences by the words alone.
    save: "save for", "save that". nothing_in: "nothing in". headings: "exclusions", "limitations",
    "notwithstanding" and "nor" (the citation score reads a clause's exclusion list as an exception).
    permitted: "permitted", "allowed", "may", "exempt", "carve", "free to", "provided that",
    "however" (an added sentence that frees a party: the carve-out's own words).
    conditions: "subject to", "limited to", "provided that", "(is|are) permitted", "will limit" (a
    precedent sentence that limits or conditions what the clause says).
    """
    words = [_DISAPPLIED[disapplied]]
    words += [r"except\w*", r"exclud\w*"] if stems else ["except", "excluding"]
    words += ["unless", r"other\s+than"]
    if save:
        words.append(r"save\s+(?:for|that)")
    if nothing_in:
        words.append(r"nothing\s+in")
    if headings:
        words += ["exclusions?", "limitations?", "notwithstanding", "nor"]
    if permitted:
        words += ["permitted", "allowed", "may", r"exempt\w*", r"carve\w*", r"provided\s+that", "however", r"free\s+to"]
    if conditions:
        words += [r"(?:is|are) permitted", "subject to", "limited to", "provided that", "will limit"]
    return re.compile(rf"\b(?:{'|'.join(words)})\b", re.I)


# -- a proposition's polarity, however it is said (the drafting comparison, compare_limits.py) ----
# A lawyer says one "not" many ways, and two "not"s make a "may": "shall not assign unless X" = "may
# assign only if X"; "does not prohibit E from hiring" = "E may still hire"; "if E fails to notify"
# = "unless E notifies"; "with no need for" = "without". The comparison counts these as "not"s and
# reads a proposition's polarity as their parity, so that a restatement is no reversal.
# A verb that says "shall not" of its object's act: "prohibits E from hiring" = "E shall not hire".
# (Lower case only: "the Restricted Period ... runs from" is a defined term, no verb.)
# ("stop" and "restrict" too: "does not stop Smith from appearing" = "Smith may still appear".)
NEGATIVE_VERBS = re.compile(r"\b(?:prohibit|prevent|preclude|restrain|restrict|stop|bar|forbid)(?:s|p?ed|ping|ing)?\b"
                            r"(?=(?:\s+(?!from\b)[\w'’().,-]+){0,6}?\s+from\b)")
# "unless X" = "if not X" and "without X" = "with no X" (compare_limits.py counts them where they take
# the place of an "if" or a "with"), except where "without" and "not" deny nothing: "including without limitation" = "including but not
# limited to" = "including"; "with or without cause"; "whether or not" / "whether X or not" (either
# way, = "regardless of whether"); "without delay" (= "promptly"); "without prejudice to" (= "and"); "for any
# reason or no reason" (= "with or without cause"); "acts or failures to act" (= "acts or omissions").
NO_NEGATION = re.compile(r"\b(?:without\s+limit\w*|(?:but\s+)?not\s+limited\s+to|with\s+or\s+without|"
                         r"whether\s+or\s+not|or\s+not(?=\s*[,.;)])|without\s+(?:undue\s+)?delay|"
                         r"without\s+prejudice(?:\s+to)?|(?:any|or)\s+(?:for\s+)?no\s+reason|"
                         r"(?:acts?|actions?)\s+or\s+failures?\s+to\s+act)\b", re.I)
# A condition denied or required before its noun: "without cause" = "for no cause"; "only for cause" = that
# cause and no other. The same noun under the one in a text and the other in its source says the opposite
# (a right "only for cause" cited to one "without cause"). NO_NEGATION's "without" words deny nothing.
_CONDITION_NOUN = r"(?:(?:the|a|an|any|its|their|prior|written|good|just)\s+)?(?P<what>[a-z]{4,})"
_DENIED_CONDITION = re.compile(rf"\bwithout\s+{_CONDITION_NOUN}\b", re.I)
_REQUIRED_CONDITION = re.compile(rf"\b(?:{ONLY_WORDING})\s+(?:for|upon|on|with|if|in\s+case\s+of|by\s+reason\s+of)\s+"
                                 rf"{_CONDITION_NOUN}\b", re.I)


def conditions_denied(text: str) -> set[str]:
    """The nouns a text says "without" of ("cause" of "terminate without cause"), less "without limitation",
    "with or without", "without delay" and the like."""
    spared = [m.span() for m in NO_NEGATION.finditer(text)]
    return {m.group("what").lower() for m in _DENIED_CONDITION.finditer(text)
            if not any(a <= m.start() < b for a, b in spared)}


def conditions_required(text: str) -> set[str]:
    """The nouns a text makes the only ground ("cause" of "only for cause", "solely upon default")."""
    return {m.group("what").lower() for m in _REQUIRED_CONDITION.finditer(text)}


# An ask that refuses a thing the draft might add: "No affiliate limb is to be added", "do not add an
# affiliate exception", "without adding a cap". The thing is named only to be kept out, so it is not asked
# for. "no Statement of Work is in effect", "there are no Stations" state facts and refuse nothing.
_ADDING = r"(?:add|insert|includ|introduc|put\s+in)\w*"
_REFUSED = re.compile(
    rf"\b(?:no|without)\s+(?:(?:further|other|new|additional|such|an?|the|any)\s+)?(?P<what>[a-z]{{3,}}(?:\s+[a-z]{{3,}})?)"
    rf"\s+(?:(?:is|are|should|shall|must|may|will|can|to|be|being|been|ever)\s+){{1,3}}{_ADDING}\b|"
    rf"(?:\b(?:not|never|without)|n't)\s+{_ADDING}\s+(?:(?:further|other|new|additional|such|an?|the|any)\s+)?"
    rf"(?P<what2>[a-z]{{3,}}(?:\s+[a-z]{{3,}})?)", re.I)


def things_refused(text: str) -> list[tuple[int, int]]:
    """The spans of the things an ask says not to add ("affiliate limb" of "No affiliate limb is to be added",
    "affiliate exception" of "do not add an affiliate exception"): named so, a thing is not asked for."""
    return [m.span("what") if m.group("what") else m.span("what2") for m in _REFUSED.finditer(text)]


# "failure" names a fault ("remedy that failure"); only "fail(s|ure) to" says "not".
FAILURE_NOUN = re.compile(r"\bfail(?:s|ed|ing|ure|ures)?\b(?!\s+to\b)", re.I)
# A ceiling and a floor however said: "$1.29 or less" = "no more than $1.29" = "up to $1.29"; "30 days
# or more" = "at least 30 days". A ceiling read as a floor turns a limit round; one said another way
# does not (the bare "less"/"more" of each is no opposite of the other).
# (A bare "exceeds" is a floor: "equals or exceeds $50,000" = "is at least $50,000"; only a "not" makes it
# a ceiling, "shall not exceed", or one said around its subject, ``bounded_negation``.)
CEILING = re.compile(rf"\b(?:(?!exceed){LIMIT_WORDING}|not\s+(?:to\s+)?exceed(?:s|ing)?|or\s+(?:less|fewer|under|below|lower))\b",
                     re.I)
FLOOR = re.compile(rf"\b(?:{FLOOR_WORDING}|or\s+(?:more|greater|longer|above|higher))\b", re.I)
# ... and, read after those, a bare "more than" (a floor) and "less than" (a ceiling): "equal to or less
# than $350,000" -> "more than $400,000" turns the test round.
BARE_FLOOR = re.compile(r"\b(?:(?:more|greater|longer|higher)\s+than|exceed(?:s|ing)?|in\s+excess\s+of)\b", re.I)
BARE_CEILING = re.compile(r"\b(?:less|fewer|shorter|lower)\s+than\b", re.I)
# "not" before a word with a complement of its own says the complement: "is not exclusive" =
# "non-exclusive", "does not include" = "excludes" (the comparison's opposites, compare_base.py).
NOT_BEFORE = re.compile(r"\b(?:not|never)\s+(?:be\s+|been\s+)?(?=[a-z])", re.I)


# A limit said with or without a "not" ("shall not exceed", "is limited to"): the comparison reads it
# as neither a "not" nor its absence.
limit_phrases = re.compile(r"\b(?:(?:shall|will|may|must|does|do)\s+not\s+(?:be\s+)?(?:more|greater|higher)\s+than|"
                           r"(?:shall|will|may|must|does|do)\s+not\s+exceed|not\s+to\s+exceed|no\s+more\s+than|"
                           r"not\s+more\s+than|(?:is|are|be)\s+limited\s+to|capped\s+at|at\s+most|up\s+to|"
                           # A time limit said either way: "ends no later than 18 months" = "must not exceed".
                           r"(?:no|not)\s+(?:later|longer)\s+than|(?:no|not)\s+(?:fewer|less)\s+than|at\s+(?:the\s+)?latest|"
                           r"at\s+least)\b", re.I)

# A "no" or "not" whose words run, in one limb, to a bound: "no covenant ... may last longer than one year"
# = "any covenant ... lasts no more than one year"; "MBE may not conduct more than one audit" = "no more
# than one audit may be conducted"; "none of which may last more than four hours" = "each lasting at most four
# hours". A limit said around its subject, read as ``limit_phrases`` reads one said in a row.
bounded_negation = re.compile(r"\b(?:no|not|never|none)\b(?:\s+(?!(?:and|or|but|unless|if|except)\b)[\w'’()-]+){0,8}?\s+"
                              r"(?:(?:more|longer|later|greater|higher|fewer|less)(?:\s+\w+ly)?\s+than|exceed\w*)\b", re.I)

# ... and the same said across a longer limb of one sentence, list and all: "NEITHER PARTY SHALL BE LIABLE
# UNDER ANY CONTRACT, NEGLIGENCE, ... FOR ANY AMOUNTS IN EXCESS OF THE FEES" = "EACH PARTY'S LIABILITY
# ... SHALL NOT EXCEED $1,000,000" (the drafting comparison; no condition or new duty in between).
distant_bounded_negation = re.compile(
    r"\b(?:no|not|never|neither)\b(?:(?!\b(?:unless|if|except|provided|and\s+(?:shall|will|may|must))\b)[^.;:]){0,300}?"
    r"\b(?:exceed\w*|in\s+excess|(?:more|greater|longer|later|higher)\s+than)\b", re.I)

# Added words that keep the clause's limit for the item rather than lift it ("if the claim is due to
# fraud, the liability cap will not be exceeded"), and the words that do lift it ("shall not apply",
# "will not be capped", "excluding"). Found by a new user's "Add a carve-out for fraud", marked done.
keeps_limit = re.compile(r"\b(?:will|shall|must|may|does|do|is|are)\s+not\s+be\s+exceeded\b|"
                         r"\b(?:shall|will)\s+(?:still|also|continue\s+to)\s+apply\b|"
                         r"\b(?:remains?|is|are|be)\s+(?:still\s+)?subject\s+to\b|"
                         r"\b(?:shall|will)\s+(?:still\s+|also\s+)?be\s+(?:limited|capped)\b", re.I)
lifts_limit = re.compile(r"\bexcept\w*|\bexclud\w*|\b(?:shall|will|does|do)\s+not\s+(?:apply|limit|restrict|cap)\b|"
                         r"\bnot\s+(?:be\s+)?(?:limited|capped|subject\s+to)\b|\bunlimited\b|\buncapped\b|"
                         r"\bnothing\s+in\b|\bother\s+than\b|\bsave\s+(?:for|that)\b|\bunless\b|\bin\s+excess\s+of\b", re.I)

# The "not" of a limiting verb (the caps reader: "shall not exceed", "in no event ... more than"). A
# negation of another verb ("shall not apply to the extent X pays in excess of") makes no ceiling.
limiting_negation = (
    r"(?:\b(?:not|never|cannot|can['’]t|won['’]t|shan['’]t)\b(?!\s+(?:apply|applicable|limit(?:ed)?|include|affect|"
    r"restrict|reduce|prejudice|waive|exclude|relieve|release)\b)|\bneither\b|\bnor\b|"
    r"\bno\s+(?:one\s+)?(?:event|case|circumstances?)\b|"
    # "no Underwriter shall be required to contribute any amount in excess of": a contribution cap
    r"\bno\s+(?:[A-Z][\w-]*\s+){1,3}(?:shall|will|may)\s+be\s+(?:required|obligated)\s+to\s+contribute\b)")
# The "not" right after a modal ("shall not", "may no", "won't", "will never"), as a named group: who a
# sentence binds reads a duty and its negation in one match.
verb_negation = r"(?P<neg>\s+not\b|\s+no\b|\s+never\b|n't\b)?"
# "inadequate" says "not adequate": a "not" said by the word's own prefix.
negative_prefixed = re.compile(r"\b(?:in|un|im|ir|il|non-?|dis)(?:adequa|availab|enforc|valid|reason|limit|authori|able|"
                               r"permit|lawful|able|capable|effective|necessar|consist|applicab|cancel|restrict)\w*", re.I)
# A "not" said with no "not" word (the part-by-part reading of a rewording, compare_pairs.py): "without",
# "nor", "free of", "excludes", "disclaims", "waives", "instead of", "other than", "outside", "refrains",
# "lacks", "exempt", "void", "ceases". A rewording that says one of these may carry the clause's "not" in it.
DENIED_OTHERWISE = re.compile(r"\b(?:without|nor|free\s+(?:of|from)|exclud\w*|disclaim\w*|waiv\w*|instead\s+of|"
                              r"rather\s+than|other\s+than|outside|beyond|refrain\w*|lacks?|lacking|absen\w*|"
                              r"exempt\w*|void|ceas\w*|declin\w*|refus\w*|withh[oe]ld\w*|forbid\w*|prohibit\w*|"
                              r"bar(?:s|red)?|ban(?:s|ned)?|no\s+longer|neither|unless|except\w*|save)\b", re.I)
# A "not" before a verb of changing says the thing stays as it is ("does not alter the covenants as applied
# to any other worker" = "for any other worker, the covenants apply as written"): a rewording says that with
# no "not", so such a "not" is no denial to keep. Matched at the start of what the "not" is said on.
UNCHANGED_AFTER_NOT = re.compile(r"(?:(?:be|been|to|in\s+any\s+way|otherwise|as)\s+)*(?:alter|affect|chang|modif|"
                                 r"amend|prejudic|impair|diminish|derogat|limit|reduc|relie|releas|supersed|"
                                 r"replac)\w*", re.I)
# A grant's quality said with "non-" or without it: "non-exclusive", "non-transferable", "non-refundable"
# (an adjective; "non- transferable" as a PDF breaks it). Turning one into the other turns what is granted.
_NON_QUALITY = re.compile(r"\bnon-?\s?([a-z]{3,}(?:ive|able|ible))\b", re.I)
# A bare quality is denied by a "not" or "without" earlier in its part of the sentence ("is not assignable,
# transferable or sublicensable"): that says the "non-" form. A bare "any" denies nothing ("into any
# Invention, and the Company is granted an exclusive licence", f-multi-10).
_DENIED_BEFORE = re.compile(rf"\b(?:{NOT_WORDING}|nor|without)\b[^.;:]*$", re.I)


def _says_bare(text: str, word: str) -> bool:
    return any(not _DENIED_BEFORE.search(text[max(0, m.start() - 100):m.start()]) and
               not re.search(r"\bnon-?\s?$", text[max(0, m.start() - 5):m.start()], re.I)
               for m in re.finditer(rf"(?<![\w-]){re.escape(word)}\b", text, re.I))


def non_turned(clause: str, draft: str) -> tuple[str, str] | None:
    """A quality the clause says with "non-" that the draft says bare and nowhere with "non-", or the other way
    round, as (the clause's word, the draft's): "non-exclusive" -> "exclusive". None where none is turned."""
    mine = {m.group(1).lower() for m in _NON_QUALITY.finditer(clause)}
    theirs = {m.group(1).lower() for m in _NON_QUALITY.finditer(draft)}
    for word in sorted(mine - theirs):
        if _says_bare(draft, word) and not _says_bare(clause, word) and not _either_way(clause + "\n" + draft, word):
            return f"non-{word}", word
    for word in sorted(theirs - mine):
        if _says_bare(clause, word) and not _says_bare(draft, word) and not _either_way(clause + "\n" + draft, word):
            return word, f"non-{word}"
    return None


def _either_way(text: str, word: str) -> bool:
    """A quality said with its denial beside it, "patentable or non-patentable" = "patentable or not": either way,
    so no quality at all, and the one wording says what the other does."""
    w = re.escape(word)
    return bool(re.search(rf"\b{w}\s+or\s+(?:not\b|non-?\s?{w}\b)|\bnon-?\s?{w}\s+or\s+{w}\b", text, re.I))


# A part of a sentence that states a promise, a right or a limit of its own (a modal, a "not", an
# "only", an exception).
turning_word = re.compile(r"\b(?:shall|will|must|may|not|only|except|unless)\b", re.I)


# -- where a liability cap's measure ends (reading/caps.py, reading/cap_measures.py) -------------
# A cap's measure runs to the words that open a new clause of its sentence: "$1,000,000, except for
# breaches of Section 9" caps liability at $1,000,000, and the exception is not part of the amount.
# The exception words are EXCEPTION_WORDS; "notwithstanding" sets the words before it aside.
_OVERRIDE = "notwithstanding"
# A proviso: "provided" with what makes it one (", provided that", "provided, however,"); in "the
# services provided" the measure goes on.
_PROVISO = r"provided(?=\s*(?:,|that\b|however\b|further\b|always\b|though\b))"
# A second limit of the same sentence: "... the fees paid, and in no event shall ...", "and neither party".
_NEXT_LIMIT = r"and\s+in\s+no\s+event|and\s+(?:neither|each|either)\s+party"


@lru_cache(maxsize=None)
def measure_end(*, valued: bool = True) -> re.Pattern[str]:
    """Where a cap's measure ends: the start of the first match.

    valued: a measure read for its value (cap_measures.py): a proviso by its shape, or after a ","
    or ";"; an exception, "notwithstanding" or a second limit after a space. Not valued: a defined
    cap's measure that cannot be valued, kept as words (caps.py); it ends at the clause's ";", at
    any "provided", or at an exception or "notwithstanding" (no second limit follows a definition).
    """
    words = sorted(EXCEPTION_WORDS) + [_OVERRIDE]
    if valued:
        return re.compile(rf"[,;]\s*provided\b|,?\s+(?:{'|'.join([_PROVISO, *words, _NEXT_LIMIT])})\b", re.I)
    return re.compile(rf";|[,;]?\s*\bprovided\b|,?\s*\b(?:{'|'.join(words)})\b", re.I)


# A ceiling or a floor written after a measure ends it, and the two are read together: "50% of the
# monies paid, to a maximum of $1,000,000" is the lesser of the two; "the fees paid, but not less than
# $10,000" the greater (cap_measures.py). The "not" of each, said as a lawyer says it in a cap:
_NO_EVENT = r"(?:not|never|in\s+no\s+(?:event|case))"
ceiling_after = re.compile(
    r",?\s*(?:but\s+)?(?:in\s+any\s+event\s+)?(?:(?:(?:up\s+)?to|subject\s+to|with)\s+an?\s+(?:overall\s+|aggregate\s+|total\s+)?"
    rf"(?:maximum|cap|ceiling|limit)(?:\s+amount)?\s+(?:of|equal\s+to)\b|not\s+to\s+exceed\b|"
    rf"{_NO_EVENT}\s+(?:more|greater|higher)\s+than\b|capped\s+at\b)|"
    r",\s*(?:but\s+(?:only\s+)?)?up\s+to\b(?=\s*(?:[$€£\d]|(?:US|USD|EUR|GBP)\b))", re.I)
floor_after = re.compile(
    rf",?\s*(?:but\s+)?(?:in\s+any\s+event\s+)?(?:{_NO_EVENT}\s+(?:less|lower|fewer)\s+than\b|"
    r"(?:subject\s+to|with)\s+an?\s+minimum(?:\s+amount)?\s+of\b)", re.I)
# The limits that bound the measure before them when they follow it after a comma ("the fees paid,
# not to exceed $5,000"; caps.py): the two said with no subject of their own.
BOUND_AFTER = re.compile(r"(?:not\s+to\s+exceed|up\s+to)\b", re.I)
