"""What a drafting instruction asks for, part by part, read once for the operations and the checks.

Lawyers write one ask or several ("Make the non-solicit mutual, cut the tail to six months, and
carve out general job ads"), in jargon or in words ("Distributor should be able to check
Airspan's books as well", "The cap should protect Contractor, not Company"), with reasons and
asides ("We're disclosing too: ..."). ``read_instruction`` splits the text into parts at
semicolons, sentences and the commas and "and"s that start a new ask; reads each part's kind
and values (a period, an amount, the party a right moves to, the words a carve-out names, a
length); and notes what a part names to leave alone ("leave the first sentence alone", "keep
the caps on Galaxy"). Sentences that ask nothing are read as context of the part they explain.

The operations carry out the parts they can (router.py); the checks hold the draft to every
part (checks.py). Nothing else — no label, no expectation — reaches either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from index_builder.reading import binding
from index_builder.reading import figures as F

KINDS = ("mutual", "flip", "period", "amount", "carve_out", "conform", "shorten", "plain", "delete", "other")
# Kinds a drafting operation can carry out on the clause's own words.
OPERABLE = ("mutual", "flip", "period", "amount", "carve_out", "conform", "delete")

_ASK = (r"make|cut|carve|exclude|add|change|extend|reduce|raise|lower|increase|bump|set|fix|limit|cap|drop|"
        r"delete|remove|take|strike|keep|leave|let|allow|permit|give|have|use|put|bring|conform|shorten|trim|"
        r"simplify|require|base|move|switch|swap|reverse|flip|mutualise|mutualize|bind|replace|insert|include|"
        r"exempt|tidy|halve|lengthen|shorten|state|spell|apply|restrict|name|mirror|whoever|both|each|either")
# Sentences end at a stop, never after an abbreviation ("cf. the Buyer carve-back in [1]"), and the
# next may open with a figure or a list label ("We act for Miltenyi. 90 days is nothing ...", "... (1)
# LKPL gets 15 days"); a dash
# before a statement ("bring it down to 30 - we can't sit in limbo for two months") ends an ask too.
_SPLIT = re.compile(rf"\s*;\s*|(?<!\bcf\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bviz\.)(?<!\bArt\.)(?<!\bs\.)(?<!\bcl\.)(?<!\bNo\.)(?<=[.?!])\s+(?=[A-Z\"“\[]|\d|\(\w{{1,3}}\)\s)|"
                    rf"\s+[-–—]+\s+(?=(?:we|i|they|he|she|it|this|that)\b(?:\s*\([^)]*\))?\s+\w+)|\s+[-–—]+\s+(?=(?:can|could|would|please)\s)|,?\s+(?:and|but|then|plus)\s+(?=(?:also\s+)?(?:{_ASK})\b)|"
                    rf",\s+(?=(?:{_ASK})\b)|,\s+(?:and|but|plus)\s+|\s+[-–—]+\s+(?:and|but|plus|also)\s+", re.I)

_CONFORM = re.compile(r"\bconform\w*\b|\bour (?:own )?(?:defined )?(?:terms|definitions|parties)\b|\buse our\b|"
                      r"\b(?:adapt|fit|bring|put)\b[^.;]{0,30}\b(?:into|to) our\b|\bthroughout\b|"
                      r"\b(?:in line|consistent) with (?:our|my)\b|"
                      r"\b(?:change|rename|call)\s+(?:the\s+)?[A-Z][\w&.-]*\s+(?:to|the)\s+(?:the\s+)?[A-Z]", re.I)
_SHORTEN = re.compile(r"\bshort(?:en|er)\b|\btrim\b|\bconcise\b|\bcut (?:it|this) (?:down|by half)\b|\bhalve\b|"
                      r"\bby (?:about )?half\b|\bwordy\b|\bbriefer\b|\bfewer words\b|\bredundan\w*|"
                      r"\b(?:no more than|at most|in|within|under) (?:\w+ )?(?:sentences?|words)\b|\btighten up\b", re.I)
_PLAIN = re.compile(r"\bplain(?:er)?\b|\bde-?lawyer\w*|\bsimplif\w*|\bsimpler\b|\blegalese\b|\bclient[- ]facing\b|"
                    r"\bexplain this\b|\bordinary (?:english|words)\b", re.I)
_MUTUAL = re.compile(r"\bmutual\w*|\breciproc\w*|\bbilateral\b|\btwo[- ]way\b|\bboth (?:ways|sides|parties)\b|"
                     r"\beach (?:side|party)\b|\beither (?:side|party)\b|\bneither side\b|\bapply equally\b|"
                     r"\b(?:the )?same (?:\w+[- ]?){0,3}(?:right|obligation|duty|licen[cs]e|restriction|non-?\w+|"
                     r"indemnity|cover|run-off|protection|terms|cap|limit)\b|\bas well\b|\b(?:too|either)\s*[.!?)]?$|"
                     r"\b(?:too|either)\b(?=[,.)]|\s+[-–—])|\bcovering up\b", re.I)
_FLIP = re.compile(r"\bflip\b|\bswitch\b|\bswap\b|\bgive\s+(?:us|me|them|[A-Z][\w&.-]*)\s+(?:the\s+)?[A-Z][\w&.-]*['’]s?\s|\brevers\w*\b|\bother way round\b|\bthe other way\b|"
                   r"\binstead\b|\brather than\b|\bshould be the one\b|\bturn (?:it|this) round\b|"
                   r",\s*not (?:the )?[A-Z][\w&.-]*\b|\bnot the [A-Z]\w*\.?$", re.I)
# "it shouldn't apply if ...", "X should still get the benefit": an exception to what the clause says.
_NOT_APPLY = (r"\b(?:does|do|should|shall|must|will|would)(?:n't|\s+not)\s+(?:apply|cover|bite|catch|count|bar|stop)\b|"
              r"\b(?:should|must|can|may|will)\s+still\s+(?:be\s+able\s+to\s+)?(?:get|have|keep|take|benefit|receive|be)\b")
# A condition the lawyer adds as a part of its own: "only with prior written approval", "subject to ...".
_CONDITION = re.compile(r"(?:but\s+)?(?:only\s+(?:if|with|while|during|when|where|after|before|until|upon|on|for|to|in)|"
                        r"subject\s+to|provided\s+(?:that|it)|as\s+long\s+as|so\s+long\s+as)\b", re.I)
_CARVE = re.compile(r"\bcarve[- ]?out\b|\bcarve\b|\bexclu(?!sive)\w+|\bexcept\w*\b|\ballow\w*\b|\blet\b|\bpermit\w*\b|"
                    r"\bexempt\w*\b|\bother than\b|\bunless\b|" + _NOT_APPLY, re.I)
# Legalese a lawyer asks to lose ("get rid of the hereunders"): the one list the plain-English part
# is checked against (parts.py).
ARCHAIC = ("hereby", "herein", "hereof", "hereto", "hereunder", "hereinafter", "thereof", "therein", "thereto",
           "thereunder", "therewith", "therefrom", "whereas", "witnesseth", "aforementioned", "aforesaid",
           "pursuant to", "notwithstanding", "forthwith", "inter alia", "provided, however", "in the event that",
           "as the case may be", "and/or", "said party", "heretofore", "hereafter", "wherein", "whereby")
_ARCHAIC_NAMED = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in ARCHAIC) + r")s?\b|\blegalese\b|\barchaic\b", re.I)
_DELETE = re.compile(r"\b(?:drop|delete|remove|strike|lose|take out|get rid of|cut out)\b", re.I)
_CHANGE = re.compile(r"\b(?:to|at|instead|not|from|extend|cut|limit|cap|make|fix|set|require|give|get|run|minimum|"
                     r"maximum|raise|lower|reduce|increase|bump|shorten|lengthen|change|need|tail|term|"
                     r"extension|notice|period|within|after|before|up to)\b|:", re.I)
_FEES_BASIS = re.compile(r"\b(?:paid|fees|payable|charges)\b", re.I)
_SENTENCE_COUNT = re.compile(r"\b(?:no more than|at most|in|within|under|maximum of)\s+(\w+)\s+sentences?\b", re.I)
_WORD_COUNT = re.compile(r"\b(?:no more than|at most|under|fewer than|maximum of|within)\s+(\d+)\s+words\b", re.I)
_NUMBER_WORDS = {w: n for n, w in enumerate("zero one two three four five six seven eight nine ten".split())}
_FOREIGN = re.compile(
    r"\b(?:rendre|réciproque|cette|mutuelle|machen|diese|klausel|gegenseitig|bitte|hacer|esta|cláusula|mutua|"
    r"rendere|questa|reciproca|maak|deze|wederzijds|tornar|recíproca|umowa|wzajemn\w*)\b", re.I)
_NON_LATIN = re.compile(r"[^\x00-\x7F\u00A0-\u024F\u2000-\u206F\u20AC]")
_PRECEDENT_REF = re.compile(r"(?:precedent\s*)?\[(\d{1,2})\]|\bprecedent\s+(\d{1,2})\b", re.I)
_LEAVE = re.compile(r"(?:\b(?:leave|don't touch|do not touch|not touch|not the|but not|without touching|other than|"
                    r"except)\b|(?:^|[.;,:(]\s*)keep\b)(.{0,80}?)(?:\b(?:alone|as (?:it|they) (?:is|are)|unchanged|"
                    r"with \w+|on \w+)\b|[.;)]|$)", re.I)
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1, "final": -1}


@dataclass(frozen=True)
class Scope:
    """Which sentences a part is about, and which it says to leave alone."""

    keywords: tuple[str, ...] = ()  # stems the part names ("solicit", "authorit", "cap")
    sentences: tuple[int, ...] = ()  # sentence numbers from 1 (-1 = the last)
    limbs: tuple[str, ...] = ()  # list items it names: "c"
    leave: tuple[str, ...] = ()  # stems of what it says to leave alone
    leave_sentences: tuple[int, ...] = ()
    only: bool = False  # "only", "leave the rest": the part is about its target alone

    @property
    def partial(self) -> bool:
        return bool(self.sentences or self.limbs or self.leave or self.leave_sentences or self.only)


@dataclass(frozen=True)
class Part:
    """One ask of an instruction."""

    kind: str  # one of KINDS
    text: str  # the instruction's own words for it
    params: Mapping[str, Any] = field(default_factory=dict)
    scope: Scope = field(default_factory=Scope)

    def label(self) -> str:
        """The part in a few words, for "done: ...; not done: ..."."""
        p = self.params
        if self.kind == "mutual":
            return "mutual" + (f" ({p['named']} bound too)" if p.get("named") else "")
        if self.kind == "flip":
            return f"given to {_the(p['holder'])}" if p.get("holder") else "the other party"
        if self.kind == "period" and p.get("value") is not None:
            unit = p["unit"] if p["value"] != 1 else p["unit"].rstrip("s")
            return f"{_number(p['value'])} {unit}"
        if self.kind == "amount" and p.get("amount") is not None:
            return F.format_amount(p["amount"], currency=p.get("currency"))
        if self.kind == "carve_out":
            return "carve-out" + (f" for {p['phrase']}" if p.get("phrase") else "") + \
                (f" from precedent [{p['precedent']}]" if p.get("precedent") else "")
        if self.kind == "delete" and p.get("what"):
            return f"delete {p['what']}"
        return {"conform": "your document's terms", "shorten": "shorter", "plain": "plain English"}.get(
            self.kind, _short(self.text))


@dataclass(frozen=True)
class Instruction:
    text: str
    parts: tuple[Part, ...] = ()
    problems: tuple[str, ...] = ()  # "language", "contradictory"
    reason: str = ""  # for the lawyer, when a problem stops the instruction being read
    length: Mapping[str, Any] = field(default_factory=dict)  # ratio | sentences | words

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(p.kind for p in self.parts)

    @property
    def kind(self) -> str:
        """"none", the one part's kind, "multi" or "other"."""
        if not self.text.strip():
            return "none"
        if not self.parts:
            return "other"
        return self.parts[0].kind if len(self.parts) == 1 else "multi"


