//! End-to-end tests of the `md-convert` binary. Expected Markdown always comes from the
//! engine itself, so these hold for any correct engine.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use agent_markdown::{convert, Options, StageTimes};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_md-convert");

const PAGE: &str = r#"<!doctype html>
<html lang="en"><head><title>Caf&eacute; notes</title>
<meta name="description" content="A small test page"></head>
<body><nav><a href="/">Home</a></nav>
<main><h1>Caf&eacute; notes</h1>
<p>Relative <a href="docs/intro.html">link</a>, an <img src="/img/a.png" alt="image">,
and some <strong>bold</strong> text &mdash; na&iuml;ve &#x1F600;.</p>
<ul><li>one</li><li>two</li></ul>
<pre><code>let x = 1;</code></pre></main>
<footer>Copyright</footer></body></html>"#;

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn md-convert");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin).expect("write stdin");
    drop(input);
    child.wait_with_output().expect("wait for md-convert")
}

fn write_page(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).expect("mkdir");
    }
    fs::write(&path, bytes).expect("write page");
    path.to_str().expect("utf-8 temp path").to_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn file_stdin_and_dash_give_the_engines_bytes_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = write_page(dir.path(), "page.html", PAGE.as_bytes());
    let expected = convert(PAGE.as_bytes(), &Options::default()).markdown;

    let from_file = run(&[&file], b"");
    let from_stdin = run(&[], PAGE.as_bytes());
    let from_dash = run(&["-"], PAGE.as_bytes());
    for output in [&from_file, &from_stdin, &from_dash] {
        assert!(output.status.success(), "{}", stderr(output));
        assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
        assert!(output.stderr.is_empty(), "{}", stderr(output));
    }
}

#[test]
fn options_are_passed_to_the_engine() {
    // windows-1251 bytes only decode right if --content-type reaches the engine.
    let (html, _, _) = encoding_rs::WINDOWS_1251
        .encode("<title>\u{41f}\u{440}\u{438}\u{432}\u{435}\u{442}</title><nav><a href=a>x</a></nav><p>\u{43c}\u{438}\u{440} <a href=\"b/c\">c</a></p>");
    let opts = Options {
        base_url: Some("https://example.com/dir/page".to_owned()),
        content_type: Some("text/html; charset=windows-1251".to_owned()),
        front_matter: false,
        prune: false,
    };
    let expected = convert(&html, &opts).markdown;
    let output = run(
        &[
            "--base-url",
            "https://example.com/dir/page",
            "--content-type",
            "text/html; charset=windows-1251",
            "--no-front-matter",
            "--no-prune",
        ],
        &html,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
    assert_ne!(
        expected,
        convert(&html, &Options::default()).markdown,
        "options had no effect on this page, so the test proves nothing"
    );
}

#[test]
fn stats_is_one_json_line_matching_the_conversion() {
    let output = run(&["--stats"], PAGE.as_bytes());
    assert!(output.status.success(), "{}", stderr(&output));
    let expected = convert(PAGE.as_bytes(), &Options::default());

    let err = stderr(&output);
    assert!(err.ends_with('\n') && err.lines().count() == 1, "{err:?}");
    let stats: Value = serde_json::from_str(err.trim_end()).expect("stats is JSON");
    let object = stats.as_object().expect("stats is an object");
    let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "bytes_in",
            "bytes_out",
            "encoding",
            "etag",
            "micros",
            "title",
            "tokens"
        ]
    );

    assert_eq!(stats["bytes_in"], PAGE.len());
    assert_eq!(stats["bytes_out"], output.stdout.len());
    assert_eq!(stats["bytes_out"], expected.markdown.len());
    assert_eq!(stats["tokens"], expected.tokens);
    assert_eq!(stats["etag"], expected.etag.as_str());
    assert_eq!(stats["encoding"], expected.encoding);
    match &expected.title {
        Some(title) => assert_eq!(stats["title"], title.as_str()),
        None => assert!(stats["title"].is_null()),
    }
    assert!(stats["micros"].is_u64(), "{stats}");
    let etag = stats["etag"].as_str().expect("etag string");
    assert!(
        etag.len() == 34
            && etag.starts_with('"')
            && etag.ends_with('"')
            && etag[1..33].bytes().all(|b| b.is_ascii_hexdigit()),
        "{etag}"
    );
}

