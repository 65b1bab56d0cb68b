"""How the DMS sources list a large library: pages, requests, time and the client's memory.

Lists 5,000 and 50,000 metadata-only documents from the loopback Graph and iManage
stand-ins (index_builder/sources/standins/, each in its own process so only the client is
measured) into a sync state, as a first sync does. Graph also reads every file's
permissions, 20 per $batch call. Writes benchmarks/results/sources/scale.json.

    precedent-bench sources-scale [--counts 5000 50000]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import tracemalloc
from pathlib import Path

from index_builder.settings import load_settings
from index_builder.sources import open_source
from index_builder.sources.state import SyncState
from index_builder.sources.sync import SyncReport, sync_changes

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import RESULTS


def listing(kind: str, count: int, folder: Path, tls: tuple[Path, Path]) -> dict[str, object]:
    from index_builder.sources.standins import big_graph_in_process, big_imanage_in_process

    if kind == "sharepoint":
        url, process = big_graph_in_process(tls, count)
        values = {"sources.graph_tenant_id": "contoso-tenant", "sources.graph_client_id": "app-1",
                  "sources.graph_client_secret": "s3cret-Graph-77", "sources.graph_authority_url": url,
                  "sources.graph_url": f"{url}/v1.0"}
        spec = "sharepoint:drives/b!drive-precedents"
    else:
        url, process = big_imanage_in_process(tls, count)
        values = {"sources.imanage_url": url, "sources.imanage_library": "ACTIVE",
                  "sources.imanage_client_id": "precedent-app", "sources.imanage_client_secret": "cs-iManage-13",
                  "sources.imanage_username": "svc-precedent", "sources.imanage_password": "pw-iManage-42"}
        spec = "imanage:WS-Big"
    try:
        settings = load_settings({}, {"index_dir": folder / "index", "sources.ca_bundle": tls[0], **values})
        source = open_source(spec, settings)
        state = SyncState(folder / f"{kind}-{count}.sqlite", source.name)
        report = SyncReport()
        tracemalloc.start()
        started = time.perf_counter()
        sync_changes(source, state, report)
        seconds = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        listed = state.count()
        state.close()
        return {"source": kind, "documents": count, "listed": listed, "pages": report.pages,
                "seconds": round(seconds, 1), "items_per_s": round(count / seconds),
                "client_peak_mib": round(peak / 2**20, 2),
                "state_mib": round((folder / f"{kind}-{count}.sqlite").stat().st_size / 2**20, 1)}
    finally:
        process.terminate()
        process.join()


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--counts", type=int, nargs="+", default=[5_000, 50_000])
    parser.add_argument("--sources", nargs="+", default=["imanage", "sharepoint"])
    parser.add_argument("--out", type=Path, default=RESULTS / "sources" / "scale.json")


def run(args: argparse.Namespace) -> None:
    from index_builder.sources.standins import loopback_tls

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        tls = loopback_tls(folder)
        for kind in args.sources:
            for count in args.counts:
                row = listing(kind, count, folder, tls)
                print(json.dumps(row), flush=True)
                rows.append(row)
    args.out.write_text(json.dumps(rows, indent=2) + "\n")
    print(f"wrote {args.out}")
