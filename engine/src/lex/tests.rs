//! `tokenize` against html5ever's own `Tokenizer`: the same tokens (text joined, parse errors
//! left out) and, through html5ever's `TreeBuilder`, the same tree, on the corpus, on
//! handwritten cases for every tokenizer state, and on generated tag soup.
use std::cell::{Cell, RefCell};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use html5ever::interface::{ElemName, ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{Attribute, LocalName, Namespace, QualName, TokenizerResult};
use proptest::prelude::*;

use super::tokenize;

// ---- Token level ----------------------------------------------------------------------------

/// Records tokens and answers for tags the way a tree builder would (raw text elements switch
/// the tokenizer, `</script>` pauses it, `<meta charset>` reports an encoding), so both
/// tokenizers walk the same states.
#[derive(Default)]
struct Recorder {
    tokens: RefCell<Vec<Token>>,
    /// Open `<svg>`/`<math>` elements: CDATA sections are recognised inside.
    foreign: Cell<u32>,
}

fn answer(tag: &html5ever::tokenizer::Tag, foreign: &Cell<u32>) -> TokenSinkResult<()> {
    let is_foreign = matches!(&*tag.name, "svg" | "math");
    match tag.kind {
        TagKind::StartTag => {
            if is_foreign && !tag.self_closing {
                foreign.set(foreign.get() + 1);
            }
            match &*tag.name {
                "title" | "textarea" => TokenSinkResult::RawData(RawKind::Rcdata),
                "style" | "xmp" | "iframe" | "noembed" | "noframes" | "noscript" => {
                    TokenSinkResult::RawData(RawKind::Rawtext)
                }
                "script" => TokenSinkResult::RawData(RawKind::ScriptData),
                "plaintext" => TokenSinkResult::Plaintext,
                "meta" if tag.attrs.iter().any(|a| &*a.name.local == "charset") => {
                    TokenSinkResult::EncodingIndicator(StrTendril::from_slice("utf-8"))
                }
                _ => TokenSinkResult::Continue,
            }
        }
        TagKind::EndTag => {
            if is_foreign {
                foreign.set(foreign.get().saturating_sub(1));
            }
            if &*tag.name == "script" {
                TokenSinkResult::Script(())
            } else {
                TokenSinkResult::Continue
            }
        }
    }
}

impl TokenSink for Recorder {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let result = match &token {
            Token::TagToken(tag) => answer(tag, &self.foreign),
            _ => TokenSinkResult::Continue,
        };
        self.tokens.borrow_mut().push(token);
        result
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.foreign.get() > 0
    }
}

/// html5ever's tokenizer, driven as depth.rs drives it.
fn reference<S: TokenSink>(input: &str, sink: S) -> S {
    let tokenizer = Tokenizer::new(sink, TokenizerOpts::default());
    let queue = BufferQueue::default();
    queue.push_back(StrTendril::from_slice(input));
    while !matches!(tokenizer.feed(&queue), TokenizerResult::Done) {}
    tokenizer.end();
    tokenizer.sink
}

/// Adjacent text joined, empty text and parse errors dropped.
fn normalize(tokens: Vec<Token>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    for token in tokens {
        match token {
            Token::ParseError(_) => {}
            Token::CharacterTokens(text) if text.is_empty() => {}
            Token::CharacterTokens(text) => match out.last_mut() {
                Some(Token::CharacterTokens(prev)) => prev.push_tendril(&text),
                _ => out.push(Token::CharacterTokens(text)),
            },
            token => out.push(token),
        }
    }
    out
}

fn ours_tokens(input: &str) -> Vec<Token> {
    let recorder = Recorder::default();
    tokenize(input, &recorder);
    normalize(recorder.tokens.into_inner())
}

fn theirs_tokens(input: &str) -> Vec<Token> {
    normalize(reference(input, Recorder::default()).tokens.into_inner())
}

fn same_tokens(input: &str) -> Result<(), String> {
    let ours = ours_tokens(input);
    let theirs = theirs_tokens(input);
    if ours == theirs {
        return Ok(());
    }
    let at = ours
        .iter()
        .zip(&theirs)
        .position(|(a, b)| a != b)
        .unwrap_or(ours.len().min(theirs.len()));
    let window = |t: &[Token]| format!("{:?}", t.get(at.saturating_sub(2)..(at + 3).min(t.len())));
    Err(format!(
        "input {:?}\nfirst difference at token {at}\n ours:   {}\n theirs: {}",
        shorten(input),
        window(&ours),
        window(&theirs)
    ))
}

fn shorten(s: &str) -> String {
    if s.len() <= 600 {
        return s.to_string();
    }
    let mut end = 600;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &s[..end], s.len())
}

