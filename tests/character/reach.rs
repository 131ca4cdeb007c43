//! Reachability maps on hand-built levels, one blocker kind each; every path replays with `move_character`.

use collidoscope::character::{Blocker3, CharacterController, ReachError, ReachMap, ReachSettings};
use collidoscope::glam::Vec3;
use collidoscope::scene::Scene;

use crate::common::scene;

fn ctl() -> CharacterController {
    CharacterController::default()
}

/// A 12 m square floor (a box, so the map has bounds) with `extra` objects as RON list items.
fn room(extra_aabbs: &str) -> Scene {
    scene(&format!(
        r#"(version: 2, aabbs: [(id: 1, min: (-6.0, -1.0, -6.0), max: (6.0, 0.0, 6.0)), {extra_aabbs}])"#
    ))
}

fn map(s: &Scene, start: Vec3) -> ReachMap {
    let m = ReachMap::try_build(s, &ctl(), start, &ReachSettings::default()).unwrap();
    // Every path replays, from the start to each of a sample of reached places.
    check_paths(s, &m);
    m
}

/// Replay the paths to a spread of reached places: each step lands within a skin and a millimetre.
fn check_paths(s: &Scene, m: &ReachMap) {
    let c = ctl();
    let reached: Vec<Vec3> = m.reached_places().collect();
    let start = m.start().unwrap();
    for to in reached.iter().step_by((reached.len() / 40).max(1)) {
        let path = m.path(*to).expect("a reached place has a path");
        assert!(path[0].distance(start) <= 1e-5);
        let end = *path.last().unwrap();
        assert!((end - *to).length() <= m.cell() * 1.5, "{end:?} {to:?}");
        for w in path.windows(2) {
            let mv = c.move_character(s, w[0], w[1] - w[0] + Vec3::NEG_Y * c.max_step);
            assert!(
                mv.feet.distance(w[1]) <= c.skin + 1e-3,
                "{:?} -> {:?} landed at {:?}",
                w[0],
                w[1],
                mv.feet
            );
            assert!(m.reachable(w[1]));
        }
    }
}

#[test]
fn an_open_floor_is_reached_everywhere_the_body_fits() {
    let s = room("");
    let m = map(&s, Vec3::ZERO);
    assert!(m.error().is_none());
    let floors = m.floors();
    assert_eq!(floors.len(), 1, "{floors:?}");
    // 12 m square less a body's radius at the rim: about 11.4 m square.
    assert!((floors[0].reachable - 144.0).abs() < 1.0, "{floors:?}");
    assert_eq!(floors[0].reachable, floors[0].standable);
    assert!(m.unreachable_places().is_empty());
    assert!(m.reachable(Vec3::new(5.0, 0.0, -5.0)));
    assert_eq!(m.blocker(Vec3::new(3.0, 0.0, 3.0)), None);
}

#[test]
fn a_platform_behind_a_high_riser_is_a_step_too_high() {
    // A platform 0.5 high (above max_step 0.35): standable, not reachable.
    let s = room("(id: 2, min: (2.0, 0.0, -2.0), max: (5.0, 0.5, 2.0))");
    let m = map(&s, Vec3::new(-3.0, 0.0, 0.0));
    let top = Vec3::new(3.5, 0.5, 0.0);
    assert!(m.can_stand(top) && !m.reachable(top));
    match m.blocker(top) {
        Some(Blocker3::StepTooHigh { at, height }) => {
            assert!((height - 0.5).abs() <= 0.1, "{height}");
            assert!((at.x - 2.0).abs() <= 2.0 * m.cell(), "{at:?}");
        }
        other => panic!("{other:?}"),
    }
    // A platform 0.3 high is climbed.
    let s = room("(id: 2, min: (2.0, 0.0, -2.0), max: (5.0, 0.3, 2.0))");
    let m = map(&s, Vec3::new(-3.0, 0.0, 0.0));
    assert!(m.reachable(Vec3::new(3.5, 0.3, 0.0)));
    assert!(m.path(Vec3::new(3.5, 0.3, 0.0)).is_some());
}

