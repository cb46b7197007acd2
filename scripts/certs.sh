#!/usr/bin/env bash
# Generate a throwaway local CA and a server certificate for 127.0.0.1/localhost into
# envoy/certs/ (gitignored). Idempotent: existing, still-valid files are kept.
# Clients can trust envoy/certs/ca.crt (curl --cacert envoy/certs/ca.crt https://localhost:10443/).
set -euo pipefail

cd "$(dirname "$0")/.."
dir=envoy/certs
mkdir -p "$dir"

# Keep the certs if they exist and stay valid for at least another day.
if [[ -s $dir/server.crt && -s $dir/server.key && -s $dir/ca.crt ]] &&
    openssl x509 -checkend 86400 -noout -in "$dir/server.crt" >/dev/null 2>&1; then
    exit 0
fi

command -v openssl >/dev/null || { echo "certs.sh: openssl is required" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

openssl req -x509 -newkey rsa:2048 -nodes -days 825 -sha256 \
    -subj "/CN=markdown-filter demo CA" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -keyout "$tmp/ca.key" -out "$tmp/ca.crt" 2>/dev/null

openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=localhost" \
    -keyout "$tmp/server.key" -out "$tmp/server.csr" 2>/dev/null

cat >"$tmp/ext.cnf" <<'EXT'
basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1
EXT

openssl x509 -req -in "$tmp/server.csr" -CA "$tmp/ca.crt" -CAkey "$tmp/ca.key" \
    -CAcreateserial -days 825 -sha256 -extfile "$tmp/ext.cnf" -out "$tmp/server.crt" 2>/dev/null

chmod 600 "$tmp/server.key"
# The CA key is not kept: nothing else is ever signed with it.
mv "$tmp/server.key" "$tmp/server.crt" "$tmp/ca.crt" "$dir/"
echo "certs.sh: wrote $dir/{ca.crt,server.crt,server.key}"
