//! `md-convert`: HTML to Markdown on the command line, with the same engine as the Envoy
//! filter, plus a throughput benchmark over a directory of pages.

use std::fmt::Display;
use std::fs;
use std::hint::black_box;
use std::io::{self, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use agent_markdown::{convert, convert_timed, Options, StageTimes};
use clap::Parser;
use serde::Serialize;
use walkdir::WalkDir;

/// Benchmark passes; the fastest one is reported, as the least disturbed by other load.
const BENCH_PASSES: usize = 5;

/// Convert an HTML document to GitHub-flavoured Markdown, written to stdout.
#[derive(Debug, Parser)]
#[command(version)]
struct Cli {
    /// Absolute URL the page was fetched from; relative links resolve against it.
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,

    /// The response's Content-Type header value, used for its charset parameter.
    #[arg(long, value_name = "CT")]
    content_type: Option<String>,

    /// Do not emit YAML front matter.
    #[arg(long)]
    no_front_matter: bool,

    /// Keep the whole page instead of only its main content.
    #[arg(long)]
    no_prune: bool,

    /// Write one JSON line of conversion statistics to stderr.
    #[arg(long)]
    stats: bool,

    /// Instead of converting one document, convert every .html file under DIR from memory
    /// (best of 5 passes, default options) and print one JSON line of throughput.
    #[arg(
        long,
        value_name = "DIR",
        conflicts_with_all = ["file", "base_url", "content_type", "no_front_matter", "no_prune", "stats"]
    )]
    bench: Option<PathBuf>,

    /// HTML file to convert; `-` or none reads stdin.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
}

/// Why a run stopped early.
enum Failure {
    /// Whoever read stdout went away (`md-convert page.html | head -1`): not an error.
    ClosedStdout,
    /// A one-line message for stderr; exit code 2.
    Message(String),
}

impl Failure {
    fn io(what: impl Display, err: io::Error) -> Self {
        Failure::Message(format!("{what}: {err}"))
    }
}

#[derive(Serialize)]
struct Stats<'a> {
    bytes_in: usize,
    bytes_out: usize,
    tokens: u64,
    etag: &'a str,
    title: Option<&'a str>,
    encoding: &'a str,
    micros: u64,
}

#[derive(Serialize)]
struct BenchReport {
    files: usize,
    bytes: usize,
    seconds: f64,
    mb_per_s: f64,
    /// Seconds per stage over all files (best pass of an instrumented run, apart from the
    /// timed one: reading the clock between stages costs a little).
    stages: Stages,
}

#[derive(Serialize)]
struct Stages {
    decode: f64,
    parse: f64,
    select: f64,
    render: f64,
    tokens: f64,
    etag: f64,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) if !err.use_stderr() => err.exit(), // --help, --version: stdout, exit 0
        Err(err) => return fail(&usage_error(&err)),
    };
    let result = match &cli.bench {
        Some(dir) => bench(dir),
        None => convert_one(&cli),
    };
    match result {
        Ok(()) | Err(Failure::ClosedStdout) => ExitCode::SUCCESS,
        Err(Failure::Message(message)) => fail(&message),
    }
}

/// Reports `message` as one stderr line and gives the exit code for bad usage or I/O.
fn fail(message: &str) -> ExitCode {
    // Nothing more can be done if stderr is gone too.
    let _ = writeln!(io::stderr(), "md-convert: {message}");
    ExitCode::from(2)
}

/// The first line of clap's message (it adds usage and tips below), pointing to --help.
fn usage_error(err: &clap::Error) -> String {
    let rendered = err.to_string();
    let first = rendered
        .lines()
        .find(|line| !line.trim().is_empty())
        .unwrap_or("invalid usage");
    format!(
        "{} (see --help)",
        first.trim_start_matches("error: ").trim_end()
    )
}

