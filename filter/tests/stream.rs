//! The filter's request/response flow, driven natively through a fake host that mimics how
//! Envoy delivers callbacks to a proxy-wasm filter: a paused response keeps its headers and
//! accumulates the body (each body callback sees the whole buffered length), `Continue`
//! releases whatever is held, and after release the header map is gone — the fake panics on
//! any later access, as the real SDK would trap the VM.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::io::Write;
use std::rc::Rc;

use agent_markdown::{convert, Options};
use markdown_filter::config::{Conditional, Config, HeadMode};
use markdown_filter::eligibility::Reason;
use markdown_filter::headers::Header;
use markdown_filter::memo::{Memo, SharedMemo};
use markdown_filter::metrics::{log_fields, Counter, Sink};
use markdown_filter::stream::{Host, HostError, Stream};
use proxy_wasm::types::Action;

const PAGE: &[u8] = b"<!doctype html><html><head><title>T\xc3\xa9st</title></head><body>\
<nav>menu</nav><main><h1>Hello</h1><p>See <a href=\"/other?x=1\">other</a> &amp; more.</p>\
<ul><li>one</li><li>two</li></ul></main><footer>foot</footer></body></html>";

#[derive(Default)]
struct Fake {
    req: RefCell<Vec<Header>>,
    resp: RefCell<Vec<Header>>,
    req_released: Cell<bool>,
    resp_released: Cell<bool>,
    body: RefCell<Vec<u8>>,
    fail_body_read: Cell<bool>,
    counters: RefCell<HashMap<Counter, u64>>,
    conversions: RefCell<Vec<u64>>,
    clock: Cell<u64>,
    log_fields: RefCell<HashMap<String, String>>,
    /// Response header edits (each one a host call in Envoy).
    resp_writes: RefCell<Vec<String>>,
}

fn set(map: &RefCell<Vec<Header>>, name: &str, value: Option<&[u8]>) {
    let mut m = map.borrow_mut();
    m.retain(|(n, _)| n != name);
    if let Some(v) = value {
        m.push((name.to_owned(), v.to_vec()));
    }
}

impl Host for Fake {
    fn request_headers(&self) -> Vec<Header> {
        assert!(
            !self.req_released.get(),
            "request headers read after release"
        );
        self.req.borrow().clone()
    }
    fn set_request_header(&self, name: &str, value: Option<&[u8]>) -> Result<(), HostError> {
        assert!(
            !self.req_released.get(),
            "request headers written after release"
        );
        set(&self.req, name, value);
        Ok(())
    }
    fn response_headers(&self) -> Vec<Header> {
        assert!(
            !self.resp_released.get(),
            "response headers read after release"
        );
        self.resp.borrow().clone()
    }
    fn set_response_header(&self, name: &str, value: Option<&[u8]>) -> Result<(), HostError> {
        assert!(
            !self.resp_released.get(),
            "response headers written after release"
        );
        self.resp_writes.borrow_mut().push(name.to_owned());
        set(&self.resp, name, value);
        Ok(())
    }
    fn response_body(&self, len: usize) -> Result<Vec<u8>, HostError> {
        if self.fail_body_read.get() {
            return Err(HostError);
        }
        self.body
            .borrow()
            .get(..len)
            .map(<[u8]>::to_vec)
            .ok_or(HostError)
    }
    fn replace_response_body(&self, body: &[u8]) -> Result<(), HostError> {
        *self.body.borrow_mut() = body.to_vec();
        Ok(())
    }
    fn now_micros(&self) -> Option<u64> {
        self.clock.set(self.clock.get() + 250);
        Some(self.clock.get())
    }
    fn set_log_field(&self, name: &str, value: &str) {
        let old = self
            .log_fields
            .borrow_mut()
            .insert(name.to_owned(), value.to_owned());
        assert!(old.is_none(), "log field {name} set twice");
    }
}

impl Sink for Fake {
    fn add(&self, counter: Counter, n: u64) {
        if n > 0 {
            *self.counters.borrow_mut().entry(counter).or_default() += n;
        }
    }
    fn record_conversion_us(&self, micros: u64) {
        self.conversions.borrow_mut().push(micros);
    }
}

fn hdrs(pairs: &[(&str, &str)]) -> Vec<Header> {
    pairs
        .iter()
        .map(|(n, v)| ((*n).to_owned(), v.as_bytes().to_vec()))
        .collect()
}

/// What the client and the upstream saw.
struct Outcome {
    upstream_request: Vec<Header>,
    headers: Vec<Header>,
    body: Vec<u8>,
    counters: HashMap<Counter, u64>,
    conversions: usize,
    log_fields: HashMap<String, String>,
    response_writes: Vec<String>,
}

impl Outcome {
    fn log(&self, name: &str) -> Option<&str> {
        self.log_fields.get(name).map(String::as_str)
    }
    fn header(&self, name: &str) -> Option<String> {
        let mut it = self.headers.iter().filter(|(n, _)| n == name);
        let v = it
            .next()
            .map(|(_, v)| String::from_utf8(v.clone()).unwrap());
        assert!(it.next().is_none(), "duplicate {name}");
        v
    }
    fn upstream(&self, name: &str) -> Option<String> {
        self.upstream_request
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| String::from_utf8(v.clone()).unwrap())
    }
    fn count(&self, c: Counter) -> u64 {
        self.counters.get(&c).copied().unwrap_or(0)
    }
    /// Responses counted in one of the mutually exclusive outcomes.
    fn outcomes(&self) -> u64 {
        self.count(Counter::Converted)
            + self.count(Counter::NotModified)
            + Reason::ALL
                .iter()
                .map(|r| self.count(Counter::Passthrough(*r)))
                .sum::<u64>()
    }
}

