"""Ethical walls at index time: which groups may see each document, from a policy file.

Firm IT exports its walls from the DMS as a policy file, without touching the contracts:
folder or file patterns, each with the groups allowed to see what it covers and the groups
denied. The index builder asks ``WallPolicy.access(path)`` for every document and writes the
answer into each clause's metadata as ``access_groups`` / ``denied_groups`` (comma-separated,
the list fields of ``index_builder.index.backend``). Changing the policy changes only that
metadata: the next rebuild applies it without re-embedding.

Patterns are matched against the document's path relative to the source folder given to the
build (``Matters/Acme 2024/SPA.docx``), with ``/`` separators, case-insensitively:
``*`` and ``?`` stay within one folder name, ``**`` spans any number of folders, and a
pattern ending in ``/`` covers everything beneath that folder.

The most specific matching rule wins: an exact file name beats any pattern with a wildcard,
then the pattern with more literal characters wins (``Matters/Acme/**`` beats
``Matters/**``). Two equally specific rules that both match are combined the safe way:
only groups both allow, every group either denies. A document no rule covers follows the
default (``PRECEDENT_WALLS_DEFAULT``): ``open`` (everyone), ``closed`` (no one) or a list of
groups. ``*`` names everyone: ``"deny": ["*"]`` hides a folder from every user.

File formats (``.json`` or ``.csv``)::

    {"rules": [{"pattern": "Matters/Acme/", "allow": ["acme-team"], "deny": ["acme-conflict"]}]}

    pattern,allow,deny
    Matters/Acme/,acme-team,acme-conflict
    Matters/Beta/,beta-team;partners,

In CSV cells several groups are separated by ``;``. A group name may not contain ``,`` or ``;``.
"""

from __future__ import annotations

import csv
import hashlib
import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from index_builder.errors import ConfigError

log = logging.getLogger(__name__)

EVERYONE = "*"  # in access_groups: every signed-in user; in denied_groups: no one
ACCESS_FIELD = "access_groups"
DENIED_FIELD = "denied_groups"
_GROUP_SEPARATORS = re.compile(r"[;,]")


@dataclass(frozen=True)
class Access:
    """Who may see one document: any of ``allowed``, unless in any of ``denied``."""

    allowed: tuple[str, ...]
    denied: tuple[str, ...]
    rule: str  # the pattern(s) that decided, or "default", so IT can check a policy

    def metadata(self) -> dict[str, str]:
        """The clause metadata the index stores (comma-separated list fields)."""
        return {ACCESS_FIELD: ",".join(self.allowed), DENIED_FIELD: ",".join(self.denied)}

    def visible_to(self, groups: Iterable[str]) -> bool:
        """Reference semantics (the backends apply the same as filters): allowed and not denied."""
        mine = {normalise_group(g) for g in groups} | {EVERYONE}
        return bool(mine & set(self.allowed)) and not mine & set(self.denied)


@dataclass(frozen=True)
class Rule:
    pattern: str
    allow: tuple[str, ...]
    deny: tuple[str, ...]
    regex: re.Pattern[str]
    specificity: tuple[int, int]  # (exact file name?, literal characters): bigger wins


