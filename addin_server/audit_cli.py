"""`addin-server audit`: questions over the audit trail (addin_server/web/audit.py).

    addin-server audit clause ID [--since D] [--until D]   who saw (or asked for) clause ID
    addin-server audit user NAME --since D [--until D]     what NAME retrieved in that period
    addin-server audit query "TEXT" [--since D]            who searched for exactly TEXT

A query is matched by its keyed hash (``query_hmac``, with the deployment's key:
PRECEDENT_AUDIT_KEY or its key file) and, in trails written before the key, by its plain
SHA-256 (``query_sha256``).

Dates are ISO (``2026-11-23`` or ``2026-11-23T14:00``, UTC); a bare ``--until`` date includes
that whole day. The trail's rotated files are read too. ``--json`` prints the matching lines.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import dataclass
from datetime import datetime, time, timedelta, timezone
from pathlib import Path
from typing import Any, Iterable, Iterator, TextIO

from index_builder.errors import DataNotFoundError, InvalidRequestError
from index_builder.settings import load_settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Period:
    since: datetime | None = None
    until: datetime | None = None  # exclusive

    def holds(self, when: datetime) -> bool:
        return (self.since is None or when >= self.since) and (self.until is None or when < self.until)


def add_parser(sub: Any) -> None:
    """Register `audit` on the addin-server command line."""
    audit = sub.add_parser("audit", help="who saw a clause, what a user retrieved (the audit trail)")
    audit.add_argument("--file", type=Path, help="audit file (default PRECEDENT_AUDIT_FILE, or "
                       "audit/audit.jsonl beside the index folder)")
    audit.add_argument("--json", action="store_true", help="print the matching audit lines as JSON")
    kinds = audit.add_subparsers(dest="question", required=True)
    clause = kinds.add_parser("clause", help="who received or asked for a clause id")
    clause.add_argument("clause_id")
    user = kinds.add_parser("user", help="what a user (UPN, object id or service account) retrieved")
    user.add_argument("user")
    query = kinds.add_parser("query", help="who sent exactly this text (matched by its keyed hash; "
                             "needs the deployment's audit key)")
    query.add_argument("text")
    for parser in (clause, user, query):
        parser.add_argument("--since", help="from this date/time (UTC), e.g. 2026-11-01")
        parser.add_argument("--until", help="up to this date (whole day) or date/time (UTC)")
    user.set_defaults(needs_since=True)
    audit.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    path = args.file or _default_path()
    period = Period(_moment(args.since, "--since"), _moment(args.until, "--until", end=True))
    if getattr(args, "needs_since", False) and period.since is None:
        raise InvalidRequestError("Give --since (and optionally --until) for a user's retrievals.")
    lines = list(read_entries(path, period))
    if args.question == "clause":
        found = who_saw(lines, args.clause_id)
    elif args.question == "user":
        found = retrieved_by(lines, args.user)
    else:
        found = sent(lines, args.text)
    if args.json:
        for item in found:
            out.write(json.dumps(item, ensure_ascii=False) + "\n")
    else:
        _table(found, args, out)
    return 0


def sent(entries: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """Entries whose query or an example was exactly ``text``: keyed hashes (``query_hmac``)
    need the deployment's key; older lines (``query_sha256``) are matched by plain SHA-256."""
    from addin_server.web.audit_key import keyed_hash, plain_hash, query_key

    plain = plain_hash(text)
    keyed = None
    if any("query_hmac" in e or e.get("example_hmac") for e in entries):
        keyed = keyed_hash(query_key(load_settings(), create=False), text)
    return [e for e in entries
            if (keyed is not None and (e.get("query_hmac") == keyed or keyed in (e.get("example_hmac") or [])))
            or e.get("query_sha256") == plain or plain in (e.get("example_sha256") or [])]


def _default_path() -> Path:
    from addin_server.web.audit import audit_path

    return audit_path(load_settings())


def read_entries(path: Path, period: Period = Period()) -> Iterator[dict[str, Any]]:
    """Entries of the trail and its rotated files within ``period``, oldest first."""
    files = trail_files(path)
    if not files:
        raise DataNotFoundError(f"No audit trail at {path}: check PRECEDENT_AUDIT_FILE or --file.")
    entries = []
    for file in files:
        with open(file, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    item = json.loads(line)
                    when = _parse_time(item["time"])
                except (ValueError, KeyError, TypeError):
                    log.warning("%s line %d is not an audit entry; skipped.", file.name, number)
                    continue
                if period.holds(when):
                    entries.append((when, item))
    entries.sort(key=lambda pair: pair[0])
    return (item for _, item in entries)


def trail_files(path: Path) -> list[Path]:
    """The file and its rotations (audit.jsonl, audit.jsonl.1, audit.jsonl.2026-11-22, ...)."""
    folder = path.parent
    if not folder.is_dir():
        return []
    found = [p for p in folder.iterdir()
             if p.is_file() and (p.name == path.name or p.name.startswith(path.name + "."))]

    def age(file: Path) -> tuple[int, int, str]:  # oldest first: .3, .2, .1 / dates, then current
        suffix = file.name[len(path.name) + 1:]
        if not suffix:
            return (2, 0, "")
        return (0, -int(suffix), "") if suffix.isdigit() else (1, 0, suffix)

    return sorted(found, key=age)


def who_saw(entries: Iterable[dict[str, Any]], clause_id: str) -> list[dict[str, Any]]:
    """Entries whose response returned the clause, or whose request named it (any status)."""
    return [e for e in entries
            if clause_id in (e.get("clause_ids") or []) or clause_id in (e.get("requested_ids") or [])]


def retrieved_by(entries: Iterable[dict[str, Any]], user: str) -> list[dict[str, Any]]:
    wanted = user.casefold()
    return [e for e in entries
            if wanted in (str(e.get("user", "")).casefold(), str(e.get("oid", "")).casefold())]


def _table(found: list[dict[str, Any]], args: argparse.Namespace, out: TextIO) -> None:
    if not found:
        out.write("No matching audit entries.\n")
        return
    for e in found:
        ids = e.get("clause_ids") or []
        asked = e.get("requested_ids") or []
        detail = f"{len(ids)} returned" + (f", asked for {', '.join(asked)}" if asked else "")
        if args.question == "clause":
            how = "returned" if args.clause_id in ids else f"asked (status {e.get('status')})"
            detail = how
        out.write(f"{e['time']}  {e.get('user', '?'):<32}  {e.get('method', '')} {e.get('route', '')}"
                  f"  {e.get('status', '')}  {detail}\n")
    if args.question == "user":
        seen = list(dict.fromkeys(cid for e in found for cid in e.get("clause_ids") or []))
        out.write(f"{len(found)} calls; {len(seen)} distinct clauses returned:\n")
        for cid in seen:
            out.write(f"  {cid}\n")
    else:
        users = sorted({str(e.get("user", "?")) for e in found})
        out.write(f"{len(found)} calls by {len(users)} user(s): {', '.join(users)}\n")


def _moment(text: str | None, option: str, end: bool = False) -> datetime | None:
    if not text:
        return None
    try:
        if len(text.strip()) == 10:  # a bare date
            day = datetime.fromisoformat(text.strip()).date()
            return datetime.combine(day + timedelta(days=1) if end else day, time(), timezone.utc)
        return _parse_time(text.strip())
    except ValueError:
        raise InvalidRequestError(f"{option} must be a date like 2026-11-23 or 2026-11-23T14:00, "
                                  f"got {text!r}.") from None


def _parse_time(text: str) -> datetime:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
