//! Character bodies: trigger volumes entered and left as messages (the capsule, head to feet).

use bevy::prelude::*;
use bevy_collidoscope::collidoscope::level::Level;
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
