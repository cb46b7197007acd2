#!/usr/bin/env python3
"""What main-content pruning drops: long lines present with --no-prune, absent without.

The scored eval (eval.py) checks 79 chosen pages against a reference selector. This check
needs no reference, so it runs on any of the ~65,000 pages setup.sh unpacks: it converts
sampled pages twice and prints, per page, the longest lines (at least --words words outside
links) that the pruned output lacks. Navigation, licences and footers fill most of what it
prints; what is left is content the selection lost, and worth a test.

Usage:
  find "${REALDOCS_DIR:-.run/realdocs}/ex/usr/share/doc/erlang-doc" -name '*.html' > /tmp/erl.txt
  python3 scripts/realdocs/dropped.py /tmp/erl.txt                  # 30 random pages, seed 1
  python3 scripts/realdocs/dropped.py /tmp/erl.txt -n 100 --seed 7 --bin /tmp/md-convert-old
  options: --bin PATH (default target/release/md-convert), -n pages, --seed, --words, --lines
"""
import argparse
import random
import re
import subprocess
import sys

LINK = re.compile(r"\]\([^)]*\)")
LINK_TEXT = re.compile(r"\[[^\]]*\]")


def convert(binary, path, prune):
    args = [binary, "--no-front-matter"] + ([] if prune else ["--no-prune"]) + [path]
    return subprocess.run(args, capture_output=True, text=True, errors="replace").stdout


def words_outside_links(line):
    return len(LINK_TEXT.sub("", LINK.sub("]", line)).split())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("list", help="file with one HTML path per line")
    ap.add_argument("--bin", default="target/release/md-convert")
    ap.add_argument("-n", type=int, default=30, help="pages to sample")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--words", type=int, default=8, help="least words outside links")
    ap.add_argument("--lines", type=int, default=4, help="most lines shown per page")
    a = ap.parse_args()
    with open(a.list) as f:
        files = [line.strip() for line in f if line.strip()]
    random.seed(a.seed)
    random.shuffle(files)
    for path in files[: a.n]:
        full = convert(a.bin, path, prune=False)
        pruned = convert(a.bin, path, prune=True)
        kept = {line.strip() for line in pruned.splitlines()}
        lost = sorted(
            (
                (words_outside_links(s), s)
                for s in (line.strip() for line in full.splitlines())
                if s and s not in kept
            ),
            reverse=True,
        )
        lost = [(w, s) for w, s in lost if w >= a.words]
        if lost:
            print(f"=== {path} (pruned {len(pruned)} of {len(full)} bytes)")
            for w, s in lost[: a.lines]:
                print(f"  [{w}] {s[:220]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
