//! Bodies on movers (`Body::step`): carried by lifts and platforms, pushed by walls that move into them,
//! crushed by a door closing against a wall, crouching under a ceiling that comes down, jumping up through
//! one-way floors; the figures of the public contract as properties over random movers, and one regression
//! scene per tracker bug the moving-parts issue lists.

use collidoscope::character::{Body, BodyInput, CharacterController, CharacterMove, MoverEvent};
use collidoscope::glam::{Vec2, Vec3};
use collidoscope::level::ObjectId;
use collidoscope::scene::Scene;
use proptest::prelude::*;

use crate::common::scene;

const G: Vec3 = Vec3::new(0.0, -9.81, 0.0);
const DT: f32 = 1.0 / 60.0;

/// A 4 × 0.5 × 4 slab (id 1, top at 0.5) moved along `path` at `speed` (ping-pong, no wait), over a floor
/// plane far below (id 9).
fn platform(path: &str, speed: f32) -> Scene {
    scene(&format!(
        r#"(version: 3,
        planes: [(id: 9, normal: (0.0, 1.0, 0.0), d: -20.0)],
        aabbs: [(id: 1, min: (-2.0, 0.0, -2.0), max: (2.0, 0.5, 2.0))],
        movers: [(id: 2, object: 1, path: {path}, speed: {speed:?}, repeat: PingPong)])"#
    ))
}

/// The top of the slab (id 1) at the scene's time.
fn top(scene: &Scene) -> f32 {
    0.5 + scene.mover_offset_at(ObjectId(1), scene.time()).y
}

fn still() -> BodyInput {
    BodyInput::default()
}

/// A body put on the slab a skin above its top at time 0 and stepped once there.
fn on_slab(scene: &mut Scene, c: &CharacterController, x: f32, z: f32) -> Body {
    scene.set_time(0.0);
    let mut body = Body::new(Vec3::new(x, top(scene) + c.skin, z));
    body.step(c, scene, &still(), G, DT);
    assert!(body.grounded, "{body:?}");
    body
}

/// Step `body` at scene time `t`.
fn step_at(
    scene: &mut Scene,
    body: &mut Body,
    c: &CharacterController,
    input: &BodyInput,
    t: f32,
) -> CharacterMove {
    scene.set_time(t);
    body.step(c, scene, input, G, DT)
}

/// Ride a lift moving `dy` at `speed` for `steps` steps: every step grounded on it with the feet in the
/// skin band above its top. Returns the lowest and highest gap seen.
fn ride_lift(dy: f32, speed: f32, steps: u32) -> (f32, f32) {
    let c = CharacterController::default();
    let mut s = platform(&format!("[(0.0, 0.0, 0.0), (0.0, {dy:?}, 0.0)]"), speed);
    let mut body = on_slab(&mut s, &c, 0.3, -0.4);
    let (mut lo, mut hi) = (f32::MAX, f32::MIN);
    for i in 1..=steps {
        let m = step_at(&mut s, &mut body, &c, &still(), i as f32 * DT);
        let gap = body.feet.y - top(&s);
        lo = lo.min(gap);
        hi = hi.max(gap);
        assert!(m.grounded && !m.crushed, "step {i} at {speed} m/s: {m:?}");
        assert!(
            gap >= c.skin * 0.5 && gap <= 2.0 * c.skin,
            "step {i} at {speed} m/s, gap {gap}"
        );
        assert_eq!(m.ground.map(|g| g.object), Some(ObjectId(1)));
    }
    (lo, hi)
}

