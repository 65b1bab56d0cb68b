#!/bin/bash
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONPATH=/tmp/parts2-tree3
S=/work/main/benchmarks/sets; out=/tmp/parts2-run3; mkdir -p $out; cd /tmp/parts2-tree3
for t in drafting-o/heldout drafting-p/heldout drafting-n/heldout drafting-l/heldout drafting-m/heldout drafting-f/tuning drafting-f/heldout drafting-g/tuning drafting-g/heldout drafting-i/tuning drafting-i/heldout; do
  n=$(echo $t | tr / _)
  nice -n 5 python -m precedent_bench.cli drafting --tasks "$S/$t.jsonl" --out "$out/$n" > "$out/$n.log" 2>&1 || echo "fail $t"
done
