"""Distil the six-layer embedding model into a three-layer student, for the throughput benchmark.

Usage (from the repo root; 34 minutes on two cores for ACORD and the shared agreements):
    nice -n 19 precedent-bench embedding-distill ../shared/data/acord ../shared/data/contracts \
        --out var/models/minilm-l3-student
then time and score it beside the plain loop:
    precedent-bench embedding-throughput --backends torch,onnx-int8:threads=2:batch=16:model=var/models/minilm-l3-student

Why (issue 29): without truncating clauses an embedding costs what the model's layers cost, and
these CPUs have no fast int8 path (no VNNI), so half the layers was the one lever left towards
3x the plain loop. It was measured, not adopted: the student reaches 3x only with int8 ONNX and
then loses up to 2 NDCG@5 on some query shapes (benchmarks/results/embedding-throughput).

What it learns from: only text, never a query or a judgment: the library's clauses, their
sentences, and short spans of two to twelve words (so short queries land where the teacher puts
them), each with the teacher's vector as the target.

How, in two phases (both keep the teacher's embeddings frozen, so only the layers are new):

1. spread: batches of similar length drawn at random; loss = (1 - cosine to the teacher) plus
   the squared difference of the batch's similarity matrices, which keeps unrelated texts
   apart as the teacher does;
2. neighbours: each batch is two texts and seven of the teacher's nearest neighbours of each,
   with a listwise term (the teacher's softmax over a row's similarities at temperature 0.05)
   that teaches the order among near neighbours, which is what clause-as-query search needs.
"""


from __future__ import annotations

import argparse
import json
import logging
import random
import re
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np

from index_builder.errors import DocumentError

from precedent_bench.catalogue import subparser

log = logging.getLogger("benchmark.distill")


@dataclass(frozen=True)
class Recipe:
    keep_layers: tuple[int, ...] = (0, 3, 5)  # the teacher's layers the student starts from
    max_seq_length: int = 256
    spread_epochs: int = 1
    spread_lr: float = 1e-4
    neighbour_epochs: int = 1
    neighbour_lr: float = 5e-5
    neighbour_share: float = 1 / 16  # anchors per neighbour epoch, as a share of all texts
    neighbours: int = 7
    batch_size: int = 32
    max_sentences: int = 8000
    max_spans: int = 6000
    seed: int = 0


def training_texts(library: Sequence[str], recipe: Recipe) -> list[str]:
    """The library's texts, their sentences, and short spans: what the student is taught on."""
    rng = random.Random(recipe.seed)
    texts = list(dict.fromkeys(t.strip() for t in library if t.strip()))
    known = set(texts)
    sentences = sorted({s for t in texts for s in re.split(r"(?<=[.;:])\s+", t)
                        if len(s.split()) >= 4} - known)
    rng.shuffle(sentences)
    spans = []
    for text in rng.sample(texts, min(recipe.max_spans, len(texts))):
        words = text.split()
        if len(words) >= 3:
            n = rng.randint(2, 12)
            start = rng.randint(0, max(0, len(words) - n))
            spans.append(" ".join(words[start:start + n]))
    return texts + sentences[: recipe.max_sentences] + spans


def distil(teacher_folder: Path, texts: Sequence[str], recipe: Recipe, out: Path,
           teacher_vectors: np.ndarray | None = None) -> dict[str, float]:
    """Train the student and write its model folder to ``out``; returns the last losses."""
    import torch
    from sentence_transformers import SentenceTransformer

    torch.manual_seed(recipe.seed)
    rng = random.Random(recipe.seed)
    if teacher_vectors is None:  # the teacher is loaded only when its vectors are not given
        teacher = SentenceTransformer(str(teacher_folder), device="cpu")
        teacher.max_seq_length = recipe.max_seq_length
        began = time.perf_counter()
        teacher_vectors = teacher.encode(list(texts), batch_size=32, normalize_embeddings=True)
        log.info("Teacher vectors of %d texts in %.0f s", len(texts), time.perf_counter() - began)
    targets = torch.tensor(np.asarray(teacher_vectors), dtype=torch.float32)

    student = SentenceTransformer(str(teacher_folder), device="cpu")
    student.max_seq_length = recipe.max_seq_length
    encoder = student[0].auto_model.encoder
    encoder.layer = torch.nn.ModuleList([encoder.layer[i] for i in recipe.keep_layers])
    student[0].auto_model.config.num_hidden_layers = len(recipe.keep_layers)
    for parameter in student[0].auto_model.embeddings.parameters():
        parameter.requires_grad_(False)  # the teacher's: only the layers are new
    lengths = [len(ids) for ids in student.tokenizer(list(texts), truncation=True,
                                                       max_length=recipe.max_seq_length)["input_ids"]]
    losses = {}
    spread = [_length_batches(lengths, recipe.batch_size, rng) for _ in range(recipe.spread_epochs)]
    losses["spread"] = _train(student, texts, targets, [b for e in spread for b in e],
                              recipe.spread_lr, listwise=False)
    neighbours = _neighbours(targets.numpy(), recipe.neighbours * 2)
    batches = [b for _ in range(recipe.neighbour_epochs)
               for b in _neighbour_batches(neighbours, recipe, rng)]
    losses["neighbours"] = _train(student, texts, targets, batches, recipe.neighbour_lr, listwise=True)
    student.save(str(out))
    return losses


