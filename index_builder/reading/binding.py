"""Who a sentence binds and whom it protects: the parties of each obligation, right and limit.

A lawyer reads a clause's parties off its grammar, and so does this: the subject of "shall",
"will", "must", "may" and their like ("agrees to", "has the right to", "hereby grants",
"indemnifies"); the agent of a passive ("shall be held in confidence by the Recipient");
the party a limit shelters ("In no event shall the Supplier be liable", "the Company's total
liability shall not exceed"); and the other parties a provision names, possessives included
("the Consultant's Confidential Information", "Company personnel"). "Each party", "either
party", "neither party", "the parties", "each of X and Y", "neither X nor Y" bind both sides;
"it" and an "and shall ..." that repeats no subject bind the party named before.

``provisions(text, parties)`` lists them (``Provision``); ``Binding`` answers the questions
the drafting operations and checks ask: which provisions bind only one side, whom they
protect, whether a provision has its mirror image. Party names are the document's (the
pane sends them) plus those the clause uses (``parties.clause_parties``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Sequence

from index_builder.reading.defined_terms import mentions
from index_builder.reading.figures import figures
from index_builder.reading.parties import clause_parties
from index_builder.reading.polarity import verb_negation
from index_builder.reading.sentences import part_spans

KINDS = ("obligation", "prohibition", "right", "protection")
MUTUAL = "both"  # the bound side of "each party", "neither party", "the parties"

# Words between a subject and its verb that do not change who is bound.
_ADVERBS = r"(?:(?:promptly|immediately|also|then|only|otherwise|each|hereby|further|expressly|thereafter|not|" \
           r"nonetheless|still|shall|will|must|at\s+all\s+times|at\s+its\s+(?:own\s+)?(?:cost|expense)|,)\s*)*"
_MODAL = (r"(?P<modal>shall|will|must|may|can(?:not)?|agrees?\s+(?:to|that)|undertakes?\s+to|covenants?\s+(?:to|that)|"
          r"(?:is|are)\s+(?:not\s+)?(?:required|obligated|obliged|entitled|permitted|responsible|liable|free)\b|"
          r"(?:has|have)\s+(?:the\s+)?(?:right|option|obligation|authority|no|sole)\b|"
          r"(?:grants?|assigns?|indemnif(?:y|ies)|owns?|retains?|keeps|rejects?|warrants?|represents?|"
          r"acknowledges?|recogni[sz]es?|waives?|releases?|holds?|defends?|bears?)\b)")
_NEG = verb_negation
# A limit that shelters its subject: "In no event shall X be liable", "X's total liability ... shall not exceed".
_NO_LIABILITY = re.compile(
    r"\b(?:in\s+no\s+event|under\s+no\s+circumstances)\s+(?:shall|will|may)\s+(?P<who>{P})\s+(?:be|have)\b", re.I)
_LIABILITY_OF = re.compile(
    r"(?P<who>{P})(?:[’']s|[’'])\s+(?:(?:total|entire|aggregate|maximum|cumulative|sole|whole|overall)\s+)*"
    r"(?:liability|obligations?|responsibility)\b", re.I)
_BY_AGENT = re.compile(
    r"\b(?:shall|will|must|may|is|are|to)\s+(?:not\s+)?be\s+(?!limited\b|capped\b|reduced\b|increased\b|measured\b|"
    r"calculated\b|determined\b|deemed\b|construed\b|governed\b|entitled\b)(?:\w+ed|held|kept|borne|made|given|done|"
    r"brought|taken|sent|withheld|sought)\b(?:(?!\b(?:paid|payable|incurred|received|owed|suffered|caused|made|given|"
    r"provided|issued|sold|owned)\b)[^.;:]){0,60}?\bby\s+(?P<who>{P})", re.I)
_OPTION_OF = re.compile(r"\bat\s+(?P<who>{P})(?:[’']s|[’'])\s+(?:sole\s+)?(?:option|discretion|election|request)\b", re.I)
_BETWEEN = re.compile(r"\bbetween\s+(?:the\s+)?(?:{P})\s+and\s+(?:the\s+)?(?:{P})\b", re.I)
_GENERIC = (r"(?:each|either|neither|any|a|that|whichever|the\s+(?:other|granting|receiving|disclosing|indemnifying|"
            r"indemnified|terminating|non-?breaching|breaching|affected|requesting|auditing|notifying))\s+[Pp]arty|"
            r"each\s+of\s+(?:the\s+)?(?:parties|them)|both\s+(?:parties|of\s+them)|the\s+[Pp]arties|the\s+other")
_PRONOUN = r"(?:it|they|he|she)"
_STEM_SUFFIXES = ("ations", "ation", "ments", "ment", "ings", "ing", "ies", "ied", "ed", "es", "s")
_LIGHT_VERBS = frozenset("be have not no also take make use its the a an any all to of such".split())


@dataclass(frozen=True)
class Provision:
    """One obligation, prohibition, right or protection, and the parties it concerns."""

    kind: str  # one of KINDS
    bound: str  # the party bound (for a protection: the party sheltered); MUTUAL; "" when unknown
    start: int  # the part of the sentence it is read from
    end: int
    subject: tuple[int, int]  # where its party is named (the subject, the agent, the possessive)
    verb: str  # the stem of what it is about: "hold", "indemnif", "terminat", "liabil"
    negated: bool
    how: str  # subject | pronoun | ellipsis | passive | no_liability | liability_of | option
    others: tuple[str, ...] = ()  # the other named parties in it (objects, possessives): whom it protects
    words: frozenset[str] = field(default_factory=frozenset, compare=False)  # its content stems

    @property
    def mutual(self) -> bool:
        return self.bound == MUTUAL

    def key(self) -> tuple[str, str, bool]:
        return (self.kind, self.verb, self.negated)


@dataclass(frozen=True)
class Binding:
    """What a text binds: its provisions and the party names they were read with."""

    text: str
    parties: tuple[str, ...]
    provisions: tuple[Provision, ...]

    def bound(self) -> dict[str, int]:
        """How many provisions bind (or shelter) each named party, "both" for mutual ones."""
        out: dict[str, int] = {}
        for p in self.provisions:
            if p.bound:
                out[p.bound] = out.get(p.bound, 0) + 1
        return out

    def mirrored(self, p: Provision) -> bool:
        """Whether another provision says the same of the other side (one binds A, one binds B)."""
        if p.mutual or not p.bound:
            return True
        return any(q.bound not in ("", p.bound, MUTUAL) and similar(p, q) for q in self.provisions)

    def one_sided(self) -> list[Provision]:
        """Provisions that bind or shelter one named party only, with no mirror image."""
        return [p for p in self.provisions if p.bound not in ("", MUTUAL) and not self.mirrored(p)]

    def one_sided_protections(self) -> list[tuple[Provision, str]]:
        """Mutual provisions that still name one party as the one protected ("Each party shall
        hold the Consultant's Confidential Information"): (provision, that party)."""
        out = []
        for p in self.provisions:
            if not p.mutual:
                continue
            for other in p.others:
                if not any(q is not p and q.mutual and other not in q.others and similar(p, q)
                           for q in self.provisions):
                    out.append((p, other))
        return out

    def is_mutual(self) -> bool:
        """Binds both sides alike: something is bound, and nothing one-sided is left."""
        return bool(self.provisions) and not self.one_sided() and not self.one_sided_protections()


# Verbs a lawyer uses for the same promise ("has the option" / "may choose"; "retain" / "keep").
_SAME_ACT = (frozenset({"option", "choos", "choose", "elect", "decid", "decide", "discreti"}),
             frozenset({"terminat", "cancel", "end"}), frozenset({"retain", "keep", "maintain", "hold", "preserv"}),
             frozenset({"indemnif", "defend", "hold"}), frozenset({"pay", "bear", "reimburs", "responsi"}),
             frozenset({"disclos", "reveal", "divulg"}), frozenset({"solicit", "hire", "recruit", "induc"}),
             frozenset({"grant", "licens"}), frozenset({"carry", "maintain", "place", "procur", "obtain"}))


def _same_act(a: str, b: str) -> bool:
    return any(a in group and b in group for group in _SAME_ACT)


def similar(p: Provision, q: Provision) -> bool:
    """The same kind of promise about the same thing (its verb, or most of its words)."""
    if p.kind != q.kind and {p.kind, q.kind} != {"obligation", "prohibition"}:
        return False
    if p.negated != q.negated and p.kind == q.kind:
        return False
    if p.verb and (p.verb == q.verb or p.verb in q.words or q.verb in p.words or _same_act(p.verb, q.verb)):
        return True
    if not p.words or not q.words:
        return False
    shared = len(p.words & q.words)
    return shared / len(p.words | q.words) >= 0.4 or shared / min(len(p.words), len(q.words)) >= 0.6


def read(text: str, parties: Iterable[str] = ()) -> Binding:
    """The provisions of ``text`` read with the given party names and those it uses itself."""
    return _read(text, tuple(parties))


@lru_cache(maxsize=512)
def _read(text: str, parties: tuple[str, ...]) -> Binding:
    # The checks read the clause and the draft many times over: once each is enough (a Binding is frozen).
    names = party_names(text, parties)
    return Binding(text, names, tuple(provisions(text, names)))


# Who acts in a text with no party list (a precedent from another matter, a draft sentence): a
# capitalised name of up to three words, all-capitals names ("NCM") included, right before a
# verb of acting. The support check compares these across a sentence and its precedent.
_NAME_WORD = r"[A-Z][\w'’&-]*"
_ACTING = re.compile(
    rf"\b((?:{_NAME_WORD}\s+){{0,2}}{_NAME_WORD})\s+(?:shall|will|must|may|agrees|is\s+required|is|are|has|does|"
    r"retains|owns|undertakes|warrants|represents|acknowledges|covenants)\b")


def acting_names(text: str) -> list[str]:
    """The capitalised names that act in ``text`` ("Customer shall", "Green Cross may"), as
    written (a sentence opener such as "Nothing in this Agreement shall" included: the caller
    knows its own stop words). For a text whose parties are unknown; where they are known,
    ``read(text, parties)`` says who is bound."""
    return [m.group(1) for m in _ACTING.finditer(text)]


def party_names(text: str, parties: Iterable[str] = ()) -> tuple[str, ...]:
    """The document's party names that the text uses, then the role words it uses on their own."""
    given = [p.strip() for p in parties if p and p.strip()]
    used = [p for p in given if party_mentions(text, p)]
    found = [p for p in clause_parties(text) if party_mentions(text, p) and not any(_overlaps(p, g) for g in used)]
    return tuple(dict.fromkeys(used + found))


def mention_count(text: str, name: str) -> int:
    """How many times the text names the party (a possessive counts; "Customers" does not)."""
    return len(party_mentions(text, name))


def _overlaps(a: str, b: str) -> bool:
    return a.lower() in b.lower() or b.lower() in a.lower()


def uses(text: str, name: str) -> bool:
    """Whether the text names the party (by name, "the" name, or its possessive)."""
    return bool(party_mentions(text, name))


def party_mentions(text: str, name: str) -> list[tuple[int, int, bool]]:
    """(start, end, possessive) of each use of a party name, "the" before it included."""
    out = []
    forms = [name] + ([name.capitalize()] if name.islower() else [])
    for form in forms:
        for m in mentions(text, form):
            if m.plural:
                continue  # "Customers": the customers, not the party called Customer
            start = m.start
            the = re.search(r"\b[Tt]he\s+$", text[max(0, start - 4):start])
            if the:
                start -= len(the.group(0))
            out.append((start, m.end, bool(m.possessive)))
    return sorted(set(out))


@lru_cache(maxsize=256)
def _patterns(names: tuple[str, ...]) -> dict[str, re.Pattern[str]]:
    alt = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) or r"(?!x)x"
    named = rf"(?:[Tt]he\s+)?(?:{alt})"
    # "each of A and B", "neither A nor B", "by either A or B" (the agent of a passive): both named.
    joint = (rf"(?:[Ee]ach\s+of\s+|[Bb]oth\s+|[Nn]either\s+|[Ee]ither\s+)?{named}\s+(?:and|nor|or)\s+{named}"
             rf"(?:\s*,?\s+each|\s+both)?")
    who = rf"(?P<who>{joint}|{named}|{_GENERIC}|{_PRONOUN})"
    subject = re.compile(rf"(?<![\w’'-]){who}\s+{_ADVERBS}{_MODAL}{_NEG}", re.I)
    fill = {"P": rf"{joint}|{named}|{_GENERIC}"}
    # "A party that receives the other's information shall ...", "Whichever party receives ... may":
    # a party named by what it does, a relative clause between it and its verb.
    relative = re.compile(rf"(?<![\w’'-])(?P<who>(?:a|any|each|the|whichever)\s+[Pp]arty)\s+(?:(?:that|which|who)\s+)?"
                          rf"(?=(?:that|which|who|receiv|disclos|is|has|obtain|gets?|holds?|provid|want|seek)\w*\b)"
                          rf"[^.;:]{{0,160}}?\s+{_ADVERBS}{_MODAL}{_NEG}", re.I)
    return {"subject": subject, "relative": relative, "ellipsis": re.compile(rf"(?:\b(?:and|or|but)|,)\s+{_ADVERBS}{_MODAL}{_NEG}", re.I),
            **{k: re.compile(p.pattern.replace("{P}", fill["P"]), re.I) for k, p in (
                ("no_liability", _NO_LIABILITY), ("liability_of", _LIABILITY_OF), ("passive", _BY_AGENT),
                ("option", _OPTION_OF), ("between", _BETWEEN))}}


