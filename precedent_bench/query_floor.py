"""`precedent-bench query-floor`: the query models' own floor, interleaved in the same minutes.

    nice -n 15 precedent-bench query-floor --models index,openvino-int8,openvino-int8-static \\
        --out benchmarks/results/throughput

What a server's searches cannot beat: a query model alone, fed never-seen texts
(precedent_bench/unseen.py: 6-12-word runs and whole clauses of the ACORD corpus and the
shared agreements, the texts the throughput benchmark's floor uses) in batches of ``--batch``,
one model call per core at once, as the server's batcher calls it (OpenVINO: one stream per
worker). Every model is loaded first; then each round runs them in the order given and back
(A B C C B A), so a shared machine's drift falls on all alike. Each row gives texts/s, the
process's CPU seconds per 100 texts (user + system, every thread: steadier than wall time
when other jobs share the cores) and the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import resource
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

log = logging.getLogger(__name__)

REPO = Path(__file__).resolve().parents[1]
COUNTS = {"short": 400, "clause": 128}  # the throughput floor's short texts; clauses: 4 batches


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("query-floor", help="texts/s of query models alone, batched, interleaved "
                                           "(never-seen short texts and whole clauses)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--models", default="index,openvino-int8,openvino-int8-static",
                   help="PRECEDENT_QUERY_EMBEDDING values (index = the index's own model)")
    p.add_argument("--acord", type=Path, default=REPO.parent / "shared/data/acord")
    p.add_argument("--contracts", type=Path, default=REPO.parent / "shared/data/contracts")
    p.add_argument("--shapes", default="short,clause")
    p.add_argument("--batch", default="32", help="texts per model call; several: 8,16,32")
    p.add_argument("--rounds", type=int, default=1, help="A B C C B A rounds")
    p.add_argument("--out", type=Path, help="folder for query-floor-<time>.json and .md")
    p.set_defaults(handler="precedent_bench.query_floor:run_command", ab=False)


def load_models(names: Sequence[str]) -> dict[str, Any]:
    """Each named query model as the server's batcher loads it (one stream per core)."""
    from index_builder.index import load_embedder
    from index_builder.index.embed_cache import set_torch_threads
    from index_builder.index.embedder import query_settings
    from index_builder.settings import load_settings

    base = load_settings().embedding
    workers = os.cpu_count() or 1
    set_torch_threads(1)  # as the server sets it: the pool's threads are the parallelism
    models = {}
    for name in names:
        wanted = query_settings(replace(base, query_backend=name))
        if name != "index" and wanted.backend != name:
            raise SystemExit(f"{name} is not a recorded query twin of {base.backend} "
                             f"(index/embedder.py QUERY_TWINS)")
        if wanted.backend != "torch":
            wanted = replace(wanted, threads=max(wanted.threads, workers))
        models[name] = load_embedder(wanted)
    return models


def floor(model: Any, texts: Sequence[str], batch: int) -> dict[str, Any]:
    """One timed pass: texts/s, CPU seconds per 100 texts, load before and after."""
    workers = os.cpu_count() or 1
    model.embed(list(texts[:batch]))  # warm: first-call allocations are not the floor
    batches = [list(texts[i:i + batch]) for i in range(0, len(texts), batch)]
    load_before = os.getloadavg()[0]
    cpu = _cpu()
    began = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(model.embed, batches))
    seconds = time.perf_counter() - began
    return {"per_s": round(len(texts) / seconds, 1),
            "cpu_s_per_100": round((_cpu() - cpu) / len(texts) * 100, 3),
            "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2)}


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_command(args: argparse.Namespace) -> int:
    from precedent_bench.unseen import library_texts, unseen, words

    names = [m for m in args.models.split(",") if m]
    batches = [int(b) for b in args.batch.split(",") if b]
    library = library_texts(args.acord, args.contracts)
    pools = {"short": unseen(library, "short", 40_000), "clause": unseen(library, "clause", 5_000)}
    shapes = [s for s in args.shapes.split(",") if s]
    texts = {s: pools[s][-COUNTS[s]:] for s in shapes}  # the throughput floor's own texts
    models = load_models(names)
    result: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpus": os.cpu_count(),
        "models": {n: m.model_id for n, m in models.items()},
        "texts": {s: {"count": len(t), "words": round(words(t), 1)} for s, t in texts.items()},
        "rows": []}
    order = names + names[::-1]
    for round_ in range(1, args.rounds + 1):
        for batch in batches:
            for shape in shapes:
                for name in order:
                    row = {"round": round_, "model": name, "model_id": models[name].model_id,
                           "shape": shape, "batch": batch,
                           **floor(models[name], texts[shape], batch)}
                    result["rows"].append(row)
                    log.info("%s", row)
    table = report(result, names)
    sys.stdout.write(table + "\n")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M", time.gmtime())
        (args.out / f"query-floor-{stamp}.json").write_text(json.dumps(result, indent=1))
        (args.out / f"query-floor-{stamp}.md").write_text(table + "\n")
    return 0


def report(result: dict[str, Any], names: Sequence[str]) -> str:
    """Every row as measured, then the medians per model and shape with the ratio to the first."""
    lines = [f"Query-model floor, {result['when']}, {result['cpus']} CPUs; one call per CPU at "
             f"once; texts: " + ", ".join(f"{s} {t['count']} ({t['words']} words)"
                                           for s, t in result["texts"].items()), "",
             "| round | model | shape | batch | texts/s | CPU s / 100 texts | load before / after |",
             "|---|---|---|---|---|---|---|"]
    for r in result["rows"]:
        lines.append(f"| {r['round']} | {r['model_id']} | {r['shape']} | {r['batch']} | {r['per_s']} "
                     f"| {r['cpu_s_per_100']} | {r['load_before']} / {r['load_after']} |")
    lines += ["", f"| model | shape | batch | texts/s (median) | x {names[0]} | "
                  f"CPU s / 100 texts (median) | x {names[0]}, CPU |", "|---|---|---|---|---|---|---|"]
    keys = sorted({(r["shape"], r["batch"]) for r in result["rows"]}, key=lambda k: (k[1], k[0]))
    for shape, batch in keys:
        med = {}
        for name in names:
            rows = [r for r in result["rows"] if (r["model"], r["shape"], r["batch"]) == (name, shape, batch)]
            med[name] = (statistics.median(r["per_s"] for r in rows),
                         statistics.median(r["cpu_s_per_100"] for r in rows))
        for name in names:
            rate, cpu = med[name]
            lines.append(f"| {result['models'][name]} | {shape} | {batch} | {rate:.1f} | "
                         f"{rate / med[names[0]][0]:.2f}x | {cpu:.3f} | {med[names[0]][1] / cpu:.2f}x |")
    return "\n".join(lines)
