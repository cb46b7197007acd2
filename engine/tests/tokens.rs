//! Accuracy of `tokens::estimate` against exact o200k_base counts from tiktoken-rs.
//!
//! Samples live in `tests/data/tokens/calib` (the coefficients were fitted on these) and
//! `tests/data/tokens/holdout` (never used for fitting); both must meet the bounds. Golden
//! files under `corpus/**/*.md` are checked the same way whenever they exist.
//! Run with `--nocapture` to see the per-sample table.

use std::fs;
use std::path::{Path, PathBuf};

mod common;

use agent_markdown::tokens::estimate;
use common::files_with_extension;
use proptest::prelude::*;

/// Largest allowed relative error on one page.
const PAGE_BOUND: f64 = 0.20;
/// Largest allowed relative error of the sum over a set of pages.
const AGGREGATE_BOUND: f64 = 0.05;
/// Pages shorter than this are too small for a relative per-page bound.
const MIN_PAGE_BYTES: usize = 200;

fn exact(text: &str) -> u64 {
    tiktoken_rs::o200k_base_singleton()
        .encode_ordinary(text)
        .len() as u64
}

struct Measured {
    name: String,
    bytes: usize,
    exact: u64,
    estimate: u64,
    /// The `ceil(chars / 4)` rule of thumb, for comparison.
    naive: u64,
}

impl Measured {
    fn new(name: String, text: &str) -> Self {
        Measured {
            name,
            bytes: text.len(),
            exact: exact(text),
            estimate: estimate(text),
            naive: (text.chars().count() as u64).div_ceil(4),
        }
    }

    fn error(&self) -> f64 {
        relative(self.estimate, self.exact)
    }
}

fn relative(estimate: u64, exact: u64) -> f64 {
    if exact == 0 {
        return if estimate == 0 { 0.0 } else { f64::INFINITY };
    }
    estimate as f64 / exact as f64 - 1.0
}

fn measure(root: &Path, files: &[PathBuf]) -> Vec<Measured> {
    files
        .iter()
        .map(|path| {
            let text =
                fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let name = path
                .strip_prefix(root)
                .unwrap_or(path)
                .display()
                .to_string();
            Measured::new(name, &text)
        })
        .collect()
}

/// Prints the table and returns the violations of the page and aggregate bounds.
fn report(title: &str, groups: &[(&str, &[Measured])]) -> Vec<String> {
    let mut failures = Vec::new();
    println!("\n{title}");
    println!(
        "{:<34} {:>6} {:>6} {:>6} {:>7} {:>12}",
        "sample", "bytes", "exact", "est", "error", "chars/4 err"
    );
    for (_, rows) in groups {
        for m in rows.iter() {
            println!(
                "{:<34} {:>6} {:>6} {:>6} {:>+6.1}% {:>+11.1}%",
                m.name,
                m.bytes,
                m.exact,
                m.estimate,
                m.error() * 100.0,
                relative(m.naive, m.exact) * 100.0
            );
            if m.bytes >= MIN_PAGE_BYTES && m.error().abs() > PAGE_BOUND {
                failures.push(format!("{}: {:+.1}%", m.name, m.error() * 100.0));
            }
        }
    }
    let all: Vec<&Measured> = groups.iter().flat_map(|(_, rows)| rows.iter()).collect();
    let summaries = groups
        .iter()
        .map(|(label, rows)| (*label, rows.iter().collect::<Vec<_>>()))
        .chain((groups.len() > 1).then_some(("all", all)));
    for (label, rows) in summaries {
        let exact: u64 = rows.iter().map(|m| m.exact).sum();
        let est: u64 = rows.iter().map(|m| m.estimate).sum();
        let naive: u64 = rows.iter().map(|m| m.naive).sum();
        let worst = rows.iter().map(|m| m.error().abs()).fold(0.0, f64::max);
        let err = relative(est, exact);
        println!(
            "{:<34} {:>6} {:>6} {:>6} {:>+6.1}% {:>+11.1}%   (worst page {:.1}%)",
            format!("aggregate: {label}"),
            "",
            exact,
            est,
            err * 100.0,
            relative(naive, exact) * 100.0,
            worst * 100.0
        );
        if err.abs() > AGGREGATE_BOUND {
            failures.push(format!("aggregate {label}: {:+.1}%", err * 100.0));
        }
    }
    failures
}

