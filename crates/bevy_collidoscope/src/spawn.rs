//! Level entities as Bevy entities: [`LevelRoot`] spawns one child per level entity, the game's own
//! components come from the entities' typed fields ([`LevelEntityApp::register_level_entity`]), and a reload
//! respawns only what changed.

use std::collections::HashMap;
use std::sync::Arc;

use bevy::ecs::system::EntityCommands;
use bevy::prelude::*;
use collidoscope::level::{EntityObject, Level, LevelError, ObjectId};
use serde::de::DeserializeOwned;

use crate::asset::LevelAsset;
use crate::recorder::FlightRecorder;
use crate::scene::CurrentLevel;

/// A level in the world: `commands.spawn(LevelRoot(asset_server.load("levels/courtyard.ron")))`. Once the
/// level has loaded, the root has one child per level entity ([`LevelEntity`], a local [`Transform`] from the
/// entity's position and yaw, a [`Name`], and the components registered for its type); when the file is saved
/// again, what changed is respawned and the rest is left alone. Its [`LevelEntities`] maps level ids to
/// those children.
///
/// Keep the root at the origin (its default `Transform`): the level's coordinates are then the world's, the
/// ones [`LevelScene`](crate::LevelScene) and [`CharacterBody`](crate::CharacterBody) use.
#[derive(Component, Clone, Debug)]
#[require(Transform, LevelEntities)]
pub struct LevelRoot(pub Handle<LevelAsset>);

/// A Bevy entity spawned for a level entity (a child of its [`LevelRoot`]).
#[derive(Component, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LevelEntity {
    /// The level entity's id.
    pub id: ObjectId,
    /// Its entity type's name (`"pickup"`).
    pub entity_type: String,
}

/// What a [`LevelRoot`] has spawned: the level (as of its latest good load) and the Bevy entity of each level
/// entity, by id (for `Ref` fields: "the door this switch opens" is `entities.get(switch.opens)`).
#[derive(Component, Debug, Default)]
pub struct LevelEntities {
    level: Option<LevelAsset>,
    asset: Option<AssetId<LevelAsset>>,
    /// The revision of the asset value last looked at (spawned, or found equal to what is spawned).
    seen: u64,
    by_id: HashMap<ObjectId, Entity>,
    /// Spawn order among roots (0: never spawned), so the newest root's level is the current one.
    order: u64,
}

impl LevelEntities {
    /// The Bevy entity spawned for the level entity `id` (it may have been despawned by the game since).
    #[must_use]
    pub fn get(&self, id: ObjectId) -> Option<Entity> {
        self.by_id.get(&id).copied()
    }

    /// Every level entity's id and Bevy entity, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (ObjectId, Entity)> + '_ {
        self.by_id.iter().map(|(id, e)| (*id, *e))
    }

    /// How many level entities were spawned.
    #[must_use]
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    /// Whether nothing is spawned (not loaded yet, or a level without entities).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// The level as last spawned (its latest good load).
    #[must_use]
    pub fn level(&self) -> Option<&Level> {
        self.level.as_ref().map(LevelAsset::level)
    }
}

/// A level (re)spawned by a [`LevelRoot`]: its children now match it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSpawned {
    /// The root.
    pub root: Entity,
    /// `false` the first time the root spawns this asset, `true` for a reload of it.
    pub reload: bool,
}

/// A registered component could not be built from a level entity's fields (the entity is spawned without
/// it). Also logged as a warning.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct LevelEntityError {
    /// The Bevy entity spawned for the level entity.
    pub entity: Entity,
    /// The level entity.
    pub id: ObjectId,
    /// What `fields_as` said (naming the entity and the field).
    pub message: String,
}

