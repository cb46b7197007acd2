//! The Markdown writer: one output buffer, one inline buffer for the paragraph being built,
//! and a stack of line prefixes (`> ` for quotes, marker/indent for list items).
//!
//! Blocks are written whole lines at a time, so `out` always ends at a line start; the blank
//! line between two blocks is written lazily when the next block starts, with the prefixes in
//! force at that moment.
use std::borrow::Cow;

use super::escape::{line_start_escape, push_split_word, push_word, push_words, split_word, Ctx};

/// Prefix levels beyond this are not indented further: hostile nesting stays linear in size.
const MAX_PREFIX_DEPTH: usize = 24;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    /// Nothing pending.
    None,
    /// Whitespace seen; becomes one space before the next word.
    Pending,
    /// Just after an opening marker or line start: whitespace is dropped.
    Suppressed,
}

#[derive(Debug)]
enum Prefix {
    /// `started`: a line has been written inside it. The blank line that separates a quote
    /// from the block before it belongs outside the quote.
    Quote { started: bool },
    /// `pending`: the marker is not written yet. `blank`: a blank line is owed before the
    /// marker line (first item of a list that follows another block). `sibling`: it directly
    /// follows a written item of the same list, so its marker continues that list. `tight`:
    /// an item of a tight list, whose blocks are not parted by blank lines where CommonMark
    /// does not need one (a blank line there would make the whole list loose).
    Item {
        marker: Marker,
        pending: bool,
        blank: bool,
        sibling: bool,
        tight: bool,
    },
}

/// What a block written is, as far as the line break before the next one goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    Paragraph,
    Heading,
    Fence,
    /// The end of a quote or a list.
    Container,
    /// Tables and rules.
    Other,
}

