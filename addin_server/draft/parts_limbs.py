"""An ask no kind reads, shown not done by the draft itself.

A limb of a lawyer's message that no kind reads ("Producer may screen the Program at film festivals",
"handwritten insert after ...: 'without reference to conflict-of-laws principles'") is still checkable
in two plain ways, and either shows it not done:

* it asks for something new and names it with words the clause lacks (a quoted insert; the content words
  of an item of the lawyer's own list): a draft that did it uses at least one of them, in any wording, so
  a draft that has none of them anywhere did not;
* it points at one sentence of the clause (instruction_scope.pointed_sentence) and the draft leaves that
  sentence word for word while it changed other parts, and has none of the limb's new words elsewhere;
* it names the clause's own words to go ("'hereof' goes") or to swap ("Licensee = Customer", "Minnesota
  becomes Georgia": instruction_named.py), and the draft still has them: all of them where words go; where
  names swap, fewer than the clause had, or beside a new name it brought in (the swap begun, not finished).

Where neither is clear the limb stays "not checked". A keep is never an ask (unambiguous.says_to_keep),
and a limb not said as an ask (instruction_asks.asks_in_its_words: no verb of asking opening it, no
"may"/"must"/"wants" outside quotes) names nothing asked: "Finding B: our developers adapt ... for internal use".
"""

from __future__ import annotations

import re

from addin_server.draft.compare_base import stem_of, content_stems
from addin_server.draft.instruction import Part
from addin_server.draft.instruction_asks import asks_in_its_words
from addin_server.draft.instruction_named import count, said_to_go, swaps
from addin_server.draft.instruction_scope import pointed_sentence
from addin_server.draft.instruction_words import ASK
from addin_server.draft.parts_unread import WHOLE
from addin_server.draft.quotes import short as short_at_a_word

# Words about the message or the drafting, never words a draft that did the ask must hold.
_META = frozenset(stem_of(w) for w in """draft drafted drafting redraft wording worded words model modelled modeled
limb limbs para paragraph sentence clause precedent point option decision item issue action comment position
note please also same like need needs needed still only just directly following below above
handwritten insert inserted margin after before first second third last page line lines little dictation
when what where which while whom whose through goes went next back want wants wanted work works open agreed done
then there here than very much many some more most less least ever never always well even into onto upon over
about across along around between without within since until once both either neither whether because though
although says said told asked thing things case ways sure""".split())
# An ask about the whole clause (carry it across, conform it, rewrite it) names the clause, not words to add.
_WHOLE = re.compile(r"\b(?:carry|carried|bring|port|import|transplant|move|adapt)\w*\s+(?:\S+\s+){0,6}?(?:across|over|into)\b|"
                    rf"{WHOLE.pattern}", re.I)
_QUOTE = re.compile(r"(?<!\w)['‘\"“]([^'‘’\"“”]{8,}?)['’\"”](?!\w)")


def _new_words(text: str, clause: str) -> set[str]:
    """The limb's content words (by stem) that the clause lacks: what it asks to be there."""
    text = re.sub(r"\[\d+\]|\((?:cf\.|see)[^)]*\)", " ", text)
    return content_stems(text) - content_stems(clause) - _META - {stem_of(w) for w in ASK.split("|")}


# A quote is words to insert where the instruction says so just before it ("handwritten insert after ...:
# '...'", "add 'conditioned or delayed'"); a quote of what someone said ("Forwarding the client's note:
# "FCC have asked ...""), in the first or second person or asking, is the case made, not words of the draft.
_INSERT_CUE = re.compile(r"\b(?:insert\w*|add\w*|read(?:s|ing)?|say(?:s|ing)?|words?|wording|phrase|language|text)\b[^.;!?]{0,80}$",
                         re.I)
_SPEECH = re.compile(r"\b(?:we|our|us|i|my|me|you|your)\b|\?", re.I)


