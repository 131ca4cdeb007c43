//! The example game (its own code, included as a module), run headless: the player walks the courtyard with
//! the character controller, picks up every pickup, leaves through the exit, and its recording replays.

#[allow(dead_code)]
#[path = "../../examples/courtyard.rs"]
mod courtyard;

use bevy_collidoscope::collidoscope::level::Level;
use bevy_collidoscope::collidoscope::record::Recording;
use bevy_collidoscope::collidoscope::scene::Scene;

use crate::common::*;

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(ToString::to_string).collect()
}

#[test]
fn the_courtyard_example_is_played_to_the_exit_and_its_recording_replays() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.crec");
    let mut a = args(&["--headless", "--frames", "900", "--record"]);
    a.push(file.display().to_string());
    let summary = courtyard::run(&courtyard::parse(&a).unwrap()).unwrap();
    // Every pickup, from its component (defaults filled in from the type), in the route's order.
    assert_eq!(
        summary.picked,
        vec![
            (31, "coin".to_owned(), 1),
            (33, "health".to_owned(), 25),
            (32, "coin".to_owned(), 5)
        ]
    );
    assert_eq!(summary.entered, ["fountain splash", "exit"]);
    // The exit ends the level before the frame limit; the player walked on the ground all the way.
    assert!(summary.finished && summary.frames < 900, "{summary:?}");
    assert!(summary.position.x > 13.0, "{summary:?}");
    assert!(summary.position.y.abs() < 0.03, "{summary:?}");
    assert!(
        summary.grounded_frames >= summary.frames_walked - 1,
        "{summary:?}"
    );

    // The recording: the level, a frame per Bevy frame from the level's spawn, and every answer the same
    // when asked again of the level (what `collidoscope replay` checks; CI runs the command itself too).
    let recording = Recording::load(&file).unwrap();
    assert!(!recording.truncated);
    assert_eq!(recording.level, Level::from_ron_str(COURTYARD).unwrap());
    let marks: Vec<&str> = recording
        .frames
        .iter()
        .flat_map(|f| f.marks.iter().map(String::as_str))
        .collect();
    assert_eq!(
        marks,
        [
            "level loaded: courtyard",
            "player spawned",
            "picked up #31 (1 coin)",
            "entered trigger fountain splash",
            "picked up #33 (25 health)",
            "picked up #32 (5 coin)",
            "entered trigger exit"
        ]
    );
    let scene = Scene::from_level(&recording.level).unwrap();
    let mut asked = 0;
    let mut moves = 0;
    for f in &recording.frames {
        for q in &f.queries {
            assert!(q.same_answer(&q.rerun(&scene)), "frame {}: {q:?}", f.index);
            asked += 1;
            moves += usize::from(q.kind() == "character");
        }
    }
    // The camera's three queries a frame, and the player's move every fixed step (one a frame headless).
    assert_eq!(asked - moves, summary.queries as usize);
    assert!(
        moves.abs_diff(summary.frames_walked as usize) <= 1,
        "{moves} moves, {summary:?}"
    );
}

#[test]
fn the_example_reports_a_level_that_does_not_load() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.ron"), "(version: 2,\n walls: 3)").unwrap();
    let a = args(&[
        "--headless",
        "--assets",
        &dir.path().display().to_string(),
        "--level",
        "bad.ron",
    ]);
    let err = courtyard::run(&courtyard::parse(&a).unwrap()).unwrap_err();
    assert!(err.starts_with("bad.ron:2:"), "{err}");
    assert!(courtyard::parse(&args(&["--frames", "many"])).is_err());
}