def provisions(text: str, names: Sequence[str]) -> list[Provision]:
    """Every provision of every part of every sentence, in order."""
    pats = _patterns(tuple(names))
    spots = [(m.start(), m.end()) for m in pats["between"].finditer(text)]
    out: list[Provision] = []
    for start, end in part_spans(text):
        part = text[start:end]
        found: list[Provision] = []
        last_bound = out[-1].bound if out and out[-1].end >= start - 2 else ""
        taken: list[tuple[int, int]] = []
        for how in ("no_liability", "liability_of", "option", "passive"):
            for m in pats[how].finditer(part):
                who = _who(m.group("who"), names)
                before = part[max(0, m.start() - 40):m.start()]
                refused = re.search(r"\bnot\b|\bno\b", m.group(0), re.I) or re.search(r"(?:^|[.;:]\s*)no\b[^,;]*$", before, re.I) \
                    or re.match(r"\s*(?:no|neither|nothing)\b", part[:m.start()], re.I)
                # "may be terminated by either party": what a party may do, said in the passive, is a right.
                may = how == "passive" and re.match(r"(?:may|can)\b", m.group(0), re.I)
                kind = "protection" if how in ("no_liability", "liability_of") else \
                    "right" if how == "option" or (may and not refused) else "prohibition" if refused else "obligation"
                verb = "liabil" if kind == "protection" else "option" if how == "option" else _first_verb(m.group(0))
                negated = kind == "prohibition" or how == "no_liability"
                found.append(_provision(text, start, end, kind, who, m.span("who"), verb, negated, how, names, spots))
                taken.append(m.span())
        for m in pats["subject"].finditer(part):
            if any(a <= m.start("modal") < b for a, b in taken):
                continue
            if _relative(part, m.start()):
                continue  # "to which i-on may become subject": a relative clause, not a promise
            raw = m.group("who")
            if re.fullmatch(_PRONOUN, raw, re.I):
                who, how = last_bound or (found[-1].bound if found else ""), "pronoun"
            else:
                who, how = _who(raw, names), "subject"
            if not who:
                continue
            if re.match(r"(?:agrees?|covenants?)\s+that", m.group("modal"), re.I):
                last_bound = who  # "X agrees that ... it will not": the promise follows
                continue
            kind, negated, verb = _kind(m, part)
            if _INVERTED_NO.search(part[:m.start()]) and not negated and kind != "protection":
                # "In no event shall Green Cross grant ...": the modal comes first, the "no" with it.
                negated, kind = True, "prohibition"
                if not verb or m.group("modal").lower() in ("shall", "will", "may", "must", "can"):
                    verb = verb or _stem(m.group("modal").split()[0])
                else:
                    verb = _stem(m.group("modal").split()[0])
            if re.match(r"neither\b", raw.strip(), re.I) and not negated:
                negated, kind = True, "protection" if kind == "protection" or verb == "liabil" else "prohibition"
            elif verb == "liabil" and kind == "obligation" and re.match(r"\s*(?:have|has|bear|be)\s+(?:any\s+)?liab",
                                                                     part[m.end("modal"):m.end() + 30], re.I):
                kind = "protection" if negated else kind
            found.append(_provision(text, start, end, kind, who, (start + m.start("who"), start + m.end("who")),
                                    verb, negated, how, names, spots))
            last_bound = who
        for m in pats["relative"].finditer(part):
            if any(f.subject[0] - start <= m.start("modal") < f.subject[1] - start + 1 or
                   _same_spot(f, start + m.start("modal")) for f in found):
                continue
            kind, negated, verb = _kind(m, part)
            found.append(_provision(text, start, end, kind, MUTUAL, (start + m.start("who"), start + m.end("who")),
                                    verb, negated, "subject", names, spots))
            last_bound = MUTUAL
        for m in pats["ellipsis"].finditer(part):  # "... and shall not disclose it": the last subject
            if not found or any(f.subject[0] - start <= m.start() < f.subject[1] - start + 40 and
                                _same_spot(f, start + m.start("modal")) for f in found):
                continue
            before = [f for f in found if f.subject[0] < start + m.start()]
            if not before or _has_subject_between(part, before[-1].subject[1] - start, m.start(), pats):
                continue
            kind, negated, verb = _kind(m, part)
            if _BASE_VERB.fullmatch(m.group("modal")):
                # "may not, without the Client's consent, assign, subcontract or delegate": a bare verb
                # after a comma continues the modal before it (a promise of its own agrees with its
                # subject: "and assigns"), so it takes that provision's kind and "not".
                kind, negated = before[-1].kind, before[-1].negated
            found.append(_provision(text, start, end, kind, before[-1].bound, before[-1].subject, verb, negated,
                                    "ellipsis", names, spots))
        out += sorted(found, key=lambda p: p.subject)
    return out


