"""The words the support score counts: content words, lower-cased and lightly stemmed (``stems``), their
roots (``word_roots``), and the words that say "not" or set a limit (read from reading/polarity.py).

Apart from support.py because the citation checks and the carve-out reader compare words the same way
(citations.py, checks_support.py, checks_terms.py, support_claims.py, carve_limbs.py): one stemmer.
"""

from __future__ import annotations

import re
import unicodedata

from index_builder.reading import numbers as N
from index_builder.reading import polarity as P

STOP = frozenset("""
a about above after again against all also am an and any are as at be because been before
being below between both but by can could did do does doing down during each either every few
for from further had has have having he her here hers herself him himself his how i if in
into is it its itself just me more most my myself of off on once only or other our ours
ourselves out over own same she should so some such than that the their theirs them themselves
then there these they this those through to too under until up upon very was we were what when
where which while who whom why will with would you your yours yourself yourselves shall may
must hereby herein hereof hereto hereunder thereof therein thereto thereunder whereas whether
anyone anybody someone somebody everyone everybody whoever whatever wherever whenever still also likewise
""".split())  # (pronouns and joining adverbs too: "hire anyone", "may still give" claim nothing of a precedent)
# "neither" is one "not" and its "nor" none ("neither A nor B" = "not A or B"; "Neither party is
# prevented" = "shall not prevent either party"); "nor" and "without" are left out: a restatement
# moves them around freely ("not A nor B" = "not A or B", "without approval" = "unless approved").
NEGATORS = P.negators(non=True, nobody=True)
LIMITING = P.LIMITING_WORDS
# Number words are figures (read by the core), not content words.
_NUMBER_WORDS = frozenset(N.SMALL) | frozenset(N.SCALES)
WORD = re.compile(r"\w+")


def stems(text: str) -> list[str]:
    """Content words, lower-cased and lightly stemmed, in order."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("’", "'")
    out = []
    for word in WORD.findall(re.sub(r"'s\b", "", text)):
        if word in STOP or word.isdigit() or word in _NUMBER_WORDS or len(word) < 2:
            continue
        out.append(_stem(word))
    return out


def _stem(word: str) -> str:
    if word.endswith("es") and not re.search(r"(?:ies|x|z|ch|sh|ss)es$|ies$", word):
        word = word[:-1]  # "employees", "licenses": the plural of "employee", "license", not "employ" + "es"
    for suffix in ("ations", "ation", "ments", "ment", "ings", "ing", "ies", "ied", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not (suffix == "s" and word.endswith("ss")):
            word = word[: -len(suffix)] + {"ies": "y", "ied": "y", "ations": "at", "ation": "at"}.get(suffix, "")
            break
    # "license", "licensed", "licensing" and "licenses" one stem; "use" stays itself.
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


def word_roots(*texts: str) -> set[str]:
    """The first five letters of each word of five or more: a word of these texts in another form
    ("expires" for "expiration", "conditioned" for "conditional") is theirs, not a new claim."""
    return {w[:5] for w in re.findall(r"[a-z]{5,}", " ".join(texts).lower())}