/// A list item's marker, or the indentation of an item continued: built when written, so an
/// item allocates nothing.
#[derive(Debug, Clone, Copy)]
pub enum Marker {
    /// `- `, `* `.
    Bullet(&'static str),
    /// `12. `, `12) `: the number (at most nine digits) and what follows it.
    Number(u32, &'static str),
    /// Spaces of this width.
    Indent(usize),
}

impl Marker {
    /// Its width in bytes (its length: all ASCII).
    pub fn width(self) -> usize {
        match self {
            Marker::Bullet(b) => b.len(),
            Marker::Number(n, b) => n.checked_ilog10().unwrap_or(0) as usize + 1 + b.len(),
            Marker::Indent(width) => width,
        }
    }

    fn write(self, out: &mut String) {
        match self {
            Marker::Bullet(b) => out.push_str(b),
            Marker::Number(n, b) => {
                let mut div = 10u32.pow(n.checked_ilog10().unwrap_or(0));
                loop {
                    out.push(char::from(b'0' + (n / div % 10) as u8));
                    if div == 1 {
                        break;
                    }
                    div /= 10;
                }
                out.push_str(b);
            }
            Marker::Indent(width) => push_spaces(out, width),
        }
    }
}

/// `n` spaces, one by one: markers are a few bytes wide, and a `push_str` of a slice costs a
/// `memcpy` call.
fn push_spaces(out: &mut String, n: usize) {
    for _ in 0..n {
        out.push(' ');
    }
}

/// Longest span content whose delimiters [`Writer::close_marker`] counts to judge a run.
const MAX_RUN_SCAN: usize = 4096;

/// The bytes around a formula's TeX in the inline buffer, inside its dollars: the delimiter
/// check leaves what is between them alone (TeX's `_`, `*` and `~` are no markers), and
/// [`Writer::finish_with`] removes them. Page text never holds control characters (they are
/// stripped from all of it), so these mark exactly the formulas the writer wrote.
const TEX_OPEN: u8 = 0x02;
const TEX_CLOSE: u8 = 0x03;

#[derive(Debug)]
pub struct Writer {
    pub out: String,
    /// Bytes at the start of `out` written before rendering (front matter); the Markdown
    /// starts after them.
    base: usize,
    pub inline: String,
    pub space: Space,
    prefixes: Vec<Prefix>,
    blank_pending: bool,
    /// The last line written is paragraph text, which a following line may continue.
    after_paragraph: bool,
    /// The last block written.
    last_block: Block,
    /// Depth and output length where an item whose marker was written was closed: an item
    /// opened right there at the same depth is its sibling.
    closed_item: Option<(usize, usize)>,
    /// Inside table cells: `|` is escaped.
    pub in_table: u32,
    /// Inside link text: brackets are escaped.
    pub in_link: u32,
    /// Last closed `_emphasis_` (open, close byte offsets in `inline`), switched to `*` if a
    /// word character follows it directly (intraword `_` does not emphasise).
    pub last_em: Option<(usize, usize)>,
    /// A just-closed span whose content ends in punctuation (open, close, marker length):
    /// a word directly after it would stop the closer from closing, so its markers go.
    pending_closer: Option<(usize, usize, usize)>,
    /// The pending closer, as `pending_closer`, of a span whose closer an opener directly
    /// follows (`**(**~~f.~~`): if that opener's markers go, it meets their content.
    pending_before: Option<(usize, usize, usize)>,
    /// `closed_before` when the opener written last was pushed right after its closer: the
    /// last closed span again if that opener's span turns out empty.
    closed_here: Option<(usize, usize, usize)>,
    /// The span closed last: open position, end of its closer, marker length.
    last_closed: Option<(usize, usize, usize)>,
    /// The span whose closer sits right before the pending closer's (`**_a_**`), as
    /// `last_closed`.
    inner_closer: Option<(usize, usize, usize)>,
    /// The span whose closer sits right before the inner closer's (`~~**_a_**~~`), as
    /// `last_closed`: a third level that a word after the run reaches once both go.
    innermost: Option<(usize, usize, usize)>,
    /// The span whose opener sits right after the opener of `last_closed` (`**~~_a_~~**`), as
    /// `last_closed`: when both openers go, it meets what came before them.
    first_inner: Option<(usize, usize, usize)>,
    /// The opening marker that was fresh when the one written last was pushed right after
    /// it: fresh again if that one's span turns out empty.
    fresh_before: Option<(usize, usize)>,
    /// A strong span (open, end) whose closer an `_` opener at the third position directly
    /// follows (see [`Writer::strong_to_underscores`]).
    strong_before: Option<(usize, usize, usize)>,
    /// An `_emphasis_` (open, close) left as is before a `*` opener (`_a_**b**`): it becomes
    /// `*emphasis*` if that opener goes (see [`Writer::opener_removed`]).
    em_before: Option<(usize, usize)>,
    /// The span closed last, as `last_closed`, when a failed [`Writer::reopen`] let it go.
    closed_before: Option<(usize, usize, usize)>,
    /// End of a `***a***` span closed as strong around emphasis (see [`Writer::reopen`]).
    strong_em: Option<usize>,
    /// Start and end of the opening marker written last, while nothing follows it yet.
    fresh_marker: Option<(usize, usize)>,
    /// Opening markers whose content began with white space: the space goes before the
    /// marker when the span closes (`one<b> two</b>` → `one **two**`).
    lead_space: Vec<usize>,
    /// An open link whose content holds blocks (see [`Writer::start_block_link`]).
    block_link: Option<BlockLink>,
    /// What the final delimiter check of the paragraph needs to know.
    delims: DelimState,
    /// A formula was written: its [`TEX_OPEN`] and [`TEX_CLOSE`] bytes are in the output.
    formulas: bool,
}

/// What [`settle_delimiters`] needs to know about the paragraph being built.
#[derive(Debug, Clone, Copy, Default)]
struct DelimState {
    /// An emphasis marker was written into the inline buffer: it is checked when written
    /// out.
    markers: bool,
    /// Page text ended in an unescaped `*` or `~` run (`a **` then more text): a run the
    /// check cannot tell from a marker, so the buffer is not checked.
    loose_text: bool,
    /// Page text with `_` was written: it leaves `_` inside words unescaped (`snake_case`),
    /// so the check leaves such an `_` alone.
    text_underscore: bool,
    /// Where the first marker was written: the text before it holds none, and is looked at
    /// (for the two flags above) only when the full check runs, by [`prefix_text`].
    first: usize,
    /// Spans open now whose markers are `*` (`**`, `*`) and `~~`: page text's loose `*` or
    /// `~` could pair with their closers (see [`Writer::escape_loose_run`]).
    open_stars: u32,
    open_tildes: u32,
}

/// A link around blocks (a card: `<a><h3>Title</h3><p>Text</p></a>`). Link text cannot hold
/// blocks, so each block's inline content becomes a link of its own: opened before its first
/// output, closed when the inline buffer is written out.
#[derive(Debug)]
struct BlockLink {
    /// `](destination "title")`.
    closer: String,
    /// Position of the `[` of the link open in the inline buffer.
    open: Option<usize>,
}

impl Writer {
    #[cfg(test)]
    pub fn with_capacity(cap: usize) -> Writer {
        Writer::with_prefix(String::new(), cap)
    }

    /// A writer whose output starts with `prefix`, with room for `cap` more bytes.
    pub fn with_prefix(mut prefix: String, cap: usize) -> Writer {
        prefix.reserve(cap);
        Writer {
            base: prefix.len(),
            out: prefix,
            inline: String::with_capacity(256),
            space: Space::Suppressed,
            prefixes: Vec::new(),
            blank_pending: false,
            after_paragraph: false,
            last_block: Block::Other,
            closed_item: None,
            in_table: 0,
            in_link: 0,
            last_em: None,
            pending_closer: None,
            last_closed: None,
            inner_closer: None,
            innermost: None,
            pending_before: None,
            closed_here: None,
            first_inner: None,
            fresh_before: None,
            strong_em: None,
            strong_before: None,
            em_before: None,
            closed_before: None,
            fresh_marker: None,
            lead_space: Vec::new(),
            block_link: None,
            delims: DelimState::default(),
            formulas: false,
        }
    }

    // ---- inline content ----

    pub fn ctx(&self) -> Ctx {
        Ctx {
            table: self.in_table > 0,
            link: self.in_link > 0,
        }
    }

    /// Page text: collapse HTML whitespace, escape syntax.
    pub fn text(&mut self, s: &str) {
        let lead = s.bytes().take_while(|&b| is_html_space(b)).count();
        if lead > 0 {
            self.note_lead_space();
            if self.space == Space::None {
                self.space = Space::Pending;
            }
        }
        // Text before the first marker is looked at only if the full check runs.
        if self.delims.markers {
            self.note_text(s);
        }
        let (word, rest, syntax) = split_word(s.get(lead..).unwrap_or(""));
        let Some(&first) = word.as_bytes().first() else {
            return;
        };
        self.open_link_segment();
        self.settle_closer(first);
        self.before_word(first);
        self.guard_adjacent(first);
        let ctx = self.ctx();
        push_split_word(&mut self.inline, word, syntax, ctx);
        if rest.is_empty() {
            return;
        }
        // After the first word each further word is one space and the word: the pending
        // closer, `_` switch and link segment were settled by the first, and the space rules
        // out `<`/`!` adjacency. Only a stale marker position the text could still reach
        // takes the general path.
        if self
            .fresh_marker
            .is_some_and(|(_, end)| end >= self.inline.len())
        {
            for word in html_words(rest).skip(1) {
                if self.space == Space::None {
                    self.space = Space::Pending;
                }
                if let Some(&first) = word.as_bytes().first() {
                    self.before_word(first);
                    self.guard_adjacent(first);
                    push_word(&mut self.inline, word, ctx);
                }
            }
        } else if push_words(&mut self.inline, rest, ctx) {
            self.space = Space::Pending;
        }
    }

    /// What page text `s` written among markers tells [`settle_delimiters`]: whether it holds
    /// `_` (left unescaped inside words), and whether it ends in a word of only `*` or `~`
    /// after white space, written unescaped, which what follows may make a delimiter run.
    fn note_text(&mut self, s: &str) {
        if let Some(&last @ (b'*' | b'~')) = s.as_bytes().last() {
            let head = s.trim_end_matches(char::from(last));
            if head.is_empty() || head.ends_with(|c: char| c.is_ascii() && is_html_space(c as u8)) {
                self.delims.loose_text = true;
            }
        }
        // Text nodes are short: a plain search beats `memchr`'s set-up.
        if !self.delims.text_underscore && s.as_bytes().contains(&b'_') {
            self.delims.text_underscore = true;
        }
    }

    /// Whitespace-collapsed text without Markdown escaping (inside code spans).
    pub fn raw_text(&mut self, s: &str) {
        // A stale marker position the text could reach: word by word, as `text` does.
        if self
            .fresh_marker
            .is_some_and(|(_, end)| end > self.inline.len())
        {
            self.raw_words(s);
            return;
        }
        let b = s.as_bytes();
        let lead = b.iter().take_while(|&&c| is_html_space(c)).count();
        if lead > 0 {
            // Right after an opener (`<kbd>C<a> -</a></kbd>`), the space goes before it, as
            // for text.
            self.note_lead_space();
            if self.space == Space::None {
                self.space = Space::Pending;
            }
        }
        if lead == b.len() {
            return;
        }
        self.before_word(b'x');
        // After the first word, each run of white space is one space before the next word
        // (the first word left nothing for `before_word` to settle): stretches of words
        // already one space apart are copied in one piece.
        let mut chunk = lead;
        let mut i = lead;
        while let Some(&c) = b.get(i) {
            if !is_html_space(c) {
                i += 1;
                continue;
            }
            let ws = i;
            while b.get(i).is_some_and(|&c| is_html_space(c)) {
                i += 1;
            }
            if i == b.len() {
                self.push_code(s.get(chunk..ws).unwrap_or(""));
                self.space = Space::Pending;
                return;
            }
            if i != ws + 1 || c != b' ' {
                // White space is ASCII: both ends are char boundaries.
                self.push_code(s.get(chunk..ws).unwrap_or(""));
                self.inline.push(' ');
                chunk = i;
            }
        }
        self.push_code(s.get(chunk..).unwrap_or(""));
    }

    /// [`Writer::raw_text`] word by word.
    fn raw_words(&mut self, s: &str) {
        let mut first = true;
        for word in html_words(s) {
            if !first && self.space == Space::None {
                self.space = Space::Pending;
            }
            first = false;
            if word.is_empty() {
                continue;
            }
            self.before_word(b'x');
            self.push_code(word);
        }
    }

    /// Code text, its `|` escaped in a table cell.
    fn push_code(&mut self, s: &str) {
        self.inline.push_str(&cell_pipes(s, self.in_table > 0));
    }

    /// A word of text follows: a closer after punctuation right before it cannot close.
    fn settle_closer(&mut self, first: u8) {
        let inner = self.inner_closer.take();
        if let Some((open, close, len)) = self.pending_closer.take() {
            let adjacent = self.space == Space::None && close + len == self.inline.len();
            if adjacent && (first.is_ascii_alphanumeric() || first >= 0x80) {
                // `**_a_**after`: as `***a***after` the run follows the word `a` and closes.
                if let Some((o, c, 1)) = inner.filter(|&(_, c, _)| c == close) {
                    let last = self.inline.get(..c - 1).and_then(|b| b.chars().next_back());
                    if self.inline.get(o..o + 1) == Some("_")
                        && self.inline.get(c - 1..c) == Some("_")
                        && self.inline.get(close..close + len) == Some("**")
                        && last.is_some_and(is_word)
                    {
                        self.underscore_to_star(o, c - 1);
                        return;
                    }
                }
                self.inline.replace_range(close..close + len, "");
                self.inline.replace_range(open..open + len, "");
                // The opener's position is stale, and content followed it: a later `end ==
                // len` match would take the space before the next opener for a leading one
                // (`<b>(</b>x <i>a</i>` lost its space).
                self.fresh_marker = None;
                // A closer after punctuation right before its opener now meets its content.
                if let Some((o, c, l)) = self.pending_before.take() {
                    self.settle_before(o, c, l, open);
                }
                // The span that ended right before it now meets the word itself, and if its
                // markers go too, the one inside it (`~~**_a_**~~y`).
                let innermost = self.innermost.take();
                if let Some((o, c, l)) = inner {
                    let gone = self.settle_inner(o.saturating_sub(len), c.saturating_sub(len), l);
                    if let Some((o, c, l2)) = innermost.filter(|_| gone) {
                        let by = len + l;
                        self.settle_inner(o.saturating_sub(by), c.saturating_sub(by), l2);
                    }
                }
                self.opener_removed(open, len);
                self.unjoin_code(open);
            }
        }
    }

    /// Markers removed at `at` stood between two code spans, which now touch and would read
    /// as one broken span (`` `f`*`g`*k `` without its `*`): a space keeps them apart.
    fn unjoin_code(&mut self, at: usize) {
        let touching = self.inline.get(at..at + 1) == Some("`")
            && self
                .inline
                .get(..at)
                .is_some_and(|b| b.ends_with('`') && !ends_in_escaped_tick(b.as_bytes()));
        if touching {
            self.inline.insert(at, ' ');
            self.shift_spans(at, 1);
        }
    }

    /// The span opened at `o` whose closer at `c` (`l` bytes) follows punctuation and ends
    /// right at `at`, where the opener after it was removed: before a word it cannot close,
    /// so its markers go.
    fn settle_before(&mut self, o: usize, c: usize, l: usize, at: usize) {
        if l == 0 || c + l != at || o + l >= c {
            return;
        }
        let opener = self.inline.get(o..o + l);
        let markers = opener.is_some_and(|m| m.bytes().all(|b| matches!(b, b'*' | b'_' | b'~')))
            && opener == self.inline.get(c..c + l);
        let next = self.inline.get(at..).and_then(|a| a.chars().next());
        if markers && next.is_some_and(is_word) {
            self.inline.replace_range(c..c + l, "");
            self.inline.replace_range(o..o + l, "");
            self.last_closed = None;
        }
    }

    /// The span at `o..c` (markers of `l` bytes) whose closer now ends the buffer, right
    /// before a word: after punctuation it cannot close, so its markers go (returns true);
    /// `_` becomes `*`.
    fn settle_inner(&mut self, o: usize, c: usize, l: usize) -> bool {
        if l == 0 || o + 2 * l >= c || c != self.inline.len() {
            return false;
        }
        let opener = self.inline.get(o..o + l);
        let markers = opener.is_some_and(|m| m.bytes().all(|b| matches!(b, b'*' | b'_' | b'~')))
            && opener == self.inline.get(c - l..c);
        if !markers {
            return false;
        }
        let last = self.inline.get(..c - l).and_then(|b| b.chars().next_back());
        if last.is_some_and(is_punct) {
            self.inline.truncate(c - l);
            self.inline.replace_range(o..o + l, "");
            self.last_closed = None;
            return true;
        } else if l == 1 {
            self.underscore_to_star(o, c - 1);
        }
        false
    }

    /// The span `(o, c, l)` began right inside one whose markers `at` and `end` (its content
    /// end) were just removed: it now follows `prev` itself and may not open either.
    fn settle_first(
        &mut self,
        prev: Option<char>,
        (o, c, l): (usize, usize, usize),
        at: usize,
        end: usize,
    ) {
        if o != at || l == 0 || o + 2 * l >= c || c > end {
            return;
        }
        let delims = self
            .inline
            .get(o..o + l)
            .filter(|m| m.bytes().all(|b| matches!(b, b'*' | b'_' | b'~')));
        if delims.is_none() || delims != self.inline.get(c - l..c) {
            return;
        }
        let next = self.inline.get(o + l..).and_then(|a| a.chars().next());
        if !left_flanking(prev, next) {
            self.inline.replace_range(c - l..c, "");
            self.inline.replace_range(o..o + l, "");
        } else if l == 1 && prev.is_some_and(is_word) {
            self.underscore_to_star(o, c - 1);
        }
    }

    /// `_emphasis_` with its delimiters at `open` and `close` becomes `*emphasis*`: `_` neither
    /// opens nor closes inside a word. Same-length replacements, in place.
    fn underscore_to_star(&mut self, open: usize, close: usize) {
        for at in [open, close] {
            if self.inline.get(at..at + 1) == Some("_") {
                self.inline.replace_range(at..at + 1, "*");
            }
        }
    }

    fn before_word(&mut self, first: u8) {
        // Runs before every word: the rare `_emphasis_` case is a call of its own, so the
        // common one pays for no registers it needs.
        if let Some(em) = self.last_em.take() {
            if self.word_after_em(em, first) {
                return;
            }
        }
        self.flush_space();
    }

    /// [`Writer::before_word`] right after an `_emphasis_` (open, close): true when the
    /// pending space was settled here.
    #[inline(never)]
    fn word_after_em(&mut self, (open, close): (usize, usize), first: u8) -> bool {
        if self.space == Space::None
            && close + 1 == self.inline.len()
            && (first.is_ascii_alphanumeric() || first >= 0x80)
        {
            let after_strong = self
                .strong_before
                .is_some_and(|(_, end, at)| at == open && end == open);
            self.strong_to_underscores(open);
            // Right after a `*` closer (`**a*b***_c_d`) a `*` would join its run, which
            // then closes neither: the emphasis goes, its text stays. A run after a word
            // is a closer (an opener there could not open before `_`).
            let head = self.inline.get(..open).unwrap_or("");
            let star = head.trim_end_matches('*');
            let closer = after_strong || star.chars().next_back().is_some_and(is_word);
            // After `**` alone the run of three reads (`**b***c*d`).
            let run = head.len() - star.len();
            if run > 0 && run != 2 && closer && close > open {
                self.inline.truncate(close);
                self.inline.replace_range(open..open + 1, "");
                self.flush_space();
                return true;
            }
            // Same-length replacements in place: O(1), not a copy of the paragraph (a page
            // of a million `<i>x</i>` was quadratic with a rebuilt string).
            for at in [open, close] {
                if self.inline.get(at..at + 1) == Some("_") {
                    self.inline.replace_range(at..at + 1, "*");
                }
            }
        }
        false
    }

    /// The `_` opener at `open`, about to become `*`, directly follows the closer of a strong
    /// span. If that span ends in emphasis (`**one*two**_three_four`), the `*` would make a
    /// run of four that the rule of 3 keeps from closing the `**`; after `_two_` a run after
    /// punctuation that cannot close before a word. The strong span takes `__`.
    fn strong_to_underscores(&mut self, open: usize) {
        let Some((o, end, at)) = self.strong_before.take() else {
            return;
        };
        let head = self.inline.get(..open).unwrap_or("");
        let rest = head.trim_end_matches('*');
        let run = head.len() - rest.len();
        let after_punct = rest.chars().next_back().is_some_and(is_punct);
        let before = self.inline.get(..o).and_then(|b| b.chars().next_back());
        let fits = at == open
            && end == open
            && (run >= 3 || after_punct)
            && before.is_none_or(|c| c.is_whitespace() || (is_punct(c) && !matches!(c, '*' | '_')))
            && self.inline.get(o..o + 2) == Some("**")
            && self.inline.get(end.saturating_sub(2)..end) == Some("**");
        if fits {
            self.inline.replace_range(o..o + 2, "__");
            self.inline.replace_range(end.saturating_sub(2)..end, "__");
        }
    }

    /// An opener of `len` bytes at `at` was removed: an `_emphasis_` whose closer it followed
    /// now meets what followed the opener, or one it preceded meets what came before it; a
    /// word there stops `_` from closing or opening.
    fn opener_removed(&mut self, at: usize, len: usize) {
        let Some((mut o, mut c)) = self.em_before else {
            return;
        };
        if o >= at + len {
            o -= len;
            c -= len;
            self.em_before = Some((o, c));
        }
        let next = self.inline.get(at..).and_then(|a| a.chars().next());
        let prev = self.inline.get(..at).and_then(|b| b.chars().next_back());
        if (c + 1 == at && next.is_some_and(is_word)) || (o == at && prev.is_some_and(is_word)) {
            self.em_before = None;
            self.underscore_to_star(o, c);
        }
    }

    /// Text split across elements can form syntax no single text node shows: `&lt;` then
    /// `<span>img …` would be a raw tag, `!` then a link an image. When the next output
    /// directly continues such a character, escape it.
    pub fn guard_adjacent(&mut self, next: u8) {
        if self.space != Space::None {
            return;
        }
        let Some(&last) = self.inline.as_bytes().last() else {
            return;
        };
        if matches!(last, b'*' | b'~') {
            self.guard_loose_run(next);
            return;
        }
        let dangerous = match last {
            b'<' => next.is_ascii_alphabetic() || matches!(next, b'/' | b'!' | b'?'),
            b'!' => next == b'[',
            _ => false,
        };
        if !dangerous {
            return;
        }
        let escaped = self.inline.as_bytes()[..self.inline.len() - 1]
            .iter()
            .rev()
            .take_while(|&&b| b == b'\\')
            .count()
            % 2
            == 1;
        if !escaped {
            self.inline.insert(self.inline.len() - 1, '\\');
        }
    }

    /// `next` is about to be written right after the inline buffer's last byte, a `*` or `~`
    /// that may be a loose word of page text: escaped only where it could pair, when a span
    /// of its character is open around it or an opener of that character would join it into
    /// one run. Elsewhere (`D *<i>p</i>`, C's pointers in API docs) it stays as written, and
    /// the paragraph's delimiter check is skipped (see [`Writer::note_text`]).
    pub fn guard_loose_run(&mut self, next: u8) {
        let (open, last) = match self.inline.as_bytes().last() {
            Some(&b'*') => (self.delims.open_stars, b'*'),
            Some(&b'~') => (self.delims.open_tildes, b'~'),
            _ => return,
        };
        if open > 0 || next == last {
            self.escape_loose_run(0);
        }
    }

    /// Page text left a word of only `*` or `~` unescaped after white space (`Name *`): no
    /// delimiter then, as a space followed it. Something about to be written right after it
    /// (a closer, the space having gone after the span; an opener, a code span or a word of
    /// the next text) would make it a delimiter run, or part of one, that pairs with a marker
    /// or keeps one from pairing (`**Name ***`), so the word is escaped now (`**Name \***`).
    /// A marker just opened ([`Writer::push_marker`]) is not page text; nor is a closer,
    /// which never follows white space.
    /// Only a run from `min` on is looked at (a span's content, not its opener).
    pub fn escape_loose_run(&mut self, min: usize) {
        if self.marker_just_opened() {
            return;
        }
        let b = self.inline.as_bytes();
        let start = b.len()
            - b.iter()
                .rev()
                .take_while(|&&c| c == b'*' || c == b'~')
                .count();
        if start == b.len()
            || start < min
            || (start > 0 && !matches!(b.get(start - 1), Some(b' ' | b'\n')))
        {
            return;
        }
        let run = self.inline.split_off(start);
        for c in run.chars() {
            self.inline.push('\\');
            self.inline.push(c);
        }
    }

    /// Content ending at `at` was removed (a permalink anchor): if an opening marker is left
    /// bare, it is fresh again, so the text that follows hugs it.
    pub fn removed_back_to(&mut self, at: usize) {
        self.inline.truncate(at);
        // The removed content's own opener (a link's `[`) is gone with it: a position past
        // the end would match a later length and take the next word's space for its own.
        if self.fresh_marker.is_some_and(|(_, end)| end > at) {
            self.fresh_marker = None;
        }
        // White space it began with (`(<a href="…"> </a>&`) still separates its neighbours.
        let spaced = self.lead_space.contains(&at);
        if let Some(link) = &mut self.block_link {
            link.open = link.open.filter(|&o| o < at);
        }
        let head = self.inline.as_str();
        let len = if head.ends_with("**") || head.ends_with("~~") {
            2
        } else if head.ends_with(['*', '_', '[']) {
            1
        } else {
            0
        };
        if len > 0 {
            self.fresh_marker = Some((at - len, at));
            self.space = Space::Suppressed;
        } else if head.is_empty() || head.ends_with([' ', '\n']) {
            self.space = Space::Suppressed;
        } else if spaced {
            self.space = Space::Pending;
        }
    }

    /// Code begins with white space right after an opening marker (`<a><code> o</code></a>`):
    /// the space goes before the marker, as for text. False when no marker was just opened.
    pub fn lead_space_at_marker(&mut self) -> bool {
        if self.marker_just_opened() {
            self.note_lead_space();
            true
        } else {
            false
        }
    }

    /// Whether the inline buffer ends with the opening marker written last: nothing has
    /// followed it yet.
    fn marker_just_opened(&self) -> bool {
        self.fresh_marker
            .is_some_and(|(_, end)| end == self.inline.len())
    }

    /// White space right after an opening marker belongs before it.
    fn note_lead_space(&mut self) {
        if let Some((start, end)) = self.fresh_marker {
            if end == self.inline.len() && !self.lead_space.contains(&start) {
                self.lead_space.push(start);
                // The opener right before it goes with it (`<b><i> c</i></b>`): the space
                // belongs before both.
                if let Some((before, _)) = self.fresh_before.filter(|&(_, e)| e == start) {
                    if !self.lead_space.contains(&before) {
                        self.lead_space.push(before);
                    }
                }
            }
        }
    }

    /// Write a pending space, if any and if not at the start of a line or after a space.
    pub fn flush_space(&mut self) {
        if self.space == Space::Pending && self.marker_just_opened() {
            self.note_lead_space();
            self.space = Space::None;
            return;
        }
        if self.space == Space::Pending
            && !self.inline.is_empty()
            && !self.inline.ends_with(['\n', ' '])
        {
            self.inline.push(' ');
        }
        self.space = Space::None;
    }

    /// Opening markup (`**`, `[`, …): a pending space goes before it, whitespace after it is dropped.
    pub fn open_marker(&mut self, marker: &str) -> usize {
        self.open_link_segment();
        self.push_marker(marker)
    }

    fn push_marker(&mut self, marker: &str) -> usize {
        // `_em_` directly followed by more markup (`_em_~~del~~`) is not read as emphasis
        // by every GFM parser; `*em*` is. Not before `*`: `*em***strong**` would be one
        // delimiter run, read as neither, while `_em_**strong**` reads.
        if marker.starts_with('*') {
            let adjacent = self.space == Space::None;
            let em = self.last_em.take();
            self.flush_space();
            let here = self.inline.len();
            if let Some(em) = em.filter(|&(_, c)| adjacent && c + 1 == here) {
                self.em_before = Some(em);
            }
        } else {
            self.before_word(b'x');
        }
        self.guard_adjacent(marker.as_bytes().first().copied().unwrap_or(b' '));
        let pos = self.inline.len();
        self.fresh_before = self.fresh_marker.filter(|&(_, end)| end == pos);
        if let Some(p) = self.pending_closer.filter(|&(_, c, l)| c + l == pos) {
            self.pending_closer = None;
            self.pending_before = Some(p);
        }
        let closed = self.closed_before.take();
        self.closed_here = closed.filter(|&(_, end, _)| {
            end <= pos
                && self
                    .inline
                    .get(end..pos)
                    .is_some_and(|g| g.trim().is_empty())
        });
        self.strong_before = closed
            .filter(|&(_, end, len)| marker == "_" && len == 2 && end == pos)
            .map(|(o, end, _)| (o, end, pos));
        if matches!(marker.as_bytes().first(), Some(b'*' | b'_' | b'~')) {
            // Text can be cut back below the first marker (a permalink), so a later one can
            // come first.
            self.delims.first = if self.delims.markers {
                self.delims.first.min(pos)
            } else {
                pos
            };
            self.delims.markers = true;
        }
        self.inline.push_str(marker);
        self.count_open(marker, true);
        self.fresh_marker = Some((pos, self.inline.len()));
        self.space = Space::Suppressed;
        pos
    }

    /// Closing markup for a span opened at `open` with `open_len` bytes of marker. Returns false
    /// (and removes the opening marker) when the span turned out empty or its markers could
    /// not be read as emphasis; the content stays.
    pub fn close_marker(&mut self, open: usize, open_len: usize, marker: &str) -> bool {
        self.last_em = None;
        self.count_open(marker, false);
        let emphasis = matches!(marker.as_bytes().first(), Some(b'*' | b'_' | b'~'));
        // Line breaks that end emphasis go after its closer, which could not close at the
        // start of a line (`<b>a<br></b>b` is `**a**\` and `b`).
        let breaks = if emphasis {
            self.trailing_breaks(open + open_len)
        } else {
            self.inline.len()
        };
        let breaks = if breaks < self.inline.len() {
            self.inline.split_off(breaks)
        } else {
            String::new()
        };
        if self.inline.len() <= open + open_len
            || self
                .inline
                .get(open + open_len..)
                .is_none_or(|s| s.trim().is_empty())
        {
            self.inline.truncate(open);
            // White space inside it is a space; without any the text around it joins
            // (`x<s></s>y` is `xy`).
            let spaced = self.lead_space.contains(&open);
            self.lead_space.retain(|&p| p < open);
            if self.space == Space::Suppressed {
                self.space = if open == 0 {
                    Space::Suppressed
                } else if spaced || !emphasis {
                    Space::Pending
                } else {
                    Space::None
                };
            }
            // A closer that was pending before it is pending again (`<b>(</b><s></s>y`), and
            // the span closed before it is the last closed one again.
            if let Some(p) = self.pending_before.take() {
                if p.1 + p.2 == open {
                    self.pending_closer = Some(p);
                }
            }
            if self.last_closed.is_none() {
                self.last_closed = self.closed_here.take().filter(|&(_, end, _)| end <= open);
            }
            // An `_emphasis_` it directly followed meets what follows it now.
            if let Some(em) = self.em_before.take() {
                if em.1 + 1 == open && self.space == Space::None {
                    self.last_em = Some(em);
                }
            }
            // Its opener was the fresh one: the one before it, if it was written right
            // before, is fresh again (`<b><s></s> x</b>`).
            if self.fresh_marker.is_some_and(|(_, e)| e > open) {
                self.fresh_marker = self.fresh_before.take().filter(|&(_, e)| e == open);
            }
            if !breaks.is_empty() && !self.inline.trim().is_empty() {
                self.inline.push_str(&breaks);
                self.space = Space::Suppressed;
            }
            return false;
        }
        // Trailing whitespace inside the span moves after it.
        let trimmed = self.inline.trim_end_matches([' ', '\n']).len();
        if trimmed < self.inline.len() && !self.inline.ends_with("\\\n") {
            self.inline.truncate(trimmed);
            self.space = Space::Pending;
        }
        // So does white space that is text (`<i>foo&nbsp;</i>`): a closer after it cannot
        // close. It goes back after the closer, as text.
        // Spaces mixed in go with it (`<b>Label: &nbsp;</b>`): a space left before the
        // closer would keep it from closing too. Not a line break: a hard break's `\` stays.
        let kept = if emphasis {
            self.inline.trim_end_matches(is_edge_space).len()
        } else {
            self.inline.len()
        };
        let moved = if kept > open + open_len && kept < self.inline.len() {
            self.inline.split_off(kept)
        } else {
            String::new()
        };
        if self.inline.len() > open + open_len {
            self.escape_loose_run(open + open_len);
        }
        // And leading white space that is text (`foo<i>&nbsp;bar</i>`) goes before the opener,
        // which could not open before it. Spans inside begin after it and stay where they are.
        let at = open;
        let body = at + open_len;
        let ws_len = match self.inline.get(body..) {
            Some(s) if emphasis => s.len() - s.trim_start_matches(is_edge_space).len(),
            _ => 0,
        };
        let open = if ws_len > 0 && body + ws_len < self.inline.len() {
            let ws = self
                .inline
                .get(body..body + ws_len)
                .unwrap_or("")
                .to_owned();
            self.inline.replace_range(body..body + ws_len, "");
            self.inline.insert_str(at, &ws);
            at + ws_len
        } else {
            at
        };
        // Every frame still open began before `at`, so edits from here on move no position
        // anyone still holds.
        let lead = match self.lead_space.iter().rposition(|&p| p == at) {
            Some(i) => {
                self.lead_space.swap_remove(i);
                let before = self.inline.get(..at).unwrap_or("");
                // Not when an opener right before takes the space before itself.
                let outer = self.lead_space.iter().any(|&p| {
                    p < at
                        && before
                            .get(p..)
                            .is_some_and(|m| m.bytes().all(|b| matches!(b, b'*' | b'_' | b'~')))
                });
                !before.is_empty() && !before.ends_with([' ', '\n']) && !outer
            }
            None => false,
        };
        let prev = if lead {
            Some(' ')
        } else {
            self.inline.get(..open).and_then(|b| b.chars().next_back())
        };
        let star = marker.starts_with('*');
        if star && self.inline.get(open + open_len..open + open_len + 1) == Some("_") {
            // `x<b><i>a</i></b>`: `**` cannot open before `_` after a word, `***a***` can.
            self.star_inner(open + open_len, prev);
        }
        // Judged on the whole delimiter run: an opener of the same character right after
        // this one (`***a**b*`) is part of it. Only when that opener's span holds the only
        // other delimiters inside: a run of three left open would let any later intraword
        // delimiter close it (`***a**b**c***`).
        // What follows the opener only matters to emphasis (links always open).
        let next = || {
            self.inline
                .get(open + open_len..)
                .map(|a| {
                    let inner = a.trim_start_matches('*');
                    let run = a.len() - inner.len();
                    // And only when the content ends in a word, so the closing run closes. The
                    // count is bounded: a span reopened again and again (`<i>x</i>` × 250,000)
                    // grows with every close, and counting all of it each time was quadratic.
                    let last = a.trim_end_matches('*').chars().next_back();
                    let only = || {
                        a.len() <= MAX_RUN_SCAN
                            && a.bytes().filter(|&b| b == b'*').count() == 2 * run
                    };
                    if star && run > 0 && last.is_some_and(is_word) && only() {
                        inner
                    } else {
                        a
                    }
                })
                .and_then(|a| a.chars().next())
        };
        let opens = !emphasis || left_flanking(prev, next());
        if opens {
            self.inline.push_str(marker);
        } else {
            // `snake<b>_case</b>`: a delimiter CommonMark cannot read as an opener would show
            // as literal asterisks; plain text is the faithful rendering.
            self.inline.replace_range(open..open + open_len, "");
            self.opener_removed(open, open_len);
            self.shift_spans(open + open_len, -(open_len as isize));
            // Two code spans it stood between would now touch and read as one broken span
            // (`` `f`_`g`_ `` without its `_`).
            self.unjoin_code(open);
            // Its position is stale now, and content followed it anyway.
            self.fresh_marker = None;
            // A span that was the whole content now follows `prev` itself: it may no
            // longer open either (`x<b><i>(y)</i></b>`).
            if let Some((o, c, l)) = self.last_closed {
                let delims = self
                    .inline
                    .get(o..o + l)
                    .filter(|m| m.bytes().all(|b| matches!(b, b'*' | b'_' | b'~')));
                let spans =
                    delims.is_some() && o + 2 * l < c && delims == self.inline.get(c - l..c);
                let next = self.inline.get(o + l..).and_then(|a| a.chars().next());
                // Whether or not it was the whole content (`x<b><i><a>y</a>z</i></b>`).
                if spans && o == open && c <= self.inline.len() {
                    if !left_flanking(prev, next) {
                        self.inline.replace_range(c - l..c, "");
                        self.inline.replace_range(o..o + l, "");
                        self.last_closed = None;
                        self.pending_closer = None;
                        self.inner_closer = None;
                        self.innermost = None;
                        // And the span that began right inside it (`x<b><s><i>y</i></s></b>`).
                        if let Some((o2, c2, l2)) = self.first_inner.take() {
                            self.settle_first(
                                prev,
                                (o2.wrapping_sub(l), c2.wrapping_sub(l), l2),
                                o,
                                c - l,
                            );
                        }
                    } else if l == 1 && prev.is_some_and(is_word) {
                        // `_` does not open inside a word (`x<b><i>y</i></b>`); `*` does.
                        self.underscore_to_star(o, c - 1);
                    }
                }
            }
        }
        if self.space == Space::Suppressed {
            self.space = Space::None;
        }
        if lead {
            self.inline.insert(at, ' ');
            self.shift_spans(at, 1);
        }
        if opens && emphasis {
            // A closer after punctuation only closes if no word follows directly.
            // Judged on the whole delimiter run: closers of the same character right before
            // this one (`**a*b***c`) are part of it.
            let close = self.inline.len() - marker.len();
            let run = marker.chars().next().unwrap_or('*');
            let last = self
                .inline
                .get(..close)
                .and_then(|b| b.trim_end_matches(run).chars().next_back());
            if last.is_some_and(is_punct) {
                // The span closed right before this closer (`**_a_**`): if a word removes
                // this one's markers, the inner closer meets that word next.
                let inner = self
                    .last_closed
                    .filter(|&(o, c, _)| c == close && o > open + usize::from(lead));
                // Three levels (`~~**_a_**~~`): the inner span's own inner closer, still held
                // from its close.
                self.innermost = match (inner, self.inner_closer) {
                    (Some((o, c, l)), Some(x))
                        if self.pending_closer.is_some_and(|p| p.0 == o) && x.1 + l == c =>
                    {
                        Some(x)
                    }
                    _ => None,
                };
                self.inner_closer = inner;
                self.pending_closer = Some((open + usize::from(lead), close, marker.len()));
            }
        }
        if opens {
            let start = open + usize::from(lead);
            let end = self.inline.len();
            // `***a***`: the emphasis is the whole content, so the run may as well be read
            // with the emphasis outside, and emphasis that follows can join it.
            self.strong_em = (marker == "**"
                && self.last_closed == Some((start + 2, end - 2, 1))
                && self.inline.get(start..start + 3) == Some("***"))
            .then_some(end);
            self.first_inner = self
                .last_closed
                .filter(|&(o, c, _)| o == start + marker.len() && c < end);
            self.last_closed = Some((start, end, marker.len()));
        }
        if !moved.is_empty() {
            self.inline.push_str(&moved);
            self.last_em = None;
            self.pending_closer = None;
            self.inner_closer = None;
            self.innermost = None;
        }
        if !breaks.is_empty() {
            self.inline.push_str(&breaks);
            self.space = Space::Suppressed;
            self.pending_closer = None;
            self.inner_closer = None;
            self.innermost = None;
        }
        opens
    }

    /// Where the line breaks that end the span content starting at `body` begin, with the
    /// text white space among them; the end of the buffer if it does not end in a break.
    fn trailing_breaks(&self, body: usize) -> usize {
        let Some(content) = self.inline.get(body..) else {
            return self.inline.len();
        };
        let mut cut = content.len();
        let mut rest = content;
        while let Some(head) = rest.trim_end_matches(is_text_space).strip_suffix("\\\n") {
            cut = head.len();
            rest = head;
        }
        body + cut
    }

    /// The `_emphasis_` span opening at `at`, right after a `**` opener, becomes `*emphasis*`
    /// when `_` stops the opener from opening after `prev` and `*` would not: both runs are
    /// then one, judged on the emphasis's first character.
    fn star_inner(&mut self, at: usize, prev: Option<char>) {
        let Some((o, c, 1)) = self.last_closed else {
            return;
        };
        let first = self.inline.get(o + 1..).and_then(|a| a.chars().next());
        let wants = o == at
            && c > o + 2
            && self.inline.get(c - 1..c) == Some("_")
            && !left_flanking(prev, Some('_'))
            && left_flanking(prev, first);
        if wants {
            self.underscore_to_star(o, c - 1);
        }
    }

    /// Text from `from` on moved by `by` bytes (a marker removed or a space inserted before
    /// it): the spans closed inside the span being closed move with it.
    fn shift_spans(&mut self, from: usize, by: isize) {
        let shift = |p: &mut usize| {
            if *p >= from {
                *p = p.saturating_add_signed(by);
            }
        };
        for (o, c, _) in [
            &mut self.pending_closer,
            &mut self.last_closed,
            &mut self.inner_closer,
            &mut self.innermost,
            &mut self.first_inner,
        ]
        .into_iter()
        .flatten()
        {
            shift(o);
            shift(c);
        }
    }

    /// Emphasis opened at `open` whose whole content is a link `[text](dest)` with its `]` at
    /// `bracket`: the delimiters go inside the link text, where `[` and `]` always let them
    /// open and close (`x**[l](/)**y` would show literal asterisks). Returns the link's new
    /// `[` and `]` positions.
    pub fn emphasise_link_text(
        &mut self,
        open: usize,
        marker: &str,
        bracket: usize,
    ) -> Option<(usize, usize)> {
        let len = marker.len();
        // One space may sit between the opener and the link (`<b><a> x </a></b>`).
        let gap = usize::from(self.inline.get(open + len..open + len + 1) == Some(" "));
        let link = open + len + gap;
        let whole = self.inline.get(open..open + len) == Some(marker)
            && self.inline.get(link..link + 1) == Some("[")
            && self.inline.get(bracket..bracket + 2) == Some("](")
            && bracket > link + 1
            && self.inline.ends_with(')');
        if !whole {
            return None;
        }
        // The span closes here, not in `close_marker`.
        self.count_open(marker, false);
        self.last_em = None;
        self.last_closed = None;
        self.pending_closer = None;
        self.inner_closer = None;
        self.innermost = None;
        self.fresh_marker = None;
        self.inline.replace_range(open..link, "");
        let bracket = bracket - len - gap;
        self.inline.insert_str(bracket, marker);
        self.inline.insert_str(open + 1, marker);
        let mut at = open;
        // White space that opened the span goes before the link.
        let lead = match self.lead_space.iter().rposition(|&p| p == open) {
            Some(i) => {
                self.lead_space.swap_remove(i);
                true
            }
            None => gap > 0,
        };
        let before = self.inline.get(..open).unwrap_or("");
        if lead && !before.is_empty() && !before.ends_with([' ', '\n']) {
            self.inline.insert(open, ' ');
            at += 1;
        }
        if self.space == Space::Suppressed {
            self.space = Space::None;
        }
        Some((at, bracket + 2 * len + (at - open)))
    }

    /// Start a link around blocks: `closer` is `](destination "title")`.
    pub fn start_block_link(&mut self, closer: String) {
        self.block_link = Some(BlockLink { closer, open: None });
    }

    /// End the link around blocks, closing the link of the inline content written last.
    pub fn end_block_link(&mut self) {
        self.close_link_segment();
        self.block_link = None;
    }

    /// Inside a link around blocks: open a link before the first output of the inline
    /// content.
    pub fn open_link_segment(&mut self) {
        if !matches!(&self.block_link, Some(BlockLink { open: None, .. })) {
            return;
        }
        let at = self.push_marker("[");
        if let Some(link) = &mut self.block_link {
            link.open = Some(at);
        }
    }

    fn close_link_segment(&mut self) {
        let Some(link) = &mut self.block_link else {
            return;
        };
        let Some(at) = link.open.take() else {
            return;
        };
        let closer = link.closer.clone();
        // A line break cannot end link text usefully: it would end up inside the brackets.
        while self.inline.ends_with("\\\n") {
            self.inline.truncate(self.inline.len() - 2);
        }
        if !self.close_marker(at, 1, &closer) {
            self.space = Space::Pending;
        }
    }

    /// Reopen the span of `marker` that closed right here (`<b>x</b><b>y</b>` is one span
    /// `**xy**`; two would read `**x****y**`, literal asterisks). Returns its opening position.
    pub fn reopen(&mut self, marker: &str) -> Option<usize> {
        let (open, end, len) = self.last_closed?;
        if marker == "*"
            && len == 2
            && self.strong_em == Some(end)
            && self.space == Space::None
            && end == self.inline.len()
            && self
                .inline
                .get(..end.saturating_sub(3))
                .and_then(|b| b.chars().next_back())
                .is_some_and(is_word)
        {
            // `***a***` then `<i>b</i>`: `***a**b*`, the emphasis read outside the strong.
            self.last_closed = None;
            self.inline.truncate(end - 1);
            self.pending_closer = None;
            self.inner_closer = None;
            self.innermost = None;
            self.last_em = None;
            self.count_open(marker, true);
            return Some(open);
        }
        // Not a `*` span whose content ends in a closer (`*a**b.***`): without the `*` that
        // closer would meet the next word.
        let inner_closer = marker == "*"
            && self
                .inline
                .get(..end.saturating_sub(len))
                .is_some_and(|b| b.ends_with(['*', '_', '~']));
        let here = end == self.inline.len()
            && len == marker.len()
            && self.space == Space::None
            && self.inline.ends_with(marker)
            && self.inline.get(open..open + len) == Some(marker)
            && !inner_closer;
        if !here {
            // Kept for the `*` look-up that follows a failed `_` one, and for
            // [`Writer::strong_to_underscores`].
            self.closed_before = self.last_closed;
            if marker != "_" {
                self.last_closed = None;
            }
            return None;
        }
        // An `_emphasis_` that ended the span (`**_a_**` then `<b>b</b>`) now meets what
        // continues it: it is switched to `*` if a word follows.
        let em = self
            .inner_closer
            .filter(|&(o, c, l)| l == 1 && c + len == end && o < c)
            .map(|(o, c, _)| (o, c - 1))
            .filter(|&(o, c)| {
                self.inline.get(o..o + 1) == Some("_") && self.inline.get(c..c + 1) == Some("_")
            });
        self.last_closed = None;
        self.inline.truncate(end - len);
        self.pending_closer = None;
        self.inner_closer = None;
        self.innermost = None;
        self.last_em = em;
        self.count_open(marker, true);
        Some(open)
    }

    /// A span with `marker` opened (or reopened) or closed.
    fn count_open(&mut self, marker: &str, opened: bool) {
        let count = match marker.as_bytes().first() {
            Some(b'*') => &mut self.delims.open_stars,
            Some(b'~') => &mut self.delims.open_tildes,
            _ => return,
        };
        *count = if opened {
            count.saturating_add(1)
        } else {
            count.saturating_sub(1)
        };
    }

    /// Markup written as is (task checkboxes, link destinations).
    pub fn raw(&mut self, s: &str) {
        self.delims.text_underscore |= self.delims.markers && s.contains('_');
        self.before_markup(s.as_bytes().first().copied().unwrap_or(b' '));
        self.inline.push_str(s);
    }

    /// What comes before markup written as is whose first byte is `first`: the link
    /// segment opened, the `_` switch and pending space settled, adjacency guarded.
    fn before_markup(&mut self, first: u8) {
        self.open_link_segment();
        self.last_em = None;
        self.flush_space();
        self.guard_adjacent(first);
    }

    /// A formula's TeX between `fence`s (`$` or `$$`), as is.
    pub fn formula(&mut self, fence: &str, tex: &str) {
        self.formulas = true;
        self.before_markup(b'$');
        let out = &mut self.inline;
        out.reserve(tex.len() + 2 * fence.len() + 2);
        out.push_str(fence);
        out.push(char::from(TEX_OPEN));
        out.push_str(tex);
        out.push(char::from(TEX_CLOSE));
        out.push_str(fence);
    }

    /// A `<br>`: a hard line break, unless at the start of the paragraph.
    pub fn hard_break(&mut self) {
        self.last_em = None;
        // `<br><br>` is how old pages separate paragraphs: make it one.
        if self.inline.ends_with("\\\n") {
            self.inline.truncate(self.inline.len() - 2);
            self.flush_paragraph();
            return;
        }
        if self.has_line() && !self.inline.ends_with('\n') {
            self.inline.push_str("\\\n");
        }
        self.space = Space::Suppressed;
    }

    /// Whether the paragraph (or the link around blocks) has begun, so that a line break
    /// can end a line of it.
    fn has_line(&self) -> bool {
        let link_start = self
            .block_link
            .as_ref()
            .and_then(|l| l.open)
            .is_some_and(|o| o + 1 == self.inline.len());
        !link_start && !self.inline.trim().is_empty()
    }

    /// A `<br>` inside an open emphasis span: a hard break, a second one too (a blank line
    /// would end the paragraph inside the span and leave its markers literal).
    pub fn hard_break_in_span(&mut self) {
        self.last_em = None;
        if self.has_line() {
            self.inline.push_str("\\\n");
        }
        self.space = Space::Suppressed;
    }

    /// Remove the opening markers from `at` on, which nothing follows yet, and the space
    /// before them, so that a line break goes before them: an opener followed by a line
    /// break cannot open. The caller writes the break and opens the spans again.
    pub fn cut_openers(&mut self, at: usize) {
        let keep = self
            .inline
            .get(..at)
            .map_or(at, |head| head.trim_end_matches(' ').len());
        self.inline.truncate(keep);
        self.lead_space.retain(|&p| p < keep);
        self.fresh_marker = None;
        self.last_em = None;
        self.strong_before = None;
        self.em_before = None;
    }

    /// A block boundary where blocks cannot be written (cells, headings, links): a space.
    pub fn soft_boundary(&mut self) {
        self.note_lead_space();
        if self.space == Space::None {
            self.space = Space::Pending;
        }
    }

    // ---- blocks ----

    /// Start a block: finish the paragraph, and separate from what came before by a blank
    /// line (`tight` = only a line break: list items and nested lists).
    pub fn begin_block(&mut self, tight: bool) {
        self.flush_paragraph();
        if tight {
            self.blank_pending = false;
        }
    }

    /// End a block: the next one is separated by a blank line.
    pub fn end_block(&mut self) {
        self.flush_paragraph();
        self.blank_pending = true;
    }

    /// Write the blank line owed before a new block, unless this is the first block of a list
    /// item (it goes right after the marker) or of the document.
    fn separate(&mut self, next: Block) {
        // The first marker line to be written decides: blocks owed before an item's first
        // content (empty wrappers) do not count, the item decided at its start whether a blank
        // line precedes it. And a list item that CommonMark does not let interrupt a paragraph
        // (ordered, not numbered 1) would be read as paragraph text, taking its content with
        // it (a fence in it would turn code into live Markdown): a blank line goes first.
        let n = self.prefixes.len();
        let first_marker = self
            .prefixes
            .iter_mut()
            .enumerate()
            .find(|(i, p)| writes_at(*i, n) && matches!(p, Prefix::Item { pending: true, .. }));
        let owed = match first_marker {
            Some((
                _,
                Prefix::Item {
                    marker,
                    blank,
                    sibling,
                    ..
                },
            )) => {
                std::mem::take(blank)
                    || (!*sibling && self.after_paragraph && !can_interrupt_paragraph(*marker))
            }
            _ => self.blank_pending && !self.tight_follows(next),
        };
        self.last_block = next;
        if owed && self.out.len() > self.base {
            let start = self.out.len();
            self.write_prefix(false);
            let trimmed = self.out[start..].trim_end().len();
            self.out.truncate(start + trimmed);
            self.out.push('\n');
            self.after_paragraph = false;
        }
        self.blank_pending = false;
    }

    /// Whether block `next` goes on the line after the block before it, with no blank line
    /// between: both directly in an item of a tight list, and CommonMark reads them apart
    /// (a heading or a fence ends any block but a table; a quote interrupts a paragraph; a
    /// paragraph follows a heading or a fence). Tables and rules keep the blank line (`---`
    /// under text is a heading; a line under a table is a row), and so does text after a
    /// nested list or quote (it would continue them) and a quote after a quote.
    fn tight_follows(&self, next: Block) -> bool {
        let Some(at) = self
            .prefixes
            .iter()
            .rposition(|p| matches!(p, Prefix::Item { .. }))
        else {
            return false;
        };
        let Some(Prefix::Item {
            tight: true,
            pending: false,
            ..
        }) = self.prefixes.get(at)
        else {
            return false;
        };
        // Quotes opened in the item and not written yet start with this block.
        let inner = self.prefixes.get(at + 1..).unwrap_or_default();
        if inner
            .iter()
            .any(|p| !matches!(p, Prefix::Quote { started: false }))
        {
            return false;
        }
        let prev = self.last_block;
        if !inner.is_empty() {
            return matches!(prev, Block::Paragraph | Block::Heading | Block::Fence);
        }
        match next {
            Block::Heading | Block::Fence => prev != Block::Other,
            Block::Paragraph => matches!(prev, Block::Heading | Block::Fence),
            Block::Container | Block::Other => false,
        }
    }

    fn write_prefix(&mut self, consume_marker: bool) {
        let n = self.prefixes.len();
        for (i, p) in self.prefixes.iter_mut().enumerate() {
            if !writes_at(i, n) {
                continue;
            }
            match p {
                Prefix::Quote { started } => {
                    if consume_marker {
                        *started = true;
                        self.out.push_str("> ");
                    } else if *started {
                        self.out.push_str("> ");
                    }
                }
                Prefix::Item {
                    marker, pending, ..
                } => {
                    if *pending && consume_marker {
                        marker.write(&mut self.out);
                        *pending = false;
                    } else {
                        // Past the depth cap only the innermost prefix is written, on its
                        // marker line and its continuation lines alike, so they stay one item.
                        push_spaces(&mut self.out, marker.width());
                    }
                }
            }
        }
    }

    /// Write one complete line of a block with the current prefixes.
    pub fn line(&mut self, content: &str) {
        self.write_prefix(true);
        self.out.push_str(content);
        self.end_line();
    }

    /// End the line being written: lines never end in spaces (a hard break is a backslash).
    fn end_line(&mut self) {
        let trimmed = self.out.trim_end_matches([' ', '\t']).len();
        self.out.truncate(trimmed);
        self.out.push('\n');
        self.after_paragraph = false;
    }

    /// A block of lines written verbatim (code block content, table rows).
    pub fn block_lines(&mut self, lines: &[&str]) {
        self.begin_block(false);
        self.separate(Block::Other);
        for l in lines {
            self.line(l);
        }
        self.end_block();
    }

    /// A fenced code block (`fence`, info string `lang`): the lines of `code` verbatim,
    /// trailing white space included (it is content).
    pub fn code_block(&mut self, fence: &str, lang: &str, code: &str) {
        self.begin_block(false);
        self.separate(Block::Fence);
        self.write_prefix(true);
        self.out.push_str(fence);
        self.out.push_str(lang);
        self.out.push('\n');
        if self.prefixes.is_empty() {
            // No prefix to put before each line: the code goes in whole.
            self.out.push_str(code);
            self.out.push('\n');
        } else {
            // `code.split('\n')`, with memchr's search.
            let mut start = 0;
            let ends =
                memchr::memchr_iter(b'\n', code.as_bytes()).chain(std::iter::once(code.len()));
            for end in ends {
                self.write_prefix(true);
                self.out.push_str(code.get(start..end).unwrap_or(""));
                self.out.push('\n');
                start = end + 1;
            }
        }
        self.write_prefix(true);
        self.out.push_str(fence);
        self.out.push('\n');
        self.after_paragraph = false;
        self.end_block();
    }

    /// Take the inline buffer (for headings and cells), leaving it empty.
    pub fn take_inline(&mut self, from: usize) -> String {
        self.release_inline(from);
        let mut s = self.inline.split_off(from.min(self.inline.len()));
        // The flags stay for the rest of the paragraph: table cells can come back into it.
        if self.delims.markers {
            settle_delimiters(&mut s, self.delims, from);
        }
        self.space = Space::Suppressed;
        s
    }

    /// [`Writer::take_inline`] into `out` (cleared first), reusing its allocation: its
    /// delimiters settled, as a heading's are.
    pub fn take_settled_into(&mut self, from: usize, out: &mut String) {
        self.take_inline_into(from, out);
        if self.delims.markers {
            settle_delimiters(out, self.delims, from);
        }
    }

    /// An ATX heading line of `level` with `content`, its white space collapsed (nothing
    /// when it has no text): written straight into the output, no line built first.
    pub fn heading(&mut self, level: usize, content: &str, collapsed: bool) {
        if content.is_empty() || (!collapsed && content.split_whitespace().next().is_none()) {
            return;
        }
        self.begin_block(false);
        self.separate(Block::Heading);
        self.write_prefix(true);
        for _ in 0..level {
            self.out.push('#');
        }
        self.out.push(' ');
        if collapsed {
            self.out.push_str(content);
        } else {
            for (i, word) in content.split_whitespace().enumerate() {
                if i > 0 {
                    self.out.push(' ');
                }
                self.out.push_str(word);
            }
        }
        // A trailing ` #` would be read as a closing sequence (the level's own `#`s are
        // followed by a space: never reached).
        let hashes = self.out.len() - self.out.trim_end_matches('#').len();
        if hashes > 0 {
            self.out.insert(self.out.len() - hashes, '\\');
        }
        self.end_line();
        self.end_block();
    }

    /// [`Writer::take_inline`] into `out` (cleared first), reusing its allocation, with no
    /// delimiter check: a code span's content holds none.
    pub fn take_inline_into(&mut self, from: usize, out: &mut String) {
        self.release_inline(from);
        let from = from.min(self.inline.len());
        out.clear();
        out.push_str(self.inline.get(from..).unwrap_or(""));
        self.inline.truncate(from);
        self.space = Space::Suppressed;
    }

    /// Forget the inline state that points at or past `from`, before it is taken.
    fn release_inline(&mut self, from: usize) {
        if self
            .block_link
            .as_ref()
            .and_then(|l| l.open)
            .is_some_and(|o| o >= from)
        {
            self.close_link_segment();
        }
        self.lead_space.retain(|&p| p < from);
        // A marker taken with the text (a link's `[` in a CSS-grid cell) is no longer
        // fresh: left, the next cell's first space would count as one right after it.
        if self.fresh_marker.is_some_and(|(_, end)| end > from) {
            self.fresh_marker = None;
        }
        // A span closed before the taken text (`<b><i>e_</i><kbd>x</kbd></b>`) is still the
        // one closed last: if the outer opener goes, it meets what precedes it and may need
        // `*` for `_` (`1*e\_*`x``).
        let closed = self.last_closed.filter(|&(_, end, _)| end <= from);
        self.clear_span_marks();
        self.last_closed = closed;
    }

    /// Write the paragraph built so far, if any.
    #[inline]
    pub fn flush_paragraph(&mut self) {
        // Most calls (each block start and end) find nothing to write: no call for them.
        if self.inline.is_empty() && self.block_link.is_none() {
            self.forget_spans();
            self.delims = DelimState::default();
            self.space = Space::Suppressed;
            return;
        }
        self.write_paragraph();
    }

    /// [`Writer::flush_paragraph`] of a paragraph with content, or in a link around blocks.
    /// Never inlined: inlined, its register saves made every empty flush pay for it.
    #[inline(never)]
    fn write_paragraph(&mut self) {
        if self.block_link.is_some() {
            self.close_link_segment();
        }
        self.forget_spans();
        let delims = std::mem::take(&mut self.delims);
        if delims.markers {
            settle_delimiters(&mut self.inline, delims, 0);
        }
        if self.inline.trim().is_empty() {
            self.inline.clear();
            self.space = Space::Suppressed;
            return;
        }
        let mut para = std::mem::take(&mut self.inline);
        // A paragraph never ends in a hard break (it would show as a literal backslash).
        loop {
            let t = para.trim_end().len();
            para.truncate(t);
            if para.ends_with('\\') && !para.ends_with("\\\\") {
                para.pop();
            } else {
                break;
            }
        }
        self.separate(Block::Paragraph);
        // `para.split('\n')`, with memchr's search (most paragraphs are one line).
        let mut start = 0;
        let ends = memchr::memchr_iter(b'\n', para.as_bytes()).chain(std::iter::once(para.len()));
        for end in ends {
            let line = para.get(start..end).unwrap_or("").trim_start();
            start = end + 1;
            match line_start_escape(line) {
                Some(at) => {
                    let (a, b) = line.split_at(at);
                    self.write_prefix(true);
                    self.out.push_str(a);
                    self.out.push('\\');
                    self.out.push_str(b);
                    self.out.push('\n');
                }
                None => self.line(line),
            }
        }
        self.after_paragraph = true;
        para.clear();
        self.inline = para;
        self.space = Space::Suppressed;
        self.blank_pending = true;
    }

    // ---- prefixes ----

    /// Forget the spans of the paragraph: it is written or dropped.
    fn forget_spans(&mut self) {
        self.lead_space.clear();
        self.fresh_marker = None;
        self.clear_span_marks();
    }

    /// Forget the positions the delimiter bookkeeping holds into the paragraph's inline text.
    fn clear_span_marks(&mut self) {
        self.last_em = None;
        self.last_closed = None;
        self.pending_closer = None;
        self.inner_closer = None;
        self.innermost = None;
        self.pending_before = None;
        self.closed_here = None;
        self.first_inner = None;
        self.fresh_before = None;
        self.strong_em = None;
        self.strong_before = None;
        self.em_before = None;
        self.closed_before = None;
    }

    /// Continue the item closed last at this depth (content a list holds outside any `<li>`):
    /// its lines get the item's indentation of `width`. `loose`: a blank line goes first.
    pub fn continue_item(&mut self, width: usize, loose: bool) {
        self.prefixes.push(Prefix::Item {
            marker: Marker::Indent(width),
            pending: false,
            blank: false,
            sibling: false,
            tight: false,
        });
        if loose {
            self.blank_pending = true;
        }
    }

    pub fn push_quote(&mut self) {
        self.prefixes.push(Prefix::Quote { started: false });
    }

    /// Open a list item with `marker`; `tight`: its list is tight.
    pub fn push_item(&mut self, marker: Marker, tight: bool) {
        let blank = std::mem::take(&mut self.blank_pending);
        let sibling = self.closed_item == Some((self.prefixes.len(), self.out.len()));
        self.prefixes.push(Prefix::Item {
            marker,
            pending: true,
            blank,
            sibling,
            tight,
        });
    }

    /// The innermost item, still without content, as its bare marker (`-`, `2.`): an empty
    /// `<li>` is an item all the same, and leaving it out would run its neighbours together
    /// (and renumber an ordered list). Only right after a written item: after other text a
    /// lone `-` would underline it as a heading.
    pub fn empty_item(&mut self) {
        self.flush_paragraph();
        if matches!(
            self.prefixes.last(),
            Some(Prefix::Item {
                pending: true,
                sibling: true,
                ..
            })
        ) {
            self.separate(Block::Other);
            self.line("");
        }
    }

    /// Whether the innermost item has written nothing yet.
    pub fn item_pending(&self) -> bool {
        matches!(
            self.prefixes.last(),
            Some(Prefix::Item { pending: true, .. })
        )
    }

    pub fn pop_prefix(&mut self) {
        self.last_block = Block::Container;
        match self.prefixes.pop() {
            Some(Prefix::Item { pending: false, .. }) => {
                self.closed_item = Some((self.prefixes.len(), self.out.len()));
            }
            // An item that stayed empty writes nothing: the blank line it took over is still
            // owed by whatever comes next.
            Some(Prefix::Item {
                pending: true,
                blank,
                ..
            }) => self.blank_pending |= blank,
            _ => {}
        }
    }

    /// Finish: exactly one trailing newline, nothing for an empty document, and no closing
    /// thematic break (the rule above a dropped comments or related-stories block separates
    /// nothing) unless the rule is all there is.
    #[cfg(test)]
    pub fn finish(self) -> String {
        self.finish_with(false)
    }

    /// [`Writer::finish`], keeping closing thematic breaks when `keep_closing_rule`. Text
    /// `***` is always escaped, so a last line `***` is a break.
    pub fn finish_with(mut self, keep_closing_rule: bool) -> String {
        self.flush_paragraph();
        loop {
            let body = self.out.get(self.base..).unwrap_or("");
            let t = self.base + body.trim_end().len();
            self.out.truncate(t);
            let body = self.out.get(self.base..).unwrap_or("");
            match body.strip_suffix("***") {
                Some(rest)
                    if !keep_closing_rule && !rest.trim().is_empty() && rest.ends_with('\n') =>
                {
                    let keep = self.base + rest.len();
                    self.out.truncate(keep);
                }
                _ => break,
            }
        }
        if self.out.len() > self.base {
            self.out.push('\n');
        }
        if self.formulas {
            self.out
                .retain(|c| c != char::from(TEX_OPEN) && c != char::from(TEX_CLOSE));
        }
        self.out
    }
}

/// HTML white space (ASCII only: U+00A0 and friends are text).
fn is_html_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// `s.split` at HTML white space, empty pieces included, cut on bytes: a char pattern
/// decodes every character, and this runs over every text node.
fn html_words(s: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    let mut bytes = s.bytes().enumerate();
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        for (i, b) in bytes.by_ref() {
            if is_html_space(b) {
                // White space is ASCII, so both ends are char boundaries.
                let word = s.get(start..i).unwrap_or("");
                start = i + 1;
                return Some(word);
            }
        }
        done = true;
        Some(s.get(start..).unwrap_or(""))
    })
}

