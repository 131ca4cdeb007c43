//! Hot reload through Bevy's file watcher: saves as the editor makes them (a temporary file renamed over the
//! level) respawn what changed and keep the Bevy entities of what did not; a broken save keeps the last good
//! level and is reported with its file, line and column.

use std::time::Duration;

use bevy::asset::AssetLoadFailedEvent;
use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_collidoscope::collidoscope::glam;
use bevy_collidoscope::collidoscope::level::{Level, ObjectId, Value, WallObject};
use bevy_collidoscope::collidoscope::shape::Ray;
use bevy_collidoscope::*;

use crate::common::*;

/// A ray along +x at the height of a wall, from the courtyard's west side: what `LevelScene` says it hits.
fn east_ray_hit(app: &mut App) -> Option<SceneHit> {
    app.world_mut()
        .run_system_once(|scene: LevelScene| {
            scene.cast_ray(
                &Ray::new(glam::Vec3::new(-5.0, 1.0, -5.0), glam::Vec3::X),
                100.0,
            )
        })
        .unwrap()
}

#[test]
fn a_save_adds_moves_and_removes_entities_and_keeps_the_unchanged_ones() {
    let assets = AssetDir::new();
    let path = assets.path("levels/courtyard.ron");
    let mut app = app(assets.root());
    app.register_level_entity::<Pickup>("pickup");
    collect::<LevelSpawned>(&mut app);
    let root = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard to spawn", |app| spawned(app, root));
    let before = children_of(&mut app, root);
    assert_eq!(east_ray_hit(&mut app).unwrap().object, ObjectId(4));

    // The editor's edit: pickup 33 moved, switch 35 removed, a pickup 50 added, a wall in the ray's way.
    let mut level = Level::load(&path).unwrap();
    level
        .entities
        .iter_mut()
        .find(|e| e.id.0 == 33)
        .unwrap()
        .position = glam::Vec3::new(3.0, 0.5, 3.0);
    level.entities.retain(|e| e.id.0 != 35);
    let mut added = level.entities[1].clone();
    added.id = ObjectId(50);
    added.position = glam::Vec3::new(-3.0, 0.5, -3.0);
    added.fields.insert("amount".into(), Value::Int(7));
    level.entities.push(added);
    level.walls.push(WallObject {
        id: ObjectId(51),
        ..level.walls[0].clone()
    });
    let w = level.walls.last_mut().unwrap();
    (w.a, w.b, w.name) = (glam::Vec2::new(0.0, -8.0), glam::Vec2::new(0.0, -2.0), None);
    save_atomically(&level, &path);

    update_until(&mut app, "the reload", |app| {
        collected::<LevelSpawned>(app).len() == 2
    });
    assert_eq!(
        collected::<LevelSpawned>(&app)[1],
        LevelSpawned { root, reload: true }
    );
    let after = children_of(&mut app, root);
    let ids = |v: &[(u32, Entity)]| v.iter().map(|(id, _)| *id).collect::<Vec<_>>();
    assert_eq!(ids(&after), vec![30, 31, 32, 33, 34, 50]);
    let entity = |v: &[(u32, Entity)], id: u32| v.iter().find(|(i, _)| *i == id).unwrap().1;
    // Unchanged: the very same Bevy entities.
    for id in [30, 31, 32, 34] {
        assert_eq!(entity(&after, id), entity(&before, id), "entity {id}");
    }
    // Moved: respawned where it now is, with its component.
    let moved = entity(&after, 33);
    assert_ne!(moved, entity(&before, 33));
    assert!(app.world().get_entity(entity(&before, 33)).is_err());
    assert_eq!(
        app.world().get::<Transform>(moved).unwrap().translation,
        Vec3::new(3.0, 0.5, 3.0)
    );
    assert_eq!(app.world().get::<Pickup>(moved).unwrap().amount, 25);
    // Added, with its fields.
    let new = entity(&after, 50);
    assert_eq!(app.world().get::<Pickup>(new).unwrap().amount, 7);
    assert_eq!(app.world().get::<ChildOf>(new).unwrap().parent(), root);
    // Removed: despawned.
    assert!(app.world().get_entity(entity(&before, 35)).is_err());
    // The scene is the new level's: the ray now meets the new wall first.
    assert_eq!(east_ray_hit(&mut app).unwrap().object, ObjectId(51));
    assert_eq!(spawned_level(&app, root), Level::load(&path).unwrap());
}