#[test]
fn samples_within_bounds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tokens");
    let calib = measure(&root, &files_with_extension(&root.join("calib"), "md"));
    let holdout = measure(&root, &files_with_extension(&root.join("holdout"), "md"));
    assert!(
        calib.len() + holdout.len() >= 12 && !holdout.is_empty(),
        "test data missing under {}",
        root.display()
    );
    let failures = report(
        "token estimate vs o200k_base: samples",
        &[("calib", &calib), ("holdout", &holdout)],
    );
    assert!(failures.is_empty(), "out of bounds: {failures:?}");
}

#[test]
fn corpus_golden_files_within_bounds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    // Goldens are the `.md` files that sit beside a page of the same name.
    let goldens: Vec<PathBuf> = files_with_extension(&root, "md")
        .into_iter()
        .filter(|p| p.with_extension("html").is_file())
        .collect();
    let golden = measure(&root, &goldens);
    if golden.is_empty() {
        println!("no corpus/**/*.md golden files yet");
        return;
    }
    let failures = report(
        "token estimate vs o200k_base: corpus",
        &[("corpus", &golden)],
    );
    assert!(failures.is_empty(), "out of bounds: {failures:?}");
}

#[test]
fn empty_is_zero() {
    assert_eq!(estimate(""), 0);
}

#[test]
fn single_word_is_one_token() {
    for word in ["hello", "The", " world", "tokens", "Markdown"] {
        assert_eq!(exact(word), 1, "{word:?} is one o200k token");
        assert_eq!(estimate(word), 1, "{word:?}");
    }
}

#[test]
fn digits_and_white_space_match_the_pre_tokenizer() {
    // Digit runs split into groups of three and white-space runs are single pieces, each one
    // token in o200k_base: the estimator should be exact on them.
    for text in [
        "7",
        "2024",
        "1234567890",
        "    ",
        "\n\n\n",
        "2024\n\n1999 42",
    ] {
        assert_eq!(estimate(text), exact(text), "{text:?}");
    }
}

#[test]
fn cjk_is_not_estimated_like_latin_text() {
    // The chars/4 rule undercounts Chinese by ~3x; the estimate must stay close.
    let text = "城市规划部门调整了方案，决定以微改造的方式对老街进行更新。";
    let (est, exact) = (estimate(text), exact(text));
    assert!(relative(est, exact).abs() <= PAGE_BOUND, "{est} vs {exact}");
}

#[test]
#[ignore = "timing; run with --release -- --ignored --nocapture"]
fn faster_than_tiktoken() {
    use std::hint::black_box;
    use std::time::Instant;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tokens/calib/en-docs.md");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let bpe = tiktoken_rs::o200k_base_singleton();
    let kb = text.len() as f64 / 1024.0;
    let rounds = 200;
    let start = Instant::now();
    for _ in 0..rounds {
        black_box(estimate(black_box(&text)));
    }
    let ours = start.elapsed().as_nanos() as f64 / rounds as f64 / kb;
    let start = Instant::now();
    for _ in 0..rounds {
        black_box(bpe.encode_ordinary(black_box(&text)));
    }
    let theirs = start.elapsed().as_nanos() as f64 / rounds as f64 / kb;
    println!("estimate: {ours:.0} ns/KB, tiktoken o200k_base: {theirs:.0} ns/KB");
    assert!(
        ours * 3.0 < theirs,
        "the estimate should be far cheaper than tokenizing"
    );
}

proptest! {
    // Integration tests have no lib.rs next to them for proptest's regression files; failing
    // inputs are still printed in full.
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_and_stays_in_range(text in any::<String>()) {
        let n = estimate(&text);
        // Every pre-tokenizer piece costs at least one token, and no character more than three.
        prop_assert_eq!(n == 0, text.is_empty());
        prop_assert!(n <= 3 * text.chars().count() as u64);
    }

    #[test]
    fn never_panics_on_markdown_like_text(
        text in "[ \t\n\r'’a-zA-Z0-9.,:;|`/_()\\[\\]#*>\\-éßЖж中文。，한가あア\u{301}\u{fe0f}😀]{0,80}"
    ) {
        let n = estimate(&text);
        prop_assert_eq!(n == 0, text.is_empty());
        prop_assert!(n <= 3 * text.chars().count() as u64);
    }
}
