"""`addin-server feedback ...` and `addin-server curation import`: IT's side of issue 27.

    addin-server feedback delete --user alice@firm.example   # a data-subject request
    addin-server feedback purge [--days N]                    # retention (cron it daily)
    addin-server feedback export --out events.jsonl           # training rows, no text
    addin-server feedback stats
    addin-server curation import marks.csv --by km@firm.example

Each command that changes data writes an audit line (route ``cli:feedback-delete`` ...), so
the trail shows who removed whose events and who imported which marks.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any, Iterable

from index_builder.errors import ConfigError
from index_builder import extras
from index_builder.settings import Settings, load_settings

log = logging.getLogger(__name__)


def add_parser(sub: Any) -> None:
    feedback = sub.add_parser("feedback", help="usage events: delete a user's, purge old, export")
    feedback.add_argument("--index", type=Path, help="index folder (the database sits beside it)")
    kinds = feedback.add_subparsers(dest="action", required=True)
    delete = kinds.add_parser("delete", help="delete every event and shown list of one user")
    delete.add_argument("--user", required=True, help="the user's UPN as the audit trail names them")
    purge = kinds.add_parser("purge", help="delete what is older than the retention period")
    purge.add_argument("--days", type=int, help="default PRECEDENT_FEEDBACK_RETENTION_DAYS")
    export = kinds.add_parser("export", help="shown lists with events as JSON Lines (no text)")
    export.add_argument("--out", type=Path, required=True)
    kinds.add_parser("stats", help="how many lists, events and marks are stored")
    feedback.set_defaults(handler=run_feedback)

    curation = sub.add_parser("curation", help="knowledge-team marks: import a CSV")
    curation.add_argument("--index", type=Path, help="index folder (the database sits beside it)")
    actions = curation.add_subparsers(dest="action", required=True)
    imported = actions.add_parser("import", help="marks from a CSV: target,id,status,reason,"
                                  "replacement,replacement_clause_id")
    imported.add_argument("csv", type=Path)
    imported.add_argument("--by", required=True, help="the knowledge-team member responsible (UPN)")
    curation.set_defaults(handler=run_curation)


def _open(args: argparse.Namespace) -> tuple[Settings, Any]:
    from index_builder.learn.store import UsageStore

    settings = load_settings(overrides={"index_dir": args.index})
    extras.require_all(extras.for_settings(settings, index=False, usage=True),
                       f"addin-server {getattr(args, 'command', 'feedback')}")
    return settings, UsageStore.open(settings)


def run_feedback(args: argparse.Namespace, out: Any = None) -> int:
    out = out or sys.stdout
    settings, store = _open(args)
    try:
        counts = _feedback(args, settings, store)
    finally:
        store.close()  # a server database's pooled connections
    out.write(json.dumps(counts) + "\n")
    return 0


def _feedback(args: argparse.Namespace, settings: Settings, store: Any) -> dict[str, int]:
    if args.action == "delete":
        counts = store.delete_user(args.user)
        _audit(settings, "cli:feedback-delete", args.user, ())
    elif args.action == "purge":
        counts = store.purge(args.days or settings.learning.retention_days)
        _audit(settings, "cli:feedback-purge", "cli", ())
    elif args.action == "export":
        counts = {"lists": store.export(args.out)}
        _audit(settings, "cli:feedback-export", "cli", ())
    else:
        counts = store.counts()
    return counts


def run_curation(args: argparse.Namespace, out: Any = None) -> int:
    from index_builder.learn.curation import import_marks, read_csv

    out = out or sys.stdout
    if not args.csv.is_file():
        raise ConfigError(f"No CSV at {args.csv}.")
    settings, store = _open(args)
    marks = read_csv(args.csv.read_text(encoding="utf-8-sig"), args.by)
    _check_ids(settings, [m.target_id for m in marks if m.target_kind == "clause"]
               + [m.replacement_clause_id for m in marks if m.replacement_clause_id])
    try:
        n = import_marks(store, marks)
    finally:
        store.close()
    _audit(settings, "cli:curation-import", args.by, [m.target_id for m in marks])
    out.write(json.dumps({"imported": n}) + "\n")
    return 0


def _check_ids(settings: Settings, clause_ids: list[str]) -> None:
    """Every clause id the CSV names must exist in the live index (a typo is not a mark)."""
    if not clause_ids:
        return
    from index_builder.index import open_store

    backend = open_store(settings).open()
    try:
        found = backend.get(clause_ids)
    finally:
        close = getattr(backend, "close", None)
        if close:
            close()
    missing = [cid for cid, c in zip(clause_ids, found) if c is None]
    if missing:
        raise ConfigError(f"Nothing was imported: unknown clause id(s) {', '.join(missing[:10])}.")


def _audit(settings: Settings, route: str, user: str, ids: Iterable[str]) -> None:
    if not settings.audit.enabled:
        return
    from addin_server.web.audit import AuditLog, audit_path, entry

    trail = AuditLog(audit_path(settings), settings.audit)
    try:
        trail.write(entry(user=user, auth="cli", method="CLI", route=route, status=0,
                          index_version="", requested_ids=ids))
    finally:
        trail.close()