/// Whether the prefix at `i` of `n` is written: past the depth cap only the innermost one
/// is, so hostile nesting stays linear in size.
fn writes_at(i: usize, n: usize) -> bool {
    i < MAX_PREFIX_DEPTH || i + 1 == n
}

/// CommonMark lets a list item interrupt a paragraph only if it is not empty (ours never
/// are) and, when ordered, numbered 1.
fn can_interrupt_paragraph(marker: Marker) -> bool {
    !matches!(marker, Marker::Number(n, _) if n != 1)
}

/// CommonMark punctuation, approximated: ASCII punctuation and any other character that is
/// neither alphanumeric nor white space.
fn is_punct(c: char) -> bool {
    c.is_ascii_punctuation() || (!c.is_ascii() && !c.is_alphanumeric() && !c.is_whitespace())
}

/// White space that HTML does not collapse (no-break and other non-ASCII spaces): text, not
/// separation.
fn is_text_space(c: char) -> bool {
    c.is_whitespace() && !c.is_ascii()
}

/// White space at the edge of an emphasis span that must move outside its markers: text
/// white space and the spaces mixed with it (`&nbsp; `).
fn is_edge_space(c: char) -> bool {
    c == ' ' || is_text_space(c)
}

/// A character inside a word: neither white space nor punctuation.
fn is_word(c: char) -> bool {
    !c.is_whitespace() && !is_punct(c)
}

