//! Sweeps: the first time of impact of a moving sphere (seed 004) or top-down circle (seed 003).
//!
//! Conventions (every function here):
//! - `Toi.t` is the fraction of the motion in `[0, 1]` at first contact; `point` is the contact point on the
//!   obstacle's surface at that time; `normal` is unit and points from the obstacle toward the moving shape
//!   (from B toward A for [`sphere_sphere`]).
//! - Shapes that already touch or overlap at `t = 0` give `t = 0`, unless the (relative) motion separates them
//!   (a strictly positive component along the normal), then `None`. Zero motion: `t = 0` when touching, else
//!   `None`. When the sphere's centre lies inside a solid obstacle (box, cylinder) the normal is the way out
//!   through the nearest surface (the minimum-penetration direction) and `point` is the centre's projection on
//!   that surface; on a zero-thickness surface (plane, triangle) or at the centre of the other sphere it is
//!   taken against the motion (`-motion.normalize()`, or `+y` for zero motion), which never separates.
//! - Exact: closed forms (offset primitives, done right at the edges: the sphere against a finite primitive
//!   is the centre's ray against the primitive inflated by the radius, rims and corners rounded), or bracketed
//!   bisection on a convex distance where the inflated shape has a torus (cylinder rims). No sub-stepping:
//!   a fast or grazing pair is never missed (seed 004's 150 slices miss both).
//! - Computed in f64; invalid shapes or non-finite motion give `None`.

use glam::{DVec3, Vec3};

use super::closest::{point_aabb_d, point_triangle_d};
use super::{Toi, d3, f3, finite_toi};
use crate::shape::{Aabb, Cylinder, Obb, Plane, Sphere, Triangle};

mod capsule;
mod wall;

pub(crate) use capsule::{
    CapD, TriangleHit, WallD, capsule_triangle_hit, cylinder_pair, interval_meet, obb_pair,
    plane_pair, reject_slack, triangle_contact, triangle_reach,
};
pub use capsule::{
    capsule_aabb, capsule_capsule, capsule_cylinder, capsule_obb, capsule_plane, capsule_sphere,
    capsule_triangle, capsule_wall,
};
pub use wall::{circle_wall, sphere_wall};
use wall::{point_wall_solid_d, wall_exit};

/// Relative distance tolerance of the root finding for cylinders (the sphere sweeps).
const ROOT_TOLERANCE: f64 = 1e-12;

/// Relative distance tolerance of the capsule sweeps' root finding: a few f64 roundings of the coordinates. A
/// root is found where the distance comes within this of the radius, so the time found is early by this
/// distance divided by the closing speed: a grazing contact (closing at a millionth of the motion) must not
/// turn 1e-12 of the scale into 1e-6 of the motion.
const CAPSULE_ROOT_TOLERANCE: f64 = 1e-15;

/// Assemble the `t = 0` answer for shapes already touching: `None` when the motion separates them.
///
/// The normal points from the obstacle's closest point to the centre; when the centre is on or inside the
/// obstacle that is undefined, and `inside` gives it (the way out through the nearest surface, for solids),
/// falling back to against the motion (so zero-thickness surfaces never separate a centre lying on them).
fn touching_now(
    center: DVec3,
    closest: DVec3,
    motion: DVec3,
    inside: Option<(DVec3, DVec3)>,
) -> Option<Toi> {
    let away = center - closest;
    let len = away.length();
    let (normal, point) = if len > 0.0 {
        (away / len, closest)
    } else if let Some((normal, point)) = inside {
        (normal, point)
    } else {
        ((-motion).try_normalize().unwrap_or(DVec3::Y), closest)
    };
    if normal.dot(motion) > 0.0 {
        return None;
    }
    finite_toi(Toi {
        t: 0.0,
        point: f3(point),
        normal: f3(normal),
    })
}

/// For a centre inside a solid box: the outward normal of the nearest face and the centre's projection on it.
fn aabb_exit(c: DVec3, min: DVec3, max: DVec3) -> (DVec3, DVec3) {
    let mut best = (f64::INFINITY, DVec3::Y, c);
    for i in 0..3 {
        for (depth, sign, face) in [(c[i] - min[i], -1.0, min[i]), (max[i] - c[i], 1.0, max[i])] {
            if depth < best.0 {
                let mut n = DVec3::ZERO;
                n[i] = sign;
                let mut p = c;
                p[i] = face;
                best = (depth, n, p);
            }
        }
    }
    (best.1, best.2)
}

