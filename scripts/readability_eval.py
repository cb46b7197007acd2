#!/usr/bin/env python3
"""md-convert's article extraction against Firefox's Reader View (docs/CONFORMANCE.md).

Mozilla Readability's test pages (`test/test-pages/<name>/source.html` + `expected.html`: the
page as saved from the site, and what Readability extracts from it) are other sites' content
and are not vendored. go-shiori/go-readability (MIT) carries a copy in its Go module, which the
Go module proxy serves: `make readability` downloads that pinned module and runs this script.

For each page, md-convert (default options, as the filter runs, base URL
http://fakehost/test/page.html like Readability's tests, and `Content-Type: text/html;
charset=utf-8`, the charset Readability's tests read the files with) converts source.html; our Markdown is
rendered to HTML with markdown-it-py, front matter left out, and both texts are split into
lower-cased words. Issue 2's criteria, per page:

  recall     share of the reference's words (as a multiset) that ours has: >= 98 %
  precision  share of our words that are the reference's: >= 85 %
  tokens     our whole Markdown (front matter included) over the source HTML, o200k tokens
             (tiktoken, with the vocabulary tiktoken-rs ships): <= 10 %

Word multisets, not sequences: the order of paragraphs is not what the criteria are about,
and the pages run to 18,000 words. Pages under 20 KB are Readability's unit cases (a few
paragraphs in a bare page), reported but summarised apart: their token share measures the
test's scaffolding, not a site's.

Usage: scripts/readability_eval.py --bin PATH --pages DIR [--json OUT] [--only NAME ...]
                                    [--check | --write-baseline]
--check exits 1 when a page that met a criterion in conformance/readability-baseline.json no
longer does (naming it), and lists pages that newly meet one; --write-baseline records this
run. `make test` runs the check (`make readability`).
Needs markdown-it-py (in .venv); tiktoken for the token column (`make readability` installs it).
"""
import argparse
import collections
import glob
import hashlib
import html
import json
import os
import re
import statistics
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

try:
    from markdown_it import MarkdownIt
except ImportError:  # pragma: no cover - environment problem, not a result
    sys.exit("readability_eval: markdown-it-py is missing; run scripts/setup.sh and use .venv/bin/python")

BASE_URL = "http://fakehost/test/page.html"
BASELINE = Path(__file__).resolve().parent.parent / "conformance" / "readability-baseline.json"
MIN_RECALL, MIN_PRECISION, MAX_TOKENS = 0.98, 0.85, 0.10
# Issue 2's three criteria, per page.
CRITERIA = {
    "recall": lambda r: r["recall"] >= MIN_RECALL,
    "precision": lambda r: r["precision"] >= MIN_PRECISION,
    "tokens": lambda r: "tokens" in r and r["tokens"] <= MAX_TOKENS,
}
UNIT_CASE_BYTES = 20 * 1024
MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])
BLOCKS = {
    "p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "td", "th", "tr",
    "br", "dt", "dd", "figcaption", "table", "ul", "ol", "section", "article", "header", "footer",
    "hr", "img", "figure", "main", "aside", "nav",
}
WORD = re.compile(r"\w[\w'’.,-]*")