// ---- Tree level -----------------------------------------------------------------------------

/// A minimal DOM for html5ever's tree builder that keeps everything the builder decides.
struct Arena {
    nodes: RefCell<Vec<Node>>,
    quirks: Cell<QuirksMode>,
}

struct Node {
    parent: Option<usize>,
    children: Vec<usize>,
    data: Data,
}

enum Data {
    Document,
    Fragment,
    Doctype(String, String, String),
    Element {
        name: QualName,
        attrs: Vec<Attribute>,
        template: Option<usize>,
        integration_point: bool,
    },
    Text(String),
    Comment(String),
    Pi(String, String),
}

#[derive(Debug)]
struct Name(QualName);

impl ElemName for Name {
    fn ns(&self) -> &Namespace {
        &self.0.ns
    }
    fn local_name(&self) -> &LocalName {
        &self.0.local
    }
}

impl Arena {
    fn new() -> Arena {
        Arena {
            nodes: RefCell::new(vec![Node {
                parent: None,
                children: Vec::new(),
                data: Data::Document,
            }]),
            quirks: Cell::new(QuirksMode::NoQuirks),
        }
    }

    fn add(&self, data: Data) -> usize {
        let mut nodes = self.nodes.borrow_mut();
        nodes.push(Node {
            parent: None,
            children: Vec::new(),
            data,
        });
        nodes.len() - 1
    }

    fn detach(nodes: &mut [Node], child: usize) {
        if let Some(parent) = nodes[child].parent.take() {
            nodes[parent].children.retain(|&c| c != child);
        }
    }

    /// Insert at `index` of `parent`'s children, joining text with a text node before it.
    fn insert(&self, parent: usize, index: usize, child: NodeOrText<usize>) {
        let mut nodes = self.nodes.borrow_mut();
        match child {
            NodeOrText::AppendText(text) => {
                let before = index
                    .checked_sub(1)
                    .and_then(|i| nodes[parent].children.get(i).copied());
                if let Some(prev) = before {
                    if let Data::Text(t) = &mut nodes[prev].data {
                        t.push_str(&text);
                        return;
                    }
                }
                nodes.push(Node {
                    parent: Some(parent),
                    children: Vec::new(),
                    data: Data::Text(text.to_string()),
                });
                let id = nodes.len() - 1;
                nodes[parent].children.insert(index, id);
            }
            NodeOrText::AppendNode(node) => {
                Self::detach(&mut nodes, node);
                nodes[node].parent = Some(parent);
                let index = index.min(nodes[parent].children.len());
                nodes[parent].children.insert(index, node);
            }
        }
    }

    fn dump(&self) -> String {
        let nodes = self.nodes.borrow();
        let mut out = format!("quirks: {:?}\n", self.quirks.get());
        let mut stack = vec![(0usize, 0usize)];
        while let Some((id, depth)) = stack.pop() {
            let node = &nodes[id];
            let pad = "  ".repeat(depth);
            let mut children = node.children.clone();
            match &node.data {
                Data::Document => out.push_str("#document\n"),
                Data::Fragment => {
                    let _ = writeln!(out, "{pad}content");
                }
                Data::Doctype(n, p, s) => {
                    let _ = writeln!(out, "{pad}<!DOCTYPE {n:?} {p:?} {s:?}>");
                }
                Data::Element {
                    name,
                    attrs,
                    template,
                    integration_point,
                } => {
                    let _ = write!(out, "{pad}<{:?} {}", name.ns, name.local);
                    for a in attrs {
                        let _ = write!(out, " {:?}:{}={:?}", a.name.ns, a.name.local, &*a.value);
                    }
                    let _ = writeln!(out, "{}>", if *integration_point { " aip" } else { "" });
                    if let Some(t) = template {
                        children.insert(0, *t);
                    }
                }
                Data::Text(t) => {
                    let _ = writeln!(out, "{pad}{t:?}");
                }
                Data::Comment(t) => {
                    let _ = writeln!(out, "{pad}<!-- {t:?} -->");
                }
                Data::Pi(t, d) => {
                    let _ = writeln!(out, "{pad}<?{t:?} {d:?}>");
                }
            }
            for &c in children.iter().rev() {
                stack.push((c, depth + 1));
            }
        }
        out
    }
}

impl TreeSink for Arena {
    type Handle = usize;
    type Output = String;
    type ElemName<'a> = Name;

    fn finish(self) -> String {
        self.dump()
    }

