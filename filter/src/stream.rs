//! The per-request state machine, written against the small [`Host`] trait so that the
//! whole request/response flow runs natively in tests; the Wasm glue in `lib.rs` only
//! forwards proxy-wasm callbacks here.
//!
//! ```text
//! request headers ─▶ negotiate + request checks ─▶ (Markdown & eligible) strip conditionals,
//!                                                   HEAD→GET, remember URL / If-None-Match
//! response headers ─▶ not converting ─▶ maybe Vary ─▶ count passthrough ─▶ Continue  [Done]
//!                  └▶ converting ─▶ Vary ─▶ Pause                                 [Buffering]
//! response body    ─▶ Buffering: over cap ─▶ count over_cap ─▶ Continue (original bytes)
//!                                 not end ─▶ Pause
//!                                 end ─▶ decode (gzip/deflate/br) ─▶ convert
//!                                       ─▶ 200 Markdown or 304 ─▶ Continue
//! response trailers ─▶ Buffering: the body is complete ─▶ as "end" above
//! ```
//!
//! Response headers are read or written only in the response-headers callback and, while
//! they are held (`Buffering`), in the body/trailers callbacks up to the one that returns
//! `Continue`. After that Envoy releases the map and touching it would trap the VM, so
//! the `Done` phase never touches headers again.

use std::rc::Rc;

use agent_markdown::{Options, Output};
use proxy_wasm::types::Action;

use crate::coding::{self, Coding, Codings, DecodeError};
use crate::conditional::{self, IfNoneMatch};
use crate::config::Config;
use crate::eligibility::{check_request, check_response, Method, Reason, ResponseHead};
use crate::headers::{self, Header};
use crate::memo::{self, SharedMemo};
use crate::metrics::{log_fields, Counter, Sink};
use crate::negotiate::{negotiate, Negotiation};

/// A failed host call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostError;

/// What the state machine needs from the proxy.
pub trait Host: Sink {
    fn request_headers(&self) -> Vec<Header>;
    /// Replace (`Some`) or remove (`None`) a request header.
    fn set_request_header(&self, name: &str, value: Option<&[u8]>) -> Result<(), HostError>;
    fn response_headers(&self) -> Vec<Header>;
    /// Replace (`Some`) or remove (`None`) a response header.
    fn set_response_header(&self, name: &str, value: Option<&[u8]>) -> Result<(), HostError>;
    /// The first `len` bytes of the buffered response body.
    fn response_body(&self, len: usize) -> Result<Vec<u8>, HostError>;
    /// Replace the whole buffered response body.
    fn replace_response_body(&self, body: &[u8]) -> Result<(), HostError>;
    /// Wall-clock microseconds, for the conversion-time histogram.
    fn now_micros(&self) -> Option<u64>;
    /// Set a per-request access-log field ([`log_fields`]). Best effort, like metrics: a
    /// field that cannot be set must not affect the response.
    fn set_log_field(&self, name: &str, value: &str);
}

/// Content type of converted responses.
pub const MARKDOWN_CONTENT_TYPE: &str = "text/markdown; charset=utf-8";

/// Representation metadata describing the HTML bytes; wrong for the Markdown body.
const HTML_BODY_HEADERS: &[&str] = &[
    "accept-ranges",
    "content-digest",
    "content-encoding",
    "content-md5",
    "content-range",
    "digest",
    "repr-digest",
    "transfer-encoding",
];

/// Further headers a `304` must not carry (RFC 9110 §15.4.5: no representation metadata
/// beyond what guides cache updates).
const NOT_MODIFIED_DROPS: &[&str] = &["content-language", "content-length", "content-type"];

/// What the request phase decided.
#[derive(Debug)]
struct Request {
    method: Method,
    markdown: bool,
    /// Set when the response will pass through whatever it is.
    pass: Option<Reason>,
    /// A `HEAD` forwarded as `GET`: the client gets headers only, whatever happens.
    head_as_get: bool,
    if_none_match: IfNoneMatch,
    url: Option<String>,
}

