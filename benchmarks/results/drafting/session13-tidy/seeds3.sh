#!/bin/bash
source /work/main/.venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
run() { # seed set task
  for w in before:/work/wt/final13 after:/tmp/tidy13/after-tree; do
    name=${w%%:*}; tree=${w#*:}
    (cd $tree && PYTHONPATH=$tree PYTHONHASHSEED=$1 nice -n 5 python -m precedent_bench.cli drafting --tasks /work/wt/final13/benchmarks/sets/$2.jsonl --task $3 --out /tmp/tidy13/seeds/$name-$1/$3 > /dev/null 2>&1)
  done
}
for s in 0 6; do run $s drafting-i/heldout i-conform-06; run $s drafting-m/heldout m-conform-01; done
echo SEEDS3 DONE
