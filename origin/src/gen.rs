//! Deterministic generated documents: large realistic pages, deep nesting and gzip bombs.
//! Generated bodies are cached per parameter set because load tests request the same sizes over
//! and over.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::{Arc, Mutex, PoisonError};

use flate2::write::GzEncoder;
use flate2::Compression;

pub const MIB: usize = 1024 * 1024;

pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LargeKind {
    /// Article-like sections: headings, paragraphs with inline markup, lists, tables, code.
    Doc,
    /// One long table.
    Table,
}

impl LargeKind {
    pub fn parse(s: &str) -> Option<LargeKind> {
        match s {
            "doc" => Some(LargeKind::Doc),
            "table" => Some(LargeKind::Table),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BombKind {
    Zeros,
    Html,
}

impl BombKind {
    pub fn parse(s: &str) -> Option<BombKind> {
        match s {
            "zeros" => Some(BombKind::Zeros),
            "html" => Some(BombKind::Html),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    Large(LargeKind, usize),
    Bomb(BombKind, usize),
}

/// Bounded cache of generated bodies; cleared wholesale when it grows past its budget, which is
/// fine for a test server that only ever sees a handful of distinct sizes.
#[derive(Default)]
pub struct GenCache {
    entries: Mutex<HashMap<Key, Arc<Vec<u8>>>>,
}

const GEN_CACHE_BUDGET: usize = 1024 * MIB;

impl GenCache {
    fn get_or_make(&self, key: Key, make: impl FnOnce() -> Vec<u8>) -> Arc<Vec<u8>> {
        if let Some(hit) = self.lock().get(&key) {
            return Arc::clone(hit);
        }
        // Generate outside the lock; two racing first requests just both generate.
        let made = Arc::new(make());
        let mut map = self.lock();
        let used: usize = map.values().map(|v| v.len()).sum();
        if used + made.len() > GEN_CACHE_BUDGET {
            map.clear();
        }
        if made.len() <= GEN_CACHE_BUDGET {
            map.insert(key, Arc::clone(&made));
        }
        made
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Arc<Vec<u8>>>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn large(&self, kind: LargeKind, bytes: usize) -> Arc<Vec<u8>> {
        self.get_or_make(Key::Large(kind, bytes), || large_page(kind, bytes))
    }

    pub fn bomb(&self, kind: BombKind, bytes: usize) -> Arc<Vec<u8>> {
        self.get_or_make(Key::Bomb(kind, bytes), || gzip_bomb(kind, bytes))
    }
}

const WORDS: &[&str] = &[
    "envoy",
    "proxy",
    "markdown",
    "agent",
    "request",
    "response",
    "header",
    "cache",
    "stream",
    "buffer",
    "filter",
    "token",
    "latency",
    "upstream",
    "cluster",
    "route",
    "listener",
    "socket",
    "payload",
    "document",
    "section",
    "paragraph",
    "table",
    "column",
    "render",
    "convert",
    "encoding",
    "charset",
    "compress",
    "deliver",
    "client",
    "server",
    "origin",
    "network",
    "throughput",
    "budget",
    "limit",
    "schema",
    "version",
    "release",
    "deploy",
    "metric",
    "trace",
    "sample",
    "policy",
    "rule",
    "match",
    "prefix",
    "content",
    "negotiate",
    "strong",
    "validator",
    "entity",
    "range",
    "partial",
    "chunk",
    "trailer",
    "window",
    "frame",
    "quickly",
    "reliably",
    "safely",
    "carefully",
    "often",
];

/// Small deterministic generator (64-bit LCG, high bits used) so pages are identical across
/// runs and machines.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn word(&mut self) -> &'static str {
        WORDS
            .get(self.below(WORDS.len()))
            .copied()
            .unwrap_or("word")
    }

    fn words(&mut self, out: &mut String, n: usize) {
        for i in 0..n {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(self.word());
        }
    }

    fn title(&mut self, out: &mut String, n: usize) {
        for i in 0..n {
            if i > 0 {
                out.push(' ');
            }
            let w = self.word();
            let mut chars = w.chars();
            if let Some(first) = chars.next() {
                out.extend(first.to_uppercase());
                out.push_str(chars.as_str());
            }
        }
    }

    /// A sentence with occasional inline markup.
    fn sentence(&mut self, out: &mut String, section: usize) {
        let n = 8 + self.below(10);
        let mut title = String::new();
        self.title(&mut title, 1);
        out.push_str(&title);
        for _ in 1..n {
            out.push(' ');
            match self.below(24) {
                0 => {
                    let _ = write!(
                        out,
                        "<a href=\"/docs/{}/{section}\">{}</a>",
                        self.word(),
                        self.word()
                    );
                }
                1 => {
                    let _ = write!(out, "<strong>{}</strong>", self.word());
                }
                2 => {
                    let _ = write!(out, "<em>{}</em>", self.word());
                }
                3 => {
                    let _ = write!(out, "<code>{}_{}()</code>", self.word(), self.word());
                }
                _ => out.push_str(self.word()),
            }
        }
        out.push_str(". ");
    }

    fn paragraph(&mut self, out: &mut String, section: usize) {
        out.push_str("<p>");
        for _ in 0..3 + self.below(4) {
            self.sentence(out, section);
        }
        out.push_str("</p>\n");
    }
}

fn page_start(out: &mut String, title: &str) {
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n<meta name=\"description\" content=\"Generated test page\">\n\
         <link rel=\"stylesheet\" href=\"/static/site.css\">\n\
         <script>window.analytics = {{ enabled: false }};</script>\n</head>\n<body>\n\
         <header><nav><a href=\"/\">Home</a> | <a href=\"/docs/\">Docs</a> | \
         <a href=\"/blog/\">Blog</a></nav></header>\n<main>\n<article>\n<h1>{title}</h1>\n"
    );
}

const PAGE_END: &str = "</article>\n</main>\n<footer><p>&copy; Example Corp. \
     <a href=\"/privacy\">Privacy</a></p></footer>\n</body>\n</html>\n";

/// A page of roughly `target` bytes (it stops at the first section boundary past the target).
pub fn large_page(kind: LargeKind, target: usize) -> Vec<u8> {
    let mut out = String::with_capacity(target + 16 * 1024);
    let mut rng = Lcg(0x5eed_0000 ^ target as u64);
    match kind {
        LargeKind::Doc => {
            page_start(&mut out, "Generated document");
            let mut i = 1;
            while out.len() + PAGE_END.len() < target {
                doc_section(&mut out, &mut rng, i);
                i += 1;
            }
        }
        LargeKind::Table => {
            page_start(&mut out, "Generated table");
            out.push_str(
                "<table>\n<thead><tr><th>#</th><th>Name</th><th>Status</th><th>Notes</th></tr></thead>\n<tbody>\n",
            );
            let mut i = 1;
            while out.len() + PAGE_END.len() + 20 < target {
                let _ = write!(out, "<tr><td>{i}</td><td>");
                rng.title(&mut out, 2);
                let _ = write!(out, "</td><td>{}</td><td>", rng.word());
                rng.words(&mut out, 6);
                out.push_str("</td></tr>\n");
                i += 1;
            }
            out.push_str("</tbody>\n</table>\n");
        }
    }
    out.push_str(PAGE_END);
    out.into_bytes()
}

fn doc_section(out: &mut String, rng: &mut Lcg, i: usize) {
    let _ = write!(out, "<section id=\"s{i}\">\n<h2>{i}. ");
    rng.title(out, 3);
    out.push_str("</h2>\n");
    rng.paragraph(out, i);
    rng.paragraph(out, i);

    out.push_str(if i.is_multiple_of(2) {
        "<ol>\n"
    } else {
        "<ul>\n"
    });
    for _ in 0..3 + rng.below(3) {
        out.push_str("<li>");
        let n = 4 + rng.below(6);
        rng.words(out, n);
        out.push_str("</li>\n");
    }
    out.push_str(if i.is_multiple_of(2) {
        "</ol>\n"
    } else {
        "</ul>\n"
    });

    let _ = write!(out, "<h3>{i}.1 ");
    rng.title(out, 2);
    out.push_str("</h3>\n");
    rng.paragraph(out, i);

    if i.is_multiple_of(3) {
        out.push_str("<table>\n<thead><tr><th>Option</th><th>Default</th><th>Description</th></tr></thead>\n<tbody>\n");
        for _ in 0..4 {
            let _ = write!(
                out,
                "<tr><td><code>{}_{}</code></td><td>{}</td><td>",
                rng.word(),
                rng.word(),
                rng.below(1000)
            );
            rng.words(out, 5);
            out.push_str("</td></tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
    }
    if i % 4 == 1 {
        let _ = write!(
            out,
            "<pre><code class=\"language-rust\">fn {w}_{i}(input: &amp;[u8]) -&gt; usize {{\n    \
             // {c}\n    input.iter().filter(|b| **b &lt; 0x80).count()\n}}\n</code></pre>\n",
            w = rng.word(),
            c = rng.word()
        );
    }
    if i % 5 == 2 {
        out.push_str("<blockquote><p>");
        rng.sentence(out, i);
        out.push_str("</p></blockquote>\n");
    }
    out.push_str("</section>\n");
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NestTag {
    Div,
    Ul,
    Blockquote,
    Table,
    Span,
    B,
}

impl NestTag {
    pub fn parse(s: &str) -> Option<NestTag> {
        Some(match s {
            "div" => NestTag::Div,
            "ul" | "li" => NestTag::Ul,
            "blockquote" => NestTag::Blockquote,
            "table" => NestTag::Table,
            "span" => NestTag::Span,
            "b" => NestTag::B,
            _ => return None,
        })
    }

    fn open_close(self) -> (&'static str, &'static str) {
        match self {
            NestTag::Div => ("<div>", "</div>"),
            NestTag::Ul => ("<ul><li>", "</li></ul>"),
            NestTag::Blockquote => ("<blockquote>", "</blockquote>"),
            NestTag::Table => ("<table><tr><td>", "</td></tr></table>"),
            NestTag::Span => ("<span>", "</span>"),
            NestTag::B => ("<b>", "</b>"),
        }
    }
}

/// `depth` nested elements around one line of text.
pub fn nested_page(tag: NestTag, depth: usize) -> Vec<u8> {
    let (open, close) = tag.open_close();
    let mut out = String::with_capacity(200 + depth * (open.len() + close.len()));
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Nested {depth}</title></head>\n<body>\n"
    );
    for _ in 0..depth {
        out.push_str(open);
    }
    let _ = write!(out, "Deepest text at depth {depth}.");
    for _ in 0..depth {
        out.push_str(close);
    }
    out.push_str("\n</body></html>\n");
    out.into_bytes()
}

/// Gzip stream that inflates to exactly `bytes` bytes of zeros or repetitive HTML.
pub fn gzip_bomb(kind: BombKind, bytes: usize) -> Vec<u8> {
    const BLOCK: usize = 64 * 1024;
    let mut enc = GzEncoder::new(Vec::new(), Compression::best());
    let mut remaining = bytes;
    // Writes into a Vec cannot fail; ignoring the results keeps this infallible.
    let emit = |enc: &mut GzEncoder<Vec<u8>>, data: &[u8], remaining: &mut usize| {
        let n = data.len().min(*remaining);
        let _ = enc.write_all(data.get(..n).unwrap_or_default());
        *remaining -= n;
    };
    match kind {
        BombKind::Zeros => {
            let block = vec![0u8; BLOCK];
            while remaining > 0 {
                emit(&mut enc, &block, &mut remaining);
            }
        }
        BombKind::Html => {
            let head = b"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Bomb</title></head><body>\n";
            let tail = b"</body></html>\n";
            emit(&mut enc, head, &mut remaining);
            let para = b"<p>All work and no play makes Jack a dull boy.</p>\n";
            let block: Vec<u8> = para
                .iter()
                .copied()
                .cycle()
                .take(BLOCK - BLOCK % para.len())
                .collect();
            while remaining > tail.len() {
                let room = remaining - tail.len();
                let n = block.len().min(room);
                emit(&mut enc, block.get(..n).unwrap_or_default(), &mut remaining);
            }
            emit(&mut enc, tail, &mut remaining);
        }
    }
    enc.finish().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::read::GzDecoder;
    use std::io::Read;

    #[test]
    fn large_doc_is_deterministic_sized_and_varied() {
        let a = large_page(LargeKind::Doc, 256 * 1024);
        let b = large_page(LargeKind::Doc, 256 * 1024);
        assert_eq!(a, b);
        assert!(
            a.len() >= 256 * 1024 && a.len() < 256 * 1024 + 8 * 1024,
            "{}",
            a.len()
        );
        let s = String::from_utf8(a).unwrap();
        for needle in [
            "<h2>",
            "<h3>",
            "<p>",
            "<ul>",
            "<ol>",
            "<table>",
            "<pre><code",
            "<a href=",
            "<blockquote>",
            "</html>",
        ] {
            assert!(s.contains(needle), "missing {needle}");
        }
        // Tags balance for the block-level elements we emit.
        for tag in ["section", "table", "ul", "ol", "pre", "blockquote", "p"] {
            assert_eq!(
                s.matches(&format!("<{tag}>")).count() + s.matches(&format!("<{tag} ")).count(),
                s.matches(&format!("</{tag}>")).count(),
                "{tag}"
            );
        }
    }

    #[test]
    fn large_table_reaches_target() {
        let t = large_page(LargeKind::Table, 100_000);
        assert!(t.len() >= 100_000 && t.len() < 101_000, "{}", t.len());
        assert!(t.ends_with(PAGE_END.as_bytes()));
    }

    #[test]
    fn nesting_counts() {
        let s = String::from_utf8(nested_page(NestTag::Ul, 50)).unwrap();
        assert_eq!(s.matches("<ul><li>").count(), 50);
        assert_eq!(s.matches("</li></ul>").count(), 50);
        assert!(s.contains("Deepest text at depth 50."));
        let s = String::from_utf8(nested_page(NestTag::Div, 0)).unwrap();
        assert!(!s.contains("<div>"));
    }

    #[test]
    fn bomb_inflates_to_exact_size() {
        for kind in [BombKind::Zeros, BombKind::Html] {
            let gz = gzip_bomb(kind, 3 * MIB + 7);
            assert!(gz.len() < 64 * 1024, "{kind:?} compressed to {}", gz.len());
            let mut out = Vec::new();
            GzDecoder::new(gz.as_slice()).read_to_end(&mut out).unwrap();
            assert_eq!(out.len(), 3 * MIB + 7);
            if kind == BombKind::Html {
                assert!(out.starts_with(b"<!DOCTYPE html>"));
                assert!(out.ends_with(b"</body></html>\n"));
            } else {
                assert!(out.iter().all(|&b| b == 0));
            }
        }
    }

    #[test]
    fn cache_returns_same_allocation() {
        let cache = GenCache::default();
        let a = cache.large(LargeKind::Doc, 10_000);
        let b = cache.large(LargeKind::Doc, 10_000);
        assert!(Arc::ptr_eq(&a, &b));
    }

    #[test]
    fn escapes() {
        assert_eq!(
            escape_html("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
