//! Escaping of page text so it stays text in Markdown — and only where it could be read as
//! syntax, so ordinary prose carries no backslash noise.

/// Where a word of text is being written.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ctx {
    /// Inside a GFM table cell: `|` ends the cell.
    pub table: bool,
    /// Inside link text or image alt: any unbalanced bracket would end it.
    pub link: bool,
}

/// Append one whitespace-free word of page text to `out`, escaping inline syntax.
/// Line-start syntax (`#`, `>`, `-`, `1.`) is handled by [`line_start_escape`] when the
/// paragraph is written out.
pub fn push_word(out: &mut String, word: &str, ctx: Ctx) {
    let bytes = word.as_bytes();
    // Most words hold no byte that could be syntax: one table look-up per byte, no escaping.
    if bytes.iter().any(|&b| MAYBE_SYNTAX[usize::from(b)]) {
        push_escaped(out, word, ctx);
    } else {
        out.push_str(word);
    }
}

/// Split `s` after the word it starts with (up to HTML white space), and tell whether that
/// word holds a byte [`push_word`] may escape: one pass over it, where finding its end and
/// then [`push_word`] take two. Write it with [`push_split_word`].
pub fn split_word(s: &str) -> (&str, &str, bool) {
    let b = s.as_bytes();
    let mut syntax = false;
    for (i, &c) in b.iter().enumerate() {
        match CLASS[usize::from(c)] {
            0 => {}
            SPACE => {
                // White space is ASCII: a char boundary.
                let (word, rest) = s.split_at_checked(i).unwrap_or((s, ""));
                return (word, rest, syntax);
            }
            _ => syntax = true,
        }
    }
    (s, "", syntax)
}

/// [`push_word`] of a word from [`split_word`], `syntax` as it said.
pub fn push_split_word(out: &mut String, word: &str, syntax: bool, ctx: Ctx) {
    if syntax {
        push_escaped(out, word, ctx);
    } else {
        out.push_str(word);
    }
}

/// The rest of a text node after its first word, which starts at white space (or is empty):
/// each run of HTML white space becomes one space before the next word, and each word is
/// escaped as by [`push_word`]. Returns whether the text ends in white space. Stretches of
/// words that need no escaping, separated by single spaces, are copied in one piece.
pub fn push_words(out: &mut String, rest: &str, ctx: Ctx) -> bool {
    let b = rest.as_bytes();
    let mut i = 0;
    // `rest[chunk..]`, up to the white space before the current word, is written as is.
    let mut chunk = 0;
    loop {
        let ws = i;
        while b.get(i).is_some_and(|&c| CLASS[usize::from(c)] == SPACE) {
            i += 1;
        }
        if i >= b.len() {
            out.push_str(rest.get(chunk..ws).unwrap_or(""));
            return ws < i;
        }
        if i != ws + 1 || b.get(ws) != Some(&b' ') {
            // White space, as well as the text before it, is all ASCII: char boundaries.
            out.push_str(rest.get(chunk..ws).unwrap_or(""));
            out.push(' ');
            chunk = i;
        }
        // The word from `i`, and the plain words after it that follow a single space, stay in
        // the chunk; a word holding syntax is written escaped.
        let mut word = i;
        loop {
            // Plain bytes up to the next space or syntax byte.
            i += b.get(i..).map_or(0, |t| {
                t.iter()
                    .position(|&c| CLASS[usize::from(c)] != 0)
                    .unwrap_or(t.len())
            });
            let Some(&c) = b.get(i) else { break };
            match CLASS[usize::from(c)] {
                SPACE => {
                    if c == b' ' && b.get(i + 1).is_some_and(|&n| CLASS[usize::from(n)] == 0) {
                        i += 1;
                        word = i;
                        continue;
                    }
                    break;
                }
                _ => {
                    let len = b
                        .get(i..)
                        .and_then(|t| t.iter().position(|&c| CLASS[usize::from(c)] == SPACE))
                        .map_or(b.len(), |n| i + n);
                    out.push_str(rest.get(chunk..word).unwrap_or(""));
                    push_escaped(out, rest.get(word..len).unwrap_or(""), ctx);
                    chunk = len;
                    i = len;
                    break;
                }
            }
        }
    }
}

