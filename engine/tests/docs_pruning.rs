//! Main-content pruning on documentation generators' page shapes: what a docs page holds
//! beside its main text (footnotes, further sections, short API lines) is content.
//! Each case is cut down from a real generated page (Sphinx/docutils, Haddock, Erlang's
//! erl_docgen, Doxygen, AsciiDoc, qdoc).
mod common;
use common::pruned;

#[test]
fn docutils_footnotes_in_an_aside_are_kept() {
    // docs.python.org (docutils >= 0.18): the footnote list is an `<aside>`; dropping it
    // left a bare "Footnotes" label and `[1]` pointing nowhere.
    let page = r##"<html><body><main><h1>Defining Functions</h1>
<p>Arguments are passed using call by value. <a class="footnote-reference brackets"
href="#id2" id="id1" role="doc-noteref">[1]</a> A new local symbol table is created.</p>
<p class="rubric">Footnotes</p>
<aside class="footnote-list brackets">
<aside class="footnote brackets" id="id2" role="doc-footnote">
<span class="label">[<a role="doc-backlink" href="#id1">1</a>]</span>
<p>Actually, <em>call by object reference</em> would be a better description.</p>
</aside></aside>
<aside class="related"><h2>Related</h2><p>Site links that are not the document.</p></aside>
</main></body></html>"##;
    let md = pruned(page);
    assert!(
        md.contains("Actually, _call by object reference_ would be a better description."),
        "{md}"
    );
    // Any other aside is still what it was: beside the content.
    assert!(!md.contains("Site links"), "{md}");
}

/// `n` copies of a paragraph of prose.
fn paragraphs(n: usize, text: &str) -> String {
    (0..n).map(|_| format!("<p>{text}</p>\n")).collect()
}

#[test]
fn a_short_section_beside_a_long_one_is_kept() {
    // qdoc's class pages: "Detailed Description" (a few paragraphs) beside the much longer
    // member documentation scored under a fifth of it and was dropped whole.
    let page = format!(
        "<html><body><div class=\"description\"><h2>Detailed Description</h2>{}</div>\
         <div class=\"members\"><h2>Member Function Documentation</h2>{}</div>\
         <div class=\"related\"><h2>More from the blog</h2><ul>{}</ul></div></body></html>",
        paragraphs(
            2,
            "QString stores a string of 16-bit QChars, where each QChar corresponds to one UTF-16 code unit."
        ),
        paragraphs(
            20,
            "Appends the byte array to this string, converted to Unicode with the fromUtf8 function, and more."
        ),
        (0..6)
            .map(|i| format!("<li><a href=\"/blog/{i}\">A story about strings number {i}</a></li>"))
            .collect::<String>(),
    );
    let md = pruned(&page);
    assert!(md.contains("## Detailed Description"), "{md}");
    assert!(md.contains("corresponds to one UTF-16 code unit"), "{md}");
    assert!(md.contains("## Member Function Documentation"), "{md}");
    // A link list beside the content is still not the document.
    assert!(!md.contains("A story about strings"), "{md}");
    // A table of links under a heading is still a list of links.
    assert!(!md.contains("A popular page"), "{md}");
}

#[test]
fn short_api_lines_with_links_inside_the_content_are_kept() {
    let prose = paragraphs(
        6,
        "Returns true if Pred(Elem) returns true for all elements Elem in List, otherwise false.",
    );
    // Erlang's erl_docgen: one type per line, the type a link. One link is a reference,
    // not a link farm.
    let erlang = format!(
        "<html><body><div id=\"content\"><h2>all(Pred, List) -&gt; boolean()</h2>\
         <div class=\"REFTYPES\"><span class=\"bold_code\">List = [T]</span></div>\
         <div class=\"REFTYPES\"><span class=\"bold_code\">T = <a href=\"/erts/erlang.html#type-term\">term()</a></span></div>\
         {prose}</div></body></html>"
    );
    let md = pruned(&erlang);
    assert!(
        md.contains("T = [term()](/erts/erlang.html#type-term)"),
        "{md}"
    );
    // A line that defines a name by several links: `Thing = atom() | integer() | …`.
    let types = |line: &str| {
        format!(
            "<html><body><div id=\"content\"><h2>concat(Things) -&gt; string()</h2>\
             <div class=\"REFTYPES\"><span class=\"bold_code\">Things = [Thing]</span></div>\
             <div class=\"REFTYPES\"><span class=\"bold_code\">{line}</span></div>\
             {prose}</div></body></html>"
        )
    };
    let md = pruned(&types(
        "Thing = <a href=\"/t#atom\">atom()</a> | <a href=\"/t#integer\">integer()</a> | \
         <a href=\"/t#float\">float()</a> | <a href=\"/t#string\">string()</a>",
    ));
    assert!(
        md.contains("Thing = [atom()](/t#atom) | [integer()](/t#integer) | [float()](/t#float)"),
        "{md}"
    );
    // Or a name and ` = ` open it, before a tuple (wx's `Option = {r, integer()} | …`).
    let md = pruned(&types(
        "Option = {r, <a href=\"/t#integer\">integer()</a>} | {g, <a href=\"/t#integer\">integer()</a>} | \
         {b, <a href=\"/t#integer\">integer()</a>}",
    ));
    assert!(
        md.contains("Option = {r, [integer()](/t#integer)} | {g, [integer()](/t#integer)}"),
        "{md}"
    );
    // The name defined may be a link's target, which is no link (a data type's heading).
    let md = pruned(&types(
        "<a name=\"type-thing\">thing()</a> = <a href=\"/t#atom\">atom()</a> | \
         <a href=\"/t#integer\">integer()</a> | <a href=\"/t#float\">float()</a>",
    ));
    assert!(
        md.contains("thing() = [atom()](/t#atom) | [integer()](/t#integer)"),
        "{md}"
    );
    // Haddock's instance methods: each line opens with the method's link and its `::`.
    let md = pruned(&types(
        "<p class=\"caption\">Methods</p><p class=\"src\"><a href=\"#v:fromList\">fromList</a> :: \
         [<a href=\"/Exts.html#t:Item\">Item</a> (<a href=\"#t:KeyMap\">KeyMap</a> v)] -&gt; \
         <a href=\"#t:KeyMap\">KeyMap</a> v</p>",
    ));
    assert!(
        md.contains("[fromList](#v:fromList) :: \\[[Item](/Exts.html#t:Item)"),
        "{md}"
    );
    // A list of such lines is an index of the declarations below (Haddock's synopsis).
    let synopsis = format!(
        "<html><body><div id=\"content\"><div id=\"synopsis\"><details><summary>Synopsis</summary><ul>{}</ul>\
         </details></div>{prose}</div></body></html>",
        ["json", "value", "jstring"]
            .map(|name| format!(
                "<li><a href=\"#v:{name}\">{name}</a> :: Parser <a href=\"#t:Value\">Value</a></li>"
            ))
            .concat()
    );
    let md = pruned(&synopsis);
    assert!(!md.contains("jstring"), "{md}");
    // The same links with a label before them are still a list of links.
    let md = pruned(&types(
        "Related: <a href=\"/t#atom\">atom()</a> | <a href=\"/t#integer\">integer()</a> | \
         <a href=\"/t#float\">float()</a> | <a href=\"/t#string\">string()</a>",
    ));
    assert!(!md.contains("integer()"), "{md}");
    // Doxygen: `#include` lines whose file names are links, inside code.
    let doxygen = format!(
        "<html><body><div class=\"contents\">{prose}\
         <div class=\"textblock\"><code>#include &quot;<a class=\"el\" href=\"a_8h.html\">SDL_stdinc.h</a>&quot;</code><br>\
         <code>#include &quot;<a class=\"el\" href=\"b_8h.html\">begin_code.h</a>&quot;</code></div>\
         {prose}</div></body></html>"
    );
    let md = pruned(&doxygen);
    assert!(md.contains("[`SDL_stdinc.h`](a_8h.html)"), "{md}");
    assert!(md.contains("[`begin_code.h`](b_8h.html)"), "{md}");
    // A teaser with one long link, and several links with little else, are still dropped.
    let teaser = format!(
        "<html><body><div class=\"contents\">{prose}<div class=\"more\">\
         <b>Read more:</b> <a href=\"/w\">Wage growth surprises to the upside again</a></div>\
         {prose}</div></body></html>"
    );
    assert!(!pruned(&teaser).contains("Wage growth"));
    let farm = format!(
        "<html><body><div class=\"contents\">{prose}<div class=\"more\">\
         <a href=\"/x\">Story one</a> <a href=\"/y\">Story two</a> <a href=\"/z\">Story three</a></div>\
         {prose}</div></body></html>"
    );
    assert!(!pruned(&farm).contains("Story two"));
}

/// A Haddock module page: a header, the module description (its longest prose), then one
/// `div.top` per declaration: a signature, a table of its arguments, a line of documentation.
fn haddock_page(description: &str, entries: usize) -> String {
    let row = |src: &str, doc: &str| {
        format!("<tr><td class=\"src\">{src}</td><td class=\"doc\">{doc}</td></tr>")
    };
    let arguments = [
        row(
            ":: <a href=\"Data-Aeson-Types.html#t:Options\">Options</a>",
            "The options that control how values are encoded.",
        ),
        row(
            "-&gt; Name",
            "The name of the type to derive instances for.",
        ),
        row(
            "-&gt; Q [Dec]",
            "The declarations of the generated instances.",
        ),
        row("-&gt; Q Exp", "The expression that encodes a value."),
    ]
    .concat();
    let entry = |i: usize| {
        format!(
            "<div class=\"top\"><p class=\"src\"><a id=\"v:f{i}\" class=\"def\">function{i}</a> \
             :: <a href=\"Data-Aeson-Types.html#t:Options\">Options</a> -&gt; Name</p>\
             <div class=\"subs arguments\"><p class=\"caption\">Arguments</p><table>{arguments}</table></div>\
             <div class=\"doc\"><p>Generates the instance number {i}, with the given options, \
             for the named type.</p></div></div>"
        )
    };
    format!(
        "<html><body><div id=\"package-header\"><span class=\"caption\">aeson-2.0.3.0</span></div>\
         <div id=\"content\"><div id=\"module-header\"><p class=\"caption\">Data.Aeson.TH</p></div>\
         <div id=\"description\"><p class=\"caption\">Description</p><div class=\"doc\">{description}</div></div>\
         <div id=\"interface\"><a href=\"#g:1\" id=\"g:1\"><h1>Encoding configuration</h1></a>{}</div>\
         </div></body></html>",
        (0..entries).map(entry).collect::<String>()
    )
}

#[test]
fn a_parent_scoring_above_the_best_block_is_the_content() {
    // Haddock's Data-Aeson-TH: the module description is the densest block, but the
    // declarations after it add up under `div#content`, which (going up from the best block,
    // as Readability does) scores above the description's own wrapper. Only the description
    // was kept.
    let description = paragraphs(
        4,
        "Functions to derive ToJSON, FromJSON, ToJSON1, FromJSON1, ToJSON2 and FromJSON2 \
         instances, given the options, for data types, newtypes, and data family instances.",
    ) + "<pre>$(deriveJSON defaultOptions ''D)</pre>";
    let md = pruned(&haddock_page(&description, 16));
    assert!(md.contains("Functions to derive ToJSON"), "{md}");
    assert!(md.contains("# Encoding configuration"), "{md}");
    assert!(md.contains("Generates the instance number 15"), "{md}");
    assert!(
        md.contains("The name of the type to derive instances for."),
        "{md}"
    );
    assert!(!md.contains("aeson-2.0.3.0"), "{md}");
}

