#!/usr/bin/env bash
# Which outputs two md-convert builds disagree on, over every page selection changes touch:
# Mozilla Readability's test pages (as readability_eval.py reads them), corpus/ and every
# page setup.sh unpacked. The "N of 65,669 outputs changed" counts in docs/CONFORMANCE.md
# and CHANGELOG.md come from this. JOBS pages at a time (default: one per core); ~7 min on
# two cores. Output: one sorted "CHANGED <set> <path>" line per difference, then the count.
#
#   scripts/realdocs/compare.sh OLD_BIN NEW_BIN > changed.txt
#   READABILITY_PAGES=dir REALDOCS_DIR=dir JOBS=n scripts/realdocs/compare.sh ...
set -u
old=${1:?usage: compare.sh OLD_BIN NEW_BIN}
new=${2:?usage: compare.sh OLD_BIN NEW_BIN}
root=$(cd "$(dirname "$0")/../.." && pwd)
realdocs=${REALDOCS_DIR:-$root/.run/realdocs}
pages=${READABILITY_PAGES:-$(ls -d "$(go env GOMODCACHE 2>/dev/null)"/github.com/go-shiori/go-readability@*/test-pages 2>/dev/null | tail -1)}
jobs=${JOBS:-$(nproc)}
list=$(mktemp)
trap 'rm -f "$list"' EXIT
{
  if [ -n "$pages" ] && [ -d "$pages" ]; then
    for f in "$pages"/*/source.html; do printf 'readability\t%s\n' "$f"; done
  fi
  find "$root/corpus" -name '*.html' | sed 's/^/corpus\t/'
  find "$realdocs/ex" "$realdocs/pages" -name '*.html' 2>/dev/null | sed 's/^/realdocs\t/'
} > "$list"
n=$(wc -l < "$list")
# Readability's pages are read as readability_eval.py reads them: UTF-8, whatever they say.
one='set="${1%%	*}"; f="${1#*	}"; args=("$f")
[ "$set" = readability ] && args=(--content-type "text/html; charset=utf-8" "$f")
cmp -s <("$OLD" "${args[@]}" 2>/dev/null) <("$NEW" "${args[@]}" 2>/dev/null) || echo "CHANGED $set $f"'
changed=$(OLD=$old NEW=$new xargs -d '\n' -P "$jobs" -n 1 bash -c "$one" _ < "$list" | sort)
[ -n "$changed" ] && printf '%s\n' "$changed"
c=$(printf '%s' "$changed" | grep -c '^CHANGED' || true)
echo "$c of $n changed"
