//! Tag and attribute names that html5ever knows as static atoms, found without hashing.
//!
//! `LocalName::from` hashes every name (SipHash) and probes the static atom set; the lexer's
//! small cache of recent names still compares bytes with `memcmp`. Nearly every name on a real
//! page is one of a few hundred HTML tag and attribute names, so those are packed into an
//! integer (up to 15 bytes and the length) and looked up in a table built at compile time.
//! The atom handed out is the very one `LocalName::from` would return (the `local_name!`
//! static), so nothing downstream can tell the difference.
use html5ever::{local_name, LocalName};

macro_rules! known {
    ($($name:tt)*) => {
        /// The names, in the order of [`ATOMS`].
        const NAMES: &[&str] = &[$($name,)*];
        /// The static atom of each name in [`NAMES`].
        static ATOMS: &[LocalName] = &[$(local_name!($name),)*];
    };
}

known! {
    // Elements.
    "a" "abbr" "acronym" "address" "applet" "area" "article" "aside" "audio" "b" "base"
    "basefont" "bdi" "bdo" "bgsound" "big" "blockquote" "body" "br" "button" "canvas" "caption"
    "center" "cite" "code" "col" "colgroup" "data" "datalist" "dd" "del" "details" "dfn"
    "dialog" "dir" "div" "dl" "dt" "em" "embed" "fieldset" "figcaption" "figure" "font"
    "footer" "form" "frame" "frameset" "h1" "h2" "h3" "h4" "h5" "h6" "head" "header" "hgroup"
    "hr" "html" "i" "iframe" "image" "img" "input" "ins" "kbd" "keygen" "label" "legend" "li"
    "link" "listing" "main" "map" "mark" "marquee" "math" "menu" "meta" "meter" "nav" "nobr"
    "noembed" "noframes" "noscript" "object" "ol" "optgroup" "option" "output" "p" "param"
    "picture" "plaintext" "pre" "progress" "q" "rb" "rp" "rt" "rtc" "ruby" "s" "samp" "script"
    "search" "section" "select" "slot" "small" "source" "span" "strike" "strong" "style" "sub"
    "summary" "sup" "svg" "table" "tbody" "td" "template" "textarea" "tfoot" "th" "thead"
    "time" "title" "tr" "track" "tt" "u" "ul" "var" "video" "wbr" "xmp"
    // SVG shapes common in inline icons.
    "circle" "defs" "g" "line" "path" "polygon" "polyline" "rect" "stop" "symbol" "use"
    // Attributes.
    "accept" "accesskey" "action" "align" "allow" "allowfullscreen" "alt" "aria-controls"
    "aria-current" "aria-disabled" "aria-expanded" "aria-haspopup" "aria-hidden" "aria-label"
    "aria-labelledby" "aria-live" "aria-pressed" "aria-selected" "as" "async" "autocomplete"
    "autofocus" "autoplay" "bgcolor" "border" "cellpadding" "cellspacing" "charset" "checked"
    "class" "clip-rule" "color" "cols" "colspan" "content" "contenteditable" "controls" "coords"
    "crossorigin" "cx" "cy" "d" "datetime" "decoding" "default" "defer" "disabled" "download"
    "draggable" "enctype" "face" "fetchpriority" "fill" "fill-rule" "for" "frameborder"
    "headers" "height" "hidden" "href" "hreflang" "http-equiv" "id" "integrity" "ismap"
    "itemprop" "itemscope" "itemtype" "kind" "lang" "loading" "loop" "max" "maxlength" "media"
    "method" "min" "minlength" "multiple" "muted" "name" "nonce" "novalidate" "nowrap" "onclick"
    "onkeydown" "onload" "opacity" "open" "pattern" "placeholder" "points" "poster" "preload"
    "property" "r" "readonly" "referrerpolicy" "rel" "required" "reversed" "role" "rows"
    "rowspan" "rx" "ry" "sandbox" "scope" "selected" "shape" "size" "sizes" "spellcheck" "src"
    "srclang" "srcset" "start" "step" "stroke" "stroke-linecap" "stroke-linejoin" "stroke-width"
    "tabindex" "target" "transform" "translate" "type" "usemap" "valign" "value" "version"
    "width" "x" "x1" "x2" "xmlns" "y" "y1" "y2"
}

