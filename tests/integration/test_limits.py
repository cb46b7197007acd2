"""Large bodies, the buffering cap, hostile nesting and concurrency."""

from __future__ import annotations

import hashlib
from urllib.parse import quote

import pytest

import harness
from checks import assert_converted, assert_passthrough
from harness import Proxy, read_page

LARGE_FILES = ["large/docs-1mb.html", "large/docs-5mb.html"]
# A page over the `custom` instance's 512 KiB cap (and, compressed, well under it).
BIG_PAGE = "large/docs-1mb.html"


@pytest.mark.parametrize("mb", [1, 5])
def test_generated_large_page_converted(proxy, origins, md_convert, mb) -> None:
    path = f"/_test/large?mb={mb}"
    html = origins.get(path)
    assert html.status == 200 and len(html.body) >= mb * 1024 * 1024 * 0.9
    r = proxy.markdown(path)
    assert_converted(r, md_convert(proxy.url(path), html.body))


@pytest.mark.parametrize("rel", LARGE_FILES)
def test_large_corpus_page_converted(proxy, md_convert, rel) -> None:
    if not (harness.CORPUS / rel).is_file():
        pytest.fail(f"{rel} missing from {harness.CORPUS}")
    r = proxy.markdown("/" + rel)
    assert_converted(r, md_convert(proxy.url("/" + rel), read_page(rel)))


@pytest.mark.parametrize("how", ["content-length", "chunked"])
def test_30mib_page_passes_through_intact(proxy, origins, how) -> None:
    """Over the 10 MiB cap: declared (Content-Length, decided at the headers) or discovered
    while buffering (chunked) — either way the original bytes arrive intact, never a 500."""
    if how == "content-length":
        path = "/_test/large?mb=30"
        original = origins.get(path).body
    else:
        path = f"/_test/chunked?file={origins.OVER_CAP_PAGE}&chunk=65536"
        original = origins.read(origins.OVER_CAP_PAGE)
    assert len(original) >= 30 * 1024 * 1024
    r = proxy.markdown(path)
    assert r.status == 200
    assert r.headers["content-type"].startswith("text/html")
    assert len(r.body) == len(original)
    assert hashlib.sha256(r.body).digest() == hashlib.sha256(original).digest()


@pytest.mark.parametrize("endpoint", ["chunked", "gzip", "br"])
def test_body_crossing_cap_while_buffering_passes_through(custom: Proxy, origins, endpoint) -> None:
    """Bodies whose size is only known once buffered or decoded are released unchanged when
    they cross max_body_bytes: a chunked page (no Content-Length) grows past the cap while
    buffering; a compressed page is under the cap on the wire but over it once decoded.
    The `custom` instance has a 512 KiB cap; the page is 1 MiB."""
    path = f"/_test/{endpoint}?file={quote(BIG_PAGE)}"
    direct = origins.get(path)
    r = custom.markdown(path)
    assert_passthrough(r, direct)
    if endpoint == "chunked":
        assert r.body == read_page(BIG_PAGE)


NESTING = [("h1", tag) for tag in ("div", "ul", "blockquote", "table", "span", "b")] + [
    ("h2c", "div"),
    ("h2tls", "div"),
]


@pytest.mark.parametrize(("proto", "tag"), NESTING)
def test_deep_nesting_answered(envoy, origins, md_convert, page, proto, tag) -> None:
    """50,000 nested elements: answered (converted exactly like the CLI, or passed through)
    and Envoy keeps converting afterwards. The protocol does not matter to the engine, so
    only one tag runs over all three."""
    proxy = Proxy(envoy, proto)
    path = f"/_test/nested?depth=50000&tag={tag}"
    html = origins.get(path)
    r = proxy.markdown(path)
    assert r.status == 200
    if r.headers["content-type"].startswith("text/markdown"):
        # Converted: exactly what the CLI produces for the same input.
        assert_converted(r, md_convert(proxy.url(path), html.body))
    else:
        assert_passthrough(r, html)
    # Envoy (and the VM) keep serving.
    assert envoy.alive()
    after = proxy.markdown("/" + page)
    assert_converted(after, md_convert(proxy.url("/" + page), read_page(page)))
    proxy.close()


@pytest.mark.parametrize("proto", ["h1", "h2c"])
def test_parallel_conversions_identical_across_origins(envoy, md_convert, page, proto) -> None:
    """40 concurrent conversions (over h2c: 40 streams on one connection): identical bodies,
    spread over both round-robin endpoints."""
    url = envoy.url(proto) + "/" + page
    results = harness.fetch_concurrently(proto, [url] * 40, {"accept": "text/markdown"})
    expected = md_convert(url, read_page(page))
    for r in results:
        if proto != "h1":
            assert r.http_version == "HTTP/2"
        assert_converted(r, expected)
    assert {r.headers["etag"] for r in results} == {results[0].headers["etag"]}
    assert {r.headers.get("x-origin") for r in results} == set(harness.Origins.ids)
