//! `Accept` negotiation: does this request ask for Markdown?
//!
//! Markdown is selected when `text/markdown` is listed with `q > 0` and its q is at least
//! the q `text/html` gets (RFC 9110 §12.5.1: the most specific matching range decides, so
//! `text/html` may get its q from `text/*` or `*/*`). Hence `text/markdown, text/html`
//! converts, as Cloudflare's "Markdown for Agents" does, while a browser's
//! `text/html, */*;q=0.8` does not. With `accept_wildcard`, `text/*` or `*/*` stand in for
//! a missing `text/markdown` entry, so `*/*` alone converts.
//!
//! Parsing is bounded (at most [`MAX_ACCEPT_BYTES`] bytes over all `Accept` lines and
//! [`MAX_ACCEPT_ENTRIES`] media ranges) and strict: anything malformed means "no
//! conversion", because a misread header must never turn a browser's HTML into Markdown.

use crate::headers::{split_unquoted, values, Header};

/// Upper bound on the combined length of all `Accept` lines.
pub const MAX_ACCEPT_BYTES: usize = 4096;
/// Upper bound on the number of media ranges.
pub const MAX_ACCEPT_ENTRIES: usize = 64;

/// Outcome of negotiation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Negotiation {
    /// The client prefers (or equally accepts) Markdown.
    Markdown,
    /// No `Accept`, or it does not select Markdown.
    Other,
    /// `Accept` is malformed or over the bounds.
    Malformed,
}

/// A media range with its weight in thousandths (0..=1000).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Range<'a> {
    ty: &'a [u8],
    sub: &'a [u8],
    q: u16,
}

impl Range<'_> {
    /// Specificity when this range matches `ty/sub`: 3 exact, 2 `type/*`, 1 `*/*`.
    fn specificity(&self, ty: &[u8], sub: &[u8]) -> Option<u8> {
        if self.ty == b"*" {
            Some(1)
        } else if !self.ty.eq_ignore_ascii_case(ty) {
            None
        } else if self.sub == b"*" {
            Some(2)
        } else {
            self.sub.eq_ignore_ascii_case(sub).then_some(3)
        }
    }
}

/// Negotiate over all `Accept` lines of a request.
pub fn negotiate(headers: &[Header], accept_wildcard: bool) -> Negotiation {
    let lines: Vec<&[u8]> = values(headers, "accept").collect();
    if lines.is_empty() {
        return Negotiation::Other;
    }
    let total: usize = lines.iter().map(|l| l.len()).sum();
    if total > MAX_ACCEPT_BYTES {
        return Negotiation::Malformed;
    }
    let mut ranges = Vec::new();
    for line in lines {
        let Some(members) = split_unquoted(line, b',') else {
            return Negotiation::Malformed;
        };
        for member in members.into_iter().filter(|m| !m.is_empty()) {
            if ranges.len() == MAX_ACCEPT_ENTRIES {
                return Negotiation::Malformed;
            }
            match parse_range(member) {
                Some(r) => ranges.push(r),
                None => return Negotiation::Malformed,
            }
        }
    }
    decide(&ranges, accept_wildcard)
}

