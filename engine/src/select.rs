//! Main-content selection and pruning.
//!
//! 1. With `<main>` / `[role=main]` (or exactly one `<article>`) that element is the content.
//! 2. Otherwise a Readability-style score finds the densest text container (paragraph text and
//!    commas credit their ancestors; link-heavy and boilerplate-named containers are penalised)
//!    and keeps it with its similarly scored siblings — unless that would keep too little of the
//!    page, in which case the whole body is kept (recall beats precision).
//! 3. Inside the content, navigation, banners, footers, search, and containers named like
//!    boilerplate (share bars, related links, comments, cookie banners, ads) are dropped.
//!
//! Everything is computed with flat passes over a pre-order list of nodes: no recursion.
use std::ops::Range;
use std::sync::OnceLock;

use aho_corasick::AhoCorasick;

use crate::dom::{Attr, Dom, Kind, NodeId, Tag, DOCUMENT, NONE};
use crate::meta::PageMeta;

/// What to render: `roots` in document order, minus the `dropped` subtrees.
#[derive(Debug, Default)]
pub struct Selection {
    pub roots: Vec<NodeId>,
    /// A headline found outside any heading element (see `headline_block`): rendered as `#`.
    pub headline: Option<NodeId>,
    /// Main-content pruning was on: boilerplate around the content may have been left out.
    pub pruned: bool,
    dropped: Vec<bool>,
}

impl Selection {
    #[inline]
    pub fn is_dropped(&self, id: NodeId) -> bool {
        self.dropped.get(id as usize).copied().unwrap_or(false)
    }
}

/// Content hidden from readers: `hidden`, `aria-hidden="true"`, inline `display:none` /
/// `visibility:hidden`, a closed `<dialog>`. Decided once while parsing ([`Dom::is_hidden`]).
#[inline]
pub fn is_hidden(dom: &Dom, id: NodeId) -> bool {
    dom.is_hidden(id)
}

/// Whether `n` is an `<h1>` … `<h6>`.
fn is_heading(dom: &Dom, n: NodeId) -> bool {
    matches!(
        dom.tag(n),
        Some(Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6)
    )
}

/// Choose what to render from `dom`, whose metadata `page` holds (a page declaring itself an
/// article is cleaned inside its main content too: [`PageMeta::declares_article`]).
pub fn select(dom: &Dom, page: &PageMeta, prune: bool) -> Selection {
    let body = dom.find(DOCUMENT, Tag::Body).unwrap_or(DOCUMENT);
    let mut sel = Selection {
        roots: vec![body],
        headline: None,
        pruned: prune,
        dropped: vec![false; dom.nodes.len()],
    };
    // A hidden `<html>` or `<body>` shows a reader nothing.
    let html = dom.find(DOCUMENT, Tag::Html);
    if [Some(body), html]
        .into_iter()
        .flatten()
        .any(|n| n != DOCUMENT && is_hidden(dom, n))
    {
        sel.roots.clear();
        return sel;
    }
    if !prune {
        return sel;
    }
    let Walk {
        order,
        flags,
        main,
        named_main,
    } = walk(dom, body);

    // Explicit main content: the first one (the search stops there), else a lone article.
    if let Some(main) = main {
        sel.roots = vec![main];
        mark_boilerplate(dom, &order, &flags, &mut sel.dropped, &[main]);
        if let Some(article) = page
            .declares_article
            .then(|| story_article(dom, &order, &flags, main))
            .flatten()
        {
            drop_after_story(dom, main, article, &mut sel.dropped);
        }
        clean_declared_article(dom, page, &order, &mut sel);
        return sel;
    }
    let mut articles = order
        .iter()
        .copied()
        .filter(|&n| dom.tag(n) == Some(Tag::Article) && !flags.hidden(n));
    // Not an article that is one titled section of a page of them (Erlang writes each
    // function's entry as an `<article>`: a module with one function has one).
    let lone = match (articles.next(), articles.next()) {
        (Some(article), None) => sections_parent(
            dom,
            article,
            |n| dom.tag(n).is_some() && dom.holds_text(n, usize::MAX),
            |n| mostly_links(dom, n),
        )
        .is_none()
        .then_some(article)
        .filter(|&article| page.declares_article || !minor_article(dom, &order, &flags, article)),
        _ => None,
    };
    if let Some(article) = lone {
        let mut roots = vec![article];
        if let Some(header) = section_header(dom, article) {
            roots.insert(0, header);
        }
        roots.extend(bio_after(dom, article));
        if let Some(picture) = lead_picture(dom, &flags, article) {
            roots.insert(0, picture);
        }
        sel.roots = with_title(dom, &order, &flags, roots);
        sel.headline = promoted_headline(dom, &sel.roots);
        mark_boilerplate(dom, &order, &flags, &mut sel.dropped, &sel.roots);
        clean_declared_article(dom, page, &order, &mut sel);
        return sel;
    }

    mark_boilerplate(dom, &order, &flags, &mut sel.dropped, &[body]);
    let stats = Stats::compute(dom, &order, &sel.dropped);
    let body_text = stats.text(body);
    if let Some(mut roots) = score_candidates(dom, &order, &stats, &sel.dropped) {
        // A `section#main` around the scored content is the document: gi-docgen's class
        // pages hold the description and, in sections of their own, every member with its
        // summary, which scored apart. Not on a page that declares itself an article, where
        // a `div#main` also holds the site's teasers (Readability's pixnet and yahoo-4).
        if let Some(main) = named_main.filter(|&m| {
            !page.declares_article && roots.iter().all(|&r| dom.ancestors(r).any(|a| a == m))
        }) {
            roots = vec![main];
        }
        let kept: usize = roots.iter().map(|&r| stats.text(r)).sum();
        // Keep the scored content only when it is most of the page's remaining text or a
        // substantial article; otherwise the tag rules alone decide.
        if kept >= 500 || kept * 2 >= body_text {
            sel.roots = with_title(dom, &order, &flags, roots);
            sel.headline = promoted_headline(dom, &sel.roots);
            clean_content(dom, &order, &stats, page.declares_article, &mut sel);
        }
    }
    sel
}

/// Drops what follows a story's `<article>` inside its `<main>` (each following sibling of
/// the article and of its ancestors below `main`), except the author's bio: what a story
/// page puts after the story there is the site's (most read, teasers, reader comments,
/// feedback forms). What comes before it (headline, standfirst, lead picture, byline) is
/// the story's and stays. Nothing goes when the story itself went (named or marked as
/// boilerplate): the page then keeps the rest of its `<main>`.
fn drop_after_story(dom: &Dom, main: NodeId, article: NodeId, dropped: &mut [bool]) {
    let is_dropped = |n: NodeId| dropped.get(n as usize).copied().unwrap_or(false);
    if std::iter::once(article)
        .chain(dom.ancestors(article).take_while(|&a| a != main))
        .any(is_dropped)
    {
        return;
    }
    let bio = bio_after(dom, article);
    let mut n = article;
    while n != main && n != NONE {
        let mut next = dom.node(n).next;
        while next != NONE {
            if Some(next) != bio {
                if let Some(d) = dropped.get_mut(next as usize) {
                    *d = true;
                }
            }
            next = dom.node(next).next;
        }
        n = dom.node(n).parent;
    }
}

/// Share of a story page's `<main>` paragraph text, in tenths, its one `<article>` must
/// hold to be the story, the rest of `<main>` the site's.
const STORY_SHARE_TENTHS: usize = 9;

/// Bytes of text (white space aside) that make a paragraph a story's rather than a teaser's
/// standfirst.
const STORY_PARAGRAPH: usize = 120;

/// The one visible `<article>` in a story's `<main>` when it holds the story: nearly all
/// of `<main>`'s paragraph text. Folha de S.Paulo puts the story's `article#c-news` in
/// `<main>` beside "Mais lidas" and "Principais do dia" teaser blocks of headlines, which a
/// reader mode leaves out.
fn story_article(dom: &Dom, order: &[NodeId], flags: &Flags, main: NodeId) -> Option<NodeId> {
    let mut articles = dom
        .descendants(main)
        .filter(|&n| dom.tag(n) == Some(Tag::Article) && !flags.hidden(n));
    let (Some(article), None) = (articles.next(), articles.next()) else {
        return None;
    };
    let stats = Stats::compute(dom, order, &vec![false; dom.nodes.len()]);
    let story = |root: NodeId| -> usize {
        dom.descendants(root)
            .filter(|&n| dom.tag(n) == Some(Tag::P) && !flags.hidden(n))
            .map(|p| stats.text(p))
            .filter(|&len| len >= STORY_PARAGRAPH)
            .sum()
    };
    let inside = story(article);
    (inside >= STORY_TEXT && inside * 10 >= story(main) * STORY_SHARE_TENTHS).then_some(article)
}

/// An article holding under a quarter of the page's visible text is one entry of the page,
/// not its body: Erlang's `erl` manual writes its one function, `erl <arguments>`, as an
/// `<article>`, beside 96 KB of flag sections. Asked only of pages that do not declare
/// themselves articles: a story's lone `<article>` beside comments and teasers is its body,
/// lead picture and standfirst included, which the scorer would leave out.
fn minor_article(dom: &Dom, order: &[NodeId], flags: &Flags, article: NodeId) -> bool {
    let text = |n: NodeId| {
        if dom.tag(n).is_some() || flags.hidden(n) {
            0
        } else {
            dom.text_of(n).trim().len()
        }
    };
    let page: usize = order.iter().map(|&n| text(n)).sum();
    let own: usize = dom.descendants(article).map(text).sum();
    own * 4 < page
}

/// Inside an explicit main or lone article, only what is named or marked as boilerplate goes:
/// documentation keeps its link-dense blocks there (rustdoc's signatures, JSDoc's source
/// lines, Javadoc's inheritance lines). A page that declares itself an article is cleaned
/// as the scored path cleans, the way reader modes do: teaser lists, partner offers and
/// forms inside the story's `<main>` (CNN Money, MSN, BBC) go. No API generator we know
/// declares `og:type` article ([`PageMeta::declares_article`]).
fn clean_declared_article(dom: &Dom, page: &PageMeta, order: &[NodeId], sel: &mut Selection) {
    if page.declares_article {
        let stats = Stats::compute(dom, order, &sel.dropped);
        clean_content(dom, order, &stats, true, sel);
    }
}

/// Per-node facts inherited from ancestors, one bit each in the low half of a byte per node.
struct Flags(Vec<u8>);

impl Flags {
    /// The node or an ancestor is hidden.
    const HIDDEN: u8 = 1;
    /// An ancestor is an article, main or section.
    const SEMANTIC: u8 = 2;
    /// The node is inside `<pre>` or `<code>`: highlighter spans there (`class="comment"`,
    /// `class="nav"`) are code, never boilerplate.
    const CODE: u8 = 4;

    /// The high half of a node's byte holds the bits it passes on to its children.
    const PASS: u8 = 4;

    /// What an element with `tag` adds to the bits its children inherit.
    fn passed_on(tag: Option<Tag>) -> u8 {
        match tag {
            Some(Tag::Article | Tag::Main | Tag::Section) => Self::SEMANTIC,
            Some(Tag::Pre | Tag::Code | Tag::Listing | Tag::Xmp | Tag::Samp) => Self::CODE,
            _ => 0,
        }
    }

    #[inline]
    fn has(&self, id: NodeId, bit: u8) -> bool {
        self.0.get(id as usize).is_some_and(|f| f & bit != 0)
    }

    fn hidden(&self, id: NodeId) -> bool {
        self.has(id, Self::HIDDEN)
    }

    fn in_semantic(&self, id: NodeId) -> bool {
        self.has(id, Self::SEMANTIC)
    }

    fn in_code(&self, id: NodeId) -> bool {
        self.has(id, Self::CODE)
    }
}

/// What [`walk`] finds.
struct Walk {
    /// The nodes below (and including) `body` in document order.
    order: Vec<NodeId>,
    flags: Flags,
    /// The first visible `<main>` / `[role=main]`.
    main: Option<NodeId>,
    /// The first visible `div#main` / `section#main`: not declared main content, but where
    /// the scored content lies inside it, the whole of it is the document (gi-docgen).
    named_main: Option<NodeId>,
}

/// One pre-order pass below (and including) `body`. The walk follows the same links as
/// [`Dom::descendants`], which it replaces so that each node is read once.
fn walk(dom: &Dom, body: NodeId) -> Walk {
    let mut order = Vec::with_capacity(dom.nodes.len());
    let mut flags = vec![0u8; dom.nodes.len()];
    let mut main = None;
    let mut named_main = None;
    let mut id = body;
    loop {
        let node = dom.node(id);
        // What the node inherits: the bits its parent passes on (stored when the parent was
        // visited; the parent of `body` is outside the walk and is asked here).
        let p = node.parent;
        let mut f = if p == NONE {
            0
        } else if id == body {
            Flags::passed_on(dom.tag(p))
        } else {
            flags.get(p as usize).map_or(0, |pf| pf >> Flags::PASS)
        };
        let mut pass = f;
        if let Kind::Element { tag, hidden, .. } = node.kind {
            if hidden {
                f |= Flags::HIDDEN;
            }
            pass = f | Flags::passed_on(Some(tag));
            if main.is_none()
                && f & Flags::HIDDEN == 0
                && (tag == Tag::Main
                    || dom
                        .attr(id, Attr::Role)
                        .is_some_and(|r| r.trim().eq_ignore_ascii_case("main")))
            {
                main = Some(id);
            }
            if named_main.is_none()
                && f & Flags::HIDDEN == 0
                && matches!(tag, Tag::Div | Tag::Section)
                && dom.attr(id, Attr::Id) == Some("main")
            {
                named_main = Some(id);
            }
        }
        let f = f | pass << Flags::PASS;
        if let Some(slot) = flags.get_mut(id as usize) {
            *slot = f;
        }
        order.push(id);
        // Next in pre-order: the first child, else the next sibling of the nearest
        // ancestor (up to `body`) that has one.
        if node.first_child != NONE {
            id = node.first_child;
            continue;
        }
        loop {
            if id == body {
                return Walk {
                    order,
                    flags: Flags(flags),
                    main,
                    named_main,
                };
            }
            let n = dom.node(id);
            if n.next != NONE {
                id = n.next;
                break;
            }
            id = n.parent;
            if id == NONE {
                return Walk {
                    order,
                    flags: Flags(flags),
                    main,
                    named_main,
                };
            }
        }
    }
}

/// Marks every ancestor of `roots` (each walk stops at an already-marked node, so the cost is
/// linear in the tree height, not quadratic).
fn ancestors_of(dom: &Dom, roots: &[NodeId]) -> Vec<bool> {
    let mut marks = vec![false; dom.nodes.len()];
    for &r in roots {
        let mut p = dom.node(r).parent;
        while p != NONE && !marks[p as usize] {
            marks[p as usize] = true;
            p = dom.node(p).parent;
        }
    }
    marks
}

/// Prepend the page's `<h1>` when the chosen content lacks it (news pages often put the
/// headline in a header block above the story body).
fn with_title(dom: &Dom, order: &[NodeId], flags: &Flags, roots: Vec<NodeId>) -> Vec<NodeId> {
    // The headline block (with its subtitle) first, then the content.
    let headed_by = |headline: NodeId, roots: Vec<NodeId>| {
        std::iter::once(with_subtitle(dom, headline))
            .chain(roots)
            .collect::<Vec<_>>()
    };
    // An `<h1>` in the content heads it, unless it is a section's heading under a title
    // block left outside (the Doxygen manual: `div.title` "Documenting the code" above
    // `<h1>Special comment blocks</h1>`).
    if let Some(h1) = roots.iter().find_map(|&r| dom.find(r, Tag::H1)) {
        let titled = page_title(dom).is_none_or(|t| headline_text(dom, h1, &t));
        let Some(&first) = roots.first() else {
            return roots;
        };
        return match headline_block(dom, order, flags, first) {
            // Not when the `<h1>` says it again (with a permalink sign after it: Sphinx).
            Some(headline) if !titled && !repeats(dom, h1, headline) => headed_by(headline, roots),
            _ => roots,
        };
    }
    let h1s: Vec<NodeId> = order
        .iter()
        .copied()
        .filter(|&n| dom.tag(n) == Some(Tag::H1) && !flags.hidden(n))
        .take(2)
        .collect();
    match (h1s.as_slice(), roots.first()) {
        ([h1], Some(&first)) if *h1 < first || precedes(order, *h1, first) => {
            // The whole title block when the headline has one beside the content.
            let parent = dom.node(*h1).parent;
            let beside = !std::iter::successors(Some(first), |&n| {
                Some(dom.node(n).parent).filter(|&p| p != NONE)
            })
            .any(|n| n == parent);
            let title = if parent != NONE && beside && title_block(dom, parent) {
                parent
            } else {
                *h1
            };
            let mut v = vec![title];
            v.extend(roots);
            v
        }
        ([], Some(&first)) => match headline_block(dom, order, flags, first) {
            Some(headline) => headed_by(headline, roots),
            None => roots,
        },
        _ => roots,
    }
}

/// Elements [`section_header`] reads: a section's children, then the header's subtree.
const SECTION_HEADER_NODES: usize = 64;
/// Text a section's header may hold: a heading and its summary (JSDoc's class description,
/// a paragraph), not a page's masthead.
const SECTION_HEADER_TEXT: usize = 1000;
/// A heading's few words: all a header over an article with its own `<h1>` may hold.
const SECTION_HEADING_TEXT: usize = 200;

/// The `<header>` of the `<section>` a lone article is the body of, when that section
/// holds just the two: the header is the article's own heading (JSDoc writes each class
/// page as `<section><header><h2>Command(name)</h2></header><article>…`; HTML makes a
/// header inside a section that section's). Only one with a lower heading than `<h1>` and
/// a short text: the page's headline is [`with_title`]'s.
fn section_header(dom: &Dom, article: NodeId) -> Option<NodeId> {
    let section = dom.node(article).parent;
    if section == NONE || dom.tag(section) != Some(Tag::Section) {
        return None;
    }
    let (mut header, mut seen_article) = (None, false);
    for child in dom.children(section).take(SECTION_HEADER_NODES) {
        match dom.node(child).kind {
            Kind::Element { .. } if child == article => seen_article = true,
            Kind::Element {
                tag: Tag::Header, ..
            } if header.is_none() && !seen_article => {
                header = Some(child);
            }
            Kind::Element { .. } => return None,
            Kind::Text { .. } if !dom.text_of(child).trim().is_empty() => return None,
            _ => {}
        }
    }
    let header = header?;
    let (mut heading, mut text) = (false, 0usize);
    for (seen, n) in dom.descendants(header).enumerate() {
        // More than a heading's few nodes: a masthead.
        if seen >= SECTION_HEADER_NODES {
            return None;
        }
        match dom.tag(n) {
            Some(Tag::H1) => return None,
            Some(Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6) => heading = true,
            _ => text += dom.text_of(n).trim().len(),
        }
    }
    // More than a heading's few words only over an untitled article: a masthead's blurb
    // sits over an article with a title of its own.
    let limit = if text > SECTION_HEADING_TEXT && dom.find(article, Tag::H1).is_some() {
        SECTION_HEADING_TEXT
    } else {
        SECTION_HEADER_TEXT
    };
    (heading && text <= limit && !mostly_links(dom, header)).then_some(header)
}

