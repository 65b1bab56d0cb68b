"""`precedent-bench drafting`: the drafting set through POST /redraft, scored outside the code.

For each task of benchmarks/sets/drafting/ (one half: tuning or held-out) this builds the
request the pane sends to /redraft — the lawyer's clause, the instruction, the ticked
precedents by id, the open document's parties and defined terms — and sends it to the real
Flask app (its test client) over a small index holding the set's precedents. The language
model is a scripted OpenAI-compatible server on loopback (addin_server/llm/scripted.py):

* **checks**: each planted draft (sound and broken) is the model's answer to a request that
  asks for the model (``producer: "model"``); the response's run-time checks are kept;
* **operations**: the same request asking for a drafting operation (``producer:
  "operation"``); where the server accepts, its draft, what it says it did and did not do,
  and its checks are kept for a lawyer to judge (``operations.jsonl``).

Nothing of a task's labels goes into a request: the scoring (precedent_bench/drafting/drafting_score.py)
reads the labels after the answers are in. The index uses a hashing embedder: /redraft with
chosen precedents never searches.

    precedent-bench drafting --split tuning --out benchmarks/results/drafting/tuning
    precedent-bench drafting --tasks path/to/a.jsonl path/to/b.jsonl --out DIR
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from precedent_bench.catalogue import subparser

log = logging.getLogger(__name__)

SET_DIR = Path("benchmarks/sets/drafting")
SPLITS = {"tuning": "tuning.jsonl", "held-out": "heldout.jsonl"}
HALVES = ("a", "b")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = subparser(sub, __name__)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--split", choices=tuple(SPLITS),
                       help="tuning, or held-out, of the set in --set (its a- and b- halves)")
    which.add_argument("--tasks", type=Path, nargs="+", metavar="PATH",
                       help="any task file(s) of the drafting schema (JSON lines), read in the order "
                            "given: e.g. a fresh tranche, run once")
    p.add_argument("--set", type=Path, default=SET_DIR, help=f"the set's folder (default {SET_DIR})")
    p.add_argument("--task", action="append", help="only tasks whose id starts with this (repeatable)")
    p.add_argument("--out", type=Path, help="write summary.json, drafts.jsonl, operations.jsonl, "
                                            "report.md here")
    p.add_argument("--blind", type=Path, help="also write the accepted operations without any label "
                                              "(clause, instruction, draft, the lines shown) for a blind reviewer")


# --- the set ----------------------------------------------------------------------------------

def split_files(set_dir: Path, split: str) -> list[Path]:
    """The task files of one split of a set: its a- and b- halves."""
    paths = [set_dir / f"{half}-{SPLITS[split]}" for half in HALVES]
    for path in paths:
        if not path.is_file():
            raise FileNotFoundError(f"no {path}: run from the repository root or give --set")
    return paths


def load_tasks(paths: Sequence[Path], only: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Every task of the given files, in file order. Each row must carry the schema's fields
    the benchmark sends (clause, instruction, precedents, drafts); a task id seen twice is an
    error (the scorer keys drafts by id)."""
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for path in paths:
        if not path.is_file():
            raise FileNotFoundError(f"no task file {path}")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            row = json.loads(line)
            missing = [k for k in ("task_id", "clause", "instruction", "precedents", "drafts", "parts")
                       if k not in row]
            if missing:
                raise ValueError(f"{path}:{n}: not a drafting task (no {', '.join(missing)})")
            if row["task_id"] in seen:
                raise ValueError(f"{path}:{n}: task id {row['task_id']} seen twice")
            seen.add(row["task_id"])
            if not only or any(row["task_id"].startswith(o) for o in only):
                rows.append(row)
    return rows


def precedent_ids(tasks: Sequence[dict[str, Any]]) -> dict[tuple[str, int], str]:
    """An index id for each (task, precedent number): the corpus id, or the id with the task's
    when two tasks quote different excerpts of one clause."""
    texts: dict[str, set[str]] = {}
    for task in tasks:
        for p in task["precedents"]:
            texts.setdefault(p["clause_id"], set()).add(p["text"])
    out = {}
    for task in tasks:
        for n, p in enumerate(task["precedents"], 1):
            cid = p["clause_id"]
            out[(task["task_id"], n)] = cid if len(texts[cid]) == 1 else f"{cid}~{task['task_id']}"
    return out


