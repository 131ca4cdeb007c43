//! `Body::step`, the one integrator: jumps, landing, air control, ceilings and walls taking speed, crouching
//! under a low ceiling, bad input, and the recorder's `step_body` answering the same bits.

use collidoscope::character::{Body, BodyInput, CharacterController, Limit};
use collidoscope::glam::{Vec2, Vec3};
use collidoscope::level::Level;
use collidoscope::record::{QueryRecord, Recorder, RecorderConfig, Recording};
use collidoscope::scene::Scene;

use crate::common::scene;

const G: Vec3 = Vec3::new(0.0, -9.81, 0.0);
const DT: f32 = 1.0 / 60.0;

/// A floor at `y = 0`, a 1.3 m high tunnel (a slab from y 1.3 to 2, between x 4 and 8) and a wall at x 12.
const LEVEL: &str = r#"(version: 2,
    planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
    aabbs: [
        (id: 2, min: (4.0, 1.3, -3.0), max: (8.0, 2.0, 3.0)),
        (id: 3, min: (12.0, 0.0, -3.0), max: (13.0, 4.0, 3.0)),
        (id: 4, min: (-8.0, 2.2, -3.0), max: (-4.0, 2.5, 3.0)),
    ])"#;

fn level() -> Scene {
    scene(LEVEL)
}

fn input(wish: Vec2) -> BodyInput {
    BodyInput {
        wish,
        ..BodyInput::default()
    }
}

/// A body settled on the floor at `(x, z)`.
fn settled(scene: &Scene, c: &CharacterController, x: f32, z: f32) -> Body {
    let mut body = Body::new(Vec3::new(x, c.skin, z));
    body.step(c, scene, &BodyInput::default(), G, DT);
    assert!(body.grounded, "{body:?}");
    body
}

/// The highest the feet get in a jump from a settled body, and the steps until it is grounded again.
fn jump_peak(scene: &Scene, c: &CharacterController, dt: f32) -> (f32, usize) {
    let mut body = settled(scene, c, 0.0, 0.0);
    let start = body.feet.y;
    let jump = BodyInput {
        jump: true,
        ..BodyInput::default()
    };
    body.step(c, scene, &jump, G, dt);
    assert!(!body.grounded && body.velocity.y > 0.0, "{body:?}");
    let mut top = body.feet.y;
    let mut steps = 1;
    while !body.grounded && steps < 10_000 {
        body.step(c, scene, &BodyInput::default(), G, dt);
        top = top.max(body.feet.y);
        steps += 1;
    }
    assert!(body.grounded && body.velocity.y == 0.0, "{body:?}");
    // On the floor again: its feet between half a skin and two skins above it.
    assert!(
        body.feet.y >= c.skin / 2.0 && body.feet.y <= 2.0 * c.skin,
        "{body:?}"
    );
    (top - start, steps)
}

#[test]
fn a_jump_peaks_at_jump_height_whatever_the_frame_rate() {
    let scene = level();
    for jump_height in [0.5, 1.0, 2.0] {
        let c = CharacterController {
            jump_height,
            ..CharacterController::default()
        };
        for dt in [1.0 / 30.0, DT, 1.0 / 144.0] {
            let (peak, steps) = jump_peak(&scene, &c, dt);
            assert!(
                (peak - jump_height).abs() <= 0.02 * jump_height,
                "dt {dt}: peak {peak} for {jump_height}"
            );
            // The flight takes 2·v/g seconds: a body in the air is not snapped down onto the ground.
            let v = (2.0 * 9.81 * jump_height).sqrt();
            let flight = 2.0 * v / 9.81;
            let t = steps as f32 * dt;
            assert!(
                (t - flight).abs() <= 2.0 * dt,
                "{jump_height} m at dt {dt}: {steps} steps, {t} s for {flight} s"
            );
        }
    }
}

