"""A part's scope: which sentences, limbs and provisions it is about, and what it says to leave alone.

Apart from instruction.py because the scope is read from a part's words alone (its stems, the
ordinals it names, its "leave ... alone"), and parts_scope.py matches it against the clause.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from index_builder.reading import binding
from index_builder.reading.sentences import sentence_spans

from addin_server.draft.compare_base import content_stems  # the comparison's stems: one stemmer
from addin_server.draft.instruction_words import LEAVE, ORDINALS


@dataclass(frozen=True)
class Scope:
    """Which sentences a part is about, and which it says to leave alone."""

    keywords: tuple[str, ...] = ()  # stems the part names ("solicit", "authorit", "cap")
    sentences: tuple[int, ...] = ()  # sentence numbers from 1 (-1 = the last)
    limbs: tuple[str, ...] = ()  # list items it names: "c"
    leave: tuple[str, ...] = ()  # stems of what it says to leave alone
    leave_sentences: tuple[int, ...] = ()
    only: bool = False  # "only", "leave the rest": the part is about its target alone

    @property
    def partial(self) -> bool:
        return bool(self.sentences or self.limbs or self.leave or self.leave_sentences or self.only)


GENERIC_WORDS = frozenset("""make this it the a an mutual mutually mutualise mutualize reciprocal reciprocally bilateral
two way both ways sides side should be able to as well too also either each party parties please pls so that and
or but with of for in on at by from clause provision sentence sentences section obligation obligations right rights
same work works way run runs only just other flip switch reverse swap round instead rather than give move have has
can could would will shall must may bind binds binding apply applies equally want wants we our us they them their
its his her one who whoever keep leave alone rest touch don't not do as is are was be been being that which what
when where then there these those any all no yes change set limit cut extend require ask asks asked""".split())
SYNONYMS = {"cap": ("liabil", "limit", "exceed"), "caps": ("liabil", "limit", "exceed"), "limits": ("liabil", "limit"),
             "licence": ("licens",), "license": ("licens",), "record": ("record", "retain", "retention"),
             "books": ("record", "account", "examin", "audit"), "check": ("examin", "audit", "inspect"),
             "non-solicit": ("solicit", "hire", "recruit"), "nonsolicit": ("solicit",),
             "non-compete": ("compet",), "non-disparagement": ("disparag",), "no-challenge": ("challeng", "contest"),
             "waiver": ("waive",), "exclusion": ("exclu",), "indemnity": ("indemnif",),
             "cover": ("insur", "cover", "indemnif"), "insurance": ("insur",), "termination": ("terminat",),
             "terminate": ("terminat",), "walk": ("terminat",), "consent": ("consent", "approv"),
             "ownership": ("own",), "extension": ("exten",), "extend": ("exten",), "renewal": ("renew",),
             "authority": ("authorit", "bind"), "publicity": ("publicit", "announce"), "logo": ("logo", "trademark"),
             "run-off": ("continu", "distribut"), "audit": ("audit", "inspect", "examin"),
             "assignment": ("assign",), "record-keeping": ("record", "retain"), "sell-off": ("sale", "sell", "dispos"),
             "sell": ("sale", "sell")}


def stems(text: str) -> list[str]:
    out = []
    for word in re.findall(r"[a-z][a-z'’-]+", text.lower()):
        word = word.strip("'’-")
        if word in GENERIC_WORDS or len(word) < 3:
            continue
        pieces = [w for w in word.split("-") if len(w) >= 3 and w not in GENERIC_WORDS and w != "non"]
        out += list(SYNONYMS.get(word, ())) + [binding._stem(w) for w in pieces or [word]]
    return list(dict.fromkeys(out))


# "Section 10 (patents) stays as it is", "the subcontracting limit remains unchanged": what stays, said
# with the thing first; the same as "leave section 10 alone".
_STAYS = re.compile(r"\s(?:stays?|remains?|is\s+to\s+stay)\s+(?:as\s+(?:it|they)\s+(?:is|are)|as\s+is|unchanged|untouched|"
                    r"alone|intact|the\s+same|as\s+drafted)\b", re.I)


def _what_stays(text: str, names: Sequence[str]) -> list[str]:
    """What the part says stays, read back from "stays as it is" to the phrase's start: a stop, a dash,
    or (parts are joined without their full stops) the last capitalised word that is not a party."""
    out = []
    for m in _STAYS.finditer(text):
        before = re.split(r"[.;:,]\s|\s[-–—]\s", text[:m.start()])[-1].split()[-8:]
        starts = [i for i, w in enumerate(before) if w[:1].isupper() and not any(w.startswith(n.split()[0]) for n in names)]
        out.append(" ".join(before[starts[-1]:] if starts else before))
    return out


def scope_of(kind: str, text: str, names: Sequence[str]) -> Scope:
    if kind not in ("mutual", "flip"):
        return Scope()
    body = text
    leave_words: list[str] = []
    leave_sentences: list[int] = []
    for m in LEAVE.finditer(text):
        leave_words += stems(binding.without_names(m.group(1), names))
        leave_sentences += [n for w, n in ORDINALS.items() if re.search(rf"\b{w}\b", m.group(1), re.I)]
        body = body.replace(m.group(0), " ")
    for kept in _what_stays(body, names):
        leave_words += stems(binding.without_names(kept, names))
        leave_sentences += [n for w, n in ORDINALS.items() if re.search(rf"\b{w}\b", kept, re.I)]
        body = body.replace(kept, " ")
    body = re.sub(r"\((?:not|but not)[^)]*\)", " ", body)
    sentences = tuple(n for w, n in ORDINALS.items()
                      if re.search(rf"\b{w} (?:sentence|paragraph|limb)\b", body, re.I))
    limbs = tuple(dict.fromkeys(m.group(1).lower() for m in re.finditer(
        r"\blimb\s*\(?([a-z])\)|\(([a-z])\)\s+only", body, re.I) if m.group(1)) | {
        m.group(1).lower(): None for m in re.finditer(r"\(([a-z])\)\s+only", body, re.I)})
    keywords = tuple(w for w in stems(binding.without_names(body, names)) if w not in leave_words)
    only = bool(re.search(r"\bonly\b|\bleave the rest\b|\bnothing else\b", text, re.I)) or bool(leave_words)
    return Scope(keywords, sentences, limbs, tuple(dict.fromkeys(leave_words)), tuple(leave_sentences), only)


def pointed_sentence(text: str, clause: str) -> tuple[int, int] | None:
    """The clause's sentence an ask's words point at: the one that shares strictly more of its words
    (by stem) than any other, or None where no one sentence stands out. "Customer gets 60 days after an
    automatic payment to raise a dispute" points at the automatic-payment sentence, not the resolution
    window's; a figure of the same kind in another sentence is not the ask's."""
    spans = [(a, b) for a, b in sentence_spans(clause) if clause[a:b].strip()]
    if len(spans) < 2:
        return None
    asked = content_stems(text)
    scores = [len(asked & content_stems(clause[a:b])) for a, b in spans]
    ranked = sorted(scores, reverse=True)
    if ranked[0] < 2 or ranked[0] == ranked[1]:
        return None
    return spans[scores.index(ranked[0])]
