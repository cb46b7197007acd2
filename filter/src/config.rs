//! Plugin configuration: a JSON object passed as the Wasm plugin's `configuration`
//! (a `google.protobuf.StringValue`). Empty or absent configuration means all defaults.
//!
//! | key                       | type            | default                                   |
//! |---------------------------|-----------------|-------------------------------------------|
//! | `content_types`           | array of string | `["text/html", "application/xhtml+xml"]`  |
//! | `max_body_bytes`          | integer         | `10485760` (10 MiB), range 1..=1073741824 |
//! | `accept_wildcard`         | bool            | `false`                                   |
//! | `conditional`             | string          | `"full"` (`"full"`, `"ims_only"`, `"off"`) |
//! | `head`                    | string          | `"convert"` (`"convert"`, `"passthrough"`) |
//! | `front_matter`            | bool            | `true`                                    |
//! | `prune`                   | bool            | `true`                                    |
//! | `content_signal`          | string or null  | `null`                                    |
//! | `tokens_header`           | string          | `"x-markdown-tokens"`                     |
//! | `trusted_forwarded_proto` | bool            | `false`                                   |
//! | `vary_on_passthrough`     | bool            | `true`                                    |
//! | `memo_bytes`              | integer         | `8388608` (8 MiB), range 0..=1073741824; 0 = off |
//!
//! Validation is strict so that a typo is caught when Envoy loads the filter rather than
//! silently ignored: an unknown key or a bad value yields a [`ConfigError`] naming the key,
//! and the root context refuses the configuration.

use std::fmt;

use serde_json::{Map, Value};

/// Largest accepted `max_body_bytes` (1 GiB): the engine's own input limit, and far
/// beyond what a 32-bit Wasm VM should hold in one buffer.
pub const MAX_BODY_BYTES_LIMIT: u64 = 1 << 30;
/// Default `max_body_bytes` (10 MiB).
pub const DEFAULT_MAX_BODY_BYTES: u64 = 10 << 20;
/// Default `memo_bytes` (8 MiB per worker): room for hundreds of typical pages.
pub const DEFAULT_MEMO_BYTES: u64 = 8 << 20;
/// Upper bound on `content_types` entries; the list is scanned once per response.
pub const MAX_CONTENT_TYPES: usize = 64;
/// Upper bound on the length of `content_signal` and `tokens_header`.
const MAX_HEADER_TEXT: usize = 1024;

/// How conditional requests on Markdown responses are handled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conditional {
    /// Strip `If-None-Match`/`If-Modified-Since` upstream on Markdown requests, emit the
    /// Markdown ETag and answer `304` when the client's `If-None-Match` matches it.
    Full,
    /// Leave `If-Modified-Since` (and all other request headers) to the upstream, whose `304`
    /// passes through; converted responses carry no ETag at all.
    ImsOnly,
    /// No conditional handling: request headers untouched, the Markdown ETag is still
    /// emitted (replacing the upstream's), but the filter never answers `304` itself.
    Off,
}

/// What to do with `HEAD` requests that negotiate Markdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeadMode {
    /// Fetch with `GET` upstream, convert, and answer with headers only.
    Convert,
    /// Forward `HEAD` unchanged; the response passes through (reason `method`).
    Passthrough,
}

/// Validated plugin configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Lower-cased media types (no parameters) whose responses are converted.
    pub content_types: Vec<String>,
    /// Largest response body (declared or buffered) the filter converts.
    pub max_body_bytes: u64,
    /// Whether `*/*` or `text/*` alone (without `text/markdown`) also selects Markdown.
    pub accept_wildcard: bool,
    pub conditional: Conditional,
    pub head: HeadMode,
    pub front_matter: bool,
    pub prune: bool,
    /// Value of the `Content-Signal` header on converted responses, if any.
    pub content_signal: Option<String>,
    /// Lower-cased name of the token-count header.
    pub tokens_header: String,
    /// Take the request URL's scheme from `X-Forwarded-Proto` instead of `:scheme`.
    pub trusted_forwarded_proto: bool,
    /// Add `Vary: Accept` to convertible HTML that passes through unconverted.
    pub vary_on_passthrough: bool,
    /// Budget of the per-worker conversion memo ([`crate::memo`]); 0 disables it.
    pub memo_bytes: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            content_types: vec!["text/html".into(), "application/xhtml+xml".into()],
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            accept_wildcard: false,
            conditional: Conditional::Full,
            head: HeadMode::Convert,
            front_matter: true,
            prune: true,
            content_signal: None,
            tokens_header: "x-markdown-tokens".into(),
            trusted_forwarded_proto: false,
            vary_on_passthrough: true,
            memo_bytes: DEFAULT_MEMO_BYTES,
        }
    }
}

