"""The instruction's vocabulary: the patterns that say what kind of ask a segment is, and the ones
that say a segment is a statement, a reason or a pointer rather than an ask.

Apart from instruction.py because the structure (read_instruction), the kinds (instruction_kinds.py)
and the values (instruction_values.py) all read these same words: one list, never two that disagree.
"""

from __future__ import annotations

import re


ASK = (r"make|cut|carve|exclude|add|change|extend|reduce|raise|lower|increase|bump|set|fix|limit|cap|drop|"
        r"delete|remove|take|strike|keep|leave|let|allow|permit|give|have|use|put|bring|conform|shorten|trim|"
        r"simplify|require|base|move|switch|swap|reverse|flip|mutualise|mutualize|bind|replace|insert|include|"
        r"exempt|tidy|halve|lengthen|shorten|state|spell|apply|restrict|name|mirror|whoever|both|each|either")

# A topic heading a listed point, then a dash: "Assignment - add the acquirer exception in [1], for both parties",
# "Third-party engagement – Company's notice …". It names a thing; a head that opens with a verb of asking
# ("Carve out public information - take limb (b) from [1]") is the ask itself. The ask starts after it (the
# words before would hide the verb that opens the ask, and drafting-z's blind review saw "for both parties",
# the exception's reach, read as make-mutual).
TOPIC_HEAD = re.compile(rf"(?:^|(?<=\s))(?!(?:{ASK}|carve|exclude|except|keep|leave|let)\b)(?-i:[A-Z])[\w'’-]*"
                        r"(?:\s+[a-z][\w'’-]*){0,3}\s+[-–—]\s+(?=[a-z])", re.I)

CONFORM = re.compile(r"\bconform\w*\b|\bour (?:own )?(?:defined )?(?:terms|definitions|parties)\b|\buse our\b|"
                      r"\b(?:adapt|fit|bring|put)\b[^.;]{0,30}\b(?:into|to) our\b|\bthroughout\b|"
                      r"\b(?:in line|consistent) with (?:our|my)\b|"
                      r"\b(?:change|rename|call)\s+(?:the\s+)?[A-Z][\w&.-]*\s+(?:to|the)\s+(?:the\s+)?[A-Z]", re.I)  # any case: "call it the non-compete period"
# A clause carried from one document into another ("bring this recital across", "ported the non-solicit into
# the contractor agreement", "pasting SLA 1.4 into our DPA"): its party and term mapping is no right moved
# between the parties; what else it asks (sections renumbered, words dropped) no conform check reads, so
# the kinds read it as "other" (read it) unless a conform cue of its own says more.
CARRIED = re.compile(r"(?<!\bnot\s)(?<!n['’]t\s)\b(?:bring|carry|port|paste|lift|copy)\w*\s+(?:this|it|the|that)\b[^.;?]{0,40}\s(?:across|over)\b|"
                     r"(?<!\bnot\s)(?<!n['’]t\s)\b(?:port|paste|past|lift|copy|import|transplant)\w*\b(?:[^.;?]|\.(?=\d)){0,60}"
                     r"\binto\s+(?:our|the|this|their)\b(?:[^.;?]|\.(?=\d)){0,60}"
                     r"\b(?:agreement|form|contract|document|template|DPA|MSA|terms)\b", re.I)
LESS_WORDS = (r"\btighten\w*\b|\bpare\b|\bcondense\w*\b|\bbloated\b|\blong[- ]winded\b|\bverbose\b|"
              r"\bcut\s+(?:it|this|that|\w+)\s+(?:down|back|in\s+half|by\s+(?:a\s+|one[- ])?(?:half|third|quarter))\b|"
              r"\b(?:a|one)[- ]third\s+shorter\b|\blose\s+(?:a|one)[- ](?:third|quarter|half)\b|"
              r"\btwo[- ]thirds\s+(?:of\s+)?(?:the|its)\s+length\b|"
              r"\b\d+\s+words?\s+(?:max(?:imum)?|tops|or\s+(?:fewer|less)|at\s+the\s+outside)\b|\bno\s+longer\s+than\s+\d+\s+words\b|"
              r"\b\d+[- ]words?\s+(?:ceiling|limit|cap|max(?:imum)?)\b|[≤<]=?\s*\d+\s+words\b|"
              r"\bword\s+(?:budget|count|limit|cap|ceiling)\s+of\s+\d+\b|"
              r"\b(?:get|bring)\s+(?:this|it|\w+)\s+(?:to|under|down\s+to)\s+\d+\s+words\b|"
              r"\b(?:into|in|to|be|as|make\s+(?:it|this))\s+(?:one|a\s+single|two|three)\s+sentences?\b|"
              r"^\s*(?:one|two|three)\s+sentences?\b|"
              r"\b(?:collapse|fold|get|put|turn)\s+(?:it|this|the\s+clause)\s+into\s+(?:one|a\s+single|two)\b|"
              r"\bsay\s+it\s+once\b|\b(?:says?|said)\s+(?:the\s+same\s+(?:thing|rule)\s+)?twice\b")
