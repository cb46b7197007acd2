#!/usr/bin/env python3
"""Write the hand-made seed inputs into fuzz/corpus/<target>/seed-*.

Run from anywhere: `python3 fuzz/seeds.py`. Idempotent (same names, same bytes). The rest of
each corpus directory is what `cargo fuzz cmin` kept from fuzzing runs (named by SHA-1).

engine_convert seeds use the layout of fuzz/src/engine.rs: a flags byte, then 1 (or 0) for
"arbitrary" Content-Type and base URL, each followed by a length byte and its bytes, then
the document.
"""
import gzip
import os
import zlib
from pathlib import Path

try:
    import brotli  # in .venv (tests/integration/requirements.txt)
except ImportError:
    brotli = None

FUZZ = Path(__file__).resolve().parent
ROOT = FUZZ.parent
CORPUS = ROOT / "corpus"

# Small corpus pages: every category, nothing over 12 KB (cmin keeps what adds coverage).
PAGES = [
    "edge/fragment.html",
    "edge/head-only.html",
    "edge/text-only.html",
    "edge/markdown-metachars.html",
    "edge/links-and-images.html",
    "edge/embedded-media.html",
    "edge/inline-and-blocks.html",
    "edge/hidden-and-dangerous.html",
    "edge/deep-nesting.html",
    "encodings/big5.html",
    "encodings/koi8-r.html",
    "encodings/euc-kr.html",
    "encodings/utf8-bom-no-meta.html",
    "encodings/latin1-label-cp1252-bytes.html",
    "encodings/gb18030.html",
    "encodings/iso-8859-5.html",
    "encodings/utf16le-bom.html",
    "encodings/shift_jis.html",
    "encodings/windows-1252.html",
    "encodings/late-meta-charset.html",
    "malformed/unterminated.html",
    "malformed/unclosed-tags.html",
    "malformed/no-skeleton-unquoted.html",
    "malformed/misnested.html",
    "malformed/garbage-bytes.html",
    "malformed/broken-tables.html",
    "tables/simple.html",
    "tables/layout-table.html",
    "tables/block-cells.html",
    "tables/alignment-spans.html",
    "forms/contact.html",
    "code/backticks-and-fences.html",
    "code/multi-language-tutorial.html",
    "news/comet-early.html",
    "docs/manpage-logsift.html",
    "code/jupyter-notebook.html",
]


def engine_case(html, front_matter=True, prune=True, content_type=None, base_url=None):
    flags = (0 if front_matter else 1) | (0 if prune else 2)
    head = bytes([flags, 0 if content_type is None else 1, 0 if base_url is None else 1])
    for value in (content_type, base_url):
        if value is not None:
            raw = value.encode()[:255]
            head += bytes([len(raw)]) + raw
    return head + html


