//! The conversion engine for JavaScript: a wasm-bindgen front over [`agent_markdown::convert`].
//!
//! The crate has two layers. This module is plain Rust (options, validation, the result
//! shape) and is unit-tested natively; [`js`] is the wasm-bindgen glue, compiled only for
//! `wasm32`, and does nothing but move values across the boundary.
//!
//! JS API (see `README.md`):
//!
//! ```ts
//! convert(html: string | Uint8Array, options?: ConvertOptions): ConvertResult
//! estimateTokens(text: string): number
//! ```

use agent_markdown::{tokens, Options, Output};
use serde::{Deserialize, Serialize};

#[cfg(target_arch = "wasm32")]
pub mod js;

/// Options as JavaScript passes them: every key optional, camelCase, unknown keys refused so
/// that a typo (`frontmatter`) is an error instead of a silently ignored setting.
#[derive(Debug, Default, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ConvertOptions {
    /// Absolute http(s) URL of the page; relative links resolve against it.
    pub base_url: Option<String>,
    /// The response's `Content-Type`; its `charset` is used for byte input only.
    pub content_type: Option<String>,
    /// Emit YAML front matter (default `true`).
    pub front_matter: Option<bool>,
    /// Keep only the main content (default `true`).
    pub prune: Option<bool>,
}