#[derive(Debug)]
enum Phase {
    AwaitingResponse,
    /// Response headers held, body being buffered.
    Buffering(Pending),
    /// Counted; response headers released (or about to be) — never touched again.
    Done,
}

#[derive(Debug)]
struct Pending {
    content_type: Option<String>,
    /// Content codings to undo before converting (empty for identity).
    codings: Vec<Coding>,
    /// Buffered body length last reported by the host; `None` until a body callback.
    body_len: Option<usize>,
    /// The headers of [`HTML_BODY_HEADERS`] and [`NOT_MODIFIED_DROPS`] the response has:
    /// only these need a removal (each one a host call) when it is rewritten. The held map
    /// cannot change meanwhile: filters nearer the client see it only after this one.
    droppable: Vec<&'static str>,
}

/// State of one HTTP stream.
#[derive(Debug)]
pub struct Stream {
    cfg: Rc<Config>,
    /// The VM's conversion memo (disabled when its budget is 0).
    memo: SharedMemo,
    request: Option<Request>,
    phase: Phase,
    /// The response's outcome has been counted.
    counted: bool,
}

impl Stream {
    pub fn new(cfg: Rc<Config>, memo: SharedMemo) -> Stream {
        Stream {
            cfg,
            memo,
            request: None,
            phase: Phase::AwaitingResponse,
            counted: false,
        }
    }

    /// Request headers: negotiate and prepare the upstream request. Always continues.
    pub fn on_request_headers(&mut self, host: &impl Host) -> Action {
        let headers = host.request_headers();
        #[cfg(feature = "test-trap")]
        if headers::single(&headers, "x-markdown-test-trap") == Some(b"1") {
            panic!("markdown-filter: trap requested by x-markdown-test-trap (test-trap build)");
        }
        let cfg = Rc::clone(&self.cfg);
        let method = Method::from_headers(&headers);
        let markdown = negotiate(&headers, cfg.accept_wildcard) == Negotiation::Markdown;
        let mut req = Request {
            method,
            markdown,
            pass: None,
            head_as_get: false,
            if_none_match: IfNoneMatch::Absent,
            url: None,
        };
        if !markdown {
            req.pass = Some(Reason::NotRequested);
        } else if let Err(reason) = check_request(&headers, method, &cfg) {
            req.pass = Some(reason);
        } else {
            req.url = headers::request_url(&headers, cfg.trusted_forwarded_proto);
            if conditional::answers_not_modified(cfg.conditional) {
                req.if_none_match = IfNoneMatch::parse(&headers);
            }
            let mut ok = true;
            for name in conditional::withheld_upstream(cfg.conditional) {
                if headers::has(&headers, name) {
                    ok &= host.set_request_header(name, None).is_ok();
                }
            }
            if ok && method == Method::Head {
                ok = host.set_request_header(":method", Some(b"GET")).is_ok();
                req.head_as_get = ok;
            }
            if !ok {
                req.pass = Some(Reason::Error);
            }
        }
        self.request = Some(req);
        Action::Continue
    }

