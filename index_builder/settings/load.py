"""Building Settings from the environment and overrides (CLI flags), and turning text into types.

The one loader: nothing else reads PRECEDENT_* variables, and nothing reads the environment
after ``load_settings``.
"""

from __future__ import annotations

import logging
import os
from dataclasses import MISSING, fields, replace
from pathlib import Path
from typing import Any, Mapping

from index_builder.errors import ConfigError
from index_builder.settings.env import ENV, unknown_variables
from index_builder.settings.root import Settings

log = logging.getLogger(__name__)


def load_settings(environ: Mapping[str, str] | None = None,
                  overrides: Mapping[str, Any] | None = None) -> Settings:
    """Build Settings from the environment plus overrides keyed like ``"retrieval.rrf_k"``.

    Override values of ``None`` are ignored, so CLI flags that were not given fall through.
    """
    environ = os.environ if environ is None else environ
    for name, nearest in unknown_variables(environ):
        # A warning, not an error: a variable of a newer or older release must not stop a start.
        log.warning("%s is not a Precedent setting and is ignored%s", name,
                    f"; did you mean {nearest}?" if nearest else " (docs/settings.md lists them).")
    values: dict[str, tuple[Any, str]] = {}
    for name, var in ENV.items():
        if environ.get(name, "").strip() == "" or name == "PRECEDENT_API_TOKENS_FILE":
            continue
        values[var.field] = (environ[name], name)
    if "server.api_tokens" in values and not coerce_setting(values["server.api_tokens"][0],
                                                            "tuple[str, ...]", ""):
        # "," or " " would otherwise switch authentication off without a word.
        raise ConfigError("PRECEDENT_API_TOKENS is set but holds no token: give one or more "
                          "comma-separated tokens, or unset it to run without authentication.")
    tokens_file = environ.get("PRECEDENT_API_TOKENS_FILE", "").strip()
    if tokens_file:
        values["server.api_tokens"] = (_read_tokens(Path(tokens_file)), "PRECEDENT_API_TOKENS_FILE")
    for key, value in (overrides or {}).items():
        if value is not None:
            values[key] = (value, f"option {key}")
    return _apply(values)


def updated(settings: Settings, overrides: Mapping[str, Any]) -> Settings:
    """A copy of ``settings`` with dotted overrides (``{"rerank.default": "off"}``), validated."""
    return _apply({k: (v, f"option {k}") for k, v in overrides.items() if v is not None}, settings)


def _apply(values: Mapping[str, tuple[Any, str]], base: Settings | None = None) -> Settings:
    top: dict[str, Any] = {}
    sections: dict[str, dict[str, Any]] = {}
    # Sections are the fields with a factory (a settings dataclass); the rest are plain values.
    section_names = {f.name for f in fields(Settings) if f.default_factory is not MISSING}
    for key, (raw, origin) in values.items():
        section, _, name = key.rpartition(".")
        if section and section not in section_names:
            raise ConfigError(f"Unknown setting {key!r} (from {origin}).")
        kinds = {f.name: str(f.type) for f in fields(_section_type(section))}
        if not name or name not in kinds or (not section and name in section_names):
            raise ConfigError(f"Unknown setting {key!r} (from {origin}).")
        value = coerce_setting(raw, kinds[name], origin)
        (sections.setdefault(section, {}) if section else top)[name] = value
    base = base or Settings()
    for section, changes in sections.items():
        top[section] = replace(getattr(base, section), **changes)
    return replace(base, **top)


def _section_type(section: str) -> Any:
    if not section:
        return Settings
    return {f.name: f.default_factory for f in fields(Settings)}[section]  # type: ignore[return-value]


def coerce_setting(raw: Any, kind: str, origin: str) -> Any:
    """Turn an environment string into the field's type; typed CLI values pass through.

    ``kind`` is the dataclass field's annotation as text; ``origin`` names the variable or
    option in the error message, so the user knows what to fix.
    """
    if not isinstance(raw, str):
        if kind == "tuple[str, ...]" and isinstance(raw, (list, tuple)):
            return tuple(str(v) for v in raw)
        if kind in ("Path", "Path | None") and isinstance(raw, str | os.PathLike):
            return Path(raw)
        return raw
    text = raw.strip()
    try:
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
        if kind == "bool":
            return _bool(text)
        if kind in ("Path", "Path | None"):
            return Path(text).expanduser() if text else None
        if kind == "tuple[str, ...]":
            return tuple(part.strip() for part in text.split(",") if part.strip())
        return text
    except ValueError:
        raise ConfigError(f"{origin} must be a {kind}, got {raw!r}.") from None


def _bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(text)


def _read_tokens(path: Path) -> tuple[str, ...]:
    try:
        lines = path.read_text("utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(f"PRECEDENT_API_TOKENS_FILE {path} cannot be read ({exc.strerror}).") from None
    tokens = tuple(line.strip() for line in lines if line.strip() and not line.startswith("#"))
    if not tokens:
        raise ConfigError(f"PRECEDENT_API_TOKENS_FILE {path} holds no token (one per line); "
                          f"add one, or unset the variable to run without authentication.")
    return tokens
