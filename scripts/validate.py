#!/usr/bin/env python3
"""Validate every deployment configuration the project ships. Run by `make validate`.

    .venv/bin/python scripts/validate.py [--envoy PATH] [--wasm PATH]

Checks, all of which must pass (exit 1 with one line per problem otherwise):

1. Every YAML file shipped for deployment parses: docker-compose.yml, envoy/*.yaml,
   deploy/**/*.yaml.
2. The real Envoy (`envoy --mode validate`, the binary scripts/envoy-path.sh finds) accepts:
   - envoy/envoy.yaml, as shipped (run from the repository root, relative paths);
   - envoy/envoy.compose.yaml, with each in-container path (the wasm module, the certificate)
     mapped back to the host file that docker-compose.yml mounts there;
   - the Envoy fragments of every Istio EnvoyFilter under deploy/istio/, wrapped into a minimal
     bootstrap that stands in for the sidecar's inbound listener: the HTTP filter inserted before
     the router, its ECDS reference resolved to the EXTENSION_CONFIG of the same name, a remote
     module replaced by the local build (what istio-agent does after fetching it), an
     in-container module path replaced by the local build, and the LISTENER patches merged in;
   - every Istio WasmPlugin, rendered the way Istio renders it (pluginConfig serialised to the
     filter's JSON configuration string, failStrategy as failure policy), so the plugin's strict
     configuration parser checks pluginConfig.
   - envoy/envoy.cache.yaml, as shipped;
   - deploy/envoy-gateway/, rendered into the listener Envoy Gateway generates for it: the Wasm
     filter disabled on the listener and enabled by a FilterConfig on the routes of the
     HTTPRoutes the EnvoyExtensionPolicy targets, the EnvoyPatchPolicy's JSONPath patch
     applied (it must select exactly the markdown filter), the ClientTrafficPolicy's buffer
     limit on the listener.
3. Cross-file consistency that Envoy cannot see:
   - envoy/envoy.compose.yaml differs from envoy/envoy.yaml only where a container needs it
     (addresses, file paths, how the origin cluster finds its endpoints);
   - docker-compose.yml: the services exist, every bind-mounted file or directory and every
     build context/Dockerfile exists, Envoy's config/module/certificates are all provided by
     mounts, the origin cluster names the origin services on the port they listen on, the
     published ports are the ones Envoy listens on, the Envoy image is the version validated
     here, k6 runs a script that exists and only under the `bench` profile;
   - deploy/: every Wasm filter config sets allow_on_headers_stop_iteration and FAIL_OPEN, the
     per-connection buffer limit stays above max_body_bytes + 1 MiB, all manifests select the
     same workloads, the WasmPlugin has a sha256 and FAIL_OPEN, the OCI Dockerfile is one layer
     holding plugin.wasm;
   - envoy/envoy.cache.yaml: the listener running the markdown filter keeps the Wasm settings,
     the buffer limit and no decompressor; its compressors, Wasm filter (but for the JSON
     configuration) and origin cluster equal envoy.yaml's; the cache is the last filter before
     the router, behind the compressors, and disabled on every route but the Accept-matching
     `markdown` one; cluster `markdown` points at the internal listener;
   - deploy/observability/: prometheus.yml scrapes /stats/prometheus on envoy.yaml's admin
     port; grafana-dashboard.json is valid JSON, every panel has a query, and the queries use
     only metrics docs/OBSERVABILITY.md documents.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
REL_WASM = "target/wasm32-wasip1/release/markdown_filter.wasm"

WASM_TYPE = "type.googleapis.com/envoy.extensions.filters.http.wasm.v3.Wasm"
HCM_NAME = "envoy.filters.network.http_connection_manager"
HCM_TYPE = (
    "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3."
    "HttpConnectionManager"
)
ROUTER_NAME = "envoy.filters.http.router"
ROUTER_TYPE = "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router"
STRING_VALUE_TYPE = "type.googleapis.com/google.protobuf.StringValue"
COMPOSITE_ACTION_TYPE = (
    "type.googleapis.com/envoy.extensions.filters.http.composite.v3.ExecuteFilterAction"
)

DEFAULT_MAX_BODY = 10 * 1024 * 1024  # the filter's max_body_bytes default
DEFAULT_CLUSTER_LIMIT = 1024 * 1024  # Envoy's default per_connection_buffer_limit_bytes
SHA256_HEX = re.compile(r"^[0-9a-f]{64}$")

COMPOSE_FILE = "docker-compose.yml"
REFERENCE = "envoy/envoy.yaml"
COMPOSE_ENVOY = "envoy/envoy.compose.yaml"
CACHE_ENVOY = "envoy/envoy.cache.yaml"
OBSERVABILITY = "deploy/observability"
OBSERVABILITY_DOC = "docs/OBSERVABILITY.md"


class Problems:
    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, where: str, msg: str) -> None:
        item = f"{where}: {msg}"
        if item not in self.items:  # a file loaded by two checks reports its error once
            self.items.append(item)

    def check(self, cond: bool, where: str, msg: str) -> bool:
        if not cond:
            self.add(where, msg)
        return cond


P = Problems()


def say(msg: str) -> None:
    print(f"validate: {msg}", flush=True)


# --- YAML ------------------------------------------------------------------------------------


def yaml_files() -> list[Path]:
    files = [ROOT / COMPOSE_FILE]
    files += sorted((ROOT / "envoy").glob("*.yaml"))
    files += sorted(p for p in (ROOT / "deploy").rglob("*") if p.suffix in (".yaml", ".yml"))
    return files


def load_docs(path: Path) -> list[Any]:
    """All documents of a YAML file ([] and a problem if it does not parse)."""
    rel = path.relative_to(ROOT)
    try:
        docs = [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
        # Through JSON: YAML aliases (&hcm / *hcm) become independent copies, so a rewrite of
        # one place never shows up in another; and what Envoy gets is plain JSON.
        docs = [json.loads(json.dumps(d, default=str)) for d in docs]
    except (OSError, yaml.YAMLError) as e:
        P.add(str(rel), f"does not parse as YAML: {e}")
        return []
    if not docs:
        P.add(str(rel), "is empty")
    return docs


def load_one(relpath: str) -> Any:
    docs = load_docs(ROOT / relpath)
    if len(docs) > 1:
        P.add(relpath, f"expected one YAML document, found {len(docs)}")
    return docs[0] if docs else None


# --- generic walks ---------------------------------------------------------------------------


def walk(node: Any, path: tuple = ()):
    """Yield (path, dict) for every mapping in a YAML tree."""
    if isinstance(node, dict):
        yield path, node
        for k, v in node.items():
            yield from walk(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, path + (i,))


def wasm_filters(node: Any):
    """Every Wasm HTTP filter config (the dict holding `config`) in a tree."""
    for _, d in walk(node):
        if d.get("@type") == WASM_TYPE:
            yield d


def check_wasm_config(where: str, wasm: dict) -> int:
    """Invariants of every Wasm filter the project ships; returns its max_body_bytes."""
    cfg = wasm.get("config") or {}
    P.check(
        cfg.get("allow_on_headers_stop_iteration") is True,
        where,
        "the Wasm filter must set allow_on_headers_stop_iteration: true "
        "(the filter pauses response headers)",
    )
    P.check(
        cfg.get("failure_policy") == "FAIL_OPEN",
        where,
        f"failure_policy must be FAIL_OPEN, not {cfg.get('failure_policy')!r}",
    )
    conf = cfg.get("configuration") or {}
    P.check(
        conf.get("@type") == STRING_VALUE_TYPE,
        where,
        f"the plugin configuration must be a {STRING_VALUE_TYPE}",
    )
    try:
        plugin = json.loads(conf.get("value") or "{}")
    except json.JSONDecodeError as e:
        P.add(where, f"the plugin configuration is not valid JSON: {e}")
        return DEFAULT_MAX_BODY
    if not isinstance(plugin, dict):
        P.add(where, "the plugin configuration must be a JSON object")
        return DEFAULT_MAX_BODY
    cap = plugin.get("max_body_bytes", DEFAULT_MAX_BODY)
    return cap if isinstance(cap, int) else DEFAULT_MAX_BODY


# --- Envoy -----------------------------------------------------------------------------------


def envoy_version(envoy: str) -> str:
    out = subprocess.run([envoy, "--version"], capture_output=True, text=True, check=False)
    m = re.search(r"/(\d+\.\d+\.\d+)/", out.stdout + out.stderr)
    return m.group(1) if m else ""


def run_envoy(envoy: str, label: str, config: Path) -> tuple[str, bool, str]:
    proc = subprocess.run(
        [envoy, "--mode", "validate", "-c", str(config), "--disable-hot-restart",
         "--log-level", "warn"],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=120,
    )
    tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-6:])
    return label, proc.returncode == 0, tail


def write_json(tmp: Path, name: str, cfg: Any) -> Path:
    path = tmp / f"{name}.json"
    path.write_text(json.dumps(cfg, indent=1))
    return path


def inbound_bootstrap(http_filters: list[dict], listener_patch: dict) -> dict:
    """A minimal bootstrap shaped like a sidecar's inbound listener, with `http_filters`
    before the router and the EnvoyFilter LISTENER patches merged into the listener."""
    listener = {
        "name": "virtualInbound",
        "address": {"socket_address": {"address": "127.0.0.1", "port_value": 15006}},
        "filter_chains": [{
            "filters": [{
                "name": HCM_NAME,
                "typed_config": {
                    "@type": HCM_TYPE,
                    "stat_prefix": "inbound_0.0.0.0_8080",
                    "route_config": {
                        "name": "inbound|8080||",
                        "virtual_hosts": [{
                            "name": "inbound|http|8080",
                            "domains": ["*"],
                            "routes": [{"match": {"prefix": "/"},
                                        "route": {"cluster": "inbound|8080||"}}],
                        }],
                    },
                    "http_filters": http_filters + [
                        {"name": ROUTER_NAME, "typed_config": {"@type": ROUTER_TYPE}}
                    ],
                },
            }],
        }],
    }
    listener.update(copy.deepcopy(listener_patch))
    return {
        "static_resources": {
            "listeners": [listener],
            "clusters": [{
                "name": "inbound|8080||",
                "type": "STATIC",
                "connect_timeout": "1s",
                "load_assignment": {
                    "cluster_name": "inbound|8080||",
                    "endpoints": [{"lb_endpoints": [{"endpoint": {"address": {
                        "socket_address": {"address": "127.0.0.1", "port_value": 8080}}}}]}],
                },
            }],
        }
    }


# --- docker compose --------------------------------------------------------------------------

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def interpolate(s: str) -> str:
    """Compose's ${VAR}, ${VAR:-default} and $VAR, from the environment."""
    def sub(m: re.Match) -> str:
        name = m.group(1) or m.group(3)
        val = os.environ.get(name)
        if m.group(1) and m.group(2) is not None and not val:
            return m.group(2)
        return val or ""
    return _VAR.sub(sub, s)


