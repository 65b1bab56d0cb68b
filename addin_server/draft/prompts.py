"""Prompt templates: plain files with a header and chat turns, validated when loaded.

File format (see prompts/README.md)::

    # comment lines start with '#'
    name: rerank
    version: 3
    variables: query, clause

    === system ===
    text with $placeholders ($$ for a literal dollar sign)
    === user ===
    ...
    === assistant ===   (optional worked examples as earlier turns)

Placeholders must match the declared variables exactly, and the declared variables must
match what the calling code fills; any mismatch is a PromptError naming the file.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Iterable

from index_builder.errors import PromptError

ROLES = ("system", "user", "assistant")
_SECTION = re.compile(r"^===\s*(\w+)\s*===\s*$")
_HEADER = re.compile(r"^(\w+)\s*:\s*(.*)$")

# What each kind of prompt is filled with by the code; a file must declare exactly these.
RERANK_VARIABLES = frozenset({"query", "clause"})
REDRAFT_VARIABLES = frozenset({"text", "precedents", "instructions", "count"})
# With no precedents there is nothing to number or cite: a prompt that said "only the numbers
# 1 to 0 exist" got [1] cited and every such redraft failed the markers check. Its own file.
REDRAFT_ALONE_VARIABLES = frozenset({"text", "instructions"})
REDRAFT_ALONE_FILE = "redraft-alone.prompt"


@dataclass(frozen=True)
class PromptTemplate:
    """A validated prompt: chat turns with ``$var`` placeholders, a name and a version."""

    name: str
    version: str
    variables: frozenset[str]
    turns: tuple[tuple[str, str], ...]  # (role, template text)
    path: str
    digest: str  # of the file's bytes: edits change cache keys even without a version bump

    @property
    def key(self) -> str:
        """Identifies this exact prompt in caches and logs."""
        return f"{self.name}@{self.version}#{self.digest[:12]}"

    def render(self, **values: str) -> list[dict[str, str]]:
        """Chat messages with every placeholder filled; values must match ``variables``."""
        given = set(values)
        if given != self.variables:
            raise PromptError(f"{self.path}: rendered with {sorted(given)}, but it declares "
                              f"{sorted(self.variables)}.")
        return [{"role": role, "content": Template(text).substitute(values)}
                for role, text in self.turns]

    def fixed_text(self) -> str:
        """All template text without placeholders, for token budgeting."""
        return "\n".join(Template(text).safe_substitute({v: "" for v in self.variables})
                         for _, text in self.turns)


def load_redraft_alone(beside: PromptTemplate | str | Path, default_dir: Path) -> PromptTemplate:
    """The precedent-less redraft prompt: the file next to ``beside`` (the redraft prompt in
    use, so an edited prompts folder stays one folder), else the shipped one."""
    folder = Path(beside.path if isinstance(beside, PromptTemplate) else beside).parent
    path = folder / REDRAFT_ALONE_FILE
    if not path.is_file():
        path = Path(default_dir) / REDRAFT_ALONE_FILE
    return load_prompt(path, REDRAFT_ALONE_VARIABLES)


def load_prompt(path: Path, required: Iterable[str]) -> PromptTemplate:
    """Read and validate one prompt file against the variables its code provides."""
    path = Path(path)
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise PromptError(f"Prompt file {path} does not exist: set PRECEDENT_PROMPTS_DIR or "
                          f"restore it from the repository.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PromptError(f"Prompt file {path} cannot be read as UTF-8 text ({exc}).") from None
    header, turns = _parse(text, path)
    for key in ("name", "version", "variables"):
        if not header.get(key):
            raise PromptError(f"{path}: the header must give '{key}:' (e.g. 'version: 1').")
    declared = frozenset(v.strip() for v in header["variables"].split(",") if v.strip())
    _check_placeholders(path, turns, declared, frozenset(required))
    return PromptTemplate(name=header["name"], version=header["version"], variables=declared,
                          turns=tuple(turns), path=str(path),
                          digest=hashlib.sha256(raw).hexdigest())


def _parse(text: str, path: Path) -> tuple[dict[str, str], list[tuple[str, str]]]:
    header: dict[str, str] = {}
    turns: list[tuple[str, list[str]]] = []
    for number, line in enumerate(text.splitlines(), 1):
        section = _SECTION.match(line)
        if section:
            role = section.group(1).lower()
            if role not in ROLES:
                raise PromptError(f"{path}, line {number}: unknown section '{role}'; use one of "
                                  f"{', '.join(ROLES)}.")
            turns.append((role, []))
        elif turns:
            turns[-1][1].append(line)
        elif line.strip() and not line.lstrip().startswith("#"):
            match = _HEADER.match(line.strip())
            if not match:
                raise PromptError(f"{path}, line {number}: expected 'key: value' in the header "
                                  f"or a '=== system ===' section line.")
            header[match.group(1).lower()] = match.group(2).strip()
    if not turns or not any(role == "user" for role, _ in turns):
        raise PromptError(f"{path}: no '=== user ===' section.")
    if turns[-1][0] != "user":
        raise PromptError(f"{path}: the last section must be '=== user ===' (the model answers it).")
    return header, [(role, "\n".join(lines).strip("\n")) for role, lines in turns]


def _check_placeholders(path: Path, turns: list[tuple[str, str]], declared: frozenset[str],
                        required: frozenset[str]) -> None:
    used: set[str] = set()
    for role, text in turns:
        for match in Template.pattern.finditer(text):
            name = match.group("named") or match.group("braced")
            if name:
                used.add(name)
            elif match.group("invalid") is not None:
                line = text.count("\n", 0, match.start()) + 1
                raise PromptError(f"{path}: stray '$' in the {role} section (line {line} of it); "
                                  f"write '$$' for a literal dollar sign.")
    if unknown := used - declared:
        raise PromptError(f"{path}: unknown placeholder(s) {_names(unknown)}; declared: "
                          f"{_names(declared)}.")
    if unused := declared - used:
        raise PromptError(f"{path}: declared variable(s) {_names(unused)} never used.")
    if missing := required - declared:
        raise PromptError(f"{path}: missing placeholder(s) {_names(missing)}; the code fills "
                          f"{_names(required)}.")
    if extra := declared - required:
        raise PromptError(f"{path}: placeholder(s) {_names(extra)} are not filled by the code, "
                          f"which provides {_names(required)}.")


def _names(names: Iterable[str]) -> str:
    return ", ".join(f"${n}" for n in sorted(names)) or "none"
