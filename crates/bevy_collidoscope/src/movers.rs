//! A level's movers in the game: the current level's scene moved by the plugin's fixed clock, each mover an
//! entity whose [`Transform`] follows it, and the movers bound to a trigger started when a character enters it.

use bevy::prelude::*;
use collidoscope::level::ObjectId;

use crate::character::TriggerEntered;
use crate::scene::CurrentLevel;

/// One of the current level's movers, spawned by the plugin as a child of the level's root when the level
/// becomes current (and again on each reload). Its [`Transform`]'s translation is the mover's offset from the
/// moved object's place in the level at the scene time, updated each [`FixedUpdate`] before the bodies step:
/// a game draws the moved object (at its level place) as a child of this entity and it moves with it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[require(Transform)]
pub struct LevelMover {
    /// The mover's id in the level.
    pub mover: ObjectId,
    /// The object it moves (a sector's id for its floor or ceiling).
    pub object: ObjectId,
}

/// [`FixedUpdate`], before the bodies step: the current level's live scene (a copy of its scene, taken when
/// the level becomes current, at time 0) advanced by the fixed step ([`Scene::set_time`] at the time since
/// then, kept in `f64`), and every [`LevelMover`]'s translation set to its mover's offset.
///
/// [`Scene::set_time`]: collidoscope::scene::Scene::set_time
pub(crate) fn advance_movers(
    mut commands: Commands,
    time: Res<Time>,
    mut current: ResMut<CurrentLevel>,
    mut clock: Local<f64>,
    mut movers: Query<(Entity, &LevelMover, &mut Transform)>,
) {
    let level = current.level.clone();
    let revision = level.as_ref().map(|l| l.revision());
    if current.live.as_ref().map(|(r, _)| *r) != revision || revision.is_none() {
        // Another level, a reload, or none: the old movers go, the new level's start at 0.
        for (e, _, _) in &movers {
            commands.entity(e).try_despawn();
        }
        current.live = None;
        *clock = 0.0;
        let (Some(level), Some(revision)) = (level, revision) else {
            return;
        };
        if level.level().movers.is_empty() {
            return;
        }
        let scene = level.scene().clone();
        for m in scene.movers() {
            let mut e = commands.spawn((
                LevelMover {
                    mover: m.mover,
                    object: m.object,
                },
                Transform::from_translation(m.offset),
            ));
            if let Some(root) = current.root {
                e.insert(ChildOf(root));
            }
        }
        current.live = Some((revision, scene));
    }
    let Some((_, scene)) = current.live.as_mut() else {
        return;
    };
    let dt = time.delta_secs_f64();
    if dt > 0.0 {
        *clock += dt;
        scene.set_time(*clock as f32);
    }
    let offsets: std::collections::HashMap<ObjectId, Vec3> =
        scene.movers().iter().map(|m| (m.mover, m.offset)).collect();
    for (_, mover, mut transform) in &mut movers {
        if let Some(&offset) = offsets.get(&mover.mover)
            && transform.translation != offset
        {
            transform.translation = offset;
        }
    }
}

/// [`FixedUpdate`], after the characters' triggers: the movers bound to each trigger a character entered
/// start at the scene time ([`Scene::start_triggered`]).
///
/// [`Scene::start_triggered`]: collidoscope::scene::Scene::start_triggered
pub(crate) fn start_triggered_movers(
    mut current: ResMut<CurrentLevel>,
    mut entered: MessageReader<TriggerEntered>,
) {
    let Some((_, scene)) = current.live.as_mut() else {
        entered.clear();
        return;
    };
    for e in entered.read() {
        let at = scene.time();
        scene.start_triggered(e.trigger, at);
    }
}