/// For a centre inside a solid capped cylinder: the outward normal of the nearest surface (side or a cap)
/// and the centre's projection on it.
fn cylinder_exit(c: DVec3, a: DVec3, b: DVec3, rc: f64) -> (DVec3, DVec3) {
    let axis = b - a;
    let h = axis.length();
    let u = axis / h;
    let s = (c - a).dot(u);
    let radial = c - a - u * s;
    let rl = radial.length();
    let side = rc - rl;
    let (to_a, to_b) = (s, h - s);
    if side <= to_a && side <= to_b && rl > 0.0 {
        let n = radial / rl;
        (n, c + n * side)
    } else if to_a <= to_b {
        (-u, c - u * to_a)
    } else {
        (u, c + u * to_b)
    }
}

/// The answer at fraction `t`, given the obstacle's closest point to the centre then.
fn contact_at(t: f64, center_then: DVec3, closest: DVec3, fallback_normal: DVec3) -> Option<Toi> {
    let normal = (center_then - closest)
        .try_normalize()
        .unwrap_or(fallback_normal);
    finite_toi(Toi {
        t: t.clamp(0.0, 1.0) as f32,
        point: f3(closest),
        normal: f3(normal),
    })
}

/// First `t >= 0` at which `o + t m` reaches distance `r` from `c`, for `o` outside that sphere.
fn ray_sphere_entry(o: DVec3, m: DVec3, c: DVec3, r: f64) -> Option<f64> {
    let a = m.length_squared();
    if !(a > 0.0) {
        return None;
    }
    let oc = o - c;
    let half_b = oc.dot(m);
    if half_b >= 0.0 {
        return None; // Moving away (or tangentially) from outside.
    }
    let cc = oc.length_squared() - r * r;
    let perp = oc - m * (half_b / a);
    let disc = a * (r * r - perp.length_squared());
    if disc < 0.0 {
        return None;
    }
    let denom = -half_b + disc.sqrt();
    Some(if denom > 0.0 {
        (cc / denom).max(0.0)
    } else {
        0.0
    })
}

/// First `t >= 0` at which `o + t m` reaches distance `r` from segment `p..q` through its side (the point's
/// projection strictly within the segment), for `o` outside that capsule.
fn ray_cylinder_side_entry(o: DVec3, m: DVec3, p: DVec3, q: DVec3, r: f64) -> Option<f64> {
    let axis = q - p;
    let len2 = axis.length_squared();
    if !(len2 > 0.0) {
        return None;
    }
    let rel = o - p;
    let m_perp = m - axis * (m.dot(axis) / len2);
    let rel_perp = rel - axis * (rel.dot(axis) / len2);
    let a = m_perp.length_squared();
    if !(a > 0.0) {
        return None;
    }
    let half_b = rel_perp.dot(m_perp);
    if half_b >= 0.0 {
        return None;
    }
    let cc = rel_perp.length_squared() - r * r;
    let perp = rel_perp - m_perp * (half_b / a);
    let disc = a * (r * r - perp.length_squared());
    if disc < 0.0 {
        return None;
    }
    let denom = -half_b + disc.sqrt();
    let t = if denom > 0.0 {
        (cc / denom).max(0.0)
    } else {
        0.0
    };
    let s = (rel + m * t).dot(axis) / len2;
    (0.0..=1.0).contains(&s).then_some(t)
}

/// First entry of `o + t m` into the capsule `p..q` of radius `r`, for `o` outside it.
pub(crate) fn ray_capsule_entry(o: DVec3, m: DVec3, p: DVec3, q: DVec3, r: f64) -> Option<f64> {
    [
        ray_cylinder_side_entry(o, m, p, q, r),
        ray_sphere_entry(o, m, p, r),
        ray_sphere_entry(o, m, q, r),
    ]
    .into_iter()
    .flatten()
    .reduce(f64::min)
}

