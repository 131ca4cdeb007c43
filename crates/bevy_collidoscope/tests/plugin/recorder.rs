//! The flight recorder: every query asked through `LevelScene`, a frame per Bevy frame, saved on `AppExit`,
//! on drop and on a panic, streamed to the editor's live link.

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy_collidoscope::collidoscope::glam;
use bevy_collidoscope::collidoscope::level::Level;
use bevy_collidoscope::collidoscope::record::{Listener, LiveEvent, QueryRecord, Recording};
use bevy_collidoscope::collidoscope::scene::Scene;
use bevy_collidoscope::collidoscope::shape::{Ray, Sphere};
use bevy_collidoscope::*;

use crate::common::*;

/// Three queries a frame through `LevelScene`, whatever is loaded.
fn ask_every_frame(scene: LevelScene, mut frame: Local<u32>) {
    *frame += 1;
    let x = (*frame % 20) as f32 - 10.0;
    let _ = scene.cast_ray(
        &Ray::new(
            glam::Vec3::new(x, 1.0, 0.0),
            glam::Vec3::new(0.3, -0.1, 1.0),
        ),
        40.0,
    );
    let _ = scene.overlap_sphere(&Sphere::new(glam::Vec3::new(x, 0.5, 9.0), 1.0));
    let _ = scene.move_and_slide(glam::Vec2::new(x, 9.0), 0.3, glam::Vec2::new(0.0, 1.0));
}

fn recording_app(assets: &AssetDir, save_to: &Path) -> App {
    let mut app = app_with(
        assets.root(),
        CollidoscopePlugin::with_recorder(FlightRecorderSettings::save_to(save_to)),
    );
    app.add_systems(Update, ask_every_frame);
    app
}

/// Every recorded query, asked again of the recording's own level, gets the same answer (what
/// `collidoscope replay` checks).
fn assert_replays(recording: &Recording) {
    let scene = Scene::from_level(&recording.level).unwrap();
    for f in &recording.frames {
        for q in &f.queries {
            assert!(q.same_answer(&q.rerun(&scene)), "frame {}: {q:?}", f.index);
        }
    }
}

#[test]
fn queries_are_recorded_a_frame_per_update_and_saved_on_app_exit() {
    let assets = AssetDir::new();
    let file = assets.path("game.crec");
    let mut app = recording_app(&assets, &file);
    // Nothing is recorded before a level is spawned (a recording embeds its level).
    app.update();
    assert!(!app.world().resource::<FlightRecorder>().is_recording());
    let root = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard to spawn", |app| spawned(app, root));
    assert!(app.world().resource::<FlightRecorder>().is_recording());
    for _ in 0..9 {
        app.update();
    }
    app.world()
        .resource::<FlightRecorder>()
        .mark("nine more frames");
    assert!(!file.exists());
    app.world_mut().write_message(AppExit::Success);
    app.update();
    assert!(file.exists(), "saved on AppExit");

    let recording = Recording::load(&file).unwrap();
    assert!(!recording.truncated);
    assert_eq!(recording.level, Level::from_ron_str(COURTYARD).unwrap());
    // The frame the level spawned in, nine more, and the frame of the exit.
    assert_eq!(recording.frames.len(), 11);
    assert_eq!(recording.frames[0].marks, ["level loaded: courtyard"]);
    assert_eq!(recording.frames[9].marks, ["nine more frames"]);
    for (i, f) in recording.frames.iter().enumerate() {
        assert_eq!(f.index, i as u64);
        let kinds: Vec<&str> = f.queries.iter().map(QueryRecord::kind).collect();
        assert_eq!(kinds, ["ray", "overlap", "slide"], "frame {i}");
    }
    // Frames carry the virtual clock: one fixed step (1/64 s) per update here.
    let dt = recording.frames[2].time - recording.frames[1].time;
    assert!((dt - 1.0 / 64.0).abs() < 1e-9, "{dt}");
    assert_replays(&recording);
}

#[test]
fn a_reload_is_marked_and_dropping_the_app_saves() {
    let assets = AssetDir::new();
    let file = assets.path("game.crec");
    let path = assets.path("levels/courtyard.ron");
    {
        let mut app = recording_app(&assets, &file);
        collect::<LevelSpawned>(&mut app);
        let root = spawn_root(&mut app, "levels/courtyard.ron");
        update_until(&mut app, "the courtyard to spawn", |app| spawned(app, root));
        let mut level = Level::load(&path).unwrap();
        level.name = "courtyard, edited".into();
        save_atomically(&level, &path);
        update_until(&mut app, "the reload", |app| {
            collected::<LevelSpawned>(app).len() == 2
        });
        app.update();
    }
    let recording = Recording::load(&file).unwrap();
    let marks: Vec<&String> = recording.frames.iter().flat_map(|f| &f.marks).collect();
    assert_eq!(
        marks,
        [
            "level loaded: courtyard",
            "level reloaded: courtyard, edited"
        ]
    );
    // The recording keeps the level it started with.
    assert_eq!(recording.level.name, "courtyard");
}

/// Where the panicking child writes its recording (set only in the child's environment).
const CRASH_FILE: &str = "BEVY_COLLIDOSCOPE_TEST_CRASH_FILE";