/// Pages without any `<h1>` (table- or div-soup news sites) still show their headline: the
/// first short block before the content whose text the `<title>` starts with.
fn headline_block(dom: &Dom, order: &[NodeId], flags: &Flags, first: NodeId) -> Option<NodeId> {
    let title = page_title(dom)?;
    let first_pos = order.iter().position(|&n| n == first)?;
    // A node before `first` in document order contains it exactly when it is its ancestor.
    let mut ancestors_of_first = Vec::new();
    let mut up = dom.node(first).parent;
    while up != NONE {
        ancestors_of_first.push(up);
        up = dom.node(up).parent;
    }
    order[..first_pos].iter().copied().find(|&n| {
        if flags.hidden(n)
            || !matches!(
                dom.tag(n),
                Some(Tag::Div | Tag::P | Tag::H2 | Tag::H3 | Tag::Span | Tag::B | Tag::Strong)
            )
            || ancestors_of_first.contains(&n)
        {
            return false;
        }
        headline_text(dom, n, &title)
    })
}

/// Whether the text of `a` starts with that of `b` (both at most a title block's length),
/// white space collapsed.
fn repeats(dom: &Dom, a: NodeId, b: NodeId) -> bool {
    match (title_block_text(dom, a), title_block_text(dom, b)) {
        (Some(a), Some(b)) => a.starts_with(&b),
        _ => false,
    }
}

/// A headline heading's parent when it holds just the heading and a short line of plain
/// text after it (gtk-doc's `<td><h2>Running GLib Applications</h2><p>Running GLib
/// Applications — How to run and debug your GLib application</p></td>`): the line says
/// what the page is about.
fn with_subtitle(dom: &Dom, headline: NodeId) -> NodeId {
    let parent = dom.node(headline).parent;
    if parent == NONE
        || !matches!(
            dom.tag(headline),
            Some(Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6)
        )
    {
        return headline;
    }
    let mut paragraphs = 0;
    for c in dom.children(parent) {
        match dom.tag(c) {
            None if dom.text_of(c).trim().is_empty() => {}
            _ if c == headline => {}
            Some(Tag::P) if paragraphs == 0 && dom.find(c, Tag::A).is_none() => paragraphs += 1,
            _ => return headline,
        }
    }
    let short = text_unless(dom, parent, |t| t.len() > TITLE_BLOCK_TEXT).is_some();
    if paragraphs == 1 && short {
        parent
    } else {
        headline
    }
}

/// The first root, when `with_title` added a headline block that is not a heading.
fn promoted_headline(dom: &Dom, roots: &[NodeId]) -> Option<NodeId> {
    let first = *roots.first()?;
    let heading = is_heading(dom, first);
    let block = matches!(
        dom.tag(first),
        Some(Tag::Div | Tag::P | Tag::Span | Tag::B | Tag::Strong)
    );
    let title = page_title(dom)?;
    (roots.len() > 1 && !heading && block && headline_text(dom, first, &title)).then_some(first)
}

fn page_title(dom: &Dom) -> Option<String> {
    let title = dom.find(DOCUMENT, Tag::Title)?;
    let title: String = dom.descendants(title).map(|n| dom.text_of(n)).collect();
    Some(title.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Text of `id`'s subtree, or `None` as soon as `too_long` says it is (these checks run for
/// every wrapper element, whose subtree may be the whole page: stop reading early).
fn text_unless(dom: &Dom, id: NodeId, too_long: impl Fn(&str) -> bool) -> Option<String> {
    let mut text = String::new();
    for n in dom.descendants(id) {
        text.push_str(dom.text_of(n));
        if too_long(&text) {
            return None;
        }
    }
    Some(text)
}

/// A short text the page title starts with (or ends with, after `Project: `).
fn headline_text(dom: &Dom, n: NodeId, title: &str) -> bool {
    // More than 300 non-space bytes can never normalise to 300 bytes or fewer.
    let Some(text) = text_unless(dom, n, |t| {
        t.bytes().filter(|b| !b.is_ascii_whitespace()).count() > 300
    }) else {
        return false;
    };
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // Or that ends it after a project name and a colon (Doxygen: "SDL: SDL_hints.h File
    // Reference" over `div.title`); a site name after `|` or `-` is never taken this way.
    let after_project = title
        .strip_suffix(text.as_str())
        .is_some_and(|head| head.ends_with(": ") && head.len() > 2);
    text.chars().count() >= 15 && text.len() <= 300 && (title.starts_with(&text) || after_project)
}

fn precedes(order: &[NodeId], a: NodeId, b: NodeId) -> bool {
    let pa = order.iter().position(|&n| n == a);
    let pb = order.iter().position(|&n| n == b);
    matches!((pa, pb), (Some(x), Some(y)) if x < y)
}

/// Boilerplate class/id words matched as substrings (distinctive enough).
const NEGATIVE_SUBSTR: &[&str] = &[
    "sidebar",
    "comment",
    "disqus",
    "newsletter",
    "subscribe",
    "cookie",
    "consent",
    "breadcrumb",
    "pagination",
    "advert",
    "sponsor",
    "outbrain",
    "taboola",
    "social",
    "share",
    "sharing",
    "related",
    "promo",
    "popup",
    "navbar",
    "toolbar",
    "masthead",
    "footer",
    "menu",
    "trending",
    "recirc",
    "signup",
    "paywall",
    "banner",
    "skiplink",
    // Article furniture a reader-mode view leaves out (the front matter keeps the author).
    "byline",
    "dateline",
    "standfirst",
    "skip-link",
    "toctree-wrapper",
    // Links to the previous and next pages (pydata-sphinx-theme's `div.prev-next-area`).
    "prev-next",
    // "Was this page helpful?" and its buttons (Microsoft Learn's `section.feedback-section`,
    // DevSite's `div.devsite-thumb-rating`).
    "feedback",
    "thumb-rating",
    // TypeDoc's member index: the page's table of contents, each member named again below.
    "tsd-index",
    // Scribble (Racket's manuals): the contents sidebar (`div.tocset`) and the top/bottom
    // bars (`div.navsettop`: search, "top", "← prev", "up", "next →"), which a page too
    // short to score kept.
    "tocset",
    "navset",
];
/// Short boilerplate words matched only as whole tokens.
const NEGATIVE_TOKENS: &[&str] = &[
    "ad", "ads", "adv", "nav", "skip", "gdpr", "tags", "widget", "modal", "rss", "toc", "dek",
];

/// Whether the table holding cell `td` is a layout table (cached per table: 1 layout,
/// 2 data).
fn in_layout_table(dom: &Dom, td: NodeId, cache: &mut [u8]) -> bool {
    let mut up = dom.node(td).parent;
    for _ in 0..4 {
        if up == NONE {
            return false;
        }
        if dom.tag(up) == Some(Tag::Table) {
            let slot = match cache.get_mut(up as usize) {
                Some(slot) => slot,
                None => return false,
            };
            if *slot == 0 {
                *slot = if crate::render::is_layout_table(dom, up) {
                    1
                } else {
                    2
                };
            }
            return *slot == 1;
        }
        up = dom.node(up).parent;
    }
    false
}

/// The trimmed, lower-cased text under `id` written into `buf`, or None when it takes more
/// than `buf.len()` bytes. Nothing is allocated, and a long paragraph is rejected on its
/// length. Lower-cases char by char: unlike `str::to_lowercase` a word-final `Σ` becomes
/// `σ`, the same length as `ς`, and callers compare with ASCII only.
fn short_lowercase<'b>(dom: &Dom, id: NodeId, buf: &'b mut [u8]) -> Option<&'b str> {
    // `len` counts bytes written, `kept` those up to the last non-white-space character:
    // trailing white space is trimmed, and white space that no longer fits only matters
    // if more text follows it.
    let (mut len, mut kept, mut spilled) = (0, 0, false);
    for n in dom.descendants(id) {
        let mut text = dom.text_of(n);
        if kept == 0 {
            text = text.trim_start();
        }
        let body = text.trim_end();
        if !body.is_empty() {
            let room = buf.len() - len;
            // Lower-casing never makes fewer characters, and each takes at least a byte.
            if spilled || (body.len() > room && body.chars().nth(room).is_some()) {
                return None;
            }
            if body.is_ascii() {
                let slot = buf.get_mut(len..len + body.len())?;
                slot.copy_from_slice(body.as_bytes());
                slot.make_ascii_lowercase();
                len += body.len();
            } else {
                for l in body.chars().flat_map(char::to_lowercase) {
                    let end = len + l.len_utf8();
                    l.encode_utf8(buf.get_mut(len..end)?);
                    len = end;
                }
            }
            kept = len;
        }
        let space = text.get(body.len()..).unwrap_or("");
        if !space.is_empty() && !spilled {
            match buf.get_mut(len..len + space.len()) {
                Some(slot) => {
                    slot.copy_from_slice(space.as_bytes());
                    len += space.len();
                }
                None => spilled = true,
            }
        }
    }
    std::str::from_utf8(buf.get(..kept)?).ok()
}

/// A block that opens with a comment-section heading ("Comments (6)", "Leave a reply") or a
/// related-stories label ("RELATED STORIES", "Most read"): reader comments and links to
/// other stories are not the article, whatever the site calls its classes.
fn comment_thread(dom: &Dom, id: NodeId) -> bool {
    let Some(first) = dom.first_content_child(id) else {
        return false;
    };
    if dom.tag(first).is_none() || !opens_like_a_label(dom, first) {
        return false;
    }
    let mut buf = [0u8; 40];
    let Some(text) = short_lowercase(dom, first, &mut buf) else {
        return false;
    };
    let rest = text.trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ');
    // Not a heading that joins the word to another topic (Sphinx's "Comments & Proposals",
    // a section of its web support guide).
    let comments = COMMENT_OPENINGS.iter().any(|p| {
        rest.strip_prefix(p)
            .is_some_and(|after| !after.starts_with(" & ") && !after.starts_with(" and "))
    });
    // Related-story labels must be the whole label (a paragraph may well open with
    // "More from the study:"), give or take a colon or a count.
    let label = rest
        .trim_end_matches(|c: char| c.is_ascii_digit() || matches!(c, ' ' | ':' | '(' | ')' | '»'))
        .trim();
    if comments {
        // A section of documentation about comments or responses (Sphinx's reST primer,
        // "Comments"; git fast-import's "Responses to commands") shows code or links its
        // heading to itself; a reader's thread does neither.
        return !permalinked(dom, first) && !holds_listing(dom, id);
    }
    RELATED_LABELS.contains(&label)
}

/// Nodes [`holds_listing`] reads before answering no.
const LISTING_SCAN: usize = 4000;

/// Whether a `<pre>` lies within the first [`LISTING_SCAN`] nodes of `id`.
fn holds_listing(dom: &Dom, id: NodeId) -> bool {
    dom.descendants(id)
        .take(LISTING_SCAN)
        .any(|d| dom.tag(d) == Some(Tag::Pre))
}

/// How a comment section's heading opens.
const COMMENT_OPENINGS: &[&str] = &[
    "comments",
    "comment (",
    "reader comments",
    "responses",
    "leave a comment",
    "leave a reply",
    "join the discussion",
];
/// Labels of related-story blocks.
const RELATED_LABELS: &[&str] = &[
    "related stories",
    "related articles",
    "related news",
    "related coverage",
    "more stories",
    "more news",
    "most read",
    "most popular",
    "you may also like",
    "you might also like",
    "read next",
];

/// Whether the text under `id` could start one of [`COMMENT_OPENINGS`] or [`RELATED_LABELS`]:
/// its first character past white space and digits is one of [`LABEL_INITIALS`], in either
/// case (no other character lower-cases to one of them). Most blocks fail here, on their
/// first text node, before their text is lower-cased and compared.
fn opens_like_a_label(dom: &Dom, id: NodeId) -> bool {
    dom.descendants(id)
        .find_map(|n| {
            dom.text_of(n)
                .chars()
                .find(|c| !c.is_whitespace() && !c.is_ascii_digit())
        })
        .is_some_and(|c| LABEL_INITIALS.contains(&c.to_ascii_lowercase()))
}

/// The first letters of [`COMMENT_OPENINGS`] and [`RELATED_LABELS`].
const LABEL_INITIALS: &[char] = &['c', 'j', 'l', 'm', 'r', 'y'];

/// Labels that mark the block they sit in as an advertisement slot.
const AD_LABELS: &[&str] = &[
    "advertisement",
    "advertising",
    "sponsored",
    "anzeige",
    "publicité",
];

/// A link whose only content is the site's logo, leading to the site's or the project's
/// front page: rustdoc's `a.sub-logo-container` (`<img alt="logo">` linking the crate's
/// `index.html`) inside every page's `<main>`, a news site's masthead logo linking `/`.
/// Named a logo by the picture's `alt` or `class` or the link's `class`; a page ending in
/// `/` or `index.html` is a front page. A logo linking anywhere else (a project's
/// repository, a larger picture) is kept.
fn home_logo(dom: &Dom, a: NodeId) -> bool {
    let Some(href) = dom.attr(a, Attr::Href) else {
        return false;
    };
    let mut img = None;
    for c in dom.children(a) {
        match dom.tag(c) {
            Some(Tag::Img) if img.is_none() => img = Some(c),
            None if dom.text_of(c).trim().is_empty() => {}
            _ => return false,
        }
    }
    let Some(img) = img else { return false };
    let logo = |v: Option<&str>| v.is_some_and(|v| v.to_ascii_lowercase().contains("logo"));
    let path = href.trim().split(['?', '#']).next().unwrap_or_default();
    (logo(dom.attr(img, Attr::Alt))
        || logo(dom.attr(img, Attr::Class))
        || logo(dom.attr(a, Attr::Class)))
        && (path.ends_with('/') || path.ends_with("index.html") || path.ends_with("index.htm"))
}

/// An element whose only content is an ad label ("Advertisement").
fn is_ad_label(dom: &Dom, id: NodeId) -> bool {
    let mut kids = dom.children(id);
    match (kids.next(), kids.next()) {
        (Some(only), None) => {
            let t = dom.text_of(only).trim();
            t.len() <= 16 && AD_LABELS.iter().any(|l| t.eq_ignore_ascii_case(l))
        }
        _ => false,
    }
}
const POSITIVE_SUBSTR: &[&str] = &[
    "article", "content", "entry", "story", "post", "main", "body", "text", "blog",
];

/// The element's class and id values (patterns never span the two: none has a space).
fn class_words(dom: &Dom, id: NodeId) -> impl Iterator<Item = &str> {
    [Attr::Class, Attr::Id]
        .into_iter()
        .filter_map(move |a| dom.attr(id, a))
}

/// Whether an element is named like boilerplate, for removal. Classes are styling hooks and
/// match by substring; ids are often derived from headings or API names (`shared-memory`,
/// `method.set_comment`, `related-functions`), so an id only counts when it is, or starts
/// with, an unambiguous boilerplate word.
fn boilerplate_named<'a>(dom: &'a Dom, id: NodeId, verdicts: &mut Verdicts<'a>) -> bool {
    if let Some(class) = dom.attr(id, Attr::Class) {
        if hidden_class(class) {
            return true;
        }
        // A docutils admonition is named after its title (`admonition
        // admonition-you-can-t-share-pickles-between-versions`): its words are the text's,
        // not the page's furniture.
        let admonition = class
            .split_ascii_whitespace()
            .any(|w| w.eq_ignore_ascii_case("admonition"));
        if !admonition
            && verdicts.is_negative(class)
            && !documented_tags(dom, id, class)
            && !captioned_image(dom, id)
        {
            return true;
        }
    }
    let Some(name) = dom.attr(id, Attr::Id) else {
        return false;
    };
    let listed = |list: &[&str], w: &str| list.iter().any(|l| l.eq_ignore_ascii_case(w));
    // Ids are often long (headings, API names): no longer one can be listed, and its first
    // part is only looked for among the bytes a listed prefix could take.
    let named = (name.len() <= LONGEST_ID && listed(BOILERPLATE_IDS, name))
        || name
            .bytes()
            .take(LONGEST_ID + 1)
            .position(|b| b == b'-' || b == b'_')
            .and_then(|cut| name.get(..cut))
            .is_some_and(|first| listed(ID_PREFIXES, first));
    named && !named_after_heading(dom, id, name)
}

/// A class list holding the utility class `hidden` (Bootstrap 3, Tailwind: `display:none`),
/// with no responsive variant that shows it again (Tailwind's `hidden md:block`).
fn hidden_class(class: &str) -> bool {
    let mut hidden = false;
    for w in class.split_ascii_whitespace() {
        if w.contains(':') {
            return false;
        }
        hidden |= w == "hidden";
    }
    hidden
}

/// Nodes [`captioned_image`] reads: an image and its caption are a few.
const CAPTIONED_IMAGE_NODES: usize = 24;
/// Words a caption beside its image may hold.
const CAPTION_WORDS: usize = 60;

/// A block that is one image and its caption, nothing else: no link, no form, a caption of a
/// few words (a named anchor, `<a name>`, may mark it). Article editors wrap each picture in
/// a widget (Drupal's `dnd-widget-wrapper` around an image and its `dnd-caption-wrapper`):
/// the picture is the article's, whatever the wrapper is named. An advertisement or a
/// promotion links somewhere, so it does not pass.
fn captioned_image(dom: &Dom, id: NodeId) -> bool {
    let (mut images, mut words) = (0usize, 0usize);
    for (seen, n) in dom.descendants(id).enumerate() {
        if seen >= CAPTIONED_IMAGE_NODES {
            return false;
        }
        match dom.tag(n) {
            Some(Tag::Img) => images += 1,
            // A named anchor (`<a name>`, no href) marks a place; it leads nowhere.
            Some(Tag::A) if dom.attr(n, Attr::Href).is_none() => {}
            Some(
                Tag::A
                | Tag::Form
                | Tag::Button
                | Tag::Input
                | Tag::Iframe
                | Tag::Video
                | Tag::Ul
                | Tag::Ol
                | Tag::Table,
            ) => return false,
            Some(_) => {}
            None => {
                words += dom.text_of(n).split_whitespace().count();
                if words > CAPTION_WORDS {
                    return false;
                }
            }
        }
    }
    images == 1 && words > 0
}

/// Nodes [`documented_tags`] reads: a tag list is short.
const TAG_LIST_NODES: usize = 400;
/// Words outside links a tag list may hold (`Tags:`, `Filed under:`, separators).
const TAG_LIST_WORDS: usize = 8;

/// A block named `tags` for nothing else that holds documentation, not a list of tag links:
/// a code block, or more than a label's words outside links. YARD writes each method's
/// `@param`, `@return` and `@example` tags as `div.tags` ("Parameters:", a name, a type and
/// a description; "Examples:" over a `<pre>`); a news tag list is its links.
fn documented_tags(dom: &Dom, id: NodeId, class: &str) -> bool {
    let named_tags = class
        .as_bytes()
        .windows(4)
        .any(|w| w.eq_ignore_ascii_case(b"tags"));
    if !named_tags || is_negative(&blank_tags_token(class)) {
        return false;
    }
    let mut words = 0usize;
    for (seen, n) in dom.descendants(id).enumerate() {
        if seen >= TAG_LIST_NODES {
            // Longer than any tag list.
            return true;
        }
        if dom.tag(n) == Some(Tag::Pre) {
            return true;
        }
        let text = dom.text_of(n);
        if text.trim().is_empty() || inside_link(dom, n, id) {
            continue;
        }
        words += text.split_whitespace().count();
        if words > TAG_LIST_WORDS {
            return true;
        }
    }
    false
}

/// Whether `n` sits in a link (`<a href>`) below `root`.
fn inside_link(dom: &Dom, n: NodeId, root: NodeId) -> bool {
    let mut up = dom.node(n).parent;
    // Inline nesting is shallow; deeper than this is not a tag link's text.
    for _ in 0..16 {
        if up == NONE || up == root {
            return false;
        }
        if dom.tag(up) == Some(Tag::A) && dom.attr(up, Attr::Href).is_some() {
            return true;
        }
        up = dom.node(up).parent;
    }
    false
}