def _train(student, texts: Sequence[str], targets, batches: list[list[int]], lr: float,
           listwise: bool) -> float:  # type: ignore[no-untyped-def]
    import torch
    import torch.nn.functional as F

    if not batches:
        return 0.0
    trainable = [p for p in student.parameters() if p.requires_grad]
    optimiser = torch.optim.AdamW(trainable, lr=lr, weight_decay=0.01)
    steps = len(batches)
    schedule = torch.optim.lr_scheduler.LambdaLR(  # 100 steps of warm-up, then linear decay
        optimiser, lambda s: min(1.0, (s + 1) / 100) * max(0.0, 1 - s / steps))
    student.train()
    recent: list[float] = []
    began = time.perf_counter()
    for step, batch in enumerate(batches, 1):
        features = student.tokenize([texts[i] for i in batch])
        vectors = F.normalize(student(features)["sentence_embedding"], dim=1)
        target = targets[batch]
        sims, target_sims = vectors @ vectors.T, target @ target.T
        loss = (1 - (vectors * target).sum(1)).mean() + 10 * ((sims - target_sims) ** 2).mean()
        if listwise:
            eye = torch.eye(len(batch), dtype=torch.bool)
            loss = loss + 0.1 * F.kl_div(
                torch.log_softmax(sims.masked_fill(eye, -1e4) / 0.05, 1),
                torch.softmax(target_sims.masked_fill(eye, -1e4) / 0.05, 1), reduction="batchmean")
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        recent = (recent + [loss.item()])[-100:]
        if step % 100 == 0 or step == steps:
            log.info("%s step %d/%d: loss %.4f (%.0f s)", "neighbours" if listwise else "spread",
                     step, steps, sum(recent) / len(recent), time.perf_counter() - began)
    student.eval()
    return round(sum(recent) / max(1, len(recent)), 5)


def _length_batches(lengths: Sequence[int], size: int, rng: random.Random) -> list[list[int]]:
    """Batches of texts of similar length (little padding), in random order."""
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], rng.random()))
    batches = [order[i:i + size] for i in range(0, len(order), size)]
    rng.shuffle(batches)
    return batches


def _neighbours(vectors: np.ndarray, k: int) -> np.ndarray:
    """Each text's k nearest other texts by the teacher's cosine."""
    found = np.zeros((len(vectors), k), dtype=np.int64)
    for start in range(0, len(vectors), 2048):
        sims = vectors[start:start + 2048] @ vectors.T
        rows = np.arange(sims.shape[0])
        sims[rows, start + rows] = -9.0
        found[start:start + 2048] = np.argpartition(-sims, k, axis=1)[:, :k]
    return found


def _neighbour_batches(neighbours: np.ndarray, recipe: Recipe, rng: random.Random
                       ) -> Iterator[list[int]]:
    """Two anchors per batch, each with ``recipe.neighbours`` of its nearest texts."""
    anchors = list(range(len(neighbours)))
    rng.shuffle(anchors)
    anchors = anchors[: max(2, int(len(anchors) * recipe.neighbour_share))]
    for i in range(0, len(anchors) - 1, 2):
        batch: list[int] = []
        for anchor in anchors[i:i + 2]:
            batch.append(anchor)
            batch += [int(x) for x in rng.sample(list(neighbours[anchor]), recipe.neighbours)]
        yield list(dict.fromkeys(batch))


def library_texts(sources: Sequence[Path]) -> list[str]:
    """Every clause text the build would index from these sources (BEIR folders, contracts);
    a document that cannot be read is skipped with a warning, as the build skips it."""
    from index_builder.index.documents import _read_contract, discover, read_beir_corpus

    texts: list[str] = []
    for document in discover(sources):
        try:
            if document.kind == "beir":
                clauses = read_beir_corpus(document.path, document.doc_id)
            else:
                clauses = _read_contract(document.path, document.doc_id, document.relative)
        except DocumentError as exc:
            log.warning("Skipped %s: %s", document.doc_id, exc.message)
            continue
        texts += [clause.text for clause in clauses]
    return texts


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("sources", nargs="+", type=Path, help="BEIR folders and contract folders")
    parser.add_argument("--out", type=Path, required=True, help="the student's model folder")
    parser.add_argument("--teacher", default="all-MiniLM-L6-v2")
    parser.add_argument("--epochs", type=int, nargs=2, default=(1, 1), metavar=("SPREAD", "NEIGHBOURS"))


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from index_builder.index.embedder import resolve_model_path

    recipe = Recipe(spread_epochs=args.epochs[0], neighbour_epochs=args.epochs[1])
    library = library_texts(args.sources)
    texts = training_texts(library, recipe)
    log.info("Distilling on %d texts (%d library clauses, their sentences and spans)",
             len(texts), len(library))
    began = time.perf_counter()
    losses = distil(Path(resolve_model_path(args.teacher)), texts, recipe, args.out)
    report = {"teacher": args.teacher, "texts": len(texts), "library": len(library),
              "recipe": asdict(recipe), "losses": losses,
              "minutes": round((time.perf_counter() - began) / 60, 1),
              "sources": [str(s) for s in args.sources]}
    (args.out / "distill.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    log.info("Wrote %s in %.1f minutes", args.out, report["minutes"])
    return 0
