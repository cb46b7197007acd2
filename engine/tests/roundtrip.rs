//! Round trip: read every corpus page's Markdown back with a GFM parser (pulldown-cmark) and
//! check that what the page showed survives as the same structure — headings as headings,
//! link targets as link targets, `<pre>` text as code blocks, cells as table cells, visible
//! words as text — and that no script or style text leaks.
//!
//! The HTML side is read independently of the renderer: the same parse and main-content
//! selection, then a plain walk that collects what a reader would see.
mod common;

use std::collections::{HashMap, HashSet};

use agent_markdown::dom::{Dom, Kind, NodeId, Tag};
use agent_markdown::select::{is_hidden, select, Selection};
use agent_markdown::urls::Resolver;
use agent_markdown::{decode, meta};
use common::{convert_page, corpus_pages, Page};
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag as MdTag, TagEnd};

/// What a GFM reader gets out of the Markdown.
#[derive(Default)]
struct MdView {
    headings: Vec<String>,
    links: HashSet<String>,
    code_blocks: Vec<String>,
    cells: Vec<String>,
    words: HashMap<String, usize>,
    text: String,
}

fn read_markdown(md: &str) -> MdView {
    let opts = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS;
    let mut view = MdView::default();
    let mut heading: Option<String> = None;
    let mut code: Option<String> = None;
    let mut cell: Option<String> = None;
    let mut in_meta = false;
    for event in Parser::new_ext(md, opts) {
        match event {
            Event::Start(MdTag::MetadataBlock(_)) => in_meta = true,
            Event::End(TagEnd::MetadataBlock(_)) => in_meta = false,
            Event::Start(MdTag::Heading { .. }) => heading = Some(String::new()),
            Event::End(TagEnd::Heading(_)) => {
                if let Some(h) = heading.take() {
                    view.headings.push(normalize(&h));
                }
            }
            Event::Start(MdTag::CodeBlock(CodeBlockKind::Fenced(_))) => code = Some(String::new()),
            Event::End(TagEnd::CodeBlock) => {
                if let Some(c) = code.take() {
                    view.code_blocks.push(c.trim_end_matches('\n').to_string());
                }
            }
            Event::Start(MdTag::TableCell) => cell = Some(String::new()),
            Event::End(TagEnd::TableCell) => {
                if let Some(c) = cell.take() {
                    view.cells.push(normalize(&c));
                }
            }
            Event::Start(MdTag::Link { dest_url, .. }) => {
                view.links.insert(dest_url.to_string());
            }
            Event::Text(t) | Event::Code(t) if !in_meta => {
                for target in [&mut heading, &mut code, &mut cell].into_iter().flatten() {
                    target.push_str(&t);
                }
                view.text.push_str(&t);
                view.text.push(' ');
                for w in words(&t) {
                    *view.words.entry(w).or_default() += 1;
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                for target in [&mut heading, &mut cell].into_iter().flatten() {
                    target.push(' ');
                }
                if let Some(c) = &mut code {
                    c.push('\n');
                }
                view.text.push(' ');
            }
            _ => {}
        }
    }
    view
}

/// What the page shows in its selected content.
#[derive(Default)]
struct HtmlView {
    headings: Vec<String>,
    links: Vec<String>,
    code_blocks: Vec<String>,
    cells: Vec<String>,
    words: HashMap<String, usize>,
    /// Code-like lines of script and style elements anywhere in the page.
    script_lines: Vec<String>,
}

fn never_rendered(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Head
            | Tag::Script
            | Tag::Style
            | Tag::Noscript
            | Tag::Template
            | Tag::Svg
            | Tag::Math
            | Tag::Canvas
            | Tag::Button
            | Tag::Select
            | Tag::Textarea
            | Tag::Datalist
            | Tag::Title
            | Tag::Iframe
            | Tag::Video
            | Tag::Audio
            | Tag::Noframes
            | Tag::Noembed
            | Tag::Output
            | Tag::Progress
            | Tag::Meter
    )
}

/// Elements whose content the renderer flattens into one line (no headings, blocks or code
/// blocks inside). Cells of data tables flatten too.
fn flattens(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::A
            | Tag::H1
            | Tag::H2
            | Tag::H3
            | Tag::H4
            | Tag::H5
            | Tag::H6
            | Tag::Summary
            | Tag::Dt
            | Tag::B
            | Tag::Strong
            | Tag::I
            | Tag::Em
            | Tag::Code
            | Tag::S
            | Tag::Del
            | Tag::Strike
    )
}

