"""Memory a closed index version freed goes back to the operating system (index/heap.py)."""

from __future__ import annotations

import pytest

from index_builder.index import heap


@pytest.mark.skipif(heap._glibc() is None, reason="malloc_trim is glibc's")
def test_free_pages_stranded_between_live_blocks_are_returned() -> None:
    # 20 kB blocks come from the heap (well below glibc's mmap threshold, which libraries the
    # tests import may lower), each followed by a small block that stays: freeing the large
    # ones leaves 40 MB of holes that free() alone never hands back.
    blocks = [(bytearray(b"x" * 20_000), bytearray(1_000)) for _ in range(2_000)]
    keep = [small for _, small in blocks]
    del blocks
    assert heap.release_free_memory() > 10 * 2**20
    assert len(keep) == 2_000


def test_an_explicit_arena_setting_is_left_to_glibc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert heap.limit_arenas(2) is False