/// Ride a platform moving along `dir` (horizontal) at `speed`: the offset from the platform is kept to 1e-3 m
/// per second of riding, every step grounded. Returns the largest offset error.
fn ride_platform(dir: Vec2, speed: f32, steps: u32) -> f32 {
    let c = CharacterController::default();
    let d = dir.normalize() * 6.0;
    let mut s = platform(
        &format!("[(0.0, 0.0, 0.0), ({:?}, 0.0, {:?})]", d.x, d.y),
        speed,
    );
    let mut body = on_slab(&mut s, &c, 0.5, 0.2);
    let offset = body.feet - s.mover_offset_at(ObjectId(1), 0.0);
    let mut worst = 0.0f32;
    for i in 1..=steps {
        let t = i as f32 * DT;
        let m = step_at(&mut s, &mut body, &c, &still(), t);
        assert!(m.grounded, "step {i} at {speed} m/s: {m:?}");
        let err = (body.feet - s.mover_offset_at(ObjectId(1), t) - offset).length();
        assert!(err <= 1e-3 * t + 1e-5, "step {i}: offset off by {err}");
        worst = worst.max(err);
    }
    worst
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// A lift up or down at up to 5 m/s (turning back at its ends): grounded every step, the feet between
    /// `skin/2` and `2·skin` above its top.
    #[test]
    fn lifts_keep_the_body_grounded_in_the_skin_band(speed in 0.2f32..5.0, up in any::<bool>()) {
        ride_lift(if up { 3.0 } else { -3.0 }, speed, 150);
    }

    /// A platform moving horizontally at up to 10 m/s: the offset kept to 1e-3 m per second, grounded.
    #[test]
    fn platforms_keep_the_body_offset(speed in 0.5f32..10.0, angle in 0.0f32..std::f32::consts::TAU) {
        ride_platform(Vec2::new(angle.cos(), angle.sin()), speed, 120);
    }

    /// A wall moving into a standing body at up to 8 m/s pushes it and never leaves it inside anything.
    #[test]
    fn walls_moving_into_a_body_push_it_out(speed in 2.5f32..8.0, z in -0.8f32..0.8) {
        let c = CharacterController::default();
        let mut s = scene(&format!(r#"(version: 3,
            planes: [(id: 9, normal: (0.0, 1.0, 0.0), d: 0.0)],
            aabbs: [(id: 1, min: (-3.0, 0.0, -1.0), max: (-2.0, 2.5, 1.0))],
            movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (8.0, 0.0, 0.0)], speed: {speed:?}, repeat: Once)])"#));
        s.set_time(0.0);
        let mut body = Body::new(Vec3::new(0.0, c.skin, z));
        body.step(&c, &s, &still(), G, DT);
        let mut pushed = false;
        for i in 1..=120 {
            let m = step_at(&mut s, &mut body, &c, &still(), i as f32 * DT);
            prop_assert!(!m.crushed, "{m:?}");
            prop_assert!(s.overlap_capsule(&c.capsule(body.feet)).is_empty(), "step {i}: inside at {}", body.feet);
            pushed |= m.movers.iter().any(|e| matches!(e, MoverEvent::Pushed { .. }));
        }
        prop_assert!(pushed && body.feet.x > 2.0, "{body:?}");
    }

    /// A door closing against a wall with the body between them: crushed, naming both.
    #[test]
    fn a_door_closing_against_a_wall_crushes(speed in 1.5f32..6.0) {
        let c = CharacterController::default();
        let mut s = door_scene(speed);
        let mut body = Body::new(Vec3::new(1.0, c.skin, 0.0));
        let mut crushed = None;
        for i in 0..300 {
            let m = step_at(&mut s, &mut body, &c, &still(), i as f32 * DT);
            if m.crushed {
                crushed = Some(m);
                break;
            }
            prop_assert!(s.overlap_capsule(&c.capsule(body.feet)).is_empty());
        }
        let m = crushed.expect("the door crushes the body");
        prop_assert!(m.movers.iter().any(|e| matches!(e,
            MoverEvent::Crushed { movers, against } if movers == &[ObjectId(1)] && against.contains(&ObjectId(3)))), "{m:?}");
    }

    /// Jumping up through a one-way floor from below: the body passes, lands on top and is supported.
    #[test]
    fn jumping_up_through_a_one_way_floor_lands_on_top(height in 0.6f32..1.2, x in -0.5f32..0.5) {
        let c = CharacterController { jump_height: height + 1.9, ..CharacterController::default() };
        let (body, passed) = jump_through(&c, height, x);
        prop_assert!(passed);
        prop_assert!(body.grounded && body.ground.map(|g| g.object) == Some(ObjectId(5)), "{body:?}");
        let gap = body.feet.y - (height + 0.1);
        prop_assert!(gap >= c.skin * 0.5 && gap <= 2.0 * c.skin, "gap {gap}");
    }
}