# A figure judged, not asked for: "six months is too long", "$1m is far too low", "30 days isn't enough".
_JUDGED = re.compile(r"^\s*(?:the\s+)?(?:current\s+)?[^;]{1,40}?\s+(?:is|are|seems|looks|feels)\s+(?:(?:far|way|much|a\s+bit|"
                     r"rather|just)\s+)?(?:too\s+(?:long|short|high|low|much|little|generous|tight|many|few)|excessive|"
                     r"unreasonable|off-?market|not\s+(?:enough|market|acceptable))\b|^\s*[^;]{1,40}?\s+isn['’]t\s+"
                     r"(?:enough|market|acceptable)\b", re.I)


def read_instruction(instruction: str, clause: str = "", parties: Sequence[str] = ()) -> Instruction:
    """The parts an instruction asks for, read against the clause and the document's parties."""
    # A list's items, one a line ("- media returns: 180 days", "(b) a passive-holding carve-out"), are parts
    # of their own: the line breaks say so before the text is read as one line.
    listed = re.sub(r"\n\s*(?:[-•*–]|\(?[a-z0-9]{1,3}[.)])\s+", "; ", instruction, flags=re.I)
    text = _ABBREVIATED.sub(lambda m: _UNIT_WORDS[m.group(1).lower()], " ".join(listed.split()))
    if not text:
        return Instruction("")
    if _FOREIGN.search(text) or len(_NON_LATIN.findall(text)) > 2:
        return Instruction(text, problems=("language",), reason=(
            "The instruction does not seem to be in English, so no drafting operation can read it; the "
            "drafting assistant was asked instead, and the checks cannot tell whether it did what you asked."))
    names = binding.party_names(clause + "\n" + text, parties)
    parts: list[Part] = []
    context = judged_before = ""
    items = _labelled(text)
    for segment in _segments(text):
        if parts and _MODIFIER.match(segment):  # "leave the first alone", "keep the caps on Galaxy"
            parts[-1] = _with_text(parts[-1], parts[-1].text + "; " + segment, clause, names)
            continue
        kind = _kind(_restated_out(segment, clause))
        judged = _JUDGED.match(segment)
        if judged and kind in ("period", "amount") and not (parts and parts[-1].kind == kind):
            # "Ten Business Days' notice isn't enough; please make it thirty days": the figure judged is
            # the clause's, said before the ask; it is read after the ask's own figure (the old value).
            judged_before += "; " + segment
            continue
        if judged_before and kind in ("period", "amount"):
            segment, judged_before = segment + judged_before, ""
        if kind == "other" and parts and (_SUBJECT.match(segment) or (
                parts[-1].kind in ("period", "amount") and _BARE_NUMBER.search(segment))):
            # "we must be able to move this into a group company": why the part before is asked;
            # "bring it down to 30" after "... longer than 30 days": the same figure said again.
            parts[-1] = _with_text(parts[-1], parts[-1].text + (" - " if _SUBJECT.match(segment) else " ") + segment,
                                   clause, names)
            continue
        if kind == "other" and re.match(r"(?:if|where|when|once|in case|should)\b", segment, re.I) and \
                not re.search(r"[.;:]\s*$", segment):
            # "If the aggregate is less than three times the per-occurrence limit, take it to $15m": the
            # condition the ask after it is under, not an ask of its own.
            context += segment + ", "
            continue
        if kind in (None, "other") and parts and _SOURCE.search(segment):
            # "Lift the wording from [1]", "DIALOG's sentence in [1] is the model": where the words come from.
            ref = _PRECEDENT_REF.search(segment)
            params = dict(parts[-1].params)
            if ref and params.get("precedent") is None:
                params["precedent"] = int(ref.group(1) or ref.group(2))
            parts[-1] = replace(parts[-1], text=parts[-1].text + " " + segment, params=params)
            continue
        if judged and parts and parts[-1].kind == kind and kind in ("period", "amount"):
            # "90 days is market; six months is too long": the second figure is the clause's, judged,
            # not a second ask.
            said = (F.periods(segment) if kind == "period" else F.amounts(segment))[:1]
            params = dict(parts[-1].params)
            if said and params.get("old") is None:
                params["old"] = said[0].value
            parts[-1] = replace(parts[-1], text=parts[-1].text + "; " + segment, params=params)
            continue
        if kind == "mutual" and _BOTH_ASK.search(segment) and (F.periods(segment) or F.amounts(segment)):
            # "Either party should be able to walk away on 60 days' notice": both sides, and that period.
            parts.append(_part("mutual", (context + segment).strip(), clause, names))
            kind, context = ("amount" if F.amounts(segment) else "period"), ""
        if kind is None and segment in items and not _STATEMENT.match(segment) and len(segment.split()) >= 2 and \
                not re.search(r"\b(?:stays?|remains?|as\s+it\s+is|unchanged|alone|untouched|leave|keep|same)\b", segment, re.I):
            # "(i) English law": an item of the lawyer's list is an ask, even where no kind reads it;
            # a part of its own (not checked), never folded into the part before it.
            kind = "other"
        if kind is None:
            if parts:  # a reason or an aside: it explains the part before it
                parts[-1] = _with_text(parts[-1], parts[-1].text + " " + segment, clause, names)
            else:
                context += segment + " "
            continue
        if parts and parts[-1].kind == "mutual" and kind == "flip" and not _FLIP.search(segment):
            # "Reciprocity, please. Any sublicence SIGA grants ... should need MMT's approval": what the
            # other side should now owe, said after the mutual ask, is that ask spelt out, not a move.
            parts[-1] = _with_text(parts[-1], parts[-1].text + " " + segment, clause, names)
            continue
        if parts and parts[-1].kind == kind and kind in ("shorten", "plain", "mutual", "conform", "flip"):
            parts[-1] = _with_text(parts[-1], parts[-1].text + " " + segment, clause, names)
            continue
        parts.append(_part(kind, (context + segment).strip(), clause, names))
        context = ""
    if context.strip() and not parts:
        parts.append(Part("other", context.strip()))
    parts = _renames_read_as_flips(parts, clause, parties)
    problem = _contradiction(text, parts)
    if problem:
        return Instruction(text, tuple(parts), ("contradictory",), problem)
    return Instruction(text, tuple(parts), length=_length(text, parts))


