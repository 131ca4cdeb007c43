//! Movers' ways: the room a moving object sweeps, which walking keeps out of.
//!
//! The map is baked where the scene's objects stand at its time, but a lift's plate or a sector's rising floor
//! is not there a moment later: a place on it carries a body off, a drop into its shaft lands where the floor
//! will rise, and a place under its path is where it comes down. So for each mover that has started and moves
//! (`Always`, or an `OnTrigger` one the scene says started), its way is the box its moved entries sweep over
//! two minutes of its timetable, grown a body's radius across (a body whose feet stand that near overlaps
//! it), from a body's height below its lowest to a step above its highest. Nodes with their feet in a way
//! are left out of walking, drops and jumps (a search may start on one, never go to one; only ride links go
//! across a mover, `ride.rs`), and a straightened shortcut never crosses a way. A mover that has not started
//! stands as the level places it: the map walks on it as on anything else.

use glam::{Vec2, Vec3};

use crate::character::{CharacterController, MoveGraph};
use crate::id::ObjectId;
use crate::mover::MoverPart;
use crate::scene::Scene;
use crate::shape::Aabb;

/// How long a mover's timetable is sampled, seconds, and how often a second.
const SPAN: f32 = 120.0;
const RATE: f32 = 30.0;

/// One mover's way for one agent: the footprint (grown a radius) and the heights a node's feet are in it at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Way {
    lo: Vec2,
    hi: Vec2,
    below: f32,
    above: f32,
}

impl Way {
    /// Whether feet at `p` stand in the way.
    fn holds(&self, p: Vec3) -> bool {
        p.x > self.lo.x
            && p.x < self.hi.x
            && p.z > self.lo.y
            && p.z < self.hi.y
            && p.y > self.below
            && p.y <= self.above
    }

    /// Whether a walk from `a` to `b` (across, at heights between theirs) passes through the way.
    fn crossed_by(&self, a: Vec3, b: Vec3) -> bool {
        if a.y.max(b.y) <= self.below || a.y.min(b.y) > self.above {
            return false;
        }
        // The segment against the rectangle (slabs on x and z).
        let (p, d) = (Vec2::new(a.x, a.z), Vec2::new(b.x - a.x, b.z - a.z));
        let (mut t0, mut t1) = (0.0f32, 1.0f32);
        for (p, d, lo, hi) in [
            (p.x, d.x, self.lo.x, self.hi.x),
            (p.y, d.y, self.lo.y, self.hi.y),
        ] {
            if d == 0.0 {
                if p <= lo || p >= hi {
                    return false;
                }
                continue;
            }
            let (s0, s1) = ((lo - p) / d, (hi - p) / d);
            t0 = t0.max(s0.min(s1));
            t1 = t1.min(s0.max(s1));
        }
        t0 < t1
    }
}

/// What a moving mover sweeps, whatever the agent: the box, and whether it is a ceiling (which comes down
/// onto bodies under it but carries none).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Swept {
    bounds: Aabb,
    ceiling: bool,
}

/// What each of `scene`'s moving movers sweeps (see the module): found once per bake or update, its
/// timetable sampled, and grown into each agent's ways by [`ways`].
pub(super) fn swept(scene: &Scene) -> Vec<Swept> {
    let movers = scene.movers();
    if movers.is_empty() {
        return Vec::new();
    }
    let bounds = moved_bounds(scene);
    let mut out = Vec::new();
    for m in movers {
        let (Some(start), Some(now_box)) = (m.started, bounds.get(&m.object)) else {
            continue;
        };
        let now = scene.mover_offset_at(m.object, scene.time());
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for k in 0..=(SPAN * RATE) as usize {
            let o = scene.mover_offset_at(m.object, start + k as f32 / RATE) - now;
            (lo, hi) = (lo.min(o), hi.max(o));
        }
        if !(lo.is_finite() && hi.is_finite()) || (hi - lo).length() < 1e-3 {
            continue;
        }
        out.push(Swept {
            bounds: Aabb::new(now_box.min + lo, now_box.max + hi),
            ceiling: m.part == MoverPart::Ceiling,
        });
    }
    out
}

