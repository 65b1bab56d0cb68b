"""Hand the memory a swapped-out index version freed back to the operating system (glibc).

Each rebuild firm IT runs is swapped into a running server; the retired version's arrays
(FAISS vectors, columns), its SQLite page caches and its search caches are freed when it is
closed. glibc keeps freed memory in its allocation arenas for reuse, one arena per thread up
to 8 per core, and only gives back what sits at the top of an arena. `precedent-bench soak` found
the server's resident memory growing ~6 MB a minute with a swap every 2 minutes: the memory
in use (glibc's mallinfo2, Python's objects) stayed flat, while what glibc held *free* grew
(48 -> 149 MB in 9 minutes of faster swaps: benchmarks/results/soak-probe/soak_probe.md).
``malloc_trim(0)`` returns every free page of every arena; ``M_ARENA_MAX`` caps the arenas so
freed memory is reused rather than stranded in an arena whose thread no longer asks for it.

Both are no-ops where the C library is not glibc (macOS, musl, Windows).
"""

from __future__ import annotations

import ctypes
import os
from functools import lru_cache
from typing import Any

M_ARENA_MAX = -8  # glibc's mallopt parameter number (malloc.h)


@lru_cache(maxsize=1)
def _glibc() -> Any | None:
    try:
        libc = ctypes.CDLL(None)  # the C library this process already runs on
    except (OSError, TypeError):  # Windows: no process-wide handle
        return None
    if not (hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt")):
        return None  # not glibc
    libc.malloc_trim.argtypes = [ctypes.c_size_t]
    libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return libc


def limit_arenas(count: int) -> bool:
    """Cap glibc's allocation arenas for the threads started from now on; True if set.

    Call before any thread but the main one allocates: glibc fixes its limit the first time
    a thread needs an arena of its own. 0 keeps glibc's default; an explicit
    ``MALLOC_ARENA_MAX`` in the environment (firm IT's choice, read at start) is left as it is.
    """
    libc = _glibc()
    if libc is None or count <= 0 or os.environ.get("MALLOC_ARENA_MAX"):
        return False
    return bool(libc.mallopt(M_ARENA_MAX, int(count)))


def release_free_memory() -> int:
    """Return glibc's free pages to the operating system; the resident bytes that gave back.

    Cheap enough to run once per closed index version (a walk over the free lists: a few
    milliseconds for a server of ~1 GB); 0 where the C library is not glibc.
    """
    libc = _glibc()
    if libc is None:
        return 0
    before = _resident_bytes()
    libc.malloc_trim(0)
    return max(0, before - _resident_bytes())


def _resident_bytes() -> int:
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0