#[test]
fn one_entry_of_many_brings_its_siblings() {
    // Haddock's Data-Aeson-KeyMap: the best block is the instances table of the first of
    // many `div.top` declarations; each other declaration is too small to win or to join,
    // and only the first was kept. Together they are the module's interface.
    let instance = |i: usize| {
        format!(
            "<tr><td class=\"src\">ToJSON1 <a href=\"#t:KeyMap\">KeyMap</a> \
             <a href=\"src/KeyMap.html#l{i}\">Source</a></td><td class=\"doc\"><p>Since: 2.0.{i}, \
             encodes the map as an object, keys first.</p></td></tr>"
        )
    };
    let arguments = "<div class=\"subs arguments\"><p class=\"caption\">Arguments</p><table>\
        <tr><td class=\"src\">:: Key</td><td class=\"doc\">The key to look up in the map.</td></tr>\
        <tr><td class=\"src\">-&gt; KeyMap v</td><td class=\"doc\">The map to look the key up in.</td></tr>\
        <tr><td class=\"src\">-&gt; Maybe v</td><td class=\"doc\">The value, if the key is there.</td></tr>\
        </table></div>";
    let entry = |i: usize| {
        format!(
            "<div class=\"top\"><p class=\"src\"><a id=\"v:f{i}\" class=\"def\">lookup{i}</a> :: \
             <a href=\"Data-Aeson-Key.html#t:Key\">Key</a> -&gt; KeyMap v -&gt; Maybe v</p>{arguments}\
             <div class=\"doc\"><p>Return the value for key number {i}.</p></div></div>"
        )
    };
    let page = format!(
        "<html><body><div id=\"package-header\"><span class=\"caption\">aeson-2.0.3.0</span></div>\
         <div id=\"content\"><div id=\"interface\"><a href=\"#g:1\" id=\"g:1\"><h1>Map Type</h1></a>\
         <div class=\"top\"><p class=\"src\">data <a id=\"t:KeyMap\" class=\"def\">KeyMap</a> v</p>\
         <div class=\"doc\"><p>A map from JSON key type Key to v.</p></div>\
         <div class=\"subs instances\"><h4 class=\"instances\">Instances</h4><details id=\"i:KeyMap\">\
         <summary>Instances details</summary><table>{}</table></details></div></div>\
         <a href=\"#g:2\" id=\"g:2\"><h1>Query</h1></a>{}</div></div></body></html>",
        (0..30).map(instance).collect::<String>(),
        (0..12).map(entry).collect::<String>(),
    );
    let md = pruned(&page);
    assert!(md.contains("encodes the map as an object"), "{md}");
    assert!(md.contains("# Query"), "{md}");
    assert!(md.contains("Return the value for key number 11."), "{md}");
    assert!(!md.contains("aeson-2.0.3.0"), "{md}");

    // pydoc: one layout `table.section` per kind (modules, classes, functions, data); the
    // best block is the classes' cell. The sections are the page, with the docstring above.
    let section = |title: &str, body: &str| {
        format!(
            "<p>\n<table class=\"section\"><tr class=\"decor heading-text\"><td class=\"section-title\" \
             colspan=3>&nbsp;<br><strong class=\"bigsection\">{title}</strong></td></tr>\n<tr><td \
             class=\"decor\"><span class=\"code\">&nbsp;&nbsp;</span></td><td>&nbsp;</td>\
             <td class=\"singlecolumn\">{body}</td></tr></table>"
        )
    };
    let function = |name: String, doc: String| {
        format!(
            "<dl><dt><a name=\"-{name}\"><strong>{name}</strong></a>(text, width=70, **kwargs)</dt>\
             <dd><span class=\"code\">{doc}</span></dd></dl>\n"
        )
    };
    let methods: String = (0..8)
        .map(|i| {
            function(
                format!("method{i}"),
                format!(
                    "Wrap a single paragraph of text number {i}, returning a list of wrapped \
                     lines, each at most width characters long, without final newlines."
                ),
            )
        })
        .collect();
    let functions: String = (0..5)
        .map(|i| {
            function(
                format!("function{i}"),
                format!("Fill a single paragraph of text number {i}, returning a new string."),
            )
        })
        .collect();
    let classes = format!(
        "<dl><dt><a href=\"builtins.html#object\">builtins.object</a></dt></dl><p>\n\
         <table class=\"section\"><tr class=\"decor title-decor heading-text\"><td \
         class=\"section-title\" colspan=3>&nbsp;<br><a name=\"TextWrapper\">class \
         <strong>TextWrapper</strong></a>(builtins.object)</td></tr><tr><td class=\"decor\" \
         rowspan=2>&nbsp;</td><td class=\"decor\" colspan=2><span class=\"code\">Object for \
         wrapping and filling text.</span></td></tr><tr><td>&nbsp;</td><td class=\"singlecolumn\">\
         Methods defined here:<br>{methods}</td></tr></table>"
    );
    let page = format!(
        "<!DOCTYPE html>\n<html><head><title>Python: module textwrap</title></head><body>\
         <table class=\"heading\"><tr class=\"heading-text decor\"><td class=\"title\">&nbsp;<br>\
         <strong class=\"title\">textwrap</strong></td><td class=\"extra\"><a href=\".\">index</a>\
         </td></tr></table><p><span class=\"code\">Text wrapping and filling.</span></p>{}{}{}{}\
         </body></html>",
        section(
            "Modules",
            "<table><tr><td class=\"multicolumn\"><a href=\"re.html\">re</a></td></tr></table>"
        ),
        section("Classes", &classes),
        section("Functions", &functions),
        section(
            "Data",
            "<strong>__all__</strong> = ['TextWrapper', 'wrap', 'fill', 'dedent']"
        ),
    );
    let md = pruned(&page);
    assert!(md.contains("Text wrapping and filling."), "{md}");
    assert!(md.contains("text number 7, returning a list"), "{md}");
    assert!(
        md.contains("Fill a single paragraph of text number 4"),
        "{md}"
    );
    assert!(md.contains("'dedent'"), "{md}");
}

#[test]
fn teaser_cards_beside_the_best_one_stay_out() {
    // The same shape on a news page: the lead story is the first of several `div.card`s, the
    // others a headline link and a line each. Mostly links: the grid is not the content.
    let lead = paragraphs(
        5,
        "The council approved the new budget on Tuesday, after months of debate, protests, \
         and two failed votes, raising spending on schools, parks, and roads.",
    );
    let card = |i: usize| {
        format!(
            "<div class=\"card\"><h3><a href=\"/news/{i}\">Another headline about the city \
             council, number {i}</a></h3><p class=\"blurb\">A short teaser for story {i} here.</p></div>"
        )
    };
    let page = format!(
        "<!DOCTYPE html><html><head><title>News</title></head><body><div class=\"page\">\
         <div class=\"grid\"><div class=\"card\"><h2><a href=\"/news/lead\">Council passes \
         budget</a></h2><div class=\"excerpt\">{lead}</div></div>{}</div></div></body></html>",
        (0..6).map(card).collect::<String>()
    );
    let md = pruned(&page);
    assert!(md.contains("two failed votes"), "{md}");
    assert!(!md.contains("Another headline"), "{md}");
    assert!(!md.contains("A short teaser"), "{md}");
}

#[test]
fn member_summary_tables_under_their_headings_are_kept() {
    // qdoc's class pages open with one summary table per kind of member (a row each: the
    // return type, then the linked name and its arguments) before the much longer member
    // documentation that wins the score. The tables were left out, headings and all.
    let row = |ret: &str, name: &str, args: &str| {
        format!(
            "<tr><td class=\"memItemLeft rightAlign topAlign\"> {ret} </td>\
             <td class=\"memItemRight bottomAlign\"><b><a href=\"qstring.html#{name}\">{name}</a></b>({args})</td></tr>"
        )
    };
    let summary: String = (0..10)
        .map(|i| {
            row(
                "QString &amp;",
                &format!("append{i}"),
                "const QString &amp;<i>str</i>",
            )
        })
        .collect();
    let member = |i: usize| {
        format!(
            "<h3 class=\"fn\" id=\"append{i}\">QString &amp;QString::append{i}(const QString &amp;str)</h3>\
             <p>Appends the string str onto the end of this string, converted with fromUtf8, \
             and returns a reference to this string, number {i}.</p>"
        )
    };
    let page = format!(
        "<!DOCTYPE html><html><body><div class=\"content mainContent\"><h1 class=\"title\">QString Class</h1>\
         <a name=\"public-functions\"></a><h2 id=\"public-functions\">Public Functions</h2>\
         <div class=\"table\"><table class=\"alignedsummary\">{summary}</table></div>\
         <div class=\"func\"><h2>Member Function Documentation</h2>{}</div>\
         <div class=\"related\"><h2>More from the blog</h2><ul>{}</ul></div>\
         <h2>Popular</h2><table>{}</table></div></body></html>",
        (0..20).map(member).collect::<String>(),
        (0..6)
            .map(|i| format!("<li><a href=\"/blog/{i}\">A story about strings number {i}</a></li>"))
            .collect::<String>(),
        (1..6)
            .map(|i| format!("<tr><td>{i}</td><td><a href=\"/p/{i}\">A popular page about QString, number {i}</a></td></tr>"))
            .collect::<String>(),
    );
    let md = pruned(&page);
    assert!(md.contains("## Public Functions"), "{md}");
    assert!(
        md.contains("| QString & | [**append9**](qstring.html#append9)(const QString &_str_) |"),
        "{md}"
    );
    assert!(
        md.contains("and returns a reference to this string, number 19."),
        "{md}"
    );
    assert!(!md.contains("A story about strings"), "{md}");
    // A table of links under a heading is still a list of links.
    assert!(!md.contains("A popular page"), "{md}");
}

#[test]
fn what_lies_between_the_title_heading_and_the_content_is_kept() {
    // qdoc's class pages: under `<h1>QString Class</h1>` (the `<title>`'s part before the
    // site name) the brief line, which ends in a "More..." link to the description, and
    // the table of the header to include, then the longer description that wins the score.
    // Readability's sibling rule left both out (a short paragraph with a link; a table no
    // heading introduces). The list of links between them is still a list of links.
    let description = paragraphs(
        16,
        "QString stores a string of 16-bit <a href=\"qchar.html\">QChar</a>s, where each \
         QChar corresponds to one UTF-16 code unit, and uses <a href=\"implicit-sharing.html\">\
         implicit sharing</a> (copy-on-write) to reduce memory usage and to avoid the needless \
         copying of data.",
    );
    let page = |h1: &str| {
        format!(
            "<!DOCTYPE html><html><head><title>QString Class | Qt Core 5.15.8</title></head><body>\
             <div class=\"content mainContent\"><h1 class=\"title\">{h1}</h1>\
             <p>The QString class provides a Unicode character string. <a href=\"#details\">More...</a></p>\
             <div class=\"table\"><table class=\"alignedsummary\"><tr><td> Header:</td><td> #include &lt;QString&gt;</td></tr>\
             <tr><td> qmake:</td><td> QT += core</td></tr></table></div>\
             <ul><li><a href=\"qstring-members.html\">List of all members, including inherited members</a></li>\
             <li><a href=\"qstring-obsolete.html\">Obsolete members</a></li></ul>\
             <div class=\"descr\"><h2 id=\"details\">Detailed Description</h2>{description}</div>\
             </div></body></html>"
        )
    };
    let md = pruned(&page("QString Class"));
    assert!(
        md.contains("The QString class provides a Unicode character string. [More...](#details)"),
        "{md}"
    );
    assert!(md.contains("| qmake: | QT += core |"), "{md}");
    assert!(md.contains("uses [implicit sharing]"), "{md}");
    assert!(!md.contains("List of all members"), "{md}");
    // A heading that is not the page's title opens no such head.
    let md = pruned(&page("Strings in Qt"));
    assert!(!md.contains("QT += core"), "{md}");
}