/// Whether a delimiter run between `prev` and `next` is left-flanking, i.e. can open.
fn left_flanking(prev: Option<char>, next: Option<char>) -> bool {
    let Some(next) = next else { return false };
    if next.is_whitespace() {
        return false;
    }
    !is_punct(next) || prev.is_none_or(|p| p.is_whitespace() || is_punct(p))
}

// ---- the final delimiter check ----

/// Most passes of [`settle_delimiters`] over one inline run: each pass removes at least one
/// marker, and one or two settle nearly every paragraph.
const MAX_SETTLE_PASSES: usize = 8;

/// No run: the end of a linked list of [`Run`]s.
const NIL: usize = usize::MAX;

/// A delimiter run (`*`, `_` or `~`) as a CommonMark reader finds it.
#[derive(Debug, Clone, Copy)]
struct Run {
    start: usize,
    len: usize,
    ch: u8,
    can_open: bool,
    can_close: bool,
    /// Delimiters not paired (yet).
    left: usize,
    /// Whether it may be a marker the writer wrote: page text leaves `_` unescaped only
    /// inside words (`snake_case`).
    marker: bool,
    /// Paired, or out of the running: its scope was processed.
    done: bool,
    prev: usize,
    next: usize,
}

/// Remove the emphasis markers in `s` that a CommonMark (GFM) reader would not pair, and
/// would show as literal `*`, `_` or `~`; their text stays. Runs CommonMark's delimiter
/// algorithm (flanking, intraword `_`, the rule of 3, `~~`) over the finished inline run,
/// again after each removal (which can make other runs meet), a bounded number of times.
/// Escaped characters, code spans, autolinks and link destinations hold no markers.
/// `s` starts at `from` in the paragraph `state` describes. If page text may have left `_`
/// inside words unescaped, such an `_` is not taken for a marker; otherwise any `_` is one,
/// and one inside a word (which neither opens nor closes) goes too.
fn settle_delimiters(s: &mut String, state: DelimState, from: usize) {
    let first = state.first.saturating_sub(from).min(s.len());
    if state.loose_text || plainly_paired(s.as_bytes(), first, state.text_underscore) {
        return;
    }
    let (loose, underscore) = prefix_text(s.as_bytes().get(..first).unwrap_or_default());
    if loose {
        return;
    }
    let text_underscore = state.text_underscore || underscore;
    let scratch = &mut Scratch::default();
    for _ in 0..MAX_SETTLE_PASSES {
        scan_runs(s, text_underscore, scratch);
        let runs = &scratch.runs;
        let stray =
            |r: &&Run| r.left > 0 && r.marker && (r.can_open || r.can_close || r.ch == b'_');
        if !runs.iter().any(|r| stray(&r)) {
            return;
        }
        // The buffer keeps its room: the inline buffer is reused for the next paragraph.
        let mut out = String::with_capacity(s.capacity());
        // `s` up to `copied` is in `out`, less the stray delimiters.
        let mut copied = 0;
        for r in runs.iter().filter(stray) {
            out.push_str(s.get(copied..r.start + r.len - r.left).unwrap_or(""));
            copied = r.start + r.len;
            if r.left == r.len {
                guard_join(&mut out, s.get(copied..).unwrap_or(""));
            }
        }
        out.push_str(s.get(copied..).unwrap_or(""));
        *s = out;
    }
}

