//! An index-based DOM arena filled by html5ever's tree builder.
//!
//! Nodes live in one `Vec` and link to each other by `u32` index (parent, first/last child,
//! previous/next sibling), text lives in one shared buffer, and only the attributes the
//! renderer reads are kept. Compared with `RcDom` this means no reference counting, no
//! per-node allocation, and — important inside a wasm VM — dropping the tree is freeing a few
//! vectors, never a recursive walk.
use std::borrow::Cow;
use std::cell::RefCell;

use html5ever::interface::{ElemName, ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::{local_name, ns, Attribute, LocalName, Namespace, QualName};

use crate::lex::AttrPool;

/// Index of a node in [`Dom::nodes`].
pub type NodeId = u32;
/// "No node" in link fields.
pub const NONE: NodeId = u32::MAX;
/// The document node is always the first node.
pub const DOCUMENT: NodeId = 0;

macro_rules! tags {
    ($($variant:ident = $name:tt,)*) => {
        /// HTML elements the converter distinguishes; everything else is `Other`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Tag { $($variant,)* Other, Svg, Math, Foreign }

        /// Every name here is one of html5ever's static atoms, so this compares integers.
        fn tag_of(local: &LocalName) -> Tag {
            match *local { $(local_name!($name) => Tag::$variant,)* _ => Tag::Other }
        }

        /// The HTML-namespace name of a known tag, for html5ever's `elem_name` (which asks
        /// for a name hundreds of thousands of times per page: no clone, no borrow).
        static TAG_NAMES: &[LocalName] = &[$(local_name!($name),)*];
    };
}

tags! {
    A = "a", Abbr = "abbr", Address = "address", Area = "area", Article = "article",
    Aside = "aside", Audio = "audio", B = "b", Base = "base", Big = "big",
    Blockquote = "blockquote", Body = "body", Br = "br", Button = "button", Canvas = "canvas",
    Caption = "caption", Center = "center", Cite = "cite", Code = "code", Col = "col",
    Colgroup = "colgroup", Datalist = "datalist", Dd = "dd", Del = "del", Details = "details",
    Dfn = "dfn", Dialog = "dialog", Dir = "dir", Div = "div", Dl = "dl", Dt = "dt", Em = "em",
    Embed = "embed", Fieldset = "fieldset", Figcaption = "figcaption", Figure = "figure",
    Footer = "footer", Form = "form", Frame = "frame", Frameset = "frameset", H1 = "h1",
    H2 = "h2", H3 = "h3", H4 = "h4", H5 = "h5", H6 = "h6", Head = "head", Header = "header",
    Hgroup = "hgroup", Hr = "hr", Html = "html", I = "i", Iframe = "iframe", Img = "img",
    Input = "input", Ins = "ins", Kbd = "kbd", Label = "label", Legend = "legend", Li = "li",
    Link = "link", Listing = "listing", Main = "main", Map = "map", Mark = "mark", Menu = "menu",
    Meta = "meta", Meter = "meter", Nav = "nav", Noembed = "noembed", Noframes = "noframes",
    Noscript = "noscript", Object = "object", Ol = "ol", Optgroup = "optgroup",
    Option = "option", Output = "output", P = "p", Param = "param", Picture = "picture",
    Plaintext = "plaintext", Pre = "pre", Progress = "progress", Q = "q", Rp = "rp", Rt = "rt",
    Ruby = "ruby", S = "s", Samp = "samp", Script = "script", Search = "search",
    Section = "section", Select = "select", Slot = "slot", Small = "small", Source = "source",
    Span = "span", Strike = "strike", Strong = "strong", Style = "style", Sub = "sub",
    Summary = "summary", Sup = "sup", Table = "table", Tbody = "tbody", Td = "td",
    Template = "template", Textarea = "textarea", Tfoot = "tfoot", Th = "th", Thead = "thead",
    Time = "time", Title = "title", Tr = "tr", Track = "track", Tt = "tt", U = "u", Ul = "ul",
    Var = "var", Video = "video", Wbr = "wbr", Xmp = "xmp",
}

macro_rules! attrs {
    ($($variant:ident = $name:tt,)* ; $($other:ident = $($other_name:literal)|+,)*) => {
        /// Attributes the converter reads; all others are discarded while parsing.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Attr { $($variant,)* $($other,)* }

        /// The names before the `;` are html5ever's static atoms, compared as integers (every
        /// attribute of every element is looked up here); the rest are compared as strings.
        fn attr_of(local: &LocalName) -> Option<Attr> {
            match *local {
                $(local_name!($name) => Some(Attr::$variant),)*
                _ => match &**local { $($($other_name)|+ => Some(Attr::$other),)* _ => None },
            }
        }

        // One bit per attribute in `Kind::Element::present`.
        const _: () = assert!([$(Attr::$variant,)* $(Attr::$other,)*].len() <= 32);
    };
}

attrs! {
    Align = "align", Alt = "alt", AriaHidden = "aria-hidden", AriaLabel = "aria-label",
    Charset = "charset",
    Checked = "checked", Class = "class", Colspan = "colspan", Content = "content",
    Datetime = "datetime", Hidden = "hidden", Href = "href",
    HttpEquiv = "http-equiv", Id = "id", Itemprop = "itemprop", Lang = "lang", Name = "name",
    Open = "open", Poster = "poster", Property = "property", Rel = "rel", Reversed = "reversed",
    Role = "role", Rowspan = "rowspan", Src = "src", Start = "start", Style = "style",
    Title = "title", Type = "type", Value = "value",
    ;
    // Shiki transformers and rehype-pretty-code write `data-language`, Mintlify `language`:
    // one bit for both (all 32 are taken).
    CodeLanguage = "data-language" | "language", DataSrc = "data-src",
}

impl Attr {
    /// This attribute's bit in [`Kind::Element::present`].
    #[inline]
    pub const fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// What a node is. Ranges index [`Dom::text`], [`Dom::attrs`] and [`Dom::attr_text`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Document,
    Element {
        tag: Tag,
        /// Index in the element names, or [`NONE`] for a known HTML tag (named by `tag`).
        name: u32,
        attrs: (u32, u32),
        /// Which attributes `attrs` holds, one bit each ([`Attr::bit`]): most look-ups ask
        /// for an attribute the element does not have and end here without a scan.
        present: u32,
        template: NodeId,
        /// Hidden by its own attributes (see [`Dom::is_hidden`]): decided once while parsing
        /// rather than by four attribute look-ups in every pass that asks.
        hidden: bool,
    },
    Text {
        start: u32,
        end: u32,
    },
    /// Comments, processing instructions, doctypes and template fragments: never rendered.
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    pub parent: NodeId,
    pub first_child: NodeId,
    pub last_child: NodeId,
    pub prev: NodeId,
    pub next: NodeId,
    pub kind: Kind,
}

/// A parsed document.
#[derive(Debug, Default, PartialEq)]
pub struct Dom {
    pub nodes: Vec<Node>,
    pub text: String,
    pub attrs: Vec<(Attr, u32, u32)>,
    pub attr_text: String,
    names: Vec<QualName>,
    /// `<script type="application/ld+json">` elements in the order they were made (source
    /// order), so the metadata pass reads them without walking the whole tree. Some may have
    /// been moved or removed by the tree builder: see [`Dom::in_document`].
    pub json_ld: Vec<NodeId>,
    /// The page has a MathML `<math>` element: only then are formulas looked for.
    pub has_math: bool,
}

impl Dom {
    /// Parse a whole document. Never fails: html5ever recovers from any input.
    pub fn parse(html: &str) -> Dom {
        let pool = AttrPool::default();
        crate::build::parse(html, &pool).unwrap_or_else(|| Dom::parse_with(html, &pool))
    }

    /// [`Dom::parse`] through html5ever's tree builder alone, never [`crate::build`]: for
    /// checking that the two build the same tree (`examples/treecheck.rs`, tests).
    #[doc(hidden)]
    pub fn parse_with_tree_builder(html: &str) -> Dom {
        Dom::parse_with(html, &AttrPool::default())
    }

    /// [`crate::build`]'s tree, or `None` where it gives way to html5ever's tree builder.
    #[doc(hidden)]
    pub fn parse_tidy(html: &str) -> Option<Dom> {
        crate::build::parse(html, &AttrPool::default())
    }

    fn parse_with(html: &str, pool: &AttrPool) -> Dom {
        let sink = Sink {
            dom: RefCell::new(Dom::with_capacity(html.len())),
            pool,
        };
        crate::depth::parse(sink, html, pool)
    }

    pub(crate) fn with_capacity(input_len: usize) -> Dom {
        // Pages in the corpus have one node per 15-40 input bytes (27 on the large ones), one
        // kept attribute per 35-250 bytes, up to half of their bytes in text and, on
        // documentation pages, up to 45 % in kept attribute values. Reserving for the dense
        // end saves the copies of growing these vectors while the tree builder fills them.
        let mut dom = Dom {
            nodes: Vec::with_capacity(input_len / 20 + 16),
            text: String::with_capacity(input_len / 2),
            attrs: Vec::with_capacity(input_len / 32 + 16),
            attr_text: String::with_capacity(input_len / 4),
            names: Vec::new(),
            json_ld: Vec::new(),
            has_math: false,
        };
        dom.push(Kind::Document);
        dom
    }

    fn push(&mut self, kind: Kind) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node {
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            prev: NONE,
            next: NONE,
            kind,
        });
        id
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// The element's tag, or `None` for non-elements.
    #[inline]
    pub fn tag(&self, id: NodeId) -> Option<Tag> {
        match self.node(id).kind {
            Kind::Element { tag, .. } => Some(tag),
            _ => None,
        }
    }

    /// The text of a text node (empty for other nodes).
    #[inline]
    pub fn text_of(&self, id: NodeId) -> &str {
        match self.node(id).kind {
            Kind::Text { start, end } => self.text.get(start as usize..end as usize).unwrap_or(""),
            _ => "",
        }
    }

    /// An attribute's value, if the element has it.
    #[inline]
    pub fn attr(&self, id: NodeId, which: Attr) -> Option<&str> {
        let Kind::Element {
            attrs: (a, b),
            present,
            ..
        } = self.node(id).kind
        else {
            return None;
        };
        if present & which.bit() == 0 {
            return None;
        }
        self.attrs
            .get(a as usize..b as usize)?
            .iter()
            .find(|(name, _, _)| *name == which)
            .and_then(|&(_, s, e)| self.attr_text.get(s as usize..e as usize))
    }

    /// Whether the element's `class` holds one of `names` as a whole token (case-sensitive,
    /// as CSS class selectors are).
    pub fn has_class(&self, id: NodeId, names: &[&str]) -> bool {
        self.has_class_where(id, |c| names.contains(&c))
    }

    /// Whether one of the element's `class` tokens satisfies `is_name` (a `matches!` over
    /// fixed names compiles to a few comparisons where a list would be scanned per token).
    pub fn has_class_where(&self, id: NodeId, is_name: impl Fn(&str) -> bool) -> bool {
        self.attr(id, Attr::Class)
            .is_some_and(|class| class.split_ascii_whitespace().any(is_name))
    }

    /// The local name of an element (for elements the converter does not know by tag).
    pub fn local_name(&self, id: NodeId) -> &str {
        match self.node(id).kind {
            Kind::Element { tag, name, .. } => match TAG_NAMES.get(tag as usize) {
                Some(local) => local,
                None => self.names.get(name as usize).map_or("", |q| &q.local),
            },
            _ => "",
        }
    }

    /// Whether the element's own attributes hide it from readers: `hidden`,
    /// `aria-hidden="true"`, inline `display:none` / `visibility:hidden`, or a `<dialog>`
    /// that is not `open` — except a tab panel that a visible tab names (`tabs`).
    #[inline]
    pub fn is_hidden(&self, id: NodeId) -> bool {
        matches!(self.node(id).kind, Kind::Element { hidden: true, .. })
    }

    /// [`Dom::is_hidden`] from an element's stored attributes (the first of a name counts,
    /// as for [`Dom::attr`]).
    #[inline]
    fn hidden_by_attrs(&self, tag: Tag, attrs: (u32, u32), present: u32) -> bool {
        const DECIDING: u32 = Attr::Hidden.bit() | Attr::AriaHidden.bit() | Attr::Style.bit();
        if present & DECIDING == 0 {
            // Most elements (this runs for every one): nothing to read, and a <dialog> is
            // hidden unless `open`.
            return tag == Tag::Dialog && present & Attr::Open.bit() == 0;
        }
        self.hidden_by_values(tag, attrs)
    }

    /// [`Dom::hidden_by_attrs`] for an element with at least one of the deciding attributes.
    fn hidden_by_values(&self, tag: Tag, (a, b): (u32, u32)) -> bool {
        let attrs = self.attrs.get(a as usize..b as usize).unwrap_or_default();
        // One pass for the four attributes.
        let (mut hidden, mut aria_hidden, mut open, mut style) = (None, None, None, None);
        for &(name, s, e) in attrs {
            let slot = match name {
                Attr::Hidden => &mut hidden,
                Attr::AriaHidden => &mut aria_hidden,
                Attr::Open => &mut open,
                Attr::Style => &mut style,
                _ => continue,
            };
            if slot.is_none() {
                *slot = Some(self.attr_text.get(s as usize..e as usize));
            }
        }
        hidden.flatten().is_some()
            || aria_hidden
                .flatten()
                .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
            || (tag == Tag::Dialog && open.flatten().is_none())
            || style.flatten().is_some_and(crate::hidden::style_hides)
    }

    /// Whether `id` is in the document tree (the document is among its ancestors).
    pub fn in_document(&self, mut id: NodeId) -> bool {
        while id != NONE {
            if id == DOCUMENT {
                return true;
            }
            id = self.nodes.get(id as usize).map_or(NONE, |n| n.parent);
        }
        false
    }

    /// Children of `id`, first to last.
    pub fn children(&self, id: NodeId) -> Children<'_> {
        Children {
            dom: self,
            next: self.node(id).first_child,
        }
    }

    /// The first child of `id` that shows something: an element, or text that is not only
    /// white space (comments are passed over).
    pub fn first_content_child(&self, id: NodeId) -> Option<NodeId> {
        self.children(id).find(|&c| match self.node(c).kind {
            Kind::Element { .. } => true,
            Kind::Text { .. } => !self.text_of(c).trim().is_empty(),
            _ => false,
        })
    }

    /// The element right before `id` among its siblings, white space and comments between
    /// passed over; `None` when text comes between or nothing does.
    pub fn element_before(&self, id: NodeId) -> Option<NodeId> {
        let mut prev = self.node(id).prev;
        while prev != NONE && self.tag(prev).is_none() && self.text_of(prev).trim().is_empty() {
            prev = self.node(prev).prev;
        }
        (prev != NONE && self.tag(prev).is_some()).then_some(prev)
    }

    /// The ancestors of `id`, nearest first, up to the document.
    pub fn ancestors(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let parent = |n: NodeId| Some(self.node(n).parent).filter(|&p| p != NONE);
        std::iter::successors(parent(id), move |&n| parent(n))
    }

    /// Whether `id` holds text other than white space, hidden or not: what the page had
    /// there, whatever later stages drop. Past `scan` nodes, yes: callers bound the cost
    /// (a large subtree of only empty elements is no case worth a full walk).
    pub fn holds_text(&self, id: NodeId, scan: usize) -> bool {
        if !self.text_of(id).trim().is_empty() {
            return true;
        }
        let mut nodes = self.descendants(id);
        nodes
            .by_ref()
            .take(scan)
            .any(|d| !self.text_of(d).trim().is_empty())
            || nodes.next().is_some()
    }

    /// All descendants of `root` in document order, without recursion.
    pub fn descendants(&self, root: NodeId) -> Descendants<'_> {
        Descendants {
            dom: self,
            root,
            next: self.node(root).first_child,
        }
    }

    /// First element with `tag` below `root`, in document order.
    pub fn find(&self, root: NodeId, tag: Tag) -> Option<NodeId> {
        self.descendants(root).find(|&n| self.tag(n) == Some(tag))
    }

    /// A new element, not yet in the tree, with the attributes the converter reads. Shared
    /// by html5ever's sink and [`crate::build`], so both make identical nodes.
    pub(crate) fn create_element(
        &mut self,
        name: QualName,
        attrs_in: &[Attribute],
        template: bool,
    ) -> (NodeId, Tag) {
        let tag = if name.ns == ns!(html) {
            tag_of(&name.local)
        } else if name.ns == ns!(svg) && &*name.local == "svg" {
            Tag::Svg
        } else if name.ns == ns!(mathml) && &*name.local == "math" {
            self.has_math = true;
            Tag::Math
        } else {
            Tag::Foreign
        };
        let (attrs, present) = self.store_attrs(attrs_in);
        let hidden = self.hidden_by_attrs(tag, attrs, present);
        // Known HTML tags are named by `tag` (see `TAG_NAMES`); only the rest keep their name.
        let name_idx = if TAG_NAMES.get(tag as usize).is_some() {
            NONE
        } else {
            self.names.push(name);
            self.names.len() as u32 - 1
        };
        let template = if template {
            self.push(Kind::Other)
        } else {
            NONE
        };
        let json_ld = tag == Tag::Script && self.is_json_ld(attrs);
        let id = self.push(Kind::Element {
            tag,
            name: name_idx,
            attrs,
            present,
            template,
            hidden,
        });
        if json_ld {
            self.json_ld.push(id);
        }
        (id, tag)
    }

    /// A comment (or other never-rendered node), not yet in the tree.
    pub(crate) fn create_other(&mut self) -> NodeId {
        self.push(Kind::Other)
    }

    /// Append text to `parent`, merged into its last child when that is text (as html5ever's
    /// sinks do).
    pub(crate) fn append_text(&mut self, parent: NodeId, t: &str) {
        let last = self.node(parent).last_child;
        if self.is_text(last) {
            self.extend_text(last, t);
        } else {
            let n = self.new_text(t);
            self.append_node(parent, n);
        }
    }

    /// Attributes of a second `<html>` or `<body>` tag that the element lacks.
    pub(crate) fn add_attrs_if_missing(&mut self, target: NodeId, attrs: &[Attribute]) {
        let Kind::Element {
            tag,
            name,
            attrs: (a, b),
            template,
            ..
        } = self.node(target).kind
        else {
            return;
        };
        // Rare (a second <html> or <body> tag): copy the old attributes to the end so the
        // element's range stays contiguous, then add the missing ones.
        let start = self.attrs.len() as u32;
        self.attrs.extend_from_within(a as usize..b as usize);
        for attr in attrs {
            if attr.name.ns != ns!() {
                continue;
            }
            if let Some(which) = attr_of(&attr.name.local) {
                let present = self.attrs[start as usize..]
                    .iter()
                    .any(|(n, _, _)| *n == which);
                if !present {
                    let s = self.attr_text.len() as u32;
                    self.attr_text.push_str(&attr.value);
                    let e = self.attr_text.len() as u32;
                    self.attrs.push((which, s, e));
                }
            }
        }
        let end = self.attrs.len() as u32;
        let present = self.present((start, end));
        let hidden = self.hidden_by_attrs(tag, (start, end), present);
        self.nodes[target as usize].kind = Kind::Element {
            tag,
            name,
            attrs: (start, end),
            present,
            template,
            hidden,
        };
    }

    // --- tree mutation used by the sink ---

    fn detach(&mut self, id: NodeId) {
        let Node {
            parent, prev, next, ..
        } = *self.node(id);
        if parent == NONE {
            return;
        }
        if prev != NONE {
            self.nodes[prev as usize].next = next;
        } else {
            self.nodes[parent as usize].first_child = next;
        }
        if next != NONE {
            self.nodes[next as usize].prev = prev;
        } else {
            self.nodes[parent as usize].last_child = prev;
        }
        let n = &mut self.nodes[id as usize];
        n.parent = NONE;
        n.prev = NONE;
        n.next = NONE;
    }

    pub(crate) fn append_node(&mut self, parent: NodeId, child: NodeId) {
        // Nearly every node is appended once, right after it was made: nothing to detach.
        if self.node(child).parent != NONE {
            self.detach(child);
        }
        let last = self.node(parent).last_child;
        {
            let c = &mut self.nodes[child as usize];
            c.parent = parent;
            c.prev = last;
        }
        if last != NONE {
            self.nodes[last as usize].next = child;
        } else {
            self.nodes[parent as usize].first_child = child;
        }
        self.nodes[parent as usize].last_child = child;
    }

    fn insert_before(&mut self, sibling: NodeId, child: NodeId) {
        self.detach(child);
        let Node { parent, prev, .. } = *self.node(sibling);
        if parent == NONE {
            return;
        }
        {
            let c = &mut self.nodes[child as usize];
            c.parent = parent;
            c.prev = prev;
            c.next = sibling;
        }
        self.nodes[sibling as usize].prev = child;
        if prev != NONE {
            self.nodes[prev as usize].next = child;
        } else {
            self.nodes[parent as usize].first_child = child;
        }
    }

    /// Append `s` to text node `id`, keeping its text contiguous in the shared buffer.
    fn extend_text(&mut self, id: NodeId, s: &str) {
        let Kind::Text { start, end } = self.node(id).kind else {
            return;
        };
        let (start, end) = (start as usize, end as usize);
        let new_start = if end == self.text.len() {
            start
        } else {
            // Rare (foster parenting, adoption agency): move the old text to the end first.
            let new_start = self.text.len();
            self.text.extend_from_within(start..end);
            new_start
        };
        self.text.push_str(s);
        self.nodes[id as usize].kind = Kind::Text {
            start: new_start as u32,
            end: self.text.len() as u32,
        };
    }

    fn new_text(&mut self, s: &str) -> NodeId {
        let start = self.text.len() as u32;
        self.text.push_str(s);
        let end = self.text.len() as u32;
        self.push(Kind::Text { start, end })
    }

    fn is_text(&self, id: NodeId) -> bool {
        id != NONE && matches!(self.node(id).kind, Kind::Text { .. })
    }

    /// Whether stored attributes `a..b` make a script a JSON-LD block (the first `type`).
    fn is_json_ld(&self, (a, b): (u32, u32)) -> bool {
        self.attrs
            .get(a as usize..b as usize)
            .unwrap_or_default()
            .iter()
            .find(|(name, _, _)| *name == Attr::Type)
            .and_then(|&(_, s, e)| self.attr_text.get(s as usize..e as usize))
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"))
    }

    /// The [`Kind::Element::present`] bits of stored attributes `a..b`.
    fn present(&self, (a, b): (u32, u32)) -> u32 {
        self.attrs
            .get(a as usize..b as usize)
            .unwrap_or_default()
            .iter()
            .fold(0, |bits, &(name, _, _)| bits | name.bit())
    }

    /// Store the attributes the converter reads: their range and [`Dom::present`] bits.
    fn store_attrs(&mut self, attrs: &[Attribute]) -> ((u32, u32), u32) {
        let a = self.attrs.len() as u32;
        let mut present = 0;
        for attr in attrs {
            if attr.name.ns != ns!() {
                continue;
            }
            if let Some(which) = attr_of(&attr.name.local) {
                let s = self.attr_text.len() as u32;
                self.attr_text.push_str(&attr.value);
                self.attrs.push((which, s, self.attr_text.len() as u32));
                present |= which.bit();
            }
        }
        ((a, self.attrs.len() as u32), present)
    }
}

