//! Hand-worked moves, one guarantee at a time: floors, walls, corners, steps, slopes, snapping, push-out,
//! ceilings, narrow doors, bad input.

use collidoscope::character::{Body, CharacterController, Limit, SweepPhase};
use collidoscope::glam::Vec3;
use collidoscope::level::ObjectId;
use collidoscope::scene::Scene;
use collidoscope::shape::Capsule;

use crate::common::{scene, walk};

const FLOOR: &str = r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)])"#;

fn ctl() -> CharacterController {
    CharacterController::default()
}

/// A floor and one box step of `riser` from x = 1 to x = 4.
fn step_level(riser: f32) -> String {
    format!(
        r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
        aabbs: [(id: 2, min: (1.0, 0.0, -2.0), max: (4.0, {riser}, 2.0))])"#
    )
}

#[test]
fn a_flat_floor_keeps_the_feet_height_and_the_horizontal_motion() {
    let s = scene(FLOOR);
    let c = ctl();
    let motion = Vec3::new(0.07, -0.02, 0.05);
    let moves = walk(&c, &s, Vec3::new(0.0, c.skin, 0.0), motion, 60);
    let mut prev = Vec3::new(0.0, c.skin, 0.0);
    for m in &moves {
        assert!(m.grounded, "{m:?}");
        assert!((m.feet.y - c.skin).abs() < 1e-4, "{:?}", m.feet);
        let d = m.feet - prev;
        assert!(
            (d.x - motion.x).abs() < 1e-4 && (d.z - motion.z).abs() < 1e-4,
            "{d:?}"
        );
        assert!(m.limit.is_none(), "{:?}", m.limit);
        prev = m.feet;
    }
}

#[test]
fn steps_up_to_max_step_are_climbed_in_one_move_and_a_higher_riser_blocks() {
    let c = ctl();
    for riser in [0.05f32, 0.1, 0.2, 0.3, 0.35] {
        let s = scene(&step_level(riser));
        let moves = walk(
            &c,
            &s,
            Vec3::new(0.0, c.skin, 0.0),
            Vec3::new(0.1, -0.01, 0.0),
            20,
        );
        let stepped: Vec<_> = moves.iter().filter(|m| m.stepped_up > 0.0).collect();
        assert_eq!(
            stepped.len(),
            1,
            "riser {riser}: {:?}",
            moves.iter().map(|m| m.feet).collect::<Vec<_>>()
        );
        let m = stepped[0];
        assert!(
            (m.stepped_up - riser).abs() < 1e-3,
            "riser {riser}: stepped {}",
            m.stepped_up
        );
        let gap = m.feet.y - riser;
        assert!(
            gap >= c.skin * 0.5 && gap <= 2.0 * c.skin,
            "riser {riser}: gap {gap}"
        );
        assert!(m.feet.x >= 1.0, "the feet end on the tread: {:?}", m.feet);
        assert!(moves.iter().all(|m| m.grounded), "riser {riser}");
    }
    let s = scene(&step_level(0.40));
    let moves = walk(
        &c,
        &s,
        Vec3::new(0.0, c.skin, 0.0),
        Vec3::new(0.1, -0.01, 0.0),
        20,
    );
    assert!(moves.iter().all(|m| m.stepped_up == 0.0));
    let last = moves.last().unwrap();
    assert!(last.feet.x < 1.0 && last.feet.y < 0.05, "{:?}", last.feet);
    match &last.limit {
        Some(Limit::StepTooHigh {
            height: Some(h), ..
        }) => assert!((h - 0.40).abs() < 1e-3, "{h}"),
        other => panic!("{other:?}"),
    }
    let words = last
        .limit
        .as_ref()
        .unwrap()
        .describe(c.max_step, c.max_slope_deg, |id| format!("box {id}"));
    assert_eq!(words, "riser 0.40 m is above max_step 0.35 m: box #2");
}

#[test]
fn a_wall_keeps_the_motion_along_it() {
    // A wall along x at z = -1 (box), walking diagonally into it with a little gravity.
    let s = scene(
        r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
        aabbs: [(id: 2, min: (-50.0, 0.0, -2.0), max: (50.0, 3.0, -1.0))])"#,
    );
    let c = ctl();
    let motion = Vec3::new(0.1, -0.02, -0.1);
    let mut feet = Vec3::new(0.0, c.skin, -1.0 + c.radius + c.skin);
    for _ in 0..40 {
        let m = c.move_character(&s, feet, motion);
        let d = m.feet - feet;
        assert!((d.x - 0.1).abs() <= 2.0 * c.skin, "{d:?}");
        assert!(m.grounded);
        assert!(m.feet.z - (-1.0) >= c.radius, "{:?}", m.feet);
        feet = m.feet;
    }
}

