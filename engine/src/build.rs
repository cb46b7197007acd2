//! Tree construction for tidy pages, without html5ever's tree builder.
//!
//! html5ever's tree builder implements every recovery rule of the HTML standard, and pays for
//! that generality on every token; inside Envoy's V8 its size costs cache misses besides. Most
//! pages that agents fetch are tidy: elements close in order, tables hold rows and cells,
//! text sits inside `<body>`. For them this module runs the same algorithm (the standard's
//! tree construction, insertion mode by insertion mode, written after html5ever 0.40's
//! `tree_builder/rules.rs`) over the same tokens from [`crate::lex`], into the same [`Dom`]
//! through the same constructors, but only the parts tidy pages need, in fewer instructions
//! (one parse of `corpus/large/bench-10kb.html` by `md-convert` under callgrind: 537 K → 429 K).
//!
//! At the first token whose handling it does not implement (foster parenting, the adoption
//! agency beyond a formatting element closed while it is the current node, formatting
//! elements to reconstruct, HTML inside SVG or MathML, `<template>`, frames, a table inside a
//! paragraph of a page that may be in quirks mode, …) it gives up: [`parse`] returns `None`
//! and [`Dom::parse`] starts again with html5ever's tree builder. Giving up early costs
//! little; giving up late costs up to one extra pass. The two must build identical trees:
//! `examples/treecheck.rs` compares them on whole corpora, `tests/tree_build.rs` on edge
//! cases and generated tag soups, and the `engine_convert` fuzz target on every input.

use std::cell::{Cell, RefCell};
use std::mem;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{Doctype, Tag, TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::{local_name, ns, LocalName, QualName};

use crate::dom::{Dom, NodeId, DOCUMENT, NONE};
use crate::lex::AttrPool;

/// `fn $name(&LocalName) -> bool`: whether a tag name is one of a set (html5ever's
/// `declare_tag_set!`; the names are static atoms, so this compares integers).
macro_rules! tag_set {
    ($(#[$meta:meta])* $name:ident = $($tag:tt)|+) => {
        $(#[$meta])*
        fn $name(name: &LocalName) -> bool {
            matches!(*name, $(local_name!($tag))|+)
        }
    };
}

/// Open elements plus formatting entries beyond which the page goes to html5ever, whose depth
/// cap ([`crate::depth`]) then applies; tidy pages nest far less.
const MAX_HELD: usize = crate::depth::MAX_OPEN / 2;

/// Parse `html` into a [`Dom`] if every token is one this builder handles.
pub(crate) fn parse(html: &str, pool: &AttrPool) -> Option<Dom> {
    let builder = Builder {
        state: RefCell::new(State::new(html.len(), pool)),
        stop: Cell::new(false),
    };
    crate::lex::tokenize_until(html, &builder, pool, &builder.stop);
    if builder.stop.get() {
        return None;
    }
    Some(builder.state.into_inner().dom)
}

struct Builder<'p> {
    state: RefCell<State<'p>>,
    /// Set once a token is beyond this builder; the lexer then stops.
    stop: Cell<bool>,
}

impl TokenSink for Builder<'_> {
    type Handle = NodeId;

    /// The lexer reads `<![CDATA[` as text only in foreign content.
    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.state
            .borrow()
            .open
            .last()
            .is_some_and(|o| o.space != Space::Html)
    }

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<NodeId> {
        if self.stop.get() {
            return TokenSinkResult::Continue;
        }
        let result = self.state.borrow_mut().process(token);
        result.unwrap_or_else(|| {
            self.stop.set(true);
            TokenSinkResult::Continue
        })
    }
}

/// Insertion modes (the standard's names); those never entered here are missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Initial,
    BeforeHtml,
    BeforeHead,
    InHead,
    AfterHead,
    InBody,
    Text,
    InTable,
    InCaption,
    InColumnGroup,
    InTableBody,
    InRow,
    InCell,
    AfterBody,
    AfterAfterBody,
}

/// A token as the modes see it (doctypes and parse errors are dealt with before).
enum Tok {
    Chars(StrTendril),
    Comment,
    Tag(Tag),
    Eof,
}

/// What a mode did with a token: `None` gives up on the page.
type Step = Option<Flow>;

enum Flow {
    Done(TokenSinkResult<NodeId>),
    /// Process the token again in the (changed) mode.
    Again(Tok),
}

const DONE: Step = Some(Flow::Done(TokenSinkResult::Continue));

/// An element on the stack of open elements.
struct Open {
    id: NodeId,
    /// The tag name as the tokenizer gave it (lower case, also for SVG's camel-cased names).
    name: LocalName,
    space: Space,
}

/// An element's namespace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Space {
    Html,
    Svg,
    MathMl,
}

struct State<'p> {
    dom: Dom,
    pool: &'p AttrPool,
    mode: Mode,
    /// The mode to return to after a raw text element.
    orig: Mode,
    open: Vec<Open>,
    /// Active formatting elements; `NONE` is a marker. Kept so that every entry is also on
    /// the stack, which makes "reconstruct the active formatting elements" a no-op: a token
    /// that would break that gives up ([`State::check_formatting`]).
    formatting: Vec<(NodeId, LocalName)>,
    /// An element left `formatting` while on the stack, or the reverse: check after the token.
    formatting_changed: bool,
    head: NodeId,
    form: NodeId,
    /// The doctype leaves quirks mode possible (only `<table>` inside a `<p>` cares).
    maybe_quirks: bool,
    /// Drop a line feed that starts the next token (after `<pre>`, `<listing>`, `<textarea>`).
    ignore_lf: bool,
}

impl<'p> State<'p> {
    fn new(input_len: usize, pool: &'p AttrPool) -> Self {
        State {
            dom: Dom::with_capacity(input_len),
            pool,
            mode: Mode::Initial,
            orig: Mode::InBody,
            open: Vec::with_capacity(32),
            formatting: Vec::new(),
            formatting_changed: false,
            head: NONE,
            form: NONE,
            maybe_quirks: false,
            ignore_lf: false,
        }
    }

    fn process(&mut self, token: Token) -> Option<TokenSinkResult<NodeId>> {
        // html5ever forgets the pending line feed on any token, a parse error included.
        let ignore_lf = mem::take(&mut self.ignore_lf);
        let mut tok = match token {
            Token::ParseError(_) => return Some(TokenSinkResult::Continue),
            Token::DoctypeToken(doctype) => {
                if self.mode == Mode::Initial {
                    self.maybe_quirks = !surely_not_quirks(&doctype);
                    self.mode = Mode::BeforeHtml;
                }
                return Some(TokenSinkResult::Continue);
            }
            Token::CharacterTokens(mut text) => {
                if ignore_lf && text.starts_with('\n') {
                    text.pop_front(1);
                }
                if text.is_empty() {
                    return Some(TokenSinkResult::Continue);
                }
                Tok::Chars(text)
            }
            Token::CommentToken(_) => Tok::Comment,
            Token::TagToken(tag) => Tok::Tag(tag),
            Token::EOFToken => Tok::Eof,
            Token::NullCharacterToken => return None,
        };
        loop {
            match self.step(tok)? {
                Flow::Done(result) => {
                    if self.formatting_changed {
                        self.check_formatting()?;
                    }
                    return Some(result);
                }
                Flow::Again(t) => tok = t,
            }
        }
    }