/// The class value with each whole `tags` token blanked out, the rest byte for byte: what
/// [`is_negative`] says of it is what the other words say.
fn blank_tags_token(class: &str) -> String {
    let mut out = String::with_capacity(class.len());
    let mut rest = class;
    while !rest.is_empty() {
        let end = rest
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        let (run, after) = rest.split_at(end);
        out.push_str(if run.eq_ignore_ascii_case("tags") {
            "    "
        } else {
            run
        });
        let sep = after
            .find(|c: char| c.is_ascii_alphanumeric())
            .unwrap_or(after.len());
        let (gap, next) = after.split_at(sep);
        out.push_str(gap);
        rest = next;
    }
    out
}

/// A section whose id is its heading's anchor: the element opens with a heading whose text,
/// as a slug (`Cookies` → `cookies`, `Share Memory` → `share-memory`), is the id. Sphinx,
/// MkDocs and most static-site generators name sections so; the id says what the section is
/// about (Flask's "Cookies" chapter), not that it is a cookie banner.
fn named_after_heading(dom: &Dom, id: NodeId, name: &str) -> bool {
    let Some(first) = dom.first_content_child(id) else {
        return false;
    };
    // Texinfo puts the node's navigation line (`div.header`: "Next: Tokens, Previous: …")
    // before the section's heading.
    let first = if !is_heading(dom, first) && dom.attr(first, Attr::Class) == Some("header") {
        match dom
            .children(id)
            .skip_while(|&c| c != first)
            .skip(1)
            .find(|&c| dom.tag(c).is_some() && dom.tag(c) != Some(Tag::Span))
        {
            Some(c) => c,
            None => return false,
        }
    } else {
        first
    };
    if !is_heading(dom, first) {
        return false;
    }
    // The slug, compared byte by byte with the id as it is built: letters and digits as
    // they are (ASCII case ignored), every other run one `-`, none at either end. A
    // section number before the words ("10.2 Comments", id `Comments`) is not in an id
    // that does not start with a digit.
    let skip_number = !name.starts_with(|c: char| c.is_ascii_digit());
    let mut want = name.bytes();
    let mut dash = false;
    for n in dom.descendants(first) {
        for c in dom.text_of(n).chars() {
            if skip_number && want.len() == name.len() && (c.is_ascii_digit() || c == '.') {
                continue;
            }
            if c.is_alphanumeric() {
                if dash {
                    if want.next() != Some(b'-') {
                        return false;
                    }
                    dash = false;
                }
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    if !want.next().is_some_and(|w| w.eq_ignore_ascii_case(&b)) {
                        return false;
                    }
                }
            } else if want.len() < name.len() {
                // Not before the first letter: the slug has no leading `-`.
                dash = true;
            }
        }
    }
    // A list of links under its heading (`<div id="related"><h2>Related</h2><ul>…`) is what
    // its name says, whatever the heading.
    want.len() == 0 && !mostly_links(dom, id)
}

/// Nodes [`mostly_links`] reads: what it has seen by then decides.
const MOSTLY_LINKS_NODES: usize = 2000;

/// Whether at least half the text under `id` (of its first [`MOSTLY_LINKS_NODES`] nodes) is
/// link text.
fn mostly_links(dom: &Dom, id: NodeId) -> bool {
    let (mut text, mut linked) = (0usize, 0usize);
    for n in dom.descendants(id).take(MOSTLY_LINKS_NODES) {
        let len = dom.text_of(n).trim().len();
        if len == 0 {
            continue;
        }
        text += len;
        let in_link = std::iter::successors(Some(dom.node(n).parent), |&x| {
            Some(dom.node(x).parent).filter(|&p| p != NONE && x != id)
        })
        .take_while(|&x| x != NONE)
        .any(|x| dom.tag(x) == Some(Tag::A) && dom.attr(x, Attr::Href).is_some());
        if in_link {
            linked += len;
        }
    }
    linked * 2 >= text && text > 0
}

/// The longest of [`BOILERPLATE_IDS`] and [`ID_PREFIXES`] (`breadcrumbs`).
const LONGEST_ID: usize = 11;

const BOILERPLATE_IDS: &[&str] = &[
    "comments",
    "comment",
    "respond",
    "sidebar",
    "related",
    "share",
    "sharing",
    "social",
    "footer",
    "header",
    "nav",
    "navbar",
    "menu",
    "breadcrumbs",
    "breadcrumb",
    "newsletter",
    "cookie",
    "cookies",
    "consent",
    "banner",
    "masthead",
    "toolbar",
    "ads",
    "ad",
    "promo",
    "trending",
    "subscribe",
    "paywall",
    "skip",
    "toc",
];
const ID_PREFIXES: &[&str] = &[
    "comments",
    "sidebar",
    "disqus",
    "cookie",
    "consent",
    "outbrain",
    "taboola",
    "newsletter",
    "ad",
    "ads",
    "share",
    "social",
    "footer",
    "breadcrumbs",
    "navbar",
];

/// One case-insensitive pass over a class value for all of `words` (the lists are matched
/// against every element of a page).
fn substr_matcher(
    cell: &'static OnceLock<Option<AhoCorasick>>,
    words: &[&str],
) -> Option<&'static AhoCorasick> {
    cell.get_or_init(|| {
        AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(words)
            .ok()
    })
    .as_ref()
}

fn contains_any(cell: &'static OnceLock<Option<AhoCorasick>>, words: &[&str], s: &str) -> bool {
    match substr_matcher(cell, words) {
        Some(ac) => ac.is_match(s),
        // Unreachable with these fixed lists; the plain scan gives the same answer.
        None => {
            let lower = s.to_ascii_lowercase();
            words.iter().any(|w| lower.contains(w))
        }
    }
}

static POSITIVE: OnceLock<Option<AhoCorasick>> = OnceLock::new();

/// [`NEGATIVE_SUBSTR`] then [`NEGATIVE_TOKENS`] in one automaton, so that a class value is
/// read once for both lists.
static NEGATIVE_ALL: OnceLock<Option<AhoCorasick>> = OnceLock::new();

/// Whether a class value holds a boilerplate word: one of [`NEGATIVE_SUBSTR`] anywhere, or
/// one of [`NEGATIVE_TOKENS`] as a whole run of ASCII letters and digits.
fn is_negative(words: &str) -> bool {
    if words.is_empty() {
        return false;
    }
    let matcher = NEGATIVE_ALL.get_or_init(|| {
        AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(NEGATIVE_SUBSTR.iter().chain(NEGATIVE_TOKENS))
            .ok()
    });
    // Overlapping matches: "ads" must still be seen where "ad" matched first and failed.
    let Some(Ok(mut matches)) = matcher
        .as_ref()
        .map(|ac| ac.try_find_overlapping_iter(words))
    else {
        // Unreachable: the automaton builds from these fixed lists with the default match
        // kind, which searches overlapping (a test holds both).
        return false;
    };
    let bytes = words.as_bytes();
    let alnum_at = |i: Option<usize>| {
        i.and_then(|i| bytes.get(i))
            .is_some_and(u8::is_ascii_alphanumeric)
    };
    matches.any(|m| {
        let substr = NEGATIVE_SUBSTR.get(m.pattern().as_usize());
        match substr {
            Some(&"comment") => !doc_comment(words, m.start()),
            Some(&"footer") => !component_footer(words, m.start()),
            Some(_) => true,
            None => !alnum_at(m.start().checked_sub(1)) && !alnum_at(Some(m.end())),
        }
    })
}

