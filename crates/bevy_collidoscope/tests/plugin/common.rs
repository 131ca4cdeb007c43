//! A headless app on a temporary asset folder holding the sample levels, and helpers to run it until
//! something happens.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_collidoscope::collidoscope::level::Level;
use bevy_collidoscope::*;

/// The repository's courtyard level (spawn, pickups, a door, a switch, the exit trigger).
pub const COURTYARD: &str = include_str!("../../../../levels/courtyard.ron");

/// A pickup's typed fields, as the game reads them.
#[derive(Component, Debug, Clone, PartialEq, serde::Deserialize)]
pub struct Pickup {
    pub kind: String,
    pub amount: i64,
}

/// A temporary asset folder with `levels/courtyard.ron`.
pub struct AssetDir {
    pub dir: tempfile::TempDir,
}

impl AssetDir {
    pub fn new() -> AssetDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("levels")).unwrap();
        std::fs::write(dir.path().join("levels/courtyard.ron"), COURTYARD).unwrap();
        AssetDir { dir }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }
}

/// `MinimalPlugins`, the asset plugin on `assets` (watching it), the plugin; one fixed step per update.
pub fn app_with(assets: &Path, plugin: CollidoscopePlugin) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin {
            file_path: assets.display().to_string(),
            watch_for_changes_override: Some(true),
            ..default()
        },
        plugin,
    ))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app
}

pub fn app(assets: &Path) -> App {
    app_with(assets, CollidoscopePlugin::default())
}

/// Spawn a root for `path` (relative to the asset folder) and return it.
pub fn spawn_root(app: &mut App, path: &str) -> Entity {
    let handle = app.world().resource::<AssetServer>().load(path.to_owned());
    app.world_mut().spawn(LevelRoot(handle)).id()
}

/// Update the app until `done` holds, sleeping a little between updates (loads and file events arrive on
/// other threads); panics after 10 s.
pub fn update_until(app: &mut App, what: &str, mut done: impl FnMut(&mut App) -> bool) {
    let start = Instant::now();
    loop {
        app.update();
        if done(app) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Run updates (with the same small sleeps) for `d` of wall-clock time.
pub fn update_for(app: &mut App, d: Duration) {
    let start = Instant::now();
    while start.elapsed() < d {
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The level entities under `root`: (id, entity), ordered by id.
pub fn children_of(app: &mut App, root: Entity) -> Vec<(u32, Entity)> {
    let mut q = app.world_mut().query::<(Entity, &LevelEntity, &ChildOf)>();
    let mut out: Vec<(u32, Entity)> = q
        .iter(app.world())
        .filter(|(_, _, c)| c.parent() == root)
        .map(|(e, l, _)| (l.id.0, e))
        .collect();
    out.sort_unstable();
    out
}

/// Whether `root` has spawned a level (its `LevelEntities` knows one).
pub fn spawned(app: &App, root: Entity) -> bool {
    app.world()
        .get::<LevelEntities>(root)
        .is_some_and(|e| e.level().is_some())
}

/// The level `root` spawned last.
pub fn spawned_level(app: &App, root: Entity) -> Level {
    app.world()
        .get::<LevelEntities>(root)
        .unwrap()
        .level()
        .unwrap()
        .clone()
}

/// Every message of type `M` written from now on, in order (a system in `Last` keeps them).
#[derive(Resource)]
pub struct Collected<M: Message>(pub Vec<M>);

pub fn collect<M: Message + Clone>(app: &mut App) {
    app.insert_resource(Collected::<M>(Vec::new())).add_systems(
        Last,
        |mut r: MessageReader<M>, mut c: ResMut<Collected<M>>| c.0.extend(r.read().cloned()),
    );
}

pub fn collected<M: Message + Clone>(app: &App) -> Vec<M> {
    app.world().resource::<Collected<M>>().0.clone()
}

/// Save `level` the way the editor does (a temporary file renamed over the old one).
pub fn save_atomically(level: &Level, path: &Path) {
    level.save(path).unwrap();
}

/// Write `text` the way the editor saves (a temporary file renamed over the old one).
pub fn write_atomically(path: &Path, text: &str) {
    bevy_collidoscope::collidoscope::level::atomic_write(path, text.as_bytes()).unwrap();
}
