"""What clients see when the Wasm VM traps, per Envoy 1.40 failure_policy.

Uses the `test-trap` build: a request with `x-markdown-test-trap: 1` panics inside the VM
(in on_request_headers). Instances run with one worker, so there is exactly one VM and
"after the trap" always means the trapped VM. Measured behaviour (Envoy 1.40, V8):

    policy        trapping request   later requests that pass the Accept gate
    FAIL_OPEN     503 (local reply)  200, original bytes, filter skipped until Envoy restarts
    FAIL_RELOAD   503                503 during the reload backoff (~1 s), then converted again
    FAIL_CLOSED   503                503 until Envoy restarts

Requests the Accept gate keeps away from the filter (no text/markdown in Accept: browsers)
are served normally under every policy: the filter is never created for them.
envoy.yaml ships FAIL_OPEN: the only policy under which no request after a trap is refused.
"""

from __future__ import annotations

import time

import pytest
import yaml

import harness
from checks import assert_converted, assert_passthrough
from harness import Envoy, Proxy, read_page

TRAP = {"x-markdown-test-trap": "1"}


def _shipped_policy() -> str:
    cfg = yaml.safe_load(harness.ENVOY_YAML.read_text())
    (policy,) = {pc.get("failure_policy") for pc in harness.wasm_filter_configs(cfg)}
    return policy


def test_shipped_policy_is_fail_open() -> None:
    assert _shipped_policy() == "FAIL_OPEN"


def test_after_a_trap_traffic_is_still_served(envoys, md_convert, page) -> None:
    """The shipped policy with the trap build: a trap never black-holes later traffic."""
    envoy = envoys.get("trap")
    p = Proxy(envoy, "h1")
    path = "/" + page
    try:
        assert_converted(p.markdown(path), md_convert(p.url(path), read_page(page)))

        trapped = p.markdown(path, headers=TRAP)
        assert trapped.status == 503  # Envoy's local reply for the stream whose VM died

        for _ in range(3):
            # Markdown no longer (the filter is skipped) but always the original bytes.
            assert_passthrough(p.markdown(path), read_page(page))
            assert_passthrough(p.request(path), read_page(page))
            assert_passthrough(p.request(path, headers=TRAP), read_page(page))
        assert envoy.alive()
        assert "panicked" in envoy.log_text()
    finally:
        p.close()


@pytest.mark.parametrize("policy", ["FAIL_RELOAD", "FAIL_CLOSED"])
def test_alternative_policies(workdir, origins, md_convert, page, policy) -> None:
    """Why not the others: both refuse requests after a trap (documented above)."""
    envoy = Envoy(
        f"trap-{policy}",
        workdir,
        origins.ports,
        wasm=harness.TRAP_WASM,
        failure_policy=policy,
        concurrency=1,
    )
    p = None
    try:
        envoy.start()
        p = Proxy(envoy, "h1")
        path = "/" + page
        expected = md_convert(p.url(path), read_page(page))
        assert_converted(p.markdown(path), expected)
        assert p.markdown(path, headers=TRAP).status == 503
        trapped_at = time.monotonic()
        right_after = p.markdown(path)
        if time.monotonic() - trapped_at < 0.5:  # well inside the 1 s reload backoff
            assert right_after.status == 503
        # The Accept gate keeps browsers away from the dead filter whatever the policy.
        assert_passthrough(p.request(path, accept="text/html"), read_page(page))
        if policy == "FAIL_CLOSED":
            time.sleep(1.5)
            assert p.markdown(path).status == 503
            assert p.request(path, accept="text/markdown;q=0, text/html").status == 503
            assert_passthrough(p.request(path), read_page(page))
        else:
            deadline = time.monotonic() + 15
            while (r := p.markdown(path)).status == 503 and time.monotonic() < deadline:
                time.sleep(0.25)
            assert_converted(r, expected)
    finally:
        if p is not None:
            p.close()
        envoy.stop()