    fn step(&mut self, tok: Tok) -> Step {
        // Foreign content: HTML elements are never open above SVG or MathML ones here (their
        // start tags give up), so the HTML rules below see HTML elements only.
        if !matches!(tok, Tok::Eof) && self.open.last().is_some_and(|o| o.space != Space::Html) {
            return self.foreign(tok);
        }
        match self.mode {
            Mode::Initial => self.initial(tok),
            Mode::BeforeHtml => self.before_html(tok),
            Mode::BeforeHead => self.before_head(tok),
            Mode::InHead => self.in_head(tok),
            Mode::AfterHead => self.after_head(tok),
            Mode::InBody => self.in_body(tok),
            Mode::Text => self.text(tok),
            Mode::InTable => self.in_table(tok),
            Mode::InCaption => self.in_caption(tok),
            Mode::InColumnGroup => self.in_column_group(tok),
            Mode::InTableBody => self.in_table_body(tok),
            Mode::InRow => self.in_row(tok),
            Mode::InCell => self.in_cell(tok),
            Mode::AfterBody => self.after_body(tok),
            Mode::AfterAfterBody => self.after_after_body(tok),
        }
    }

    // ---- The modes before <body> --------------------------------------------------------

    fn initial(&mut self, tok: Tok) -> Step {
        let Some(tok) = skip_space(tok) else {
            return DONE;
        };
        if let Tok::Comment = tok {
            return self.comment_to(DOCUMENT);
        }
        // No doctype: quirks mode.
        self.maybe_quirks = true;
        self.mode = Mode::BeforeHtml;
        again(tok)
    }

    fn before_html(&mut self, tok: Tok) -> Step {
        let Some(tok) = skip_space(tok) else {
            return DONE;
        };
        let tok = match tok {
            Tok::Comment => return self.comment_to(DOCUMENT),
            Tok::Tag(tag) if is_start(&tag, &local_name!("html")) => {
                self.create_root(tag);
                self.mode = Mode::BeforeHead;
                return DONE;
            }
            Tok::Tag(tag) if tag.kind == TagKind::EndTag && !is_head_body_html_br(&tag.name) => {
                return DONE;
            }
            tok => tok,
        };
        self.create_root(phantom(local_name!("html")));
        self.mode = Mode::BeforeHead;
        again(tok)
    }

    fn before_head(&mut self, tok: Tok) -> Step {
        let Some(tok) = skip_space(tok) else {
            return DONE;
        };
        let tok = match tok {
            Tok::Comment => return self.comment(),
            Tok::Tag(tag) if tag.kind == TagKind::StartTag => match tag.name {
                local_name!("html") => return self.html_again(tag),
                local_name!("head") => {
                    self.head = self.insert(tag)?;
                    self.mode = Mode::InHead;
                    return DONE;
                }
                _ => Tok::Tag(tag),
            },
            Tok::Tag(tag) if !is_head_body_html_br(&tag.name) => return DONE,
            tok => tok,
        };
        self.head = self.insert_phantom(local_name!("head"))?;
        self.mode = Mode::InHead;
        again(tok)
    }

    fn in_head(&mut self, tok: Tok) -> Step {
        let Some(tok) = self.append_space(tok) else {
            return DONE;
        };
        let tok = match tok {
            Tok::Comment => return self.comment(),
            Tok::Tag(tag) if tag.kind == TagKind::StartTag => match tag.name {
                ref name if is_head_content(name) => return self.head_element(tag),
                local_name!("html") => return self.html_again(tag),
                local_name!("template") => return None,
                local_name!("head") => return DONE,
                _ => Tok::Tag(tag),
            },
            Tok::Tag(tag) => match tag.name {
                local_name!("head") => {
                    self.pop();
                    self.mode = Mode::AfterHead;
                    return DONE;
                }
                local_name!("template") => return None,
                ref name if !is_head_body_html_br(name) => return DONE,
                _ => Tok::Tag(tag),
            },
            tok => tok,
        };
        self.pop();
        self.mode = Mode::AfterHead;
        again(tok)
    }

    /// The "in head" rules for the elements that belong there (also reached from the body
    /// and from tables).
    fn head_element(&mut self, tag: Tag) -> Step {
        match tag.name {
            local_name!("base")
            | local_name!("basefont")
            | local_name!("bgsound")
            | local_name!("link")
            | local_name!("meta") => {
                // html5ever reports a charset to the tokenizer, which then drops a byte order
                // mark right after the tag: report the same.
                let charset = tag.name == local_name!("meta") && announces_charset(&tag);
                self.insert_void(tag)?;
                if charset {
                    return Some(Flow::Done(TokenSinkResult::EncodingIndicator(
                        StrTendril::new(),
                    )));
                }
                DONE
            }
            local_name!("title") => self.raw_text(tag, RawKind::Rcdata),
            local_name!("script") => self.raw_text(tag, RawKind::ScriptData),
            // `noscript` is raw text because html5ever parses with scripting enabled.
            _ => self.raw_text(tag, RawKind::Rawtext),
        }
    }

    fn after_head(&mut self, tok: Tok) -> Step {
        let Some(tok) = self.append_space(tok) else {
            return DONE;
        };
        let tok = match tok {
            Tok::Comment => return self.comment(),
            Tok::Tag(tag) if tag.kind == TagKind::StartTag => match tag.name {
                local_name!("body") => {
                    self.insert(tag)?;
                    self.mode = Mode::InBody;
                    return DONE;
                }
                local_name!("head") => return DONE,
                local_name!("html") => return self.html_again(tag),
                ref name if is_head_content(name) || is_frameset_or_template(name) => {
                    return None;
                }
                _ => Tok::Tag(tag),
            },
            Tok::Tag(tag) if tag.name == local_name!("template") => return None,
            Tok::Tag(tag) if !is_head_body_html_br(&tag.name) => return DONE,
            tok => tok,
        };
        self.insert_phantom(local_name!("body"))?;
        self.mode = Mode::InBody;
        again(tok)
    }

    // ---- In body ------------------------------------------------------------------------

    fn in_body(&mut self, tok: Tok) -> Step {
        match tok {
            Tok::Chars(text) => {
                let parent = self.current()?;
                self.dom.append_text(parent, &text);
                DONE
            }
            Tok::Comment => self.comment(),
            Tok::Eof => DONE,
            Tok::Tag(tag) if tag.kind == TagKind::StartTag => self.body_start(tag),
            Tok::Tag(tag) => self.body_end(tag),
        }
    }

