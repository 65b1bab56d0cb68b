"""What compare.py reads with: the word-by-word alignment, its regions, the allowances the checks pass in,
and the word stems and vocabularies every comparison shares."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from index_builder.reading import binding
from index_builder.reading import figures as F
from index_builder.reading import logic as L
from index_builder.reading import polarity as P
from addin_server.draft.quotes import short as short_at_a_word

TOKEN = re.compile(r"[A-Za-z][A-Za-z'’-]*|\d[\d,.]*|\S")
_MARKER = re.compile(r"\s*\[\d+\s*\]")
MERGE_GAP = 6  # equal words between two edits that still read as one change
# Opposites: a word of one side replaced by the other turns a limit round.
OPPOSITES = (
    ({"lesser"}, {"greater"}), ({"less", "fewer", "within"}, {"more", "beyond"}), ({"minimum", "least"}, {"maximum", "most"}),
    ({"lower", "below", "shorter"}, {"higher", "above", "longer"}),
    ({"before", "prior", "preceding", "earlier"}, {"after", "following", "thereafter", "later", "subsequent"}),
    ({"survive", "survives", "continue", "continues"}, {"terminate", "terminates", "expire", "expires", "cease", "ceases"}),
    ({"reasonable", "reasonably"}, {"sole", "absolute"}),
    ({"refundable"}, {"nonrefundable", "non-refundable"}),
    ({"include", "includes", "including"}, {"exclude", "excludes", "excluding"}),
    ({"permitted", "allowed"}, {"prohibited", "forbidden"}),
    ({"exclusive"}, {"non-exclusive", "nonexclusive"}),
    ({"increase", "increased"}, {"decrease", "decreased", "reduce", "reduced"}),
    ({"despite", "notwithstanding", "regardless"}, {"under", "subject"}),
    # A ceiling and a floor, each however said (polarity.py: CEILING, FLOOR; compare_limits.py reads them).
    ({"ceilingx"}, {"floorx"}),
)
NEG = P.negators(nor=True, nobody=True, contracted=True, failure=True)
# A limit is said with or without a "not" ("shall not exceed", "is limited to"): it counts as neither.
LIMIT_PHRASES = P.limit_phrases
# Names of covenants, not negations: "the non-compete", "a non-disclosure agreement".
NON_NOUNS = re.compile(rf"\b{P.COVENANT_NAMES}\b", re.I)  # (a name is no "not": polarity.py)
ONLY = P.ONLY_WORDS
EXCEPT = P.EXCEPTION_WORDS
# Words whose arrival adds an obligation, a right, a condition or a reach the clause did not have.
SUBSTANCE = tuple("""notari certif irrevoc perpetu worldwid world anywhere territor penalt liquidat forfeit death
injur fraud negligen misconduct infring
interest guarant indemn insur audit destroy destruct surrender sole discretion absolute immediat exclusiv
sublicens transfer assign terminat suspend withhold waiv releas warrant represent fee fees charg payment pay
approv consent written writing record escrow bond deposit security collateral notice exceed unlimited
punitive consequential reduc deduct offset setoff set-off rebat refund credit void null liabil""".split())
STOP = frozenset("""the a an and or of to in on for by with as at be is are was were this that these those its it
their any all each such which who whom from than then into under upon shall will must may can would should not no
other party parties agreement""".split())


@dataclass(frozen=True)
class Region:
    """One change: the clause's words ``old`` (chars old_start..old_end) became ``new``."""

    old_start: int
    old_end: int
    new_start: int
    new_end: int
    old: str
    new: str


@dataclass(frozen=True)
class Comparison:
    clause: str
    draft: str
    regions: tuple[Region, ...]
    ratio: float  # word-sequence similarity, 0..1

    @property
    def rewritten(self) -> bool:
        """Reworded throughout (plain English, a paraphrase): compare the whole, not edit by edit."""
        return self.ratio < 0.55

    def inserted(self) -> str:
        return " ".join(r.new for r in self.regions)


