//! HTTP/1.x wire format: request-head parsing, request-body framing, query/percent decoding
//! and response serialisation. Everything here works on byte buffers so the connection loop can
//! keep unread (pipelined) bytes between requests.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::ops::Range;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

/// Request line plus header block; larger heads get 431.
pub const MAX_HEAD: usize = 64 * 1024;
/// More header lines than this get 431 even when the byte limit is not reached.
pub const MAX_HEADERS: usize = 200;
/// Request bodies are read and discarded; anything larger gets 413.
pub const MAX_BODY: u64 = 8 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    Http10,
    Http11,
}

#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// Request target in origin form (`/path?query`), as received.
    pub target: String,
    pub version: Version,
    /// Header fields in arrival order; names keep the case they were sent with.
    pub headers: Vec<(String, String)>,
}

impl Request {
    /// First value of a header (names are case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// All field lines of a list-valued header joined with ", " (RFC 9110 §5.3).
    pub fn header_joined(&self, name: &str) -> Option<String> {
        let mut values = self
            .headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str());
        let first = values.next()?;
        Some(values.fold(first.to_owned(), |mut acc, v| {
            acc.push_str(", ");
            acc.push_str(v);
            acc
        }))
    }

    pub fn is_head(&self) -> bool {
        self.method == "HEAD"
    }

    /// Path part of the target, still percent-encoded.
    pub fn path(&self) -> &str {
        self.target.split_once('?').map_or(&self.target, |(p, _)| p)
    }

    /// Query string without the `?` (empty when absent).
    pub fn query(&self) -> &str {
        self.target.split_once('?').map_or("", |(_, q)| q)
    }

    /// Whether the connection may be reused after this request (RFC 9112 §9.3).
    pub fn keep_alive(&self) -> bool {
        let tokens = self.header_joined("connection").unwrap_or_default();
        let has = |t: &str| tokens.split(',').any(|x| x.trim().eq_ignore_ascii_case(t));
        match self.version {
            Version::Http11 => !has("close"),
            Version::Http10 => has("keep-alive") && !has("close"),
        }
    }
}

/// Why a request could not be accepted; each maps to one status code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// 400
    Malformed(&'static str),
    /// 431
    HeadTooLarge,
    /// 413
    BodyTooLarge,
    /// 501
    UnsupportedCoding,
    /// 505
    UnsupportedVersion,
}

impl ParseError {
    pub fn status(&self) -> u16 {
        match self {
            ParseError::Malformed(_) => 400,
            ParseError::HeadTooLarge => 431,
            ParseError::BodyTooLarge => 413,
            ParseError::UnsupportedCoding => 501,
            ParseError::UnsupportedVersion => 505,
        }
    }

    pub fn detail(&self) -> &'static str {
        match self {
            ParseError::Malformed(why) => why,
            ParseError::HeadTooLarge => "request head too large",
            ParseError::BodyTooLarge => "request body too large",
            ParseError::UnsupportedCoding => "unsupported transfer coding",
            ParseError::UnsupportedVersion => "only HTTP/1.0 and HTTP/1.1 are supported",
        }
    }
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// RFC 9110 token (method names, header names, content-coding names).
pub fn is_token(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(is_tchar)
}

/// A field value may carry visible ASCII, SP/HTAB and obs-text, never CR, LF or NUL.
pub fn is_field_value(s: &str) -> bool {
    s.bytes().all(|b| b == b'\t' || b >= 0x20 && b != 0x7f)
}

