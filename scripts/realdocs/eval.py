#!/usr/bin/env python3
"""Faithfulness eval of md-convert on real generated documentation pages.

Usage (`make realdocs` runs setup.sh, then this with the venv it makes):
  .run/realdocs/venv/bin/python scripts/realdocs/eval.py              # all pages, summary
  .run/realdocs/venv/bin/python scripts/realdocs/eval.py -g doxygen   # one generator
  .run/realdocs/venv/bin/python scripts/realdocs/eval.py -p sdl-audiospec -v   # one page, its losses
  options: --bin PATH (default target/release/md-convert), --no-prune, --json FILE;
  REALDOCS_DIR: where setup.sh unpacked the pages (default .run/realdocs)

pages.tsv columns (tab separated, '#' comments):
  generator  page_id  path (relative to REALDOCS_DIR)  base_url  main_selector  drop_selectors  toc_selectors
  main_selector: CSS selector of the main content (first match; ',' alternatives allowed)
  drop_selectors: CSS selectors removed from the reference entirely ('-' = none)
  toc_selectors: tables of contents; removed from the reference like drop_selectors ('-' = none)
  code_selectors: (optional) non-<pre> elements the generator uses as code blocks, e.g. div.fragment;
                  their lines are the texts of their .line children

Reference = main element minus script/style/noscript/template, hidden elements
([hidden], aria-hidden=true, inline display:none / visibility:hidden), buttons and
form controls, and drop_selectors.
Candidate = md-convert --base-url URL page.html (default options), front matter
stripped, rendered with markdown-it-py commonmark+table+strikethrough.
Metrics (multisets): headings, links (resolved; in-page '#', permalinks, TOC and
javascript: excluded), code (lines of <pre> blocks, plus block counts), table cells,
words (whitespace split). Retention = |ref ∩ cand| / |ref|.
"""
import argparse, collections, json, os, re, subprocess, sys, warnings
from urllib.parse import urljoin, urldefrag, unquote

from bs4 import BeautifulSoup, NavigableString, Comment, XMLParsedAsHTMLWarning
from markdown_it import MarkdownIt

warnings.filterwarnings("ignore", category=XMLParsedAsHTMLWarning)
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# Where setup.sh unpacked the pages (paths in pages.tsv are relative to it).
WORK = os.environ.get("REALDOCS_DIR", os.path.join(ROOT, ".run", "realdocs"))

BLOCK = set("""address article aside blockquote body br caption center dd details dialog dir div dl dt
fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr html legend li main menu nav ol p pre
section summary table tbody td tfoot th thead tr ul img""".split())
INVISIBLE_CHARS = dict.fromkeys(map(ord, "\u200b\u00ad\ufeff\u200c\u200d\u2060"), None)
PERMALINK_TEXT = {"◆", "¶", "#", "§", "🔗", "", "link", "permalink"}


def norm(s):
    return " ".join(s.translate(INVISIBLE_CHARS).split())


def is_hidden(el):
    if el.has_attr("hidden"):
        return True
    if (el.get("aria-hidden") or "").strip().lower() == "true":
        return True
    st = (el.get("style") or "").replace(" ", "").lower()
    if "display:none" in st or "visibility:hidden" in st:
        return True
    if el.name == "input" and (el.get("type") or "").lower() == "hidden":
        return True
    return False


def clean(root, drop):
    for sel in drop:
        for el in root.select(sel):
            el.decompose()
    for el in root.select("div.ttc, span.lineno"):  # hidden Doxygen tooltips (CSS), line numbers
        el.decompose()
    for el in root.select("a.headerlink, a.selflink"):  # Sphinx / Haddock permalink marks
        el.decompose()
    for el in root.select("span.classifier"):  # docutils HTML5: the ' : ' is CSS (:before)
        prev = el.find_previous_sibling()
        if prev is None or "classifier-delimiter" not in prev.get("class", []):
            el.insert_before(" : ")
    # Badges (TypeDoc's code.tsd-tag, JSDoc's span.signature-attributes, Bootstrap's .badge)
    # are boxes of their own on the page, glued to the name beside them only in the markup.
    for el in root.find_all(class_=lambda c: c in ("badge", "tsd-tag", "signature-attributes")
                            or (c or "").endswith("-badge")):
        before, after = el.previous_sibling, el.next_sibling
        if before is not None and before.get_text()[-1:].isalnum():
            el.insert_before(" ")
        if after is not None and after.get_text()[:1].isalnum():
            el.insert_after(" ")
    for el in root.find_all(["script", "style", "noscript", "template", "button", "input",
                             "select", "textarea", "option", "svg", "math"]):
        el.decompose()
    for el in list(root.find_all(True)):
        if el.decomposed if hasattr(el, "decomposed") else False:
            continue
        try:
            if is_hidden(el):
                el.decompose()
        except Exception:
            pass
    for c in root.find_all(string=lambda s: isinstance(s, Comment)):
        c.extract()


