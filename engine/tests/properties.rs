//! Property tests on generated HTML: conversion never panics, output is bounded and
//! well-formed, and no raw HTML or unsafe URL ever reaches a Markdown reader.
use agent_markdown::{convert, Options};
use proptest::prelude::*;
use pulldown_cmark::{Event, Options as MdOptions, Parser, Tag as MdTag};

/// Pieces of HTML chosen to collide: structure, inline markup, metacharacters, entity and
/// URL tricks, raw-text elements, misnesting.
fn fragment() -> impl Strategy<Value = String> {
    let tags = prop::sample::select(vec![
        "div",
        "p",
        "span",
        "b",
        "i",
        "em",
        "code",
        "pre",
        "ul",
        "ol",
        "li",
        "table",
        "tr",
        "td",
        "th",
        "thead",
        "blockquote",
        "h1",
        "h2",
        "h3",
        "a",
        "dl",
        "dt",
        "dd",
        "sup",
        "sub",
        "del",
        "details",
        "summary",
        "figure",
        "figcaption",
        "q",
        "kbd",
        "section",
        "article",
        "main",
        "nav",
        "template",
        "svg",
        "math",
        "select",
        "button",
        "textarea",
        "script",
        "style",
        "noscript",
        "iframe",
        "video",
        "object",
        "caption",
    ]);
    let text = prop::sample::select(vec![
        "word",
        " ",
        "\n",
        "*",
        "_",
        "`",
        "```",
        "~~~",
        "[",
        "]",
        "(",
        ")",
        "!",
        "<",
        ">",
        "&lt;",
        "&gt;",
        "&amp;",
        "&#96;",
        "#",
        "1.",
        "-",
        "+",
        "|",
        "\\",
        "---",
        "***",
        ":",
        "javascript:alert(1)",
        "img src=x onerror=alert(1)",
        "\u{0}",
        "\u{1b}[2J",
        "é",
        "字",
        "\u{2028}",
        "\u{feff}",
        "&#x6A;avascript:",
        "<!--",
        "-->",
        "]]>",
        "\"",
        "'",
    ]);
    let url = prop::sample::select(vec![
        "https://example.com/a b",
        "javascript:alert(1)",
        "JaVaScRiPt:x",
        "java&#x09;script:x",
        "java&#1;script:x",
        "javascript&amp;colon;x",
        "data:text/html,<script>",
        "data:image/png;base64,AAAA",
        "vbscript:x",
        "/rel(ative)",
        "x\\y",
        "#frag",
        "mailto:a@b.c",
        "file:///etc/passwd",
    ]);
    let attr = prop::sample::select(vec![
        "",
        " hidden",
        " aria-hidden=true",
        " style='display:none'",
        " class='language-rust'",
        " colspan=3",
        " rowspan=2",
        " start=7",
        " open",
    ]);
    prop_oneof![
        (tags.clone(), attr).prop_map(|(t, a)| format!("<{t}{a}>")),
        tags.prop_map(|t| format!("</{t}>")),
        text.prop_map(str::to_string),
        url.clone()
            .prop_map(|u| format!("<a href=\"{u}\">link</a>")),
        url.clone()
            .prop_map(|u| format!("<img src=\"{u}\" alt=\"[a](b)\">")),
        url.prop_map(|u| format!("<base href=\"{u}\">")),
    ]
}

fn document() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..120).prop_map(|parts| parts.concat())
}

fn check(input: &[u8], opts: &Options) -> Result<(), TestCaseError> {
    let out = convert(input, opts);
    let md = &out.markdown;
    prop_assert!(md.is_empty() || (md.ends_with('\n') && !md.ends_with("\n\n")));
    prop_assert!(
        md.len() <= input.len() * 4 + 4096,
        "output {} bytes for {} input bytes",
        md.len(),
        input.len()
    );
    // Only real front matter may open with a YAML fence line.
    prop_assert!(md.lines().next().map(str::trim_end) != Some("---") || opts.front_matter);
    prop_assert!(md
        .chars()
        .all(|c| !c.is_control() || matches!(c, '\n' | '\t' | '\r')));
    for line in md.lines() {
        prop_assert!(!line.ends_with(' ') || line.trim().is_empty() || in_code(md, line));
    }
    let md_opts = MdOptions::ENABLE_TABLES
        | MdOptions::ENABLE_STRIKETHROUGH
        | MdOptions::ENABLE_TASKLISTS
        | MdOptions::ENABLE_YAML_STYLE_METADATA_BLOCKS;
    for event in Parser::new_ext(md, md_opts) {
        match event {
            Event::Html(h) | Event::InlineHtml(h) => {
                prop_assert!(false, "raw HTML reached the reader: {h:?}\n{md}")
            }
            Event::Start(MdTag::Link { dest_url, .. }) => safe_url(&dest_url, false, md)?,
            Event::Start(MdTag::Image { dest_url, .. }) => safe_url(&dest_url, true, md)?,
            _ => {}
        }
    }
    Ok(())
}

/// Lines inside fenced code keep their trailing spaces.
fn in_code(md: &str, line: &str) -> bool {
    md.contains("```") || md.contains("~~~") || line.starts_with("    ")
}

fn safe_url(url: &str, image: bool, md: &str) -> Result<(), TestCaseError> {
    let lower: String = url
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .collect::<String>()
        .to_ascii_lowercase();
    let ok = if let Some((scheme, _)) = lower.split_once(':') {
        let is_scheme = scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
        !is_scheme
            || matches!(scheme, "http" | "https" | "mailto" | "tel" | "ftp")
            || (image && lower.starts_with("data:image/png"))
    } else {
        true
    };
    prop_assert!(ok, "unsafe URL {url:?} in\n{md}");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_html_converts_safely(html in document(), prune in any::<bool>(), fm in any::<bool>()) {
        let opts = Options {
            base_url: Some("https://example.com/dir/page.html".into()),
            prune,
            front_matter: fm,
            ..Options::default()
        };
        check(html.as_bytes(), &opts)?;
        let no_base = Options { base_url: None, ..opts };
        check(html.as_bytes(), &no_base)?;
    }

    #[test]
    fn random_bytes_convert_safely(bytes in prop::collection::vec(any::<u8>(), 0..2048), ct in prop::sample::select(vec![
        None, Some("text/html; charset=utf-8"), Some("text/html; charset=shift_jis"),
        Some("text/html; charset=utf-16le"), Some("text/html; charset=bogus"),
    ])) {
        let opts = Options {
            content_type: ct.map(str::to_string),
            ..Options::default()
        };
        check(&bytes, &opts)?;
    }
}
