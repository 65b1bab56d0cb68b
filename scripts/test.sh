#!/usr/bin/env bash
# Set up (idempotent) and run every test: Python (pytest) and the add-in's JavaScript.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
. .venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false

if [ -f package.json ]; then
  if ! command -v node >/dev/null 2>&1; then
    echo "node is required for the add-in tests (apt-get install nodejs npm)" >&2
    exit 1
  fi
  npm ci --no-audit --no-fund --loglevel=error
  if [ -x scripts/install-browser.sh ]; then bash scripts/install-browser.sh; fi
  npm test
fi
python -m pytest -q "$@"
