//! The character walking a reachability path (no egui): from the path's first point, each step is the one
//! `move_character(scene, feet, next - feet + (0, -max_step, 0))` a game replaying the path makes from where
//! the character actually is, paced at the walking speed so it can be watched. Each move is kept in the ring
//! like a move made by keys (marked with its point), so the Character tab shows its workings; a move that
//! lands more than a skin from its point (the level changed under the path) stops the walk and says where.

use glam::{Vec2, Vec3};

use super::model::{Body, CharacterWalk, Physics, TICK_HZ, TickInput, WALK_SPEED};
use super::path::PathWalk;
use crate::scene::Scene;

/// The facing (degrees, 0 looking down `-z`, 90 down `-x`) of a motion `d` along the floor.
fn facing_of(d: Vec3) -> Option<f32> {
    (Vec2::new(d.x, d.z).length() > 1e-4).then(|| (-d.x).atan2(-d.z).to_degrees())
}

impl CharacterWalk {
    /// A character standing at the first of `points` (at least two), about to walk them.
    #[must_use]
    pub fn on_path(points: Vec<Vec3>) -> CharacterWalk {
        let mut walk = CharacterWalk::new(points.first().copied().unwrap_or(Vec3::ZERO));
        walk.body.grounded = true;
        walk.path = Some(PathWalk {
            points,
            next: 1,
            strayed: None,
            budget: 0.0,
        });
        walk
    }

    /// Whether it is walking a path now.
    #[must_use]
    pub fn following(&self) -> bool {
        self.path.as_ref().is_some_and(|p| !p.done())
    }

    /// One fixed step of walking the path: once a step's worth of walking has gathered, the move to the
    /// next point. Returns whether a move was made.
    pub(super) fn path_tick(&mut self, physics: &Physics, scene: &Scene) -> bool {
        let before = self.body;
        let Some(p) = self.path.as_mut().filter(|p| !p.done()) else {
            return false;
        };
        p.budget += WALK_SPEED / TICK_HZ as f32;
        let to = p.points[p.next];
        let d = to - before.feet;
        let flat = Vec2::new(d.x, d.z).length();
        if p.budget < flat {
            return false;
        }
        p.budget -= flat;
        let ctl = physics.controller;
        let result = ctl.move_character(scene, before.feet, d + Vec3::NEG_Y * ctl.max_step);
        let off = result.feet.distance(to);
        let step = p.next;
        p.next += 1;
        if !(off <= ctl.skin + 1e-3) {
            p.strayed = Some((step, off));
        }
        let after = Body {
            grounded: result.grounded,
            ground: result.ground,
            ..Body::new(result.feet)
        };
        let input = TickInput {
            facing_deg: facing_of(d).unwrap_or(0.0),
            ..TickInput::default()
        };
        self.record(physics, before, after, input, result, Some(step as u32));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::character::{ReachMap, ReachSettings};
    use crate::level::Level;

    #[test]
    fn a_reach_path_up_the_low_stairs_is_walked_move_by_move() {
        let level = Level::from_ron_str(include_str!("../../../levels/playground.ron"))
            .unwrap_or_else(|e| panic!("{e}"));
        let scene = Scene::build(&level);
        let physics = Physics {
            controller: level.character.unwrap_or_default(),
            gravity: level.simulation.gravity,
            floor_limit: -50.0,
        };
        let map = ReachMap::build(
            &scene,
            &physics.controller,
            Vec3::new(-1.0, 0.0, 0.0),
            &ReachSettings::default(),
        );
        let path = map
            .path(Vec3::new(-16.5, 1.0, -7.0))
            .unwrap_or_else(|| panic!("the landing is reached"));
        let n = path.len();
        let mut w = CharacterWalk::on_path(path.clone());
        assert!(w.following() && !w.at_rest(&TickInput::default()));
        // At 3 m/s: the path (about 18 m) takes some 6 s of frames.
        for _ in 0..400 {
            w.advance(&physics, &scene, TickInput::default(), 0.05);
            if !w.following() {
                break;
            }
        }
        let p = w.path.clone().unwrap_or_else(|| panic!("a path"));
        assert!(p.done() && p.strayed.is_none(), "{}", p.describe());
        assert_eq!(w.moves().len(), n - 1, "one move a point");
        assert!(w.body.feet.distance(path[n - 1]) <= physics.controller.skin + 1e-3);
        assert!(w.moves().iter().all(|m| m.path_step.is_some()));
        assert!(w.inputs().is_none(), "path moves have no keys to replay");
        assert!(w.at_rest(&TickInput::default()));
        // Up on the landing, 1 m up: the steps climbed add up to at least the stairs' five risers.
        assert!((w.body.feet.y - 1.01).abs() < 0.01, "{:?}", w.body);
        let climbed: f32 = w.moves().iter().map(|m| m.result.stepped_up).sum();
        assert!(climbed > 0.99, "{climbed}");
        // A key takes over.
        let mut w = CharacterWalk::on_path(path);
        w.advance(&physics, &scene, TickInput::default(), 0.5);
        let keys = TickInput {
            forward: 1,
            ..TickInput::default()
        };
        w.advance(&physics, &scene, keys, 0.05);
        assert!(w.path.is_none() && !w.following());
        assert_eq!(facing_of(Vec3::new(-1.0, 0.0, 0.0)), Some(90.0));
    }
}
