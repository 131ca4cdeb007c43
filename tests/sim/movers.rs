//! Balls among movers (issue 37): times of impact in the mover's frame against hand-worked cases, responses
//! with the relative velocity, a ball carried by a lift, no tunnelling through a thin paddle at up to
//! 1,000 m/s relative, `OnTrigger` movers started by a ball, and determinism (with snapshots).

use collidoscope::glam::Vec3;
use collidoscope::level::{Level, ObjectId};
use collidoscope::scene::Static;
use collidoscope::sim::{Contact, ContactEvent, World};
use proptest::prelude::*;

const DT: f32 = 1.0 / 60.0;

/// A paddle (a box `thick` wide along x, 2 m tall and deep) with its left face at `px`, moving along x at `u`
/// m/s (a long `Once` path), and a ball of radius `r` at `bx` with velocity `v` along x; no gravity.
fn paddle_level(px: f32, thick: f32, u: f32, bx: f32, v: f32, r: f32, e: f32) -> Level {
    let far = 1000.0 * u.signum();
    Level::from_ron_str(&format!(
        "(version: 3,
        aabbs: [(id: 1, min: ({px:?}, -1.0, -1.0), max: ({:?}, 1.0, 1.0))],
        movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), ({far:?}, 0.0, 0.0)], speed: {:?}, repeat: Once)],
        balls: [(id: 3, center: ({bx:?}, 0.0, 0.0), velocity: ({v:?}, 0.0, 0.0), radius: {r:?}, mass: 1.0,
                 restitution: {e:?})],
        simulation: (gravity: (0.0, 0.0, 0.0), dt: {DT:?}))",
        px + thick,
        u.abs(),
    ))
    .unwrap()
}

/// The paddle's (object 1's) box where the world's movers have it now.
fn paddle_x(world: &World) -> (f32, f32) {
    match world.scene().object(ObjectId(1)) {
        Some(Static::Aabb(b)) => (b.min.x, b.max.x),
        other => panic!("{other:?}"),
    }
}

/// Step until the first contact event; (step index, event).
fn first_event(world: &mut World, steps: usize) -> (usize, ContactEvent) {
    for k in 0..steps {
        let r = world.step(DT);
        if let Some(ev) = r.events.first() {
            return (k, *ev);
        }
    }
    panic!("no contact in {steps} steps");
}

#[test]
fn a_paddle_meets_a_ball_at_rest_at_the_hand_worked_time() {
    // The paddle's face at 0.1 + 10t meets the ball's side at 1.5 when t = 0.14 s: in step 8 (from 8/60 s),
    // 0.14 − 8/60 s into it; the elastic response on the relative velocity (−10) gives 10 + 10 = 20 m/s.
    let mut world = World::from_level(&paddle_level(0.0, 0.1, 10.0, 2.0, 0.0, 0.5, 1.0)).unwrap();
    let (k, ev) = first_event(&mut world, 20);
    assert_eq!(k, 8);
    assert!((ev.time - (0.14 - 8.0 / 60.0)).abs() < 1e-5, "{ev:?}");
    assert_eq!(ev.other, Contact::Static(0));
    assert!(
        (ev.point - Vec3::new(1.5, 0.0, 0.0)).length() < 1e-4,
        "{ev:?}"
    );
    assert!((ev.normal - Vec3::X).length() < 1e-6, "{ev:?}");
    assert!((ev.approach_speed - 10.0).abs() < 1e-3, "{ev:?}");
    assert!((world.balls()[0].velocity.x - 20.0).abs() < 1e-3);
    // Ahead of the paddle ever after.
    for _ in 0..30 {
        world.step(DT);
        assert!(world.balls()[0].center.x - 0.5 >= paddle_x(&world).1 - 1e-4);
    }
}

#[test]
fn a_head_on_meeting_responds_to_the_relative_velocity() {
    // Closing at 15 m/s over 2.4 m: t = 0.16 s (step 9). With e = 0.5 the relative velocity −15 becomes 7.5,
    // so the ball leaves at 10 + 7.5 = 17.5 m/s.
    let mut world = World::from_level(&paddle_level(0.0, 0.1, 10.0, 3.0, -5.0, 0.5, 0.5)).unwrap();
    let (k, ev) = first_event(&mut world, 20);
    assert_eq!(k, 9);
    assert!((ev.time - (0.16 - 9.0 / 60.0)).abs() < 1e-5, "{ev:?}");
    assert!((ev.approach_speed - 15.0).abs() < 1e-3, "{ev:?}");
    assert_eq!(ev.restitution, 0.5);
    assert!((world.balls()[0].velocity.x - 17.5).abs() < 1e-3);
    // The contact point is where the paddle's face was at that time.
    assert!((ev.point.x - (0.1 + 10.0 * 0.16)).abs() < 1e-4, "{ev:?}");
}

