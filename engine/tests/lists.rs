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
fn an_item_outside_any_list_is_a_list_of_its_own() {
    // TypeDoc pages and malformed HTML put an `<li>` straight in a `<div>`: written tight
    // between blocks, it joined the heading above, and the paragraph after it became the
    // item's lazy continuation.
    let out = md("<h1>Function freeze</h1><li>Defined in utils/common.ts:197</li><p>after</p>");
    assert_eq!(
        out,
        "# Function freeze\n\n- Defined in utils/common.ts:197\n\nafter\n"
    );
    assert_eq!(lists(&out), vec![(None, 1)]);
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

/// For each list in document order: whether a CommonMark reader sees it loose (its items'
/// text wrapped in paragraphs).
fn looseness(md: &str) -> Vec<bool> {
    let mut out = Vec::new();
    // Per open list: its index in `out`, and how many quotes deep in it we are.
    let mut open: Vec<usize> = Vec::new();
    let mut depth_in_item: Vec<usize> = Vec::new();
    for event in Parser::new(md) {
        match event {
            Event::Start(Tag::List(_)) => {
                open.push(out.len());
                out.push(false);
                depth_in_item.push(0);
            }
            Event::End(TagEnd::List(_)) => {
                open.pop();
                depth_in_item.pop();
            }
            Event::Start(Tag::Paragraph) => {
                if let (Some(&i), Some(&0)) = (open.last(), depth_in_item.last()) {
                    if let Some(l) = out.get_mut(i) {
                        *l = true;
                    }
                }
            }
            Event::Start(Tag::BlockQuote(_)) => {
                if let Some(d) = depth_in_item.last_mut() {
                    *d += 1;
                }
            }
            Event::End(TagEnd::BlockQuote(_)) => {
                if let Some(d) = depth_in_item.last_mut() {
                    *d = d.saturating_sub(1);
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn items_holding_paragraphs_make_a_loose_list() {
    // Sphinx writes `<li><p>`; CommonMark gives items paragraphs only in a loose list.
    let out = md("<ul><li><p>a</p></li><li><p>b</p></li></ul><ol><li>c</li><li>d</li></ol>");
    assert_eq!(looseness(&out), vec![true, false], "{out}");
    assert_eq!(out, "- a\n\n- b\n\n1. c\n2. d\n");
    // One item: the blank line before its nested list is what makes it loose.
    let out = md("<ol><li><p>foo</p><ul><li>bar</li><li>baz</li></ul></li></ol>");
    assert_eq!(looseness(&out), vec![true, false], "{out}");
}

#[test]
fn blocks_in_a_tight_item_keep_the_list_tight() {
    // Code, headings and quotes follow text on the next line; text follows a heading or a
    // fence: no blank line, which would make the whole list loose.
    for html in [
        "<ul><li>Install:<pre>pip install x</pre></li><li>Run:<pre>x</pre></li></ul>",
        "<ul><li><h2>Bar</h2>baz</li><li>c</li></ul>",
        "<ul><li>a<blockquote><p>b</p></blockquote><pre><code>c</code></pre></li><li>d</li></ul>",
        "<ul><li><pre>a</pre>then text</li><li>d</li></ul>",
    ] {
        let out = md(html);
        assert_eq!(looseness(&out), vec![false], "{html}\n{out}");
    }
    let out = md("<ul><li>Install:<pre>pip install x</pre></li></ul>");
    assert_eq!(
        code_blocks(&out),
        vec!["pip install x\n".to_string()],
        "{out}"
    );
}

#[test]
fn blocks_a_line_would_continue_keep_their_blank_line() {
    // Text after a nested list or quote, a quote after a quote and anything after a table
    // would be read as part of them: the blank line stays (and the list reads loose).
    for (html, expected) in [
        (
            "<ul><li>x<ul><li>y</li></ul>z</li></ul>",
            "- x\n  - y\n\n  z\n",
        ),
        (
            "<ul><li>a<blockquote>q</blockquote><blockquote>r</blockquote></li></ul>",
            "- a\n  > q\n\n  > r\n",
        ),
        (
            "<ul><li>a<blockquote>q</blockquote>b</li></ul>",
            "- a\n  > q\n\n  b\n",
        ),
        (
            "<ul><li>a<table><tr><th>h<tr><td>c</table><pre>p</pre></li></ul>",
            "- a\n\n  | h |\n  | --- |\n  | c |\n\n  ```\n  p\n  ```\n",
        ),
        ("<ul><li>a<div>b</div></li></ul>", "- a\n\n  b\n"),
    ] {
        assert_eq!(md(html), expected, "{html}");
    }
}

/// Each item's text as a reader sees it, list by list in the order they open (an empty item
/// is an empty string); text outside lists is left out.
fn items(md: &str) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    for event in Parser::new(md) {
        match event {
            Event::Start(Tag::List(_)) => {
                open.push(out.len());
                out.push(Vec::new());
            }
            Event::End(TagEnd::List(_)) => {
                open.pop();
            }
            Event::Start(Tag::Item) => {
                if let Some(l) = open.last().and_then(|&i| out.get_mut(i)) {
                    l.push(String::new());
                }
            }
            Event::Text(t) => {
                let list = open.last().and_then(|&i| out.get_mut(i));
                if let Some(item) = list.and_then(|l| l.last_mut()) {
                    item.push_str(&t);
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn empty_items_stay_items() {
    // CommonMark spec examples 281 and 283, run backwards.
    let out = md("<ul><li>foo</li><li></li><li>bar</li></ul>");
    assert_eq!(out, "- foo\n-\n- bar\n");
    assert_eq!(items(&out), vec![vec!["foo", "", "bar"]]);
    let out = md("<ol><li>foo</li><li></li><li>bar</li></ol>");
    assert_eq!(out, "1. foo\n2.\n3. bar\n");
    assert_eq!(lists(&out), vec![(Some(1), 3)]);
    // Loose (example 315), trailing, and nested.
    let out = md("<ul><li><p>a</p></li><li></li><li><p>c</p></li></ul>");
    assert_eq!(items(&out), vec![vec!["a", "", "c"]]);
    let out = md("<ul><li>a</li><li></li></ul><p>b</p>");
    assert_eq!(items(&out), vec![vec!["a", ""]]);
    let out = md("<ul><li>a<ul><li>b</li><li></li><li>c</li></ul></li></ul>");
    assert_eq!(items(&out), vec![vec!["a"], vec!["b", "", "c"]]);
}

#[test]
fn items_whose_text_was_dropped_write_nothing() {
    // An item that held only a control, hidden text or boilerplate is no empty item of the
    // page's: a bare `-` between its neighbours would be all the Markdown said of it. An
    // item empty in the page still is one.
    let out = md("<ul><li>foo</li><li><button>Share</button></li>\
                  <li><span style=\"display:none\">secret</span></li><li>bar</li></ul>");
    assert_eq!(out, "- foo\n- bar\n");
    let out = md("<ul><li>foo</li><li><button>Share</button></li><li></li><li>bar</li></ul>");
    assert_eq!(out, "- foo\n-\n- bar\n");
    // Nested: the inner list goes with its only item, the outer item keeps its text.
    let out = md("<ul><li>a<ul><li><button>Edit</button></li></ul></li><li>b</li></ul>");
    assert_eq!(items(&out), vec![vec!["a", "b"]], "{out}");
}

#[test]
fn empty_items_before_any_text_write_nothing() {
    // A list of only empty items is dropped; empty items before the first written one are
    // left out (the numbers go on counting them), and after an item's text a lone marker
    // would underline it as a setext heading.
    assert_eq!(md("<ul><li></li><li> </li></ul><p>x</p>"), "x\n");
    assert_eq!(md("<ol><li></li><li>a</li></ol>"), "2. a\n");
    let out = md("<ul><li>a<ul><li></li><li>b</li></ul></li></ul>");
    assert_eq!(items(&out), vec![vec!["a"], vec!["b"]], "{out}");
    assert!(!Parser::new(&out).any(|e| matches!(e, Event::Start(Tag::Heading { .. }))));
}
