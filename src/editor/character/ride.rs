//! Walk mode on a level with movers (no egui): the walk keeps its own copy of the level's scene whose movers
//! stand where the walk's time has them. Each fixed step sets that copy's time to the step's end
//! ([`Scene::set_time`], a pure function of the time and the starts) before [`crate::character::Body::step`],
//! so the body rides what it stands on; triggers the body is in after the step start their movers
//! ([`Scene::start_triggered`]). A level without movers walks the shared scene as before.

use crate::editor::document::DocKey;
use crate::level::ObjectId;
use crate::scene::Scene;

use super::model::{Body, CharacterWalk, Physics, TICK_HZ, TimedScene};

/// The scene time at the end of fixed step `tick` (0 first).
#[must_use]
pub fn tick_time(tick: u64) -> f32 {
    ((tick + 1) as f64 / TICK_HZ) as f32
}

impl CharacterWalk {
    /// Follow the document's scene (`key` its revision): a scene with movers is copied once per revision
    /// (the movers' starts carried over from the previous copy, so an edit mid-walk keeps an opened door
    /// open); a scene without movers drops the copy.
    pub fn follow_scene(&mut self, key: DocKey, scene: &Scene) {
        if scene.movers().is_empty() {
            self.timed = None;
            return;
        }
        if self.timed.as_ref().is_some_and(|t| t.key == key) {
            return;
        }
        let mut copy = scene.clone();
        copy.reset_movers();
        if let Some(old) = &self.timed {
            for m in old.scene.movers() {
                copy.set_mover_start(m.mover, m.started);
            }
        }
        copy.set_time(self.walk_time());
        self.timed = Some(TimedScene {
            key,
            scene: Box::new(copy),
        });
    }

    /// The walk's scene time now: the end of its last step (0 before the first).
    #[must_use]
    pub fn walk_time(&self) -> f32 {
        self.last().map_or(0.0, |m| tick_time(m.tick))
    }

    /// The walk's scene with movers (`None` for a level without movers).
    #[must_use]
    pub fn timed_scene(&self) -> Option<&Scene> {
        self.timed.as_ref().map(|t| &*t.scene)
    }

    /// The scene time the views show: the selected move's end, else the walk's time.
    #[must_use]
    pub fn shown_time(&self) -> f32 {
        self.selected_move()
            .map_or_else(|| self.walk_time(), |m| tick_time(m.tick))
    }

    /// One step on the walk's scene: the movers set to the step's end (`tick`) first, then `step` (the
    /// body's move) on whichever scene applies, then the triggers the body ends in start their movers.
    /// Returns what `step` returned and the movers started.
    pub(super) fn on_timed_scene<R>(
        &mut self,
        tick: u64,
        shared: &Scene,
        physics: &Physics,
        step: impl FnOnce(&Scene) -> (Body, R),
    ) -> (Body, R, Vec<ObjectId>) {
        let Some(timed) = self.timed.as_mut() else {
            let (body, r) = step(shared);
            return (body, r, Vec::new());
        };
        let t = tick_time(tick);
        timed.scene.set_time(t);
        let (body, r) = step(&timed.scene);
        let height = if body.crouching {
            physics.controller.crouch_height
        } else {
            physics.controller.height
        };
        let capsule = crate::character::CharacterController {
            height,
            ..physics.controller
        }
        .capsule(body.feet);
        let mut started = Vec::new();
        for trigger in timed.scene.triggers_at_capsule(&capsule) {
            started.extend(timed.scene.start_triggered(trigger, t));
        }
        (body, r, started)
    }
}

#[cfg(test)]
mod tests {
    use glam::{Vec2, Vec3};

    use super::*;
    use crate::editor::character::model::{TickInput, start_feet};
    use crate::editor::document::Document;
    use crate::level::Level;

    /// A 2 m lift rising 1 m/s from time 0, a trigger beside it that starts a door.
    const LEVEL: &str = r#"(version: 3,
        aabbs: [
            (id: 1, min: (-10.0, -1.0, -10.0), max: (10.0, 0.0, 10.0)),
            (id: 2, min: (-1.0, 0.0, -1.0), max: (1.0, 0.5, 1.0)),
            (id: 3, min: (5.0, 0.0, 5.0), max: (6.0, 3.0, 6.0)),
        ],
        triggers: [(id: 4, shape: Aabb((min: (3.0, 0.0, -1.0), max: (4.0, 2.0, 1.0))))],
        movers: [
            (id: 5, object: 2, path: [(0.0, 0.0, 0.0), (0.0, 2.0, 0.0)], speed: 1.0),
            (id: 6, object: 3, path: [(0.0, 0.0, 0.0), (0.0, 3.0, 0.0)], speed: 1.0,
             start: OnTrigger(4)),
        ])"#;

    fn world() -> (Document, Scene, Physics) {
        let level = Level::from_ron_str(LEVEL).unwrap();
        let scene = Scene::build(&level);
        let doc = Document::new(level, None);
        let physics = crate::editor::character::walk::physics(&doc, &scene);
        (doc, scene, physics)
    }

    #[test]
    fn a_body_on_a_lift_rides_it_and_a_trigger_starts_its_door() {
        let (doc, scene, physics) = world();
        let feet = start_feet(&scene, &physics.controller, Vec2::ZERO, 5.0);
        let mut w = CharacterWalk::new(feet);
        w.follow_scene(doc.key(), &scene);
        assert!(w.timed_scene().is_some());
        // One second idle: the lift rose 1 m and carried the body (not at rest while movers move).
        for _ in 0..60 {
            w.advance(&physics, &scene, TickInput::default(), 1.0 / 60.0 + 1e-9);
        }
        assert!((w.walk_time() - 1.0).abs() < 1e-4, "{}", w.walk_time());
        let top = 1.5;
        assert!(
            (w.body.feet.y - top).abs() < 2.0 * physics.controller.skin,
            "feet {} top {top}",
            w.body.feet.y
        );
        assert!(w.body.grounded);
        // The door has not started; walking into the trigger starts it.
        let door = |w: &CharacterWalk| w.timed_scene().unwrap().mover_offset_at(ObjectId(3), 10.0);
        assert_eq!(door(&w), Vec3::ZERO);
        let mut w2 = CharacterWalk::new(Vec3::new(3.5, 0.01, 0.0));
        w2.follow_scene(doc.key(), &scene);
        w2.advance(&physics, &scene, TickInput::default(), 1.0 / 60.0 + 1e-9);
        w2.tick(&physics, &scene, TickInput::default());
        assert_ne!(door(&w2), Vec3::ZERO, "the trigger started the door");
    }

    #[test]
    fn a_level_without_movers_walks_the_shared_scene() {
        let level = Level::from_ron_str(
            "(version: 3, aabbs: [(id: 1, min: (-5.0, -1.0, -5.0), max: (5.0, 0.0, 5.0))])",
        )
        .unwrap();
        let scene = Scene::build(&level);
        let doc = Document::new(level, None);
        let mut w = CharacterWalk::new(Vec3::new(0.0, 0.01, 0.0));
        w.follow_scene(doc.key(), &scene);
        assert!(w.timed_scene().is_none());
    }
}
