"""The test of a carve-out part: the draft adds an exception, in words that cover what the lawyer
named, keyed to the right party.

Apart because reading "what the carve-out covers" word by word (synonyms, stop words, a
precedent's own wording) is a vocabulary of its own that no other test shares.
"""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import binding
from index_builder.reading import polarity as P
from index_builder.reading.binding import MUTUAL
from index_builder.reading.sentences import sentence_spans

from addin_server.draft.instruction import Instruction, Part
from addin_server.draft.parts_result import Context, PartResult, short, the_named


CARVE_SYNONYMS = {"ads": ("advertis",), "ad": ("advertis",), "adverts": ("advertis",), "let": ("terminat", "dismiss", "releas"),
                   "go": (), "knew": ("known", "knew", "know"), "got": ("receiv", "obtain"), "combining": ("combin",),
                   "modifications": ("modif",), "developed": ("develop",), "independently": ("independ",),
                   "self-insurance": ("self-insur", "self insur"), "fraud": ("fraud",), "wilful": ("wilful", "willful"),
                   "willful": ("wilful", "willful"), "joining": ("join", "employ", "before"), "hold": ("hold", "own", "interest"),
                   # A lawyer's everyday word for the drafted one: "staff" for employees, "aimed at" for
                   # "directed to", "side" for party.
                   "staff": ("staff", "employ", "personnel", "worker"), "aimed": ("aim", "direct", "target"),
                   "side's": ("side", "party", "parties"), "side": ("side", "party", "parties"),
                   "sides": ("side", "party", "parties"), "targeted": ("target", "direct", "aim")}
CARVE_STOP = frozenset("""claims claim information anyone someone else other others products product that which who
already from with like does the and any all for its own such made caused arising arise also carve carve-out
exclude exception usual exclusions don't doesn't not no never won't isn't aren't""".split())
EXCEPTION_WORDS = P.negation_or_exception(nor=True, freed=True)


# Words that make added text an exception of its own (not the clause's "not" said again): what a draft
# must add before a carve-out read from the ask's words (not quoted) is left to the lawyer to judge.
_AN_EXCEPTION = P.exception(disapplied="added", save=True, nothing_in=True, permitted=True)


# Added words that keep the clause's limit for the item rather than lift it ("if the claim is due to
# fraud, the liability cap will not be exceeded"), and the words that do lift it ("shall not apply",
# "will not be capped", "excluding"). Found by a new user's "Add a carve-out for fraud", marked done.
_KEEPS_LIMIT = P.keeps_limit
_LIFTS_LIMIT = P.lifts_limit