def bind_mounts(where: str, svc: dict) -> list[tuple[Path, PurePosixPath]]:
    """(host path, container path) of every bind mount of a compose service."""
    mounts = []
    for v in svc.get("volumes") or []:
        if isinstance(v, str):
            parts = v.split(":")
            if len(parts) < 2 or not parts[0].startswith((".", "/", "$", "~")):
                continue  # named volume
            src, dst = parts[0], parts[1]
        elif isinstance(v, dict):
            if v.get("type", "volume") != "bind":
                continue
            src, dst = v.get("source", ""), v.get("target", "")
            P.check(
                (v.get("bind") or {}).get("create_host_path") is False,
                where,
                f"bind mount of {src}: set bind.create_host_path: false, so a missing file "
                "is an error instead of an empty directory Docker creates in its place",
            )
        else:
            continue
        host = Path(interpolate(src)).expanduser()
        if not host.is_absolute():
            host = (ROOT / host).resolve()
        mounts.append((host, PurePosixPath(dst)))
    return mounts


def to_host(mounts: list[tuple[Path, PurePosixPath]], inside: str) -> Path | None:
    """The host path that a container path comes from, through the longest matching mount."""
    p = PurePosixPath(inside)
    best = None
    for host, target in mounts:
        if p == target or target in p.parents:
            if best is None or len(target.parts) > len(best[1].parts):
                best = (host, target)
    if best is None:
        return None
    host, target = best
    below = p.relative_to(target)
    return host if str(below) == "." else host / below


def rel(p: Path) -> str:
    try:
        return str(p.relative_to(ROOT))
    except ValueError:
        return str(p)


