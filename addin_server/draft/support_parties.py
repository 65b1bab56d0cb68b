"""The ``party`` signal of the support score: a party acting, or a thing given to a party, that the cited
precedent's passage does not have (``missing_party``).

Apart from support.py because who acts is read in its own words (reading/binding.py, capitalised terms,
a sentence's opening word) and the score needs only the answer.
"""

from __future__ import annotations

import re
from collections import Counter

from index_builder.reading import binding
from index_builder.reading import figures as F
from index_builder.reading.defined_terms import capitalised_words

from addin_server.draft.support_words import STOP, WORD

_DETERMINERS = frozenset("the a an each either neither this that these those such any all no "
                         "every its their our your".split())


def missing_party(sentence: str, closest: str, passage: str, precedent: str,
                   own_text: str) -> str:
    """A party acting where the precedent's passage has another act, or named more often."""
    own = set(_terms(own_text)) | {_opener_dropped(_norm(a)) for a in binding.acting_names(own_text)}
    # The lawyer's own words in any case ("ANY STUDY" in a clause set in capitals, "Affiliates" for a
    # sentence's "Affiliate"): theirs, never claimed from the precedent.
    own |= {_singular(w) for w in WORD.findall(own_text.casefold())} | {_singular(t) for t in own}
    acting = {_opener_dropped(_norm(a)) for a in binding.acting_names(closest)}
    common = set(WORD.findall(precedent + " " + own_text))  # also written in lower case
    for actor in binding.acting_names(sentence):
        key = _opener_dropped(_norm(actor))
        if not key or key in NOT_PARTIES:
            continue  # "Nor does it ...", "This does not prevent": a sentence's first word, not someone acting
        # Someone acting where the passage has another party act ("Customer shall" for
        # "Supplier shall"); ordinary words opening a sentence ("Liability is") do not count.
        if not _known(key, own) and acting and key not in acting and not _known(key, common):
            return actor.strip()
    # The same act or thing given to another party: "Employee shall pay" or "Employee's
    # compensation" where the passage says "Company shall pay" or "Company's compensation"
    # (both may be named in it, so the checks above and below cannot see the swap).
    roles = _roles(closest)
    for actor, verb in _roles(sentence):
        others = {a for a, v in roles if v == verb}
        if others and actor not in others and actor not in own:
            return actor.title()
    named = _terms(passage)
    everywhere = _terms(precedent)
    opener = _opener(sentence, precedent + " " + own_text)
    for term, count in _terms(sentence).items():
        if term in own or _singular(term) in own or term in common or term == opener:
            continue  # the lawyer's party, or an ordinary word opening the sentence
        if term not in everywhere or count > named[term]:
            return term.title()  # a party or defined term the passage does not name (so often)
    return ""


def _singular(term: str) -> str:
    """A defined term in the plural is the same term: "Covered Customers", "Affiliates"."""
    return re.sub(r"(?<=[a-z]{3})s$", "", term)


def _opener_dropped(key: str) -> str:
    """A name read with the sentence's opening word before it ("If Array shall be deemed"): a name does
    not begin with a function word, so the name is what follows it."""
    words = key.split()
    while len(words) > 1 and (words[0] in STOP or words[0] in NOT_PARTIES):
        words = words[1:]
    return " ".join(words)


def _opener(sentence: str, others: str) -> str:
    """The sentence's first word where only its place makes it capitalised ("Despite that, Customer may",
    "Likewise, Licensee may"): written capitalised nowhere else in the sentence or the other texts, it
    is an ordinary word, not a party (a new party acting is read from who acts, above)."""
    # (An opening word set off by a comma within a few words: "Despite that,", "Apart from latent
    # defects,"; "Employee confirms having read ..." is a party acting.)
    m = re.match(r"\W*([A-Z][a-z]+)\b(?=(?:\s+[a-z][\w'’-]*){0,3}\s*,)", sentence)
    if not m:
        return ""
    word = m.group(1)
    if re.search(rf"\b{word}\b", sentence[m.end():]) or re.search(rf"\b{word}\b", others):
        return ""
    return word.lower()


def _known(key: str, words: set[str]) -> bool:
    """A name the lawyer's text (or the precedent) has: "confidential information" where it has both
    words ("Confidential Information" acting in a sentence is a defined term, not a new party)."""
    parts = [w for w in re.split(r"[\s-]+", key) if w]
    return key in words or (len(parts) > 1 and all(w in words for w in parts))


def _roles(text: str) -> set[tuple[str, str]]:
    """Who does what, read by the core (reading/binding.py): ("customer", "pay") for "Customer shall pay"."""
    return {(_norm(p.bound), p.verb) for p in binding.read(text).provisions if p.bound not in ("", binding.MUTUAL)}


def _terms(text: str) -> Counter[str]:
    """Capitalised words (parties, defined terms), sentence openers like "The" left out. In a text
    set in capitals, capitals say nothing (abstain); a figure's words ("ONE MILLION DOLLARS") are no
    name."""
    letters = [c for c in text if c.isalpha()]
    if letters and sum(c.isupper() for c in letters) > 0.6 * len(letters):
        return Counter()
    chars = list(text)
    for f in F.figures(text):
        chars[f.start:f.end] = " " * (f.end - f.start)
    text = "".join(chars)
    return Counter(key for t in capitalised_words(text) if (key := _norm(t)) and key not in STOP
                   and key not in NOT_PARTIES)


# Capitalised for another reason than naming a party: a sentence opener or a document's part.
NOT_PARTIES = frozenset("nothing nor section sections article exhibit schedule these those such none neither either "
                         "however notwithstanding except unless if in upon during after before this that it agreement "
                         "provided".split())


def _norm(name: str) -> str:
    words = [w for w in name.lower().replace("’", "'").split() if w not in _DETERMINERS]
    return " ".join(w[:-2] if w.endswith("'s") else w for w in words)