#[test]
fn a_panic_saves_the_recording() {
    // A panic hook is the whole process's: the panic runs in a child process (this test binary again, on
    // the ignored test below), so it cannot make the other tests' recorders save.
    let assets = AssetDir::new();
    let file = assets.path("crash.crec");
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "recorder::panicking_game",
            "--ignored",
            "--nocapture",
        ])
        .env(CRASH_FILE, &file)
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("the game fell over"), "{stderr}");
    assert!(
        stderr.contains("saved") && stderr.contains("after a panic"),
        "{stderr}"
    );
    // Saved by the panic hook, before the unwinding ended the process.
    let recording = Recording::load(&file).unwrap();
    assert!(recording.frames.len() >= 2);
    assert_eq!(recording.frames.last().unwrap().marks, ["panic"]);
    assert_replays(&recording);
}

#[test]
#[ignore = "run by a_panic_saves_the_recording in a child process"]
fn panicking_game() {
    #[derive(Resource)]
    struct Explode;
    let Some(file) = std::env::var_os(CRASH_FILE) else {
        return;
    };
    let assets = AssetDir::new();
    let mut app = recording_app(&assets, Path::new(&file));
    app.add_systems(Update, |bomb: Option<Res<Explode>>| {
        assert!(bomb.is_none(), "the game fell over");
    });
    let root = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard to spawn", |app| spawned(app, root));
    app.update();
    app.insert_resource(Explode);
    app.update();
}

#[test]
fn frames_stream_to_the_editors_live_link() {
    let mut listener = Listener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).unwrap();
    let assets = AssetDir::new();
    let settings = FlightRecorderSettings {
        connect: Some(listener.local_addr()),
        ..FlightRecorderSettings::default()
    };
    let mut app = app_with(assets.root(), CollidoscopePlugin::with_recorder(settings));
    app.add_systems(Update, ask_every_frame);
    let root = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard to spawn", |app| spawned(app, root));
    for _ in 0..5 {
        app.update();
    }
    let mut events = Vec::new();
    let start = Instant::now();
    while events
        .iter()
        .filter(|e| matches!(e, LiveEvent::Frame(_)))
        .count()
        < 5
    {
        assert!(start.elapsed() < Duration::from_secs(10), "{events:?}");
        events.extend(listener.poll());
        std::thread::sleep(Duration::from_millis(5));
    }
    let LiveEvent::Connected { level } = &events[0] else {
        panic!("{:?}", events[0]);
    };
    assert_eq!(level.name, "courtyard");
    assert!(
        app.world()
            .resource::<FlightRecorder>()
            .live_stats()
            .is_some()
    );
}

#[test]
fn a_recorder_inserted_by_the_game_records_too() {
    let assets = AssetDir::new();
    let mut app = app(assets.root());
    app.add_systems(Update, ask_every_frame);
    let root = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard to spawn", |app| spawned(app, root));
    // Inserted once the level is there: it starts with the next frame.
    app.insert_resource(FlightRecorder::new(FlightRecorderSettings::default()));
    app.update();
    app.update();
    let rec = app.world().resource::<FlightRecorder>();
    assert_eq!(rec.frame_count(), 2);
    let recording = Recording::from_bytes(&rec.to_bytes().unwrap()).unwrap();
    assert_eq!(recording.level.name, "courtyard");
    assert_eq!(recording.frames[0].queries.len(), 3);
    assert_eq!(recording.frames[1].queries.len(), 3);
    // Saved where the game says.
    let file = assets.path("by-hand.crec");
    assert!(rec.save(&file).unwrap());
    assert_eq!(Recording::load(&file).unwrap().frames.len(), 2);
}

#[test]
fn every_character_step_is_recorded_and_replays() {
    let assets = AssetDir::new();
    let file = assets.path("walk.crec");
    let mut app = app_with(
        assets.root(),
        CollidoscopePlugin::with_recorder(FlightRecorderSettings::save_to(&file)),
    );
    let root = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard to spawn", |app| spawned(app, root));
    // Towards the fountain's rim (a low wall at z = 2): it blocks the body.
    let mut body = CharacterBody::for_level(&Level::from_ron_str(COURTYARD).unwrap());
    body.input.wish = Vec2::new(0.0, 4.0);
    let e = app
        .world_mut()
        .spawn((body, Transform::from_xyz(0.0, 0.01, -2.0)))
        .id();
    for _ in 0..64 {
        app.update();
    }
    let last = app
        .world()
        .get::<CharacterState>(e)
        .unwrap()
        .last_move()
        .unwrap()
        .clone();
    drop(app);
    let recording = Recording::load(&file).unwrap();
    let moves: Vec<&QueryRecord> = recording
        .frames
        .iter()
        .flat_map(|f| &f.queries)
        .filter(|q| q.kind() == "character")
        .collect();
    // One fixed step per update, one move per step.
    assert_eq!(moves.len(), 64);
    let QueryRecord::Character {
        result, controller, ..
    } = moves[63]
    else {
        unreachable!()
    };
    assert_eq!(*result, last);
    assert_eq!(*controller, body.controller);
    // Stopped by the rim: its hits are recorded, and the moves replay bit for bit.
    assert!(!result.hits.is_empty());
    assert_replays(&recording);
}
