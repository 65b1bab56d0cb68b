"""What a citation claims from its precedent, read from where the marker stands, and whether the precedent
says it: the support score (support.py) judges a cited sentence as a whole, and counts the lawyer's own
words neither way; three ways a draft cites a precedent for what it does not say pass that score.

- An attribution written into the prose ("as [1] provides", "as in [1], ...", "..., as [1] requires"): the
  draft tells the lawyer the precedent says the limb it stands in (or the one it opens or closes), so that
  limb must be the precedent's, even where its words are the lawyer's own ("null and void" said "as in [1]"
  by a precedent without it). Each limb of it is the precedent's, not the span read whole: a proviso or an
  "and any ..." added to the precedent's own words is carried by them otherwise.
- A citation on the lawyer's own words: a sentence (or the limb a mid-sentence marker closes) that adds
  nothing to the clause, cited to a precedent that says little of it (the kept warranty head cited to a
  precedent on bodily injury). A citation vouches for what is new; on nothing new it points at nothing.
- A qualifier of the precedent given up: "whether or not publicly traded", "any breach, material or not"
  where the precedent says "publicly traded corporation", "material breach"; "any negligence" where it
  says "gross negligence". The words are the precedent's, the reach is not.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from index_builder.reading import figures as F
from index_builder.reading import polarity as P

from addin_server.draft.carve_limbs import FRAMING, NEW_WORDS, limbs
from addin_server.draft.support_words import NEGATORS, stems, word_roots
from addin_server.draft.quotes import short as short_at_a_word

# A citation the prose attributes: "as [1] provides", "as in [1]", "as under [1]", "per [1]", "cf. [1]".
# And where the prose names it as the source or the rule: "consistent with [1]", "as provided in [1]", "which
# under [1] needs no notice", "in accordance with [1]", "according to [1]".
_ATTRIBUTED = (r"(?:\bas\s+(?:(?:provided|set\s+out|stated|found|written|given)\s+)?(?:in|under|per|with|at|by)\s+|"
               r"\bas\s+|\bper\s+|\bcf\.?\s+|\bin\s+line\s+with\s+|\bconsistent(?:ly)?\s+with\s+|\bunder\s+|"
               r"\bin\s+accordance\s+with\s+|\baccording\s+to\s+)")
# A word that hands an attribution back to every limb before it: "gross negligence or fraud, each as in [1]".
_DISTRIBUTIVE = re.compile(r"^\s*(?:each|both|all|in\s+each\s+case|respectively)\s*$", re.I)
_ATTRIBUTING_VERB = re.compile(r"^\s*(?:does|do|did|has\s+it|puts?\s+it|says?|states?|provides?|requires?|"
                               r"allows?|permits?|gives?|sets?\s+out|reads?|words?\s+it)\b", re.I)
_LIMB = re.compile(r"[,;:]")
_MARKERS = re.compile(r"\s*\[\d+\s*\]")
KEPT_SHARE = 0.9  # at or above, the cited words are the clause's, as it has them
BACKED_SHARE = 0.5  # below, the precedent says too little of what is claimed from it


def claim_unbacked(sentence: str, n: int, precedent: str, clause: str, asked: str = "") -> str:
    """Why the precedent ``[n]`` does not back what ``sentence`` claims from it ("" where it does)."""
    said = _attributed(sentence, n)
    if said is not None:
        missing = said if _unsaid(said, precedent) else _limb_unsaid(said, precedent, clause)
        return f"the draft says [{n}] provides “{_short(missing)}”, which it does not say" if missing else ""
    cited = _cited_span(sentence, n)
    if _kept(cited, clause) and not _brings(cited, clause, precedent) and _unsaid(cited, precedent):
        return f"it cites [{n}] for the clause's own words “{_short(cited)}”, which [{n}] does not say"
    thing = _new_thing(_MARKERS.sub("", sentence), precedent, clause + " " + asked)
    if thing:
        return f"[{n}] does not give “{thing}”, nor do your clause and instruction"
    given_up = _qualifier_given_up(_MARKERS.sub("", sentence), precedent, clause)
    if given_up:
        return f"[{n}] says “{given_up}”; the sentence drops that limit"
    turned = _condition_turned(_MARKERS.sub("", sentence), precedent, clause)
    if turned:
        return f"[{n}] says “{turned}”; the sentence says the opposite"
    return ""


def _limb_unsaid(said: str, precedent: str, clause: str) -> str:
    """The limb of an attributed span whose own words (those the clause lacks) the precedent mostly does not
    have: "…by merger or otherwise, provided that the assigning party first obtains the acquirer's written
    assumption, as [1] requires", "…as listed on Exhibit A and any contracts CBC later adds to that exhibit,
    as [1] permits". The span read whole is mostly the precedent's words, so they carry the limb added to
    it; each limb must be the precedent's itself. The clause's own words (its parties, its act) count
    neither way, and the ask's do not back it: the draft says the precedent, not the lawyer, gives it."""
    own, have, roots = set(stems(clause)), set(stems(precedent)), word_roots(precedent)
    for a, b in limbs(said):
        fresh = {w for w in stems(said[a:b]) if w not in own and w not in NEGATORS and w not in FRAMING}
        backed = {w for w in fresh if w in have or len(w) >= 5 and w[:5] in roots}
        if len(fresh) >= NEW_WORDS and len(backed) < BACKED_SHARE * len(fresh):
            return said[a:b].strip(" ,;:")
    return ""


