//! Document metadata: ETag and YAML front matter.
use std::borrow::Cow;
use std::fmt::Write;

use sha2::{Digest, Sha256};

use crate::dom::{Attr, Dom, NodeId, Tag, DOCUMENT, NONE};
use crate::urls::Resolver;

/// Strong ETag of `bytes`: the first 128 bits of SHA-256 as 32 lowercase hex digits, quoted.
pub fn etag(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(34);
    out.push('"');
    for b in &digest[..16] {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        out.push(HEX[(b >> 4) as usize] as char);
        out.push(HEX[(b & 15) as usize] as char);
    }
    out.push('"');
    out
}

/// Longest front-matter value kept (descriptions can be spam-stuffed).
const MAX_VALUE_CHARS: usize = 1000;

/// What the document says about itself.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct PageMeta {
    pub title: Option<String>,
    pub description: Option<String>,
    pub canonical: Option<String>,
    pub lang: Option<String>,
    pub image: Option<String>,
    pub author: Option<String>,
    pub published: Option<String>,
    pub base_href: Option<String>,
    /// `<meta property="og:type" content="article">`: the page says it is an article (news,
    /// a blog post), which lets [`crate::select`] clean inside its main content.
    pub declares_article: bool,
}

/// Collect metadata from `<html lang>` and the head's title, meta, link rel=canonical and base.
///
/// A stray element in `<head>` (an `<img>`, a `<div>`) ends the head for the tree builder, and
/// everything after it, `<meta property="og:…">` included, lands in `<body>`: browsers and
/// reader modes still read those (`document.querySelector('meta[…]')`), so they are read here
/// too, after the head's, which win. `itemprop` metas are taken only from the head: in the
/// body they describe whatever item they sit in (a product, one post of a list).
pub fn collect(dom: &Dom) -> PageMeta {
    let mut c = Collector::default();
    if let Some(html) = dom.find(DOCUMENT, Tag::Html) {
        c.m.lang = dom.attr(html, Attr::Lang).and_then(clean_value);
    }
    let head = dom.find(DOCUMENT, Tag::Head);
    for n in head.into_iter().flat_map(|h| dom.descendants(h)) {
        c.take(dom, n, true);
    }
    // The arena holds nodes in the order the parser created them: document order for these
    // leaf elements. Only head-level tags are looked at, and only they climb to their head.
    for n in 0..dom.nodes.len() as NodeId {
        if matches!(
            dom.tag(n),
            Some(Tag::Meta | Tag::Link | Tag::Title | Tag::Base)
        ) && outside_head(dom, n, head)
        {
            c.take(dom, n, false);
        }
    }
    let Collector {
        mut m,
        og_title,
        named_author,
    } = c;
    if named_author.is_some() {
        m.author = named_author;
    }
    if m.author.is_none() || m.published.is_none() {
        let (author, published) = json_ld(dom);
        m.author = m.author.take().or(author);
        m.published = m.published.take().or(published);
    }
    if m.title.is_none() {
        m.title = og_title.or_else(|| {
            dom.find(DOCUMENT, Tag::H1)
                .and_then(|h| clean_value(&heading_text(dom, h)))
        });
    }
    m
}

/// Whether `n` is in the document but not under `head` (read already). Template contents
/// and subtrees the parser took out hang from no document and are not read. One walk up the
/// parent links, which the depth cap bounds.
fn outside_head(dom: &Dom, n: NodeId, head: Option<NodeId>) -> bool {
    let mut at = n;
    while at != NONE {
        if Some(at) == head {
            return false;
        }
        if at == DOCUMENT {
            return true;
        }
        at = dom.node(at).parent;
    }
    false
}

/// What [`collect`] has found so far; the first value of each kind wins.
#[derive(Default)]
struct Collector {
    m: PageMeta,
    og_title: Option<String>,
    named_author: Option<String>,
}