SHORTEN = re.compile(r"\bshort(?:en|er)\b|\btrim\b|\bconcise\b|\bcut (?:it|this) (?:down|by half)\b|\bhalve\b|"
                      r"\bby (?:about )?half\b|\bwordy\b|\bbriefer\b|\bfewer words\b|\bredundan\w*|"
                      # A count of sentences or words ("in 50 words", "within two sentences"), not "in words the
                      # marketing team can follow".
                      r"\b(?:no more than|at most|in|within|under) (?:\d+|one|two|three|four|five|six|seven|eight|nine|"
                      r"ten|\w+ty(?:-\w+)?|a hundred|fewer|a few) (?:sentences?|words)\b|\btighten up\b|"
                      # The many ways a lawyer asks for less: a vague verb ("tighten", "pare it back", "condense"),
                      # a fraction ("cut it in half", "lose a third", "two-thirds the length"), a count said after
                      # its number ("60 words tops", "45-word ceiling", "<= 60 words", "Two sentences, tops"),
                      # sentences joined ("collapse it into one sentence", "fold ... into one"), or a repeat
                      # ("it says the same thing twice", "say it once").
                      + LESS_WORDS, re.I)
PLAIN = re.compile(r"\bplain(?:er|ly)?\b(?!\s+['‘\"“])|\bjargon\b|\beveryday\s+(?:english|language|words)\b|\bnon-?lawyers?\b|\bno\s+lawyers\b|"
                    r"\breadable\b|\bin\s+(?:normal|simple|clear|plain)\s+(?:english|language|words)\b|"
                    r"\bin\s+words\s+(?:the|they|a|an|our|their|\w+['’]d)\b[^.;?]{0,40}\b(?:follow|use|read|understand|get)\b|"
                    r"\bexplain\s+it\b[^.;]{0,30}\bacross\s+the\s+table\b|\bsecond\s+language\b|"
                    r"\bstrip\s+(?:out\s+)?(?:the\s+)?['‘\"“]?(?:here|there|pursuant|notwithstanding|whereas)\w*|\bde-?lawyer\w*|\bsimplif\w*|\bsimpler\b|\blegalese\b|\bclient[- ]facing\b|"
                    r"\bexplain this\b|\bordinary (?:english|words)\b", re.I)
# "Asks for mutuality", one reading in degrees (one list; the kinds, the values and the gate in
# unambiguous.py all read it): STRONG names it ("mutual", "reciprocal", "two-way"); BOTH asks both
# parties to act ("each party should", "neither side may"); SIDES names both sides ("each side",
# "both parties"); WEAK only hints ("the same right", "as well", "too").
WEAK, SIDES, BOTH, STRONG = 1, 2, 3, 4
MUTUAL_CUES = (
    (STRONG, r"\bmutual\w*|\breciproc\w*|\bbilateral\b|\btwo[- ]way\b|\bboth ways\b"),
    (BOTH, r"\b(?:either|each|both|neither) (?:party|parties|side|sides) (?:should|may|must|can|shall|to|is|are)\b"),
    (SIDES, r"\b(?:each|both|either) (?:side|sides|party|parties)\b|\bneither side\b"),
    (WEAK, r"\bapply equally\b|\b(?:the )?same (?:\w+[- ]?){0,3}(?:right|obligation|duty|licen[cs]e|restriction|non-?\w+|"
           r"indemnity|cover|run-off|protection|terms|cap|limit|promise|undertaking|covenant|commitment)\b|\bas well\b|(?<!\bthere\s)(?<!\bhere\s)\b(?:too|either)\s*[.!?)]?$|"
           r"(?<!\bthere\s)(?<!\bhere\s)\b(?:too|either)\b(?=[,.)]|\s+[-–—])|\bcovering up\b|"
           # "Company should get exactly the same", "we want the same": what one party has, given to the
           # other as well; a share, never a move ("the same" said of a figure is read as that figure).
           # ("Our 5.5 has the same hole": the same said of a thing, which no party is given.)
           r"\b(?:get|gets|have|has|enjoy|receive|be\s+given|be\s+entitled\s+to)\s+(?:exactly\s+|just\s+|precisely\s+)?the\s+same\b"
           r"(?=\s*(?:$|[,.;:!?)\-–—]|(?:one|deal|thing|treatment|benefit|rights?|freedom|option)\b))|\blikewise\b"),
)


