//! A body hung on an edge over its ground: where an edge at the body's side (or past what it climbs) is met
//! first and a walkable floor under the body holds it up (`probe_ground`'s `held_below`), that floor is the
//! body's ground. When the floor lies more than the skin band under where the body would rest on it, the
//! body is not on it but hung on the edge by its rounded bottom, and it could stay there for good: walking
//! on, the edge is too steep to climb; the snap, straight down, is held by the same edge. So the settle
//! slides it down off the edge (the slide turns the fall along the edge, away from it) onto that floor.
//! Found by the navigation soak (sector seed 51): a 0.73 m wide body stepping diagonally up onto a roof past
//! the corner of a higher roof was left by the step 0.27 m over the lower roof, its rounded bottom on the
//! higher roof's corner 61° from up, grounded, and stood there while steering asked it to walk on.

use glam::Vec3;

use super::clip::Planes;
use super::{Mover, SweepPhase};
use crate::character::result::Ground;
use crate::scene::SceneToi;

impl Mover<'_> {
    /// Whether a contact at `point` of the body at `feet` (on a face's interior when `on_face`) is an edge
    /// that holds nothing up by itself: one it hangs beside or holds at its side (`probe_ground`'s rule).
    pub(super) fn beside_edge(&self, feet: Vec3, point: Vec3, on_face: bool) -> bool {
        !on_face && (self.hangs_beside(feet, point) || self.held_at_side(feet, point))
    }

    /// Whether a step landing with its feet at `feet`, held by `contact`, hangs on an edge over the tread
    /// (`tread`, the height straight under the feet) rather than standing on it: the contact an edge at the
    /// body's side or past what it climbs (`probe_ground`'s rule), and the feet higher over the tread than a
    /// body resting on it stands on the steepest walkable slope. Such a step is not taken: the rolling
    /// terrain's property test had a step whose nudges onto the tread ended on a crate's corner 0.34 m over
    /// the terrain it measured as its tread.
    pub(super) fn hangs_over_tread(&self, feet: Vec3, contact: &SceneToi, tread: f32) -> bool {
        let (_, on_face) = self.support(contact, feet);
        if !self.beside_edge(feet, contact.point, on_face) {
            return false;
        }
        let level = self.walkable_y.max(1e-3);
        let rest = self.ctl.radius * (1.0 / level - 1.0) + 2.0 * self.ctl.skin / level;
        feet.y - tread > rest + 1e-3
    }

    /// How far the feet at `feet` are above resting on `ground` (a skin over the plane through its point,
    /// along its normal), measured vertically: about zero for a body standing on its ground.
    fn above_rest(&self, feet: Vec3, ground: &Ground) -> f32 {
        let n = ground.normal;
        if n.y <= 1e-3 {
            return 0.0;
        }
        let r = self.ctl.radius;
        let centre = feet + Vec3::Y * r;
        (n.dot(centre - ground.point) - r - self.ctl.skin) / n.y
    }

    /// Where the body grounded at `end` on `ground` settles when it hangs over that ground (see the module):
    /// slid down off what holds it (`used` of the move's iterations gone), onto walkable ground within
    /// `reach` (snapped when that is farther than the skin), with that ground. `None` when it does not hang,
    /// or the slide brings it down onto nothing walkable.
    pub(super) fn off_the_edge(
        &mut self,
        end: Vec3,
        ground: &Ground,
        used: u32,
        reach: f32,
    ) -> Option<(Vec3, Ground)> {
        let skin = self.ctl.skin;
        // Only a floor found under the body below its feet (a face the body stands on is touched at or above
        // them, an edge it rests on above them).
        if ground.point.y >= end.y - 2.0 * skin - 1e-3 {
            return None;
        }
        let gap = self.above_rest(end, ground);
        if !gap.is_finite() || gap <= skin + 1e-3 {
            return None;
        }
        let (at, _, _) = self.slide(end, Vec3::NEG_Y * (gap + skin), Planes::new(), used);
        if at.y >= end.y - 1e-4 {
            return None;
        }
        let (g, drop) = self.probe_ground(at, reach, SweepPhase::Snap)?;
        let (at, _) = self.settled(at, drop, true)?;
        Some((at, g))
    }
}