def carve_out_part(part: Part, ins: Instruction, clause: str, draft: str, ctx: Context) -> PartResult:
    phrase = part.params.get("phrase") or ""
    if not phrase:
        named = re.search(r"\b(?:the|a|an)\s+([\w -]+?)\s+(?:carve[- ]?out|exception|exclusion)", part.text, re.I)
        phrase = named.group(1) if named else ""
    # The carve-out's words end with their sentence ("... a diversified company. Keep Passive Public
    # Holdings." asks something else) and before a pointer to where they come from ("([1])").
    phrase = re.split(r"(?<=[.;!?])\s+(?=[A-Z])", phrase)[0]
    phrase = re.split(r"\s+[-–—]+\s+(?:see|cf|as in|like|per)\b|\s*\((?:see|cf)\b", phrase, flags=re.I)[0]
    phrase = re.sub(r"\s*\(?\s*(?:\[\d+\]\s*)?\)?\s*[.;]?\s*$", "", phrase) if phrase.rstrip().endswith(("(", ")", "]")) \
        else phrase
    items = [i for i in re.split(r",\s*(?:or|and)?\s*|\s+(?:or|and)\s+", phrase) if i.strip()]
    new_text, context = added_text(clause, draft)
    if not new_text.strip():
        return PartResult(part, "not_done", "The draft adds no carve-out.")
    if not EXCEPTION_WORDS.search(context):
        return PartResult(part, "not_done", "The draft's additions do not read as an exception to your clause.")
    if _KEEPS_LIMIT.search(new_text) and not _LIFTS_LIMIT.search(new_text):
        kept = _KEEPS_LIMIT.search(new_text).group(0)
        return PartResult(part, "wrong", f"The draft's added words keep your clause's limit (“{kept}”) for what "
                                         "was to be carved out of it, rather than lifting it.")
    have = re.findall(r"[a-z][a-z-]+", new_text.lower())
    own = {w[:5] for w in re.findall(r"[a-z]{3,}", clause.lower())}
    wrong = wrong_party(part, clause, new_text, ctx) or freed_other(clause, draft, ctx, part.text) or \
        stranger_keyed(clause + " " + ins.text + " " + " ".join(ctx.parties), new_text) or owner_swapped(part.text, clause, new_text)
    if wrong:
        return PartResult(part, "wrong", wrong)
    missing = []
    source = precedent_text(part, ctx)
    readable = [i for i in items if reads_as_phrase(i)]
    if items and not readable:
        # What the carve-out covers was not read as words to look for ("we're Licensee It's Licensor
        # who shouldn't assign ...", "60 words max keep all three"): the check abstains.
        return PartResult(part, "unchecked", "What the carve-out should cover could not be read word by word; read "
                                             "the draft against it.")
    for item in readable:
        # Names ("Qwik-Fix Pro") say where, not what: the carve-out's own words are the rest.
        wanted = [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z'-]+", item) if w.lower() not in CARVE_STOP
                  and len(w) > 2 and not w[:1].isupper()]
        distinct = [w for w in wanted if w[:5] not in own]
        wanted = distinct or wanted
        if not wanted:
            continue
        hits = sum(1 for w in wanted if word_in(w, have))
        if hits / len(wanted) < 0.5:
            if source and sum(1 for w in wanted if word_in(w, re.findall(r"[a-z][a-z-]+", source.lower()))) / \
                    len(wanted) < 0.5:
                # The lawyer's name for it ("the passive-holding carve-out like (i) of [1]") is not the
                # precedent's wording either: the carve-out is there if the draft's new words are
                # the precedent's (three or more of them that the clause does not have).
                borrowed = {w[:5] for w in have if len(w) > 3} & {w[:5] for w in re.findall(r"[a-z]{4,}",
                                                                                        source.lower())} - own
                if len(borrowed) >= 3 and not _covers(part.text, item):
                    continue
                if len(borrowed) >= 3:
                    # "the carve-out for fraud from [1]" where neither [1] nor the draft says fraud: "for X"
                    # says what it covers, not a name for [1]'s exception; the draft took [1]'s words,
                    # and whether they cover X is for the lawyer to read, never "done".
                    return PartResult(part, "unchecked", f"Not checked: the draft adds the precedent's exception, "
                                                         f"which never mentions “{short(item.strip())}”; whether "
                                                         "it covers it is for you to read.")
            missing.append(item.strip())
    items = readable
    from addin_server.draft.unambiguous import reach_read
    if missing and not reach_read(part) and _AN_EXCEPTION.search(new_text):
        # An exception was added; whether it covers what was meant is read from the ask's words, not
        # from words the lawyer quoted: the lawyer reads it (never "not done" on a guess).
        return PartResult(part, "unchecked", f"Not checked: the draft adds an exception; whether it covers "
                                             f"“{short(phrase)}” is for you to read.")
    wider = _beyond_limb(part, source, clause, new_text)
    if wider:
        return PartResult(part, "wrong", wider)
    if not items or len(missing) < len([i for i in items if i.strip()]):
        if missing:
            return PartResult(part, "partly", f"The carve-out does not cover “{missing[0]}”.")
        return PartResult(part, "done", "The carve-out is added" + (f" (“{short(phrase)}”)." if phrase else "."))
    return PartResult(part, "not_done", f"The draft does not carve out “{short(phrase)}”.")


# A limb of a precedent named by its letter or numeral: "take limb (b) from [1]", "(ii) of [1]".
_LIMB = re.compile(r"\blimbs?\s+\(?([a-z]|[ivx]{1,4})\)|\(([a-z]|[ivx]{1,4})\)\s+(?:of|from|in)\s+(?:the\s+)?(?:\S+\s+){0,3}?"
                   r"(?:\[\d+\]|precedent)", re.I)