def mutual_cues(least: int) -> re.Pattern[str]:
    """Every cue of at least that degree, as one pattern."""
    return re.compile("|".join(f"(?:{p})" for degree, p in MUTUAL_CUES if degree >= least), re.I)


def mutual_degree(text: str) -> int:
    """How strongly ``text`` asks for mutuality: 0 (not at all) to STRONG."""
    return max((degree for degree, p in MUTUAL_CUES if re.search(p, text, re.I)), default=0)


MUTUAL = mutual_cues(WEAK)
# What stays as it is, one vocabulary (guards.py's leave readers, unambiguous.says_to_keep,
# instruction_moves' kept figures, instruction_values' kept figures): the verbs a lawyer keeps a part
# with, the verbs a part stays by, and the states it stays in.
KEEP_VERBS = r"(?:leave|keep|retain|preserve|don['’]?t\s+(?:touch|change)|do\s+not\s+(?:touch|change))"
STAY_VERBS = r"(?:stays?|remains?|staying|remaining)"
# ("unaffected" is "unchanged" in other words; "Not changed:" heads a form's field of what stays.)
STAY_STATES = (r"(?:as\s+(?:it|they)\s+(?:is|are)|as\s+is|alone|unchanged|untouched|intact|unaffected|"
               r"not\s+(?:changed|affected)(?=\s*:)|where\s+(?:it|they)\s+(?:is|are))")
# A keep said in other ways, one vocabulary with the three above (parts_keep.py reads keep segments with
# them; unambiguous.says_to_keep reads a part that only keeps): KEPT_BEFORE follows what it keeps ("May 1,
# 2020 ... are not moving", "Every ORS reference has to survive", "is as drafted", "is out of scope");
# KEPT_AFTER comes before it ("Not touching 277,760", "It must still show: ...", "keeping the bypass of
# Sections 5 and 12.3", "KEEP: the [***] rate"); NOTHING_ELSE keeps all the asks do not name. A part that
# only keeps (says_to_keep) is read by NOTHING_ELSE, NOT_TOUCHING and NOT_MOVING, not by "as drafted": a part
# can join an ask and a keep ("... rather than on the Licensee. The first sentence is to be left as drafted").
NOT_MOVING = r"(?:(?:is|are)\s+not\s+(?:moving|changing|to\s+(?:move|change))|not\s+moving|(?:is|are)\s+out\s+of\s+scope)"
KEPT_BEFORE = (r"(?:" + NOT_MOVING + r"|"
               r"(?:does|do|should|must|will)\s*(?:n['’]t|\s+not)\s+(?:move|change)|"
               r"(?:(?:has|have|needs?)\s+to\s+(?:still\s+)?survive|(?:must|should|shall)\s+(?:still\s+)?survive)\b(?!\s+(?:the\s+|any\s+)?(?:termination|expir\w+|for|until|beyond))|"
               r"as\s+drafted|"
               r"as\s+(?:it|they)\s+(?:was|were|stands?)|still\s+(?:listed|named))")
NOT_TOUCHING = r"not\s+touching"
KEPT_AFTER = (r"(?:\bKEEP\s*:|keeping|retaining|preserving|" + NOT_TOUCHING + r"|without\s+(?:touching|changing|losing|dropping)|"
              r"(?:must|should|has\s+to|have\s+to|needs?\s+to)\s+still\s+(?:show|say|cover|list|include)|"
              r"still\s+(?:shows?|says?|covers?|lists?|includes?)|(?:do\s+not|don['’]t|never)\s+lose)")
NOTHING_ELSE = r"(?:no\s+other\s+changes?|nothing\s+else)"
FLIP = re.compile(r"\bflip\b|\bswitch\b|\bswap\b|\bgive\s+(?:us|me|them|(?-i:[A-Z])[\w&.-]*)\s+(?:the\s+)?(?-i:[A-Z])[\w&.-]*['’]s?\s|\brevers\w*\b|\bother way round\b|\bthe other way\b|"
                   r"\binstead\b|\brather than\b|\bshould be the one\b|\bturn (?:it|this) round\b|"
                   # "Wrong way round", "favours the wrong side", "we need to be the one free to assign":
                   # the ways a lawyer says who should hold it, besides "flip" and "instead".
                   r"\bwrong\s+(?:way\s+(?:a?round|about)|side)\b|\b(?:be|is|are)\s+the\s+ones?\s+(?:free\s+to|to|(?:who|that)\s+(?:must|should|shall|has\s+to|needs\s+to))\b|"
                   r",\s*not (?:(?:of|to|for|by|with|from|on) )?(?:the |an? )?(?:(?-i:[A-Z])[\w&.-]*\b|(?:us|we|them|me)\b)|"
                   r"\bnot the (?-i:[A-Z])\w*\.?$", re.I)