#[test]
fn a_ramp_too_steep_is_named_with_its_slope() {
    let c = ctl();
    for (deg, reachable) in [(30.0f32, true), (52.0, false)] {
        let t = deg.to_radians();
        let (run, rise) = (3.0 * t.cos(), 3.0 * t.sin());
        // The ramp from x = 1 up to x = 1 + run, then a landing 2 m deep at its top.
        let s = scene(&format!(
            r#"(version: 2, aabbs: [(id: 1, min: (-6.0, -1.0, -6.0), max: (6.0, 0.0, 6.0)),
                (id: 3, min: ({x1}, 0.0, -2.0), max: ({x2}, {rise}, 2.0))],
            triangles: [(id: 2, a: (1.0, 0.0, -2.0), b: (1.0, 0.0, 2.0), c: ({x1}, {rise}, 2.0)),
                        (id: 4, a: (1.0, 0.0, -2.0), b: ({x1}, {rise}, 2.0), c: ({x1}, {rise}, -2.0))])"#,
            x1 = 1.0 + run,
            x2 = 3.0 + run,
        ));
        let m = map(&s, Vec3::new(-3.0, 0.0, 0.0));
        let landing = Vec3::new(2.0 + run, rise, 0.0);
        assert!(m.can_stand(landing), "{deg}");
        assert_eq!(m.reachable(landing), reachable, "{deg}");
        if !reachable {
            match m.blocker(landing) {
                Some(Blocker3::SlopeTooSteep { degrees, at }) => {
                    assert!((degrees - deg).abs() <= 3.0, "{degrees}");
                    assert!(
                        at.x >= 1.0 - 2.0 * m.cell() && at.x <= 1.0 + run + 2.0 * m.cell(),
                        "{at:?}"
                    );
                }
                other => panic!("{deg}: {other:?}"),
            }
        }
        let _ = c;
    }
}

#[test]
fn a_door_narrower_than_the_body_is_too_narrow() {
    // A wall across x = 0 with a door from z = -0.25 to 0.25 (0.5 m < 0.6 m).
    for (half, passes) in [(0.25f32, false), (0.45, true)] {
        let s = room(&format!(
            "(id: 2, min: (-0.1, 0.0, -6.0), max: (0.1, 3.0, {lo})), (id: 3, min: (-0.1, 0.0, {half}), max: (0.1, 3.0, 6.0))",
            lo = -half
        ));
        let m = map(&s, Vec3::new(-3.0, 0.0, 0.0));
        let beyond = Vec3::new(3.0, 0.0, 0.0);
        assert!(m.can_stand(beyond));
        assert_eq!(m.reachable(beyond), passes, "door {}", 2.0 * half);
        if !passes {
            match m.blocker(beyond) {
                Some(Blocker3::TooNarrow { width, at }) => {
                    assert!((width - 2.0 * half).abs() <= 0.1, "{width}");
                    assert!(at.x.abs() <= 2.0 * m.cell() + 0.4, "{at:?}");
                }
                other => panic!("{other:?}"),
            }
        }
    }
}