def engine_seeds():
    seeds = {}
    for rel in PAGES:
        html = (CORPUS / rel).read_bytes()
        name = rel.replace("/", "-").removesuffix(".html")
        seeds[name] = engine_case(html, base_url=f"https://corpus.example/{rel}")
    # Options flipped on a few pages.
    seeds["noprune-nofm-links"] = engine_case(
        (CORPUS / "edge/links-and-images.html").read_bytes(), front_matter=False, prune=False
    )
    seeds["noprune-hidden"] = engine_case(
        (CORPUS / "edge/hidden-and-dangerous.html").read_bytes(), prune=False
    )
    hostile = {
        "nest-div": b"<div>" * 3000 + b"x",
        "nest-ul": b"<ul><li>" * 1500 + b"x",
        "nest-table": b"<table><tr><td>" * 700 + b"x",
        "nest-blockquote": b"<blockquote>" * 1500 + b"> x",
        "nest-b-a": b"<b><a href=x>" * 1000 + b"x",
        "nest-mixed": b"<ol><li><blockquote><pre><code>" * 400 + b"```x",
        "js-entities": (
            b'<p><a href="&#106;avascript:alert(1)">a</a> <a href="java&#x09;script:alert(1)">b</a>'
            b' <a href="jav&#x0A;ascript:alert(1)">c</a> <a href=" javascript:alert(1)">d</a>'
            b' <a href="JaVaScRiPt&colon;alert(1)">e</a> <a href="&#0000106&#0000097vascript:x">f</a>'
            b' <a href="vbscript:msgbox(1)">g</a> <a href="javascript&#58;alert(1)">h</a>'
            b' <a href="\x01javascript:alert(1)">i</a> <a href="java\0script:alert(1)">j</a></p>'
        ),
        "js-images-data": (
            b'<img src="data:text/html;base64,PHNjcmlwdD4=" alt="a">'
            b'<img src="data:image/svg+xml,<svg onload=alert(1)>" alt="b">'
            b'<img src="data:image/png;base64,iVBORw0KGgo=" alt="c">'
            b'<img src="javascript:alert(1)" alt="[x](javascript:alert(1))">'
            b'<a href="https://example.com/a(b)c"><img src="x" title="t&quot;)"></a>'
        ),
        "js-base-href": b'<base href="javascript:alert(1)//"><p><a href="x">rel</a> <img src="y" alt="i"></p>',
        "js-autolink-text": b"<p>&lt;javascript:alert(1)&gt; [a](javascript:alert(1)) ![b](vbscript:x) &lt;script&gt;</p>",
        "raw-html-text": b"<p>&lt;img src=x onerror=alert(1)&gt; &lt;<span>script</span>&gt; <code>&lt;b&gt;</code></p><pre>&lt;/pre&gt;&lt;script&gt;</pre>",
        "front-matter-break": (
            b"<html><head><title>---\ninjected: true\n---</title>"
            b'<meta name="description" content="a\xe2\x80\xa8b&quot;: x\\"><meta name="author" content="\x00\x1b[2J">'
            b'<link rel="canonical" href="javascript:alert(1)"></head><body><hr><p>---</p></body></html>'
        ),
        "metachars": b"<p>* _ ` ``` ~~~ [ ] ( ) ! # 1. - + | \\ --- *** : &amp; &#96; &lt; &gt;</p><h1>#</h1><li>1. x</li>",
        "tables-spans": b'<table><tr><td colspan=1000>a</td></tr><tr><td rowspan=100000>b</td><td>|</td></tr></table>',
        "controls": "<p>a\x00b\x01c\x1bd\x7fe\u0085f\u2028g\ufeffh&#0;&#1;&#127;&#x80;&#x9f;</p>".encode(),
        "cr-code-inline": b"<p><code>a&#13;b</code> x&#13;y</p><table><tr><td>a&#13;b</td></tr></table>",
    }
    for name, html in hostile.items():
        seeds[name] = engine_case(html, base_url="https://example.com/dir/page.html")
    # Charset lies: the declared encoding disagrees with the bytes.
    utf8 = "<p>Grüße, 東京, Привет</p>".encode()
    lies = {
        "lie-header-utf16-bytes-utf8": ("text/html; charset=utf-16le", utf8),
        "lie-header-sjis-bytes-utf8": ("text/html; charset=shift_jis", utf8),
        "lie-header-utf8-bytes-latin1": ("text/html; charset=utf-8", "<p>Grüße</p>".encode("latin-1")),
        "lie-meta-sjis": (None, b'<meta charset="shift_jis">' + utf8),
        "lie-meta-utf7": (None, b'<meta charset="utf-7">+ADw-script+AD4-'),
        "lie-meta-utf16": (None, b'<meta http-equiv="Content-Type" content="text/html; charset=utf-16">' + utf8),
        "lie-bom-vs-header": ("text/html; charset=windows-1252", b"\xef\xbb\xbf" + utf8),
        "lie-utf16be-bom-header-latin1": ("text/html; charset=latin1", "\ufeff<p>x</p>".encode("utf-16-be")),
        "lie-x-user-defined": ("text/html; charset=x-user-defined", bytes(range(256))),
        "lie-replacement": ("text/html; charset=iso-2022-kr", utf8),
        "lie-xml-decl": (None, b'<?xml version="1.0" encoding="koi8-r"?><html><p>\xf0\xd2\xc9</p></html>'),
        "lie-quoted-escaped": ('text/html; charset="ut\\f-8"; charset=latin1', utf8),
    }
    for name, (ct, html) in lies.items():
        seeds[name] = engine_case(html, content_type=ct, base_url="https://example.com/")
    seeds["empty"] = engine_case(b"")
    seeds["no-header"] = b""
    return seeds


ACCEPT = [
    "text/markdown",
    "text/markdown, text/html",
    "text/html, text/markdown",
    "text/markdown;q=0.9, text/html",
    "text/markdown; variant=GFM; q=0.5, text/html;q=0.1, */*",
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "*/*",
    "text/*;q=0.5, text/markdown;q=0",
    "application/json, text/plain, */*",
    'text/markdown; profile="a, b; c", text/html;q=0.1',
    "text/markdown;q=1.000, text/html;q=0.999",
    "text/markdown;q=0.5;q=1",
    "text/markdown;;q=1;",
    "text/markdown, */html",
    "TEXT/MARKDOWN;Q=0.5",
    "text/html;q=0.5\ntext/markdown",
    "text/markdown; a=\"open",
    " , ,",
    "q=0.5",
    "1.000",
    "0.05",
]

INM = [
    '"0123456789abcdef0123456789abcdef"',
    'W/"0123456789abcdef0123456789abcdef"',
    '"a", W/"b" ,"0123456789abcdef0123456789abcdef"',
    "*",
    " * ",
    '"a", *',
    '""',
    '"unterminated',
    'W/ "a"',
    'w/"abc"',
    '"a"\n"0123456789abcdef0123456789abcdef"',
    '"é"',
]

CACHE_CONTROL = [
    "no-transform",
    "max-age=60, No-Transform",
    "public, max-age=31536000, immutable",
    "no-store, max-age=0",
    'private="no-transform, x"',
    'private="no-transform, x',
    "no-cache\nno-transform",
    "no-transform=1",
    ' no-transform ;x',
    "s-maxage=10, stale-while-revalidate=30, stale-if-error=60",
]

