#!/usr/bin/env python3
"""Ratio of HTML bytes to the visible text of a page's main content region.

Usage: textratio.py FILE [MARKER]
MARKER is `tag`, `#id`, `.class` or `[attr=value]` naming the main-content element
(default: first of role=main, <main>, <article>). Stdlib only, so it runs anywhere.
"""
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}
SKIP = {"script", "style", "template", "noscript"}


def matches(marker, tag, attrs):
    a = dict(attrs)
    if marker.startswith("#"):
        return a.get("id") == marker[1:]
    if marker.startswith("."):
        return marker[1:] in (a.get("class") or "").split()
    if marker.startswith("["):
        k, _, v = marker[1:-1].partition("=")
        return a.get(k) == v
    return tag == marker


class Extract(HTMLParser):
    def __init__(self, markers):
        super().__init__(convert_charrefs=True)
        self.markers = markers
        self.depth = 0  # >0 while inside the chosen region
        self.skip = 0
        self.done = False
        self.text = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        if self.depth:
            self.depth += 1
        elif not self.done and any(matches(m, tag, attrs) for m in self.markers):
            self.depth = 1
        if tag in SKIP:
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if tag in SKIP and self.skip:
            self.skip -= 1
        if self.depth:
            self.depth -= 1
            if not self.depth:
                self.done = True

    def handle_data(self, data):
        if self.depth and not self.skip:
            self.text.append(data)


def main_text(html, marker=None):
    markers = [marker] if marker else ["[role=main]", "main", "article"]
    for m in markers:
        p = Extract([m])
        p.feed(html)
        if p.text:
            return " ".join(" ".join(p.text).split())
    return ""


if __name__ == "__main__":
    path = sys.argv[1]
    raw = open(path, "rb").read()
    text = main_text(raw.decode("utf-8", "replace"), sys.argv[2] if len(sys.argv) > 2 else None)
    n = len(text.encode("utf-8"))
    print(f"{path}: html={len(raw)} content_text={n} ratio={len(raw) / max(n, 1):.1f}")
