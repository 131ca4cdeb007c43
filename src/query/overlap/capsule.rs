//! Overlap tests of a capsule against every static shape kind: the distance from the capsule's segment to the
//! shape (exact closest pairs, see `closest_segment`) at most its radius. Touching counts; an invalid shape on
//! either side is `false`.

use glam::DVec3;

use super::super::closest::point_aabb_d;
use super::super::closest_segment::{segment_point, segment_triangle};
use super::super::segment::closest_segment_segment_d;
use super::super::sweep::{CapD, WallD, cylinder_pair, obb_pair, plane_pair};
use super::super::{closest_segment::segment_aabb, d3};
use crate::shape::{Aabb, Capsule, Cylinder, Obb, Plane, Sphere, Triangle, Wall};

/// Whether the pair's points are within `r` (touching counts).
#[inline]
fn within((s, o): (DVec3, DVec3), r: f64) -> bool {
    s.distance_squared(o) <= r * r
}

/// Whether a lower bound on the distance from the capsule's segment to a shape exceeds the radius `r` by a margin
/// no rounding of the exact closest pair comes near (`1e-9` of the coordinates' size): then the exact test
/// answers "apart" too, and is skipped. A quick reject only: every answer stays the exact test's.
#[inline]
fn clearly_apart(lower_bound: f64, r: f64, scale: f64) -> bool {
    lower_bound - r > 1e-9 * (1.0 + scale)
}

/// Whether a point of the segment lies within `r` of a shape by a margin no rounding of the exact closest pair
/// comes near (`upper_bound`: that point's distance, which the segment's distance cannot exceed): then the exact
/// test answers "touching" too, and is skipped.
#[inline]
fn clearly_within(upper_bound: f64, r: f64, scale: f64) -> bool {
    r - upper_bound > 1e-9 * (1.0 + scale)
}

/// The largest coordinate of the points, for [`clearly_apart`]'s margin.
#[inline]
fn scale_of(points: &[DVec3]) -> f64 {
    points.iter().fold(0.0, |m, p| m.max(p.abs().max_element()))
}

/// How far the segment `p..q` lies outside the box `min..max` along its farthest-apart axis: a lower bound on
/// their distance (negative when their boxes overlap on every axis).
#[inline]
fn axis_gap(p: DVec3, q: DVec3, min: DVec3, max: DVec3) -> f64 {
    (p.min(q) - max).max(min - p.max(q)).max_element()
}

/// The capsule in f64, when valid.
fn cap(c: &Capsule) -> Option<CapD> {
    c.is_valid().then(|| CapD::of(c))
}

/// A capsule and a solid sphere.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Capsule, Sphere}, query::overlap::capsule_sphere};
/// let c = Capsule::new(Vec3::ZERO, Vec3::new(0.0, 2.0, 0.0), 0.5);
/// assert!(capsule_sphere(&c, &Sphere::new(Vec3::new(1.5, 1.0, 0.0), 1.0))); // touching
/// assert!(!capsule_sphere(&c, &Sphere::new(Vec3::new(1.6, 1.0, 0.0), 1.0)));
/// ```
#[must_use]
pub fn capsule_sphere(capsule: &Capsule, sphere: &Sphere) -> bool {
    let Some(c) = cap(capsule) else { return false };
    sphere.is_valid()
        && within(
            segment_point(c.p, c.q, d3(sphere.center)),
            c.r + f64::from(sphere.radius),
        )
}

/// A capsule and a solid axis-aligned box.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Aabb, Capsule}, query::overlap::capsule_aabb};
/// let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
/// // Lying along x at height 1.5 with radius 0.5: touching the top face.
/// assert!(capsule_aabb(&Capsule::new(Vec3::new(-3.0, 1.5, 0.5), Vec3::new(3.0, 1.5, 0.5), 0.5), &b));
/// assert!(!capsule_aabb(&Capsule::new(Vec3::new(-3.0, 1.6, 0.5), Vec3::new(3.0, 1.6, 0.5), 0.5), &b));
/// ```
#[must_use]
pub fn capsule_aabb(capsule: &Capsule, aabb: &Aabb) -> bool {
    let Some(c) = cap(capsule) else { return false };
    if !aabb.is_valid() {
        return false;
    }
    let (min, max) = (d3(aabb.min), d3(aabb.max));
    let scale = scale_of(&[c.p, c.q, min, max]);
    if clearly_apart(axis_gap(c.p, c.q, min, max), c.r, scale) {
        return false;
    }
    let end = |x: DVec3| x.distance(point_aabb_d(x, min, max));
    if clearly_within(end(c.p).min(end(c.q)), c.r, scale) {
        return true;
    }
    within(segment_aabb(c.p, c.q, min, max), c.r)
}

