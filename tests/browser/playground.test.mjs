// The playground in real headless Chromium (Debian's, via playwright-core): the wasm build
// must convert exactly like the native md-convert, show consistent token figures, reject
// bad options with a clear error, and never let hostile input run or leak.
//
// Needs: playground/build (make playground-build), md-convert (make native), chromium and
// `npm ci` here (scripts/web-setup.sh --browser). `make test-browser` does all of that.
// Overrides: MD_CONVERT_BIN, CHROMIUM_PATH; PLAYGROUND_SCREENSHOT=file.png saves a screenshot.

import { after, afterEach, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CORPUS = path.join(ROOT, 'corpus');
const PKG = path.join(ROOT, 'playground/build/pkg');
const TARGET_DIR = process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target');
const MD_CONVERT = process.env.MD_CONVERT_BIN || path.join(TARGET_DIR, 'release/md-convert');
const CORPUS_BASE = 'https://corpus.example/';
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

let server;
let baseUrl;
let browser;
let page;
let wasm; // the same build, loaded in Node: the reference for the HTML token estimate
const problems = []; // page errors, console errors, dialogs, failed requests

function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  const found = spawnSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' });
  assert.equal(found.status, 0, 'chromium not on PATH (scripts/web-setup.sh --browser installs it)');
  return found.stdout.trim();
}

/** md-convert on `input` (Buffer or string) with CLI `args`: { markdown, stats }. */
function mdConvert(input, args = []) {
  const run = spawnSync(MD_CONVERT, [...args, '--stats', '-'], {
    input,
    maxBuffer: 64 << 20,
  });
  assert.equal(run.error, undefined, `cannot run ${MD_CONVERT}: ${run.error}`);
  assert.equal(run.status, 0, `md-convert failed: ${run.stderr}`);
  return { markdown: run.stdout.toString('utf8'), stats: JSON.parse(run.stderr.toString('utf8')) };
}

/** Byte-equality with a readable message (never dumps megabytes). */
function assertSameText(actual, expected, what) {
  if (actual === expected) return;
  let at = 0;
  while (at < actual.length && actual[at] === expected[at]) at++;
  const near = (s) => JSON.stringify(s.slice(Math.max(0, at - 60), at + 60));
  assert.fail(
    `${what}: differs at char ${at} (browser ${actual.length} chars, md-convert ${expected.length})\n` +
      `  browser:    ${near(actual)}\n  md-convert: ${near(expected)}`,
  );
}

async function revision() {
  return Number(await page.$eval('#markdown', (el) => el.dataset.revision));
}

/** Wait until a conversion newer than `since` is shown and nothing is pending. */
async function converted(since, { state = 'ready', timeout = 60_000 } = {}) {
  await page.waitForFunction(
    (since) =>
      Number(document.querySelector('#markdown').dataset.revision) > since &&
      ['ready', 'error'].includes(document.querySelector('#status').dataset.state),
    since,
    { timeout },
  );
  const status = await page.$eval('#status', (el) => ({ state: el.dataset.state, text: el.textContent }));
  assert.equal(status.state, state, `status: ${status.text}`);
  return status;
}

async function shown() {
  return page.evaluate(() => {
    const q = (s) => document.querySelector(s);
    const tokens = q('#tokens');
    return {
      markdown: q('#markdown').textContent,
      markdownChildren: q('#markdown').childElementCount,
      html: q('#html').value,
      tokens: {
        markdown: Number(tokens.dataset.markdown),
        html: Number(tokens.dataset.html),
        saved: tokens.dataset.saved,
        text: tokens.textContent.replace(/\s+/g, ' ').trim(),
      },
      etag: q('#etag').textContent,
      title: q('#title').textContent,
      encoding: q('#encoding').textContent,
      ms: Number(q('#timing').dataset.ms),
    };
  });
}

/** The figures in #tokens agree with the engine: Markdown tokens with md-convert's, HTML
 *  tokens with the estimate of the HTML shown, and the percentage with both. */
