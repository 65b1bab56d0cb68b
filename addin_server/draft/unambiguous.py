"""Is a part of the instruction read one way only? An operation runs, and a check judges, only where it is.

Five tranches of never-seen instructions showed the same thing: a rule tuned on the wording seen
misreads the next wording, and a misread part becomes a wrong draft shown as done ("at seven and
a half million" carried out as a change of parties). So before an operation runs on a part, and
before a check calls that part done or not done, the part's reading is tested against what the
rest of its own words say. Where they say something the reading cannot hold, the part is left
to the drafting assistant (the operation declines) and the check says "not checked", in the
lawyer's words, never "failed" or "passed" on a guess.

``doubt(part, clause, parties)`` reads the part alone (for the operations and the checks);
``doubt_after(part, before, result)`` reads what an operation made of it (for the
operations only: a check reads any draft through ``check_part``).

Each rule is about a kind of ask, not a wording:
* a figure (digits, number words, a percentage) in an ask read as moving a right: a figure asks
  for a value, never for a change of who holds what;
* an ask to add something (a consent, an approval, a condition) read as moving a right;
* "both"/"each"/"all" sentences: a move must reach every sentence that names the parties;
* a carve-out is the carve-out, never a precedent's whole sentence of some length pasted in;
* a sentence that gives a right or a duty is deleted only where the lawyer named it (quoted, or by
  its place: "the second sentence");
* ownership made mutual ("owned by each party") reads as joint ownership: the assistant words it;
* a value read as asked that the clause already holds, beside another number the clause does not
  hold ("$250,000 -> $150,000"): the old figure was taken for the new (instruction_moves.settle);
* the words to delete, read one way only where the lawyer quoted them or named one phrase the
  clause has once ("say 'Consultant'" names the words to put in, not words to take out);
* what a carve-out covers, read one way only where the lawyer quoted it: otherwise a draft that adds
  an exception is not said to miss it (``reach_read``).
"""

from __future__ import annotations

import re

from index_builder.reading import binding
from index_builder.reading import figures as F
from index_builder.reading.sentences import sentence_spans

from addin_server.draft.edits import OperationResult
from addin_server.draft.instruction import Part
from addin_server.draft.instruction_values import KEPT_FIGURE as _KEPT
from addin_server.draft.instruction_words import (MUTUAL, QUOTED_ANY, NOT_MOVING, NOT_TOUCHING, NOTHING_ELSE,
                                                  SIDES, STAY_STATES,
                                                  STAY_VERBS, mutual_degree,
                                                  replacement_quotes)
from addin_server.draft.parts_wording import DELETE_GENERIC, named_stems, phrase_around
from addin_server.draft.quotes import short as _short

# A sum in words the figures reader leaves to contract prose ("at seven and a half million", "two
# hundred thousand"): the word of scale says a value is asked.
_SCALE = re.compile(r"\b(?:hundred|thousand|million|billion|mm|bn|percent|per\s+cent)\b|\d\s*%|"
                    r"\b(?:a|one|two|three)\s+(?:half|third|quarter|fifth)s?\b(?!\s+part)", re.I)
# A value named by what it is ("mind the percentage in brackets"), which a move of a right does not touch.
_VALUE_NOUN = re.compile(r"\b(?:percentage|figure|amount|sum|rate|price|fee|share|number)s?\b", re.I)
# Something the lawyer wants added to the clause, which no move of a right adds.
_ADD = re.compile(r"\b(?:one|the\s+same)\s+back\b|\bin\s+return\b|"
                  r"\b(?:add|adds|adding|insert|introduce|include|require|requiring|subject\s+to|only\s+with|"
                  r"conditional\s+on|conditioned\s+on)\b|(?<!who\s)(?<!whom\s)\b(?:needs?|get|gets|obtain|obtains|seek|seeks)\s+"
                  r"(?:\w+\s+){0,3}(?:consent|approval|permission|sign-?off)\b", re.I)
