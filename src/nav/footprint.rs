//! Where a take-off direction's simulations went, across: what an update asks to tell whether an edit could
//! have changed them (`update.rs`). Two shapes hold every point grown into the footprint: the box across (x and
//! z) and a strip along the direction flown (from the take-off, as far along and as far to either side as any
//! point went). An edit clear of either is clear of every point, so the update asks both: the box alone held a
//! diagonal flight's whole square, and on the bench's 100 m maze most of the directions an edit of a room
//! flew again were diagonal flights whose strip passed clear of the edit. And the heights the feet were at:
//! an edit far enough below or above every point (a crate on the floor under a flight between wall tops) is
//! clear of the bodies there and of every sweep their steps made (`near_at`).

use glam::{Vec2, Vec3};

use crate::shape::Aabb;

/// Where the simulations along one take-off direction went, across (see the module).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Footprint {
    /// `(min x, min z, max x, max z)` of every point grown in (empty: minima above maxima).
    bounds: [f32; 4],
    /// The strip's origin (the take-off's feet, across) and its unit direction (the direction flown).
    origin: Vec2,
    dir: Vec2,
    /// `(min, max)` of every point's distance along `dir` from `origin`, and across it (to the left, positive).
    along: [f32; 2],
    aside: [f32; 2],
    /// `(min, max)` of every point's height.
    heights: [f32; 2],
}

/// Whether the box across `a` (`min x, min z, max x, max z`), grown by `by`, overlaps `b` across (x and z).
pub(super) fn boxes_meet(a: &[f32; 4], b: &Aabb, by: f32) -> bool {
    a[0] - by <= b.max.x && a[2] + by >= b.min.x && a[1] - by <= b.max.z && a[3] + by >= b.min.z
}

/// How much wider the strip is taken than its points, metres (see `strip_meets`).
const ROUNDING: f32 = 1e-4;

/// An interval that holds nothing yet.
const EMPTY: [f32; 2] = [f32::INFINITY, f32::NEG_INFINITY];

impl Footprint {
    /// A footprint holding nothing yet, its strip from `origin` along `dir` (a zero or non-finite direction:
    /// along x; the strip is then as wide as the box, and as sound).
    pub(super) fn new(origin: Vec3, dir: Vec2) -> Self {
        let dir = dir.try_normalize().unwrap_or(Vec2::X);
        Self {
            bounds: [
                f32::INFINITY,
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::NEG_INFINITY,
            ],
            origin: Vec2::new(origin.x, origin.z),
            dir,
            along: EMPTY,
            aside: EMPTY,
            heights: EMPTY,
        }
    }

    /// Grown to hold `p` across.
    pub(super) fn grow(&mut self, p: Vec3) {
        let b = &mut self.bounds;
        *b = [b[0].min(p.x), b[1].min(p.z), b[2].max(p.x), b[3].max(p.z)];
        let d = Vec2::new(p.x, p.z) - self.origin;
        let (a, s) = (d.dot(self.dir), self.dir.perp_dot(d));
        self.along = [self.along[0].min(a), self.along[1].max(a)];
        self.aside = [self.aside[0].min(s), self.aside[1].max(s)];
        self.heights = [self.heights[0].min(p.y), self.heights[1].max(p.y)];
    }

    /// The box's least and greatest x (the least above the greatest when it holds nothing).
    pub(super) fn x_range(&self) -> (f32, f32) {
        (self.bounds[0], self.bounds[2])
    }

    /// The box across, `(min x, min z, max x, max z)`.
    #[cfg(test)]
    pub(super) fn bounds(&self) -> [f32; 4] {
        self.bounds
    }

    /// Whether some point of `b` (across) lies within `by` of the footprint along both its box's axes and its
    /// strip's: both grown by `by` overlap `b`. `false` for a footprint holding nothing, or anything not finite
    /// in `b` (an update takes a box not finite as everything before it asks).
    pub(super) fn near(&self, b: &Aabb, by: f32) -> bool {
        boxes_meet(&self.bounds, b, by) && self.strip_meets(b, by)
    }

