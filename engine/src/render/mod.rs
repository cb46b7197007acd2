//! Markdown rendering: one iterative walk over the selected DOM (explicit frame stack, never
//! recursion), emitting into a [`Writer`].
mod escape;
mod mathml;
mod table;
mod writer;

use crate::dom::{Attr, Dom, Kind, NodeId, Tag, NONE};
use crate::select::{is_hidden, Selection};
use crate::tabs;
use crate::urls::{is_script, title_suffix, Resolver};
use table::{parse_align, Table};
use writer::{cell_pipes, Marker, Writer};

pub use escape::longest_run;
pub(crate) use escape::looks_like_entity;
pub use table::is_layout as is_layout_table;
pub use table::is_list_columns;
pub use table::{gutter_cell, is_code_listing};

/// Render the selected content of `dom` as Markdown.
pub fn render(dom: &Dom, sel: &Selection, urls: &Resolver, size_hint: usize) -> String {
    render_after(String::new(), dom, sel, urls, size_hint)
}

/// [`render`] appending to `prefix` (front matter), so the Markdown is never copied behind
/// it; the result is `prefix` alone when the page renders to nothing.
pub fn render_after(
    prefix: String,
    dom: &Dom,
    sel: &Selection,
    urls: &Resolver,
    size_hint: usize,
) -> String {
    let mut r = Renderer {
        dom,
        sel,
        urls,
        w: Writer::with_prefix(prefix, size_hint / 4 + 64),
        frames: Vec::with_capacity(64),
        flatten: 0,
        code: 0,
        pre: None,
        strong: 0,
        em: 0,
        del: 0,
        emphasis: 0,
        spans: Vec::new(),
        links: 0,
        lists: Vec::new(),
        tables: Vec::new(),
        grids: Vec::new(),
        section_lists: Vec::new(),
        prev_list: None,
        last_code: None,
        code_span: String::new(),
        code_raw: String::new(),
        pre_buf: String::new(),
        code_space: false,
        code_after_link: false,
        code_start: usize::MAX,
        code_lead: false,
        last_link: None,
        floated: Vec::new(),
        replaying: NONE,
        tab_labels: Vec::new(),
        box_title: NONE,
        box_table: NONE,
        block_after: NONE,
        space_after: Vec::new(),
        layout_classes: uses_layout_classes(dom),
        tex_classes: page_has_class(dom, &["math", "arithmatex"], |class| {
            matches!(class, "math" | "arithmatex")
        }),
        tex_scripts: memchr::memmem::find(dom.attr_text.as_bytes(), b"math/tex").is_some(),
        tex: typesetting(dom),
    };
    for &root in &sel.roots {
        r.walk(root);
    }
    // A closing rule on a pruned page most often separated the article from what pruning
    // left out (comments, related stories); without pruning it is the page's own last block.
    r.w.finish_with(!sel.pruned)
}

/// What to do when an element is left.
enum Exit {
    Nothing,
    /// A block element inside `<pre>`: ends its line.
    PreBlock,
    /// A `div.line` of a Doxygen fragment: one line of code.
    FragmentLine,
    /// A line of highlighted code laid out as a block ([`code_line`]).
    CodeLine,
    Block,
    Soft,
    /// Level, start of its text, and whether blocks inside it flatten into the heading line
    /// (a short heading: see [`short_heading`]) instead of ending it.
    Heading(usize, usize, bool),
    Strong(usize),
    Em(usize, &'static str),
    Del(usize),
    Code(usize),
    /// A link: where its `[` is and what closes it (`](destination "title")`).
    Link(usize, String),
    /// A link around blocks: each block's inline content is linked on its own.
    BlockLink,
    /// A link to its own element: text only; a bare permalink glyph is dropped.
    SelfLink(usize),
    /// A link inside code: the link marker's position, what closes it, where the link's own
    /// code span starts, and the frame of the enclosing code element.
    CodeLink {
        link_at: usize,
        suffix: String,
        inner: usize,
        frame: usize,
    },
    InlineQuote,
    Blockquote,
    Ruby,
    /// `true`: content was opened with a parenthesis.
    Sup(bool),
    List,
    Item,
    Pre,
    /// A `<pre>` inside inline code: the frame of the code element, whose span pauses
    /// around the code block.
    PreInCode(usize),
    Table,
    LayoutTable,
    Grid,
    /// A list of sections ([`section_list`]), written without list markup.
    SectionList,
    Row,
    /// A table row holding only a heading ([`table::heading_row`]).
    HeadingRow,
    Cell {
        start: usize,
        header: bool,
        colspan: u32,
        rowspan: u32,
        align: table::Align,
    },
    Caption(usize),
    Summary(usize),
    Dt(usize),
}

struct ListState {
    id: NodeId,
    ordered: bool,
    /// Nested in a list item: its first item follows the parent's line without a blank.
    nested: bool,
    items: u32,
    next: i64,
    step: i64,
    bullet: &'static str,
    /// Width of the last item's marker.
    width: usize,
    /// Content the list holds outside its `<li>`s is being written as a continuation of
    /// the item before it (or of an item opened for it).
    cont: bool,
    /// Output length when the list started: an empty list is no neighbour to tell apart.
    start_len: usize,
    /// An item holds a `<p>`: the list is loose (blank lines between items), which is what
    /// CommonMark renders back with paragraphs in its items (and a browser with their margins).
    loose: bool,
}

struct PreState {
    buf: String,
    lang: String,
    depth: u32,
    /// A `<code>` child of a `<pre>` was opened: a further one starts a new line.
    code_child: bool,
    /// A block started or ended: the next text goes on a new line.
    break_due: bool,
    /// A Doxygen `div.fragment` written as this block ([`NONE`] for a `<pre>`): its
    /// `div.line` children are its lines, anything else between them is not code.
    fragment: NodeId,
    /// Its lines are boxes of their own ([`lines_are_boxes`]): each span is asked
    /// [`code_line`] (other blocks spare their tokens the question).
    line_boxes: bool,
}

impl PreState {
    /// The next text starts a new line (see [`PreState::push_text`]).
    fn line_break(&mut self) {
        self.break_due = true;
    }