/// A floor (id 9), a static wall at x 3..4 (id 3), and a door (id 1) at x -3..-2 sliding +x 4.5 m to close
/// against the wall at `speed`.
fn door_scene(speed: f32) -> Scene {
    scene(&format!(
        r#"(version: 3,
        planes: [(id: 9, normal: (0.0, 1.0, 0.0), d: 0.0)],
        aabbs: [
            (id: 1, min: (-3.0, 0.0, -1.5), max: (-2.0, 2.5, 1.5)),
            (id: 3, min: (3.0, 0.0, -1.5), max: (4.0, 2.5, 1.5)),
        ],
        movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (5.0, 0.0, 0.0)], speed: {speed:?}, repeat: Once)])"#
    ))
}

/// A body on a floor under a one-way slab (id 5, 4 × 0.1 × 4, top at `height + 0.1`), jumping from `x`:
/// where it ended a few seconds later and whether a step said it passed up through the slab.
fn jump_through(c: &CharacterController, height: f32, x: f32) -> (Body, bool) {
    let s = scene(&format!(
        r#"(version: 3,
        planes: [(id: 9, normal: (0.0, 1.0, 0.0), d: 0.0)],
        aabbs: [(id: 5, min: (-2.0, {height:?}, -2.0), max: (2.0, {:?}, 2.0), one_way: true)])"#,
        height + 0.1
    ));
    let mut body = Body::new(Vec3::new(x, c.skin, 0.0));
    body.step(c, &s, &still(), G, DT);
    assert!(body.grounded);
    let jump = BodyInput {
        jump: true,
        ..BodyInput::default()
    };
    let mut passed = false;
    body.step(c, &s, &jump, G, DT);
    for _ in 0..240 {
        let m = body.step(c, &s, &still(), G, DT);
        passed |= m.movers.iter().any(|e| {
            matches!(
                e,
                MoverEvent::PassedThrough {
                    object: ObjectId(5),
                    up: true
                }
            )
        });
        if body.grounded {
            break;
        }
    }
    (body, passed)
}

#[test]
fn same_inputs_and_times_give_the_same_bits() {
    let run = || {
        let c = CharacterController::default();
        let mut s = platform("[(0.0, 0.0, 0.0), (3.0, 2.0, 1.0)]", 4.0);
        let mut body = on_slab(&mut s, &c, 0.0, 0.0);
        let walk = BodyInput {
            wish: Vec2::new(0.5, 0.3),
            ..BodyInput::default()
        };
        let mut moves = Vec::new();
        for i in 1..=90 {
            moves.push(step_at(&mut s, &mut body, &c, &walk, i as f32 * DT));
        }
        (body, moves)
    };
    let (a, b) = (run(), run());
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
}

/// A low ceiling (id 1) coming down on a standing body to `low` m above the floor (id 9).
fn ceiling_scene(low: f32) -> Scene {
    scene(&format!(
        r#"(version: 3,
        planes: [(id: 9, normal: (0.0, 1.0, 0.0), d: 0.0)],
        aabbs: [(id: 1, min: (-2.0, 2.2, -2.0), max: (2.0, 2.6, 2.0))],
        movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, {:?}, 0.0)], speed: 2.0, repeat: Once)])"#,
        low - 2.2
    ))
}

/// Godot #91272 (crouching under a low ceiling): a ceiling coming down on a standing body makes it crouch
/// where `crouch_height` fits; lower than that, the body is crushed.
#[test]
fn a_ceiling_coming_down_makes_the_body_crouch_or_crushes_it() {
    let c = CharacterController::default();
    let mut s = ceiling_scene(1.3);
    let mut body = Body::new(Vec3::new(0.0, c.skin, 0.0));
    let mut crouched = false;
    for i in 0..120 {
        let m = step_at(&mut s, &mut body, &c, &still(), i as f32 * DT);
        assert!(!m.crushed, "step {i}: {m:?}");
        crouched |= m
            .movers
            .iter()
            .any(|e| matches!(e, MoverEvent::Crouched { .. }));
        assert!(
            s.overlap_capsule(&body.moving_controller(&c).capsule(body.feet))
                .is_empty()
        );
    }
    assert!(crouched && body.crouching && body.grounded, "{body:?}");
    let mut s = ceiling_scene(0.6);
    let mut body = Body::new(Vec3::new(0.0, c.skin, 0.0));
    let crushed = (0..120).any(|i| step_at(&mut s, &mut body, &c, &still(), i as f32 * DT).crushed);
    assert!(crushed, "{body:?}");
}

