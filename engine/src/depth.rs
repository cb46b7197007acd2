//! A depth cap between the tokenizer ([`crate::lex`]) and html5ever's tree builder.
//!
//! The HTML tree-construction algorithm scans the stack of open elements for many start tags
//! ("is there a `p` in button scope?", "is this formatting element still open?"). Each scan is
//! linear in the stack depth, so a hostile page of N nested `<div>`/`<ul>`/`<blockquote>`
//! costs O(N²): 20,000 nested `<ul>` took 12 s natively before this cap. Browsers bound the
//! same thing (Blink stops nesting at 512 levels). Here, once the tree builder holds
//! [`MAX_OPEN`] handles, further container start tags — and the end tags that match them — are
//! not passed on: their content still flows into the deepest open element, so no text is
//! lost, only structure beyond a depth no real page reaches.
use std::cell::{Cell, RefCell};
use std::marker::PhantomData;

use html5ever::interface::{Tracer, TreeSink};
use html5ever::tokenizer::{TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{local_name, LocalName};

use crate::lex::AttrPool;

/// Open elements plus active formatting entries the tree builder may hold before start tags
/// are flattened. Real pages stay far below (a deep framework page nests ~60 levels).
pub const MAX_OPEN: usize = 512;

/// Attributes kept per tag (the lexer ignores the rest). Duplicate-name checks and the tree
/// builder's attribute handling grow with the count; one tag with 200,000 attributes (1.4 MB)
/// took 24 s before this cap, and no real tag comes near it.
pub const MAX_ATTRIBUTES: usize = 256;

/// Parse `html` into `sink`'s output with the depth cap in place. Tags take their attribute
/// vectors from `pool`, which `sink` may refill.
pub(crate) fn parse<S: TreeSink>(sink: S, html: &str, pool: &AttrPool) -> S::Output
where
    S::Handle: Clone,
{
    let capped = Capped {
        tb: TreeBuilder::new(sink, TreeBuilderOpts::default()),
        dropped: RefCell::new(Vec::new()),
        suppress: RefCell::new(None),
        suppress_on: Cell::new(false),
    };
    // Our own tokenizer (crate::lex) produces exactly the tokens html5ever's would, several
    // times faster; html5ever's tree builder still builds the tree.
    crate::lex::tokenize_with(html, &capped, pool);
    let Capped { tb, .. } = capped;
    tb.sink.finish()
}

struct Capped<H, S> {
    tb: TreeBuilder<H, S>,
    /// Names of start tags that were not passed on, with how many are still unmatched.
    dropped: RefCell<Vec<(LocalName, u32)>>,
    /// A flattened element whose content is never shown (hidden, `<template>`, `<svg>`, …):
    /// everything up to its end tag is discarded, since the element that would have hidden
    /// it is gone. Name and nesting count.
    suppress: RefCell<Option<(LocalName, u32)>>,
    /// `suppress` is set (checked for every token without a borrow).
    suppress_on: Cell<bool>,
}

/// Counts the handles the tree builder holds (document, open elements, formatting entries).
struct Counter<H>(Cell<usize>, PhantomData<H>);

impl<H> Tracer for Counter<H> {
    type Handle = H;
    fn trace_handle(&self, _node: &H) {
        self.0.set(self.0.get() + 1);
    }
}

impl<H: Clone, S: TreeSink<Handle = H>> Capped<H, S> {
    fn held(&self) -> usize {
        let counter = Counter(Cell::new(0), PhantomData);
        self.tb.trace_handles(&counter);
        counter.0.get()
    }

    /// Whether a start tag is dropped: only container elements at the cap. Void elements pop
    /// at once; raw-text elements (script, style, …) must reach the tree builder so that the
    /// tokenizer switches state and their text never becomes page text.
    ///
    /// The count comes first: it is a few instructions on real pages (the tracer only adds up
    /// handles), while the name tests compare against ~33 atoms for every start tag. Deep in a
    /// hostile page it is linear in the handles held, as it already was for every container
    /// start tag there.
    fn drops_start(&self, name: &LocalName) -> bool {
        self.held() > MAX_OPEN && !is_void(name) && !is_raw_text(name) && !is_document_level(name)
    }

    /// While suppressing, swallow every token but raw-text elements' tags (the tokenizer
    /// must still switch state for `<script>`, or its text would read as markup).
    fn suppressing(&self, token: &Token) -> bool {
        if !self.suppress_on.get() {
            return false;
        }
        let mut suppress = self.suppress.borrow_mut();
        let Some((name, depth)) = suppress.as_mut() else {
            return false;
        };
        if let Token::TagToken(tag) = token {
            if tag.name == *name && !tag.self_closing {
                match tag.kind {
                    TagKind::StartTag => *depth += 1,
                    TagKind::EndTag => *depth -= 1,
                }
                if *depth == 0 {
                    *suppress = None;
                    self.suppress_on.set(false);
                }
                return true;
            }
            if is_raw_text(&tag.name) {
                return false;
            }
        }
        !matches!(token, Token::EOFToken)
    }

    fn note_dropped(&self, name: &LocalName) {
        let mut dropped = self.dropped.borrow_mut();
        match dropped.iter_mut().find(|(n, _)| n == name) {
            Some((_, count)) => *count += 1,
            None => dropped.push((name.clone(), 1)),
        }
    }

    /// An end tag that matches a dropped start tag is dropped too.
    fn take_dropped_end(&self, name: &LocalName) -> bool {
        let mut dropped = self.dropped.borrow_mut();
        match dropped.iter_mut().find(|(n, c)| n == name && *c > 0) {
            Some((_, count)) => {
                *count -= 1;
                true
            }
            None => false,
        }
    }
}

impl<H: Clone, S: TreeSink<Handle = H>> TokenSink for Capped<H, S> {
    type Handle = H;

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<H> {
        if self.suppressing(&token) {
            return TokenSinkResult::Continue;
        }
        if let Token::TagToken(tag) = &token {
            match tag.kind {
                TagKind::StartTag => {
                    if self.drops_start(&tag.name) {
                        if !tag.self_closing && never_shown(tag) {
                            *self.suppress.borrow_mut() = Some((tag.name.clone(), 1));
                            self.suppress_on.set(true);
                        } else {
                            self.note_dropped(&tag.name);
                        }
                        return TokenSinkResult::Continue;
                    }
                }
                TagKind::EndTag => {
                    if self.take_dropped_end(&tag.name) {
                        return TokenSinkResult::Continue;
                    }
                }
            }
        }
        self.tb.process_token(token, line_number)
    }

    fn end(&self) {
        self.tb.end();
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.tb
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

/// Elements whose content a reader never sees: the renderer drops them, so a flattened one
/// must take its content along.
fn never_shown(tag: &html5ever::tokenizer::Tag) -> bool {
    let by_name = matches!(
        tag.name,
        local_name!("template")
            | local_name!("svg")
            | local_name!("math")
            | local_name!("select")
            | local_name!("button")
            | local_name!("datalist")
            | local_name!("object")
            | local_name!("canvas")
            | local_name!("map")
            | local_name!("video")
            | local_name!("audio")
            | local_name!("head")
            | local_name!("slot")
            | local_name!("output")
            | local_name!("progress")
            | local_name!("meter")
            | local_name!("colgroup")
    );
    let dialog_closed = tag.name == local_name!("dialog")
        && !tag
            .attrs
            .iter()
            .any(|a| a.name.local == local_name!("open"));
    by_name
        || dialog_closed
        || tag.attrs.iter().any(|a| match &*a.name.local {
            "hidden" => true,
            "aria-hidden" => a.value.trim().eq_ignore_ascii_case("true"),
            "style" => crate::hidden::style_hides(&a.value),
            _ => false,
        })
}

fn is_void(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("area")
            | local_name!("base")
            | local_name!("basefont")
            | local_name!("bgsound")
            | local_name!("br")
            | local_name!("col")
            | local_name!("embed")
            | local_name!("frame")
            | local_name!("hr")
            | local_name!("image")
            | local_name!("img")
            | local_name!("input")
            | local_name!("keygen")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("param")
            | local_name!("source")
            | local_name!("track")
            | local_name!("wbr")
    )
}

/// Elements whose content the tokenizer reads as raw text or RCDATA (or that start foreign
/// content the renderer drops as a whole).
fn is_raw_text(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("script")
            | local_name!("style")
            | local_name!("xmp")
            | local_name!("iframe")
            | local_name!("noembed")
            | local_name!("noframes")
            | local_name!("noscript")
            | local_name!("textarea")
            | local_name!("title")
            | local_name!("plaintext")
    )
}

/// Start tags that never push a new element inside the body (attributes merge instead).
fn is_document_level(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("html") | local_name!("body") | local_name!("head") | local_name!("frameset")
    )
}