/// Whether the class word holding byte `at` of `words`, a `comment`, names documentation
/// rather than a reader comment section: a deprecation note (Javadoc's
/// `div.deprecation-comment`: why an API is deprecated and what replaces it) or a doc
/// comment, the text written above a declaration in its source (`doc-comment`,
/// `docComment`; TypeDoc's `tsd-comment`, every member's description and `@param` tags).
fn doc_comment(words: &str, at: usize) -> bool {
    let head = words.get(..at).unwrap_or("");
    let start = head
        .rfind(|c: char| c.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    let Some(prefix) = words.get(start..at) else {
        return false;
    };
    let prefix = prefix.trim_end_matches(['-', '_']);
    prefix
        .get(..9)
        .is_some_and(|p| p.eq_ignore_ascii_case("deprecati"))
        || ["doc", "tsd"]
            .iter()
            .any(|p| prefix.eq_ignore_ascii_case(p))
}

/// Whether the class word holding byte `at` of `words`, a `footer`, is the last part of a
/// box in the text (`sd-card-footer`, Bootstrap's `card-footer` and `panel-footer`): the
/// box's own words ("Updated for v3.0"), not the page's footer.
fn component_footer(words: &str, at: usize) -> bool {
    let head = words.get(..at).unwrap_or("");
    let start = head
        .rfind(|c: char| c.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    let prefix = words
        .get(start..at)
        .unwrap_or("")
        .trim_end_matches(['-', '_']);
    ["card", "panel", "tile", "callout", "admonition"]
        .iter()
        .any(|p| {
            prefix.len() >= p.len()
                && prefix
                    .get(prefix.len() - p.len()..)
                    .is_some_and(|end| end.eq_ignore_ascii_case(p))
        })
}

/// [`is_negative`] for the last few class values seen: siblings (list items, table rows,
/// cards) repeat theirs. Unused slots hold `("", false)`, which is right for `""`.
#[derive(Default)]
struct Verdicts<'a> {
    recent: [(&'a str, bool); RECENT_VERDICTS],
    next: usize,
}

/// How many class values [`Verdicts`] remembers (measured on docs pages: 4 and 16 both cost
/// more instructions than 8).
const RECENT_VERDICTS: usize = 8;

impl<'a> Verdicts<'a> {
    fn is_negative(&mut self, words: &'a str) -> bool {
        if let Some(&(_, v)) = self.recent.iter().find(|(w, _)| *w == words) {
            return v;
        }
        let v = is_negative(words);
        if let Some(slot) = self.recent.get_mut(self.next % RECENT_VERDICTS) {
            *slot = (words, v);
        }
        self.next = self.next.wrapping_add(1);
        v
    }
}

/// Readability-style class weight.
fn class_weight(dom: &Dom, id: NodeId) -> f32 {
    let mut w = 0.0;
    if class_words(dom, id).any(is_negative) {
        w -= 25.0;
    }
    if class_words(dom, id).any(|v| contains_any(&POSITIVE, POSITIVE_SUBSTR, v)) {
        w += 25.0;
    }
    w
}

/// Mark navigation, banners, footers, search and boilerplate-named containers below `roots`.
fn mark_boilerplate(
    dom: &Dom,
    order: &[NodeId],
    flags: &Flags,
    dropped: &mut [bool],
    roots: &[NodeId],
) {
    let fallback = roots.len() == 1 && dom.tag(roots[0]) == Some(Tag::Body);
    let holds_root = ancestors_of(dom, roots);
    let mut verdicts = Verdicts::default();
    // Containers named like boilerplate (position in `order`, node), judged once the rest
    // is known (see below).
    let mut named: Vec<(usize, NodeId)> = Vec::new();
    // Only what is rendered is judged: nodes outside the roots never reach the output.
    let spans = root_spans(dom, order, roots);
    let positions = spans.iter().flat_map(|s| s.clone());
    for (at, &n) in positions.filter_map(|k| Some((k, order.get(k)?))) {
        let Some(tag) = dom.tag(n) else { continue };
        if roots.contains(&n) {
            continue;
        }
        let parent = dom.node(n).parent;
        if parent != NONE && dropped.get(parent as usize).copied().unwrap_or(false) {
            if let Some(d) = dropped.get_mut(n as usize) {
                *d = true;
            }
            continue;
        }
        // Hidden content is never content, whatever pruning decides (and must not win the
        // scoring below: it is a prompt-injection route).
        if flags.hidden(n) {
            if let Some(d) = dropped.get_mut(n as usize) {
                *d = true;
            }
            continue;
        }
        if flags.in_code(n) {
            continue;
        }
        // Compared ignoring ASCII case, without a lower-cased copy per element.
        let role = dom.attr(n, Attr::Role).map(str::trim);
        let role_is = |name: &str| role.is_some_and(|r| r.eq_ignore_ascii_case(name));
        let by_role = role.is_some()
            && [
                "navigation",
                "banner",
                "contentinfo",
                "search",
                "complementary",
                "dialog",
                "alertdialog",
                // A group of controls (share buttons, a player's): UI, not text.
                "toolbar",
            ]
            .into_iter()
            .any(role_is);
        let by_tag = match tag {
            Tag::Nav | Tag::Footer | Tag::Search => true,
            Tag::Aside => {
                let authors = flags.in_semantic(n) && author_box(dom, n);
                !(is_footnote(dom, n, role)
                    || docutils_box(dom, n)
                    || is_callout(dom, n, role)
                    || authors)
            }
            Tag::A => home_logo(dom, n),
            // A page header outside any article is site chrome, unless it holds the headline.
            Tag::Header => fallback && !flags.in_semantic(n) && dom.find(n, Tag::H1).is_none(),
            Tag::Form => role_is("search"),
            _ => false,
        };
        let ad_label = matches!(tag, Tag::Div | Tag::P | Tag::Span | Tag::Other)
            && !holds_root[n as usize]
            && is_ad_label(dom, n);
        let sequence_nav =
            matches!(tag, Tag::Div | Tag::P) && !holds_root[n as usize] && is_sequence_nav(dom, n);
        let by_class = matches!(
            tag,
            Tag::Div
                | Tag::Section
                | Tag::Ul
                | Tag::Ol
                | Tag::Form
                | Tag::Header
                | Tag::Li
                | Tag::Table
                | Tag::P
                | Tag::Other
        ) && boilerplate_named(dom, n, &mut verdicts)
            && !holds_root[n as usize]
            && !docutils_box(dom, n)
            && !asciidoc_sidebar(dom, n)
            && !(tag == Tag::P && docutils_box_title(dom, n) && docutils_box(dom, parent))
            // A Sphinx toctree in the body lists the pages below this one (on an index
            // page, what the page is for), or holds them (`singlehtml`): it is judged as
            // any other list of links, not by its name.
            && !is_toctree(dom, n)
            && !(fallback && title_block(dom, n))
            // A MathJax 3 formula, once its context menu is attached, is classed
            // `CtxtMenu_Attached_0`: a formula, not a menu.
            && !(tag == Tag::Other && dom.has_math && dom.local_name(n) == "mjx-container");
        // `Other` takes in the `<font>` blocks of table-layout pages.
        let comments = matches!(
            tag,
            Tag::Div | Tag::Section | Tag::Ul | Tag::Ol | Tag::Other
        ) && !holds_root[n as usize]
            && comment_thread(dom, n);
        if by_role || by_tag || ad_label || sequence_nav {
            if let Some(d) = dropped.get_mut(n as usize) {
                *d = true;
            }
        } else if by_class || comments {
            named.push((at, n));
        }
    }
    if named.is_empty() {
        return;
    }
    // A container named like boilerplate that holds nearly all of the content's text (more
    // than four fifths of what the other rules leave) is the content's wrapper: Drupal's
    // `panel-two-col-sidebar-right-mix`, Blogger's `widget Blog`, The Verge's
    // `l-sidebar-fixed l-article-body` (95-99.9 % on Readability's test pages, where the
    // name alone dropped the whole article). Readability retries without its name rules
    // when they leave too little; here the name rule does not apply to such a node, and its
    // named descendants are judged on their own. Embedded galleries and comment threads
    // named so stay dropped (55-71 % of the text on those pages).
    let text = visible_text(dom, order, &spans, dropped);
    let size = |n: NodeId| u64::from(text.get(n as usize).copied().unwrap_or(0));
    let total: u64 = roots.iter().map(|&r| size(r)).sum();
    // In document order, so a candidate inside one already dropped is passed over, and each
    // node is marked at most once.
    for (at, n) in named {
        if dropped.get(n as usize).copied().unwrap_or(false) || size(n) * 5 > total * 4 {
            continue;
        }
        for &d in order
            .get(at..subtree_end(dom, order, at))
            .unwrap_or_default()
        {
            if let Some(slot) = dropped.get_mut(d as usize) {
                *slot = true;
            }
        }
    }
}

/// Nodes [`is_sequence_nav`] reads before answering no.
const SEQUENCE_NAV_NODES: usize = 48;
/// Characters of label text outside links a line of sequence links may hold.
const SEQUENCE_NAV_WORDS: usize = 40;

/// A line of document-sequence links and their labels only: every link names its relation
/// to this page (`rel="next"`, `prev`, `up`, `contents`, `index`), with at most a few words
/// between them. Texinfo heads every node of a single-page manual with one ("Next: …,
/// Previous: …, Up: … [Contents][Index]"); it is the reader's navigation, not the text.
fn is_sequence_nav(dom: &Dom, n: NodeId) -> bool {
    let (mut links, mut other_text) = (0usize, 0usize);
    for (seen, d) in dom.descendants(n).enumerate() {
        if seen >= SEQUENCE_NAV_NODES {
            return false;
        }
        match dom.tag(d) {
            Some(Tag::A) => {
                let sequence = dom.attr(d, Attr::Rel).is_some_and(|rel| {
                    rel.split_ascii_whitespace().any(|r| {
                        ["next", "prev", "previous", "up", "contents", "index"]
                            .iter()
                            .any(|w| r.eq_ignore_ascii_case(w))
                    })
                });
                if !sequence {
                    return false;
                }
                links += 1;
            }
            Some(_) => {}
            None => {
                let inside_link = std::iter::successors(Some(d), |&x| {
                    Some(dom.node(x).parent).filter(|&p| p != NONE && p != n)
                })
                .any(|x| dom.tag(x) == Some(Tag::A));
                if !inside_link {
                    other_text += dom.text_of(d).trim().chars().count();
                    // Prose: answered at its first words (this runs for every div and p).
                    if other_text > SEQUENCE_NAV_WORDS {
                        return false;
                    }
                }
            }
        }
    }
    links >= 2
}

/// Where the subtree of `order[at]` ends in `order` (a pre-order list): at the next sibling
/// of the node or of its nearest ancestor that has one.
fn subtree_end(dom: &Dom, order: &[NodeId], at: usize) -> usize {
    let Some(&root) = order.get(at) else {
        return order.len();
    };
    let mut n = root;
    let after = loop {
        let node = dom.node(n);
        if node.next != NONE {
            break Some(node.next);
        }
        if node.parent == NONE {
            break None;
        }
        n = node.parent;
    };
    let rest = order.get(at..).unwrap_or_default();
    after
        .and_then(|a| rest.iter().position(|&x| x == a))
        .map_or(order.len(), |k| at + k)
}

/// Where `roots` and their subtrees lie in `order` (a pre-order list): one range per root,
/// overlapping ones merged, in document order.
fn root_spans(dom: &Dom, order: &[NodeId], roots: &[NodeId]) -> Vec<Range<usize>> {
    let mut spans: Vec<Range<usize>> = Vec::with_capacity(roots.len());
    for &root in roots {
        if let Some(start) = order.iter().position(|&n| n == root) {
            spans.push(start..subtree_end(dom, order, start));
        }
    }
    spans.sort_by_key(|s| s.start);
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(spans.len());
    for s in spans {
        match merged.last_mut() {
            Some(last) if s.start <= last.end => last.end = last.end.max(s.end),
            _ => merged.push(s),
        }
    }
    merged
}

/// Bytes of visible text in each node's subtree (each text node trimmed), `dropped` subtrees
/// counting 0.
fn visible_text(dom: &Dom, order: &[NodeId], spans: &[Range<usize>], dropped: &[bool]) -> Vec<u32> {
    let mut text = vec![0u32; dom.nodes.len()];
    // Reverse pre-order visits every child before its parent.
    let nodes = spans
        .iter()
        .rev()
        .flat_map(|s| order.get(s.clone()).unwrap_or_default().iter().rev());
    for &id in nodes {
        let i = id as usize;
        if dropped.get(i).copied().unwrap_or(false) {
            continue;
        }
        let own = match dom.node(id).kind {
            // Trimmed length: a ratio needs no exact count, and a scan of every byte
            // would cost more than the rest of the decision.
            Kind::Text { .. } => {
                u32::try_from(dom.text_of(id).trim_ascii().len()).unwrap_or(u32::MAX)
            }
            Kind::Element {
                tag: Tag::Script | Tag::Style | Tag::Noscript | Tag::Template | Tag::Svg,
                ..
            } => continue,
            _ => text.get(i).copied().unwrap_or(0),
        };
        if let Some(slot) = text.get_mut(i) {
            *slot = own;
        }
        let p = dom.node(id).parent;
        if let Some(slot) = text.get_mut(p as usize) {
            *slot = slot.saturating_add(own);
        }
    }
    text
}

/// An `<aside>` holding footnotes is part of the text that cites them: docutils (Sphinx,
/// docs.python.org) writes `aside.footnote-list > aside.footnote[role=doc-footnote]`.
fn is_footnote(dom: &Dom, n: NodeId, role: Option<&str>) -> bool {
    role.is_some_and(|r| {
        [
            "doc-footnote",
            "doc-endnotes",
            "doc-endnote",
            "doc-footnotes",
        ]
        .iter()
        .any(|f| r.eq_ignore_ascii_case(f))
    }) || dom.has_class_where(n, |c| {
        matches!(c, "footnote" | "footnote-list" | "footnotes" | "endnotes")
    })
}

/// Words that name a callout box in a class (`starlight-aside--caution`, `callout-note`).
const CALLOUT_WORDS: &[&str] = &[
    "admonition",
    "callout",
    "note",
    "tip",
    "hint",
    "warning",
    "caution",
    "danger",
    "important",
    "attention",
];

/// Whole classes of Google's DevSite callouts (developers.google.com, developer.android.com,
/// cloud.google.com) beyond [`CALLOUT_WORDS`]: `<aside class="key-point">`.
const DEVSITE_CALLOUTS: &[&str] = &["key-point", "key-term", "objective", "special", "success"];

/// An `<aside>` that is a callout of the text (a note, tip or warning set off from it), not
/// the site's sidebar: `role="note"`, or a class naming it so. Starlight writes its notes,
/// tips, cautions and dangers as `<aside class="starlight-aside starlight-aside--note">`,
/// DevSite as `<aside class="note">`, `<aside class="caution">`. TypeDoc's
/// `aside.tsd-sources` under each member ("Defined in src/client.ts:12", "Overrides
/// BaseClient.constructor") is the member's text too.
fn is_callout(dom: &Dom, n: NodeId, role: Option<&str>) -> bool {
    role.is_some_and(|r| r.eq_ignore_ascii_case("note"))
        || dom.has_class_where(n, |c| {
            c == "tsd-sources"
                || DEVSITE_CALLOUTS.iter().any(|k| c.eq_ignore_ascii_case(k))
                || c.split(|ch: char| !ch.is_ascii_alphanumeric())
                    .any(|w| CALLOUT_WORDS.iter().any(|k| w.eq_ignore_ascii_case(k)))
        })
}

/// An article's author box (`<aside class="author">`: "About the author", the name, a line
/// on who they are): part of the article, as Reader View keeps it, and it says who wrote
/// it. Named so by its class or id, short (at most 600 bytes of text in 200 nodes), and
/// holding no list, form, navigation or frame (a widget of the author's other posts).
fn author_box(dom: &Dom, n: NodeId) -> bool {
    [Attr::Class, Attr::Id]
        .into_iter()
        .any(|a| dom.attr(n, a).is_some_and(|v| names_author(v, false)))
        && short_box(dom, n)
}

/// An author's bio standing right after a lone article, outside it (the Washington Post
/// closes `</article>` before `div.post-body-sig-line > div.post-body-bio`): part of the
/// article, as Reader View reads it. Only the article's next element siblings are looked at,
/// stepping over up to three without text (`div.clear`); the first with text is the bio when
/// it, or an element inside it, names an author, byline or bio by class or id (`bio` as a
/// whole word of the name: not `biology`), and it is as short as [`author_box`] wants.
fn bio_after(dom: &Dom, article: NodeId) -> Option<NodeId> {
    let mut n = dom.node(article).next;
    let mut empty = 0;
    while n != NONE {
        if dom.tag(n).is_some() {
            // Where the first text is, within the box's first 200 nodes.
            let first_text = dom
                .descendants(n)
                .take(201)
                .position(|d| !dom.text_of(d).trim().is_empty());
            if first_text.is_some_and(|i| i < 200) {
                let named = dom
                    .descendants(n)
                    .take(200)
                    .filter(|&d| dom.tag(d).is_some())
                    .any(|d| {
                        [Attr::Class, Attr::Id]
                            .into_iter()
                            .any(|a| dom.attr(d, a).is_some_and(|v| names_author(v, true)))
                    });
                return (named && short_box(dom, n)).then_some(n);
            }
            // A large box without text is not stepped over.
            empty += 1;
            if empty > 3 || dom.descendants(n).nth(200).is_some() {
                return None;
            }
        } else if !dom.text_of(n).trim().is_empty() {
            return None;
        }
        n = dom.node(n).next;
    }
    None
}

/// Element siblings before a lone article that [`lead_picture`] looks through: the
/// picture, and a byline between it and the story.
const LEAD_PICTURE_SIBLINGS: usize = 3;

/// The story's lead picture when the page puts it just before its lone `<article>`, beside
/// it rather than inside: a block of one image and its caption ([`captioned_image`]: no
/// link, a caption of a few words) among the article's three previous element siblings (The
/// Washington Post: `div.inline-photo`, then the byline, then `<article>`).
fn lead_picture(dom: &Dom, flags: &Flags, article: NodeId) -> Option<NodeId> {
    let prev = |n: NodeId| Some(dom.node(n).prev).filter(|&p| p != NONE);
    std::iter::successors(prev(article), |&n| prev(n))
        .filter(|&n| dom.tag(n).is_some())
        .take(LEAD_PICTURE_SIBLINGS)
        .find(|&n| !flags.hidden(n) && captioned_image(dom, n))
}

/// Whether a class or id value names an author or a byline, or (with `bio`) a bio, as a
/// whole word of the name (not `biology`).
fn names_author(value: &str, bio: bool) -> bool {
    let v = value.to_ascii_lowercase();
    v.contains("author")
        || v.contains("byline")
        || (bio
            && v.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w == "bio"))
}

/// A short box of text: at most 600 bytes of it in 200 nodes, with no list, form, navigation
/// or frame (a widget of the author's other posts), and some text.
fn short_box(dom: &Dom, n: NodeId) -> bool {
    let mut text = 0;
    for (i, d) in dom.descendants(n).enumerate() {
        let widget = matches!(
            dom.tag(d),
            Some(Tag::Ul | Tag::Ol | Tag::Form | Tag::Nav | Tag::Iframe)
        );
        text += dom.text_of(d).trim().len();
        if i >= 200 || widget || text > 600 {
            return false;
        }
    }
    text > 0
}

/// AsciiDoc's (and Asciidoctor's) sidebar block, `div.sidebarblock > div.content`: an aside
/// the author wrote into the document (git's "Note: In this case, no good copy of the
/// repository was available…"), named like a site's sidebar.
fn asciidoc_sidebar(dom: &Dom, n: NodeId) -> bool {
    dom.tag(n) == Some(Tag::Div) && dom.has_class(n, &["sidebarblock"])
}

/// A docutils sidebar or topic (`.. sidebar::`, `.. topic::`: `<aside class="sidebar">` or
/// `<div class="sidebar">` opening with `<p class="sidebar-title">`): a box of the author's
/// text beside the prose, not the site's sidebar.
fn docutils_box(dom: &Dom, n: NodeId) -> bool {
    dom.children(n)
        .find(|&c| dom.tag(c).is_some())
        .is_some_and(|c| dom.tag(c) == Some(Tag::P) && docutils_box_title(dom, c))
}

/// A docutils sidebar's or topic's title paragraph (named like a sidebar too).
fn docutils_box_title(dom: &Dom, p: NodeId) -> bool {
    dom.has_class(p, &["sidebar-title", "sidebar-subtitle", "topic-title"])
}

/// A page header named so (`div#header`) that holds the headline is the document's title
/// block, as the `<header>` rule has it (AsciiDoc: the `<h1>` and the NAME line).
fn title_block(dom: &Dom, n: NodeId) -> bool {
    dom.attr(n, Attr::Id)
        .is_some_and(|id| id.eq_ignore_ascii_case("header"))
        && dom.find(n, Tag::H1).is_some()
}

/// A Sphinx table-of-contents wrapper.
fn is_toctree(dom: &Dom, n: NodeId) -> bool {
    dom.has_class(n, &["toctree-wrapper"])
}

/// A Sphinx `toctree` the page announces: a heading or an unfinished paragraph before it
/// ("Contents of the `email` package documentation:"), or its own caption
/// (`p.caption`).
fn announced_toctree(dom: &Dom, n: NodeId) -> bool {
    introduced(dom, n)
        || dom
            .children(n)
            .find(|&c| dom.tag(c).is_some())
            .is_some_and(|c| dom.tag(c) == Some(Tag::P) && dom.has_class(c, &["caption"]))
}

/// Nodes [`holds_announced_toctree`] reads before answering no.
const TOCTREE_SCAN: usize = 400;

/// Whether `n` is or holds (within [`TOCTREE_SCAN`] nodes) a toctree the page announces.
/// It makes a headed sibling of the content part of the document however much it links
/// (Django's release notes index: "Final releases", a heading over each series' toctree,
/// beside the security section that scored best).
fn holds_announced_toctree(dom: &Dom, n: NodeId) -> bool {
    let toctree = |d: NodeId| is_toctree(dom, d) && announced_toctree(dom, d);
    toctree(n)
        || dom
            .descendants(n)
            .take(TOCTREE_SCAN)
            .any(|d| dom.tag(d) == Some(Tag::Div) && toctree(d))
}

/// Bytes of text outside links that make a list item prose ([`Stats::para`]).
const PROSE_ITEM: u32 = 40;

/// Visible text and link-text length of every node's subtree (bytes of non-space text).
struct Stats {
    text: Vec<u32>,
    link: Vec<u32>,
    commas: Vec<u32>,
    /// Subtree holds a heading, code (block or inline) or table.
    rich: Vec<bool>,
    /// `<a>` elements in the subtree.
    anchors: Vec<u32>,
    /// Text inside `<p>` elements, and list items' own words ([`PROSE_ITEM`]).
    para: Vec<u32>,
}

impl Stats {
    fn compute(dom: &Dom, order: &[NodeId], dropped: &[bool]) -> Stats {
        let n = dom.nodes.len();
        let mut s = Stats {
            text: vec![0; n],
            link: vec![0; n],
            commas: vec![0; n],
            rich: vec![false; n],
            anchors: vec![0; n],
            para: vec![0; n],
        };
        // Reverse pre-order visits every child before its parent.
        for &id in order.iter().rev() {
            let i = id as usize;
            if dropped.get(i).copied().unwrap_or(false) {
                s.text[i] = 0;
                s.link[i] = 0;
                continue;
            }
            match dom.node(id).kind {
                Kind::Text { .. } => {
                    let t = dom.text_of(id);
                    s.text[i] = t.bytes().filter(|b| !b.is_ascii_whitespace()).count() as u32;
                    s.commas[i] = t.matches([',', '，', '、']).count() as u32;
                }
                Kind::Element { tag, .. } => {
                    if matches!(
                        tag,
                        Tag::Script
                            | Tag::Style
                            | Tag::Noscript
                            | Tag::Template
                            | Tag::Svg
                            | Tag::Head
                    ) || is_hidden(dom, id)
                    {
                        s.text[i] = 0;
                        continue;
                    }
                    // An `<a>` without `href` is a target, not a link (Haddock's defining
                    // occurrence `<a id="v:null" class="def">null</a>`).
                    if tag == Tag::A && dom.attr(id, Attr::Href).is_some() {
                        s.link[i] = s.text[i];
                        s.anchors[i] = s.anchors[i].saturating_add(1);
                    }
                    if tag == Tag::P {
                        s.para[i] = s.text[i];
                    }
                    // A list item that says something in words of its own is prose too
                    // (Erlang's "Standards Compliance": a list of sentences under each
                    // heading); a link with a few words beside it is an index entry.
                    if tag == Tag::Li {
                        let own = s.text[i].saturating_sub(s.link[i]);
                        if own >= PROSE_ITEM && own >= s.link[i] {
                            s.para[i] = s.para[i].max(own);
                        }
                    }
                    // Links inside code are API names (`#include "<a>SDL_stdinc.h</a>"`),
                    // not a related-links box; so are those of Doxygen's listings
                    // (`div.fragment` of `div.line`s, every identifier a link).
                    // MediaWiki's GeSHi highlighting (`span.mw-geshi`) is code without a
                    // `<code>`: cppreference's declarations, every type a link.
                    if matches!(
                        tag,
                        Tag::Pre | Tag::Code | Tag::H1 | Tag::H2 | Tag::H3 | Tag::Table
                    ) || (tag == Tag::Div && crate::render::is_code_fragment(dom, id))
                        || (tag == Tag::Span && dom.has_class(id, &["mw-geshi"]))
                    {
                        s.rich[i] = true;
                    }
                }
                _ => {}
            }
            let p = dom.node(id).parent;
            if p != NONE {
                let (t, l, c) = (s.text[i], s.link[i], s.commas[i]);
                let pi = p as usize;
                s.rich[pi] |= s.rich[i];
                s.text[pi] = s.text[pi].saturating_add(t);
                s.link[pi] = s.link[pi].saturating_add(l);
                s.commas[pi] = s.commas[pi].saturating_add(c);
                s.para[pi] = s.para[pi].saturating_add(s.para[i]);
                s.anchors[pi] = s.anchors[pi].saturating_add(s.anchors[i]);
            }
        }
        s
    }

    fn text(&self, id: NodeId) -> usize {
        self.text.get(id as usize).copied().unwrap_or(0) as usize
    }

    fn para(&self, id: NodeId) -> usize {
        self.para.get(id as usize).copied().unwrap_or(0) as usize
    }

    fn link(&self, id: NodeId) -> usize {
        self.link.get(id as usize).copied().unwrap_or(0) as usize
    }

    fn link_density(&self, id: NodeId) -> f32 {
        let t = self.text(id);
        if t == 0 {
            return 0.0;
        }
        self.link(id) as f32 / t as f32
    }
}

fn tag_base(tag: Tag) -> f32 {
    match tag {
        Tag::Div | Tag::Article | Tag::Section => 5.0,
        Tag::Pre | Tag::Td | Tag::Blockquote => 3.0,
        Tag::Address | Tag::Ol | Tag::Ul | Tag::Dl | Tag::Dd | Tag::Dt | Tag::Li | Tag::Form => {
            -3.0
        }
        Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 | Tag::Th => -5.0,
        _ => 0.0,
    }
}

/// Readability's candidate scoring; returns the best candidate and its qualifying siblings.
fn score_candidates(
    dom: &Dom,
    order: &[NodeId],
    stats: &Stats,
    dropped: &[bool],
) -> Option<Vec<NodeId>> {
    let mut score: Vec<f32> = vec![f32::NAN; dom.nodes.len()];
    let mut layout_cache: Vec<u8> = vec![0; dom.nodes.len()];
    for &id in order {
        if dropped.get(id as usize).copied().unwrap_or(false) {
            continue;
        }
        let Some(tag) = dom.tag(id) else { continue };
        let paragraph_like = match tag {
            Tag::P | Tag::Pre | Tag::Td | Tag::Blockquote => true,
            // A div holding text directly (no block children) reads as a paragraph.
            Tag::Div => dom.children(id).any(|c| dom.text_of(c).trim().len() > 25),
            _ => false,
        };
        if !paragraph_like {
            continue;
        }
        let len = stats.text(id);
        if len < 25 {
            continue;
        }
        let commas = stats.commas.get(id as usize).copied().unwrap_or(0) as f32;
        let content = 1.0 + commas + (len as f32 / 100.0).min(3.0);
        // A cell of a layout table is a page column: it can itself be the content (old
        // table-layout news pages keep the whole article in one `<td>`).
        // Not the code beside a listing's line numbers, though: that table is no column.
        let layout_cell = tag == Tag::Td
            && in_layout_table(dom, id, &mut layout_cache)
            && !dom
                .children(dom.node(id).parent)
                .any(|c| crate::render::gutter_cell(dom, c));
        let mut anc = if layout_cell { id } else { dom.node(id).parent };
        let mut level = 0;
        while anc != NONE && level < 5 {
            let Some(atag) = dom.tag(anc) else { break };
            if matches!(atag, Tag::Html) {
                break;
            }
            let slot = &mut score[anc as usize];
            if slot.is_nan() {
                *slot = tag_base(atag) + class_weight(dom, anc);
            }
            let divider = match level {
                0 => 1.0,
                1 => 2.0,
                l => l as f32 * 3.0,
            };
            *slot += content / divider;
            anc = dom.node(anc).parent;
            level += 1;
        }
    }
    let mut best: Option<(NodeId, f32)> = None;
    // The five best, best first (the first is `best`).
    let mut leaders: [(NodeId, f32); LEADERS] = [(NONE, f32::NEG_INFINITY); LEADERS];
    for &id in order {
        let s = score[id as usize];
        if s.is_nan() || dropped.get(id as usize).copied().unwrap_or(false) {
            continue;
        }
        let fin = s * (1.0 - stats.link_density(id));
        score[id as usize] = fin;
        if best.is_none_or(|(_, b)| fin > b) {
            best = Some((id, fin));
        }
        if let Some(at) = leaders.iter().position(|&(_, l)| fin > l) {
            leaders.copy_within(at..LEADERS - 1, at + 1);
            leaders[at] = (id, fin);
        }
    }
    let (mut top, top_score) = best?;
    top = shared_ancestor(dom, top, top_score, &leaders).unwrap_or(top);
    top = higher_scoring_parent(dom, &score, top);
    // Cells credit their row and table. In a data table the content is what holds the
    // table (its intro and notes included), never a row of it; in a layout table a cell
    // is a page column and may well be the content, unless a heading or an unfinished
    // paragraph introduces the table (cppreference's "Parameters", whose `format` cell
    // holds the whole table of conversion specifiers).
    let mut holds_table_or_list = false;
    let mut up = top;
    while matches!(
        dom.tag(up),
        Some(Tag::Tr | Tag::Tbody | Tag::Thead | Tag::Tfoot | Tag::Td | Tag::Th)
    ) {
        up = dom.node(up).parent;
    }
    if up != NONE
        && up != top
        && dom.tag(up) == Some(Tag::Table)
        && (!crate::render::is_layout_table(dom, up)
            || crate::render::is_code_listing(dom, up)
            || introduced(dom, up))
    {
        top = dom.node(up).parent;
        holds_table_or_list = true;
    } else if dom.tag(top) == Some(Tag::Table) && !crate::render::is_layout_table(dom, top) {
        top = dom.node(top).parent;
        holds_table_or_list = true;
    }
    // Neither an item nor what it holds is the content on its own: without its list the
    // item loses its marker.
    if top != NONE && dom.tag(dom.node(top).parent) == Some(Tag::Li) {
        top = dom.node(top).parent;
    }
    while matches!(dom.tag(top), Some(Tag::Li)) {
        top = dom.node(top).parent;
    }
    if top == NONE {
        return None;
    }
    // A wrapper of the table alone may have scored best itself (PostgreSQL's
    // `div.table-contents`, favoured by its class); a list or a definition list needs its
    // intro as much (PostgreSQL's glossary: "This is a list of terms…" over `div.glosslist`).
    holds_table_or_list |= dom
        .tag(top)
        .is_some_and(|t| matches!(t, Tag::Dl | Tag::Ul | Tag::Ol))
        || wrapped_table_or_list(dom, top).is_some_and(|t| match dom.tag(t) {
            Some(Tag::Table) => !crate::render::is_layout_table(dom, t),
            _ => true,
        });
    top = entries_parent(dom, stats, &score, top)
        .or_else(|| entries_beside(dom, stats, &score, top))
        .unwrap_or(top);
    top = with_surrounding_prose(dom, stats, top, holds_table_or_list);
    top = sections_parent(
        dom,
        top,
        |n| has_text(dom, stats, n),
        |n| stats.link_density(n) >= 0.5,
    )
    .unwrap_or(top);
    top = headed_section(dom, stats, top);
    if dom.tag(top) == Some(Tag::Body) {
        return None;
    }
    // The siblings are looked for beside the wrapper whose only child with text is the
    // content, if any; the content stays what is kept of it (the wrapper's other blocks
    // would be judged by `clean_content`). Not beside a lone listing's wrapper: when an
    // example scored best on a short reference page (cppreference), the listing alone is
    // too little to keep and the page keeps all of its text.
    let content = top;
    if !listing_block(dom, stats, top) {
        top = sole_child_wrapper(dom, stats, top);
    }
    let parent = dom.node(top).parent;
    if parent == NONE {
        return Some(vec![content]);
    }
    let threshold = (top_score * 0.2).max(10.0);
    let top_class = dom.attr(top, Attr::Class).unwrap_or("");
    // Every child of the parent, and whether it is kept.
    let mut siblings: Vec<(NodeId, bool)> = Vec::new();
    for sib in dom.children(parent) {
        if sib == top {
            siblings.push((sib, true));
            continue;
        }
        if dom.tag(sib).is_none() || dropped.get(sib as usize).copied().unwrap_or(false) {
            siblings.push((sib, false));
            continue;
        }
        let mut s = score.get(sib as usize).copied().unwrap_or(f32::NAN);
        if !top_class.is_empty() && dom.attr(sib, Attr::Class) == Some(top_class) {
            s = if s.is_nan() {
                top_score * 0.2
            } else {
                s + top_score * 0.2
            };
        }
        let ok = if !s.is_nan() && s >= threshold {
            true
        } else if reads_as_paragraph(dom, sib) {
            let len = stats.text(sib);
            let ld = stats.link_density(sib);
            (len > 80 && ld < 0.25)
                || (len > 0
                    && len <= 80
                    && ld == 0.0
                    && dom.descendants(sib).any(|t| {
                        let text = dom.text_of(t).trim_end();
                        text.contains(". ") || text.ends_with(['.', '!', '?', ':'])
                    }))
        } else {
            more_of_the_document(dom, stats, sib)
                || long_prose(stats, sib)
                || (headed(dom, stats, sib) && holds_announced_toctree(dom, sib))
                || introduced_table(dom, stats, sib)
                || sister_section(dom, stats, top, sib)
                || introduced_prose_list(dom, stats, sib)
                || introduced_listing(dom, stats, sib)
        };
        siblings.push((sib, ok));
    }
    with_title_sibling(dom, stats, dropped, top, &mut siblings);
    with_announced_lists(dom, dropped, &mut siblings);
    with_text_between(dom, stats, &mut siblings);
    // A heading goes with the content it introduces: keep a heading sibling when the next
    // sibling with text (past empty anchors, rules and white space) is kept. One pass from
    // the end carries whether that next sibling is kept.
    let mut next_kept = false;
    for (sib, ok) in siblings.iter_mut().rev() {
        let sib = *sib;
        let text = has_text(dom, stats, sib);
        if !*ok
            && text
            && next_kept
            && is_heading(dom, sib)
            && !dropped.get(sib as usize).copied().unwrap_or(false)
        {
            *ok = true;
        }
        if *ok || text {
            next_kept = *ok;
        }
    }
    Some(
        siblings
            .into_iter()
            .filter_map(|(sib, ok)| ok.then_some(if sib == top { content } else { sib }))
            .collect(),
    )
}

/// Most bytes of text a title block may hold (Haddock's module header: the module's name
/// and a small table of facts).
const TITLE_BLOCK_TEXT: usize = 300;

/// A short sibling before the content that holds the page's title as a block of its own
/// (Haddock's `div#module-header`: `p.caption` is the `<title>`) heads the document: it is
/// kept, and so is what lies between it and the content unless dropped or mostly links (the
/// module's description; not its table of contents).
fn with_title_sibling(
    dom: &Dom,
    stats: &Stats,
    dropped: &[bool],
    top: NodeId,
    siblings: &mut [(NodeId, bool)],
) {
    let Some(top_at) = siblings.iter().position(|&(sib, _)| sib == top) else {
        return;
    };
    let short = |&(sib, ok): &(NodeId, bool)| {
        !ok && dom.tag(sib).is_some()
            && !dropped.get(sib as usize).copied().unwrap_or(false)
            && stats.text(sib) <= TITLE_BLOCK_TEXT
    };
    let before = siblings.get(..top_at).unwrap_or_default();
    // The title is read (a search of the document) only when some sibling could hold it.
    if !before.iter().any(short) {
        return;
    }
    let Some(title) = page_title(dom).filter(|t| t.chars().count() >= 3) else {
        return;
    };
    let Some(head) = before
        .iter()
        .position(|s| short(s) && (holds_title(dom, s.0, &title) || heads_title(dom, s.0, &title)))
    else {
        return;
    };
    for (i, (sib, ok)) in siblings.iter_mut().enumerate().take(top_at).skip(head) {
        if i == head
            || (dom.tag(*sib).is_some()
                && !dropped.get(*sib as usize).copied().unwrap_or(false)
                && stats.link_density(*sib) < 0.5)
        {
            *ok = true;
        }
    }
}

/// Whether a `<p>` or `<div>` under `n` (itself included) reads exactly as `title`. `n` holds
/// at most [`TITLE_BLOCK_TEXT`] bytes of text, so the walk is short.
fn holds_title(dom: &Dom, n: NodeId, title: &str) -> bool {
    std::iter::once(n).chain(dom.descendants(n)).any(|d| {
        matches!(dom.tag(d), Some(Tag::P | Tag::Div))
            && title_block_text(dom, d).is_some_and(|t| t == title)
    })
}

/// The text under `n`, white space collapsed, unless it is longer than a title block's can
/// be (the walk stops there).
fn title_block_text(dom: &Dom, n: NodeId) -> Option<String> {
    text_unless(dom, n, |t| t.len() > 4 * TITLE_BLOCK_TEXT)
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Whether `n` is an `<h1>` that reads as `title` or as its part before a site name (qdoc:
/// `<h1>QString Class</h1>` under "QString Class | Qt Core 5.15.8"); `n` holds at most
/// [`TITLE_BLOCK_TEXT`] bytes of text.
fn heads_title(dom: &Dom, n: NodeId, title: &str) -> bool {
    if dom.tag(n) != Some(Tag::H1) {
        return false;
    }
    let Some(text) = title_block_text(dom, n) else {
        return false;
    };
    // Sphinx and MkDocs end the heading's text with its permalink sign ("Django 2.1.15
    // release notes¶").
    let bare = text
        .char_indices()
        .last()
        .and_then(|(at, _)| text.split_at_checked(at))
        .filter(|(_, sign)| crate::render::is_permalink_glyph(sign))
        .map(|(head, _)| head.trim_end());
    std::iter::once(text.as_str()).chain(bare).any(|text| {
        text.chars().count() >= 3
            && title.strip_prefix(text).is_some_and(|rest| {
                rest.is_empty()
                    || [" | ", " - ", " \u{2013} ", " \u{2014} ", " \u{b7} ", ": "]
                        .iter()
                        .any(|sep| rest.starts_with(sep))
            })
    })
}

/// A `<p>`, or a `<div>` with no block inside it (as Readability reads one: no blockquote,
/// dl, div, img, list, p, pre or table): a lead paragraph written as `div.perex` beside the
/// article body (aktualne.cz) is prose, not furniture. Only siblings of the content are
/// asked, so the walk over the div's subtree is bounded by the page once.
fn reads_as_paragraph(dom: &Dom, id: NodeId) -> bool {
    match dom.tag(id) {
        Some(Tag::P) => true,
        Some(Tag::Div) => !dom
            .descendants(id)
            .any(|d| dom.tag(d).is_some_and(paragraph_breaker)),
        _ => false,
    }
}

/// A list right after a kept paragraph that stops short of a full stop, past white space,
/// is kept: it is what the paragraph announces ("Here are the relevant sections in the new
/// and old books:" over two links; SQLite's "A rowid table is any table in an SQLite schema
/// that" over its two conditions, half of their text links), and the paragraph would be
/// left hanging without it. Runs after the siblings are judged, title block included.
fn with_announced_lists(dom: &Dom, dropped: &[bool], siblings: &mut [(NodeId, bool)]) {
    // The kept paragraph before, if it stops short; reset by any other element or text.
    let mut announcing = false;
    for (sib, ok) in siblings.iter_mut() {
        let sib = *sib;
        match dom.tag(sib) {
            None if dom.text_of(sib).trim().is_empty() => continue,
            Some(Tag::Ul | Tag::Ol)
                if announcing && !dropped.get(sib as usize).copied().unwrap_or(false) =>
            {
                *ok = true;
            }
            _ => {}
        }
        announcing = *ok && unfinished_paragraph(dom, sib);
    }
}

/// Text written straight into the content's parent (SQLite's pages leave `<p>` out after a
/// list: "Most tables in a typical SQLite database schema are rowid tables.") is kept when
/// the siblings with text on both sides of it are: Readability reads element siblings only.
fn with_text_between(dom: &Dom, stats: &Stats, siblings: &mut [(NodeId, bool)]) {
    // Kept status of the last sibling with text before, and the text node waiting for the
    // next one's.
    let mut before = false;
    let mut waiting: Option<usize> = None;
    for i in 0..siblings.len() {
        let Some(&(sib, ok)) = siblings.get(i) else {
            break;
        };
        if !has_text(dom, stats, sib) {
            continue;
        }
        if let Some(w) = waiting.take() {
            if ok {
                if let Some(x) = siblings.get_mut(w) {
                    x.1 = true;
                }
            }
        }
        if matches!(dom.tag(sib), None | Some(Tag::P)) && !ok && before {
            waiting = Some(i);
        }
        before = ok;
    }
}

/// Whether a sibling of the content shows text: a text node other than white space, or an
/// element with text under it (an `<hr>` or empty anchor has none).
fn has_text(dom: &Dom, stats: &Stats, n: NodeId) -> bool {
    match dom.tag(n) {
        None => !dom.text_of(n).trim().is_empty(),
        Some(_) => stats.text(n) > 0,
    }
}

/// A `<p>` whose text stops short of a full stop ("The options are:", "… such that").
fn unfinished_paragraph(dom: &Dom, p: NodeId) -> bool {
    if dom.tag(p) != Some(Tag::P) {
        return false;
    }
    let last = dom
        .descendants(p)
        .map(|d| dom.text_of(d).trim())
        .filter(|t| !t.is_empty())
        .last()
        .unwrap_or("");
    !last.is_empty() && !last.ends_with(['.', '!', '?', ')', '"'])
}

/// A sibling of the content that goes on with the same document although it scored low
/// beside it (recall beats precision): a section that opens with a heading and holds prose
/// (qdoc's "Detailed Description" beside its much longer member documentation). A
/// link-heavy one (related stories, teaser lists) is not.
fn more_of_the_document(dom: &Dom, stats: &Stats, sib: NodeId) -> bool {
    let (text, link) = (stats.text(sib), stats.link(sib));
    // API prose links every type it names (qdoc's "Related Non-Members": 43 % of its text
    // is links); a section with 200 bytes of its own words beside them still says things.
    let own_words = link * 4 < text || (link * 2 < text && text - link >= 200);
    stats.para(sib) >= 80 && own_words && headed(dom, stats, sib)
}

/// Paragraph text (in `<p>`s) that makes a sibling of the content part of the document,
/// however it scored beside it: a few screens of prose.
const LONG_PROSE: usize = 2_000;

/// A sibling of the content that holds pages of paragraphs, not mostly links, under no
/// heading of its own (SQLite's `opcode.html`: `div.fancy`, its 12 KB of chapters, beside
/// the opcode table that scored best). Teaser and comment blocks are links or were dropped.
fn long_prose(stats: &Stats, sib: NodeId) -> bool {
    stats.para(sib) >= LONG_PROSE && stats.link_density(sib) < 0.25
}

/// Nodes of each sibling [`sole_child_wrapper`] reads for dropped text before counting it
/// as text. Each node is a sibling of the climb at most once: the climb stays linear.
const WRAPPER_SCAN: usize = 1000;

/// The wrapper whose only child with text is the content, up to a child of `<body>`:
/// Readability's "the top candidate is its parent's only child: take the parent". The
/// sibling rules then see the wrapper's siblings, which the content has none of itself
/// (SQLite's `div.optab > blockquote > table`, beside the chapters that introduce it).
fn sole_child_wrapper(dom: &Dom, stats: &Stats, mut top: NodeId) -> NodeId {
    loop {
        let parent = dom.node(top).parent;
        if parent == NONE
            || !matches!(dom.tag(parent), Some(t) if !matches!(t, Tag::Body | Tag::Html))
            || dom
                .children(parent)
                .any(|c| c != top && (has_text(dom, stats, c) || dom.holds_text(c, WRAPPER_SCAN)))
        {
            return top;
        }
        top = parent;
    }
}

/// Whether the first child of `n` with text is a heading (past empty anchors: docutils opens
/// each section with `<span id=…></span>`).
fn headed(dom: &Dom, stats: &Stats, n: NodeId) -> bool {
    dom.children(n)
        .find(|&c| has_text(dom, stats, c))
        .is_some_and(|c| is_heading(dom, c))
}

/// A sibling of the content that is another section of the same document however little
/// prose it holds: the same tag and class as the content (docutils' `div.section`), opening
/// with a heading, not mostly links (Django's release notes: the "Bugfixes" section, one
/// list item, beside the long security note that scored).
fn sister_section(dom: &Dom, stats: &Stats, top: NodeId, sib: NodeId) -> bool {
    let class = dom.attr(top, Attr::Class).unwrap_or("");
    !class.is_empty()
        && dom.tag(sib) == dom.tag(top)
        && dom.attr(sib, Attr::Class) == Some(class)
        && stats.link_density(sib) < 0.5
        && headed(dom, stats, sib)
}

/// A sibling of the content that is a list of prose under its own heading (SQLite's
/// "Situations Where A Client/Server RDBMS May Work Better": an item of paragraphs per
/// situation, beside the longer list that scored): what the heading introduces is more of
/// the document. A list of links is not prose ([`Stats::para`]).
fn introduced_prose_list(dom: &Dom, stats: &Stats, sib: NodeId) -> bool {
    matches!(dom.tag(sib), Some(Tag::Ul | Tag::Ol | Tag::Dl))
        && stats.para(sib) >= 100
        && stats.link(sib) * 4 < stats.text(sib)
        && introduced(dom, sib)
}

/// Wrappers [`listing_block`] descends through.
const LISTING_WRAPPERS: usize = 3;

/// A sibling of the content that is a code listing under its own heading (BoostBook's
/// `h2 Synopsis` + `div.refsynopsisdiv > pre.synopsis` beside the class's description): a
/// declaration is the document however many of its names link.
fn introduced_listing(dom: &Dom, stats: &Stats, sib: NodeId) -> bool {
    listing_block(dom, stats, sib) && introduced(dom, sib)
}

/// Whether `n` is a `<pre>`, or a `<div>` whose one child with text is one, through at most
/// [`LISTING_WRAPPERS`] wrappers.
fn listing_block(dom: &Dom, stats: &Stats, n: NodeId) -> bool {
    let mut at = n;
    for _ in 0..=LISTING_WRAPPERS {
        match dom.tag(at) {
            Some(Tag::Pre) => return stats.text(at) > 0,
            Some(Tag::Div) => {}
            _ => return false,
        }
        let mut with_text = dom.children(at).filter(|&c| has_text(dom, stats, c));
        let (Some(only), None) = (with_text.next(), with_text.next()) else {
            return false;
        };
        at = only;
    }
    false
}

/// The section the content lies in, when that section opens with a heading and has a
/// [`sister_section`]: the first such ancestor within three levels. AsciiDoc writes
/// `div.sect1 > h2 + div.sectionbody > div.sect2…`; a subsection scored best, and the
/// "Summary" section beside its own is part of the document too.
fn headed_section(dom: &Dom, stats: &Stats, top: NodeId) -> NodeId {
    let mut up = dom.node(top).parent;
    for _ in 0..3 {
        if up == NONE || matches!(dom.tag(up), Some(Tag::Body | Tag::Html) | None) {
            break;
        }
        let grand = dom.node(up).parent;
        if grand != NONE
            && headed(dom, stats, up)
            && dom
                .children(grand)
                .any(|sib| sib != up && sister_section(dom, stats, up, sib))
        {
            return up;
        }
        up = grand;
    }
    top
}

/// A sibling of the content that is a data table (or a wrapper of one) under its own
/// heading, and not mostly links: qdoc's member summaries (`Public Functions`, a row per
/// member: return type, then the linked name and its arguments) head the class page beside
/// the much longer member documentation, and the scorer credits only their longer cells.
fn introduced_table(dom: &Dom, stats: &Stats, sib: NodeId) -> bool {
    let Some(table) = wrapped_table_or_list(dom, sib).filter(|&t| dom.tag(t) == Some(Tag::Table))
    else {
        return false;
    };
    stats.text(sib) > 0
        && (stats.link_density(sib) < 0.5 || rows_say_more(dom, table))
        && !crate::render::is_layout_table(dom, table)
        && introduced(dom, sib)
}

/// Nodes [`rows_say_more`] reads before answering no (nested tables' rows are read again
/// as rows of their own, so the count is what bounds the work).
const SUMMARY_NODES: usize = 20_000;

/// Whether every row of a table has words (letters) outside its links: qdoc's "Static Public
/// Members", `const QString &` | `<a>decreaseAction</a>()`, a member per row with its type,
/// mostly links as it is; a table of related links has nothing but the links.
fn rows_say_more(dom: &Dom, table: NodeId) -> bool {
    let mut budget = SUMMARY_NODES;
    let mut rows = 0;
    for tr in dom
        .descendants(table)
        .filter(|&d| dom.tag(d) == Some(Tag::Tr))
    {
        rows += 1;
        let mut words = false;
        for d in dom.descendants(tr) {
            budget = match budget.checked_sub(1) {
                Some(b) => b,
                None => return false,
            };
            if dom.tag(d).is_none()
                && dom.text_of(d).chars().any(char::is_alphabetic)
                && !inside_link(dom, d, tr)
            {
                words = true;
                break;
            }
        }
        if !words {
            return false;
        }
    }
    rows > 0
}

/// The table `n` is, or the one element inside the `<div>` `n` when that is a table, list
/// or definition list.
fn wrapped_table_or_list(dom: &Dom, n: NodeId) -> Option<NodeId> {
    match dom.tag(n) {
        Some(Tag::Table) => Some(n),
        Some(Tag::Div) => {
            let mut kids = dom.children(n).filter(|&c| dom.tag(c).is_some());
            match (kids.next(), kids.next()) {
                (Some(only), None)
                    if matches!(
                        dom.tag(only),
                        Some(Tag::Table | Tag::Dl | Tag::Ul | Tag::Ol)
                    ) =>
                {
                    Some(only)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The blocks that keep a `<div>` around them from reading as a paragraph.
fn paragraph_breaker(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Blockquote
            | Tag::Dl
            | Tag::Div
            | Tag::Img
            | Tag::Ol
            | Tag::P
            | Tag::Pre
            | Tag::Table
            | Tag::Ul
    )
}

/// The article may go on outside the best candidate: an intro above a "read more" box that
/// holds the rest (Herald Sun), chapters in sibling sections (Quanta). Climb while the next
/// ancestor adds at least 200 bytes of text that is mostly paragraphs and hardly links;
/// ancestors that add under 100 bytes (a "Read more" link) are passed through, and the
/// highest one that added prose is the content. Less prose will do beside a short content,
/// or a data table or list (`holds_table_or_list`). Never climbs to `<body>`.
fn with_surrounding_prose(
    dom: &Dom,
    stats: &Stats,
    top: NodeId,
    holds_table_or_list: bool,
) -> NodeId {
    let at = |v: &[u32], n: NodeId| u64::from(v.get(n as usize).copied().unwrap_or(0));
    let mut best = top;
    let mut cur = top;
    loop {
        let up = dom.node(cur).parent;
        if up == NONE || matches!(dom.tag(up), Some(Tag::Body | Tag::Html) | None) {
            return best;
        }
        let added = at(&stats.text, up).saturating_sub(at(&stats.text, cur));
        let added_para = at(&stats.para, up).saturating_sub(at(&stats.para, cur));
        let added_link = at(&stats.link, up).saturating_sub(at(&stats.link, cur));
        // Less prose counts when it is as much as the content holds: the content is a short
        // box inside a short page (a note whose `div.content` the class weight favours,
        // Erlang's guides).
        // So does a table's intro (PostgreSQL's "The view domains contains all domains
        // defined in the current database…" two wrappers above its table of columns).
        let prose = added_para >= 200
            || (added_para >= SHORT_PROSE
                && (holds_table_or_list || added_para * 2 >= at(&stats.text, cur)));
        if prose && added_para * 2 >= added && added_link * 4 <= added {
            best = up;
        } else if added >= 100 {
            return best;
        }
        cur = up;
    }
}

/// Least prose [`with_surrounding_prose`] climbs for beside a content as short as twice it.
const SHORT_PROSE: u64 = 50;

/// Readability's climb: a parent can score above its best child when content elsewhere
/// under it adds up. Going up while the scores stay above a third of the candidate's, the
/// first ancestor that scores more than the one below it is the content.
fn higher_scoring_parent(dom: &Dom, score: &[f32], top: NodeId) -> NodeId {
    let at = |n: NodeId| score.get(n as usize).copied().unwrap_or(f32::NAN);
    let mut last = at(top);
    if last.is_nan() {
        return top;
    }
    let floor = last / 3.0;
    let mut up = dom.node(top).parent;
    while up != NONE && !matches!(dom.tag(up), Some(Tag::Body | Tag::Html) | None) {
        let s = at(up);
        if !s.is_nan() {
            if s < floor {
                break;
            }
            if s > last {
                return up;
            }
            last = s;
        }
        up = dom.node(up).parent;
    }
    top
}

/// Readability lets siblings that share the content's class join it. Reference pages
/// repeat their structure higher up: the best block lies inside one entry of many
/// (Haddock's `div.top` per declaration, pydoc's `table.section` per kind), and each other
/// entry is too small to win or to join. When the content or an ancestor of it is one of at
/// least [`MIN_ENTRIES`] children of one tag and class that hold most of their parent's
/// text, most of them credited by the scorer, and the others are not mostly links (a grid
/// of teaser cards is), their parent is the content.
fn entries_parent(dom: &Dom, stats: &Stats, score: &[f32], top: NodeId) -> Option<NodeId> {
    let mut a = top;
    loop {
        let p = dom.node(a).parent;
        if p == NONE || matches!(dom.tag(a), Some(Tag::Body | Tag::Html) | None) {
            return None;
        }
        if is_entry_run(dom, stats, score, a, p) {
            return Some(p);
        }
        a = p;
    }
}

/// Whether `a` is one of a run of same-named entries under `p` (see [`entries_parent`]).
fn is_entry_run(dom: &Dom, stats: &Stats, score: &[f32], a: NodeId, p: NodeId) -> bool {
    let Some(class) = dom.attr(a, Attr::Class).filter(|c| !c.trim().is_empty()) else {
        return false;
    };
    let (mut n, mut scored, mut text) = (0usize, 0usize, 0usize);
    // The other entries' text and link text: what taking the parent adds.
    let (mut added, mut added_link) = (0usize, 0usize);
    for c in dom.children(p) {
        if dom.tag(c) != dom.tag(a) || dom.attr(c, Attr::Class) != Some(class) {
            continue;
        }
        n += 1;
        scored += usize::from(score.get(c as usize).is_some_and(|s| !s.is_nan()));
        text += stats.text(c);
        if c != a {
            added += stats.text(c);
            added_link += stats.link(c);
        }
    }
    let enough = n >= MIN_ENTRIES || (n >= MIN_SCORED_ENTRIES && scored == n);
    enough && scored * 2 > n && text * 2 > stats.text(p) && added_link * 2 < added
}

/// How far [`sections_parent`] climbs from the content to find its sections' parent.
const SECTION_CLIMB: usize = 6;
/// How many titled sections make a document of sections.
const MIN_SECTIONS: usize = 3;

/// A reference page written as a run of titled sections (Erlang's `div#content`: the
/// module's name, Module Summary, Description, Data Types, Exports, each a block that opens
/// with its heading) whose best block is one of them, or one entry of one: the other
/// sections are too short to score or to join it as siblings, yet they are the page. The
/// highest ancestor within [`SECTION_CLIMB`] levels of the content whose child on the way
/// is a [`titled_section`] among at least [`MIN_SECTIONS`] children that open with a
/// heading and are not mostly links, at least half its children with text, is the content.
fn sections_parent(
    dom: &Dom,
    top: NodeId,
    has_text: impl Fn(NodeId) -> bool,
    mostly_links: impl Fn(NodeId) -> bool,
) -> Option<NodeId> {
    let (mut a, mut found) = (top, None);
    for _ in 0..SECTION_CLIMB {
        let p = dom.node(a).parent;
        if p == NONE || matches!(dom.tag(p), Some(Tag::Body | Tag::Html) | None) {
            break;
        }
        let (mut with_text, mut titled) = (0usize, 0usize);
        for c in dom.children(p) {
            if !has_text(c) {
                continue;
            }
            with_text += 1;
            if opens_with_heading(dom, c) && !mostly_links(c) {
                titled += 1;
            }
        }
        if titled >= MIN_SECTIONS && titled * 2 >= with_text && titled_section(dom, a) {
            found = Some(p);
        }
        a = p;
    }
    found
}

/// Most bytes of text a block holding just a section's heading has.
const HEADING_BLOCK_TEXT: usize = 100;

/// Whether `n` opens with a heading, or a block holding just a heading comes right before
/// it (Erlang: `<div class="innertube"><h3>Exports</h3></div><div class="exports-body">`).
fn titled_section(dom: &Dom, n: NodeId) -> bool {
    if opens_with_heading(dom, n) {
        return true;
    }
    dom.element_before(n).is_some_and(|prev| {
        opens_with_heading(dom, prev)
            && text_unless(dom, prev, |t| t.len() > HEADING_BLOCK_TEXT).is_some()
    })
}

/// Whether `n`'s first content is a heading, itself or in the first content of its first
/// child (`<div class="innertube"><h3>Exports</h3>`).
fn opens_with_heading(dom: &Dom, n: NodeId) -> bool {
    let heading = |x: Option<NodeId>| x.is_some_and(|c| is_heading(dom, c));
    let first = first_shown_child(dom, n);
    heading(first) || heading(first.and_then(|c| first_shown_child(dom, c)))
}

/// The first child of `n` that is an element or text other than white space, past empty
/// link targets (Erlang opens its example section with `<a name="…"></a>`, docutils each
/// section with `<span id=…></span>`).
fn first_shown_child(dom: &Dom, n: NodeId) -> Option<NodeId> {
    dom.children(n).find(|&c| match dom.tag(c) {
        Some(Tag::A | Tag::Span) => dom.node(c).first_child != NONE,
        Some(_) => true,
        None => !dom.text_of(c).trim().is_empty(),
    })
}

/// Distinct (tag, class) kinds of children [`entries_beside`] tells apart.
const ENTRY_KINDS: usize = 8;

/// The other way round from [`entries_parent`]: the content is a long block beside a run
/// of entries, each too small to join it (Doxygen's file reference: the "Detailed
/// Description" holds a licence, then one `div.memitem` per function, each a few lines).
/// When the content's parent has at least [`MIN_ENTRIES`] children of one tag and class,
/// most of them credited by the scorer and not opening with a link, together holding more
/// text than the content and not mostly links, the parent is the content.
fn entries_beside(dom: &Dom, stats: &Stats, score: &[f32], top: NodeId) -> Option<NodeId> {
    let p = dom.node(top).parent;
    if p == NONE || matches!(dom.tag(p), Some(Tag::Body | Tag::Html) | None) {
        return None;
    }
    let mut kinds = [EntryKind::default(); ENTRY_KINDS];
    let mut used = 0;
    for c in dom.children(p) {
        let (Some(tag), Some(class)) = (dom.tag(c), dom.attr(c, Attr::Class)) else {
            continue;
        };
        if c == top || class.trim().is_empty() {
            continue;
        }
        let at = match kinds[..used]
            .iter()
            .position(|k| k.tag == Some(tag) && k.class == class)
        {
            Some(at) => at,
            None if used < ENTRY_KINDS => {
                kinds[used] = EntryKind {
                    tag: Some(tag),
                    class,
                    ..EntryKind::default()
                };
                used += 1;
                used - 1
            }
            None => continue,
        };
        let Some(k) = kinds.get_mut(at) else { continue };
        k.entries += 1;
        k.scored += usize::from(score.get(c as usize).is_some_and(|s| !s.is_nan()));
        k.text += stats.text(c);
        k.link += stats.link(c);
        k.linked += usize::from(opens_with_link(dom, c));
    }
    kinds[..used]
        .iter()
        .any(|k| {
            k.entries >= MIN_ENTRIES
                && k.scored * 2 > k.entries
                && k.linked * 2 < k.entries
                && k.text > stats.text(top)
                && k.link * 2 < k.text
        })
        .then_some(p)
}

/// One tag and class of children [`entries_beside`] counts.
#[derive(Debug, Default, Clone, Copy)]
struct EntryKind<'a> {
    tag: Option<Tag>,
    class: &'a str,
    entries: usize,
    /// Entries the scorer credited.
    scored: usize,
    text: usize,
    link: usize,
    /// Entries whose first text is a link's.
    linked: usize,
}

/// Whether the first text under `n` is a link's (a teaser card opens with its linked
/// headline; a function's entry with its declaration).
fn opens_with_link(dom: &Dom, n: NodeId) -> bool {
    let Some(t) = dom
        .descendants(n)
        .take(MOSTLY_LINKS_NODES)
        .find(|&d| dom.tag(d).is_none() && !dom.text_of(d).trim().is_empty())
    else {
        return false;
    };
    dom.ancestors(t)
        .take_while(|&a| a != n)
        .any(|a| dom.tag(a) == Some(Tag::A) && dom.attr(a, Attr::Href).is_some())
}

/// How many same-named siblings make a run of entries (not a page's few layout columns).
const MIN_ENTRIES: usize = 4;
/// Fewer entries make a run when the scorer credited every one (PostgreSQL's
/// `libpq-example.html`: three `div.example` programs; the longest scored alone).
const MIN_SCORED_ENTRIES: usize = 3;

/// How many of the best candidates [`shared_ancestor`] looks at (Readability's five).
const LEADERS: usize = 5;

/// An article split into sections or columns scores as several candidates of about the same
/// score (Quanta's `section.outer` per chapter). As Readability does: when at least three of
/// the runners-up score three quarters of the best or more and share an ancestor with it,
/// that ancestor, the nearest one, is the content.
fn shared_ancestor(
    dom: &Dom,
    top: NodeId,
    top_score: f32,
    leaders: &[(NodeId, f32)],
) -> Option<NodeId> {
    let close: Vec<NodeId> = leaders
        .iter()
        .filter(|&&(id, s)| id != top && id != NONE && s >= top_score * 0.75)
        .map(|&(id, _)| id)
        .collect();
    if close.len() < 3 {
        return None;
    }
    // Ancestors of each close candidate (depth is capped, so these walks are short).
    let chains: Vec<Vec<NodeId>> = close
        .iter()
        .map(|&c| {
            std::iter::successors(Some(dom.node(c).parent), |&a| {
                (a != NONE).then(|| dom.node(a).parent)
            })
            .take_while(|&a| a != NONE)
            .collect()
        })
        .collect();
    let mut up = dom.node(top).parent;
    while up != NONE && !matches!(dom.tag(up), Some(Tag::Body | Tag::Html) | None) {
        if chains.iter().filter(|c| c.contains(&up)).count() >= 3 {
            return Some(up);
        }
        up = dom.node(up).parent;
    }
    None
}

/// Inside scored content, drop link-heavy blocks with little text (related links, tag
/// clouds) the way reader modes do.
///
/// `article`: the page declares itself an article ([`PageMeta::declares_article`]); only
/// there is a list of headlines with blurbs taken for the site's teasers ([`teaser_list`]).
fn clean_content(dom: &Dom, order: &[NodeId], stats: &Stats, article: bool, sel: &mut Selection) {
    let mut in_content = vec![false; dom.nodes.len()];
    for &r in &sel.roots {
        in_content[r as usize] = true;
    }
    for &n in order {
        let p = dom.node(n).parent;
        if p != NONE && in_content[p as usize] {
            in_content[n as usize] = true;
        }
    }
    let mut layout_cache = vec![0u8; dom.nodes.len()];
    // What the content says, less what was dropped before this pass.
    let content_text: usize = sel.roots.iter().map(|&r| stats.text(r)).sum();
    // Whether the content holds a story's body, worked out once when a teaser list is met.
    let mut story = None;
    // Headings with text in the content (0, 1 or 2 for more), counted once when asked.
    let mut content_headings = None;
    // Inside a code listing or a heading, blocks are lines of code or parts of a title,
    // however much they link: a Doxygen `div.fragment`'s `div.line`s link every identifier
    // (`<a class="code">SDLK_RETURN</a> = '\r',`), edoc's `h4 > div.title-name` the types
    // of a signature. A list set in columns is judged whole, by its table's wrapper (qdoc's
    // "Properties": each column's `<ul>` opens its cell, with nothing there to introduce it).
    let mut kept_whole = vec![false; dom.nodes.len()];
    for &n in order {
        let Some(tag) = dom.tag(n) else { continue };
        let parent = dom.node(n).parent;
        let below_root = parent != NONE && in_content[parent as usize];
        let inside = parent != NONE && kept_whole[parent as usize];
        if inside
            || is_heading(dom, n)
            || (tag == Tag::Div && crate::render::is_code_fragment(dom, n))
            || (tag == Tag::Table && crate::render::is_list_columns(dom, n))
        {
            kept_whole[n as usize] = true;
        }
        if inside
            || !matches!(tag, Tag::Div | Tag::Section | Tag::Ul | Tag::Ol | Tag::Form)
            || !below_root
        {
            continue;
        }
        if sel.is_dropped(n) {
            continue;
        }
        let text = stats.text(n);
        let ld = stats.link_density(n);
        let rich = stats.rich.get(n as usize).copied().unwrap_or(false);
        // One short link is a reference, not a farm: an Erlang type line
        // `T = <a>term()</a>`, and so is one long name (YARD's class list:
        // `<a>ExpectationErrorFactory</a> < Object`). One long link in words is a teaser
        // ("Read more: <a>headline</a>").
        let anchors = stats.anchors.get(n as usize).copied().unwrap_or(0);
        let link_bytes = stats.link.get(n as usize).copied().unwrap_or(0);
        let reference = anchors == 1
            && (link_bytes < 20 || names_row(dom, n, &mut layout_cache) || links_a_name(dom, n));
        let link_farm = text > 0
            && ld > 0.5
            && text < 2000
            && !reference
            && !rich
            && !introduced(dom, n)
            && !entry_among_prose(dom, stats, n)
            && !titled_names(dom, n)
            && !defines_name(dom, n)
            && !linked_figure(dom, n)
            && !tab_row(dom, n)
            && !written_sentence(dom, n)
            && !heading_wrapper(dom, stats, n)
            && !links_written_out(dom, n)
            && !index_of_the_page(
                dom,
                stats,
                &sel.roots,
                n,
                content_text,
                &mut content_headings,
            );
        let form = tag == Tag::Form;
        let teasers = article
            && matches!(tag, Tag::Ul | Tag::Ol)
            && teaser_list(dom, stats, n)
            && *story.get_or_insert_with(|| tells_a_story(dom, order, stats, &in_content, sel));
        if link_farm || form || teasers || comment_thread(dom, n) {
            if let Some(d) = sel.dropped.get_mut(n as usize) {
                *d = true;
            }
        }
        // Its label ("Recommended for You") would head nothing.
        if let Some(label) = teasers.then(|| teasers_label(dom, stats, n)).flatten() {
            if let Some(d) = sel.dropped.get_mut(label as usize) {
                *d = true;
            }
        }
    }
}

/// Most text (bytes, white space aside) of a teaser list's label.
const TEASER_LABEL_TEXT: usize = 100;

/// The heading right before a teaser list, or the block right before it that holds only a
/// heading (yahoo-3's `div.App-Hd` beside the stream's `div.App-Bd`): the list's label.
/// Looked for beside the list and beside at most three `div`/`section` wrappers whose
/// first child it is ([`block_before`]).
fn teasers_label(dom: &Dom, stats: &Stats, list: NodeId) -> Option<NodeId> {
    let prev = block_before(dom, list, 3)?;
    let text = stats.text(prev);
    let heading = std::iter::once(prev)
        .chain(dom.descendants(prev).take(TEASER_NODES))
        .find(|&d| is_heading(dom, d))?;
    // Never a page's title, whatever follows it.
    let title = dom.tag(heading) == Some(Tag::H1);
    (text > 0 && text <= TEASER_LABEL_TEXT && stats.text(heading) == text && !title).then_some(prev)
}

/// Fewest headline items a teaser list has ([`teaser_list`]).
const MIN_TEASERS: usize = 3;
/// Most text (bytes, white space aside) of one teaser: a headline and a blurb of a few
/// sentences, not a section of the story.
const TEASER_TEXT: usize = 600;
/// Nodes read in one item when looking for its headline.
const TEASER_NODES: usize = 64;

/// A list whose items are headlines of other pages, each linked whole, with at most a
/// short blurb: "Recommended for You", "Most read", "More from the section". Such lists
/// score as prose (each blurb is a sentence or two) and escape the link-farm test, but a
/// story never tells itself as a list of linked headlines. On Readability's 118 test pages
/// no such list is part of Reader View's article (checked with a script over their
/// `expected.html`). At least [`MIN_TEASERS`] items and three in four of the items with
/// text are teasers.
fn teaser_list(dom: &Dom, stats: &Stats, list: NodeId) -> bool {
    let (mut items, mut teasers) = (0usize, 0usize);
    for li in dom.children(list) {
        if dom.tag(li) != Some(Tag::Li) || stats.text(li) == 0 {
            continue;
        }
        items += 1;
        if stats.text(li) <= TEASER_TEXT
            && dom
                .descendants(li)
                .take(TEASER_NODES)
                .any(|h| is_heading(dom, h) && linked_headline(dom, stats, h))
        {
            teasers += 1;
        }
    }
    teasers >= MIN_TEASERS && teasers * 4 >= items * 3
}

/// Fewest bytes of paragraph text (white space aside) one block must hold in `<p>`s of its
/// own for the content to tell a story beside its teasers: a short news item's body.
const STORY_TEXT: usize = 1000;

/// Whether one block of the content holds [`STORY_TEXT`] of paragraphs as its own children:
/// the story a teaser list follows. A section front is teasers only; there every blurb's
/// `<p>` stands alone in its item (Readability's nytimes-5: at most 192 bytes in one block,
/// against 2,104 in yahoo-3's story), and its lists are the page.
fn tells_a_story(
    dom: &Dom,
    order: &[NodeId],
    stats: &Stats,
    in_content: &[bool],
    sel: &Selection,
) -> bool {
    let mut own = vec![0usize; dom.nodes.len()];
    order.iter().any(|&n| {
        if dom.tag(n) != Some(Tag::P)
            || !in_content.get(n as usize).copied().unwrap_or(false)
            || sel.is_dropped(n)
        {
            return false;
        }
        own.get_mut(dom.node(n).parent as usize).is_some_and(|sum| {
            *sum += stats.text(n);
            *sum >= STORY_TEXT
        })
    })
}

/// A heading whose whole text is one link to another page (not a `#` target on this one).
fn linked_headline(dom: &Dom, stats: &Stats, h: NodeId) -> bool {
    let text = stats.text(h);
    text > 0
        && stats.link(h) == text
        && stats.anchors.get(h as usize) == Some(&1)
        && dom
            .descendants(h)
            .take(TEASER_NODES)
            .filter(|&a| dom.tag(a) == Some(Tag::A))
            .filter_map(|a| dom.attr(a, Attr::Href))
            .any(|href| !href.trim_start().starts_with('#'))
}

/// Most bytes of text (white space aside) the content may hold beside an index that is
/// what the page is for.
const INDEX_INTRO_TEXT: usize = 300;

/// Nodes [`index_of_the_page`] reads after a list before answering no.
const INDEX_SCAN: usize = 1000;

/// Whether a list of links is the page's index: all the content holds beside it is a title
/// and a short introduction before it (git's `technical/api-index.html`: "Git has grown a
/// set of internal API over time. This collection documents them." and the documents;
/// Doxygen's `functions.html`: "Here is a list of all class members with links to the
/// classes they belong to:" and the members). Without it, such a page would say nothing of
/// what it links to. A list, not a line of links (cppreference's breadcrumbs, "< c |
/// keyword"); last, not before the rest (Haddock's A–Z bar above an index page's table);
/// and under the page's title alone.
fn index_of_the_page(
    dom: &Dom,
    stats: &Stats,
    roots: &[NodeId],
    n: NodeId,
    content_text: usize,
    headings: &mut Option<usize>,
) -> bool {
    let is_list = match dom.tag(n) {
        Some(Tag::Ul | Tag::Ol) => true,
        _ => wrapped_table_or_list(dom, n)
            .is_some_and(|l| matches!(dom.tag(l), Some(Tag::Ul | Tag::Ol))),
    };
    if !is_list || content_text.saturating_sub(stats.text(n)) > INDEX_INTRO_TEXT {
        return false;
    }
    // One heading at most, the page's title: a "More information" section's links under a
    // heading of their own, after others, are a short page's furniture.
    let headings = *headings.get_or_insert_with(|| {
        roots
            .iter()
            .flat_map(|&r| std::iter::once(r).chain(dom.descendants(r)))
            .filter(|&d| is_heading(dom, d) && stats.text(d) > 0)
            .take(2)
            .count()
    });
    if headings > 1 {
        return false;
    }
    // Nothing with text follows it in the content. The climb ends at a root: the roots
    // hold `n`, which is below one of them. Past INDEX_SCAN nodes the answer is no, so that
    // a page of many short lists among empty elements stays linear.
    let mut budget = INDEX_SCAN;
    let mut at = n;
    while at != NONE && !roots.contains(&at) {
        let mut next = dom.node(at).next;
        while next != NONE {
            budget = match budget.checked_sub(1) {
                Some(left) if stats.text(next) == 0 => left,
                _ => return false,
            };
            next = dom.node(next).next;
        }
        at = dom.node(at).parent;
    }
    true
}

/// Nodes [`links_a_name`] reads before answering no.
const NAME_LINK_NODES: usize = 64;

/// Whether the first link in `n` (within [`NAME_LINK_NODES`] nodes) reads as one word: a
/// name, not a headline.
fn links_a_name(dom: &Dom, n: NodeId) -> bool {
    let Some(a) = dom
        .descendants(n)
        .take(NAME_LINK_NODES)
        .find(|&d| dom.tag(d) == Some(Tag::A) && dom.attr(d, Attr::Href).is_some())
    else {
        return false;
    };
    let mut text = String::new();
    for d in dom.descendants(a).take(NAME_LINK_NODES) {
        if dom.tag(d).is_none() {
            text.push_str(dom.text_of(d));
        }
    }
    let word = text.trim();
    !word.is_empty() && !word.contains(char::is_whitespace)
}

/// Nodes [`links_written_out`] reads before answering no.
const WRITTEN_LINK_NODES: usize = 200;

/// Whether every link in `n` (at least one, within [`WRITTEN_LINK_NODES`] nodes) shows its
/// address as its text: the writer spelled the URL out as part of the sentence (git's
/// SubmittingPatches: "Fork https://github.com/git/git to your GitHub account … here:
/// https://help.github.com/…"). Related links and tag clouds show titles.
fn links_written_out(dom: &Dom, n: NodeId) -> bool {
    let mut links = 0;
    for (seen, d) in dom.descendants(n).enumerate() {
        if seen >= WRITTEN_LINK_NODES {
            return false;
        }
        if dom.tag(d) != Some(Tag::A) || dom.attr(d, Attr::Href).is_none() {
            continue;
        }
        // The address is one text node in the link: `<a href=…>https://…</a>`.
        let text = dom
            .descendants(d)
            .find(|&t| dom.tag(t).is_none() && !dom.text_of(t).trim().is_empty());
        let shown = text.map(|t| dom.text_of(t).trim()).unwrap_or("");
        let address = ["http://", "https://", "www."].iter().any(|p| {
            shown
                .get(..p.len())
                .is_some_and(|s| s.eq_ignore_ascii_case(p))
        });
        if !address {
            return false;
        }
        links += 1;
    }
    links > 0
}

/// Wrappers [`heading_wrapper`] descends through before answering no.
const HEADING_WRAPPERS: usize = 6;

/// A block that holds one heading and nothing else with text, through wrappers
/// (BoostBook's `div.titlepage > div > div > h4`: "Header <boost/units/pow.hpp>", the file
/// name a link; edoc's `div.func-head > h4`: a signature whose types are links). It is
/// the heading of what follows, however much of it links.
fn heading_wrapper(dom: &Dom, stats: &Stats, n: NodeId) -> bool {
    let mut at = n;
    for _ in 0..HEADING_WRAPPERS {
        let mut with_text = dom.children(at).filter(|&c| match dom.tag(c) {
            Some(_) => stats.text(c) > 0 || shows_something(dom, c),
            None => !dom.text_of(c).trim().is_empty(),
        });
        let (Some(only), None) = (with_text.next(), with_text.next()) else {
            return false;
        };
        if is_heading(dom, only) {
            // Not a teaser card's headline, linked whole (`<a><div><h4>`).
            return !dom
                .ancestors(only)
                .take(HEADING_WRAPPERS + 2)
                .any(|a| dom.tag(a) == Some(Tag::A));
        }
        if dom.tag(only).is_none() {
            return false;
        }
        at = only;
    }
    false
}

/// Nodes [`shows_something`] reads before answering yes.
const BLANK_SCAN: usize = 64;

/// Whether an element without text still shows something: a picture or other media (a
/// teaser card's image beside its headline), or more than [`BLANK_SCAN`] nodes to read.
fn shows_something(dom: &Dom, n: NodeId) -> bool {
    dom.descendants(n).enumerate().any(|(seen, d)| {
        seen >= BLANK_SCAN
            || matches!(
                dom.tag(d),
                Some(Tag::Img | Tag::Picture | Tag::Video | Tag::Svg | Tag::Iframe)
            )
    })
}

/// A tab widget's row of tab names (`role="tablist"`, or the wrapper it opens): links to
/// the panels, which render under those names (Starlight's tabs in a page that declares
/// itself an article).
fn tab_row(dom: &Dom, n: NodeId) -> bool {
    dom.descendants(n)
        .take(4)
        .chain(std::iter::once(n))
        .any(|d| crate::tabs::has_role(dom, d, "tablist"))
}

/// Nodes [`linked_figure`] reads before answering no.
const LINKED_FIGURE_NODES: usize = 48;

/// A picture whose links all lead to one place, with at most a caption beside it: an
/// article's graphic linked to its interactive version (the Washington Post's
/// `div.inline-graphic-linked`: the image and its headline both link to the graphic).
/// Teaser grids link several stories, and a teaser card (one story's picture and headline)
/// sits among other cards, not between the article's paragraphs.
fn linked_figure(dom: &Dom, n: NodeId) -> bool {
    let nearest = |step: fn(&Dom, NodeId) -> NodeId| {
        let mut at = step(dom, n);
        while at != NONE && dom.tag(at).is_none() {
            at = step(dom, at);
        }
        at
    };
    let beside_paragraph = [
        nearest(|d, x| d.node(x).prev),
        nearest(|d, x| d.node(x).next),
    ]
    .into_iter()
    .any(|s| s != NONE && dom.tag(s) == Some(Tag::P));
    if !beside_paragraph {
        return false;
    }
    let mut target = None;
    let mut image = false;
    for (seen, d) in dom.descendants(n).enumerate() {
        if seen > LINKED_FIGURE_NODES {
            return false;
        }
        match dom.tag(d) {
            Some(Tag::Img | Tag::Picture) => image = true,
            Some(Tag::A) => {
                let href = dom.attr(d, Attr::Href).map(str::trim);
                if target.get_or_insert(href) != &href {
                    return false;
                }
            }
            _ => {}
        }
    }
    image && target.flatten().is_some()
}

/// Whether block `n` (through at most three wrapping `div`s) is the first cell of a data
/// table's row with more cells after it: a link there names the row, as an API index
/// pairs each member with its description (cppreference's
/// `<td><div class="t-dsc-member-div"><a>std::swap(std::vector)</a>` | "specializes …").
fn names_row(dom: &Dom, n: NodeId, layout_cache: &mut [u8]) -> bool {
    let mut at = n;
    for _ in 0..4 {
        let up = dom.node(at).parent;
        if up == NONE {
            return false;
        }
        match dom.tag(up) {
            Some(Tag::Div) => at = up,
            Some(Tag::Td | Tag::Th) => {
                let tr = dom.node(up).parent;
                let mut cells = dom
                    .children(tr)
                    .filter(|&c| matches!(dom.tag(c), Some(Tag::Td | Tag::Th)));
                return dom.tag(tr) == Some(Tag::Tr)
                    && cells.next() == Some(up)
                    && cells.next().is_some()
                    && !in_layout_table(dom, up, layout_cache);
            }
            _ => return false,
        }
    }
    false
}

/// How far [`entry_among_prose`] looks for like siblings on each side.
const ENTRY_REACH: usize = 8;

/// One entry of a run of like blocks (same tag and class) that mostly read as text: a
/// declaration with no documentation is its signature alone, a line of type links
/// (Haddock's `div.top` holding only `p.src`), among the documented ones. Only the nearest
/// [`ENTRY_REACH`] element siblings on each side are read.
fn entry_among_prose(dom: &Dom, stats: &Stats, n: NodeId) -> bool {
    let Some(class) = dom.attr(n, Attr::Class).filter(|c| !c.trim().is_empty()) else {
        return false;
    };
    let tag = dom.tag(n);
    let (mut prose, mut farms) = (0usize, 0usize);
    for step in [
        |d: &Dom, x: NodeId| d.node(x).prev,
        |d: &Dom, x: NodeId| d.node(x).next,
    ] {
        let mut at = step(dom, n);
        let mut seen = 0;
        while at != NONE && seen < ENTRY_REACH {
            if dom.tag(at).is_some() {
                seen += 1;
                if dom.tag(at) == tag && dom.attr(at, Attr::Class) == Some(class) {
                    if stats.link_density(at) > 0.5 {
                        farms += 1;
                    } else {
                        prose += 1;
                    }
                }
            }
            at = step(dom, at);
        }
    }
    prose >= 3 && prose > farms
}

/// Links [`titled_names`] reads before answering no; more under a permalinked heading, a
/// section of the document (gi-docgen's "Implementations" of an interface: 100 classes).
const TITLED_NAMES_LINKS: usize = 64;
const PERMALINKED_NAMES_LINKS: usize = 512;

/// A heading, then links whose texts are single words: a list of names under its title
/// (gi-docgen's "Ancestors" and "Implements": `GtkWidget`, `GObject`), the section's
/// content. Related-story boxes and menus link phrases of several words.
fn titled_names(dom: &Dom, n: NodeId) -> bool {
    let Some(heading) = dom.first_content_child(n).filter(|&c| is_heading(dom, c)) else {
        return false;
    };
    let cap = if permalinked(dom, heading) {
        PERMALINKED_NAMES_LINKS
    } else {
        TITLED_NAMES_LINKS
    };
    let mut links = 0usize;
    for a in dom.descendants(n).filter(|&d| dom.tag(d) == Some(Tag::A)) {
        links += 1;
        if links > cap {
            return false;
        }
        let mut text = String::new();
        for d in dom.descendants(a) {
            text.push_str(dom.text_of(d));
            if text.len() > 80 {
                return false;
            }
        }
        // An empty link is the heading's permalink or an icon: no name, no phrase.
        if text.split_whitespace().nth(1).is_some() {
            return false;
        }
    }
    links > 0
}

/// A heading that links to itself (`<h4 id="x">… <a href="#x">`, or Sphinx's `<section
/// id="x"><h2>… <a href="#x">¶</a>`): documentation generators give their sections
/// permalinks; site widgets ("Tags", "Related", a comment thread) have none.
fn permalinked(dom: &Dom, heading: NodeId) -> bool {
    let parent = dom.node(heading).parent;
    let section_id = (parent != NONE && dom.first_content_child(parent) == Some(heading))
        .then(|| dom.attr(parent, Attr::Id))
        .flatten();
    let ids = [dom.attr(heading, Attr::Id), section_id];
    let ids = || ids.iter().flatten().filter(|id| !id.is_empty());
    if ids().next().is_none() {
        return false;
    }
    dom.descendants(heading).any(|d| {
        dom.tag(d) == Some(Tag::A)
            && dom
                .attr(d, Attr::Href)
                .and_then(|h| h.strip_prefix('#'))
                .is_some_and(|h| ids().any(|id| *id == h))
    })
}

/// Most bytes of text before the first link of a [`defines_name`] line.
const DEFINED_NAME_TEXT: usize = 80;

/// A block that opens by defining a name with links: the text before its first link ends
/// in `=` or `::` (Erlang's `Thing = <a>atom()</a> | <a>integer()</a> | …`) or opens with
/// a name and ` = ` (`Option = {r, <a>integer()</a>} | …`), or the link
/// is the name and `::` follows it (Haddock's instance methods: `<a>fromList</a> ::
/// [<a>Item</a> …`). A link list never opens that way. A list of such names linked is an
/// index of the declarations below (Haddock's synopsis), which the links go to.
fn defines_name(dom: &Dom, n: NodeId) -> bool {
    let mut before = String::new();
    for d in dom.descendants(n) {
        if dom.tag(d) == Some(Tag::A) {
            let next = dom.node(d).next;
            let typed = next != NONE
                && dom.tag(next).is_none()
                && dom.text_of(next).trim_start().starts_with("::")
                && !in_list_item(dom, d, n);
            // A name's target (`<a name="type-device">device()</a> = …`, Haddock's
            // `<a id="v:list" class="def">list</a> :: …`) is text, not a link.
            if dom.attr(d, Attr::Href).is_some() {
                let head = before.trim_end();
                // Or a name and `=` open it (`Option = {r, <a>integer()</a>} | …`).
                let assigned = head
                    .trim_start()
                    .split_once(" = ")
                    .is_some_and(|(name, _)| {
                        !name.is_empty() && !name.contains(char::is_whitespace)
                    });
                return typed
                    || assigned
                    || (head.len() > 1 && (head.ends_with('=') || head.ends_with("::")));
            }
            if typed {
                return true;
            }
        }
        before.push_str(dom.text_of(d));
        if before.len() > DEFINED_NAME_TEXT {
            return false;
        }
    }
    false
}

/// Words outside links that make a linked block a sentence ([`written_sentence`]).
const SENTENCE_WORDS: usize = 8;
/// Fewer do when the sentence opens and ends outside its links.
const FRAMED_SENTENCE_WORDS: usize = 2;
/// Most nodes [`written_sentence`] reads.
const SENTENCE_NODES: usize = 400;

/// A block that reads as a sentence however many of its words are links: at least
/// [`SENTENCE_WORDS`] words outside links, ending in a full stop. Racket's prose links every
/// identifier ("A popup-menu% object is created without a parent. Dynamically display a
/// popup-menu% with popup-menu in window<%> …"); a link farm has separators between its
/// links, or a label before them. A shorter sentence counts when its own words frame the
/// links: it opens with a capitalised word and ends in a full stop outside them ("Equivalent
/// to [export(Data, Callback, [])].", "Returns #t for [done] and #f otherwise.").
fn written_sentence(dom: &Dom, n: NodeId) -> bool {
    let mut words = 0;
    let mut last = "";
    let mut last_outside = false;
    let mut opens_outside = None;
    // A sentence is a few dozen nodes; a block of thousands (empty ones hold no text, so the
    // text cap above does not bound them) is not read through for every wrapper around it.
    for (seen, d) in dom.descendants(n).enumerate() {
        if seen > SENTENCE_NODES {
            return false;
        }
        let text = dom.text_of(d).trim();
        if text.is_empty() {
            continue;
        }
        last = text;
        last_outside = !inside_link(dom, d, n);
        opens_outside.get_or_insert_with(|| {
            last_outside && text.chars().next().is_some_and(char::is_uppercase)
        });
        if words < SENTENCE_WORDS && last_outside {
            words += text
                .split_whitespace()
                .filter(|w| w.chars().any(char::is_alphabetic))
                .count();
        }
    }
    let framed = opens_outside == Some(true) && last_outside && last.ends_with('.');
    last.ends_with(['.', '!', '?'])
        && (words >= SENTENCE_WORDS || (framed && words >= FRAMED_SENTENCE_WORDS))
}

/// Whether `d` is inside an `<li>` under `root` (or `root` is one).
fn in_list_item(dom: &Dom, d: NodeId, root: NodeId) -> bool {
    for a in std::iter::once(d).chain(dom.ancestors(d)) {
        if dom.tag(a) == Some(Tag::Li) {
            return true;
        }
        if a == root {
            break;
        }
    }
    false
}

/// A block the text before it announces: the previous element is a heading ("See Also")
/// or a paragraph that stops short of a full stop ("More information can be found at",
/// "Examples:"). Such a list of links is the section's content, not a link farm.
fn introduced(dom: &Dom, n: NodeId) -> bool {
    // The first child of a wrapper (`<div class="itemizedlist"><ul>`) is introduced by what
    // introduces the wrapper: two `div`/`section` levels up at most.
    block_before(dom, n, 2)
        .is_some_and(|prev| is_heading(dom, prev) || unfinished_paragraph(dom, prev))
}

/// The element right before `n`, white space between, or else right before the nearest of
/// its `div`/`section` wrappers (at most `wrappers` of them) of which it is the first
/// child. `None` when text comes between or nothing does.
fn block_before(dom: &Dom, n: NodeId, wrappers: usize) -> Option<NodeId> {
    let mut at = n;
    for climbed in 0..=wrappers {
        let mut prev = dom.node(at).prev;
        while prev != NONE && dom.tag(prev).is_none() {
            if !dom.text_of(prev).trim().is_empty() {
                return None;
            }
            prev = dom.node(prev).prev;
        }
        if prev != NONE {
            return Some(prev);
        }
        at = dom.node(at).parent;
        if climbed == wrappers
            || at == NONE
            || !matches!(dom.tag(at), Some(Tag::Div | Tag::Section))
        {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the substring lists mean: the lower-cased text contains one of the words.
    /// [`NEGATIVE_SUBSTR`] alone, to test [`contains_any`] on it.
    static NEGATIVE: OnceLock<Option<AhoCorasick>> = OnceLock::new();

    fn contains_lowered(words: &[&str], s: &str) -> bool {
        let lower = s.to_ascii_lowercase();
        words.iter().any(|w| lower.contains(w))
    }

    /// What [`is_negative`] means: a listed substring, or a listed token as a whole run of
    /// ASCII letters and digits.
    fn negative_by_lists(s: &str) -> bool {
        contains_lowered(NEGATIVE_SUBSTR, s)
            || s.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|t| NEGATIVE_TOKENS.iter().any(|n| n.eq_ignore_ascii_case(t)))
    }

    #[test]
    fn substring_lists_match_as_lower_cased_contains() {
        for s in [
            "",
            "sidebar",
            "SideBar-left",
            "x-comment",
            "commen",
            "skip-link",
            "skip_link",
            "toctree-wrapper compound",
            "main-content",
            "MAIN",
            "po st",
            "blogpost",
            "ßidebar",
            "navbar\u{e9}",
            "\u{130}menu",
        ] {
            assert_eq!(
                contains_any(&NEGATIVE, NEGATIVE_SUBSTR, s),
                contains_lowered(NEGATIVE_SUBSTR, s),
                "{s:?}"
            );
            assert_eq!(
                contains_any(&POSITIVE, POSITIVE_SUBSTR, s),
                contains_lowered(POSITIVE_SUBSTR, s),
                "{s:?}"
            );
            assert_eq!(is_negative(s), negative_by_lists(s), "{s:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20000))]
        #[test]
        fn substring_lists_agree_with_lower_cased_contains(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "side", "bar", "SIDE", "Bar", "comm", "ent", "men", "u", "MENU", "po", "st",
                    "post", "skip", "-", "_", "link", "Link", " ", "toctree", "wrapper", "a",
                    "e", "k", "\u{e9}", "\u{130}", "\u{212a}", "s", "S", "ha", "re", "ad",
                    "vert", "main", "body", "text", "Article", "cont", "ENT", "ry", "x",
                ]),
                0..12,
            ),
            tail in "\\PC{0,8}",
        ) {
            let s = format!("{}{tail}", pieces.concat());
            proptest::prop_assert_eq!(
                contains_any(&NEGATIVE, NEGATIVE_SUBSTR, &s),
                contains_lowered(NEGATIVE_SUBSTR, &s)
            );
            proptest::prop_assert_eq!(
                contains_any(&POSITIVE, POSITIVE_SUBSTR, &s),
                contains_lowered(POSITIVE_SUBSTR, &s)
            );
            proptest::prop_assert_eq!(is_negative(&s), negative_by_lists(&s));
        }
    }

    #[test]
    fn longest_id_is_the_longest_listed() {
        let longest = BOILERPLATE_IDS
            .iter()
            .chain(ID_PREFIXES)
            .map(|w| w.len())
            .max();
        assert_eq!(longest, Some(LONGEST_ID));
    }

    #[test]
    fn negative_matcher_builds_and_searches_overlapping() {
        is_negative("x");
        let ac = NEGATIVE_ALL.get().and_then(Option::as_ref);
        assert!(ac.is_some_and(|ac| ac.try_find_overlapping_iter("ads").is_ok()));
    }

    #[test]
    fn negative_tokens_match_as_char_split_tokens() {
        let by_chars = |words: &str| {
            words
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|t| NEGATIVE_TOKENS.iter().any(|n| n.eq_ignore_ascii_case(t)))
        };
        for words in [
            "",
            "ad",
            "AD",
            "ads-top",
            "x ad",
            "bad",
            "adverts",
            "page-nav",
            "navé",
            "éNAV",
            "toc\u{a0}x",
            "widget2",
            "my_widget",
            "wid get",
            "tags",
            "dek-",
            "gdpr_box",
            "rss.",
            "a",
            "modalx",
            "x-modal-y",
            "skip\u{200b}link",
        ] {
            assert_eq!(is_negative(words), negative_by_lists(words), "{words:?}");
            // A token alone, where no listed substring can match, is negative as a token.
            if !contains_lowered(NEGATIVE_SUBSTR, words) {
                assert_eq!(is_negative(words), by_chars(words), "{words:?}");
            }
        }
    }

    #[test]
    fn short_lowercase_matches_trimmed_to_lowercase() {
        let pad = " ".repeat(45);
        let samples = [
            "<div>Comments (6)</div>".to_string(),
            "<div>  \n Leave a <b>Reply</b> \t </div>".to_string(),
            format!("<div>{pad}Most read{pad}</div>"),
            format!("<div>Related<span>{pad}</span>stories</div>"),
            format!("<div>Related<span>{pad}</span></div>"),
            format!("<div>{}</div>", "x".repeat(40)),
            format!("<div>{}</div>", "x".repeat(41)),
            // The Kelvin sign takes three bytes and lower-cases to one.
            format!("<div>{}</div>", "\u{212a}".repeat(20)),
            format!("<div>{}</div>", "\u{212a}".repeat(41)),
            format!("<div>{}</div>", "É".repeat(20)),
            format!("<div>{}</div>", "É".repeat(21)),
            "<div>İSTANBUL NEWS</div>".to_string(),
            "<div>\u{a0}More news\u{3000}</div>".to_string(),
            "<div><span> </span><i></i></div>".to_string(),
        ];
        for html in samples {
            let dom = Dom::parse(&html);
            let div = dom.find(DOCUMENT, Tag::Div).expect("div");
            let text: String = dom.descendants(div).map(|n| dom.text_of(n)).collect();
            let want = Some(text.trim().to_lowercase()).filter(|t| t.len() <= 40);
            let mut buf = [0u8; 40];
            assert_eq!(
                short_lowercase(&dom, div, &mut buf).map(str::to_string),
                want,
                "{html:?}"
            );
        }
    }

    #[test]
    fn negative_matches_whole_tokens_only() {
        for (words, want) in [
            ("ad", true),
            ("ads", true),
            ("top-ads", true),
            ("ADS_top", true),
            ("header", false),
            ("shadow badge", false),
            ("x ad", true),
            ("adsx", false),
            ("nav2", false),
            ("page nav", true),
            ("toc", true),
            ("tocx toc", true),
            ("é-dek", true),
            ("md-nav__link", true),
            ("reference internal", false),
        ] {
            assert_eq!(is_negative(words), want, "{words:?}");
            assert_eq!(negative_by_lists(words), want, "{words:?}");
        }
    }

    #[test]
    fn label_initials_cover_every_label() {
        for label in COMMENT_OPENINGS.iter().chain(RELATED_LABELS) {
            let first = label.chars().next().expect("label");
            assert!(LABEL_INITIALS.contains(&first), "{label}");
        }
    }

    /// `opens_like_a_label` reads the text as written, `comment_thread` lower-cased: white
    /// space and digits must stay what they are, and only the ASCII letters themselves may
    /// lower-case to a label's first letter.
    #[test]
    fn only_ascii_letters_lower_case_to_label_initials() {
        for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
            let first = c.to_lowercase().next().expect("a lower case");
            if c.is_whitespace() || c.is_ascii_digit() {
                assert!(first.is_whitespace() || first.is_ascii_digit(), "{c:?}");
                continue;
            }
            assert!(!first.is_whitespace() && !first.is_ascii_digit(), "{c:?}");
            if LABEL_INITIALS.contains(&first) {
                assert!(LABEL_INITIALS.contains(&c.to_ascii_lowercase()), "{c:?}");
            }
        }
    }

    #[test]
    fn an_article_under_a_quarter_of_the_page_is_minor() {
        let page = |article: usize, rest: usize| {
            format!(
                "<body><article><p>{}</p></article><section><p>{}</p>\
                 <p hidden>{}</p></section></body>",
                "a".repeat(article),
                "b".repeat(rest),
                "c".repeat(10 * rest)
            )
        };
        for (article, rest, minor) in [(100, 301, true), (100, 299, false), (500, 0, false)] {
            let dom = Dom::parse(&page(article, rest));
            let body = dom.find(DOCUMENT, Tag::Body).expect("body");
            let Walk { order, flags, .. } = walk(&dom, body);
            let a = dom.find(body, Tag::Article).expect("article");
            // Hidden text is not the page's.
            assert_eq!(
                minor_article(&dom, &order, &flags, a),
                minor,
                "{article} {rest}"
            );
        }
    }

    #[test]
    fn comment_thread_prefilter_keeps_every_label() {
        for (html, want) in [
            ("<div><h3>12 Comments</h3><p>x</p></div>", true),
            ("<div><h3>\n 3 Responses to this</h3></div>", true),
            (
                "<div><div><span>  </span><b>Leave a Reply</b></div><p>x</p></div>",
                true,
            ),
            (
                "<div><p>Related stories:</p><ul><li>a</li></ul></div>",
                true,
            ),
            ("<div><p>\u{a0}MOST READ</p></div>", true),
            ("<div><h2>Join the discussion</h2></div>", true),
            ("<div><h2>You may also like</h2></div>", true),
            ("<div><h3>Contents</h3><p>x</p></div>", false),
            ("<div><h3>A comment on style</h3></div>", false),
            (
                "<div><h2>Comments &amp; Proposals</h2><p>x</p></div>",
                false,
            ),
            ("<div><h2>Comments and questions</h2><p>x</p></div>", false),
            // Documentation of comments: a permalinked heading, or code.
            (
                "<div id=\"comments\"><h2>Comments<a href=\"#comments\">¶</a></h2><p>x</p></div>",
                false,
            ),
            (
                "<div><h2 id=\"c\">Comments<a href=\"#c\"></a></h2><p>x</p></div>",
                false,
            ),
            (
                "<div><h2>Responses to commands</h2><p>x</p><div><pre>ls</pre></div></div>",
                false,
            ),
            // A link to another anchor is no permalink.
            (
                "<div id=\"comments\"><h2>Comments<a href=\"#respond\">Reply</a></h2></div>",
                true,
            ),
            (
                "<div><p>Most read books of 2024 are listed below for everyone.</p></div>",
                false,
            ),
            ("<div><p>1 2 3</p></div>", false),
        ] {
            let dom = Dom::parse(html);
            let div = dom.find(DOCUMENT, Tag::Div).expect("div");
            assert_eq!(comment_thread(&dom, div), want, "{html:?}");
        }
    }

    #[test]
    fn boilerplate_ids_whole_or_by_first_part() {
        for (id, want) in [
            ("comments", true),
            ("Comments", true),
            ("comments-42", true),
            ("ad_top", true),
            ("ads-sidebar", true),
            ("header", true),
            ("header-anchor", false),
            ("breadcrumbs-nav", true),
            ("breadcrumbsx-nav", false),
            ("shared-memory", false),
            ("method.set_comment", false),
            ("related-functions", false),
            ("a-very-long-heading-id", false),
            ("-comments", false),
            ("navbar_", true),
            ("sidebar", true),
            ("sidebarleft", false),
        ] {
            let dom = Dom::parse(&format!("<div id=\"{id}\">x</div>"));
            let div = dom.find(DOCUMENT, Tag::Div).expect("div");
            let mut verdicts = Verdicts::default();
            assert_eq!(boilerplate_named(&dom, div, &mut verdicts), want, "{id:?}");
        }
    }

    #[test]
    fn walk_is_pre_order_with_inherited_flags() {
        let dom = Dom::parse(
            "<div hidden><p>a<b>b</b></p></div><section><pre><span>c</span></pre></section>\
             <div role=main>d</div><main>e</main>",
        );
        let body = dom.find(DOCUMENT, Tag::Body).expect("body");
        let Walk {
            order, flags, main, ..
        } = walk(&dom, body);
        let mut want = vec![body];
        want.extend(dom.descendants(body));
        assert_eq!(order, want);
        let span = dom.find(body, Tag::Span).expect("span");
        let b = dom.find(body, Tag::B).expect("b");
        let pre = dom.find(body, Tag::Pre).expect("pre");
        assert!(flags.hidden(b) && !flags.in_code(b) && !flags.in_semantic(b));
        assert!(flags.in_code(span) && flags.in_semantic(span) && !flags.hidden(span));
        assert!(!flags.in_code(pre) && flags.in_semantic(pre));
        assert_eq!(main.and_then(|m| dom.tag(m)), Some(Tag::Div));
    }

    #[test]
    fn a_section_opening_with_a_link_target_is_a_titled_section() {
        // Erlang's erl_tracer: the example section opens with `<a name>` before its
        // heading; the best block lay in it, and sections_parent did not see a page of
        // titled sections (4.2 of 55 KB kept).
        let dom = Dom::parse(
            "<div id=content><div class=innertube><h3>Description</h3><p>About.</p></div>\
             <div class=innertube><h3>Data Types</h3><p>Types.</p></div>\
             <div class=innertube><h3>Exports</h3></div><div id=exports><article>f</article></div>\
             <section id=example><a name=example></a> <h3>Example</h3><div id=body><pre>code</pre></div></section>\
             <section id=linked><a href=#x>Not a target</a><h3>After a link</h3></section></div>",
        );
        let id = |name: &str| {
            dom.descendants(DOCUMENT)
                .find(|&n| dom.attr(n, Attr::Id) == Some(name))
                .expect(name)
        };
        assert!(opens_with_heading(&dom, id("example")));
        assert!(!opens_with_heading(&dom, id("linked")));
        let found = sections_parent(
            &dom,
            id("body"),
            |n| {
                dom.descendants(n)
                    .any(|d| !dom.text_of(d).trim().is_empty())
            },
            |_| false,
        );
        assert_eq!(found, Some(id("content")));
    }

    #[test]
    fn title_sibling_heads_the_content_with_what_lies_between() {
        // Haddock: the module header's caption is the `<title>`; the description between it
        // and the declarations joins, the contents list (all links) does not.
        let dom = Dom::parse(
            "<title>Data.Aeson.KeyMap</title><div id=content>\
             <div id=hdr><table><tr><th>Language</th><td>Haskell2010</td></tr></table>\
             <p class=caption>Data.Aeson.KeyMap</p></div>\
             <div id=toc><ul><li><a href=#g1>Map Type</a></li><li><a href=#g2>Query</a></li></ul></div>\
             <div id=desc><p>An abstract interface for maps from JSON keys to values.</p></div>\
             <div id=iface><p>Declarations.</p></div><div id=after><p>Not before it.</p></div></div>",
        );
        let id = |name: &str| {
            dom.descendants(DOCUMENT)
                .find(|&n| dom.attr(n, Attr::Id) == Some(name))
                .expect(name)
        };
        let body = dom.find(DOCUMENT, Tag::Body).expect("body");
        let order = walk(&dom, body).order;
        let dropped = vec![false; dom.nodes.len()];
        let stats = Stats::compute(&dom, &order, &dropped);
        let top = id("iface");
        let mut siblings: Vec<(NodeId, bool)> =
            dom.children(id("content")).map(|c| (c, c == top)).collect();
        with_title_sibling(&dom, &stats, &dropped, top, &mut siblings);
        let kept: Vec<&str> = siblings
            .iter()
            .filter(|&&(_, ok)| ok)
            .filter_map(|&(n, _)| dom.attr(n, Attr::Id))
            .collect();
        assert_eq!(kept, ["hdr", "desc", "iface"]);
        // Without a block reading as the title, nothing joins.
        let dom2 = Dom::parse(
            "<title>Other</title><div><div id=a><p>x y z</p></div><div id=b>t</div></div>",
        );
        let body = dom2.find(DOCUMENT, Tag::Body).expect("body");
        let order = walk(&dom2, body).order;
        let dropped = vec![false; dom2.nodes.len()];
        let stats = Stats::compute(&dom2, &order, &dropped);
        let div = dom2.find(body, Tag::Div).expect("div");
        let mut siblings: Vec<(NodeId, bool)> = dom2.children(div).map(|c| (c, false)).collect();
        if let Some(last) = siblings.last_mut() {
            last.1 = true;
        }
        let top = siblings.last().map(|s| s.0).expect("top");
        with_title_sibling(&dom2, &stats, &dropped, top, &mut siblings);
        assert_eq!(siblings.iter().filter(|s| s.1).count(), 1);
    }

    #[test]
    fn close_runners_up_under_one_ancestor_make_it_the_content() {
        let dom = Dom::parse(
            "<div id=page><div id=wrap><div><section id=a></section></div>             <section id=b></section><section id=c></section><section id=d></section>             </div><div id=e></div></div>",
        );
        let id = |name: &str| {
            dom.descendants(DOCUMENT)
                .find(|&n| dom.attr(n, Attr::Id) == Some(name))
                .expect(name)
        };
        let (a, b, c, d, e) = (id("a"), id("b"), id("c"), id("d"), id("e"));
        let leaders = |scores: [f32; 4]| {
            [
                (a, 10.0),
                (b, scores[0]),
                (c, scores[1]),
                (d, scores[2]),
                (e, scores[3]),
            ]
        };
        // Three runners-up within three quarters of the best: their nearest common
        // ancestor with it.
        assert_eq!(
            shared_ancestor(&dom, a, 10.0, &leaders([9.0, 8.0, 7.5, 7.5])),
            Some(id("wrap"))
        );
        // Two are not enough, nor are three when one falls short of three quarters.
        assert_eq!(
            shared_ancestor(&dom, a, 10.0, &leaders([9.0, 8.0, 2.0, 1.0])),
            None
        );
        assert_eq!(
            shared_ancestor(&dom, a, 10.0, &leaders([9.0, 8.0, 7.4, 1.0])),
            None
        );
        // Three close ones of which only two share an ancestor below `body` with the best
        // (`e` is outside `wrap`): the nearest ancestor holding three is `page`.
        assert_eq!(
            shared_ancestor(&dom, a, 10.0, &leaders([9.0, 8.0, 1.0, 9.0])),
            Some(id("page"))
        );
    }
}