pub struct Children<'a> {
    dom: &'a Dom,
    next: NodeId,
}

impl Iterator for Children<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        if self.next == NONE {
            return None;
        }
        let id = self.next;
        self.next = self.dom.node(id).next;
        Some(id)
    }
}

pub struct Descendants<'a> {
    dom: &'a Dom,
    root: NodeId,
    next: NodeId,
}

impl Iterator for Descendants<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        let id = self.next;
        if id == NONE {
            return None;
        }
        let n = self.dom.node(id);
        self.next = if n.first_child != NONE {
            n.first_child
        } else {
            // Climb until a node with a next sibling, stopping at the root.
            let mut cur = id;
            loop {
                if cur == self.root {
                    break NONE;
                }
                let c = self.dom.node(cur);
                if c.next != NONE {
                    break c.next;
                }
                cur = c.parent;
                if cur == NONE || cur == self.root {
                    break NONE;
                }
            }
        };
        Some(id)
    }
}

/// The html5ever `TreeSink`. html5ever calls it through `&self`, hence the `RefCell`; no borrow
/// is held across calls back into html5ever.
struct Sink<'p> {
    dom: RefCell<Dom>,
    /// Where attribute vectors go once stored, for the lexer to reuse.
    pool: &'p AttrPool,
}

impl Sink<'_> {
    /// [`TreeSink::elem_name`] for elements the converter does not know by tag.
    #[cold]
    #[inline(never)]
    fn owned_name(&self, target: &Handle) -> Name {
        let dom = self.dom.borrow();
        let q = match dom.nodes.get(target.id as usize).map(|n| n.kind) {
            Some(Kind::Element { name, .. }) => dom.names.get(name as usize).cloned(),
            _ => None,
        };
        Name::Owned(q.unwrap_or_else(|| QualName::new(None, ns!(), LocalName::from(""))))
    }
}