_BASE_VERB = re.compile(r"grant|assign|indemnify|own|retain|reject|warrant|represent|acknowledge|recogni[sz]e|waive|"
                        r"release|hold|defend|bear", re.I)
_INVERTED_NO = re.compile(r"(?:\bin\s+no\s+event|\bunder\s+no\s+circumstances?|\bat\s+no\s+time|\bnor|\bno\s+way)\s*,?\s+"
                          r"(?:shall|will|may|must|can|could|would|does|do|is|are)\s+(?:the\s+)?$", re.I)


def _same_spot(p: Provision, at: int) -> bool:
    return p.how == "subject" and p.subject[1] <= at <= p.subject[1] + 40


def _has_subject_between(part: str, a: int, b: int, pats: dict[str, re.Pattern[str]]) -> bool:
    return any(a <= m.start() < b and not _relative(part, m.start()) for m in pats["subject"].finditer(part))


def _relative(part: str, at: int) -> bool:
    """Not a subject: a relative clause's ("to which i-on may"), or a preposition's object ("liability to
    Licensee shall be limited")."""
    return bool(re.search(r"\b(?:which|whom|whose|where|to|of|by|for|with|from|against|than)\s+$", part[:at], re.I))


def _kind(m: re.Match[str], part: str) -> tuple[str, bool, str]:
    modal = re.sub(r"\s+", " ", m.group("modal").lower())
    negated = bool(m.group("neg")) or modal in ("cannot",) or modal.endswith(" no") or " not " in f" {modal} " or \
        bool(re.search(r"\bnot\b", part[m.start():m.start("modal")], re.I))
    after = part[m.end():m.end() + 120]
    if re.match(r"\s*,", after):  # "it will not, for itself or any other person: (a) solicit"
        after = re.sub(r"^\s*,[^,:;]*[,:]\s*(?:\(\w{1,3}\)\s*)?", " ", after)
    verb = _first_verb(after) if modal in ("shall", "will", "must", "may", "can", "cannot") or " to" in modal \
        or modal.startswith(("is ", "are ", "has ", "have ")) else _stem(modal.split()[0])
    if modal.startswith(("has ", "have ")) and not modal.endswith(" no"):
        noun = modal.split()[-1]
        if noun in ("right", "option", "authority", "sole"):
            return "right", negated, verb or _stem(noun)
    if re.match(r"\s*be\s+(?:liable|responsible)", after, re.I) or "liable" in modal or "responsible" in modal:
        return ("protection" if negated else "obligation"), negated, "liabil"
    if modal.endswith(" no") and re.match(r"\s*(?:liability|responsibility)", after, re.I):
        return "protection", True, "liabil"
    if negated:
        return "prohibition", True, verb
    if modal in ("may", "can") or modal.startswith(("is entitled", "are entitled", "is permitted", "is free")):
        return "right", False, verb
    if modal.startswith(("grant", "assign", "own", "retain", "keeps")):
        # ("Customer keeps full ownership": the plain "retains". Only the bare present: "shall keep records"
        # is a duty, read from "shall".)
        return "right", False, verb
    return "obligation", False, verb


