#!/usr/bin/env python3
"""Sanity checks for the HTML test corpus. Stdlib only; exits non-zero on failure.

    python3 corpus/tools/check_corpus.py

Checks: per-category page counts; UTF-8 validity (except deliberate cases);
legacy encodings decode with Python's codecs and contain their probe text;
news reader-mode references match the visible page text; doc pages carry at
least 4x more HTML than main-content text; large-page sizes; generators
reproduce the committed files; index.html and README.md cover every page.
"""
import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

sys.dont_write_bytecode = True  # keep corpus/tools free of __pycache__
sys.path.insert(0, str(Path(__file__).resolve().parent))
from textratio import main_text  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
MIB = 1024 * 1024

MIN_PAGES = {"blog": 4, "docs": 6, "news": 5, "tables": 3, "code": 3, "forms": 2,
             "malformed": 4, "encodings": 6, "edge": 6, "large": 4}
# Main-content element of each doc page, for the markup/content ratio.
DOC_MAIN = {
    "docs/sphinx-rtd-resample.html": "[itemprop=articleBody]",
    "docs/mkdocs-material-config.html": "article",
    "docs/rustdoc-ringbuffer.html": "#main-content",
    "docs/docusaurus-routing.html": "article",
    "docs/javadoc-lrucache.html": "main",
    "docs/manpage-logsift.html": ".manual-text",
    "docs/sphinx-furo-math.html": "article",
}
# News pages that must carry no semantic structure at all (text density only).
DENSITY_ONLY = ["news/harbor-dredging.html", "news/comet-early.html"]
SEMANTIC = re.compile(rb"<(article|main|section|header|footer|nav|aside|h[1-6])[\s>]", re.I)
NOT_UTF8 = {"malformed/garbage-bytes.html"}

failures = []


def fail(msg):
    failures.append(msg)
    print(f"FAIL {msg}")


def rel(p):
    return p.relative_to(ROOT).as_posix()


