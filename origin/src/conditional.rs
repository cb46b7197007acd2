//! Conditional requests (RFC 9110 §13) and single byte ranges (RFC 9110 §14).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// One entity-tag from an If-None-Match / If-Match list.
#[derive(Debug, PartialEq, Eq)]
struct EntityTag<'a> {
    weak: bool,
    /// The quoted form, quotes included, so it compares directly with our `ETag` values.
    opaque: &'a str,
}

/// Parses `#entity-tag`. Returns `None` on syntax errors so a garbled header never matches.
fn parse_etag_list(value: &str) -> Option<Vec<EntityTag<'_>>> {
    let mut tags = Vec::new();
    let mut rest = value;
    loop {
        rest = rest.trim_start_matches([' ', '\t', ',']);
        if rest.is_empty() {
            return Some(tags);
        }
        let weak = rest.starts_with("W/");
        if weak {
            rest = rest.get(2..)?;
        }
        let body = rest.strip_prefix('"')?;
        let close = body.find('"')?;
        // close + 2 covers both quotes.
        let opaque = rest.get(..close + 2)?;
        tags.push(EntityTag { weak, opaque });
        rest = rest.get(close + 2..)?;
        let next = rest.trim_start_matches([' ', '\t']);
        if !next.is_empty() && !next.starts_with(',') {
            return None;
        }
        rest = next;
    }
}

/// Splits our own `ETag` value into weakness and quoted opaque part.
fn own_tag(etag: &str) -> EntityTag<'_> {
    match etag.strip_prefix("W/") {
        Some(opaque) => EntityTag { weak: true, opaque },
        None => EntityTag {
            weak: false,
            opaque: etag,
        },
    }
}

/// If-None-Match uses the weak comparison: opaque parts equal, W/ ignored (RFC 9110 §8.8.3.2).
pub fn none_match_hits(if_none_match: &str, etag: &str) -> bool {
    if if_none_match.trim() == "*" {
        return true;
    }
    let ours = own_tag(etag);
    parse_etag_list(if_none_match).is_some_and(|tags| tags.iter().any(|t| t.opaque == ours.opaque))
}

/// HTTP dates have one-second resolution; compare modification times at that resolution.
fn whole_seconds(t: SystemTime) -> SystemTime {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    UNIX_EPOCH + Duration::from_secs(secs)
}

/// Whether a GET/HEAD for a representation with `etag`/`modified` should get 304.
/// If-None-Match takes precedence; If-Modified-Since is only consulted without it (§13.2.2).
pub fn is_not_modified(
    if_none_match: Option<&str>,
    if_modified_since: Option<&str>,
    etag: &str,
    modified: SystemTime,
) -> bool {
    if let Some(inm) = if_none_match {
        return none_match_hits(inm, etag);
    }
    if_modified_since
        .and_then(|ims| httpdate::parse_http_date(ims.trim()).ok())
        .is_some_and(|since| whole_seconds(modified) <= since)
}

/// If-Range: a Range applies only if the validator still matches, using the strong comparison
/// for entity-tags and an exact match for dates (RFC 9110 §13.1.5).
pub fn if_range_allows(if_range: Option<&str>, etag: &str, modified: SystemTime) -> bool {
    let Some(value) = if_range.map(str::trim) else {
        return true;
    };
    if value.starts_with('"') || value.starts_with("W/") {
        let ours = own_tag(etag);
        return !ours.weak && value == ours.opaque;
    }
    httpdate::parse_http_date(value).is_ok_and(|d| d == whole_seconds(modified))
}

#[derive(Debug, PartialEq, Eq)]
pub enum RangeOutcome {
    /// No usable Range: send the whole representation with 200. This covers syntax errors,
    /// other units and multiple ranges, all of which a server may ignore.
    Ignore,
    /// 206 for bytes `start..=end`.
    Partial { start: u64, end: u64 },
    /// 416.
    Unsatisfiable,
}