# What stands between a modal and its verb without being the verb: an adverb ("shall promptly notify",
# "shall not unreasonably withhold", "may nevertheless seek", "shall duly and punctually pay") or a
# phrase of time or manner ("may at any time terminate", "shall at its own cost repair").
_BEFORE_VERB = re.compile(r"\s*(?:,\s*)?(?:(?:at\s+(?:any\s+time|all\s+times|(?:its|their|his|her)\s+(?:own\s+|sole\s+)?"
                          r"(?:cost|expense|option|discretion|election))|from\s+time\s+to\s+time|in\s+good\s+faith|"
                          r"without\s+delay|nevertheless|nonetheless|also|then|thereafter|forthwith|still|hereby|"
                          r"(?!(?:apply|supply|reply|comply|rely|imply|multiply)\b)[a-z]{2,}ly|and|or)\b\s*,?)+", re.I)


def _first_verb(words: str) -> str:
    skip = _BEFORE_VERB.match(words)
    for w in re.findall(r"[A-Za-z]+", words[skip.end() if skip else 0:].lower()):
        if w not in _LIGHT_VERBS and w not in ("the", "shall", "will", "must", "may", "be", "by", "have", "has"):
            return _stem(w)
    return ""


def _who(raw: str, names: Sequence[str]) -> str:
    """The bound side a subject names: one party, MUTUAL, or "" when it names no party."""
    text = " ".join(raw.split())
    low = text.lower()
    if re.fullmatch(_GENERIC, text, re.I):
        return "" if low in ("the other",) else MUTUAL
    named = {n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text, re.I)}
    if len(named) >= 2 or re.match(r"(?:each\s+of|both|neither)\b", low):
        return MUTUAL if len(named) >= 2 else next(iter(named), "")
    return next(iter(named), "")