    /// Append code text, first ending the current line when a block boundary asks for it,
    /// unless the text starts a line itself or the line so far is only indentation (the
    /// source's own layout around `<li>`s inside `<pre>` stays as written).
    fn push_text(&mut self, s: &str) {
        if std::mem::take(&mut self.break_due)
            && !s.trim_start_matches([' ', '\t']).starts_with('\n')
        {
            // Only the line's last bytes are looked at: a long line of spaces stays linear.
            let blank = self
                .buf
                .bytes()
                .rev()
                .take(256)
                .take_while(|&b| b != b'\n')
                .all(|b| b == b' ' || b == b'\t');
            if !blank {
                self.buf.push('\n');
            }
        }
        self.buf.push_str(s);
    }
}

/// Nodes of a `<summary>` searched for a heading: rustdoc puts its `<h3>`/`<h4>` within the
/// first dozen; a deeper one leaves the summary a bold line.
const SUMMARY_HEADING_SCAN: usize = 64;

/// Whether a `<code>` child of a `<pre>` comes right after another `<code>`: no text between
/// them, elements without text (Node.js's flavour toggle `<input>`) aside. A few siblings
/// are looked at, no more.
fn code_follows_code(dom: &Dom, code: NodeId) -> bool {
    let mut prev = dom.node(code).prev;
    for _ in 0..8 {
        if prev == NONE {
            return false;
        }
        match dom.tag(prev) {
            Some(Tag::Code) => return true,
            Some(_) if dom.node(prev).first_child != NONE => return false,
            Some(_) => {}
            None if !dom.text_of(prev).is_empty() => return false,
            None => {}
        }
        prev = dom.node(prev).prev;
    }
    false
}

/// Whether an item of list `list` holds a `<p>` of its own (Sphinx, CommonMark's loose lists).
fn has_paragraph_item(dom: &Dom, list: NodeId) -> bool {
    dom.children(list)
        .filter(|&li| dom.tag(li) == Some(Tag::Li))
        .any(|li| dom.children(li).any(|c| dom.tag(c) == Some(Tag::P)))
}

/// An element whose parent is a `<pre>`.
fn child_of_pre(dom: &Dom, id: NodeId) -> bool {
    let parent = dom.node(id).parent;
    parent != NONE && dom.tag(parent) == Some(Tag::Pre)
}

struct Renderer<'a> {
    dom: &'a Dom,
    sel: &'a Selection,
    urls: &'a Resolver,
    w: Writer,
    frames: Vec<(NodeId, Exit)>,
    /// > 0 inside cells, headings, links and other spans: blocks become spaces.
    flatten: u32,
    /// > 0 inside inline code: text is not escaped and markup is not emitted.
    code: u32,
    pre: Option<PreState>,
    strong: u32,
    em: u32,
    del: u32,
    /// Open bold, italic and strikethrough spans (each also counts in `flatten`): inside
    /// them alone a `<br>` is still a hard break.
    emphasis: u32,
    /// Frames of the open emphasis spans and self links, outermost first: at most a few
    /// (one span of each kind), so a `<br>` finds them without walking every open element.
    spans: Vec<usize>,
    links: u32,
    lists: Vec<ListState>,
    /// Open tables, innermost last; `None` for a layout table (its cells are blocks).
    tables: Vec<Option<Table>>,
    /// Open CSS-grid tables (Javadoc's `div.summary-table`): grid element, columns, cells so
    /// far. Their child elements are the cells, row by row.
    grids: Vec<(NodeId, usize, usize)>,
    /// Open lists of sections ([`section_list`]), innermost last: their items are blocks.
    section_lists: Vec<NodeId>,
    /// Output length and depth where the last list ended: an adjacent list must use another
    /// bullet, or Markdown would merge the two.
    prev_list: Option<(usize, usize, &'static str)>,
    /// The code span written last: where it starts in the inline buffer (its text is
    /// `code_span`). `<code>A</code><code>B</code>` continues it as one span.
    last_code: Option<usize>,
    /// The text of the code span written last, its buffer reused for the next one.
    code_span: String,
    /// Scratch buffer: a code span's raw content, a heading's text.
    code_raw: String,
    /// The text buffer of the last `<pre>`, emptied, for the next one: code blocks are
    /// written text node by text node (a highlighter's spans), and each would grow a new one.
    pre_buf: String,
    /// The open code element holds white space (all of it, if the span stays empty).
    code_space: bool,
    /// The open code element's text so far follows a link inside it (Javadoc's
    /// `<code><a>clone</a>, <a>equals</a></code>`): a separator there is not code.
    code_after_link: bool,
    /// Where the open code span's content starts, while it has none (`usize::MAX` when not
    /// tracked), and whether white space came first: `foo<code> x</code>` keeps a space
    /// between `foo` and the span.
    code_start: usize,
    code_lead: bool,
    /// The link written last: positions of its `[`, its `]`, and its end.
    last_link: Option<(usize, usize, usize)>,
    /// Right-floated elements skipped before a heading, as `(heading, element)`: they are
    /// written after the heading (see [`floated_before_heading`]); a titled table taken
    /// out of a table's cell, heading and table each as `(outer table, element)`, after
    /// that table (see [`Renderer::defer_out_of_cell`]).
    floated: Vec<(NodeId, NodeId)>,
    /// The floated element being written now ([`NONE`] if none): nothing is deferred or
    /// replayed meanwhile, so replaying nests the walk once at most.
    replaying: NodeId,
    /// Tab panels still to come and the names of their tabs ([`tabs::labelled_panels`]).
    tab_labels: Vec<(NodeId, String)>,
    /// The title of the admonition box just written as a quote ([`admonition`]): it
    /// is the box's first child, so it comes next (a box inside comes only after it).
    box_title: NodeId,
    /// The table laying out an Asciidoctor admonition block (icon cell | content cell),
    /// written as blocks whatever it holds.
    box_table: NodeId,
    /// An element whose end also ends the paragraph (a box title written in bold).
    block_after: NodeId,
    /// A badge just opened ([`is_badge_class`]): a space separates it from what follows.
    space_after: Vec<NodeId>,
    /// The page has a utility class that lays out boxes ([`display_word`]); without one,
    /// no inline element's classes need a look for them.
    layout_classes: bool,
    /// The page has elements of class `math` (Sphinx's and pandoc's TeX between `\(`…`\)`
    /// for MathJax to typeset): only then are they looked for.
    tex_classes: bool,
    /// The page has `<script type="math/tex">` (MathJax 2's TeX source).
    tex_scripts: bool,
    /// Which TeX in the page's text MathJax or KaTeX typesets there ([`typesetting`]).
    tex: Typesetting,
}

impl Renderer<'_> {
    /// Render the subtree of `root`, in document order, with a loop (never recursion).
    fn walk(&mut self, root: NodeId) {
        // One call site of `enter`, forced inline: it runs once per node, and a call costs
        // several times more in V8 (Envoy) than natively (measured there: render 3 % faster).
        let mut node = root;
        'outer: loop {
            if self.enter(node) {
                // An element with its frame on the stack: its children next, if any.
                let first = self.dom.node(node).first_child;
                if first != NONE {
                    node = first;
                    continue;
                }
                self.exit(node);
            }
            if node == root {
                return;
            }
            // Move to the next sibling, leaving finished ancestors on the way up.
            loop {
                let n = self.dom.node(node);
                if n.next != NONE {
                    node = n.next;
                    continue 'outer;
                }
                node = n.parent;
                if node == NONE {
                    return;
                }
                self.exit(node);
                if node == root {
                    return;
                }
            }
        }
    }

    /// Enter a node. Returns true when the node was entered as an element whose frame is now
    /// on the stack (its children are walked, then `exit` is called).
    #[inline(always)]
    fn enter(&mut self, id: NodeId) -> bool {
        let (tag, present) =
            match self.dom.node(id).kind {
                Kind::Text { .. } => {
                    // White space between a Doxygen fragment's lines is not code.
                    if self.pre.as_ref().is_some_and(|p| {
                        p.fragment != NONE && p.fragment == self.dom.node(id).parent
                    }) {
                        return false;
                    }
                    let text = self.dom.text_of(id);
                    if self.is_list_child(id) && !text.trim().is_empty() {
                        self.list_child(id, None);
                    }
                    if self.tex.delimiters && self.code == 0 && self.pre.is_none() {
                        self.text_with_formulas(text);
                    } else {
                        self.text(text);
                    }
                    return false;
                }
                Kind::Element { tag, present, .. } => (tag, present),
                _ => return false,
            };
        // MathJax 2's TeX source (kramdown writes every formula so): the formula; the
        // boxes MathJax drew from it, when the page was saved after it ran, are left out.
        if self.tex_scripts
            && self.code == 0
            && self.pre.is_none()
            && !self.sel.is_dropped(id)
            && (tag == Tag::Script
                || (present & Attr::Class.bit() != 0
                    && matches!(tag, Tag::Span | Tag::Div)
                    && mathjax2_rendering(self.dom, id)))
        {
            if let Some((tex, display)) = script_tex(self.dom, id) {
                self.formula(&tex, display);
                return false;
            }
            if tag != Tag::Script {
                return false;
            }
        }
        if self.sel.is_dropped(id)
            || (dropped_tag(tag)
                && !(tag == Tag::Textarea && example_code(self.dom, id))
                && !(tag == Tag::Button && content_button(self.dom, id)))
            || is_hidden(self.dom, id)
            || (present & Attr::Class.bit() != 0
                && tag == Tag::Span
                && self.dom.has_class_where(id, hover_only))
            || (present & Attr::Role.bit() != 0 && is_button_label(self.dom, id, tag))
        {
            return false;
        }
        if (present & Attr::Role.bit() != 0
            || !self.tab_labels.is_empty()
            || (tag == Tag::Div && present & Attr::Class.bit() != 0))
            && self.flatten == 0
            && self.pre.is_none()
            && self.code == 0
            && self.tab_widget(id, tag)
        {
            return false;
        }
        // Only classed elements float (the bit test spares the look-ups for the others).
        if present & Attr::Class.bit() != 0
            && self.replaying == NONE
            && self.flatten == 0
            && self.pre.is_none()
            && self.code == 0
        {
            if let Some(heading) = floated_before_heading(self.dom, id, tag) {
                if !self.sel.is_dropped(heading) && !is_hidden(self.dom, heading) {
                    self.floated.push((heading, id));
                    return false;
                }
            }
        }
        // Only tables and headings directly in a data table's cell (the counters spare the
        // look-ups everywhere else).
        if self.w.in_table == 1
            && self.flatten == 1
            && matches!(
                tag,
                Tag::Table | Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6
            )
            && self.defer_out_of_cell(id, tag)
        {
            return false;
        }
        let tag = if self.sel.headline == Some(id) {
            Tag::H1
        } else {
            tag
        };
        if tag != Tag::Li && self.is_list_child(id) {
            self.list_child(id, Some(tag));
        }
        let exit = self.open(id, tag);
        match exit {
            Some(exit) => {
                if matches!(
                    exit,
                    Exit::Strong(_) | Exit::Em(..) | Exit::Del(_) | Exit::SelfLink(_)
                ) {
                    self.spans.push(self.frames.len());
                }
                self.frames.push((id, exit));
                true
            }
            None => false,
        }
    }

    /// Whether `id` is a direct child of the innermost open list.
    fn is_list_child(&self, id: NodeId) -> bool {
        self.pre.is_none()
            && self
                .lists
                .last()
                .is_some_and(|l| l.id == self.dom.node(id).parent)
    }

    /// Content a list holds outside any `<li>` (a list in a list, a stray `<p>` or text):
    /// browsers show it at the items' indentation, so it continues the item before it. A
    /// list with no item before it gets an item of its own: Markdown cannot indent otherwise.
    /// A wrapper of items (`<ul><div><li>`) is transparent.
    fn list_child(&mut self, id: NodeId, tag: Option<Tag>) {
        let nested = matches!(tag, Some(Tag::Ul | Tag::Ol | Tag::Menu | Tag::Dir));
        let dom = self.dom;
        if tag.is_some() && !nested && dom.children(id).any(|c| dom.tag(c) == Some(Tag::Li)) {
            self.end_list_continuation();
            return;
        }
        let Some(list) = self.lists.last() else {
            return;
        };
        if list.cont {
            return;
        }
        if list.items > 0 {
            let width = list.width;
            self.w.flush_paragraph();
            self.w.continue_item(width, !nested);
        } else if nested {
            self.open_item();
        } else {
            return;
        }
        if let Some(list) = self.lists.last_mut() {
            list.cont = true;
        }
    }

    /// End the continuation of an item started by [`Renderer::list_child`], if any.
    fn end_list_continuation(&mut self) {
        if let Some(list) = self.lists.last_mut() {
            if std::mem::take(&mut list.cont) {
                self.w.flush_paragraph();
                self.w.pop_prefix();
                self.w.begin_block(true);
            }
        }
    }

    /// Start a list item: its marker is written with its first line.
    fn open_item(&mut self) {
        // Items are tight unless the list is loose; a top-level list keeps the blank line
        // before it (an ordered list not starting at 1 cannot interrupt a paragraph).
        match self.lists.last() {
            Some(l) if l.loose && l.items > 0 => self.w.end_block(),
            // An item outside any list (`<li>` straight in a `<div>`) is a list of its own.
            l => self
                .w
                .begin_block(l.is_some_and(|l| l.nested || l.items > 0)),
        }
        let marker = match self.lists.last_mut() {
            Some(l) if l.ordered => {
                let n = l.next.clamp(0, 999_999_999);
                l.next += l.step;
                Marker::Number(u32::try_from(n).unwrap_or(0), l.bullet)
            }
            Some(l) => Marker::Bullet(l.bullet),
            None => Marker::Bullet("- "),
        };
        let mut tight = true;
        if let Some(l) = self.lists.last_mut() {
            l.items += 1;
            l.width = marker.width();
            tight = !l.loose;
        }
        self.w.push_item(marker, tight);
    }

    fn exit(&mut self, id: NodeId) {
        match self.frames.last() {
            Some((n, _)) if *n == id => {}
            _ => return,
        }
        let Some((_, exit)) = self.frames.pop() else {
            return;
        };
        if self.spans.last() == Some(&self.frames.len()) {
            self.spans.pop();
        }
        self.close(id, exit);
        if id == self.block_after {
            self.block_after = NONE;
            self.w.end_block();
        }
        if let Some(at) = self.space_after.iter().rposition(|&x| x == id) {
            self.space_after.truncate(at);
            if self.w.space == writer::Space::None && word_follows(self.dom, id) {
                self.w.space = writer::Space::Pending;
            }
        }
        // Not while one is being written: the walk nests at most once.
        if !self.floated.is_empty() && self.replaying == NONE {
            self.replay_floated(id);
        }
    }

    /// A tab list whose tabs name the panels after it is skipped (`true`); a panel so named
    /// starts with its tab's name in bold.
    fn tab_widget(&mut self, id: NodeId, tag: Tag) -> bool {
        if let Some(widget) = tabs::tab_list(self.dom, id, tag) {
            if let Some(pairs) = tabs::labelled_panels(self.dom, id, widget) {
                self.tab_labels.extend(pairs);
                return true;
            }
        } else if let Some(i) = self.tab_labels.iter().position(|&(p, _)| p == id) {
            let (_, label) = self.tab_labels.swap_remove(i);
            self.label(&label);
        }
        false
    }

    /// A heading in a cell of a data table, over a data table nested there (JSDoc's
    /// `<td>…<h6>Properties</h6><table class="params">`: the properties of an object
    /// parameter), is a titled table of its own, which a GFM cell cannot hold: flattened,
    /// the title and the rows ran together with their header (`Properties Name Type
    /// Description code string …`). Both are written after the outer table instead (`true`:
    /// deferred), through the floated elements' replay, which defers nothing itself. An
    /// untitled nested table is flattened into its cell, as other converters do.
    fn defer_out_of_cell(&mut self, id: NodeId, tag: Tag) -> bool {
        if self.replaying != NONE || self.code > 0 || self.pre.is_some() || self.links > 0 {
            return false;
        }
        // The innermost open table is a data table whose cell holds `id` directly.
        let outer = self.frames.iter().rev().find_map(|(n, e)| match e {
            Exit::Table => Some(Some(*n)),
            Exit::LayoutTable | Exit::Grid => Some(None),
            _ => None,
        });
        let Some(Some(outer)) = outer else {
            return false;
        };
        if !matches!(self.tables.last(), Some(Some(_))) {
            return false;
        }
        let dom = self.dom;
        let titled = if tag == Tag::Table {
            // Its title was deferred just before it.
            matches!(self.floated.last(), Some(&(o, h)) if o == outer && dom.tag(h) != Some(Tag::Table)
                && next_element(dom, h) == Some(id))
        } else {
            next_element(dom, id)
                .is_some_and(|t| dom.tag(t) == Some(Tag::Table) && !table::is_layout(dom, t))
        };
        if titled {
            self.floated.push((outer, id));
        }
        titled
    }

    /// Write the floated elements deferred to after `id`, a heading (or a table: what
    /// [`Renderer::defer_out_of_cell`] took out of its cells) — or, should the heading not
    /// have been written as one, `id` being its parent: they are never lost.
    fn replay_floated(&mut self, id: NodeId) {
        while let Some(i) = self
            .floated
            .iter()
            .position(|&(h, _)| h == id || self.dom.node(h).parent == id)
        {
            let (_, node) = self.floated.remove(i);
            self.replaying = node;
            self.walk(node);
            self.replaying = NONE;
        }
    }

    // Once per text node: inlined, as `strip_controls` into it. A call costs several times
    // more in V8 (Envoy) than natively; measured there: render 0.3–0.45 µs less on 10 KB.
    #[inline(always)]
    fn text(&mut self, s: &str) {
        let s = &*strip_controls(s);
        if let Some(pre) = &mut self.pre {
            pre.push_text(s);
        } else if self.code > 0 {
            // U+00A0 too: Scribble numbers headings `4.2<tt>&nbsp;</tt>Booleans`.
            if !self.code_space
                && (s.bytes().any(|b| b.is_ascii_whitespace()) || s.contains('\u{a0}'))
            {
                self.code_space = true;
            }
            if self.code_start == self.w.inline.len() {
                self.code_lead |= s.starts_with(|c: char| c.is_ascii_whitespace());
                if !s
                    .trim_start_matches(|c: char| c.is_ascii_whitespace())
                    .is_empty()
                {
                    self.code_start = usize::MAX;
                }
            }
            self.w.raw_text(s);
        } else {
            self.w.text(s);
        }
    }

    fn block_start(&mut self) -> Exit {
        if self.must_flatten() {
            self.w.soft_boundary();
            Exit::Soft
        } else {
            self.w.begin_block(false);
            Exit::Block
        }
    }

    /// Text in which MathJax or KaTeX would typeset TeX between delimiters: each formula
    /// between dollars, the rest as text. A delimiter without its closing one is text.
    fn text_with_formulas(&mut self, mut text: &str) {
        let mut dollars = self.tex.dollars;
        while let Some(f) = next_formula(text, &mut dollars) {
            let tex = text.get(f.tex.clone()).unwrap_or("").trim();
            if tex.is_empty() || tex.contains('$') {
                self.tex_text(text.get(..f.end).unwrap_or(""));
            } else {
                self.tex_text(text.get(..f.start).unwrap_or(""));
                self.formula(tex, f.display);
            }
            text = text.get(f.end..).unwrap_or("");
        }
        self.tex_text(text);
    }

    /// Text on a page whose MathJax or KaTeX reads single dollars, where `\$` is the escape
    /// for a dollar that opens no formula (MathJax's `processEscapes`): the page shows `$`,
    /// and so does Markdown's own `\$`, which no Markdown math reads as a delimiter either.
    fn tex_text(&mut self, text: &str) {
        if !self.tex.dollars {
            return self.text(text);
        }
        let mut rest = text;
        while let Some(at) = rest.find("\\$") {
            self.text(rest.get(..at).unwrap_or(""));
            self.w.raw("\\$");
            rest = rest.get(at + 2..).unwrap_or("");
        }
        self.text(rest);
    }

    /// A formula's TeX between dollars.
    fn formula(&mut self, tex: &str, display: bool) {
        let fence = if display { "$$" } else { "$" };
        let cell = self.w.in_table > 0;
        let mut out = String::with_capacity(tex.len());
        push_tex(&mut out, tex, cell);
        if out.is_empty() {
            // Nothing but control characters: `$$` alone would open a displayed formula.
            return;
        }
        // A displayed formula is a block of its own, as on the page (in a table cell it
        // stays in the cell's line).
        let block = display && !self.must_flatten();
        if block {
            self.w.begin_block(false);
        }
        self.w.formula(fence, &out);
        if block {
            self.w.end_block();
        }
    }

    /// Handle an element's start; `None` means "leaf handled, do not descend".
    fn open(&mut self, id: NodeId, tag: Tag) -> Option<Exit> {
        if self.pre.is_some() {
            return Some(match tag {
                Tag::Br => {
                    if let Some(p) = &mut self.pre {
                        p.buf.push('\n');
                    }
                    return None;
                }
                Tag::Pre | Tag::Listing | Tag::Xmp | Tag::Plaintext => {
                    if let Some(p) = &mut self.pre {
                        p.depth += 1;
                    }
                    Exit::Pre
                }
                _ if line_number_gutter(self.dom, id, tag) => return None,
                // One line of highlighted code as a box of its own: with no line feed between
                // them, the lines would run together.
                Tag::Span
                    if self.pre.as_ref().is_some_and(|p| p.line_boxes)
                        && code_line(self.dom, id) =>
                {
                    if let Some(p) = &mut self.pre {
                        if !p.buf.is_empty() && !p.buf.ends_with('\n') {
                            p.buf.push('\n');
                        }
                        p.break_due = false;
                    }
                    Exit::CodeLine
                }
                // A Doxygen fragment's line: exactly one line of code, even when empty.
                // Its other children are hidden tooltips (`div.ttc`).
                _ if self.pre.as_ref().is_some_and(|p| {
                    p.fragment != NONE && p.fragment == self.dom.node(id).parent
                }) =>
                {
                    if tag != Tag::Div || !self.dom.has_class(id, &["line"]) {
                        return None;
                    }
                    if let Some(p) = &mut self.pre {
                        if !p.buf.is_empty() && !p.buf.ends_with('\n') {
                            p.buf.push('\n');
                        }
                        p.break_due = false;
                    }
                    Exit::FragmentLine
                }
                // A block box inside `<pre>` (rustdoc's `<div class="where">`) starts and
                // ends a line, as a browser lays it out; so does a further `<code>` child
                // of the `<pre>` right after another (Node.js docs put the CommonJS and ES
                // module flavours of one example side by side in one `<pre>`).
                Tag::Div
                | Tag::P
                | Tag::Li
                | Tag::Tr
                | Tag::Dt
                | Tag::Dd
                | Tag::Section
                | Tag::Article
                | Tag::Aside
                | Tag::Header
                | Tag::Footer
                | Tag::Nav
                | Tag::Main
                | Tag::Address
                | Tag::Blockquote
                | Tag::Figure
                | Tag::Figcaption
                | Tag::Hr
                | Tag::H1
                | Tag::H2
                | Tag::H3
                | Tag::H4
                | Tag::H5
                | Tag::H6
                | Tag::Hgroup
                | Tag::Ul
                | Tag::Ol
                | Tag::Dl
                | Tag::Table
                | Tag::Caption
                | Tag::Details
                | Tag::Summary
                | Tag::Fieldset
                | Tag::Center => {
                    self.pre_line_break();
                    Exit::PreBlock
                }
                Tag::Code if child_of_pre(self.dom, id) => {
                    let adjacent = code_follows_code(self.dom, id);
                    if let Some(p) = &mut self.pre {
                        // Only where no text separates them: Haddock writes a line's names
                        // as `<code>`s between plain text (`<code>f</code> <code>x</code>`).
                        if p.code_child && adjacent {
                            p.line_break();
                        }
                        p.code_child = true;
                    }
                    Exit::Nothing
                }
                _ => Exit::Nothing,
            });
        }
        let dom = self.dom;
        if let Some(exit) = self.grid_cell(id) {
            return Some(exit);
        }
        if tag == Tag::Div && self.flatten == 0 {
            if let Some(cols) = grid_columns(dom, id) {
                self.w.begin_block(false);
                self.tables.push(Some(Table::new(false)));
                self.grids.push((id, cols, 0));
                return Some(Exit::Grid);
            }
        }
        if tag == Tag::Div && is_code_fragment(dom, id) {
            return Some(self.open_pre(id, id));
        }
        // Sandpack's code before its editor loads (react.dev): the source as text in a
        // `div.sp-pre-placeholder` that CSS lays out as preformatted.
        if tag == Tag::Div && dom.has_class(id, &["sp-pre-placeholder"]) {
            return Some(self.open_pre(id, NONE));
        }
        // A Mermaid diagram before mermaid.js draws it (`div.mermaid` holding the source, as
        // Hugo and Jekyll themes write it): its line breaks are its syntax. Once drawn it
        // holds an `<svg>` and no text, and is left to the usual rules.
        if tag == Tag::Div && dom.has_class(id, &["mermaid"]) && holds_own_text(dom, id) {
            return Some(self.open_pre(id, NONE));
        }
        if tag == Tag::Div && self.flatten == 0 {
            if let Some(marker) = github_alert(dom, id) {
                // GitHub's own syntax for the box it rendered: `> [!NOTE]` over its content
                // (the title paragraph, `Note` beside an icon, is the marker: dropped).
                self.w.begin_block(false);
                self.w.push_quote();
                self.w.raw(marker);
                // Its own line, the content right under it (`> [!NOTE]` / `> text`): some
                // renderers end the alert at a blank `>` line.
                self.w.begin_block(true);
                return Some(Exit::Blockquote);
            }
        }
        if matches!(tag, Tag::Div | Tag::Aside | Tag::Section) && self.flatten == 0 {
            if let Some((title, table)) = admonition(dom, id) {
                // A note, tip or warning box: a quote, so that where it ends stays visible.
                self.w.begin_block(false);
                self.w.push_quote();
                self.box_title = title;
                self.box_table = table;
                if title != NONE && dom.is_hidden(title) {
                    // Starlight hides its title from screen readers, which read the box's
                    // `aria-label` ("Caution", or the author's own title) instead.
                    if let Some(label) = dom.attr(id, Attr::AriaLabel).map(str::trim) {
                        if !label.is_empty() {
                            self.w.begin_block(false);
                            let at = self.w.open_marker("**");
                            self.text(label);
                            self.w.close_marker(at, 2, "**");
                            self.w.end_block();
                        }
                    }
                }
                return Some(Exit::Blockquote);
            }
        }
        if id == self.box_title {
            self.box_title = NONE;
            if let Some(label) = icon_label(dom, id) {
                // An icon named only by its `title`/`alt` (Asciidoctor's font or image icons).
                self.w.begin_block(false);
                let at = self.w.open_marker("**");
                self.text(label);
                self.w.close_marker(at, 2, "**");
                self.w.end_block();
                return None;
            }
            // A title that is or holds a heading stays one (`> #### Well done!`).
            let heading = matches!(
                tag,
                Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6
            ) || holds_heading(dom, id, 8);
            if self.strong == 0 && self.code == 0 && !heading {
                // Its label ("Note", "Warning") in bold, a paragraph of its own.
                self.w.begin_block(false);
                self.strong += 1;
                self.flatten += 1;
                self.emphasis += 1;
                self.block_after = id;
                return Some(Exit::Strong(self.w.open_marker("**")));
            }
        }
        // Only where its box became a quote: flattened (a table cell) the title stays text.
        if tag == Tag::P && self.flatten == 0 && is_alert_title(dom, id) {
            return None;
        }
        if tag == Tag::Span && self.code == 0 && is_bare_classifier(dom, id) {
            self.text(" : ");
        }
        if matches!(tag, Tag::Span | Tag::Div) && self.code == 0 && is_code_label(dom, id) {
            return None;
        }
        if tag == Tag::Div && skipped_div(dom, id) {
            return None;
        }
        if tag == Tag::Span && tree_arrow(dom, id) {
            return None;
        }
        // Words for screen readers only in a link that shows its own ("Docs<span
        // class=sr-only> (opens in a new tab)</span>") narrate how it opens. Elsewhere they
        // may be all a cell says (`<svg/><span class=sr-only>Included</span>`), and an icon
        // link named only so keeps the name (`icon_link_label`).
        if tag == Tag::Span
            && self.pre.is_none()
            && screen_reader_only(dom, id)
            && ((self.links > 0 && link_shows_text(dom, id)) || code_frame_caption(dom, id))
        {
            return None;
        }
        // Math with its TeX source beside it (KaTeX, Wikipedia): the TeX, in dollars.
        if (dom.has_math || self.tex_classes)
            && matches!(tag, Tag::Math | Tag::Span | Tag::Div)
            && self.code == 0
            && self.pre.is_none()
        {
            if let Some((tex, display)) = math_tex(dom, id, tag) {
                self.formula(&tex, display);
                return None;
            }
        }
        // A badge stands apart from the words around it, as its box does on the page; so
        // does an inline element that a utility class lays out as a box of its own.
        if self.code == 0 && self.pre.is_none() && stands_apart(dom, id, tag, self.layout_classes) {
            if self.w.space == writer::Space::None
                && self
                    .w
                    .inline
                    .ends_with(|c: char| c.is_alphanumeric() || matches!(c, '`' | '*' | '_' | ')'))
            {
                self.w.space = writer::Space::Pending;
            }
            self.space_after.push(id);
        }
        Some(match tag {
            Tag::P
            | Tag::Div
            | Tag::Section
            | Tag::Article
            | Tag::Main
            | Tag::Header
            | Tag::Footer
            | Tag::Nav
            | Tag::Aside
            | Tag::Address
            | Tag::Center
            | Tag::Details
            | Tag::Dialog
            | Tag::Fieldset
            | Tag::Legend
            | Tag::Figure
            | Tag::Figcaption
            | Tag::Form
            | Tag::Hgroup
            | Tag::Dd
            | Tag::Dl
            | Tag::Search
            | Tag::Body
            | Tag::Html
            | Tag::Frameset
            | Tag::Option
            | Tag::Optgroup => self.block_start(),
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 => {
                let level = match tag {
                    Tag::H1 => 1,
                    Tag::H2 => 2,
                    Tag::H3 => 3,
                    Tag::H4 => 4,
                    Tag::H5 => 5,
                    _ => 6,
                };
                if self.must_flatten() {
                    self.w.soft_boundary();
                    Exit::Soft
                } else {
                    self.w.begin_block(false);
                    self.flatten += 1;
                    Exit::Heading(level, self.w.inline.len(), short_heading(dom, id))
                }
            }
            Tag::Summary | Tag::Dt | Tag::Label if tag != Tag::Label || tab_label(dom, id) => {
                if tag == Tag::Summary && toggle_label_of_open(dom, id) {
                    return None;
                }
                if self.must_flatten() {
                    self.w.soft_boundary();
                    return Some(Exit::Soft);
                }
                self.w.begin_block(false);
                // A summary that holds its own heading (rustdoc's method signatures,
                // `<summary><h3>…</h3></summary>` FAQs) keeps the heading as a heading.
                if tag == Tag::Summary && holds_heading(dom, id, SUMMARY_HEADING_SCAN) {
                    return Some(Exit::Block);
                }
                self.flatten += 1;
                let at = if self.code == 0 && self.strong == 0 {
                    self.strong += 1;
                    self.w.open_marker("**")
                } else {
                    usize::MAX
                };
                if tag == Tag::Summary {
                    Exit::Summary(at)
                } else {
                    Exit::Dt(at)
                }
            }
            Tag::Br => {
                if self.flatten > self.emphasis {
                    // `<code><br>x</code>`: a break before any code text is space before it.
                    if self.code > 0 && self.code_start == self.w.inline.len() {
                        self.code_lead = true;
                    }
                    self.w.soft_boundary();
                } else if self.emphasis > 0 {
                    self.break_in_emphasis();
                } else {
                    self.w.hard_break();
                }
                return None;
            }
            Tag::Wbr => return None,
            Tag::Hr => {
                // `<h4><hr>Title</h4>`: a rule that would end the heading before its text
                // is decoration.
                if self.must_flatten_unless_empty_heading() {
                    self.w.soft_boundary();
                } else {
                    // Not `---`: output must never open with a YAML front matter fence the
                    // page did not ask for.
                    self.w.block_lines(&["***"]);
                }
                return None;
            }
            Tag::B | Tag::Strong => {
                if self.code > 0 || self.strong > 0 {
                    Exit::Nothing
                } else {
                    self.strong += 1;
                    self.flatten += 1;
                    self.emphasis += 1;
                    let at = match self.w.reopen("**") {
                        Some(at) => at,
                        None => self.w.open_marker("**"),
                    };
                    Exit::Strong(at)
                }
            }
            Tag::I | Tag::Em | Tag::Cite | Tag::Dfn | Tag::Var => {
                if self.code > 0 || self.em > 0 {
                    Exit::Nothing
                } else if let Some((at, marker)) = self
                    .w
                    .reopen("_")
                    .map(|at| (at, "_"))
                    .or_else(|| self.w.reopen("*").map(|at| (at, "*")))
                {
                    // `<i>a</i><i>b</i>` is one span, as for strong.
                    self.em += 1;
                    self.flatten += 1;
                    self.emphasis += 1;
                    Exit::Em(at, marker)
                } else {
                    let prev_word = self
                        .w
                        .inline
                        .as_bytes()
                        .last()
                        .is_some_and(|b| b.is_ascii_alphanumeric() || *b >= 0x80);
                    let marker = if prev_word && self.w.space == writer::Space::None {
                        "*"
                    } else {
                        "_"
                    };
                    self.em += 1;
                    self.flatten += 1;
                    self.emphasis += 1;
                    Exit::Em(self.w.open_marker(marker), marker)
                }
            }
            Tag::S | Tag::Strike | Tag::Del => {
                if self.code > 0 || self.del > 0 {
                    Exit::Nothing
                } else {
                    self.del += 1;
                    self.flatten += 1;
                    self.emphasis += 1;
                    let at = match self.w.reopen("~~") {
                        Some(at) => at,
                        None => self.w.open_marker("~~"),
                    };
                    Exit::Del(at)
                }
            }
            Tag::Code | Tag::Kbd | Tag::Samp | Tag::Tt => {
                if self.code > 0 {
                    Exit::Nothing
                } else {
                    self.code += 1;
                    self.flatten += 1;
                    self.code_space = false;
                    self.code_after_link = false;
                    self.w.open_link_segment();
                    self.code_lead = false;
                    let at = match self.reopen_code() {
                        Some(at) => {
                            self.code_start = usize::MAX;
                            at
                        }
                        None => {
                            self.w.last_em = None;
                            self.w.flush_space();
                            self.w.space = writer::Space::Suppressed;
                            self.code_start = self.w.inline.len();
                            self.w.inline.len()
                        }
                    };
                    Exit::Code(at)
                }
            }
            Tag::Sup | Tag::Sub => {
                if self.code > 0 {
                    return Some(Exit::Nothing);
                }
                // `x^2`, `H\~2O`; longer content in parentheses so `2^(n+1)` stays
                // unambiguous.
                let paren = !plain_run(dom, id);
                self.w.raw(match (tag == Tag::Sup, paren) {
                    (true, false) => "^",
                    (true, true) => "^(",
                    (false, false) => "\\~",
                    (false, true) => "\\~(",
                });
                self.w.space = writer::Space::Suppressed;
                Exit::Sup(paren)
            }
            Tag::Q => {
                self.w.raw("\u{201c}");
                self.w.space = writer::Space::Suppressed;
                Exit::InlineQuote
            }
            Tag::A if heading_permalink(dom, id) || playground_link(dom, id) => return None,
            Tag::A if script_toggle(dom, id) => {
                // The separator written before it (rustdoc's "source · [−]") would hang.
                let head = self.w.inline.as_str();
                if let Some(at) = head
                    .strip_suffix('·')
                    .and_then(|h| h.strip_suffix(' '))
                    .map(str::len)
                {
                    self.w.removed_back_to(at);
                }
                return None;
            }
            Tag::A => {
                let href = dom.attr(id, Attr::Href).and_then(|h| self.urls.link(h));
                // A link to the element it sits in (`<h2 id=x><a href="#x">Title</a></h2>`) says
                // nothing a reader needs: keep the text, drop the link.
                if href.is_some() && (links_to_itself(dom, id) || toc_backref(dom, id)) {
                    // A permalink glyph (Sphinx's `¶` after a signature) is left out before it
                    // is written: written, its text could settle a closer before it (`*(y)*¶`
                    // drops the markers), moving what the link's exit would cut back to.
                    if glyph_only_link(dom, id) || heading_control(dom, id) {
                        return None;
                    }
                    return Some(Exit::SelfLink(self.w.inline.len()));
                }
                match href {
                    // API docs link names inside code (`<code><a>Foo</a>&lt;T&gt;</code>`):
                    // the code span is split around a link whose text is code.
                    Some(href) if self.links == 0 && self.code > 0 => {
                        let Some(frame) = self
                            .frames
                            .iter()
                            .rposition(|(_, e)| matches!(e, Exit::Code(_)))
                        else {
                            return Some(Exit::Nothing);
                        };
                        if let Some((_, Exit::Code(code_at))) = self.frames.get(frame) {
                            let code_at = *code_at;
                            self.finish_code_span(code_at);
                        }
                        let title = title_suffix(link_title(dom, id));
                        self.links += 1;
                        self.w.in_link += 1;
                        self.flatten += 1;
                        let link_at = self.w.open_marker("[");
                        Exit::CodeLink {
                            link_at,
                            suffix: link_suffix(&href, &title, self.w.in_table > 0),
                            inner: self.w.inline.len(),
                            frame,
                        }
                    }
                    Some(href) if self.links == 0 && self.code == 0 => {
                        let title = title_suffix(link_title(dom, id));
                        self.links += 1;
                        self.w.in_link += 1;
                        // A card (`<a><h3>Title</h3><p>Text</p></a>`): flattened, its heading
                        // would be lost.
                        if self.flatten == 0 && holds_heading(dom, id, usize::MAX) {
                            self.w.start_block_link(link_suffix(
                                &href,
                                &title,
                                self.w.in_table > 0,
                            ));
                            return Some(Exit::BlockLink);
                        }
                        self.flatten += 1;
                        Exit::Link(
                            self.w.open_marker("["),
                            link_suffix(&href, &title, self.w.in_table > 0),
                        )
                    }
                    _ => Exit::Nothing,
                }
            }
            Tag::Img => {
                self.image(id);
                return None;
            }
            // An `<object>`'s children are its fallback, which is what browsers show today
            // for the plugins it used to load.
            Tag::Object => Exit::Nothing,
            Tag::Iframe | Tag::Video | Tag::Audio | Tag::Embed => {
                self.embed(id, tag);
                return None;
            }
            Tag::Input => {
                let checkbox = dom
                    .attr(id, Attr::Type)
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("checkbox"));
                if checkbox && self.code == 0 {
                    let checked = dom.attr(id, Attr::Checked).is_some();
                    self.w.raw(if checked { "[x]" } else { "[ ]" });
                    self.w.space = writer::Space::Pending;
                }
                return None;
            }
            Tag::Blockquote => {
                if self.must_flatten() {
                    self.w.soft_boundary();
                    Exit::Soft
                } else {
                    self.w.begin_block(false);
                    self.w.push_quote();
                    Exit::Blockquote
                }
            }
            Tag::Ul | Tag::Ol | Tag::Menu | Tag::Dir => {
                if self.must_flatten() {
                    self.w.soft_boundary();
                    return Some(Exit::Soft);
                }
                if section_list(dom, id) {
                    self.section_lists.push(id);
                    self.w.begin_block(false);
                    return Some(Exit::SectionList);
                }
                let in_item = self
                    .lists
                    .last()
                    .is_some_and(|l| l.cont && l.id == dom.node(id).parent)
                    || self.in_list_item();
                // In a loose list's item a blank line goes first: in an item of its own
                // (`<li><p>a</p><ul>…`) that blank line is what makes the list loose.
                let in_item = in_item && !self.lists.last().is_some_and(|l| l.loose);
                self.w.begin_block(in_item);
                let ordered = tag == Tag::Ol;
                let reversed = ordered && dom.attr(id, Attr::Reversed).is_some();
                let start = if ordered {
                    dom.attr(id, Attr::Start)
                        .and_then(|s| s.trim().parse::<i64>().ok())
                        .map(|s| s.clamp(0, 999_999_999))
                        .unwrap_or(1)
                } else {
                    1
                };
                let depth = self.lists.len();
                let adjacent = self
                    .prev_list
                    .filter(|(len, d, _)| *len == self.w.out.len() && *d == depth);
                let bullet = match (ordered, adjacent.map(|a| a.2)) {
                    (false, Some("- ")) => "* ",
                    (false, _) => "- ",
                    (true, Some(". ")) => ") ",
                    (true, _) => ". ",
                };
                self.lists.push(ListState {
                    id,
                    ordered,
                    nested: in_item,
                    items: 0,
                    next: start,
                    step: if reversed { -1 } else { 1 },
                    bullet,
                    width: bullet.len() + usize::from(ordered),
                    cont: false,
                    start_len: self.w.out.len(),
                    loose: has_paragraph_item(dom, id),
                });
                Exit::List
            }
            Tag::Li => {
                if self.must_flatten() {
                    self.w.soft_boundary();
                    // In a table cell the items stay told apart.
                    if self.w.in_table > 0 && self.code == 0 {
                        self.w.raw("•");
                        self.w.space = writer::Space::Pending;
                    }
                    return Some(Exit::Soft);
                }
                if self.section_lists.last() == Some(&dom.node(id).parent) {
                    self.w.begin_block(false);
                    return Some(Exit::Block);
                }
                if self.is_list_child(id) {
                    self.end_list_continuation();
                }
                self.open_item();
                Exit::Item
            }
            Tag::Pre | Tag::Listing | Tag::Xmp | Tag::Plaintext => self.open_pre(id, NONE),
            // Only an example's code gets here (`example_code`).
            Tag::Textarea => self.open_pre(id, NONE),
            // Only a button that holds the text gets here (`content_button`): a heading's
            // words, or a block of its own.
            Tag::Button if self.flatten > 0 => Exit::Nothing,
            Tag::Button => self.block_start(),
            Tag::Table => {
                if self.must_flatten() {
                    self.w.soft_boundary();
                    return Some(Exit::Soft);
                }
                self.w.begin_block(false);
                if id == self.box_table
                    || table::is_layout(dom, id)
                    || table::is_list_columns(dom, id)
                {
                    // Layout tables are page structure, not data: cells render as blocks.
                    self.tables.push(None);
                    Exit::LayoutTable
                } else {
                    self.tables.push(Some(Table::new(false)));
                    Exit::Table
                }
            }
            Tag::Tr | Tag::Td | Tag::Th | Tag::Caption if !self.in_data_table() => {
                if line_number_gutter(dom, id, tag)
                    || (matches!(tag, Tag::Td | Tag::Th) && table::gutter_cell(dom, id))
                {
                    return None;
                }
                if self.labels_columns() {
                    // A table written as blocks names each cell's column above it.
                    if tag == Tag::Tr && table::is_label_row(dom, id) {
                        return None;
                    }
                    let cell = matches!(tag, Tag::Td | Tag::Th);
                    if let Some(label) = cell.then(|| table::column_label(dom, id)).flatten() {
                        self.label(&label);
                    }
                }
                self.block_start()
            }
            Tag::Tr => {
                if self.must_flatten() {
                    self.w.soft_boundary();
                    return Some(Exit::Soft);
                }
                if table::heading_row(dom, id).is_some() {
                    // The rows so far are a table of their own, then the heading.
                    if let Some(Some(t)) = self.tables.last_mut() {
                        let layout = t.layout;
                        std::mem::replace(t, Table::new(layout)).write(&mut self.w);
                    }
                    return Some(Exit::HeadingRow);
                }
                let footer = dom.tag(dom.node(id).parent) == Some(Tag::Tfoot);
                if let Some(Some(t)) = self.tables.last_mut() {
                    t.start_row(footer);
                }
                Exit::Row
            }
            // The cell of a heading row: its heading is written as a block.
            Tag::Td | Tag::Th if matches!(self.frames.last(), Some((_, Exit::HeadingRow))) => {
                Exit::Nothing
            }
            Tag::Td | Tag::Th => {
                if self.must_flatten() {
                    self.w.soft_boundary();
                    return Some(Exit::Soft);
                }
                self.w.flush_paragraph();
                self.flatten += 1;
                self.w.in_table += 1;
                let span = |a| {
                    dom.attr(id, a)
                        .and_then(|v: &str| v.trim().parse::<u32>().ok())
                        .unwrap_or(1)
                };
                self.w.space = writer::Space::Suppressed;
                Exit::Cell {
                    start: self.w.inline.len(),
                    header: tag == Tag::Th,
                    colspan: span(Attr::Colspan),
                    rowspan: span(Attr::Rowspan),
                    align: parse_align(dom.attr(id, Attr::Align), dom.attr(id, Attr::Style)),
                }
            }
            Tag::Caption => {
                if self.must_flatten() {
                    self.w.soft_boundary();
                    return Some(Exit::Soft);
                }
                self.w.flush_paragraph();
                self.flatten += 1;
                self.w.space = writer::Space::Suppressed;
                Exit::Caption(self.w.inline.len())
            }
            // Form labels sit beside controls that are dropped: keep them apart.
            Tag::Label => {
                self.w.soft_boundary();
                Exit::Soft
            }
            Tag::Rp => return None,
            Tag::Rt => {
                self.w.raw("(");
                self.w.space = writer::Space::Suppressed;
                Exit::Ruby
            }
            _ => Exit::Nothing,
        })
    }

    fn close(&mut self, id: NodeId, exit: Exit) {
        match exit {
            Exit::Nothing | Exit::Sup(false) => {}
            Exit::Sup(true) => {
                // Space ending the text (DocBook's footnote mark `<sup>[2] </sup>`) goes
                // after the parenthesis.
                let trail = self.w.space == writer::Space::Pending;
                self.w.space = writer::Space::None;
                self.w.raw(")");
                if trail {
                    self.w.space = writer::Space::Pending;
                }
            }
            Exit::Soft => self.w.soft_boundary(),
            Exit::Block => self.w.end_block(),
            Exit::SectionList => {
                self.section_lists.pop();
                self.w.end_block();
            }
            Exit::Grid => {
                self.grids.pop();
                if let Some(Some(t)) = self.tables.pop() {
                    t.write(&mut self.w);
                }
            }
            Exit::LayoutTable => {
                self.tables.pop();
                self.w.end_block();
            }
            Exit::Heading(level, start, _) => {
                self.flatten -= 1;
                self.write_heading(level, start);
            }
            Exit::Strong(at) => {
                self.strong -= 1;
                self.flatten -= 1;
                self.emphasis -= 1;
                if !self.emphasise_link(at, "**") {
                    self.w.close_marker(at, 2, "**");
                }
            }
            Exit::Em(at, marker) => {
                self.em -= 1;
                self.flatten -= 1;
                self.emphasis -= 1;
                if !self.emphasise_link(at, marker)
                    && self.w.close_marker(at, marker.len(), marker)
                    && marker == "_"
                    // Not when text white space went after the closer (`<i>x&nbsp;</i>`).
                    && self.w.inline.ends_with('_')
                {
                    // A space that opened the span went before its opener.
                    let at = at + usize::from(self.w.inline.get(at..at + 1) == Some(" "));
                    self.w.last_em = Some((at, self.w.inline.len() - 1));
                }
            }
            Exit::Del(at) => {
                self.del -= 1;
                self.flatten -= 1;
                self.emphasis -= 1;
                if !self.emphasise_link(at, "~~") {
                    self.w.close_marker(at, 2, "~~");
                }
            }
            Exit::Code(at) => {
                self.code -= 1;
                self.flatten -= 1;
                // `before<code> </code>after`: the code is gone, the space it showed is not.
                if !self.finish_code_span(at) && std::mem::take(&mut self.code_space) {
                    self.w.space = writer::Space::Pending;
                }
            }
            Exit::CodeLink {
                link_at,
                suffix,
                inner,
                frame,
            } => {
                self.finish_code_span(inner);
                // Space ending the link's code (rustdoc's `<a>&amp;'a </a>A`) goes after it.
                let trail = self.w.space == writer::Space::Pending;
                self.links -= 1;
                self.w.in_link -= 1;
                self.flatten -= 1;
                self.w.close_marker(link_at, 1, &suffix);
                self.code_space = false;
                self.code_after_link = true;
                // The enclosing code element goes on after the link.
                let at = self.w.inline.len();
                if let Some((_, Exit::Code(code_at))) = self.frames.get_mut(frame) {
                    *code_at = at;
                }
                self.w.space = if trail {
                    writer::Space::Pending
                } else {
                    writer::Space::None
                };
            }
            Exit::Link(at, suffix) => {
                let text = self.w.inline.get(at + 1..).unwrap_or("").trim();
                if text.is_empty() {
                    // An icon-only link (`<a aria-label="Home"><svg>…</svg></a>`) is named by
                    // its label; not in a heading with text of its own, where such icons are
                    // the heading's tools (Erlang/OTP's "Fix it by clicking here!" pencil).
                    let dom = self.dom;
                    if let Some(label) =
                        icon_link_label(dom, id).filter(|_| !self.in_heading_with_text())
                    {
                        // Right after the `[`: no space, not even one left by an empty icon
                        // element.
                        self.w.space = writer::Space::Suppressed;
                        self.text(label);
                    }
                }
                self.links -= 1;
                self.w.in_link -= 1;
                self.flatten -= 1;
                let text = self.w.inline.get(at + 1..).unwrap_or("").trim();
                // Permalink anchors ("¶", "#", Doxygen's "◆") next to headings carry no
                // meaning for a reader.
                let anchor_only = is_permalink_glyph(text)
                    || ((text == "◆" || is_icon_glyph(text)) && in_page_link(self.dom, id));
                if anchor_only {
                    self.w.removed_back_to(at);
                    return;
                }
                if self.w.close_marker(at, 1, &suffix) {
                    let end = self.w.inline.len();
                    let start = if self.w.inline.get(at..at + 1) == Some("[") {
                        at
                    } else {
                        at + 1
                    };
                    self.last_link = Some((start, end - suffix.len(), end));
                } else {
                    self.w.space = writer::Space::Pending;
                }
            }
            Exit::BlockLink => {
                self.links -= 1;
                self.w.in_link -= 1;
                self.w.end_block_link();
            }
            Exit::SelfLink(at) => {
                let text = self.w.inline.get(at..).unwrap_or("").trim();
                if is_permalink_glyph(text) || is_icon_glyph(text) {
                    self.w.removed_back_to(at);
                }
            }
            Exit::InlineQuote => {
                self.w.space = writer::Space::None;
                self.w.raw("\u{201d}");
            }
            Exit::Ruby => {
                self.w.space = writer::Space::None;
                self.w.raw(")");
            }
            Exit::Blockquote => {
                self.w.end_block();
                self.w.pop_prefix();
            }
            Exit::List => {
                self.end_list_continuation();
                let list = self.lists.pop();
                self.w.end_block();
                // An empty list wrote nothing: the list before it is still the neighbour.
                if let Some(l) = list.filter(|l| l.start_len != self.w.out.len()) {
                    self.prev_list = Some((self.w.out.len(), self.lists.len(), l.bullet));
                }
            }
            Exit::Item => {
                // An empty item is written once its list has output: a list of nothing but
                // empty items stays out. An item whose text was all dropped (boilerplate,
                // hidden, controls) is not written at all: a bare marker is all it would say.
                if self
                    .lists
                    .last()
                    .is_some_and(|l| l.start_len != self.w.out.len())
                    && !(self.w.item_pending() && self.dom.holds_text(id, ITEM_TEXT_SCAN))
                {
                    self.w.empty_item();
                } else {
                    self.w.flush_paragraph();
                }
                self.w.pop_prefix();
                if self.lists.is_empty() {
                    // What follows an item outside any list must not read as its lazy
                    // continuation.
                    self.w.end_block();
                } else {
                    self.w.begin_block(true);
                }
            }
            Exit::Pre => self.close_pre(),
            Exit::PreBlock => self.pre_line_break(),
            Exit::CodeLine => {
                // The line ends here, unless the source's own line feed comes next.
                let dom = self.dom;
                let next = dom.node(id).next;
                let feed_next = next != NONE && dom.text_of(next).starts_with(['\n', '\r']);
                if let Some(p) = &mut self.pre {
                    if !feed_next && !p.buf.ends_with('\n') {
                        p.buf.push('\n');
                    }
                }
            }
            Exit::FragmentLine => {
                if let Some(p) = &mut self.pre {
                    p.buf.push('\n');
                    p.break_due = false;
                }
            }
            Exit::PreInCode(frame) => {
                self.close_pre();
                // The code element goes on after the block.
                self.code += 1;
                self.flatten += 1;
                self.code_space = false;
                let at = self.w.inline.len();
                if let Some((_, Exit::Code(code_at))) = self.frames.get_mut(frame) {
                    *code_at = at;
                }
                self.w.space = writer::Space::Suppressed;
            }
            Exit::Table => {
                if let Some(Some(t)) = self.tables.pop() {
                    t.write(&mut self.w);
                }
            }
            Exit::HeadingRow => {}
            Exit::Row => {
                if let Some(Some(t)) = self.tables.last_mut() {
                    t.end_row();
                }
            }
            Exit::Cell {
                start,
                header,
                colspan,
                rowspan,
                align,
            } => {
                self.flatten -= 1;
                self.w.in_table -= 1;
                let mut text = self.w.take_inline(start);
                if text.contains('\n') {
                    text = text.replace("\\\n", " ").replace('\n', " ");
                }
                // Most cells need no trimming: keep the buffer rather than copy it.
                if text.trim().len() != text.len() {
                    text = text.trim().to_string();
                }
                if let Some(Some(t)) = self.tables.last_mut() {
                    t.cell(text, header, colspan, rowspan, align);
                }
            }
            Exit::Caption(start) => {
                self.flatten -= 1;
                let text = self.w.take_inline(start);
                if let Some(Some(t)) = self.tables.last_mut() {
                    t.caption = Some(text.trim().to_string());
                }
            }
            Exit::Summary(at) | Exit::Dt(at) => {
                if at != usize::MAX {
                    self.strong -= 1;
                    self.w.close_marker(at, 2, "**");
                }
                self.flatten -= 1;
                self.w.end_block();
            }
        }
    }

    /// Whether a block starting here must be flattened to a space (inside a cell, link or
    /// span). A heading is the exception: when its element holds blocks (an unclosed `<h1>`
    /// swallowing the page) the heading ends before the first of them and the rest renders
    /// as ordinary blocks, instead of one giant heading line.
    fn must_flatten(&mut self) -> bool {
        if self.flatten != 1 || self.pre.is_some() {
            return self.flatten > 0;
        }
        let Some(i) = self
            .frames
            .iter()
            .rposition(|(_, e)| matches!(e, Exit::Heading(..)))
        else {
            return true;
        };
        let Some((_, Exit::Heading(level, start, short))) = self.frames.get(i) else {
            return true;
        };
        if *short {
            return true;
        }
        let (level, start) = (*level, *start);
        if let Some(frame) = self.frames.get_mut(i) {
            frame.1 = Exit::Block;
        }
        self.flatten -= 1;
        self.write_heading(level, start);
        false
    }

    /// A `<br>` inside bold, italic or strikethrough and nothing that keeps to one line: a
    /// hard break inside the spans. Openers nothing follows yet move after the break (an
    /// opener followed by a line break cannot open), and while a span with content is open
    /// a second break stays a break: a blank line would end the paragraph inside it.
    fn break_in_emphasis(&mut self) {
        // The innermost spans whose openers end the buffer, outermost of them first.
        let mut tail = self.w.inline.len();
        let mut lowest = None;
        let mut fresh = 0;
        for (n, &i) in self.spans.iter().enumerate().rev() {
            let (at, len) = match self.frames.get(i) {
                Some((_, Exit::Strong(at) | Exit::Del(at))) => (*at, 2),
                Some((_, Exit::Em(at, marker))) => (*at, marker.len()),
                // A self link that holds nothing yet moves with the openers around it.
                Some((_, Exit::SelfLink(at))) if *at == tail => continue,
                _ => break,
            };
            if at + len != tail {
                break;
            }
            tail = at;
            lowest = Some(n);
            fresh += 1;
        }
        let Some(lowest) = lowest else {
            self.w.hard_break_in_span();
            return;
        };
        self.w.cut_openers(tail);
        if fresh == self.emphasis {
            self.w.hard_break();
        } else {
            self.w.hard_break_in_span();
        }
        for n in lowest..self.spans.len() {
            let Some(&i) = self.spans.get(n) else {
                break;
            };
            let here = self.w.inline.len();
            let marker = match self.frames.get_mut(i) {
                Some((_, Exit::SelfLink(at))) => {
                    *at = here;
                    continue;
                }
                Some((_, Exit::Strong(_))) => "**",
                Some((_, Exit::Del(_))) => "~~",
                Some((_, Exit::Em(_, marker))) => *marker,
                _ => continue,
            };
            let here = self.w.open_marker(marker);
            if let Some((_, Exit::Strong(at) | Exit::Del(at) | Exit::Em(at, _))) =
                self.frames.get_mut(i)
            {
                *at = here;
            }
        }
    }

    /// [`Renderer::must_flatten`], except that a heading with no text yet is not ended.
    fn must_flatten_unless_empty_heading(&mut self) -> bool {
        if self.flatten == 1 && self.pre.is_none() {
            let start = self.frames.iter().rev().find_map(|(_, e)| match e {
                Exit::Heading(_, start, _) => Some(*start),
                _ => None,
            });
            if start.is_some_and(|s| self.w.inline.get(s..).is_none_or(|t| t.trim().is_empty())) {
                return true;
            }
        }
        self.must_flatten()
    }

    fn write_heading(&mut self, level: usize, start: usize) {
        // The scratch buffer of code spans: empty between them.
        let mut content = std::mem::take(&mut self.code_raw);
        self.w.take_settled_into(start, &mut content);
        self.w.heading(level, &content, is_collapsed(&content));
        content.clear();
        self.code_raw = content;
    }

    /// Continue the code span written last when a code element follows it directly; returns
    /// where its content starts. Only a short span is continued: each continuation rewrites
    /// it, and a page of a million adjacent `<code>`s must stay linear.
    fn reopen_code(&mut self) -> Option<usize> {
        let start = self.last_code.take()?;
        let span = &self.code_span;
        if span.len() > 256
            || self.w.space != writer::Space::None
            || self.w.inline.get(start..) != Some(span.as_str())
        {
            return None;
        }
        let fence = span.bytes().take_while(|&b| b == b'`').count();
        let content = span
            .get(fence..span.len().saturating_sub(fence))
            .unwrap_or("")
            .trim()
            .to_string();
        self.w.inline.truncate(start);
        self.w.inline.push_str(&content);
        self.w.last_em = None;
        Some(start)
    }

    /// Close the code span whose content starts at `at` in the inline buffer. Returns false
    /// when it was empty.
    fn finish_code_span(&mut self, at: usize) -> bool {
        let pending_space = self.w.space == writer::Space::Pending;
        let lead_space = std::mem::take(&mut self.code_lead);
        self.code_start = usize::MAX;
        // Both buffers are kept on the renderer and reused for every span.
        let mut raw = std::mem::take(&mut self.code_raw);
        self.w.take_inline_into(at, &mut raw);
        let content = raw.trim();
        if content.is_empty() {
            // White space it held, or that was pending when it began (the part of
            // `<code> <a>b</a></code>` before the link, the part after `<a>b </a>`), is
            // still a space between what comes before and after.
            self.w.space = if pending_space || lead_space || !raw.is_empty() {
                writer::Space::Pending
            } else {
                writer::Space::None
            };
            self.code_raw = raw;
            return false;
        }
        // `[`clone`](…), [`equals`](…)`, not `[`clone`](…)`,` [`equals`](…)`.
        // `trim` took Unicode white space: a no-break space at an edge is space there too
        // (Javadoc's `<code><a>String</a>&nbsp;str</code>`), moved outside the span.
        let (raw_lead, raw_trail) = (
            raw.starts_with(char::is_whitespace),
            raw.ends_with(char::is_whitespace),
        );
        if std::mem::take(&mut self.code_after_link) && is_separator(content) {
            if (raw_lead || lead_space) && !self.w.inline.ends_with(' ') {
                self.w.inline.push(' ');
            }
            self.w.inline.push_str(content);
            self.w.space = if raw_trail || pending_space {
                writer::Space::Pending
            } else {
                writer::Space::None
            };
            self.code_raw = raw;
            return true;
        }
        // Space at the edges of the code moves outside the span.
        let (lead, trail) = (raw_lead || lead_space, raw_trail || pending_space);
        let run = longest_run(content, b'`') + 1;
        let repeated;
        let fence = match TICKS.get(..run) {
            Some(f) => f,
            None => {
                repeated = "`".repeat(run);
                repeated.as_str()
            }
        };
        let pad = content.starts_with('`') || content.ends_with('`');
        let mut span = std::mem::take(&mut self.code_span);
        span.clear();
        span.push_str(fence);
        if pad {
            span.push(' ');
        }
        span.push_str(content);
        if pad {
            span.push(' ');
        }
        span.push_str(fence);
        // Two adjacent code spans would merge into one with a broken fence. A backtick that
        // is page text is escaped (`` a\` ``): a fence right after it opens as it should.
        let after_code =
            self.w.inline.ends_with('`') && !writer::ends_in_escaped_tick(self.w.inline.as_bytes());
        let lead = lead && !self.w.lead_space_at_marker();
        if (lead || after_code) && !self.w.inline.is_empty() && !self.w.inline.ends_with(' ') {
            self.w.inline.push(' ');
        }
        if !self.w.inline.ends_with(' ') {
            self.w.guard_loose_run(b'`');
        }
        let start = self.w.inline.len();
        self.w.inline.push_str(&span);
        self.last_code = Some(start);
        self.code_span = span;
        self.code_raw = raw;
        self.w.space = if trail {
            writer::Space::Pending
        } else {
            writer::Space::None
        };
        true
    }

    /// `<code><pre>…</pre></code>`: the block is code as much as the span around it, so the
    /// span pauses (what it held so far is written) and the `<pre>` becomes a code block.
    /// Returns the code element's frame, or `None` when the `<pre>` stays inline (inside a
    /// link, cell or other span as well).
    fn pause_code_for_block(&mut self) -> Option<usize> {
        if self.code != 1 || self.flatten != 1 || self.links > 0 {
            return None;
        }
        let frame = self
            .frames
            .iter()
            .rposition(|(_, e)| matches!(e, Exit::Code(_)))?;
        if let Some((_, Exit::Code(code_at))) = self.frames.get(frame) {
            let code_at = *code_at;
            self.finish_code_span(code_at);
        }
        self.code = 0;
        self.flatten = 0;
        Some(frame)
    }

    /// Emphasis whose whole content is the link written last moves inside the link text.
    fn emphasise_link(&mut self, at: usize, marker: &str) -> bool {
        let Some((start, bracket, end)) = self.last_link else {
            return false;
        };
        let gap = start.checked_sub(at + marker.len());
        if !matches!(gap, Some(0 | 1)) || end != self.w.inline.len() {
            return false;
        }
        match self.w.emphasise_link_text(at, marker, bracket) {
            Some((start, bracket)) => {
                self.last_link = Some((start, bracket, self.w.inline.len()));
                true
            }
            None => false,
        }
    }

    /// A child element of an open CSS-grid table is its next cell.
    fn grid_cell(&mut self, id: NodeId) -> Option<Exit> {
        let parent = self.dom.node(id).parent;
        let (_, cols, count) = self.grids.last_mut().filter(|g| g.0 == parent)?;
        let cols = *cols;
        if *count % cols == 0 {
            if let Some(Some(t)) = self.tables.last_mut() {
                t.start_row(false);
            }
        }
        *count += 1;
        let header = self.dom.has_class(id, &["table-header"]);
        self.flatten += 1;
        self.w.in_table += 1;
        self.w.space = writer::Space::Suppressed;
        Some(Exit::Cell {
            start: self.w.inline.len(),
            header,
            colspan: 1,
            rowspan: 1,
            align: table::Align::None,
        })
    }

    /// Whether the innermost open heading has text (its element's, not only what is written
    /// so far: an icon may come first). A heading swallowing the page is not scanned whole.
    fn in_heading_with_text(&self) -> bool {
        let Some(&(heading, _)) = self
            .frames
            .iter()
            .rev()
            .find(|(_, e)| matches!(e, Exit::Heading(..)))
        else {
            return false;
        };
        let dom = self.dom;
        dom.descendants(heading)
            .take(256)
            .any(|n| !dom.text_of(n).trim().is_empty())
    }

    /// Cells of the innermost table are written as blocks under their columns' names: it
    /// is a table with a header made layout by a listing of several lines in a cell (other
    /// tables with a header are data), and nothing around it flattens blocks.
    fn labels_columns(&mut self) -> bool {
        matches!(self.tables.last(), Some(None)) && !self.must_flatten()
    }

    /// A bold paragraph naming what follows.
    fn label(&mut self, label: &str) {
        self.w.begin_block(false);
        let at = self.w.open_marker("**");
        self.text(label);
        self.w.close_marker(at, 2, "**");
        self.w.end_block();
    }

    fn in_data_table(&self) -> bool {
        matches!(self.tables.last(), Some(Some(_)))
    }

    fn in_list_item(&self) -> bool {
        self.frames.iter().rev().find_map(|(_, e)| match e {
            Exit::Item => Some(true),
            Exit::Block | Exit::Blockquote | Exit::Table | Exit::LayoutTable | Exit::Grid => {
                Some(false)
            }
            _ => None,
        }) == Some(true)
    }

    /// Inside `<pre>`, end the current line unless at the start of one.
    fn pre_line_break(&mut self) {
        if let Some(p) = &mut self.pre {
            p.line_break();
        }
    }

    /// Start a code block for `<pre>` (or the Doxygen fragment `fragment`, else [`NONE`]).
    fn open_pre(&mut self, id: NodeId, fragment: NodeId) -> Exit {
        let lang = code_language(self.dom, id);
        let code_frame = self.pause_code_for_block();
        if self.must_flatten() {
            // In a cell or a span the code is a span apart from the words around it, as
            // paragraphs there are (`For example: `f()` The end.`).
            self.w.soft_boundary();
        } else {
            self.w.begin_block(false);
        }
        self.pre = Some(PreState {
            buf: std::mem::take(&mut self.pre_buf),
            lang,
            depth: 1,
            code_child: false,
            break_due: false,
            fragment,
            line_boxes: lines_are_boxes(self.dom, id),
        });
        match code_frame {
            Some(frame) => Exit::PreInCode(frame),
            None => Exit::Pre,
        }
    }

    fn close_pre(&mut self) {
        let Some(pre) = &mut self.pre else { return };
        pre.depth -= 1;
        if pre.depth > 0 {
            return;
        }
        let Some(pre) = self.pre.take() else { return };
        self.write_pre(&pre.buf, &pre.lang);
        let mut buf = pre.buf;
        buf.clear();
        self.pre_buf = buf;
    }

    /// Write the text of a `<pre>` in language `lang`: a code block, or a code span where
    /// blocks flatten.
    fn write_pre(&mut self, buf: &str, lang: &str) {
        // The parser already dropped the one newline that may follow `<pre>`: leading blank
        // lines left are content. Trailing white space is not.
        let code = buf.trim_end_matches(['\n', ' ', '\t', '\r']);
        if code.trim().is_empty() {
            if self.flatten > 0 {
                self.w.soft_boundary();
            }
            return;
        }
        if self.flatten > 0 {
            // Inside a cell or span: an inline code span on one line.
            let flat: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
            // Balanced by the `Exit::Code` close below, as for a real `<code>`.
            self.code += 1;
            self.flatten += 1;
            self.w.flush_space();
            let at = self.w.inline.len();
            self.w.raw_text(&flat);
            self.close(NONE, Exit::Code(at));
            self.w.soft_boundary();
            return;
        }
        let fence_char = if lang.contains('`') { b'~' } else { b'`' };
        let run = longest_run(code, fence_char).max(2) + 1;
        // Fences of up to 16 characters are slices of a constant, not allocations.
        let repeated;
        let fences = if fence_char == b'`' { TICKS } else { TILDES };
        let fence = match fences.get(..run) {
            Some(f) => f,
            None => {
                repeated = char::from(fence_char).to_string().repeat(run);
                repeated.as_str()
            }
        };
        // A CR (`&#13;`; the parser already turned source CRs into LF) is a line break to
        // a browser and to a Markdown reader alike: make it one, not a raw control character.
        let normalized;
        let code = if memchr::memchr(b'\r', code.as_bytes()).is_some() {
            normalized = code.replace("\r\n", "\n").replace('\r', "\n");
            normalized.as_str()
        } else {
            code
        };
        self.w.code_block(fence, lang, code);
    }

    fn image(&mut self, id: NodeId) {
        let dom = self.dom;
        // `alt=""` is how HTML marks an image as decorative (avatars, icons, spacers). Inside
        // a link it may be all the link has, and the destination still matters.
        if self.links == 0 && dom.attr(id, Attr::Alt).is_some_and(|a| a.trim().is_empty()) {
            return;
        }
        let src = dom
            .attr(id, Attr::Src)
            .filter(|s| !s.trim().is_empty() && !s.trim_start().starts_with("data:"))
            .or_else(|| dom.attr(id, Attr::DataSrc))
            .or_else(|| dom.attr(id, Attr::Src));
        let Some(src) = src.and_then(|s| self.urls.image(s)) else {
            return;
        };
        let alt = strip_controls(dom.attr(id, Attr::Alt).unwrap_or(""));
        if self.code > 0 {
            return;
        }
        let mut alt_md = String::new();
        for (i, word) in alt.split_whitespace().enumerate() {
            if i > 0 {
                alt_md.push(' ');
            }
            let ctx = escape::Ctx {
                link: true,
                ..self.w.ctx()
            };
            escape::push_word(&mut alt_md, word, ctx);
        }
        let title = title_suffix(dom.attr(id, Attr::Title));
        let cell = self.w.in_table > 0;
        self.w.raw(&format!(
            "![{alt_md}]({}{})",
            cell_pipes(&src, cell),
            cell_pipes(&title, cell)
        ));
    }

    fn embed(&mut self, id: NodeId, tag: Tag) {
        let dom = self.dom;
        let src = dom
            .attr(id, Attr::Src)
            .filter(|s| !s.trim().is_empty())
            .or_else(|| {
                dom.children(id)
                    .filter(|&c| dom.tag(c) == Some(Tag::Source))
                    .find_map(|c| dom.attr(c, Attr::Src))
            });
        let label = match tag {
            Tag::Iframe => "Embedded content",
            Tag::Video => "Video",
            Tag::Audio => "Audio",
            _ => return,
        };
        let src = src.and_then(|s| self.urls.link(s));
        // A video with nothing to play still shows its poster frame: keep that image.
        let poster = match (&src, tag) {
            (None, Tag::Video) => dom
                .attr(id, Attr::Poster)
                .filter(|p| !p.trim().is_empty())
                .and_then(|p| self.urls.image(p)),
            _ => None,
        };
        if src.is_none() && poster.is_none() {
            return;
        }
        if self.code > 0 || (self.links > 0 && poster.is_none()) {
            return;
        }
        let title = dom.attr(id, Attr::Title).map(strip_controls);
        let title = title.as_deref().map(str::trim).filter(|t| !t.is_empty());
        let mut text = String::from(label);
        if let Some(t) = title {
            text.push_str(": ");
            for (i, word) in t.split_whitespace().enumerate() {
                if i > 0 {
                    text.push(' ');
                }
                let ctx = escape::Ctx {
                    link: true,
                    ..self.w.ctx()
                };
                escape::push_word(&mut text, word, ctx);
            }
        }
        let cell = self.w.in_table > 0;
        match (src, poster) {
            (Some(src), _) => self.w.raw(&format!("[{text}]({})", cell_pipes(&src, cell))),
            (None, Some(poster)) => {
                self.w
                    .raw(&format!("![{text}]({})", cell_pipes(&poster, cell)));
            }
            (None, None) => {}
        }
        self.w.space = writer::Space::Pending;
    }
}

