"""`precedent-bench walls`: does a revocation reach every running server before its next answer?

A walled-off lawyer (a service account in group g-bob) searches every 50 ms on each of
several running servers (`addin-server serve`, separate processes, default index reload
interval) while a sync removes their access to one document; the probe counts the clauses
of that document the servers still return after the sync reports done. Then, with the
servers quiet, a second document is revoked and the lawyer's first search after the sync
(``--quiet-wait-s`` later, past the reload interval) is checked the same way.

* SharePoint: the document's own permissions lose g-bob (Graph stand-in).
* iManage: the matter is closed to g-bob: its workspace's ACL loses the group.
* Engines: embedded (the index folder shared by the servers) and Milvus (milvus-lite run as
  a TCP server, each server and the sync its own client, as on separate machines).

The DMS is the loopback stand-in (index_builder/sources/standins); documents are real
agreements from ../shared/data/contracts; the embedding model is the configured one. Writes
``<out>/<label>.json`` (one summary per run) and ``<out>/raw/<label>-<engine>-<source>-<run>.csv``
(every answer: seconds from the sync's end, server, status, clauses of the revoked document).

    precedent-bench walls --label after            # this code
    python -m precedent_bench.walls --label before # the same probe run against another checkout
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import logging
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterator

import requests

log = logging.getLogger(__name__)

CONTRACTS = Path(__file__).resolve().parents[2] / "shared" / "data" / "contracts"
TOKEN = {"bob": "probe-bob-token-0123456789", "acme": "probe-acme-token-0123456789"}


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("walls", help="search every 50 ms as a walled-off user through a revoking "
                                     "sync; count the revoked clauses still answered",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    _options(p)
    p.set_defaults(handler="precedent_bench.walls:run_command", ab=False)


def _options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", choices=("embedded", "milvus", "both"), default="both")
    p.add_argument("--source", choices=("sharepoint", "imanage", "both"), default="both")
    p.add_argument("--runs", type=int, default=3, help="runs per engine and source (default 3)")
    p.add_argument("--docs", type=int, default=24, help="agreements in the library (default 24)")
    p.add_argument("--servers", type=int, default=2, help="servers answering (default 2)")
    p.add_argument("--every-ms", type=int, default=50, help="each server's search interval")
    p.add_argument("--after-s", type=float, default=20.0, help="search this long after the sync")
    p.add_argument("--quiet-wait-s", type=float, default=12.0,
                   help="quiet phase: idle this long before and after the revoking sync")
    p.add_argument("--contracts", type=Path, default=CONTRACTS, help="folder of .docx agreements")
    p.add_argument("--label", default="after", help="names the results (before/after)")
    p.add_argument("--out", type=Path, default=Path("benchmarks/results/walls"))


@dataclass
class Answer:
    at: float  # time.monotonic() when the search was sent (its walls are decided after)
    server: int
    status: int
    revoked: int  # clauses of the revoked document in it
    ms: float


@dataclass
class RunResult:
    engine: str
    source: str
    run: int
    clauses: int = 0
    baseline_seen: int = 0  # answers before the revocation that held the document
    sync_s: float = 0.0
    listing_s: float = 0.0  # from the sync's start to its last page saved
    answers_after_done: int = 0
    leaked_answers_after_done: int = 0
    leaked_clauses_after_done: int = 0
    last_leak_after_done_s: float | None = None
    leaked_answers_during_sync: int = 0
    # Sent after the sync saved its last page (it had learned of the revocation by then).
    leaked_answers_after_listing: int = 0
    errors: int = 0
    search_ms_p50: float = 0.0
    search_ms_p95: float = 0.0
    quiet_first_search_after_s: float = 0.0
    quiet_leaked_clauses: int = 0
    load_1m: float = 0.0  # the machine's load average as the run began (a shared 2-core box)
    started_utc: str = ""
    notes: list[str] = field(default_factory=list)


def run_command(args: argparse.Namespace) -> int:
    engines = ["embedded", "milvus"] if args.engine == "both" else [args.engine]
    sources = ["sharepoint", "imanage"] if args.source == "both" else [args.source]
    docs = sorted(args.contracts.rglob("*.docx"))
    if len(docs) < args.docs + 1:
        log.error("%s holds %d agreements; --docs %d needs one more", args.contracts, len(docs), args.docs)
        return 2
    step = max(1, len(docs) // (args.docs + 1))
    chosen = docs[::step][:args.docs + 1]  # spread over the collections, deterministic
    (args.out / "raw").mkdir(parents=True, exist_ok=True)
    summary = args.out / f"{args.label}.json"
    # Runs of other engines or sources under this label stay (one engine can be run again).
    kept = json.loads(summary.read_text())["runs"] if summary.is_file() else []
    results = [r for r in kept if not (r["engine"] in engines and r["source"] in sources)]
    from index_builder.index import load_embedder
    from index_builder.settings import load_settings

    embedder = load_embedder(load_settings({}, {}).embedding)
    for engine in engines:
        for source in sources:
            for run in range(1, args.runs + 1):
                result = _one_run(args, engine, source, run, chosen, embedder)
                results.append(asdict(result))
                log.info("%s/%s run %d: %d leaked clauses after done (last %.2f s), quiet %d",
                         engine, source, run, result.leaked_clauses_after_done,
                         result.last_leak_after_done_s or 0.0, result.quiet_leaked_clauses)
                summary.write_text(json.dumps(
                    {"label": args.label, "args": {k: str(v) for k, v in vars(args).items()
                                                   if k not in ("handler",)},
                     "runs": results}, indent=1))
    return 0


def _one_run(args: argparse.Namespace, engine: str, source: str, run: int, chosen: list[Path],
             embedder: Any) -> RunResult:
    from index_builder.sources.standins import loopback_tls

    result = RunResult(engine, source, run, load_1m=round(os.getloadavg()[0], 1),
                       started_utc=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    tmp = Path(tempfile.mkdtemp(prefix="walls-probe-"))
    servers: list[subprocess.Popen[bytes]] = []
    milvus = None
    try:
        tls = loopback_tls(tmp / "tls")
        dms = _Dms(source, tls, chosen)
        values = {"index_dir": tmp / "index", "sources.ca_bundle": tls[0], **dms.values}
        if engine == "milvus":
            milvus, uri = _milvus(tmp / "milvus")
            values.update({"backend": "milvus", "milvus.uri": uri, "milvus.collection": "walls_probe"})
        _sync(values, dms.spec, embedder)
        result.clauses, query, query_quiet = _queries(values, dms, chosen)
        accounts = tmp / "accounts.json"
        accounts.write_text(json.dumps([{"name": n, "token": t, "groups": [f"g-{n}"]}
                                        for n, t in TOKEN.items()]))
        ports = [_free_port() for _ in range(args.servers)]
        servers = [_serve(values, accounts, port, tmp / f"server-{n}.log") for n, port in enumerate(ports)]
        urls = [f"http://127.0.0.1:{port}" for port in ports]
        for url in urls:
            _wait_ready(url)
        answers: list[Answer] = []
        stop = threading.Event()
        threads = [threading.Thread(target=_searcher, args=(url, n, query, dms.revoked_id,
                                                              args.every_ms / 1000, stop, answers),
                                    daemon=True) for n, url in enumerate(urls)]
        for thread in threads:
            thread.start()
        time.sleep(2.0)
        revoked_at = time.monotonic()
        dms.revoke(dms.revoked)
        pages: list[float] = []
        started = time.monotonic()
        _sync(values, dms.spec, embedder, after_page=lambda _: pages.append(time.monotonic()))
        done = time.monotonic()
        time.sleep(args.after_s)
        stop.set()
        for thread in threads:
            thread.join(5)
        _summarise(result, answers, revoked_at, started, done, pages)
        _write_raw(args.out / "raw" / f"{args.label}-{engine}-{source}-{run}.csv", answers, done)
        # The quiet phase: nobody searches through the sync; the first search comes later.
        time.sleep(args.quiet_wait_s)
        dms.revoke(dms.quiet)
        _sync(values, dms.spec, embedder)
        time.sleep(args.quiet_wait_s)
        result.quiet_first_search_after_s = args.quiet_wait_s
        for url in urls:
            status, revoked, _ = _search(url, query_quiet, dms.quiet_id)
            result.quiet_leaked_clauses += revoked
            if status != 200:
                result.errors += 1
                result.notes.append(f"quiet search: status {status}")
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
        if milvus is not None:
            milvus.stop()
        if "dms" in locals():
            dms.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return result


def _summarise(result: RunResult, answers: list[Answer], revoked_at: float, started: float,
               done: float, pages: list[float]) -> None:
    result.sync_s = round(done - started, 2)
    result.listing_s = round((pages[-1] if pages else done) - started, 2)
    result.baseline_seen = sum(a.revoked > 0 for a in answers if a.at < revoked_at)
    if not result.baseline_seen:
        result.notes.append("the walled user never saw the document before the revocation")
    after = [a for a in answers if a.at >= done]
    leaked = [a for a in after if a.revoked]
    result.answers_after_done = len(after)
    result.leaked_answers_after_done = len(leaked)
    result.leaked_clauses_after_done = sum(a.revoked for a in leaked)
    result.last_leak_after_done_s = round(max(a.at for a in leaked) - done, 2) if leaked else None
    result.leaked_answers_during_sync = sum(1 for a in answers if started <= a.at < done and a.revoked)
    listed = pages[-1] if pages else done
    result.leaked_answers_after_listing = sum(1 for a in answers if a.at >= listed and a.revoked)
    result.errors = sum(a.status != 200 for a in answers)
    if result.errors:
        result.notes.append("statuses: " + ", ".join(sorted({str(a.status) for a in answers
                                                             if a.status != 200})))
    times = sorted(a.ms for a in answers if a.status == 200)
    if times:
        result.search_ms_p50 = round(statistics.median(times), 1)
        result.search_ms_p95 = round(times[int(0.95 * (len(times) - 1))], 1)


def _write_raw(path: Path, answers: list[Answer], done: float) -> None:
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["sent_s_after_sync_done", "server", "status", "revoked_clauses", "ms"])
        for a in sorted(answers, key=lambda a: a.at):
            writer.writerow([f"{a.at - done:.3f}", a.server, a.status, a.revoked, f"{a.ms:.1f}"])


class _Dms:
    """The stand-in DMS with the library: the revoked document, the quiet one, the rest."""

    def __init__(self, source: str, tls: tuple[Path, Path], chosen: list[Path]) -> None:
        from index_builder.sources.standins import GraphEmulator, IManageEmulator, Library

        self.source = source
        self.library = Library()
        both = ["g-acme", "g-bob"]
        self.revoked, self.quiet = f"Acme/{chosen[0].name}", f"Beta/{chosen[1].name}"
        names = [self.revoked, self.quiet] + [f"Forms/{p.name}" for p in chosen[2:]]
        if source == "sharepoint":
            self.server: Any = GraphEmulator(tls, self.library).__enter__()
            self.values = {"sources.graph_tenant_id": "contoso-tenant", "sources.graph_client_id": "app-1",
                           "sources.graph_client_secret": "s3cret-Graph-77",
                           "sources.graph_authority_url": self.server.url,
                           "sources.graph_url": f"{self.server.url}/v1.0"}
            self.spec = f"sharepoint:drives/{self.server.drive_id}"
            prefix = "Precedents/"
        else:
            self.server = IManageEmulator(tls, self.library).__enter__()
            for space in ("Acme", "Beta", "Forms"):
                self.server.add_workspace(f"WS-{space}", space, both)
            self.values = {"sources.imanage_url": self.server.url, "sources.imanage_library": "ACTIVE",
                           "sources.imanage_client_id": "precedent-app",
                           "sources.imanage_client_secret": "cs-iManage-13",
                           "sources.imanage_username": "svc-precedent",
                           "sources.imanage_password": "pw-iManage-42"}
            self.spec = "imanage:WS-Acme,WS-Beta,WS-Forms"
            prefix = ""
        for name, path in zip(names, chosen):
            self.library.add(name, path.read_bytes(), both)
        self.revoked_id = self._doc_id(prefix, self.revoked)
        self.quiet_id = self._doc_id(prefix, self.quiet)

    def _doc_id(self, prefix: str, path: str) -> str:
        stem = path.rsplit(".", 1)[0]
        if self.source == "sharepoint":
            return prefix + stem
        number = int(self.library.find(path).id[1:])
        return f"{stem} ({number})"

    def revoke(self, path: str) -> None:
        """g-bob loses the document: its own permissions (SharePoint), its matter (iManage)."""
        if self.source == "sharepoint":
            self.library.set_access(path, ["g-acme"])
        else:
            workspace = self.server.workspaces[f"WS-{path.split('/')[0]}"]
            workspace["acl"] = [e for e in workspace["acl"] if e["id"] != "g-bob"]

    def stop(self) -> None:
        self.server.stop()


def _sync(values: dict[str, Any], spec: str, embedder: Any, after_page: Any = None) -> None:
    from index_builder.settings import load_settings
    from index_builder.sources import open_source
    from index_builder.sources.sync import sync_and_build

    settings = load_settings({}, values)
    with _lite_over_tcp(values.get("backend") == "milvus"):
        sync_and_build(settings, open_source(spec, settings), embedder, progress=False,
                       after_page=after_page)


@contextlib.contextmanager
def _lite_over_tcp(milvus: bool) -> Iterator[None]:
    """The probe's milvus-lite answers on TCP (so that every process is its own client), and
    the store takes an http:// address for a cluster, whose new versions get scalar indexes
    milvus-lite refuses ("invalid parameter"). Only the sync writes: it is told the truth."""
    if not milvus:
        yield
        return
    from index_builder.index.milvus import MilvusStore

    original = MilvusStore.__init__

    def init(self: Any, settings: Any) -> None:
        original(self, settings)
        self.lite = True

    MilvusStore.__init__ = init  # type: ignore[method-assign]
    try:
        yield
    finally:
        MilvusStore.__init__ = original  # type: ignore[method-assign]


def _queries(values: dict[str, Any], dms: _Dms, chosen: list[Path]) -> tuple[int, str, str]:
    """(clauses in the index, a query from the revoked document, one from the quiet one): the
    longest clause of each, as the build's reader reads it."""
    from index_builder.index import open_store
    from index_builder.ingest import read_clauses
    from index_builder.settings import load_settings

    backend = open_store(load_settings({}, values)).open()
    try:
        total = backend.stats()["clauses"]
    finally:
        backend.close()

    def longest(path: Path) -> str:
        return max((c.text for c in read_clauses(path, "probe", path.name)), key=len)[:1500]

    return total, longest(chosen[0]), longest(chosen[1])