# "it shouldn't apply if ...", "X should still get the benefit": an exception to what the clause says.
NOT_APPLY = (r"\b(?:does|do|should|shall|must|will|would)(?:n't|\s+not)\s+(?:apply|cover|bite|catch|count|bar|stop)\b|"
              r"\b(?:should|must|can|may|will)\s+still\s+(?:be\s+able\s+to\s+)?(?:get|have|keep|take|benefit|receive|be)\b")
# A condition the lawyer adds as a part of its own: "only with prior written approval", "subject to ...".
CONDITION = re.compile(r"(?:but\s+)?(?:only\s+(?:if|with|while|during|when|where|after|before|until|upon|on|for|to|in)|"
                        r"subject\s+to|provided\s+(?:that|it)|as\s+long\s+as|so\s+long\s+as)\b", re.I)
CARVE = re.compile(r"\bcarve[- ]?out\b|\bcarve\b|\bexclu(?!siv)\w+|\bexcept\w*\b|\ballow(?:s|ed|ing)?\b|\blet\b|\bpermit\w*\b|"
                    r"\bexempt\w*\b|\bother than\b|\bunless\b|" + NOT_APPLY, re.I)
# Legalese a lawyer asks to lose ("get rid of the hereunders"): the one list the plain-English part
# is checked against (parts_wording.py).
ARCHAIC = ("hereby", "herein", "hereof", "hereto", "hereunder", "hereinafter", "thereof", "therein", "thereto",
           "thereunder", "therewith", "therefrom", "whereas", "witnesseth", "aforementioned", "aforesaid",
           "pursuant to", "notwithstanding", "forthwith", "inter alia", "provided, however", "in the event that",
           "as the case may be", "and/or", "said party", "heretofore", "hereafter", "wherein", "whereby")
# Legalese quoted to lose: "Lose the 'hereby covenants'", "Strip out the 'pursuant to'" (not words that merely hold
# one: "drop the 'media now known or hereafter devised' language" names words to delete).
ARCHAIC_NAMED = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in ARCHAIC) + r")s?\b|\blegalese\b|\barchaic\b", re.I)
ARCHAIC_QUOTED = re.compile(r"['‘\"“](?:" + "|".join(re.escape(w) for w in ARCHAIC) + r")s?\b", re.I)
DELETE = re.compile(r"\b(?:drop|delete|remove|strike|lose|take out|get rid of|cut out)\b", re.I)
CHANGE = re.compile(r"\b(?:to|at|instead|not|from|extend|cut|limit|cap|make|fix|set|require|give|get|run|minimum|"
                     r"maximum|raise|lower|reduce|increase|bump|shorten|lengthen|change|need|tail|term|"
                     r"extension|notice|period|within|after|before|up to)\b|:", re.I)
FEES_BASIS = re.compile(r"\b(?:paid|fees|payable|charges)\b", re.I)
# The whole clause's count only: "get it into two sentences", "Collapse it into one sentence"; not "the two
# acknowledgements can be one sentence" or "merge its two sentences into one" (some sentences joined).
SENTENCE_COUNT = re.compile(r"\b(?:no more than|at most|in|within|under|maximum of|make (?:it|this))\s+"
                             r"(\w+|a single)\s+sentences?\b|^\s*(one|two|three)\s+sentences?\b|"
                             r"\b(?:get|put|collapse|fold|bring|turn)\s+(?:it|this|the\s+clause|the\s+whole\s+thing)\s+"
                             r"(?:in)?to\s+(\w+|a single)\s+sentences?\b|"
                             r"\b(?:could|can|should)\s+(?:it|this)\s+be\s+(one|a single)\s+sentence\b", re.I)
WORD_COUNT = re.compile(r"\b(?:no more than|no longer than|at most|under|fewer than|maximum of|within|to|at|in)\s+(\d+)\s+words\b|"
                         r"\b(\d+)\s+words?\s+(?:max(?:imum)?|tops|or\s+(?:fewer|less)|at\s+the\s+outside)\b|"
                         r"\b(\d+)[- ]words?\s+(?:ceiling|limit|cap|max(?:imum)?)\b|[≤<]=?\s*(\d+)\s+words\b|"
                         r"\bword\s+(?:budget|count|limit|cap|ceiling)\s+of\s+(\d+)\b", re.I)