/// A crusher (as the sample level's: a 2 m block coming down to 5 cm above the ground and back up) on a body
/// standing under it: crushed against the ground while it is down, never pushed down through the ground (it
/// was, and then fell forever below the ground plane), never carried through the block as it rises, and free
/// on the ground once it has gone back up.
#[test]
fn a_crusher_crushes_against_the_floor_and_lets_go() {
    let c = CharacterController::default();
    let mut s = scene(
        r#"(version: 3,
        planes: [(id: 9, normal: (0.0, 1.0, 0.0), d: 0.0)],
        aabbs: [(id: 1, min: (-2.0, 2.0, -2.0), max: (2.0, 4.0, 2.0))],
        movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, -1.95, 0.0)], speed: 1.5, wait: 1.0)])"#,
    );
    let mut body = Body::new(Vec3::new(0.3, c.skin, -0.2));
    let mut crushed = 0;
    for i in 0..400 {
        let m = step_at(&mut s, &mut body, &c, &still(), i as f32 * DT);
        assert!(body.feet.y > -1e-3 && body.feet.y < 0.1, "step {i}: {m:?}");
        if m.crushed {
            crushed += 1;
            // Against the floor while coming down; waiting at the bottom, nothing pushes (by the crusher alone).
            let down = s.mover_velocity(ObjectId(1)).y < 0.0;
            assert!(m.movers.iter().any(|e| matches!(e,
                MoverEvent::Crushed { movers, against }
                    if movers == &[ObjectId(1)] && (against == &[ObjectId(9)] || !down && against.is_empty()))),
                "step {i}: {m:?}");
        }
    }
    assert!(crushed > 60, "crushed {crushed} steps");
    // Back up (the period is 2 × (1.3 s + 1 s)): the body stands free on the ground.
    let mut freed = false;
    for i in 400..560 {
        let m = step_at(&mut s, &mut body, &c, &still(), i as f32 * DT);
        if s.mover_offset_at(ObjectId(1), s.time()).y > -0.1 {
            freed = true;
            assert!(!m.crushed && m.grounded, "step {i}: {m:?}");
            assert!(s.overlap_capsule(&c.capsule(body.feet)).is_empty());
        }
    }
    assert!(freed);
}

/// rapier #488 (the character dips into a vertically moving platform and can fall through it): a lift
/// rising at 5 m/s, then coming down, carries the body with no dip below the band.
#[test]
fn rapier_488_no_dip_into_a_rising_lift() {
    ride_lift(4.0, 5.0, 200);
}

/// rapier #747 (the character moves erratically on a kinematic platform that stopped): walking on a lift
/// that waits at its end moves as on static ground.
#[test]
fn rapier_747_walking_on_a_stopped_platform() {
    let c = CharacterController::default();
    let mut s = scene(
        r#"(version: 3,
        aabbs: [(id: 1, min: (-4.0, 0.0, -4.0), max: (4.0, 0.5, 4.0))],
        movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0)], speed: 2.0, wait: 5.0, repeat: Once)])"#,
    );
    let mut body = on_slab(&mut s, &c, -3.0, 0.0);
    let walk = BodyInput {
        wish: Vec2::new(2.0, 0.0),
        ..BodyInput::default()
    };
    let mut last = body.feet;
    for i in 1..=150 {
        let m = step_at(&mut s, &mut body, &c, &walk, 1.0 + i as f32 * DT);
        assert!(m.grounded, "{m:?}");
        let dx = body.feet.x - last.x;
        assert!(
            (dx - 2.0 * DT).abs() < 1e-4 || body.feet.x > 3.6,
            "step {i}: {dx}"
        );
        last = body.feet;
    }
}

