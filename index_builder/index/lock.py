"""One build at a time per index: a lock file holding the builder's process id.

Two overlapping builds (a slow one and the next cron run) would prune each other's new
version folders; the second build waits for nobody and says why it stopped instead.

The lock file appears with the process id already in it (written to a file of its own, then
hard-linked into place, which fails if a lock exists): a builder killed at any instant
leaves either no lock or one naming a process that no longer runs, which the next build
takes over. An empty lock (a file created first and written after, as before) read as
"unknown" and blocked every build for hours after a kill at the wrong moment.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import time
from pathlib import Path
from typing import Iterator

from index_builder.errors import BuildInProgressError

LOCK_NAME = ".build.lock"
# Where a process cannot be probed (Windows), a lock this old is taken to be left by a crash.
STALE_AFTER_S = 6 * 3600
# An empty lock can only be one caught between create and write (the fallback below): after
# this long its writer is gone.
EMPTY_STALE_AFTER_S = 10.0
_NO_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS, errno.EXDEV}



@contextlib.contextmanager
def build_lock(index_dir: Path) -> Iterator[None]:
    """Hold the index's build lock for the duration of the block."""
    index_dir.mkdir(parents=True, exist_ok=True)
    path = index_dir / LOCK_NAME
    for _ in range(2):
        try:
            _create(path)
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
        yield
    finally:
        path.unlink(missing_ok=True)


def _create(path: Path) -> None:
    """Create ``path`` holding this process's id, complete or not at all; FileExistsError if
    it exists."""
    content = f"pid {os.getpid()}".encode()
    draft = path.with_name(f"{path.name}.{os.getpid()}")
    try:
        draft.write_bytes(content)
        try:
            os.link(draft, path)
            return
        except FileExistsError:
            raise
        except OSError as exc:
            if exc.errno not in _NO_LINKS:
                raise
    finally:
        draft.unlink(missing_ok=True)
    # No hard links on this file system (FAT, some shares): create, then write.
    fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    try:
        os.write(fd, content)
    except OSError:
        path.unlink(missing_ok=True)
        raise
    finally:
        os.close(fd)


def _stale(path: Path) -> bool:
    try:
        text = path.read_text().strip()
        age = time.time() - path.stat().st_mtime
    except OSError:
        return True  # vanished meanwhile: the holder finished
    if not text:
        return age > EMPTY_STALE_AFTER_S
    pid = int(text.split()[-1]) if text.split()[-1].isdigit() else None
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
