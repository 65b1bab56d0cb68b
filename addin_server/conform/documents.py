"""The lawyer's open documents, read on the server by the clause-reading core, kept by id.

The pane collects what Word gives it (paragraphs: text, number, style, heading, table) and
sends it once per version of the document (POST /api/v1/document); the server reads it with
``index_builder.reading`` (the one reader of parties and terms) and keeps the reading,
the paragraphs with it, for later requests that name the id (/conform, /redraft, Check
document). Entries are the caller's own (keyed by caller and id), expire, and are bounded in
number; nothing of a document is logged or written to disk. With several server processes
(PRECEDENT_WORKERS) the pane's next request may reach another process than the one that
read its document: readings are then also kept in the processes' shared folder, in memory
(/dev/shm) where the system has one, owner-only, and removed when the server stops.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import pickle
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, MutableMapping, Sequence

from index_builder.errors import InvalidRequestError, NotFoundError, TextTooLongError
from index_builder.reading.defined_terms import written_forms
from index_builder.reading.document import Document, headings_in_capitals, read_document, written_terms
from index_builder.reading.paragraphs import Paragraph, from_pane
from index_builder.settings import ConformSettings
from addin_server.conform.model import document_from_summary

log = logging.getLogger(__name__)

EXTENSION = "precedent_documents"
_FIELDS = {"index": int, "text": str, "listString": str, "style": str, "isHeading": bool, "inTable": bool}


class DocumentNotReadError(NotFoundError):
    """A request named a document the server no longer holds (expired, or the server restarted)."""

    code = "document_not_read"


@dataclass(frozen=True)
class ReadDocument:
    id: str
    document: Document
    paragraphs: tuple[Paragraph, ...]


class DocumentCache:
    """Read documents by (caller, id): least recently used first out, each for ``ttl_s``."""

    def __init__(self, capacity: int, ttl_s: float, shared: Path | None = None) -> None:
        self._items: OrderedDict[tuple[str, str], tuple[float, ReadDocument]] = OrderedDict()
        self._capacity, self._ttl_s = capacity, ttl_s
        self._lock = threading.Lock()
        # The worker processes' shared folder (web/prefork.py), or None for one process.
        self._shared = Path(shared) / "documents" if shared else None
        if self._shared is not None:
            self._shared.mkdir(mode=0o700, exist_ok=True)

    def put(self, caller: str, read: ReadDocument) -> None:
        with self._lock:
            self._items[(caller, read.id)] = (time.monotonic(), read)
            self._items.move_to_end((caller, read.id))
            while len(self._items) > self._capacity:
                self._items.popitem(last=False)
        if self._shared is not None:
            self._share(caller, read)

    def get(self, caller: str, doc_id: str) -> ReadDocument | None:
        with self._lock:
            found = self._items.get((caller, doc_id))
            if found is not None and time.monotonic() - found[0] <= self._ttl_s:
                self._items.move_to_end((caller, doc_id))
                return found[1]
            self._items.pop((caller, doc_id), None)
        return self._shared_reading(caller, doc_id) if self._shared is not None else None

    # -- across worker processes: one file per reading, written whole, read back by any --------
    def _file(self, caller: str, doc_id: str) -> Path:
        assert self._shared is not None
        key = hashlib.sha256(f"{caller}\0{doc_id}".encode("utf-8", "surrogatepass")).hexdigest()
        return self._shared / f"{key}.pickle"

    def _share(self, caller: str, read: ReadDocument) -> None:
        path = self._file(caller, read.id)
        temporary = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
        with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as out:
            pickle.dump((caller, read), out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)  # another process sees the whole reading or none
        readings = sorted(self._shared.glob("*.pickle"), key=_modified)
        for stale in readings[:max(0, len(readings) - self._capacity)]:
            stale.unlink(missing_ok=True)

    def _shared_reading(self, caller: str, doc_id: str) -> ReadDocument | None:
        path = self._file(caller, doc_id)
        try:
            if time.time() - path.stat().st_mtime > self._ttl_s:
                path.unlink(missing_ok=True)
                return None
            with open(path, "rb") as held:
                # Written by this server's own processes only, in a folder only they can read.
                owner, read = pickle.load(held)
            os.utime(path)  # used: the last to go when the folder is over capacity
        except (OSError, EOFError, pickle.UnpicklingError):
            return None
        if owner != caller or read.id != doc_id:
            return None
        with self._lock:
            self._items[(caller, doc_id)] = (time.monotonic(), read)
        return read


def cache_of(extensions: MutableMapping[str, Any], settings: ConformSettings,
             shared: Path | None = None) -> DocumentCache:
    """The app's document cache (made on first use); ``shared``: the worker processes' folder."""
    if EXTENSION not in extensions:
        extensions[EXTENSION] = DocumentCache(settings.document_cache, settings.document_ttl_s, shared)
    return extensions[EXTENSION]


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def document_id(paragraphs: Sequence[Paragraph]) -> str:
    """Names one version of a document: its paragraphs' hash."""
    canonical = json.dumps([[p.index, p.text, p.number, p.style, p.is_heading, p.in_table] for p in paragraphs],
                           ensure_ascii=False, separators=(",", ":"))
    return "doc-" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:32]