def _provision(text: str, start: int, end: int, kind: str, who: str, subject: tuple[int, int], verb: str,
               negated: bool, how: str, names: Sequence[str], between: list[tuple[int, int]]) -> Provision:
    if how in ("no_liability", "liability_of", "option", "passive"):
        subject = (start + subject[0], start + subject[1])
    others = []
    after = start if how in ("passive", "no_liability") else subject[1]
    for name in names:
        if name == who:
            continue
        for a, b, possessive in party_mentions(text, name):
            if after <= a < end and not (subject[0] <= a < subject[1]) and _protects(text, a, b, possessive) \
                    and not any(x <= a < y for x, y in between):
                others.append(name)
                break
    words = frozenset(_stem(w) for w in re.findall(r"[a-z]{4,}", text[subject[1]:end].lower())[:12])
    return Provision(kind, who, start, end, subject, verb, negated, how, tuple(others), words)


_NOT_SHELTER_BEFORE = re.compile(r"(?:\b(?:by|if|unless|when|whether|until|after|before)\s+(?:[\w-]+\s+){0,1}|"
                                 r"\b(?:paid|payable|incurred|received|owed|suffered|charged|invoiced)\s+(?:[\w-]+\s+){0,4}|"
                                 r"\()$", re.I)


def _protects(text: str, start: int, end: int, possessive: bool) -> bool:
    """A party named where a provision protects it ("the Company's Confidential Information", "indemnify
    Company", "notice to the Distributor"), not where it measures or conditions it ("paid by Licensee",
    "if Customer terminates", a parenthesis)."""
    before = text[max(0, start - 40):start]
    if _NOT_SHELTER_BEFORE.search(before) or before.count("(") > before.count(")"):
        return False
    if not possessive and re.match(r"\s+(?:shall|will|must|may|has|have|is|are|does|did|agrees|terminates)\b",
                                   text[end:end + 14], re.I):
        return False  # the subject of a clause within the provision
    return True