#[test]
fn a_paragraph_between_kept_blocks_is_kept_however_linked() {
    // qdoc: the description's "See also" line sits between it and the member
    // documentation, both kept; most of its text is links, so Readability's sibling rule
    // left it out. Between two kept blocks it goes on with the document. (The long summary
    // table of links keeps the content's parent from scoring above the member docs.)
    let description = paragraphs(
        12,
        "The description of QString is documented here at length, with the rules that \
         decide how <a href=\"qchar.html\">QChar</a> values are compared and copied.",
    );
    let entries = |n: usize| {
        (0..n)
            .map(|i| {
                format!(
                    "<h3 class=\"fn\" id=\"f{i}\"><span class=\"name\">function{i}</span>()</h3>\
                     <p>Returns the number of characters in this string, as function {i} counts \
                     them for the caller.</p><p><b>See also </b><a href=\"#size\">size</a>().</p>"
                )
            })
            .collect::<String>()
    };
    let summary = (0..100)
        .map(|i| format!("<tr><td> </td><td><b><a href=\"#f{i}\">function{i}</a></b>(int <i>n</i>)</td></tr>"))
        .collect::<String>();
    let page = |between: &str| {
        format!(
            "<!DOCTYPE html><html><head><title>QString Class | Qt Core 5.15.8</title></head><body>\
             <div class=\"content mainContent\"><h1 class=\"title\">QString Class</h1>\
             <h2>Public Functions</h2><div class=\"table\"><table class=\"alignedsummary\">{summary}</table></div>\
             <div class=\"descr\"><h2 id=\"details\">Detailed Description</h2>{description}</div>\
             {between}\
             <div class=\"types\"><h2>Member Type Documentation</h2>{}</div>\
             <div class=\"func\"><h2>Member Function Documentation</h2>{}</div>\
             </div><div class=\"footer\"><p><a href=\"/\">Home</a> <a href=\"/about\">About</a></p></div>\
             </body></html>",
            entries(4),
            entries(80),
        )
    };
    let see_also = "<p><b>See also </b><a href=\"qstring.html#fromRawData\">fromRawData</a>(), \
                    <a href=\"qchar.html\">QChar</a>, <a href=\"qlatin1string.html\">QLatin1String</a>, \
                    and <a href=\"qstringref.html\">QStringRef</a>.</p>";
    let md = pruned(&page(see_also));
    assert!(
        md.contains(
            "**See also** [fromRawData](qstring.html#fromRawData)(), [QChar](qchar.html), ["
        ),
        "{md}"
    );
    assert!(md.contains("## Member Type Documentation"), "{md}");
    assert!(!md.contains("[About]"), "{md}");
    // A list of links there is still a list of links.
    let md = pruned(&page(
        "<ul><li><a href=\"a.html\">Another class</a></li><li><a href=\"b.html\">Yet another class</a></li></ul>",
    ));
    assert!(!md.contains("Another class"), "{md}");
    assert!(md.contains("## Member Type Documentation"), "{md}");
}

#[test]
fn a_headline_outside_the_content_comes_with_its_subtitle() {
    // gtk-doc: no `<h1>`; the headline is an `<h2>` in a layout table before the content,
    // and the line under it says what the page is about.
    let prose = |n: usize| {
        paragraphs(
            n,
            "The runtime behaviour of GLib applications can be influenced by a number of \
             environment variables, which are described in this section one by one.",
        )
    };
    let gtkdoc = |subtitle: &str| {
        format!(
            "<html><head><title>Running GLib Applications: GLib Reference Manual</title></head><body>\
             <table class=\"navigation\"><tr><td><a href=\"index.html\">Home</a></td></tr></table>\
             <div class=\"refentry\"><div class=\"refnamediv\"><table width=\"100%\"><tr><td valign=\"top\">\
             <h2><span class=\"refentrytitle\">Running GLib Applications</span></h2>{subtitle}</td>\
             <td class=\"gallery_image\"></td></tr></table></div>\
             <div class=\"refsect1\"><h2>Running and debugging GLib Applications</h2>\
             <div class=\"refsect2\"><h3>Environment variables</h3>{}</div>\
             <div class=\"refsect2\"><h3>Locale</h3>{}</div></div></div></body></html>",
            prose(30),
            prose(2),
        )
    };
    let md = pruned(&gtkdoc(
        "<p>Running GLib Applications — How to run and debug your GLib application</p>",
    ));
    assert!(
        md.contains(
            "## Running GLib Applications\n\nRunning GLib Applications — How to run and debug your GLib application\n\n## Running and debugging"
        ),
        "{md}"
    );
    // A line of links under it is not a subtitle: the headline comes alone.
    let md = pruned(&gtkdoc(
        "<p><a href=\"a.html\">Previous page</a> <a href=\"b.html\">Next page</a></p>",
    ));
    assert!(
        md.contains("## Running GLib Applications\n\n## Running and debugging"),
        "{md}"
    );
    assert!(!md.contains("Next page"), "{md}");
    // The Doxygen manual: `div.title` holds the page's name, outside the content, whose
    // sections are `<h1>`s of their own.
    let doxygen = |title: &str| {
        format!(
            "<html><head><title>Doxygen: Documenting the code</title></head><body>\
             <div id=\"top\"><div id=\"projectname\">Doxygen</div></div>\
             <div class=\"header\"><div class=\"headertitle\"><div class=\"title\">{title}</div></div></div>\
             <div class=\"contents\"><div class=\"textblock\"><p>This chapter covers two topics.</p>\
             <h1><a class=\"anchor\" id=\"specialblock\"></a>Special comment blocks</h1>{}</div></div>\
             </body></html>",
            prose(8),
        )
    };
    let md = pruned(&doxygen("Documenting the code"));
    assert!(
        md.contains("# Documenting the code\n\nThis chapter covers two topics."),
        "{md}"
    );
    // Not when the content's `<h1>` is the headline already.
    let md = pruned(&doxygen("Special comment blocks"));
    assert_eq!(md.matches("Special comment blocks").count(), 1, "{md}");
}

/// An Erlang reference page (erl_docgen): a sidebar of every module, then `div#content`
/// with one `div.innertube` per titled section and one `<article>` per exported function.
fn erlang_page(description: &str, functions: &[&str]) -> String {
    let section = |id: &str, title: &str, body: &str| {
        format!(
            "<div class=\"innertube\"><h3 id=\"{id}\" class=\"title-link\"><div class=\"title-name\">{title}</div>\
             <div class=\"title-anchors\"><a href=\"#{id}\" title=\"Link to this place!\"><span class=\"paperclip\"></span></a></div></h3>\
             <div class=\"REFBODY\">{body}</div></div>"
        )
    };
    let sidebar: String = (0..60)
        .map(|i| format!("<li><a href=\"m{i}.html\">module_{i}</a></li>"))
        .collect();
    let articles: String = functions
        .iter()
        .map(|f| {
            format!(
                "<article class=\"func\"><div class=\"bold_code func-head\">{f}</div>\
                 <div class=\"exports-tube\"><div class=\"REFBODY\"><p>Returns the device context \
                 associated with the erase event to draw on.</p></div></div></article>"
            )
        })
        .collect();
    format!(
        "<html><head><title>Erlang -- wxEraseEvent</title></head><body>\
         <aside id=\"leftnav\"><nav class=\"top-nav\"><ul>{sidebar}</ul></nav></aside><div id=\"content\">\
         <div class=\"innertube\"><center><h1>wxEraseEvent</h1></center></div>{}{}\
         <section class=\"description\">{}</section>{}\
         <div class=\"innertube\"><h3 id=\"export\" class=\"title-link\"><div class=\"title-name\">Exports</div></h3></div>\
         <div class=\"exports-body\">{articles}</div>\
         <div class=\"footer\"><hr><p>Copyright © 2009-2026 Ericsson AB. All Rights Reserved.</p></div></div>\
         </body></html>",
        section("module", "Module", "wxEraseEvent"),
        section("module-summary", "Module Summary", "Functions for wxEraseEvent class"),
        section("description", "Description", description),
        section(
            "events",
            "Events",
            "<p>Use <a href=\"wxEvtHandler.html#connect-3\">wxEvtHandler:connect/3</a> with \
             <a href=\"#type-wxEraseEventType\">wxEraseEventType</a> to subscribe to events of this type.</p>"
        ),
    )
}

#[test]
fn the_sections_of_a_reference_page_are_kept_with_its_best_one() {
    let description = paragraphs(
        4,
        "An erase event is sent when a window's background needs to be repainted. On some \
         platforms, such as GTK+, this event is simulated and may cause flicker.",
    );
    let heads = [
        "# wxEraseEvent",
        "### Module Summary\n\nFunctions for wxEraseEvent class",
        "### Description",
        "### Events\n\nUse [wxEvtHandler:connect/3]",
        "### Exports",
        "Returns the device context associated with the erase event to draw on.",
    ];
    // The description scores best; the other sections are short. Erlang writes one
    // `<article>` per function: with several, the scorer chooses (it chose the description
    // and dropped the rest); with one, it was taken for the page's article (a module with
    // one function lost everything else).
    for functions in [
        &["getDC(This) -&gt; wxDC()", "new() -&gt; wxEraseEvent()"][..],
        &["getDC(This) -&gt; wxDC()"],
    ] {
        let md = pruned(&erlang_page(&description, functions));
        for head in heads {
            assert!(
                md.contains(head),
                "{head:?} in {} functions:\n{md}",
                functions.len()
            );
        }
        assert!(md.contains("getDC(This) -> wxDC()"), "{md}");
        assert!(!md.contains("module_7"), "{md}");
        assert!(!md.contains("Ericsson AB"), "{md}");
    }
}

#[test]
fn a_short_box_favoured_by_its_class_brings_the_short_page_around_it() {
    // Erlang's guides: a note's `div.content` ("content" weighs for it) was the best block
    // of a short chapter, and the chapter's own paragraphs were left out.
    let page = "<html><head><title>Erlang -- Introduction</title></head><body>\
        <aside id=\"leftnav\"><nav><ul><li><a href=\"a.html\">Introduction</a></li><li><a href=\"b.html\">Communication</a></li></ul></nav></aside>\
        <div id=\"content\"><div class=\"innertube\"><h1 id=\"Introduction\">1 Introduction</h1>\
        <h3 id=\"scope\">1.1 Scope</h3><p>The Erlang Runtime System Application, ERTS, contains \
        functionality necessary to run the Erlang system.</p>\
        <div class=\"note\"><div class=\"label\">Note</div><div class=\"content\"><p><p>By default, \
        <span class=\"code\">ERTS</span> is only guaranteed to be compatible with other Erlang/OTP \
        components from the same release as <span class=\"code\">ERTS</span> itself.</p><p>For \
        information on how to communicate with Erlang/OTP components from earlier releases, see the \
        documentation of system flag <a href=\"erl.html#compat_rel\">+R</a> in erl(1).</p></p></div></div>\
        <h3 id=\"prerequisites\">1.2 Prerequisites</h3><p>It is assumed that the reader is familiar \
        with the Erlang programming language.</p></div>\
        <div class=\"footer\"><hr><p>Copyright © 1997-2026 Ericsson AB. All Rights Reserved.</p></div></div>\
        </body></html>";
    let md = pruned(page);
    assert!(
        md.contains("# 1 Introduction\n\n### 1.1 Scope\n\nThe Erlang Runtime System"),
        "{md}"
    );
    assert!(md.contains("By default, ERTS is only guaranteed"), "{md}");
    assert!(
        md.contains("### 1.2 Prerequisites\n\nIt is assumed"),
        "{md}"
    );
    assert!(!md.contains("Communication"), "{md}");
}

#[test]
fn entries_beside_a_long_description_are_kept() {
    // Doxygen's file reference (SDL_hidapi.h): the "Detailed Description" holds a licence,
    // the longest prose of the page; then one `div.memitem` per function, a declaration
    // and a line or two each. Each entry was too small to join the description, and the
    // functions' documentation went.
    let licence = paragraphs(
        6,
        "Redistribution and use in source and binary forms, with or without modification, are \
         permitted provided that the conditions in this licence are met by the redistributor.",
    );
    let entry = |i: usize, head: &str| {
        format!(
            "<h2 class=\"memtitle\"><span class=\"permalink\"><a href=\"#f{i}\">&#9670;&nbsp;</a></span>SDL_hid_f{i}()</h2>\
             <div class=\"memitem\"><div class=\"memproto\"><table class=\"memname\"><tr>\
             <td class=\"memname\">{head} SDL_hid_f{i} </td><td>(</td><td class=\"paramtype\">int&#160;</td>\
             <td class=\"paramname\"><em>active</em></td><td>)</td></tr></table></div>\
             <div class=\"memdoc\"><p>Start or stop scan number {i} on iOS and tvOS to pair Steam \
             Controllers, and report what was found to the caller.</p>\
             <dl class=\"section since\"><dt>Since</dt><dd>This function is available since SDL 2.0.18.</dd></dl></div></div>"
        )
    };
    let page = |entries: String| {
        format!(
            "<html><head><title>SDL: SDL_hidapi.h File Reference</title></head><body>\
             <div id=\"top\"><div id=\"projectname\">SDL</div></div>\
             <div class=\"header\"><div class=\"headertitle\"><div class=\"title\">SDL_hidapi.h File Reference</div></div></div>\
             <div class=\"contents\"><h2 class=\"groupheader\">Detailed Description</h2>\
             <div class=\"textblock\">{licence}</div><h2 class=\"groupheader\">Function Documentation</h2>{entries}</div>\
             <hr class=\"footer\"><address class=\"footer\"><small>Generated by doxygen</small></address></body></html>"
        )
    };
    let md = pruned(&page((0..8).map(|i| entry(i, "void")).collect()));
    for i in 0..8 {
        assert!(
            md.contains(&format!("Start or stop scan number {i} on iOS")),
            "{md}"
        );
    }
    assert!(md.contains("Redistribution and use in source"), "{md}");
    // Teaser cards beside an article open with their linked headlines: not entries.
    let card = |i: usize| {
        format!(
            "<div class=\"card\"><a href=\"/story{i}\">Story number {i} about the markets today</a>\
             <p>A summary of story {i}, with the numbers that moved and what the analysts said.</p></div>"
        )
    };
    let md = pruned(&format!(
        "<html><body><div class=\"main\"><div class=\"article-body\">{licence}</div>{}</div></body></html>",
        (0..16).map(card).collect::<String>()
    ));
    assert!(md.contains("Redistribution and use in source"), "{md}");
    assert!(!md.contains("Story number 3"), "{md}");
}