/// A rejected configuration: which key, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub key: String,
    pub reason: String,
}

impl ConfigError {
    fn new(key: &str, reason: impl Into<String>) -> Self {
        ConfigError {
            key: key.to_owned(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.key, self.reason)
    }
}

impl std::error::Error for ConfigError {}

/// Headers the filter itself sets or removes on converted responses; using one of them as
/// `tokens_header` would silently clobber the filter's own output.
const MANAGED_HEADERS: &[&str] = &[
    "accept-ranges",
    "cache-control",
    "connection",
    "content-digest",
    "content-encoding",
    "content-length",
    "content-md5",
    "content-signal",
    "content-type",
    "digest",
    "etag",
    "last-modified",
    "repr-digest",
    "set-cookie",
    "transfer-encoding",
    "vary",
];

impl Config {
    /// Parse and validate the plugin configuration bytes.
    pub fn parse(bytes: &[u8]) -> Result<Config, ConfigError> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Config::default());
        }
        let value: Value = serde_json::from_slice(bytes)
            .map_err(|e| ConfigError::new("configuration", format!("not valid JSON: {e}")))?;
        let Value::Object(map) = value else {
            return Err(ConfigError::new(
                "configuration",
                "must be a JSON object of options",
            ));
        };
        Config::from_map(&map)
    }

    fn from_map(map: &Map<String, Value>) -> Result<Config, ConfigError> {
        let mut cfg = Config::default();
        for (key, value) in map {
            let k = key.as_str();
            match k {
                "content_types" => cfg.content_types = content_types(k, value)?,
                "max_body_bytes" => cfg.max_body_bytes = max_body_bytes(k, value)?,
                "accept_wildcard" => cfg.accept_wildcard = boolean(k, value)?,
                "conditional" => {
                    cfg.conditional = match string(k, value)? {
                        "full" => Conditional::Full,
                        "ims_only" => Conditional::ImsOnly,
                        "off" => Conditional::Off,
                        _ => {
                            return Err(ConfigError::new(
                                k,
                                "must be one of \"full\", \"ims_only\", \"off\"",
                            ))
                        }
                    }
                }
                "head" => {
                    cfg.head = match string(k, value)? {
                        "convert" => HeadMode::Convert,
                        "passthrough" => HeadMode::Passthrough,
                        _ => {
                            return Err(ConfigError::new(
                                k,
                                "must be one of \"convert\", \"passthrough\"",
                            ))
                        }
                    }
                }
                "front_matter" => cfg.front_matter = boolean(k, value)?,
                "prune" => cfg.prune = boolean(k, value)?,
                "content_signal" => cfg.content_signal = content_signal(k, value)?,
                "tokens_header" => cfg.tokens_header = tokens_header(k, value)?,
                "trusted_forwarded_proto" => cfg.trusted_forwarded_proto = boolean(k, value)?,
                "vary_on_passthrough" => cfg.vary_on_passthrough = boolean(k, value)?,
                "memo_bytes" => cfg.memo_bytes = memo_bytes(k, value)?,
                _ => return Err(ConfigError::new(k, "unknown key")),
            }
        }
        Ok(cfg)
    }

    /// Whether `media_type` (already lower-cased, without parameters) is convertible.
    pub fn is_convertible_type(&self, media_type: &str) -> bool {
        self.content_types.iter().any(|t| t == media_type)
    }
}

fn boolean(key: &str, value: &Value) -> Result<bool, ConfigError> {
    value
        .as_bool()
        .ok_or_else(|| ConfigError::new(key, "must be true or false"))
}

fn string<'v>(key: &str, value: &'v Value) -> Result<&'v str, ConfigError> {
    value
        .as_str()
        .ok_or_else(|| ConfigError::new(key, "must be a string"))
}

