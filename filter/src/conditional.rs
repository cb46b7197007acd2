//! `If-None-Match` parsing and matching against the Markdown ETag (RFC 9110 §13.1.2).
//!
//! `If-None-Match` uses the weak comparison: `W/"x"` matches `"x"`. `*` matches any current
//! representation, and a converted response always has one. A field that does not parse (or
//! exceeds [`MAX_INM_BYTES`] / [`MAX_INM_TAGS`]) is treated as absent: the client simply gets
//! a full `200`, which is always safe.
//!
//! Which request headers are withheld from the upstream per mode lives here too, so the
//! request-side and response-side halves of conditional handling are read together.

use crate::config::Conditional;
use crate::headers::{split_unquoted, values, Header};

/// Upper bound on the combined length of all `If-None-Match` lines.
pub const MAX_INM_BYTES: usize = 8192;
/// Upper bound on the number of entity tags in `If-None-Match`.
pub const MAX_INM_TAGS: usize = 64;

/// A parsed `If-None-Match` field.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum IfNoneMatch {
    /// Absent, or unusable (treated the same way).
    #[default]
    Absent,
    /// `*`.
    Any,
    /// Opaque tags (the quoted string without quotes; weakness is irrelevant for
    /// `If-None-Match`, which always uses the weak comparison).
    Tags(Vec<Vec<u8>>),
}

impl IfNoneMatch {
    /// Parse all `If-None-Match` lines of a request.
    pub fn parse(headers: &[Header]) -> IfNoneMatch {
        let lines: Vec<&[u8]> = values(headers, "if-none-match").collect();
        if lines.is_empty() || lines.iter().map(|l| l.len()).sum::<usize>() > MAX_INM_BYTES {
            return IfNoneMatch::Absent;
        }
        let mut members = Vec::new();
        for line in lines {
            // Entity tags cannot contain `"` so a plain split is exact; split_unquoted also
            // rejects an unterminated tag.
            let Some(parts) = split_unquoted(line, b',') else {
                return IfNoneMatch::Absent;
            };
            members.extend(parts.into_iter().filter(|m| !m.is_empty()));
        }
        if members.as_slice() == [&b"*"[..]] {
            return IfNoneMatch::Any;
        }
        if members.is_empty() || members.len() > MAX_INM_TAGS {
            return IfNoneMatch::Absent;
        }
        let mut tags = Vec::with_capacity(members.len());
        for m in members {
            match opaque_tag(m) {
                Some(t) => tags.push(t.to_vec()),
                None => return IfNoneMatch::Absent,
            }
        }
        IfNoneMatch::Tags(tags)
    }

    /// Whether a response whose ETag is `etag` (e.g. `"abc"` or `W/"abc"`) is "not modified"
    /// for this condition. An unparseable `etag` never matches a tag list.
    pub fn matches(&self, etag: &str) -> bool {
        match self {
            IfNoneMatch::Absent => false,
            IfNoneMatch::Any => true,
            IfNoneMatch::Tags(tags) => match opaque_tag(etag.as_bytes()) {
                Some(ours) => tags.iter().any(|t| t.as_slice() == ours),
                None => false,
            },
        }
    }
}

/// The opaque part (between the quotes) of `[W/]"etagc*"`.
fn opaque_tag(tag: &[u8]) -> Option<&[u8]> {
    let quoted = tag.strip_prefix(b"W/").unwrap_or(tag);
    let inner = quoted.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    // etagc = %x21 / %x23-7E / obs-text
    inner
        .iter()
        .all(|&b| b == 0x21 || (0x23..=0x7e).contains(&b) || b >= 0x80)
        .then_some(inner)
}

/// Request headers to withhold from the upstream on a Markdown request. In `full` mode the
/// upstream must answer `200` with a body so the Markdown ETag can be computed;
/// `If-Modified-Since` goes too (the upstream would answer `304` for the HTML's date, and the
/// Markdown can change without the HTML changing when the engine changes).
pub fn withheld_upstream(mode: Conditional) -> &'static [&'static str] {
    match mode {
        Conditional::Full => &["if-none-match", "if-modified-since"],
        Conditional::ImsOnly | Conditional::Off => &[],
    }
}

/// Whether the filter answers `304` itself in this mode.
pub fn answers_not_modified(mode: Conditional) -> bool {
    mode == Conditional::Full
}

