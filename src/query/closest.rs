//! Closest points on shapes (Game Physics Cookbook, chapter 10).
//!
//! Spheres and boxes are **solid**: a point inside is its own closest point. Planes, triangles and segments are
//! point sets without an inside. All arithmetic is in f64, so any finite input works without overflow.
//!
//! Non-finite input never yields NaN: an infinite coordinate of `p` is treated as `±f32::MAX`, a NaN `p` gives
//! a fixed point of the shape (documented per function), and a shape with non-finite numbers (or a negative
//! radius, or `min > max`) gives `p` back, or the origin when `p` has a NaN too. Degenerate but finite shapes
//! are answered exactly: a zero-radius sphere is its centre, a zero-area triangle is the union of its edges.

use glam::{DVec3, Vec3};

use super::{d3, f3};
use crate::shape::{Aabb, Capsule, Obb, Plane, Segment, Sphere, Triangle};

/// `p` with infinities clamped to `±f32::MAX`, or `None` when it has a NaN.
pub(crate) fn sanitize(p: Vec3) -> Option<DVec3> {
    if p.is_nan() {
        return None;
    }
    Some(d3(p.clamp(Vec3::splat(-f32::MAX), Vec3::splat(f32::MAX))))
}

/// What an invalid shape answers: `p` itself when finite-ish, else the origin.
fn invalid_shape_answer(p: Vec3) -> Vec3 {
    sanitize(p).map_or(Vec3::ZERO, f3)
}

/// The point of segment `a..b` closest to `p` (f64). A zero-length segment answers `a`.
pub(crate) fn point_segment_d(p: DVec3, a: DVec3, b: DVec3) -> DVec3 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= 0.0 {
        return a;
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    a + ab * t
}

/// The point of the segment closest to `p`.
///
/// A zero-length segment (`a == b`) answers `a`; a NaN `p` answers `a` too.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::Segment, query::closest::point_segment};
/// let s = Segment::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0));
/// // Projection of (1, 3, 0) on the x axis is x = 1, inside 0..4.
/// assert_eq!(point_segment(Vec3::new(1.0, 3.0, 0.0), &s), Vec3::new(1.0, 0.0, 0.0));
/// // Past the end the answer clamps to b.
/// assert_eq!(point_segment(Vec3::new(9.0, 1.0, 0.0), &s), Vec3::new(4.0, 0.0, 0.0));
/// ```
#[must_use]
pub fn point_segment(p: Vec3, segment: &Segment) -> Vec3 {
    if !(segment.a.is_finite() && segment.b.is_finite()) {
        return invalid_shape_answer(p);
    }
    let Some(pd) = sanitize(p) else {
        return segment.a;
    };
    f3(point_segment_d(pd, d3(segment.a), d3(segment.b)))
}

/// The point of the solid box closest to `p` (f64). The box must be valid.
pub(crate) fn point_aabb_d(p: DVec3, min: DVec3, max: DVec3) -> DVec3 {
    p.max(min).min(max)
}

/// The point of the solid box closest to `p`: `p` clamped to `min..=max` on each axis.
///
/// A point inside answers itself; a NaN `p` answers the box's centre.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::Aabb, query::closest::point_aabb};
/// let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
/// assert_eq!(point_aabb(Vec3::new(2.0, 0.5, -1.0), &b), Vec3::new(1.0, 0.5, 0.0));
/// assert_eq!(point_aabb(Vec3::splat(0.25), &b), Vec3::splat(0.25)); // inside: itself
/// ```
#[must_use]
pub fn point_aabb(p: Vec3, aabb: &Aabb) -> Vec3 {
    if !aabb.is_valid() {
        return invalid_shape_answer(p);
    }
    let Some(pd) = sanitize(p) else {
        return aabb.center();
    };
    f3(point_aabb_d(pd, d3(aabb.min), d3(aabb.max)))
}

/// The point of the solid oriented box closest to `p` (f64). The box must be valid.
pub(crate) fn point_obb_d(p: DVec3, obb: &Obb) -> DVec3 {
    let c = d3(obb.center);
    let h = d3(obb.half_extents);
    let axes = [
        d3(obb.rotation.x_axis),
        d3(obb.rotation.y_axis),
        d3(obb.rotation.z_axis),
    ];
    let rel = p - c;
    let mut q = c;
    for i in 0..3 {
        let dist = rel.dot(axes[i]).clamp(-h[i], h[i]);
        q += axes[i] * dist;
    }
    q
}