# What the lawyer says to keep is not asked for: "keep ... the mutual fee-shifting".
_KEEP_LEAD = re.compile(r"\b(?:keep|keeping|leave|leaving|retain|preserve|stays?|remains?)\b[^.;:!?]*$", re.I)
# Every place, not the first: "switch both sentences", "in all three places", "each reference".
_EVERY = re.compile(r"\b(?:both|all|each|every)\s+(?:\w+\s+){0,2}(?:sentences?|places?|references?|mentions?|provisions?|"
                    r"limbs?|clauses?|paragraphs?)\b|\bthroughout\b|\beverywhere\b|\bwherever\b", re.I)
# A carve-out phrase that is a sentence of the lawyer's, not words to look for ("Customer shouldn't carry those").
_NOT_WORDS = re.compile(r"\b(?:should|shouldn['’]t|can|can['’]t|cannot|must|mustn['’]t|will|won['’]t|would|wouldn['’]t|"
                        r"needs?|wants?)\b|^(?:cut|make|keep|drop|take|give|change|move|bring)\b|"
                        # Where the words come from, not what they are: "model it on ...", "the usual formulation".
                        r"\b(?:model|modelled|modeled|based|borrow|lift|usual|standard|customary|formulation|wording|"
                        r"language)\b", re.I)
# The lawyer named the sentence to drop: quoted words or its place.
_NAMED_SENTENCE = re.compile(r"['‘\"“][^'’\"”]{3,}['’\"”]|\b(?:first|second|third|fourth|fifth|last|final|opening|"
                             r"closing)\s+sentence\b|\bsentence\s+(?:\d+|[ivx]+)\b|\blimb\s+\(?\w\)?", re.I)
# "do not lose the as-is treatment", "without dropping", "never strike": a delete verb negated.
_NOT_DROP = re.compile(r"\b(?:not|n['’]t|never|without)\s+(?:\w+\s+)?(?:drop|dropping|delete|deleting|remove|removing|"
                       r"strike|striking|lose|losing|take out|taking out|get rid of|cut out)\b", re.I)
# A statement of what stays ("ENVISION's numbers don't move", "nothing else should change"): no ask.
_STAYS = re.compile(r"\b(?:do(?:es)?\s*n['’]?o?t|should\s*n['’]?o?t|must\s*n['’]?o?t|is\s+not\s+to|are\s+not\s+to|never)\s+"
                    r"(?:be\s+)?(?:move|moved|change|changed|touch|touched)\b|\b(?:" + STAY_VERBS + "|" + STAY_STATES + r")\b|"
                    r"\bnothing\s+else\b(?:\s+(?:should|shall|will|may|can|is\s+to|needs\s+to))?(?:\s+(?:be\s+)?(?:change[sd]?|"
                    r"move[sd]?|touched))?|^\s*(?:otherwise\s+)?(?:leave|keep)\b|\b" + NOTHING_ELSE + r"|\b" + NOT_TOUCHING + r"\b|\b" + NOT_MOVING, re.I)
# Quoted words of the lawyer's ("'Protected Interests'"): a term named to change.
_QUOTED_TERM = re.compile(r"(?:^|(?<=[\s(:]))['‘\"“]([^'’\"”]{2,60})['’\"”]")


def says_to_keep(words: str) -> bool:
    """A part that only says what stays as it is."""
    return bool(_STAYS.search(words)) and not re.search(r"\b(?:make|change|set|add|cut|raise|lower|move\s+(?:it|them)\s+to)\b",
                                                        _STAYS.sub(" ", words), re.I)


# A sentence of substance: it gives or takes a right or a duty, or transfers property.
_SUBSTANCE = re.compile(r"\b(?:shall|must|may|will|agrees?|hereby|undertakes?|grants?|assigns?|right,?\s+title|"
                        r"owns?|entitled|liable|responsible)\b", re.I)
