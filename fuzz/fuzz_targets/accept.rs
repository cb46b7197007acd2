#![no_main]
//! See `markdown_fuzz::headers::check_accept` for the input format and the invariants.
use libfuzzer_sys::fuzz_target;
use markdown_fuzz::{expect_ok, headers::check_accept};

fuzz_target!(|data: &[u8]| expect_ok(check_accept(data)));