#[test]
fn a_list_its_paragraph_announces_is_kept() {
    // The Rust book's first-edition pages (rust-doc): a note that the chapter moved, then
    // "Here are the relevant sections in the new and old books:" over a list of two links.
    // Scored, the list read as a link list beside the content, and the paragraph was left
    // hanging on its colon.
    let page = r#"<!DOCTYPE html><html><head><title>Testing</title></head><body class="rustdoc">
<div id="versioninfo"><img src="../rust-logo-32x32-blk.png" alt="Rust logo"><br>
<span class="white-sticker"><a href="https://www.rust-lang.org">Rust</a> 1.63.0</span><br></div>
<h1 class="title">Testing</h1>
<p><small>There is a new edition of the book and this is an old link.</small></p>
<blockquote><p>Rust includes support for writing software tests within the language itself.</p></blockquote>
<div class="example-wrap"><pre class="rust">#[cfg(test)]
mod tests {
    #[test]
    fn it_works() {
    }
}</pre></div>
<hr />
<p>Here are the relevant sections in the new and old books:</p>
<ul>
<li><strong><a href="ch11-00-testing.html">in the current edition: Ch 11.00 — Testing</a></strong></li>
<li><small><a href="https://doc.rust-lang.org/1.30.0/book/first-edition/testing.html">In the first edition: Ch 4.2 — Testing</a></small></li>
</ul>
<footer><p>Copyright &copy; 2011 The Rust Project Developers. Licensed under the
<a href="http://www.apache.org/licenses/LICENSE-2.0">Apache License, Version 2.0</a>.</p></footer>
</body></html>"#;
    let md = pruned(page);
    assert!(md.contains("There is a new edition of the book"), "{md}");
    assert!(
        md.contains("- [**in the current edition: Ch 11.00 — Testing**](ch11-00-testing.html)"),
        "{md}"
    );
    assert!(
        md.contains("[In the first edition: Ch 4.2 — Testing]"),
        "{md}"
    );
    assert!(!md.contains("Copyright"), "{md}");
    // SQLite: a definition whose sentence the list finishes, half of the list's text links.
    let quirk = |i: usize| {
        format!(
            "<li><p>The PRIMARY KEY of a rowid table is usually not the true primary key for \
             the table, in the sense that it is not the unique key used by the underlying \
             <a href=\"fileformat2.html#btree\">B-tree</a> storage engine, quirk {i}.</li>"
        )
    };
    let page = format!(
        "<html><head><title>Rowid Tables</title></head><body><h1 align=\"center\">Rowid Tables</h1>\
         <h2>1.0 Definition</h2><p>A \"rowid table\" is any table in an SQLite schema that\
         <ul><li>is <em>not</em> a <a href=\"vtab.html\">virtual table</a>, and\
         <li>is <em>not</em> a <a href=\"withoutrowid.html\">WITHOUT ROWID</a> table.</ul>\
         Most tables in a typical SQLite database schema are rowid tables.\
         <p>Rowid tables are distinguished by the fact that they all have a unique, non-NULL, \
         signed 64-bit integer rowid that is used as the access key for the data.\
         <h2>2.0 Quirks</h2><ul>{}</ul></body></html>",
        (0..8).map(quirk).collect::<String>()
    );
    let md = pruned(&page);
    assert!(
        md.contains("schema that\n\n- is _not_ a [virtual table](vtab.html), and\n"),
        "{md}"
    );
    // The text after the list, which SQLite writes without a `<p>`, between kept siblings.
    assert!(
        md.contains("\n\nMost tables in a typical SQLite database schema are rowid tables.\n\n"),
        "{md}"
    );
}

#[test]
fn asciidoc_header_block_with_the_headline_is_kept() {
    // AsciiDoc (git's manual pages): `div#header` holds the page's `<h1>` and its NAME
    // section; named like a site header, it was dropped, title and all.
    let section = |i: usize| {
        format!(
            "<div class=\"sect1\"><h2 id=\"_s{i}\">SECTION {i}</h2><div class=\"sectionbody\">{}</div></div>",
            paragraphs(
                3,
                "Create a new commit containing the current contents of the index and the \
                 given log message describing the changes, after the current head."
            )
        )
    };
    let page = format!(
        "<!DOCTYPE html><html><head><title>git-commit(1)</title></head><body>\
         <div id=\"header\"><h1>git-commit(1) Manual Page</h1><h2>NAME</h2>\
         <div class=\"sectionbody\"><p>git-commit - Record changes to the repository</p></div></div>\
         <div id=\"content\">{}</div>\
         <div id=\"footer\"><div id=\"footer-text\">Last updated 2023-02-06</div></div></body></html>",
        (0..4).map(section).collect::<String>()
    );
    let md = pruned(&page);
    assert!(
        md.starts_with("# git-commit(1) Manual Page\n\n## NAME\n"),
        "{md}"
    );
    assert!(
        md.contains("git-commit - Record changes to the repository"),
        "{md}"
    );
    assert!(md.contains("## SECTION 3"), "{md}");
    assert!(!md.contains("Last updated"), "{md}");
}

#[test]
fn docutils_sidebar_and_topic_boxes_are_kept() {
    // Sphinx's own docs (docutils >= 0.18): `.. sidebar::` is an `<aside class="sidebar">`
    // opening with its title paragraph; named like a site sidebar, it was dropped whole.
    let page = r##"<html><body><div class="body" role="main"><section id="defining">
<h1>Defining document structure</h1><p>Sphinx uses a custom directive to add relations.</p>
<aside class="sidebar"><p class="sidebar-title">reStructuredText directives</p>
<p>A directive is a very versatile piece of markup.</p></aside>
<div class="topic"><p class="topic-title">Topic title</p><p>Topic text.</p></div>
<div class="sidebar"><p class="sidebar-title">Old writer</p><p class="sidebar-subtitle">Sub</p>
<p>HTML4 sidebar text.</p></div>
<aside class="sidebar"><h3>Site links</h3><p>Not the document.</p></aside>
<div class="sidebar"><p>Other site sidebar.</p></div>
</section></div></body></html>"##;
    let md = pruned(page);
    for kept in [
        "reStructuredText directives",
        "very versatile piece of markup",
        "Topic title",
        "Old writer",
        "Sub",
        "HTML4 sidebar text.",
    ] {
        assert!(md.contains(kept), "{kept}: {md}");
    }
    // Sidebars without a docutils title are what they were: beside the content.
    assert!(!md.contains("Site links"), "{md}");
    assert!(!md.contains("Other site sidebar"), "{md}");
}

#[test]
fn a_section_named_after_its_heading_is_not_boilerplate() {
    // Flask's quickstart: `<section id="cookies">` under its "Cookies" heading (Sphinx
    // derives section ids from headings) was dropped as a cookie banner.
    let page = r##"<html><body><div class="body" role="main"><section id="quickstart">
<h1>Quickstart</h1><p>Eager to get started? This page gives an introduction.</p>
<section id="cookies"><h3>Cookies<a class="headerlink" href="#cookies">¶</a></h3>
<p>To access cookies you can use the cookies attribute.</p></section>
<div class="section" id="share-memory"><h2>Share  Memory!</h2><p>Shared pages.</p></div>
<div id="cookie"><p>We use cookies on this site.</p></div>
<section id="cookies"><h3>Cookie settings</h3><p>Accept all?</p></section>
<div id="related"><h2>Related</h2><ul><li><a href="/a">Another page</a></li>
<li><a href="/b">One more page</a></li></ul></div>
</section></div></body></html>"##;
    let md = pruned(page);
    assert!(md.contains("### Cookies\n\nTo access cookies"), "{md}");
    assert!(md.contains("## Share Memory!\n\nShared pages."), "{md}");
    // Named so without such a heading: still a banner.
    assert!(!md.contains("We use cookies"), "{md}");
    assert!(!md.contains("Accept all"), "{md}");
    // Links under a heading that names the block: still what the id says.
    assert!(!md.contains("Another page"), "{md}");
}

/// `n` paragraphs of one long sentence each (a section that scores well).
fn long_section(n: usize) -> String {
    paragraphs(
        n,
        "Since that release, a model admin displaying a parent model with related inlines, \
         where the user has view-only permissions, would display editable forms, which it \
         should not have done.",
    )
}

