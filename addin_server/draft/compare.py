"""What a draft changes in the lawyer's clause, read as a lawyer reads a blackline.

``compare(clause, draft)`` lines the two up word by word (difflib) and gives the changes as
regions (nearby edits read together). On that, two questions the checks ask:

* ``meaning_changes``: does a part the instruction did not touch now mean something else? A
  figure changed or dropped, a limit turned round ("lesser" -> "greater", "before" -> "after",
  "minimum" -> "maximum", a "not" gained or lost, "only" or "except" dropped), two terms or
  parties swapped, a provision that now binds another party, a provision dropped;
* ``additions``: does the draft add what nothing asked for and no cited precedent says? A new
  amount or period, a new obligation or right, a new condition or scope ("and notarized",
  "anywhere in the world").

Each finding says what changed in a lawyer's words; the caller (checks.py) knows which parts of
the instruction explain which changes and passes them in as ``Allowances``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from index_builder.reading import binding
from index_builder.reading import figures as F
from index_builder.reading.defined_terms import used_terms
from index_builder.reading.sentences import part_spans, sentence_spans

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'’-]*|\d[\d,.]*|\S")
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
)
_NEG = frozenset("not no never none nothing neither nor cannot n't fail fails failure failing".split())
# A limit is said with or without a "not" ("shall not exceed", "is limited to"): it counts as neither.
_LIMIT_PHRASES = re.compile(r"\b(?:(?:shall|will|may|must|does|do)\s+not\s+(?:be\s+)?(?:more|greater|higher)\s+than|"
                            r"(?:shall|will|may|must|does|do)\s+not\s+exceed|not\s+to\s+exceed|no\s+more\s+than|"
                            r"not\s+more\s+than|(?:is|are|be)\s+limited\s+to|capped\s+at|at\s+most|up\s+to|"
                            # A time limit said either way: "ends no later than 18 months" = "must not exceed".
                            r"(?:no|not)\s+(?:later|longer)\s+than|(?:no|not)\s+(?:fewer|less)\s+than|at\s+(?:the\s+)?latest|"
                            r"at\s+least)\b", re.I)
# Names of covenants, not negations: "the non-compete", "a non-disclosure agreement".
_NON_NOUNS = re.compile(r"\bnon-?(?:compete|competes|competition|disclosure|solicit\w*|disparag\w*|exclusive|"
                        r"public|party|parties|employee\w*)\b", re.I)
_ONLY = frozenset("only solely exclusively".split())
_EXCEPT = frozenset("except excluding unless save".split())
# Words whose arrival adds an obligation, a right, a condition or a reach the clause did not have.
SUBSTANCE = tuple("""notari certif irrevoc perpetu worldwid world anywhere territor penalt liquidat forfeit death
injur fraud negligen misconduct infring
interest guarant indemn insur audit destroy destruct surrender sole discretion absolute immediat exclusiv
sublicens transfer assign terminat suspend withhold waiv releas warrant represent fee fees charg payment pay
approv consent written writing record escrow bond deposit security collateral notice exceed unlimited
punitive consequential reduc deduct offset setoff set-off rebat refund credit""".split())
_STOP = frozenset("""the a an and or of to in on for by with as at be is are was were this that these those its it
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
    drop_ok: bool = False  # shorten or conform: a clause part may go
    words: set[str] = field(default_factory=set)  # stems the instruction itself uses
    cited_text: str = ""  # the precedents the draft cites, for what they back


def words(text: str) -> list[str]:
    return [t.lower() for t in _TOKEN.findall(text)]


def compare(clause: str, draft: str) -> Comparison:
    draft = _MARKER.sub("", draft)
    a = [(m.group(0).lower(), m.start(), m.end()) for m in _TOKEN.finditer(clause)]
    b = [(m.group(0).lower(), m.start(), m.end()) for m in _TOKEN.finditer(draft)]
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


# --- meaning ------------------------------------------------------------------------------