struct Exchange<'a> {
    cfg: Config,
    request: Vec<Header>,
    response: Vec<Header>,
    chunks: Vec<&'a [u8]>,
    trailers: bool,
    /// Stop after the body chunks without end of stream (a reset while buffering).
    reset: bool,
    fail_body_read: bool,
    /// The VM's memo, to share between exchanges; `None`: a fresh one per exchange.
    memo: Option<SharedMemo>,
}

impl<'a> Exchange<'a> {
    fn new(request: &[(&str, &str)], response: &[(&str, &str)], chunks: Vec<&'a [u8]>) -> Self {
        let mut req = hdrs(&[
            (":method", "GET"),
            (":scheme", "https"),
            (":authority", "docs.example"),
            (":path", "/guide/page?lang=en"),
        ]);
        for (n, v) in hdrs(request) {
            if n.starts_with(':') {
                req.retain(|(m, _)| *m != n);
            }
            req.push((n, v));
        }
        Exchange {
            cfg: Config::default(),
            request: req,
            response: hdrs(response),
            chunks,
            trailers: false,
            reset: false,
            fail_body_read: false,
            memo: None,
        }
    }

    fn memo(mut self, memo: &SharedMemo) -> Self {
        self.memo = Some(Rc::clone(memo));
        self
    }

    fn cfg(mut self, cfg: Config) -> Self {
        self.cfg = cfg;
        self
    }

    fn run(self) -> Outcome {
        let host = Fake::default();
        *host.req.borrow_mut() = self.request;
        host.fail_body_read.set(self.fail_body_read);
        let memo = self.memo.unwrap_or_else(|| {
            Rc::new(Memo::new(
                usize::try_from(self.cfg.memo_bytes).unwrap_or(usize::MAX),
            ))
        });
        let mut s = Stream::new(Rc::new(self.cfg), memo);

        assert_eq!(s.on_request_headers(&host), Action::Continue);
        host.req_released.set(true);
        let upstream_request = host.req.borrow().clone();

        *host.resp.borrow_mut() = self.response;
        let eos_at_headers = self.chunks.is_empty() && !self.trailers && !self.reset;
        let mut held = s.on_response_headers(&host, eos_at_headers) == Action::Pause;
        let mut sent_headers = None;
        let release = |sent: &mut Option<Vec<Header>>| {
            *sent = Some(host.resp.borrow().clone());
            host.resp_released.set(true);
        };
        if !held {
            release(&mut sent_headers);
        }

        let mut out = Vec::new();
        let mut buffered = Vec::new();
        let n = self.chunks.len();
        for (i, chunk) in self.chunks.into_iter().enumerate() {
            let eos = i + 1 == n && !self.trailers && !self.reset;
            if held {
                buffered.extend_from_slice(chunk);
                *host.body.borrow_mut() = buffered.clone();
                match s.on_response_body(&host, buffered.len(), eos) {
                    Action::Continue => {
                        held = false;
                        release(&mut sent_headers);
                        out.extend_from_slice(&host.body.borrow());
                    }
                    _ => buffered = host.body.borrow().clone(),
                }
            } else {
                *host.body.borrow_mut() = chunk.to_vec();
                assert_eq!(
                    s.on_response_body(&host, chunk.len(), eos),
                    Action::Continue
                );
                out.extend_from_slice(&host.body.borrow());
            }
        }
        if self.trailers && !self.reset {
            if held {
                *host.body.borrow_mut() = buffered.clone();
            }
            assert_eq!(s.on_response_trailers(&host), Action::Continue);
            if held {
                held = false;
                release(&mut sent_headers);
                out.extend_from_slice(&host.body.borrow());
            }
        }
        assert!(held == self.reset, "stream left paused: {held}");
        s.on_log(&host);
        let counters = host.counters.borrow().clone();
        let conversions = host.conversions.borrow().len();
        let log_fields = host.log_fields.borrow().clone();
        let response_writes = host.resp_writes.borrow().clone();
        // Every response's access-log outcome names the one outcome counter it moved.
        let counted: Vec<String> = counters.keys().filter_map(|c| c.outcome()).collect();
        assert_eq!(counted.len(), 1, "outcome counters {counters:?}");
        assert_eq!(log_fields.get(log_fields::OUTCOME), counted.first());
        Outcome {
            upstream_request,
            headers: sent_headers.unwrap_or_default(),
            body: out,
            counters,
            conversions,
            log_fields,
            response_writes,
        }
    }
}

fn html_response(extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let page_len = PAGE.len().to_string();
    let mut v: Vec<(String, String)> = [
        (":status", "200"),
        ("content-type", "text/html; charset=utf-8"),
        ("content-length", page_len.as_str()),
        ("etag", "\"html-etag\""),
        ("last-modified", "Wed, 21 Oct 2015 07:28:00 GMT"),
        ("cache-control", "max-age=60"),
        ("set-cookie", "session=1"),
        ("accept-ranges", "bytes"),
        ("vary", "Accept-Encoding"),
        ("content-md5", "abc="),
    ]
    .iter()
    .map(|(n, val)| ((*n).to_owned(), (*val).to_owned()))
    .collect();
    for (n, val) in extra {
        v.retain(|(m, _)| m != n);
        v.push(((*n).to_owned(), (*val).to_owned()));
    }
    v
}

fn as_refs(v: &[(String, String)]) -> Vec<(&str, &str)> {
    v.iter()
        .map(|(n, val)| (n.as_str(), val.as_str()))
        .collect()
}

