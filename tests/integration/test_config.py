"""Plugin configuration: validation at load, and the non-default options in real Envoy."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

import harness
from checks import assert_converted, assert_passthrough
from conftest import CUSTOM_CONFIG
from harness import Envoy, Proxy, read_page


def test_demo_config_validates() -> None:
    """envoy/envoy.yaml as shipped (relative paths, run from the repo root) is valid."""
    if not (harness.CERTS / "server.crt").is_file():
        pytest.fail("envoy/certs missing: run scripts/setup.sh", pytrace=False)
    r = harness.validate_config(harness.ENVOY_YAML.relative_to(harness.REPO))
    assert r.returncode == 0, r.stdout[-3000:]
    assert "OK" in r.stdout.splitlines()[-1]


BAD = [
    ({"nope": 1}, "nope"),
    ({"max_body_bytes": 0}, "max_body_bytes"),
    ({"max_body_bytes": 1073741825}, "max_body_bytes"),
    ({"max_body_bytes": "10MB"}, "max_body_bytes"),
    ({"conditional": "sometimes"}, "conditional"),
    ({"head": "get"}, "head"),
    ({"accept_wildcard": "yes"}, "accept_wildcard"),
    ({"content_types": "text/html"}, "content_types"),
    ({"content_signal": "ai-train=no\r\nx-injected: 1"}, "content_signal"),
    ({"tokens_header": "bad header"}, "tokens_header"),
    ({"front_matter": 1}, "front_matter"),
    ({"memo_bytes": -1}, "memo_bytes"),
]


def _bad_config_path(workdir, plugin_config, name: str):
    cfg = harness.derive_config(
        http_port=harness.free_port(),
        https_port=harness.free_port(),
        admin_port=harness.free_port(),
        origin_ports=[1, 2],
        plugin_config=plugin_config,
    )
    return harness.write_config(cfg, workdir / f"bad-{name}.yaml")


@pytest.mark.parametrize(
    ("plugin_config", "key"), BAD, ids=[k + "-" + json.dumps(c[k]) for c, k in BAD]
)
def test_bad_plugin_config_rejected_by_validate(workdir, artifacts, plugin_config, key) -> None:
    path = _bad_config_path(workdir, plugin_config, key)
    r = harness.validate_config(path)
    assert r.returncode != 0, r.stdout[-2000:]
    assert f"markdown-filter: invalid configuration: {key}:" in r.stdout


def test_malformed_json_rejected_by_validate(workdir, artifacts) -> None:
    r = harness.validate_config(_bad_config_path(workdir, '{"head": ', "json"))
    assert r.returncode != 0
    assert "markdown-filter: invalid configuration" in r.stdout


def test_bad_plugin_config_refused_at_startup(workdir, origins) -> None:
    envoy = Envoy("bad-startup", workdir, origins.ports, plugin_config={"max_body_bytes": -1})
    try:
        envoy.start(expect_ready=False)
        code = envoy.wait_exit(60)
        assert code is not None and code != 0, "Envoy started with an invalid plugin config"
        assert "markdown-filter: invalid configuration: max_body_bytes:" in envoy.log_text()
    finally:
        envoy.stop()


# --- the `custom` instance (see conftest.CUSTOM_CONFIG) -----------------------------------


def test_content_signal_and_tokens_header(custom: Proxy, md_convert, page) -> None:
    path = "/" + page
    r = custom.markdown(path)
    assert r.headers["content-type"] == harness.MARKDOWN_CT
    ref = md_convert(custom.url(path), read_page(page))
    assert r.body == ref.markdown
    assert r.headers["x-md-tokens"] == str(ref.tokens)
    assert r.headers["content-signal"] == CUSTOM_CONFIG["content_signal"]
    assert r.headers["x-md-tokens"].isdigit()
    assert "x-markdown-tokens" not in r.headers


def test_no_content_signal_by_default(h1: Proxy, page) -> None:
    r = h1.markdown("/" + page)
    assert_converted(r)
    assert "content-signal" not in r.headers


def test_accept_wildcard_option(custom: Proxy, h1: Proxy, page) -> None:
    assert custom.request("/" + page, accept="*/*").headers["content-type"] == harness.MARKDOWN_CT
    assert (
        custom.request("/" + page, accept="text/*").headers["content-type"] == harness.MARKDOWN_CT
    )
    # Markdown still must not lose to HTML.
    r = custom.request("/" + page, accept="text/html, */*;q=0.5")
    assert r.headers["content-type"].startswith("text/html")
    assert h1.request("/" + page, accept="*/*").headers["content-type"].startswith("text/html")


def test_content_types_option(custom: Proxy, h1: Proxy, origins, page) -> None:
    path = f"/_test/headers?file={quote(page)}&h={quote('Content-Type:application/xhtml+xml')}"
    assert_passthrough(custom.markdown(path), origins.get(path))
    assert h1.markdown(path).headers["content-type"] == harness.MARKDOWN_CT


def test_head_passthrough_option(custom: Proxy, origins, page) -> None:
    path = "/" + page
    r = custom.markdown(path, method="HEAD")
    direct = origins.get(path, method="HEAD")
    assert r.status == 200 and r.body == b""
    assert r.headers["content-type"] == direct.headers["content-type"]
    assert r.headers["content-length"] == direct.headers["content-length"]


def test_vary_on_passthrough_disabled(custom: Proxy, page) -> None:
    r = custom.request("/" + page)
    assert r.headers["content-type"].startswith("text/html")
    assert "accept" not in r.tokens("vary")
    # Converted responses still vary on Accept.
    assert "accept" in custom.markdown("/" + page).tokens("vary")


def test_ims_only_mode(custom: Proxy, origins, page) -> None:
    path = "/" + page
    r = custom.markdown(path)
    assert r.headers["content-type"] == harness.MARKDOWN_CT
    # No Markdown ETag (and not the HTML's either).
    assert "etag" not in r.headers
    # If-None-Match is the origin's business in this mode: forwarded, never answered by us.
    echo = custom.markdown("/_test/echo-headers.html", headers={"if-none-match": '"x"'})
    assert b'if-none-match: "x"' in echo.body.lower()
    # If-Modified-Since goes upstream; the origin's 304 passes through with Vary: Accept.
    lm = origins.get(path).headers["last-modified"]
    not_modified = custom.markdown(path, headers={"if-modified-since": lm})
    assert not_modified.status == 304 and not_modified.body == b""
    assert "accept" in not_modified.tokens("vary")


# --- the `off` instance: conditional "off" ---------------------------------------------


def test_conditional_off_mode(off: Proxy, md_convert, page) -> None:
    path = "/" + page
    ref = md_convert(off.url(path), read_page(page))
    r = off.markdown(path)
    assert_converted(r, ref)
    # The Markdown ETag is sent but the filter never answers 304 itself; the request goes
    # upstream unchanged (the origin's HTML ETag does not match), so a full 200 comes back.
    again = off.markdown(path, headers={"if-none-match": r.headers["etag"]})
    assert_converted(again, ref)
    echo = off.markdown("/_test/echo-headers.html", headers={"if-none-match": '"x"'})
    assert b'if-none-match: "x"' in echo.body.lower()


def test_client_cannot_change_base_url_scheme(h1: Proxy, md_convert, page) -> None:
    """Envoy is the edge (use_remote_address): X-Forwarded-Proto from a client is replaced,
    so links resolve against the scheme the client really used."""
    path = "/" + page
    r = h1.markdown(path, headers={"x-forwarded-proto": "https"})
    assert_converted(r, md_convert(h1.url(path), read_page(page)))
