//! Levels in version control: `diff` (semantic, by object id, field by field; `--textconv` for `git diff`)
//! and `merge` (three-way by object id, usable as a git merge driver); the work is in
//! `collidoscope::level::vcs`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use collidoscope::level::Level;
use collidoscope::level::vcs::{Change, diff_levels, merge_levels, ron_text, textconv};

use super::{Format, print_json};

#[derive(Debug, Args)]
pub(super) struct DiffArgs {
    /// The level before.
    a: PathBuf,
    /// The level after (not with --textconv).
    b: Option<PathBuf>,
    /// Print one level as one line per object, sorted by kind and id (for `git diff`'s textconv).
    #[arg(long)]
    textconv: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

#[derive(Debug, Args)]
pub(super) struct MergeArgs {
    /// The common ancestor (git's %O).
    base: PathBuf,
    /// Our version (git's %A); the merge is written here unless -o is given.
    ours: PathBuf,
    /// Their version (git's %B).
    theirs: PathBuf,
    /// Where to write the merged level (default: OURS).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

fn load(path: &Path) -> Result<Level, ExitCode> {
    Level::load(path).map_err(|e| {
        errln!("{e}");
        ExitCode::from(2)
    })
}

/// One line per change: `~ walls #3 radius: 0.5 -> 0.6`, `+ walls #12 (…)`, `- balls #4`.
fn change_line(c: &Change) -> String {
    let who = if c.key.is_empty() {
        c.kind.to_owned()
    } else {
        format!("{} {}", c.kind, c.key)
    };
    match c.what {
        "added" => format!(
            "+ {who} {}",
            c.after.as_ref().map(ron_text).unwrap_or_default()
        ),
        "removed" => format!("- {who}"),
        _ => format!(
            "~ {who} {}: {} -> {}",
            c.field.as_deref().unwrap_or(""),
            c.before.as_ref().map_or("(none)".into(), ron_text),
            c.after.as_ref().map_or("(none)".into(), ron_text)
        ),
    }
}

/// `diff A B`: exit 0 same, 1 different, 2 error. `diff --textconv A`: the level as one line per object.
pub(super) fn diff(args: &DiffArgs) -> ExitCode {
    let a = match load(&args.a) {
        Ok(l) => l,
        Err(c) => return c,
    };
    if args.textconv {
        out!("{}", textconv(&a));
        return ExitCode::SUCCESS;
    }
    let Some(b_path) = &args.b else {
        errln!("collidoscope diff: give two levels (A B), or one with --textconv");
        return ExitCode::from(2);
    };
    let b = match load(b_path) {
        Ok(l) => l,
        Err(c) => return c,
    };
    let changes = diff_levels(&a, &b);
    match args.format {
        Format::Json => {
            let list = |what: &str| -> Vec<&Change> {
                changes.iter().filter(|c| c.what == what).collect()
            };
            print_json(&serde_json::json!({
                "a": args.a, "b": b_path,
                "added": list("added"), "removed": list("removed"), "changed": list("changed"),
            }));
        }
        Format::Human => {
            for c in &changes {
                outln!("{}", change_line(c));
            }
        }
    }
    if changes.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `merge BASE OURS THEIRS [-o OUT]`: exit 0 merged (written to OUT, default OURS), 1 conflicts (listed on
/// stderr, nothing written), 2 error.
pub(super) fn merge(args: &MergeArgs) -> ExitCode {
    let (base, ours, theirs) = match (load(&args.base), load(&args.ours), load(&args.theirs)) {
        (Ok(b), Ok(o), Ok(t)) => (b, o, t),
        (Err(c), ..) | (_, Err(c), _) | (.., Err(c)) => return c,
    };
    let mut conflicts = Vec::new();
    let merged = merge_levels(&base, &ours, &theirs, &mut conflicts);
    if !conflicts.is_empty() {
        for c in &conflicts {
            errln!("conflict: {}", c.0);
        }
        errln!(
            "collidoscope merge: {} conflict(s); {} left as it was",
            conflicts.len(),
            args.ours.display()
        );
        return ExitCode::from(1);
    }
    let out = args.output.as_ref().unwrap_or(&args.ours);
    match merged.save(out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("{e}");
            ExitCode::from(2)
        }
    }
}