/// Evaluates a `Range` header against a representation of `len` bytes.
pub fn parse_range(header: &str, len: u64) -> RangeOutcome {
    let header = header.trim();
    let Some((unit, spec)) = header.split_once('=') else {
        return RangeOutcome::Ignore;
    };
    if !unit.trim().eq_ignore_ascii_case("bytes") || spec.contains(',') {
        return RangeOutcome::Ignore;
    }
    let Some((first, last)) = spec.trim().split_once('-') else {
        return RangeOutcome::Ignore;
    };
    let num = |s: &str| -> Option<u64> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    let (first, last) = (first.trim(), last.trim());
    if first.is_empty() {
        // Suffix range: the last N bytes.
        let Some(n) = num(last) else {
            return RangeOutcome::Ignore;
        };
        if n == 0 || len == 0 {
            return RangeOutcome::Unsatisfiable;
        }
        return RangeOutcome::Partial {
            start: len.saturating_sub(n),
            end: len - 1,
        };
    }
    let Some(start) = num(first) else {
        return RangeOutcome::Ignore;
    };
    let end = if last.is_empty() {
        u64::MAX
    } else {
        match num(last) {
            Some(e) if e >= start => e,
            _ => return RangeOutcome::Ignore,
        }
    };
    if start >= len {
        return RangeOutcome::Unsatisfiable;
    }
    RangeOutcome::Partial {
        start,
        end: end.min(len - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TAG: &str = "\"abc\"";

    #[test]
    fn etag_lists() {
        assert!(none_match_hits("\"abc\"", TAG));
        assert!(none_match_hits("W/\"abc\"", TAG));
        assert!(none_match_hits("\"x\", W/\"abc\"", TAG));
        assert!(none_match_hits(" \"x\" ,\t\"abc\" ", TAG));
        assert!(none_match_hits("*", TAG));
        // Commas are legal inside an opaque tag.
        assert!(none_match_hits("\"a,b\"", "\"a,b\""));
        assert!(!none_match_hits("\"a,b\"", "\"a\""));
        assert!(!none_match_hits("\"abd\"", TAG));
        assert!(!none_match_hits("abc", TAG));
        assert!(!none_match_hits("\"abc", TAG));
        assert!(!none_match_hits("\"abc\"x", TAG));
        assert!(!none_match_hits("", TAG));
        // Our weak tags match strong request tags too (weak comparison).
        assert!(none_match_hits("\"abc\"", "W/\"abc\""));
    }

    #[test]
    fn not_modified_precedence() {
        let modified = UNIX_EPOCH + Duration::from_millis(1_700_000_000_500);
        let at = httpdate::fmt_http_date(UNIX_EPOCH + Duration::from_secs(1_700_000_000));
        let before = httpdate::fmt_http_date(UNIX_EPOCH + Duration::from_secs(1_699_999_999));
        // Sub-second mtime still counts as "not modified since" the formatted Last-Modified.
        assert!(is_not_modified(None, Some(&at), TAG, modified));
        assert!(!is_not_modified(None, Some(&before), TAG, modified));
        assert!(!is_not_modified(None, Some("garbage"), TAG, modified));
        // A failing If-None-Match wins over a matching If-Modified-Since.
        assert!(!is_not_modified(
            Some("\"other\""),
            Some(&at),
            TAG,
            modified
        ));
        assert!(is_not_modified(Some(TAG), Some(&before), TAG, modified));
        assert!(!is_not_modified(None, None, TAG, modified));
    }

    #[test]
    fn if_range() {
        let modified = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let date = httpdate::fmt_http_date(modified);
        assert!(if_range_allows(None, TAG, modified));
        assert!(if_range_allows(Some(TAG), TAG, modified));
        assert!(!if_range_allows(Some("W/\"abc\""), TAG, modified));
        assert!(!if_range_allows(Some("\"zzz\""), TAG, modified));
        assert!(if_range_allows(Some(&date), TAG, modified));
        assert!(!if_range_allows(
            Some(&date),
            TAG,
            modified + Duration::from_secs(1)
        ));
    }

    #[test]
    fn ranges() {
        use RangeOutcome::*;
        assert_eq!(parse_range("bytes=0-3", 10), Partial { start: 0, end: 3 });
        assert_eq!(parse_range("bytes=5-", 10), Partial { start: 5, end: 9 });
        assert_eq!(parse_range("bytes=5-100", 10), Partial { start: 5, end: 9 });
        assert_eq!(parse_range("bytes=-3", 10), Partial { start: 7, end: 9 });
        assert_eq!(parse_range("bytes=-30", 10), Partial { start: 0, end: 9 });
        assert_eq!(parse_range("Bytes = 2-2", 10), Partial { start: 2, end: 2 });
        assert_eq!(parse_range("bytes=10-", 10), Unsatisfiable);
        assert_eq!(parse_range("bytes=-0", 10), Unsatisfiable);
        assert_eq!(parse_range("bytes=0-", 0), Unsatisfiable);
        assert_eq!(parse_range("bytes=3-2", 10), Ignore);
        assert_eq!(parse_range("bytes=0-1,4-5", 10), Ignore);
        assert_eq!(parse_range("items=0-1", 10), Ignore);
        assert_eq!(parse_range("bytes=a-b", 10), Ignore);
        assert_eq!(parse_range("bytes=-", 10), Ignore);
        assert_eq!(parse_range("bytes 0-1", 10), Ignore);
        assert_eq!(parse_range("bytes=0-99999999999999999999999", 10), Ignore);
    }
}