def _inserts(text: str, clause: str) -> list[str]:
    """Quoted words the clause does not have, which the instruction asks to insert."""
    low = " ".join(clause.lower().split())
    return [m.group(1) for m in _QUOTE.finditer(text)
            if " ".join(m.group(1).lower().split()) not in low and len(m.group(1).split()) >= 2
            and _INSERT_CUE.search(text[max(0, m.start() - 100):m.start()]) and not _SPEECH.search(m.group(1))]


def shown_not_done(part: Part, clause: str, draft: str) -> str:
    """A reason the draft shows the unread ``part`` not done, or "" where it does not show it."""
    from addin_server.draft.unambiguous import says_to_keep
    if part.kind != "other" or " ".join(clause.split()) == " ".join(draft.split()):
        return ""
    named = _named_left(part.text, clause, draft)
    if named or says_to_keep(part.text):
        return named
    have = content_stems(draft)
    for quoted in _inserts(part.text, clause):
        asked = _new_words(quoted, clause)
        if len(asked) >= 2 and not asked & have:
            return f"The draft has none of the words your instruction asks to insert (“{quoted}”): it is not done."
    limb = part.params.get("limb") or ""
    if not limb or not asks_in_its_words(limb) or len(limb.split()) < 4 or _WHOLE.search(limb):
        return ""
    asked = _new_words(limb, clause)
    if len(asked) >= 3 and not asked & have:
        return f"The draft has none of the words of “{_short(part.text)}”: it is not done."
    pointed = pointed_sentence(limb, clause)
    if pointed and asked and not asked & have:
        said = " ".join(clause[pointed[0]:pointed[1]].split())
        if said and said in " ".join(draft.split()):
            return f"The draft leaves the sentence “{_short(said)}” word for word, which “{_short(part.text)}” asks to change."
    return ""


def _named_left(text: str, clause: str, draft: str) -> str:
    """A reason the draft still has words the limb names to go or to swap, or ""."""
    for words in said_to_go(text, clause):
        if count(draft, words) >= count(clause, words):
            return f"The draft still says “{words}”, which your instruction says goes: it is not done."
    pairs = swaps(text, clause)
    news = [new for _, new in pairs]
    begun = any(count(draft, new) > count(clause, new) for new in news)
    for old, new in pairs:
        for name in _names_of(old, pairs):
            left, had = count(draft, name), count(clause, name)
            if left and (left < had or begun) and not _scoped_elsewhere(text, clause, name):
                return f"The draft still says “{name}”, which your instruction swaps for “{new}”: the swap is not finished."
    return ""


def _names_of(old: str, pairs: list[tuple[str, str]]) -> list[str]:
    """The words of a swapped-out name to look for in the draft. A name that is another swap's new name
    ("JHU, read Company; Company, read Partner") is no sign of a swap left undone; a long phrase is
    looked for by its own multi-word names that no new name shares ("SINA Leju" in "SINA Leju and
    Licensee's Affiliates ..."), since the draft may have swapped a name inside it."""
    if any(old.lower() == new.lower() for _, new in pairs):
        return []
    if len(old.split()) <= 4:
        return [old]
    new_words = {w.lower() for _, new in pairs for w in re.findall(r"[\w&-]+", new)}
    olds = {o.lower() for o, _ in pairs}
    runs = re.findall(r"[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*)+", old)
    return [r for r in runs if r.lower() not in olds and not {w.lower() for w in r.split()} <= new_words]


_SENTENCE_POINTER = re.compile(r"\b(?:first|second|third|fourth|last|final|opening|closing)\s+sentence\b|\bsentence\s+\d", re.I)


def _scoped_elsewhere(text: str, clause: str, name: str) -> bool:
    """The message points at one sentence ("In the second sentence Minnesota becomes Georgia") and the
    name is in more than one of the clause's: a name left in another sentence may be meant to stay."""
    from index_builder.reading.sentences import sentence_spans
    return bool(_SENTENCE_POINTER.search(text)) and sum(count(clause[a:b], name) > 0 for a, b in sentence_spans(clause)) > 1


def _short(text: str, limit: int = 60) -> str:  # this stage quotes 60 characters
    return short_at_a_word(text, limit)
