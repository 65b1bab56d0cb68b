"""The soak (soak.py) with a sampler inside the server: what its memory is made of.

    precedent-bench soak-probe --minutes 9 --swap-every 25 --out var/probe \
        --index var/sub-index --acord var/acord-sub      # the soak's options

Every ``PROBE_EVERY`` seconds (20) the server process appends one JSON line to ``<out>.jsonl``:
resident memory and its anonymous part (/proc/self/smaps_rollup), glibc's own account
(mallinfo2: bytes in use, bytes held free, bytes mmapped, arena size) and the sizes of the
search caches. Memory in use flat while memory held free grows is the allocator keeping
what swapped-out versions freed (index_builder/index/heap.py); memory in use growing is a
cache or a reference. ``PROBE_OBJECTS=1`` adds counts of live pipelines, backends and fold
caches (gc.get_objects(): it can break a tuple another thread is building, so off by default).
``PROBE_RETIRE_S`` shortens the 5-minute grace of swapped-out versions to match faster swaps.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any, Mapping

from precedent_bench.catalogue import subparser
from precedent_bench.common import servers
from precedent_bench.serving import soak


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                 "uordblks", "fordblks", "keepcost")]


def _rollup() -> dict[str, int]:
    out = {}
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("Rss", "Anonymous"):
            out[key.lower() + "_mb"] = int(value.split()[0]) // 1024
    return out


def _sample(libc: Any, t0: float) -> dict[str, Any]:
    import index_builder.retrieve.spans as spans
    import index_builder.retrieve.variations as variations

    info = libc.mallinfo2()
    row: dict[str, Any] = {"t": round(time.monotonic() - t0), **_rollup(),
                           "malloc_used_mb": info.uordblks >> 20,
                           "malloc_free_mb": info.fordblks >> 20,
                           "mmapped_mb": info.hblkhd >> 20, "arena_mb": info.arena >> 20,
                           "sentences_cached": spans._sentences.cache_info().currsize,
                           "words_cached": variations._words.cache_info().currsize}
    if os.environ.get("PROBE_OBJECTS") == "1":
        kinds = ("SearchPipeline", "EmbeddedBackend", "ClauseTable", "PairCache")
        objects = [o for o in gc.get_objects() if type(o).__name__ in kinds]
        row["objects"] = dict(Counter(type(o).__name__ for o in objects))
        row["fold_pairs"] = [len(o) for o in objects if type(o).__name__ == "PairCache"]
    return row


def _sampler(out: Path, every: float) -> None:
    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = _MallInfo2
    t0 = time.monotonic()
    while True:
        time.sleep(every)
        with out.open("a") as f:
            f.write(json.dumps(_sample(libc, t0)) + "\n")


def server_process(overrides: Mapping[str, Any], env: Mapping[str, str], environment: bool,
                   reply: Any) -> None:
    """servers.serve_index with the sampler thread started first."""
    if os.environ.get("PROBE_RETIRE_S"):
        from index_builder.retrieve import live

        live.RETIRE_AFTER_S = float(os.environ["PROBE_RETIRE_S"])
    out = Path(os.environ["PROBE_OUT"])
    threading.Thread(target=_sampler, args=(out, float(os.environ.get("PROBE_EVERY", "20"))),
                     daemon=True, name="probe").start()
    servers.serve_index(overrides, env, environment, reply)


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    soak.add_arguments(parser)
    parser.set_defaults(out=Path("var/probe"))


def run(args: argparse.Namespace) -> None:
    os.environ["PROBE_OUT"] = str(args.out.with_suffix(".jsonl"))  # the spawned server reads it
    args.out.with_suffix(".jsonl").unlink(missing_ok=True)
    soak.run(args, serve=server_process)