/// A link's title, unless it only restates what the link text and target already say:
/// API-doc generators title every type link (`"struct core::ops::Index"` on `Index`,
/// `"class in org.example"`), which doubles the tokens of a signature for nothing.
fn link_title(dom: &Dom, a: NodeId) -> Option<&str> {
    let title = dom.attr(a, Attr::Title)?.trim();
    // Javadoc's "class in java.util" says nothing the link does not: decided before the
    // link text is gathered, and without a lower-cased copy. Each prefix ends in ` in `:
    // those four bytes are tested first (any case; a few other bytes pass too), as most
    // titles are not Javadoc's.
    let javadoc = [
        "class in ",
        "interface in ",
        "enum in ",
        "record in ",
        "annotation interface in ",
        "class or interface in ",
        "enum class in ",
        "type parameter in ",
    ]
    .iter()
    .any(|p| {
        let tail = title
            .as_bytes()
            .get(p.len() - 4..p.len())
            .and_then(|t| t.first_chunk::<4>());
        tail.is_some_and(|t| u32::from_le_bytes(*t) | 0x2020_2020 == u32::from_le_bytes(*b" in "))
            && strip_prefix_ignore_case(title, p).is_some()
    });
    // Intersphinx's "(in Python v3.12)" on every link into another project's docs: where
    // the target lives, which the URL says (pytest's reference has 505 of them).
    if javadoc || (title.starts_with("(in ") && title.ends_with(')')) {
        return None;
    }
    // Link text is mostly one text node: borrowed then, joined only when it is several.
    let mut parts = dom
        .descendants(a)
        .map(|n| dom.text_of(n))
        .filter(|t| !t.is_empty());
    let first = parts.next().unwrap_or("");
    let joined: String;
    let text = match parts.next() {
        None => first,
        Some(second) => {
            joined = [first, second].into_iter().chain(parts).collect();
            joined.as_str()
        }
    };
    let text = text.trim();
    // An icon-only link named by its title (see `icon_link_label`) shows it as its text.
    let restates = (!text.is_empty() && title.contains(text))
        || (text.is_empty() && icon_link_label(dom, a) == Some(title))
        || dom
            .attr(a, Attr::Href)
            .is_some_and(|h| spelled_by_href(title, h));
    (!restates).then_some(title)
}