/// Smallest candidate within `[0, 1]`.
fn earliest(candidates: impl IntoIterator<Item = Option<f64>>) -> Option<f64> {
    candidates
        .into_iter()
        .flatten()
        .filter(|t| (0.0..=1.0).contains(t))
        .reduce(f64::min)
}

/// A moving sphere against a plane's surface (two-sided): seed 004's offset plane, solved exactly.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Plane, Sphere}, query::sweep::sphere_plane};
/// let floor = Plane::new(Vec3::Y, 0.0);
/// // Radius 1 at y = 5 falling 8: the bottom reaches the floor after 4 of 8, t = 0.5.
/// let toi = sphere_plane(&Sphere::new(Vec3::new(0.0, 5.0, 0.0), 1.0), Vec3::new(0.0, -8.0, 0.0), &floor).unwrap();
/// assert_eq!((toi.t, toi.point, toi.normal), (0.5, Vec3::ZERO, Vec3::Y));
/// ```
#[must_use]
pub fn sphere_plane(sphere: &Sphere, motion: Vec3, plane: &Plane) -> Option<Toi> {
    if !sphere.is_valid() || !plane.is_valid() || !motion.is_finite() {
        return None;
    }
    let n = d3(plane.normal);
    let len = n.length();
    let n = n / len;
    let d = f64::from(plane.d) / len;
    let c = d3(sphere.center);
    let m = d3(motion);
    let r = f64::from(sphere.radius);
    let s0 = n.dot(c) - d;
    let speed = n.dot(m);
    // The side the centre is on; on the plane, the side it comes from.
    let side = if s0 > 0.0 || (s0 == 0.0 && speed <= 0.0) {
        1.0
    } else {
        -1.0
    };
    let normal = n * side;
    if s0.abs() <= r {
        if s0 == 0.0 {
            return touching_now(c, c - n * s0, m, None);
        }
        if normal.dot(m) > 0.0 {
            return None;
        }
        return finite_toi(Toi {
            t: 0.0,
            point: f3(c - n * s0),
            normal: f3(normal),
        });
    }
    let approach = -side * speed; // Positive when closing in.
    if !(approach > 0.0) {
        return None;
    }
    let t = (s0.abs() - r) / approach;
    if t > 1.0 {
        return None;
    }
    let center_then = c + m * t;
    contact_at(t, center_then, center_then - normal * r, normal)
}

/// Two moving spheres: A moves by `motion_a` while B moves by `motion_b`; exact root of
/// `|(ca - cb) + t (ma - mb)| = ra + rb`. The normal points from B toward A; the point is on B's surface.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::Sphere, query::sweep::sphere_sphere};
/// let a = Sphere::new(Vec3::ZERO, 1.0);
/// let b = Sphere::new(Vec3::new(10.0, 0.0, 0.0), 1.0);
/// // Closing speed 8 + 8 = 16 over a gap of 10 - 2 = 8: contact at t = 0.5, at x = 4 + 1 = 5.
/// let toi = sphere_sphere(&a, Vec3::new(8.0, 0.0, 0.0), &b, Vec3::new(-8.0, 0.0, 0.0)).unwrap();
/// assert_eq!((toi.t, toi.point, toi.normal), (0.5, Vec3::new(5.0, 0.0, 0.0), -Vec3::X));
/// ```
#[must_use]
#[inline]
pub fn sphere_sphere(a: &Sphere, motion_a: Vec3, b: &Sphere, motion_b: Vec3) -> Option<Toi> {
    if !a.is_valid() || !b.is_valid() || !motion_a.is_finite() || !motion_b.is_finite() {
        return None;
    }
    let (ca, cb) = (d3(a.center), d3(b.center));
    let (ma, mb) = (d3(motion_a), d3(motion_b));
    let (ra, rb) = (f64::from(a.radius), f64::from(b.radius));
    let rel = ca - cb;
    let m = ma - mb;
    let sum = ra + rb;
    if rel.length_squared() <= sum * sum {
        // Touching now: the normal from B's centre toward A's; B's surface point along it.
        let normal = rel
            .try_normalize()
            .unwrap_or_else(|| (-m).try_normalize().unwrap_or(DVec3::Y));
        if normal.dot(m) > 0.0 {
            return None;
        }
        return finite_toi(Toi {
            t: 0.0,
            point: f3(cb + normal * rb),
            normal: f3(normal),
        });
    }
    let t = ray_sphere_entry(rel, m, DVec3::ZERO, sum)?;
    if t > 1.0 {
        return None;
    }
    let (ca_t, cb_t) = (ca + ma * t, cb + mb * t);
    let normal = (ca_t - cb_t).try_normalize().unwrap_or(DVec3::Y);
    finite_toi(Toi {
        t: t as f32,
        point: f3(cb_t + normal * rb),
        normal: f3(normal),
    })
}

