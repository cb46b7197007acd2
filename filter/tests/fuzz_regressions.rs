//! Native replay of the header/config fuzz corpora: every committed input (seeds, the
//! minimised corpora and saved crashes) goes through the fuzz target's own invariants
//! (`fuzz/src/headers.rs`), so `cargo test` catches a regression without nightly or
//! libFuzzer.
use std::fs;

#[path = "../../fuzz/src/headers.rs"]
mod fuzz_headers;

type Check = fn(&[u8]) -> Result<(), String>;

const TARGETS: &[(&str, Check)] = &[
    ("accept", fuzz_headers::check_accept),
    ("if_none_match", fuzz_headers::check_if_none_match),
    ("cache_control", fuzz_headers::check_cache_control),
    ("content_type", fuzz_headers::check_content_type),
    ("plugin_config", fuzz_headers::check_config),
    ("response_head", fuzz_headers::check_response_head),
    ("content_coding", fuzz_headers::check_content_coding),
];

#[path = "../../fuzz/src/replay.rs"]
mod replay_files;

use replay_files::{fuzz_dir, inputs};

fn replay(sub: &str) -> Vec<(String, usize)> {
    let mut failures = Vec::new();
    let mut counts = Vec::new();
    for (target, check) in TARGETS {
        let files = inputs(&fuzz_dir().join(sub).join(target));
        for path in &files {
            let Ok(data) = fs::read(path) else {
                failures.push(format!("{}: unreadable", path.display()));
                continue;
            };
            if let Err(e) = check(&data) {
                failures.push(format!("{}: {e}", path.display()));
            }
        }
        counts.push(((*target).to_owned(), files.len()));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    counts
}

#[test]
fn committed_corpora_keep_every_invariant() {
    for (target, n) in replay("corpus") {
        assert!(n >= 5, "only {n} corpus files for {target}");
    }
}

#[test]
fn saved_crashes_keep_every_invariant() {
    replay("regressions");
}

fn rejects(check: Check, data: &[u8]) -> bool {
    check(data).is_err()
}

#[test]
fn header_blocks_parse_like_envoy_hands_them_over() {
    let h = fuzz_headers::header_block(b":status: 200\nContent-Type:text/html\nx");
    assert_eq!(
        h,
        [
            (":status".to_owned(), b"200".to_vec()),
            ("content-type".to_owned(), b"text/html".to_vec()),
            ("x".to_owned(), Vec::new()),
        ]
    );
    assert!(fuzz_headers::lines(b"").is_empty());
    assert_eq!(fuzz_headers::lines(b"a\nb").len(), 2);
}

#[test]
fn config_round_trip_covers_every_option() {
    use markdown_filter::config::Config;
    let json = fuzz_headers::config_json(&Config::default()).to_string();
    assert_eq!(Config::parse(json.as_bytes()), Ok(Config::default()));
    // Twelve options, all written out.
    assert_eq!(
        fuzz_headers::config_json(&Config::default())
            .as_object()
            .map(|m| m.len()),
        Some(12)
    );
}

#[test]
fn checks_accept_ordinary_input() {
    for (_, check) in TARGETS {
        assert_eq!(check(b""), Ok(()));
    }
    assert!(!rejects(fuzz_headers::check_accept, b"text/markdown;q=0.5"));
    assert!(!rejects(fuzz_headers::check_config, b"{\"prune\": false}"));
    assert!(!rejects(fuzz_headers::check_config, b"{\"prune\": 1}"));
}
