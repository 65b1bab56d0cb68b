"""The distilled embedding student's recipe (`precedent-bench embedding-distill`, issue 29)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from index_builder.index import embedder as emb

from precedent_bench.embedding import embedding_distill as distill

TEXTS = [
    "The Supplier shall indemnify the Customer against all losses arising from any breach.",
    "Neither party's aggregate liability shall exceed the fees paid in the twelve months before the claim.",
    "This Agreement is governed by the laws of England and Wales.",
    "Either party may terminate this Agreement on thirty days' written notice.",
    "cap on liability",
    "governing law",
]


def test_training_texts_add_sentences_and_short_spans_deterministically() -> None:
    library = ["First sentence of the clause is here. Second sentence of the clause follows; "
               "and a third part closes it.", "Short one.", "Short one.", "  "]
    recipe = distill.Recipe(max_spans=10, seed=3)
    texts = distill.training_texts(library, recipe)
    assert texts == distill.training_texts(library, recipe)  # the same seed, the same texts
    assert texts[:2] == [library[0], "Short one."]  # deduplicated, blanks dropped
    assert "Second sentence of the clause follows;" in texts
    spans = texts[2 + 3:]
    assert spans and all(2 <= len(s.split()) <= 12 for s in spans)


@pytest.mark.slow
def test_distilling_moves_the_student_towards_the_teacher(tmp_path: Path) -> None:
    """A few steps of the recipe on six texts: the pruned model's vectors, far from the
    teacher's at first, come closer, and the folder it writes loads as a three-layer model."""
    from sentence_transformers import SentenceTransformer

    teacher_folder = Path(emb.resolve_model_path("all-MiniLM-L6-v2"))
    teacher = SentenceTransformer(str(teacher_folder), device="cpu")
    targets = teacher.encode(TEXTS, normalize_embeddings=True)
    recipe = distill.Recipe(max_seq_length=64, spread_epochs=10, spread_lr=5e-4,
                            neighbour_epochs=2, neighbour_lr=2e-4, neighbour_share=1.0,
                            neighbours=2, batch_size=6)

    def cosine(folder: Path) -> float:
        model = SentenceTransformer(str(folder), device="cpu")
        return float(np.mean((model.encode(TEXTS, normalize_embeddings=True) * targets).sum(1)))

    untrained = tmp_path / "untrained"
    distill.distil(teacher_folder, TEXTS, replace(recipe, spread_epochs=0, neighbour_epochs=0),
                   untrained, teacher_vectors=targets)
    trained = tmp_path / "trained"
    losses = distill.distil(teacher_folder, TEXTS, recipe, trained, teacher_vectors=targets)
    assert cosine(trained) > cosine(untrained) + 0.05  # 0.77 -> 0.84 when written
    assert set(losses) == {"spread", "neighbours"}
    assert '"num_hidden_layers": 3' in (trained / "config.json").read_text()
