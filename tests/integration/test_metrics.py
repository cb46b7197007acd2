"""Filter metrics at the Envoy admin endpoint after a known mix of requests.

Names: `/stats` shows `wasmcustom.markdown.<name>`; `/stats/prometheus` shows `markdown_<name>`
with dots turned into underscores (Envoy drops the custom `wasmcustom` namespace and adds no
`envoy_` prefix), e.g. `markdown_passthrough_over_cap` and the histogram
`markdown_conversion_us_{bucket,sum,count}`.
"""

from __future__ import annotations

import time
from urllib.parse import quote

import pytest

from checks import assert_converted
from harness import PASSTHROUGH_REASONS, Envoy, Proxy, read_page

PREFIX = "wasmcustom.markdown."
COUNTERS = ["converted", "not_modified", "errors", "bytes_in", "bytes_out", "memo.hit",
            "memo.miss"] + [
    f"passthrough.{r}" for r in PASSTHROUGH_REASONS
]


def _delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {k.removeprefix(PREFIX): after[k] - before.get(k, 0) for k in after}


def test_all_counters_defined(envoy: Envoy) -> None:
    names = set(envoy.counters())
    assert names >= {PREFIX + c for c in COUNTERS}


@pytest.fixture(scope="module")
def metrics_envoy(envoys) -> Envoy:
    return envoys.get("metrics")


def test_counters_after_known_traffic(metrics_envoy: Envoy, page: str) -> None:
    envoy = metrics_envoy
    h1 = Proxy(envoy, "h1")
    path = "/" + page
    html = read_page(page)
    before = envoy.counters()
    hist_before = envoy.prometheus().get("markdown_conversion_us_count", 0.0)

    md = [h1.markdown(path), h1.markdown(path)]  # converted x2
    for r in md:
        assert_converted(r)
    head = h1.markdown(path, method="HEAD")  # converted (HEAD sends no body bytes)
    assert head.status == 200 and head.body == b""
    not_modified = h1.markdown(path, headers={"if-none-match": md[0].headers["etag"]})
    assert not_modified.status == 304
    expected_passthrough = {
        # Passes the Accept gate (mentions text/markdown), but prefers HTML.
        "not_requested": h1.request(path, accept="text/html, text/markdown;q=0.5"),
        "method": h1.markdown(path, method="POST"),
        "status": h1.markdown("/_test/status/404"),
        "content_type": h1.markdown(
            f"/_test/headers?file={quote(page)}&h={quote('Content-Type:text/plain')}"
        ),
        "no_transform": h1.markdown(path, headers={"cache-control": "no-transform"}),
        "range": h1.markdown(path, headers={"range": "bytes=0-9"}),
        "content_encoding": h1.markdown(f"/_test/encoding?file={quote(page)}&name=x-custom"),
        "over_cap": h1.markdown("/_test/large?mb=11"),
    }
    for reason, r in expected_passthrough.items():
        assert not r.headers.get("content-type", "").startswith("text/markdown"), reason
    # A browser's request never reaches the filter (the Accept gate): no counter moves.
    browser = h1.request(path, accept="text/html,application/xhtml+xml,*/*;q=0.8")
    assert browser.status == 200 and browser.body == html

    d = _delta(before, envoy.counters())
    assert d["converted"] == 3
    assert d["not_modified"] == 1
    assert d["errors"] == 0
    for reason in PASSTHROUGH_REASONS:
        assert d[f"passthrough.{reason}"] == (1 if reason in expected_passthrough else 0), reason
    # Each response is counted exactly once.
    responses = 3 + 1 + len(expected_passthrough)
    passthrough = sum(d[f"passthrough.{r}"] for r in PASSTHROUGH_REASONS)
    assert d["converted"] + d["not_modified"] + passthrough == responses
    # Bytes: HTML fed to the engine (2 GETs, the HEAD, the 304) and Markdown bodies sent.
    assert d["bytes_in"] == 4 * len(html)
    assert d["bytes_out"] == sum(len(r.body) for r in md)

    # Prometheus exposes the same counters, and the histogram once Envoy flushes it (5 s).
    prom = envoy.prometheus()
    after_json = envoy.counters()
    assert prom["markdown_converted"] == after_json[PREFIX + "converted"]
    assert prom["markdown_passthrough_over_cap"] == after_json[PREFIX + "passthrough.over_cap"]
    deadline = time.monotonic() + 15
    while True:
        count = envoy.prometheus().get("markdown_conversion_us_count", 0.0) - hist_before
        if count >= d["memo.miss"] or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    # One timing per engine run. The two GETs, the HEAD and the 304 are one page: the first
    # is converted, the others (on the same connection, so the same worker's memo) are
    # served from the memo.
    assert d["memo.miss"] + d["memo.hit"] == 4
    assert d["memo.miss"] >= 1 and d["memo.hit"] >= 1
    assert count == d["memo.miss"]
    h1.close()
