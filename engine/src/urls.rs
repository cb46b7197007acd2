//! Link and image URLs: resolution against `<base href>` / the page URL, a scheme allowlist
//! (so `javascript:` and friends never reach the output, however spelled), and Markdown-safe
//! formatting of destinations and titles.
use url::Url;

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
        let page = page_url.and_then(|u| Url::parse(u.trim()).ok());
        let base = match (base_href.map(clean), &page) {
            (Some(href), Some(page)) if !href.is_empty() => {
                page.join(&href).ok().or(Some(page.clone()))
            }
            (Some(href), None) if !href.is_empty() => Url::parse(&href).ok(),
            _ => page,
        }
        .filter(|u| matches!(u.scheme(), "http" | "https" | "ftp" | "file"));
        Resolver { base }
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
            let scheme = scheme.to_ascii_lowercase();
            if scheme == "data" {
                let lower = cleaned.get(..20).unwrap_or(&cleaned).to_ascii_lowercase();
                let ok = image
                    && lower.starts_with("data:image/")
                    && !lower.starts_with("data:image/svg")
                    && cleaned.len() <= MAX_DATA_IMAGE;
                return ok.then(|| encode_destination(&cleaned));
            }
            if !LINK_SCHEMES.contains(&scheme.as_str()) {
                return None;
            }
            return Some(match Url::parse(&cleaned) {
                Ok(u) => encode_destination(u.as_str()),
                Err(_) => encode_destination(&cleaned),
            });
        }
        match &self.base {
            Some(base) => match base.join(&cleaned) {
                Ok(u) if LINK_SCHEMES.contains(&u.scheme()) || u.scheme() == "file" => {
                    Some(encode_destination(u.as_str()))
                }
                Ok(_) => None,
                Err(_) => Some(encode_destination(&cleaned)),
            },
            None => Some(encode_destination(&cleaned)),
        }
    }
}

/// Strip what browsers strip from URLs: surrounding C0/space, and tabs/newlines anywhere.
fn clean(raw: &str) -> String {
    raw.trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect()
}

/// The scheme of an absolute URL (`letters/digits/+-.` before the first `:`).
fn scheme_of(url: &str) -> Option<&str> {
    let colon = url.find(':')?;
    let scheme = &url[..colon];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(scheme)
}

/// A destination CommonMark reads back unchanged: no spaces or angle brackets, and wrapped
/// in `<…>` when parentheses could end it early.
fn encode_destination(url: &str) -> String {
    let mut out = String::with_capacity(url.len() + 2);
    for c in url.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    if out.contains(['(', ')', '\\']) {
        out.insert(0, '<');
        out.push('>');
    }
    out
}

/// A link title as ` "…"`, or nothing.
pub fn title_suffix(title: Option<&str>) -> String {
    let Some(t) = title else { return String::new() };
    let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.is_empty() {
        return String::new();
    }
    let mut out = String::with_capacity(t.len() + 3);
    out.push_str(" \"");
    for c in t.chars() {
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
        ] {
            assert_eq!(r().link(bad), None, "{bad:?}");
            assert_eq!(Resolver::default().link(bad), None, "{bad:?}");
        }
        assert_eq!(r().image("data:image/svg+xml,<svg onload=x>"), None);
        assert!(r().image("data:image/png;base64,AAAA").is_some());
        assert_eq!(r().link("data:image/png;base64,AAAA"), None);
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
