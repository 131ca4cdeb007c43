//! Loading: OBJ meshes read through the asset server (a changed OBJ reloads its level), the plugin added in
//! either order with the asset plugin, and every public name usable beside Bevy's prelude.

use bevy::asset::AssetLoadFailedEvent;
use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_collidoscope::collidoscope::character::{Body, BodyInput};
use bevy_collidoscope::collidoscope::glam;
use bevy_collidoscope::collidoscope::shape::Ray;
use bevy_collidoscope::*;

use crate::common::*;

/// A square 2 × 2 at height `y`, as OBJ text.
fn floor_obj(y: f32) -> String {
    format!("v -1 {y} -1\nv 1 {y} -1\nv 1 {y} 1\nv -1 {y} 1\nf 1 2 3\nf 1 3 4\n")
}

fn down_hit(app: &mut App) -> Option<SceneHit> {
    app.world_mut()
        .run_system_once(|scene: LevelScene| {
            scene.cast_ray(
                &Ray::new(glam::Vec3::new(0.2, 10.0, 0.3), -glam::Vec3::Y),
                100.0,
            )
        })
        .unwrap()
}

#[test]
fn obj_meshes_load_through_the_asset_server_and_reload_their_level() {
    let assets = AssetDir::new();
    std::fs::create_dir_all(assets.path("levels/meshes")).unwrap();
    std::fs::write(assets.path("levels/meshes/floor.obj"), floor_obj(0.5)).unwrap();
    std::fs::write(
        assets.path("levels/mesh.ron"),
        r#"(version: 2, meshes: [(id: 5, obj: "meshes/floor.obj")])"#,
    )
    .unwrap();
    let mut app = app(assets.root());
    collect::<LevelSpawned>(&mut app);
    let root = spawn_root(&mut app, "levels/mesh.ron");
    update_until(&mut app, "the mesh level", |app| spawned(app, root));
    let hit = down_hit(&mut app).unwrap();
    assert_eq!(hit.object, ObjectId(5));
    assert!((hit.point.y - 0.5).abs() < 1e-5, "{hit:?}");
    // The OBJ is a dependency of the level: saving it reloads the level.
    write_atomically(&assets.path("levels/meshes/floor.obj"), &floor_obj(1.5));
    update_until(&mut app, "the reload", |app| {
        collected::<LevelSpawned>(app).len() == 2
    });
    let hit = down_hit(&mut app).unwrap();
    assert!((hit.point.y - 1.5).abs() < 1e-5, "{hit:?}");
}

#[test]
fn an_obj_path_leaving_the_levels_folder_is_refused() {
    let assets = AssetDir::new();
    std::fs::write(assets.path("floor.obj"), floor_obj(0.0)).unwrap();
    std::fs::write(
        assets.path("levels/escape.ron"),
        r#"(version: 2, meshes: [(id: 5, obj: "../floor.obj")])"#,
    )
    .unwrap();
    let mut app = app(assets.root());
    collect::<AssetLoadFailedEvent<LevelAsset>>(&mut app);
    spawn_root(&mut app, "levels/escape.ron");
    update_until(&mut app, "the refusal", |app| {
        !collected::<AssetLoadFailedEvent<LevelAsset>>(app).is_empty()
    });
    let failed = collected::<AssetLoadFailedEvent<LevelAsset>>(&app);
    let err = LevelLoadError::from_asset_error(&failed[0].error).unwrap();
    assert!(
        matches!(
            err,
            LevelLoadError::Mesh {
                mesh: ObjectId(5),
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("no `..`"), "{err}");
}

#[test]
fn the_plugin_may_come_before_the_asset_plugin() {
    let assets = AssetDir::new();
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        CollidoscopePlugin::default(),
        AssetPlugin {
            file_path: assets.root().display().to_string(),
            ..default()
        },
    ));
    app.finish();
    app.cleanup();
    let root = spawn_root(&mut app, "levels/courtyard.ron");
    update_until(&mut app, "the courtyard", |app| spawned(app, root));
    assert_eq!(children_of(&mut app, root).len(), 6);
}

/// Every name the crate exports, used beside `bevy::prelude::*` (both glob-imported, as games do): none
/// clashes with Bevy's.
#[test]
fn every_public_name_lives_beside_bevys_prelude() {
    #[allow(clippy::too_many_arguments)]
    fn system(
        _scene: LevelScene,
        _recorder: Option<Res<FlightRecorder>>,
        _entered: MessageReader<TriggerEntered>,
        _left: MessageReader<TriggerLeft>,
        _spawned: MessageReader<LevelSpawned>,
        _errors: MessageReader<LevelEntityError>,
        _roots: Query<(&LevelRoot, &LevelEntities)>,
        _children: Query<&LevelEntity>,
        _bodies: Query<(&CharacterBody, &CharacterState)>,
    ) {
    }
    let plugin = CollidoscopePlugin {
        recorder: Some(FlightRecorderSettings::default()),
    };
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), plugin))
        .add_systems(Update, system.after(CollidoscopeSystems::SpawnLevels));
    app.update();
    let body = CharacterBody {
        controller: CharacterController::default(),
        input: BodyInput {
            wish: Vec2::ZERO,
            jump: false,
            crouch: false,
        },
        body: Body::new(Vec3::ZERO),
    };
    assert_eq!(body, CharacterBody::default());
    let _: Option<(SceneHit, SceneToi)> = None;
    let _ = LevelAssetLoader;
    let _: fn(&bevy_collidoscope::collidoscope::level::EntityObject) -> Transform =
        level_entity_transform;
    // One glam: Bevy's vectors are the runtime's (the old conversions are deprecated identities).
    let feet: bevy::math::Vec3 = Vec3::new(1.0, 2.0, 3.0);
    let same: bevy_collidoscope::collidoscope::glam::Vec3 = feet;
    let _ray = bevy_collidoscope::collidoscope::shape::Ray::new(feet, bevy::math::Vec3::NEG_Y);
    #[allow(deprecated)]
    {
        assert_eq!(same.to_collidoscope().to_bevy(), feet);
        assert_eq!(Vec2::Y.to_collidoscope().to_bevy(), Vec2::Y);
    }
}