/// Longest name the table holds (the packed key is 15 bytes and a length).
const MAX_LEN: usize = 15;
/// 2,048 slots for ~290 names: at 1,024, nearly a third of the look-ups on documentation pages
/// probed a second slot.
const BITS: u32 = 11;
const SIZE: usize = 1 << BITS;
const COUNT: usize = NAMES.len();

// Entries are `index + 1` in a `u16`, and the table must keep empty slots (probes end there).
const _: () = assert!(COUNT < SIZE / 2 && COUNT < u16::MAX as usize);

/// A name's bytes, little-endian, and its length in the top byte. Distinct for distinct names
/// of at most [`MAX_LEN`] bytes (whatever the bytes: the length tells `a` from `a\0`).
const fn pack(bytes: &[u8]) -> (u64, u64) {
    let (mut lo, mut hi) = (0u64, 0u64);
    let mut i = 0;
    while i < bytes.len() && i < 8 {
        lo |= (bytes[i] as u64) << (8 * i);
        i += 1;
    }
    while i < bytes.len() && i < MAX_LEN {
        hi |= (bytes[i] as u64) << (8 * (i - 8));
        i += 1;
    }
    (lo, hi | ((bytes.len() as u64) << 56))
}

const fn slot((lo, hi): (u64, u64)) -> usize {
    let folded = lo ^ hi.rotate_left(29);
    (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BITS)) as usize
}

const KEYS: [(u64, u64); COUNT] = {
    let mut keys = [(0u64, 0u64); COUNT];
    let mut i = 0;
    while i < COUNT {
        let name = NAMES[i].as_bytes();
        assert!(!name.is_empty() && name.len() <= MAX_LEN);
        keys[i] = pack(name);
        i += 1;
    }
    keys
};

/// Open addressing with linear probing: `index + 1` of the name, 0 for an empty slot.
static TABLE: [u16; SIZE] = {
    let mut table = [0u16; SIZE];
    let mut i = 0;
    while i < COUNT {
        let mut s = slot(KEYS[i]);
        while table[s] != 0 {
            // A name listed twice would be found twice.
            let (lo, hi) = KEYS[table[s] as usize - 1];
            assert!(lo != KEYS[i].0 || hi != KEYS[i].1, "duplicate name");
            s = (s + 1) % SIZE;
        }
        table[s] = (i + 1) as u16;
        i += 1;
    }
    table
};

/// [`known_in`] for a name on its own (tests).
#[cfg(test)]
fn known(name: &[u8]) -> Option<LocalName> {
    if name.len() > MAX_LEN {
        return None;
    }
    lookup(pack(name))
}

/// The static atom for the name `bytes[a..b]`, if the table has it. The lexer asks only about
/// names that need no rewriting (lowercase, no NUL); an uppercase name is simply not found.
///
/// Where the input holds a whole word (two for names over eight bytes) from `a`, the key is
/// read with a load and a mask instead of byte by byte: names are looked up for every tag and
/// attribute, and [`pack`]'s loop was a third of that.
#[inline]
pub(super) fn known_in(bytes: &[u8], a: usize, b: usize) -> Option<LocalName> {
    let len = b.checked_sub(a)?;
    if len > MAX_LEN {
        return None;
    }
    // The first `n` bytes (at most 8) of the word at `at`, little-endian as in `pack`.
    let word = |at: usize, n: usize| -> Option<u64> {
        let w: [u8; 8] = bytes.get(at..at.checked_add(8)?)?.try_into().ok()?;
        let v = u64::from_le_bytes(w);
        Some(if n >= 8 {
            v
        } else {
            v & ((1u64 << (8 * n)) - 1)
        })
    };
    let words = if len <= 8 {
        word(a, len).map(|lo| (lo, 0))
    } else {
        word(a, 8).zip(word(a + 8, len - 8))
    };
    let key = match words {
        Some((lo, hi)) => (lo, hi | ((len as u64) << 56)),
        // Near the end of the input.
        None => pack(bytes.get(a..b)?),
    };
    lookup(key)
}

