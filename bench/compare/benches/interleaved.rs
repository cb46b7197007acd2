//! agent-markdown against htmd and fast_html2md, interleaved so that the ratios survive a
//! machine whose speed changes under the benchmark.
//!
//! The shared vCPU this project is measured on runs the same single-threaded work at two speeds
//! (~1.6× apart) and switches between them every few seconds. Criterion (`benches/compare.rs`)
//! samples one converter for seconds, then the next, so each can land in a different mode and
//! their ratio swings between runs. Here every group runs many short **rounds**; in a round each
//! converter converts the group's pages for one fixed slice (~50 ms of passes, the pass count
//! calibrated once after a warm-up) and the order of the converters rotates from round to round
//! (all six orders in turn). A round's ratios (ours ÷ theirs throughput) come from timings
//! milliseconds apart, so the machine's mode cancels out of them; the report is the median and
//! spread of those per-round ratios, and of the per-round throughputs. Slices are timed with the
//! thread's CPU clock, so time other processes hold the core (other builds on a shared machine)
//! is not charged to whichever converter was running; wall-clock figures are reported too
//! (`wall_*`).
//!
//! ```sh
//! cd bench/compare && cargo bench --bench interleaved                # ~50 s, JSON on stdout
//! cargo bench --bench interleaved -- --seconds 120 --out /tmp/i.json  # longer, JSON to a file
//! ```
//!
//! Options: `--seconds S` (default 45: total round time, split 2:1:1 between `docs`, `small` and
//! `large`; warm-up comes on top), `--slice-ms MS` (default 50), `--out PATH`. A one-line
//! summary per group goes to stderr. Groups and converters are those of `benches/compare.rs`;
//! throughput is input bytes per second.
use std::fmt::Write as _;
use std::fs;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

mod pages;

/// Warm-up per converter and group; also the calibration run.
const WARM_UP: Duration = Duration::from_millis(400);
/// Fewest rounds per group, whatever the time budget.
const MIN_ROUNDS: usize = 6;

/// CPU time of the calling thread; `None` where the clock is unavailable.
fn thread_cpu() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    let secs = u64::try_from(ts.tv_sec).ok()?;
    let nanos = u32::try_from(ts.tv_nsec).ok()?;
    (rc == 0).then(|| Duration::new(secs, nanos))
}

/// One pass = converting every page of the group once.
type Pass = Box<dyn Fn(&[String])>;

struct Args {
    seconds: f64,
    slice: Duration,
    out: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        seconds: 45.0,
        slice: Duration::from_millis(50),
        out: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            // Cargo passes `--bench` to every bench target.
            "--bench" => {}
            "--seconds" => {
                args.seconds = value("--seconds")?
                    .parse()
                    .map_err(|e| format!("--seconds: {e}"))?;
                if !(args.seconds > 0.0 && args.seconds.is_finite()) {
                    return Err("--seconds must be positive".into());
                }
            }
            "--slice-ms" => {
                let ms: u64 = value("--slice-ms")?
                    .parse()
                    .map_err(|e| format!("--slice-ms: {e}"))?;
                args.slice = Duration::from_millis(ms.max(1));
            }
            "--out" => args.out = Some(value("--out")?),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(args)
}

struct Group {
    name: &'static str,
    pages: Vec<String>,
    /// Share of the time budget (the documentation pages, the targets' group, get more rounds).
    weight: f64,
}

fn load_groups() -> Result<Vec<Group>, String> {
    Ok(pages::groups()?
        .into_iter()
        .map(|(name, pages)| Group {
            name,
            pages,
            // The documentation pages, the targets' group, get twice the rounds.
            weight: if name == "docs" { 2.0 } else { 1.0 },
        })
        .collect())
}

fn converters() -> Vec<(&'static str, Pass)> {
    let opts = agent_markdown::Options::default();
    vec![
        (
            "agent-markdown",
            Box::new(move |pages: &[String]| {
                for p in pages {
                    black_box(agent_markdown::convert(black_box(p.as_bytes()), &opts));
                }
            }),
        ),
        (
            "htmd",
            Box::new(|pages: &[String]| {
                for p in pages {
                    black_box(htmd::convert(black_box(p)).ok());
                }
            }),
        ),
        (
            "fast_html2md",
            Box::new(|pages: &[String]| {
                for p in pages {
                    black_box(html2md::rewrite_html(black_box(p), false));
                }
            }),
        ),
    ]
}