#[test]
fn a_ball_overtaking_a_slower_paddle_bounces_back_relative_to_it() {
    // Ball at 20 m/s behind a paddle going 5 m/s the same way: relative −15 → +15 (e = 1), so 5 − 15 = −10.
    let mut world = World::from_level(&paddle_level(0.0, 0.1, 5.0, -2.0, 20.0, 0.5, 1.0)).unwrap();
    let (_, ev) = first_event(&mut world, 30);
    assert!((ev.normal + Vec3::X).length() < 1e-6, "{ev:?}");
    assert!((world.balls()[0].velocity.x + 10.0).abs() < 1e-3);
}

/// A 2 × 0.5 × 2 slab lifted 4 m at 2 m/s (waiting 1 s at each end), a ball of radius 0.5 resting on it.
fn lift_level(e: f32) -> Level {
    Level::from_ron_str(&format!(
        "(version: 3,
        aabbs: [(id: 1, min: (-1.0, 0.0, -1.0), max: (1.0, 0.5, 1.0))],
        movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 4.0, 0.0)], speed: 2.0, wait: 1.0)],
        balls: [(id: 3, center: (0.0, 1.0, 0.0), velocity: (0.0, 0.0, 0.0), radius: 0.5, mass: 1.0,
                 restitution: {e:?})],
        simulation: (gravity: (0.0, -9.81, 0.0), dt: {DT:?}))"
    ))
    .unwrap()
}

fn lift_top(world: &World) -> f32 {
    match world.scene().object(ObjectId(1)) {
        Some(Static::Aabb(b)) => b.max.y,
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_ball_on_a_rising_lift_rises_with_it() {
    let mut world = World::from_level(&lift_level(0.0)).unwrap();
    // Up for 2 s: the ball stays on the top, never sinking, never hopping.
    for k in 0..120 {
        world.step(DT);
        let b = world.balls()[0];
        let gap = b.center.y - 0.5 - lift_top(&world);
        assert!(gap > -1e-3 && gap < 2e-3, "step {k}: gap {gap}");
        assert!(b.center.x.abs() < 1e-6 && b.center.z.abs() < 1e-6);
        assert!((b.velocity.y - 2.0).abs() < 0.2, "step {k}: {b:?}");
    }
    // The lift stops at the top for 1 s: the ball, still rising at 2 m/s, flies on (2²/2g ≈ 0.2 m) and lands
    // on it again.
    let mut highest = 0.0f32;
    for k in 120..180 {
        world.step(DT);
        let gap = world.balls()[0].center.y - 0.5 - lift_top(&world);
        assert!(gap > -1e-3, "step {k}: gap {gap}");
        highest = highest.max(gap);
    }
    assert!((highest - 4.0 / (2.0 * 9.81)).abs() < 0.02, "{highest}");
    assert!((lift_top(&world) - 4.5).abs() < 1e-4);
    assert!((world.balls()[0].center.y - 5.0).abs() < 2e-3);
    assert!(world.balls()[0].velocity.length() < 0.5);
}

#[test]
fn a_bouncy_ball_on_a_lift_never_falls_through_it() {
    let mut world = World::from_level(&lift_level(0.7)).unwrap();
    // Three periods up and down (6 s each): the ball hops when the lift starts and lands when it stops, but
    // is never below its top.
    for k in 0..1080 {
        world.step(DT);
        let gap = world.balls()[0].center.y - 0.5 - lift_top(&world);
        assert!(gap > -1e-3, "step {k}: gap {gap}");
    }
}

#[test]
fn a_ball_entering_a_trigger_starts_its_door() {
    // A ball falls into trigger 5 (y from 0 to 1); the door (object 1) starts on that trigger.
    let level = Level::from_ron_str(&format!(
        "(version: 3,
        planes: [(id: 9, normal: (0.0, 1.0, 0.0), d: 0.0)],
        aabbs: [(id: 1, min: (5.0, 0.0, -1.0), max: (5.2, 3.0, 1.0))],
        movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 3.0, 0.0)], speed: 1.0, repeat: Once,
                  start: OnTrigger(5))],
        triggers: [(id: 5, shape: Aabb((min: (-1.0, 0.0, -1.0), max: (1.0, 1.0, 1.0))))],
        balls: [(id: 3, center: (0.0, 3.0, 0.0), velocity: (0.0, 0.0, 0.0), radius: 0.25, mass: 1.0,
                 restitution: 0.0)],
        simulation: (gravity: (0.0, -9.81, 0.0), dt: {DT:?}))"
    ))
    .unwrap();
    let mut world = World::from_level(&level).unwrap();
    let mut entered = None;
    for k in 0..120 {
        let r = world.step(DT);
        if entered.is_none() && r.triggers.iter().any(|t| t.entered) {
            entered = Some(k);
            // Started at the end of the step it was entered in.
            let started = world.scene().movers()[0].started.unwrap();
            assert_eq!(started, world.time() as f32);
        }
        if entered.is_none() {
            assert_eq!(world.scene().movers()[0].started, None);
            assert_eq!(paddle_x(&world), (5.0, 5.2));
        }
    }
    assert!(entered.is_some());
    // One second after the start, the door has risen 1 m.
    let door = world.scene().object(ObjectId(1)).unwrap().bounds().unwrap();
    assert!(door.min.y > 0.5, "{door:?}");
}

