//! Charset detection and decoding: precedence, Content-Type parsing, the `<meta>` prescan,
//! round trips through legacy encodings, and robustness on arbitrary input.

use std::borrow::Cow;

use agent_markdown::decode::{charset_param, decode, prescan, PRESCAN_BYTES};
use encoding_rs::{
    Encoding, GB18030, ISO_8859_2, KOI8_R, SHIFT_JIS, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1251,
    WINDOWS_1252,
};
use proptest::prelude::*;

/// `text` encoded in `encoding`; panics if the test text is not representable.
fn encode(encoding: &'static Encoding, text: &str) -> Vec<u8> {
    let (bytes, used, unmappable) = encoding.encode(text);
    assert_eq!(used, encoding, "encoding_rs substituted an output encoding");
    assert!(
        !unmappable,
        "test text not representable in {}",
        encoding.name()
    );
    bytes.into_owned()
}

fn utf16(text: &str, little_endian: bool) -> Vec<u8> {
    let mut out = if little_endian {
        vec![0xFF, 0xFE]
    } else {
        vec![0xFE, 0xFF]
    };
    for unit in text.encode_utf16() {
        let bytes = if little_endian {
            unit.to_le_bytes()
        } else {
            unit.to_be_bytes()
        };
        out.extend_from_slice(&bytes);
    }
    out
}

fn encoding_of(input: &[u8], content_type: Option<&str>) -> &'static str {
    decode(input, content_type).1.name()
}

// ---- precedence -------------------------------------------------------------------------

#[test]
fn utf8_bom_beats_content_type_and_meta_and_is_stripped() {
    let mut input = b"\xEF\xBB\xBF".to_vec();
    input.extend_from_slice("<meta charset=koi8-r><p>h\u{e9}".as_bytes());
    let (text, encoding) = decode(&input, Some("text/html; charset=windows-1251"));
    assert_eq!(encoding, UTF_8);
    assert_eq!(text, "<meta charset=koi8-r><p>h\u{e9}");
    assert!(
        matches!(text, Cow::Borrowed(_)),
        "valid UTF-8 must not be copied"
    );
}

#[test]
fn utf16_boms_decode_and_strip() {
    let doc = "<p>\u{65e5}\u{672c} \u{1F600}</p>";
    for (little_endian, expected) in [(true, UTF_16LE), (false, UTF_16BE)] {
        let bytes = utf16(doc, little_endian);
        let (text, encoding) = decode(&bytes, Some("text/html; charset=utf-8"));
        assert_eq!(encoding, expected);
        assert_eq!(text, doc);
    }
}

#[test]
fn content_type_charset_beats_meta() {
    let input = b"<meta charset=koi8-r><p>\xE9";
    let (text, encoding) = decode(input, Some("text/html; charset=iso-8859-2"));
    assert_eq!(encoding, ISO_8859_2);
    assert!(text.ends_with('\u{e9}'), "{text:?}");
}

#[test]
fn unknown_content_type_label_falls_through_to_meta() {
    let input = b"<meta charset=koi8-r><p>\xC1";
    let (text, encoding) = decode(input, Some("text/html; charset=no-such-thing"));
    assert_eq!(encoding, KOI8_R);
    // 0xC1 is Cyrillic small a in KOI8-R.
    assert!(text.ends_with('\u{430}'), "{text:?}");
}

#[test]
fn unknown_labels_everywhere_fall_back_to_utf8() {
    let input = "<meta charset=bogus><p>caf\u{e9}".as_bytes();
    let (text, encoding) = decode(input, Some("text/html; charset=bogus"));
    assert_eq!(encoding, UTF_8);
    assert_eq!(text.as_bytes(), input);
}

#[test]
fn no_declaration_means_utf8_borrowed() {
    let input = "<p>na\u{ef}ve \u{4e2d}\u{6587}</p>".as_bytes();
    let (text, encoding) = decode(input, None);
    assert_eq!(encoding, UTF_8);
    assert!(matches!(text, Cow::Borrowed(s) if s.as_bytes() == input));
    assert_eq!(encoding_of(input, Some("text/html")), "UTF-8");
}

