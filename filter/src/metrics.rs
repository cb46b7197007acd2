//! Metric names and the sink the per-request logic reports to.
//!
//! Metrics are defined through the proxy-wasm metrics API. Envoy places them in its
//! `wasmcustom` stat namespace (`wasmcustom.markdown.converted` at `/stats`); in
//! `/stats/prometheus` a custom namespace is dropped along with the `envoy_` prefix, so the
//! same counter is `markdown_converted` there (see the crate docs for the full list).
//!
//! Every response the filter sees is counted exactly once in one of `converted`,
//! `not_modified` or `passthrough.<reason>`; `errors` additionally counts engine/host-call
//! failures (each of which is also a `passthrough.error`).

use crate::eligibility::Reason;

/// Counters, in definition order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Counter {
    /// Responses converted to Markdown (including converted `HEAD`).
    Converted,
    /// `304 Not Modified` answered by the filter from the Markdown ETag.
    NotModified,
    /// Engine or host-call failures.
    Errors,
    /// HTML bytes fed to the engine (converted and not-modified responses).
    BytesIn,
    /// Markdown bytes sent in converted bodies (0 for `HEAD` and `304`).
    BytesOut,
    /// Conversions served from the memo (the engine did not run).
    MemoHits,
    /// Conversions the engine ran while the memo is enabled.
    MemoMisses,
    /// Responses passed through unconverted, by reason.
    Passthrough(Reason),
}

/// Name of the conversion-time histogram (microseconds).
pub const CONVERSION_US: &str = "markdown.conversion_us";

/// Per-request access-log fields. Envoy keeps each as filter state `wasm.<name>` (a string),
/// printed with `%FILTER_STATE(wasm.<name>:PLAIN)%`; a field never set prints `-` (`null` in
/// JSON formats).
pub mod log_fields {
    /// `converted`, `not_modified` or `passthrough:<reason>`, set once per response.
    pub const OUTCOME: &str = "markdown.outcome";
    /// HTML bytes fed to the engine (after decoding); set when the engine ran.
    pub const BYTES_IN: &str = "markdown.bytes_in";
    /// Markdown body bytes sent (0 for `HEAD` and `304`); set with `BYTES_IN`.
    pub const BYTES_OUT: &str = "markdown.bytes_out";
    /// Conversion time in microseconds; set when the engine ran.
    pub const CONVERSION_US: &str = "markdown.conversion_us";
    /// `hit` (served from the conversion memo) or `miss` (converted); unset when the memo
    /// is disabled or no conversion was needed.
    pub const MEMO: &str = "markdown.memo";
}

impl Counter {
    /// Every counter, for definition at configuration time.
    pub fn all() -> impl Iterator<Item = Counter> {
        [
            Counter::Converted,
            Counter::NotModified,
            Counter::Errors,
            Counter::BytesIn,
            Counter::BytesOut,
            Counter::MemoHits,
            Counter::MemoMisses,
        ]
        .into_iter()
        .chain(Reason::ALL.into_iter().map(Counter::Passthrough))
    }

    /// Position in [`Counter::all`], for id tables.
    pub fn index(self) -> usize {
        match self {
            Counter::Converted => 0,
            Counter::NotModified => 1,
            Counter::Errors => 2,
            Counter::BytesIn => 3,
            Counter::BytesOut => 4,
            Counter::MemoHits => 5,
            Counter::MemoMisses => 6,
            Counter::Passthrough(r) => 7 + r as usize,
        }
    }

    /// The response outcome this counter stands for, as the access log prints it
    /// ([`log_fields::OUTCOME`]); `None` for the counters that are not outcomes.
    pub fn outcome(self) -> Option<String> {
        match self {
            Counter::Converted => Some("converted".into()),
            Counter::NotModified => Some("not_modified".into()),
            Counter::Passthrough(r) => Some(format!("passthrough:{}", r.as_str())),
            Counter::Errors
            | Counter::BytesIn
            | Counter::BytesOut
            | Counter::MemoHits
            | Counter::MemoMisses => None,
        }
    }

