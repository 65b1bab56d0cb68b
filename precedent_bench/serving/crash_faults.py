"""Crash and disk faults: kill -9 the builder at random points, kill the server during a
swap, fill the disk mid-build; after every fault the live index must be a complete version.

    nice -n 10 precedent-bench crash-faults --trials 60 --server-trials 6 --disk-trials 10 \
        --out benchmarks/results/crash-faults/crash_faults.md

Builder trials: a small library (a BEIR corpus of ACORD clauses plus short .md contracts,
written under a scratch folder) changes before each trial (a contract edited, added or
removed, the corpus rewritten), then a build runs in a forked child that holds the real
embedder already loaded and SIGKILLs itself at a random point of one phase, in turn:

- reading: discovering, hashing and parsing the documents;
- embedding: embedding the new texts chunk by chunk into the resumable cache;
- indexing: BM25 and the kept documents' clauses, in memory, before anything is written;
- writing: the clause database, FAISS, BM25, params, fsync, inside the staging folder;
- switching: from the staging folder's rename to the end of pruning (pointer written,
  replaced, old versions removed).

The point is drawn as the k-th Python or C call inside that phase (``sys.setprofile``), k
uniform over the calls a first, profiled build made there (a build whose phase ends
sooner dies at its end), so kills land inside file writes, between a rename and a
pointer switch, between vectors and keys of a cache append. After the kill the parent checks
the invariants, then runs the next build (uninterrupted), checks them again and that the
result is what the library holds:

1. CURRENT names a complete version: it loads with every part consistent (``load_index``),
   no ``v-*`` folder lacks params.json, and a search finds a clause by its own vector.
2. The live clauses are exactly the library before the trial's change or after it, never
   a mix.
3. The next build succeeds (no lock, cache or staging folder left by the kill stops it),
   and every clause's vector is what the embedder gives its text (a resumed cache that paired
   a key with another row would fail here).

Server trials: ``addin-server serve`` over the index with the audit trail on and a client
searching; a build switches the index and the server is SIGKILLed at a random moment
around the swap; restarted, it must serve the new complete version, and the audit trail
must parse line by line with an entry for every search the client got an answer to.

Disk trials: the index lives on a small tmpfs (mounted here as root; otherwise the test
suite's RLIMIT_FSIZE writer is the stand-in) filled to leave a random amount free, so the
build runs out of space in a different step each time: it must fail with the disk-full
message, leave the live version served, and succeed once space is freed.

The library, the killed child build and the invariants live in crash_builds.py (the tests of
tests/faults use them directly); this module runs the trials and writes the report.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import shutil
import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from precedent_bench.catalogue import subparser
from precedent_bench.common import data, servers
from precedent_bench.common.machine import load_average
from precedent_bench.serving.crash_builds import (PHASES, KillPoint, Library, Snapshot, acord_rows,
                                                 build_in_child, check_live)

log = logging.getLogger("crash_faults")

# --- the three trial kinds ------------------------------------------------------------------

@dataclass
class TrialLog:
    kind: str
    rows: list[dict[str, Any]] = field(default_factory=list)

    def add(self, **row: Any) -> None:
        self.rows.append(row)
        log.info("%s %s", self.kind, json.dumps(row))

    @property
    def failures(self) -> list[dict[str, Any]]:
        return [r for r in self.rows if r.get("failure")]


def builder_trials(settings: Any, library: Library, embedder: Any, trials: int,
                   rng: random.Random, sample: int = 8) -> TrialLog:
    """Kill the builder ``trials`` times, phases in turn; check after each and after the next build."""
    out = TrialLog("builder")
    root = settings.index_dir
    first = build_in_child(settings, library.sources, embedder)
    assert first.outcome == "ok", first.detail
    library.change()  # calibrate on a build like the trials' (a few new texts, not all)
    calibration = build_in_child(settings, library.sources, embedder, count=True)
    assert calibration.outcome == "ok", calibration.detail
    events = calibration.events
    log.info("calls per phase of a profiled build: %s", events)
    before = check_live(root, embedder, sample, rng)
    for trial in range(trials):
        change = library.change()
        phase = PHASES[trial % len(PHASES)]
        total = max(1, events.get(phase, 1))
        point = KillPoint(phase, rng.randint(1, total))
        row: dict[str, Any] = {"trial": trial, "change": change, "phase": phase,
                               "event": point.event, "of": total}
        killed = build_in_child(settings, library.sources, embedder, kill=point)
        row.update(outcome=killed.outcome, kill_s=round(killed.seconds, 2))
        try:
            assert killed.outcome == "killed", f"the build was not killed: {killed.outcome} {killed.detail[-300:]}"
            after_kill = check_live(root)
            nxt = build_in_child(settings, library.sources, embedder)
            row["next_build"] = nxt.outcome
            row["next_s"] = round(nxt.seconds, 2)
            assert nxt.outcome == "ok", f"the next build failed: {nxt.detail[-500:]}"
            after = check_live(root, embedder, sample, rng)
            assert after_kill.clauses in (before.clauses, after.clauses), \
                "after the kill the live index held neither the old nor the new library"
            row["live_after_kill"] = ("old" if after_kill.clauses == before.clauses else "new")
            leftovers = sorted(p.name for p in root.iterdir()
                               if p.name.startswith((".staging-", ".CURRENT.", ".trash-",
                                                     ".embedding-cache")))
            assert not leftovers, f"left after a successful build: {leftovers}"
            before = after
        except AssertionError as exc:
            row["failure"] = str(exc)
            before = _recover(settings, library, embedder)
        out.add(**row)
    return out


def _recover(settings: Any, library: Library, embedder: Any) -> Snapshot:
    """After a failed trial: remove the lock (recorded as a failure already) and build."""
    from index_builder.index.lock import LOCK_NAME

    (settings.index_dir / LOCK_NAME).unlink(missing_ok=True)
    result = build_in_child(settings, library.sources, embedder)
    assert result.outcome == "ok", f"cannot recover: {result.detail}"
    return check_live(settings.index_dir)


def disk_trials(settings: Any, library: Library, embedder: Any, trials: int, mount: Path,
                rng: random.Random) -> TrialLog:
    """Run out of space at a random point of a build on a tmpfs at ``mount``."""
    from index_builder.settings import updated

    out = TrialLog("disk")
    root = mount / "index"
    local = updated(settings, {"index_dir": root})
    first = build_in_child(local, library.sources, embedder)
    assert first.outcome == "ok", first.detail
    filler = mount / "filler"
    for trial in range(trials):
        before = check_live(root)
        change = library.change()
        live_bytes = _size(root / before.version)
        free = shutil.disk_usage(mount).free
        # Leave between 0 and 1.2x a version's size free: the build stops in a different step.
        leave = int(rng.uniform(0.0, 1.2) * live_bytes)
        _fill(filler, max(0, free - leave))
        row: dict[str, Any] = {"trial": trial, "change": change, "free_kb": leave // 1024,
                               "version_kb": live_bytes // 1024}
        result = build_in_child(local, library.sources, embedder)
        row["outcome"] = result.outcome
        try:
            assert result.outcome in ("ok", "disk_full"), f"{result.outcome}: {result.detail[-500:]}"
            if result.outcome == "disk_full":
                assert "ran out of space" in result.detail and "live index is unchanged" in result.detail
            after_fault = check_live(root)
            filler.unlink()
            nxt = build_in_child(local, library.sources, embedder)
            row["next_build"] = nxt.outcome
            assert nxt.outcome == "ok", f"the next build failed: {nxt.detail[-500:]}"
            after = check_live(root, embedder, 8, rng)
            assert after_fault.clauses in (before.clauses, after.clauses)
            row["live_after_fault"] = "old" if after_fault.clauses == before.clauses else "new"
        except AssertionError as exc:
            row["failure"] = str(exc)
            filler.unlink(missing_ok=True)
            _recover(local, library, embedder)
        out.add(**row)
    return out


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _fill(path: Path, size: int) -> None:
    with open(path, "wb") as out:
        block = b"\0" * (1 << 20)
        while size > 0:
            written = out.write(block[:min(size, len(block))])
            size -= written


# --- the server killed during a swap --------------------------------------------------------

def server_trials(settings: Any, library: Library, embedder: Any, trials: int,
                  rng: random.Random, work: Path) -> TrialLog:
    """Build while the server serves; SIGKILL the server around the swap; restart and check."""
    import http.client
    import threading

    out = TrialLog("server")
    audit = work / "audit" / "audit.jsonl"
    env = {**os.environ, "PRECEDENT_INDEX_DIR": str(settings.index_dir), "PRECEDENT_AUDIT": "on",
           "PRECEDENT_AUDIT_FILE": str(audit), "PRECEDENT_INDEX_RELOAD_S": "0.2",
           "PRECEDENT_LOCAL_LLM": "off", "PRECEDENT_RATE_LIMIT": "off",
           "PRECEDENT_RERANK_DEFAULT": "off", "HF_HUB_OFFLINE": "1",
           "TOKENIZERS_PARALLELISM": "false", "PYTHONPATH": str(data.CHECKOUT)}
    answered = Counter()  # searches answered 200, per server start

    def start() -> tuple[subprocess.Popen, int]:
        return servers.start_cli_server(env, work / "server.log")

    def searching(port: int, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                connection.request("POST", "/api/v1/precedents",
                                   json.dumps({"text": "limitation of liability", "top_k": 3}),
                                   {"Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                if response.status == 200:
                    answered["search"] += 1
                connection.close()
            except (OSError, http.client.HTTPException):
                pass  # the kill: no answer, so no audit line is owed
            time.sleep(0.05)

    if not (settings.index_dir / "CURRENT").is_file():
        first = build_in_child(settings, library.sources, embedder)
        assert first.outcome == "ok", first.detail
    process, port = start()
    try:
        for trial in range(trials):
            before = check_live(settings.index_dir)
            change = library.change()
            stop = threading.Event()
            client = threading.Thread(target=searching, args=(port, stop), daemon=True)
            client.start()
            result = build_in_child(settings, library.sources, embedder)
            log.info("server trial %d: build %s; killing the server", trial, result.outcome)
            # Kill from the switch up to a second after it: before, during or after the reload.
            delay = rng.uniform(0.0, 1.0)
            time.sleep(delay)
            process.kill()
            process.wait()
            stop.set()
            client.join(timeout=40)
            row: dict[str, Any] = {"trial": trial, "change": change, "build": result.outcome,
                                   "kill_after_s": round(delay, 2)}
            try:
                assert result.outcome == "ok", result.detail[-300:]
                after = check_live(settings.index_dir)
                process, port = start()
                log.info("server trial %d: restarted", trial)
                health = servers.get_json(port, "/api/v1/health")
                row["serving"] = health["index"]["version"]
                assert health["index"]["version"] == after.version != before.version
                lines = audit.read_text("utf-8").splitlines()
                parsed = [_parse_line(line) for line in lines]
                torn = sum(1 for p in parsed if p is None)
                audited = sum(1 for p in parsed if p and p.get("route") == "/api/v1/precedents"
                              and p.get("status") == 200)
                row.update(audit_lines=len(lines), torn=torn, answered=answered["search"],
                           audited=audited)
                assert torn <= trial + 1, "more torn audit lines than kills"
                assert audited >= answered["search"], "an answered search has no audit line"
            except AssertionError as exc:
                row["failure"] = str(exc)
                if process.poll() is not None:
                    process, port = start()
            out.add(**row)
    finally:
        process.kill()
        process.wait()
    return out


def _parse_line(line: str) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


# --- report ---------------------------------------------------------------------------------

def report(logs: list[TrialLog], args: argparse.Namespace, seconds: float, load: tuple[str, str],
           mount_note: str) -> str:
    lines = [f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} "
             f"cores shared with other engineers (load average {load[0]} before, {load[1]} after), "
             f"{seconds:.0f} s in all; seed {args.seed}. {mount_note}", "",
             "| suite | trials | failures | detail |", "|---|---|---|---|"]
    for trial_log in logs:
        rows = trial_log.rows
        detail = ""
        if trial_log.kind == "builder":
            by_phase = Counter(r["phase"] for r in rows)
            old_new = Counter(r.get("live_after_kill", "?") for r in rows)
            detail = (", ".join(f"{p} {by_phase[p]}" for p in PHASES)
                      + f"; live after the kill: old {old_new['old']}, new {old_new['new']}")
        elif trial_log.kind == "disk":
            outcomes = Counter(r["outcome"] for r in rows)
            detail = ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
        elif trial_log.kind == "server" and rows:
            last = rows[-1]
            detail = (f"searches answered {last.get('answered')}, audited {last.get('audited')}, "
                      f"torn audit lines {last.get('torn')}")
        lines.append(f"| {trial_log.kind} | {len(rows)} | {len(trial_log.failures)} | {detail} |")
    for trial_log in logs:
        for failure in trial_log.failures:
            lines.append(f"\nFAILED {trial_log.kind} trial {failure['trial']}: {failure['failure']}")
    return "\n".join(lines) + "\n"


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--acord", type=Path, default=data.ACORD)
    parser.add_argument("--trials", type=int, default=60, help="builder kills")
    parser.add_argument("--server-trials", type=int, default=6)
    parser.add_argument("--disk-trials", type=int, default=10)
    parser.add_argument("--tmpfs-mb", type=int, default=8)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--out", type=Path)


def run(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    logging.getLogger("index_builder").setLevel(logging.WARNING)
    from index_builder.index import load_embedder
    from index_builder.settings import load_settings

    rng = random.Random(args.seed)
    started, load_before = time.monotonic(), load_average(1)
    logs: list[TrialLog] = []
    mount_note = ""
    with tempfile.TemporaryDirectory(prefix="crash-faults-") as tmp:
        work = Path(tmp)
        settings = load_settings(overrides={"index_dir": work / "index"})
        embedder = load_embedder(settings.embedding)
        rows = acord_rows(args.acord, 400, args.seed)
        library = Library(work / "library", rows, rng)
        library.create()
        if args.trials:
            logs.append(builder_trials(settings, library, embedder, args.trials, rng))
        if args.server_trials:
            logs.append(server_trials(settings, library, embedder, args.server_trials, rng, work))
        if args.disk_trials:
            mount = work / "tmpfs"
            mount.mkdir()
            done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={args.tmpfs_mb}m", "tmpfs",
                                   str(mount)], capture_output=True, text=True)
            if done.returncode:
                mount_note = f"Disk trials skipped: cannot mount a tmpfs ({done.stderr.strip()})."
            else:
                mount_note = f"Disk trials on a {args.tmpfs_mb} MB tmpfs."
                try:
                    disk_library = Library(work / "disk-library", rows, rng)
                    disk_library.create()
                    logs.append(disk_trials(settings, disk_library, embedder, args.disk_trials,
                                            mount, rng))
                finally:
                    subprocess.run(["umount", str(mount)], check=False)
    text = report(logs, args, time.monotonic() - started, (load_before, load_average(1)), mount_note)
    print(text)
    if args.json:
        args.json.write_text(json.dumps([{"kind": l.kind, "rows": l.rows} for l in logs], indent=1))
    if args.out:
        args.out.write_text(text)