impl Collector {
    fn take(&mut self, dom: &Dom, n: NodeId, in_head: bool) {
        let m = &mut self.m;
        match dom.tag(n) {
            Some(Tag::Title) if m.title.is_none() => {
                m.title = clean_value(&text_content(dom, n));
            }
            Some(Tag::Base) if m.base_href.is_none() => {
                m.base_href = dom.attr(n, Attr::Href).map(str::to_string);
            }
            Some(Tag::Link) => {
                let canonical = dom.attr(n, Attr::Rel).is_some_and(|r| {
                    r.split_ascii_whitespace()
                        .any(|t| t.eq_ignore_ascii_case("canonical"))
                });
                if canonical && m.canonical.is_none() {
                    m.canonical = dom.attr(n, Attr::Href).map(str::to_string);
                }
            }
            Some(Tag::Meta) => {
                let named = dom
                    .attr(n, Attr::Name)
                    .or_else(|| dom.attr(n, Attr::Property));
                let key = match named {
                    Some(k) => Some(k),
                    None if in_head => dom.attr(n, Attr::Itemprop),
                    None => None,
                }
                .and_then(|k| MetaKey::of(k.trim()));
                // Most `<meta>`s (viewport, generator, theme-color, …) say nothing kept here:
                // their values are not worth cleaning.
                let Some(key) = key else { return };
                let Some(value) = dom.attr(n, Attr::Content).and_then(clean_value) else {
                    return;
                };
                let slot = match key {
                    MetaKey::Kind => {
                        m.declares_article |= value.eq_ignore_ascii_case("article");
                        return;
                    }
                    MetaKey::Description => &mut m.description,
                    MetaKey::Title => &mut self.og_title,
                    MetaKey::Image => &mut m.image,
                    // `name=author` is a name; `article:author` is often a profile URL.
                    MetaKey::Author if !looks_like_url(&value) => &mut self.named_author,
                    MetaKey::OtherAuthor if !looks_like_url(&value) => &mut m.author,
                    MetaKey::Published => &mut m.published,
                    MetaKey::Url if m.canonical.is_none() => &mut m.canonical,
                    _ => return,
                };
                if slot.is_none() {
                    *slot = Some(value);
                }
            }
            _ => {}
        }
    }
}

/// The `<meta>` keys (`name`, `property` or `itemprop`) [`collect`] reads.
#[derive(Clone, Copy)]
enum MetaKey {
    Description,
    Title,
    Image,
    /// `name=author`, preferred to the others.
    Author,
    OtherAuthor,
    Published,
    Url,
    /// `og:type`.
    Kind,
}

impl MetaKey {
    /// The key `k` names, ignoring ASCII case (read without allocating: every `<meta>` of a
    /// page comes here).
    fn of(k: &str) -> Option<MetaKey> {
        /// Longest key (`article:published_time`).
        const MAX_LEN: usize = 22;
        let mut buf = [0u8; MAX_LEN];
        let lower = buf.get_mut(..k.len())?;
        lower.copy_from_slice(k.as_bytes());
        lower.make_ascii_lowercase();
        Some(match &*lower {
            b"description" | b"og:description" | b"twitter:description" => MetaKey::Description,
            b"og:title" | b"twitter:title" => MetaKey::Title,
            b"og:image" | b"twitter:image" | b"og:image:url" => MetaKey::Image,
            b"author" => MetaKey::Author,
            b"article:author" | b"byl" | b"dc.creator" => MetaKey::OtherAuthor,
            b"article:published_time" | b"datepublished" | b"date" | b"dc.date" | b"pubdate" => {
                MetaKey::Published
            }
            b"og:url" => MetaKey::Url,
            b"og:type" => MetaKey::Kind,
            _ => return None,
        })
    }
}

/// Concatenated text of a subtree, borrowed when it is one text node (a `<title>`).
fn text_content(dom: &Dom, id: NodeId) -> Cow<'_, str> {
    let mut pieces = dom
        .descendants(id)
        .map(|n| dom.text_of(n))
        .filter(|t| !t.is_empty());
    let Some(first) = pieces.next() else {
        return Cow::Borrowed("");
    };
    match pieces.next() {
        None => Cow::Borrowed(first),
        Some(second) => {
            let mut all = String::from(first);
            all.push_str(second);
            all.extend(pieces);
            Cow::Owned(all)
        }
    }
}

/// JSON-LD blocks larger than this are skipped (they are data dumps, not page metadata).
const MAX_JSON_LD: usize = 256 * 1024;