/// Whether a link's title spells, letters and digits alike, the fragment or the file name of
/// its target: Sphinx's `"flask.Flask.route"` on `api.html#flask.Flask.route`, Haddock's
/// `"Data.Aeson.Types"` on `Data-Aeson-Types.html#t:Value`, gtk-doc's `"g_hash_table_new ()"`
/// on `#g-hash-table-new`.
fn spelled_by_href(title: &str, href: &str) -> bool {
    let (path, fragment) = href.trim().split_once('#').unwrap_or((href, ""));
    let path = path.split_once('?').map_or(path, |(p, _)| p);
    let file = path.rsplit('/').next().unwrap_or("");
    let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
    same_letters(title, fragment) || same_letters(title, stem)
}

/// Whether `a` and `b` hold the same letters and digits (at least one), ignoring case and
/// everything else.
fn same_letters(a: &str, b: &str) -> bool {
    let mut x = a.chars().filter(|c| c.is_alphanumeric());
    let mut y = b.chars().filter(|c| c.is_alphanumeric());
    let mut any = false;
    loop {
        match (x.next(), y.next()) {
            (None, None) => return any,
            (Some(p), Some(q)) if p.to_lowercase().eq(q.to_lowercase()) => any = true,
            _ => return false,
        }
    }
}

/// An Asciidoctor admonition block, `div.admonitionblock > table` whose row is an icon cell
/// (`td.icon`: the label as text, or an icon named by its `title`/`alt`) and a content
/// cell: the icon cell and the table.
fn admonition_block(dom: &Dom, id: NodeId) -> Option<(NodeId, NodeId)> {
    let table = dom.first_content_child(id)?;
    if dom.tag(table) != Some(Tag::Table) {
        return None;
    }
    // table > (tbody >)? tr > td.icon: the first row's first cell.
    let mut node = dom.first_content_child(table)?;
    if dom.tag(node) == Some(Tag::Tbody) {
        node = dom.first_content_child(node)?;
    }
    let cell = dom.first_content_child(node)?;
    (dom.tag(node) == Some(Tag::Tr) && dom.has_class(cell, &["icon"])).then_some((cell, table))
}

