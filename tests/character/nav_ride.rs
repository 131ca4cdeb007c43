//! Navigation across movers (`NavLink::Ride`): a lift to a balcony reachable only by it, a platform over a gap
//! too wide to jump; `path` gives a ride, a body stepped at 60 Hz with `steer` (the scene time advancing each
//! step) arrives, whatever the scene time it sets off at; without the mover there is no path.

use collidoscope::character::{Body, CharacterController};
use collidoscope::glam::{Vec2, Vec3};
use collidoscope::level::ObjectId;
use collidoscope::nav::{NavLink, NavMap, NavPath, NavSettings};
use collidoscope::scene::Scene;

use crate::common::scene;

const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);

/// A ground floor, a 3 m balcony (box 2) and a lift plate (box 3, 0.2 m thick on the ground beside the
/// balcony) going up 2.8 m to the balcony's top and back, waiting 1 s at each end; `mover` false: no mover.
fn lift(mover: bool) -> Scene {
    let movers = if mover {
        "movers: [(id: 10, object: 3, path: [(0.0, 0.0, 0.0), (0.0, 2.8, 0.0)], speed: 2.0, wait: 1.0)],"
    } else {
        ""
    };
    scene(&format!(
        r#"(version: 3, aabbs: [
            (id: 1, min: (-6.0, -1.0, -4.0), max: (6.0, 0.0, 4.0)),
            (id: 2, min: (2.0, 0.0, -4.0), max: (6.0, 3.0, 4.0)),
            (id: 3, min: (0.0, 0.0, -1.0), max: (2.0, 0.2, 1.0)),
        ], {movers})"#
    ))
}

/// Two ledges 8 m apart (boxes 1 and 2, tops at 0) and a 3 m platform (box 3) sliding 5 m between them,
/// waiting 1 s at each; `mover` false: the platform stays at the near ledge (5 m short of the far one: too far
/// to jump).
fn platform(mover: bool) -> Scene {
    let movers = if mover {
        "movers: [(id: 10, object: 3, path: [(0.0, 0.0, 0.0), (5.0, 0.0, 0.0)], speed: 2.0, wait: 1.0)],"
    } else {
        ""
    };
    scene(&format!(
        r#"(version: 3, aabbs: [
            (id: 1, min: (-8.0, -1.0, -3.0), max: (-3.0, 0.0, 3.0)),
            (id: 2, min: (5.0, -1.0, -3.0), max: (10.0, 0.0, 3.0)),
            (id: 3, min: (-3.0, -0.2, -1.0), max: (0.0, 0.0, 1.0)),
        ], {movers})"#
    ))
}

fn flat(a: Vec3, b: Vec3) -> f32 {
    Vec2::new(a.x - b.x, a.z - b.z).length()
}

fn rides(path: &NavPath) -> Vec<ObjectId> {
    path.links
        .iter()
        .filter_map(|l| match l {
            NavLink::Ride { mover } => Some(*mover),
            _ => None,
        })
        .collect()
}

/// Follow `path` from its first point, setting the scene's time to `t0` and advancing it 1/60 s before each
/// step; the seconds taken to stand within `cell·√2` and a step of `to`, or `None` within `limit` s. Never
/// inside anything, never crushed.
fn follow(scene: &mut Scene, path: &NavPath, to: Vec3, t0: f32, limit: f32) -> Option<f32> {
    follow_as(scene, &CharacterController::default(), path, to, t0, limit)
}

/// [`follow`] by a body of `ctl`'s size.
fn follow_as(
    scene: &mut Scene,
    ctl: &CharacterController,
    path: &NavPath,
    to: Vec3,
    t0: f32,
    limit: f32,
) -> Option<f32> {
    let ctl = *ctl;
    let mut body = Body::new(path.points[0]);
    body.grounded = true;
    let dt = 1.0 / 60.0;
    let mut t = t0;
    scene.set_time(t);
    for frame in 0..(limit * 60.0) as usize {
        let input = path.steer(&body, &ctl);
        t += dt;
        scene.set_time(t);
        let m = body.step(&ctl, scene, &input, GRAVITY, dt);
        assert!(!m.crushed, "crushed at {:?}", body.feet);
        assert!(
            scene.overlap_capsule(&ctl.capsule(body.feet)).is_empty(),
            "inside something at {:?}",
            body.feet
        );
        if flat(body.feet, to) <= 0.25 * std::f32::consts::SQRT_2
            && (body.feet.y - to.y).abs() <= ctl.max_step + 2.0 * ctl.skin
            && body.grounded
        {
            return Some(frame as f32 * dt);
        }
    }
    None
}