fn max_body_bytes(key: &str, value: &Value) -> Result<u64, ConfigError> {
    let n = value
        .as_u64()
        .ok_or_else(|| ConfigError::new(key, "must be a positive integer"))?;
    if (1..=MAX_BODY_BYTES_LIMIT).contains(&n) {
        Ok(n)
    } else {
        Err(ConfigError::new(
            key,
            format!("must be between 1 and {MAX_BODY_BYTES_LIMIT}"),
        ))
    }
}

fn memo_bytes(key: &str, value: &Value) -> Result<u64, ConfigError> {
    match value.as_u64() {
        Some(n) if n <= MAX_BODY_BYTES_LIMIT => Ok(n),
        _ => Err(ConfigError::new(
            key,
            format!("must be an integer between 0 (off) and {MAX_BODY_BYTES_LIMIT}"),
        )),
    }
}

fn content_types(key: &str, value: &Value) -> Result<Vec<String>, ConfigError> {
    let items = value
        .as_array()
        .ok_or_else(|| ConfigError::new(key, "must be an array of media types"))?;
    if items.is_empty() {
        return Err(ConfigError::new(key, "must list at least one media type"));
    }
    if items.len() > MAX_CONTENT_TYPES {
        return Err(ConfigError::new(
            key,
            format!("must list at most {MAX_CONTENT_TYPES} media types"),
        ));
    }
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        let s = item
            .as_str()
            .ok_or_else(|| ConfigError::new(key, "entries must be strings"))?;
        let media_type = concrete_media_type(s).ok_or_else(|| {
            ConfigError::new(
                key,
                format!("{s:?} is not a media type of the form type/subtype (no parameters or wildcards)"),
            )
        })?;
        if !out.contains(&media_type) {
            out.push(media_type);
        }
    }
    Ok(out)
}

/// `type/subtype` with both parts RFC 9110 tokens and neither a wildcard, lower-cased.
fn concrete_media_type(s: &str) -> Option<String> {
    let (ty, sub) = s.split_once('/')?;
    let ok = |part: &str| is_token(part) && part != "*";
    (ok(ty) && ok(sub)).then(|| s.to_ascii_lowercase())
}

fn content_signal(key: &str, value: &Value) -> Result<Option<String>, ConfigError> {
    if value.is_null() {
        return Ok(None);
    }
    let s = value
        .as_str()
        .ok_or_else(|| ConfigError::new(key, "must be a string or null"))?;
    if s.is_empty() || s.len() > MAX_HEADER_TEXT {
        return Err(ConfigError::new(
            key,
            format!("must be 1 to {MAX_HEADER_TEXT} characters"),
        ));
    }
    // A header value: visible ASCII with inner spaces/tabs. Rejecting CR, LF and NUL keeps
    // a configured value from ever splitting or truncating the response headers.
    let visible = |b: u8| (0x21..=0x7e).contains(&b);
    let bytes = s.as_bytes();
    let inner_ok = bytes.iter().all(|&b| visible(b) || b == b' ' || b == b'\t');
    let edges_ok =
        bytes.first().is_some_and(|&b| visible(b)) && bytes.last().is_some_and(|&b| visible(b));
    if inner_ok && edges_ok {
        Ok(Some(s.to_owned()))
    } else {
        Err(ConfigError::new(
            key,
            "must be visible ASCII (spaces and tabs allowed inside, no CR, LF, NUL or other control characters)",
        ))
    }
}

fn tokens_header(key: &str, value: &Value) -> Result<String, ConfigError> {
    let s = string(key, value)?;
    if s.len() > MAX_HEADER_TEXT || !is_token(s) {
        return Err(ConfigError::new(
            key,
            format!("{s:?} is not a valid header name"),
        ));
    }
    let name = s.to_ascii_lowercase();
    if MANAGED_HEADERS.contains(&name.as_str()) {
        return Err(ConfigError::new(
            key,
            format!("{name:?} is a header the filter already manages"),
        ));
    }
    Ok(name)
}

/// RFC 9110 `token`: one or more `tchar`.
pub(crate) fn is_token(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(is_tchar)
}