/// The name of a box title that shows no text, only an icon: the icon's `title`, else its
/// `alt`.
fn icon_label(dom: &Dom, title: NodeId) -> Option<&str> {
    let mut icon = None;
    for n in dom.descendants(title).take(16) {
        match dom.node(n).kind {
            Kind::Text { .. } if !dom.text_of(n).trim().is_empty() => return None,
            Kind::Element { .. } if icon.is_none() => icon = Some(n),
            _ => {}
        }
    }
    let icon = icon?;
    [Attr::Title, Attr::Alt]
        .into_iter()
        .filter_map(|a| dom.attr(icon, a))
        .map(str::trim)
        .find(|l| !l.is_empty())
}

/// Whether one of the first `limit` descendants of `a` is a heading: a link holding one has
/// its blocks rendered, each linked; a `<summary>` holding one renders it as a heading.
fn holds_heading(dom: &Dom, a: NodeId, limit: usize) -> bool {
    dom.descendants(a).take(limit).any(|n| {
        matches!(
            dom.tag(n),
            Some(Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6)
        )
    })
}

/// The name of a link with no text but an icon (an element: `<svg>`, an icon-font `<i>`):
/// its `aria-label`, else its `title`. Links within the page (`#…`) are permalink icons,
/// which say nothing a reader needs.
fn icon_link_label(dom: &Dom, a: NodeId) -> Option<&str> {
    let href = dom.attr(a, Attr::Href)?.trim();
    if href.starts_with('#') || !dom.descendants(a).any(|n| dom.tag(n).is_some()) {
        return None;
    }
    [Attr::AriaLabel, Attr::Title]
        .into_iter()
        .filter_map(|at| dom.attr(a, at))
        .map(str::trim)
        .find(|l| !l.is_empty())
        .or_else(|| {
            // Else the words it holds for screen readers (`<span class="sr-only">GitHub`).
            let span = dom
                .descendants(a)
                .take(LABEL_NODES)
                .find(|&n| dom.tag(n) == Some(Tag::Span) && screen_reader_only(dom, n))?;
            let mut texts = dom.children(span).map(|c| dom.text_of(c).trim());
            texts.find(|t| !t.is_empty())
        })
}

/// A link to the heading right before it (`<h2 id="install">…</h2><a href="#install">`,
/// Starlight's anchor with "Section titled “Install”" for screen readers): the heading's
/// permalink, whatever its words.
fn heading_permalink(dom: &Dom, a: NodeId) -> bool {
    let Some(frag) = dom
        .attr(a, Attr::Href)
        .and_then(|h| h.trim().strip_prefix('#'))
        .filter(|f| !f.is_empty())
    else {
        return false;
    };
    let mut prev = dom.node(a).prev;
    for _ in 0..4 {
        if prev == NONE {
            return false;
        }
        match dom.tag(prev) {
            Some(Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6) => {
                return dom.attr(prev, Attr::Id) == Some(frag);
            }
            Some(_) => return false,
            None if !dom.text_of(prev).trim().is_empty() => return false,
            None => prev = dom.node(prev).prev,
        }
    }
    false
}

/// Whether the link around `span` (a few levels up) shows text outside screen-reader-only
/// spans.
fn link_shows_text(dom: &Dom, span: NodeId) -> bool {
    let mut a = dom.node(span).parent;
    for _ in 0..4 {
        if a == NONE {
            return false;
        }
        if dom.tag(a) == Some(Tag::A) {
            break;
        }
        a = dom.node(a).parent;
    }
    if a == NONE || dom.tag(a) != Some(Tag::A) {
        return false;
    }
    dom.descendants(a).take(LABEL_NODES * 2).any(|n| {
        if dom.tag(n).is_some() || dom.text_of(n).trim().is_empty() {
            return false;
        }
        // Visible unless a screen-reader-only element lies between it and the link.
        !dom.ancestors(n)
            .take_while(|&up| up != a)
            .any(|up| screen_reader_only(dom, up))
    })
}

/// A code block's frame caption (Expressive Code: `figure.frame > figcaption.header`, with
/// "Terminal window" for screen readers where a terminal shows its title bar).
fn code_frame_caption(dom: &Dom, span: NodeId) -> bool {
    let caption = dom.node(span).parent;
    if caption == NONE || dom.tag(caption) != Some(Tag::Figcaption) {
        return false;
    }
    let figure = dom.node(caption).parent;
    figure != NONE && dom.children(figure).any(|c| dom.tag(c) == Some(Tag::Pre))
}

/// Nodes of an icon link read for its screen-reader words.
const LABEL_NODES: usize = 16;

/// An element styled to be read by screen readers only (Bootstrap, Tailwind, WordPress and
/// HTML5 Boilerplate name the class so).
fn screen_reader_only(dom: &Dom, id: NodeId) -> bool {
    dom.has_class_where(id, |c| {
        matches!(
            c,
            "sr-only"
                | "visually-hidden"
                | "visuallyhidden"
                | "screen-reader-text"
                | "screen-reader-only"
                | "screenreader-only"
                | "hidden-visually"
        )
    })
}

/// The GFM alert marker of GitHub's rendered alert box (`div.markdown-alert
/// .markdown-alert-note` … `-caution`).
fn github_alert(dom: &Dom, id: NodeId) -> Option<&'static str> {
    let class = dom.attr(id, Attr::Class)?;
    if !class
        .split_ascii_whitespace()
        .any(|c| c == "markdown-alert")
    {
        return None;
    }
    class
        .split_ascii_whitespace()
        .find_map(|c| match c.strip_prefix("markdown-alert-")? {
            "note" => Some("[!NOTE]"),
            "tip" => Some("[!TIP]"),
            "important" => Some("[!IMPORTANT]"),
            "warning" => Some("[!WARNING]"),
            "caution" => Some("[!CAUTION]"),
            _ => None,
        })
}

/// The title paragraph of a GitHub alert box, written as its marker instead.
fn is_alert_title(dom: &Dom, p: NodeId) -> bool {
    dom.has_class(p, &["markdown-alert-title"]) && github_alert(dom, dom.node(p).parent).is_some()
}

/// The title element of an admonition box (a note, tip or warning set off from the text),
/// as generators mark them: docutils and Sphinx, Python-Markdown and MkDocs
/// (`.admonition > .admonition-title`; Docusaurus 2.0 `.admonition-heading`), Docusaurus
/// (`.theme-admonition > [class^=admonitionHeading]`, a CSS-module name), VitePress
/// (`.custom-block > .custom-block-title`), Starlight (`.starlight-aside >
/// .starlight-aside__title`) and Bootstrap (`.alert > .alert-heading`). The title must be
/// the box's first child: such a box without one is no admonition. AsciiDoc's
/// `.admonitionblock` is tried after these ([`admonition_block`]), then the boxes that have
/// no title to find (`.callout`, `.nextra-callout`, GitBook's `.hint`). Returns the title
/// ([`NONE`] for those) and, for AsciiDoc, the table to write as blocks ([`NONE`]
/// otherwise); the class is read once.
fn admonition(dom: &Dom, id: NodeId) -> Option<(NodeId, NodeId)> {
    let class = dom.attr(id, Attr::Class)?;
    let mut is_title: Option<fn(&str) -> bool> = None;
    let mut asciidoc = false;
    for c in class.split_ascii_whitespace() {
        let title: fn(&str) -> bool = match c {
            "admonition" => |t| matches!(t, "admonition-title" | "admonition-heading"),
            "theme-admonition" => |t| t.starts_with("admonitionHeading"),
            "custom-block" => |t| t == "custom-block-title",
            "starlight-aside" => |t| t == "starlight-aside__title",
            "alert" => |t| t == "alert-heading",
            // GitHub Docs and AWS documentation.
            "ghd-alert" => |t| t == "ghd-alert-title",
            "awsdocs-note" => |t| t == "awsdocs-note-title",
            "admonitionblock" => {
                asciidoc = true;
                continue;
            }
            _ => continue,
        };
        is_title.get_or_insert(title);
    }
    let titled = is_title.and_then(|is_title| {
        let title = dom.first_content_child(id)?;
        dom.has_class_where(title, is_title)
            .then_some((title, NONE))
    });
    // Microsoft Learn names the box by its kind in capitals (`div.NOTE`, `div.TIP`) and
    // opens it with a plain `<p>Note</p>`.
    let titled = titled.or_else(|| {
        let learn = class
            .split_ascii_whitespace()
            .any(|c| matches!(c, "NOTE" | "TIP" | "IMPORTANT" | "CAUTION" | "WARNING"));
        let title = dom.first_content_child(id).filter(|_| learn)?;
        (dom.tag(title) == Some(Tag::P)).then_some((title, NONE))
    });
    match titled {
        Some(found) => Some(found),
        None if asciidoc => admonition_block(dom, id),
        // Boxes that show their kind by colour and icon only (GitBook's hints, Nextra's and
        // Mintlify's callouts) or in their own first words (MDN's notecards, "Note:"):
        // quoted without a title.
        None => class
            .split_ascii_whitespace()
            .any(|c| {
                matches!(
                    c,
                    "callout" | "nextra-callout" | "bd-callout" | "hint" | "notecard"
                )
            })
            .then_some((NONE, NONE)),
    }
}

/// A list whose every item is a `<section>` opening with a heading (Javadoc's
/// `ul.summary-list > li > section > h2`, `ul.member-list > li > section.detail > h3`): the
/// page's outline laid out with list markup. Its items are written as blocks: a heading is no
/// list item's text (`- ## Method Details`), and the markers would indent every section and
/// code block under them. Each item's first element is looked at once.
fn section_list(dom: &Dom, list: NodeId) -> bool {
    let mut items = 0usize;
    for item in dom.children(list) {
        match dom.tag(item) {
            Some(Tag::Li) => {}
            Some(_) => return false,
            None if dom.text_of(item).trim().is_empty() => continue,
            None => return false,
        }
        let Some(section) = first_element(dom, item).filter(|&n| dom.tag(n) == Some(Tag::Section))
        else {
            return false;
        };
        let heading = first_element(dom, section).and_then(|h| dom.tag(h));
        if !matches!(
            heading,
            Some(Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6)
        ) {
            return false;
        }
        items += 1;
    }
    items > 0
}

/// The first element child of `id`, if only white space comes before it.
fn first_element(dom: &Dom, id: NodeId) -> Option<NodeId> {
    dom.first_content_child(id)
        .filter(|&c| dom.tag(c).is_some())
}

/// Columns of a CSS-grid table as Javadoc writes it (`div.summary-table.three-column-summary`,
/// cells as child `div`s in row order).
fn grid_columns(dom: &Dom, id: NodeId) -> Option<usize> {
    let class = dom.attr(id, Attr::Class)?;
    let mut words = class.split_ascii_whitespace();
    if !class.split_ascii_whitespace().any(|w| w == "summary-table") {
        return None;
    }
    words.find_map(|w| match w {
        "two-column-summary" => Some(2),
        "three-column-summary" => Some(3),
        "four-column-summary" => Some(4),
        _ => None,
    })
}

/// Bytes of a link's URL below which it carries no code block.
const PLAYGROUND_URL: usize = 100;
/// Bytes of a button's label.
const PLAYGROUND_LABEL: usize = 32;
/// Bytes of a code block's first line compared with the URL.
const PLAYGROUND_LINE: usize = 120;

/// A button-like link right after a code block that carries that code to a playground:
/// rustdoc's `a.test-arrow` "Run", `play.rust-lang.org/?code=` and the example
/// percent-encoded. The code is already in the Markdown; written again as a URL it cost more
/// than the example itself (30 % of `Vec`'s page). Known by the code block's first line
/// inside the decoded URL (white space and `+` aside: form encoding writes spaces as `+`).
fn playground_link(dom: &Dom, a: NodeId) -> bool {
    let Some(href) = dom
        .attr(a, Attr::Href)
        .filter(|h| h.len() >= PLAYGROUND_URL)
    else {
        return false;
    };
    let Some(pre) = dom
        .element_before(a)
        .filter(|&p| dom.tag(p) == Some(Tag::Pre))
    else {
        return false;
    };
    let Some(label) = short_label(dom, a) else {
        return false;
    };
    let label: usize = label.map(|t| t.trim().len()).sum();
    if label == 0 || label > PLAYGROUND_LABEL {
        return false;
    }
    // The first line of the code with text, without white space.
    let mut line = String::new();
    for n in dom.descendants(pre) {
        let text = dom.text_of(n);
        let (part, ends) = match text.split_once('\n') {
            Some((head, _)) if !line.is_empty() || !head.trim().is_empty() => (head, true),
            _ => (text, false),
        };
        line.extend(
            part.chars()
                .filter(|c| !c.is_whitespace() && *c != '+')
                .take(PLAYGROUND_LINE),
        );
        if ends || line.len() >= PLAYGROUND_LINE {
            break;
        }
    }
    if line.is_empty() {
        return false;
    }
    let url: String = percent_encoding::percent_decode_str(href)
        .decode_utf8_lossy()
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '+')
        .collect();
    url.contains(line.as_str())
}

/// Nodes [`glyph_only_link`] reads before answering no.
const GLYPH_LINK_NODES: usize = 4;

/// The texts of a link (or a button-like span) as short as a glyph or a button's label:
/// `None` when it holds an image or an `<svg>`, or more than [`GLYPH_LINK_NODES`] nodes.
fn short_label(dom: &Dom, a: NodeId) -> Option<impl Iterator<Item = &str>> {
    let mut nodes = dom.descendants(a);
    for n in nodes.by_ref().take(GLYPH_LINK_NODES + 1) {
        if matches!(dom.tag(n), Some(Tag::Img | Tag::Svg)) {
            return None;
        }
    }
    if nodes.next().is_some() {
        return None;
    }
    Some(dom.descendants(a).map(|n| dom.text_of(n)))
}

/// A link whose whole text is a permalink or icon-font glyph, with no image.
fn glyph_only_link(dom: &Dom, a: NodeId) -> bool {
    let Some(label) = short_label(dom, a) else {
        return false;
    };
    let mut text = String::new();
    for t in label {
        text.push_str(t);
        if text.len() > 16 {
            return false;
        }
    }
    let text = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{200b}');
    !text.is_empty() && (is_permalink_glyph(text) || is_icon_glyph(text))
}

/// Characters a toggle's symbol may have ("[−]", "►", "▼").
const TOGGLE_SYMBOL_CHARS: usize = 8;

/// A script-run link named a toggle whose text is a symbol, no word: a control that opens or
/// closes part of the page (rustdoc's `<a id="toggle-all-docs" href="javascript:void(0)">[−]</a>`,
/// Racket's `a.tocviewtoggle` "►"). Its link is dropped as any script link; left alone, its
/// symbol would read as text. Links to places keep their text whatever it is (Haddock's
/// operators `:->`).
pub(crate) fn script_toggle(dom: &Dom, a: NodeId) -> bool {
    let named = |v: &str| {
        v.as_bytes()
            .windows(6)
            .any(|w| w.eq_ignore_ascii_case(b"toggle"))
    };
    if ![Attr::Class, Attr::Id]
        .into_iter()
        .any(|at| dom.attr(a, at).is_some_and(named))
        || !dom.attr(a, Attr::Href).is_some_and(is_script)
    {
        return false;
    }
    glyph_label(dom, a, TOGGLE_SYMBOL_CHARS, |c| !c.is_alphanumeric())
}

/// Whether `n`'s [`short_label`] is 1 to `max` characters (white space aside), each a `glyph`.
fn glyph_label(dom: &Dom, n: NodeId, max: usize, glyph: impl Fn(char) -> bool) -> bool {
    let Some(label) = short_label(dom, n) else {
        return false;
    };
    let mut chars = 0;
    for c in label.flat_map(str::chars).filter(|c| !c.is_whitespace()) {
        chars += 1;
        if chars > max || !glyph(c) {
            return false;
        }
    }
    chars > 0
}

/// A bare `<a href="#">` in a heading that is a control, not a name: a toggle (YARD's
/// `<small><a class="summary_toggle">collapse</a></small>` after "Class Method Summary") or
/// a lone symbol (rustdoc's `ⓘ`, whose notable-traits tooltip is hidden). Its text would
/// read as part of the title.
fn heading_control(dom: &Dom, a: NodeId) -> bool {
    if dom.attr(a, Attr::Href).map(str::trim) != Some("#") {
        return false;
    }
    if dom.has_class_where(a, |c| c.to_ascii_lowercase().contains("toggle")) {
        return true;
    }
    let mut chars = 0;
    for n in dom.descendants(a).take(GLYPH_LINK_NODES + 1) {
        chars += dom
            .text_of(n)
            .chars()
            .filter(|c| !c.is_whitespace())
            .count();
        if chars > 1 {
            return false;
        }
    }
    chars == 1
}

/// Link text that only marks a permalink ("¶", "#", "§", "🔗"), or looks empty (Docusaurus
/// writes a zero-width space, removed before it gets here).
pub(crate) fn is_permalink_glyph(text: &str) -> bool {
    matches!(text, "¶" | "#" | "§" | "🔗" | "\\#" | "")
}

/// Text of icon-font glyphs only (Private Use Area: MkDocs' FontAwesome link icon U+F0C1 as a
/// heading's permalink), which shows as nothing or a box outside the font.
fn is_icon_glyph(text: &str) -> bool {
    !text.is_empty()
        && text.chars().all(|c| {
            matches!(c, '\u{e000}'..='\u{f8ff}' | '\u{f0000}'..='\u{10fffd}') || c.is_whitespace()
        })
}

/// A Doxygen code listing: `<div class="fragment">` holding `<div class="line">` children
/// (one per line, each led by a `span.lineno` in source listings). Only its first children
/// are looked at: the lines come first.
pub(crate) fn is_code_fragment(dom: &Dom, div: NodeId) -> bool {
    dom.has_class(div, &["fragment"])
        && dom
            .children(div)
            .filter(|&c| dom.tag(c).is_some())
            .take(4)
            .any(|c| dom.tag(c) == Some(Tag::Div) && dom.has_class(c, &["line"]))
}

/// Whether a link's `href` is a fragment of this page (`#…`).
fn in_page_link(dom: &Dom, a: NodeId) -> bool {
    dom.attr(a, Attr::Href)
        .is_some_and(|h| h.trim_start().starts_with('#'))
}

/// A docutils section title linked back to its entry in the `.. contents::` table
/// (`<h2><a class="toc-backref" href="#id9">FFI Interface</a></h2>`, the default
/// `backlinks: entry`): in-page navigation like a self link, its text is the heading.
fn toc_backref(dom: &Dom, a: NodeId) -> bool {
    in_page_link(dom, a) && dom.has_class(a, &["toc-backref"])
}