#[test]
fn movers_and_snapshots_are_deterministic() {
    let run = |level: &Level| {
        let mut world = World::from_level(level).unwrap();
        let mut states = Vec::new();
        for k in 0..240 {
            world.step(DT);
            if k % 60 == 0 {
                states.push(world.snapshot());
            }
        }
        (world, states)
    };
    let level = lift_level(0.8);
    let (a, sa) = run(&level);
    let (b, sb) = run(&level);
    assert_eq!(sa, sb);
    assert_eq!(a.snapshot(), b.snapshot());
    // Back to a snapshot (the movers with it) and on again: the same bits.
    let mut c = a.clone();
    c.restore(&sa[1]);
    assert_eq!(c.scene().time(), sa[1].time() as f32);
    for _ in 61..240 {
        c.step(DT);
    }
    assert_eq!(c.snapshot(), a.snapshot());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A ball and a thin paddle (1 cm) closing at up to 1,000 m/s relative: the ball ends every step on its
    /// own side of the paddle (the left), whatever the restitution.
    #[test]
    fn no_tunnelling_through_a_thin_moving_paddle(
        u in -500.0f32..500.0,
        v in -500.0f32..500.0,
        gap in 0.0f32..5.0,
        r in 0.02f32..0.5,
        e in 0.0f32..1.0,
    ) {
        prop_assume!(u.abs() > 1e-2);
        let bx = -gap - r;
        let mut world = World::from_level(&paddle_level(0.0, 0.01, u, bx, v, r, e)).unwrap();
        for k in 0..30 {
            world.step(DT);
            let b = world.balls()[0];
            let (left, _) = paddle_x(&world);
            let tol = 1e-3 + 1e-5 * left.abs();
            prop_assert!(b.center.x + r <= left + tol, "step {}: ball {:?}, paddle at {}", k, b, left);
        }
    }
}

#[test]
fn a_ball_passes_up_through_a_one_way_floor_and_lands_on_it() {
    // Thrown up at 8 m/s from under a one-way slab (y from 1.4 to 1.5): it rises through it (3.26 m high),
    // falls back onto its top and rests there.
    let level = Level::from_ron_str(&format!(
        "(version: 3,
        planes: [(id: 9, normal: (0.0, 1.0, 0.0), d: 0.0)],
        aabbs: [(id: 1, min: (-2.0, 1.4, -2.0), max: (2.0, 1.5, 2.0), one_way: true)],
        balls: [(id: 3, center: (0.0, 0.3, 0.0), velocity: (0.0, 8.0, 0.0), radius: 0.25, mass: 1.0,
                 restitution: 0.3)],
        simulation: (gravity: (0.0, -9.81, 0.0), dt: {DT:?}))"
    ))
    .unwrap();
    let mut world = World::from_level(&level).unwrap();
    let mut highest = 0.0f32;
    for _ in 0..240 {
        let r = world.step(DT);
        assert!(r.pushed_out.is_empty(), "{r:?}");
        highest = highest.max(world.balls()[0].center.y);
    }
    assert!(highest > 3.0, "{highest}");
    let b = world.balls()[0];
    assert!((b.center.y - 1.75).abs() < 1e-3, "{b:?}");
    assert!(b.velocity.length() < 0.05, "{b:?}");
}

#[test]
fn the_sample_ball_keeps_bouncing_on_its_paddle() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/movers.ron");
    let level = Level::load(&path).unwrap();
    let mut world = World::from_level(&level).unwrap();
    let paddle = |w: &World| w.scene().object(ObjectId(47)).unwrap().bounds().unwrap();
    let mut hits = 0;
    for k in 0..600 {
        let r = world.step(level.simulation.dt);
        hits += r
            .events
            .iter()
            .filter(|e| matches!(e.other, Contact::Static(_)))
            .count();
        let b = world.balls()[0];
        let p = paddle(&world);
        assert!(
            b.center.y - b.radius > p.max.y - 1e-3,
            "step {k}: {b:?} {p:?}"
        );
        assert!((b.center.x + 29.0).abs() < 1e-3 && (b.center.z - 11.0).abs() < 1e-3);
    }
    assert!(hits >= 3, "{hits}");
}