# Units as lawyers abbreviate them in a quick instruction ("5 yrs", "18 mos"): read as the words
# (the figures reader reads contract prose, where they are spelt out).
_UNIT_WORDS = {"yr": "year", "yrs": "years", "mo": "month", "mos": "months", "mth": "month", "mths": "months",
               "wk": "week", "wks": "weeks", "hr": "hour", "hrs": "hours", "bus. days": "business days"}
_ABBREVIATED = re.compile(r"(?<=\d )(yrs?|mos?|mths?|wks?|hrs?)\b\.?", re.I)


_LABEL = re.compile(r"^(?:\(?[a-z0-9]{1,3}\)|[a-z0-9]{1,2}\.)\s+", re.I)


def _segments(text: str) -> list[str]:
    # A list's labels ("(b) a passive-holding carve-out") are no words of the ask.
    pieces = [_LABEL.sub("", p.strip(" ,.")) for p in _SPLIT.split(text)]
    return [p for p in pieces if p]


def _labelled(text: str) -> set[str]:
    """The segments that were items of a labelled list ("(i) English law; (ii) ..."): each an ask."""
    return {_LABEL.sub("", p.strip(" ,.")) for p in _SPLIT.split(text) if _LABEL.match(p.strip(" ,."))}


# A statement, not an ask: a subject ("we", "it", "[1]") and a verb that is not one of wanting ("we can't
# sit in limbo for two months", "[1] manages with 30"): a reason, whatever figures it gives.
# Someone else's words quoted in the instruction ("Client writes: 'a warrant over 2m shares doesn't cover
# it'"): reported, read for figures but not for the kind of ask.
_QUOTED = re.compile(r"(?:^|(?<=[\s:(]))['‘\"“][^'’\"”]{12,}?(?:['’\"”](?=[\s.,;:)!?]|$)|$)")
_SUBJECT = re.compile(r"^(?:we|i|they|he|she)(?:\s*\([^)]*\))?\s+\w+", re.I)
_BARE_NUMBER = re.compile(r"\b(?:to|at|down to|up to)\s+\d+(?:\.\d+)?\b(?!\s*(?:%|percent|days?|weeks?|months?|years?))", re.I)
# Where a part's words come from: a precedent named with a word about wording.
_SOURCE = re.compile(r"\b(?:wording|language|words|sentence|drafting|model|form|text)\b[^.;]{0,40}(?:\[\d+\]|precedent)|"
                     r"(?:\[\d+\]|precedent)[^.;]{0,40}\b(?:wording|language|words|sentence|model|template)\b", re.I)
