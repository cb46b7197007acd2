//! Cases from public HTML-to-Markdown suites (turndown's test page, html-to-markdown's golden
//! files) where the Markdown said something other than what a browser shows: lost nesting,
//! lost headings, code blocks turned into literal backticks, delimiters shown as text.
use agent_markdown::{convert, Options};
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

mod common;
use common::{md, pruned};

/// List nesting depth at which each text run is read, in document order.
fn item_depths(md: &str) -> Vec<(String, usize)> {
    let mut depth = 0;
    let mut out = Vec::new();
    for event in Parser::new(md) {
        match event {
            Event::Start(Tag::List(_)) => depth += 1,
            Event::End(TagEnd::List(_)) => depth -= 1,
            Event::Text(t) => out.push((t.to_string(), depth)),
            _ => {}
        }
    }
    out
}

/// Text a reader sees as literal, outside code: emphasis delimiters among it were not read.
fn plain_text(md: &str) -> String {
    let mut code = 0;
    let mut out = String::new();
    for event in Parser::new(md) {
        match event {
            Event::Start(Tag::CodeBlock(_)) => code += 1,
            Event::End(TagEnd::CodeBlock) => code -= 1,
            Event::Text(t) if code == 0 => out.push_str(&t),
            _ => {}
        }
    }
    out
}

fn pairs(v: &[(&str, usize)]) -> Vec<(String, usize)> {
    v.iter().map(|(t, d)| (t.to_string(), *d)).collect()
}

#[test]
fn list_directly_inside_a_list_nests_under_the_item_before_it() {
    let out = md("<ul><li>a</li><ul><li>b</li></ul><li>c</li></ul>");
    assert_eq!(out, "- a\n  - b\n- c\n");
    let out = md("<ol><li>a</li><ol><li>b</li></ol></ol>");
    assert_eq!(out, "1. a\n   1. b\n");
    assert_eq!(item_depths(&out), pairs(&[("a", 1), ("b", 2)]));
}

#[test]
fn list_directly_inside_a_list_with_no_item_before_it_keeps_its_depth() {
    let out = md("<ol><ol><ol><li>deep</li></ol></ol></ol>");
    assert_eq!(item_depths(&out), pairs(&[("deep", 3)]), "in:\n{out}");
}

#[test]
fn block_directly_inside_a_list_continues_the_item_before_it() {
    let out = md("<ul><li><a href=\"/p\">a</a></li><p><a href=\"/q\">b</a></p></ul>");
    assert_eq!(out, "- [a](/p)\n\n  [b](/q)\n");
    let out = md("<ol><li>x</li>text<li>y</li></ol>");
    assert_eq!(item_depths(&out), pairs(&[("x", 1), ("text", 1), ("y", 1)]));
    // A wrapper of items stays transparent.
    assert_eq!(md("<ul><li>a</li><div><li>b</li></div></ul>"), "- a\n- b\n");
}

#[test]
fn fences_in_lists_without_items_survive() {
    let pre = "<pre>a\n[x](javascript:alert(1))\n&lt;img src=x onerror=alert(1)&gt;</pre>";
    for depth in [1, 3, 30] {
        for open in ["<ol>", "<ul>", "<ol start=3>"] {
            let html = format!("{}<li>{pre}", open.repeat(depth));
            let out = md(&html);
            let mut blocks = Vec::new();
            let mut current: Option<String> = None;
            for event in Parser::new(&out) {
                match event {
                    Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) => {
                        current = Some(String::new())
                    }
                    Event::Text(t) => {
                        if let Some(c) = current.as_mut() {
                            c.push_str(&t);
                        }
                    }
                    Event::End(TagEnd::CodeBlock) => blocks.extend(current.take()),
                    Event::Html(_) | Event::InlineHtml(_) => panic!("raw HTML in:\n{out}"),
                    _ => {}
                }
            }
            assert_eq!(
                blocks,
                vec!["a\n[x](javascript:alert(1))\n<img src=x onerror=alert(1)>\n".to_string()],
                "in:\n{out}"
            );
        }
    }
}

#[test]
fn heading_inside_a_link_stays_a_heading_and_keeps_the_link() {
    let out = md("<a href=\"/x\"><h3>Card title</h3><p>Card text</p></a>");
    assert_eq!(out, "### [Card title](/x)\n\n[Card text](/x)\n");
    let out = md("<blockquote><a href=\"/x\"> <h2>T</h2> </a></blockquote>");
    assert_eq!(out, "> ## [T](/x)\n");
}

#[test]
fn pre_inside_code_is_a_code_block() {
    let out = md("<div>before <code><pre>x</pre></code> after</div>");
    assert_eq!(out, "before\n\n```\nx\n```\n\nafter\n");
    let out =
        md("<div><code class=\"language-one\"><pre class=\"language-two\">y</pre></code></div>");
    assert_eq!(out, "```two\ny\n```\n");
}

#[test]
fn emphasis_around_a_link_is_never_shown_as_delimiters() {
    let out = md("<p>x<b><i><a href=\"/\">l</a></i></b>y</p>");
    assert_eq!(out, "x[**_l_**](/)y\n");
    let out = md("<p>before<strong><a href=\"/\">a</a></strong>after</p>");
    assert_eq!(out, "before[**a**](/)after\n");
    let out = md("<p>before  <strong><a href=\"/\">  middle  </a></strong>  after</p>");
    assert_eq!(out, "before [**middle**](/) after\n");
    // Emphasis dropped for its neighbour leaves none behind inside it either.
    let out = md("<p>x<b><i>(y)</i></b>z and x<b><i>(y)</i></b> z</p>");
    assert!(!plain_text(&out).contains(['*', '_']), "in:\n{out}");
    assert_eq!(out, "x(y)z and x(y) z\n");
}

#[test]
fn adjacent_code_elements_are_one_span() {
    assert_eq!(
        md("<p>before<code>A</code><code>B</code>after</p>"),
        "before`AB`after\n"
    );
    assert_eq!(
        md("<p>before <code>A</code> <code>B</code> after</p>"),
        "before `A` `B` after\n"
    );
    assert_eq!(md("<p><code>A</code><code> B</code></p>"), "`A B`\n");
    // Continuing a span rewrites it: a long run of code elements is cut into spans of
    // bounded length, so the work stays linear.
    let out = md(&format!("<p>{}</p>", "<code>ab</code>".repeat(2000)));
    let spans: Vec<&str> = out.trim_end().split(' ').collect();
    assert!(
        spans.len() > 1 && spans.iter().all(|s| s.len() < 300),
        "{}",
        out.len()
    );
    assert_eq!(spans.concat().replace('`', ""), "ab".repeat(2000));
}

#[test]
fn rule_inside_a_heading_does_not_end_it() {
    assert_eq!(md("<h4><hr>More posts</h4>"), "#### More posts\n");
}

#[test]
fn white_space_only_code_keeps_the_words_apart() {
    assert_eq!(md("<p>before<code> </code>after</p>"), "before after\n");
    assert_eq!(md("<p>before<code></code>after</p>"), "beforeafter\n");
}