/// A moving sphere against a triangle (both faces): the centre's ray against the triangle inflated by the
/// radius (two face plates, three edge cylinders, three vertex spheres), so edges and corners are exact.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Sphere, Triangle}, query::sweep::sphere_triangle};
/// let t = Triangle::new(Vec3::new(-5.0, 0.0, -5.0), Vec3::new(0.0, 0.0, 5.0), Vec3::new(5.0, 0.0, -5.0));
/// // Radius 1 at y = 3 dropping 4: the face is reached when y = 1, after 2 of 4.
/// let toi = sphere_triangle(&Sphere::new(Vec3::new(0.0, 3.0, 0.0), 1.0), Vec3::new(0.0, -4.0, 0.0), &t).unwrap();
/// assert_eq!((toi.t, toi.point, toi.normal), (0.5, Vec3::ZERO, Vec3::Y));
/// // Coming at the apex (0, 0, 5) along -z, 0.5 above the plane: the vertex is touched when the centre
/// // is sqrt(1 - 0.25) ≈ 0.866 beyond it, at z = 5.866, after 4.134 of 8.
/// let toi = sphere_triangle(&Sphere::new(Vec3::new(0.0, 0.5, 10.0), 1.0), Vec3::new(0.0, 0.0, -8.0), &t).unwrap();
/// assert!((toi.t - (5.0 - 0.75f32.sqrt()) / 8.0).abs() < 1e-6);
/// assert_eq!(toi.point, Vec3::new(0.0, 0.0, 5.0));
/// ```
#[must_use]
pub fn sphere_triangle(sphere: &Sphere, motion: Vec3, triangle: &Triangle) -> Option<Toi> {
    if !sphere.is_valid() || !triangle.is_valid() || !motion.is_finite() {
        return None;
    }
    let (a, b, c) = (d3(triangle.a), d3(triangle.b), d3(triangle.c));
    let o = d3(sphere.center);
    let m = d3(motion);
    let r = f64::from(sphere.radius);
    let closest_now = point_triangle_d(o, a, b, c);
    if o.distance_squared(closest_now) <= r * r {
        return touching_now(o, closest_now, m, None);
    }
    let t = sphere_triangle_entry(o, m, r, a, b, c)?;
    let center_then = o + m * t;
    let q = point_triangle_d(center_then, a, b, c);
    contact_at(t, center_then, q, -m.normalize())
}

/// First `t` in `[0, 1]` at which a sphere of radius `r` whose centre moves from `o` by `m` touches the
/// triangle `a, b, c` (both faces), for a start farther than `r` from it: the face plates, edge cylinders and
/// vertex spheres of the inflated triangle.
pub(crate) fn sphere_triangle_entry(
    o: DVec3,
    m: DVec3,
    r: f64,
    a: DVec3,
    b: DVec3,
    c: DVec3,
) -> Option<f64> {
    let n_raw = (b - a).cross(c - a);
    let n = n_raw.normalize();
    // Face plates: the plane offset by r on the side the centre is on, hit inside the triangle.
    let face = {
        let s0 = n.dot(o - a);
        let side = if s0 >= 0.0 { 1.0 } else { -1.0 };
        let approach = -side * n.dot(m);
        if s0.abs() > r && approach > 0.0 {
            let t = (s0.abs() - r) / approach;
            let q = o + m * t - n * (side * r);
            let inside = n_raw.dot((b - a).cross(q - a)) >= 0.0
                && n_raw.dot((c - b).cross(q - b)) >= 0.0
                && n_raw.dot((a - c).cross(q - c)) >= 0.0;
            inside.then_some(t)
        } else {
            None
        }
    };
    earliest([
        face,
        ray_cylinder_side_entry(o, m, a, b, r),
        ray_cylinder_side_entry(o, m, b, c, r),
        ray_cylinder_side_entry(o, m, c, a, r),
        ray_sphere_entry(o, m, a, r),
        ray_sphere_entry(o, m, b, r),
        ray_sphere_entry(o, m, c, r),
    ])
}

