#!/bin/bash
# S and T with wave 1's code (4c8dc82, frozen /work/wt/wave1-13), into the hidden folder; read only after the final after-runs.
source /work/main/.venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
for x in s t; do
  echo "$(date -u +%FT%TZ) 4c8dc82" > /work/coord/$x-before-4c8dc82.start
  (cd /work/wt/wave1-13 && PYTHONPATH=/work/wt/wave1-13 nice -n 5 python -m precedent_bench.cli drafting --tasks /work/main/benchmarks/sets/drafting-$x/heldout.jsonl --out /work/coord/held13/heldout-$x-4c8dc82 > /work/coord/$x-before-4c8dc82.log 2>&1; echo "$x rc $?")
done
