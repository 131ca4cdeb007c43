//! `replay` and `info` for flight recordings.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use collidoscope::level::Level;
use collidoscope::record::{QueryRecord, Recording, format::MAGIC};
use collidoscope::scene::Scene;

use super::{Format, print_json};

#[derive(Debug, Args)]
pub(super) struct ReplayArgs {
    /// Recording file (saved by a game's `Recorder`).
    recording: PathBuf,
    /// Ask the queries of this level instead of the recording's own (a level edited since).
    #[arg(long)]
    level: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

/// Whether `path` starts with the recording magic.
pub(super) fn is_recording(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && head == MAGIC
}

fn load(path: &Path) -> Result<Recording, ExitCode> {
    Recording::load(path).map_err(|e| {
        errln!("{}: {e}", path.display());
        ExitCode::from(2)
    })
}

/// Re-ask every recorded query (character moves included, with their controller); exit 0 when every answer is
/// the same, 1 when some changed, 2 on errors. Each changed query is listed with its answer before and after
/// and the parts that changed (for a character move: feet, grounded, ground, hits, steps, snap, limit).
pub(super) fn replay(args: &ReplayArgs) -> ExitCode {
    let recording = match load(&args.recording) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let mut scene = match replay_scene(args, &recording) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let mut changed = Vec::new();
    let mut total = 0usize;
    for frame in &recording.frames {
        for (i, q) in frame.queries.iter().enumerate() {
            total += 1;
            // The level's movers where the game had them (its scene time and their starts), so a move is
            // asked again against the (edited) level's movers at its recorded time.
            frame.pose_scene(&mut scene, i);
            let again = q.rerun(&scene);
            if !q.same_answer(&again) {
                changed.push((frame.index, i, q, again));
            }
        }
    }
    match args.format {
        Format::Json => print_json(&serde_json::json!({
            "recording": args.recording,
            "level": args.level,
            "frames": recording.frames.len(),
            "queries": total,
            "truncated": recording.truncated,
            "changed": changed.iter().map(|(frame, i, before, after)| serde_json::json!({
                "frame": frame, "query": i, "kind": before.kind(),
                "differences": before.differences(after),
                "before": before, "after": after,
            })).collect::<Vec<_>>(),
        })),
        Format::Human => {
            for (frame, i, before, after) in &changed {
                let parts = match before {
                    QueryRecord::Character { .. } => {
                        format!(" (changed: {})", before.differences(after).join(", "))
                    }
                    _ => String::new(),
                };
                outln!(
                    "frame {frame} query {i} ({}): {} -> {}{parts}",
                    before.kind(),
                    before.answer_text(3),
                    after.answer_text(3)
                );
            }
            outln!(
                "{}: {} of {total} queries in {} frames answer differently{}",
                args.recording.display(),
                changed.len(),
                recording.frames.len(),
                if recording.truncated {
                    " (the recording was cut off: its last frame is incomplete)"
                } else {
                    ""
                }
            );
        }
    }
    if changed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The scene the queries are asked again in: of `--level`, else of the recording's own level; or the exit
/// code after saying why there is none.
fn replay_scene(args: &ReplayArgs, recording: &Recording) -> Result<Scene, ExitCode> {
    let level = match &args.level {
        Some(p) => match Level::load(p) {
            Ok(l) => l,
            Err(e) => {
                errln!("{e}");
                return Err(ExitCode::from(2));
            }
        },
        None => recording.level.clone(),
    };
    match Scene::from_level(&level) {
        Ok(s) => Ok(s),
        Err(e) => {
            let which = args.level.as_ref().map_or_else(
                || "the recording's level".to_owned(),
                |p| p.display().to_string(),
            );
            errln!("{which}: {e}");
            Err(ExitCode::from(2))
        }
    }
}

/// A recording's queries by kind, steps, dropped records and marks (frame, time, label), for `info`.
struct Summary<'a> {
    kinds: std::collections::BTreeMap<&'static str, usize>,
    steps: usize,
    dropped: u64,
    marks: Vec<(u64, f64, &'a str)>,
}

impl<'a> Summary<'a> {
    fn of(recording: &'a Recording) -> Self {
        let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
        for k in QueryRecord::KINDS {
            kinds.insert(k, 0);
        }
        let mut steps = 0;
        let mut dropped = 0;
        let mut marks = Vec::new();
        for f in &recording.frames {
            for q in &f.queries {
                *kinds.entry(q.kind()).or_default() += 1;
            }
            steps += f.steps.len();
            dropped += f.dropped;
            marks.extend(f.marks.iter().map(|m| (f.index, f.time, m.as_str())));
        }
        Self {
            kinds,
            steps,
            dropped,
            marks,
        }
    }
}

/// `info` for a recording: frames, queries by kind (character moves among them), steps, marks, truncated.
pub(super) fn info(path: &Path, format: Format) -> ExitCode {
    let recording = match load(path) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let Summary {
        kinds,
        steps,
        dropped,
        marks,
    } = Summary::of(&recording);
    let first = recording.frames.first().map(|f| (f.index, f.time));
    let last = recording.frames.last().map(|f| (f.index, f.time));
    match format {
        Format::Json => print_json(&serde_json::json!({
            "file": path,
            "kind": "recording",
            "version": recording.version,
            "level": recording.level.name,
            "frames": recording.frames.len(),
            "first_frame": first.map(|f| f.0),
            "last_frame": last.map(|f| f.0),
            "queries": kinds,
            "steps": steps,
            "dropped_records": dropped,
            "marks": marks.iter().map(|(i, t, m)| serde_json::json!({"frame": i, "time": t, "label": m})).collect::<Vec<_>>(),
            "truncated": recording.truncated,
        })),
        Format::Human => {
            outln!(
                "{}: recording of \"{}\" (format version {})",
                path.display(),
                recording.level.name,
                recording.version
            );
            match (first, last) {
                (Some(a), Some(b)) => outln!(
                    "  {:>10}: {} (#{} at {:.3} s .. #{} at {:.3} s)",
                    "frames",
                    recording.frames.len(),
                    a.0,
                    a.1,
                    b.0,
                    b.1
                ),
                _ => outln!("  {:>10}: 0", "frames"),
            }
            for (k, n) in &kinds {
                outln!("  {k:>10}: {n}");
            }
            outln!("  {:>10}: {steps}", "steps");
            if dropped > 0 {
                outln!(
                    "  {:>10}: {dropped} (frames over the memory budget)",
                    "dropped"
                );
            }
            outln!("  {:>10}: {}", "marks", marks.len());
            for (i, t, m) in &marks {
                outln!("  {:>10}  #{i} at {t:.3} s: {m}", "");
            }
            outln!(
                "  {:>10}: {}",
                "truncated",
                if recording.truncated {
                    "yes (the game stopped mid-write; every whole frame is here)"
                } else {
                    "no"
                }
            );
        }
    }
    ExitCode::SUCCESS
}
