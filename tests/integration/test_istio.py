"""deploy/istio/'s EnvoyFilter manifests in a real Envoy shaped like a sidecar's inbound listener
(harness.istio_config): envoyfilter.yaml, whose filter comes over ECDS (served from a file here,
by istiod in a mesh), and envoyfilter-local.yaml, whose module is a file in the proxy container;
both with buffer-limits.yaml. Their Accept gate is a composite filter under a request matcher:
only requests that mention text/markdown create the markdown filter, so browsers never enter the
Wasm VM, and their HTML still gets Vary: Accept from markdown.vary. Over HTTP/1.1 and h2c (the
inbound listener sees plain HTTP: the mesh's mTLS ends before it).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from checks import assert_converted, assert_passthrough
from harness import ISTIO, Envoy, Proxy, read_page

MANIFESTS = {"ecds": ISTIO / "envoyfilter.yaml", "local": ISTIO / "envoyfilter-local.yaml"}
# The composite filter's counters (the inbound connection manager's stat prefix).
DELEGATED = "http.inbound_0.0.0.0_8080.composite.filter_delegation_success"

# What browsers and common clients send; none mentions text/markdown.
GATED = [
    None,
    "text/html",
    "*/*",
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
]


@pytest.fixture(scope="module", params=list(MANIFESTS))
def sidecar(request: pytest.FixtureRequest, workdir, origins) -> Iterator[Envoy]:
    envoy = Envoy(
        f"istio-{request.param}",
        workdir,
        origins.ports,
        istio=MANIFESTS[request.param],
        concurrency=1,
    )
    envoy.start()
    yield envoy
    envoy.stop()


@pytest.fixture(params=["h1", "h2c"])
def client(request: pytest.FixtureRequest, sidecar: Envoy) -> Iterator[Proxy]:
    p = Proxy(sidecar, request.param)
    yield p
    p.close()


def filter_state(envoy: Envoy) -> dict[str, int]:
    """How often the gate handed a request to the markdown filter, and the filter's counters."""
    c = envoy.counters("wasmcustom.markdown.")
    c[DELEGATED] = envoy.counters(DELEGATED).get(DELEGATED, 0)
    return c


def test_filter_config_source(sidecar: Envoy) -> None:
    """envoyfilter.yaml's filter arrives over ECDS and is accepted; envoyfilter-local.yaml's is
    inline (no ECDS subscription at all)."""
    prefix = "extension_config_discovery.http_filter.markdown-filter."
    ecds = sidecar.name.endswith("ecds")
    for name, want in (("config_reload", 1), ("update_rejected", 0)):
        assert sidecar.counters(prefix + name) == ({prefix + name: want} if ecds else {})


@pytest.mark.parametrize("accept", GATED)
def test_gated_request_never_reaches_the_filter(client, origins, page, accept) -> None:
    path = "/" + page
    before = filter_state(client.envoy)
    r = client.request(path, accept=accept)
    assert_passthrough(r, origins.get(path))
    assert r.body == read_page(page)
    # Vary: Accept, once, from markdown.vary: as the filter would have made it.
    assert r.tokens("vary").count("accept") == 1
    assert filter_state(client.envoy) == before


def test_gated_vary_only_on_200_html(client) -> None:
    not_found = client.request("/_test/status/404", accept="text/html")
    assert not_found.status == 404 and not_found.headers["content-type"].startswith("text/html")
    assert "accept" not in not_found.tokens("vary")


@pytest.mark.parametrize(
    "accept", ["text/markdown", "TEXT/MARKDOWN", "text/html;q=0.5, text/markdown"]
)
def test_markdown_request_is_converted(client, md_convert, page, accept) -> None:
    path = "/" + page
    before = filter_state(client.envoy)
    r = client.request(path, accept=accept)
    assert_converted(r, md_convert(client.url(path), read_page(page)))
    # The filter's own Vary, not a second one from markdown.vary.
    assert r.tokens("vary").count("accept") == 1
    assert r.headers["content-signal"] == "ai-train=no, search=yes, ai-input=yes"
    after = filter_state(client.envoy)
    assert after[DELEGATED] == before[DELEGATED] + 1
    key = "wasmcustom.markdown.converted"
    assert after[key] == before.get(key, 0) + 1


def test_markdown_in_a_second_accept_line_passes_the_gate(sidecar, md_convert, page) -> None:
    """The gate matches all Accept lines joined, as the filter reads them."""
    p = Proxy(sidecar, "h1")
    path = "/" + page
    try:
        with p.client.stream(
            "GET", p.url(path), headers=[("accept", "text/html"), ("accept", "text/markdown")]
        ) as resp:
            body = b"".join(resp.iter_raw())
            assert resp.status_code == 200
            assert resp.headers["content-type"] == "text/markdown; charset=utf-8"
    finally:
        p.close()
    assert body == md_convert(p.url(path), read_page(page)).markdown


def test_not_modified(client, page) -> None:
    path = "/" + page
    etag = client.markdown(path).headers["etag"]
    r = client.request(path, accept="text/markdown", headers={"if-none-match": etag})
    assert r.status == 304 and r.body == b""
    assert r.headers["etag"] == etag


def test_markdown_request_for_a_404_passes_through(client, origins) -> None:
    """Past the gate, the filter decides on the response: a 404 goes on untouched (no Vary from
    either filter) and is counted."""
    path = "/_test/status/404"
    before = filter_state(client.envoy)
    r = client.markdown(path)
    assert_passthrough(r, origins.get(path))
    assert "accept" not in r.tokens("vary")
    after = filter_state(client.envoy)
    key = "wasmcustom.markdown.passthrough.status"
    assert after[key] == before.get(key, 0) + 1
    assert after[DELEGATED] == before[DELEGATED] + 1


def test_large_page_within_buffer_limits(sidecar, md_convert) -> None:
    """A 1.2 MB page converts: buffer-limits.yaml keeps Envoy's own limit above the page."""
    p = Proxy(sidecar, "h1")
    path = "/large/bench-1200kb.html"
    try:
        r = p.markdown(path)
        assert_converted(r, md_convert(p.url(path), read_page(path.lstrip("/"))))
    finally:
        p.close()


def test_head_is_answered_like_get(client, page) -> None:
    """Through the composite filter the markdown filter still rewrites the request (HEAD is
    fetched as GET upstream) and answers with the GET's headers and no body."""
    path = "/" + page
    g = client.markdown(path)
    h = client.markdown(path, method="HEAD")
    assert h.status == 200 and h.body == b""
    for name in ("content-type", "content-length", "etag", "x-markdown-tokens"):
        assert h.headers.get(name) == g.headers.get(name), name


def test_compressed_origin_is_decoded_and_converted(client, md_convert, page) -> None:
    path = f"/_test/gzip?file={page}"
    r = client.markdown(path)
    assert_converted(r, md_convert(client.url(path), read_page(page)))
