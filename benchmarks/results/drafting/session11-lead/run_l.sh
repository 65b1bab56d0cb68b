#!/bin/bash
# drafting-l held-out: after (main) then before (frozen d09e9ab), each once.
set -u
source /work/main/.venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
T=/work/main/benchmarks/sets/drafting-l/heldout.jsonl
cd /work/main && date -u +%FT%TZ > /work/coord/l-after.start && PYTHONPATH=/work/main python -m precedent_bench.cli drafting --tasks $T --out benchmarks/results/drafting/heldout-l > /work/coord/l-after.log 2>&1; echo "after rc $?"
cd /work/wt/main-d09e9ab && date -u +%FT%TZ > /work/coord/l-before.start && PYTHONPATH=/work/wt/main-d09e9ab python -m precedent_bench.cli drafting --tasks $T --out /work/main/benchmarks/results/drafting/heldout-l-before > /work/coord/l-before.log 2>&1; echo "before rc $?"