    fn body_start(&mut self, tag: Tag) -> Step {
        match tag.name {
            ref name if is_head_content(name) && *name != local_name!("noscript") => {
                self.head_element(tag)
            }
            ref name if is_block(name) => {
                self.close_p_in_button_scope();
                self.insert(tag)?;
                DONE
            }
            ref name if is_heading(name) => {
                self.close_p_in_button_scope();
                if self.open.last().is_some_and(|o| is_heading(&o.name)) {
                    self.pop();
                }
                self.insert(tag)?;
                DONE
            }
            local_name!("pre") | local_name!("listing") => {
                self.close_p_in_button_scope();
                self.insert(tag)?;
                self.ignore_lf = true;
                DONE
            }
            local_name!("form") => {
                if self.form == NONE {
                    self.close_p_in_button_scope();
                    self.form = self.insert(tag)?;
                }
                DONE
            }
            local_name!("li") | local_name!("dd") | local_name!("dt") => {
                self.close_list_item(&tag.name);
                self.close_p_in_button_scope();
                self.insert(tag)?;
                DONE
            }
            local_name!("button") => {
                if self.in_scope(|n| *n == local_name!("button"), default_scope) {
                    return None;
                }
                self.insert(tag)?;
                DONE
            }
            local_name!("html") => self.html_again(tag),
            local_name!("body") => {
                // A second <body>: its attributes go to the first.
                if let Some(body) = self.open.get(1).filter(|o| o.name == local_name!("body")) {
                    let id = body.id;
                    self.dom.add_attrs_if_missing(id, &tag.attrs);
                }
                self.pool.give(tag.attrs);
                DONE
            }
            local_name!("select") => {
                if self.select_in_scope() {
                    self.pop_until_named(&local_name!("select"));
                } else {
                    self.insert(tag)?;
                }
                DONE
            }
            local_name!("option") | local_name!("optgroup") => {
                if self.select_in_scope() {
                    let except = local_name!("optgroup");
                    let option = tag.name == local_name!("option");
                    self.generate_implied_end(option.then_some(&except));
                } else if self.current_is(&local_name!("option")) {
                    self.pop();
                }
                self.insert(tag)?;
                DONE
            }
            local_name!("nobr") => {
                if self.in_scope(|n| *n == local_name!("nobr"), default_scope) {
                    return None;
                }
                self.insert_formatting(tag)
            }
            local_name!("applet") | local_name!("marquee") | local_name!("object") => {
                self.insert(tag)?;
                self.push_marker();
                DONE
            }
            local_name!("svg") => self.enter_foreign(tag, Space::Svg),
            local_name!("math") => self.enter_foreign(tag, Space::MathMl),
            local_name!("a") => {
                if self
                    .formatting_since_marker()
                    .any(|(_, n)| *n == local_name!("a"))
                {
                    return None;
                }
                self.insert_formatting(tag)
            }
            local_name!("b")
            | local_name!("big")
            | local_name!("code")
            | local_name!("em")
            | local_name!("font")
            | local_name!("i")
            | local_name!("s")
            | local_name!("small")
            | local_name!("strike")
            | local_name!("strong")
            | local_name!("tt")
            | local_name!("u") => self.insert_formatting(tag),
            local_name!("table") => {
                if self.in_scope(|n| *n == local_name!("p"), button_scope) {
                    if self.maybe_quirks {
                        // In quirks mode a table does not close the paragraph.
                        return None;
                    }
                    self.close_p();
                }
                self.insert(tag)?;
                self.mode = Mode::InTable;
                DONE
            }
            local_name!("input") => {
                if self.select_in_scope() {
                    self.pop_until_named(&local_name!("select"));
                }
                self.insert_void(tag)?;
                DONE
            }
            local_name!("area")
            | local_name!("br")
            | local_name!("embed")
            | local_name!("img")
            | local_name!("keygen")
            | local_name!("wbr")
            | local_name!("param")
            | local_name!("source")
            | local_name!("track") => {
                self.insert_void(tag)?;
                DONE
            }
            local_name!("hr") => {
                self.close_p_in_button_scope();
                if self.select_in_scope() {
                    self.generate_implied_end(None);
                }
                self.insert_void(tag)?;
                DONE
            }
            local_name!("textarea") => {
                self.ignore_lf = true;
                self.raw_text(tag, RawKind::Rcdata)
            }
            local_name!("xmp") => {
                self.close_p_in_button_scope();
                self.raw_text(tag, RawKind::Rawtext)
            }
            local_name!("iframe") | local_name!("noembed") | local_name!("noscript") => {
                self.raw_text(tag, RawKind::Rawtext)
            }
            local_name!("caption")
            | local_name!("col")
            | local_name!("colgroup")
            | local_name!("frame")
            | local_name!("head")
            | local_name!("tbody")
            | local_name!("td")
            | local_name!("tfoot")
            | local_name!("th")
            | local_name!("thead")
            | local_name!("tr") => DONE,
            // Frames, templates, plain text, ruby and <image>.
            local_name!("frameset")
            | local_name!("template")
            | local_name!("plaintext")
            | local_name!("rb")
            | local_name!("rtc")
            | local_name!("rp")
            | local_name!("rt")
            | local_name!("image") => None,
            _ => {
                self.insert(tag)?;
                DONE
            }
        }
    }

    fn body_end(&mut self, tag: Tag) -> Step {
        match tag.name {
            local_name!("body") | local_name!("html") => {
                if !self.in_scope(|n| *n == local_name!("body"), default_scope) {
                    return DONE;
                }
                self.mode = Mode::AfterBody;
                if tag.name == local_name!("html") {
                    return again(Tok::Tag(tag));
                }
                DONE
            }
            ref name
                if (is_block(name) && *name != local_name!("p"))
                    || matches!(
                        *name,
                        local_name!("button")
                            | local_name!("listing")
                            | local_name!("pre")
                            | local_name!("select")
                    ) =>
            {
                if self.in_scope(|n| *n == tag.name, default_scope) {
                    self.generate_implied_end(None);
                    self.pop_until_named(&tag.name);
                }
                DONE
            }
            local_name!("form") => {
                let node = mem::replace(&mut self.form, NONE);
                if node == NONE || !self.in_scope_node(node) {
                    return DONE;
                }
                self.generate_implied_end(None);
                if let Some(at) = self.open.iter().rposition(|o| o.id == node) {
                    self.open.remove(at);
                }
                DONE
            }
            local_name!("p") => {
                if !self.in_scope(|n| *n == local_name!("p"), button_scope) {
                    self.insert_phantom(local_name!("p"))?;
                }
                self.close_p();
                DONE
            }
            local_name!("li") | local_name!("dd") | local_name!("dt") => {
                let scope = if tag.name == local_name!("li") {
                    list_item_scope
                } else {
                    default_scope
                };
                if self.in_scope(|n| *n == tag.name, scope) {
                    self.generate_implied_end(Some(&tag.name));
                    self.pop_until_named(&tag.name);
                }
                DONE
            }
            ref name if is_heading(name) => {
                if self.in_scope(is_heading, default_scope) {
                    self.generate_implied_end(None);
                    self.pop_until(is_heading);
                }
                DONE
            }
            local_name!("a")
            | local_name!("b")
            | local_name!("big")
            | local_name!("code")
            | local_name!("em")
            | local_name!("font")
            | local_name!("i")
            | local_name!("nobr")
            | local_name!("s")
            | local_name!("small")
            | local_name!("strike")
            | local_name!("strong")
            | local_name!("tt")
            | local_name!("u") => self.end_formatting(tag.name),
            local_name!("applet") | local_name!("marquee") | local_name!("object") => {
                if self.in_scope(|n| *n == tag.name, default_scope) {
                    self.generate_implied_end(None);
                    self.pop_until_named(&tag.name);
                    self.clear_formatting_to_marker();
                }
                DONE
            }
            // html5ever's own handling of </option> differs only by a call our sink ignores.
            local_name!("br") | local_name!("template") => None,
            _ => {
                self.end_other(&tag.name);
                DONE
            }
        }
    }