#[test]
fn ascii_in_a_legacy_encoding_is_not_copied() {
    let (text, encoding) = decode(
        b"<p>plain ascii</p>",
        Some("text/html; charset=windows-1252"),
    );
    assert_eq!(encoding, WINDOWS_1252);
    assert!(matches!(text, Cow::Borrowed("<p>plain ascii</p>")));
}

#[test]
fn invalid_utf8_becomes_replacement_characters() {
    let (text, encoding) = decode(b"a\xFFb\xE2\x82c\xF0\x9F\x98", None);
    assert_eq!(encoding, UTF_8);
    assert_eq!(text, "a\u{FFFD}b\u{FFFD}c\u{FFFD}");
}

#[test]
fn empty_input_and_bom_only() {
    assert_eq!(decode(b"", None), (Cow::Borrowed(""), UTF_8));
    assert_eq!(decode(b"\xEF\xBB\xBF", None), (Cow::Borrowed(""), UTF_8));
    assert_eq!(decode(b"\xFF\xFE", None), (Cow::Borrowed(""), UTF_16LE));
}

#[test]
fn content_type_utf16_without_bom_is_honoured() {
    // Out-of-band UTF-16 is trusted (only in-document declarations are overridden).
    let bytes: Vec<u8> = "<p>hi".encode_utf16().flat_map(u16::to_le_bytes).collect();
    let (text, encoding) = decode(&bytes, Some("text/html; charset=utf-16"));
    assert_eq!(encoding, UTF_16LE);
    assert_eq!(text, "<p>hi");
}

// ---- Content-Type parameter parsing ------------------------------------------------------

#[test]
fn charset_param_forms() {
    let cases: &[(&str, Option<&str>)] = &[
        ("text/html; charset=UTF-8", Some("UTF-8")),
        ("text/html;charset=utf-8", Some("utf-8")),
        ("TEXT/HTML; CharSet=Shift_JIS", Some("Shift_JIS")),
        ("text/html; charset=\"windows-1251\"", Some("windows-1251")),
        ("text/html ;  charset=gbk  ", Some("gbk")),
        ("text/html; charset = koi8-r ; q=1", Some("koi8-r")),
        ("text/html;\tcharset=\"koi8-r\"  ; x=y", Some("koi8-r")),
        (
            "text/html; boundary=x; format=flowed; charset=big5",
            Some("big5"),
        ),
        ("text/html; foo; charset=euc-kr", Some("euc-kr")),
        ("text/html;;charset=euc-jp", Some("euc-jp")),
        // The first charset parameter wins.
        (
            "text/html; charset=utf-8; charset=iso-8859-2",
            Some("utf-8"),
        ),
        // A quoted value may hide `;` and `charset=`; it must not be mistaken for a parameter.
        (
            "text/html; foo=\"a;charset=koi8-r\"; charset=gb18030",
            Some("gb18030"),
        ),
        (
            "text/html; foo=\"a\\\";charset=koi8-r\"; charset=gb18030",
            Some("gb18030"),
        ),
        // Escapes inside quoted strings are undone.
        ("text/html; charset=\"utf\\-8\"", Some("utf-8")),
        // Junk after a closing quote is ignored up to the next `;`.
        ("text/html; charset=\"utf-8\"junk; x=y", Some("utf-8")),
        // Unterminated quoted string runs to the end.
        ("text/html; charset=\"utf-8", Some("utf-8")),
        ("text/html", None),
        ("text/html;", None),
        ("text/html; charset", None),
        ("text/html; charset=", None),
        ("text/html; charset=\"\"", None),
        ("text/html; charsets=utf-8", None),
        ("text/html; xcharset=utf-8", None),
        ("", None),
    ];
    for &(content_type, expected) in cases {
        assert_eq!(
            charset_param(content_type).as_deref(),
            expected,
            "Content-Type: {content_type:?}"
        );
    }
}

