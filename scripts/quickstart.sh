#!/usr/bin/env bash
# Set up, index real agreements, make a trusted localhost certificate, and serve the add-in over HTTPS.
#
#   bash scripts/quickstart.sh                    # everything, then serve on https://localhost:8443
#   SKIP_LOCAL_LLM=1 bash scripts/quickstart.sh   # no 1.1 GB model: search, compare and insert; no redraft
#   TRUST_CERT=1 bash scripts/quickstart.sh       # also add the development CA to this machine's trust store
#
# The library is the .docx agreements in ../shared/data/contracts when present (PRECEDENT_CONTRACTS_DIR
# to choose another folder); on a fresh machine five openly licensed agreements from
# github.com/open-agreements/open-agreements (Common Paper, CC BY 4.0; Bonterms, CC0) are fetched
# into var/demo-contracts. Everything this script makes lives under var/ (git-ignored).
# For a firm's server, follow docs/deployment.md instead: this script is for one machine.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
. .venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
mkdir -p var

# ---- the library: real agreements with real provenance -------------------------------------
OPEN_AGREEMENTS=https://raw.githubusercontent.com/open-agreements/open-agreements
DEMO_FILES=(
  "common-paper-cc-by-4.0 common-paper-cloud-service-agreement 9e0a6d580ddbb24b5d015f5db61c198c896c10c0"
  "common-paper-cc-by-4.0 common-paper-professional-services-agreement 7cd3912073ea741a8561aaa9c039588dcfd7b875"
  "common-paper-cc-by-4.0 common-paper-mutual-nda 7cd3912073ea741a8561aaa9c039588dcfd7b875"
  "common-paper-cc-by-4.0 common-paper-data-processing-agreement 4a4c014a2cc958f55a8e41afe46b12213c0d1266"
  "bonterms-cc0-1.0 bonterms-mutual-nda 63d3db1b35186eb5174206f26f64a4d8037e8f25"
)
CONTRACTS=${PRECEDENT_CONTRACTS_DIR:-../shared/data/contracts}
if ! find "$CONTRACTS" -name '*.docx' -print -quit 2>/dev/null | grep -q .; then
  CONTRACTS=var/demo-contracts
  for entry in "${DEMO_FILES[@]}"; do
    read -r licence name commit <<<"$entry"
    target="$CONTRACTS/$licence/$name.docx"
    if [ ! -s "$target" ]; then
      mkdir -p "$CONTRACTS/$licence"
      echo "Fetching $name ($licence) from open-agreements..."
      curl -fsSL --retry 2 -o "$target.part" "$OPEN_AGREEMENTS/$commit/content/templates/$name/template.docx"
      mv "$target.part" "$target"
    fi
  done
fi
INDEX=${PRECEDENT_INDEX_DIR:-var/index}
echo "Indexing the agreements in $CONTRACTS into $INDEX (a re-run re-embeds only what changed)."
# A file it cannot read is named and left out; the demo goes on (a scheduled build exits 4 then).
index-builder build --index "$INDEX" --allow-skipped "$CONTRACTS"
echo
echo "Example search:"
index-builder search --index "$INDEX" --top-k 3 "cap on liability"

# ---- the drafting assistant (optional) ----------------------------------------------------------
if [ -z "${SKIP_LOCAL_LLM:-}" ] && [ -z "${PRECEDENT_LLM_BASE_URL:-}" ]; then
  python -m pip install --quiet -e ".[llm]"
  addin-server local-llm verify >/dev/null 2>&1 || addin-server local-llm fetch
fi

# ---- HTTPS: Word loads add-ins only from https addresses it trusts -------------------------------
# Reuse the certificate of Microsoft's office-addin-dev-certs when this machine has one (already
# trusted by earlier add-in work); else make a small local CA and a localhost certificate with openssl.
CERTS=var/certs
if [ -n "${PRECEDENT_CERT_FILE:-}" ]; then
  CERT=$PRECEDENT_CERT_FILE KEY=${PRECEDENT_KEY_FILE:?PRECEDENT_KEY_FILE must name the key of PRECEDENT_CERT_FILE}
  CA=${PRECEDENT_CA_FILE:-$CERT}