fn convert_one(cli: &Cli) -> Result<(), Failure> {
    let input = read_input(cli.file.as_deref())?;
    let opts = Options {
        base_url: cli.base_url.clone(),
        content_type: cli.content_type.clone(),
        front_matter: !cli.no_front_matter,
        prune: !cli.no_prune,
    };
    let start = Instant::now();
    let output = convert(&input, &opts);
    let elapsed = start.elapsed();

    let written = write_stdout(output.markdown.as_bytes());
    if cli.stats {
        let stats = Stats {
            bytes_in: input.len(),
            bytes_out: output.markdown.len(),
            tokens: output.tokens,
            etag: &output.etag,
            title: output.title.as_deref(),
            encoding: output.encoding,
            micros: u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX),
        };
        write_json_line(&mut io::stderr().lock(), &stats)
            .map_err(|err| Failure::io("<stderr>", err))?;
    }
    written
}

fn read_input(file: Option<&Path>) -> Result<Vec<u8>, Failure> {
    match file {
        Some(path) if path != Path::new("-") => fs::read(path)
            .map_err(|err| Failure::io(format!("cannot read {}", path.display()), err)),
        _ => {
            let mut input = Vec::new();
            io::stdin()
                .lock()
                .read_to_end(&mut input)
                .map_err(|err| Failure::io("cannot read <stdin>", err))?;
            Ok(input)
        }
    }
}

fn bench(dir: &Path) -> Result<(), Failure> {
    let docs = read_html_tree(dir)?;
    if docs.is_empty() {
        return Err(Failure::Message(format!(
            "no .html files under {}",
            dir.display()
        )));
    }
    let bytes = docs.iter().map(Vec::len).sum();
    let opts = Options::default();
    let mut best = Duration::MAX;
    for _ in 0..BENCH_PASSES {
        let start = Instant::now();
        for doc in &docs {
            // Keep the optimiser from discarding or hoisting the conversion.
            black_box(convert(black_box(doc), &opts));
        }
        best = best.min(start.elapsed());
    }
    let mut stages: Option<StageTimes> = None;
    for _ in 0..BENCH_PASSES {
        let mut pass = StageTimes::default();
        for doc in &docs {
            let (out, t) = convert_timed(black_box(doc), &opts);
            black_box(out);
            pass.decode += t.decode;
            pass.parse += t.parse;
            pass.select += t.select;
            pass.render += t.render;
            pass.tokens += t.tokens;
            pass.etag += t.etag;
        }
        if stages.as_ref().is_none_or(|b| pass.total() < b.total()) {
            stages = Some(pass);
        }
    }
    let st = stages.unwrap_or_default();
    let seconds = best.as_secs_f64();
    let report = BenchReport {
        files: docs.len(),
        bytes,
        seconds,
        mb_per_s: if seconds > 0.0 {
            bytes as f64 / 1e6 / seconds
        } else {
            0.0
        },
        stages: Stages {
            decode: st.decode.as_secs_f64(),
            parse: st.parse.as_secs_f64(),
            select: st.select.as_secs_f64(),
            render: st.render.as_secs_f64(),
            tokens: st.tokens.as_secs_f64(),
            etag: st.etag.as_secs_f64(),
        },
    };
    let mut line = Vec::new();
    write_json_line(&mut line, &report).map_err(|err| Failure::io("<stdout>", err))?;
    write_stdout(&line)
}

/// Every `.html` file under `dir`, recursively, in a stable (file name) order.
fn read_html_tree(dir: &Path) -> Result<Vec<Vec<u8>>, Failure> {
    let mut docs = Vec::new();
    for entry in WalkDir::new(dir).follow_links(true).sort_by_file_name() {
        // walkdir's message names the path it failed on.
        let entry = entry.map_err(|err| Failure::Message(err.to_string()))?;
        let path = entry.path();
        let is_html = path
            .extension()
            .is_some_and(|ext| ext.eq_ignore_ascii_case("html"));
        if is_html && entry.file_type().is_file() {
            let doc = fs::read(path)
                .map_err(|err| Failure::io(format!("cannot read {}", path.display()), err))?;
            docs.push(doc);
        }
    }
    Ok(docs)
}

/// Writes all of `bytes` to stdout, exactly; a reader that went away is reported as such.
fn write_stdout(bytes: &[u8]) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|err| match err.kind() {
            ErrorKind::BrokenPipe => Failure::ClosedStdout,
            _ => Failure::io("<stdout>", err),
        })
}

fn write_json_line(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}
