//! Character bodies: moved each fixed step by the level's character controller with the level's gravity,
//! and trigger volumes entered and left as messages (the capsule, head to feet).

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_collidoscope::collidoscope::character::BodyInput;
use bevy_collidoscope::collidoscope::level::Level;
use bevy_collidoscope::collidoscope::scene::Scene;
use bevy_collidoscope::*;

use crate::common::*;

fn teleport(app: &mut App, body: Entity, to: Vec3) {
    app.world_mut()
        .get_mut::<Transform>(body)
        .unwrap()
        .translation = to;
    app.update();
}

#[test]
fn a_body_entering_and_leaving_the_exit_trigger_sends_messages() {
    let assets = AssetDir::new();
    let mut app = app(assets.root());
    collect::<TriggerEntered>(&mut app);
    collect::<TriggerLeft>(&mut app);
    let root = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard to spawn", |app| spawned(app, root));
    let level = Level::from_ron_str(COURTYARD).unwrap();
    let body = app
        .world_mut()
        .spawn((
            CharacterBody::for_level(&level),
            Transform::from_xyz(12.0, 0.01, 0.0),
        ))
        .id();
    app.update();
    assert!(collected::<TriggerEntered>(&app).is_empty());

    // Into the exit (x from 14): the capsule's radius reaches it first.
    teleport(&mut app, body, Vec3::new(13.75, 0.01, 0.0));
    let exit = ObjectId(40);
    assert_eq!(
        collected::<TriggerEntered>(&app),
        vec![TriggerEntered {
            trigger: exit,
            entity: body
        }]
    );
    assert_eq!(
        app.world().get::<CharacterState>(body).unwrap().triggers(),
        [exit]
    );
    // Staying inside sends nothing more.
    teleport(&mut app, body, Vec3::new(15.0, 0.01, 0.0));
    assert_eq!(collected::<TriggerEntered>(&app).len(), 1);
    assert!(collected::<TriggerLeft>(&app).is_empty());
    // Out again.
    teleport(&mut app, body, Vec3::new(12.0, 0.01, 0.0));
    assert_eq!(
        collected::<TriggerLeft>(&app),
        vec![TriggerLeft {
            trigger: exit,
            entity: body
        }]
    );
    assert!(
        app.world()
            .get::<CharacterState>(body)
            .unwrap()
            .triggers()
            .is_empty()
    );
    // Into the fountain's prism (id 41) and straight on into... nothing else.
    teleport(&mut app, body, Vec3::new(0.0, 0.01, 4.0));
    assert_eq!(
        collected::<TriggerEntered>(&app).last().unwrap().trigger,
        ObjectId(41)
    );
}

#[test]
fn the_whole_capsule_counts_not_only_the_feet() {
    let assets = AssetDir::new();
    std::fs::write(
        assets.path("levels/lamp.ron"),
        r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
            triggers: [(id: 9, name: "lamp", shape: Sphere((center: (0.0, 2.0, 0.0), radius: 0.3)))])"#,
    )
    .unwrap();
    let mut app = app(assets.root());
    collect::<TriggerEntered>(&mut app);
    collect::<TriggerLeft>(&mut app);
    let root = spawn_root(&mut app, "levels/lamp.ron");
    update_until(&mut app, "the lamp level", |app| spawned(app, root));
    // Default body: 1.8 m tall, so its head (top of the capsule at 1.8) touches a lamp hanging from 1.7.
    let body = app
        .world_mut()
        .spawn((
            CharacterBody::default(),
            Transform::from_xyz(0.0, 0.01, 0.0),
        ))
        .id();
    app.update();
    assert_eq!(
        collected::<TriggerEntered>(&app),
        vec![TriggerEntered {
            trigger: ObjectId(9),
            entity: body
        }]
    );
    // Two bodies are told apart.
    let other = app
        .world_mut()
        .spawn((
            CharacterBody::default(),
            Transform::from_xyz(0.2, 0.01, 0.0),
        ))
        .id();
    app.update();
    assert_eq!(collected::<TriggerEntered>(&app)[1].entity, other);
    // A reload without the trigger: both leave it.
    write_atomically(
        &assets.path("levels/lamp.ron"),
        r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)])"#,
    );
    update_until(&mut app, "both bodies to leave", |app| {
        collected::<TriggerLeft>(app).len() == 2
    });
    let mut left: Vec<Entity> = collected::<TriggerLeft>(&app)
        .iter()
        .map(|m| m.entity)
        .collect();
    left.sort();
    let mut both = vec![body, other];
    both.sort();
    assert_eq!(left, both);
}

