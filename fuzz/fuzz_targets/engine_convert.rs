#![no_main]
//! Arbitrary bytes × content type × options through `agent_markdown::convert`; see
//! `markdown_fuzz::engine` for the input layout and the invariants.
use libfuzzer_sys::fuzz_target;
use markdown_fuzz::{engine::check, expect_ok};

fuzz_target!(|data: &[u8]| expect_ok(check(data)));