def check_compose(envoy_ver: str, wasm: Path) -> dict | None:
    """Checks docker-compose.yml; returns envoy.compose.yaml with host paths, for Envoy."""
    where = COMPOSE_FILE
    compose = load_one(COMPOSE_FILE)
    if not isinstance(compose, dict):
        return None
    services = compose.get("services") or {}
    for name in ("envoy", "origin-1", "origin-2", "k6"):
        P.check(name in services, where, f"service {name!r} is missing")
    if not all(n in services for n in ("envoy", "origin-1", "origin-2")):
        return None

    for name, svc in services.items():
        w = f"{where}: service {name}"
        build = svc.get("build")
        if build is not None:
            ctx = ROOT / interpolate(build if isinstance(build, str) else build.get("context", "."))
            P.check(ctx.is_dir(), w, f"build context {rel(ctx)} does not exist")
            dockerfile = ctx / (build.get("dockerfile", "Dockerfile") if isinstance(build, dict)
                                else "Dockerfile")
            if P.check(dockerfile.is_file(), w, f"Dockerfile {rel(dockerfile)} does not exist"):
                check_dockerfile_copies(w, dockerfile, ctx)
        for host, target in bind_mounts(w, svc):
            if host == wasm.resolve():
                P.check(host.is_file(), w, f"{rel(host)} missing: run `make wasm` first")
            else:
                P.check(host.exists(), w, f"bind mount source {rel(host)} (for {target}) "
                        "does not exist" + (" (run scripts/certs.sh)" if "certs" in str(host)
                                            else ""))

    # Envoy: image version, config, the files it reads, ports.
    env = services["envoy"]
    w = f"{where}: service envoy"
    image = str(env.get("image", ""))
    m = re.search(r":v(\d+\.\d+)(?:\.(\d+)|-latest)$", image)
    if P.check(m is not None, w, f"image {image!r}: expected envoyproxy/envoy:vX.Y.Z"):
        P.check(
            envoy_ver.startswith(m.group(1) + "."),
            w,
            f"image {image} is not the Envoy version validated here ({envoy_ver})",
        )
    cmd = [str(c) for c in env.get("command") or []]
    inside_cfg = cmd[cmd.index("-c") + 1] if "-c" in cmd[:-1] else "/etc/envoy/envoy.yaml"
    mounts = bind_mounts(w, env)
    host_cfg = to_host(mounts, inside_cfg)
    if not P.check(
        host_cfg is not None and host_cfg == (ROOT / COMPOSE_ENVOY).resolve(),
        w,
        f"Envoy reads {inside_cfg}, which must be a mount of {COMPOSE_ENVOY}",
    ):
        return None
    cfg = load_one(COMPOSE_ENVOY)
    if not isinstance(cfg, dict):
        return None
    cfg = copy.deepcopy(cfg)
    for _, d in walk(cfg):
        fn = d.get("filename")
        if isinstance(fn, str):
            host = to_host(mounts, fn) if fn.startswith("/") else None
            if P.check(host is not None, f"{COMPOSE_ENVOY}",
                       f"{fn} is not provided by any bind mount of the envoy service"):
                d["filename"] = str(host)

    listen_ports = {
        lst["address"]["socket_address"]["port_value"]
        for lst in cfg["static_resources"]["listeners"]
    } | {cfg["admin"]["address"]["socket_address"]["port_value"]}
    published = set()
    for p in env.get("ports") or []:
        parts = str(p).split(":")
        published.add(int(parts[-1].split("/")[0]))
        P.check(len(parts) == 3 and parts[0] == "127.0.0.1", w,
                f"port {p}: publish on the host's loopback only (127.0.0.1:HOST:CONTAINER)")
    P.check(published == listen_ports, w,
            f"published container ports {sorted(published)} != Envoy's listeners + admin "
            f"{sorted(listen_ports)}")

    # The origin cluster names the origin services, on the port each one listens on.
    (cluster,) = [c for c in cfg["static_resources"]["clusters"] if c["name"] == "origin"]
    endpoints = {
        (e["endpoint"]["address"]["socket_address"]["address"],
         e["endpoint"]["address"]["socket_address"]["port_value"])
        for group in cluster["load_assignment"]["endpoints"] for e in group["lb_endpoints"]
    }
    origins = set()
    for name in ("origin-1", "origin-2"):
        ocmd = [str(c) for c in services[name].get("command") or []]
        listen = ocmd[ocmd.index("--listen") + 1] if "--listen" in ocmd[:-1] else ""
        port = int(listen.rsplit(":", 1)[1]) if ":" in listen else 0
        P.check(listen.startswith("0.0.0.0:"), f"{where}: service {name}",
                f"--listen {listen!r}: must listen on 0.0.0.0 to be reachable from Envoy")
        origins.add((name, port))
    P.check(endpoints == origins, COMPOSE_ENVOY,
            f"origin cluster endpoints {sorted(endpoints)} != the origin services and their "
            f"--listen ports {sorted(origins)}")
    P.check(cluster.get("type") in ("STRICT_DNS", "LOGICAL_DNS"), COMPOSE_ENVOY,
            "the origin cluster must resolve the service names (STRICT_DNS)")

    # k6: bench profile only, and its script exists.
    k6 = services.get("k6")
    if k6 is not None:
        w = f"{where}: service k6"
        P.check("bench" in (k6.get("profiles") or []), w, "must be under the `bench` profile")
        kcmd = [str(c) for c in k6.get("command") or []]
        scripts = [c for c in kcmd if c.endswith(".js")]
        if P.check(bool(scripts), w, "command runs no .js script"):
            host = to_host(bind_mounts(w, k6), scripts[0])
            P.check(host is not None and host.is_file(), w,
                    f"script {scripts[0]} is not a mounted file that exists")
    return cfg


def workspace_members() -> list[str]:
    text = (ROOT / "Cargo.toml").read_text()
    try:
        import tomllib  # Python >= 3.11
    except ImportError:  # the README asks for Python >= 3.10: the one line we need, by hand
        m = re.search(r"^members\s*=\s*\[([^\]]*)\]", text, re.M)
        return re.findall(r'"([^"]+)"', m.group(1)) if m else []
    return tomllib.loads(text).get("workspace", {}).get("members", [])


_checked_dockerfiles: set[Path] = set()


def check_dockerfile_copies(where: str, dockerfile: Path, ctx: Path) -> None:
    """COPY/ADD sources (not --from) exist in the build context and are not kept out of it by
    the Dockerfile's own ignore file; a Dockerfile that builds the Cargo workspace copies every
    workspace member (cargo cannot load the workspace without them)."""
    if dockerfile in _checked_dockerfiles:  # two services building one image: check it once
        return
    _checked_dockerfiles.add(dockerfile)
    sources: list[str] = []
    for line in dockerfile.read_text().splitlines():
        words = line.split()
        if not words or words[0].upper() not in ("COPY", "ADD"):
            continue
        args = [a for a in words[1:] if not a.startswith("--")]
        if any(a.startswith("--from") for a in words[1:]) or len(args) < 2:
            continue
        for src in args[:-1]:
            sources.append(src.rstrip("/"))
            P.check((ctx / src).exists(), where,
                    f"{rel(dockerfile)}: COPY source {src} is not in the build context {rel(ctx)}")
    ignore = dockerfile.with_name(dockerfile.name + ".dockerignore")
    if ignore.is_file():
        rules = [ln.strip() for ln in ignore.read_text().splitlines()
                 if ln.strip() and not ln.strip().startswith("#")]
        if rules[:1] == ["*"]:  # an allow-list: every source must be re-included
            allowed = {r[1:].rstrip("/") for r in rules if r.startswith("!")}
            for src in sources:
                P.check(src in allowed, where, f"{rel(ignore)} keeps COPY source {src} out of "
                        "the build context (add !" + src + ")")
    if "Cargo.toml" in sources:
        for m in workspace_members():
            P.check(m in sources, where, f"{rel(dockerfile)} does not COPY workspace member "
                    f"{m}: cargo cannot load the workspace without it")