    /// Response headers: decide, and hold them if converting.
    pub fn on_response_headers(&mut self, host: &impl Host, end_of_stream: bool) -> Action {
        match self.phase {
            Phase::AwaitingResponse => {}
            // A second response head (an Envoy local reply replacing the one we held):
            // give up on it and let it through.
            Phase::Buffering(_) => {
                self.finish(host, Counter::Passthrough(Reason::Error));
                return Action::Continue;
            }
            Phase::Done => return Action::Continue,
        }
        let cfg = Rc::clone(&self.cfg);
        let headers = host.response_headers();
        let head = ResponseHead::from_headers(&headers);
        let (method, markdown, pass) = match &self.request {
            Some(r) => (r.method, r.markdown, r.pass),
            None => (Method::Other, false, Some(Reason::NotRequested)),
        };

        // Both variants must carry Vary: Accept so shared caches never mix them; an
        // upstream 304 to a Markdown request gets it too (it refreshes a Markdown entry).
        let negotiable = matches!(method, Method::Get | Method::Head) && head.is_negotiable(&cfg);
        let upstream_304 = markdown && pass.is_none() && head.status == Some(304);
        let vary_ok = if (negotiable && (markdown || cfg.vary_on_passthrough)) || upstream_304 {
            add_vary(host, &headers).is_ok()
        } else {
            true
        };

        // The upstream's ETag names the HTML; a 304 refreshing a Markdown variant must not
        // carry it (converted 200s never do either).
        let etag_ok = if upstream_304 && headers::has(&headers, "etag") {
            host.set_response_header("etag", None).is_ok()
        } else {
            true
        };

        let reason = pass.map_or_else(|| check_response(&head, &cfg).err(), Some);
        if let Some(reason) = reason {
            self.finish(host, Counter::Passthrough(reason));
            return Action::Continue;
        }
        if !(vary_ok && etag_ok) {
            self.fail(host);
            return Action::Continue;
        }
        self.phase = Phase::Buffering(Pending {
            content_type: headers::single(&headers, "content-type")
                .and_then(|v| String::from_utf8(v.to_vec()).ok()),
            codings: match head.codings {
                Codings::Known(c) => c,
                Codings::Identity | Codings::Unsupported => Vec::new(),
            },
            body_len: None,
            droppable: HTML_BODY_HEADERS
                .iter()
                .chain(NOT_MODIFIED_DROPS)
                .copied()
                .filter(|name| headers::has(&headers, name))
                .collect(),
        });
        if end_of_stream {
            // Headers-only 200 (e.g. `Content-Length: 0`): there is no body buffer to
            // replace, so only an empty conversion can be served.
            return self.complete(host, None);
        }
        Action::Pause
    }

    /// Response body chunk; `body_size` is the whole buffered length while buffering.
    pub fn on_response_body(
        &mut self,
        host: &impl Host,
        body_size: usize,
        end_of_stream: bool,
    ) -> Action {
        match &mut self.phase {
            Phase::Buffering(pending) => {
                pending.body_len = Some(body_size);
                if u64::try_from(body_size).map_or(true, |n| n > self.cfg.max_body_bytes) {
                    // Stop buffering: what is held (headers and body) goes on untouched.
                    self.drop_body_for_head(host);
                    self.finish(host, Counter::Passthrough(Reason::OverCap));
                    return Action::Continue;
                }
                if end_of_stream {
                    self.complete(host, Some(body_size))
                } else {
                    Action::Pause
                }
            }
            Phase::AwaitingResponse | Phase::Done => {
                self.drop_body_for_head(host);
                Action::Continue
            }
        }
    }

    /// Response trailers: the body is complete.
    pub fn on_response_trailers(&mut self, host: &impl Host) -> Action {
        match &self.phase {
            Phase::Buffering(pending) => {
                let len = pending.body_len;
                self.complete(host, len)
            }
            Phase::AwaitingResponse | Phase::Done => Action::Continue,
        }
    }

    /// End of the stream: a response still being buffered never completed (reset).
    pub fn on_log(&mut self, host: &impl Host) {
        if matches!(self.phase, Phase::Buffering(_)) {
            self.finish(host, Counter::Passthrough(Reason::Error));
        }
    }

    /// Convert the buffered body (`body_len` bytes, or no body buffer at all) and rewrite
    /// the held response. Ends the held state whatever happens.
    fn complete(&mut self, host: &impl Host, body_len: Option<usize>) -> Action {
        let Phase::Buffering(pending) = std::mem::replace(&mut self.phase, Phase::Done) else {
            return Action::Continue;
        };
        let outcome = match &self.request {
            Some(req) => rewrite(host, &self.cfg, &self.memo, req, pending, body_len),
            None => Err(Failure::Host),
        };
        if outcome.is_err() && body_len.is_some() {
            self.drop_body_for_head(host);
        }
        match outcome {
            Ok(counter) => self.finish(host, counter),
            Err(Failure::Host) => self.fail(host),
            // Nothing failed; the response just cannot carry a body it never had.
            Err(Failure::NoBodyBuffer) => self.finish(host, Counter::Passthrough(Reason::Error)),
            Err(Failure::Pass(reason)) => self.finish(host, Counter::Passthrough(reason)),
        }
        Action::Continue
    }

