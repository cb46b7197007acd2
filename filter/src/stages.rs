//! Per-stage conversion time as Envoy counters: a benchmark build only (cargo feature
//! `stage-metrics`, `make wasm-stages`), so that `make bench` can show where the time of a
//! conversion goes inside Envoy's V8, under load, beside the native `md-convert --bench`
//! breakdown. Shipped builds have none of this: it reads the clock six times per conversion.
//!
//! Counter `markdown.stage_ns.<stage>` grows by the nanoseconds each conversion spent in
//! that stage; divided by `markdown.converted` it is the mean per conversion.

use std::cell::OnceCell;

use agent_markdown::StageTimes;
use proxy_wasm::hostcalls;
use proxy_wasm::types::MetricType;

thread_local! {
    static IDS: OnceCell<[Option<u32>; 6]> = const { OnceCell::new() };
}

/// Add one conversion's stage times to the counters (defined on first use).
pub fn record(times: &StageTimes) {
    let stages = times.by_stage();
    IDS.with(|ids| {
        let ids = ids.get_or_init(|| {
            stages.map(|(name, _)| {
                let metric = format!("markdown.stage_ns.{name}");
                hostcalls::define_metric(MetricType::Counter, &metric).ok()
            })
        });
        for (id, (_, spent)) in ids.iter().zip(stages) {
            if let Some(id) = id {
                let ns = i64::try_from(spent.as_nanos()).unwrap_or(i64::MAX);
                // A counter that cannot be bumped must not affect the response.
                let _ = hostcalls::increment_metric(*id, ns);
            }
        }
    });
}
