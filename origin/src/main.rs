//! `origin` — the demo and test origin server behind Envoy.
//!
//! A small HTTP/1.1 server (std::net, one thread per connection) that serves static files and a
//! set of deterministic test and fault endpoints. Used by `make run`, the Envoy integration
//! tests, the k6 load tests and the fault-injection tests.
//!
//! ```text
//! origin --listen 127.0.0.1:8081 [--listen 127.0.0.1:8082 ...] [--root DIR] [--id NAME ...] [--log]
//! ```
//!
//! * `--listen ADDR` (repeatable, default `127.0.0.1:8081`; port 0 picks a free port). One process
//!   serves all listeners and prints `origin listening on http://ADDR root=DIR` per listener once
//!   it is accepting (stdout is flushed, so harnesses can wait for that line).
//! * `--root DIR` document root; defaults to `$ORIGIN_ROOT`, else `corpus`.
//! * `--id NAME` value of the `X-Origin` header on every response. Given once it applies to every
//!   listener; given once per `--listen` the ids pair up in order. Default: the bound address.
//! * `--log` one stderr line per request.
//!
//! Static files: `..` segments are rejected (400) after %XX decoding, symlinks may not leave the
//! root (403), the query string is ignored. A directory serves its `index.html`, else an HTML
//! listing; a directory URL without trailing slash gets a 301. Responses carry a strong `ETag`,
//! `Last-Modified`, `Content-Length` and `Accept-Ranges: bytes`; `If-None-Match` (weak
//! comparison, lists, `*`) or else `If-Modified-Since` give 304; a single `Range: bytes=a-b`
//! gives 206 (416 when unsatisfiable, `If-Range` honoured). `.html` is sent as `text/html`
//! without a charset parameter on purpose.
//!
//! Test endpoints (`F` is a path under the root; all output is deterministic):
//!
//! | path | response |
//! |---|---|
//! | `/_test/chunked?file=F[&chunk=N]` | chunked, N-byte chunks (default 4096) |
//! | `/_test/gzip?file=F`, `/_test/br?file=F` | compressed, Content-Length, `Vary: Accept-Encoding` |
//! | `/_test/encoding?file=F&name=X` | raw file labelled `Content-Encoding: X` (default `x-custom`) |
//! | `/_test/trailers?file=F[&chunk=N]` | chunked + trailer `X-Checksum: <CRC-32 of the body, 8 hex digits>` |
//! | `/_test/drip?file=F&delay_ms=100&chunk=1[&max_ms=M]` | chunked, a chunk every delay_ms; after M ms the rest at once |
//! | `/_test/status/NNN` | status NNN (200–599), small `text/html` page; 3xx (not 304) add `Location: /` |
//! | `/_test/large?mb=N[&kind=doc\|table]` | generated HTML of about N MiB (fractions allowed, ≤ 1024), cached per size |
//! | `/_test/nested?depth=N[&tag=div\|ul\|li\|blockquote\|table\|span\|b]` | N nested elements (`ul`/`li` nest as `<ul><li>` pairs) |
//! | `/_test/headers?file=F&h=Name:Value&...` | file as `text/html` plus/overriding the given headers (framing headers refused) |
//! | `/_test/reset?file=F[&after=N]` | full Content-Length, N bytes (default half), then RST |
//! | `/_test/length-mismatch?file=F[&extra=N]` | Content-Length N (default 100) bytes too large, then FIN |
//! | `/_test/gzip-bomb?mb=N[&kind=html\|zeros]` | gzip inflating to exactly N MiB (default 100, html) |
//! | `/_test/echo-headers[.html]` | `METHOD target` then `name: value` lines as received (any method); `.html` wraps it in `<pre>` |
//! | `/_test/slow-headers?delay_ms=N[&file=F]` | waits N ms (default 1000) before the headers |
//!
//! Every response has `X-Origin` and `Date`. Connections are kept alive (HTTP/1.1 default,
//! pipelining supported) until `Connection: close`, 30 s idle, or an error; malformed requests
//! get 400/431/413/501/505 and a close, never a crash.

mod conditional;
mod endpoints;
mod files;
mod gen;
mod http;
mod server;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

const USAGE: &str =
    "usage: origin --listen ADDR [--listen ADDR ...] [--root DIR] [--id NAME ...] [--log]";

#[derive(Debug, PartialEq)]
struct Config {
    listens: Vec<String>,
    ids: Vec<String>,
    root: Option<String>,
    log: bool,
}

fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Config, String> {
    let mut cfg = Config {
        listens: Vec::new(),
        ids: Vec::new(),
        root: None,
        log: false,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--listen" => cfg.listens.push(value()?),
            "--id" => cfg.ids.push(value()?),
            "--root" => cfg.root = Some(value()?),
            "--log" => cfg.log = true,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if cfg.listens.is_empty() {
        cfg.listens.push("127.0.0.1:8081".to_owned());
    }
    if cfg.ids.len() > 1 && cfg.ids.len() != cfg.listens.len() {
        return Err("give --id once, or once per --listen".to_owned());
    }
    Ok(cfg)
}

fn main() -> ExitCode {
    let cfg = match parse_args(std::env::args().skip(1)) {
        Ok(cfg) => cfg,
        Err(msg) if msg.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(msg) => {
            eprintln!("origin: {msg}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let root_arg = cfg
        .root
        .clone()
        .or_else(|| std::env::var("ORIGIN_ROOT").ok().filter(|r| !r.is_empty()))
        .unwrap_or_else(|| "corpus".to_owned());
    let root: PathBuf = match std::fs::canonicalize(&root_arg) {
        Ok(p) if p.is_dir() => p,
        _ => {
            eprintln!("origin: root {root_arg:?} is not a directory");
            return ExitCode::from(2);
        }
    };
    let shared = Arc::new(server::Shared::new(root, cfg.log));

    let mut handles = Vec::new();
    for (i, addr) in cfg.listens.iter().enumerate() {
        let id = cfg.ids.get(i).or(cfg.ids.first()).cloned();
        match server::bind(addr, id, Arc::clone(&shared)) {
            Ok((local, handle)) => {
                println!("origin listening on http://{local} root={root_arg}");
                let _ = std::io::stdout().flush();
                handles.push(handle);
            }
            Err(e) => {
                eprintln!("origin: cannot listen on {addr}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    for handle in handles {
        // Accept loops never return; a join error would mean one panicked.
        if handle.join().is_err() {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Result<Config, String> {
        parse_args(s.split_whitespace().map(str::to_owned))
    }

    #[test]
    fn cli_parsing() {
        let cfg =
            args("--listen 127.0.0.1:1 --id a --listen=127.0.0.1:2 --id=b --root x --log").unwrap();
        assert_eq!(cfg.listens, ["127.0.0.1:1", "127.0.0.1:2"]);
        assert_eq!(cfg.ids, ["a", "b"]);
        assert_eq!(cfg.root.as_deref(), Some("x"));
        assert!(cfg.log);
        assert_eq!(args("").unwrap().listens, ["127.0.0.1:8081"]);
        assert!(args("--listen").is_err());
        assert!(args("--bogus").is_err());
        assert!(args("--listen a --listen b --listen c --id x --id y").is_err());
        assert!(args("--listen a --listen b --id x").is_ok());
    }
}