/// A capsule and a solid oriented box, measured in the box's frame (through the transpose of its rotation, as
/// [`crate::query::sweep::capsule_obb`] measures it), in f64.
///
/// ```
/// use collidoscope::{glam::{Mat3, Vec3}, shape::{Capsule, Obb}, query::overlap::capsule_obb};
/// let b = Obb::new(Vec3::ZERO, Vec3::ONE, Mat3::from_rotation_y(std::f32::consts::FRAC_PI_4));
/// // The box's vertical edge reaches x = sqrt(2) ≈ 1.414.
/// assert!(capsule_obb(&Capsule::new(Vec3::new(1.9, -1.0, 0.0), Vec3::new(1.9, 1.0, 0.0), 0.5), &b));
/// assert!(!capsule_obb(&Capsule::new(Vec3::new(2.0, -1.0, 0.0), Vec3::new(2.0, 1.0, 0.0), 0.5), &b));
/// ```
#[must_use]
pub fn capsule_obb(capsule: &Capsule, obb: &Obb) -> bool {
    let Some(c) = cap(capsule) else { return false };
    obb.is_valid() && within(obb_pair(&c, obb), c.r)
}

/// A capsule and a plane's surface (a capsule lying across it touches it).
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Capsule, Plane}, query::overlap::capsule_plane};
/// let floor = Plane::new(Vec3::Y, 0.0);
/// assert!(capsule_plane(&Capsule::new(Vec3::new(0.0, 0.5, 0.0), Vec3::new(0.0, 2.0, 0.0), 0.5), &floor));
/// assert!(!capsule_plane(&Capsule::new(Vec3::new(0.0, 0.6, 0.0), Vec3::new(0.0, 2.0, 0.0), 0.5), &floor));
/// ```
#[must_use]
pub fn capsule_plane(capsule: &Capsule, plane: &Plane) -> bool {
    let Some(c) = cap(capsule) else { return false };
    plane.is_valid() && within(plane_pair(&c, plane), c.r)
}

/// A capsule and a triangle's surface (both faces).
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Capsule, Triangle}, query::overlap::capsule_triangle};
/// let t = Triangle::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 2.0));
/// // Lying across above the triangle's hypotenuse, 0.5 up: touching.
/// assert!(capsule_triangle(&Capsule::new(Vec3::new(-1.0, 0.5, -1.0), Vec3::new(3.0, 0.5, 3.0), 0.5), &t));
/// assert!(!capsule_triangle(&Capsule::new(Vec3::new(-1.0, 0.6, -1.0), Vec3::new(3.0, 0.6, 3.0), 0.5), &t));
/// ```
#[must_use]
pub fn capsule_triangle(capsule: &Capsule, triangle: &Triangle) -> bool {
    let Some(c) = cap(capsule) else { return false };
    triangle.is_valid()
        && within(
            segment_triangle(c.p, c.q, d3(triangle.a), d3(triangle.b), d3(triangle.c)),
            c.r,
        )
}

/// Two capsules: their segments within the sum of the radii.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::Capsule, query::overlap::capsule_capsule};
/// let a = Capsule::new(Vec3::new(-2.0, 1.0, 0.0), Vec3::new(2.0, 1.0, 0.0), 0.5);
/// assert!(capsule_capsule(&a, &Capsule::new(Vec3::new(0.0, 0.0, -2.0), Vec3::new(0.0, 0.0, 2.0), 0.5)));
/// assert!(!capsule_capsule(&a, &Capsule::new(Vec3::new(0.0, -0.1, -2.0), Vec3::new(0.0, -0.1, 2.0), 0.5)));
/// ```
#[must_use]
pub fn capsule_capsule(a: &Capsule, b: &Capsule) -> bool {
    let (Some(a), Some(b)) = (cap(a), cap(b)) else {
        return false;
    };
    within(closest_segment_segment_d(a.p, a.q, b.p, b.q), a.r + b.r)
}

/// A capsule and a solid capped cylinder.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Capsule, Cylinder}, query::overlap::capsule_cylinder};
/// let pillar = Cylinder::new(Vec3::ZERO, Vec3::new(0.0, 4.0, 0.0), 1.0);
/// assert!(capsule_cylinder(&Capsule::new(Vec3::new(1.5, 1.0, 0.0), Vec3::new(1.5, 3.0, 0.0), 0.5), &pillar));
/// // Above the top rim (4 + 0.5 away is out of reach of a sloping capsule ending 0.6 above it).
/// assert!(!capsule_cylinder(&Capsule::new(Vec3::new(0.0, 4.6, 0.0), Vec3::new(3.0, 7.0, 0.0), 0.5), &pillar));
/// ```
#[must_use]
pub fn capsule_cylinder(capsule: &Capsule, cylinder: &Cylinder) -> bool {
    let Some(c) = cap(capsule) else { return false };
    cylinder.is_valid() && within(cylinder_pair(&c, cylinder), c.r)
}