def paragraphs_from(raw: Any, settings: ConformSettings) -> list[Paragraph]:
    """``paragraphs`` as the pane sends them, checked: a wrong shape or a document over the
    limits is a clear error that says what to do."""
    if not isinstance(raw, list) or not raw:
        raise InvalidRequestError('Send "paragraphs": the document\'s paragraphs as the pane reads them, '
                                  '[{"index": 0, "text": "...", "listString": "", "style": "", "isHeading": false, '
                                  '"inTable": false}, ...].')
    if len(raw) > settings.document_max_paragraphs:
        log.warning("Document refused: %d paragraphs over PRECEDENT_CONFORM_DOCUMENT_MAX_PARAGRAPHS (%d)",
                    len(raw), settings.document_max_paragraphs)
        raise TextTooLongError(f"Your document has {len(raw):,} paragraphs; Precedent reads documents of up to "
                               f"{settings.document_max_paragraphs:,} paragraphs {_WHAT_TO_DO}")
    chars = 0
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("text"), str) or any(
                key in item and not _is(item[key], kind) for key, kind in _FIELDS.items()):
            raise InvalidRequestError('Each paragraph must be {"index": a whole number, "text": a string, '
                                      '"listString": a string, "style": a string, "isHeading": true/false, '
                                      '"inTable": true/false}.')
        chars += len(item["text"])
    if chars > settings.document_max_chars:
        raise TextTooLongError(too_long(chars, settings))
    return from_pane(raw)


# The lawyer reads the limit and what to do; the setting that sets it is named to IT, in the
# log. (The pane adds ", so the precedent was not conformed. Use Insert as is, or try again.")
_WHAT_TO_DO = ("(use a shorter copy of your document, with its definitions, or ask IT to raise the limit). "
               "Its parties and terms were not read.")


def too_long(chars: int | None, settings: ConformSettings) -> str:
    """The lawyer's message for a document over the limit (``chars`` None: only its size in bytes
    is known, a body refused before it was read)."""
    log.warning("Document refused: %s characters over PRECEDENT_CONFORM_DOCUMENT_MAX_CHARS (%d)",
                "more" if chars is None else chars, settings.document_max_chars)
    has = f"has {chars:,} characters" if chars is not None else "is longer than that"
    return (f"Your document {has}; Precedent reads documents of up to {settings.document_max_chars:,} "
            f"characters {_WHAT_TO_DO}")


def _is(value: Any, kind: type) -> bool:
    return isinstance(value, kind) and not (kind is int and isinstance(value, bool))


def read(paragraphs: Sequence[Paragraph]) -> ReadDocument:
    return ReadDocument(document_id(paragraphs), read_document(paragraphs), tuple(paragraphs))


def resolve(value: Any, cache: DocumentCache, caller: str, settings: ConformSettings) -> ReadDocument | None:
    """The document a request names: {"id"} (read before), {"paragraphs"} (read now), a
    summary an API client read itself, or nothing (None)."""
    if value is None:
        return None
    if isinstance(value, Mapping) and "paragraphs" in value:
        found = read(paragraphs_from(value["paragraphs"], settings))
        cache.put(caller, found)
        return found
    if isinstance(value, Mapping) and "id" in value:
        doc_id = value["id"]
        found = cache.get(caller, doc_id) if isinstance(doc_id, str) else None
        if found is None:
            raise DocumentNotReadError("The server no longer holds your document (it keeps it for a while after "
                                       "the pane sends it). The pane sends it again; if you called the API, "
                                       'POST /api/v1/document with its "paragraphs" first.')
        return found
    summary = document_from_summary(value, settings.max_definitions, settings.max_sections)
    return ReadDocument("", summary, ())


def profile_json(read: ReadDocument) -> dict[str, Any]:
    """What the pane shows of the server's reading: terms, parties, sections (no other text).
    ``terms``: every term the document writes, as it writes it (definitions, parties, what it
    calls itself, capitalised terms its sentences use): the capitals an all-capitals precedent
    keeps when Insert puts it in sentence case (the pane reads no terms itself); ``forms``: each
    term's plural and possessive forms as the core reads them."""
    doc = read.document
    terms = written_terms(read.paragraphs, doc)
    return {
        "id": read.id,
        "definitions": [{"term": d.term, "section": d.section, "index": d.index, "how": d.how} for d in doc.definitions],
        "parties": [{"name": p.name, "role": p.role.side if p.role else None, "how": p.how} for p in doc.parties],
        "sections": [{"number": s.number, "heading": s.heading, "index": s.index} for s in doc.sections],
        "reference_word": doc.reference_word,
        "self_name": doc.self_name,
        "terms": terms,
        # Each term's forms as the core reads its uses (plural, possessive): what Insert restores,
        # longest first; the pane reads no endings itself.
        "forms": {term: written_forms(term) for term in terms},
        "paragraphs": len(read.paragraphs),
        # Headings set in capitals (their paragraphs' index): following the cursor skips them
        # before any request; the pane tells no heading by its capitals itself.
        "headings": headings_in_capitals(read.paragraphs),
    }
