#!/usr/bin/env bash
# Optimise the release filter module in place with binaryen's wasm-opt (run by `make wasm`).
#
#   scripts/wasm-opt.sh target/wasm32-wasip1/release/markdown_filter.wasm
#   scripts/wasm-opt.sh --which    # prints the wasm-opt it would use (nothing if none)
#
# Why: on top of rustc's opt-level 3 + LTO it shrinks the code section by ~11 % (the module
# by ~16 %: Istio and Envoy Gateway fetch it over the network). In Envoy 1.40 under load
# (10 KB page, memo off, h1 c=10, interleaved rounds, together with the Talc allocator) Envoy
# CPU per converted request moved within one run's noise (-4 % to +1 %), no clear gain or loss.
#
# --one-caller-inline-max-function-size=50: binaryen's -O3 otherwise inlines every function
# that has a single caller, whatever its size. The giant functions that makes cost V8 so much
# memory to compile that Envoy started ~22 MiB larger (127 -> 149 MiB RSS at idle, one
# worker); with the cap, RSS is the same as without wasm-opt.
#
# Which wasm-opt: WASM_OPT_BIN, else the pinned binaryen that scripts/setup.sh installs from
# npm (.tools/binaryen, runs on node), else one on PATH. None found: the module stays as
# cargo built it (it works the same, a little slower) and this says so. WASM_OPT=0 skips the
# step; WASM_OPT_FLAGS replaces the optimisation flags (add -g to keep function names).
#
# cargo puts its own output back on every build (it re-links the file from deps/), so the
# optimised module is kept beside it (MODULE.opt) with a stamp naming the input it came from:
# the same input is restored from there in a moment instead of optimised again.
set -euo pipefail

say() { printf 'wasm-opt: %s\n' "$*"; }
die() { printf 'wasm-opt: error: %s\n' "$*" >&2; exit 1; }

root=$(cd "$(dirname "$0")/.." && pwd)
pinned=$root/.tools/binaryen/node_modules/binaryen/bin/wasm-opt
if [[ -n ${WASM_OPT_BIN:-} ]]; then
    bin=$WASM_OPT_BIN
elif [[ -x $pinned ]] && command -v node >/dev/null; then
    bin=$pinned
else
    bin=$(command -v wasm-opt || true)
fi
if [[ ${1:-} == --which ]]; then
    [[ -z $bin ]] || printf '%s\n' "$bin"
    exit 0
fi

wasm=${1:?usage: scripts/wasm-opt.sh MODULE.wasm | --which}
[[ -f $wasm ]] || die "$wasm not found"
wasm=$(realpath "$wasm")
stamp=$wasm.opt-stamp

if [[ ${WASM_OPT:-1} == 0 ]]; then
    say "skipped (WASM_OPT=0): $wasm left as cargo built it"
    exit 0
fi
if [[ -z $bin ]]; then
    say "no wasm-opt (run scripts/setup.sh, or put binaryen's wasm-opt on PATH): $wasm left unoptimised"
    exit 0
fi

flags=${WASM_OPT_FLAGS:--O3 --one-caller-inline-max-function-size=50}
version=$({ "$bin" --version 2>/dev/null || true; } | grep -o 'version[ _][0-9]*' | head -1 | tr -dc 0-9 || true)
what="wasm-opt $flags (binaryen ${version:-?})"

cache=$wasm.opt
in_sum=$(sha256sum "$wasm" | cut -d' ' -f1)
if [[ -f $cache && -f $stamp ]]; then
    read -r src_sum out_sum made_by <"$stamp" || true
    if [[ ${made_by:-} == "$what" ]]; then
        if [[ $in_sum == "${out_sum:-}" ]]; then
            exit 0 # already the optimised module
        fi
        if [[ $in_sum == "${src_sum:-}" && $(sha256sum "$cache" | cut -d' ' -f1) == "${out_sum:-}" ]]; then
            cp "$cache" "$wasm.tmp" && mv "$wasm.tmp" "$wasm"
            exit 0
        fi
    fi
fi

before=$(stat -c %s "$wasm")
# Exactly the features rustc's wasm32-wasip1 target and .cargo/config.toml (simd128) enable,
# so the output needs nothing Envoy's V8 would not have had to run the input.
# shellcheck disable=SC2086 # flags is a word list
if ! "$bin" $flags --enable-simd --enable-bulk-memory --enable-sign-ext \
    --enable-nontrapping-float-to-int --enable-mutable-globals --enable-reference-types \
    --enable-multivalue "$wasm" -o "$cache.tmp"; then
    # The module works unoptimised: a wasm-opt that cannot read it must not stop the build.
    rm -f "$cache.tmp" "$stamp"
    say "warning: $bin failed; $wasm left as it was"
    exit 0
fi
mv "$cache.tmp" "$cache"
printf '%s %s %s\n' "$in_sum" "$(sha256sum "$cache" | cut -d' ' -f1)" "$what" >"$stamp"
# A new file, not an overwrite: cargo's hard link to the same inode in deps/ keeps its bytes.
cp "$cache" "$wasm.tmp" && mv "$wasm.tmp" "$wasm"
say "$what: $wasm $before -> $(stat -c %s "$wasm") bytes"
