#!/bin/bash
# usage: runall.sh TREE OUT
source /work/main/.venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONPATH=$1
SETS=/work/wt/final13/benchmarks/sets bash /work/main/benchmarks/results/drafting/session12-lead/runsets.sh $1 $2
cd $1
for x in q r s t; do
  while [ $x = s ] && [ $(date +%s) -lt $(date -d '14:10' +%s) ]; do sleep 10; done
  nice -n 5 python -m precedent_bench.cli drafting --tasks /work/wt/final13/benchmarks/sets/drafting-$x/heldout.jsonl --out $2/drafting-${x}_heldout > $2/drafting-${x}_heldout.log 2>&1 || echo fail $x
done
echo DONE
