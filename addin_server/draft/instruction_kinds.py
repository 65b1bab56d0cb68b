"""What kind of ask one segment of an instruction is: mutual, flip, period, amount, carve-out,
conform, plain, delete, shorten, other, or none (a reason or an aside).

Apart from instruction.py because the order of the tests below is the reading itself: read_instruction
decides how segments join into parts, this decides what each one asks.
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import figures as F

from addin_server.draft.instruction_values import period
from addin_server.draft.instruction_words import KEPT_BEFORE
from addin_server.draft.instruction_words import (
    ARCHAIC_QUOTED, ARCHAIC_NAMED, ASK, BOTH_ASK, CARRIED, CARVE, CARVE_LEAD, CHANGE, CONDITION, CONFORM, DELETE, FLIP, MUTUAL,
    NOT_APPLY, PLAIN, PRECEDENT_REF, QUOTED, SHORTEN, STATEMENT, STRONG_MUTUAL, KEEP_VERBS, STAY_STATES, TOPIC_HEAD, WEAK,
    mutual_degree)


# A segment that only says what stays: a subject, then a keep that ends it ("the substance (Licensee's bar,
# the mutual consent rule ...) cannot change"). Its nouns name what is kept ("mutual consent rule"), never a
# kind asked (a figure kept is read as one, "kept"; a keep read as "other" stays a part of its own); a segment that opens with a verb of asking ("Make it
# mutual so the cap does not change") asks, and one with a colon ("Rewrite it so ...: ..., still listed") is more.
_ONLY_KEPT = re.compile(rf"^(?!\s*(?:please\s+)?(?:{ASK})\b)[^;:]{{3,240}}?\s(?:{KEPT_BEFORE}|"
                        r"(?:cannot|can['’]t|may\s+not|must\s+not|mustn['’]t|is\s+not\s+to)\s+(?:move|change|be\s+changed))"
                        r"\s*[.!]?\s*$", re.I)


def kind_of(segment: str) -> str | None:
    head = TOPIC_HEAD.match(segment)
    ask = segment[head.end():] if head else segment
    kind = _kind_read(ask) if ask != segment else None
    if kind in (None, "other"):  # the words after the dash name no kind on their own: read the whole
        kind = _kind_read(segment)
    if kind not in (None, "other") and _ONLY_KEPT.match(segment) and not F.figures(segment):
        return None  # what stays, said beside the ask: its nouns ("mutual consent rule") name no kind asked
    return kind


def _kind_read(segment: str) -> str | None:
    if STATEMENT.match(segment) or re.match(r"(?:but\s+)?(?:same|unchanged)\b", segment, re.I):
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
    if DELETE.search(segment) and ARCHAIC_QUOTED.search(segment) and not F.figures(segment):
        return "plain"  # "Lose the 'hereby covenants'": the legalese quoted, read before the quotes are set aside
    if SHORTEN.search(segment) and re.search(r"\b(?:a|one)[- ](?:third|quarter|half)\b", segment, re.I) and \
            not period(segment):
        return "shorten"  # "Lose a third of the words here": less, not words to delete
    segment = QUOTED.sub(" ", segment) if QUOTED.sub(" ", segment).strip() else segment
    if CONDITION.match(segment):
        return "other"  # a condition of its own: no operation adds one, so it is never silently absorbed
    if re.search(NOT_APPLY, segment, re.I) and not STRONG_MUTUAL.search(segment):
        return "carve_out"  # "it shouldn't apply if we let him go without cause"; "heirs should still get the benefit"
    if CARVE_LEAD.match(segment) and not STRONG_MUTUAL.search(segment) and not (
            period(segment) and not re.search(r"\bcarve|\bexclu|\bexcept|\bexempt", segment, re.I)):
        return "carve_out"
    # "Change 30 days to 45 days throughout": beside a figure, "throughout" says every place, not conform.
    if (F.amounts(segment) or period_change(segment)) and not STRONG_MUTUAL.search(segment) and \
            not BOTH_ASK.search(segment) and not CONFORM.search(re.sub(r"\bthroughout\b", " ", segment, flags=re.I)):
        return "amount" if F.amounts(segment) else "period"
    if CONFORM.search(segment) and PRECEDENT_REF.search(segment) and re.search(
            r"\b(?:period|days?|time|notice|cure|term)\b", segment, re.I):
        return "period"  # "Conform the cure period to precedent [1]": that precedent's period
    if CONFORM.search(segment):
        return "conform"
    if CARRIED.search(segment):
        return "other"  # a clause carried into another document: no move, no mutual; read it (CARRIED)
    if PLAIN.search(segment):
        return "plain"
    if DELETE.search(segment) and ARCHAIC_NAMED.search(segment):
        return "plain"  # "get rid of the hereunders": legalese out, the sentences kept
    if DELETE.search(segment) and not period(segment):
        return "delete"
    if SHORTEN.search(segment) and not period(segment) and not MUTUAL.search(segment):
        return "shorten"
    if mutual_degree(segment) == WEAK and re.search(r"(?-i:\b[A-Z][\w&.-]*)(?:['’]s\s+\w+)?\s+become(?:s)?\s+(?:the\s+)?"
                                                   r"(?-i:[A-Z])[^.;]*\btoo\b", segment, re.I):
        # "Employer's employees become Company personnel too": one name for another, "too" of a rename (also
        # renamed), not of a party also bound; what it asks is read by the lawyer.
        return "other"
    if MUTUAL.search(segment) and not re.search(r"\b(?:not|don['’]t|do\s+not|never|shouldn['’]t|rather\s+than|"
                                                 r"instead\s+of)\s+(?:\w+\s+){0,2}?mutual", segment, re.I):
        return "mutual"
    if FLIP.search(segment) and not F.amounts(segment) and not period_change(segment):
        return "flip"
    if F.amounts(segment):
        return "amount"
    if period_change(segment):
        return "period"
    if CARVE.search(segment) and not _KEEP_ONLY.match(segment):
        # ("Leave the retirement-benefits exception exactly as it is": an exception named to keep, not asked.)
        return "carve_out"
    if F.periods(segment):
        return "period"  # "survival for three years": a period of its own is what the part asks for
    if re.search(rf"\b(?:{ASK})\b", segment, re.I) and len(segment.split()) > 2:
        return "other"
    if any(f.kind == "percentage" for f in F.figures(segment)):
        # "local spend 2% of Gross Sales, not 3%": a rate asked for, which no operation sets; a part
        # of its own, so that no report folds it into another part's "done".
        return "other"
    if re.search(r"\b(?:should|must|needs? to|want|wants)\b", segment, re.I) and \
            not re.match(r"(?:and\s+|but\s+)?(?:they|he|she|it|the\s+client['’]s\s+\w+(?:\s+team)?)\b", segment, re.I):
        # (Not "they need to know exactly what Emdeon can do": a reason, said of someone else.) A bare
        # "should" said only of what stays ("the summary must still say", "the warnings must survive") keeps,
        # and one said of what stays free of the clause ("the Servicer should remain free to file") is an
        # exception: neither moves anything between the parties.
        if _STAYS.search(segment) and not re.search(
                r"\b(?:should|must|needs?\s+to)\b(?!\s+(?:\w+ly\s+)?(?:still|remain|stay|survive|continue|not)\b)", segment, re.I):
            return "carve_out" if _STAYS_FREE.search(segment) else None
        if not re.search(r"\b(?:should|must|needs? to)\b", segment, re.I) and \
                re.search(r"\bwants?\s+(?:it|this|that|them)\b(?!\s+(?:back|to)\b)", segment, re.I):
            return "other"  # "Client wants it for a consultant": a wish for the document, no one to hold anything
        return "flip"
    if re.search(r"\w,\s*not\s+(?:the\s+|a\s+|an\s+)?\w", segment):
        return "other"  # "certificates, not full policies": one wording for another, asked in the fewest words
    return None


def restated_out(segment: str, clause: str) -> str:
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


# A segment that only says what stays: a keep verb, then the state it stays in.
_KEEP_ONLY = re.compile(rf"(?:please\s+)?{KEEP_VERBS}\b[^.;]*\b(?:{STAY_STATES}|exactly\s+as|as\s+drafted)\b", re.I)
# The hints of mutuality that say only "also" ("too", "as well", "as well as"): where they fall.
_ALSO_CUE = re.compile(r"\bas\s+well(?:\s+as\b)?|\btoo\b", re.I)
# Words that open a sentence (parts are joined without their full stops), not names.
_OPENER = re.compile(r"(?:please|also|and|but|so|then|if|when|the|this|that|these|those|it|it['’]s|its|we|we['’]re|"
                     r"our|us|they|their|you|your|i|make|give|let|add|keep|leave|change|put|can|could|should|"
                     r"would|will|why|what|how|yes|no|ok|thanks)\b", re.I)
_NAME = re.compile(r"(?<![\w-])[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*")


def not_between_parties(segment: str, names: Sequence[str]) -> list[str]:
    """The names a weak hint of mutuality ("too", "as well as") joins where none of them is a party:
    "Users can access it too", "sublicense to its Affiliates as well as permitted subcontractors" ([]
    where the hint is said of a party, of no one named, or the segment has a stronger cue). Mutuality is
    between the parties; "also" said of a user, an affiliate or a list's next item may widen the clause
    instead, so the mutual reading is unsure; the names say what the draft must at least mention."""
    if mutual_degree(segment) != WEAK or not names or not _ALSO_CUE.search(segment):
        return []
    if re.search(r"\bsame\b|\bapply equally\b|\beither\b", segment, re.I):
        return []  # "the same right", "apply equally": a hint of another kind, read as it was
    first = segment.split()[0] if segment.split() else ""
    out: list[str] = []
    for cue in _ALSO_CUE.finditer(segment):
        before = [m for m in _NAME.finditer(segment[:cue.start()]) if (m.start() > 0 or m.group() != first)
                  and not _OPENER.match(m.group())]
        after = _NAME.match(re.sub(r"^\s+(?:the\s+|its\s+|their\s+)?", "", segment[cue.end():]))
        beside = ([before[-1].group()] if before else []) + ([after.group()] if after and "as" in cue.group().lower()[-2:]
                                                              else [])
        if not beside or any(_party(b, names) for b in beside):
            return []  # said of a party, or of no one named: a hint of mutuality, as before
        out += beside
    return list(dict.fromkeys(out))


def _party(name: str, names: Sequence[str]) -> bool:
    low = name.lower().removeprefix("the ")
    return any(n.lower() in low or low in n.lower() for n in names)


def period_change(segment: str) -> bool:
    return bool(period(segment)) and bool(CHANGE.search(segment))


# A bare "should" said of what stays as it is ("should remain free", "must still say", "must survive",
# "must not stand in the way"): an ask, but of no move.
# ("NAI's payment obligations should survive a termination": survival asked, as KEPT_BEFORE reads it.)
_STAYS = re.compile(r"\b(?:should|must|needs?\s+to)\s+(?:\w+ly\s+)?(?:still|remain|stay|continue|"
                    r"survive(?!\s+(?:the\s+|any\s+|a\s+)?(?:termination|expir\w+|for|until|beyond))|"
                    r"not\s+(?:stand|get\s+in|block|prevent))\b", re.I)
# What stays free of the clause's restriction ("the Servicer should remain free to file a proof of claim",
# "the agreement must not stand in the way of telling the truth"): an exception asked, not a move.
_STAYS_FREE = re.compile(r"\b(?:should|must|needs?\s+to)\s+(?:\w+ly\s+)?(?:(?:still\s+be|remain|stay)\s+free\s+to|"
                         r"not\s+(?:stand\s+in\s+the\s+way|get\s+in\s+the\s+way|block|prevent))\b", re.I)
# The cues that say a move in themselves ("flip it", "the wrong way round"); "instead", "rather than",
# ", not X" and a bare "should" say a replacement, which is a move only where it is said of a side.
_MOVE_ITSELF = re.compile(r"\bflip\b|\bswitch\b|\bswap\b|\brevers\w*\b|\bother way\b|\bturn (?:it|this) round\b|"
                          r"\bwrong\s+(?:way|side)\b", re.I)
_SIDE = re.compile(r"\b(?:we|us|our|ours|they|them|their|theirs|you|your|whoever|the other (?:party|side)|"
                   r"each party|either party)\b", re.I)


def move_of_nothing(segment: str, names: Sequence[str]) -> bool:
    """A flip read from a weak cue in a segment that names no party and no side: "certificates, not full
    policies" asks for other words (a replacement no operation makes), not a right moved between the
    parties; read as a flip, the account said "cannot be moved between them" and never the ask."""
    if not re.search(r",\s*not\b|\binstead\b|\brather than\b", segment, re.I):
        return False  # a move read from "should" alone is the kind reader's last resort, left as it was
    if _MOVE_ITSELF.search(segment):
        return False
    if _replaces_no_party(segment, names):
        # "Company for Employer, the agreement's own Confidential Information instead of 'Protected Interests'",
        # "we are papering this on the CIAA rather than the covenant form", "describe it instead as data about
        # Partner's use": what is replaced is a word or a form, not a party (a conform's mapping, a rewording).
        return True
    if _SIDE.search(segment):
        return False
    return not any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", segment, re.I) for n in names if n)


_REPLACED = re.compile(r"(?:\b(?:instead\s+of|rather\s+than)|,\s*not)\s+(?:(?:of|to|for|by|with|from|on|in)\s+)?"
                       r"(?:the\s+|a\s+|an\s+)?(['‘\"“]?[\w&.-]+)", re.I)


# "describe it instead as ...", "call it X instead": other words for the same thing, not another holder.
_REWORDED = re.compile(r"\b(?:describe|define|call|word|phrase|refer\s+to|spell|write|say)\w*\s+(?:it|this|that|them)?\s*"
                       r"instead\b(?:\s+(?:as|to|of))?", re.I)


def _replaces_no_party(segment: str, names: Sequence[str]) -> bool:
    """Every replacement said with its object ("instead of 'Protected Interests'", "rather than the covenant
    form") replaces a thing, not a party; a bare "instead" (said of whoever comes before it) is no such case."""
    segment = _REWORDED.sub(" ", segment)
    said = [m.group(1) for m in _REPLACED.finditer(segment)]
    if any(w[:1].isdigit() for w in said):
        return False  # "6% instead of 7%": a figure replaced, read by the figure readers as it was
    if re.search(r"\binstead\b(?!\s+of\b)|\brather\s+than\b(?!\s+\w)", segment, re.I):
        return False
    if not said:
        return not re.search(r",\s*not\b|\binstead\b|\brather than\b", segment, re.I)  # only rewordings
    # A thing is quoted ("'Protected Interests'") or in lower case ("the covenant form"); a capital may be a
    # party the document names in words its reader does not know, so it is read as one.
    return not any(_party(w.strip("'‘\"“"), names) or re.match(r"(?:us|we|them|me|you|ours|theirs|him|her)$", w, re.I)
                   or (w[0].isupper() and w[0] not in "'‘\"“") for w in said)