def text_of(el):
    """Visible text with spaces at block boundaries (so <p>a</p><p>b</p> gives 'a b')."""
    out = []

    def rec(n):
        for c in n.children:
            if isinstance(c, Comment):
                continue
            if isinstance(c, NavigableString):
                out.append(str(c))
            elif c.name in BLOCK:
                out.append(" ")
                rec(c)
                out.append(" ")
            else:
                rec(c)
    if isinstance(el, NavigableString):
        return str(el)
    rec(el)
    return "".join(out)


def heading_text(h):
    t = norm(text_of(h))
    return t.strip("◆ ").rstrip("¶§#🔗 ").strip()


def is_permalink(a):
    t = norm(a.get_text())
    cls = " ".join(a.get("class", [])).lower()
    if "headerlink" in cls or "anchor" in cls or "permalink" in cls:
        return True
    if t in PERMALINK_TEXT and not a.find("img"):
        return True
    return False


def norm_url(u):
    from urllib.parse import urlsplit, urlunsplit
    p = urlsplit(unquote(u.strip()))
    if p.scheme in ("http", "https") and p.path == "":
        p = p._replace(path="/")
    p = p._replace(scheme=p.scheme.lower(), netloc=p.netloc.lower())  # CRAN.R-project.org
    return urlunsplit(p)


def extract(root, base, toc=(), code_sel=()):
    res = {}
    res["headings"] = [heading_text(h) for h in root.find_all(["h1", "h2", "h3", "h4", "h5", "h6"])]
    res["headings"] = [h for h in res["headings"] if h]
    toc_links = set()
    for sel in toc:
        for el in root.select(sel):
            for a in el.find_all("a"):
                toc_links.add(id(a))
    links, pre_links = [], []
    base_nofrag = urldefrag(base)[0]
    for a in root.find_all("a", href=True):
        if id(a) in toc_links:
            continue
        href = a["href"].strip()
        if not href or href.startswith("#") or href.lower().startswith(("javascript:", "file:")):
            continue
        if is_permalink(a):
            continue
        if a.find_parent("pre") is not None or a.find_parent("div", class_="fragment") is not None:
            pre_links.append(href)
            continue
        u = urljoin(base, href)
        if urldefrag(u)[0] == base_nofrag:
            continue
        links.append(norm_url(u))
    res["links"] = links
    res["pre_links"] = pre_links
    code_lines, blocks = [], []
    for pre in root.find_all("pre"):
        if pre.find_parent("pre") is not None:  # mdBook's <pre><pre class=playground>: one block
            continue
        t = pre.get_text()
        lines = [l.rstrip() for l in t.split("\n")]
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        blocks.append("\n".join(lines))
        code_lines += [norm(l) for l in lines if l.strip()]
    # generator-specific code blocks that are not <pre> (e.g. Doxygen div.fragment > div.line)
    for sel in code_sel:
        for el in root.select(sel):
            if el.find_parent("pre") is not None or el.find("pre") is not None:
                continue
            lines = el.select(".line") or [el]
            ls = [norm(l.get_text()) for l in lines]
            ls = [l for l in ls if l]
            blocks.append("\n".join(ls))
            code_lines += ls
    res["code"] = code_lines
    res["code_blocks"] = blocks
    # AsciiDoc's admonition blocks are a table of icon | content: a box, not data (the
    # converter writes them as quotes; their words still count).
    res["cells"] = [norm(text_of(c)) for c in root.find_all(["td", "th"])
                    if c.find_parent(class_="admonitionblock") is None]
    res["cells"] = [c for c in res["cells"] if c]
    res["words"] = norm(text_of(root)).split()
    return res


