//! The example game, run headless in process (its own code, included as a module), its recording read back,
//! and the `replay` / `info` commands on it: the loop a game's CI runs.

#![allow(clippy::unwrap_used)]

#[allow(dead_code)]
#[path = "../../examples/game.rs"]
mod example;

use std::path::Path;
use std::process::Command;

use collidoscope::level::Level;
use collidoscope::record::Recording;
use collidoscope::scene::Scene;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_collidoscope"))
}

#[test]
fn example_game_runs_headless_and_its_recording_replays() {
    let dir = tempfile::tempdir().unwrap();
    let rec_path = dir.path().join("game.crec");
    let args: Vec<String> = ["--headless", "--frames", "300", "--record"]
        .iter()
        .map(ToString::to_string)
        .chain([rec_path.display().to_string()])
        .collect();
    let summary = example::run(&example::parse(&args).unwrap()).unwrap();
    assert_eq!(summary.frames, 300);
    assert_eq!(summary.queries, 1200);

    let recording = Recording::load(&rec_path).unwrap();
    assert!(!recording.truncated);
    assert_eq!(recording.frames.len(), 300);
    let house = Level::from_ron_str(include_str!("../../levels/house.ron")).unwrap();
    assert_eq!(recording.level, house);
    // The character met the house's walls: some frames are marked, each when it starts to be blocked (not
    // every frame it stays blocked), so never two frames in a row.
    let blocked: Vec<bool> = recording
        .frames
        .iter()
        .map(|f| f.marks.iter().any(|m| m == "character blocked"))
        .collect();
    assert!(blocked.iter().any(|b| *b));
    assert!(!blocked.windows(2).any(|w| w[0] && w[1]), "{blocked:?}");
    let scene = Scene::from_level(&recording.level).unwrap();
    for f in &recording.frames {
        assert_eq!(f.queries.len(), 4);
        for q in &f.queries {
            assert!(q.same_answer(&q.rerun(&scene)));
        }
    }

    // `info` on the recording.
    let out = bin().arg("info").arg(&rec_path).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let has = |key: &str, n: u32| {
        text.lines()
            .any(|l| l.trim_start().starts_with(&format!("{key}: {n}")))
    };
    assert!(
        has("frames", 300) && has("ray", 300) && has("slide", 300),
        "{text}"
    );
    let out = bin()
        .args(["info", "--format", "json"])
        .arg(&rec_path)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["frames"], 300);
    assert_eq!(json["truncated"], false);

    // `replay` against its own level: nothing changed, exit 0.
    let out = bin().arg("replay").arg(&rec_path).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("0 of 1200 queries"));

    // A level edit the game would feel: every wall 0.3 m thicker. Exit 1, the changes listed.
    let mut edited = house.clone();
    for w in &mut edited.walls {
        w.radius += 0.3;
    }
    let level_path = dir.path().join("edited.ron");
    edited.save(&level_path).unwrap();
    let out = bin()
        .arg("replay")
        .arg(&rec_path)
        .arg("--level")
        .arg(&level_path)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let changed = json["changed"].as_array().unwrap();
    assert!(!changed.is_empty());
    assert_eq!(json["queries"], 1200);
    assert!(changed.iter().all(|c| c["before"] != c["after"]));

    // An edit far from where the game went changes nothing.
    let mut far = house.clone();
    far.walls.push(collidoscope::level::WallObject {
        id: far.next_id(),
        name: None,
        a: collidoscope::glam::Vec2::new(500.0, 500.0),
        b: collidoscope::glam::Vec2::new(510.0, 500.0),
        radius: 0.5,
        height: None,
        properties: Default::default(),
    });
    far.save(&level_path).unwrap();
    let out = bin()
        .arg("replay")
        .arg(&rec_path)
        .arg("--level")
        .arg(&level_path)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );

    // A damaged recording: exit 2 with the frame named.
    let mut bytes = std::fs::read(&rec_path).unwrap();
    let n = bytes.len();
    bytes[n - 5] ^= 0x40;
    let bad = dir.path().join("bad.crec");
    std::fs::write(&bad, &bytes).unwrap();
    let out = bin().arg("replay").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.crec") && err.contains("frame 299"),
        "{err}"
    );
}

#[test]
fn example_game_reads_the_courtyard_game_data() {
    // The courtyard's spawn is at (-6, -6); the first run goes +x along z = -6 over the pickup at (0, -6)
    // (amount 5, kind coin by default) and stops at the east wall.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/courtyard.ron");
    let args: Vec<String> = vec![
        "--headless".into(),
        "--frames".into(),
        "200".into(),
        "--level".into(),
        path.display().to_string(),
    ];
    let s = example::run(&example::parse(&args).unwrap()).unwrap();
    assert_eq!(s.picked.first(), Some(&(32, "coin".to_owned(), 5)), "{s:?}");
    assert!(s.position.x < 10.0 - 0.25 - 0.3 + 1e-3, "{s:?}");
}

#[test]
fn example_game_plays_every_sample_level_with_balls() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/magic_room.ron");
    let args: Vec<String> = vec![
        "--headless".into(),
        "--frames".into(),
        "120".into(),
        "--level".into(),
        dir.display().to_string(),
    ];
    let s = example::run(&example::parse(&args).unwrap()).unwrap();
    assert_eq!((s.frames, s.steps), (120, 120));
    assert!(example::parse(&["--frames".to_string(), "x".to_string()]).is_err());
    assert!(example::parse(&["--bogus".to_string()]).is_err());
}