def _stem(word: str) -> str:
    word = word.lower()
    if word.startswith("liab"):
        return "liabil"  # liable, liability, liabilities: one idea
    for suffix in _STEM_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word[:8] if len(word) > 8 else word


# A party named by what it did or what befell it: "the non-breaching party", "the party in
# breach", "the Party whose control has changed". Which side such a description points at turns
# on its "non-"/"not": the checks compare the descriptions of a clause and its redraft.
_QUALIFIED = re.compile(
    r"\b(?P<pre>non-?)?(?P<did>[a-z]+ing)\s+(?:or\s+(?:non-?)?[a-z]+ing\s+)?[Pp]art(?:y|ies)\b"
    r"|\b[Pp]art(?:y|ies)\s+(?P<neg1>not\s+)?in\s+(?P<state>breach|default)\b"
    r"|\b[Pp]art(?:y|ies)\s+(?:whose|that|which|who)\s+(?P<what>(?:[a-z]+\s+){0,3}?)"
    r"(?:has|have|is|are|was|were|did|does)\s+(?P<neg2>not\s+|never\s+)?(?P<done>[a-z]+(?:ed|en))\b")
_NOT_QUALIFIERS = frozenset({"receiving", "disclosing", "granting", "requesting", "notifying", "auditing",
                             "contracting", "remaining", "following", "foregoing", "preceding", "opposing", "existing"})


def party_qualifiers(text: str) -> dict[str, tuple[bool, str]]:
    """The descriptions that pick out a party by an event: (whether it is said without a "not", as
    written). "non-breaching party" -> {"breach": (False, ...)}, "party in breach" -> {"breach": (True,
    ...)}, "Party whose control has not changed" -> {"control chang": (False, ...)}. A description
    said both ways in one text ("the breaching party shall pay the non-breaching party") is left out."""
    out: dict[str, tuple[bool, str] | None] = {}
    for m in _QUALIFIED.finditer(text):
        if m.group("did"):
            if m.group("did").lower() in _NOT_QUALIFIERS:
                continue
            key, positive = _stem(m.group("did")), not m.group("pre")
        elif m.group("state"):
            key, positive = _stem(m.group("state")), not m.group("neg1")
        else:
            key = " ".join(_stem(w) for w in (m.group("what") or "").split() + [m.group("done")])
            positive = not m.group("neg2")
        seen = out.get(key, (positive, m.group(0)))
        out[key] = seen if seen is not None and seen[0] == positive else None
    return {k: v for k, v in out.items() if v is not None}


# Words that never follow a possessive: a possessive before them has lost its noun ("the other
# party's declines", "Company's shall", "the Discloser's.").
_NOT_OWNED = frozenset(
    "shall will must may can cannot could would should might is are was were has have had does do did be been being "
    "not no to of in on at by for from with without within upon under that which who whom whose if unless when where "
    "whether and or nor but than as the a an this these those such any all each every its their it they he she "
    "against into onto over through during after before between among toward towards "
    "hereby hereunder thereof".split())


def function_word(word: str) -> bool:
    """Whether a word only joins others (a modal, a preposition, an article, a pronoun): never the noun
    a possessive owns, nor what an ask names."""
    return word.lower() in _NOT_OWNED


