//! Link and image URLs: resolution against `<base href>` / the page URL, a scheme allowlist
//! (so `javascript:` and friends never reach the output, however spelled), and Markdown-safe
//! formatting of destinations and titles.
use std::borrow::Cow;

use url::Url;

use crate::render::looks_like_entity;

/// Schemes a link may keep. Everything else (javascript:, vbscript:, data:, file:, …) is dropped.
const LINK_SCHEMES: &[&str] = &[
    "http", "https", "mailto", "tel", "ftp", "ftps", "sms", "xmpp", "irc", "ircs",
];
/// `data:` image URLs longer than this are dropped: they are token waste for an agent.
const MAX_DATA_IMAGE: usize = 2048;

#[derive(Debug, Default)]
pub struct Resolver {
    base: Option<Url>,
}

impl Resolver {
    /// `page_url` is where the document came from; `base_href` its first `<base href>`.
    pub fn new(page_url: Option<&str>, base_href: Option<&str>) -> Resolver {
        // Only web URLs can be a base. A `<base href>` the page gets wrong (`javascript:`,
        // `data:`, `file:`, `mailto:`) is ignored instead of discarding the page URL.
        let web = |u: &Url| matches!(u.scheme(), "http" | "https");
        let page = page_url.and_then(|u| Url::parse(u.trim()).ok()).filter(web);
        let href = base_href.map(clean).filter(|h| !h.is_empty());
        let from_href = href.and_then(|href| match &page {
            Some(page) => page.join(&href).ok(),
            None => Url::parse(&href).ok(),
        });
        Resolver {
            base: from_href.filter(web).or(page),
        }
    }

    /// The page URL (after `<base>`), if known.
    pub fn base(&self) -> Option<&Url> {
        self.base.as_ref()
    }

    /// A safe, absolute-where-possible link destination, or `None` to drop the link.
    pub fn link(&self, raw: &str) -> Option<String> {
        self.resolve(raw, false)
    }

    /// Like [`link`](Self::link) but also allows small `data:image/*` URLs (not SVG).
    pub fn image(&self, raw: &str) -> Option<String> {
        self.resolve(raw, true)
    }

    fn resolve(&self, raw: &str, image: bool) -> Option<String> {
        let cleaned = clean(raw);
        if cleaned.is_empty() {
            return None;
        }
        if let Some(scheme) = scheme_of(&cleaned) {
            if scheme.eq_ignore_ascii_case("data") {
                let lower = cleaned.get(..20).unwrap_or(&cleaned).to_ascii_lowercase();
                let ok = image
                    && lower.starts_with("data:image/")
                    && !lower.starts_with("data:image/svg")
                    && cleaned.len() <= MAX_DATA_IMAGE;
                return ok.then(|| encode_destination(&cleaned));
            }
            if !is_link_scheme(scheme) {
                return None;
            }
            // Most absolute links are already what the URL parser would print back: skip the
            // parse (a few µs each in wasm). If the parse failed, the result would be the same.
            if already_serialized(&cleaned) {
                return Some(encode_destination(&cleaned));
            }
            return Some(match Url::parse(&cleaned) {
                Ok(u) => encode_destination(u.as_str()),
                Err(_) => encode_destination(&cleaned),
            });
        }
        let out = match &self.base {
            // The base is http(s), so a joined URL keeps an allowed scheme.
            Some(base) => match join_plain(base, &cleaned) {
                Some(joined) => encode_destination(&joined),
                None => match base.join(&cleaned) {
                    Ok(u) if LINK_SCHEMES.contains(&u.scheme()) => encode_destination(u.as_str()),
                    Ok(_) => return None,
                    Err(_) => encode_destination(&cleaned),
                },
            },
            None => encode_destination(&cleaned),
        };
        // Whatever path it took, the destination a Markdown reader sees must not carry a
        // scheme outside the allowlist (a relative URL without a base, for one, is kept as
        // written and must not read as `foo:` either).
        let visible = out.strip_prefix('<').unwrap_or(&out);
        match scheme_of(visible) {
            Some(scheme) if !is_link_scheme(scheme) => None,
            _ => Some(out),
        }
    }
}