/// Input MB/s of `passes` passes over `bytes` bytes taking `elapsed`.
fn mb_per_s(bytes: usize, passes: u32, elapsed: Duration) -> f64 {
    bytes as f64 * f64::from(passes) / 1e6 / elapsed.as_secs_f64().max(1e-9)
}

/// The order of the converters in round `r`: all rotations, forwards then backwards, so every
/// converter runs first, middle and last (and after each other one) equally often.
fn order(r: usize, n: usize) -> Vec<usize> {
    let rot = r % n;
    let forward = (r / n).is_multiple_of(2);
    (0..n)
        .map(|i| {
            let k = (rot + i) % n;
            if forward {
                k
            } else {
                n - 1 - k
            }
        })
        .collect()
}

struct Summary {
    median: f64,
    p25: f64,
    p75: f64,
    min: f64,
    max: f64,
}

/// Median, quartiles (linear interpolation) and range; `None` for no values.
fn summarise(values: &[f64]) -> Option<Summary> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let q = |p: f64| {
        let pos = p * (v.len() - 1) as f64;
        let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
        let (a, b) = (v.get(lo).copied()?, v.get(hi).copied()?);
        Some(a + (b - a) * (pos - lo as f64))
    };
    Some(Summary {
        median: q(0.5)?,
        p25: q(0.25)?,
        p75: q(0.75)?,
        min: *v.first()?,
        max: *v.last()?,
    })
}

fn summary_json(values: &[f64]) -> String {
    match summarise(values) {
        Some(s) => format!(
            "{{\"median\": {:.4}, \"p25\": {:.4}, \"p75\": {:.4}, \"min\": {:.4}, \"max\": {:.4}}}",
            s.median, s.p25, s.p75, s.min, s.max
        ),
        None => "null".into(),
    }
}

/// Per converter: one value per round, for one clock.
struct Series {
    mb_per_s: Vec<Vec<f64>>,
    /// Ours ÷ that converter, same round (index 0, ours against itself, stays empty).
    ours_vs: Vec<Vec<f64>>,
}

impl Series {
    fn new(n: usize) -> Self {
        Series {
            mb_per_s: vec![Vec::new(); n],
            ours_vs: vec![Vec::new(); n],
        }
    }

    /// Records one round; index 0 is ours: a ratio above 1 = ours converts more bytes per second.
    fn push(&mut self, round: &[f64]) {
        let Some(&ours) = round.first() else { return };
        for (i, &mbps) in round.iter().enumerate() {
            self.mb_per_s[i].push(mbps);
            if i > 0 {
                self.ours_vs[i].push(ours / mbps);
            }
        }
    }

    /// `"mb_per_s": {..}, "ours_vs": {..}` with keys prefixed by `prefix`.
    fn json(&self, names: &[&str], prefix: &str) -> String {
        let obj = |series: &[Vec<f64>], skip: usize| {
            let fields: Vec<String> = names
                .iter()
                .zip(series)
                .skip(skip)
                .map(|(n, v)| format!("\"{n}\": {}", summary_json(v)))
                .collect();
            format!("{{{}}}", fields.join(", "))
        };
        format!(
            "\"{prefix}mb_per_s\": {}, \"{prefix}ours_vs\": {}",
            obj(&self.mb_per_s, 0),
            obj(&self.ours_vs, 1)
        )
    }
}

