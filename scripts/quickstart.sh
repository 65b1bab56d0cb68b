#!/usr/bin/env bash
# Set up, build the ACORD clause index, fetch the embedded local LLM, and serve the add-in.
#
#   bash scripts/quickstart.sh             # everything, then serve on http://127.0.0.1:8443
#   SKIP_LOCAL_LLM=1 bash scripts/quickstart.sh   # no 1.1 GB model: search only, no redraft
#
# Settings come from PRECEDENT_* variables (see README); PRECEDENT_ACORD_DIR defaults to
# ../shared/data/acord and is downloaded (CC BY 4.0) into data/acord when absent.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
. .venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false

ACORD_DIR=${PRECEDENT_ACORD_DIR:-../shared/data/acord}
if [ ! -f "$ACORD_DIR/corpus.jsonl" ]; then
  ACORD_DIR=data/acord
  [ -f "$ACORD_DIR/corpus.jsonl" ] || index-builder download-acord --dest "$ACORD_DIR"
fi
export PRECEDENT_ACORD_DIR=$ACORD_DIR
INDEX=${PRECEDENT_INDEX_DIR:-var/index}

# Incremental: a re-run re-embeds nothing unless the corpus changed (about 3 minutes the first time).
index-builder build --index "$INDEX" "$ACORD_DIR"
echo
echo "Example search:"
index-builder search --index "$INDEX" --top-k 3 "cap on liability"

if [ -z "${SKIP_LOCAL_LLM:-}" ] && [ -z "${PRECEDENT_LLM_BASE_URL:-}" ]; then
  python -m pip install --quiet -e ".[llm]"
  addin-server local-llm verify >/dev/null 2>&1 || addin-server local-llm fetch
fi

PORT=${PRECEDENT_PORT:-8443}
addin-server manifest --url "https://localhost:$PORT" --out var/manifest.xml
echo
echo "Serving the API and task pane on http://127.0.0.1:$PORT (Ctrl-C stops)."
echo "  curl -s -X POST http://127.0.0.1:$PORT/api/v1/precedents -H 'Content-Type: application/json' -d '{\"text\": \"cap on liability\"}'"
echo "  Word needs HTTPS: see 'For firm IT' in README.md (var/manifest.xml is the sideload manifest)."
exec addin-server serve --index "$INDEX" --port "$PORT"