/// The common case, told cheaply: every delimiter run plainly opens (white space or the
/// start before it and a visible character after, or ASCII punctuation before and a letter
/// or digit after) or plainly closes (the reverse), and they nest like brackets, each closer
/// the same run as its opener (`~~` only for tildes). CommonMark pairs all of those.
/// `text_underscore`: a single `_` inside a word is text. Non-ASCII neighbours, escapes and
/// anything else take the full check. Code spans are skipped; links are not looked at: the
/// writer nests spans and links properly, and a run in a destination that looks paired is
/// text either way (at worst a stray marker outside it is missed, as before the check). Runs
/// start at `from`, the first marker: the text before it holds none.
fn plainly_paired(b: &[u8], from: usize, text_underscore: bool) -> bool {
    // Open runs (character, length); deeper nesting takes the full check.
    let mut stack = [(0u8, 0usize); 8];
    let mut depth = 0;
    let space = |x: Option<&u8>| x.is_none_or(|&x| x == b' ' || x == b'\n');
    let visible = |x: Option<&u8>| x.is_some_and(u8::is_ascii_graphic);
    let word = |x: Option<&u8>| x.is_some_and(u8::is_ascii_alphanumeric);
    let punct = |x: Option<&u8>| x.is_some_and(u8::is_ascii_punctuation);
    let mut i = from;
    while let Some(p) = next_delimiter::<true>(b, i) {
        let c = b.get(p).copied().unwrap_or(b' ');
        let n = run_len(b, p, c);
        let prev = p.checked_sub(1).and_then(|j| b.get(j));
        if c == b'`' {
            // A code span: its content is no markup. Page text never leaves a backtick
            // unescaped; one after a backslash takes the full check.
            if prev == Some(&b'\\') {
                return false;
            }
            match code_span_end(b, p, n, &mut [false; 32]) {
                Some(end) => i = end,
                None => return false,
            }
            continue;
        }
        let next = b.get(p + n);
        if (c == b'~' && n != 2) || prev == Some(&b'\\') {
            return false;
        }
        if (space(prev) && visible(next)) || (punct(prev) && word(next)) {
            let Some(slot) = stack.get_mut(depth) else {
                return false;
            };
            *slot = (c, n);
            depth += 1;
        } else if (visible(prev) && space(next)) || (word(prev) && punct(next)) {
            depth = match depth.checked_sub(1) {
                Some(d) if stack.get(d) == Some(&(c, n)) => d,
                _ => return false,
            };
        } else if !(text_underscore && c == b'_' && n == 1 && word(prev) && word(next)) {
            return false;
        }
        i = p + n;
    }
    depth == 0
}