/// A moving sphere against a solid axis-aligned box: the centre's ray against the box inflated by the
/// radius with rounded edges and corners (Ericson's method: slab test on the expanded box, then the edge
/// capsules in edge and corner regions).
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Aabb, Sphere}, query::sweep::sphere_aabb};
/// let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
/// // Radius 0.5 from x = -3 moving +4 along y = z = 0.5: the face x = 0 is met when x = -0.5, t = 2.5 / 4.
/// let toi = sphere_aabb(&Sphere::new(Vec3::new(-3.0, 0.5, 0.5), 0.5), Vec3::new(4.0, 0.0, 0.0), &b).unwrap();
/// assert_eq!((toi.t, toi.point, toi.normal), (0.625, Vec3::new(0.0, 0.5, 0.5), -Vec3::X));
/// // At y = 1.3 the path runs above the top face: the sphere meets the rounded edge x = 0, y = 1 when
/// // (x, 1.3) is 0.5 from (0, 1), at x = -sqrt(0.25 - 0.09) = -0.4: t = 2.6 / 4 = 0.65.
/// let toi = sphere_aabb(&Sphere::new(Vec3::new(-3.0, 1.3, 0.5), 0.5), Vec3::new(4.0, 0.0, 0.0), &b).unwrap();
/// assert!((toi.t - 0.65).abs() < 1e-6);
/// assert_eq!(toi.point, Vec3::new(0.0, 1.0, 0.5));
/// // At y = z = 1.4 it passes sqrt(0.32) ≈ 0.566 from the edge y = z = 1: no contact, though it crosses
/// // the box expanded by 0.5 (seed 004's offset trick would call that a hit).
/// assert!(sphere_aabb(&Sphere::new(Vec3::new(-3.0, 1.4, 1.4), 0.5), Vec3::new(6.0, 0.0, 0.0), &b).is_none());
/// ```
#[must_use]
pub fn sphere_aabb(sphere: &Sphere, motion: Vec3, aabb: &Aabb) -> Option<Toi> {
    if !sphere.is_valid() || !aabb.is_valid() || !motion.is_finite() {
        return None;
    }
    let (min, max) = (d3(aabb.min), d3(aabb.max));
    let o = d3(sphere.center);
    let m = d3(motion);
    let r = f64::from(sphere.radius);
    let closest_now = point_aabb_d(o, min, max);
    if o.distance_squared(closest_now) <= r * r {
        return touching_now(o, closest_now, m, Some(aabb_exit(o, min, max)));
    }
    let t = sphere_aabb_entry(o, m, r, min, max)?;
    let center_then = o + m * t;
    let q = point_aabb_d(center_then, min, max);
    contact_at(t, center_then, q, -m.normalize())
}

