//! Listeners and the per-connection request loop (one thread per connection).

use std::io::{self, BufWriter, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crate::files::FileCache;
use crate::gen::GenCache;
use crate::http::{
    body_framing, parse_head, scan_chunked, write_response, After, BodyFraming, ParseError,
    Request, Response, Version, WriteCtx,
};

/// Keep-alive connections idle (or stalled mid-request) this long are closed.
const IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// A peer that stops reading for this long loses the connection.
const WRITE_TIMEOUT: Duration = Duration::from_secs(60);
/// Beyond this many open connections new ones get 503, so a runaway client cannot exhaust
/// threads for everyone else.
const MAX_CONNECTIONS: usize = 4096;

/// State shared by every listener of the process.
pub struct Shared {
    /// Canonical document root.
    pub root: PathBuf,
    pub files: FileCache,
    pub gen: GenCache,
    /// Log one line per request to stderr.
    pub log: bool,
    active: AtomicUsize,
}

impl Shared {
    pub fn new(root: PathBuf, log: bool) -> Shared {
        Shared {
            root,
            files: FileCache::default(),
            gen: GenCache::default(),
            log,
            active: AtomicUsize::new(0),
        }
    }
}

/// Starts accepting on `listener` in a background thread. `id` goes into `X-Origin`.
pub fn spawn_listener(
    listener: TcpListener,
    id: String,
    shared: Arc<Shared>,
) -> io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name(format!("accept {id}"))
        .spawn(move || accept_loop(&listener, &Arc::new(id), &shared))
}

