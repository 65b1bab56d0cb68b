"""A limit turned round in a draft: a "not" gained or lost, "lesser" -> "greater", "only" or "except" dropped."""

from __future__ import annotations

import difflib
import re
from typing import Iterable, Sequence

from index_builder.reading import polarity as P

from index_builder.reading.sentences import sentence_spans

from addin_server.draft.compare_base import content_stems
from addin_server.draft.compare_base import (EXCEPT, LIMIT_PHRASES, NEG, NON_NOUNS, ONLY, TOKEN, OPPOSITES, Allowances,
                                             Comparison, Region, words)


def token_counts(tokens: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for t in tokens:
        t = t.replace("’", "'")
        keys = []
        if t in NEG or t.endswith("n't") or re.match(r"non-?\w+(?:able|ible)$", t):
            keys.append("neg")
        if t in ONLY:
            keys.append("only")
        if t in EXCEPT:
            keys.append("except")
        for n, (left, right) in enumerate(OPPOSITES):
            if t in left:
                keys.append(f"{n}L")
            elif t in right:
                keys.append(f"{n}R")
        for k in keys:
            out[k] = out.get(k, 0) + 1
    return out


def _joined(text: str) -> str:
    return re.sub(r"\b(non|un|in|im|ir|il)-\s+(?=[a-z])", r"\1-", text, flags=re.I)


def limit_changes(c: Comparison, allow: Allowances) -> list[str]:
    # Edits that replace words: an added sentence is judged by additions(), a dropped one by _dropped().
    # Each edit is read as before, and then in its sentence, before and after: what an edit turns round
    # is a change only where its sentence turns round too ("nor shall X place" -> "shall not ... or
    # place": the "not" moved; "does not prohibit E from" -> "E may": two "not"s made a "may").
    edits = [r for r in c.regions if r.old.strip() and r.new.strip()]
    groups = [(c.clause, c.draft, [(c.clause, c.draft)])] if c.rewritten else \
        [(o, n, [(r.old, r.new) for r in rs]) for o, n, rs in _sentence_windows(c, edits)]
    out = []
    counts = [([_polarity(o, n) for o, n in pairs], _polarity(o_w, n_w), o_w, n_w, pairs) for o_w, n_w, pairs in groups]
    old_neg = sum(x for each, _, _, _, _ in counts for x, _ in each)
    new_neg = sum(y for each, _, _, _, _ in counts for _, y in each)
    # A proposition's polarity is the parity of its "not"s where two of them make a "may": "does not
    # prohibit E from hiring" (two) = "E may hire" (none); "shall not assign unless X" = "may assign only
    # if X". Two "not"s gone where no such form went are two reversals, not none.
    turned = [(each, pairs) for each, (wo, wn), o_w, n_w, pairs in counts
              if sum(x for x, _ in each) != sum(y for _, y in each) and wo != wn
              and ((wo - wn) % 2 or not _double_negative_changed(o_w, n_w)) and not _exception_as_condition(o_w, n_w)]
    if turned and not (new_neg > old_neg and (allow.exception or allow.mirror)):
        each, pairs = turned[0]
        where, now = next(((o, n) for (o, n), (x, y) in zip(pairs, each) if x != y), pairs[0])
        gained = sum(y for _, y in each) > sum(x for x, _ in each)
        if gained and _denial_asked(now, allow.asked, c.clause):
            pass  # (the instruction says that "not" itself, of the same thing: asked for, not a reversal)
        elif not c.rewritten and not allow.rewrite:  # a rewording says its negatives in other places: not counted
            said = "“other than”" if len(_OTHER_THAN.findall(where)) != len(_OTHER_THAN.findall(now)) else "a “not”"
            out.append((f"The draft adds {said}" if gained else f"The draft drops {said}")
                       + f"{_where(where)}, which reverses what it says.")
    if not c.rewritten and not allow.rewrite:
        # Each edit with the word after it: "must" -> "may" is one word, its verb is outside the edit.
        out += _modal_changes([(c.clause[max(0, r.old_start - 12):r.old_end + 25], c.draft[max(0, r.new_start - 12):r.new_end + 25])
                               for r in c.regions if r.old.strip() and r.new.strip()])
    for old_w, new_w, pairs in groups:
        a_w, b_w = token_counts(words(_limits_read(old_w))), token_counts(words(_limits_read(new_w)))
        for old, new in pairs:
            out += _turned_words(c, allow, old, new, (a_w, b_w), (old_w, new_w))
    return out


def _turned_words(c: Comparison, allow: Allowances, old: str, new: str, window: tuple[dict[str, int], dict[str, int]],
                  texts: tuple[str, str]) -> list[str]:
    """One edit's opposites and dropped limits, each a change only where its sentence shows it too."""
    if any(s <= c.clause.find(old) < e for s, e in allow.delete) and old:
        return []
    # "non- exclusive" (a line broken at its hyphen) is "non-exclusive": one word, not its opposite.
    if _joined(old) == _joined(new):
        return []
    out = []
    a, b = token_counts(words(_limits_read(old))), token_counts(words(_limits_read(new)))
    a_w, b_w = window
    # (The edit turns some word round, and its sentence turns this pair: "or less" -> "or more" is
    # "less" -> "more" in the edit, a ceiling made a floor in the sentence.)
    raw_a, raw_b = token_counts(words(_joined(_folded(old)))), token_counts(words(_joined(_folded(new))))
    edit_turns = any(_opposed(a, b, n) or _opposed(raw_a, raw_b, n) for n in range(len(OPPOSITES)))
    for n, (left, right) in enumerate(OPPOSITES):
        if not (edit_turns and _opposed(a_w, b_w, n)):
            continue
        lost_l = a_w.get(f"{n}L", 0) - b_w.get(f"{n}L", 0) > 0 and b_w.get(f"{n}R", 0) - a_w.get(f"{n}R", 0) > 0
        was = _said_as(old, left if lost_l else right) or _bound(texts[0], lost_l)
        now = _said_as(new, right if lost_l else left) or _bound(texts[1], not lost_l)
        was, now = was or " ".join(old.split()), now or " ".join(new.split())
        if now and re.search(rf"(?<![\w-]){re.escape(now.lower())}(?![\w-])", allow.asked):
            continue  # "make the BC courts exclusive": the word the instruction asks for
        out.append(f"The draft turns “{was}” into “{now}”{_where(old)}, which changes what it means.")
    for key, word in (("only", "only"), ("except", "except")):
        # "except upon notice" = "without notice"; "only if" = "unless": said another way, not dropped.
        # "unless the Order Form sets a currency" = "or in the currency the Order Form sets, if it sets
        # one": an exception said as the condition of an alternative.
        if key == "except" and (re.search(r"\bwithout\b|\bunless\b|\bonly if\b|\bhowever\b", new, re.I)
                                or _or_if(new) > _or_if(old)):
            continue
        if a.get(key, 0) > b.get(key, 0) and a_w.get(key, 0) > b_w.get(key, 0) and not allow.rewrite and \
                not _explained_delete(old, c, allow):
            out.append(f"The draft drops “{_first(words(old), ONLY if key == 'only' else EXCEPT) or word}”"
                       f"{_where(old)}, which widens what your clause allows.")
    return out


def _opposed(a: dict[str, int], b: dict[str, int], n: int) -> bool:
    """A word of one side of the n-th opposites lost and one of the other gained."""
    lost_l, got_r = a.get(f"{n}L", 0) - b.get(f"{n}L", 0), b.get(f"{n}R", 0) - a.get(f"{n}R", 0)
    lost_r, got_l = a.get(f"{n}R", 0) - b.get(f"{n}R", 0), b.get(f"{n}L", 0) - a.get(f"{n}L", 0)
    return (lost_l > 0 and got_r > 0) or (lost_r > 0 and got_l > 0)


# A duty ("must", "shall", "will") and a permission ("may"), not negated ("shall not" and "may not" both
# forbid), each read with the verb after it: "must be assigned" -> "may be assigned" turns a duty into an
# option; "shall have the right to terminate" -> "may terminate" says the same thing another way.
_MODAL = re.compile(r"\b(must|shall|will|may)\s+(?!not\b)(\w+)", re.I)


def _modal_pairs(text: str) -> tuple[dict[str, str], dict[str, str]]:
    """Verb -> the duty modal before it, and verb -> "may" before it."""
    duty: dict[str, str] = {}
    may: dict[str, str] = {}
    for m in _MODAL.finditer(text):
        (may if m.group(1).lower() == "may" else duty).setdefault(m.group(2).lower(), m.group(1))
    return duty, may


def _modal_changes(spans: Sequence[tuple[str, str]]) -> list[str]:
    for old, new in spans:
        (duty_was, may_was), (duty_now, may_now) = _modal_pairs(old), _modal_pairs(new)
        to_may = sorted((set(duty_was) - set(duty_now)) & (set(may_now) - set(may_was)))
        to_duty = sorted((set(may_was) - set(may_now)) & (set(duty_now) - set(duty_was)))
        if to_may:
            v = to_may[0]
            return [f"The draft turns “{duty_was[v]} {v}” into “{may_now[v]} {v}”{_where(old)}: what was required is "
                    "now optional."]
        if to_duty:
            v = to_duty[0]
            return [f"The draft turns “{may_was[v]} {v}” into “{duty_now[v]} {v}”{_where(old)}: what was optional is "
                    "now required."]
    return []


# A section's title in brackets names it and denies nothing: "Section 12 (No Solicitation of Company
# Personnel)".
_TITLE = re.compile(r"\((?:No|Non)\b[\s-]*[A-Z][\w'’-]*(?:\s+(?:[A-Z][\w'’-]*|of|and|the|&|to|for|or))*\)")


def _negatives(text: str) -> int:
    """"not", "no", "never", "cannot", "nobody", "non-", "prohibits ... from": a "nor" after
    a "not" ("neither ... nor", "shall not A, nor B") continues it and does not count; a limit's "not",
    a covenant's name ("non-compete") and a "not" that denies nothing ("without limitation") do not
    count (polarity.py)."""
    text = _TITLE.sub(" ", P.FAILURE_NOUN.sub(" ", P.NO_NEGATION.sub(" ", _folded(text))))
    masked = P.bounded_negation.sub(" limitx ", LIMIT_PHRASES.sub(" limitx ", NON_NOUNS.sub(" covenant ", text)))
    # (Only the "not" of a limit said across a limb goes; the words between are read.)
    masked = P.distant_bounded_negation.sub(lambda m: " limitx " + m.group(0).split(None, 1)[-1], masked)
    tokens = words(masked)
    n = token_counts(tokens).get("neg", 0) + len(_OTHER_THAN.findall(text))
    n += len(P.NEGATIVE_VERBS.findall(masked))
    first = next((i for i, t in enumerate(tokens) if t in NEG and t != "nor"), len(tokens))
    return n - sum(1 for t in tokens[first + 1:] if t == "nor")


# Opposites whose sides are each other's denial, so that a "not" before one says the other: "is not
# exclusive" = "non-exclusive", "does not include" = "excludes", "is not permitted" = "is prohibited".
# ("not before" is "on or after", no opposite of "before"; "not reasonable" is not "sole".)
_COMPLEMENT_PAIRS = [(a, b) for a, b in OPPOSITES if a & {"exclusive", "include", "permitted", "refundable"}]
_COMPLEMENTS = {**{w: sorted(b)[0] for a, b in _COMPLEMENT_PAIRS for w in a},
                **{w: sorted(a)[0] for a, b in _COMPLEMENT_PAIRS for w in b}}


def _folded(text: str) -> str:
    """A "not" before a word with a complement, read as the complement (``_COMPLEMENTS``)."""
    def fold(m: re.Match[str]) -> str:
        return _COMPLEMENTS.get(m.group(1).lower(), m.group(0))
    return re.sub(rf"{P.NOT_BEFORE.pattern}([\w-]+)", fold, text, flags=re.I)


def _limits_read(text: str) -> str:
    """The words the opposites are counted in: a ceiling and a floor each one token however said ("$1.29
    or less" = "no more than $1.29"), a "not" before a complement folded into it."""
    # A limit said around its subject first ("no more than one audit may be conducted" = "MBE may not
    # conduct more than one audit": a ceiling; "not ... fewer than" a floor), then said in a row, then
    # bare ("more than $400,000" is a floor; its words are kept: "more" -> "within" turns it too).
    text = P.bounded_negation.sub(lambda m: " floorx " if re.search(r"\b(?:less|fewer)\b", m.group(0), re.I)
                                  else " ceilingx ", _joined(_folded(text)))
    text = P.FLOOR.sub(" floorx ", P.CEILING.sub(" ceilingx ", text))
    # A bare limit with a "not" before it in its clause is turned round: "neither party's total liability
    # ... will exceed the Cap" is a ceiling however far the "neither" stands from it.
    def bare(m: re.Match[str], floor: bool) -> str:
        before = re.split(r"[.;:,]", m.string[:m.start()])[-1]
        negated = bool(re.search(rf"\b(?:{P.NOT_WORDING})\b", before, re.I))
        return f" {'floorx' if floor != negated else 'ceilingx'} {m.group(0)} "
    text = P.BARE_FLOOR.sub(lambda m: bare(m, True), text)
    return P.BARE_CEILING.sub(lambda m: bare(m, False), text)


def _sentence_windows(c: Comparison, edits: Sequence[Region]) -> list[tuple[str, str, list[Region]]]:
    """Each edit read in its sentences, in the clause and in the draft: the sentences it touches, grown
    until the draft's sentences hold the words aligned with the clause's and back (a clause sentence the
    draft splits in two is read against both). Words only added or only dropped are left out of them:
    additions() and _dropped() judge those."""
    a = [(m.start(), m.end()) for m in TOKEN.finditer(c.clause)]
    b = [(m.start(), m.end()) for m in TOKEN.finditer(c.draft)]
    a2b: dict[int, int] = {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, [c.clause[s:e].lower() for s, e in a],
                                                       [c.draft[s:e].lower() for s, e in b],
                                                       autojunk=False).get_opcodes():
        if tag == "equal":
            a2b.update({i1 + k: j1 + k for k in range(i2 - i1)})
    b2a = {j: i for i, j in a2b.items()}
    old_s, new_s = sentence_spans(c.clause), sentence_spans(c.draft)

    def touching(spans: list[tuple[int, int]], start: int, end: int) -> set[int]:
        return {n for n, (s, e) in enumerate(spans) if s < max(end, start + 1) and start < e}

    def tokens_in(tokens: list[tuple[int, int]], spans: list[tuple[int, int]], ids: set[int]) -> list[int]:
        return [k for k, (s, _) in enumerate(tokens) if any(spans[n][0] <= s < spans[n][1] for n in ids)]

    windows: list[tuple[set[int], set[int], list[Region]]] = []
    for r in edits:
        olds, news = touching(old_s, r.old_start, r.old_end), touching(new_s, r.new_start, r.new_end)
        while True:  # grow both sides until each holds the other's aligned words
            more_new = {n for k in tokens_in(a, old_s, olds) if k in a2b for n in touching(new_s, *b[a2b[k]])}
            more_old = {n for k in tokens_in(b, new_s, news) if k in b2a for n in touching(old_s, *a[b2a[k]])}
            if more_new <= news and more_old <= olds:
                break
            news, olds = news | more_new, olds | more_old
        mine = [r]
        for w in [w for w in windows if w[0] & olds or w[1] & news]:
            windows.remove(w)
            olds, news, mine = olds | w[0], news | w[1], w[2] + mine
        windows.append((olds, news, mine))
    added = [(r.new_start, r.new_end) for r in c.regions if not r.old.strip() and _own_provision(r.new)]
    dropped = [(r.old_start, r.old_end) for r in c.regions if not r.new.strip() and _own_provision(r.old)]
    return [(_text_of(c.clause, old_s, olds, dropped), _text_of(c.draft, new_s, news, added), rs)
            for olds, news, rs in windows]


def _polarity(old: str, new: str) -> tuple[int, int]:
    """The "not"s of a passage before and after. "unless" is "if not" where it takes the place of an
    "if" ("If A fails to notify" -> "Unless A notifies") and "without" is "with no" where it takes the
    place of a "with" ("with no need for" -> "without"); an "unless" or a "without" added beside a "not"
    dropped ("EFS shall not process" -> "unless approved, EFS may process") is a condition added to a
    reversal, and counts for nothing."""
    a, b = _negatives(old), _negatives(new)
    for word, partner in (("unless", "if"), ("without", "with")):
        mine, theirs = _said(word, old), _said(word, new)
        if mine != theirs and theirs - mine == _said(partner, old) - _said(partner, new):
            a, b = a + mine, b + theirs
    return a, b


def _said(word: str, text: str) -> int:
    return len(re.findall(rf"\b{word}\b", P.NO_NEGATION.sub(" ", text), re.I))


def _double_negative_changed(old: str, new: str) -> bool:
    """A form that says two "not"s as one "may" came or went: "does not prohibit E from", "may ... only
    if" (for "shall not ... unless")."""
    return len(P.NEGATIVE_VERBS.findall(old)) != len(P.NEGATIVE_VERBS.findall(new)) or \
        _said("only", old) != _said("only", new)


def _exception_as_condition(old: str, new: str) -> bool:
    """An "unless" said as the condition of an alternative: "in U.S. Dollars, unless the Order Form sets
    another currency" = "in U.S. Dollars, or in another currency if the Cover Page sets one". The
    "unless" goes and an "or ... if" comes ("does not apply unless" -> "does not apply if" is none)."""
    return _said("unless", old) > _said("unless", new) and _or_if(new) > _or_if(old)


def _or_if(text: str) -> int:
    return len(re.findall(r"\bor\b[^.;]{0,60}?\bif\b", text, re.I))


# Words only added or only dropped that state a provision of their own: a sentence, or a limb with its
# own party and modal (", and CELEBRITY shall not ..."). A phrase moved within its sentence ("without
# the consent of the other" said after the verb, not before it) is read with the sentence.
_OWN_PROVISION = re.compile(r"^\W*(?:(?:and|or|but|while|whereas)\s+)?(?:[A-Z][\w'’-]*\s+){1,4}(?:shall|will|must|may|"
                            r"agrees?|is|are)\b")


def _own_provision(text: str) -> bool:
    return bool(_OWN_PROVISION.search(text)) or bool(re.search(r"[.;]\s*$", text.strip()) and len(text.split()) >= 6)


def _text_of(text: str, spans: list[tuple[int, int]], ids: set[int], left_out: list[tuple[int, int]]) -> str:
    """The sentences ``ids`` of ``text``, less the spans left out, as one passage."""
    out = []
    for n in sorted(ids):
        s, e = spans[n]
        kept, at = [], s
        for ls, le in sorted(left_out):
            if ls < e and s < le:
                kept.append(text[at:max(at, ls)])
                at = max(at, le)
        kept.append(text[at:e])
        out.append(" ".join(kept))
    return " ".join(out)


# "in a manner other than as permitted" says "not as permitted": dropping it reverses the clause.
_OTHER_THAN = re.compile(r"\bother\s+than\b", re.I)


def _explained_by_figure(old: str, new: str, allow: Allowances) -> bool:
    return any(v.text.lower() in new.lower() for v in allow.figures) and any(
        o.text.lower() in old.lower() for o in allow.old_figures)


def _explained_delete(old: str, c: Comparison, allow: Allowances) -> bool:
    at = c.clause.find(old)
    return at >= 0 and any(s <= at < e for s, e in allow.delete)


def _said_as(text: str, side: Iterable[str]) -> str:
    """The words of ``text`` that say a side of an opposite: the word itself, or a "not" before its
    complement ("do not include" for "exclude")."""
    word = _first(words(_joined(text)), side)
    if word:
        return word
    folded = _first(words(_joined(_folded(text))), side)
    if not folded:
        return ""
    m = next((m for m in re.finditer(rf"{P.NOT_BEFORE.pattern}([\w-]+)", text, re.I)
              if _COMPLEMENTS.get(m.group(1).lower()) == folded), None)
    return m.group(0) if m else folded


def _bound(text: str, ceiling: bool) -> str:
    """The words that say a ceiling (or a floor) in ``text``, for saying what changed."""
    m = (P.CEILING if ceiling else P.FLOOR).search(text) or (P.BARE_CEILING if ceiling else P.BARE_FLOOR).search(text)
    return m.group(0) if m else ""


def _first(tokens: Sequence[str], vocabulary: Iterable[str]) -> str:
    vocab = set(vocabulary)
    return next((t for t in tokens if t in vocab), "")


def _where(old: str) -> str:
    text = " ".join(old.split())
    if not text:
        return ""
    return f" (in “{text if len(text) <= 60 else text[:60].rsplit(' ', 1)[0] + '…'}”)"


_DENIAL = re.compile(rf"\b(?:{P.NOT_WORDING}|nor|without)\b", re.I)
_LIMB = re.compile(r"[.;:!?\n]|\s[-–—]\s")


def _denial_asked(new: str, asked: str, clause: str) -> bool:
    """Whether a limb of the draft's new words that says a "not" is one the instruction says too: a limb of the
    instruction with as many "not"s, two by two, shares two of its content words that the clause does not have ("no
    single card charge above $10,000 goes through without a sign-off" asks for "no single charge above $10,000 may be
    made without approval"). What the instruction denies in its own words, a draft that denies it does not
    reverse; a "not" said in the clause's words ("which consent shall not be unreasonably withheld", beside an ask
    that consent "run to us, not to Transporter") is not the instruction's."""
    # (As many denials in each, two by two: "advertising not aimed at Covered Customers is not Soliciting" is not
    # asked by a draft's "advertising aimed at Covered Customers is not Soliciting".)
    had = content_stems(clause)
    mine = [(content_stems(x) - had, len(_DENIAL.findall(x)) % 2) for x in _LIMB.split(new) if _DENIAL.search(x)]
    theirs = [(content_stems(x), len(_DENIAL.findall(x)) % 2) for x in _LIMB.split(asked) if _DENIAL.search(x)]
    return any(len(a & b) >= 2 and n == m for a, n in mine for b, m in theirs)