/// Whether `<a href="#frag">` targets itself or one of its three nearest ancestors, or is
/// a bare `<a href="#">` (the top of the page) inside a heading: rustdoc 1.63 links each
/// page's own name in its title so (`<h1>Function …::<a class="fnname" href="#">min</a>`).
/// Elsewhere a bare `#` stays a link, as the converter suites expect (`[bar](#)`).
fn links_to_itself(dom: &Dom, a: NodeId) -> bool {
    let Some(href) = dom.attr(a, Attr::Href) else {
        return false;
    };
    // Most links are not to a fragment: their first byte (ASCII, not white space, not `#`)
    // says so before any trimming.
    if href
        .as_bytes()
        .first()
        .is_some_and(|&b| b.is_ascii_graphic() && b != b'#')
    {
        return false;
    }
    let Some(frag) = href.trim().strip_prefix('#') else {
        return false;
    };
    let mut node = a;
    for _ in 0..4 {
        if node == NONE {
            return false;
        }
        let found = if frag.is_empty() {
            matches!(
                dom.tag(node),
                Some(Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6)
            )
        } else {
            dom.attr(node, Attr::Id) == Some(frag) || dom.attr(node, Attr::Name) == Some(frag)
        };
        if found {
            return true;
        }
        node = dom.node(node).parent;
    }
    false
}

/// The heading a right-floated element precedes in the DOM, if it does: rustdoc writes each
/// item's `Source` link (`class="rightside"`, `out-of-band` before 1.72) before the item's
/// heading and CSS floats it onto the heading's line. In reading order it belongs after the
/// heading: before it, it would end the previous item's section.
fn floated_before_heading(dom: &Dom, id: NodeId, tag: Tag) -> Option<NodeId> {
    if !matches!(tag, Tag::A | Tag::Span | Tag::Div) {
        return None;
    }
    // Between it and the heading: white space, the `§` anchor, another floated element.
    // The siblings' tags first, classes only once a heading is found: this runs for most
    // classed inline elements, and they are rarely followed by one.
    let mut next = dom.node(id).next;
    for _ in 0..6 {
        if next == NONE {
            return None;
        }
        match dom.node(next).kind {
            Kind::Element {
                tag: Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6,
                ..
            } => return between_floated(dom, id, next).then_some(next),
            Kind::Element {
                tag: Tag::A | Tag::Span | Tag::Div,
                ..
            }
            | Kind::Other => {}
            Kind::Text { .. } if dom.text_of(next).trim().is_empty() => {}
            _ => return None,
        }
        next = dom.node(next).next;
    }
    None
}

/// The element after `id` among its siblings, past white space and comments.
fn next_element(dom: &Dom, id: NodeId) -> Option<NodeId> {
    let mut next = dom.node(id).next;
    // Bounded: a heading is followed by its table or by text.
    for _ in 0..8 {
        if next == NONE {
            return None;
        }
        match dom.node(next).kind {
            Kind::Element { .. } => return Some(next),
            Kind::Text { .. } if !dom.text_of(next).trim().is_empty() => return None,
            _ => {}
        }
        next = dom.node(next).next;
    }
    None
}

/// Whether `id` is floated and every element between it and `heading` is a permalink anchor
/// or floated too.
fn between_floated(dom: &Dom, id: NodeId, heading: NodeId) -> bool {
    if !dom.has_class(id, FLOATED) {
        return false;
    }
    let mut next = dom.node(id).next;
    while next != heading && next != NONE {
        if dom.tag(next).is_some() && !dom.has_class(next, &["anchor", "rightside", "out-of-band"])
        {
            return false;
        }
        next = dom.node(next).next;
    }
    true
}

/// rustdoc's "Expand description" label (`<summary class="hideme">`): its CSS shows it only
/// while the `<details>` is closed, and the page has it open.
/// Also MyST-NB's and sphinx-togglebutton's "Show code cell source" / "Hide code cell
/// source" pair (`span.collapsed` and `span.expanded`, one shown at a time): the content is
/// all there, and a label of both states is no text of the page.
fn toggle_label_of_open(dom: &Dom, summary: NodeId) -> bool {
    let details = dom.node(summary).parent;
    if details == NONE || dom.tag(details) != Some(Tag::Details) {
        return false;
    }
    if dom.attr(details, Attr::Open).is_some() && dom.has_class(summary, &["hideme"]) {
        return true;
    }
    let states = |class: &str| {
        dom.children(summary)
            .any(|c| dom.tag(c) == Some(Tag::Span) && dom.has_class(c, &[class]))
    };
    states("collapsed") && states("expanded")
}

/// A tab's label in a tab set built of radio buttons, where each label comes right before its
/// panel (sphinx-design `label.sd-tab-label`, sphinx-inline-tabs `label.tab-label`): the
/// panel's title.
fn tab_label(dom: &Dom, label: NodeId) -> bool {
    dom.has_class(label, &["sd-tab-label", "tab-label"])
}

/// A `<div>` left out with what it holds: a page part that only prints (sphinx-book-theme
/// repeats the title and a table of contents in `div#jb-print-docs-body.onlyprint` for the
/// printed page), or nbsphinx's execution count beside a notebook cell (`div.prompt`
/// holding `[1]:` in `div.nbinput` / `div.nboutput`). One pass over the class.
fn skipped_div(dom: &Dom, id: NodeId) -> bool {
    let prompt = std::cell::Cell::new(false);
    let print_only = dom.has_class_where(id, |c| {
        if c == "prompt" {
            prompt.set(true);
        }
        matches!(
            c,
            "onlyprint" | "only-print" | "print-only" | "visible-print-block"
        )
    });
    let parent = dom.node(id).parent;
    print_only
        || (prompt.get() && parent != NONE && dom.has_class(parent, &["nbinput", "nboutput"]))
        // Doxygen's "[detail level 1 2 3]" above a class or file tree: buttons (`onclick`
        // spans) that fold the tree.
        || (parent != NONE
            && dom.has_class(id, &["levels"])
            && dom.has_class(parent, &["directory"]))
}

/// Characters a tree's fold arrow may have.
const TREE_ARROW_CHARS: usize = 2;

/// A fold arrow of a tree: a `span.arrow` whose text is an arrow or triangle glyph or two
/// (Doxygen's class, file and page trees, `<span class="arrow" onclick="toggleFolder(…)">▼
/// </span>`). It draws a button; as text it would glue to the name after it (`▼N[ns]`).
fn tree_arrow(dom: &Dom, span: NodeId) -> bool {
    dom.has_class(span, &["arrow"])
        && glyph_label(
            dom,
            span,
            TREE_ARROW_CHARS,
            |c| matches!(c, '\u{2190}'..='\u{21ff}' | '\u{25a0}'..='\u{25ff}'),
        )
}

/// Punctuation that separates the links of a code element (`, `, `; `): written as text.
fn is_separator(s: &str) -> bool {
    s.bytes().all(|b| matches!(b, b',' | b';' | b' '))
}

const FLOATED: &[&str] = &["rightside", "out-of-band"];

/// Line numbers that highlighters put beside or inside code (Pygments `linenos`, Rouge
/// `rouge-gutter`, highlight.js `hljs-ln-numbers`, GitHub `blob-num`, gtk-doc
/// `listing_lines`, …): they are not code.
pub fn line_number_gutter(dom: &Dom, id: NodeId, tag: Tag) -> bool {
    if !matches!(
        tag,
        Tag::Td | Tag::Th | Tag::Span | Tag::Div | Tag::Pre | Tag::A | Tag::Other
    ) {
        return false;
    }
    // Runs for every token of highlighted code: a `match` per class word, not a list scan.
    let chroma_inline = std::cell::Cell::new(false);
    dom.has_class_where(id, |c| {
        if c == "ln" {
            chroma_inline.set(true);
        }
        matches!(
            c,
            "linenos"
                | "lineno"
                | "linenodiv"
                | "line-numbers-rows"
                | "rouge-gutter"
                | "gutter"
                | "blob-num"
                | "hljs-ln-numbers"
                | "ln-num"
                | "line-number"
                | "listing_lines"
                // Chroma (Hugo): the numbers of a `table.lntable`'s gutter.
                | "lnt"
        )
    }) || (chroma_inline.get() && tag == Tag::Span && chroma_line(dom, id))
}

/// Whether `span.ln` is Chroma's inline line number: the first child of a `span.line`
/// (Hugo with `lineNumbersInTable = false`); elsewhere `ln` may name a code token.
fn chroma_line(dom: &Dom, id: NodeId) -> bool {
    let line = dom.node(id).parent;
    line != NONE && dom.has_class(line, &["line"]) && dom.first_content_child(line) == Some(id)
}

/// What closes a link: `](destination "title")`, made once when the link opens (`cell`:
/// inside a table cell, see [`cell_pipes`]).
fn link_suffix(href: &str, title: &str, cell: bool) -> String {
    let mut s = String::with_capacity(href.len() + title.len() + 3);
    s.push_str("](");
    s.push_str(&cell_pipes(href, cell));
    s.push_str(&cell_pipes(title, cell));
    s.push(')');
    s
}

/// Whether a heading element is short enough that paragraphs, `<div>`s or quotes inside it
/// (`<h1>A <p>P</p> C</h1>`) read as part of the heading line, as browsers show them in the
/// heading's style: no list, table, code block, rule or other heading inside, little text,
/// few nodes. A longer one (an unclosed `<h1>` swallowing the page) ends at its first block.
fn short_heading(dom: &Dom, heading: NodeId) -> bool {
    const MAX_NODES: usize = 64;
    const MAX_TEXT: usize = 200;
    let mut text = 0usize;
    let mut blocks = false;
    for (seen, n) in dom.descendants(heading).enumerate() {
        if seen >= MAX_NODES {
            return false;
        }
        match dom.tag(n) {
            Some(
                Tag::P
                | Tag::Div
                | Tag::Blockquote
                | Tag::Section
                | Tag::Article
                | Tag::Header
                | Tag::Center
                | Tag::Address,
            ) => blocks = true,
            Some(
                Tag::Ul
                | Tag::Ol
                | Tag::Dl
                | Tag::Li
                | Tag::Table
                | Tag::Pre
                | Tag::Hr
                | Tag::Form
                | Tag::H1
                | Tag::H2
                | Tag::H3
                | Tag::H4
                | Tag::H5
                | Tag::H6,
            ) => return false,
            Some(_) => {}
            None => {
                text += dom.text_of(n).trim().len();
                if text > MAX_TEXT {
                    return false;
                }
            }
        }
    }
    blocks
}

/// Whether a `<sup>`/`<sub>` holds one plain alphanumeric run (`2`, `n`, `th`), which needs no
/// parentheses after `^`.
fn plain_run(dom: &Dom, id: NodeId) -> bool {
    let mut kids = dom.children(id);
    match (kids.next(), kids.next()) {
        (Some(only), None) if matches!(dom.node(only).kind, Kind::Text { .. }) => {
            let t = dom.text_of(only).trim();
            !t.is_empty() && t.len() <= 16 && t.chars().all(char::is_alphanumeric)
        }
        _ => false,
    }
}

/// Backtick fences of up to this many backticks are slices of it, not allocations.
const TICKS: &str = "````````````````";
/// Tilde fences, as [`TICKS`].
const TILDES: &str = "~~~~~~~~~~~~~~~~";

/// Whether `s` is already what `split_whitespace` + `join(" ")` makes of it: no white space
/// but single ASCII spaces between words.
fn is_collapsed(s: &str) -> bool {
    const LOW: u64 = !HIGH;
    // Eight bytes at a time (headings of API docs are long): a word of ASCII with no tab to
    // CR and no two spaces in a row needs no look at its bytes. Exact per byte: no carry
    // crosses a byte.
    let bytes = s.as_bytes();
    let mut after_space = true;
    let mut i = 0;
    while let Some(word) = bytes.get(i..).and_then(|t| t.first_chunk::<8>()) {
        let x = u64::from_le_bytes(*word);
        let t = x & LOW;
        let v = x ^ (ONES * 0x20);
        let space = !((v & LOW).wrapping_add(LOW) | v) & HIGH;
        let tab_to_cr =
            t.wrapping_add(ONES * (0x80 - 0x09)) & !t.wrapping_add(ONES * (0x80 - 0x0e));
        let plain = (tab_to_cr | x) & HIGH == 0
            && space & (space >> 8) == 0
            && !(after_space && space & 0x80 != 0);
        if plain {
            after_space = space >> 56 != 0;
        } else {
            for k in i..i + 8 {
                if !collapsed_at(s, k, &mut after_space) {
                    return false;
                }
            }
        }
        i += 8;
    }
    for k in i..bytes.len() {
        if !collapsed_at(s, k, &mut after_space) {
            return false;
        }
    }
    !after_space || s.is_empty()
}

/// [`is_collapsed`] at byte `i`: false when white space there is not a single ASCII space
/// between words. A char is decoded only where a non-ASCII one starts (white space beyond
/// ASCII is never a single space, so any is a no).
fn collapsed_at(s: &str, i: usize, after_space: &mut bool) -> bool {
    match s.as_bytes().get(i) {
        Some(b' ') => !std::mem::replace(after_space, true),
        Some(b'\t'..=b'\r') => false,
        Some(0xc0..) => {
            *after_space = false;
            !s.get(i..)
                .and_then(|t| t.chars().next())
                .is_some_and(char::is_whitespace)
        }
        _ => {
            *after_space = false;
            true
        }
    }
}

