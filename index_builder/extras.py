"""Optional parts of the install (pyproject's extras): a command that needs one says so first.

A command checks the extras its arguments and settings call for *before* it starts work, so a
missing one is a ConfigError naming the extra and the install line, not an ImportError
traceback a minute into a run (``precedent-bench rerank`` once ended that way, in its report).
Only whether each module can be found is checked: nothing is imported here.
"""

from __future__ import annotations

import importlib.util
from typing import Iterable

from index_builder.errors import ConfigError

# extra -> {distribution as pyproject names it: the module it installs}; tests/test_extras.py
# keeps this equal to [project.optional-dependencies] (the "test" extra is for developers).
EXTRAS: dict[str, dict[str, str]] = {
    "milvus": {"pymilvus": "pymilvus", "milvus-lite": "milvus_lite",
               # milvus-lite 2.5.1 imports pkg_resources, which setuptools 81 removed
               "setuptools": "pkg_resources"},
    "llm": {"xllamacpp": "xllamacpp"},
    "bench": {"matplotlib": "matplotlib", "scipy": "scipy"},
    "postgres": {"psycopg": "psycopg"},
    "openvino": {"openvino": "openvino", "nncf": "nncf"},
    # Optional speed-up, never required: segmented BM25 compiles its loop with numba where it is
    # installed and runs the same loop in numpy otherwise (index/postings_kernel.py).
    "scale": {"numba": "numba"},
}


def missing(extra: str) -> list[str]:
    """The distributions of ``extra`` whose module is not installed."""
    return [dist for dist, module in EXTRAS[extra].items() if importlib.util.find_spec(module) is None]


def require(extra: str, command: str, why: str = "") -> None:
    """ConfigError, naming the extra and how to install it, when ``extra`` is not installed."""
    absent = missing(extra)
    if absent:
        because = f" ({why})" if why else ""
        raise ConfigError(
            f"`{command}` needs the [{extra}] extra{because}, and {', '.join(absent)} "
            f"{'is' if len(absent) == 1 else 'are'} not installed. Install it with: "
            f"pip install 'precedent[{extra}]'  (from a checkout: pip install -e '.[{extra}]')")


def for_settings(settings, index: bool = True, usage: bool = False) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """(extra, the setting that calls for it) for a command that opens the index and embeds
    (``index``) or opens the usage database (``usage``)."""
    out = []
    if index and settings.backend == "milvus":
        out.append(("milvus", "PRECEDENT_BACKEND=milvus"))
    if index and settings.embedding.backend.startswith("openvino"):
        out.append(("openvino", f"PRECEDENT_EMBEDDING_BACKEND={settings.embedding.backend}"))
    if usage and settings.learning.db_url.startswith("postgresql"):
        out.append(("postgres", "PRECEDENT_FEEDBACK_DB_URL is a PostgreSQL URL"))
    return out


def require_all(needed: Iterable[tuple[str, str]], command: str) -> None:
    for extra, why in needed:
        require(extra, command, why)
