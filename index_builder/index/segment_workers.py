"""A segmented build over worker processes: each reads its share of the documents and writes
its own segment; each finished segment is published at once as a checkpoint version.

Why: reading, labelling, embedding and writing a segment run in one process otherwise, so a
build of millions of clauses uses one core however many the machine has (1M clauses: ~70 min
on a shared 2-core machine). Here the documents to read are cut into shards of about one
segment each (by the live version's mean clauses a document), ``workers`` spawned processes
build one shard at a time, and this process publishes the finished segments in library order.

A checkpoint version is the live version with the finished shards' documents in place:
their new segments appended, the old positions of changed documents dead, every other
document (not read yet, carried, or gone from the library) as it was live, and the live
version's access generation, not this build's (a half-applied sync never claims to be
whole). Servers may serve it: it holds nothing the live version and the library do not.
So a build stopped at any point (``kill``, a full disk, the machine rebooting) restarts where
it was: the documents of published segments are unchanged against the checkpoint and carried
unread; a segment a worker finished but this process never published is named by no version,
so it is never counted (its vectors are reused, then it is pruned). Once every shard is in,
the ordinary build (build.py) runs over the checkpoint: it carries those documents, reads
what the shards left (relabelled documents, ones a shard could not take), drops removed
documents and publishes the version with this build's parameters.

A build that reads every document anew (new facet rules, a new metadata file) shards too:
its checkpoints mark the documents not reached yet, which a resumed build reads again.

Serial builds are kept where shards would not pay or could disagree with one: one worker,
fewer than two shards, a live version that is not segmented, of another model or whose
documents would only be relabelled (a checkpoint could not tell them from the done ones), a reader, embedder or document fetcher that cannot be sent
to another process, and a clause id that two shards both use (the first published stands;
the rest of the build is serial, which settles the id as a serial build does).
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import pickle
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from index_builder.index.labels import Labeller
from index_builder.index.segment_files import named, remove_staging, remove_unnamed
from index_builder.index.segmented_build import SegmentedLive
from index_builder.index.segments import (codebook_path, publish, save_codebook, write_segment)
from index_builder.model import Clause
from index_builder.settings import BM25Settings

log = logging.getLogger(__name__)

DEFAULT_CLAUSES_PER_DOCUMENT = 40  # a new library's guess, until a live version says better
CHECKPOINT = "checkpoint"  # params key of a checkpoint version


@dataclass(frozen=True)
class ShardState:
    """What every worker needs, sent once when it starts."""

    root: Path
    live: Path | None  # the live version's folder at the start (None: there was none)
    bm25: BM25Settings
    codebook: str  # "" only for a shard built in this process, which trains the quantiser
    lists: int  # inverted lists when training
    build_threads: int
    model_id: str
    embedder: Any
    read_document: Any
    labeller: Labeller
    steps: "BuildSteps"


@dataclass(frozen=True)
class BuildSteps:
    """The serial build's own steps (build.py), handed in so a shard reads, labels and embeds
    exactly as it does (and this module never imports build.py, which calls it)."""

    parse: Callable[..., tuple[list[Clause], list[str], str | None]]
    unseen: Callable[[list[Clause], set[str]], list[Clause]]
    embeddings: Callable[..., np.ndarray]
    report: Callable[[], Any]  # a BuildReport
    stamp: Callable[[list[Clause]], tuple[list[Clause], int]]  # figures (build.stamp_terms)


@dataclass
class ShardResult:
    """One shard's segment and what the build reports of it."""

    number: int
    consumed: int = 0  # documents read (all of the shard's, unless it had a limit)
    segment: str = ""  # "" when no document of the shard gave a clause
    size: int = 0
    codebook: str = ""
    documents: dict[str, dict[str, Any]] = field(default_factory=dict)
    clause_ids: list[str] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    embedded: int = 0
    embeddings_reused: int = 0
    terms_extracted: int = 0
    cpu_s: float = 0.0
    wall_s: float = 0.0


@dataclass
class ShardedReport:
    """What the sharded part of a build did (merged into the build's report)."""

    shards: int = 0
    published: int = 0
    clauses: int = 0
    parsed: list[str] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    embedded: int = 0
    embeddings_reused: int = 0
    terms_extracted: int = 0
    worker_cpu_s: float = 0.0
    stopped: str = ""  # why the rest of the build went serial, if it did


