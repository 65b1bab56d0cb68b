"""Build or update an index from a BEIR corpus and/or folders of contracts, incrementally."""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import os
import re
import sqlite3
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import numpy as np
from tqdm import tqdm

from index_builder.errors import (DataNotFoundError, DiskFullError, DocumentError,
                                  NothingIndexableError)
from index_builder.index import open_store
from index_builder.index.backend import IndexStore, PreviousVersion, VersionData
from index_builder.index.embedded import text_key as _text_key
from index_builder.index.embedder import Embedder
from index_builder.index.labels import Labeller
from index_builder.index.lock import build_lock
from index_builder.index.parallel import EmbeddingCache, embed_texts, map_ordered
from index_builder.index.segments import SEGMENTED_FORMAT
from index_builder.index.store import FORMAT_VERSION, same_dense
from index_builder.ingest.policy import Access
from index_builder.model import Clause
from index_builder.settings import Settings
from index_builder.terms import stamp as stamp_terms

log = logging.getLogger(__name__)

ReadClauses = Callable[[Path, str, str], list[Clause]]
# Out of disk, out of quota, past a file size limit (RLIMIT_FSIZE): a clear message, not a trace.
_NO_SPACE = {errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}
_SHORT_WRITE = re.compile(r"\d+ requested and \d+ written")
CARRIED_PARAMS = ("access_generation",)
# A document a checkpoint of a sharded build that re-reads everything has not reached yet
# (index/segment_workers.py): read again however unchanged it is.
REREAD = "reread"


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


@dataclass(frozen=True)
class SourceDocument:
    """One unit of change detection: a contract file, or a whole BEIR corpus file."""

    doc_id: str
    path: Path
    kind: str  # "beir" or "file"
    # Where the document sits in the library as given ("Matters/Acme/spa.docx"; a BEIR
    # corpus: its folder's name): what wall policies and metadata files match on.
    relative: str = ""
    # From a DMS source (index_builder/sources/): its version tag stands for the file hash,
    # its access for the policy's (policy rules still override), ``fetch`` streams the bytes
    # into a local file, and ``link`` opens it in the DMS.
    version: str = ""
    access: Access | None = None
    access_key: str = ""
    link: str = ""
    fetch: Callable[[Path], None] | None = None


def discover(sources: Iterable[Path], follow_links: bool = False,
             report: BuildReport | None = None) -> list[SourceDocument]:
    """Expand the given paths into source documents; a folder with corpus.jsonl is BEIR.

    A document's id is its path inside the folder given, without suffix ("forms/nda"); when
    two files would share one (nda.docx beside nda.txt, or nda.txt in two folders) the later
    keeps its suffix, then gains its folder's name, so no document shadows another.

    A symbolic link inside a folder that points outside it is not followed (it could expose
    any file the server can read) unless ``follow_links``; it is reported as skipped.
    """
    found: list[SourceDocument] = []
    taken: set[str] = set()
    for source in sources:
        source = Path(source)
        if not source.exists():
            raise DataNotFoundError(f"Source {source} does not exist: check the path.")
        if source.is_dir() and (source / "corpus.jsonl").is_file():
            entries = [(source / "corpus.jsonl", [source.resolve().name], "beir",
                        source.resolve().name)]
        elif source.is_file():
            entries = [(source, [source.stem, source.name], "file", source.name)]
        else:
            from index_builder.ingest import SUPPORTED_SUFFIXES as suffixes

            entries = []
            root = source.resolve()
            for path in sorted(source.rglob("*")):
                if not (path.is_file() and path.suffix.lower() in suffixes
                        and not path.name.startswith("~$")):
                    continue
                if not follow_links and not path.resolve().is_relative_to(root):
                    if report is not None:
                        report.skipped.append((str(path), "a link to a file outside the library "
                                               "folder (set PRECEDENT_FOLLOW_LINKS=true to index it)"))
                    continue
                entries.append((path, _id_candidates(source, path), "file",
                                path.relative_to(source).as_posix()))
        for path, candidates, kind, relative in entries:
            doc_id = _unique_id(candidates, taken)
            taken.add(doc_id)
            found.append(SourceDocument(doc_id, path, kind, relative))
    return found


def _id_candidates(folder: Path, path: Path) -> list[str]:
    relative = path.relative_to(folder)
    return [relative.with_suffix("").as_posix(), relative.as_posix(),
            f"{folder.resolve().name}/{relative.as_posix()}"]


def _unique_id(candidates: list[str], taken: set[str]) -> str:
    for candidate in candidates:
        if candidate not in taken:
            return candidate
    n = 2
    while f"{candidates[-1]}~{n}" in taken:
        n += 1
    return f"{candidates[-1]}~{n}"


def _read_contract(path: Path, doc_id: str, source_path: str,
                   notes: list[str] | None = None) -> list[Clause]:
    from index_builder.ingest import read_clauses
    from index_builder.ingest.definitions import definition_units

    clauses = read_clauses(path, doc_id, source_path, notes=notes)
    return clauses + definition_units(clauses)  # definitions as precedent (issue 23)


def read_beir_corpus(path: Path, doc_id: str) -> list[Clause]:
    """Clauses from a BEIR corpus.jsonl; each line is a clause with optional title/metadata."""
    clauses = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                text = str(row["text"]).strip()
                clause_id = str(row["_id"])
            except (ValueError, KeyError, TypeError):
                raise DocumentError(f"{path}: line {number} is not a BEIR corpus row "
                                    f'({{"_id", "text"}}).') from None
            metadata = {k: str(v) for k, v in (row.get("metadata") or {}).items()}
            metadata.setdefault("type", "corpus")
            clauses.append(Clause(clause_id=clause_id, text=text, doc_id=doc_id,
                                  doc_title=str(row.get("title") or doc_id.upper()),
                                  source_path=str(path), heading=str(row.get("title") or ""),
                                  metadata=metadata))
    return clauses


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