#[test]
fn a_release_note_keeps_its_title_heading_and_short_sections() {
    // Django's release notes (Sphinx, Django's theme): the security section scored best;
    // the `<h1>` beside it (its text ends in the `¶` permalink) and the "Bugfixes" section
    // of one list item were dropped.
    let page = format!(
        r##"<html><head><title>Django 2.1.15 release notes &#8212; Django 3.2 documentation</title></head>
<body><div id="bd"><div class="yui-g">
<div class="section" id="s-notes"><span id="notes"></span>
<h1>Django 2.1.15 release notes<a class="headerlink" href="#notes">¶</a></h1>
<p><em>December 2, 2019</em></p>
<p>Django 2.1.15 fixes a security issue and a data loss bug in 2.1.14.</p>
<div class="section" id="s-cve"><span id="cve"></span><h2>CVE-2019-19118: Privilege escalation<a class="headerlink" href="#cve">¶</a></h2>
{}</div>
<div class="section" id="s-bugfixes"><span id="bugfixes"></span><h2>Bugfixes<a class="headerlink" href="#bugfixes">¶</a></h2>
<ul class="simple"><li>Fixed a data loss possibility in the <a href="q.html#select"><code>select_for_update()</code></a>
(<a href="https://code.djangoproject.com/ticket/30953">#30953</a>).</li></ul></div>
</div></div>
<div class="section" id="s-ad"><h2>Sponsored</h2><ul><li><a href="/a">Buy</a></li><li><a href="/b">Sell</a></li></ul></div>
</div></body></html>"##,
        long_section(6)
    );
    let md = pruned(&page);
    assert!(md.contains("# Django 2.1.15 release notes\n"), "{md}");
    assert!(md.contains("_December 2, 2019_"), "{md}");
    assert!(md.contains("## Bugfixes"), "{md}");
    assert!(md.contains("Fixed a data loss possibility"), "{md}");
    // A section of the same class outside the document's, all links: not kept.
    assert!(!md.contains("Sponsored"), "{md}");
}

#[test]
fn a_documentation_section_about_comments_is_kept() {
    // Sphinx's web support guide has a section "Comments & Proposals"; it was taken for a
    // comment thread and dropped.
    let page = format!(
        r##"<html><body><div class="body"><section id="quick"><h1>Web Support Quick Start</h1>
<section id="building"><h2>Building Documentation Data</h2>{}</section>
<section id="comments-proposals"><h2>Comments &amp; Proposals<a class="headerlink" href="#comments-proposals">¶</a></h2>
<p>Now that this is done it is time to define the functions that handle the AJAX calls.</p></section>
<section id="moderation"><h2>Comment Moderation</h2><p>By default, all comments added are displayed.</p></section>
</section></div></body></html>"##,
        long_section(5)
    );
    let md = pruned(&page);
    assert!(md.contains("## Comments & Proposals"), "{md}");
    assert!(md.contains("handle the AJAX calls"), "{md}");
}

#[test]
fn lists_of_sentences_under_headings_are_kept_beside_a_big_table() {
    // Erlang's "Standards Compliance": a flat page of headings, paragraphs and lists of
    // sentences, then a table of hundreds of rows that scored best. The lists held no
    // `<p>`, so they did not count as prose, and every list was dropped.
    let rows: String = (0..60)
        .map(|i| {
            format!(
                "<tr><td>Section {i}</td><td>Supported, with the extension negotiated by \
                 both peers, since release {i}.</td></tr>"
            )
        })
        .collect();
    let page = format!(
        r##"<html><body><div id="content"><div class="innertube">
<h1>5 Standards Compliance</h1>
<h3>5.1 Purpose</h3><p>This section describes the current state of standards compliance.</p>
<h3>5.2 Common</h3><ul>
<li>For security reasons RSA key exchange cipher suites are no longer supported by default.</li>
<li>Renegotiation Indication Extension <a href="http://www.ietf.org/rfc/rfc5746.txt">RFC 5746</a> is supported.</li>
<li>Compression is not supported, and never will be in this application.</li></ul>
<h3>5.3 SSL 2.0</h3><p>For security reasons SSL-2.0 is not supported.</p>
<h3>5.4 TLS 1.3</h3><div class="doc-table-wrapper"><table class="doc-table">
<tr><th>Section</th><th>Support</th></tr>{rows}</table></div>
</div></div></body></html>"##
    );
    let md = pruned(&page);
    assert!(md.contains("RSA key exchange cipher suites"), "{md}");
    assert!(md.contains("Compression is not supported"), "{md}");
    assert!(md.contains("since release 59"), "{md}");
}

#[test]
fn a_summary_section_beside_the_section_that_scored_is_kept() {
    // AsciiDoc (git's ToolsForGit): `div.sect1 > h2 + div.sectionbody`; a subsection of the
    // second section scored best and the first, "Summary", was dropped.
    let page = format!(
        r##"<html><body><div id="header"><h1>Tools for developing Git</h1></div>
<div id="content">
<div class="sect1"><h2 id="summary">Summary</h2><div class="sectionbody">
<div class="paragraph"><p>This document gathers tips, scripts and configuration files.</p></div></div></div>
<div class="sect1"><h2 id="toc">Table of contents</h2><div class="sectionbody">
<div class="ulist"><ul><li><p><a href="#vscode">[vscode]</a></p></li><li><p><a href="#emacs">[emacs]</a></p></li></ul></div>
<div class="sect2"><h3 id="vscode">Visual Studio Code</h3><div class="paragraph"><p>The init script creates configuration files.</p></div></div>
<div class="sect2"><h3 id="emacs">Emacs</h3>{}</div>
</div></div></div>
<div id="footer"><div id="footer-text">Last updated 2024-05-31</div></div></body></html>"##,
        long_section(4)
    );
    let md = pruned(&page);
    assert!(md.contains("## Summary"), "{md}");
    assert!(md.contains("This document gathers tips"), "{md}");
    assert!(md.contains("### Emacs"), "{md}");
    assert!(!md.contains("Last updated"), "{md}");
}

#[test]
fn prose_that_links_every_identifier_is_kept() {
    // Racket's Scribble links every identifier in a sentence: "A popup-menu% object is
    // created without a parent. …" was more than half links and dropped as a link farm.
    let page = format!(
        r##"<html><body><div class="maincolumn"><div class="main"><h2>3.38 popup-menu%</h2>
<table class="boxed"><tr><td><p><a href="p.html">popup-menu%</a> : <a href="c.html">class?</a></p></td></tr></table>
<div class="SIntrapara">A <a href="p.html">popup-menu%</a> object is created without a parent. Dynamically
display a <a href="p.html">popup-menu%</a> with <a href="w.html#popup">popup-menu</a> in <a href="w.html">window&lt;%&gt;</a>
or <a href="e.html#popup">popup-menu</a> in <a href="e.html">editor-admin%</a>.</div>
{}<div class="links"><a href="/a">Racket docs home page</a> | <a href="/b">Search</a> | <a href="/c">Top of page</a></div>
</div></div></body></html>"##,
        long_section(5)
    );
    let md = pruned(&page);
    assert!(md.contains("object is created without a parent"), "{md}");
    // Links between separators are still a link farm.
    assert!(!md.contains("Racket docs home page"), "{md}");
}

#[test]
fn the_table_around_a_huge_cell_is_not_the_page() {
    // cppreference's "Parameters" is a layout table (name | - | text) whose `format` cell
    // holds the whole table of conversion specifiers: that cell scored best and was kept
    // alone, as if it were a page column, without the description or the return value.
    let specifiers: String = (0..40)
        .map(|i| {
            format!(
                "<tr><th><code>%{i}</code></th><td>writes the field number {i} as a \
                 decimal number, padded, in the locale's representation</td>\
                 <td><code>tm_year</code></td></tr>"
            )
        })
        .collect();
    let example: String = (0..30)
        .map(|i| format!("    wcsftime(buf, sizeof buf, L\"%A %c\", localtime(&amp;t{i}));\n"))
        .collect();
    let page = format!(
        r##"<html><body><div id="content"><h1>wcsftime</h1><div id="bodyContent">
<p>Converts the date and time information from a given calendar time to a wide string.</p>
<h3>Parameters</h3>
<table class="t-par-begin">
<tr class="t-par"><td>str</td><td>-</td><td>pointer to the first element of the array for output</td></tr>
<tr class="t-par"><td>format</td><td>-</td><td><p>pointer to a format string. The following specifiers are available:</p>
<table class="wikitable"><tr><th>Specifier</th><th>Explanation</th><th>Fields</th></tr>{specifiers}</table></td></tr></table>
<h3>Return value</h3><p>Number of wide characters written into the wide character array.</p>
<h3>Example</h3><div class="t-example"><pre>{example}</pre></div>
</div></div></body></html>"##
    );
    let md = pruned(&page);
    assert!(
        md.contains("Converts the date and time information"),
        "{md}"
    );
    assert!(md.contains("### Return value"), "{md}");
    assert!(md.contains("Number of wide characters written"), "{md}");
    assert!(md.contains("field number 39"), "{md}");
    assert!(md.contains("localtime(&t29)"), "{md}");
    // Cut down from the real page to where the cell alone was kept: the headings around
    // the table are the document's.
    let md = pruned(
        r##"<html><body><h3><span class="mw-headline" id="Parameters">Parameters</span></h3>
<table class="t-par-begin">
<td>  pointer to a null-terminated wide character string specifying the format of conversion.
</td></tr></table>
<h3><span class="mw-headline" id="Return_value">Return value</span></h3></body></html>"##,
    );
    assert!(
        md.contains("### Parameters\n\npointer to a null-terminated"),
        "{md}"
    );
    assert!(md.contains("### Return value"), "{md}");
}

#[test]
fn the_intro_of_a_table_or_list_two_wrappers_up_is_kept() {
    // PostgreSQL (DocBook): the scored block was `div.table-contents` (or a glossary's
    // `div.glosslist`), and the one paragraph introducing it, two wrappers up, was dropped.
    let rows: String = (0..20)
        .map(|i| {
            format!(
                "<tr><td><p><code>column_{i}</code></p><p>Name of the database that contains \
                 the domain, always the current database, or null.</p></td></tr>"
            )
        })
        .collect();
    let terms: String = (0..20)
        .map(|i| {
            format!(
                "<dt>Term {i}</dt><dd><p>A set of properties of database transactions, \
                 intended to guarantee validity in concurrent operation.</p></dd>"
            )
        })
        .collect();
    for (body, intro) in [
        (
            format!(
                r##"<div class="sect1"><div class="titlepage"><h2>37.23. domains</h2></div>
<p>The view domains contains all domains defined in the current database.</p>
<div class="table"><p class="title"><strong>Table 37.21. domains Columns</strong></p>
<div class="table-contents"><table class="table" border="1"><thead><tr><th>Column</th></tr></thead>
<tbody>{rows}</tbody></table></div></div></div>"##
            ),
            "The view domains contains all domains",
        ),
        (
            format!(
                r##"<div class="appendix"><div class="titlepage"><h2>Appendix M. Glossary</h2></div>
<p>This is a list of terms and their meaning in the context of PostgreSQL.</p>
<div class="glosslist"><dl>{terms}</dl></div></div>"##
            ),
            "This is a list of terms",
        ),
    ] {
        let page = format!(
            "<html><body><div class=\"navheader\"><a href=\"/prev\">Prev</a></div>{body}</body></html>"
        );
        let md = pruned(&page);
        assert!(md.contains(intro), "{md}");
    }
}

#[test]
fn a_section_of_api_prose_is_kept_however_many_types_it_links() {
    // qdoc's "Related Non-Members": two typedefs described in sentences that link every
    // type they name (43 % of the text is links); beside the member docs and the linked
    // member summary it was dropped.
    let summary: String = (0..32)
        .map(|i| {
            format!(
                "<tr><td class=\"memItemLeft\">QStringList &amp;</td><td class=\"memItemRight\">\
                 <b><a href=\"#f{i}\">function{i}</a></b>(const QString &amp;<i>s</i>)</td></tr>"
            )
        })
        .collect();
    let typedef = |name: &str, kind: &str, base: &str| {
        format!(
            r##"<h3 class="fn">typedef <span class="name">{name}</span></h3>
<p>The {name} type definition provides a Java-style {kind} iterator for <a href="q.html">QStringList</a>.</p>
<p><a href="q.html">QStringList</a> provides both <a href="c.html#java">Java-style iterators</a> and <a href="c.html#stl">STL-style iterators</a>. The Java-style {kind} iterator is simply a type definition for <a href="l.html">{base}</a>&lt;<a href="s.html">QString</a>&gt;.</p>"##
        )
    };
    let page = format!(
        r##"<html><body><div class="content mainContent">
<h1 class="title">QStringList Class</h1>
<p>The QStringList class provides a list of strings. <a href="#details">More...</a></p>
<ul><li><a href="qstringlist-members.html">List of all members, including inherited members</a></li></ul>
<h2 id="public-functions">Public Functions</h2><div class="table"><table class="alignedsummary">{summary}</table></div>
<div class="descr"><h2>Detailed Description</h2>{}</div>
<div class="func"><h2>Member Function Documentation</h2>{}</div>
<div class="relnonmem"><h2>Related Non-Members</h2>{}{}</div>
</div></body></html>"##,
        long_section(2),
        long_section(12),
        typedef(
            "QMutableStringListIterator",
            "non-const",
            "QMutableListIterator"
        ),
        typedef("QStringListIterator", "const", "QListIterator"),
    );
    let md = pruned(&page);
    assert!(md.contains("## Related Non-Members"), "{md}");
    assert!(
        md.contains("The Java-style const iterator is simply"),
        "{md}"
    );
}

#[test]
fn a_list_of_prose_under_its_own_heading_is_kept() {
    // SQLite's "Appropriate Uses": the first list of situations (a bold title and
    // paragraphs per item) scored best; the second, "Situations Where A Client/Server RDBMS
    // May Work Better", under its own heading, was dropped with the heading.
    let items = |n: usize, what: &str| -> String {
        (0..n)
            .map(|i| {
                format!(
                    "<li><p><b>{what} {i}</b></p><p>If there are many client programs sending \
                     SQL to the same database over a network, then use a client/server engine \
                     instead, since file locking is buggy on network filesystems.</p></li>"
                )
            })
            .collect()
    };
    let page = format!(
        r##"<html><body><div class="nosearch"><a href="/">Home</a> <a href="/about">About</a></div>
<h1 align="center">Appropriate Uses For SQLite</h1>
<p>SQLite is not directly comparable to client/server SQL database engines.</p>
<h2>Situations Where SQLite Works Well</h2><ul>{}</ul>
<h2>Situations Where A Client/Server RDBMS May Work Better</h2><ul>{}</ul>
<h2>Related</h2><ul><li><a href="/a">Another page about databases and engines</a></li></ul>
</body></html>"##,
        items(8, "Works well"),
        items(2, "Works better")
    );
    let md = pruned(&page);
    assert!(
        md.contains("## Situations Where A Client/Server RDBMS May Work Better"),
        "{md}"
    );
    assert!(md.contains("**Works better 1**"), "{md}");
    assert!(!md.contains("Another page about databases"), "{md}");
}

#[test]
fn a_texinfo_section_named_comments_is_kept() {
    // R's language manual (Texinfo): `<div class="section" id="Comments">` opens with the
    // node's navigation line, then "10.2 Comments": it was dropped as a comment thread.
    let page = format!(
        r##"<html><body><div class="chapter" id="Parser">
<div class="section" id="The-parsing-process"><div class="header"><p>Next: <a href="#Comments">Comments</a></p></div>
<h3 class="section">10.1 The parsing process</h3>{}</div>
<div class="section" id="Comments"><div class="header"><p>Next: <a href="#Tokens">Tokens</a>, Previous: <a href="#The-parsing-process">The parsing process</a></p></div>
<span id="Comments-1"></span><h3 class="section">10.2 Comments</h3>
<p>Comments in R are ignored by the parser. Any text from a # character to the end of the line is a comment.</p>{}</div>
</div>
<div id="comments"><h3>Comments</h3><p>Leave a reply below.</p></div></body></html>"##,
        long_section(5),
        long_section(3)
    );
    let md = pruned(&page);
    assert!(md.contains("### 10.2 Comments"), "{md}");
    assert!(
        md.contains("Comments in R are ignored by the parser"),
        "{md}"
    );
    assert!(!md.contains("Leave a reply"), "{md}");
}

#[test]
fn a_highlighted_declaration_linking_its_types_is_kept() {
    // cppreference's declaration table: MediaWiki's GeSHi highlighting (`span.mw-geshi`)
    // is code without a `<code>`, and the declaration's `<div>`, more than half links (every
    // type), was dropped as a link farm: the row kept only "(since C++14)".
    let page = format!(
        r##"<html><body><div id="content"><h1>std::rend(std::initializer_list)</h1>
<table class="t-dcl-begin"><tbody>
<tr class="t-dcl t-since-cxx14"><td> <div><span class="mw-geshi cpp source-cpp"><span class="kw1">template</span> &lt;class E&gt;<br>
<a href="../reverse_iterator.html"><span class="kw658">std::reverse_iterator</span></a>&lt;const E*&gt; rend( <a href="../initializer_list.html"><span class="kw">std::initializer_list</span></a>&lt;E&gt; il );</span></div></td>
<td> <span class="t-mark-rev">(since C++14)</span> </td></tr></tbody></table>
{}</div></body></html>"##,
        long_section(4)
    );
    let md = pruned(&page);
    assert!(md.contains("rend( [std::initializer_list]"), "{md}");
}

#[test]
fn an_asciidoc_sidebar_block_is_kept() {
    // AsciiDoc's `div.sidebarblock` is an aside written into the document (git's "How to
    // recover an object from scratch": "Note: In this case, no good copy…"); named like a
    // site's sidebar, it was dropped.
    let page = format!(
        r##"<html><body><div id="content"><div class="sect1"><h2>Background</h2><div class="sectionbody">
{}<div class="sidebarblock"><div class="content"><div class="paragraph"><p>Note: In this case, no good copy of the repository was available.</p></div></div></div>
{}</div></div></div>
<div class="sidebar"><p>Site sidebar, not the document.</p></div></body></html>"##,
        long_section(3),
        long_section(3)
    );
    let md = pruned(&page);
    assert!(md.contains("no good copy of the repository"), "{md}");
    assert!(!md.contains("Site sidebar"), "{md}");
}

/// gi-docgen's member entry: the name as an `<h6>` link, then a one-line description.
fn gi_member(name: &str, text: &str) -> String {
    format!(
        r##"<div class=""><h6><a href="method.Stack.{name}.html">gtk_stack_{name}</a></h6>
<div class="docblock"><p>{text}</p></div><div class="docblock"><p></p></div></div>
"##
    )
}

#[test]
fn a_gi_docgen_class_keeps_its_members_beside_the_description() {
    // gi-docgen (GTK 4's class.Stack.html): `<section id="main">` holds the description and,
    // in sections of their own, the ancestors and every constructor and method with its
    // one-line summary. The description scored best and was all that was kept (1.8 of 17 KB).
    let members: String = (0..3)
        .map(|i| {
            gi_member(
                &format!("get_m{i}"),
                &format!("Returns whether the <code>GtkStack</code> is set up to interpolate {i}."),
            )
        })
        .collect();
    let page = format!(
        r##"<html><head><title>Gtk.Stack</title></head><body>
<nav><div class="section"><h5>Instance methods</h5><div class="links">
<a class="method" href="method.Stack.get_m0.html">get_m0</a>
<a class="method" href="method.Stack.get_m1.html">get_m1</a></div></div></nav>
<section id="main" class="content"><header><h3>Class</h3><h1><a href="index.html">Gtk</a>Stack</h1></header>
<section><summary><div class="docblock"><p></p></div><div class="toggle-wrapper">
<h4 id="description">Description<a href="#description" class="anchor"></a></h4>
<pre><code>final class Gtk.Stack : Gtk.Widget {{ }}</code></pre>
<div class="docblock">{}<h1 id="css-nodes">CSS nodes<a class="md-anchor" href="#css-nodes"></a></h1>
<p><code>GtkStack</code> has a single CSS node named stack.</p></div><div class="docblock"></div></div></summary>
<div class="toggle-wrapper ancestors"><h4 id="ancestors">Ancestors<a href="#ancestors" class="anchor"></a></h4>
<div class="docblock"><ul><li class="class"><a href="class.Widget.html">GtkWidget</a></li><li>GObject</li></ul></div></div>
<div class="toggle-wrapper methods"><h4 id="methods">Instance methods<a href="#methods" class="anchor"></a></h4>
<div class="docblock">{members}</div></div>
</section></section></body></html>"##,
        paragraphs(
            8,
            "<code>GtkStack</code> is a container which only shows one of its children at a \
             time, and a separate widget such as a <a href='x.html'><code>GtkStackSwitcher</code></a> \
             changes the visible child."
        )
    );
    let md = pruned(&page);
    assert!(md.contains("final class Gtk.Stack"), "{md}");
    assert!(md.contains("Instance methods"), "{md}");
    assert!(
        md.contains("[gtk_stack_get_m2](method.Stack.get_m2.html)"),
        "{md}"
    );
    assert!(md.contains("is set up to interpolate 2."), "{md}");
    assert!(md.contains("[GtkWidget](class.Widget.html)"), "{md}");
    // The sidebar's link list is still navigation.
    assert!(!md.contains("[get_m0]"), "{md}");
}

#[test]
fn a_named_main_does_not_widen_a_declared_article() {
    // A news page's `div#main` holds the story and the site's teasers; a page that declares
    // itself an article keeps the story the scorer found (Readability's pixnet, yahoo-4).
    let page = format!(
        r##"<html><head><meta property="og:type" content="article"></head><body>
<div id="main"><div class="story">{}</div>
<div class="more"><p>Another story you may like to read today, with its own long teaser line.</p>
<p>And one more story from elsewhere on the site, described in a sentence or two.</p></div>
</div></body></html>"##,
        paragraphs(
            6,
            "The council voted on Tuesday to extend the harbour, after months of debate, \
             hearings, and a long public consultation with residents."
        )
    );
    let md = pruned(&page);
    assert!(md.contains("The council voted"), "{md}");
    assert!(!md.contains("Another story"), "{md}");
}

#[test]
fn a_permalinked_section_of_many_names_is_kept() {
    // gi-docgen's "Implementations" of an interface: over a hundred single-word links under
    // a heading that links to itself. Beyond 64 links it was taken for a link farm.
    let names: String = (0..120)
        .map(|i| format!("<li><a href=\"class.W{i}.html\">GtkWidget{i}</a></li>\n"))
        .collect();
    let page = |heading: &str| {
        format!(
            r##"<html><body><div id="content"><h1>Gtk.ConstraintTarget</h1>{}
<div class="implementations"><h4 id="implementations">{heading}</h4>
<div class="docblock"><ul>{names}</ul></div></div></div></body></html>"##,
            paragraphs(
                4,
                "The <code>GtkConstraintTarget</code> interface is implemented by objects \
                 that can be used as source or target in constraints."
            )
        )
    };
    let md = pruned(&page(
        r##"Implementations<a href="#implementations" class="anchor"></a>"##,
    ));
    assert!(md.contains("[GtkWidget119](class.W119.html)"), "{md}");
    // Without the permalink, as many names under a heading are still a farm.
    let md = pruned(&page("Implementations"));
    assert!(!md.contains("GtkWidget119"), "{md}");
}

#[test]
fn a_doxygen_listing_keeps_the_lines_that_link_identifiers() {
    // Doxygen's source pages (SDL_keycode.h): every identifier of a `div.line` links to its
    // documentation, so a line such as `SDLK_RETURN = '\r',` was more than half links and
    // went as a link farm: 85 % of the listing was lost.
    let lines: String = (0..40)
        .map(|i| {
            format!(
                "<div class=\"line\"><a id=\"l{i}\" name=\"l{i}\"></a><span class=\"lineno\">\
                 <a class=\"line\" href=\"k.html#a{i}\">{i}</a></span>    \
                 <a class=\"code hl_enumvalue\" href=\"k.html#a{i}\">SDLK_KEY{i}</a> = {i},</div>\n"
            )
        })
        .collect();
    let page = format!(
        r##"<html><body><div id="top"><a href="index.html">Main Page</a></div>
<div id="doc-content"><div class="header"><div class="headertitle"><div class="title">SDL_keycode.h</div></div></div>
<div class="contents"><a href="k.html">Go to the documentation of this file.</a>
<div class="fragment"><div class="line"><span class="lineno">1</span>/* Simple DirectMedia Layer, a library of plain C for games and media */</div>
<div class="line"><span class="lineno">2</span>typedef enum</div>
{lines}<div class="line"><span class="lineno">99</span>}} SDL_KeyCode;</div>
</div></div></div></body></html>"##
    );
    let md = pruned(&page);
    assert!(md.contains("    SDLK_KEY0 = 0,\n"), "{md}");
    assert!(md.contains("    SDLK_KEY39 = 39,\n} SDL_KeyCode;"), "{md}");
}

