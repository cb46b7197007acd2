"""Assertions shared by the test modules."""

from __future__ import annotations

from harness import MARKDOWN_CT, STRONG_ETAG, Reference, Resp


def assert_converted(
    r: Resp, expected: Reference | None = None, *, tokens_header: str = "x-markdown-tokens"
) -> None:
    """A converted response: Markdown body and the headers the issue specifies; with
    `expected`, body, ETag and token count exactly as md-convert reports them."""
    assert r.status == 200, r.headers
    assert r.headers.get("content-type") == MARKDOWN_CT
    assert int(r.headers["content-length"]) == len(r.body)
    assert STRONG_ETAG.match(r.headers.get("etag", "")), r.headers.get("etag")
    tokens = r.headers.get(tokens_header, "")
    assert tokens.isdigit(), f"{tokens_header}: {tokens!r}"
    if expected is not None:
        assert r.body == expected.markdown
        assert r.headers["etag"] == expected.etag
        assert int(tokens) == expected.tokens
    assert "accept" in r.tokens("vary")
    for gone in ("accept-ranges", "content-md5", "content-encoding", "x-markdown-filter"):
        assert gone not in r.headers, gone


def assert_passthrough(r: Resp, original: Resp | bytes) -> None:
    """Not converted: same status and bytes as the origin (and its content type)."""
    assert r.headers.get("content-type", "").split(";")[0] != "text/markdown"
    if isinstance(original, bytes):
        assert r.status == 200
        assert r.body == original
        return
    assert r.status == original.status
    assert r.body == original.body
    assert r.headers.get("content-type") == original.headers.get("content-type")
    if "etag" in original.headers:
        assert r.headers.get("etag") == original.headers["etag"]