def meaning_changes(c: Comparison, allow: Allowances, parties: Sequence[str] = ()) -> list[str]:
    """What now means something else that the instruction did not ask to change."""
    found: list[str] = []
    found += _figure_changes(c, allow)
    found += _limit_changes(c, allow)
    found += _swaps(c, allow)
    found += _term_for_term(c, allow, parties)
    found += _role_changes(c, allow, parties)
    found += _qualifier_changes(c, allow)
    found += _polarity_changes(c, allow, parties)
    found += _left_alone(c, allow)
    found += _kept_phrases(c, allow)
    found += _dropped(c, allow)
    found += _dropped_words(c, allow)
    found += _dropped_limits(c, allow)
    return list(dict.fromkeys(found))


def _left_alone(c: Comparison, allow: Allowances) -> list[str]:
    """A part the instruction says to leave alone ("leave the first sentence alone", "keep the caps on
    Galaxy") that the draft changes."""
    for start, end in allow.left_alone:
        for r in c.regions:
            if r.old_start < end and start < r.old_end and (r.old.strip() or r.new.strip()) and \
                    _key(r.old) != _key(r.new):
                return [f"You asked to leave “{_short(c.clause[start:end], 60)}” as it is, and the draft changes it "
                        f"(“{_short(r.old, 40) or '…'}” → “{_short(r.new, 40) or '…'}”)."]
    return []


def _kept_phrases(c: Comparison, allow: Allowances) -> list[str]:
    low = c.draft.lower().replace("’", "'")
    return [f"The draft no longer says “{p}”, which your instruction names as it is." for p in allow.kept_phrases
            if p.lower().replace("’", "'") in c.clause.lower().replace("’", "'") and
            p.lower().replace("’", "'") not in low]


def _dropped_words(c: Comparison, allow: Allowances) -> list[str]:
    """In a draft that edits the clause here and there, an edit that takes out words (a limb, a condition,
    "and for one year thereafter") that the draft does not say again anywhere."""
    if c.rewritten or allow.rewrite or allow.conform:
        return []
    have = _stem_set(c.draft)
    for r in c.regions:
        if _mostly_inside(r.old_start, r.old_end, allow.delete) or not r.old.strip():
            continue
        if any(_same_figure(g, v) for g in F.figures(r.new) for v in allow.figures):
            continue  # the words that gave way to the period or amount the instruction sets
        content = [w for w in re.findall(r"[a-z]{4,}", r.old.lower()) if w not in _STOP]
        gone = [w for w in content if _stem(w) not in have]
        if len(gone) >= 5 and len(gone) >= 0.6 * len(content) and not _only_parties_text(r.old, allow.parties):
            return [f"The draft drops “{_short(r.old, 70)}” from your clause, which your instruction does not ask "
                    "for."]
    return []


def _dropped_limits(c: Comparison, allow: Allowances) -> list[str]:
    """In a rewording (shorten, plain English), a limit the clause sets with "only"/"solely" whose
    words are gone from the draft altogether: the reworded clause now allows more."""
    if not (c.rewritten or allow.rewrite) or allow.delete or allow.exception or allow.parties:
        return []
    if _counts(words(c.draft)).get("only", 0) >= _counts(words(c.clause)).get("only", 0):
        return []
    have = set(zip(draft := _stem_list(c.draft), draft[1:]))
    words_left = set(draft)
    for m in re.finditer(r"\b(?:only|solely|exclusively)\b([^,;:().]{10,100}?)(?=[,;:().]|\s+(?:and|or)\s+only\b|$)", c.clause, re.I):
        first = re.match(r"\s*(\w+)", m.group(1))
        if first and re.search(rf"\b(?:only|solely|exclusively)\s+{re.escape(first.group(1))}\b", c.draft, re.I):
            continue  # the limit is still said ("only if ...")
        said = _stem_list(m.group(1))
        pairs = list(zip(said, said[1:]))
        content = [w for w in said if w not in _STOP]
        # Gone in its wording (few of its word pairs) and in its words (a paraphrase keeps most of them).
        if len(pairs) >= 3 and sum(p in have for p in pairs) < 0.4 * len(pairs) and \
                sum(w in words_left for w in content) < 0.7 * len(content):
            return [f"The draft drops “{_short(m.group(0).strip(), 70)}”, which widens what your clause allows."]
    return []