    /// The adoption agency algorithm, for the case where it is simple: the formatting element
    /// is the current node.
    fn end_formatting(&mut self, name: LocalName) -> Step {
        let top = self.open.last()?.id;
        if self.open.last().is_some_and(|o| o.name == name)
            && !self.formatting.iter().any(|&(id, _)| id == top)
        {
            self.pop();
            return DONE;
        }
        let entry = self
            .formatting_since_marker()
            .find(|(_, n)| **n == name)
            .map(|(id, _)| id);
        match entry {
            None => {
                self.end_other(&name);
                DONE
            }
            Some(id) if id == top => {
                self.pop();
                if let Some(at) = self.formatting.iter().rposition(|&(f, _)| f == id) {
                    self.formatting.remove(at);
                }
                DONE
            }
            Some(_) => None,
        }
    }

    /// "Any other end tag" in body.
    fn end_other(&mut self, name: &LocalName) {
        let Some(at) = self
            .open
            .iter()
            .rposition(|o| o.name == *name || is_special(&o.name))
        else {
            return;
        };
        if self.open.get(at).is_some_and(|o| o.name == *name) {
            self.pop_to(at);
        }
    }

    // ---- Raw text -----------------------------------------------------------------------

    fn raw_text(&mut self, tag: Tag, kind: RawKind) -> Step {
        self.insert(tag)?;
        self.orig = self.mode;
        self.mode = Mode::Text;
        Some(Flow::Done(TokenSinkResult::RawData(kind)))
    }

    fn text(&mut self, tok: Tok) -> Step {
        match tok {
            Tok::Chars(text) => {
                let parent = self.current()?;
                self.dom.append_text(parent, &text);
                DONE
            }
            Tok::Tag(tag) if tag.kind == TagKind::EndTag => {
                let node = self.pop()?;
                self.mode = self.orig;
                if tag.name == local_name!("script") {
                    return Some(Flow::Done(TokenSinkResult::Script(node.id)));
                }
                DONE
            }
            _ => None,
        }
    }

    // ---- Tables -------------------------------------------------------------------------

    fn in_table(&mut self, tok: Tok) -> Step {
        let tag = match tok {
            Tok::Chars(text) => {
                // Only white space stays in a table; other text is foster-parented.
                let current = self.open.last()?;
                if !is_table_outer(&current.name) || !is_space(&text) {
                    return None;
                }
                let parent = current.id;
                self.dom.append_text(parent, &text);
                return DONE;
            }
            Tok::Comment => return self.comment(),
            Tok::Eof => return DONE,
            Tok::Tag(tag) => tag,
        };
        if tag.kind == TagKind::EndTag {
            return match tag.name {
                local_name!("table") => {
                    if self.in_scope(|n| *n == local_name!("table"), table_scope) {
                        self.pop_until_named(&local_name!("table"));
                        self.mode = self.reset_mode()?;
                    }
                    DONE
                }
                ref name
                    if is_misplaced_table_end(name)
                        || is_table_section(name)
                        || is_row_or_cell(name) =>
                {
                    DONE
                }
                _ => None,
            };
        }
        match tag.name {
            local_name!("caption") => {
                self.clear_to(table_scope);
                self.push_marker();
                self.insert(tag)?;
                self.mode = Mode::InCaption;
                DONE
            }
            local_name!("colgroup") => {
                self.clear_to(table_scope);
                self.insert(tag)?;
                self.mode = Mode::InColumnGroup;
                DONE
            }
            local_name!("col") => {
                self.clear_to(table_scope);
                self.insert_phantom(local_name!("colgroup"))?;
                self.mode = Mode::InColumnGroup;
                again(Tok::Tag(tag))
            }
            local_name!("tbody") | local_name!("tfoot") | local_name!("thead") => {
                self.clear_to(table_scope);
                self.insert(tag)?;
                self.mode = Mode::InTableBody;
                DONE
            }
            local_name!("td") | local_name!("th") | local_name!("tr") => {
                self.clear_to(table_scope);
                self.insert_phantom(local_name!("tbody"))?;
                self.mode = Mode::InTableBody;
                again(Tok::Tag(tag))
            }
            local_name!("style") | local_name!("script") => self.head_element(tag),
            _ => None,
        }
    }

    fn in_caption(&mut self, tok: Tok) -> Step {
        let Tok::Tag(tag) = tok else {
            return self.in_body(tok);
        };
        let start = tag.kind == TagKind::StartTag;
        match tag.name {
            ref name if start && (is_table_part(name) || is_row_or_cell(name)) => {
                self.close_caption(tag)
            }
            local_name!("table") | local_name!("caption") if !start => self.close_caption(tag),
            ref name
                if !start
                    && (is_misplaced_table_end(name)
                        || is_table_section(name)
                        || is_row_or_cell(name)) =>
            {
                DONE
            }
            _ => self.in_body(Tok::Tag(tag)),
        }
    }

    fn close_caption(&mut self, tag: Tag) -> Step {
        if !self.in_scope(|n| *n == local_name!("caption"), table_scope) {
            return DONE;
        }
        self.generate_implied_end(None);
        self.pop_until_named(&local_name!("caption"));
        self.clear_formatting_to_marker();
        self.mode = Mode::InTable;
        if tag.kind == TagKind::EndTag && tag.name == local_name!("caption") {
            return DONE;
        }
        again(Tok::Tag(tag))
    }

    fn in_column_group(&mut self, tok: Tok) -> Step {
        let Some(tok) = self.append_space(tok) else {
            return DONE;
        };
        let tok = match tok {
            Tok::Comment => return self.comment(),
            Tok::Eof => return DONE,
            Tok::Chars(text) => Tok::Chars(text),
            Tok::Tag(tag) => {
                let start = tag.kind == TagKind::StartTag;
                match tag.name {
                    local_name!("col") if start => {
                        self.insert_void(tag)?;
                        return DONE;
                    }
                    local_name!("html") if start => return self.html_again(tag),
                    local_name!("html") | local_name!("template") => return None,
                    local_name!("colgroup") if !start => {
                        if self.current_is(&local_name!("colgroup")) {
                            self.pop();
                            self.mode = Mode::InTable;
                        }
                        return DONE;
                    }
                    local_name!("col") => return DONE,
                    _ => Tok::Tag(tag),
                }
            }
        };
        if !self.current_is(&local_name!("colgroup")) {
            return DONE;
        }
        self.pop();
        self.mode = Mode::InTable;
        again(tok)
    }

