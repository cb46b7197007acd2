//! A fast HTML tokenizer that feeds html5ever's tree builder the tokens html5ever 0.40's own
//! `Tokenizer` would.
//!
//! html5ever's tokenizer takes one `char` at a time out of a `BufferQueue` and grows tag names,
//! attribute names and values with a `push_char` each; on documentation pages that was 44 % of
//! a whole conversion. This one sees the whole document as bytes: text runs, attribute values
//! and comments are found with `memchr` and handed out as zero-copy sub-tendrils of one shared
//! tendril, and new strings are built only where characters change (character references, CR,
//! NUL). Everything between markup and the next markup is decided from the bytes in one go
//! (a comment's end, a script's end tag) instead of state by state.
//!
//! The behaviour is html5ever's, which is the WHATWG tokenizer plus a few quirks that are kept
//! here on purpose because they change the tree (each is commented where it is done). Character
//! tokens may be split differently (the tree builder joins them) and parse errors are reported
//! only where html5ever's would reach the tree builder between a start tag and a line feed it
//! drops (the `<pre>`/`<textarea>` rule). `tests.rs` holds both to the same token stream and
//! the same tree.

mod atoms;
mod charref;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::mem;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::{RawKind, ScriptEscapeKind};
use html5ever::tokenizer::{Doctype, Tag, TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::{ns, Attribute, LocalName, QualName};
use memchr::{memchr, memchr2, memmem};

use charref::CharRef;

/// [`tokenize_with`] and a pool of its own.
#[cfg(test)]
pub(crate) fn tokenize<S: TokenSink>(input: &str, sink: &S) {
    tokenize_with(input, sink, &AttrPool::default());
}

/// Tokenize `input` into `sink`, then call `sink.end()`; a drop-in for html5ever's
/// `Tokenizer::feed` loop (continuing after `Script` and `EncodingIndicator`) plus `end`.
/// Tags take their attribute vectors from `pool`, which the sink may refill.
///
/// Inputs beyond 4 GiB (which a tendril cannot hold, and which html5ever rejects by panicking)
/// are cut at the last character boundary before that.
pub(crate) fn tokenize_with<S: TokenSink>(input: &str, sink: &S, pool: &AttrPool) {
    tokenize_until(input, sink, pool, &Cell::new(false));
}

/// [`tokenize_with`], except that once `stop` is set (by the sink, which has given up on the
/// page) no further token is passed on, not even the end of input, and `sink.end()` is not
/// called. The flag is looked at after each tag.
pub(crate) fn tokenize_until<S: TokenSink>(
    input: &str,
    sink: &S,
    pool: &AttrPool,
    stop: &Cell<bool>,
) {
    let mut end = input.len().min(u32::MAX as usize);
    while !input.is_char_boundary(end) {
        end -= 1;
    }
    let text = input.get(..end).unwrap_or_default();
    let mut lexer = Lexer {
        src: Src {
            text,
            bytes: text.as_bytes(),
            base: StrTendril::from_slice(text),
        },
        sink,
        pos: 0,
        mode: Mode::Data,
        last_start: None,
        pending: Buf::Empty,
        after_start_tag: false,
        special: Cursor::new(text.as_bytes()),
        names: Names::new(),
        seen: HashSet::new(),
        pool,
        stop,
    };
    if lexer.run() {
        sink.end();
    }
}

/// Attribute vectors the tree builder is done with, for the lexer to fill again: a page then
/// allocates a few of them instead of one per tag with attributes.
#[derive(Default)]
pub(crate) struct AttrPool(RefCell<Vec<Vec<Attribute>>>);

impl AttrPool {
    /// Vectors kept at most (html5ever holds on to few tags at a time).
    const KEEP: usize = 8;

    fn take(&self) -> Vec<Attribute> {
        self.0.borrow_mut().pop().unwrap_or_default()
    }

    /// Hand back a tag's attributes once they are stored elsewhere.
    pub(crate) fn give(&self, mut attrs: Vec<Attribute>) {
        if attrs.capacity() == 0 {
            return;
        }
        attrs.clear();
        let mut pool = self.0.borrow_mut();
        if pool.len() < Self::KEEP {
            pool.push(attrs);
        }
    }
}

/// The states in which the tokenizer reads text (every other state lives inside one call).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Data,
    Rcdata,
    Rawtext,
    Script(Escape),
    Plaintext,
}

/// Script data, script data escaped (`<!--` seen) and double escaped (`<!--<script>` seen).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Escape {
    No,
    Escaped,
    Double,
}

/// What a `<` in the data state turned out to be.
enum Flow {
    /// Text, a comment or a doctype, or a tag cut off by the end of input: stay in the mode.
    Text,
    /// A tag went to the sink, which may have changed the mode.
    Tag,
}

/// The input three ways: as text, as bytes, and as the tendril that text tokens share.
struct Src<'a> {
    text: &'a str,
    bytes: &'a [u8],
    base: StrTendril,
}

impl Src<'_> {
    /// `text[a..b]` as a tendril sharing the input's buffer.
    fn sub(&self, a: usize, b: usize) -> StrTendril {
        let len = b.saturating_sub(a);
        if len <= 8 {
            // Tendrils this short are stored inline anyway.
            return self
                .text
                .get(a..b)
                .map_or_else(StrTendril::new, StrTendril::from_slice);
        }
        // `try_subtendril` checks bounds and character boundaries (what `str::get` would; the
        // checks cost ~2 % of parsing and keep the crate free of `unsafe`): a range it refuses
        // is not text of the input.
        match (u32::try_from(a), u32::try_from(len)) {
            (Ok(offset), Ok(len)) => self
                .base
                .try_subtendril(offset, len)
                .unwrap_or_else(|_| StrTendril::new()),
            _ => StrTendril::new(),
        }
    }
}

/// A string under construction: nothing, a range of the input, or a new tendril once
/// characters had to change.
#[derive(Default)]
enum Buf {
    #[default]
    Empty,
    Range(usize, usize),
    Owned(StrTendril),
}

