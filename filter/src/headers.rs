//! Header-level helpers shared by the decision modules: field lookup over a header list,
//! quote-aware comma-list splitting, `Vary` merging, the `Cache-Control` test, and the
//! request URL handed to the engine as `base_url`.
//!
//! Headers are handled as `(lower-case name, raw value bytes)` pairs, the shape Envoy hands
//! to a Wasm filter; values are bytes because HTTP allows obs-text that is not UTF-8.

/// One header field as received from the host: lower-case name, raw value.
pub type Header = (String, Vec<u8>);

/// All values of the field `name` (lower-case), in order.
pub fn values<'a>(headers: &'a [Header], name: &'a str) -> impl Iterator<Item = &'a [u8]> + 'a {
    headers
        .iter()
        .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_slice())
}

/// The value of `name` if the field occurs exactly once.
pub fn single<'a>(headers: &'a [Header], name: &'a str) -> Option<&'a [u8]> {
    let mut it = values(headers, name);
    let first = it.next()?;
    it.next().is_none().then_some(first)
}

/// Whether the field `name` is present at all.
pub fn has(headers: &[Header], name: &str) -> bool {
    values(headers, name).next().is_some()
}

/// Trim optional whitespace (SP / HTAB) from both ends.
pub fn trim_ows(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|b| !matches!(b, b' ' | b'\t'));
    let end = s.iter().rposition(|b| !matches!(b, b' ' | b'\t'));
    match (start, end) {
        (Some(a), Some(b)) => s.get(a..=b).unwrap_or_default(),
        _ => &[],
    }
}

/// Split `s` on `sep` outside double-quoted strings (with backslash escapes), trimming OWS
/// around each piece. `None` if a quoted string is left open.
pub fn split_unquoted(s: &[u8], sep: u8) -> Option<Vec<&[u8]>> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut in_quotes = false;
    let mut escaped = false;
    for (i, &b) in s.iter().enumerate() {
        if in_quotes {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_quotes = false;
            }
        } else if b == b'"' {
            in_quotes = true;
        } else if b == sep {
            parts.push(trim_ows(s.get(start..i)?));
            start = i + 1;
        }
    }
    if in_quotes {
        return None;
    }
    parts.push(trim_ows(s.get(start..)?));
    Some(parts)
}

/// Whether any `Cache-Control` line carries the `no-transform` directive.
pub fn has_no_transform(headers: &[Header]) -> bool {
    values(headers, "cache-control").any(|value| {
        // An unterminated quote is malformed; fall back to a plain split so that a
        // `no-transform` directive is still honoured (erring towards not converting).
        let members = split_unquoted(value, b',')
            .unwrap_or_else(|| value.split(|&b| b == b',').map(trim_ows).collect());
        members.into_iter().any(|m| {
            let name = m.split(|&b| b == b'=').next().unwrap_or_default();
            trim_ows(name).eq_ignore_ascii_case(b"no-transform")
        })
    })
}

/// A response's declared `Content-Length`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclaredLength {
    Absent,
    Valid(u64),
    /// Unparseable, or several values that disagree: not usable for the cap check.
    Invalid,
}

/// The declared `Content-Length` over all of its lines.
pub fn content_length(headers: &[Header]) -> DeclaredLength {
    let mut found: Option<u64> = None;
    for value in values(headers, "content-length") {
        for member in value.split(|&b| b == b',') {
            let Some(n) = parse_decimal(trim_ows(member)) else {
                return DeclaredLength::Invalid;
            };
            match found {
                Some(prev) if prev != n => return DeclaredLength::Invalid,
                _ => found = Some(n),
            }
        }
    }
    found.map_or(DeclaredLength::Absent, DeclaredLength::Valid)
}

fn parse_decimal(s: &[u8]) -> Option<u64> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    s.iter().try_fold(0u64, |acc, &d| {
        acc.checked_mul(10)?.checked_add(u64::from(d - b'0'))
    })
}

/// The lower-cased media type (`type/subtype`, parameters dropped) of a single
/// `Content-Type` line. `None` when absent, repeated or not of the form `token/token`.
pub fn media_type(headers: &[Header]) -> Option<String> {
    let value = single(headers, "content-type")?;
    let essence = trim_ows(value.split(|&b| b == b';').next().unwrap_or_default());
    let text = std::str::from_utf8(essence).ok()?;
    let (ty, sub) = text.split_once('/')?;
    (crate::config::is_token(ty) && crate::config::is_token(sub)).then(|| text.to_ascii_lowercase())
}