/// What `md-convert --base-url <url>` produces with default options.
fn expected(url: &str, content_type: &str) -> agent_markdown::Output {
    convert(
        PAGE,
        &Options {
            base_url: Some(url.to_owned()),
            content_type: Some(content_type.to_owned()),
            ..Options::default()
        },
    )
}

const URL: &str = "https://docs.example/guide/page?lang=en";
const MD: (&str, &str) = ("accept", "text/markdown");

fn md_get<'a>(
    extra_req: &[(&str, &str)],
    extra_resp: &[(&str, &str)],
    chunks: Vec<&'a [u8]>,
) -> Exchange<'a> {
    let mut req = vec![MD];
    req.extend_from_slice(extra_req);
    let resp = html_response(extra_resp);
    Exchange::new(&req, &as_refs(&resp), chunks)
}

#[test]
fn only_headers_the_response_has_are_removed() {
    // Every edit is a host call: headers the response lacks are not "removed".
    let lean: Vec<(&str, &str)> = vec![(":status", "200"), ("content-type", "text/html")];
    let o = Exchange::new(&[("accept", "text/markdown")], &lean, vec![PAGE]).run();
    assert_eq!(o.count(Counter::Converted), 1);
    let mut writes = o.response_writes.clone();
    writes.sort();
    assert_eq!(
        writes,
        [
            "content-length",
            "content-type",
            "etag",
            "vary",
            "x-markdown-tokens"
        ],
    );
    // With them present, each goes.
    let o = md_get(
        &[],
        &[("content-encoding", "identity"), ("digest", "x")],
        vec![PAGE],
    )
    .run();
    for gone in ["accept-ranges", "content-md5", "digest", "content-encoding"] {
        assert!(
            o.response_writes.iter().any(|w| w == gone),
            "{gone} not removed"
        );
        assert_eq!(o.header(gone), None);
    }
}

#[test]
fn converts_with_the_engine_output_and_headers() {
    let o = md_get(&[], &[], vec![&PAGE[..40], &PAGE[40..]]).run();
    let want = expected(URL, "text/html; charset=utf-8");
    assert_eq!(o.body, want.markdown.as_bytes());
    assert_eq!(
        o.header("content-type").as_deref(),
        Some("text/markdown; charset=utf-8")
    );
    assert_eq!(
        o.header("content-length"),
        Some(want.markdown.len().to_string())
    );
    assert_eq!(o.header("etag"), Some(want.etag.clone()));
    assert_eq!(o.header("x-markdown-tokens"), Some(want.tokens.to_string()));
    assert_eq!(o.header("vary").as_deref(), Some("Accept-Encoding, Accept"));
    assert_eq!(o.header("accept-ranges"), None);
    assert_eq!(o.header("content-md5"), None);
    assert_eq!(o.header("content-signal"), None);
    assert_eq!(
        o.header("last-modified").as_deref(),
        Some("Wed, 21 Oct 2015 07:28:00 GMT")
    );
    assert_eq!(o.header("cache-control").as_deref(), Some("max-age=60"));
    assert_eq!(o.header("set-cookie").as_deref(), Some("session=1"));
    assert_eq!(o.header(":status").as_deref(), Some("200"));
    assert_eq!(o.count(Counter::Converted), 1);
    assert_eq!(o.count(Counter::BytesIn), PAGE.len() as u64);
    assert_eq!(o.count(Counter::BytesOut), want.markdown.len() as u64);
    assert_eq!(o.outcomes(), 1);
    assert_eq!(o.conversions, 1);
    // The client's conditional headers never reach the upstream on Markdown requests.
    assert_eq!(o.upstream(":method").as_deref(), Some("GET"));
}

#[test]
fn body_with_trailers_is_converted_at_the_trailers() {
    let mut x = md_get(
        &[],
        &[("content-length", "")],
        vec![&PAGE[..10], &PAGE[10..]],
    );
    x.response.retain(|(n, _)| n != "content-length");
    x.trailers = true;
    let o = x.run();
    let want = expected(URL, "text/html; charset=utf-8");
    assert_eq!(o.body, want.markdown.as_bytes());
    assert_eq!(
        o.header("content-length"),
        Some(want.markdown.len().to_string())
    );
    assert_eq!(o.count(Counter::Converted), 1);
}

#[test]
fn charset_from_content_type_reaches_the_engine() {
    let latin1: &[u8] =
        b"<html><head><title>Caf\xe9</title></head><body><p>cr\xe8me</p></body></html>";
    let resp = [
        (":status", "200"),
        ("content-type", "text/html; charset=ISO-8859-1"),
    ];
    let o = Exchange::new(&[MD], &resp, vec![latin1]).run();
    let want = convert(
        latin1,
        &Options {
            base_url: Some(URL.into()),
            content_type: Some("text/html; charset=ISO-8859-1".into()),
            ..Options::default()
        },
    );
    // The filter hands the response's Content-Type to the engine, which owns charset
    // decoding; the body is what the engine makes of it.
    assert_eq!(o.body, want.markdown.as_bytes());
}

#[test]
fn options_from_config_reach_the_engine() {
    let cfg = Config {
        front_matter: false,
        prune: false,
        tokens_header: "x-tokens".into(),
        content_signal: Some("ai-train=no, search=yes".into()),
        ..Config::default()
    };
    let o = md_get(&[], &[], vec![PAGE]).cfg(cfg).run();
    let want = convert(
        PAGE,
        &Options {
            base_url: Some(URL.into()),
            content_type: Some("text/html; charset=utf-8".into()),
            front_matter: false,
            prune: false,
        },
    );
    assert_eq!(o.body, want.markdown.as_bytes());
    assert_ne!(
        want.markdown,
        expected(URL, "text/html; charset=utf-8").markdown
    );
    assert_eq!(o.header("x-tokens"), Some(want.tokens.to_string()));
    assert_eq!(o.header("x-markdown-tokens"), None);
    assert_eq!(
        o.header("content-signal").as_deref(),
        Some("ai-train=no, search=yes")
    );
}

