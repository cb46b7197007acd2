#![no_main]
//! See `markdown_fuzz::headers::check_cache_control` for the input format and the invariants.
use libfuzzer_sys::fuzz_target;
use markdown_fuzz::{expect_ok, headers::check_cache_control};

fuzz_target!(|data: &[u8]| expect_ok(check_cache_control(data)));
