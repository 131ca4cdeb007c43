//! The example game, run headless in process (its own code, included as a module), its recording read back,
//! and the `replay` / `info` commands on it: the loop a game's CI runs. Its character walks in 3D with the
//! controller, every move recorded.

#![allow(clippy::unwrap_used)]

#[allow(dead_code)]
#[path = "../../examples/game.rs"]
mod example;

use std::path::Path;
use std::process::Command;

use collidoscope::character::CharacterController;
use collidoscope::glam::Vec3;
use collidoscope::level::Level;
use collidoscope::record::{QueryRecord, Recording};
use collidoscope::scene::Scene;

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(ToString::to_string).collect()
}

fn level_path(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("levels")
        .join(name)
        .display()
        .to_string()
}

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
    // The built-in level is the courtyard.
    let courtyard = Level::from_ron_str(include_str!("../../levels/courtyard.ron")).unwrap();
    assert_eq!(recording.level, courtyard);
    // The character met the courtyard's walls: some frames are marked, each when it starts to be blocked (not
    // every frame it stays blocked), so never two frames in a row, with the limit in words.
    let blocked: Vec<bool> = recording
        .frames
        .iter()
        .map(|f| {
            f.marks
                .iter()
                .any(|m| m.starts_with("character blocked: blocked by a wall: #"))
        })
        .collect();
    assert!(blocked.iter().any(|b| *b));
    assert!(!blocked.windows(2).any(|w| w[0] && w[1]), "{blocked:?}");
    let scene = Scene::from_level(&recording.level).unwrap();
    for f in &recording.frames {
        assert_eq!(f.queries.len(), 4);
        // Every frame's first query is the character's move, with the level's controller (its snap off while
        // the body is in the air: `Body::step` snaps a body down stairs, never one that is falling).
        let level_controller = recording.level.character.unwrap_or_default();
        assert!(
            matches!(&f.queries[0], QueryRecord::Character { controller, .. }
                if CharacterController { snap_distance: level_controller.snap_distance, ..*controller }
                    == level_controller),
            "frame {}",
            f.index
        );
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
        has("frames", 300) && has("ray", 300) && has("character", 300) && has("slide", 0),
        "{text}"
    );
    let out = bin()
        .args(["info", "--format", "json"])
        .arg(&rec_path)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["frames"], 300);
    assert_eq!(json["queries"]["character"], 300);
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

    // A level edit the game would feel: every wall 0.3 m thicker. Exit 1, the changes listed, the character's
    // moves among them with the parts that changed.
    let mut edited = courtyard.clone();
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
    let moves: Vec<_> = changed
        .iter()
        .filter(|c| c["kind"] == "character")
        .collect();
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|c| {
        let parts = c["differences"].as_array().unwrap();
        !parts.is_empty()
            && parts.iter().all(|p| {
                [
                    "feet", "grounded", "ground", "hits", "steps", "snap", "limit",
                ]
                .contains(&p.as_str().unwrap())
            })
    }));
    assert!(moves.iter().any(|c| {
        c["differences"]
            .as_array()
            .unwrap()
            .contains(&"feet".into())
    }));

    // An edit far from where the game went changes nothing.
    let mut far = courtyard.clone();
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

