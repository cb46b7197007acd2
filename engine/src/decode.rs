//! Charset detection and decoding: BOM > Content-Type charset > `<meta>` prescan > UTF-8.
//!
//! This is the HTML Standard's encoding sniffing algorithm without the steps that only a
//! browser has input for (user override, parent document, locale guess, frequency analysis):
//! with no declaration at all we assume UTF-8, which is what nearly every page is today.
//! All scanning is iterative and reads bytes through `get`, so no input can panic it.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252, X_USER_DEFINED};

/// How many leading bytes the `<meta>` prescan reads, as the HTML Standard advises.
pub const PRESCAN_BYTES: usize = 1024;

/// Decode `input` to UTF-8 text and report the encoding used.
///
/// Precedence: byte order mark (stripped), then the `charset` parameter of `content_type`,
/// then [`prescan`] of the first [`PRESCAN_BYTES`] bytes, then UTF-8. A label that names
/// no known encoding is skipped in favour of the next source. Invalid sequences become
/// U+FFFD; input that is already valid UTF-8 (or ASCII in an ASCII-compatible encoding)
/// is borrowed, not copied.
pub fn decode<'a>(
    input: &'a [u8],
    content_type: Option<&str>,
) -> (Cow<'a, str>, &'static Encoding) {
    let (encoding, body) = match Encoding::for_bom(input) {
        Some((encoding, bom_len)) => (encoding, input.get(bom_len..).unwrap_or_default()),
        None => (sniff(input, content_type), input),
    };
    let (text, _had_errors) = encoding.decode_without_bom_handling(body);
    (text, encoding)
}

/// The encoding declared out of band or in the document, UTF-8 if none is usable.
fn sniff(input: &[u8], content_type: Option<&str>) -> &'static Encoding {
    content_type
        .and_then(charset_param)
        .and_then(|label| Encoding::for_label(label.as_bytes()))
        .or_else(|| prescan(input.get(..PRESCAN_BYTES).unwrap_or(input)))
        .unwrap_or(UTF_8)
}

/// The value of the first `charset` parameter of a `Content-Type` header value, unquoted.
///
/// Parameter names match case-insensitively, values may be tokens or quoted strings (with
/// backslash escapes, which is the only case that allocates). Whitespace around `;` and
/// `=` is tolerated; the type/subtype itself is not validated, since a malformed type says
/// nothing about the charset. An empty value counts as absent.
pub fn charset_param(content_type: &str) -> Option<Cow<'_, str>> {
    // Parameters start after the first `;`; the type cannot contain one.
    let (_, mut rest) = content_type.split_once(';')?;
    loop {
        let (name, after_name) = match rest.find([';', '=']) {
            Some(at) => rest.split_at_checked(at)?,
            None => return None,
        };
        let Some(after_eq) = after_name.strip_prefix('=') else {
            // A bare name (`text/html; foo; charset=x`) has no value; go on after its `;`.
            rest = after_name.strip_prefix(';')?;
            continue;
        };
        let after_eq = after_eq.trim_start_matches(is_http_whitespace);
        let (value, next) = match after_eq.strip_prefix('"') {
            Some(quoted) => {
                let (value, tail) = quoted_string(quoted);
                // Anything between the closing quote and the next `;` is ignored.
                (value, tail.split_once(';').map(|(_, next)| next))
            }
            None => {
                let (value, next) = match after_eq.split_once(';') {
                    Some((value, next)) => (value, Some(next)),
                    None => (after_eq, None),
                };
                (
                    Cow::Borrowed(value.trim_end_matches(is_http_whitespace)),
                    next,
                )
            }
        };
        let name = name.trim_matches(is_http_whitespace);
        if name.eq_ignore_ascii_case("charset") && !value.is_empty() {
            return Some(value);
        }
        rest = next?;
    }
}

/// Splits `s` (just after an opening `"`) into the unescaped quoted-string and what follows
/// the closing quote. An unterminated string runs to the end, as in WHATWG MIME parsing.
fn quoted_string(s: &str) -> (Cow<'_, str>, &str) {
    match s.find(['"', '\\']) {
        None => (Cow::Borrowed(s), ""),
        Some(at) => match s.split_at_checked(at) {
            Some((value, tail)) if tail.starts_with('"') => {
                (Cow::Borrowed(value), tail.get(1..).unwrap_or_default())
            }
            Some((prefix, tail)) => unescape(prefix, tail),
            None => (Cow::Borrowed(s), ""),
        },
    }
}

/// Slow path of [`quoted_string`]: `tail` starts at the first backslash.
fn unescape<'a>(prefix: &str, tail: &'a str) -> (Cow<'a, str>, &'a str) {
    let mut value = String::from(prefix);
    let mut chars = tail.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '"' => return (Cow::Owned(value), tail.get(at + 1..).unwrap_or_default()),
            // A trailing lone backslash stands for itself.
            '\\' => value.push(chars.next().map_or('\\', |(_, escaped)| escaped)),
            other => value.push(other),
        }
    }
    (Cow::Owned(value), "")
}

