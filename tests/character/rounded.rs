//! A log lying on the floor (a pipe, a capped cylinder) is stepped onto whatever the motion's length: a walk at
//! 60 Hz moves a few centimetres a frame, and each such step used to come down on the log's flank, too steep to
//! stand on, and be refused, so the default body never got over a 0.2 m log that one 20 cm move crossed.
//! Where the body can stand on a log is where its rounded bottom meets the log within `max_slope_deg` of up: a
//! log is climbed when that place is within `max_step` of the floor (its feet there are
//! `r + (r + R)·cos(max_slope) − R` up, `R` the body's radius), and never when it is higher. Faceted logs (prism
//! meshes) under the step are crossed too, and stairs whose treads are no deeper than the body are walked up
//! (the same settling onto a tread decides both).

use collidoscope::character::CharacterController;
use collidoscope::glam::Vec3;
use collidoscope::level::ObjectId;
use collidoscope::mesh::TriMesh;
use collidoscope::scene::{Scene, Static};
use collidoscope::shape::{Cylinder, Plane};

/// The floor (id 1) and a log (id 2) of radius `r` lying on it along z through `x = 0`: a capped cylinder, or a
/// prism of `sides` faces (a faceted log, a mesh) when `sides` is some.
fn log_scene(r: f32, sides: Option<u32>) -> Scene {
    let log = match sides {
        None => Static::Cylinder(Cylinder::new(
            Vec3::new(0.0, r, -3.0),
            Vec3::new(0.0, r, 3.0),
            r,
        )),
        Some(n) => {
            let mut vertices = Vec::new();
            for z in [-3.0f32, 3.0] {
                for i in 0..n {
                    let a = std::f32::consts::TAU * (i as f32 + 0.5) / n as f32;
                    vertices.push(Vec3::new(r * a.cos(), r + r * a.sin(), z));
                }
            }
            let mut indices = Vec::new();
            for i in 0..n {
                let j = (i + 1) % n;
                indices.push([i, j, n + j]);
                indices.push([i, n + j, n + i]);
            }
            for i in 1..n - 1 {
                indices.push([0, i + 1, i]);
                indices.push([n, n + i, n + i + 1]);
            }
            Static::Mesh(TriMesh::new(vertices, indices).unwrap())
        }
    };
    Scene::from_objects(vec![
        (ObjectId(1), Static::Plane(Plane::new(Vec3::Y, 0.0))),
        (ObjectId(2), log),
    ])
}

/// Walk from `x = -1.2` (z 0) along `dir` (unit, horizontal) by `step` a move for `moves` moves; every landing
/// is checked out of the log. Answers the farthest x reached and the highest feet.
fn walk_over(
    scene: &Scene,
    ctl: &CharacterController,
    dir: Vec3,
    step: f32,
    moves: usize,
) -> (f32, f32) {
    let mut feet = Vec3::new(-1.2, 0.0, 0.0);
    let (mut far, mut high) = (feet.x, feet.y);
    for _ in 0..moves {
        let m = ctl.move_character(scene, feet, dir * step + Vec3::NEG_Y * 0.01);
        assert!(
            scene.overlap_capsule(&ctl.capsule(m.feet)).is_empty(),
            "{feet} + {} -> {} is inside",
            dir * step,
            m.feet
        );
        feet = m.feet;
        far = far.max(feet.x);
        high = high.max(feet.y);
    }
    (far, high)
}

/// The feet's height where a body of radius `big_r` stands on a log of radius `r` at the steepest walkable contact.
fn lowest_stand(r: f32, big_r: f32, max_slope_deg: f32) -> f32 {
    r + (r + big_r) * max_slope_deg.to_radians().cos() - big_r
}

#[test]
fn a_low_log_is_stepped_over_at_walking_speed_as_in_one_long_move() {
    let ctl = CharacterController::default();
    for r in [0.1f32, 0.15, 0.17, 0.2] {
        let scene = log_scene(r, None);
        // 3 m/s at 60 Hz, 6 m/s, and moves of 20 and 40 cm.
        for step in [0.05f32, 0.1, 0.2, 0.4] {
            let (far, _) = walk_over(&scene, &ctl, Vec3::X, step, (2.4 / step) as usize);
            assert!(
                far > r + ctl.radius,
                "log r {r}, moves of {step}: stopped at x {far}"
            );
        }
    }
}

#[test]
fn a_log_the_body_cannot_stand_on_within_a_step_is_not_climbed_in_moves_of_any_length() {
    let ctl = CharacterController::default();
    for r in [0.28f32, 0.35] {
        assert!(lowest_stand(r, ctl.radius, ctl.max_slope_deg) > ctl.max_step);
        let scene = log_scene(r, None);
        for step in [0.02f32, 0.05, 0.1, 0.4] {
            let (far, high) = walk_over(&scene, &ctl, Vec3::X, step, (2.0 / step) as usize);
            assert!(
                far < 0.0 && high < 0.05,
                "log r {r}, moves of {step}: reached x {far}, feet up to {high}"
            );
        }
    }
}

/// A faceted log (a prism mesh, as real maps draw a pipe): coming down on a facet's edge higher than where the
/// riser was met, the body took it for the next stair's nosing over a tread narrower than itself and stepped
/// back, so only a long move got over; an edge within a step of the feet is now moved on over.
#[test]
fn a_low_faceted_log_is_stepped_over_at_walking_speed() {
    let ctl = CharacterController::default();
    let scene = log_scene(0.15, Some(16));
    let (far, _) = walk_over(&scene, &ctl, Vec3::X, 0.05, 48);
    assert!(far > 0.45, "stopped at x {far}");
}

