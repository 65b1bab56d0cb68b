"""A generated library of any size, served to the index builder as a DMS serves one.

A 10M-clause library as Markdown files would take ~8 GB of disk beside its index; here each
document is generated (``scale_corpus.Generator``, deterministic per document) only when the
build fetches it into a temporary file, read by the real Markdown reader and deleted, as the
builder reads a SharePoint or iManage document (``SourceDocument.fetch``). Nothing else is
special: labels, terms, walls, BM25, vectors and the version write are the real build's.

Walls, as a DMS's permissions would give them: documents fall into matters of 500 documents
(the generator's folders); one matter in five is walled to its own group
(``matter-<n>``), and one open document in twenty is denied to ``conflict-<n mod 7>``.
"""

from __future__ import annotations

import functools
import json
import logging
import pickle
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from index_builder.index.documents import SourceDocument
from index_builder.index.backend import Condition, Filters
from index_builder.ingest.policy import Access
from precedent_bench import scale_corpus as sc
from precedent_bench.scale import vectors as sv

log = logging.getLogger(__name__)

WALLED_EVERY = 5  # one matter in five is walled
DENIED_EVERY = 20  # one open document in twenty is denied to a conflict group
CONFLICTS = 7


def load_sources(contracts: Path, acord: Path, cache: Path) -> list[sc.SourceClause]:
    """The source clauses (reading the 104 agreements takes ~10 s: cached)."""
    if cache.is_file():
        return pickle.loads(cache.read_bytes())
    sources = sc.load_sources(contracts, acord)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(pickle.dumps(sources))
    return sources


def matter(number: int) -> int:
    return number // sc.DOCS_PER_FOLDER


def access(number: int) -> Access:
    """Who may see document ``number`` (see the module docstring)."""
    m = matter(number)
    if m % WALLED_EVERY == WALLED_EVERY - 1:
        return Access((f"matter-{m}",), (), "generated")
    if number % DENIED_EVERY == 0:
        return Access(("*",), (f"conflict-{number % CONFLICTS}",), "generated")
    return Access(("*",), (), "generated")


@dataclass
class GeneratedLibrary:
    """``clauses`` numbered clauses (plus a preamble per document) in documents of 20-60."""

    generator: sc.Generator
    clauses: int
    revision: dict[int, int] = field(default_factory=dict)  # document -> revision (rebuilds)

    def __post_init__(self) -> None:
        self.sizes = sc.document_sizes(self.clauses, self.generator.seed)
        self.name = f"generated library ({self.clauses:,} clauses)"

    def doc_id(self, number: int) -> str:
        return f"part-{matter(number):04d}/doc-{number:07d}"

    def markdown(self, number: int) -> str:
        return self.generator.document(number, self.sizes[number],
                                       self.revision.get(number, 0)).markdown()

    def documents(self, report: Any = None) -> list[SourceDocument]:
        out = []
        for number in range(len(self.sizes)):
            doc_id = self.doc_id(number)
            walls = access(number)
            out.append(SourceDocument(
                doc_id, Path(f"{doc_id}.md"), "file", f"{doc_id}.md",
                version=f"{self.generator.seed}.{self.revision.get(number, 0)}", access=walls,
                access_key=json.dumps([walls.allowed, walls.denied]),
                fetch=functools.partial(_fetch, self, number)))
        return out


def _fetch(library: GeneratedLibrary, number: int, local: Path) -> None:
    """A document "downloaded": generated into the builder's temporary file. A module-level
    function, not a closure, so a build over worker processes can send it to them."""
    local.write_text(library.markdown(number), "utf-8")


# -- users and filters ------------------------------------------------------------------------
def user_walls(matters: Sequence[int], conflict: int | None = None) -> Filters:
    """The wall filters of a user in these matters (and conflict group), as the server makes
    them (addin_server/web/auth.py ``access_filters``: allowed to one of theirs, denied none)."""
    mine = {"*"} | {f"matter-{m}" for m in matters}
    if conflict is not None:
        mine.add(f"conflict-{conflict}")
    groups = tuple(sorted(mine))
    return (Condition("access_groups", groups), Condition("denied_groups", groups, negate=True))


def filter_cases(library: GeneratedLibrary, seed: int = 4) -> dict[str, Filters]:
    """Filter sets from wide to narrow: none, a walled user, the user with a facet filter,
    the user within one walled matter of theirs, and one document."""
    rng = random.Random(seed)
    matters = max(1, len(library.sizes) // sc.DOCS_PER_FOLDER)
    walled = [m for m in range(matters) if m % WALLED_EVERY == WALLED_EVERY - 1] or [0]
    mine = sorted(rng.sample(walled, min(2, len(walled))))
    walls = user_walls(mine, conflict=3)
    groups = set(walls[0].values)

    def readable(number: int) -> bool:
        allowed, denied = access(number).allowed, access(number).denied
        return bool(groups & set(allowed)) and not groups & set(denied)

    # A document this user may read: one behind another matter's wall lets nothing through, a
    # right answer but no recall to measure (the 10M run drew such a document: 0 allowed).
    draws = (rng.randrange(len(library.sizes)) for _ in range(1000))
    document = library.doc_id(next((n for n in draws if readable(n)), 0))
    return {
        "none": (),
        "walls": walls,
        "walls+role": walls + (Condition("party_roles", ("Licensor",)),),
        "walls+matter": walls + (Condition("access_groups", (f"matter-{mine[0]}",)),),
        "walls+document": walls + (Condition("doc_id", (document,)),),
    }


# -- queries ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Query:
    kind: str  # "library clause", "new clause", "acord phrase"
    text: str


def queries(library: GeneratedLibrary, acord: Path, count: int, seed: int = 11) -> list[Query]:
    """A third each: clauses of the library (a lawyer selects a clause the firm has), clauses
    drawn from the same sources but not in the library (their own draft), and ACORD's query
    phrasings (short requests, embedded by the real model)."""
    rng = random.Random(seed)
    per = count // 3
    out: list[Query] = []
    for _ in range(per):
        number = rng.randrange(len(library.sizes))
        text = rng.choice(library.generator.document(number, library.sizes[number],
                                                     library.revision.get(number, 0)).clauses)[1]
        out.append(Query("library clause", text))
    other = sc.Generator(library.generator.sources, library.generator.seed + 1000)
    for number in range(count - 2 * per):
        out.append(Query("new clause", rng.choice(other.document(number, 20).clauses)[1]))
    phrases = [json.loads(line)["text"] for line in open(acord / "queries.jsonl", encoding="utf-8")]
    out += [Query("acord phrase", t) for t in rng.sample(phrases, min(per, len(phrases)))]
    return out


def strip_number(text: str) -> str:
    return re.sub(r"^\d+\. \*\*[^*]+\*\* ", "", text)


# -- the stand-in embedder --------------------------------------------------------------------
def embedder(work: Path, sources: Sequence[sc.SourceClause], acord: Path,
             noise: float = sv.NOISE) -> sv.RecombinedEmbedder:
    """The stand-in embedder: real sentence vectors (embedded once), ACORD's query phrasings
    with their real vectors."""
    table = sv.SentenceTable.load_or_embed(sources, work, sv.real_embedder)
    known_path = work / "acord-queries"
    known = sv.load_known(known_path)
    if not known:
        phrases = [json.loads(line)["text"] for line in open(acord / "queries.jsonl", encoding="utf-8")]
        sv.save_known(known_path, phrases, sv.real_embedder().embed(phrases))
        known = sv.load_known(known_path)
    return sv.RecombinedEmbedder(table, noise, known)


def unit(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
