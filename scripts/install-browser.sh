#!/usr/bin/env bash
# The add-in's browser tests drive Debian's Chromium (playwright cannot download a browser here).
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is missing: install Debian's 'chromium' package to run the browser tests (they are skipped otherwise)." >&2
  exit 0
fi
apt-get update -qq
# A small CJK font, so screenshots of Chinese/Japanese clauses show text rather than boxes.
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-wqy-microhei >/dev/null