type BuildComponent =
    dyn Fn(&EntityObject, &Level, &mut EntityCommands<'_>) -> Result<(), LevelError> + Send + Sync;

/// The components registered per entity type.
#[derive(Resource, Default)]
pub(crate) struct LevelEntityRegistry {
    builders: Vec<(String, Arc<BuildComponent>)>,
}

/// `App::register_level_entity`: a game's own components built from the level's typed fields.
pub trait LevelEntityApp {
    /// Give every level entity of type `entity_type` the component `T`, deserialised from its fields (defaults
    /// filled) with `EntityObject::fields_as`: `app.register_level_entity::<Pickup>("pickup")`. A value that
    /// does not fit `T` is reported as a [`LevelEntityError`] message and the entity is spawned without `T`.
    /// Register before the level spawns (at setup): entities already spawned get `T` when they are next
    /// respawned.
    fn register_level_entity<T: Component + DeserializeOwned>(
        &mut self,
        entity_type: impl Into<String>,
    ) -> &mut Self;
}

impl LevelEntityApp for App {
    fn register_level_entity<T: Component + DeserializeOwned>(
        &mut self,
        entity_type: impl Into<String>,
    ) -> &mut Self {
        let build: Arc<BuildComponent> = Arc::new(|e, level, commands| {
            let component: T = e.fields_as(level)?;
            commands.insert(component);
            Ok(())
        });
        self.world_mut()
            .get_resource_or_init::<LevelEntityRegistry>()
            .builders
            .push((entity_type.into(), build));
        self
    }
}

/// The local transform of a level entity: its position, turned `yaw_deg` about `+y`.
#[must_use]
pub fn level_entity_transform(e: &EntityObject) -> Transform {
    Transform::from_xyz(e.position.x, e.position.y, e.position.z)
        .with_rotation(Quat::from_rotation_y(e.yaw_deg.to_radians()))
}

/// `PreUpdate`, after the asset server has stored this frame's loads: bring every root's children in line
/// with its level, and pick the current level for [`LevelScene`](crate::LevelScene).
#[allow(clippy::too_many_arguments)] // One system: the diff, its messages and the current level move together.
pub(crate) fn sync_level_roots(
    mut commands: Commands,
    levels: Res<Assets<LevelAsset>>,
    registry: Res<LevelEntityRegistry>,
    mut roots: Query<(Entity, &LevelRoot, &mut LevelEntities)>,
    mut current: ResMut<CurrentLevel>,
    time: Res<Time>,
    recorder: Option<Res<FlightRecorder>>,
    mut spawned: MessageWriter<LevelSpawned>,
    mut errors: MessageWriter<LevelEntityError>,
    mut next_order: Local<u64>,
) {
    for (root, LevelRoot(handle), mut state) in &mut roots {
        // Not loaded yet, failed, or gone: whatever was spawned stays (a broken save keeps the last good level).
        let Some(asset) = levels.get(handle) else {
            continue;
        };
        let same_asset = state.asset == Some(handle.id());
        if same_asset && state.seen == asset.revision() {
            continue;
        }
        state.seen = asset.revision();
        // A save that changed nothing (or one save the watcher reported twice) is not a reload: what is
        // spawned stays, the same value.
        if same_asset
            && state
                .level
                .as_ref()
                .is_some_and(|old| old.level() == asset.level())
        {
            continue;
        }
        let old = if same_asset { state.level.take() } else { None };
        if !same_asset {
            // Another level entirely: nothing carries over.
            for (_, e) in state.by_id.drain() {
                commands.entity(e).try_despawn();
            }
        }
        let by_id = respawn(
            &mut commands,
            root,
            old.as_ref().map(LevelAsset::level),
            asset.level(),
            std::mem::take(&mut state.by_id),
            &registry,
            &mut errors,
        );
        state.by_id = by_id;
        state.level = Some(asset.clone());
        state.asset = Some(handle.id());
        if state.order == 0 {
            *next_order += 1;
            state.order = *next_order;
        }
        spawned.write(LevelSpawned {
            root,
            reload: old.is_some(),
        });
    }

    // The current level: the newest root's, as that root last spawned it.
    let newest = roots
        .iter()
        .filter(|(_, _, s)| s.level.is_some())
        .max_by_key(|(_, _, s)| s.order)
        .map(|(e, _, s)| (e, s.level.clone()));
    let (root, level) = newest.map_or((None, None), |(e, l)| (Some(e), l));
    let revision = |l: &Option<LevelAsset>| l.as_ref().map(LevelAsset::revision);
    if current.root != root || revision(&current.level) != revision(&level) {
        if let (Some(rec), Some(new)) = (&recorder, &level)
            && rec.is_recording()
        {
            let what = if current.root == root {
                "reloaded"
            } else {
                "changed"
            };
            rec.mark(&format!("level {what}: {}", new.level().name));
        }
        current.root = root;
        current.level = level;
    }
    // A recording embeds its level: it starts with the first one (or when the game inserts its recorder).
    if let (Some(rec), Some(level)) = (&recorder, &current.level)
        && !rec.is_recording()
    {
        rec.start(level.level(), time.elapsed_secs_f64());
    }
}

/// Spawn the children of `new` under `root`, keeping from `kept` (the children of `old`, by id) the Bevy
/// entities of level entities that did not change; despawn the rest. Returns the new map.
fn respawn(
    commands: &mut Commands,
    root: Entity,
    old: Option<&Level>,
    new: &Level,
    mut kept: HashMap<ObjectId, Entity>,
    registry: &LevelEntityRegistry,
    errors: &mut MessageWriter<LevelEntityError>,
) -> HashMap<ObjectId, Entity> {
    let old_entities: HashMap<ObjectId, &EntityObject> = old
        .map(|l| l.entities.iter().map(|e| (e.id, e)).collect())
        .unwrap_or_default();
    let mut by_id = HashMap::with_capacity(new.entities.len());
    for e in &new.entities {
        let previous = kept.remove(&e.id);
        // Unchanged: the same object, and the same type definition (its defaults feed the components).
        let unchanged = old_entities.get(&e.id).is_some_and(|o| {
            *o == e
                && old.and_then(|l| l.entity_type(&e.entity_type))
                    == new.entity_type(&e.entity_type)
        });
        if let Some(entity) = previous {
            if unchanged {
                by_id.insert(e.id, entity);
                continue;
            }
            commands.entity(entity).try_despawn();
        }
        by_id.insert(e.id, spawn_one(commands, root, new, e, registry, errors));
    }
    // Level entities that are gone.
    for (_, entity) in kept {
        commands.entity(entity).try_despawn();
    }
    by_id
}

fn spawn_one(
    commands: &mut Commands,
    root: Entity,
    level: &Level,
    e: &EntityObject,
    registry: &LevelEntityRegistry,
    errors: &mut MessageWriter<LevelEntityError>,
) -> Entity {
    let name = e
        .name
        .clone()
        .unwrap_or_else(|| format!("{} {}", e.entity_type, e.id));
    let mut entity = commands.spawn((
        LevelEntity {
            id: e.id,
            entity_type: e.entity_type.clone(),
        },
        level_entity_transform(e),
        Name::new(name),
        ChildOf(root),
    ));
    for (_, build) in registry
        .builders
        .iter()
        .filter(|(ty, _)| *ty == e.entity_type)
    {
        if let Err(err) = build(e, level, &mut entity) {
            let message = err.to_string();
            tracing::warn!("level entity {}: {message}", e.id);
            errors.write(LevelEntityError {
                entity: entity.id(),
                id: e.id,
                message,
            });
        }
    }
    entity.id()
}
