//! Front matter and body joined exactly: the body is rendered straight after the front matter.

use agent_markdown::{convert, Options};

fn md(html: &str, base: Option<&str>, front_matter: bool) -> String {
    let opts = Options {
        base_url: base.map(str::to_string),
        front_matter,
        ..Options::default()
    };
    convert(html.as_bytes(), &opts).markdown
}

#[test]
fn front_matter_then_blank_line_then_body() {
    let out = md(
        "<title>T</title><p>Hello</p>",
        Some("https://example.com/"),
        true,
    );
    assert_eq!(
        out,
        "---\ntitle: \"T\"\nurl: \"https://example.com/\"\n---\n\nHello\n"
    );
}

#[test]
fn empty_body_keeps_a_front_matter_that_says_something() {
    let out = md("<title>T</title><p> </p>", None, true);
    assert_eq!(out, "---\ntitle: \"T\"\n---\n");
}

#[test]
fn empty_page_with_only_the_callers_url_stays_empty() {
    assert_eq!(md("<p> </p>", Some("https://example.com/"), true), "");
}

#[test]
fn without_front_matter_only_the_body() {
    let out = md(
        "<title>T</title><p>Hello</p><hr><hr>",
        Some("https://example.com/"),
        false,
    );
    assert_eq!(out, "Hello\n");
}

#[test]
fn trailing_rules_trimmed_from_the_body_only() {
    let out = md("<title>T</title><p>Hi</p><hr><hr>", None, true);
    assert_eq!(out, "---\ntitle: \"T\"\n---\n\nHi\n");
    let out = md("<title>T</title><hr>", None, true);
    assert_eq!(out, "---\ntitle: \"T\"\n---\n\n***\n");
}
