#!/usr/bin/env bash
# `make fuzz`: run every cargo-fuzz target (or those named as arguments) for FUZZ_SECONDS
# each, one after another, single process. Installs the nightly toolchain and cargo-fuzz
# when missing. Exits non-zero on the first crash, leaving the input in
# fuzz/artifacts/<target>/. New coverage goes to the scratch corpus fuzz/work/corpus/<target>
# (gitignored); the committed seeds in fuzz/corpus/ and fuzz/regressions/ are only read.
#
#   FUZZ_SECONDS=300 fuzz/run.sh engine_convert
#   FUZZ_TARGET_DIR=/tmp/x fuzz/run.sh      (default: $CARGO_TARGET_DIR/fuzz, else fuzz/target)
#   FUZZ_SANITIZER=none fuzz/run.sh engine_convert   (default address; `none` runs the engine
#                                                    ~10x faster: safe Rust needs ASan less)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
sanitizer=${FUZZ_SANITIZER:-address}
target_dir=${FUZZ_TARGET_DIR:-${CARGO_TARGET_DIR:+$CARGO_TARGET_DIR/fuzz}}
target_dir=${target_dir:-fuzz/target}
all=(engine_convert accept if_none_match cache_control content_type plugin_config response_head content_coding)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

if ! rustup toolchain list | grep -q '^nightly'; then
    rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi

# Longest input per target: room past each parser's own bound, pages for the engine.
max_len() {
    case $1 in
        engine_convert | content_coding) echo 65536 ;;
        if_none_match | plugin_config) echo 16384 ;;
        accept) echo 8192 ;;
        *) echo 4096 ;;
    esac
}

dict() {
    case $1 in
        engine_convert) echo fuzz/dict/html.dict ;;
        plugin_config) echo fuzz/dict/config.dict ;;
        content_coding) echo "" ;;
        *) echo fuzz/dict/headers.dict ;;
    esac
}

mkdir -p fuzz/work/logs
summary=()
for t in "${targets[@]}"; do
    mkdir -p "fuzz/work/corpus/$t" "fuzz/artifacts/$t"
    dirs=("fuzz/work/corpus/$t" "fuzz/corpus/$t")
    [ -d "fuzz/regressions/$t" ] && dirs+=("fuzz/regressions/$t")
    flags=(-max_total_time="$seconds" -max_len="$(max_len "$t")" -rss_limit_mb=2048
        -timeout=10 -print_final_stats=1)
    d=$(dict "$t")
    [ -n "$d" ] && flags+=(-dict="$d")
    log=fuzz/work/logs/$t.log
    echo "== $t: ${seconds}s, ${flags[*]}"
    set +e
    cargo +nightly fuzz run -s "$sanitizer" --target-dir "$target_dir" "$t" "${dirs[@]}" -- "${flags[@]}" 2>&1 |
        tee "$log" | grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::|panicked|ERROR|SUMMARY|Test unit written'
    status=${PIPESTATUS[0]}
    set -e
    if [ "$status" -ne 0 ] || grep -q 'Test unit written' "$log"; then
        echo "fuzz: $t failed (exit $status); see $log and fuzz/artifacts/$t/" >&2
        exit 1
    fi
    done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    summary+=("$t: ${seconds}s, sanitizer $sanitizer, ${execs:-?} execs, ${done_line#*DONE}")
done
echo "== summary"
printf '%s\n' "${summary[@]}"
