"""What a load run starts beside its clients: the scripted OpenAI-compatible LLM in its own
process (healthy, or failing about half its calls), the server's settings over a private
index copy, and firm IT's rebuild that adds a contract mid-run. load_fault.py and soak.py
both run these.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from precedent_bench.common import data

# The logger of load_fault.py: these lines were written there before the split and keep its name.
log = logging.getLogger("load_fault")


def _llm_process(mode: str, seed: int, ports: Any) -> None:
    from addin_server.llm.scripted import Reply, ScriptedLLMServer

    rng = random.Random(seed)
    lock = threading.Lock()

    def healthy(body: dict[str, Any]) -> Reply:
        if body.get("max_tokens") == 1:  # a rerank rating
            digit = str(len(json.dumps(body)) % 5)
            return Reply(content=digit, logprobs={digit: -0.1, "2": -2.4}, delay_s=0.2)
        return Reply(content="Each party's liability is capped at the fees paid in the twelve "
                             "months before the claim [1].", delay_s=2.0)

    def failing(body: dict[str, Any]) -> Reply:
        with lock:
            roll = rng.random()
        if roll < 0.20:
            return Reply(status=500)
        if roll < 0.35:
            return Reply(status=429, headers={"Retry-After": "2"})
        if roll < 0.45:
            return Reply(content="2", delay_s=8.0)  # a hang past the attempt timeout
        if roll < 0.55:
            return Reply(body=b"<html><body>502 Bad Gateway</body></html>")
        return healthy(body)

    server = ScriptedLLMServer(healthy if mode == "healthy" else failing).start()
    ports.put(server.url)
    threading.Event().wait()  # until terminated


def server_overrides(index_dir: Path, llm_url: str, threads: int) -> dict[str, Any]:
    """The load servers' settings beside servers.LOAD_ENV: the index copy, the threads, the LLM."""
    overrides: dict[str, Any] = {"index_dir": str(index_dir), "server.threads": threads}
    if llm_url:
        overrides.update({"llm.base_url": llm_url})
    return overrides


def _rebuild(index_dir: Path, args: argparse.Namespace) -> tuple[int, float]:
    """Firm IT adds a contract: `index-builder build` over ACORD plus one agreement."""
    started = time.monotonic()
    command = [str(Path(sys.executable).parent / "index-builder"), "build", "--index", str(index_dir),
               "--no-progress", str(args.acord), str(args.add_contract)]
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, **args.server_env},
                          cwd=data.CHECKOUT)
    if done.returncode:
        log.error("rebuild failed: %s", done.stderr[-2000:])
    return done.returncode, time.monotonic() - started