#[test]
fn a_broken_save_keeps_the_last_good_level_and_reports_file_line_and_column() {
    let assets = AssetDir::new();
    let path = assets.path("levels/courtyard.ron");
    let mut app = app(assets.root());
    collect::<LevelSpawned>(&mut app);
    collect::<AssetLoadFailedEvent<LevelAsset>>(&mut app);
    let root = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard to spawn", |app| spawned(app, root));
    let before = children_of(&mut app, root);
    let hit = east_ray_hit(&mut app);

    // A syntax error on line 9 (a wall's radius that is not a number).
    let broken = COURTYARD.replacen(
        "radius: 0.25),\n        (id: 2",
        "radius: wide),\n        (id: 2",
        1,
    );
    assert_ne!(broken, COURTYARD);
    write_atomically(&path, &broken);
    update_until(&mut app, "the failed reload", |app| {
        !collected::<AssetLoadFailedEvent<LevelAsset>>(app).is_empty()
    });
    let failed = collected::<AssetLoadFailedEvent<LevelAsset>>(&app);
    let err = LevelLoadError::from_asset_error(&failed[0].error).unwrap();
    let (line, col) = err.line_col().unwrap();
    assert_eq!(line, 9, "{err}");
    assert!(
        err.to_string()
            .starts_with(&format!("levels/courtyard.ron:9:{col}: walls[0].radius")),
        "{err}"
    );
    // Everything as it was.
    update_for(&mut app, Duration::from_millis(100));
    assert_eq!(children_of(&mut app, root), before);
    assert_eq!(east_ray_hit(&mut app), hit);
    assert_eq!(collected::<LevelSpawned>(&app).len(), 1);

    // A level that parses but is invalid (a pickup's amount out of its range) is refused the same way, with
    // the line and column of the field.
    let invalid = COURTYARD.replace("\"amount\": Int(5)", "\"amount\": Int(500)");
    write_atomically(&path, &invalid);
    // (One save may be seen as more than one change: wait for the invalid level's own report.)
    let invalid_error = |app: &App| {
        collected::<AssetLoadFailedEvent<LevelAsset>>(app)
            .iter()
            .find_map(|f| match LevelLoadError::from_asset_error(&f.error) {
                Some(e @ LevelLoadError::Invalid { .. }) => Some(e.to_string()),
                _ => None,
            })
    };
    update_until(&mut app, "the second failed reload", |app| {
        invalid_error(app).is_some()
    });
    let failed = collected::<AssetLoadFailedEvent<LevelAsset>>(&app);
    let err = failed
        .iter()
        .filter_map(|f| LevelLoadError::from_asset_error(&f.error))
        .find(|e| matches!(e, LevelLoadError::Invalid { .. }))
        .unwrap();
    let line = invalid
        .lines()
        .position(|l| l.contains("Int(500)"))
        .unwrap()
        + 1;
    assert_eq!(err.line_col().map(|(l, _)| l), Some(line), "{err}");
    assert!(
        err.to_string().contains("entities[2].fields.amount"),
        "{err}"
    );
    assert_eq!(children_of(&mut app, root), before);

    // Fixed (and pickup 32 given 6): the next save loads again; only the changed pickup is respawned.
    write_atomically(
        &path,
        &COURTYARD.replace("\"amount\": Int(5)", "\"amount\": Int(6)"),
    );
    update_until(&mut app, "the good reload", |app| {
        collected::<LevelSpawned>(app).len() == 2
    });
    let after = children_of(&mut app, root);
    for ((id, a), (_, b)) in after.iter().zip(&before) {
        assert_eq!(a == b, *id != 32, "entity {id}");
    }
}