_STATEMENT = re.compile(r"^(?:(?:but|and|as|because|since|so)\s+)?(?:we|i|they|he|she|it|this|that|(?:precedent\s*)?\[\d+\])"
                        r"(?:\s*\([^)]*\))?\s+(?!(?:really\s+|also\s+|just\s+)?(?:should|must|need|needs|want|wants|would|"
                        r"require|requires|ask|asks|prefer|'d|shall|will need|have to|has to)(?:n['’]t)?\b)\w+", re.I)


_BOTH_ASK = re.compile(r"\b(?:either|each|both|neither) (?:party|parties|side|sides) (?:should|may|must|can|shall|to|"
                       r"is|are)\b|\bmutual\w*|\breciprocal\w*|\btwo[- ]way\b|\bboth ways\b", re.I)
_MODIFIER = re.compile(r"(?:but\s+)?(?:leave|keep|don't|do not|not the|without|same\b)\b", re.I)
_STRONG_MUTUAL = re.compile(r"\bmutual\w*|\breciprocal\w*|\bbilateral\b|\btwo[- ]way\b|\bboth ways\b", re.I)
_CARVE_LEAD = re.compile(r"(?:please\s+)?(?:carve|exclude|except|exempt|allow|let|permit|add\b[^.;]{0,40}\b(?:carve|"
                         r"exclusion|exception))", re.I)


def _kind(segment: str) -> str | None:
    if _STATEMENT.match(segment) or re.match(r"(?:but\s+)?(?:same|unchanged)\b", segment, re.I):
        return None  # a reason, or what stays ("Same one-year tail, same six-month look-back")
    if re.match(r"(?:the\s+)?[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)?\s+(?:won['’]t|will\s+not|can['’]t|cannot|doesn['’]t|does\s+not|"
                r"isn['’]t|is\s+not)\s+(?:accept|agree|commit|sign|live|wear|take|like|want)\b", segment):
        return None  # "Counterparty won't accept a one-way exclusion": why the ask after it is made
    if re.match(r"(?:but\s+|so\s+)?why\b", segment, re.I):
        return None  # "Why does only Skype get the M&A carve-out?": the reason for the ask after it
    if re.match(r"(?:and\s+)?(?:let|allow)\s+(?:the\s+|that\s+)?[\w%/\s-]{1,40}?\s+(?:run|continue|apply|stand|stay|remain)s?\b",
                segment, re.I) and not F.periods(segment):
        # "let the 10% uplift run from there": what goes on as it is, not an exception ("let it run for
        # 30 days after the term" sets a period: read on).
        return None
    if re.search(r"\b(?:stays?|remains?)\s+(?:at|as)\b", segment, re.I) and not re.search(
            r"\b(?:but|and|then|while)\b", segment, re.I):
        return None  # "the audit stays at 2 business days": a figure kept, said beside the ask
    segment = _QUOTED.sub(" ", segment) if _QUOTED.sub(" ", segment).strip() else segment
    if _CONDITION.match(segment):
        return "other"  # a condition of its own: no operation adds one, so it is never silently absorbed
    if re.search(_NOT_APPLY, segment, re.I) and not _STRONG_MUTUAL.search(segment):
        return "carve_out"  # "it shouldn't apply if we let him go without cause"; "heirs should still get the benefit"
    if _CARVE_LEAD.match(segment) and not _STRONG_MUTUAL.search(segment) and not (
            _period(segment) and not re.search(r"\bcarve|\bexclu|\bexcept|\bexempt", segment, re.I)):
        return "carve_out"
    if (F.amounts(segment) or _period_change(segment)) and not _STRONG_MUTUAL.search(segment) and \
            not _BOTH_ASK.search(segment) and not _CONFORM.search(segment):
        return "amount" if F.amounts(segment) else "period"
    if _CONFORM.search(segment) and _PRECEDENT_REF.search(segment) and re.search(
            r"\b(?:period|days?|time|notice|cure|term)\b", segment, re.I):
        return "period"  # "Conform the cure period to precedent [1]": that precedent's period
    if _CONFORM.search(segment):
        return "conform"
    if _PLAIN.search(segment):
        return "plain"
    if _DELETE.search(segment) and _ARCHAIC_NAMED.search(segment):
        return "plain"  # "get rid of the hereunders": legalese out, the sentences kept
    if _DELETE.search(segment) and not _period(segment):
        return "delete"
    if _SHORTEN.search(segment) and not _period(segment) and not _MUTUAL.search(segment):
        return "shorten"
    if _MUTUAL.search(segment) and not re.search(r"\b(?:not|don['’]t|do\s+not|never|shouldn['’]t|rather\s+than|"
                                                 r"instead\s+of)\s+(?:\w+\s+){0,2}?mutual", segment, re.I):
        return "mutual"
    if _FLIP.search(segment) and not F.amounts(segment) and not _period_change(segment):
        return "flip"
    if F.amounts(segment):
        return "amount"
    if _period_change(segment):
        return "period"
    if _CARVE.search(segment):
        return "carve_out"
    if F.periods(segment):
        return "period"  # "survival for three years": a period of its own is what the part asks for
    if re.search(rf"\b(?:{_ASK})\b", segment, re.I) and len(segment.split()) > 2:
        return "other"
    if any(f.kind == "percentage" for f in F.figures(segment)):
        # "local spend 2% of Gross Sales, not 3%": a rate asked for, which no operation sets; a part
        # of its own, so that no report folds it into another part's "done".
        return "other"
    if re.search(r"\b(?:should|must|needs? to|want|wants)\b", segment, re.I) and \
            not re.match(r"(?:and\s+|but\s+)?(?:they|he|she|it|the\s+client['’]s\s+\w+(?:\s+team)?)\b", segment, re.I):
        # (Not "they need to know exactly what Emdeon can do": a reason, said of someone else.)
        return "flip"
    return None


