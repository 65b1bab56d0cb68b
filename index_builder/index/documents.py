"""The library's documents: found in the folders given, named by stable ids, read into clauses.

Apart from build.py because the DMS sources (sources/sync.py), the scale benchmarks and the
embedding benchmarks find and read documents exactly as a build does, without building.
``_parse`` is the one place a document becomes clauses during a build (in a worker process
when the build has several; a DMS document streamed into a private folder first).
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from index_builder.errors import DataNotFoundError, DocumentError
from index_builder.ingest.policy import Access
from index_builder.model import Clause

if TYPE_CHECKING:
    from index_builder.index.build import BuildReport

ReadClauses = Callable[[Path, str, str], list[Clause]]


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
