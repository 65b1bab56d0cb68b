"""Is a part of the instruction read one way only? An operation runs, and a check judges, only where it is.

Five tranches of never-seen instructions showed the same thing: a rule tuned on the wording seen
misreads the next wording, and a misread part becomes a wrong draft shown as done ("at seven and
a half million" carried out as a change of parties). So before an operation runs on a part, and
before a check calls that part done or not done, the part's reading is tested against what the
rest of its own words say. Where they say something the reading cannot hold, the part is left
to the drafting assistant (the operation declines) and the check says "not checked", in the
lawyer's words, never "failed" or "passed" on a guess.

``doubt(part, clause)`` reads the part alone (for the operations and the checks);
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
* ownership made mutual ("owned by each party") reads as joint ownership: the assistant words it.
"""

from __future__ import annotations

import re

from index_builder.reading import binding
from index_builder.reading.sentences import sentence_spans

from addin_server.draft.edits import OperationResult
from addin_server.draft.instruction import Part

# A number of any kind in an ask: digits, a percentage, number words lawyers write for sums.
_NUMBER = re.compile(r"\d|%|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|"
                     r"forty|fifty|sixty|ninety|hundred|thousand|million|billion|half|quarter|percent|per\s+cent)\b",
                     re.I)
# Something the lawyer wants added to the clause, which no move of a right adds.
_ADD = re.compile(r"\b(?:add|adds|adding|insert|introduce|include|require|requiring|subject\s+to|only\s+with|"
                  r"conditional\s+on|conditioned\s+on)\b|\bneeds?\s+(?:\w+\s+){0,3}(?:consent|approval|permission|sign-?off)\b",
                  re.I)
# Every place, not the first: "switch both sentences", "in all three places", "each reference".
_EVERY = re.compile(r"\b(?:both|all|each|every)\s+(?:\w+\s+){0,2}(?:sentences?|places?|references?|mentions?|provisions?|"
                    r"limbs?|clauses?|paragraphs?)\b|\bthroughout\b|\beverywhere\b|\bwherever\b", re.I)
# A carve-out phrase that is a sentence of the lawyer's, not words to look for ("Customer shouldn't carry those").
_NOT_WORDS = re.compile(r"\b(?:should|shouldn['’]t|can|can['’]t|cannot|must|mustn['’]t|will|won['’]t|would|wouldn['’]t|"
                        r"needs?|wants?)\b|^(?:cut|make|keep|drop|take|give|change|move|bring)\b", re.I)
# The lawyer named the sentence to drop: quoted words or its place.
_NAMED_SENTENCE = re.compile(r"['‘\"“][^'’\"”]{3,}['’\"”]|\b(?:first|second|third|fourth|fifth|last|final|opening|"
                             r"closing)\s+sentence\b|\bsentence\s+(?:\d+|[ivx]+)\b|\blimb\s+\(?\w\)?", re.I)
# A sentence of substance: it gives or takes a right or a duty, or transfers property.
_SUBSTANCE = re.compile(r"\b(?:shall|must|may|will|agrees?|hereby|undertakes?|grants?|assigns?|right,?\s+title|"
                        r"owns?|entitled|liable|responsible)\b", re.I)
# Who owns what: a mutual "each party owns" reads as joint ownership, not "each owns its own".
_OWNERSHIP = re.compile(r"\b(?:own|owns|owned|ownership|property\s+of|title\s+(?:to|in)|vest|vests|vested|belong|belongs)\b",
                        re.I)
# A carve-out taken from a precedent longer than this is a precedent pasted in, not a carve-out.
_CARVE_OUT_WORDS = 45


def doubt(part: Part, clause: str = "") -> str:
    """Why this part's reading is not the only one ("" where it is), in the lawyer's words."""
    words = part.text
    if part.kind == "flip":
        number = _NUMBER.search(words)
        if number:
            return (f"“{_short(words)}” names a figure, and a figure asks for a value, not for a right to change "
                    "hands.")
        if _ADD.search(words):
            return f"“{_short(words)}” asks for something to be added, which moving a right does not do."
    if part.kind == "carve_out" and not part.params.get("precedent"):
        phrase = str(part.params.get("phrase") or "")
        if phrase and _NOT_WORDS.search(phrase):
            return f"What the carve-out should cover (“{_short(phrase)}”) is not words to look for in the draft."
    return ""


def doubt_after(part: Part, before: str, result: OperationResult, parties: tuple[str, ...] = ()) -> str:
    """Why what an operation made of the part is not surely what was asked ("" where it is)."""
    after = result.text
    if part.kind == "flip" and _EVERY.search(part.text):
        missed = _untouched_sentences(before, after, parties)
        if missed:
            return (f"“{_short(part.text)}” asks for every place, and “{_short(missed, 50)}” still reads as it did.")
    if part.kind == "carve_out":
        added = _inserted(before, after)
        if len(added.split()) > _CARVE_OUT_WORDS:
            return (f"The carve-out taken from the precedent runs to {len(added.split())} words: a carve-out is the "
                    "exception, not the precedent's whole provision.")
    if part.kind == "delete":
        # A whole sentence dropped (not words inside one): what it said goes with it.
        gone = " ".join(e.old for e in result.edits if e.old.strip()) if result.label == "Sentence deleted" else ""
        if gone and _SUBSTANCE.search(gone) and not _NAMED_SENTENCE.search(part.text):
            return (f"Dropping “{_short(gone, 50)}” would drop a right or a duty, and the instruction does not name that "
                    "sentence.")
    if part.kind == "mutual":
        for start, end in sentence_spans(after):
            sentence = after[start:end]
            if _OWNERSHIP.search(sentence) and sentence not in before and re.search(
                    r"\b(?:each|either|both)\s+part(?:y|ies)\b", sentence, re.I):
                return ("Ownership made mutual (“each party”) reads as joint ownership; who owns what needs "
                        "wording of its own.")
    return ""


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


def _short(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"