#[test]
fn a_corner_is_where_the_move_ends() {
    // Two walls meeting at a right angle (x = 2 and z = 2), and a V of 30 degrees.
    let s = scene(
        r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
        aabbs: [(id: 2, min: (2.0, 0.0, -5.0), max: (3.0, 3.0, 3.0)), (id: 3, min: (-5.0, 0.0, 2.0), max: (3.0, 3.0, 3.0))])"#,
    );
    let c = ctl();
    let moves = walk(
        &c,
        &s,
        Vec3::new(0.0, c.skin, 0.0),
        Vec3::new(0.3, -0.05, 0.2),
        30,
    );
    let end = moves.last().unwrap().feet;
    let reach = c.radius + 2.0 * c.skin + 1e-3;
    assert!(2.0 - end.x <= reach && 2.0 - end.z <= reach, "{end:?}");
    assert!(
        2.0 - end.x >= c.radius && 2.0 - end.z >= c.radius,
        "{end:?}"
    );
}

#[test]
fn a_v_corner_of_thirty_degrees_holds_the_body_without_jitter() {
    // Walls from the origin along +x and at 30 degrees from it; walking into the V along its bisector.
    let a = 15f32.to_radians();
    let s = scene(&format!(
        r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
        walls: [(id: 2, a: (0.0, 0.0), b: (10.0, 0.0), radius: 0.05, height: 2.5),
                (id: 3, a: (0.0, 0.0), b: ({}, {}), radius: 0.05, height: 2.5)])"#,
        10.0 * (2.0 * a).cos(),
        10.0 * (2.0 * a).sin()
    ));
    let c = ctl();
    let dir = Vec3::new(-a.cos(), 0.0, -a.sin());
    let start = Vec3::new(5.0 * a.cos(), c.skin, 5.0 * a.sin());
    let moves = walk(&c, &s, start, dir * 0.2 + Vec3::new(0.0, -0.02, 0.0), 60);
    let last = moves[moves.len() - 1].feet;
    let before = moves[moves.len() - 2].feet;
    assert!((last - before).length() < 1e-3, "{before:?} -> {last:?}");
    let body = c.capsule(last);
    assert!(
        s.overlap_capsule(&body).iter().all(|id| id.0 == 1),
        "{:?}",
        s.overlap_capsule(&body)
    );
}

#[test]
fn a_walkable_slope_is_walked_up_and_a_steep_one_is_a_wall() {
    let c = ctl();
    for (deg, walkable) in [(30.0f32, true), (44.0, true), (52.0, false)] {
        // A ramp rising along +x from x = 1, 20 m long, as a rotated box whose top face is the ramp.
        let t = deg.to_radians();
        let s = scene(&format!(
            r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
            triangles: [(id: 2, a: (1.0, 0.0, -3.0), b: (1.0, 0.0, 3.0), c: ({x}, {y}, 3.0)),
                        (id: 3, a: (1.0, 0.0, -3.0), b: ({x}, {y}, 3.0), c: ({x}, {y}, -3.0))])"#,
            x = 1.0 + 20.0 * t.cos(),
            y = 20.0 * t.sin()
        ));
        let moves = walk(
            &c,
            &s,
            Vec3::new(0.0, c.skin, 0.0),
            Vec3::new(0.1, -0.02, 0.0),
            100,
        );
        let top = moves.iter().map(|m| m.feet.y).fold(0.0f32, f32::max);
        if walkable {
            assert!(top >= 1.0, "{deg}: rose {top}");
            let last = moves.last().unwrap();
            assert!(last.grounded, "{deg}");
            let g = last.ground.unwrap();
            assert!(g.object.0 == 2 || g.object.0 == 3);
            assert!((g.normal.y - t.cos()).abs() < 1e-4, "{deg}: {:?}", g.normal);
        } else {
            assert!(top <= c.max_step + c.skin, "{deg}: rose {top}");
            for m in &moves {
                if let Some(g) = m.ground {
                    assert_eq!(g.object.0, 1, "{deg}: the steep slope is never the ground");
                }
            }
            match &moves.last().unwrap().limit {
                Some(Limit::SlopeTooSteep { degrees, .. }) => {
                    assert!((degrees - deg).abs() < 3.0, "{degrees}")
                }
                other => panic!("{deg}: {other:?}"),
            }
        }
    }
}

/// Stairs going down along +x: `n` steps of `riser` and `tread`, the top at `n * riser`.
fn stairs_down(n: usize, riser: f32, tread: f32) -> String {
    let mut boxes = String::new();
    for k in 0..n {
        let top = (n - k) as f32 * riser;
        let x0 = k as f32 * tread;
        boxes += &format!(
            "(id: {}, min: ({x0}, 0.0, -2.0), max: ({}, {top}, 2.0)),",
            k + 2,
            x0 + tread
        );
    }
    format!(r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)], aabbs: [{boxes}])"#)
}

#[test]
fn going_down_stairs_every_move_is_grounded() {
    let c = ctl();
    let s = scene(&stairs_down(6, 0.2, 0.35));
    let start = Vec3::new(0.1, 6.0 * 0.2 + c.skin, 0.0);
    for speed in [0.03f32, 0.08, 0.15] {
        let moves = walk(
            &c,
            &s,
            start,
            Vec3::new(speed, -0.01, 0.0),
            (3.0 / speed) as usize,
        );
        for (i, m) in moves.iter().enumerate() {
            assert!(m.grounded, "speed {speed}, move {i}: {:?}", m.feet);
            let g = m.ground.unwrap();
            assert!(
                g.normal.y >= c.max_slope_deg.to_radians().cos(),
                "{:?}",
                g.normal
            );
        }
        assert!(moves.last().unwrap().feet.y < 0.05, "reached the bottom");
    }
}