/// Whether a link runs script when followed (`javascript:`, however cased or spaced): it
/// never reaches the output, and a page's control is often written so.
pub fn is_script(raw: &str) -> bool {
    scheme_of(&clean(raw)).is_some_and(|s| s.eq_ignore_ascii_case("javascript"))
}

/// Whether a link may keep `scheme` (any case).
fn is_link_scheme(scheme: &str) -> bool {
    LINK_SCHEMES.iter().any(|s| s.eq_ignore_ascii_case(scheme))
}

/// Strip what browsers strip from URLs: surrounding C0/space, and tabs/newlines anywhere.
fn clean(raw: &str) -> Cow<'_, str> {
    let trimmed = raw.trim_matches(|c: char| c <= ' ');
    // memchr's vectorised scan: nearly every URL has none of these.
    if memchr::memchr3(b'\t', b'\n', b'\r', trimmed.as_bytes()).is_none() {
        return Cow::Borrowed(trimmed);
    }
    Cow::Owned(
        trimmed
            .chars()
            .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
            .collect(),
    )
}

/// Whether `url` is an `http(s)` URL that the WHATWG parser, if it accepts it, serializes
/// back unchanged: lower-case scheme, a host of lower-case ASCII labels whose last label starts
/// with a letter (no IPv4 forms, no `xn--`, no port or user info), and after it only
/// characters no component re-encodes, with no dot segments and at most one `#`.
fn already_serialized(url: &str) -> bool {
    let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
    else {
        return false;
    };
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (host, tail) = rest.split_at(host_end);
    let host_ok = !host.is_empty()
        && host.split('.').all(|label| {
            !label.is_empty()
                && !label.starts_with("xn--")
                && label
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        })
        && host
            .rsplit('.')
            .next()
            .is_some_and(|last| last.starts_with(|c: char| c.is_ascii_lowercase()));
    // An empty path serializes as `/`.
    host_ok && tail.starts_with('/') && plain_tail(tail.as_bytes())
}

/// Whether the parser keeps `b`, a path (possibly relative) with optional query and
/// fragment, or a query or fragment alone, exactly as written: one pass over characters no
/// component encodes, no dot segment in the path (nor a segment starting with a dot, to
/// stay simple), no `%2e` (a dot to the path parser), at most one `#`.
fn plain_tail(b: &[u8]) -> bool {
    let mut in_path = true;
    let mut fragment = false;
    // As if after a `/`: a relative path's first segment may be a dot segment too.
    let mut prev = b'/';
    for (i, &c) in b.iter().enumerate() {
        // Most bytes are ones every component keeps and no rule below looks at: one lookup.
        if PLAIN_BYTE[usize::from(c)] {
            prev = c;
            continue;
        }
        let ok = match c {
            b'?' => {
                in_path = false;
                true
            }
            b'#' => {
                in_path = false;
                !std::mem::replace(&mut fragment, true)
            }
            b'.' => !(in_path && prev == b'/'),
            b'%' => !matches!(b.get(i + 1..i + 3), Some([b'2', b'e' | b'E'])),
            b'-' | b'_' | b'~' | b'!' | b'$' | b'&' | b'(' | b')' | b'*' | b'+' | b',' | b';'
            | b'=' | b':' | b'@' | b'/' => true,
            _ => c.is_ascii_alphanumeric(),
        };
        if !ok {
            return false;
        }
        prev = c;
    }
    true
}

/// The bytes [`plain_tail`] accepts anywhere without a further rule: ASCII letters and digits
/// and the punctuation no URL component encodes (not `?`, `#`, `.` or `%`).
static PLAIN_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = matches!(
            b as u8,
            b'a'..=b'z'
                | b'A'..=b'Z'
                | b'0'..=b'9'
                | b'-'
                | b'_'
                | b'~'
                | b'!'
                | b'$'
                | b'&'
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'/'
        );
        b += 1;
    }
    t
};

