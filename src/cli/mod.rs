//! Command-line interface: `check`, `simulate`, `generate`, `info`, `fmt`, `replay`, `diff`, `merge`, `reach`;
//! no subcommand opens the editor.

/// `print!` to stdout, without the panic when the reader has gone away (see [`out`]).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::out::write_stdout(format_args!($($arg)*))
    };
}

/// `println!` to stdout, without the panic when the reader has gone away (see [`out`]).
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::out::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprintln!`, without the panic when stderr is a closed pipe (see [`out`]).
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::out::write_stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod nav;
mod out;
mod reach;
mod recording;
mod simulate;
mod vcs;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use collidoscope::generate::{MazeParams, maze};
use collidoscope::level::{Level, LevelError, Problem, Severity};
use simulate::simulate;

/// Collidoscope: collision-detection runtime, level editor and collision debugger.
///
/// With no subcommand it opens the editor on FILE (or on the built-in house level).
#[derive(Debug, Parser)]
#[command(version, about, long_about = None, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Level file to open in the editor.
    file: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Parse and validate level files. Exit 0 when clean, 1 when problems are found, 2 when a file cannot be
    /// read or parsed.
    Check(CheckArgs),
    /// Run a level's simulation headless and print a hash of the result.
    Simulate(SimulateArgs),
    /// Generate stress-test levels.
    #[command(subcommand)]
    Generate(GenerateCommand),
    /// Print a level's object counts, bounds and a summary of its problems, or a recording's frames, queries
    /// by kind, marks and whether it was cut off.
    Info(InfoArgs),
    /// Ask every query of a game's recording again, of its own level or of LEVEL (edited since), and list
    /// those whose answer changed. Exit 0 when none changed, 1 when some did, 2 on errors.
    Replay(recording::ReplayArgs),
    /// Compare two levels object by object (by id) and field by field. Exit 0 same, 1 different, 2 error.
    /// With --textconv, print one level as one line per object (for git diff's textconv).
    Diff(vcs::DiffArgs),
    /// Three-way merge of levels by object id (a git merge driver: `collidoscope merge %O %A %B`). Exit 0
    /// merged (written to OUT, default OURS), 1 conflicts (named on stderr, OURS untouched), 2 error.
    Merge(vcs::MergeArgs),
    /// Rewrite level files in the canonical layout (the one the editor saves), migrating old versions.
    Fmt(FmtArgs),
    /// Map where the level's character can stand and which of it it can walk to from the walker start: the
    /// areas per floor, each unreachable place with the limit in the way, optionally a top-down picture.
    /// Exit 0 when every place that can be stood on is reachable, 1 when some are not, 2 on errors.
    Reach(reach::ReachArgs),
    /// A path between two points for the level's character (walks, drops off ledges, jumps), with the link
    /// of each step, from the navigation map. Exit 0 with a path, 1 when there is none, 2 on errors.
    Nav(nav::NavArgs),
}

#[derive(Debug, Args)]
struct FmtArgs {
    /// Level files to format in place.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Change nothing; exit 1 if any file is not in the canonical layout.
    #[arg(long)]
    check: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum, Default)]
enum Format {
    /// Readable lines.
    #[default]
    Human,
    /// One JSON document on stdout.
    Json,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// Level files to check.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Treat warnings as problems (exit 1).
    #[arg(long)]
    deny_warnings: bool,
    /// Also build each level's reachability map (from the walker start, with the level's character) and
    /// report every entity of a type with `must_reach: true` that the character cannot walk to, naming the
    /// limit in the way. A level without a walker start, or whose map cannot be built, is an error (exit 2).
    #[arg(long)]
    reach: bool,
    /// The reachability map's grid cell, metres (with --reach).
    #[arg(long, requires = "reach")]
    cell: Option<f32>,
    /// With --reach: an entity the character gets to with jumps counts as reached (a navigation map with jump
    /// links, found by simulating the jump, answers where the walking map does not).
    #[arg(long, requires = "reach")]
    jump: bool,
}

#[derive(Debug, Args)]
struct SimulateArgs {
    /// Level file to simulate.
    file: PathBuf,
    /// Number of fixed steps to run.
    #[arg(long)]
    steps: u64,
    /// Step length in seconds (default: the level's `simulation.dt`).
    #[arg(long)]
    dt: Option<f32>,
    /// Write the contact-event trace as JSON to this file.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Print a hash of the final state and the trace.
    #[arg(long)]
    hash: bool,
}

#[derive(Debug, Subcommand)]
enum GenerateCommand {
    /// A maze of exactly N walls with M balls, a floor and a walker start.
    Maze(MazeArgs),
}

#[derive(Debug, Args)]
struct MazeArgs {
    /// Number of walls.
    #[arg(long, default_value_t = 10_000)]
    walls: usize,
    /// Number of balls.
    #[arg(long, default_value_t = 1_000)]
    balls: usize,
    /// Random seed (the same seed gives the same file).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Side of a maze cell in metres.
    #[arg(long, default_value_t = 2.0)]
    cell: f32,
    /// Output file.
    #[arg(short, long)]
    output: PathBuf,
}

#[derive(Debug, Args)]
struct InfoArgs {
    /// Level file, or a recording.
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

/// Parse the command line and run it.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        None => editor(cli.file.as_deref()),
        Some(Command::Check(args)) => check(&args),
        Some(Command::Simulate(args)) => simulate(&args),
        Some(Command::Generate(GenerateCommand::Maze(args))) => generate_maze(&args),
        Some(Command::Info(args)) => info(&args),
        Some(Command::Fmt(args)) => fmt(&args),
        Some(Command::Replay(args)) => recording::replay(&args),
        Some(Command::Diff(args)) => vcs::diff(&args),
        Some(Command::Merge(args)) => vcs::merge(&args),
        Some(Command::Reach(args)) => reach::reach(&args),
        Some(Command::Nav(args)) => nav::nav(&args),
    };
    out::finish(code)
}

#[cfg(feature = "editor")]
fn editor(file: Option<&Path>) -> ExitCode {
    match collidoscope::editor::run(file) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("collidoscope: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(not(feature = "editor"))]
fn editor(file: Option<&Path>) -> ExitCode {
    let what = file.map_or_else(
        || "the built-in house level".to_owned(),
        |f| f.display().to_string(),
    );
    errln!(
        "collidoscope: this build has no editor (built without the `editor` feature), so {what} cannot be \
         opened in it.\nUse the headless commands: collidoscope check | info | simulate | generate (see --help)."
    );
    ExitCode::from(2)
}

/// Count of errors and warnings.
fn tally(problems: &[Problem]) -> (usize, usize) {
    let errors = problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .count();
    (errors, problems.len() - errors)
}

fn error_json(e: &LevelError) -> serde_json::Value {
    match e {
        LevelError::Parse {
            line,
            col,
            field,
            message,
            ..
        } => serde_json::json!({
            "kind": "parse", "line": line, "col": col, "field": field, "message": message,
            "display": e.to_string(),
        }),
        LevelError::Io { .. } => serde_json::json!({ "kind": "io", "display": e.to_string() }),
        LevelError::TooLarge { message, .. } => {
            serde_json::json!({ "kind": "too_large", "message": message, "display": e.to_string() })
        }
        LevelError::Invalid { .. } => {
            serde_json::json!({ "kind": "invalid", "display": e.to_string() })
        }
    }
}

fn check(args: &CheckArgs) -> ExitCode {
    let mut worst = 0u8;
    let mut reports = Vec::new();
    let human = matches!(args.format, Format::Human);
    for file in &args.files {
        match Level::load(file) {
            Err(e) => {
                worst = 2;
                if human {
                    errln!("{e}");
                }
                reports.push(serde_json::json!({
                    "file": file, "status": "unreadable", "error": error_json(&e), "problems": [],
                }));
            }
            Ok(level) => {
                let (code, report) = check_level(args, file, &level, human);
                worst = worst.max(code);
                reports.push(report);
            }
        }
    }
    if matches!(args.format, Format::Json) {
        print_json(&serde_json::Value::Array(reports));
    }
    ExitCode::from(worst)
}

/// `check --reach`'s answer for one level: the map's summary (JSON and line) or why there is no map.
#[derive(Default)]
struct ReachOutcome {
    json: Option<serde_json::Value>,
    line: Option<String>,
    error: Option<String>,
}

/// Check a loaded level (printing its problems when `human`): its exit code (0 ok, 1 problems, 2 no map with
/// --reach) and its JSON report.
fn check_level(
    args: &CheckArgs,
    file: &Path,
    level: &Level,
    human: bool,
) -> (u8, serde_json::Value) {
    let mut problems = level.validate();
    let mut json_problems: Vec<serde_json::Value> = problems
        .iter()
        .map(|p| serde_json::to_value(p).unwrap_or(serde_json::Value::Null))
        .collect();
    let reach = if args.reach {
        check_reach(args, level, &mut problems, &mut json_problems)
    } else {
        ReachOutcome::default()
    };
    let (errors, warnings) = tally(&problems);
    let bad = errors > 0 || (args.deny_warnings && warnings > 0);
    let code = if reach.error.is_some() {
        2
    } else {
        u8::from(bad)
    };
    if human {
        print_check(file, &problems, &reach, (errors, warnings), bad);
    }
    let mut report = serde_json::json!({
        "file": file,
        "status": match (&reach.error, bad) {
            (Some(_), _) => "error",
            (None, true) => "problems",
            (None, false) => "ok",
        },
        "errors": errors,
        "warnings": warnings,
        "problems": json_problems,
    });
    if let Some(o) = report.as_object_mut() {
        if let Some(r) = reach.json {
            o.insert("reach".into(), r);
        }
        if let Some(why) = reach.error {
            o.insert(
                "error".into(),
                serde_json::json!({
                    "kind": "reach",
                    "message": why,
                    "display": format!("{}: cannot check reachability: {why}", file.display()),
                }),
            );
        }
    }
    (code, report)
}

/// With --reach: the map's problems after the level's own (added to `problems` and `json_problems`), or why
/// there is no map.
fn check_reach(
    args: &CheckArgs,
    level: &Level,
    problems: &mut Vec<Problem>,
    json_problems: &mut Vec<serde_json::Value>,
) -> ReachOutcome {
    match reach::check_level(level, args.cell.unwrap_or(reach::DEFAULT_CELL), args.jump) {
        Ok(Some(r)) => {
            for p in &r.problems {
                problems.push(p.problem.clone());
                json_problems.push(r.problem_json(p));
            }
            ReachOutcome {
                json: Some(r.json()),
                line: Some(r.line()),
                error: None,
            }
        }
        Ok(None) => ReachOutcome {
            json: Some(serde_json::json!({ "skipped": "the level has errors" })),
            line: Some("reach: not checked, the level has errors (fix them first)".to_owned()),
            error: None,
        },
        Err(reach::MapError(why)) => ReachOutcome {
            error: Some(why),
            ..ReachOutcome::default()
        },
    }
}

/// `check`'s human output for one level: its problems, the reach line or error, and the verdict.
fn print_check(
    file: &Path,
    problems: &[Problem],
    reach: &ReachOutcome,
    (errors, warnings): (usize, usize),
    bad: bool,
) {
    // `PATH:LINE:COL: PROBLEM` where the position is known (the form editors and CI logs link).
    for p in problems {
        match (p.line, p.col) {
            (Some(l), Some(c)) => outln!("{}:{l}:{c}: {p}", file.display()),
            _ => outln!("{}: {p}", file.display()),
        }
    }
    if let Some(line) = &reach.line {
        outln!("{}: {line}", file.display());
    }
    if let Some(why) = &reach.error {
        errln!("{}: cannot check reachability: {why}", file.display());
    }
    outln!(
        "{}: {} ({errors} error(s), {warnings} warning(s))",
        file.display(),
        match (&reach.error, bad) {
            (Some(_), _) => "reachability not checked",
            (None, true) => "problems found",
            (None, false) => "ok",
        }
    );
}

fn print_json(v: &serde_json::Value) {
    match serde_json::to_string_pretty(v) {
        Ok(text) => outln!("{text}"),
        Err(e) => errln!("collidoscope: cannot write JSON: {e}"),
    }
}

fn info(args: &InfoArgs) -> ExitCode {
    if recording::is_recording(&args.file) {
        return recording::info(&args.file, args.format);
    }
    let level = match Level::load(&args.file) {
        Ok(l) => l,
        Err(e) => {
            errln!("{e}");
            return ExitCode::from(2);
        }
    };
    let problems = level.validate();
    let (errors, warnings) = tally(&problems);
    let counts = object_counts(&level);
    match args.format {
        Format::Json => print_json(&serde_json::json!({
            "file": args.file,
            "name": level.name,
            "counts": counts.iter().map(|(k, v)| (k.to_string(), serde_json::json!(v))).collect::<serde_json::Map<_, _>>(),
            "bounds": level.bounds().map(|b| serde_json::json!({ "min": b.min.to_array(), "max": b.max.to_array() })),
            "walker": level.walker.is_some(),
            "gravity": level.simulation.gravity.to_array(),
            "dt": level.simulation.dt,
            "errors": errors,
            "warnings": warnings,
        })),
        Format::Human => print_info(&args.file, &level, &counts, (errors, warnings)),
    }
    ExitCode::SUCCESS
}

/// The level's objects by kind, for `info` (sectors with the triangles they cook to, and movers).
fn object_counts(level: &Level) -> [(&'static str, usize); 13] {
    let cooked = collidoscope::sector::cook(level.sectors.iter().map(|s| s.geom()));
    [
        ("walls", level.walls.len()),
        ("triangles", level.triangles.len()),
        ("balls", level.balls.len()),
        ("planes", level.planes.len()),
        ("cylinders", level.cylinders.len()),
        ("aabbs", level.aabbs.len()),
        ("obbs", level.obbs.len()),
        ("meshes", level.meshes.len()),
        (
            "mesh triangles",
            level.meshes.iter().map(|m| m.indices.len()).sum(),
        ),
        ("sectors", level.sectors.len()),
        (
            "sector triangles",
            cooked.iter().map(|c| c.indices.len()).sum(),
        ),
        ("movers", level.movers.len()),
        ("probes", level.probes.len()),
    ]
}

/// `info`'s human output for a level.
fn print_info(
    file: &Path,
    level: &Level,
    counts: &[(&str, usize)],
    (errors, warnings): (usize, usize),
) {
    outln!("{}: \"{}\"", file.display(), level.name);
    for &(k, v) in counts {
        if v > 0 {
            outln!("  {k:>15}: {v}");
        }
    }
    match level.bounds() {
        Some(b) => outln!(
            "  {:>15}: ({:.3}, {:.3}, {:.3}) .. ({:.3}, {:.3}, {:.3})",
            "bounds",
            b.min.x,
            b.min.y,
            b.min.z,
            b.max.x,
            b.max.y,
            b.max.z
        ),
        None => outln!("  {:>15}: empty", "bounds"),
    }
    outln!(
        "  {:>15}: {}",
        "walker",
        if level.walker.is_some() {
            "yes"
        } else {
            "none"
        }
    );
    let g = level.simulation.gravity;
    outln!(
        "  {:>15}: gravity ({}, {}, {}) m/s², dt {} s",
        "simulation",
        g.x,
        g.y,
        g.z,
        level.simulation.dt
    );
    outln!(
        "  {:>15}: {errors} error(s), {warnings} warning(s)",
        "problems"
    );
}

fn generate_maze(args: &MazeArgs) -> ExitCode {
    if !(args.cell.is_finite() && args.cell > 0.0) {
        errln!("collidoscope generate maze: --cell must be a positive number of metres");
        return ExitCode::from(2);
    }
    let level = maze(&MazeParams {
        walls: args.walls,
        balls: args.balls,
        seed: args.seed,
        cell: args.cell,
    });
    if let Err(e) = level.save(&args.output) {
        errln!("{e}");
        return ExitCode::from(2);
    }
    outln!(
        "{}: {} walls, {} balls (seed {})",
        args.output.display(),
        level.walls.len(),
        level.balls.len(),
        args.seed
    );
    ExitCode::SUCCESS
}

fn fmt(args: &FmtArgs) -> ExitCode {
    let mut worst = 0u8;
    for file in &args.files {
        let level = match Level::load(file) {
            Ok(l) => l,
            Err(e) => {
                errln!("{e}");
                worst = 2;
                continue;
            }
        };
        let canonical = level.to_ron_string();
        let current = std::fs::read(file).unwrap_or_default();
        if current == canonical.as_bytes() {
            continue;
        }
        if args.check {
            outln!("{}: not in the canonical layout", file.display());
            worst = worst.max(1);
        } else if let Err(e) = collidoscope::level::atomic_write(file, canonical.as_bytes()) {
            errln!("{e}");
            worst = 2;
        } else {
            outln!("{}: formatted", file.display());
        }
    }
    ExitCode::from(worst)
}
