//! Triangle tests from seeds 000 and 001: Möller–Trumbore, point-in-triangle (robust and the seed's
//! angle-sum method), and the walk test.

use glam::{DVec3, Vec3};

use super::closest::point_triangle_d;
use super::{Cull, TriHit, d3, f3};
use crate::shape::{Ray, Triangle};

/// Relative tolerance of [`point_in_triangle`]: how far (as a fraction of the triangle's longest edge) a point
/// may be from the triangle and still count as on it.
pub const POINT_IN_TRIANGLE_TOLERANCE: f32 = 1e-5;

/// Tolerance of [`point_in_triangle_angle_sum`] on the angle sum, in radians.
pub const ANGLE_SUM_TOLERANCE: f64 = 1e-6;

/// Möller and Trumbore's fast, minimum-storage ray/triangle test (seed 001), correctly called with the ray's
/// direction (seed 001's listing passes `position + direction`, a defect this crate does not copy).
///
/// Returns `t >= 0` (in units of `dir`, no upper bound) and barycentric `u, v` with
/// `point = (1 - u - v) * a + u * b + v * c`. Edges and vertices count (`u, v >= 0`, `u + v <= 1`).
///
/// The determinant is `-dir · ((b - a) × (c - a))`, positive when the ray meets the front face.
/// [`Cull::Back`] rejects a determinant `<= 0` (back face or edge-on); [`Cull::None`] rejects only an exactly
/// zero determinant (a ray parallel to the plane). An invalid ray or degenerate triangle gives `None`, and so
/// does a result that is not finite (coordinates so large that f32 products overflow).
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Ray, Triangle}, query::{Cull, triangle::moller_trumbore}};
/// let tri = Triangle::new(Vec3::new(0.0, 0.0, -2.0), Vec3::new(2.0, 0.0, -2.0), Vec3::new(0.0, 2.0, -2.0));
/// // Front face is +z: a ray going -z from (0.5, 0.5, 0) meets it at t = 2,
/// // at 0.25 of the way along a->b (u) and a->c (v).
/// let hit = moller_trumbore(&Ray::new(Vec3::new(0.5, 0.5, 0.0), -Vec3::Z), &tri, Cull::Back).unwrap();
/// assert_eq!((hit.t, hit.u, hit.v), (2.0, 0.25, 0.25));
/// // From behind, back-face culling rejects it; no culling accepts it.
/// let behind = Ray::new(Vec3::new(0.5, 0.5, -4.0), Vec3::Z);
/// assert!(moller_trumbore(&behind, &tri, Cull::Back).is_none());
/// assert_eq!(moller_trumbore(&behind, &tri, Cull::None).unwrap().t, 2.0);
/// ```
#[must_use]
#[inline]
pub fn moller_trumbore(ray: &Ray, triangle: &Triangle, cull: Cull) -> Option<TriHit> {
    // No up-front checks: NaN and infinities fail the comparisons below or the final finiteness test, a zero
    // direction gives a zero determinant, and a degenerate triangle is rejected before a hit is reported.
    let e1 = triangle.b - triangle.a;
    let e2 = triangle.c - triangle.a;
    let p = ray.dir.cross(e2);
    let det = e1.dot(p);
    let tvec = ray.origin - triangle.a;
    let (t, u, v) = match cull {
        Cull::Back => {
            if !(det > 0.0) {
                return None;
            }
            // Un-normalised tests first, as in the original: no division unless it hits.
            let u = tvec.dot(p);
            if !(u >= 0.0 && u <= det) {
                return None;
            }
            let q = tvec.cross(e1);
            let v = ray.dir.dot(q);
            if !(v >= 0.0 && u + v <= det) {
                return None;
            }
            let t = e2.dot(q);
            if !(t >= 0.0) {
                return None;
            }
            let inv = 1.0 / det;
            (t * inv, u * inv, v * inv)
        }
        Cull::None => {
            if det == 0.0 {
                return None;
            }
            let inv = 1.0 / det;
            let u = tvec.dot(p) * inv;
            if !(0.0..=1.0).contains(&u) {
                return None;
            }
            let q = tvec.cross(e1);
            let v = ray.dir.dot(q) * inv;
            if !(v >= 0.0 && u + v <= 1.0) {
                return None;
            }
            let t = e2.dot(q) * inv;
            if !(t >= 0.0) {
                return None;
            }
            (t, u, v)
        }
    };
    // A zero or NaN direction or origin cannot get here (zero determinant, NaN comparisons); a subnormal
    // determinant can still make 1 / det overflow, so the results are checked finite, then the triangle.
    (t.is_finite() && u.is_finite() && v.is_finite() && triangle.is_valid()).then_some(TriHit {
        t,
        u,
        v,
    })
}