#[test]
fn base_url_scheme_from_trusted_forwarded_proto() {
    let cfg = Config {
        trusted_forwarded_proto: true,
        ..Config::default()
    };
    let o = md_get(
        &[(":scheme", "http"), ("x-forwarded-proto", "https")],
        &[],
        vec![PAGE],
    )
    .cfg(cfg)
    .run();
    assert_eq!(
        o.body,
        expected(URL, "text/html; charset=utf-8")
            .markdown
            .as_bytes()
    );
    let untrusted = md_get(
        &[(":scheme", "http"), ("x-forwarded-proto", "https")],
        &[],
        vec![PAGE],
    )
    .run();
    let http_url = URL.replacen("https", "http", 1);
    assert_eq!(
        untrusted.body,
        expected(&http_url, "text/html; charset=utf-8")
            .markdown
            .as_bytes()
    );
}

#[test]
fn not_requested_passes_bytes_untouched_with_vary() {
    for accept in [
        None,
        Some("text/html,application/xhtml+xml,*/*;q=0.8"),
        Some("text/markdown;q=abc"),
    ] {
        let req: Vec<(&str, &str)> = accept.map(|a| ("accept", a)).into_iter().collect();
        let resp = html_response(&[]);
        let o = Exchange::new(&req, &as_refs(&resp), vec![&PAGE[..7], &PAGE[7..]]).run();
        assert_eq!(o.body, PAGE);
        assert_eq!(o.header("vary").as_deref(), Some("Accept-Encoding, Accept"));
        assert_eq!(
            o.header("content-type").as_deref(),
            Some("text/html; charset=utf-8")
        );
        assert_eq!(o.header("etag").as_deref(), Some("\"html-etag\""));
        assert_eq!(
            o.count(Counter::Passthrough(Reason::NotRequested)),
            1,
            "{accept:?}"
        );
        assert_eq!(o.outcomes(), 1);
        assert_eq!(o.conversions, 0);
    }
}

#[test]
fn vary_on_passthrough_can_be_disabled_and_skips_non_html() {
    let resp = html_response(&[]);
    let cfg = Config {
        vary_on_passthrough: false,
        ..Config::default()
    };
    let o = Exchange::new(&[], &as_refs(&resp), vec![PAGE])
        .cfg(cfg)
        .run();
    assert_eq!(o.header("vary").as_deref(), Some("Accept-Encoding"));
    let json = [(":status", "200"), ("content-type", "application/json")];
    let o = Exchange::new(&[], &json, vec![b"{}"]).run();
    assert_eq!(o.header("vary"), None);
    let notfound = [(":status", "404"), ("content-type", "text/html")];
    let o = Exchange::new(&[], &notfound, vec![b"<p>x</p>"]).run();
    assert_eq!(o.header("vary"), None);
}

#[test]
fn response_reasons_pass_the_original_through() {
    let cases: Vec<(Vec<(&str, &str)>, Reason)> = vec![
        (vec![(":status", "404")], Reason::Status),
        (vec![(":status", "500")], Reason::Status),
        (
            vec![("content-type", "application/json")],
            Reason::ContentType,
        ),
        (vec![("cache-control", "no-transform")], Reason::NoTransform),
        (vec![("content-encoding", "zstd")], Reason::ContentEncoding),
        (vec![("content-length", "10485761")], Reason::OverCap),
    ];
    for (extra, reason) in cases {
        let resp = html_response(&extra);
        let o = Exchange::new(&[MD], &as_refs(&resp), vec![PAGE]).run();
        assert_eq!(o.body, PAGE, "{reason:?}");
        assert_eq!(
            o.header("content-type"),
            resp.iter()
                .find(|(n, _)| *n == "content-type")
                .map(|(_, v)| v.clone())
        );
        assert_eq!(
            o.header("etag").as_deref(),
            Some("\"html-etag\""),
            "{reason:?}"
        );
        assert_eq!(o.count(Counter::Passthrough(reason)), 1, "{reason:?}");
        assert_eq!(o.outcomes(), 1);
        assert_eq!(o.conversions, 0);
        let negotiable = reason == Reason::OverCap;
        let vary = o.header("vary").unwrap();
        assert_eq!(vary.ends_with("Accept"), negotiable, "{reason:?}: {vary}");
    }
}

#[test]
fn request_reasons_leave_the_upstream_request_alone() {
    let cases: Vec<(Vec<(&str, &str)>, Reason)> = vec![
        (vec![(":method", "POST")], Reason::Method),
        (vec![("range", "bytes=0-5")], Reason::Range),
        (vec![("cache-control", "no-transform")], Reason::NoTransform),
    ];
    for (extra, reason) in cases {
        let mut req = vec![MD, ("if-none-match", "\"html-etag\"")];
        req.extend(extra);
        let resp = html_response(&[]);
        let o = Exchange::new(&req, &as_refs(&resp), vec![PAGE]).run();
        assert_eq!(o.body, PAGE);
        assert_eq!(
            o.upstream("if-none-match").as_deref(),
            Some("\"html-etag\"")
        );
        assert_eq!(o.count(Counter::Passthrough(reason)), 1, "{reason:?}");
        assert_eq!(o.outcomes(), 1);
    }
}