/// Whether converted responses carry the Markdown ETag in this mode.
pub fn emits_etag(mode: Conditional) -> bool {
    mode != Conditional::ImsOnly
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inm(v: &str) -> IfNoneMatch {
        IfNoneMatch::parse(&[("if-none-match".into(), v.as_bytes().to_vec())])
    }

    const OURS: &str = "\"0123456789abcdef0123456789abcdef\"";

    #[test]
    fn strong_and_weak_tags_match_weakly() {
        assert!(inm(OURS).matches(OURS));
        assert!(inm(&format!("W/{OURS}")).matches(OURS));
        assert!(inm(OURS).matches(&format!("W/{OURS}")));
        assert!(!inm("\"0123456789abcdef0123456789abcdee\"").matches(OURS));
        // Case matters in opaque tags.
        assert!(!inm(&OURS.to_uppercase()).matches(OURS));
    }

    #[test]
    fn lists_and_lines() {
        assert!(inm(&format!("\"a\", W/\"b\" ,{OURS}")).matches(OURS));
        assert!(!inm("\"a\", W/\"b\"").matches(OURS));
        let two_lines = vec![
            ("if-none-match".to_owned(), b"\"a\"".to_vec()),
            ("if-none-match".to_owned(), OURS.as_bytes().to_vec()),
        ];
        assert!(IfNoneMatch::parse(&two_lines).matches(OURS));
        assert!(inm(&format!(" , {OURS} ,")).matches(OURS));
    }

    #[test]
    fn star_matches_anything() {
        assert_eq!(inm("*"), IfNoneMatch::Any);
        assert_eq!(inm(" * "), IfNoneMatch::Any);
        assert!(inm("*").matches(OURS));
    }

    #[test]
    fn garbage_is_absent() {
        for v in [
            "",
            "abc",
            "\"unterminated",
            "W/abc",
            "w/\"abc\"",
            "\"a\", *",
            "\"a b\"",
            "\"a\"\"b\"",
            "W/ \"a\"",
        ] {
            assert_eq!(inm(v), IfNoneMatch::Absent, "{v:?}");
            assert!(!inm(v).matches(OURS), "{v:?}");
        }
        assert_eq!(IfNoneMatch::parse(&[]), IfNoneMatch::Absent);
    }

    #[test]
    fn empty_tag_is_valid_but_distinct() {
        assert_eq!(inm("\"\""), IfNoneMatch::Tags(vec![vec![]]));
        assert!(!inm("\"\"").matches(OURS));
        assert!(inm("\"\"").matches("\"\""));
    }

    #[test]
    fn obs_text_is_allowed_in_tags() {
        let v = vec![("if-none-match".to_owned(), b"\"\xc3\xa9\"".to_vec())];
        assert!(IfNoneMatch::parse(&v).matches("\"é\""));
    }

    #[test]
    fn unparseable_own_etag_never_matches_a_list() {
        assert!(!inm("\"x\"").matches("x"));
        assert!(inm("*").matches("x"));
    }

    #[test]
    fn bounds() {
        let tags: Vec<String> = (0..MAX_INM_TAGS - 1).map(|i| format!("\"t{i}\"")).collect();
        let ok = format!("{}, {OURS}", tags.join(", "));
        assert!(inm(&ok).matches(OURS));
        let over = format!("{}, \"x\", {OURS}", tags.join(", "));
        assert_eq!(inm(&over), IfNoneMatch::Absent);
        let long = format!("\"{}\", {OURS}", "a".repeat(MAX_INM_BYTES));
        assert_eq!(inm(&long), IfNoneMatch::Absent);
    }

    #[test]
    fn modes() {
        assert_eq!(
            withheld_upstream(Conditional::Full),
            ["if-none-match", "if-modified-since"]
        );
        assert!(withheld_upstream(Conditional::ImsOnly).is_empty());
        assert!(withheld_upstream(Conditional::Off).is_empty());
        assert!(answers_not_modified(Conditional::Full));
        assert!(!answers_not_modified(Conditional::Off));
        assert!(!answers_not_modified(Conditional::ImsOnly));
        assert!(emits_etag(Conditional::Full) && emits_etag(Conditional::Off));
        assert!(!emits_etag(Conditional::ImsOnly));
    }
}
