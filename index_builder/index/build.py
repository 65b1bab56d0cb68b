"""Build or update an index from a BEIR corpus and/or folders of contracts, incrementally."""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import numpy as np
from tqdm import tqdm

from index_builder.errors import DataNotFoundError, DocumentError, NothingIndexableError
from index_builder.index import open_store
from index_builder.index.backend import IndexStore, PreviousVersion, VersionData
from index_builder.index.embedded import text_key as _text_key
from index_builder.index.embedder import Embedder
from index_builder.index.labels import Labeller
from index_builder.index.lock import build_lock
from index_builder.index.store import FORMAT_VERSION
from index_builder.model import Clause
from index_builder.settings import Settings

log = logging.getLogger(__name__)

ReadClauses = Callable[[Path, str, str], list[Clause]]


@dataclass
class BuildReport:
    """What a build did, for the summary printed to firm IT."""

    documents: int = 0
    clauses: int = 0
    parsed: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    # What the readers left out of a document's text, e.g. invisible runs: (path, note).
    notes: list[tuple[str, str]] = field(default_factory=list)
    embedded: int = 0
    embeddings_reused: int = 0
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

    return read_clauses(path, doc_id, source_path, notes=notes)


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


def build_index(settings: Settings, sources: list[Path], embedder: Embedder,
                read_document: ReadClauses | None = None, progress: bool = True,
                store: IndexStore | None = None) -> BuildReport:
    """Build a new index version from sources, reusing what the previous version has."""
    with build_lock(settings.index_dir):
        return _build(settings, sources, embedder, read_document, progress,
                      store or open_store(settings))


def _build(settings: Settings, sources: list[Path], embedder: Embedder,
           read_document: ReadClauses | None, progress: bool, store: IndexStore) -> BuildReport:
    started = time.perf_counter()
    previous = store.previous(embedder.model_id)
    report = BuildReport()
    clauses: list[Clause] = []
    documents: dict[str, dict[str, Any]] = {}
    seen_ids: set[str] = set()
    labeller = Labeller.from_settings(settings, previous.params)
    # A changed metadata file re-reads every document (texts, hence vectors, are reused).
    reread = previous.params.get("metadata_file") != labeller.params()["metadata_file"]
    found = discover(sources, settings.follow_links, report)
    for source in tqdm(found, desc="Reading", unit="doc", disable=not progress):
        doc_clauses, info = _read_source(source, previous, read_document, report, reread)
        if doc_clauses is None:
            continue
        fresh = _unseen(doc_clauses, seen_ids)
        if len(fresh) < len(doc_clauses):
            log.warning("%s: %d clauses dropped because their ids were already used; give "
                        "them unique ids", source.path, len(doc_clauses) - len(fresh))
        clauses.extend(labeller.label(fresh, source.kind, source.relative))
        documents[source.doc_id] = {**info, "clauses": len(fresh)}
    if not clauses:
        # Nothing to serve: keep the live version rather than replace it with an empty one.
        skipped = "; ".join(f"{p} ({r})" for p, r in report.skipped[:20]) or "no .docx, .txt or .md files"
        raise NothingIndexableError(
            f"Nothing indexable was found in {', '.join(str(s) for s in sources)}: {skipped}. "
            f"The live index is unchanged; add readable contracts and build again.")
    report.removed = sorted(set(previous.documents) - set(documents))
    embeddings = _embeddings(clauses, embedder, previous.vectors, report, progress)
    report.documents, report.clauses = len(documents), len(clauses)
    if _unchanged(previous, report, settings, embedder.model_id, len(clauses), labeller.params()):
        # Nothing to write: a new version would only make every server reload for nothing.
        report.version = previous.version
        report.seconds = time.perf_counter() - started
        return report
    params = {
        "format_version": FORMAT_VERSION,
        "embedding_model": embedder.model_id,
        "dimension": int(embedder.dimension),
        "clauses": len(clauses),
        "documents": len(documents),
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "bm25": asdict(settings.bm25),
        "skipped": [{"path": p, "reason": r} for p, r in report.skipped],
        **labeller.params(),
    }
    report.version = store.write(VersionData(params, clauses, documents, embeddings))
    report.seconds = time.perf_counter() - started
    return report


def _unchanged(previous: PreviousVersion, report: BuildReport, settings: Settings, model_id: str,
               clause_count: int, labels: dict[str, Any]) -> bool:
    """True when the live version already is what this build would write."""
    params = previous.params
    return bool(previous.version) and not (report.parsed or report.removed or report.embedded) \
        and params.get("embedding_model") == model_id and params.get("clauses") == clause_count \
        and params.get("bm25") == asdict(settings.bm25) \
        and params.get("skipped") == [{"path": p, "reason": r} for p, r in report.skipped] \
        and all(params.get(key) == value for key, value in labels.items())


def _read_source(source: SourceDocument, previous: PreviousVersion, read_document: ReadClauses | None,
                 report: BuildReport, reread: bool = False) -> tuple[list[Clause] | None, dict[str, Any]]:
    try:
        digest = _file_digest(source.path)
    except OSError as exc:
        report.skipped.append((str(source.path), f"cannot read file: {exc.strerror}"))
        return None, {}
    info = {"path": str(source.path), "sha256": digest, "kind": source.kind}
    old = previous.documents.get(source.doc_id)
    if old and old.get("sha256") == digest and source.doc_id in previous.clauses_by_doc \
            and not reread:
        report.reused.append(source.doc_id)
        return previous.clauses_by_doc[source.doc_id], info
    try:
        if source.kind == "beir":
            clauses = read_beir_corpus(source.path, source.doc_id)
        else:
            notes: list[str] = []
            if read_document is None:
                clauses = _read_contract(source.path, source.doc_id, str(source.path), notes)
            else:
                clauses = read_document(source.path, source.doc_id, str(source.path))
            report.notes.extend((str(source.path), note) for note in notes)
    except DocumentError as exc:
        log.warning("Skipped %s: %s", source.path, exc.message)
        report.skipped.append((str(source.path), exc.message))
        return None, {}
    report.parsed.append(source.doc_id)
    return [c for c in clauses if c.text.strip()], info


def _unseen(clauses: list[Clause], seen: set[str]) -> list[Clause]:
    """Clauses whose id is new, also within this list; ``seen`` is updated."""
    fresh = []
    for clause in clauses:
        if clause.clause_id not in seen:
            seen.add(clause.clause_id)
            fresh.append(clause)
    return fresh


def _embeddings(clauses: list[Clause], embedder: Embedder, cached: dict[str, np.ndarray],
                report: BuildReport, progress: bool) -> np.ndarray:
    """Vectors for every clause, embedding only texts the previous version did not have."""
    keys = [_text_key(c.text) for c in clauses]
    missing = sorted({k: c.text for k, c in zip(keys, clauses) if k not in cached}.items())
    vectors = dict(cached)
    if missing:
        log.info("Embedding %d new clause texts with %s", len(missing), embedder.model_id)
    with tqdm(total=len(missing), desc="Embedding", unit="clause",
              disable=not progress or not missing) as bar:
        for batch in _batches(missing, 256):
            embedded = embedder.embed([text for _, text in batch])
            vectors.update({k: v for (k, _), v in zip(batch, embedded)})
            bar.update(len(batch))
    report.embedded = len(missing)
    report.embeddings_reused = sum(1 for k in keys if k in cached)
    if not clauses:
        return np.zeros((0, embedder.dimension), dtype=np.float32)
    return np.stack([vectors[k] for k in keys]).astype(np.float32)


def _batches(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as data:
        for block in iter(lambda: data.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
