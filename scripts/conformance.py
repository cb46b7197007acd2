#!/usr/bin/env python3
"""md-convert against other HTML -> Markdown converters' test suites (docs/CONFORMANCE.md).

Suites are vendored under conformance/suites/<name>/ (each with its LICENSE and SOURCE). Every
case's reference Markdown and ours (`md-convert --no-front-matter --no-prune`: the cases are
fragments) are rendered to HTML with markdown-it-py (CommonMark + GFM tables + strikethrough) and
compared after normalisation:

  strict   equal rendered HTML after dropping comments, decoding entities, collapsing white space
           outside <pre> and trimming it at block edges, sorting attributes, percent-decoding
           href/src (`http://host` = `http://host/`), merging adjacent identical inline elements
           and putting a formatting element around exactly one link/formatting element in
           canonical order. So bullets, `**`/`__`, setext/ATX, indented/fenced code and escapes
           that render the same never count.
  +style   also ignores loose vs tight lists, <del>/<s>, blank lines at code block edges, white
           space in alt/title, around <br> and inside paragraphs, empty elements, white-space-only
           code, and table header conventions (<th>/<td>, thead/tbody, empty header rows).
  leak     our rendered text (outside code) shows more `*`, `_`, `~` than the page's own text.
  raw      our output renders tags Markdown does not produce, `javascript:`/`vbscript:` URLs, or
           holds `<script`/`<style`/`javascript:` text.

Remaining strict failures are classified in conformance/notes.json (shown with --diffs).

Usage:
  scripts/conformance.py [--bin PATH] [--suite NAME ...] [--diffs] [--show ID] [--json OUT]
                         [--check] [--min-strict NAME=N ...] [--write-baseline] [--external DIR]

--check compares with conformance/baseline.json and exits 1 when a suite's strict pass count
drops below it, or its leak/raw counts rise, printing the cases that newly fail.
Python html2text (GPL-3.0) and fast_html2md (its tests descend from GPL-3.0 html2md) are not
vendored: --external DIR runs them from DIR/html2text/*.html+*.md and DIR/html2md_cases.py.
Needs markdown-it-py (in .venv via scripts/setup.sh).
"""
import argparse
import difflib
import html
import importlib.util
import json
import os
import re
import subprocess
import sys
import types
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

try:
    from markdown_it import MarkdownIt
except ImportError:  # pragma: no cover - environment problem, not a test result
    sys.exit("conformance: markdown-it-py is missing; run scripts/setup.sh and use .venv/bin/python")

ROOT = Path(__file__).resolve().parent.parent
CONF = ROOT / "conformance"
SUITES = CONF / "suites"
BASELINE = CONF / "baseline.json"
NOTES = CONF / "notes.json"

MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])
BLOCK = {
    "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre",
    "table", "thead", "tbody", "tr", "th", "td", "hr", "br",
}
VOID = ("br", "hr", "img")
INLINE_FMT = {"strong", "em", "s", "del", "code"}
# Tags Markdown (CommonMark + GFM tables/strikethrough/task lists) renders to.
MD_TAGS = {"p", "em", "strong", "a", "img", "code", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li",
           "blockquote", "hr", "br", "table", "thead", "tbody", "tr", "th", "td", "s", "del", "input"}

# Reported suites, in order, with the source that produces them.
SUITE_SOURCE = {
    "turndown": "turndown", "turndown+": "turndown", "h2m": "h2m",
    "markdownify": "markdownify", "markdownify-options": "markdownify",
    "gfm": "gfm", "gfm-old": "gfm", "htmd": "htmd", "nhm": "nhm", "nhm-options": "nhm",
    "html2text": "html2text", "html2md": "html2md", "commonmark": "commonmark",
}
EXTERNAL = {"html2text", "html2md"}


# ---------------------------------------------------------------- rendering and normalisation

