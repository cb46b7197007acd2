// Soak: mixed traffic at steady concurrency for a long time (`make soak`, scripts/bench.py soak).
//
//   k6 run -e DURATION=10m -e VUS=8 bench/k6/soak.js                 (against `make run`)
//   SSL_CERT_FILE=envoy/certs/ca.crt k6 run -e BASE_URL_H2=https://127.0.0.1:10443 bench/k6/soak.js
//
// Each iteration picks one request by weight: the original HTML of a small/medium page (30),
// its Markdown (35), a conditional request with the ETag this VU last saw for the page (20),
// the Markdown of a ~1 MB page (8) or its HTML (7). With BASE_URL_H2 set, even-numbered VUs
// use it (HTTP/2 over TLS) and odd ones BASE_URL (HTTP/1.1).
//
// Checked on every response, all of which must pass (threshold checks rate==1): the protocol, and
//   Markdown  200, text/markdown, ETag == '"' + first 32 hex digits of sha256(body) + '"' (how
//             engine/src/meta.rs `etag` computes it), Content-Length == body length, and the
//             same ETag every time this VU fetches the page (conversion is deterministic)
//   304       status 304, the ETag sent back, no body
//   HTML      200, text/html, Content-Length == body length, no X-Markdown-Tokens
// Requests carry `Accept-Encoding: identity` (a compressed Markdown body carries no ETag).
import http from 'k6/http';
import crypto from 'k6/crypto';
import { check } from 'k6';

const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:10000';
const BASE_URL_H2 = __ENV.BASE_URL_H2 || '';
const VUS = parseInt(__ENV.VUS || '8', 10);
const DURATION = __ENV.DURATION || '10m';

const PAGES = [
  '/large/bench-10kb.html',
  '/docs/docusaurus-routing.html',
  '/docs/javadoc-lrucache.html',
  '/docs/manpage-logsift.html',
  '/docs/mkdocs-material-config.html',
  '/docs/rustdoc-ringbuffer.html',
  '/docs/sphinx-rtd-resample.html',
  '/blog/hugo-tcp-keepalive.html',
  '/blog/wordpress-sourdough.html',
  '/news/markets-yields.html',
];
const LARGE = ['/large/bench-1200kb.html', '/large/docs-1mb.html'];
const MIX = [
  ['html', 30],
  ['markdown', 35],
  ['not_modified', 20],
  ['markdown_large', 8],
  ['html_large', 7],
];
const TOTAL_WEIGHT = MIX.reduce((sum, [, w]) => sum + w, 0);

export const options = {
  scenarios: {
    soak: { executor: 'constant-vus', vus: VUS, duration: DURATION, gracefulStop: '30s' },
  },
  insecureSkipTLSVerify: __ENV.INSECURE === '1',
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(50)', 'p(95)', 'p(99)', 'p(99.9)', 'count'],
  thresholds: {
    checks: ['rate==1'],
    http_req_failed: ['rate==0'],
    // One entry per kind, so the summary reports each kind's count and latency.
    ...Object.fromEntries(MIX.map(([kind]) => [`http_req_duration{kind:${kind}}`, ['p(99)<30000']])),
  },
};

// Per VU: the ETag last seen for each page, for If-None-Match and the stability check.
const seen = {};

const headerOf = (r, name) => {
  const v = r.headers[name];
  return Array.isArray(v) ? v.join(', ') : v || '';
};
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const bodyLength = (r) => (r.body ? r.body.byteLength : 0);

function pickKind() {
  let x = Math.random() * TOTAL_WEIGHT;
  for (const [kind, w] of MIX) {
    if (x < w) {
      return kind;
    }
    x -= w;
  }
  return MIX[0][0];
}

function markdown(base, page, kind) {
  const r = http.get(`${base}${page}`, {
    headers: { Accept: 'text/markdown', 'Accept-Encoding': 'identity' },
    responseType: 'binary',
    tags: { kind, page },
  });
  const etag = headerOf(r, 'Etag');
  const ok = check(r, {
    'markdown: status 200': (x) => x.status === 200,
    'markdown: content-type text/markdown': (x) =>
      headerOf(x, 'Content-Type').toLowerCase().startsWith('text/markdown'),
    'markdown: etag is sha256 of the body': () =>
      r.body !== null && etag === `"${crypto.sha256(r.body, 'hex').slice(0, 32)}"`,
    'markdown: content-length matches the body': (x) =>
      parseInt(headerOf(x, 'Content-Length'), 10) === bodyLength(x),
    'markdown: same etag as before': () => seen[page] === undefined || seen[page] === etag,
  });
  if (ok) {
    seen[page] = etag;
  }
  return r;
}

function notModified(base, page) {
  if (seen[page] === undefined) {
    return markdown(base, page, 'markdown');
  }
  const etag = seen[page];
  const r = http.get(`${base}${page}`, {
    headers: { Accept: 'text/markdown', 'Accept-Encoding': 'identity', 'If-None-Match': etag },
    responseType: 'binary',
    tags: { kind: 'not_modified', page },
  });
  check(r, {
    '304: status 304': (x) => x.status === 304,
    '304: etag sent back': (x) => headerOf(x, 'Etag') === etag,
    '304: no body': (x) => bodyLength(x) === 0,
  });
  return r;
}

function html(base, page, kind) {
  const r = http.get(`${base}${page}`, {
    headers: {
      Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'Accept-Encoding': 'identity',
    },
    responseType: 'binary',
    tags: { kind, page },
  });
  check(r, {
    'html: status 200': (x) => x.status === 200,
    'html: content-type text/html': (x) =>
      headerOf(x, 'Content-Type').toLowerCase().startsWith('text/html'),
    'html: content-length matches the body': (x) =>
      parseInt(headerOf(x, 'Content-Length'), 10) === bodyLength(x),
    'html: no markdown tokens header': (x) => headerOf(x, 'X-Markdown-Tokens') === '',
  });
  return r;
}

export default function () {
  const h2 = BASE_URL_H2 !== '' && __VU % 2 === 0;
  const base = h2 ? BASE_URL_H2 : BASE_URL;
  const kind = pickKind();
  let r;
  if (kind === 'html') {
    r = html(base, pick(PAGES), kind);
  } else if (kind === 'markdown') {
    r = markdown(base, pick(PAGES), kind);
  } else if (kind === 'not_modified') {
    r = notModified(base, pick(PAGES));
  } else if (kind === 'markdown_large') {
    r = markdown(base, pick(LARGE), kind);
  } else {
    r = html(base, pick(LARGE), kind);
  }
  check(r, { protocol: (x) => x.proto === (h2 ? 'HTTP/2.0' : 'HTTP/1.1') });
}

export function handleSummary(data) {
  const m = data.metrics;
  const reqs = (m.http_reqs && m.http_reqs.values) || {};
  const checks = (m.checks && m.checks.values) || {};
  const failed = (m.http_req_failed && m.http_req_failed.values) || {};
  const line =
    `soak: ${reqs.count || 0} requests (${(reqs.rate || 0).toFixed(1)} req/s), ` +
    `${checks.passes || 0} checks passed, ${checks.fails || 0} failed, ` +
    `${failed.passes || 0} failed requests\n`;
  const out = { stdout: line };
  if (__ENV.SUMMARY) {
    out[__ENV.SUMMARY] = JSON.stringify(data);
  }
  return out;
}
