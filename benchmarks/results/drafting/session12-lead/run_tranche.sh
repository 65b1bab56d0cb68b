#!/bin/bash
# usage: run_tranche.sh X AFTER_TREE BEFORE_TREE... — a held-out tranche drafting-X, run ONCE:
# first with AFTER_TREE's code (main, the code measured) into heldout-X, then with each frozen
# BEFORE tree (git worktree add --detach) into heldout-X-<its short commit>. Start times go to
# /work/coord/X-*.start.
set -u
source /work/main/.venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
x=$1; after=$2; shift 2
T=/work/main/benchmarks/sets/drafting-$x/heldout.jsonl
R=/work/main/benchmarks/results/drafting
run() {  # tree outdir tag
  c=$(git -C "$1" rev-parse --short HEAD)
  echo "$(date -u +%FT%TZ) $c" > /work/coord/$x-$3.start
  (cd "$1" && PYTHONPATH="$1" python -m precedent_bench.cli drafting --tasks $T --out "$2" > /work/coord/$x-$3.log 2>&1)
  echo "$3 $c rc $?"
}
run "$after" $R/heldout-$x after
for b in "$@"; do run "$b" $R/heldout-$x-$(git -C "$b" rev-parse --short HEAD) before-$(git -C "$b" rev-parse --short HEAD); done
