"""What a citation placed inside a sentence claims: the phrase it closes (``phrase_cited_unsaid``).

Apart from support.py because the score judges a cited sentence whole; checks_support.py asks this of a
marker that stands mid-sentence.
"""

from __future__ import annotations

import re

from index_builder.reading import polarity as P

from addin_server.draft.support_parties import NOT_PARTIES
from addin_server.draft.support_words import LIMITING, NEGATORS, STOP, WORD, stems, word_roots

# A marker placed mid-sentence ("..., at the requesting party's cost [1], for inspection ...") points at the
# phrase it closes: that phrase, not the whole sentence, is what is claimed from the precedent. (A marker at
# the end of a sentence cites the sentence, which the score above judges whole.)
_CLOSED_LIMB = re.compile(r"[,;:]|\((?![\w.]{1,4}\))|(?<!\(\w)(?<!\(\w\w)\)")  # "(12)", "(a)" are no limb break
# A thing is named after a determiner, a preposition or a possessive ("for breach", "of a wind-down fee",
# "to its Affiliates"); the verbs and connectives around it frame the claim, and a paraphrase rewords them.
# ("to" is left out: "to give" is an act.)
_OBJECT_AFTER = frozenset("the a an any its their his her of for at by with from this that such each all no "
                          "our your in on outside".split())
_PREPOSITIONS = frozenset("within before after during until between among against beyond outside inside "
                          "throughout toward towards".split())


def phrase_cited_unsaid(sentence: str, n: int, precedent: str, lawyer_text: str) -> str:
    """A thing named in the phrase a mid-sentence marker ``[n]`` closes that the precedent does not say and the
    lawyer's clause and instruction do not give ("" where there is none): "cost" in "at the requesting party's
    cost [1]" cited to a precedent on how long records are kept. A kept word of the lawyer's never needs the
    precedent; "not", exceptions and limits are the negation feature's and the meaning check's."""
    have, own = set(stems(precedent)), set(stems(lawyer_text))
    roots = word_roots(precedent, lawyer_text)
    for m in re.finditer(rf"\s*\[{n}\s*\]", sentence):
        if not re.search(r"\w{2,}", re.sub(r"\[\d+\s*\]", "", sentence[m.end():])):
            continue  # at the end: the whole sentence is cited
        limb = _CLOSED_LIMB.split(re.sub(r"\s*\[\d+\s*\]", "", sentence[:m.start()]))[-1]
        limits = {w.lower() for lm in P.limit_phrases.finditer(limb) for w in WORD.findall(lm.group(0))}
        tokens = re.findall(r"[\w’'-]+", limb)
        for i, word in enumerate(tokens):
            low = word.casefold()
            if low in NEGATORS or low in LIMITING or low in limits or low in NOT_PARTIES or low.endswith("ing") \
                    or low in _PREPOSITIONS or low in _OBJECT_AFTER or P.negation_or_exception(nor=True).fullmatch(word) \
                    or any(part in STOP for part in low.split("-")[:-1]):
                continue  # polarity, limits, a document's part, an act (a gerund), a connective, "then-current"
            before = [t.casefold() for t in tokens[max(0, i - 2):i]]
            if not any(t in _OBJECT_AFTER or t.endswith(("'s", "’s")) for t in before):
                continue
            for part in low.split("-"):  # "then-current", "wind-down": each part its own word
                unsaid = [s for s in stems(part) if s not in have and s not in own and s[:5] not in roots]
                if unsaid:
                    return word
    return ""
