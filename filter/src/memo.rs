//! Conversion memo: the most recent conversions of this VM (one per Envoy worker), so that a
//! page fetched again with the same bytes is not converted again.
//!
//! The engine's output is a pure function of the response body, its `Content-Type`, its
//! content codings, the request URL (links resolve against it; it is the front matter's
//! `url`) and the plugin options (fixed per VM: a new configuration gets a new memo). An
//! entry is kept per request URL and holds all of those inputs; a lookup hits only when every
//! one is byte-for-byte equal, so a hit returns exactly what converting would. Nothing is
//! keyed on freshness: the upstream is still asked every time, and a changed page is simply
//! a miss that replaces the entry. Hence no hashing and no collision to reason about: the
//! body comparison is a word-wise compare, which costs far less than the fetch that produced it.
//!
//! Memory is bounded by `memo_bytes` (bodies, Markdown and keys counted); least recently used
//! entries go first, and an entry larger than a quarter of the budget is never stored, so one
//! big page cannot flush the small ones. Wasm linear memory never shrinks, so the budget is
//! what the memo can add to each worker's RSS.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use agent_markdown::Output;

use crate::coding::Coding;

/// Bytes charged per entry on top of its buffers (map nodes, `Output`, `Vec` headers).
const ENTRY_OVERHEAD: usize = 256;

/// What a conversion depends on, besides the VM's options.
#[derive(Debug, Clone, Copy)]
pub struct Key<'a> {
    /// The request URL the engine resolves links against (`None`: not known).
    pub url: Option<&'a str>,
    pub content_type: Option<&'a str>,
    pub codings: &'a [Coding],
    /// The body as buffered (still content-coded).
    pub body: &'a [u8],
}

/// A stored conversion.
#[derive(Debug, Clone)]
pub struct Hit {
    pub output: Rc<Output>,
    /// Length of the decoded HTML the output came from (the `bytes_in` it counts).
    pub html_len: usize,
}

#[derive(Debug)]
struct Entry {
    has_url: bool,
    content_type: Option<String>,
    codings: Vec<Coding>,
    body: Vec<u8>,
    hit: Hit,
    /// Position in the recency index.
    tick: u64,
    cost: usize,
}

impl Entry {
    fn matches(&self, key: &Key<'_>) -> bool {
        self.has_url == key.url.is_some()
            && self.content_type.as_deref() == key.content_type
            && self.codings == key.codings
            && same_bytes(&self.body, key.body)
    }
}

/// `a == b`, eight bytes at a time. On wasm32 slice equality calls compiler-builtins'
/// byte-at-a-time `memcmp`, and every memo hit compares a whole page: this takes a hit on a
/// 10 KB page from ~448 K to ~373 K Envoy instructions (callgrind, docs/BENCHMARKS.md).
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    fn word(chunk: &[u8]) -> u64 {
        chunk.try_into().map_or(0, u64::from_ne_bytes)
    }
    if a.len() != b.len() {
        return false;
    }
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    a8.remainder() == b8.remainder() && a8.zip(b8).all(|(x, y)| word(x) == word(y))
}

#[derive(Debug, Default)]
struct Inner {
    /// By request URL (`""` when there is none; `has_url` tells it from an empty URL).
    entries: BTreeMap<String, Entry>,
    /// Tick of last use → URL; the first entry is the least recently used.
    recency: BTreeMap<u64, String>,
    next_tick: u64,
    used: usize,
}

/// The per-VM memo. `budget` 0 disables it.
#[derive(Debug, Default)]
pub struct Memo {
    budget: usize,
    inner: RefCell<Inner>,
}

impl Memo {
    pub fn new(budget: usize) -> Memo {
        Memo {
            budget,
            inner: RefCell::default(),
        }
    }

    pub fn enabled(&self) -> bool {
        self.budget > 0
    }

    /// Bytes currently charged against the budget.
    pub fn used(&self) -> usize {
        self.inner.try_borrow().map_or(0, |i| i.used)
    }

