//! Conversion throughput on corpus pages, from memory, single thread.
//!
//! ```sh
//! cargo bench -p agent-markdown --bench convert
//! ```
//!
//! Groups: `small` (10 KB page), `medium` (documentation pages, 11–48 KB), `large`
//! (1.2 MB page) and `corpus` (every corpus page in one pass). Throughput is input bytes.
use std::fs;
use std::hint::black_box;
use std::path::{Path, PathBuf};

use agent_markdown::{convert, Options};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

fn read(rel: &str) -> Vec<u8> {
    let path = corpus().join(rel);
    fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn html_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if !path.ends_with("generated") && !path.ends_with("tools") {
                html_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "html") {
            out.push(path);
        }
    }
}

fn bench_pages(c: &mut Criterion, group: &str, pages: &[Vec<u8>]) {
    let opts = Options::default();
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Bytes(bytes as u64));
    if bytes > 1_000_000 {
        g.sample_size(10);
    }
    g.bench_function("agent-markdown", |b| {
        b.iter(|| {
            for page in pages {
                black_box(convert(black_box(page), &opts));
            }
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    bench_pages(c, "small", &[read("large/bench-10kb.html")]);
    let docs = [
        "docs/docusaurus-routing.html",
        "docs/javadoc-lrucache.html",
        "docs/manpage-logsift.html",
        "docs/mkdocs-material-config.html",
        "docs/rustdoc-ringbuffer.html",
        "docs/sphinx-rtd-resample.html",
    ];
    bench_pages(c, "medium", &docs.map(read));
    bench_pages(c, "large", &[read("large/bench-1200kb.html")]);
    let mut all = Vec::new();
    html_files(&corpus(), &mut all);
    let pages: Vec<Vec<u8>> = all.iter().filter_map(|p| fs::read(p).ok()).collect();
    bench_pages(c, "corpus", &pages);
}

criterion_group!(convert_benches, benches);
criterion_main!(convert_benches);
