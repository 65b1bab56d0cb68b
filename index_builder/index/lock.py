"""One build at a time per index: a lock file holding the builder's process id.

Two overlapping builds (a slow one and the next cron run) would prune each other's new
version folders; the second build waits for nobody and says why it stopped instead.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path
from typing import Iterator

from index_builder.errors import BuildInProgressError

LOCK_NAME = ".build.lock"
# Where a process cannot be probed (Windows), a lock this old is taken to be left by a crash.
STALE_AFTER_S = 6 * 3600



@contextlib.contextmanager
def build_lock(index_dir: Path) -> Iterator[None]:
    """Hold the index's build lock for the duration of the block."""
    index_dir.mkdir(parents=True, exist_ok=True)
    path = index_dir / LOCK_NAME
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            break
        except FileExistsError:
            if not _stale(path):
                raise BuildInProgressError(
                    f"Another build is writing {index_dir} ({path.read_text().strip() or 'unknown'}); "
                    f"run again when it has finished, or delete {path} if no build is running.") from None
            path.unlink(missing_ok=True)
    else:
        raise BuildInProgressError(f"Could not take the build lock {path}; try again.")
    try:
        os.write(fd, f"pid {os.getpid()}".encode())
        os.close(fd)
        yield
    finally:
        path.unlink(missing_ok=True)


def _stale(path: Path) -> bool:
    try:
        text = path.read_text().strip()
        age = time.time() - path.stat().st_mtime
    except OSError:
        return True  # vanished meanwhile: the holder finished
    pid = int(text.split()[-1]) if text.split() and text.split()[-1].isdigit() else None
    if pid is None or sys.platform == "win32":
        # os.kill(pid, 0) would terminate the process on Windows: judge by age instead.
        return age > STALE_AFTER_S
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # alive, owned by another user
    return False