#[test]
fn headings_that_link_their_names_are_kept() {
    // BoostBook: `div.titlepage > div > div > h4` "Header <boost/units/pow.hpp>", the file
    // name a link, went as a link list (boost_units/Reference.html kept 22 of 314 headings).
    // edoc: a function's signature `h4 > div.title-name`, every type a link.
    let page = format!(
        r##"<html><body><div id="content">{}
<div class="section"><div class="titlepage"><div><div><h4 class="title"><a name="h1"></a>Header &lt;<a href="pow.hpp">boost/units/pow.hpp</a>&gt;</h4></div></div></div>
<p>Raise a value to a power known at compile time.</p><pre class="synopsis">template&lt;long N&gt; pow(const Y&amp;);</pre></div>
<article class="func"><div class="bold_code func-head"><h4 id="reduce-1" class="title-link">
<div class="title-anchors"><span class="ghlink-before"><a href="#reduce-1"><span class="paperclip"></span></a></span></div>
<div class="title-name">reduce(Cs::[<a href="cerl.html#type-c_clause">cerl:c_clause()</a>]) -&gt; <a href="#type-bindings">bindings()</a></div>
</h4></div><div class="exports-tube"><div class="REFBODY"><p>Selects a single clause, if possible.</p></div></div></article>
<article class="func"><div class="bold_code func-head"><h4 id="is_catchall-1" class="title-link">
<div class="title-name">is_catchall(C::<a href="cerl.html#type-c_clause">cerl:c_clause()</a>) -&gt; boolean()</div>
</h4></div><div class="exports-tube"><div class="REFBODY"><p>Returns true if an abstract clause is a catch-all.</p></div></div></article>
</div></body></html>"##,
        long_section(4)
    );
    let md = pruned(&page);
    assert!(
        md.contains("Header <[boost/units/pow.hpp](pow.hpp)>"),
        "{md}"
    );
    assert!(
        md.contains("reduce(Cs::\\[[cerl:c_clause()](cerl.html#type-c_clause)]) ->"),
        "{md}"
    );
}

#[test]
fn a_teaser_card_is_no_heading_of_the_page() {
    // MSN's previous/next story cards: a link around a picture and an `<h4>` headline.
    let page = format!(
        r##"<html><body><div id="content"><div class="paddle previous"><a href="/story">
<div class="headline"><img alt="Phone" src="p.jpg"><div><h4 class="truncate">Twitter suspends accounts</h4></div></div></a></div>
<div class="article">{}</div></div></body></html>"##,
        long_section(6)
    );
    let md = pruned(&page);
    assert!(md.contains("view-only permissions"), "{md}");
    assert!(!md.contains("Twitter suspends"), "{md}");
}

