#!/usr/bin/env python3
"""Hostile inputs through the release `md-convert`, each at size n and 4n.

Prints one row per case: input bytes, conversion time (best of 3, from --stats), peak RSS of
the process, output bytes, and the time ratio 4n/n (linear work gives ~4). A crash, a
non-zero exit, a conversion over --limit seconds or a peak RSS over --max-rss-mb fails the run.
With --max-ratio R (`make test` passes 10), a case whose n conversion takes at least 10 ms also
fails when 4n takes over R times as long: quadratic work gives ~16, while this shared vCPU's
two speeds (~1.6x apart, see docs/BENCHMARKS.md) can push linear work to ~6.5. Shorter
cases are too noisy to judge and only reported.

    make adversarial          # builds md-convert, then runs this (ratios reported, not judged)
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile


def nested(open_tag, close_tag, inner="deep"):
    return lambda n: open_tag * n + inner + close_tag * n


# A page that loads MathJax and has it read single dollars as well as \( \) and $$ $$.
TYPESET = (
    '<script src="/mathjax/tex-chtml.js"></script>'
    "<script>MathJax = {tex: {inlineMath: [['$', '$'], ['\\\\(', '\\\\)']]}};</script>"
)

CASES = {
    # name: (generator of an input for "size" n, n)
    "nested div": (nested("<div>", "</div>"), 50_000),
    "nested ul/li": (nested("<ul><li>", "</li></ul>"), 50_000),
    "nested ol": (nested("<ol>", "</ol>"), 50_000),
    "nested blockquote": (nested("<blockquote>", "</blockquote>"), 50_000),
    "nested table": (nested("<table><tr><td>", "</td></tr></table>"), 50_000),
    "nested b": (nested("<b>", "</b>"), 50_000),
    "nested a": (nested('<a href="/x">', "</a>"), 50_000),
    "nested span": (nested("<span>", "</span>"), 50_000),
    "unclosed p": (lambda n: "<p>x" * n, 50_000),
    "tiny elements": (lambda n: "<i>x</i>" * n, 250_000),
    "attributes on one tag": (lambda n: "<p " + " ".join(f"a{i}=1" for i in range(n)) + ">x</p>", 50_000),
    "huge attribute value": (lambda n: '<a href="/' + "x" * n + '">l</a>', 1_000_000),
    "metachar text": (lambda n: "<p>" + "*_`[]<>#|~\\!&" * n + "</p>", 100_000),
    "backtick runs": (lambda n: "<p><code>" + "`" * n + "</code></p><pre>" + "`" * n + "</pre>", 500_000),
    "huge table": (lambda n: "<table>" + ("<tr>" + "<td>c</td>" * 50 + "</tr>") * (n // 50) + "</table>", 100_000),
    "colspan/rowspan": (lambda n: "<table>" + '<tr><td colspan=1000 rowspan=1000>x</td></tr>' * n + "</table>", 20_000),
    "random bytes": (lambda n: random.Random(7).randbytes(n), 1_000_000),
    "NUL bytes": (lambda n: "<p>" + "a\0" * n + "</p>", 500_000),
    # Formulas: each one looks at its block's other children (is it displayed?), and MathML
    # without TeX is made TeX bottom-up.
    "formulas among empty boxes": (
        lambda n: "<p>" + "<span></span>" * n + "<math><mi>x</mi></math>" * n + "</p>", 20_000),
    "nested math": (nested("<math><mrow>", "</mrow></math>", "<mi>x</mi>"), 50_000),
    "one huge formula": (lambda n: "<p><math>" + "<msup><mi>x</mi><mn>2</mn></msup>" * n + "</math></p>", 100_000),
    "math/tex scripts": (
        lambda n: "<p>" + '<span class="MathJax">x</span><script type="math/tex">x^2</script>' * n + "</p>",
        50_000),
    # TeX in the text of a page whose MathJax reads $…$ too: many formulas in one text node
    # after a delimiter that never closes (each search once read to the end: quadratic).
    "formulas in one text": (
        lambda n: TYPESET + "<p>" + "$$a$$ $b$ $5 " * n + "\\( \\[ $c</p>", 100_000),
}


# Runs the converter and reports its peak RSS (KiB) on stderr: a fresh wrapper process per
# run, so RUSAGE_CHILDREN is that run's alone (no dependency on GNU time). The child's peak
# counts the wrapper's pages it had before exec, so it reads ~6 MB high: a safe-side bound.
PEAK_RSS = (
    "import resource, subprocess, sys\n"
    "r = subprocess.run(sys.argv[1:])\n"
    "sys.stderr.write(f'RSS {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}\\n')\n"
    "sys.exit(r.returncode)\n"
)


def measure(binary, data, limit):
    with tempfile.NamedTemporaryFile(suffix=".html", delete=False) as f:
        f.write(data if isinstance(data, bytes) else data.encode())
        path = f.name
    try:
        best = None
        out_bytes = 0
        rss = 0
        for _ in range(3):
            p = subprocess.run(
                [sys.executable, "-c", PEAK_RSS, binary, "--stats", path],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                timeout=limit,
            )
            if p.returncode != 0:
                raise RuntimeError(f"exit {p.returncode}: {p.stderr[-300:]!r}")
            lines = p.stderr.decode().strip().splitlines()
            stats = json.loads(next(l for l in lines if l.startswith("{")))
            rss = max(rss, int(next(l for l in lines if l.startswith("RSS ")).split()[1]))
            micros = stats["micros"]
            best = micros if best is None else min(best, micros)
            out_bytes = stats["bytes_out"]
        return os.path.getsize(path), best / 1e6, rss, out_bytes
    finally:
        os.unlink(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/md-convert")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per conversion")
    ap.add_argument("--max-rss-mb", type=float, default=1024.0, help="peak RSS per conversion")
    ap.add_argument("--max-ratio", type=float, default=0.0, help="4n/n time bound (0: report only)")
    args = ap.parse_args()
    print(f"{'case':24} {'bytes n':>10} {'s n':>8} {'bytes 4n':>10} {'s 4n':>8} {'ratio':>6} {'max RSS MB':>10} {'out 4n':>10}")
    failed = False
    for name, (gen, n) in CASES.items():
        try:
            b1, t1, _, _ = measure(args.bin, gen(n), args.limit)
            b4, t4, rss, out4 = measure(args.bin, gen(4 * n), args.limit)
        except Exception as e:  # noqa: BLE001 - report every failure, then exit non-zero
            print(f"{name:24} FAILED: {e}")
            failed = True
            continue
        ratio = t4 / t1 if t1 > 0 else float("nan")
        print(f"{name:24} {b1:>10} {t1:>8.3f} {b4:>10} {t4:>8.3f} {ratio:>6.1f} {rss / 1024:>10.0f} {out4:>10}")
        if rss / 1024 > args.max_rss_mb:
            print(f"{name:24} FAILED: peak RSS {rss / 1024:.0f} MB over {args.max_rss_mb:g} MB")
            failed = True
        if args.max_ratio and t1 >= 0.010 and ratio > args.max_ratio:
            print(f"{name:24} FAILED: 4n took {ratio:.1f}x the time of n (bound {args.max_ratio:g})")
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
