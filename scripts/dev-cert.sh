#!/usr/bin/env bash
# Make (once) a development CA and a certificate for localhost signed by it, for serving the
# add-in over HTTPS on one machine. Word trusts the certificate once the CA is in the trust store
# of the computer running Word (scripts/quickstart.sh prints how; TRUST_CERT=1 there does it).
#
#   bash scripts/dev-cert.sh [DIR]      # default var/certs; prints the CA, certificate and key paths
#
# Re-running keeps the CA (so it stays trusted) and renews the certificate when it is missing or
# expires within a day. The CA key never leaves DIR (mode 600).
set -euo pipefail
DIR=${1:-var/certs}
CA=$DIR/precedent-dev-ca.crt CA_KEY=$DIR/precedent-dev-ca.key CERT=$DIR/localhost.crt KEY=$DIR/localhost.key
mkdir -p "$DIR"
if [ ! -s "$CERT" ] || [ ! -s "$CA" ] || ! openssl x509 -checkend 86400 -noout -in "$CERT" >/dev/null 2>&1; then
  ( umask 077
    if [ ! -s "$CA_KEY" ] || [ ! -s "$CA" ]; then
      openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 825 \
        -subj "/CN=Precedent development CA ($(hostname))" -keyout "$CA_KEY" -out "$CA" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
    fi
    openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=localhost" -keyout "$KEY" -out "$DIR/localhost.csr" 2>/dev/null
    printf '%s\n' "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1" "basicConstraints=CA:FALSE" \
      "keyUsage=critical,digitalSignature,keyEncipherment" "extendedKeyUsage=serverAuth" > "$DIR/localhost.ext"
    # 397 days: the longest a browser or macOS accepts for a server certificate.
    openssl x509 -req -in "$DIR/localhost.csr" -CA "$CA" -CAkey "$CA_KEY" -CAcreateserial \
      -days 397 -sha256 -extfile "$DIR/localhost.ext" -out "$CERT" 2>/dev/null
    rm -f "$DIR/localhost.csr" "$DIR/localhost.ext" )
  chmod 644 "$CA" "$CERT"
  echo "Made a localhost certificate ($CERT) signed by the development CA ($CA)." >&2
fi
printf '%s\n' "$CA" "$CERT" "$KEY"
