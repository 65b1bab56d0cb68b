"""Add a carve-out taken word for word from a chosen precedent, cited to it.

The carve-out is found in precedent [n]: the sentence with the instruction's words
("professional references"), or, with none named, the precedent's sentence that the
clause lacks and that reads as an exception ("does not prohibit", "permitted", "subject
to"). When that sentence is the clause's own sentence with words added (a qualifier
such as ", subject to applicable law"), only the added words are inserted where the
precedent has them; otherwise the sentence is added after the clause. Either way the
addition ends with the marker [n], and nothing else in the clause changes.
"""

from __future__ import annotations

import difflib
import re
from typing import Sequence

from index_builder.model import Clause
from index_builder.reading import binding
from index_builder.reading import polarity as P
from index_builder.reading.paragraphs import without_number
from index_builder.reading.parties import role_by_name

from addin_server.draft.checks import similarity
from addin_server.draft.edits import Declined, OperationResult, edit
from addin_server.draft.quotes import words
from index_builder.reading.sentences import sentence_spans
from addin_server.draft.quotes import short as _short

_EXCEPTION = P.exception(disapplied="carve", stems=False, conditions=True)
SAME_SENTENCE = 0.5
_NUMBERS = re.compile(r"\b(?:\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
                      r"thirty|forty|fifty|sixty|ninety|hundred|thousand|million)\b", re.I)
_COMMON = frozenset("This That The It Each Either Neither Nothing Such Any Agreement Section Party Parties".split())  # at or above: the precedent's sentence is the clause's, with additions


def choose_precedent(precedents: Sequence[Clause], n: int | None, source: str = "", phrase: str = "") -> int:
    """The precedent a carve-out comes from: the one named by number, else by what the lawyer calls
    it ("the AT&T precedent", "clause 9.1 of the distribution agreement", "the CIIA"), else the only
    one, else the one whose sentences have the carve-out's words (when one stands out)."""
    if n:
        if not 1 <= n <= len(precedents):
            raise Declined(f"Precedent [{n}] is not among the chosen precedents; choose it first.")
        return n
    if not precedents:
        raise Declined("No precedent was chosen to take the carve-out from; choose one, or ask the drafting "
                       "assistant to write it.")
    if len(precedents) == 1:
        return 1
    if source:
        key = [w.lower() for w in re.findall(r"[\w&.]+", source) if len(w) > 1]
        named = [i for i, p in enumerate(precedents, 1)
                 if any(k in (p.text[:400] + " " + p.citation()).lower() for k in key)]
        if len(named) == 1:
            return named[0]
    wanted = [w for w in words(phrase) if len(w) > 3]
    if wanted:
        scores = [sum(1 for w in wanted if any(h.startswith(w[:max(len(w) - 2, 4)]) for h in words(p.text)))
                  for p in precedents]
        best = max(scores)
        if best and scores.count(best) == 1:
            return scores.index(best) + 1
    raise Declined("It is not clear which chosen precedent the carve-out comes from; name it, for example "
                   "“add the carve-out from [2]”.")


