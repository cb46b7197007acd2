#![no_main]
//! See `markdown_fuzz::headers::check_if_none_match` for the input format and the invariants.
use libfuzzer_sys::fuzz_target;
use markdown_fuzz::{expect_ok, headers::check_if_none_match};

fuzz_target!(|data: &[u8]| expect_ok(check_if_none_match(data)));