/// Control characters (C0 but tab and line breaks, DEL, C1) are not text: in a terminal or a
/// prompt they are escape sequences.
#[inline(always)]
fn strip_controls(s: &str) -> std::borrow::Cow<'_, str> {
    if has_control(s.as_bytes()) {
        std::borrow::Cow::Owned(s.chars().filter(|&c| !is_stripped(c)).collect())
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// A character [`strip_controls`] removes. Zero-width space and BOM are invisible too;
/// they only cost tokens.
#[inline(always)]
fn is_stripped(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{200b}' | '\u{feff}')
}

/// Whether UTF-8 text holds a character [`strip_controls`] removes, decided on bytes: every
/// text node passes through here, and decoding each char cost 5% of a large page. Sixteen
/// bytes at a time, as two words (integer operations, as fast in WebAssembly as natively):
/// only a word holding a control byte or a byte from 0x7F is looked at closer.
#[inline(always)]
fn has_control(b: &[u8]) -> bool {
    let mut pairs = b.chunks_exact(16);
    let mut start = 0;
    for pair in &mut pairs {
        let (Some(lo), Some(hi)) = (pair.first_chunk::<8>(), pair.last_chunk::<8>()) else {
            break;
        };
        let (x, y) = (u64::from_le_bytes(*lo), u64::from_le_bytes(*hi));
        // Most text has neither: one test for both words.
        if suspect(x) | suspect(y) != 0
            && (word_has_control(b, start, x) || word_has_control(b, start + 8, y))
        {
            return true;
        }
        start += 16;
    }
    let rest = pairs.remainder();
    if let Some(word) = rest.first_chunk::<8>() {
        if word_has_control(b, start, u64::from_le_bytes(*word)) {
            return true;
        }
        if rest.len() == 8 {
            return false;
        }
    } else if rest.is_empty() {
        return false;
    }
    match b.last_chunk::<8>() {
        // The last eight bytes, overlapping words already read.
        Some(word) => word_has_control(b, b.len() - 8, u64::from_le_bytes(*word)),
        // Shorter than a word (white space between tags, mostly): byte by byte.
        None => b
            .iter()
            .enumerate()
            .any(|(i, &c)| !(0x20..0x7f).contains(&c) && control_at(b, i)),
    }
}

/// Each byte 0x01, for word-at-a-time byte tests.
const ONES: u64 = u64::from_le_bytes([0x01; 8]);
/// The high bit of each byte.
const HIGH: u64 = u64::from_le_bytes([0x80; 8]);

/// High bits set if some byte of `x` is below 0x20 or from 0x7F (a carry only comes from a
/// byte that is one).
#[inline(always)]
fn suspect(x: u64) -> u64 {
    (x.wrapping_sub(ONES * 0x20) & !x | x | x.wrapping_add(ONES)) & HIGH
}

/// Whether one of the eight bytes `x` (of `b` from `start`; bytes past its end are padding)
/// starts a character [`strip_controls`] removes.
#[inline(always)]
fn word_has_control(b: &[u8], start: usize, x: u64) -> bool {
    const LOW: u64 = !HIGH;
    if suspect(x) == 0 {
        return false;
    }
    // Exactly, per byte (no carry crosses a byte): below 0x20 but tab, LF or CR, or from 0x7F.
    let t = x & LOW;
    let zero = |v: u64| !((v & LOW).wrapping_add(LOW) | v) & HIGH;
    let below = !t.wrapping_add(ONES * 0x60) & !x & HIGH;
    let allowed = zero(x ^ (ONES * 0x09)) | zero(x ^ (ONES * 0x0a)) | zero(x ^ (ONES * 0x0d));
    let high = (x | t.wrapping_add(ONES)) & HIGH;
    (below & !allowed | high) != 0 && (start..start + 8).any(|i| control_at(b, i))
}

/// Whether a character [`strip_controls`] removes starts at byte `i`.
fn control_at(b: &[u8], i: usize) -> bool {
    match b.get(i) {
        Some(b'\t' | b'\n' | b'\r') | None => false,
        Some(0..=0x1f | 0x7f) => true,
        // C1 controls U+0080–U+009F.
        Some(0xc2) => b.get(i + 1).is_some_and(|n| (0x80..=0x9f).contains(n)),
        // U+200B, U+FEFF.
        Some(0xe2) => b.get(i + 1..i + 3) == Some(&[0x80, 0x8b][..]),
        Some(0xef) => b.get(i + 1..i + 3) == Some(&[0xbb, 0xbf][..]),
        Some(_) => false,
    }
}

/// Class words whose generator's own stylesheet shows the element only on hover: rustdoc's
/// (≤ 1.67) `ⓘ` and "Notable traits" tooltip inside signatures (`display: none`), RDoc
/// darkfish's "click to toggle source" in method headings (`visibility: hidden`).
fn hover_only(class: &str) -> bool {
    matches!(class, "notable-traits" | "method-click-advice")
}

/// A control drawn as a button without being a `<button>`: `role="button"` on a span, a div
/// or a custom element (GitHub's `<clipboard-copy>` after every code block). Dropped like
/// `<button>` when its label is short ("Copy", "Show more"): such labels are UI, not content.
/// A link keeps its target, a summary its disclosure, and longer content (an accordion's
/// question) stays: recall before precision. A link to a fragment of this page is a button
/// all the same (`<a role="button" href="#">Replay</a>`, a carousel's "Next" to `#panel`):
/// its target is a script's, not a place a reader goes.
fn is_button_label(dom: &Dom, id: NodeId, tag: Tag) -> bool {
    const MAX_CHARS: usize = 24;
    if tag == Tag::Summary
        || (tag == Tag::A
            && dom
                .attr(id, Attr::Href)
                .is_some_and(|h| !h.trim_start().starts_with('#')))
        || !dom
            .attr(id, Attr::Role)
            .is_some_and(|r| r.trim().eq_ignore_ascii_case("button"))
    {
        return false;
    }
    let mut chars = 0;
    let mut words = 0;
    // Bounded: a label is a few nodes (text, an icon); anything bigger is content.
    for (n, d) in dom.descendants(id).enumerate() {
        if n >= 16 {
            return false;
        }
        match dom.tag(d) {
            Some(
                Tag::Img
                | Tag::Svg
                | Tag::Foreign
                | Tag::I
                | Tag::Span
                | Tag::B
                | Tag::Strong
                | Tag::Em
                | Tag::Other,
            ) => {}
            Some(_) => return false,
            None => {
                let text = dom.text_of(d);
                chars += text.trim().chars().count();
                words += text.split_whitespace().count();
                if chars > MAX_CHARS || words > 3 {
                    return false;
                }
            }
        }
    }
    true
}

/// A docutils classifier (`<dt><strong>x</strong><span class="classifier">int</span></dt>`,
/// numpydoc's parameter types) whose `:` only the stylesheet draws (`.classifier:before`):
/// docutils' HTML5 writer; the HTML4 one writes a `span.classifier-delimiter` before it.
fn is_bare_classifier(dom: &Dom, span: NodeId) -> bool {
    // Only in a definition term, after the term itself: a page's own `span.classifier`
    // elsewhere keeps its text as it is.
    let parent = dom.node(span).parent;
    if parent == NONE || dom.tag(parent) != Some(Tag::Dt) || !dom.has_class(span, &["classifier"]) {
        return false;
    }
    let mut prev = dom.node(span).prev;
    // Past white space between the spans, bounded.
    for _ in 0..3 {
        if prev == NONE {
            return false;
        }
        match dom.tag(prev) {
            Some(_) => return !dom.has_class(prev, &["classifier-delimiter"]),
            None if dom.text_of(prev).trim().is_empty() => prev = dom.node(prev).prev,
            None => return true,
        }
    }
    true
}

/// Whether inline element `id` is set apart from the text around it: a badge, or a box that
/// the page's utility classes display as a block, or an item of a flex or grid container
/// (GitBook's `<a class="flex"><span class="flex flex-col"><span>Previous</span><span>
/// Welcome</span></span></a>` reads "Previous Welcome" on the page, not "PreviousWelcome").
fn stands_apart(dom: &Dom, id: NodeId, tag: Tag, layout_classes: bool) -> bool {
    match tag {
        Tag::Span if pager_label(dom, id) => true,
        Tag::Span | Tag::Code | Tag::Small if !layout_classes => {
            dom.has_class_where(id, is_badge_class)
        }
        Tag::Span | Tag::Code | Tag::Small => {
            dom.has_class_where(id, |c| is_badge_class(c) || is_box_class(c))
                || lays_out_items(dom, dom.node(id).parent)
        }
        Tag::A | Tag::Label | Tag::Strong | Tag::B | Tag::Em | Tag::I if layout_classes => {
            dom.has_class_where(id, is_box_class) || lays_out_items(dom, dom.node(id).parent)
        }
        _ => false,
    }
}

/// A pager link's label, first in the link and right before the page it names: Next.js's
/// `<a><span>Previous</span><span>Defining Routes</span></a>`, where only the stylesheet
/// puts the label on a line of its own (no utility class says so): "Previous Defining
/// Routes", not "PreviousDefining Routes".
fn pager_label(dom: &Dom, span: NodeId) -> bool {
    let node = dom.node(span);
    if node.parent == NONE
        || dom.tag(node.parent) != Some(Tag::A)
        || node.next == NONE
        || dom.tag(node.next).is_none()
        || dom.first_content_child(node.parent) != Some(span)
    {
        return false;
    }
    let mut texts = dom
        .descendants(span)
        .take(4)
        .map(|d| dom.text_of(d).trim())
        .filter(|t| !t.is_empty());
    let (Some(label), None) = (texts.next(), texts.next()) else {
        return false;
    };
    let label = label.trim_matches(|c: char| {
        matches!(c, '←' | '→' | '«' | '»' | '‹' | '›') || c.is_whitespace()
    });
    [
        "previous",
        "prev",
        "next",
        "older",
        "newer",
        "previous page",
        "next page",
    ]
    .iter()
    .any(|w| w.eq_ignore_ascii_case(label))
}

/// Whether a class of the page is one that [`display_word`] reads as a box or a flex or grid
/// container: one pass per word over all kept attribute text, then a look at the class
/// each find is in. Most pages that are not built with utility classes have none.
fn uses_layout_classes(dom: &Dom) -> bool {
    page_has_class(dom, &["flex", "grid", "block"], |class| {
        is_box_class(class) || is_container_class(class)
    })
}

/// The attribute whose value holds byte `at` of [`Dom::attr_text`] (values are stored end
/// to end, in order), with its value's range there.
fn attr_at(dom: &Dom, at: usize) -> Option<(Attr, u32, u32)> {
    let i = dom.attrs.partition_point(|&(_, s, _)| s as usize <= at);
    i.checked_sub(1).and_then(|i| dom.attrs.get(i)).copied()
}

/// Whether some element's `class` has a token holding one of `words` that `is_class`
/// accepts: one substring search over all attribute values, classes looked at only there.
fn page_has_class(dom: &Dom, words: &[&str], is_class: impl Fn(&str) -> bool) -> bool {
    let text = dom.attr_text.as_str();
    words.iter().any(|word| {
        memchr::memmem::find_iter(text.as_bytes(), word).any(|at| {
            let Some((Attr::Class, s, e)) = attr_at(dom, at) else {
                return false;
            };
            let (s, e) = (s as usize, e as usize);
            if at + word.len() > e {
                return false;
            }
            let from = text
                .get(s..at)
                .and_then(|v| v.rfind(|c: char| c.is_ascii_whitespace()))
                .map_or(s, |p| s + p + 1);
            let to = text
                .get(at..e)
                .and_then(|v| v.find(|c: char| c.is_ascii_whitespace()))
                .map_or(e, |p| at + p);
            text.get(from..to).is_some_and(&is_class)
        })
    })
}

/// Tailwind's (also with a prefix: Nextra's `nx-flex`), Bootstrap's (`d-block`) and Bulma's
/// (`is-flex`) classes that display an element as a block-level box.
fn is_box_class(word: &str) -> bool {
    matches!(display_word(word), "block" | "flex" | "grid")
}

/// Whether element `id` is a flex or grid container (by the same classes), whose children
/// are laid out as boxes of their own.
fn lays_out_items(dom: &Dom, id: NodeId) -> bool {
    id != NONE && dom.has_class_where(id, is_container_class)
}

fn is_container_class(word: &str) -> bool {
    matches!(
        display_word(word),
        "flex" | "grid" | "inline-flex" | "inline-grid"
    )
}

/// A utility class without up to two short prefixes (`nx-flex`, `d-flex`, `sd-d-flex`,
/// `is-flex` → `flex`): the display value it names, if it names one (else `""`). Every
/// class of every inline element passes here: most are turned away by their last byte.
fn display_word(class: &str) -> &str {
    if !matches!(class.as_bytes().last(), Some(b'x' | b'd' | b'k'))
        || !(class.ends_with("flex") || class.ends_with("grid") || class.ends_with("block"))
    {
        return "";
    }
    let mut word = class;
    for _ in 0..2 {
        match word.split_once('-') {
            Some((prefix, rest))
                if (1..=3).contains(&prefix.len())
                    && prefix.bytes().all(|b| b.is_ascii_lowercase()) =>
            {
                word = rest
            }
            _ => break,
        }
    }
    word
}

/// Class words of badges, small labelled boxes beside a name that a page sets apart by
/// their box alone, with no space in the markup (TypeDoc's `<code class="tsd-tag">Optional
/// </code>name`, JSDoc's `name<span class="signature-attributes">opt</span>`, Bootstrap's
/// and sphinx-design's badges).
fn is_badge_class(word: &str) -> bool {
    // Doxygen's `span.icona` is the box of a tree entry's kind letter ("C" class, "N"
    // namespace) before its name.
    matches!(word, "badge" | "tsd-tag" | "signature-attributes" | "icona")
        || word.ends_with("-badge")
}

/// Whether the first text after element `id` (in document order, looking a few nodes
/// ahead, past the ends of its ancestors too) starts with a letter or digit.
fn word_follows(dom: &Dom, id: NodeId) -> bool {
    // The node last visited; the next one is its first child, else its next sibling, else
    // the next sibling of the nearest ancestor that has one.
    let mut cur = id;
    let mut descend = false;
    for _ in 0..16 {
        let n = dom.node(cur);
        let next = if descend && n.first_child != NONE {
            n.first_child
        } else if n.next != NONE {
            n.next
        } else {
            // Up one level; that ancestor's own children are done.
            cur = n.parent;
            descend = false;
            if cur == NONE {
                return false;
            }
            continue;
        };
        if let Kind::Text { .. } = dom.node(next).kind {
            return dom.text_of(next).starts_with(|c: char| c.is_alphanumeric());
        }
        cur = next;
        descend = true;
    }
    false
}

/// Whether a `<pre>`'s first span (in it or in its `<code>`) is a [`code_line`]: then its
/// lines are boxes, and its spans are looked at one by one.
fn lines_are_boxes(dom: &Dom, pre: NodeId) -> bool {
    let element = |id: NodeId| dom.children(id).find(|&c| dom.tag(c).is_some());
    let mut first = element(pre);
    if let Some(code) = first.filter(|&c| dom.tag(c) == Some(Tag::Code)) {
        first = element(code);
    }
    first.is_some_and(|span| dom.tag(span) == Some(Tag::Span) && code_line(dom, span))
}

/// A line of highlighted code laid out as a block, not by a line feed: a `span.line` child of
/// the `<code>` or `<pre>` (Shiki, VitePress, Chroma), or any span child of a `<code
/// style="display: grid">` (rehype-pretty-code's `span[data-line]`, each a grid row).
fn code_line(dom: &Dom, span: NodeId) -> bool {
    let parent = dom.node(span).parent;
    if parent == NONE || !matches!(dom.tag(parent), Some(Tag::Code | Tag::Pre)) {
        return false;
    }
    dom.has_class(span, &["line"])
        || dom.attr(parent, Attr::Style).is_some_and(|style| {
            style
                .split(';')
                .filter_map(|d| d.split_once(':'))
                .any(|(k, v)| k.trim().eq_ignore_ascii_case("display") && v.trim() == "grid")
        })
}

/// Nodes of a button read to see whether it holds code or a heading.
const BUTTON_NODES: usize = 32;

/// A button whose words are the text's, not a control's: one inside a heading (Bootstrap's
/// accordion, `<h2><button>Question?</button></h2>`), or one holding code or a heading (an
/// API reference's collapsible row, `<button><code>cssPrefix</code> string</button>`).
/// Other buttons ("Copy", "Submit", icons) are controls.
fn content_button(dom: &Dom, button: NodeId) -> bool {
    // Words, not only an icon (rustdoc's copy-path button in its `<h1>` is an image).
    let has_words = dom
        .descendants(button)
        .take(BUTTON_NODES)
        .any(|n| !dom.text_of(n).trim().is_empty());
    if !has_words {
        return false;
    }
    let in_heading = dom.ancestors(button).take(3).any(|up| {
        matches!(
            dom.tag(up),
            Some(Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6)
        )
    });
    in_heading
        || dom.descendants(button).take(BUTTON_NODES).any(|n| {
            matches!(
                dom.tag(n),
                Some(Tag::Code | Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6)
            )
        })
}

/// A runnable example's code in an editable box: pkg.go.dev writes each package example as
/// `<textarea class="Documentation-exampleCode code">` (a Go playground). Other text areas
/// are form controls.
fn example_code(dom: &Dom, textarea: NodeId) -> bool {
    dom.has_class(textarea, &["Documentation-exampleCode"])
}

/// Elements whose content is never rendered.
fn dropped_tag(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Head
            | Tag::Script
            | Tag::Style
            | Tag::Noscript
            | Tag::Template
            | Tag::Svg
            | Tag::Canvas
            | Tag::Button
            | Tag::Select
            | Tag::Textarea
            | Tag::Datalist
            | Tag::Output
            | Tag::Progress
            | Tag::Meter
            | Tag::Map
            | Tag::Area
            | Tag::Frame
            | Tag::Noframes
            | Tag::Noembed
            | Tag::Param
            | Tag::Source
            | Tag::Track
            | Tag::Title
            | Tag::Meta
            | Tag::Link
            | Tag::Base
            | Tag::Col
            | Tag::Colgroup
            | Tag::Slot
    )
}

/// The TeX source of a formula, and whether it is set on its own line: the
/// `application/x-tex` annotation that KaTeX and Wikipedia keep inside the MathML
/// (`<math><semantics>…<annotation>x^2</annotation>`), for a `<math>` or Wikipedia's
/// `.mwe-math-element` (a `<span>`, or a `<div>` for a displayed formula; its MathML is
/// hidden beside a fallback image, whose `alt` is taken first). Without one, `None`: the
/// formula's text is written as it is. Wikipedia's `{\displaystyle …}` wrapper is taken off.
fn math_tex(dom: &Dom, id: NodeId, tag: Tag) -> Option<(String, bool)> {
    if tag != Tag::Math && dom.has_class(id, &["math", "arithmatex"]) {
        return delimited_tex(dom, id);
    }
    if tag != Tag::Math && !dom.has_class(id, &["mwe-math-element"]) {
        return None;
    }
    let mut tex = String::new();
    // Formulas without a TeX source (MathJax's assistive MathML, MathML written as such)
    // are written from their MathML; displayed when alone in their block.
    let mut from_mathml = false;
    // Wikipedia's fallback image names the formula as its author wrote it.
    if let Some(alt) = dom
        .children(id)
        .find(|&c| dom.tag(c) == Some(Tag::Img))
        .and_then(|img| dom.attr(img, Attr::Alt))
    {
        tex.push_str(alt);
    } else {
        let annotation = dom
            .descendants(id)
            .find(|&n| dom.tag(n) == Some(Tag::Foreign) && dom.local_name(n) == "annotation");
        match annotation {
            Some(annotation) => {
                for n in dom.descendants(annotation) {
                    if let Kind::Text { .. } = dom.node(n).kind {
                        tex.push_str(dom.text_of(n));
                    }
                }
            }
            None if tag == Tag::Math => {
                tex = mathml::to_tex(dom, id)?;
                from_mathml = true;
            }
            None => return None,
        }
    }
    let mut tex = tex.trim();
    for wrapper in ["{\\displaystyle", "{\\textstyle"] {
        if let Some(inner) = tex
            .strip_prefix(wrapper)
            .and_then(|t| t.strip_suffix('}'))
            .filter(|inner| braces_balance(inner))
        {
            tex = inner.trim();
        }
    }
    // A `$` would end the formula early; such a source is left to the MathML's text.
    if tex.is_empty() || tex.contains('$') {
        return None;
    }
    let display = if tag == Tag::Math {
        // KaTeX: `span.katex-display > span.katex > span.katex-mathml > math`.
        dom.ancestors(id)
            .take(3)
            .any(|up| dom.has_class(up, &["katex-display"]))
            || (from_mathml && alone_in_block(dom, id))
    } else {
        dom.children(id)
            .any(|c| dom.has_class(c, &["mwe-math-mathml-display"]))
    };
    Some((tex.to_string(), display))
}

/// TeX that Sphinx and pandoc leave for MathJax to typeset: the text of a `span.math`
/// between `\(` and `\)`, or of a `div.math` / `span.math.display` between `\[` and `\]`
/// (or `$$`), displayed then. Sphinx puts a numbered equation's number (`span.eqno`) first.
fn delimited_tex(dom: &Dom, id: NodeId) -> Option<(String, bool)> {
    let mut text = String::new();
    let mut number = None;
    for c in dom.children(id) {
        match dom.node(c).kind {
            Kind::Text { .. } => text.push_str(dom.text_of(c)),
            Kind::Element { .. } if dom.has_class(c, &["eqno"]) => number = Some(c),
            Kind::Element { .. } => return None,
            _ => {}
        }
    }
    let text = text.trim();
    let (inner, display) = TEX_DELIMITERS.iter().find_map(|&(open, close, display)| {
        Some((text.strip_prefix(open)?.strip_suffix(close)?, display))
    })?;
    let inner = inner.trim();
    if inner.is_empty() || inner.contains('$') {
        return None;
    }
    let mut tex = inner.to_string();
    // The number as TeX sets it: `\tag{1}` (its own text, the `¶` link after it left out).
    if let Some(n) =
        number.and_then(|n| dom.children(n).find(|&c| !dom.text_of(c).trim().is_empty()))
    {
        let label = dom.text_of(n).trim();
        let label = label
            .strip_prefix('(')
            .and_then(|l| l.strip_suffix(')'))
            .unwrap_or(label);
        if display && !label.is_empty() && !label.contains(['{', '}', '\\']) {
            tex.push_str(" \\tag{");
            tex.push_str(label);
            tex.push('}');
        }
    }
    Some((tex, display))
}

/// What MathJax or KaTeX typesets in the text of a page ([`typesetting`]).
#[derive(Debug, Clone, Copy, Default)]
struct Typesetting {
    /// TeX between `\(`…`\)`, `\[`…`\]` and `$$`…`$$`: the page loads or configures
    /// MathJax or KaTeX.
    delimiters: bool,
    /// Also TeX between single dollars, which neither reads by default: the page's
    /// configuration says so (MathJax's `inlineMath: [['$','$']]`, KaTeX auto-render's
    /// `{left: '$', right: '$'}`).
    dollars: bool,
}

/// Whether the page has MathJax or KaTeX typeset TeX written in its text, which the served
/// HTML holds as written: it loads one from a script `src`, or an inline script configures
/// or loads one (`window.MathJax = {…}`, MathJax 2's `text/x-mathjax-config`, KaTeX's
/// `renderMathInElement`).
fn typesetting(dom: &Dom) -> Typesetting {
    let text = dom.attr_text.as_bytes();
    let mut t = Typesetting {
        delimiters: [&b"mathjax"[..], b"MathJax", b"katex"].iter().any(|word| {
            memchr::memmem::find_iter(text, word)
                .any(|at| attr_at(dom, at).is_some_and(|(attr, _, _)| attr == Attr::Src))
        }),
        dollars: false,
    };
    // Every configuration names "MathJax" or "renderMathInElement": one search of the whole
    // text first, and scripts are looked at only on pages that pass it.
    if memchr::memmem::find(dom.text.as_bytes(), b"Math").is_none() {
        return t;
    }
    for (id, node) in dom.nodes.iter().enumerate() {
        let (Kind::Text { .. }, Ok(id)) = (node.kind, NodeId::try_from(id)) else {
            continue;
        };
        if node.parent == NONE || dom.tag(node.parent) != Some(Tag::Script) {
            continue;
        }
        let script = dom.text_of(id);
        if !(script.contains("MathJax") || script.contains("renderMathInElement")) {
            continue;
        }
        t.delimiters = true;
        t.dollars |= (script.contains("inlineMath") || script.contains("delimiters"))
            && (script.contains("'$'") || script.contains("\"$\""));
    }
    t
}

/// What MathJax and KaTeX read as TeX by default: opening, closing, displayed.
const TEX_DELIMITERS: [(&str, &str, bool); 3] = [
    ("\\(", "\\)", false),
    ("\\[", "\\]", true),
    ("$$", "$$", true),
];

/// A formula found in text: where it starts and ends (delimiters included), where its TeX
/// is, and whether it is displayed.
struct Formula {
    start: usize,
    tex: std::ops::Range<usize>,
    end: usize,
    display: bool,
}

/// The first formula in `text`: between the default delimiters ([`TEX_DELIMITERS`]; the
/// first one without its closing delimiter ends the search) or, while `dollars`, between
/// single dollars as pandoc reads them (see [`lone_dollar`]). A `$` that finds no closing
/// one turns `dollars` off: whether a `$` can close does not depend on the opening, so no
/// later one would find one either. Each call reads `text` only up to the formula it
/// returns (or to the end once), so the caller's loop over a text is linear.
fn next_formula(text: &str, dollars: &mut bool) -> Option<Formula> {
    let b = text.as_bytes();
    for at in memchr::memchr2_iter(b'\\', b'$', b) {
        let rest = b.get(at..)?;
        let delimiter = TEX_DELIMITERS
            .iter()
            .find(|(open, ..)| rest.starts_with(open.as_bytes()));
        if let Some(&(open, close, display)) = delimiter {
            let from = at + open.len();
            let len = text.get(from..)?.find(close)?;
            return Some(Formula {
                start: at,
                tex: from..from + len,
                end: from + len + close.len(),
                display,
            });
        }
        if !*dollars || !lone_dollar(b, at) || b.get(at + 1).is_none_or(u8::is_ascii_whitespace) {
            continue;
        }
        let close = memchr::memchr_iter(b'$', b.get(at + 1..).unwrap_or_default())
            .map(|i| at + 1 + i)
            .find(|&i| {
                lone_dollar(b, i)
                    && !b.get(i - 1).is_none_or(u8::is_ascii_whitespace)
                    && !b.get(i + 1).is_some_and(u8::is_ascii_digit)
            });
        match close {
            Some(close) => {
                return Some(Formula {
                    start: at,
                    tex: at + 1..close,
                    end: close + 1,
                    display: false,
                })
            }
            None => *dollars = false,
        }
    }
    None
}

