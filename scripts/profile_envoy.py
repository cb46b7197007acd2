#!/usr/bin/env python3
"""Where a request's CPU goes inside Envoy: `perf record` on one pinned worker under k6.

Starts the origin (core 1) and one Envoy (one worker, core 0) the way `make bench` does,
warms it up, runs k6 (core 1) on the ~10 KB page and samples Envoy with `perf record -g`
for --seconds. Prints Envoy CPU µs per request split by where the sampled code lives:

- `wasm`: V8's compiled Wasm (the filter and engine; perf sees it as JIT code),
- `envoy, from wasm`: Envoy's own code (host calls, V8 runtime) called from the Wasm,
- `envoy`: the rest of Envoy (network, HTTP codec, filter chain, entering the VM),
- `kernel`, `libc`, `other`.

Compare `--scenario markdown --memo off` (every request converted), `--memo on` (the
default configuration; repeats come from the memo) and `--scenario passthrough` (HTML
requested: the Accept gate keeps the VM out). Each run's numbers are for one machine
state; compare runs made back to back. Needs perf (Debian `linux-perf`), k6
(`scripts/k6.sh`), `make build`; not part of `make test`.

    .venv/bin/python scripts/profile_envoy.py --scenario markdown --memo off
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402  (the harness make bench uses: origin, Envoy configs, k6)


def classify(frames: list[tuple[str, str]]) -> str:
    """The bucket of one sample, from its leaf frame and whether Wasm is below it."""
    leaf = frames[0][1]
    below_wasm = any("perf-" in dso for _, dso in frames[1:])
    if "perf-" in leaf:
        return "wasm"
    if "[kernel" in leaf:
        return "kernel"
    if "libc" in leaf:
        return "libc"
    if "envoy" in leaf:
        return "envoy, from wasm" if below_wasm else "envoy"
    return "other"


def samples(perf_data: Path) -> collections.Counter:
    out = subprocess.run(
        ["perf", "script", "-i", str(perf_data), "-F", "ip,dso"],
        capture_output=True, text=True, check=True,
    ).stdout
    counts: collections.Counter = collections.Counter()
    frames: list[tuple[str, str]] = []
    for line in out.splitlines() + [""]:
        if not line.strip():
            if frames:
                counts[classify(frames)] += 1
            frames = []
            continue
        ip, _, dso = line.strip().partition(" ")
        frames.append((ip, dso))
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", choices=["markdown", "passthrough"], default="markdown")
    ap.add_argument("--memo", choices=["on", "off"], default="off")
    ap.add_argument("--vus", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=12.0)
    ap.add_argument("--hz", type=int, default=2000, help="perf sampling frequency")
    a = ap.parse_args()
    if not shutil.which("perf"):
        sys.exit("profile_envoy: perf not found (Debian: apt-get install linux-perf)")
    work = Path(tempfile.mkdtemp(prefix="profile-envoy-"))
    procs = bench.Procs()
    try:
        ports = [19181, 19182]
        bench.start_origin(procs, work, ports, "1")
        envoy = bench.Envoy(
            "profiled", 21100, 1, "0", plugin_config=bench.NO_MEMO if a.memo == "off" else None
        )
        envoy.start(procs, work, ports)
        bench.warm_up(envoy, 20)
        summary = work / "k6.json"
        argv = bench.pin("1") + [
            bench.k6_bin(), "run", "--quiet", "--no-usage-report",
            "-e", f"BASE_URL={envoy.url('h1')}", "-e", "PROTO=h1",
            "-e", f"SCENARIO={a.scenario}", "-e", f"PAGE={bench.PAGES['small']}",
            "-e", f"VUS={a.vus}", "-e", f"DURATION={a.seconds + 8:g}s",
            "-e", f"SUMMARY={summary}", str(bench.K6_DIR / "bench.js"),
        ]
        k6 = subprocess.Popen(argv, cwd=bench.REPO, stdout=subprocess.DEVNULL,
                              env=dict(os.environ, K6_NO_USAGE_REPORT="true"))
        time.sleep(4)  # past k6's ramp
        data = work / "perf.data"
        cpu0 = bench.cpu_seconds(envoy.pid)
        subprocess.run(
            ["perf", "record", "-q", "-F", str(a.hz), "-g", "-o", str(data),
             "-p", str(envoy.pid), "--", "sleep", f"{a.seconds:g}"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        cpu = bench.cpu_seconds(envoy.pid) - cpu0
        k6.wait()
        k = bench.parse_k6(json.loads(summary.read_text()))
        reqs = (k.get("rps") or 0) * a.seconds
        counts = samples(data)
        total = sum(counts.values())
        print(f"{a.scenario}, memo {a.memo}, h1 c={a.vus}, one worker on core 0 (k6 and the "
              f"origin on core 1): {k.get('rps') or 0:,.0f} req/s, Envoy CPU "
              f"{1e6 * cpu / max(reqs, 1):,.0f} µs/req, {total:,} samples")
        for bucket in ("wasm", "envoy, from wasm", "envoy", "kernel", "libc", "other"):
            share = counts[bucket] / max(total, 1)
            print(f"  {bucket:18s} {100 * share:5.1f} %  {1e6 * cpu * share / max(reqs, 1):7,.0f} µs/req")
        return 0
    finally:
        procs.stop_all()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
