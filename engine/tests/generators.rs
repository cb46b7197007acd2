//! Markup of documentation generators (Doxygen, Haddock, Erlang/OTP docs) found on real
//! pages: each test is a reduced repro of a page that rendered wrong.
mod common;
use common::md;

#[test]
fn doxygen_fragment_is_a_code_block() {
    let html = "<div class=\"fragment\"><div class=\"line\"><span class=\"comment\">/**</span></div>\n\
        <div class=\"line\"><span class=\"comment\"> * A brief history.</span></div>\n\
        <div class=\"line\"></div>\n\
        <div class=\"line\"><span class=\"keywordtype\">int</span> x = <a class=\"code\" href=\"#a1\">SDL_Swap32</a>(y);</div>\n\
        </div>";
    assert_eq!(
        md(html),
        "```\n/**\n * A brief history.\n\nint x = SDL_Swap32(y);\n```\n"
    );
}

#[test]
fn doxygen_source_fragment_drops_line_numbers_and_tooltips() {
    let html = "<div class=\"fragment\"><div class=\"line\"><a id=\"l00185\" name=\"l00185\"></a><span class=\"lineno\">  185</span>{</div>\n\
        <div class=\"line\"><span class=\"lineno\">  186</span>\u{a0}   <span class=\"keywordflow\">return</span> x;</div>\n\
        <div class=\"line\"><span class=\"lineno\">  187</span>}</div>\n\
        <div class=\"ttc\" id=\"a1\"><div class=\"ttname\"><a href=\"#x\">Uint16</a></div><div class=\"ttdeci\">uint16_t Uint16</div></div>\n\
        </div><p>After.</p>";
    assert_eq!(md(html), "```\n{\n\u{a0}   return x;\n}\n```\n\nAfter.\n");
}