@dataclass
class Allowances:
    """What the instruction's parts explain, so that it is not read as an unasked change."""

    figures: list[F.Figure] = field(default_factory=list)  # values the instruction sets
    old_figures: list[F.Figure] = field(default_factory=list)  # the clause's figures it changes
    parties: set[str] = field(default_factory=set)  # parties whose places it changes (mutual, flip)
    targets: list[binding.Provision] = field(default_factory=list)  # provisions it changes
    exception: bool = False  # a carve-out: new "except", "not", "does not apply"
    delete: list[tuple[int, int]] = field(default_factory=list)  # clause spans it deletes
    rewrite: bool = False  # shorten, plain English: words may change throughout
    plain: bool = False  # plain English: "only" and "except" may be said another way
    conform: bool = False  # conform: the document's names and references replace the clause's
    mirror: bool = False  # mutual: a provision may be repeated for the other party, "not" and all
    left_alone: list[tuple[int, int]] = field(default_factory=list)  # clause spans the instruction says to keep
    kept_phrases: list[str] = field(default_factory=list)  # phrases the instruction names to keep ("DGT's products")
    renamed: set[str] = field(default_factory=set)  # parties conform renames to the document's
    renames: dict[str, str] = field(default_factory=dict)  # conform's mapping as the ask says it: old -> new
    drop_ok: bool = False  # shorten or conform: a clause part may go
    words: set[str] = field(default_factory=set)  # stems the instruction itself uses
    cited_text: str = ""  # the precedents the draft cites, for what they back
    asked: str = ""  # the instruction's own words, lower case: a word it asks for is no reversal
    unread_scopes: list[tuple[int, int]] = field(default_factory=list)  # clause sentences an unread part points at


def words(text: str) -> list[str]:
    return [t.lower() for t in TOKEN.findall(text)]


def compare(clause: str, draft: str) -> Comparison:
    draft = _MARKER.sub("", draft)
    a = [(m.group(0).lower(), m.start(), m.end()) for m in TOKEN.finditer(clause)]
    b = [(m.group(0).lower(), m.start(), m.end()) for m in TOKEN.finditer(draft)]
    matcher = difflib.SequenceMatcher(None, [t for t, _, _ in a], [t for t, _, _ in b], autojunk=False)
    ops = [op for op in matcher.get_opcodes()]
    regions: list[list[int]] = []  # [i1, i2, j1, j2]
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            continue
        if regions and i1 - regions[-1][1] <= MERGE_GAP and j1 - regions[-1][3] <= MERGE_GAP:
            regions[-1][1], regions[-1][3] = i2, j2
        else:
            regions.append([i1, i2, j1, j2])
    out = []
    for i1, i2, j1, j2 in regions:
        os_, oe = (a[i1][1], a[i2 - 1][2]) if i2 > i1 else ((a[i1][1], a[i1][1]) if i1 < len(a) else (len(clause),) * 2)
        ns, ne = (b[j1][1], b[j2 - 1][2]) if j2 > j1 else ((b[j1][1], b[j1][1]) if j1 < len(b) else (len(draft),) * 2)
        out.append(Region(os_, oe, ns, ne, clause[os_:oe], draft[ns:ne]))
    return Comparison(clause, draft, tuple(out), matcher.ratio())


def raw_edits(c: Comparison) -> list[Region]:
    """The word-level edits before nearby ones are read together."""
    a = [(m.group(0).lower(), m.start(), m.end()) for m in TOKEN.finditer(c.clause)]
    b = [(m.group(0).lower(), m.start(), m.end()) for m in TOKEN.finditer(c.draft)]
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, [t for t, _, _ in a], [t for t, _, _ in b],
                                                       autojunk=False).get_opcodes():
        if tag == "replace":
            out.append(Region(a[i1][1], a[i2 - 1][2], b[j1][1], b[j2 - 1][2], c.clause[a[i1][1]:a[i2 - 1][2]],
                              c.draft[b[j1][1]:b[j2 - 1][2]]))
    return out


same_figure = F.same


def key_of(text: str) -> str:
    return " ".join(w for w in words(text) if w.isalnum() or "'" in w or "’" in w)