#[test]
fn a_save_that_changes_nothing_is_not_a_reload() {
    let assets = AssetDir::new();
    let path = assets.path("levels/courtyard.ron");
    let mut app = app(assets.root());
    collect::<LevelSpawned>(&mut app);
    let root = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard to spawn", |app| spawned(app, root));
    // The same level in the canonical layout the editor writes: other bytes, the same level.
    let level = Level::load(&path).unwrap();
    save_atomically(&level, &path);
    // Then a real change, so the test knows the first save has been through the watcher.
    let mut moved = level.clone();
    moved.entities[0].position.x += 1.0;
    update_for(&mut app, Duration::from_millis(600));
    save_atomically(&moved, &path);
    update_until(&mut app, "the real reload", |app| {
        collected::<LevelSpawned>(app).len() >= 2
    });
    update_for(&mut app, Duration::from_millis(100));
    assert_eq!(
        collected::<LevelSpawned>(&app),
        vec![
            LevelSpawned {
                root,
                reload: false
            },
            LevelSpawned { root, reload: true }
        ]
    );
}

#[test]
fn a_level_that_fails_to_load_is_an_asset_event_not_a_panic() {
    let assets = AssetDir::new();
    std::fs::write(
        assets.path("levels/broken.ron"),
        "(version: 2,\n  walls: [(id: 1, a: (0.0, 0.0)]\n)",
    )
    .unwrap();
    let mut app = app(assets.root());
    collect::<AssetLoadFailedEvent<LevelAsset>>(&mut app);
    let root = spawn_root(&mut app, "levels/broken.ron");
    update_until(&mut app, "the failed load", |app| {
        !collected::<AssetLoadFailedEvent<LevelAsset>>(app).is_empty()
    });
    let failed = collected::<AssetLoadFailedEvent<LevelAsset>>(&app);
    assert_eq!(failed[0].path.to_string(), "levels/broken.ron");
    let err = LevelLoadError::from_asset_error(&failed[0].error).unwrap();
    assert_eq!(err.line_col().map(|(l, _)| l), Some(2), "{err}");
    assert!(err.to_string().starts_with("levels/broken.ron:2:"), "{err}");
    // Bevy's own message carries it too.
    assert!(
        failed[0].error.to_string().contains("levels/broken.ron:2:"),
        "{}",
        failed[0].error
    );
    assert!(children_of(&mut app, root).is_empty());
    // Fixing the file loads it.
    write_atomically(&assets.path("levels/broken.ron"), COURTYARD);
    update_until(&mut app, "the fixed level", |app| spawned(app, root));
    assert_eq!(children_of(&mut app, root).len(), 6);
}

#[test]
fn a_new_handle_on_the_root_replaces_the_whole_level() {
    let assets = AssetDir::new();
    std::fs::write(
        assets.path("levels/small.ron"),
        r#"(version: 2, entity_types: [(name: "pickup")], entities: [(id: 31, entity_type: "pickup", position: (0.0, 0.0, 0.0))])"#,
    )
    .unwrap();
    let mut app = app(assets.root());
    let root = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard to spawn", |app| spawned(app, root));
    let before = children_of(&mut app, root);
    let small = app
        .world()
        .resource::<AssetServer>()
        .load("levels/small.ron");
    app.world_mut().entity_mut(root).insert(LevelRoot(small));
    update_until(&mut app, "the small level", |app| {
        spawned_level(app, root).entities.len() == 1
    });
    let after = children_of(&mut app, root);
    assert_eq!(after.len(), 1);
    // Id 31 is in both, but another level's entity is a new one.
    assert_ne!(after[0].1, before.iter().find(|(i, _)| *i == 31).unwrap().1);
}
