//! Line tests (Game Physics Cookbook, chapter 11, "Linetest"): does the segment `a..b` touch a shape?
//!
//! `true` when any point of the segment lies in or on the shape: solid spheres and boxes; the plane's and the
//! triangle's surfaces (a segment lying in a triangle's plane and crossing it counts). An invalid segment
//! (`a == b` or non-finite) or shape gives `false`.

use glam::DVec3;

use super::closest::{point_segment_d, point_triangle_d};
use super::ray::ray_aabb_slabs;
use super::{SAT_EPSILON, d3};
use crate::shape::{Aabb, Obb, Plane, Segment, Sphere, Triangle};

/// Whether the segment passes within the sphere (touching counts).
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Segment, Sphere}, query::segment::segment_sphere};
/// let s = Sphere::new(Vec3::new(0.0, 1.0, 0.0), 1.0);
/// // The x axis from -5 to 5 passes at distance 1 from the centre: tangent, touching.
/// assert!(segment_sphere(&Segment::new(Vec3::new(-5.0, 0.0, 0.0), Vec3::new(5.0, 0.0, 0.0)), &s));
/// // Stopping at x = -2, its closest point (-2, 0, 0) is sqrt(5) away.
/// assert!(!segment_sphere(&Segment::new(Vec3::new(-5.0, 0.0, 0.0), Vec3::new(-2.0, 0.0, 0.0)), &s));
/// ```
#[must_use]
pub fn segment_sphere(segment: &Segment, sphere: &Sphere) -> bool {
    if !segment.is_valid() || !sphere.is_valid() {
        return false;
    }
    let c = d3(sphere.center);
    let q = point_segment_d(c, d3(segment.a), d3(segment.b));
    let r = f64::from(sphere.radius);
    c.distance_squared(q) <= r * r
}

/// Whether the segment touches the solid box: the slab interval of `a + t (b - a)` meets `0..=1`.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Aabb, Segment}, query::segment::segment_aabb};
/// let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
/// assert!(segment_aabb(&Segment::new(Vec3::new(-1.0, 0.5, 0.5), Vec3::new(0.0, 0.5, 0.5)), &b)); // ends on a face
/// assert!(!segment_aabb(&Segment::new(Vec3::new(-1.0, 0.5, 0.5), Vec3::new(-0.1, 0.5, 0.5)), &b));
/// ```
#[must_use]
pub fn segment_aabb(segment: &Segment, aabb: &Aabb) -> bool {
    if !segment.is_valid() {
        return false;
    }
    ray_aabb_slabs(&segment.as_ray(), aabb)
        .hit
        .is_some_and(|i| i.min <= 1.0)
}

/// Whether the segment touches the solid oriented box (the slab test in the box's frame).
///
/// ```
/// use collidoscope::{glam::{Mat3, Vec3}, shape::{Obb, Segment}, query::segment::segment_obb};
/// // Turned 45° about z, the unit box's corner reaches x = sqrt(2) ≈ 1.414.
/// let b = Obb::new(Vec3::ZERO, Vec3::ONE, Mat3::from_rotation_z(std::f32::consts::FRAC_PI_4));
/// assert!(segment_obb(&Segment::new(Vec3::new(3.0, 0.0, 0.0), Vec3::new(1.4, 0.0, 0.0)), &b));
/// assert!(!segment_obb(&Segment::new(Vec3::new(3.0, 0.0, 0.0), Vec3::new(1.42, 0.0, 0.0)), &b));
/// ```
#[must_use]
pub fn segment_obb(segment: &Segment, obb: &Obb) -> bool {
    if !segment.is_valid() {
        return false;
    }
    super::ray::ray_obb_slabs(&segment.as_ray(), obb)
        .hit
        .is_some_and(|i| i.min <= 1.0)
}