class Tok(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.toks = []
        self.pre = 0

    def handle_starttag(self, tag, attrs):
        attrs = sorted((k, v or "") for k, v in attrs)
        self.toks.append(("start", tag, tuple(attrs)))
        if tag == "pre":
            self.pre += 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        self.toks.append(("end", tag, ()))
        if tag == "pre":
            self.pre -= 1

    def handle_data(self, data):
        self.toks.append(("text", data if self.pre else re.sub(r"[ \t\r\n]+", " ", data), self.pre > 0))

    def handle_comment(self, data):
        pass


def tokens(rendered):
    p = Tok()
    p.feed(rendered)
    p.close()
    out = []
    for t in p.toks:  # merge adjacent text
        if t[0] == "text" and out and out[-1][0] == "text" and out[-1][2] == t[2]:
            out[-1] = ("text", out[-1][1] + t[1], t[2])
        else:
            out.append(t)
    return out


def tree(toks):
    root = ["root", "", (), []]
    stack = [root]
    for t in toks:
        if t[0] == "start":
            node = ["el", t[1], t[2], []]
            stack[-1][3].append(node)
            if t[1] not in VOID:
                stack.append(node)
        elif t[0] == "end":
            for i in range(len(stack) - 1, 0, -1):
                if stack[i][1] == t[1]:
                    del stack[i:]
                    break
        else:
            stack[-1][3].append(["text", t[1], t[2], None])
    return root


def flat(node, out):
    if node[0] == "text":
        out.append(("text", node[1], node[2]))
        return out
    if node[0] == "el":
        out.append(("start", node[1], node[2]))
    for c in node[3]:
        flat(c, out)
    if node[0] == "el" and node[1] not in VOID:
        out.append(("end", node[1], ()))
    return out


def norm_url(u):
    u = unquote(u.strip())
    try:
        sp = urlsplit(u)
    except ValueError:
        return u
    if sp.scheme in ("http", "https") and sp.netloc and sp.path == "":
        sp = sp._replace(path="/")
    return urlunsplit(sp)


def text_of(node):
    if node[0] == "text":
        return node[1]
    return "".join(text_of(c) for c in node[3])


def has_content(node):
    if node[0] == "text":
        return node[1].strip() != ""
    if node[1] in VOID:
        return True
    return any(has_content(c) for c in node[3])


def table_rows(node, rows):
    for c in node[3]:
        if c[0] == "el" and c[1] == "tr":
            cells = [["el", "td", tuple(a for a in cc[2] if a[0] != "scope"), cc[3]] for cc in c[3] if cc[0] == "el"]
            if any(has_content(cc) for cc in cells):
                rows.append(["el", "tr", (), cells])
        elif c[0] == "el":
            table_rows(c, rows)
    return rows


def transform(node, style):
    if node[0] == "text":
        return [node]
    kids = []
    for c in node[3]:
        kids.extend(transform(c, style))
    tag, attrs = node[1], node[2]
    attrs = tuple(sorted((k, norm_url(v) if k in ("href", "src") else v) for k, v in attrs))
    if style:
        attrs = tuple((k, " ".join(v.split()) if k in ("alt", "title") else v) for k, v in attrs)
        if tag == "del":
            tag = "s"
    merged = []  # adjacent identical inline siblings and adjacent texts
    for k in kids:
        if (merged and k[0] == "el" and merged[-1][0] == "el" and k[1] in INLINE_FMT
                and merged[-1][1] == k[1] and merged[-1][2] == k[2]):
            merged[-1] = ["el", k[1], k[2], merged[-1][3] + k[3]]
        elif merged and k[0] == "text" and merged[-1][0] == "text" and merged[-1][2] == k[2]:
            merged[-1] = ["text", merged[-1][1] + k[1], k[2], None]
        else:
            merged.append(k)
    kids = merged
    node = [node[0], tag, attrs, kids]
    if node[0] != "el":
        return [node]
    # canonical nesting: a formatting element wrapping exactly one other element
    if tag in ("strong", "em", "s") and len(kids) == 1 and kids[0][0] == "el" and kids[0][1] in ("a", "strong", "em", "s"):
        inner = kids[0]
        order = ["a", "s", "em", "strong"]
        if order.index(inner[1]) < order.index(tag):
            return [[inner[0], inner[1], inner[2], [["el", tag, attrs, inner[3]]]]]
    if style:
        if tag == "code" and not text_of(node).strip() and not any(c[0] == "el" for c in kids):
            return [["text", " ", False, None]] if text_of(node) else []
        if tag in ("a", "strong", "em", "s", "span", "p") and not has_content(node):
            return []
        if tag == "pre" and not text_of(node).strip():
            return []
        if tag == "table":
            rows = table_rows(node, [])
            return [["el", "table", attrs, rows]] if rows else []
        if tag == "li":
            out = []
            for c in kids:
                if c[0] == "el" and c[1] == "p":
                    out.extend(c[3] + [["text", " ", False, None]])
                else:
                    out.append(c)
            node[3] = out
    return [node]


def strip_block_ws(toks):
    """Drop white space at block boundaries (outside <pre>)."""
    out = []
    for i, t in enumerate(toks):
        if t[0] == "text" and not t[2]:
            s = t[1]
            prev = toks[i - 1] if i > 0 else None
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if prev is None or (prev[0] in ("start", "end") and prev[1] in BLOCK):
                s = s.lstrip(" ")
            if nxt is None or (nxt[0] in ("start", "end") and nxt[1] in BLOCK):
                s = s.rstrip(" ")
            if not s:
                continue
            out.append(("text", s, False))
        else:
            out.append(t)
    return out


def normalise(rendered, style):
    toks = tokens(rendered)
    if style:
        toks = [("text", t[1].rstrip(" \n").strip("\n") + "\n", True) if t[0] == "text" and t[2] else t for t in toks]
        toks = [("text", re.sub(r" *\n *", " ", t[1]), t[2]) if t[0] == "text" and not t[2] else t for t in toks]
    toks = strip_block_ws(toks)
    for _ in range(2):
        kids = []
        for c in tree(toks)[3]:
            kids.extend(transform(c, style))
        toks = []
        for c in kids:
            flat(c, toks)
        toks = strip_block_ws(toks)
    if style:
        out = []
        for i, t in enumerate(toks):
            if t[0] == "text" and not t[2]:
                s = t[1]
                if i > 0 and toks[i - 1][1] == "br":
                    s = s.lstrip(" ")
                if i + 1 < len(toks) and toks[i + 1][1] == "br":
                    s = s.rstrip(" ")
                s = re.sub(r"  +", " ", s)
                if not s:
                    continue
                t = ("text", s, False)
            out.append(t)
        toks = strip_block_ws(out)
    return toks


def show(toks):
    out = []
    for t in toks:
        if t[0] == "start":
            out.append(f"<{t[1]}{''.join(f' {k}={v!r}' for k, v in t[2])}>")
        elif t[0] == "end":
            out.append(f"</{t[1]}>")
        else:
            out.append(repr(t[1]))
    return out


class Visible(HTMLParser):
    """The page's own text outside code and script."""
    HIDDEN = ("script", "style", "code", "pre", "kbd", "samp", "tt", "var")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.out = []

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in self.HIDDEN:
            self.skip = max(0, self.skip - 1)

    def handle_data(self, data):
        if not self.skip:
            self.out.append(data)


def delimiter_count(text):
    return sum(text.count(c) for c in "*_~")


def leaked(input_html, rendered):
    """Emphasis delimiters shown as text (outside code) beyond those in the page text."""
    v = Visible()
    v.feed(input_html)
    shown = []
    depth = 0
    for t in tokens(rendered):
        if t[0] == "start" and t[1] in ("code", "pre"):
            depth += 1
        elif t[0] == "end" and t[1] in ("code", "pre"):
            depth -= 1
        elif t[0] == "text" and depth == 0:
            shown.append(t[1])
    return delimiter_count("".join(shown)) > delimiter_count("".join(v.out))


class PageText(HTMLParser):
    """The page's text, script and style left out."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.out = []

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ("script", "style")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)

    def handle_data(self, data):
        if not self.skip:
            self.out.append(data)


SCRIPTISH = re.compile(r"<script|<style|javascript:", re.IGNORECASE)


def raw_leak(input_html, our_md, rendered):
    """Raw HTML, javascript:/vbscript: URLs, or `<script`/`<style`/`javascript:` text in ours beyond
    what the page's own text says (`&lt;script` in the page is text to keep)."""
    probs = []
    for t in tokens(rendered):
        if t[0] == "start" and t[1] not in MD_TAGS:
            probs.append(f"raw <{t[1]}>")
        if t[0] == "start":
            for k, v in t[2]:
                if k in ("href", "src") and v.strip().lower().startswith(("javascript:", "vbscript:")):
                    probs.append(f"{k}={v}")
    page = PageText()
    page.feed(input_html)
    if len(SCRIPTISH.findall(our_md)) > len(SCRIPTISH.findall("".join(page.out))):
        probs.append("script/style/javascript: text")
    return probs


def split_top_hr(toks):
    segs = [[]]
    depth = 0
    for t in toks:
        if t[0] == "start" and t[1] == "hr" and depth == 0:
            segs.append([])
            continue
        if t[0] == "start" and t[1] not in VOID:
            depth += 1
        elif t[0] == "end":
            depth -= 1
        segs[-1].append(t)
    return segs


def top_blocks(toks):
    out = []
    depth = 0
    for t in toks:
        if depth == 0:
            out.append([])
        out[-1].append(t)
        if t[0] == "start" and t[1] not in VOID:
            depth += 1
        elif t[0] == "end":
            depth -= 1
    return out


# ---------------------------------------------------------------- conversion

class Converter:
    def __init__(self, bin_path, prune):
        self.bin, self.prune, self.cache = bin_path, prune, {}

    def __call__(self, html_in):
        if html_in not in self.cache:
            args = [self.bin, "--no-front-matter"] + ([] if self.prune else ["--no-prune"])
            r = subprocess.run(args, input=html_in.encode(), capture_output=True, timeout=60, check=False)
            if r.returncode != 0:
                sys.exit(f"conformance: {self.bin} exited {r.returncode}: {r.stderr.decode(errors='replace')[:500]}")
            self.cache[html_in] = r.stdout.decode("utf-8", "replace")
        return self.cache[html_in]


def compare(case, ours):
    """Fill in a case's verdicts: `expected` Markdown against our Markdown."""
    e_html, o_html = MD.render(case["expected"]), MD.render(ours)
    es, os_ = normalise(e_html, False), normalise(o_html, False)
    strict = es == os_
    case.update(our_md=ours, strict=strict, style=strict or normalise(e_html, True) == normalise(o_html, True),
                exp_toks=show(es), our_toks=show(os_), leak=leaked(case["input"], o_html),
                raw=raw_leak(case["input"], ours, o_html))
    return case


# ---------------------------------------------------------------- suites

def page_cases(path, suite, gfm_tildes=False):
    """turndown-style test page: div.case with div.input and pre.expected."""
    src = path.read_text()
    cases = []
    seen = {}
    for m in re.finditer(r'<div class="case" data-name="([^"]*)"(?: data-options=\'([^\']*)\')?>', src):
        start = m.end()
        end = src.find('<div class="case"', start)
        body = src[start:end if end >= 0 else len(src)]
        i0 = body.index('<div class="input">') + len('<div class="input">')
        pe = body.index('<pre class="expected">')
        inp = body[i0:body.rindex("</div>", 0, pe)]
        exp_raw = body[pe + len('<pre class="expected">'):body.index("</pre>", pe)]
        exp = html.unescape(re.sub(r"<!--.*?-->", "", exp_raw, flags=re.DOTALL))
        if gfm_tildes:
            # GFM reads ~one~ tilde as strikethrough; markdown-it needs ~~two~~: compare as GFM means it
            exp = re.sub(r"(?<![~\\])~(?!~)([^~\n]+?)(?<!~)~(?!~)", r"~~\1~~", exp)
        name = m.group(1)
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name = f"{name} #{seen[name]}"
        cases.append({"id": f"{suite}/{name}", "suite": suite, "options": m.group(2) or "",
                      "input": inp, "expected": exp})
    return cases


def run_pages(conv, specs):
    return [compare(c, conv(c["input"])) for path, suite, tildes in specs for c in page_cases(path, suite, tildes)]


def run_turndown(conv):
    d = SUITES / "turndown"
    return run_pages(conv, [(d / "index.html", "turndown", False), (d / "newer-cases.html", "turndown+", False)])


def run_gfm(conv):
    d = SUITES / "gfm"
    return run_pages(conv, [(d / "index.html", "gfm", True), (d / "older-variants.html", "gfm-old", True)])


H2M_SECTION = re.compile(r"\n\s*<hr ?/?>\s*\n")


def run_h2m(conv, extra):
    """Each golden file is converted whole; both rendered documents are split at top-level <hr>
    and each section is a case. Blocks are also aligned (difflib) for the "h2m blocks" figure,
    and every paragraph of the input is converted on its own for the leak check."""
    d = SUITES / "h2m"
    results = []
    blocks = {False: [0, 0, 0], True: [0, 0, 0]}
    unmatched = []
    para_leaks = []
    for name in sorted(p.name[: -len(".in.html")] for p in d.glob("*.in.html")):
        src = (d / f"{name}.in.html").read_text()
        exp = (d / f"{name}.out.md").read_text()
        ours = conv(src)
        e_html, o_html = MD.render(exp), MD.render(ours)
        in_secs = H2M_SECTION.split(src)
        for sec in in_secs:
            for para in re.split(r"\n\s*\n", sec):
                o = conv(para)
                if leaked(para, MD.render(o)):
                    para_leaks.append(f"h2m/{name}: {para.strip()[:120]!r} -> {o.strip()[:120]!r}")
        norm = {style: (normalise(e_html, style), normalise(o_html, style)) for style in (False, True)}
        es, os_ = (split_top_hr(t) for t in norm[False])
        es2, os2 = (split_top_hr(t) for t in norm[True])
        if len(os_) != len(es):
            print(f"note: h2m/{name}: expected {len(es)} sections, ours {len(os_)}", file=sys.stderr)
        for style in (False, True):
            eb, ob = (top_blocks(t) for t in norm[style])
            sm = difflib.SequenceMatcher(a=[repr(b) for b in eb], b=[repr(b) for b in ob], autojunk=False)
            ops = sm.get_opcodes()
            ok = {i for tag, i1, i2, _, _ in ops if tag == "equal" for i in range(i1, i2)}
            blocks[style][0] += len(eb)
            blocks[style][1] += len(ok)
            blocks[style][2] += sum(j2 - j1 for tag, i1, i2, j1, j2 in ops
                                    if tag in ("insert", "replace") and (j2 - j1) > (i2 - i1))
            if not style:
                unmatched += [(name, show(b)) for i, b in enumerate(eb) if i not in ok]
        raw = raw_leak(src, ours, o_html)
        for i, seg in enumerate(es):
            ok_s = i < len(os_) and seg == os_[i]
            ok_y = i < len(os2) and i < len(es2) and es2[i] == os2[i]
            results.append({"id": f"h2m/{name}/{i + 1:02d}", "suite": "h2m", "options": "",
                            "input": in_secs[i] if i < len(in_secs) else "?", "expected": "", "our_md": "",
                            "strict": ok_s, "style": ok_s or ok_y, "leak": False, "raw": raw if i == 0 else [],
                            "exp_toks": show(seg), "our_toks": show(os_[i]) if i < len(os_) else []})
    # paragraph leaks are charged to the suite as a whole (they have no section id)
    extra["h2m_blocks"] = blocks
    extra["h2m_unmatched"] = unmatched
    extra["h2m_para_leaks"] = para_leaks
    return results


# markdownify options that change nothing once the Markdown is rendered to HTML
MDF_NEUTRAL = {"heading_style", "strong_em_symbol", "bullets", "newline_style", "wrap", "wrap_width",
               "strip_document", "escape_misc", "autolinks"}


def mdf_neutral(html_in, opts):
    for k, v in opts.items():
        if k in MDF_NEUTRAL:
            continue
        if k in ("sub_symbol", "sup_symbol") and ("<pre" in html_in or "<code" in html_in):
            continue  # the symbols are not used inside code
        if k == "strip" and v == []:
            continue
        if k == "convert" and v == ["a"] and re.fullmatch(r"<a [^>]*>[^<]*</a>", html_in):
            continue
        return False
    return True


class Rec:
    """What md(html, **opts) returns while the test files run: `== expected` records a case."""

    def __init__(self, sink, html_in, opts):
        self.sink, self.html, self.opts = sink, html_in, opts

    def __eq__(self, other):
        if isinstance(other, Rec):  # md(a) == md(b): ours(a) against ours(b)
            self.sink.append({"input": self.html, "opts": self.opts, "expected": None, "same_as": other.html})
        else:
            self.sink.append({"input": self.html, "opts": self.opts, "expected": other})
        return True

    __hash__ = None


def markdownify_cases():
    """Run python-markdownify's test files against a fake `markdownify` module that records calls."""
    cases = []
    sink = []

    def md(html_in, **opts):
        return Rec(sink, html_in, {k: (v.__name__ if callable(v) else v) for k, v in opts.items()})

    fake = types.ModuleType("markdownify")
    for name in ("ATX", "ATX_CLOSED", "BACKSLASH", "SPACES", "UNDERSCORE", "LSTRIP", "RSTRIP", "STRIP", "STRIP_ONE"):
        setattr(fake, name, name.lower())
    fake.markdownify = md
    fake.MarkdownConverter = None
    bs4 = types.ModuleType("bs4")
    bs4.MarkupResemblesLocatorWarning = Warning
    saved = {k: sys.modules.get(k) for k in ("markdownify", "bs4")}
    sys.modules.update(markdownify=fake, bs4=bs4)
    try:
        for f in sorted((SUITES / "markdownify").glob("test_*.py")):
            g = {"md": md, "__name__": f.stem}
            exec(compile(f.read_text().replace("from .utils import md", ""), str(f), "exec"), g)  # noqa: S102
            g["md"] = md
            for name, fn in list(g.items()):
                if not (name.startswith("test_") and callable(fn)):
                    continue
                sink.clear()
                try:
                    fn()
                except Exception as e:  # noqa: BLE001 - a test the recorder cannot follow
                    print(f"note: markdownify {f.stem}.{name}: {e!r}", file=sys.stderr)
                for i, c in enumerate(sink):
                    default = not c["opts"] or mdf_neutral(c["input"], c["opts"])
                    c.update(id=f"markdownify/{f.stem[5:]}.{name[5:]}#{i + 1}",
                             suite="markdownify" if default else "markdownify-options",
                             options=json.dumps(c["opts"]) if c["opts"] else "")
                    cases.append(c)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return cases


def run_markdownify(conv):
    out = []
    for c in markdownify_cases():
        if c["expected"] is None:
            c["expected"] = conv(c.pop("same_as"))
        out.append(compare(c, conv(c["input"])))
    return out


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# Spec sections whose HTML is raw HTML passed through (md-convert never writes raw HTML).
COMMONMARK_RAW = {"HTML blocks", "Raw HTML"}


def commonmark_cases():
    """The CommonMark spec's examples backwards: the example's HTML in, its Markdown as the
    reference (read as commonmark-spec's index.js reads them)."""
    spec = (SUITES / "commonmark/spec.txt").read_text(encoding="utf-8").replace("\r\n", "\n")
    spec = re.sub(r"^<!-- END TESTS -->(.|\n)*", "", spec, flags=re.M)
    cases, section, number = [], "", 0
    pattern = r"^`{32} example\n([\s\S]*?)^\.\n([\s\S]*?)^`{32}$|^#{1,6} *(.*)$"
    for m in re.finditer(pattern, spec, flags=re.M):
        if m.group(3) is not None:
            section = m.group(3)
            continue
        number += 1
        if section in COMMONMARK_RAW:
            continue
        cases.append({"id": f"commonmark/{number:03d} {section}", "suite": "commonmark", "options": "",
                      "input": m.group(2).replace("\u2192", "\t"),
                      "expected": m.group(1).replace("\u2192", "\t")})
    return cases


def run_commonmark(conv):
    return [compare(c, conv(c["input"])) for c in commonmark_cases()]


def run_tuple_cases(conv, path, suite, option_suite=None):
    """(name, html, expected, option) tuples in a CASES list; with option_suite, the cases that
    set an option go to that suite (ids keep the source's prefix)."""
    out = []
    for name, html_in, exp, opt in load_module(path, f"conformance_{suite}").CASES:
        out.append(compare({"id": f"{suite}/{name}", "suite": option_suite if opt and option_suite else suite,
                            "options": opt, "input": html_in, "expected": exp}, conv(html_in)))
    return out


def run_html2text(conv, d):
    out = []
    for p in sorted(d.glob("*.html")):
        md = p.with_suffix(".md")
        if md.exists():
            out.append(compare({"id": f"html2text/{p.stem}", "suite": "html2text", "options": "",
                                "input": p.read_text(), "expected": md.read_text()}, conv(p.read_text())))
    return out


# ---------------------------------------------------------------- report and gate

def category(case, notes):
    cat = notes.get(case["id"], {}).get("cat")
    if cat:
        return cat
    if case["suite"] in ("markdownify-options", "nhm-options"):
        return "option"
    return "style" if case["style"] else "unclassified"


def print_case(c, notes):
    n = notes.get(c["id"], {})
    print("=" * 100)
    print(c["id"], "| options:", c["options"] or "-", "| strict:", c["strict"], "+style:", c["style"],
          "| note:", n.get("cat", "-"), n.get("why", ""))
    print("--- input:\n" + c["input"].strip()[:1500])
    if c["expected"]:
        print("--- expected md:\n" + c["expected"])
        print("--- our md:\n" + c["our_md"])
    for line in difflib.unified_diff(c["exp_toks"], c["our_toks"], "expected", "ours", n=2, lineterm=""):
        print(line)


def summarise(results, suites):
    summary = {}
    for s in suites:
        rs = [r for r in results if r["suite"] == s]
        if rs:
            summary[s] = {"cases": len(rs), "strict": sum(r["strict"] for r in rs),
                          "style": sum(r["style"] for r in rs), "leak": sum(bool(r["leak"]) for r in rs),
                          "raw": sum(bool(r["raw"]) for r in rs),
                          "passing": sorted(r["id"] for r in rs if r["strict"])}
    return summary


def gate(summary, baseline, mins):
    """Exit status 1 when a suite falls below its baseline (or a --min-strict); lists new failures."""
    bad = []
    for s, cur in summary.items():
        base = baseline.get(s)
        if base:
            if cur["cases"] != base["cases"]:
                print(f"check: {s}: {cur['cases']} cases, baseline has {base['cases']} (suite data changed?)")
            newly = sorted(set(base["passing"]) - set(cur["passing"]))
            fixed = sorted(set(cur["passing"]) - set(base["passing"]))
            if cur["strict"] < base["strict"]:
                bad.append(f"{s}: strict {cur['strict']} < baseline {base['strict']}")
            for k in ("leak", "raw"):
                if cur[k] > base.get(k, 0):
                    bad.append(f"{s}: {k} {cur[k]} > baseline {base.get(k, 0)}")
            for i in newly:
                print(f"check: {s}: newly failing (strict): {i}")
            for i in fixed:
                print(f"check: {s}: newly passing (strict): {i}  (update the baseline: --write-baseline)")
        if s in mins and cur["strict"] < mins[s]:
            bad.append(f"{s}: strict {cur['strict']} < --min-strict {mins[s]}")
    for s in set(mins) - set(summary):
        bad.append(f"{s}: --min-strict given but the suite did not run")
    for b in bad:
        print("check FAILED:", b)
    if not bad:
        print("check: ok (" + ", ".join(f"{s} {v['strict']}/{v['cases']}" for s, v in summary.items()) + ")")
    return not bad


def default_bin():
    target = os.environ.get("CARGO_TARGET_DIR")
    return str(Path(target) / "release/md-convert") if target else str(ROOT / "target/release/md-convert")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=default_bin(),
                    help="md-convert to test (default: $CARGO_TARGET_DIR or target/, release/md-convert)")
    ap.add_argument("--suite", action="append", default=[], metavar="NAME",
                    help=f"run only these suites (repeatable): {', '.join(SUITE_SOURCE)}")
    ap.add_argument("--prune", action="store_true", help="convert with main-content pruning (default --no-prune)")
    ap.add_argument("--diffs", action="store_true", help="print every strict failure with its note")
    ap.add_argument("--show", default=None, metavar="ID", help="print the cases whose id contains ID")
    ap.add_argument("--json", default=None, metavar="OUT", help="write per-case results to OUT")
    ap.add_argument("--check", action="store_true", help=f"gate on {BASELINE.relative_to(ROOT)}")
    ap.add_argument("--min-strict", action="append", default=[], metavar="NAME=N",
                    help="exit 1 if suite NAME has fewer than N strict passes (repeatable)")
    ap.add_argument("--write-baseline", action="store_true", help="record this run as the baseline")
    ap.add_argument("--external", default=None, metavar="DIR",
                    help="also run suites not vendored for licence reasons: DIR/html2text/, DIR/html2md_cases.py")
    a = ap.parse_args()

    unknown = [s for s in a.suite if s not in SUITE_SOURCE]
    if unknown:
        ap.error(f"unknown suite {', '.join(unknown)}; known: {', '.join(SUITE_SOURCE)}")
    mins = {}
    for m in a.min_strict:
        name, _, n = m.partition("=")
        if name not in SUITE_SOURCE or not n.isdigit():
            ap.error(f"--min-strict wants NAME=N with a known suite, got {m!r}")
        mins[name] = int(n)
    if a.prune and (a.check or mins or a.write_baseline):
        ap.error("the baseline is for --no-prune conversions: --prune only reports")
    if not Path(a.bin).is_file():
        sys.exit(f"conformance: no md-convert at {a.bin} (cargo build --release -p md-convert, or --bin PATH)")
    ext = Path(a.external) if a.external else None
    wanted = a.suite or [s for s in SUITE_SOURCE if s not in EXTERNAL or ext]
    sources = {SUITE_SOURCE[s] for s in wanted}
    if sources & EXTERNAL and not ext:
        ap.error("html2text and html2md are not vendored (licences): give --external DIR")

    notes = json.loads(NOTES.read_text())
    conv = Converter(a.bin, a.prune)
    extra = {}
    results = []
    if "turndown" in sources:
        results += run_turndown(conv)
    if "h2m" in sources:
        results += run_h2m(conv, extra)
    if "markdownify" in sources:
        results += run_markdownify(conv)
    if "gfm" in sources:
        results += run_gfm(conv)
    if "htmd" in sources:
        results += run_tuple_cases(conv, SUITES / "htmd/cases.py", "htmd")
    if "nhm" in sources:
        results += run_tuple_cases(conv, SUITES / "nhm/cases.py", "nhm", "nhm-options")
    if "commonmark" in sources:
        results += run_commonmark(conv)
    if "html2text" in sources:
        results += run_html2text(conv, ext / "html2text")
    if "html2md" in sources:
        results += run_tuple_cases(conv, ext / "html2md_cases.py", "html2md")
    results = [r for r in results if r["suite"] in wanted]

    for r in results:
        if (a.show and a.show in r["id"]) or (a.diffs and not r["strict"]):
            print_case(r, notes)

    summary = summarise(results, [s for s in SUITE_SOURCE if s in wanted])
    if "h2m" in summary:  # h2m's leak check is per input paragraph, not per section
        summary["h2m"]["leak"] = len(extra["h2m_para_leaks"])
    print(f"\n{'suite':20} {'cases':>5} {'strict':>12} {'+style':>12} {'leak':>5} {'raw':>4}")
    for s, v in summary.items():
        n = v["cases"]
        print(f"{s:20} {n:5} {v['strict']:5} {100 * v['strict'] / n:5.1f}% {v['style']:5} {100 * v['style'] / n:5.1f}%"
              f" {v['leak']:5} {v['raw']:4}")
    for s in ("htmd", "html2md"):
        rs = [r for r in results if r["suite"] == s]
        groups = {}
        for r in rs:
            groups.setdefault(r["options"] or "default", []).append(r)
        if len(groups) > 1:
            print(f"  {s} by option: " + ", ".join(f"{k} {sum(r['strict'] for r in g)}/{len(g)}"
                                                  for k, g in sorted(groups.items(), key=lambda kv: -len(kv[1]))))
    if "h2m_blocks" in extra:
        for style in (False, True):
            tb, okb, more = extra["h2m_blocks"][style]
            print(f"h2m blocks{' +style' if style else ''}: {okb}/{tb} reference blocks matched "
                  f"({100 * okb / tb:.1f}%), {more} extra blocks in ours")
        if a.diffs:
            for name, b in extra["h2m_unmatched"]:
                print("  unmatched block:", name, " ".join(b)[:300])
        print(f"h2m paragraphs converted alone that show literal delimiters: {len(extra['h2m_para_leaks'])}")
        for line in extra["h2m_para_leaks"]:
            print("  ", line)

    leaks = [r["id"] for r in results if r["leak"]]
    raws = [(r["id"], r["raw"]) for r in results if r["raw"]]
    print(f"\nliteral emphasis delimiters shown in ours beyond the page's own: {len(leaks)} {leaks}")
    print(f"raw HTML / script / javascript: in ours: {len(raws)} {raws}")

    print("\nstrict failures by category (conformance/notes.json):")
    for s in summary:
        cats = {}
        for r in results:
            if r["suite"] == s and not r["strict"]:
                cats.setdefault(category(r, notes), []).append(r["id"])
        if cats:
            print(f"  {s}: " + ", ".join(f"{len(v)} {k}" for k, v in sorted(cats.items(), key=lambda kv: -len(kv[1]))))
            for i in cats.get("unclassified", []):
                print(f"      unclassified: {i}")

    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=1, ensure_ascii=False, default=str))
    ok = True
    if a.write_baseline:
        base = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}  # keeps suites not run
        base.update((s, v) for s, v in summary.items() if s not in EXTERNAL)
        BASELINE.write_text(json.dumps(base, indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {BASELINE.relative_to(ROOT)}")
    elif a.check or mins:
        baseline = json.loads(BASELINE.read_text()) if a.check else {}
        ok = gate(summary, baseline, mins)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