/// The `Vary` value to set so that it lists `member`, or `None` when no change is needed
/// (already listed case-insensitively, or `Vary: *`, which already covers everything).
/// Several `Vary` lines are folded into one value, as the caller replaces the field.
pub fn merge_vary(headers: &[Header], member: &str) -> Option<Vec<u8>> {
    let lines: Vec<&[u8]> = values(headers, "vary").collect();
    let mut members: Vec<&[u8]> = Vec::new();
    for line in &lines {
        for m in line.split(|&b| b == b',').map(trim_ows) {
            if m == b"*" || m.eq_ignore_ascii_case(member.as_bytes()) {
                return None;
            }
            if !m.is_empty() {
                members.push(m);
            }
        }
    }
    members.push(member.as_bytes());
    Some(members.join(&b", "[..]))
}

/// The absolute URL of the request as the client sent it:
/// `<scheme>://<:authority><:path>`. The scheme is `X-Forwarded-Proto`'s first member when
/// `trust_forwarded_proto` and it is `http`/`https`, else `:scheme`. `None` when the
/// authority or an origin-form path is missing, or a part is not valid in a URL.
pub fn request_url(headers: &[Header], trust_forwarded_proto: bool) -> Option<String> {
    let forwarded = trust_forwarded_proto
        .then(|| forwarded_proto(headers))
        .flatten();
    let scheme = match forwarded {
        Some(s) => s,
        None => {
            let s = std::str::from_utf8(single(headers, ":scheme")?).ok()?;
            let s = s.to_ascii_lowercase();
            let valid = s.starts_with(|c: char| c.is_ascii_alphabetic())
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b));
            if !valid {
                return None;
            }
            s
        }
    };
    let authority = single(headers, ":authority").filter(|a| !a.is_empty())?;
    let path = single(headers, ":path").filter(|p| p.first() == Some(&b'/'))?;
    // Envoy has already rejected control characters and spaces in these; insist on
    // printable ASCII so the engine's URL parser sees what the client sent.
    let printable = |s: &[u8]| s.iter().all(|b| (0x21..=0x7e).contains(b));
    if !printable(authority) || !printable(path) {
        return None;
    }
    let authority = std::str::from_utf8(authority).ok()?;
    let path = std::str::from_utf8(path).ok()?;
    Some(format!("{scheme}://{authority}{path}"))
}

