//! A level root spawns one child per level entity, with its transform, and the game's components from the
//! entities' typed fields.

use bevy::prelude::*;
use bevy_collidoscope::collidoscope::level::Level;
use bevy_collidoscope::*;

use crate::common::*;

#[test]
fn a_root_spawns_one_child_per_level_entity_with_its_transform() {
    let assets = AssetDir::new();
    let mut app = app(assets.root());
    collect::<LevelSpawned>(&mut app);
    let root = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard to spawn", |app| spawned(app, root));

    let level = Level::from_ron_str(COURTYARD).unwrap();
    let children = children_of(&mut app, root);
    assert_eq!(
        children.iter().map(|(id, _)| *id).collect::<Vec<_>>(),
        vec![30, 31, 32, 33, 34, 35]
    );
    for (id, entity) in &children {
        let e = level.entities.iter().find(|e| e.id.0 == *id).unwrap();
        let world = app.world();
        let le = world.get::<LevelEntity>(*entity).unwrap();
        assert_eq!(le.id.0, *id);
        assert_eq!(le.entity_type, e.entity_type);
        let t = world.get::<Transform>(*entity).unwrap();
        assert_eq!(
            t.translation,
            Vec3::new(e.position.x, e.position.y, e.position.z)
        );
        assert_eq!(t.rotation, Quat::from_rotation_y(e.yaw_deg.to_radians()));
        assert_eq!(t.scale, Vec3::ONE);
        assert_eq!(world.get::<ChildOf>(*entity).unwrap().parent(), root);
        let root_entities = world.get::<LevelEntities>(root).unwrap();
        assert_eq!(root_entities.get(e.id), Some(*entity));
    }
    // Named after the level entity (or its type and id).
    let name = |id: u32| {
        let e = children.iter().find(|(i, _)| *i == id).unwrap().1;
        app.world().get::<Name>(e).unwrap().as_str().to_owned()
    };
    assert_eq!(name(34), "east door");
    assert_eq!(name(31), "pickup #31");
    // The door faces 90° about +y: its forward (-z) turned to -x.
    let door = children.iter().find(|(i, _)| *i == 34).unwrap().1;
    let forward = app.world().get::<Transform>(door).unwrap().forward();
    assert!(
        (forward.as_vec3() - Vec3::NEG_X).length() < 1e-6,
        "{forward:?}"
    );
    assert_eq!(
        collected::<LevelSpawned>(&app),
        vec![LevelSpawned {
            root,
            reload: false
        }]
    );
}

#[test]
fn registered_components_come_from_the_typed_fields_with_their_defaults() {
    #[derive(Component, Debug, PartialEq, serde::Deserialize)]
    struct Spawn {
        team: String,
        health: f64,
    }
    #[derive(Component, Debug, PartialEq, serde::Deserialize)]
    struct Switch {
        opens: ObjectId,
        label: Option<String>,
    }
    let assets = AssetDir::new();
    let mut app = app(assets.root());
    app.register_level_entity::<Pickup>("pickup")
        .register_level_entity::<Spawn>("spawn")
        .register_level_entity::<Switch>("switch");
    let root = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard to spawn", |app| spawned(app, root));

    let mut pickups: Vec<(u32, Pickup)> = app
        .world_mut()
        .query::<(&LevelEntity, &Pickup)>()
        .iter(app.world())
        .map(|(l, p)| (l.id.0, p.clone()))
        .collect();
    pickups.sort_by_key(|(id, _)| *id);
    let pickup = |kind: &str, amount| Pickup {
        kind: kind.into(),
        amount,
    };
    assert_eq!(
        pickups,
        vec![
            (31, pickup("coin", 1)), // every field from the type's defaults
            (32, pickup("coin", 5)),
            (33, pickup("health", 25)),
        ]
    );
    let mut spawns = app.world_mut().query::<&Spawn>();
    assert_eq!(
        spawns.iter(app.world()).collect::<Vec<_>>(),
        vec![&Spawn {
            team: "red".into(),
            health: 100.0
        }]
    );
    let mut switches = app.world_mut().query::<(&Switch, &ChildOf)>();
    let (switch, parent) = switches.single(app.world()).unwrap();
    assert_eq!(switch.opens, ObjectId(34));
    assert_eq!(switch.label.as_deref(), Some("open the east door"));
    // A `Ref` field finds the Bevy entity it names through the root.
    let door = app
        .world()
        .get::<LevelEntities>(parent.parent())
        .unwrap()
        .get(switch.opens)
        .unwrap();
    assert_eq!(
        app.world().get::<LevelEntity>(door).unwrap().entity_type,
        "door"
    );
    // Types without a registration get only the plugin's components.
    let mut doors = app.world_mut().query::<(&LevelEntity, Option<&Pickup>)>();
    assert!(
        doors
            .iter(app.world())
            .filter(|(l, _)| l.entity_type == "door")
            .all(|(_, p)| p.is_none())
    );
}