/// Author and publication date from schema.org JSON-LD (`Article`, `NewsArticle`,
/// `BlogPosting`, …): many CMSs (Ghost, WordPress plugins) put them only there.
fn json_ld(dom: &Dom) -> (Option<String>, Option<String>) {
    use serde_json::Value;
    for &n in &dom.json_ld {
        if !dom.in_document(n) {
            continue;
        }
        let text: String = dom.children(n).map(|c| dom.text_of(c)).collect();
        if text.len() > MAX_JSON_LD {
            continue;
        }
        let Ok(value) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        // Top-level object, array, or `@graph`; a bounded number of nodes.
        let mut stack = vec![&value];
        let mut budget = 512;
        while let Some(v) = stack.pop() {
            budget -= 1;
            if budget == 0 {
                break;
            }
            match v {
                Value::Array(items) => stack.extend(items.iter().take(64)),
                Value::Object(o) => {
                    if let Some(graph) = o.get("@graph") {
                        stack.push(graph);
                    }
                    if o.get("@type").is_some_and(is_article_type) {
                        let author = o.get("author").and_then(person_names);
                        let published = o
                            .get("datePublished")
                            .and_then(Value::as_str)
                            .and_then(clean_value);
                        return (author, published);
                    }
                }
                _ => {}
            }
        }
    }
    (None, None)
}

fn is_article_type(t: &serde_json::Value) -> bool {
    const ARTICLES: &[&str] = &[
        "Article",
        "NewsArticle",
        "BlogPosting",
        "TechArticle",
        "ScholarlyArticle",
        "Report",
        "AnalysisNewsArticle",
        "OpinionNewsArticle",
        "ReportageNewsArticle",
        "SocialMediaPosting",
    ];
    match t {
        serde_json::Value::String(s) => ARTICLES.contains(&s.as_str()),
        serde_json::Value::Array(a) => a.iter().any(is_article_type),
        _ => false,
    }
}

/// `"Name"`, `{"name": "Name"}` or a list of those (first five), never a URL.
fn person_names(v: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    let one = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o.get("name").and_then(Value::as_str).map(str::to_string),
        _ => None,
    };
    let names: Vec<String> = match v {
        Value::Array(items) => items.iter().take(5).filter_map(one).collect(),
        other => one(other).into_iter().collect(),
    };
    let names: Vec<String> = names
        .into_iter()
        .filter_map(|n| clean_value(&n))
        .filter(|n| !looks_like_url(n))
        .collect();
    (!names.is_empty()).then(|| names.join(", "))
}

fn looks_like_url(v: &str) -> bool {
    v.contains("://") || v.starts_with('/') || v.starts_with("www.")
}

/// Text of a heading up to the first block inside it (an unclosed `<h1>` may hold the page).
fn heading_text(dom: &Dom, id: NodeId) -> String {
    let mut out = String::new();
    for n in dom.descendants(id) {
        if matches!(
            dom.tag(n),
            Some(
                Tag::P
                    | Tag::Div
                    | Tag::Ul
                    | Tag::Ol
                    | Tag::Table
                    | Tag::Pre
                    | Tag::Blockquote
                    | Tag::Section
                    | Tag::Dl
                    | Tag::Br
            )
        ) {
            break;
        }
        out.push_str(dom.text_of(n));
    }
    out
}

/// Collapse whitespace, trim, cap the length; `None` when empty.
fn clean_value(v: &str) -> Option<String> {
    let mut out = String::with_capacity(v.len().min(MAX_VALUE_CHARS));
    for (i, word) in v.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(word);
        if out.len() > MAX_VALUE_CHARS * 4 {
            break;
        }
    }
    // No more bytes than the cap: no more characters either, nothing to count.
    if out.len() <= MAX_VALUE_CHARS {
        return (!out.is_empty()).then_some(out);
    }
    if let Some((cut, _)) = out.char_indices().nth(MAX_VALUE_CHARS) {
        out.truncate(cut);
        out.push('…');
    }
    (!out.is_empty()).then_some(out)
}

/// YAML front matter for `meta`, with URLs resolved. Every value is a double-quoted YAML
/// string with all quotes, backslashes and control characters escaped, so page content can
/// neither end the block nor add keys.
pub fn front_matter(meta: &PageMeta, urls: &Resolver) -> String {
    let mut out = String::new();
    write_front_matter(&mut out, meta, urls);
    out
}

