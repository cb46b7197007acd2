// The playground: the engine's wasm-pack `--target web` build, driven by plain DOM code.
// Output is only ever written as text (textContent), never parsed as HTML.
import init, { convert, estimateTokens } from './pkg/agent_markdown_web.js';

const $ = (id) => document.getElementById(id);
const el = {
  html: $('html'),
  markdown: $('markdown'),
  corpus: $('corpus'),
  baseUrl: $('base-url'),
  frontMatter: $('front-matter'),
  prune: $('prune'),
  tokens: $('tokens'),
  tokensMarkdown: $('tokens-markdown'),
  tokensHtml: $('tokens-html'),
  tokensSaved: $('tokens-saved'),
  tokensBar: $('tokens-bar'),
  title: $('title'),
  etag: $('etag'),
  encoding: $('encoding'),
  timing: $('timing'),
  htmlSize: $('html-size'),
  markdownSize: $('markdown-size'),
  copy: $('copy'),
  status: $('status'),
};

const DEBOUNCE_MS = 200;
// The base URL the corpus goldens are made with: a picked page then converts to its .md.
const CORPUS_BASE = 'https://corpus.example/';
const number = new Intl.NumberFormat('en-US');
const percent = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

// What gets converted: the textarea's text, or a corpus page's bytes until the textarea is
// edited (bytes keep the page's own charset handling, exactly as the filter sees them).
let source = { kind: 'text' };
let ready = false;
let timer = 0;
let revision = 0;

const SAMPLE = `<!doctype html>
<html lang="en">
<head>
  <title>Release notes: widgets 2.0</title>
  <meta name="description" content="What changed in widgets 2.0">
</head>
<body>
  <nav><a href="/">Home</a> · <a href="/docs/">Docs</a> · <a href="/blog/">Blog</a></nav>
  <main>
    <h1>Widgets 2.0</h1>
    <p>Widgets now <strong>render twice as fast</strong> and support <a href="/docs/themes">themes</a>.</p>
    <h2>Upgrading</h2>
    <pre><code class="language-sh">npm install widgets@2</code></pre>
    <table>
      <tr><th>Version</th><th>Released</th></tr>
      <tr><td>2.0</td><td>2026-03-01</td></tr>
      <tr><td>1.9</td><td>2025-11-12</td></tr>
    </table>
  </main>
  <footer>© Widgets Inc. <a href="/privacy">Privacy</a></footer>
  <script>trackPageView();</script>
</body>
</html>
`;

function setStatus(state, message) {
  el.status.dataset.state = state;
  el.status.textContent = message;
}

function options() {
  const opts = { frontMatter: el.frontMatter.checked, prune: el.prune.checked };
  const base = el.baseUrl.value.trim();
  if (base) opts.baseUrl = base;
  return opts;
}

function bytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${percent.format(n / 1024)} KB`;
  return `${percent.format(n / 1024 / 1024)} MB`;
}

// The text a page's bytes decode to, for the textarea (the engine reports the encoding).
function decodeForDisplay(data, encoding) {
  try {
    return new TextDecoder(encoding).decode(data);
  } catch {
    return new TextDecoder().decode(data); // a label TextDecoder lacks, e.g. "replacement"
  }
}

function schedule() {
  clearTimeout(timer);
  setStatus('pending', 'Converting…');
  timer = setTimeout(run, DEBOUNCE_MS);
}

function run() {
  clearTimeout(timer);
  timer = 0;
  if (!ready) return;
  const input = source.kind === 'bytes' ? source.bytes : el.html.value;
  let result;
  let ms;
  try {
    const start = performance.now();
    result = convert(input, options());
    ms = performance.now() - start;
  } catch (err) {
    showError(err);
    return;
  }
  if (source.kind === 'bytes' && !source.shown) {
    el.html.value = decodeForDisplay(source.bytes, result.encoding);
    source.shown = true;
  }
  show(result, ms);
}

function show(result, ms) {
  const htmlText = el.html.value;
  const htmlTokens = estimateTokens(htmlText);
  const saved = htmlTokens > 0 ? (1 - result.tokens / htmlTokens) * 100 : 0;

  el.markdown.textContent = result.markdown;
  el.markdown.dataset.revision = String(++revision);
  el.markdown.classList.remove('stale');

  el.tokens.dataset.markdown = String(result.tokens);
  el.tokens.dataset.html = String(htmlTokens);
  el.tokens.dataset.saved = saved.toFixed(1);
  el.tokensMarkdown.textContent = number.format(result.tokens);
  el.tokensHtml.textContent = number.format(htmlTokens);
  el.tokensSaved.textContent = `${percent.format(saved)} %`;
  el.tokensBar.style.width = `${Math.max(0, Math.min(100, 100 - saved))}%`;

  el.title.textContent = result.title ?? '–';
  el.etag.textContent = result.etag;
  el.encoding.textContent = result.encoding;
  el.timing.dataset.ms = ms.toFixed(2);
  el.timing.textContent = `${ms < 10 ? ms.toFixed(2) : ms.toFixed(0)} ms`;
  const htmlBytes = source.kind === 'bytes' ? source.bytes.length : new Blob([htmlText]).size;
  el.htmlSize.textContent = bytes(htmlBytes);
  el.markdownSize.textContent = bytes(new Blob([result.markdown]).size);
  el.copy.disabled = result.markdown.length === 0;
  setStatus('ready', `Converted ${bytes(htmlBytes)} of HTML.`);
}

function showError(err) {
  // Invalid options (e.g. a relative base URL): keep the last output, marked stale.
  el.markdown.classList.add('stale');
  el.markdown.dataset.revision = String(++revision);
  setStatus('error', err instanceof Error ? err.message : String(err));
}

async function loadCorpusPage(path) {
  if (!path) return;
  setStatus('loading', `Loading ${path}…`);
  const response = await fetch(`corpus/${path.split('/').map(encodeURIComponent).join('/')}`);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  source = { kind: 'bytes', bytes: new Uint8Array(await response.arrayBuffer()), shown: false };
  el.baseUrl.value = CORPUS_BASE + path;
  run();
}

async function loadCorpusList() {
  const response = await fetch('corpus.json');
  if (!response.ok) throw new Error(`corpus.json: HTTP ${response.status}`);
  const manifest = await response.json();
  const groups = new Map();
  for (const page of manifest.pages) {
    if (!groups.has(page.category)) groups.set(page.category, []);
    groups.get(page.category).push(page);
  }
  el.corpus.replaceChildren(new Option(`Pick one of ${manifest.pages.length} pages…`, ''));
  for (const [category, pages] of groups) {
    const group = document.createElement('optgroup');
    group.label = category;
    for (const page of pages) {
      group.append(new Option(`${page.path} (${bytes(page.bytes)})`, page.path));
    }
    el.corpus.append(group);
  }
  el.corpus.disabled = false;
}

el.html.addEventListener('input', () => {
  source = { kind: 'text' };
  el.corpus.value = '';
  schedule();
});
for (const input of [el.frontMatter, el.prune]) input.addEventListener('change', run);
el.baseUrl.addEventListener('input', schedule);
el.corpus.addEventListener('change', () => {
  loadCorpusPage(el.corpus.value).catch(showError);
});
el.copy.addEventListener('click', () => {
  navigator.clipboard.writeText(el.markdown.textContent).then(
    () => setStatus('ready', 'Markdown copied to the clipboard.'),
    (err) => setStatus('error', `Copy failed: ${err.message}`),
  );
});
$('controls').addEventListener('submit', (event) => event.preventDefault());

el.html.value = SAMPLE;
loadCorpusList().catch((err) => setStatus('error', `Corpus list unavailable: ${err.message}`));
init()
  .then(() => {
    ready = true;
    run();
  })
  .catch((err) => setStatus('error', `Could not load the converter: ${err.message}`));