#[cfg(test)]
mod tests {
    use crate::dom::{Attr, Dom, Tag, DOCUMENT};

    fn count(dom: &Dom, tag: Tag) -> usize {
        dom.descendants(DOCUMENT)
            .filter(|&n| dom.tag(n) == Some(tag))
            .count()
    }

    fn text(dom: &Dom) -> String {
        dom.descendants(DOCUMENT).map(|n| dom.text_of(n)).collect()
    }

    #[test]
    fn nesting_beyond_the_cap_is_flattened_without_losing_text() {
        let depth = 5_000;
        let html = "<div>x".repeat(depth) + "deep" + &"</div>".repeat(depth) + "<p>after</p>";
        let dom = Dom::parse(&html);
        let divs = count(&dom, Tag::Div);
        assert!(divs < super::MAX_OPEN, "{divs} divs kept");
        assert!(divs > super::MAX_OPEN - 10, "{divs} divs kept");
        assert_eq!(text(&dom), "x".repeat(depth) + "deep" + "after");
        // The paragraph after the nest is a child of body, not swallowed by a dropped end tag.
        let p = dom.find(DOCUMENT, Tag::P).expect("p");
        assert_eq!(dom.tag(dom.node(p).parent), Some(Tag::Body));
    }

    #[test]
    fn script_beyond_the_cap_stays_script() {
        let html = "<div>".repeat(2_000) + "<script>if (a < b) { secret() }</script>text";
        let dom = Dom::parse(&html);
        let script = dom.find(DOCUMENT, Tag::Script).expect("script");
        assert!(dom.text_of(dom.node(script).first_child).contains("secret"));
        assert!(text(&dom).ends_with("}text"));
    }