/// What the text before the first marker tells (see [`Writer::note_text`]): whether it ends
/// a word of only `*` or `~` after white space right before something (the marker, at the
/// end), and whether it holds `_`.
fn prefix_text(b: &[u8]) -> (bool, bool) {
    let (mut loose, mut underscore) = (false, false);
    let mut i = 0;
    while let Some(p) = next_delimiter::<false>(b, i) {
        let c = b.get(p).copied().unwrap_or(b' ');
        i = p + run_len(b, p, c);
        if c == b'_' {
            underscore = true;
            continue;
        }
        let space = |x: Option<&u8>| x.is_none_or(|&x| x == b' ' || x == b'\n');
        let after = b.get(i).is_none_or(|&x| x != b' ' && x != b'\n');
        loose |= space(p.checked_sub(1).and_then(|j| b.get(j))) && after;
    }
    (loose, underscore)
}

/// The first `*`, `_` or `~` (and with `TICKS`, backtick) in `b` from `i`, eight bytes at a
/// time: paragraphs are short, and `memchr3`'s set-up costs more than the search.
fn next_delimiter<const TICKS: bool>(b: &[u8], mut i: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // High bit set in the bytes of `x` equal to `c` (and maybe in bytes above the first such
    // byte, which the lowest set bit never is).
    let equal = |x: u64, c: u8| {
        let y = x ^ (ONES * u64::from(c));
        y.wrapping_sub(ONES) & !y & HIGH
    };
    while let Some(chunk) = b.get(i..i + 8).and_then(|c| <[u8; 8]>::try_from(c).ok()) {
        let x = u64::from_le_bytes(chunk);
        let mut hit = equal(x, b'*') | equal(x, b'_') | equal(x, b'~');
        if TICKS {
            hit |= equal(x, b'`');
        }
        if hit != 0 {
            return Some(i + hit.trailing_zeros() as usize / 8);
        }
        i += 8;
    }
    let tail = b.get(i..)?;
    tail.iter()
        .position(|&c| matches!(c, b'*' | b'_' | b'~') || (TICKS && c == b'`'))
        .map(|k| i + k)
}