#[test]
fn icon_only_link_is_named_by_its_label() {
    let out = md("<p><a href=\"/home\" aria-label=\"Home\" title=\"t\"><svg><path/></svg></a></p>");
    assert_eq!(out, "[Home](/home \"t\")\n");
    let out = md("<p><a href=\"/home\" title=\"Home page\"><i class=\"icon\"></i></a></p>");
    // The title became the text: not repeated as the title.
    assert_eq!(out, "[Home page](/home)\n");
    // A permalink icon within the page says nothing.
    assert_eq!(
        md("<h2 id=a>A<a href=\"#b\" aria-label=\"Permalink\"><svg></svg></a></h2>"),
        "## A\n"
    );
}

#[test]
fn empty_list_between_lists_does_not_merge_its_neighbours() {
    let out = md("<ul><li>A</li></ul><ul><li>B</li></ul><ul></ul><ul><li>C</li></ul>");
    let lists = Parser::new(&out)
        .filter(|e| matches!(e, Event::Start(Tag::List(_))))
        .count();
    assert_eq!(lists, 3, "in:\n{out}");
}

#[test]
fn one_item_list_keeps_its_bullet_when_pruned() {
    let html = "<html><body><ul><li><p>A list item with a blockquote:</p><blockquote>\
                <p>This is a blockquote inside a list item.</p></blockquote></li></ul></body></html>";
    let opts = Options {
        front_matter: false,
        ..Options::default()
    };
    let out = convert(html.as_bytes(), &opts).markdown;
    assert!(out.starts_with("- A list item"), "in:\n{out}");
}

/// Whether the Markdown shows emphasis (`<em>`) anywhere.
fn has_emphasis(md: &str) -> bool {
    Parser::new(md).any(|e| matches!(e, Event::Start(Tag::Emphasis)))
}

#[test]
fn inner_emphasis_left_behind_by_a_dropped_span_is_never_shown_as_delimiters() {
    // html-to-markdown's link golden: the bold cannot open before `*`, and the italic it
    // leaves behind cannot open before `[` either.
    let out = md("<p>before<b><i><a href=\"/\">x</a>a</i>b</b>after</p>");
    assert_eq!(out, "before[x](/)abafter\n");
    for html in [
        "<p>before<b><i><code>c</code>a</i>b</b>after</p>",
        "<p>before<i><b><code>c</code>a</b>b</i>after</p>",
    ] {
        let out = md(html);
        assert!(
            !plain_text(&out).contains(['*', '_']),
            "{html} gave:\n{out}"
        );
        assert_eq!(out, "before`c`abafter\n");
    }
}

#[test]
fn inner_emphasis_meeting_a_word_after_a_dropped_span_still_reads() {
    // The bold's closer cannot close before a word; once it goes, the italic's `_` meets the
    // word itself and must become `*` (or go, when it follows punctuation).
    for (html, want) in [
        // The bold is kept too: as `***a***` its runs are judged on `a` (issue 2).
        ("<p><b><i>a</i></b>after</p>", "***a***after\n"),
        ("<p>x<b><i>a</i></b>after</p>", "x***a***after\n"),
        ("<p>before<b><i>a</i></b></p>", "before***a***\n"),
    ] {
        let out = md(html);
        assert_eq!(out, want, "{html}");
        assert!(has_emphasis(&out), "{html} lost its emphasis:\n{out}");
        assert!(
            !plain_text(&out).contains(['*', '_']),
            "{html} gave:\n{out}"
        );
    }
    let out = md("<p><b><i>a<a href=\"/\">x</a></i></b>after</p>");
    assert!(!plain_text(&out).contains(['*', '_']), "in:\n{out}");
    assert_eq!(out, "a[x](/)after\n");
}

#[test]
fn a_rule_that_is_the_whole_document_is_kept() {
    // turndown's `hr` cases.
    assert_eq!(md("<hr>"), "***\n");
    assert_eq!(md("<hr></hr>"), "***\n");
    assert_eq!(md("<hr><p>a</p>"), "***\n\na\n");
}

#[test]
fn closing_rules_are_kept_unless_pruning_may_have_cut_what_they_separated() {
    // Without pruning the page's last rule is its own (CommonMark spec examples 43, 77,
    // 115, 234, ...: a break closing the document is a break).
    assert_eq!(md("<p>a</p><hr>"), "a\n\n***\n");
    assert_eq!(md("<p>a</p><hr><hr>"), "a\n\n***\n\n***\n");
    assert_eq!(md("<blockquote><p>a</p></blockquote><hr>"), "> a\n\n***\n");
    // With pruning, the rule above a dropped comment thread separates nothing.
    let page = "<body><article><h1>T</h1><p>Body text of the story.</p><hr></article>\
                <section class=\"comments\"><p>First!</p></section></body>";
    assert_eq!(pruned(page), "# T\n\nBody text of the story.\n");
    assert_eq!(pruned("<hr>"), "***\n");
}

#[test]
fn text_white_space_at_the_edges_of_emphasis_goes_outside_it() {
    // turndown's no-break space cases: a delimiter next to U+00A0 can neither close nor open,
    // so `*foo\u{a0}*bar` showed its asterisks.
    for (html, want) in [
        ("<i>foo&nbsp;</i>bar", "_foo_\u{a0}bar\n"),
        ("<i>foo&nbsp;</i>&nbsp;bar", "_foo_\u{a0}\u{a0}bar\n"),
        ("<i>foo </i>&nbsp;bar", "_foo_ \u{a0}bar\n"),
        ("foo<i>&nbsp;bar</i>", "foo\u{a0}*bar*\n"),
        ("foo <i>&nbsp;bar</i>", "foo \u{a0}_bar_\n"),
        ("<b>foo&nbsp;</b>bar", "**foo**\u{a0}bar\n"),
        ("a <b>&nbsp;b&nbsp;</b> c", "a \u{a0}**b**\u{a0} c\n"),
    ] {
        let out = md(html);
        assert_eq!(out, want, "{html}");
        let styled =
            Parser::new(&out).any(|e| matches!(e, Event::Start(Tag::Emphasis | Tag::Strong)));
        assert!(styled, "{html} lost its emphasis:\n{out}");
        assert!(
            !plain_text(&out).contains(['*', '_']),
            "{html} gave:\n{out}"
        );
    }
}

