//! List structure that CommonMark readers must see as written: items that cannot interrupt
//! a paragraph, empty items, and nesting past the writer's depth cap. A wrong structure
//! here is a safety bug, not only a fidelity one: a fence that a reader does not see as a
//! fence turns the page's code samples into live Markdown (raw HTML, links).
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

mod common;
use common::md;

/// The text of every fenced code block, as a CommonMark reader sees it.
fn code_blocks(md: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for event in Parser::new(md) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) => current = Some(String::new()),
            Event::Text(t) => {
                if let Some(c) = current.as_mut() {
                    c.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => blocks.extend(current.take()),
            _ => {}
        }
    }
    blocks
}

/// Ordered-list start numbers and item counts, outermost first in document order.
fn lists(md: &str) -> Vec<(Option<u64>, usize)> {
    let mut out = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    for event in Parser::new(md) {
        match event {
            Event::Start(Tag::List(start)) => {
                open.push(out.len());
                out.push((start, 0));
            }
            Event::Start(Tag::Item) => {
                if let Some(&i) = open.last() {
                    out[i].1 += 1;
                }
            }
            Event::End(TagEnd::List(_)) => {
                open.pop();
            }
            _ => {}
        }
    }
    out
}

fn assert_code_survives(html: &str, code: &str) {
    let out = md(html);
    let read = code_blocks(&out);
    assert_eq!(read, vec![code.to_string()], "in:\n{out}");
    assert!(
        !Parser::new(&out).any(|e| matches!(e, Event::Html(_) | Event::InlineHtml(_))),
        "raw HTML read from:\n{out}"
    );
}

const CODE: &str = "a\n[x](javascript:alert(1))\n<img src=x onerror=alert(1)>\n";
const PRE: &str = "<pre>a\n[x](javascript:alert(1))\n&lt;img src=x onerror=alert(1)&gt;</pre>";

#[test]
fn nested_ordered_list_not_starting_at_one_is_a_list() {
    let html = format!("<ul><li>a<ol start=3><li>{PRE}</ol></ul>");
    assert_code_survives(&html, CODE);
    assert_eq!(lists(&md(&html)), vec![(None, 1), (Some(3), 1)]);
}

#[test]
fn nested_list_starting_at_one_stays_tight() {
    let out = md("<ul><li>a<ol><li>b</li><li>c</li></ol></li><li>d</li></ul>");
    assert_eq!(out, "- a\n  1. b\n  2. c\n- d\n");
}

#[test]
fn empty_first_item_does_not_glue_the_list_to_the_paragraph() {
    let html = format!("l<ol><li><li>{PRE}</ol>");
    assert_code_survives(&html, CODE);
    assert_eq!(lists(&md(&html)), vec![(Some(2), 1)]);
}

#[test]
fn later_items_of_a_tight_list_stay_tight() {
    let out = md("<p>intro</p><ol start=4><li>x</li><li>y</li></ol>");
    assert_eq!(out, "intro\n\n4. x\n5. y\n");
}

#[test]
fn ordered_item_after_quote_in_item_is_separated() {
    let html = format!("<ul><li>a<ol start=2><li><blockquote>{PRE}</blockquote></ol></ul>");
    let out = md(&html);
    assert_eq!(code_blocks(&out), vec![CODE.to_string()], "in:\n{out}");
}

#[test]
// Below depth::MAX_OPEN (512 open elements), past which blocks are flattened to text.
fn fences_survive_past_the_depth_cap() {
    for depth in [23, 24, 25, 26, 40, 200] {
        for (open, close) in [("<ul><li>", "</li></ul>"), ("<ol><li>", "</li></ol>")] {
            let html = format!("{}{PRE}{}", open.repeat(depth), close.repeat(depth));
            assert_code_survives(&html, CODE);
        }
    }
}

#[test]
fn items_past_the_depth_cap_keep_their_text_in_order() {
    let depth = 30;
    let mut html = String::new();
    for i in 0..depth {
        html.push_str(&format!("<ul><li>item{i}"));
    }
    html.push_str(&"</li></ul>".repeat(depth));
    let out = md(&html);
    let words: Vec<String> = Parser::new(&out)
        .filter_map(|e| match e {
            Event::Text(t) => Some(t.to_string()),
            _ => None,
        })
        .collect();
    let expected: Vec<String> = (0..depth).map(|i| format!("item{i}")).collect();
    assert_eq!(words, expected, "in:\n{out}");
    // Output stays linear: no line is indented by more than the capped prefixes.
    assert!(out.lines().all(|l| l.len() < 80), "in:\n{out}");
}
