//! Which responses are converted, and why the others pass through.
//!
//! Request side (decided before anything is forwarded): the method must be `GET` (or `HEAD`
//! with `head: convert`), there must be no `Range` (a byte range of HTML has no Markdown
//! equivalent) and no `Cache-Control: no-transform`.
//!
//! Response side: status `200`, a single `Content-Type` from the configured list, no
//! `no-transform`, no content coding the filter cannot decode (it decodes `gzip`, `deflate`
//! and `br` itself, see [`crate::coding`]), and a declared `Content-Length` within
//! `max_body_bytes`. Bodies without a declared length are checked while buffering, and
//! decoded bodies once more after decoding.

use crate::coding::Codings;
use crate::config::{Config, HeadMode};
use crate::headers::{self, DeclaredLength, Header};

/// Why a response was not converted. Each maps to the counter
/// `markdown.passthrough.<as_str()>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The client did not negotiate Markdown (includes a malformed `Accept`).
    NotRequested,
    Method,
    Status,
    ContentType,
    NoTransform,
    Range,
    ContentEncoding,
    OverCap,
    /// Engine or host-call failure; the original response went through.
    Error,
}

impl Reason {
    pub const ALL: [Reason; 9] = [
        Reason::NotRequested,
        Reason::Method,
        Reason::Status,
        Reason::ContentType,
        Reason::NoTransform,
        Reason::Range,
        Reason::ContentEncoding,
        Reason::OverCap,
        Reason::Error,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Reason::NotRequested => "not_requested",
            Reason::Method => "method",
            Reason::Status => "status",
            Reason::ContentType => "content_type",
            Reason::NoTransform => "no_transform",
            Reason::Range => "range",
            Reason::ContentEncoding => "content_encoding",
            Reason::OverCap => "over_cap",
            Reason::Error => "error",
        }
    }
}

/// Request methods the filter distinguishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Head,
    Other,
}

impl Method {
    pub fn from_headers(headers: &[Header]) -> Method {
        match headers::single(headers, ":method") {
            Some(b"GET") => Method::Get,
            Some(b"HEAD") => Method::Head,
            _ => Method::Other,
        }
    }
}

/// Request-side check for a request that negotiated Markdown.
pub fn check_request(headers: &[Header], method: Method, cfg: &Config) -> Result<(), Reason> {
    match (method, cfg.head) {
        (Method::Get, _) | (Method::Head, HeadMode::Convert) => {}
        (Method::Head, HeadMode::Passthrough) | (Method::Other, _) => return Err(Reason::Method),
    }
    if headers::has(headers, "range") {
        return Err(Reason::Range);
    }
    if headers::has_no_transform(headers) {
        return Err(Reason::NoTransform);
    }
    Ok(())
}

/// The facts about a response head that the decisions need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResponseHead {
    pub status: Option<u16>,
    pub media_type: Option<String>,
    pub no_transform: bool,
    pub codings: Codings,
    pub content_length: DeclaredLength,
}

impl ResponseHead {
    pub fn from_headers(headers: &[Header]) -> ResponseHead {
        ResponseHead {
            status: headers::single(headers, ":status")
                .and_then(|s| std::str::from_utf8(s).ok())
                .and_then(|s| s.parse().ok()),
            media_type: headers::media_type(headers),
            no_transform: headers::has_no_transform(headers),
            codings: Codings::from_headers(headers),
            content_length: headers::content_length(headers),
        }
    }

    /// Whether this is a representation the filter would convert for some `Accept` value,
    /// i.e. one whose content varies on `Accept` (the body size aside: the cap is a local
    /// resource limit, not part of content negotiation).
    pub fn is_negotiable(&self, cfg: &Config) -> bool {
        self.status == Some(200)
            && self
                .media_type
                .as_deref()
                .is_some_and(|t| cfg.is_convertible_type(t))
            && !self.no_transform
            && self.codings != Codings::Unsupported
    }
}

