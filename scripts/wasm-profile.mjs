#!/usr/bin/env node
// Where the engine's time goes as Wasm under V8's optimising compiler, by function: the view
// `scripts/profile_envoy.py` cannot give (Envoy is stripped and V8's code there has no
// symbols). Envoy runs the filter with Liftoff off (proxy-wasm-cpp-host), so this does too.
//
//   cargo build --release -p md-convert --target wasm32-wasip1
//   node scripts/wasm-profile.mjs corpus/large/bench-10kb.html [copies] [top]
//
// Runs `md-convert --bench` (built for wasm32-wasip1, through node:wasi) over `copies`
// (default 2000) copies of the page in a temporary directory, under the inspector's
// sampling profiler, then prints md-convert's JSON line (seconds per stage, all copies) and
// the functions with the most self time (default 40). WASM=path picks another build. The
// profiler slows the run about threefold, so read the shares, not the stage times; and a
// profile is of one machine state: compare builds in runs made back to back.
import { mkdtempSync, copyFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { WASI } from 'node:wasi';

// V8's flags must be set before it starts: run again with them.
if (!process.execArgv.includes('--no-liftoff')) {
  const args = ['--no-liftoff', '--no-warnings', ...process.argv.slice(1)];
  process.exit(spawnSync(process.execPath, args, { stdio: 'inherit' }).status ?? 1);
}

const [page, copiesArg, topArg] = process.argv.slice(2);
if (!page) {
  console.error('usage: node scripts/wasm-profile.mjs PAGE.html [copies] [top]');
  process.exit(2);
}
const copies = Number(copiesArg ?? 2000);
const top = Number(topArg ?? 40);
const wasmPath = process.env.WASM
  ?? resolve(import.meta.dirname, '../target/wasm32-wasip1/release/md-convert.wasm');

const dir = mkdtempSync(join(tmpdir(), 'wasm-profile-'));
try {
  for (let i = 0; i < copies; i++) copyFileSync(page, join(dir, `p${i}.html`));
  const module = await WebAssembly.compile(readFileSync(wasmPath));
  const wasi = new WASI({
    version: 'preview1',
    args: ['md-convert', '--bench', dir],
    preopens: { [dir]: dir },
    returnOnExit: true,
  });
  const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  // md-convert prints its JSON line (seconds per stage, all pages) to stdout itself.
  wasi.start(instance);
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  for (const id of profile.samples) {
    const name = demangle(byId.get(id)?.callFrame.functionName || '(anonymous)');
    self.set(name, (self.get(name) ?? 0) + 1);
  }
  const total = profile.samples.length;
  console.log(`${copies} copies of ${page}, ${wasmPath}: ${total} samples; self time by function`);
  for (const [name, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((100 * n) / total).toFixed(1).padStart(5)} %  ${name.slice(0, 140)}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** `_ZN4sha26sha25611compress25617h…E` → `sha2::sha256::compress256` (Rust's legacy
 *  mangling, which Wasm function names keep); anything else as it is. */
function demangle(name) {
  if (!name.startsWith('_ZN') || !name.endsWith('E')) return name;
  const parts = [];
  for (let i = 3; i < name.length - 1;) {
    const m = /^\d+/.exec(name.slice(i));
    if (!m) return name;
    const len = Number(m[0]);
    i += m[0].length;
    parts.push(name.slice(i, i + len));
    i += len;
  }
  if (/^h[0-9a-f]{16}$/.test(parts.at(-1) ?? '')) parts.pop();
  for (let k = 0; k < parts.length; k++) if (parts[k].startsWith('_$')) parts[k] = parts[k].slice(1);
  const codes = { LT: '<', GT: '>', u20: ' ', C: ',', RF: '&', BP: '*', SP: '@', u7b: '{', u7d: '}' };
  return parts
    .join('::')
    .replace(/\$([A-Za-z0-9]+)\$/g, (m, c) => codes[c] ?? m)
    .replace(/\.\./g, '::');
}