/// A floor (a plane at y = 0), a wall along x = 3 (2 m high) and a gravity of 10 m/s² down.
const ROOM: &str = r#"(version: 2, name: "room",
    planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
    aabbs: [(id: 2, min: (3.0, 0.0, -5.0), max: (4.0, 2.0, 5.0))],
    simulation: (gravity: (0.0, -10.0, 0.0), dt: 0.015625))"#;

fn room_app() -> (AssetDir, App, Entity) {
    let assets = AssetDir::new();
    std::fs::write(assets.path("levels/room.ron"), ROOM).unwrap();
    let mut app = app(assets.root());
    let root = spawn_root(&mut app, "levels/room.ron");
    update_until(&mut app, "the room", |app| spawned(app, root));
    (assets, app, root)
}

fn body(app: &App, e: Entity) -> (CharacterBody, Vec3) {
    let world = app.world();
    (
        *world.get::<CharacterBody>(e).unwrap(),
        world.get::<Transform>(e).unwrap().translation,
    )
}

/// Steps `e` one fixed step with `input`, and the same step by the runtime's `Body::step` from the body as it
/// was: the plugin's body, feet and move must equal the runtime's bit for bit.
fn step_both(
    app: &mut App,
    scene: &Scene,
    e: Entity,
    input: BodyInput,
    what: &str,
) -> CharacterBody {
    app.world_mut().get_mut::<CharacterBody>(e).unwrap().input = input;
    let (before, feet) = body(app, e);
    app.update();
    let (after, end) = body(app, e);
    let mut want = before.body;
    want.feet = feet;
    let m = want.step(
        &before.controller,
        scene,
        &input,
        Vec3::new(0.0, -10.0, 0.0),
        1.0 / 64.0,
    );
    assert_eq!(after.body, want, "{what}");
    assert_eq!(
        end.to_array().map(f32::to_bits),
        want.feet.to_array().map(f32::to_bits),
        "{what}"
    );
    assert_eq!(
        app.world().get::<CharacterState>(e).unwrap().last_move(),
        Some(&m),
        "{what}"
    );
    after
}

fn room_scene() -> Scene {
    Scene::from_level(&Level::from_ron_str(ROOM).unwrap()).unwrap()
}

#[test]
fn a_body_falls_with_the_levels_gravity_and_lands_on_its_feet() {
    let (_assets, mut app, _) = room_app();
    let e = app
        .world_mut()
        .spawn((CharacterBody::default(), Transform::from_xyz(0.0, 2.0, 0.0)))
        .id();
    // Each update is one fixed step of 1/64 s; each step is exactly the runtime's `Body::step`.
    let scene = room_scene();
    let mut landed_at = None;
    for step in 0..120 {
        let after = step_both(
            &mut app,
            &scene,
            e,
            BodyInput::default(),
            &format!("step {step}"),
        );
        if after.body.grounded && landed_at.is_none() {
            landed_at = Some(step);
            // Landing spends the vertical speed.
            assert_eq!(after.body.velocity, Vec3::ZERO);
        }
    }
    // 2 m at 10 m/s² (a body in the air is not snapped down): about 0.63 s, 40 steps.
    let landed_at = landed_at.unwrap();
    assert!((38..=42).contains(&landed_at), "{landed_at}");
    // Standing: on the floor by the skin, grounded every step since, at rest.
    let (b, feet) = body(&app, e);
    assert!(b.body.grounded);
    assert!(
        feet.y >= b.controller.skin / 2.0 && feet.y <= 2.0 * b.controller.skin,
        "{feet}"
    );
    assert_eq!((feet.x, feet.z), (0.0, 0.0));
}