/// The point of the solid oriented box closest to `p`: `p` clamped in the box's local frame.
///
/// A point inside answers itself (up to rounding); a NaN `p` answers the box's centre.
///
/// ```
/// use collidoscope::{glam::{Mat3, Vec3}, shape::Obb, query::closest::point_obb};
/// // A unit cube turned 90 degrees about y: its local x is world -z.
/// let b = Obb::new(Vec3::ZERO, Vec3::ONE, Mat3::from_rotation_y(std::f32::consts::FRAC_PI_2));
/// let q = point_obb(Vec3::new(0.0, 0.0, 5.0), &b);
/// assert!((q - Vec3::new(0.0, 0.0, 1.0)).length() < 1e-6);
/// ```
#[must_use]
pub fn point_obb(p: Vec3, obb: &Obb) -> Vec3 {
    if !obb.is_valid() {
        return invalid_shape_answer(p);
    }
    let Some(pd) = sanitize(p) else {
        return obb.center;
    };
    clamp_to_f32(point_obb_d(pd, obb))
}

/// `v` in f32, pulled back within `±f32::MAX` (a box or plane whose extent passes f32's range).
pub(crate) fn clamp_to_f32(v: DVec3) -> Vec3 {
    let m = f64::from(f32::MAX);
    f3(v.clamp(DVec3::splat(-m), DVec3::splat(m)))
}

/// The point of the plane closest to `p`: `p` moved along the normal onto the plane.
///
/// A non-unit normal is normalised. A NaN `p` answers the plane's point nearest the origin.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::Plane, query::closest::point_plane};
/// let floor = Plane::new(Vec3::Y, 2.0); // y = 2
/// assert_eq!(point_plane(Vec3::new(3.0, 7.0, 1.0), &floor), Vec3::new(3.0, 2.0, 1.0));
/// ```
#[must_use]
pub fn point_plane(p: Vec3, plane: &Plane) -> Vec3 {
    if !plane.is_valid() {
        return invalid_shape_answer(p);
    }
    let n = d3(plane.normal);
    let len2 = n.length_squared();
    let pd = sanitize(p).unwrap_or(DVec3::ZERO);
    let out = pd - n * ((n.dot(pd) - f64::from(plane.d)) / len2);
    // Far beyond f32 range the projection can leave it; pull it back.
    f3(out.clamp(
        DVec3::splat(-f64::from(f32::MAX)),
        DVec3::splat(f64::from(f32::MAX)),
    ))
}

/// The point of the solid sphere closest to `p`.
///
/// A point inside answers itself; a NaN `p` answers the centre; a zero radius answers the centre.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::Sphere, query::closest::point_sphere};
/// let s = Sphere::new(Vec3::ZERO, 2.0);
/// // (0, 0, 10) is 10 away along +z: the surface point is 2 along +z.
/// assert_eq!(point_sphere(Vec3::new(0.0, 0.0, 10.0), &s), Vec3::new(0.0, 0.0, 2.0));
/// assert_eq!(point_sphere(Vec3::new(0.5, 0.0, 0.0), &s), Vec3::new(0.5, 0.0, 0.0));
/// ```
#[must_use]
pub fn point_sphere(p: Vec3, sphere: &Sphere) -> Vec3 {
    if !(sphere.center.is_finite() && sphere.radius.is_finite() && sphere.radius >= 0.0) {
        return invalid_shape_answer(p);
    }
    let Some(pd) = sanitize(p) else {
        return sphere.center;
    };
    let c = d3(sphere.center);
    let r = f64::from(sphere.radius);
    let rel = pd - c;
    let dist = rel.length();
    if dist <= r {
        return f3(pd);
    }
    f3(c + rel * (r / dist))
}

/// The point of triangle `a, b, c` closest to `p` (f64; Ericson's Voronoi-region method). The triangle must
/// have a non-zero area for the interior branch; a degenerate one is answered by its edges.
pub(crate) fn point_triangle_d(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
    let ab = b - a;
    let ac = c - a;
    if !(ab.cross(ac).length_squared() > 0.0) {
        // Zero area (a repeated vertex makes the region formulas 0 / 0): the nearest of its edges.
        return nearest_of(
            p,
            [
                point_segment_d(p, a, b),
                point_segment_d(p, b, c),
                point_segment_d(p, c, a),
            ],
        );
    }
    let ap = p - a;
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let d3_ = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3_ >= 0.0 && d4 <= d3_ {
        return b;
    }
    let vc = d1 * d4 - d3_ * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3_ <= 0.0 {
        let v = d1 / (d1 - d3_);
        return a + ab * v;
    }
    let cp = p - c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return a + ac * w;
    }
    let va = d3_ * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3_) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3_) / ((d4 - d3_) + (d5 - d6));
        return b + (c - b) * w;
    }
    let sum = va + vb + vc;
    if !(sum > 0.0) || !sum.is_finite() {
        // Degenerate triangle: the nearest of its edges.
        return nearest_of(
            p,
            [
                point_segment_d(p, a, b),
                point_segment_d(p, b, c),
                point_segment_d(p, c, a),
            ],
        );
    }
    let denom = 1.0 / sum;
    let v = vb * denom;
    let w = vc * denom;
    a + ab * v + ac * w
}

