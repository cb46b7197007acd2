#!/usr/bin/env python3
"""Serve the playground on 127.0.0.1 (standard library only).

    python3 playground/serve.py [--port N]     # default $PLAYGROUND_PORT or 8088; 0 = any free port

URL layout (nothing else is served):
    /, /app.js, /style.css, /favicon.svg   playground/
    /pkg/*                                 playground/build/pkg/ (wasm-pack --target web output)
    /corpus.json                           playground/build/corpus.json (make_manifest.py)
    /corpus/*                              corpus/ (raw bytes, sandboxed if opened directly)

Prints one line `playground: serving http://127.0.0.1:PORT/` once it accepts connections.
"""

import argparse
import http.server
import os
import posixpath
import sys
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BUILD = HERE / "build"

STATIC = {"index.html", "app.js", "style.css", "favicon.svg"}
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".ts": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
}
# The same policy as index.html's <meta>, for every playground response.
CSP = (
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
    "connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'"
)


def resolve(url_path: str) -> tuple[Path, str] | None:
    """The file for a URL path and its Content-Type, or None (404)."""
    path = urllib.parse.unquote(urllib.parse.urlsplit(url_path).path)
    parts = [p for p in posixpath.normpath(path).split("/") if p]
    if any(p.startswith(".") or "\\" in p or "\0" in p for p in parts):
        return None
    if not parts:
        parts = ["index.html"]
    head, rest = parts[0], parts[1:]
    if head in STATIC and not rest:
        file = HERE / head
    elif head == "corpus.json" and not rest:
        file = BUILD / "corpus.json"
    elif head == "pkg" and rest:
        file = BUILD / "pkg" / Path(*rest)
    elif head == "corpus" and rest:
        file = ROOT / "corpus" / Path(*rest)
    else:
        return None
    if not file.is_file():
        return None
    if head == "corpus":
        # Pages are handed over as bytes: no charset of ours may reinterpret them.
        ctype = "text/html" if file.suffix == ".html" else TYPES.get(file.suffix)
    else:
        ctype = TYPES.get(file.suffix)
    return (file, ctype or "application/octet-stream")


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "playground"
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self.respond(body=True)

    def do_HEAD(self) -> None:
        self.respond(body=False)

    def respond(self, body: bool) -> None:
        found = resolve(self.path)
        if found is None:
            data = b"not found\n"
            self.send_response(404)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
        else:
            file, ctype = found
            data = file.read_bytes()
            self.send_response(200)
            self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if found is not None and found[0].is_relative_to(ROOT / "corpus"):
            # A corpus page opened directly runs none of its scripts.
            self.send_header("Content-Security-Policy", "sandbox")
        else:
            self.send_header("Content-Security-Policy", CSP)
        self.end_headers()
        if body:
            self.wfile.write(data)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (stdlib signature)
        if os.environ.get("PLAYGROUND_QUIET") != "1":
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        # A browser dropping a keep-alive connection (navigation, reload) is not an error.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PLAYGROUND_PORT", "8088")))
    args = parser.parse_args()
    if not (BUILD / "pkg" / "agent_markdown_web_bg.wasm").is_file():
        sys.exit("serve: playground/build/pkg is missing; run `make playground`")
    if not (BUILD / "corpus.json").is_file():
        sys.exit("serve: playground/build/corpus.json is missing; run `make playground`")
    server = Server(("127.0.0.1", args.port), Handler)
    print(f"playground: serving http://127.0.0.1:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