def _milvus(folder: Path) -> tuple[Any, str]:
    """milvus-lite as a TCP server, so each process (servers, sync) is its own client."""
    from milvus_lite.server import Server

    folder.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    server = Server(str(folder / "walls.db"), f"127.0.0.1:{port}")
    if not (server.init() and server.start()):
        raise SystemExit("walls probe: milvus-lite did not start")
    uri = f"http://127.0.0.1:{port}"
    for _ in range(60):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server, uri
        except OSError:
            time.sleep(0.5)
    server.stop()
    raise SystemExit("walls probe: milvus-lite did not listen")


def _serve(values: dict[str, Any], accounts: Path, port: int, log_file: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PRECEDENT_SERVICE_ACCOUNTS_FILE": str(accounts), "PRECEDENT_RATE_LIMIT": "off",
           "PRECEDENT_CROSS_ENCODER": "", "PRECEDENT_SERVER_THREADS": "8"}
    if values.get("backend") == "milvus":
        env.update({"PRECEDENT_BACKEND": "milvus", "PRECEDENT_MILVUS_URI": values["milvus.uri"],
                    "PRECEDENT_MILVUS_COLLECTION": values["milvus.collection"]})
    command = [sys.executable, "-m", "addin_server.cli", "serve", "--index", str(values["index_dir"]),
               "--port", str(port), "--local-llm", "off", "--rerank-default", "off"]
    with open(log_file, "wb") as out:
        return subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)