#[test]
fn a_lift_to_a_balcony_is_ridden() {
    let mut scene = lift(true);
    let map = NavMap::build(&scene, &NavSettings::default());
    assert!(map.error().is_none(), "{:?}", map.error());
    assert!(map.stats().rides > 0, "{:?}", map.stats());
    let all = map.rides(0);
    assert_eq!(all.len() as u64, map.stats().rides);
    assert!(
        all.iter()
            .all(|r| r.mover == ObjectId(3) && (r.land - r.board).length() > 2.7)
    );
    let (from, to) = (Vec3::new(-4.0, 0.0, 0.0), Vec3::new(4.5, 3.0, 0.5));
    let path = map.path(0, from, to).expect("a path up by the lift");
    assert_eq!(path.links.len() + 1, path.points.len());
    assert_eq!(rides(&path), vec![ObjectId(3), ObjectId(3)], "{path:?}");
    // The time a follow is given counts the ride's worst wait and travel (a period of 4.8 s, 1.4 s up) on top
    // of the walking's.
    let walking = 1.5 * path.length() / collidoscope::nav::STEER_SPEED + 2.0;
    let given = map.follow_seconds(0, &path);
    assert!(
        given >= walking + 4.8 && given <= walking + 4.8 + 1.4 + 0.5,
        "{given} s given, {walking} s for the walking"
    );
    assert_eq!(map.follow_seconds(7, &path), walking + 60.0);
    // Whenever the body sets off, the lift is there within a period (2 × (1.4 s + 1 s)): it arrives in the
    // time given.
    for t0 in [0.0, 1.1, 2.9] {
        let took = follow(&mut scene, &path, to, t0, given);
        assert!(
            took.is_some(),
            "set off at {t0} s: did not arrive in {given} s: {path:?}"
        );
    }
    // Down again too.
    let back = map.path(0, to, from).expect("a path down");
    let took = follow(&mut scene, &back, from, 0.5, 20.0);
    assert!(took.is_some(), "down: {back:?}");
}

#[test]
fn without_the_lift_the_balcony_has_no_path() {
    let from = Vec3::new(-4.0, 0.0, 0.0);
    let to = Vec3::new(4.5, 3.0, 0.5);
    let map = NavMap::build(&lift(false), &NavSettings::default());
    assert!(map.path(0, from, to).is_none());
    // With rides off, neither.
    let off = NavSettings {
        rides: false,
        ..NavSettings::default()
    };
    let map = NavMap::build(&lift(true), &off);
    assert!(map.path(0, from, to).is_none());
    assert_eq!(map.stats().rides, 0);
}

#[test]
fn a_platform_over_a_gap_is_ridden() {
    let mut scene = platform(true);
    let map = NavMap::build(&scene, &NavSettings::default());
    let (from, to) = (Vec3::new(-6.0, 0.0, 0.0), Vec3::new(7.5, 0.0, 0.0));
    let path = map
        .path(0, from, to)
        .expect("a path across by the platform");
    assert_eq!(rides(&path), vec![ObjectId(3), ObjectId(3)], "{path:?}");
    for t0 in [0.0, 2.0] {
        let took = follow(&mut scene, &path, to, t0, 20.0);
        assert!(
            took.is_some(),
            "set off at {t0} s: did not arrive: {path:?}"
        );
    }
    let map = NavMap::build(&platform(false), &NavSettings::default());
    assert!(map.path(0, from, to).is_none());
}

