//! Checks that `build`'s tree-construction fast path builds exactly the tree html5ever's tree
//! builder does, on every page named on standard input (one path per line):
//!
//!     find corpus -name '*.html' | cargo run --release -p agent-markdown --example treecheck
//!
//! Prints one line per page whose trees differ and, at the end, how many pages took the fast
//! path. Exits 1 if any tree differs.
use std::io::BufRead;
use std::process::ExitCode;

use agent_markdown::decode::decode;
use agent_markdown::dom::Dom;

fn main() -> ExitCode {
    let (mut pages, mut tidy, mut differ) = (0usize, 0usize, 0usize);
    for line in std::io::stdin().lock().lines() {
        let Ok(path) = line else { break };
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        pages += 1;
        let (text, _) = decode(&bytes, None);
        let Some(fast) = Dom::parse_tidy(&text) else {
            if std::env::var_os("TREECHECK_GAVE_UP").is_some() {
                println!("gave up: {path}");
            }
            continue;
        };
        tidy += 1;
        if fast != Dom::parse_with_tree_builder(&text) {
            differ += 1;
            println!("DIFFERS: {path}");
        }
    }
    println!("{pages} pages, {tidy} built on the fast path, {differ} differ");
    if differ > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
