//! A moving capsule against a wall's solid: the union of its box core and the posts at its ends.

use super::cylinder::{cylinder_entry, disk_reach, disk_root, segment_cylinder, segment_disk};
use super::*;

/// A wall's solid in f64: its segment `a..b` on the floor, its radius and height.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WallD {
    pub(crate) a: DVec3,
    pub(crate) b: DVec3,
    pub(crate) r: f64,
    pub(crate) h: f64,
}

impl WallD {
    pub(crate) fn of(wall: &Wall, height: f32) -> Self {
        let lift = |v: Vec2| DVec3::new(f64::from(v.x), 0.0, f64::from(v.y));
        Self {
            a: lift(wall.a),
            b: lift(wall.b),
            r: f64::from(wall.radius),
            h: f64::from(height),
        }
    }

    /// The box around the post at `c` (one of the segment's ends): the cylinder of the wall's radius standing
    /// from the floor to the wall's height.
    fn post_box(&self, c: DVec3) -> (DVec3, DVec3) {
        let r = DVec3::new(self.r, 0.0, self.r);
        (c - r, c + r + DVec3::Y * self.h.max(0.0))
    }

    /// The box around the whole solid: the segment grown by the radius across, from the floor to the height.
    fn bounds(&self) -> (DVec3, DVec3) {
        let r = DVec3::new(self.r, 0.0, self.r);
        (
            self.a.min(self.b) - r,
            self.a.max(self.b) + r + DVec3::Y * self.h.max(0.0),
        )
    }

    /// The closest point of the solid to `p`.
    pub(crate) fn closest(&self, p: DVec3) -> DVec3 {
        point_wall_solid_d(p, self.a, self.b, self.r, self.h)
    }

    /// The closest pair of segment `p..q` and the solid: the nearest of its parts' (the box core, in closed
    /// form in its frame, and the posts: cylinders, disks at no height, bare segments at no radius and length),
    /// each exact, where a golden-section search on the whole takes about 70 steps.
    pub(crate) fn segment_pair(&self, p: DVec3, q: DVec3) -> Pair {
        let mut best = None;
        let core = self.core();
        if let Some((rot, center, half)) = core {
            let to_local = rot.transpose();
            let (s, o) = segment_aabb(
                to_local * (p - center),
                to_local * (q - center),
                -half,
                half,
            );
            best = Some((center + rot * s, center + rot * o));
        }
        let ends: &[DVec3] = if self.a == self.b {
            &[self.a]
        } else {
            &[self.a, self.b]
        };
        for &c in ends {
            // A post whose box is farther from the segment's box than the nearest pair so far cannot be
            // nearer (the common case: a body beside the wall's middle, or at its other end).
            if let Some(b) = best
                && box_gap_squared(lo_hi(p, q), self.post_box(c)) > b.0.distance_squared(b.1)
            {
                continue;
            }
            let top = c + DVec3::Y * self.h;
            let pair = if self.r > 0.0 && self.h > 0.0 {
                segment_cylinder(p, q, c, top, self.r)
            } else if self.r > 0.0 {
                segment_disk(p, q, c, DVec3::Y, self.r)
            } else if core.is_none() {
                closest_segment_segment_d(p, q, c, top)
            } else {
                // The core's end edges are the post.
                continue;
            };
            best = Some(best.map_or(pair, |b| nearer(b, pair)));
        }
        best.unwrap_or((p, self.closest(p)))
    }

    /// The box core's frame: rotation (local x along the wall, y up), centre, half extents.
    fn core(&self) -> Option<(DMat3, DVec3, DVec3)> {
        let along = DVec2::new(self.b.x - self.a.x, self.b.z - self.a.z);
        let len = along.length();
        let e = along.try_normalize()?;
        let x = DVec3::new(e.x, 0.0, e.y);
        let z = DVec3::new(-e.y, 0.0, e.x);
        let center = (self.a + self.b) * 0.5 + DVec3::Y * (self.h * 0.5);
        Some((
            DMat3::from_cols(x, DVec3::Y, z),
            center,
            DVec3::new(len * 0.5, self.h * 0.5, self.r),
        ))
    }
}

/// For a segment meeting a wall's solid: out through the nearest of its side, top and bottom (from the
/// segment's middle), and the point of the wall's boundary nearest the segment.
fn wall_way_out(cap: &CapD, inner: DVec3, w: &WallD) -> (DVec3, DVec3) {
    let mid = (cap.p + cap.q) * 0.5;
    let point = overlap_point(
        cap,
        inner,
        |x| w.closest(x),
        |x| wall_exit(x, w.a, w.b, w.r, w.h).1,
    );
    (wall_exit(mid, w.a, w.b, w.r, w.h).0, point)
}

