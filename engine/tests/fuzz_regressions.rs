//! Native replay of the `engine_convert` fuzz corpus: every committed input (seeds, the
//! minimised corpus and saved crashes) is converted and checked with the fuzz target's own
//! invariants, so `cargo test` catches a regression without nightly or libFuzzer.
use std::fs;
use std::path::Path;

#[allow(dead_code)] // the fuzz crate's helpers that only seed writers use
#[path = "../../fuzz/src/engine.rs"]
mod fuzz_engine;

#[path = "../../fuzz/src/replay.rs"]
mod replay_files;

use replay_files::{fuzz_dir, inputs};

fn replay(dir: &Path, check: fn(&[u8]) -> Result<(), String>) -> usize {
    let files = inputs(dir);
    let failures: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let data = fs::read(path).ok()?;
            check(&data)
                .err()
                .map(|e| format!("{}: {e}", path.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    files.len()
}

#[test]
fn committed_corpus_keeps_every_invariant() {
    let n = replay(
        &fuzz_dir().join("corpus/engine_convert"),
        fuzz_engine::check,
    );
    // The seeds alone are over 60 files; an empty replay must not pass silently.
    assert!(n >= 60, "only {n} corpus files found");
}

/// Fixed findings, replayed: a CR from `&#13;` inside `<pre>` (now a line break); C0/DEL
/// from attribute text: image `alt`, link/image `title` (`urls::title_suffix`) and an
/// embed's `title` (now removed); and fenced code read as Markdown (raw HTML, `javascript:`
/// links) when the fence sat in a list item nested over 24 levels (continuation lines were
/// indented for fewer levels than the marker line had markers: `deep-list-fence-*`), or in
/// an ordered item not numbered 1 right under paragraph text, which CommonMark reads as
/// paragraph text (`empty-first-item-*`, `nested-ol-start-3`).
#[test]
fn saved_crashes_keep_every_invariant() {
    let n = replay(
        &fuzz_dir().join("regressions/engine_convert"),
        fuzz_engine::check,
    );
    assert!(n >= 13, "only {n} saved crashes found");
}

#[test]
fn layout_round_trips() {
    let data = fuzz_engine::encode_case(
        b"<p>x</p>",
        false,
        true,
        Some("text/html; charset=utf-8"),
        Some("https://other.example/"),
    );
    let case = fuzz_engine::decode_case(&data);
    assert_eq!(case.html, b"<p>x</p>");
    assert!(!case.opts.front_matter && case.opts.prune);
    assert_eq!(
        case.opts.content_type.as_deref(),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(
        case.opts.base_url.as_deref(),
        Some("https://other.example/")
    );
    // Raw bytes are a case too: short input reads as defaults.
    let empty = fuzz_engine::decode_case(b"");
    assert!(empty.html.is_empty() && empty.opts.front_matter && empty.opts.prune);
}

#[test]
fn invariants_reject_what_they_should() {
    use agent_markdown::Options;
    assert!(fuzz_engine::is_etag("\"0123456789abcdef0123456789abcdef\""));
    assert!(!fuzz_engine::is_etag(
        "\"0123456789ABCDEF0123456789abcdef\""
    ));
    assert!(!fuzz_engine::is_etag(
        "W/\"0123456789abcdef0123456789abcdef\""
    ));
    for bad in [
        "[x](javascript:alert(1))\n",
        "[x](<java\tscript:alert(1)>)\n",
        "[x](&#106;avascript:alert(1))\n",
        "![x](data:text/html,x)\n",
        "![x](data:image/svg+xml,x)\n",
        "<script>x</script>\n",
        "a <b>b</b>\n",
    ] {
        assert!(
            fuzz_engine::check_markdown_events(bad).is_err(),
            "{bad:?} passed"
        );
    }
    for good in [
        "[x](https://e.com/javascript:x)\n",
        "![x](data:image/png;base64,AAAA)\n",
        "[x](/rel:ative)\n",
        "javascript:alert(1) in prose\n",
        "\\<b\\>\n",
    ] {
        assert!(
            fuzz_engine::check_markdown_events(good).is_ok(),
            "{good:?} failed"
        );
    }
    let out = agent_markdown::convert(b"<p>x</p>", &Options::default());
    assert!(fuzz_engine::check_output(&out, &Options::default()).is_ok());
    // Each tampered output is internally consistent (ETag, tokens) but for one invariant.
    let with = |markdown: &str| {
        let markdown = markdown.to_owned();
        agent_markdown::Output {
            tokens: agent_markdown::tokens::estimate(&markdown),
            etag: agent_markdown::meta::etag(markdown.as_bytes()),
            markdown,
            ..out.clone()
        }
    };
    let no_fm = Options {
        front_matter: false,
        ..Options::default()
    };
    for bad in [
        "x\u{1}\n",
        "x\u{85}\n",
        "x\n\n",
        "x",
        "---\ntitle: x\n---\n",
    ] {
        assert!(
            fuzz_engine::check_output(&with(bad), &no_fm).is_err(),
            "{bad:?} passed"
        );
    }
    assert!(fuzz_engine::check_output(&with("x\ty\n"), &no_fm).is_ok());
    let mut stale = with("y\n");
    stale.etag = out.etag.clone();
    assert!(fuzz_engine::check_output(&stale, &no_fm).is_err());
}

/// Replay any directory, e.g. the scratch corpus `make fuzz` grew or its crash artifacts,
/// after an engine change:
/// `FUZZ_REPLAY_DIR=fuzz/work/corpus/engine_convert cargo test --release -p agent-markdown
/// --test fuzz_regressions -- --ignored`
#[test]
#[ignore = "needs FUZZ_REPLAY_DIR"]
fn replay_dir_from_env() {
    let dir = std::env::var_os("FUZZ_REPLAY_DIR").expect("set FUZZ_REPLAY_DIR");
    let n = replay(Path::new(&dir), fuzz_engine::check);
    eprintln!("{n} inputs replayed");
}