CONTENT_TYPE = [
    "text/html",
    "text/html; charset=utf-8",
    "Text/HTML; Charset=\"ISO-8859-1\"",
    "application/xhtml+xml",
    "text/html;charset=",
    'text/html; charset="u\\tf-8"',
    'text/html; charset="utf-8',
    "text/html; foo; charset=latin1; charset=utf-8",
    "text/html; CHARSET = shift_jis ; x=y",
    "text/ html",
    "html",
    ";charset=utf-16le",
    "text/html\tcharset=utf-8",
    "text/plain; charset=x-user-defined",
    "multipart/form-data; boundary=\"---;charset=x\"",
]

CONFIG = [
    "{}",
    "",
    " \n\t",
    '{"content_types": ["Text/HTML", "text/x-page", "text/html"], "max_body_bytes": 2048, "accept_wildcard": true, "conditional": "ims_only", "head": "passthrough", "front_matter": false, "prune": false, "content_signal": "ai-train=no, search=yes, ai-input=yes", "tokens_header": "X-Tokens", "trusted_forwarded_proto": true, "vary_on_passthrough": false}',
    '{"conditional":"off","content_signal":null}',
    '{"max_body_bytes": 1073741824}',
    '{"max_body_bytes": 1073741825}',
    '{"max_body_bytes": 1.5}',
    '{"memo_bytes": 0}',
    '{"memo_bytes": 1073741825}',
    '{"content_types": ["text/*"]}',
    '{"content_types": []}',
    '{"content_signal": "a\\r\\nx-injected: 1"}',
    '{"tokens_header": "Content-Length"}',
    '{"max_body_bytes": 5, "max_body": 5}',
    '{"head": "convert", "head": "get"}',
    '{"prune": true',
    "\ufeff{}",
    "[]",
    "null",
    '{"content_types": ["text/html"], "nested": {"a": [1, {"b": null}]}}',
]

RESPONSE_HEAD = [
    ":status: 200\ncontent-type: text/html; charset=utf-8\ncontent-length: 1234\nvary: Accept-Encoding\ncache-control: public, max-age=60",
    ":status: 200\ncontent-type: text/html\ncontent-encoding: gzip, br\ncontent-length: 10, 10\nvary: Origin,\nvary:  accept",
    ":status: 304\ncontent-type: text/html\netag: \"abc\"",
    ":status: 200\ncontent-type: application/json\ncontent-length: 99999999999999999999",
    ":status: 200\ncontent-type: text/html\ncontent-length: 42\ncontent-length: 43\nvary: *",
    ":status: 200\ncontent-type: text/html\ncontent-encoding: zstd\ncache-control: no-transform",
    ":method: GET\n:scheme: http\n:authority: example.com:10000\n:path: /docs/a%20b?q=1\nx-forwarded-proto: HTTPS, http\naccept: text/markdown",
    ":method: HEAD\n:scheme: https\n:authority: a\n:path: /\nrange: bytes=0-10",
    ":method: GET\n:scheme: ht tp\n:authority: a\n:path: *",
    ":status: 200\ncontent-type: text/html\ncontent-encoding: gzip,gzip,gzip,gzip,gzip\ncontent-length: +5",
]


def coding_seeds():
    html = (CORPUS / "edge/fragment.html").read_bytes()
    limit = (4096).to_bytes(2, "big")
    out = {
        "gzip": bytes([0]) + limit + gzip.compress(html, mtime=0),
        "gzip-two-members": bytes([0]) + limit + gzip.compress(b"<p>a", mtime=0) + gzip.compress(b"b</p>", mtime=0),
        "deflate-zlib": bytes([1]) + limit + zlib.compress(html),
        "deflate-raw": bytes([1]) + limit + raw_deflate(html),
        "gzip-small-limit": bytes([0]) + (16).to_bytes(2, "big") + gzip.compress(html, mtime=0),
        "gzip-bomb": bytes([0]) + (65535).to_bytes(2, "big") + gzip.compress(b"\0" * 1_000_000, mtime=0),
    }
    if brotli is not None:
        out["br"] = bytes([2]) + limit + brotli.compress(html)
        out["br-bomb"] = bytes([2]) + (65535).to_bytes(2, "big") + brotli.compress(b"a" * 1_000_000)
    return out


def raw_deflate(data):
    c = zlib.compressobj(wbits=-15)
    return c.compress(data) + c.flush()


def write(target, seeds):
    d = FUZZ / "corpus" / target
    d.mkdir(parents=True, exist_ok=True)
    for name, data in seeds.items():
        (d / f"seed-{name}").write_bytes(data if isinstance(data, bytes) else data.encode())


def numbered(values):
    return {f"{i:02d}": v.encode() for i, v in enumerate(values)}


def main():
    write("engine_convert", engine_seeds())
    write("accept", numbered(ACCEPT))
    write("if_none_match", numbered(INM))
    write("cache_control", numbered(CACHE_CONTROL))
    write("content_type", numbered(CONTENT_TYPE))
    write("plugin_config", numbered(CONFIG))
    write("response_head", numbered(RESPONSE_HEAD))
    write("content_coding", coding_seeds())


if __name__ == "__main__":
    os.umask(0o022)
    main()
