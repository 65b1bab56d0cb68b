"""Two positive readings a "done" must also pass, apart from done.py because they read the ask's own
words against the draft's new words rather than figures or parties: words the instruction names to
keep ("Keep the manifest error qualifier") are still there, and a bound asked one way ("whichever is
higher") is not drafted the other way ("the lesser of")."""

from __future__ import annotations

import re

from addin_server.draft.instruction import Instruction, Part


# "Keep the manifest error qualifier", "the notice requirement stays": words the lawyer names to keep.
_KEEP_NAMED = re.compile(r"\b(?:keep|leave|retain|preserve)\s+(?:the\s+|its\s+|their\s+)?(?P<what>[\w'’ -]{3,50}?)\s+"
                         r"(?:qualifier|proviso|limb|exception|carve-?out|wording|language|condition|requirement|test|"
                         r"words?)\b", re.I)


def named_words_gone(ins: Instruction, clause: str, draft: str) -> tuple[str, str] | None:
    """Words the instruction names to keep ("Keep the manifest error qualifier") that the clause has and the
    draft no longer has."""
    for m in _KEEP_NAMED.finditer(ins.text):
        stems = [w.lower()[:5] for w in re.findall(r"[A-Za-z]{3,}", m.group("what")) if w.lower() not in _KEEP_STOP]
        have = {w.lower()[:5] for w in re.findall(r"[A-Za-z]{3,}", clause)}
        left = {w.lower()[:5] for w in re.findall(r"[A-Za-z]{3,}", draft)}
        if stems and all(s in have for s in stems) and not all(s in left for s in stems):
            return ("wrong", f"The draft drops “{m.group('what').strip()}”, which your instruction says to keep.")
    return None


_KEEP_STOP = frozenset("the and its their our this that same".split())
# Which way a value bounds: the ask's word and its opposite ("whichever is higher" against "the lesser of").
_BOUNDS = (({"lesser", "lower", "smaller", "minimum"}, {"greater", "higher", "larger", "maximum"}),)


def direction_turned(part: Part, clause: str, draft: str) -> tuple[str, str] | None:
    """The ask says which way the value bounds ("the cap becomes $250,000 or X, whichever is higher") and
    the draft's new words say the other way ("the lesser of X and $250,000")."""
    from addin_server.draft.compare import compare
    asked = {w.lower() for w in re.findall(r"[a-z]+", part.text.lower())}
    added = " ".join(r.new for r in compare(clause, draft).regions).lower()
    said = set(re.findall(r"[a-z]+", added))
    for a, b in _BOUNDS:
        for want, other in ((a, b), (b, a)):
            if asked & want and not asked & other and said & other and not said & want:
                return ("wrong", f"The draft says “{sorted(said & other)[0]}” where your instruction asks for "
                                 f"“{sorted(asked & want)[0]}”.")
    return None