#[test]
fn the_snap_pulls_down_within_its_distance_and_not_beyond() {
    let c = ctl();
    for (drop, snaps) in [(0.3f32, true), (0.6, false)] {
        let s = scene(&format!(
            r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
            aabbs: [(id: 2, min: (-5.0, 0.0, -2.0), max: (0.0, {drop}, 2.0))])"#
        ));
        // From the ledge's edge, one move past it.
        let m = c.move_character(
            &s,
            Vec3::new(-0.1, drop + c.skin, 0.0),
            Vec3::new(0.5, -0.01, 0.0),
        );
        assert_eq!(m.grounded, snaps, "{drop}: {m:?}");
        if snaps {
            assert!(
                (m.snapped_down - drop).abs() < 2.0 * c.skin,
                "{}",
                m.snapped_down
            );
            assert!(
                m.feet.y <= 2.0 * c.skin && m.feet.y >= 0.5 * c.skin,
                "{:?}",
                m.feet
            );
        } else {
            assert_eq!(m.snapped_down, 0.0);
        }
        // An upward motion never snaps.
        let m = c.move_character(
            &s,
            Vec3::new(-0.1, drop + c.skin, 0.0),
            Vec3::new(0.5, 0.01, 0.0),
        );
        assert_eq!(m.snapped_down, 0.0);
    }
}

#[test]
fn a_start_inside_a_box_is_pushed_out_the_shortest_way_and_says_so() {
    let s = scene(
        r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
        aabbs: [(id: 2, min: (1.0, 0.0, -2.0), max: (4.0, 3.0, 2.0))])"#,
    );
    let c = ctl();
    // Overlapping the face x = 1 by 0.1: out along -x.
    let m = c.move_character(&s, Vec3::new(0.8, c.skin, 0.0), Vec3::ZERO);
    let p = m.trace.push_out.as_ref().expect("a push-out");
    assert!(p.resolved && p.objects.iter().any(|o| o.0 == 2));
    assert!(
        m.feet.x <= 1.0 - c.radius - c.skin * 0.5 && m.feet.x > 0.6,
        "{:?}",
        m.feet
    );
    assert!(
        (m.feet.z).abs() < 1e-5 && (m.feet.y - c.skin).abs() < 1e-3,
        "{:?}",
        m.feet
    );
    assert!(s.overlap_capsule(&c.capsule(m.feet)).is_empty());
    // A gap narrower than the body: it cannot be pushed out, and nothing moves.
    let s = scene(
        r#"(version: 2, aabbs: [(id: 2, min: (-3.0, 0.0, -2.0), max: (-0.2, 3.0, 2.0)), (id: 3, min: (0.2, 0.0, -2.0), max: (3.0, 3.0, 2.0))],
        planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)])"#,
    );
    let m = c.move_character(&s, Vec3::new(0.0, c.skin, 0.0), Vec3::new(0.1, 0.0, 0.0));
    assert_eq!(m.feet, Vec3::new(0.0, c.skin, 0.0));
    assert!(
        matches!(m.limit, Some(Limit::Inside { .. })),
        "{:?}",
        m.limit
    );
}

#[test]
fn bad_input_moves_nothing_and_says_why() {
    let s = scene(FLOOR);
    let c = ctl();
    let feet = Vec3::new(0.0, c.skin, 0.0);
    for (ctl, motion) in [
        (c, Vec3::new(f32::NAN, 0.0, 0.0)),
        (c, Vec3::new(f32::INFINITY, 0.0, 0.0)),
        (CharacterController { height: 0.5, ..c }, Vec3::X),
        (CharacterController { radius: -1.0, ..c }, Vec3::X),
        (CharacterController { skin: 0.0, ..c }, Vec3::X),
        (
            CharacterController {
                max_slope_deg: 90.0,
                ..c
            },
            Vec3::X,
        ),
        (
            CharacterController {
                max_iterations: 0,
                ..c
            },
            Vec3::X,
        ),
        (
            CharacterController {
                max_step: f32::NAN,
                ..c
            },
            Vec3::X,
        ),
    ] {
        let m = ctl.move_character(&s, feet, motion);
        assert_eq!(m.feet, feet);
        assert!(
            matches!(m.limit, Some(Limit::Invalid { .. })),
            "{:?}",
            m.limit
        );
    }
    let m = c.move_character(&s, Vec3::new(f32::NAN, 0.0, 0.0), Vec3::X);
    assert!(matches!(m.limit, Some(Limit::Invalid { .. })));
    let m = c.move_character(&s, Vec3::splat(f32::MAX), Vec3::splat(f32::MAX));
    assert!(matches!(m.limit, Some(Limit::Invalid { .. })));
}

