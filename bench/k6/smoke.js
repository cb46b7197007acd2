// k6 smoke test: one corpus page through Envoy, asked for as Markdown and as HTML.
//
//   docker compose --profile bench run --rm k6                      (BASE_URL=http://envoy:10000)
//   BASE_URL=http://127.0.0.1:10000 k6 run bench/k6/smoke.js         (against `make run`)
//
// Bounded on purpose: 2 virtual users for 10 s, local targets only. Fails (non-zero exit) when
// any check fails or a request errors.
import http from 'k6/http';
import { check } from 'k6';

const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:10000';
const PAGE = __ENV.PAGE || '/docs/sphinx-rtd-resample.html';

export const options = {
  vus: 2,
  duration: '10s',
  thresholds: {
    checks: ['rate==1'],
    http_req_failed: ['rate==0'],
  },
};

export default function () {
  const md = http.get(`${BASE_URL}${PAGE}`, { headers: { Accept: 'text/markdown' } });
  check(md, {
    'markdown: status 200': (r) => r.status === 200,
    'markdown: content-type text/markdown': (r) =>
      (r.headers['Content-Type'] || '').toLowerCase().startsWith('text/markdown'),
    'markdown: x-markdown-tokens': (r) => /^\d+$/.test(r.headers['X-Markdown-Tokens'] || ''),
    'markdown: strong etag': (r) => /^"[0-9a-f]{32}"$/.test(r.headers['Etag'] || ''),
  });

  const html = http.get(`${BASE_URL}${PAGE}`);
  check(html, {
    'html: status 200': (r) => r.status === 200,
    'html: content-type text/html': (r) =>
      (r.headers['Content-Type'] || '').toLowerCase().startsWith('text/html'),
  });
}