    fn parse_error(&self, _msg: std::borrow::Cow<'static, str>) {}

    fn get_document(&self) -> usize {
        0
    }

    fn elem_name<'a>(&'a self, target: &'a usize) -> Name {
        match &self.nodes.borrow()[*target].data {
            Data::Element { name, .. } => Name(name.clone()),
            _ => Name(QualName::new(None, html5ever::ns!(), LocalName::from(""))),
        }
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> usize {
        let template = flags.template.then(|| self.add(Data::Fragment));
        self.add(Data::Element {
            name,
            attrs,
            template,
            integration_point: flags.mathml_annotation_xml_integration_point,
        })
    }

    fn create_comment(&self, text: StrTendril) -> usize {
        self.add(Data::Comment(text.to_string()))
    }

    fn create_pi(&self, target: StrTendril, data: StrTendril) -> usize {
        self.add(Data::Pi(target.to_string(), data.to_string()))
    }

    fn append(&self, parent: &usize, child: NodeOrText<usize>) {
        let index = self.nodes.borrow()[*parent].children.len();
        self.insert(*parent, index, child);
    }

    fn append_based_on_parent_node(
        &self,
        element: &usize,
        prev_element: &usize,
        child: NodeOrText<usize>,
    ) {
        if self.nodes.borrow()[*element].parent.is_some() {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, name: StrTendril, public: StrTendril, system: StrTendril) {
        let id = self.add(Data::Doctype(
            name.to_string(),
            public.to_string(),
            system.to_string(),
        ));
        self.append(&0, NodeOrText::AppendNode(id));
    }

    fn get_template_contents(&self, target: &usize) -> usize {
        match &self.nodes.borrow()[*target].data {
            Data::Element {
                template: Some(t), ..
            } => *t,
            _ => *target,
        }
    }

    fn same_node(&self, x: &usize, y: &usize) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.quirks.set(mode);
    }

    fn append_before_sibling(&self, sibling: &usize, child: NodeOrText<usize>) {
        let (parent, index) = {
            let nodes = self.nodes.borrow();
            let Some(parent) = nodes[*sibling].parent else {
                return;
            };
            let index = nodes[parent]
                .children
                .iter()
                .position(|c| c == sibling)
                .unwrap_or(0);
            (parent, index)
        };
        if let NodeOrText::AppendNode(node) = &child {
            // Detaching first may shift the sibling's index.
            let mut nodes = self.nodes.borrow_mut();
            Self::detach(&mut nodes, *node);
            let index = nodes[parent]
                .children
                .iter()
                .position(|c| c == sibling)
                .unwrap_or(0);
            drop(nodes);
            self.insert(parent, index, child);
            return;
        }
        self.insert(parent, index, child);
    }

    fn add_attrs_if_missing(&self, target: &usize, attrs: Vec<Attribute>) {
        if let Data::Element { attrs: have, .. } = &mut self.nodes.borrow_mut()[*target].data {
            for a in attrs {
                if !have.iter().any(|h| h.name == a.name) {
                    have.push(a);
                }
            }
        }
    }

    fn remove_from_parent(&self, target: &usize) {
        Self::detach(&mut self.nodes.borrow_mut(), *target);
    }

    fn reparent_children(&self, node: &usize, new_parent: &usize) {
        let mut nodes = self.nodes.borrow_mut();
        let children = std::mem::take(&mut nodes[*node].children);
        for &c in &children {
            nodes[c].parent = Some(*new_parent);
        }
        nodes[*new_parent].children.extend(children);
    }

    fn is_mathml_annotation_xml_integration_point(&self, handle: &usize) -> bool {
        matches!(
            self.nodes.borrow()[*handle].data,
            Data::Element {
                integration_point: true,
                ..
            }
        )
    }
}

fn ours_tree(input: &str) -> String {
    let builder = TreeBuilder::new(Arena::new(), TreeBuilderOpts::default());
    tokenize(input, &builder);
    builder.sink.finish()
}

fn theirs_tree(input: &str) -> String {
    let builder = TreeBuilder::new(Arena::new(), TreeBuilderOpts::default());
    reference(input, builder).sink.finish()
}

fn same_tree(input: &str) -> Result<(), String> {
    let ours = ours_tree(input);
    let theirs = theirs_tree(input);
    if ours == theirs {
        return Ok(());
    }
    let line = ours
        .lines()
        .zip(theirs.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(0);
    let pick = |t: &str| {
        t.lines()
            .skip(line.saturating_sub(2))
            .take(5)
            .collect::<Vec<_>>()
            .join("\n")
    };
    Err(format!(
        "input {:?}\ntrees differ at line {line}\n ours:\n{}\n theirs:\n{}",
        shorten(input),
        pick(&ours),
        pick(&theirs)
    ))
}

// ---- Inputs ---------------------------------------------------------------------------------

fn corpus_pages() -> Vec<(PathBuf, String)> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus"));
    let mut dirs = vec![root.to_path_buf()];
    let mut pages = Vec::new();
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "html") {
                if let Ok(bytes) = std::fs::read(&path) {
                    pages.push((path, String::from_utf8_lossy(&bytes).into_owned()));
                }
            }
        }
    }
    pages.sort();
    pages
}