/// Parses one request head from the front of `buf`.
///
/// Returns `Ok(None)` while the head is incomplete, otherwise the request and how many bytes it
/// used, so that pipelined requests behind it stay in the buffer.
pub fn parse_head(buf: &[u8]) -> Result<Option<(Request, usize)>, ParseError> {
    // RFC 9112 §2.2: ignore empty lines before the request line (left over from sloppy clients).
    let mut start = 0;
    while let Some(rest) = buf.get(start..) {
        if rest.starts_with(b"\r\n") {
            start += 2;
        } else if rest.starts_with(b"\n") {
            start += 1;
        } else {
            break;
        }
    }

    let mut lines: Vec<&[u8]> = Vec::new();
    let mut pos = start;
    let end = loop {
        let Some(rest) = buf.get(pos..) else {
            return Ok(None);
        };
        let Some(nl) = rest.iter().position(|&b| b == b'\n') else {
            if buf.len() - start > MAX_HEAD {
                return Err(ParseError::HeadTooLarge);
            }
            return Ok(None);
        };
        let line = rest.get(..nl).unwrap_or_default();
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        pos += nl + 1;
        if pos - start > MAX_HEAD {
            return Err(ParseError::HeadTooLarge);
        }
        if line.is_empty() {
            break pos;
        }
        if line.contains(&b'\r') {
            return Err(ParseError::Malformed("bare CR in request head"));
        }
        if lines.len() > MAX_HEADERS {
            return Err(ParseError::HeadTooLarge);
        }
        lines.push(line);
    };

    let (request_line, field_lines) = lines
        .split_first()
        .ok_or(ParseError::Malformed("empty request"))?;
    let (method, target, version) = parse_request_line(request_line)?;

    let mut headers = Vec::with_capacity(field_lines.len());
    for line in field_lines {
        if line.first().is_some_and(|&b| b == b' ' || b == b'\t') {
            return Err(ParseError::Malformed("obsolete line folding"));
        }
        let colon = line
            .iter()
            .position(|&b| b == b':')
            .ok_or(ParseError::Malformed("header line without colon"))?;
        let (name, value) = line.split_at(colon);
        let name = std::str::from_utf8(name).unwrap_or("");
        if !is_token(name) {
            // Also rejects whitespace between name and colon (RFC 9112 §5.1).
            return Err(ParseError::Malformed("invalid header name"));
        }
        let value = String::from_utf8_lossy(value.get(1..).unwrap_or_default());
        let value = value.trim_matches([' ', '\t']);
        if !is_field_value(value) {
            return Err(ParseError::Malformed("invalid header value"));
        }
        headers.push((name.to_owned(), value.to_owned()));
    }

    let req = Request {
        method,
        target,
        version,
        headers,
    };
    if req.version == Version::Http11 && req.header("host").is_none() {
        return Err(ParseError::Malformed("missing Host header"));
    }
    Ok(Some((req, end)))
}

fn parse_request_line(line: &[u8]) -> Result<(String, String, Version), ParseError> {
    let line =
        std::str::from_utf8(line).map_err(|_| ParseError::Malformed("non-ASCII request line"))?;
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(ParseError::Malformed(
            "request line must be METHOD SP TARGET SP VERSION",
        ));
    };
    if !is_token(method) {
        return Err(ParseError::Malformed("invalid method"));
    }
    let version = match version {
        "HTTP/1.1" => Version::Http11,
        "HTTP/1.0" => Version::Http10,
        v if v.starts_with("HTTP/") => return Err(ParseError::UnsupportedVersion),
        _ => return Err(ParseError::Malformed("invalid HTTP version")),
    };
    if target.is_empty() || !target.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(ParseError::Malformed("invalid request target"));
    }
    let target = if target.starts_with('/') || target == "*" {
        target.to_owned()
    } else if let Some(rest) = target
        .strip_prefix("http://")
        .or_else(|| target.strip_prefix("https://"))
    {
        // Absolute form (sent to proxies): keep only path and query.
        match rest.find(['/', '?']) {
            Some(i) if rest.get(i..).is_some_and(|p| p.starts_with('/')) => {
                rest.get(i..).unwrap_or("/").to_owned()
            }
            Some(i) => format!("/{}", rest.get(i..).unwrap_or_default()),
            None => "/".to_owned(),
        }
    } else {
        return Err(ParseError::Malformed("invalid request target"));
    };
    Ok((method.to_owned(), target, version))
}