fn accept_loop(listener: &TcpListener, id: &Arc<String>, shared: &Arc<Shared>) {
    loop {
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(e) => {
                // EMFILE and friends: back off instead of spinning; never exit.
                if shared.log {
                    eprintln!("origin {id}: accept failed: {e}");
                }
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        if shared.active.fetch_add(1, Ordering::AcqRel) >= MAX_CONNECTIONS {
            shared.active.fetch_sub(1, Ordering::AcqRel);
            reject_busy(stream, id);
            continue;
        }
        let (id, shared2) = (Arc::clone(id), Arc::clone(shared));
        let spawned = std::thread::Builder::new().spawn(move || {
            let _guard = ActiveGuard(&shared2.active);
            handle_connection(stream, &id, &shared2);
        });
        if spawned.is_err() {
            // The closure (and its guard) never ran, so undo the count here.
            shared.active.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

struct ActiveGuard<'a>(&'a AtomicUsize);

impl Drop for ActiveGuard<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

fn reject_busy(stream: TcpStream, id: &str) {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let resp = Response::html_status(503, "Too many connections.");
    let ctx = WriteCtx {
        origin_id: id,
        version: Version::Http11,
        head_only: false,
        keep_alive: false,
    };
    let _ = write_response(&mut &stream, &resp, &ctx);
}

/// Serves requests on one connection until the peer closes, times out or asks to close.
fn handle_connection(stream: TcpStream, id: &str, shared: &Shared) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_read_timeout(Some(IDLE_TIMEOUT));
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let mut conn = Conn {
        stream,
        buf: Vec::with_capacity(8 * 1024),
    };
    loop {
        let req = match conn.read_request() {
            Ok(Some(req)) => req,
            Ok(None) => return,
            Err(e) => {
                let resp = Response::html_status(e.status(), e.detail());
                let ctx = WriteCtx {
                    origin_id: id,
                    version: Version::Http11,
                    head_only: false,
                    keep_alive: false,
                };
                let _ = write_response(&mut &conn.stream, &resp, &ctx);
                if shared.log {
                    eprintln!("origin {id}: bad request: {}", e.detail());
                }
                conn.close_gracefully();
                return;
            }
        };
        let resp = route(&req, shared);
        let ctx = WriteCtx {
            origin_id: id,
            version: req.version,
            head_only: req.is_head(),
            keep_alive: req.keep_alive(),
        };
        let after = {
            let mut out = BufWriter::with_capacity(64 * 1024, &conn.stream);
            write_response(&mut out, &resp, &ctx)
        };
        if shared.log {
            eprintln!(
                "origin {id}: {} {} -> {}",
                req.method, req.target, resp.status
            );
        }
        match after {
            Ok(After::KeepAlive) => {}
            Ok(After::Close) => {
                conn.close_gracefully();
                return;
            }
            Ok(After::Reset) => {
                conn.reset();
                return;
            }
            Err(_) => return,
        }
    }
}

fn route(req: &Request, shared: &Shared) -> Response {
    if let Some(rest) = req.path().strip_prefix("/_test/") {
        return crate::endpoints::handle(req, rest, shared);
    }
    if req.method != "GET" && req.method != "HEAD" {
        return Response::html_status(405, "Only GET and HEAD.").header("Allow", "GET, HEAD");
    }
    crate::files::serve_static(req, &shared.root, &shared.files)
}

struct Conn {
    stream: TcpStream,
    /// Bytes read but not consumed yet (the start of the next pipelined request).
    buf: Vec<u8>,
}

impl Conn {
    /// Reads more bytes; `Ok(false)` on EOF or timeout.
    fn fill(&mut self) -> io::Result<bool> {
        let mut tmp = [0u8; 16 * 1024];
        match (&self.stream).read(&mut tmp) {
            Ok(0) => Ok(false),
            Ok(n) => {
                self.buf.extend_from_slice(tmp.get(..n).unwrap_or_default());
                Ok(true)
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Ok(true),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }

    /// Next request with its body consumed. `Ok(None)` when the connection ended (EOF, timeout,
    /// I/O error) — there is nobody to answer then.
    fn read_request(&mut self) -> Result<Option<Request>, ParseError> {
        let (req, used) = loop {
            if let Some(parsed) = parse_head(&self.buf)? {
                break parsed;
            }
            if !self.fill().unwrap_or(false) {
                return Ok(None);
            }
        };
        self.buf.drain(..used.min(self.buf.len()));

        let framing = body_framing(&req)?;
        if framing != BodyFraming::None
            && req.version == Version::Http11
            && req
                .header("expect")
                .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
            && (&self.stream)
                .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
                .is_err()
        {
            return Ok(None);
        }
        // Bodies are read and dropped: no endpoint uses them, but framing must stay in sync.
        let body_len = match framing {
            BodyFraming::None => 0,
            BodyFraming::Length(n) => usize::try_from(n).unwrap_or(usize::MAX),
            BodyFraming::Chunked => loop {
                if let Some(n) = scan_chunked(&self.buf)? {
                    break n;
                }
                if !self.fill().unwrap_or(false) {
                    return Ok(None);
                }
            },
        };
        while self.buf.len() < body_len {
            if !self.fill().unwrap_or(false) {
                return Ok(None);
            }
        }
        self.buf.drain(..body_len);
        Ok(Some(req))
    }

    /// Half-close and drain briefly so the peer reads our last response before seeing EOF,
    /// instead of a RST caused by unread pipelined bytes.
    fn close_gracefully(self) {
        let _ = self.stream.shutdown(Shutdown::Write);
        let _ = self
            .stream
            .set_read_timeout(Some(Duration::from_millis(500)));
        let mut sink = [0u8; 8 * 1024];
        let mut drained = 0usize;
        while drained < 256 * 1024 {
            match (&self.stream).read(&mut sink) {
                Ok(0) | Err(_) => break,
                Ok(n) => drained += n,
            }
        }
    }

    /// Abortive close: SO_LINGER 0 turns close() into a RST.
    fn reset(self) {
        // Give the loopback peer a moment to take what was written; a RST discards unsent data.
        std::thread::sleep(Duration::from_millis(20));
        let _ = socket2::SockRef::from(&self.stream).set_linger(Some(Duration::ZERO));
    }
}

/// Binds `addr` and starts serving; returns the bound address (useful with port 0).
pub fn bind(
    addr: &str,
    id: Option<String>,
    shared: Arc<Shared>,
) -> io::Result<(SocketAddr, JoinHandle<()>)> {
    let listener = TcpListener::bind(addr)?;
    let local = listener.local_addr()?;
    let id = id.unwrap_or_else(|| local.to_string());
    let handle = spawn_listener(listener, id, shared)?;
    Ok((local, handle))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::tests::TempDir;
    use std::io::BufRead;

    struct Reply {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
        trailers: Vec<(String, String)>,
        chunk_sizes: Vec<usize>,
    }

    impl Reply {
        fn header(&self, name: &str) -> Option<&str> {
            self.headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        }
    }

    fn read_line(r: &mut impl BufRead) -> String {
        let mut line = String::new();
        r.read_line(&mut line).unwrap();
        line.trim_end_matches(['\r', '\n']).to_owned()
    }

    fn read_fields(r: &mut impl BufRead) -> Vec<(String, String)> {
        let mut out = Vec::new();
        loop {
            let line = read_line(r);
            if line.is_empty() {
                return out;
            }
            let (n, v) = line.split_once(':').unwrap();
            out.push((n.to_owned(), v.trim().to_owned()));
        }
    }

    /// Minimal client-side response reader, independent of the server's own framing code.
    fn read_reply(r: &mut impl BufRead, head_request: bool) -> Reply {
        let status_line = read_line(r);
        let status: u16 = status_line.split(' ').nth(1).unwrap().parse().unwrap();
        let headers = read_fields(r);
        let mut reply = Reply {
            status,
            headers,
            body: Vec::new(),
            trailers: Vec::new(),
            chunk_sizes: Vec::new(),
        };
        if head_request || status == 304 {
            return reply;
        }
        if reply.header("transfer-encoding") == Some("chunked") {
            loop {
                let size = usize::from_str_radix(&read_line(r), 16).unwrap();
                if size == 0 {
                    reply.trailers = read_fields(r);
                    return reply;
                }
                reply.chunk_sizes.push(size);
                let mut chunk = vec![0; size + 2];
                r.read_exact(&mut chunk).unwrap();
                assert_eq!(&chunk[size..], b"\r\n");
                reply.body.extend_from_slice(&chunk[..size]);
            }
        }
        let len: usize = reply.header("content-length").unwrap().parse().unwrap();
        reply.body = vec![0; len];
        r.read_exact(&mut reply.body).unwrap();
        reply
    }

    struct Harness {
        addr: SocketAddr,
        _root: TempDir,
        page: Vec<u8>,
    }

    fn start() -> Harness {
        let root = TempDir::new("server");
        let page: Vec<u8> = crate::gen::large_page(crate::gen::LargeKind::Doc, 50_000);
        root.write("page.html", &page);
        root.write("docs/index.html", b"<h1>docs</h1>");
        root.write("notes.md", b"# notes");
        let shared = Arc::new(Shared::new(root.0.clone(), false));
        let (addr, _) = bind("127.0.0.1:0", Some("test-origin".into()), shared).unwrap();
        Harness {
            addr,
            _root: root,
            page,
        }
    }

    fn connect(h: &Harness) -> (TcpStream, io::BufReader<TcpStream>) {
        let s = TcpStream::connect(h.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let r = io::BufReader::new(s.try_clone().unwrap());
        (s, r)
    }

    fn get(path: &str, extra: &str) -> String {
        format!("GET {path} HTTP/1.1\r\nHost: t\r\n{extra}\r\n")
    }

    #[test]
    fn static_file_conditional_and_range_on_one_connection() {
        let h = start();
        let (mut s, mut r) = connect(&h);

        s.write_all(get("/page.html", "").as_bytes()).unwrap();
        let ok = read_reply(&mut r, false);
        assert_eq!(ok.status, 200);
        assert_eq!(ok.body, h.page);
        assert_eq!(ok.header("content-type"), Some("text/html"));
        assert_eq!(ok.header("x-origin"), Some("test-origin"));
        let etag = ok.header("etag").unwrap().to_owned();
        let last_modified = ok.header("last-modified").unwrap().to_owned();

        s.write_all(get("/page.html", &format!("If-None-Match: \"x\", W/{etag}\r\n")).as_bytes())
            .unwrap();
        let nm = read_reply(&mut r, false);
        assert_eq!(nm.status, 304);
        assert_eq!(nm.header("etag"), Some(etag.as_str()));
        assert_eq!(nm.header("content-length"), None);

        s.write_all(
            get(
                "/page.html",
                &format!("If-Modified-Since: {last_modified}\r\n"),
            )
            .as_bytes(),
        )
        .unwrap();
        assert_eq!(read_reply(&mut r, false).status, 304);

        s.write_all(get("/page.html", "Range: bytes=10-19\r\n").as_bytes())
            .unwrap();
        let part = read_reply(&mut r, false);
        assert_eq!(part.status, 206);
        assert_eq!(part.body, &h.page[10..20]);
        assert_eq!(
            part.header("content-range"),
            Some(format!("bytes 10-19/{}", h.page.len()).as_str())
        );

        s.write_all(get("/page.html", "Range: bytes=999999-\r\n").as_bytes())
            .unwrap();
        assert_eq!(read_reply(&mut r, false).status, 416);

        s.write_all(b"HEAD /notes.md HTTP/1.1\r\nHost: t\r\n\r\n")
            .unwrap();
        let head = read_reply(&mut r, true);
        assert_eq!(head.header("content-length"), Some("7"));
        assert_eq!(
            head.header("content-type"),
            Some("text/markdown; charset=utf-8")
        );

        // The connection is still in sync after the HEAD: the next reply parses cleanly.
        s.write_all(get("/docs", "").as_bytes()).unwrap();
        let redirect = read_reply(&mut r, false);
        assert_eq!(redirect.status, 301);
        assert_eq!(redirect.header("location"), Some("/docs/"));
        s.write_all(get("/docs/", "Connection: close\r\n").as_bytes())
            .unwrap();
        let index = read_reply(&mut r, false);
        assert_eq!(index.body, b"<h1>docs</h1>");
        assert_eq!(index.header("connection"), Some("close"));
        let mut rest = Vec::new();
        r.read_to_end(&mut rest).unwrap();
        assert!(rest.is_empty(), "server closed after Connection: close");
    }

    #[test]
    fn pipelined_requests_with_bodies_and_bad_request() {
        let h = start();
        let (mut s, mut r) = connect(&h);
        let batch = format!(
            "POST /_test/echo-headers HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello\
             POST /_test/echo-headers HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n\
             {}GET /../x HTTP/1.1\r\nHost: t\r\n\r\nGET bad\r\n\r\n",
            get("/_test/echo-headers?q=1", "X-Test: Yes\r\n")
        );
        s.write_all(batch.as_bytes()).unwrap();
        let first = read_reply(&mut r, false);
        assert!(first
            .body
            .starts_with(b"POST /_test/echo-headers\nhost: t\ncontent-length: 5\n"));
        let second = read_reply(&mut r, false);
        assert!(String::from_utf8_lossy(&second.body).contains("transfer-encoding: chunked"));
        let third = String::from_utf8(read_reply(&mut r, false).body).unwrap();
        assert_eq!(third, "GET /_test/echo-headers?q=1\nhost: t\nx-test: Yes\n");
        assert_eq!(read_reply(&mut r, false).status, 400);
        let bad = read_reply(&mut r, false);
        assert_eq!(bad.status, 400);
        assert_eq!(bad.header("connection"), Some("close"));

        // The server survives and serves new connections.
        let (mut s, mut r) = connect(&h);
        s.write_all(get("/notes.md", "").as_bytes()).unwrap();
        assert_eq!(read_reply(&mut r, false).body, b"# notes");
    }

    #[test]
    fn chunked_trailers_and_encodings() {
        let h = start();
        let (mut s, mut r) = connect(&h);

        s.write_all(get("/_test/chunked?file=page.html&chunk=1000", "").as_bytes())
            .unwrap();
        let c = read_reply(&mut r, false);
        assert_eq!(c.body, h.page);
        assert!(c.chunk_sizes[..c.chunk_sizes.len() - 1]
            .iter()
            .all(|&n| n == 1000));
        assert_eq!(c.header("content-length"), None);

        s.write_all(get("/_test/trailers?file=page.html", "").as_bytes())
            .unwrap();
        let t = read_reply(&mut r, false);
        assert_eq!(t.body, h.page);
        assert_eq!(t.header("trailer"), Some("X-Checksum"));
        let mut crc = flate2::Crc::new();
        crc.update(&h.page);
        assert_eq!(
            t.trailers,
            [("X-Checksum".to_owned(), format!("{:08x}", crc.sum()))]
        );

        s.write_all(get("/_test/gzip?file=page.html", "").as_bytes())
            .unwrap();
        let gz = read_reply(&mut r, false);
        assert_eq!(gz.header("content-encoding"), Some("gzip"));
        assert_eq!(gz.header("vary"), Some("Accept-Encoding"));
        assert!(gz.body.len() < h.page.len() / 2);
        let mut plain = Vec::new();
        flate2::read::GzDecoder::new(gz.body.as_slice())
            .read_to_end(&mut plain)
            .unwrap();
        assert_eq!(plain, h.page);

        s.write_all(get("/_test/br?file=page.html", "").as_bytes())
            .unwrap();
        let br = read_reply(&mut r, false);
        assert_eq!(br.header("content-encoding"), Some("br"));
        let mut plain = Vec::new();
        brotli::Decompressor::new(br.body.as_slice(), 4096)
            .read_to_end(&mut plain)
            .unwrap();
        assert_eq!(plain, h.page);

        s.write_all(get("/_test/gzip-bomb?mb=2", "").as_bytes())
            .unwrap();
        let bomb = read_reply(&mut r, false);
        let mut plain = Vec::new();
        flate2::read::GzDecoder::new(bomb.body.as_slice())
            .read_to_end(&mut plain)
            .unwrap();
        assert_eq!(plain.len(), 2 * 1024 * 1024);
    }

    #[test]
    fn header_overrides_status_and_generators() {
        let h = start();
        let (mut s, mut r) = connect(&h);
        let q = "/_test/headers?file=notes.md&h=Content-Type:text/html;%20charset=windows-1252\
                 &h=Set-Cookie:a=1&h=Set-Cookie:b=2&h=Cache-Control:no-transform";
        s.write_all(get(q, "").as_bytes()).unwrap();
        let resp = read_reply(&mut r, false);
        assert_eq!(
            resp.header("content-type"),
            Some("text/html; charset=windows-1252")
        );
        assert_eq!(resp.header("cache-control"), Some("no-transform"));
        let cookies: Vec<_> = resp
            .headers
            .iter()
            .filter(|(n, _)| n == "Set-Cookie")
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(cookies, ["a=1", "b=2"]);
        assert_eq!(resp.body, b"# notes");

        s.write_all(get("/_test/headers?file=notes.md&h=Content-Length:1", "").as_bytes())
            .unwrap();
        assert_eq!(read_reply(&mut r, false).status, 400);

        s.write_all(get("/_test/status/503", "").as_bytes())
            .unwrap();
        let st = read_reply(&mut r, false);
        assert_eq!(st.status, 503);
        assert_eq!(st.header("content-type"), Some("text/html"));

        s.write_all(get("/_test/large?mb=0.25", "").as_bytes())
            .unwrap();
        let large = read_reply(&mut r, false);
        assert!(large.body.len() >= 256 * 1024);

        s.write_all(get("/_test/nested?depth=7&tag=blockquote", "").as_bytes())
            .unwrap();
        let nested = String::from_utf8(read_reply(&mut r, false).body).unwrap();
        assert_eq!(nested.matches("<blockquote>").count(), 7);

        s.write_all(get("/_test/nested?depth=-1", "").as_bytes())
            .unwrap();
        assert_eq!(read_reply(&mut r, false).status, 400);
    }

    #[test]
    fn faults_close_the_connection() {
        let h = start();
        let (mut s, mut r) = connect(&h);
        s.write_all(get("/_test/reset?file=page.html&after=100", "").as_bytes())
            .unwrap();
        let status_line = read_line(&mut r);
        assert!(status_line.starts_with("HTTP/1.1 200"));
        let headers = read_fields(&mut r);
        let cl = headers.iter().find(|(n, _)| n == "Content-Length").unwrap();
        assert_eq!(cl.1, h.page.len().to_string());
        let mut got = Vec::new();
        let err = r.read_to_end(&mut got);
        assert_eq!(&got[..], &h.page[..got.len()]);
        assert!(got.len() <= 100);
        // A RST shows up as ECONNRESET, or as a short read if it raced our read.
        assert!(err.is_err() || got.len() == 100);

        let (mut s, mut r) = connect(&h);
        s.write_all(get("/_test/length-mismatch?file=notes.md", "").as_bytes())
            .unwrap();
        read_line(&mut r);
        let headers = read_fields(&mut r);
        let cl = headers.iter().find(|(n, _)| n == "Content-Length").unwrap();
        assert_eq!(cl.1, "107");
        let mut got = Vec::new();
        r.read_to_end(&mut got).unwrap();
        assert_eq!(got, b"# notes");
    }

    #[test]
    fn drip_spaces_out_chunks() {
        let h = start();
        let (mut s, mut r) = connect(&h);
        let started = std::time::Instant::now();
        s.write_all(get("/_test/drip?file=notes.md&delay_ms=20&chunk=2", "").as_bytes())
            .unwrap();
        let d = read_reply(&mut r, false);
        assert_eq!(d.body, b"# notes");
        assert_eq!(d.chunk_sizes, [2, 2, 2, 1]);
        assert!(started.elapsed() >= Duration::from_millis(60));

        // max_ms cuts the drip short: the remainder arrives in one chunk.
        s.write_all(
            get(
                "/_test/drip?file=page.html&delay_ms=30&chunk=1&max_ms=50",
                "",
            )
            .as_bytes(),
        )
        .unwrap();
        let d = read_reply(&mut r, false);
        assert_eq!(d.body, h.page);
        assert!(d.chunk_sizes.len() <= 4, "{:?}", d.chunk_sizes.len());
    }

    #[test]
    fn oversized_head_gets_431() {
        let h = start();
        let (mut s, mut r) = connect(&h);
        let big = format!(
            "GET / HTTP/1.1\r\nHost: t\r\nX-Big: {}\r\n\r\n",
            "a".repeat(70_000)
        );
        // The server may close before reading everything; only the reply matters.
        let _ = s.write_all(big.as_bytes());
        assert_eq!(read_reply(&mut r, false).status, 431);
    }
}