/// First `t` in `[0, 1]` at which a sphere of radius `r` whose centre moves from `o` by `m` touches the solid
/// box `min..=max`, for a start farther than `r` from it (Ericson's expanded box, then the edge capsules in
/// edge and corner regions).
pub(crate) fn sphere_aabb_entry(o: DVec3, m: DVec3, r: f64, min: DVec3, max: DVec3) -> Option<f64> {
    // Slab test against the box expanded by r.
    let (emin, emax) = (min - DVec3::splat(r), max + DVec3::splat(r));
    let mut t_enter = 0.0f64;
    let mut t_exit = 1.0f64;
    for i in 0..3 {
        if m[i] == 0.0 {
            if o[i] < emin[i] || o[i] > emax[i] {
                return None;
            }
        } else {
            let t1 = (emin[i] - o[i]) / m[i];
            let t2 = (emax[i] - o[i]) / m[i];
            t_enter = t_enter.max(t1.min(t2));
            t_exit = t_exit.min(t1.max(t2));
        }
    }
    if t_enter > t_exit {
        return None;
    }
    let p = o + m * t_enter;
    let mut below = 0u8;
    let mut above = 0u8;
    for i in 0..3 {
        if p[i] < min[i] {
            below |= 1 << i;
        }
        if p[i] > max[i] {
            above |= 1 << i;
        }
    }
    let mask = below | above;
    let corner = |bits: u8| {
        DVec3::new(
            if bits & 1 != 0 { max.x } else { min.x },
            if bits & 2 != 0 { max.y } else { min.y },
            if bits & 4 != 0 { max.z } else { min.z },
        )
    };
    let t = if mask.count_ones() <= 1 {
        Some(t_enter)
    } else if mask == 7 {
        // Corner region: the three edge capsules meeting at the corner.
        let v = corner(above);
        earliest([1u8, 2, 4].map(|bit| ray_capsule_entry(o, m, v, corner(above ^ bit), r)))
    } else {
        // Edge region: that edge's capsule.
        earliest([ray_capsule_entry(o, m, corner(below ^ 7), corner(above), r)])
    }?;
    if t > 1.0 {
        return None;
    }
    Some(t)
}

/// The point of the solid capped cylinder `a..b` (radius `rc`) closest to `p`.
fn point_cylinder_d(p: DVec3, a: DVec3, b: DVec3, rc: f64) -> DVec3 {
    let axis = b - a;
    let h2 = axis.length_squared();
    let s = ((p - a).dot(axis) / h2).clamp(0.0, 1.0);
    let on_axis = a + axis * s;
    let radial = p - a - axis * ((p - a).dot(axis) / h2);
    let rl = radial.length();
    if rl <= rc {
        if s > 0.0 && s < 1.0 {
            // Inside: the point itself, exactly (rebuilding it from its parts would leave rounding noise).
            p
        } else {
            on_axis + radial
        }
    } else {
        on_axis + radial * (rc / rl)
    }
}

/// A moving sphere against a solid, finite, capped cylinder.
///
/// The inflated cylinder's side (radius `rc + r`) and flat caps (offset by `r`) are solved in closed form;
/// its rims are tori, so the first contact is then pinned by bisection on the convex distance from the
/// centre's path to the cylinder (a convex function of `t`, so the first root is bracketed and unique): exact
/// at rims, where seed 004's infinite-cylinder offset is wrong.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Cylinder, Sphere}, query::sweep::sphere_cylinder};
/// // Upright cylinder radius 1 from y = 0 to y = 4 at the origin.
/// let cyl = Cylinder::new(Vec3::ZERO, Vec3::new(0.0, 4.0, 0.0), 1.0);
/// // Radius 0.5 from x = -5 at mid height, moving +8: the side is met when x = -1.5, t = 3.5 / 8.
/// let toi = sphere_cylinder(&Sphere::new(Vec3::new(-5.0, 2.0, 0.0), 0.5), Vec3::new(8.0, 0.0, 0.0), &cyl).unwrap();
/// assert!((toi.t - 3.5 / 8.0).abs() < 1e-6);
/// assert!((toi.normal - -Vec3::X).length() < 1e-6);
/// // Just above the top cap's height (4.3 < 4 + 0.5) the sphere meets the rim, not the side: later than
/// // the side would be, at x = -sqrt(0.25 - 0.09) - 1 = -1.4.
/// let toi = sphere_cylinder(&Sphere::new(Vec3::new(-5.0, 4.3, 0.0), 0.5), Vec3::new(8.0, 0.0, 0.0), &cyl).unwrap();
/// assert!((toi.t - 3.6 / 8.0).abs() < 1e-5);
/// ```
#[must_use]
pub fn sphere_cylinder(sphere: &Sphere, motion: Vec3, cylinder: &Cylinder) -> Option<Toi> {
    if !sphere.is_valid() || !cylinder.is_valid() || !motion.is_finite() {
        return None;
    }
    let (a, b) = (d3(cylinder.a), d3(cylinder.b));
    let rc = f64::from(cylinder.radius);
    let o = d3(sphere.center);
    let m = d3(motion);
    let r = f64::from(sphere.radius);
    let closest = |p: DVec3| point_cylinder_d(p, a, b, rc);
    let q0 = closest(o);
    if o.distance_squared(q0) <= r * r {
        return touching_now(o, q0, m, Some(cylinder_exit(o, a, b, rc)));
    }
    let t = sphere_cylinder_entry(o, m, r, a, b, rc)?;
    let center_then = o + m * t;
    contact_at(t, center_then, closest(center_then), -m.normalize())
}

