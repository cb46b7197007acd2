//! Invariants for the filter's header and configuration parsers, one `check_*` per fuzz
//! target. Shared by the fuzz targets and the native replay
//! (`filter/tests/fuzz_regressions.rs` includes this file by path), so it needs only what
//! the filter's tests already have: `markdown_filter`, `agent_markdown` and `serde_json`.
//!
//! Header inputs are raw bytes split on `\n` into field lines (Envoy never passes a newline
//! inside a value), so a seed file is simply the header as a client would send it. Each
//! check returns `Err` with the first violated invariant.

use agent_markdown::decode::{charset_param, decode};
use markdown_filter::coding::{self, Coding, Codings, DecodeError, MAX_CODINGS};
use markdown_filter::conditional::{IfNoneMatch, MAX_INM_BYTES, MAX_INM_TAGS};
use markdown_filter::config::{Conditional, Config, HeadMode, MAX_BODY_BYTES_LIMIT};
use markdown_filter::eligibility::{check_request, check_response, Method, Reason, ResponseHead};
use markdown_filter::headers::{
    content_length, has_no_transform, media_type, merge_vary, request_url, DeclaredLength, Header,
};
use markdown_filter::negotiate::{negotiate, parse_qvalue, Negotiation, MAX_ACCEPT_BYTES};
use serde_json::{json, Value};

type Check = Result<(), String>;

fn fail<T>(msg: impl Into<String>) -> Result<T, String> {
    Err(msg.into())
}

/// The field lines of an input: empty input means the field is absent.
pub fn lines(data: &[u8]) -> Vec<&[u8]> {
    if data.is_empty() {
        Vec::new()
    } else {
        data.split(|&b| b == b'\n').collect()
    }
}

/// Each line as one `name` field, the shape Envoy hands the filter.
pub fn fields(name: &str, lines: &[&[u8]]) -> Vec<Header> {
    lines
        .iter()
        .map(|v| (name.to_owned(), v.to_vec()))
        .collect()
}

fn lower(data: &[u8]) -> String {
    String::from_utf8_lossy(data).to_ascii_lowercase()
}

// ---------------------------------------------------------------------------------------
// Accept

/// `accept`: negotiation is bounded, independent of line order and of how the list is
/// split into lines, monotonic in `accept_wildcard`, only says Markdown when a range that
/// can name Markdown is present, and every q-value parses to 0..=1000 exactly when it
/// matches the RFC 9110 grammar.
pub fn check_accept(data: &[u8]) -> Check {
    let lines = lines(data);
    let headers = fields("accept", &lines);
    let plain = negotiate(&headers, false);
    let wild = negotiate(&headers, true);
    if (plain == Negotiation::Malformed) != (wild == Negotiation::Malformed) {
        return fail(format!(
            "accept_wildcard changed whether it parses: {plain:?} vs {wild:?}"
        ));
    }
    if plain == Negotiation::Markdown && wild != Negotiation::Markdown {
        return fail("accept_wildcard turned Markdown into {wild:?}");
    }
    let total: usize = lines.iter().map(|l| l.len()).sum();
    if total > MAX_ACCEPT_BYTES && plain != Negotiation::Malformed {
        return fail(format!("{total} bytes over the bound gave {plain:?}"));
    }
    let text = lower(data);
    if plain == Negotiation::Markdown && !text.contains("text/markdown") {
        return fail("Markdown negotiated without text/markdown");
    }
    if wild == Negotiation::Markdown
        && !["text/markdown", "text/*", "*/*"]
            .iter()
            .any(|r| text.contains(r))
    {
        return fail("Markdown negotiated (wildcard) without a range naming it");
    }
    let reversed: Vec<Header> = headers.iter().rev().cloned().collect();
    for flag in [false, true] {
        let want = if flag { wild } else { plain };
        let got = negotiate(&reversed, flag);
        if got != want {
            return fail(format!(
                "line order matters (wildcard {flag}): {want:?} vs {got:?}"
            ));
        }
    }
    // A well-formed list means the same as one line or as many.
    let joined = lines.join(&b","[..]);
    if plain != Negotiation::Malformed && joined.len() <= MAX_ACCEPT_BYTES {
        let one = [("accept".to_owned(), joined)];
        for flag in [false, true] {
            let want = if flag { wild } else { plain };
            let got = negotiate(&one, flag);
            if got != want {
                return fail(format!(
                    "joined into one line (wildcard {flag}): {want:?} vs {got:?}"
                ));
            }
        }
    }
    for line in &lines {
        check_qvalue(line)?;
        for piece in line.split(|&b| b == b';' || b == b',') {
            let piece = markdown_filter::headers::trim_ows(piece);
            if let Some(value) = piece
                .strip_prefix(b"q=")
                .or_else(|| piece.strip_prefix(b"Q="))
            {
                check_qvalue(value)?;
            }
        }
    }
    Ok(())
}

