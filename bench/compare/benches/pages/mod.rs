//! The pages both comparison benches convert, read from `corpus/`: the groups `docs` (every
//! documentation page under `corpus/docs/`, the "real documentation pages"), `small`
//! (the ~10 KB page) and `large` (the ~1.2 MB page).
use std::fs;
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

fn read(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// `(group, pages)` in report order; documentation pages sorted by name.
pub fn groups() -> Result<Vec<(&'static str, Vec<String>)>, String> {
    let dir = corpus().join("docs");
    let mut docs: Vec<PathBuf> = fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    docs.sort();
    let load = |paths: &[PathBuf]| paths.iter().map(|p| read(p)).collect::<Result<Vec<_>, _>>();
    let one = |rel: &str| load(&[corpus().join(rel)]);
    Ok(vec![
        ("docs", load(&docs)?),
        ("small", one("large/bench-10kb.html")?),
        ("large", one("large/bench-1200kb.html")?),
    ])
}