/// First `t` in `[0, 1]` at which a sphere of radius `r` whose centre moves from `o` by `m` touches the solid
/// capped cylinder `a..b` of radius `rc`, for a start farther than `r` from it: the inflated side and caps in
/// closed form, the rims (tori) by [`first_root_convex`].
pub(crate) fn sphere_cylinder_entry(
    o: DVec3,
    m: DVec3,
    r: f64,
    a: DVec3,
    b: DVec3,
    rc: f64,
) -> Option<f64> {
    sphere_cylinder_entry_tol(o, m, r, a, b, rc, ROOT_TOLERANCE)
}

/// [`sphere_cylinder_entry`] with the rims' root found to `rel_tol` of the scale (the capsule sweeps' end
/// spheres ask for [`CAPSULE_ROOT_TOLERANCE`]).
pub(crate) fn sphere_cylinder_entry_tol(
    o: DVec3,
    m: DVec3,
    r: f64,
    a: DVec3,
    b: DVec3,
    rc: f64,
    rel_tol: f64,
) -> Option<f64> {
    if m == DVec3::ZERO {
        return None;
    }
    let axis = b - a;
    let u = axis / axis.length();
    // The inflated cylinder lies inside the infinite cylinder of radius rc + r and inside the slab between
    // the caps offset by r, so reaching either at a point of the inflated shape is the first contact, exactly.
    let side = ray_cylinder_side_entry(o, m, a, b, rc + r);
    let cap = |center: DVec3, normal: DVec3| {
        let s0 = normal.dot(o - center) - r;
        let speed = normal.dot(m);
        if s0 < 0.0 || !(speed < 0.0) {
            return None;
        }
        let t = -s0 / speed;
        let p = o + m * t - center;
        let radial = p - u * p.dot(u);
        (radial.length() <= rc).then_some(t)
    };
    earliest([side, cap(a, -u), cap(b, u)]).or_else(|| {
        // Otherwise only a rim (a torus of the inflated shape) can be touched, and only by a path that
        // reaches beyond a cap's plane (outside it, the inflated shape is the infinite cylinder).
        let h = axis.length();
        let (s0, s1) = ((o - a).dot(u), (o + m - a).dot(u));
        if s0.min(s1) >= 0.0 && s0.max(s1) <= h {
            return None;
        }
        // A rim is within rc of the axis segment: a path that never comes within rc + r of it misses.
        let (p, q) = super::segment::closest_segment_segment_d(o, o + m, a, b);
        if p.distance_squared(q) > (rc + r) * (rc + r) {
            return None;
        }
        first_root_convex(o, m, r, rel_tol, |p| point_cylinder_d(p, a, b, rc))
    })
}