/// Where a snippet is put: each switches the tokenizer (or tree builder) into another state.
const CONTEXTS: &[(&str, &str)] = &[
    ("", ""),
    ("x", "y"),
    ("<pre>", "</pre>"),
    ("<listing>", ""),
    ("<textarea>", "</textarea>"),
    ("<title>", "</title>"),
    ("<style>", "</style>"),
    ("<xmp>", "</xmp>"),
    ("<script>", "</script>"),
    ("<script><!--", "--></script>"),
    ("<script><!--<script>", "</script>--></script>"),
    ("<plaintext>", ""),
    ("<svg>", "</svg>"),
    ("<math><mi>", ""),
    ("<table>", "</table>"),
    ("<select>", ""),
    ("<template>", "</template>"),
    ("<!DOCTYPE html><p>", "</p>"),
    ("<frameset>", ""),
];

/// One snippet per interesting path through each tokenizer state.
const SNIPPETS: &[&str] = &[
    // Text and newlines.
    "", "a", "a\r\nb", "a\rb", "\r", "\r\n", "\n", "\n\r", "\r\r\n\n", "a\0b", "\0", "\0\0",
    "\u{FEFF}a", "é€😀", "\u{FFFD}", "\x0C", " \t\n",
    // Character references.
    "&amp;", "&amp", "&ampx", "&amp=", "&amp;x", "&AMP;", "&AMP", "&notit;", "&notin;", "&not",
    "&noti", "&not;", "&#65;", "&#x41;", "&#X41", "&#65", "&#x;", "&#;", "&#", "&#x", "&#X",
    "&", "&;", "&&", "&xyz;", "&xyz", "&1;", "&#0;", "&#x80;", "&#x81;", "&#x8D;", "&#x9F;",
    "&#128;", "&#xD800;", "&#xDFFF;", "&#x110000;", "&#99999999999999;", "&#x0000000041;",
    "&#11;", "&#xFFFE;", "&#x1FFFF;", "&#xFDD0;", "&#13;", "&#10;", "&#10", "&#xA", "&#xa;x",
    "&NewLine;", "&NewLine", "&CounterClockwiseContourIntegral;", "&lt", "&ltx", "&gtx",
    "&nbsp;x", "&nbsp", "&amp&amp;", "&a\r\nb", "&#\r\n", "&\0", "&#x41\0", "&lt\r", "&quot;",
    "&apos;", "&copy", "&copy=", "&copyx", "&ccedil", "&yuml", "&yuml;", "&e\u{301}",
    "&acE;", "&ThickSpace;", "&b=2",
    // Tags and attributes.
    "<a>", "<A HREF=X>", "<a href='x'>", "<a href=\"x\">", "<a href=x>", "<a href>",
    "<a href=>", "<a href = x >", "<a b c d>", "<a b=1 b=2>", "<a B=1 b=2 b=3>", "<a/>",
    "<a / >", "<a b/>", "<a b=c/>", "<a b='c'/>", "<a b='c'd>", "<a b=\"c\"d=e>", "<a =b>",
    "<a ==b>", "<a \"b\"=c>", "<a 'b'>", "<a b=\"&amp;\">", "<a b='&amp'>", "<a b=&ampx>",
    "<a b=&amp=>", "<a b=&amp;=>", "<a b=&notit>", "<a b='&notit;'>", "<a b=&#x41>",
    "<a b=\"\r\n\">", "<a b='\r'>", "<a b=\"\0\">", "<a b=c\0d>", "<a\0b>", "<a b\0=c>",
    "<A\0B>", "<a\r\nb>", "<a\tb\x0Cc>", "<a<b>", "<a b<c>", "<a b=c<d>", "<a b=`c`>",
    "<a b=\"c", "<a b='c", "<a b=c", "<a b=", "<a b", "<a ", "<a", "<a/", "<", "<a b=\r\n'c'>",
    "<a b = \"c\" / >", "<a b/c>", "<br/>", "<p/>", "<ä>", "<aä>", "<a ä=ö>", "<ÄÄ>",
    "<a B=\"C\" b=D>", "<img src=x alt=\"a > b\">", "<a b='c' d=\"e\" f=g h>",
    "<meta charset=utf-8>\u{FEFF}x", "<a b='&#0;'>", "<a b=\"&#x80;\">",
    // Names the lexer recognises from a word before scanning (`atoms::Hot`).
    "<span>", "<span/>", "<span\tclass=x>", "<spanx>", "<Span>", "<span\0>", "<code", "<td",
    "<a class=x id=y href=z title=t style=s>", "<p classx=1 class=2>", "<div class>",
    "<div class", "<div class=", "<li Class=x>", "<ul id\0=1>", "<em title\r\n=x>",
    "</span >", "</spanx>", "</li/>", "</p", "<p id='a' id=b>",
    // End tags.
    "</", "</a", "</a ", "</a b", "</a b=c>", "</a/>", "</a b/>", "</>", "</ >", "</ x>",
    "</0>", "</\0>", "</\r\n>", "</A>", "</a\0>", "</>\nx", "</>&#10;", "</></>\n",
    // Other `<`.
    "<0>", "< a>", "<?xml version=1?>", "<?", "<?\0>", "<!>", "<!x>", "<!", "<!-", "<!-x>",
    "<!DOCTYP", "<!\0>", "<!\r\n>", "<\0", "<\r\n", "<&amp;", "<<a>",
    // Comments.
    "<!---->", "<!-->", "<!--->", "<!-- a -->", "<!--a--!>", "<!--a--!-->", "<!--a--!x-->",
    "<!--a---->", "<!--a-- b-->", "<!--<!-- -->", "<!--<!-->", "<!--a<!--b-->",
    "<!--<!--->", "<!--<-->", "<!--<<!-->", "<!--<!x-->", "<!--<!-x-->", "<!--", "<!--a",
    "<!--a-", "<!--a--", "<!--a--!", "<!--a---", "<!---", "<!--<", "<!--<!", "<!--<!-",
    "<!--<!--", "<!--\0-->", "<!--\r\n-->", "<!---\0-->", "<!--a-\0-->", "<!--a--!\0-->",
    "<!--a-\r-->", "<!--a--\r\n-->", "<!----!>", "<!---->x", "<!--\0", "<!-- --!- -->",
    "<!-- <!-- --!> -->", "<!--a-b-->",
    // DOCTYPE.
    "<!DOCTYPE html>", "<!doctype html>", "<!DoCtYpE HtMl>", "<!DOCTYPE>", "<!DOCTYPE >",
    "<!DOCTYPEhtml>",
    "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\" \"http://www.w3.org/TR/html4/strict.dtd\">",
    "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\">",
    "<!DOCTYPE html SYSTEM 'about:legacy-compat'>", "<!DOCTYPE html PUBLIC>",
    "<!DOCTYPE html PUBLIC\"x\">", "<!DOCTYPE html PUBLIC 'x''y'>",
    "<!DOCTYPE html PUBLIC \"x\" 'y' z>", "<!DOCTYPE html SYSTEM \"x\" z>",
    "<!DOCTYPE html bogus>", "<!DOCTYPE html \"x\">", "<!DOCTYPE \0>", "<!DOCTYPE a\0b>",
    "<!DOCTYPE html PUBLIC \"a\0\r\nb\">", "<!DOCTYPE html PUBLIC \"a>", "<!DOCTYPE html PUBLIC 'a>",
    "<!DOCTYPE", "<!DOCTYPE ", "<!DOCTYPE html", "<!DOCTYPE html ", "<!DOCTYPE html PUBLIC",
    "<!DOCTYPE html PUBLIC \"x", "<!DOCTYPE html PUBLIC \"x\"", "<!DOCTYPE html PUBLIC \"x\" ",
    "<!DOCTYPE html PUBLIC \"x\" \"y", "<!DOCTYPE html SYSTEM", "<!DOCTYPE html SYSTEM \"y\"",
    "<!DOCTYPE html x", "<!DOCTYPE html\r\nPUBLIC \"x\">", "<!DOCTYPE html PUBLICx>",
    "<!DOCTYPE html SYSTEM\"y\">", "<!DOCTYPE ÄÖ>", "<!DOCTYPE html PUBLIC \"x\">",
    "<!DOCTYPE html SYSTEM \"y\" >", "<!DOCTYPE html PUBLIC \"x\"\"y\">", "<!DOCTYPE html publi",
    "<!DOCTYPE html \r\n system 'q'>", "<!DOCTYPE html PUBLIC 'x' >",
    // CDATA.
    "<![CDATA[x]]>", "<![CDATA[]]>", "<![CDATA[a]]]>", "<![CDATA[a]]]]>", "<![CDATA[a\0b]]>",
    "<![CDATA[\0]]>", "<![CDATA[a", "<![CDATA[a]", "<![CDATA[a]]", "<![CDATA[a]b]]>",
    "<![CDATA[\r\n]]>", "<![cdata[x]]>", "<![CDATA[", "<![CDATA", "<![CDATA[]\0]>",
    "<![CDATA[\n]]>", "<![CDATA[<b>&amp;</b>]]>",
    // Raw text, RCDATA, script data.
    "</title>", "</title >", "</TITLE>", "</titlex>", "</tit>", "</title", "</title/>",
    "</title a=b>", "</title\r\n>", "</textarea>", "</style>", "</style x>", "</xmp>",
    "</script>", "</script", "</scriptx>", "</script\t>", "</SCRIPT>", "</script/>",
    "<!-->", "<!--->", "<!---->", "<!-- -- >", "<!--<script>", "<!--<script></script>",
    "<!--<script>--></script>", "<!--<SCRIPT>-</script>", "<!--<scripts></script>",
    "<!--<script/></script>-->", "<!--<script\r\n></script>-->", "<!--<script>\0",
    "<!--\0-\0--\0", "<!", "<!-", "<!--", "<!--<", "<!--</", "<!--</scr", "<!--<s",
    "<!--<script></", "<!--<script></scr", "<!--<script>-", "<!--<script>--",
    "<!--<script>--<", "<!--<script>--<x", "<!--<script>-<", "<!--<script>--></script>",
    "<!--<script></script >-->", "<!--<script><!--</script>", "<!--a--!>", "<!--a-->",
    "<!--a->", "<!--a-<", "<!--a--<script>", "-->", "--!>", "<!--<scrip>t</script>",
    "<!--<script></script/>", "<!--<script></scriptx>", "<!--<scRipt>x</scrIpt>-->",
    "a<b", "a</b", "a</ b", "<\0", "</\0", "&#x41;",
];