    #[test]
    fn hidden_content_beyond_the_cap_stays_hidden() {
        let html = "<div>".repeat(600)
            + "<div hidden>H1<div>H1b</div></div><span aria-hidden=true>H2</span>"
            + "<div style=display:none>H3</div><template>H4</template><svg><text>H5</text></svg>"
            + "<select><option>H6</option></select><button>H7</button><dialog>H8</dialog>"
            + "<script>H9()</script>shown";
        let dom = Dom::parse(&html);
        let script = dom.find(DOCUMENT, Tag::Script).expect("script");
        let visible: String = text(&dom).replace(dom.text_of(dom.node(script).first_child), "");
        assert_eq!(visible, "shown");
    }

    #[test]
    fn attributes_beyond_the_cap_are_ignored() {
        let many: String = (0..1000).map(|i| format!(" a{i}=\"v>{i}\"")).collect();
        let html =
            format!("<p id=x{many} title=late>text</p><script>if (a<b && c>d) {{}}</script>");
        let dom = Dom::parse(&html);
        let p = dom.find(DOCUMENT, Tag::P).expect("the paragraph");
        // `id` is among the 256 kept; `title`, the 1002nd, is not.
        assert_eq!(dom.attr(p, Attr::Id), Some("x"));
        assert_eq!(dom.attr(p, Attr::Title), None);
        assert_eq!(text(&dom), "textif (a<b && c>d) {}");
    }

    #[test]
    fn meta_charset_does_not_stop_the_parse() {
        let dom = Dom::parse("<head><meta charset=utf-8><meta http-equiv=content-type content='text/html; charset=latin1'></head><p>body text");
        assert_eq!(text(&dom), "body text");
    }

    /// Ancestors of the deepest node.
    fn depth(dom: &Dom) -> usize {
        dom.descendants(DOCUMENT)
            .map(|mut n| {
                let mut d = 0;
                while n != DOCUMENT {
                    n = dom.node(n).parent;
                    d += 1;
                }
                d
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn reopened_formatting_elements_count_toward_the_cap() {
        // Each unclosed formatting element is held twice (open element and formatting entry);
        // once their `div` closes, the text after it reopens them all in one token.
        let bold: String = (0..1_000).map(|i| format!("<b id=b{i}>")).collect();
        let html = "<div>".to_string() + &bold + "</div>x" + &"<div>".repeat(1_000) + "deep";
        let dom = Dom::parse(&html);
        assert!(depth(&dom) < super::MAX_OPEN, "{}", depth(&dom));
        assert!(count(&dom, Tag::B) > 300, "{}", count(&dom, Tag::B));
        assert!(count(&dom, Tag::Div) < 100, "{}", count(&dom, Tag::Div));
        assert_eq!(text(&dom), "xdeep");
    }

    #[test]
    fn the_cap_is_counted_again_after_many_new_nodes() {
        // Shallow for 2,000 elements, then deep: the nest is still flattened.
        let html = "<p>a</p>".repeat(2_000) + &"<div>".repeat(2_000) + "deep";
        let dom = Dom::parse(&html);
        assert_eq!(count(&dom, Tag::P), 2_000);
        let divs = count(&dom, Tag::Div);
        assert!(
            divs < super::MAX_OPEN && divs > super::MAX_OPEN - 10,
            "{divs}"
        );
    }

    #[test]
    fn shallow_pages_are_untouched() {
        let html = "<ul><li>a<ul><li>b</li></ul></li></ul>".repeat(100);
        let dom = Dom::parse(&html);
        assert_eq!(count(&dom, Tag::Ul), 200);
        assert_eq!(count(&dom, Tag::Li), 200);
    }
}