#[test]
fn standing_still_on_level_ground_stays_put_and_grounded() {
    let scene = level();
    let c = CharacterController::default();
    let mut body = settled(&scene, &c, 1.0, 1.0);
    let at = body.feet;
    for _ in 0..600 {
        let m = body.step(&c, &scene, &BodyInput::default(), G, DT);
        assert!(m.grounded && body.grounded);
        assert_eq!(body.feet, at);
        assert_eq!(body.velocity, Vec3::ZERO);
        assert_eq!(body.ground.map(|g| g.object.0), Some(1));
    }
}

#[test]
fn on_the_ground_the_velocity_is_the_wish_and_in_the_air_it_turns_by_air_accel() {
    let scene = level();
    let c = CharacterController::default();
    let mut body = settled(&scene, &c, -1.0, 0.0);
    body.step(&c, &scene, &input(Vec2::new(2.0, 0.0)), G, DT);
    assert_eq!((body.velocity.x, body.velocity.z), (2.0, 0.0));
    // Jump standing, then ask for 5 m/s along z in the air: the velocity turns by air_accel · dt a step.
    let mut body = settled(&scene, &c, -1.0, 0.0);
    let jump = BodyInput {
        jump: true,
        ..BodyInput::default()
    };
    body.step(&c, &scene, &jump, G, DT);
    let wish = Vec2::new(0.0, 5.0);
    for k in 1..=20 {
        body.step(&c, &scene, &input(wish), G, DT);
        assert!(!body.grounded);
        let expected = (k as f32 * c.air_accel * DT).min(5.0);
        assert!((body.velocity.z - expected).abs() < 1e-4, "{k}: {body:?}");
        assert_eq!(body.velocity.x, 0.0);
    }
    // No air control at all with air_accel 0.
    let still = CharacterController {
        air_accel: 0.0,
        ..c
    };
    let mut body = settled(&scene, &still, -1.0, 0.0);
    body.step(&still, &scene, &jump, G, DT);
    for _ in 0..10 {
        body.step(&still, &scene, &input(wish), G, DT);
    }
    assert_eq!((body.velocity.x, body.velocity.z), (0.0, 0.0));
}

#[test]
fn a_ceiling_takes_the_rise_and_a_wall_in_the_air_the_speed_into_it() {
    let scene = level();
    let c = CharacterController {
        jump_height: 2.0,
        ..CharacterController::default()
    };
    // Under the slab at y 2.2 (x -8 to -4): a 2 m jump meets it with speed to spare.
    let mut body = settled(&scene, &c, -6.0, 0.0);
    let jump = BodyInput {
        jump: true,
        ..BodyInput::default()
    };
    body.step(&c, &scene, &jump, G, DT);
    let mut met = false;
    for _ in 0..60 {
        let m = body.step(&c, &scene, &BodyInput::default(), G, DT);
        if m.hits.iter().any(|h| h.normal.y < -0.5) {
            met = true;
            assert!(body.velocity.y <= 0.0, "{body:?}");
            break;
        }
    }
    assert!(met, "the jump met the ceiling");
    assert!(body.feet.y + c.height <= 2.2, "{body:?}");
    // Jumping toward the wall at x 12 at 6 m/s: in the air, the speed into it goes once it is met.
    let mut body = settled(&scene, &c, 10.5, 0.0);
    let run = BodyInput {
        wish: Vec2::new(6.0, 0.0),
        jump: true,
        crouch: false,
    };
    body.step(&c, &scene, &run, G, DT);
    let mut stopped = false;
    for _ in 0..40 {
        let m = body.step(&c, &scene, &input(Vec2::new(6.0, 0.0)), G, DT);
        if !m.grounded && m.hits.iter().any(|h| h.normal.x < -0.9) {
            assert!(body.velocity.x.abs() < 1e-4, "{body:?}");
            stopped = true;
            break;
        }
    }
    assert!(stopped, "the wall was met in the air: {body:?}");
    assert!(body.feet.x <= 12.0 - c.radius, "{body:?}");
}

