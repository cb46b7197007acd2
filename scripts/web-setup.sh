#!/usr/bin/env bash
# Install what the wasm-pack build (and, with --browser, the browser test) needs, skipping
# whatever is already there. Needs only rustup/cargo (and node/npm for --browser).
#
#   - Rust target wasm32-unknown-unknown
#   - wasm-pack and wasm-bindgen-cli in .tools/bin (`cargo install --root .tools --locked`);
#     wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock, which the
#     generated JS must match; copies are kept in ~/.cache/agent-markdown/tools
#     (WEB_TOOLS_CACHE) and reused by later clones
#   - --browser: Debian's chromium (apt) unless `chromium` is on PATH, and `npm ci` in
#     tests/browser (playwright-core only; it downloads no browser)
#
# Usage: scripts/web-setup.sh [--browser | --rust-only]   (--rust-only: just the target, for clippy)
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD

WASM_PACK_VERSION=${WASM_PACK_VERSION:-0.15.1}

say() { printf 'web-setup: %s\n' "$*"; }
die() { printf 'web-setup: error: %s\n' "$*" >&2; exit 1; }

browser=0
rust_only=0
for arg in "$@"; do
    case $arg in
        --browser) browser=1 ;;
        --rust-only) rust_only=1 ;;
        *) die "unknown argument: $arg" ;;
    esac
done

# --- Rust target -----------------------------------------------------------------------------
command -v cargo >/dev/null || die "cargo not found (install Rust via https://rustup.rs)"
if command -v rustup >/dev/null; then
    if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
        say "adding Rust target wasm32-unknown-unknown"
        rustup target add wasm32-unknown-unknown
    fi
elif ! test -d "$(rustc --print sysroot)/lib/rustlib/wasm32-unknown-unknown"; then
    die "Rust target wasm32-unknown-unknown missing and rustup not available to add it"
fi

((rust_only)) && exit 0

# --- wasm-pack and wasm-bindgen-cli ------------------------------------------------------------
# The version a binary prints, e.g. "wasm-bindgen 0.2.130" -> 0.2.130; empty if absent.
installed_version() {
    [[ -x $1 ]] && "$1" --version 2>/dev/null | awk '{print $2; exit}' || true
}

# Built binaries are also kept outside the work tree, so that a fresh clone on the same
# machine (CI) copies them instead of spending many minutes in cargo install.
cache=${WEB_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agent-markdown/tools}

# ensure_tool BIN VERSION CRATE: .tools/bin/BIN at exactly VERSION.
ensure_tool() {
    local bin=$1 version=$2 crate=$3
    local cached=$cache/$bin-$version
    if [[ $(installed_version ".tools/bin/$bin") == "$version" ]]; then
        :
    elif [[ $(installed_version "$cached") == "$version" ]]; then
        say "$bin $version from $cache"
        mkdir -p .tools/bin
        cp "$cached" ".tools/bin/$bin"
    else
        say "installing $crate $version into .tools/bin (cargo install, several minutes)"
        local install=(cargo install --quiet --force --root "$root/.tools" "$crate" --version "$version")
        if ! "${install[@]}" --locked; then
            # A published lock may name crate versions a registry mirror does not carry yet
            # (seen: webpki-roots 1.0.11 for wasm-bindgen-cli); resolve against what it has.
            say "the locked install failed; retrying with a fresh resolution"
            "${install[@]}"
        fi
    fi
    if [[ $(installed_version "$cached") != "$version" ]]; then
        { mkdir -p "$cache" && cp ".tools/bin/$bin" "$cached.tmp" && mv "$cached.tmp" "$cached"; } ||
            say "could not keep a copy in $cache (not needed)"
    fi
}

ensure_tool wasm-pack "$WASM_PACK_VERSION" wasm-pack

# The [[package]] entry named wasm-bindgen in Cargo.lock (the crate, not its -macro etc.).
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
if [[ -z $bindgen_version ]]; then
    # Cargo.lock predates the web crate: let cargo resolve it once.
    cargo metadata --format-version 1 >/dev/null
    bindgen_version=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
fi
[[ -n $bindgen_version ]] || die "no wasm-bindgen in Cargo.lock"
ensure_tool wasm-bindgen "$bindgen_version" wasm-bindgen-cli

# --- browser test: Chromium and playwright-core -----------------------------------------------
if ((browser)); then
    if ! command -v chromium >/dev/null; then
        command -v apt-get >/dev/null || die "chromium not found and no apt-get to install it"
        sudo=()
        if [[ $(id -u) != 0 ]]; then
            command -v sudo >/dev/null || die "chromium not found; install it as root (apt-get install chromium)"
            sudo=(sudo)
        fi
        say "installing Debian chromium (apt-get)"
        "${sudo[@]}" apt-get update -qq
        DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq chromium >/dev/null
    fi
    command -v node >/dev/null || die "node not found (needed for the browser test)"
    lock=tests/browser/package-lock.json
    stamp=tests/browser/node_modules/.package-lock.sha256
    want=$(sha256sum "$lock" | cut -d' ' -f1)
    if [[ ! -f $stamp || $(cat "$stamp") != "$want" ]]; then
        say "npm ci in tests/browser"
        (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
        echo "$want" >"$stamp"
    fi
fi

say "ready: wasm-pack $(installed_version .tools/bin/wasm-pack), wasm-bindgen $bindgen_version$( ((browser)) && printf ', %s' "$(chromium --version 2>/dev/null | head -1)")"