/// Response-side check for a request that negotiated Markdown and passed [`check_request`].
pub fn check_response(head: &ResponseHead, cfg: &Config) -> Result<(), Reason> {
    if head.status != Some(200) {
        return Err(Reason::Status);
    }
    if !head
        .media_type
        .as_deref()
        .is_some_and(|t| cfg.is_convertible_type(t))
    {
        return Err(Reason::ContentType);
    }
    if head.no_transform {
        return Err(Reason::NoTransform);
    }
    if head.codings == Codings::Unsupported {
        return Err(Reason::ContentEncoding);
    }
    match head.content_length {
        DeclaredLength::Valid(n) if n > cfg.max_body_bytes => Err(Reason::OverCap),
        // A length Envoy let through but we cannot read is treated as unknown: buffering
        // enforces the cap on the bytes actually received.
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(pairs: &[(&str, &str)]) -> Vec<Header> {
        pairs
            .iter()
            .map(|(n, v)| ((*n).to_owned(), v.as_bytes().to_vec()))
            .collect()
    }

    fn html_200(extra: &[(&str, &str)]) -> ResponseHead {
        let mut v = h(&[
            (":status", "200"),
            ("content-type", "text/html; charset=utf-8"),
        ]);
        v.extend(h(extra));
        ResponseHead::from_headers(&v)
    }

    #[test]
    fn reason_names_are_the_metric_suffixes() {
        let names: Vec<&str> = Reason::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(
            names,
            [
                "not_requested",
                "method",
                "status",
                "content_type",
                "no_transform",
                "range",
                "content_encoding",
                "over_cap",
                "error"
            ]
        );
    }

    #[test]
    fn methods() {
        let cfg = Config::default();
        let get = h(&[(":method", "GET")]);
        assert_eq!(Method::from_headers(&get), Method::Get);
        assert_eq!(check_request(&get, Method::Get, &cfg), Ok(()));
        assert_eq!(check_request(&[], Method::Head, &cfg), Ok(()));
        assert_eq!(check_request(&[], Method::Other, &cfg), Err(Reason::Method));
        let passthrough = Config {
            head: HeadMode::Passthrough,
            ..Config::default()
        };
        assert_eq!(
            check_request(&[], Method::Head, &passthrough),
            Err(Reason::Method)
        );
        assert_eq!(check_request(&[], Method::Get, &passthrough), Ok(()));
        // Methods are case-sensitive.
        assert_eq!(
            Method::from_headers(&h(&[(":method", "get")])),
            Method::Other
        );
        assert_eq!(
            Method::from_headers(&h(&[(":method", "POST")])),
            Method::Other
        );
        assert_eq!(Method::from_headers(&[]), Method::Other);
    }

    #[test]
    fn request_range_and_no_transform() {
        let cfg = Config::default();
        let ranged = h(&[("range", "bytes=0-10")]);
        assert_eq!(
            check_request(&ranged, Method::Get, &cfg),
            Err(Reason::Range)
        );
        let nt = h(&[("cache-control", "max-age=0, no-transform")]);
        assert_eq!(
            check_request(&nt, Method::Get, &cfg),
            Err(Reason::NoTransform)
        );
        let plain = h(&[("cache-control", "no-cache")]);
        assert_eq!(check_request(&plain, Method::Get, &cfg), Ok(()));
    }

    #[test]
    fn convertible_response() {
        let cfg = Config::default();
        assert_eq!(check_response(&html_200(&[]), &cfg), Ok(()));
        assert!(html_200(&[]).is_negotiable(&cfg));
        let xhtml = ResponseHead::from_headers(&h(&[
            (":status", "200"),
            ("content-type", "Application/XHTML+XML"),
        ]));
        assert_eq!(check_response(&xhtml, &cfg), Ok(()));
    }

    #[test]
    fn response_reasons_in_order() {
        let cfg = Config::default();
        let r404 =
            ResponseHead::from_headers(&h(&[(":status", "404"), ("content-type", "text/html")]));
        assert_eq!(check_response(&r404, &cfg), Err(Reason::Status));
        assert!(!r404.is_negotiable(&cfg));
        let json = ResponseHead::from_headers(&h(&[
            (":status", "200"),
            ("content-type", "application/json"),
        ]));
        assert_eq!(check_response(&json, &cfg), Err(Reason::ContentType));
        let untyped = ResponseHead::from_headers(&h(&[(":status", "200")]));
        assert_eq!(check_response(&untyped, &cfg), Err(Reason::ContentType));
        let nt = html_200(&[("cache-control", "public, no-transform")]);
        assert_eq!(check_response(&nt, &cfg), Err(Reason::NoTransform));
        assert!(!nt.is_negotiable(&cfg));
        let zstd = html_200(&[("content-encoding", "zstd")]);
        assert_eq!(check_response(&zstd, &cfg), Err(Reason::ContentEncoding));
        assert!(!zstd.is_negotiable(&cfg));
        // Codings the filter decodes itself do not disqualify.
        let gz = html_200(&[("content-encoding", "gzip")]);
        assert_eq!(check_response(&gz, &cfg), Ok(()));
        assert!(gz.is_negotiable(&cfg));
        let ident = html_200(&[("content-encoding", "identity")]);
        assert_eq!(check_response(&ident, &cfg), Ok(()));
        // Status wins over type when both disqualify.
        let both =
            ResponseHead::from_headers(&h(&[(":status", "500"), ("content-type", "image/png")]));
        assert_eq!(check_response(&both, &cfg), Err(Reason::Status));
    }

    #[test]
    fn declared_length_against_cap() {
        let cfg = Config {
            max_body_bytes: 100,
            ..Config::default()
        };
        assert_eq!(
            check_response(&html_200(&[("content-length", "100")]), &cfg),
            Ok(())
        );
        let over = html_200(&[("content-length", "101")]);
        assert_eq!(check_response(&over, &cfg), Err(Reason::OverCap));
        // Still negotiable: the same URL converts when it is small enough.
        assert!(over.is_negotiable(&cfg));
        assert_eq!(
            check_response(&html_200(&[("content-length", "x")]), &cfg),
            Ok(())
        );
        assert_eq!(check_response(&html_200(&[]), &cfg), Ok(()));
    }

    #[test]
    fn configured_types_only() {
        let cfg = Config {
            content_types: vec!["text/x-custom".into()],
            ..Config::default()
        };
        assert_eq!(
            check_response(&html_200(&[]), &cfg),
            Err(Reason::ContentType)
        );
        let custom = ResponseHead::from_headers(&h(&[
            (":status", "200"),
            ("content-type", "text/x-custom"),
        ]));
        assert_eq!(check_response(&custom, &cfg), Ok(()));
    }

    #[test]
    fn odd_status_values() {
        for s in ["", "2OO", "99999", "200 "] {
            let head =
                ResponseHead::from_headers(&h(&[(":status", s), ("content-type", "text/html")]));
            assert_eq!(
                check_response(&head, &Config::default()),
                Err(Reason::Status),
                "{s:?}"
            );
        }
    }
}
