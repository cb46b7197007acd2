//! Shared by the corpus tests: finding pages and converting them the way goldens are made.
#![allow(dead_code)] // each test binary uses a different subset

use std::fs;
use std::path::{Path, PathBuf};

use agent_markdown::{convert, Options, Output};

/// Base URL the goldens are converted with: relative links become absolute under it.
pub const BASE: &str = "https://corpus.example/";

pub struct Page {
    pub path: PathBuf,
    /// Path relative to `corpus/`, with `/` separators.
    pub rel: String,
    pub bytes: Vec<u8>,
}

impl Page {
    pub fn base_url(&self) -> String {
        format!("{BASE}{}", self.rel)
    }
}

pub fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

/// Every `.html` page of the corpus in a stable order (generated scratch pages excluded).
pub fn corpus_pages() -> Vec<Page> {
    let root = corpus_root();
    files_with_extension(&root, "html")
        .into_iter()
        .filter_map(|path| {
            let rel = path
                .strip_prefix(&root)
                .ok()?
                .to_string_lossy()
                .replace('\\', "/");
            if rel.starts_with("generated/") || rel.starts_with("tools/") {
                return None;
            }
            let bytes = fs::read(&path).ok()?;
            Some(Page { path, rel, bytes })
        })
        .collect()
}

pub fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == ext) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Convert a page with default options and its corpus URL as base, as the goldens are.
pub fn convert_page(page: &Page) -> Output {
    let opts = Options {
        base_url: Some(page.base_url()),
        ..Options::default()
    };
    convert(&page.bytes, &opts)
}

/// A fragment's Markdown: no front matter, no pruning (what the structure tests compare).
pub fn md(html: &str) -> String {
    let opts = Options {
        front_matter: false,
        prune: false,
        ..Options::default()
    };
    convert(html.as_bytes(), &opts).markdown
}

/// A page's Markdown with pruning on, as the filter converts, without front matter.
pub fn pruned(html: &str) -> String {
    let opts = Options {
        front_matter: false,
        ..Options::default()
    };
    convert(html.as_bytes(), &opts).markdown
}
