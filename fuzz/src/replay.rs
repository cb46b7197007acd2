//! Finding committed fuzz inputs, for the native replays (`engine/tests/fuzz_regressions.rs`,
//! `filter/tests/fuzz_regressions.rs`), which include this file by path. Not part of the fuzz
//! crate itself.
use std::fs;
use std::path::{Path, PathBuf};

/// `fuzz/`, from a crate beside it (`engine/`, `filter/`).
pub fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// Files directly in `dir` (not in subdirectories), sorted; none when it does not exist.
pub fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    out
}
