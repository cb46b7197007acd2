"""The access log of envoy/envoy.yaml: one JSON line per request on stdout, with what the
filter did and why (filter state the filter sets with proxy-wasm `set_property`, printed
with `%FILTER_STATE(wasm.markdown.<field>:PLAIN)%`).

    markdown            converted | not_modified | passthrough:<reason>
                        (null when the Accept gate kept the filter out of the request)
    markdown_bytes_in   HTML bytes the engine read      (only when the engine ran)
    markdown_bytes_out  Markdown body bytes sent        (only when the engine ran; 0 for HEAD/304)
    markdown_us         conversion time, microseconds   (only when the engine ran)

Absent fields are JSON null. Each request gets a unique query marker so that its line can be
found among the lines of every other test sharing the default Envoy.
"""

from __future__ import annotations

import uuid
from urllib.parse import quote

import httpx
import pytest

from checks import assert_converted
from harness import Envoy, Proxy, read_page

ENGINE_FIELDS = ("markdown_bytes_in", "markdown_bytes_out", "markdown_us")


@pytest.fixture(scope="module")
def logged(envoy: Envoy, h1: Proxy, page: str) -> dict[str, tuple[dict, object]]:
    """One request of each kind, then their access-log lines: {kind: (line, response)}."""
    run = uuid.uuid4().hex
    html = read_page(page)

    def path(kind: str, base: str = "/" + page) -> str:
        sep = "&" if "?" in base else "?"
        return f"{base}{sep}alog={run}-{kind}"

    responses: dict[str, object] = {}
    responses["converted"] = h1.markdown(path("converted"))
    etag = responses["converted"].headers["etag"]
    responses["not_modified"] = h1.markdown(path("not_modified"),
                                            headers={"if-none-match": etag})
    responses["head"] = h1.markdown(path("head"), method="HEAD")
    # Mentions text/markdown (so it passes the Accept gate) but prefers HTML.
    responses["not_requested"] = h1.request(path("not_requested"),
                                            headers={"accept": "text/html, text/markdown;q=0.5"})
    # Does not mention it: the Accept gate keeps the filter out of this request entirely.
    responses["gated"] = h1.request(path("gated"), headers={"accept": "text/html"})
    responses["over_cap"] = h1.markdown(path("over_cap", "/_test/large?mb=11"))
    responses["status"] = h1.markdown(path("status", "/_test/status/404"))
    # The origin resets the stream half way through the body the filter is buffering.
    try:
        responses["reset"] = h1.markdown(path("reset", f"/_test/reset?file={quote(page)}"))
    except httpx.HTTPError as e:  # Envoy may reset the client stream instead of a 502
        responses["reset"] = e
    # The client gives up while the filter is still buffering a slowly dripping body: the
    # outcome is then set from the filter's on_log callback, as Envoy finishes the stream.
    with httpx.Client(timeout=httpx.Timeout(1.0)) as impatient:
        drip = f"/_test/drip?file={quote(page)}&chunk=1000&delay_ms=200"
        try:
            impatient.get(h1.url(path("client_gone", drip)),
                          headers={"accept": "text/markdown", "accept-encoding": "identity"})
            responses["client_gone"] = "answered"
        except httpx.TimeoutException as e:
            responses["client_gone"] = e
    responses["_html"] = html

    lines = envoy.access_log(f"alog={run}-", count=9)
    by_kind: dict[str, tuple[dict, object]] = {}
    for line in lines:
        kind = str(line["path"]).rsplit(f"alog={run}-", 1)[1]
        assert kind not in by_kind, f"two access-log lines for {kind}: {line}"
        by_kind[kind] = (line, responses[kind])
    assert set(by_kind) == {k for k in responses if not k.startswith("_")}, lines
    by_kind["_html"] = ({}, html)
    return by_kind


def test_converted_line_has_sizes_and_time(logged) -> None:
    line, r = logged["converted"]
    assert_converted(r)
    html = logged["_html"][1]
    assert line["status"] == 200
    assert line["markdown"] == "converted"
    assert line["markdown_bytes_in"] == str(len(html))
    assert line["markdown_bytes_out"] == str(len(r.body)) == r.headers["content-length"]
    assert line["markdown_us"].isdigit() and int(line["markdown_us"]) > 0
    assert line["method"] == "GET" and line["accept"] == "text/markdown"


def test_304_line_sent_no_bytes(logged) -> None:
    line, r = logged["not_modified"]
    assert r.status == 304
    assert line["status"] == 304
    assert line["markdown"] == "not_modified"
    assert line["markdown_bytes_in"] == str(len(logged["_html"][1]))
    assert line["markdown_bytes_out"] == "0"
    assert line["markdown_us"].isdigit()


def test_head_line_is_a_conversion_logged_as_the_forwarded_get(logged) -> None:
    line, r = logged["head"]
    assert r.status == 200 and r.body == b""
    assert line["markdown"] == "converted"
    assert line["markdown_bytes_out"] == "0"
    # The filter forwards HEAD as GET; Envoy logs the request headers as forwarded.
    assert line["method"] == "GET"


@pytest.mark.parametrize(
    "kind,reason,status",
    [
        ("not_requested", "not_requested", 200),
        ("over_cap", "over_cap", 200),
        ("status", "status", 404),
    ],
)
def test_passthrough_lines_name_the_reason(logged, kind: str, reason: str, status: int) -> None:
    line, r = logged[kind]
    assert r.status == status
    assert not r.headers.get("content-type", "").startswith("text/markdown")
    assert line["status"] == status
    assert line["markdown"] == f"passthrough:{reason}"
    for field in ENGINE_FIELDS:
        assert line[field] is None, field


def test_gated_request_has_no_markdown_fields(logged) -> None:
    """The filter never ran (the Accept gate): nothing of it in the line, the HTML as sent."""
    line, r = logged["gated"]
    assert r.status == 200 and r.body == logged["_html"][1]
    assert "accept" in r.tokens("vary")
    assert line["status"] == 200 and line["accept"] == "text/html"
    for field in ("markdown", *ENGINE_FIELDS):
        assert line[field] is None, field


def test_upstream_reset_while_buffering_is_logged_as_error(logged) -> None:
    line, _ = logged["reset"]
    assert line["markdown"] == "passthrough:error"
    assert "UPE" in line["flags"] or line["status"] >= 500, line
    for field in ENGINE_FIELDS:
        assert line[field] is None, field


def test_client_gone_while_buffering_is_logged_as_error(logged) -> None:
    line, outcome = logged["client_gone"]
    assert isinstance(outcome, httpx.TimeoutException), "the drip finished within 1 s"
    assert line["markdown"] == "passthrough:error"
    assert "DC" in line["flags"], line  # downstream connection termination
    assert line["bytes_sent"] == 0