function assertTokens(got, expectedMarkdownTokens) {
  assert.equal(got.tokens.markdown, expectedMarkdownTokens, 'Markdown tokens vs md-convert --stats');
  assert.equal(got.tokens.html, wasm.estimateTokens(got.html), 'HTML tokens vs the estimate of the HTML');
  const saved = got.tokens.html > 0 ? (1 - got.tokens.markdown / got.tokens.html) * 100 : 0;
  assert.equal(got.tokens.saved, saved.toFixed(1));
  const fmt = new Intl.NumberFormat('en-US');
  assert.match(got.tokens.text, new RegExp(`${fmt.format(got.tokens.markdown)} Markdown tokens`));
  assert.match(got.tokens.text, new RegExp(`${fmt.format(got.tokens.html)} HTML tokens`));
  assert.match(got.tokens.text, / saved$/);
}

async function paste(html) {
  const since = await revision();
  await page.fill('#html', html);
  await converted(since);
  return shown();
}

before(async () => {
  assert.ok(fs.existsSync(path.join(PKG, 'agent_markdown_web_bg.wasm')), 'no playground build: make playground-build');
  assert.ok(fs.existsSync(MD_CONVERT), `no md-convert at ${MD_CONVERT}: make native`);

  wasm = await import(pathToFileURL(path.join(PKG, 'agent_markdown_web.js')).href);
  wasm.initSync({ module: fs.readFileSync(path.join(PKG, 'agent_markdown_web_bg.wasm')) });

  server = spawn('python3', [path.join(ROOT, 'playground/serve.py'), '--port', '0'], {
    env: { ...process.env, PLAYGROUND_QUIET: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: server.stdout });
  const [line] = await Promise.race([
    once(lines, 'line'),
    once(server, 'exit').then(([code]) => assert.fail(`serve.py exited with ${code}`)),
  ]);
  baseUrl = line.match(/serving (http:\/\/127\.0\.0\.1:\d+\/)/)?.[1];
  assert.ok(baseUrl, `unexpected serve.py output: ${line}`);

  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('dialog', (dialog) => {
    problems.push(`dialog (${dialog.type()}): ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()}`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });

});

// A freshly loaded playground for every test, so that one failure cannot cascade.
beforeEach(async () => {
  await page.goto(baseUrl);
  await converted(0); // the sample document, once the wasm module is loaded
  await page.waitForFunction(() => !document.querySelector('#corpus').disabled);
});

afterEach(() => {
  // Every test ends with a clean page: no script error, console error, dialog or 404.
  assert.deepEqual(problems.splice(0), []);
});

after(async () => {
  if (browser) {
    if (process.env.PLAYGROUND_SCREENSHOT && page) {
      await page.screenshot({ path: process.env.PLAYGROUND_SCREENSHOT });
    }
    await browser.close();
  }
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
});

test('serves the wasm module as application/wasm', async () => {
  const res = await fetch(new URL('pkg/agent_markdown_web_bg.wasm', baseUrl));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/wasm');
  assert.equal((await fetch(new URL('../Makefile', baseUrl))).status, 404);
  assert.equal((await fetch(new URL('corpus/%2e%2e/Makefile', baseUrl))).status, 404);
});

test('the sample converts like md-convert on load', async () => {
  const got = await shown();
  const want = mdConvert(got.html);
  assertSameText(got.markdown, want.markdown, 'sample');
  assert.match(got.markdown, /^---\ntitle: "Release notes: widgets 2\.0"\n/);
  assert.equal(got.etag, want.stats.etag);
  assertTokens(got, want.stats.tokens);
});

test('pasted HTML converts byte-for-byte like md-convert, with every option', async () => {
  const html = `<!doctype html><html lang="de"><head><title>Grüße — 東京 🚀</title>
    <meta name="author" content="Zoë"></head><body>
    <nav><a href="/">Start</a></nav>
    <article><h1>Über <em>uns</em></h1><p>Text with <code>a|b</code>, *stars* and a
    <a href="rel/page?x=1&amp;y=2">relative link</a>.</p>
    <ul><li>one<ul><li>nested <del>old</del></li></ul></li><li><input type=checkbox checked> done</li></ul>
    <table><tr><th align=right>n</th><th>name</th></tr><tr><td>1</td><td>Ærø | ø</td></tr></table>
    <pre><code class="language-rust">fn main() {\n    println!("hi");\n}</code></pre>
    <blockquote><p>quoted<br>line</p></blockquote></article>
    <footer>footer text</footer></body></html>`;
  let got = await paste(html);
  let want = mdConvert(html);
  assertSameText(got.markdown, want.markdown, 'defaults');
  assert.equal(got.title, want.stats.title);
  assert.equal(got.etag, want.stats.etag);
  assert.equal(got.encoding, 'UTF-8');
  assertTokens(got, want.stats.tokens);

  // Every option through the UI, each compared with the same md-convert flags.
  let since = await revision();
  await page.fill('#base-url', 'https://example.org/dir/index.html');
  await converted(since);
  since = await revision();
  await page.uncheck('#front-matter');
  await converted(since);
  since = await revision();
  await page.uncheck('#prune');
  await converted(since);
  got = await shown();
  want = mdConvert(html, ['--base-url', 'https://example.org/dir/index.html', '--no-front-matter', '--no-prune']);
  assertSameText(got.markdown, want.markdown, 'base URL, no front matter, no pruning');
  assert.match(got.markdown, /\(https:\/\/example\.org\/dir\/rel\/page\?x=1&y=2\)/);
  assert.match(got.markdown, /footer text/);
  assertTokens(got, want.stats.tokens);
});

test('invalid options are a clear error, not a crash', async () => {
  const since = await revision();
  await page.fill('#base-url', 'docs/page.html');
  const status = await converted(since, { state: 'error' });
  assert.match(status.text, /^agent-markdown: invalid options: baseUrl: must be an absolute http\(s\) URL/);

  const thrown = await page.evaluate(async () => {
    const m = await import('./pkg/agent_markdown_web.js');
    const attempt = (...args) => {
      try {
        m.convert(...args);
        return 'no error';
      } catch (err) {
        return `${err.constructor.name}: ${err.message}`;
      }
    };
    return {
      unknownKey: attempt('<p>x</p>', { frontmatter: false }),
      wrongType: attempt('<p>x</p>', { prune: 'no' }),
      notAnObject: attempt('<p>x</p>', 'prune'),
      badInput: attempt(42),
      // Still usable afterwards (a Rust panic would have trapped the instance).
      after: m.convert(new TextEncoder().encode('<p>still <b>fine</b></p>'), null).markdown,
      undefinedKeys: m.convert('<p>x</p>', { baseUrl: undefined, prune: undefined }).markdown,
    };
  });
  assert.match(thrown.unknownKey, /^TypeError: agent-markdown: invalid options: unknown field `frontmatter`, expected one of `baseUrl`, `contentType`, `frontMatter`, `prune`/);
  assert.match(thrown.wrongType, /^TypeError: agent-markdown: invalid options: invalid type: string "no", expected a boolean/);
  assert.match(thrown.notAnObject, /^TypeError: agent-markdown: invalid options: /);
  assert.equal(thrown.badInput, 'TypeError: agent-markdown: html must be a string or a Uint8Array');
  assert.equal(thrown.after, 'still **fine**\n');
  assert.equal(thrown.undefinedKeys, 'x\n');

  // Fixing the option recovers.
  const again = await revision();
  await page.fill('#base-url', 'https://example.org/');
  await converted(again);
});

test('hostile input neither runs nor leaks into the output', async () => {
  const html = `<p>safe text</p>
    <a href="javascript:alert(1)">x</a> <a href="JaVaScRiPt&colon;alert(2)">y</a>
    <script>alert(3); window.__pwned = 1;</script>
    <img src="x" onerror="alert(4); window.__pwned = 1">
    <svg onload="alert(5)"><script>alert(6)</script></svg>
    <iframe src="javascript:alert(7)"></iframe>
    </textarea><script>alert(8)</script>
    <a href="data:text/html,<script>alert(9)</script>">z</a>`;
  const got = await paste(html);
  // Give anything that managed to get scheduled a chance to run.
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(got.markdownChildren, 0, '#markdown holds only text');
  assert.match(got.markdown, /safe text/);
  for (const bad of ['javascript', 'alert', '<script', 'onerror', 'onload', 'data:text']) {
    assert.ok(!got.markdown.toLowerCase().includes(bad), `output contains ${bad}: ${got.markdown}`);
  }
  assertSameText(got.markdown, mdConvert(html).markdown, 'hostile input');
});

// One page per category, the legacy encodings (bytes, not text), and the largest page.
const CORPUS_PAGES = [
  'index.html',
  'blog/wordpress-travel.html',
  'docs/sphinx-rtd-resample.html',
  'tables/wiki-rowspan-colspan.html',
  'encodings/shift_jis.html',
  'encodings/utf16le-bom.html',
  'encodings/latin1-label-cp1252-bytes.html',
  'malformed/garbage-bytes.html',
];

async function pick(rel) {
  const since = await revision();
  await page.selectOption('#corpus', rel);
  await converted(since, { timeout: 120_000 });
  return shown();
}

function checkCorpusPage(rel, got) {
  const file = path.join(CORPUS, rel);
  const want = mdConvert(fs.readFileSync(file), ['--base-url', CORPUS_BASE + rel]);
  assertSameText(got.markdown, want.markdown, rel);
  assert.equal(got.etag, want.stats.etag, `${rel}: etag`);
  assert.equal(got.title, want.stats.title ?? '–', `${rel}: title`);
  assert.equal(got.encoding, want.stats.encoding, `${rel}: encoding`);
  assertTokens(got, want.stats.tokens);
  assert.ok(got.tokens.html > got.tokens.markdown, `${rel}: Markdown should be cheaper than its HTML`);
}

test('corpus pages from the picker convert like md-convert', async () => {
  const listed = await page.$$eval('#corpus option', (opts) => opts.map((o) => o.value).filter(Boolean));
  const onDisk = fs
    .readdirSync(CORPUS, { recursive: true })
    .map((p) => p.split(path.sep).join('/'))
    .filter((p) => p.endsWith('.html') && !p.startsWith('generated/') && !p.startsWith('tools/'));
  assert.deepEqual([...listed].sort(), onDisk.sort(), 'the picker lists every corpus page');

  for (const rel of CORPUS_PAGES) {
    const pickable = listed.includes(rel) ? rel : listed.find((p) => p.startsWith(rel.split('/')[0] + '/'));
    assert.ok(pickable, `no corpus page like ${rel}`);
    const got = await pick(pickable);
    checkCorpusPage(pickable, got);
    // The textarea shows the page decoded with the encoding the engine found.
    if (pickable.startsWith('encodings/') && !pickable.includes('garbage')) {
      assert.doesNotMatch(got.html, /\uFFFD/, `${pickable}: decoded for display`);
    }
  }
});

test('the largest corpus page converts like md-convert (timing)', async (t) => {
  const listed = await page.$$eval('#corpus option', (opts) => opts.map((o) => o.value).filter(Boolean));
  const largest = listed
    .map((rel) => ({ rel, size: fs.statSync(path.join(CORPUS, rel)).size }))
    .sort((a, b) => b.size - a.size)[0];
  const got = await pick(largest.rel);
  checkCorpusPage(largest.rel, got);

  // Two more conversions of the same page (front matter off and on again) for the timing.
  const times = [got.ms];
  for (const action of ['uncheck', 'check']) {
    const since = await revision();
    await page[action]('#front-matter');
    await converted(since, { timeout: 120_000 });
    times.push((await shown()).ms);
  }
  t.diagnostic(
    `${largest.rel} (${(largest.size / 1048576).toFixed(2)} MiB): convert() in Chromium ${times.map((ms) => ms.toFixed(1)).join(' / ')} ms`,
  );
  assert.ok(times.every((ms) => ms > 0), `timings recorded: ${times}`);
});

test('editing a picked page converts the edited text', async () => {
  await pick('encodings/windows-1252.html');
  const text = await page.inputValue('#html');
  assert.match(text, /Café/);
  const edited = text.replace('</h1>', '</h1><p>Añadido — 100 €</p>');
  const got = await paste(edited);
  // Text is read as UTF-8 whatever its <meta charset> says (it is no longer bytes).
  const want = mdConvert(edited, ['--base-url', `${CORPUS_BASE}encodings/windows-1252.html`, '--content-type', 'text/html; charset=utf-8']);
  assertSameText(got.markdown, want.markdown, 'edited page');
  assert.match(got.markdown, /Añadido — 100 €/);
  assert.equal(await page.inputValue('#corpus'), '');
});