/// [`front_matter`] appended to `out` (nothing when the page says nothing), so that the
/// Markdown can follow in the same buffer.
pub fn write_front_matter(out: &mut String, meta: &PageMeta, urls: &Resolver) {
    // Without the `<…>` that parentheses get in a Markdown link.
    let unbracket = |u: String| {
        let bare = u.trim_start_matches('<').trim_end_matches('>');
        if bare.len() == u.len() {
            u
        } else {
            bare.to_string()
        }
    };
    let url = meta
        .canonical
        .as_deref()
        .and_then(|c| urls.link(c))
        .map(unbracket);
    let image = meta
        .image
        .as_deref()
        .and_then(|i| urls.link(i))
        .map(unbracket);
    let fields: [(&str, Option<&str>); 7] = [
        ("title", meta.title.as_deref()),
        ("description", meta.description.as_deref()),
        (
            "url",
            url.as_deref().or_else(|| urls.base().map(|u| u.as_str())),
        ),
        ("lang", meta.lang.as_deref()),
        ("image", image.as_deref()),
        ("author", meta.author.as_deref()),
        ("published", meta.published.as_deref()),
    ];
    let start = out.len();
    for (key, value) in fields {
        let Some(v) = value else { continue };
        if out.len() == start {
            out.push_str("---\n");
        }
        out.push_str(key);
        out.push_str(": ");
        yaml_quoted(out, v);
        out.push('\n');
    }
    if out.len() > start {
        out.push_str("---\n");
    }
}