/// The candidate nearest to `p`.
pub(crate) fn nearest_of<const N: usize>(p: DVec3, candidates: [DVec3; N]) -> DVec3 {
    let mut best = candidates[0];
    let mut best_d = p.distance_squared(best);
    for &q in &candidates[1..] {
        let d = p.distance_squared(q);
        if d < best_d {
            best = q;
            best_d = d;
        }
    }
    best
}

/// The point of the triangle (a surface, both faces) closest to `p`.
///
/// A zero-area triangle is answered by its nearest edge; a NaN `p` answers vertex `a`.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::Triangle, query::closest::point_triangle};
/// let t = Triangle::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, 2.0, 0.0));
/// // Above the interior: drop straight onto the plane z = 0.
/// assert_eq!(point_triangle(Vec3::new(0.5, 0.5, 3.0), &t), Vec3::new(0.5, 0.5, 0.0));
/// // Beyond the hypotenuse x + y = 2: the nearest point is (1, 1, 0).
/// assert_eq!(point_triangle(Vec3::new(2.0, 2.0, 0.0), &t), Vec3::new(1.0, 1.0, 0.0));
/// ```
#[must_use]
pub fn point_triangle(p: Vec3, triangle: &Triangle) -> Vec3 {
    if !(triangle.a.is_finite() && triangle.b.is_finite() && triangle.c.is_finite()) {
        return invalid_shape_answer(p);
    }
    let Some(pd) = sanitize(p) else {
        return triangle.a;
    };
    f3(point_triangle_d(
        pd,
        d3(triangle.a),
        d3(triangle.b),
        d3(triangle.c),
    ))
}

/// The point of the solid capsule closest to `p`: `p` itself when inside (or on) it, else the segment's closest
/// point moved out by the radius toward `p`.
///
/// An invalid capsule (non-finite numbers, radius not above 0) gives `p` back (the origin for a NaN `p`); a NaN
/// `p` with a valid capsule gives `a`.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::Capsule, query::closest::point_capsule};
/// let c = Capsule::new(Vec3::ZERO, Vec3::new(0.0, 2.0, 0.0), 0.5);
/// assert_eq!(point_capsule(Vec3::new(3.0, 1.0, 0.0), &c), Vec3::new(0.5, 1.0, 0.0));
/// assert_eq!(point_capsule(Vec3::new(0.0, 6.0, 0.0), &c), Vec3::new(0.0, 2.5, 0.0));
/// assert_eq!(point_capsule(Vec3::new(0.1, 1.0, 0.0), &c), Vec3::new(0.1, 1.0, 0.0)); // inside
/// ```
#[must_use]
pub fn point_capsule(p: Vec3, capsule: &Capsule) -> Vec3 {
    if !capsule.is_valid() {
        return invalid_shape_answer(p);
    }
    let Some(pd) = sanitize(p) else {
        return capsule.a;
    };
    let on_axis = point_segment_d(pd, d3(capsule.a), d3(capsule.b));
    let away = pd - on_axis;
    let r = f64::from(capsule.radius);
    if away.length_squared() <= r * r {
        return p.clamp(Vec3::splat(-f32::MAX), Vec3::splat(f32::MAX));
    }
    clamp_to_f32(on_axis + away * (r / away.length()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_and_inf_points_give_finite_answers() {
        let t = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y);
        assert_eq!(point_triangle(Vec3::NAN, &t), Vec3::ZERO);
        let q = point_triangle(Vec3::new(f32::INFINITY, 0.0, 0.0), &t);
        assert_eq!(q, Vec3::X);
        let s = Sphere::new(Vec3::ZERO, 1.0);
        let q = point_sphere(Vec3::new(f32::INFINITY, 0.0, 0.0), &s);
        assert!((q - Vec3::X).length() < 1e-6, "{q}");
        let q = point_plane(
            Vec3::new(f32::INFINITY, 5.0, 0.0),
            &Plane::new(Vec3::Y, 0.0),
        );
        assert!(q.is_finite() && q.y == 0.0);
    }

    #[test]
    fn degenerate_triangle_uses_edges() {
        let t = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::new(2.0, 0.0, 0.0));
        assert_eq!(
            point_triangle(Vec3::new(1.5, 1.0, 0.0), &t),
            Vec3::new(1.5, 0.0, 0.0)
        );
    }

    #[test]
    fn invalid_shapes_return_the_point() {
        let b = Aabb::new(Vec3::ONE, Vec3::ZERO);
        assert_eq!(point_aabb(Vec3::splat(3.0), &b), Vec3::splat(3.0));
        assert_eq!(point_aabb(Vec3::NAN, &b), Vec3::ZERO);
        let s = Sphere::new(Vec3::ZERO, -1.0);
        assert_eq!(point_sphere(Vec3::X, &s), Vec3::X);
    }
}
