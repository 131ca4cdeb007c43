//! Recordings of a level with movers (issue 37): each frame keeps the scene time of its queries and the
//! movers' starts; `Frame::pose_scene` puts a scene's movers back there, so a ride asked again of the same
//! level gives the same answers and of an edited level (a slower lift) the changed ones. Levels without
//! movers record as before, and recordings made before movers load.

#![allow(clippy::unwrap_used)]

use collidoscope::character::CharacterController;
use collidoscope::glam::Vec3;
use collidoscope::level::{Level, ObjectId};
use collidoscope::record::{Recorder, RecorderConfig, Recording};
use collidoscope::scene::Scene;
use collidoscope::shape::Ray;

/// A 2 × 0.5 × 2 lift (object 1, mover 2) going up 4 m at `speed` m/s, and a door (object 3, mover 4) that
/// trigger 5 starts.
fn lift(speed: f32) -> Level {
    Level::from_ron_str(&format!(
        "(version: 3,
        aabbs: [(id: 1, min: (-1.0, 0.0, -1.0), max: (1.0, 0.5, 1.0)),
                (id: 3, min: (4.0, 0.0, -1.0), max: (4.2, 3.0, 1.0))],
        movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 4.0, 0.0)], speed: {speed:?}, wait: 1.0),
                 (id: 4, object: 3, path: [(0.0, 0.0, 0.0), (0.0, 3.0, 0.0)], speed: 1.0, repeat: Once,
                  start: OnTrigger(5))],
        triggers: [(id: 5, shape: Aabb((min: (-1.0, 0.0, -1.0), max: (1.0, 1.0, 1.0))))])"
    ))
    .unwrap()
}

fn down(x: f32) -> Ray {
    Ray::new(Vec3::new(x, 20.0, 0.0), -Vec3::Y)
}

/// A ride up the lift recorded at 30 frames a second for 2 s: each frame a character's move onto the lift's
/// top and a ray down at the door; the door is started by the game at 1 s.
fn record_ride() -> (Level, Vec<u8>) {
    let level = lift(2.0);
    let mut scene = Scene::from_level(&level).unwrap();
    let c = CharacterController::default();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    for k in 0..60 {
        let t = k as f32 / 30.0;
        rec.begin_frame(f64::from(t));
        scene.set_time(t);
        if k == 30 {
            scene.start_triggered(ObjectId(5), t);
        }
        let top = scene.cast_ray(&down(0.0), 40.0).unwrap().point.y;
        rec.move_character(
            &scene,
            &c,
            Vec3::new(0.0, top + 0.05, 0.0),
            Vec3::new(0.0, -0.1, 0.0),
        );
        rec.cast_ray(&scene, &down(4.1), 40.0);
    }
    (level, rec.to_bytes())
}

/// Every query asked again of `scene` with the movers posed as recorded: (frame, query) of those answering
/// differently.
fn reask(recording: &Recording, scene: &mut Scene) -> Vec<(u64, usize)> {
    let mut changed = Vec::new();
    for frame in &recording.frames {
        for (i, q) in frame.queries.iter().enumerate() {
            frame.pose_scene(scene, i);
            if !q.same_answer(&q.rerun(scene)) {
                changed.push((frame.index, i));
            }
        }
    }
    changed
}

#[test]
fn frames_keep_their_scene_time_and_the_movers_starts() {
    let (_, bytes) = record_ride();
    let recording = Recording::from_bytes(&bytes).unwrap();
    assert_eq!(recording.frames.len(), 60);
    for (k, f) in recording.frames.iter().enumerate() {
        let t = k as f32 / 30.0;
        assert_eq!(f.scene_time(), t);
        assert_eq!(f.scene_times, vec![(0, t)]);
        assert_eq!(f.scene_time_of(1), t);
        let door = if k >= 30 { Some(1.0) } else { None };
        assert_eq!(
            f.mover_starts,
            vec![(ObjectId(2), Some(0.0)), (ObjectId(4), door)]
        );
    }
}

#[test]
fn a_ride_asked_again_of_its_own_level_answers_the_same() {
    let (level, bytes) = record_ride();
    let recording = Recording::from_bytes(&bytes).unwrap();
    let mut scene = Scene::from_level(&level).unwrap();
    assert_eq!(reask(&recording, &mut scene), Vec::<(u64, usize)>::new());
    // Without the movers posed (the scene left at time 0), the lift is at the bottom for every move.
    let still = Scene::from_level(&level).unwrap();
    let moved = recording
        .frames
        .iter()
        .filter(|f| !f.queries[0].same_answer(&f.queries[0].rerun(&still)))
        .count();
    assert!(moved > 50, "{moved}");
}

#[test]
fn a_slower_lift_changes_the_moves_after_the_start() {
    let (_, bytes) = record_ride();
    let recording = Recording::from_bytes(&bytes).unwrap();
    let mut slower = Scene::from_level(&lift(1.0)).unwrap();
    let changed = reask(&recording, &mut slower);
    // Frame 0 (time 0, both lifts at the bottom) and the door's rays answer the same; every later move lands
    // on a lower top.
    let moves: Vec<u64> = changed
        .iter()
        .filter(|&&(_, i)| i == 0)
        .map(|&(f, _)| f)
        .collect();
    assert_eq!(moves, (1..60).collect::<Vec<u64>>());
    assert!(changed.iter().all(|&(_, i)| i == 0), "{changed:?}");
}

#[test]
fn levels_without_movers_record_as_before_and_old_recordings_load() {
    let level = Level::from_ron_str(
        "(version: 3, aabbs: [(id: 1, min: (-1.0, 0.0, -1.0), max: (1.0, 0.5, 1.0))])",
    )
    .unwrap();
    let scene = Scene::from_level(&level).unwrap();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    rec.begin_frame(0.0);
    rec.cast_ray(&scene, &down(0.0), 40.0);
    let bytes = rec.to_bytes();
    let recording = Recording::from_bytes(&bytes).unwrap();
    let f = &recording.frames[0];
    assert!(f.scene_times.is_empty() && f.mover_starts.is_empty());
    assert_eq!(f.scene_time(), 0.0);
    // A recording made before movers existed.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/courtyard_before_characters.crec");
    let old = Recording::load(&path).unwrap();
    assert!(!old.frames.is_empty());
    assert!(
        old.frames
            .iter()
            .all(|f| f.scene_times.is_empty() && f.mover_starts.is_empty())
    );
}