/// How the request body is delimited (RFC 9112 §6.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyFraming {
    None,
    Length(u64),
    Chunked,
}

pub fn body_framing(req: &Request) -> Result<BodyFraming, ParseError> {
    let te = req.header_joined("transfer-encoding");
    let cl = req.header_joined("content-length");
    if let Some(te) = te {
        if cl.is_some() {
            // Request smuggling vector; refuse rather than pick one.
            return Err(ParseError::Malformed(
                "both Transfer-Encoding and Content-Length",
            ));
        }
        if req.version == Version::Http10 {
            return Err(ParseError::Malformed("Transfer-Encoding in HTTP/1.0"));
        }
        let last = te.rsplit(',').next().unwrap_or_default().trim();
        if !last.eq_ignore_ascii_case("chunked") {
            return Err(ParseError::UnsupportedCoding);
        }
        if te
            .split(',')
            .filter(|c| c.trim().eq_ignore_ascii_case("chunked"))
            .count()
            > 1
        {
            return Err(ParseError::Malformed("chunked applied twice"));
        }
        // Codings below `chunked` are irrelevant: the body is discarded.
        return Ok(BodyFraming::Chunked);
    }
    let Some(cl) = cl else {
        return Ok(BodyFraming::None);
    };
    // A list of identical values is allowed (RFC 9110 §8.6); anything else is an error.
    let mut len = None;
    for v in cl.split(',') {
        let v = v.trim();
        if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseError::Malformed("invalid Content-Length"));
        }
        let n: u64 = v
            .parse()
            .map_err(|_| ParseError::Malformed("invalid Content-Length"))?;
        if len.is_some_and(|l| l != n) {
            return Err(ParseError::Malformed("conflicting Content-Length values"));
        }
        len = Some(n);
    }
    match len {
        Some(0) | None => Ok(BodyFraming::None),
        Some(n) if n > MAX_BODY => Err(ParseError::BodyTooLarge),
        Some(n) => Ok(BodyFraming::Length(n)),
    }
}

/// Scans a chunked body at the front of `buf`. Returns `Ok(None)` while incomplete, otherwise the
/// number of bytes the body (including trailers) occupies. The data itself is not kept.
pub fn scan_chunked(buf: &[u8]) -> Result<Option<usize>, ParseError> {
    let mut pos = 0usize;
    let mut total = 0u64;
    loop {
        let Some(line) = take_line(buf, pos)? else {
            return Ok(None);
        };
        let size_str = std::str::from_utf8(line.bytes)
            .map_err(|_| ParseError::Malformed("invalid chunk size"))?;
        let size_str = size_str.split(';').next().unwrap_or_default().trim();
        if size_str.is_empty() || size_str.len() > 16 {
            return Err(ParseError::Malformed("invalid chunk size"));
        }
        let size = u64::from_str_radix(size_str, 16)
            .map_err(|_| ParseError::Malformed("invalid chunk size"))?;
        pos = line.next;
        total = total.saturating_add(size);
        if total > MAX_BODY {
            return Err(ParseError::BodyTooLarge);
        }
        if size == 0 {
            // Trailer section: field lines up to an empty line.
            loop {
                let Some(line) = take_line(buf, pos)? else {
                    return Ok(None);
                };
                pos = line.next;
                if line.bytes.is_empty() {
                    return Ok(Some(pos));
                }
            }
        }
        // `size` <= MAX_BODY, so it fits in usize.
        let data_end = pos.saturating_add(size as usize);
        match buf.get(data_end..) {
            None => return Ok(None),
            Some(rest) if rest.len() < 2 && b"\r\n".starts_with(rest) => return Ok(None),
            Some(rest) if rest.starts_with(b"\r\n") => pos = data_end + 2,
            Some(rest) if rest.starts_with(b"\n") => pos = data_end + 1,
            Some(_) => return Err(ParseError::Malformed("chunk data not followed by CRLF")),
        }
    }
}

struct Line<'a> {
    bytes: &'a [u8],
    next: usize,
}