class Visible(HTMLParser):
    """Concatenated text outside script/style/template/noscript."""

    SKIP = {"script", "style", "template", "noscript"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.out = []

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.out.append(data)


def visible_text(html):
    p = Visible()
    p.feed(html)
    return " ".join("".join(p.out).split())


def main():
    pages = sorted(p for p in ROOT.rglob("*.html") if p.name != "index.html" or p.parent != ROOT)
    by_cat = {}
    for p in pages:
        by_cat.setdefault(p.relative_to(ROOT).parts[0], []).append(p)
    for cat, n in MIN_PAGES.items():
        have = len(by_cat.get(cat, []))
        (print if have >= n else fail)(f"{'ok  ' if have >= n else ''}{cat}: {have} pages (need {n})")
    print(f"total pages: {len(pages)}")

    manifest = json.loads((ROOT / "encodings" / "MANIFEST.json").read_text(encoding="utf-8"))
    legacy = {f"encodings/{e['file']}" for e in manifest if e["python_codec"] != "utf-8"}

    # UTF-8 validity of everything that is meant to be UTF-8.
    for p in sorted(ROOT.rglob("*")):
        if not p.is_file() or rel(p) in legacy or rel(p) in NOT_UTF8:
            continue
        try:
            p.read_bytes().decode("utf-8")
        except UnicodeDecodeError as e:
            fail(f"{rel(p)} is not valid UTF-8: {e}")
    garbage = (ROOT / "malformed" / "garbage-bytes.html").read_bytes()
    try:
        garbage.decode("utf-8")
        fail("malformed/garbage-bytes.html decodes as UTF-8")
    except UnicodeDecodeError:
        pass
    if b"\x00" not in garbage:
        fail("malformed/garbage-bytes.html has no NUL bytes")

    # Legacy encodings.
    for e in manifest:
        path = ROOT / "encodings" / e["file"]
        raw = path.read_bytes()
        bom = bytes.fromhex(e["bom"]) if e["bom"] else b""
        if not raw.startswith(bom):
            fail(f"{e['file']}: missing BOM {e['bom']}")
        text = raw[len(bom):].decode(e["python_codec"])
        if e["probe"] not in text or e["title"] not in text:
            fail(f"{e['file']}: probe/title missing after decoding with {e['python_codec']}")
        if not e["declared"].startswith("(") and e["declared"].lower().encode() not in raw.lower():
            fail(f"{e['file']}: declared charset {e['declared']} not found in the bytes")
        if e["python_codec"] != "utf-8" and not bom:
            try:
                raw.decode("utf-8")
                fail(f"{e['file']}: legacy page is accidentally valid UTF-8")
            except UnicodeDecodeError:
                pass
    late = (ROOT / "encodings" / "late-meta-charset.html").read_bytes()
    end = late.find(b"charset=windows-1250") + len(b'charset=windows-1250">')
    if not 1000 < end <= 1024:
        fail(f"late-meta-charset.html: meta ends at byte {end}, want 1000 < end <= 1024")
    print(f"ok   {len(manifest)} encoded pages decode; late meta ends at byte {end}")

    # News reader-mode references.
    for p in by_cat.get("news", []):
        ref = p.with_suffix("").with_suffix(".article.txt")
        if not ref.exists():
            fail(f"{rel(p)}: missing {ref.name}")
            continue
        text = visible_text(p.read_text(encoding="utf-8"))
        lines = [ln for ln in ref.read_text(encoding="utf-8").splitlines() if ln.strip()]
        missing = [ln for ln in lines if " ".join(ln.split()) not in text]
        for ln in missing:
            fail(f"{rel(p)}: reference line not in visible text: {ln[:60]!r}")
        share = sum(len(ln) for ln in lines) / max(len(text), 1)
        print(f"{'ok  ' if not missing else 'FAIL'} {rel(p)}: {len(lines)} reference lines, article is {share:.0%} of visible text")
    for name in DENSITY_ONLY:
        m = SEMANTIC.search((ROOT / name).read_bytes())
        if m:
            fail(f"{name}: has semantic tag {m.group(0)!r}")

    # Doc pages: HTML at least 4x the main-content text.
    for name, marker in DOC_MAIN.items():
        raw = (ROOT / name).read_bytes()
        n = len(main_text(raw.decode("utf-8"), marker).encode("utf-8"))
        ratio = len(raw) / max(n, 1)
        (print if ratio >= 4 and n > 1000 else fail)(f"{'ok  ' if ratio >= 4 else ''}{name}: html {len(raw)} B, content {n} B, ratio {ratio:.1f}")

    # Large pages.
    sizes = {"docs-1mb.html": (MIB, None), "docs-5mb.html": (5 * MIB, None),
             "bench-10kb.html": (9_000, 11_500), "bench-1200kb.html": (1_150_000, 1_260_000)}
    for name, (lo, hi) in sizes.items():
        size = (ROOT / "large" / name).stat().st_size
        good = size >= lo and (hi is None or size <= hi)
        (print if good else fail)(f"{'ok  ' if good else ''}large/{name}: {size:,} bytes")

    # Edge-case invariants.
    if (ROOT / "edge" / "empty.html").stat().st_size != 0:
        fail("edge/empty.html is not empty")
    if (ROOT / "edge" / "whitespace-only.html").read_bytes().strip() != b"":
        fail("edge/whitespace-only.html contains non-whitespace")
    if b"java\tscript:" not in (ROOT / "edge" / "hidden-and-dangerous.html").read_bytes():
        fail("edge/hidden-and-dangerous.html lost its literal tab")

    # Generators reproduce what is committed.
    for script in ["make_large.py", "make_encodings.py", "make_malformed.py"]:
        r = subprocess.run([sys.executable, str(TOOLS / script), "--check"], capture_output=True, text=True)
        (print if r.returncode == 0 else fail)(f"{'ok  ' if r.returncode == 0 else ''}{script} --check")

    # index.html and README.md cover every page.
    index = (ROOT / "index.html").read_text(encoding="utf-8")
    hrefs = set(re.findall(r'href="([^"#?]+)"', index))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for p in pages:
        r = rel(p)
        if r not in hrefs:
            fail(f"index.html does not link {r}")
        if f"`{r}`" not in readme:
            fail(f"README.md does not list `{r}`")
    for h in hrefs:
        if not h.startswith(("http:", "https:", "/")) and not (ROOT / h).exists():
            fail(f"index.html links missing file {h}")

    print("\nALL CHECKS PASSED" if not failures else f"\n{len(failures)} FAILURE(S)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
