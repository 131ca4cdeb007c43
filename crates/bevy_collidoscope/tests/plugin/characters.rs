//! Character bodies: moved each fixed step by the level's character controller with the level's gravity,
//! and trigger volumes entered and left as messages (the capsule, head to feet).

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
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

#[test]
fn a_body_falls_with_the_levels_gravity_and_lands_on_its_feet() {
    let (_assets, mut app, _) = room_app();
    let e = app
        .world_mut()
        .spawn((CharacterBody::default(), Transform::from_xyz(0.0, 2.0, 0.0)))
        .id();
    // Each update is one fixed step of 1/64 s; each step is exactly the runtime's move with the velocity
    // after gravity.
    let scene = Scene::from_level(&Level::from_ron_str(ROOM).unwrap()).unwrap();
    let dt = 1.0 / 64.0;
    let mut landed_at = None;
    for step in 0..120 {
        let (before, feet) = body(&app, e);
        app.update();
        let (after, end) = body(&app, e);
        let velocity = before.velocity + Vec3::new(0.0, -10.0, 0.0) * dt;
        let want = before.controller.move_character(
            &scene,
            feet.to_collidoscope(),
            (velocity * dt).to_collidoscope(),
        );
        assert_eq!(end, want.feet.to_bevy(), "step {step}");
        assert_eq!(after.grounded, want.grounded, "step {step}");
        assert_eq!(
            app.world().get::<CharacterState>(e).unwrap().last_move(),
            Some(&want)
        );
        if after.grounded && landed_at.is_none() {
            landed_at = Some(step);
            // Landing spends the vertical speed.
            assert_eq!(after.velocity, Vec3::ZERO);
        }
        if landed_at.is_none() {
            assert!((after.velocity.y - velocity.y).abs() < 1e-6, "step {step}");
        }
    }
    // 2 m at 10 m/s², less the snap (0.4 m: a falling body is put on ground that near): about 0.57 s, 36
    // steps.
    let landed_at = landed_at.unwrap();
    assert!((34..=38).contains(&landed_at), "{landed_at}");
    // Standing: on the floor by the skin, grounded every step since, at rest.
    let (b, feet) = body(&app, e);
    assert!(b.grounded);
    assert!(
        feet.y >= b.controller.skin / 2.0 && feet.y <= 2.0 * b.controller.skin,
        "{feet}"
    );
    assert_eq!((feet.x, feet.z), (0.0, 0.0));
}

#[test]
fn the_horizontal_velocity_is_the_games_and_a_wall_stops_the_body_not_the_velocity() {
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
        .velocity = Vec3::new(4.0, 0.0, 1.0);
    for _ in 0..64 {
        app.update();
    }
    let (b, feet) = body(&app, e);
    // Against the wall at x = 3 (radius 0.3, skin 0.01), slid 1 m along it in the second.
    assert!(feet.x < 3.0 - 0.3 && feet.x > 3.0 - 0.3 - 0.03, "{feet}");
    assert!((feet.z - 1.0).abs() < 0.05, "{feet}");
    assert!(b.grounded);
    // The velocity is as the game set it: the plugin keeps the horizontal part.
    assert_eq!((b.velocity.x, b.velocity.z), (4.0, 1.0));
}

#[test]
fn a_jump_rises_and_comes_back_down_grounded() {
    let (_assets, mut app, _) = room_app();
    let e = app
        .world_mut()
        .spawn((
            CharacterBody::default(),
            Transform::from_xyz(0.0, 0.01, 0.0),
        ))
        .id();
    app.update();
    assert!(body(&app, e).0.grounded);
    app.world_mut()
        .get_mut::<CharacterBody>(e)
        .unwrap()
        .velocity
        .y = 5.0;
    let mut top: f32 = 0.0;
    let mut airborne = 0;
    for _ in 0..128 {
        app.update();
        let (b, feet) = body(&app, e);
        top = top.max(feet.y);
        airborne += u32::from(!b.grounded);
    }
    // v²/2g = 1.25 m; about 1 s in the air.
    assert!((top - 1.25).abs() < 0.1, "{top}");
    assert!((55..=70).contains(&airborne), "{airborne}");
    assert!(body(&app, e).0.grounded);
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
    assert_eq!(body(&app, e).0.velocity, Vec3::ZERO);
    let moved = app
        .world_mut()
        .run_system_once(|scene: LevelScene| {
            let c = CharacterController::default();
            scene.move_character(&c, Vec3::ZERO.to_collidoscope(), Vec3::X.to_collidoscope())
        })
        .unwrap();
    // Nothing there: a free move.
    assert_eq!(moved.feet.to_bevy(), Vec3::X);
}
