//! Golden files: every `corpus/**/*.html` page converts to exactly its reviewed `.md` sibling.
//!
//! Regenerate after a deliberate change, then review the diff before committing:
//!
//! ```sh
//! UPDATE_GOLDENS=1 cargo test -p agent-markdown --test golden
//! git diff --stat corpus/
//! ```
mod common;

use std::fs;

use common::{convert_page, corpus_pages};

#[test]
fn corpus_pages_match_their_goldens() {
    let update = std::env::var_os("UPDATE_GOLDENS").is_some_and(|v| v == "1");
    let pages = corpus_pages();
    assert!(pages.len() >= 40, "corpus has only {} pages", pages.len());
    let mut mismatched = Vec::new();
    for page in &pages {
        let markdown = convert_page(page).markdown;
        let golden_path = page.path.with_extension("md");
        if update {
            fs::write(&golden_path, &markdown).expect("write golden");
            continue;
        }
        match fs::read_to_string(&golden_path) {
            Ok(golden) if golden == markdown => {}
            Ok(golden) => mismatched.push(format!(
                "{}: differs from golden at byte {}",
                page.rel,
                first_difference(&golden, &markdown)
            )),
            Err(_) => mismatched.push(format!("{}: no golden {}", page.rel, golden_path.display())),
        }
    }
    assert!(
        mismatched.is_empty(),
        "{} of {} pages differ (regenerate with UPDATE_GOLDENS=1 and review the diff):\n{}",
        mismatched.len(),
        pages.len(),
        mismatched.join("\n")
    );
}

#[test]
fn goldens_have_no_orphans() {
    // A golden whose page was removed or renamed would silently stop being checked.
    let pages = corpus_pages();
    for golden in common::files_with_extension(&common::corpus_root(), "md") {
        if golden.file_name().is_some_and(|n| n == "README.md") {
            continue;
        }
        assert!(
            pages.iter().any(|p| p.path.with_extension("md") == golden),
            "{} has no page",
            golden.display()
        );
    }
}

fn first_difference(a: &str, b: &str) -> usize {
    a.bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()))
}

#[test]
fn hidden_and_dangerous_page_keeps_its_promises() {
    // The page describes itself: every VISIBLE-MARKER-n must survive, no HIDDEN-MARKER-n may.
    let page = corpus_pages()
        .into_iter()
        .find(|p| p.rel == "edge/hidden-and-dangerous.html")
        .expect("edge/hidden-and-dangerous.html");
    let html = String::from_utf8_lossy(&page.bytes).into_owned();
    let md = convert_page(&page).markdown;
    let mut visible = 0;
    for n in 1..100 {
        if html.contains(&format!("HIDDEN-MARKER-{n} ")) {
            assert!(
                !md.contains(&format!("HIDDEN-MARKER-{n} ")),
                "HIDDEN-MARKER-{n} leaked"
            );
        }
        if html.contains(&format!("VISIBLE-MARKER-{n} ")) {
            visible += 1;
            assert!(
                md.contains(&format!("VISIBLE-MARKER-{n} ")),
                "VISIBLE-MARKER-{n} lost"
            );
        }
    }
    assert!(visible >= 10, "only {visible} visible markers on the page");
    // The DANGER-n links survive as text only: no destination with a dangerous scheme, no
    // raw HTML.
    for event in pulldown_cmark::Parser::new(&md) {
        match event {
            pulldown_cmark::Event::Start(pulldown_cmark::Tag::Image { dest_url, .. })
                if [
                    "data:image/png",
                    "data:image/gif",
                    "data:image/jpeg",
                    "data:image/webp",
                ]
                .iter()
                .any(|p| dest_url.starts_with(p)) => {}
            pulldown_cmark::Event::Start(
                pulldown_cmark::Tag::Link { dest_url, .. }
                | pulldown_cmark::Tag::Image { dest_url, .. },
            ) => {
                let d = dest_url.to_ascii_lowercase();
                assert!(
                    ["https://", "http://", "mailto:", "tel:"]
                        .iter()
                        .any(|s| d.starts_with(s)),
                    "destination {dest_url}"
                );
            }
            pulldown_cmark::Event::Html(h) | pulldown_cmark::Event::InlineHtml(h) => {
                panic!("raw HTML {h}")
            }
            _ => {}
        }
    }
}