fn decide(ranges: &[Range<'_>], accept_wildcard: bool) -> Negotiation {
    let markdown = match best(ranges, b"text", b"markdown") {
        Some((3, q)) => q,
        Some((_, q)) if accept_wildcard => q,
        _ => return Negotiation::Other,
    };
    let html = best(ranges, b"text", b"html").map_or(0, |(_, q)| q);
    if markdown > 0 && markdown >= html {
        Negotiation::Markdown
    } else {
        Negotiation::Other
    }
}

/// `(specificity, q)` of the most specific range matching `ty/sub`; among equally specific
/// ranges the highest q wins, so a repeated entry cannot lower what the client allowed.
fn best(ranges: &[Range<'_>], ty: &[u8], sub: &[u8]) -> Option<(u8, u16)> {
    ranges
        .iter()
        .filter_map(|r| r.specificity(ty, sub).map(|s| (s, r.q)))
        .max()
}

/// `type/subtype *( OWS ";" OWS parameter )` with `q` read from the parameters.
fn parse_range(member: &[u8]) -> Option<Range<'_>> {
    let mut parts = split_unquoted(member, b';')?.into_iter();
    let media = parts.next()?;
    let slash = media.iter().position(|&b| b == b'/')?;
    let ty = media.get(..slash)?;
    let sub = media.get(slash + 1..)?;
    if !is_token(ty) || !is_token(sub) || (ty == b"*" && sub != b"*") {
        return None;
    }
    let mut q = None;
    // RFC 9110 allows empty parameters (`;;`).
    for param in parts.filter(|p| !p.is_empty()) {
        let eq = param.iter().position(|&b| b == b'=')?;
        let name = param.get(..eq)?;
        let value = param.get(eq + 1..)?;
        if !is_token(name) || !(is_token(value) || is_quoted(value)) {
            return None;
        }
        if name.eq_ignore_ascii_case(b"q") {
            // A repeated weight is ambiguous; refuse rather than guess.
            if q.is_some() {
                return None;
            }
            q = Some(parse_qvalue(value)?);
        }
    }
    Some(Range {
        ty,
        sub,
        q: q.unwrap_or(1000),
    })
}

/// RFC 9110 `qvalue`: `0[.ddd]` or `1[.000]`, in thousandths. Public for the fuzz target.
pub fn parse_qvalue(s: &[u8]) -> Option<u16> {
    let (int, frac) = match s.iter().position(|&b| b == b'.') {
        Some(dot) => (s.get(..dot)?, s.get(dot + 1..)?),
        None => (s, &b""[..]),
    };
    if frac.len() > 3 || !frac.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut thousandths: u16 = 0;
    for i in 0..3 {
        let digit = frac.get(i).map_or(0, |d| u16::from(d - b'0'));
        thousandths = thousandths * 10 + digit;
    }
    match int {
        b"0" => Some(thousandths),
        b"1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

fn is_token(s: &[u8]) -> bool {
    !s.is_empty() && s.iter().all(|&b| crate::config::is_tchar(b))
}

fn is_quoted(s: &[u8]) -> bool {
    s.len() >= 2 && s.first() == Some(&b'"') && s.last() == Some(&b'"')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(accept: &str) -> Negotiation {
        negotiate(&[("accept".into(), accept.as_bytes().to_vec())], false)
    }

    fn nw(accept: &str) -> Negotiation {
        negotiate(&[("accept".into(), accept.as_bytes().to_vec())], true)
    }

    use Negotiation::*;

    #[test]
    fn explicit_markdown() {
        assert_eq!(n("text/markdown"), Markdown);
        assert_eq!(n("TEXT/Markdown"), Markdown);
        assert_eq!(n("text/markdown;charset=utf-8"), Markdown);
        assert_eq!(n("text/markdown; variant=GFM; q=0.5"), Markdown);
        assert_eq!(n("text/markdown;;q=1;"), Markdown);
    }

    #[test]
    fn markdown_must_not_lose_to_html() {
        assert_eq!(n("text/markdown, text/html"), Markdown);
        assert_eq!(n("text/html, text/markdown"), Markdown);
        assert_eq!(n("text/markdown;q=0.9, text/html"), Other);
        assert_eq!(n("text/markdown, text/html;q=0.9"), Markdown);
        assert_eq!(n("text/markdown;q=0.5, text/html;q=0.5"), Markdown);
        // text/html gets q=1 from */* when not listed itself.
        assert_eq!(n("text/markdown;q=0.5, */*"), Other);
        assert_eq!(n("text/markdown;q=0.5, text/*;q=0.4"), Markdown);
        // text/html's own lower q overrides the wildcard's.
        assert_eq!(n("text/markdown;q=0.5, text/html;q=0.1, */*"), Markdown);
    }

    #[test]
    fn q_zero_never_converts() {
        assert_eq!(n("text/markdown;q=0"), Other);
        assert_eq!(n("text/markdown;q=0.000, text/html;q=0"), Other);
        assert_eq!(nw("text/markdown;q=0, */*"), Other);
    }

    #[test]
    fn wildcards_need_the_option() {
        for accept in ["*/*", "text/*", "text/*, */*;q=0.1"] {
            assert_eq!(n(accept), Other, "{accept}");
            assert_eq!(nw(accept), Markdown, "{accept}");
        }
        // A browser still gets HTML with the option on.
        let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
        assert_eq!(n(browser), Other);
        assert_eq!(nw(browser), Other);
        assert_eq!(nw("*/*;q=0"), Other);
    }

    #[test]
    fn absent_or_unrelated() {
        assert_eq!(negotiate(&[], false), Other);
        assert_eq!(n("application/json"), Other);
        assert_eq!(n("text/markdownx"), Other);
        assert_eq!(n(""), Other);
        assert_eq!(n(" , ,"), Other);
    }

    #[test]
    fn multiple_accept_lines_are_one_list() {
        let headers = vec![
            ("accept".to_owned(), b"text/html;q=0.5".to_vec()),
            ("accept".to_owned(), b"text/markdown".to_vec()),
        ];
        assert_eq!(negotiate(&headers, false), Markdown);
    }

    #[test]
    fn qvalue_grammar() {
        assert_eq!(parse_qvalue(b"1"), Some(1000));
        assert_eq!(parse_qvalue(b"1."), Some(1000));
        assert_eq!(parse_qvalue(b"1.000"), Some(1000));
        assert_eq!(parse_qvalue(b"0.5"), Some(500));
        assert_eq!(parse_qvalue(b"0.05"), Some(50));
        assert_eq!(parse_qvalue(b"0.123"), Some(123));
        assert_eq!(parse_qvalue(b"0"), Some(0));
        for bad in [
            &b"1.001"[..],
            b"2",
            b"0.1234",
            b".5",
            b"-0",
            b"0,5",
            b"",
            b"1e0",
            b"00.5",
        ] {
            assert_eq!(
                parse_qvalue(bad),
                None,
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn malformed_means_no_conversion() {
        for accept in [
            "text/markdown;q=2",
            "text/markdown;q=abc",
            "text/markdown;q",
            "text/markdown;q=0.5;q=1",
            "text/markdown, text",
            "text/markdown, */html",
            "text/markdown, text/",
            "text/markdown; a=\"open",
            "text/markdown; =x",
            "text /markdown",
        ] {
            assert_eq!(n(accept), Malformed, "{accept}");
        }
    }

    #[test]
    fn quoted_parameters_are_allowed() {
        assert_eq!(
            n(r#"text/markdown; profile="a, b; c", text/html;q=0.1"#),
            Markdown
        );
    }

    #[test]
    fn bounds() {
        let at_limit = vec!["a/b"; MAX_ACCEPT_ENTRIES - 1].join(",") + ",text/markdown";
        assert_eq!(n(&at_limit), Markdown);
        let over = vec!["a/b"; MAX_ACCEPT_ENTRIES].join(",") + ",text/markdown";
        assert_eq!(n(&over), Malformed);
        let long = format!("text/markdown;x={}", "y".repeat(MAX_ACCEPT_BYTES));
        assert_eq!(n(&long), Malformed);
    }
}