#[test]
fn a_kilometre_costs_at_most_max_iterations_slides_and_never_ends_inside() {
    let s = scene(
        r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
        aabbs: [(id: 2, min: (5.0, 0.0, -50.0), max: (6.0, 3.0, 50.0)), (id: 3, min: (-50.0, 0.0, 5.0), max: (50.0, 3.0, 6.0)),
                (id: 4, min: (-6.0, 0.0, -50.0), max: (-5.0, 3.0, 50.0)), (id: 5, min: (-50.0, 0.0, -6.0), max: (50.0, 3.0, -5.0))])"#,
    );
    let c = ctl();
    for dir in [
        Vec3::new(1.0, 0.0, 0.3),
        Vec3::new(-0.2, -0.1, 1.0),
        Vec3::new(1.0, 0.5, 1.0),
    ] {
        let m = c.move_character(&s, Vec3::new(0.0, c.skin, 0.0), dir.normalize() * 1000.0);
        let slides = m
            .trace
            .sweeps
            .iter()
            .filter(|r| r.phase == SweepPhase::Slide)
            .count();
        assert!(slides <= c.max_iterations as usize, "{slides}");
        assert!(m.trace.sweeps.len() <= 4 * c.max_iterations as usize + 3);
        let mut grown = c.capsule(m.feet);
        grown.radius += c.skin * 0.5;
        assert!(s.overlap_capsule(&grown).is_empty(), "{:?}", m.feet);
        assert!(m.feet.x.abs() < 5.0 && m.feet.z.abs() < 5.0, "{:?}", m.feet);
    }
}

#[test]
fn a_jump_into_a_ceiling_is_cut_and_says_so() {
    let s = scene(
        r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
        aabbs: [(id: 2, min: (-5.0, 2.5, -5.0), max: (5.0, 3.0, 5.0))])"#,
    );
    let c = ctl();
    let m = c.move_character(&s, Vec3::new(0.0, c.skin, 0.0), Vec3::new(0.0, 2.0, 0.0));
    assert!(
        m.feet.y + c.height <= 2.5 - c.skin * 0.5 && m.feet.y + c.height > 2.4,
        "{:?}",
        m.feet
    );
    assert!(
        matches!(m.limit, Some(Limit::Ceiling { .. })),
        "{:?}",
        m.limit
    );
    assert!(!m.grounded);
}

#[test]
fn a_door_narrower_than_the_body_is_not_passed_and_a_wide_one_is() {
    let c = ctl();
    for (width, passes) in [(0.5f32, false), (0.7, true)] {
        let h = width / 2.0;
        let s = scene(&format!(
            r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
            aabbs: [(id: 2, min: (2.0, 0.0, -5.0), max: (2.2, 3.0, {lo})), (id: 3, min: (2.0, 0.0, {h}), max: (2.2, 3.0, 5.0))])"#,
            lo = -h
        ));
        let moves = walk(
            &c,
            &s,
            Vec3::new(0.0, c.skin, 0.0),
            Vec3::new(0.1, -0.01, 0.0),
            40,
        );
        let end = moves.last().unwrap().feet;
        assert_eq!(end.x > 2.2, passes, "width {width}: {end:?}");
        if !passes {
            // Wedged between the jambs: they are named, not the floor under the body.
            let last = moves.last().unwrap();
            match &last.limit {
                Some(Limit::Corner { objects, .. }) => {
                    assert_eq!(objects, &[ObjectId(2), ObjectId(3)], "{last:?}")
                }
                other => panic!("width {width}: {other:?}"),
            }
        }
    }
}

#[test]
fn a_tunnel_lower_than_the_body_blocks_it() {
    let c = ctl();
    for (clearance, passes) in [(1.6f32, false), (2.0, true)] {
        let s = scene(&format!(
            r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
            aabbs: [(id: 2, min: (2.0, {clearance}, -5.0), max: (6.0, 4.0, 5.0))])"#
        ));
        let moves = walk(
            &c,
            &s,
            Vec3::new(0.0, c.skin, 0.0),
            Vec3::new(0.1, -0.01, 0.0),
            40,
        );
        let end = moves.last().unwrap().feet;
        assert_eq!(end.x > 2.0, passes, "clearance {clearance}: {end:?}");
        assert!(s.overlap_capsule(&c.capsule(end)).iter().all(|o| o.0 == 1));
    }
}

#[test]
fn moves_are_deterministic_to_the_bit() {
    let s = scene(&stairs_down(4, 0.25, 0.3));
    let c = ctl();
    let a = walk(
        &c,
        &s,
        Vec3::new(0.1, 1.0 + c.skin, 0.0),
        Vec3::new(0.07, -0.03, 0.01),
        40,
    );
    let b = walk(
        &c,
        &s,
        Vec3::new(0.1, 1.0 + c.skin, 0.0),
        Vec3::new(0.07, -0.03, 0.01),
        40,
    );
    assert_eq!(a, b);
}

