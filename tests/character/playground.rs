//! The sample level `levels/playground.ron`, walked feature by feature with its own character, and mapped.

use collidoscope::character::{Blocker3, CharacterMove, Limit, ReachMap, ReachSettings};
use collidoscope::glam::Vec3;
use collidoscope::level::Level;
use collidoscope::scene::Scene;

fn playground() -> (Level, Scene) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/levels/playground.ron");
    let level = Level::load(path.as_ref()).unwrap();
    let scene = Scene::from_level(&level).unwrap();
    (level, scene)
}

/// Walk from `(x, 0, z)` along `dir` (horizontal, 0.1 m a move, with a little gravity) for `moves` moves.
/// Stops early once past `stop` along `dir` (a landing's middle).
fn walk(
    level: &Level,
    scene: &Scene,
    x: f32,
    z: f32,
    dir: Vec3,
    moves: usize,
) -> Vec<CharacterMove> {
    walk_to(level, scene, x, z, dir, moves, f32::INFINITY)
}

fn walk_to(
    level: &Level,
    scene: &Scene,
    x: f32,
    z: f32,
    dir: Vec3,
    moves: usize,
    stop: f32,
) -> Vec<CharacterMove> {
    let c = level.character.unwrap();
    let mut feet = Vec3::new(x, c.skin, z);
    let mut out = Vec::new();
    for _ in 0..moves {
        let m = c.move_character(scene, feet, dir * 0.1 + Vec3::new(0.0, -0.02, 0.0));
        feet = m.feet;
        out.push(m);
        if feet.dot(dir) >= stop {
            break;
        }
    }
    out
}

#[test]
fn the_low_stairs_are_climbed_and_the_high_riser_blocks() {
    let (level, scene) = playground();
    let c = level.character.unwrap();
    for (x, riser, top) in [(-16.5f32, 0.2f32, 1.0f32), (-11.5, 0.3, 1.5)] {
        let moves = walk_to(&level, &scene, x, -3.0, -Vec3::Z, 60, 6.8);
        let steps: Vec<f32> = moves
            .iter()
            .map(|m| m.stepped_up)
            .filter(|&s| s > 0.0)
            .collect();
        assert_eq!(steps.len(), 5, "{riser}: {steps:?}");
        assert!(steps.iter().all(|s| (s - riser).abs() < 1e-3), "{steps:?}");
        let end = moves.last().unwrap();
        assert!(
            end.grounded && (end.feet.y - top - c.skin).abs() < c.skin,
            "{:?}",
            end.feet
        );
    }
    let moves = walk(&level, &scene, -6.5, -3.0, -Vec3::Z, 30);
    let end = moves.last().unwrap();
    assert!(end.feet.y < 0.05 && end.feet.z > -4.0, "{:?}", end.feet);
    match &end.limit {
        Some(Limit::StepTooHigh {
            height: Some(h),
            object,
            ..
        }) => {
            assert!((h - 0.42).abs() < 1e-3, "{h}");
            assert_eq!(object.0, 133);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_gentle_ramp_is_walked_and_the_steep_one_refused() {
    let (level, scene) = playground();
    let moves = walk(&level, &scene, 4.5, -3.0, -Vec3::Z, 60);
    let top = moves.iter().map(|m| m.feet.y).fold(0.0f32, f32::max);
    assert!(top > 2.0, "{top}");
    let moves = walk(&level, &scene, 10.5, -3.0, -Vec3::Z, 60);
    let top = moves.iter().map(|m| m.feet.y).fold(0.0f32, f32::max);
    assert!(top < 0.4, "{top}");
    match &moves.last().unwrap().limit {
        Some(Limit::SlopeTooSteep { degrees, .. }) => {
            assert!((degrees - 52.0).abs() < 1.0, "{degrees}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_narrow_door_and_the_low_tunnel_block_and_their_twins_pass() {
    let (level, scene) = playground();
    for (x, passes) in [(-14.25f32, false), (-7.5, true), (3.6, false), (7.6, true)] {
        let moves = walk(&level, &scene, x, 4.0, Vec3::Z, 60);
        let end = moves.last().unwrap().feet;
        assert_eq!(end.z > 7.0, passes, "x = {x}: {end:?}");
    }
}

#[test]
fn the_map_names_what_keeps_each_place_out_of_reach() {
    let (level, scene) = playground();
    let c = level.character.unwrap();
    let w = level.walker.as_ref().unwrap();
    let map = ReachMap::try_build(
        &scene,
        &c,
        Vec3::new(w.position.x, 0.0, w.position.y),
        &ReachSettings::default(),
    )
    .unwrap();
    // Every tread of the low flights is reached.
    for k in 0..=6 {
        let (z, y) = (-3.8 - 0.4 * k as f32, 0.2 * (k as f32).min(5.0));
        let p = Vec3::new(-16.5, y, z);
        assert!(map.can_stand(p) && map.reachable(p), "tread {k}");
    }
    // The landings of the low stairs and the gentle ramp's top are reached; the high stairs' landing is not.
    assert!(map.reachable(Vec3::new(-16.5, 1.0, -7.0)));
    assert!(map.reachable(Vec3::new(-11.5, 1.5, -7.0)));
    let high = Vec3::new(-6.5, 2.1, -7.0);
    assert!(map.can_stand(high) && !map.reachable(high));
    match map.blocker(high) {
        Some(Blocker3::StepTooHigh { height, .. }) => {
            assert!((height - 0.42).abs() <= 0.1, "{height}")
        }
        other => panic!("{other:?}"),
    }
    // Every path replays.
    let c = level.character.unwrap();
    for to in [
        Vec3::new(-16.5, 1.0, -7.0),
        Vec3::new(-11.5, 1.5, -7.0),
        Vec3::new(4.5, 1.0, -6.0),
        Vec3::new(7.6, 0.0, 9.0),
    ] {
        let path = map.path(to).unwrap_or_else(|| panic!("no path to {to:?}"));
        for w in path.windows(2) {
            let m = c.move_character(&scene, w[0], w[1] - w[0] + Vec3::NEG_Y * c.max_step);
            assert!(
                m.feet.distance(w[1]) <= c.skin + 1e-3,
                "{:?} -> {:?}: {:?}",
                w[0],
                w[1],
                m.feet
            );
        }
    }
}
