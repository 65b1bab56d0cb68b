"""Does a part the instruction did not touch now mean something else? (compare.py: ``meaning_changes``.)
Figures changed or dropped, parts kept or dropped; limits and negatives in compare_limits.py, who a
provision binds in compare_roles.py."""

from __future__ import annotations

import re
from typing import Sequence

from index_builder.reading import figures as F
from index_builder.reading import logic as L
from index_builder.reading import polarity as P
from index_builder.reading.sentences import part_spans

from addin_server.draft.compare_base import (STOP, Allowances, Comparison, key_of, same_figure, short, stem_of,
                                             stem_list, stem_set, words)
from addin_server.draft.compare_limits import token_counts, limit_changes
from addin_server.draft.compare_roles import (polarity_changes, qualifier_changes, role_changes, swaps,
                                              term_for_term)


def meaning_changes(c: Comparison, allow: Allowances, parties: Sequence[str] = ()) -> list[str]:
    """What now means something else that the instruction did not ask to change."""
    found: list[str] = []
    found += _figure_changes(c, allow)
    found += limit_changes(c, allow)
    found += swaps(c, allow)
    found += term_for_term(c, allow, parties)
    found += role_changes(c, allow, parties)
    found += qualifier_changes(c, allow)
    found += polarity_changes(c, allow, parties)
    found += _precedence_turned(c, allow)
    found += _left_alone(c, allow)
    found += _kept_phrases(c, allow)
    found += _dropped(c, allow)
    found += _dropped_words(c, allow)
    found += _dropped_limits(c, allow)
    return list(dict.fromkeys(found))


def _precedence_turned(c: Comparison, allow: Allowances) -> list[str]:
    """An order of precedence turned round, however reworded or renamed: the clause's loser now controls
    over something ("the Cover Page will control over the NDA Terms" -> "the NDA Terms control over any
    inconsistent Cover Page"), unless the instruction speaks of which one wins."""
    out = []
    for winner, loser in L.precedence(c.clause):
        for now_winner, now_loser in L.precedence(c.draft):
            # ("... so that the Cover Page prevails": the instruction asks for that winner.)
            asked = re.search(rf"{re.escape(now_winner.lower())}[^.;]{{0,40}}{L.PRECEDENCE_VERB}", allow.asked)
            if now_winner.lower() == loser.lower() and now_loser.lower() != loser.lower() and not asked:
                over = f" over “{now_loser}”" if now_loser else ""
                out.append(f"The draft has “{now_winner}” control{over}, where your clause has "
                           f"“{winner}” control over “{loser}”: the order of precedence is turned round.")
    return out[:1]


def _left_alone(c: Comparison, allow: Allowances) -> list[str]:
    """A part the instruction says to leave alone ("leave the first sentence alone", "keep the caps on
    Galaxy") that the draft changes."""
    for start, end in allow.left_alone:
        for r in c.regions:
            if r.old_start < end and start < r.old_end and (r.old.strip() or r.new.strip()) and \
                    key_of(r.old) != key_of(r.new):
                return [f"You asked to leave “{short(c.clause[start:end], 60)}” as it is, and the draft changes it "
                        f"(“{short(r.old, 40) or '…'}” → “{short(r.new, 40) or '…'}”)."]
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
    have = stem_set(c.draft)
    for r in c.regions:
        if _mostly_inside(r.old_start, r.old_end, allow.delete) or not r.old.strip():
            continue
        if any(same_figure(g, v) for g in F.figures(r.new) for v in allow.figures):
            continue  # the words that gave way to the period or amount the instruction sets
        content = [w for w in re.findall(r"[a-z]{4,}", r.old.lower()) if w not in STOP]
        gone = [w for w in content if stem_of(w) not in have]
        if len(gone) >= 5 and len(gone) >= 0.6 * len(content) and not _only_parties_text(r.old, allow.parties):
            return [f"The draft drops “{short(r.old, 70)}” from your clause, which your instruction does not ask "
                    "for."]
    return []