def add_carve_out(clause: str, precedents: Sequence[Clause], n: int | None, phrase: str = "",
                  source: str = "", parties: Sequence[str] = ()) -> OperationResult:
    n = choose_precedent(precedents, n, source, phrase)
    text = precedents[n - 1].text
    sentence = _carve_out_sentence(clause, text, phrase)
    if sentence is None:
        raise Declined(f"Precedent [{n}] has no carve-out"
                       + (f" about “{' '.join(_subject(phrase))}”" if _subject(phrase) else "") + " that your clause lacks.")
    actors = list(binding.party_names(sentence, ())) + _named_actors(sentence)
    if not _reads_as_sentence(sentence):
        raise Declined(f"Precedent [{n}] states its carve-out as part of a list or heading (“{_short(sentence)}”), not "
                       "as a sentence that can be added as it is; the drafting assistant can word it for your clause.")
    sentence = _only_items(sentence, phrase)
    dangling = [m.group(0) for m in re.finditer(r"\bsuch\s+([a-z]+?)s?\b", sentence)
                if not re.search(rf"\b{re.escape(m.group(1))}", clause, re.I) and m.group(1) not in ("party", "time")]
    if dangling:
        raise Declined(f"The carve-out in precedent [{n}] refers back to words your clause does not have (“{dangling[0]}”); "
                       "taken word for word it would not read. The drafting assistant can word it for your clause.")
    # A carve-out taken word for word must not bring limits of its own: "A physician non-compete may not
    # exceed one year or fifteen miles ... and does not apply following termination without cause" is an
    # exception and two new limits; only the exception was asked for.
    extra = [w for w in _NUMBERS.findall(sentence) if not re.search(rf"\b{re.escape(w)}\b", clause + " " + phrase, re.I)]
    if extra:
        raise Declined(f"The carve-out in precedent [{n}] comes with limits of its own (“{extra[0]}”) that your "
                       "clause does not have; taking it word for word would add them. The drafting assistant can take "
                       "only the exception.")
    # The clause's own parties' counterparts in the one role table are no strangers (Employee's Employer).
    own_roles = {role_by_name(p) for p in binding.party_names(clause, parties)} - {None}
    kin = lambda name: bool(role_by_name(name)) and any(role_by_name(name) in (r, r.counterpart) for r in own_roles)  # noqa: E731
    foreign = [name for name in dict.fromkeys(actors) if name not in set(parties) and name not in _COMMON
               and not kin(name) and not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", clause)]
    if foreign:
        raise Declined(f"The carve-out in precedent [{n}] names “{foreign[0]}”, which your clause does not; taking it "
                       "word for word would bring in another document's party. The drafting assistant can adapt it.")
    if _contains(clause, sentence):
        from addin_server.draft.operations import AlreadyDone
        raise AlreadyDone("Your clause already has this carve-out; nothing was changed.")
    reason = f"carve-out taken word for word from precedent [{n}], as instructed"
    own = _closest_sentence(clause, sentence)
    if own is not None and similarity(clause[own[0]:own[1]], sentence) >= SAME_SENTENCE:
        inserted = _insert_additions(clause, own, sentence, n, reason)
        if inserted is None:
            inserted = _append_fragment(clause, own, sentence, phrase, n, reason)
        if inserted is not None:
            return OperationResult("add_carve_out", f"Carve-out added from precedent [{n}]",
                                   clause, inserted, cited=[n])
    end = len(clause.rstrip())
    gap = "" if clause[end - 1:end] in {"", " "} else " "
    return OperationResult("add_carve_out", f"Carve-out added from precedent [{n}]", clause,
                           [edit(clause, end, end, f"{gap}{sentence} [{n}]", reason)], cited=[n])


def _reads_as_sentence(sentence: str) -> bool:
    """A whole sentence: it opens with a capital, ends with a full stop and has a verb of its own."""
    body = without_number(sentence.strip())  # the core's reader of a typed clause number
    return bool(body[:1].isupper()) and body.rstrip().endswith((".", ".)")) and bool(re.search(
        r"\b(?:shall|will|may|must|is|are|does|do|include|includes|apply|applies)\b", body))


_ITEM = re.compile(r"\s*\((?:[a-h]|i{1,3}|iv|v|vi{0,3})\)\s*")


def _named_actors(sentence: str) -> list[str]:
    """One-word names that own something or act in the sentence ("Employer's", "Licensee shall"), in
    text order: possessives read by the core (reading/binding.py)."""
    owners = binding.owners(sentence)
    acting = [(m.start(1), m.group(1)) for m in re.finditer(r"\b([A-Z][\w&.-]*[A-Za-z])\s+(?:shall|will|is|may|must|has)\b",
                                                          sentence)]
    return [name for _, name in sorted(owners + acting)]


def _only_items(sentence: str, phrase: str) -> str:
    """The sentence with only the list items the lawyer named: "(a) ... general advertisement ...
    or (b) ... own initiative" for "carve out general job ads" keeps (a)'s words only."""
    pieces = _ITEM.split(sentence)
    wanted = [w for w in words(phrase) if len(w) > 3]
    if len(pieces) < 3 or not wanted:
        return sentence
    lead, items = pieces[0], pieces[1:]
    def named(item: str) -> bool:
        have = words(item)
        return sum(any(h.startswith(w[:max(len(w) - 2, 4)]) for h in have) for w in wanted) / len(wanted) >= 0.3
    keep = [i for i in items if named(i)]
    if not keep or len(keep) == len(items):
        return sentence
    body = " or ".join(re.sub(r"[,;]?\s*(?:or|and)?\s*$", "", i.strip()) for i in keep)
    return f"{lead.rstrip()} {body.rstrip('.;, ')}."




def _carve_out_sentence(clause: str, source: str, phrase: str) -> str | None:
    body = _body(source)
    spans = [body[a:b] for a, b in sentence_spans(body)]
    spans = [s for s in spans if not _contains(clause, s) or _EXCEPTION.search(s)]
    wanted = _subject(phrase)
    if wanted:
        scored = [(sum(any(h.startswith(w[:max(len(w) - 2, 4)]) for h in words(s))
                       for w in wanted), s) for s in spans]
        best = max(scored, default=(0, None), key=lambda x: x[0])
        if best[1] is not None and best[0] / len(wanted) >= 0.5:
            return best[1].strip()
        # The lawyer named what the exception is for ("fraud"); a sentence that does not speak of it is
        # another exception, however much it reads like one: none is taken.
        return None
    exceptions = [s for s in spans if _EXCEPTION.search(s) and not _contains(clause, s)]
    return exceptions[0].strip() if exceptions else None


def _subject(phrase: str) -> list[str]:
    """The words that name what a carve-out is for ("fraud" in "fraud from"): not the words that only
    join it to the rest of the ask."""
    return [w for w in words(phrase) if len(w) > 3 and not binding.function_word(w)]


def _body(text: str) -> str:
    """A precedent's text without its number and heading line ("7. Non-Solicitation\n")."""
    first, _, rest = text.partition("\n")
    return rest if rest and len(first) < 80 and not first.rstrip().endswith(".") else text


def _contains(clause: str, sentence: str) -> bool:
    mine, theirs = " ".join(words(clause)), " ".join(words(sentence))
    return bool(theirs) and theirs in mine


def _closest_sentence(clause: str, sentence: str) -> tuple[int, int] | None:
    spans = sentence_spans(clause)
    if not spans:
        return None
    return max(spans, key=lambda s: similarity(clause[s[0]:s[1]], sentence))


def _insert_additions(clause: str, own: tuple[int, int], sentence: str, n: int, reason: str):
    """Edits that insert the words the precedent's sentence adds to the clause's sentence."""
    start, end = own
    mine = [(m.start() + start, m.end() + start, m.group(0))
            for m in re.finditer(r"\S+", clause[start:end])]
    theirs = re.findall(r"\S+", sentence)
    key = lambda token: re.sub(r"\W", "", token.lower())  # noqa: E731
    ops = difflib.SequenceMatcher(None, [key(t) for _, _, t in mine], [key(t) for t in theirs],
                                  autojunk=False).get_opcodes()
    edits = []
    for tag, i1, i2, j1, j2 in ops:
        if tag == "insert" and i1 > 0:
            before = mine[i1 - 1]
            trail = re.search(r"[.,;:]*$", before[2]).group(0)  # the clause's own stop stays
            lead = re.search(r"[.,;:]*$", theirs[j1 - 1]).group(0)  # the precedent's comma
            added = " ".join(theirs[j1:j2]).rstrip(".")
            at = before[1] - len(trail)
            edits.append(edit(clause, at, at, f"{lead.rstrip('.')} {added} [{n}]", reason))
        elif tag != "equal":
            return None  # the precedent words it differently: add its sentence instead
    return edits or None


def _append_fragment(clause: str, own: tuple[int, int], sentence: str, phrase: str, n: int,
                     reason: str):
    """The precedent words its sentence differently: add only its qualifying phrase
    (", subject to applicable law") at the end of the clause's sentence."""
    fragments = [f.strip() for f in re.split(r"[,;]", sentence.rstrip(". "))]
    wanted = _subject(phrase)
    for fragment in reversed(fragments):
        have = words(fragment)
        named = wanted and all(any(h.startswith(w[:max(len(w) - 2, 4)]) for h in have)
                               for w in wanted)
        if (named or (not wanted and _EXCEPTION.match(fragment))) and not _contains(clause, fragment):
            end = own[1] - 1 if clause[own[1] - 1] == "." else own[1]
            return [edit(clause, end, end, f", {fragment} [{n}]", reason)]
    return None
