"""The audit line's clause ids of real search answers: the walk of the answer (returned_ids)
against the view's own list (search_ids), CPU a search (time.thread_time), same answers.
    python benchmarks/results/throughput/cpu-s6/audit_ids_cpu.py INDEX SEARCHES ROUNDS
"""
import logging, os, sys, tempfile, shutil, time
from pathlib import Path

logging.disable(logging.WARNING)
from precedent_bench.common.servers import LOAD_ENV, app_for
os.environ.update(LOAD_ENV)
os.environ["PRECEDENT_AUDIT"] = "on"
from precedent_bench.common.indexes import private_copy
from precedent_bench.unseen import library_texts, unseen
from index_builder.settings import load_settings
from addin_server.web.audit import returned_ids, search_ids

count, rounds = int(sys.argv[2]), int(sys.argv[3])
tmp = tempfile.mkdtemp(prefix="auditids-")
index = private_copy(Path(sys.argv[1]), Path(tmp) / "index", keep_usage=False)
client = app_for(load_settings(overrides={"index_dir": index}))[0].test_client()
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", count, seed=63)
payloads = []
for text in texts:
    r = client.post("/api/v1/precedents", json={"text": text, "rerank": False})
    assert r.status_code == 200
    payloads.append(r.get_json())
assert all(returned_ids(p) == search_ids(p) for p in payloads), "the two lists differ"
cpu = {"walk": 0.0, "results": 0.0}
for n in range(rounds):
    for name, f in (("walk", returned_ids), ("results", search_ids))[:: 1 if n % 2 else -1]:
        began = time.thread_time()
        for p in payloads:
            f(p)
        cpu[name] += time.thread_time() - began
print(time.strftime("%H:%M UTC", time.gmtime()), f"{count} answers x {rounds} rounds, identical ids;",
      {k: round(v * 1000 / count / rounds, 4) for k, v in cpu.items()}, "ms CPU an answer")
shutil.rmtree(tmp, ignore_errors=True)