def plan(to_read: Sequence[tuple[Any, dict[str, Any]]], segment_clauses: int,
         per_document: float) -> list[list[tuple[Any, dict[str, Any]]]]:
    """Consecutive runs of documents of about one segment each, in library order."""
    # Whole documents up to at least a segment, as the serial build flushes.
    per_shard = max(1, math.ceil(segment_clauses / max(per_document, 1.0)))
    return [list(to_read[i:i + per_shard]) for i in range(0, len(to_read), per_shard)]


def sendable(*objects: Any) -> bool:
    """Whether these can go to a spawned worker (a closure or lambda cannot)."""
    try:
        pickle.dumps(objects)
    except (pickle.PicklingError, AttributeError, TypeError):
        return False
    return True


# -- in the worker ----------------------------------------------------------------------------
_state: ShardState | None = None


def _init(state: ShardState) -> None:
    global _state
    _state = state
    # One thread of FAISS / BLAS per worker: the workers are the parallelism.
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    _end_with_parent()


def _end_with_parent() -> None:
    """A worker ends when the build does (killed, or stopped by a disk or memory guard with
    os._exit): left running, it would go on filling the disk with a segment no one
    publishes. Linux only (prctl); elsewhere the pool's own shutdown has to do."""
    if not sys.platform.startswith("linux") or multiprocessing.parent_process() is None:
        return
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        return
    if os.getppid() == 1:  # the build ended before the signal was asked for
        os._exit(1)


def build_shard(job: tuple[int, list[tuple[Any, dict[str, Any]]], int]) -> ShardResult:
    """Read, label and embed one shard's documents and write them as one segment (with a
    ``limit``: only the documents up to that many clauses, ``ShardResult.consumed`` of them)."""
    assert _state is not None, "worker used before its initializer ran"
    state = _state
    number, sources, limit = job
    started, cpu = time.perf_counter(), time.process_time()
    out = ShardResult(number)
    clauses: list[Clause] = []
    seen: set[str] = set()
    for source, info in sources:
        if limit and len(clauses) >= limit:
            break
        out.consumed += 1
        read, notes, error = state.steps.parse((source.kind, source.path, source.doc_id,
                                                state.read_document, source.fetch))
        if error is not None:
            out.skipped.append((str(source.path), error))
            continue
        out.notes.extend((str(source.path), note) for note in notes)
        read = [c for c in read if c.text.strip()]
        fresh = state.steps.unseen(read, seen)
        labelled, extracted = state.steps.stamp(state.labeller.label(
            fresh, source.kind, source.relative, source.access, source.link))
        out.terms_extracted += extracted
        clauses.extend(labelled)
        out.documents[source.doc_id] = {**info, "clauses": len(fresh)}
        if len(fresh) < len(read):
            out.documents[source.doc_id]["dropped"] = len(read) - len(fresh)
    if clauses:
        for attempt in range(3):
            # The build removes segments it replaced as it publishes: one of the version this
            # worker opened may go before its keys are read (two checkpoints on, that version
            # is pruned). Open the version live then, and try again. (One it listed as
            # unpublished and saw go is skipped there: segmented_build._unpublished_vectors.)
            live = _live(state)
            report = state.steps.report()
            try:
                vectors = state.steps.embeddings(clauses, state.embedder,
                                                 live.previous(state.model_id).vectors, report,
                                                 False)
                break
            except FileNotFoundError:
                if attempt == 2:
                    raise
            finally:
                live.close()
        out.embedded, out.embeddings_reused = report.embedded, report.embeddings_reused
        out.codebook = state.codebook or _train(state, vectors)
        from index_builder.index.ivf import build_threads

        with build_threads(state.build_threads):
            out.segment = write_segment(state.root, clauses, vectors, state.bm25, out.codebook,
                                        state.model_id)
        out.size = len(clauses)
        out.clause_ids = [c.clause_id for c in clauses]
    out.cpu_s = time.process_time() - cpu
    out.wall_s = time.perf_counter() - started
    return out