    /// For a `HEAD` fetched as `GET`, the client must get no body bytes on any path.
    fn drop_body_for_head(&self, host: &impl Host) {
        if self.request.as_ref().is_some_and(|r| r.head_as_get) {
            // Nothing better to do on failure; Envoy's own HEAD handling is the backstop.
            let _ = host.replace_response_body(b"");
        }
    }

    fn fail(&mut self, host: &impl Host) {
        if !self.counted {
            host.add(Counter::Errors, 1);
        }
        self.finish(host, Counter::Passthrough(Reason::Error));
    }

    /// Count (and log) the response's outcome exactly once, and stop touching it.
    fn finish(&mut self, host: &impl Host, outcome: Counter) {
        if !self.counted {
            host.add(outcome, 1);
            if let Some(label) = outcome.outcome() {
                host.set_log_field(log_fields::OUTCOME, &label);
            }
            self.counted = true;
        }
        self.phase = Phase::Done;
    }
}

/// Why a held response could not be rewritten.
enum Failure {
    Host,
    /// The upstream sent a headers-only `200` and the conversion is not empty (front
    /// matter): proxy-wasm cannot add a body where the host has no body buffer.
    NoBodyBuffer,
    /// The body turned out not convertible (undecodable, or over the cap once decoded).
    Pass(Reason),
}

impl From<HostError> for Failure {
    fn from(_: HostError) -> Self {
        Failure::Host
    }
}

/// Convert `body_len` buffered bytes and turn the held response into the Markdown `200`
/// (body and headers) or a `304`. Returns the outcome counter.
///
/// The body is replaced before any header is touched, so the likeliest failure (the body
/// buffer) leaves the original response intact.
fn rewrite(
    host: &impl Host,
    cfg: &Config,
    memo: &memo::Memo,
    req: &Request,
    pending: Pending,
    body_len: Option<usize>,
) -> Result<Counter, Failure> {
    let body = match body_len {
        Some(len) => host.response_body(len)?,
        None => Vec::new(),
    };
    let key = memo::Key {
        url: req.url.as_deref(),
        content_type: pending.content_type.as_deref(),
        codings: &pending.codings,
        body: &body,
    };
    let (out, html_len) = match memo.get(&key) {
        Some(hit) => {
            host.add(Counter::MemoHits, 1);
            host.set_log_field(log_fields::MEMO, "hit");
            (hit.output, hit.html_len)
        }
        None => {
            let hit = convert_body(host, cfg, req, &pending, &body)?;
            if memo.enabled() {
                host.add(Counter::MemoMisses, 1);
                host.set_log_field(log_fields::MEMO, "miss");
                memo.put(
                    req.url.as_deref(),
                    pending.content_type.as_deref(),
                    &pending.codings,
                    body,
                    hit.clone(),
                );
            }
            (hit.output, hit.html_len)
        }
    };

    let not_modified =
        conditional::answers_not_modified(cfg.conditional) && req.if_none_match.matches(&out.etag);
    let send_body = !not_modified && !req.head_as_get;
    let new_body: &[u8] = if send_body {
        out.markdown.as_bytes()
    } else {
        b""
    };
    match body_len {
        Some(_) => host.replace_response_body(new_body)?,
        // Headers-only upstream response: no body buffer to fill. Judged on the Markdown
        // itself so that HEAD, 304 and GET for the same page agree.
        None if !out.markdown.is_empty() => return Err(Failure::NoBodyBuffer),
        None => {}
    }
    let edits = if not_modified {
        not_modified_edits(&out, &pending.droppable)
    } else {
        converted_edits(cfg, &out, &pending.droppable)
    };
    apply(host, &edits)?;
    host.add(Counter::BytesIn, to_u64(html_len));
    host.set_log_field(log_fields::BYTES_IN, &html_len.to_string());
    host.set_log_field(log_fields::BYTES_OUT, &new_body.len().to_string());
    if not_modified {
        Ok(Counter::NotModified)
    } else {
        host.add(Counter::BytesOut, to_u64(new_body.len()));
        Ok(Counter::Converted)
    }
}