def check_compose_variant() -> None:
    """envoy.compose.yaml is envoy.yaml but for what a container needs; both keep the
    filter's required settings."""
    ref = load_one(REFERENCE)
    comp = load_one(COMPOSE_ENVOY)
    if not (isinstance(ref, dict) and isinstance(comp, dict)):
        return
    diff = first_difference(strip_container_differences(ref), strip_container_differences(comp))
    P.check(not diff, COMPOSE_ENVOY,
            f"differs from {REFERENCE} beyond addresses, paths and endpoint discovery: {diff}")
    for where, cfg in ((REFERENCE, ref), (COMPOSE_ENVOY, comp)):
        for w in wasm_filters(cfg):
            check_wasm_config(where, w)


def strip_container_differences(cfg: dict) -> dict:
    """The parts of an Envoy config that the compose variant must keep identical."""
    cfg = copy.deepcopy(cfg)
    cfg.get("admin", {}).pop("address", None)
    for lst in cfg["static_resources"]["listeners"]:
        lst.pop("address", None)
    for c in cfg["static_resources"]["clusters"]:
        for k in ("type", "dns_lookup_family"):
            c.pop(k, None)
        for group in c.get("load_assignment", {}).get("endpoints", []):
            for e in group.get("lb_endpoints", []):
                e.get("endpoint", {}).pop("address", None)
    for _, d in walk(cfg):
        if isinstance(d.get("filename"), str):
            d["filename"] = PurePosixPath(d["filename"]).name
    return cfg


def first_difference(a: Any, b: Any, path: str = "") -> str:
    if type(a) is not type(b):
        return f"{path or '/'}: {a!r} vs {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}/{k}: only in {'envoy.yaml' if k in a else 'the compose variant'}"
            d = first_difference(a[k], b[k], f"{path}/{k}")
            if d:
                return d
        return ""
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} vs {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}/{i}")
            if d:
                return d
        return ""
    return "" if a == b else f"{path}: {a!r} vs {b!r}"


# --- Istio -----------------------------------------------------------------------------------


def check_remote(where: str, remote: dict) -> None:
    uri = ((remote.get("http_uri") or {}).get("uri")) or ""
    P.check(re.match(r"^(oci|https?)://", uri) is not None, where,
            f"remote module uri {uri!r}: istio-agent fetches oci://, https:// or http:// only")
    sha = remote.get("sha256")
    if sha is not None:
        P.check(bool(SHA256_HEX.match(str(sha))), where, "remote sha256 must be 64 hex digits")


def localise_module(where: str, wasm_cfg: dict, wasm: Path) -> None:
    """Point a Wasm filter config at the local build, as istio-agent or a mount would."""
    vm = wasm_cfg.setdefault("config", {}).setdefault("vm_config", {})
    code = vm.get("code") or {}
    if "remote" in code:
        check_remote(where, code["remote"])
    elif "local" in code:
        fn = (code["local"] or {}).get("filename", "")
        P.check(fn.endswith("plugin.wasm"), where,
                f"local module {fn!r}: expected the plugin.wasm of the OCI image (make oci)")
    else:
        P.add(where, "vm_config.code has neither local nor remote")
    vm["code"] = {"local": {"filename": str(wasm)}}


