//! `/_test/*` endpoints: deterministic framing variants and faults for the integration, load and
//! fault-injection tests. Parameters are query-string values; `file=` is a path under the root.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use crate::files::{self, FileEntry, Target};
use crate::gen::{self, BombKind, LargeKind, NestTag, MIB};
use crate::http::{is_field_value, is_token, Body, Payload, Query, Request, Response};
use crate::server::Shared;

type Result<T> = std::result::Result<T, Response>;

fn bad(detail: &str) -> Response {
    Response::html_status(400, detail)
}

/// Optional numeric parameter within `min..=max`, else `default`.
fn num<T>(q: &Query, name: &str, default: T, min: T, max: T) -> Result<T>
where
    T: FromStr + PartialOrd + Copy + std::fmt::Display,
{
    match q.get(name) {
        None => Ok(default),
        Some(raw) => match raw.trim().parse::<T>() {
            Ok(v) if v >= min && v <= max => Ok(v),
            _ => Err(bad(&format!("{name} must be a number in {min}..={max}"))),
        },
    }
}

fn millis(q: &Query, name: &str, default: u64, max: u64) -> Result<Duration> {
    num(q, name, default, 0, max).map(Duration::from_millis)
}

/// Loads the `file=` parameter and its content type.
fn file_param(q: &Query, shared: &Shared) -> Result<(Arc<FileEntry>, &'static str)> {
    let name = q
        .get("file")
        .ok_or_else(|| bad("missing file= parameter"))?;
    match files::resolve(&shared.root, name) {
        Ok(Target::File(path)) => match shared.files.load(&path) {
            Ok(entry) => Ok((entry, files::content_type(&path))),
            Err(_) => Err(Response::html_status(404, "No such file.")),
        },
        Ok(Target::Dir(_)) => Err(bad("file= names a directory")),
        Err(e) => Err(e.response()),
    }
}

/// Dispatches `/_test/<rest>`.
pub fn handle(req: &Request, rest: &str, shared: &Shared) -> Response {
    let q = Query::parse(req.query());
    let result = match rest {
        "echo-headers" => return echo_headers(req, false),
        "echo-headers.html" => return echo_headers(req, true),
        _ if req.method != "GET" && req.method != "HEAD" => {
            return Response::html_status(405, "Only GET and HEAD.").header("Allow", "GET, HEAD")
        }
        "chunked" => chunked(&q, shared),
        "gzip" => encoded(&q, shared, "gzip"),
        "br" => encoded(&q, shared, "br"),
        "encoding" => raw_encoding(&q, shared),
        "trailers" => trailers(&q, shared),
        "drip" => drip(&q, shared),
        "large" => large(&q, shared),
        "nested" => nested(&q),
        "headers" => with_headers(&q, shared),
        "reset" => truncated(&q, shared, true),
        "length-mismatch" => truncated(&q, shared, false),
        "gzip-bomb" => gzip_bomb(&q, shared),
        "slow-headers" => slow_headers(&q, shared),
        _ => match rest.strip_prefix("status/") {
            Some(code) => status(code),
            None => Err(Response::html_status(404, "Unknown test endpoint.")),
        },
    };
    result.unwrap_or_else(|err| err)
}

fn chunked(q: &Query, shared: &Shared) -> Result<Response> {
    let (entry, ctype) = file_param(q, shared)?;
    let chunk = num(q, "chunk", 4096, 1, 16 * MIB)?;
    Ok(Response::new(200)
        .header("Content-Type", ctype)
        .body(Body::Chunked {
            payload: Payload::new(Arc::clone(&entry.data)),
            chunk,
            delay: Duration::ZERO,
            max_total: None,
            trailers: Vec::new(),
        }))
}

fn encoded(q: &Query, shared: &Shared, coding: &str) -> Result<Response> {
    let (entry, ctype) = file_param(q, shared)?;
    let data = if coding == "gzip" {
        entry.gzip()
    } else {
        entry.brotli()
    };
    Ok(Response::new(200)
        .header("Content-Type", ctype)
        .header("Content-Encoding", coding)
        .header("Vary", "Accept-Encoding")
        .body(Body::Full(Payload::new(data))))
}

fn raw_encoding(q: &Query, shared: &Shared) -> Result<Response> {
    let (entry, ctype) = file_param(q, shared)?;
    let name = q.get("name").unwrap_or("x-custom");
    if !is_token(name) {
        return Err(bad("name= must be a token"));
    }
    Ok(Response::new(200)
        .header("Content-Type", ctype)
        .header("Content-Encoding", name)
        .body(Body::Full(Payload::new(Arc::clone(&entry.data)))))
}

