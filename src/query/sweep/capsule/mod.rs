//! Sweeps of a moving capsule against every static shape kind: the first contact of the segment grown by its
//! radius.
//!
//! The first contact of two convex shapes is the earliest contact of a pair of their features, so each sweep
//! tries every pair that can be the first, each in closed form:
//! - an end sphere of the capsule against the whole obstacle (the sphere sweeps' own entry times: faces,
//!   edges, corners, rims);
//! - each vertex of a polytope against the capsule's cylindrical side (the vertex's ray, moving by `-motion`);
//! - each edge of a polytope against the capsule's segment, where both closest points are interior (two lines
//!   reaching the distance `r`: a linear equation in `t`);
//! - for a cylinder, its axis against the segment (lines at `r + rc`), and its rims against the segment by
//!   root finding on the convex distance to each cap's disk (the only case without a closed form).
//!
//! The segment's interior meets a face's interior first only when parallel to it, and then an end sphere
//! meets it at the same time, so no other pair is needed. The contact point and normal are then read off the
//! closest points of the capsule's segment and the obstacle at the time found. Walls are the union of their
//! box core and the posts at their ends. Every computation is in f64; conventions as the sphere sweeps' (see
//! the module documentation of [`super`]).

mod cylinder;
mod wall;

#[cfg(test)]
mod tests;

use glam::{DMat3, DVec2, DVec3, Vec2, Vec3};

use super::super::closest_segment::{
    Pair, box_corners, box_edges, nearer, segment_aabb, segment_plane, segment_point,
    segment_triangle,
};
use super::super::segment::closest_segment_segment_d;
use super::super::{Toi, d3, f3, finite_toi};
use super::{
    CAPSULE_ROOT_TOLERANCE, aabb_exit, cylinder_exit, earliest, first_root_convex_fn, point_aabb_d,
    point_cylinder_d, point_wall_solid_d, ray_capsule_entry, ray_cylinder_side_entry,
    sphere_aabb_entry, sphere_cylinder_entry_tol, sphere_triangle_entry, wall_exit,
};
use crate::shape::{Aabb, Capsule, Cylinder, Obb, Plane, Sphere, Triangle, Wall};

pub use cylinder::capsule_cylinder;
pub(crate) use cylinder::cylinder_pair;
pub(crate) use wall::WallD;
pub use wall::capsule_wall;

/// A capsule in f64: segment `p..q`, radius `r`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CapD {
    pub(crate) p: DVec3,
    pub(crate) q: DVec3,
    pub(crate) r: f64,
}

impl CapD {
    pub(crate) fn of(c: &Capsule) -> Self {
        Self {
            p: d3(c.a),
            q: d3(c.b),
            r: f64::from(c.radius),
        }
    }

    fn moved(&self, by: DVec3) -> Self {
        Self {
            p: self.p + by,
            q: self.q + by,
            r: self.r,
        }
    }
}

/// A time of impact in f64, before the f32 answer is made from it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ToiD {
    pub(crate) t: f64,
    pub(crate) point: DVec3,
    pub(crate) normal: DVec3,
}

impl ToiD {
    /// The f32 answer (`t` clamped to `[0, 1]`), when every number is finite.
    pub(crate) fn to_f32(self) -> Option<Toi> {
        finite_toi(Toi {
            t: self.t.clamp(0.0, 1.0) as f32,
            point: f3(self.point),
            normal: f3(self.normal),
        })
    }
}

/// The answer for a capsule already touching the obstacle: `t = 0`, the normal from the obstacle's closest
/// point toward the segment's, or `inside()` (the way out, and the contact point) where the segment meets a
/// solid, or against the motion on a surface; `None` when the motion separates them.
fn touching(pair: Pair, m: DVec3, inside: impl FnOnce() -> Option<(DVec3, DVec3)>) -> Option<ToiD> {
    let away = pair.0 - pair.1;
    let len = away.length();
    let (normal, point) = if len > 0.0 {
        (away / len, pair.1)
    } else if let Some(found) = inside() {
        found
    } else {
        ((-m).try_normalize().unwrap_or(DVec3::Y), pair.1)
    };
    if normal.dot(m) > 0.0 {
        return None;
    }
    Some(ToiD {
        t: 0.0,
        point,
        normal,
    })
}