/// Whether the segment crosses or touches the plane: its end points are not both strictly on one side (beyond
/// the SAT tolerance of the coordinates' scale).
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Plane, Segment}, query::segment::segment_plane};
/// let floor = Plane::new(Vec3::Y, 0.0);
/// assert!(segment_plane(&Segment::new(Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, -1.0, 0.0)), &floor));
/// assert!(segment_plane(&Segment::new(Vec3::new(0.0, 1.0, 0.0), Vec3::ZERO), &floor)); // ends on it
/// assert!(!segment_plane(&Segment::new(Vec3::new(0.0, 1.0, 0.0), Vec3::new(3.0, 2.0, 0.0)), &floor));
/// ```
#[must_use]
pub fn segment_plane(segment: &Segment, plane: &Plane) -> bool {
    if !segment.is_valid() || !plane.is_valid() {
        return false;
    }
    let n = d3(plane.normal);
    let len = n.length();
    let d = f64::from(plane.d) / len;
    let n = n / len;
    let (pa, pb) = (n.dot(d3(segment.a)), n.dot(d3(segment.b)));
    let tol = f64::from(SAT_EPSILON) * (pa.abs().max(pb.abs()) + d.abs());
    let (da, db) = (pa - d, pb - d);
    !((da > tol && db > tol) || (da < -tol && db < -tol))
}

/// Closest points of segments `p1..q1` and `p2..q2` (f64; Ericson, "Real-Time Collision Detection" 5.1.9).
pub(crate) fn closest_segment_segment_d(
    p1: DVec3,
    q1: DVec3,
    p2: DVec3,
    q2: DVec3,
) -> (DVec3, DVec3) {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let a = d1.length_squared();
    let e = d2.length_squared();
    let f = d2.dot(r);
    if a <= 0.0 && e <= 0.0 {
        return (p1, p2);
    }
    let (s, t);
    if a <= 0.0 {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if e <= 0.0 {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s0 = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t0 = 0.0;
                s0 = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t0 = 1.0;
                s0 = ((b - c) / a).clamp(0.0, 1.0);
            }
            s = s0;
            t = t0;
        }
    }
    (p1 + d1 * s, p2 + d2 * t)
}

/// Whether the segment touches the triangle's surface (both faces).
///
/// A segment crossing the plane is tested at its crossing point; one lying in the plane (both ends within
/// the tolerance of it) touches when an end point is on the triangle or it meets an edge. Touching counts.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Segment, Triangle}, query::segment::segment_triangle};
/// let t = Triangle::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, 2.0, 0.0));
/// assert!(segment_triangle(&Segment::new(Vec3::new(0.5, 0.5, 1.0), Vec3::new(0.5, 0.5, -1.0)), &t));
/// assert!(!segment_triangle(&Segment::new(Vec3::new(0.5, 0.5, 1.0), Vec3::new(0.5, 0.5, 0.1)), &t));
/// // In the triangle's plane, crossing the edge x = 0.
/// assert!(segment_triangle(&Segment::new(Vec3::new(-1.0, 0.5, 0.0), Vec3::new(1.0, 0.5, 0.0)), &t));
/// ```
#[must_use]
pub fn segment_triangle(segment: &Segment, triangle: &Triangle) -> bool {
    if !segment.is_valid() || !triangle.is_valid() {
        return false;
    }
    let (a, b, c) = (d3(triangle.a), d3(triangle.b), d3(triangle.c));
    let (p, q) = (d3(segment.a), d3(segment.b));
    let n = (b - a).cross(c - a).normalize();
    let (dp, dq) = (n.dot(p - a), n.dot(q - a));
    let size = (b - a)
        .length()
        .max((c - b).length())
        .max((a - c).length())
        .max((q - p).length());
    let tol = f64::from(SAT_EPSILON) * size;
    if (dp > tol && dq > tol) || (dp < -tol && dq < -tol) {
        return false;
    }
    let on_triangle = |x: DVec3| x.distance(point_triangle_d(x, a, b, c)) <= tol;
    if dp.abs() <= tol && dq.abs() <= tol {
        // Lying in the plane.
        if on_triangle(p) || on_triangle(q) {
            return true;
        }
        return [(a, b), (b, c), (c, a)].iter().any(|&(e0, e1)| {
            let (x, y) = closest_segment_segment_d(p, q, e0, e1);
            x.distance(y) <= tol
        });
    }
    let s = if dp == dq {
        0.0
    } else {
        (dp / (dp - dq)).clamp(0.0, 1.0)
    };
    on_triangle(p + (q - p) * s)
}
