#!/usr/bin/env bash
# Prints the path of k6 v1.8.1, installing it into .tools/bin first when it is missing
# (`go install`, ~2 min; needs Go and the Go module proxy). K6=/path/to/k6 overrides.
set -euo pipefail

cd "$(dirname "$0")/.."

K6_VERSION=v1.8.1
bin=${K6:-$PWD/.tools/bin/k6}

installed_version() { "$1" version 2>/dev/null | awk 'NR==1{print $2}'; }

if [[ -x $bin && ( -n ${K6:-} || $(installed_version "$bin") == "$K6_VERSION" ) ]]; then
    echo "$bin"
    exit 0
fi
[[ -z ${K6:-} ]] || { echo "k6.sh: K6=$K6 is not executable" >&2; exit 1; }
command -v go >/dev/null || { echo "k6.sh: go is needed to install k6" >&2; exit 1; }
echo "k6.sh: installing k6 $K6_VERSION into .tools/bin (go install, takes a few minutes)" >&2
mkdir -p .tools/bin
GOBIN=$PWD/.tools/bin go install "go.k6.io/k6@$K6_VERSION" >&2
echo "$bin"
