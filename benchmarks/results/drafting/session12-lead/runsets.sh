#!/bin/bash
# usage: runsets.sh TREE OUTDIR — every spent drafting set through `precedent-bench drafting`, run
# with TREE's code (a checkout or a `git archive` of the commit measured), one folder per set in
# OUTDIR. Run from an activated virtual environment; SETS defaults to this checkout's sets.
set -u
here=$(cd "$(dirname "$0")/../../../.." && pwd)
S=${SETS:-$here/benchmarks/sets}
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONPATH=$1
mkdir -p "$2"; out=$(cd "$2" && pwd)
cd "$1"
for t in drafting/a-tuning drafting/a-heldout drafting/b-tuning drafting/b-heldout drafting-c/heldout drafting-d/tuning drafting-d/heldout drafting-e/tuning drafting-e/heldout drafting-f/tuning drafting-f/heldout drafting-g/tuning drafting-g/heldout drafting-h/tuning drafting-h/heldout drafting-i/tuning drafting-i/heldout drafting-j/heldout drafting-k/heldout drafting-l/heldout drafting-m/heldout drafting-n/heldout drafting-o/heldout drafting-p/heldout drafting-q/heldout drafting-r/heldout drafting-s/heldout drafting-t/heldout drafting-u/heldout drafting-v/heldout drafting-w/heldout drafting-x/heldout; do
  f=$S/$t.jsonl; [ -f "$f" ] || { echo "missing $f"; continue; }
  n=$(echo $t | tr / _)
  nice -n 5 python -m precedent_bench.cli drafting --tasks "$f" --out "$out/$n" > "$out/$n.log" 2>&1 || echo "fail $t"
done