/// Whether `p` lies on the triangle, edges and vertices included.
///
/// Meant for a point on the triangle's plane (such as a walk test's crossing point): it is `true` when `p` is
/// within [`POINT_IN_TRIANGLE_TOLERANCE`] × the longest edge of the triangle, measured by the exact closest
/// point (in f64), so rounding of a computed crossing point never rejects it and no `acos` is involved. A
/// point off the plane by more than that tolerance is not on the triangle. Degenerate triangles and non-finite
/// input give `false`.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::Triangle, query::triangle::point_in_triangle};
/// let t = Triangle::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, 2.0, 0.0));
/// assert!(point_in_triangle(Vec3::new(0.5, 0.5, 0.0), &t));
/// assert!(point_in_triangle(Vec3::new(1.0, 1.0, 0.0), &t)); // on the edge x + y = 2
/// assert!(!point_in_triangle(Vec3::new(1.5, 1.0, 0.0), &t));
/// ```
#[must_use]
pub fn point_in_triangle(p: Vec3, triangle: &Triangle) -> bool {
    if !p.is_finite() || !triangle.is_valid() {
        return false;
    }
    let (a, b, c) = (d3(triangle.a), d3(triangle.b), d3(triangle.c));
    let pd = d3(p);
    let q = point_triangle_d(pd, a, b, c);
    let longest = (b - a)
        .length_squared()
        .max((c - b).length_squared())
        .max((a - c).length_squared())
        .sqrt();
    pd.distance(q) <= f64::from(POINT_IN_TRIANGLE_TOLERANCE) * longest
}

/// Seed 000's angle-sum test, kept for comparison: the angles subtended at `p` by the three edges sum to 2π
/// exactly when `p` is inside (or on) the triangle.
///
/// Fixed against the seed's defects: the cosines are computed in f64 and clamped to `[-1, 1]` before `acos`
/// (the seed's rounding can push them past 1, making `acos` NaN and rejecting points on edges), and the
/// tolerance is [`ANGLE_SUM_TOLERANCE`] on an f64 sum rather than the seed's 0.0001 on f32. `p` at a vertex
/// counts as inside, as in the seed. A point off the plane has a smaller angle sum, so it is rejected unless
/// it is extremely close to the plane. Degenerate triangles and non-finite input give `false`.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::Triangle, query::triangle::point_in_triangle_angle_sum};
/// let t = Triangle::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0), Vec3::new(0.0, 2.0, 0.0));
/// // At (0.5, 0.5) the three angles are 90°, 135° and 135°: 360° in all.
/// assert!(point_in_triangle_angle_sum(Vec3::new(0.5, 0.5, 0.0), &t));
/// assert!(!point_in_triangle_angle_sum(Vec3::new(3.0, 3.0, 0.0), &t));
/// ```
#[must_use]
pub fn point_in_triangle_angle_sum(p: Vec3, triangle: &Triangle) -> bool {
    if !p.is_finite() || !triangle.is_valid() {
        return false;
    }
    let pd = d3(p);
    let s = [
        d3(triangle.a) - pd,
        d3(triangle.b) - pd,
        d3(triangle.c) - pd,
    ];
    let len = [s[0].length(), s[1].length(), s[2].length()];
    // At a vertex the point is on the boundary (the seed's early exit).
    if len.contains(&0.0) {
        return true;
    }
    let angle = |i: usize, j: usize| (s[i].dot(s[j]) / (len[i] * len[j])).clamp(-1.0, 1.0).acos();
    let sum = angle(0, 1) + angle(1, 2) + angle(2, 0);
    (sum - std::f64::consts::TAU).abs() <= ANGLE_SUM_TOLERANCE
}

/// Seed 000's walk test: where the move from `from` to `to` crosses the triangle, or `None`.
///
/// Steps as in the seed: the signed distances of `from` and `to` to the triangle's plane must differ in sign
/// (the move crosses the plane), the crossing point is found on the segment, and it must lie on the triangle
/// ([`point_in_triangle`]). Decided boundaries: ending exactly on the plane counts as a crossing (touching
/// counts); starting on the plane does not (so a walker stopped at a wall can step back from it); a move
/// within the plane does not cross it. Degenerate triangles and non-finite input give `None`.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::Triangle, query::triangle::walk_test};
/// // A wall in the plane z = -5 facing the walker at the origin.
/// let wall = Triangle::new(Vec3::new(-2.0, 0.0, -5.0), Vec3::new(2.0, 0.0, -5.0), Vec3::new(0.0, 3.0, -5.0));
/// // Walking from z = -4 to z = -6 at eye height 1 crosses it half-way, at z = -5.
/// let hit = walk_test(Vec3::new(0.0, 1.0, -4.0), Vec3::new(0.0, 1.0, -6.0), &wall);
/// assert_eq!(hit, Some(Vec3::new(0.0, 1.0, -5.0)));
/// // A step that stops short does not cross.
/// assert_eq!(walk_test(Vec3::new(0.0, 1.0, -3.0), Vec3::new(0.0, 1.0, -4.0), &wall), None);
/// ```
#[must_use]
pub fn walk_test(from: Vec3, to: Vec3, triangle: &Triangle) -> Option<Vec3> {
    if !from.is_finite() || !to.is_finite() || !triangle.is_valid() {
        return None;
    }
    let (a, b, c) = (d3(triangle.a), d3(triangle.b), d3(triangle.c));
    let n = (b - a).cross(c - a);
    let f = d3(from);
    let t = d3(to);
    let d_from = n.dot(f - a);
    let d_to = n.dot(t - a);
    // Signs compared directly: a product of two tiny distances could underflow to zero.
    if d_from == 0.0 || (d_to != 0.0 && (d_from > 0.0) == (d_to > 0.0)) {
        return None;
    }
    let s = d_from / (d_from - d_to);
    let crossing: DVec3 = f + (t - f) * s;
    let point = f3(crossing);
    point_in_triangle(point, triangle).then_some(point)
}
