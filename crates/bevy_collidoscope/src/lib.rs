//! # bevy_collidoscope
//!
//! [Collidoscope](collidoscope) levels in a [Bevy](bevy) game: a level file is an asset, its entities are
//! Bevy entities with the game's own components built from their typed fields, its static objects answer the
//! game's collision queries ([`LevelScene`]), characters walk through it ([`CharacterBody`]) and trigger its
//! volumes ([`TriggerEntered`], [`TriggerLeft`]), saving it in the editor changes the running game, and a
//! [`FlightRecorder`] keeps what the game asked for `collidoscope replay` and the editor's live view.
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_collidoscope::*;
//!
//! #[derive(Component, serde::Deserialize)]
//! struct Pickup { kind: String, amount: i64 }
//!
//! App::new()
//!     .add_plugins((MinimalPlugins, AssetPlugin::default(), CollidoscopePlugin::default()))
//!     .register_level_entity::<Pickup>("pickup")
//!     .add_systems(Startup, |mut commands: Commands, assets: Res<AssetServer>| {
//!         commands.spawn(LevelRoot(assets.load("levels/courtyard.ron")));
//!     })
//!     .run();
//! ```
//!
//! Everything works with `MinimalPlugins` and `AssetPlugin` alone (no window, no renderer); with Bevy's
//! `file_watcher` feature (this crate turns it on) a saved level reloads within a second. See the crate's
//! README for the whole tour and `examples/courtyard.rs` for a game.
//!
//! ## Schedules
//! - [`PreUpdate`] ([`CollidoscopeSystems::SpawnLevels`]): roots (re)spawn their children from freshly loaded
//!   levels, and the current level of [`LevelScene`] is chosen.
//! - [`FixedUpdate`] ([`CollidoscopeSystems::Characters`]): the level's movers move ([`LevelMover`]),
//!   character bodies move (riding them), then their triggers are checked and start their movers. Set
//!   velocities before it (in `Update`, or in `FixedUpdate` ordered `.before(..)`). Just before it,
//!   [`NavAgent`]s steer their bodies (the [`NavAgents`] map rebuilt first when the level changed).
//! - [`First`] / [`Last`] ([`CollidoscopeSystems::Recording`]): a recorded frame per Bevy frame; the recording
//!   saved on [`AppExit`].
//!
//! ## One `glam`
//! The runtime follows Bevy's `glam` (0.32 for Bevy 0.19): `bevy::math::Vec3` is `collidoscope::glam::Vec3`,
//! so a `Transform`'s translation goes straight into a query (see [`convert`]).

#![cfg_attr(test, allow(clippy::unwrap_used))]

mod asset;
mod character;
pub mod convert;
pub mod greybox;
mod movers;
mod nav;
mod recorder;
mod scene;
mod spawn;

use bevy::asset::{AssetApp, AssetTrackingSystems};
use bevy::prelude::*;
use bevy::time::TimeSystems;

pub use asset::{LevelAsset, LevelAssetLoader, LevelLoadError};
pub use character::{CharacterBody, CharacterState, TriggerEntered, TriggerLeft};
/// The runtime this plugin is built on (its shapes, queries, levels and recordings).
pub use collidoscope;
pub use collidoscope::character::CharacterController;
pub use collidoscope::level::ObjectId;
pub use collidoscope::scene::{SceneHit, SceneToi};
#[allow(deprecated)]
pub use convert::{ToBevy, ToCollidoscope};
#[cfg(feature = "greybox")]
pub use greybox::{Greybox, GreyboxPlugin};
pub use greybox::{GreyboxKind, GreyboxMeshData, greybox_meshes, height_color};
pub use movers::LevelMover;
pub use nav::{NavAgent, NavAgentState, NavAgents, NavStatus};
pub use recorder::{FlightRecorder, FlightRecorderSettings};
pub use scene::LevelScene;
pub use spawn::{
    LevelEntities, LevelEntity, LevelEntityApp, LevelEntityError, LevelRoot, LevelSpawned,
    level_entity_transform,
};

/// The README's examples, compiled as doctests so they stay true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The plugin: the level asset and its loader, level roots, [`LevelScene`], character bodies and their
/// trigger messages, and (when `recorder` is set) the [`FlightRecorder`].
///
/// Add it after `AssetPlugin` (part of `DefaultPlugins`; with `MinimalPlugins`, add it yourself).
#[derive(Clone, Debug, Default)]
pub struct CollidoscopePlugin {
    /// Record the game's queries and character moves (a [`FlightRecorder`] resource). `None`: no recorder,
    /// unless the game inserts a [`FlightRecorder`] itself.
    pub recorder: Option<FlightRecorderSettings>,
}

impl CollidoscopePlugin {
    /// The plugin with a [`FlightRecorder`] recording with these settings.
    #[must_use]
    pub fn with_recorder(settings: FlightRecorderSettings) -> Self {
        Self {
            recorder: Some(settings),
        }
    }
}

/// The plugin's systems, for ordering a game's own around them.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CollidoscopeSystems {
    /// [`PreUpdate`]: level roots spawn and respawn their children; the current level is chosen.
    SpawnLevels,
    /// [`FixedUpdate`]: the level's movers move, character bodies move, then their trigger messages are
    /// written and the movers those triggers start are started.
    Characters,
    /// [`First`] and [`Last`]: the flight recorder's frames, and its save on exit.
    Recording,
}

impl Plugin for CollidoscopePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<spawn::LevelEntityRegistry>()
            .init_resource::<scene::CurrentLevel>()
            .add_message::<TriggerEntered>()
            .add_message::<TriggerLeft>()
            .add_message::<LevelSpawned>()
            .add_message::<LevelEntityError>()
            .add_systems(
                FixedUpdate,
                (
                    movers::advance_movers,
                    character::move_characters,
                    character::character_triggers,
                    movers::start_triggered_movers,
                )
                    .chain()
                    .in_set(CollidoscopeSystems::Characters),
            )
            .add_systems(
                FixedUpdate,
                (nav::rebuild_nav_map, nav::steer_nav_agents)
                    .chain()
                    .before(CollidoscopeSystems::Characters),
            )
            .add_systems(
                First,
                recorder::begin_recorder_frame
                    .after(TimeSystems)
                    .in_set(CollidoscopeSystems::Recording),
            )
            .add_systems(
                Last,
                recorder::save_recorder_on_exit.in_set(CollidoscopeSystems::Recording),
            );
        if let Some(settings) = &self.recorder {
            app.insert_resource(FlightRecorder::new(settings.clone()));
        }
        if app.world().contains_resource::<AssetServer>() {
            register_assets(app);
        }
    }

    fn finish(&self, app: &mut App) {
        // Added before `AssetPlugin`: the asset server exists now that every plugin is built.
        if !app.world().contains_resource::<Assets<LevelAsset>>() {
            assert!(
                app.world().contains_resource::<AssetServer>(),
                "CollidoscopePlugin needs Bevy's AssetPlugin (in DefaultPlugins; add it to MinimalPlugins)"
            );
            register_assets(app);
        }
    }
}

fn register_assets(app: &mut App) {
    app.init_asset::<LevelAsset>()
        .init_asset_loader::<LevelAssetLoader>()
        .add_systems(
            PreUpdate,
            spawn::sync_level_roots
                .after(AssetTrackingSystems)
                .in_set(CollidoscopeSystems::SpawnLevels),
        );
}
