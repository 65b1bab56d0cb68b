"""The one table of PRECEDENT_* environment variables, each with the dotted field it sets.

Only names and help texts: it imports no section, so any section (and every error message,
through ``var_for``) can name a variable without an import circle.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Mapping


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
    "PRECEDENT_QUERY_SHAPES": Var("embedding.query_shapes", "OpenVINO query models: input shapes BATCHxLENGTH also compiled for exactly that shape (~110 MB each, once per PRECEDENT_QUERY_WORKERS, on first use), run on the batcher's own thread; a call's texts in chunks that fit run there padded, the rest on the dynamic-shape model; ~3 ms less server CPU a short search; vectors move by rounding. off = the dynamic-shape model only"),
    "PRECEDENT_QUERY_DEADLINE_S": Var("embedding.query_deadline_s", "a search waiting longer than this for its embedding is answered 503 with Retry-After"),
    "PRECEDENT_COMMAND_QUERY_DEADLINE_S": Var("embedding.command_query_deadline_s", "a command's search (index-builder search/eval, addin-server eval) waits this long for its query's embedding instead of PRECEDENT_QUERY_DEADLINE_S: the first fixed-shape compile of the query model can run past a server's deadline on a busy machine"),
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
    "PRECEDENT_RERANK_BUDGET_S": Var("rerank.budget_s", "whole-request deadline for LLM rerank, seconds; past it the results come in search order, marked not reranked"),
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
    "PRECEDENT_AUTH_JWKS_URL": Var("auth.jwks_url", "signing keys address (https; http only on loopback); empty = the tenant's published keys"),
    "PRECEDENT_AUTH_LEEWAY_S": Var("auth.leeway_s", "clock skew allowed on token expiry and start, seconds (0-300)"),
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
    "PRECEDENT_AUDIT_KEY": Var("audit.key", "secret key (32+ characters) of the queries' keyed hashes in the trail (query_hmac); every server of one deployment needs the same; empty = PRECEDENT_AUDIT_KEY_FILE"),
    "PRECEDENT_AUDIT_KEY_FILE": Var("audit.key_file", "file holding that key, made once with a random key (owner-only) where missing; default keys/audit-query.key beside the index folder"),
    # language model endpoint
    "PRECEDENT_LLM_BASE_URL": Var("llm.base_url", "OpenAI-compatible endpoint; empty = the embedded local model if present"),
    "PRECEDENT_LLM_API_KEY": Var("llm.api_key", "API key for the endpoint"),
    "PRECEDENT_LLM_PROVIDER": Var("llm.provider", "openai or azure"),
    "PRECEDENT_LLM_API_VERSION": Var("llm.api_version", "Azure OpenAI API version"),
    "PRECEDENT_LLM_RERANK_MODEL": Var("llm.rerank_model", "model (Azure: deployment) for rerank"),
    "PRECEDENT_LLM_REDRAFT_MODEL": Var("llm.redraft_model", "model (Azure: deployment) for redraft"),
    "PRECEDENT_LLM_CONNECT_TIMEOUT_S": Var("llm.connect_timeout_s", "seconds to connect"),
    "PRECEDENT_LLM_TIMEOUT_S": Var("llm.request_timeout_s", "seconds for one HTTP attempt"),
    "PRECEDENT_LLM_DEADLINE_S": Var("llm.deadline_s", "seconds for one call, retries included (a retry is made only while PRECEDENT_LLM_RETRY_MIN_SHARE of an attempt's time is left)"),
    "PRECEDENT_LLM_MAX_ATTEMPTS": Var("llm.max_attempts", "attempts per call"),
    "PRECEDENT_LLM_RETRY_MIN_SHARE": Var("llm.retry_min_share", "a failed attempt is retried only if what is left of the call's deadline, after the backoff wait, is at least this share of the time the first attempt had (PRECEDENT_LLM_TIMEOUT_S, or PRECEDENT_LLM_REDRAFT_TIMEOUT_S for a redraft); otherwise the call answers its timeout or error at once: a 110 s redraft that timed out is not retried with the 10 s left of its 120 s (0 = retry while any time is left)"),
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
    "PRECEDENT_LLM_REDRAFT_VERIFY": Var("llm.redraft_verify", "ask the language model about each citation the wording check flags (one short call each); its answer is shown beside the flag and never lifts it"),
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


def var_for(dotted: str) -> str:
    """The environment variable that sets a dotted field (for error messages)."""
    return _VAR_OF.get(dotted, dotted)


# PRECEDENT_* names read by the shipped scripts, not by Settings (scripts/quickstart.sh).
SCRIPT_VARIABLES = frozenset({"PRECEDENT_CONTRACTS_DIR", "PRECEDENT_CA_FILE"})


def unknown_variables(environ: Mapping[str, str]) -> list[tuple[str, str]]:
    """(name, the nearest known name or "") for each PRECEDENT_* variable nothing reads.

    A typo ("PRECEDENT_RATE_LIMIT_REDRAFT") was ignored without a word and the default ran.
    Nearest: the closest spelling, of the name or of its words in any order."""
    return [(name, _nearest(name)) for name in sorted(environ)
            if name.startswith("PRECEDENT_") and name not in ENV and name not in SCRIPT_VARIABLES]


def _nearest(name: str) -> str:
    def spelling(a: str, b: str) -> float:
        return difflib.SequenceMatcher(None, a, b).ratio()

    def words(n: str) -> str:  # the words in any order: RATE_LIMIT_REDRAFT ~ REDRAFT_RATE_LIMIT
        return "".join(sorted(n.split("_")[1:]))

    def score(known: str) -> float:
        return max(spelling(name, known), spelling(words(name), words(known)))

    best = max(ENV, key=score)
    return best if score(best) >= 0.75 else ""