    /// Whether `p` lies within `by` of the footprint (across) along both its box's axes and its strip's.
    #[cfg(test)]
    pub(super) fn holds(&self, p: Vec3, by: f32) -> bool {
        self.near(&Aabb::new(p, p), by)
    }

    /// [`Footprint::near`], and `b`'s heights reach from `below` under the lowest point to `above` over the
    /// highest (both not negative; `false` for a footprint holding nothing).
    pub(super) fn near_at(&self, b: &Aabb, by: f32, (below, above): (f32, f32)) -> bool {
        self.near(b, by) && b.max.y >= self.heights[0] - below && b.min.y <= self.heights[1] + above
    }

    /// [`Footprint::holds`], and `p` within `(below, above)` of the points' heights as [`Footprint::near_at`].
    pub(super) fn holds_at(&self, p: Vec3, by: f32, vertical: (f32, f32)) -> bool {
        self.near_at(&Aabb::new(p, p), by, vertical)
    }

    /// Whether the strip grown by `by` on its own axes overlaps the box `b` across: no separating axis among
    /// x, z, the strip's direction and the one across it.
    fn strip_meets(&self, b: &Aabb, by: f32) -> bool {
        let (dir, perp) = (self.dir, self.dir.perp());
        let half = Vec2::new(
            0.5 * (self.along[1] - self.along[0]) + by,
            0.5 * (self.aside[1] - self.aside[0]) + by,
        );
        let centre = self.origin
            + dir * 0.5 * (self.along[0] + self.along[1])
            + perp * 0.5 * (self.aside[0] + self.aside[1]);
        let (lo, hi) = (Vec2::new(b.min.x, b.min.z), Vec2::new(b.max.x, b.max.z));
        let (box_centre, box_half) = (0.5 * (lo + hi), 0.5 * (hi - lo));
        let gap = box_centre - centre;
        // The strip's reach along a unit axis `u`, and the box's.
        let strip = |u: Vec2| half.x * dir.dot(u).abs() + half.y * perp.dot(u).abs();
        let boxed = |u: Vec2| box_half.x * u.x.abs() + box_half.y * u.y.abs();
        // A tenth of a millimetre more: the rounding of the projections never puts a point grown in outside.
        [Vec2::X, Vec2::Y, dir, perp]
            .into_iter()
            .all(|u| gap.dot(u).abs() <= strip(u) + boxed(u) + ROUNDING)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aabb(x0: f32, z0: f32, x1: f32, z1: f32) -> Aabb {
        Aabb::new(Vec3::new(x0, 0.0, z0), Vec3::new(x1, 1.0, z1))
    }

    #[test]
    fn a_diagonal_flights_strip_is_clear_of_a_box_in_its_squares_corner() {
        // A flight from the origin 4 m along the diagonal, straight (a centimetre aside at most).
        let dir = Vec2::new(1.0, 1.0);
        let mut f = Footprint::new(Vec3::ZERO, dir);
        for k in 0..=40 {
            let t = k as f32 * 0.1 * std::f32::consts::FRAC_1_SQRT_2;
            f.grow(Vec3::new(t + 0.005, 0.5, t - 0.005));
        }
        assert_eq!(f.bounds()[0], 0.005);
        // A box in the square's far corner, off the diagonal: in the box, clear of the strip.
        let corner = aabb(2.3, -0.2, 2.8, 0.3);
        assert!(!f.near(&corner, 0.4));
        // The same box on the line, and one touching the strip's grown edge.
        assert!(f.near(&aabb(1.2, 1.2, 1.6, 1.6), 0.4));
        assert!(f.near(&aabb(1.8, 1.3, 2.0, 1.5), 0.4));
        // Points: one on the line's end, one past it, one beside it within the growth.
        assert!(f.holds(Vec3::new(2.83, 0.0, 2.83), 0.1));
        assert!(!f.holds(Vec3::new(3.5, 0.0, 3.5), 0.1));
        assert!(f.holds(Vec3::new(1.5, 0.0, 1.3), 0.2));
        assert!(!f.holds(Vec3::new(2.0, 0.0, 0.5), 0.2));
    }

    #[test]
    fn every_point_grown_in_is_held_and_nothing_is_held_by_an_empty_footprint() {
        let empty = Footprint::new(Vec3::ONE, Vec2::new(0.3, -0.8));
        assert!(!empty.near(&aabb(-100.0, -100.0, 100.0, 100.0), 1.0));
        assert!(!empty.holds(Vec3::ONE, 1.0));
        // Points scattered about (a seeded sequence), each held once grown in, by every direction.
        let mut seed = 7u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1 << 24) as f32 * 10.0 - 5.0
        };
        for dir in [
            Vec2::X,
            Vec2::new(-1.0, 2.0),
            Vec2::ZERO,
            Vec2::new(f32::NAN, 1.0),
        ] {
            let mut f = Footprint::new(Vec3::new(0.5, 0.0, -0.5), dir);
            let mut points = Vec::new();
            for _ in 0..30 {
                let p = Vec3::new(next(), 0.0, next());
                f.grow(p);
                points.push(p);
                assert!(points.iter().all(|&q| f.holds(q, 0.0)), "{dir}");
            }
        }
    }

    #[test]
    fn an_edit_below_or_above_every_point_by_more_than_the_reach_is_clear() {
        // A flight between two wall tops 2.5 m up, rising to 3.3 m.
        let mut f = Footprint::new(Vec3::new(0.0, 2.5, 0.0), Vec2::X);
        for (x, y) in [(0.0, 2.5), (1.0, 3.1), (2.0, 3.3), (3.0, 3.0), (3.7, 2.5)] {
            f.grow(Vec3::new(x, y, 0.0));
        }
        let crate_at =
            |y0: f32, y1: f32| Aabb::new(Vec3::new(1.0, y0, -0.5), Vec3::new(2.0, y1, 0.5));
        let reach = (0.9, 2.4);
        // A crate 1 m high on the floor: 1.5 m under the lowest point, more than the 0.9 reached below.
        assert!(f.near(&crate_at(0.0, 1.0), 0.4));
        assert!(!f.near_at(&crate_at(0.0, 1.0), 0.4, reach));
        // One reaching to 1.65 m (within 0.9 under 2.5), and a ceiling within 2.4 over the 3.3 m top, are not
        // clear; a little farther, they are.
        assert!(f.near_at(&crate_at(0.0, 1.65), 0.4, reach));
        assert!(!f.near_at(&crate_at(0.0, 1.55), 0.4, reach));
        assert!(f.near_at(&crate_at(5.65, 6.0), 0.4, reach));
        assert!(!f.near_at(&crate_at(5.75, 6.0), 0.4, reach));
        // Points likewise; and across, as `holds`.
        assert!(f.holds_at(Vec3::new(2.0, 1.65, 0.0), 0.1, reach));
        assert!(!f.holds_at(Vec3::new(2.0, 1.55, 0.0), 0.1, reach));
        assert!(!f.holds_at(Vec3::new(2.0, 2.5, 1.0), 0.1, reach));
        let empty = Footprint::new(Vec3::ZERO, Vec2::X);
        assert!(!empty.near_at(&crate_at(-9.0, 9.0), 0.4, reach));
    }

    #[test]
    fn an_axis_aligned_flight_answers_as_its_box() {
        let mut f = Footprint::new(Vec3::ZERO, Vec2::X);
        f.grow(Vec3::new(0.0, 0.0, 0.0));
        f.grow(Vec3::new(3.0, 1.0, 0.2));
        for (b, near) in [
            (aabb(1.0, 0.5, 2.0, 1.0), true),
            (aabb(1.0, 0.65, 2.0, 1.0), false),
            (aabb(3.39, -1.0, 4.0, 1.0), true),
            (aabb(3.6, -1.0, 4.0, 1.0), false),
            (aabb(-1.0, -1.0, -0.5, 1.0), false),
        ] {
            assert_eq!(f.near(&b, 0.4), near, "{b:?}");
        }
    }
}
