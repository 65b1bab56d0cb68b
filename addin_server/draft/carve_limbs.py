"""What an added exception covers, limb by limb, and which limb nothing the lawyer gave backs.

A carve-out lawyers write lists what it lets through ("except in the case of gross negligence, wilful
misconduct or breach of confidentiality"; "to any affiliate, or in connection with the sale of ...").
The ask names what it should cover and the precedent gives its words; the clause gives the rest (the
parties, the act restrained). A limb whose own point is words that neither the ask, the precedent nor
the clause has in any form is an exception nobody asked for, however well the rest of the carve-out
reads: the checks that passed the whole exception as "the carve-out asked for" (the additions check
excuses every new "except") never read what it lets through. Uncited, it is the additions check's; cited,
the support check's (the citation vouches for words the precedent lacks).

Measured on the spent carve-out drafts of sets a-u (232 sound, 332 broken): a limb with two or more
such words, more than half of the words it adds to the clause, is in 63 broken drafts and 7 sound ones
before the framing words and forms below; with them, and read only where the added words say an
exception and are a good part of the limb, 51 broken and 1 sound (b-carve_out-02-p1, "leaves control of
you unchanged"). Two or more, not one: one new word flagged 32 sound drafts (a paraphrase's own word).
Outside a carve-out ask (multi asks) the same reading flagged 39 of 427 sound drafts: not used there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from index_builder.reading import figures as F
from index_builder.reading import polarity as P

from addin_server.draft.compare_base import compare, stem_of
from addin_server.draft.support_words import NEGATORS, stems

# Where one thing the exception lets through ends and the next begins: a list's commas and "or"/"and",
# brackets, and the words that open an exception or a proviso.
_LIMB = re.compile(rf"[,;:()]|\s(?:or|and)\s|\b(?:{P.UNLESS_WORDING}|provided)\b", re.I)
_MARKER = re.compile(r"\s*\[\d+\s*\]")
_LIMB_ENDS = re.compile(r"^[\s,;:()]+|(?:[\s,;:()]+(?:or|and)?)+\s*$")
# Words that say how an exception works on the clause, not what it lets through: it "does not apply to",
# "does not cover", "is not a breach of this covenant", the "obligations" it "results from", the clause
# "stays in force", "continues to govern"; "a person", "anything", which name no one; "however", "though";
# the agreement's own parts and parties ("this Section", "either party"); "including", which names examples
# of what the limb before it lets through, not more; and the light verbs whose noun carries the point
# ("proceedings brought", "testimony given", "remarks made": the proceedings, the testimony). A paraphrase
# frames the precedent's exception in them freely.
FRAMING = frozenset(stems("""apply applies applied cover covers covered restriction restrictions covenant
covenants paragraph clause people person persons individual individuals however though although nevertheless
despite anything everything something agreement herein hereof hereunder hereto section article schedule
exhibit annex party parties term terms provision provisions obligation obligations govern governs force
effect remain remains stay stays continue continues arise arising arises result results resulting giving
rise matter foregoing affect affects deem deemed construe construed treat treated prevent prevents restrict
restricts limit limits including include includes bring brings brought bringing give gives given giving make
makes made making take takes taken taking"""))
LIMB_WORDS = 2  # a piece with fewer content words is part of the limb beside it ("his or her own initiative")
NEW_WORDS = 2  # at least this many words from nowhere in one limb: one may be a paraphrase's own word


@dataclass(frozen=True)
class Limb:
    """One limb of the draft's added words: where it stands (in the draft without markers), what it
    says, and the words of it that nothing given has."""

    start: int
    end: int
    text: str
    unbacked: tuple[str, ...]


def unbacked_limbs(clause: str, draft: str, given: str, least: int = NEW_WORDS,
                   also: frozenset[str] | set[str] = frozenset()) -> list[Limb]:
    """The limbs of what ``draft`` adds to ``clause`` whose own words (those the clause lacks) are mostly
    words ``given`` (the ask, the precedent) has in no form either. ``draft`` without markers; ``also``:
    words given as compare.py stems them (the ticked precedents' words, for an ask that names none)."""
    have = set(stems(clause + " " + given))
    own = set(stems(clause))
    acronyms = _acronyms(clause + " " + given)
    out = []
    for r in compare(clause, draft).regions:
        if not r.new.strip():
            continue
        text = draft[r.new_start:r.new_end]
        if not _in_exception(draft, r.new_start, r.new_end, replaced=bool(r.old.strip())):
            continue  # what another part of the ask adds (a notice period, a second party): not an exception's
        for a, b in limbs(text):
            piece, start = text[a:b], r.new_start + a
            # (The words that open a limb, "except", "or", are the exception's shape, not what it lets through.)
            said = _without_acronyms(_LIMB.sub(" ", F.without_figures(_MARKER.sub("", piece))), acronyms)
            # A verb of restraint ("does not stop X from") and "only" are the polarity words' (polarity.py).
            said = P.NEGATIVE_VERBS.sub(" ", said)
            words = [(w, token) for token in re.findall(r"[\w’'-]+", said) for w in stems(token)[:1]
                     if w not in FRAMING and w not in P.ONLY_WORDS]
            fresh = [(w, token) for w, token in words if w not in own]
            new = tuple(w for w, token in fresh if not _known(w, have) and stem_of(token) not in also)
            # Most of what the limb adds, and a good part of the limb: a limb mostly of the clause's own words
            # ("the completed eligibility determination shows that Employee meets") is the clause reworded.
            if len(set(new)) >= least and 2 * len(new) > len(fresh) and 3 * len(new) > len(words):
                out.append(Limb(start, start + len(piece), _LIMB_ENDS.sub("", piece), new))
    return out


def limbs(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` between limb breaks; a piece that names nothing of its own ("his" of "his or
    her own initiative") joins the limb before it: "or" joins words there, not things let through."""
    cuts = [0] + [x for m in _LIMB.finditer(text) for x in (m.start(), m.end())] + [len(text)]
    out: list[tuple[int, int]] = []
    for a, b in zip(cuts[::2], cuts[1::2]):
        if out and (len(set(stems(text[a:b]))) < LIMB_WORDS or len(set(stems(text[slice(*out[-1])]))) < LIMB_WORDS):
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def _known(stem: str, have: set[str]) -> bool:
    """A word the given texts have in another form: "expires" for "expiration" (the first five letters),
    "hiring" for "hire", "using" for "use" (the stemmer leaves a short word's "-ing" on)."""
    if stem in have or stem in NEGATORS:
        return True
    if len(stem) >= 5 and any(h[:5] == stem[:5] for h in have if len(h) >= 5):
        return True
    bare = re.sub(r"(?:ing|ed)$", "", stem)
    if any(stem.startswith(h) for h in have if len(h) >= 4):
        return True  # "rental" for "renting", "employment" for "employ": the given word with an ending
    return len(bare) >= 2 and bare != stem and any(h in (bare, bare + "e") or h.startswith(bare) for h in have) \
        or len(stem) >= 3 and any(h.startswith(stem) and len(h) <= len(stem) + 2 for h in have)


def _acronyms(text: str) -> set[str]:
    """Initialisms the lawyer or the precedent writes ("BAA", "PHI", "GN"): the draft may spell them out."""
    return {re.sub(r"s$", "", w) for w in re.findall(r"\b[A-Z]{2,6}s?\b", text)}


def _without_acronyms(text: str, acronyms: set[str]) -> str:
    """``text`` less the runs of words whose initials spell a given initialism ("business associate
    agreement" where the ask says "BAA")."""
    tokens = list(re.finditer(r"[A-Za-z][\w'’-]*", text))
    drop: set[int] = set()
    for a in acronyms:
        for i in range(len(tokens) - len(a) + 1):
            if "".join(t.group(0)[0] for t in tokens[i:i + len(a)]).upper() == a:
                drop |= set(range(i, i + len(a)))
    return " ".join(t.group(0) for i, t in enumerate(tokens) if i not in drop)


def _in_exception(draft: str, start: int, end: int, replaced: bool = False) -> bool:
    """Added words that are, or stand in, an exception: the region itself or the limb before it opens one
    ("except", "unless", "does not apply", "nothing ... prevents"). Words put in place of the clause's own
    ("shows that Employee meets" for "indicates that Employee satisfies") reword what the clause says after
    its own "unless": only where they say an exception themselves are they one."""
    if _EXCEPTION.search(draft[start:end]):
        return True
    before = _LIMB_START.split(draft[max(0, start - 120):start])[-1]
    return not replaced and bool(_EXCEPTION.search(before))


_EXCEPTION = P.negation_or_exception(nor=True, freed=True)
_LIMB_START = re.compile(r"[.;]\s")