def _beyond_limb(part: Part, source: str, clause: str, new_text: str) -> str:
    """Where the ask names one limb of the precedent, the carve-out added must be that limb, not more of
    the precedent's list: words of the precedent's other limbs that the named limb, the clause and the
    ask do not have ("take limb (b) ... nothing wider" carried out with limbs (a) and (c) too)."""
    m = _LIMB.search(part.text)
    if not m or not source:
        return ""
    label = (m.group(1) or m.group(2)).lower()
    limbs = list(re.finditer(r"\(([a-z]|[ivx]{1,4})\)", source))
    at = next((i for i, x in enumerate(limbs) if x.group(1).lower() == label), None)
    if at is None:
        return ""
    end = limbs[at + 1].start() if at + 1 < len(limbs) else len(source)
    limb = source[limbs[at].end():end]
    others = " ".join(source[x.end():(limbs[i + 1].start() if i + 1 < len(limbs) else len(source))]
                      for i, x in enumerate(limbs) if i != at)
    allowed = {w[:5] for w in re.findall(r"[a-z]{4,}", (limb + " " + clause + " " + part.text).lower())}
    theirs = {w[:5] for w in re.findall(r"[a-z]{4,}", others.lower())}
    extra = [w for w in re.findall(r"[a-z]{4,}", new_text.lower()) if w[:5] not in allowed and w[:5] in theirs]
    if len(set(extra)) >= 2:
        return (f"The carve-out takes more than limb ({label}) of the precedent (“{extra[0]}”, “{extra[1]}”), "
                "which the instruction does not ask for.")
    return ""


# A statement or an aside, not the words of a carve-out: a subject and its verb ("we're Licensee",
# "It's Licensor who", "X is the model"), a limit on length ("60 words max"), a pointer ("Use limb (i)").
NOT_A_PHRASE = re.compile(r"\b(?:we['’]re|we['’]ve|it['’]s|i['’]m|you['’]re|they['’]re)(?!\w)|\b(?:is|are|was|were)\s+(?:the|a)\b|"
                           r"\b(?:use|keep|see|max|words?|limb)\b", re.I)


def _covers(ask: str, item: str) -> bool:
    """The ask says what the carve-out covers ("a carve-out for fraud", "an exception for X", "exclude X"),
    not the lawyer's name for an exception ("the passive-holding carve-out")."""
    first = re.escape(item.strip().split()[0]) if item.strip() else ""
    return bool(first) and bool(re.search(rf"\b(?:(?:carve[- ]?outs?|exceptions?|exclusions?)\s+(?:for|of)|"
                                          rf"carve\s+out|exclude|except\s+for)\s+(?:the\s+|any\s+|a\s+)?{first}",
                                          ask, re.I))


def reads_as_phrase(item: str) -> bool:
    content = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]+", item) if w.lower() not in CARVE_STOP and len(w) > 2]
    return bool(content) and len(content) <= 10 and not NOT_A_PHRASE.search(item)


def precedent_text(part: Part, ctx: Context) -> str:
    n = part.params.get("precedent")
    if n and 1 <= n <= len(ctx.precedents):
        return ctx.precedents[n - 1]
    return ""


CONDUCT = r"(?:gross\s+)?(?:negligen\w*|misconduct|fraud\w*|breach\w*|acts?|omissions?|modifications?|faults?)"


def _conduct_of(text: str, name: str) -> bool:
    """Whether ``text`` names ``name``'s conduct: "the Reseller's grossly negligent or wrongful acts", "the
    Reseller's own serious fault", "fraud by the Seller" (a word or two may qualify the conduct)."""
    n = re.escape(name)
    return bool(re.search(rf"(?<![\w-]){n}['’]s\s+(?:[\w-]+\s+){{0,2}}?{CONDUCT}\b", text, re.I) or re.search(
        rf"\b{CONDUCT}\s+(?:of|by)\s+(?:the\s+)?{n}(?![\w-])", text, re.I))


# Conduct that has a doer ("gross negligence ... of the shipper", "fraud by Bachem"); a "breach of X" names
# what is breached, not who breaches it, and "of any kind" no one.
_CONDUCT_OF = re.compile(r"\b(?:gross\s+)?(?:negligen\w*|misconduct|fraud\w*|acts?|omissions?|faults?)"
                         r"(?:\s+(?:or|and)\s+(?:[\w-]+\s+){0,2}?(?:negligen\w*|misconduct|fraud\w*|acts?|omissions?))?"
                         r"\s+(?:of|by)\s+(?:the\s+|an?\s+)?(?P<who>[A-Za-z][\w-]+)(?:\s+part(?:y|ies))?", re.I)
_NAMED_CONDUCT = re.compile(rf"\b(?P<who>[A-Z][\w-]+)['’]s\s+(?:own\s+)?(?:[\w-]+\s+){{0,2}}?{CONDUCT}\b")
_NO_ONE = frozenset("party parties its their his her such either each any other that this which whom kind nature "
                    "sort type".split())


