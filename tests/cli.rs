//! The real `collidoscope` binary, run through `std::process::Command`: `check` on every sample level (exit 0)
//! and on every file of the bad corpus (exit 1 or 2 and the exact `file:line:col: field: message` or problem
//! lines listed in `tests/bad_levels/expected.txt`), `--format json` and `--deny-warnings`, `info`,
//! `generate maze` followed by `check`, `fmt` and `fmt --check`, `--help` for every subcommand,
//! `simulate` (hash determinism, trace file, exit codes), `check --reach` and `reach` (problems at the
//! unreachable `must_reach` entities, JSON, the PNG's size and colours, bad input), and every command writing
//! into a pipe whose reader leaves early (`| head -1`: no panic, the command's own exit status) or onto a full
//! disk (exit 2).
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The sample levels shipped in `levels/`.
const SAMPLES: [&str; 9] = [
    "house",
    "triangle_walk",
    "magic_room",
    "cookbook_gallery",
    "maze_large",
    "courtyard",
    "playground",
    "movers",
    "greybox",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn sample(name: &str) -> PathBuf {
    root().join("levels").join(format!("{name}.ron"))
}

fn bad_dir() -> PathBuf {
    root().join("tests").join("bad_levels")
}

/// Runs the binary in the crate root (so relative paths such as `levels/house.ron` work).
fn run<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn go<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = run(args);
    Run {
        code: out.status.code().expect("killed by a signal"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {}\n--- stdout ---\n{}--- stderr ---\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

// ---------------------------------------------------------------------------------------------------------
// The corpus table (see tests/bad_levels/expected.txt for the format).

/// One corpus file: the exit code of `check` and the exact lines it must print (stderr for parse errors,
/// stdout for problems), without the `PATH:` / `PATH: ` prefix.
struct Case {
    file: String,
    exit: i32,
    lines: Vec<String>,
}

fn corpus() -> Vec<Case> {
    let text = std::fs::read_to_string(bad_dir().join("expected.txt")).unwrap();
    let mut out: Vec<Case> = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let (file, exit, expected) = match cols.as_slice() {
            [file, "2", lc, field, message] => {
                let body = if *field == "-" {
                    format!("{lc}: {message}")
                } else {
                    format!("{lc}: {field}: {message}")
                };
                (*file, 2, body)
            }
            [file, exit, severity, object, field, message] => {
                let obj = if *object == "-" {
                    String::new()
                } else {
                    format!(" ({object})")
                };
                (
                    *file,
                    exit.parse().unwrap(),
                    format!("{severity}: {field}{obj}: {message}"),
                )
            }
            _ => panic!("malformed expected.txt line {line:?}"),
        };
        match out.last_mut() {
            Some(c) if c.file == file => c.lines.push(expected),
            _ => out.push(Case {
                file: file.to_owned(),
                exit,
                lines: vec![expected],
            }),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------------------
// check

#[test]
fn check_every_sample_is_clean() {
    for name in SAMPLES {
        let rel = format!("levels/{name}.ron");
        let r = go(["check", &rel]);
        assert_eq!(r.code, 0, "{name}: {r:?}");
        assert_eq!(
            r.stdout,
            format!("{rel}: ok (0 error(s), 0 warning(s))\n"),
            "{name}"
        );
        assert_eq!(r.stderr, "", "{name}");
    }
    // All at once, with --deny-warnings.
    let all: Vec<String> = SAMPLES.iter().map(|n| format!("levels/{n}.ron")).collect();
    let r = go(["check", "--deny-warnings"]
        .into_iter()
        .map(String::from)
        .chain(all.iter().cloned()));
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout.lines().count(), SAMPLES.len(), "{r:?}");
}

#[test]
fn check_every_bad_file() {
    let cases = corpus();
    assert!(cases.len() >= 25);
    let mut failures = Vec::new();
    for case in &cases {
        let path = format!("tests/bad_levels/{}", case.file);
        let r = go(["check", &path]);
        if r.code != case.exit {
            failures.push(format!(
                "{}: exit {}, expected {}\n{r:?}",
                case.file, r.code, case.exit
            ));
            continue;
        }
        if case.exit == 2 {
            // The one error goes to stderr as `PATH:LINE:COL: FIELD: MESSAGE`; nothing on stdout.
            let want = format!("{path}:{}\n", case.lines[0]);
            if r.stderr != want || !r.stdout.is_empty() {
                failures.push(format!("{}: expected stderr {want:?}\n{r:?}", case.file));
            }
        } else {
            // One stdout line per problem, `PATH:LINE:COL: PROBLEM` (the position the library gives, checked in
            // tests/levels.rs; `PATH: PROBLEM` without one), then the summary line.
            let errors = case.lines.iter().filter(|l| l.starts_with("error")).count();
            let warnings = case.lines.len() - errors;
            let positions: Vec<(Option<u32>, Option<u32>)> =
                collidoscope::level::Level::load(path.as_ref())
                    .map(|l| l.validate().iter().map(|p| (p.line, p.col)).collect())
                    .unwrap_or_default();
            let mut want: String = case
                .lines
                .iter()
                .enumerate()
                .map(|(k, l)| match positions.get(k) {
                    Some((Some(line), Some(col))) => format!("{path}:{line}:{col}: {l}\n"),
                    _ => format!("{path}: {l}\n"),
                })
                .collect();
            want.push_str(&format!(
                "{path}: {} ({errors} error(s), {warnings} warning(s))\n",
                if case.exit == 1 {
                    "problems found"
                } else {
                    "ok"
                }
            ));
            if r.stdout != want || !r.stderr.is_empty() {
                failures.push(format!("{}: expected stdout\n{want}{r:?}", case.file));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn check_exit_code_is_the_worst_of_all_files() {
    let r = go([
        "check",
        "levels/house.ron",
        "tests/bad_levels/40_nan_radius.ron",
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    let r = go([
        "check",
        "tests/bad_levels/01_truncated.ron",
        "levels/house.ron",
        "tests/bad_levels/40_nan_radius.ron",
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    // Every file is still reported.
    assert!(
        r.stderr
            .starts_with("tests/bad_levels/01_truncated.ron:5:60: "),
        "{r:?}"
    );
    assert!(r.stdout.contains("levels/house.ron: ok"), "{r:?}");
    assert!(
        r.stdout.contains("40_nan_radius.ron: problems found"),
        "{r:?}"
    );
}

#[test]
fn check_deny_warnings() {
    let f = "tests/bad_levels/60_warn_ball_in_wall.ron";
    assert_eq!(go(["check", f]).code, 0);
    let r = go(["check", "--deny-warnings", f]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout
            .ends_with(&format!("{f}: problems found (0 error(s), 2 warning(s))\n")),
        "{r:?}"
    );
}

#[test]
fn check_missing_file() {
    let r = go(["check", "levels/no such level.ron"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.starts_with("levels/no such level.ron: "), "{r:?}");
    assert!(r.stdout.is_empty(), "{r:?}");
}

#[test]
fn check_format_json() {
    // A clean sample: one JSON array on stdout, nothing on stderr.
    let r = go(["check", "--format", "json", "levels/house.ron"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.is_empty(), "{r:?}");
    let out = r.stdout.trim();
    assert!(out.starts_with('[') && out.ends_with(']'), "{r:?}");
    for key in [
        r#""file": "levels/house.ron""#,
        r#""status": "ok""#,
        r#""errors": 0"#,
        r#""warnings": 0"#,
        r#""problems": []"#,
    ] {
        assert!(out.contains(key), "missing {key}:\n{out}");
    }
    assert_eq!(out.matches('{').count(), out.matches('}').count());

    // A parse error, a validation error and a warning-only file together.
    let r = go([
        "check",
        "--format",
        "json",
        "tests/bad_levels/05_unknown_field_in_wall.ron",
        "tests/bad_levels/41_negative_radius.ron",
        "tests/bad_levels/60_warn_ball_in_wall.ron",
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.is_empty(), "human text leaked to stderr: {r:?}");
    let out = r.stdout;
    for key in [
        r#""status": "unreadable""#,
        r#""kind": "parse""#,
        r#""line": 6"#,
        r#""col": 60"#,
        r#""field": "walls[1].colour""#,
        r#""display": "tests/bad_levels/05_unknown_field_in_wall.ron:6:60: walls[1].colour: Unexpected field"#,
        r#""status": "problems""#,
        r#""severity": "Error""#,
        r#""object": 1"#,
        r#""field": "balls[0].radius""#,
        r#""message": "must be greater than 0 (is -0.5)""#,
        r#""severity": "Warning""#,
        r#""field": "balls[2].center""#,
        r#""message": "starts overlapping ball #3""#,
    ] {
        assert!(out.contains(key), "missing {key}:\n{out}");
    }
    assert_eq!(out.matches(r#""file": "#).count(), 3, "{out}");
    // --deny-warnings turns the warning-only file into "problems".
    let r = go([
        "check",
        "--format",
        "json",
        "--deny-warnings",
        "tests/bad_levels/60_warn_ball_in_wall.ron",
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains(r#""status": "problems""#), "{r:?}");
    assert!(r.stdout.contains(r#""warnings": 2"#), "{r:?}");
}

#[test]
fn check_needs_a_file() {
    let r = go(["check"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("Usage"), "{r:?}");
    let r = go(["check", "--format", "xml", "levels/house.ron"]);
    assert_eq!(r.code, 2, "{r:?}");
}

// ---------------------------------------------------------------------------------------------------------
// info

#[test]
fn info_house() {
    let r = go(["info", "levels/house.ron"]);
    assert_eq!(r.code, 0, "{r:?}");
    let mut want = String::from("levels/house.ron: \"house\"\n");
    for (key, value) in [
        ("walls", "9"),
        ("probes", "1"),
        (
            "bounds",
            "(-24.900, 0.000, -14.900) .. (19.900, 3.000, 14.900)",
        ),
        ("walker", "yes"),
        ("simulation", "gravity (0, -9.81, 0) m/s², dt 0.016666668 s"),
        ("problems", "0 error(s), 0 warning(s)"),
    ] {
        want.push_str(&format!("  {key:>15}: {value}\n"));
    }
    assert_eq!(r.stdout, want, "{r:?}");

    let r = go(["info", "--format", "json", "levels/cookbook_gallery.ron"]);
    assert_eq!(r.code, 0, "{r:?}");
    for key in [
        r#""name": "cookbook gallery""#,
        r#""walls": 1"#,
        r#""triangles": 1"#,
        r#""balls": 1"#,
        r#""planes": 1"#,
        r#""cylinders": 1"#,
        r#""aabbs": 1"#,
        r#""obbs": 2"#,
        r#""meshes": 1"#,
        r#""mesh triangles": 4"#,
        r#""probes": 1"#,
        r#""walker": true"#,
        r#""errors": 0"#,
        r#""warnings": 0"#,
        r#""bounds": {"#,
    ] {
        assert!(r.stdout.contains(key), "missing {key}:\n{}", r.stdout);
    }
}

#[test]
fn info_counts_and_problems() {
    let r = go(["info", "levels/maze_large.ron"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("  balls: 1000\n"), "{r:?}");
    let r = go(["info", "tests/bad_levels/57_many_problems.ron"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("problems: 7 error(s), 0 warning(s)"),
        "{r:?}"
    );
    let r = go(["info", "tests/bad_levels/03_wrong_type.ron"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(
        r.stderr,
        "tests/bad_levels/03_wrong_type.ron:4:25: default_wall_height: Expected float\n"
    );
}

#[test]
fn info_counts_sectors_and_their_cooked_triangles() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rooms.ron");
    // Two rooms side by side, the second a step up: floors, ceilings, walls and one riser.
    std::fs::write(
        &path,
        "(version: 3, name: \"rooms\", sectors: [\n\
         (id: 1, outline: [(0, 0), (2, 0), (2, 2), (0, 2)], floor: (height: 0), ceiling: (height: 3)),\n\
         (id: 2, outline: [(2, 0), (4, 0), (4, 2), (2, 2)], floor: (height: 0.2), ceiling: (height: 3)),\n\
         ])\n",
    )
    .unwrap();
    let level = collidoscope::level::Level::load(&path).unwrap();
    let cooked: usize = collidoscope::sector::cook(level.sectors.iter().map(|s| s.geom()))
        .iter()
        .map(|c| c.indices.len())
        .sum();
    // Each room: 2 floor, 2 ceiling and 3 × 2 wall triangles; the step between them: a riser.
    assert!(cooked >= 22, "{cooked}");
    let r = go(["info".as_ref(), path.as_os_str()]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("          sectors: 2\n"), "{r:?}");
    assert!(
        r.stdout
            .contains(&format!("  sector triangles: {cooked}\n")),
        "{r:?}"
    );
    let r = go([
        "info".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        path.as_os_str(),
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(json["counts"]["sectors"], 2);
    assert_eq!(json["counts"]["sector triangles"], cooked);
    assert_eq!(json["counts"]["movers"], 0);
}

// ---------------------------------------------------------------------------------------------------------
// info and replay of recordings with character moves

/// A floor (#1), a 0.2 m step (#2) and a wall (#3).
const STEPS: &str = r#"(version: 2, name: "steps",
    planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
    aabbs: [(id: 2, min: (1.0, 0.0, -1.0), max: (4.0, 0.2, 1.0)), (id: 3, min: (6.0, 0.0, -5.0), max: (7.0, 3.0, 5.0))],
)"#;

/// A recording of a character walking over the step to the wall (a move and a ray a frame, 70 frames), saved
/// in `dir`; returns its path and the level.
fn character_recording(dir: &Path) -> (PathBuf, collidoscope::level::Level) {
    use collidoscope::character::CharacterController;
    use collidoscope::glam::Vec3;
    use collidoscope::record::{Recorder, RecorderConfig};
    use collidoscope::scene::Scene;
    use collidoscope::shape::Ray;

    let level = collidoscope::level::Level::from_ron_str(STEPS).unwrap();
    let scene = Scene::from_level(&level).unwrap();
    let c = CharacterController::default();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    let mut feet = Vec3::new(0.0, c.skin, 0.0);
    for f in 0..70 {
        rec.begin_frame(f64::from(f) / 60.0);
        feet = rec
            .move_character(&scene, &c, feet, Vec3::new(0.1, -0.01, 0.0))
            .feet;
        let _ = rec.cast_ray(&scene, &Ray::new(feet + Vec3::Y, Vec3::X), 50.0);
    }
    let path = dir.join("walk.crec");
    rec.save(&path).unwrap();
    (path, level)
}

#[test]
fn info_counts_character_moves_among_the_queries() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = character_recording(dir.path());
    let r = go(["info".as_ref(), path.as_os_str()]);
    assert_eq!(r.code, 0, "{r:?}");
    for line in [
        "   character: 70\n",
        "         ray: 70\n",
        "       slide: 0\n",
        "       sweep: 0\n",
        "     overlap: 0\n",
    ] {
        assert!(r.stdout.contains(line), "{line:?} in\n{}", r.stdout);
    }
    let r = go([
        "info".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        path.as_os_str(),
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(json["queries"]["character"], 70);
    assert_eq!(json["queries"]["ray"], 70);
    // A recording written before character moves were recorded has none.
    let r = go([
        "info",
        "--format",
        "json",
        "tests/data/courtyard_before_characters.crec",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(json["queries"]["character"], 0);
    assert_eq!(json["queries"]["slide"], 90);
}

#[test]
fn replay_lists_the_character_moves_that_changed() {
    let dir = tempfile::tempdir().unwrap();
    let (path, level) = character_recording(dir.path());
    // Against its own level: nothing changed.
    let r = go(["replay".as_ref(), path.as_os_str()]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout
            .ends_with("0 of 140 queries in 70 frames answer differently\n"),
        "{r:?}"
    );
    // The step made 0.1 m higher: the moves from the climb on change (feet, steps), the rays do not.
    let mut edited = level.clone();
    edited.aabbs[0].max.y = 0.3;
    let edited_path = dir.path().join("edited.ron");
    edited.save(&edited_path).unwrap();
    let r = go([
        "replay".as_ref(),
        path.as_os_str(),
        "--level".as_ref(),
        edited_path.as_os_str(),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    let lines: Vec<&str> = r.stdout.lines().collect();
    let (summary, changed) = lines.split_last().unwrap();
    assert!(
        summary.contains(" of 140 queries in 70 frames answer differently"),
        "{summary}"
    );
    assert!(!changed.is_empty());
    for l in changed {
        assert!(
            l.starts_with("frame ") && l.contains(" query 0 (character): feet ("),
            "{l}"
        );
        assert!(l.contains(" -> feet (") && l.contains(" (changed: "), "{l}");
    }
    assert!(
        changed.iter().any(|l| l.contains("stepped 0.300 m")
            && l.contains("stepped 0.200 m")
            && l.contains("(changed: feet, ")
            && l.contains("steps")),
        "{}",
        r.stdout
    );
    let r = go([
        "replay".as_ref(),
        path.as_os_str(),
        "--level".as_ref(),
        edited_path.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(json["queries"], 140);
    let changed = json["changed"].as_array().unwrap();
    assert_eq!(changed.len(), lines.len() - 1);
    for c in changed {
        assert_eq!(c["kind"], "character");
        assert_eq!(c["query"], 0);
        let parts = c["differences"].as_array().unwrap();
        assert!(parts.contains(&"feet".into()), "{c}");
        // The whole record before and after, the move's workings included.
        assert!(
            c["before"]["Character"]["result"]["trace"]["sweeps"].is_array(),
            "{c}"
        );
        assert_ne!(
            c["before"]["Character"]["result"],
            c["after"]["Character"]["result"]
        );
    }
    // A level that does not load: exit 2.
    std::fs::write(&edited_path, "(version: 2, planes: [oops])").unwrap();
    let r = go([
        "replay".as_ref(),
        path.as_os_str(),
        "--level".as_ref(),
        edited_path.as_os_str(),
    ]);
    assert_eq!(r.code, 2, "{r:?}");
}

// ---------------------------------------------------------------------------------------------------------
// generate

#[test]
fn generate_maze_then_check() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("maze.ron");
    let r = go([
        "generate".as_ref(),
        "maze".as_ref(),
        "--walls".as_ref(),
        "300".as_ref(),
        "--balls".as_ref(),
        "20".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        format!("{}: 300 walls, 20 balls (seed 1)\n", out.display())
    );
    let r = go(["check".as_ref(), out.as_os_str()]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.ends_with("ok (0 error(s), 0 warning(s))\n"),
        "{r:?}"
    );
    let level = collidoscope::level::Level::load(&out).unwrap();
    assert_eq!((level.walls.len(), level.balls.len()), (300, 20));
    // Already canonical.
    assert_eq!(
        go(["fmt".as_ref(), "--check".as_ref(), out.as_os_str()]).code,
        0
    );
    // The same seed gives the same bytes; another seed another maze.
    let again = dir.path().join("again.ron");
    let other = dir.path().join("other.ron");
    for (path, seed) in [(&again, "1"), (&other, "2")] {
        let r = go([
            "generate".as_ref(),
            "maze".as_ref(),
            "--walls".as_ref(),
            "300".as_ref(),
            "--balls".as_ref(),
            "20".as_ref(),
            "--seed".as_ref(),
            seed.as_ref(),
            "--output".as_ref(),
            path.as_os_str(),
        ]);
        assert_eq!(r.code, 0, "{r:?}");
    }
    let bytes = |p: &Path| std::fs::read(p).unwrap();
    assert_eq!(bytes(&out), bytes(&again));
    assert_ne!(bytes(&out), bytes(&other));
}

#[test]
fn generate_rejects_bad_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("maze.ron");
    // No output file.
    let r = go(["generate", "maze", "--walls", "10"]);
    assert_eq!(r.code, 2, "{r:?}");
    // A cell that is not a positive number.
    let r = go([
        "generate".as_ref(),
        "maze".as_ref(),
        "--cell=0".as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(
        r.stderr,
        "collidoscope generate maze: --cell must be a positive number of metres\n"
    );
    assert!(!out.exists());
    // An output folder that does not exist: the error names the file, exit 2.
    let missing = dir.path().join("nowhere").join("maze.ron");
    let r = go([
        "generate".as_ref(),
        "maze".as_ref(),
        "--walls".as_ref(),
        "10".as_ref(),
        "-o".as_ref(),
        missing.as_os_str(),
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.starts_with(&missing.display().to_string()),
        "{r:?}"
    );
}

// ---------------------------------------------------------------------------------------------------------
// fmt

#[test]
fn fmt_check_on_samples_is_clean() {
    let mut args = vec!["fmt".to_owned(), "--check".to_owned()];
    args.extend(SAMPLES.iter().map(|n| format!("levels/{n}.ron")));
    let r = go(&args);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "", "{r:?}");
}

#[test]
fn fmt_rewrites_a_reformatted_copy() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("house.ron");
    let canonical = std::fs::read_to_string(sample("house")).unwrap();
    // Same level, other layout: a comment, collapsed indentation, an extra blank line.
    let messy = format!(
        "// hand edited\n{}\n",
        canonical
            .replace("    ", "  ")
            .replace("walls: [", "walls: [\n")
    );
    std::fs::write(&path, &messy).unwrap();
    assert_eq!(
        collidoscope::level::Level::load(&path).unwrap(),
        collidoscope::level::Level::load(&sample("house")).unwrap()
    );

    let r = go(["fmt".as_ref(), "--check".as_ref(), path.as_os_str()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.stdout,
        format!("{}: not in the canonical layout\n", path.display())
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        messy,
        "--check changed the file"
    );

    let r = go(["fmt".as_ref(), path.as_os_str()]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, format!("{}: formatted\n", path.display()));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), canonical);
    let r = go(["fmt".as_ref(), "--check".as_ref(), path.as_os_str()]);
    assert_eq!(r.code, 0, "{r:?}");
    // No temporary files left.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["house.ron"]);
}

#[test]
fn fmt_migrates_v0_and_refuses_bad_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.ron");
    std::fs::write(
        &path,
        "(version: 0, name: \"old\", collision_distance: 0.5, walls: [((0.0, 0.0), (4.0, 0.0))])",
    )
    .unwrap();
    assert_eq!(
        go(["fmt".as_ref(), "--check".as_ref(), path.as_os_str()]).code,
        1
    );
    assert_eq!(go(["fmt".as_ref(), path.as_os_str()]).code, 0);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("version: 3,"), "{text}");
    assert!(
        text.contains("(id: 1, a: (0.0, 0.0), b: (4.0, 0.0), radius: 0.5),"),
        "{text}"
    );

    let bad = dir.path().join("bad.ron");
    std::fs::copy(bad_dir().join("01_truncated.ron"), &bad).unwrap();
    let before = std::fs::read(&bad).unwrap();
    let r = go(["fmt".as_ref(), bad.as_os_str()]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.starts_with(&format!("{}:5:60: ", bad.display())),
        "{r:?}"
    );
    assert_eq!(std::fs::read(&bad).unwrap(), before);
}

// ---------------------------------------------------------------------------------------------------------
// --help and simulate

#[test]
fn help_for_every_command() {
    for args in [
        vec!["--help"],
        vec!["check", "--help"],
        vec!["simulate", "--help"],
        vec!["generate", "--help"],
        vec!["generate", "maze", "--help"],
        vec!["info", "--help"],
        vec!["fmt", "--help"],
        vec!["reach", "--help"],
        vec!["help", "check"],
    ] {
        let r = go(&args);
        assert_eq!(r.code, 0, "{args:?}: {r:?}");
        assert!(r.stdout.contains("Usage: collidoscope"), "{args:?}: {r:?}");
    }
    let top = go(["--help"]).stdout;
    for command in ["check", "simulate", "generate", "info", "fmt", "reach"] {
        assert!(
            top.contains(command),
            "--help does not list {command}:\n{top}"
        );
    }
    let sim = go(["simulate", "--help"]).stdout;
    for flag in ["--steps", "--dt", "--trace", "--hash"] {
        assert!(sim.contains(flag), "simulate --help lacks {flag}:\n{sim}");
    }
    let check = go(["check", "--help"]).stdout;
    for flag in ["--reach", "--cell", "--deny-warnings", "--format"] {
        assert!(check.contains(flag), "check --help lacks {flag}:\n{check}");
    }
    let reach = go(["reach", "--help"]).stdout;
    for flag in ["--png", "--cell", "--format"] {
        assert!(reach.contains(flag), "reach --help lacks {flag}:\n{reach}");
    }
    let maze = go(["generate", "maze", "--help"]).stdout;
    for flag in ["--walls", "--balls", "--seed", "--cell", "--output"] {
        assert!(
            maze.contains(flag),
            "generate maze --help lacks {flag}:\n{maze}"
        );
    }
    assert_eq!(go(["--version"]).code, 0);
    assert_eq!(go(["no-such-command", "x"]).code, 2);
}

#[test]
fn simulate() {
    let r = go(["simulate", "levels/house.ron", "--steps", "10"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("10 steps"), "{r:?}");
    // `--hash` is deterministic run to run (timings in the summary differ, so compare the hash line).
    let hash_line = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("hash: "))
            .map(str::to_owned)
            .unwrap_or_default()
    };
    let args = [
        "simulate",
        "levels/magic_room.ron",
        "--steps",
        "60",
        "--hash",
    ];
    let (a, b) = (go(args), go(args));
    assert_eq!(a.code, 0, "{a:?}");
    let h = hash_line(&a.stdout);
    assert_eq!(h.len(), "hash: ".len() + 16, "{a:?}");
    assert_eq!(h, hash_line(&b.stdout), "the hash is not deterministic");
    // A different dt gives a different run.
    let c = go([
        "simulate",
        "levels/magic_room.ron",
        "--steps",
        "60",
        "--dt",
        "0.01",
        "--hash",
    ]);
    assert_ne!(h, hash_line(&c.stdout));
    // The trace is a JSON array of contact events.
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace.json");
    let r = go([
        "simulate",
        "levels/magic_room.ron",
        "--steps",
        "120",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let text = std::fs::read_to_string(&trace).unwrap();
    assert!(
        text.trim_start().starts_with('[') && text.trim_end().ends_with(']'),
        "{text}"
    );
    for key in [
        "\"time\"",
        "\"ball\"",
        "\"other\"",
        "\"normal\"",
        "\"toi_fraction\"",
    ] {
        assert!(text.contains(key), "trace lacks {key}");
    }
    // A level with validation errors exits 1 and lists them; an unparsable one exits 2.
    let r = go([
        "simulate",
        "tests/bad_levels/40_nan_radius.ron",
        "--steps",
        "1",
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("radius"), "{r:?}");
    let r = go([
        "simulate",
        "tests/bad_levels/01_truncated.ron",
        "--steps",
        "1",
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    // `--steps` is required.
    let r = go(["simulate", "levels/house.ron"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("--steps"), "{r:?}");
}

/// No subcommand opens the editor; without a display it says so, points to the CLI and exits 2 (from any
/// directory: the default level is built in).
#[cfg(feature = "editor")]
#[test]
fn without_a_display_the_editor_points_to_the_cli() {
    let out = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no display") && err.contains("collidoscope check LEVEL"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------------------
// A reader that stops early (`collidoscope … | head -1`): no panic, the command's own exit status.

/// How the binary ended when its reader went away.
struct Closed {
    /// What the reader got before it closed the pipe.
    first_line: String,
    status: std::process::ExitStatus,
    stderr: String,
}

impl Closed {
    /// The binary exited by itself (no signal, no panic) with `code`, and said nothing about a panic or a
    /// failed write.
    fn assert_quiet(&self, code: i32, what: &str) {
        assert_eq!(
            self.status.code(),
            Some(code),
            "{what}: {:?}, stderr:\n{}",
            self.status,
            self.stderr
        );
        for bad in ["panicked", "Broken pipe", "cannot write"] {
            assert!(
                !self.stderr.contains(bad),
                "{what}: stderr:\n{}",
                self.stderr
            );
        }
    }
}

/// Runs the binary with stdout piped to a reader that closes the pipe after the first line, as `| head -1`
/// does (`lines = 1`), or before reading anything (`lines = 0`: for output too short to outlast the pipe's
/// buffer, whose first write then meets the closed pipe). Stderr is drained on the side.
fn close_after<I, S>(lines: usize, args: I) -> Closed
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr_pipe = child.stderr.take().unwrap();
    let stderr = std::thread::spawn(move || {
        let mut s = String::new();
        stderr_pipe.read_to_string(&mut s).unwrap();
        s
    });
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first_line = String::new();
    if lines > 0 {
        stdout.read_line(&mut first_line).unwrap();
    }
    drop(stdout);
    let status = child.wait().unwrap();
    Closed {
        first_line,
        status,
        stderr: stderr.join().unwrap(),
    }
}

/// Enough output to outlast the pipe's buffer (64 KiB on Linux) and the reader's (8 KiB): the binary is
/// still writing when the reader closes, so its next write fails with a broken pipe.
const MANY: usize = 2000;

#[test]
fn check_into_a_closed_pipe() {
    let mut files = vec!["check"];
    files.extend(["levels/house.ron"; MANY]);
    let r = close_after(1, &files);
    r.assert_quiet(0, "check");
    assert_eq!(
        r.first_line,
        "levels/house.ron: ok (0 error(s), 0 warning(s))\n"
    );
    // JSON comes as one document at the end; the reader still leaves after its first line.
    let mut json = vec!["check", "--format", "json"];
    json.extend(&files[1..]);
    let r = close_after(1, &json);
    r.assert_quiet(0, "check --format json");
    assert_eq!(r.first_line, "[\n");
    // The verdict is still the command's: problems found gives 1 even when nobody reads the list.
    let mut bad = files.clone();
    bad.push("tests/bad_levels/41_negative_radius.ron");
    let r = close_after(1, &bad);
    r.assert_quiet(1, "check with a bad level");
}

#[test]
fn diff_and_textconv_into_a_closed_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.ron"), dir.path().join("b.ron"));
    for (path, seed) in [(&a, "1"), (&b, "2")] {
        let r = go([
            "generate".as_ref(),
            "maze".as_ref(),
            "--walls".as_ref(),
            "3000".as_ref(),
            "--balls".as_ref(),
            "10".as_ref(),
            "--seed".as_ref(),
            seed.as_ref(),
            "-o".as_ref(),
            path.as_os_str(),
        ]);
        assert_eq!(r.code, 0, "{r:?}");
    }
    let r = close_after(1, ["diff".as_ref(), "--textconv".as_ref(), a.as_os_str()]);
    r.assert_quiet(0, "diff --textconv");
    assert!(r.first_line.starts_with("level "), "{}", r.first_line);
    // Different mazes: exit 1, as with a reader that reads every change.
    let r = close_after(1, ["diff".as_ref(), a.as_os_str(), b.as_os_str()]);
    r.assert_quiet(1, "diff");
    let r = close_after(
        1,
        [
            "diff".as_ref(),
            "--format".as_ref(),
            "json".as_ref(),
            a.as_os_str(),
            b.as_os_str(),
        ],
    );
    r.assert_quiet(1, "diff --format json");
}

#[test]
fn fmt_check_into_a_closed_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("spaced.ron");
    // The canonical text with extra blank lines: not in the canonical layout.
    let text = std::fs::read_to_string(sample("house")).unwrap();
    std::fs::write(&file, text.replace('\n', "\n\n")).unwrap();
    let mut args = vec!["fmt".as_ref(), "--check".as_ref()];
    args.extend(std::iter::repeat_n(file.as_os_str(), MANY));
    let r = close_after(1, &args);
    r.assert_quiet(1, "fmt --check");
    assert_eq!(
        r.first_line,
        format!("{}: not in the canonical layout\n", file.display())
    );
    // `fmt` itself finishes its work when nobody reads what it did.
    let r = close_after(0, ["fmt".as_ref(), file.as_os_str()]);
    r.assert_quiet(0, "fmt");
    assert_eq!(
        go(["fmt".as_ref(), "--check".as_ref(), file.as_os_str()]).code,
        0
    );
}

#[test]
fn info_and_replay_of_a_recording_into_a_closed_pipe() {
    use collidoscope::glam::Vec3;
    use collidoscope::level::Level;
    use collidoscope::record::{Recorder, RecorderConfig};
    use collidoscope::scene::Scene;
    use collidoscope::shape::Ray;

    let dir = tempfile::tempdir().unwrap();
    let level = Level::load(&sample("house")).unwrap();
    let scene = Scene::from_level(&level).unwrap();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    for i in 0..MANY {
        rec.begin_frame(i as f64 / 60.0);
        rec.mark(&format!(
            "mark {i}: something worth finding again in the recording"
        ));
        let angle = i as f32 * 0.01;
        let ray = Ray::new(
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(angle.cos(), 0.0, angle.sin()),
        );
        rec.cast_ray(&scene, &ray, 100.0);
    }
    let path = dir.path().join("run.rec");
    rec.save(&path).unwrap();

    // One line per mark: far more than the pipe holds.
    let r = close_after(1, ["info".as_ref(), path.as_os_str()]);
    r.assert_quiet(0, "info of a recording");
    assert!(r.first_line.contains("recording of"), "{}", r.first_line);
    let r = close_after(
        1,
        [
            "info".as_ref(),
            "--format".as_ref(),
            "json".as_ref(),
            path.as_os_str(),
        ],
    );
    r.assert_quiet(0, "info --format json of a recording");

    // Replayed against an empty level every ray that hit something changes: one line each.
    let empty = dir.path().join("empty.ron");
    let mut bare = level.clone();
    bare.walls.clear();
    bare.triangles.clear();
    bare.planes.clear();
    bare.cylinders.clear();
    bare.aabbs.clear();
    bare.obbs.clear();
    bare.meshes.clear();
    bare.save(&empty).unwrap();
    let r = close_after(
        1,
        [
            "replay".as_ref(),
            path.as_os_str(),
            "--level".as_ref(),
            empty.as_os_str(),
        ],
    );
    r.assert_quiet(1, "replay");
    assert!(r.first_line.starts_with("frame "), "{}", r.first_line);
    let r = close_after(0, ["replay".as_ref(), path.as_os_str()]);
    r.assert_quiet(0, "replay against its own level");
}

#[test]
fn short_outputs_into_a_closed_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let maze = dir.path().join("maze.ron");
    let r = close_after(
        0,
        [
            "generate".as_ref(),
            "maze".as_ref(),
            "--walls".as_ref(),
            "50".as_ref(),
            "--balls".as_ref(),
            "5".as_ref(),
            "-o".as_ref(),
            maze.as_os_str(),
        ],
    );
    r.assert_quiet(0, "generate maze");
    assert!(maze.exists());
    close_after(0, ["info", "levels/house.ron"]).assert_quiet(0, "info");
    close_after(0, ["info", "--format", "json", "levels/house.ron"]).assert_quiet(0, "info json");
    close_after(
        0,
        ["simulate", "levels/house.ron", "--steps", "5", "--hash"],
    )
    .assert_quiet(0, "simulate");
    close_after(0, ["--help"]).assert_quiet(0, "--help");
    close_after(0, ["check", "--help"]).assert_quiet(0, "check --help");
    let level = dir.path().join("reach.ron");
    std::fs::write(&level, REACH_LEVEL).unwrap();
    close_after(0, ["reach".as_ref(), level.as_os_str()]).assert_quiet(1, "reach");
    close_after(
        0,
        [
            "check".as_ref(),
            "--reach".as_ref(),
            "--format".as_ref(),
            "json".as_ref(),
            level.as_os_str(),
        ],
    )
    .assert_quiet(1, "check --reach");
}

/// A failure other than a closed pipe (here a full disk) is reported once and gives exit 2.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_is_reported() {
    let full = std::fs::File::create("/dev/full").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(["info", "levels/house.ron"])
        .current_dir(root())
        .stdout(full)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(
        err.matches("collidoscope: cannot write the output:")
            .count(),
        1,
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------------------
// check --reach and reach

/// A 20 m square floor with, from the walker start at the middle: a platform 0.5 m up (the riser is above
/// max_step 0.35 m) to the north-east, a closet through a 0.5 m door (the body is 0.6 m wide) to the south-west,
/// a room through an opening 1.5 m high (the body is 1.8 m tall) to the south-east, and a post standing off the
/// floor's east edge (so the map's extent has ground with nothing on it). "goal" entities must be reached:
/// one in the open (reached), one on the platform, one in the closet, one in the room; a "decor" entity on the
/// platform need not be.
const REACH_LEVEL: &str = r#"(
    version: 2,
    name: "reach",
    aabbs: [
        (id: 1, name: "floor", min: (-10.0, -1.0, -10.0), max: (10.0, 0.0, 10.0)),
        (id: 2, name: "platform", min: (5.0, 0.0, -8.0), max: (8.0, 0.5, -5.0)),
        (id: 3, name: "closet wall west of the door", min: (-10.0, 0.0, 5.8), max: (-8.25, 2.5, 6.0)),
        (id: 4, name: "closet wall east of the door", min: (-7.75, 0.0, 5.8), max: (-5.8, 2.5, 6.0)),
        (id: 5, name: "closet east wall", min: (-6.0, 0.0, 6.0), max: (-5.8, 2.5, 10.0)),
        (id: 6, name: "room wall west of the opening", min: (5.8, 0.0, 5.8), max: (7.5, 2.5, 6.0)),
        (id: 7, name: "room wall east of the opening", min: (8.5, 0.0, 5.8), max: (10.0, 2.5, 6.0)),
        (id: 8, name: "lintel", min: (7.5, 1.5, 5.8), max: (8.5, 2.5, 6.0)),
        (id: 9, name: "room west wall", min: (5.8, 0.0, 6.0), max: (6.0, 2.5, 10.0)),
        (id: 10, name: "post", min: (11.5, 0.0, -0.25), max: (12.0, 1.0, 0.25)),
    ],
    walker: (position: (0.0, 0.0), facing_deg: 0.0, eye_height: 1.7, radius: 0.3),
    entity_types: [
        (name: "goal", must_reach: true),
        (name: "decor"),
    ],
    entities: [
        (id: 20, entity_type: "goal", position: (0.0, 0.0, -5.0)),
        (id: 21, entity_type: "goal", position: (6.5, 0.5, -6.5)),
        (id: 22, entity_type: "decor", position: (6.0, 0.5, -6.0)),
        (id: 23, entity_type: "goal", position: (-8.0, 0.0, 8.0)),
        (id: 24, entity_type: "goal", position: (8.0, 0.0, 8.0)),
    ],
)
"#;

/// `text` written as `name` in a fresh folder.
fn level_file(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The 1-based line and column of the entity with this id in `text` (where its `(` is).
fn entity_position(text: &str, id: u32) -> (u64, u64) {
    let needle = format!("(id: {id}, entity_type");
    for (n, line) in text.lines().enumerate() {
        if let Some(col) = line.find(&needle) {
            return (n as u64 + 1, col as u64 + 1);
        }
    }
    panic!("no entity {id}")
}

#[test]
fn check_reach_reports_each_unreachable_must_reach_entity_at_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = level_file(&dir, "reach.ron", REACH_LEVEL);
    let shown = path.display().to_string();
    // Plain check builds no map: clean.
    let r = go(["check".as_ref(), path.as_os_str()]);
    assert_eq!(r.code, 0, "{r:?}");
    // With --reach: one error per unreachable goal, at the entity, naming the blocker in words and by kind.
    let r = go(["check".as_ref(), "--reach".as_ref(), path.as_os_str()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stderr, "", "{r:?}");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{r:?}");
    for (line, (index, id, kind, words)) in lines.iter().zip([
        (
            1,
            21,
            "StepTooHigh",
            "riser 0.50 m is above max_step 0.35 m at (",
        ),
        (3, 23, "TooNarrow", "opening "),
        (
            4,
            24,
            "TooLow",
            "clearance 1.50 m is below 1.82 m (the body's 1.80 m and a skin above and below) at (",
        ),
    ]) {
        let (l, c) = entity_position(REACH_LEVEL, id);
        let head = format!(
            "{shown}:{l}:{c}: error: entities[{index}] (#{id}): unreachable from the walker start: {words}"
        );
        assert!(line.starts_with(&head), "{line}\nexpected {head}");
        assert!(line.ends_with(&format!(" ({kind})")), "{line}");
    }
    assert!(
        lines[3].starts_with(&format!(
            "{shown}: reach: 4 must_reach entities checked from the walker start ("
        )) && lines[3].contains("), 3 unreachable ("),
        "{}",
        lines[3]
    );
    assert_eq!(
        lines[4],
        format!("{shown}: problems found (3 error(s), 0 warning(s))")
    );
    // --cell changes the map, not the verdicts.
    let r = go([
        "check".as_ref(),
        "--reach".as_ref(),
        "--cell".as_ref(),
        "0.2".as_ref(),
        path.as_os_str(),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stdout.matches(": error: entities[").count(), 3, "{r:?}");
    // --cell without --reach is a usage error.
    let r = go([
        "check".as_ref(),
        "--cell".as_ref(),
        "0.2".as_ref(),
        path.as_os_str(),
    ]);
    assert_eq!(r.code, 2, "{r:?}");
}

/// `check --reach --jump`: the goal on the 0.5 m platform (its riser too high to step) is reached by jumping,
/// the closet and the room are still not; the summary says so; `--jump` without `--reach` is a usage error.
#[test]
fn check_reach_with_jump_counts_jump_links() {
    let dir = tempfile::tempdir().unwrap();
    let path = level_file(&dir, "reach.ron", REACH_LEVEL);
    let r = go([
        "check".as_ref(),
        "--reach".as_ref(),
        "--jump".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        path.as_os_str(),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let report = &json[0];
    assert_eq!(report["errors"], 2, "{report}");
    assert_eq!(report["reach"]["checked"], 4);
    assert_eq!(report["reach"]["unreachable"], 2);
    assert_eq!(report["reach"]["jump"], true);
    assert_eq!(report["reach"]["reached_by_jumping"], 1);
    let r = go([
        "check".as_ref(),
        "--reach".as_ref(),
        "--jump".as_ref(),
        path.as_os_str(),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout
            .contains(" with jumps (1 only by jumping), 2 unreachable ("),
        "{r:?}"
    );
    let r = go(["check".as_ref(), "--jump".as_ref(), path.as_os_str()]);
    assert_eq!(r.code, 2, "{r:?}");
}

#[test]
fn check_reach_json_has_the_blocker_as_fields() {
    let dir = tempfile::tempdir().unwrap();
    let path = level_file(&dir, "reach.ron", REACH_LEVEL);
    let r = go([
        "check".as_ref(),
        "--reach".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        path.as_os_str(),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.is_empty(), "{r:?}");
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let report = &json[0];
    assert_eq!(report["status"], "problems");
    assert_eq!(report["errors"], 3);
    assert_eq!(report["reach"]["checked"], 4);
    assert_eq!(report["reach"]["unreachable"], 3);
    assert_eq!(report["reach"]["cell"], 0.25);
    assert_eq!(report["reach"]["character"]["max_step"], 0.35);
    assert_eq!(report["reach"]["start"].as_array().unwrap().len(), 3);
    let problems = report["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 3);
    let step = &problems[0];
    let (l, c) = entity_position(REACH_LEVEL, 21);
    assert_eq!(step["severity"], "Error");
    assert_eq!(step["object"], 21);
    assert_eq!(step["field"], "entities[1]");
    assert_eq!(
        (step["line"].as_u64(), step["col"].as_u64()),
        (Some(l), Some(c))
    );
    assert_eq!(step["entity_type"], "goal");
    assert_eq!(step["feet"], serde_json::json!([6.5, 0.5, -6.5]));
    let b = &step["blocker"];
    assert_eq!(b["kind"], "StepTooHigh");
    let height = b["height"].as_f64().unwrap();
    assert!((height - 0.5).abs() < 0.01, "{b}");
    assert_eq!(b["limit"], 0.35);
    let at = b["at"].as_array().unwrap();
    assert!(
        (at[0].as_f64().unwrap() - 5.0).abs() <= 0.6 && at[2].as_f64().unwrap() <= -4.4,
        "{b}"
    );
    assert!(
        b["description"]
            .as_str()
            .unwrap()
            .starts_with("riser 0.50 m is above max_step")
    );
    let narrow = &problems[1]["blocker"];
    assert_eq!(narrow["kind"], "TooNarrow");
    assert!(
        (narrow["width"].as_f64().unwrap() - 0.5).abs() <= 0.1,
        "{narrow}"
    );
    assert!(
        (narrow["limit"].as_f64().unwrap() - 0.62).abs() < 1e-6,
        "{narrow}"
    );
    let low = &problems[2]["blocker"];
    assert_eq!(low["kind"], "TooLow");
    assert!(
        (low["clearance"].as_f64().unwrap() - 1.5).abs() <= 0.1,
        "{low}"
    );
    assert!(
        (low["limit"].as_f64().unwrap() - 1.82).abs() < 1e-6,
        "{low}"
    );
}

#[test]
fn check_reach_on_the_playground_names_its_three_limits_and_plain_check_stays_clean() {
    let r = go(["check", "levels/playground.ron"]);
    assert_eq!(r.code, 0, "{r:?}");
    let r = go(["check", "--reach", "levels/playground.ron"]);
    assert_eq!(r.code, 1, "{r:?}");
    let errors: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.contains(": error: "))
        .collect();
    assert_eq!(errors.len(), 3, "{r:?}");
    for (line, kind) in errors
        .iter()
        .zip(["(StepTooHigh)", "(TooNarrow)", "(TooLow)"])
    {
        assert!(line.starts_with("levels/playground.ron:"), "{line}");
        assert!(line.ends_with(kind), "{line}");
    }
    // The goal on the 0.3 m stairs' landing is reached.
    assert!(!r.stdout.contains("#161"), "{r:?}");
}

#[test]
fn check_reach_on_the_greybox_sample_names_its_two_limits() {
    let r = go(["check", "levels/greybox.ron"]);
    assert_eq!(r.code, 0, "{r:?}");
    let r = go(["check", "--reach", "levels/greybox.ron"]);
    assert_eq!(r.code, 1, "{r:?}");
    let errors: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.contains(": error: "))
        .collect();
    assert_eq!(errors.len(), 2, "{r:?}");
    // The 0.45 m riser of the high stair, and the 1.5 m passage to the closet.
    for (line, (id, kind)) in errors
        .iter()
        .zip([("#104", "(StepTooHigh)"), ("#105", "(TooLow)")])
    {
        assert!(line.starts_with("levels/greybox.ron:"), "{line}");
        assert!(line.contains(id) && line.ends_with(kind), "{line}");
    }
    assert!(errors[0].contains("riser 0.45 m"), "{}", errors[0]);
    // Up the 10-step stair to the balcony, through the doorway, up the 30° ramp: reached.
    for id in ["#101", "#102", "#103"] {
        assert!(!r.stdout.contains(id), "{r:?}");
    }
}

#[test]
fn check_reach_without_a_walker_start_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let text = REACH_LEVEL.replace(
        "    walker: (position: (0.0, 0.0), facing_deg: 0.0, eye_height: 1.7, radius: 0.3),\n",
        "",
    );
    let path = level_file(&dir, "no walker.ron", &text);
    let shown = path.display().to_string();
    // Plain check: a warning that a must_reach type has nothing to be reached from.
    let r = go(["check".as_ref(), path.as_os_str()]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("warning: entity_types[0].must_reach"),
        "{r:?}"
    );
    let r = go(["check".as_ref(), "--reach".as_ref(), path.as_os_str()]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.starts_with(&format!(
            "{shown}: cannot check reachability: the level has no walker start"
        )),
        "{r:?}"
    );
    assert!(
        r.stdout.ends_with(&format!(
            "{shown}: reachability not checked (0 error(s), 1 warning(s))\n"
        )),
        "{r:?}"
    );
    let r = go([
        "check".as_ref(),
        "--reach".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        path.as_os_str(),
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.is_empty(), "{r:?}");
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(json[0]["status"], "error");
    assert_eq!(json[0]["error"]["kind"], "reach");
    assert!(
        json[0]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no walker start")
    );
    // Other files are still checked; the exit is the worst.
    let r = go([
        "check".as_ref(),
        "--reach".as_ref(),
        path.as_os_str(),
        "levels/house.ron".as_ref(),
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stdout.contains("levels/house.ron: "), "{r:?}");
}

#[test]
fn reach_prints_areas_places_and_blockers_and_exits_by_what_is_reached() {
    let dir = tempfile::tempdir().unwrap();
    let path = level_file(&dir, "reach.ron", REACH_LEVEL);
    let shown = path.display().to_string();
    let r = go(["reach".as_ref(), path.as_os_str()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.is_empty(), "{r:?}");
    let first = r.stdout.lines().next().unwrap();
    assert!(
        first.starts_with(&format!("{shown}: from the walker start ("))
            && first.ends_with(
                "), cell 0.25 m; character radius 0.3 m, height 1.8 m, max_step 0.35 m, max_slope 45°"
            ),
        "{r:?}"
    );
    assert!(r.stdout.contains("\n  floor 0 (ground "), "{r:?}");
    for want in [
        "m² standable, ",
        "m² reachable (",
        "unreachable place(s)",
        "(StepTooHigh)",
        "(TooNarrow)",
        "(TooLow)",
        // 22 m (the floor and the post) by 20 m at 0.25 m, and a column more each way for the scene bounds'
        // padding of a few ulps.
        "  map: 89 × 81 columns, ",
    ] {
        assert!(r.stdout.contains(want), "missing {want:?}: {r:?}");
    }
    // An open floor: everything is reached, exit 0.
    let open = level_file(
        &dir,
        "open.ron",
        r#"(version: 2, aabbs: [(id: 1, min: (-5.0, -1.0, -5.0), max: (5.0, 0.0, 5.0))],
            walker: (position: (1.0, 2.0), facing_deg: 0.0, eye_height: 1.7, radius: 0.3))"#,
    );
    let r = go(["reach".as_ref(), open.as_os_str()]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout
            .contains("  every place that can be stood on is reachable\n"),
        "{r:?}"
    );
}

#[test]
fn reach_json_lists_floors_places_and_stats() {
    let dir = tempfile::tempdir().unwrap();
    let path = level_file(&dir, "reach.ron", REACH_LEVEL);
    let r = go([
        "reach".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        path.as_os_str(),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(json["cell"], 0.25);
    assert_eq!(json["all_reachable"], false);
    assert_eq!(json["extent"]["columns"], serde_json::json!([89, 81]));
    assert_eq!(json["png"], serde_json::Value::Null);
    let floors = json["floors"].as_array().unwrap();
    assert!(!floors.is_empty());
    let standable: f64 = floors
        .iter()
        .map(|f| f["standable_m2"].as_f64().unwrap())
        .sum();
    let reachable: f64 = floors
        .iter()
        .map(|f| f["reachable_m2"].as_f64().unwrap())
        .sum();
    assert!(
        reachable < standable && reachable > 250.0,
        "{reachable} of {standable}"
    );
    assert!((json["standable_m2"].as_f64().unwrap() - standable).abs() < 0.01);
    let places = json["unreachable"].as_array().unwrap();
    let kinds: Vec<&str> = places
        .iter()
        .map(|p| p["blocker"]["kind"].as_str().unwrap())
        .collect();
    for kind in ["StepTooHigh", "TooNarrow", "TooLow"] {
        assert!(kinds.contains(&kind), "{kinds:?}");
    }
    // Largest first, each with its feet, area and blocker.
    let areas: Vec<f64> = places
        .iter()
        .map(|p| p["area_m2"].as_f64().unwrap())
        .collect();
    assert!(areas.windows(2).all(|w| w[0] >= w[1]), "{areas:?}");
    assert_eq!(places[0]["feet"].as_array().unwrap().len(), 3);
    let stats = &json["stats"];
    assert_eq!(stats["columns"], 89 * 81);
    assert!(stats["reached"].as_u64().unwrap() < stats["places"].as_u64().unwrap());
    assert!(stats["seconds"].as_f64().unwrap() > 0.0);
}

/// The picture: its size is the map's extent at the placement the JSON gives, reachable ground green, the
/// platform orange, the ground off the floor dark, the start blue, the platform's blocker a red mark.
#[test]
fn reach_png_is_a_top_down_picture_of_the_map() {
    let dir = tempfile::tempdir().unwrap();
    let path = level_file(&dir, "reach.ron", REACH_LEVEL);
    let png_path = dir.path().join("map.png");
    let r = go([
        "reach".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        "--png".as_ref(),
        png_path.as_os_str(),
        path.as_os_str(),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let place = &json["png"];
    // 89 by 81 columns: 1,200 pixels / 89 would be 13 a cell, capped at 12.
    assert_eq!(json["extent"]["columns"], serde_json::json!([89, 81]));
    assert_eq!(
        (place["width"].as_u64(), place["height"].as_u64()),
        (Some(89 * 12), Some(81 * 12))
    );
    assert!((place["metres_per_pixel"].as_f64().unwrap() - 0.25 / 12.0).abs() < 1e-6);
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png_path).unwrap(),
    ));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (89 * 12, 81 * 12));
    assert_eq!(info.color_type, png::ColorType::Rgb);
    let origin = (
        place["origin"][0].as_f64().unwrap(),
        place["origin"][1].as_f64().unwrap(),
    );
    let mpp = place["metres_per_pixel"].as_f64().unwrap();
    let pixel = |x: f64, z: f64| -> [u8; 3] {
        let px = ((x - origin.0) / mpp) as usize;
        let py = ((z - origin.1) / mpp) as usize;
        let i = (py * info.width as usize + px) * 3;
        [buf[i], buf[i + 1], buf[i + 2]]
    };
    let green = |c: [u8; 3]| c[1] > c[0] + 40 && c[1] > c[2] + 40;
    let orange = |c: [u8; 3]| c[0] > c[1] + 40 && c[1] > c[2] + 20;
    let dark = |c: [u8; 3]| c.iter().all(|&v| v < 50);
    let blue = |c: [u8; 3]| c[2] > 200 && c[0] < 80;
    let red = |c: [u8; 3]| c[0] > 200 && c[1] < 60 && c[2] < 60;
    assert!(
        green(pixel(-3.0, -3.0)),
        "open floor {:?}",
        pixel(-3.0, -3.0)
    );
    assert!(green(pixel(3.0, 3.0)), "open floor {:?}", pixel(3.0, 3.0));
    assert!(orange(pixel(6.5, -6.0)), "platform {:?}", pixel(6.5, -6.0));
    assert!(orange(pixel(-8.0, 8.5)), "closet {:?}", pixel(-8.0, 8.5));
    assert!(orange(pixel(8.0, 8.5)), "room {:?}", pixel(8.0, 8.5));
    assert!(
        dark(pixel(10.8, 5.0)),
        "off the floor {:?}",
        pixel(10.8, 5.0)
    );
    assert!(blue(pixel(0.0, 0.0)), "the start {:?}", pixel(0.0, 0.0));
    let step = json["unreachable"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["blocker"]["kind"] == "StepTooHigh" && p["feet"][0].as_f64().unwrap() > 4.0)
        .unwrap();
    let at = &step["blocker"]["at"];
    let mark = pixel(at[0].as_f64().unwrap(), at[2].as_f64().unwrap());
    assert!(red(mark), "the platform's blocker {mark:?}");
    // A picture that cannot be written is an error (exit 2), not a panic.
    let r = go([
        "reach".as_ref(),
        "--png".as_ref(),
        dir.path().join("no such folder/map.png").as_os_str(),
        path.as_os_str(),
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("cannot write the picture"), "{r:?}");
}

/// Bad input: a clear message and exit 2, never a panic or an unbounded map.
#[test]
fn reach_refuses_bad_input_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let path = level_file(&dir, "reach.ron", REACH_LEVEL);
    let expect = |args: Vec<&std::ffi::OsStr>, needles: &[&str]| {
        let r = go(&args);
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
        assert!(!r.stderr.contains("panicked"), "{r:?}");
        for n in needles {
            assert!(r.stderr.contains(n), "{args:?}: missing {n:?}: {r:?}");
        }
    };
    // No walker start.
    let no_walker = level_file(
        &dir,
        "no walker.ron",
        &REACH_LEVEL.replace(
            "    walker: (position: (0.0, 0.0), facing_deg: 0.0, eye_height: 1.7, radius: 0.3),\n",
            "",
        ),
    );
    expect(
        vec!["reach".as_ref(), no_walker.as_os_str()],
        &["cannot build the reachability map: the level has no walker start"],
    );
    // A start in the air (past the floor's edge) and inside a wall (the closet's east wall).
    for position in ["(11.0, 5.0)", "(-5.9, 8.0)"] {
        let moved = level_file(
            &dir,
            "moved.ron",
            &REACH_LEVEL.replace("position: (0.0, 0.0)", &format!("position: {position}")),
        );
        expect(
            vec!["reach".as_ref(), moved.as_os_str()],
            &["nowhere to stand within 1.5 cells of the start"],
        );
        expect(
            vec!["check".as_ref(), "--reach".as_ref(), moved.as_os_str()],
            &["cannot check reachability: nowhere to stand"],
        );
    }
    // A cell of 0, NaN or below a centimetre.
    for cell in ["0", "NaN", "0.001", "-1"] {
        let arg = format!("--cell={cell}");
        expect(
            vec!["reach".as_ref(), arg.as_ref(), path.as_os_str()],
            &["--cell: the cell must be at least 0.01 m"],
        );
    }
    expect(
        vec![
            "reach".as_ref(),
            "--cell".as_ref(),
            "wide".as_ref(),
            path.as_os_str(),
        ],
        &["invalid value 'wide' for '--cell"],
    );
    // A level of a kilometre: refused with the sizes and a cell that fits, at once.
    let km = level_file(
        &dir,
        "kilometre.ron",
        r#"(version: 2, aabbs: [(id: 1, min: (-500.0, -1.0, -500.0), max: (500.0, 0.0, 500.0))],
            walker: (position: (0.0, 0.0), facing_deg: 0.0, eye_height: 1.7, radius: 0.3))"#,
    );
    let started = std::time::Instant::now();
    expect(
        vec!["reach".as_ref(), km.as_os_str()],
        &[
            "columns (1000 m by 1000 m at 0.25 m cells), more than the limit of 4000000",
            "try --cell 0.51 or larger",
        ],
    );
    assert!(started.elapsed().as_secs() < 10, "refused at once");
    // A level that cannot be read, and one with errors.
    expect(
        vec!["reach".as_ref(), "levels/no such level.ron".as_ref()],
        &["no such level.ron"],
    );
    expect(
        vec![
            "reach".as_ref(),
            "tests/bad_levels/40_nan_radius.ron".as_ref(),
        ],
        &["error(s), so its map would not be the game's"],
    );
}

// ---------------------------------------------------------------------------------------------------------
// movers: bad input located at file:line:col with its field, info's count, replay against an edited lift

/// Each bad mover with the field its error names. The lines hold the mover so the error's line is its own.
const BAD_MOVERS: [(&str, &str, &str); 7] = [
    (
        "nan_path",
        "aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 1.0))],\n\
         movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, NaN, 0.0)], speed: 1.0)]",
        "movers[0].path[1]",
    ),
    (
        "zero_speed",
        "aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 1.0))],\n\
         movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0)], speed: 0.0)]",
        "movers[0].speed",
    ),
    (
        "negative_speed",
        "aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 1.0))],\n\
         movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0)], speed: -2.0)]",
        "movers[0].speed",
    ),
    (
        "wall",
        "walls: [(id: 1, a: (0.0, 0.0), b: (4.0, 0.0), radius: 0.1)],\n\
         movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0)], speed: 1.0)]",
        "movers[0].object",
    ),
    (
        "sideways_floor",
        "sectors: [(id: 1, outline: [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)], floor: (height: 0.0),\n\
         ceiling: (height: 3.0))],\n\
         movers: [(id: 2, object: 1, part: Floor, path: [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0)], speed: 1.0)]",
        "movers[0].path[1]",
    ),
    (
        "mover_of_a_mover",
        "aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 1.0))],\n\
         movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0)], speed: 1.0),\n\
         (id: 3, object: 2, path: [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0)], speed: 1.0)]",
        "movers[1].object",
    ),
    (
        "unknown_trigger",
        "aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 1.0))],\n\
         movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0)], speed: 1.0, start: OnTrigger(77))]",
        "movers[0].start",
    ),
];

#[test]
fn check_locates_every_bad_mover_at_its_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    for (name, body, field) in BAD_MOVERS {
        let path = dir.path().join(format!("{name}.ron"));
        std::fs::write(&path, format!("(version: 3,\n{body},\n)\n")).unwrap();
        // Where the library puts the error: on the mover's own line, with a column.
        let level = collidoscope::level::Level::load(&path).unwrap();
        let problems = level.validate();
        let p = problems
            .iter()
            .find(|p| p.field == field)
            .unwrap_or_else(|| panic!("{name}: no problem at {field}: {problems:?}"));
        let (Some(line), Some(col)) = (p.line, p.col) else {
            panic!("{name}: {p:?} has no position");
        };
        let mover_line = body
            .lines()
            .position(|l| l.contains(&format!("id: {}", p.object.unwrap().0)))
            .unwrap() as u32
            + 2;
        assert_eq!(line, mover_line, "{name}: {p:?}");
        let r = go(["check".as_ref(), path.as_os_str()]);
        assert_eq!(r.code, 1, "{name}: {r:?}");
        assert!(r.stderr.is_empty(), "{name}: {r:?}");
        let at = format!("{}:{line}:{col}: ", path.display());
        assert!(
            r.stdout
                .lines()
                .any(|l| l.starts_with(&at) && l.contains("error") && l.contains(field)),
            "{name}: expected a line starting {at:?} naming {field}\n{}",
            r.stdout
        );
    }
}

#[test]
fn info_counts_the_movers_of_the_sample() {
    let r = go(["info", "levels/movers.ron"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("movers: 5\n"), "{r:?}");
    let r = go(["info", "--format", "json", "levels/movers.ron"]);
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(json["counts"]["movers"], 5);
}

/// A lift (object 1, mover 2) rising 4 m at `speed` m/s.
fn lift_level(speed: f32) -> collidoscope::level::Level {
    collidoscope::level::Level::from_ron_str(&format!(
        "(version: 3, name: \"lift\",
        aabbs: [(id: 1, min: (-1.0, 0.0, -1.0), max: (1.0, 0.5, 1.0))],
        movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 4.0, 0.0)], speed: {speed:?}, wait: 1.0)])"
    ))
    .unwrap()
}

#[test]
fn replay_asks_a_ride_again_at_its_recorded_times_against_an_edited_lift() {
    use collidoscope::character::CharacterController;
    use collidoscope::glam::Vec3;
    use collidoscope::record::{Recorder, RecorderConfig};
    use collidoscope::scene::Scene;
    use collidoscope::shape::Ray;

    let dir = tempfile::tempdir().unwrap();
    let level = lift_level(2.0);
    let mut scene = Scene::from_level(&level).unwrap();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    let c = CharacterController::default();
    // One move a frame onto the lift's top as it rises, 20 frames at 10 Hz.
    for k in 0..20 {
        let t = k as f32 / 10.0;
        rec.begin_frame(f64::from(t));
        scene.set_time(t);
        let top = scene
            .cast_ray(&Ray::new(Vec3::new(0.0, 20.0, 0.0), -Vec3::Y), 40.0)
            .unwrap()
            .point
            .y;
        rec.move_character(
            &scene,
            &c,
            Vec3::new(0.0, top + 0.05, 0.0),
            Vec3::new(0.0, -0.1, 0.0),
        );
    }
    let path = dir.path().join("ride.crec");
    rec.save(&path).unwrap();
    // Against its own level, at the recorded times: nothing changed.
    let r = go(["replay".as_ref(), path.as_os_str()]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout
            .ends_with("0 of 20 queries in 20 frames answer differently\n"),
        "{r:?}"
    );
    // The lift made slower: every move after the start lands lower (or not at all).
    let slower = dir.path().join("slower.ron");
    lift_level(1.0).save(&slower).unwrap();
    let r = go([
        "replay".as_ref(),
        path.as_os_str(),
        "--level".as_ref(),
        slower.as_os_str(),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout
            .ends_with("19 of 20 queries in 20 frames answer differently\n"),
        "{r:?}"
    );
    assert!(
        r.stdout.starts_with("frame 1 query 0 (character): "),
        "{r:?}"
    );
}

/// `nav`: a path down off a 1.5 m block is a walk then a drop (exit 0, the links in JSON); back up is no path
/// (exit 1: the block is higher than a jump); a bad point or agent is an error (exit 2).
#[test]
fn nav_prints_a_path_and_its_links() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledge.ron");
    std::fs::write(
        &path,
        "(version: 3, name: \"ledge\", aabbs: [\n\
         (id: 1, min: (-4, -1, -4), max: (4, 0, 4)),\n\
         (id: 2, min: (-1, 0, -1), max: (1, 1.5, 1)),\n\
         ])\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let down = go([
        "nav", file, "--from", "0,1.5,0", "--to", "3,0,0", "--format", "json",
    ]);
    assert_eq!(down.code, 0, "{down:?}");
    let j: serde_json::Value = serde_json::from_str(&down.stdout).unwrap();
    assert_eq!(j["found"], true, "{down:?}");
    let points = j["points"].as_array().unwrap();
    let links = j["links"].as_array().unwrap();
    assert_eq!(links.len() + 1, points.len(), "{down:?}");
    let drop = links
        .iter()
        .find(|l| l["kind"] == "drop")
        .unwrap_or_else(|| panic!("no drop: {down:?}"));
    let h = drop["height"].as_f64().unwrap();
    assert!((h - 1.5).abs() < 0.1, "{down:?}");
    let text = go(["nav", file, "--from", "0,1.5,0", "--to", "3,0,0"]);
    assert_eq!(text.code, 0, "{text:?}");
    assert!(text.stdout.contains("then drop 1.5"), "{text:?}");
    let up = go(["nav", file, "--from", "3,0,0", "--to", "0,1.5,0"]);
    assert_eq!(up.code, 1, "{up:?}");
    assert!(up.stdout.contains("no path"), "{up:?}");
    let bad = go(["nav", file, "--from", "3,0", "--to", "0,1.5,0"]);
    assert_eq!(bad.code, 2, "{bad:?}");
    let agent = go([
        "nav", file, "--from", "3,0,0", "--to", "0,0,3", "--agent", "4",
    ]);
    assert_eq!(agent.code, 2, "{agent:?}");
    assert!(agent.stderr.contains("--agent 4"), "{agent:?}");
}