static HTML_NS: Namespace = ns!(html);

/// Element name handed back to html5ever: a static name for the tags the converter knows
/// (nearly all elements), an owned copy (interned atoms) for the rest.
#[derive(Debug)]
pub enum Name {
    Html(&'static LocalName),
    Owned(QualName),
}

impl ElemName for Name {
    fn ns(&self) -> &Namespace {
        match self {
            Name::Html(_) => &HTML_NS,
            Name::Owned(q) => &q.ns,
        }
    }
    fn local_name(&self) -> &LocalName {
        match self {
            Name::Html(local) => local,
            Name::Owned(q) => &q.local,
        }
    }
}

/// A node as html5ever holds it: an element's tag travels with its id, so that `elem_name`
/// (asked for hundreds of thousands of times per page) reads no arena and no `RefCell`.
#[derive(Debug, Clone, Copy)]
pub struct Handle {
    id: NodeId,
    /// `Tag::Other` for nodes that are not known HTML elements.
    tag: Tag,
}

impl Handle {
    fn other(id: NodeId) -> Handle {
        Handle {
            id,
            tag: Tag::Other,
        }
    }
}

impl TreeSink for Sink<'_> {
    type Handle = Handle;
    type Output = Dom;
    type ElemName<'a>
        = Name
    where
        Self: 'a;