const SPACE: u8 = 1;
const SYNTAX: u8 = 2;

/// Per byte: HTML white space ([`SPACE`]), a byte [`push_word`] may escape ([`SYNTAX`]), or
/// plain text (0).
static CLASS: [u8; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        if MAYBE_SYNTAX[i] {
            t[i] = SYNTAX;
        }
        i += 1;
    }
    let space = *b" \t\n\r\x0c";
    let mut i = 0;
    while i < space.len() {
        t[space[i] as usize] = SPACE;
        i += 1;
    }
    t
};

/// [`push_word`] byte by byte.
fn push_escaped(out: &mut String, word: &str, ctx: Ctx) {
    let bytes = word.as_bytes();
    let prev_of = |i: usize, out: &String| {
        if i > 0 {
            bytes.get(i - 1).copied()
        } else {
            out.as_bytes().last().copied()
        }
    };
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape = match b {
            // A word made only of `*` or `~` between spaces ("a * b") cannot open or close.
            b'*' | b'~' => {
                !bytes.iter().all(|&c| c == b) || prev_of(0, out).is_some_and(|p| p != b' ')
            }
            b'`' => true,
            // Brackets are literal text unless they could form a link (`](`), a reference
            // definition (`]:`), a reference (`][`), or a task checkbox (`[x]`), or sit in
            // link text, which must stay balanced.
            b'[' => ctx.link || task_box(&bytes[i..]),
            b']' => {
                ctx.link
                    || matches!(bytes.get(i + 1), Some(b'(' | b'['))
                    || (bytes.get(i + 1) == Some(&b':') && bytes.first() == Some(&b'['))
            }
            b'\\' => bytes.get(i + 1).is_none_or(|n| n.is_ascii_punctuation()),
            b'_' => {
                // Intraword underscores (snake_case, in any script) never start emphasis; one
                // beside a no-break space or a symbol (`\u{a0}_x`, `😀_x`) can.
                let prev = word.get(..i).and_then(|w| w.chars().next_back());
                let prev = if i > 0 { prev } else { out.chars().next_back() };
                let next = word.get(i + 1..).and_then(|w| w.chars().next());
                !(prev.is_some_and(char::is_alphanumeric)
                    && next.is_some_and(char::is_alphanumeric))
            }
            b'<' => bytes
                .get(i + 1)
                .is_some_and(|n| n.is_ascii_alphabetic() || matches!(n, b'/' | b'!' | b'?')),
            b'&' => looks_like_entity(&bytes[i + 1..]),
            b'|' => ctx.table,
            _ => false,
        };
        if escape {
            out.push_str(&word[run..i]);
            out.push('\\');
            run = i;
        }
    }
    out.push_str(&word[run..]);
}

/// The bytes [`push_word`] may escape.
static MAYBE_SYNTAX: [bool; 256] = {
    let mut t = [false; 256];
    let special = *b"*~`[]\\_<&|";
    let mut i = 0;
    while i < special.len() {
        t[special[i] as usize] = true;
        i += 1;
    }
    t
};

/// `[ ]`, `[x]`, `[X]` read as a task checkbox at the start of a list item.
fn task_box(rest: &[u8]) -> bool {
    matches!(rest, [b'[', b' ' | b'x' | b'X', b']', ..] | [b'['])
}

/// `&name;` or `&#123;` would be read as a character reference (`rest` follows the `&`).
pub(crate) fn looks_like_entity(rest: &[u8]) -> bool {
    let body = rest
        .iter()
        .take(33)
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'#')
        .count();
    body > 0 && rest.get(body) == Some(&b';')
}