/// Runs one group and returns its JSON object.
fn group(
    name: &str,
    pages: &[String],
    convs: &[(&str, Pass)],
    budget: Duration,
    slice: Duration,
) -> String {
    let bytes: usize = pages.iter().map(String::len).sum();
    // Warm-up doubling as calibration: passes per slice from the warm-up's pace.
    let passes: Vec<u32> = convs
        .iter()
        .map(|(_, pass)| {
            let start = Instant::now();
            let mut n = 0u32;
            while start.elapsed() < WARM_UP {
                pass(pages);
                n += 1;
            }
            let per_pass = start.elapsed().as_secs_f64() / f64::from(n);
            (slice.as_secs_f64() / per_pass).round().clamp(1.0, 1e6) as u32
        })
        .collect();

    // Thread CPU time leaves out the time other processes held the core; wall time is kept
    // beside it to show what that buys on a busy machine.
    let mut cpu = Series::new(convs.len());
    let mut wall = Series::new(convs.len());
    let start = Instant::now();
    let mut rounds = 0;
    while rounds < MIN_ROUNDS || start.elapsed() < budget {
        let mut round_cpu = vec![0.0; convs.len()];
        let mut round_wall = vec![0.0; convs.len()];
        for i in order(rounds, convs.len()) {
            let (Some((_, pass)), Some(&n)) = (convs.get(i), passes.get(i)) else {
                continue;
            };
            let (w0, c0) = (Instant::now(), thread_cpu());
            for _ in 0..n {
                pass(pages);
            }
            let (c1, w) = (thread_cpu(), w0.elapsed());
            let c = c0.zip(c1).map_or(w, |(c0, c1)| c1.saturating_sub(c0));
            round_cpu[i] = mb_per_s(bytes, n, c);
            round_wall[i] = mb_per_s(bytes, n, w);
        }
        cpu.push(&round_cpu);
        wall.push(&round_wall);
        rounds += 1;
    }
    let elapsed = start.elapsed().as_secs_f64();

    let names: Vec<&str> = convs.iter().map(|(n, _)| *n).collect();
    let mut line = format!("{name}: {rounds} rounds in {elapsed:.1} s");
    for (conv, v) in names.iter().zip(&cpu.mb_per_s) {
        if let Some(s) = summarise(v) {
            let _ = write!(line, "; {conv} {:.1} MB/s", s.median);
        }
    }
    for (conv, (c, w)) in names
        .iter()
        .zip(cpu.ours_vs.iter().zip(&wall.ours_vs))
        .skip(1)
    {
        if let (Some(c), Some(w)) = (summarise(c), summarise(w)) {
            let _ = write!(
                line,
                "; ours/{conv} {:.2}× (IQR {:.2}–{:.2}; wall clock {:.2}×)",
                c.median, c.p25, c.p75, w.median
            );
        }
    }
    eprintln!("{line}");
    let passes: Vec<String> = names
        .iter()
        .zip(&passes)
        .map(|(n, p)| format!("\"{n}\": {p}"))
        .collect();
    format!(
        "{{\"pages\": {}, \"bytes\": {bytes}, \"rounds\": {rounds}, \"seconds\": {elapsed:.2}, \
         \"passes_per_slice\": {{{}}}, {}, {}}}",
        pages.len(),
        passes.join(", "),
        cpu.json(&names, ""),
        wall.json(&names, "wall_"),
    )
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("interleaved: {e}");
            return ExitCode::from(2);
        }
    };
    let groups = match load_groups() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("interleaved: {e}");
            return ExitCode::FAILURE;
        }
    };
    let convs = converters();
    let weights: f64 = groups.iter().map(|g| g.weight).sum();
    let started = Instant::now();
    let mut json = format!(
        "{{\"method\": \"interleaved rounds, rotating order\", \"clock\": \"{}\", \
         \"slice_ms\": {}, \"seconds_budget\": {}, \"ours\": \"agent-markdown\", \
         \"groups\": {{",
        if thread_cpu().is_some() {
            "thread CPU time"
        } else {
            "wall (no thread CPU clock)"
        },
        args.slice.as_millis(),
        args.seconds
    );
    for (i, g) in groups.iter().enumerate() {
        let budget = Duration::from_secs_f64(args.seconds * g.weight / weights);
        let out = group(g.name, &g.pages, &convs, budget, args.slice);
        let sep = if i == 0 { "" } else { ", " };
        let _ = write!(json, "{sep}\"{}\": {out}", g.name);
    }
    let _ = writeln!(
        json,
        "}}, \"total_seconds\": {:.1}}}",
        started.elapsed().as_secs_f64()
    );
    match &args.out {
        Some(path) => {
            if let Err(e) = fs::write(path, &json) {
                eprintln!("interleaved: {path}: {e}");
                return ExitCode::FAILURE;
            }
        }
        None => print!("{json}"),
    }
    ExitCode::SUCCESS
}