#[test]
fn crouching_passes_under_a_low_ceiling_and_stands_up_only_where_it_fits() {
    let scene = level();
    let c = CharacterController::default();
    assert_eq!(c.crouching_height(), 1.0);
    let east = Vec2::new(3.0, 0.0);
    // Standing, the 1.3 m tunnel (x 4 to 8) stops the body at its mouth.
    let mut body = settled(&scene, &c, 2.0, 0.0);
    for _ in 0..120 {
        body.step(&c, &scene, &input(east), G, DT);
    }
    assert!(body.feet.x < 4.0 - c.radius + 0.01, "{body:?}");
    // Crouching, it walks in.
    let crouch = BodyInput {
        wish: east,
        crouch: true,
        jump: false,
    };
    for _ in 0..40 {
        body.step(&c, &scene, &crouch, G, DT);
        assert!(body.crouching && body.grounded, "{body:?}");
    }
    assert!(body.feet.x > 5.0, "{body:?}");
    // Let go inside: it stays crouched (no room), keeps walking, and stands up once out.
    let mut stood_at = None;
    for _ in 0..120 {
        body.step(&c, &scene, &input(east), G, DT);
        if body.feet.x < 8.0 - c.radius {
            assert!(body.crouching, "stood up under the ceiling: {body:?}");
        }
        if !body.crouching && stood_at.is_none() {
            stood_at = Some(body.feet.x);
        }
        if body.feet.x > 10.0 {
            break;
        }
    }
    let x = stood_at.unwrap_or_else(|| panic!("never stood up: {body:?}"));
    assert!(
        x >= 8.0 + c.radius - 0.01 && x < 8.0 + c.radius + 0.1,
        "{x}"
    );
    // Standing again, the whole body fits where it is.
    assert!(scene.overlap_capsule(&c.capsule(body.feet)).is_empty());
}

#[test]
fn the_same_inputs_give_the_same_bits_and_bad_input_moves_nothing() {
    let scene = level();
    let c = CharacterController::default();
    let inputs: Vec<BodyInput> = (0..300)
        .map(|k| BodyInput {
            wish: Vec2::new((k as f32 * 0.1).cos(), (k as f32 * 0.07).sin()) * 4.0,
            jump: k % 50 == 10,
            crouch: (k / 40) % 3 == 1,
        })
        .collect();
    let run = || {
        let mut body = Body::new(Vec3::new(0.0, 0.5, 0.0));
        inputs
            .iter()
            .map(|i| {
                body.step(&c, &scene, i, G, DT);
                body
            })
            .collect::<Vec<_>>()
    };
    let (a, b) = (run(), run());
    assert_eq!(a, b);
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(
            x.feet.to_array().map(f32::to_bits),
            y.feet.to_array().map(f32::to_bits)
        );
    }
    let mut body = settled(&scene, &c, 0.0, 0.0);
    let before = body;
    for (dt, gravity, wish) in [
        (f32::NAN, G, Vec2::ZERO),
        (-DT, G, Vec2::ZERO),
        (f32::INFINITY, G, Vec2::ZERO),
        (DT, Vec3::new(0.0, f32::NAN, 0.0), Vec2::ZERO),
        (DT, G, Vec2::new(f32::INFINITY, 0.0)),
    ] {
        let m = body.step(&c, &scene, &input(wish), gravity, dt);
        assert!(matches!(m.limit, Some(Limit::Invalid { .. })), "{m:?}");
        assert_eq!(body, before);
    }
    let broken = CharacterController {
        jump_height: -1.0,
        ..c
    };
    let m = body.step(&broken, &scene, &BodyInput::default(), G, DT);
    assert!(matches!(&m.limit, Some(Limit::Invalid { reason }) if reason.contains("jump_height")));
    assert_eq!(body, before);
    // Zero dt: nothing moves, nothing is refused.
    let m = body.step(&c, &scene, &input(Vec2::X), G, 0.0);
    assert!(m.limit.is_none() && body.feet == before.feet, "{m:?}");
}