# Who owns what, with both parties as the owner: "shall be owned by each party", "each party shall own
# the Results", "the property of both parties" read as joint ownership, not "each owns its own".
_JOINT_OWNER = re.compile(r"\bowned\s+by\s+(?:each|either|both)\s+part(?:y|ies)\b|\b(?:each|either|both)\s+part(?:y|ies)\s+"
                          r"(?:shall|will|must|may)\s+(?:solely\s+|exclusively\s+)?own\b|\bproperty\s+of\s+(?:each|either|both)\s+"
                          r"part(?:y|ies)\b|\b(?:vest|vests|vested|belong|belongs)\s+(?:solely\s+)?(?:in|to)\s+(?:each|either|both)\s+"
                          r"part(?:y|ies)\b", re.I)
# The lawyer asked for the precedent's words as they are.
_VERBATIM = re.compile(r"\bverbatim\b|\bword[- ]for[- ]word\b|\bas (?:it is )?written\b|\bexactly\b|\bas is\b", re.I)
# A carve-out taken from a precedent longer than this is a precedent pasted in, not a carve-out.
_CARVE_OUT_WORDS = 45


def doubt(part: Part, clause: str = "", parties: tuple[str, ...] = ()) -> str:
    """Why this part's reading is not the only one ("" where it is), in the lawyer's words."""
    words = part.text
    if part.kind == "flip":
        if names_a_value(words):
            return (f"“{_short(words)}” names a figure, and a figure asks for a value, not for a right to change "
                    "hands.")
        if _ADD.search(words):
            return f"“{_short(words)}” asks for something to be added, which moving a right does not do."
    if part.kind == "mutual":
        cues = list(MUTUAL.finditer(words))
        asked = re.search(r"\bmake\b[^.;:]{0,60}\bmutual|\bmutuali[sz]e", words, re.I)
        if cues and not asked and all(_KEEP_LEAD.search(words[:c.start()]) for c in cues):
            return f"“{_short(words)}” says to keep what is mutual, not to make anything mutual."
        if mutual_degree(words) < SIDES and (names_a_value(words) or _VALUE_NOUN.search(words)):
            # "Mind the percentage in brackets too": "too" is the only sign of both sides, beside a value.
            return f"“{_short(words)}” is about a value, and nothing in it asks for both parties to be bound."
    if part.kind == "mutual" and mutual_degree(words) <= SIDES and _MAPS_NAMES.search(words):
        # "Employee reads Contractor there and Employer reads Company - otherwise word for word": one
        # party's name put for another's is a conform; "too" says the document needs the clause as well, not
        # that both parties should hold it (blind review h-conform-06).
        return f"“{_short(words)}” puts one name for another, which asks for the same clause in your terms, not for both parties to be bound."
    if part.kind == "mutual" and mutual_degree(words) < SIDES and clause:
        read = binding.read(clause, tuple(parties))
        if read.provisions and all(p.mutual for p in read.provisions):
            # "5.2: indemnities out too, cf. [1]": the clause already binds both parties, so "too" adds
            # something else (an exception beside the one there), not a second party (blind review
            # h-carve_out-03, -07: "already mutual, nothing changed" said done).
            return (f"“{_short(words)}” says “too”, but your clause already binds both parties alike, so it asks for "
                    "something else as well.")
        named = binding.party_names(clause, tuple(parties))
        # The name as written counts too: the core's mention reader skips some ("Can NICE have ...").
        if named and not any(binding.uses(words, n) or re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", words)
                             for n in named):
            # "Users can access it too": "too" beside someone who is not a party is no ask to bind both.
            return f"“{_short(words)}” names no party of your clause, so it is not clear who should be bound too."
    if part.kind in ("period", "amount") and part.params.get("unclear"):
        # The one reading of old and new values (instruction_moves.settle) could not tell which is asked.
        return f"“{_short(words)}” {part.params['unclear']}."
    if part.kind in ("period", "amount") and clause:
        other = _other_figure(part, clause)
        if other:
            return (f"“{_short(words)}” names the figure your clause already has and another one (“{other}”), so "
                    "which one is asked is not read for sure.")
    if part.kind in ("mutual", "flip") and _TURNED_DOWN.search(words):
        # "Their further ask, to exclude any breach by Company as well, is rejected": an ask refused is none.
        return f"“{_short(words)}” turns an ask down; it does not make one."
    if part.kind in ("carve_out", "delete", "flip") and says_to_keep(words) and \
            not _CHANGE_ASKED.search(_STAYS.sub(" ", words)) and not (part.kind == "flip" and _WANTS.search(words)):
        # "Existing exceptions unchanged": a part that only says what stays asks for nothing.
        return f"“{_short(words)}” says what stays as it is, not what to change."
    if part.kind == "delete" and _DROP_INTO.search(words):
        return f"“{_short(words)}” puts words in (“drop … into”), which is not read as taking any out."
    if part.kind == "delete" and _NOT_DROP.search(words):
        return f"“{_short(words)}” says what not to lose, not what to drop."
    if part.kind == "delete" and clause and not delete_read(part, clause):
        return f"Which words “{_short(words)}” asks to drop is not read for sure from its words."
    if part.kind == "carve_out" and not part.params.get("precedent"):
        phrase = str(part.params.get("phrase") or "")
        if phrase and _NOT_WORDS.search(phrase):
            return f"What the carve-out should cover (“{_short(phrase)}”) is not words to look for in the draft."
    return ""