def check_istio(wasm: Path, tmp: Path) -> list[tuple[str, Path]]:
    """Structural checks of deploy/istio/; returns (label, bootstrap) pairs for Envoy."""
    files = sorted((ROOT / "deploy/istio").glob("*.yaml"))
    if not P.check(bool(files), "deploy/istio", "no manifests"):
        return []
    docs = [(f, d) for f in files for d in load_docs(f)]
    selectors: dict[str, Any] = {}
    listener_patch: dict = {}
    variants: list[tuple[str, list[dict], list[int]]] = []  # (label, http filters, caps)
    plugins: list[tuple[str, dict]] = []

    for f, doc in docs:
        where = rel(f)
        kind = doc.get("kind")
        spec = doc.get("spec") or {}
        if kind == "EnvoyFilter":
            P.check(doc.get("apiVersion") == "networking.istio.io/v1alpha3", where,
                    "EnvoyFilter apiVersion must be networking.istio.io/v1alpha3")
            selectors[where] = (spec.get("workloadSelector") or {}).get("labels")
            ext: dict[str, dict] = {}
            filters: list[dict] = []
            caps: list[int] = []
            for i, patch in enumerate(spec.get("configPatches") or []):
                w = f"{where}: configPatches[{i}]"
                apply_to = patch.get("applyTo")
                op = (patch.get("patch") or {}).get("operation")
                value = copy.deepcopy((patch.get("patch") or {}).get("value") or {})
                if apply_to == "EXTENSION_CONFIG":
                    P.check(op in ("ADD", "REPLACE"), w, "EXTENSION_CONFIG needs ADD or REPLACE")
                    ext[value.get("name", "")] = value
                elif apply_to == "HTTP_FILTER":
                    match = patch.get("match") or {}
                    chain = (match.get("listener") or {}).get("filterChain") or {}
                    fc = chain.get("filter") or {}
                    P.check(match.get("context") in ("SIDECAR_INBOUND", "GATEWAY"), w,
                            "match.context should be SIDECAR_INBOUND (or GATEWAY)")
                    P.check(fc.get("name") == HCM_NAME
                            and (fc.get("subFilter") or {}).get("name") == ROUTER_NAME
                            and op == "INSERT_BEFORE", w,
                            "the filter must be inserted (INSERT_BEFORE) before "
                            f"{ROUTER_NAME} in {HCM_NAME}")
                    # An ECDS reference, as the filter itself or as the composite action of
                    # the Accept gate: inlined, as Envoy will see it once ECDS delivers it.
                    refs = [(None, value)] if "config_discovery" in value else []
                    refs += [(d, d["dynamic_config"]) for _, d in walk(value)
                             if d.get("@type") == COMPOSITE_ACTION_TYPE and "dynamic_config" in d]
                    for action, ref in refs:
                        name = ref.get("name")
                        cd = ref.get("config_discovery") or {}
                        if not P.check(name in ext, w, f"config_discovery names {name!r}, but "
                                       "no EXTENSION_CONFIG patch before it defines it"):
                            continue
                        typed = ext[name].get("typed_config") or {}
                        P.check(typed.get("@type") in (cd.get("type_urls") or []), w,
                                f"type_urls {cd.get('type_urls')} do not include "
                                f"{typed.get('@type')}")
                        P.check("ads" in (cd.get("config_source") or {}), w,
                                "config_source should be ads: {} (istiod serves ECDS over ADS)")
                        if action is None:
                            del value["config_discovery"]
                            value["typed_config"] = copy.deepcopy(typed)
                        else:
                            del action["dynamic_config"]
                            action["typed_config"] = {"name": name,
                                                      "typed_config": copy.deepcopy(typed)}
                    for typed in wasm_filters(value):
                        caps.append(check_wasm_config(w, typed))
                        localise_module(w, typed, wasm)
                    filters.append(value)
                elif apply_to == "LISTENER":
                    P.check(op == "MERGE" and (patch.get("match") or {}).get("context")
                            == "SIDECAR_INBOUND", w,
                            "LISTENER patch: MERGE on the SIDECAR_INBOUND listener")
                    listener_patch.update(value)
                else:
                    P.add(w, f"unexpected applyTo {apply_to!r}")
            if filters:
                P.check(bool(caps), where, "no HTTP_FILTER patch holds the markdown filter")
                # The gate keeps browsers from the filter, which would add their Vary itself.
                gated = any(d.get("@type") == COMPOSITE_ACTION_TYPE for f in filters
                            for _, d in walk(f))
                P.check(not gated or any(f.get("name") == "markdown.vary" for f in filters),
                        where, "the Accept gate needs the markdown.vary filter beside it "
                        "(Vary: Accept on the HTML of gated requests)")
                variants.append((where, filters, caps))
        elif kind == "WasmPlugin":
            P.check(doc.get("apiVersion") == "extensions.istio.io/v1alpha1", where,
                    "WasmPlugin apiVersion must be extensions.istio.io/v1alpha1")
            selectors[where] = (spec.get("selector") or {}).get("matchLabels")
            P.check(re.match(r"^(oci|https?|file)://", str(spec.get("url", ""))) is not None,
                    where, f"url {spec.get('url')!r}: oci://, https://, http:// or file://")
            P.check(bool(SHA256_HEX.match(str(spec.get("sha256", "")))), where,
                    "sha256 must be 64 hex digits")
            P.check(spec.get("failStrategy") == "FAIL_OPEN", where,
                    "failStrategy must be FAIL_OPEN")
            P.check(isinstance(spec.get("pluginConfig"), dict), where,
                    "pluginConfig must be a mapping")
            plugins.append((where, spec))
        else:
            P.add(where, f"unexpected kind {kind!r}")

    limit = listener_patch.get("per_connection_buffer_limit_bytes")
    P.check(isinstance(limit, int), "deploy/istio",
            "no EnvoyFilter LISTENER patch sets per_connection_buffer_limit_bytes")
    labels = {json.dumps(s, sort_keys=True) for s in selectors.values()}
    P.check(len(labels) == 1 and None not in selectors.values(), "deploy/istio",
            f"all manifests must select the same workloads (the buffer limit must apply where "
            f"the filter runs): {selectors}")

    out = []
    for i, (label, filters, caps) in enumerate(variants):
        for cap in caps:
            if isinstance(limit, int):
                P.check(limit >= cap + DEFAULT_CLUSTER_LIMIT, label,
                        f"per_connection_buffer_limit_bytes {limit} must be >= max_body_bytes "
                        f"{cap} + one upstream read ({DEFAULT_CLUSTER_LIMIT})")
        cfg = inbound_bootstrap(filters, listener_patch)
        out.append((f"{label} (wrapped in a sidecar-like bootstrap)",
                    write_json(tmp, f"istio-{i}", cfg)))

    for i, (label, spec) in enumerate(plugins):
        plugin_config = spec.get("pluginConfig") or {}
        cap = plugin_config.get("max_body_bytes", DEFAULT_MAX_BODY)
        if isinstance(limit, int) and isinstance(cap, int):
            P.check(limit >= cap + DEFAULT_CLUSTER_LIMIT, label,
                    f"per_connection_buffer_limit_bytes {limit} must be >= max_body_bytes {cap} "
                    f"+ one upstream read ({DEFAULT_CLUSTER_LIMIT})")
        # What Istio generates for a WasmPlugin (no allow_on_headers_stop_iteration: it cannot).
        rendered = {
            "name": "markdown-filter",
            "typed_config": {
                "@type": WASM_TYPE,
                "config": {
                    "name": spec.get("pluginName") or "markdown",
                    "root_id": spec.get("pluginName") or "markdown",
                    "configuration": {"@type": STRING_VALUE_TYPE,
                                      "value": json.dumps(plugin_config)},
                    "failure_policy": "FAIL_OPEN" if spec.get("failStrategy") == "FAIL_OPEN"
                    else "FAIL_CLOSED",
                    "vm_config": {"vm_id": "markdown", "runtime": "envoy.wasm.runtime.v8",
                                  "code": {"local": {"filename": str(wasm)}}},
                },
            },
        }
        cfg = inbound_bootstrap([rendered], listener_patch)
        out.append((f"{label} (pluginConfig rendered as Istio does)",
                    write_json(tmp, f"wasmplugin-{i}", cfg)))
    return out


# --- Envoy Gateway ---------------------------------------------------------------------------

EG_DIR = "deploy/envoy-gateway"
FILTER_CONFIG_TYPE = "type.googleapis.com/envoy.config.route.v3.FilterConfig"
_QUANTITY = re.compile(r"^([1-9][0-9]*)([EPTGMK]i|[EPTGMk])?$")
_UNITS = {None: 1, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15,
          "E": 10**18, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50,
          "Ei": 2**60}


def quantity(v: Any) -> int | None:
    """A Kubernetes quantity in the forms ClientTrafficPolicy's bufferLimit accepts."""
    if isinstance(v, int):
        return v
    m = _QUANTITY.match(str(v))
    return int(m.group(1)) * _UNITS[m.group(2)] if m else None


def jsonpath_pointers(doc: Any, expr: str) -> list[list]:
    """Evaluate the subset of RFC 9535 JSONPath an EnvoyPatchPolicy here uses — `$`,
    `..name`, `.name`, `[N]`, `[?match(@.name, 'regex')]` — to the JSON pointers (as token
    lists) it selects. Raises ValueError on anything else, as on a string escape RFC 9535
    does not allow (Envoy Gateway's evaluator rejects those)."""
    if not expr.startswith("$"):
        raise ValueError("must start with $")
    nodes: list[tuple[list, Any]] = [([], doc)]
    i = 1
    while i < len(expr):
        if expr.startswith("..", i) or expr[i] == ".":
            deep = expr.startswith("..", i)
            i += 2 if deep else 1
            m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(expr, i)
            if not m:
                raise ValueError(f"expected a member name at {i}")
            name, i = m.group(0), m.end()
            found = []
            for ptr, node in nodes:
                pool = walk(node, tuple(ptr)) if deep else [(ptr, node)]
                for p, n in pool:
                    if isinstance(n, dict) and name in n:
                        found.append((list(p) + [name], n[name]))
            nodes = found
        elif expr.startswith("[?match(@.", i):
            m = re.compile(r"\[\?match\(@\.([A-Za-z_][A-Za-z0-9_]*), '((?:[^'\\]|\\.)*)'\)\]"
                           ).match(expr, i)
            if not m:
                raise ValueError(f"unsupported filter at {i}")
            key, raw, i = m.group(1), m.group(2), m.end()
            bad = re.search(r"\\([^bfnrt/\\'\"u])", raw)
            if bad:
                raise ValueError(f"invalid escape \\{bad.group(1)} in a string literal")
            pattern = re.compile(raw.replace("\\\\", "\\"))
            nodes = [(p + [j], e) for p, n in nodes if isinstance(n, list)
                     for j, e in enumerate(n)
                     if isinstance(e, dict) and isinstance(e.get(key), str)
                     and pattern.fullmatch(e[key])]
        elif (m := re.compile(r"\[([0-9]+)\]").match(expr, i)):
            k, i = int(m.group(1)), m.end()
            nodes = [(p + [k], n[k]) for p, n in nodes if isinstance(n, list) and k < len(n)]
        else:
            raise ValueError(f"unsupported syntax at {i}: {expr[i:i + 20]!r}")
    return [p for p, _ in nodes]