/// A capsule and a wall extruded from the floor (`y = 0`) to `height`: the solid the scene and
/// `sphere_wall` use (every point within the wall's radius of its segment, top-down, with `y` in
/// `0..=height`). An invalid wall or a negative or non-finite height is `false`.
///
/// ```
/// use collidoscope::{glam::{Vec2, Vec3}, shape::{Capsule, Wall}, query::overlap::capsule_wall};
/// let wall = Wall::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0), 0.25);
/// let body = |z: f32| Capsule::new(Vec3::new(0.0, 0.3, z), Vec3::new(0.0, 1.5, z), 0.3);
/// assert!(capsule_wall(&body(0.55), &wall, 2.0));
/// assert!(!capsule_wall(&body(0.56), &wall, 2.0));
/// // Standing on top of it.
/// assert!(!capsule_wall(&Capsule::new(Vec3::new(0.0, 2.31, 0.0), Vec3::new(0.0, 3.5, 0.0), 0.3), &wall, 2.0));
/// ```
#[must_use]
pub fn capsule_wall(capsule: &Capsule, wall: &Wall, height: f32) -> bool {
    let Some(c) = cap(capsule) else { return false };
    if !wall.is_valid() || !(height >= 0.0) || !height.is_finite() {
        return false;
    }
    let w = WallD::of(wall, height);
    // Lower bounds: the top-down distance to the wall's footprint (its segment widened by its radius), and the
    // height above its top or below its foot.
    let flat = |v: DVec3| DVec3::new(v.x, 0.0, v.z);
    let (s, o) = closest_segment_segment_d(flat(c.p), flat(c.q), w.a, w.b);
    let across = s.distance(o) - w.r;
    let (lo, hi) = (c.p.y.min(c.q.y), c.p.y.max(c.q.y));
    let gap = across.max(lo - w.h).max(-hi);
    let scale = scale_of(&[c.p, c.q, w.a, w.b]).max(w.h).max(w.r);
    if clearly_apart(gap, c.r, scale) {
        return false;
    }
    let end = |x: DVec3| x.distance(w.closest(x));
    if clearly_within(end(c.p).min(end(c.q)), c.r, scale) {
        return true;
    }
    within(w.segment_pair(c.p, c.q), c.r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Vec2, Vec3};

    /// A small deterministic generator.
    struct Lcg(u64);
    impl Lcg {
        fn f(&mut self, lo: f32, hi: f32) -> f32 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            lo + (hi - lo) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
        }
        fn v(&mut self, s: f32) -> Vec3 {
            Vec3::new(self.f(-s, s), self.f(-s, s), self.f(-s, s))
        }
    }

    /// The quick rejects and accepts of `capsule_aabb` and `capsule_wall` never change an answer: against the
    /// exact closest pair on random capsules, with radii set to the exact distance and a hair either side.
    #[test]
    fn quick_tests_keep_the_exact_answers() {
        let mut g = Lcg(7);
        for i in 0..60_000 {
            let s = [0.01, 1.0, 30.0, 2000.0][i % 4];
            let (a, b) = (g.v(s), g.v(s) * if i % 3 == 0 { 0.0 } else { 0.3 });
            let b = a + b;
            let lo = g.v(s);
            let bx = Aabb::new(lo, lo + g.v(s).abs());
            let wall = Wall::new(
                Vec2::new(g.f(-s, s), g.f(-s, s)),
                Vec2::new(g.f(-s, s), g.f(-s, s)),
                g.f(0.0, s * 0.2),
            );
            let h = g.f(0.0, s);
            let probe = Capsule::new(a, b, 1.0);
            let c = CapD::of(&probe);
            let d_box = {
                let (p, o) = segment_aabb(c.p, c.q, d3(bx.min), d3(bx.max));
                p.distance(o) as f32
            };
            let w = WallD::of(&wall, h);
            let d_wall = {
                let (p, o) = w.segment_pair(c.p, c.q);
                p.distance(o) as f32
            };
            for (d, is_box) in [(d_box, true), (d_wall, false)] {
                for r in [
                    d * 0.5,
                    d * (1.0 - 1e-6),
                    d,
                    d * (1.0 + 1e-6),
                    d * 2.0,
                    d + s * 0.1,
                ] {
                    if !(r > 0.0) {
                        continue;
                    }
                    let cap = Capsule::new(a, b, r);
                    let c = CapD::of(&cap);
                    let (quick, exact) = if is_box {
                        let e = within(segment_aabb(c.p, c.q, d3(bx.min), d3(bx.max)), c.r);
                        (capsule_aabb(&cap, &bx), e)
                    } else {
                        (
                            capsule_wall(&cap, &wall, h),
                            within(w.segment_pair(c.p, c.q), c.r),
                        )
                    };
                    assert_eq!(quick, exact, "{cap:?} box {bx:?} wall {wall:?} h {h}");
                }
            }
        }
    }
}