#[test]
fn the_body_is_the_upright_capsule_at_the_feet() {
    let c = CharacterController {
        radius: 0.4,
        height: 2.0,
        ..ctl()
    };
    assert_eq!(
        c.capsule(Vec3::new(1.0, 2.0, 3.0)),
        Capsule::new(Vec3::new(1.0, 2.4, 3.0), Vec3::new(1.0, 3.6, 3.0), 0.4)
    );
}

#[test]
fn walking_off_a_ledge_falls_what_is_left_of_the_motion() {
    // A ledge 2 m high ending at x = 0; one move of 0.6 m forward and 2.35 m down lands on the floor below
    // (the body, its radius and skin clear of the edge, is off it).
    let s = scene(
        r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
        aabbs: [(id: 2, min: (-5.0, 0.0, -2.0), max: (0.0, 2.0, 2.0))])"#,
    );
    let c = ctl();
    let on_ledge = Vec3::new(-0.1, 2.0 + c.skin, 0.0);
    let m = c.move_character(&s, on_ledge, Vec3::new(0.6, -2.35, 0.0));
    assert!(m.grounded, "{m:?}");
    assert_eq!(m.ground.unwrap().object.0, 1, "{:?}", m.trace.sweeps);
    let want = Vec3::new(0.5, c.skin, 0.0);
    assert!((m.feet - want).length() < c.skin + 1e-3, "{:?}", m.feet);
    // Short of that, the body rests on the edge, supported by the ledge's top face.
    let m = c.move_character(&s, on_ledge, Vec3::new(0.3, -2.35, 0.0));
    let g = m.ground.unwrap();
    assert!(
        m.grounded && g.object.0 == 2 && g.normal == Vec3::Y,
        "{m:?}"
    );
    // The same motion on the ledge itself is taken by the ledge: the feet keep their height.
    let m = c.move_character(
        &s,
        Vec3::new(-2.0, 2.0 + c.skin, 0.0),
        Vec3::new(0.4, -2.35, 0.0),
    );
    assert!(
        m.grounded && (m.feet.y - 2.0 - c.skin).abs() < 1e-5,
        "{:?}",
        m.feet
    );
}

/// A ledge (a box from x = 0 to 2) whose top is `top` high, over a pit whose floor is 3 m down.
fn ledge_over_pit(top: f32) -> Scene {
    scene(&format!(
        r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: -3.0)],
        aabbs: [(id: 2, min: (0.0, -3.0, -2.0), max: (2.0, {top:?}, 2.0))])"#
    ))
}

/// `body` stepped `frames` times with nothing wished: never inside anything, it ends grounded on the pit's
/// floor 3 m down ([`ledge_over_pit`]).
fn falls_to_the_pit_floor(c: &CharacterController, s: &Scene, mut body: Body, frames: usize) {
    let still = collidoscope::character::BodyInput::default();
    for _ in 0..frames {
        body.step(c, s, &still, Vec3::new(0.0, -9.81, 0.0), 1.0 / 60.0);
        assert!(
            s.overlap_capsule(&c.capsule(body.feet)).is_empty(),
            "{body:?}"
        );
    }
    assert!(
        body.grounded && (body.feet.y + 3.0).abs() < 2.0 * c.skin,
        "{body:?}"
    );
}

/// A wide body beside a ledge's top edge, the edge on its rounded side 7 cm under the centre of its bottom
/// sphere (half a metre above its feet, far past its 0.2 m step, 83° off up): the ledge's top is the most level
/// face through the contact, but the body hangs beside it, not on it. It is not standing there and falls off
/// the edge (found by the navigation soak: a body dropping off a sector's roof hung so in a corner for good).
#[test]
fn a_body_hanging_beside_an_edge_higher_than_a_step_is_not_standing_and_falls() {
    let s = ledge_over_pit(1.0);
    let c = CharacterController {
        radius: 0.6,
        height: 1.4,
        max_step: 0.2,
        ..ctl()
    };
    let centre = 1.07;
    let x = -((c.radius + 0.75 * c.skin).powi(2) - (centre - 1.0f32).powi(2)).sqrt();
    let feet = Vec3::new(x, centre - c.radius, 0.0);
    let m = c.move_character(&s, feet, Vec3::new(0.0, -0.05, 0.0));
    assert!(!m.grounded, "{m:?}");
    assert!(m.feet.y < feet.y - 0.04, "{:?}", m.feet);
    // Stepped on with nothing wished, it falls to the floor 3 m below, never inside.
    let body = Body::new(feet);
    falls_to_the_pit_floor(&c, &s, body, 120);
    // A body standing on the floor with the same kind of edge on its rounded side (a box top 0.4 m high, above
    // the step) stands on the floor, pressed into the box or not.
    let floor = scene(
        r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
        aabbs: [(id: 2, min: (0.0, 0.0, -2.0), max: (2.0, 0.4, 2.0))])"#,
    );
    let centre = c.skin + c.radius;
    // Nearer the edge than the skin keeps (as a lift or a push may leave it): the edge is met first going down.
    let x = -((c.radius + 0.55 * c.skin).powi(2) - (centre - 0.4f32).powi(2)).sqrt();
    for motion in [Vec3::new(0.0, -0.01, 0.0), Vec3::new(0.05, -0.01, 0.02)] {
        let m = c.move_character(&floor, Vec3::new(x, c.skin, 0.0), motion);
        assert!(m.grounded && (m.feet.y - c.skin).abs() < 1e-4, "{m:?}");
    }
    // A body over a nosing, its axis 0.45 m past it (past the walkable cone), the tread below within its step:
    // it stands on the nosing (going down stairs every move is grounded).
    let stair = scene(
        r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
        aabbs: [(id: 2, min: (0.0, 0.0, -2.0), max: (2.0, 0.3, 2.0))])"#,
    );
    let centre = 0.3 + ((c.radius + 0.75 * c.skin).powi(2) - 0.45f32.powi(2)).sqrt();
    let over = Vec3::new(-0.45, centre - c.radius, 0.0);
    let low_step = CharacterController {
        max_step: 0.35,
        ..c
    };
    let m = low_step.move_character(&stair, over, Vec3::new(0.0, -0.01, 0.0));
    assert!(m.grounded && (m.feet.y - over.y).abs() < 1e-4, "{m:?}");
    // A body standing on the edge (its axis 5 cm past it) still stands.
    let m = c.move_character(
        &s,
        Vec3::new(-0.05, 1.0 + c.skin, 0.0),
        Vec3::new(0.0, -0.05, 0.0),
    );
    assert!(m.grounded && m.ground.unwrap().normal == Vec3::Y, "{m:?}");
}