/// `v` as a double-quoted YAML string; runs that need no escape are copied whole.
fn yaml_quoted(out: &mut String, v: &str) {
    out.push('"');
    let mut start = 0;
    for (i, c) in v.char_indices() {
        // `None`: a `\uXXXX` escape.
        let escape = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\n' => Some("\\n"),
            '\t' => Some("\\t"),
            '\r' => Some("\\r"),
            // Line separators, BOM, and the BMP noncharacters YAML does not allow unescaped.
            '\u{2028}' | '\u{2029}' | '\u{85}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}' => None,
            c if c.is_control() => None,
            _ => continue,
        };
        out.push_str(v.get(start..i).unwrap_or(""));
        match escape {
            Some(e) => out.push_str(e),
            // Writing to a String cannot fail.
            None => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
        }
        start = i + c.len_utf8();
    }
    out.push_str(v.get(start..).unwrap_or(""));
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etag_is_strong_and_stable() {
        let a = etag(b"hello");
        assert_eq!(a.len(), 34);
        assert!(a.starts_with('"') && a.ends_with('"'));
        assert_eq!(a, etag(b"hello"));
        assert_ne!(a, etag(b"hello!"));
    }

    #[test]
    fn metas_after_a_stray_element_in_the_head_are_read() {
        // BBC: an element that does not belong in <head> ends it, and the tree builder puts
        // every later <meta>, <link> and <title> in <body>.
        let dom = Dom::parse(
            r#"<html><head><meta name=description content="From the head">
            <img src=/pixel.gif><title>Page title</title>
            <meta name=description content="Second description">
            <meta property=og:image content="https://x.example/lead.jpg">
            <link rel=canonical href="https://x.example/story">
            <meta property=og:type content=Article>
            <meta itemprop=datePublished content="2001-01-01">
            <template><meta name=author content="In a template"></template>
            </head><body><p>Story"#,
        );
        assert!(dom
            .find(DOCUMENT, Tag::Head)
            .is_some_and(|h| dom.find(h, Tag::Img).is_none()));
        let m = collect(&dom);
        assert_eq!(m.title.as_deref(), Some("Page title"));
        // The head's value wins over the body's.
        assert_eq!(m.description.as_deref(), Some("From the head"));
        assert_eq!(m.image.as_deref(), Some("https://x.example/lead.jpg"));
        assert_eq!(m.canonical.as_deref(), Some("https://x.example/story"));
        assert!(m.declares_article);
        let website = Dom::parse("<meta property=og:type content=website><p>Docs");
        assert!(!collect(&website).declares_article);
        // In the body, itemprop describes the item it sits in, not the page; a template's
        // contents are not in the document.
        assert_eq!(m.published, None);
        assert_eq!(m.author, None);
    }

    #[test]
    fn json_ld_gives_author_and_date_when_meta_does_not() {
        let dom = Dom::parse(
            r#"<head><script type="application/ld+json">{"@context":"https://schema.org",
            "@graph":[{"@type":"WebSite","name":"Site"},{"@type":["BlogPosting"],
            "author":[{"@type":"Person","name":"Anouk Verbeek"},"https://x/y"],
            "datePublished":"2024-05-14T08:00:00Z"}]}</script></head><body>x"#,
        );
        let m = collect(&dom);
        assert_eq!(m.author.as_deref(), Some("Anouk Verbeek"));
        assert_eq!(m.published.as_deref(), Some("2024-05-14T08:00:00Z"));
        let with_meta = Dom::parse(
            r#"<meta name=author content="Meta Name"><script type="application/ld+json">
            {"@type":"Article","author":{"name":"LD Name"}}</script>"#,
        );
        assert_eq!(collect(&with_meta).author.as_deref(), Some("Meta Name"));
        let broken =
            Dom::parse(r#"<script type="application/ld+json">{"@type":"Article",</script>"#);
        assert_eq!(collect(&broken).author, None);
    }

    #[test]
    fn json_ld_is_read_in_document_order_and_only_from_the_document() {
        let article = |name: &str| {
            format!(
                r#"<script type=" Application/LD+JSON ">{{"@type":"NewsArticle","author":"{name}"}}</script>"#
            )
        };
        // A block in a <template> is not part of the page; the first block in the page wins,
        // wherever it is (head or body).
        let html = format!(
            "<head><template>{}</template></head><body><p>x</p>{}{}",
            article("Template"),
            article("First"),
            article("Second")
        );
        assert_eq!(collect(&Dom::parse(&html)).author.as_deref(), Some("First"));
        // Another type, or none: not JSON-LD.
        let other = r#"<script type="application/json">{"@type":"Article","author":"No"}</script><script>{"@type":"Article","author":"No"}</script>"#;
        assert_eq!(collect(&Dom::parse(other)).author, None);
    }

    #[test]
    fn front_matter_values_cannot_inject() {
        let meta = PageMeta {
            title: Some("Evil\"\n---\nadmin: true # x: y \\".into()),
            ..PageMeta::default()
        };
        let fm = front_matter(&meta, &Resolver::default());
        assert_eq!(
            fm,
            "---\ntitle: \"Evil\\\"\\n---\\nadmin: true # x: y \\\\\"\n---\n"
        );
        assert_eq!(fm.lines().count(), 3);
    }

    #[test]
    fn yaml_escapes_only_what_it_must() {
        let mut out = String::new();
        yaml_quoted(
            &mut out,
            "plain é\u{2028}\u{1}\u{85}\u{feff}x\\\"\t\r\n\u{7f}\u{ffff}end",
        );
        assert_eq!(
            out,
            r#""plain é\u2028\u0001\u0085\ufeffx\\\"\t\r\n\u007f\uffffend""#
        );
    }

    #[test]
    fn meta_keys_ignore_case_and_whitespace_only_around() {
        let dom = Dom::parse(
            "<head><meta name=' DESCRIPTION ' content='d'><meta property='OG:Title' content='t'>\
             <meta name='viewport' content='width=device-width'>\
             <meta name='article:published_time-and-more' content='no'>\
             <meta name='Author' content='https://x/y'><meta name=byl content='By Line'>",
        );
        let m = collect(&dom);
        assert_eq!(m.description.as_deref(), Some("d"));
        assert_eq!(m.title.as_deref(), Some("t"));
        assert_eq!(m.published, None);
        assert_eq!(m.author.as_deref(), Some("By Line"));
    }

    #[test]
    fn text_content_joins_every_text_node() {
        let dom = Dom::parse("<div>a <b>b</b><i></i> c</div>");
        let div = dom.find(DOCUMENT, Tag::Div);
        assert_eq!(div.map(|d| text_content(&dom, d)).as_deref(), Some("a b c"));
    }

    #[test]
    fn collects_head_metadata() {
        let dom = Dom::parse(
            "<html lang=en><head><title> A  Title </title><meta name=description content='D'>\
             <link rel=canonical href='/c'><meta property=og:image content=/i.png></head><body></body></html>",
        );
        let m = collect(&dom);
        assert_eq!(m.title.as_deref(), Some("A Title"));
        assert_eq!(m.description.as_deref(), Some("D"));
        assert_eq!(m.lang.as_deref(), Some("en"));
        let urls = Resolver::new(Some("https://e.com/x"), None);
        let fm = front_matter(&m, &urls);
        assert!(fm.contains("url: \"https://e.com/c\"\n"), "{fm}");
        assert!(fm.contains("image: \"https://e.com/i.png\"\n"), "{fm}");
    }
}
