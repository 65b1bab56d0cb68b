"""Calibration texts for the static int8 query model (issue 39): ACORD's own language, fixed.

Static post-training quantisation (int8 weights *and* activations) needs the range each
activation takes on real input. The texts come from an ACORD folder in BEIR format
(``PRECEDENT_QUERY_CALIBRATION_DIR``, by default the benchmark copy): a fixed random sample of
corpus clauses, 6-12-word runs cut from other corpus clauses (a typed phrase or a short
selection), and the **train** queries' wordings. Never a test or valid query, never a
judgment (the qrels files are not opened): what the quantised model is then measured on
(ACORD train + valid, the own drafts) must not have shaped it beyond train.

The sample depends only on the files and the seed, so every machine with the same ACORD copy
quantises from the same texts; ``digest`` names the cached model after them.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from index_builder.errors import ModelLoadError

SEED = 39
CLAUSES = 240  # whole clauses (what a lawyer selects most)
RUNS = 120  # 6-12-word runs of other clauses (short selections, typed phrases)
RUN_WORDS = (6, 12)


def calibration_texts(acord_dir: Path, clauses: int | None = None,
                      runs: int | None = None) -> list[str]:
    """The calibration texts, in a fixed order: ``clauses`` whole clauses, ``runs`` runs cut
    from other clauses, every train query; ModelLoadError naming the fix when absent."""
    clauses = CLAUSES if clauses is None else clauses
    runs = RUNS if runs is None else runs
    folder = Path(acord_dir)
    corpus_file, queries_file = folder / "corpus.jsonl", folder / "queries.jsonl"
    if not corpus_file.is_file() or not queries_file.is_file():
        raise ModelLoadError(
            f"The static int8 query model is calibrated on ACORD's clauses and train queries, "
            f"not found at {folder}: point PRECEDENT_QUERY_CALIBRATION_DIR at an ACORD folder "
            f"(`index-builder download-acord --dest DIR`), or set PRECEDENT_QUERY_EMBEDDING="
            f"openvino-int8.")
    corpus = sorted({" ".join(json.loads(line)["text"].split())
                     for line in corpus_file.read_text("utf-8").splitlines() if line.strip()})
    train = sorted({" ".join(str(row["text"]).split()) for row in
                    (json.loads(line) for line in queries_file.read_text("utf-8").splitlines()
                     if line.strip())
                    if (row.get("metadata") or {}).get("split") == "train"})
    corpus = [text for text in corpus if text]
    if len(corpus) < clauses + runs or not train:
        raise ModelLoadError(f"{folder} holds too few clauses ({len(corpus)}) or no train queries "
                             f"to calibrate the static int8 query model; set "
                             f"PRECEDENT_QUERY_EMBEDDING=openvino-int8.")
    rng = random.Random(SEED)
    picked = rng.sample(corpus, clauses + runs)
    cut = []
    for text in picked[clauses:]:
        words = text.split()
        size = rng.randint(*RUN_WORDS)
        start = rng.randint(0, max(0, len(words) - size))
        cut.append(" ".join(words[start:start + size]))
    return picked[:clauses] + cut + train


def digest(texts: list[str], max_length: int) -> str:
    """A short name for a calibration: its texts and the tokens each was cut to."""
    h = hashlib.sha256(f"{max_length}\n".encode())
    for text in texts:
        h.update(text.encode("utf-8") + b"\0")
    return h.hexdigest()[:12]