def _wait_ready(url: str, timeout_s: float = 300.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if requests.get(f"{url}/api/v1/health", timeout=5,
                            headers={"Authorization": f"Bearer {TOKEN['bob']}"}).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.5)
    raise SystemExit(f"walls probe: the server at {url} did not start (see its log)")


def _search(url: str, query: str, revoked_id: str, session: Any = requests) -> tuple[int, int, float]:
    began = time.perf_counter()
    try:
        answer = session.post(f"{url}/api/v1/precedents", json={"text": query, "top_k": 10},
                              headers={"Authorization": f"Bearer {TOKEN['bob']}"}, timeout=30)
    except requests.RequestException:
        return 0, 0, (time.perf_counter() - began) * 1000
    ms = (time.perf_counter() - began) * 1000
    if answer.status_code != 200:
        return answer.status_code, 0, ms
    results = answer.json().get("results", [])
    return 200, sum(r["source"]["doc_id"] == revoked_id for r in results), ms


def _searcher(url: str, server: int, query: str, revoked_id: str, every_s: float,
              stop: threading.Event, answers: list[Answer]) -> None:
    session = requests.Session()
    while not stop.is_set():
        began = time.monotonic()
        status, revoked, ms = _search(url, query, revoked_id, session)
        answers.append(Answer(began, server, status, revoked, ms))
        stop.wait(max(0.0, every_s - (time.monotonic() - began)))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main(argv: list[str] | None = None) -> int:
    """Run without the precedent-bench command (against a checkout that lacks it)."""
    parser = argparse.ArgumentParser(prog="precedent_bench.walls", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    _options(parser)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return run_command(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