#[test]
fn the_games_input_walks_jumps_and_crouches_the_body_as_body_step_does() {
    let (_assets, mut app, _) = room_app();
    let e = app
        .world_mut()
        .spawn((
            CharacterBody::default(),
            Transform::from_xyz(0.0, 0.01, 0.0),
        ))
        .id();
    let scene = room_scene();
    // Inputs a game might give: walk, jump, steer in the air, crouch, stand, against the wall at x = 3.
    for k in 0..200 {
        let input = BodyInput {
            wish: Vec2::new(4.0 * (k as f32 * 0.05).cos(), 1.0),
            jump: k == 20 || k == 120,
            crouch: (60..90).contains(&k),
        };
        step_both(&mut app, &scene, e, input, &format!("step {k}"));
    }
    let (b, feet) = body(&app, e);
    assert!(b.body.grounded && feet.x < 3.0 - 0.3, "{feet}");
}

#[test]
fn a_wall_stops_the_body_and_the_wish_stays_the_games() {
    let (_assets, mut app, _) = room_app();
    let e = app
        .world_mut()
        .spawn((
            CharacterBody::default(),
            Transform::from_xyz(0.0, 0.01, 0.0),
        ))
        .id();
    app.world_mut()
        .get_mut::<CharacterBody>(e)
        .unwrap()
        .input
        .wish = Vec2::new(4.0, 1.0);
    for _ in 0..64 {
        app.update();
    }
    let (b, feet) = body(&app, e);
    // Against the wall at x = 3 (radius 0.3, skin 0.01), slid 1 m along it in the second.
    assert!(feet.x < 3.0 - 0.3 && feet.x > 3.0 - 0.3 - 0.03, "{feet}");
    assert!((feet.z - 1.0).abs() < 0.05, "{feet}");
    assert!(b.body.grounded);
    // On the ground the velocity is the wish; the input is as the game set it.
    assert_eq!((b.body.velocity.x, b.body.velocity.z), (4.0, 1.0));
    assert_eq!(b.input.wish, Vec2::new(4.0, 1.0));
}

#[test]
fn a_jump_rises_to_the_jump_height_and_comes_back_down_grounded() {
    let (_assets, mut app, _) = room_app();
    let e = app
        .world_mut()
        .spawn((
            CharacterBody::default(),
            Transform::from_xyz(0.0, 0.01, 0.0),
        ))
        .id();
    app.update();
    assert!(body(&app, e).0.body.grounded);
    app.world_mut()
        .get_mut::<CharacterBody>(e)
        .unwrap()
        .input
        .jump = true;
    app.update();
    app.world_mut()
        .get_mut::<CharacterBody>(e)
        .unwrap()
        .input
        .jump = false;
    let mut top: f32 = 0.0;
    let mut airborne = 0;
    for _ in 0..128 {
        app.update();
        let (b, feet) = body(&app, e);
        top = top.max(feet.y);
        airborne += u32::from(!b.body.grounded);
    }
    // jump_height 1 m over the skin: 2·sqrt(2·g·h)/g = 0.89 s in the air at 10 m/s², 57 steps.
    let jump = CharacterController::default().jump_height;
    assert!((top - 0.01 - jump).abs() < 0.02 * jump, "{top}");
    assert!((54..=60).contains(&airborne), "{airborne}");
    assert!(body(&app, e).0.body.grounded);
}

#[test]
fn bodies_wait_for_a_level() {
    let assets = AssetDir::new();
    let mut app = app(assets.root());
    let e = app
        .world_mut()
        .spawn((CharacterBody::default(), Transform::from_xyz(0.0, 5.0, 0.0)))
        .id();
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(body(&app, e).1, Vec3::new(0.0, 5.0, 0.0));
    assert_eq!(body(&app, e).0.body.velocity, Vec3::ZERO);
    let moved = app
        .world_mut()
        .run_system_once(|scene: LevelScene| {
            let c = CharacterController::default();
            scene.move_character(&c, Vec3::ZERO, Vec3::X)
        })
        .unwrap();
    // Nothing there: a free move.
    assert_eq!(moved.feet, Vec3::X);
}
