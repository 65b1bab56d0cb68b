"""`precedent-bench scale-compressed stages`: a build's cost per clause, stage by stage.

The whole build (``scale-compressed build``) reports wall time on a shared machine, where a
stage's share depends on what else runs. This times each stage of the segmented build on the
first ``--clauses`` clauses of the same generated library in CPU seconds of this process
(``time.process_time``; FAISS is held to one thread, as the build runs it), in the order the
build runs them:

    generate   the benchmark's own document generator (not product work)
    read       the Markdown reader, clauses and definition units (index/build._read_contract)
    label      document fields, walls, DMS access (index/labels.Labeller)
    embed      the stand-in embedder (benchmark; real embedding is measured elsewhere)
    rows       packed clause rows (clausedb.write_packed_clause_db)
    columns    filter columns and text keys
    bm25       BM25 postings (postings.write_postings)
    codes      IVF-PQ codes with a quantiser trained on the sample (training itself is timed
               apart: it happens once a full build)

It also prints a digest of every file the segment stages wrote, so a change to a stage can
show it writes the same index (same rows, same postings, same codes).
"""

from __future__ import annotations

import hashlib
import json
import logging
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

log = logging.getLogger(__name__)


def _timed(stages: dict[str, float], name: str, call: Callable[[], Any]) -> Any:
    started = time.process_time()
    out = call()
    stages[name] = stages.get(name, 0.0) + time.process_time() - started
    return out


def digest(folder: Path) -> dict[str, Any]:
    """sha256 (first 16 hex) of each file under ``folder``; the packed clause rows by what
    they inflate to (ids, positions, the clause JSON) and their deflated bytes in all (how a
    row is deflated may change; what it holds must not)."""
    import sqlite3

    from index_builder.index.clausedb import PackedClauseTable

    out: dict[str, Any] = {}
    for path in sorted(p for p in Path(folder).rglob("*") if p.is_file()):
        h = hashlib.sha256()
        if path.suffix == ".sqlite":
            table = PackedClauseTable(path)
            for position, clause in enumerate(table):
                h.update(f"{position}\t{json.dumps(clause.to_dict(), sort_keys=True)}\n".encode())
            table.close()
            connection = sqlite3.connect(path)
            (out["clauses.sqlite deflated bytes"],) = connection.execute(
                "SELECT sum(length(data)) FROM clauses").fetchone()
            connection.close()
        else:
            h.update(path.read_bytes())
        out[path.relative_to(folder).as_posix()] = h.hexdigest()[:16]
    return out


def stages(library: Any, embedder: Any, settings: Any, clauses: int) -> dict[str, Any]:
    """CPU seconds and ms a clause per stage on the library's first ``clauses`` clauses."""
    import faiss

    from index_builder.index.documents import _read_contract
    from index_builder.index.clausedb import COLUMNS, Columns, write_packed_clause_db
    from index_builder.index.ivf import encode, lists_for, train
    from index_builder.index.labels import Labeller
    from index_builder.index.postings import write_postings
    from index_builder.index.store import TEXT_KEYS, text_digests

    faiss.omp_set_num_threads(1)
    spent: dict[str, float] = {}
    labeller = Labeller.from_settings(settings, {})
    read: list[Any] = []
    documents = 0
    with tempfile.TemporaryDirectory(prefix="precedent-stages-") as tmp:
        folder = Path(tmp)
        for source in library.documents():
            if len(read) >= clauses:
                break
            local = folder / Path(source.path).name
            number = documents
            text = _timed(spent, "generate", lambda: library.markdown(number))
            local.write_text(text, "utf-8")
            found = _timed(spent, "read", lambda: [c for c in _read_contract(
                local, source.doc_id, str(source.path)) if c.text.strip()])
            read += _timed(spent, "label", lambda: labeller.label(
                found, source.kind, source.relative, source.access, source.link))
            documents += 1
        texts = sorted({c.text for c in read})
        vectors_by_text = dict(zip(texts, _timed(spent, "embed", lambda: embedder.embed(texts))))
        vectors = np.stack([vectors_by_text[c.text] for c in read]).astype(np.float32)
        out = folder / "segment"
        out.mkdir()
        _timed(spent, "rows", lambda: write_packed_clause_db(out / "clauses.sqlite", read))
        _timed(spent, "columns", lambda: (Columns.from_clauses(read).save(out / COLUMNS),
                                          np.save(out / TEXT_KEYS, text_digests(c.text for c in read))))
        _timed(spent, "bm25", lambda: write_postings(out, (c.text for c in read), settings.bm25))
        lists = lists_for(len(read))
        codebook = _timed(spent, "training", lambda: train(vectors, lists))
        codes = _timed(spent, "codes", lambda: encode(codebook, vectors))
        faiss.write_index(codes, str(out / "dense.ivf"))
        files = digest(out)
    n = len(read)
    per_clause = {k: round(1000 * v / n, 3) for k, v in spent.items() if k != "training"}
    return {"clauses": n, "documents": documents, "distinct_texts": len(texts),
            "cpu_s": {k: round(v, 2) for k, v in spent.items()}, "ms_per_clause": per_clause,
            "ms_per_clause_total": round(sum(per_clause.values()), 3),
            "ms_per_clause_product": round(sum(v for k, v in per_clause.items()
                                               if k not in ("generate", "embed")), 3),
            "training": {"lists": lists, "cpu_s": round(spent["training"], 2)},
            "files": files}


def summary(result: dict[str, Any]) -> str:
    rows = "".join(f"  {k:<9} {v:8.3f} ms\n" for k, v in result["ms_per_clause"].items())
    return (f"{result['clauses']:,} clauses, {result['documents']} documents (CPU ms a clause):\n"
            f"{rows}  total     {result['ms_per_clause_total']:8.3f} ms "
            f"(product stages {result['ms_per_clause_product']:.3f} ms)\n"
            f"  training {result['training']['lists']} lists: {result['training']['cpu_s']} s\n"
            + json.dumps(result["files"], indent=1) + "\n")


def threads(vectors_path: Path, count: int, settings: Any) -> dict[str, Any]:
    """Training and encoding ``count`` stored vectors with one and two FAISS threads, A B B A
    (what PRECEDENT_IVF_BUILD_THREADS's default rests on): wall and CPU seconds each."""
    import os

    import faiss

    from index_builder.index.ivf import encode, lists_for, train

    vectors = np.ascontiguousarray(np.load(vectors_path, mmap_mode="r")[:count], dtype=np.float32)
    lists = lists_for(len(vectors))
    runs = []
    for number in (1, 2, 2, 1):
        faiss.omp_set_num_threads(number)
        load = os.getloadavg()
        wall, cpu = time.perf_counter(), time.process_time()
        codebook = train(vectors, lists)
        trained = (time.perf_counter() - wall, time.process_time() - cpu)
        wall, cpu = time.perf_counter(), time.process_time()
        encode(codebook, vectors)
        runs.append({"threads": number, "train_wall_s": round(trained[0], 1),
                     "train_cpu_s": round(trained[1], 1),
                     "encode_wall_s": round(time.perf_counter() - wall, 1),
                     "encode_cpu_s": round(time.process_time() - cpu, 1),
                     "load_before": [round(x, 2) for x in load]})
        log.info("%s", json.dumps(runs[-1]))
    return {"vectors": len(vectors), "lists": lists, "runs": runs}