/// Whether `b[i]` is a `$` that can open or close an inline formula: not part of `$$` and
/// not escaped by a backslash. With pandoc's other rules (the opening `$` before a
/// non-space, the closing one after a non-space and not before a digit) prices stay text:
/// "$5 and $10", "US$5 or NZ$6".
fn lone_dollar(b: &[u8], i: usize) -> bool {
    let before = b.get(..i).unwrap_or_default();
    b.get(i) == Some(&b'$')
        && before.last() != Some(&b'$')
        && b.get(i + 1) != Some(&b'$')
        && before.iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 0
}

/// The TeX of MathJax 2's `<script type="math/tex">` (`; mode=display`: displayed).
fn script_tex(dom: &Dom, id: NodeId) -> Option<(String, bool)> {
    if dom.tag(id) != Some(Tag::Script) {
        return None;
    }
    let kind = dom.attr(id, Attr::Type)?.trim();
    let is_tex = kind
        .get(..8)
        .is_some_and(|k| k.eq_ignore_ascii_case("math/tex"));
    if !is_tex {
        return None;
    }
    let display = kind.contains("mode=display");
    let tex: String = dom.children(id).map(|c| dom.text_of(c)).collect();
    let tex = tex.trim();
    if tex.is_empty() || tex.contains('$') {
        return None;
    }
    Some((tex.to_string(), display))
}

/// What MathJax 2 drew for the `<script type="math/tex">` after it (`span.MathJax`,
/// `div.MathJax_Display`, `span.MathJax_Preview`, the SVG and CHTML outputs' boxes): the
/// script says the same as TeX.
fn mathjax2_rendering(dom: &Dom, id: NodeId) -> bool {
    let is_box = |n: NodeId| dom.has_class_where(n, |c| c.starts_with("MathJax"));
    if !is_box(id) {
        return false;
    }
    let mut next = dom.node(id).next;
    for _ in 0..4 {
        if next == NONE {
            return false;
        }
        match dom.node(next).kind {
            Kind::Text { .. } if dom.text_of(next).trim().is_empty() => {}
            Kind::Element { .. } if script_tex(dom, next).is_some() => return true,
            Kind::Element { .. } if is_box(next) => {}
            _ => return false,
        }
        next = dom.node(next).next;
    }
    false
}

/// Whether the formula `id` is all its block shows (through inline wrappers such as
/// MathJax's `mjx-container`): the way a displayed formula sits on a page.
fn alone_in_block(dom: &Dom, id: NodeId) -> bool {
    // A displayed formula's block holds little beside it; the bounds keep a block of
    // thousands of empty boxes and formulas from costing each formula a scan of them all.
    const MAX_SIBLINGS: usize = 16;
    let mut inner = id;
    for up in dom.ancestors(id).take(6) {
        let mut siblings = dom.children(up);
        if !siblings
            .by_ref()
            .take(MAX_SIBLINGS)
            .all(|c| c == inner || shows_nothing(dom, c))
            || siblings.next().is_some()
        {
            return false;
        }
        match dom.tag(up) {
            Some(
                Tag::P
                | Tag::Div
                | Tag::Dd
                | Tag::Center
                | Tag::Figure
                | Tag::Blockquote
                | Tag::Section
                | Tag::Article
                | Tag::Main
                | Tag::Body,
            ) => return true,
            Some(Tag::Span | Tag::Other) => inner = up,
            _ => return false,
        }
    }
    false
}

/// A node that puts nothing on the page beside a formula: white space, a comment, a
/// script (MathJax 2's TeX source), something hidden, or an element without text (the
/// glyph boxes MathJax draws with CSS).
fn shows_nothing(dom: &Dom, id: NodeId) -> bool {
    match dom.node(id).kind {
        Kind::Text { .. } => dom.text_of(id).trim().is_empty(),
        Kind::Element { tag, .. } => {
            // Glyph boxes are small; a larger subtree is taken to show something.
            const MAX_NODES: usize = 256;
            let mut nodes = dom.descendants(id);
            matches!(tag, Tag::Script | Tag::Style | Tag::Template)
                || is_hidden(dom, id)
                || (nodes
                    .by_ref()
                    .take(MAX_NODES)
                    .all(|n| dom.text_of(n).trim().is_empty())
                    && nodes.next().is_none())
        }
        _ => true,
    }
}

/// Whether every `{` in `tex` is closed and no `}` closes more than was opened (escaped
/// braces, `\{`, left aside): `{\displaystyle a}{b}` is no wrapper round `a}{b`.
fn braces_balance(tex: &str) -> bool {
    let mut depth = 0usize;
    let mut escaped = false;
    for b in tex.bytes() {
        match b {
            _ if escaped => escaped = false,
            b'\\' => escaped = true,
            b'{' => depth += 1,
            b'}' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            _ => {}
        }
    }
    depth == 0
}

/// TeX written between dollars: white space collapsed (a formula stays on its line), no `<`
/// right before a letter (it would read as an HTML tag) and no `](` (a link): TeX ignores
/// the space put between; in a table cell `|` escaped, as GFM reads it before the formula.
/// Control characters go, as from all text ([`strip_controls`]): MathML's and the page's
/// TeX are the page's text too.
fn push_tex(out: &mut String, tex: &str, cell: bool) {
    let mut chars = tex
        .split_ascii_whitespace()
        .flat_map(|w| std::iter::once(' ').chain(w.chars()));
    chars.next(); // the space before the first word
    let mut prev = ' ';
    for c in chars {
        // Tabs and line breaks went with the white space above.
        if is_stripped(c) {
            continue;
        }
        // Nor `](`, which would make a link of `[…](…)` (any URL: the TeX is the page's).
        if (prev == '<' && (c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?')))
            || (prev == ']' && c == '(')
        {
            out.push(' ');
        }
        if cell && c == '|' {
            out.push('\\');
        }
        out.push(c);
        prev = c;
    }
    // A backslash right before the closing dollar would escape it (`$a \$`).
    if out.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1 {
        out.push(' ');
    }
}

/// Nodes of an item that wrote nothing read for text it had (and lost to the selection)
/// before taking it as such: nested items would each read the same subtree again.
const ITEM_TEXT_SCAN: usize = 64;

/// Whether one of the element's own children is text other than white space.
fn holds_own_text(dom: &Dom, id: NodeId) -> bool {
    dom.children(id)
        .any(|c| matches!(dom.node(c).kind, Kind::Text { .. }) && !dom.text_of(c).trim().is_empty())
}

/// Known language names accepted as a bare class (`<pre class="rust">`).
const BARE_LANGS: &[&str] = &[
    "bash",
    "c",
    "cpp",
    "csharp",
    "css",
    "diff",
    "go",
    "html",
    "java",
    "javascript",
    "js",
    "json",
    "kotlin",
    "lua",
    "php",
    "python",
    "py",
    "ruby",
    "rust",
    "scala",
    "shell",
    "sh",
    "sql",
    "swift",
    "toml",
    "ts",
    "typescript",
    "xml",
    "yaml",
    "console",
    "text",
    "mermaid",
];

/// Longest text taken for a label naming a code block's language.
const CODE_LABEL_BYTES: usize = 24;

/// A label naming the language of the code block right after it, which the fence's info
/// string says already: VitePress `div.language-sh > span.lang + pre`, MDN
/// `div.example-header > span.language-name` before the `<pre>`, Microsoft Learn
/// `div.codeHeader > span.language + button`. Only text inside, and the `<pre>` must come
/// next (nothing but white space and buttons between, up through at most two wrappers the
/// label ends).
fn is_code_label(dom: &Dom, id: NodeId) -> bool {
    // The `<pre>` after it first: in running text the next sibling is words, and most spans
    // are answered there.
    let mut at = id;
    let mut pre = NONE;
    for _ in 0..3 {
        let mut next = dom.node(at).next;
        // White space and buttons (the block's "Copy") may come between.
        while next != NONE && matches!(dom.tag(next), None | Some(Tag::Button)) {
            if !dom.text_of(next).trim().is_empty() {
                return false;
            }
            next = dom.node(next).next;
        }
        if next != NONE {
            if dom.tag(next) != Some(Tag::Pre) {
                return false;
            }
            pre = next;
            break;
        }
        at = dom.node(at).parent;
        if at == NONE || !matches!(dom.tag(at), Some(Tag::Div | Tag::Span)) {
            return false;
        }
    }
    if pre == NONE {
        return false;
    }
    let mut label = None;
    for c in dom.children(id) {
        if dom.tag(c).is_some() {
            return false;
        }
        let t = dom.text_of(c).trim();
        if !t.is_empty() {
            if label.is_some() {
                return false;
            }
            label = Some(t);
        }
    }
    label.is_some_and(|l| l.len() <= CODE_LABEL_BYTES && same_language(l, &code_language(dom, pre)))
}

/// Whether a label names the fence's language: the same name, or a common long form of it.
fn same_language(label: &str, lang: &str) -> bool {
    const ALIASES: &[(&str, &str)] = &[
        ("js", "javascript"),
        ("ts", "typescript"),
        ("py", "python"),
        ("sh", "shell"),
        ("rb", "ruby"),
        ("rs", "rust"),
        ("yml", "yaml"),
        ("md", "markdown"),
        ("kt", "kotlin"),
        ("cs", "c#"),
        ("csharp", "c#"),
        ("fsharp", "f#"),
        ("cpp", "c++"),
        ("powershell", "pwsh"),
    ];
    !lang.is_empty()
        && (label.eq_ignore_ascii_case(lang)
            || ALIASES.iter().any(|&(short, long)| {
                (lang == short && label.eq_ignore_ascii_case(long))
                    || (lang == long && label.eq_ignore_ascii_case(short))
            }))
}

/// The info string for a code block: `language-*`, `lang-*`, `highlight-*`, `brush: *` on the
/// `<pre>`, its `<code>` child, or a wrapper above it.
fn code_language(dom: &Dom, pre: NodeId) -> String {
    if dom.tag(pre) == Some(Tag::Textarea) {
        // pkg.go.dev's examples are Go.
        return "go".to_string();
    }
    // Looked at in order: the `<code>` child, the `<pre>`, its wrappers (no list built).
    // mdBook nests its block in a second `<pre>`: `<pre><pre class="playground"><code
    // class="language-rust">`; the inner one names the language.
    let inner = dom.children(pre).find(|&c| dom.tag(c) == Some(Tag::Pre));
    let from = |id: NodeId| {
        let bare_ok = id == pre || Some(id) == inner || dom.tag(id) == Some(Tag::Code);
        [dom.attr(id, Attr::Class), dom.attr(id, Attr::Lang)]
            .into_iter()
            .flatten()
            .find_map(|class| language_from_class(class, bare_ok))
            // rehype-pretty-code and Shiki transformers name it only in `data-language`,
            // Mintlify in `language`.
            .or_else(|| {
                let token = dom
                    .attr(id, Attr::CodeLanguage)?
                    .split_ascii_whitespace()
                    .next()?;
                clean_language(token.to_ascii_lowercase())
            })
    };
    let code = dom
        .children(inner.unwrap_or(pre))
        .find(|&c| dom.tag(c) == Some(Tag::Code));
    if let Some(lang) = code
        .and_then(from)
        .or_else(|| inner.and_then(from))
        .or_else(|| from(pre))
    {
        return lang;
    }
    // Wrappers up to six levels (a Pygments line-number table puts the `highlight-*` class
    // six levels above the `<pre>`), never past a sectioning element.
    let mut up = dom.node(pre).parent;
    for _ in 0..6 {
        if up == NONE
            || matches!(
                dom.tag(up),
                Some(Tag::Body | Tag::Main | Tag::Article | Tag::Section | Tag::Html)
            )
        {
            break;
        }
        if let Some(lang) = from(up) {
            return lang;
        }
        up = dom.node(up).parent;
    }
    String::new()
}

/// `s` without `prefix`, compared ASCII case-insensitively.
fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| s.get(prefix.len()..))
        .flatten()
}

fn language_from_class(class: &str, bare_ok: bool) -> Option<String> {
    // Pandoc: `class="sourceCode haskell"` names the language bare, beside its marker.
    let pandoc = class
        .split_ascii_whitespace()
        .any(|t| t.eq_ignore_ascii_case("sourcecode"));
    let bare_ok = bare_ok || pandoc;
    let mut tokens = class.split_ascii_whitespace().peekable();
    while let Some(tok) = tokens.next() {
        // Matched without lower-casing the token: only a language found is lower-cased.
        let lang = [
            "language-",
            "lang-",
            "highlight-source-",
            "highlight-",
            "sourcecode-",
            "hl-",
        ]
        .iter()
        .find_map(|p| strip_prefix_ignore_case(tok, p))
        .map(|l| {
            // GitHub names TextMate scopes: `highlight-text-html-basic` is HTML.
            match strip_prefix_ignore_case(tok, "highlight-text-") {
                Some(scope) => scope.split('-').next().unwrap_or(scope),
                None => l,
            }
            .to_ascii_lowercase()
        })
        .or_else(|| {
            if tok.eq_ignore_ascii_case("brush:") {
                tokens
                    .peek()
                    .map(|t| t.trim_end_matches(';').to_ascii_lowercase())
            } else {
                strip_prefix_ignore_case(tok, "brush:")
                    .map(|l| l.trim_end_matches(';').to_ascii_lowercase())
            }
        })
        .or_else(|| {
            // Sandpack (react.dev): `pre.sp-cm.sp-javascript`, beside `sp-cm`, `sp-pristine`.
            strip_prefix_ignore_case(tok, "sp-")
                .filter(|l| BARE_LANGS.iter().any(|b| l.eq_ignore_ascii_case(b)))
                .map(str::to_ascii_lowercase)
        })
        .or_else(|| {
            let pandoc_lang = pandoc
                && !["sourcecode", "numbersource", "numberlines"]
                    .iter()
                    .any(|w| tok.eq_ignore_ascii_case(w))
                && tok.chars().all(|c| c.is_ascii_alphanumeric() || c == '+');
            (pandoc_lang || (bare_ok && BARE_LANGS.iter().any(|l| tok.eq_ignore_ascii_case(l))))
                .then(|| tok.to_ascii_lowercase())
        });
        if let Some(clean) = lang.and_then(clean_language) {
            return Some(clean);
        }
    }
    None
}

/// A lower-cased language name made safe for an info string; `None` for names meaning none.
fn clean_language(lang: String) -> Option<String> {
    // Jupyter names kernels, not languages.
    let lang = match lang.as_str() {
        "ipython" | "ipython2" | "ipython3" => "python".to_string(),
        _ => lang,
    };
    // Letters of any script stay (`language-föö` is `föö`, as CommonMark writes it);
    // punctuation that could end or break an info string goes.
    let clean: String = lang
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '+' | '-' | '#' | '.' | '_'))
        .collect();
    (!clean.is_empty()
        && !matches!(
            clean.as_str(),
            "none" | "default" | "plaintext" | "nohighlight"
        ))
    .then_some(clean)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_classes_are_found_only_as_whole_classes() {
        let uses = |html: &str| uses_layout_classes(&Dom::parse(html));
        assert!(uses("<div class=\"a nx-grid\"><a href=/x>x</a></div>"));
        // At the end of a value, the next value (stored right after it) starting a word.
        assert!(uses("<a class=\"flex\" href=\"docs\">x</a>"));
        assert!(uses("<span class=\"d-block\" id=k>x</span>"));
        assert!(!uses(
            "<pre class=\"code-block\">x</pre><p title=\"flex grid\">y</p>"
        ));
        assert!(!uses(
            "<div class=\"literal-block-wrapper flexbox\">x</div>"
        ));
        assert!(!uses("<p>flex grid block</p>"));
    }

    #[test]
    fn language_classes_match_ascii_case_insensitively() {
        let cases = [
            ("Language-Rust", false, Some("rust")),
            ("HIGHLIGHT-SOURCE-Go", false, Some("go")),
            ("language-IPython3", false, Some("python")),
            ("BRUSH: JScript;", false, Some("jscript")),
            ("Brush:Ruby;", false, Some("ruby")),
            ("sourceCode Haskell", false, Some("haskell")),
            ("SourceCode NumberLines", false, None),
            ("Python", true, Some("python")),
            ("Python", false, None),
            ("lang-\u{c9}x", false, Some("\u{c9}x")),
            ("language-f\u{f6}\u{f6}", false, Some("f\u{f6}\u{f6}")),
            ("language-a`b\u{200b}c", false, Some("abc")),
            ("language-None", false, None),
        ];
        for (class, bare_ok, want) in cases {
            assert_eq!(
                language_from_class(class, bare_ok).as_deref(),
                want,
                "{class:?}"
            );
        }
    }

    #[test]
    fn byte_level_control_check_agrees_with_chars_on_every_char() {
        let removed = |c: char| {
            (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
                || matches!(c, '\u{200b}' | '\u{feff}')
        };
        let mut buf = [0u8; 4];
        for c in (0..=char::MAX as u32).filter_map(char::from_u32) {
            let one = c.encode_utf8(&mut buf);
            assert_eq!(has_control(one.as_bytes()), removed(c), "{c:?}");
            let framed = format!("a{c}é");
            let long = format!("{}{c}{}", "x".repeat(31), "y".repeat(40));
            assert_eq!(
                has_control(long.as_bytes()),
                removed(c),
                "{c:?} at a chunk edge"
            );
            assert_eq!(
                strip_controls(&framed).chars().count(),
                if removed(c) { 2 } else { 3 }
            );
        }
    }

    #[test]
    fn control_check_finds_each_control_at_every_word_offset() {
        let removed = |c: char| {
            (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
                || matches!(c, '\u{200b}' | '\u{feff}')
        };
        let chars = (0..0x300u32)
            .chain([
                0x200a, 0x200b, 0x200c, 0x2028, 0xfeff, 0xfefe, 0xffef, 0x1f600,
            ])
            .filter_map(char::from_u32);
        for c in chars {
            for lead in 0..34 {
                for tail in [0, 1, 7, 9] {
                    let s = format!("{}{c}{}", "a".repeat(lead), "\n".repeat(tail));
                    assert_eq!(has_control(s.as_bytes()), removed(c), "{c:?} after {lead}");
                }
            }
        }
    }

    #[test]
    fn collapsed_check_agrees_with_split_whitespace() {
        let samples = [
            "",
            " ",
            "a",
            "a b",
            " a b",
            "a b ",
            "a  b",
            "a\tb",
            "a\nb",
            "a\u{a0}b",
            "a \u{2003}b",
            "héllo wörld",
            "\u{3000}",
            "x y z",
            "x y  z",
            "#",
            "a #",
            "a\u{85}b",
            "a\u{1680}b",
            "a\u{2000}b",
            "a\u{200a}b",
            "a\u{200b}b",
            "a\u{2028}b",
            "a\u{202f}b",
            "a\u{205f}b",
            "a \u{3000}",
            "a\x0bb",
            "a\x1fb",
            "\u{2014} a",
            "a\u{2014}",
            "é",
            "abcdefg  hijklmn",
            "abcdefgh ijklmnop",
            "abcdefgh  ijklmnop",
            "abcdefg\u{a0}hijklmnopq",
            "a b c d e f g h i j k l m n",
            "a b c d e f g h i j k l m n ",
            " a b c d e f g h i j k l m n",
            "a b c d e f g\th i j k l m n",
            "abcdefghijklmnop qrstuvwx\u{2003}",
            "abcdefghijklmnop qrstuvw \u{2003}",
            "abcdefghijklmnop\u{2014}rstuvwx",
            "abcdefghijklmno\u{3000}rstuvwx",
            "abcdefghijklmnopqrstuvwxyz0123456",
        ];
        for s in samples {
            let joined = s.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(is_collapsed(s), joined == s, "{s:?}");
        }
    }

    #[test]
    fn word_at_a_time_collapsed_check_agrees_with_split_whitespace() {
        // Strings of every length across several words, from characters around each case.
        let alphabet = [
            'a', ' ', ' ', '\t', '\n', '\u{a0}', 'é', '\u{2003}', '\u{2014}', '!',
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 40) as usize;
            let s: String = (0..len)
                .map(|k| {
                    let pick = (seed >> (k % 48)) as usize + k;
                    // Mostly letters, as headings are.
                    match pick % 3 {
                        0 => alphabet[(pick / 3) % alphabet.len()],
                        _ => 'a',
                    }
                })
                .collect();
            let joined = s.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(is_collapsed(&s), joined == s, "{s:?}");
        }
    }
}