def _restated_out(segment: str, clause: str) -> str:
    """The segment without the figures it restates as they stand: "same 30 days' notice, at About's
    offices, 2 business days max, last 6 months" lists terms to keep around the ask ("Flip the
    audit"). A figure said "same" is kept; where one is, so is every other figure the clause already
    gives. Read only for the kind of ask; the part keeps its words."""
    said = [f for f in F.figures(segment) if f.kind in ("period", "amount")]
    same = [f for f in said if re.search(r"\bsame\s+(?:\w+\s+)?$", segment[max(0, f.start - 20):f.start], re.I)]
    if not same or not clause:
        return segment
    mine = F.figures(clause)
    kept = same + [f for f in said if f not in same and any(
        m.kind == f.kind and abs(m.value - f.value) < 1e-9 and (m.unit or "") == (f.unit or "") for m in mine)]
    out = segment
    for f in sorted(kept, key=lambda f: -f.start):
        out = out[:f.start] + " " + out[f.end:]
    return out


def _period_change(segment: str) -> bool:
    return bool(_period(segment)) and bool(_CHANGE.search(segment))


def _with_text(part: Part, text: str, clause: str, names: Sequence[str]) -> Part:
    return _part(part.kind, text, clause, names)


def _part(kind: str, text: str, clause: str, names: Sequence[str]) -> Part:
    params: dict[str, Any] = {}
    if kind == "period":
        params = _period(text) or {}
        ref = _PRECEDENT_REF.search(text)
        if not params and ref:
            params = {"from_precedent": int(ref.group(1) or ref.group(2))}
        if _FEES_BASIS.search(text):
            params["basis"] = "fees"  # "cap Company at 12 months' fees": the look-back of a cap
    elif kind == "amount":
        found = [f for f in F.amounts(text) if not _KEPT_FIGURE.search(text[max(0, f.start - 40):f.start])]
        params = {"amount": _whole(found[0].value), "currency": found[0].currency} if found else {}
        old = found[1].value if len(found) > 1 else None
        if old is not None:
            params["old"] = _whole(old)
    elif kind == "flip":
        params = _flip(text, clause, names)
    elif kind == "mutual":
        named = _newly_bound(text, names, clause)
        if named:
            params["named"] = named
    elif kind == "carve_out":
        params = _carve(text)
    elif kind == "conform":
        params = {"renames": _renames(text)}
    elif kind == "delete":
        params = {"what": _after_verb(text, _DELETE)}
    elif kind == "plain" and _DELETE.search(text) and _ARCHAIC_NAMED.search(text) and not _PLAIN.search(text):
        params = {"legalese_only": True}  # "get rid of the hereunders": the words, not the sentences' length
    if kind in ("period", "amount"):
        params.update(_whose(text, names))
    ref = _PRECEDENT_REF.search(text)
    if ref and "precedent" not in params:
        params["precedent"] = int(ref.group(1) or ref.group(2))
    return Part(kind, text, params, _scope(kind, text, names))


# --- values -------------------------------------------------------------------------------

_UNITS = {"day": "days", "business_day": "business days", "week": "weeks", "month": "months", "year": "years",
          "hour": "hours"}


# Said of a figure to keep: "the audit stays at 2 business days", "same 30 days".
# ("keep the records three years" asks for a period: "keep" and "leave" are read by guards.protected.)
_KEPT_FIGURE = re.compile(r"\b(?:stays?|remains?|staying|remaining|same)\s+"
                          r"(?:at\s+|as\s+)?$", re.I)


# A period said with an article for its number ("a month", "a year") before the one it replaces.
_ONE_UNIT = re.compile(r"\b(?:a|an|one)\s+(business\s+day|day|week|month|year)\b(?!['’]s)(?![\s-]+(?:or|and)\b)", re.I)
_REPLACED_BY = re.compile(r"\b(?:instead\s+of|not|rather\s+than|in\s+place\s+of)\s*$", re.I)
_JUDGED_THEN_ASKED = re.compile(r"['’]?s?\s+(?:is|are|isn['’]t|aren['’]t|won['’]t|will\s+not|does\s+not|doesn['’]t)\b"
                                r"[^.;]{0,80}?\b(?:ask\s+for|make\s+it|go\s+(?:up\s+|down\s+)?to|bring\s+it\s+"
                                r"(?:up|down)\s+to|we\s+(?:want|need))\s+(\w+)\b(?!\s*(?:%|percent|days?|weeks?|"
                                r"months?|years?|hours?|business))", re.I)


def _period(text: str) -> dict[str, Any] | None:
    # A figure said as kept is no value asked, nor the old one.
    found = [f for f in F.periods(text) if not _KEPT_FIGURE.search(text[max(0, f.start - 40):f.start])]
    if not found:
        return None
    one = _ONE_UNIT.search(text)
    if one and one.end() <= found[0].start and _REPLACED_BY.search(text[one.end():found[0].start]):
        # "a month to cure instead of fifteen days": one of that unit asked, the figure after it the old.
        unit = one.group(1).lower()
        units = "business days" if unit.startswith("business") else unit + "s"
        return {"value": 1, "unit": units, "text": f"1 {unit}", "old": _whole(found[0].value)}
    first = found[0]
    unit = _UNITS.get(first.unit or "", first.unit or "")
    if unit == "days" and re.search(r"\bcalendar days\b", first.text, re.I):
        unit = "calendar days"
    out: dict[str, Any] = {"value": _whole(first.value), "unit": unit, "text": first.text}
    # "change ten business days to five", "from one year to six months": the new value comes last.
    to_bare = re.search(re.escape(first.text) + r"\s+to\s+(\w+)\b(?!\s+(?:days?|weeks?|months?|years?))", text, re.I)
    if to_bare and F.figures(to_bare.group(1) + " days"):
        new = F.figures(to_bare.group(1) + " days")[0].value
        out.update(value=_whole(new), old=out["value"], text=f"{to_bare.group(1)} {unit}")
    elif len(found) > 1 and re.fullmatch(r"\s+(?:to|into|->|→)\s+", text[first.end:found[1].start], re.I):
        second = found[1]  # "change the 60 days to 15 days"
        out.update(value=_whole(second.value), unit=_UNITS.get(second.unit or "", unit), old=out["value"],
                   text=second.text)
    elif len(found) > 1 and re.search(r"\bfrom\b", text[:first.start], re.I):
        second = found[1]
        out.update(value=_whole(second.value), unit=_UNITS.get(second.unit or "", unit), old=out["value"],
                   text=second.text)
    elif len(found) > 1:
        out["old"] = _whole(found[1].value)
        out["old_unit"] = _UNITS.get(found[1].unit or "", "")
    elif _JUDGED_THEN_ASKED.match(text, first.end):
        # "90 days is nothing to wind down a Module - ask for 180": the clause's figure judged, then
        # the one asked, a bare number in the judged one's unit.
        asked = _JUDGED_THEN_ASKED.match(text, first.end).group(1)
        if F.figures(asked + " days"):
            out.update(value=_whole(F.figures(asked + " days")[0].value), old=out["value"], text=f"{asked} {unit}")
    else:  # "three years after the term, not five"; "48 months minimum, not 36"
        bare = re.search(r"\b(?:not|instead of|rather than|from)\s+(\w+)\s*[.,;]?$", text, re.I) or \
            re.search(r"\b(?:not|instead of|rather than)\s+(\w+)\b", text, re.I)
        if bare and F.figures(bare.group(1) + " days"):
            out["old"] = _whole(F.figures(bare.group(1) + " days")[0].value)
    return out