#[test]
fn stats_title_is_null_without_a_title() {
    let html = b"<p>no title here</p>";
    let output = run(&["--stats", "--no-front-matter"], html);
    assert!(output.status.success(), "{}", stderr(&output));
    let stats: Value = serde_json::from_slice(&output.stderr).expect("stats is JSON");
    let expected = convert(
        html,
        &Options {
            front_matter: false,
            ..Options::default()
        },
    );
    assert_eq!(expected.title, None);
    assert!(stats["title"].is_null(), "{stats}");
    assert_eq!(stats["etag"], expected.etag.as_str());
}

#[test]
fn bad_flag_exits_2_with_one_line() {
    let output = run(&["--definitely-not-a-flag"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let err = stderr(&output);
    assert_eq!(err.lines().count(), 1, "{err:?}");
    assert!(err.contains("--definitely-not-a-flag"), "{err:?}");
}

#[test]
fn bench_conflicts_with_a_file_argument() {
    let output = run(&["--bench", ".", "page.html"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stderr(&output).lines().count(), 1);
}

#[test]
fn help_exits_0_on_stdout() {
    let output = run(&["--help"], b"");
    assert_eq!(output.status.code(), Some(0));
    let help = String::from_utf8_lossy(&output.stdout);
    for flag in [
        "--base-url",
        "--content-type",
        "--no-front-matter",
        "--no-prune",
        "--stats",
        "--bench",
    ] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
}

#[test]
fn missing_file_exits_2_naming_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("no-such-page.html");
    let missing = missing.to_str().expect("utf-8 temp path");
    let output = run(&[missing], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let err = stderr(&output);
    assert_eq!(err.lines().count(), 1, "{err:?}");
    assert!(err.contains(missing), "{err:?}");
}

#[test]
fn closed_stdout_is_not_a_crash() {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn md-convert");
    // Close the read end before md-convert can write: its first write hits a dead pipe.
    drop(child.stdout.take());
    let mut input = child.stdin.take().expect("stdin");
    input
        .write_all(PAGE.repeat(50).as_bytes())
        .expect("write stdin");
    drop(input);
    let output = child.wait_with_output().expect("wait");
    let err = stderr(&output);
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.is_empty(), "{err}");
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn bench_counts_html_files_recursively() {
    let dir = tempfile::tempdir().expect("tempdir");
    let small = b"<title>t</title><p>small page</p>";
    write_page(dir.path(), "a.html", PAGE.as_bytes());
    write_page(dir.path(), "nested/deeper/b.html", small);
    write_page(dir.path(), "notes.txt", b"<p>not html</p>");
    write_page(dir.path(), "c.htmlx", b"<p>not html either</p>");

    let output = run(&["--bench", dir.path().to_str().expect("utf-8")], b"");
    assert!(output.status.success(), "{}", stderr(&output));
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(out.ends_with('\n') && out.lines().count() == 1, "{out:?}");
    let report: Value = serde_json::from_str(out.trim_end()).expect("bench JSON");
    assert_eq!(report["files"], 2);
    assert_eq!(report["bytes"], PAGE.len() + small.len());
    let seconds = report["seconds"].as_f64().expect("seconds");
    let mb_per_s = report["mb_per_s"].as_f64().expect("mb_per_s");
    assert!(seconds > 0.0, "{report}");
    let implied = (PAGE.len() + small.len()) as f64 / 1e6 / seconds;
    assert!((mb_per_s - implied).abs() <= implied * 1e-9, "{report}");
}

#[test]
fn bench_stages_are_the_engines_stages() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_page(dir.path(), "a.html", PAGE.as_bytes());
    let output = run(&["--bench", dir.path().to_str().expect("utf-8")], b"");
    assert!(output.status.success(), "{}", stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).expect("bench JSON");
    let stages = report["stages"].as_object().expect("stages object");
    let mut reported: Vec<&str> = stages.keys().map(String::as_str).collect();
    let mut engine: Vec<&str> = StageTimes::default()
        .by_stage()
        .iter()
        .map(|(name, _)| *name)
        .collect();
    reported.sort_unstable();
    engine.sort_unstable();
    assert_eq!(reported, engine, "{report}");
    let secs: Vec<f64> = stages
        .values()
        .map(|v| v.as_f64().expect("seconds"))
        .collect();
    assert!(
        secs.iter().all(|s| *s >= 0.0) && secs.iter().sum::<f64>() > 0.0,
        "{report}"
    );
}

#[test]
fn bench_without_html_exits_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_page(dir.path(), "readme.txt", b"nothing");
    let output = run(&["--bench", dir.path().to_str().expect("utf-8")], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains(dir.path().to_str().expect("utf-8")));
}