impl Buf {
    fn is_empty(&self) -> bool {
        match self {
            Buf::Empty => true,
            Buf::Range(a, b) => a == b,
            Buf::Owned(t) => t.is_empty(),
        }
    }

    /// Append input bytes `a..b` (character boundaries) verbatim.
    fn push_range(&mut self, src: &Src, a: usize, b: usize) {
        if a >= b {
            return;
        }
        match self {
            Buf::Empty => *self = Buf::Range(a, b),
            Buf::Range(_, e) if *e == a => *e = b,
            Buf::Range(s, e) => {
                let mut t = src.sub(*s, *e);
                t.push_slice(src.text.get(a..b).unwrap_or_default());
                *self = Buf::Owned(t);
            }
            Buf::Owned(t) => t.push_slice(src.text.get(a..b).unwrap_or_default()),
        }
    }

    fn push_char(&mut self, src: &Src, c: char) {
        if let Buf::Owned(t) = self {
            t.push_char(c);
        } else {
            let mut t = mem::take(self).finish(src);
            t.push_char(c);
            *self = Buf::Owned(t);
        }
    }

    fn finish(self, src: &Src) -> StrTendril {
        match self {
            Buf::Empty => StrTendril::new(),
            Buf::Range(a, b) => src.sub(a, b),
            Buf::Owned(t) => t,
        }
    }
}

/// The next `\r` or NUL at or after a position: the only bytes that change on their way into
/// a token, so every run before them can be shared as is. Amortised linear while the
/// positions asked about only grow, which they do.
struct Cursor {
    /// `at` is the first special byte at or after `from` (or the input length).
    from: usize,
    at: usize,
}

impl Cursor {
    fn new(bytes: &[u8]) -> Cursor {
        let mut cursor = Cursor { from: 0, at: 0 };
        cursor.seek(bytes, 0);
        cursor
    }

    fn seek(&mut self, bytes: &[u8], pos: usize) {
        self.from = pos;
        self.at = bytes
            .get(pos..)
            .and_then(|rest| memchr2(b'\r', 0, rest))
            .map_or(bytes.len(), |i| pos + i);
    }

    fn next(&mut self, bytes: &[u8], pos: usize) -> usize {
        if pos < self.from || pos > self.at {
            self.seek(bytes, pos);
        }
        self.at
    }
}

/// The line number passed with every token. html5ever's tree builder only hands it to the
/// sink's `set_current_line` (ours ignores it) and to exact error messages (off), so lines
/// are not counted.
const LINE: u64 = 1;

/// Recently made names, so that a repeated tag or attribute name is not hashed into the atom
/// table again (`LocalName::from` is a SipHash and a table probe).
struct Names {
    slots: Vec<Slot>,
    /// Names made without the table so far (see [`Names::get`]).
    uncached: u8,
}

#[derive(Default)]
struct Slot {
    len: u8,
    bytes: [u8; NAME_SLOT],
    name: Option<LocalName>,
}

const NAME_SLOT: usize = 22;
const NAME_SLOTS: usize = 256;
/// Names made before the table is: most pages use only names [`atoms`] knows and a handful of
/// others, for which making the 8 KB table costs more than it saves.
const UNCACHED: u8 = 8;

impl Names {
    fn new() -> Names {
        Names {
            slots: Vec::new(),
            uncached: 0,
        }
    }

    fn get(&mut self, raw: &str) -> LocalName {
        if self.slots.is_empty() {
            if self.uncached < UNCACHED {
                self.uncached += 1;
                return LocalName::from(raw);
            }
            self.slots = std::iter::repeat_with(Slot::default)
                .take(NAME_SLOTS)
                .collect();
        }
        let b = raw.as_bytes();
        let len = b.len();
        let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
            return LocalName::from(raw);
        };
        if len > NAME_SLOT {
            return LocalName::from(raw);
        }
        let mid = b.get(len / 2).copied().unwrap_or(0);
        let hash = (len * 61)
            ^ (usize::from(first) * 7)
            ^ (usize::from(last) << 3)
            ^ (usize::from(mid) * 31);
        let Some(slot) = self.slots.get_mut(hash % NAME_SLOTS) else {
            return LocalName::from(raw);
        };
        if usize::from(slot.len) == len && slot.bytes.get(..len) == Some(b) {
            if let Some(name) = &slot.name {
                return name.clone();
            }
        }
        let name = LocalName::from(raw);
        slot.len = len as u8;
        if let Some(dst) = slot.bytes.get_mut(..len) {
            dst.copy_from_slice(b);
        }
        slot.name = Some(name.clone());
        name
    }
}

// Byte classes.
const WS: u8 = 1; // \t \n \x0C \r space
const TAG_END: u8 = 2; // WS / >
const NAME_END: u8 = 4; // WS / > =
const UNQUOTED_END: u8 = 8; // WS > & NUL
const FIX_NAME: u8 = 16; // A-Z NUL: a name that must be rewritten

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let ws = [b'\t', b'\n', 0x0C, b'\r', b' '];
    let mut i = 0;
    while i < ws.len() {
        t[ws[i] as usize] = WS | TAG_END | NAME_END | UNQUOTED_END;
        i += 1;
    }
    t[b'/' as usize] = TAG_END | NAME_END;
    t[b'>' as usize] = TAG_END | NAME_END | UNQUOTED_END;
    t[b'=' as usize] = NAME_END;
    t[b'&' as usize] = UNQUOTED_END;
    t[0] = UNQUOTED_END | FIX_NAME;
    let mut c = b'A';
    while c <= b'Z' {
        t[c as usize] = FIX_NAME;
        c += 1;
    }
    t
};

fn class(b: u8) -> u8 {
    CLASS[usize::from(b)]
}

fn is_ws(b: Option<&u8>) -> bool {
    b.is_some_and(|&b| class(b) & WS != 0)
}