def accept_regex(route: dict) -> str | None:
    """The regex of an HTTPRoute's first rule's Accept header match, if it has one."""
    for rule in (route.get("spec") or {}).get("rules") or []:
        for match in rule.get("matches") or []:
            for h in match.get("headers") or []:
                if str(h.get("name", "")).lower() == "accept":
                    return h.get("value") if h.get("type") == "RegularExpression" else None
    return None


def check_envoy_gateway(wasm: Path, tmp: Path) -> list[tuple[str, Path]]:
    """deploy/envoy-gateway/ rendered into the xDS Envoy Gateway generates for it (filter
    disabled on the listener and enabled on the targeted route, the EnvoyPatchPolicy applied,
    the ClientTrafficPolicy's buffer limit on the listener); returns (label, bootstrap)."""
    files = sorted((ROOT / EG_DIR).glob("*.yaml"))
    if not P.check(bool(files), EG_DIR, "no manifests"):
        return []
    by_kind: dict[str, list[tuple[str, dict]]] = {}
    for f in files:
        for doc in load_docs(f):
            by_kind.setdefault(doc.get("kind", ""), []).append((rel(f), doc))
    routes = {d["metadata"]["name"]: (w, d) for w, d in by_kind.get("HTTPRoute", [])}
    eeps = by_kind.get("EnvoyExtensionPolicy", [])
    epps = by_kind.get("EnvoyPatchPolicy", [])
    ctps = by_kind.get("ClientTrafficPolicy", [])
    if not (P.check(len(eeps) == 1, EG_DIR, "expected one EnvoyExtensionPolicy")
            and P.check(len(epps) == 1, EG_DIR, "expected one EnvoyPatchPolicy")
            and P.check(len(ctps) == 1, EG_DIR, "expected one ClientTrafficPolicy")):
        return []
    (eep_where, eep), (epp_where, epp), (ctp_where, ctp) = eeps[0], epps[0], ctps[0]
    policy = eep["metadata"]["name"]
    wasm_list = (eep.get("spec") or {}).get("wasm") or []
    if not P.check(len(wasm_list) == 1, eep_where, "expected one wasm extension"):
        return []
    ext = wasm_list[0]
    P.check(ext.get("failOpen") is True, eep_where, "failOpen must be true")
    code = ext.get("code") or {}
    P.check(code.get("type") in ("Image", "HTTP"), eep_where, "code.type must be Image or HTTP")
    plugin = ext.get("config") or {}
    P.check(isinstance(plugin, dict), eep_where, "config must be a mapping (the plugin JSON)")
    cap = plugin.get("max_body_bytes", DEFAULT_MAX_BODY)

    # The Accept gate: the policy targets only routes that match Accept: text/markdown, and each
    # has a twin without the filter that adds Vary: Accept.
    targets = [t.get("name") for t in (eep.get("spec") or {}).get("targetRefs") or []
               if t.get("kind") == "HTTPRoute"]
    P.check(bool(targets), eep_where, "the policy must target HTTPRoutes (the Accept gate)")
    markdown_routes = []
    for name in targets:
        if not P.check(name in routes, eep_where, f"targets HTTPRoute {name!r}, not defined"):
            continue
        w, route = routes[name]
        rx = accept_regex(route)
        if not P.check(rx is not None, w, f"{name}: needs a RegularExpression Accept match"):
            continue
        py = re.compile(rx.removeprefix("(?i)"), re.I if rx.startswith("(?i)") else 0)
        for value, want in (("text/markdown", True), ("Text/Markdown; q=0.9", True),
                            ("text/html, */*;q=0.8", False)):
            P.check(bool(py.fullmatch(value)) == want, w,
                    f"{name}: Accept {value!r} should {'' if want else 'not '}match {rx!r}")
        markdown_routes.append(name)
    backends = {json.dumps(r.get("backendRefs"), sort_keys=True)
                for n in markdown_routes for r in routes[n][1]["spec"]["rules"]}
    twins = [n for n, (_, d) in routes.items() if n not in targets and any(
        json.dumps(r.get("backendRefs"), sort_keys=True) in backends
        and any(f.get("type") == "ResponseHeaderModifier"
                and {"name": "Vary", "value": "Accept"}
                in ((f.get("responseHeaderModifier") or {}).get("add") or [])
                for f in r.get("filters") or [])
        for r in d["spec"]["rules"])]
    P.check(bool(twins), EG_DIR, "no HTTPRoute without the filter serves the same backends "
            "with Vary: Accept added (the other half of the Accept gate)")

    limit = quantity(((ctp.get("spec") or {}).get("connection") or {}).get("bufferLimit"))
    if P.check(limit is not None, ctp_where, "connection.bufferLimit missing or malformed"):
        P.check(isinstance(cap, int) and limit >= cap + DEFAULT_CLUSTER_LIMIT, ctp_where,
                f"bufferLimit {limit} must be >= max_body_bytes {cap} + one upstream read "
                f"({DEFAULT_CLUSTER_LIMIT})")

    # What Envoy Gateway generates: the Wasm filter on the listener, disabled; enabled by a
    # FilterConfig on the routes of the targeted HTTPRoutes.
    filter_name = f"envoy.filters.http.wasm/envoyextensionpolicy/default/{policy}/wasm/0"
    typed = {
        "@type": WASM_TYPE,
        "config": {
            "name": ext.get("name"),
            "root_id": ext.get("rootID"),
            "configuration": {"@type": STRING_VALUE_TYPE, "value": json.dumps(plugin)},
            "fail_open": ext.get("failOpen") is True,
            "vm_config": {"vm_id": f"envoyextensionpolicy/default/{policy}/wasm/0",
                          "runtime": "envoy.wasm.runtime.v8",
                          "code": {"local": {"filename": str(wasm)}}},
        },
    }
    vhost_routes = []
    for name, (_, route) in routes.items():
        for i, rule in enumerate(route["spec"]["rules"]):
            rx = accept_regex({"spec": {"rules": [rule]}})
            r: dict = {"name": f"httproute/default/{name}/rule/{i}",
                       "match": {"prefix": "/"},
                       "route": {"cluster": "web", "timeout": "60s"}}
            if rx:
                r["match"]["headers"] = [{"name": "accept", "string_match": {
                    "safe_regex": {"regex": rx}}}]
            if name in targets:
                # FilterConfig{config: empty Any}, exactly as Envoy Gateway enables a filter.
                r["typed_per_filter_config"] = {
                    filter_name: {"@type": FILTER_CONFIG_TYPE, "config": {}}}
            for f in rule.get("filters") or []:
                for h in (f.get("responseHeaderModifier") or {}).get("add") or []:
                    r.setdefault("response_headers_to_add", []).append({
                        "header": {"key": h["name"].lower(), "value": h["value"]},
                        "append_action": "APPEND_IF_EXISTS_OR_ADD"})
            vhost_routes.append(r)
    vhost_routes.sort(key=lambda r: "headers" not in r["match"])  # more header matches first

    patches = (epp.get("spec") or {}).get("jsonPatches") or []
    if not P.check(len(patches) >= 1 and (epp.get("spec") or {}).get("type") == "JSONPatch",
                   epp_where, "expected a JSONPatch EnvoyPatchPolicy"):
        return []
    listener_name = patches[0].get("name", "")
    listener = {
        "name": listener_name,
        "address": {"socket_address": {"address": "127.0.0.1", "port_value": 10080}},
        "per_connection_buffer_limit_bytes": limit or 32768,
        "default_filter_chain": {"filters": [{"name": HCM_NAME, "typed_config": {
            "@type": HCM_TYPE,
            "stat_prefix": "http-10080",
            "route_config": {"name": listener_name, "virtual_hosts": [
                {"name": "default/eg/http/*", "domains": ["*"], "routes": vhost_routes}]},
            "http_filters": [{"name": filter_name, "disabled": True, "typed_config": typed},
                             {"name": ROUTER_NAME, "typed_config": {"@type": ROUTER_TYPE}}],
        }}]},
    }
    for j, patch in enumerate(patches):
        w = f"{epp_where}: jsonPatches[{j}]"
        op = patch.get("operation") or {}
        if not (P.check(patch.get("type") == "type.googleapis.com/envoy.config.listener.v3."
                        "Listener" and patch.get("name") == listener_name, w,
                        "patches must all target the one Listener")
                and P.check(op.get("op") == "add" and op.get("path", "").startswith("/"), w,
                            "expected op add with a path")):
            continue
        try:
            ptrs = jsonpath_pointers(listener, op.get("jsonPath", "$"))
        except ValueError as e:
            P.add(w, f"jsonPath: {e}")
            continue
        if not P.check(len(ptrs) == 1, w, f"jsonPath selects {len(ptrs)} nodes in the "
                       "generated listener, expected the markdown filter's config (1)"):
            continue
        node: Any = listener
        for tok in ptrs[0]:
            node = node[tok]
        keys = op["path"].strip("/").split("/")
        for k in keys[:-1]:
            node = node.setdefault(k, {})
        node[keys[-1]] = op.get("value")
    P.check(typed["config"].get("allow_on_headers_stop_iteration") is True, epp_where,
            "after the patch the markdown filter must have allow_on_headers_stop_iteration")
    cfg = {"static_resources": {"listeners": [listener], "clusters": [{
        "name": "web", "type": "STATIC", "connect_timeout": "1s",
        "load_assignment": {"cluster_name": "web", "endpoints": [{"lb_endpoints": [
            {"endpoint": {"address": {"socket_address": {
                "address": "127.0.0.1", "port_value": 8080}}}}]}]}}]}}
    return [(f"{EG_DIR} (rendered as Envoy Gateway generates it, patch applied)",
             write_json(tmp, "envoy-gateway", cfg))]