/// RFC 9110 `tchar`.
pub(crate) fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(json: &str) -> ConfigError {
        match Config::parse(json.as_bytes()) {
            Ok(cfg) => panic!("expected {json} to be rejected, got {cfg:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn empty_or_blank_configuration_is_all_defaults() {
        for raw in ["", "  \n\t", "{}"] {
            assert_eq!(
                Config::parse(raw.as_bytes()),
                Ok(Config::default()),
                "{raw:?}"
            );
        }
        let d = Config::default();
        assert_eq!(d.content_types, ["text/html", "application/xhtml+xml"]);
        assert_eq!(d.max_body_bytes, 10_485_760);
        assert!(!d.accept_wildcard);
        assert_eq!(d.conditional, Conditional::Full);
        assert_eq!(d.head, HeadMode::Convert);
        assert!(d.front_matter && d.prune && d.vary_on_passthrough);
        assert!(!d.trusted_forwarded_proto);
        assert_eq!(d.content_signal, None);
        assert_eq!(d.tokens_header, "x-markdown-tokens");
        assert_eq!(d.memo_bytes, 8_388_608);
    }

    #[test]
    fn every_key_is_read() {
        let cfg = Config::parse(
            br#"{
                "content_types": ["Text/HTML", "text/x-page", "text/html"],
                "max_body_bytes": 2048,
                "accept_wildcard": true,
                "conditional": "ims_only",
                "head": "passthrough",
                "front_matter": false,
                "prune": false,
                "content_signal": "ai-train=no, search=yes, ai-input=yes",
                "tokens_header": "X-Tokens",
                "trusted_forwarded_proto": true,
                "vary_on_passthrough": false,
                "memo_bytes": 0
            }"#,
        )
        .expect("valid configuration");
        assert_eq!(
            cfg,
            Config {
                content_types: vec!["text/html".into(), "text/x-page".into()],
                max_body_bytes: 2048,
                accept_wildcard: true,
                conditional: Conditional::ImsOnly,
                head: HeadMode::Passthrough,
                front_matter: false,
                prune: false,
                content_signal: Some("ai-train=no, search=yes, ai-input=yes".into()),
                tokens_header: "x-tokens".into(),
                trusted_forwarded_proto: true,
                vary_on_passthrough: false,
                memo_bytes: 0,
            }
        );
        assert!(cfg.is_convertible_type("text/x-page"));
        assert!(!cfg.is_convertible_type("application/xhtml+xml"));
    }

    #[test]
    fn conditional_off_and_content_signal_null() {
        let cfg = Config::parse(br#"{"conditional":"off","content_signal":null}"#).unwrap();
        assert_eq!(cfg.conditional, Conditional::Off);
        assert_eq!(cfg.content_signal, None);
    }

    #[test]
    fn unknown_key_is_named() {
        let e = err(r#"{"max_body_bytes": 5, "max_body": 5}"#);
        assert_eq!(e.key, "max_body");
        assert_eq!(e.to_string(), "max_body: unknown key");
    }

    #[test]
    fn bad_values_name_their_key() {
        let cases = [
            (r#"{"content_types": "text/html"}"#, "content_types"),
            (r#"{"content_types": []}"#, "content_types"),
            (r#"{"content_types": ["text/*"]}"#, "content_types"),
            (r#"{"content_types": ["*/*"]}"#, "content_types"),
            (
                r#"{"content_types": ["text/html; charset=utf-8"]}"#,
                "content_types",
            ),
            (r#"{"content_types": ["html"]}"#, "content_types"),
            (r#"{"content_types": [1]}"#, "content_types"),
            (r#"{"max_body_bytes": 0}"#, "max_body_bytes"),
            (r#"{"max_body_bytes": 1073741825}"#, "max_body_bytes"),
            (r#"{"max_body_bytes": -1}"#, "max_body_bytes"),
            (r#"{"max_body_bytes": 1.5}"#, "max_body_bytes"),
            (r#"{"max_body_bytes": "10"}"#, "max_body_bytes"),
            (r#"{"accept_wildcard": "yes"}"#, "accept_wildcard"),
            (r#"{"conditional": "FULL"}"#, "conditional"),
            (r#"{"conditional": true}"#, "conditional"),
            (r#"{"head": "get"}"#, "head"),
            (r#"{"front_matter": 1}"#, "front_matter"),
            (r#"{"prune": null}"#, "prune"),
            (
                r#"{"content_signal": "a\r\nx-injected: 1"}"#,
                "content_signal",
            ),
            (r#"{"content_signal": "a\u0000b"}"#, "content_signal"),
            (r#"{"content_signal": "caf\u00e9"}"#, "content_signal"),
            (r#"{"content_signal": ""}"#, "content_signal"),
            (r#"{"content_signal": " leading"}"#, "content_signal"),
            (r#"{"content_signal": 3}"#, "content_signal"),
            (r#"{"tokens_header": "x tokens"}"#, "tokens_header"),
            (r#"{"tokens_header": ""}"#, "tokens_header"),
            (r#"{"tokens_header": ":status"}"#, "tokens_header"),
            (r#"{"tokens_header": "Content-Length"}"#, "tokens_header"),
            (r#"{"tokens_header": "x-tok\r\n"}"#, "tokens_header"),
            (
                r#"{"trusted_forwarded_proto": "true"}"#,
                "trusted_forwarded_proto",
            ),
            (r#"{"vary_on_passthrough": 0}"#, "vary_on_passthrough"),
            (r#"{"memo_bytes": -1}"#, "memo_bytes"),
            (r#"{"memo_bytes": 1073741825}"#, "memo_bytes"),
            (r#"{"memo_bytes": "8M"}"#, "memo_bytes"),
            (r#"{"memo_bytes": 1.5}"#, "memo_bytes"),
        ];
        for (json, key) in cases {
            assert_eq!(err(json).key, key, "{json}");
        }
    }

    #[test]
    fn limits_are_inclusive() {
        let max = format!(r#"{{"max_body_bytes": {MAX_BODY_BYTES_LIMIT}}}"#);
        assert_eq!(
            Config::parse(max.as_bytes()).unwrap().max_body_bytes,
            MAX_BODY_BYTES_LIMIT
        );
        assert_eq!(
            Config::parse(br#"{"max_body_bytes": 1}"#)
                .unwrap()
                .max_body_bytes,
            1
        );
        let many: Vec<String> = (0..=MAX_CONTENT_TYPES)
            .map(|i| format!("\"text/x{i}\""))
            .collect();
        let json = format!(r#"{{"content_types": [{}]}}"#, many.join(","));
        assert_eq!(err(&json).key, "content_types");
    }

    #[test]
    fn malformed_documents_are_rejected() {
        for json in ["{", "[]", "\"full\"", "null", "{\"head\": }", "\u{feff}{}"] {
            assert_eq!(err(json).key, "configuration", "{json:?}");
        }
        let e = Config::parse(&[b'{', 0xff, b'}']).unwrap_err();
        assert_eq!(e.key, "configuration");
    }

    /// The README's configuration reference is the operator's contract: it names every
    /// field of `Config` (whose names are the keys), and each documented default parses to
    /// the real one.
    #[test]
    fn readme_reference_names_every_key_with_its_real_default() {
        let rows: Vec<(&str, &str)> = crate::readme_section("Configuration reference")
            .filter_map(|l| {
                let mut cells = l.strip_prefix("| `")?.split(" | ");
                let key = cells.next()?.strip_suffix('`')?;
                let default = cells.nth(1)?.split('`').nth(1)?;
                Some((key, default))
            })
            .collect();
        let documented: Vec<&str> = rows.iter().map(|&(key, _)| key).collect();
        // `{:#?}` puts each field of the struct on its own line, four spaces in.
        let pretty = format!("{:#?}", Config::default());
        let fields: Vec<&str> = pretty
            .lines()
            .filter_map(|l| l.strip_prefix("    ")?.split_once(':'))
            .map(|(name, _)| name)
            .filter(|name| !name.starts_with(' '))
            .collect();
        assert!(fields.contains(&"max_body_bytes"), "{pretty}");
        assert_eq!(documented, fields, "README rows against Config's fields");
        for (key, default) in rows {
            let json = format!("{{\"{key}\": {default}}}");
            assert_eq!(
                Config::parse(json.as_bytes()),
                Ok(Config::default()),
                "README default of {key}: {json}"
            );
        }
    }
}
