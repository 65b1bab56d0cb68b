#!/bin/bash
# Q and R with the start-of-session code (49a3da4), written now, read only after the after-runs.
source /work/main/.venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
R=/work/coord/held13
for x in ${XS:-q r}; do
  echo "$(date -u +%FT%TZ) 49a3da4" > /work/coord/$x-before-49a3da4.start
  (cd /work/wt/before13 && PYTHONPATH=/work/wt/before13 nice -n 5 python -m precedent_bench.cli drafting --tasks /work/main/benchmarks/sets/drafting-$x/heldout.jsonl --out $R/heldout-$x-49a3da4 > /work/coord/$x-before-49a3da4.log 2>&1; echo "$x rc $?")
done
