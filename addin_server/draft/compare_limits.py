"""A limit turned round in a draft: a "not" gained or lost, "lesser" -> "greater", "only" or "except" dropped."""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from index_builder.reading import polarity as P

from addin_server.draft.compare_base import (_EXCEPT, _LIMIT_PHRASES, _NEG, _NON_NOUNS, _ONLY, OPPOSITES, Allowances,
                                             Comparison, words)


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


def _joined(text: str) -> str:
    return re.sub(r"\b(non|un|in|im|ir|il)-\s+(?=[a-z])", r"\1-", text, flags=re.I)


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
    if not c.rewritten and not allow.rewrite:
        # Each edit with the word after it: "must" -> "may" is one word, its verb is outside the edit.
        out += _modal_changes([(c.clause[max(0, r.old_start - 12):r.old_end + 25], c.draft[max(0, r.new_start - 12):r.new_end + 25])
                               for r in c.regions if r.old.strip() and r.new.strip()])
    for old, new in spans:
        if any(s <= c.clause.find(old) < e for s, e in allow.delete) and old:
            continue
        # "non- exclusive" (a line broken at its hyphen) is "non-exclusive": one word, not its opposite.
        if _joined(old) == _joined(new):
            continue
        a, b = _counts(words(_joined(old))), _counts(words(_joined(new)))
        for n, (left, right) in enumerate(OPPOSITES):
            lost_l, got_r = a.get(f"{n}L", 0) - b.get(f"{n}L", 0), b.get(f"{n}R", 0) - a.get(f"{n}R", 0)
            lost_r, got_l = a.get(f"{n}R", 0) - b.get(f"{n}R", 0), b.get(f"{n}L", 0) - a.get(f"{n}L", 0)
            if (lost_l > 0 and got_r > 0) or (lost_r > 0 and got_l > 0):
                was = _first(words(_joined(old)), left if lost_l > 0 else right)
                now = _first(words(_joined(new)), right if lost_l > 0 else left)
                if now and re.search(rf"(?<![\w-]){re.escape(now.lower())}(?![\w-])", allow.asked):
                    continue  # "make the BC courts exclusive": the word the instruction asks for
                out.append(f"The draft turns “{was}” into “{now}”{_where(old)}, which changes what it means.")
        for key, word in (("only", "only"), ("except", "except")):
            # "except upon notice" = "without notice"; "only if" = "unless": said another way, not dropped.
            if key == "except" and re.search(r"\bwithout\b|\bunless\b|\bonly if\b|\bhowever\b", new, re.I):
                continue
            if a.get(key, 0) > b.get(key, 0) and not allow.rewrite and not _explained_delete(old, c, allow):
                out.append(f"The draft drops “{_first(words(old), _ONLY if key == 'only' else _EXCEPT) or word}”"
                           f"{_where(old)}, which widens what your clause allows.")
    return out


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


def _negatives(text: str) -> int:
    """"not", "no", "never", "cannot", "non-": "neither ... nor" counts once; a limit's "not" and a
    covenant's name ("non-compete") do not count."""
    masked = P.bounded_negation.sub(" limitx ", _LIMIT_PHRASES.sub(" limitx ", _NON_NOUNS.sub(" covenant ", text)))
    tokens = words(masked)
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