    fn in_table_body(&mut self, tok: Tok) -> Step {
        let Tok::Tag(tag) = tok else {
            return self.in_table(tok);
        };
        let start = tag.kind == TagKind::StartTag;
        match tag.name {
            local_name!("tr") if start => {
                self.clear_to(table_body_context);
                self.insert(tag)?;
                self.mode = Mode::InRow;
                DONE
            }
            local_name!("th") | local_name!("td") if start => {
                self.clear_to(table_body_context);
                self.insert_phantom(local_name!("tr"))?;
                self.mode = Mode::InRow;
                again(Tok::Tag(tag))
            }
            local_name!("tbody") | local_name!("tfoot") | local_name!("thead") if !start => {
                if self.in_scope(|n| *n == tag.name, table_scope) {
                    self.close_table_body()?;
                }
                DONE
            }
            // html5ever's scope test here always finds the table itself.
            ref name if start && is_table_part(name) => {
                self.close_table_body()?;
                again(Tok::Tag(tag))
            }
            local_name!("table") if !start => {
                self.close_table_body()?;
                again(Tok::Tag(tag))
            }
            ref name if !start && (is_misplaced_table_end(name) || is_row_or_cell(name)) => DONE,
            _ => self.in_table(Tok::Tag(tag)),
        }
    }

    fn close_table_body(&mut self) -> Option<()> {
        self.close_table_part(table_body_context, is_table_section, Mode::InTable)
    }

    fn close_row(&mut self) -> Option<()> {
        self.close_table_part(
            table_row_context,
            |n| *n == local_name!("tr"),
            Mode::InTableBody,
        )
    }

    /// Pop back to `context`, then the open table body or row (`part`) there.
    fn close_table_part(
        &mut self,
        context: fn(&LocalName) -> bool,
        part: fn(&LocalName) -> bool,
        mode: Mode,
    ) -> Option<()> {
        self.clear_to(context);
        if !self.open.last().is_some_and(|o| part(&o.name)) {
            return None;
        }
        self.pop();
        self.mode = mode;
        Some(())
    }

    fn in_row(&mut self, tok: Tok) -> Step {
        let Tok::Tag(tag) = tok else {
            return self.in_table(tok);
        };
        let start = tag.kind == TagKind::StartTag;
        let tr_in_scope = |s: &Self| s.in_scope(|n| *n == local_name!("tr"), table_scope);
        match tag.name {
            local_name!("th") | local_name!("td") if start => {
                self.clear_to(table_row_context);
                self.insert(tag)?;
                self.mode = Mode::InCell;
                self.push_marker();
                DONE
            }
            local_name!("tr") if !start => {
                if tr_in_scope(self) {
                    self.close_row()?;
                }
                DONE
            }
            ref name if start && (is_table_part(name) || *name == local_name!("tr")) => {
                self.leave_row(tag, tr_in_scope(self))
            }
            local_name!("table") if !start => self.leave_row(tag, tr_in_scope(self)),
            local_name!("tbody") | local_name!("tfoot") | local_name!("thead") if !start => {
                if !self.in_scope(|n| *n == tag.name, table_scope) {
                    return DONE;
                }
                self.leave_row(tag, tr_in_scope(self))
            }
            ref name if !start && (is_misplaced_table_end(name) || is_cell(name)) => DONE,
            _ => self.in_table(Tok::Tag(tag)),
        }
    }

    fn leave_row(&mut self, tag: Tag, tr_in_scope: bool) -> Step {
        if !tr_in_scope {
            return DONE;
        }
        self.close_row()?;
        again(Tok::Tag(tag))
    }

    fn in_cell(&mut self, tok: Tok) -> Step {
        let Tok::Tag(tag) = tok else {
            return self.in_body(tok);
        };
        let start = tag.kind == TagKind::StartTag;
        match tag.name {
            local_name!("td") | local_name!("th") if !start => {
                if self.in_scope(|n| *n == tag.name, table_scope) {
                    self.generate_implied_end(None);
                    self.pop_until_named(&tag.name);
                    self.clear_formatting_to_marker();
                    self.mode = Mode::InRow;
                }
                DONE
            }
            ref name if start && (is_table_part(name) || is_row_or_cell(name)) => {
                if !self.in_scope(is_cell, table_scope) {
                    return DONE;
                }
                self.close_cell();
                again(Tok::Tag(tag))
            }
            ref name if !start && is_misplaced_table_end(name) => DONE,
            local_name!("table")
            | local_name!("tbody")
            | local_name!("tfoot")
            | local_name!("thead")
            | local_name!("tr")
                if !start =>
            {
                if !self.in_scope(|n| *n == tag.name, table_scope) {
                    return DONE;
                }
                self.close_cell();
                again(Tok::Tag(tag))
            }
            _ => self.in_body(Tok::Tag(tag)),
        }
    }

    fn close_cell(&mut self) {
        self.generate_implied_end(None);
        self.pop_until(is_cell);
        self.clear_formatting_to_marker();
        self.mode = Mode::InRow;
    }

    /// "Reset the insertion mode appropriately", for a stack without templates or frames.
    fn reset_mode(&self) -> Option<Mode> {
        for (i, o) in self.open.iter().enumerate().rev() {
            let mode = match o.name {
                local_name!("td") | local_name!("th") if i != 0 => Mode::InCell,
                local_name!("tr") => Mode::InRow,
                local_name!("tbody") | local_name!("thead") | local_name!("tfoot") => {
                    Mode::InTableBody
                }
                local_name!("caption") => Mode::InCaption,
                local_name!("colgroup") => Mode::InColumnGroup,
                local_name!("table") => Mode::InTable,
                local_name!("body") => Mode::InBody,
                local_name!("html") if self.head == NONE => Mode::BeforeHead,
                local_name!("html") => Mode::AfterHead,
                local_name!("template") | local_name!("frameset") | local_name!("head") => {
                    return None;
                }
                _ => continue,
            };
            return Some(mode);
        }
        Some(Mode::InBody)
    }

    // ---- After body ---------------------------------------------------------------------

    fn after_body(&mut self, tok: Tok) -> Step {
        match tok {
            Tok::Chars(text) if is_space(&text) => self.in_body(Tok::Chars(text)),
            Tok::Comment => {
                let html = self.open.first()?.id;
                self.comment_to(html)
            }
            Tok::Tag(tag) if tag.name == local_name!("html") => {
                if tag.kind == TagKind::StartTag {
                    return self.html_again(tag);
                }
                self.mode = Mode::AfterAfterBody;
                DONE
            }
            Tok::Eof => DONE,
            tok => {
                self.mode = Mode::InBody;
                again(tok)
            }
        }
    }

    fn after_after_body(&mut self, tok: Tok) -> Step {
        match tok {
            Tok::Chars(text) if is_space(&text) => self.in_body(Tok::Chars(text)),
            Tok::Comment => self.comment_to(DOCUMENT),
            Tok::Tag(tag) if is_start(&tag, &local_name!("html")) => self.html_again(tag),
            Tok::Eof => DONE,
            tok => {
                self.mode = Mode::InBody;
                again(tok)
            }
        }
    }

