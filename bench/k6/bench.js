// One load-test cell: one page, one kind of request, one protocol, a fixed number of clients.
// `make bench` (scripts/bench.py) runs the matrix; by hand, against `make run`:
//
//   k6 run -e SCENARIO=markdown -e PAGE=/large/bench-10kb.html -e VUS=10 -e DURATION=10s bench/k6/bench.js
//   SSL_CERT_FILE=envoy/certs/ca.crt k6 run -e BASE_URL=https://127.0.0.1:10443 -e PROTO=h2 ... bench/k6/bench.js
//
// Environment:
//   BASE_URL    http://127.0.0.1:10000 (HTTP/1.1); an https:// URL for HTTP/2 (k6 negotiates h2 only
//               through ALPN, so h2 means the TLS listener; trust envoy/certs/ca.crt via SSL_CERT_FILE,
//               or INSECURE=1)
//   PROTO       h1 | h2 — the protocol every response must have come over (default: from BASE_URL)
//   SCENARIO    passthrough (browser Accept: the original HTML) | markdown (Accept: text/markdown)
//               | markdown_304 (If-None-Match with the page's Markdown ETag, fetched in setup)
//   PAGE        path on the origin (default /large/bench-10kb.html)
//   VUS         concurrent clients (default 10), each with its own keep-alive connection
//   DURATION    e.g. 10s (default), or ITERATIONS=n for a fixed number of requests shared by the VUs,
//               stopped after MAX_DURATION (default 30m) if they take longer
//   P99_MS      latency threshold on p99 (default 5000): a sanity bound, not a target
//   SUMMARY     path of a JSON file the end-of-test summary is written to (scripts/bench.py reads it)
//
// Every request says `Accept-Encoding: identity` explicitly (k6 1.8 sends none by default): were
// gzip/br offered, Envoy's compressors would compress (dropping the strong ETag) and the cell
// would measure brotli, not the filter.
import http from 'k6/http';
import { check } from 'k6';

const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:10000';
const PAGE = __ENV.PAGE || '/large/bench-10kb.html';
const SCENARIO = __ENV.SCENARIO || 'markdown';
const PROTO = __ENV.PROTO || (BASE_URL.startsWith('https:') ? 'h2' : 'h1');
const VUS = parseInt(__ENV.VUS || '10', 10);
const ITERATIONS = parseInt(__ENV.ITERATIONS || '0', 10);
const DURATION = __ENV.DURATION || '10s';
const P99_MS = parseFloat(__ENV.P99_MS || '5000');

const SCENARIOS = ['passthrough', 'markdown', 'markdown_304'];
if (!SCENARIOS.includes(SCENARIO)) {
  throw new Error(`SCENARIO must be one of ${SCENARIOS.join(', ')}, not ${SCENARIO}`);
}
if (PROTO !== 'h1' && PROTO !== 'h2') {
  throw new Error(`PROTO must be h1 or h2, not ${PROTO}`);
}
const WANT_PROTO = PROTO === 'h2' ? 'HTTP/2.0' : 'HTTP/1.1';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const STRONG_ETAG = /^"[0-9a-f]{32}"$/;

export const options = {
  scenarios: {
    cell: ITERATIONS > 0
      ? {
          executor: 'shared-iterations',
          vus: VUS,
          iterations: ITERATIONS,
          maxDuration: __ENV.MAX_DURATION || '30m',
        }
      : { executor: 'constant-vus', vus: VUS, duration: DURATION },
  },
  // Bodies are counted (data_received) but not kept: the client's work stays the same for
  // a 10 KB and a 1 MB page, so the cells compare the proxy, not k6's JavaScript.
  discardResponseBodies: true,
  insecureSkipTLSVerify: __ENV.INSECURE === '1',
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(50)', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'count'],
  thresholds: {
    checks: ['rate==1'],
    http_req_failed: ['rate==0'],
    http_req_duration: [`p(99)<${P99_MS}`],
  },
};

const headerOf = (r, name) => {
  // k6 canonicalises header names (Content-Type, Etag, X-Markdown-Tokens).
  const v = r.headers[name];
  return Array.isArray(v) ? v.join(', ') : v || '';
};
const contentType = (r) => headerOf(r, 'Content-Type').toLowerCase();

export function setup() {
  if (SCENARIO !== 'markdown_304') {
    return {};
  }
  const r = http.get(`${BASE_URL}${PAGE}`, {
    headers: { Accept: 'text/markdown', 'Accept-Encoding': 'identity' },
  });
  const etag = headerOf(r, 'Etag');
  if (r.status !== 200 || !STRONG_ETAG.test(etag)) {
    throw new Error(`setup: ${PAGE} as Markdown gave ${r.status} with ETag ${etag || '(none)'}`);
  }
  return { etag };
}

export default function (data) {
  const url = `${BASE_URL}${PAGE}`;
  if (SCENARIO === 'passthrough') {
    const r = http.get(url, { headers: { Accept: BROWSER_ACCEPT, 'Accept-Encoding': 'identity' } });
    check(r, {
      'status 200': (x) => x.status === 200,
      'content-type text/html': (x) => contentType(x).startsWith('text/html'),
      protocol: (x) => x.proto === WANT_PROTO,
    });
  } else if (SCENARIO === 'markdown') {
    const r = http.get(url, { headers: { Accept: 'text/markdown', 'Accept-Encoding': 'identity' } });
    check(r, {
      'status 200': (x) => x.status === 200,
      'content-type text/markdown': (x) => contentType(x).startsWith('text/markdown'),
      'strong 32-hex etag': (x) => STRONG_ETAG.test(headerOf(x, 'Etag')),
      'x-markdown-tokens': (x) => /^\d+$/.test(headerOf(x, 'X-Markdown-Tokens')),
      protocol: (x) => x.proto === WANT_PROTO,
    });
  } else {
    const r = http.get(url, {
      headers: {
        Accept: 'text/markdown',
        'Accept-Encoding': 'identity',
        'If-None-Match': data.etag,
      },
    });
    check(r, {
      'status 304': (x) => x.status === 304,
      'same etag': (x) => headerOf(x, 'Etag') === data.etag,
      protocol: (x) => x.proto === WANT_PROTO,
    });
  }
}

const fmt = (v, digits = 2) => (typeof v === 'number' ? v.toFixed(digits) : '-');

export function handleSummary(data) {
  const m = data.metrics;
  const d = (m.http_req_duration && m.http_req_duration.values) || {};
  const reqs = (m.http_reqs && m.http_reqs.values) || {};
  const checks = (m.checks && m.checks.values) || {};
  const line =
    `${SCENARIO} ${PAGE} ${PROTO} vus=${VUS}: ${fmt(reqs.rate, 1)} req/s, ` +
    `p50 ${fmt(d['p(50)'])} ms, p99 ${fmt(d['p(99)'])} ms, ` +
    `${reqs.count || 0} requests, ${checks.fails || 0} failed checks\n`;
  const out = { stdout: line };
  if (__ENV.SUMMARY) {
    out[__ENV.SUMMARY] = JSON.stringify(data);
  }
  return out;
}