fn forwarded_proto(headers: &[Header]) -> Option<String> {
    let first_line = values(headers, "x-forwarded-proto").next()?;
    let first = trim_ows(first_line.split(|&b| b == b',').next()?);
    if first.eq_ignore_ascii_case(b"http") {
        Some("http".into())
    } else if first.eq_ignore_ascii_case(b"https") {
        Some("https".into())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(pairs: &[(&str, &str)]) -> Vec<Header> {
        pairs
            .iter()
            .map(|(n, v)| ((*n).to_owned(), v.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn split_respects_quotes_and_escapes() {
        let parts = split_unquoted(br#"a, b="x, y" ,c="q\"," , "#, b',').unwrap();
        assert_eq!(parts, [&b"a"[..], br#"b="x, y""#, br#"c="q\",""#, b""]);
        assert_eq!(split_unquoted(br#"a="open, b"#, b','), None);
        assert_eq!(split_unquoted(b"", b','), Some(vec![&b""[..]]));
    }

    #[test]
    fn trim_ows_handles_all_whitespace() {
        assert_eq!(trim_ows(b" \t "), b"");
        assert_eq!(trim_ows(b"\tx y "), b"x y");
    }

    #[test]
    fn no_transform_in_any_line_any_case() {
        assert!(has_no_transform(&h(&[(
            "cache-control",
            "max-age=60, No-Transform"
        )])));
        assert!(has_no_transform(&h(&[
            ("cache-control", "public"),
            ("cache-control", "no-transform")
        ])));
        assert!(!has_no_transform(&h(&[(
            "cache-control",
            "no-store, max-age=0"
        )])));
        // Inside a quoted argument it is not a directive.
        assert!(!has_no_transform(&h(&[(
            "cache-control",
            r#"private="no-transform, x""#
        )])));
        assert!(!has_no_transform(&h(&[])));
    }

    #[test]
    fn content_length_parsing() {
        use DeclaredLength::*;
        let cl = |v: &str| content_length(&h(&[("content-length", v)]));
        assert_eq!(content_length(&h(&[])), Absent);
        assert_eq!(cl("42"), Valid(42));
        assert_eq!(cl("42, 42"), Valid(42));
        assert_eq!(
            content_length(&h(&[("content-length", "42"), ("content-length", "43")])),
            Invalid
        );
        for bad in ["", "-1", "4 2", "0x10", "99999999999999999999", "+5"] {
            assert_eq!(cl(bad), Invalid, "{bad:?}");
        }
        assert_eq!(cl("18446744073709551615"), Valid(u64::MAX));
    }

    #[test]
    fn media_type_essence() {
        assert_eq!(
            media_type(&h(&[("content-type", "Text/HTML; charset=ISO-8859-1")])).as_deref(),
            Some("text/html")
        );
        assert_eq!(
            media_type(&h(&[("content-type", " application/xhtml+xml ")])).as_deref(),
            Some("application/xhtml+xml")
        );
        assert_eq!(media_type(&h(&[])), None);
        assert_eq!(media_type(&h(&[("content-type", "html")])), None);
        assert_eq!(media_type(&h(&[("content-type", "text/ html")])), None);
        assert_eq!(
            media_type(&h(&[
                ("content-type", "text/html"),
                ("content-type", "text/plain")
            ])),
            None
        );
    }

    #[test]
    fn vary_merge() {
        assert_eq!(
            merge_vary(&h(&[]), "Accept").as_deref(),
            Some(&b"Accept"[..])
        );
        assert_eq!(
            merge_vary(&h(&[("vary", "Accept-Encoding")]), "Accept").as_deref(),
            Some(&b"Accept-Encoding, Accept"[..])
        );
        assert_eq!(
            merge_vary(&h(&[("vary", "origin, accept")]), "Accept"),
            None
        );
        assert_eq!(merge_vary(&h(&[("vary", "ACCEPT")]), "Accept"), None);
        assert_eq!(merge_vary(&h(&[("vary", "*")]), "Accept"), None);
        assert_eq!(merge_vary(&h(&[("vary", "Origin, *")]), "Accept"), None);
        assert_eq!(
            merge_vary(
                &h(&[("vary", "Origin,"), ("vary", " Accept-Language")]),
                "Accept"
            )
            .as_deref(),
            Some(&b"Origin, Accept-Language, Accept"[..])
        );
        assert_eq!(
            merge_vary(&h(&[("vary", "Origin"), ("vary", "accept")]), "Accept"),
            None
        );
    }

    fn req(extra: &[(&str, &str)]) -> Vec<Header> {
        let mut v = h(&[
            (":scheme", "http"),
            (":authority", "example.com:10000"),
            (":path", "/docs/a%20b?q=1&r=2"),
        ]);
        v.extend(h(extra));
        v
    }

    #[test]
    fn url_from_pseudo_headers() {
        assert_eq!(
            request_url(&req(&[]), false).as_deref(),
            Some("http://example.com:10000/docs/a%20b?q=1&r=2")
        );
    }

    #[test]
    fn url_scheme_from_forwarded_proto_only_when_trusted() {
        let r = req(&[("x-forwarded-proto", "HTTPS, http")]);
        assert_eq!(
            request_url(&r, true).as_deref(),
            Some("https://example.com:10000/docs/a%20b?q=1&r=2")
        );
        assert_eq!(
            request_url(&r, false).as_deref(),
            Some("http://example.com:10000/docs/a%20b?q=1&r=2")
        );
        // An unusable forwarded value falls back to :scheme.
        let r = req(&[("x-forwarded-proto", "javascript")]);
        assert!(request_url(&r, true).unwrap().starts_with("http://"));
    }

    #[test]
    fn url_missing_or_odd_parts() {
        let no_authority: Vec<Header> = req(&[])
            .into_iter()
            .filter(|(n, _)| n != ":authority")
            .collect();
        assert_eq!(request_url(&no_authority, false), None);
        let star = h(&[(":scheme", "http"), (":authority", "a"), (":path", "*")]);
        assert_eq!(request_url(&star, false), None);
        let space = h(&[(":scheme", "http"), (":authority", "a"), (":path", "/a b")]);
        assert_eq!(request_url(&space, false), None);
        let bad_scheme = h(&[(":scheme", "ht tp"), (":authority", "a"), (":path", "/")]);
        assert_eq!(request_url(&bad_scheme, false), None);
    }

    #[test]
    fn single_and_has() {
        let hs = h(&[("accept", "a, b"), ("x-one", "1")]);
        assert_eq!(single(&hs, "x-one"), Some(&b"1"[..]));
        let two = h(&[("accept", "a"), ("accept", "b")]);
        assert_eq!(single(&two, "accept"), None);
        assert_eq!(
            values(&two, "accept").collect::<Vec<_>>(),
            [&b"a"[..], b"b"]
        );
        assert!(has(&hs, "accept"));
        assert!(!has(&hs, "range"));
    }
}
