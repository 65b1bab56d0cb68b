"""Build or update an index from a BEIR corpus and/or folders of contracts, incrementally."""

from __future__ import annotations

import errno
import logging
import os
import re
import sqlite3
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from index_builder.errors import DiskFullError, NothingIndexableError
from index_builder.index import open_store
from index_builder.index.backend import IndexStore, PreviousVersion, VersionData, text_key as _text_key
from index_builder.index.dense_files import same_dense
from index_builder.index.documents import ReadClauses, SourceDocument, _parse, discover
from index_builder.index.embedder import Embedder
from index_builder.index.incremental import _CARRIED, _read_all, _reuse
from index_builder.index.labels import Labeller
from index_builder.index.lock import build_lock
from index_builder.index.parallel import EmbeddingCache, embed_texts
from index_builder.index.segments import SEGMENTED_FORMAT
from index_builder.index.store import FORMAT_VERSION
from index_builder.model import Clause
from index_builder.settings import Settings
from index_builder.terms import stamp as stamp_terms

log = logging.getLogger(__name__)

# Out of disk, out of quota, past a file size limit (RLIMIT_FSIZE): a clear message, not a trace.
_NO_SPACE = {errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}
_SHORT_WRITE = re.compile(r"\d+ requested and \d+ written")
CARRIED_PARAMS = ("access_generation",)


@dataclass
class BuildReport:
    """What a build did, for the summary printed to firm IT."""

    documents: int = 0
    clauses: int = 0
    parsed: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    relabelled: list[str] = field(default_factory=list)  # same text, new access: no re-embedding
    removed: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    # What the readers left out of a document's text, e.g. invisible runs: (path, note).
    notes: list[tuple[str, str]] = field(default_factory=list)
    embedded: int = 0
    embeddings_reused: int = 0
    terms_extracted: int = 0  # clauses whose terms were extracted (new or changed text)
    seconds: float = 0.0
    version: str = ""


def build_index(settings: Settings, sources: list[Path] | Any, embedder: Embedder,
                read_document: ReadClauses | None = None, progress: bool = True,
                store: IndexStore | None = None, params: dict[str, Any] | None = None) -> BuildReport:
    """Build a new index version from sources, reusing what the previous version has.

    ``sources`` is a list of folders and files, or a DMS library (``sources.sync.SourceLibrary``);
    ``params``: recorded with the version besides its own (a sync's access generation).
    """
    try:
        with build_lock(settings.index_dir):
            return _build(settings, sources, embedder, read_document, progress,
                          store or open_store(settings), extra=params or {})
    except (OSError, sqlite3.Error, RuntimeError) as exc:
        reason = _write_failure(exc)
        if reason is None:
            raise
        raise DiskFullError(
            f"The disk holding {settings.index_dir} ran out of space while the build wrote "
            f"({reason}). The live index is unchanged and still served. Free space (a new "
            f"version needs about as much again as the live one) and build again: work done "
            f"so far is resumed.") from exc


def _write_failure(exc: BaseException) -> str | None:
    """What a failed write says when it is a full disk (or quota, or size limit), else None.

    Python raises OSError; SQLite its own full or I/O error; FAISS a RuntimeError naming
    the short write.
    """
    if isinstance(exc, OSError):
        if exc.errno in _NO_SPACE:
            return os.strerror(exc.errno)
        # numpy's tofile (np.save of BM25 and columns) reports a short write without an errno.
        return f"a short write: {exc}" if exc.errno is None and _SHORT_WRITE.search(str(exc)) else None
    if isinstance(exc, sqlite3.Error):
        name = str(getattr(exc, "sqlite_errorname", ""))
        return f"SQLite: {exc}" if name == "SQLITE_FULL" or name.startswith("SQLITE_IOERR") else None
    text = str(exc)
    return "FAISS: a short write" if "write error" in text or "ret == (" in text else None