def request_body(task: dict[str, Any], ids: dict[tuple[str, int], str], producer: str) -> dict[str, Any]:
    """The body the pane sends: clause, instruction, ticked precedents, the document's summary
    (its parties and defined terms, as conform-view.js's summary() gives them)."""
    doc = task.get("document") or {}
    terms = [t for t in doc.get("terms") or [] if isinstance(t, str) and t]
    parties = [p for p in doc.get("parties") or [] if isinstance(p, str) and p]
    body: dict[str, Any] = {
        "text": task["clause"],
        "instructions": task["instruction"],
        # An empty list: the lawyer ticked none (the API then redrafts on the clause alone).
        "clause_ids": [ids[(task["task_id"], n)] for n in range(1, len(task["precedents"]) + 1)],
        "producer": producer,
    }
    if terms or parties:
        body["document"] = {"definitions": [{"term": t} for t in terms], "parties": parties}
        body["document_terms"] = terms
    return body


# --- the product, on loopback -------------------------------------------------------------------

class HashingEmbedder:
    """Bag of hashed words: builds the small precedent index without loading a model. /redraft
    with chosen precedents reads them by id and never searches, so retrieval quality is moot."""

    model_id = "bench-hashing"
    dimension = 64

    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"[a-z]+", text.lower()):
                out[row, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dimension] += 1.0
            norm = float(np.linalg.norm(out[row]))
            out[row] /= norm or 1.0
        return out


class Answers:
    """The scripted model's responder: the planted draft for the request in flight."""

    def __init__(self) -> None:
        self.next: str | None = None
        self.calls = 0

    def __call__(self, body: dict[str, Any]) -> Any:
        from addin_server.llm.scripted import Reply

        self.calls += 1
        if self.next is None:
            return Reply(content="(the benchmark planted no draft for this call)")
        return Reply(content=self.next)


def open_app(tasks: Sequence[dict[str, Any]], ids: dict[tuple[str, int], str], root: Path,
             llm_url: str) -> tuple[Any, Any]:
    """The real Flask app over an index of the tasks' precedents; (app, service)."""
    from addin_server.service import build_service
    from addin_server.web.app import create_app
    from index_builder.index.build import build_index
    from index_builder.settings import LLMSettings, load_settings

    corpus = root / "precedents"
    corpus.mkdir(parents=True)
    seen: dict[str, str] = {}
    for task in tasks:
        for n, p in enumerate(task["precedents"], 1):
            seen.setdefault(ids[(task["task_id"], n)], p["text"])
    if not seen:  # an index needs one clause
        seen["bench-empty"] = "This clause is here so that the index is not empty."
    (corpus / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": cid, "text": text, "title": "Precedent"}) + "\n" for cid, text in seen.items()),
        encoding="utf-8")
    overrides = {"index_dir": root / "index", "rerank.cross_encoder": "", "rerank.default": "off",
                 "server.rate_limit": "off", "server.redraft_rate_limit": "off",
                 "server.max_text_chars": 20_000, "server.max_instructions_chars": 2_000}
    settings = load_settings({}, overrides)
    embedder = HashingEmbedder()
    build_index(settings, [corpus], embedder, progress=False)
    settings = replace(settings, llm=LLMSettings(
        base_url=llm_url, api_key="scripted", rerank_model="scripted", redraft_model="scripted",
        max_attempts=1, request_timeout_s=30.0, deadline_s=60.0))
    service = build_service(settings, embedder=embedder)
    app = create_app(settings, service)
    app.config["TESTING"] = True
    return app, service