proptest::proptest! {
    #![proptest_config(crate::guarantees::config(64))]

    /// Any round log the body can stand on within a step, or a prism of 6 to 23 faces whose top is under the
    /// step, met at up to 50° from square, in moves of 1 to 40 cm: the body gets over it, never inside it; a round log it cannot stand on
    /// within a step is never climbed.
    #[test]
    fn logs_are_climbed_exactly_where_the_body_stands_on_them_within_a_step(
        r_low in 0.02f32..0.23,
        r_high in 0.28f32..0.5,
        angle in -50.0f32..50.0,
        step in 0.01f32..0.4,
        sides in proptest::option::of(6u32..24),
    ) {
        let ctl = CharacterController::default();
        let dir = Vec3::new(angle.to_radians().cos(), 0.0, angle.to_radians().sin());
        let moves = (3.0 / step) as usize;
        // A prism's walkable faces need not reach as low as a round log's: only prisms whose top is under the
        // step are claimed.
        let r_low = if sides.is_some() { r_low.min(0.5 * (ctl.max_step - 0.02)) } else { r_low };
        let (far, _) = walk_over(&log_scene(r_low, sides), &ctl, dir, step, moves);
        proptest::prop_assert!(far > r_low + ctl.radius, "low log: stopped at x {}", far);
        let (far, top) = walk_over(&log_scene(r_high, None), &ctl, dir, step, moves);
        proptest::prop_assert!(far < 0.0 && top < 0.05, "high log: reached x {}, feet up to {}", far, top);
    }
}

/// Stairs of `n` boxes (ids 2..) with risers `rise` and treads `tread` going up along x from `x = 0`, on the floor.
fn stairs(n: usize, rise: f32, tread: f32) -> Scene {
    let mut objects = vec![(ObjectId(1), Static::Plane(Plane::new(Vec3::Y, 0.0)))];
    for i in 0..n {
        let x0 = i as f32 * tread;
        objects.push((
            ObjectId(2 + i as u32),
            Static::Aabb(collidoscope::shape::Aabb::new(
                Vec3::new(x0, 0.0, -2.0),
                Vec3::new(20.0, (i + 1) as f32 * rise, 2.0),
            )),
        ));
    }
    Scene::from_objects(objects)
}

proptest::proptest! {
    #![proptest_config(crate::guarantees::config(64))]

    /// Stairs whose treads are narrower than the body: walked up in moves of 1 to 40 cm, no move ends inside,
    /// and the body gets to the top whenever two risers make at most a step, the treads are at least two thirds
    /// of its radius and the stairs are no steeper than a walkable slope.
    #[test]
    fn narrow_treads_are_climbed_a_step_at_a_time_at_most(
        rise in 0.05f32..0.34,
        tread in 0.08f32..0.3,
        step in 0.01f32..0.4,
    ) {
        let ctl = CharacterController::default();
        let n = 6;
        let scene = stairs(n, rise, tread);
        let mut feet = Vec3::new(-0.8, 0.0, 0.0);
        for _ in 0..((n as f32 * tread + 2.0) / step) as usize {
            let m = ctl.move_character(&scene, feet, Vec3::new(step, -0.01, 0.0));
            proptest::prop_assert!(scene.overlap_capsule(&ctl.capsule(m.feet)).is_empty(), "{} inside", m.feet);
            feet = m.feet;
        }
        // Claimed for treads of two thirds of the body's radius and more, no steeper overall than a walkable
        // slope (8 cm treads and 16 cm risers are a ladder; 14 cm treads and 13 cm risers are not climbed in
        // 1 cm moves, before this round as now).
        if 2.0 * rise <= ctl.max_step - 0.01
            && tread >= 0.2
            && rise <= tread * ctl.max_slope_deg.to_radians().tan()
        {
            let top = n as f32 * rise;
            proptest::prop_assert!((feet.y - top).abs() <= 2.0 * ctl.skin, "ended at {feet}, the top is {top}");
        }
    }
}

/// Stairs of realistic sizes whose treads are no deeper than the body: the default body walks up at 1 to 6 m/s
/// (moves of 2 to 10 cm) every one whose risers are at most 20 cm on treads of 25 cm or more, and 25 cm risers
/// on 30 cm treads in moves of any length up to 30 cm. Before this round, stairs of 25 cm risers on 30 cm treads
/// were never climbed past the last riser (the body stood on the last nosing, its axis just short of it, and
/// the riser was measured from the tread below: 50 cm), and 27 of these 168 stairs and speeds were not climbed
/// (14 now: 25 cm risers on 25 cm treads and 30 on 30, which a body 60 cm wide meets a nosing before it is over
/// the tread below, and two long-move cases of 20 cm risers).
#[test]
fn stairs_no_deeper_than_the_body_are_walked_up() {
    let ctl = CharacterController::default();
    let climbs = |rise: f32, tread: f32, step: f32| {
        let n = 6;
        let scene = stairs(n, rise, tread);
        let mut feet = Vec3::new(-0.8, 0.0, 0.0);
        for _ in 0..((n as f32 * tread + 2.0) / step) as usize {
            feet = ctl
                .move_character(&scene, feet, Vec3::new(step, -0.01, 0.0))
                .feet;
        }
        (feet.y - n as f32 * rise).abs() <= 2.0 * ctl.skin
    };
    for rise in [0.1f32, 0.125, 0.15, 0.175, 0.2] {
        for tread in [0.25f32, 0.3, 0.35] {
            for step in [0.02f32, 0.05, 0.067, 0.1] {
                assert!(
                    climbs(rise, tread, step),
                    "{rise} m risers, {tread} m treads, moves of {step}"
                );
            }
        }
    }
    for step in [0.02f32, 0.05, 0.1, 0.2, 0.3] {
        assert!(
            climbs(0.25, 0.3, step),
            "0.25 m risers, 0.3 m treads, moves of {step}"
        );
    }
}
