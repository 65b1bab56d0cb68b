#!/bin/bash
# A fresh tranche with the start-of-session code (d7708ee, the behaviour of 0288bcd), written as soon
# as its labels land, into a folder no helper reads; read only after the after-run. XS="y z".
source /work/main/.venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
R=/work/coord/held15
for x in ${XS:-y z}; do
  echo "$(date -u +%FT%TZ) d7708ee" > /work/coord/$x-before-d7708ee.start
  (cd /work/wt/before15 && PYTHONPATH=/work/wt/before15 nice -n 5 python -m precedent_bench.cli drafting --tasks /work/main/benchmarks/sets/drafting-$x/heldout.jsonl --out $R/heldout-$x-d7708ee > /work/coord/$x-before-d7708ee.log 2>&1; echo "$x rc $?")
done