    /// Name given to `define_metric`.
    pub fn name(self) -> String {
        match self {
            Counter::Converted => "markdown.converted".into(),
            Counter::NotModified => "markdown.not_modified".into(),
            Counter::Errors => "markdown.errors".into(),
            Counter::BytesIn => "markdown.bytes_in".into(),
            Counter::BytesOut => "markdown.bytes_out".into(),
            Counter::MemoHits => "markdown.memo.hit".into(),
            Counter::MemoMisses => "markdown.memo.miss".into(),
            Counter::Passthrough(r) => format!("markdown.passthrough.{}", r.as_str()),
        }
    }
}

/// Number of counters.
pub const COUNTERS: usize = 7 + Reason::ALL.len();

/// Where the request logic reports metrics. Implemented over the proxy-wasm metrics API in
/// the Wasm build and by recorders in tests.
pub trait Sink {
    /// Add `n` to `counter`. Adding 0 is a no-op (Envoy rejects zero increments).
    fn add(&self, counter: Counter, n: u64);
    /// Record one conversion time in microseconds.
    fn record_conversion_us(&self, micros: u64);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_match_the_contract() {
        let names: Vec<String> = Counter::all().map(Counter::name).collect();
        assert_eq!(
            names,
            [
                "markdown.converted",
                "markdown.not_modified",
                "markdown.errors",
                "markdown.bytes_in",
                "markdown.bytes_out",
                "markdown.memo.hit",
                "markdown.memo.miss",
                "markdown.passthrough.not_requested",
                "markdown.passthrough.method",
                "markdown.passthrough.status",
                "markdown.passthrough.content_type",
                "markdown.passthrough.no_transform",
                "markdown.passthrough.range",
                "markdown.passthrough.content_encoding",
                "markdown.passthrough.over_cap",
                "markdown.passthrough.error",
            ]
        );
        assert_eq!(names.len(), COUNTERS);
    }

    #[test]
    fn outcomes_are_the_mutually_exclusive_counters() {
        let outcomes: Vec<String> = Counter::all().filter_map(Counter::outcome).collect();
        assert_eq!(
            outcomes,
            [
                "converted",
                "not_modified",
                "passthrough:not_requested",
                "passthrough:method",
                "passthrough:status",
                "passthrough:content_type",
                "passthrough:no_transform",
                "passthrough:range",
                "passthrough:content_encoding",
                "passthrough:over_cap",
                "passthrough:error",
            ]
        );
    }

    #[test]
    fn indices_are_dense_and_unique() {
        let idx: Vec<usize> = Counter::all().map(Counter::index).collect();
        assert_eq!(idx, (0..COUNTERS).collect::<Vec<_>>());
        let unique: HashSet<usize> = idx.into_iter().collect();
        assert_eq!(unique.len(), COUNTERS);
    }

    /// The README's metrics table names each metric as `/stats/prometheus` shows it
    /// (dots become underscores), the passthrough reasons in one row, and nothing else.
    #[test]
    fn readme_metrics_table_names_every_metric() {
        let rows: Vec<(&str, &str)> = crate::readme_section("Metrics and access log")
            .filter_map(|l| l.strip_prefix("| `markdown_")?.split_once(" | "))
            .collect();
        let documented: HashSet<String> = rows
            .iter()
            .flat_map(|(names, _)| names.split(" / "))
            .map(|n| {
                format!(
                    "markdown_{}",
                    n.trim_start_matches("`markdown_").trim_matches('`')
                )
            })
            .collect();
        let prometheus = |name: &str| name.replace('.', "_");
        let mut expected: HashSet<String> = Counter::all()
            .filter(|c| !matches!(c, Counter::Passthrough(_)))
            .map(|c| prometheus(&c.name()))
            .collect();
        expected.insert(prometheus(CONVERSION_US));
        expected.insert("markdown_passthrough_<reason>".into());
        assert_eq!(documented, expected);
        let reasons = rows
            .iter()
            .find(|(names, _)| names.starts_with("passthrough_<reason>`"))
            .map(|(_, rest)| rest.split('`').skip(1).step_by(2).collect::<Vec<_>>())
            .unwrap_or_default();
        let all: Vec<&str> = Reason::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(reasons, all);
    }
}
