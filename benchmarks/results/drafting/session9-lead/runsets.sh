#!/bin/bash
# usage: runsets.sh TREE OUTDIR
source /work/main/.venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONPATH=$1
cd $1
S=${SETS:-/work/main/benchmarks/sets}
for t in drafting/a-tuning drafting/a-heldout drafting/b-tuning drafting/b-heldout drafting-c/heldout drafting-c/tuning drafting-d/tuning drafting-d/heldout drafting-e/tuning drafting-e/heldout drafting-f/tuning drafting-f/heldout drafting-g/tuning drafting-g/heldout drafting-h/tuning drafting-h/heldout drafting-i/tuning; do
  f=$S/$t.jsonl; [ -f $f ] || { echo "missing $f"; continue; }
  n=$(echo $t | tr / _)
  nice -n 5 python -m precedent_bench.cli drafting --tasks $f --out $2/$n > $2/$n.log 2>&1 || echo "fail $t"
done
