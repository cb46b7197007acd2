# node-html-markdown (crosstype/node-html-markdown) test cases, transcribed from test/*.test.ts and
# test/assets into Python tuples (see SOURCE; MIT, see LICENSE).
# (name, html, expected, option) ; option "" = `new NodeHtmlMarkdown()` defaults (suite "nhm"),
# anything else names the non-default option or translator the test sets (suite "nhm-options").
# JavaScript template literals are written out: ${...} substituted, escapes kept as Python escapes.

URL = "http://www.github.com/crosstype"
SPECIAL_URL = "http://www.github.com/crosstype/**/_test(123)"
ENCODED_SPECIAL_URL = "http://www.github.com/crosstype/%2A%2A/%5Ftest%28123%29"
IMG_URL = "http://www.github.com/crosstype/"
PRE_STR = "*   test \t\n1. test\n\\Test"
CODE_STR = "* test  \n\n1. test\n\\Test"
CODE_STR_INDENTED = "\n".join("    " + line for line in CODE_STR.split("\n"))


def block(html):
    """default-tags-codeblock.test.ts: translateAsBlock()."""
    return f"<pre><code>{html}</code></pre>"


def fenced(s):
    """default-tags-codeblock.test.ts: getExpected()."""
    return "```\n" + s + "\n```"


TEXT_FORMAT_TAGS = ["strong", "b", "del", "s", "strike", "em", "i"]
DELIMS = {"strong": "**", "b": "**", "del": "~~", "s": "~~", "strike": "~~", "em": "_", "i": "_"}

_BOLD = "**a~~b~~** \n  \n**c** \n**d**"
_STRIKE = "~~a_b_~~ \n  \n~~c~~ \n~~d~~"
_ITALIC = "_a ~~b~~_ \n  \n_c_ \n_d_"