/// RFC 9110 `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, written
/// independently of the filter's parser, in thousandths.
fn qvalue_oracle(s: &[u8]) -> Option<u16> {
    let text = std::str::from_utf8(s).ok()?;
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths: u16 = format!("{frac:0<3}").parse().ok()?;
    match int {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

fn check_qvalue(s: &[u8]) -> Check {
    let got = parse_qvalue(s);
    let want = qvalue_oracle(s);
    if got != want {
        return fail(format!(
            "qvalue {:?}: parsed {got:?}, grammar says {want:?}",
            String::from_utf8_lossy(s)
        ));
    }
    if let Some(q) = got {
        if q > 1000 {
            return fail(format!("qvalue {q} out of range"));
        }
        let text = if q == 1000 {
            "1".to_owned()
        } else {
            format!("0.{q:03}")
        };
        if parse_qvalue(text.as_bytes()) != Some(q) {
            return fail(format!("qvalue {q} does not round-trip through {text:?}"));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// If-None-Match

/// `if_none_match`: a parse is bounded, `Absent` never matches, `*` always does, a tag list
/// matches exactly the ETags whose opaque part it lists (checked against a real engine
/// ETag and against its own tags, strong and weak), re-serialising a tag list parses back
/// to the same list, and line order does not change what matches.
pub fn check_if_none_match(data: &[u8]) -> Check {
    let lines = lines(data);
    let headers = fields("if-none-match", &lines);
    let inm = IfNoneMatch::parse(&headers);
    let ours = agent_markdown::meta::etag(data);
    let opaque = ours.trim_matches('"');
    match &inm {
        IfNoneMatch::Absent => {
            if inm.matches(&ours) {
                return fail("Absent matched");
            }
        }
        IfNoneMatch::Any => {
            if !inm.matches(&ours) || !inm.matches("\"\"") {
                return fail("* did not match");
            }
            if !data.contains(&b'*') {
                return fail("Any without a *");
            }
        }
        IfNoneMatch::Tags(tags) => {
            let total: usize = lines.iter().map(|l| l.len()).sum();
            if tags.is_empty() || tags.len() > MAX_INM_TAGS || total > MAX_INM_BYTES {
                return fail(format!(
                    "{} tags from {total} bytes are outside the bounds",
                    tags.len()
                ));
            }
            for tag in tags {
                if !tag
                    .iter()
                    .all(|&b| b == 0x21 || (0x23..=0x7e).contains(&b) || b >= 0x80)
                {
                    return fail(format!("tag {tag:?} has bytes outside etagc"));
                }
                if let Ok(t) = std::str::from_utf8(tag) {
                    for form in [format!("\"{t}\""), format!("W/\"{t}\"")] {
                        if !inm.matches(&form) {
                            return fail(format!("its own tag {form:?} did not match"));
                        }
                    }
                }
            }
            let listed = tags.iter().any(|t| t.as_slice() == opaque.as_bytes());
            if inm.matches(&ours) != listed {
                return fail(format!("engine ETag {ours}: matches != listed ({listed})"));
            }
            for weak in [false, true] {
                let prefix: &[u8] = if weak { b"W/" } else { b"" };
                let rendered = tags
                    .iter()
                    .map(|t| [prefix, b"\"", t, b"\""].concat())
                    .collect::<Vec<_>>()
                    .join(&b", "[..]);
                if rendered.len() <= MAX_INM_BYTES {
                    let again = IfNoneMatch::parse(&[("if-none-match".to_owned(), rendered)]);
                    if again != inm {
                        return fail(format!("round trip (weak {weak}) gave {again:?}"));
                    }
                }
            }
        }
    }
    let reversed: Vec<Header> = headers.iter().rev().cloned().collect();
    let again = IfNoneMatch::parse(&reversed);
    if again.matches(&ours) != inm.matches(&ours)
        || (again == IfNoneMatch::Absent) != (inm == IfNoneMatch::Absent)
    {
        return fail(format!(
            "line order changed the result: {inm:?} vs {again:?}"
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Cache-Control

/// `cache_control`: `no-transform` is found only when the text contains it, regardless of
/// line order or letter case; another line with it always makes it found, an unrelated
/// line never changes the answer; and the request and response checks agree with it.
pub fn check_cache_control(data: &[u8]) -> Check {
    let lines = lines(data);
    let headers = fields("cache-control", &lines);
    let nt = has_no_transform(&headers);
    if nt && !lower(data).contains("no-transform") {
        return fail("no-transform found in a header that does not contain it");
    }
    let reversed: Vec<Header> = headers.iter().rev().cloned().collect();
    if has_no_transform(&reversed) != nt {
        return fail("line order changed the answer");
    }
    let upper = data.to_ascii_uppercase();
    if has_no_transform(&fields("cache-control", &self::lines(&upper))) != nt {
        return fail("letter case changed the answer");
    }
    let mut with = headers.clone();
    with.push(("cache-control".to_owned(), b"no-transform".to_vec()));
    if !has_no_transform(&with) {
        return fail("an added no-transform line was missed");
    }
    let mut unrelated = headers.clone();
    unrelated.push(("cache-control".to_owned(), b"public, max-age=60".to_vec()));
    if has_no_transform(&unrelated) != nt {
        return fail("an unrelated line changed the answer");
    }
    let request = check_request(&headers, Method::Get, &Config::default());
    let want = if nt { Err(Reason::NoTransform) } else { Ok(()) };
    if request != want {
        return fail(format!("check_request gave {request:?}, want {want:?}"));
    }
    if ResponseHead::from_headers(&headers).no_transform != nt {
        return fail("ResponseHead disagrees");
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Content-Type

/// `content_type`: the filter's media type is a lower-cased `token/token` that parses back
/// to itself and ignores parameters and case; the engine's `charset` parameter is
/// non-empty, absent without a `;`, and survives being written back as a quoted string;
/// and decoding honours the precedence BOM > `charset` > default.
pub fn check_content_type(data: &[u8]) -> Check {
    let one = |v: &[u8]| media_type(&[("content-type".to_owned(), v.to_vec())]);
    let mt = one(data);
    if let Some(m) = &mt {
        let tokens = m.split_once('/').is_some_and(|(ty, sub)| {
            let tchar = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
            !ty.is_empty() && !sub.is_empty() && ty.bytes().all(tchar) && sub.bytes().all(tchar)
        });
        if !tokens || *m != m.to_ascii_lowercase() {
            return fail(format!("media type {m:?} is not a lower-case token/token"));
        }
        if one(m.as_bytes()).as_ref() != Some(m) {
            return fail(format!("media type {m:?} does not parse back to itself"));
        }
        let convertible = Config::default().is_convertible_type(m);
        if convertible != matches!(m.as_str(), "text/html" | "application/xhtml+xml") {
            return fail(format!("default config: {m:?} convertible = {convertible}"));
        }
    }
    if one(&data.to_ascii_uppercase()) != mt {
        return fail("letter case changed the media type");
    }
    if one(&[data, b";a=b"].concat()) != mt {
        return fail("an added parameter changed the media type");
    }
    let twice = [
        ("content-type".to_owned(), data.to_vec()),
        ("content-type".to_owned(), data.to_vec()),
    ];
    if media_type(&twice).is_some() {
        return fail("a repeated Content-Type was used");
    }

    let text = String::from_utf8_lossy(data);
    let charset = charset_param(&text);
    if let Some(label) = &charset {
        if label.is_empty() {
            return fail("empty charset returned");
        }
        let escaped: String = label
            .chars()
            .flat_map(|c| {
                let esc = matches!(c, '"' | '\\').then_some('\\');
                esc.into_iter().chain(std::iter::once(c))
            })
            .collect();
        let quoted = format!("text/html; charset=\"{escaped}\"");
        if charset_param(&quoted).as_deref() != Some(label.as_ref()) {
            return fail(format!(
                "charset {label:?} does not round-trip as {quoted:?}"
            ));
        }
    }
    if !text.contains(';') && charset.is_some() {
        return fail("charset found before the first ';'");
    }
    let ct = Some(text.as_ref());
    let (_, bom8) = decode(b"\xEF\xBB\xBF<p>x</p>", ct);
    let (_, bom16) = decode(b"\xFE\xFF\x00<\x00p", ct);
    if bom8.name() != "UTF-8" || bom16.name() != "UTF-16BE" {
        return fail(format!(
            "a BOM lost to the header: {} / {}",
            bom8.name(),
            bom16.name()
        ));
    }
    if charset.is_none() {
        let (_, plain) = decode(b"<p>plain ASCII</p>", ct);
        if plain.name() != "UTF-8" {
            return fail(format!("no charset, no meta, yet {}", plain.name()));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Plugin configuration

/// Headers the filter sets or removes on converted responses (lib.rs docs), which
/// `tokens_header` must never name.
const MANAGED: &[&str] = &[
    "content-type",
    "content-length",
    "etag",
    "vary",
    "content-encoding",
    "transfer-encoding",
    "accept-ranges",
    "content-md5",
    "digest",
    "content-digest",
    "repr-digest",
    "content-signal",
];

/// Every plugin configuration key, written out independently of `Config::parse`'s own match
/// (the oracle must not share its list); the `plugin_config` target builds documents from it.
pub const CONFIG_KEYS: &[&str] = &[
    "content_types",
    "max_body_bytes",
    "accept_wildcard",
    "conditional",
    "head",
    "front_matter",
    "prune",
    "content_signal",
    "tokens_header",
    "trusted_forwarded_proto",
    "vary_on_passthrough",
    "memo_bytes",
];

/// `plugin_config`: `Config::parse` either yields a configuration that satisfies every
/// documented constraint and survives a JSON round trip, or an error naming the document
/// (not an object) or a key that is in the object.
pub fn check_config(data: &[u8]) -> Check {
    match Config::parse(data) {
        Ok(cfg) => {
            validate(&cfg)?;
            if data.iter().all(u8::is_ascii_whitespace) && cfg != Config::default() {
                return fail("blank configuration is not the default");
            }
            let json = config_json(&cfg).to_string();
            match Config::parse(json.as_bytes()) {
                Ok(again) if again == cfg => Ok(()),
                other => fail(format!("round trip through {json} gave {other:?}")),
            }
        }
        Err(e) => {
            if e.to_string() != format!("{}: {}", e.key, e.reason) || e.reason.is_empty() {
                return fail(format!("error message {e} does not name its key"));
            }
            match serde_json::from_slice::<Value>(data) {
                Ok(Value::Object(map)) => {
                    if !map.contains_key(&e.key) {
                        return fail(format!("error names {:?}, not a key of the object", e.key));
                    }
                    if !CONFIG_KEYS.contains(&e.key.as_str()) && e.reason != "unknown key" {
                        return fail(format!("unknown key {:?} reported as {e}", e.key));
                    }
                    Ok(())
                }
                _ if e.key == "configuration" => Ok(()),
                _ => fail(format!("not an object, yet the error names {:?}", e.key)),
            }
        }
    }
}

fn validate(cfg: &Config) -> Check {
    let n = cfg.content_types.len();
    if n == 0 || n > markdown_filter::config::MAX_CONTENT_TYPES {
        return fail(format!("{n} content types"));
    }
    for (i, t) in cfg.content_types.iter().enumerate() {
        let concrete = t.split_once('/').is_some_and(|(ty, sub)| {
            ty != "*" && sub != "*" && !ty.is_empty() && !sub.is_empty() && !sub.contains('/')
        });
        if !concrete || *t != t.to_ascii_lowercase() || t.contains([';', ' ', '\t']) {
            return fail(format!("content type {t:?}"));
        }
        if cfg
            .content_types
            .get(..i)
            .is_some_and(|prev| prev.contains(t))
        {
            return fail(format!("duplicate content type {t:?}"));
        }
    }
    if !(1..=MAX_BODY_BYTES_LIMIT).contains(&cfg.max_body_bytes) {
        return fail(format!("max_body_bytes {}", cfg.max_body_bytes));
    }
    if cfg.memo_bytes > MAX_BODY_BYTES_LIMIT {
        return fail(format!("memo_bytes {}", cfg.memo_bytes));
    }
    if let Some(s) = &cfg.content_signal {
        let visible = |b: &u8| (0x21..=0x7e).contains(b);
        let ok = s.len() <= 1024
            && s.bytes().all(|b| visible(&b) || b == b' ' || b == b'\t')
            && s.as_bytes().first().is_some_and(visible)
            && s.as_bytes().last().is_some_and(visible);
        if !ok {
            return fail(format!("content_signal {s:?} is not a safe header value"));
        }
    }
    let t = &cfg.tokens_header;
    let token = !t.is_empty()
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
    if !token || *t != t.to_ascii_lowercase() || MANAGED.contains(&t.as_str()) {
        return fail(format!("tokens_header {t:?}"));
    }
    Ok(())
}

/// Every option of `cfg` written out as plugin JSON.
pub fn config_json(cfg: &Config) -> Value {
    json!({
        "content_types": cfg.content_types,
        "max_body_bytes": cfg.max_body_bytes,
        "accept_wildcard": cfg.accept_wildcard,
        "conditional": match cfg.conditional {
            Conditional::Full => "full",
            Conditional::ImsOnly => "ims_only",
            Conditional::Off => "off",
        },
        "head": match cfg.head {
            HeadMode::Convert => "convert",
            HeadMode::Passthrough => "passthrough",
        },
        "front_matter": cfg.front_matter,
        "prune": cfg.prune,
        "content_signal": cfg.content_signal,
        "tokens_header": cfg.tokens_header,
        "trusted_forwarded_proto": cfg.trusted_forwarded_proto,
        "vary_on_passthrough": cfg.vary_on_passthrough,
        "memo_bytes": cfg.memo_bytes,
    })
}

// ---------------------------------------------------------------------------------------
// Whole header blocks

/// `name: value` lines (pseudo-headers `:status: 200`), names lower-cased as Envoy hands
/// them over; a line without a colon is a name with an empty value.
pub fn header_block(data: &[u8]) -> Vec<Header> {
    lines(data)
        .into_iter()
        .map(|line| {
            let from = usize::from(line.first() == Some(&b':'));
            let colon = line
                .iter()
                .skip(from)
                .position(|&b| b == b':')
                .map(|i| i + from);
            let (name, value) = match colon {
                Some(at) => (&line[..at], &line[at + 1..]),
                None => (line, &b""[..]),
            };
            let value = value.strip_prefix(b" ").unwrap_or(value);
            (lower(name), value.to_vec())
        })
        .collect()
}

/// `response_head`: over a whole header block, the response checks agree with
/// `is_negotiable`, `Content-Length` matches an independent reading, `Vary` merging is
/// idempotent and keeps what was there, `Content-Encoding` stays within its bound, the
/// request URL is printable and ignores `X-Forwarded-Proto` unless trusted, and the
/// request check follows method, `Range` and `no-transform`.
pub fn check_response_head(data: &[u8]) -> Check {
    let headers = header_block(data);
    let head = ResponseHead::from_headers(&headers);
    for cap in [100, markdown_filter::config::DEFAULT_MAX_BODY_BYTES] {
        let cfg = Config {
            max_body_bytes: cap,
            ..Config::default()
        };
        let verdict = check_response(&head, &cfg);
        let negotiable = head.is_negotiable(&cfg);
        match verdict {
            Ok(()) | Err(Reason::OverCap) if !negotiable => {
                return fail(format!("{verdict:?} but not negotiable: {head:?}"))
            }
            Err(r) if negotiable && r != Reason::OverCap => {
                return fail(format!("negotiable but {r:?}: {head:?}"))
            }
            _ => {}
        }
        if (verdict == Err(Reason::Status)) != (head.status != Some(200)) {
            return fail(format!("status {:?} gave {verdict:?}", head.status));
        }
    }

    let want = content_length_oracle(&headers);
    let got = content_length(&headers);
    if got != want {
        return fail(format!(
            "content-length {got:?}, independent reading {want:?}"
        ));
    }

    match merge_vary(&headers, "Accept") {
        Some(v) => {
            let members: Vec<&[u8]> = v
                .split(|&b| b == b',')
                .map(markdown_filter::headers::trim_ows)
                .collect();
            let accepts = members
                .iter()
                .filter(|m| m.eq_ignore_ascii_case(b"accept"))
                .count();
            if accepts != 1 || members.contains(&&b"*"[..]) {
                return fail(format!("merged Vary {:?}", String::from_utf8_lossy(&v)));
            }
            if merge_vary(&[("vary".to_owned(), v.clone())], "Accept").is_some() {
                return fail("merging Vary twice changed it again");
            }
        }
        None => {
            let covered = headers
                .iter()
                .filter(|(n, _)| n == "vary")
                .flat_map(|(_, v)| v.split(|&b| b == b','))
                .map(markdown_filter::headers::trim_ows)
                .any(|m| m == b"*" || m.eq_ignore_ascii_case(b"accept"));
            if !covered {
                return fail("Vary left alone without Accept or *");
            }
        }
    }

    if let Codings::Known(list) = &head.codings {
        if list.is_empty() || list.len() > MAX_CODINGS {
            return fail(format!("{} codings", list.len()));
        }
    }

    let no_xfp: Vec<Header> = headers
        .iter()
        .filter(|(n, _)| n != "x-forwarded-proto")
        .cloned()
        .collect();
    for trust in [false, true] {
        let url = request_url(&headers, trust);
        if let Some(u) = &url {
            if !u.bytes().all(|b| (0x21..=0x7e).contains(&b)) || !u.contains("://") {
                return fail(format!("request URL {u:?}"));
            }
        }
        if !trust && request_url(&no_xfp, false) != url {
            return fail("X-Forwarded-Proto changed an untrusted URL");
        }
    }

    let method = Method::from_headers(&headers);
    let cfg = Config::default();
    let has = |n: &str| headers.iter().any(|(name, _)| name == n);
    let want = if method == Method::Other {
        Err(Reason::Method)
    } else if has("range") {
        Err(Reason::Range)
    } else if has_no_transform(&headers) {
        Err(Reason::NoTransform)
    } else {
        Ok(())
    };
    let got = check_request(&headers, method, &cfg);
    if got != want {
        return fail(format!("check_request {got:?}, want {want:?}"));
    }
    Ok(())
}

/// `Content-Length` read with `str::parse`: every comma-separated member of every line
/// must be plain digits naming the same number.
fn content_length_oracle(headers: &[Header]) -> DeclaredLength {
    let mut seen: Option<u64> = None;
    for (_, v) in headers.iter().filter(|(n, _)| n == "content-length") {
        let text = String::from_utf8_lossy(v);
        for member in text.split(',') {
            let member = member.trim_matches([' ', '\t']);
            let digits = !member.is_empty() && member.bytes().all(|b| b.is_ascii_digit());
            match (digits, member.parse::<u64>()) {
                (true, Ok(n)) if seen.is_none_or(|s| s == n) => seen = Some(n),
                _ => return DeclaredLength::Invalid,
            }
        }
    }
    seen.map_or(DeclaredLength::Absent, DeclaredLength::Valid)
}

// ---------------------------------------------------------------------------------------
// Content codings

/// `content_coding` input: byte 0 picks the coding, bytes 1–2 the limit (big-endian), the
/// rest is the body. The decoded size never exceeds the limit, and for gzip and br the
/// limit is exact: the same body decodes with a limit of exactly its decoded size and is
/// refused one below.
pub fn check_content_coding(data: &[u8]) -> Check {
    let coding = match data.first().map(|b| b % 3) {
        Some(0) | None => Coding::Gzip,
        Some(1) => Coding::Deflate,
        _ => Coding::Brotli,
    };
    let limit = u64::from(u16::from_be_bytes([
        data.get(1).copied().unwrap_or(0),
        data.get(2).copied().unwrap_or(0),
    ]));
    let body = data.get(3..).unwrap_or_default();
    let Ok(out) = coding::decode(body, &[coding], limit) else {
        // Corrupt or over the limit: refusing is always safe.
        return Ok(());
    };
    let n = out.len() as u64;
    if n > limit {
        return fail(format!("{n} bytes decoded under a {limit}-byte limit"));
    }
    // Deflate is exempt: it tries zlib first and falls back to raw deflate when that
    // fails, so a smaller limit can stop the zlib attempt on garbage output
    // (OverLimit) before it would have failed and fallen back.
    if coding == Coding::Deflate {
        return Ok(());
    }
    if coding::decode(body, &[coding], n).as_ref() != Ok(&out) {
        return fail(format!("{coding:?}: not the same output at a limit of {n}"));
    }
    if n > 0 && coding::decode(body, &[coding], n - 1) != Err(DecodeError::OverLimit) {
        return fail(format!(
            "{coding:?}: {n} bytes accepted under a limit of {}",
            n - 1
        ));
    }
    Ok(())
}