#[test]
fn the_recorder_steps_a_body_as_body_step_does_and_keeps_the_move() {
    let level = Level::from_ron_str(LEVEL).unwrap();
    let scene = Scene::from_level(&level).unwrap();
    let c = CharacterController::default();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    let (mut a, mut b) = (
        Body::new(Vec3::new(0.0, 0.3, 0.0)),
        Body::new(Vec3::new(0.0, 0.3, 0.0)),
    );
    for k in 0..120 {
        rec.begin_frame(f64::from(k) * f64::from(DT));
        let i = BodyInput {
            wish: Vec2::new(3.0, 1.0),
            jump: k == 30,
            crouch: (60..80).contains(&k),
        };
        let ma = a.step(&c, &scene, &i, G, DT);
        let mb = rec.step_body(&scene, &mut b, &c, &i, G, DT);
        assert_eq!((a, &ma), (b, &mb));
    }
    let recording = Recording::from_bytes(&rec.to_bytes()).unwrap();
    let moves: Vec<_> = recording
        .frames
        .iter()
        .flat_map(|f| &f.queries)
        .filter(|q| matches!(q, QueryRecord::Character { .. }))
        .collect();
    assert_eq!(moves.len(), 120);
    for q in moves {
        assert_eq!(
            &q.rerun(&scene),
            q,
            "a recorded body move re-asks to the same bits"
        );
    }
}

#[test]
fn step_bodies_steps_each_body_as_body_step_does() {
    use collidoscope::character::{StepBodiesError, step_bodies};
    let scene = level();
    let small = CharacterController {
        radius: 0.2,
        height: 1.0,
        ..CharacterController::default()
    };
    let controllers = [CharacterController::default(), small];
    let start: Vec<Body> = (0..70)
        .map(|i| {
            Body::new(Vec3::new(
                -6.0 + (i % 10) as f32,
                0.5,
                -2.5 + (i / 10) as f32 * 0.7,
            ))
        })
        .collect();
    let each_c: Vec<CharacterController> = (0..70).map(|i| controllers[i % 2]).collect();
    let inputs: Vec<BodyInput> = (0..70)
        .map(|i| BodyInput {
            wish: Vec2::new((i as f32).cos(), (i as f32).sin()) * 3.0,
            jump: i % 7 == 0,
            crouch: i % 5 == 0,
        })
        .collect();
    let mut crowd = start.clone();
    let mut alone = start.clone();
    for _ in 0..90 {
        step_bodies(&scene, &each_c, &inputs, &mut crowd, G, DT).unwrap();
        for (i, b) in alone.iter_mut().enumerate() {
            b.step(&each_c[i], &scene, &inputs[i], G, DT);
        }
        assert_eq!(crowd, alone);
    }
    // One controller and one input for all.
    let mut crowd = start.clone();
    step_bodies(&scene, &[small], &[inputs[3]], &mut crowd, G, DT).unwrap();
    let mut b = start[69];
    b.step(&small, &scene, &inputs[3], G, DT);
    assert_eq!(crowd[69], b);
    // Lengths that fit neither rule are refused and move nothing.
    let mut crowd = start.clone();
    assert_eq!(
        step_bodies(&scene, &controllers, &inputs, &mut crowd, G, DT),
        Err(StepBodiesError::Controllers {
            controllers: 2,
            bodies: 70
        })
    );
    assert_eq!(
        step_bodies(&scene, &each_c, &inputs[..3], &mut crowd, G, DT),
        Err(StepBodiesError::Inputs {
            inputs: 3,
            bodies: 70
        })
    );
    assert_eq!(crowd, start);
    assert_eq!(step_bodies(&scene, &[], &[], &mut [], G, DT), Ok(()));
}