/// Fragments for generated tag soup.
const FRAGMENTS: &[&str] = &[
    "<",
    "</",
    ">",
    "/>",
    "/",
    "<!--",
    "-->",
    "--!>",
    "-",
    "--",
    "<!",
    "<!DOCTYPE",
    "<!doctype",
    " html",
    " PUBLIC",
    " SYSTEM",
    "&amp",
    "&amp;",
    "&#x80;",
    "&#0;",
    "&#",
    "&#x",
    "&notit;",
    "&not",
    "&",
    ";",
    "\r\n",
    "\r",
    "\n",
    "\0",
    "\"",
    "'",
    "=",
    " ",
    "\t",
    "a",
    "b",
    "x",
    "A",
    "B=1",
    "é",
    "😀",
    "\u{FEFF}",
    "<a",
    "<a href=",
    "<b>",
    "</b>",
    "<p>",
    "</p>",
    "<pre>",
    "<textarea>",
    "</textarea>",
    "<title>",
    "</title>",
    "<style>",
    "</style>",
    "<script>",
    "</script",
    "</script>",
    "<!--<script>",
    "<script",
    "<svg>",
    "</svg>",
    "<math>",
    "<![CDATA[",
    "]]>",
    "]",
    "<?",
    "<table>",
    "<td>",
    "<tr>",
    "<template>",
    "</template>",
    "<plaintext>",
    "<select>",
    "<option>",
    "<li>",
    "<div>",
    "</div>",
    "<br/>",
    "<xmp>",
    "<noscript>",
    "<iframe>",
    "<meta charset=x>",
    "<frameset>",
    "<body>",
    "<head>",
    "<html>",
    "<input type=hidden>",
    "<listing>",
    "<foreignObject>",
    "<mi>",
    "<desc>",
];