/// First `t` in `[0, 1]` at which the centre's path comes within `r` of a convex solid, given its
/// closest-point function, for a start outside that distance: the distance along a line is a convex function
/// of `t`, so a golden-section search finds the closest approach and bisection then pins the first root before
/// it. Used only where no closed form exists (rims); about 150 closest-point evaluations.
fn first_root_convex(
    o: DVec3,
    m: DVec3,
    r: f64,
    rel_tol: f64,
    closest: impl Fn(DVec3) -> DVec3,
) -> Option<f64> {
    let scale = o.length() + m.length() + r;
    let tol = rel_tol * scale;
    let f = |t: f64| {
        let p = o + m * t;
        p.distance(closest(p)) - r
    };
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let g = 0.5 * (5f64.sqrt() - 1.0);
    let mut x1 = hi - g * (hi - lo);
    let mut x2 = lo + g * (hi - lo);
    let (mut f1, mut f2) = (f(x1), f(x2));
    let lipschitz = m.length();
    for _ in 0..80 {
        if f1 <= tol || f2 <= tol {
            break;
        }
        // The minimum lies in lo..=hi and f changes by at most |m| per unit of t: once even that bound stays
        // clear of the tolerance, the search could only end without a root. (The same answer, sooner.)
        if f1.min(f2) - lipschitz * (hi - lo) > 2.0 * tol {
            return None;
        }
        if f1 <= f2 {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = f(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = f(x2);
        }
    }
    let bracket = if f1 <= tol {
        x1
    } else if f2 <= tol {
        x2
    } else if f(1.0) <= tol {
        1.0
    } else {
        return None;
    };
    // {f <= tol} is an interval (f is convex) that starts in (0, bracket]: bisect for its start.
    let (mut lo, mut hi) = (0.0f64, bracket);
    for _ in 0..64 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) <= tol {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// First `t` in `lo..=hi` at which the convex function `f` (a distance minus a radius) reaches 0, for
/// `f(lo) > 0`: a golden-section search for the smallest value (stopping as soon as one is at or below the
/// tolerance, or as soon as `f`'s Lipschitz constant `lipschitz` shows the whole bracket clear of it), then
/// bisection for the start of the interval where `f` is at or below it. The tolerance is
/// `CAPSULE_ROOT_TOLERANCE * scale`, so the answer is never late and early by at most that distance.
pub(crate) fn first_root_convex_fn(
    f: impl Fn(f64) -> f64,
    lo: f64,
    hi: f64,
    scale: f64,
    lipschitz: f64,
) -> Option<f64> {
    let tol = CAPSULE_ROOT_TOLERANCE * scale;
    if !(hi >= lo) {
        return None;
    }
    let (mut a, mut b) = (lo, hi);
    let g = 0.5 * (5f64.sqrt() - 1.0);
    let mut x1 = b - g * (b - a);
    let mut x2 = a + g * (b - a);
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..80 {
        if f1 <= tol || f2 <= tol {
            break;
        }
        if f1.min(f2) - lipschitz * (b - a) > 2.0 * tol {
            return None;
        }
        if f1 <= f2 {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - g * (b - a);
            f1 = f(x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + g * (b - a);
            f2 = f(x2);
        }
    }
    let bracket = if f1 <= tol {
        x1
    } else if f2 <= tol {
        x2
    } else if f(hi) <= tol {
        hi
    } else {
        return None;
    };
    let (mut a, mut b) = (lo, bracket);
    for _ in 0..64 {
        let mid = 0.5 * (a + b);
        if mid <= a || mid >= b {
            break;
        }
        if f(mid) <= tol {
            b = mid;
        } else {
            a = mid;
        }
    }
    Some(b)
}

/// A moving sphere against a solid oriented box: [`sphere_aabb`] in the box's frame.
///
/// ```
/// use collidoscope::{glam::{Mat3, Vec3}, shape::{Obb, Sphere}, query::sweep::sphere_obb};
/// // A unit box turned 90° about y is the same box: the face x = -1 is met when the centre is at x = -1.5.
/// let b = Obb::new(Vec3::ZERO, Vec3::ONE, Mat3::from_rotation_y(std::f32::consts::FRAC_PI_2));
/// let toi = sphere_obb(&Sphere::new(Vec3::new(-5.0, 0.0, 0.0), 0.5), Vec3::new(7.0, 0.0, 0.0), &b).unwrap();
/// assert!((toi.t - 0.5).abs() < 1e-6 && (toi.normal + Vec3::X).length() < 1e-6);
/// ```
#[must_use]
pub fn sphere_obb(sphere: &Sphere, motion: Vec3, obb: &Obb) -> Option<Toi> {
    if !sphere.is_valid() || !obb.is_valid() || !motion.is_finite() {
        return None;
    }
    let rt = obb.rotation.transpose();
    let local = Sphere::new(rt * (sphere.center - obb.center), sphere.radius);
    let h = obb.half_extents;
    let toi = sphere_aabb(&local, rt * motion, &Aabb::new(-h, h))?;
    finite_toi(Toi {
        t: toi.t,
        point: obb.center + obb.rotation * toi.point,
        normal: (obb.rotation * toi.normal).normalize(),
    })
}
