"""Conversion and passthrough over HTTP/1.1, h2c and h2+TLS (the `proxy` fixture's params)."""

from __future__ import annotations

import gzip
from urllib.parse import quote

import brotli
import pytest

import harness
from checks import assert_converted, assert_passthrough
from harness import read_page

PAGES = harness.corpus_pages()


def test_corpus_has_pages() -> None:
    assert PAGES, f"no HTML pages under {harness.CORPUS}"


def test_protocol_negotiated(proxy, page) -> None:
    r = proxy.request("/" + page)
    assert r.status == 200
    expected = "HTTP/1.1" if proxy.proto == "h1" else "HTTP/2"
    assert r.http_version == expected


@pytest.mark.parametrize("rel", PAGES)
def test_converted_body_equals_md_convert(proxy, md_convert, rel) -> None:
    path = "/" + rel
    r = proxy.markdown(path)
    assert_converted(r, md_convert(proxy.url(path), read_page(rel)))


@pytest.mark.parametrize("rel", PAGES)
def test_passthrough_is_byte_identical_with_vary(proxy, origins, rel) -> None:
    path = "/" + rel
    r = proxy.request(path)
    assert_passthrough(r, origins.get(path))
    assert r.body == read_page(rel)
    # An eligible HTML response that was not converted still varies on Accept.
    assert "accept" in r.tokens("vary")


def test_query_string_is_part_of_base_url(proxy, md_convert, page) -> None:
    path = f"/{page}?a=1&b=x%20y"
    r = proxy.markdown(path)
    assert_converted(r, md_convert(proxy.url(path), read_page(page)))


NEGOTIATION = [
    ("text/markdown", True),
    ("TEXT/Markdown", True),
    ("text/markdown, text/html", True),
    ("text/html, text/markdown", True),
    ("text/markdown;q=0.5, text/html;q=0.5", True),
    ("text/html;q=0.9, text/markdown", True),
    ("text/markdown;q=0.9, text/html", False),
    ("text/markdown;q=0", False),
    ("text/markdown;q=0, text/html", False),
    ("text/markdown;q=0.5, */*", False),
    ("*/*", False),
    ("text/*", False),
    ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", False),
    ("application/json", False),
    # Malformed: never convert on a header we could not read.
    ("text/markdown;q=abc", False),
    ("text/markdown;q=1.5", False),
    ("text/markdown;q=0.5;q=1", False),
    ("text/markdown, text", False),
    ('text/markdown;x="unterminated', False),
    (None, False),
]


@pytest.mark.parametrize(("accept", "converts"), NEGOTIATION, ids=[str(a) for a, _ in NEGOTIATION])
def test_accept_negotiation(proxy, md_convert, page, accept, converts) -> None:
    path = "/" + page
    r = proxy.request(path, accept=accept)
    if converts:
        assert_converted(r, md_convert(proxy.url(path), read_page(page)))
    else:
        assert_passthrough(r, read_page(page))
        assert r.headers["content-type"].startswith("text/html")


def test_headers_kept_replaced_and_removed(proxy, md_convert, page) -> None:
    sent = {
        "Set-Cookie": "session=abc; Path=/",
        "Cache-Control": "max-age=60",
        "Last-Modified": "Wed, 21 Oct 2015 07:28:00 GMT",
        "Vary": "Origin",
        "Accept-Ranges": "bytes",
        "Content-MD5": "Q2hlY2sgSW50ZWdyaXR5IQ==",
        "ETag": '"upstream-html-etag"',
        "X-Custom": "kept",
    }
    query = "&".join(f"h={quote(f'{k}:{v}')}" for k, v in sent.items())
    path = f"/_test/headers?file={quote(page)}&{query}"
    r = proxy.markdown(path)
    assert_converted(r, md_convert(proxy.url(path), read_page(page)))
    assert r.headers["set-cookie"] == sent["Set-Cookie"]
    assert r.headers["cache-control"] == sent["Cache-Control"]
    assert r.headers["last-modified"] == sent["Last-Modified"]
    assert r.headers["x-custom"] == "kept"
    assert r.headers["etag"] != sent["ETag"]
    vary = r.tokens("vary")
    assert "origin" in vary and "accept" in vary
    assert vary.count("accept") == 1


def test_vary_accept_not_duplicated(proxy, page) -> None:
    path = f"/_test/headers?file={quote(page)}&h={quote('Vary:accept, Accept-Encoding')}"
    r = proxy.markdown(path)
    assert r.headers["content-type"] == harness.MARKDOWN_CT
    assert r.tokens("vary").count("accept") == 1


def test_vary_star_stays_star(proxy, page) -> None:
    r = proxy.markdown(f"/_test/headers?file={quote(page)}&h={quote('Vary:*')}")
    assert r.headers["content-type"] == harness.MARKDOWN_CT
    vary = r.tokens("vary")
    assert "*" in vary and "accept" not in vary


@pytest.mark.parametrize(
    ("content_type", "converts"),
    [
        ("text/html; charset=utf-8", True),
        ("TEXT/HTML", True),
        ("application/xhtml+xml", True),
        ("text/plain; charset=utf-8", False),
        ("application/json", False),
        ("text/html-fragment", False),
    ],
)
def test_content_type_eligibility(proxy, origins, md_convert, page, content_type, converts) -> None:
    path = f"/_test/headers?file={quote(page)}&h={quote('Content-Type:' + content_type)}"
    r = proxy.markdown(path)
    if converts:
        assert_converted(r, md_convert(proxy.url(path), read_page(page), content_type))
    else:
        assert_passthrough(r, origins.get(path))


