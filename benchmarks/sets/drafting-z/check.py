"""Validate the drafting-z tranche (issue 38): heldout.jsonl only (no tuning half), and print counts.

The per-task checks are drafting-y's (``benchmarks/sets/drafting-y/check.py``, loaded by path
because its folder name is not a Python identifier; it loads drafting-x's, -w's, ... and -c's, so
there is one copy of the check logic, length rules included). What this file changes, and
nothing else:

- task ids ``z-<category>-NN``;
- clause ids used in the task files of ``benchmarks/sets/drafting/``, ``drafting-c/`` ..
  ``drafting-y/`` are refused, and so is a clause whose near-copy key matches any clause of
  those sets or of ``caps2/``, ``caps3/``, ``figures/`` and ``conform/`` (``sample.used``);
- no tuning half: a ``tuning.jsonl`` in this folder is a failure, and only ``heldout.jsonl`` is
  read;
- the minimums (25 tasks, see README: the agreement pools allow at most five agreement tasks, so
  25 keeps them at 20%): mutual >= 1 and flip >= 1 (one fit clause each among those read),
  conform >= 3, period >= 3, carve_out >= 3, shorten >= 4, plain >= 4, multi >= 6 with two- and
  three-part instructions (no amount task: both pools are empty); at least 25 tasks; every fault
  >= 4 times; a precedent-citing paraphrase in a third of the tasks; each source >= 20% of the
  tasks.

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-z/check.py

It reads labels only; it never runs the drafting code. Exit status 1 when any check fails.
"""
from __future__ import annotations

import collections
import importlib.util
import json
import logging
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


Y = _load("drafting_y_check", HERE.parent / "drafting-y" / "check.py")
X = Y.X
W = X.W
V = W.V
U = V.U
T = U.T
S = T.S
R = S.R
Q = R.Q
P = Q.P
O = P.O
N = O.N
M = N.M
L = M.L
K = L.K
J = K.J
I = J.I
H, G, F, E, D, C = I.H, I.G, I.F, I.E, I.D, I.C  # the earlier tranches' check modules, as drafting-y patched them
# task files only: a clause an earlier sampler drew and rejected was never used
C.OLD_SETS = C.OLD_SETS + [HERE.parent / "drafting-y" / "heldout.jsonl"]
SAMPLE = _load("drafting_z_sample", HERE / "sample.py")
# 25 tasks (see README: five agreement tasks at most, so 25 keeps them at 20%). One fit mutual and
# one fit flip clause, no amount task (empty pools).
MINIMUMS = {"mutual": 1, "flip": 1, "conform": 3, "period": 3, "carve_out": 3, "shorten": 4, "plain": 4, "multi": 6}
MIN_TASKS = 25
PER_FAULT = 4

log = logging.getLogger("check_z")


# length rules: drafting-j's (C.length_rules as drafting-j's check.py set it; drafting-k to -y kept them), unchanged


def set_level(checker, tasks: list[dict]) -> None:
    """This tranche's minimums for its one (held-out) half."""
    cats = collections.Counter(t["category"] for t in tasks)
    if len(tasks) < MIN_TASKS:
        checker.fail("held-out", f"{len(tasks)} tasks (need {MIN_TASKS})")
    for c, need in MINIMUMS.items():
        if cats[c] < need:
            checker.fail("held-out", f"{cats[c]} {c} tasks (need {need})")
    sizes = {len(t["parts"]) for t in tasks if t["category"] == "multi"}
    if not {2, 3} <= sizes:
        checker.fail("held-out", f"multi tasks need two- and three-part instructions (have {sorted(sizes)})")
    faults = collections.Counter(f["fault"] for t in tasks for d in t["drafts"] for f in d["faults"])
    for f in C.FAULTS:
        if faults[f] < PER_FAULT:
            checker.fail("held-out", f"fault {f} appears {faults[f]} times (need {PER_FAULT})")
    citing = sum(any(d["kind"] == "paraphrase" and C.MARKER.search(d["text"]) for d in t["drafts"]) for t in tasks)
    if citing * 3 < len(tasks):
        checker.fail("held-out", f"only {citing} of {len(tasks)} tasks have a paraphrase draft citing a precedent")
    src = collections.Counter(t["clause_source"]["source"] for t in tasks)
    if src["contracts"] < 0.2 * len(tasks) or src["acord"] < 0.2 * len(tasks):
        checker.fail("set", f"source mix {dict(src)} below 20% of either source")


class Checker(Y.Checker):
    prefix = "z"
    earlier = "benchmarks/sets/drafting/, drafting-c/ .. drafting-y/"
    sample = SAMPLE


read_draws = Y.read_draws  # draws.jsonl, or draws.jsonl.gz where kept gzipped


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    draws = {d["clause_id"]: d for d in read_draws(HERE) if d["status"] == "accepted"}
    checker = Checker(C.Sources(), draws)
    if (HERE / "tuning.jsonl").exists():
        checker.fail("set", "tuning.jsonl exists: this tranche is held-out only")
    path = HERE / "heldout.jsonl"
    tasks = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for t in tasks:
        checker.task(t, "held-out")
    set_level(checker, tasks)
    ids = collections.Counter(t["task_id"] for t in tasks)
    for tid, n in ids.items():
        if n > 1:
            checker.fail(tid, f"appears {n} times")
    if tasks:
        C.report(tasks)
    for e in checker.errors:
        log.error("FAIL %s", e)
    sys.stdout.write(f"\n{len(checker.errors)} failures\n")
    return 1 if checker.errors else 0


if __name__ == "__main__":
    sys.exit(main())
