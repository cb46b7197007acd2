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
    /// Responses passed through unconverted, by reason.
    Passthrough(Reason),
}

/// Name of the conversion-time histogram (microseconds).
pub const CONVERSION_US: &str = "markdown.conversion_us";

impl Counter {
    /// Every counter, for definition at configuration time.
    pub fn all() -> impl Iterator<Item = Counter> {
        [
            Counter::Converted,
            Counter::NotModified,
            Counter::Errors,
            Counter::BytesIn,
            Counter::BytesOut,
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
            Counter::Passthrough(r) => 5 + r as usize,
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
            Counter::Passthrough(r) => format!("markdown.passthrough.{}", r.as_str()),
        }
    }
}

/// Number of counters.
pub const COUNTERS: usize = 5 + Reason::ALL.len();

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
    fn indices_are_dense_and_unique() {
        let idx: Vec<usize> = Counter::all().map(Counter::index).collect();
        assert_eq!(idx, (0..COUNTERS).collect::<Vec<_>>());
        let unique: HashSet<usize> = idx.into_iter().collect();
        assert_eq!(unique.len(), COUNTERS);
    }
}