@pytest.mark.parametrize(
    "path", ["/_test/status/404", "/_test/status/500", "/_test/status/301", "/no/such/page.html"]
)
def test_error_statuses_pass_through(proxy, origins, path) -> None:
    r = proxy.markdown(path)
    direct = origins.get(path)
    assert direct.status != 200
    assert_passthrough(r, direct)


def test_head_has_get_headers_and_no_body(proxy, page) -> None:
    path = "/" + page
    g = proxy.markdown(path)
    h = proxy.markdown(path, method="HEAD")
    assert h.status == 200
    assert h.body == b""
    for name in ("content-type", "content-length", "etag", "x-markdown-tokens"):
        assert h.headers.get(name) == g.headers.get(name), name


def test_head_is_fetched_with_get_upstream(proxy) -> None:
    # The echo page's Markdown depends on the method the origin saw; the request id differs
    # per request but has a fixed length, so equal lengths mean the origin saw GET both times.
    path = "/_test/echo-headers.html"
    g = proxy.markdown(path)
    assert b"GET /_test/echo-headers.html" in g.body
    h = proxy.markdown(path, method="HEAD")
    assert h.status == 200 and h.body == b""
    assert h.headers["content-type"] == harness.MARKDOWN_CT
    assert int(h.headers["content-length"]) == len(g.body)


def test_head_without_markdown_passes_through(proxy, origins, page) -> None:
    path = "/" + page
    h = proxy.request(path, method="HEAD")
    direct = origins.get(path, method="HEAD")
    assert h.status == 200 and h.body == b""
    for name in ("content-type", "content-length", "etag"):
        assert h.headers.get(name) == direct.headers.get(name), name


def test_no_transform_request(proxy, page) -> None:
    r = proxy.markdown("/" + page, headers={"cache-control": "no-transform"})
    assert_passthrough(r, read_page(page))


def test_no_transform_response(proxy, origins, page) -> None:
    path = f"/_test/headers?file={quote(page)}&h={quote('Cache-Control:public, no-transform')}"
    r = proxy.markdown(path)
    assert_passthrough(r, origins.get(path))


def test_range_request_passes_through(proxy, page) -> None:
    r = proxy.markdown("/" + page, headers={"range": "bytes=0-99"})
    assert r.status == 206
    assert r.body == read_page(page)[:100]
    assert r.headers.get("content-type", "").startswith("text/html")


@pytest.mark.parametrize("encoding", ["gzip", "br"])
def test_compressed_origin_is_converted(proxy, md_convert, page, encoding) -> None:
    path = f"/_test/{encoding}?file={quote(page)}"
    r = proxy.markdown(path)
    assert_converted(r, md_convert(proxy.url(path), read_page(page)))


@pytest.mark.parametrize("encoding", ["gzip", "br"])
def test_compressed_origin_passthrough_is_untouched(proxy, origins, page, encoding) -> None:
    # The filter decodes only to convert; everyone else gets the origin's encoded bytes.
    path = f"/_test/{encoding}?file={quote(page)}"
    r = proxy.request(path)
    direct = origins.get(path)
    assert_passthrough(r, direct)
    assert r.headers["content-encoding"] == direct.headers["content-encoding"] == encoding


def test_unknown_content_encoding_passes_through(proxy, origins, page) -> None:
    path = f"/_test/encoding?file={quote(page)}&name=x-custom"
    r = proxy.markdown(path)
    assert_passthrough(r, origins.get(path))
    assert r.headers["content-encoding"] == "x-custom"
    assert r.body == read_page(page)


@pytest.mark.parametrize("endpoint", ["chunked", "trailers"])
def test_chunked_and_trailers_converted(proxy, md_convert, page, endpoint) -> None:
    path = f"/_test/{endpoint}?file={quote(page)}"
    r = proxy.markdown(path)
    assert_converted(r, md_convert(proxy.url(path), read_page(page)))


@pytest.mark.parametrize("endpoint", ["chunked", "trailers"])
def test_chunked_and_trailers_passthrough(proxy, page, endpoint) -> None:
    r = proxy.request(f"/_test/{endpoint}?file={quote(page)}")
    assert_passthrough(r, read_page(page))


@pytest.mark.parametrize("encoding", ["gzip", "br"])
def test_markdown_compressed_for_client(proxy, md_convert, page, encoding) -> None:
    path = "/" + page
    r = proxy.markdown(path, headers={"accept-encoding": encoding})
    assert r.status == 200
    assert r.headers["content-type"] == harness.MARKDOWN_CT
    assert r.headers["content-encoding"] == encoding
    decoded = gzip.decompress(r.body) if encoding == "gzip" else brotli.decompress(r.body)
    assert decoded == md_convert(proxy.url(path), read_page(page)).markdown
    assert {"accept", "accept-encoding"} <= set(r.tokens("vary"))
    # Envoy's compressor drops strong ETags from what it compresses (see envoy.yaml).
    assert "etag" not in r.headers or r.headers["etag"].startswith("W/")