fn read_html(page: &Page) -> HtmlView {
    let (text, _) = decode::decode(&page.bytes, None);
    let dom = Dom::parse(&text);
    let page_meta = meta::collect(&dom);
    let urls = Resolver::new(Some(&page.base_url()), page_meta.base_href.as_deref());
    let sel = select(&dom, &page_meta, true);
    let mut view = HtmlView::default();
    for id in dom.descendants(agent_markdown::dom::DOCUMENT) {
        if matches!(dom.tag(id), Some(Tag::Script | Tag::Style)) {
            let code = dom.children(id).map(|c| dom.text_of(c)).collect::<String>();
            for line in code.lines().map(str::trim) {
                if line.len() >= 16 && line.contains(['{', '}', ';', '=', '(']) {
                    view.script_lines.push(line.to_string());
                }
            }
        }
    }
    for &root in &sel.roots {
        walk(&dom, &sel, &urls, root, &mut view);
    }
    view
}

/// Iterative walk of one selected root, skipping what is never rendered.
fn walk(dom: &Dom, sel: &Selection, urls: &Resolver, root: NodeId, view: &mut HtmlView) {
    // (node, depth of flattening ancestors, inside <pre>, innermost table is a data table)
    let mut stack = vec![(root, 0u32, false, false)];
    while let Some((id, flat, in_pre, data_table)) = stack.pop() {
        let node = dom.node(id);
        let tag = match node.kind {
            Kind::Text { .. } => {
                for w in words(dom.text_of(id)) {
                    *view.words.entry(w).or_default() += 1;
                }
                continue;
            }
            Kind::Element { tag, .. } => tag,
            _ => continue,
        };
        if sel.is_dropped(id)
            || never_rendered(tag)
            || is_hidden(dom, id)
            || agent_markdown::render::line_number_gutter(dom, id, tag)
        {
            continue;
        }
        match tag {
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6
                if flat == 0 && !in_pre && !holds_blocks(dom, id) =>
            {
                let t = normalize(&visible_text(dom, id));
                if !t.is_empty() {
                    view.headings.push(t);
                }
            }
            Tag::A if !in_pre => {
                let permalink = is_permalink(dom, id);
                if let Some(dest) = dom.attr(id, agent_markdown::dom::Attr::Href) {
                    if let Some(dest) = urls.link(dest).map(|d| markdown_destination(&d)) {
                        let nested = flat > 0 && has_ancestor(dom, id, root, Tag::A);
                        if !permalink && !nested && !self_link(dom, id) {
                            view.links.push(dest);
                        }
                    }
                }
            }
            Tag::Pre if flat == 0 && !in_pre => {
                let t = visible_text(dom, id);
                let t = t.trim_end_matches(['\n', ' ', '\t', '\r']);
                if !t.trim().is_empty() {
                    view.code_blocks.push(t.replace("\r\n", "\n"));
                }
            }
            Tag::Td | Tag::Th if flat == 0 && data_table => {
                let t = normalize(&visible_text(dom, id));
                if !t.is_empty() {
                    view.cells.push(t);
                }
            }
            _ => {}
        }
        let data_table = match tag {
            Tag::Table => !agent_markdown::render::is_layout_table(dom, id),
            _ => data_table,
        };
        let cell = matches!(tag, Tag::Td | Tag::Th | Tag::Caption) && data_table;
        let flat = flat + u32::from(flattens(tag) || cell);
        let in_pre = in_pre || tag == Tag::Pre;
        let kids: Vec<NodeId> = dom.children(id).collect();
        for &k in kids.iter().rev() {
            stack.push((k, flat, in_pre, data_table));
        }
    }
}

/// A heading element holding blocks (an unclosed `<h1>`) renders as a shorter heading.
fn holds_blocks(dom: &Dom, id: NodeId) -> bool {
    dom.descendants(id).any(|n| {
        matches!(
            dom.tag(n),
            Some(Tag::P | Tag::Div | Tag::Ul | Tag::Ol | Tag::Table | Tag::Pre | Tag::Blockquote)
        )
    })
}