struct Lexer<'a, S> {
    src: Src<'a>,
    sink: &'a S,
    pos: usize,
    mode: Mode,
    /// Name of the last start tag emitted, for "appropriate end tag" in raw text.
    last_start: Option<LocalName>,
    /// Text not yet emitted (tokens are joined until markup or a NUL interrupts them).
    pending: Buf,
    /// The last token emitted was a start tag (see `error`).
    after_start_tag: bool,
    special: Cursor,
    /// Attribute names of the current tag once it has many (duplicate check).
    seen: HashSet<LocalName>,
    names: Names,
    pool: &'a AttrPool,
    /// See [`tokenize_until`].
    stop: &'a Cell<bool>,
}

impl<S: TokenSink> Lexer<'_, S> {
    /// Tokenize to the end; `false` if the sink asked to stop first.
    fn run(&mut self) -> bool {
        self.skip_bom();
        loop {
            let more = match self.mode {
                Mode::Data => self.data(),
                Mode::Rcdata => self.rcdata(),
                Mode::Rawtext => self.rawtext(),
                Mode::Script(escape) => self.script(escape),
                Mode::Plaintext => self.plaintext(),
            };
            if self.stop.get() {
                return false;
            }
            if !more {
                break;
            }
        }
        self.flush();
        self.emit(Token::EOFToken);
        !self.stop.get()
    }

    /// html5ever drops a U+FEFF at the start of every `feed`, and the driving loop feeds again
    /// after each `Script` and `EncodingIndicator` pause.
    fn skip_bom(&mut self) {
        if self.src.bytes.get(self.pos..self.pos + 3) == Some("\u{FEFF}".as_bytes()) {
            self.pos += 3;
        }
    }

    fn emit(&mut self, token: Token) {
        // Only tags can ask for anything but `Continue` (html5ever asserts the same).
        let _ = self.sink.process_token(token, LINE);
        self.after_start_tag = false;
    }

    fn flush(&mut self) {
        if !self.pending.is_empty() {
            let text = mem::take(&mut self.pending).finish(&self.src);
            self.emit(Token::CharacterTokens(text));
        }
    }

    /// A parse error in a text state. The tree builder forgets "drop the next LF" (after
    /// `<pre>`, `<listing>`, `<textarea>`) on any token, html5ever's `ParseError` included, so
    /// an error between such a start tag and the text is passed on; all others are not.
    fn error(&mut self) {
        if self.after_start_tag && self.pending.is_empty() {
            self.emit(Token::ParseError(Cow::Borrowed("Parse error")));
        }
    }

    fn byte(&self, i: usize) -> Option<u8> {
        self.src.bytes.get(i).copied()
    }

    /// The first position from `from` holding `a`, `b`, a CR or a NUL (the input length if
    /// none): text before it is copied as is.
    fn next_stop(&mut self, from: usize, a: u8, b: u8) -> usize {
        let special = self.special.next(self.src.bytes, from);
        self.src
            .bytes
            .get(from..special)
            .and_then(|run| memchr2(a, b, run))
            .map_or(special, |k| from + k)
    }

    /// [`Lexer::next_stop`] for text in the data and RCDATA states. Nearly half the text
    /// runs between markup on real pages are empty (`</a></li>`) and a fifth are a single line
    /// feed: the first bytes are looked at directly, before paying for a `memchr` call.
    fn text_stop(&mut self, from: usize) -> usize {
        const DIRECT: usize = 4;
        let bytes = self.src.bytes;
        let head = bytes.get(from..).unwrap_or_default();
        for (k, &b) in head.iter().take(DIRECT).enumerate() {
            if matches!(b, b'<' | b'&' | b'\r' | 0) {
                return from + k;
            }
        }
        if head.len() <= DIRECT {
            return bytes.len();
        }
        self.next_stop(from + DIRECT, b'<', b'&')
    }

    /// Append input `a..b` to `buf` with CR and CRLF as LF and NUL as U+FFFD.
    fn push_text(&mut self, buf: &mut Buf, a: usize, b: usize) {
        let mut a = a;
        loop {
            let special = self.special.next(self.src.bytes, a);
            if special >= b {
                buf.push_range(&self.src, a, b);
                return;
            }
            buf.push_range(&self.src, a, special);
            a = self.newline_or_nul(buf, special);
        }
    }

    /// At a `\r` or NUL in text: append its replacement and return the position after it.
    fn newline_or_nul(&mut self, buf: &mut Buf, at: usize) -> usize {
        if self.byte(at) == Some(b'\r') {
            buf.push_char(&self.src, '\n');
            if self.byte(at + 1) == Some(b'\n') {
                at + 2
            } else {
                at + 1
            }
        } else {
            buf.push_char(&self.src, '\u{FFFD}');
            at + 1
        }
    }

    /// A text token (or comment body) for input `a..b`, normalised.
    fn text(&mut self, a: usize, b: usize) -> StrTendril {
        let mut buf = Buf::Empty;
        self.push_text(&mut buf, a, b);
        buf.finish(&self.src)
    }

    // ---- Data state -------------------------------------------------------------------------

    fn data(&mut self) -> bool {
        loop {
            let start = self.pos;
            let hit = self.text_stop(start);
            self.pending.push_range(&self.src, start, hit);
            self.pos = hit;
            match self.byte(hit) {
                None => return false,
                Some(b'<') => {
                    if let Flow::Tag = self.markup() {
                        return true;
                    }
                }
                Some(b'&') => self.text_char_ref(),
                Some(b'\r') => {
                    let mut pending = mem::take(&mut self.pending);
                    self.pos = self.newline_or_nul(&mut pending, hit);
                    self.pending = pending;
                }
                Some(_) => {
                    // NUL: html5ever passes it as its own token in the data state.
                    self.flush();
                    self.pos = hit + 1;
                    self.emit(Token::NullCharacterToken);
                }
            }
        }
    }

    /// `&` in the data or RCDATA state, at `self.pos`.
    fn text_char_ref(&mut self) {
        let amp = self.pos;
        match charref::parse(self.src.text, amp + 1, false) {
            CharRef::Literal => {
                let mut pending = mem::take(&mut self.pending);
                pending.push_range(&self.src, amp, amp + 1);
                self.pending = pending;
                self.pos = amp + 1;
            }
            CharRef::Chars {
                len,
                first,
                second,
                error,
            } => {
                if error {
                    self.error();
                }
                let mut pending = mem::take(&mut self.pending);
                pending.push_char(&self.src, first);
                if let Some(c) = second {
                    pending.push_char(&self.src, c);
                }
                self.pending = pending;
                self.pos = amp + 1 + len;
            }
        }
    }

    /// `<` in the data state, at `self.pos`.
    fn markup(&mut self) -> Flow {
        let lt = self.pos;
        match self.byte(lt + 1) {
            Some(b'!') => self.declaration(lt + 2),
            Some(b'/') => match self.byte(lt + 2) {
                Some(c) if c.is_ascii_alphabetic() => self.tag(TagKind::EndTag, lt + 2),
                Some(b'>') => {
                    // `</>` is dropped, with a parse error.
                    self.error();
                    self.pos = lt + 3;
                    Flow::Text
                }
                Some(_) => self.bogus_comment(lt + 2),
                None => self.literal(lt, lt + 2),
            },
            Some(c) if c.is_ascii_alphabetic() => self.tag(TagKind::StartTag, lt + 1),
            // The `?` is part of the comment.
            Some(b'?') => self.bogus_comment(lt + 1),
            _ => self.literal(lt, lt + 1),
        }
    }

    /// Input `a..b` is text after all.
    fn literal(&mut self, a: usize, b: usize) -> Flow {
        let mut pending = mem::take(&mut self.pending);
        pending.push_range(&self.src, a, b);
        self.pending = pending;
        self.pos = b;
        Flow::Text
    }

    /// After `<!` (markup declaration open).
    fn declaration(&mut self, at: usize) -> Flow {
        let rest = self.src.bytes.get(at..).unwrap_or_default();
        if rest.starts_with(b"--") {
            self.comment(at + 2);
        } else if rest
            .get(..7)
            .is_some_and(|w| w.eq_ignore_ascii_case(b"doctype"))
        {
            self.doctype(at + 7);
        } else if rest.starts_with(b"[CDATA[")
            && self
                .sink
                .adjusted_current_node_present_but_not_in_html_namespace()
        {
            self.cdata(at + 7);
        } else {
            return self.bogus_comment(at);
        }
        Flow::Text
    }

    /// A bogus comment whose data starts at `at` and runs to the next `>`.
    fn bogus_comment(&mut self, at: usize) -> Flow {
        let end = self
            .src
            .bytes
            .get(at..)
            .and_then(|rest| memchr(b'>', rest))
            .map_or(self.src.bytes.len(), |i| at + i);
        let data = self.text(at, end);
        self.flush();
        self.pos = (end + 1).min(self.src.bytes.len());
        self.emit(Token::CommentToken(data));
        Flow::Text
    }

    /// A comment whose data starts at `start` (after `<!--`).
    fn comment(&mut self, start: usize) {
        let (data_end, resume) = comment_end(self.src.bytes, start);
        let data = self.text(start, data_end);
        self.flush();
        self.pos = resume;
        self.emit(Token::CommentToken(data));
    }

    /// A CDATA section whose data starts at `start` (foreign content only).
    fn cdata(&mut self, start: usize) {
        let len = self.src.bytes.len();
        let (end, resume) = self
            .src
            .bytes
            .get(start..)
            .and_then(|rest| memmem::find(rest, b"]]>"))
            .map_or((len, len), |i| (start + i, start + i + 3));
        self.flush();
        // html5ever collects the section and emits it at each NUL and at the end, even when
        // empty (an empty token still makes the tree builder forget a pending LF drop).
        let mut from = start;
        while let Some(nul) = self
            .src
            .bytes
            .get(from..end)
            .and_then(|run| memchr(0, run))
            .map(|i| from + i)
        {
            let part = self.text(from, nul);
            self.pos = nul + 1;
            self.emit(Token::CharacterTokens(part));
            self.emit(Token::NullCharacterToken);
            from = nul + 1;
        }
        let part = self.text(from, end);
        self.pos = resume;
        self.emit(Token::CharacterTokens(part));
    }

    // ---- Tags -------------------------------------------------------------------------------

    /// A start or end tag whose name starts at `name_start` (an ASCII letter).
    fn tag(&mut self, kind: TagKind, name_start: usize) -> Flow {
        let bytes = self.src.bytes;
        if let Some((name, end)) =
            atoms::HOT_TAGS.at(bytes, name_start, |b| class(b) & TAG_END != 0)
        {
            return self.tag_body(kind, name, end);
        }
        let mut end = name_start;
        let mut fix = false;
        while let Some(&b) = bytes.get(end) {
            let c = class(b);
            if c & TAG_END != 0 {
                break;
            }
            fix |= c & FIX_NAME != 0;
            end += 1;
        }
        if end >= bytes.len() {
            // End of input inside the tag name: the tag is dropped.
            self.pos = bytes.len();
            return Flow::Text;
        }
        let name = self.name(name_start, end, fix);
        self.tag_body(kind, name, end)
    }

    /// A tag or attribute name from input `a..b`: ASCII lowercased, NUL as U+FFFD.
    #[inline(never)]
    fn name(&mut self, a: usize, b: usize, fix: bool) -> LocalName {
        // Nearly every name is a known one that needs no rewriting (see `atoms`).
        if !fix {
            if let Some(known) = atoms::known_in(self.src.bytes, a, b) {
                return known;
            }
        }
        self.other_name(a, b, fix)
    }

    /// [`Lexer::name`] for the rest: the cache of recent names, or a rewritten name.
    #[cold]
    #[inline(never)]
    fn other_name(&mut self, a: usize, b: usize, fix: bool) -> LocalName {
        let raw = self.src.text.get(a..b).unwrap_or_default();
        if !fix {
            return self.names.get(raw);
        }
        let fixed: String = raw
            .chars()
            .map(|c| match c {
                '\0' => '\u{FFFD}',
                c => c.to_ascii_lowercase(),
            })
            .collect();
        LocalName::from(fixed)
    }

    /// The rest of a tag from `i`, just after its name: attributes, `/`, `>`.
    fn tag_body(&mut self, kind: TagKind, name: LocalName, mut i: usize) -> Flow {
        let bytes = self.src.bytes;
        let mut attrs: Vec<Attribute> = Vec::new();
        let mut duplicate = false;
        let mut self_closing = false;
        let mut count = 0usize;
        if !self.seen.is_empty() {
            self.seen.clear();
        }
        loop {
            // Before attribute name.
            let Some(b) = self.byte(i) else {
                return self.eof_in_tag();
            };
            match b {
                b'>' => {
                    i += 1;
                    break;
                }
                b'/' => match self.byte(i + 1) {
                    Some(b'>') => {
                        self_closing = true;
                        i += 2;
                        break;
                    }
                    None => return self.eof_in_tag(),
                    // A stray `/`: the next character is looked at again.
                    Some(_) => {
                        i += 1;
                        continue;
                    }
                },
                b if class(b) & WS != 0 => {
                    i += 1;
                    continue;
                }
                _ => {}
            }
            // Attribute name: its first character may be anything else, `=` included.
            let attr_name = match atoms::HOT_ATTRIBUTES.at(bytes, i, |b| class(b) & NAME_END != 0) {
                Some((name, end)) => {
                    i = end;
                    name
                }
                None => {
                    let name_start = i;
                    let mut fix = class(b) & FIX_NAME != 0;
                    i += 1;
                    while let Some(&b) = bytes.get(i) {
                        let c = class(b);
                        if c & NAME_END != 0 {
                            break;
                        }
                        fix |= c & FIX_NAME != 0;
                        i += 1;
                    }
                    self.name(name_start, i, fix)
                }
            };
            while is_ws(bytes.get(i)) {
                i += 1;
            }
            let mut value = StrTendril::new();
            match self.byte(i) {
                None => return self.eof_in_tag(),
                Some(b'=') => {
                    i += 1;
                    while is_ws(bytes.get(i)) {
                        i += 1;
                    }
                    match self.byte(i) {
                        None => return self.eof_in_tag(),
                        Some(q @ (b'"' | b'\'')) => {
                            let Some((v, next)) = self.quoted_value(i + 1, q) else {
                                return self.eof_in_tag();
                            };
                            value = v;
                            i = next;
                        }
                        // `<a b=>`: an empty value, and the `>` ends the tag below.
                        Some(b'>') => {}
                        Some(_) => {
                            let Some((v, next)) = self.unquoted_value(i) else {
                                return self.eof_in_tag();
                            };
                            value = v;
                            i = next;
                        }
                    }
                }
                Some(_) => {}
            }
            // Beyond the cap, attributes are read (so the tag ends where it should) and dropped.
            count += 1;
            if count <= crate::depth::MAX_ATTRIBUTES {
                self.add_attr(&mut attrs, &mut duplicate, attr_name, value);
            }
        }
        self.pos = i;
        self.emit_tag(Tag {
            kind,
            name,
            self_closing,
            attrs,
            had_duplicate_attributes: duplicate,
        });
        Flow::Tag
    }

    /// End of input inside a tag: the tag is dropped.
    fn eof_in_tag(&mut self) -> Flow {
        self.pos = self.src.bytes.len();
        Flow::Text
    }

    /// Keep the first of duplicate attributes (by name), as html5ever does.
    fn add_attr(
        &mut self,
        attrs: &mut Vec<Attribute>,
        duplicate: &mut bool,
        name: LocalName,
        value: StrTendril,
    ) {
        const LINEAR: usize = 16;
        let dup = if attrs.len() < LINEAR {
            attrs.iter().any(|a| a.name.local == name)
        } else {
            if self.seen.is_empty() {
                self.seen.extend(attrs.iter().map(|a| a.name.local.clone()));
            }
            !self.seen.insert(name.clone())
        };
        if dup {
            *duplicate = true;
        } else {
            if attrs.capacity() == 0 {
                *attrs = self.pool.take();
            }
            attrs.push(Attribute {
                name: QualName::new(None, ns!(), name),
                value,
            });
        }
    }

    /// A quoted attribute value starting at `i` (after the quote). Returns the value and the
    /// position after the closing quote; `None` at end of input.
    fn quoted_value(&mut self, mut i: usize, quote: u8) -> Option<(StrTendril, usize)> {
        let mut buf = Buf::Empty;
        loop {
            let hit = self.next_stop(i, quote, b'&');
            buf.push_range(&self.src, i, hit);
            match self.byte(hit)? {
                b'&' => i = self.attr_char_ref(&mut buf, hit),
                b if b == quote => return Some((buf.finish(&self.src), hit + 1)),
                _ => i = self.newline_or_nul(&mut buf, hit),
            }
        }
    }

    /// An unquoted attribute value starting at `i`. Returns the value and the position of
    /// the whitespace or `>` that ends it; `None` at end of input.
    fn unquoted_value(&mut self, mut i: usize) -> Option<(StrTendril, usize)> {
        let bytes = self.src.bytes;
        let mut buf = Buf::Empty;
        loop {
            let start = i;
            while bytes.get(i).is_some_and(|&b| class(b) & UNQUOTED_END == 0) {
                i += 1;
            }
            buf.push_range(&self.src, start, i);
            match self.byte(i)? {
                b'&' => i = self.attr_char_ref(&mut buf, i),
                0 => {
                    buf.push_char(&self.src, '\u{FFFD}');
                    i += 1;
                }
                _ => return Some((buf.finish(&self.src), i)),
            }
        }
    }

    /// `&` at `amp` in an attribute value: append what it stands for, return where to go on.
    fn attr_char_ref(&mut self, buf: &mut Buf, amp: usize) -> usize {
        match charref::parse(self.src.text, amp + 1, true) {
            CharRef::Literal => {
                buf.push_range(&self.src, amp, amp + 1);
                amp + 1
            }
            CharRef::Chars {
                len, first, second, ..
            } => {
                buf.push_char(&self.src, first);
                if let Some(c) = second {
                    buf.push_char(&self.src, c);
                }
                amp + 1 + len
            }
        }
    }

    /// Pass a tag to the sink (with any text before it) and take up the state it asks for.
    fn emit_tag(&mut self, tag: Tag) {
        self.flush();
        let start = tag.kind == TagKind::StartTag;
        if start {
            self.last_start = Some(tag.name.clone());
        }
        let result = self.sink.process_token(Token::TagToken(tag), LINE);
        self.after_start_tag = start;
        self.mode = match result {
            TokenSinkResult::Continue => Mode::Data,
            TokenSinkResult::Plaintext => Mode::Plaintext,
            TokenSinkResult::RawData(RawKind::Rcdata) => Mode::Rcdata,
            TokenSinkResult::RawData(RawKind::Rawtext) => Mode::Rawtext,
            TokenSinkResult::RawData(RawKind::ScriptData) => Mode::Script(Escape::No),
            TokenSinkResult::RawData(RawKind::ScriptDataEscaped(ScriptEscapeKind::Escaped)) => {
                Mode::Script(Escape::Escaped)
            }
            TokenSinkResult::RawData(RawKind::ScriptDataEscaped(
                ScriptEscapeKind::DoubleEscaped,
            )) => Mode::Script(Escape::Double),
            // No script engine and the charset is settled: go on, as depth.rs's loop does
            // (including html5ever's BOM drop at the start of the next `feed`).
            TokenSinkResult::Script(_) | TokenSinkResult::EncodingIndicator(_) => {
                self.skip_bom();
                Mode::Data
            }
        };
    }

    /// If the `<` at `lt` starts an appropriate end tag (`</` + the last start tag's name, in
    /// any case, + whitespace, `/` or `>`), the position after the name.
    fn appropriate_end(&self, lt: usize) -> Option<usize> {
        let bytes = self.src.bytes;
        let last = self.last_start.as_ref()?;
        if bytes.get(lt + 1) != Some(&b'/') {
            return None;
        }
        let start = lt + 2;
        let mut end = start;
        while bytes.get(end).is_some_and(u8::is_ascii_alphabetic) {
            end += 1;
        }
        let terminated = bytes.get(end).is_some_and(|&b| class(b) & TAG_END != 0);
        let name = bytes.get(start..end)?;
        (end > start && terminated && name.eq_ignore_ascii_case(last.as_bytes())).then_some(end)
    }

    /// The text of a raw text element up to `lt` (where its end tag starts), then the end tag.
    fn raw_end(&mut self, text_start: usize, lt: usize, name_end: usize) {
        let mut pending = mem::take(&mut self.pending);
        self.push_text(&mut pending, text_start, lt);
        self.pending = pending;
        let name = self
            .last_start
            .clone()
            .unwrap_or_else(|| LocalName::from(""));
        self.tag_body(TagKind::EndTag, name, name_end);
    }

    /// Raw text to the end of input.
    fn raw_to_eof(&mut self, text_start: usize) -> bool {
        let len = self.src.bytes.len();
        let mut pending = mem::take(&mut self.pending);
        self.push_text(&mut pending, text_start, len);
        self.pending = pending;
        self.pos = len;
        false
    }

    // ---- RCDATA, RAWTEXT, script data, PLAINTEXT ---------------------------------------------

    fn rcdata(&mut self) -> bool {
        loop {
            let start = self.pos;
            let hit = self.text_stop(start);
            self.pending.push_range(&self.src, start, hit);
            self.pos = hit;
            match self.byte(hit) {
                None => return false,
                Some(b'<') => match self.appropriate_end(hit) {
                    Some(name_end) => {
                        self.raw_end(hit, hit, name_end);
                        return true;
                    }
                    None => {
                        self.literal(hit, hit + 1);
                    }
                },
                Some(b'&') => self.text_char_ref(),
                Some(_) => {
                    let mut pending = mem::take(&mut self.pending);
                    self.pos = self.newline_or_nul(&mut pending, hit);
                    self.pending = pending;
                }
            }
        }
    }

    fn rawtext(&mut self) -> bool {
        let start = self.pos;
        let mut i = start;
        while let Some(lt) = self
            .src
            .bytes
            .get(i..)
            .and_then(|rest| memchr(b'<', rest))
            .map(|k| i + k)
        {
            if let Some(name_end) = self.appropriate_end(lt) {
                self.raw_end(start, lt, name_end);
                return true;
            }
            i = lt + 1;
        }
        self.raw_to_eof(start)
    }

    /// Script data: all of it is text; the escape states only decide which `</script` ends it.
    fn script(&mut self, escape: Escape) -> bool {
        let bytes = self.src.bytes;
        let start = self.pos;
        let mut state = escape;
        let mut i = start;
        loop {
            match state {
                Escape::No => {
                    let Some(lt) = bytes.get(i..).and_then(|r| memchr(b'<', r)).map(|k| i + k)
                    else {
                        return self.raw_to_eof(start);
                    };
                    match bytes.get(lt + 1) {
                        Some(b'/') => {
                            if let Some(name_end) = self.appropriate_end(lt) {
                                self.raw_end(start, lt, name_end);
                                return true;
                            }
                            i = lt + 2;
                        }
                        Some(b'!') => {
                            // `<!--` escapes; the state after it is "escaped dash dash".
                            if bytes.get(lt + 2..lt + 4) == Some(b"--") {
                                match dash_dash(bytes, lt + 4, Escape::Escaped) {
                                    Some((s, next)) => {
                                        state = s;
                                        i = next;
                                    }
                                    None => return self.raw_to_eof(start),
                                }
                            } else {
                                i = lt + 2;
                            }
                        }
                        _ => i = lt + 1,
                    }
                }
                Escape::Escaped | Escape::Double => {
                    let Some(hit) = bytes
                        .get(i..)
                        .and_then(|r| memchr2(b'-', b'<', r))
                        .map(|k| i + k)
                    else {
                        return self.raw_to_eof(start);
                    };
                    let lt = if bytes.get(hit) == Some(&b'-') {
                        // Escaped dash: a second `-` makes dash dash; `<` is looked at below.
                        match bytes.get(hit + 1) {
                            Some(b'-') => {
                                match dash_dash(bytes, hit + 2, state) {
                                    Some((s, next)) => {
                                        state = s;
                                        i = next;
                                    }
                                    None => return self.raw_to_eof(start),
                                }
                                continue;
                            }
                            Some(b'<') => hit + 1,
                            Some(_) => {
                                i = hit + 1;
                                continue;
                            }
                            None => return self.raw_to_eof(start),
                        }
                    } else {
                        hit
                    };
                    match self.escaped_less_than(lt, state) {
                        Ok((s, next)) => {
                            state = s;
                            i = next;
                        }
                        Err(name_end) => {
                            self.raw_end(start, lt, name_end);
                            return true;
                        }
                    }
                }
            }
        }
    }

    /// A `<` at `lt` in the escaped or double-escaped state. `Err` with the position after the
    /// name if it starts the end tag; else the state and position to go on from.
    fn escaped_less_than(&self, lt: usize, state: Escape) -> Result<(Escape, usize), usize> {
        let bytes = self.src.bytes;
        match (state, bytes.get(lt + 1)) {
            (Escape::Escaped, Some(b'/')) => match self.appropriate_end(lt) {
                Some(name_end) => Err(name_end),
                None => Ok((Escape::Escaped, lt + 2)),
            },
            (Escape::Escaped, Some(c)) if c.is_ascii_alphabetic() => {
                // Double escape start: `<script` + whitespace, `/` or `>` double-escapes.
                let (word, end) = letters(bytes, lt + 1);
                match bytes.get(end) {
                    Some(&b) if class(b) & TAG_END != 0 => {
                        let next = if word.eq_ignore_ascii_case(b"script") {
                            Escape::Double
                        } else {
                            Escape::Escaped
                        };
                        Ok((next, end + 1))
                    }
                    _ => Ok((Escape::Escaped, end)),
                }
            }
            (Escape::Double, Some(b'/')) => {
                // Double escape end: `</script` + whitespace, `/` or `>` returns to escaped.
                let (word, end) = letters(bytes, lt + 2);
                match bytes.get(end) {
                    Some(&b) if class(b) & TAG_END != 0 => {
                        let next = if word.eq_ignore_ascii_case(b"script") {
                            Escape::Escaped
                        } else {
                            Escape::Double
                        };
                        Ok((next, end + 1))
                    }
                    _ => Ok((Escape::Double, end)),
                }
            }
            _ => Ok((state, lt + 1)),
        }
    }

    fn plaintext(&mut self) -> bool {
        let start = self.pos;
        self.raw_to_eof(start)
    }

    // ---- DOCTYPE ----------------------------------------------------------------------------

    /// A DOCTYPE whose keyword ended just before `start`.
    fn doctype(&mut self, start: usize) {
        let (doctype, end) = parse_doctype(self.src.text, start);
        self.flush();
        self.pos = end;
        self.emit(Token::DoctypeToken(doctype));
    }
}

