//! HTML → GitHub-flavoured Markdown for AI agents.
//!
//! Pipeline (one module per stage): [`decode`] (charset) → [`dom`] (arena filled by `build`,
//! or by html5ever's tree builder where `build` gives way)
//! → [`select`] (main content, pruning) → [`render`] (Markdown writer over an explicit stack)
//! → [`meta`] (front matter, ETag) and [`tokens`] (token estimate).
//!
//! The crate knows nothing about proxies: the Envoy filter, the `md-convert` CLI and the
//! wasm-pack build are thin fronts over [`convert`].

mod build;
pub mod decode;
pub mod depth;
pub mod dom;
mod hidden;
mod lex;
pub mod meta;
pub mod render;
pub mod select;
mod tabs;
pub mod tokens;
pub mod urls;

/// Conversion options. `Default` is what the filter and `md-convert` use unless told otherwise.
#[derive(Debug, Clone)]
pub struct Options {
    /// Absolute URL the page was fetched from; relative links resolve against it
    /// (after any `<base href>`), and it is the fallback canonical URL in front matter.
    pub base_url: Option<String>,
    /// The response's `Content-Type` header value, used for its `charset` parameter.
    pub content_type: Option<String>,
    /// Emit YAML front matter (title, description, url, lang, image, author, published).
    pub front_matter: bool,
    /// Keep only the main content (`<main>`, `[role=main]`, one `<article>`, or a scored
    /// candidate), dropping navigation, banners, footers and similar boilerplate.
    pub prune: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            base_url: None,
            content_type: None,
            front_matter: true,
            prune: true,
        }
    }
}

/// Result of one conversion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// UTF-8 Markdown, ending with exactly one newline (empty for an empty document).
    pub markdown: String,
    /// Estimated LLM tokens of `markdown` (see [`tokens`]).
    pub tokens: u64,
    /// Strong ETag of the exact Markdown bytes, quoted: `"` + 32 hex digits + `"`.
    pub etag: String,
    /// Document title, if any.
    pub title: Option<String>,
    /// Name of the character encoding the input was decoded from.
    pub encoding: &'static str,
}

/// Inputs larger than this are cut (a wasm32 VM addresses 4 GiB; the filter's own cap is far
/// below). Documented so that no caller is surprised.
pub const MAX_INPUT_BYTES: usize = 1 << 30;

/// Convert an HTML document to Markdown. Never fails: undecodable bytes become U+FFFD and
/// any HTML, however malformed or deep, yields some Markdown.
pub fn convert(input: &[u8], opts: &Options) -> Output {
    convert_with(input, opts, &mut NoClock)
}

/// Wall time spent in each stage of one [`convert`] call.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StageTimes {
    /// Charset detection and decoding to UTF-8.
    pub decode: std::time::Duration,
    /// Attribute cap, tokenizer and tree construction.
    pub parse: std::time::Duration,
    /// Page metadata and main-content selection.
    pub select: std::time::Duration,
    /// Markdown rendering and front matter.
    pub render: std::time::Duration,
    /// Token estimate.
    pub tokens: std::time::Duration,
    /// SHA-256 ETag.
    pub etag: std::time::Duration,
}

impl StageTimes {
    /// Each stage's name (as `md-convert --bench` reports it) and time, in pipeline order.
    pub fn by_stage(&self) -> [(&'static str, std::time::Duration); 6] {
        [
            ("decode", self.decode),
            ("parse", self.parse),
            ("select", self.select),
            ("render", self.render),
            ("tokens", self.tokens),
            ("etag", self.etag),
        ]
    }

    /// The time of all stages together.
    pub fn total(&self) -> std::time::Duration {
        self.by_stage().iter().map(|(_, d)| *d).sum()
    }
}

/// [`convert`] with the time of each stage (for benchmarks; reads the clock between stages,
/// so it needs a platform with `std::time::Instant`).
pub fn convert_timed(input: &[u8], opts: &Options) -> (Output, StageTimes) {
    let mut clock = Clock {
        last: std::time::Instant::now(),
        times: StageTimes::default(),
    };
    let out = convert_with(input, opts, &mut clock);
    (out, clock.times)
}

#[derive(Clone, Copy)]
enum Stage {
    Decode,
    Parse,
    Select,
    Render,
    Tokens,
    Etag,
}

/// Marks the end of a stage; the plain [`convert`] uses a clock that does nothing.
trait Lap {
    fn lap(&mut self, stage: Stage);
}

struct NoClock;

impl Lap for NoClock {
    #[inline(always)]
    fn lap(&mut self, _: Stage) {}
}

struct Clock {
    last: std::time::Instant,
    times: StageTimes,
}

impl Lap for Clock {
    fn lap(&mut self, stage: Stage) {
        let now = std::time::Instant::now();
        let spent = now.duration_since(self.last);
        self.last = now;
        let t = &mut self.times;
        *match stage {
            Stage::Decode => &mut t.decode,
            Stage::Parse => &mut t.parse,
            Stage::Select => &mut t.select,
            Stage::Render => &mut t.render,
            Stage::Tokens => &mut t.tokens,
            Stage::Etag => &mut t.etag,
        } += spent;
    }
}

/// Bytes set aside for the front matter in the output buffer (a typical one is 100–400).
const FRONT_MATTER_ROOM: usize = 512;

fn convert_with(input: &[u8], opts: &Options, clock: &mut impl Lap) -> Output {
    let input = input.get(..MAX_INPUT_BYTES).unwrap_or(input);
    let (text, encoding) = decode::decode(input, opts.content_type.as_deref());
    clock.lap(Stage::Decode);
    let mut dom = dom::Dom::parse(&text);
    tabs::show_named_panels(&mut dom);
    clock.lap(Stage::Parse);
    let page = meta::collect(&dom);
    let urls = urls::Resolver::new(opts.base_url.as_deref(), page.base_href.as_deref());
    let selection = select::select(&dom, &page, opts.prune);
    clock.lap(Stage::Select);
    // The front matter is written first and the Markdown rendered after it: joining them
    // afterwards would copy the whole Markdown once more. One buffer holds both from the
    // start: room for a front matter and for what the renderer reserves after it, so that
    // neither grows it step by step.
    let mut out = String::with_capacity(FRONT_MATTER_ROOM + input.len() / 4 + 64);
    if opts.front_matter {
        meta::write_front_matter(&mut out, &page, &urls);
    }
    let fm_len = out.len();
    if fm_len > 0 {
        out.push('\n');
    }
    let mut markdown = render::render_after(out, &dom, &selection, &urls, input.len());
    drop(dom);
    let body_empty = markdown.len() <= fm_len + usize::from(fm_len > 0);
    if fm_len > 0 && body_empty {
        // An empty page stays empty: a front matter holding only the URL the caller already
        // knows says nothing.
        let says_something = page.title.is_some()
            || page.description.is_some()
            || page.canonical.is_some()
            || page.image.is_some()
            || page.author.is_some()
            || page.published.is_some();
        markdown.truncate(if says_something { fm_len } else { 0 });
    }
    clock.lap(Stage::Render);
    finish(markdown, page.title, encoding, clock)
}

fn finish(
    markdown: String,
    title: Option<String>,
    encoding: &'static encoding_rs::Encoding,
    clock: &mut impl Lap,
) -> Output {
    let tokens = tokens::estimate(&markdown);
    clock.lap(Stage::Tokens);
    let etag = meta::etag(markdown.as_bytes());
    clock.lap(Stage::Etag);
    Output {
        tokens,
        etag,
        markdown,
        title,
        encoding: encoding.name(),
    }
}
