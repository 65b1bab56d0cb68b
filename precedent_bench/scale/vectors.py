"""Stand-in clause vectors for generated libraries of millions of clauses: real MiniLM
sentence vectors, recombined as the library recombines the sentences.

Embedding ten million clauses with MiniLM on two shared cores would take weeks, so the scale
benchmark cannot use real clause vectors. It can use real *sentence* vectors: every clause of
a generated library (``scale_corpus``) is a recombination of the ~11,000 distinct sentences of
the 104 agreements and ACORD, with numbers, names, roles and defined terms redrawn. So:

1. every distinct source sentence is embedded once by the real model (cached on disk);
2. a clause's stand-in vector is the token-weighted mean of its sentences' real vectors (what
   mean pooling does over a concatenation, to first order), truncated at the model's 256
   tokens as the model truncates, plus a small per-text perturbation seeded by the text (the
   redrawn numbers and names move a real vector a little), normalised;
3. a sentence of the clause is matched to its source sentence by its *skeleton*: the
   lower-case words left once every word ``scale_corpus.vary`` can redraw is taken out
   (98% of a generated library's words are matched; a heading counts as a sentence).

Why recall measured on these means something: the vectors live in the real model's space
(real ACORD queries embedded by the real model search them meaningfully), clauses that
share sentences are near each other as real clause vectors are, and the benchmark's
``calibrate`` step measures both against real MiniLM vectors of the same generated clauses
(cosine of stand-in to real, nearest-neighbour overlap, and ANN recall at equal size;
benchmarks/results/scale-compressed/README.md). ``ClusteredEmbedder`` in
precedent_bench/scale/scale_benchmark.py (random centres, isotropic noise) is the other choice; its neighbourhoods have no structure
of the text at all.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from precedent_bench import scale_corpus as sc

log = logging.getLogger(__name__)

MODEL_ID = "all-MiniLM-L6-v2~recombined-v2"  # not the real model's id: never mixed with it
DIMENSION = 384
MAX_TOKENS = 256  # what the index's embedder reads (PRECEDENT_EMBEDDING_MAX_SEQ_LENGTH)
NOISE = 0.25  # perturbation norm against a unit mean; chosen by `calibrate` (README)

# Every word ``scale_corpus.vary`` can put in or take out: company names, laws, titles, roles,
# number words, units, months, renamed defined terms. A skeleton is a sentence without them.
_VARIABLE = {w for phrase in (sc.NAME_STEMS + sc.NAME_KINDS + sc.NAME_SUFFIXES + sc.LAWS
                              + sc.DOC_TYPES + tuple(sc.ROLE_WORDS) + tuple(sc._ONES)
                              + tuple(sc._TENS[2:]) + ("hundred",)
                              + tuple(t for k, v in sc.TERM_RENAMES.items() for t in (k, *v)))
             for w in re.findall(r"[a-z]+", phrase.lower())}
_VARIABLE |= set("day days month months year years business calendar state commonwealth "
                 "january march june september november entitys".split())
_WORD = re.compile(r"[a-z]+")
_BANK_ROWS = 4096
_BANK = np.random.default_rng(20261128).standard_normal((_BANK_ROWS, DIMENSION)).astype(np.float32)
PREAMBLE = ('This Master Services Agreement is entered into by Harbor Systems LLC (the "Supplier") '
            'and Meridian Capital Ltd (the "Customer").')
# The reader keeps a section's number and run-in heading in its text: "12. Governing Law. ..."
_NUMBERED = re.compile(r"^\d+(?:\.\d+)*\.\s+([^.]{1,80}\.)\s+")
# scale_corpus.split_sentences, without its lookbehinds at every character (8x faster):
# candidate ends found first, then the abbreviations it does not split after checked there.
_END = re.compile(r"[.!?]\s+(?=[A-Z(\"“])")
_NOT_AN_END = re.compile(r"(?:\b[A-Z]\.|\bInc\.|\bNo\.|\bLtd\.|\bCo\.|\bSec\.)$")


def sentences(text: str) -> list[str]:
    """``scale_corpus.split_sentences(text)``, faster (the same pieces: tested)."""
    text = " ".join(text.split())
    out, start = [], 0
    for match in _END.finditer(text):
        end = match.start() + 1
        if _NOT_AN_END.search(text[max(0, end - 4):end]):
            continue
        out.append(text[start:end].strip())
        start = match.end()
    out.append(text[start:].strip())
    return [piece for piece in out if piece]


def skeleton(sentence: str) -> str:
    """The lower-case words of a sentence that ``scale_corpus.vary`` never changes (2.4% of
    the source sentences share a skeleton with another: near-identical wordings)."""
    return " ".join(w for w in _WORD.findall(sentence.lower()) if w not in _VARIABLE)


@dataclass
class SentenceTable:
    """The distinct source sentences and headings: real vectors, token counts, skeleton -> row."""

    sentences: list[str]
    vectors: np.ndarray  # (n, 384) float32, unit length, by the real model
    tokens: np.ndarray  # (n,) word pieces per sentence, by the real model's tokenizer
    rows: dict[str, int]

    @classmethod
    def load_or_embed(cls, sources: Sequence[sc.SourceClause], cache_dir: Path,
                      model: Callable[[], Any] | None = None) -> "SentenceTable":
        """The table for these sources. Texts not yet in ``cache_dir``'s cache are embedded by
        ``model()`` (a real Embedder) and added to it; the rest are read back."""
        headings = {f"{source.heading}." for source in sources if source.heading}
        sentences = sorted({s for source in sources for s in source.sentences} | headings
                           | {PREAMBLE})
        vectors, tokens = _cached(Path(cache_dir), sentences, model)
        rows: dict[str, int] = {}
        for row, sentence in enumerate(sentences):
            key = skeleton(sentence)
            if key:
                rows.setdefault(key, row)
        return cls(sentences, vectors, tokens, rows)


def _cached(folder: Path, texts: list[str], model: Callable[[], Any] | None
            ) -> tuple[np.ndarray, np.ndarray]:
    """Real vectors and token counts of ``texts``, through the cache in ``folder``."""
    vectors_path, texts_path = folder / "sentence-vectors.npz", folder / "sentence-texts.json"
    known: list[str] = json.loads(texts_path.read_text("utf-8")) if texts_path.is_file() else []
    saved = np.load(vectors_path) if known else None
    row = {text: i for i, text in enumerate(known)}
    missing = [t for t in texts if t not in row]
    if missing:
        if model is None:
            raise FileNotFoundError(f"{len(missing)} sentences are not in {vectors_path} and no "
                                    f"model was given to embed them")
        embedder = model()
        log.info("Embedding %d source sentences with %s (once; cached in %s)", len(missing),
                 embedder.model_id, folder)
        new = embedder.embed(missing, show_progress=True).astype(np.float32)
        counts = np.array([len(ids) for ids in _tokenizer(embedder)(missing)["input_ids"]],
                          dtype=np.int32)
        all_vectors = new if saved is None else np.concatenate([saved["vectors"], new])
        all_tokens = counts if saved is None else np.concatenate([saved["tokens"], counts])
        folder.mkdir(parents=True, exist_ok=True)
        np.savez(vectors_path, vectors=all_vectors, tokens=all_tokens)
        texts_path.write_text(json.dumps(known + missing), encoding="utf-8")
        known += missing
        row = {text: i for i, text in enumerate(known)}
        saved = {"vectors": all_vectors, "tokens": all_tokens}
    assert saved is not None
    index = np.array([row[t] for t in texts], dtype=np.int64)
    return np.asarray(saved["vectors"])[index], np.asarray(saved["tokens"])[index]


def _tokenizer(embedder: Any) -> Any:
    model = getattr(embedder, "_model", None)
    if model is not None and hasattr(model, "tokenizer"):
        return lambda texts: model.tokenizer(list(texts), add_special_tokens=False)
    raise TypeError("token counts need the sentence-transformers (torch) embedder")


class RecombinedEmbedder:
    """Stand-in for MiniLM at scale (see the module docstring); same text, same vector.

    ``known`` maps texts that are not library clauses (ACORD's query phrasings) to their real
    vectors, so queries are real model vectors searching stand-in clause vectors. A text with
    no known sentence and not in ``known`` gets the perturbation alone (counted in
    ``unmapped``), which a library build should show as ~0.
    """

    model_id = MODEL_ID
    dimension = DIMENSION

    def __init__(self, table: SentenceTable, noise: float = NOISE,
                 known: dict[str, np.ndarray] | None = None, max_tokens: int = MAX_TOKENS) -> None:
        self.table = table
        self.noise = noise
        self.known = known or {}
        self.max_tokens = max_tokens
        self.pieces = self.mapped = self.unmapped = 0
        self._rows: dict[str, int] = {}  # exact sentence -> row (-1: none): most repeat verbatim

    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        out = np.empty((len(texts), DIMENSION), dtype=np.float32)
        for i, text in enumerate(texts):
            out[i] = self.vector(text)
        return out

    def vector(self, text: str) -> np.ndarray:
        known = self.known.get(text)
        if known is not None:
            return known
        budget = self.max_tokens - 2  # [CLS] and [SEP]
        numbered = _NUMBERED.match(text)
        pieces = sentences(text) if numbered is None else \
            [numbered.group(1)] + sentences(text[numbered.end():])
        rows, weights = [], []
        for piece in pieces:
            if budget <= 0:
                break
            row = self._row(piece)
            self.pieces += 1
            if row < 0:
                continue
            self.mapped += 1
            weight = min(int(self.table.tokens[row]), budget)
            budget -= weight
            rows.append(row)
            weights.append(weight)
        total = np.asarray(weights, dtype=np.float32) @ self.table.vectors[rows] if rows \
            else np.zeros(DIMENSION, dtype=np.float32)
        norm = float(np.linalg.norm(total))
        if norm == 0.0:
            self.unmapped += 1
        else:
            total /= norm
        # The perturbation: two rows of a fixed Gaussian bank picked by the text's digest
        # (16M combinations; a generator per text cost more than the rest of this function).
        digest = hashlib.sha256(text.encode("utf-8")).digest()
        first, second = (int.from_bytes(digest[i:i + 4], "little") % _BANK_ROWS for i in (0, 4))
        perturbation = (_BANK[first] + _BANK[second]) / np.sqrt(2 * DIMENSION)
        # A text no sentence of which is known is its perturbation alone, at full length.
        total = total + (self.noise if norm else 1.0) * perturbation
        return total / np.linalg.norm(total)

    def _row(self, piece: str) -> int:
        row = self._rows.get(piece)
        if row is None:
            row = self.table.rows.get(skeleton(piece), -1)
            if len(self._rows) > 2_000_000:  # bounded: a 10M library repeats most sentences
                self._rows.clear()
            self._rows[piece] = row
        return row

    def counts(self) -> dict[str, Any]:
        """How many sentence pieces found their source sentence (the rest weigh nothing)."""
        return {"pieces": self.pieces, "mapped": self.mapped, "unmapped_texts": self.unmapped,
                "mapped_share": round(self.mapped / self.pieces, 4) if self.pieces else None}


def real_embedder(max_tokens: int = MAX_TOKENS) -> Any:
    """The real model the stand-ins come from (torch, as the index's default embedder)."""
    from index_builder.index import load_embedder
    from index_builder.settings import EmbeddingSettings

    return load_embedder(EmbeddingSettings(max_seq_length=max_tokens))


def save_known(path: Path, texts: Sequence[str], vectors: np.ndarray) -> None:
    """Real vectors of non-library texts (queries), beside the sentence table."""
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path.with_suffix(".npy"), vectors.astype(np.float32), allow_pickle=False)
    path.with_suffix(".json").write_text(json.dumps(list(texts)), encoding="utf-8")


def load_known(path: Path) -> dict[str, np.ndarray]:
    if not path.with_suffix(".json").is_file():
        return {}
    texts = json.loads(path.with_suffix(".json").read_text("utf-8"))
    vectors = np.load(path.with_suffix(".npy"))
    return dict(zip(texts, vectors))