/// The ASCII letters starting at `i` and the position after them.
fn letters(bytes: &[u8], i: usize) -> (&[u8], usize) {
    let n = bytes
        .get(i..)
        .unwrap_or_default()
        .iter()
        .take_while(|b| b.is_ascii_alphabetic())
        .count();
    (bytes.get(i..i + n).unwrap_or_default(), i + n)
}

/// The script data escaped (or double escaped) dash dash state at `i`: more dashes stay, `>`
/// leaves the escape, `<` is a less-than sign in the escape. Returns the state and position to
/// go on from (a `<` is left for the caller's escaped scan to find); `None` at end of input.
fn dash_dash(bytes: &[u8], mut i: usize, state: Escape) -> Option<(Escape, usize)> {
    loop {
        match *bytes.get(i)? {
            b'-' => i += 1,
            b'>' => return Some((Escape::No, i + 1)),
            b'<' => return Some((state, i)),
            _ => return Some((state, i + 1)),
        }
    }
}

/// The end of a comment whose data starts at `start`: where the data ends (before the closing
/// dashes) and where tokenizing goes on. Follows html5ever's comment states, which differ from
/// the spec's in the comment start state (a `<` there is plain data).
fn comment_end(bytes: &[u8], start: usize) -> (usize, usize) {
    #[derive(Clone, Copy)]
    enum C {
        Start,
        StartDash,
        Comment,
        Lt,
        LtBang,
        LtBangDash,
        LtBangDashDash,
        EndDash,
        End,
        EndBang,
    }
    let len = bytes.len();
    let mut state = C::Start;
    let mut i = start;
    loop {
        if let C::Comment = state {
            i = bytes
                .get(i..)
                .and_then(|rest| memchr2(b'-', b'<', rest))
                .map_or(len, |k| i + k);
        }
        let Some(&b) = bytes.get(i) else {
            // End of input: the comment is emitted without the dashes still held back.
            let held = match state {
                C::Start | C::Comment | C::Lt | C::LtBang => 0,
                C::StartDash | C::EndDash | C::LtBangDash => 1,
                C::End | C::LtBangDashDash => 2,
                C::EndBang => 3,
            };
            return (len.saturating_sub(held).max(start), len);
        };
        // `next` consumes the byte; `again` looks at it again in the new state.
        let (next, consume) = match (state, b) {
            (C::Start, b'-') => (C::StartDash, true),
            (C::Start | C::StartDash, b'>') => return (start, i + 1),
            (C::Start, _) => (C::Comment, true),
            (C::StartDash, b'-') => (C::End, true),
            (C::StartDash, _) => (C::Comment, true),
            (C::Comment, b'<') => (C::Lt, true),
            (C::Comment, b'-') => (C::EndDash, true),
            (C::Comment, _) => (C::Comment, true),
            (C::Lt, b'!') => (C::LtBang, true),
            (C::Lt, b'<') => (C::Lt, true),
            (C::Lt, _) => (C::Comment, false),
            (C::LtBang, b'-') => (C::LtBangDash, true),
            (C::LtBang, _) => (C::Comment, false),
            (C::LtBangDash, b'-') => (C::LtBangDashDash, true),
            (C::LtBangDash, _) => (C::EndDash, false),
            (C::LtBangDashDash, _) => (C::End, false),
            (C::EndDash, b'-') => (C::End, true),
            (C::EndDash, _) => (C::Comment, true),
            (C::End, b'>') => return (i.saturating_sub(2).max(start), i + 1),
            (C::End, b'!') => (C::EndBang, true),
            (C::End, b'-') => (C::End, true),
            (C::End, _) => (C::Comment, false),
            (C::EndBang, b'-') => (C::EndDash, true),
            (C::EndBang, b'>') => return (i.saturating_sub(3).max(start), i + 1),
            (C::EndBang, _) => (C::Comment, true),
        };
        state = next;
        if consume {
            i += 1;
        }
    }
}