def the_named(name: str) -> str:
    return name if name.isupper() or not name[:1].isupper() or " " in name else f"the {name}"


# Prefixes whose four letters say nothing of the word's root: "interest" and "interfere", "consent" and
# "consequential", "subsidiary" and "substitute", "disclose" and "discretion" are different words. Such a
# word keeps its prefix and three letters more ("interes", "consen", "subsid", "disclo"), which still
# joins a family ("interpret"/"interpretation", "confidential"/"confidentiality", "comply"/"compliance").
_PREFIXES = ("counter", "inter", "under", "trans", "over", "con", "com", "dis", "sub")


def stem_of(word: str) -> str:
    """A word cut to its first four letters (past a prefix such as "inter", "con", "sub": three
    letters more), after a plural or tense ending: "written" and "writing", "pays" and "pay", "signed"
    and "signature" agree; "interest" and "interfere" do not."""
    word = word.lower().replace("-", "")
    if word.startswith(("paid", "pay")):
        return "pay"
    if word.startswith("non") and len(word) > 6:
        word = word[3:]
    if word.endswith("ies") and len(word) > 5:
        word = word[:-3] + "y"  # "companies" is "company", "liabilities" "liability"
    for suffix in ("ings", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[:-len(suffix)]
            break
    if word.endswith("y") and len(word) > 3:
        word = word[:-1] + "i"  # "comply" and "compliance", "deny" and "denial"
    prefix = next((p for p in _PREFIXES if word.startswith(p) and len(word) >= len(p) + 3), "")
    return word[:len(prefix) + 3] if prefix else word[:4]


def stem_list(text: str) -> list[str]:
    return [stem_of(w) for w in re.findall(r"[a-z]{3,}", re.sub(r"(?<=[a-z])-(?=[a-z])", "", text.lower()))]


def stem_set(text: str) -> set[str]:
    return set(stem_list(text))


def content_stems(text: str) -> set[str]:
    """The stems of a text's words of four letters or more, less the comparison's stop words: what an ask
    and a sentence must share to be about the same thing."""
    return {stem_of(w) for w in re.findall(r"[a-z]{4,}", text.lower()) if w not in STOP}


def short(text: str, limit: int = 80) -> str:  # this stage quotes 80 characters
    return short_at_a_word(text, limit)


# Shared by the whole-text and part-by-part readings of a rewording (compare_reword.py, compare_pairs.py)
# and the word-by-word one (compare_logic.py).
STOP_STEMS = frozenset(stem_of(w) for w in STOP)
# Words that point at the agreement itself ("except as expressly set forth herein", "subject to the terms of
# this Agreement"): a rewording may drop such a pointer without changing what the clause excepts.
POINTERS = frozenset(stem_of(w) for w in """agreement herein hereof hereunder hereto therein thereof thereunder
provision provisions term terms condition conditions set forth expressly express otherwise permitted permit provided
section article schedule exhibit annex applicable law laws extent limited intended specifically required stated
described contemplated allowed under between party parties such those""".split())


def hung_on(text: str, t: L.Turn, own: set[str]) -> list[str]:
    """The content words a turn hangs on, party names and little words aside."""
    return [w for w in stem_list(L.said_on(text, t)) if w not in STOP_STEMS and w not in own and not w.isdigit()]


# Below this share of its words found anywhere in the draft, what an exception or a condition hangs on is
# gone, not reworded.
GONE_SHARE = 0.34


def words_gone(text: str, t: L.Turn, own: set[str], have: set[str]) -> bool:
    """Whether the content words a turn of ``text`` hangs on (party names, pointers at the agreement and
    little words aside) are gone from the draft whose stems are ``have``: two of them at least, since one word
    of its own is too few to tell ("unless directed by Company" is "if Company tells it to")."""
    hangs = [w for w in hung_on(text, t, own) if w not in POINTERS]
    return len(set(hangs)) >= 2 and sum(w in have for w in hangs) < GONE_SHARE * len(hangs)
