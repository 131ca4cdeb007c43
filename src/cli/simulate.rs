//! `collidoscope simulate`: run a level's simulation headless for a number of steps, with an optional JSON
//! trace of the contact events, and print the totals and the hash.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use collidoscope::level::{Level, LevelError};
use collidoscope::sim::{Contact, ContactEvent, Fnv, StepReport, World};

use super::SimulateArgs;

pub(super) fn simulate(args: &SimulateArgs) -> ExitCode {
    let (level, mut world) = match load_world(&args.file) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let dt = args.dt.unwrap_or(level.simulation.dt);
    if !(dt.is_finite() && dt > 0.0) {
        errln!("collidoscope simulate: --dt must be a positive number of seconds (got {dt})");
        return ExitCode::from(2);
    }
    let mut trace = match &args.trace {
        None => None,
        Some(path) => match EventTrace::create(path) {
            Ok(t) => Some(t),
            Err(code) => return code,
        },
    };
    let progress = progress_bar(args.steps);
    let mut trace_hash = Fnv::new();
    let mut totals = Totals::default();
    let started = std::time::Instant::now();
    for step in 0..args.steps {
        let report = world.step(dt);
        totals.add(&report);
        for e in &report.events {
            trace_hash.event(e);
            if let Some(t) = trace.as_mut() {
                t.event(step, e);
            }
        }
        if let Some(bar) = &progress {
            bar.inc(1);
        }
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if let (Some(t), Some(path)) = (trace, &args.trace)
        && let Some(e) = t.finish()
    {
        errln!("{}: cannot write the trace: {e}", path.display());
        return ExitCode::from(2);
    }
    let elapsed = started.elapsed();
    let mut combined = Fnv::new();
    combined.u64(world.state_hash());
    combined.u64(trace_hash.finish());
    totals.print(args, dt, elapsed);
    if args.hash {
        outln!("hash: {:016x}", combined.finish());
    }
    ExitCode::SUCCESS
}

/// The level in `file` and its simulation world, or the exit code after saying why there is none (2 when the
/// file cannot be loaded, 1 when the level has errors).
fn load_world(file: &Path) -> Result<(Level, World), ExitCode> {
    let level = match Level::load(file) {
        Ok(l) => l,
        Err(e) => {
            errln!("{e}");
            return Err(ExitCode::from(2));
        }
    };
    match World::from_level(&level) {
        Ok(w) => Ok((level, w)),
        Err(LevelError::Invalid { problems }) => {
            for p in problems {
                errln!("{}: {p}", file.display());
            }
            errln!(
                "{}: the level has errors; fix them (see `collidoscope check`)",
                file.display()
            );
            Err(ExitCode::from(1))
        }
        Err(e) => {
            errln!("{e}");
            Err(ExitCode::from(2))
        }
    }
}

/// A progress bar on a terminal for runs of 100 steps or more.
fn progress_bar(steps: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;

    if std::io::stderr().is_terminal() && steps >= 100 {
        let bar = indicatif::ProgressBar::new(steps);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} steps, {per_sec}, eta {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Some(bar)
    } else {
        None
    }
}

/// The `--trace` file: a JSON array of the contact events, one a line. After the first write error nothing
/// more is written, and [`EventTrace::finish`] returns the error.
struct EventTrace {
    out: std::io::BufWriter<std::fs::File>,
    first: bool,
    err: Option<std::io::Error>,
}

impl EventTrace {
    /// Create the file and open the array, or say why not and give the exit code.
    fn create(path: &Path) -> Result<Self, ExitCode> {
        match std::fs::File::create(path) {
            Ok(f) => {
                let mut out = std::io::BufWriter::new(f);
                let err = writeln!(out, "[").err();
                Ok(Self {
                    out,
                    first: true,
                    err,
                })
            }
            Err(e) => {
                errln!("{}: cannot create the trace file: {e}", path.display());
                Err(ExitCode::from(2))
            }
        }
    }

    /// Write event `e` of step `step`.
    fn event(&mut self, step: u64, e: &ContactEvent) {
        if self.err.is_some() {
            return;
        }
        let other = match e.other {
            Contact::Ball(b) => serde_json::json!({ "ball": b.0 }),
            Contact::Static(s) => serde_json::json!({ "static": s }),
        };
        let line = serde_json::json!({
            "step": step, "time": e.time, "ball": e.ball.0, "other": other,
            "point": e.point.to_array(), "normal": e.normal.to_array(),
            "toi_fraction": e.toi_fraction, "approach_speed": e.approach_speed,
            "restitution": e.restitution,
        });
        let sep = if self.first { "" } else { ",\n" };
        self.first = false;
        self.err = write!(self.out, "{sep}  {line}").err();
    }

    /// Close the array and flush; the first write error, if any.
    fn finish(mut self) -> Option<std::io::Error> {
        if self.err.is_none() {
            self.err = writeln!(self.out, "\n]")
                .err()
                .or_else(|| self.out.flush().err());
        }
        self.err
    }
}

/// What the steps reported, summed.
#[derive(Default)]
struct Totals {
    events: u64,
    pushed: u64,
    exhausted: u64,
    pairs: u64,
    sweeps: u64,
    resting: u64,
}

impl Totals {
    fn add(&mut self, report: &StepReport) {
        self.events += report.events.len() as u64;
        self.pushed += report.pushed_out.len() as u64;
        self.exhausted += u64::from(report.budget_exhausted);
        self.pairs += report.counters.pairs_tested;
        self.sweeps += report.counters.sweeps;
        self.resting += report.counters.resting_contacts;
    }

    /// The run's summary: the totals, then the averages per step.
    fn print(&self, args: &SimulateArgs, dt: f32, elapsed: std::time::Duration) {
        let Self {
            events,
            pushed,
            exhausted,
            pairs,
            sweeps,
            resting,
        } = self;
        outln!(
            "{}: {} steps of {dt} s, {events} contact events, {pushed} push-outs, {exhausted} steps over the event budget, {:.3} s",
            args.file.display(),
            args.steps,
            elapsed.as_secs_f64()
        );
        outln!(
            "  per step: {:.1} candidate pairs, {:.1} sweeps, {:.1} resting contacts, {:.3} ms",
            *pairs as f64 / args.steps.max(1) as f64,
            *sweeps as f64 / args.steps.max(1) as f64,
            *resting as f64 / args.steps.max(1) as f64,
            elapsed.as_secs_f64() * 1e3 / args.steps.max(1) as f64
        );
    }
}
