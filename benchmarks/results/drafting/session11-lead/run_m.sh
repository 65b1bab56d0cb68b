#!/bin/bash
# drafting-m held-out: after (main), then before (frozen d09e9ab, session start) and wave-1 (frozen ba02a3d), each once.
set -u
source /work/main/.venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
T=/work/main/benchmarks/sets/drafting-m/heldout.jsonl
R=/work/main/benchmarks/results/drafting
cd /work/main && date -u +%FT%TZ > /work/coord/m-after.start && PYTHONPATH=/work/main python -m precedent_bench.cli drafting --tasks $T --out $R/heldout-m > /work/coord/m-after.log 2>&1; echo "after rc $?"
cd /work/wt/main-d09e9ab && date -u +%FT%TZ > /work/coord/m-before.start && PYTHONPATH=/work/wt/main-d09e9ab python -m precedent_bench.cli drafting --tasks $T --out $R/heldout-m-before > /work/coord/m-before.log 2>&1; echo "before rc $?"
cd /work/wt/main-ba02a3d && date -u +%FT%TZ > /work/coord/m-wave1.start && PYTHONPATH=/work/wt/main-ba02a3d python -m precedent_bench.cli drafting --tasks $T --out $R/heldout-m-ba02a3d > /work/coord/m-wave1.log 2>&1; echo "wave1 rc $?"
