#!/usr/bin/env python3
"""Envoy's instructions per Markdown request, by Wasm function: callgrind on one worker.

`scripts/profile_envoy.py` samples time, which moves ±20 % between runs on a shared vCPU;
instruction counts do not move, so two builds compare exactly (they do not weigh cache
misses: read them beside the timed profile). Envoy's V8 code has no symbols, but V8 enters
every Wasm function through its slot in the module's jump table (8 bytes per slot on x86-64,
in function order, from the start of the code space), and callgrind names each function it
cannot resolve by the address it was entered at: slot k is the module's k-th function that
is not an import. (The exported `proxy_on_*` entry points are the exception: Envoy enters
them through V8's wrappers, so their own few instructions count as V8 code outside the
module.) This script copies the filter cargo built (`make wasm` first), optimises
the copy like `make wasm` but keeping function names (`wasm-opt -g`: the same code), runs
the ~10 KB page through Envoy under callgrind (one keep-alive HTTP/1.1 client, like `make
bench`'s instruction counts; warm-up requests first) and prints instructions per request:
Envoy's own code, libc, other V8 code, and the Wasm functions with the most.

    .venv/bin/python scripts/envoy_instructions.py                 # memo off: every request converted
    .venv/bin/python scripts/envoy_instructions.py --memo on --top 15
    .venv/bin/python scripts/envoy_instructions.py --wasm OTHER.wasm   # a build of your own (names kept)

Needs valgrind, `make build`; takes 3-5 minutes (V8 compiles the module under valgrind).
Not part of `make test`.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SLOT = 8  # V8's x64 JumpTableAssembler::kJumpTableSlotSize


def leb(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        b = data[at]
        at += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, at


def functions(wasm: bytes) -> tuple[int, dict[int, str]]:
    """(number of imported functions, {function index: name}) from the import and name sections."""
    imported, names, at = 0, {}, 8
    while at < len(wasm):
        sid, at = leb(wasm, at)
        size, at = leb(wasm, at)
        body, at = wasm[at : at + size], at + size
        if sid == 2:  # imports: module name, field name, kind, type
            count, p = leb(body, 0)
            for _ in range(count):
                for _ in range(2):
                    n, p = leb(body, p)
                    p += n
                kind = body[p]
                p += 1
                if kind == 0:
                    imported += 1
                    _, p = leb(body, p)
                elif kind == 1:  # table: reftype, limits
                    flags, p = leb(body, p + 1)
                    _, p = leb(body, p)
                    if flags & 1:
                        _, p = leb(body, p)
                elif kind == 2:  # memory: limits
                    flags, p = leb(body, p)
                    _, p = leb(body, p)
                    if flags & 1:
                        _, p = leb(body, p)
                else:  # global: valtype, mutability
                    p += 2
        elif sid == 0:
            n, p = leb(body, 0)
            if body[p : p + n] != b"name":
                continue
            p += n
            while p < len(body):
                sub = body[p]
                p += 1
                length, p = leb(body, p)
                if sub == 1:
                    q = p
                    count, q = leb(body, q)
                    for _ in range(count):
                        idx, q = leb(body, q)
                        n, q = leb(body, q)
                        names[idx] = body[q : q + n].decode("utf-8", "replace")
                        q += n
                p += length
    return imported, names


def demangle(names: list[str]) -> list[str]:
    """rustfilt/c++filt when installed, else the names as they are."""
    for tool in (["rustfilt"], ["c++filt"]):
        if shutil.which(tool[0]):
            out = subprocess.run(tool, input="\n".join(names), capture_output=True, text=True)
            lines = out.stdout.splitlines()
            if out.returncode == 0 and len(lines) == len(names):
                return [re.sub(r"::h[0-9a-f]{16}$", "", line) for line in lines]
    return names


def exclusive_costs(dump: Path) -> tuple[dict[int, int], "collections.Counter[str]"]:
    """Self instructions from a callgrind dump: {address: count} for code of no object
    (V8's), and the rest by object (Envoy, libc, other). Reads the format itself:
    callgrind_annotate lists JIT code only inclusively here."""
    ids: dict[str, str] = {}
    jit: dict[int, int] = collections.Counter()
    buckets: collections.Counter[str] = collections.Counter()
    ob = fn = ""
    after_call = False

    def name(spec: str) -> str:
        m = re.match(r"\((\d+)\)(?: (.*))?$", spec)
        if not m:
            return spec
        if m.group(2) is not None:
            ids[m.group(1)] = m.group(2)
        return ids.get(m.group(1), "")

    with dump.open(errors="replace") as f:
        for line in f:
            if line[:1].isdigit() or line[:1] in "+-*":
                if after_call:
                    after_call = False
                    continue
                parts = line.split()
                count = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
                if ob == "???" and fn.startswith("0x"):
                    jit[int(fn, 16)] += count
                elif "envoy" in ob:
                    buckets["envoy"] += count
                elif "libc" in ob:
                    buckets["libc"] += count
                else:
                    buckets["other"] += count
            elif line.startswith("ob="):
                ob = name(line[3:].strip())
            elif line.startswith("fn="):
                fn = name(line[3:].strip())
            elif line.startswith(("cob=", "cfn=", "cfi=", "cfl=", "fl=", "fi=", "fe=")):
                name(line.split("=", 1)[1].strip())
            elif line.startswith("calls="):
                after_call = True
    return dict(jit), buckets


def named_copy(work: Path) -> Path:
    """The filter as `make wasm` builds it, optimised the same way but with its names."""
    target = Path(os.environ.get("CARGO_TARGET_DIR") or REPO / "target")
    built = target / "wasm32-wasip1/release/deps/markdown_filter.wasm"
    if not built.exists():
        sys.exit(f"envoy_instructions: {built} missing: run `make wasm` first")
    copy = work / "markdown_filter.wasm"
    shutil.copyfile(built, copy)
    flags = os.environ.get("WASM_OPT_FLAGS", "-O3 --one-caller-inline-max-function-size=50")
    env = dict(os.environ, WASM_OPT_FLAGS=f"{flags} -g")
    subprocess.run([str(REPO / "scripts/wasm-opt.sh"), str(copy)], check=True, env=env)
    return copy


def report(a, wasm: Path, imported: int, names: dict[int, str], dump: Path, per: float | None) -> int:
    jit, buckets = exclusive_costs(dump)
    n = a.requests
    defined = max(names) + 1 - imported
    # The jump table starts the code space, page-aligned: its first page holds the slots of
    # the module's first 512 functions, some of which every request enters (the allocator's
    # are the first).
    # V8's builtins run from other addresses of no object: the table is the region, within
    # one table's length, around the address that counted the most.
    span = SLOT * defined
    top_addr = max(jit, key=jit.get, default=0)
    hot = [x for x in jit if x % SLOT == 0 and abs(x - top_addr) < span]
    base = min(hot, default=0) & ~0xFFF
    by_fn: collections.Counter[int] = collections.Counter()
    for addr, count in jit.items():
        k, off = divmod(addr - base, SLOT)
        if off == 0 and 0 <= k < defined:
            by_fn[imported + k] += count
        else:
            buckets["V8 code outside the module"] += count
    wasm_total = sum(by_fn.values())
    total = wasm_total + sum(buckets.values())
    if per is None:
        per = total / n
    print(f"memo {a.memo}: {per / 1000:,.1f} K instructions per Markdown request (the ~10 KB "
          f"page, {n} requests, {wasm.name}; self costs add up to {total / n / 1000:,.1f} K)")
    print(f"  {'Wasm (the filter and engine)':30s} {wasm_total / n / 1000:9,.1f} K  "
          f"{100 * wasm_total / max(total, 1):5.1f} %")
    for name, count in buckets.most_common():
        print(f"  {name:30s} {count / n / 1000:9,.1f} K  {100 * count / max(total, 1):5.1f} %")
    top = by_fn.most_common(a.top)
    shown = demangle([names.get(i, f"function {i}") for i, _ in top])
    print("Wasm functions by self instructions (callees inlined by wasm-opt or V8 count in their caller):")
    for (i, count), name in zip(top, shown):
        print(f"  {count / n / 1000:9,.1f} K  {100 * count / max(wasm_total, 1):5.1f} %  {name[:110]}")
    # The SDK's dispatcher creates a context for every request, through the table.
    if not any("create_http_context" in names.get(i, "") for i in by_fn):
        print("warning: proxy_wasm's create_http_context is not among the mapped functions: "
              "the jump table is not where this script assumes, so the names above are wrong")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memo", choices=["on", "off"], default="off")
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--wasm", type=Path, help="a filter module with its name section")
    ap.add_argument("--dump", type=Path, help="read this callgrind dump (of --wasm) instead of running Envoy")
    a = ap.parse_args()
    if not (shutil.which("valgrind") and shutil.which("callgrind_annotate")):
        sys.exit("envoy_instructions: valgrind not found (Debian: apt-get install valgrind)")
    work = Path(tempfile.mkdtemp(prefix="envoy-instructions-"))
    try:
        wasm = a.wasm or named_copy(work)
        imported, names = functions(wasm.read_bytes())
        if not names:
            sys.exit(f"envoy_instructions: {wasm} has no function names (wasm-opt -g keeps them)")
        if a.dump:
            return report(a, wasm, imported, names, a.dump, None)
        # bench reads the module's path when imported.
        os.environ["MD_FILTER_WASM"] = str(wasm)
        sys.path.insert(0, str(REPO / "scripts"))
        import bench  # noqa: E402

        procs = bench.Procs()
        try:
            ports = [19381, 19382]
            bench.start_origin(procs, work, ports, None)
            envoy = bench.Envoy(
                "instr", 21300, 1, None, plugin_config=bench.NO_MEMO if a.memo == "off" else None
            )
            per = bench.instructions_per_request(
                procs, envoy, ("text/markdown",), work, ports, a.requests
            )
        finally:
            procs.stop_all()
        # The dump after the counted requests (Envoy's exit writes `instr.<pid>` after it).
        return report(a, wasm, imported, names, next(work.glob("instr.*.1")), per.get("markdown"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