#[test]
fn charset_param_borrows_unless_escaped() {
    assert!(matches!(
        charset_param("text/html; charset=\"utf-8\""),
        Some(Cow::Borrowed("utf-8"))
    ));
    assert!(matches!(
        charset_param("text/html; charset=\"utf\\-8\""),
        Some(Cow::Owned(_))
    ));
}

#[test]
fn quoted_and_odd_content_types_drive_decoding() {
    let input = encode(WINDOWS_1251, "\u{41f}\u{440}\u{438}\u{432}\u{435}\u{442}");
    for content_type in [
        "text/html; charset=\"windows-1251\"",
        "text/html;CHARSET=cp1251",
        "text/html ; other=\"x;y\" ; charset = \"x-cp1251\" ",
    ] {
        let (text, encoding) = decode(&input, Some(content_type));
        assert_eq!(encoding, WINDOWS_1251, "{content_type}");
        assert_eq!(text, "\u{41f}\u{440}\u{438}\u{432}\u{435}\u{442}");
    }
}

// ---- prescan ----------------------------------------------------------------------------

#[test]
fn meta_charset_variants() {
    let cases: &[(&[u8], &str)] = &[
        (b"<meta charset=koi8-r>", "KOI8-R"),
        (b"<meta charset=\"koi8-r\">", "KOI8-R"),
        (b"<meta charset='koi8-r'>", "KOI8-R"),
        (b"<META CHARSET=KOI8-R>", "KOI8-R"),
        (b"<meta/charset=koi8-r>", "KOI8-R"),
        (b"<meta\n\tcharset = \" koi8-r \" >", "KOI8-R"),
        (
            b"<!doctype html><html lang=ru><head><meta charset=koi8-r>",
            "KOI8-R",
        ),
        (b"<?php x ?><meta charset=koi8-r>", "KOI8-R"),
        (
            b"</p foo='<meta charset=big5>'><meta charset=koi8-r>",
            "KOI8-R",
        ),
        // An end tag's attributes are read like a start tag's, so a quoted `>` stays inside.
        (
            b"</p title='x>' <meta charset=big5>'><meta charset=koi8-r>",
            "KOI8-R",
        ),
        // A leading `=` is part of an attribute name, not a separator.
        (b"<meta = charset=koi8-r>", "KOI8-R"),
        // Only the first of duplicate attributes counts.
        (b"<meta charset=koi8-r charset=big5>", "KOI8-R"),
        // `<metax` is another tag; `<meta` needs whitespace or `/` after it.
        (b"<metax charset=big5><meta charset=koi8-r>", "KOI8-R"),
    ];
    for &(input, expected) in cases {
        assert_eq!(
            encoding_of(input, None),
            expected,
            "{:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn meta_in_comment_is_skipped() {
    assert_eq!(
        encoding_of(b"<!-- <meta charset=big5> --><meta charset=koi8-r>", None),
        "KOI8-R"
    );
    // `<!-->` is a complete comment: the dashes of `<!--` close it.
    assert_eq!(encoding_of(b"<!--><meta charset=koi8-r>", None), "KOI8-R");
    // An unterminated comment swallows the rest.
    assert_eq!(encoding_of(b"<!-- <meta charset=koi8-r>", None), "UTF-8");
}

#[test]
fn meta_inside_another_tags_attribute_is_skipped() {
    let input = b"<div title=\"<meta charset=big5>\"><meta charset=koi8-r>";
    assert_eq!(encoding_of(input, None), "KOI8-R");
    let input = b"<a href='x' data-x=<meta charset=big5>><meta charset=koi8-r>";
    assert_eq!(encoding_of(input, None), "KOI8-R");
}

#[test]
fn meta_beyond_prescan_window_is_ignored() {
    let build = |padding: usize| {
        let mut input = format!("<html><!--{}-->", "x".repeat(padding)).into_bytes();
        input.extend_from_slice(b"<meta charset=koi8-r><p>\xC1");
        input
    };
    let head_len = "<html><!---->".len();
    let meta_len = "<meta charset=koi8-r>".len();
    let fits = build(PRESCAN_BYTES - head_len - meta_len);
    assert_eq!(encoding_of(&fits, None), "KOI8-R");
    // One byte more and the `>` of the meta falls outside the window.
    let straddles = build(PRESCAN_BYTES - head_len - meta_len + 1);
    assert_eq!(encoding_of(&straddles, None), "UTF-8");
    let beyond = build(2 * PRESCAN_BYTES);
    let (text, encoding) = decode(&beyond, None);
    assert_eq!(encoding, UTF_8);
    assert!(text.ends_with('\u{FFFD}'));
}

#[test]
fn http_equiv_content_in_either_order() {
    for input in [
        &b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\">"[..],
        b"<meta content=\"text/html; charset=windows-1251\" http-equiv=\"Content-Type\">",
        b"<meta content='text/html;charset=windows-1251' HTTP-EQUIV=content-type>",
    ] {
        assert_eq!(
            encoding_of(input, None),
            "windows-1251",
            "{:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn content_without_http_equiv_is_ignored() {
    let input =
        b"<meta content=\"text/html; charset=koi8-r\"><meta name=x content=\"charset=big5\">";
    assert_eq!(encoding_of(input, None), "UTF-8");
    let wrong_pragma = b"<meta http-equiv=refresh content=\"0; charset=koi8-r\">";
    assert_eq!(encoding_of(wrong_pragma, None), "UTF-8");
}

#[test]
fn only_the_first_http_equiv_counts() {
    let input =
        b"<meta http-equiv=refresh http-equiv=content-type content='text/html; charset=koi8-r'>";
    assert_eq!(encoding_of(input, None), "UTF-8");
}

#[test]
fn meta_content_charset_extraction() {
    let cases: &[(&str, &str)] = &[
        ("text/html; charset = \"koi8-r\"", "KOI8-R"),
        ("text/html; charset= koi8-r ; foo", "KOI8-R"),
        ("text/html; CHARSET=koi8-r", "KOI8-R"),
        ("text/html;charset=koi8-r;x", "KOI8-R"),
        // `charset` not followed by `=` is skipped and the search goes on.
        ("charsetx; charset=koi8-r", "KOI8-R"),
        ("text/html; charset \"koi8-r\"; charset=big5", "Big5"),
        // An unmatched quote yields nothing.
        ("text/html; charset=\"koi8-r", "UTF-8"),
        ("text/html; charset=", "UTF-8"),
        ("text/html", "UTF-8"),
    ];
    for &(content, expected) in cases {
        let input = format!("<meta http-equiv=content-type content='{content}'>");
        assert_eq!(encoding_of(input.as_bytes(), None), expected, "{content}");
    }
}

#[test]
fn charset_attribute_overrides_content_and_failure_is_sticky() {
    let later_charset =
        b"<meta http-equiv=content-type content=\"text/html; charset=koi8-r\" charset=iso-8859-2>";
    assert_eq!(encoding_of(later_charset, None), "ISO-8859-2");
    // A bad `charset` first makes the meta declare nothing, even with a good `content`.
    let bad_first =
        b"<meta charset=bogus http-equiv=content-type content=\"text/html; charset=koi8-r\">";
    assert_eq!(encoding_of(bad_first, None), "UTF-8");
}

#[test]
fn unknown_meta_label_moves_on_to_the_next_meta() {
    assert_eq!(
        encoding_of(b"<meta charset=bogus><meta charset=koi8-r>", None),
        "KOI8-R"
    );
}

#[test]
fn utf16_and_x_user_defined_in_meta_are_remapped() {
    for label in ["utf-16", "UTF-16LE", "utf-16be"] {
        let input = format!("<meta charset={label}><p>caf\u{e9}");
        let (text, encoding) = decode(input.as_bytes(), None);
        assert_eq!(encoding, UTF_8, "{label}");
        assert!(text.ends_with("caf\u{e9}"));
    }
    assert_eq!(
        encoding_of(b"<meta charset=x-user-defined>", None),
        "windows-1252"
    );
    assert_eq!(
        encoding_of(
            b"<meta http-equiv=content-type content='text/html; charset=utf-16'>",
            None
        ),
        "UTF-8"
    );
}

#[test]
fn truncated_meta_declares_nothing() {
    for input in [
        &b"<meta charset=\"koi8-r"[..],
        b"<meta charset=koi8-r",
        b"<meta charset=koi8-r ",
        b"<meta ",
    ] {
        assert_eq!(prescan(input), None, "{:?}", String::from_utf8_lossy(input));
    }
}

#[test]
fn xml_declaration_is_a_fallback() {
    assert_eq!(
        encoding_of(
            b"<?xml version=\"1.0\" encoding=\"windows-1251\"?><html>",
            None
        ),
        "windows-1251"
    );
    assert_eq!(
        encoding_of(b"<?xml version='1.0' encoding = 'koi8-r' ?>", None),
        "KOI8-R"
    );
    // A meta still wins over the XML declaration.
    assert_eq!(
        encoding_of(
            b"<?xml version=\"1.0\" encoding=\"windows-1251\"?><meta charset=koi8-r>",
            None
        ),
        "KOI8-R"
    );
    // The declaration must open the document; its label must not contain spaces.
    assert_eq!(
        encoding_of(b" <?xml version=\"1.0\" encoding=\"koi8-r\"?>", None),
        "UTF-8"
    );
    assert_eq!(
        encoding_of(b"<?xml version=\"1.0\" encoding=\" koi8-r\"?>", None),
        "UTF-8"
    );
}

#[test]
fn utf16_xml_declaration_without_bom() {
    let le: Vec<u8> = "<?xml version=\"1.0\"?><p>\u{4e2d}"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let (text, encoding) = decode(&le, None);
    assert_eq!(encoding, UTF_16LE);
    assert!(text.ends_with("<p>\u{4e2d}"));
    let be: Vec<u8> = "<?xml?>"
        .encode_utf16()
        .flat_map(u16::to_be_bytes)
        .collect();
    assert_eq!(encoding_of(&be, None), "UTF-16BE");
}

// ---- round trips ------------------------------------------------------------------------

#[test]
fn windows_1252_round_trip() {
    let body = "<p>Caf\u{e9} \u{2013} \u{201c}quoted\u{201d} \u{20ac}5 \u{2122}</p>";
    let bytes = encode(WINDOWS_1252, body);
    // `iso-8859-1` is a WHATWG label of windows-1252.
    let (text, encoding) = decode(&bytes, Some("text/html; charset=ISO-8859-1"));
    assert_eq!(encoding, WINDOWS_1252);
    assert_eq!(text, body);
}

#[test]
fn shift_jis_round_trip_via_meta() {
    let doc = "<meta charset=\"Shift_JIS\"><p>\u{65e5}\u{672c}\u{8a9e}\u{306e}\u{30c6}\u{30ad}\u{30b9}\u{30c8}\u{ff01}</p>";
    let bytes = encode(SHIFT_JIS, doc);
    let (text, encoding) = decode(&bytes, None);
    assert_eq!(encoding, SHIFT_JIS);
    assert_eq!(text, doc);
}

#[test]
fn gb18030_round_trip_including_four_byte_sequences() {
    // U+20000 and U+1F600 need GB18030's four-byte form.
    let doc = "<meta http-equiv=Content-Type content=\"text/html; charset=gb18030\"><p>\u{4e2d}\u{6587} \u{20000} \u{1F600}</p>";
    let bytes = encode(GB18030, doc);
    let (text, encoding) = decode(&bytes, None);
    assert_eq!(encoding, GB18030);
    assert_eq!(text, doc);
}

// ---- robustness -------------------------------------------------------------------------

/// Fragments that steer the prescan into its less travelled states.
fn markup_bytes() -> impl Strategy<Value = Vec<u8>> {
    const PIECES: &[&[u8]] = &[
        b"<meta ",
        b"<META/",
        b"charset",
        b"http-equiv=content-type ",
        b"content=",
        b"text/html; charset=",
        b"<!--",
        b"-->",
        b"<!",
        b"</",
        b"<?xml ",
        b"encoding=",
        b"<a ",
        b"=",
        b"\"",
        b"'",
        b">",
        b"/",
        b" ",
        b"koi8-r",
        b"utf-16",
        b"x-user-defined",
        b"\xEF\xBB\xBF",
        b"\xFE\xFF",
        b"\0",
        b"\xC3\xA9",
        b"\xFF",
    ];
    let piece = prop::sample::select(PIECES);
    prop::collection::vec(piece, 0..60).prop_map(|pieces| pieces.concat())
}

fn content_types() -> impl Strategy<Value = Option<String>> {
    prop::option::of(prop_oneof![
        any::<String>(),
        "[a-z/]{0,10}(;[ \t]*[a-zA-Z]{0,8}[ ]?=[ ]?(\"[^\"]{0,12}\"?|[^;]{0,12}))*",
        prop::sample::select(vec![
            "text/html; charset=utf-8".to_owned(),
            "text/html; charset=\"shift_jis\"".to_owned(),
            "text/html; charset=utf-16be".to_owned(),
            "text/html; charset=\"\\".to_owned(),
            "text/html; charset=\"\u{e9}\\\u{e9}".to_owned(),
        ]),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Never panics; UTF-8 results agree with the standard library's lossy decoder.
    #[test]
    fn arbitrary_input_never_panics(
        input in prop_oneof![prop::collection::vec(any::<u8>(), 0..3000), markup_bytes()],
        content_type in content_types(),
    ) {
        let (text, encoding) = decode(&input, content_type.as_deref());
        if encoding == UTF_8 {
            let body = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&input);
            prop_assert_eq!(text, String::from_utf8_lossy(body));
        } else {
            // Whatever won, the text is what that encoding makes of the (BOM-less) bytes.
            let (expected, _, _) = encoding.decode(&input);
            prop_assert_eq!(text, expected);
        }
    }

    /// Any representable text round-trips through any ASCII-compatible encoding named by
    /// `<meta>`, by Content-Type, or both.
    #[test]
    fn declared_legacy_encodings_round_trip(
        body in "[ -~\u{a0}-\u{17f}\u{391}-\u{3c9}\u{410}-\u{44f}\u{3041}-\u{30ff}\u{4e00}-\u{4e80}]{0,80}",
        label in prop::sample::select(vec![
            "windows-1252", "iso-8859-2", "windows-1251", "koi8-r", "shift_jis",
            "euc-jp", "euc-kr", "gbk", "gb18030", "big5", "iso-8859-7",
        ]),
        via_meta in any::<bool>(),
    ) {
        let encoding = Encoding::for_label(label.as_bytes()).expect("known label");
        // Keep only what survives this encoding (Shift_JIS writes U+00A5 as 0x5C, which
        // reads back as a backslash, for one).
        let body: String = body
            .chars()
            .filter(|c| {
                let s = c.to_string();
                let (bytes, _, unmappable) = encoding.encode(&s);
                !unmappable && encoding.decode_without_bom_handling(&bytes).0 == s
            })
            .collect();
        let doc = if via_meta {
            format!("<meta charset={label}><p>{body}")
        } else {
            format!("<p>{body}")
        };
        let (bytes, _, unmappable) = encoding.encode(&doc);
        prop_assert!(!unmappable);
        let content_type = (!via_meta).then(|| format!("text/html; charset=\"{label}\""));
        let (text, used) = decode(&bytes, content_type.as_deref());
        prop_assert_eq!(used, encoding);
        prop_assert_eq!(text, doc.as_str());
    }
}