def index_texts_match(service: Any, tasks: Sequence[dict[str, Any]], ids: dict[tuple[str, int], str]) -> None:
    """The index gives back each precedent's text exactly as the set quotes it."""
    for task in tasks:
        for n, p in enumerate(task["precedents"], 1):
            got = service.clauses([ids[(task["task_id"], n)]])
            if not got or got[0].text.strip() != p["text"].strip():
                raise RuntimeError(f"{task['task_id']} precedent [{n}]: the index does not give back its text")


# --- running ----------------------------------------------------------------------------------

def ask(tasks: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(one row per planted draft, one row per task's operation request), answers only."""
    from addin_server.llm.scripted import ScriptedLLMServer

    ids = precedent_ids(tasks)
    answers = Answers()
    drafts: list[dict[str, Any]] = []
    operations: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="drafting-bench-") as tmp, ScriptedLLMServer(answers) as llm:
        app, service = open_app(tasks, ids, Path(tmp), llm.url)
        try:
            index_texts_match(service, tasks, ids)
            client = app.test_client()
            for task in tasks:
                for draft in task["drafts"]:
                    answers.next = draft["text"]
                    status, answer = _post(client, request_body(task, ids, "model"))
                    drafts.append({"task_id": task["task_id"], "draft_id": draft["draft_id"],
                                   "status": status, "answer": _kept(answer)})
                answers.next = None
                before = answers.calls
                status, answer = _post(client, request_body(task, ids, "operation"))
                operations.append({"task_id": task["task_id"], "status": status,
                                   "model_called": answers.calls > before, "answer": _kept(answer)})
        finally:
            service.close()
    return drafts, operations


def _post(client: Any, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    response = client.post("/api/v1/redraft", json=body)
    try:
        return response.status_code, response.get_json() or {}
    except ValueError:
        return response.status_code, {}


_KEEP = ("redraft", "producer", "changes", "checks", "checks_failed", "notes", "parts",
         "citations", "flagged", "uncited_sentences", "removed_markers", "error", "message", "code")


def _kept(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: answer[k] for k in _KEEP if k in answer}


def run(args: argparse.Namespace) -> int:
    from precedent_bench.drafting.drafting_score import blind_rows, markdown, operations_rows, score

    started = time.time()
    started_utc = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    paths = list(args.tasks) if args.tasks else split_files(args.set, args.split)
    tasks = load_tasks(paths, args.task)
    if not tasks:
        log.error("No task matches --task.")
        return 2
    drafts, operations = ask(tasks)
    summary, scored = score(tasks, drafts)
    ops = operations_rows(tasks, operations)
    meta = {"split": args.split or "files", "files": [str(p) for p in paths], "tasks": len(tasks), "drafts": len(drafts),
            "command": "precedent-bench drafting " + " ".join(sys.argv[2:]) if sys.argv[1:2] == ["drafting"] else "",
            "started_utc": started_utc,
            "finished_utc": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "seconds": round(time.time() - started, 1), "commit": _commit(), **_load()}
    accepted = [o for o in ops if o["accepted"]]
    summary["operations"] = {"tasks": len(ops), "accepted": len(accepted), "declined": len(ops) - len(accepted),
                             "accepted_passing_every_check": sum(1 for o in accepted if not o["checks_failed"]),
                             "accepted_shown_passed": sum(o["shown_passed"] for o in accepted)}
    report = markdown(summary, ops, meta)
    sys.stdout.write(report)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "summary.json").write_text(json.dumps({"meta": meta, **summary}, indent=1) + "\n")
        _jsonl(args.out / "drafts.jsonl", scored)
        _jsonl(args.out / "operations.jsonl", ops)
        (args.out / "report.md").write_text(report, encoding="utf-8")
    if args.blind:
        args.blind.parent.mkdir(parents=True, exist_ok=True)
        _jsonl(args.blind, blind_rows(ops))
    return 0


def _jsonl(path: Path, rows: Iterator[dict[str, Any]] | list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def _commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                               text=True, check=True).stdout.strip()
        return head + ("+uncommitted" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _load() -> dict[str, Any]:
    try:
        return {"load_average": [round(x, 2) for x in __import__("os").getloadavg()]}
    except OSError:
        return {}