def check_oci_dockerfile() -> None:
    path = ROOT / "deploy/oci/Dockerfile"
    where = rel(path)
    if not P.check(path.is_file(), where, "missing"):
        return
    lines = [ln.strip() for ln in path.read_text().splitlines()
             if ln.strip() and not ln.strip().startswith("#")]
    instrs = [ln.split()[0].upper() for ln in lines]
    P.check(instrs[:1] == ["FROM"] and lines[0].split()[1:] == ["scratch"], where,
            "must start FROM scratch")
    layers = [ln for ln in lines if ln.split()[0].upper() in ("COPY", "ADD", "RUN")]
    P.check(len(layers) == 1 and layers[0].split()[-1].endswith("plugin.wasm"), where,
            "the Wasm image spec (compat variant) wants exactly one layer holding plugin.wasm")


# --- cache variant and observability ---------------------------------------------------------


def http_filter_names(hcm: dict) -> list[str]:
    return [f.get("name", "") for f in hcm.get("http_filters") or []]


def check_cache_variant() -> None:
    """envoy.cache.yaml: the markdown filter keeps envoy.yaml's settings on the listener where it
    runs, and the parts copied from envoy.yaml (compressors, Wasm filter, origin) have not
    drifted from it."""
    ref = load_one(REFERENCE)
    cfg = load_one(CACHE_ENVOY)
    if not (isinstance(ref, dict) and isinstance(cfg, dict)):
        return
    w = CACHE_ENVOY
    clusters = {c["name"]: c for c in cfg["static_resources"]["clusters"]}
    ref_clusters = {c["name"]: c for c in ref["static_resources"]["clusters"]}
    origin_limit = clusters.get("origin", {}).get("per_connection_buffer_limit_bytes",
                                                   DEFAULT_CLUSTER_LIMIT)
    wasm_listeners = 0
    for lst in cfg["static_resources"]["listeners"]:
        wasms = list(wasm_filters(lst))
        if not wasms:
            continue
        wasm_listeners += 1
        for wasm in wasms:
            cap = check_wasm_config(w, wasm)
            limit = lst.get("per_connection_buffer_limit_bytes", DEFAULT_CLUSTER_LIMIT)
            P.check(limit >= cap + origin_limit, w,
                    f"listener {lst['name']}: per_connection_buffer_limit_bytes {limit} must be "
                    f">= max_body_bytes {cap} + one upstream read ({origin_limit})")
        for _, hcm in walk(lst):
            if hcm.get("@type") != HCM_TYPE:
                continue
            names = http_filter_names(hcm)
            P.check(not any("decompressor" in n for n in names), w,
                    f"listener {lst['name']}: no decompressor in the markdown filter's chain "
                    "(envoyproxy/envoy#29879)")
    P.check(wasm_listeners == 1, w, f"expected the markdown filter on one listener, found "
            f"{wasm_listeners}")
    P.check("origin" in clusters and clusters["origin"] == ref_clusters.get("origin"), w,
            f"the origin cluster differs from {REFERENCE}'s")

    # The Wasm filter as in envoy.yaml except its JSON configuration; the compressors as in
    # envoy.yaml and still outermost; the cache directly before the router.
    def filters(c: dict) -> list[dict]:
        """Every HTTP filter of every connection manager, the Wasm filter's JSON
        configuration left out."""
        out = []
        for _, hcm in walk(c):
            if hcm.get("@type") == HCM_TYPE:
                for f in copy.deepcopy(hcm.get("http_filters") or []):
                    if (f.get("typed_config") or {}).get("@type") == WASM_TYPE:
                        f["typed_config"]["config"].pop("configuration", None)
                    out.append(f)
        return out
    theirs = {f["name"]: f for f in filters(ref) if f["name"] != ROUTER_NAME}
    ours = filters(cfg)
    for name, ref_f in theirs.items():
        mine = [f for f in ours if f["name"] == name]
        P.check(bool(mine) and all(f == ref_f for f in mine), w,
                f"http filter {name} differs from {REFERENCE}'s (or is missing)")
    for _, hcm in walk(cfg):
        if hcm.get("@type") != HCM_TYPE:
            continue
        names = http_filter_names(hcm)
        caches = [n for n in names if n.startswith("envoy.filters.http.cache")]
        if caches:
            P.check(names[-2:] == [caches[0], ROUTER_NAME], w,
                    "the cache filter must be the last filter before the router (filters "
                    "between them are skipped for cacheable requests)")
            P.check(names[:2] == ["envoy.filters.http.compressor.brotli",
                                  "envoy.filters.http.compressor.gzip"], w,
                    "the compressors must stay outermost in front of the cache")
            # The key is the URL alone: only the route that selects Markdown by Accept may
            # use the cache, or an HTML request could be answered with cached Markdown.
            routes = [r for vh in (hcm.get("route_config") or {}).get("virtual_hosts") or []
                      for r in vh.get("routes") or []]
            for r in routes:
                off = ((r.get("typed_per_filter_config") or {}).get(caches[0]) or {})
                if r.get("name") == "markdown":
                    P.check(any(h.get("name") == "accept"
                                for h in (r.get("match") or {}).get("headers") or []), w,
                            "route markdown must match on the Accept header")
                else:
                    P.check(off.get("disabled") is True, w,
                            f"route {r.get('name')!r}: the cache must be disabled on every "
                            "route but `markdown`")
    endpoints = [e["endpoint"]["address"].get("envoy_internal_address", {})
                 .get("server_listener_name")
                 for g in clusters.get("markdown", {}).get("load_assignment", {})
                 .get("endpoints", []) for e in g.get("lb_endpoints", [])]
    internal = [lst["name"] for lst in cfg["static_resources"]["listeners"]
                if "internal_listener" in lst]
    P.check(bool(endpoints) and set(endpoints) <= set(internal), w,
            f"cluster markdown must point at the internal listener(s) {internal}: {endpoints}")


