//! Token budget (issue 2): agents pay per token, so on documentation pages the Markdown
//! should cost at most a quarter of the HTML's tokens. Measured with the engine's own
//! o200k estimate on both sides, over the corpus's documentation pages together.
//!
//! Per page it varies with how much chrome the HTML carries: the lean API references
//! (rustdoc, Javadoc: dense signatures whose every type is a link) land at 35–40 %, the
//! theme-heavy guides (Docusaurus, MkDocs) under a tenth. This checks the corpus only: on 26
//! real generated pages the median is 35 %, set by text-dense generators whose main text
//! alone is 47–58 % of the HTML's tokens (docs/CONFORMANCE.md, "Real documentation pages").
mod common;

use agent_markdown::tokens::estimate;
use common::{convert_page, corpus_pages};

#[test]
fn documentation_markdown_costs_at_most_a_quarter_of_the_html() {
    let (mut md, mut html) = (0u64, 0u64);
    let mut report = Vec::new();
    for page in corpus_pages().iter().filter(|p| p.rel.starts_with("docs/")) {
        let out = convert_page(page);
        let h = estimate(&String::from_utf8_lossy(&page.bytes));
        report.push(format!(
            "{:>5.1}%  {}",
            100.0 * out.tokens as f64 / h as f64,
            page.rel
        ));
        md += out.tokens;
        html += h;
    }
    assert!(report.len() >= 6, "documentation pages missing: {report:?}");
    let ratio = md as f64 / html as f64;
    eprintln!("{}\n{:>5.1}%  all", report.join("\n"), 100.0 * ratio);
    assert!(
        ratio <= 0.25,
        "{:.1}% of the HTML's tokens:\n{}",
        100.0 * ratio,
        report.join("\n")
    );
}