fn take_line(buf: &[u8], pos: usize) -> Result<Option<Line<'_>>, ParseError> {
    let Some(rest) = buf.get(pos..) else {
        return Ok(None);
    };
    match rest.iter().position(|&b| b == b'\n') {
        Some(nl) => {
            let line = rest.get(..nl).unwrap_or_default();
            Ok(Some(Line {
                bytes: line.strip_suffix(b"\r").unwrap_or(line),
                next: pos + nl + 1,
            }))
        }
        None if rest.len() > 4096 => Err(ParseError::Malformed("chunk line too long")),
        None => Ok(None),
    }
}

/// Decodes %XX escapes; with `plus_is_space` also `+` (query strings). Invalid escapes are kept
/// literally, as browsers do.
pub fn percent_decode(s: &str, plus_is_space: bool) -> Vec<u8> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(v) = hex {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(if plus_is_space && b == b'+' { b' ' } else { b });
        i += 1;
    }
    out
}

/// Percent-encodes everything except unreserved characters and `/` (for hrefs in listings).
pub fn percent_encode_path(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// Decoded `key=value` pairs of a query string, in order.
#[derive(Debug, Default)]
pub struct Query(Vec<(String, String)>);

impl Query {
    pub fn parse(raw: &str) -> Query {
        Query(
            raw.split('&')
                .filter(|p| !p.is_empty())
                .map(|pair| {
                    let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                    let dec =
                        |s: &str| String::from_utf8_lossy(&percent_decode(s, true)).into_owned();
                    (dec(k), dec(v))
                })
                .collect(),
        )
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    pub fn all<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.0
            .iter()
            .filter(move |(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

pub fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        203 => "Non-Authoritative Information",
        204 => "No Content",
        206 => "Partial Content",
        300 => "Multiple Choices",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        408 => "Request Timeout",
        410 => "Gone",
        412 => "Precondition Failed",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        416 => "Range Not Satisfiable",
        418 => "I'm a teapot",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        505 => "HTTP Version Not Supported",
        _ => "Status",
    }
}

/// Statuses whose responses never carry content (RFC 9110 §6.4.1).
pub fn is_bodiless(status: u16) -> bool {
    (100..200).contains(&status) || status == 204 || status == 304
}

/// A shared byte buffer and the part of it to send (whole file or a Range slice) — cheap to clone,
/// so cached files are never copied per request.
#[derive(Clone, Debug)]
pub struct Payload {
    data: Arc<Vec<u8>>,
    range: Range<usize>,
}

impl Payload {
    pub fn new(data: Arc<Vec<u8>>) -> Payload {
        let len = data.len();
        Payload {
            data,
            range: 0..len,
        }
    }

    pub fn from_vec(data: Vec<u8>) -> Payload {
        Payload::new(Arc::new(data))
    }

    /// Narrows to `range` (relative to the current slice); out-of-bounds input is clamped.
    pub fn slice(&self, range: Range<usize>) -> Payload {
        let len = self.len();
        let start = self.range.start + range.start.min(len);
        let end = self.range.start + range.end.clamp(range.start.min(len), len);
        Payload {
            data: Arc::clone(&self.data),
            range: start..end,
        }
    }

    pub fn as_slice(&self) -> &[u8] {
        self.data.get(self.range.clone()).unwrap_or_default()
    }

    pub fn len(&self) -> usize {
        self.range.len()
    }
}

#[derive(Debug)]
pub enum Body {
    /// No content; `Content-Length: 0` unless the status is bodiless.
    Empty,
    /// Content-Length framed.
    Full(Payload),
    /// Transfer-Encoding: chunked, `chunk` bytes per chunk, `delay` between chunks (until
    /// `max_total` has elapsed, after which the rest goes out at once), then `trailers`.
    Chunked {
        payload: Payload,
        chunk: usize,
        delay: Duration,
        max_total: Option<Duration>,
        trailers: Vec<(String, String)>,
    },
    /// Fault: announce `claimed` bytes, send only `payload`, then close (with RST if `reset`).
    Truncated {
        payload: Payload,
        claimed: u64,
        reset: bool,
    },
}

#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Body,
}

impl Response {
    pub fn new(status: u16) -> Response {
        Response {
            status,
            headers: Vec::new(),
            body: Body::Empty,
        }
    }

    pub fn header(mut self, name: &str, value: impl Into<String>) -> Response {
        self.headers.push((name.to_owned(), value.into()));
        self
    }

    pub fn body(mut self, body: Body) -> Response {
        self.body = body;
        self
    }

    pub fn full(self, data: Vec<u8>) -> Response {
        self.body(Body::Full(Payload::from_vec(data)))
    }

    /// Small HTML page for errors and `/_test/status/NNN`.
    pub fn html_status(status: u16, detail: &str) -> Response {
        let reason = reason(status);
        let body = format!(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{status} {reason}</title></head>\n\
             <body><h1>{status} {reason}</h1>\n<p>{}</p></body></html>\n",
            crate::gen::escape_html(detail)
        );
        Response::new(status)
            .header("Content-Type", "text/html")
            .full(body.into_bytes())
    }
}

/// What the connection should do after a response went out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum After {
    KeepAlive,
    Close,
    /// Close with SO_LINGER 0 so the peer sees a RST.
    Reset,
}

/// Per-response context supplied by the connection.
pub struct WriteCtx<'a> {
    pub origin_id: &'a str,
    pub version: Version,
    pub head_only: bool,
    pub keep_alive: bool,
}

