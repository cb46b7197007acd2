# htmd (letmutex/htmd) test cases, transcribed from tests/*.rs into Python tuples (see SOURCE; Apache-2.0, see LICENSE).
# (name, html, expected, option) ; option "" = htmd::convert() defaults, "faithful" = convert_faithful
# (TranslationMode::Faithful: falls back to raw HTML), other = non-default option.
CASES = [
# basic_tests.rs
("basic/links_with_spaces", '<a href="https://example.com/Some Page.html">Example</a>', '[Example](<https://example.com/Some Page.html>)', "faithful"),
("basic/images", '''
        <img src="https://example.com" />
        <img src="https://example.com" alt="Image 1" />
        <img src="https://example.com" alt="Image 2" title="Hello" />
        ''', '![](https://example.com) ![Image 1](https://example.com) ![Image 2](https://example.com "Hello")', "faithful"),
("basic/images_with_spaces_in_url", '<img src="https://example.com/Some Image.jpg" />', '![](<https://example.com/Some Image.jpg>)', "faithful"),
("basic/image_title_angle_dest", '<img src="https://example.com/image name.png" alt="diagram" title="A title">', '![diagram](<https://example.com/image name.png> "A title")', ""),
("basic/headings", '''
        <h1>Heading 1</h1>
        <h2>Heading 2</h2>
        <h3>Heading 3</h3>
        <h4>Heading 4</h4>
        <h5>Heading 5</h5>
        <h6>Heading 6</h6>
        ''', "# Heading 1\n\n## Heading 2\n\n### Heading 3\n\n#### Heading 4\n\n##### Heading 5\n\n###### Heading 6", "faithful"),
("basic/paragraphs", '''
        <p>The first.</p>
        <p>The <span>second.</span></p>
        ''', "The first.\n\nThe <span>second.</span>", "faithful"),
("basic/quotes", '<blockquote>Once upon a time</blockquote>', "> Once upon a time", "faithful"),
("basic/br", '<p>Hi<br>there<br><br>!</p>', "Hi<br>there<br><br>!", "faithful"),
("basic/hr", 'Hi <hr/> there', "Hi\n\n* * *\n\nthere", "faithful"),
("basic/strong_italic", '<i>Italic</i><em>Also italic</em><strong>Strong</strong><b>Stronger</b>', "*ItalicAlso italic***StrongStronger**", "faithful"),
("basic/italic_inside_word", 'It<i>al</i>ic St<b>ro</b>ng', "It*al*ic St**ro**ng", "faithful"),
("basic/italic_with_br", "a<i>b<br></i>c d<b><br>e</b>f", "a<i>b<br></i>c d<b><br>e</b>f", "faithful"),
("basic/inline_raw_html_escaping", 'Test &lt;code&gt;tags&lt;/code&gt;, &lt;!-- comments --&gt;, &lt;?processing instructions?&gt;, &lt;!A declaration&gt;, and &lt;![CDATA[character data]]&gt;.',
 r'Test \<code>tags\</code>, \<!-- comments -->, \<?processing instructions?>, \<!A declaration>, and <!\[CDATA\[character data\]\]>.', "faithful"),
("basic/multiline_raw_html_escaping", '''Test &lt;code&gt;multi-line
tags&lt;/code&gt;, &lt;!-- multi-line
comments --&gt;, &lt;?multi-line
processing instructions?&gt;, &lt;!A multi-line
declaration&gt;, and &lt;![CDATA[multi-line
character data]]&gt;.
''', r'Test \<code>multi-line tags\</code>, \<!-- multi-line comments -->, \<?multi-line processing instructions?>, \<!A multi-line declaration>, and <!\[CDATA\[multi-line character data\]\]>.', "faithful"),
("basic/html_escaping", '''<p>&lt;pre</p>
<p>&lt;script</p>
<p>&lt;style</p>
<p>&lt;textarea</p>
<p>&lt;address</p>
<p>&lt;ul</p>
''', "\\<pre\n\n\\<script\n\n\\<style\n\n\\<textarea\n\n\\<address\n\n\\<ul", "faithful"),
("basic/faithful_mode_nested_inline_html", "<p>Nested <foo><bar><em>content</em></bar></foo></p>", "Nested <foo><bar>*content*</bar></foo>", "faithful"),
("basic/spaces_check", '<i>Italic</i> <em>Also italic</em>  <strong>Strong</strong> <b>Stronger </b>', "*Italic* *Also italic* **Strong** **Stronger**", "faithful"),
("basic/consecutive_blocks", '<p>One</p><p>Two</p>', "One\n\nTwo", "faithful"),
("basic/raw_text", 'Hello world!', "Hello world!", "faithful"),
("basic/nested_divs", '''
    <div>
        <div>
            <div>Hi</div>
        </div>
        <div></div>
        <div>there</div>
    </div>
    ''', "Hi\n\nthere", ""),
("basic/with_head", '''
    <html>
        <head>
            <title>Demo</title>
            <script>console.log('Hello');</script>
            <style>body {}</style>
        </head>
        <body>
            Content
        </body>
    </html>
    ''', "Demo\n\nconsole.log('Hello');\n\nbody {}\n\nContent", ""),
("basic/upper_case_tags", '<H1>Hello</H1> <P>World</P>', "# Hello\n\nWorld", "faithful"),
("basic/html_entities_link", '<p><a href="/my%20&amp;uri" title="my%20&amp;title">my%20&amp;link</a></p>', '[my%20&link](/my%20&uri "my%20&title")', "faithful"),
("basic/html_entities_plain", '<p>This &amp; that, then &lt; &gt; now.</p>', "This & that, then < > now.", "faithful"),
("basic/noscript_scripting_disabled", '<noscript><p>Hello</p></noscript>', "Hello", "scripting_enabled=false"),
("basic/unterminated_html", "<h1><i>A</h1>", "# *A*", "faithful"),
("basic/misnested_formatting", "<p><b>one<i>two</b>three</i>four", "**one*two****three*four", ""),
("basic/math_inline", '<p><span class="math math-inline">x^2</span></p>', "$x^2$", "faithful"),
("basic/math_display", '<p><span class="math math-display">x^2</span></p>', "$$x^2$$", "faithful"),
("basic/document_whitespace", '''
<p>bar&nbsp;</p>
<ul>
  <li>foo&nbsp;</li>
</ul>
''', "bar\u00a0\n\n*   foo\u00a0", "faithful"),
("basic/multibyte_ol_escape_half", "<p>2½. Long shot</p>", r"2½\. Long shot", "faithful"),
("basic/multibyte_ol_escape_accented", "<p>1é. text</p>", r"1é. text", "faithful"),
("basic/multibyte_ol_escape_trademark", "<p>3™. text</p>", r"3™. text", "faithful"),
("basic/ascii_ol_escape", "<p>10. normal</p>", r"10\. normal", "faithful"),
("basic/multibyte_no_dot", "<p>2½</p>", "2½", "faithful"),
("basic/cjk_before_ol", "<p>日本語1. test</p>", r"日本語1. test", "faithful"),
("basic/multibyte_atx_escape", "<p># héading</p>", r"\# héading", "faithful"),
("basic/multibyte_atx_escape_umlaut", "<p>## über</p>", r"\## über", "faithful"),
# list_tests.rs
("list/unordered", '''
        <ul>
            <li>Item 1</li>
            <li>Item 2</li>
            <li>Item 3</li>
        </ul>
        ''', "*   Item 1\n*   Item 2\n*   Item 3", ""),
("list/ordered", '''
        <ol>
            <li>Item 1</li>
            <li>Item 2</li>
            <li>Item 3</li>
        </ol>
        ''', "1.  Item 1\n2.  Item 2\n3.  Item 3", ""),
# link_tests.rs
("link/links", '''
        <a href="https://example.com">Link 1</a>
        <a href="https://example.com" title="Hello">Link 2</a>
        ''', '[Link 1](https://example.com)[Link 2](https://example.com "Hello")', ""),
("link/spaces_around_text_1", '<a href="/"> bla </a>', "[bla](/)", ""),
("link/spaces_around_text_2", 'Some <a href="/"> random </a> text', "Some [random](/) text", ""),
# code_tests.rs
("code/backticks_only", "<code>``</code>", "``` `` ```", ""),
("code/ending_backtick", "<code>code`</code>", "`` code` ``", ""),
("code/fence_longer_than_content", "<pre><code>`````\nlet parsed = true;\n`````</code></pre>", "``````\n`````\nlet parsed = true;\n`````\n``````", ""),
# table_tests.rs
("table/simple", '''
        <table>
            <tr>
                <th>Header 1</th>
                <th>Header 2</th>
            </tr>
            <tr>
                <td>Cell 1</td>
                <td>Cell 2</td>
            </tr>
            <tr>
                <td>Cell 3</td>
                <td>Cell 4</td>
            </tr>
        </table>
        ''', "| Header 1 | Header 2 |\n| -------- | -------- |\n| Cell 1   | Cell 2   |\n| Cell 3   | Cell 4   |", "faithful"),
("table/cells_beyond_header_width", '''
            <table>
                <thead>
                    <tr><th>First</th><th>Second</th></tr>
                </thead>
                <tbody>
                    <tr><td>Alpha</td><td>Beta</td><td>Must survive</td></tr>
                </tbody>
            </table>
            ''', "| First | Second |              |\n| ----- | ------ | ------------ |\n| Alpha | Beta   | Must survive |", ""),
("table/foster_parenting", "<table>before<tr><th>heading</th></tr>after</table>", "beforeafter\n\n| heading |\n| ------- |", ""),
("table/thead_tbody", '''
        <table>
            <thead>
                <tr>
                    <th>Name</th>
                    <th>Age</th>
                    <th>Location</th>
                </tr>
            </thead>
            <tbody>
                <tr>
                    <td>John</td>
                    <td>35</td>
                    <td>New York</td>
                </tr>
                <tr>
                    <td>Jane</td>
                    <td>28</td>
                    <td>San Francisco</td>
                </tr>
            </tbody>
        </table>
        ''', "| Name | Age | Location      |\n| ---- | --- | ------------- |\n| John | 35  | New York      |\n| Jane | 28  | San Francisco |", "faithful"),
("table/thead_td_headers", '''
        <table>
            <thead>
                <tr>
                    <td>Name</td>
                    <td>Age</td>
                </tr>
            </thead>
            <tbody>
                <tr>
                    <td>John</td>
                    <td>35</td>
                </tr>
                <tr>
                    <td>Jane</td>
                    <td>28</td>
                </tr>
            </tbody>
        </table>
        ''', "| Name | Age |\n| ---- | --- |\n| John | 35  |\n| Jane | 28  |", ""),
("table/caption_pure", "<table><caption>Sample Table</caption><thead><tr><th>h</th></tr></thead><tbody><tr><td>John</td></tr></tbody></table>", "Sample Table\n| h    |\n| ---- |\n| John |", ""),
("table/caption_pure_2", "<table><caption>Caption</caption><tr><th>Header</th></tr><tr><td>Cell</td></tr></table>", "Caption\n| Header |\n| ------ |\n| Cell   |", ""),
("table/empty_header_row_pure", "<table><thead></thead><tbody><tr><td>a</td></tr></tbody></table>", "|   |\n| - |\n| a |", ""),
("table/empty", "<table></table>", "", "faithful"),
("table/inlines", '''
        <table>
            <thead>
                <tr>
                    <th><code>Type</code></th>
                    <th><em>Example</em></th>
                </tr>
            </thead>
            <tbody>
                <tr>
                    <td>Backslash escapes</td>
                    <td>*not emphasized*</td>
                </tr>
                <tr>
                    <td>Entity and numeric character references</td>
                    <td>&amp;</td>
                </tr>
                <tr>
                    <td>Code spans</td>
                    <td><code>code</code></td>
                </tr>
                <tr>
                    <td>Emphasis and strong emphasis</td>
                    <td><em>emphasis</em> <strong>strong</strong></td>
                </tr>
                <tr>
                    <td>Links</td>
                    <td><a href="/uri" title="title">link</a></td>
                </tr>
                <tr>
                    <td>Images</td>
                    <td><img src="/url" alt="foo" title="title"></td>
                </tr>
                <tr>
                    <td>Raw HTML</td>
                    <td><foo></foo></td>
                </tr>
            </tbody>
        </table>
        ''', '''| `Type`                                  | *Example*             |
| --------------------------------------- | --------------------- |
| Backslash escapes                       | \\*not emphasized\\*    |
| Entity and numeric character references | &                     |
| Code spans                              | `code`                |
| Emphasis and strong emphasis            | *emphasis* **strong** |
| Links                                   | [link](/uri "title")  |
| Images                                  | ![foo](/url "title")  |
| Raw HTML                                | <foo></foo>           |''', "faithful"),
("table/block_cells", '''
<table>
    <thead>
        <tr>
            <th>a</th>
            <th><p>b</p></th>
        </tr>
    </thead>
    <tbody>
        <tr>
            <td>c</td>
            <td>d</td>
        </tr>
    </tbody>
</table>
''', "| a | <p>b</p> |\n| - | -------- |\n| c | d        |", "faithful"),
("table/headerless", '''
        <table>
            <tr>
                <td>Alpha</td>
                <td>Beta</td>
            </tr>
            <tr>
                <td>Gamma</td>
                <td>Delta</td>
            </tr>
        </table>
        ''', "Alpha\n\nBeta\n\nGamma\n\nDelta", ""),
("table/headered_with_inner_headerless", '''
        <table>
            <thead>
                <tr>
                    <th>Section</th>
                    <th>Details</th>
                </tr>
            </thead>
            <tbody>
                <tr>
                    <td>Alpha</td>
                    <td>
                        <table>
                            <tr>
                                <td>One</td>
                                <td>Two</td>
                            </tr>
                        </table>
                    </td>
                </tr>
            </tbody>
        </table>
        ''', "| Section | Details  |\n| ------- | -------- |\n| Alpha   | One  Two |", ""),
("table/headerless_with_inner_headered", '''
        <table>
            <tr>
                <td>Outer</td>
                <td>
                    <table>
                        <thead>
                            <tr>
                                <th>Inner H</th>
                            </tr>
                        </thead>
                        <tbody>
                            <tr>
                                <td>Inner V</td>
                            </tr>
                        </tbody>
                    </table>
                </td>
            </tr>
        </table>
        ''', "Outer\n\nInner H\n\nInner V", ""),
("table/headered_with_inner_headered", '''
        <table>
            <thead>
                <tr>
                    <th>Outer H1</th>
                    <th>Outer H2</th>
                </tr>
            </thead>
            <tbody>
                <tr>
                    <td>Outer V1</td>
                    <td>
                        <table>
                            <thead>
                                <tr>
                                    <th>Inner H</th>
                                </tr>
                            </thead>
                            <tbody>
                                <tr>
                                    <td>Inner V</td>
                                </tr>
                            </tbody>
                        </table>
                    </td>
                </tr>
            </tbody>
        </table>
        ''', "| Outer H1 | Outer H2         |\n| -------- | ---------------- |\n| Outer V1 | Inner H  Inner V |", ""),
# br_tests.rs (outputs identical in both translation modes unless noted)
("br/block_start_p", "<p><br>Text</p>", "\\\nText", ""),
("br/block_start_p_em", "<p><br><em>Text</em></p>", "\\\n*Text*", ""),
("br/block_start_li", "<ul><li><br>x</li></ul>", "*   \\\n    x", ""),
("br/block_start_blockquote", "<blockquote><br>x</blockquote>", "> \\\n> x", ""),
("br/inside_heading_pure", "<h1>a<br>b</h1>", "# ab", ""),
("br/inside_heading_pure_ws", "<h1>a\n<br>b</h1>", "# a b", ""),
("br/inside_heading_faithful", "<h1>a<br>b</h1>", "# a<br>b", "faithful"),
("br/in_table_cell_pure", "<table><thead><tr><th>h</th></tr></thead><tbody><tr><td>a\n<br>b</td></tr></tbody></table>", "| h   |\n| --- |\n| a b |", ""),
("br/in_table_cell_faithful", "<table><thead><tr><th>h</th></tr></thead><tbody><tr><td>a<br>b</td></tr></tbody></table>", "| h      |\n| ------ |\n| a<br>b |", "faithful"),
("br/only_header_cell", "<table><thead><tr><th><br></th></tr></thead><tbody><tr><td>x</td></tr></tbody></table>", "|   |\n| - |\n| x |", ""),
("br/p_only_br", "<p><br></p>", "", ""),
("br/p_trailing_br", "<p>a<br></p>", "a", ""),
("br/p_trailing_br2", "<p>a<br><br></p>", "a", ""),
("br/before_nested_list", "<ul><li><br><ul><li>x</li></ul></li></ul>", "*   *   x", ""),
("br/newline_before_br_em", "<p>a\n<br><em>b</em></p>", "a  \n*b*", "faithful"),
("br/newline_before_br", "<p>a\n<br>b</p>", "a  \nb", "faithful"),
("br/newline_after_br", "<p>a\n<br>\nb</p>", "a  \n b", "faithful"),
("br/newline_after_br_tabs", "<p>\n\t\ta\n\t\t<br>\n\t\tb\n</p>", "a  \n b", "faithful"),
("br/newline_after_br_em", "<p>\n    a\n    <br>\n    <em>b</em>\n</p>", "a  \n *b*", "faithful"),
("br/li", "<ul><li>a<br>b</li></ul>", "*   a  \n    b", "faithful"),
("br/li_ws", "<ul><li>a\n<br>b</li></ul>", "*   a  \n    b", "faithful"),
("br/ol_li", "<ol><li>a<br>b</li></ol>", "1.  a  \n    b", "faithful"),
("br/li_p", "<ul><li><p>a<br>b</p></li></ul>", "*   a  \n    b", "faithful"),
("br/li_blockquote", "<ul><li><blockquote>a<br>b</blockquote></li></ul>", "*   > a  \n    > b", "faithful"),
("br/li_nested", "<ul><li><ul><li>a<br>b</li></ul></li></ul>", "*   *   a  \n        b", "faithful"),
("br/blockquote_li", "<blockquote><ul><li>a<br>b</li></ul></blockquote>", "> *   a  \n>     b", "faithful"),
("br/li_em", "<ul><li>a<em>b<br>c</em></li></ul>", "*   a*b  \n    c*", "faithful"),
]
CASES += [
("br/blockquote_two_spaces", "<blockquote>a<br>b</blockquote>", "> a  \n> b", "faithful"),
("br/blockquote_p_two_spaces", "<blockquote><p>a<br>b</p></blockquote>", "> a  \n> b", "faithful"),
("br/li_trailing_ws", "<ul><li>a </li><li>b  </li></ul>", "*   a\n*   b", "faithful"),
("br/li_trailing_br", "<ul><li>a<br></li></ul>", "*   a", ""),
("br/li_p_trailing_br", "<ul><li><p>a<br></p></li></ul>", "*   a", ""),
("br/consecutive_backslash", "<p>a<br><br>b</p>", "a\\\n\\\nb", "faithful"),
("br/consecutive_4", "<p>a<br><br><br><br>b</p>", "a\\\n\\\n\\\n\\\nb", "faithful"),
("br/div_only_br", "<div><br></div>", "", ""),
("br/div_br_list", "<div><br><ul><li>x</li></ul></div>", "*   x", ""),
("br/blockquote_trailing_br", "<blockquote>a<br></blockquote>", "> a", ""),
("br/blockquote_leading_2br", "<blockquote><br><br>x</blockquote>", "> \\\n> \\\n> x", ""),
("br/blockquote_only_br", "<blockquote><br></blockquote>", "", ""),
("br/blockquote_br_p", "<blockquote><br><p>x</p></blockquote>", "> x", ""),
("br/blockquote_br_blockquote", "<blockquote><br><blockquote>x</blockquote></blockquote>", "> > x", ""),
("br/blockquote_p_br", "<blockquote><p>x</p><br></blockquote>", "> x", ""),
("br/blockquote_h1_br", "<blockquote><h1>a</h1><br></blockquote>", "> # a", ""),
("br/blockquote_x_2br", "<blockquote>x<br><br></blockquote>", "> x", ""),
("br/root_between_p", "<p>a</p><br><p>b</p>", "a\n\nb", ""),
("br/root_before_text", "<br>x", "\\\nx", ""),
("br/alone_in_em", "<p>a<em><br></em>b</p>", "a\\\nb", "br_style=backslash"),
("br/alone_in_strong", "<p>a<strong><br></strong>b</p>", "a\\\nb", "br_style=backslash"),
("br/alone_in_em_lead", "<p><em><br></em>x</p>", "\\\nx", ""),
("br/alone_in_em_trail", "<p>x<em><br></em></p>", "x", ""),
("br/alone_in_nested", "<p>a<em><strong><br></strong></em>b</p>", "a\\\nb", "br_style=backslash"),
("br/consecutive_alone_in_em", "<p>a<em><br></em><em><br></em>b</p>", "a\\\n\\\nb", "br_style=backslash"),
]
CASES += [
("demo/turndown_online_demo", r'''<h1>Turndown Demo</h1>

<p>This demonstrates <a href="https://github.com/mixmark-io/turndown">turndown</a> – an HTML to Markdown converter in JavaScript.</p>

<h2>Usage</h2>

<pre><code class="language-js">var turndownService = new TurndownService()
console.log(
  turndownService.turndown('&lt;h1&gt;Hello world&lt;/h1&gt;')
)</code></pre>

<hr />

<p>It aims to be <a href="http://commonmark.org/">CommonMark</a>
 compliant, and includes options to style the output. These options include:</p>

<ul>
  <li>headingStyle (setext or atx)</li>
  <li>horizontalRule (*, -, or _)</li>
  <li>bullet (*, -, or +)</li>
  <li>codeBlockStyle (indented or fenced)</li>
  <li>fence (` or ~)</li>
  <li>emDelimiter (_ or *)</li>
  <li>strongDelimiter (** or __)</li>
  <li>linkStyle (inlined or referenced)</li>
  <li>linkReferenceStyle (full, collapsed, or shortcut)</li>
</ul>''', r'''Turndown Demo
=============

This demonstrates [turndown](https://github.com/mixmark-io/turndown) – an HTML to Markdown converter in JavaScript.

Usage
-----

    var turndownService = new TurndownService()
    console.log(
      turndownService.turndown('<h1>Hello world</h1>')
    )

* * *

It aims to be [CommonMark](http://commonmark.org/) compliant, and includes options to style the output. These options include:

*   headingStyle (setext or atx)
*   horizontalRule (\*, -, or \_)
*   bullet (\*, -, or +)
*   codeBlockStyle (indented or fenced)
*   fence (\` or ~)
*   emDelimiter (\_ or \*)
*   strongDelimiter (\*\* or \_\_)
*   linkStyle (inlined or referenced)
*   linkReferenceStyle (full, collapsed, or shortcut)''', "setext,indented,hr=*"),
# extra probes found while classifying (not from the suite): adjacent/misnested formatting
]