elif [ -s "$HOME/.office-addin-dev-certs/localhost.crt" ]; then
  CERT=$HOME/.office-addin-dev-certs/localhost.crt KEY=$HOME/.office-addin-dev-certs/localhost.key
  CA=$HOME/.office-addin-dev-certs/ca.crt
else
  paths=$(bash scripts/dev-cert.sh "$CERTS")
  { read -r CA; read -r CERT; read -r KEY; } <<<"$paths"
fi
if [ -n "${TRUST_CERT:-}" ]; then
  case "$(uname -s)" in
    Darwin) security add-trusted-cert -r trustRoot -k "$HOME/Library/Keychains/login.keychain-db" "$CA" ;;
    Linux)
      if grep -qi microsoft /proc/version 2>/dev/null && command -v certutil.exe >/dev/null; then
        certutil.exe -user -addstore Root "$(wslpath -w "$CA")"   # Word runs on the Windows side of WSL
      else
        install -m 644 "$CA" /usr/local/share/ca-certificates/precedent-dev-ca.crt && update-ca-certificates >/dev/null
      fi ;;
    MINGW*|MSYS*|CYGWIN*) certutil -user -addstore Root "$CA" ;;
  esac
fi

# ---- the manifest: one add-in id for this machine, kept in var/addin.env ------------------------
if [ -z "${PRECEDENT_ADDIN_ID:-}" ]; then
  [ -s var/addin.env ] || python -c 'import uuid; print(f"PRECEDENT_ADDIN_ID={uuid.uuid4()}")' > var/addin.env
  set -a; . var/addin.env; set +a
fi
PORT=${PRECEDENT_PORT:-8443}
addin-server manifest --url "https://localhost:$PORT" --out var/manifest.xml

# ---- serve: the banner comes once every worker answers /health --------------------------------
# (It used to be printed before the server had loaded the index and the model, so the "Check"
# below, or Word, met a refused connection for the first minute or two.)
addin-server serve --index "$INDEX" --port "$PORT" --cert "$CERT" --key "$KEY" &
SERVER=$!
trap 'kill -TERM "$SERVER" 2>/dev/null; wait "$SERVER"; exit 130' INT TERM
echo "Starting the server on https://localhost:$PORT (loading the index and the model)..."
if ! python scripts/wait_ready.py "https://localhost:$PORT" --pid "$SERVER" --timeout 900; then
  kill -TERM "$SERVER" 2>/dev/null || true
  wait "$SERVER" || exit $?   # it stopped: its log above says why
  exit 1
fi

cat <<EOF

Ready: serving the API and the task pane on https://localhost:$PORT (Ctrl-C stops).
  Check:  curl --cacert $CA https://localhost:$PORT/api/v1/health

Trust the certificate once on the computer that runs Word (skip if you ran with TRUST_CERT=1 there):
  Windows: certutil -user -addstore Root $CA
  macOS:   security add-trusted-cert -r trustRoot -k ~/Library/Keychains/login.keychain-db $CA
  Then open https://localhost:$PORT/ in a browser: the task pane page must load without a warning.

Sideload the add-in (manifest: $(pwd)/var/manifest.xml):
  Word on the web: Home > Add-ins > More Add-ins > My Add-ins > Upload My Add-in > choose the manifest.
  Word for Windows: put the manifest in a shared folder, add that folder under File > Options > Trust Center >
    Trust Center Settings > Trusted Add-in Catalogs (tick Show in Menu), restart Word, then
    Home > Add-ins > More Add-ins > Shared Folder > Precedent.
  Word for Mac: copy the manifest to ~/Library/Containers/com.microsoft.Word/Data/Documents/wef/ and restart Word.
  Then select a clause and click Find precedent on the Home tab.
EOF
wait "$SERVER"