def _live(state: ShardState, tries: int = 3) -> SegmentedLive:
    """The version live now (the build's last checkpoint, or what it started from): its
    vectors, and those of segments finished but not published, are reused. The build prunes
    all but the last two versions as it publishes, so one may go as it is opened: try again."""
    from index_builder.errors import IndexNotFoundError, PrecedentError
    from index_builder.index.versions import resolve_version

    for attempt in range(tries):
        try:
            try:
                folder: Path | None = resolve_version(state.root)
            except IndexNotFoundError:  # a new index, before its first checkpoint
                folder = None
            return SegmentedLive(state.root, folder)
        except (OSError, ValueError, PrecedentError):
            if attempt == tries - 1:
                raise
    raise AssertionError("unreachable")


def _train(state: ShardState, vectors: np.ndarray) -> str:
    """The quantiser of a new segmented index, on the first shard's vectors (this process)."""
    from index_builder.index.ivf import build_threads, train

    log.info("Training the IVF-PQ quantiser: %d lists on %d vectors", state.lists,
             min(len(vectors), state.lists * 256))
    with build_threads(state.build_threads):
        return save_codebook(state.root, train(vectors, state.lists))


# -- in the build -----------------------------------------------------------------------------
def results(state: ShardState, to_read: Sequence[tuple[Any, dict[str, Any]]],
            segment_clauses: int, per_document: float, workers: int) -> Iterator[ShardResult]:
    """Each shard's result in library order. Without a quantiser yet, the first segment is
    built here (documents read until it is full, as the serial build does) and trains it;
    its mean clauses a document then sizes the other shards."""
    if not state.codebook:
        _init(state)
        first = build_shard((0, list(to_read), segment_clauses))
        yield first
        to_read = to_read[first.consumed:]
        if not first.codebook:  # nothing in it: the build goes on serially
            return
        per_document = first.size / max(1, first.consumed)
        state = ShardState(**{**state.__dict__, "codebook": first.codebook})
    jobs = [(number, shard, 0) for number, shard in
            enumerate(plan(to_read, segment_clauses, per_document), 1)]
    if not jobs:
        return
    context = multiprocessing.get_context("spawn")  # no torch / ONNX thread state inherited
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context,
                             initializer=_init, initargs=(state,)) as pool:
        futures = [pool.submit(build_shard, job) for job in jobs]
        try:
            for future in futures:
                yield future.result()
        finally:  # the consumer stopped early (a shared clause id, an error): drop the rest
            for future in futures:
                future.cancel()


class Checkpoints:
    """The versions a sharded build publishes as its segments finish."""

    def __init__(self, root: Path, live: SegmentedLive, params: dict[str, Any],
                 dense: dict[str, Any], reread: bool = False) -> None:
        self.root = Path(root)
        self.live = live
        self.params = params
        self.dense = dense
        # A build that reads every document anew (new facet rules) records the new rules in
        # its checkpoints, so the documents it has not reached are marked to be read again
        # (incremental.REREAD), or a resumed build would carry them as they are.
        self.documents = {d: {**info, "reread": True} for d, info in live.documents.items()} \
            if reread else dict(live.documents)
        self.segments: list[tuple[str, int]] = []
        self.replaced: set[str] = set()  # live documents a published shard holds anew
        # Segments some version named before this build published: once none does, they
        # are replaced, never a worker's (a worker's are unnamed until published) nor one a
        # stopped build left unpublished (kept to the end: its vectors are reused).
        self.prunable = named(self.root)[0]

    def add(self, result: ShardResult, shards: int) -> Path:
        """Publish the live version with this shard's documents in place."""
        self.segments.append((result.segment, result.size))
        self.replaced.update(d for d in result.documents if d in self.live.documents)
        self.documents.update(result.documents)
        kept, alive = [], []
        for segment, live_alive in zip(self.live.segments, self.live.alive):
            doc_ids = segment.columns.values["doc_id"]
            gone = np.array([d in self.replaced for d in doc_ids] + [False], dtype=bool)
            still = live_alive & ~gone[np.asarray(segment.columns.codes["doc_id"])]
            if still.any():
                kept.append((segment.name, segment.size))
                alive.append(still)
        alive += [np.ones(n, dtype=bool) for _, n in self.segments]
        flags = np.concatenate(alive)
        params = {**self.params, "clauses": int(flags.sum()), "documents": len(self.documents),
                  "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                  "dense": self.dense,
                  CHECKPOINT: {"segments_published": len(self.segments), "shards": shards}}
        # Workers may be writing segments no version names yet: prune versions, and of the
        # segments only those of the version the build started from that it has replaced
        # whole (a library read anew would otherwise keep them to the end: GBs at 10M).
        version = publish(self.root, params, kept + self.segments, flags, self.documents,
                          prune_segments=False)
        removed = remove_unnamed(self.root, self.prunable)
        if removed:
            log.info("Removed %d replaced segment%s: %s", len(removed),
                     "s" if len(removed) > 1 else "", ", ".join(removed))
        return version