/// Serialises `resp` onto `out`, adding Date, X-Origin, framing and Connection headers.
pub fn write_response(out: &mut impl Write, resp: &Response, ctx: &WriteCtx) -> io::Result<After> {
    let mut after = if ctx.keep_alive {
        After::KeepAlive
    } else {
        After::Close
    };
    let bodiless = is_bodiless(resp.status);
    // HTTP/1.0 has no chunked coding: fall back to a close-delimited body.
    let chunked = matches!(resp.body, Body::Chunked { .. }) && !bodiless;
    let chunked_wire = chunked && ctx.version == Version::Http11;
    if chunked && !chunked_wire {
        after = After::Close;
    }
    match resp.body {
        Body::Truncated { reset: true, .. } => after = After::Reset,
        Body::Truncated { reset: false, .. } => after = After::Close,
        _ => {}
    }

    let mut head = String::with_capacity(256);
    let _ = write!(head, "HTTP/1.1 {} {}\r\n", resp.status, reason(resp.status));
    let _ = write!(
        head,
        "Date: {}\r\n",
        httpdate::fmt_http_date(SystemTime::now())
    );
    let _ = write!(head, "X-Origin: {}\r\n", ctx.origin_id);
    for (name, value) in &resp.headers {
        let _ = write!(head, "{name}: {value}\r\n");
    }
    if !bodiless {
        match &resp.body {
            Body::Empty => head.push_str("Content-Length: 0\r\n"),
            Body::Full(p) => {
                let _ = write!(head, "Content-Length: {}\r\n", p.len());
            }
            Body::Chunked { .. } if chunked_wire => head.push_str("Transfer-Encoding: chunked\r\n"),
            Body::Chunked { .. } => {}
            Body::Truncated { claimed, .. } => {
                let _ = write!(head, "Content-Length: {claimed}\r\n");
            }
        }
    }
    if after != After::KeepAlive {
        head.push_str("Connection: close\r\n");
    } else if ctx.version == Version::Http10 {
        head.push_str("Connection: keep-alive\r\n");
    }
    head.push_str("\r\n");

    if bodiless || ctx.head_only {
        out.write_all(head.as_bytes())?;
        out.flush()?;
        return Ok(after);
    }

    match &resp.body {
        Body::Empty => out.write_all(head.as_bytes())?,
        Body::Full(p) | Body::Truncated { payload: p, .. } => {
            // One write for small responses keeps them in a single segment.
            if p.len() <= 16 * 1024 {
                let mut all = head.into_bytes();
                all.extend_from_slice(p.as_slice());
                out.write_all(&all)?;
            } else {
                out.write_all(head.as_bytes())?;
                out.write_all(p.as_slice())?;
            }
        }
        Body::Chunked {
            payload,
            chunk,
            delay,
            max_total,
            trailers,
        } => {
            out.write_all(head.as_bytes())?;
            write_chunks(
                out,
                payload.as_slice(),
                *chunk,
                *delay,
                *max_total,
                chunked_wire,
            )?;
            if chunked_wire {
                let mut tail = String::from("0\r\n");
                for (name, value) in trailers {
                    let _ = write!(tail, "{name}: {value}\r\n");
                }
                tail.push_str("\r\n");
                out.write_all(tail.as_bytes())?;
            }
        }
    }
    out.flush()?;
    Ok(after)
}