NUMBER_WORDS = {w: n for n, w in enumerate("zero one two three four five six seven eight nine ten".split())}
FOREIGN = re.compile(
    r"\b(?:rendre|réciproque|cette|mutuelle|machen|diese|klausel|gegenseitig|bitte|hacer|esta|cláusula|mutua|"
    r"rendere|questa|reciproca|maak|deze|wederzijds|tornar|recíproca|umowa|wzajemn\w*)\b", re.I)
NON_LATIN = re.compile(r"[^\x00-\x7F\u00A0-\u024F\u2000-\u206F\u20AC]")
PRECEDENT_REF = re.compile(r"(?:precedent\s*)?\[(\d{1,2})\]|\bprecedent\s+(\d{1,2})\b", re.I)
LEAVE = re.compile(r"(?:\b(?:leave|don't touch|do not touch|not touch|not the|but not|without touching|other than|"
                    r"except)\b|(?:^|[.;,:(]\s*)keep\b)(.{0,80}?)(?:\b(?:alone|as (?:it|they) (?:is|are)|unchanged|"
                    r"with \w+|on \w+)\b|[.;)]|$)", re.I)
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1, "final": -1,
             # "the opening sentence", "the closing proviso": the first and last, as lawyers also say it.
             "opening": 1, "closing": -1}


# A statement, not an ask: a subject ("we", "it", "[1]") and a verb that is not one of wanting ("we can't
# sit in limbo for two months", "[1] manages with 30"): a reason, whatever figures it gives.
# Someone else's words quoted in the instruction ("Client writes: 'a warrant over 2m shares doesn't cover
# it'"): reported, read for figures but not for the kind of ask.
QUOTED = re.compile(r"(?:^|(?<=[\s:(]))['‘\"“][^'’\"”]{12,}?(?:['’\"”](?=[\s.,;:)!?]|$)|$)")
SUBJECT = re.compile(r"^(?:we|i|they|he|she)(?:\s*\([^)]*\))?\s+\w+", re.I)
BARE_NUMBER = re.compile(r"\b(?:to|at|down to|up to)\s+\d+(?:\.\d+)?\b(?!\s*(?:%|percent|days?|weeks?|months?|years?))", re.I)
# Where a part's words come from: a precedent named with a word about wording.
SOURCE = re.compile(r"\b(?:wording|language|words|sentence|drafting|model|form|text)\b[^.;]{0,40}(?:\[\d+\]|precedent)|"
                     r"(?:\[\d+\]|precedent)[^.;]{0,40}\b(?:wording|language|words|sentence|model|template)\b", re.I)
STATEMENT = re.compile(r"^(?:(?:but|and|as|because|since|so)\s+)?(?:we|i|they|he|she|it|this|that|(?:precedent\s*)?\[\d+\])"
                        r"(?:\s*\([^)]*\))?\s+(?!(?:really\s+|also\s+|just\s+)?(?:should|must|need|needs|want|wants|would|"
                        r"require|requires|ask|asks|prefer|'d|shall|will need|have to|has to)(?:n['’]t)?\b)\w+", re.I)


BOTH_ASK = mutual_cues(BOTH)
MODIFIER = re.compile(r"(?:but\s+)?(?:leave|keep|don't|do not|not the|without|same\b)\b", re.I)
STRONG_MUTUAL = mutual_cues(STRONG)
CARVE_LEAD = re.compile(r"(?:please\s+)?(?:carve|exclude|except|exempt|allow|let|permit|add\b[^.;]{0,40}\b(?:carve|"
                         r"exclusion|exception))", re.I)


# Words the lawyer wants put in, after the ones to take out: "drop 'he' and 'his' - say 'Consultant'".
_INSTEAD_WORDS = re.compile(r"(?:\b(?:say|use|write|put|call\s+(?:it|him|her|them)|replace\w*\s+(?:\w+\s+){0,3}?with|"
                            r"instead\s+(?:say|use)|with|to|(?:is|are|becomes?)(?:\s+(?:simply|just|now))?)|->|→|=)\s*$",
                            re.I)


def replacement_quotes(text: str) -> list[str]:
    """The quoted words a part asks to put in (said after "say", "use", "replace ... with", "->")."""
    return [m.group(1).strip() for m in QUOTED_ANY.finditer(text) if _INSTEAD_WORDS.search(text[:m.start()])]


QUOTED_ANY = re.compile(r"(?<!\w)[‘'\"“]([^‘’'\"“”]{1,60})[’'\"”](?!\w)")
