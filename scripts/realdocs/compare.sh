#!/usr/bin/env bash
# Which outputs two md-convert builds disagree on, over every page selection changes touch:
# Mozilla Readability's test pages (as readability_eval.py reads them), corpus/ and every
# page setup.sh unpacked. The "N of 65,669 outputs changed" counts in docs/CONFORMANCE.md
# and CHANGELOG.md come from this. ~15 min on two cores.
#
#   scripts/realdocs/compare.sh OLD_BIN NEW_BIN > changed.txt
#   READABILITY_PAGES=dir REALDOCS_DIR=dir scripts/realdocs/compare.sh ...
set -u
old=${1:?usage: compare.sh OLD_BIN NEW_BIN}
new=${2:?usage: compare.sh OLD_BIN NEW_BIN}
root=$(cd "$(dirname "$0")/../.." && pwd)
realdocs=${REALDOCS_DIR:-$root/.run/realdocs}
pages=${READABILITY_PAGES:-$(ls -d "$(go env GOMODCACHE 2>/dev/null)"/github.com/go-shiori/go-readability@*/test-pages 2>/dev/null | tail -1)}
n=0
c=0
same() { cmp -s <("$old" "$@" 2>/dev/null) <("$new" "$@" 2>/dev/null); }
if [ -n "$pages" ] && [ -d "$pages" ]; then
  for f in "$pages"/*/source.html; do
    n=$((n + 1))
    same --content-type "text/html; charset=utf-8" "$f" || { c=$((c + 1)); echo "CHANGED readability $f"; }
  done
fi
while IFS= read -r f; do
  n=$((n + 1))
  same "$f" || { c=$((c + 1)); echo "CHANGED corpus $f"; }
done < <(find "$root/corpus" -name '*.html')
while IFS= read -r f; do
  n=$((n + 1))
  same "$f" || { c=$((c + 1)); echo "CHANGED realdocs $f"; }
done < <(find "$realdocs/ex" "$realdocs/pages" -name '*.html' 2>/dev/null)
echo "$c of $n changed"
