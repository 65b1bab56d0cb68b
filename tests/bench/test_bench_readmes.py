"""Every `precedent-bench` command written in a results README parses with today's CLI.

A README's command is the only way to re-run its table; an option renamed in a benchmark and
not in its README would leave the figures without a command. (Running them is the
benchmarks' job; their figures take minutes to hours.)"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from precedent_bench import catalogue
from precedent_bench.cli import build_parser

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"


def code_lines(text: str) -> list[str]:
    """The README's code: indented blocks and fenced blocks, continued lines joined."""
    lines, fenced = [], False
    for line in re.sub(r"\\\n\s*", " ", text).splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif fenced or line.startswith("    "):
            lines.append(line)
    return lines


def readme_commands() -> list[tuple[str, str]]:
    """(README, the words after `precedent-bench`) for every command in a results README's code."""
    found = []
    for readme in sorted(RESULTS.rglob("README.md")):
        for line in code_lines(readme.read_text("utf-8")):
            line = re.sub(r"<[^>]*>", "PLACEHOLDER", line)
            for match in re.finditer(r"precedent-bench ([^#>\n]*)", line):
                found.append((readme.relative_to(RESULTS).as_posix(), match.group(1).strip()))
    return found


def words(command: str) -> list[str]:
    """The command as argv: `[--opt X]` taken as given, `name[-variant]` as its first form."""
    command = re.sub(r"(?<=\w)\[[^]]*\]", "", command)  # redraft-embedded[-cited]
    command = re.sub(r"\[([^]]*)\]", r"\1", command)  # [--fresh-build]
    return shlex.split(command)


COMMANDS = readme_commands()


def test_the_readmes_have_commands() -> None:
    assert len(COMMANDS) > 60
    assert {"load-fault/README.md", "soak/README.md", "throughput-ab/README.md"} <= {r for r, _ in COMMANDS}


@pytest.mark.parametrize("readme,command", COMMANDS, ids=[f"{r}: {c[:60]}" for r, c in COMMANDS])
def test_each_readme_command_parses(readme: str, command: str) -> None:
    argv = words(command)
    if not argv or argv[0] in ("--help", "COMMAND", "BENCHMARK"):
        return  # the README naming the CLI itself
    named = argv[0] if argv[0] in catalogue.BY_COMMAND else None
    try:
        args = build_parser(named).parse_args(argv)
    except SystemExit as failed:
        pytest.fail(f"{readme}: `precedent-bench {command}` does not parse (exit {failed.code})")
    assert args.command == argv[0]


def test_every_results_folder_has_a_readme_listed_in_the_index() -> None:
    index = (RESULTS / "README.md").read_text("utf-8")
    for folder in sorted(p for p in RESULTS.iterdir() if p.is_dir()):
        assert (folder / "README.md").is_file(), f"{folder.name}/ has no README.md"
        assert f"]({folder.name}/README.md)" in index, f"{folder.name}/ is not in results/README.md's index"