def _condition_turned(sentence: str, precedent: str, clause: str) -> str:
    """A ground the sentence makes the only one where the precedent does without it ("only for cause [1]",
    [1]: "without cause"), or the other way round: the citation claims the opposite of its source. A
    condition the lawyer's clause already states so is the clause's, not the claim's."""
    pairs = ((P.conditions_required(sentence) - P.conditions_required(clause), P.conditions_denied(precedent), "without"),
             (P.conditions_denied(sentence) - P.conditions_denied(clause), P.conditions_required(precedent), "only"))
    for said, source, word in pairs:
        for noun in sorted(said & source):
            return _phrase_with(noun, precedent) if word == "only" else f"without {noun}"
    return ""


def _attributed(sentence: str, n: int) -> str | None:
    """The words a prose attribution of ``[n]`` says the precedent provides; None where there is none."""
    m = re.search(rf"{_ATTRIBUTED}\[{n}\s*\]", sentence, re.I)
    if not m:
        return None
    before, after = sentence[:m.start()], sentence[m.end():]
    verb = _ATTRIBUTING_VERB.match(after)
    after = after[verb.end():] if verb else after
    head = _LIMB.split(before)[-1]
    tail = _LIMB.split(after)[0]
    if _DISTRIBUTIVE.match(head):
        # "..., willful misconduct or breach of confidentiality, each as provided in [1]": the list before it
        return _MARKERS.sub("", before[:len(before) - len(head)]).split(";")[-1]
    own = _MARKERS.sub("", head + " " + tail)
    if len(set(stems(own))) >= 2:
        return own  # "as [1] provides for a party's rights of publication": said in the attribution's limb
    rest = _MARKERS.sub("", after)
    limbs_before = [limb for limb in _LIMB.split(_MARKERS.sub("", before)) if limb.strip()]
    if re.search(r"\w{2,}", rest) and (not limbs_before or len(set(stems(limbs_before[-1]))) < 2):
        # "and, as in [1], any attempt ... shall be null and void", "but, as [1] requires, stays liable": after a
        # joining word (or at the start) it opens the limb that follows
        return next((limb for limb in _LIMB.split(rest) if len(set(stems(limb))) >= 2), "")
    # "..., unless a party gives three months' notice, as [1] provides." or "... two (2) year term, as [1]
    # provides, unless ...": set off after a limb of substance, it closes that limb
    return next((limb for limb in reversed(limbs_before) if len(set(stems(limb))) >= 2), "")


def _cited_span(sentence: str, n: int) -> str:
    """What a marker cites: the limb it closes where it stands mid-sentence, else the sentence."""
    m = re.search(rf"\s*\[{n}\s*\]", sentence)
    if m and re.search(r"\w{2,}", _MARKERS.sub("", sentence[m.end():])):
        return _LIMB.split(_MARKERS.sub("", sentence[:m.start()]))[-1]
    return _MARKERS.sub("", sentence)


def _kept(text: str, clause: str) -> bool:
    """Text the draft keeps as the clause has it: nine in ten of its words stand in the clause in the same
    order (runs of three or more), and no figure is new. A sentence the draft changed (a party swapped to make
    it mutual, a limb added) is not kept, whatever its words: the change is what the citation vouches for."""
    said = [w.casefold() for w in re.findall(r"\w+", text)]
    if len(set(stems(text))) < 3:
        return False
    theirs = {(f.kind, f.value) for f in F.figures(clause)}
    if any((f.kind, f.value) not in theirs for f in F.figures(text)):
        return False  # cited for a figure the clause does not have: the figure is the claim
    mine = [w.casefold() for w in re.findall(r"\w+", clause)]
    blocks = SequenceMatcher(None, mine, said, autojunk=False).get_matching_blocks()
    return sum(b.size for b in blocks if b.size >= 3) >= KEPT_SHARE * len(said)


