"""envoy/envoy.cache.yaml: Envoy's HTTP cache (cache_v2, in memory) in front of an internal
listener that runs the markdown filter.

What it must do, checked here over HTTP/1.1, h2c and h2 over TLS:
- a Markdown fetch of a cacheable page is a miss (origin fetched, page converted); the next is a
  hit (`age`, same bytes, ETag and token count; neither origin nor engine runs again);
- HTML and Markdown never mix: HTML requests bypass the cache, so they never get the cached
  Markdown, and a Markdown request after an HTML one is converted;
- `If-None-Match`, `HEAD` and revalidation agree with the filter; `no-store`/`private` and
  responses without freshness are not stored;
- the `markdown` route (the only one using the cache) is taken only by Accept headers the filter
  itself negotiates to Markdown.

Why the config looks the way it does (Envoy 1.40's cache filters cannot store `Vary: Accept`)
is in its header comment. How fast hits are against misses is measured, not asserted here:
`make bench-cache` records it in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from urllib.parse import quote

import pytest

import harness
from checks import assert_converted
from harness import MARKDOWN_CT, Envoy, MdConvert, Origins, Proxy

ORIGIN_RQ = "cluster.origin.upstream_rq_total"
CONVERTED = "wasmcustom.markdown.converted"
NOT_MODIFIED = "wasmcustom.markdown.not_modified"


@pytest.fixture(scope="module")
def cache_envoy(envoys) -> Envoy:
    return envoys.get("cache")


@pytest.fixture(scope="module", params=harness.PROTOCOLS)
def cproxy(request: pytest.FixtureRequest, cache_envoy: Envoy):
    p = Proxy(cache_envoy, request.param)
    yield p
    p.close()


@pytest.fixture(scope="module")
def ch1(cache_envoy: Envoy):
    p = Proxy(cache_envoy, "h1")
    yield p
    p.close()


def page_path(page: str, cache_control: str | None = "max-age=60") -> str:
    """A corpus page through the origin's `headers` endpoint (Content-Type text/html), with
    the given Cache-Control and a unique marker, so every call names a fresh cache key."""
    path = f"/_test/headers?file={quote(page)}"
    if cache_control is not None:
        path += "&h=" + quote(f"Cache-Control:{cache_control}")
    return path + f"&k={uuid.uuid4().hex}"


class Counts:
    """Deltas of upstream (origin) requests and filter outcomes since creation."""

    def __init__(self, envoy: Envoy):
        self.envoy = envoy
        self.before = self._now()

    def _now(self) -> dict[str, int]:
        c = self.envoy.counters("cluster.origin.")
        c.update(self.envoy.counters())
        return c

    def delta(self) -> dict[str, int]:
        now = self._now()
        return {
            "origin": now[ORIGIN_RQ] - self.before[ORIGIN_RQ],
            "converted": now[CONVERTED] - self.before[CONVERTED],
            "not_modified": now[NOT_MODIFIED] - self.before[NOT_MODIFIED],
        }


def is_markdown(r: harness.Resp) -> bool:
    return r.headers.get("content-type") == MARKDOWN_CT


def assert_hit(r: harness.Resp) -> None:
    assert r.headers.get("age", "").isdigit(), f"not from the cache: {dict(r.headers)}"


def assert_not_hit(r: harness.Resp) -> None:
    assert "age" not in r.headers, f"served from the cache: {dict(r.headers)}"


def assert_vary_restored(r: harness.Resp) -> None:
    assert "accept" in r.tokens("vary"), r.headers.get_list("vary")
    assert "x-markdown-vary" not in r.headers


def test_second_markdown_fetch_is_a_hit(
    cproxy: Proxy, cache_envoy: Envoy, origins: Origins, md_convert: MdConvert, page: str
) -> None:
    path = page_path(page)
    counts = Counts(cache_envoy)
    miss = cproxy.markdown(path)
    assert_converted(miss, md_convert(cproxy.url(path), origins.get(path).body))
    assert_not_hit(miss)
    assert_vary_restored(miss)
    assert counts.delta() == {"origin": 1, "converted": 1, "not_modified": 0}

    for _ in range(2):
        hit = cproxy.markdown(path)
        assert_hit(hit)
        assert_vary_restored(hit)
        assert hit.status == 200
        assert hit.body == miss.body
        for name in ("etag", "x-markdown-tokens", "content-type", "content-length",
                     "cache-control"):
            assert hit.headers.get(name) == miss.headers.get(name), name
    assert counts.delta() == {"origin": 1, "converted": 1, "not_modified": 0}


def test_html_never_gets_the_cached_markdown(
    cproxy: Proxy, cache_envoy: Envoy, origins: Origins, page: str
) -> None:
    path = page_path(page)
    html = origins.get(path).body
    counts = Counts(cache_envoy)
    md = cproxy.markdown(path)
    assert is_markdown(md)
    for accept in (None, "text/html", "text/html,application/xhtml+xml,*/*;q=0.8"):
        r = cproxy.request(path, accept=accept)
        assert r.status == 200 and r.body == html, accept
        assert r.headers.get("content-type") == "text/html"
        assert_not_hit(r)
        assert_vary_restored(r)
    # HTML is not cached by this config: each HTML request went to the origin.
    assert counts.delta() == {"origin": 4, "converted": 1, "not_modified": 0}
    again = cproxy.markdown(path)
    assert_hit(again)
    assert again.body == md.body


def test_markdown_after_html_is_converted(
    cproxy: Proxy, cache_envoy: Envoy, origins: Origins, md_convert: MdConvert, page: str
) -> None:
    path = page_path(page)
    counts = Counts(cache_envoy)
    html = cproxy.request(path, accept="text/html")
    assert html.headers.get("content-type") == "text/html"
    md = cproxy.markdown(path)
    assert_converted(md, md_convert(cproxy.url(path), origins.get(path).body))
    assert_not_hit(md)
    assert counts.delta() == {"origin": 2, "converted": 1, "not_modified": 0}


def test_if_none_match_against_the_cached_entry(cproxy: Proxy, cache_envoy: Envoy,
                                                page: str) -> None:
    path = page_path(page)
    first = cproxy.markdown(path)
    etag = first.headers["etag"]
    counts = Counts(cache_envoy)
    nm = cproxy.markdown(path, headers={"if-none-match": etag})
    assert nm.status == 304 and nm.body == b""
    assert nm.headers.get("etag") == etag
    assert_vary_restored(nm)
    other = cproxy.markdown(path, headers={"if-none-match": '"something-else"'})
    assert other.status == 200 and other.body == first.body
    assert other.headers.get("etag") == etag
    # cache_v2 passes a client's conditional request through, entry or not: the filter
    # answers it from the Markdown ETag (304, or 200 when nothing matches).
    assert counts.delta() == {"origin": 2, "converted": 1, "not_modified": 1}


def test_head_is_answered_from_the_cached_get(cproxy: Proxy, cache_envoy: Envoy,
                                              page: str) -> None:
    path = page_path(page)
    get = cproxy.markdown(path)
    counts = Counts(cache_envoy)
    head = cproxy.markdown(path, method="HEAD")
    assert head.status == 200 and head.body == b""
    assert_hit(head)
    for name in ("content-type", "content-length", "etag", "x-markdown-tokens"):
        assert head.headers.get(name) == get.headers.get(name), name
    assert counts.delta()["origin"] == 0


@pytest.mark.parametrize("cache_control", ["no-store", "private", "public, no-store", None])
def test_unstorable_responses_are_fetched_every_time(
    cproxy: Proxy, cache_envoy: Envoy, page: str, cache_control: str | None
) -> None:
    path = page_path(page, cache_control)
    counts = Counts(cache_envoy)
    first, second = cproxy.markdown(path), cproxy.markdown(path)
    for r in (first, second):
        assert is_markdown(r)
        assert_not_hit(r)
    assert second.body == first.body
    assert counts.delta() == {"origin": 2, "converted": 2, "not_modified": 0}


@pytest.mark.parametrize("cache_control", ["no-cache", "max-age=0", "max-age=1"])
def test_stale_entries_are_revalidated_with_the_markdown_etag(
    cproxy: Proxy, cache_envoy: Envoy, page: str, cache_control: str
) -> None:
    path = page_path(page, cache_control)
    first = cproxy.markdown(path)
    counts = Counts(cache_envoy)
    if cache_control != "no-cache":
        # cache_v2 counts an entry as fresh while its age (whole seconds) is not above
        # max-age, so even max-age=0 is served unvalidated within the second it was stored.
        time.sleep(int(cache_control.split("=")[1]) + 1.1)
    second = cproxy.markdown(path)
    # The cache sends If-None-Match with the stored (Markdown) ETag; the filter converts the
    # fresh HTML, finds the same ETag and answers 304; the cache serves its stored body.
    assert second.status == 200 and second.body == first.body
    assert second.headers["etag"] == first.headers["etag"]
    assert counts.delta() == {"origin": 1, "converted": 0, "not_modified": 1}


def test_range_is_passed_through_never_cut_from_the_markdown(
    ch1: Proxy, origins: Origins, page: str
) -> None:
    path = page_path(page)
    md = ch1.markdown(path)
    assert is_markdown(md)
    rng = {"range": "bytes=0-9"}
    r = ch1.markdown(path, headers=rng)
    direct = origins.get(path, rng)  # this endpoint ignores Range: 200 with the whole page
    assert (r.status, r.body) == (direct.status, direct.body)
    assert r.headers.get("content-type") == "text/html"
    assert_not_hit(r)


def test_large_pages_behind_the_cache(cproxy: Proxy, origins: Origins,
                                      md_convert: MdConvert) -> None:
    """The internal listener keeps envoy.yaml's buffer sizing: a 5 MiB page is converted and
    then served from the cache, and a 30 MiB page that crosses the cap while the filter
    buffers it (chunked) arrives intact."""
    path = page_path("large/docs-5mb.html")
    miss = cproxy.markdown(path)
    assert_converted(miss, md_convert(cproxy.url(path), origins.get(path).body))
    hit = cproxy.markdown(path)
    assert_hit(hit)
    assert hit.body == miss.body

    over = f"/_test/chunked?file={origins.OVER_CAP_PAGE}&chunk=65536"
    original = origins.read(origins.OVER_CAP_PAGE)
    r = cproxy.markdown(over)
    assert r.status == 200 and r.headers["content-type"].startswith("text/html")
    assert hashlib.sha256(r.body).digest() == hashlib.sha256(original).digest()


# Differ between two Envoys or two fetches by nature: the Markdown embeds the request URL
# (another port), so its size, ETag and token count differ too.
VOLATILE = {"date", "age", "x-envoy-upstream-service-time", "x-origin", "content-length",
            "etag", "x-markdown-tokens"}


@pytest.mark.parametrize("accept", ["text/markdown", "text/html", None])
def test_headers_are_those_of_envoy_yaml(ch1: Proxy, h1: Proxy, page: str,
                                         accept: str | None) -> None:
    """Stashing and restoring Vary around the cache leaves every response's headers as
    envoy/envoy.yaml sends them: hits, misses, HTML, and responses without any Vary."""
    path = page_path(page)
    for p in (path, f"/_test/status/404?k={uuid.uuid4().hex}", f"/{page}"):
        plain = h1.request(p, accept=accept)
        for _ in range(2):  # miss, then hit where cacheable
            cached = ch1.request(p, accept=accept)
            assert cached.status == plain.status, p
            want = sorted((k, v) for k, v in plain.headers.multi_items() if k not in VOLATILE)
            got = sorted((k, v) for k, v in cached.headers.multi_items() if k not in VOLATILE)
            assert got == want, p


# (Accept, what the cache route is expected to do): "hit" = served from the Markdown entry;
# "convert" = negotiates Markdown but not through the cache; "html" = not Markdown.
ACCEPTS = [
    ("text/markdown", "hit"),
    ("TEXT/Markdown", "hit"),
    ("text/markdown, text/html;q=0.9, */*;q=0.8", "hit"),
    ("text/html, text/markdown", "hit"),
    ("application/json;charset=utf-8, text/markdown, text/plain; format=flowed; q=0.5", "hit"),
    ("text/markdown, text/markdown;q=0", "hit"),
    ("text/html;q=0.5, text/markdown;q=0.8", "convert"),
    ("text/markdown;charset=utf-8", "convert"),
    ("text/markdown;q=0", "html"),
    ("text/markdown;q=0.5, text/html", "html"),
    ("text/markdown, */html", "html"),
    ("text/markdown, text/x;q=2", "html"),
    ("text/markdown, text/html;q=0.9;q=0.8", "html"),
    ("text/markdown;q=1;q=1", "html"),
    ("*/*", "html"),
    ("text/*", "html"),
    ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "html"),
    (None, "html"),
]


def test_only_accepts_the_filter_negotiates_use_the_cache(
    ch1: Proxy, h1: Proxy, cache_envoy: Envoy, page: str
) -> None:
    """The cache's route must never answer a request differently from the plain filter
    (`h1`, envoy/envoy.yaml): same Markdown/HTML decision for every Accept."""
    path = page_path(page)
    assert is_markdown(ch1.markdown(path))
    for accept, expected in ACCEPTS:
        plain = h1.request(path, accept=accept)
        cached = ch1.request(path, accept=accept)
        assert is_markdown(cached) == is_markdown(plain) == (expected != "html"), accept
        if expected == "hit":
            assert_hit(cached)
        else:
            assert_not_hit(cached)
    # Two Accept lines are one list to the filter and to the route matcher alike.
    lines = [("accept", "text/markdown"), ("accept", "text/html;q=2")]
    for proxy in (h1, ch1):
        r = harness.fetch(proxy.client, "GET", proxy.url(path), lines)
        assert r.headers.get("content-type") == "text/html", proxy.envoy.name


def test_distinct_accept_strings_share_one_entry(ch1: Proxy, cache_envoy: Envoy,
                                                 page: str) -> None:
    path = page_path(page)
    accepts = [a for a, kind in ACCEPTS if kind == "hit"] + [
        f"text/markdown, text/html;q=0.{i}, */*;q=0.1" for i in range(1, 10)
    ]
    counts = Counts(cache_envoy)
    bodies = {ch1.request(path, accept=a).body for a in accepts}
    assert len(bodies) == 1
    assert counts.delta() == {"origin": 1, "converted": 1, "not_modified": 0}


def test_hit_and_miss_are_logged(ch1: Proxy, cache_envoy: Envoy, page: str) -> None:
    path = page_path(page)
    ch1.markdown(path)
    ch1.markdown(path)
    marker = path.rsplit("&k=", 1)[1]
    lines = cache_envoy.access_log(marker, count=3)
    front = [x for x in lines if x["log"] == "front"]
    inner = [x for x in lines if x["log"] == "markdown"]
    assert [x["age"] is None for x in front] == [True, False], lines
    assert all(x["route"] == "markdown" for x in front)
    # Only the miss reached the filter.
    assert len(inner) == 1 and inner[0]["markdown"] == "converted", lines