/// Text of the table cells pulldown-cmark reads, row by row (empty when there is no table).
fn table_rows(md: &str) -> Vec<Vec<String>> {
    let mut parser = Parser::new_ext(md, pulldown_cmark::Options::ENABLE_TABLES);
    let mut rows: Vec<Vec<String>> = Vec::new();
    for event in parser.by_ref() {
        match event {
            Event::Start(Tag::TableHead | Tag::TableRow) => rows.push(Vec::new()),
            Event::Start(Tag::TableCell) => {
                if let Some(row) = rows.last_mut() {
                    row.push(String::new());
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(cell) = rows.last_mut().and_then(|r| r.last_mut()) {
                    cell.push_str(&t);
                }
            }
            _ => {}
        }
    }
    rows
}

#[test]
fn a_one_column_table_under_a_header_row_stays_a_table() {
    // turndown-plugin-gfm ("th in first row", "heading cells in both thead and tbody") and
    // python-markdownify (pipes in cells): a header makes one column data, not layout.
    for (html, want) in [
        (
            "<table><tr><th>Heading</th></tr><tr><td>Content</td></tr></table>",
            vec![vec!["Heading"], vec!["Content"]],
        ),
        (
            "<table><thead><tr><th>Heading</th></tr></thead>\
             <tbody><tr><th>Cell</th></tr></tbody></table>",
            vec![vec!["Heading"], vec!["Cell"]],
        ),
        (
            "<table><tr><th>A</th></tr><tr><td>1|2|3</td></tr></table>",
            vec![vec!["A"], vec!["1|2|3"]],
        ),
    ] {
        let out = md(html);
        let rows = table_rows(&out);
        let want: Vec<Vec<String>> = want
            .into_iter()
            .map(|r| r.into_iter().map(String::from).collect())
            .collect();
        assert_eq!(rows, want, "{html} gave:\n{out}");
    }
    // Without a header, one column is still layout: its cells are paragraphs.
    let out = md("<table><tr><td>One</td></tr><tr><td>Two</td></tr></table>");
    assert_eq!(out, "One\n\nTwo\n");
    // An empty table's caption is still shown.
    let out = md("<table><caption>Nothing yet</caption><tbody></tbody></table>");
    assert_eq!(out, "Nothing yet\n");
}

#[test]
fn blocks_inside_a_short_heading_stay_on_its_line() {
    // python-markdownify: `<h3>A <p>p</p> B</h3>` shows one heading "A p B" in a browser.
    for (html, want) in [
        ("<h1>A <p>P</p> C </h1>", "# A P C\n"),
        ("<h3>A <div>div</div> B</h3>", "### A div B\n"),
        (
            "<h3>A <blockquote>quote</blockquote> B</h3>",
            "### A quote B\n",
        ),
    ] {
        assert_eq!(md(html), want, "{html}");
    }
    // An unclosed heading that swallows the page still ends at its first block.
    let long = "word ".repeat(60);
    let out = md(&format!("<h1>Title<p>{long}</p><p>More</p>"));
    assert!(out.starts_with("# Title\n\n"), "{out}");
    assert!(out.contains("\n\nMore\n"), "{out}");
    // A heading holding a list is not flattened either.
    let out = md("<h2>Menu<ul><li>One</li><li>Two</li></ul></h2>");
    assert!(out.starts_with("## Menu\n\n"), "{out}");
    assert!(out.contains("- One\n- Two\n"), "{out}");
}

#[test]
fn white_space_opening_inline_code_keeps_the_words_apart() {
    // python-markdownify: `foo<code> Hello</code> bar` shows "foo Hello bar"; the space that
    // opens the code element must not vanish and glue "foo" to the span.
    for (html, want) in [
        ("foo<code> Hello</code> bar", "foo `Hello` bar\n"),
        ("foo<kbd> Hello</kbd> bar", "foo `Hello` bar\n"),
        ("foo<samp>\nHello</samp>", "foo `Hello`\n"),
        ("foo<code> <b>x</b></code>", "foo `x`\n"),
        ("foo <code> x</code>", "foo `x`\n"),
        ("<p><code> x</code></p>", "`x`\n"),
        ("a<code>b</code><code> c</code>", "a`b c`\n"),
    ] {
        assert_eq!(md(html), want, "{html}");
    }
}

#[test]
fn github_text_scopes_name_the_code_language() {
    // turndown-plugin-gfm "highlighted code block with html": `highlight-text-html-basic`.
    let out = md("<div class=\"highlight highlight-text-html-basic\"><pre>&lt;p&gt;</pre></div>");
    assert_eq!(out, "```html\n<p>\n```\n");
    let out = md("<div class=\"highlight highlight-source-js\"><pre>f()</pre></div>");
    assert_eq!(out, "```js\nf()\n```\n");
}

#[test]
fn a_break_opening_an_inline_element_keeps_the_words_apart() {
    // htmd `basic/italic_with_br`: `d<b><br>e</b>f` shows "d", a line break, then bold "e":
    // never "def". Inside bold or italic the break is kept, before the opener; inside a link
    // or code, which stay on one line, it is a space.
    for (html, want) in [
        ("<p>d<b><br>e</b>f</p>", "d\\\n**e**f\n"),
        ("<p>d<i><br>e</i>f</p>", "d\\\n*e*f\n"),
        ("<p>d<a href=\"/x\"><br>e</a>f</p>", "d [e](/x)f\n"),
        ("<p>d<code><br>e</code>f</p>", "d `e`f\n"),
    ] {
        assert_eq!(md(html), want, "{html}");
    }
}

/// Text as a reader sees it, in runs of the same style: (text, strong, emphasis).
fn styled_runs(md: &str) -> Vec<(String, bool, bool)> {
    let (mut strong, mut em) = (0, 0);
    let mut out: Vec<(String, bool, bool)> = Vec::new();
    for event in Parser::new(md) {
        match event {
            Event::Start(Tag::Strong) => strong += 1,
            Event::End(TagEnd::Strong) => strong -= 1,
            Event::Start(Tag::Emphasis) => em += 1,
            Event::End(TagEnd::Emphasis) => em -= 1,
            Event::Text(t) => {
                let style = (strong > 0, em > 0);
                match out.last_mut() {
                    Some((text, s, e)) if (*s, *e) == style => text.push_str(&t),
                    _ => out.push((t.to_string(), style.0, style.1)),
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn adjacent_emphasis_runs_never_show_delimiters_or_lose_bold() {
    // htmd and html2text suites: a closer directly followed by an opener of the same
    // character is one delimiter run for CommonMark, judged as a whole (rule of 3).
    const P: (bool, bool) = (false, false);
    const S: (bool, bool) = (true, false);
    const E: (bool, bool) = (false, true);
    const SE: (bool, bool) = (true, true);
    let mut failures = Vec::new();
    for (html, want) in [
        (
            "<p><b>one<i>two</b>three</i>four",
            &[("one", S), ("two", SE), ("three", E), ("four", P)][..],
        ),
        ("<p><i>a</i><b><i>b</i></b></p>", &[("a", E), ("b", SE)]),
        (
            "<p>x<b><i>a</i></b><i>b</i>c</p>",
            &[("x", P), ("a", SE), ("b", E), ("c", P)],
        ),
        (
            "<p><i>one<b>two</i>three</b>four",
            &[("one", E), ("two", SE), ("three", S), ("four", P)],
        ),
        (
            "<p>x<b>a</b><b><i>b</i></b>c</p>",
            &[("x", P), ("a", S), ("b", SE), ("c", P)],
        ),
        ("<p>x<b><i>a</i></b>c</p>", &[("x", P), ("a", SE), ("c", P)]),
        ("<p><b><i>a</i></b>after</p>", &[("a", SE), ("after", P)]),
        ("<p>before<b><i>a</i></b></p>", &[("before", P), ("a", SE)]),
        (
            "<p>x<i>a</i><i>b</i>c</p>",
            &[("x", P), ("ab", E), ("c", P)],
        ),
        ("<p><i>a</i><b>b</b></p>", &[("a", E), ("b", S)]),
        (
            "<p>a <b>one <i>two</i></b><i>three</i>four</p>",
            &[
                ("a ", P),
                ("one ", S),
                ("two", SE),
                ("three", E),
                ("four", P),
            ],
        ),
    ] {
        let out = md(html);
        let want: Vec<(String, bool, bool)> = want
            .iter()
            .map(|(t, (s, e))| (t.to_string(), *s, *e))
            .collect();
        if plain_text(&out).contains(['*', '_']) || styled_runs(&out) != want {
            failures.push(format!(
                "{html} gave {out:?}, read as {:?}",
                styled_runs(&out)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Prose long enough for the main-content scorer to take it for an article paragraph.
fn prose() -> String {
    "This chapter describes how the packages are built, which policy applies to them, and \
     why, in enough words to read as a paragraph of prose. "
        .repeat(2)
}

#[test]
fn a_toctree_wrapper_holding_the_document_is_kept() {
    // Sphinx `singlehtml` inlines every chapter into its `div.toctree-wrapper`.
    let p = prose();
    let html = format!(
        "<html><body><div class=\"related\" role=\"navigation\"><a href=\"genindex.html\">index</a>\
         </div><div class=\"body\" role=\"main\"><section><h1>Abstract</h1><p>{p}</p></section>\
         <section><h1>Contents</h1><div class=\"toctree-wrapper compound\"><section>\
         <h2>1. Packaging</h2><p>{p}</p><pre>Depends: python3 (&gt;= 3.11)</pre></section>\
         </div></section></div></body></html>"
    );
    let out = pruned(&html);
    assert!(out.contains("\n## 1. Packaging\n"), "in:\n{out}");
    assert!(out.contains("Depends: python3 (>= 3.11)"), "in:\n{out}");
    assert!(!out.contains("genindex"), "in:\n{out}");
    // On an index page, a table of contents that is only links is what the page is for.
    let toc = "<html><body><div class=\"body\" role=\"main\"><h1>Welcome</h1><p>Intro paragraph \
               for the documentation index page, long enough to read as prose here.</p>\
               <div class=\"toctree-wrapper compound\"><ul><li><a href=\"a.html\">Installation</a>\
               </li><li><a href=\"b.html\">Usage</a></li></ul></div></div></body></html>";
    let out = pruned(toc);
    assert!(out.contains("Intro paragraph"), "in:\n{out}");
    assert!(out.contains("- [Installation](a.html)"), "in:\n{out}");
    // Otherwise it is judged as any list of links: inside an explicit main content it stays
    // (above), in scored content after a chapter's text, unannounced, it is left out.
    let chapter = toc.replace(" role=\"main\"", "").replace(
        "</p><div",
        &format!("</p>{}<div", format!("<p>{p}</p>").repeat(4)),
    );
    let out = pruned(&chapter);
    assert!(
        out.contains("enough words to read as a paragraph"),
        "in:\n{out}"
    );
    assert!(!out.contains("Installation"), "in:\n{out}");
}

#[test]
fn a_heading_inside_a_summary_stays_a_heading() {
    // rustdoc wraps every method signature in `<details><summary><section><h4>`.
    let html = "<html><body><main><details class=\"toggle method-toggle\" open><summary>\
                <section id=\"method.new\" class=\"method\"><span class=\"rightside\">\
                <span class=\"since\">1.0.0</span> · <a class=\"src\" href=\"src.html\">Source</a>\
                </span><h4 class=\"code-header\">pub fn <a href=\"#method.new\" class=\"fn\">new</a>\
                () -&gt; Vec&lt;T&gt;</h4></section></summary><div class=\"docblock\">\
                <p>Constructs a new, empty Vec.</p></div></details></main></body></html>";
    let out = md(html);
    assert!(
        out.lines().any(|l| l.starts_with("#### pub fn new()")),
        "in:\n{out}"
    );
    assert!(!out.contains("**"), "in:\n{out}");
    assert!(out.contains("Constructs a new, empty Vec."), "in:\n{out}");
    // A summary of plain text is still its bold label.
    let out = md("<details><summary>More options</summary><p>Hidden text.</p></details>");
    assert!(out.starts_with("**More options**"), "in:\n{out}");
    // rustdoc's "Expand description" toggle is shown only while its details are closed.
    let toggle = |open: &str| {
        md(&format!(
            "<details class=\"toggle top-doc\"{open}><summary class=\"hideme\"><span>Expand \
             description</span></summary><div class=\"docblock\"><p>Docs.</p></div></details>"
        ))
    };
    assert_eq!(toggle(" open"), "Docs.\n");
    assert_eq!(toggle(""), "**Expand description**\n\nDocs.\n");
}

#[test]
fn a_floated_source_link_follows_its_heading() {
    // rustdoc writes each item's `Source` link before the item's heading; CSS floats it onto
    // the heading's line. Before the heading it would end the previous item's section.
    let item = |id: &str, src: &str| {
        format!(
            "<details class=\"toggle method-toggle\" open><summary><section id=\"method.{id}\" \
             class=\"method\"><span class=\"rightside\"><span class=\"since\">1.0.0</span> · \
             <a class=\"src\" href=\"{src}\">Source</a></span><a href=\"#method.{id}\" \
             class=\"anchor\">§</a><h4 class=\"code-header\">pub fn {id}()</h4></section>\
             </summary><div class=\"docblock\"><p>Docs of {id}.</p></div></details>"
        )
    };
    let html = format!(
        "<main>{}{}</main>",
        item("new", "a.html"),
        item("len", "b.html")
    );
    let out = md(&html);
    let at = |needle: &str| {
        out.find(needle)
            .unwrap_or_else(|| panic!("{needle} in:\n{out}"))
    };
    assert!(
        at("#### pub fn new()") < at("1.0.0 · [Source](a.html)"),
        "in:\n{out}"
    );
    assert!(at("[Source](a.html)") < at("Docs of new."), "in:\n{out}");
    assert!(at("Docs of new.") < at("#### pub fn len()"), "in:\n{out}");
    assert!(
        at("#### pub fn len()") < at("[Source](b.html)"),
        "in:\n{out}"
    );
    assert!(at("[Source](b.html)") < at("Docs of len."), "in:\n{out}");
    // Older rustdoc: a bare link with `class="src rightside"`, and `out-of-band`.
    let out = md(
        "<section><a class=\"src rightside\" href=\"s.html\">source</a>\
                  <h3 class=\"code-header\">impl Foo</h3><p>Body.</p></section>",
    );
    assert_eq!(
        out, "### impl Foo\n\n[source](s.html)\n\nBody.\n",
        "in:\n{out}"
    );
    let out = md(
        "<div><span class=\"out-of-band\"><a href=\"s.html\">source</a></span>\
                  <h2>Trait Foo</h2></div>",
    );
    assert_eq!(out, "## Trait Foo\n\n[source](s.html)\n", "in:\n{out}");
    // A hidden heading, or none at all: the floated element stays where it is.
    let out = md(
        "<div><span class=\"rightside\"><a href=\"s.html\">source</a></span>\
                  <h2 hidden>Gone</h2><p>After.</p></div>",
    );
    assert_eq!(out, "[source](s.html)\n\nAfter.\n", "in:\n{out}");
    let out = md("<div><span class=\"rightside\">Edit</span><p>Text.</p><h2>Next</h2></div>");
    assert_eq!(out, "Edit\n\nText.\n\n## Next\n", "in:\n{out}");
}

#[test]
fn separators_between_links_inside_code_are_text() {
    // Javadoc's "Methods inherited from class": links inside one `<code>`.
    let out = md(
        "<code><a href=\"c.html\">clone</a>, <a href=\"e.html\">equals</a>, \
                  <a href=\"w.html\">wait</a></code>",
    );
    assert_eq!(
        out,
        "[`clone`](c.html), [`equals`](e.html), [`wait`](w.html)\n"
    );
    // Code around the links stays code, and so does a separator before any link or one that
    // is not a plain `,`/`;`.
    let out = md("<code>f(<a href=\"t.html\">T</a> x, <a href=\"u.html\">U</a> y)</code>");
    assert_eq!(out, "`f(`[`T`](t.html) `x,` [`U`](u.html) `y)`\n");
    let out = md("<code>, <a href=\"a.html\">a</a> | <a href=\"b.html\">b</a></code>");
    assert_eq!(out, "`,` [`a`](a.html) `|` [`b`](b.html)\n");
    // A code element of its own is code, whatever it holds.
    let out = md("<p>The <a href=\"x.html\">x</a><code>,</code> operator.</p>");
    assert_eq!(out, "The [x](x.html)`,` operator.\n");
}

#[test]
fn a_link_list_introduced_by_a_heading_or_a_lead_in_is_not_a_link_farm() {
    let p = prose();
    let see_also = format!(
        "<html><head><title>npm-install</title></head><body><header><a href=\"/\">npm Docs</a>\
         </header><section id=\"content\"><h1>npm-install</h1><p>{p}</p><p>{p}</p>\
         <h3 id=\"see-also\">See Also</h3><ul><li><a href=\"folders.html\">npm folders</a></li>\
         <li><a href=\"update.html\">npm update</a></li><li><a href=\"audit.html\">npm audit</a>\
         </li></ul></section></body></html>"
    );
    let out = pruned(&see_also);
    assert!(out.contains("- [npm folders](folders.html)"), "in:\n{out}");
    assert!(out.contains("- [npm audit](audit.html)"), "in:\n{out}");
    // A lead-in sentence, with the list inside a wrapper `div` (DocBook's itemizedlist).
    let lead_in = format!(
        "<html><head><title>xsltproc</title></head><body><div class=\"refentry\"><h2>Name</h2>\
         <p>{p}</p><div class=\"refsect1\"><h2>More Information</h2><p>More information can be \
         found at</p><div class=\"itemizedlist\"><ul class=\"itemizedlist\"><li><p>libxml web page \
         <a href=\"https://gitlab.gnome.org/GNOME/libxslt\">https://gitlab.gnome.org/GNOME/libxslt\
         </a></p></li><li><p>W3C XSLT page <a href=\"http://www.w3.org/TR/xslt\">\
         http://www.w3.org/TR/xslt</a></p></li></ul></div></div></div></body></html>"
    );
    let out = pruned(&lead_in);
    assert!(out.contains("http://www.w3.org/TR/xslt"), "in:\n{out}");
    // After a finished sentence, a list of titled links is still related-links furniture.
    let finished = lead_in.replace("found at</p>", "found online.</p>");
    let farm = finished
        .replace(
            ">https://gitlab.gnome.org/GNOME/libxslt</a>",
            ">the libxslt project</a>",
        )
        .replace(
            ">http://www.w3.org/TR/xslt</a>",
            ">the XSLT recommendation</a>",
        );
    let out = pruned(&farm);
    assert!(out.contains("found online."), "in:\n{out}");
    assert!(!out.contains("http://www.w3.org/TR/xslt"), "in:\n{out}");
    // Addresses written out are the text's own references, whatever comes before them.
    let out = pruned(&finished);
    assert!(
        out.contains("[http://www.w3.org/TR/xslt](http://www.w3.org/TR/xslt)"),
        "in:\n{out}"
    );
}

#[test]
fn a_heading_beside_the_chosen_content_is_kept() {
    // Texinfo: the section heading is a sibling of the paragraph and example it heads.
    let lines: String = (0..25)
        .map(|i| {
            format!("  ffi_prep_closure_loc(closure, &amp;cif, puts_binding, stdout); /* {i} */\n")
        })
        .collect();
    let html = format!(
        "<html><head><title>Closure Example (libffi)</title></head><body>\
         <div class=\"section\" id=\"Closure-Example\"><div class=\"header\"><p>Next: \
         <a href=\"Thread-Safety.html\">Thread Safety</a>, Up: <a href=\"Using.html\">Using \
         libffi</a></p></div><hr><span id=\"Closure-Example-1\"></span>\
         <h3 class=\"section\">2.6 Closure Example</h3><p>A trivial example that creates a new \
         <code>puts</code> by binding <code>fputs</code> with <code>stdout</code>.</p>\
         <div class=\"example\"><pre class=\"example\">int main() {{\n{lines}}}\n</pre></div></div>\
         </body></html>"
    );
    let out = pruned(&html);
    assert!(out.contains("### 2.6 Closure Example\n"), "in:\n{out}");
    assert!(out.contains("A trivial example"), "in:\n{out}");
    assert!(!out.contains("Thread Safety"), "in:\n{out}");
}

#[test]
fn blocks_and_a_second_code_inside_pre_start_new_lines() {
    // rustdoc's `<div class="where">` inside a declaration.
    let out = md(
        "<pre class=\"rust item-decl\"><code>pub struct Vec&lt;T, A = Global&gt;<div \
         class=\"where\">where\n    A: Allocator,</div>{ /* private fields */ }</code></pre>",
    );
    assert_eq!(
        out,
        "```rust\npub struct Vec<T, A = Global>\nwhere\n    A: Allocator,\n{ /* private fields */ }\n```\n",
        "in:\n{out}"
    );
    // Node.js docs: the CommonJS and ES module flavours of one example in one `<pre>`.
    let out = md(
        "<pre><code class=\"language-js cjs\">const { URL } = require('node:url');</code>\
         <code class=\"language-js mjs\">import { URL } from 'node:url';</code></pre>",
    );
    assert!(
        out.contains("require('node:url');\nimport { URL }"),
        "in:\n{out}"
    );
}

#[test]
fn headings_rules_and_quotes_inside_pre_start_new_lines() {
    // node-html-markdown's suite: a browser lays each of these out on a line of its own.
    let out = md(
        "<pre><code>a<hr>b<h2>c</h2>d<blockquote>e</blockquote>f<ul><li>g</li></ul>h</code></pre>",
    );
    assert_eq!(out, "```\na\nb\nc\nd\ne\nf\ng\nh\n```\n", "in:\n{out}");
    // Inline elements stay on the line.
    let out = md("<pre><code>a<b>b</b><span>c</span>d</code></pre>");
    assert_eq!(out, "```\nabcd\n```\n", "in:\n{out}");
}

#[test]
fn data_language_names_the_code_language() {
    // rehype-pretty-code writes the language only in `data-language`, on `<pre>` and `<code>`.
    let out = md("<pre data-language=\"TSX\"><code data-language=\"tsx\">let a = 1;</code></pre>");
    assert_eq!(out, "```tsx\nlet a = 1;\n```\n", "in:\n{out}");
    // A class still wins; characters that could break the info string go.
    let out = md("<pre data-language=\"js\"><code class=\"language-ts\">x</code></pre>");
    assert!(out.starts_with("```ts\n"), "in:\n{out}");
    let out = md("<pre data-language=\"c`~{x}\"><code>x</code></pre>");
    assert!(out.starts_with("```cx\n"), "in:\n{out}");
    let out = md("<pre data-language=\"none\"><code>x</code></pre>");
    assert!(out.starts_with("```\n"), "in:\n{out}");
}

/// The document as a reader sees it, in HTML-like shorthand: paragraphs, headings, quotes,
/// items, cells, links, strong (`<b>`), emphasis (`<i>`), strikethrough (`<s>`), code and
/// hard breaks (`<br>`); a soft line break is a space, as a browser shows it.
fn shape(md: &str) -> String {
    let opts =
        pulldown_cmark::Options::ENABLE_TABLES | pulldown_cmark::Options::ENABLE_STRIKETHROUGH;
    let mut out = String::new();
    for event in Parser::new_ext(md, opts) {
        let s = match &event {
            Event::Start(Tag::Paragraph) => "<p>",
            Event::End(TagEnd::Paragraph) => "</p>",
            Event::Start(Tag::Heading { .. }) => "<h>",
            Event::End(TagEnd::Heading(_)) => "</h>",
            Event::Start(Tag::BlockQuote(_)) => "<blockquote>",
            Event::End(TagEnd::BlockQuote(_)) => "</blockquote>",
            Event::Start(Tag::Item) => "<li>",
            Event::End(TagEnd::Item) => "</li>",
            Event::Start(Tag::TableCell) => "<td>",
            Event::End(TagEnd::TableCell) => "</td>",
            Event::Start(Tag::Link { .. }) => "<a>",
            Event::End(TagEnd::Link) => "</a>",
            Event::Start(Tag::Strong) => "<b>",
            Event::End(TagEnd::Strong) => "</b>",
            Event::Start(Tag::Emphasis) => "<i>",
            Event::End(TagEnd::Emphasis) => "</i>",
            Event::Start(Tag::Strikethrough) => "<s>",
            Event::End(TagEnd::Strikethrough) => "</s>",
            Event::HardBreak => "<br>",
            Event::SoftBreak => " ",
            Event::Text(t) => t,
            Event::Code(c) => {
                out.push_str("<code>");
                out.push_str(c);
                out.push_str("</code>");
                continue;
            }
            _ => "",
        };
        out.push_str(s);
    }
    out
}

#[test]
fn a_break_inside_bold_italic_or_strikethrough_is_a_line_break() {
    // htmd, html2text and html2md suites: `<b>Our multiline<br>bold text</b>` is two lines
    // of bold, not one. Inside links, headings and cells, which keep to one line, the break
    // stays a space.
    let cases = [
        ("<p><b>a<br>b</b></p>", "<p><b>a<br>b</b></p>"),
        ("<p><i>a<br>b</i></p>", "<p><i>a<br>b</i></p>"),
        ("<p><s>a<br>b</s></p>", "<p><s>a<br>b</s></p>"),
        // A break right after an opener goes before it (it could not open before a line
        // break); at the start of a paragraph it is dropped, as everywhere.
        ("<p><i><br>a</i></p>", "<p><i>a</i></p>"),
        ("<p>x<i><br>a</i></p>", "<p>x<br><i>a</i></p>"),
        ("<p>x<b><i><br>a</i></b></p>", "<p>x<br><b><i>a</i></b></p>"),
        ("<p>x <b> <br>a</b></p>", "<p>x<br><b>a</b></p>"),
        // One ending the span goes after its closer (which could not close at a line start).
        ("<p><b>a<br></b>b</p>", "<p><b>a</b><br>b</p>"),
        ("<p><b>a<br><br></b>b</p>", "<p><b>a</b><br><br>b</p>"),
        ("<p><b>a<br></b><b>c</b></p>", "<p><b>a</b><br><b>c</b></p>"),
        ("<p>a<b><br></b>c</p>", "<p>a<br>c</p>"),
        (
            "<p><b><a href=\"/u\">l</a><br></b>x</p>",
            "<p><b><a>l</a></b><br>x</p>",
        ),
        // Two breaks inside an open span stay two breaks: a paragraph break would end the
        // paragraph inside the span.
        ("<p><b>a<br><br>b</b></p>", "<p><b>a<br><br>b</b></p>"),
        (
            "<p><b>x<i><br><br>y</i></b></p>",
            "<p><b>x<br><br><i>y</i></b></p>",
        ),
        // Outside any span with content, `<br><br>` still separates paragraphs.
        ("<p>a<br><b><br>b</b></p>", "<p>a</p><p><b>b</b></p>"),
        ("<p><b><i>a<br>b</i></b></p>", "<p><b><i>a<br>b</i></b></p>"),
        (
            "<p>x<b>a</b><br><i>b</i></p>",
            "<p>x<b>a</b><br><i>b</i></p>",
        ),
        ("<p><b>x</b><b><br>y</b></p>", "<p><b>x<br>y</b></p>"),
        // Text that would start a block on its own line is escaped there.
        ("<p><b>a<br>- b</b></p>", "<p><b>a<br>- b</b></p>"),
        ("<p><b>a<br># b</b></p>", "<p><b>a<br># b</b></p>"),
        ("<ul><li><b>a<br>b</b></li></ul>", "<li><b>a<br>b</b></li>"),
        (
            "<blockquote><p><i>a<br>b</i></p></blockquote>",
            "<blockquote><p><i>a<br>b</i></p></blockquote>",
        ),
        // A link around blocks (a card) links each block's text, breaks and all.
        (
            "<a href=\"/u\"><h3>T</h3><p><b>a<br>x</b></p></a>",
            "<h><a>T</a></h><p><a><b>a<br>x</b></a></p>",
        ),
        (
            "<a href=\"/u\"><h3>T</h3><p><b><br>x</b></p></a>",
            "<h><a>T</a></h><p><a><b>x</b></a></p>",
        ),
        // One-line contexts.
        (
            "<p><a href=\"/u\"><b>a<br>b</b></a></p>",
            "<p><a><b>a b</b></a></p>",
        ),
        ("<h2><b>a<br>b</b></h2>", "<h><b>a b</b></h>"),
        (
            "<table><tr><th>h</th></tr><tr><td><i>a<br>b</i></td></tr></table>",
            "<td>h</td><td><i>a b</i></td>",
        ),
        (
            "<p><b>a<br><code>c<br>d</code></b></p>",
            "<p><b>a<br><code>c d</code></b></p>",
        ),
        ("<dl><dt>a<br>b</dt></dl>", "<p><b>a b</b></p>"),
    ];
    let mut failures = Vec::new();
    for (html, want) in cases {
        let out = md(html);
        let got = shape(&out);
        if got != want {
            failures.push(format!(
                "{html}\n  gave {out:?}\n  read {got}\n  want {want}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn many_breaks_inside_one_bold_span_stay_inside_it() {
    let html = format!("<p><b>{}</b></p>", "a<br>".repeat(10_000));
    let got = shape(&md(&html));
    let want = format!("<p><b>{}a</b></p>", "a<br>".repeat(9_999));
    assert!(got == want, "read {}…", got.get(..200).unwrap_or(&got));
    // Before the span has content, breaks go before its opener, and two of them separate
    // paragraphs as outside it.
    let html = format!("<p>x<b>{}y</b></p>", "<br>".repeat(1_000));
    assert_eq!(shape(&md(&html)), "<p>x</p><p><b>y</b></p>");
}

#[test]
fn nested_emphasis_that_cannot_close_drops_its_markers_not_the_text() {
    // Each page, and how pulldown-cmark must read the Markdown: no literal delimiter, the text
    // kept, and the emphasis that has a spelling present.
    let cases = [
        // Three levels whose closers meet a word: the two outer ones cannot close after
        // punctuation, the emphasis inside takes `*`.
        ("<p><s><b><i>a</i></b></s>y</p>", "<p><i>a</i>y</p>"),
        ("<p><b><s><i>a</i></s></b>y</p>", "<p><i>a</i>y</p>"),
        // Three levels whose openers follow a word.
        ("<p>x<b><s><i>b</i></s></b></p>", "<p>x<i>b</i></p>"),
        ("<p>x<b><s><i>a</i>(e)</s></b>y</p>", "<p>x<i>a</i>(e)y</p>"),
        // Leading white space inside nested spans goes before all their openers (`***c***`
        // reads as emphasis around strong: the same text in both).
        ("<p><b><i> c</i></b>y</p>", "<p><i><b>c</b></i>y</p>"),
        ("<p>x <b><i> c</i></b>y</p>", "<p>x <i><b>c</b></i>y</p>"),
        ("<p><s><i> c</i></s>f.d y</p>", "<p><i>c</i>f.d y</p>"),
        // An empty span inside adds no space, and one with white space adds exactly it.
        ("<p>x<s></s>y</p>", "<p>xy</p>"),
        ("<p><b>(<s></s></b>a</p>", "<p>(a</p>"),
        ("<p><b>(<s> </s></b>a</p>", "<p><b>(</b> a</p>"),
        ("<p><b><s></s> x</b></p>", "<p><b>x</b></p>"),
        ("<p>x<b><i>d </i><i></i></b></p>", "<p>x<i><b>d</b></i></p>"),
        // A closer after punctuation whose next span's markers go meets that span's text.
        ("<p><b>(</b><s>f.</s>y</p>", "<p>(f.y</p>"),
        // A merged span ending in emphasis: the emphasis takes `*` before the word.
        ("<p><b><i>a</i></b><b>a</b></p>", "<p><b><i>a</i>a</b></p>"),
        ("<p><i>a</i><b></b>y</p>", "<p><i>a</i>y</p>"),
        // Emphasis right after a `***` closer has no spelling: its text stays, plain. After
        // `**` alone the run of three reads.
        (
            "<p>x<b>one<i>two</i></b><i>three</i>four</p>",
            "<p>x<b>one<i>two</i></b>threefour</p>",
        ),
        ("<p>a <b>b</b><i>c</i>d</p>", "<p>a <b>b</b><i>c</i>d</p>"),
    ];
    let mut failures = Vec::new();
    for (html, want) in cases {
        let out = md(html);
        let got = shape(&out);
        let text = plain_text(&out);
        if got != want || text.contains(['*', '_', '~']) {
            failures.push(format!(
                "{html}\n  gave {out:?}\n  read {got}\n  want {want}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The text a GFM reader sees (strikethrough and tables on: text and code, formatting
/// dropped, a space between paragraphs and cells), white space collapsed.
fn read_text(md: &str) -> String {
    let opts =
        pulldown_cmark::Options::ENABLE_TABLES | pulldown_cmark::Options::ENABLE_STRIKETHROUGH;
    let mut text = String::new();
    for event in Parser::new_ext(md, opts) {
        match event {
            Event::Text(t) | Event::Code(t) => text.push_str(&t),
            Event::SoftBreak
            | Event::HardBreak
            | Event::End(TagEnd::Paragraph | TagEnd::TableCell) => text.push(' '),
            _ => {}
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn emphasis_markers_a_reader_would_not_pair_go_and_their_text_stays() {
    // Random nestings of `<b>`/`<i>`/`<s>` (scripts/emphasis_fuzz.py) whose Markdown showed a
    // literal `*`, `_` or `~`: adjacent spans whose runs merged (`*a**a*`), closers after
    // punctuation before a word, `_` inside a word, `~~` that cannot close. The text read
    // back is the page's, white space included.
    let cases = [
        ("<p>x<b><s><i>d f.</i></s></b>y</p>", "xd f.y"),
        ("<p>x<b>(e)<i><b>b c</b></i></b>y</p>", "x(e)b cy"),
        ("<p>x<i><b><s>d b(e)</s></b></i>y</p>", "xd b(e)y"),
        ("<p>x<s><i><s>b </s></i><b>b</b></s></p>", "xb b"),
        ("<p><i>(e)<i><i>a</i></i></i><s><i>a</i></s>y</p>", "(e)aay"),
        ("<p>x b<b><i><b> (e)</b></i></b><b>ba</b></p>", "x b (e)ba"),
        ("<p>x<i>a</i><b><i>af.<i>(e)</i></i></b></p>", "xaaf.(e)"),
        (
            "<p><s>a<i><b>a(e)</b></i><i>b</i></s>a cy</p>",
            "aa(e)ba cy",
        ),
        (
            "<p>x <i><b> b</b></i><i><b><b>b</b></b>b</i>y</p>",
            "x bbby",
        ),
        ("<p>x<b><i>d </i><i>b</i>(e)</b> y</p>", "xd b(e) y"),
        (
            "<p>x <b>(e)</b><i><b><s>d f.</s>f.</b></i>y</p>",
            "x (e)d f.f.y",
        ),
        // In a heading and a table cell too.
        ("<h2>x<b><s><i>d f.</i></s></b>y</h2>", "xd f.y"),
        (
            "<table><tr><th>h</th></tr><tr><td>x<i><b><s>d b(e)</s></b></i>y</td></tr></table>",
            "h xd b(e)y",
        ),
        // The space between a word and the next span stays (it gave `(x_a_`).
        ("<p><b>(</b>x <i>a</i></p>", "(x a"),
    ];
    let mut failures = Vec::new();
    for (html, want) in cases {
        let out = md(html);
        let text = read_text(&out);
        if text.contains(['*', '_', '~']) || text != want {
            failures.push(format!(
                "{html}\n  gave {out:?}\n  read {text:?}\n  want {want:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_delimiter_check_leaves_page_text_code_and_links_alone() {
    // A paragraph whose markers are checked (a span that cannot close) keeps `snake_case`,
    // code, link text and destinations, and a lone `*` of page text as they were.
    let out = md(
        "<p>snake_case <code>*x_</code> a * b <a href=\"https://e.com/a_b_~c\">l_x</a> \
                  x<b><s><i>d f.</i></s></b>y</p>",
    );
    assert_eq!(
        out,
        "snake_case `*x_` a * b [l_x](https://e.com/a_b_~c) xd f.y\n"
    );
    // Page text ending in a run of `*` that the next element continues: not told from a
    // marker, so nothing in the paragraph is removed.
    let out = md("<p>a **<span>b</span> <i>x</i><b>y</b>z</p>");
    assert!(out.starts_with("a **b "), "{out:?}");
    // The same right before the first marker (GTK-Doc: `if *<em>definitions</em>`).
    for html in [
        "<p>if *<em><code>p</code></em> is NULL</p>",
        "<p><b>x</b> if *<em><code>p</code></em> is NULL</p>",
    ] {
        let out = md(html);
        assert!(out.contains("if *_`p`_ is"), "{html}: {out:?}");
    }
}

#[test]
fn no_break_and_plain_spaces_at_an_emphasis_edge_go_outside_its_markers() {
    // node-html-markdown's tag-edge-whitespace cases: `&nbsp; ` or ` &nbsp;` at the edge of
    // a span left a space beside its marker, which then could not open or close (the span
    // lost its emphasis, or a literal `**` showed).
    let cases = [
        (
            "<p>x <b>Label: &nbsp;</b>Value</p>",
            "<p>x <b>Label:</b> \u{a0}Value</p>",
        ),
        (
            "<p><b>&nbsp; Label: &nbsp;</b>Value</p>",
            "<p><b>Label:</b> \u{a0}Value</p>",
        ),
        ("<p>x <i>&nbsp; y</i> z</p>", "<p>x \u{a0} <i>y</i> z</p>"),
        ("<p>x <s>y &nbsp; </s>z</p>", "<p>x <s>y</s> \u{a0} z</p>"),
        // A hard break at the end keeps its backslash.
        (
            "<p>a<i>b &nbsp;<br></i>c</p>",
            "<p>a<i>b</i> \u{a0}<br>c</p>",
        ),
    ];
    for (html, want) in cases {
        let out = md(html);
        assert_eq!(shape(&out), want, "{html} gave:\n{out}");
        assert!(!plain_text(&out).contains('*'), "{html} gave:\n{out}");
    }
}

#[test]
fn an_empty_header_row_stays_the_header() {
    // turndown-plugin-gfm and htmd: `<thead>` of empty `<th>`s over data is an empty header,
    // not a reason to make the first data row the header.
    let out = md("<table><thead><tr><th></th><th><br></th></tr></thead>\
                  <tbody><tr><td>a</td><td>b</td></tr></tbody></table>");
    assert_eq!(
        shape(&out),
        "<td></td><td></td><td>a</td><td>b</td>",
        "in:\n{out}"
    );
    // A row of `<th>`s right after it is the header itself (the older plugin's case).
    let out = md("<table><thead><tr><th></th></tr></thead>\
                  <tbody><tr><th>Heading</th></tr><tr><td>x</td></tr></tbody></table>");
    assert_eq!(out, "| Heading |\n| --- |\n| x |\n", "in:\n{out}");
    // An empty header over nothing is no table.
    let out = md("<table><thead><tr><th></th></tr></thead></table><p>x</p>");
    assert_eq!(out, "x\n", "in:\n{out}");
}

#[test]
fn page_text_beside_markers_and_code_reads_back_unchanged() {
    // Found by reading random inline text of Markdown punctuation back with a CommonMark
    // reader: each lost or changed the text a reader sees, not just its formatting.
    let cases = [
        // A `*` or `~` that ended the text before a closer was taken for a marker and removed
        // (with the emphasis), or joined the closer into a run that closes nothing.
        ("<p><i>a b * </i></p>", "a b *"),
        ("<p><b>Name *</b></p>", "Name *"),
        ("<p><b>a b * </b>c</p>", "a b * c"),
        ("<p><i>a b ~ </i>c</p>", "a b ~ c"),
        ("<p><a href=\"/x\">1<b> </b>* </a></p>", "1 *"),
        // ... or before an opener, a code span or the next text, which made it open.
        ("<p><b>) *<s>a</s></b></p>", ") *a"),
        ("<p><b>a *<span>1</span></b></p>", "a *1"),
        ("<p><b>x *<em>f</em></b></p>", "x *f"),
        ("<p>a *<code>x</code></p>", "a *x"),
        // `_` beside a no-break space can open or close: it is escaped there.
        ("<p><em>b_&nbsp;</em>c</p>", "b_ c"),
        ("<p>x <em>&nbsp;_x</em></p>", "x _x"),
        // An escaped backtick before a code span needs no space between them.
        ("<p>a`<code>b</code></p>", "a`b"),
        // Removed emphasis between two code spans: they stay two.
        ("<p><code>a</code><i><code>b</code></i>c</p>", "a bc"),
        // A dropped empty link left its opener's position behind, which took the space
        // after the next one-letter word.
        ("<p><a href=\"/s\"></a>a /</p>", "a /"),
        // A link or code holding only white space still separates its neighbours.
        ("<p>(<a href=\"/c\"> </a>&amp;</p>", "( &"),
        ("<p>x<code> <a href=\"/p\">b</a></code></p>", "x b"),
        ("<p><code><a href=\"/p\">b </a></code>r</p>", "b r"),
        ("<p>a<b><code> x</code></b></p>", "a x"),
        ("<p><kbd>C<a href=\"/s\"> -</a></kbd></p>", "C -"),
    ];
    for (html, want) in cases {
        let out = md(html);
        assert_eq!(read_text(&out), want, "{html} -> {out:?}");
    }
    // Still no backslash where none is needed.
    assert_eq!(md("<p>a * b, 2 * 3 ~ 4</p>"), "a * b, 2 * 3 ~ 4\n");
}