fn is_http_whitespace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

/// The HTML Standard's "prescan a byte stream to determine its encoding" over `bytes`
/// (callers pass the first [`PRESCAN_BYTES`]), falling back to an XML declaration's
/// `encoding` as the Standard's sniffing does. `None` when nothing usable is declared.
pub fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    // `<?x` in UTF-16: the bytes themselves say which UTF-16 this is.
    if bytes.starts_with(b"<\0?\0x\0") {
        return Some(UTF_16LE);
    }
    if bytes.starts_with(b"\0<\0?\0x") {
        return Some(UTF_16BE);
    }
    scan_markup(bytes).or_else(|| xml_declaration(bytes))
}

/// The prescan loop proper. Running out of bytes anywhere ends it with `None`.
fn scan_markup(b: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    loop {
        let rest = b.get(pos..).filter(|rest| !rest.is_empty())?;
        if rest.starts_with(b"<!--") {
            // The `-->` may reuse the dashes of `<!--`, so `<!-->` is a whole comment.
            pos += 2 + find(rest.get(2..)?, b"-->")? + 2;
        } else if is_meta_start(rest) {
            // Just past `<meta`; the attribute reader skips the space or slash.
            pos += b"<meta".len();
            if let Some(encoding) = meta(b, &mut pos)? {
                return Some(encoding);
            }
        } else if let Some(name_at) = tag_name_start(rest) {
            pos += name_at;
            // Skip the tag name, then its attributes, to the `>`.
            pos += b
                .get(pos..)?
                .iter()
                .position(|&c| is_space(c) || c == b'>')?;
            while let Attribute::Pair(..) = attribute(b, &mut pos)? {}
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            pos += rest.iter().position(|&c| c == b'>')?;
        }
        pos += 1;
    }
}

/// `<meta` (any case) followed by whitespace or `/`.
fn is_meta_start(rest: &[u8]) -> bool {
    rest.get(..5)
        .is_some_and(|tag| tag.eq_ignore_ascii_case(b"<meta"))
        && rest.get(5).is_some_and(|&c| is_space(c) || c == b'/')
}

/// For `<x` or `</x` with an ASCII letter `x`: the offset of that letter.
fn tag_name_start(rest: &[u8]) -> Option<usize> {
    let at = if rest.get(1) == Some(&b'/') { 2 } else { 1 };
    (rest.first() == Some(&b'<') && rest.get(at).is_some_and(u8::is_ascii_alphabetic)).then_some(at)
}

/// Reads the attributes of a `<meta>` whose name `pos` is just past, and applies the
/// Standard's rules to them. Outer `None`: out of bytes; inner `None`: declares nothing.
fn meta(b: &[u8], pos: &mut usize) -> Option<Option<&'static Encoding>> {
    let (mut seen_http_equiv, mut seen_content, mut seen_charset) = (false, false, false);
    let mut got_pragma = false;
    let mut need_pragma: Option<bool> = None;
    // Outer `None`: no charset yet; `Some(None)`: a charset that named no encoding.
    let mut charset: Option<Option<&'static Encoding>> = None;
    while let Attribute::Pair(name, value) = attribute(b, pos)? {
        // Only the first occurrence of each attribute counts.
        // Names and values are as written: the Standard lowercases them, so every test on
        // them ignores ASCII case (as `Encoding::for_label` does).
        if name.eq_ignore_ascii_case(b"http-equiv") {
            if !seen_http_equiv {
                seen_http_equiv = true;
                got_pragma |= value.eq_ignore_ascii_case(b"content-type");
            }
        } else if name.eq_ignore_ascii_case(b"content") {
            if !seen_content {
                seen_content = true;
                if charset.is_none() {
                    if let Some(encoding) = charset_from_meta_content(value) {
                        charset = Some(Some(encoding));
                        need_pragma = Some(true);
                    }
                }
            }
        } else if name.eq_ignore_ascii_case(b"charset") && !seen_charset {
            seen_charset = true;
            charset = Some(Encoding::for_label(value));
            need_pragma = Some(false);
        }
    }
    let usable = match need_pragma {
        None => false,
        Some(need) => got_pragma || !need,
    };
    Some(charset.flatten().filter(|_| usable).map(in_document))
}

/// A declaration inside the document cannot be UTF-16 (the `<meta>` was readable as ASCII,
/// so the bytes are not UTF-16) and x-user-defined is treated as windows-1252.
fn in_document(encoding: &'static Encoding) -> &'static Encoding {
    if encoding == UTF_16BE || encoding == UTF_16LE {
        UTF_8
    } else if encoding == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        encoding
    }
}

