"""The Accept gate of envoy/envoy.yaml (routes `markdown` / `other`, filter `markdown.vary`).

Requests whose Accept header does not mention text/markdown take the `other` route, where the
markdown filter is disabled: Envoy never creates it, so no VM call, no counter, no access-log
field. Their 200 HTML still gets Vary: Accept (from markdown.vary), so shared caches keep the
variants apart exactly as when the filter itself adds it. Requests that mention text/markdown
reach the filter, which negotiates as before. Over h1, h2c and h2+TLS (the `proxy` fixture).
"""

from __future__ import annotations

from urllib.parse import quote

import pytest

from checks import assert_converted, assert_passthrough
from harness import PASSTHROUGH_REASONS, Envoy, read_page

# What browsers and common clients send; none mentions text/markdown.
GATED = [
    None,
    "text/html",
    "*/*",
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
    "text/*",
    "application/markdown",
]


def counters(envoy: Envoy) -> dict[str, int]:
    names = ["converted", "not_modified", "errors"] + [
        f"passthrough.{r}" for r in PASSTHROUGH_REASONS
    ]
    c = envoy.counters()
    return {n: c[f"wasmcustom.markdown.{n}"] for n in names}


@pytest.mark.parametrize("accept", GATED)
def test_gated_request_never_reaches_the_filter(proxy, origins, page, accept) -> None:
    path = "/" + page
    before = counters(proxy.envoy)
    r = proxy.request(path, accept=accept)
    assert_passthrough(r, origins.get(path))
    assert r.body == read_page(page)
    # The 200 HTML varies on Accept, once, as the filter would have made it.
    assert r.tokens("vary").count("accept") == 1
    assert counters(proxy.envoy) == before


def test_gated_vary_only_on_200_html(proxy, origins, page) -> None:
    """markdown.vary adds Vary: Accept where the filter would (200 HTML), nowhere else."""
    not_found = proxy.request("/_test/status/404", accept="text/html")
    assert not_found.status == 404 and not_found.headers["content-type"].startswith("text/html")
    text = proxy.request(
        f"/_test/headers?file={quote(page)}&h={quote('Content-Type:text/plain')}", accept="*/*"
    )
    assert text.status == 200 and text.headers["content-type"] == "text/plain"
    xhtml = proxy.request(
        f"/_test/headers?file={quote(page)}&h={quote('Content-Type:application/xhtml+xml')}",
        accept="*/*",
    )
    assert xhtml.status == 200
    assert "accept" not in not_found.tokens("vary")
    assert "accept" not in text.tokens("vary")
    assert "accept" in xhtml.tokens("vary")


@pytest.mark.parametrize(
    "accept",
    ["text/markdown", "TEXT/MARKDOWN", "text/html;q=0.5, Text/Markdown", "text/markdown;q=1"],
)
def test_mentioning_markdown_passes_the_gate(proxy, md_convert, page, accept) -> None:
    path = "/" + page
    r = proxy.request(path, accept=accept)
    assert_converted(r, md_convert(proxy.url(path), read_page(page)))
    # The filter's own Vary, not a second one from markdown.vary.
    assert r.tokens("vary").count("accept") == 1


def test_markdown_in_a_second_accept_line_passes_the_gate(h1, md_convert, page) -> None:
    """Envoy matches the route against all Accept lines joined, as the filter reads them."""
    path = "/" + page
    with h1.client.stream(
        "GET", h1.url(path), headers=[("accept", "text/html"), ("accept", "text/markdown")]
    ) as resp:
        body = b"".join(resp.iter_raw())
        assert resp.status_code == 200
        assert resp.headers["content-type"] == "text/markdown; charset=utf-8"
    assert body == md_convert(h1.url(path), read_page(page)).markdown


@pytest.mark.parametrize("accept", ["text/markdown;q=0, text/html", "text/markdownish"])
def test_mentioning_markdown_but_not_selecting_it_is_counted(proxy, page, accept) -> None:
    """Past the gate (a substring match) the filter negotiates as before: not converted,
    counted as not_requested, with Vary."""
    before = counters(proxy.envoy)
    r = proxy.request("/" + page, accept=accept)
    assert r.headers["content-type"].startswith("text/html")
    assert r.tokens("vary").count("accept") == 1
    after = counters(proxy.envoy)
    assert {k: after[k] - before[k] for k in after if after[k] != before[k]} == {
        "passthrough.not_requested": 1
    }
