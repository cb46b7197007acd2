#![no_main]
//! See `markdown_fuzz::headers::check_content_coding` for the input format and the invariants.
use libfuzzer_sys::fuzz_target;
use markdown_fuzz::{expect_ok, headers::check_content_coding};

fuzz_target!(|data: &[u8]| expect_ok(check_content_coding(data)));