    /// Number of stored conversions.
    pub fn len(&self) -> usize {
        self.inner.try_borrow().map_or(0, |i| i.entries.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The stored conversion of exactly these inputs, marked as just used.
    pub fn get(&self, key: &Key<'_>) -> Option<Hit> {
        if !self.enabled() {
            return None;
        }
        // Callbacks never nest, so the cell is free; if it were not, a miss is harmless.
        let mut inner = self.inner.try_borrow_mut().ok()?;
        let inner = &mut *inner;
        let url = key.url.unwrap_or("");
        let entry = inner.entries.get_mut(url)?;
        if !entry.matches(key) {
            return None;
        }
        let tick = inner.next_tick;
        inner.next_tick += 1;
        let old = std::mem::replace(&mut entry.tick, tick);
        if let Some(name) = inner.recency.remove(&old) {
            inner.recency.insert(tick, name);
        }
        Some(entry.hit.clone())
    }

    /// Store a conversion, replacing the URL's previous one and evicting the least recently
    /// used entries beyond the budget. `body` is moved in: the caller is done with it.
    pub fn put(
        &self,
        url: Option<&str>,
        content_type: Option<&str>,
        codings: &[Coding],
        body: Vec<u8>,
        hit: Hit,
    ) {
        let name = url.unwrap_or("");
        // The URL is stored twice: as the entry's key and in the recency index.
        let cost = ENTRY_OVERHEAD
            + 2 * name.len()
            + content_type.map_or(0, str::len)
            + body.len()
            + hit.output.markdown.len()
            + hit.output.etag.len()
            + hit.output.title.as_ref().map_or(0, String::len);
        if cost > self.budget / 4 {
            return;
        }
        let Ok(mut inner) = self.inner.try_borrow_mut() else {
            return;
        };
        let inner = &mut *inner;
        if let Some(old) = inner.entries.remove(name) {
            inner.recency.remove(&old.tick);
            inner.used -= old.cost;
        }
        while inner.used + cost > self.budget {
            let Some((_, lru)) = inner.recency.pop_first() else {
                break;
            };
            if let Some(old) = inner.entries.remove(&lru) {
                inner.used -= old.cost;
            }
        }
        let tick = inner.next_tick;
        inner.next_tick += 1;
        inner.recency.insert(tick, name.to_owned());
        inner.entries.insert(
            name.to_owned(),
            Entry {
                has_url: url.is_some(),
                content_type: content_type.map(str::to_owned),
                codings: codings.to_vec(),
                body,
                hit,
                tick,
                cost,
            },
        );
        inner.used += cost;
    }
}

/// Shared by every stream of one VM.
pub type SharedMemo = Rc<Memo>;

#[cfg(test)]
mod tests {
    use super::*;
    use agent_markdown::{convert, Options};

    fn hit(html: &[u8]) -> Hit {
        Hit {
            output: Rc::new(convert(html, &Options::default())),
            html_len: html.len(),
        }
    }

    #[test]
    fn same_bytes_is_slice_equality() {
        // Every length around the word size, and a one-byte change at every position
        // (words and the remainder alike).
        for len in 0..40usize {
            let a: Vec<u8> = (0..len).map(|i| (i * 37 % 251) as u8).collect();
            assert!(same_bytes(&a, &a.clone()));
            assert!(!same_bytes(&a, &a[..len.saturating_sub(1)]) || len == 0);
            for at in 0..len {
                let mut b = a.clone();
                b[at] ^= 0x80;
                assert!(!same_bytes(&a, &b), "len {len}, changed at {at}");
            }
        }
    }

    fn key<'a>(url: &'a str, body: &'a [u8]) -> Key<'a> {
        Key {
            url: Some(url),
            content_type: Some("text/html"),
            codings: &[],
            body,
        }
    }

    fn store(memo: &Memo, url: &str, body: &[u8]) {
        memo.put(Some(url), Some("text/html"), &[], body.to_vec(), hit(body));
    }

    #[test]
    fn hits_only_on_identical_inputs() {
        let memo = Memo::new(1 << 20);
        let page = b"<h1>A</h1><p>x <a href=b>b</a></p>";
        store(&memo, "https://h/a", page);
        let got = memo.get(&key("https://h/a", page)).expect("hit");
        assert_eq!(got.output.markdown, hit(page).output.markdown);
        assert_eq!(got.html_len, page.len());

        // Any input that changes the output misses.
        assert!(memo.get(&key("https://h/b", page)).is_none(), "other URL");
        assert!(
            memo.get(&key("https://h/a", b"<h1>B</h1>")).is_none(),
            "other body"
        );
        let mut k = key("https://h/a", page);
        k.content_type = Some("text/html; charset=shift_jis");
        assert!(memo.get(&k).is_none(), "other content type");
        let mut k = key("https://h/a", page);
        k.codings = &[Coding::Gzip];
        assert!(memo.get(&k).is_none(), "other coding");
        let mut k = key("https://h/a", page);
        k.url = None;
        assert!(memo.get(&k).is_none(), "no URL");
        let mut k = key("", page);
        k.url = None;
        store(&memo, "", page);
        assert!(
            memo.get(&k).is_none(),
            "an empty URL is not the absence of one"
        );
    }

    #[test]
    fn a_changed_page_replaces_its_entry() {
        let memo = Memo::new(1 << 20);
        store(&memo, "u", b"<p>one</p>");
        store(&memo, "u", b"<p>two</p>");
        assert_eq!(memo.len(), 1);
        assert!(memo.get(&key("u", b"<p>one</p>")).is_none());
        let got = memo.get(&key("u", b"<p>two</p>")).expect("hit");
        assert_eq!(got.output.markdown, "two\n");
    }

    #[test]
    fn stays_within_budget_evicting_least_recently_used() {
        let page = vec![b'x'; 1000];
        let probe = Memo::new(1 << 20);
        store(&probe, "u0", &page);
        let one = probe.used();
        assert!(one > page.len() * 2, "body and Markdown are both charged");
        // Room for four entries and a half.
        let memo = Memo::new(one * 4 + one / 2);
        for i in 0..4 {
            store(&memo, &format!("u{i}"), &page);
        }
        assert_eq!(memo.len(), 4);
        // u0 used again: u1 is now the oldest.
        assert!(memo.get(&key("u0", &page)).is_some());
        store(&memo, "u4", &page);
        assert!(memo.get(&key("u1", &page)).is_none(), "LRU evicted");
        assert!(memo.get(&key("u0", &page)).is_some(), "recently used kept");
        assert!(memo.get(&key("u4", &page)).is_some());
        assert!(memo.used() <= memo.budget);
        for i in 5..1000 {
            store(&memo, &format!("u{i}"), &page);
            assert!(memo.used() <= memo.budget, "over budget at {i}");
        }
        let inner = memo.inner.borrow();
        assert_eq!(inner.entries.len(), inner.recency.len());
        let sum: usize = inner.entries.values().map(|e| e.cost).sum();
        assert_eq!(sum, inner.used);
    }

    #[test]
    fn big_entries_and_a_zero_budget_store_nothing() {
        let memo = Memo::new(4096);
        store(&memo, "big", &[b'y'; 2000]);
        assert!(memo.is_empty(), "over a quarter of the budget");
        let off = Memo::new(0);
        assert!(!off.enabled());
        store(&off, "u", b"<p>a</p>");
        assert!(off.is_empty());
        assert!(off.get(&key("u", b"<p>a</p>")).is_none());
    }
}
