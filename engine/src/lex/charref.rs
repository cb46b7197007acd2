//! Character references (`&amp;`, `&#x41;`, legacy `&copy`), decided the way html5ever 0.40's
//! `CharRefTokenizer` decides them, but on the whole input at once instead of one peeked
//! character at a time.
use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};

/// What the bytes after an `&` are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CharRef {
    /// Not a reference: the `&` is text and tokenizing goes on right after it.
    Literal,
    /// `len` bytes after the `&` decode to `first` (and `second`). `error` is set where
    /// html5ever reports a parse error before the characters.
    Chars {
        len: usize,
        first: char,
        second: Option<char>,
        error: bool,
    },
}

/// Longest key of `NAMED_ENTITIES` ("CounterClockwiseContourIntegral;").
const MAX_NAME: usize = 32;

/// The reference starting at `at`, the byte after an `&`. `in_attr`: consumed in an attribute
/// value, where a legacy name without `;` followed by `=` or an alphanumeric stays text.
pub(super) fn parse(text: &str, at: usize, in_attr: bool) -> CharRef {
    let src = text.as_bytes();
    match src.get(at) {
        Some(b'#') => numeric(src, at),
        Some(c) if c.is_ascii_alphanumeric() => named(text, at, in_attr),
        _ => CharRef::Literal,
    }
}

fn chars(len: usize, first: char, second: Option<char>, error: bool) -> CharRef {
    CharRef::Chars {
        len,
        first,
        second,
        error,
    }
}

fn numeric(src: &[u8], at: usize) -> CharRef {
    let mut i = at + 1;
    let base = match src.get(i) {
        Some(b'x' | b'X') => {
            i += 1;
            16
        }
        _ => 10,
    };
    let digits = i;
    let mut num: u32 = 0;
    let mut too_big = false;
    while let Some(d) = src.get(i).and_then(|&b| char::from(b).to_digit(base)) {
        // html5ever's overflow rule, kept exactly: the flag is set when the shifted value
        // exceeds the range, and the arithmetic wraps.
        num = num.wrapping_mul(base);
        if num > 0x10FFFF {
            too_big = true;
        }
        num = num.wrapping_add(d);
        i += 1;
    }
    if i == digits {
        // `&#`, `&#x` without digits: everything after the `&` is text again.
        return CharRef::Literal;
    }
    let mut error = false;
    if src.get(i) == Some(&b';') {
        i += 1;
    } else {
        error = true;
    }
    let (c, bad) = numeric_value(num, too_big);
    chars(i - at, c, None, error || bad)
}

/// The character a numeric reference stands for, and whether it is a parse error.
fn numeric_value(num: u32, too_big: bool) -> (char, bool) {
    let conv = |n: u32| char::from_u32(n).unwrap_or('\u{FFFD}');
    match num {
        n if n > 0x10FFFF || too_big => ('\u{FFFD}', true),
        0x00 | 0xD800..=0xDFFF => ('\u{FFFD}', true),
        0x80..=0x9F => {
            let replacement = C1_REPLACEMENTS
                .get((num - 0x80) as usize)
                .copied()
                .flatten();
            (replacement.unwrap_or_else(|| conv(num)), true)
        }
        0x01..=0x08 | 0x0B | 0x0D..=0x1F | 0x7F | 0xFDD0..=0xFDEF => (conv(num), true),
        n if (n & 0xFFFE) == 0xFFFE => (conv(n), true),
        n => (conv(n), false),
    }
}

fn named(text: &str, at: usize, in_attr: bool) -> CharRef {
    let src = text.as_bytes();
    // The usual case, a complete name with `;`: nothing can extend a match past the `;`, so
    // the one lookup gives the longest match html5ever's prefix walk would find.
    let run = src
        .get(at..)
        .unwrap_or_default()
        .iter()
        .take(MAX_NAME)
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    if src.get(at + run) == Some(&b';') {
        if let Some(found) = common(src.get(at..at + run + 1).unwrap_or_default()) {
            return chars(run + 1, found, None, false);
        }
        if let Some(&(c1, c2)) = text
            .get(at..at + run + 1)
            .and_then(|key| NAMED_ENTITIES.get(key))
        {
            if c1 != 0 {
                return entity(run + 1, c1, c2, false);
            }
        }
    }
    // html5ever's walk: extend the name while it is a key of the table (which holds every
    // prefix of every name), remembering the longest complete name seen.
    let mut best = None;
    let mut len = 1;
    while let Some(&(c1, c2)) = text
        .get(at..at + len)
        .and_then(|key| NAMED_ENTITIES.get(key))
    {
        if c1 != 0 {
            best = Some((len, c1, c2));
        }
        len += 1;
    }
    let Some((len, c1, c2)) = best else {
        return CharRef::Literal;
    };
    let mut error = false;
    if src.get(at + len - 1) != Some(&b';') {
        // Historical rule for attributes: `&copy=` and `&notit` stay as written.
        let next = src.get(at + len);
        if in_attr && next.is_some_and(|&b| b == b'=' || b.is_ascii_alphanumeric()) {
            return CharRef::Literal;
        }
        error = true;
    }
    entity(len, c1, c2, error)
}

fn entity(len: usize, c1: u32, c2: u32, error: bool) -> CharRef {
    let first = char::from_u32(c1).unwrap_or('\u{FFFD}');
    let second = (c2 != 0).then(|| char::from_u32(c2).unwrap_or('\u{FFFD}'));
    chars(len, first, second, error)
}

/// The references that make up most of real pages, without hashing.
fn common(name: &[u8]) -> Option<char> {
    match name {
        b"lt;" => Some('<'),
        b"gt;" => Some('>'),
        b"amp;" => Some('&'),
        b"quot;" => Some('"'),
        b"nbsp;" => Some('\u{A0}'),
        b"apos;" => Some('\''),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{parse, CharRef};

    fn decode(s: &str, in_attr: bool) -> Option<(usize, String)> {
        match parse(s, 0, in_attr) {
            CharRef::Literal => None,
            CharRef::Chars {
                len, first, second, ..
            } => Some((
                len,
                first.to_string() + &second.map(String::from).unwrap_or_default(),
            )),
        }
    }

    #[test]
    fn named_and_numeric_references() {
        assert_eq!(decode("amp;", false), Some((4, "&".into())));
        assert_eq!(decode("amp", false), Some((3, "&".into())));
        assert_eq!(decode("notit;", false), Some((3, "¬".into())));
        assert_eq!(decode("notin;", false), Some((6, "∉".into())));
        assert_eq!(decode("notit;", true), None);
        assert_eq!(decode("amp=", true), None);
        assert_eq!(decode("amp ", true), Some((3, "&".into())));
        assert_eq!(
            decode("NotEqualTilde;", false),
            Some((14, "≂\u{338}".into()))
        );
        assert_eq!(decode("xyz;", false), None);
        assert_eq!(decode("#x80;", false), Some((5, "€".into())));
        assert_eq!(decode("#x81;", false), Some((5, "\u{81}".into())));
        assert_eq!(decode("#0;", false), Some((3, "\u{FFFD}".into())));
        assert_eq!(decode("#xD800", false), Some((6, "\u{FFFD}".into())));
        assert_eq!(
            decode("#99999999999999999999;", false),
            Some((22, "\u{FFFD}".into()))
        );
        assert_eq!(decode("#x;", false), None);
        assert_eq!(decode("#", false), None);
        assert_eq!(decode("", false), None);
    }
}