def check_observability() -> None:
    """deploy/observability: Prometheus scrapes Envoy's admin /stats/prometheus on the admin
    port of envoy/envoy.yaml; the Grafana dashboard is valid JSON whose queries use only
    metrics that docs/OBSERVABILITY.md documents."""
    ref = load_one(REFERENCE)
    prom = load_one(f"{OBSERVABILITY}/prometheus.yml")
    if isinstance(prom, dict) and isinstance(ref, dict):
        admin_port = ref["admin"]["address"]["socket_address"]["port_value"]
        jobs = prom.get("scrape_configs") or []
        envoy_jobs = [j for j in jobs if j.get("metrics_path") == "/stats/prometheus"]
        w = f"{OBSERVABILITY}/prometheus.yml"
        if P.check(bool(envoy_jobs), w, "no scrape job with metrics_path /stats/prometheus"):
            targets = [t for j in envoy_jobs for sc in j.get("static_configs") or []
                       for t in sc.get("targets") or []]
            P.check(any(str(t).endswith(f":{admin_port}") for t in targets), w,
                    f"no /stats/prometheus target on Envoy's admin port {admin_port}")
    path = ROOT / OBSERVABILITY / "grafana-dashboard.json"
    w = rel(path)
    try:
        dash = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        P.add(w, f"not valid JSON: {e}")
        return
    panels = dash.get("panels") or []
    exprs = [t.get("expr", "") for p in panels for t in p.get("targets") or []]
    P.check(bool(dash.get("title")) and bool(panels), w, "a dashboard needs a title and panels")
    P.check(len(exprs) > 0 and all(exprs), w, "every panel target needs a PromQL expr")
    P.check(len({p.get("id") for p in panels}) == len(panels), w, "panel ids must be unique")
    documented = set(re.findall(r"markdown_[a-z_]+", (ROOT / OBSERVABILITY_DOC).read_text()))
    used = set(re.findall(r"markdown_[a-z_]+", " ".join(exprs)))
    P.check(used <= documented, w,
            f"queries use metrics not documented in {OBSERVABILITY_DOC}: "
            f"{sorted(used - documented)}")


# --- main ------------------------------------------------------------------------------------


def guarded(where: str, fn):
    """Run a check; a file whose shape is not what the check expects is a problem, not a crash."""
    try:
        return fn()
    except (KeyError, IndexError, ValueError, TypeError, AttributeError) as e:
        P.add(where, f"unexpected structure ({type(e).__name__}: {e})")
        return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--envoy", default=os.environ.get("ENVOY_PATH"),
                    help="Envoy binary (default: ENVOY_PATH, else scripts/envoy-path.sh)")
    ap.add_argument("--wasm", default=str(ROOT / REL_WASM), help="the built filter")
    args = ap.parse_args()

    envoy = args.envoy
    if not envoy:
        out = subprocess.run([str(ROOT / "scripts/envoy-path.sh")], capture_output=True,
                             text=True, check=False)
        envoy = out.stdout.strip()
    if not envoy or not os.access(envoy, os.X_OK):
        print("validate: no Envoy binary: run scripts/setup.sh (or set ENVOY_PATH)",
              file=sys.stderr)
        return 1
    wasm = Path(args.wasm).resolve()
    if not wasm.is_file():
        print(f"validate: {rel(wasm)} missing: run `make wasm` first", file=sys.stderr)
        return 1
    version = envoy_version(envoy)

    files = yaml_files()
    for f in files:
        load_docs(f)
    say(f"{len(files)} YAML files parse: " + ", ".join(rel(f) for f in files))

    check_oci_dockerfile()

    with tempfile.TemporaryDirectory(prefix="md-validate-") as tmpdir:
        tmp = Path(tmpdir)
        runs: list[tuple[str, Path]] = [(REFERENCE, ROOT / REFERENCE)]

        guarded(COMPOSE_ENVOY, check_compose_variant)
        guarded(CACHE_ENVOY, check_cache_variant)
        runs.append((CACHE_ENVOY, ROOT / CACHE_ENVOY))
        guarded(OBSERVABILITY, check_observability)
        compose_cfg = guarded(COMPOSE_FILE, lambda: check_compose(version, wasm))
        if compose_cfg is not None:
            runs.append((f"{COMPOSE_ENVOY} (container paths mapped to the host's mounts)",
                         write_json(tmp, "compose", compose_cfg)))

        runs += guarded("deploy/istio", lambda: check_istio(wasm, tmp)) or []
        runs += guarded(EG_DIR, lambda: check_envoy_gateway(wasm, tmp)) or []

        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda r: run_envoy(envoy, *r), runs))
        for label, ok, tail in results:
            if ok:
                say(f"envoy {version} --mode validate OK: {label}")
            else:
                P.add(label, f"envoy --mode validate failed:\n{tail}")

    if P.items:
        for item in P.items:
            print(f"validate: FAIL {item}", file=sys.stderr)
        print(f"validate: {len(P.items)} problem(s)", file=sys.stderr)
        return 1
    say(f"all deployment configs valid ({len(results)} Envoy configs, {len(files)} YAML files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
