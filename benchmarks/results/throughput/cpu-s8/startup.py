"""Seconds from `addin-server serve` (--workers 2) to every worker answering /health, with the
fixed-shape compiles made at start (this branch's default) and without (PRECEDENT_QUERY_SHAPES=
off), interleaved; the workers' RSS once ready. (issue 39, session 8)
    python benchmarks/results/throughput/cpu-s8/startup.py INDEX ROUNDS
"""
import os, shutil, sys, tempfile, time
from pathlib import Path
from precedent_bench import throughput as tp

index, rounds = Path(sys.argv[1]), int(sys.argv[2])
repo = Path(__file__).resolve().parents[4]
for r in range(rounds):
    for name, env in ((("shapes", {}), ("off", {"PRECEDENT_QUERY_SHAPES": "off"})) if r % 2 == 0 else
                      (("off", {"PRECEDENT_QUERY_SHAPES": "off"}), ("shapes", {}))):
        env = {**env, "PRECEDENT_EMBEDDING_ONNX_DIR": "/work/main/var/models/onnx"}
        tmp = Path(tempfile.mkdtemp(prefix="startup-"))
        shutil.copytree(index, tmp / "index", ignore=shutil.ignore_patterns(".build.lock", "audit", "usage"))
        port, t0 = tp._free_port(), time.monotonic()
        server = tp._start(repo, tmp / "index", port, tmp / "server.log", env)
        try:
            tp._wait_ready(port, server, tmp / "server.log")
            took = time.monotonic() - t0
            rss = [int(Path(f"/proc/{k}/statm").read_text().split()[1]) * 4096 // 2**20 for k in tp._children(server.pid)]
            print(time.strftime("%H:%M:%S UTC", time.gmtime()), name, "ready in", round(took, 1), "s; workers' RSS MiB", rss,
                  "load", round(os.getloadavg()[0], 2), flush=True)
        finally:
            tp._stop(server)
            shutil.rmtree(tmp, ignore_errors=True)
