#!/bin/bash
# drafting-j held-out: after (main) then before (frozen 8ded0ee), each once.
set -u
source /work/main/.venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
T=/work/main/benchmarks/sets/drafting-j/heldout.jsonl
cd /work/main && date -u +%FT%TZ > /work/coord/j-after.start && PYTHONPATH=/work/main python -m precedent_bench.cli drafting --tasks $T --out benchmarks/results/drafting/heldout-j > /work/coord/j-after.log 2>&1; echo "after rc $?"
cd /work/wt/main-8ded0ee && date -u +%FT%TZ > /work/coord/j-before.start && PYTHONPATH=/work/wt/main-8ded0ee python -m precedent_bench.cli drafting --tasks $T --out /work/main/benchmarks/results/drafting/heldout-j-before > /work/coord/j-before.log 2>&1; echo "before rc $?"