    // ---- Foreign content ----------------------------------------------------------------

    /// `<svg>` or `<math>` in body.
    fn enter_foreign(&mut self, tag: Tag, space: Space) -> Step {
        self.insert_foreign(tag, space)?;
        DONE
    }

    /// Tokens while an SVG or MathML element is the current node.
    fn foreign(&mut self, tok: Tok) -> Step {
        let (space, at_integration_point) = {
            let current = self.open.last()?;
            let point = match current.space {
                Space::Svg => matches!(
                    current.name,
                    local_name!("foreignobject") | local_name!("desc") | local_name!("title")
                ),
                _ => matches!(
                    current.name,
                    local_name!("mi")
                        | local_name!("mo")
                        | local_name!("mn")
                        | local_name!("ms")
                        | local_name!("mtext")
                        | local_name!("annotation-xml")
                ),
            };
            (current.space, point)
        };
        match tok {
            // At an integration point text follows the HTML rules, which append it too.
            Tok::Chars(text) => {
                let parent = self.current()?;
                self.dom.append_text(parent, &text);
                DONE
            }
            Tok::Comment => self.comment(),
            Tok::Tag(tag) if tag.kind == TagKind::StartTag => {
                let mathml_glyph =
                    matches!(tag.name, local_name!("mglyph") | local_name!("malignmark"))
                        && space == Space::MathMl;
                // HTML content inside SVG or MathML, and HTML tags that break out of it.
                if (at_integration_point && !mathml_glyph) || breaks_out(&tag.name) {
                    return None;
                }
                self.insert_foreign(tag, space)?;
                DONE
            }
            Tok::Tag(tag) => {
                if matches!(tag.name, local_name!("br") | local_name!("p")) {
                    return None;
                }
                let mut i = self.open.len().checked_sub(1)?;
                loop {
                    if i == 0 {
                        return DONE;
                    }
                    let node = self.open.get(i)?;
                    if i + 1 < self.open.len() && node.space == Space::Html {
                        // Back in HTML: html5ever applies the insertion mode's rules.
                        return None;
                    }
                    if node.name == tag.name {
                        self.pop_to(i);
                        return DONE;
                    }
                    i -= 1;
                }
            }
            Tok::Eof => DONE,
        }
    }

    /// Insert an SVG or MathML element for `tag` (pushed unless self-closing). html5ever's
    /// attribute adjustments (`viewBox`, `xlink:href`, …) touch no attribute the DOM keeps.
    fn insert_foreign(&mut self, tag: Tag, space: Space) -> Option<NodeId> {
        if self.open.len() + self.formatting.len() >= MAX_HELD {
            return None;
        }
        let parent = self.current()?;
        let (ns, local) = match space {
            Space::Svg => (ns!(svg), svg_tag_name(&tag.name)),
            _ => (ns!(mathml), tag.name.clone()),
        };
        let (id, _) = self
            .dom
            .create_element(QualName::new(None, ns, local), &tag.attrs, false);
        self.dom.append_node(parent, id);
        if !tag.self_closing {
            self.open.push(Open {
                id,
                name: tag.name,
                space,
            });
        }
        self.pool.give(tag.attrs);
        Some(id)
    }

    // ---- Building blocks ----------------------------------------------------------------

    /// A start tag `<html>` anywhere: its attributes go to the root element.
    fn html_again(&mut self, tag: Tag) -> Step {
        let root = self.open.first()?.id;
        self.dom.add_attrs_if_missing(root, &tag.attrs);
        self.pool.give(tag.attrs);
        DONE
    }

    fn select_in_scope(&self) -> bool {
        self.in_scope(|n| *n == local_name!("select"), default_scope)
    }

    fn current(&self) -> Option<NodeId> {
        self.open.last().map(|o| o.id)
    }

    fn current_is(&self, name: &LocalName) -> bool {
        self.open.last().is_some_and(|o| o.name == *name)
    }

    /// Create an element for `tag`, append it to the current node and push it.
    fn insert(&mut self, tag: Tag) -> Option<NodeId> {
        if self.open.len() + self.formatting.len() >= MAX_HELD {
            return None;
        }
        let name = tag.name.clone();
        let id = self.insert_void(tag)?;
        self.open.push(Open {
            id,
            name,
            space: Space::Html,
        });
        Some(id)
    }

    fn insert_phantom(&mut self, name: LocalName) -> Option<NodeId> {
        self.insert(phantom(name))
    }

    /// Create an element and append it to the current node without pushing it.
    fn insert_void(&mut self, tag: Tag) -> Option<NodeId> {
        let parent = self.current()?;
        let id = self.create(tag);
        self.dom.append_node(parent, id);
        Some(id)
    }

    fn create(&mut self, tag: Tag) -> NodeId {
        let qname = QualName::new(None, ns!(html), tag.name);
        let (id, _) = self.dom.create_element(qname, &tag.attrs, false);
        self.pool.give(tag.attrs);
        id
    }

    fn create_root(&mut self, tag: Tag) {
        let id = self.create(tag);
        self.open.push(Open {
            id,
            name: local_name!("html"),
            space: Space::Html,
        });
        self.dom.append_node(DOCUMENT, id);
    }

    fn insert_formatting(&mut self, tag: Tag) -> Step {
        // The Noah's Ark clause (a fourth identical entry drops the first) compares
        // attributes: leave any fourth one of a name to html5ever.
        let same = self
            .formatting_since_marker()
            .filter(|(_, n)| **n == tag.name)
            .count();
        if same >= 3 {
            return None;
        }
        let name = tag.name.clone();
        let id = self.insert(tag)?;
        self.formatting.push((id, name));
        DONE
    }

    /// Entries after the last marker, last first.
    fn formatting_since_marker(&self) -> impl Iterator<Item = (NodeId, &LocalName)> {
        self.formatting
            .iter()
            .rev()
            .take_while(|(id, _)| *id != NONE)
            .map(|(id, n)| (*id, n))
    }

    /// A marker in the active formatting elements (cells, captions, objects).
    fn push_marker(&mut self) {
        self.formatting.push((NONE, local_name!("")));
    }

    fn clear_formatting_to_marker(&mut self) {
        while let Some((id, _)) = self.formatting.pop() {
            if id == NONE {
                break;
            }
        }
    }

    /// Every formatting entry must still be open (see [`State::formatting`]).
    fn check_formatting(&mut self) -> Option<()> {
        self.formatting_changed = false;
        let open = &self.open;
        self.formatting
            .iter()
            .all(|&(id, _)| id == NONE || open.iter().any(|o| o.id == id))
            .then_some(())
    }

    fn pop(&mut self) -> Option<Open> {
        let o = self.open.pop()?;
        if self.formatting.iter().any(|&(id, _)| id == o.id) {
            self.formatting_changed = true;
        }
        Some(o)
    }

    /// Pop elements until one named `name` has been popped.
    fn pop_until_named(&mut self, name: &LocalName) {
        self.pop_until(|n| n == name);
    }