def _build(settings: Settings, sources: list[Path], embedder: Embedder,
           read_document: ReadClauses | None, progress: bool, store: IndexStore,
           carry: bool = True, extra: dict[str, Any] | None = None) -> BuildReport:
    started = time.perf_counter()
    previous = store.previous(embedder.model_id)
    report = BuildReport()
    clauses: list[Clause] = []
    documents: dict[str, dict[str, Any]] = {}
    seen_ids: set[str] = set()
    labeller = Labeller.from_settings(settings, previous.params)
    # A changed metadata file or new facet rules re-read every document (texts, hence
    # vectors, are reused). An index without a recorded first version (none) is new.
    params = labeller.params()
    reread = _rereads(previous, params)
    # Unchanged documents stay in the store untouched (not read back) when it can carry them
    # and they would come out the same: same model, same labels.
    may_carry = carry
    carry = _may_carry(carry, previous, labeller, reread, embedder.model_id)
    kept: dict[str, int] = {}  # carried documents -> their clause counts
    found = sources.documents(report) if hasattr(sources, "documents") \
        else discover(sources, settings.follow_links, report)
    workers = settings.embedding.workers
    sharded = None
    # Shards when unchanged documents stay where they are, or every document is read anew
    # (a new index; new facet rules): never when some would only be relabelled, which a
    # checkpoint could not tell apart from the done ones.
    if workers > 1 and (carry or reread or not previous.version) and hasattr(store, "sharding") \
            and previous.params.get("embedding_model", embedder.model_id) == embedder.model_id:
        sharded = _in_shards(settings, store, found, previous, labeller, reread, carry, embedder,
                             read_document)
        if sharded is not None and sharded.published:  # go on from the last checkpoint
            previous = store.previous(embedder.model_id)
            labeller = Labeller.from_settings(settings, previous.params)
            reread = _rereads(previous, labeller.params())
            carry = _may_carry(may_carry, previous, labeller, reread, embedder.model_id)
    cache = EmbeddingCache(settings.index_dir, embedder.model_id, int(embedder.dimension))
    # A store writing segments (a large library: index/segments.py) takes the clauses read so
    # far a segment at a time, so a build holds one segment's clauses, not the library's.
    segmenting = getattr(store, "segmenting", None)
    flushed = 0
    for source, doc_clauses, info in _read_all(found, previous, read_document, report, reread,
                                               workers, progress, carry):
        if doc_clauses is None:
            continue
        if doc_clauses is _CARRIED:
            kept[source.doc_id] = int(previous.documents[source.doc_id].get("clauses", 0))
            documents[source.doc_id] = {**info, "clauses": kept[source.doc_id]}
            continue
        fresh = _unseen(doc_clauses, seen_ids)
        if len(fresh) < len(doc_clauses):
            log.warning("%s: %d clauses dropped because their ids were already used; give "
                        "them unique ids", source.path, len(doc_clauses) - len(fresh))
        labelled, extracted = stamp_terms(labeller.label(fresh, source.kind, source.relative,
                                                         source.access, source.link))
        report.terms_extracted += extracted
        clauses.extend(labelled)
        documents[source.doc_id] = {**info, "clauses": len(fresh)}
        if len(fresh) < len(doc_clauses):  # re-read next time: the holder of an id may go
            documents[source.doc_id]["dropped"] = len(doc_clauses) - len(fresh)
        so_far = flushed + len(clauses) + sum(kept.values())
        size = segmenting(so_far) if segmenting is not None else 0
        if size and len(clauses) >= size:
            if _reuses_carried_id(clauses, kept, previous):
                break
            vectors = _embeddings(clauses, embedder, previous.vectors, report, progress, cache,
                                  workers)
            expected = so_far * len(found) // max(1, len(documents))
            store.flush(clauses, vectors, embedder.model_id, expected)  # type: ignore[attr-defined]
            cache.clear()  # the segment holds these vectors now
            flushed += len(clauses)
            clauses = []
    if _reuses_carried_id(clauses, kept, previous):
        # A new clause reuses the id of a carried one: which keeps it depends on library
        # order, which only a complete build applies.
        log.info("A changed document reuses a clause id another document holds; building "
                 "the index whole")
        return _build(settings, sources, embedder, read_document, progress, store, carry=False,
                      extra=extra)
    if not clauses and not kept and not flushed:
        # Nothing to serve: keep the live version rather than replace it with an empty one.
        skipped = "; ".join(f"{p} ({r})" for p, r in report.skipped[:20]) or "no .docx, .txt or .md files"
        raise NothingIndexableError(
            f"Nothing indexable was found in {_named(sources)}: {skipped}. "
            f"The live index is unchanged; add readable contracts and build again.")
    if sharded is not None:
        _merge(report, sharded)
    report.removed = sorted(set(previous.documents) - set(documents))
    embeddings = _embeddings(clauses, embedder, previous.vectors, report, progress, cache, workers)
    report.embeddings_reused += sum(kept.values())
    report.documents = len(documents)
    report.clauses = flushed + len(clauses) + sum(kept.values())
    dense = _dense_params(settings)
    if _unchanged(previous, report, settings, embedder.model_id, report.clauses, labeller.params(),
                  dense):
        # Nothing to write: a new version would only make every server reload for nothing.
        # (A cache left by a build killed after its switch holds nothing the live one lacks,
        # nor do the staging or half-pruned folders it may have left.)
        cache.clear()
        tidy = getattr(store, "remove_leftovers", None)
        if tidy is not None:
            tidy()
        report.version = previous.version
        report.seconds = time.perf_counter() - started
        return report
    params = _params(settings, embedder, labeller, previous, report.clauses, len(documents),
                     [{"path": p, "reason": r} for p, r in report.skipped], dense, extra or {})
    if hasattr(store, "progress"):
        store.progress = progress
    report.version = store.write(VersionData(params, clauses, documents, embeddings,
                                             kept=frozenset(kept), base=previous.version))
    cache.clear()  # the new version holds every vector now
    report.seconds = time.perf_counter() - started
    return report