/// A marker between `out` and `next` went: escape the last character of `out` if it now
/// forms syntax with what follows (`<` and a tag name, `![`, `](`, `&` and an entity).
fn guard_join(out: &mut String, next: &str) {
    let Some(&last) = out.as_bytes().last() else {
        return;
    };
    let n = next.as_bytes();
    let first = n.first().copied().unwrap_or(b' ');
    let syntax = match last {
        b'<' => first.is_ascii_alphabetic() || matches!(first, b'/' | b'!' | b'?'),
        b'!' => first == b'[',
        b']' => matches!(first, b'(' | b'['),
        b'&' => super::escape::looks_like_entity(n),
        _ => false,
    };
    if syntax && !escaped(out.as_bytes(), out.len() - 1) {
        out.insert(out.len() - 1, '\\');
    }
}

/// The delimiter runs of `s`, paired: each run's `left` is what a reader leaves literal.
/// Three `memchr` searches find the bytes that matter: delimiters, syntax that holds text
/// which is no markup (code spans, autolinks, link destinations), and link text openers (and
/// formulas, whose TeX holds none either).
fn scan_runs(s: &str, text_underscore: bool, scratch: &mut Scratch) {
    let b = s.as_bytes();
    let Scratch { runs, brackets } = scratch;
    runs.clear();
    brackets.clear();
    // Code span openers of this length found no closer: none further on has one either.
    let mut no_closer = [false; 32];
    let find =
        |i: usize, hit: fn(&[u8]) -> Option<usize>| b.get(i..).and_then(hit).map_or(NIL, |k| i + k);
    let delims: fn(&[u8]) -> Option<usize> = |t| memchr::memchr3(b'*', b'_', b'~', t);
    let syntax: fn(&[u8]) -> Option<usize> = |t| memchr::memchr3(b'`', b'<', b']', t);
    let opens: fn(&[u8]) -> Option<usize> = |t| memchr::memchr2(b'[', TEX_OPEN, t);
    let (mut d, mut x, mut o) = (find(0, delims), find(0, syntax), find(0, opens));
    let mut i = 0;
    loop {
        if d < i {
            d = find(i, delims);
        }
        if x < i {
            x = find(i, syntax);
        }
        if o < i {
            o = find(i, opens);
        }
        let p = d.min(x).min(o);
        let Some(&c) = b.get(p) else { break };
        i = p + 1;
        if escaped(b, p) {
            continue;
        }
        match c {
            b'*' | b'_' | b'~' => {
                let n = run_len(b, p, c);
                runs.push(delimiter_run(s, p, n, c, text_underscore));
                i = p + n;
            }
            b'`' => {
                let n = run_len(b, p, c);
                i = code_span_end(b, p, n, &mut no_closer).unwrap_or(p + n);
            }
            b'<' => i = autolink_end(b, p).unwrap_or(i),
            TEX_OPEN => {
                i = b
                    .get(p..)
                    .and_then(|t| memchr::memchr(TEX_CLOSE, t))
                    .map_or(b.len(), |k| p + k + 1);
            }
            b'[' => {
                let image = p > 0 && b.get(p - 1) == Some(&b'!') && !escaped(b, p - 1);
                brackets.push((runs.len(), image));
            }
            _ => {
                // `]`: a link if a `(destination)` follows and a `[` is open.
                let link = match brackets.pop() {
                    Some((lo, image)) if b.get(p + 1) == Some(&b'(') => {
                        destination_end(b, p + 2).map(|end| (lo, image, end))
                    }
                    _ => None,
                };
                if let Some((lo, image, end)) = link {
                    pair_runs(runs.get_mut(lo..).unwrap_or_default());
                    // No links inside links: the brackets open around a link are text. Not
                    // around an image: a link's text may hold one (`[![](a.png) **b**](u)`),
                    // and the link's destination must then be skipped too: read as text,
                    // its `*`, `_` or `~` would go as unpaired markers (`java*script:`).
                    if !image {
                        brackets.clear();
                    }
                    i = end;
                }
            }
        }
    }
    pair_runs(runs);
}

/// Whether the byte at `p` is backslash-escaped (outside code spans, which are skipped).
fn escaped(b: &[u8], p: usize) -> bool {
    b.get(..p)
        .is_some_and(|h| h.iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 1)
}

/// Buffers [`settle_delimiters`] reuses from pass to pass.
#[derive(Debug, Default)]
struct Scratch {
    runs: Vec<Run>,
    /// Runs index at each open `[` (a link's text pairs its delimiters on its own), and
    /// whether it opened an image (`![`).
    brackets: Vec<(usize, bool)>,
}

/// Code, or a link's or image's destination or title, inside a table cell (`cell`), where
/// GFM splits the row at every `|` not escaped before it reads code or links: `|` there is
/// `\|`, which the table's reader turns back into `|` (a URL such as
/// `?family=Roboto|Lato` kept whole).
pub(super) fn cell_pipes(s: &str, cell: bool) -> Cow<'_, str> {
    if cell && s.contains('|') {
        Cow::Owned(s.replace('|', "\\|"))
    } else {
        Cow::Borrowed(s)
    }
}

/// Whether `b` ends in a backslash-escaped backtick (page text) rather than a code span's
/// closing fence: a new code span may follow the first directly, not the second, whose fence
/// it would lengthen. Read as CommonMark does, from the start; past [`MAX_RUN_SCAN`] bytes
/// the answer is no, which costs a space, not a broken span.
pub(crate) fn ends_in_escaped_tick(b: &[u8]) -> bool {
    if b.len() > MAX_RUN_SCAN || b.last() != Some(&b'`') {
        return false;
    }
    let mut no_closer = [false; 32];
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        i = match c {
            b'\\' if i + 2 == b.len() => return true,
            b'\\' => i + 2,
            b'`' => {
                let n = run_len(b, i, b'`');
                code_span_end(b, i, n, &mut no_closer).unwrap_or(i + n)
            }
            _ => i + 1,
        };
    }
    false
}

/// Length of the run of `c` at `i`.
fn run_len(b: &[u8], i: usize, c: u8) -> usize {
    b.get(i..)
        .map_or(0, |t| t.iter().take_while(|&&x| x == c).count())
}

/// The end of the code span whose opening backtick run of `n` starts at `i`, if a closing
/// run of exactly `n` follows.
fn code_span_end(b: &[u8], i: usize, n: usize, no_closer: &mut [bool; 32]) -> Option<usize> {
    if no_closer.get(n).copied() == Some(true) {
        return None;
    }
    let mut j = i + n;
    while let Some(k) = b.get(j..).and_then(|t| memchr::memchr(b'`', t)) {
        let at = j + k;
        let m = run_len(b, at, b'`');
        if m == n {
            return Some(at + m);
        }
        j = at + m;
    }
    if let Some(x) = no_closer.get_mut(n) {
        *x = true;
    }
    None
}

/// The end of the autolink (or tag) opening at `i`: `<` and a letter, up to a `>` before
/// any white space or `<`. Page text never leaves `<` before a letter unescaped.
fn autolink_end(b: &[u8], i: usize) -> Option<usize> {
    let next = *b.get(i + 1)?;
    if !(next.is_ascii_alphabetic() || matches!(next, b'/' | b'!' | b'?')) {
        return None;
    }
    for (k, &c) in b.get(i + 1..)?.iter().enumerate() {
        match c {
            b'>' => return Some(i + 2 + k),
            b' ' | b'\t' | b'\n' | b'<' => return None,
            _ => {}
        }
    }
    None
}

