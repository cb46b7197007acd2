#!/usr/bin/env bash
# wasm-pack build of the web crate, with the tools from .tools/bin (scripts/web-setup.sh).
#
#   scripts/web-build.sh TARGET OUT_DIR
#
# TARGET is a wasm-pack target (bundler: the npm package; web: ES module for <script
# type=module>, used by the playground; nodejs). wasm-pack's own wasm-opt step is off (it
# would download binaryen); when a `wasm-opt` is found (binaryen: see below), the module is
# optimised with it here instead (WASM_OPT_FLAGS, default -O3; WASM_OPT=0 skips;
# WASM_OPT_BIN=path). Measured: -O3 and -Oz both ~13% smaller raw, ~2% gzipped, no faster.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD

[[ $# == 2 ]] || { echo "usage: $0 TARGET OUT_DIR" >&2; exit 2; }
target=$1
out=$(realpath -m "$2")

scripts/web-setup.sh >/dev/null

start=$(date +%s%N)
# --mode no-install: use the wasm-bindgen in .tools/bin (the exact Cargo.lock version) and
# never download one.
PATH=$root/.tools/bin:$PATH WASM_PACK_DISABLE_UPDATE_CHECK=1 \
    wasm-pack --quiet build web --release --mode no-install --target "$target" --out-dir "$out"
wasm=$out/agent_markdown_web_bg.wasm
raw=$(stat -c %s "$wasm")

# The filter's wasm-opt: WASM_OPT_BIN, else the pinned binaryen scripts/setup.sh installs
# from npm, else one on PATH.
wasm_opt=$(scripts/wasm-opt.sh --which)
flags=${WASM_OPT_FLAGS:--O3}
if [[ ${WASM_OPT:-1} == 0 || -z $wasm_opt ]]; then
    opt="; no wasm-opt"
# The features rustc's wasm32 target enables by default. An old binaryen (Debian bookworm's
# 108) cannot parse the module (table.fill): keep it unoptimised rather than fail the build.
elif "$wasm_opt" $flags --enable-bulk-memory --enable-nontrapping-float-to-int \
        --enable-sign-ext --enable-mutable-globals --enable-reference-types \
        --enable-multivalue "$wasm" -o "$wasm.opt" 2>"$out/wasm-opt.log"; then
    mv "$wasm.opt" "$wasm"
    rm -f "$out/wasm-opt.log"
    opt="; wasm-opt $flags: $(stat -c %s "$wasm") bytes"
else
    rm -f "$wasm.opt"
    opt="; wasm-opt failed, left unoptimised ($(head -c 200 "$out/wasm-opt.log" | tr '\n' ' '))"
    rm -f "$out/wasm-opt.log"
fi
secs=$((($(date +%s%N) - start) / 1000000000))
printf 'web-build: %s in %s (%s s): %s bytes raw%s, %s bytes gzip -9\n' \
    "$target" "${out#"$root"/}" "$secs" "$raw" "$opt" "$(gzip -9c "$wasm" | wc -c)"