# One name put for another: "Employee reads Contractor", "for Employer read Company", "Employer becomes
# Company", "Arizona became Partner", "substituting Company for Employer", "otherwise word for word". With
# "each side's" beside it, the sides are named to say what maps to what, not to bind both.
_MAPS_NAMES = re.compile(r"\b[A-Z][\w&.-]*\s+(?:reads|becomes|became|is\s+replaced\s+by|->|→)\s+(?:the\s+)?[A-Z]|"
                         r"\bfor\s+(?:the\s+)?[A-Z][\w&.-]*\s+read\b|\bsubstitut\w+\b|\bword[- ]for[- ]word\b|\bverbatim\b")


# Someone should or must do something: an ask, whatever else the part says stays ("Licensor should cover us").
_WANTS = re.compile(r"\b(?:should|must|needs?\s+to|has\s+to|have\s+to|wants?\s+to)\b", re.I)
# An ask said to be refused: "is rejected", "we do not accept", "do not carry that part across".
_TURNED_DOWN = re.compile(r"\b(?:is|are|was|were|be)\s+(?:rejected|refused|declined|not\s+(?:agreed|accepted))\b|"
                          r"\bwe\s+(?:reject|refuse|decline|do\s+not\s+accept|don['’]t\s+accept)\b|"
                          r"\bdo\s+not\s+carry\b", re.I)
# A verb that asks for a change of the words: a part with one is not only saying what stays.
_CHANGE_ASKED = re.compile(r"\b(?:carve|exclude|exempt|drop|delete|remove|strike|cut|add|insert|fix|correct|change|"
                           r"make|replace|take\s+out|lose|lift|borrow|allow|let|permit|missing|typo)(?:s|d|ed|ing)?\b", re.I)