#[test]
fn a_tunnel_lower_than_the_body_is_too_low() {
    // The room split by a wall at x = 0 with a tunnel 1.5 m high (the body is 1.8 m) through it.
    let s = room(
        "(id: 2, min: (-0.5, 0.0, -6.0), max: (0.5, 3.0, -1.0)), (id: 3, min: (-0.5, 0.0, 1.0), max: (0.5, 3.0, 6.0)),
         (id: 4, min: (-0.5, 1.5, -1.0), max: (0.5, 3.0, 1.0))",
    );
    let m = map(&s, Vec3::new(-3.0, 0.0, 0.0));
    let beyond = Vec3::new(3.0, 0.0, 0.0);
    assert!(m.can_stand(beyond) && !m.reachable(beyond));
    match m.blocker(beyond) {
        Some(Blocker3::TooLow { clearance, at }) => {
            assert!((clearance - 1.5).abs() <= 0.1, "{clearance}");
            assert!((at.x + 0.5).abs() <= 2.0 * m.cell() + 0.4, "{at:?}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_pit_with_nothing_beneath_is_a_gap_and_nowhere_to_stand() {
    // Two floors with a 1 m pit between them (x from -0.5 to 0.5) and nothing below.
    let s = scene(
        r#"(version: 2, aabbs: [(id: 1, min: (-6.0, -1.0, -6.0), max: (-0.5, 0.0, 6.0)), (id: 2, min: (0.5, -1.0, -6.0), max: (6.0, 0.0, 6.0))])"#,
    );
    let m = map(&s, Vec3::new(-3.0, 0.0, 0.0));
    assert!(!m.can_stand(Vec3::new(0.0, 0.0, 0.0)));
    let beyond = Vec3::new(3.0, 0.0, 0.0);
    assert!(m.can_stand(beyond) && !m.reachable(beyond));
    match m.blocker(beyond) {
        // In the pit (x from -0.5 to 0.5) or within two cells of it.
        Some(Blocker3::Gap { at }) => assert!(at.x.abs() <= 0.5 + 2.0 * m.cell(), "{at:?}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_drop_is_taken_one_way() {
    // A ledge 1.5 m high: walking off it reaches the floor below; from below, the ledge is a step too high.
    let s = room("(id: 2, min: (-6.0, 0.0, -6.0), max: (0.0, 1.5, 6.0))");
    let m = map(&s, Vec3::new(-3.0, 1.5, 0.0));
    assert!(m.reachable(Vec3::new(3.0, 0.0, 0.0)));
    let m = map(&s, Vec3::new(3.0, 0.0, 0.0));
    let top = Vec3::new(-3.0, 1.5, 0.0);
    assert!(m.can_stand(top) && !m.reachable(top));
    assert!(
        matches!(m.blocker(top), Some(Blocker3::StepTooHigh { .. })),
        "{:?}",
        m.blocker(top)
    );
}

#[test]
fn floors_over_one_another_are_mapped() {
    // A deck 3 m up over half the room, reached by a ramp of 20 degrees.
    let t = 20f32.to_radians();
    let run = 3.0 / t.tan();
    let s = scene(&format!(
        r#"(version: 2, aabbs: [(id: 1, min: (-12.0, -1.0, -6.0), max: (12.0, 0.0, 6.0)),
            (id: 2, min: (0.0, 2.8, -6.0), max: (12.0, 3.0, 6.0))],
        triangles: [(id: 3, a: ({x0}, 0.0, -5.0), b: ({x0}, 0.0, -3.0), c: (0.0, 3.0, -3.0)),
                    (id: 4, a: ({x0}, 0.0, -5.0), b: (0.0, 3.0, -3.0), c: (0.0, 3.0, -5.0))])"#,
        x0 = -run
    ));
    let m = map(&s, Vec3::new(-11.0, 0.0, 0.0));
    let floors = m.floors();
    assert_eq!(floors.len(), 2, "{floors:?}");
    assert!(m.reachable(Vec3::new(6.0, 0.0, 0.0)), "under the deck");
    assert!(m.reachable(Vec3::new(6.0, 3.0, 0.0)), "on the deck");
}

#[test]
fn bad_input_is_a_clear_error() {
    let s = room("");
    let c = ctl();
    for (settings, start) in [
        (
            ReachSettings {
                cell: 0.0,
                ..ReachSettings::default()
            },
            Vec3::ZERO,
        ),
        (
            ReachSettings {
                cell: f32::NAN,
                ..ReachSettings::default()
            },
            Vec3::ZERO,
        ),
        (ReachSettings::default(), Vec3::new(0.0, 50.0, 0.0)),
        (ReachSettings::default(), Vec3::splat(f32::NAN)),
    ] {
        let e = ReachMap::try_build(&s, &c, start, &settings).unwrap_err();
        assert!(!e.to_string().is_empty());
        let m = ReachMap::build(&s, &c, start, &settings);
        assert!(m.error().is_some() && !m.reachable(Vec3::ZERO) && m.path(Vec3::ZERO).is_none());
    }
    // A kilometre at the default cell: 16 million columns, over the limit, refused with the sizes.
    let big = scene(
        r#"(version: 2, aabbs: [(id: 1, min: (-500.0, -1.0, -500.0), max: (500.0, 0.0, 500.0))])"#,
    );
    match ReachMap::try_build(&big, &c, Vec3::ZERO, &ReachSettings::default()) {
        Err(ReachError::TooLarge { columns, .. }) => assert!(columns >= 16_000_000, "{columns}"),
        other => panic!("{:?}", other.map(|m| m.stats().columns)),
    }
    // A start inside a wall.
    let s = room("(id: 2, min: (-1.0, 0.0, -1.0), max: (1.0, 3.0, 1.0))");
    assert!(matches!(
        ReachMap::try_build(&s, &c, Vec3::ZERO, &ReachSettings::default()),
        Err(ReachError::Start(_))
    ));
}

/// The playground's stairs: five steps of `riser`, treads 0.4 m deep and 3 m wide climbing toward -z from
/// z = -4, then a 2 m landing; on a floor 12 m by 12 m. The landing's middle is returned.
fn stairs(riser: f32) -> (Scene, Vec3) {
    let mut boxes = String::new();
    for k in 1..=5 {
        let z0 = -4.0 - 0.4 * k as f32;
        boxes.push_str(&format!(
            "(id: {}, min: (-3.0, 0.0, {z0}), max: (0.0, {h}, {z1})),",
            10 + k,
            h = riser * k as f32,
            z1 = z0 + 0.4
        ));
    }
    boxes.push_str(&format!(
        "(id: 20, min: (-3.0, 0.0, -8.0), max: (0.0, {top}, -6.0))",
        top = riser * 5.0
    ));
    let s = scene(&format!(
        r#"(version: 2, aabbs: [(id: 1, min: (-6.0, -0.2, -10.0), max: (6.0, 0.0, 2.0)), {boxes}])"#
    ));
    (s, Vec3::new(-1.5, riser * 5.0, -7.0))
}

/// Stairs of 0.2 m and 0.3 m risers (under max_step 0.35 m, treads deeper than the radius) are climbed, every
/// tread reached, and nothing on an open floor around them is out of reach (the strip of floor behind the
/// landing, its places nudged away from the landing's back, was listed as unreachable; see the regression
/// below).
#[test]
fn regression_stairs_with_low_risers_are_climbed() {
    for riser in [0.2f32, 0.3] {
        let (s, landing) = stairs(riser);
        let m = map(&s, Vec3::new(-1.5, 0.0, 0.0));
        assert!(m.reachable(landing), "{riser}: {:?}", m.blocker(landing));
        for k in 1..=5 {
            let tread = Vec3::new(-1.5, riser * k as f32, -4.2 - 0.4 * (k - 1) as f32);
            assert!(
                m.reachable(tread),
                "{riser}: step {k} {:?}",
                m.blocker(tread)
            );
        }
        assert!(
            m.unreachable_places().is_empty(),
            "{riser}: {:?}",
            m.unreachable_places()
        );
    }
    // Risers of 0.42 m are a step too high from the first.
    let (s, landing) = stairs(0.42);
    let m = map(&s, Vec3::new(-1.5, 0.0, 0.0));
    assert!(m.can_stand(landing) && !m.reachable(landing));
    assert!(
        matches!(m.blocker(landing), Some(Blocker3::StepTooHigh { .. })),
        "{:?}",
        m.blocker(landing)
    );
}

/// A place nudged toward a wall can lie just behind the landing of the column next to it, off every move's way
/// out of that landing: no move landed on it, so it was listed as an unreachable place (strips along the
/// walls, with a made-up `Gap` blocker) while `reachable` said yes. A place within a cell and a step of a
/// landing is reached, as `reachable` says; and with places nudged up to a cell, the treads of a flight out of
/// reach (two columns apart) are still one region with one blocker, its first riser.
#[test]
fn regression_places_against_walls_are_reached_as_reachable_says() {
    let s = room("(id: 2, min: (-1.0, 0.0, -1.0), max: (1.0, 2.5, 1.0))");
    let m = map(&s, Vec3::new(-3.0, 0.0, 0.0));
    for (feet, reached) in m.places() {
        assert_eq!(reached, m.reachable(feet), "{feet:?}");
        assert_eq!(reached, feet.y < 1.0, "{feet:?}");
    }
    // The box's top (2.5 m up) is the one place out of reach.
    let places = m.unreachable_places();
    assert_eq!(places.len(), 1, "{places:?}");
    assert!(
        matches!(places[0].blocker, Blocker3::StepTooHigh { .. }),
        "{places:?}"
    );
    // The 0.42 m flight: one region, named by its first riser.
    let (s, landing) = stairs(0.42);
    let m = map(&s, Vec3::new(-1.5, 0.0, 0.0));
    for (feet, reached) in m.places() {
        assert_eq!(reached, m.reachable(feet), "{feet:?}");
    }
    let places = m.unreachable_places();
    assert_eq!(places.len(), 1, "{places:?}");
    match m.blocker(landing) {
        Some(Blocker3::StepTooHigh { height, .. }) => {
            assert!((height - 0.42).abs() < 0.05, "{height}")
        }
        other => panic!("{other:?}"),
    }
}

/// The roof of a low tunnel (its top 1.6 m up, within a body's height of the floor) was said to be kept out by
/// a ceiling too low: the tunnel's own floor, under the roof, was taken for the region's border. A passage too
/// low or too narrow can only keep out a region within a step of its floor; the roof is a step too high.
#[test]
fn regression_a_low_tunnel_roof_is_a_step_too_high_not_too_low() {
    // A tunnel 2 m long along x, open at both ends in the middle of the room: sides 0.2 m thick, 1.2 m apart.
    let s = room(
        "(id: 2, min: (-1.0, 0.0, -0.8), max: (1.0, 1.5, -0.6)), (id: 3, min: (-1.0, 0.0, 0.6), max: (1.0, 1.5, 0.8)),
         (id: 4, min: (-1.0, 1.5, -0.8), max: (1.0, 1.6, 0.8))",
    );
    let m = map(&s, Vec3::new(-3.0, 0.0, 0.0));
    assert!(m.reachable(Vec3::new(3.0, 0.0, 0.0)), "around the tunnel");
    let roof = Vec3::new(0.0, 1.6, 0.0);
    assert!(m.can_stand(roof) && !m.reachable(roof));
    match m.blocker(roof) {
        Some(Blocker3::StepTooHigh { height, .. }) => {
            assert!((height - 1.6).abs() <= 0.1, "{height}");
        }
        other => panic!("{other:?}"),
    }
}

/// Inside a closed mesh (the playground's ramps are wedges: a slope, two sides, a back and a bottom, wound
/// outward) the floor beneath the wedge (and the wedge's own bottom, seen from inside) is taken for a place to
/// stand where the slope is high enough above it for the body: unreachable places inside the solid, each with
/// a blocker (`collidoscope reach levels/playground.ron` lists two under its ramps, "ceiling too low").
/// Meshes are surfaces to every query, so telling the inside of a closed one needs the mesh's closedness
/// (every edge shared by two triangles) and a point-in-solid test per surface under a column: not a small
/// change, left for the runtime's owner.
#[test]
#[ignore = "known: places inside closed meshes (see the comment)"]
fn regression_nowhere_to_stand_inside_a_closed_mesh() {
    let s = scene(
        r#"(version: 2, aabbs: [(id: 1, min: (-6.0, -1.0, -10.0), max: (10.0, 0.0, 6.0))],
        meshes: [(id: 2, vertices: [(3.0, 0.0, -4.0), (6.0, 0.0, -4.0), (3.0, 0.0, -8.0), (6.0, 0.0, -8.0),
            (3.0, 2.309, -8.0), (6.0, 2.309, -8.0)],
            indices: [(0, 1, 5), (0, 5, 4), (2, 4, 5), (2, 5, 3), (0, 4, 2), (1, 3, 5), (0, 2, 3), (0, 3, 1)])])"#,
    );
    let m = map(&s, Vec3::new(0.0, 0.0, 0.0));
    assert!(
        !m.can_stand(Vec3::new(4.5, 0.0, -7.6)),
        "under the slope, inside the wedge"
    );
    assert!(
        m.places()
            .all(|(f, _)| !(f.x > 3.0 && f.x < 6.0 && f.z < -4.0 && f.y < 0.1)),
        "a place inside the wedge"
    );
    // The slope (30 degrees) is walked up.
    assert!(m.reachable(Vec3::new(4.5, 1.155, -6.0)));
    assert!(
        m.unreachable_places().is_empty(),
        "{:?}",
        m.unreachable_places()
    );
}

proptest::proptest! {
    #![proptest_config(crate::guarantees::config(40))]

    /// Maps of random levels (every kind of object on a 16 m floor box): the start's place is reached, every
    /// reached place can be stood on, and the paths to a spread of them replay with `move_character`, each call
    /// landing on the next point; a place out of reach that can be stood on has a blocker.
    #[test]
    fn random_levels_map_and_their_paths_replay(
        objects in proptest::collection::vec(crate::guarantees::object(), 0..8),
        start in (-6.0f32..6.0, -6.0f32..6.0),
    ) {
        use collidoscope::level::ObjectId;
        use collidoscope::scene::Static;
        use collidoscope::shape::Aabb;
        let floor = Static::Aabb(Aabb::new(Vec3::new(-8.0, -1.0, -8.0), Vec3::new(8.0, 0.0, 8.0)));
        let s = Scene::from_objects(
            std::iter::once((ObjectId(1), floor))
                .chain(objects.into_iter().enumerate().map(|(i, o)| (ObjectId(i as u32 + 2), o))),
        );
        let feet = Vec3::new(start.0, 0.0, start.1);
        let Ok(m) = ReachMap::try_build(&s, &ctl(), feet, &ReachSettings::default()) else {
            // A start with nowhere to stand (inside an object) is an error, never a panic.
            return Ok(());
        };
        let first = m.start().unwrap();
        proptest::prop_assert!(m.reachable(first) && m.can_stand(first));
        for p in m.reached_places().step_by(7) {
            proptest::prop_assert!(m.can_stand(p) && m.reachable(p), "{:?}", p);
        }
        for u in m.unreachable_places().iter().take(5) {
            proptest::prop_assert!(m.blocker(u.feet).is_some() || !m.can_stand(u.feet), "{:?}", u);
        }
        check_paths(&s, &m);
    }
}
