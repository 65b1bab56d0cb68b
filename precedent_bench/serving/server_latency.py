"""Latency of POST /api/v1/precedents over real HTTP (cheroot on loopback).

1. Without the LLM: hybrid retrieval only (the served pipeline, real embedding model).
2. With LLM rerank against the scripted OpenAI-compatible server, each call delayed by
   --delay seconds, at several concurrency bounds: with depth d and bound c the rerank
   stage should take about ceil(d / c) x delay, which shows the calls run concurrently.

    precedent-bench server-latency --index var/acord-index \
        --out benchmarks/results/server-latency/server_latency.md

Queries are ACORD's test queries (short) and ACORD clauses sent as the lawyer's selected
paragraph (long). Requests are sequential, as one lawyer's pane sends them.
"""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import math
import os
import platform
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from addin_server.llm.scripted import Reply, ScriptedLLMServer
from index_builder.evaluate.acord import load_acord
from index_builder.settings import LLMSettings, load_settings

from precedent_bench.catalogue import options, subparser
from precedent_bench.common import data, indexes
from precedent_bench.common.machine import percentile
from precedent_bench.common.servers import app_for, serve_in_thread

log = logging.getLogger("benchmark")
END_MARKER = "<!-- end of server_latency.py output -->"


def run(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.WARNING)
    overrides: dict[str, Any] = {"index_dir": args.index, "rerank.depth": args.depth}
    if args.no_cross_encoder:
        overrides["rerank.cross_encoder"] = ""
    settings = load_settings(overrides=overrides)
    queries = _queries(settings.acord_dir, args.queries)
    rows = [("no LLM (rerank off)", "-", _run(settings, None, queries, args))]
    with ScriptedLLMServer(lambda body: Reply(content="2", logprobs={"2": -0.1, "3": -2.4},
                                              delay_s=args.delay)) as llm:
        for bound in args.concurrency:
            endpoint = LLMSettings(base_url=llm.url, max_concurrency=bound, request_timeout_s=30,
                                   rerank_model="scripted")
            llm.max_in_flight = 0
            stats = _run(settings, endpoint, queries[: args.rerank_queries], args)
            stats["in_flight"] = llm.max_in_flight
            expected = math.ceil(args.depth / bound) * args.delay * 1000
            rows.append((f"rerank, {args.delay * 1000:.0f} ms per call, bound {bound}",
                         f"{expected:.0f}", stats))
    report = _report(rows, args, settings, len(queries))
    print(report)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        # Keep what follows the marker (the ACORD rerank figures, measured by index-builder).
        old = args.out.read_text() if args.out.is_file() else ""
        kept = old[old.index(END_MARKER) + len(END_MARKER):] if END_MARKER in old else "\n"
        args.out.write_text(report + END_MARKER + kept)


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--index", type=Path, default=indexes.ACORD_INDEX)
    parser.add_argument("--queries", type=int, default=40, help="queries without the LLM (half short, half long)")
    parser.add_argument("--rerank-queries", type=int, default=12, help="queries per rerank setting")
    parser.add_argument("--delay", type=float, default=0.2, help="scripted LLM delay per call (s)")
    parser.add_argument("--depth", type=int, default=10, help="candidates reranked per query")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 10])
    parser.add_argument("--no-cross-encoder", action="store_true",
                        help="measure hybrid retrieval alone even if a cross-encoder is built")
    parser.add_argument("--out", type=Path, help="write the markdown report here")


def _queries(acord_dir: Path, count: int) -> list[str]:
    acord = load_acord(acord_dir)
    short = [q.wordings["short"] for q in acord.split_queries("test")]
    corpus = data.acord_corpus(acord_dir)
    long = [row["text"] for row in corpus[:: max(len(corpus) // count, 1)]]
    half = count // 2
    mixed = [q for pair in zip(short[:half], long[: count - half]) for q in pair]
    return mixed[:count]


def _run(settings: Any, endpoint: LLMSettings | None, queries: list[str],
         args: argparse.Namespace) -> dict[str, Any]:
    app_settings = replace(settings, llm=endpoint or LLMSettings(),
                           server=replace(settings.server, rate_limit="off", redraft_rate_limit="off"),
                           audit=replace(settings.audit, enabled=False))
    app, service = app_for(app_settings)
    server = serve_in_thread(app, threads=4)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
        rerank = endpoint is not None
        _post(connection, queries[0], rerank)  # warm-up: first encode, caches
        timings, stages = [], []
        for i, text in enumerate(queries):
            # A unique suffix defeats the rerank cache so every call reaches the LLM.
            started = time.perf_counter()
            body = _post(connection, f"{text} ({i})" if rerank else text, rerank)
            timings.append((time.perf_counter() - started) * 1000)
            stages.append(body["timings_ms"])
            assert body["rerank"]["status"] == ("applied" if rerank else "skipped"), body["rerank"]
        connection.close()
    finally:
        server.stop()
        service.close()
    return {"n": len(timings), "p50": _pct(timings, 50), "p95": _pct(timings, 95),
            "clauses": service.pipeline.backend.stats()["clauses"],
            "retrieval_p50": _pct([s["retrieval"] for s in stages], 50),
            "rerank_p50": _pct([s.get("rerank", 0.0) for s in stages], 50)}


def _post(connection: http.client.HTTPConnection, text: str, rerank: bool) -> dict[str, Any]:
    connection.request("POST", "/api/v1/precedents", json.dumps({"text": text, "rerank": rerank}),
                       {"Content-Type": "application/json"})
    answer = connection.getresponse()
    body = json.loads(answer.read())
    if answer.status != 200:
        raise RuntimeError(f"HTTP {answer.status}: {body}")
    return body


def _pct(values: list[float], pct: int) -> float:
    return round(percentile(values, pct), 1)


def _report(rows: list[tuple[str, str, dict[str, Any]]], args: argparse.Namespace,
            settings: Any, query_count: int) -> str:
    lines = [
        "# /api/v1/precedents latency",
        "",
        f"Measured {time.strftime('%Y-%m-%d %H:%M')} on {platform.machine()}, {os.cpu_count()} cores "
        f"(shared with other work), Python {platform.python_version()}; cheroot on loopback, "
        f"sequential requests. Index {settings.index_dir} ({rows[0][2]['clauses']:,} clauses), "
        f"embedding {settings.embedding.model}; {query_count} queries without the LLM "
        f"(ACORD short queries and whole clauses alternating), {args.rerank_queries} per rerank row, "
        f"rerank depth {args.depth}.",
        "",
        "| setting | n | p50 ms | p95 ms | retrieval p50 ms | rerank p50 ms | expected rerank ms | max calls in flight |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, expected, s in rows:
        lines.append(f"| {name} | {s['n']} | {s['p50']} | {s['p95']} | {s['retrieval_p50']} | "
                     f"{s['rerank_p50']} | {expected} | {s.get('in_flight', '-')} |")
    lines += ["", "Command: `precedent-bench server-latency " + " ".join(
        f"--{k.replace('_', '-')} {' '.join(map(str, v)) if isinstance(v, list) else v}"
        for k, v in options(args).items() if v not in (None, False, True)) + "`", ""]
    return "\n".join(lines)