fn trailers(q: &Query, shared: &Shared) -> Result<Response> {
    let (entry, ctype) = file_param(q, shared)?;
    let chunk = num(q, "chunk", 4096, 1, 16 * MIB)?;
    let mut crc = flate2::Crc::new();
    crc.update(&entry.data);
    Ok(Response::new(200)
        .header("Content-Type", ctype)
        .header("Trailer", "X-Checksum")
        .body(Body::Chunked {
            payload: Payload::new(Arc::clone(&entry.data)),
            chunk,
            delay: Duration::ZERO,
            max_total: None,
            trailers: vec![("X-Checksum".to_owned(), format!("{:08x}", crc.sum()))],
        }))
}

fn drip(q: &Query, shared: &Shared) -> Result<Response> {
    let (entry, ctype) = file_param(q, shared)?;
    let delay = millis(q, "delay_ms", 100, 60_000)?;
    let chunk = num(q, "chunk", 1, 1, 16 * MIB)?;
    let max_total = match q.get("max_ms") {
        Some(_) => Some(millis(q, "max_ms", 0, 3_600_000)?),
        None => None,
    };
    Ok(Response::new(200)
        .header("Content-Type", ctype)
        .body(Body::Chunked {
            payload: Payload::new(Arc::clone(&entry.data)),
            chunk,
            delay,
            max_total,
            trailers: Vec::new(),
        }))
}

fn status(code: &str) -> Result<Response> {
    let code = code.trim_end_matches('/');
    let status: u16 = match code.parse() {
        Ok(s) if (200..=599).contains(&s) && code.len() == 3 => s,
        _ => return Err(bad("status must be 200..=599")),
    };
    let resp = Response::html_status(status, &format!("Test response with status {status}."));
    Ok(if (300..400).contains(&status) && status != 304 {
        resp.header("Location", "/")
    } else {
        resp
    })
}

fn large(q: &Query, shared: &Shared) -> Result<Response> {
    let mb = num(q, "mb", 1.0f64, 0.0, 1024.0)?;
    let kind = match q.get("kind") {
        None => LargeKind::Doc,
        Some(k) => LargeKind::parse(k).ok_or_else(|| bad("kind must be doc or table"))?,
    };
    let bytes = (mb * MIB as f64) as usize;
    Ok(Response::new(200)
        .header("Content-Type", "text/html")
        .body(Body::Full(Payload::new(shared.gen.large(kind, bytes)))))
}

fn nested(q: &Query) -> Result<Response> {
    let depth = num(q, "depth", 100, 0, 1_000_000)?;
    let tag = match q.get("tag") {
        None => NestTag::Div,
        Some(t) => NestTag::parse(t)
            .ok_or_else(|| bad("tag must be div, ul, li, blockquote, table, span or b"))?,
    };
    Ok(Response::new(200)
        .header("Content-Type", "text/html")
        .full(gen::nested_page(tag, depth)))
}

/// Framing headers stay under the server's control; the fault endpoints cover broken framing.
const RESERVED: &[&str] = &["content-length", "transfer-encoding", "connection"];

fn with_headers(q: &Query, shared: &Shared) -> Result<Response> {
    let (entry, _) = file_param(q, shared)?;
    let mut headers = vec![("Content-Type".to_owned(), "text/html".to_owned())];
    let mut overridden: Vec<String> = Vec::new();
    for h in q.all("h") {
        let (name, value) = h
            .split_once(':')
            .ok_or_else(|| bad("h= must be Name:Value"))?;
        let (name, value) = (name.trim(), value.trim());
        if !is_token(name) || !is_field_value(value) {
            return Err(bad("invalid header in h="));
        }
        let lower = name.to_ascii_lowercase();
        if RESERVED.contains(&lower.as_str()) {
            return Err(bad("h= may not set framing headers"));
        }
        // The first h= for a name replaces the default; later ones add (e.g. several Set-Cookie).
        if !overridden.contains(&lower) {
            headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
            overridden.push(lower);
        }
        headers.push((name.to_owned(), value.to_owned()));
    }
    let mut resp = Response::new(200).body(Body::Full(Payload::new(Arc::clone(&entry.data))));
    resp.headers = headers;
    Ok(resp)
}