# Stands for an unchanged document's clauses, which stay in the store unread (``carry``).
_CARRIED: list[Clause] = []


def _read_all(found: list[SourceDocument], previous: PreviousVersion,
              read_document: ReadClauses | None, report: BuildReport, reread: bool, workers: int,
              progress: bool, carry: bool = False
              ) -> Iterator[tuple[SourceDocument, list[Clause] | None, dict[str, Any]]]:
    """Each source's clauses (reused when unchanged, else parsed, in workers when asked), in
    order; with ``carry``, ``_CARRIED`` for an unchanged document."""
    decided = []
    for source in found:
        info, reused = _reuse(source, previous, report, reread, carry)
        decided.append((source, info, reused))
    jobs = [(s.kind, s.path, s.doc_id, read_document, s.fetch) for s, info, reused in decided
            if info is not None and reused is None]
    # A DMS document is downloaded, read and deleted one at a time in this process: the
    # network is the bottleneck, and a library never has to fit on the index server's disk.
    fetching = any(job[4] is not None for job in jobs)
    parsed = map_ordered(_parse, jobs, 1 if fetching else workers, chunksize=4)
    with tqdm(total=len(found), desc="Reading", unit="doc", disable=not progress) as bar:
        for source, info, reused in decided:
            bar.update(1)
            if info is None:
                yield source, None, {}
            elif reused is not None:
                yield source, reused, info
            else:
                clauses, notes, error = next(parsed)
                if error is not None:
                    log.warning("Skipped %s: %s", source.path, error)
                    report.skipped.append((str(source.path), error))
                    yield source, None, {}
                    continue
                report.notes.extend((str(source.path), note) for note in notes)
                report.parsed.append(source.doc_id)
                yield source, [c for c in clauses if c.text.strip()], info


def _reuse(source: SourceDocument, previous: PreviousVersion, report: BuildReport,
           reread: bool, carry: bool = False) -> tuple[dict[str, Any] | None, list[Clause] | None]:
    """(info, the previous version's clauses when the file is unchanged); info None = unreadable."""
    old = previous.documents.get(source.doc_id)
    if source.version:  # a DMS item: its version tag is the change detector, no bytes read
        info: dict[str, Any] = {"path": source.relative, "sha256": f"version:{source.version}",
                                "kind": source.kind, "access": source.access_key}
    else:
        try:
            stat = source.path.stat()
            digest = _known_digest(old, stat) or _file_digest(source.path)
        except OSError as exc:
            report.skipped.append((str(source.path), f"cannot read file: {exc.strerror}"))
            return None, None
        info = {"path": str(source.path), "sha256": digest, "kind": source.kind,
                "size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "checked_ns": time.time_ns()}
    if old and old.get("sha256") == info["sha256"] and source.doc_id in previous.clauses_by_doc \
            and not reread and not old.get("dropped") and not old.get(REREAD):
        report.reused.append(source.doc_id)
        if old.get("access", "") != info.get("access", ""):
            # Only who may see it changed: its clauses are stamped again, nothing re-embedded.
            report.relabelled.append(source.doc_id)
            return info, previous.clauses_by_doc[source.doc_id]
        return info, _CARRIED if carry else previous.clauses_by_doc[source.doc_id]
    return info, None


def _parse(job: tuple[str, Path, str, ReadClauses | None, Callable[[Path], None] | None]
           ) -> tuple[list[Clause], list[str], str | None]:
    """Read one document (in a worker process when the build has several): clauses, notes, error."""
    kind, path, doc_id, read_document, fetch = job
    if fetch is not None:
        return _fetch_and_parse(path, doc_id, read_document, fetch)
    notes: list[str] = []
    try:
        if kind == "beir":
            clauses = read_beir_corpus(path, doc_id)
        elif read_document is None:
            clauses = _read_contract(path, doc_id, str(path), notes)
        else:
            clauses = read_document(path, doc_id, str(path))
    except DocumentError as exc:
        return [], [], exc.message
    return clauses, notes, None


def _fetch_and_parse(path: Path, doc_id: str, read_document: ReadClauses | None,
                     fetch: Callable[[Path], None]) -> tuple[list[Clause], list[str], str | None]:
    """A DMS document: streamed into a private temporary folder, read, deleted."""
    with tempfile.TemporaryDirectory(prefix="precedent-fetch-") as folder:
        local = Path(folder) / path.name  # the reader may title a document by its file name
        notes: list[str] = []
        try:
            # SourceUnavailableError (the DMS down, throttling) stops the build: the live index
            # stays as it was; a document gone since the listing is a DocumentError, skipped.
            fetch(local)
            if read_document is None:
                clauses = _read_contract(local, doc_id, str(path), notes)
            else:
                clauses = read_document(local, doc_id, str(path))
        except DocumentError as exc:  # name the library path, not the temporary file
            return [], [], exc.message.replace(str(local), str(path))
    return clauses, notes, None


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


def _known_digest(old: dict[str, Any] | None, stat: os.stat_result) -> str | None:
    """The recorded hash when size and modification time are as recorded, as git and rsync
    judge a file unchanged (hashing a million clauses' files costs seconds). Only a file
    modified well before it was last hashed qualifies: one written within the clock's
    granularity of that moment could have changed again unseen, so it is hashed again."""
    if not old or "mtime_ns" not in old:
        return None
    settled = old["mtime_ns"] < old.get("checked_ns", 0) - 2_000_000_000
    same = old.get("size") == stat.st_size and old["mtime_ns"] == stat.st_mtime_ns
    return str(old["sha256"]) if settled and same else None


def _file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as data:
        for block in iter(lambda: data.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