/// Decode (content codings) and convert `body`, recording the conversion time.
fn convert_body(
    host: &impl Host,
    cfg: &Config,
    req: &Request,
    pending: &Pending,
    body: &[u8],
) -> Result<memo::Hit, Failure> {
    let decoded = if pending.codings.is_empty() {
        None
    } else {
        Some(
            coding::decode(body, &pending.codings, cfg.max_body_bytes).map_err(|e| {
                Failure::Pass(match e {
                    DecodeError::OverLimit => Reason::OverCap,
                    DecodeError::Corrupt => Reason::ContentEncoding,
                })
            })?,
        )
    };
    let html = decoded.as_deref().unwrap_or(body);
    let opts = Options {
        base_url: req.url.clone(),
        content_type: pending.content_type.clone(),
        front_matter: cfg.front_matter,
        prune: cfg.prune,
    };
    let started = host.now_micros();
    // The stage counters are host calls: wasm only (native tests have no host to link).
    #[cfg(not(all(feature = "stage-metrics", target_family = "wasm")))]
    let output = agent_markdown::convert(html, &opts);
    #[cfg(all(feature = "stage-metrics", target_family = "wasm"))]
    let output = {
        let (output, times) = agent_markdown::convert_timed(html, &opts);
        crate::stages::record(&times);
        output
    };
    if let (Some(a), Some(b)) = (started, host.now_micros()) {
        let micros = b.saturating_sub(a);
        host.record_conversion_us(micros);
        host.set_log_field(log_fields::CONVERSION_US, &micros.to_string());
    }
    Ok(memo::Hit {
        output: Rc::new(output),
        html_len: html.len(),
    })
}

fn add_vary(host: &impl Host, headers: &[Header]) -> Result<(), HostError> {
    match headers::merge_vary(headers, "Accept") {
        Some(value) => host.set_response_header("vary", Some(&value)),
        None => Ok(()),
    }
}

/// A header edit: replace with `Some(value)` or remove with `None`.
pub type Edit = (String, Option<Vec<u8>>);

/// Header edits turning the held HTML response into the Markdown response.
/// `present`: which of the headers it would remove the response has (absent ones need no
/// host call).
pub fn converted_edits(cfg: &Config, out: &Output, present: &[&str]) -> Vec<Edit> {
    let mut edits: Vec<Edit> = vec![
        ("content-type".into(), Some(MARKDOWN_CONTENT_TYPE.into())),
        (
            "content-length".into(),
            Some(out.markdown.len().to_string().into_bytes()),
        ),
        (
            "etag".into(),
            conditional::emits_etag(cfg.conditional).then(|| out.etag.clone().into_bytes()),
        ),
        (
            cfg.tokens_header.clone(),
            Some(out.tokens.to_string().into_bytes()),
        ),
    ];
    if let Some(signal) = &cfg.content_signal {
        edits.push(("content-signal".into(), Some(signal.clone().into_bytes())));
    }
    edits.extend(
        HTML_BODY_HEADERS
            .iter()
            .filter(|h| present.contains(h))
            .map(|h| ((*h).to_owned(), None)),
    );
    edits
}

/// Header edits turning the held HTML response into `304 Not Modified` for the Markdown.
pub fn not_modified_edits(out: &Output, present: &[&str]) -> Vec<Edit> {
    let mut edits: Vec<Edit> = vec![
        (":status".into(), Some(b"304".to_vec())),
        ("etag".into(), Some(out.etag.clone().into_bytes())),
    ];
    edits.extend(
        HTML_BODY_HEADERS
            .iter()
            .chain(NOT_MODIFIED_DROPS)
            .filter(|h| present.contains(h))
            .map(|h| ((*h).to_owned(), None)),
    );
    edits
}

fn apply(host: &impl Host, edits: &[Edit]) -> Result<(), HostError> {
    edits
        .iter()
        .try_for_each(|(name, value)| host.set_response_header(name, value.as_deref()))
}

fn to_u64(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}