def dense_params(root: Path, codebook: str, nprobe: int, refine: int, segment_clauses: int
                 ) -> dict[str, Any]:
    """As SegmentedWriter.finish records them."""
    import faiss

    index = faiss.read_index(str(codebook_path(root, codebook)))
    return {"kind": "ivfpq", "codebook": codebook, "code_bytes": int(index.code_size),
            "lists": int(index.nlist), "nprobe": nprobe, "refine": refine,
            "segment_clauses": segment_clauses}


def run(store: Any, live: SegmentedLive, to_read: Sequence[tuple[Any, dict[str, Any]]],
        carried_ids: set[str], holders: Callable[[Sequence[str]], list[str | None]] | None,
        embedder: Any, read_document: Any, labeller: Labeller, steps: BuildSteps,
        params: dict[str, Any], workers: int, expected: int, reread: bool = False
        ) -> ShardedReport | None:
    """Build ``to_read`` (documents with their change-detection info, in library order) in
    shards over ``workers`` processes, publishing a checkpoint after each; None when a serial
    build should do it all (module docstring). ``carried_ids``: documents carried unread,
    whose clause ids a shard must not reuse (``holders``: the live version's look-up)."""
    settings = store.segments
    known = [int(d.get("clauses", 0)) for d in live.documents.values()]
    per_document = sum(known) / len(known) if known else DEFAULT_CLAUSES_PER_DOCUMENT
    shards = plan(to_read, settings.segment_clauses, per_document)
    codebook = _live_codebook(store, live)
    if workers <= 1 or len(shards) < 2 or (live.folder is not None and not codebook):
        return None  # (no codebook to share: the live one is of other settings)
    if not sendable(to_read[0][0], embedder, read_document, labeller, steps):
        log.info("A sharded build needs a reader, embedder and document source another process "
                 "can use; building in this process")
        return None
    state = ShardState(store.root, live.folder, store.bm25, codebook,
                       settings.lists or _lists(expected), settings.build_threads,
                       embedder.model_id, embedder, read_document, labeller, steps)
    out = ShardedReport(shards=len(shards))
    remove_staging(store.root)  # left by a build stopped part way (checkpoints prune no segment)
    log.info("Building %d documents in about %d segments over %d worker processes",
             len(to_read), len(shards), workers)
    checkpoints: Checkpoints | None = None
    seen: set[str] = set()
    for result in results(state, to_read, settings.segment_clauses, per_document, workers):
        out.worker_cpu_s += result.cpu_s
        if not result.segment:
            continue
        ids = result.clause_ids
        if any(i in seen for i in ids) or (carried_ids and holders is not None and any(
                h in carried_ids for h in holders(ids))):
            out.stopped = f"shard {result.number} reuses a clause id another document holds"
            log.info("%s; building the rest in this process", out.stopped)
            break
        seen.update(ids)
        if checkpoints is None:
            checkpoints = Checkpoints(store.root, live, params, dense_params(
                store.root, result.codebook, settings.nprobe, settings.refine,
                settings.segment_clauses), reread)
        version = checkpoints.add(result, len(shards))
        out.published += 1
        out.clauses += result.size
        out.parsed += list(result.documents)
        out.notes += result.notes
        out.embedded += result.embedded
        out.embeddings_reused += result.embeddings_reused
        out.terms_extracted += result.terms_extracted
        log.info("Checkpoint %s: segment %d of %d (%d clauses; worker %.0f s, %.0f s of CPU)",
                 version.name, out.published, len(shards), result.size, result.wall_s,
                 result.cpu_s)
    return out


def _live_codebook(store: Any, live: SegmentedLive) -> str:
    """The live version's quantiser when this build may keep encoding with it."""
    if live.folder is None:
        return ""
    from index_builder.index.segmented_build import SegmentedWriter

    return SegmentedWriter(store.root, store.bm25, store.segments, live)._live_codebook()


def _lists(expected: int) -> int:
    from index_builder.index.ivf import lists_for

    return lists_for(max(expected, 1))
