"""Session fixtures: two origins, Envoy instances (func-e) derived from envoy/envoy.yaml, clients.

Envoy instances are started lazily and shared by every test of the session:

    default  envoy/envoy.yaml as shipped (plugin config `{}` = all defaults)
    metrics  the same, used only by the metrics test so its counts are exactly its traffic
    custom   non-default options (see CUSTOM_CONFIG), without the Accept gate
    off      conditional "off"
    trap     the test-trap build, concurrency 1 (failure_policy tests)
    cache    envoy/envoy.cache.yaml (HTTP cache in front of the filter; test_cache.py only)
    routevary  Vary from route `other` instead of markdown.vary (test_route_vary.py only)

On a failing test the tail of every running Envoy's log is attached to the report.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import harness
from harness import Envoy, MdConvert, Origins, Proxy

CUSTOM_CONFIG = {
    "content_types": ["text/html"],
    "accept_wildcard": True,
    "conditional": "ims_only",
    "head": "passthrough",
    "content_signal": "search=yes, ai-input=yes, ai-train=no",
    "tokens_header": "x-md-tokens",
    "vary_on_passthrough": False,
    # Small cap so a buffered (length-less) or decoded body crosses it without a huge page.
    "max_body_bytes": 512 * 1024,
    # Every request converted (test_memo.py checks the memo is really off).
    "memo_bytes": 0,
}
OFF_CONFIG = {"conditional": "off"}

_running: dict[str, Envoy] = {}


@pytest.fixture(scope="session")
def workdir() -> Iterator[Path]:
    d = harness.make_workdir()
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="session")
def artifacts() -> None:
    missing = harness.missing_artifacts([harness.WASM, harness.ORIGIN_BIN, harness.MD_CONVERT])
    if missing:
        pytest.fail(f"missing build artifacts {missing}: run `make build` first", pytrace=False)
    harness.envoy_path()
    harness.func_e_path()


@pytest.fixture(scope="session")
def origins(workdir: Path, artifacts: None) -> Iterator[Origins]:
    o = Origins(workdir)
    try:
        yield o.start()
    finally:
        o.stop()


class Envoys:
    """Starts each named Envoy instance on first use; stops them all at session end."""

    def __init__(self, workdir: Path, origins: Origins):
        self.workdir = workdir
        self.origins = origins

    def get(self, name: str) -> Envoy:
        if name in _running:
            return _running[name]
        kw: dict = {}
        if name == "custom":
            # accept_wildcard converts for */*, which the Accept gate would keep away from
            # the filter: without the gate, as docs/DEPLOYMENT.md says.
            kw.update(plugin_config=CUSTOM_CONFIG, gate=False)
        elif name == "off":
            kw["plugin_config"] = OFF_CONFIG
        elif name == "trap":
            missing = harness.missing_artifacts([harness.TRAP_WASM])
            if missing:
                pytest.fail(f"missing {missing}: run `make wasm-trap` first", pytrace=False)
            # One worker = one VM, so "after the trap" always means the trapped VM.
            kw.update(wasm=harness.TRAP_WASM, concurrency=1)
        elif name == "cache":
            kw["base"] = harness.CACHE_YAML
        elif name == "routevary":
            # The alternative of docs/DEPLOYMENT.md, "The Accept gate".
            kw["route_vary"] = True
        elif name not in ("default", "metrics"):
            raise KeyError(name)
        envoy = Envoy(name, self.workdir, self.origins.ports, **kw)
        _running[name] = envoy
        envoy.start()
        return envoy

    def stop_all(self) -> None:
        for envoy in _running.values():
            envoy.stop()
        _running.clear()


@pytest.fixture(scope="session")
def envoys(workdir: Path, origins: Origins) -> Iterator[Envoys]:
    e = Envoys(workdir, origins)
    try:
        yield e
    finally:
        e.stop_all()


@pytest.fixture(scope="session")
def envoy(envoys: Envoys) -> Envoy:
    return envoys.get("default")


@pytest.fixture(scope="session", params=harness.PROTOCOLS)
def proxy(request: pytest.FixtureRequest, envoy: Envoy) -> Iterator[Proxy]:
    """The default Envoy over HTTP/1.1, h2c (prior knowledge) and h2 over TLS (ALPN)."""
    p = Proxy(envoy, request.param)
    yield p
    p.close()


@pytest.fixture(scope="session")
def h1(envoy: Envoy) -> Iterator[Proxy]:
    """The default Envoy over HTTP/1.1 only, for tests where the protocol is not the point."""
    p = Proxy(envoy, "h1")
    yield p
    p.close()


@pytest.fixture(scope="session")
def custom(envoys: Envoys) -> Iterator[Proxy]:
    p = Proxy(envoys.get("custom"), "h1")
    yield p
    p.close()


@pytest.fixture(scope="session")
def off(envoys: Envoys) -> Iterator[Proxy]:
    p = Proxy(envoys.get("off"), "h1")
    yield p
    p.close()


@pytest.fixture(scope="session")
def md_convert(workdir: Path, artifacts: None) -> MdConvert:
    return MdConvert(workdir)


@pytest.fixture(scope="session")
def page() -> str:
    """One representative UTF-8 corpus page (path relative to ORIGIN_ROOT), docs/ first."""
    pages = harness.corpus_pages()
    if not pages:
        pytest.fail(f"no HTML pages under {harness.CORPUS}", pytrace=False)

    def utf8(rel: str) -> bool:
        head = (harness.CORPUS / rel).read_bytes()[:2048].lower()
        return b"utf-8" in head or b"utf8" in head

    ranked = sorted(pages, key=lambda p: (not utf8(p), not p.startswith("docs/"), p))
    return ranked[0]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    rep = outcome.get_result()
    if rep.failed:
        for name, envoy in _running.items():
            state = "running" if envoy.alive() else f"exited {envoy.proc and envoy.proc.returncode}"
            rep.sections.append((f"envoy[{name}] log tail ({state})", envoy.log_tail(60)))