/// A capsule moving against a wall's solid, in f64.
pub(crate) fn capsule_wall_d(cap: &CapD, m: DVec3, w: &WallD) -> Option<ToiD> {
    let pair_at = |p: DVec3, q: DVec3| w.segment_pair(p, q);
    let (lo, hi) = lo_hi(cap.p, cap.q);
    let reach = DVec3::splat(cap.r + 1e-6);
    // The closest pair is asked only where the capsule's box (a micrometre larger) meets the solid's: a box
    // apart is a capsule apart (the common case: a body standing a skin over a wall's top or beside its face).
    if box_gap_squared((lo - reach, hi + reach), w.bounds()) <= 0.0 {
        let pair = pair_at(cap.p, cap.q);
        if pair.0.distance_squared(pair.1) <= cap.r * cap.r {
            return touching(pair, m, || Some(wall_way_out(cap, pair.0, w)));
        }
    }
    // The solid is its box core and the two posts at its ends; each starts clear of the capsule.
    let core = w.core().and_then(|(rot, center, half)| {
        let to_local = rot.transpose();
        let local = CapD {
            p: to_local * (cap.p - center),
            q: to_local * (cap.q - center),
            r: cap.r,
        };
        box_entry(&local, to_local * m, -half, half)
    });
    // The box the capsule sweeps through, a micrometre larger than it (a contact is found within a root
    // tolerance of 1e-15 of the scene's scale): a post whose box it misses is not met.
    let swept = (lo.min(lo + m) - reach, hi.max(hi + m) + reach);
    let post = |c: DVec3| {
        if box_gap_squared(swept, w.post_box(c)) > 0.0 {
            None
        } else if w.r > 0.0 {
            cylinder_entry(cap, m, c, c + DVec3::Y * w.h, w.r)
        } else if core.is_none() {
            // A wall of no length and no radius: the vertical segment at its end (the core's end edges
            // stand there otherwise).
            segments_entry(cap, m, c, c + DVec3::Y * w.h, cap.r)
        } else {
            None
        }
    };
    // A wall of no height is its flat outline on the floor: the core is a flat box, and each post a disk (or a
    // point, with no radius and no length).
    let post_flat = |c: DVec3| {
        if w.r > 0.0 {
            flat_post(cap, m, c, w.r)
        } else if core.is_none() {
            segments_entry(cap, m, c, c, cap.r)
        } else {
            None
        }
    };
    let t = if w.h > 0.0 {
        earliest([core, post(w.a), post(w.b)])
    } else {
        earliest([core, post_flat(w.a), post_flat(w.b)])
    }?;
    contact(t, cap, m, pair_at, 0.0)
}

/// First contact with the floor disk of radius `wr` at `c` (the post of a wall of no height).
fn flat_post(cap: &CapD, m: DVec3, c: DVec3, wr: f64) -> Option<f64> {
    if !(wr > 0.0) || m == DVec3::ZERO {
        return None;
    }
    let range = disk_reach(cap, m, c, DVec3::Y, wr, 1.0)?;
    disk_root(cap, m, c, DVec3::Y, wr, range)
}

/// A moving capsule against a wall extruded from the floor (`y = 0`) to `height`: the same solid as
/// `sphere_wall` and the scene's walls (every point within the wall's radius of its segment, top-down, with
/// `y` in `0..=height`), taken as its box core and the round posts at its ends.
///
/// ```
/// use collidoscope::{glam::{Vec2, Vec3}, shape::{Capsule, Wall}, query::sweep::capsule_wall};
/// // A wall along x at z = 0 (radius 0.25, 2 high); a character capsule walking -z toward it.
/// let wall = Wall::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0), 0.25);
/// let c = Capsule::new(Vec3::new(0.0, 0.3, 3.0), Vec3::new(0.0, 1.5, 3.0), 0.3);
/// let toi = capsule_wall(&c, Vec3::new(0.0, 0.0, -3.0), &wall, 2.0).unwrap();
/// // Touching when the axis is 0.25 + 0.3 from the wall's line: after 2.45 of 3.
/// assert!((toi.t - 2.45 / 3.0).abs() < 1e-6);
/// assert_eq!(toi.normal, Vec3::Z);
/// ```
#[must_use]
pub fn capsule_wall(capsule: &Capsule, motion: Vec3, wall: &Wall, height: f32) -> Option<Toi> {
    let (cap, m) = start(capsule, motion)?;
    if !wall.is_valid() || !(height >= 0.0) || !height.is_finite() {
        return None;
    }
    capsule_wall_d(&cap, m, &WallD::of(wall, height))?.to_f32()
}

/// The corners of the box around `p` and `q`.
fn lo_hi(p: DVec3, q: DVec3) -> (DVec3, DVec3) {
    (p.min(q), p.max(q))
}

/// The squared distance between two boxes (`(min, max)` each): 0 where they meet.
fn box_gap_squared(a: (DVec3, DVec3), b: (DVec3, DVec3)) -> f64 {
    let gap = (b.0 - a.1).max(a.0 - b.1).max(DVec3::ZERO);
    gap.length_squared()
}
