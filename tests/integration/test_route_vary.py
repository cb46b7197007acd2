"""Route-level Vary: the alternative to markdown.vary of docs/DEPLOYMENT.md, "The Accept gate".

envoy/envoy.yaml without the markdown.vary filter; route `other` adds Vary: Accept to every
response (`response_headers_to_add`) instead of only to 200 HTML. Built by
harness.route_level_vary, which must produce exactly the routes of the section's YAML block,
so the doc and what is tested cannot drift apart. Over h1, h2c and h2+TLS.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import quote

import pytest
import yaml

import harness
from checks import assert_converted, assert_passthrough
from harness import Proxy, read_page

DEPLOYMENT = harness.REPO / "docs" / "DEPLOYMENT.md"


def doc_routes() -> list[dict]:
    """The `routes:` YAML block of DEPLOYMENT.md's "The Accept gate" section (exactly one)."""
    text = DEPLOYMENT.read_text()
    start = text.index("\n### The Accept gate\n")
    section = re.split(r"^##", text[start + 1 :], flags=re.M)[1]
    blocks = re.findall(r"^```yaml\n(.*?)^```$", section, re.M | re.S)
    routes = [b for b in blocks if b.startswith("routes:")]
    assert len(routes) == 1, f"want one ```yaml block starting `routes:`, found {len(routes)}"
    return yaml.safe_load(routes[0])["routes"]


def built() -> dict:
    """envoy/envoy.yaml turned into the alternative by the harness (as the suite runs it)."""
    cfg = yaml.safe_load(harness.ENVOY_YAML.read_text())
    harness.route_level_vary(cfg)
    return cfg


@pytest.fixture(scope="module", params=harness.PROTOCOLS)
def rv(request: pytest.FixtureRequest, envoys) -> Iterator[Proxy]:
    p = Proxy(envoys.get("routevary"), request.param)
    yield p
    p.close()


def counters(rv: Proxy) -> dict[str, int]:
    return rv.envoy.counters()


def test_doc_block_is_what_the_harness_builds() -> None:
    cfg = built()
    (rc,) = harness.route_configs(cfg)
    (vh,) = rc["virtual_hosts"]
    assert vh["routes"] == doc_routes()
    # And it is the alternative: Vary on `other`, no markdown.vary anywhere.
    assert harness.VARY_FILTER not in yaml.safe_dump(cfg)
    (other,) = [r for r in vh["routes"] if r["name"] == "other"]
    assert other["response_headers_to_add"] == harness.ROUTE_VARY
    assert other["typed_per_filter_config"]["markdown"]["disabled"] is True


def test_config_validates(workdir, artifacts) -> None:
    cfg = harness.derive_config(
        http_port=harness.free_port(),
        https_port=harness.free_port(),
        admin_port=harness.free_port(),
        origin_ports=[harness.free_port(), harness.free_port()],
        route_vary=True,
    )
    r = harness.validate_config(harness.write_config(cfg, workdir / "routevary-validate.yaml"))
    assert r.returncode == 0, r.stdout[-3000:]
    assert "OK" in r.stdout.splitlines()[-1]


@pytest.mark.parametrize("accept", [None, "text/html", "*/*"])
def test_gated_html_varies_on_accept_once(rv, origins, page, accept) -> None:
    path = "/" + page
    before = counters(rv)
    r = rv.request(path, accept=accept)
    assert_passthrough(r, origins.get(path))
    assert r.body == read_page(page)
    assert r.tokens("vary").count("accept") == 1
    # Gated: the markdown filter never ran.
    assert counters(rv) == before


def test_every_gated_response_varies_on_accept(rv, page) -> None:
    """The documented trade-off: not only 200 HTML, every response of route `other`."""
    before = counters(rv)
    not_found = rv.request("/_test/status/404", accept="text/html")
    assert not_found.status == 404
    image = rv.request(
        f"/_test/headers?file={quote(page)}&h={quote('Content-Type:image/png')}", accept="image/*"
    )
    assert image.status == 200 and image.headers["content-type"] == "image/png"
    text = rv.request(
        f"/_test/headers?file={quote(page)}&h={quote('Content-Type:text/plain')}", accept="*/*"
    )
    assert text.status == 200 and text.headers["content-type"] == "text/plain"
    for r in (not_found, image, text):
        assert r.tokens("vary").count("accept") == 1, r.headers
    assert counters(rv) == before


def test_origin_vary_is_kept(rv, page) -> None:
    """Accept is appended to the origin's Vary, on HTML and non-HTML alike."""
    for ct in ("text/html", "application/json"):
        h = f"h={quote('Vary:Cookie')}&h={quote('Content-Type:' + ct)}"
        r = rv.request(f"/_test/headers?file={quote(page)}&{h}", accept="text/html")
        assert r.status == 200 and r.headers["content-type"] == ct
        assert r.tokens("vary").count("cookie") == 1, r.headers
        assert r.tokens("vary").count("accept") == 1, r.headers
    gz = rv.request(
        f"/_test/gzip?file={quote(page)}", accept="text/html", headers={"accept-encoding": "gzip"}
    )
    assert gz.status == 200 and gz.headers["content-encoding"] == "gzip"
    assert gz.tokens("vary").count("accept-encoding") == 1, gz.headers
    assert gz.tokens("vary").count("accept") == 1, gz.headers


@pytest.mark.parametrize("accept", ["text/markdown", "text/html;q=0.5, Text/Markdown"])
def test_markdown_still_converts_with_one_vary(rv, md_convert, page, accept) -> None:
    path = "/" + page
    before = counters(rv)["wasmcustom.markdown.converted"]
    r = rv.request(path, accept=accept)
    assert_converted(r, md_convert(rv.url(path), read_page(page)))
    # The filter's own Vary; the route header is on `other` only.
    assert r.tokens("vary").count("accept") == 1
    assert counters(rv)["wasmcustom.markdown.converted"] == before + 1


def test_markdown_route_keeps_the_filters_vary(rv, page) -> None:
    """Past the gate, not converted: Vary only where the filter puts it (vary_on_passthrough,
    convertible HTML), once; the route header is on `other` only."""
    not_found = rv.request("/_test/status/404", accept="text/markdown")
    assert not_found.status == 404
    assert "accept" not in not_found.tokens("vary")
    before = counters(rv)["wasmcustom.markdown.passthrough.not_requested"]
    html = rv.request("/" + page, accept="text/markdown;q=0, text/html")
    assert html.status == 200 and html.headers["content-type"].startswith("text/html")
    assert html.tokens("vary").count("accept") == 1
    assert counters(rv)["wasmcustom.markdown.passthrough.not_requested"] == before + 1