/// The end of a link's `(destination "title")` whose content starts at `i` (after `(`).
fn destination_end(b: &[u8], mut i: usize) -> Option<usize> {
    let skip_ws = |mut i: usize| {
        while b.get(i).is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n')) {
            i += 1;
        }
        i
    };
    let escape = |i: usize| 1 + usize::from(b.get(i + 1).is_some_and(u8::is_ascii_punctuation));
    i = skip_ws(i);
    if b.get(i) == Some(&b'<') {
        i += 1;
        loop {
            match *b.get(i)? {
                b'>' => break i += 1,
                b'\n' | b'<' => return None,
                b'\\' => i += escape(i),
                _ => i += 1,
            }
        }
    } else {
        // The writer's destinations hold no white space, parentheses, backslashes or control
        // characters (they are percent-encoded, or the destination is `<…>`): up to the
        // first of them at once.
        let rest = b.get(i..)?;
        let stop = memchr::memchr3(b')', b' ', b'(', rest).unwrap_or(rest.len());
        let plain = rest
            .get(..stop)
            .is_some_and(|d| memchr::memchr2(b'\\', b'\n', d).is_none());
        if plain && rest.get(stop) != Some(&b'(') {
            i += stop;
        }
        let mut depth = 0usize;
        while let Some(&c) = b.get(i) {
            match c {
                b'\\' => i += escape(i),
                b'(' => {
                    depth += 1;
                    i += 1;
                }
                b')' if depth == 0 => break,
                b')' => {
                    depth -= 1;
                    i += 1;
                }
                c if c <= b' ' || c == 0x7f => break,
                _ => i += 1,
            }
        }
    }
    let gap = i;
    i = skip_ws(i);
    if i > gap {
        if let Some(&q) = b.get(i).filter(|q| matches!(q, b'"' | b'\'' | b'(')) {
            let close = if q == b'(' { b')' } else { q };
            i += 1;
            loop {
                let rest = b.get(i..)?;
                i += memchr::memchr2(close, b'\\', rest)?;
                if b.get(i) == Some(&close) {
                    break i += 1;
                }
                i += escape(i);
            }
            i = skip_ws(i);
        }
    }
    (b.get(i) == Some(&b')')).then_some(i + 1)
}

/// The run of `n` × `c` at `at` in `s`, with what it can do by its neighbours.
fn delimiter_run(s: &str, at: usize, n: usize, c: u8, text_underscore: bool) -> Run {
    let prev = s.get(..at).and_then(|h| h.chars().next_back());
    let next = s.get(at + n..).and_then(|t| t.chars().next());
    let left = left_flanking(prev, next);
    let right = left_flanking(next, prev);
    let (can_open, can_close) = if c == b'_' {
        (
            left && (!right || prev.is_some_and(is_punct)),
            right && (!left || next.is_some_and(is_punct)),
        )
    } else {
        (left, right)
    };
    let wordish = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || !c.is_ascii());
    Run {
        start: at,
        len: n,
        ch: c,
        can_open,
        can_close,
        left: n,
        marker: !(text_underscore && c == b'_' && n == 1 && wordish(prev) && wordish(next)),
        done: false,
        prev: NIL,
        next: NIL,
    }
}

/// CommonMark's "process emphasis" over the runs not yet done (linear: each closer looks
/// back no further than where the last failed search of its kind ended); all are done
/// afterwards. `~~` pairs with `~~` only (GFM strikethrough), other tilde runs with nothing.
fn pair_runs(runs: &mut [Run]) {
    if runs.iter().all(|r| r.done) {
        return;
    }
    let mut first = NIL;
    let mut last = NIL;
    for k in 0..runs.len() {
        let Some(r) = runs.get_mut(k).filter(|r| !r.done) else {
            continue;
        };
        r.prev = last;
        r.next = NIL;
        match runs.get_mut(last) {
            Some(p) => p.next = k,
            None => first = k,
        }
        last = k;
    }
    // Lowest opener index to search, by closer character, whether it can open, length % 3.
    let mut bottom = [[[0usize; 3]; 2]; 3];
    let mut closer = first;
    while let Some(&c) = runs.get(closer) {
        if !c.can_close {
            closer = c.next;
            continue;
        }
        let kind = match c.ch {
            b'*' => 0,
            b'_' => 1,
            _ => 2,
        };
        let floor = bottom
            .get(kind)
            .and_then(|b| b.get(usize::from(c.can_open)))
            .and_then(|b| b.get(c.len % 3))
            .copied()
            .unwrap_or(0);
        let mut o = c.prev;
        let mut found = NIL;
        while o != NIL && o >= floor {
            let Some(&r) = runs.get(o) else { break };
            let pairs = r.ch == c.ch
                && r.can_open
                && if c.ch == b'~' {
                    r.len == 2 && c.len == 2
                } else {
                    !((c.can_open || r.can_close)
                        && (r.len + c.len) % 3 == 0
                        && !(r.len % 3 == 0 && c.len % 3 == 0))
                };
            if pairs {
                found = o;
                break;
            }
            o = r.prev;
        }
        if found == NIL {
            if let Some(b) = bottom
                .get_mut(kind)
                .and_then(|b| b.get_mut(usize::from(c.can_open)))
                .and_then(|b| b.get_mut(c.len % 3))
            {
                *b = if c.prev == NIL { 0 } else { c.prev + 1 };
            }
            let next = c.next;
            if !c.can_open {
                unlink(runs, closer);
            }
            closer = next;
            continue;
        }
        let opener_left = runs.get(found).map_or(0, |r| r.left);
        let used = if c.ch == b'~' {
            c.len
        } else if opener_left >= 2 && c.left >= 2 {
            2
        } else {
            1
        };
        // The runs between them are out of the running: what is left of them is text.
        let mut k = runs.get(found).map_or(NIL, |r| r.next);
        while k != closer {
            let Some(r) = runs.get_mut(k) else { break };
            r.done = true;
            k = r.next;
        }
        if let Some(r) = runs.get_mut(found) {
            r.next = closer;
            r.left -= used.min(r.left);
        }
        if let Some(r) = runs.get_mut(closer) {
            r.prev = found;
            r.left -= used.min(r.left);
        }
        if runs.get(found).is_some_and(|r| r.left == 0) {
            unlink(runs, found);
        }
        if let Some(r) = runs.get(closer).filter(|r| r.left == 0) {
            let next = r.next;
            unlink(runs, closer);
            closer = next;
        }
    }
    for r in runs.iter_mut() {
        r.done = true;
    }
}

/// Take run `k` out of the linked list (it is done).
fn unlink(runs: &mut [Run], k: usize) {
    let Some(&r) = runs.get(k) else { return };
    if let Some(p) = runs.get_mut(r.prev) {
        p.next = r.next;
    }
    if let Some(n) = runs.get_mut(r.next) {
        n.prev = r.prev;
    }
    if let Some(x) = runs.get_mut(k) {
        x.done = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_text_in_pieces_matches_word_by_word() {
        let texts = [
            "",
            " ",
            "a",
            " a ",
            "a  b",
            "a b c",
            "a\tb",
            "\n  x y\n",
            "x|y z",
            "ä\u{a0}b  c ",
            "a\r\nb",
        ];
        for s in texts {
            for prefix in ["", "x", "x ", "**"] {
                for (space, table) in [(Space::None, 0), (Space::Pending, 0), (Space::None, 1)] {
                    let run = |words: bool| {
                        let mut w = Writer::with_capacity(16);
                        if prefix == "**" {
                            w.open_marker("**");
                        } else {
                            w.inline.push_str(prefix);
                        }
                        w.space = space;
                        w.in_table = table;
                        if words {
                            w.raw_words(s);
                        } else {
                            w.raw_text(s);
                        }
                        (w.inline, w.space)
                    };
                    assert_eq!(run(false), run(true), "{s:?} after {prefix:?}, {space:?}");
                }
            }
        }
    }

    #[test]
    fn html_words_split_like_str_split() {
        for s in [
            "",
            " ",
            "a",
            " a ",
            "a  b",
            "\tä\u{a0}b\r\nc\x0c",
            "日本 語",
            "x\n",
        ] {
            let want: Vec<&str> = s.split([' ', '\t', '\n', '\r', '\x0c']).collect();
            assert_eq!(html_words(s).collect::<Vec<_>>(), want, "{s:?}");
        }
    }

    #[test]
    fn paragraphs_are_separated_by_one_blank_line() {
        let mut w = Writer::with_capacity(64);
        w.text("  Hello \n  world ");
        w.end_block();
        w.begin_block(false);
        w.text("Second");
        assert_eq!(w.finish(), "Hello world\n\nSecond\n");
    }

    #[test]
    fn markers_hug_their_content() {
        let mut w = Writer::with_capacity(64);
        w.text("a ");
        let at = w.open_marker("**");
        w.text(" bold ");
        w.close_marker(at, 2, "**");
        w.text("b");
        assert_eq!(w.finish(), "a **bold** b\n");
    }

    #[test]
    fn empty_spans_vanish() {
        let mut w = Writer::with_capacity(64);
        w.text("a");
        let at = w.open_marker("_");
        w.text("   ");
        assert!(!w.close_marker(at, 1, "_"));
        w.text(" b");
        assert_eq!(w.finish(), "a b\n");
    }

    #[test]
    fn list_items_and_quotes_prefix_every_line() {
        let mut w = Writer::with_capacity(64);
        w.begin_block(true);
        w.push_item(Marker::Bullet("- "), true);
        w.text("one");
        w.hard_break();
        w.text("two");
        w.end_block();
        w.begin_block(false);
        w.push_quote();
        w.text("quoted");
        w.end_block();
        w.pop_prefix();
        w.pop_prefix();
        assert_eq!(w.finish(), "- one\\\n  two\n  > quoted\n");
    }

    #[test]
    fn space_at_span_edges_moves_outside() {
        let mut w = Writer::with_capacity(64);
        w.text("one");
        let at = w.open_marker("**");
        w.text(" two ");
        w.close_marker(at, 2, "**");
        w.text("three");
        assert_eq!(w.finish(), "one **two** three\n");
    }

    #[test]
    fn unreadable_emphasis_is_left_out() {
        let mut w = Writer::with_capacity(64);
        w.text("snake");
        let at = w.open_marker("**");
        w.text("_case");
        assert!(!w.close_marker(at, 2, "**"));
        w.text(" and ");
        let at = w.open_marker("**");
        w.text("Note:");
        assert!(w.close_marker(at, 2, "**"));
        w.text("text");
        assert_eq!(w.finish(), "snake\\_case and Note:text\n");
    }

    #[test]
    fn adjacent_spans_merge() {
        let mut w = Writer::with_capacity(64);
        let at = w.open_marker("**");
        w.text("x");
        w.close_marker(at, 2, "**");
        let again = w.reopen("**").expect("reopened");
        w.text("y");
        w.close_marker(again, 2, "**");
        assert_eq!(w.finish(), "**xy**\n");
    }

    /// [`settle_delimiters`] on `s`.
    fn settled(s: &str, text_underscore: bool) -> String {
        let mut s = s.to_string();
        let state = DelimState {
            markers: true,
            text_underscore,
            ..DelimState::default()
        };
        settle_delimiters(&mut s, state, 0);
        s
    }

    #[test]
    fn unpaired_delimiters_go_and_paired_ones_stay() {
        // A closer after punctuation before a word cannot close.
        assert_eq!(settled("x**d f.**y", false), "xd f.y");
        // Adjacent spans whose runs merged: the run of two pairs with neither.
        assert_eq!(settled("*(e)a**a*y", false), "*(e)aa*y");
        // `~~~~` is no strikethrough delimiter; the spans around it are one.
        assert_eq!(settled("~~a~~~~b~~", false), "~~ab~~");
        // A delimiter inside link text pairs with none outside it (the writer nests spans
        // and links properly, so only the full check, here for the `é`, looks at links).
        assert_eq!(settled("[**a](u) é**", false), "[a](u) é");
        for fine in ["**a** _b_ ~~c~~", "***a***", "*a **b** c*", "**Note:** x"] {
            assert_eq!(settled(fine, false), fine);
        }
    }

    #[test]
    fn the_check_leaves_code_links_escapes_and_page_underscores() {
        assert_eq!(
            settled(
                "`*a` <https://x.org/~_a> [t](https://x.org/_a_ \"t_*\") \\*a **b",
                false
            ),
            "`*a` <https://x.org/~_a> [t](https://x.org/_a_ \"t_*\") \\*a b"
        );
        // `_` inside a word is page text when the page had any `_`, else a marker.
        assert_eq!(settled("snake_case **b", true), "snake_case b");
        assert_eq!(settled("x_a", false), "xa");
        // A lone `*` between spaces neither opens nor closes: page text.
        assert_eq!(settled("a * b **c", false), "a * b c");
    }

    #[test]
    fn a_removed_marker_does_not_make_syntax_of_its_neighbours() {
        assert_eq!(settled("<**b", false), "\\<b");
        assert_eq!(settled("!**[a](u)", false), "\\![a](u)");
        assert_eq!(settled("&**amp;", false), "\\&amp;");
    }

    #[test]
    fn line_start_syntax_is_escaped() {
        let mut w = Writer::with_capacity(64);
        w.text("1. not a list");
        w.hard_break();
        w.text("# not a heading");
        assert_eq!(w.finish(), "1\\. not a list\\\n\\# not a heading\n");
    }
}