fn has_ancestor(dom: &Dom, id: NodeId, stop: NodeId, tag: Tag) -> bool {
    let mut up = dom.node(id).parent;
    while up != agent_markdown::dom::NONE && up != stop {
        if dom.tag(up) == Some(tag) {
            return true;
        }
        up = dom.node(up).parent;
    }
    false
}

/// `<a href="#x">` inside the element with id `x`: the renderer keeps only its text.
fn self_link(dom: &Dom, a: NodeId) -> bool {
    let Some(frag) = dom
        .attr(a, agent_markdown::dom::Attr::Href)
        .and_then(|h| h.trim().strip_prefix('#'))
    else {
        return false;
    };
    let mut node = a;
    for _ in 0..4 {
        if node == agent_markdown::dom::NONE {
            return false;
        }
        if !frag.is_empty()
            && (dom.attr(node, agent_markdown::dom::Attr::Id) == Some(frag)
                || dom.attr(node, agent_markdown::dom::Attr::Name) == Some(frag))
        {
            return true;
        }
        node = dom.node(node).parent;
    }
    false
}

/// Anchors next to headings ("¶", "#", "§") that the renderer drops.
fn is_permalink(dom: &Dom, id: NodeId) -> bool {
    let text = normalize(
        &dom.descendants(id)
            .map(|n| dom.text_of(n))
            .collect::<String>(),
    );
    let images = dom.descendants(id).any(|n| dom.tag(n) == Some(Tag::Img));
    matches!(text.as_str(), "¶" | "#" | "§" | "🔗") || (text.is_empty() && !images)
}

/// Text of an element's rendered descendants (`<br>` as a newline).
fn visible_text(dom: &Dom, root: NodeId) -> String {
    let mut out = String::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        match dom.node(id).kind {
            Kind::Text { .. } => out.extend(
                dom.text_of(id)
                    .chars()
                    .filter(|&c| !c.is_control() || matches!(c, '\t' | '\n' | '\r'))
                    .filter(|&c| !matches!(c, '\u{200b}' | '\u{feff}')),
            ),
            Kind::Element { tag, .. } => {
                if id != root
                    && (never_rendered(tag)
                        || is_hidden(dom, id)
                        || agent_markdown::render::line_number_gutter(dom, id, tag))
                {
                    continue;
                }
                if tag == Tag::Br {
                    out.push('\n');
                }
                // Block boundaries separate words (the renderer writes a space or a new line).
                if matches!(
                    tag,
                    Tag::Td | Tag::Th | Tag::Tr | Tag::Table | Tag::P | Tag::Div | Tag::Li
                ) {
                    out.push(' ');
                }
                if tag == Tag::A && id != root && is_permalink(dom, id) {
                    continue;
                }
                let kids: Vec<NodeId> = dom.children(id).collect();
                stack.extend(kids.into_iter().rev());
            }
            _ => {}
        }
    }
    out
}

/// The destination a CommonMark parser reads from what the resolver writes: `<…>` unwrapped,
/// backslash escapes removed.
fn markdown_destination(d: &str) -> String {
    let d = d
        .strip_prefix('<')
        .and_then(|d| d.strip_suffix('>'))
        .unwrap_or(d);
    let mut out = String::with_capacity(d.len());
    let mut chars = d.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek().is_some_and(char::is_ascii_punctuation) {
            continue;
        }
        out.push(c);
    }
    out
}

/// A formula is the same between MathJax's `\(`…`\)` on the page and `$`…`$` in the
/// Markdown.
fn without_formula_delimiters(s: &str) -> String {
    s.replace("\\(", "").replace("\\)", "").replace('$', "")
}

fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Words for recall: lower-cased runs of letters and digits.
fn words(s: &str) -> Vec<String> {
    // Invisible characters the renderer removes do not separate words.
    let s: String = s
        .chars()
        .filter(|&c| {
            !matches!(c, '\u{200b}' | '\u{feff}') && (!c.is_control() || c.is_whitespace())
        })
        .collect();
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Found / expected for one kind of item, with the first few misses.
#[derive(Default)]
struct Score {
    expected: usize,
    found: usize,
    misses: Vec<String>,
}

impl Score {
    fn check(&mut self, ok: bool, what: &str) {
        self.expected += 1;
        if ok {
            self.found += 1;
        } else if self.misses.len() < 5 {
            self.misses.push(what.chars().take(80).collect());
        }
    }

    fn recall(&self) -> f64 {
        if self.expected == 0 {
            1.0
        } else {
            self.found as f64 / self.expected as f64
        }
    }
}

#[test]
fn corpus_structure_survives_a_gfm_parser() {
    let kinds = ["headings", "links", "code blocks", "table cells", "words"];
    let mut totals: Vec<Score> = kinds.iter().map(|_| Score::default()).collect();
    let mut failures = Vec::new();
    for page in corpus_pages() {
        let md = read_markdown(&convert_page(&page).markdown);
        let html = read_html(&page);
        let mut scores: Vec<Score> = kinds.iter().map(|_| Score::default()).collect();
        let mut md_headings = md.headings.clone();
        for h in &html.headings {
            let at = md_headings.iter().position(|m| m == h);
            scores[0].check(at.is_some(), h);
            if let Some(at) = at {
                md_headings.swap_remove(at);
            }
        }
        for l in &html.links {
            scores[1].check(md.links.contains(l), l);
        }
        for c in &html.code_blocks {
            scores[2].check(md.code_blocks.iter().any(|m| m == c), c);
        }
        // List items in a cell are written `• a • b`; the page shows them as a list.
        let md_cells: HashSet<String> = md
            .cells
            .iter()
            .map(|c| without_formula_delimiters(&normalize(&c.replace('•', " "))))
            .collect();
        for c in &html.cells {
            scores[3].check(md_cells.contains(&without_formula_delimiters(c)), c);
        }
        for (w, n) in &html.words {
            let have = md.words.get(w).copied().unwrap_or(0);
            for i in 0..*n {
                scores[4].check(i < have, w);
            }
        }
        for line in &html.script_lines {
            if md.text.contains(line.as_str()) {
                failures.push(format!("{}: script/style text leaked: {line}", page.rel));
            }
        }
        for (i, s) in scores.iter().enumerate() {
            if s.recall() < 0.98 {
                failures.push(format!(
                    "{}: {} {}/{} ({:.1}%), e.g. {:?}",
                    page.rel,
                    kinds[i],
                    s.found,
                    s.expected,
                    s.recall() * 100.0,
                    s.misses
                ));
            }
            totals[i].expected += s.expected;
            totals[i].found += s.found;
        }
    }
    for (i, s) in totals.iter().enumerate() {
        println!(
            "{:12} {:>7}/{:<7} {:.2}%",
            kinds[i],
            s.found,
            s.expected,
            s.recall() * 100.0
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_pipe_in_a_link_or_image_in_a_table_cell_keeps_the_row_whole() {
    // GFM splits a row at every unescaped `|` before it reads links: a URL such as
    // `?family=Roboto|Lato` or a title with a pipe cut the cell, and what followed could
    // reach the reader as raw HTML (found by the engine_convert fuzzer).
    let html = "<table><tr><th>Font</th><th>Note</th></tr><tr>\
        <td><a href=\"https://fonts.example/css?family=Roboto|Lato\" title=\"Roboto | Lato\">fonts</a> \
        <img src=\"/i|j.png\" alt=\"a|b\" title=\"c|d\"></td><td>x</td></tr></table>";
    let md = agent_markdown::convert(html.as_bytes(), &agent_markdown::Options::default()).markdown;
    let mut cells = Vec::new();
    let mut cell = None::<String>;
    let mut links = Vec::new();
    for ev in Parser::new_ext(&md, Options::ENABLE_TABLES) {
        match ev {
            Event::Start(MdTag::TableCell) => cell = Some(String::new()),
            Event::End(TagEnd::TableCell) => cells.extend(cell.take()),
            Event::Text(t) => {
                if let Some(c) = cell.as_mut() {
                    c.push_str(&t);
                }
            }
            Event::Start(MdTag::Link {
                dest_url, title, ..
            })
            | Event::Start(MdTag::Image {
                dest_url, title, ..
            }) => {
                links.push((dest_url.to_string(), title.to_string()));
            }
            _ => {}
        }
    }
    assert_eq!(cells, ["Font", "Note", "fonts a|b", "x"], "{md}");
    assert_eq!(
        links,
        [
            (
                "https://fonts.example/css?family=Roboto|Lato".to_string(),
                "Roboto | Lato".to_string()
            ),
            ("/i|j.png".to_string(), "c|d".to_string()),
        ],
        "{md}"
    );
}