    fn finish(self) -> Dom {
        self.dom.into_inner()
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> Handle {
        Handle::other(DOCUMENT)
    }

    // The tree builder asks for names in every scope scan (~80 times per element on
    // documentation pages): the known-tag path must inline into those loops.
    #[inline]
    fn elem_name<'a>(&'a self, target: &'a Handle) -> Name {
        match TAG_NAMES.get(target.tag as usize) {
            Some(local) => Name::Html(local),
            None => self.owned_name(target),
        }
    }

    fn create_element(
        &self,
        name: QualName,
        attrs_in: Vec<Attribute>,
        flags: ElementFlags,
    ) -> Handle {
        let (id, tag) = self
            .dom
            .borrow_mut()
            .create_element(name, &attrs_in, flags.template);
        self.pool.give(attrs_in);
        Handle { id, tag }
    }

    fn create_comment(&self, _text: StrTendril) -> Handle {
        Handle::other(self.dom.borrow_mut().create_other())
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Handle {
        Handle::other(self.dom.borrow_mut().create_other())
    }

    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        let mut dom = self.dom.borrow_mut();
        match child {
            NodeOrText::AppendNode(n) => dom.append_node(parent.id, n.id),
            NodeOrText::AppendText(t) => dom.append_text(parent.id, &t),
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &Handle,
        prev_element: &Handle,
        child: NodeOrText<Handle>,
    ) {
        let has_parent = self.dom.borrow().node(element.id).parent != NONE;
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {}

    fn get_template_contents(&self, target: &Handle) -> Handle {
        match self.dom.borrow().node(target.id).kind {
            Kind::Element { template, .. } if template != NONE => Handle::other(template),
            _ => *target,
        }
    }

    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        x.id == y.id
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &Handle, new_node: NodeOrText<Handle>) {
        let mut dom = self.dom.borrow_mut();
        match new_node {
            NodeOrText::AppendNode(n) => dom.insert_before(sibling.id, n.id),
            NodeOrText::AppendText(t) => {
                let prev = dom.node(sibling.id).prev;
                if dom.is_text(prev) {
                    dom.extend_text(prev, &t);
                } else {
                    let n = dom.new_text(&t);
                    dom.insert_before(sibling.id, n);
                }
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &Handle, attrs: Vec<Attribute>) {
        self.dom
            .borrow_mut()
            .add_attrs_if_missing(target.id, &attrs);
    }

    fn remove_from_parent(&self, target: &Handle) {
        self.dom.borrow_mut().detach(target.id);
    }

    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        let mut dom = self.dom.borrow_mut();
        let mut child = dom.node(node.id).first_child;
        while child != NONE {
            let next = dom.node(child).next;
            dom.append_node(new_parent.id, child);
            child = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ancestors_run_nearest_first_up_to_the_document() {
        let dom = Dom::parse("<div id=a><p id=b><em id=c>x</em></p></div>");
        let c = dom
            .descendants(0)
            .find(|&n| dom.tag(n) == Some(Tag::Em))
            .expect("the em element");
        let tags: Vec<_> = dom.ancestors(c).map(|n| dom.tag(n)).collect();
        assert_eq!(
            tags,
            [
                Some(Tag::P),
                Some(Tag::Div),
                Some(Tag::Body),
                Some(Tag::Html),
                None
            ]
        );
        assert_eq!(dom.ancestors(0).count(), 0);
    }

    fn body(dom: &Dom) -> NodeId {
        dom.find(DOCUMENT, Tag::Body).expect("body")
    }

    #[test]
    fn attributes_added_by_a_second_tag_are_found() {
        // A second <body>/<html> tag adds the attributes the element does not have yet; the
        // first of each name stays.
        let dom = Dom::parse(
            "<html><body id=a hidden><p>x</p><body id=b role=main lang=de><html lang=fr>",
        );
        let b = body(&dom);
        assert_eq!(dom.attr(b, Attr::Id), Some("a"));
        assert_eq!(dom.attr(b, Attr::Role), Some("main"));
        assert_eq!(dom.attr(b, Attr::Lang), Some("de"));
        assert_eq!(dom.attr(b, Attr::Class), None);
        assert!(dom.is_hidden(b));
        let html = dom.find(DOCUMENT, Tag::Html).expect("html");
        assert_eq!(dom.attr(html, Attr::Lang), Some("fr"));
        assert_eq!(dom.attr(html, Attr::Id), None);
    }

    #[test]
    fn builds_tree_with_merged_text_and_kept_attributes() {
        let dom = Dom::parse("<p class=x data-y=1>Hello <b>big</b> world</p>");
        let p = dom.find(DOCUMENT, Tag::P).expect("p");
        assert_eq!(dom.attr(p, Attr::Class), Some("x"));
        let kids: Vec<_> = dom.children(p).collect();
        assert_eq!(kids.len(), 3);
        assert_eq!(dom.text_of(kids[0]), "Hello ");
        assert_eq!(dom.tag(kids[1]), Some(Tag::B));
        assert_eq!(dom.text_of(kids[2]), " world");
    }

    #[test]
    fn misnested_and_foster_parented_content_recovers() {
        let dom = Dom::parse("<table>x<tr><td>a</table><b><i>1</b>2</i>");
        let text: String = dom.descendants(DOCUMENT).map(|n| dom.text_of(n)).collect();
        assert_eq!(text, "xa12");
        // Foster-parented "x" lands before the table.
        let b = body(&dom);
        assert_eq!(dom.text_of(dom.node(b).first_child), "x");
    }

    #[test]
    fn deep_nesting_is_parsed_and_walked_without_recursion() {
        let depth = 100_000;
        let html = "<div>".repeat(depth) + "deep" + &"</div>".repeat(depth);
        let dom = Dom::parse(&html);
        let divs = dom
            .descendants(DOCUMENT)
            .filter(|&n| dom.tag(n) == Some(Tag::Div))
            .count();
        // Beyond the parser's depth cap, nesting is flattened (see `depth`).
        assert!(divs > 500 && divs < crate::depth::MAX_OPEN, "{divs}");
        assert_eq!(dom.text.as_str(), "deep");
        drop(dom);
    }
}