/// The static atom whose packed name is `key`, if the table has it.
#[inline]
fn lookup(key: (u64, u64)) -> Option<LocalName> {
    let mut s = slot(key);
    // The table is at most half full, so a probe meets an empty slot long before this ends.
    for _ in 0..SIZE {
        let entry = usize::from(*TABLE.get(s)?);
        let index = entry.checked_sub(1)?;
        if KEYS.get(index) == Some(&key) {
            return ATOMS.get(index).cloned();
        }
        s = (s + 1) % SIZE;
    }
    None
}

/// Names tried before a name is scanned and looked up at all: on real pages nearly half of
/// all attribute names are `class` and a few dozen tags make up most of the rest, and for
/// those one word comparison replaces the byte-by-byte scan and the table probe. Names of at
/// most eight bytes, listed in [`NAMES`], no two with the same first two letters (see
/// [`Hot::slot`]).
const HOT_TAG_NAMES: &[&str] = &[
    "a", "abbr", "article", "aside", "b", "br", "button", "code", "dd", "details", "div", "dl",
    "dt", "em", "figure", "g", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "input",
    "kbd", "label", "li", "main", "meta", "nav", "ol", "option", "p", "path", "pre", "script",
    "section", "small", "span", "strong", "summary", "svg", "table", "tbody", "td", "th", "tr",
    "u", "ul", "var",
];
const HOT_ATTRIBUTE_NAMES: &[&str] = &[
    "action", "alt", "async", "border", "class", "content", "d", "fill", "for", "height", "href",
    "id", "lang", "loading", "name", "open", "property", "rel", "role", "src", "style", "target",
    "title", "type", "value", "width", "x", "xmlns", "y",
];

const HOT_BITS: u32 = 8;
const HOT_SIZE: usize = 1 << HOT_BITS;
/// Spreads the hot names of each list over distinct slots (checked when the tables are built;
/// if a new name collides, try other odd constants until both lists build).
const HOT_MULTIPLIER: u64 = 0x1905_D591_C5B2_E75B;

/// Hot names by their [`Hot::slot`]: `index + 1` in [`NAMES`], 0 for none. One
/// slot per name, so a look-up is one load; a name that is not hot fails the comparison with
/// whatever its slot holds.
pub(super) struct Hot([u16; HOT_SIZE]);

pub(super) static HOT_TAGS: Hot = Hot::new(HOT_TAG_NAMES);
pub(super) static HOT_ATTRIBUTES: Hot = Hot::new(HOT_ATTRIBUTE_NAMES);

impl Hot {
    const fn new(hot: &[&str]) -> Hot {
        let mut table = [0u16; HOT_SIZE];
        let mut h = 0;
        while h < hot.len() {
            let name = hot[h].as_bytes();
            assert!(!name.is_empty() && name.len() <= 8);
            let second = if name.len() > 1 { name[1] } else { 0 };
            let mut i = 0;
            while i < COUNT && !same(NAMES[i].as_bytes(), name) {
                i += 1;
            }
            assert!(i < COUNT, "a hot name must be in NAMES");
            let s = Hot::slot(name[0], second);
            assert!(table[s] == 0, "two hot names in one slot");
            table[s] = (i + 1) as u16;
            h += 1;
        }
        Hot(table)
    }

    /// The slot of a name by its first two bytes, or by its only letter and 0 (the byte after
    /// a one-letter name is whatever ends it).
    const fn slot(first: u8, second: u8) -> usize {
        let key = first as u64 | (second as u64) << 8;
        (key.wrapping_mul(HOT_MULTIPLIER) >> (64 - HOT_BITS)) as usize
    }

