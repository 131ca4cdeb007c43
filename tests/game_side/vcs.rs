//! Levels in version control: `collidoscope diff` (semantic and `--textconv`), `collidoscope merge` (three-way
//! by id), both through the real binary and through real git with the merge driver configured as the README
//! shows; canonical saves make a one-wall edit a one-line text diff.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use collidoscope::glam::Vec2;
use collidoscope::level::{Level, ObjectId, Value, WallObject};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_collidoscope"))
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn base_level() -> Level {
    Level::from_ron_str(include_str!("../golden/v2.ron")).unwrap()
}

fn wall(id: u32, x: f32) -> WallObject {
    WallObject {
        id: ObjectId(id),
        name: None,
        a: Vec2::new(x, 0.0),
        b: Vec2::new(x, 4.0),
        radius: 0.25,
        height: None,
        properties: Default::default(),
    }
}

fn save(dir: &Path, name: &str, l: &Level) -> PathBuf {
    let p = dir.join(name);
    l.save(&p).unwrap();
    p
}

#[test]
fn diff_lists_changes_by_id_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let a = base_level();
    let mut b = a.clone();
    b.walls[0].radius = 0.5;
    b.walls.push(wall(30, 9.0));
    b.balls.clear();
    b.entities[0]
        .fields
        .insert("team".into(), Value::Enum("blue".into()));
    b.name = "renamed".into();
    let (pa, pb) = (save(dir.path(), "a.ron", &a), save(dir.path(), "b.ron", &b));
    let out = bin().arg("diff").arg(&pa).arg(&pb).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let (stdout, _) = text(&out);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            r#"~ level name: "two" -> "renamed""#,
            "~ walls #1 radius: 0.25 -> 0.5",
            "+ walls #30 (id: 30, a: (9.0, 0.0), b: (9.0, 4.0), radius: 0.25)",
            "- balls #2",
            r#"~ entities #12 fields: (team: Enum("red")) -> (team: Enum("blue"))"#,
        ],
        "{stdout}"
    );
    let out = bin()
        .args(["diff", "--format", "json"])
        .arg(&pa)
        .arg(&pb)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["added"].as_array().unwrap().len(), 1);
    assert_eq!(json["removed"].as_array().unwrap().len(), 1);
    assert_eq!(json["changed"].as_array().unwrap().len(), 3);
    assert_eq!(json["changed"][1]["field"], "radius");
    // Same level: exit 0, nothing printed; a missing file: exit 2.
    let out = bin().arg("diff").arg(&pa).arg(&pa).output().unwrap();
    assert_eq!((out.status.code(), text(&out).0.as_str()), (Some(0), ""));
    let out = bin()
        .arg("diff")
        .arg(&pa)
        .arg(dir.path().join("none.ron"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn textconv_prints_one_sorted_line_per_object() {
    let dir = tempfile::tempdir().unwrap();
    let mut l = base_level();
    l.walls.push(wall(3, 1.0));
    l.walls.swap(0, 1); // order in the file does not matter
    let p = save(dir.path(), "l.ron", &l);
    let out = bin().args(["diff", "--textconv"]).arg(&p).output().unwrap();
    assert!(out.status.success());
    let (stdout, _) = text(&out);
    let walls: Vec<&str> = stdout.lines().filter(|l| l.starts_with("walls ")).collect();
    assert_eq!(walls.len(), 2);
    assert!(
        walls[0].starts_with("walls #1: ") && walls[1].starts_with("walls #3: "),
        "{stdout}"
    );
    assert_eq!(stdout.lines().count(), 1 + 2 + 1 + 3 + 3 + 3);
}

#[test]
fn merge_takes_both_sides_and_names_conflicts() {
    let dir = tempfile::tempdir().unwrap();
    let base = base_level();
    let mut ours = base.clone();
    ours.walls[0].radius = 0.5;
    ours.walls.push(wall(30, 9.0));
    let mut theirs = base.clone();
    theirs.balls[0].mass = 2.0;
    theirs.entities.retain(|e| e.id != ObjectId(15));
    theirs.walls.push(wall(31, 11.0));
    let pb = save(dir.path(), "base.ron", &base);
    let po = save(dir.path(), "ours.ron", &ours);
    let pt = save(dir.path(), "theirs.ron", &theirs);
    let out_path = dir.path().join("merged.ron");
    let out = bin()
        .arg("merge")
        .arg(&pb)
        .arg(&po)
        .arg(&pt)
        .arg("-o")
        .arg(&out_path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let merged = Level::load(&out_path).unwrap();
    assert_eq!(merged.walls[0].radius, 0.5);
    assert_eq!(merged.balls[0].mass, 2.0);
    assert!(merged.entities.iter().all(|e| e.id != ObjectId(15)));
    let ids: Vec<u32> = merged.walls.iter().map(|w| w.id.0).collect();
    assert_eq!(ids, [1, 30, 31]);

    // Both change the same field: exit 1, the id and field named, OURS untouched.
    let mut theirs2 = base.clone();
    theirs2.walls[0].radius = 0.75;
    let pt2 = save(dir.path(), "theirs2.ron", &theirs2);
    let before = std::fs::read(&po).unwrap();
    let out = bin()
        .arg("merge")
        .arg(&pb)
        .arg(&po)
        .arg(&pt2)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let (_, stderr) = text(&out);
    assert!(
        stderr.contains("walls #1 radius: base 0.25, ours 0.5, theirs 0.75"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&po).unwrap(), before);
    // Changed on one side, deleted on the other: a conflict too.
    let mut deleted = base.clone();
    deleted.walls.clear();
    let pd = save(dir.path(), "deleted.ron", &deleted);
    let out = bin()
        .arg("merge")
        .arg(&pb)
        .arg(&po)
        .arg(&pd)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out)
            .1
            .contains("walls #1: changed here, deleted on the other side")
    );
}

fn git(dir: &Path, args: &[&str]) -> Output {
    Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn git_merges_levels_through_the_driver() {
    if Command::new("git").arg("--version").output().is_err() {
        eprintln!("git is not installed: skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert!(git(d, &["init", "-q"]).status.success());
    // The lines the README gives, with this build's binary.
    std::fs::write(
        d.join(".gitattributes"),
        "*.ron merge=collidoscope diff=collidoscope\n",
    )
    .unwrap();
    let exe = env!("CARGO_BIN_EXE_collidoscope");
    git(
        d,
        &[
            "config",
            "merge.collidoscope.name",
            "Collidoscope level merge",
        ],
    );
    git(
        d,
        &[
            "config",
            "merge.collidoscope.driver",
            &format!("{exe} merge %O %A %B"),
        ],
    );
    git(
        d,
        &[
            "config",
            "diff.collidoscope.textconv",
            &format!("{exe} diff --textconv"),
        ],
    );
    let mut base = base_level();
    base.walls.push(wall(3, 2.0));
    save(d, "level.ron", &base);
    git(d, &["add", "."]);
    assert!(git(d, &["commit", "-qm", "base"]).status.success());

    // Two branches edit different walls: a clean merge with both edits.
    git(d, &["checkout", "-qb", "a"]);
    let mut a = base.clone();
    a.walls[0].radius = 0.4;
    save(d, "level.ron", &a);
    git(d, &["commit", "-qam", "a"]);
    git(d, &["checkout", "-q", "main"]);
    git(d, &["checkout", "-qb", "b"]);
    let mut b = base.clone();
    b.walls[1].b = Vec2::new(2.0, 8.0);
    save(d, "level.ron", &b);
    git(d, &["commit", "-qam", "b"]);
    // With textconv, git diff shows the object that changed.
    let show = git(d, &["diff", "main", "b"]);
    assert!(text(&show).0.contains("+walls #3: "), "{:?}", text(&show));
    let m = git(d, &["merge", "-q", "--no-edit", "a"]);
    assert!(m.status.success(), "{:?}", text(&m));
    let merged = Level::load(&d.join("level.ron")).unwrap();
    assert_eq!(merged.walls[0].radius, 0.4);
    assert_eq!(merged.walls[1].b, Vec2::new(2.0, 8.0));

    // Both branches change the same field: git reports the conflict, the driver names the id and field.
    git(d, &["checkout", "-q", "main"]);
    git(d, &["checkout", "-qb", "c"]);
    let mut c = base.clone();
    c.walls[0].radius = 0.9;
    save(d, "level.ron", &c);
    git(d, &["commit", "-qam", "c"]);
    let m = git(d, &["merge", "--no-edit", "a"]);
    assert!(!m.status.success());
    let (out, err) = text(&m);
    assert!(
        err.contains("walls #1 radius") || out.contains("walls #1 radius"),
        "{out}\n{err}"
    );
    assert!(out.contains("CONFLICT"), "{out}");
}

#[test]
fn an_unchanged_level_saves_byte_identical_and_one_wall_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut l = collidoscope::generate::maze(&collidoscope::generate::MazeParams {
        walls: 2_000,
        balls: 10,
        seed: 3,
        cell: 2.0,
    });
    let p = dir.path().join("maze.ron");
    l.save(&p).unwrap();
    let first = std::fs::read_to_string(&p).unwrap();
    Level::load(&p).unwrap().save(&p).unwrap();
    assert_eq!(std::fs::read_to_string(&p).unwrap(), first);
    l.walls[700].radius = 0.3;
    l.save(&p).unwrap();
    let second = std::fs::read_to_string(&p).unwrap();
    let changed = first
        .lines()
        .zip(second.lines())
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(
        (changed, first.lines().count()),
        (1, second.lines().count())
    );
}