    /// Pop elements until one whose name satisfies `popped` has been popped.
    fn pop_until(&mut self, popped: impl Fn(&LocalName) -> bool) {
        while let Some(o) = self.pop() {
            if popped(&o.name) {
                break;
            }
        }
    }

    /// Pop elements until `len` are left open.
    fn pop_to(&mut self, len: usize) {
        while self.open.len() > len {
            self.pop();
        }
    }

    /// Pop elements until the current node is in `context`.
    fn clear_to(&mut self, context: fn(&LocalName) -> bool) {
        while self.open.last().is_some_and(|o| !context(&o.name)) {
            self.pop();
        }
    }

    /// Pop elements with implied end tags, except `except`.
    fn generate_implied_end(&mut self, except: Option<&LocalName>) {
        while self
            .open
            .last()
            .is_some_and(|o| has_implied_end(&o.name) && Some(&o.name) != except)
        {
            self.pop();
        }
    }

    fn close_p(&mut self) {
        self.generate_implied_end(Some(&local_name!("p")));
        self.pop_until_named(&local_name!("p"));
    }

    fn close_p_in_button_scope(&mut self) {
        if self.in_scope(|n| *n == local_name!("p"), button_scope) {
            self.close_p();
        }
    }

    /// Before a new `li` (or `dd`/`dt`): close the open one it follows.
    fn close_list_item(&mut self, name: &LocalName) {
        let list = *name == local_name!("li");
        let mut to_close = None;
        for o in self.open.iter().rev() {
            let closes = if list {
                o.name == local_name!("li")
            } else {
                matches!(o.name, local_name!("dd") | local_name!("dt"))
            };
            if closes {
                to_close = Some(o.name.clone());
                break;
            }
            if is_special(&o.name)
                && !matches!(
                    o.name,
                    local_name!("address") | local_name!("div") | local_name!("p")
                )
            {
                break;
            }
        }
        if let Some(name) = to_close {
            self.generate_implied_end(Some(&name));
            self.pop_until_named(&name);
        }
    }

    /// Whether an element named as `target` wants is open before any `boundary` element.
    fn in_scope(
        &self,
        target: impl Fn(&LocalName) -> bool,
        boundary: fn(&LocalName) -> bool,
    ) -> bool {
        self.open_in_scope(|o| target(&o.name), boundary)
    }

    fn in_scope_node(&self, node: NodeId) -> bool {
        self.open_in_scope(|o| o.id == node, default_scope)
    }

    fn open_in_scope(
        &self,
        target: impl Fn(&Open) -> bool,
        boundary: fn(&LocalName) -> bool,
    ) -> bool {
        for o in self.open.iter().rev() {
            if target(o) {
                return true;
            }
            if boundary(&o.name) {
                return false;
            }
        }
        false
    }

    fn comment(&mut self) -> Step {
        let parent = self.current()?;
        self.comment_to(parent)
    }

    fn comment_to(&mut self, parent: NodeId) -> Step {
        let id = self.dom.create_other();
        self.dom.append_node(parent, id);
        DONE
    }

    /// Leading white space of a text token appended to the current node: the rest of the
    /// token, if any; other tokens unchanged.
    fn append_space(&mut self, tok: Tok) -> Option<Tok> {
        let Tok::Chars(text) = tok else {
            return Some(tok);
        };
        let n = space_prefix(&text);
        if let Some(parent) = self.current().filter(|_| n > 0) {
            self.dom
                .append_text(parent, text.get(..n).unwrap_or_default());
        }
        rest_after(text, n)
    }
}

/// Leading white space of a text token dropped: the rest of the token, if any; other tokens
/// unchanged.
fn skip_space(tok: Tok) -> Option<Tok> {
    match tok {
        Tok::Chars(text) => {
            let n = space_prefix(&text);
            rest_after(text, n)
        }
        tok => Some(tok),
    }
}

fn rest_after(text: StrTendril, n: usize) -> Option<Tok> {
    (n < text.len()).then(|| Tok::Chars(text.subtendril(n as u32, (text.len() - n) as u32)))
}

/// A start tag without attributes, for the elements the tree builder makes up.
fn phantom(name: LocalName) -> Tag {
    Tag {
        kind: TagKind::StartTag,
        name,
        self_closing: false,
        attrs: Vec::new(),
        had_duplicate_attributes: false,
    }
}

tag_set!(
    /// HTML start tags that end foreign content (html5ever then pops back to HTML; we give up).
    /// `<font>` is one only with `color`, `face` or `size`: all of them count here.
    breaks_out = "b" | "big" | "blockquote" | "body" | "br" | "center" | "code" | "dd" | "div"
        | "dl" | "dt" | "em" | "embed" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "head" | "hr"
        | "i" | "img" | "li" | "listing" | "menu" | "meta" | "nobr" | "ol" | "p" | "pre" | "ruby"
        | "s" | "small" | "span" | "strong" | "strike" | "sub" | "sup" | "table" | "tt" | "u" | "ul"
        | "var" | "font"
);

/// SVG's camel-cased element names, from the lower-case names the tokenizer gives.
fn svg_tag_name(name: &LocalName) -> LocalName {
    const CAMEL: [&str; 37] = [
        "altGlyph",
        "altGlyphDef",
        "altGlyphItem",
        "animateColor",
        "animateMotion",
        "animateTransform",
        "clipPath",
        "feBlend",
        "feColorMatrix",
        "feComponentTransfer",
        "feComposite",
        "feConvolveMatrix",
        "feDiffuseLighting",
        "feDisplacementMap",
        "feDistantLight",
        "feDropShadow",
        "feFlood",
        "feFuncA",
        "feFuncB",
        "feFuncG",
        "feFuncR",
        "feGaussianBlur",
        "feImage",
        "feMerge",
        "feMergeNode",
        "feMorphology",
        "feOffset",
        "fePointLight",
        "feSpecularLighting",
        "feSpotLight",
        "feTile",
        "feTurbulence",
        "foreignObject",
        "glyphRef",
        "linearGradient",
        "radialGradient",
        "textPath",
    ];
    // Only names with an upper-case letter change, and all of those are at least 6 long.
    if name.len() >= 6 && name.bytes().all(|b| !b.is_ascii_uppercase()) {
        if let Some(camel) = CAMEL.iter().find(|c| c.eq_ignore_ascii_case(name)) {
            return LocalName::from(*camel);
        }
    }
    name.clone()
}

fn again(tok: Tok) -> Step {
    Some(Flow::Again(tok))
}

fn is_start(tag: &Tag, name: &LocalName) -> bool {
    tag.kind == TagKind::StartTag && tag.name == *name
}

/// ASCII white space as the tree builder splits it.
fn is_space_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0C' | b'\r')
}

fn space_prefix(text: &str) -> usize {
    text.bytes().take_while(|&b| is_space_byte(b)).count()
}

fn is_space(text: &str) -> bool {
    text.bytes().all(is_space_byte)
}