NEW_RUN = 3  # adjacent content words that nothing given has: a thing named, not a word reworded


def _new_thing(sentence: str, precedent: str, given: str) -> str:
    """Words naming a thing ("paid speaking engagements" beside the precedent's "charitable events") that
    neither the cited precedent nor the lawyer's clause and ask has in any form: a paraphrase rewords a
    word here and there; a run of new words is a new thing the citation is made to vouch for."""
    have, roots = set(stems(precedent + " " + given)), word_roots(precedent, given)
    run: list[str] = []
    for word in re.findall(r"[\w’'-]+", sentence):
        s = [w for w in stems(word) if w not in NEGATORS]
        if not s or P.negation_or_exception(nor=True).fullmatch(word) or P.limit_phrases.fullmatch(word):
            run = [] if word.casefold() not in ("and", "or") else run
            continue
        new = all(w not in have and not (len(w) >= 5 and w[:5] in roots) for w in s) and not F.figures(word)
        run = run + [word] if new else []
        if len(run) >= NEW_RUN:
            return " ".join(run)
    return ""


def _brings(text: str, clause: str, precedent: str) -> bool:
    """A word the text adds to the clause that the precedent has: the point it is cited for ("and is not a
    competitor [1]", "fraud" put in a list of exceptions [1])."""
    have, roots = set(stems(precedent)), word_roots(precedent)
    return any(w in have or len(w) >= 5 and w[:5] in roots for w in set(stems(text)) - set(stems(clause)))


def _unsaid(text: str, precedent: str) -> bool:
    """Most of the content words of ``text`` are nowhere in the precedent (in any form)."""
    words = {w for w in stems(text) if w not in NEGATORS}  # "not" is the meaning check's, not a claim
    if len(words) < 2:
        return False
    have, roots = set(stems(precedent)), word_roots(precedent)
    backed = {w for w in words if w in have or w[:5] in roots and len(w) >= 5}
    return len(backed) < BACKED_SHARE * len(words)


def _qualifier_given_up(sentence: str, precedent: str, clause: str) -> str:
    """A limit of the precedent the sentence says does not matter ("whether or not publicly traded",
    "material or not") or replaces by "any" ("any negligence" for "gross negligence"), where the lawyer's
    clause did not already say it so."""
    low_p, low_c = precedent.casefold(), clause.casefold()
    if not _either_way(precedent + " " + clause):
        for word in _either_way(sentence):
            if len(word) >= 4 and re.search(rf"\b{re.escape(word)}\b", low_p):
                return _phrase_with(word, precedent)
    for m in re.finditer(r"\bany\s+(\w{4,})\b", sentence, re.I):
        noun = m.group(1).casefold()
        q = re.search(rf"\b(\w{{4,}})\s+{re.escape(noun)}\b", low_p)
        if not q or q.group(1) in _NOT_QUALIFIERS or not stems(q.group(1)) or re.search(rf"\b{q.group(1)}\s+{re.escape(noun)}\b", low_c):
            continue
        if not re.search(rf"\b{q.group(1)}\b", sentence.casefold()):
            return q.group(0)
    return ""


def _either_way(text: str) -> list[str]:
    """The words a text says hold either way: "publicly" of "whether or not publicly traded", "material" of
    "material or not" (polarity.NO_NEGATION reads the "or not" that denies nothing)."""
    out = []
    for m in P.NO_NEGATION.finditer(text):
        if not re.search(r"\bor\s+not\b", m.group(0), re.I):
            continue  # "without limitation", "without delay": no limit said either way
        after = re.match(r"\s+(?:the\s+|a\s+|an\s+)?(\w+)", text[m.end():]) if m.group(0).lower().startswith("whether") \
            else None
        before = re.search(r"(\w+)\W*$", text[:m.start()])
        word = after.group(1) if after else before.group(1) if before else ""
        if word:
            out.append(word.casefold())
    return out


# Words before a noun that do not narrow it ("such breach", "other party", "each party", "this agreement").
_NOT_QUALIFIERS = frozenset("such other each every their your this that these those which with from into upon "
                            "than then what when where after before under over about shall will must would "
                            "could should have been being either neither both".split())


def _phrase_with(word: str, precedent: str) -> str:
    m = re.search(rf"(?:\w+\s+)?\b{re.escape(word)}\b(?:\s+\w+)?", precedent, re.I)
    return m.group(0) if m else word


def _short(text: str, limit: int = 80) -> str:  # this stage quotes 80 characters
    return short_at_a_word(text, limit)