class Text(HTMLParser):
    """Visible text, blocks separated by newlines; script/style/noscript left out."""

    SKIP = {"script", "style", "noscript", "template"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag == "img" and not self.skip:
            self.out.append(formula(dict(attrs)))
        if tag in self.SKIP:
            self.skip += 1
        elif tag in BLOCKS:
            self.out.append("\n")

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag in BLOCKS:
            self.out.append("\n")

    def handle_data(self, data):
        if not self.skip:
            self.out.append(data)


def formula(attrs):
    """A formula Readability keeps as Wikipedia's rendered image: its TeX (the image's alt),
    as the converter writes it (`$…$`, the `{\\displaystyle …}` wrapper off) and as the
    Markdown renderer then shows it, so that the same formula counts the same on both sides
    (an image's alt is otherwise no visible text)."""
    src, alt = attrs.get("src") or "", (attrs.get("alt") or "").strip()
    if "/media/math/render/" not in src or not alt:
        return ""
    for wrapper in ("{\\displaystyle", "{\\textstyle"):
        if alt.startswith(wrapper) and alt.endswith("}"):
            alt = alt[len(wrapper) : -1].strip()
    tex = " ".join(alt.split())
    return " " + html.unescape(re.sub(r"<[^>]*>", "", MD.renderInline(f"${tex}$"))) + " "


def words(html):
    parser = Text()
    parser.feed(html)
    parser.close()
    text = "".join(parser.out).lower().replace("\u00a0", " ")
    return [w for w in (m.strip(".,-'’") for m in WORD.findall(text)) if w]


def without_front_matter(md):
    if md.startswith("---\n"):
        end = md.find("\n---\n", 4)
        if end >= 0:
            return md[end + 5 :]
    return md


def o200k():
    """tiktoken's o200k_base from the vocabulary tiktoken-rs (a dev-dependency) ships."""
    try:
        import tiktoken
    except ImportError:
        return None
    url = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
    cargo = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))
    found = sorted(glob.glob(str(cargo / "registry/src/*/tiktoken-rs-*/assets/o200k_base.tiktoken")))
    if found and "TIKTOKEN_CACHE_DIR" not in os.environ:
        cache = Path(__file__).resolve().parent.parent / ".tools" / "tiktoken"
        cache.mkdir(parents=True, exist_ok=True)
        target = cache / hashlib.sha1(url.encode()).hexdigest()
        if not target.exists():
            target.write_bytes(Path(found[-1]).read_bytes())
        os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
    try:
        return tiktoken.get_encoding("o200k_base")
    except Exception as err:  # no vocabulary offline: the token column is left out
        print(f"readability_eval: no o200k vocabulary ({err}); tokens not counted", file=sys.stderr)
        return None


def evaluate(binary, page_dir, enc):
    source = page_dir / "source.html"
    raw = source.read_bytes()
    # Readability's harness reads every source.html as UTF-8 (they are stored so), whatever
    # its <meta> says (qq's declares gb2312): the same charset here, as an HTTP header would.
    run = subprocess.run(
        [binary, "--base-url", BASE_URL, "--content-type", "text/html; charset=utf-8", str(source)],
        capture_output=True,
    )
    if run.returncode != 0:
        raise SystemExit(f"{page_dir.name}: md-convert exited {run.returncode}: {run.stderr.decode()[:200]}")
    md = run.stdout.decode("utf-8")
    ours = collections.Counter(words(MD.render(without_front_matter(md))))
    ref = collections.Counter(words((page_dir / "expected.html").read_text(encoding="utf-8")))
    common = sum((ours & ref).values())
    row = {
        "page": page_dir.name,
        "bytes": len(raw),
        "reference_words": sum(ref.values()),
        "our_words": sum(ours.values()),
        "recall": common / max(1, sum(ref.values())),
        "precision": common / max(1, sum(ours.values())),
    }
    if enc is not None:
        html_tokens = len(enc.encode(raw.decode("utf-8", "replace"), disallowed_special=()))
        row["md_tokens"] = len(enc.encode(md, disallowed_special=()))
        row["html_tokens"] = html_tokens
        row["tokens"] = row["md_tokens"] / max(1, html_tokens)
    return row


