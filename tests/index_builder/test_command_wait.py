"""A command waits for its query's embedding as long as a first compile takes, while the server
keeps its deadline (one option, PRECEDENT_COMMAND_QUERY_DEADLINE_S, read by query_embedder);
and a command that exits while the batcher is inside a model call waits for that call to end
(an OpenVINO compile torn down under its thread aborts the process)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from index_builder.errors import SearchBusyError
from index_builder.index import batcher
from index_builder.settings import load_settings

REPO = Path(__file__).resolve().parents[2]


def _slow(embedder_factory: Any, seconds: float) -> Any:
    class Slow(embedder_factory):  # type: ignore[misc,valid-type]
        def embed(self, texts, *, show_progress=False):  # type: ignore[no-untyped-def]
            time.sleep(seconds)  # a first fixed-shape compile on a busy machine
            return super().embed(texts, show_progress=show_progress)
    return Slow


def _settings(tmp_path: Path, **env: str) -> Any:
    return load_settings({"PRECEDENT_QUERY_DEADLINE_S": "0.05", "PRECEDENT_QUERY_EMBEDDING": "index",
                          **env}, {"index_dir": tmp_path / "ix"}).embedding


def test_a_command_waits_where_the_server_refuses(tmp_path: Path, embedder_factory: Any) -> None:
    slow = _slow(embedder_factory, 0.3)
    settings = _settings(tmp_path)
    assert settings.command_query_deadline_s == 600.0  # the one home of a command's wait
    with pytest.raises(SearchBusyError):
        batcher.query_embedder(settings, lambda s: slow()).embed(["cap on liability"])
    vectors = batcher.query_embedder(settings, lambda s: slow(), command=True).embed(["cap"])
    assert vectors.shape == (1, slow.dimension)


def test_a_commands_wait_is_a_setting(tmp_path: Path, embedder_factory: Any) -> None:
    slow = _slow(embedder_factory, 0.3)
    settings = _settings(tmp_path, PRECEDENT_COMMAND_QUERY_DEADLINE_S="0.1")
    assert settings.command_query_deadline_s == 0.1
    with pytest.raises(SearchBusyError, match="0.1 s"):
        batcher.query_embedder(settings, lambda s: slow(), command=True).embed(["cap"])


def test_addin_server_eval_waits_as_a_command(monkeypatch: pytest.MonkeyPatch) -> None:
    # It built its own query embedder with the server's 10 s (session 9 fixed index-builder only).
    from addin_server import cli
    from index_builder import index
    from index_builder.evaluate import runner
    from index_builder.retrieve import pipeline

    made: list[dict[str, Any]] = []
    monkeypatch.setattr(batcher, "query_embedder",
                        lambda settings, *a, **kw: made.append(kw) or "embedder")
    monkeypatch.setattr(index, "load_embedder", lambda settings: object())
    monkeypatch.setattr(pipeline, "build_pipeline", lambda settings, embedder, **kw: embedder)
    monkeypatch.setattr(runner, "run_eval_command",
                        lambda settings, config, embedder, make, *rest: 0 if make() else 1)
    assert cli.main(["eval", "--rerank", "none"]) == 0
    assert made == [{"command": True}]


_EXIT_DURING_A_CALL = """
import sys, time
import numpy as np
from index_builder.index.batcher import BatchingEmbedder

class Compiling:
    model_id, dimension = "slow", 2
    def embed(self, texts, *, show_progress=False):
        time.sleep(1.0)  # the model's first fixed-shape compile, on the batcher's thread
        open(sys.argv[1], "w").write("ended")
        return np.zeros((len(texts), 2), dtype=np.float32)

embedder = BatchingEmbedder(Compiling(), batch_max=8, batch_wait_ms=0, queue_max=8,
                            deadline_s=0.1)
try:
    embedder.embed(["cap on liability"])
except Exception:
    sys.exit(2)  # the command gives up (its deadline, or Ctrl-C) while the compile runs
"""


def test_a_command_exiting_during_a_model_call_waits_for_it(tmp_path: Path) -> None:
    marker = tmp_path / "ended"
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(_EXIT_DURING_A_CALL), str(marker)],
                          cwd=REPO, capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2, done.stderr
    assert marker.exists(), "the process exited with the batcher's thread inside the model call"