def _whose(text: str, names: Sequence[str]) -> dict[str, Any]:
    """The parties whose figure a period or amount part changes and those whose it leaves alone:
    "XSPA's post-term restriction should be twelve months; leave Calm's at six"."""
    leave_text = " ".join(m.group(0) for m in _LEAVE.finditer(text))
    leave = _named(leave_text, names) if leave_text else []
    rest = _LEAVE.sub(" ", text)
    named = [n for n in _named(rest, names) if n not in leave]
    out: dict[str, Any] = {}
    if named:
        out["for_parties"] = tuple(named)
    if leave:
        out["leave_parties"] = tuple(leave)
    return out


def _whole(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _number(value: int | float) -> str:
    return str(_whole(value))


def _named(text: str, names: Sequence[str]) -> list[str]:
    """The parties an instruction names, in order; "Dassault" names "Dassault Systemes"."""
    found = []
    for name in names:
        forms = [name] + ([name.split()[0]] if " " in name and len(name.split()[0]) >= 4
                          and name.split()[0].lower() not in ("the", "each") else [])
        for form in forms:
            m = re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text, re.I if name.isupper() else 0)
            if m:
                found.append((m.start(), name))
                break
    return [n for _, n in sorted(found)]


_NEWLY_BOUND = re.compile(r"\s*(?:['’]s\s+\w+\s+)?(?:should|shall|must|to|answers|too|also|as well|wants|needs|will|"
                          r"shouldn't|should not|can|could|would)\b", re.I)


def _newly_bound(text: str, names: Sequence[str], clause: str) -> str | None:
    """The party a mutual instruction names as the one to be bound too ("HEMISPHERX should keep its
    records too", "Bind MacroGenics to the same", "Owner too")."""
    named = _named(text, names)
    for name in named:
        forms = [name] + ([name.split()[0]] if " " in name else [])
        for form in forms:
            for m in re.finditer(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text, re.I if name.isupper() else 0):
                if _NEWLY_BOUND.match(text, m.end()) or re.search(r"\bbind\s+(?:the\s+)?$", text[:m.start()], re.I):
                    return name
    bound = {p.bound for p in binding.read(clause, names).one_sided()} if clause else set()
    return next((n for n in named if n not in bound), None)


_HOLDER_CUES = re.compile(r"\b(?:should|shall|must|can|could|may|to|would|wants?|will|get|gets|bears?|holds?|"
                          r"owns?|be the one|decide|indemnify|protect)\b", re.I)


def _flip(text: str, clause: str, names: Sequence[str]) -> dict[str, Any]:
    """Who should hold the right or bear the duty ("holder"), and who has it now ("other")."""
    named = _named(text, names)
    denied = re.search(r"(?:\bnot|\binstead of|\brather than|,\s*not)\s+(?:the\s+)?([A-Z][\w&.\- ]*?)(?=[,.;)]|$|\s+(?:the|to|for)\b)",
                       text)
    other = next((n for n in named if denied and denied.group(1).strip().lower().startswith(n.lower())), None)
    protect = re.search(r"\bprotect\s+(?:the\s+)?([A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)?)", text)
    holder = None
    if protect:
        holder = next((n for n in named if protect.group(1).lower().startswith(n.lower())), None)
    we = re.search(r"\bwe(?:'re| are)\s+(?:the\s+)?([A-Z][\w&.-]*)|\bwe\s*\(([^)]+)\)", text, re.I)
    if holder is None and we:
        label = (we.group(1) or we.group(2) or "").strip()
        holder = next((n for n in named if label.lower().startswith(n.lower()) or n.lower() in label.lower()), None)
    if holder is None:
        for n in named:
            if n == other:
                continue
            after = binding.word_after(text, n)
            if after and _HOLDER_CUES.match(after) or re.search(rf"\b(?:to|have|has|let|so)\s+(?:the\s+)?{re.escape(n)}\b",
                                                                  text):
                holder = n
                break
    if holder is None and named:
        holder = next((n for n in named if n != other), None)
    if other is None and holder is not None:
        clause_names = binding.party_names(clause, names)
        other = next((n for n in clause_names if n != holder and not _same(n, holder)), None)
    if holder is None and re.search(r"\brevers|switch|swap|flip|other way", text, re.I) and clause:
        b = binding.read(clause, names)
        bound = [p.bound for p in b.one_sided()]
        if bound:
            other = bound[0]
            holder = next((n for n in b.parties if n != other), None)
    return {"holder": holder, "other": other}


_NOT_PAIR = re.compile(r"\b([A-Z][\w&.-]*(?:\s[A-Z][\w&.-]*)?),?\s+(?:not|instead\s+of|rather\s+than|in\s+place\s+of)\s+"
                       r"(?:the\s+)?([A-Z][\w&.-]*)")


