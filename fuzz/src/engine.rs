//! The `engine_convert` input format and the invariants checked after every conversion.
//!
//! Shared by the fuzz target and the native replay (`engine/tests/fuzz_regressions.rs`
//! includes this file by path), so a saved input is checked the same way in both. It needs
//! only `agent_markdown` and `pulldown_cmark`, which the engine's tests already have.
//!
//! Input layout (hand-rolled rather than `arbitrary`, so seeds stay readable HTML after a
//! three-byte header and the replay needs no extra dependency):
//!
//! | byte | meaning |
//! |---|---|
//! | 0 | flags: bit 0 set = no front matter, bit 1 set = no pruning |
//! | 1 | `Content-Type`: `n % (CONTENT_TYPES.len() + 2)`; 0 = absent, 1 = arbitrary (below), else `CONTENT_TYPES[n - 2]` |
//! | 2 | base URL: the same scheme over `BASE_URLS` |
//! | … | for each "arbitrary" above, in that order: a length byte, then that many bytes (lossy UTF-8) |
//! | rest | the document |
//!
//! Missing header bytes read as 0 (front matter and pruning on, no type, no base URL).

use agent_markdown::dom::Dom;
use agent_markdown::{convert, Options, Output};
use pulldown_cmark::{Event, Options as MdOptions, Parser, Tag};

/// Realistic and hostile `Content-Type` values: charset labels, lies, odd quoting.
pub const CONTENT_TYPES: &[&str] = &[
    "text/html",
    "text/html; charset=utf-8",
    "text/html; charset=\"UTF-8\"",
    "text/html;charset=ISO-8859-1",
    "text/html; charset=windows-1252",
    "text/html; charset=shift_jis",
    "text/html; charset=euc-jp",
    "text/html; charset=gb18030",
    "text/html; charset=big5",
    "text/html; charset=koi8-r",
    "text/html; charset=utf-16le",
    "text/html; charset=utf-16be",
    "text/html; charset=utf-16",
    "text/html; charset=x-user-defined",
    "text/html; charset=replacement",
    "text/html; charset=iso-2022-jp",
    "text/html; charset=bogus",
    "text/html; charset=",
    "text/html; charset=\"utf-8",
    "text/html; charset=\"u\\tf-8\"",
    "text/html; foo; charset=latin1; charset=utf-8",
    "application/xhtml+xml; charset=utf-8",
    "text/plain",
    ";charset=utf-16le",
    "",
];

/// Page URLs: ordinary, odd and hostile (the engine must never let them produce an unsafe
/// link or a broken front matter).
pub const BASE_URLS: &[&str] = &[
    "https://example.com/dir/page.html",
    "http://127.0.0.1:10000/docs/a%20b?q=1&r=2#frag",
    "https://xn--bcher-kva.example/ü/€?x=\"y\"",
    "https://example.com/a(b)c/[d]",
    "javascript:alert(1)//",
    "data:text/html,<script>alert(1)</script>",
    "file:///etc/passwd",
    "mailto:a@example.com",
    "not a url",
    "https://example.com/\n---\ninjected: true",
    "https://user:pass@example.com:8080/",
    "",
];

/// One decoded fuzz input.
#[derive(Debug)]
pub struct Case<'a> {
    pub html: &'a [u8],
    pub opts: Options,
}

/// Decode the layout described in the module docs. Total: every byte string is a case.
pub fn decode_case(data: &[u8]) -> Case<'_> {
    let flags = data.first().copied().unwrap_or(0);
    let ct_sel = data.get(1).copied().unwrap_or(0);
    let base_sel = data.get(2).copied().unwrap_or(0);
    let mut rest = data.get(3..).unwrap_or_default();
    let mut pick = |sel: u8, dict: &[&str]| -> Option<String> {
        match usize::from(sel) % (dict.len() + 2) {
            0 => None,
            1 => {
                let len = usize::from(rest.first().copied().unwrap_or(0));
                let body = rest.get(1..).unwrap_or_default();
                let (value, tail) = body.split_at(len.min(body.len()));
                rest = tail;
                Some(String::from_utf8_lossy(value).into_owned())
            }
            n => dict.get(n - 2).map(|s| (*s).to_owned()),
        }
    };
    let content_type = pick(ct_sel, CONTENT_TYPES);
    let base_url = pick(base_sel, BASE_URLS);
    Case {
        html: rest,
        opts: Options {
            base_url,
            content_type,
            front_matter: flags & 1 == 0,
            prune: flags & 2 == 0,
        },
    }
}

/// Inputs up to this size are converted twice to check that output (and so the ETag) is
/// deterministic; larger ones once, to keep the fuzzer fast.
const DETERMINISM_CHECK_BYTES: usize = 8192;

/// Convert one fuzz input and check every invariant. `Err` describes the first violation.
pub fn check(data: &[u8]) -> Result<(), String> {
    let case = decode_case(data);
    let out = convert(case.html, &case.opts);
    check_output(&out, &case.opts)?;
    if case.html.len() <= DETERMINISM_CHECK_BYTES {
        let again = convert(case.html, &case.opts);
        if again != out {
            return Err(format!(
                "conversion is not deterministic:\n{:?}\nthen\n{:?}",
                out.markdown, again.markdown
            ));
        }
        check_tree_builders(case.html, case.opts.content_type.as_deref())?;
    }
    Ok(())
}

