//! A level's blockout in a Bevy window with no art: `GreyboxPlugin` spawns a mesh per static object (sectors,
//! boxes, cylinders, triangles, meshes, walls) shaded by height, and replaces them when the level file is
//! saved (hot reload). The camera circles the level.
//!
//! ```sh
//! cargo run -p bevy_collidoscope --example greybox --features greybox                      # levels/playground.ron
//! cargo run -p bevy_collidoscope --example greybox --features greybox -- house.ron         # another level
//! ```
//!
//! It needs a display and a GPU (or a software Vulkan/GL driver).

use bevy::prelude::*;
use bevy_collidoscope::*;

/// The asset folder of the example: the repository's sample levels.
const LEVELS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../levels");

/// The level shown (its path in the asset folder).
#[derive(Resource)]
struct LevelPath(String);

fn main() {
    let level = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "playground.ron".into());
    App::new()
        .add_plugins(DefaultPlugins.set(AssetPlugin {
            file_path: LEVELS.into(),
            ..default()
        }))
        .add_plugins((CollidoscopePlugin::default(), GreyboxPlugin))
        .insert_resource(LevelPath(level))
        .insert_resource(GlobalAmbientLight {
            brightness: 400.0,
            ..default()
        })
        .add_systems(Startup, setup)
        .add_systems(Update, orbit)
        .run();
}

fn setup(mut commands: Commands, assets: Res<AssetServer>, path: Res<LevelPath>) {
    commands.spawn((LevelRoot(assets.load(path.0.clone())), Transform::default()));
    commands.spawn((
        DirectionalLight {
            illuminance: 8_000.0,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(20.0, 40.0, 10.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((Camera3d::default(), Transform::from_xyz(30.0, 25.0, 30.0)));
}

/// Circle the level's bounds, looking at their centre.
fn orbit(time: Res<Time>, scene: LevelScene, mut camera: Query<&mut Transform, With<Camera3d>>) {
    let (centre, radius) = scene
        .level()
        .and_then(|l| l.bounds())
        .map_or((Vec3::ZERO, 20.0), |b| {
            ((b.min + b.max) * 0.5, (b.max - b.min).length().max(4.0))
        });
    let angle = time.elapsed_secs() * 0.2;
    for mut t in &mut camera {
        let eye = centre + Vec3::new(angle.cos() * radius, radius * 0.6, angle.sin() * radius);
        *t = Transform::from_translation(eye).looking_at(centre, Vec3::Y);
    }
}