/// The moves of a recording, in order.
fn moves(
    r: &Recording,
) -> Vec<(
    CharacterController,
    Vec3,
    Vec3,
    collidoscope::character::CharacterMove,
)> {
    r.frames
        .iter()
        .flat_map(|f| &f.queries)
        .filter_map(|q| match q {
            QueryRecord::Character {
                controller,
                feet,
                motion,
                result,
            } => Some((*controller, *feet, *motion, result.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn example_game_walks_jumps_and_lands_in_3d() {
    let dir = tempfile::tempdir().unwrap();
    let rec_path = dir.path().join("game.crec");
    let mut a = args(&["--headless", "--frames", "600", "--level"]);
    a.push(level_path("courtyard.ron"));
    a.push("--record".into());
    a.push(rec_path.display().to_string());
    let s = example::run(&example::parse(&a).unwrap()).unwrap();
    let r = Recording::load(&rec_path).unwrap();
    let level = &r.level;
    let c = level.character.unwrap_or_default();
    let (g, dt) = (level.simulation.gravity.y, level.simulation.dt);
    let moves = moves(&r);
    assert_eq!(moves.len(), 600);
    // Jumps 1.25 s into every 3 s run, and 2.5 s into every other one: frames 75, 255, 330 and 435.
    assert_eq!(s.jumps, 4, "{s:?}");
    assert_eq!(s.fell, 0);
    assert!(s.grounded_frames > 380, "{s:?}");
    // Each move starts where the one before ended.
    for w in moves.windows(2) {
        assert_eq!(w[1].1, w[0].3.feet);
    }
    // The velocity the body keeps (`Body::step`): on the ground the vertical speed is reset, so the next move
    // asks for half a frame of gravity's fall exactly (the motion is exact under gravity, `½·g·dt²`), and the
    // horizontal velocity is the input's 6 m/s; in the air each move falls a frame of gravity more than the
    // one before.
    let mut air = 0;
    for (i, w) in moves.windows(2).enumerate() {
        let (before, after) = (&w[0].3, w[1].2);
        let jump = [75, 255, 330, 435].contains(&(i + 1));
        if before.grounded && !jump {
            assert_eq!(after.y, g * (0.5 * dt * dt), "move {}", i + 1);
            assert!((after.x.hypot(after.z) - 6.0 * dt).abs() < 1e-5);
        } else if !before.grounded && before.hits.iter().all(|h| h.normal.y > -0.5) {
            air += 1;
            assert!(
                (after.y - (w[0].2.y + g * dt * dt)).abs() < 1e-6,
                "move {}",
                i + 1
            );
        }
    }
    assert!(air > 100, "{air} frames in the air");
    // A jump lifts the feet by about its height, and every landing is on the ground plane (#9), the feet a
    // skin above it.
    let top = moves.iter().map(|m| m.3.feet.y).fold(f32::MIN, f32::max);
    assert!((top - 1.0).abs() < 0.1, "highest feet {top}");
    for (i, m) in moves.iter().enumerate() {
        if m.3.grounded {
            let ground = m.3.ground.unwrap();
            assert_eq!(ground.object.0, 9, "move {i}");
            assert!(
                m.3.feet.y >= c.skin / 2.0 && m.3.feet.y <= 2.0 * c.skin,
                "move {i}: {}",
                m.3.feet.y
            );
        }
    }
    // The body meets the fountain's trigger prism (tested with the capsule): in the 17th second, once a jump
    // carries it over the rim (a wall met in the air takes the speed into it, so the first tries fall back).
    let mut a = args(&["--headless", "--frames", "1200", "--level"]);
    a.push(level_path("courtyard.ron"));
    let long = example::run(&example::parse(&a).unwrap()).unwrap();
    assert!(
        long.entered.contains(&"fountain splash".to_owned()),
        "{long:?}"
    );
    // Asked again of the same level, every move is the same bit for bit, its workings included.
    let scene = Scene::from_level(level).unwrap();
    for q in r.frames.iter().flat_map(|f| &f.queries) {
        let again = q.rerun(&scene);
        assert_eq!(
            postcard::to_allocvec(&again).unwrap(),
            postcard::to_allocvec(q).unwrap()
        );
    }
}

#[test]
fn example_game_puts_back_a_character_that_falls_out_of_the_level() {
    // The house has walls and no ground: the character falls and is put back at its start 50 m below it.
    let mut a = args(&["--headless", "--frames", "400", "--level"]);
    a.push(level_path("house.ron"));
    let s = example::run(&example::parse(&a).unwrap()).unwrap();
    assert_eq!(s.fell, 2, "{s:?}");
    assert_eq!(s.grounded_frames, 0);
    assert!(s.feet.y < 0.0 && s.feet.y > -50.0, "{s:?}");
}

#[test]
fn the_body_meets_trigger_volumes_as_a_capsule() {
    let level = Level::from_ron_str(
        r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
        triggers: [
            (id: 10, name: "lamp", shape: Aabb((min: (-0.5, 1.6, -0.5), max: (0.5, 2.0, 0.5)))),
            (id: 11, name: "beside", shape: Sphere((center: (0.0, 1.0, 0.701), radius: 0.4))),
            (id: 12, name: "touching", shape: Prism(points: [(0.3, -1.0), (1.0, -1.0), (1.0, 1.0), (0.3, 1.0)], bottom: 0.5, top: 0.6)),
        ])"#,
    )
    .unwrap();
    let scene = Scene::from_level(&level).unwrap();
    let c = CharacterController::default();
    let body = c.capsule(Vec3::new(0.0, 0.0, 0.0));
    // The lamp at head height (the head's top is at 1.8) and the prism the body's side touches are met; the
    // sphere 1 mm beside the body is not. A sphere at the feet meets none of them.
    let found: Vec<u32> = scene
        .triggers_at_capsule(&body)
        .iter()
        .map(|id| id.0)
        .collect();
    assert_eq!(found, [10, 12]);
    let feet = collidoscope::shape::Sphere::new(body.a, body.radius);
    assert!(scene.triggers_at(&feet).is_empty());
}

#[test]
fn example_game_plays_on_until_the_editor_listens() {
    // `--connect` to a port where nothing listens yet: the game starts and plays (in real time); once the
    // editor's listener binds there, the recorder's retry connects and frames arrive.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let a = args(&["--frames", "150", "--connect", &addr]);
    let game = std::thread::spawn(move || example::run(&example::parse(&a).unwrap()));
    std::thread::sleep(std::time::Duration::from_millis(300));
    let mut listener = collidoscope::record::Listener::bind(addr.parse().unwrap()).unwrap();
    let start = std::time::Instant::now();
    let (mut connected, mut frames) = (None, 0);
    while start.elapsed() < std::time::Duration::from_secs(20) && frames < 10 {
        for e in listener.poll() {
            match e {
                collidoscope::record::LiveEvent::Connected { level } => connected = Some(level),
                collidoscope::record::LiveEvent::Frame(f) => {
                    assert!(matches!(
                        f.queries.first(),
                        Some(QueryRecord::Character { .. }) | None
                    ));
                    frames += 1;
                }
                collidoscope::record::LiveEvent::Disconnected => {}
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let s = game.join().unwrap().unwrap();
    assert_eq!(s.frames, 150);
    assert_eq!(connected.unwrap().name, "courtyard");
    assert!(frames >= 10, "{frames} frames arrived");
}

#[test]
fn example_game_walks_every_sample_level_and_replays_it_unchanged() {
    // Every level in `levels/` (a level added there is played too): the moves are valid, and asked again of
    // the level every query answers the same, bit for bit.
    let dir = tempfile::tempdir().unwrap();
    let mut levels: Vec<_> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("levels"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
    levels.sort();
    assert!(levels.len() >= 6);
    for path in levels {
        let rec_path = dir.path().join("run.crec");
        let mut a = args(&["--headless", "--frames", "240", "--level"]);
        a.push(path.display().to_string());
        a.push("--record".into());
        a.push(rec_path.display().to_string());
        let s = example::run(&example::parse(&a).unwrap()).unwrap();
        let r = Recording::load(&rec_path).unwrap();
        let scene = Scene::from_level(&r.level).unwrap();
        let moves = moves(&r);
        assert_eq!(moves.len(), 240, "{}", path.display());
        for (i, m) in moves.iter().enumerate() {
            assert!(
                !matches!(
                    m.3.limit,
                    Some(collidoscope::character::Limit::Invalid { .. })
                ) && m.3.feet.is_finite(),
                "{} move {i}: {:?}",
                path.display(),
                m.3.limit
            );
        }
        for q in r.frames.iter().flat_map(|f| &f.queries) {
            assert_eq!(
                postcard::to_allocvec(&q.rerun(&scene)).unwrap(),
                postcard::to_allocvec(q).unwrap(),
                "{}",
                path.display()
            );
        }
        println!(
            "{}: {} jumps, {} frames grounded, fell {} times, feet at {:?}, {} bytes recorded",
            path.display(),
            s.jumps,
            s.grounded_frames,
            s.fell,
            s.feet,
            s.recorded_bytes
        );
    }
}
