"""Connecting to Milvus: a cluster by URI, or milvus-lite started quietly on a file.

Also the few facts about Milvus's errors the backend needs: whether an exception came from
the engine, whether it means "not implemented here" (milvus-lite has no aliases) or "not
found", and the engine's own words without the gRPC debug dump.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import warnings
from pathlib import Path
from typing import Any, Iterator

from index_builder.errors import SearchEngineUnavailableError

CONNECT_TIMEOUT_S = 10.0  # how long to wait for a cluster before saying it cannot be reached


def connect(uri: str, token: str, lite: bool) -> Any:
    """A MilvusClient; milvus-lite is started with its chatter sent to a log file."""
    try:
        from pymilvus import MilvusClient
    except ImportError as exc:
        raise SearchEngineUnavailableError(
            "The Milvus backend needs pymilvus and milvus-lite: pip install 'precedent[milvus]' "
            "(pymilvus 2.5.x, milvus-lite==2.5.1, setuptools<81).") from exc
    # pymilvus logs every failed call at ERROR with its own handler; ours say what to do.
    for name in ("pymilvus", "pymilvus.milvus_client"):  # both have their own handler and level
        logging.getLogger(name).setLevel(logging.CRITICAL)
    try:
        if lite:
            Path(uri).parent.mkdir(parents=True, exist_ok=True)
            _start_lite(uri)
            return MilvusClient(uri=uri)
        return MilvusClient(uri=uri, token=token, timeout=CONNECT_TIMEOUT_S)
    except Exception as exc:
        if not is_engine_error(exc):
            raise
        if lite:
            raise SearchEngineUnavailableError(
                f"Could not open the milvus-lite file {uri} ({reason(exc)}). Milvus Lite serves "
                f"one process at a time: stop the other program using it (a running addin-server?)"
                f", or set PRECEDENT_MILVUS_URI to a Milvus server that both can reach.") from exc
        raise SearchEngineUnavailableError(
            f"Cannot reach Milvus at {uri} ({reason(exc)}). Check PRECEDENT_MILVUS_URI (e.g. "
            f"http://milvus:19530) and PRECEDENT_MILVUS_TOKEN, or leave PRECEDENT_MILVUS_URI "
            f"empty for the embedded milvus-lite file.") from exc


_lite_lock = threading.Lock()


def _lite_servers() -> Any:
    with warnings.catch_warnings():  # milvus-lite 2.5 imports pkg_resources (hence setuptools<81)
        warnings.filterwarnings("ignore", message="pkg_resources is deprecated", category=UserWarning)
        from milvus_lite.server_manager import server_manager_instance
    return server_manager_instance


def stop_lite(path: str) -> None:
    """Stop the milvus-lite server this process started for ``path`` (tests, shutdown)."""
    servers = _lite_servers()
    if str(Path(path).resolve()) in servers._servers:
        servers.release_server(path)


def _start_lite(path: str) -> None:
    """Start milvus-lite for ``path`` with its stderr (~1,000 tantivy lines) in ``path``.log.

    The subprocess inherits file descriptor 2 when it starts, so it is pointed at the log
    file for that moment only. pymilvus then reuses the running server for this path.
    """
    servers = _lite_servers()
    with _lite_lock, _stderr_to(path + ".log"):
        started = servers.start_and_get_uri(path)
    if started is None:
        raise SearchEngineUnavailableError(
            f"milvus-lite could not open {path}: another program has it open (milvus-lite serves "
            f"one process at a time; a running addin-server?) or the folder is not writable. "
            f"Stop the other program, or set PRECEDENT_MILVUS_URI to a Milvus server.")


@contextlib.contextmanager
def _stderr_to(path: str) -> Iterator[None]:
    saved = os.dup(2)
    try:
        with open(path, "ab") as log_file:
            os.dup2(log_file.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(saved, 2)
    finally:
        os.close(saved)


def is_engine_error(exc: BaseException) -> bool:
    try:
        import grpc
        from pymilvus.exceptions import MilvusException
    except ImportError:
        return False
    return isinstance(exc, (MilvusException, grpc.RpcError))


def unimplemented(exc: BaseException) -> bool:
    code = getattr(exc, "code", None)
    value = code() if callable(code) else code
    return "UNIMPLEMENTED" in str(value) or "UNIMPLEMENTED" in str(exc)


def not_found(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "not found" in text or "not exist" in text or "doesn't exist" in text


def reason(exc: BaseException) -> str:
    """The engine's own words, without the gRPC debug dump."""
    message = getattr(exc, "message", None)
    if callable(getattr(exc, "details", None)):
        message = message or exc.details()  # type: ignore[attr-defined]
    text = str(message or exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:300]

