//! agent-markdown beside two other Rust HTML → Markdown converters, on the same pages, in
//! one run (ratios between them are what to trust on a shared machine):
//!
//! - `htmd`: html5ever + RcDom + a recursive tree walk — the design of the NGINX module's
//!   converter.
//! - `fast_html2md` (`rewrite_html`): a streaming lol_html rewriter.
//!
//! ```sh
//! cd bench/compare && cargo bench --bench compare
//! ```
//!
//! Groups: `docs` (the six corpus documentation pages, 11–48 KB), `small` (10 KB page) and
//! `large` (1.2 MB page). Throughput is input bytes. agent-markdown runs with its default
//! options (main-content selection and front matter on), i.e. doing more work than the others.
//!
//! Each converter is sampled for seconds in turn, so on a machine whose speed changes every few
//! seconds the ratios swing between runs; `benches/interleaved.rs` measures the same ratios in
//! short interleaved rounds and is the one `make bench` reports verdicts from.
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

mod pages;

fn group(c: &mut Criterion, name: &str, pages: &[String]) {
    let bytes: usize = pages.iter().map(String::len).sum();
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(bytes as u64));
    if bytes > 1_000_000 {
        g.sample_size(10);
    }
    let opts = agent_markdown::Options::default();
    g.bench_function("agent-markdown", |b| {
        b.iter(|| {
            for p in pages {
                black_box(agent_markdown::convert(black_box(p.as_bytes()), &opts));
            }
        })
    });
    g.bench_function("htmd", |b| {
        b.iter(|| {
            for p in pages {
                black_box(htmd::convert(black_box(p)).ok());
            }
        })
    });
    g.bench_function("fast_html2md", |b| {
        b.iter(|| {
            for p in pages {
                black_box(html2md::rewrite_html(black_box(p), false));
            }
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    let groups = pages::groups().unwrap_or_else(|e| panic!("{e}"));
    for (name, pages) in &groups {
        group(c, name, pages);
    }
}

criterion_group!(compare, benches);
criterion_main!(compare);
