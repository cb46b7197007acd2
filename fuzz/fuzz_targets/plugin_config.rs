#![no_main]
//! Plugin configuration JSON through `Config::parse`, checked by
//! `markdown_fuzz::headers::check_config`. Every input is tried twice: as raw bytes (broken
//! JSON, encodings, duplicate keys) and as the seed of a structured document built with
//! `arbitrary` from the real option names and plausible values, which raw mutation would
//! rarely assemble into an object that gets past the JSON parser.
use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use markdown_fuzz::{
    expect_ok,
    headers::{check_config, CONFIG_KEYS as KEYS},
};
use serde_json::{Map, Number, Value};

const STRINGS: &[&str] = &[
    "text/html",
    "application/xhtml+xml",
    "TEXT/HTML",
    "text/*",
    "*/*",
    "text/html; charset=utf-8",
    "full",
    "ims_only",
    "off",
    "convert",
    "passthrough",
    "x-markdown-tokens",
    "Content-Length",
    "ETag",
    "ai-train=no, search=yes",
    " padded ",
    "a\r\nx-injected: 1",
    "\u{0}",
    "é",
    "",
];

#[derive(Debug, Arbitrary)]
enum Key {
    Known(u8),
    Other(String),
}

/// A scalar option value.
#[derive(Debug, Arbitrary)]
enum Leaf {
    Null,
    Bool(bool),
    Small(u8),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Str(u8),
    AnyStr(String),
}

/// One level of nesting is all the options have (`content_types` is an array); deeper
/// documents are left to the raw-bytes half, which keeps recursion out of this one.
#[derive(Debug, Arbitrary)]
enum Val {
    Leaf(Leaf),
    Array(Vec<Leaf>),
    Object(Vec<(Key, Leaf)>),
}

fn key(k: &Key) -> String {
    match k {
        Key::Known(i) => KEYS[usize::from(*i) % KEYS.len()].to_owned(),
        Key::Other(s) => s.clone(),
    }
}

fn leaf(v: &Leaf) -> Value {
    match v {
        Leaf::Null => Value::Null,
        Leaf::Bool(b) => Value::Bool(*b),
        Leaf::Small(n) => Value::from(*n),
        Leaf::Unsigned(n) => Value::from(*n),
        Leaf::Signed(n) => Value::from(*n),
        Leaf::Float(f) => Number::from_f64(*f).map_or(Value::Null, Value::Number),
        Leaf::Str(i) => Value::from(STRINGS[usize::from(*i) % STRINGS.len()]),
        Leaf::AnyStr(s) => Value::from(s.as_str()),
    }
}

fn value(v: &Val) -> Value {
    match v {
        Val::Leaf(l) => leaf(l),
        Val::Array(items) => Value::Array(items.iter().map(leaf).collect()),
        Val::Object(entries) => {
            Value::Object(entries.iter().map(|(k, v)| (key(k), leaf(v))).collect())
        }
    }
}

fn object(entries: &[(Key, Val)]) -> Value {
    let map: Map<String, Value> = entries.iter().map(|(k, v)| (key(k), value(v))).collect();
    Value::Object(map)
}

fuzz_target!(|data: &[u8]| {
    expect_ok(check_config(data));
    let mut u = Unstructured::new(data);
    if let Ok(entries) = Vec::<(Key, Val)>::arbitrary(&mut u) {
        let doc = object(&entries).to_string();
        expect_ok(check_config(doc.as_bytes()));
    }
});
