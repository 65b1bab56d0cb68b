"""The indexes the benchmarks search: where they live, how they are built or opened, and the
private copies a server benchmark works on (its rebuilds must not touch the original)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from index_builder.errors import IndexNotFoundError

if TYPE_CHECKING:
    from index_builder.settings import Settings

ACORD_INDEX = Path("var/acord-index")  # index-builder build --index var/acord-index ../shared/data/acord
CONTRACTS_INDEX = Path("var/contracts-index")  # ... --index var/contracts-index ../shared/data/contracts
# What a copy leaves behind: a build's lock, and the audit trail and usage database a server
# wrote, so that a run starts as a fresh server would.
NOT_COPIED = (".build.lock", "audit", "usage")


def built(index: Path, sources: str = "../shared/data/acord") -> Path:
    """``index`` if a build has been switched in there; else an error naming the build command."""
    if not (Path(index) / "CURRENT").is_file():
        raise IndexNotFoundError(f"No index at {index}: build it first with "
                                 f"`index-builder build --index {index} {sources}`.")
    return Path(index)


def private_copy(index: Path, dest: Path, keep_usage: bool = True) -> Path:
    """A copy of ``index`` at ``dest`` without its build lock and audit trail (and without
    its usage database unless ``keep_usage``)."""
    skip = [name for name in NOT_COPIED if not (keep_usage and name == "usage")]
    shutil.copytree(built(index), dest, ignore=shutil.ignore_patterns(*skip))
    return dest


def ensure_acord(settings: Settings, embedder: Any) -> None:
    """The ACORD index at settings.index_dir, built or brought up to date first."""
    from index_builder.evaluate.runner import ensure_acord_index

    ensure_acord_index(settings, embedder, progress=False)


def all_clauses(backend: Any) -> list[Any]:
    """Every clause of an opened backend, in id order: a dense search as deep as the index
    ranks them all (the backend protocol has no listing; benchmarks need the whole library)."""
    import numpy as np

    total = backend.stats()["clauses"]
    ids = [cid for cid, _ in backend.dense(np.ones((1, backend.dimension), dtype=np.float32), total)]
    return [c for c in backend.get(sorted(ids)) if c is not None]


def open_backend(index: Path) -> Any:
    """The search backend of a built index, opened read-only as a server opens it (settings
    from ``index`` alone, the shell's PRECEDENT_* variables ignored)."""
    from index_builder.index import open_store
    from index_builder.settings import load_settings

    return open_store(load_settings({}, {"index_dir": built(index)})).open()