enum Attribute<'a> {
    /// Name and value as written: the Standard's lowercasing is left to the comparisons.
    Pair(&'a [u8], &'a [u8]),
    /// The `>` ending the tag; `pos` is left on it.
    TagEnd,
}

/// The Standard's "get an attribute": reads one attribute at `pos`. Name and value are
/// borrowed from `b` (each is one run of it). `None` when the bytes run out first.
fn attribute<'a>(b: &'a [u8], pos: &mut usize) -> Option<Attribute<'a>> {
    while is_space(*b.get(*pos)?) || b.get(*pos) == Some(&b'/') {
        *pos += 1;
    }
    if *b.get(*pos)? == b'>' {
        return Some(Attribute::TagEnd);
    }
    let name_start = *pos;
    let name_end = loop {
        let c = *b.get(*pos)?;
        match c {
            b'=' if *pos > name_start => {
                let end = *pos;
                *pos += 1;
                break end;
            }
            c if is_space(c) => {
                let end = *pos;
                skip_spaces(b, pos)?;
                if *b.get(*pos)? != b'=' {
                    return Some(Attribute::Pair(b.get(name_start..end)?, &[]));
                }
                *pos += 1;
                break end;
            }
            b'/' | b'>' => return Some(Attribute::Pair(b.get(name_start..*pos)?, &[])),
            _ => {}
        }
        *pos += 1;
    };
    let name = b.get(name_start..name_end)?;
    skip_spaces(b, pos)?;
    match *b.get(*pos)? {
        quote @ (b'"' | b'\'') => {
            let value_start = *pos + 1;
            let len = b.get(value_start..)?.iter().position(|&c| c == quote)?;
            *pos = value_start + len + 1;
            return Some(Attribute::Pair(
                name,
                b.get(value_start..value_start + len)?,
            ));
        }
        b'>' => return Some(Attribute::Pair(name, &[])),
        _ => {}
    }
    let value_start = *pos;
    *pos += 1;
    loop {
        let c = *b.get(*pos)?;
        if is_space(c) || c == b'>' {
            return Some(Attribute::Pair(name, b.get(value_start..*pos)?));
        }
        *pos += 1;
    }
}

/// Advances `pos` past whitespace; `None` if that reaches the end.
fn skip_spaces(b: &[u8], pos: &mut usize) -> Option<()> {
    while is_space(*b.get(*pos)?) {
        *pos += 1;
    }
    Some(())
}

/// The Standard's "extracting a character encoding from a meta element", for the
/// `content` of `<meta http-equiv=content-type content="text/html; charset=...">`.
fn charset_from_meta_content(content: &[u8]) -> Option<&'static Encoding> {
    let mut rest = content;
    loop {
        let at = rest
            .windows(7)
            .position(|w| w.eq_ignore_ascii_case(b"charset"))?;
        rest = rest.get(at + 7..)?.trim_ascii_start();
        // `charsetfoo` or `charset;` is not the parameter; look for a later one.
        if let Some(after_eq) = rest.strip_prefix(b"=") {
            rest = after_eq.trim_ascii_start();
            break;
        }
    }
    let label = match rest.first()? {
        &quote @ (b'"' | b'\'') => {
            let inner = rest.get(1..)?;
            inner.get(..inner.iter().position(|&c| c == quote)?)?
        }
        _ => {
            let end = rest
                .iter()
                .position(|&c| c == b';' || c.is_ascii_whitespace())
                .unwrap_or(rest.len());
            rest.get(..end)?
        }
    };
    Encoding::for_label(label)
}

/// The Standard's "get an XML encoding": `encoding="..."` in a leading `<?xml ...>`.
fn xml_declaration(b: &[u8]) -> Option<&'static Encoding> {
    let decl = b.get(..b.iter().position(|&c| c == b'>')?)?;
    let after_xml = decl.strip_prefix(b"<?xml")?;
    let rest = after_xml.get(find(after_xml, b"encoding")? + b"encoding".len()..)?;
    let rest = strip_xml_eq(rest)?;
    let (&quote, rest) = rest.split_first()?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let label = rest.get(..rest.iter().position(|&c| c == quote)?)?;
    if label.iter().any(|&c| c <= 0x20) {
        return None;
    }
    Encoding::for_label(label).map(in_document)
}

/// Strips `<= 0x20` bytes, `=`, `<= 0x20` bytes; `None` if there is no `=`.
fn strip_xml_eq(s: &[u8]) -> Option<&[u8]> {
    let skip = |s: &[u8]| s.iter().take_while(|&&c| c <= 0x20).count();
    let rest = s.get(skip(s)..)?.strip_prefix(b"=")?;
    rest.get(skip(rest)..)
}

/// Whitespace as the prescan defines it (no vertical tab).
fn is_space(c: u8) -> bool {
    matches!(c, 0x09 | 0x0A | 0x0C | 0x0D | 0x20)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
