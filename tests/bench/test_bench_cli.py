"""`precedent-bench`: one entry for every benchmark, each parser builds, extras named up front,
and no benchmark code edits sys.path or imports the tests."""

from __future__ import annotations

import importlib
import inspect
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from precedent_bench import catalogue, cli
from precedent_bench.cli import SUBCOMMANDS, build_parser, main

ROOT = Path(__file__).resolve().parents[2]
# Files other branches own that still edit sys.path (the lead has them on the list):
# benchmarks/sets/ is the labelled sets' (labels38-*), written before issue 41.
NOT_OURS = {"benchmarks/sets/conform/check.py"}
SYS_PATH_EDIT = re.compile(r"sys\.path\.(insert|append|extend|remove)\(|sys\.path\s*(\[[^]]*\])?\s*\+?=[^=]"
                           r"|site\.addsitedir\(")
TESTS_IMPORT = re.compile(r"^\s*(from|import)\s+(tests|conftest)\b|[\"']tests[\"']\s*/|/\s*[\"']tests[\"']"
                          r"|tests/(sources|conftest)", re.M)


def subcommands(parser: Any) -> dict[str, Any]:
    (action,) = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    return action.choices


def test_help_lists_every_benchmark_with_its_line(capsys: Any) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    text = "".join(out.split())  # argparse wraps long lines, at hyphens too
    for bench in catalogue.BENCHMARKS:
        assert "".join(f"{bench.command} {bench.summary}".split()) in text
    commands = {line.split()[0] for line in out.splitlines() if line.startswith("    ")}
    assert commands >= {"redraft", "rerank", "redraft-eval", "catch-rate", "check-prompts"}


def test_help_before_a_benchmark_still_lists_them_all(capsys: Any) -> None:
    with pytest.raises(SystemExit):
        main(["--help", "load"])
    out = capsys.readouterr().out
    assert " retrieval " in out and " soak " in out


def test_listing_imports_no_benchmark_module(monkeypatch: Any) -> None:
    imported: list[str] = []
    real = importlib.import_module
    monkeypatch.setattr(cli.importlib, "import_module",
                        lambda name: imported.append(name) or real(name))
    listed = subcommands(build_parser(None))
    assert set(imported) == set(SUBCOMMANDS)
    assert {b.command for b in catalogue.BENCHMARKS} <= set(listed)


def test_naming_a_benchmark_imports_that_module_alone(monkeypatch: Any) -> None:
    imported: list[str] = []
    real = importlib.import_module
    monkeypatch.setattr(cli.importlib, "import_module",
                        lambda name: imported.append(name) or real(name))
    assert list(subcommands(build_parser("load"))) == ["load"]
    assert imported == ["precedent_bench.serving.load_fault"]


def test_every_subcommand_parser_builds_and_runs_its_own_module() -> None:
    commands = subcommands(build_parser("*"))
    assert len(commands) == len(SUBCOMMANDS) + len(catalogue.BENCHMARKS)
    for bench in catalogue.BENCHMARKS:
        parser = commands[bench.command]
        assert "Results: benchmarks/results/" in parser.format_help()
        handler = parser.get_default("handler")
        assert handler == f"precedent_bench.{bench.module}:run"
        module, _, name = handler.partition(":")
        run = getattr(importlib.import_module(module), name)
        required = [p for p in inspect.signature(run).parameters.values() if p.default is p.empty]
        assert len(required) == 1, f"{handler} must take the parsed arguments alone"
        assert (ROOT / "benchmarks" / "results" / bench.results).is_dir(), bench.results


def test_a_benchmark_parses_its_own_options() -> None:
    args = build_parser("load").parse_args(["load", "--scenarios", "search", "--seconds", "5"])
    assert (args.command, args.scenarios, args.seconds) == ("load", ["search"], 5.0)
    args = build_parser("ltr").parse_args(["ltr", "test", "--ranker", "r"])
    assert (args.command, args.step, args.ranker) == ("ltr", "test", Path("r"))


def test_a_benchmark_missing_its_extra_stops_before_it_starts_with_the_install_line(
        monkeypatch: Any, caplog: Any) -> None:
    from index_builder import extras

    monkeypatch.setattr(extras, "missing", lambda extra: list(extras.EXTRAS[extra]))
    ran: list[str] = []
    monkeypatch.setattr("precedent_bench.serving.soak.run", lambda args: ran.append("soak"))
    assert main(["soak", "--minutes", "1"]) == 2
    assert "`precedent-bench soak` needs the [bench] extra" in caplog.text
    assert "pip install -e '.[bench]'" in caplog.text
    assert ran == []


def test_an_option_that_calls_for_an_extra_is_checked_first(monkeypatch: Any, caplog: Any) -> None:
    from index_builder import extras

    monkeypatch.setattr(extras, "missing", lambda extra: list(extras.EXTRAS[extra]) if extra == "milvus" else [])
    assert main(["scale", "build", "--backend", "milvus", "--library", "nowhere"]) == 2
    assert "`precedent-bench scale --backend milvus` needs the [milvus] extra" in caplog.text


def test_the_console_script_points_at_this_main() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, _, name = scripts["precedent-bench"].partition(":")
    assert getattr(importlib.import_module(module), name) is main


@pytest.mark.parametrize("folder", ["precedent_bench", "benchmarks"])
def test_no_benchmark_code_edits_sys_path_or_imports_the_tests(folder: str) -> None:
    offenders = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        text = path.read_text("utf-8")
        if relative not in NOT_OURS and (SYS_PATH_EDIT.search(text) or TESTS_IMPORT.search(text)):
            offenders.append(relative)
    assert offenders == []


def test_the_guards_catch_what_they_are_for() -> None:
    assert SYS_PATH_EDIT.search('sys.path.insert(0, str(REPO / "benchmarks"))')
    assert SYS_PATH_EDIT.search("sys.path[:0] = [here]")
    assert not SYS_PATH_EDIT.search("# `-m` puts the working directory first on sys.path")
    assert TESTS_IMPORT.search("from conftest import _self_signed")
    assert TESTS_IMPORT.search('sys_path = REPO / "tests" / "sources"')
    assert not TESTS_IMPORT.search("from index_builder.sources.standins import loopback_tls")


def test_no_benchmark_module_defines_a_name_twice() -> None:
    # A benchmark's handler is `run`: a second top-level `run` (its own helper of that name)
    # silently replaces the first, as happened when the scripts became subcommands.
    import ast
    from collections import Counter

    twice = {}
    for path in sorted((ROOT / "precedent_bench").rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        names = Counter(n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)))
        if any(count > 1 for count in names.values()):
            twice[path.name] = [name for name, count in names.items() if count > 1]
    assert twice == {}