fn write_chunks(
    out: &mut impl Write,
    data: &[u8],
    chunk: usize,
    delay: Duration,
    max_total: Option<Duration>,
    framed: bool,
) -> io::Result<()> {
    let started = Instant::now();
    let mut rest = data;
    let mut first = true;
    while !rest.is_empty() {
        let mut size = chunk.max(1).min(rest.len());
        if !delay.is_zero() {
            if !first {
                std::thread::sleep(delay);
            }
            if max_total.is_some_and(|m| started.elapsed() >= m) {
                size = rest.len();
            }
        }
        first = false;
        let (piece, tail) = rest.split_at(size);
        if framed {
            let mut frame = Vec::with_capacity(piece.len() + 12);
            let _ = write!(frame, "{:x}\r\n", piece.len());
            frame.extend_from_slice(piece);
            frame.extend_from_slice(b"\r\n");
            out.write_all(&frame)?;
        } else {
            out.write_all(piece)?;
        }
        if !delay.is_zero() {
            out.flush()?;
        }
        rest = tail;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Option<(Request, usize)>, ParseError> {
        parse_head(s.as_bytes())
    }

    #[test]
    fn parses_request_and_leaves_pipelined_bytes() {
        let raw = "GET /a?x=1 HTTP/1.1\r\nHost: h\r\nX-Two:  v  \r\n\r\nGET /b HTTP/1.1\r\n";
        let (req, used) = parse(raw).unwrap().unwrap();
        assert_eq!(req.method, "GET");
        assert_eq!(req.path(), "/a");
        assert_eq!(req.query(), "x=1");
        assert_eq!(req.header("x-two"), Some("v"));
        assert_eq!(&raw[used..], "GET /b HTTP/1.1\r\n");
        // The second request is incomplete, not an error.
        assert!(parse(&raw[used..]).unwrap().is_none());
    }

    #[test]
    fn accepts_bare_lf_and_leading_blank_lines() {
        let raw = "\r\n\nHEAD / HTTP/1.0\nA: b\n\n";
        let (req, used) = parse(raw).unwrap().unwrap();
        assert!(req.is_head());
        assert_eq!(req.version, Version::Http10);
        assert_eq!(req.header("a"), Some("b"));
        assert_eq!(used, raw.len());
    }

    #[test]
    fn rejects_malformed_heads() {
        for raw in [
            "GET /\r\n\r\n",
            "GET  / HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET / HTTP/1.1\r\nHost : h\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n",
            "GET / HTTP/1.1\r\nNoColon\r\n\r\n",
            "GET / HTTP/1.1\r\n\r\n",
            "G(T / HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET relative HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET / HTTX/1.1\r\nHost: h\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n",
        ] {
            assert!(
                matches!(parse(raw), Err(ParseError::Malformed(_))),
                "{raw:?} -> {:?}",
                parse(raw)
            );
        }
        assert_eq!(
            parse("GET / HTTP/2.0\r\n\r\n").unwrap_err(),
            ParseError::UnsupportedVersion
        );
    }

    #[test]
    fn bounds_head_size() {
        let big = format!(
            "GET / HTTP/1.1\r\nHost: h\r\nX: {}\r\n",
            "a".repeat(MAX_HEAD)
        );
        assert_eq!(parse(&big).unwrap_err(), ParseError::HeadTooLarge);
        // Without any newline at all the limit still applies.
        let no_nl = "G".repeat(MAX_HEAD + 10);
        assert_eq!(parse(&no_nl).unwrap_err(), ParseError::HeadTooLarge);
        let many: String = std::iter::once("GET / HTTP/1.1\r\nHost: h\r\n".to_owned())
            .chain((0..=MAX_HEADERS).map(|i| format!("X-{i}: v\r\n")))
            .collect();
        assert_eq!(parse(&many).unwrap_err(), ParseError::HeadTooLarge);
    }

    #[test]
    fn absolute_form_is_reduced_to_origin_form() {
        let (req, _) = parse("GET http://example.com/x?y HTTP/1.1\r\nHost: h\r\n\r\n")
            .unwrap()
            .unwrap();
        assert_eq!(req.target, "/x?y");
        let (req, _) = parse("GET http://example.com?q HTTP/1.1\r\nHost: h\r\n\r\n")
            .unwrap()
            .unwrap();
        assert_eq!(req.target, "/?q");
    }

    #[test]
    fn keep_alive_rules() {
        let ka = |raw: &str| parse(raw).unwrap().unwrap().0.keep_alive();
        assert!(ka("GET / HTTP/1.1\r\nHost: h\r\n\r\n"));
        assert!(!ka(
            "GET / HTTP/1.1\r\nHost: h\r\nConnection: Close\r\n\r\n"
        ));
        assert!(!ka(
            "GET / HTTP/1.1\r\nHost: h\r\nConnection: te, close\r\n\r\n"
        ));
        assert!(!ka("GET / HTTP/1.0\r\n\r\n"));
        assert!(ka("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
    }

    fn framing(headers: &str) -> Result<BodyFraming, ParseError> {
        let raw = format!("POST / HTTP/1.1\r\nHost: h\r\n{headers}\r\n");
        body_framing(&parse(&raw).unwrap().unwrap().0)
    }

    #[test]
    fn body_framing_rules() {
        assert_eq!(framing(""), Ok(BodyFraming::None));
        assert_eq!(framing("Content-Length: 5\r\n"), Ok(BodyFraming::Length(5)));
        assert_eq!(
            framing("Content-Length: 5\r\nContent-Length: 5\r\n"),
            Ok(BodyFraming::Length(5))
        );
        assert!(framing("Content-Length: 5, 6\r\n").is_err());
        assert!(framing("Content-Length: -1\r\n").is_err());
        assert!(framing("Content-Length: +5\r\n").is_err());
        assert_eq!(
            framing("Transfer-Encoding: gzip, chunked\r\n"),
            Ok(BodyFraming::Chunked)
        );
        assert_eq!(
            framing("Transfer-Encoding: gzip\r\n"),
            Err(ParseError::UnsupportedCoding)
        );
        assert!(framing("Transfer-Encoding: chunked\r\nContent-Length: 3\r\n").is_err());
        assert_eq!(
            framing("Content-Length: 999999999999\r\n"),
            Err(ParseError::BodyTooLarge)
        );
    }

    #[test]
    fn scans_chunked_bodies() {
        let body = b"3;ext=1\r\nabc\r\nA\r\n0123456789\r\n0\r\nTrailer: x\r\n\r\nNEXT";
        assert_eq!(scan_chunked(body), Ok(Some(body.len() - 4)));
        for cut in 0..body.len() - 4 {
            assert_eq!(scan_chunked(&body[..cut]), Ok(None), "cut at {cut}");
        }
        assert!(scan_chunked(b"3\r\nabcX\r\n0\r\n\r\n").is_err());
        assert!(scan_chunked(b"zz\r\n").is_err());
        assert_eq!(scan_chunked(b"FFFFFFFF\r\n"), Err(ParseError::BodyTooLarge));
    }

    #[test]
    fn percent_decoding_and_query() {
        assert_eq!(percent_decode("/a%20b%2f%zz%4", false), b"/a b/%zz%4");
        assert_eq!(percent_decode("a+b", false), b"a+b");
        assert_eq!(percent_decode("a+b", true), b"a b");
        let q = Query::parse("file=x%2Fy.html&h=A:1&h=B%3A+2&&flag");
        assert_eq!(q.get("file"), Some("x/y.html"));
        assert_eq!(q.all("h").collect::<Vec<_>>(), ["A:1", "B: 2"]);
        assert_eq!(q.get("flag"), Some(""));
        assert_eq!(q.get("missing"), None);
        assert_eq!(percent_encode_path("/a b/ü"), "/a%20b/%C3%BC");
    }

    #[test]
    fn payload_slices_clamp() {
        let p = Payload::from_vec(b"0123456789".to_vec());
        assert_eq!(p.slice(2..5).as_slice(), b"234");
        assert_eq!(p.slice(2..5).slice(1..10).as_slice(), b"34");
        assert_eq!(p.slice(8..100).as_slice(), b"89");
        assert_eq!(p.slice(20..30).len(), 0);
    }

    fn render(resp: &Response, version: Version, head_only: bool) -> (String, After) {
        let mut out = Vec::new();
        let ctx = WriteCtx {
            origin_id: "o1",
            version,
            head_only,
            keep_alive: true,
        };
        let after = write_response(&mut out, resp, &ctx).unwrap();
        (String::from_utf8(out).unwrap(), after)
    }

    #[test]
    fn writes_chunked_with_trailers() {
        let resp = Response::new(200).body(Body::Chunked {
            payload: Payload::from_vec(b"hello world".to_vec()),
            chunk: 4,
            delay: Duration::ZERO,
            max_total: None,
            trailers: vec![("X-Checksum".into(), "abc".into())],
        });
        let (wire, after) = render(&resp, Version::Http11, false);
        assert_eq!(after, After::KeepAlive);
        assert!(wire.contains("Transfer-Encoding: chunked\r\n"));
        assert!(wire.contains("X-Origin: o1\r\n"));
        assert!(!wire.contains("Content-Length"));
        let (_, body) = wire.split_once("\r\n\r\n").unwrap();
        assert_eq!(
            body,
            "4\r\nhell\r\n4\r\no wo\r\n3\r\nrld\r\n0\r\nX-Checksum: abc\r\n\r\n"
        );

        // HTTP/1.0 peers get the raw bytes and a close.
        let (wire, after) = render(&resp, Version::Http10, false);
        assert_eq!(after, After::Close);
        assert!(wire.ends_with("\r\n\r\nhello world"));
        assert!(wire.contains("Connection: close\r\n"));
    }

    #[test]
    fn head_and_304_have_no_body() {
        let resp = Response::new(200).full(b"abc".to_vec());
        let (wire, _) = render(&resp, Version::Http11, true);
        assert!(wire.contains("Content-Length: 3\r\n"));
        assert!(wire.ends_with("\r\n\r\n"));
        let (wire, _) = render(&Response::new(304), Version::Http11, false);
        assert!(!wire.contains("Content-Length"));
        assert!(wire.starts_with("HTTP/1.1 304 Not Modified\r\n"));
    }

    #[test]
    fn truncated_claims_full_length() {
        let resp = Response::new(200).body(Body::Truncated {
            payload: Payload::from_vec(b"abc".to_vec()),
            claimed: 10,
            reset: true,
        });
        let (wire, after) = render(&resp, Version::Http11, false);
        assert_eq!(after, After::Reset);
        assert!(wire.contains("Content-Length: 10\r\n"));
        assert!(wire.ends_with("\r\n\r\nabc"));
    }
}
