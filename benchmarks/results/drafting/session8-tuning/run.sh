#!/bin/bash
# usage: run.sh TREE OUTDIR [set ...]
source /work/main/.venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONPATH=$1
cd $1
S=/work/main/benchmarks/sets
T="$1"; O="$2"; shift 2
SETS="${@:-drafting/a-tuning drafting/a-heldout drafting/b-tuning drafting/b-heldout drafting-c/heldout drafting-d/tuning drafting-d/heldout drafting-e/tuning drafting-e/heldout drafting-f/tuning drafting-f/heldout drafting-g/tuning drafting-g/heldout}"
mkdir -p $O
for t in $SETS; do
  f=$S/$t.jsonl; [ -f $f ] || f=/work/wt/i38-drafting8/benchmarks/sets/$t.jsonl; [ -f $f ] || { echo "missing $f"; continue; }
  n=$(echo $t | tr / _)
  nice -n 15 python -m precedent_bench.cli drafting --tasks $f --out $O/$n > $O/$n.log 2>&1 || echo "fail $t"
done