/// A wide body (0.5 m step) beside a ledge's top edge 0.44 m above its feet, within its step, the edge on its
/// rounded side 75° from up (outside the walkable cone and past 60°: at its side, not under it): it rests on a
/// sliver of itself and is not standing there; it falls off the edge to the floor 3 m below (found by the
/// navigation soak: a 1.26 m body hung for good on a crate's corner in the gallery). At 50° from up, with the
/// same nothing under it, the edge still holds it (the rim class: a body walking off a ledge stands on its rim
/// until it is past 60°).
#[test]
fn a_body_beside_an_edge_at_its_side_within_a_step_is_not_standing_and_falls() {
    let s = ledge_over_pit(1.0);
    let c = CharacterController {
        radius: 0.6,
        height: 1.4,
        max_step: 0.5,
        ..ctl()
    };
    let at = |deg: f32| {
        let d = c.radius + 0.75 * c.skin;
        let (sin, cos) = deg.to_radians().sin_cos();
        Vec3::new(-sin * d, 1.0 + cos * d - c.radius, 0.0)
    };
    let side = at(75.0);
    assert!(1.0 - side.y < c.max_step, "within the step: {side:?}");
    let m = c.move_character(&s, side, Vec3::new(0.0, -0.05, 0.0));
    assert!(!m.grounded, "{m:?}");
    let mut body = Body::new(side);
    body.grounded = true;
    falls_to_the_pit_floor(&c, &s, body, 150);
    let under = at(50.0);
    let m = c.move_character(&s, under, Vec3::new(0.0, -0.01, 0.0));
    assert!(m.grounded && (m.feet.y - under.y).abs() < 1e-4, "{m:?}");
}

/// A narrow body (0.27 m step) held by its rounded bottom on a tread's edge 4 cm above its feet, over a slot
/// with nothing under it within reach (the edge 56° from up, under it): walking toward the tread it steps up
/// onto it, the climb its feet's rise (found by the navigation soak on the greybox sample: such a body hung on
/// the rim of a floor across the 0.2 m slot between two sectors for good, the riser measured from the rim it
/// stood on reading as no climb). A body there in the air (its moves without a snap) climbs nothing.
#[test]
fn a_body_held_on_a_treads_edge_over_a_slot_steps_up_onto_the_tread() {
    let s = ledge_over_pit(0.3);
    let c = CharacterController {
        radius: 0.1,
        height: 1.2,
        max_step: 0.27,
        ..ctl()
    };
    let feet = 0.26f32;
    let centre = feet + c.radius;
    let x = -((c.radius + 0.75 * c.skin).powi(2) - (centre - 0.3f32).powi(2)).sqrt();
    let start = Vec3::new(x, feet, 0.0);
    let hold = c.move_character(&s, start, Vec3::new(0.0, -0.001, 0.0));
    assert!(
        hold.grounded && (hold.feet.y - feet).abs() < 1e-3,
        "{hold:?}"
    );
    let m = c.move_character(&s, start, Vec3::new(4.0 / 60.0, -0.001, 0.0));
    assert!(m.grounded, "{m:?}");
    assert!((m.feet.y - (0.3 + c.skin)).abs() < 1e-3, "{:?}", m.feet);
    assert!(m.feet.x > start.x, "{:?}", m.feet);
    let air = CharacterController {
        snap_distance: 0.0,
        ..c
    };
    let m = air.move_character(&s, start, Vec3::new(4.0 / 60.0, -0.001, 0.0));
    assert!(m.feet.y <= start.y + 1e-4, "{m:?}");
}

