"""ETag / If-None-Match handling (conditional "full", the default) over all protocols."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from checks import assert_converted
from harness import STRONG_ETAG, read_page


def _page_with_cache_headers(page: str) -> str:
    h = [quote("Cache-Control:max-age=300"), quote("Last-Modified:Wed, 21 Oct 2015 07:28:00 GMT")]
    return f"/_test/headers?file={quote(page)}&h={h[0]}&h={h[1]}"


MATCHING = ["{e}", "W/{e}", '"nope", {e}', '"a",W/{e} , "b"', "*"]


@pytest.mark.parametrize("template", MATCHING)
def test_if_none_match_answers_304(proxy, page, template) -> None:
    path = _page_with_cache_headers(page)
    first = proxy.markdown(path)
    assert_converted(first)
    etag = first.headers["etag"]
    r = proxy.markdown(path, headers={"if-none-match": template.format(e=etag)})
    assert r.status == 304
    assert r.body == b""
    assert r.headers["etag"] == etag
    assert "accept" in r.tokens("vary")
    assert r.headers["cache-control"] == "max-age=300"
    assert r.headers["last-modified"] == "Wed, 21 Oct 2015 07:28:00 GMT"
    assert "content-type" not in r.headers


@pytest.mark.parametrize("inm", ['"nope"', 'W/"nope"', '"a", "b"', "garbage", ""])
def test_non_matching_if_none_match_gets_full_markdown(proxy, md_convert, page, inm) -> None:
    path = "/" + page
    r = proxy.markdown(path, headers={"if-none-match": inm})
    assert_converted(r, md_convert(proxy.url(path), read_page(page)))


def test_etag_is_stable_and_strong(proxy, page) -> None:
    a = proxy.markdown("/" + page)
    b = proxy.markdown("/" + page)
    assert STRONG_ETAG.match(a.headers["etag"])
    assert a.headers["etag"] == b.headers["etag"]


def test_304_on_head(proxy, page) -> None:
    etag = proxy.markdown("/" + page).headers["etag"]
    r = proxy.markdown("/" + page, method="HEAD", headers={"if-none-match": etag})
    assert r.status == 304 and r.body == b""
    assert r.headers["etag"] == etag


def test_conditionals_not_forwarded_on_markdown_requests(proxy) -> None:
    cond = {"if-none-match": '"some-etag"', "if-modified-since": "Wed, 21 Oct 2015 07:28:00 GMT"}
    md = proxy.markdown("/_test/echo-headers.html", headers=cond)
    assert md.headers["content-type"].startswith("text/markdown")
    assert b"GET /_test/echo-headers.html" in md.body
    assert b"if-none-match" not in md.body.lower()
    assert b"if-modified-since" not in md.body.lower()
    # Without Markdown negotiation the filter leaves the request alone.
    html = proxy.request("/_test/echo-headers.html", headers=cond)
    assert html.headers["content-type"].startswith("text/html")
    # (The echo page HTML-escapes values: "some-etag" appears as &quot;some-etag&quot;.)
    assert b"if-none-match: &quot;some-etag&quot;" in html.body.lower()
    assert b"if-modified-since" in html.body.lower()


def test_origin_304_passes_through_for_html_clients(proxy, origins, page) -> None:
    path = "/" + page
    etag = origins.get(path).headers["etag"]
    r = proxy.request(path, headers={"if-none-match": etag})
    assert r.status == 304 and r.body == b""
    assert r.headers["etag"] == etag