/// Whether a doctype certainly does not put html5ever in quirks mode (it may be limited
/// quirks, which changes nothing here): HTML5's, and the common strict and transitional
/// HTML 4.01 and XHTML 1.x doctypes. The rest count as possibly quirky. Public and system
/// identifiers compare ignoring ASCII case, as html5ever's `doctype_error_and_quirks` does.
fn surely_not_quirks(doctype: &Doctype) -> bool {
    if doctype.force_quirks || doctype.name.as_deref() != Some("html") {
        return false;
    }
    let system = doctype.system_id.as_deref();
    if system.is_some_and(|s| {
        s.eq_ignore_ascii_case("http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd")
    }) {
        return false;
    }
    let Some(public) = doctype.public_id.as_deref() else {
        return true;
    };
    let starts = |prefix: &str| {
        public
            .get(..prefix.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
    };
    if starts("-//W3C//DTD XHTML 1.0 Transitional//") || starts("-//W3C//DTD XHTML 1.0 Frameset//")
    {
        return true;
    }
    if starts("-//W3C//DTD HTML 4.01 Transitional//") || starts("-//W3C//DTD HTML 4.01 Frameset//")
    {
        // Limited quirks with a system identifier, quirks without.
        return system.is_some();
    }
    [
        "-//W3C//DTD HTML 4.01//EN",
        "-//W3C//DTD XHTML 1.0 Strict//EN",
        "-//W3C//DTD XHTML 1.1//EN",
    ]
    .iter()
    .any(|id| public.eq_ignore_ascii_case(id))
}

/// Whether a `<meta>` makes html5ever report an encoding: a `charset` attribute, or
/// `http-equiv="Content-Type"` whose `content` names a charset (the standard's "extracting a
/// character encoding from a meta element", as html5ever implements it).
fn announces_charset(tag: &Tag) -> bool {
    let attr = |name: LocalName| {
        tag.attrs
            .iter()
            .find(|a| a.name.ns == ns!() && a.name.local == name)
            .map(|a| &a.value)
    };
    if attr(local_name!("charset")).is_some() {
        return true;
    }
    if !attr(local_name!("http-equiv")).is_some_and(|v| v.eq_ignore_ascii_case("content-type")) {
        return false;
    }
    attr(local_name!("content")).is_some_and(|c| content_names_charset(c.as_bytes()))
}

fn content_names_charset(s: &[u8]) -> bool {
    let mut pos = 0;
    loop {
        let Some(found) = s.get(pos..).and_then(|rest| {
            rest.windows(7)
                .position(|w| w.eq_ignore_ascii_case(b"charset"))
        }) else {
            return false;
        };
        pos += found + 7;
        pos += s.get(pos..).map_or(0, |r| {
            r.iter().take_while(|b| b.is_ascii_whitespace()).count()
        });
        if s.get(pos) == Some(&b'=') {
            break;
        }
    }
    pos += 1;
    pos += s.get(pos..).map_or(0, |r| {
        r.iter().take_while(|b| b.is_ascii_whitespace()).count()
    });
    match s.get(pos) {
        None => false,
        Some(&q @ (b'"' | b'\'')) => s.get(pos + 1..).is_some_and(|r| r.contains(&q)),
        Some(_) => true,
    }
}

// ---- Tag sets (html5ever's `tag_sets.rs`, HTML namespace only) --------------------------

tag_set!(is_head_body_html_br = "head" | "body" | "html" | "br");

tag_set!(
    /// Start tags handled by the "in head" rules here (`template` is not).
    is_head_content = "base"
        | "basefont"
        | "bgsound"
        | "link"
        | "meta"
        | "title"
        | "noscript"
        | "noframes"
        | "style"
        | "script"
);

tag_set!(
    /// Start tags that close an open paragraph and open a block (their end tags close it).
    is_block = "address" | "article" | "aside" | "blockquote" | "center" | "details" | "dialog"
        | "dir" | "div" | "dl" | "fieldset" | "figcaption" | "figure" | "footer" | "header"
        | "hgroup" | "main" | "menu" | "nav" | "ol" | "p" | "search" | "section" | "summary"
        | "ul"
);

tag_set!(is_frameset_or_template = "frameset" | "template");

tag_set!(is_heading = "h1" | "h2" | "h3" | "h4" | "h5" | "h6");

tag_set!(
    /// Start tags of a table's parts above rows: they end an open row or table body.
    is_table_part = "caption" | "col" | "colgroup" | "tbody" | "tfoot" | "thead");

tag_set!(
    /// End tags ignored inside a table body, row or cell.
    is_misplaced_table_end = "body" | "caption" | "col" | "colgroup" | "html");

tag_set!(is_row_or_cell = "tr" | "td" | "th");

tag_set!(is_cell = "td" | "th");

tag_set!(is_table_section = "tbody" | "thead" | "tfoot");

tag_set!(is_table_outer = "table" | "tbody" | "tfoot" | "thead" | "tr");

tag_set!(
    has_implied_end = "dd" | "dt" | "li" | "option" | "optgroup" | "p" | "rb" | "rp" | "rt" | "rtc"
);

tag_set!(
    default_scope = "applet"
        | "caption"
        | "html"
        | "table"
        | "td"
        | "th"
        | "marquee"
        | "object"
        | "select"
        | "template"
);

fn button_scope(name: &LocalName) -> bool {
    default_scope(name) || *name == local_name!("button")
}

fn list_item_scope(name: &LocalName) -> bool {
    default_scope(name) || matches!(*name, local_name!("ol") | local_name!("ul"))
}

tag_set!(table_scope = "html" | "table" | "template");

tag_set!(table_body_context = "tbody" | "tfoot" | "thead" | "template" | "html");

tag_set!(table_row_context = "tr" | "template" | "html");

tag_set!(
    is_special = "address"
        | "applet"
        | "area"
        | "article"
        | "aside"
        | "base"
        | "basefont"
        | "bgsound"
        | "blockquote"
        | "body"
        | "br"
        | "button"
        | "caption"
        | "center"
        | "col"
        | "colgroup"
        | "dd"
        | "details"
        | "dir"
        | "div"
        | "dl"
        | "dt"
        | "embed"
        | "fieldset"
        | "figcaption"
        | "figure"
        | "footer"
        | "form"
        | "frame"
        | "frameset"
        | "h1"
        | "h2"
        | "h3"
        | "h4"
        | "h5"
        | "h6"
        | "head"
        | "header"
        | "hgroup"
        | "hr"
        | "html"
        | "iframe"
        | "img"
        | "input"
        | "isindex"
        | "li"
        | "link"
        | "listing"
        | "main"
        | "marquee"
        | "menu"
        | "meta"
        | "nav"
        | "noembed"
        | "noframes"
        | "noscript"
        | "object"
        | "ol"
        | "p"
        | "param"
        | "plaintext"
        | "pre"
        | "script"
        | "section"
        | "select"
        | "source"
        | "style"
        | "summary"
        | "table"
        | "tbody"
        | "td"
        | "template"
        | "textarea"
        | "tfoot"
        | "th"
        | "thead"
        | "title"
        | "tr"
        | "track"
        | "ul"
        | "wbr"
        | "xmp"
);