# A formula's delimiters: the page leaves `\(…\)`/`\[…\]` for MathJax, we write GitHub's
# `$…$`/`$$…$$`; markdown-it (no math plugin) then reads `\,` inside as an escaped comma.
TEX_DELIMS = re.compile(r"\\[()\[\]]|\$")
TEX_ESCAPE = re.compile(r"\\(?=[!-/:-@\[-`{-~])")


def math_words(words):
    """Words with formula delimiters and backslashes before punctuation taken out, on
    both sides, so that the same formula counts as the same words."""
    out = (TEX_ESCAPE.sub("", TEX_DELIMS.sub("", w)) for w in words)
    return [w for w in out if w]


def retention(ref, cand):
    r, c = collections.Counter(ref), collections.Counter(cand)
    tot = sum(r.values())
    if tot == 0:
        return None, [], []
    kept = sum(min(n, c[k]) for k, n in r.items())
    missing = list((r - c).elements())
    extra = list((c - r).elements())
    return kept / tot, missing, extra


FM = re.compile(r"\A---\n.*?\n(---|\.\.\.)\n", re.S)
MD = MarkdownIt("commonmark").enable("table").enable("strikethrough")
RAW_TAG = re.compile(r"</?(div|span|p|a|table|tr|td|th|pre|code|br|img|ul|ol|li|dl|dt|dd|h[1-6]|script|style|b|i|em|strong|tt|font|sup|sub|section|nav|details|summary)\b[^>]*>", re.I)


def leaks(md, cand_root, src_root_full, ref_words):
    out = {}
    # raw HTML in the markdown outside code (markdown-it would pass it through as HTML)
    tokens = MD.parse(md)
    raw = []
    for t in tokens:
        if t.type == "html_block":
            raw.append(t.content.strip()[:80])
        if t.children:
            for ch in t.children:
                if ch.type == "html_inline":
                    raw.append(ch.content[:80])
    out["raw_html"] = raw
    # tags visible as text in the rendered output, not present as text in the reference
    ref_text = " ".join(ref_words)
    txt = norm(text_of(cand_root))
    shown = [m.group(0) for m in RAW_TAG.finditer(txt) if m.group(0) not in ref_text]
    out["tags_as_text"] = shown
    # script/style text
    ss = []
    for el in src_root_full.find_all(["script", "style"]):
        t = norm(el.get_text())
        if len(t) >= 30 and t[:30] in txt:
            ss.append(t[:60])
    out["script_style_text"] = ss
    out["javascript_urls"] = re.findall(r"javascript:[^)\s]*", md, re.I)
    return out