/// The ways of the movers that swept `swept` for bodies of `ctl`'s size (see the module).
pub(super) fn ways(swept: &[Swept], ctl: &CharacterController) -> Vec<Way> {
    swept
        .iter()
        .map(|&Swept { bounds: b, ceiling }| Way {
            lo: Vec2::new(b.min.x, b.min.z) - ctl.radius,
            hi: Vec2::new(b.max.x, b.max.z) + ctl.radius,
            below: b.min.y - ctl.height,
            // A moved ceiling comes down onto bodies under it, a floor carries bodies on it and comes down too.
            above: if ceiling {
                b.max.y
            } else {
                b.max.y + ctl.max_step
            },
        })
        .collect()
}

/// For each node of `graph`, whether its feet stand in one of `ways` (empty without ways).
pub(super) fn nodes_in(graph: &MoveGraph, ways: &[Way]) -> Vec<bool> {
    if ways.is_empty() {
        return Vec::new();
    }
    (0..graph.len() as u32)
        .map(|n| {
            let feet = graph.feet(n);
            ways.iter().any(|w| w.holds(feet))
        })
        .collect()
}

/// Whether a shortcut from `a` to `b` crosses one of `ways`.
pub(super) fn crosses(ways: &[Way], a: Vec3, b: Vec3) -> bool {
    ways.iter().any(|w| w.crossed_by(a, b))
}

/// The bounds of each moved object's moving entries at the scene's time.
pub(super) fn moved_bounds(scene: &Scene) -> std::collections::HashMap<ObjectId, Aabb> {
    let mut out: std::collections::HashMap<ObjectId, Aabb> = std::collections::HashMap::new();
    for (i, (id, shape)) in scene.ids().iter().zip(scene.shapes()).enumerate() {
        if !scene.is_moving_entry(i) {
            continue;
        }
        let Some(b) = shape.bounds().filter(|b| b.is_valid()) else {
            continue;
        };
        out.entry(*id).and_modify(|a| *a = a.union(&b)).or_insert(b);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn way() -> Way {
        Way {
            lo: Vec2::new(0.0, -1.0),
            hi: Vec2::new(2.0, 1.0),
            below: -2.0,
            above: 3.3,
        }
    }

    #[test]
    fn feet_in_the_footprint_at_its_heights_are_in_the_way() {
        let w = way();
        assert!(w.holds(Vec3::new(1.0, 0.0, 0.0)));
        assert!(w.holds(Vec3::new(1.0, 3.3, 0.0)));
        assert!(!w.holds(Vec3::new(1.0, 3.31, 0.0)));
        assert!(!w.holds(Vec3::new(1.0, -2.0, 0.0)));
        assert!(!w.holds(Vec3::new(2.0, 0.0, 0.0)));
        assert!(!w.holds(Vec3::new(-0.5, 0.0, 0.0)));
    }

    #[test]
    fn a_shortcut_crosses_the_way_through_its_footprint_at_its_heights() {
        let w = way();
        let at = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
        // Across the middle, and diagonally through a corner.
        assert!(w.crossed_by(at(-1.0, 0.0, 0.0), at(3.0, 0.0, 0.0)));
        assert!(w.crossed_by(at(-0.5, 0.0, 0.5), at(0.5, 0.0, 1.2)));
        // Beside it, along its edge, past its corner, above it, stopping short.
        assert!(!w.crossed_by(at(-1.0, 0.0, 1.5), at(3.0, 0.0, 1.5)));
        assert!(!w.crossed_by(at(-1.0, 0.0, 1.0), at(3.0, 0.0, 1.0)));
        assert!(!w.crossed_by(at(-1.0, 0.0, 0.5), at(0.0, 0.0, 1.6)));
        assert!(!w.crossed_by(at(-1.0, 4.0, 0.0), at(3.0, 4.0, 0.0)));
        assert!(!w.crossed_by(at(-1.0, 0.0, 0.0), at(-0.1, 0.0, 0.0)));
        // A point inside: crossed.
        assert!(w.crossed_by(at(1.0, 0.0, 0.0), at(1.0, 0.0, 0.0)));
    }
}