# After a word read as a verb ("declines to", "provides the"): what opens its object or complement.
_OBJECT_OPENERS = frozenset("to the a an such any all that this its their his her it them within by in on upon "
                            "with from".split())


# Plural nouns that take "to" or "the" after them as readily as a verb does ("efforts to obtain",
# "rights to the Software", "obligations under"): read as the noun owned.
_PLURAL_NOUN = re.compile(r"(?:tions|sions|ments|ties|ances|ences|ships|ings|nesses|efforts|rights|costs|fees|"
                          r"expenses|affiliates|employees|agents|records|assets|products|services|marks|losses|"
                          r"damages|claims|interests|funds|goods|materials|personnel|premises|books|accounts|"
                          r"customers|licensees|successors|assigns|representatives|officers|directors|"
                          r"contractors|subcontractors|members|shares|units|items|works|data)$")


def possessive_has_noun(text: str, at: int) -> bool:
    """Whether the words from ``at`` (just after a possessive) begin with the noun it owns: not a
    full stop or a comma, not a modal or a function word, not a verb ("declines to accept")."""
    rest = text[at:]
    if re.match(r"\s+(?:and|or|and/or)\s+(?:the\s+)?(?:other\s+)?[\w-]+(?:\s+[A-Z][\w-]*)?['’]s?\s", rest):
        return True  # "Company's and Customer's obligations": the noun is shared
    m = re.match(r"\s+[\"“‘(]?([A-Za-z][\w-]*)(?:\s+([A-Za-z][\w-]*))?", rest)
    if not m:
        return False
    word, following = m.group(1), (m.group(2) or "").lower()
    if word.lower() in _NOT_OWNED:
        return False
    if word[:1].islower() and re.search(r"(?<![su])(?:es|s)$", word) and following in _OBJECT_OPENERS and \
            not _PLURAL_NOUN.search(word):
        return False  # a verb in the third person, then its object: "declines to", "provides the"
    if _complement(word, following):
        return False  # what a verb says of its object: "keep X informed", "hold X harmless", "notify X promptly"
    return True


# A participle, an adverb or an adjective in "-less" that ends its phrase (before punctuation, the end or a
# function word) says how the party before it is left ("keep the Client informed of", "hold the Client
# harmless from", "notify the Client promptly."), so that party is the verb's object, owning nothing; before
# a noun it describes that noun ("the Client's registered office", "its monthly fee"), which is owned.
_COMPLEMENT = re.compile(r"^[a-z][a-z-]{2,}(?:(?<!e)ed|ly|less)$")
# Nouns in "-ly" that a party owns ("the Customer's supply of goods", "its reply to").
_LY_NOUNS = frozenset("supply reply family assembly monopoly anomaly ally rally".split())


def _complement(word: str, following: str) -> bool:
    return bool(_COMPLEMENT.match(word)) and word not in _LY_NOUNS and (not following or following in _NOT_OWNED)


# Who a generic party phrase stands for in a mutual clause: the party bound ("each party", "the
# indemnifying party", "it") or the party across from it ("the other party", "the non-breaching
# party"). The one reading of these phrases; draft/sides.py asks it.
_SELF_PHRASE = re.compile(r"^(?:each|either|neither|a|such|the (?:granting|indemnifying|disclosing|receiving|"
                          r"breaching|affected|requesting|licensing|bound|first)) part(?:y|ies)(?:['’]s?)?$|"
                          r"^(?:it|its|itself)$", re.I)
_OTHER_PHRASE = re.compile(r"^the (?:other|non-?\w+|indemnified) part(?:y|ies)(?:['’]s?)?$|^the other(?:['’]s)?$", re.I)


def generic_side(phrase: str) -> str:
    """"self" for the party bound ("each party's", "it"), "other" for the one across ("the other
    party"), "" for anything else (a name)."""
    return "self" if _SELF_PHRASE.match(phrase) else "other" if _OTHER_PHRASE.match(phrase) else ""


def bare_name(words: str) -> str:
    """A party mention without its "the " and possessive: "the Company's" -> "Company"."""
    return re.sub(r"^(?:the )|(?:'s|’s)$", "", words)


def between_spans(text: str, names: Sequence[str]) -> list[tuple[int, int]]:
    """Where ``text`` names two of ``names`` as the sides of something ("the Agreement between
    HEMISPHERX and SCIEN"): a description of a document, not a duty on either."""
    alt = "|".join(re.escape(n) for n in names if n)
    if not alt:
        return []
    return [(m.start(), m.end()) for m in re.finditer(rf"\bbetween\s+(?:the\s+)?(?:{alt})\s+and\s+(?:the\s+)?"
                                                      rf"(?:{alt})\b", text)]