def _params(settings: Settings, embedder: Embedder, labeller: Labeller,
            previous: PreviousVersion, clauses: int, documents: int,
            skipped: list[dict[str, str]], dense: dict[str, Any], extra: dict[str, Any]
            ) -> dict[str, Any]:
    """What a version records of the build that wrote it."""
    return {
        "format_version": FORMAT_VERSION,
        "embedding_model": embedder.model_id,
        "dimension": int(embedder.dimension),
        "clauses": clauses,
        "documents": documents,
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "bm25": asdict(settings.bm25),
        "skipped": skipped,
        "dense": dense,
        **labeller.params(),
        # Carried from the live version unless this build sets them (a build without a sync
        # includes every access change the live version did: sources/ledger.py).
        **{k: previous.params[k] for k in CARRIED_PARAMS if k in previous.params},
        **extra,
    }


def _rereads(previous: PreviousVersion, params: dict[str, Any]) -> bool:
    """A changed metadata file or new facet rules re-read every document (texts, hence
    vectors, are reused). An index without a recorded first version (none) is new."""
    return previous.params.get("metadata_file") != params["metadata_file"] or (
        bool(previous.params) and previous.params.get("facets") != params["facets"])


def _may_carry(carry: bool, previous: PreviousVersion, labeller: Labeller, reread: bool,
               model_id: str) -> bool:
    """Whether unchanged documents may stay in the store unread (see _build)."""
    return carry and previous.holders is not None and not reread \
        and not labeller.clear_walls and previous.params.get("embedding_model") == model_id \
        and all(previous.params.get(k) == v for k, v in labeller.params().items())


def _in_shards(settings: Settings, store: IndexStore, found: list[SourceDocument],
               previous: PreviousVersion, labeller: Labeller, reread: bool, carry: bool,
               embedder: Embedder, read_document: ReadClauses | None) -> Any:
    """The documents to read built in segments by worker processes, each published as a
    checkpoint (index/segment_workers.py); None when this build is better done serially."""
    from index_builder.index import segment_workers

    scratch = BuildReport()  # the serial pass after this one reports on every document
    to_read, carried_ids = [], set()
    for source in found:
        info, reused = _reuse(source, previous, scratch, reread, carry)
        if info is not None and reused is None:
            to_read.append((source, info))
        elif reused is _CARRIED:
            carried_ids.add(source.doc_id)
    known = [int(d.get("clauses", 0)) for d in previous.documents.values()]
    expected = len(found) * (sum(known) / len(known) if known
                             else segment_workers.DEFAULT_CLAUSES_PER_DOCUMENT)
    live = store.sharding(int(expected))  # type: ignore[attr-defined]
    if live is None or not to_read:
        return None
    # Recorded as the live version's, not this build's (a sync's new access generation is
    # whole only in the version the serial pass publishes at the end).
    base = _params(settings, embedder, labeller, previous, 0, 0,
                   list(previous.params.get("skipped", [])), {}, {})
    steps = segment_workers.BuildSteps(_parse, _unseen, _embeddings, BuildReport, stamp_terms)
    return segment_workers.run(store, live, to_read, carried_ids, previous.holders, embedder,
                               read_document, labeller, steps, base, settings.embedding.workers,
                               int(expected), reread=reread)