impl ConvertOptions {
    /// The keys JavaScript may pass, as serde names them.
    pub const KEYS: [&'static str; 4] = ["baseUrl", "contentType", "frontMatter", "prune"];

    /// Refuse keys that are not options. serde-wasm-bindgen reads a struct by looking up its
    /// declared fields, so `deny_unknown_fields` never sees the others; the glue checks the
    /// object's own keys with this first (same message as serde's).
    pub fn check_keys<I, K>(keys: I) -> Result<(), OptionError>
    where
        I: IntoIterator<Item = K>,
        K: AsRef<str>,
    {
        for key in keys {
            let key = key.as_ref();
            if !Self::KEYS.contains(&key) {
                let expected = Self::KEYS.map(|k| format!("`{k}`")).join(", ");
                return Err(OptionError(format!(
                    "unknown field `{key}`, expected one of {expected}"
                )));
            }
        }
        Ok(())
    }
}

/// An option value that is well-typed but unusable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionError(pub String);

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OptionError {}

/// The document to convert: text already decoded by the caller, or raw response bytes.
#[derive(Debug, Clone, Copy)]
pub enum Html<'a> {
    /// A JavaScript string. It is Unicode text, so it is always read as UTF-8: a
    /// `<meta charset>` in it (or a `contentType` charset) describes bytes it no longer has.
    Text(&'a str),
    /// Bytes as fetched, decoded like the filter and `md-convert` do (BOM, `contentType`
    /// charset, `<meta>` prescan, UTF-8).
    Bytes(&'a [u8]),
}

/// What the engine sees for text input: the charset parameter outranks any `<meta>`.
const TEXT_CONTENT_TYPE: &str = "text/html; charset=utf-8";

impl ConvertOptions {
    /// Engine options for `html`, or why these options cannot be used.
    pub fn to_engine(&self, html: Html<'_>) -> Result<Options, OptionError> {
        if let Some(base) = &self.base_url {
            if !is_web_url(base) {
                return Err(OptionError(format!(
                    "baseUrl: must be an absolute http(s) URL, got {base:?}"
                )));
            }
        }
        let defaults = Options::default();
        Ok(Options {
            base_url: self.base_url.clone(),
            content_type: match html {
                Html::Text(_) => Some(TEXT_CONTENT_TYPE.to_owned()),
                Html::Bytes(_) => self.content_type.clone(),
            },
            front_matter: self.front_matter.unwrap_or(defaults.front_matter),
            prune: self.prune.unwrap_or(defaults.prune),
        })
    }
}

/// The engine silently ignores a base URL that is not an absolute web URL; a JS caller who
/// passes one (a path, a typo) gets an error instead of unresolved links.
fn is_web_url(raw: &str) -> bool {
    url::Url::parse(raw.trim()).is_ok_and(|u| matches!(u.scheme(), "http" | "https"))
}

/// The result object handed to JavaScript (`ConvertResult` in the TypeScript types).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConvertResult {
    pub markdown: String,
    /// Estimated o200k_base tokens of `markdown`.
    pub tokens: u64,
    /// Strong ETag of the Markdown bytes, quoted, as the filter sends it.
    pub etag: String,
    pub title: Option<String>,
    /// The encoding the input was decoded from (`UTF-8` for text input).
    pub encoding: &'static str,
}

impl From<Output> for ConvertResult {
    fn from(out: Output) -> Self {
        ConvertResult {
            markdown: out.markdown,
            tokens: out.tokens,
            etag: out.etag,
            title: out.title,
            encoding: out.encoding,
        }
    }
}

/// Convert `html` with `options`; fails only on unusable options.
pub fn convert(html: Html<'_>, options: &ConvertOptions) -> Result<ConvertResult, OptionError> {
    let engine_options = options.to_engine(html)?;
    let bytes = match html {
        Html::Text(text) => text.as_bytes(),
        Html::Bytes(bytes) => bytes,
    };
    Ok(agent_markdown::convert(bytes, &engine_options).into())
}

/// The engine's token estimate for any text (the playground applies it to the HTML to show
/// what the Markdown saves).
pub fn estimate_tokens(text: &str) -> u64 {
    tokens::estimate(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<ConvertOptions, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn empty_options_are_the_engine_defaults() {
        let opts = parse("{}").unwrap();
        assert_eq!(opts, ConvertOptions::default());
        let html = b"<html><head><title>T</title></head><body><main><h1>Hi</h1><p>x <a href=\"/a\">a</a></p></main></body></html>";
        let ours = convert(Html::Bytes(html), &opts).unwrap();
        let engine = agent_markdown::convert(html, &Options::default());
        assert_eq!(ours, ConvertResult::from(engine));
        assert!(
            ours.markdown.starts_with("---\ntitle: "),
            "{}",
            ours.markdown
        );
        assert_eq!(ours.title.as_deref(), Some("T"));
    }

    #[test]
    fn camel_case_keys_reach_the_engine() {
        let opts = parse(
            r#"{"baseUrl": "https://example.com/docs/", "contentType": "text/html; charset=koi8-r",
                "frontMatter": false, "prune": false}"#,
        )
        .unwrap();
        let engine = opts.to_engine(Html::Bytes(b"")).unwrap();
        assert_eq!(
            engine.base_url.as_deref(),
            Some("https://example.com/docs/")
        );
        assert_eq!(
            engine.content_type.as_deref(),
            Some("text/html; charset=koi8-r")
        );
        assert!(!engine.front_matter);
        assert!(!engine.prune);

        let out = convert(Html::Text("<p><a href=\"x.html\">x</a></p>"), &opts).unwrap();
        assert_eq!(out.markdown, "[x](https://example.com/docs/x.html)\n");
    }

    #[test]
    fn unknown_keys_and_wrong_types_are_errors() {
        let err = parse(r#"{"frontmatter": false}"#).unwrap_err();
        assert!(err.contains("unknown field `frontmatter`"), "{err}");
        assert!(err.contains("`frontMatter`"), "{err}");
        let err = parse(r#"{"prune": "no"}"#).unwrap_err();
        assert!(
            err.contains("invalid type: string \"no\", expected a boolean"),
            "{err}"
        );
        let err = parse(r#"{"baseUrl": 7}"#).unwrap_err();
        assert!(err.contains("invalid type: integer `7`"), "{err}");
    }

    #[test]
    fn key_check_agrees_with_serde() {
        // Every listed key is one serde accepts, and an unknown one fails both ways alike.
        for key in ConvertOptions::KEYS {
            assert!(parse(&format!("{{\"{key}\": null}}")).is_ok(), "{key}");
        }
        assert_eq!(ConvertOptions::check_keys(ConvertOptions::KEYS), Ok(()));
        assert_eq!(ConvertOptions::check_keys(Vec::<String>::new()), Ok(()));
        let ours = ConvertOptions::check_keys(["prune", "frontmatter"]).unwrap_err();
        let serde = parse(r#"{"frontmatter": false}"#).unwrap_err();
        assert!(serde.starts_with(&ours.0), "ours: {ours}\nserde: {serde}");
    }

    #[test]
    fn base_url_must_be_absolute_http() {
        for bad in [
            "",
            "/docs/page",
            "example.com",
            "javascript:alert(1)",
            "file:///etc",
        ] {
            let opts = ConvertOptions {
                base_url: Some(bad.to_owned()),
                ..ConvertOptions::default()
            };
            let err = convert(Html::Text("<p>x</p>"), &opts).unwrap_err();
            assert!(
                err.0
                    .starts_with("baseUrl: must be an absolute http(s) URL"),
                "{err}"
            );
        }
        for good in ["http://127.0.0.1:8088/a", " https://example.com "] {
            let opts = ConvertOptions {
                base_url: Some(good.to_owned()),
                ..ConvertOptions::default()
            };
            assert!(convert(Html::Text("<p>x</p>"), &opts).is_ok(), "{good}");
        }
    }

    #[test]
    fn text_is_read_as_utf8_whatever_it_declares() {
        // A JS string holding a page that said windows-1252 when it was still bytes.
        let html = "<meta charset=windows-1252><p>café — €5</p>";
        let opts = ConvertOptions {
            content_type: Some("text/html; charset=iso-8859-5".to_owned()),
            ..ConvertOptions::default()
        };
        let out = convert(Html::Text(html), &opts).unwrap();
        assert_eq!(out.markdown, "café — €5\n");
        assert_eq!(out.encoding, "UTF-8");
    }

    #[test]
    fn bytes_follow_the_declared_charset() {
        // "café" in windows-1252: é is 0xE9.
        let html = b"<meta charset=windows-1252><p>caf\xe9</p>";
        let out = convert(Html::Bytes(html), &ConvertOptions::default()).unwrap();
        assert_eq!(out.markdown, "café\n");
        assert_eq!(out.encoding, "windows-1252");
        // The contentType charset outranks the <meta>: 0xE9 is "щ" in KOI8-R.
        let opts = ConvertOptions {
            content_type: Some("text/html; charset=koi8-r".to_owned()),
            ..ConvertOptions::default()
        };
        let out = convert(Html::Bytes(html), &opts).unwrap();
        assert_eq!(out.markdown, "cafИ\n");
        assert_eq!(out.encoding, "KOI8-R");
    }

    #[test]
    fn hostile_markup_does_not_survive() {
        let html = "<a href=\"javascript:alert(1)\">x</a><script>alert(2)</script>\
                    <img src=x onerror=alert(3)><p onclick=alert(4)>ok</p>";
        let out = convert(Html::Text(html), &ConvertOptions::default()).unwrap();
        assert!(!out.markdown.contains("javascript"), "{}", out.markdown);
        assert!(!out.markdown.contains("alert"), "{}", out.markdown);
        assert!(out.markdown.contains("ok"), "{}", out.markdown);
    }

    #[test]
    fn token_estimate_is_the_engine_one() {
        let text = "<div class=\"nav\"><a href=\"/\">Home</a></div> Hello, world!";
        assert_eq!(estimate_tokens(text), tokens::estimate(text));
        assert!(estimate_tokens(text) > 5);
        assert_eq!(estimate_tokens(""), 0);
    }
}