# A verb that gives to the party named after it ("upon giving JHU sixty (60) days written notice",
# "provides the Discloser reasonable notice"): that party receives; it owns nothing there.
GIVING_TO = re.compile(r"\b(?:giv(?:e|es|ing)|gave|provid(?:e|es|ing)|send(?:s|ing)?|sent|pay(?:s|ing)?|paid|owe[sd]?|"
                       r"grant(?:s|ing)?|offer(?:s|ing)?|deliver(?:s|ing)?|serv(?:e|es|ing)|tell(?:s|ing)?|allow(?:s|ing)?)"
                       r"\s+(?:to\s+)?$", re.I)


# --- a name used as a describing word ("the Chase site", "booking Chase products") ------------------
# The one reading of it: the mutual operation declines to rewrite such a name, and the instruction check
# does not count it as a party a mutual clause still names alone.
# Words after a name that make it no describing word: the function words, and verbs it is the subject of.
_NOT_DESCRIBED = frozenset("agrees acknowledges represents warrants undergoes gives provides itself".split())
# "nor shall PAPA JOHN'S place ...": a party after a modal is the subject of the verb after it, not a word
# describing a noun.
_AFTER_MODAL = re.compile(r"\b(?:shall|will|may|must|can|could|should|would|does|did|do)\s+(?:the\s+)?$", re.I)
# A word that opens a clause of its own: the party right after it is that clause's subject ("if Licensee
# enters into"), never a word describing the noun after it ("the other party's enters").
_OPENS_CLAUSE = re.compile(r"\b(?:if|unless|when|whenever|where|until|once|because|after|before|in\s+the\s+event|"
                           r"provided\s+that|that|should)\s+(?:the\s+)?$", re.I)
_COUNT_AFTER = re.compile(r"\s+(?:[a-z]+\s+)?(?:\(?\d|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|"
                          r"twenty|thirty|forty|forty-five|sixty|ninety|a hundred)\b", re.I)


def attributive(text: str, start: int, end: int) -> bool:
    """Whether the party name at ``text[start:end]`` describes the noun after it ("the Chase site",
    "Company personnel"), not a party that acts, receives or is referred to."""
    after = re.match(r"\s+([a-z]+)", text[end:])
    before = text[max(0, start - 30):start]
    return after is not None and not function_word(after.group(1)) and after.group(1) not in _NOT_DESCRIBED and \
        not _OPENS_CLAUSE.search(before) and not _AFTER_MODAL.search(before) and \
        not _indirect_object(text, start, end) and possessive_has_noun(text, end)


def acts(text: str, end: int) -> bool:
    """"the Recipient remains responsible", "uses its own", "between HEMISPHERX and SCIEN terminates or": a verb
    in -s after the name that ends at ``end``, so the name acts (it is no word describing a noun)."""
    return bool(re.match(r"\s+[a-z]+[^s\W]s\s+[\w(“\"]", text[end:]))


def _indirect_object(text: str, start: int, end: int) -> bool:
    """"upon giving JHU sixty (60) days written notice", "provides the Discloser reasonable advance
    notice": the party is who receives, not a word describing the noun after it ("Company personnel")."""
    return bool(GIVING_TO.search(text[max(0, start - 30):start])) or bool(
        figures(text[end:end + 30]) and _COUNT_AFTER.match(text, end, end + 30))


# --- possessives: the one reading of "X's" (draft/carve_out, parts and instruction ask it) ------------
_OWNER = re.compile(r"\b([A-Z][\w&.-]*[A-Za-z])['’]s\b")
_POSSESSIVE_PHRASE = re.compile(r"\b[A-Z][\w&.-]*(?:['’]s?)\s+(?:own\s+)?[a-z]+")


def owners(text: str) -> list[tuple[int, str]]:
    """Capitalised names written as owners ("Employer's", "NCM's"): (where, name as written), in text order."""
    return [(m.start(1), m.group(1)) for m in _OWNER.finditer(text)]


def possessive_phrases(text: str) -> list[str]:
    """A name's possessive and the word it owns ("DGT's products", "Licensee's own costs")."""
    return [m.group(0) for m in _POSSESSIVE_PHRASE.finditer(text)]


def owned_by(text: str, name: str, noun: str) -> re.Match[str] | None:
    """The first "<name>'s <noun>" (``noun`` a pattern: "gross negligence", "breach\\w*")."""
    return re.search(rf"(?<![\w-]){re.escape(name)}['’]s\s+{noun}", text)


def word_after(text: str, name: str) -> str | None:
    """The word after the first use of ``name``, its possessive skipped ("Dova's marks" -> "marks",
    "Dova should" -> "should")."""
    m = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])(?:['’]s)?\s+(\w+)", text)
    return m.group(1) if m else None


def without_names(text: str, names: Sequence[str]) -> str:
    """``text`` with each of ``names`` and its possessive blanked, longest first, case-blind."""
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?:['’]s?)?(?![\w-])", " ", text, flags=re.I)
    return text