# "Drop this grant into our software licence": put in, not taken out.
_DROP_INTO = re.compile(r"\bdrop(?:ping|ped)?\s+(?:(?:this|that|it|the|these|those)\s+)?(?:[\w-]+\s+){0,3}?into\b", re.I)
def delete_read(part: Part, clause: str) -> bool:
    """The words a delete part names are read one way: quoted words the clause has, or words that point
    to one place of the clause only (one phrase around a word used once, or one sentence part that shares
    clearly more of the named words than any other)."""
    from index_builder.reading.sentences import part_spans
    put_in = set(replacement_quotes(part.text))
    quoted = [q for q in (m.group(1).strip() for m in QUOTED_ANY.finditer(part.text)) if q and q not in put_in]
    if any(re.search(rf"(?<![\w-]){re.escape(q)}(?![\w-])", clause, re.I) for q in quoted):
        return True
    named = named_stems(part)
    if len(named) == 1 and phrase_around(clause, named[0]):
        return True
    what = [w[:5] for w in re.findall(r"[a-z]{4,}", str(part.params.get("what") or "").lower()) if w not in DELETE_GENERIC]
    scores = sorted((sum(1 for w in what if any(h.startswith(w[:4]) for h in re.findall(r"[a-z]{4,}", clause[a:b].lower())))
                     for a, b in part_spans(clause)), reverse=True)
    if not scores or not what:
        return False
    best, second = scores[0], (scores[1] if len(scores) > 1 else 0)
    return best >= 2 and best >= 0.5 * len(what) and best > second


def reach_read(part: Part) -> bool:
    """What a carve-out covers is read one way where the lawyer quoted it; else it is read from the
    ask's words (its object or its reasons, "in the spirit of the E.piphany"), and a draft that adds an
    exception is not said to miss it."""
    phrase = str(part.params.get("phrase") or "")
    return any(q.strip() and (q.strip().lower() in phrase.lower() or phrase.lower() in q.strip().lower())
               for q in (m.group(1) for m in QUOTED_ANY.finditer(part.text)))


def _other_figure(part: Part, clause: str) -> str:
    """A number in a value ask besides the one read as asked, where the one read is a figure the
    clause already has and the other is not: "$250,000 -> $150,000", "Customer's 45 days should be
    90", "another ten years - cap the renewals at five". The clause's own figure is the old one, and
    a reading that takes it as the value asked changes nothing, or the wrong figure, and calls it done."""
    asked = part.params.get("value" if part.kind == "period" else "amount")
    if asked is None:
        return ""
    held = {float(f.value) for f in F.figures(clause) + F.counts(clause)}
    old = part.params.get("old")
    if float(asked) not in held or (old is not None and float(old) in held):
        return ""  # a new value, or the reading told the clause's old figure from the new one
    words = part.text
    for f in F.figures(words) + F.counts(words):
        lead = words[max(0, f.start - 30):f.start]
        if words[f.start - 1:f.start] == "[" and words[f.end:f.end + 1] == "]":
            continue  # a precedent's number ("the sixty days in [1]")
        # A figure said as kept, or as the one not wanted ("not the sixty days in [1]"), is no ask.
        if float(f.value) not in held and not _KEPT.search(lead) and not _REJECTED.search(lead):
            return f.text
    return ""


# A figure the lawyer does not want: "not the sixty days in [1]", "rather than 90".
_REJECTED = re.compile(r"\b(?:not|instead\s+of|rather\s+than|than|in\s+place\s+of)\s+(?:the\s+|a\s+|an\s+)?$", re.I)


def names_a_value(words: str) -> bool:
    """An amount, a period or a percentage in the ask that it does not say to keep."""
    for f in F.figures(words):
        if not _KEPT.search(words[max(0, f.start - 20):f.start]):
            return True
    return bool(_SCALE.search(words))