/// rapier #485 and Godot #36334 (a character on a moving platform is left behind or slides): a platform at
/// 10 m/s carries the body with its offset kept.
#[test]
fn rapier_485_godot_36334_fast_platform_carries() {
    let worst = ride_platform(Vec2::new(1.0, 0.0), 10.0, 120);
    assert!(worst < 1e-3, "{worst}");
}

/// Jolt #530 (the character lifts off a vertical platform when it turns from going up to going down): a
/// ping-pong lift at 3 m/s keeps the body grounded through its turns.
#[test]
fn jolt_530_no_lift_off_when_the_lift_turns_down() {
    ride_lift(1.0, 3.0, 200);
}

/// Jolt #1514 (jitter on a platform moving diagonally downward): a platform going down and sideways keeps
/// the offset and the band.
#[test]
fn jolt_1514_diagonal_down_platform() {
    let c = CharacterController::default();
    let mut s = platform("[(0.0, 0.0, 0.0), (0.0, -3.0, 3.0)]", 4.0);
    let mut body = on_slab(&mut s, &c, 0.0, 0.0);
    let offset = body.feet - s.mover_offset_at(ObjectId(1), 0.0);
    for i in 1..=120 {
        let t = i as f32 * DT;
        let m = step_at(&mut s, &mut body, &c, &still(), t);
        let gap = body.feet.y - top(&s);
        assert!(
            m.grounded && gap >= c.skin * 0.5 && gap <= 2.0 * c.skin,
            "{i}: {gap}"
        );
        let err = (body.feet - s.mover_offset_at(ObjectId(1), t) - offset).length();
        assert!(err <= 1e-3 * t + 1e-5, "{i}: {err}");
    }
}

/// Jolt #1988 (sticking to the floor prevents jumping on a descending elevator): a jump of 1 m (4.4 m/s)
/// from a lift going down at 3 m/s leaves it and rises above it.
#[test]
fn jolt_1988_jumping_off_a_descending_lift() {
    let c = CharacterController::default();
    let mut s = platform("[(0.0, 0.0, 0.0), (0.0, -10.0, 0.0)]", 3.0);
    let mut body = on_slab(&mut s, &c, 0.0, 0.0);
    step_at(&mut s, &mut body, &c, &still(), DT);
    let jump = BodyInput {
        jump: true,
        ..BodyInput::default()
    };
    step_at(&mut s, &mut body, &c, &jump, 2.0 * DT);
    let mut rose = 0.0f32;
    for i in 3..40 {
        step_at(&mut s, &mut body, &c, &still(), i as f32 * DT);
        rose = rose.max(body.feet.y - top(&s));
    }
    assert!(rose > 0.9, "rose {rose}");
}

/// Godot proposal #2315 (platform velocity kept on leaving): walking off a platform moving at 4 m/s keeps
/// its horizontal velocity in the air.
#[test]
fn godot_2315_leaving_a_platform_keeps_its_velocity() {
    let c = CharacterController::default();
    let mut s = platform("[(0.0, 0.0, 0.0), (20.0, 0.0, 0.0)]", 4.0);
    let mut body = on_slab(&mut s, &c, 1.5, 0.0);
    let walk = BodyInput {
        wish: Vec2::new(3.0, 0.0),
        ..BodyInput::default()
    };
    let mut left = None;
    for i in 1..60 {
        let m = step_at(&mut s, &mut body, &c, &walk, i as f32 * DT);
        if let Some(e) = m
            .movers
            .iter()
            .find(|e| matches!(e, MoverEvent::Left { .. }))
        {
            left = Some(e.clone());
            break;
        }
    }
    let e = left.expect("walked off");
    assert!(
        e.describe(|o| format!("box #{}", o.0))
            .starts_with("left box #1")
    );
    assert!((body.velocity.x - 7.0).abs() < 1e-3, "{body:?}");
}

/// s&box #11056 (a character falls through or jitters on a lift going down fast): 5 m/s down, grounded.
#[test]
fn sbox_11056_fast_descending_lift() {
    ride_lift(-5.0, 5.0, 100);
}

