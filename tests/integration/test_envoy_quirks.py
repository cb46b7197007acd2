"""Envoy 1.40 behaviours that shaped envoy/envoy.yaml, demonstrated on variants of it.

Each test starts an Envoy whose config differs from the shipped one in exactly one place and
shows what goes wrong; if one of these starts failing after an Envoy upgrade, the reason for
that part of the config is gone and the config (and its comment) can be revisited.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

import httpx
import pytest

import harness
from checks import assert_converted
from harness import Envoy, Proxy

STALL = httpx.Timeout(3.0, connect=2.0)
DECOMPRESSOR = "type.googleapis.com/envoy.extensions.filters.http.decompressor.v3.Decompressor"
GZIP_DECOMPRESSOR = "type.googleapis.com/envoy.extensions.compression.gzip.decompressor.v3.Gzip"


def _variant(workdir, origins, name: str, mutate: Callable[[dict], None]) -> Envoy:
    envoy = Envoy(name, workdir, origins.ports)
    mutate(envoy.cfg)
    harness.write_config(envoy.cfg, envoy.config_path)
    return envoy.start()


def _insert_decompressor(cfg: dict) -> None:
    for filters in harness.http_filter_chains(cfg):
        router = next(i for i, f in enumerate(filters) if f["name"] == "envoy.filters.http.router")
        filters.insert(
            router,
            {
                "name": "envoy.filters.http.decompressor",
                "typed_config": {
                    "@type": DECOMPRESSOR,
                    "decompressor_library": {
                        "name": "gzip",
                        "typed_config": {
                            "@type": GZIP_DECOMPRESSOR,
                        },
                    },
                },
            },
        )


def _disallow_headers_stop(cfg: dict) -> None:
    for pc in harness.wasm_filter_configs(cfg):
        pc["allow_on_headers_stop_iteration"] = False


def _small_listener_buffers(cfg: dict) -> None:
    for listener in cfg["static_resources"]["listeners"]:
        listener["per_connection_buffer_limit_bytes"] = 2 * 1024 * 1024


@pytest.mark.parametrize(
    ("name", "mutate", "stalls"),
    [
        # A decompressor behind the filter adds trailers the buffering filter never receives
        # (envoyproxy/envoy#29879): compressed responses stall. Hence no decompressor.
        ("decompressor", _insert_decompressor, "/_test/gzip?file={page}"),
        # Without allow_on_headers_stop_iteration the paused response never continues.
        ("no-headers-stop", _disallow_headers_stop, "/{page}"),
    ],
)
def test_config_variant_stalls(workdir, origins, page, name, mutate, stalls) -> None:
    envoy = _variant(workdir, origins, name, mutate)
    p = Proxy(envoy, "h1")
    p.client.timeout = STALL
    try:
        with pytest.raises(httpx.ReadTimeout):
            p.markdown(stalls.format(page=quote(page)))
    finally:
        p.close()
        envoy.stop()


def test_listener_buffer_below_cap_turns_into_500(workdir, origins, md_convert, page) -> None:
    """Listener buffers smaller than the cap: Envoy answers 500 for pages the filter holds
    (a 5 MiB page under the 10 MiB cap), which is why the listeners allow 16 MiB."""
    envoy = _variant(workdir, origins, "small-buffers", _small_listener_buffers)
    p = Proxy(envoy, "h1")
    try:
        assert p.markdown("/_test/large?mb=5").status == 500
        # Small pages are fine, so it is the limit and nothing else.
        assert_converted(
            p.markdown("/" + page), md_convert(p.url("/" + page), harness.read_page(page))
        )
    finally:
        p.close()
        envoy.stop()