/// For a segment meeting a solid (given by its closest-point function, which answers a point inside with
/// itself): the point of the solid's boundary nearest the segment, which lies in the capsule unless the capsule
/// is wholly inside the solid. Where the segment crosses the boundary, the crossing (bisection between the
/// segment's point `inner` in the solid and an end outside it); when the segment is wholly inside, the exit
/// point (`exit`) of the shallower end (the depth is concave inside a convex solid, so the segment's
/// shallowest point is an end).
fn overlap_point(
    cap: &CapD,
    inner: DVec3,
    closest: impl Fn(DVec3) -> DVec3,
    exit: impl Fn(DVec3) -> DVec3,
) -> DVec3 {
    let outside = |x: DVec3| closest(x) != x;
    if let Some(out) = [cap.p, cap.q].into_iter().find(|&e| outside(e)) {
        let (mut lo, mut hi) = (inner, out);
        for _ in 0..64 {
            let mid = (lo + hi) * 0.5;
            if mid == lo || mid == hi {
                break;
            }
            if outside(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return lo;
    }
    let (ep, eq) = (exit(cap.p), exit(cap.q));
    if cap.p.distance_squared(ep) <= cap.q.distance_squared(eq) {
        ep
    } else {
        eq
    }
}

/// The contact at `t`, read off the closest pair of the moved capsule's segment and the obstacle
/// (`surface` moves the obstacle's point out to its surface along the normal, for obstacles with a radius of
/// their own).
fn contact(
    t: f64,
    cap: &CapD,
    m: DVec3,
    pair_at: impl Fn(DVec3, DVec3) -> Pair,
    surface: f64,
) -> Option<ToiD> {
    let now = cap.moved(m * t);
    let (on_seg, on_obs) = pair_at(now.p, now.q);
    let normal = (on_seg - on_obs)
        .try_normalize()
        .unwrap_or_else(|| (-m).try_normalize().unwrap_or(DVec3::Y));
    Some(ToiD {
        t,
        point: on_obs + normal * surface,
        normal,
    })
}

/// First `t` in `[0, 1]` at which the interiors of segment `p..q` (moving by `m`) and the still segment
/// `e0..e1` come within `dist` of each other, for lines not within `dist` at the start: the distance between
/// the two lines is `|c0 + c1 t|` along their common normal. `None` for parallel lines (an end point pair is
/// as close then) or when the closest points at that time are not interior.
pub(crate) fn line_line_entry(
    p: DVec3,
    q: DVec3,
    m: DVec3,
    e0: DVec3,
    e1: DVec3,
    dist: f64,
) -> Option<f64> {
    let (u, v) = (q - p, e1 - e0);
    let n = u.cross(v);
    let (uu, vv, nn) = (u.length_squared(), v.length_squared(), n.length_squared());
    if !(nn > 1e-24 * uu * vv) {
        return None;
    }
    let nh = n / nn.sqrt();
    let (c0, c1) = ((p - e0).dot(nh), m.dot(nh));
    if c0.abs() <= dist {
        return None;
    }
    let closing = -c0.signum() * c1;
    if !(closing > 0.0) {
        return None;
    }
    let t = (c0.abs() - dist) / closing;
    if !(0.0..=1.0).contains(&t) {
        return None;
    }
    let w = p + m * t - e0;
    let (uv, uw, vw) = (u.dot(v), u.dot(w), v.dot(w));
    let s = (uv * vw - vv * uw) / nn;
    let k = (uu * vw - uv * uw) / nn;
    ((0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&k)).then_some(t)
}

/// Start of every capsule sweep: the capsule and motion in f64, or `None` for invalid input.
fn start(capsule: &Capsule, motion: Vec3) -> Option<(CapD, DVec3)> {
    (capsule.is_valid() && motion.is_finite()).then(|| (CapD::of(capsule), d3(motion)))
}

/// A moving capsule against a still sphere: the sphere's centre, moving by `-motion`, against the capsule
/// grown by the sphere's radius. The point is on the sphere.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Capsule, Sphere}, query::sweep::capsule_sphere};
/// // An upright capsule (radius 0.5) moving +x by 4 toward a ball of radius 1 at x = 3: they touch when the
/// // axis is 1.5 from the centre, at x = 1.5, t = 1.5 / 4.
/// let c = Capsule::new(Vec3::ZERO, Vec3::new(0.0, 2.0, 0.0), 0.5);
/// let toi = capsule_sphere(&c, Vec3::new(4.0, 0.0, 0.0), &Sphere::new(Vec3::new(3.0, 1.0, 0.0), 1.0)).unwrap();
/// assert_eq!((toi.t, toi.point, toi.normal), (0.375, Vec3::new(2.0, 1.0, 0.0), -Vec3::X));
/// ```
#[must_use]
pub fn capsule_sphere(capsule: &Capsule, motion: Vec3, sphere: &Sphere) -> Option<Toi> {
    let (cap, m) = start(capsule, motion)?;
    if !sphere.is_valid() {
        return None;
    }
    let (c, rs) = (d3(sphere.center), f64::from(sphere.radius));
    let big = cap.r + rs;
    let pair = segment_point(cap.p, cap.q, c);
    let toi = if pair.0.distance_squared(c) <= big * big {
        touching(pair, m, || None).map(|mut t| {
            t.point = c + t.normal * rs;
            t
        })?
    } else {
        if m == DVec3::ZERO {
            return None;
        }
        let t = earliest([ray_capsule_entry(c, -m, cap.p, cap.q, big)])?;
        contact(t, &cap, m, |p, q| segment_point(p, q, c), rs)?
    };
    toi.to_f32()
}

/// First `t` in `[0, 1]` at which the segment `p..q` of a capsule moving by `m` comes within `dist` of the
/// still segment `e0..e1`, for segments farther apart at the start: each end against the other segment (a ray
/// against a capsule of radius `dist`) and the two interiors (lines at `dist`).
fn segments_entry(cap: &CapD, m: DVec3, e0: DVec3, e1: DVec3, dist: f64) -> Option<f64> {
    earliest([
        ray_capsule_entry(cap.p, m, e0, e1, dist),
        ray_capsule_entry(cap.q, m, e0, e1, dist),
        ray_capsule_entry(e0, -m, cap.p, cap.q, dist),
        ray_capsule_entry(e1, -m, cap.p, cap.q, dist),
        line_line_entry(cap.p, cap.q, m, e0, e1, dist),
    ])
}

/// A moving capsule against another still capsule: the end spheres of each against the other (rays against
/// a capsule grown by both radii) and the two segments' interiors (lines at the sum of the radii). The point is
/// on the still capsule's surface; the normal points from it toward the moving one.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::Capsule, query::sweep::capsule_capsule};
/// // Two crossed capsules of radius 0.5: one along x at y = 3 falling, one along z at y = 0.
/// let falling = Capsule::new(Vec3::new(-2.0, 3.0, 0.0), Vec3::new(2.0, 3.0, 0.0), 0.5);
/// let lying = Capsule::new(Vec3::new(0.0, 0.0, -2.0), Vec3::new(0.0, 0.0, 2.0), 0.5);
/// let toi = capsule_capsule(&falling, Vec3::new(0.0, -4.0, 0.0), &lying).unwrap();
/// // The axes come within 1 when the upper one is at y = 1: after 2 of 4.
/// assert_eq!((toi.t, toi.point, toi.normal), (0.5, Vec3::new(0.0, 0.5, 0.0), Vec3::Y));
/// ```
#[must_use]
pub fn capsule_capsule(capsule: &Capsule, motion: Vec3, other: &Capsule) -> Option<Toi> {
    let (cap, m) = start(capsule, motion)?;
    if !other.is_valid() {
        return None;
    }
    let o = CapD::of(other);
    let big = cap.r + o.r;
    let pair_at = |p: DVec3, q: DVec3| closest_segment_segment_d(p, q, o.p, o.q);
    let pair = pair_at(cap.p, cap.q);
    let toi = if pair.0.distance_squared(pair.1) <= big * big {
        touching(pair, m, || None).map(|mut t| {
            t.point = pair.1 + t.normal * o.r;
            t
        })?
    } else {
        if m == DVec3::ZERO {
            return None;
        }
        let t = segments_entry(&cap, m, o.p, o.q, big)?;
        contact(t, &cap, m, pair_at, o.r)?
    };
    toi.to_f32()
}

/// A moving capsule against a plane's surface (two-sided): the nearer end sphere against the plane offset by
/// the radius. A capsule lying across the plane overlaps it at the start.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Capsule, Plane}, query::sweep::capsule_plane};
/// // A tilted capsule falling onto the floor: its lower end (y = 2, radius 0.5) reaches it after 1.5 of 3.
/// let c = Capsule::new(Vec3::new(0.0, 2.0, 0.0), Vec3::new(1.0, 4.0, 0.0), 0.5);
/// let toi = capsule_plane(&c, Vec3::new(0.0, -3.0, 0.0), &Plane::new(Vec3::Y, 0.0)).unwrap();
/// assert_eq!((toi.t, toi.point, toi.normal), (0.5, Vec3::ZERO, Vec3::Y));
/// ```
#[must_use]
pub fn capsule_plane(capsule: &Capsule, motion: Vec3, plane: &Plane) -> Option<Toi> {
    let (cap, m) = start(capsule, motion)?;
    if !plane.is_valid() {
        return None;
    }
    let n = d3(plane.normal);
    let len = n.length();
    let (n, d) = (n / len, f64::from(plane.d) / len);
    let pair_at = |p: DVec3, q: DVec3| segment_plane(p, q, n, d);
    let pair = pair_at(cap.p, cap.q);
    let toi = if pair.0.distance_squared(pair.1) <= cap.r * cap.r {
        // On the plane: the side the capsule comes from (or the side most of it is on).
        let inside = || {
            let side = n.dot(cap.p + cap.q) * 0.5 - d;
            let toward = if side > 0.0 || (side == 0.0 && n.dot(m) <= 0.0) {
                n
            } else {
                -n
            };
            Some((toward, pair.1))
        };
        touching(pair, m, inside)?
    } else {
        let entry = |e: DVec3| {
            let s0 = n.dot(e) - d;
            let approach = -s0.signum() * n.dot(m);
            (approach > 0.0).then(|| (s0.abs() - cap.r) / approach)
        };
        let t = earliest([entry(cap.p), entry(cap.q)])?;
        contact(t, &cap, m, pair_at, 0.0)?
    };
    toi.to_f32()
}

/// First contact of a capsule that starts clear of the triangle `a, b, c`.
fn triangle_entry(cap: &CapD, m: DVec3, a: DVec3, b: DVec3, c: DVec3) -> Option<f64> {
    let r = cap.r;
    // Only the features the swept capsule's box reaches can be touched: corners inside it, edges whose boxes
    // meet it, end spheres whose own swept boxes meet the triangle's (all grown by the rounding slack).
    let slack = DVec3::splat(reject_slack(cap, m, a));
    let (lo, hi) = swept_box(cap, m);
    let (lo, hi) = (lo - slack, hi + slack);
    let (tri_lo, tri_hi) = (a.min(b).min(c), a.max(b).max(c));
    let end = |e: DVec3| {
        let grow = slack + DVec3::splat(r);
        let (elo, ehi) = (e.min(e + m) - grow, e.max(e + m) + grow);
        if elo.cmple(tri_hi).all() && ehi.cmpge(tri_lo).all() {
            sphere_triangle_entry(e, m, r, a, b, c)
        } else {
            None
        }
    };
    let corner = |v: DVec3| {
        if v.cmpge(lo).all() && v.cmple(hi).all() {
            ray_cylinder_side_entry(v, -m, cap.p, cap.q, r)
        } else {
            None
        }
    };
    let edge = |e0: DVec3, e1: DVec3| {
        if e0.min(e1).cmple(hi).all() && e0.max(e1).cmpge(lo).all() {
            line_line_entry(cap.p, cap.q, m, e0, e1, r)
        } else {
            None
        }
    };
    earliest([
        end(cap.p),
        end(cap.q),
        corner(a),
        corner(b),
        corner(c),
        edge(a, b),
        edge(b, c),
        edge(c, a),
    ])
}

/// The rounding allowance of the early rejections: 1e-12 of the sizes involved, far above the f64 rounding of
/// the few operations of a bound and far below anything the queries resolve, so a rejection never drops a
/// contact the full computation would find (nor changes its bits).
pub(crate) fn reject_slack(cap: &CapD, m: DVec3, at: DVec3) -> f64 {
    1e-12
        * (cap.p.abs().max_element()
            + cap.q.abs().max_element()
            + m.abs().max_element()
            + at.abs().max_element()
            + cap.r)
}

/// The times within `range` at which the interval `lo + v t ..= hi + v t` meets `min..=max`: `None` when it
/// never does.
pub(crate) fn interval_meet(
    lo: f64,
    hi: f64,
    v: f64,
    min: f64,
    max: f64,
    range: (f64, f64),
) -> Option<(f64, f64)> {
    let (mut t0, mut t1) = range;
    if v == 0.0 {
        if lo > max || hi < min {
            return None;
        }
    } else {
        // lo + v t <= max and hi + v t >= min.
        let (a, b) = ((max - lo) / v, (min - hi) / v);
        if v > 0.0 {
            (t0, t1) = (t0.max(b), t1.min(a));
        } else {
            (t0, t1) = (t0.max(a), t1.min(b));
        }
    }
    (t0 <= t1).then_some((t0, t1))
}

/// A lower bound on the first contact of a capsule moving by `m` with the triangle `a, b, c`: when its segment
/// first comes within the radius (and the rounding slack) of the triangle's plane while the capsule's moving
/// box meets the triangle's box. `None` when that never happens in `[0, 1]`, so they never touch; `Some(t0)`
/// with `t0 > 0` says they are apart at the start.
pub(crate) fn triangle_reach(cap: &CapD, m: DVec3, a: DVec3, b: DVec3, c: DVec3) -> Option<f64> {
    let reach = cap.r + reject_slack(cap, m, a);
    let (lo, hi) = (
        cap.p.min(cap.q) - DVec3::splat(reach),
        cap.p.max(cap.q) + DVec3::splat(reach),
    );
    let (tri_lo, tri_hi) = (a.min(b).min(c), a.max(b).max(c));
    let mut range = (0.0, 1.0);
    for i in 0..3 {
        range = interval_meet(lo[i], hi[i], m[i], tri_lo[i], tri_hi[i], range)?;
    }
    let n = (b - a).cross(c - a);
    let len = n.length();
    if len > 0.0 {
        let n = n / len;
        let (sp, sq) = (n.dot(cap.p - a), n.dot(cap.q - a));
        range = interval_meet(sp.min(sq), sp.max(sq), n.dot(m), -reach, reach, range)?;
    }
    Some(range.0)
}

/// A capsule's first contact with a triangle before its point and normal are read off: touching at the start
/// (the answer is whole), or entering at `t` (read off with [`triangle_contact`], for the earliest only).
#[derive(Clone, Copy, Debug)]
pub(crate) enum TriangleHit {
    Touching(ToiD),
    Entry(f64),
}

impl TriangleHit {
    pub(crate) fn t(&self) -> f64 {
        match self {
            TriangleHit::Touching(toi) => toi.t,
            TriangleHit::Entry(t) => *t,
        }
    }
}

/// The first contact of a capsule moving by `m` with the triangle `a, b, c`, given its reach `t0` (from
/// [`triangle_reach`]), unless it cannot come before `before` (then `None`, as for no contact): the plane's
/// reach rejects most triangles a few operations in and skips the start's overlap test for those it leaves.
/// `start_pair` answers `segment_triangle` of the capsule's segment and the triangle (a caller that met the
/// same pair before hands back its answer).
pub(crate) fn capsule_triangle_hit(
    cap: &CapD,
    m: DVec3,
    [a, b, c]: [DVec3; 3],
    (t0, before): (f64, f64),
    start_pair: impl FnOnce() -> Pair,
) -> Option<TriangleHit> {
    if t0 == 0.0 {
        let pair = start_pair();
        if pair.0.distance_squared(pair.1) <= cap.r * cap.r {
            return touching(pair, m, || None).map(TriangleHit::Touching);
        }
    }
    if m == DVec3::ZERO || t0 >= before {
        return None;
    }
    triangle_entry(cap, m, a, b, c).map(TriangleHit::Entry)
}

/// The contact at `t` of a capsule entering the triangle `a, b, c` then.
pub(crate) fn triangle_contact(
    cap: &CapD,
    m: DVec3,
    a: DVec3,
    b: DVec3,
    c: DVec3,
    t: f64,
) -> Option<ToiD> {
    contact(t, cap, m, |p, q| segment_triangle(p, q, a, b, c), 0.0)
}

/// A capsule moving against a triangle in f64: `None` for no contact.
pub(crate) fn capsule_triangle_d(
    cap: &CapD,
    m: DVec3,
    a: DVec3,
    b: DVec3,
    c: DVec3,
) -> Option<ToiD> {
    let t0 = triangle_reach(cap, m, a, b, c)?;
    match capsule_triangle_hit(cap, m, [a, b, c], (t0, f64::INFINITY), || {
        segment_triangle(cap.p, cap.q, a, b, c)
    })? {
        TriangleHit::Touching(toi) => Some(toi),
        TriangleHit::Entry(t) => triangle_contact(cap, m, a, b, c, t),
    }
}

/// A moving capsule against a triangle (both faces): its end spheres against the triangle, the triangle's
/// corners against its side, and the triangle's edges against its segment.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Capsule, Triangle}, query::sweep::capsule_triangle};
/// // A capsule lying along z, moving +x into a wall-like triangle in the plane x = 2 whose edge crosses it.
/// let tri = Triangle::new(Vec3::new(2.0, -1.0, 0.0), Vec3::new(2.0, 3.0, 0.0), Vec3::new(2.0, -1.0, 4.0));
/// let c = Capsule::new(Vec3::new(0.0, 0.0, -5.0), Vec3::new(0.0, 0.0, 5.0), 0.5);
/// let toi = capsule_triangle(&c, Vec3::new(3.0, 0.0, 0.0), &tri).unwrap();
/// // The face is met when the axis is 0.5 short of x = 2: after 1.5 of 3.
/// assert_eq!((toi.t, toi.normal), (0.5, -Vec3::X));
/// ```
#[must_use]
pub fn capsule_triangle(capsule: &Capsule, motion: Vec3, triangle: &Triangle) -> Option<Toi> {
    let (cap, m) = start(capsule, motion)?;
    if !triangle.is_valid() {
        return None;
    }
    let (a, b, c) = (d3(triangle.a), d3(triangle.b), d3(triangle.c));
    capsule_triangle_d(&cap, m, a, b, c)?.to_f32()
}

/// For a segment meeting the solid box `min..=max`: the face to leave through (the least push along a face
/// normal that clears the whole segment), and the point of the box's boundary nearest the segment.
fn box_way_out(cap: &CapD, inner: DVec3, min: DVec3, max: DVec3) -> (DVec3, DVec3) {
    let mut best = (f64::INFINITY, DVec3::Y, cap.p);
    for i in 0..3 {
        let (lo, hi) = (cap.p[i].min(cap.q[i]), cap.p[i].max(cap.q[i]));
        for (depth, sign, face, deepest) in [
            (
                max[i] - lo + cap.r,
                1.0,
                max[i],
                if cap.p[i] <= cap.q[i] { cap.p } else { cap.q },
            ),
            (
                hi - min[i] + cap.r,
                -1.0,
                min[i],
                if cap.p[i] >= cap.q[i] { cap.p } else { cap.q },
            ),
        ] {
            if depth < best.0 {
                let mut n = DVec3::ZERO;
                n[i] = sign;
                let mut foot = deepest.clamp(min, max);
                foot[i] = face;
                best = (depth, n, foot);
            }
        }
    }
    let point = overlap_point(
        cap,
        inner,
        |x| point_aabb_d(x, min, max),
        |x| aabb_exit(x, min, max).1,
    );
    (best.1, point)
}

/// A capsule moving against the solid box `min..=max`, all in the box's own frame.
pub(crate) fn capsule_box_local(cap: &CapD, m: DVec3, min: DVec3, max: DVec3) -> Option<ToiD> {
    // The capsule's box moving along the motion must meet the box (with the rounding slack) for any contact;
    // apart at the start, the overlap test is skipped.
    let slack = reject_slack(cap, m, min.abs().max(max.abs()));
    let grow = DVec3::splat(cap.r + slack);
    let (lo, hi) = (cap.p.min(cap.q) - grow, cap.p.max(cap.q) + grow);
    let mut range = (0.0, 1.0);
    for i in 0..3 {
        range = interval_meet(lo[i], hi[i], m[i], min[i], max[i], range)?;
    }
    let pair_at = |p: DVec3, q: DVec3| segment_aabb(p, q, min, max);
    if range.0 == 0.0 {
        let pair = pair_at(cap.p, cap.q);
        if pair.0.distance_squared(pair.1) <= cap.r * cap.r {
            return touching(pair, m, || Some(box_way_out(cap, pair.0, min, max)));
        }
    }
    let t = box_entry(cap, m, min, max)?;
    contact(t, cap, m, pair_at, 0.0)
}

/// First contact of a capsule that starts clear of the solid box `min..=max`.
fn box_entry(cap: &CapD, m: DVec3, min: DVec3, max: DVec3) -> Option<f64> {
    if m == DVec3::ZERO {
        return None;
    }
    let r = cap.r;
    // Only the corners and edges the swept segment's box grown by r reaches can be touched.
    let (lo, hi) = swept_box(cap, m);
    let near = |x: DVec3| x.cmpge(lo).all() && x.cmple(hi).all();
    let mut best = earliest([
        sphere_aabb_entry(cap.p, m, r, min, max),
        sphere_aabb_entry(cap.q, m, r, min, max),
    ]);
    let mut take = |t: Option<f64>| {
        if let Some(t) = t
            && (0.0..=1.0).contains(&t)
            && best.is_none_or(|b| t < b)
        {
            best = Some(t);
        }
    };
    for v in box_corners(min, max) {
        if near(v) {
            take(ray_cylinder_side_entry(v, -m, cap.p, cap.q, r));
        }
    }
    for (e0, e1) in box_edges(min, max) {
        if (e0.min(e1)).cmple(hi).all() && (e0.max(e1)).cmpge(lo).all() {
            take(line_line_entry(cap.p, cap.q, m, e0, e1, r));
        }
    }
    best
}

/// The box the capsule sweeps through (both ends, both positions, grown by the radius).
fn swept_box(cap: &CapD, m: DVec3) -> (DVec3, DVec3) {
    let (p1, q1) = (cap.p + m, cap.q + m);
    let lo = cap.p.min(cap.q).min(p1).min(q1) - DVec3::splat(cap.r);
    let hi = cap.p.max(cap.q).max(p1).max(q1) + DVec3::splat(cap.r);
    (lo, hi)
}

/// A moving capsule against a solid axis-aligned box: its end spheres against the box, the box's corners
/// against its side, the box's edges against its segment.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Aabb, Capsule}, query::sweep::capsule_aabb};
/// // A character-sized upright capsule walking +x into a step 0.3 high: the lower end sphere (centre y = 0.35,
/// // radius 0.3) meets the step's top edge (x = 2, y = 0.3) when the axis is sqrt(0.09 - 0.0025) short of it.
/// let step = Aabb::new(Vec3::new(2.0, 0.0, -1.0), Vec3::new(3.0, 0.3, 1.0));
/// let c = Capsule::new(Vec3::new(0.0, 0.35, 0.0), Vec3::new(0.0, 1.55, 0.0), 0.3);
/// let toi = capsule_aabb(&c, Vec3::new(2.0, 0.0, 0.0), &step).unwrap();
/// let x = 2.0 - (0.09f32 - 0.0025).sqrt();
/// assert!((toi.t - x / 2.0).abs() < 1e-6);
/// assert!((toi.point - Vec3::new(2.0, 0.3, 0.0)).length() < 1e-6);
/// ```
#[must_use]
pub fn capsule_aabb(capsule: &Capsule, motion: Vec3, aabb: &Aabb) -> Option<Toi> {
    let (cap, m) = start(capsule, motion)?;
    if !aabb.is_valid() {
        return None;
    }
    capsule_box_local(&cap, m, d3(aabb.min), d3(aabb.max))?.to_f32()
}

/// The frame of an oriented box in f64: its rotation (columns are the box's axes) and centre.
fn obb_frame(obb: &Obb) -> (DMat3, DVec3) {
    (obb.rotation.as_dmat3(), d3(obb.center))
}

/// A moving capsule against a solid oriented box: [`capsule_aabb`] in the box's frame (in f64).
///
/// ```
/// use collidoscope::{glam::{Mat3, Vec3}, shape::{Capsule, Obb}, query::sweep::capsule_obb};
/// // A box turned 45° about y, its corner edge pointing at a capsule coming along -x.
/// let b = Obb::new(Vec3::ZERO, Vec3::ONE, Mat3::from_rotation_y(std::f32::consts::FRAC_PI_4));
/// let c = Capsule::new(Vec3::new(5.0, -0.5, 0.0), Vec3::new(5.0, 0.5, 0.0), 0.5);
/// let toi = capsule_obb(&c, Vec3::new(-5.0, 0.0, 0.0), &b).unwrap();
/// // The vertical edge sits at x = sqrt(2): reached when the axis is at sqrt(2) + 0.5.
/// assert!((toi.t - (5.0 - 2f32.sqrt() - 0.5) / 5.0).abs() < 1e-6);
/// assert!((toi.normal - Vec3::X).length() < 1e-5);
/// ```
#[must_use]
pub fn capsule_obb(capsule: &Capsule, motion: Vec3, obb: &Obb) -> Option<Toi> {
    let (cap, m) = start(capsule, motion)?;
    if !obb.is_valid() {
        return None;
    }
    let (rot, center) = obb_frame(obb);
    let to_local = rot.transpose();
    let local = CapD {
        p: to_local * (cap.p - center),
        q: to_local * (cap.q - center),
        r: cap.r,
    };
    let h = d3(obb.half_extents);
    let toi = capsule_box_local(&local, to_local * m, -h, h)?;
    ToiD {
        t: toi.t,
        point: center + rot * toi.point,
        normal: (rot * toi.normal).normalize(),
    }
    .to_f32()
}

/// The f64 pair of a capsule and a plane, for the overlap tests: exposed so they share one rule.
pub(crate) fn plane_pair(cap: &CapD, plane: &Plane) -> Pair {
    let n = d3(plane.normal);
    let len = n.length();
    segment_plane(cap.p, cap.q, n / len, f64::from(plane.d) / len)
}

/// The f64 pair of a capsule and an oriented box, both in the box's frame: the capsule taken there exactly as
/// [`capsule_obb`] takes it, so the overlap test and the sweep's start agree to the bit (an f32 rotation is
/// orthonormal only to rounding: mapping the pair back to the world would measure it differently).
pub(crate) fn obb_pair(cap: &CapD, obb: &Obb) -> Pair {
    let (rot, center) = obb_frame(obb);
    let to_local = rot.transpose();
    let h = d3(obb.half_extents);
    segment_aabb(
        to_local * (cap.p - center),
        to_local * (cap.q - center),
        -h,
        h,
    )
}