/// A body whose rounded bottom rests on a tread's edge over a pit, 50° from up (outside the cone, not at its
/// side), the edge 0.102 m above its feet: with a 0.12 m step the edge holds it and a walk toward the tread
/// climbs onto it; with a 0.1 m step (the riser from its feet's floor, a skin under them, is more than the
/// step) the edge holds nothing and the body falls. Held and unable to climb, it would stand there for good
/// (found by the navigation soak: a 0.43 m body with a 0.1 m step landing a jump on the greybox's roofs).
#[test]
fn an_edge_holds_a_body_up_only_where_it_could_climb_from_there() {
    let s = ledge_over_pit(1.0);
    let climbs = CharacterController {
        radius: 0.3,
        height: 1.2,
        max_step: 0.12,
        ..ctl()
    };
    let d = climbs.radius + 0.75 * climbs.skin;
    let (sin, cos) = 50f32.to_radians().sin_cos();
    let start = Vec3::new(-sin * d, 1.0 + cos * d - climbs.radius, 0.0);
    assert!((1.0 - start.y - 0.102).abs() < 0.002, "{start:?}");
    let m = climbs.move_character(&s, start, Vec3::new(0.0, -0.001, 0.0));
    assert!(m.grounded && (m.feet.y - start.y).abs() < 1e-3, "{m:?}");
    let m = climbs.move_character(&s, start, Vec3::new(4.0 / 60.0, -0.001, 0.0));
    assert!(
        m.grounded && (m.feet.y - (1.0 + climbs.skin)).abs() < 1e-3,
        "{m:?}"
    );
    let low = CharacterController {
        max_step: 0.1,
        ..climbs
    };
    let m = low.move_character(&s, start, Vec3::new(0.0, -0.001, 0.0));
    assert!(!m.grounded, "{m:?}");
}

#[test]
fn a_fall_in_open_air_moves_the_whole_motion_and_lands_a_skin_above_the_floor() {
    let s = scene(FLOOR);
    let c = ctl();
    let mut feet = Vec3::new(0.0, 5.0, 0.0);
    let motion = Vec3::new(0.2, -1.0, 0.1);
    for k in 0..4 {
        let m = c.move_character(&s, feet, motion);
        assert_eq!(m.feet, feet + motion, "move {k}");
        assert!(!m.grounded && m.hits.is_empty());
        feet = m.feet;
    }
    let m = c.move_character(&s, feet, motion);
    assert!(m.grounded, "{m:?}");
    assert!(
        m.feet.y >= 0.5 * c.skin && m.feet.y <= 2.0 * c.skin,
        "{:?}",
        m.feet
    );
    // Landing on the floor keeps the horizontal part: it is taken by the ground, not lost.
    assert!(
        (m.feet.x - (feet.x + 0.2)).abs() < 1e-4 && (m.feet.z - (feet.z + 0.1)).abs() < 1e-4,
        "{:?}",
        m.feet
    );
}

#[test]
fn a_walk_along_a_wall_tops_rim_from_half_a_skin_over_it_moves() {
    // The house sample's 1 m wall (3 m high) and a 1.13 m body found standing 0.1 µm past the top's rim, held by
    // its edge half a skin up (the grown body touching it), walking along the rim and a little onto the top: the
    // sweep met the top's face where the body stood, the walk clipped by it was sent the same way again, and the
    // body never moved (a navigation path along the top, for a random agent size). Lifted half a skin, it walks.
    let s = scene(
        r#"(version: 2, walls: [(id: 5, a: (19.4, 14.4), b: (-24.4, 14.4), radius: 0.5, height: 3.0)])"#,
    );
    let c = CharacterController {
        radius: 0.565_315_84,
        height: 1.230_631_7,
        max_step: 0.05,
        max_slope_deg: 25.0,
        jump_height: 0.3,
        ..ctl()
    };
    let feet = Vec3::new(-10.029_134, 3.004_999_9, 13.899_899_5);
    let motion =
        Vec3::new(-3.999_942_5, 0.0, 0.021_459_306) / 60.0 + Vec3::new(0.0, -0.002_72, 0.0);
    walks_on(&c, &s, feet, motion, 30, Vec3::NEG_X);
}

#[test]
fn a_walk_along_a_rim_held_steeply_that_ends_a_hair_into_it_moves_on() {
    // The house sample's west wall (1 m thick, 3 m high) and a 0.46 m body held by the top's rim 3.5 cm below
    // the top (the rim's normal 34° from up, within its 54.7° slope limit), walking along the wall a hair
    // toward it: the slide's sweep let it a hair into the rim, the move fell back to its start and the next
    // move did the same for ever (a navigation path along the top, for a random agent size). Lifted half a
    // skin, within its ground's skin band, it walks on.
    let s = scene(
        r#"(version: 2, walls: [(id: 2, a: (-24.4, -14.1), b: (-24.4, 13.2), radius: 0.5, height: 3.0)])"#,
    );
    let c = CharacterController {
        radius: 0.227_550_69,
        height: 0.563_103_6,
        max_step: 0.368_568_3,
        max_slope_deg: 54.658_99,
        jump_height: 0.769_938_47,
        ..ctl()
    };
    let feet = Vec3::new(-23.769_417, 2.965_044_5, -12.273_667);
    let motion = Vec3::new(-0.014_935_016, 0.0, -3.999_972) / 60.0 + Vec3::new(0.0, -0.002_72, 0.0);
    for m in walks_on(&c, &s, feet, motion, 20, Vec3::NEG_Z) {
        assert!(
            s.overlap_capsule(&c.capsule(m.feet)).is_empty(),
            "{:?}",
            m.feet
        );
    }
}