class WallPolicy:
    """The rules of one policy file plus the default; ``access(path)`` for each document."""

    def __init__(self, rules: Sequence[Rule], default: Access, source: str = "") -> None:
        self.rules = list(rules)
        self.default = default
        self.source = source
        canonical = json.dumps({"rules": [[r.pattern, r.allow, r.deny] for r in self.rules],
                                "default": [default.allowed, default.denied]})
        # Recorded with the index version: a changed policy is a change to rebuild for.
        self.fingerprint = hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    def access(self, relative_path: str) -> Access:
        """The access for a document at ``relative_path`` under its source folder."""
        path = _clean_path(relative_path)
        matching = [rule for rule in self.rules if rule.regex.fullmatch(path)]
        if not matching:
            return self.default
        best = max(rule.specificity for rule in matching)
        winners = [rule for rule in matching if rule.specificity == best]
        if len(winners) == 1:
            rule = winners[0]
            return Access(rule.allow, rule.deny, rule.pattern)
        return _combine(winners)

    def rule_access(self, relative_path: str) -> Access | None:
        """The access a rule gives this path, None when only the default would (a DMS
        document then keeps its DMS's permissions: the policy file is for overrides)."""
        path = _clean_path(relative_path)
        if not any(rule.regex.fullmatch(path) for rule in self.rules):
            return None
        return self.access(relative_path)

    def describe(self) -> dict[str, Any]:
        """For the index's params: enough to tell whether walls changed, no group lists."""
        return {"policy_sha256": self.fingerprint, "rules": len(self.rules),
                "default": self.default.rule, "source": self.source}


def load_policy(path: Path | None, default: str = "open") -> WallPolicy | None:
    """Read a policy file (.json or .csv); None when no file is configured (no walls)."""
    if path is None:
        return None
    path = Path(path)
    try:
        raw = path.read_text("utf-8-sig")  # Excel writes a byte-order mark into CSV
    except OSError as exc:
        raise ConfigError(f"PRECEDENT_WALLS_POLICY_FILE {path} cannot be read "
                          f"({exc.strerror or exc}).") from None
    if path.suffix.lower() == ".json":
        entries = _json_entries(raw, path)
    elif path.suffix.lower() == ".csv":
        entries = _csv_entries(raw, path)
    else:
        raise ConfigError(f"PRECEDENT_WALLS_POLICY_FILE {path}: use a .json or .csv file "
                          f"(see docs/security.md, ethical walls).")
    rules = [make_rule(pattern, allow, deny, f"{path.name} rule {n}")
             for n, (pattern, allow, deny) in enumerate(entries, 1)]
    seen: dict[str, int] = {}
    for n, rule in enumerate(rules, 1):
        if rule.pattern.casefold() in seen:
            raise ConfigError(f"{path.name}: rule {n} repeats the pattern {rule.pattern!r} of rule "
                              f"{seen[rule.pattern.casefold()]}; keep one.")
        seen[rule.pattern.casefold()] = n
    policy = WallPolicy(rules, default_access(default), str(path))
    log.info("Ethical-wall policy %s: %d rules, default %s", path.name, len(rules),
             policy.default.rule)
    return policy


def default_access(value: str) -> Access:
    """``open`` (everyone), ``closed`` (no one) or comma-separated groups."""
    text = (value or "").strip()
    if text.casefold() == "open":
        return Access((EVERYONE,), (), "default (open)")
    if text.casefold() == "closed":
        return Access((), (), "default (closed)")
    groups = _groups(text, "PRECEDENT_WALLS_DEFAULT")
    if not groups:
        raise ConfigError("PRECEDENT_WALLS_DEFAULT must be open, closed or group names.")
    return Access(groups, (), "default")


def make_rule(pattern: str, allow: Iterable[str] | str, deny: Iterable[str] | str,
              where: str = "rule") -> Rule:
    """One validated rule; ``where`` names it in error messages."""
    if not isinstance(pattern, str) or not pattern.strip():
        raise ConfigError(f"{where}: 'pattern' must be a folder or file pattern such as "
                          f"'Matters/Acme/' or 'Matters/*/Board minutes*.docx'.")
    cleaned = _clean_path(pattern)
    if pattern.strip().replace("\\", "/").endswith("/"):
        cleaned = cleaned.rstrip("/") + "/**"
    allowed, denied = _groups(allow, f"{where} allow"), _groups(deny, f"{where} deny")
    if not allowed and EVERYONE not in denied:
        # Explicit, so a deny-only rule never silently opens a folder to everyone else.
        raise ConfigError(f"{where} ({pattern!r}) allows no group: list the groups that may see "
                          f"it, \"*\" for everyone (with its denied groups), or deny \"*\" to "
                          f"hide it from all.")
    literal = len(re.sub(r"[*?]", "", cleaned))
    exact = 0 if re.search(r"[*?]", cleaned) else 1
    return Rule(cleaned, allowed, denied, _glob_regex(cleaned), (exact, literal))