/// `reset`: the file's full Content-Length, `after=` bytes, then RST. `length-mismatch`:
/// Content-Length `extra=` bytes too large (the whole file, then FIN), or with `short=` that
/// many bytes too small (the whole file still goes out, then FIN).
fn truncated(q: &Query, shared: &Shared, reset: bool) -> Result<Response> {
    let (entry, ctype) = file_param(q, shared)?;
    let len = entry.data.len();
    let payload = Payload::new(Arc::clone(&entry.data));
    let (payload, claimed) = if reset {
        let after = num(q, "after", len / 2, 0, usize::MAX)?;
        (payload.slice(0..after.min(len)), len as u64)
    } else if q.get("short").is_some() {
        // The other direction: the whole file after a Content-Length that ends early, so the
        // peer sees a complete response followed by stray bytes on the connection.
        if q.get("extra").is_some() {
            return Err(bad("extra= and short= are exclusive"));
        }
        let short = num(q, "short", 1, 1, len)?;
        (payload, (len - short) as u64)
    } else {
        let extra = num(q, "extra", 100u64, 1, 1 << 40)?;
        (payload, len as u64 + extra)
    };
    Ok(Response::new(200)
        .header("Content-Type", ctype)
        .body(Body::Truncated {
            payload,
            claimed,
            reset,
        }))
}

fn gzip_bomb(q: &Query, shared: &Shared) -> Result<Response> {
    let mb = num(q, "mb", 100usize, 1, 4096)?;
    let kind = match q.get("kind") {
        None => BombKind::Html,
        Some(k) => BombKind::parse(k).ok_or_else(|| bad("kind must be html or zeros"))?,
    };
    Ok(Response::new(200)
        .header("Content-Type", "text/html")
        .header("Content-Encoding", "gzip")
        .header("Vary", "Accept-Encoding")
        .body(Body::Full(Payload::new(shared.gen.bomb(kind, mb * MIB)))))
}

fn slow_headers(q: &Query, shared: &Shared) -> Result<Response> {
    let delay = millis(q, "delay_ms", 1000, 600_000)?;
    // Validate before sleeping so a bad request fails fast.
    let file = match q.get("file") {
        Some(_) => Some(file_param(q, shared)?),
        None => None,
    };
    std::thread::sleep(delay);
    Ok(match file {
        Some((entry, ctype)) => Response::new(200)
            .header("Content-Type", ctype)
            .body(Body::Full(Payload::new(Arc::clone(&entry.data)))),
        None => Response::html_status(
            200,
            &format!("Headers delayed by {} ms.", delay.as_millis()),
        ),
    })
}

/// The request as received: `METHOD target` then `name: value` per field, names lowercased.
fn echo_headers(req: &Request, html: bool) -> Response {
    let mut text = format!("{} {}\n", req.method, req.target);
    for (name, value) in &req.headers {
        text.push_str(&name.to_ascii_lowercase());
        text.push_str(": ");
        text.push_str(value);
        text.push('\n');
    }
    if html {
        let page = format!(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Request headers</title></head>\
             <body><pre>{}</pre></body></html>\n",
            gen::escape_html(&text)
        );
        Response::new(200)
            .header("Content-Type", "text/html")
            .full(page.into_bytes())
    } else {
        Response::new(200)
            .header("Content-Type", "text/plain; charset=utf-8")
            .full(text.into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::tests::TempDir;
    use crate::http::Version;

    fn get(shared: &Shared, target: &str) -> Response {
        let req = Request {
            method: "GET".into(),
            target: target.into(),
            version: Version::Http11,
            headers: Vec::new(),
        };
        let rest = req
            .path()
            .strip_prefix("/_test/")
            .unwrap_or_default()
            .to_owned();
        handle(&req, &rest, shared)
    }

    /// (bytes sent, Content-Length announced, RST) of a fault response.
    fn framing(resp: &Response) -> (usize, u64, bool) {
        match &resp.body {
            Body::Truncated {
                payload,
                claimed,
                reset,
            } => (payload.len(), *claimed, *reset),
            other => panic!("not a fault body: {other:?}"),
        }
    }

    #[test]
    fn length_mismatch_in_both_directions() {
        let root = TempDir::new("endpoints");
        root.write("page.html", &[b'x'; 1000]);
        let shared = Shared::new(root.0.clone(), false);

        let f = |t: &str| framing(&get(&shared, t));
        assert_eq!(
            f("/_test/length-mismatch?file=page.html"),
            (1000, 1100, false)
        );
        assert_eq!(
            f("/_test/length-mismatch?file=page.html&extra=5"),
            (1000, 1005, false)
        );
        assert_eq!(
            f("/_test/length-mismatch?file=page.html&short=300"),
            (1000, 700, false)
        );
        assert_eq!(
            f("/_test/length-mismatch?file=page.html&short=1000"),
            (1000, 0, false)
        );
        assert_eq!(f("/_test/reset?file=page.html&after=10"), (10, 1000, true));

        for bad in [
            "short=0",
            "short=1001",
            "short=x",
            "short=1&extra=1",
            "extra=0",
        ] {
            let resp = get(
                &shared,
                &format!("/_test/length-mismatch?file=page.html&{bad}"),
            );
            assert_eq!(resp.status, 400, "{bad}");
        }
    }
}
