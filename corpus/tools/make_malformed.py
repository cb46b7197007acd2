#!/usr/bin/env python3
"""Generate corpus/malformed/garbage-bytes.html.

The file is deliberately not valid UTF-8: it mixes NUL bytes, C0 controls, lone
continuation bytes, overlong and surrogate encodings, windows-1252 bytes and a
truncated sequence at EOF into an otherwise ordinary UTF-8 page. Heredocs and
editors cannot hold these bytes reliably, hence a generator. Output is
deterministic; run from anywhere:

    python3 corpus/tools/make_malformed.py            # write the file
    python3 corpus/tools/make_malformed.py --check    # compare with the file on disk
"""
import hashlib
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "malformed" / "garbage-bytes.html"


def blob(n: int) -> bytes:
    """n pseudo-random bytes from a fixed seed (looks like a pasted binary)."""
    out = b""
    counter = 0
    while len(out) < n:
        out += hashlib.sha256(b"corpus-garbage-%d" % counter).digest()
        counter += 1
    return out[:n]


def build() -> bytes:
    parts = [
        b'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
        b"<title>Garbage \x00bytes\x00 in a UTF-8 page</title>\n</head>\n<body>\n",
        b"<h1>Recovered notes from a corrupted export</h1>\n",
        "<p>This paragraph is clean UTF-8: café, naïve, Zürich, 東京, emoji 🙂.</p>\n".encode("utf-8"),
        # NUL bytes inside text, inside a tag name and inside an attribute value.
        b"<p>NUL inside text: A\x00B\x00C. Inside a tag name: <sp\x00an>span</span>. ",
        b'Inside an attribute: <a href="/pa\x00th" title="t\x00itle">link</a>.</p>\n',
        # C0 controls and DEL that are not whitespace.
        b"<p>Controls: bell\x07 backspace\x08 vertical-tab\x0b form-feed\x0c escape\x1b[31mred\x1b[0m delete\x7f end.</p>\n",
        # Invalid UTF-8 sequences.
        b"<p>Lone continuation bytes: \x80\x81\xbf between words.</p>\n",
        b"<p>Overlong slash: \xc0\xaf and overlong NUL: \xc0\x80.</p>\n",
        b"<p>Encoded surrogate half: \xed\xa0\x80 (U+D800).</p>\n",
        b"<p>Bytes that never appear in UTF-8: \xf5\xf8\xfe\xff.</p>\n",
        b"<p>Truncated three-byte sequence in the middle: \xe2\x82 then ASCII.</p>\n",
        # windows-1252 smart quotes and euro pasted into a UTF-8 document.
        b"<p>Pasted from a legacy editor: \x93quoted\x94, it\x92s \x80 5.</p>\n",
        # A BOM in the middle of the document (U+FEFF as UTF-8) and a UTF-16 BOM.
        b"<p>Zero-width no-break space mid-text: a\xef\xbb\xbfb; UTF-16 BOM bytes: \xff\xfe.</p>\n",
        # A binary blob, as if an image had been pasted into the HTML.
        b"<pre>",
        blob(512),
        b"</pre>\n",
        b"<p>Text after the binary blob must still be readable.</p>\n",
        "<p>Clean UTF-8 again: Ελληνικά, русский, עברית, العربية.</p>\n".encode("utf-8"),
        b"</body>\n</html>\n",
        # Truncated four-byte sequence at EOF (first two bytes of U+1F642).
        b"\xf0\x9f",
    ]
    return b"".join(parts)


def main() -> None:
    data = build()
    # Guard the property the file exists for.
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        raise SystemExit("garbage-bytes.html unexpectedly decodes as UTF-8")
    assert b"\x00" in data
    if "--check" in sys.argv[1:]:
        same = OUT.exists() and OUT.read_bytes() == data
        print(f"{'ok  ' if same else 'DIFF'} malformed/{OUT.name}")
        sys.exit(0 if same else 1)
    OUT.write_bytes(data)
    print(f"wrote malformed/{OUT.name} ({len(data)} bytes)")


if __name__ == "__main__":
    main()