#[test]
fn over_cap_while_buffering_releases_the_original_bytes() {
    let cfg = Config {
        max_body_bytes: 100,
        ..Config::default()
    };
    let mut x = md_get(&[], &[], PAGE.chunks(60).collect());
    x.response.retain(|(n, _)| n != "content-length");
    let o = x.cfg(cfg).run();
    assert!(PAGE.len() > 100);
    assert_eq!(o.body, PAGE);
    assert_eq!(
        o.header("content-type").as_deref(),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(o.header("vary").as_deref(), Some("Accept-Encoding, Accept"));
    assert_eq!(o.count(Counter::Passthrough(Reason::OverCap)), 1);
    assert_eq!(o.outcomes(), 1);
    assert_eq!(o.conversions, 0);
}

#[test]
fn body_exactly_at_cap_converts() {
    let cfg = Config {
        max_body_bytes: PAGE.len() as u64,
        ..Config::default()
    };
    let mut x = md_get(&[], &[], PAGE.chunks(50).collect());
    x.response.retain(|(n, _)| n != "content-length");
    let o = x.cfg(cfg).run();
    assert_eq!(o.count(Counter::Converted), 1);
}

fn etag_of_page() -> String {
    expected(URL, "text/html; charset=utf-8").etag
}

#[test]
fn full_mode_answers_304_for_matching_if_none_match() {
    let etag = etag_of_page();
    let weak = format!("W/{etag}");
    let list = format!("\"nope\", {weak}");
    for inm in [etag.as_str(), &weak, &list, "*"] {
        let o = md_get(
            &[
                ("if-none-match", inm),
                ("if-modified-since", "Wed, 21 Oct 2015 07:28:00 GMT"),
            ],
            &[],
            vec![PAGE],
        )
        .run();
        assert_eq!(o.header(":status").as_deref(), Some("304"), "{inm}");
        assert!(o.body.is_empty());
        assert_eq!(o.header("etag"), Some(etag.clone()));
        assert_eq!(o.header("vary").as_deref(), Some("Accept-Encoding, Accept"));
        assert_eq!(o.header("cache-control").as_deref(), Some("max-age=60"));
        assert_eq!(
            o.header("last-modified").as_deref(),
            Some("Wed, 21 Oct 2015 07:28:00 GMT")
        );
        for gone in [
            "content-type",
            "content-length",
            "x-markdown-tokens",
            "accept-ranges",
        ] {
            assert_eq!(o.header(gone), None, "{gone} on 304");
        }
        assert_eq!(o.upstream("if-none-match"), None);
        assert_eq!(o.upstream("if-modified-since"), None);
        assert_eq!(o.count(Counter::NotModified), 1);
        assert_eq!(o.count(Counter::BytesOut), 0);
        assert_eq!(o.outcomes(), 1);
    }
}

#[test]
fn full_mode_serves_200_when_nothing_matches() {
    for inm in ["\"html-etag\"", "garbage", "\"a\", *"] {
        let o = md_get(&[("if-none-match", inm)], &[], vec![PAGE]).run();
        assert_eq!(o.header(":status").as_deref(), Some("200"), "{inm}");
        assert_eq!(o.count(Counter::Converted), 1);
    }
    // If-Modified-Since alone is withheld and ignored.
    let o = md_get(
        &[("if-modified-since", "Wed, 21 Oct 2015 07:28:00 GMT")],
        &[],
        vec![PAGE],
    )
    .run();
    assert_eq!(o.header(":status").as_deref(), Some("200"));
    assert_eq!(o.upstream("if-modified-since"), None);
}

#[test]
fn ims_only_mode_defers_to_the_upstream() {
    let cfg = || Config {
        conditional: Conditional::ImsOnly,
        ..Config::default()
    };
    let ims = ("if-modified-since", "Wed, 21 Oct 2015 07:28:00 GMT");
    let etag = etag_of_page();
    let o = md_get(&[ims, ("if-none-match", &etag)], &[], vec![PAGE])
        .cfg(cfg())
        .run();
    assert_eq!(o.upstream("if-modified-since").as_deref(), Some(ims.1));
    assert_eq!(o.upstream("if-none-match"), Some(etag.clone()));
    assert_eq!(o.header(":status").as_deref(), Some("200"));
    assert_eq!(o.header("etag"), None, "no ETag in ims_only");
    assert_eq!(o.count(Counter::Converted), 1);

    // The upstream's 304 passes through with Vary added.
    let resp = [
        (":status", "304"),
        ("etag", "\"html-etag\""),
        ("vary", "Accept-Encoding"),
    ];
    let o = Exchange::new(&[MD, ims], &resp, vec![]).cfg(cfg()).run();
    assert_eq!(o.header(":status").as_deref(), Some("304"));
    assert_eq!(o.header("vary").as_deref(), Some("Accept-Encoding, Accept"));
    assert_eq!(
        o.header("etag"),
        None,
        "the HTML's ETag must not refresh the Markdown"
    );
    assert_eq!(o.count(Counter::Passthrough(Reason::Status)), 1);
    assert_eq!(o.outcomes(), 1);
}

#[test]
fn off_mode_emits_etag_but_never_answers_304() {
    let cfg = Config {
        conditional: Conditional::Off,
        ..Config::default()
    };
    let etag = etag_of_page();
    let o = md_get(&[("if-none-match", &etag)], &[], vec![PAGE])
        .cfg(cfg)
        .run();
    assert_eq!(o.upstream("if-none-match"), Some(etag.clone()));
    assert_eq!(o.header(":status").as_deref(), Some("200"));
    assert_eq!(o.header("etag"), Some(etag));
    assert_eq!(o.count(Counter::Converted), 1);
}

#[test]
fn head_is_fetched_as_get_and_answered_with_the_get_headers() {
    let get = md_get(&[], &[], vec![PAGE]).run();
    let head = md_get(&[(":method", "HEAD")], &[], vec![PAGE]).run();
    assert_eq!(head.upstream(":method").as_deref(), Some("GET"));
    assert!(head.body.is_empty());
    for h in [
        "content-length",
        "etag",
        "x-markdown-tokens",
        "content-type",
        "vary",
    ] {
        assert_eq!(head.header(h), get.header(h), "{h}");
    }
    assert_eq!(head.count(Counter::Converted), 1);
    assert_eq!(head.count(Counter::BytesOut), 0);
}

#[test]
fn head_fetched_as_get_never_gets_body_bytes() {
    // Not convertible: the GET body must not reach the HEAD client.
    let json = [
        (":status", "200"),
        ("content-type", "application/json"),
        ("content-length", "13"),
    ];
    let o = Exchange::new(
        &[MD, (":method", "HEAD")],
        &json,
        vec![b"{\"a\":", b"[1,2]}"],
    )
    .run();
    assert!(o.body.is_empty());
    assert_eq!(o.header("content-length").as_deref(), Some("13"));
    assert_eq!(o.count(Counter::Passthrough(Reason::ContentType)), 1);
    // Over the cap while buffering.
    let cfg = Config {
        max_body_bytes: 50,
        ..Config::default()
    };
    let mut x = md_get(&[(":method", "HEAD")], &[], PAGE.chunks(30).collect());
    x.response.retain(|(n, _)| n != "content-length");
    let o = x.cfg(cfg).run();
    assert!(o.body.is_empty());
    assert_eq!(o.count(Counter::Passthrough(Reason::OverCap)), 1);
}

#[test]
fn head_passthrough_mode_forwards_head() {
    let cfg = Config {
        head: HeadMode::Passthrough,
        ..Config::default()
    };
    let resp = html_response(&[]);
    let o = Exchange::new(&[MD, (":method", "HEAD")], &as_refs(&resp), vec![])
        .cfg(cfg)
        .run();
    assert_eq!(o.upstream(":method").as_deref(), Some("HEAD"));
    assert_eq!(
        o.header("content-type").as_deref(),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(o.count(Counter::Passthrough(Reason::Method)), 1);
}

#[test]
fn head_matching_etag_is_304_too() {
    let etag = etag_of_page();
    let o = md_get(
        &[(":method", "HEAD"), ("if-none-match", &etag)],
        &[],
        vec![PAGE],
    )
    .run();
    assert_eq!(o.header(":status").as_deref(), Some("304"));
    assert_eq!(o.count(Counter::NotModified), 1);
}

#[test]
fn host_failure_passes_the_original_and_counts_an_error() {
    let mut x = md_get(&[], &[], vec![PAGE]);
    x.fail_body_read = true;
    let o = x.run();
    assert_eq!(o.body, PAGE);
    assert_eq!(
        o.header("content-type").as_deref(),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(o.header("etag").as_deref(), Some("\"html-etag\""));
    assert_eq!(o.count(Counter::Errors), 1);
    assert_eq!(o.count(Counter::Passthrough(Reason::Error)), 1);
    assert_eq!(o.outcomes(), 1);
}

#[test]
fn reset_while_buffering_is_counted_once() {
    let mut x = md_get(&[], &[], vec![&PAGE[..20]]);
    x.reset = true;
    let o = x.run();
    assert_eq!(o.count(Counter::Passthrough(Reason::Error)), 1);
    assert_eq!(o.count(Counter::Errors), 0);
    assert_eq!(o.outcomes(), 1);
}

#[test]
fn headers_only_200_converts_to_an_empty_body_in_place() {
    let resp = [
        (":status", "200"),
        ("content-type", "text/html"),
        ("content-length", "0"),
    ];
    // An empty page converts to empty Markdown (no front matter that would only repeat the
    // URL), so a headers-only response needs no body buffer: it is converted in place,
    // with and without front matter.
    let with_url = Options {
        base_url: Some(URL.into()),
        ..Options::default()
    };
    assert!(convert(b"", &with_url).markdown.is_empty());
    for front_matter in [true, false] {
        let cfg = Config {
            front_matter,
            ..Config::default()
        };
        let o = Exchange::new(&[MD], &resp, vec![]).cfg(cfg).run();
        assert_eq!(
            o.header("content-type").as_deref(),
            Some("text/markdown; charset=utf-8")
        );
        assert_eq!(o.header("content-length").as_deref(), Some("0"));
        assert_eq!(o.count(Counter::Converted), 1);
        assert_eq!(o.count(Counter::Errors), 0);
    }
}

#[test]
fn wildcard_accept_converts_only_with_the_option() {
    let resp = html_response(&[]);
    let o = Exchange::new(&[("accept", "*/*")], &as_refs(&resp), vec![PAGE]).run();
    assert_eq!(o.body, PAGE);
    let cfg = Config {
        accept_wildcard: true,
        ..Config::default()
    };
    let o = Exchange::new(&[("accept", "*/*")], &as_refs(&resp), vec![PAGE])
        .cfg(cfg)
        .run();
    assert_eq!(o.count(Counter::Converted), 1);
}

#[cfg(not(feature = "test-trap"))]
#[test]
fn trap_header_does_nothing_in_normal_builds() {
    let o = md_get(&[("x-markdown-test-trap", "1")], &[], vec![PAGE]).run();
    assert_eq!(o.count(Counter::Converted), 1);
}

#[cfg(feature = "test-trap")]
#[test]
#[should_panic(expected = "x-markdown-test-trap")]
fn trap_header_panics_in_test_trap_builds() {
    md_get(&[("x-markdown-test-trap", "1")], &[], vec![PAGE]).run();
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn brotli(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        w.write_all(data).unwrap();
    }
    out
}

#[test]
fn compressed_bodies_are_decoded_then_converted() {
    for (coding, body) in [("gzip", gzip(PAGE)), ("br", brotli(PAGE))] {
        let len = body.len().to_string();
        let o = md_get(
            &[],
            &[("content-encoding", coding), ("content-length", &len)],
            body.chunks(16).collect(),
        )
        .run();
        let want = expected(URL, "text/html; charset=utf-8");
        assert_eq!(o.body, want.markdown.as_bytes(), "{coding}");
        assert_eq!(o.header("content-encoding"), None, "{coding}");
        assert_eq!(
            o.header("content-length"),
            Some(want.markdown.len().to_string())
        );
        assert_eq!(o.header("etag"), Some(want.etag));
        assert_eq!(o.count(Counter::BytesIn), PAGE.len() as u64);
        assert_eq!(o.count(Counter::Converted), 1);
    }
}

#[test]
fn compressed_passthrough_keeps_the_compressed_bytes() {
    let body = gzip(PAGE);
    let resp = html_response(&[("content-encoding", "gzip")]);
    let o = Exchange::new(&[], &as_refs(&resp), vec![&body]).run();
    assert_eq!(o.body, body);
    assert_eq!(o.header("content-encoding").as_deref(), Some("gzip"));
    assert_eq!(o.header("vary").as_deref(), Some("Accept-Encoding, Accept"));
}

#[test]
fn corrupt_coding_passes_the_original_through() {
    let o = md_get(&[], &[("content-encoding", "gzip")], vec![PAGE]).run();
    assert_eq!(o.body, PAGE);
    assert_eq!(o.header("content-encoding").as_deref(), Some("gzip"));
    assert_eq!(
        o.header("content-type").as_deref(),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(o.count(Counter::Passthrough(Reason::ContentEncoding)), 1);
    assert_eq!(o.count(Counter::Errors), 0);
    assert_eq!(o.outcomes(), 1);
    // A HEAD fetched as GET still gets no body bytes.
    let o = md_get(
        &[(":method", "HEAD")],
        &[("content-encoding", "gzip")],
        vec![PAGE],
    )
    .run();
    assert!(o.body.is_empty());
}

#[test]
fn decoded_size_is_held_to_the_cap() {
    let big: Vec<u8> = PAGE.iter().copied().cycle().take(200_000).collect();
    let bomb = gzip(&big);
    assert!(bomb.len() < 10_000);
    let cfg = Config {
        max_body_bytes: 100_000,
        ..Config::default()
    };
    let len = bomb.len().to_string();
    let o = md_get(
        &[],
        &[("content-encoding", "gzip"), ("content-length", &len)],
        vec![&bomb],
    )
    .cfg(cfg)
    .run();
    assert_eq!(o.body, bomb);
    assert_eq!(o.header("content-encoding").as_deref(), Some("gzip"));
    assert_eq!(o.count(Counter::Passthrough(Reason::OverCap)), 1);
}

#[test]
fn access_log_fields_of_a_conversion() {
    let o = md_get(&[], &[], vec![PAGE]).run();
    assert_eq!(o.log(log_fields::OUTCOME), Some("converted"));
    assert_eq!(
        o.log(log_fields::BYTES_IN),
        Some(PAGE.len().to_string().as_str())
    );
    assert_eq!(
        o.log(log_fields::BYTES_OUT),
        Some(o.body.len().to_string().as_str())
    );
    // The fake clock advances 250 µs per reading.
    assert_eq!(o.log(log_fields::CONVERSION_US), Some("250"));
}

#[test]
fn access_log_fields_of_304_and_head_send_no_bytes() {
    let etag = etag_of_page();
    let nm = md_get(&[("if-none-match", &etag)], &[], vec![PAGE]).run();
    assert_eq!(nm.log(log_fields::OUTCOME), Some("not_modified"));
    assert_eq!(
        nm.log(log_fields::BYTES_IN),
        Some(PAGE.len().to_string().as_str())
    );
    assert_eq!(nm.log(log_fields::BYTES_OUT), Some("0"));

    let head = md_get(&[(":method", "HEAD")], &[], vec![PAGE]).run();
    assert_eq!(head.log(log_fields::OUTCOME), Some("converted"));
    assert_eq!(head.log(log_fields::BYTES_OUT), Some("0"));
}

#[test]
fn access_log_fields_of_passthroughs_name_the_reason_only() {
    let not_requested = Exchange::new(&[], &as_refs(&html_response(&[])), vec![PAGE]).run();
    // Declared Content-Length over the cap: decided at the response headers.
    let over_cap = md_get(&[], &[], vec![PAGE])
        .cfg(Config {
            max_body_bytes: 10,
            ..Config::default()
        })
        .run();
    let mut failed = md_get(&[], &[], vec![PAGE]);
    failed.fail_body_read = true;
    let failed = failed.run();
    let mut reset = md_get(&[], &[], vec![&PAGE[..20]]);
    reset.reset = true;
    let reset = reset.run();
    for (o, want) in [
        (not_requested, "passthrough:not_requested"),
        (over_cap, "passthrough:over_cap"),
        (failed, "passthrough:error"),
        (reset, "passthrough:error"),
    ] {
        assert_eq!(o.log(log_fields::OUTCOME), Some(want));
        for absent in [log_fields::BYTES_IN, log_fields::BYTES_OUT] {
            assert_eq!(o.log(absent), None, "{want}: {absent}");
        }
    }
}

/// A VM's memo as the root context makes it.
fn vm_memo(cfg: &Config) -> SharedMemo {
    Rc::new(Memo::new(usize::try_from(cfg.memo_bytes).unwrap()))
}

#[test]
fn a_repeated_page_is_served_from_the_memo_identically() {
    let memo = vm_memo(&Config::default());
    let first = md_get(&[], &[], vec![PAGE]).memo(&memo).run();
    let second = md_get(&[], &[], vec![&PAGE[..40], &PAGE[40..]])
        .memo(&memo)
        .run();
    assert_eq!(first.log(log_fields::MEMO), Some("miss"));
    assert_eq!(first.count(Counter::MemoMisses), 1);
    assert_eq!(first.conversions, 1);
    assert_eq!(second.log(log_fields::MEMO), Some("hit"));
    assert_eq!(second.count(Counter::MemoHits), 1);
    assert_eq!(second.count(Counter::MemoMisses), 0);
    assert_eq!(second.conversions, 0, "the engine did not run");
    assert_eq!(second.log(log_fields::CONVERSION_US), None);
    assert_eq!(second.count(Counter::Converted), 1);
    assert_eq!(second.body, first.body);
    for h in [
        "content-type",
        "content-length",
        "etag",
        "x-markdown-tokens",
        "vary",
    ] {
        assert_eq!(second.header(h), first.header(h), "{h}");
    }
    assert_eq!(
        second.log(log_fields::BYTES_IN),
        first.log(log_fields::BYTES_IN)
    );
    assert_eq!(memo.len(), 1);

    // The memo answers conditional requests and HEAD too, without converting.
    let etag = first.header("etag").unwrap();
    let nm = md_get(&[("if-none-match", &etag)], &[], vec![PAGE])
        .memo(&memo)
        .run();
    assert_eq!(nm.count(Counter::NotModified), 1);
    assert_eq!(nm.conversions, 0);
    let head = md_get(&[(":method", "HEAD")], &[], vec![PAGE])
        .memo(&memo)
        .run();
    assert_eq!(head.conversions, 0);
    assert!(head.body.is_empty());
    assert_eq!(
        head.header("content-length"),
        first.header("content-length")
    );
}

#[test]
fn the_memo_misses_when_anything_the_output_depends_on_changes() {
    let memo = vm_memo(&Config::default());
    let base = md_get(&[], &[], vec![PAGE]).memo(&memo).run();
    assert_eq!(base.conversions, 1);

    // Another URL: links resolve differently and the front matter names it.
    let other_url = md_get(&[(":path", "/elsewhere/page")], &[], vec![PAGE])
        .memo(&memo)
        .run();
    assert_eq!(other_url.conversions, 1);
    assert_ne!(other_url.body, base.body);

    // Another body at the same URL: converted, and it replaces the entry.
    let changed = String::from_utf8(PAGE.to_vec())
        .unwrap()
        .replace("Hello", "Changed")
        .into_bytes();
    let edited = md_get(&[], &[], vec![&changed]).memo(&memo).run();
    assert_eq!(edited.conversions, 1);
    assert!(String::from_utf8_lossy(&edited.body).contains("# Changed"));
    let again = md_get(&[], &[], vec![&changed]).memo(&memo).run();
    assert_eq!(again.conversions, 0);
    assert_eq!(again.body, edited.body);

    // Another declared charset: the same bytes decode to other text.
    let latin1 = md_get(
        &[],
        &[("content-type", "text/html; charset=windows-1252")],
        vec![&changed],
    )
    .memo(&memo)
    .run();
    assert_eq!(latin1.conversions, 1);
    assert_ne!(latin1.body, edited.body, "é read as windows-1252");
}

#[test]
fn a_compressed_page_is_memoised_on_its_compressed_bytes() {
    let memo = vm_memo(&Config::default());
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(PAGE).unwrap();
    let gz = gz.finish().unwrap();
    let len = gz.len().to_string();
    let enc = [
        ("content-encoding", "gzip"),
        ("content-length", len.as_str()),
    ];
    let first = md_get(&[], &enc, vec![&gz]).memo(&memo).run();
    let second = md_get(&[], &enc, vec![&gz]).memo(&memo).run();
    assert_eq!((first.conversions, second.conversions), (1, 0));
    assert_eq!(second.body, first.body);
    assert_eq!(second.header("content-encoding"), None);
    // bytes_in counts the decoded HTML on a hit too.
    assert_eq!(
        second.log(log_fields::BYTES_IN),
        Some(PAGE.len().to_string().as_str())
    );
    // The same HTML uncompressed is another key, with the same Markdown.
    let plain = md_get(&[], &[], vec![PAGE]).memo(&memo).run();
    assert_eq!(plain.conversions, 1);
    assert_eq!(plain.body, first.body);
}

#[test]
fn memo_bytes_zero_converts_every_time_and_logs_no_memo_field() {
    let cfg = Config {
        memo_bytes: 0,
        ..Config::default()
    };
    let memo = vm_memo(&cfg);
    for _ in 0..2 {
        let o = md_get(&[], &[], vec![PAGE])
            .cfg(cfg.clone())
            .memo(&memo)
            .run();
        assert_eq!(o.conversions, 1);
        assert_eq!(o.log(log_fields::MEMO), None);
        assert_eq!(o.count(Counter::MemoHits) + o.count(Counter::MemoMisses), 0);
    }
    assert!(memo.is_empty());
}
