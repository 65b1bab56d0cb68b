"""index: the storage seam (backend.py) and its engines: embedded (FAISS + bm25s), milvus; the
embedders. ``open_store`` and ``load_embedder`` build the configured ones."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from index_builder.index.backend import IndexStore
    from index_builder.index.embedder import Embedder
    from index_builder.settings import EmbeddingSettings, Settings


def open_store(settings: "Settings") -> "IndexStore":
    """The configured engine's store (``PRECEDENT_BACKEND``): embedded by default."""
    if settings.backend == "milvus":
        from index_builder.index.milvus import MilvusStore

        return MilvusStore(settings)
    from index_builder.index.embedded import EmbeddedStore
    from index_builder.index.segmented_build import SegmentSettings

    e = settings.embedding
    return EmbeddedStore(settings.index_dir, settings.bm25, ef_search=e.hnsw_ef_search,
                         append_limit=settings.append_limit, dense=e.dense_index,
                         compressed_above=e.compressed_above,
                         segments=SegmentSettings(e.segment_clauses, e.ivf_lists, e.ivf_nprobe,
                                                  e.ivf_refine, e.ivf_build_threads))


def load_embedder(settings: "EmbeddingSettings") -> "Embedder":
    """The embedder the settings ask for (``PRECEDENT_EMBEDDING_BACKEND``)."""
    from index_builder.index.embedder import OnnxEmbedder, SentenceTransformerEmbedder

    if settings.backend == "torch":
        return SentenceTransformerEmbedder(settings)
    if settings.backend.startswith("openvino"):
        from index_builder.index.embedder_openvino import OpenVinoEmbedder

        return OpenVinoEmbedder(settings)
    return OnnxEmbedder(settings)