/// Characters of a DOCTYPE with CR and CRLF read as LF.
struct Chars<'a> {
    text: &'a str,
    i: usize,
}

impl Chars<'_> {
    fn next(&mut self) -> Option<char> {
        let c = self.text.get(self.i..)?.chars().next()?;
        self.i += c.len_utf8();
        if c == '\r' {
            if self.text.as_bytes().get(self.i) == Some(&b'\n') {
                self.i += 1;
            }
            return Some('\n');
        }
        Some(c)
    }

    /// Consume `word` if the input continues with it, ASCII case-insensitively.
    fn eat(&mut self, word: &str) -> bool {
        let end = self.i + word.len();
        let hit = self
            .text
            .as_bytes()
            .get(self.i..end)
            .is_some_and(|w| w.eq_ignore_ascii_case(word.as_bytes()));
        if hit {
            self.i = end;
        }
        hit
    }
}

fn push_opt(s: &mut Option<StrTendril>, c: char) {
    match s {
        Some(t) => t.push_char(c),
        None => *s = Some(StrTendril::from_char(c)),
    }
}

/// The DOCTYPE states, from just after the `DOCTYPE` keyword. Returns the token and the
/// position after it.
fn parse_doctype(text: &str, start: usize) -> (Doctype, usize) {
    #[derive(Clone, Copy, PartialEq)]
    enum Id {
        Public,
        System,
    }
    #[derive(Clone, Copy, PartialEq)]
    enum D {
        Doctype,
        BeforeName,
        Name,
        AfterName,
        AfterKeyword(Id),
        BeforeId(Id),
        Quoted(Id, char),
        AfterId(Id),
        Between,
        Bogus,
    }
    fn id(d: &mut Doctype, which: Id) -> &mut Option<StrTendril> {
        match which {
            Id::Public => &mut d.public_id,
            Id::System => &mut d.system_id,
        }
    }
    let is_ws = |c: char| matches!(c, '\t' | '\n' | '\x0C' | ' ');
    let mut d = Doctype::default();
    let mut state = D::Doctype;
    let mut chars = Chars { text, i: start };
    let mut again: Option<char> = None;
    loop {
        if state == D::AfterName {
            if chars.eat("public") {
                state = D::AfterKeyword(Id::Public);
                continue;
            }
            if chars.eat("system") {
                state = D::AfterKeyword(Id::System);
                continue;
            }
        }
        let Some(c) = again.take().or_else(|| chars.next()) else {
            match state {
                D::Doctype | D::BeforeName => {
                    d = Doctype::default();
                    d.force_quirks = true;
                }
                D::Bogus => {}
                _ => d.force_quirks = true,
            }
            return (d, chars.i);
        };
        match state {
            D::Doctype => {
                if !is_ws(c) {
                    again = Some(c);
                }
                state = D::BeforeName;
            }
            D::BeforeName => match c {
                c if is_ws(c) => {}
                '>' => {
                    d = Doctype::default();
                    d.force_quirks = true;
                    return (d, chars.i);
                }
                c => {
                    d = Doctype::default();
                    let c = if c == '\0' {
                        '\u{FFFD}'
                    } else {
                        c.to_ascii_lowercase()
                    };
                    d.name = Some(StrTendril::from_char(c));
                    state = D::Name;
                }
            },
            D::Name => match c {
                c if is_ws(c) => state = D::AfterName,
                '>' => return (d, chars.i),
                '\0' => push_opt(&mut d.name, '\u{FFFD}'),
                c => push_opt(&mut d.name, c.to_ascii_lowercase()),
            },
            D::AfterName => match c {
                c if is_ws(c) => {}
                '>' => return (d, chars.i),
                c => {
                    d.force_quirks = true;
                    again = Some(c);
                    state = D::Bogus;
                }
            },
            D::AfterKeyword(which) | D::BeforeId(which) => match c {
                c if is_ws(c) => state = D::BeforeId(which),
                '"' | '\'' => {
                    *id(&mut d, which) = Some(StrTendril::new());
                    state = D::Quoted(which, c);
                }
                '>' => {
                    d.force_quirks = true;
                    return (d, chars.i);
                }
                c => {
                    d.force_quirks = true;
                    again = Some(c);
                    state = D::Bogus;
                }
            },
            D::Quoted(which, quote) => match c {
                c if c == quote => state = D::AfterId(which),
                '\0' => push_opt(id(&mut d, which), '\u{FFFD}'),
                '>' => {
                    d.force_quirks = true;
                    return (d, chars.i);
                }
                c => push_opt(id(&mut d, which), c),
            },
            D::AfterId(Id::Public) | D::Between => match c {
                c if is_ws(c) => state = D::Between,
                '>' => return (d, chars.i),
                '"' | '\'' => {
                    d.system_id = Some(StrTendril::new());
                    state = D::Quoted(Id::System, c);
                }
                c => {
                    d.force_quirks = true;
                    again = Some(c);
                    state = D::Bogus;
                }
            },
            D::AfterId(Id::System) => match c {
                c if is_ws(c) => {}
                '>' => return (d, chars.i),
                c => {
                    again = Some(c);
                    state = D::Bogus;
                }
            },
            D::Bogus => {
                if c == '>' {
                    return (d, chars.i);
                }
            }
        }
    }
}