#[test]
fn a_short_sentence_around_a_link_is_kept() {
    // edoc and Scribble: "Equivalent to <a>export(Data, Callback, [])</a>." and "Returns #t
    // for <a>done</a> and #f otherwise." are a function's whole description, under eight
    // words of their own and over half links.
    let page = format!(
        r##"<html><body><div id="content">{}
<div class="REFBODY"><p>Equivalent to <span class="bold_code"><a href="#export-3">export(Data, Callback, [])</a></span>.</p></div>
{}<div class="SIntrapara">Returns #t for <a href="#done">drracket:module-language-tools:done</a> and #f otherwise.</div>
{}<div class="related"><p><a href="/a">Another page</a> <a href="/b">And one more</a></p></div></div></body></html>"##,
        long_section(2),
        long_section(2),
        long_section(2)
    );
    let md = pruned(&page);
    assert!(
        md.contains("Equivalent to [export(Data, Callback, \\[\\])](#export-3)."),
        "{md}"
    );
    assert!(
        md.contains(
            "Returns #t for [drracket:module-language-tools:done](#done) and #f otherwise."
        ),
        "{md}"
    );
    assert!(!md.contains("Another page"), "{md}");
}

#[test]
fn member_summaries_that_link_every_name_are_kept() {
    // qdoc: "Static Public Members" (`const QString &` | `<a>decreaseAction</a>()`) is more
    // than half links, and went while "Public Functions" beside it stayed; "Properties" is
    // a list set in columns, each column's `<ul>` opening its cell, and went as link lists.
    let statics: String = (0..8)
        .map(|i| {
            format!(
                "<tr><td class=\"memItemLeft\"> const QString &amp;</td><td class=\"memItemRight\">\
                 <b><a href=\"q.html#action{i}\">decreaseAction{i}</a></b>()</td></tr>"
            )
        })
        .collect();
    let props = |from: usize| -> String {
        (from..from + 4)
            .map(|i| {
                format!(
                    "<li class=\"fn\"><b><a href=\"q.html#p{i}-prop\">cancelButtonText{i}</a></b> : QString</li>"
                )
            })
            .collect()
    };
    let page = format!(
        r##"<html><body><div class="content mainContent"><h1 class="title">QInputDialog Class</h1>
<h2 id="properties">Properties</h2>
<div class="table"><table class="propsummary"><tr><td class="topAlign"><ul>{}</ul></td>
<td class="topAlign"><ul>{}</ul></td></tr></table></div>
<h2 id="static-public-members">Static Public Members</h2>
<div class="table"><table class="alignedsummary">{statics}</table></div>
<div class="descr"><h2 id="details">Detailed Description</h2>{}</div>
<div class="related"><h2>More</h2><table>{}</table></div></div></body></html>"##,
        props(0),
        props(4),
        long_section(8),
        (1..6)
            .map(|i| format!(
                "<tr><td>{i}</td><td><a href=\"/p/{i}\">A popular page, number {i}</a></td></tr>"
            ))
            .collect::<String>(),
    );
    let md = pruned(&page);
    assert!(
        md.contains("| const QString & | [**decreaseAction7**](q.html#action7)() |"),
        "{md}"
    );
    assert!(
        md.contains("[**cancelButtonText0**](q.html#p0-prop) : QString"),
        "{md}"
    );
    assert!(
        md.contains("[**cancelButtonText7**](q.html#p7-prop) : QString"),
        "{md}"
    );
    assert!(!md.contains("A popular page"), "{md}");
}

#[test]
fn a_block_linking_one_long_name_is_kept() {
    // YARD's class list: `div.item` holds one link, the class name, beside its superclass
    // and namespace. Names of 20 bytes and more ("ExpectationErrorFactory") were taken for
    // a teaser's headline and the item came out as an empty `-`; a headline in words still
    // goes.
    let item = |name: &str| {
        format!(
            "<li><div class=\"item\"><span class=\"object_link\"><a href=\"Mocha/{name}.html\" \
             title=\"Mocha::{name} (class)\">{name}</a></span> &lt; Object<small \
             class=\"search_info\">Mocha</small></div></li>"
        )
    };
    let page = format!(
        r#"<html><body><div id="content"><h1>Mocha</h1>{}<h2>Classes</h2><ul>{}{}</ul>
<div class="more">Read more: <a href="/news/1">Why mocking libraries keep growing their APIs</a></div>
</div></body></html>"#,
        long_section(6),
        item("Expectation"),
        item("ExpectationErrorFactory"),
    );
    let md = pruned(&page);
    assert!(
        md.contains("- [Expectation](Mocha/Expectation.html) < ObjectMocha"),
        "{md}"
    );
    assert!(
        md.contains(
            "- [ExpectationErrorFactory](Mocha/ExpectationErrorFactory.html) < ObjectMocha"
        ),
        "{md}"
    );
    assert!(!md.contains("Why mocking libraries"), "{md}");
}

#[test]
fn a_synopsis_under_its_heading_beside_the_description_is_kept() {
    // BoostBook's class pages: `h2 Synopsis` + `div.refsynopsisdiv > pre.synopsis`, every
    // type and member a link, beside the `div.refsect1` description that scored; the
    // declaration went on the long pages (circular_buffer, the intrusive containers).
    let members: String = (0..12)
        .map(|i| {
            format!(
                "  <span class=\"identifier\">size_type</span> <a class=\"link\" \
                 href=\"devector.html#idm{i}-bb\">member_function_{i}</a>() const;\n"
            )
        })
        .collect();
    let page = format!(
        r#"<html><head><title>Class template devector</title></head><body>
<div class="spirit-nav"><a href="prev.html">Prev</a><a href="up.html">Up</a></div>
<div class="refentry"><a name="boost.container.devector"></a><div class="titlepage"></div>
<div class="refnamediv"><h2><span class="refentrytitle">Class template devector</span></h2>
<p>boost::container::devector</p></div>
<h2 class="refsynopsisdiv-title">Synopsis</h2>
<div class="refsynopsisdiv"><pre class="synopsis"><span class="comment">// In header: &lt;<a class="link" href="h.html">boost/container/devector.hpp</a>&gt;</span>

<span class="keyword">class</span> <a class="link" href="devector.html">devector</a> {{
{members}}};</pre></div>
<div class="refsect1"><a name="id-1"></a><h2>Description</h2>{}</div>
</div></body></html>"#,
        long_section(12),
    );
    let md = pruned(&page);
    assert!(
        md.contains("## Synopsis\n\n```\n// In header: <boost/container/devector.hpp>"),
        "{md}"
    );
    assert!(
        md.contains("  size_type member_function_11() const;\n};\n```"),
        "{md}"
    );
    assert!(md.contains("## Description"), "{md}");
    assert!(!md.contains("Prev"), "{md}");
}

#[test]
fn three_example_programs_are_kept_together() {
    // PostgreSQL's libpq-example.html: an intro and three `div.example` programs; the
    // longest scored and the intro and the other two went (7.0 of 15.2 KB kept). Three
    // like blocks that the scorer all credits are a run of entries.
    let program = |n: usize, lines: usize| {
        let code: String = (0..lines)
            .map(|i| format!("    res = PQexec(conn, \"FETCH ALL in myportal{n}_{i}\");\n"))
            .collect();
        format!(
            r#"<div class="example" id="LIBPQ-EXAMPLE-{n}"><p class="title"><strong>Example 34.{n}. libpq Example Program {n}</strong></p>
<div class="example-contents"><pre class="programlisting">/*
 * testlibpq{n}.c
 */
{code}</pre></div></div><br class="example-break">"#
        )
    };
    let page = format!(
        r#"<html><head><title>34.22. Example Programs</title></head><body>
<div class="navheader"><table><tr><th colspan="5">34.22. Example Programs</th></tr>
<tr><td><a href="prev.html">Prev</a></td><td><a href="up.html">Up</a></td></tr></table><hr></div>
<div class="sect1" id="LIBPQ-EXAMPLE"><div class="titlepage"><div><div><h2 class="title">34.22. Example Programs</h2></div></div></div>
<p>These examples and others can be found in the directory <code class="filename">src/test/examples</code> in the source code distribution.</p>
{}{}{}</div>
<div class="navfooter"><hr><table><tr><td><a href="prev.html">Prev</a></td><td><a href="next.html">Next</a></td></tr></table></div>
</body></html>"#,
        program(1, 30),
        program(2, 35),
        program(3, 60),
    );
    let md = pruned(&page);
    assert!(
        md.contains("These examples and others can be found"),
        "{md}"
    );
    for n in 1..=3 {
        assert!(
            md.contains(&format!("**Example 34.{n}. libpq Example Program {n}**")),
            "{md}"
        );
        assert!(md.contains(&format!("FETCH ALL in myportal{n}_29")), "{md}");
    }
    assert!(!md.contains("Prev"), "{md}");
}

#[test]
fn a_step_that_spells_its_addresses_out_is_kept() {
    // git's SubmittingPatches (AsciiDoc): the one setup step under "GitHub CI" writes both
    // its addresses out as link text, just over half its text, and went as a link farm.
    let page = format!(
        r#"<html><body><div id="content"><div class="sect1"><h2>GitHub CI</h2><div class="sectionbody">
{}
<div class="paragraph"><p>Follow these steps for the initial setup:</p></div>
<div class="olist arabic"><ol class="arabic"><li><p>
Fork <a href="https://github.com/git/git">https://github.com/git/git</a> to your GitHub account.
  You can find detailed instructions how to fork here:
  <a href="https://help.github.com/articles/fork-a-repo/">https://help.github.com/articles/fork-a-repo/</a>
</p></li></ol></div>
<div class="related"><a href="/blog/1">Our favourite continuous integration setups</a> <a href="/blog/2">More about forks</a></div>
</div></div></div></body></html>"#,
        long_section(6),
    );
    let md = pruned(&page);
    assert!(
        md.contains("1. Fork [https://github.com/git/git](https://github.com/git/git) to your GitHub account."),
        "{md}"
    );
    assert!(!md.contains("Our favourite"), "{md}");
}

#[test]
fn chapters_beside_a_wrapped_table_are_kept() {
    // SQLite's `opcode.html`: `div.fancy` holds the table of contents and 12 KB of chapters
    // (no heading opens it); beside it `div.optab > blockquote > table`, the opcode table,
    // scores best (its body, credited by the paragraphs in its cells). The blockquote has
    // no siblings of its own, so the chapters were dropped.
    let row = |i: usize| {
        format!(
            "<tr><td valign=\"top\" align=\"center\"><a name=\"Op{i}\"></a>Op{i}</td>\
             <td><p>Take the logical AND of the values in registers P1 and P2, write the \
             result into register P3, and if either input is NULL, the result is NULL.</p>\
             <p>An Abort is safe if either there have been no writes, or if there is an \
             active statement journal.</p></td></tr>"
        )
    };
    let chapter = |i: usize| {
        format!(
            "<h1 id=\"c{i}\"><span>{i}. </span>Chapter {i}</h1>{}",
            paragraphs(
                3,
                "SQLite works by translating SQL statements into bytecode and then running \
                 that bytecode in a virtual machine, which this document describes in turn."
            )
        )
    };
    let page = format!(
        "<html><head><title>The SQLite Bytecode Engine</title></head><body>\
         <div class=\"nosearch\"><a href=\"/\">Home</a> <a href=\"/about.html\">About</a></div>\
         <div class=\"fancy\"><div class=\"nosearch\"><div class=\"fancy_title\">The SQLite \
         Bytecode Engine</div><div class=\"fancy_toc\"><a href=\"#c1\">1. Chapter 1</a> \
         <a href=\"#c2\">2. Chapter 2</a></div></div>{}</div>\
         <div class=\"optab\"><blockquote><table border=\"1\"><tr><th>Opcode Name</th>\
         <th>Description</th></tr>{}</table></blockquote></div></body></html>",
        (1..=6).map(chapter).collect::<String>(),
        (0..100).map(row).collect::<String>()
    );
    let md = pruned(&page);
    assert!(
        md.contains("# 1. Chapter 1\n\nSQLite works by translating"),
        "{md}"
    );
    assert!(md.contains("# 6. Chapter 6"), "{md}");
    assert!(md.contains("| Op99 |"), "{md}");
    // The table comes after the chapters, as on the page.
    assert!(
        md.find("# 6. Chapter 6") < md.find("| Opcode Name |"),
        "{md}"
    );
    assert!(!md.contains("About"), "{md}");
}