/// `base.join(r)` without the URL parser for the relative references pages mostly hold: a
/// fragment, a query, an absolute path or a relative path, written with only the characters
/// [`plain_tail`] allows (the parser costs a few µs a link in wasm). `None`: anything else,
/// which the parser resolves. Exact: the tests compare it with the parser.
fn join_plain(base: &Url, r: &str) -> Option<String> {
    let s = base.as_str();
    let after_query = s
        .len()
        .checked_sub(base.fragment().map_or(0, |f| f.len() + 1))?;
    let after_path = after_query.checked_sub(base.query().map_or(0, |q| q.len() + 1))?;
    let path = base.path();
    let before_path = after_path.checked_sub(path.len())?;
    let b = r.as_bytes();
    let keep = match b.first()? {
        b'#' => after_query,
        b'?' => after_path,
        // `//host/...` names another host: the parser's case.
        b'/' if b.get(1) == Some(&b'/') => return None,
        b'/' => before_path,
        // `x:…` is absolute (callers have ruled that out; checked to stay exact alone).
        _ if scheme_of(r).is_some() => return None,
        // The base path's directory, then `r`.
        _ => before_path + path.rfind('/')? + 1,
    };
    if !plain_tail(b) {
        return None;
    }
    let keep = s.get(..keep)?;
    let mut out = String::with_capacity(keep.len() + r.len());
    out.push_str(keep);
    out.push_str(r);
    Some(out)
}

/// The scheme of an absolute URL (`letters/digits/+-.` before the first `:`).
fn scheme_of(url: &str) -> Option<&str> {
    let b = url.as_bytes();
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    let colon = b
        .iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')))?;
    (b.get(colon) == Some(&b':'))
        .then(|| url.get(..colon))
        .flatten()
}

/// A destination CommonMark reads back unchanged: no spaces or angle brackets, and wrapped
/// in `<…>` when parentheses could end it early.
fn encode_destination(url: &str) -> String {
    let b = url.as_bytes();
    let mut out = String::with_capacity(url.len() + 2);
    // Byte-level: everything to encode is ASCII or a C1 control (`C2 80`..`C2 9F` in UTF-8),
    // so runs in between are copied whole and every cut is at a character boundary.
    let mut start = 0;
    let mut i = 0;
    let mut parens = false;
    while let Some(&byte) = b.get(i) {
        if !DESTINATION_SPECIAL[usize::from(byte)] {
            i += 1;
            continue;
        }
        let (len, code): (usize, Option<&str>) = match byte {
            b' ' => (1, Some("%20")),
            b'<' => (1, Some("%3C")),
            b'>' => (1, Some("%3E")),
            // A Markdown reader would take these as an escape or a character reference.
            b'\\' => (1, Some("%5C")),
            b'&' if looks_like_entity(b.get(i + 1..).unwrap_or(&[])) => (1, Some("%26")),
            0x00..=0x1f | 0x7f => (1, None),
            0xc2 if matches!(b.get(i + 1), Some(0x80..=0x9f)) => (2, None),
            _ => {
                // Encoding never adds or removes a parenthesis, so the input tells.
                parens |= matches!(byte, b'(' | b')');
                i += 1;
                continue;
            }
        };
        out.push_str(url.get(start..i).unwrap_or(""));
        match code {
            Some(code) => out.push_str(code),
            None => {
                for c in b.get(i..i + len).unwrap_or(&[]) {
                    out.push('%');
                    out.push(char::from(HEX[usize::from(c >> 4)]));
                    out.push(char::from(HEX[usize::from(c & 0xf)]));
                }
            }
        }
        i += len;
        start = i;
    }
    out.push_str(url.get(start..).unwrap_or(""));
    if parens {
        out.insert(0, '<');
        out.push('>');
    }
    out
}

