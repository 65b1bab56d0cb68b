"""Knowledge-team curation: marks on clauses and documents and their card labels.

A mark is preferred, approved or deprecated (with a reason and a replacement), on a clause
or on a whole document; a clause's own mark wins over its document's; the latest mark
counts ("cleared" removes it). ``Curation`` reads them for the one SearchPipeline, which
orders each page by them (retrieve/curated.py: deprecated never first, approved lifted a
few places within its LLM rating).
"""

from __future__ import annotations

import csv
import io
import logging
import math
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable, Iterable, Sequence

from index_builder.errors import InvalidRequestError
from index_builder.learn.store import MARKS, Mark, UsageStore
from index_builder.model import Clause

log = logging.getLogger(__name__)

MAX_REASON = 300
MAX_REPLACEMENT = 200
CSV_FIELDS = ("target", "id", "status", "reason", "replacement", "replacement_clause_id")

# Marks are few and change rarely, yet every search's page reads them: a database query per
# search was a tenth of a never-seen search's CPU (issue 39). So each server keeps them all in
# memory and reads only rows added since; marks this process writes show at once, marks
# written by another server or `addin-server curation import` within this many seconds.
MARKS_REFRESH_S = 2.0


class Curation:
    """The effective mark of each clause (its own, else its document's), from the store."""

    def __init__(self, store: UsageStore, refresh_s: float = MARKS_REFRESH_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.refresh_s = refresh_s
        self._clock = clock
        self._lock = threading.Lock()
        # (kind, id) -> ((created, row id), mark): the latest row per target, as current_marks
        # orders them; ``_current`` is the same without "cleared" marks.
        self._latest: dict[tuple[str, str], tuple[tuple[float, int], Mark]] = {}
        self._current: dict[tuple[str, str], Mark] = {}
        self._last_row = 0
        self._read_at = -math.inf
        self._writes = -1

    def marks_for(self, clauses: Sequence[Clause]) -> dict[str, Mark]:
        found = self.current()
        out = {}
        for c in clauses:
            mark = found.get(("clause", c.clause_id)) or found.get(("document", c.doc_id))
            if mark is not None:
                out[c.clause_id] = mark
        return out

    def current(self) -> dict[tuple[str, str], Mark]:
        """Every current mark by (kind, id); rows added since the last read are read first
        when this process wrote marks or ``refresh_s`` has passed. Read-only."""
        now = self._clock()
        if now - self._read_at < self.refresh_s and self._writes == self.store.mark_writes:
            return self._current
        with self._lock:
            if now - self._read_at >= self.refresh_s or self._writes != self.store.mark_writes:
                writes = self.store.mark_writes
                rows = self.store.marks_since(self._last_row)
                for row_id, mark in rows:
                    key = (mark.target_kind, mark.target_id)
                    order = (mark.created, row_id)
                    if key not in self._latest or self._latest[key][0] < order:
                        self._latest[key] = (order, mark)
                    self._last_row = max(self._last_row, row_id)
                if rows or self._read_at == -math.inf:
                    self._current = {k: m for k, (_, m) in self._latest.items()
                                     if m.status != "cleared"}
                self._read_at, self._writes = now, writes
        return self._current


def label(mark: Mark, team: str) -> str:
    """What a card says: "Approved by Knowledge, 2026-11", "Deprecated: use 7.2 of the 2026 MSA"."""
    month = datetime.fromtimestamp(mark.created, timezone.utc).strftime("%Y-%m")
    if mark.status == "deprecated":
        if mark.replacement:
            return f"Deprecated: use {mark.replacement}"
        return f"Deprecated: {mark.reason}" if mark.reason else f"Deprecated by {team}, {month}"
    return f"{mark.status.capitalize()} by {team}, {month}"


def validated(target_kind: str, target_id: str, status: str, reason: str = "",
              replacement: str = "", replacement_clause_id: str = "", by_user: str = "") -> Mark:
    """A Mark from user input, or InvalidRequestError saying what to send."""
    if target_kind not in ("clause", "document"):
        raise InvalidRequestError("A mark is on a 'clause' or a 'document'.")
    if not target_id:
        raise InvalidRequestError("Name the clause (clause_id) the mark is for.")
    if status not in MARKS:
        raise InvalidRequestError(f"'status' must be one of {', '.join(MARKS)}.")
    reason, replacement = reason.strip(), replacement.strip()
    if len(reason) > MAX_REASON or len(replacement) > MAX_REPLACEMENT:
        raise InvalidRequestError(f"Keep the reason under {MAX_REASON} characters and the "
                                  f"replacement under {MAX_REPLACEMENT} (e.g. \"7.2 of the 2026 MSA\").")
    if status == "deprecated" and not (reason or replacement):
        raise InvalidRequestError("Say why it is deprecated, or what to use instead.")
    return Mark(target_kind, target_id, status, reason, replacement, replacement_clause_id.strip(),
                by_user)


def read_csv(text: str, by_user: str) -> list[Mark]:
    """Marks from a CSV with the header ``target,id,status,reason,replacement,replacement_clause_id``.

    Every row is checked before any is kept; errors name the line.
    """
    reader = csv.DictReader(io.StringIO(text))
    missing = [f for f in CSV_FIELDS[:3] if f not in (reader.fieldnames or [])]
    if missing:
        raise InvalidRequestError(f"The CSV needs the columns {', '.join(CSV_FIELDS)} "
                                  f"(missing: {', '.join(missing)}).")
    out, problems = [], []
    for line, row in enumerate(reader, 2):
        try:
            out.append(validated((row.get("target") or "").strip().lower(),
                                 (row.get("id") or "").strip(),
                                 (row.get("status") or "").strip().lower(), row.get("reason") or "",
                                 row.get("replacement") or "",
                                 row.get("replacement_clause_id") or "", by_user))
        except InvalidRequestError as exc:
            problems.append(f"line {line}: {exc.message}")
    if problems:
        raise InvalidRequestError("Nothing was imported. " + "; ".join(problems[:10]))
    return out


@dataclass(frozen=True)
class CardMark:
    """A mark as one viewer may see it (replacement left out when walled off from them)."""

    status: str
    label: str
    reason: str
    replacement: str
    replacement_clause_id: str
    scope: str
    by: str
    month: str

    def to_dict(self) -> dict[str, str]:
        return {"status": self.status, "label": self.label, "reason": self.reason,
                "replacement": self.replacement, "replacement_clause_id": self.replacement_clause_id,
                "scope": self.scope, "by": self.by, "month": self.month}


def card_mark(mark: Mark, team: str, replacement_visible: bool) -> CardMark:
    """The card's view of a mark. A replacement clause the viewer may not see is not named,
    nor is its description (it could describe a walled matter's clause)."""
    if mark.replacement_clause_id and not replacement_visible:
        mark = Mark(mark.target_kind, mark.target_id, mark.status, mark.reason, "", "",
                    mark.by_user, mark.created)
    month = datetime.fromtimestamp(mark.created, timezone.utc).strftime("%Y-%m")
    return CardMark(mark.status, label(mark, team), mark.reason, mark.replacement,
                    mark.replacement_clause_id, mark.target_kind, team, month)


def import_marks(store: UsageStore, rows: Iterable[Mark]) -> int:
    n = store.add_marks(rows)
    log.info("Imported %d curation marks", n)
    return n