def _merge(report: BuildReport, sharded: Any) -> None:
    """What the shards did, in the build's report (the serial pass saw them carried)."""
    parsed = set(sharded.parsed)
    report.reused = [d for d in report.reused if d not in parsed]
    report.parsed = sharded.parsed + report.parsed
    report.notes = sharded.notes + report.notes
    report.embedded += sharded.embedded
    report.embeddings_reused += sharded.embeddings_reused - sharded.clauses
    report.terms_extracted += sharded.terms_extracted


def _reuses_carried_id(clauses: list[Clause], kept: dict[str, int],
                       previous: PreviousVersion) -> bool:
    """Whether a clause read reuses the id of a clause a carried document holds."""
    return bool(kept) and previous.holders is not None and any(
        holder in kept for holder in previous.holders([c.clause_id for c in clauses]))


def _dense_params(settings: Settings) -> dict[str, Any]:
    """How the embedded backend indexes the vectors (recorded in params; Milvus ignores it).
    "auto" and "ivfpq" are settled by the store, which records what it wrote."""
    e = settings.embedding
    if e.dense_index in ("flat", "auto"):
        return {"kind": e.dense_index}
    if e.dense_index == "ivfpq":
        return {"kind": "ivfpq", "lists": e.ivf_lists}
    return {"kind": e.dense_index, "m": e.hnsw_m, "ef_construction": e.hnsw_ef_construction,
            "ef_search": e.hnsw_ef_search}


def _unchanged(previous: PreviousVersion, report: BuildReport, settings: Settings, model_id: str,
               clause_count: int, labels: dict[str, Any], dense: dict[str, Any]) -> bool:
    """True when the live version already is what this build would write (a checkpoint of
    a sharded build never is: segment_workers.py)."""
    params = previous.params
    if "checkpoint" in params:
        return False
    # An older format is rewritten (vectors reused): format 3 keeps clauses out of memory.
    return bool(previous.version) \
        and not (report.parsed or report.removed or report.embedded or report.relabelled) \
        and params.get("format_version") in (FORMAT_VERSION, SEGMENTED_FORMAT) \
        and params.get("embedding_model") == model_id and params.get("clauses") == clause_count \
        and params.get("bm25") == asdict(settings.bm25) \
        and params.get("skipped") == [{"path": p, "reason": r} for p, r in report.skipped] \
        and all(params.get(key) == value for key, value in labels.items()) \
        and same_dense(params.get("dense"), dense) \
        and not ("appended" in params and settings.append_limit == 0)  # asked to rewrite whole


def _named(sources: Any) -> str:
    return sources.name if hasattr(sources, "documents") else ", ".join(str(s) for s in sources)


def _unseen(clauses: list[Clause], seen: set[str]) -> list[Clause]:
    """Clauses whose id is new, also within this list; ``seen`` is updated."""
    fresh = []
    for clause in clauses:
        if clause.clause_id not in seen:
            seen.add(clause.clause_id)
            fresh.append(clause)
    return fresh


def _embeddings(clauses: list[Clause], embedder: Embedder, cached: dict[str, np.ndarray],
                report: BuildReport, progress: bool, cache: EmbeddingCache | None = None,
                workers: int = 1) -> np.ndarray:
    """Vectors for every clause, embedding only texts neither the previous version nor an
    interrupted build (``cache``) has."""
    keys = [_text_key(c.text) for c in clauses]
    missing = {k: c.text for k, c in zip(keys, clauses) if k not in cached}
    vectors = embed_texts(sorted(missing.items()), embedder, cache, workers, progress)
    report.embedded += len(missing)  # added up over a build's segments
    report.embeddings_reused += sum(1 for k in keys if k in cached)
    if not clauses:
        return np.zeros((0, embedder.dimension), dtype=np.float32)
    out = np.empty((len(clauses), int(embedder.dimension)), dtype=np.float32)
    for row, key in enumerate(keys):
        out[row] = cached[key] if key in cached else vectors[key]
    return out
