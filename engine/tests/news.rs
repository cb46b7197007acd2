//! Article extraction on messy news pages, against what a reader-mode extractor keeps.
//!
//! Each `corpus/news/<page>.article.txt` holds the article as Firefox's Reader View shows it
//! (headline and paragraphs, one per line). The page's Markdown, read back with a GFM parser
//! (pulldown-cmark), must
//! - contain every article line (recall; the issue asks ≥ 98 %, we hold every page to 100 %
//!   since a dropped paragraph is the worst failure), and
//! - be mostly article: of the words a reader sees, at least 85 % must line up with the
//!   article's words in order (longest common subsequence), the rest being chrome that
//!   survived (bylines, breadcrumbs, captions count against us).
mod common;

use std::fs;

use agent_markdown::{convert, Options};
use common::{corpus_root, files_with_extension, BASE};
use pulldown_cmark::{Event, Options as MdOptions, Parser, Tag, TagEnd};

const MIN_PRECISION: f64 = 0.85;

/// What a reader sees of the Markdown: text, code, and image alt text, blocks separated by
/// newlines, front matter excluded (it is metadata, not article text).
fn visible_text(md: &str) -> String {
    let body = match md.strip_prefix("---\n") {
        Some(rest) => rest.split_once("\n---\n").map_or(md, |(_, body)| body),
        None => md,
    };
    let mut out = String::new();
    for event in Parser::new_ext(
        body,
        MdOptions::ENABLE_TABLES | MdOptions::ENABLE_STRIKETHROUGH,
    ) {
        match event {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            Event::Start(Tag::Image { .. }) => out.push(' '),
            Event::End(
                TagEnd::Paragraph
                | TagEnd::Heading(_)
                | TagEnd::Item
                | TagEnd::TableCell
                | TagEnd::BlockQuote(_)
                | TagEnd::CodeBlock
                | TagEnd::Image,
            ) => out.push('\n'),
            _ => {}
        }
    }
    out
}

fn normalize(s: &str) -> String {
    s.replace('\u{a0}', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Lower-cased words, punctuation that belongs to numbers and quotes kept.
fn words(s: &str) -> Vec<String> {
    s.split(|c: char| {
        !(c.is_alphanumeric() || matches!(c, '\'' | '’' | '.' | ',' | '$' | '%' | '–' | '—' | '-'))
    })
    .filter(|w| !w.is_empty())
    .map(str::to_lowercase)
    .collect()
}

/// Length of the longest common subsequence (two rows: pages are a few hundred words).
fn lcs(a: &[String], b: &[String]) -> usize {
    let mut prev = vec![0usize; b.len() + 1];
    let mut cur = vec![0usize; b.len() + 1];
    for x in a {
        for (j, y) in b.iter().enumerate() {
            cur[j + 1] = if x == y {
                prev[j] + 1
            } else {
                cur[j].max(prev[j + 1])
            };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[test]
fn news_pages_keep_the_article_and_little_else() {
    let dir = corpus_root().join("news");
    let articles = files_with_extension(&dir, "txt");
    assert!(articles.len() >= 5, "expected the news reference articles");
    let mut failures = Vec::new();
    for art in articles {
        let name = art
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".article.txt"))
            .unwrap_or_else(|| panic!("unexpected file {}", art.display()))
            .to_owned();
        let html = fs::read(dir.join(format!("{name}.html"))).expect("page for the article");
        let opts = Options {
            base_url: Some(format!("{BASE}news/{name}.html")),
            ..Options::default()
        };
        let md = convert(&html, &opts).markdown;
        let text = normalize(&visible_text(&md));
        let lines: Vec<String> = fs::read_to_string(&art)
            .expect("article text")
            .lines()
            .map(normalize)
            .filter(|l| !l.is_empty())
            .collect();
        let missing: Vec<&String> = lines
            .iter()
            .filter(|l| !text.contains(l.as_str()))
            .collect();
        let out_words = words(&text);
        let art_words = words(&lines.join(" "));
        let precision = lcs(&out_words, &art_words) as f64 / out_words.len().max(1) as f64;
        println!(
            "{name}: recall {}/{} lines, precision {:.1}% of {} words",
            lines.len() - missing.len(),
            lines.len(),
            precision * 100.0,
            out_words.len()
        );
        if !missing.is_empty() {
            failures.push(format!("{name}: article lines missing: {missing:?}"));
        }
        if precision < MIN_PRECISION {
            failures.push(format!(
                "{name}: only {:.1}% of the output is article (want ≥ {:.0}%)",
                precision * 100.0,
                MIN_PRECISION * 100.0
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_scorer_notices_missing_and_extra_text() {
    let article = "The comet brightened. Observers are pleased.";
    let art_words = words(article);
    // Chrome around the article lowers precision; the article alone is all article.
    let padded = words("Home News Sport Weather The comet brightened. Observers are pleased.");
    assert!(lcs(&padded, &art_words) * 100 / padded.len() < 85);
    assert_eq!(lcs(&art_words, &art_words), art_words.len());
    // A missing line is noticed.
    let text = normalize(&visible_text("# The comet brightened.\n"));
    assert!(!text.contains("Observers are pleased."));
    assert!(text.contains("The comet brightened."));
}
