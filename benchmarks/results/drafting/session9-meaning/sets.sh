#!/bin/bash
# usage: sets.sh TREE OUT set1 set2 ...   (set = drafting-h/tuning etc.)
source /work/main/.venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONPATH=$1
T=$1; O=$2; shift 2; cd $T
for t in "$@"; do n=$(echo $t | tr / _); nice -n 15 python -m precedent_bench.cli drafting --tasks /work/main/benchmarks/sets/$t.jsonl --out $O/$n > $O/$n.log 2>&1 || echo "fail $t"; done