def summary(label, rows):
    if not rows:
        return f"{label}: no pages"
    # All pages together, each word counted once: the share of every reference word kept,
    # and of every word written that is the reference's.
    kept = sum(r["recall"] * r["reference_words"] for r in rows)
    line = (
        f"{label}: {len(rows)} pages; recall median {100 * statistics.median(r['recall'] for r in rows):.1f} %, "
        f"all words {100 * kept / max(1, sum(r['reference_words'] for r in rows)):.1f} %, "
        f">= 98 % on {sum(map(CRITERIA['recall'], rows))}; precision median "
        f"{100 * statistics.median(r['precision'] for r in rows):.1f} %, all words "
        f"{100 * kept / max(1, sum(r['our_words'] for r in rows)):.1f} %, >= 85 % on "
        f"{sum(map(CRITERIA['precision'], rows))}"
    )
    if all("tokens" in r for r in rows):
        total = sum(r["md_tokens"] for r in rows) / sum(r["html_tokens"] for r in rows)
        line += (
            f"; tokens median {100 * statistics.median(r['tokens'] for r in rows):.1f} %, total "
            f"{100 * total:.1f} %, <= 10 % on {sum(map(CRITERIA['tokens'], rows))}"
        )
    return line


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="md-convert binary")
    ap.add_argument("--pages", required=True, help="Readability's test-pages directory")
    ap.add_argument("--json", help="write every page's numbers here")
    ap.add_argument("--only", nargs="*", default=[], help="these page names only")
    gate = ap.add_mutually_exclusive_group()
    gate.add_argument("--check", action="store_true", help=f"gate on {BASELINE.name}")
    gate.add_argument("--write-baseline", action="store_true", help=f"record this run in {BASELINE.name}")
    args = ap.parse_args()
    if (args.check or args.write_baseline) and args.only:
        ap.error("--check and --write-baseline need every page (no --only)")
    pages = Path(args.pages)
    dirs = sorted(
        d for d in pages.iterdir()
        if (d / "source.html").is_file() and (d / "expected.html").is_file()
        and (not args.only or d.name in args.only)
    )
    if not dirs:
        sys.exit(f"readability_eval: no test pages under {pages}")
    enc = o200k()
    rows = [evaluate(args.bin, d, enc) for d in dirs]
    for r in rows:
        flags = (
            ("R" if not CRITERIA["recall"](r) else " ")
            + ("P" if not CRITERIA["precision"](r) else " ")
            + ("T" if "tokens" in r and not CRITERIA["tokens"](r) else " ")
        )
        tok = f"  tokens {100 * r['tokens']:5.1f} %" if "tokens" in r else ""
        print(
            f"{flags} {r['page']:<42} {r['bytes'] // 1024:>5} KB  recall {100 * r['recall']:5.1f} %  "
            f"precision {100 * r['precision']:5.1f} %{tok}"
        )
    sites = [r for r in rows if r["bytes"] >= UNIT_CASE_BYTES]
    units = [r for r in rows if r["bytes"] < UNIT_CASE_BYTES]
    print(summary(f"site pages (>= {UNIT_CASE_BYTES // 1024} KB)", sites))
    print(summary("unit cases", units))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    meeting = {k: sorted(r["page"] for r in rows if ok(r)) for k, ok in CRITERIA.items()}
    if args.write_baseline:
        if enc is None:
            sys.exit("readability_eval: no tokenizer, so no token column: baseline not written")
        BASELINE.write_text(json.dumps(meeting, indent=1) + "\n")
        print(f"wrote {BASELINE}")
    elif args.check:
        sys.exit(0 if check(meeting, json.loads(BASELINE.read_text()), enc is not None) else 1)


def check(meeting, baseline, have_tokens):
    """True when every page that met a criterion in the baseline still does."""
    ok = True
    for name, before in baseline.items():
        if name == "tokens" and not have_tokens:
            print("check: no tokenizer, the token criterion is not checked", file=sys.stderr)
            continue
        now = set(meeting.get(name, []))
        lost = sorted(set(before) - now)
        gained = sorted(now - set(before))
        if lost:
            ok = False
            print(f"check: {name}: no longer met on {', '.join(lost)}")
        if gained:
            print(f"check: {name}: newly met on {', '.join(gained)} (record with --write-baseline)")
    print(f"check: {'ok' if ok else 'FAILED'} (" + ", ".join(
        f"{k} {len(v)}/{len(baseline.get(k, []))} baseline" for k, v in meeting.items()) + ")")
    return ok


if __name__ == "__main__":
    main()