#[test]
fn a_component_that_does_not_fit_the_fields_is_reported_and_left_out() {
    #[derive(Component, Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Wrong {
        amount: String, // an Int in the level
    }
    let assets = AssetDir::new();
    let mut app = app(assets.root());
    app.register_level_entity::<Wrong>("pickup")
        .register_level_entity::<Pickup>("pickup");
    collect::<LevelEntityError>(&mut app);
    let root = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard to spawn", |app| spawned(app, root));

    let errors = collected::<LevelEntityError>(&app);
    assert_eq!(
        errors.iter().map(|e| e.id.0).collect::<Vec<_>>(),
        vec![31, 32, 33]
    );
    for e in &errors {
        assert!(e.message.contains("fields.amount"), "{}", e.message);
        // The entity is there, with what could be built.
        assert!(app.world().get::<Pickup>(e.entity).is_some());
        assert!(app.world().get::<Wrong>(e.entity).is_none());
    }
}

#[test]
fn a_level_made_in_code_spawns_without_any_file() {
    let assets = AssetDir::new();
    let mut app = app(assets.root());
    let level = Level::from_ron_str(
        r#"(version: 2, entity_types: [(name: "lamp")],
            entities: [(id: 7, entity_type: "lamp", position: (1.0, 2.0, 3.0), yaw_deg: 180.0)])"#,
    )
    .unwrap();
    let handle = app
        .world_mut()
        .resource_mut::<bevy::asset::Assets<LevelAsset>>()
        .add(LevelAsset::new(level).unwrap());
    let root = app.world_mut().spawn(LevelRoot(handle)).id();
    app.update();
    let children = children_of(&mut app, root);
    assert_eq!(children.len(), 1);
    let t = app.world().get::<Transform>(children[0].1).unwrap();
    assert_eq!(t.translation, Vec3::new(1.0, 2.0, 3.0));
    assert_eq!(t.rotation, Quat::from_rotation_y(std::f32::consts::PI));
    // Validation errors are refused with their field.
    let bad = Level::from_ron_str(
        r#"(version: 2, entities: [(id: 7, entity_type: "nope", position: (0.0, 0.0, 0.0))])"#,
    )
    .unwrap();
    let err = LevelAsset::new(bad).unwrap_err();
    assert!(err.to_string().contains("entities[0]"), "{err}");
    assert_eq!(err.line_col(), Some((1, 33)), "{err}");
}

#[test]
fn despawning_the_root_despawns_its_level_and_the_scene_empties() {
    let assets = AssetDir::new();
    let mut app = app(assets.root());
    let root = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard to spawn", |app| spawned(app, root));
    assert_eq!(children_of(&mut app, root).len(), 6);
    app.world_mut().entity_mut(root).despawn();
    app.update();
    let mut q = app.world_mut().query::<&LevelEntity>();
    assert_eq!(q.iter(app.world()).count(), 0);
    let loaded = app
        .world_mut()
        .run_system_once(|scene: LevelScene| scene.is_loaded())
        .unwrap();
    assert!(!loaded);
}

use bevy::ecs::system::RunSystemOnce;
