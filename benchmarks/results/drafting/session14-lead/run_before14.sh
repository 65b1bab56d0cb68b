#!/bin/bash
# A fresh tranche with the start-of-session code (271f91e, the behaviour of 9bf549e), written as soon
# as its labels land, into a folder no helper reads; read only after the after-run. XS="v w".
source /work/main/.venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
R=/work/coord/held14
for x in ${XS:-v w}; do
  echo "$(date -u +%FT%TZ) 271f91e" > /work/coord/$x-before-271f91e.start
  (cd /work/wt/before14 && PYTHONPATH=/work/wt/before14 nice -n 5 python -m precedent_bench.cli drafting --tasks /work/main/benchmarks/sets/drafting-$x/heldout.jsonl --out $R/heldout-$x-271f91e > /work/coord/$x-before-271f91e.log 2>&1; echo "$x rc $?")
done
