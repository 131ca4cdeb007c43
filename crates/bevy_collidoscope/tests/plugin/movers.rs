//! Movers: entities whose `Transform` follows the scene time (advanced each fixed step before the bodies
//! step), and a door started when a character enters its trigger.

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_collidoscope::collidoscope::glam::Vec3 as CVec3;
use bevy_collidoscope::collidoscope::level::Level;
use bevy_collidoscope::collidoscope::shape::Ray;
use bevy_collidoscope::*;

use crate::common::*;

/// A lift (object 1, mover 2) going up 4 m at 1 m/s, and a door (object 3, mover 4) that trigger 5 starts.
const MOVERS: &str = r#"(version: 3, name: "movers",
    planes: [(id: 9, normal: (0.0, 1.0, 0.0), d: 0.0)],
    aabbs: [(id: 1, min: (-1.0, 0.0, -1.0), max: (1.0, 0.5, 1.0)),
            (id: 3, min: (14.0, 0.0, -1.0), max: (14.2, 3.0, 1.0))],
    movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 4.0, 0.0)], speed: 1.0, repeat: Once),
             (id: 4, object: 3, path: [(0.0, 0.0, 0.0), (0.0, 3.0, 0.0)], speed: 1.0, repeat: Once,
              start: OnTrigger(5))],
    triggers: [(id: 5, shape: Aabb((min: (9.0, 0.0, -1.0), max: (11.0, 2.0, 1.0))))])"#;

fn mover_entity(app: &mut App, id: u32) -> Option<(Entity, Vec3)> {
    let mut q = app.world_mut().query::<(Entity, &LevelMover, &Transform)>();
    q.iter(app.world())
        .find(|(_, m, _)| m.mover == ObjectId(id))
        .map(|(e, _, t)| (e, t.translation))
}

fn scene_time(app: &mut App) -> f32 {
    app.world_mut()
        .run_system_once(|scene: LevelScene| scene.scene().time())
        .unwrap()
}

fn spawn_movers(app: &mut App, assets: &AssetDir) -> Entity {
    std::fs::write(assets.path("levels/movers.ron"), MOVERS).unwrap();
    let root = spawn_root(app, "levels/movers.ron");
    update_until(app, "the movers to spawn", |app| {
        spawned(app, root) && mover_entity(app, 2).is_some()
    });
    root
}

#[test]
fn a_mover_entity_follows_the_scene_time() {
    let assets = AssetDir::new();
    let mut app = app(assets.root());
    let root = spawn_movers(&mut app, &assets);
    let (lift, _) = mover_entity(&mut app, 2).unwrap();
    assert_eq!(app.world().get::<ChildOf>(lift).unwrap().parent(), root);
    for _ in 0..40 {
        app.update();
        let t = scene_time(&mut app);
        assert!(t > 0.0);
        let (_, at) = mover_entity(&mut app, 2).unwrap();
        assert!((at.y - t.min(4.0)).abs() < 1e-4, "{at} at {t}");
        // The queries meet the lift where its entity is.
        let top = app
            .world_mut()
            .run_system_once(|scene: LevelScene| {
                scene
                    .cast_ray(&Ray::new(CVec3::new(0.0, 20.0, 0.0), -CVec3::Y), 40.0)
                    .map(|h| h.point.y)
            })
            .unwrap()
            .unwrap();
        assert!((top - 0.5 - at.y).abs() < 1e-4, "{top} {at}");
        // The door waits for its trigger.
        assert_eq!(mover_entity(&mut app, 4).unwrap().1, Vec3::ZERO);
    }
}

#[test]
fn a_character_entering_the_trigger_starts_the_door() {
    let assets = AssetDir::new();
    let mut app = app(assets.root());
    collect::<TriggerEntered>(&mut app);
    spawn_movers(&mut app, &assets);
    let level = Level::from_ron_str(MOVERS).unwrap();
    app.world_mut().spawn((
        CharacterBody::for_level(&level),
        Transform::from_xyz(10.0, 0.01, 0.0),
    ));
    update_until(&mut app, "the trigger", |app| {
        !collected::<TriggerEntered>(app).is_empty()
    });
    assert_eq!(collected::<TriggerEntered>(&app)[0].trigger, ObjectId(5));
    let started = app
        .world_mut()
        .run_system_once(|scene: LevelScene| scene.scene().movers()[1].started)
        .unwrap();
    let start = started.expect("the door started");
    for _ in 0..30 {
        app.update();
    }
    let t = scene_time(&mut app);
    let (_, door) = mover_entity(&mut app, 4).unwrap();
    assert!(
        (door.y - (t - start)).abs() < 1e-4,
        "{door} at {t}, started {start}"
    );
    assert!(door.y > 0.3);
}