fn fragments() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..32).prop_map(|v| v.concat())
}

fn cases() -> Vec<String> {
    let mut out = Vec::new();
    for &(before, after) in CONTEXTS {
        for &snippet in SNIPPETS {
            out.push(format!("{before}{snippet}{after}"));
            out.push(format!("{before}{snippet}"));
            out.push(format!("{before}{snippet}\n<p>x</p>"));
        }
    }
    out
}

// ---- Tests ----------------------------------------------------------------------------------

#[test]
fn corpus_tokens_match_html5ever() {
    let pages = corpus_pages();
    assert!(pages.len() >= 40, "corpus not found: {} pages", pages.len());
    for (path, html) in &pages {
        if let Err(e) = same_tokens(html) {
            panic!("{}: {e}", path.display());
        }
    }
}

#[test]
fn corpus_trees_match_html5ever() {
    for (path, html) in &corpus_pages() {
        if let Err(e) = same_tree(html) {
            panic!("{}: {e}", path.display());
        }
    }
}

/// Every edge case through `same`, reporting how many differ and the first five.
fn all_edge_cases_agree(same: fn(&str) -> Result<(), String>) {
    let cases = cases();
    assert!(cases.len() > 10_000);
    let failures: Vec<String> = cases.iter().filter_map(|c| same(c).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} differ; first:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

/// `depth` skips counting the tree builder's handles while they cannot have reached its cap;
/// in unit tests it checks that bound at every start tag (see `Capped::over_cap`).
#[test]
fn handle_bound_holds_on_corpus_and_edge_cases() {
    for (_, html) in &corpus_pages() {
        crate::dom::Dom::parse(html);
    }
    for case in cases() {
        crate::dom::Dom::parse(&case);
    }
}

#[test]
fn edge_case_tokens_match_html5ever() {
    all_edge_cases_agree(same_tokens);
}

#[test]
fn edge_case_trees_match_html5ever() {
    all_edge_cases_agree(same_tree);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn tag_soup_tokens_match_html5ever(input in fragments()) {
        if let Err(e) = same_tokens(&input) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn tag_soup_trees_match_html5ever(input in fragments()) {
        if let Err(e) = same_tree(&input) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn long_tag_soup_keeps_the_handle_bound(
        input in prop::collection::vec(prop::sample::select(FRAGMENTS), 0..600)
            .prop_map(|v| v.concat())
    ) {
        // The bound itself is asserted inside (see `handle_bound_holds_on_corpus_and_edge_cases`).
        crate::dom::Dom::parse(&input);
    }

    #[test]
    fn arbitrary_text_matches_html5ever(input in "[<>/!?&#;a-zA-Z0-9=\"' \r\n\t\0\\-\\]\\[é]{0,64}") {
        if let Err(e) = same_tokens(&input) {
            prop_assert!(false, "{}", e);
        }
        if let Err(e) = same_tree(&input) {
            prop_assert!(false, "{}", e);
        }
    }
}

#[test]
fn pre_drops_only_the_first_newline_as_html5ever_does() {
    // Parse errors between `<pre>` and the newline decide whether the newline is dropped.
    for input in [
        "<pre>\nx</pre>",
        "<pre>\r\nx</pre>",
        "<pre></>\nx</pre>",
        "<pre>&#10x</pre>",
        "<pre>&#10;x</pre>",
        "<pre>&#10",
        "<textarea>&#xA</textarea>",
        "<listing>&NewLine;x",
        "<pre><![CDATA[\n]]>",
        "<svg><pre>\n</pre></svg>",
    ] {
        if let Err(e) = same_tree(input) {
            panic!("{e}");
        }
    }
    let dump = ours_tree("<pre></>\nx</pre>");
    assert!(dump.contains("\"\\nx\""), "{dump}");
    let dump = ours_tree("<pre>\nx</pre>");
    assert!(
        dump.contains("\"x\"") && !dump.contains("\"\\nx\""),
        "{dump}"
    );
}

#[test]
fn text_runs_share_the_input_buffer() {
    let input = "<p class=\"a-rather-long-class-name\">Some text that is long enough to share.</p>";
    let recorder = Recorder::default();
    tokenize(input, &recorder);
    let tokens = recorder.tokens.into_inner();
    let Some(Token::TagToken(p)) = tokens.first() else {
        panic!("{tokens:?}");
    };
    let Some(Token::CharacterTokens(text)) = tokens.get(1) else {
        panic!("{tokens:?}");
    };
    let class = &p.attrs[0].value;
    assert!(text.is_shared(), "text was copied");
    assert!(
        class.is_shared() && class.is_shared_with(text),
        "attribute value was copied"
    );
}

/// Sink that only counts, for hostile inputs and throughput.
#[derive(Default)]
struct Counter {
    tokens: Cell<usize>,
    bytes: Cell<usize>,
}

impl TokenSink for Counter {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        self.tokens.set(self.tokens.get() + 1);
        match &token {
            Token::CharacterTokens(t) | Token::CommentToken(t) => {
                self.bytes.set(self.bytes.get() + t.len());
            }
            Token::TagToken(tag) => {
                let attrs: usize = tag.attrs.iter().map(|a| a.value.len()).sum();
                self.bytes.set(self.bytes.get() + tag.name.len() + attrs);
                return answer(tag, &Cell::new(0));
            }
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

#[test]
fn hostile_inputs_are_linear_and_do_not_panic() {
    let mut long_attr = String::from("<a href=\"");
    long_attr.push_str(&"x&amp;".repeat(1_000_000));
    long_attr.push_str("\">t</a>");
    let hostile = [
        "<div>".repeat(200_000),
        "<a b".repeat(200_000),
        long_attr,
        format!("<p title='{}'>", "y".repeat(5_000_000)),
        "&amp;".repeat(1_000_000),
        "&amp".repeat(1_000_000),
        "&#x41".repeat(1_000_000),
        format!("&#{}", "9".repeat(1_000_000)),
        format!("<!--{}", "<!--x-".repeat(300_000)),
        format!("<!DOCTYPE html PUBLIC \"{}", "z".repeat(2_000_000)),
        format!("<script>{}", "<!--<script>-->".repeat(200_000)),
        format!("<title>{}", "</tit".repeat(300_000)),
        format!("<svg><![CDATA[{}", "]\0]".repeat(300_000)),
        "\r\n\0".repeat(500_000),
        format!(
            "<a {}>",
            (0..100_000).map(|i| format!("a{i} ")).collect::<String>()
        ),
        format!("<a {}>", "b ".repeat(200_000)),
    ];
    for input in &hostile {
        let started = Instant::now();
        let counter = Counter::default();
        tokenize(input, &counter);
        let took = started.elapsed();
        assert!(counter.tokens.get() >= 1);
        // 1-6 MB each: linear work takes well under a second optimised (a few seconds in a
        // debug build); quadratic work on inputs this size would take hours.
        let limit = if cfg!(debug_assertions) { 60.0 } else { 5.0 };
        assert!(
            took.as_secs_f64() < limit,
            "{} bytes took {took:?}: {:?}",
            input.len(),
            shorten(&input[..40])
        );
    }
    // And the output is still html5ever's on a smaller scale of each.
    for input in &hostile {
        let mut end = input.len().min(20_000);
        while !input.is_char_boundary(end) {
            end -= 1;
        }
        if let Err(e) = same_tokens(&input[..end]) {
            panic!("{e}");
        }
    }
}

/// `cargo test --release -p agent-markdown lex::tests::throughput -- --ignored --nocapture`
#[test]
#[ignore]
fn throughput() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus"));
    let mut docs: Vec<String> = std::fs::read_dir(root.join("docs"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .filter_map(|p| std::fs::read(p).ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect();
    docs.sort();
    let large = std::fs::read(root.join("large/bench-1200kb.html"))
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let sets: [(&str, Vec<String>); 2] = [("docs/*.html", docs), ("bench-1200kb", vec![large])];
    let mib = |bytes: usize, secs: f64| bytes as f64 / secs / (1024.0 * 1024.0);
    for (label, pages) in &sets {
        let bytes: usize = pages.iter().map(String::len).sum();
        let rounds = (64 << 20) / bytes.max(1) + 1;
        let time = |f: &dyn Fn(&str)| {
            let started = Instant::now();
            for _ in 0..rounds {
                for page in pages {
                    f(page);
                }
            }
            mib(bytes * rounds, started.elapsed().as_secs_f64())
        };
        let theirs = time(&|p| {
            std::hint::black_box(reference(p, Counter::default()).tokens.get());
        });
        let ours = time(&|p| {
            let counter = Counter::default();
            tokenize(p, &counter);
            std::hint::black_box(counter.tokens.get());
        });
        let theirs_tree = time(&|p| {
            let builder = TreeBuilder::new(Arena::new(), TreeBuilderOpts::default());
            let builder = reference(p, builder);
            std::hint::black_box(builder.sink.nodes.borrow().len());
        });
        let ours_tree = time(&|p| {
            let builder = TreeBuilder::new(Arena::new(), TreeBuilderOpts::default());
            tokenize(p, &builder);
            std::hint::black_box(builder.sink.nodes.borrow().len());
        });
        println!(
            "{label} ({bytes} bytes x {rounds}): tokenizer html5ever {theirs:.1} MiB/s, lex {ours:.1} MiB/s ({:.2}x); \
             + TreeBuilder + arena DOM: html5ever {theirs_tree:.1} MiB/s, lex {ours_tree:.1} MiB/s ({:.2}x)",
            ours / theirs,
            ours_tree / theirs_tree
        );
    }
}

/// One pass over corpus/docs with one tokenizer, for instruction counts under callgrind:
/// `LEX_PROFILE=ours|theirs|ours-tree|theirs-tree valgrind --tool=callgrind <test binary>
/// --exact lex::tests::profile_once --ignored`
#[test]
#[ignore]
fn profile_once() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/docs"));
    let which = std::env::var("LEX_PROFILE").unwrap_or_default();
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    for path in pages {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let page = String::from_utf8_lossy(&bytes);
        match which.as_str() {
            "ours" => {
                let counter = Counter::default();
                tokenize(&page, &counter);
                std::hint::black_box(counter.tokens.get());
            }
            "theirs" => {
                std::hint::black_box(reference(&page, Counter::default()).tokens.get());
            }
            "ours-tree" => {
                let builder = TreeBuilder::new(Arena::new(), TreeBuilderOpts::default());
                tokenize(&page, &builder);
                std::hint::black_box(builder.sink.nodes.borrow().len());
            }
            "theirs-tree" => {
                let builder = TreeBuilder::new(Arena::new(), TreeBuilderOpts::default());
                std::hint::black_box(reference(&page, builder).sink.nodes.borrow().len());
            }
            _ => {}
        }
    }
}
