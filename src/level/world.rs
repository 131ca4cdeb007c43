//! The adapter from levels to the simulation: [`World::from_level`] and [`World::add_trigger`]. The simulation
//! sits below the level format and knows nothing of it; this is the one place a level becomes a world, through
//! the world's public API (its statics in the scene's order, its balls and trigger volumes, each keeping its
//! [`ObjectId`]).

use super::{Level, LevelError, ObjectId, Severity, TriggerShape};
use crate::sim::{Ball, SimSettings, World};
use crate::trigger::TriggerVolume;

impl World {
    /// A world from a level: its balls, planes, cylinders, triangles, boxes, walls (at their height) and
    /// meshes, with the level's gravity.
    ///
    /// # Errors
    /// [`LevelError::Invalid`] when [`Level::validate`] finds errors, or a mesh cannot be built.
    pub fn from_level(level: &Level) -> Result<World, LevelError> {
        let mut problems = level.validate();
        problems.retain(|p| p.severity == Severity::Error);
        if !problems.is_empty() {
            return Err(LevelError::Invalid { problems });
        }
        let mut world = World::new(SimSettings {
            gravity: level.simulation.gravity,
            ..SimSettings::default()
        });
        // The same objects, in the same order, as the game's `Scene` (one conversion of a level's statics),
        // and its movers, which the world moves by its own clock from 0.
        let parts = super::scene::level_parts(level);
        if !parts.problems.is_empty() {
            return Err(LevelError::Invalid {
                problems: parts.problems,
            });
        }
        for (id, s) in parts.statics {
            world.add_static_object(id, s);
        }
        if parts.one_way.iter().any(|&f| f) {
            world.set_one_way(parts.one_way);
        }
        if !parts.movers.is_empty() {
            world.install_movers(parts.movers);
        }
        for b in &level.balls {
            let ball = Ball::new(b.center, b.velocity, b.radius, b.mass, b.restitution);
            world.add_ball_object(b.id, ball);
        }
        for t in &level.triggers {
            world.add_trigger(t.id, &t.shape);
        }
        Ok(world)
    }

    /// Add a level's trigger shape as a trigger volume: [`crate::sim::StepReport::triggers`] reports balls
    /// entering and leaving it, with the exact time inside the step. Returns `false` (and adds nothing) for an
    /// invalid shape.
    pub fn add_trigger(&mut self, id: ObjectId, shape: &TriggerShape) -> bool {
        match TriggerVolume::new(id, shape) {
            Some(v) => {
                self.add_trigger_volume(v);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_room_keeps_every_ball_inside() {
        let text = include_str!("../../levels/magic_room.ron");
        let level = Level::from_ron_str(text).unwrap();
        let mut world = World::from_level(&level).unwrap();
        let dt = level.simulation.dt;
        let mut events = 0;
        for _ in 0..600 {
            let r = world.step(dt);
            events += r.events.len();
            assert!(!r.budget_exhausted);
            for b in world.balls() {
                assert!(b.center.is_finite());
                assert!(b.center.x.abs() <= 4.0 - b.radius + 1e-3, "{b:?}");
                assert!(b.center.z.abs() <= 4.0 - b.radius + 1e-3, "{b:?}");
                assert!(b.center.y >= b.radius - 1e-3, "{b:?}");
            }
        }
        assert!(events > 100, "{events}");
    }
}