/// rapier #502 (one-way platforms cannot be made with the controller): the one-way floor is jumped up
/// through, walked into from the side, stood on.
#[test]
fn rapier_502_one_way_platforms() {
    let c = CharacterController {
        jump_height: 2.2,
        ..CharacterController::default()
    };
    let (body, passed) = jump_through(&c, 0.8, 0.0);
    assert!(passed && body.grounded, "{body:?}");
    // From the side, at the floor's height: walks through its edge.
    let s = scene(
        r#"(version: 3, planes: [(id: 9, normal: (0.0, 1.0, 0.0), d: 0.0)],
        aabbs: [(id: 5, min: (2.0, 0.5, -2.0), max: (6.0, 0.8, 2.0), one_way: true)])"#,
    );
    let mut body = Body::new(Vec3::new(0.0, c.skin, 0.0));
    let walk = BodyInput {
        wish: Vec2::new(3.0, 0.0),
        ..BodyInput::default()
    };
    for _ in 0..150 {
        body.step(&c, &s, &walk, G, DT);
    }
    assert!(body.feet.x > 7.0 && body.grounded, "{body:?}");
}

#[test]
fn mover_events_are_worded() {
    let name = |o: ObjectId| format!("#{}", o.0);
    let carried = MoverEvent::Carried {
        object: ObjectId(12),
        mover: ObjectId(2),
        by: Vec3::new(0.0, 0.083, 0.0),
    };
    assert_eq!(carried.describe(name), "carried 0.083 m by #12");
    let crushed = MoverEvent::Crushed {
        movers: vec![ObjectId(14)],
        against: vec![ObjectId(3)],
    };
    assert_eq!(crushed.describe(name), "crushed between #14 and #3");
    let passed = MoverEvent::PassedThrough {
        object: ObjectId(20),
        up: true,
    };
    assert_eq!(passed.describe(name), "passed up through one-way #20");
}

/// The shrunk case of the one-way property: a jump whose rise ends within the one-way tolerance of resting on
/// the floor (its last rising move stopped a fraction of a millimetre into it) lands on top, not inside.
#[test]
fn a_rise_ending_just_into_a_one_way_floor_lands_on_top() {
    let height = 0.786_754_3;
    let c = CharacterController {
        jump_height: height + 1.9,
        ..CharacterController::default()
    };
    let (body, passed) = jump_through(&c, height, 0.0);
    let gap = body.feet.y - (height + 0.1);
    assert!(
        passed && body.grounded && gap >= c.skin * 0.5 && gap <= 2.0 * c.skin,
        "{body:?}"
    );
}

/// A sector's floor as a lift (a piston mesh with the sector's id) at `speed` up and down 3 m: grounded every
/// step in the skin band above the moving floor.
fn ride_sector_lift(speed: f32, steps: u32) {
    let c = CharacterController::default();
    let mut s = scene(&format!(
        r#"(version: 3,
        sectors: [
            (id: 1, outline: [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)], floor: (height: 0.0), ceiling: (height: 6.0)),
            (id: 2, outline: [(4.0, 0.0), (8.0, 0.0), (8.0, 4.0), (4.0, 4.0)], floor: (height: 0.0), ceiling: (height: 6.0)),
        ],
        movers: [(id: 3, object: 1, part: Floor, path: [(0.0, 0.0, 0.0), (0.0, 3.0, 0.0)], speed: {speed:?}, repeat: PingPong)])"#
    ));
    s.set_time(0.0);
    let mut body = Body::new(Vec3::new(2.0, c.skin, 2.0));
    body.step(&c, &s, &still(), G, DT);
    assert!(body.grounded, "{body:?}");
    for i in 1..=steps {
        let m = step_at(&mut s, &mut body, &c, &still(), i as f32 * DT);
        let floor = s.mover_offset_at(ObjectId(1), s.time()).y;
        let gap = body.feet.y - floor;
        assert!(m.grounded && !m.crushed, "step {i}: {m:?}");
        assert!(
            gap >= c.skin * 0.5 && gap <= 2.0 * c.skin,
            "step {i}: gap {gap}"
        );
    }
}

#[test]
fn a_sector_floor_lift_carries_the_body_up_and_down() {
    ride_sector_lift(5.0, 150);
    ride_sector_lift(1.5, 150);
}
