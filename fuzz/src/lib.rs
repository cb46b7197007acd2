//! Invariants shared by the fuzz targets and the native regression replays
//! (`engine/tests/fuzz_regressions.rs`, `filter/tests/fuzz_regressions.rs`), which include
//! these files by path so that a saved input is judged the same way in both places.

pub mod engine;
pub mod headers;

/// Panic with the violated invariant: libFuzzer records the input as a crash.
pub fn expect_ok(result: Result<(), String>) {
    if let Err(msg) = result {
        panic!("invariant violated: {msg}");
    }
}