def _mostly_inside(start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(max(0, min(end, e) - max(start, s)) >= 0.6 * max(end - start, 1) for s, e in spans)


def _only_parties_text(text: str, parties: set[str]) -> bool:
    rest = text
    for p in parties:
        rest = re.sub(re.escape(p), " ", rest, flags=re.I)
    return len(re.findall(r"[a-z]{4,}", rest.lower())) < 2


def _same_figure(a: F.Figure, b: F.Figure) -> bool:
    return a.kind == b.kind and abs(a.value - b.value) < 1e-9 and (a.unit or "") == (b.unit or "")


def _figure_changes(c: Comparison, allow: Allowances) -> list[str]:
    mine = F.figures(c.clause)
    theirs = F.figures(c.draft)
    lost = [f for f in mine if not any(_same_figure(f, g) for g in theirs)
            and not any(_same_figure(f, o) for o in allow.old_figures)
            and not any(s <= f.start < e for s, e in allow.delete)]
    new = [g for g in theirs if not any(_same_figure(g, f) for f in mine)
           and not any(_same_figure(g, v) for v in allow.figures)]
    out = []
    for f in lost:
        like = next((g for g in new if g.kind == f.kind and (g.unit or "") == (f.unit or "")), None)
        if like is not None:
            out.append(f"The draft changes “{f.text}” to “{like.text}”, which your instruction does not ask for.")
            new.remove(like)
        elif not allow.drop_ok or f.kind != "period" or allow.rewrite and not c.rewritten:
            out.append(f"The draft drops “{f.text}” from your clause, which your instruction does not ask for.")
    return out


def _counts(tokens: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for t in tokens:
        t = t.replace("’", "'")
        keys = []
        if t in _NEG or t.endswith("n't") or re.match(r"non-?\w+(?:able|ible)$", t):
            keys.append("neg")
        if t in _ONLY:
            keys.append("only")
        if t in _EXCEPT:
            keys.append("except")
        for n, (left, right) in enumerate(OPPOSITES):
            if t in left:
                keys.append(f"{n}L")
            elif t in right:
                keys.append(f"{n}R")
        for k in keys:
            out[k] = out.get(k, 0) + 1
    return out


def _limit_changes(c: Comparison, allow: Allowances) -> list[str]:
    # Edits that replace words: an added sentence is judged by additions(), a dropped one by _dropped().
    spans = [(c.clause, c.draft)] if c.rewritten else [(r.old, r.new) for r in c.regions
                                                        if r.old.strip() and r.new.strip()]
    out = []
    old_neg = sum(_negatives(o) for o, _ in spans)
    new_neg = sum(_negatives(n) for _, n in spans)
    if old_neg != new_neg and not (new_neg > old_neg and (allow.exception or allow.mirror)):
        where = next((o for o, n in spans if _negatives(o) != _negatives(n)), "")
        gained = new_neg > old_neg
        if not c.rewritten and not allow.rewrite:  # a rewording says its negatives in other places: not counted
            said = "“other than”" if len(_OTHER_THAN.findall(where)) != len(_OTHER_THAN.findall(
                next((n for o, n in spans if o == where), ""))) else "a “not”"
            out.append((f"The draft adds {said}" if gained else f"The draft drops {said}")
                       + f"{_where(where) if not c.rewritten else ''}, which reverses what it says.")
    for old, new in spans:
        if any(s <= c.clause.find(old) < e for s, e in allow.delete) and old:
            continue
        a, b = _counts(words(old)), _counts(words(new))
        for n, (left, right) in enumerate(OPPOSITES):
            lost_l, got_r = a.get(f"{n}L", 0) - b.get(f"{n}L", 0), b.get(f"{n}R", 0) - a.get(f"{n}R", 0)
            lost_r, got_l = a.get(f"{n}R", 0) - b.get(f"{n}R", 0), b.get(f"{n}L", 0) - a.get(f"{n}L", 0)
            if (lost_l > 0 and got_r > 0) or (lost_r > 0 and got_l > 0):
                was = _first(words(old), left if lost_l > 0 else right)
                now = _first(words(new), right if lost_l > 0 else left)
                out.append(f"The draft turns “{was}” into “{now}”{_where(old)}, which changes what it means.")
        for key, word in (("only", "only"), ("except", "except")):
            # "except upon notice" = "without notice"; "only if" = "unless": said another way, not dropped.
            if key == "except" and re.search(r"\bwithout\b|\bunless\b|\bonly if\b|\bhowever\b", new, re.I):
                continue
            if a.get(key, 0) > b.get(key, 0) and not allow.rewrite and not _explained_delete(old, c, allow):
                out.append(f"The draft drops “{_first(words(old), _ONLY if key == 'only' else _EXCEPT) or word}”"
                           f"{_where(old)}, which widens what your clause allows.")
    return out


def _negatives(text: str) -> int:
    """"not", "no", "never", "cannot", "non-": "neither ... nor" counts once; a limit's "not" and a
    covenant's name ("non-compete") do not count."""
    tokens = words(_NON_NOUNS.sub(" covenant ", _LIMIT_PHRASES.sub(" limitx ", text)))
    n = _counts(tokens).get("neg", 0) + len(_OTHER_THAN.findall(text))
    return n - min(tokens.count("neither"), tokens.count("nor"))


# "in a manner other than as permitted" says "not as permitted": dropping it reverses the clause.
_OTHER_THAN = re.compile(r"\bother\s+than\b", re.I)


def _explained_by_figure(old: str, new: str, allow: Allowances) -> bool:
    return any(v.text.lower() in new.lower() for v in allow.figures) and any(
        o.text.lower() in old.lower() for o in allow.old_figures)


def _explained_delete(old: str, c: Comparison, allow: Allowances) -> bool:
    at = c.clause.find(old)
    return at >= 0 and any(s <= at < e for s, e in allow.delete)


def _first(tokens: Sequence[str], vocabulary: Iterable[str]) -> str:
    vocab = set(vocabulary)
    return next((t for t in tokens if t in vocab), "")


def _where(old: str) -> str:
    text = " ".join(old.split())
    if not text:
        return ""
    return f" (in “{text if len(text) <= 60 else text[:60].rsplit(' ', 1)[0] + '…'}”)"


def _key(text: str) -> str:
    return " ".join(w for w in words(text) if w.isalnum() or "'" in w or "’" in w)


def _swaps(c: Comparison, allow: Allowances) -> list[str]:
    """Two edits that exchange the same words: durations, parties or terms swapped between places."""
    out = []
    edits = [(r, _key(r.old), _key(r.new)) for r in _raw_edits(c) if r.old.strip() and r.new.strip()]
    for i, (r1, o1, n1) in enumerate(edits):
        for r2, o2, n2 in edits[i + 1:]:
            if o1 and n1 and o1 != n1 and _contains(n2, o1) and _contains(o2, n1) and \
                    not _only_parties(o1, n1, allow.parties):
                out.append(f"The draft swaps “{r1.old.strip()}” and “{r1.new.strip()}”, so each now stands where "
                           "the other was.")
    return out


def _term_for_term(c: Comparison, allow: Allowances, parties: Sequence[str]) -> list[str]:
    """One of the clause's terms put where it had another ("the Increased Cap Amount" -> "the General
    Cap Amount"), the other gone from the draft: two things the clause told apart are now one."""
    if allow.parties or allow.delete:
        return []
    names = set(binding.party_names(c.clause, parties))
    terms = [t for t in used_terms(c.clause) if t not in names and " " in t]

    def at(term: str, text: str, start: int, end: int) -> bool:
        return any(m.start() < max(end, start + 1) and m.end() > start
                   for m in re.finditer(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text))

    for r in _raw_edits(c):
        for old in terms:
            for new in terms:
                if old != new and at(old, c.clause, r.old_start, r.old_end) and at(new, c.draft, r.new_start, r.new_end) \
                        and not at(old, c.draft, 0, len(c.draft)):
                    return [f"The draft puts “{new}” where your clause says “{old}”, which it no longer mentions: "
                            "two things your clause tells apart are now one."]
    return []


def _raw_edits(c: Comparison) -> list[Region]:
    """The word-level edits before nearby ones are read together."""
    a = [(m.group(0).lower(), m.start(), m.end()) for m in _TOKEN.finditer(c.clause)]
    b = [(m.group(0).lower(), m.start(), m.end()) for m in _TOKEN.finditer(c.draft)]
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, [t for t, _, _ in a], [t for t, _, _ in b],
                                                       autojunk=False).get_opcodes():
        if tag == "replace":
            out.append(Region(a[i1][1], a[i2 - 1][2], b[j1][1], b[j2 - 1][2], c.clause[a[i1][1]:a[i2 - 1][2]],
                              c.draft[b[j1][1]:b[j2 - 1][2]]))
    return out


def _contains(haystack: str, needle: str) -> bool:
    return bool(needle) and f" {needle} " in f" {haystack} "


def _only_parties(a: str, b: str, parties: set[str]) -> bool:
    low = {p.lower() for p in parties}
    return binding.bare_name(a) in low or binding.bare_name(b) in low


def _role_changes(c: Comparison, allow: Allowances, parties: Sequence[str]) -> list[str]:
    """A provision the instruction did not touch that now binds (or shelters) another party."""
    mine = binding.read(c.clause, parties)
    theirs = binding.read(c.draft, parties)
    targets = allow.targets
    out = []
    for p in mine.provisions:
        if p.bound in ("", binding.MUTUAL) or any(p.start == t.start and p.verb == t.verb for t in targets):
            continue
        same = [q for q in theirs.provisions if (q.verb == p.verb or binding._same_act(q.verb, p.verb)) and q.kind == p.kind]
        if p.bound in allow.renamed:
            # Renamed to the document's party: fine, unless it became the clause's other party.
            if same and all(q.bound in mine.parties and q.bound != p.bound for q in same if q.bound):
                out.append(f"The draft gives “{_verb_phrase(c.clause, p)}” to {_the(same[0].bound)}, the other party, "
                           f"not to the party that takes {_the(p.bound)}'s place.")
            continue
        if not same or any(q.bound in (p.bound, binding.MUTUAL, "") for q in same):
            continue
        other = same[0].bound
        if allow.parties and p.bound in allow.parties and not allow.targets:
            continue
        out.append(f"In a part your instruction does not touch, the draft now gives “{_verb_phrase(c.clause, p)}” "
                   f"to {_the(other)} instead of {_the(p.bound)}.")
    return out


def _qualifier_changes(c: Comparison, allow: Allowances) -> list[str]:
    """A party picked out by an event now picked out by its opposite: "the non-breaching party" ->
    "the breaching party", "the Party whose control has changed" -> "... has not changed"."""
    if allow.parties:
        return []  # a flip or a mutual draft moves rights between the parties: the parts' checks judge it
    mine, theirs = binding.party_qualifiers(c.clause), binding.party_qualifiers(c.draft)
    return [f"The draft says “{theirs[key][1]}” where your clause says “{was}”: it now means the other party."
            for key, (positive, was) in mine.items() if key in theirs and theirs[key][0] != positive]


def _polarity_changes(c: Comparison, allow: Allowances, parties: Sequence[str]) -> list[str]:
    """A promise now said the other way round: "may not assign" -> "may assign", "shall not be liable"
    -> "shall be liable", read provision by provision however the sentence is reworded."""
    mine = binding.read(c.clause, parties)
    theirs = binding.read(c.draft, parties)
    out = []
    for p in mine.provisions:
        if not p.bound or not p.verb:
            continue
        same = [q for q in theirs.provisions if (q.verb == p.verb or binding._same_act(q.verb, p.verb))
                and (q.bound == p.bound or q.mutual or p.mutual)]
        if same and all(q.negated != p.negated for q in same) and not (allow.exception and not p.negated):
            q = same[0]
            out.append(f"The draft says “{_verb_phrase(c.draft, q)}” where your clause says "
                       f"“{_verb_phrase(c.clause, p)}”: the promise now runs the other way.")
    return out


def _verb_phrase(text: str, p: binding.Provision) -> str:
    phrase = text[p.subject[0]:p.end]
    phrase = " ".join(phrase.split()[:8])
    return phrase.rstrip(",;.") + ("…" if len(text[p.subject[0]:p.end].split()) > 8 else "")


def _the(name: str) -> str:
    return name if name.isupper() or not name[:1].isupper() or " " in name else f"the {name}"


def _dropped(c: Comparison, allow: Allowances) -> list[str]:
    """A part of the clause (an obligation, a right, a qualifier) that the draft no longer has."""
    if allow.drop_ok:
        return []  # a shorter draft (or one fitted to another document) may leave a sentence out
    have = _stem_set(c.draft)
    out = []
    for start, end in part_spans(c.clause):
        if any(s <= start < e or s < end <= e for s, e in allow.delete):
            continue
        part = c.clause[start:end]
        stems = [s for s in _stem_list(part) if s not in _STOP]
        if len(stems) < 5:
            continue
        kept = sum(1 for s in stems if s in have) / len(stems)
        if kept < (0.35 if allow.rewrite else 0.5) and not allow.drop_ok:
            out.append(f"The draft drops “{_short(part)}” from your clause, which your instruction does not ask for.")
        elif kept < 0.25 and allow.drop_ok and _carries(part):
            out.append(f"The draft drops “{_short(part)}”, which says something the rest does not.")
    return out


def _carries(part: str) -> bool:
    """A part that states a promise, a right or a limit of its own."""
    return bool(re.search(r"\b(?:shall|will|must|may|not|only|except|unless)\b", part, re.I))


def _stem(word: str) -> str:
    """A word cut to its first four letters, after a plural or tense ending: "written" and "writing",
    "pays" and "pay", "signed" and "signature" agree."""
    word = word.lower().replace("-", "")
    if word.startswith(("paid", "pay")):
        return "pay"
    if word.startswith("non") and len(word) > 6:
        word = word[3:]
    for suffix in ("ings", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[:-len(suffix)]
            break
    return word[:4]


def _stem_list(text: str) -> list[str]:
    return [_stem(w) for w in re.findall(r"[a-z]{3,}", re.sub(r"(?<=[a-z])-(?=[a-z])", "", text.lower()))]


def _stem_set(text: str) -> set[str]:
    return set(_stem_list(text))


def _short(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"


# --- additions ----------------------------------------------------------------------------

def additions(c: Comparison, allow: Allowances, parties: Sequence[str] = (), cited: Sequence[str] = ()) -> list[str]:
    """What the draft adds that neither the clause, the instruction nor a cited precedent says.

    ``cited``: the sentences of the draft that cite a precedent (the support check judges them)."""
    out: list[str] = []
    mine = F.figures(c.clause)
    backed = F.figures(allow.cited_text) if allow.cited_text else []
    for g in F.figures(c.draft):
        if any(_same_figure(g, f) for f in mine) or any(_same_figure(g, v) for v in allow.figures) or \
                any(_same_figure(g, b) for b in backed) or _in_cited(c.draft, g.start, cited):
            continue
        if any(_same_figure(f, o) for o in allow.old_figures for f in mine if f.kind == g.kind):
            pass
        replaced = [f for f in mine if f.kind == g.kind and (f.unit or "") == (g.unit or "")
                    and not any(_same_figure(f, h) for h in F.figures(c.draft))]
        if replaced and not allow.figures:
            continue  # a figure changed for another: meaning_changes says so
        out.append(f"The draft adds “{g.text}”, which neither your clause, your instruction nor a cited "
                   "precedent gives.")
    out += _new_provisions(c, allow, parties, cited)
    if not allow.conform:
        out += _new_conditions(c, allow, cited)
    return list(dict.fromkeys(out))


def _in_cited(draft: str, at: int, cited: Sequence[str]) -> bool:
    return any(s and s in draft and draft.find(s) <= at < draft.find(s) + len(s) for s in cited)


def _new_provisions(c: Comparison, allow: Allowances, parties: Sequence[str], cited: Sequence[str]) -> list[str]:
    mine = binding.read(c.clause, parties)
    theirs = binding.read(c.draft, parties)
    known = set(allow.words) | _stem_set(c.clause) | _stem_set(allow.cited_text)
    out = []
    for q in theirs.provisions:
        sentence = c.draft[q.start:q.end]
        if _in_cited(c.draft, q.start, cited) or any(binding.similar(q, p) for p in mine.provisions):
            continue
        if allow.exception and re.search(r"\b(?:not|no|except|unless|exclud\w*|does not|nothing)\b", sentence, re.I):
            continue
        if any(v.text.lower() in sentence.lower() for v in allow.figures):
            continue  # the value the instruction asks for, stated as a provision of its own
        if (allow.rewrite or allow.conform) and not any(w.startswith(x) for w in re.findall(r"[a-z]{4,}", sentence.lower())
                                                        if _stem(w) not in known for x in SUBSTANCE):
            continue  # reworded (plain English, shorter): a new sentence of old promises
        verb_new = q.verb and _stem(q.verb) not in known
        novel = [w for w in _stem_list(sentence[q.subject[1] - q.start:]) if w not in known and w not in _STOP]
        if verb_new and len(novel) >= 2:
            out.append(f"The draft adds a new {_kind_word(q)}: “{_short(sentence)}”, which nothing you gave asks for "
                       "or backs.")
    return out


def _kind_word(p: binding.Provision) -> str:
    return {"obligation": "obligation", "prohibition": "restriction", "right": "right",
            "protection": "limit"}.get(p.kind, "term")


def _new_conditions(c: Comparison, allow: Allowances, cited: Sequence[str]) -> list[str]:
    known = set(allow.words) | _stem_set(c.clause) | _stem_set(allow.cited_text)
    out = []
    for r in c.regions:
        if not r.new.strip() or _in_cited(c.draft, r.new_start, cited):
            continue
        # The value the instruction asks for is the lawyer's; what comes with it is judged like any words
        # ("5 years, each certified by the Secretary": the certification is new).
        new = r.new.lower()
        for v in allow.figures:
            new = new.replace(v.text.lower(), " ")
        novel = [w for w in re.findall(r"[a-z]{3,}", re.sub(r"(?<=[a-z])-(?=[a-z])", "", new))
                 if _stem(w) not in known and w not in _STOP]
        hits = [w for w in novel if any(w.startswith(s) for s in SUBSTANCE)]
        if hits and not (allow.exception and re.search(r"\b(?:not|no|except|unless|exclud\w*)\b", r.new, re.I)):
            out.append(f"The draft adds “{_short(r.new, 70)}” (“{hits[0]}”), a condition or reach your clause does "
                       "not have and nothing you gave backs.")
    return out
