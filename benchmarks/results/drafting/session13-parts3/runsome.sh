#!/bin/bash
set -u
S=/work/wt/parts13c/benchmarks/sets
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONPATH=/tmp/parts13c-tree
out=$1; shift; mkdir -p $out
cd /tmp/parts13c-tree
for t in "$@"; do
  f=$S/$t.jsonl; [ -f "$f" ] || { echo "missing $f"; continue; }
  n=$(echo $t | tr / _)
  nice -n 5 python -m precedent_bench.cli drafting --tasks "$f" --out "$out/$n" > "$out/$n.log" 2>&1 || echo "fail $t"
done
echo DONE