def normalise_group(name: str) -> str:
    """Groups compare case-insensitively, like every filter value."""
    return name.strip().casefold()


def _groups(value: Iterable[str] | str | None, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        parts = _GROUP_SEPARATORS.split(value)
    elif isinstance(value, (list, tuple)):
        parts = list(value)
        if any(not isinstance(p, str) or _GROUP_SEPARATORS.search(p) for p in parts):
            raise ConfigError(f"{where}: group names must be strings without ',' or ';'.")
    else:
        raise ConfigError(f"{where}: give a list of group names.")
    return tuple(sorted({normalise_group(p) for p in parts if p.strip()}))


def _json_entries(raw: str, path: Path) -> list[tuple[Any, Any, Any]]:
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise ConfigError(f"{path} is not valid JSON ({exc}).") from None
    rules = data.get("rules") if isinstance(data, dict) else data
    if not isinstance(rules, list) or not all(isinstance(r, dict) for r in rules):
        raise ConfigError(f'{path}: expected {{"rules": [{{"pattern", "allow", "deny"}}, ...]}}.')
    for n, rule in enumerate(rules, 1):
        unknown = set(rule) - {"pattern", "allow", "deny", "comment"}
        if unknown:
            raise ConfigError(f"{path.name} rule {n}: unknown key(s) {', '.join(sorted(unknown))}; "
                              f"a rule has pattern, allow, deny (and an optional comment).")
    return [(r.get("pattern"), r.get("allow"), r.get("deny")) for r in rules]


def _csv_entries(raw: str, path: Path) -> list[tuple[Any, Any, Any]]:
    rows = list(csv.DictReader(raw.splitlines()))
    header = {h.strip().casefold() for h in (rows[0].keys() if rows else [])}
    if rows and "pattern" not in header:
        raise ConfigError(f"{path}: the first line must be the header pattern,allow,deny.")
    out = []
    for row in rows:
        cells = {(k or "").strip().casefold(): (v or "") for k, v in row.items()}
        if not any(cells.values()):
            continue
        out.append((cells.get("pattern", ""), cells.get("allow", ""), cells.get("deny", "")))
    return out


def _clean_path(path: str) -> str:
    text = path.strip().replace("\\", "/")
    while text.startswith("./"):
        text = text[2:]
    return re.sub(r"/{2,}", "/", text.lstrip("/"))


def _glob_regex(pattern: str) -> re.Pattern[str]:
    parts = []
    segments = pattern.split("/")
    for i, segment in enumerate(segments):
        last = i == len(segments) - 1
        if segment == "**":
            parts.append(".*" if last else "(?:[^/]*/)*")  # any depth, including none
            continue
        piece = "".join("[^/]*" if ch == "*" else "[^/]" if ch == "?" else re.escape(ch)
                        for ch in segment)
        parts.append(piece if last else piece + "/")
    return re.compile("".join(parts), re.IGNORECASE | re.DOTALL)


def _combine(rules: Sequence[Rule]) -> Access:
    """Equally specific rules: allow only what all allow, deny what any denies."""
    allowed: set[str] | None = None
    for rule in rules:
        mine = set(rule.allow)
        if EVERYONE in mine:
            continue  # "everyone" narrows nothing
        allowed = mine if allowed is None else allowed & mine
    denied = sorted({g for rule in rules for g in rule.deny})
    names = " + ".join(rule.pattern for rule in rules)
    log.warning("Ethical walls: equally specific rules %s both cover a document; applying both "
                "(groups all allow, groups any deny).", names)
    final = (EVERYONE,) if allowed is None else tuple(sorted(allowed))
    return Access(final, tuple(denied), names)