def stranger_keyed(given: str, new_text: str) -> str:
    """A carve-out keyed to the conduct of someone neither the clause, the ask nor the document names
    ("gross negligence or willful misconduct of the shipper" in a carrier's exclusion): the lawyer asked for
    an exception for a party's own conduct, and one keyed to a stranger's leaves that party sheltered."""
    for m in list(_CONDUCT_OF.finditer(new_text)) + list(_NAMED_CONDUCT.finditer(new_text)):
        who = m.group("who")
        if who.lower() in _NO_ONE or re.search(rf"(?<![\w-]){re.escape(who)}", given, re.I):
            continue
        return (f"The carve-out is keyed to the conduct of “{m.group(0)[m.start('who') - m.start():]}” (“{short(m.group(0))}”), whom neither your clause nor "
                "your instruction names, so it does not do what was asked.")
    return ""


def _its_own(ask: str, named: Sequence[str]) -> list[str]:
    """The party "its own" conduct refers to: the one named last before it ("we shouldn't indemnify Provider
    for its own gross negligence" keys the exception to Provider, though the ask names Customer too)."""
    m = re.search(rf"\b(?:its|their)\s+own\s+(?:[\w-]+\s+){{0,2}}?{CONDUCT}", ask, re.I)
    if not m:
        return []
    before = [(x.start(), n) for n in named for x in re.finditer(rf"(?<![\w-]){re.escape(n)}(?![\w-])", ask[:m.start()])]
    return [max(before)[1]] if before else []


def owner_swapped(ask: str, clause: str, new_text: str) -> str:
    """The thing the ask names as one party's ("Excite's indemnity obligations shouldn't be capped") carved
    out as another's ("EXCEPT FOR NETGROCER'S INDEMNIFICATION OBLIGATIONS"): the exception helps the wrong
    side. Parties are the names the ask and the clause share, in any case (a clause set in capitals)."""
    names = {n for n in re.findall(r"\b[A-Z][\w-]+(?=['’]s\b)", ask) if re.search(rf"\b{re.escape(n)}\b", clause, re.I)}
    for name in names:
        for m in re.finditer(rf"\b{re.escape(name)}['’]s\s+(?:own\s+)?([a-z]{{5,}})", ask):
            root = m.group(1)[:5].lower()
            for x in re.finditer(r"\b([A-Za-z][\w-]+)['’][sS]\s+(?:own\s+|OWN\s+)?([A-Za-z]{5,})", new_text):
                other = x.group(1)
                if x.group(2)[:5].lower() == root and other.lower() != name.lower() and \
                        re.search(rf"\b{re.escape(other)}\b", clause + " " + ask, re.I) and other.lower() not in _NO_ONE:
                    return (f"The carve-out is for “{short(x.group(0))}”, but your instruction asks it for "
                            f"“{short(m.group(0))}”: it helps the wrong side.")
    return ""


