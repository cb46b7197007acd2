#!/usr/bin/env python3
"""Random inline text made of Markdown punctuation (`*`, `_`, `~`, backticks, brackets, `|`,
`#`, list markers, no-break spaces, ...) in random nestings of inline elements (b, i, s, code,
kbd, a, span, ...) inside one block (paragraph, heading, list item, quote, table cell, `<dt>`),
through md-convert, read back with markdown-it (CommonMark + GFM tables + strikethrough): the
text a reader sees (formatting ignored, white space collapsed) must be the page's, and link
destinations must survive. Each failing case is reduced (tags and characters removed while it
still fails) and printed with our Markdown. With two binaries, also what changed between them.

    .venv/bin/python scripts/text_fuzz.py target/release/md-convert [OTHER_BIN]
        [--seed 1] [--n 3000] [--show 20]

Not part of `make test`: it measures, it does not gate (about a minute). The failures it
still finds are listed in docs/CONFORMANCE.md ("Known limits").
"""
import argparse, html, random, re, subprocess, urllib.parse
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from markdown_it import MarkdownIt

MD = MarkdownIt("commonmark").enable("table").enable("strikethrough")
PUNCT = list("*_~`[]()#>+-=|!<&\\{}.:;'\"/?@$%^,") + [
    "1.", "1)", "- ", "+ ", "* ", "# ", "> ", "    ", "\n", "  ", "***", "___", "~~", "``",
    "](", "![", "<a>", "&amp;", "http://x.y/a_b", "\u00a0", "é", "中"]
WORDS = ["foo", "bar", "a", "x1", "snake_case", "2*3", "a|b", "C#", "f(x)"]
INLINE = ["b", "i", "em", "strong", "s", "code", "a", "span", "kbd", "u"]
HREFS = ["p", "a_b", "x*y", "t~u", "(q)", "s p", "c|d", "e]f"]
BLOCKS = [("<p>", "</p>"), ("<h3>", "</h3>"), ("<ul><li>", "</li></ul>"),
          ("<ol><li>", "</li></ol>"), ("<blockquote><p>", "</p></blockquote>"),
          ("<table><tr><th>h</th></tr><tr><td>", "</td></tr></table>"), ("<dl><dt>", "</dt></dl>")]
BREAKS = {"p", "h3", "li", "blockquote", "td", "th", "dt", "tr", "br", "ul", "ol", "table", "dl", "body"}


def text(rng):
    return "".join(rng.choice(PUNCT) if rng.random() < 0.5
                   else rng.choice(WORDS) + (" " if rng.random() < .5 else "")
                   for _ in range(rng.randint(1, 6)))


def inline(rng, depth=0):
    out = []
    for _ in range(rng.randint(1, 4)):
        if depth < 3 and rng.random() < 0.45:
            tag = rng.choice(INLINE)
            if tag == "code":
                out.append(f"<code>{html.escape(text(rng), quote=False)}</code>")
            elif tag == "a":
                out.append(f'<a href="/{html.escape(rng.choice(HREFS))}">{inline(rng, depth + 1)}</a>')
            else:
                out.append(f"<{tag}>{inline(rng, depth + 1)}</{tag}>")
        else:
            out.append(html.escape(text(rng), quote=False))
    return "".join(out)


class Reader(HTMLParser):
    """Visible text (block edges as spaces) and link destinations of some HTML."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.hrefs, self.depth = [], [], 0

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.hrefs.append(urllib.parse.unquote(dict(attrs).get("href") or ""))
        if tag in BREAKS:
            self.out.append(" ")

    def handle_endtag(self, tag):
        if tag in BREAKS:
            self.out.append(" ")

    def handle_data(self, data):
        self.out.append(data)


def read(h):
    r = Reader()
    r.feed(h)
    r.close()
    return re.sub(r"\s+", " ", "".join(r.out).replace("\u00a0", " ")).strip(), r.hrefs


def convert(binary, src):
    return subprocess.run([binary, "--no-front-matter", "--no-prune"], input=src.encode(),
                          capture_output=True).stdout.decode()


def failure(binary, src):
    """What the reader sees wrongly: None, or (want, got)."""
    want, _ = read(src)
    got, _ = read(MD.render(convert(binary, src)))
    return None if want == got else (want, got)


def reduce(binary, src):
    """Delta-debug `src` to a small input that still fails."""
    toks = re.findall(r"<[^>]*>|&[a-z]+;|[^<&]", src)
    n = 2
    while len(toks) >= 2:
        chunk = max(1, len(toks) // n)
        for i in range(0, len(toks), chunk):
            cand = toks[:i] + toks[i + chunk:]
            if cand and failure(binary, "".join(cand)):
                toks, n = cand, max(n - 1, 2)
                break
        else:
            if chunk == 1:
                break
            n = min(len(toks), n * 2)
    return "".join(toks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bins", nargs="+")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--show", type=int, default=20)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    cases = []
    for _ in range(a.n):
        open_, close = rng.choice(BLOCKS)
        cases.append("<!doctype html><body>" + open_ + inline(rng) + close)
    results = {}
    with ThreadPoolExecutor(4) as ex:
        for b in a.bins:
            results[b] = list(ex.map(lambda s: failure(b, s), cases))
    for b in a.bins:
        bad = [c for c, r in zip(cases, results[b]) if r]
        print(f"{b}: {len(bad)} of {a.n} cases change the text a reader sees")
        reduced = {}
        for c in bad[: 4 * a.show]:
            reduced.setdefault(reduce(b, c), 0)
        for r in sorted(reduced, key=len)[: a.show]:
            print(f"  {r!r} -> {convert(b, r)!r}")
    if len(a.bins) == 2:
        x, y = a.bins
        fixed = sum(1 for p, q in zip(results[x], results[y]) if p and not q)
        broke = [c for c, p, q in zip(cases, results[x], results[y]) if q and not p]
        print(f"{y} against {x}: {fixed} fixed, {len(broke)} newly failing")
        for c in broke[: a.show]:
            print(f"  newly failing: {reduce(y, c)!r}")


if __name__ == "__main__":
    main()
