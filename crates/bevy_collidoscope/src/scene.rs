//! [`LevelScene`]: the current level's [`Scene`] as a system parameter, every answer recorded by the
//! [`FlightRecorder`] when there is one.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use collidoscope::character::{Body, BodyInput, CharacterController, CharacterMove};
use collidoscope::glam::{Vec2, Vec3};
use collidoscope::level::{Level, ObjectId};
use collidoscope::record::Recorder;
use collidoscope::scene::{Scene, SceneHit, SceneToi};
use collidoscope::shape::{Capsule, Ray, Sphere};

use crate::asset::LevelAsset;
use crate::recorder::FlightRecorder;

/// The level [`LevelScene`] answers for: the one the newest [`LevelRoot`](crate::LevelRoot) spawned (its
/// latest good reload), kept up to date by the plugin in [`PreUpdate`].
#[derive(Resource, Default)]
pub(crate) struct CurrentLevel {
    pub(crate) root: Option<Entity>,
    pub(crate) level: Option<LevelAsset>,
    /// What queries answer before any level is spawned: nothing is there.
    empty: Scene,
    /// The current level's scene with its movers at the plugin's time (`movers.rs`), when it has movers:
    /// (the level's revision, the scene).
    pub(crate) live: Option<(u64, Scene)>,
}

/// The current level's [`Scene`] for a game's queries: `fn aim(scene: LevelScene) { scene.cast_ray(..) }`.
///
/// A level's movers move by the plugin's clock ([`FixedUpdate`], before the bodies step): the scene's
/// [`Scene::time`] is the fixed time since the level became current, and every query meets the moved objects
/// where they are then (see [`LevelMover`](crate::LevelMover)).
///
/// "Current" is the level spawned by the newest [`LevelRoot`](crate::LevelRoot) (the one spawned last, of
/// those that still exist), as of its latest good load: a broken save changes nothing here. Before any level
/// is spawned, queries answer as an empty scene does (no hits, no overlaps, free movement).
///
/// Every query takes and returns Collidoscope's own types (its `glam` is Bevy's: a `Transform`'s translation
/// is a query's `Vec3`), and its coordinates are the level's: keep the [`LevelRoot`](crate::LevelRoot) at the origin (its default
/// `Transform`) and they are Bevy's world coordinates too.
///
/// Recorded when a [`FlightRecorder`] is recording: [`cast_ray`](Self::cast_ray),
/// [`sweep_sphere`](Self::sweep_sphere), [`overlap_sphere`](Self::overlap_sphere),
/// [`move_and_slide`](Self::move_and_slide) and [`move_character`](Self::move_character) (the kinds a
/// recording holds). The capsule and trigger queries are answered but not recorded: recordings have no kind
/// for them (a character's moves, made of capsule sweeps, are recorded whole).
#[derive(SystemParam)]
pub struct LevelScene<'w> {
    current: Res<'w, CurrentLevel>,
    recorder: Option<Res<'w, FlightRecorder>>,
}