def wrong_party(part: Part, clause: str, new_text: str, ctx: Context) -> str:
    """A carve-out keyed to the wrong party: "Buyer's gross negligence" where the limits shelter the
    Seller; "with whom Employer had a relationship" where the lawyer said Employee's."""
    read = binding.read(clause, ctx.parties)
    named = [n for n in read.parties if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", part.text)]
    # Of the parties the ask names, the one whose conduct or obligation the exception is about: after "where",
    # "if", "by", "of" ("where AEIS itself was grossly negligent"), or as an owner ("Excite's indemnity
    # obligations"); not the party bound ("Schoolpop shouldn't pick up the tab").
    keyed_in_ask = [n for n in named if re.search(rf"\b(?:where|if|when|unless|by|of)\s+(?:the\s+)?{re.escape(n)}(?![\w-])|"
                                                  rf"(?<![\w-]){re.escape(n)}['’]s?\s", part.text)]
    # Whose conduct the ask names decides first: "add an exception to the Company's indemnity, for the
    # Reseller's grossly negligent acts" keys it to the Reseller, though it names the Company as an owner too.
    conduct = [n for n in named if _conduct_of(part.text, n)] or _its_own(part.text, named)
    named = conduct if len(conduct) == 1 else keyed_in_ask if len(keyed_in_ask) == 1 else named
    sheltered = [p.bound for p in read.provisions if p.kind in ("protection", "prohibition") and p.bound not in ("", MUTUAL)]
    wanted = named or sheltered[:1]
    if not wanted:
        return ""
    for name in read.parties:
        keyed = binding.owned_by(new_text, name, CONDUCT) or re.search(
            rf"\bwhom\s+(?:the\s+)?{re.escape(name)}\s+(?:had|has)\b", new_text) or re.search(
            # "the gross negligence or wilful misconduct of Schoolpop", "fraud by the Seller"
            rf"\b{CONDUCT}(?:\s+(?:or|and)\s+(?:\w+\s+){{0,2}}?{CONDUCT})?\s+(?:of|by)\s+(?:the\s+)?{re.escape(name)}(?![\w-])",
            new_text, re.I)
        if keyed and name not in wanted:
            return (f"The carve-out is keyed to {the_named(name)} (“{keyed.group(0)}”), not to {the_named(wanted[0])}, so it "
                    "does not do what was asked.")
    return ""


def freed_other(clause: str, draft: str, ctx: Context, ask: str = "") -> str:
    """An exception to a restriction frees the party the restriction binds: "Green Cross shall not
    sublicense ..., except that MacroGenics may sublicense to its Affiliates" gives the exception to
    the wrong party. Where the ask itself gives the right to one party ("so that Kiromic can disclose
    where the law requires it"), that party is the one to free, read from the ask as from a clause."""
    mine = binding.read(clause, ctx.parties)
    restricted = {p.bound for p in mine.provisions if p.kind == "prohibition"} - {MUTUAL, ""}
    asked = [p for p in binding.read(ask, ctx.parties).provisions if p.kind == "right"] if ask else []
    if len({p.bound for p in asked}) == 1 and asked[0].bound not in (MUTUAL, ""):
        return _right_to_other(draft, clause, ctx, asked)
    if len(restricted) != 1:
        return ""
    from addin_server.draft.compare import compare
    regions = [r for r in compare(clause, draft).regions if r.new.strip()]
    theirs = binding.read(draft, ctx.parties)
    for q in theirs.provisions:
        if q.kind != "right" or q.bound in restricted or q.bound in (MUTUAL, ""):
            continue
        if any(r.new_start <= q.subject[0] < r.new_end for r in regions) and \
                re.search(r"\b(?:except|unless|other than|provided)\b", draft[max(q.start, q.subject[0] - 40):q.subject[0]], re.I):
            name = next(iter(restricted))
            return (f"The exception lets {the_named(q.bound)} do it, but the restriction binds {the_named(name)}: the carve-out "
                    "frees the wrong party.")
    return ""


def _right_to_other(draft: str, clause: str, ctx: Context, asked: Sequence[binding.Provision]) -> str:
    """The ask gives one party a right ("Kiromic can disclose"); the draft's exception gives the same act
    to another party only ("except that Molipharma may disclose"): the carve-out goes to the wrong party."""
    from addin_server.draft.compare import compare
    regions = [r for r in compare(clause, draft).regions if r.new.strip()]
    given = [q for q in binding.read(draft, ctx.parties).provisions if q.kind == "right"
             and any(r.new_start <= q.subject[0] < r.new_end for r in regions)
             and any(binding.similar(p, q) for p in asked)]
    who = asked[0].bound
    if given and all(q.bound not in (who, MUTUAL, "") for q in given):
        return (f"The exception lets {the_named(given[0].bound)} {given[0].verb}, but your instruction gives that to "
                f"{the_named(who)}: the carve-out goes to the wrong party.")
    return ""


def word_in(word: str, have: Sequence[str]) -> bool:
    options = CARVE_SYNONYMS.get(word, (word[:max(4, len(word) - 3)],))
    if not options:
        return True
    # "change" is in "unchanged", "transfer" in "non-transferable": the negated form says the same thing.
    bare = [re.sub(r"^(?:un|non-?)(?=[a-z]{4})", "", h) for h in have]
    return any(h.startswith(o) for o in options for h in list(have) + bare)


def added_text(clause: str, draft: str) -> tuple[str, str]:
    """What the draft adds, and the sentences it sits in."""
    from addin_server.draft.compare import compare
    regions = [r for r in compare(clause, draft).regions if r.new.strip()]
    spans = sentence_spans(draft)
    around = [draft[a:b] for a, b in spans if any(a <= r.new_start < b or a < r.new_end <= b for r in regions)]
    return " ".join(r.new for r in regions), " ".join(around)