def load_pages(path):
    pages = []
    for line in open(path, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        f += ["-"] * (8 - len(f))
        gen, pid, p, base, main, drop, toc, codesel = f[:8]
        sp = lambda s: [] if s.strip() in ("", "-") else [x.strip() for x in s.split(";") if x.strip()]
        pages.append(dict(gen=gen, id=pid, path=p, base=base, main=main, drop=sp(drop), toc=sp(toc), code=sp(codesel)))
    return pages


def decode_page(raw):
    """A page that names no charset and is valid UTF-8 as text (Go's doc pages are template
    fragments without a <meta>; go.dev serves them as UTF-8, and so reads md-convert, where
    html5lib would guess windows-1252); any other as bytes, for the parser to detect."""
    if re.search(rb"charset", raw[:2048], re.I):
        return raw
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


def run_page(pg, binary, outdir, extra_args=()):
    path = os.path.join(WORK, pg["path"])
    raw = decode_page(open(path, "rb").read())
    src = BeautifulSoup(raw, "html5lib")
    src_full = BeautifulSoup(raw, "html5lib")
    main = None
    for sel in pg["main"].split("|"):
        main = src.select_one(sel)
        if main is not None:
            break
    if main is None:
        raise SystemExit("%s: main selector %r matched nothing" % (pg["id"], pg["main"]))
    clean(main, pg["drop"] + pg["toc"])  # TOCs count for no metric
    ref = extract(main, pg["base"], pg["toc"], pg["code"])
    p = subprocess.run([binary, *extra_args, "--base-url", pg["base"], path], capture_output=True)
    if p.returncode != 0:
        raise SystemExit("%s: md-convert failed: %s" % (pg["id"], p.stderr.decode()[:500]))
    md_full = p.stdout.decode("utf-8", "replace")
    md = FM.sub("", md_full, count=1)
    html = MD.render(md)
    cand = BeautifulSoup("<div id=__root>" + html + "</div>", "html5lib").find(id="__root")
    out = extract(cand, pg["base"])
    os.makedirs(outdir, exist_ok=True)
    open(os.path.join(outdir, pg["id"] + ".md"), "w").write(md_full)
    res = {"gen": pg["gen"], "id": pg["id"], "metrics": {}, "detail": {}}
    ref["words"], out["words"] = math_words(ref["words"]), math_words(out["words"])
    for k in ("headings", "links", "code", "cells", "words"):
        r, miss, extra = retention(ref[k], out[k])
        res["metrics"][k] = dict(ret=r, n=len(ref[k]), out=len(out[k]), missing=len(miss), extra=len(extra))
        res["detail"][k] = dict(missing=miss, extra=extra)
    res["metrics"]["code_blocks"] = dict(ref=len(ref["code_blocks"]), out=len(out["code_blocks"]),
                                         exact=retention(ref["code_blocks"], out["code_blocks"])[0])
    res["leaks"] = leaks(md, cand, src_full, ref["words"])
    res["pre_links"] = len(ref["pre_links"])
    return res


def fmt(r):
    return "  -  " if r is None else ("%5.1f" % (100 * r))


def main_():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", default=os.path.join(HERE, "pages.tsv"))
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "md-convert"))
    ap.add_argument("--out", default=os.path.join(WORK, "out"))
    ap.add_argument("-g", "--gen")
    ap.add_argument("-p", "--page")
    ap.add_argument("-v", "--verbose", action="store_true", help="list missing/extra items")
    ap.add_argument("--json")
    ap.add_argument("--no-prune", action="store_true", help="convert with md-convert --no-prune (separates pruning losses from conversion losses)")
    a = ap.parse_args()
    pages = load_pages(a.pages)
    if a.gen:
        pages = [p for p in pages if p["gen"] == a.gen]
    if a.page:
        pages = [p for p in pages if p["id"] == a.page]
    results = []
    hdr = "%-10s %-22s %6s %6s %6s %6s %6s  %-9s %s" % ("generator", "page", "head", "links", "code", "cells", "words", "blocks", "leaks/extra-words/links-in-pre")
    print(hdr)
    print("-" * len(hdr))
    agg = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    for pg in pages:
        res = run_page(pg, a.bin, a.out + ("-noprune" if a.no_prune else ""), ["--no-prune"] if a.no_prune else [])
        results.append(res)
        m = res["metrics"]
        lk = res["leaks"]
        nleak = sum(len(v) for v in lk.values())
        print("%-10s %-22s %6s %6s %6s %6s %6s  %-9s leaks=%d xw=%d prelinks=%d" % (
            pg["gen"], pg["id"], fmt(m["headings"]["ret"]), fmt(m["links"]["ret"]), fmt(m["code"]["ret"]),
            fmt(m["cells"]["ret"]), fmt(m["words"]["ret"]),
            "%d/%d" % (m["code_blocks"]["out"], m["code_blocks"]["ref"]), nleak, m["words"]["extra"], res["pre_links"]))
        for k in ("headings", "links", "code", "cells", "words"):
            agg[pg["gen"]][k][0] += m[k]["n"] - m[k]["missing"]
            agg[pg["gen"]][k][1] += m[k]["n"]
        if a.verbose:
            for k in ("headings", "links", "code", "cells", "words"):
                d = res["detail"][k]
                if d["missing"]:
                    print("   missing %s (%d): %s" % (k, len(d["missing"]), json.dumps(d["missing"][:60], ensure_ascii=False)))
                if d["extra"] and k != "code":
                    print("   extra %s (%d): %s" % (k, len(d["extra"]), json.dumps(d["extra"][:40], ensure_ascii=False)))
            for k, v in lk.items():
                if v:
                    print("   leak %s: %s" % (k, json.dumps(v[:10], ensure_ascii=False)))
    print()
    print("per generator (pooled):")
    for g, d in agg.items():
        print("%-10s %-22s %6s %6s %6s %6s %6s" % (g, "ALL", *[fmt(d[k][0] / d[k][1] if d[k][1] else None) for k in ("headings", "links", "code", "cells", "words")]))
    if a.json:
        json.dump(results, open(a.json, "w"), ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main_()