def _renames_read_as_flips(parts: list[Part], clause: str, parties: Sequence[str]) -> list[Part]:
    """"Contractor, not Employee; Company, not Employer" moving a clause into another agreement: the
    party a "flip" would give the right to is not in the clause at all, but is the lawyer's document's,
    and the one it would take it from is the clause's and not the document's. That is a rename (a
    conform part), read from each "X, not Y" pair whose Y the clause uses; never a right moved."""
    if not clause or not parties:
        return parts
    out: list[Part] = []
    for part in parts:
        holder, other = part.params.get("holder"), part.params.get("other")
        if part.kind == "flip" and holder and other and holder in parties and other not in parties and \
                not binding.uses(clause, holder) and binding.uses(clause, other):
            renames = {m.group(2): m.group(1) for m in _NOT_PAIR.finditer(part.text)
                       if binding.uses(clause, m.group(2)) and not binding.uses(clause, m.group(1))}
            renames.setdefault(other, holder)
            if out and out[-1].kind == "conform":
                merged = {**out[-1].params.get("renames", {}), **renames}
                out[-1] = Part("conform", out[-1].text + " " + part.text, {"renames": merged}, out[-1].scope)
            else:
                out.append(Part("conform", part.text, {"renames": renames}, _scope("conform", part.text, parties)))
            continue
        out.append(part)
    return out


def _same(a: str, b: str) -> bool:
    return a.lower() == b.lower()


def _carve(text: str) -> dict[str, Any]:
    ref = _PRECEDENT_REF.search(text)
    precedent = int(ref.group(1) or ref.group(2)) if ref else None
    words = re.sub(r"\b(?:please|also|too)\b", " ", text, flags=re.I)
    # What the carve-out covers, in the lawyer's words: a description after a colon or a dash
    # ("the permitted-transfer exception from [1]: transfers that don't change control"), the words
    # to borrow ("borrow the heirs and legal representatives language from [1]"), what it should not
    # apply to ("it shouldn't apply if we let him go without cause"), else what follows the verb.
    described = re.search(r"(?::|\s[-–—]+)\s+(.+)$", words)
    before_dash = ""
    if described and re.match(r"(?:borrow|take|use|copy|lift|adopt|import|bring in|pull)\b", described.group(1), re.I):
        # "his own pay and tax papers - borrow the retention carve-out from [1]": what it covers is
        # before the dash; after it is where to take the words from.
        before_dash = words[:described.start()]
        described = None
        if re.search(r"\b(?:carve[- ]?out|exclude|except(?:ion)? for|exempt)\b", before_dash, re.I):
            words, before_dash = before_dash, ""
    if described and (re.match(rf"(?:see|cf|e\.g|as|like|from|per|{_ASK})\b", described.group(1), re.I)
                      or _SUBJECT.match(described.group(1))):
        described = None  # where the words come from, or why ("- we must be able to move this"): not what
    borrow = re.search(r"\b(?:borrow|take|use|bring in|import|copy|add)\s+(?:in\s+)?(?:the\s+)?(.+?)\s+(?:language|"
                       r"wording|words|provision)\b", words, re.I)
    if borrow and borrow.group(1).lower() in ("the", "a", "an", "its", "their", "same", "usual"):
        borrow = None  # "take the wording from [2]": where from, not what
    not_apply = re.search(rf"(?:{_NOT_APPLY})" + r"\s*(?:(?:if|to|where|when|for|in the case of|on)\s+)?(.*)", words, re.I)
    m = re.search(r"\b(?:carve[- ]?out|exclude|except(?:ion)? for|exempt|allow|let|permit)\b\s*(.*)", words, re.I)
    if borrow:
        phrase = borrow.group(1)
    elif before_dash.strip():
        phrase = before_dash
    elif described:
        phrase = described.group(1)
    elif not_apply and not_apply.group(1).strip():
        phrase = not_apply.group(1)
    else:
        phrase = m.group(1) if m else words
    # "Add the permitted-transfer exception": the name of the exception, not an ask.
    phrase = re.sub(r"^(?:add|include|insert|put in|bring in)\s+(?:in\s+)?(?:the\s+|an?\s+)?", "", phrase.strip(), flags=re.I)
    phrase = re.sub(r"\s*\b(?:exception|exclusion|carve[- ]?out)s?(?:\s+in)?\s*$", "", phrase.strip(), flags=re.I)
    phrase = re.split(r"\s*(?:,\s*)?\b(?:as in|as precedent|like the|like clause|from the|from precedent|take them from|"
                      r"following|per|see)\b|\s*[-–—]\s|\s*\[\d+\]", phrase, maxsplit=1, flags=re.I)[0]
    phrase = re.sub(r"^(?:the\s+)?(?:usual\s+)?(?:exclusions?|exceptions?|carve[- ]?outs?)\s+(?:for|of|from)\s+", "",
                    phrase.strip(), flags=re.I)
    phrase = re.sub(r"^(?:and|plus|from|to|for|of|on|the|a|an)\s+", "", phrase.strip(), flags=re.I)
    phrase = re.sub(r"\s*[(\[]\s*$", "", phrase)  # "... on their own ([1])": the pointer's opening bracket
    source = re.search(r"\b(?:from|in|like|as in)\s+(?:the\s+)?([\w&.'’ -]{2,40}?)\s+(?:precedent|agreement|clause|"
                       r"indemnity|does|provision)\b|\bfrom the ([A-Z]{2,}\w*)\b|\bclause (\d+(?:\.\d+)*)", text)
    phrase = _QUOTED.sub(" ", phrase)
    named = re.search(r"\b(?:the|a|an)\s+((?:[\w-]+\s+){0,3}[\w-]+)\s+(?:carve[- ]?out|exception|exclusion)s?\b", text, re.I)
    if named and (re.match(r"(?:like|as|cf|see|from|per|in)\b", phrase.strip(), re.I) or _SUBJECT.match(phrase.strip())) and \
            named.group(1).lower() not in ("same", "usual"):
        phrase = named.group(1)  # "a passive-holding carve-out like (i) of [1]": its name, not where from
    # Words about the carve-out, not its reach: "the Buyer carve-back in [1]", "the affiliate carve-out".
    phrase = re.sub(r"\b(?:carve[- ]?(?:out|back)s?|exceptions?|exclusions?|language|wording)\b(?:\s+in\b)?", " ",
                    phrase, flags=re.I)
    phrase = " ".join(phrase.split()).strip(" .,")
    if not phrase:  # "add the gross negligence carve-out from the AT&T precedent"
        named = re.search(r"\b(?:the|a|an)\s+([\w -]+?)\s+(?:carve[- ]?out|exception|exclusion)s?\b", text, re.I)
        phrase = named.group(1) if named and named.group(1).lower() not in ("same", "usual") else ""
    out: dict[str, Any] = {"precedent": precedent, "phrase": phrase}
    if source:
        out["source"] = next(g for g in source.groups() if g)
    return out


