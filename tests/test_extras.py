"""A command that needs an optional extra names it, with the install line, before it starts work."""

from __future__ import annotations

import importlib.util
import logging
import re
from pathlib import Path
from typing import Any

import pytest

from index_builder import extras
from index_builder.errors import ConfigError

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def without(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """without("matplotlib", ...): those modules look uninstalled to the extras check."""
    def hide(*modules: str) -> None:
        real = importlib.util.find_spec
        monkeypatch.setattr(extras.importlib.util, "find_spec",
                            lambda name, *a: None if name in modules else real(name, *a))
    return hide


def test_the_table_is_pyprojects_extras() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for extra, requirements in declared.items():
        if extra == "test":  # the developers' extra: it names the others
            continue
        names = {re.split(r"[\[<>=!; ]", r, maxsplit=1)[0].lower() for r in requirements}
        assert set(extras.EXTRAS[extra]) == names, extra
    assert set(extras.EXTRAS) == set(declared) - {"test"}


def test_the_message_names_the_extra_and_the_install_line(without: Any) -> None:
    extras.require("bench", "precedent-bench rerank")  # installed here: nothing to say
    without("matplotlib")
    with pytest.raises(ConfigError) as error:
        extras.require("bench", "precedent-bench rerank")
    message = error.value.message
    assert "[bench]" in message and "matplotlib is not installed" in message
    assert "pip install 'precedent[bench]'" in message and "pip install -e '.[bench]'" in message


def test_precedent_bench_rerank_stops_before_any_work(without: Any, monkeypatch: pytest.MonkeyPatch,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    from precedent_bench import cli

    def started(*args: Any) -> int:
        raise AssertionError("the A/B started without its extra")

    monkeypatch.setattr(cli, "run_ab_command", started)
    without("matplotlib")
    shipped = str(REPO / "prompts" / "rerank.prompt")
    with caplog.at_level(logging.ERROR):
        assert cli.main(["rerank", "--prompt", shipped, "--prompt", shipped]) == 2
    assert "pip install 'precedent[bench]'" in caplog.text


def test_check_prompts_needs_no_extra(without: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from precedent_bench import cli

    without("matplotlib")
    assert cli.main(["check-prompts", "--prompt", str(REPO / "prompts" / "rerank.prompt")]) in (0, 1)
    assert "rerank.prompt" in capsys.readouterr().out


def test_index_builder_names_the_milvus_extra_before_reading_a_document(
        without: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    from index_builder import cli

    def embedder(settings: Any) -> Any:
        raise AssertionError("the build started without its extra")

    monkeypatch.setattr(cli, "_embedder", embedder)
    without("pymilvus")
    with caplog.at_level(logging.ERROR):
        code = cli.main(["build", "--backend", "milvus", "--index", str(tmp_path / "i"), str(tmp_path)])
    assert code == 2 and "pip install 'precedent[milvus]'" in caplog.text
    assert "PRECEDENT_BACKEND=milvus" in caplog.text


def test_addin_server_names_the_postgres_extra_before_opening_the_index(
        without: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    from addin_server import cli

    monkeypatch.setenv("PRECEDENT_FEEDBACK_DB_URL", "postgresql+psycopg://u@localhost/precedent")
    monkeypatch.setattr("addin_server.service.build_service", lambda *a, **k: pytest.fail("started"))
    without("psycopg")
    with caplog.at_level(logging.ERROR):
        assert cli.main(["serve", "--index", str(tmp_path), "--local-llm", "off"]) == 2
    assert "pip install 'precedent[postgres]'" in caplog.text