/// A room (sector 1, floor 0), a balcony (sector 3, floor 3) and between them a 2 m lift shaft (sector 2)
/// whose floor rises 3 m and back, waiting 1 s at each end.
const SECTOR_LIFT: &str = r#"(version: 3,
    sectors: [
        (id: 1, outline: [(-6.0, -3.0), (0.0, -3.0), (0.0, 3.0), (-6.0, 3.0)], floor: (height: 0.0), ceiling: (height: 6.0)),
        (id: 2, outline: [(0.0, -1.0), (2.0, -1.0), (2.0, 1.0), (0.0, 1.0)], floor: (height: 0.0), ceiling: (height: 6.0)),
        (id: 3, outline: [(2.0, -3.0), (6.0, -3.0), (6.0, 3.0), (2.0, 3.0)], floor: (height: 3.0), ceiling: (height: 6.0)),
    ],
    movers: [(id: 10, object: 2, part: Floor, path: [(0.0, 0.0, 0.0), (0.0, 3.0, 0.0)], speed: 2.0, wait: 1.0)],
)"#;

#[test]
fn a_sector_floor_lift_is_ridden() {
    let mut scene = scene(SECTOR_LIFT);
    let map = NavMap::build(&scene, &NavSettings::default());
    let (from, to) = (Vec3::new(-4.0, 0.0, 0.0), Vec3::new(4.5, 3.0, 0.5));
    let path = map.path(0, from, to).expect("a path up by the lift");
    assert_eq!(rides(&path), vec![ObjectId(2), ObjectId(2)], "{path:?}");
    for t0 in [0.0, 1.7] {
        let took = follow(&mut scene, &path, to, t0, 20.0);
        assert!(
            took.is_some(),
            "set off at {t0} s: did not arrive: {path:?}"
        );
    }
    let off = NavSettings {
        rides: false,
        ..NavSettings::default()
    };
    assert!(NavMap::build(&scene, &off).path(0, from, to).is_none());
}

/// The sample level: from the ground by the lift (box 40) to the upper storey, then by the sliding platform
/// (box 44) to the far ledge.
#[test]
fn the_sample_level_rides_the_lift_then_the_platform() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/movers.ron")).unwrap();
    let mut scene = scene(&text);
    let map = NavMap::build(&scene, &NavSettings::default());
    let (from, to) = (Vec3::new(-3.0, 0.0, 1.0), Vec3::new(-18.0, 3.2, 4.0));
    let path = map
        .path(0, from, to)
        .expect("a path by the lift and the platform");
    let ids = [ObjectId(40), ObjectId(40), ObjectId(44), ObjectId(44)];
    assert_eq!(rides(&path), ids, "{path:?}");
    assert!(
        follow(&mut scene, &path, to, 0.0, 40.0).is_some(),
        "{path:?}"
    );
}

