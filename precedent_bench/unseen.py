"""Texts a server has never searched: what a lawyer's selection almost always is (issue 39).

A benchmark that sends the same few hundred texts again and again measures the caches (the
vector cache, the result cache), not the search. These are drawn from the library's own
language instead, each at most once per run: runs of 6-12 words (a phrase typed or
selected), sentences, and whole clauses, from the ACORD corpus and the shared agreements.
Every text is distinct within a shape; ``repeated`` gives the old mix (a few hundred texts
drawn again and again) for the figure shown beside, labelled as such.
"""

from __future__ import annotations

import json
import logging
import random
import re
from pathlib import Path
from typing import Iterator, Sequence

log = logging.getLogger(__name__)

SHAPES = ("short", "sentence", "clause")
SHORT_WORDS = (6, 12)
SENTENCE_WORDS = (8, 60)
CLAUSE_WORDS = (40, 400)  # a whole clause as the pane sends it; ACORD's average is ~127 words
_SENTENCE_END = re.compile(r"(?<=[.;:])\s+")


def library_texts(acord_dir: Path, contracts_dir: Path | None = None) -> list[str]:
    """Clause texts of the ACORD corpus and (when given and present) the shared agreements."""
    texts = [json.loads(line)["text"] for line in
             (Path(acord_dir) / "corpus.jsonl").read_text("utf-8").splitlines() if line.strip()]
    if contracts_dir is not None and Path(contracts_dir).is_dir():
        from index_builder.errors import DocumentError
        from index_builder.ingest import read_clauses

        for path in sorted(Path(contracts_dir).rglob("*.docx")):
            try:
                texts += [c.text for c in read_clauses(path, path.stem, str(path))]
            except DocumentError as exc:
                log.warning("Skipped %s: %s", path.name, exc.message)
    return [" ".join(t.split()) for t in dict.fromkeys(texts) if t.strip()]


def unseen(library: Sequence[str], shape: str, count: int, seed: int = 39) -> list[str]:
    """``count`` distinct texts of one shape (fewer when the library runs out), in random order."""
    if shape not in SHAPES:
        raise ValueError(f"shape must be one of {SHAPES}, got {shape!r}")
    rng = random.Random(f"{seed}-{shape}")
    made: dict[str, None] = {}
    if shape == "clause":
        pool = [t for t in library if CLAUSE_WORDS[0] <= len(t.split()) <= CLAUSE_WORDS[1]]
        rng.shuffle(pool)
        return pool[:count]
    if shape == "sentence":
        pool = sorted({s for t in library for s in _SENTENCE_END.split(t)
                       if SENTENCE_WORDS[0] <= len(s.split()) <= SENTENCE_WORDS[1]})
        rng.shuffle(pool)
        return pool[:count]
    sources = [t.split() for t in library if len(t.split()) >= SHORT_WORDS[1]]
    attempts = 0
    while len(made) < count and attempts < count * 20:
        attempts += 1
        words = rng.choice(sources)
        n = rng.randint(*SHORT_WORDS)
        start = rng.randint(0, len(words) - n)
        made.setdefault(" ".join(words[start:start + n]), None)
    return list(made)


def repeated(acord_dir: Path, distinct: int = 200, seed: int = 14) -> list[str]:
    """The earlier load mix: ``distinct`` texts, half ACORD queries and half corpus clauses."""
    rng = random.Random(seed)
    queries = [json.loads(line)["text"] for line in
               (Path(acord_dir) / "queries.jsonl").read_text("utf-8").splitlines() if line.strip()]
    corpus = [json.loads(line)["text"] for line in
              (Path(acord_dir) / "corpus.jsonl").read_text("utf-8").splitlines() if line.strip()]
    half = distinct // 2
    texts = rng.sample(queries, min(half, len(queries))) + rng.sample(corpus, distinct - min(half, len(queries)))
    rng.shuffle(texts)
    return texts


def cycle(texts: Sequence[str], seed: int = 14) -> Iterator[str]:
    """Texts drawn at random forever (the repeated mix)."""
    rng = random.Random(seed)
    while True:
        yield rng.choice(texts)


def words(texts: Sequence[str]) -> float:
    """Mean words a text."""
    return sum(len(t.split()) for t in texts) / len(texts) if texts else 0.0
