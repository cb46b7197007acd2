"""The conversion memo (plugin option `memo_bytes`, default 8 MiB per worker): a page whose
bytes, URL and content headers are exactly those of a recent conversion is served from memory,
byte-identical to a fresh conversion; anything else is converted. The upstream is asked every
time either way (the memo caches work, not responses).

Each worker has its own memo, so the repeats below go over one keep-alive connection (one
worker). The access log says which it was: `markdown_memo` is `hit` or `miss`, and
`markdown_us` (conversion time) is only there when the engine ran.
"""

from __future__ import annotations

import uuid
from urllib.parse import quote

from checks import assert_converted
from harness import Envoy, Proxy, read_page

MIB = 1 << 20


def _lines(envoy: Envoy, marker: str, count: int) -> list[dict]:
    lines = envoy.access_log(marker, count=count)
    assert len(lines) == count, lines
    return lines


def test_a_repeated_page_is_served_from_the_memo_unchanged(proxy: Proxy, page: str) -> None:
    marker = f"memo={uuid.uuid4().hex}"
    path = f"/{page}?{marker}"
    responses = [proxy.markdown(path) for _ in range(3)]
    for r in responses:
        assert_converted(r)
    first = responses[0]
    for r in responses[1:]:
        assert r.body == first.body
        for h in ("etag", "content-length", "x-markdown-tokens", "content-type", "vary"):
            assert r.headers.get(h) == first.headers.get(h), h

    lines = _lines(proxy.envoy, marker, 3)
    assert lines[0]["markdown_memo"] == "miss"
    assert lines[0]["markdown_us"].isdigit()
    hits = [line for line in lines[1:] if line["markdown_memo"] == "hit"]
    assert hits, f"no memo hit on one connection: {lines}"
    html = read_page(page)
    for line in hits:
        assert line["markdown"] == "converted"
        assert line["markdown_us"] is None, "the engine did not run"
        assert line["markdown_bytes_in"] == str(len(html))
        assert line["markdown_bytes_out"] == first.headers["content-length"]

    # A 304 for the memoised page needs no conversion either.
    nm = proxy.markdown(path, headers={"if-none-match": first.headers["etag"]})
    assert nm.status == 304 and nm.headers["etag"] == first.headers["etag"]


def test_a_page_that_changed_at_the_same_url_is_converted_again(h1: Proxy) -> None:
    """The origin echoes the request headers as HTML: same URL, different bytes each time."""
    marker = f"memo={uuid.uuid4().hex}"
    path = f"/_test/echo-headers.html?{marker}"
    one = h1.markdown(path, headers={"x-variant": "first-variant"})
    two = h1.markdown(path, headers={"x-variant": "second-variant"})
    assert b"first-variant" in one.body and b"second-variant" not in one.body
    assert b"second-variant" in two.body and b"first-variant" not in two.body
    assert one.headers["etag"] != two.headers["etag"]
    for line in _lines(h1.envoy, marker, 2):
        assert line["markdown_memo"] == "miss"
        assert line["markdown_us"].isdigit()


def test_the_url_is_part_of_the_key(h1: Proxy, page: str) -> None:
    """The same bytes under another URL are converted again: relative links resolve against
    the URL and the front matter may name it (this page's canonical link makes the two
    Markdowns equal, which is why only the log can tell)."""
    marker = f"memo={uuid.uuid4().hex}"
    a = h1.markdown(f"/{page}?{marker}-a")
    b = h1.markdown(f"/_test/headers?file={quote(page)}&{marker}-b")
    assert_converted(a)
    assert_converted(b)
    for line in _lines(h1.envoy, marker, 2):
        assert line["markdown_memo"] == "miss"


def test_memo_bytes_zero_converts_every_request(custom: Proxy, page: str) -> None:
    """The `custom` Envoy runs with `memo_bytes: 0`."""
    marker = f"memo={uuid.uuid4().hex}"
    path = f"/{page}?{marker}"
    bodies = [custom.markdown(path).body for _ in range(2)]
    assert bodies[0] == bodies[1]
    for line in _lines(custom.envoy, marker, 2):
        assert line["markdown"] == "converted"
        assert line["markdown_memo"] is None
        assert line["markdown_us"].isdigit()


def test_the_memo_stays_within_its_budget_in_envoy(workdir, origins, page: str) -> None:
    """One worker with `memo_bytes` 1 MiB converts 300 distinct URLs of a 33 KB page (about
    11 MiB of bodies and Markdown): the least recently used entries go, so the VM's memory
    does not follow the number of pages, the newest page is still a hit and the oldest a miss.
    """
    envoy = Envoy("memo-budget", workdir, origins.ports, concurrency=1,
                  plugin_config={"memo_bytes": MIB})
    p = Proxy(envoy, "h1")
    marker = f"budget={uuid.uuid4().hex}"
    try:
        envoy.start()
        # Warm: the VM's conversion buffers grow to this page's size once.
        for i in range(20):
            assert_converted(p.markdown(f"/{page}?{marker}-warm{i}"))
        html = read_page(page)
        rss_before = envoy.rss_bytes()
        for i in range(300):
            assert_converted(p.markdown(f"/{page}?{marker}-{i}"))
        growth = envoy.rss_bytes() - rss_before
        unbounded = 300 * len(html)
        assert growth < 4 * MIB, f"RSS +{growth / MIB:.1f} MiB over 300 pages (bodies alone "\
            f"{unbounded / MIB:.1f} MiB)"
        newest = p.markdown(f"/{page}?{marker}-299")
        oldest = p.markdown(f"/{page}?{marker}-0")
        assert newest.body and oldest.body
        by_time = envoy.access_log(f"{marker}-299", count=2)
        assert [line["markdown_memo"] for line in by_time] == ["miss", "hit"]
        again_0 = envoy.access_log(f"{marker}-0", count=2)
        assert [line["markdown_memo"] for line in again_0] == ["miss", "miss"]
        counters = envoy.counters()
        assert counters["wasmcustom.markdown.memo.hit"] == 1
    finally:
        p.close()
        envoy.stop()