impl LevelScene<'_> {
    /// The current level's scene (an empty one before any level is spawned).
    #[must_use]
    pub fn scene(&self) -> &Scene {
        let level = self.current.level.as_ref();
        // A level with movers answers from its live copy, moved by the plugin's time ([`Scene::time`]).
        if let (Some(level), Some((revision, live))) = (level, &self.current.live)
            && level.revision() == *revision
        {
            return live;
        }
        level.map_or(&self.current.empty, LevelAsset::scene)
    }

    /// The current level, once one is spawned.
    #[must_use]
    pub fn level(&self) -> Option<&Level> {
        self.current.level.as_ref().map(LevelAsset::level)
    }

    /// The current level asset (level and scene), once one is spawned.
    #[must_use]
    pub fn level_asset(&self) -> Option<&LevelAsset> {
        self.current.level.as_ref()
    }

    /// The [`LevelRoot`](crate::LevelRoot) entity whose level this is.
    #[must_use]
    pub fn root(&self) -> Option<Entity> {
        self.current.root
    }

    /// Whether a level is spawned.
    #[must_use]
    pub fn is_loaded(&self) -> bool {
        self.current.level.is_some()
    }

    /// The level's gravity (`simulation.gravity`; the runtime's default, `(0, -9.81, 0)`, before a level).
    #[must_use]
    pub fn gravity(&self) -> Vec3 {
        self.level().map_or_else(
            || collidoscope::sim::SimSettings::default().gravity,
            |l| l.simulation.gravity,
        )
    }

    /// Ask through the recorder when it is recording, else the scene itself: the same answer either way.
    fn ask<R>(
        &self,
        direct: impl FnOnce(&Scene) -> R,
        recorded: impl FnOnce(&mut Recorder, &Scene) -> R,
    ) -> R {
        let scene = self.scene();
        if self.current.level.is_some()
            && let Some(rec) = &self.recorder
            && let Some(answer) = rec.with_recorder(|r| recorded(r, scene))
        {
            return answer;
        }
        direct(scene)
    }

    /// [`Scene::cast_ray`]: the nearest hit within `max_t` (in units of `ray.dir`). Recorded.
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray, max_t: f32) -> Option<SceneHit> {
        self.ask(|s| s.cast_ray(ray, max_t), |r, s| r.cast_ray(s, ray, max_t))
    }

    /// [`Scene::sweep_sphere`]: the earliest contact of the sphere moving by `motion`. Recorded.
    #[must_use]
    pub fn sweep_sphere(&self, sphere: &Sphere, motion: Vec3) -> Option<SceneToi> {
        self.ask(
            |s| s.sweep_sphere(sphere, motion),
            |r, s| r.sweep_sphere(s, sphere, motion),
        )
    }

    /// [`Scene::overlap_sphere`]: every static object the sphere touches, ids ascending. Recorded.
    #[must_use]
    pub fn overlap_sphere(&self, sphere: &Sphere) -> Vec<ObjectId> {
        self.ask(
            |s| s.overlap_sphere(sphere),
            |r, s| r.overlap_sphere(s, sphere),
        )
    }

    /// [`Scene::move_and_slide`]: a top-down mover of `radius` at `from` (`(x, z)`) moved by `motion`, sliding
    /// along the level's walls. Recorded.
    #[must_use]
    pub fn move_and_slide(&self, from: Vec2, radius: f32, motion: Vec2) -> Vec2 {
        self.ask(
            |s| s.move_and_slide(from, radius, motion),
            |r, s| r.move_and_slide(s, from, radius, motion),
        )
    }

    /// [`Scene::sweep_capsule`]: the earliest contact of the capsule moving by `motion`. Not recorded (a
    /// recording has no kind for it; character moves, made of such sweeps, are).
    #[must_use]
    pub fn sweep_capsule(&self, capsule: &Capsule, motion: Vec3) -> Option<SceneToi> {
        self.scene().sweep_capsule(capsule, motion)
    }

    /// [`Scene::overlap_capsule`]: every static object the capsule touches, ids ascending. Not recorded.
    #[must_use]
    pub fn overlap_capsule(&self, capsule: &Capsule) -> Vec<ObjectId> {
        self.scene().overlap_capsule(capsule)
    }

    /// [`CharacterController::move_character`]: one move of the character whose feet are at `feet` by
    /// `motion` (gravity included: the controller keeps no velocity), with its workings. Recorded (what every
    /// [`CharacterBody`](crate::CharacterBody) step asks).
    #[must_use]
    pub fn move_character(
        &self,
        controller: &CharacterController,
        feet: Vec3,
        motion: Vec3,
    ) -> CharacterMove {
        self.ask(
            |s| controller.move_character(s, feet, motion),
            |r, s| r.move_character(s, controller, feet, motion),
        )
    }

    /// [`Body::step`]: one step of a character's body with `input` under `gravity`, its move recorded (what
    /// every [`CharacterBody`](crate::CharacterBody) step asks).
    pub fn step_body(
        &self,
        body: &mut Body,
        controller: &CharacterController,
        input: &BodyInput,
        gravity: Vec3,
        dt: f32,
    ) -> CharacterMove {
        let scene = self.scene();
        if self.current.level.is_some()
            && let Some(rec) = &self.recorder
        {
            let mut next = *body;
            if let Some(m) =
                rec.with_recorder(|r| r.step_body(scene, &mut next, controller, input, gravity, dt))
            {
                *body = next;
                return m;
            }
        }
        body.step(controller, scene, input, gravity, dt)
    }

    /// [`Scene::triggers_at`]: the trigger volumes the sphere touches, ids ascending. Not recorded.
    #[must_use]
    pub fn triggers_at(&self, sphere: &Sphere) -> Vec<ObjectId> {
        self.scene().triggers_at(sphere)
    }

    /// The trigger volumes the capsule touches, ids ascending (what [`CharacterBody`](crate::CharacterBody)
    /// bodies are tested with). Exact: a capsule is the volume a sphere of its radius sweeps from `a` to `b`,
    /// and each trigger volume reports the parts of such a sweep during which the sphere overlaps it. Not
    /// recorded.
    #[must_use]
    pub fn triggers_at_capsule(&self, capsule: &Capsule) -> Vec<ObjectId> {
        self.scene().triggers_at_capsule(capsule)
    }

    /// Label the current recorded frame ("player fell through"); nothing when not recording.
    pub fn mark(&self, label: &str) {
        if let Some(rec) = &self.recorder {
            rec.mark(label);
        }
    }
}