def doubt_after(part: Part, before: str, result: OperationResult, parties: tuple[str, ...] = (),
                precedents: tuple[str, ...] = ()) -> str:
    """Why what an operation made of the part is not surely what was asked ("" where it is)."""
    after = result.text
    if part.kind == "flip" and _EVERY.search(part.text):
        missed = _untouched_sentences(before, after, parties)
        if missed:
            return (f"“{_short(part.text)}” asks for every place, and “{_short(missed, 50)}” still reads as it did.")
    if part.kind == "carve_out":
        added = _inserted(before, after)
        n = part.params.get("precedent")
        source = precedents[n - 1] if n and 1 <= n <= len(precedents) else ""
        whole = source and len(added.split()) >= 0.8 * len(source.split()) and not _VERBATIM.search(part.text)
        if len(added.split()) > _CARVE_OUT_WORDS or whole:
            return (f"The carve-out taken from the precedent runs to {len(added.split())} words, "
                    + ("the whole precedent" if whole else "more than an exception") +
                    ": a carve-out is the exception, not the precedent's provision pasted in.")
    if part.kind == "delete":
        # A whole sentence dropped (not words inside one): what it said goes with it.
        gone = " ".join(e.old for e in result.edits if e.old.strip()) if result.label == "Sentence deleted" else ""
        if gone and _SUBSTANCE.search(gone) and not _NAMED_SENTENCE.search(part.text):
            return (f"Dropping “{_short(gone, 50)}” would drop a right or a duty, and the instruction does not name that "
                    "sentence.")
    if part.kind == "mutual":
        for start, end in sentence_spans(after):
            sentence = after[start:end]
            owner = _JOINT_OWNER.search(sentence)
            # "each party shall own its own Inventions" says who owns what: not joint.
            if owner and sentence not in before and not re.match(r"\s+(?:\w+\s+){0,2}(?:its|their)\b",
                                                                  sentence[owner.end():]):
                return ("Ownership made mutual (“each party”) reads as joint ownership; who owns what needs "
                        "wording of its own.")
    return ""


def doubt_done(part: Part, clause: str, draft: str, parties: tuple[str, ...] = ()) -> tuple[str, str] | None:
    """A part a check found done, read again for what "done" cannot hold: (status, reason), or None.

    The same rules as the operations' (``doubt_after``), on any draft: a move asked for "both"
    sentences that left one as it was is partly done; a sentence of substance gone where the lawyer
    did not name it is not checked (what was meant by "the debris" is for the lawyer to say)."""
    if part.kind == "flip" and _EVERY.search(part.text):
        missed = _untouched_sentences(clause, draft, parties)
        if missed:
            return "partly", f"“{_short(part.text)}” asks for every place, and “{_short(missed, 50)}” reads as it did."
    if part.kind == "conform":
        for m in _QUOTED_TERM.finditer(part.text):
            term = m.group(1).strip()
            if term in clause and term in draft and not _KEEP_LEAD.search(part.text[:m.start()]):
                # The lawyer quoted it to change it ("'Protected Interests' isn't defined ... use ...").
                return "partly", f"The draft still says “{term}”, which your instruction names to change."
    if part.kind == "delete" and not _NAMED_SENTENCE.search(part.text):
        for start, end in sentence_spans(clause):
            sentence = clause[start:end].strip()
            if _SUBSTANCE.search(sentence) and _gone(sentence, draft):
                return "unchecked", (f"Not checked: “{_short(sentence, 50)}” is gone, and it gave a right or a duty; "
                                     "the instruction does not name it.")
    return None


def _gone(sentence: str, draft: str) -> bool:
    """Most of the sentence's words are not in the draft."""
    words = re.findall(r"[a-z]{4,}", sentence.lower())
    kept = set(re.findall(r"[a-z]{4,}", draft.lower()))
    return len(words) >= 4 and sum(w in kept for w in words) < 0.3 * len(words)


def _untouched_sentences(before: str, after: str, parties: tuple[str, ...]) -> str:
    """The first sentence of ``before`` that names a party and is in ``after`` word for word."""
    names = binding.party_names(before, parties)
    for start, end in sentence_spans(before):
        sentence = before[start:end].strip()
        if sentence and sentence in after and any(binding.uses(sentence, n) for n in names):
            return sentence
    return ""


def _inserted(before: str, after: str) -> str:
    import difflib
    a, b = before.split(), after.split()
    out = []
    for tag, _, _, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("insert", "replace"):
            out += b[j1:j2]
    return " ".join(out)