    /// The hot name spelled at `bytes[a..]` and followed by a byte for which `ends` holds
    /// (`span` is not `spank`), and the position after it.
    #[inline]
    pub(super) fn at(
        &self,
        bytes: &[u8],
        a: usize,
        ends: impl Fn(u8) -> bool,
    ) -> Option<(LocalName, usize)> {
        let word: [u8; 8] = bytes.get(a..a.checked_add(8)?)?.try_into().ok()?;
        let word = u64::from_le_bytes(word);
        let [first, second, ..] = word.to_le_bytes();
        let slot = Hot::slot(first, if ends(second) { 0 } else { second });
        let index = usize::from(*self.0.get(slot)?).checked_sub(1)?;
        let (lo, hi) = *KEYS.get(index)?;
        let len = (hi >> 56) as usize;
        let mask = u64::MAX >> (64 - 8 * len);
        if word & mask != lo || !ends(*bytes.get(a + len)?) {
            return None;
        }
        Some((ATOMS.get(index)?.clone(), a + len))
    }
}

const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hot_names_are_their_static_atoms() {
        let ends = |b: u8| b == b'=' || b == b'>';
        for (hot, names) in [
            (&HOT_TAGS, HOT_TAG_NAMES),
            (&HOT_ATTRIBUTES, HOT_ATTRIBUTE_NAMES),
        ] {
            for name in names {
                let text = format!("{name}=\"0123456789\"");
                let (atom, end) = hot.at(text.as_bytes(), 0, ends).expect(name);
                assert_eq!(end, name.len());
                assert_eq!(Some(atom), known(name.as_bytes()), "{name}");
                // Only the exact bytes, ending where `ends` says, with a word to read.
                let upper = text.to_uppercase();
                assert!(hot.at(upper.as_bytes(), 0, ends).is_none(), "{name}");
                let longer = format!("{name}x=\"0123456789\"");
                assert!(hot.at(longer.as_bytes(), 0, ends).is_none(), "{name}");
                assert!(hot.at(name.as_bytes(), 0, ends).is_none(), "{name}");
            }
        }
        assert!(HOT_TAGS.at(b"sp>     ", 0, ends).is_none());
        assert!(HOT_TAGS.at(b"xyz>    ", 0, ends).is_none());
        assert!(HOT_TAGS
            .at("\u{e9}t\u{e9}>   ".as_bytes(), 0, ends)
            .is_none());
        assert_eq!(HOT_TAGS.at(b"<a>      ", 1, ends).map(|(_, e)| e), Some(2));
    }

    #[test]
    fn every_listed_name_is_its_own_static_atom() {
        for (name, atom) in NAMES.iter().zip(ATOMS) {
            assert_eq!(&**atom, *name);
            assert_eq!(known(name.as_bytes()).as_ref(), Some(atom), "{name}");
            // The same atom `LocalName::from` makes (static, so equal by identity).
            assert_eq!(known(name.as_bytes()), Some(LocalName::from(*name)));
        }
    }

    #[test]
    fn names_are_found_in_place_wherever_they_stand() {
        // Word reads and the byte-by-byte fallback near the end agree with `known`.
        let names = NAMES
            .iter()
            .copied()
            .chain(["", "x-", "divx", "a\0", "DIV"]);
        for name in names {
            for (before, after) in [("", ""), ("<", " "), ("<", "=\"0123456789abcdef\">")] {
                let text = format!("{before}{name}{after}");
                let (a, b) = (before.len(), before.len() + name.len());
                assert_eq!(
                    known_in(text.as_bytes(), a, b),
                    known(name.as_bytes()),
                    "{text:?}"
                );
            }
        }
        assert_eq!(known_in(b"div", 2, 1), None);
        assert_eq!(known_in(b"div", 0, 4), None);
    }

    #[test]
    fn other_names_are_not_found() {
        const OTHERS: &[&str] = &[
            "",
            "x-",
            "dív",
            "data-src",
            "divx",
            "di",
            "aria-describedbyx",
            "my-element",
            "viewbox",
            "A",
            "a\0",
            "div\0\0",
            "DIV",
            "p\u{FFFD}",
        ];
        for name in OTHERS {
            assert_eq!(known(name.as_bytes()), None, "{name}");
        }
    }
}