/// How many random agents the movers soak tries (`NAV_RIDE_CASES`, 16 by default).
fn ride_cases() -> u32 {
    std::env::var("NAV_RIDE_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(16)
}

proptest::proptest! {
    #![proptest_config(crate::guarantees::config(ride_cases()))]

    /// The box lift, the sector floor lift and the sliding platform for random agent sizes (radius 0.1 to
    /// 0.6 m, up to 2.8 m tall, steps of 0.25 to 0.5 m so the plate is a step, any slope and jump): the far
    /// side, out of a jump's reach, has a path, and a body of that size steered along it at 60 Hz from any
    /// scene time arrives within `follow_seconds`, never inside anything or crushed; so does the way back.
    #[test]
    #[ignore = "seconds a case: cargo test --release --test character -- nav::ride --ignored"]
    fn movers_are_ridden_by_random_agent_sizes(
        level in 0usize..3,
        radius in 0.1f32..0.6,
        tall in 0.1f32..1.6,
        max_step in 0.25f32..0.5,
        slope in 25.0f32..60.0,
        jump in 0.3f32..1.5,
        t0 in 0.0f32..6.0,
    ) {
        let ctl = CharacterController {
            radius,
            height: 2.0 * radius + tall,
            max_step: max_step.min(0.9 * (2.0 * radius + tall)),
            max_slope_deg: slope,
            jump_height: jump,
            ..CharacterController::default()
        };
        let (mut scene, from, to) = match level {
            0 => (lift(true), Vec3::new(-4.0, 0.0, 0.0), Vec3::new(4.5, 3.0, 0.5)),
            1 => (scene(SECTOR_LIFT), Vec3::new(-4.0, 0.0, 0.0), Vec3::new(4.5, 3.0, 0.5)),
            _ => (platform(true), Vec3::new(-6.0, 0.0, 0.0), Vec3::new(7.5, 0.0, 0.0)),
        };
        let settings = NavSettings {
            agents: vec![ctl],
            ..NavSettings::default()
        };
        let map = NavMap::build(&scene, &settings);
        proptest::prop_assert!(map.error().is_none(), "{:?}", map.error());
        for (a, b) in [(from, to), (to, from)] {
            let path = map.path(0, a, b);
            proptest::prop_assert!(path.is_some(), "no path from {a:?} to {b:?} for {ctl:?}");
            let path = path.unwrap();
            let given = map.follow_seconds(0, &path);
            let took = follow_as(&mut scene, &ctl, &path, b, t0, given);
            proptest::prop_assert!(
                took.is_some(),
                "level {level}, {ctl:?}, set off at {t0} s: not at {b:?} in {given} s: {path:?}"
            );
        }
    }
}

/// Found by the movers soak: from the sector lift's balcony a small agent's path dropped 3 m into the lift
/// shaft (its floor down where the map was baked) and the body, stepping off the rim as the floor came up,
/// was crushed against the balcony's edge. A place in a mover's way is now never walked or dropped to: the
/// way down is the ride, and the body arrives whenever it sets off.
#[test]
fn a_small_agent_rides_the_sector_lift_down_rather_than_dropping_into_its_shaft() {
    let ctl = small_agent(0.147, 0.394, 0.25);
    let (mut scene, map, path) = down_the_sector_lift(ctl);
    let to = DOWN.1;
    assert_eq!(rides(&path), vec![ObjectId(2), ObjectId(2)], "{path:?}");
    assert!(
        !path.links.iter().any(|l| matches!(l, NavLink::Drop { .. })),
        "{path:?}"
    );
    let given = map.follow_seconds(0, &path);
    for t0 in [0.0, 2.5, 5.31] {
        let took = follow_as(&mut scene, &ctl, &path, to, t0, given);
        assert!(took.is_some(), "set off at {t0} s: {path:?}");
    }
    // Without the mover the shaft's floor stays down: dropping into it is the way.
    let still = format!(
        "{})",
        SECTOR_LIFT.split("    movers:").next().unwrap_or_default()
    );
    let map = NavMap::build(&crate::common::scene(&still), map.settings());
    let path = map.path(0, DOWN.0, DOWN.1).expect("a path down");
    assert!(
        path.links.iter().any(|l| matches!(l, NavLink::Drop { .. })),
        "{path:?}"
    );
}

/// Found by the movers soak on five of six seeds: a small agent with a high step (radius 0.15 to 0.22 m,
/// steps over 0.43 m) waiting on the sector lift's balcony set off for the boarding point when the shaft's
/// floor was within half a step of the top, stepped onto it 4 to 9 mm short of it and still rising, and was
/// crushed against the balcony's edge. A mover that rests at its near end longer than the walk onto it is now
/// boarded only at rest there (within a skin); one that does not rest so long, within half a step as before.
#[test]
fn boarding_the_sector_lift_waits_for_it_to_arrive() {
    let ctl = small_agent(
        0.175_735_55,
        2.0 * 0.175_735_55 + 0.249_507_28,
        0.460_429_43,
    );
    let (mut scene, map, path) = down_the_sector_lift(ctl);
    let given = map.follow_seconds(0, &path);
    assert!(follow_as(&mut scene, &ctl, &path, DOWN.1, 0.770_613_97, given).is_some());
}

/// From the sector lift's balcony down to the room.
const DOWN: (Vec3, Vec3) = (Vec3::new(4.5, 3.0, 0.5), Vec3::new(-4.0, 0.0, 0.0));

/// A small agent of the movers soak: 25° slopes, a 0.3 m jump.
fn small_agent(radius: f32, height: f32, max_step: f32) -> CharacterController {
    CharacterController {
        radius,
        height,
        max_step,
        max_slope_deg: 25.0,
        jump_height: 0.3,
        ..CharacterController::default()
    }
}

/// The sector lift's scene, `ctl`'s map of it and its path [`DOWN`] (which must exist).
fn down_the_sector_lift(ctl: CharacterController) -> (Scene, NavMap, NavPath) {
    let scene = scene(SECTOR_LIFT);
    let settings = NavSettings {
        agents: vec![ctl],
        ..NavSettings::default()
    };
    let map = NavMap::build(&scene, &settings);
    let path = map.path(0, DOWN.0, DOWN.1).expect("a path down");
    (scene, map, path)
}