/// Where a backslash must go so that a paragraph line starting with `line` is not read as a
/// block construct (heading, quote, list item, thematic break, setext underline).
pub fn line_start_escape(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let first = *b.first()?;
    let followed_by_space = |i: usize| b.get(i).is_none_or(|c| *c == b' ' || *c == b'\t');
    match first {
        b'#' => {
            let n = b.iter().take_while(|c| **c == b'#').count();
            (n <= 6 && followed_by_space(n)).then_some(0)
        }
        b'>' => Some(0),
        // A `~~~` run opens a fence; a lone `~` or `~~` is ordinary (and escaped inline).
        b'~' => b.starts_with(b"~~~").then_some(0),
        b'-' | b'+' | b'=' | b'*' | b'_' => {
            let only_marks = b.iter().all(|c| *c == first || *c == b' ');
            (followed_by_space(1) || only_marks).then_some(0)
        }
        b'0'..=b'9' => {
            let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
            (n <= 9 && matches!(b.get(n), Some(b'.' | b')')) && followed_by_space(n + 1))
                .then_some(n)
        }
        _ => None,
    }
}

/// Longest run of `ch` in `s`.
pub fn longest_run(s: &str, ch: u8) -> usize {
    // Most code spans are short and hold none: a plain search first, without `memchr`'s
    // set-up.
    if !s.as_bytes().contains(&ch) {
        return 0;
    }
    // Code rarely holds the fence character: jump from one occurrence to the next.
    let (mut best, mut cur, mut next) = (0, 0, usize::MAX);
    for at in memchr::memchr_iter(ch, s.as_bytes()) {
        cur = if at == next { cur + 1 } else { 1 };
        best = best.max(cur);
        next = at + 1;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_word_writes_as_push_word() {
        let link = Ctx {
            link: true,
            ..Ctx::default()
        };
        for s in [
            "", " a", "a", "a b", "a_b c", "*x*\ty", "[1]\n", "ä|b", "`", "x\x0cy",
        ] {
            for ctx in [Ctx::default(), link] {
                let end = s
                    .bytes()
                    .position(|b| b" \t\n\r\x0c".contains(&b))
                    .unwrap_or(s.len());
                let (word, rest, syntax) = split_word(s);
                assert_eq!((word, rest), s.split_at(end), "{s:?}");
                let (mut got, mut want) = (String::new(), String::new());
                push_split_word(&mut got, word, syntax, ctx);
                push_word(&mut want, word, ctx);
                assert_eq!(got, want, "{s:?}");
            }
        }
    }

    fn esc(s: &str) -> String {
        let mut out = String::new();
        push_word(&mut out, s, Ctx::default());
        out
    }

    #[test]
    fn plain_words_are_untouched() {
        for w in [
            "hello",
            "snake_case_name",
            "AT&T",
            "C:\\Users",
            "1.5",
            "a-b",
            "x<3",
            "50%",
            "[1]",
            "Out[2]:",
            "*",
            "~",
        ] {
            assert_eq!(esc(w), w, "{w}");
        }
    }

    #[test]
    fn syntax_is_escaped() {
        assert_eq!(esc("*bold*"), "\\*bold\\*");
        assert_eq!(esc("_init_"), "\\_init\\_");
        assert_eq!(esc("`code`"), "\\`code\\`");
        assert_eq!(esc("[link](x)"), "[link\\](x)");
        assert_eq!(esc("[1]:"), "[1\\]:");
        assert_eq!(esc("[x]"), "\\[x]");
        assert_eq!(esc("a*b"), "a\\*b");
        assert_eq!(esc("~one~"), "\\~one\\~");
        assert_eq!(esc("<div>"), "\\<div>");
        assert_eq!(esc("&amp;"), "\\&amp;");
        assert_eq!(esc("~~gone~~"), "\\~\\~gone\\~\\~");
        assert_eq!(esc("\\*"), "\\\\\\*");
        let mut t = String::new();
        let table = Ctx {
            table: true,
            link: false,
        };
        push_word(&mut t, "a|b", table);
        assert_eq!(t, "a\\|b");
        let mut t = String::new();
        let link = Ctx {
            table: false,
            link: true,
        };
        push_word(&mut t, "[1]", link);
        assert_eq!(t, "\\[1\\]");
    }

    #[test]
    fn bytes_outside_the_table_are_never_escaped() {
        let contexts = [
            Ctx::default(),
            Ctx {
                table: true,
                link: true,
            },
        ];
        for b in (0u8..0x80).filter(|&b| !MAYBE_SYNTAX[usize::from(b)]) {
            let c = char::from(b);
            for word in [
                format!("{c}"),
                format!("{c}{c}"),
                format!("a{c}b"),
                format!("{c}1"),
            ] {
                for ctx in contexts {
                    let mut out = String::from("x");
                    push_escaped(&mut out, &word, ctx);
                    assert_eq!(out, format!("x{word}"), "{word:?}");
                }
            }
        }
    }

    #[test]
    fn line_starts() {
        assert_eq!(line_start_escape("# not heading"), Some(0));
        assert_eq!(line_start_escape("#hashtag"), None);
        assert_eq!(line_start_escape("> quote"), Some(0));
        assert_eq!(line_start_escape("- item"), Some(0));
        assert_eq!(line_start_escape("---"), Some(0));
        assert_eq!(line_start_escape("==="), Some(0));
        assert_eq!(line_start_escape("-5 degrees"), None);
        assert_eq!(line_start_escape("1. first"), Some(1));
        assert_eq!(line_start_escape("2024) year"), Some(4));
        assert_eq!(line_start_escape("3.14 is pi"), None);
        assert_eq!(line_start_escape("plain"), None);
        assert_eq!(line_start_escape("* item"), Some(0));
        assert_eq!(line_start_escape("***"), Some(0));
        assert_eq!(line_start_escape("_ _ _"), Some(0));
        assert_eq!(line_start_escape("~~~ fence"), Some(0));
        assert_eq!(line_start_escape("*emph* start"), None);
    }

    #[test]
    fn runs() {
        assert_eq!(longest_run("a``b```c`", b'`'), 3);
        assert_eq!(longest_run("", b'`'), 0);
        assert_eq!(longest_run("`", b'`'), 1);
        assert_eq!(longest_run("~~~~x~", b'~'), 4);
        assert_eq!(longest_run("a`b`c``", b'`'), 2);
    }

    /// What [`push_words`] does, word by word.
    fn words_one_by_one(rest: &str, ctx: Ctx) -> (String, bool) {
        let mut out = String::from("w");
        let mut pieces = rest
            .split([' ', '\t', '\n', '\r', '\x0c'])
            .skip(1)
            .peekable();
        let mut trailing = false;
        while let Some(word) = pieces.next() {
            if word.is_empty() {
                trailing = pieces.peek().is_none();
                continue;
            }
            out.push(' ');
            push_word(&mut out, word, ctx);
            trailing = false;
        }
        (out, trailing)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(5000))]
        #[test]
        fn push_words_matches_word_by_word_escaping(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    " ", " ", " ", "  ", "\t", "\n", "\r\n", "\x0c", "a", "bc", "word", "longer",
                    "é", "\u{a0}", "*", "_", "a_b", "`", "[", "]", "(", "\\", "<b", "&amp;", "|",
                    "~", "x*", "1.", "#",
                ]),
                0..24,
            ),
            table in proptest::bool::ANY,
            link in proptest::bool::ANY,
        ) {
            let rest = format!(" {}", pieces.concat());
            let ctx = Ctx { table, link };
            let mut out = String::from("w");
            let trailing = push_words(&mut out, &rest, ctx);
            proptest::prop_assert_eq!((out, trailing), words_one_by_one(&rest, ctx));
        }
    }

    #[test]
    fn words_after_the_first_match_word_by_word_escaping() {
        let samples = [
            "",
            " ",
            "  \n\t",
            " a",
            " a b c",
            " a  b\tc\n",
            " snake_case *x* [a](b) <b> &amp; a|b",
            " é ü\u{a0}x  `code` _a_ ",
            " * ~ ** a\\b [x] ]:",
            "\n\nlast",
        ];
        for ctx in [
            Ctx::default(),
            Ctx {
                table: true,
                link: true,
            },
        ] {
            for rest in samples {
                let mut out = String::from("w");
                let trailing = push_words(&mut out, rest, ctx);
                assert_eq!((out, trailing), words_one_by_one(rest, ctx), "{rest:?}");
            }
        }
    }
}