/// Walk `moves` times by `motion` from `feet` on a rim: every move grounded and at least 6 cm on along `dir`.
fn walks_on(
    c: &CharacterController,
    s: &collidoscope::scene::Scene,
    feet: Vec3,
    motion: Vec3,
    moves: usize,
    dir: Vec3,
) -> Vec<collidoscope::character::CharacterMove> {
    let moves = walk(c, s, feet, motion, moves);
    let mut from = feet;
    for m in &moves {
        assert!(m.grounded, "{m:?}");
        assert!(
            (m.feet - from).dot(dir) >= 0.06,
            "{:?} -> {:?}: {:?}",
            from,
            m.feet,
            m.limit
        );
        from = m.feet;
    }
    moves
}

/// A body on a floor touching a higher floor's edge with its rounded side (0.52 m above its feet, 80° from up,
/// 5 mm inside the probe's reach): the edge does not hold it up, the floor under it does, and the floor is its
/// ground, not the edge (it was: a body beside a mover's edge stood on the mover, and navigation's steering,
/// reading a contact half a metre above the feet as a rim over a jump's take-off, never jumped there: the
/// navigation soak's sector seed 33). Standing in the open, the same floor.
#[test]
fn a_body_touching_a_higher_floors_edge_at_its_side_stands_on_the_floor_under_it() {
    let s = scene(
        "(version: 2, aabbs: [(id: 1, min: (-3.0, -1.0, -3.0), max: (3.0, 0.0, 3.0)), \
         (id: 2, min: (-3.0, 0.0, -3.0), max: (0.0, 0.531, 3.0))])",
    );
    let c = CharacterController {
        radius: 0.627_837_4,
        height: 1.965_399_1,
        max_step: 0.321_495_4,
        max_slope_deg: 33.5,
        ..ctl()
    };
    for x in [0.624, 2.0] {
        let feet = Vec3::new(x, c.skin, 0.0);
        let m = c.move_character(&s, feet, Vec3::new(0.0, -0.05, 0.0));
        assert!(m.grounded && (m.feet - feet).length() < 1e-4, "{x}: {m:?}");
        let g = m.ground.expect("ground");
        assert_eq!(g.object, ObjectId(1), "{x}: {m:?}");
        assert!(g.point.y.abs() < 1e-4 && g.normal == Vec3::Y, "{x}: {m:?}");
    }
    // The edge is where the body's probe meets it first: 5 mm inside the radius and a skin of the axis.
    let lower = Vec3::new(0.624, c.skin + c.radius, 0.0);
    let edge = Vec3::new(0.0, 0.531, 0.0);
    assert!((lower - edge).length() < c.radius + c.skin);
}

/// A body hung on an edge at its side over a floor within the snap (its rounded bottom on a box's top edge 72°
/// from up, 0.34 m over the floor): the floor holds it up (`probe_ground`), but it is not on it. It stood
/// there for good, grounded, the snap held off by the same edge. Now the settle slides it down off the edge,
/// away from it, onto the floor: one move.
#[test]
fn a_body_hung_on_an_edge_over_a_floor_slides_down_onto_the_floor() {
    let s = scene(
        "(version: 2, aabbs: [(id: 1, min: (-3.0, -1.0, -3.0), max: (3.0, 0.0, 3.0)), \
         (id: 2, min: (-3.0, 0.0, -3.0), max: (0.0, 0.5, 3.0))])",
    );
    let c = ctl();
    // The axis 0.27 m from the edge, the body a little more than half a skin off it.
    let (d, clear) = (0.27_f32, c.radius + 0.6 * c.skin);
    let feet = Vec3::new(d, 0.5 + (clear * clear - d * d).sqrt() - c.radius, 0.0);
    assert!(feet.y > 0.3 && feet.y < c.snap_distance, "{feet}");
    assert!(s.overlap_capsule(&c.capsule(feet)).is_empty());
    let m = c.move_character(&s, feet, Vec3::new(0.0, -0.01, 0.0));
    assert!(m.grounded, "{m:?}");
    assert!(m.feet.y <= 1.5 * c.skin && m.feet.x >= d, "{m:?}");
    let g = m.ground.expect("ground");
    assert_eq!(g.object, ObjectId(1), "{m:?}");
    assert!(s.overlap_capsule(&c.capsule(m.feet)).is_empty());
}