def _dropped_limits(c: Comparison, allow: Allowances) -> list[str]:
    """In a rewording (shorten, plain English), a limit the clause sets with "only"/"solely" whose
    words are gone from the draft altogether: the reworded clause now allows more."""
    if not (c.rewritten or allow.rewrite) or allow.delete or allow.exception or allow.parties:
        return []
    if token_counts(words(c.draft)).get("only", 0) >= token_counts(words(c.clause)).get("only", 0):
        return []
    have = set(zip(draft := stem_list(c.draft), draft[1:]))
    words_left = set(draft)
    for m in re.finditer(r"\b(?:only|solely|exclusively)\b([^,;:().]{10,100}?)(?=[,;:().]|\s+(?:and|or)\s+only\b|$)", c.clause, re.I):
        first = re.match(r"\s*(\w+)", m.group(1))
        if first and re.search(rf"\b(?:only|solely|exclusively)\s+{re.escape(first.group(1))}\b", c.draft, re.I):
            continue  # the limit is still said ("only if ...")
        said = stem_list(m.group(1))
        pairs = list(zip(said, said[1:]))
        content = [w for w in said if w not in STOP]
        # Gone in its wording (few of its word pairs) and in its words (a paraphrase keeps most of them).
        if len(pairs) >= 3 and sum(p in have for p in pairs) < 0.4 * len(pairs) and \
                sum(w in words_left for w in content) < 0.7 * len(content):
            return [f"The draft drops “{short(m.group(0).strip(), 70)}”, which widens what your clause allows."]
    return []


def _mostly_inside(start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(max(0, min(end, e) - max(start, s)) >= 0.6 * max(end - start, 1) for s, e in spans)


def _only_parties_text(text: str, parties: set[str]) -> bool:
    rest = text
    for p in parties:
        rest = re.sub(re.escape(p), " ", rest, flags=re.I)
    return len(re.findall(r"[a-z]{4,}", rest.lower())) < 2


def _figure_changes(c: Comparison, allow: Allowances) -> list[str]:
    mine = F.figures(c.clause)
    theirs = F.figures(c.draft)
    lost = [f for f in mine if not any(same_figure(f, g) for g in theirs)
            and not any(same_figure(f, o) for o in allow.old_figures)
            and not any(s <= f.start < e for s, e in allow.delete)]
    new = [g for g in theirs if not any(same_figure(g, f) for f in mine)
           and not any(same_figure(g, v) for v in allow.figures)]
    out = []
    for f in lost:
        like = next((g for g in new if g.kind == f.kind and (g.unit or "") == (f.unit or "")), None)
        if like is not None:
            out.append(f"The draft changes “{f.text}” to “{like.text}”, which your instruction does not ask for.")
            new.remove(like)
        elif not allow.drop_ok or f.kind != "period" or allow.rewrite and not c.rewritten:
            out.append(f"The draft drops “{f.text}” from your clause, which your instruction does not ask for.")
    return out


def _dropped(c: Comparison, allow: Allowances) -> list[str]:
    """A part of the clause (an obligation, a right, a qualifier) that the draft no longer has."""
    if allow.drop_ok:
        return []  # a shorter draft (or one fitted to another document) may leave a sentence out
    have = stem_set(c.draft)
    out = []
    for start, end in part_spans(c.clause):
        if any(s <= start < e or s < end <= e for s, e in allow.delete):
            continue
        part = c.clause[start:end]
        stems = [s for s in stem_list(part) if s not in STOP]
        if len(stems) < 5:
            continue
        kept = sum(1 for s in stems if s in have) / len(stems)
        if kept < (0.35 if allow.rewrite else 0.5) and not allow.drop_ok:
            out.append(f"The draft drops “{short(part)}” from your clause, which your instruction does not ask for.")
        elif kept < 0.25 and allow.drop_ok and _carries(part):
            out.append(f"The draft drops “{short(part)}”, which says something the rest does not.")
    return out


def _carries(part: str) -> bool:
    """A part that states a promise, a right or a limit of its own."""
    return bool(P.turning_word.search(part))