CASES = [
# test/default-tags.test.ts
("default-tags/line-break", "a<br>b", "a  \nb", ""),
("default-tags/horizontal-rule", "a<hr>b", "a\n\n---\n\nb", ""),
("default-tags/bold", "<b>a<del>b</del><br><br>c<br>d</b><strong>a<del>b</del><br><br>c<br>d</strong>",
 _BOLD + " " + _BOLD, ""),
("default-tags/strikethrough",
 "<del>a<em>b</em><br><br>c<br>d</del><s>a<em>b</em><br><br>c<br>d</s><strike>a<em>b</em><br><br>c<br>d</strike>",
 _STRIKE + " " + _STRIKE + " " + _STRIKE, ""),
("default-tags/italic", "<em>a <s>b</s><br><br>c<br>d</em><i>a <s>b</s><br><br>c<br>d</i>",
 _ITALIC + " " + _ITALIC, ""),
("default-tags/link", f"""
        <a href="{URL}">a<br><br>b<strong>c</strong></a>
        <a>a<strong>b</strong></a> <!-- This node is treated as text due to no href -->
        <a href="{URL}">{URL}</a>
        <!-- see: https://github.com/crosstype/node-html-markdown/issues/25 -->
        <a href="{URL}">a<a href="2">nested</a><img src="{URL}">b</a>
        <b><i><a href="{SPECIAL_URL}" title="a">b</a></i></b>
    """,
 f'[a b**c**]({URL}) a**b** <{URL}> [a]({URL})[nested](2)![]({URL})b **_[b]({ENCODED_SPECIAL_URL} "a")_**', ""),
("default-tags/image", f"""
        <img src="{IMG_URL}1">
        <img title="t2" alt="a2"> <!-- This node is elided due to no href -->
        <img src="{IMG_URL}3" title="t3">
        <img src="{IMG_URL}4" title="t4" alt="a4">
        <img src="data:image/gif;base64,R/"><!-- This node is elided due to default option keepDataImages = false -->
    """,
 f'![]({IMG_URL}1) ![]({IMG_URL}3 "t3") ![a4]({IMG_URL}4 "t4")', ""),
("default-tags/pre", f"<pre>{PRE_STR}<br><b># hello</b></pre>", PRE_STR + "  \n**# hello**", ""),
("default-tags/blockquote", "<blockquote>a<br>b<br>c<blockquote>def</blockquote>", "> a  \n> b  \n> c\n> \n>> def", ""),
("default-tags/headings",
 "<h1>a<b>b</b></h1><h2>a<b>b</b></h2><h3>a<b>b</b></h3><h4>a<b>b</b></h4><h5>a<b>b</b></h5><h6>a<b>b</b></h6>",
 "".join("#" * (i + 1) + " a**b**\n\n" for i in range(6)).strip(), ""),
("default-tags/code", "<code>```` a    \n\nb\n* c</code><code>d</code>", "````` ```` a b * c ````` `d`", ""),
("default-tags/code-block-fenced",
 f'<pre><code class="language-fortran">{CODE_STR}</code></pre><pre><code>{CODE_STR}</code></pre>',
 "```fortran\n" + CODE_STR + "\n```\n\n```\n" + CODE_STR + "\n```", ""),
("default-tags/code-block-data-language",
 f'<pre data-language="jsx"><code data-language="jsx">{CODE_STR}</code></pre><pre><code>{CODE_STR}</code></pre>',
 "```jsx\n" + CODE_STR + "\n```\n\n```\n" + CODE_STR + "\n```", ""),
("default-tags/code-block-indented",
 f'<pre><code class="language-fortran">{CODE_STR}</code></pre><pre><code>{CODE_STR}</code></pre>',
 CODE_STR_INDENTED + "\n\n" + CODE_STR_INDENTED, "codeBlockStyle=indented"),
("default-tags/list-multi-level-ordered", """
        <ol>
          <li>a<br><br><s>b</s></li>
          <li> </li> <!-- Elided due to whitespace -->
          <li>b
            <ol><li>c<br>d</li></ol>
            <ul><li>e<br>f</li></ul>
          </li>
        </ol>
      """, "1. a  \n    \n~~b~~\n2. b  \n  1. c  \n  d\n  * e  \n  f", ""),
("default-tags/list-multi-level-unordered", """
        <ul>
          <li>a<br><br><s>b</s></li>
          <li> </li> <!-- Elided due to whitespace -->
          <li>b
            <ul><li>c<br>d</li></ul>
            <ol><li>e<br>f</li></ol>
          </li>
        </ul>
      """, "* a  \n    \n~~b~~\n* b  \n  * c  \n  d\n  1. e  \n  f", ""),
("default-tags/list-item-block-content", '<li><div><img src="hello.jpg"></div>a', "* ![](hello.jpg)  \na", ""),
("default-tags/list-3-level-unordered", """
        <ul>
          <li>a
            <ul>
              <li>b
                <ul>
                  <li>c</li>
                </ul>
              </li>
            </ul>
          </li>
        </ul>
      """, "* a  \n  * b  \n    * c", ""),
("default-tags/list-3-level-ordered", """
        <ol>
          <li>a
            <ol>
              <li>b
                <ol>
                  <li>c</li>
                </ol>
              </li>
            </ol>
          </li>
        </ol>
      """, "1. a  \n  1. b  \n    1. c", ""),
("default-tags/list-4-level-unordered", """
        <ul>
          <li>a
            <ul>
              <li>b
                <ul>
                  <li>c
                    <ul>
                      <li>d</li>
                    </ul>
                  </li>
                </ul>
              </li>
            </ul>
          </li>
        </ul>
      """, "* a  \n  * b  \n    * c  \n      * d", ""),
("default-tags/list-4-level-ordered", """
        <ol>
          <li>a
            <ol>
              <li>b
                <ol>
                  <li>c
                    <ol>
                      <li>d</li>
                    </ol>
                  </li>
                </ol>
              </li>
            </ol>
          </li>
        </ol>
      """, "1. a  \n  1. b  \n    1. c  \n      1. d", ""),
("default-tags/list-4-level-mixed", """
        <ul>
          <li>a
            <ol>
              <li>b
                <ul>
                  <li>c
                    <ol>
                      <li>d</li>
                    </ol>
                  </li>
                </ul>
              </li>
            </ol>
          </li>
        </ul>
      """, "* a  \n  1. b  \n    * c  \n      1. d", ""),

# test/default-tags-codeblock.test.ts (every input inside <pre><code>)
("codeblock/line-break", block("a<br>b"), fenced("a\nb"), ""),
("codeblock/horizontal-rule", block("a<hr>b"), fenced("a\n\n---\n\nb"), ""),
("codeblock/non-processed-elements",
 block(" ".join(f"<{t}>{t}</{t}>" for t in ["b", "strong", "del", "s", "strike", "em", "i", "code", "a", "pre", "blockquote"])),
 fenced("b strong del s strike em i code a pre blockquote"), ""),
("codeblock/image", block('a<img src="https://www.google.com/">b'), fenced("ab"), ""),
("codeblock/headings", block("".join(f"<h{i}>a</h{i}>" for i in range(1, 8))), fenced("\n[a]\n" * 6 + "\na"), ""),
("codeblock/list-multi-level-ordered", block("""
        <ol>
          <li>a<br><br><s>b</s></li>
          <li> </li> <!-- Elided due to whitespace -->
          <li>b
            <ol><li>c<br>d</li></ol>
            <ul><li>e<br>f</li></ul>
          </li>
        </ol>
      """), fenced("\n        \n          a\n\nb\n            \n          b\n            c\nd\n            e\nf\n        \n      "), ""),
("codeblock/list-multi-level-unordered", block("""
        <ul>
          <li>a<br><br><s>b</s></li>
          <li> </li> <!-- Elided due to whitespace -->
          <li>b
            <ul><li>c<br>d</li></ul>
            <ol><li>e<br>f</li></ol>
          </li>
        </ul>
      """), fenced("\n        \n          a\n\nb\n            \n          b\n            c\nd\n            e\nf\n        \n      "), ""),
("codeblock/block-elements-no-newlines#1", block("a<div>b</div>c"), fenced("abc"), ""),
("codeblock/block-elements-no-newlines#2", block("x<p>y</p>z"), fenced("xyz"), ""),
("codeblock/block-elements-no-newlines#3", block("foo<blockquote>bar</blockquote>baz"), fenced("foobarbaz"), ""),
("codeblock/table-elements-no-newlines", block("a<tr>b</tr>c<table><td>X</td></table>d"), fenced("abcXd"), ""),
("codeblock/list-elements-no-newlines", block("start<ul><li>item</li></ul>end"), fenced("startitemend"), ""),

# test/special-cases.test.ts
("special/doctype", "<!DOCTYPE html>abc", "abc", ""),
] + [
(f"special/tag-edge-whitespace-{tag}#{n}", html, f" {DELIMS[tag]}Label:{DELIMS[tag]} Value", "")
    for tag in TEXT_FORMAT_TAGS
    for n, html in ((1, f"<p><{tag}> &nbsp;Label:&nbsp; </{tag}>Value</p>"),
                    (2, f"<p><{tag}>&nbsp; Label: &nbsp;</{tag}>Value</p>"))
] + [
(f"special/nested-same-format-{tag}", f"<{tag}>My <{tag}>bold</{tag}> text</{tag}>", f"{DELIMS[tag]}My bold text{DELIMS[tag]}", "")
    for tag in TEXT_FORMAT_TAGS
] + [
("special/whitespace-single-space",
 "<span>test</span>  <span>test2 </span>\n<span>test3</span>\r\n\r\n\t\t\t<span>test4</span>\t<span>test5\r\n\n\n\t\ttest6</span>",
 "test test2 test3 test4 test5 test6", ""),
("special/childless-iframe-translator",
 '<span>Hello</span><iframe src="https://radio4000.com"/><span>World</span>', "HelloWorld",
 "translator iframe: {content: '[iframe]'}"),
("special/childless-iframe-preserveIfEmpty",
 '<span>Hello</span><iframe src="https://radio4000.com"/><span>World</span>', "Hello[iframe]World",
 "translator iframe: {content: '[iframe]', preserveIfEmpty: true}"),
("special/code-block-whitespace-entities",
 '<pre><code><span><span class="comment">// &gt; Get URL Path</span></span>\n'
 '<span><span class="declaration">function getURL(s: string): string {\n</span></span>'
 '<span>    <span class="return">return</span> `https://myurl.com/${s}`;</span>\n'
 '<span>}</span>'
 '</pre></code>',
 "```\n// > Get URL Path\nfunction getURL(s: string): string {\n    return `https://myurl.com/${s}`;\n}\n```", ""),

# test/table.test.ts
("table/single-row-single-column#1", "<table><tr><th>  col1 </th></tr></table>", "| col1 |\n| ---- |", ""),
("table/single-row-single-column#2", "<table><tr><td>  col1 </td></tr></table>", "| col1 |\n| ---- |", ""),
("table/single-row-single-column#3", "<table><td>  col1 </td></table>", "| col1 |\n| ---- |", ""),
("table/single-row#1", "<table><tr><th>  col1 </th><td>col2  </td></tr></table>", "| col1 | col2 |\n| ---- | ---- |", ""),
("table/single-row#2", "<table><tr><td>  col1 </td><td>col2  </td></table>", "| col1 | col2 |\n| ---- | ---- |", ""),
("table/single-row#3", "<table><td>  col1 </td><td>col2  </td></table>", "| col1 | col2 |\n| ---- | ---- |", ""),
("table/caption#1", "<table><caption>Hello</caption><tr><th>  col1 </th><td>col2  </td></tr></table>",
 "__Hello__\n| col1 | col2 |\n| ---- | ---- |", ""),
("table/caption#2", "<table><th>  col1 </th><td>col2  </td><caption>Hello</caption></table>",
 "__Hello__\n| col1 | col2 |\n| ---- | ---- |", ""),
("table/pipe-escaped", "<table><tr><td>A|B</td></tr></table>", "| A\\|B |\n| ---- |", ""),
("table/pads-cells", """<table>
        <tr><td>abc</td><td>def</td><td>ghi</td></tr>
        <tr><td>abc1</td><td>def123</td><td>ghi1234567</td></tr>
        <tr><td>a</td><td>def1234</td><td>c</td></tr>
      </table>""",
 "| abc  | def     | ghi        |\n"
 "| ---- | ------- | ---------- |\n"
 "| abc1 | def123  | ghi1234567 |\n"
 "| a    | def1234 | c          |", ""),
("table/nested-table", "<table><tr><td><table><tr><td>nested</td></tr></table></td><td>abc</td></tr></table>",
 "| nested | abc |\n| ------ | --- |", ""),
("table/inline-tags-mismatched-rows", """
      <table>
        <thead>
          <tr>
            <th>COL1</th>
            <th>C
            O
            L2</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th><b>b</b></th>
            <td><i>i</i></td>
            <td><a href="link">a</a></td>
            <td><img src="file"></td>
          </tr>
          <tr>
            <th><ul><li>list</li><li></li></ul></th>
            <td><hr></td>
            <td><h1>h1</h1></td>
          </tr>
        </tbody>
      </table>
    """,
 "| COL1  | C O L2 |           |           |\n"
 "| ----- | ------ | --------- | --------- |\n"
 "| **b** | _i_    | [a](link) | ![](file) |\n"
 "| list  |        | h1        |           |", ""),
("table/empty-cells", """<table>
        <tr><td>abc</td><td>def</td><td>ghi</td></tr>
        <tr><td></td><td></td><td>ghi1234567</td></tr>
        <tr><td>abc1</td><td>def1234</td><td>c</td></tr>
      </table>""",
 "| abc  | def     | ghi        |\n"
 "| ---- | ------- | ---------- |\n"
 "|      |         | ghi1234567 |\n"
 "| abc1 | def1234 | c          |", ""),

# test/options.test.ts (the default-option expectations are suite "nhm")
("options/codeFence-default", f'<pre><code class="language-fortran">{CODE_STR}</code></pre>',
 "```fortran\n" + CODE_STR + "\n```", ""),
("options/codeFence-plus", f'<pre><code class="language-fortran">{CODE_STR}</code></pre>',
 "+++++fortran\n" + CODE_STR + "\n+++++", "codeFence=+++++"),
("options/codeFence-question", f'<pre><code class="language-fortran">{CODE_STR}</code></pre>',
 "?fortran\n" + CODE_STR + "\n?", "codeFence=?"),
("options/bulletMarker-default", "<ul><li>item1</li><li>item2</li></ul>", "* item1\n* item2", ""),
("options/bulletMarker-dash", "<ul><li>item1</li><li>item2</li></ul>", "- item1\n- item2", "bulletMarker=-"),
("options/bulletMarker-wide", "<ul><li>item1</li><li>item2</li></ul>", "<-> item1\n<-> item2", "bulletMarker=<->"),
("options/codeBlockStyle-fenced", "<pre><code>line1\nline2</code></pre>", "```\nline1\nline2\n```", ""),
("options/codeBlockStyle-indented", "<pre><code>line1\nline2</code></pre>", "    line1\n    line2", "codeBlockStyle=indented"),
("options/emDelimiter-default", "<em>some text</em><em>more text</em>", "_some text_ _more text_", ""),
("options/emDelimiter-pipe", "<em>some text</em><em>more text</em>", "|some text| |more text|", "emDelimiter=|"),
("options/emDelimiter-wide", "<em>some text</em><em>more text</em>", "+++some text+++ +++more text+++", "emDelimiter=+++"),
("options/strongDelimiter-default", "<strong>some text</strong><strong>more text</strong>", "**some text** **more text**", ""),
("options/strongDelimiter-pipe", "<strong>some text</strong><strong>more text</strong>", "|some text| |more text|", "strongDelimiter=|"),
("options/strongDelimiter-wide", "<strong>some text</strong><strong>more text</strong>", "+++some text+++ +++more text+++", "strongDelimiter=+++"),
("options/strikeDelimiter-default", "<strike>some text</strike><s>more text</s><del>one more text</del>",
 "~~some text~~ ~~more text~~ ~~one more text~~", ""),
("options/strikeDelimiter-tilde", "<strike>some text</strike><s>more text</s><del>one more text</del>",
 "~some text~ ~more text~ ~one more text~", "strikeDelimiter=~"),
("options/strikeDelimiter-wide", "<strike>some text</strike><s>more text</s><del>one more text</del>",
 "+++some text+++ +++more text+++ +++one more text+++", "strikeDelimiter=+++"),
("options/ignore-strong", "<strong>some text</strong><em>more text</em>", "_more text_", "ignore=[STRONG]"),
("options/ignore-em", "<strong>some text</strong><em>more text</em>", "**some text**", "ignore=[EM]"),
("options/ignore-both", "<strong>some text</strong><em>more text</em>", "", "ignore=[EM, STRONG]"),
("options/ignore-absent", "<strong>some text</strong><em>more text</em>", "**some text**_more text_", "ignore=[UL, H1]"),
("options/blockElements-strong", "<em>x</em><strong>yyy</strong><em>x</em><span>text</span>",
 "_x_\n\n**yyy**\n\n_x_text", "blockElements=[STRONG]"),
("options/blockElements-em", "<em>x</em><strong>yyy</strong><em>x</em><span>text</span>",
 "_x_\n\n**yyy**\n\n_x_\n\ntext", "blockElements=[EM]"),
("options/maxConsecutiveNewlines-default", "<b>text</b>" + "<br/>" * 10 + "<em>something</em>",
 "**text**" + "  \n" * 3 + "_something_", ""),
("options/maxConsecutiveNewlines-5", "<b>text</b>" + "<br/>" * 10 + "<em>something</em>",
 "**text**" + "  \n" * 5 + "_something_", "maxConsecutiveNewlines=5"),
("options/maxConsecutiveNewlines-10", "<b>text</b>" + "<br/>" * 10 + "<em>something</em>",
 "**text**" + "  \n" * 10 + "_something_", "maxConsecutiveNewlines=10"),
("options/lineStartEscape-plus", "<p>text<br>+ text<br>+ more text</p>", "text  \n\\+ text  \n\\+ more text", ""),
("options/lineStartEscape-quote", "<p>text<br>> text<br>> more text</p>", "text  \n\\> text  \n\\> more text", ""),
("options/lineStartEscape-no-plus", "<p>text<br>+ text<br>+ more text</p>", "text  \n+ text  \n+ more text",
 "lineStartEscape without +"),
("options/lineStartEscape-no-quote", "<p>text<br>> text<br>> more text</p>", "text  \n> text  \n> more text",
 "lineStartEscape without + and >"),
("options/globalEscape-star", "<strong>text**text</strong>", "**text\\*\\*text**", ""),
("options/globalEscape-no-star", "<i>text**text</i>", "_text**text_", "globalEscape=[_~\\[\\]]"),
("options/globalEscape-brackets", "<h1>title [more words]</h1>", "# title \\[more words\\]", "globalEscape=[_~\\[\\]]"),
("options/globalEscape-no-brackets", "<h1>title [more words]</h1>", "# title [more words]", "globalEscape=[_~]"),
("options/textReplace-abc", "<h1>hello abc</h1>", "# hello xyz", "textReplace=abc->xyz"),
("options/textReplace-hello", "<h1>hello abc</h1>", "# X abc", "textReplace=hello->X"),
("options/keepDataImages-true", '<img alt="normal" src="normal_img.jpg">\n      <img src="data:image/gif;base64,R0lGODlhEA"/>',
 "![normal](normal_img.jpg) ![](data:image/gif;base64,R0lGODlhEA)", "keepDataImages=true"),
("options/keepDataImages-false", '<img alt="normal" src="normal_img.jpg">\n      <img src="data:image/gif;base64,R0lGODlhEA"/>',
 "![normal](normal_img.jpg) ", ""),
("options/useLinkReferenceDefinitions-false", f"""Hello:&nbsp;
        <a href="{URL}">a<br><br>b<strong>c</strong></a>
        <a>a<strong>b</strong></a> <!-- This node is treated as text due to no href -->
        <a href="{URL}/other">link2</a>
        <a href="{URL}">repeat link</a>
        <a href="{URL}">{URL}</a><!-- inline link -->&nbsp;Goodbye!
    """,
 f"Hello: [a b**c**]({URL}) a**b** [link2]({URL}/other) [repeat link]({URL}) <{URL}> Goodbye!", ""),
("options/useLinkReferenceDefinitions-true", f"""Hello:&nbsp;
        <a href="{URL}">a<br><br>b<strong>c</strong></a>
        <a>a<strong>b</strong></a> <!-- This node is treated as text due to no href -->
        <a href="{URL}/other">link2</a>
        <a href="{URL}">repeat link</a>
        <a href="{URL}">{URL}</a><!-- inline link -->&nbsp;Goodbye!
    """,
 f"Hello: [a b**c**][1] a**b** [link2][2] [repeat link][1] <{URL}> Goodbye!\n\n[1]: {URL}\n[2]: {URL}/other",
 "useLinkReferenceDefinitions=true"),
("options/useInlineLinks-false", f"""Hello:&nbsp;
        <a href="{URL}">{URL}</a> <!-- inline link -->&nbsp;
        <a>a<strong>b</strong></a> <!-- This node is treated as text due to no href -->
        <a href="{URL}/other">link2</a>
        <a href="{URL}">repeat link</a> Goodbye!
    """,
 f"Hello: [{URL}]({URL}) a**b** [link2]({URL}/other) [repeat link]({URL}) Goodbye!", "useInlineLinks=false"),
("options/useInlineLinks-true", f"""Hello:&nbsp;
        <a href="{URL}">{URL}</a> <!-- inline link -->&nbsp;
        <a>a<strong>b</strong></a> <!-- This node is treated as text due to no href -->
        <a href="{URL}/other">link2</a>
        <a href="{URL}">repeat link</a> Goodbye!
    """,
 f"Hello: <{URL}> a**b** [link2]({URL}/other) [repeat link]({URL}) Goodbye!", ""),

# test/e2e.test.ts
("e2e/browser", "<html><body><p><b>F</b><span>oo</span></p><ul><li>Bar</li></ul></body></html>", "**F**oo\n\n* Bar",
 "preferNativeParser=true"),
]

# test/assets: guide.html -> guide.md (test/main.test.ts, expected trimmed), demo.html -> demo-expected.md
# (test/tests/built.test.ts runs it through the built package), verbatim in assets/.
from pathlib import Path as _Path  # noqa: E402

_ASSETS = _Path(__file__).resolve().parent / "assets"
CASES += [
    ("assets/guide", (_ASSETS / "guide.html").read_text(encoding="utf-8"),
     (_ASSETS / "guide.md").read_text(encoding="utf-8").strip(), ""),
    ("assets/demo", (_ASSETS / "demo.html").read_text(encoding="utf-8"),
     (_ASSETS / "demo-expected.md").read_text(encoding="utf-8"), ""),
]