/// The bytes [`encode_destination`] looks at: what it may encode, and parentheses.
static DESTINATION_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = matches!(
            b as u8,
            0x00..=0x20 | 0x7f | 0xc2 | b'<' | b'>' | b'\\' | b'&' | b'(' | b')'
        );
        b += 1;
    }
    t
};

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// A link title as ` "…"`, or nothing.
pub fn title_suffix(title: Option<&str>) -> String {
    let Some(t) = title else { return String::new() };
    let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.is_empty() {
        return String::new();
    }
    let mut out = String::with_capacity(t.len() + 3);
    out.push_str(" \"");
    // Control characters are invisible and would reach the output raw (white space is
    // already folded above).
    for c in t.chars().filter(|c| !c.is_control()) {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The fast path may only take URLs the parser rejects or prints back unchanged.
    fn fast_path_is_exact(s: &str) {
        if already_serialized(s) {
            if let Ok(u) = Url::parse(s) {
                assert_eq!(u.as_str(), s);
            }
        }
    }

    #[test]
    fn already_serialized_urls() {
        for yes in [
            "https://example.com/",
            "http://a-b.example.co.uk/x/y.html?q=1&r=(2)#frag:x",
            "https://docs.rs/url/2.5.8/url/struct.Url.html#method.join",
            "https://example.com/a%20b/c~d_e;f=g@h,i+j*k!l$m",
        ] {
            assert!(already_serialized(yes), "{yes}");
            fast_path_is_exact(yes);
        }
        for no in [
            "https://example.com",
            "https://Example.com/",
            "HTTPS://example.com/",
            "https://example.com:443/",
            "http://example.com:8080/",
            "https://user@example.com/",
            "https://1.2.3.4/",
            "https://0x7f.1/",
            "https://example.com./",
            "https://xn--nxasmq6b.com/",
            "https://example.com/a/../b",
            "https://example.com/a/./b",
            "https://example.com/a/%2e%2E/b",
            "https://example.com/a b",
            "https://example.com/a\\b",
            "https://example.com/?q='x'",
            "https://example.com/#a#b",
            "https://example.com/é",
            "https://example.com/{x}",
            "ftp://example.com/",
        ] {
            assert!(!already_serialized(no), "{no}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn already_serialized_matches_the_parser(
            scheme in "https?://",
            host in "[a-z0-9.-]{1,12}",
            tail in "[/?#.%2eEaZ09:@!$&'()*+,;=_~-]{0,16}",
        ) {
            fast_path_is_exact(&format!("{scheme}{host}{tail}"));
            fast_path_is_exact(&format!("{scheme}{host}/{tail}"));
        }
    }

    /// The parser-free join may only give what the parser gives.
    fn join_is_exact(base: &str, r: &str) -> bool {
        let Ok(base) = Url::parse(base) else {
            return false;
        };
        let Some(joined) = join_plain(&base, r) else {
            return false;
        };
        assert_eq!(
            Some(joined.as_str()),
            base.join(r).as_ref().ok().map(Url::as_str),
            "{base} + {r}"
        );
        true
    }

    #[test]
    fn plain_references_join_without_the_parser() {
        let bases = [
            "https://example.com/docs/page.html?x=1#top",
            "https://example.com/docs/",
            "http://user:pw@example.com:8080/a/b/c?q",
            "https://example.com/",
            "https://EXAMPLE.com",
        ];
        for base in bases {
            for yes in [
                "#frag",
                "#",
                "#a?b/./c",
                "?q=1&r=(2)",
                "?",
                "/",
                "/a/b.html?x#y",
                "other.html",
                "sub/dir/",
                "a.b/c~d_e;f=g@h,i+j*k!l$m%20",
                "1a:b",
            ] {
                assert!(join_is_exact(base, yes), "{base} + {yes}");
            }
            for no in [
                "//other.example/x",
                "./x",
                "../x",
                ".",
                "..",
                "a/../b",
                "a/./b",
                ".hidden",
                "a/%2e%2E/b",
                "/a\\b",
                "a b",
                "é",
                "#a#b",
                "?q='x'",
                "{x}",
            ] {
                assert!(!join_is_exact(base, no), "{base} + {no}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn plain_join_matches_the_parser(
            base in "https?://[a-z]{1,3}(:[0-9]{1,4})?(/[a-z.]{0,3}){0,3}(\\?[a-z=]{0,3})?(#[a-z]{0,2})?",
            r in "[/?#.%2eEaZ09:@!$&'()*+,;=_~\\ -]{1,12}",
        ) {
            join_is_exact(&base, &r);
        }
    }

    fn r() -> Resolver {
        Resolver::new(Some("https://example.com/docs/page.html?x=1"), None)
    }

    #[test]
    fn resolves_relative_links() {
        assert_eq!(
            r().link("other.html").as_deref(),
            Some("https://example.com/docs/other.html")
        );
        assert_eq!(
            r().link("/a b").as_deref(),
            Some("https://example.com/a%20b")
        );
        assert_eq!(
            r().link("#frag").as_deref(),
            Some("https://example.com/docs/page.html?x=1#frag")
        );
        let with_base = Resolver::new(Some("https://example.com/x/"), Some("/base/"));
        assert_eq!(
            with_base.link("y").as_deref(),
            Some("https://example.com/base/y")
        );
    }

    #[test]
    fn drops_dangerous_schemes_however_spelled() {
        for bad in [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            " javascript:alert(1)",
            "java\tscript:alert(1)",
            "java\nscript:alert(1)",
            "\u{1}javascript:alert(1)",
            "vbscript:msgbox",
            "data:text/html,<script>",
            "file:///etc/passwd",
            "java\u{1}script:alert(1)",
            "\u{7f}javascript:alert(1)",
            "java\u{85}script:alert(1)",
            "javascript&#58;alert(1)",
            "javascript&colon;alert(1)",
            "javascript\\:alert(1)",
        ] {
            // Dropped, or (where a browser reads it as a relative path) kept as one.
            if let Some(out) = r().link(bad) {
                let out = out.trim_start_matches('<');
                assert!(
                    out.starts_with("https://example.com/docs/"),
                    "{bad:?} → {out}"
                );
            }
            if let Some(out) = Resolver::default().link(bad) {
                let visible = out.trim_start_matches('<');
                assert_eq!(scheme_of(visible), None, "{bad:?} → {out}");
            }
        }
        assert_eq!(r().image("data:image/svg+xml,<svg onload=x>"), None);
        assert!(r().image("data:image/png;base64,AAAA").is_some());
        assert_eq!(r().link("data:image/png;base64,AAAA"), None);
    }

    #[test]
    fn bad_base_href_keeps_the_page_url() {
        for base in ["mailto:x", "data:,", "javascript:alert(1)", "file:///etc/"] {
            let r = Resolver::new(Some("https://example.com/a/"), Some(base));
            assert_eq!(
                r.link("p").as_deref(),
                Some("https://example.com/a/p"),
                "{base}"
            );
        }
        let no_page = Resolver::new(None, Some("file:///etc/"));
        assert_eq!(no_page.link("passwd").as_deref(), Some("passwd"));
    }

    #[test]
    fn destinations_encode_what_markdown_would_misread() {
        for (raw, want) in [
            ("a b<c>d", "a%20b%3Cc%3Ed"),
            ("x\\y", "x%5Cy"),
            ("?a=1&amp;b", "?a=1%26amp;b"),
            ("?a=1&b=2", "?a=1&b=2"),
            ("t\u{1}u\u{7f}", "t%01u%7F"),
            ("c1\u{85}é€", "c1%C2%85é€"),
            ("(x)", "<(x)>"),
            ("", ""),
        ] {
            assert_eq!(encode_destination(raw), want, "{raw:?}");
        }
    }

    #[test]
    fn clean_strips_like_browsers() {
        assert!(matches!(
            clean("  /a/b?c#d \x0c"),
            Cow::Borrowed("/a/b?c#d")
        ));
        assert_eq!(clean("\n /a\tb\r\nc/é\t\u{a0}"), "/abc/é\u{a0}");
        assert_eq!(clean("\t\r\n"), "");
        assert_eq!(clean("/a\u{b}b"), "/a\u{b}b");
    }

    #[test]
    fn parentheses_are_wrapped() {
        assert_eq!(
            r().link("https://en.wikipedia.org/wiki/Rust_(language)")
                .as_deref(),
            Some("<https://en.wikipedia.org/wiki/Rust_(language)>")
        );
    }

    #[test]
    fn titles_are_quoted() {
        assert_eq!(title_suffix(Some("a \"b\"\n c")), " \"a \\\"b\\\" c\"");
        assert_eq!(title_suffix(Some("  ")), "");
    }
}