/// The engine's tree-construction fast path builds exactly html5ever's tree, wherever it
/// builds one.
fn check_tree_builders(html: &[u8], content_type: Option<&str>) -> Result<(), String> {
    let (text, _) = agent_markdown::decode::decode(html, content_type);
    match Dom::parse_tidy(&text) {
        Some(fast) if fast != Dom::parse_with_tree_builder(&text) => Err(format!(
            "the fast tree builder and html5ever's build different trees for {text:?}"
        )),
        _ => Ok(()),
    }
}

/// The invariants of one [`Output`].
pub fn check_output(out: &Output, opts: &Options) -> Result<(), String> {
    let md = out.markdown.as_str();
    if !is_etag(&out.etag) {
        return Err(format!("malformed etag {:?}", out.etag));
    }
    let expected = agent_markdown::meta::etag(md.as_bytes());
    if out.etag != expected {
        return Err(format!(
            "etag {} is not the markdown's {expected}",
            out.etag
        ));
    }
    if out.tokens != agent_markdown::tokens::estimate(md) {
        return Err(format!(
            "tokens {} is not the estimate of the markdown",
            out.tokens
        ));
    }
    if !md.is_empty() && (!md.ends_with('\n') || md.ends_with("\n\n")) {
        return Err(format!("output must end with exactly one newline:\n{md:?}"));
    }
    // SECURITY.md: C0 (except tab and newline), DEL and C1 never reach the output.
    if let Some((at, c)) = md
        .char_indices()
        .find(|&(_, c)| c.is_control() && !matches!(c, '\n' | '\t'))
    {
        return Err(format!(
            "control character {c:?} at byte {at} of the output:\n{md:?}"
        ));
    }
    if !opts.front_matter && md.lines().next().map(str::trim_end) == Some("---") {
        return Err(format!(
            "opens with a YAML fence without front matter:\n{md}"
        ));
    }
    check_markdown_events(md)
}

fn gfm() -> MdOptions {
    MdOptions::ENABLE_TABLES
        | MdOptions::ENABLE_STRIKETHROUGH
        | MdOptions::ENABLE_TASKLISTS
        | MdOptions::ENABLE_YAML_STYLE_METADATA_BLOCKS
}

/// `"` + 32 lowercase hex digits + `"`.
pub fn is_etag(etag: &str) -> bool {
    etag.len() == 34
        && etag.starts_with('"')
        && etag.ends_with('"')
        && etag
            .get(1..33)
            .is_some_and(|hex| hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
}

/// Read the output the way a GFM reader does: no raw HTML, and every link or image
/// destination has no scheme or an allowed one (SECURITY.md: the engine's allowlist, plus
/// small raster `data:image/*` for images).
pub fn check_markdown_events(md: &str) -> Result<(), String> {
    for event in Parser::new_ext(md, gfm()) {
        match event {
            Event::Html(h) | Event::InlineHtml(h) => {
                return Err(format!(
                    "raw HTML {h:?} reaches a Markdown reader in:\n{md}"
                ))
            }
            Event::Start(Tag::Link { dest_url, .. }) => safe_destination(&dest_url, false, md)?,
            Event::Start(Tag::Image { dest_url, .. }) => safe_destination(&dest_url, true, md)?,
            _ => {}
        }
    }
    Ok(())
}

const LINK_SCHEMES: &[&str] = &[
    "http", "https", "mailto", "tel", "ftp", "ftps", "sms", "xmpp", "irc", "ircs",
];

/// A destination as a browser would act on it: surrounding C0/space trimmed and tabs and
/// newlines removed (how `java\tscript:` still runs), then its scheme checked.
fn safe_destination(dest: &str, image: bool, md: &str) -> Result<(), String> {
    let cleaned: String = dest
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let lower = cleaned.to_ascii_lowercase();
    let Some((scheme, _)) = lower.split_once(':') else {
        return Ok(());
    };
    let is_scheme = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let allowed = !is_scheme
        || LINK_SCHEMES.contains(&scheme)
        || (image && lower.starts_with("data:image/") && !lower.starts_with("data:image/svg"));
    if allowed {
        Ok(())
    } else {
        Err(format!(
            "unsafe {} destination {dest:?} in:\n{md}",
            if image { "image" } else { "link" }
        ))
    }
}

/// Encode a case in the layout [`decode_case`] reads (used to write seeds).
pub fn encode_case(
    html: &[u8],
    front_matter: bool,
    prune: bool,
    content_type: Option<&str>,
    base_url: Option<&str>,
) -> Vec<u8> {
    let mut out = vec![u8::from(!front_matter) | (u8::from(!prune) << 1)];
    let mut tail = Vec::new();
    for (value, dict) in [(content_type, CONTENT_TYPES), (base_url, BASE_URLS)] {
        let sel = match value {
            None => 0,
            Some(v) => match dict.iter().position(|d| *d == v) {
                Some(i) => i + 2,
                None => {
                    let bytes = v.as_bytes();
                    let len = bytes.len().min(255);
                    tail.push(len as u8);
                    tail.extend_from_slice(&bytes[..len]);
                    1
                }
            },
        };
        out.push(sel as u8);
    }
    out.extend(tail);
    out.extend_from_slice(html);
    out
}