def _renames(text: str) -> dict[str, str]:
    """"Change Employer to Company", "call the Provider the Supplier": old -> new."""
    out = {}
    for m in re.finditer(r"\b(?i:change|rename|call)\s+(?:the\s+)?([A-Z][\w&.-]*(?:\s[A-Z][\w&.-]*)?)\s+(?:to|the)\s+"
                         r"(?:the\s+)?([A-Z][\w&.-]*(?:\s[A-Z][\w&.-]*)?)", text):
        out[m.group(1)] = m.group(2)
    for m in re.finditer(r"\band\s+([A-Z][\w&.-]*)\s+to\s+([A-Z][\w&.-]*)\b", text):
        out.setdefault(m.group(1), m.group(2))
    return out


def _after_verb(text: str, verb: re.Pattern[str]) -> str:
    m = verb.search(text)
    return re.sub(r"^(?:the|a|an)\s+", "", text[m.end():].strip(" .,"), flags=re.I) if m else ""


# --- scope --------------------------------------------------------------------------------

_GENERIC_WORDS = frozenset("""make this it the a an mutual mutually mutualise mutualize reciprocal reciprocally bilateral
two way both ways sides side should be able to as well too also either each party parties please pls so that and
or but with of for in on at by from clause provision sentence sentences section obligation obligations right rights
same work works way run runs only just other flip switch reverse swap round instead rather than give move have has
can could would will shall must may bind binds binding apply applies equally want wants we our us they them their
its his her one who whoever keep leave alone rest touch don't not do as is are was be been being that which what
when where then there these those any all no yes change set limit cut extend require ask asks asked""".split())
_SYNONYMS = {"cap": ("liabil", "limit", "exceed"), "caps": ("liabil", "limit", "exceed"), "limits": ("liabil", "limit"),
             "licence": ("licens",), "license": ("licens",), "record": ("record", "retain", "retention"),
             "books": ("record", "account", "examin", "audit"), "check": ("examin", "audit", "inspect"),
             "non-solicit": ("solicit", "hire", "recruit"), "nonsolicit": ("solicit",),
             "non-compete": ("compet",), "non-disparagement": ("disparag",), "no-challenge": ("challeng", "contest"),
             "waiver": ("waive",), "exclusion": ("exclu",), "indemnity": ("indemnif",),
             "cover": ("insur", "cover", "indemnif"), "insurance": ("insur",), "termination": ("terminat",),
             "terminate": ("terminat",), "walk": ("terminat",), "consent": ("consent", "approv"),
             "ownership": ("own",), "extension": ("exten",), "extend": ("exten",), "renewal": ("renew",),
             "authority": ("authorit", "bind"), "publicity": ("publicit", "announce"), "logo": ("logo", "trademark"),
             "run-off": ("continu", "distribut"), "audit": ("audit", "inspect", "examin"),
             "assignment": ("assign",), "record-keeping": ("record", "retain"), "sell-off": ("sale", "sell", "dispos"),
             "sell": ("sale", "sell")}


def _stems(text: str) -> list[str]:
    out = []
    for word in re.findall(r"[a-z][a-z'’-]+", text.lower()):
        word = word.strip("'’-")
        if word in _GENERIC_WORDS or len(word) < 3:
            continue
        pieces = [w for w in word.split("-") if len(w) >= 3 and w not in _GENERIC_WORDS and w != "non"]
        out += list(_SYNONYMS.get(word, ())) + [binding._stem(w) for w in pieces or [word]]
    return list(dict.fromkeys(out))


def _scope(kind: str, text: str, names: Sequence[str]) -> Scope:
    if kind not in ("mutual", "flip"):
        return Scope()
    body = text
    leave_words: list[str] = []
    leave_sentences: list[int] = []
    for m in _LEAVE.finditer(text):
        leave_words += _stems(binding.without_names(m.group(1), names))
        leave_sentences += [n for w, n in _ORDINALS.items() if re.search(rf"\b{w}\b", m.group(1), re.I)]
        body = body.replace(m.group(0), " ")
    body = re.sub(r"\((?:not|but not)[^)]*\)", " ", body)
    sentences = tuple(n for w, n in _ORDINALS.items()
                      if re.search(rf"\b{w} (?:sentence|paragraph|limb)\b", body, re.I))
    limbs = tuple(dict.fromkeys(m.group(1).lower() for m in re.finditer(
        r"\blimb\s*\(?([a-z])\)|\(([a-z])\)\s+only", body, re.I) if m.group(1)) | {
        m.group(1).lower(): None for m in re.finditer(r"\(([a-z])\)\s+only", body, re.I)})
    keywords = tuple(w for w in _stems(binding.without_names(body, names)) if w not in leave_words)
    only = bool(re.search(r"\bonly\b|\bleave the rest\b|\bnothing else\b", text, re.I)) or bool(leave_words)
    return Scope(keywords, sentences, limbs, tuple(dict.fromkeys(leave_words)), tuple(leave_sentences), only)


# --- problems and length ------------------------------------------------------------------

def _contradiction(text: str, parts: Sequence[Part]) -> str:
    kinds = {p.kind for p in parts}
    if "mutual" in kinds and re.search(r"\b(?:one[- ]sided|unilateral)\b|\bonly (?:binds?|binding|applies to|"
                                       r"apply to|protects?) (?:the )?[A-Z]", text):
        return ("Your instruction asks for the clause to be both mutual and one-sided; say which you want. "
                "Nothing was changed.")
    if "shorten" in kinds and re.search(r"\b(?:longer|expand|more detail|elaborate|lengthen)\b", text, re.I):
        return ("Your instruction asks for the clause to be both shorter and longer; say which you want. "
                "Nothing was changed.")
    return ""


def _length(text: str, parts: Sequence[Part]) -> dict[str, Any]:
    """The length the instruction sets: N sentences, under N words, half (0.6), shorter (0.8)."""
    out: dict[str, Any] = {}
    sentences = _SENTENCE_COUNT.search(text)
    if sentences:
        n = _NUMBER_WORDS.get(sentences.group(1).lower()) or (int(sentences.group(1))
                                                              if sentences.group(1).isdigit() else None)
        if n:
            out["sentences"] = n
    words = _WORD_COUNT.search(text)
    if words:
        out["words"] = int(words.group(1))
    if any(p.kind == "shorten" for p in parts) and not out:
        out["ratio"] = 0.6 if re.search(r"\bhalf\b|\bhalve\b", text, re.I) else 0.8
    return out


def _the(name: str) -> str:
    return name if not name[:1].isupper() or name.isupper() else f"the {name}"


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"