#[test]
fn a_toctree_the_page_announces_is_kept() {
    // Sphinx writes a `.. toctree::` in the body as `div.toctree-wrapper`. On an index page
    // that list of the pages below is the content; the page announces it with a heading, a
    // paragraph that stops short of a full stop, or the toctree's own caption. (One nothing
    // announces is judged as any list of links: tests/conformance.rs.)
    let toctree = |pages: &[&str], label: &str| {
        format!(
            "<div class=\"toctree-wrapper compound\"><ul>{}</ul></div>",
            pages
                .iter()
                .map(|p| format!(
                    "<li class=\"toctree-l1\"><a class=\"reference internal\" \
                                  href=\"{p}.html\">{p}{label}</a></li>"
                ))
                .collect::<String>()
        )
    };
    let nav = "<div class=\"sphinxsidebar\" role=\"navigation\"><ul><li><a href=\"intro.html\">\
               Getting started</a></li><li><a href=\"faq.html\">FAQ</a></li></ul></div>";
    // python3 `library/email.html`: "Contents of the `email` package documentation:".
    let page = format!(
        "<html><body>{nav}<div class=\"body\" role=\"main\"><section><h1>email</h1>{}\
         <p>Contents of the <code>email</code> package documentation:</p>{}</section></div>\
         </body></html>",
        paragraphs(
            3,
            "The email package is a library for managing email messages, not for \
                       sending them, which smtplib does."
        ),
        toctree(&["email.message", "email.parser", "email.generator"], "")
    );
    let md = pruned(&page);
    assert!(
        md.contains("documentation:\n\n- [email.message](email.message.html)\n"),
        "{md}"
    );
    assert!(!md.contains("FAQ"), "{md}");
    // Django's release notes index: the security section scores best, and beside it the
    // "Final releases" section, a heading over each series' toctree, is all links.
    let series = |v: &str| {
        let pages: Vec<String> = (1..=12).rev().map(|i| format!("{v}.{i}")).collect();
        let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
        format!(
            "<div class=\"section\" id=\"s-{v}\"><h3>{v} release</h3>{}</div>",
            toctree(&pages, " release notes")
        )
    };
    let security = "<p>Whenever a security issue is disclosed via <a href=\"security.html\">\
                    Django's security policies</a>, appropriate release notes are now added \
                    to all affected release series.</p>"
        .repeat(4);
    let page = format!(
        "<html><body><div id=\"hd\"><h1><a href=\"../index.html\">Django documentation</a>\
         </h1><div id=\"global-nav\"><a href=\"../index.html\">Home</a> | \
         <a href=\"../genindex.html\">Index</a></div></div><div id=\"bd\"><div class=\"yui-b\">\
         <div class=\"section\" id=\"s-release-notes\"><h1>Release notes</h1><p>Release notes \
         for the official Django releases. Each release note will tell you what is new in each \
         version, and will also describe any backwards-incompatible changes.</p>\
         <div class=\"section\" id=\"s-final-releases\"><h2>Final releases</h2><p>Below are \
         release notes through Django 3.2 and its patch releases.</p>{}</div>\
         <div class=\"section\" id=\"s-security-releases\"><h2>Security releases</h2>{security}\
         </div></div></div></div></body></html>",
        ["3.2", "3.1", "3.0", "2.2", "2.1", "2.0"]
            .map(series)
            .concat()
    );
    let md = pruned(&page);
    assert!(
        md.contains("### 3.2 release\n\n- [3.2.12 release notes](3.2.12.html)"),
        "{md}"
    );
    assert!(md.contains("- [2.0.1 release notes](2.0.1.html)"), "{md}");
    assert!(md.contains("## Security releases"), "{md}");
    // A captioned toctree (`:caption: User Guide`).
    let page = format!(
        "<html><body>{nav}<div class=\"body\" role=\"main\"><h1>Welcome</h1>{}\
         <div class=\"toctree-wrapper compound\"><p class=\"caption\" role=\"heading\">\
         <span class=\"caption-text\">User Guide</span></p><ul><li class=\"toctree-l1\">\
         <a href=\"install.html\">Installation</a></li><li class=\"toctree-l1\">\
         <a href=\"usage.html\">Usage</a></li></ul></div></div></body></html>",
        paragraphs(
            2,
            "This is the documentation of the project, which does many things."
        )
    );
    let md = pruned(&page);
    assert!(md.contains("User Guide"), "{md}");
    assert!(md.contains("- [Usage](usage.html)"), "{md}");
}

#[test]
fn a_list_of_links_that_is_the_pages_index_is_kept() {
    // git's technical/api-index.html (AsciiDoc): one sentence, then the documents.
    let page = "<html><head><title>Git API Documents</title></head><body class=\"article\">\
        <div id=\"header\"><h1>Git API Documents</h1></div><div id=\"content\">\
        <div id=\"preamble\"><div class=\"sectionbody\"><div class=\"paragraph\"><p>Git has \
        grown a set of internal API over time. This collection documents them.</p></div>\
        <div class=\"ulist\"><ul><li><p><a href=\"api-error-handling.html\">Error reporting in \
        git</a></p></li><li><p><a href=\"api-merge.html\">merge API</a></p></li><li><p>\
        <a href=\"api-trace2.html\">Trace2 API</a></p></li></ul></div></div></div></div>\
        <div id=\"footer\"><div id=\"footer-text\">Last updated 2025-10-07</div></div>\
        </body></html>";
    let md = pruned(page);
    assert!(md.contains("This collection documents them."), "{md}");
    assert!(md.contains("[merge API](api-merge.html)"), "{md}");
    assert!(md.contains("[Trace2 API](api-trace2.html)"), "{md}");
    // qdoc's `*-members.html`: the title, one sentence, the members.
    let page = "<html><head><title>List of All Members for QSemaphore</title></head><body>\
        <div class=\"header\"><ul><li><a href=\"index.html\">Qt 5.15</a></li><li>\
        <a href=\"qtcore-index.html\">Qt Core</a></li></ul></div><div class=\"content\">\
        <h1 class=\"title\">List of All Members for QSemaphore</h1><p>This is the complete \
        list of members for <a href=\"qsemaphore.html\">QSemaphore</a>, including inherited \
        members.</p><ul><li class=\"fn\"><b><a href=\"qsemaphore.html#acquire\">acquire</a></b>\
        (int )</li><li class=\"fn\"><b><a href=\"qsemaphore.html#release\">release</a></b>\
        (int )</li></ul></div></body></html>";
    let md = pruned(page);
    assert!(
        md.contains("[**release**](qsemaphore.html#release)(int )"),
        "{md}"
    );
    assert!(!md.contains("Qt Core"), "{md}");
    // Not a list that comes before the rest (Haddock's A–Z bar above an index's table).
    let before = page.replace(
        "</ul></div></body>",
        "</ul><p>Entries in italics are inherited.</p></div></body>",
    );
    assert!(!pruned(&before).contains("qsemaphore.html#release"));
    // Not a list in a section of its own after another one (after a finished sentence, as
    // a list right after a heading is introduced by it): a short page's furniture.
    let headed = page.replace(
        "members.</p><ul>",
        "members.</p><h2>See also</h2><p>More can be found online.</p><ul>",
    );
    assert!(!pruned(&headed).contains("qsemaphore.html#release"));
    // Not a line of links (cppreference's breadcrumbs).
    let line = page
        .replace("<ul><li class=\"fn\">", "<div class=\"subpages\">")
        .replace("</li><li class=\"fn\">", " | ")
        .replace("(int )</li></ul></div></body>", "(int )</div></div></body>");
    assert!(!pruned(&line).contains("qsemaphore.html#release"));
    // What follows the list is read up to 1,000 nodes: past them, as if text followed.
    let padded = |n: usize| {
        page.replace(
            "</ul></div>",
            &format!("</ul>{}</div>", "<i></i>".repeat(n)),
        )
    };
    assert!(pruned(&padded(900)).contains("qsemaphore.html#release"));
    assert!(!pruned(&padded(1100)).contains("qsemaphore.html#release"));
}

#[test]
fn a_short_page_whose_example_scores_best_keeps_its_text() {
    // cppreference (`cpp/error/system_category.html`, cut down): the example's listing
    // scores best. The siblings are looked for beside the listing itself, not beside the
    // wrapper it sits alone in: there, the description would be judged a sibling of the
    // example block and dropped, and the page would keep only its code.
    let page = r#"<html><body><div><div><div><div>
<p>Obtains a reference to the static error category object for errors reported by the operating system. The object is required to override the virtual function to return a pointer to the string. It is also required to override the virtual function to map the error codes that match POSIX values to.</p>
<div><div class="mw-geshi"><div><pre><span>int</span> main<span>(</span><span>)</span>
<span>{</span>
    std::error_condition econd <span>=</span> std::system_category<span>(</span><span>)</span>.default_error_condition<span>(</span>EDOM<span>)</span><span>;</span>
    std::cout <span>&lt;&lt;</span> <span>"Category: "</span> <span>&lt;&lt;</span> econd.category<span>(</span><span>)</span>.<span>name</span><span>(</span><span>)</span> <span>&lt;&lt;</span> <span>'\n'</span>
              <span>&lt;&lt;</span> <span>"Value: "</span> <span>&lt;&lt;</span> econd.<span>value</span><span>(</span><span>)</span> <span>&lt;&lt;</span> <span>'\n'</span>
              <span>&lt;&lt;</span> <span>"Message: "</span> <span>&lt;&lt;</span> econd.<span>message</span><span>(</span><span>)</span> <span>&lt;&lt;</span> <span>'\n'</span><span>;</span>
<span>}</span></pre></div></div>
<p>Output:</p>
<div class="mw-geshi"><div class="text source-text"><pre>Category: generic
Value: 33
Message: Numerical argument out of domain</pre></div></div>
</div></div></div></div></div></body></html>"#;
    let md = pruned(page);
    assert!(
        md.starts_with("Obtains a reference to the static error category object"),
        "{md}"
    );
    assert!(md.contains("default_error_condition(EDOM);"), "{md}");
    assert!(
        md.contains("Message: Numerical argument out of domain"),
        "{md}"
    );
}

#[test]
fn a_logo_linking_the_front_page_goes_and_other_linked_logos_stay() {
    // rustdoc 1.63: `a.sub-logo-container` inside every page's `<main>`, the crate's logo
    // linking its `index.html`, opened each page's Markdown before the title.
    let page = |logo: &str| {
        format!(
            "<html><body><main><div class=sub-container>{logo}</div>\
             <h1>Function core::arch::x86::_mm_max_epu32</h1>\
             <p>Compares packed unsigned 32-bit integers in a and b.</p></main></body></html>"
        )
    };
    for logo in [
        r#"<a class="sub-logo-container" href="../../../core/index.html"><img class="rust-logo" src="../../../rust-logo.svg" alt="logo"></a>"#,
        r#"<a href="https://news.example/"> <img src="/masthead.png" alt="Example News Logo"> </a>"#,
        r#"<a class="site-logo" href="/"><img src="/m.png" alt=""></a>"#,
    ] {
        let md = pruned(&page(logo));
        assert!(!md.contains("png") && !md.contains("svg"), "{logo}:\n{md}");
        assert!(md.contains("Compares packed unsigned"), "{md}");
    }
    // A logo leading anywhere but a front page, a logo beside words, and a linked picture
    // not named a logo are content.
    for (logo, kept) in [
        (
            r#"<a href="https://github.com/rust-lang/rust"><img src="/logo.png" alt="Rust logo"></a>"#,
            "logo.png",
        ),
        (
            r#"<a href="/"><img src="/logo.png" alt="logo"> Home of the crate</a>"#,
            "Home of the crate",
        ),
        (
            r#"<a href="/gallery/"><img src="/harbour.jpg" alt="The harbour at dawn"></a>"#,
            "harbour.jpg",
        ),
    ] {
        let md = pruned(&page(logo));
        assert!(md.contains(kept), "{logo}:\n{md}");
    }
}
