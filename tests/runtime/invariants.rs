//! Property tests (proptest) for the geometric invariants every query must keep.
//!
//! Each property checks a query against an independent reference written here in f64 (signed distance
//! functions, exact closest points, a separating-axis gap), or against another query that must agree with it:
//! ray hits lie on the surface and are the first hit, closest points are no farther than any sampled point of
//! the shape, overlap tests are symmetric and agree with closest-point distances and SAT reports, line tests
//! agree with the exact distance along the segment and with the ray casts, sweeps do not
//! overlap before `t` and touch at `t`, `move_and_slide` never ends blocked, and the triangle helpers agree with
//! barycentric coordinates. Comparisons that sit inside a rounding band (touching within tolerance) are
//! excluded, never loosened. The runs use a fixed seed (override with `PROPTEST_RNG_SEED`) and no failure
//! persistence files.

#![allow(clippy::unwrap_used)]

use collidoscope::glam::{DMat3, DVec2, DVec3, Mat3, Quat, Vec2, Vec3};
use collidoscope::query::{
    self, Cull, RayHit, Toi, closest, overlap, ray, sat, segment, sweep, triangle,
};
use collidoscope::shape::{Aabb, Cylinder, Obb, Plane, Ray, Segment, Sphere, Triangle, Wall};
use collidoscope::walls;
use proptest::prelude::*;
use proptest::test_runner::{RngSeed, TestCaseError};

type D = DVec3;

/// Config with a fixed number of cases, a fixed seed and no persistence files.
fn config(cases: u32) -> ProptestConfig {
    let default = ProptestConfig::default();
    let rng_seed = if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
        default.rng_seed
    } else {
        RngSeed::Fixed(0x00C0_111D_05C0_9E00 ^ u64::from(cases))
    };
    ProptestConfig {
        cases,
        max_global_rejects: 1_000_000,
        max_local_rejects: 1_000_000,
        failure_persistence: None,
        rng_seed,
        ..default
    }
}

// ------------------------------------------------------------------------------------------------------------
// Strategies.
// ------------------------------------------------------------------------------------------------------------

fn v3(r: f32) -> impl Strategy<Value = Vec3> + Clone {
    (-r..=r, -r..=r, -r..=r).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn v2(r: f32) -> impl Strategy<Value = Vec2> + Clone {
    (-r..=r, -r..=r).prop_map(|(x, y)| Vec2::new(x, y))
}

/// A unit vector (a tiny random vector falls back to +x).
fn unit3() -> impl Strategy<Value = Vec3> + Clone {
    v3(1.0).prop_map(|v| {
        if v.length() < 0.1 {
            Vec3::X
        } else {
            v.normalize()
        }
    })
}

fn rotation() -> impl Strategy<Value = Mat3> + Clone {
    (-1.0f32..=1.0, -1.0f32..=1.0, -1.0f32..=1.0, -1.0f32..=1.0).prop_map(|(x, y, z, w)| {
        let q = Quat::from_xyzw(x, y, z, w);
        if q.length() < 0.1 {
            Mat3::IDENTITY
        } else {
            Mat3::from_quat(q.normalize())
        }
    })
}

fn sphere() -> impl Strategy<Value = Sphere> + Clone {
    (v3(8.0), 0.05f32..5.0).prop_map(|(c, r)| Sphere::new(c, r))
}

fn aabb() -> impl Strategy<Value = Aabb> + Clone {
    (v3(8.0), v3(4.0), 0u8..8).prop_map(|(c, h, flat)| {
        let mut h = h.abs() + Vec3::splat(0.02);
        // Flat boxes are valid: make one axis zero now and then.
        if flat == 0 {
            h.y = 0.0;
        }
        Aabb::new(c - h, c + h)
    })
}

fn obb() -> impl Strategy<Value = Obb> + Clone {
    (v3(8.0), v3(4.0), rotation()).prop_map(|(c, h, r)| Obb::new(c, h.abs() + Vec3::splat(0.02), r))
}

fn plane() -> impl Strategy<Value = Plane> + Clone {
    (
        unit3(),
        -10.0f32..10.0,
        prop_oneof![Just(1.0f32), 0.3f32..3.0],
    )
        .prop_map(|(n, d, k)| {
            // A non-unit normal describes the same set when `d` is scaled with it.
            Plane::new(n * k, d * k)
        })
}

/// A triangle whose angles are all bounded away from 0 (sine of every angle at least `min_sin`).
fn triangle_q(min_sin: f64) -> impl Strategy<Value = Triangle> + Clone {
    (v3(8.0), v3(6.0), v3(6.0))
        .prop_map(|(a, e1, e2)| Triangle::new(a, a + e1, a + e2))
        .prop_filter("well-shaped triangle", move |t| tri_quality(t) >= min_sin)
}

fn triangle() -> impl Strategy<Value = Triangle> + Clone {
    triangle_q(0.05)
}

fn cylinder() -> impl Strategy<Value = Cylinder> + Clone {
    (v3(8.0), unit3(), 0.1f32..10.0, 0.05f32..4.0)
        .prop_map(|(a, u, len, r)| Cylinder::new(a, a + u * len, r))
}

fn wall() -> impl Strategy<Value = Wall> + Clone {
    (
        v2(10.0),
        v2(8.0),
        prop_oneof![Just(0.0f32), 0.0f32..1.5],
        0u8..10,
    )
        .prop_map(|(a, e, r, post)| {
            let b = if post == 0 { a } else { a + e };
            Wall::new(a, b, r)
        })
}

fn max_t() -> impl Strategy<Value = f32> + Clone {
    prop_oneof![Just(f32::INFINITY), 0.0f32..3.0, 0.0f32..40.0]
}

// ------------------------------------------------------------------------------------------------------------
// f64 references.
// ------------------------------------------------------------------------------------------------------------

fn d(v: Vec3) -> D {
    v.as_dvec3()
}

fn d2(v: Vec2) -> DVec2 {
    v.as_dvec2()
}

fn rot(m: &Mat3) -> DMat3 {
    m.as_dmat3()
}

/// Smallest sine of the triangle's angles.
fn tri_quality(t: &Triangle) -> f64 {
    let (a, b, c) = (d(t.a), d(t.b), d(t.c));
    let sin = |p: D, q: D, r: D| {
        let (u, v) = (q - p, r - p);
        let l = u.length() * v.length();
        if l == 0.0 {
            0.0
        } else {
            u.cross(v).length() / l
        }
    };
    sin(a, b, c).min(sin(b, c, a)).min(sin(c, a, b))
}

fn sdf_box_local(q: D, h: D) -> f64 {
    let e = q.abs() - h;
    e.max(D::ZERO).length() + e.max_element().min(0.0)
}

fn sdf_sphere(p: D, s: &Sphere) -> f64 {
    (p - d(s.center)).length() - f64::from(s.radius)
}

fn sdf_aabb(p: D, b: &Aabb) -> f64 {
    let (mn, mx) = (d(b.min), d(b.max));
    sdf_box_local(p - (mn + mx) * 0.5, (mx - mn) * 0.5)
}

fn sdf_obb(p: D, o: &Obb) -> f64 {
    let local = rot(&o.rotation).transpose() * (p - d(o.center));
    sdf_box_local(local, d(o.half_extents))
}

fn sdf_cylinder(p: D, c: &Cylinder) -> f64 {
    let (a, b, r) = (d(c.a), d(c.b), f64::from(c.radius));
    let h = (b - a).length();
    let u = (b - a) / h;
    let pa = p - a;
    let x = pa.dot(u);
    let radial = (pa - u * x).length();
    let dr = radial - r;
    let dx = (x - h * 0.5).abs() - h * 0.5;
    DVec2::new(dr.max(0.0), dx.max(0.0)).length() + dr.max(dx).min(0.0)
}

fn plane_signed(p: D, pl: &Plane) -> f64 {
    let n = d(pl.normal);
    (n.dot(p) - f64::from(pl.d)) / n.length()
}

fn plane_unit_normal(pl: &Plane) -> D {
    d(pl.normal).normalize()
}

fn closest_aabb(p: D, b: &Aabb) -> D {
    p.clamp(d(b.min), d(b.max))
}

fn closest_obb(p: D, o: &Obb) -> D {
    let r = rot(&o.rotation);
    let h = d(o.half_extents);
    let local = r.transpose() * (p - d(o.center));
    d(o.center) + r * local.clamp(-h, h)
}

fn closest_sphere(p: D, s: &Sphere) -> D {
    let c = d(s.center);
    let v = p - c;
    let l = v.length();
    let r = f64::from(s.radius);
    if l <= r { p } else { c + v * (r / l) }
}

fn closest_plane(p: D, pl: &Plane) -> D {
    p - plane_unit_normal(pl) * plane_signed(p, pl)
}

fn closest_cylinder(p: D, c: &Cylinder) -> D {
    let (a, b, r) = (d(c.a), d(c.b), f64::from(c.radius));
    let h = (b - a).length();
    let u = (b - a) / h;
    let pa = p - a;
    let x = pa.dot(u);
    let rv = pa - u * x;
    let rl = rv.length();
    let rv = if rl > r { rv * (r / rl) } else { rv };
    a + u * x.clamp(0.0, h) + rv
}

fn closest_segment(p: D, a: D, b: D) -> D {
    let ab = b - a;
    let l2 = ab.length_squared();
    if l2 == 0.0 {
        return a;
    }
    a + ab * ((p - a).dot(ab) / l2).clamp(0.0, 1.0)
}

fn closest_segment2(p: DVec2, a: DVec2, b: DVec2) -> DVec2 {
    let ab = b - a;
    let l2 = ab.length_squared();
    if l2 == 0.0 {
        return a;
    }
    a + ab * ((p - a).dot(ab) / l2).clamp(0.0, 1.0)
}

/// Ericson, Real-Time Collision Detection 5.1.5, in f64.
fn closest_triangle(p: D, t: &Triangle) -> D {
    let (a, b, c) = (d(t.a), d(t.b), d(t.c));
    let ab = b - a;
    let ac = c - a;
    let ap = p - a;
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let d3 = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

fn dist_triangle(p: D, t: &Triangle) -> f64 {
    (p - closest_triangle(p, t)).length()
}

/// Barycentric `(u, v)` of `p` projected on the triangle's plane: `p ~ a + u (b - a) + v (c - a)`.
fn barycentric(p: D, t: &Triangle) -> (f64, f64) {
    let (a, b, c) = (d(t.a), d(t.b), d(t.c));
    let (e1, e2, w) = (b - a, c - a, p - a);
    let (d11, d12, d22) = (e1.dot(e1), e1.dot(e2), e2.dot(e2));
    let (w1, w2) = (w.dot(e1), w.dot(e2));
    let den = d11 * d22 - d12 * d12;
    ((d22 * w1 - d12 * w2) / den, (d11 * w2 - d12 * w1) / den)
}

fn obb_corners(o: &Obb) -> Vec<D> {
    let r = rot(&o.rotation);
    let h = d(o.half_extents);
    (0..8)
        .map(|i| {
            let s = D::new(
                if i & 1 == 0 { -h.x } else { h.x },
                if i & 2 == 0 { -h.y } else { h.y },
                if i & 4 == 0 { -h.z } else { h.z },
            );
            d(o.center) + r * s
        })
        .collect()
}

fn aabb_as_obb(b: &Aabb) -> Obb {
    Obb::new((b.min + b.max) * 0.5, (b.max - b.min) * 0.5, Mat3::IDENTITY)
}

fn obb_axes(o: &Obb) -> [D; 3] {
    let r = rot(&o.rotation);
    [r.x_axis, r.y_axis, r.z_axis]
}

fn tri_verts(t: &Triangle) -> Vec<D> {
    vec![d(t.a), d(t.b), d(t.c)]
}

fn tri_edges(t: &Triangle) -> [D; 3] {
    let (a, b, c) = (d(t.a), d(t.b), d(t.c));
    [b - a, c - b, a - c]
}

fn project(points: &[D], axis: D) -> (f64, f64) {
    points
        .iter()
        .map(|p| p.dot(axis))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        })
}

/// Largest gap between the projections of two convex point sets over the candidate axes (normalised); positive
/// means separated by that distance along some axis, negative means every axis overlaps.
fn sat_gap(pa: &[D], pb: &[D], face_axes: &[D], edges_a: &[D], edges_b: &[D]) -> f64 {
    let mut axes: Vec<D> = face_axes.to_vec();
    for &e in edges_a {
        for &f in edges_b {
            axes.push(e.cross(f));
        }
    }
    // In-plane normals of edges, for flat (coplanar) inputs; extra axes never give a false separation.
    for &n in face_axes {
        for &e in edges_a.iter().chain(edges_b) {
            axes.push(n.cross(e));
        }
    }
    let mut best = f64::NEG_INFINITY;
    for ax in axes {
        let l = ax.length();
        if l < 1e-9 {
            continue;
        }
        let ax = ax / l;
        let (a0, a1) = project(pa, ax);
        let (b0, b1) = project(pb, ax);
        best = best.max((b0 - a1).max(a0 - b1));
    }
    best
}

/// Signed gap of a convex point set from a plane surface: positive means entirely on one side by that much.
fn plane_gap(points: &[D], pl: &Plane) -> f64 {
    let (lo, hi) = points
        .iter()
        .map(|&p| plane_signed(p, pl))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        });
    lo.max(-hi)
}

fn scale_of(points: &[D]) -> f64 {
    points
        .iter()
        .fold(1.0f64, |m, p| m.max(p.abs().max_element()))
}

// ------------------------------------------------------------------------------------------------------------
// Ray checks.
// ------------------------------------------------------------------------------------------------------------

/// Builds a ray from raw random parts: from a random or nearby origin, aimed at `target` or in a random
/// direction.
fn make_ray(origin: Vec3, target: Vec3, k: f32, noise: Vec3, aimed: bool) -> Ray {
    let mut dir = if aimed {
        (target - origin) * k + noise * 0.05
    } else {
        noise * 4.0
    };
    if dir.length() < 1e-3 {
        dir = Vec3::new(0.3, -1.0, 0.2);
    }
    Ray::new(origin, dir)
}

/// Checks that casting with a finite `max_t` gives exactly the unbounded hit when it is within `max_t` and
/// `None` otherwise.
fn check_max_t(
    full: Option<RayHit>,
    limited: Option<RayHit>,
    max_t: f32,
) -> Result<(), TestCaseError> {
    match full {
        None => prop_assert!(
            limited.is_none(),
            "hit {limited:?} with max_t {max_t} but none with max_t = inf"
        ),
        Some(h) => {
            if h.t <= max_t * (1.0 - 1e-6) {
                let l = limited.ok_or_else(|| {
                    TestCaseError::fail(format!(
                        "no hit with max_t {max_t}, but {h:?} with max_t = inf"
                    ))
                })?;
                prop_assert!(
                    (l.t - h.t).abs() <= 1e-5 * h.t.max(1.0),
                    "t {} vs {} (max_t {max_t})",
                    l.t,
                    h.t
                );
            } else if h.t > max_t * (1.0 + 1e-6) + 1e-30 {
                prop_assert!(limited.is_none(), "hit {limited:?} beyond max_t {max_t}");
            }
        }
    }
    Ok(())
}

/// Common checks on any reported hit: range of `t`, point on the ray, unit normal facing against `dir`.
fn check_hit_basics(ray: &Ray, h: &RayHit, max_t: f32, tol: f64) -> Result<(), TestCaseError> {
    prop_assert!(
        h.t.is_finite() && h.t >= 0.0 && h.t <= max_t,
        "t {} outside [0, {max_t}]",
        h.t
    );
    prop_assert!(
        (h.normal.length() - 1.0).abs() <= 1e-4,
        "normal {:?} not unit",
        h.normal
    );
    let dn = ray.dir.normalize();
    prop_assert!(
        h.normal.dot(dn) <= 1e-5,
        "normal {:?} does not face against dir {:?}",
        h.normal,
        ray.dir
    );
    let on_ray = d(ray.origin) + d(ray.dir) * f64::from(h.t);
    prop_assert!(
        (d(h.point) - on_ray).length() <= tol,
        "point {:?} is not origin + t * dir = {on_ray:?}",
        h.point
    );
    Ok(())
}

/// Full check of a ray cast against a solid described by its signed distance function.
fn check_ray_solid(
    ray: &Ray,
    hit: Option<RayHit>,
    max_t: f32,
    sdf: &dyn Fn(D) -> f64,
    shape_scale: f64,
) -> Result<(), TestCaseError> {
    let o = d(ray.origin);
    let dir = d(ray.dir);
    let t_far = ((shape_scale * 4.0 + o.length()) / dir.length()).min(f64::from(max_t));
    let scale = shape_scale
        .max(o.abs().max_element())
        .max(t_far * dir.length())
        .max(1.0);
    let tol = 1e-4 * scale;
    let s0 = sdf(o);
    match hit {
        Some(h) => {
            check_hit_basics(ray, &h, max_t, tol)?;
            let p = d(h.point);
            if s0 < -tol {
                // Inside: t = 0, normal = -dir.normalize().
                prop_assert_eq!(h.t, 0.0, "origin inside (sdf {}) but t != 0", s0);
                let want = -ray.dir.normalize();
                prop_assert!(
                    (h.normal - want).length() <= 1e-5,
                    "inside: normal {:?}, want {want:?}",
                    h.normal
                );
            } else {
                prop_assert!(
                    sdf(p).abs() <= tol,
                    "hit point {p:?} is off the surface: sdf {}",
                    sdf(p)
                );
                if s0 > tol {
                    // The normal points out of the solid.
                    let n = d(h.normal);
                    let e = 1e-3 * scale;
                    prop_assert!(
                        sdf(p + n * e) >= 0.5 * e,
                        "normal {n:?} does not point out of the solid at {p:?}"
                    );
                }
                // First hit: no sample before t is inside.
                for k in 0..64 {
                    let s = f64::from(h.t) * f64::from(k) / 64.0;
                    let q = o + dir * s;
                    prop_assert!(
                        sdf(q) >= -tol,
                        "ray is inside (sdf {}) at s = {s} < t = {}",
                        sdf(q),
                        h.t
                    );
                }
            }
        }
        None => {
            prop_assert!(
                s0 >= -tol || max_t.is_nan(),
                "origin inside (sdf {s0}) but no hit"
            );
            // No missed hit: the ray never goes deeper than the tolerance within max_t.
            if t_far.is_finite() && t_far >= 0.0 {
                for k in 0..=128 {
                    let s = t_far * f64::from(k) / 128.0;
                    let q = o + dir * s;
                    prop_assert!(
                        sdf(q) >= -tol,
                        "no hit, but the ray is inside (sdf {}) at s = {s}",
                        sdf(q)
                    );
                }
            }
        }
    }
    Ok(())
}

// ------------------------------------------------------------------------------------------------------------
// Sweep checks (shared by 3D sweeps and the top-down circle/wall sweep embedded in y = 0).
// ------------------------------------------------------------------------------------------------------------

struct SweepCase<'a> {
    /// Centre of the moving sphere at t = 0 (relative to the obstacle's frame).
    c0: D,
    motion: D,
    /// Contact distance from the obstacle's core (the moving radius, plus the obstacle's own radius for walls).
    r: f64,
    /// Distance from a point to the obstacle's core (0 inside a solid).
    dist: &'a dyn Fn(D) -> f64,
    /// Closest point of the obstacle's core.
    closest: &'a dyn Fn(D) -> D,
    /// Largest coordinate involved.
    scale: f64,
    /// The contact point may be reported on the core or this far out from it along the normal (walls).
    outline: f64,
}

fn check_sweep(case: &SweepCase<'_>, toi: Option<(f64, D, D)>) -> Result<(), TestCaseError> {
    let SweepCase {
        c0,
        motion,
        r,
        dist,
        closest,
        scale,
        outline,
    } = *case;
    let ml = motion.length();
    let scale = scale.max(ml).max(r).max(1.0);
    let tol = 1e-4 * scale;
    let gap0 = dist(c0) - r;
    match toi {
        Some((t, point, normal)) => {
            prop_assert!((0.0..=1.0).contains(&t), "t {t} outside [0, 1]");
            prop_assert!(
                (normal.length() - 1.0).abs() <= 1e-4,
                "normal {normal:?} not unit"
            );
            let ct = c0 + motion * t;
            let dt = dist(ct);
            if t > 0.0 {
                prop_assert!(
                    (dt - r).abs() <= tol,
                    "at t = {t} distance {dt} != contact distance {r} (tol {tol})"
                );
            } else {
                prop_assert!(
                    gap0 <= tol,
                    "t = 0 but the shapes are {gap0} apart at the start"
                );
            }
            // No overlap before t.
            for k in (0..64).filter(|_| t > 0.0) {
                let s = t * f64::from(k) / 64.0;
                let ds = dist(c0 + motion * s);
                prop_assert!(
                    ds >= r - tol,
                    "overlap before t = {t}: distance {ds} < {r} at s = {s}"
                );
            }
            // The motion is not separating at contact.
            prop_assert!(
                motion.dot(normal) <= tol,
                "motion {motion:?} separates along normal {normal:?}"
            );
            if dt > 1e-3 * scale {
                // Normal points from the obstacle toward the sphere; point is the contact point on the obstacle.
                let q = closest(ct);
                let want = (ct - q).normalize();
                prop_assert!(
                    normal.dot(want) >= 1.0 - 1e-3,
                    "normal {normal:?}, expected {want:?} at t = {t}"
                );
                if t > 0.0 {
                    let off = (point - q)
                        .length()
                        .min((point - (q + normal * outline)).length());
                    prop_assert!(
                        off <= 10.0 * tol,
                        "contact point {point:?}, expected {q:?} on the obstacle"
                    );
                }
            }
            let off = dist(point).min((dist(point) - outline).abs());
            prop_assert!(
                off <= 10.0 * tol,
                "contact point {point:?} is off the obstacle"
            );
        }
        None => {
            if gap0 < -tol && dist(c0) > 1e-3 * scale {
                // Already overlapping: None only when the motion separates them.
                let n0 = (c0 - closest(c0)).normalize();
                prop_assert!(
                    motion.dot(n0) > -tol,
                    "overlapping at start, approaching, but no contact"
                );
            }
            if gap0 > tol {
                for k in 0..=256 {
                    let s = f64::from(k) / 256.0;
                    let ds = dist(c0 + motion * s);
                    prop_assert!(
                        ds >= r - tol,
                        "missed contact: distance {ds} < {r} at s = {s}"
                    );
                }
            }
        }
    }
    Ok(())
}

fn toi3(t: Option<Toi>) -> Option<(f64, D, D)> {
    t.map(|t| (f64::from(t.t), d(t.point), d(t.normal)))
}

/// Motion that often hits: aimed at `target` and scaled by `k`, or random.
fn make_motion(c0: Vec3, target: Vec3, k: f32, noise: Vec3, aimed: bool) -> Vec3 {
    if aimed {
        (target - c0) * k + noise * 0.1
    } else {
        noise * 6.0
    }
}

// ------------------------------------------------------------------------------------------------------------
// Ray casts.
// ------------------------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(5000))]

    #[test]
    fn ray_sphere_hits_first_surface_point(
        s in sphere(), o in v3(15.0), inside in 0u8..4, off in v3(1.0), noise in v3(1.0),
        k in 0.2f32..3.0, aimed in proptest::bool::weighted(0.8), mt in max_t(),
    ) {
        let origin = if inside == 0 { s.center + off * s.radius * 0.5 } else { o };
        let r = make_ray(origin, s.center + off * s.radius * 1.2, k, noise, aimed);
        let full = ray::ray_sphere(&r, &s, f32::INFINITY);
        let hit = ray::ray_sphere(&r, &s, mt);
        check_max_t(full, hit, mt)?;
        let scale = scale_of(&[d(s.center)]) + f64::from(s.radius);
        check_ray_solid(&r, hit, mt, &|p| sdf_sphere(p, &s), scale)?;
    }

    #[test]
    fn ray_aabb_hits_first_surface_point(
        b in aabb(), o in v3(15.0), inside in 0u8..4, off in v3(1.0), noise in v3(1.0),
        k in 0.2f32..3.0, aimed in proptest::bool::weighted(0.8), mt in max_t(),
    ) {
        let c = (b.min + b.max) * 0.5;
        let h = (b.max - b.min) * 0.5;
        let origin = if inside == 0 { c + off * h * 0.9 } else { o };
        let r = make_ray(origin, c + off * h * 1.3, k, noise, aimed);
        let full = ray::ray_aabb(&r, &b, f32::INFINITY);
        let hit = ray::ray_aabb(&r, &b, mt);
        check_max_t(full, hit, mt)?;
        let scale = scale_of(&[d(b.min), d(b.max)]);
        check_ray_solid(&r, hit, mt, &|p| sdf_aabb(p, &b), scale)?;

        // The slab trace agrees with the cast.
        let trace = ray::ray_aabb_slabs(&r, &b);
        for i in 0..3 {
            let (o_i, d_i, lo, hi) = (r.origin[i], r.dir[i], b.min[i], b.max[i]);
            let iv = trace.axes[i];
            if d_i != 0.0 {
                let (t0, t1) = ((lo - o_i) / d_i, (hi - o_i) / d_i);
                let (t0, t1) = (t0.min(t1), t0.max(t1));
                let e = 1e-4 * t0.abs().max(t1.abs()).max(1.0);
                prop_assert!((iv.min - t0).abs() <= e && (iv.max - t1).abs() <= e,
                    "slab {i}: {iv:?}, want {t0}..{t1}");
            } else if (lo..=hi).contains(&o_i) {
                prop_assert!(iv.min == f32::NEG_INFINITY && iv.max == f32::INFINITY, "slab {i}: {iv:?}");
            } else {
                prop_assert!(iv.min > iv.max, "slab {i} should be empty: {iv:?}");
            }
        }
        match (trace.hit, full) {
            (Some(iv), Some(h)) => {
                prop_assert!(iv.min >= 0.0 && iv.min <= iv.max, "trace hit {iv:?}");
                prop_assert!((iv.min - h.t).abs() <= 1e-4 * h.t.max(1.0), "trace {iv:?} vs hit t {}", h.t);
            }
            (None, None) => {}
            (Some(iv), None) => prop_assert!(false, "trace hit {iv:?} but ray_aabb misses"),
            (None, Some(h)) => prop_assert!(false, "trace misses but ray_aabb hits {h:?}"),
        }
    }

    #[test]
    fn ray_obb_hits_first_surface_point(
        b in obb(), o in v3(15.0), inside in 0u8..4, off in v3(1.0), noise in v3(1.0),
        k in 0.2f32..3.0, aimed in proptest::bool::weighted(0.8), mt in max_t(),
    ) {
        let origin = if inside == 0 { b.center + b.rotation * (off * b.half_extents * 0.9) } else { o };
        let target = b.center + b.rotation * (off * b.half_extents * 1.3);
        let r = make_ray(origin, target, k, noise, aimed);
        let full = ray::ray_obb(&r, &b, f32::INFINITY);
        let hit = ray::ray_obb(&r, &b, mt);
        check_max_t(full, hit, mt)?;
        let scale = scale_of(&obb_corners(&b));
        check_ray_solid(&r, hit, mt, &|p| sdf_obb(p, &b), scale)?;

        let trace = ray::ray_obb_slabs(&r, &b);
        match (trace.hit, full) {
            (Some(iv), Some(h)) => {
                prop_assert!(iv.min >= 0.0 && iv.min <= iv.max, "trace hit {iv:?}");
                prop_assert!((iv.min - h.t).abs() <= 1e-4 * h.t.max(1.0), "trace {iv:?} vs hit t {}", h.t);
            }
            (None, None) => {}
            (Some(iv), None) => prop_assert!(false, "trace hit {iv:?} but ray_obb misses"),
            (None, Some(h)) => prop_assert!(false, "trace misses but ray_obb hits {h:?}"),
        }
    }

    #[test]
    fn ray_cylinder_hits_first_surface_point(
        c in cylinder(), o in v3(15.0), inside in 0u8..4, w in 0.0f32..1.0, off in v3(1.0), noise in v3(1.0),
        k in 0.2f32..3.0, aimed in proptest::bool::weighted(0.8), mt in max_t(),
    ) {
        let on_axis = c.a.lerp(c.b, w);
        let origin = if inside == 0 { on_axis + off * c.radius * 0.5 } else { o };
        let target = c.a.lerp(c.b, w * 1.4 - 0.2) + off * c.radius * 1.3;
        let r = make_ray(origin, target, k, noise, aimed);
        let full = ray::ray_cylinder(&r, &c, f32::INFINITY);
        let hit = ray::ray_cylinder(&r, &c, mt);
        check_max_t(full, hit, mt)?;
        let scale = scale_of(&[d(c.a), d(c.b)]) + f64::from(c.radius);
        check_ray_solid(&r, hit, mt, &|p| sdf_cylinder(p, &c), scale)?;
    }

    #[test]
    fn ray_plane_hits_first_crossing(
        pl in plane(), o in v3(15.0), on in 0u8..10, off in v3(5.0), noise in v3(1.0),
        k in 0.2f32..3.0, aimed in proptest::bool::weighted(0.7), mt in max_t(),
    ) {
        let foot = closest_plane(d(o), &pl).as_vec3();
        let origin = if on == 0 { foot } else { o };
        let r = make_ray(origin, foot + off, k, noise, aimed);
        let full = ray::ray_plane(&r, &pl, f32::INFINITY);
        let hit = ray::ray_plane(&r, &pl, mt);
        check_max_t(full, hit, mt)?;
        let od = d(r.origin);
        let dir = d(r.dir);
        let scale = od.abs().max_element().max(f64::from(pl.d.abs())).max(1.0);
        let tol = 1e-4 * scale;
        let s0 = plane_signed(od, &pl);
        let n = plane_unit_normal(&pl);
        let dn = dir.normalize().dot(n);
        match hit {
            Some(h) => {
                let tol_h = tol.max(1e-4 * f64::from(h.t) * dir.length());
                check_hit_basics(&r, &h, mt, tol_h)?;
                prop_assert!(plane_signed(d(h.point), &pl).abs() <= tol_h, "point {:?} off the plane", h.point);
                prop_assert!(d(h.normal).dot(n).abs() >= 1.0 - 1e-4, "normal {:?} not the plane's", h.normal);
                for kk in 0..64 {
                    let s = f64::from(h.t) * f64::from(kk) / 64.0;
                    let sd = plane_signed(od + dir * s, &pl);
                    prop_assert!(sd * s0 >= 0.0 || sd.abs() <= tol_h, "crossed the plane before t = {}", h.t);
                }
            }
            None => {
                prop_assert!(s0 != 0.0, "origin exactly on the plane but no hit");
                // A crossing well within max_t must be reported.
                if dn.abs() > 1e-3 {
                    let t_cross = -s0 / (dir.length() * dn);
                    prop_assert!(
                        !(t_cross >= 0.0 && t_cross <= f64::from(mt) * (1.0 - 1e-4)),
                        "missed crossing at t = {t_cross} (max_t {mt})"
                    );
                }
            }
        }
    }

    #[test]
    fn ray_triangle_hits_the_triangle(
        tri in triangle(), o in v3(15.0), u in -0.3f32..1.3, v in -0.3f32..1.3, noise in v3(1.0),
        k in 0.2f32..3.0, aimed in proptest::bool::weighted(0.85), mt in max_t(),
    ) {
        let target = tri.a + (tri.b - tri.a) * u + (tri.c - tri.a) * v;
        let r = make_ray(o, target, k, noise, aimed);
        let full = ray::ray_triangle(&r, &tri, f32::INFINITY);
        let hit = ray::ray_triangle(&r, &tri, mt);
        check_max_t(full, hit, mt)?;
        let od = d(r.origin);
        let dir = d(r.dir);
        let (a, b, c) = (d(tri.a), d(tri.b), d(tri.c));
        let n = (b - a).cross(c - a).normalize();
        let scale = scale_of(&[od, a, b, c]);
        let tol = 1e-4 * scale;
        let dn = dir.normalize().dot(n);
        let t_plane = n.dot(a - od) / n.dot(dir);
        match hit {
            Some(h) => {
                let tol_h = tol.max(1e-4 * f64::from(h.t) * dir.length());
                check_hit_basics(&r, &h, mt, tol_h)?;
                prop_assert!(dist_triangle(d(h.point), &tri) <= tol_h, "point {:?} off the triangle", h.point);
                prop_assert!(d(h.normal).dot(n).abs() >= 1.0 - 1e-4, "normal {:?} not the triangle's", h.normal);
                if dn.abs() > 1e-3 {
                    let e = 1e-4 * t_plane.abs().max(1.0);
                    prop_assert!((f64::from(h.t) - t_plane).abs() <= e, "t {} vs plane crossing {t_plane}", h.t);
                }
            }
            None => {
                // A clear crossing well inside the triangle and well within max_t must be reported.
                if dn.abs() > 1e-2 && t_plane > 0.0 && t_plane < f64::from(mt) * (1.0 - 1e-4) {
                    let (bu, bv) = barycentric(od + dir * t_plane, &tri);
                    prop_assert!(
                        !(bu > 1e-3 && bv > 1e-3 && bu + bv < 1.0 - 1e-3),
                        "missed hit at t = {t_plane}, barycentric ({bu}, {bv})"
                    );
                }
            }
        }
    }
}

// ------------------------------------------------------------------------------------------------------------
// Line tests: agree with the exact minimum of the (convex) distance along the segment, and with the ray casts
// limited to t in [0, 1].
// ------------------------------------------------------------------------------------------------------------

/// Minimum of a convex function on `[0, 1]` (golden-section search, then the end points).
fn convex_min(f: &dyn Fn(f64) -> f64) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..100 {
        let x1 = hi - g * (hi - lo);
        let x2 = lo + g * (hi - lo);
        if f(x1) <= f(x2) {
            hi = x2;
        } else {
            lo = x1;
        }
    }
    f(0.5 * (lo + hi)).min(f(0.0)).min(f(1.0))
}

/// Checks a line test and the matching ray cast (ray `a + t (b - a)`, `max_t = 1`) against the minimum signed
/// distance `m` of the segment from a solid: `m < -band` touches, `m > band` does not.
fn check_segment_solid(
    what: &str,
    got: bool,
    cast: Option<RayHit>,
    sdf: &dyn Fn(D) -> f64,
    seg: &Segment,
    band: f64,
) -> Result<(), TestCaseError> {
    let (a, b) = (d(seg.a), d(seg.b));
    let m = convex_min(&|s| sdf(a + (b - a) * s));
    agree_outside_band(got, m, band, what)?;
    agree_outside_band(
        cast.is_some(),
        m,
        band,
        &format!("{what} (ray cast, max_t 1)"),
    )?;
    Ok(())
}

fn make_segment(a: Vec3, target: Vec3, k: f32, noise: Vec3) -> Segment {
    let b = a + (target - a) * k + noise * 0.05;
    Segment::new(a, if b == a { a + Vec3::X } else { b })
}

proptest! {
    #![proptest_config(config(4000))]

    #[test]
    fn segment_tests_agree_with_distances(
        sp in sphere(), bx in aabb(), ob in obb(), pl in plane(), tri in triangle(), a in v3(14.0), pick in v3(1.0),
        k in 0.2f32..2.0, noise in v3(1.0),
    ) {
        let band = 1e-4 * 30.0;
        let seg = make_segment(a, sp.center + pick * sp.radius * 1.2, k, noise);
        check_segment_solid("segment_sphere", segment::segment_sphere(&seg, &sp),
            ray::ray_sphere(&seg.as_ray(), &sp, 1.0), &|p| sdf_sphere(p, &sp), &seg, band)?;

        let seg = make_segment(a, bx.min.lerp(bx.max, 0.5) + pick * (bx.max - bx.min) * 0.6, k, noise);
        check_segment_solid("segment_aabb", segment::segment_aabb(&seg, &bx),
            ray::ray_aabb(&seg.as_ray(), &bx, 1.0), &|p| sdf_aabb(p, &bx), &seg, band)?;

        let seg = make_segment(a, ob.center + ob.rotation * (pick * ob.half_extents * 1.2), k, noise);
        check_segment_solid("segment_obb", segment::segment_obb(&seg, &ob),
            ray::ray_obb(&seg.as_ray(), &ob, 1.0), &|p| sdf_obb(p, &ob), &seg, band)?;

        // Plane surface: the end points' signed distances straddle zero.
        let seg = make_segment(a, closest::point_plane(pick * 8.0, &pl), k, noise);
        let (s0, s1) = (plane_signed(d(seg.a), &pl), plane_signed(d(seg.b), &pl));
        let gap = if s0 * s1 <= 0.0 { -s0.abs().min(s1.abs()) } else { s0.abs().min(s1.abs()) };
        agree_outside_band(segment::segment_plane(&seg, &pl), gap, band, "segment_plane")?;
        agree_outside_band(ray::ray_plane(&seg.as_ray(), &pl, 1.0).is_some(), gap, band,
            "segment_plane (ray cast, max_t 1)")?;

        // Triangle surface: a clear crossing well inside, or a clear miss.
        let target = tri.a + (tri.b - tri.a) * (pick.x + 0.3) + (tri.c - tri.a) * (pick.y + 0.3);
        let seg = make_segment(a, target, k, noise);
        let (sa, sb) = (d(seg.a), d(seg.b));
        let dist = convex_min(&|s| dist_triangle(sa + (sb - sa) * s, &tri));
        let got = segment::segment_triangle(&seg, &tri);
        let cast = ray::ray_triangle(&seg.as_ray(), &tri, 1.0).is_some();
        if dist > band {
            prop_assert!(!got && !cast, "segment_triangle {got} / cast {cast}, but the segment is {dist} away");
        }
        let n = (d(tri.b) - d(tri.a)).cross(d(tri.c) - d(tri.a)).normalize();
        let (h0, h1) = (n.dot(sa - d(tri.a)), n.dot(sb - d(tri.a)));
        if h0 * h1 < 0.0 && h0.abs() > band && h1.abs() > band {
            let x = sa + (sb - sa) * (h0 / (h0 - h1));
            let (u, v) = barycentric(x, &tri);
            if u > 1e-3 && v > 1e-3 && u + v < 1.0 - 1e-3 {
                prop_assert!(got && cast, "segment_triangle {got} / cast {cast}, but it crosses at ({u}, {v})");
            }
        }
    }
}

// ------------------------------------------------------------------------------------------------------------
// Closest points.
// ------------------------------------------------------------------------------------------------------------

/// Checks `q` against the exact answer `q_ref` and against sampled points of the shape.
fn check_closest(
    p: D,
    q: Vec3,
    q_ref: D,
    samples: &[D],
    on_shape: f64,
    tol: f64,
) -> Result<(), TestCaseError> {
    prop_assert!(q.is_finite(), "closest point {q:?} not finite");
    let q = d(q);
    prop_assert!(
        on_shape <= tol,
        "closest point {q:?} is {on_shape} off the shape"
    );
    let dq = (p - q).length();
    let dref = (p - q_ref).length();
    prop_assert!(
        (dq - dref).abs() <= tol,
        "distance {dq}, exact {dref} (q {q:?}, exact {q_ref:?})"
    );
    for &s in samples {
        prop_assert!(
            dq <= (p - s).length() + tol,
            "sample {s:?} is nearer than {q:?} to {p:?}"
        );
    }
    Ok(())
}

/// `n` deterministic pseudo-random numbers in [0, 1) from a seed (SplitMix64).
fn unit_samples(seed: u64, n: usize) -> Vec<f64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            (z >> 11) as f64 / (1u64 << 53) as f64
        })
        .collect()
}

/// Points of the box `[-1, 1]^3`, interior and surface (one coordinate pinned to a face every other point).
fn cube_samples(seed: u64, n: usize) -> Vec<D> {
    let u = unit_samples(seed, n * 4);
    (0..n)
        .map(|i| {
            let mut p = D::new(
                u[4 * i] * 2.0 - 1.0,
                u[4 * i + 1] * 2.0 - 1.0,
                u[4 * i + 2] * 2.0 - 1.0,
            );
            let face = (u[4 * i + 3] * 6.0) as usize;
            if i % 2 == 0 {
                p[face % 3] = if face < 3 { -1.0 } else { 1.0 };
            }
            p
        })
        .collect()
}

proptest! {
    #![proptest_config(config(4000))]

    #[test]
    fn closest_point_aabb_is_nearest(b in aabb(), p in v3(16.0), seed in any::<u64>()) {
        let q = closest::point_aabb(p, &b);
        let (c, h) = ((d(b.min) + d(b.max)) * 0.5, (d(b.max) - d(b.min)) * 0.5);
        let samples: Vec<D> = cube_samples(seed, 200).into_iter().map(|s| c + s * h).collect();
        let tol = 1e-5 * scale_of(&[d(p), d(b.min), d(b.max)]);
        check_closest(d(p), q, closest_aabb(d(p), &b), &samples, sdf_aabb(d(q), &b), tol)?;
        if sdf_aabb(d(p), &b) <= 0.0 {
            prop_assert_eq!(q, p, "a point inside the box is its own closest point");
        }
    }

    #[test]
    fn closest_point_obb_is_nearest(b in obb(), p in v3(16.0), seed in any::<u64>()) {
        let q = closest::point_obb(p, &b);
        let r = rot(&b.rotation);
        let h = d(b.half_extents);
        let samples: Vec<D> = cube_samples(seed, 200).into_iter().map(|s| d(b.center) + r * (s * h)).collect();
        let tol = 1e-5 * scale_of(&[d(p), d(b.center)]).max(h.max_element());
        check_closest(d(p), q, closest_obb(d(p), &b), &samples, sdf_obb(d(q), &b), tol)?;
        if sdf_obb(d(p), &b) < -tol {
            prop_assert!((d(q) - d(p)).length() <= tol, "a point inside the box is its own closest point: {q:?}");
        }
    }

    #[test]
    fn closest_point_sphere_is_nearest(s in sphere(), p in v3(16.0), seed in any::<u64>()) {
        let q = closest::point_sphere(p, &s);
        let c = d(s.center);
        let r = f64::from(s.radius);
        let samples: Vec<D> = cube_samples(seed, 300)
            .into_iter()
            .filter_map(|v| {
                let l = v.length();
                (l > 1e-9).then(|| c + v / l * r * if l > 1.0 { 1.0 } else { l })
            })
            .collect();
        let tol = 1e-5 * scale_of(&[d(p), c]).max(r);
        check_closest(d(p), q, closest_sphere(d(p), &s), &samples, sdf_sphere(d(q), &s), tol)?;
        if sdf_sphere(d(p), &s) <= 0.0 {
            prop_assert_eq!(q, p, "a point inside the sphere is its own closest point");
        }
    }

    #[test]
    fn closest_point_plane_is_nearest(pl in plane(), p in v3(16.0), seed in any::<u64>()) {
        let q = closest::point_plane(p, &pl);
        let foot = closest_plane(d(p), &pl);
        let n = plane_unit_normal(&pl);
        let t1 = n.any_orthonormal_vector();
        let t2 = n.cross(t1);
        let u = unit_samples(seed, 400);
        let samples: Vec<D> = (0..200)
            .map(|i| foot + t1 * ((u[2 * i] - 0.5) * 20.0) + t2 * ((u[2 * i + 1] - 0.5) * 20.0))
            .collect();
        let tol = 1e-5 * scale_of(&[d(p)]).max(f64::from(pl.d.abs()));
        check_closest(d(p), q, foot, &samples, plane_signed(d(q), &pl).abs(), tol)?;
    }

    #[test]
    fn closest_point_triangle_is_nearest(tri in triangle_q(0.01), p in v3(16.0), seed in any::<u64>()) {
        let q = closest::point_triangle(p, &tri);
        let (a, b, c) = (d(tri.a), d(tri.b), d(tri.c));
        let u = unit_samples(seed, 600);
        let mut samples: Vec<D> = (0..300)
            .map(|i| {
                let (mut x, mut y) = (u[2 * i], u[2 * i + 1]);
                if x + y > 1.0 {
                    (x, y) = (1.0 - x, 1.0 - y);
                }
                a + (b - a) * x + (c - a) * y
            })
            .collect();
        samples.extend([a, b, c, (a + b) * 0.5, (b + c) * 0.5, (c + a) * 0.5]);
        let tol = 1e-5 * scale_of(&[d(p), a, b, c]);
        check_closest(d(p), q, closest_triangle(d(p), &tri), &samples, dist_triangle(d(q), &tri), tol)?;
    }

    #[test]
    fn closest_point_segment_is_nearest(a in v3(10.0), b in v3(10.0), p in v3(16.0), seed in any::<u64>()) {
        prop_assume!(a != b);
        let seg = Segment::new(a, b);
        let q = closest::point_segment(p, &seg);
        let (da, db) = (d(a), d(b));
        let mut samples: Vec<D> = unit_samples(seed, 200).into_iter().map(|s| da.lerp(db, s)).collect();
        samples.extend([da, db]);
        let tol = 1e-5 * scale_of(&[d(p), da, db]);
        let on = (d(q) - closest_segment(d(q), da, db)).length();
        check_closest(d(p), q, closest_segment(d(p), da, db), &samples, on, tol)?;
    }
}

// ------------------------------------------------------------------------------------------------------------
// Overlap tests.
// ------------------------------------------------------------------------------------------------------------

/// Asserts `got == want` unless the reference `gap` (positive = separated) is within `band` of zero.
fn agree_outside_band(got: bool, gap: f64, band: f64, what: &str) -> Result<(), TestCaseError> {
    if gap > band {
        prop_assert!(
            !got,
            "{what}: reports overlap, but the shapes are {gap} apart"
        );
    } else if gap < -band {
        prop_assert!(
            got,
            "{what}: reports no overlap, but the shapes overlap by {}",
            -gap
        );
    }
    Ok(())
}

/// A sphere near `target` whose radius makes overlap and separation about equally likely.
fn sphere_near(target: Vec3, off: Vec3, r: f32) -> Sphere {
    Sphere::new(target + off, r)
}

proptest! {
    #![proptest_config(config(4000))]

    #[test]
    fn overlap_symmetric_pairs(
        s1 in sphere(), s2 in sphere(), b1 in aabb(), b2 in aabb(), o1 in obb(), o2 in obb(),
        t1 in triangle(), t2 in triangle(), p1 in plane(), p2 in plane(),
    ) {
        prop_assert_eq!(overlap::sphere_sphere(&s1, &s2), overlap::sphere_sphere(&s2, &s1));
        prop_assert_eq!(overlap::aabb_aabb(&b1, &b2), overlap::aabb_aabb(&b2, &b1));
        prop_assert_eq!(overlap::plane_plane(&p1, &p2), overlap::plane_plane(&p2, &p1));

        let band = 1e-4 * scale_of(&[d(o1.center), d(o2.center)]).max(8.0);
        let gap_oo = sat_gap(&obb_corners(&o1), &obb_corners(&o2), &[obb_axes(&o1), obb_axes(&o2)].concat(),
            &obb_axes(&o1), &obb_axes(&o2));
        let ab = overlap::obb_obb(&o1, &o2);
        let ba = overlap::obb_obb(&o2, &o1);
        if ab != ba {
            prop_assert!(gap_oo.abs() <= band, "obb_obb not symmetric: {ab} vs {ba}, gap {gap_oo}");
        }
        agree_outside_band(ab, gap_oo, band, "obb_obb")?;

        let gap_tt = sat_gap(&tri_verts(&t1), &tri_verts(&t2),
            &[(d(t1.b) - d(t1.a)).cross(d(t1.c) - d(t1.a)), (d(t2.b) - d(t2.a)).cross(d(t2.c) - d(t2.a))],
            &tri_edges(&t1), &tri_edges(&t2));
        let ab = overlap::triangle_triangle(&t1, &t2);
        let ba = overlap::triangle_triangle(&t2, &t1);
        if ab != ba {
            prop_assert!(gap_tt.abs() <= band, "triangle_triangle not symmetric: {ab} vs {ba}, gap {gap_tt}");
        }
        agree_outside_band(ab, gap_tt, band, "triangle_triangle")?;

        // Boxes: exact interval test.
        let sep = (0..3).any(|i| b1.max[i] < b2.min[i] || b2.max[i] < b1.min[i]);
        prop_assert_eq!(overlap::aabb_aabb(&b1, &b2), !sep);
        // Spheres: exact distance test (skip the rounding band).
        let gap_ss = (d(s1.center) - d(s2.center)).length() - f64::from(s1.radius) - f64::from(s2.radius);
        agree_outside_band(overlap::sphere_sphere(&s1, &s2), gap_ss, 1e-5 * 16.0, "sphere_sphere")?;
    }

    #[test]
    fn overlap_near_pairs_agree_with_references(
        b in aabb(), o in obb(), o2 in obb(), tri in triangle(), pl in plane(), pick in v3(1.0), off in v3(3.0),
    ) {
        // Move the second shape of each pair near the first so that both answers are common.
        let o_near = Obb::new(b.min.lerp(b.max, 0.5) + off, o.half_extents, o.rotation);
        let band = 1e-4 * 20.0;

        // aabb_obb agrees with obb_obb on the same geometry, in both orders, and with the reference gap.
        let bo = aabb_as_obb(&b);
        let gap = sat_gap(&obb_corners(&bo), &obb_corners(&o_near), &[obb_axes(&bo), obb_axes(&o_near)].concat(),
            &obb_axes(&bo), &obb_axes(&o_near));
        let x = overlap::aabb_obb(&b, &o_near);
        let y = overlap::obb_obb(&bo, &o_near);
        let z = overlap::obb_obb(&o_near, &bo);
        if x != y || x != z {
            prop_assert!(gap.abs() <= band, "aabb_obb {x}, obb_obb {y}, reversed {z}, gap {gap}");
        }
        agree_outside_band(x, gap, band, "aabb_obb")?;

        // obb_obb against the reference.
        let o2_near = Obb::new(o_near.center + pick * 3.0, o2.half_extents, o2.rotation);
        let gap = sat_gap(&obb_corners(&o_near), &obb_corners(&o2_near),
            &[obb_axes(&o_near), obb_axes(&o2_near)].concat(), &obb_axes(&o_near), &obb_axes(&o2_near));
        agree_outside_band(overlap::obb_obb(&o_near, &o2_near), gap, band, "obb_obb")?;

        // Triangles against boxes.
        let shift = b.min.lerp(b.max, 0.5) + off - tri.a;
        let tri_b = Triangle::new(tri.a + shift, tri.b + shift, tri.c + shift);
        let n = (d(tri_b.b) - d(tri_b.a)).cross(d(tri_b.c) - d(tri_b.a));
        let gap = sat_gap(&obb_corners(&bo), &tri_verts(&tri_b), &[obb_axes(&bo).to_vec(), vec![n]].concat(),
            &obb_axes(&bo), &tri_edges(&tri_b));
        agree_outside_band(overlap::aabb_triangle(&b, &tri_b), gap, band, "aabb_triangle")?;
        let shift = o_near.center + pick - tri.a;
        let tri_o = Triangle::new(tri.a + shift, tri.b + shift, tri.c + shift);
        let n = (d(tri_o.b) - d(tri_o.a)).cross(d(tri_o.c) - d(tri_o.a));
        let gap = sat_gap(&obb_corners(&o_near), &tri_verts(&tri_o),
            &[obb_axes(&o_near).to_vec(), vec![n]].concat(), &obb_axes(&o_near), &tri_edges(&tri_o));
        agree_outside_band(overlap::obb_triangle(&o_near, &tri_o), gap, band, "obb_triangle")?;

        // Planes through a point near each shape.
        let pl_b = Plane::new(pl.normal, pl.normal.dot(b.min.lerp(b.max, 0.5) + pick * 3.0));
        agree_outside_band(overlap::aabb_plane(&b, &pl_b), plane_gap(&obb_corners(&bo), &pl_b), band, "aabb_plane")?;
        let pl_o = Plane::new(pl.normal, pl.normal.dot(o_near.center + pick * 3.0));
        agree_outside_band(overlap::obb_plane(&o_near, &pl_o), plane_gap(&obb_corners(&o_near), &pl_o), band,
            "obb_plane")?;
        let pl_t = Plane::new(pl.normal, pl.normal.dot(tri.a.lerp(tri.b, 0.5) + pick * 3.0));
        agree_outside_band(overlap::triangle_plane(&tri, &pl_t), plane_gap(&tri_verts(&tri), &pl_t), band,
            "triangle_plane")?;
    }

    #[test]
    fn sphere_overlaps_agree_with_closest_points(
        b in aabb(), o in obb(), tri in triangle(), pl in plane(), s2 in sphere(),
        pick in v3(1.0), off in v3(2.0), r in 0.05f32..5.0,
    ) {
        let check = |got: bool, c: Vec3, q: Vec3, what: &str| -> Result<(), TestCaseError> {
            let dist = (d(c) - d(q)).length();
            let band = 1e-5 * scale_of(&[d(c), d(q)]).max(f64::from(r));
            agree_outside_band(got, dist - f64::from(r), band, what)
        };
        let h = (b.max - b.min) * 0.5;
        let s = sphere_near(b.min.lerp(b.max, 0.5), pick * (h + Vec3::splat(r)) * 1.2, r);
        check(overlap::sphere_aabb(&s, &b), s.center, closest::point_aabb(s.center, &b), "sphere_aabb")?;
        let s = sphere_near(o.center, o.rotation * (pick * (o.half_extents + Vec3::splat(r)) * 1.2), r);
        check(overlap::sphere_obb(&s, &o), s.center, closest::point_obb(s.center, &o), "sphere_obb")?;
        let s = sphere_near(tri.a.lerp(tri.b, 0.5).lerp(tri.c, 0.3), off * 2.0, r);
        check(overlap::sphere_triangle(&s, &tri), s.center, closest::point_triangle(s.center, &tri),
            "sphere_triangle")?;
        let s = sphere_near(closest::point_plane(off * 4.0, &pl), pick * r * 1.5, r);
        check(overlap::sphere_plane(&s, &pl), s.center, closest::point_plane(s.center, &pl), "sphere_plane")?;
        let s = sphere_near(s2.center, off.normalize_or_zero() * (s2.radius + r) * (pick.x + 1.0), r);
        check(overlap::sphere_sphere(&s, &s2), s.center, closest::point_sphere(s.center, &s2),
            "sphere_sphere")?;
    }

    #[test]
    fn plane_plane_parallel_and_crossing(pl in plane(), other in unit3(), dd in -1.0f32..1.0, flip in any::<bool>()) {
        let n = plane_unit_normal(&pl);
        if n.cross(d(other)).length() > 1e-2 {
            prop_assert!(overlap::plane_plane(&pl, &Plane::new(other, dd)), "non-parallel planes always meet");
        }
        // The same plane written with the opposite normal, and a parallel one offset by |dd| >= 0.01.
        let s = if flip { -1.0 } else { 1.0 };
        let same = Plane::new(pl.normal * s, pl.d * s);
        prop_assert!(overlap::plane_plane(&pl, &same), "a plane overlaps itself: {pl:?} vs {same:?}");
        if dd.abs() > 0.01 {
            let len = pl.normal.length();
            let par = Plane::new(pl.normal * s, (pl.d + dd * len) * s);
            prop_assert!(!overlap::plane_plane(&pl, &par), "parallel planes {dd} apart overlap: {pl:?} {par:?}");
        }
    }
}

// ------------------------------------------------------------------------------------------------------------
// Separating-axis reports.
// ------------------------------------------------------------------------------------------------------------

/// The implementation pads each `|a_i . b_j|` by this much (`sat::ABS_ROTATION_PAD`, Gottschalk's pad), so its
/// intervals may exceed the exact projections by up to `pad * (sum of half extents) / |a_i x b_j|`.
const SAT_PAD: f64 = 1e-6;

/// `|a_i x b_j|` of the edge pair whose cross product is `axis` (1 for a face axis).
fn cross_len(axis: D, a: &Obb, b: &Obb) -> f64 {
    let (aa, ba) = (obb_axes(a), obb_axes(b));
    if aa.iter().chain(&ba).any(|e| e.dot(axis).abs() > 1.0 - 1e-6) {
        return 1.0;
    }
    let mut best = (f64::INFINITY, 1.0);
    for ea in aa {
        for eb in ba {
            let score = ea.dot(axis).abs() + eb.dot(axis).abs();
            if score < best.0 {
                best = (score, ea.cross(eb).length());
            }
        }
    }
    best.1
}

/// Checks one projection interval: it contains the exact projection `lo..hi` (within `tol`) and exceeds it by
/// no more than `excess` (+ `tol`).
fn check_interval(
    what: &str,
    iv: &collidoscope::shape::Interval,
    (lo, hi): (f64, f64),
    tol: f64,
    excess: f64,
) -> Result<(), TestCaseError> {
    let (mn, mx) = (f64::from(iv.min), f64::from(iv.max));
    prop_assert!(
        mn <= lo + tol && mx >= hi - tol,
        "{what}: interval {iv:?} misses the projection {lo}..{hi}"
    );
    prop_assert!(
        mn >= lo - tol - excess && mx <= hi + tol + excess,
        "{what}: interval {iv:?} exceeds the projection {lo}..{hi} by more than {excess} + {tol}"
    );
    Ok(())
}

fn check_sat_report(
    report: &query::SatReport,
    box_a: &Obb,
    box_b: &Obb,
    overlaps: bool,
    scale: f64,
) -> Result<(), TestCaseError> {
    let (pa, pb) = (obb_corners(box_a), obb_corners(box_b));
    prop_assert!(report.axes.len() <= 15, "{} axes listed", report.axes.len());
    prop_assert_eq!(
        report.separating.is_none(),
        overlaps,
        "SAT report {:?} vs overlap {}",
        report.separating,
        overlaps
    );
    let tol = 1e-4 * scale;
    let h_sum = d(box_a.half_extents).element_sum() + d(box_b.half_extents).element_sum();
    for (i, ax) in report.axes.iter().enumerate() {
        prop_assert!(
            (ax.axis.length() - 1.0).abs() <= 1e-4,
            "axis {i} {:?} not unit",
            ax.axis
        );
        let excess = 2.0 * SAT_PAD * h_sum / cross_len(d(ax.axis), box_a, box_b);
        let pra = project(&pa, d(ax.axis));
        let prb = project(&pb, d(ax.axis));
        check_interval(&format!("axis {i} a"), &ax.a, pra, tol, excess)?;
        check_interval(&format!("axis {i} b"), &ax.b, prb, tol, excess)?;
    }
    match report.separating {
        Some(i) => {
            prop_assert!(
                i < report.axes.len(),
                "separating index {i} out of {}",
                report.axes.len()
            );
            let ax = &report.axes[i];
            prop_assert!(
                ax.a.max < ax.b.min || ax.b.max < ax.a.min,
                "separating axis {i} overlaps: {ax:?}"
            );
            let (a0, a1) = project(&pa, d(ax.axis));
            let (b0, b1) = project(&pb, d(ax.axis));
            prop_assert!(
                a1 < b0 || b1 < a0,
                "separating axis {i}: exact projections {a0}..{a1}, {b0}..{b1}"
            );
        }
        None => {
            prop_assert!(
                report.axes.len() >= 6,
                "overlap reported after {} axes",
                report.axes.len()
            );
            for ax in &report.axes {
                prop_assert!(
                    ax.a.max >= ax.b.min - tol as f32 && ax.b.max >= ax.a.min - tol as f32,
                    "no separating axis, but {ax:?} separates"
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(5000))]

    #[test]
    fn sat_reports_agree_with_overlap(b in aabb(), o in obb(), o2 in obb(), off in v3(4.0), axis_aligned in 0u8..6) {
        let rotation = if axis_aligned == 0 { Mat3::IDENTITY } else { o.rotation };
        let o_near = Obb::new(b.min.lerp(b.max, 0.5) + off, o.half_extents, rotation);
        let bo = aabb_as_obb(&b);
        let scale = scale_of(&obb_corners(&bo)).max(scale_of(&obb_corners(&o_near)));
        let rep = sat::aabb_obb_axes(&b, &o_near);
        check_sat_report(&rep, &bo, &o_near, overlap::aabb_obb(&b, &o_near), scale)?;

        let o2_near = Obb::new(o_near.center + off * 0.7, o2.half_extents, o2.rotation);
        let scale = scale.max(scale_of(&obb_corners(&o2_near)));
        let rep = sat::obb_obb_axes(&o_near, &o2_near);
        check_sat_report(&rep, &o_near, &o2_near, overlap::obb_obb(&o_near, &o2_near), scale)?;
    }
}

// ------------------------------------------------------------------------------------------------------------
// Sweeps.
// ------------------------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(5000))]

    #[test]
    fn sweep_sphere_plane(
        pl in plane(), c0 in v3(12.0), r in 0.05f32..3.0, target in v3(6.0), k in 0.3f32..2.5, noise in v3(1.0),
        aimed in proptest::bool::weighted(0.8),
    ) {
        let s = Sphere::new(c0, r);
        let m = make_motion(c0, closest::point_plane(target, &pl), k, noise, aimed);
        let toi = sweep::sphere_plane(&s, m, &pl);
        let case = SweepCase {
            c0: d(c0), motion: d(m), r: f64::from(r),
            dist: &|p| plane_signed(p, &pl).abs(),
            closest: &|p| closest_plane(p, &pl),
            scale: scale_of(&[d(c0), d(c0 + m)]).max(f64::from(pl.d.abs())),
            outline: 0.0,
        };
        check_sweep(&case, toi3(toi))?;
    }

    #[test]
    fn sweep_sphere_sphere(
        a in sphere(), b in sphere(), ma in v3(10.0), mb in v3(10.0), k in 0.3f32..2.5,
        aimed in proptest::bool::weighted(0.8),
    ) {
        // Aim the relative motion at B now and then.
        let ma = if aimed { (b.center - a.center) * k + mb + ma * 0.05 } else { ma };
        let toi = sweep::sphere_sphere(&a, ma, &b, mb);
        // Relative frame: B's centre at rest at the origin; the contact point moves with B.
        let rb = f64::from(b.radius);
        let rel = toi.map(|t| {
            let tt = f64::from(t.t);
            let cb_t = d(b.center) + d(mb) * tt;
            (tt, d(t.point) - cb_t, d(t.normal))
        });
        let case = SweepCase {
            c0: d(a.center) - d(b.center), motion: d(ma) - d(mb), r: f64::from(a.radius),
            dist: &|p| (p.length() - rb).max(0.0),
            closest: &|p| { let l = p.length(); if l <= rb { p } else { p * (rb / l) } },
            scale: scale_of(&[d(a.center), d(b.center), d(a.center + ma), d(b.center + mb)]) + rb,
            outline: 0.0,
        };
        check_sweep(&case, rel)?;
    }

    #[test]
    fn sweep_sphere_aabb(
        b in aabb(), c0 in v3(14.0), r in 0.05f32..3.0, pick in v3(1.0), k in 0.3f32..2.5, noise in v3(1.0),
        aimed in proptest::bool::weighted(0.8),
    ) {
        let target = b.min.lerp(b.max, 0.5) + pick * (b.max - b.min) * 0.6;
        let m = make_motion(c0, target, k, noise, aimed);
        let toi = sweep::sphere_aabb(&Sphere::new(c0, r), m, &b);
        let case = SweepCase {
            c0: d(c0), motion: d(m), r: f64::from(r),
            dist: &|p| sdf_aabb(p, &b).max(0.0),
            closest: &|p| closest_aabb(p, &b),
            scale: scale_of(&[d(c0), d(c0 + m), d(b.min), d(b.max)]),
            outline: 0.0,
        };
        check_sweep(&case, toi3(toi))?;
    }

    #[test]
    fn sweep_sphere_cylinder(
        cy in cylinder(), c0 in v3(14.0), r in 0.05f32..3.0, w in -0.2f32..1.2, pick in v3(1.0), k in 0.3f32..2.5,
        noise in v3(1.0), aimed in proptest::bool::weighted(0.8),
    ) {
        let target = cy.a.lerp(cy.b, w) + pick * cy.radius;
        let m = make_motion(c0, target, k, noise, aimed);
        let toi = sweep::sphere_cylinder(&Sphere::new(c0, r), m, &cy);
        let case = SweepCase {
            c0: d(c0), motion: d(m), r: f64::from(r),
            dist: &|p| sdf_cylinder(p, &cy).max(0.0),
            closest: &|p| closest_cylinder(p, &cy),
            scale: scale_of(&[d(c0), d(c0 + m), d(cy.a), d(cy.b)]) + f64::from(cy.radius),
            outline: 0.0,
        };
        check_sweep(&case, toi3(toi))?;
    }

    #[test]
    fn sweep_sphere_triangle(
        tri in triangle(), c0 in v3(14.0), r in 0.05f32..3.0, u in -0.3f32..1.3, v in -0.3f32..1.3,
        k in 0.3f32..2.5, noise in v3(1.0), aimed in proptest::bool::weighted(0.8),
    ) {
        let target = tri.a + (tri.b - tri.a) * u + (tri.c - tri.a) * v;
        let m = make_motion(c0, target, k, noise, aimed);
        let toi = sweep::sphere_triangle(&Sphere::new(c0, r), m, &tri);
        let case = SweepCase {
            c0: d(c0), motion: d(m), r: f64::from(r),
            dist: &|p| dist_triangle(p, &tri),
            closest: &|p| closest_triangle(p, &tri),
            scale: scale_of(&[d(c0), d(c0 + m), d(tri.a), d(tri.b), d(tri.c)]),
            outline: 0.0,
        };
        check_sweep(&case, toi3(toi))?;
    }

    #[test]
    fn sweep_circle_wall(
        w in wall(), c0 in v2(14.0), r in 0.0f32..2.0, s in -0.2f32..1.2, pick in v2(1.0), k in 0.3f32..2.5,
        noise in v2(1.0), aimed in proptest::bool::weighted(0.8),
    ) {
        let target = w.a.lerp(w.b, s) + pick * (w.radius + r);
        let m = if aimed { (target - c0) * k + noise * 0.1 } else { noise * 6.0 };
        let toi = sweep::circle_wall(c0, r, m, &w);
        // Embed the top-down plane in y = 0: Vec2(x, z) -> Vec3(x, 0, z).
        let e = |v: Vec2| D::new(f64::from(v.x), 0.0, f64::from(v.y));
        let (wa, wb) = (e(w.a), e(w.b));
        if let Some(t) = toi {
            prop_assert!(t.point.is_finite() && t.normal.is_finite(), "non-finite Toi2 {t:?}");
        }
        let case = SweepCase {
            c0: e(c0), motion: e(m), r: f64::from(r) + f64::from(w.radius),
            dist: &|p| (p - closest_segment(p, wa, wb)).length(),
            closest: &|p| closest_segment(p, wa, wb),
            scale: scale_of(&[e(c0), e(c0 + m), wa, wb]),
            outline: f64::from(w.radius),
        };
        check_sweep(&case, toi.map(|t| (f64::from(t.t), e(t.point), e(t.normal))))?;
    }
}

// ------------------------------------------------------------------------------------------------------------
// Walls.
// ------------------------------------------------------------------------------------------------------------

fn wall_dist_ref(p: Vec2, w: &Wall) -> f64 {
    let p = d2(p);
    (p - closest_segment2(p, d2(w.a), d2(w.b))).length()
}

fn walls_strategy() -> impl Strategy<Value = Vec<Wall>> {
    proptest::collection::vec(wall(), 1..7)
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn move_and_slide_never_ends_blocked(
        ws in walls_strategy(), from in v2(12.0), radius in prop_oneof![Just(0.0f32), 0.0f32..1.0],
        motion in prop_oneof![v2(4.0), v2(20.0)],
    ) {
        prop_assume!(ws.iter().all(|w| wall_dist_ref(from, w) > f64::from(w.radius + radius) + 1e-3));
        let end = walls::move_and_slide(from, radius, motion, &ws);
        prop_assert!(end.is_finite(), "end {end:?} not finite");
        for (i, w) in ws.iter().enumerate() {
            let dist = wall_dist_ref(end, w);
            prop_assert!(dist > f64::from(w.radius) + f64::from(radius),
                "ends blocked by wall {i} {w:?}: distance {dist} <= {} + {radius}", w.radius);
        }
        let inflated: Vec<Wall> = ws.iter().map(|w| Wall::new(w.a, w.b, w.radius + radius)).collect();
        prop_assert!(!walls::blocked(end, &inflated), "blocked() says {end:?} is blocked");
        let moved = (d2(end) - d2(from)).length();
        prop_assert!(moved <= d2(motion).length() + 1e-4, "moved {moved} > |motion| {}", motion.length());
        // With no wall near the straight path, the whole motion happens.
        let path_clear = ws.iter().all(|w| {
            let (a, b) = (d2(from), d2(from + motion));
            // Distance between two segments by dense sampling of one (enough for a clear margin of 0.05).
            let n = 400;
            (0..=n).all(|k| {
                let p = a.lerp(b, f64::from(k) / f64::from(n));
                (p - closest_segment2(p, d2(w.a), d2(w.b))).length() > f64::from(w.radius + radius) + 0.1
            })
        });
        if path_clear {
            prop_assert!((end - (from + motion)).length() <= 1e-4 * (1.0 + motion.length()),
                "free path, but ended at {end:?} instead of {:?}", from + motion);
        }
    }

    #[test]
    fn distance_point_wall_matches_sampling(w in wall(), p in v2(15.0)) {
        let got = walls::distance_point_wall(p, &w);
        prop_assert!(got >= 0.0, "negative distance {got}");
        let exact = wall_dist_ref(p, &w);
        let scale = scale_of(&[D::new(f64::from(p.x), f64::from(p.y), 0.0),
            D::new(f64::from(w.a.x), f64::from(w.a.y), 0.0), D::new(f64::from(w.b.x), f64::from(w.b.y), 0.0)]);
        let tol = 1e-5 * scale;
        prop_assert!((f64::from(got) - exact).abs() <= tol, "distance {got}, exact {exact}");
        let n = 2000;
        let (a, b) = (d2(w.a), d2(w.b));
        let brute = (0..=n).map(|k| (d2(p) - a.lerp(b, f64::from(k) / f64::from(n))).length()).fold(f64::INFINITY,
            f64::min);
        let step = (b - a).length() / f64::from(n);
        prop_assert!(f64::from(got) <= brute + tol, "distance {got} > sampled {brute}");
        prop_assert!(f64::from(got) >= brute - step - tol, "distance {got} < sampled {brute} - step {step}");
        prop_assert_eq!(walls::blocked(p, &[w]), got <= w.radius);
    }
}

// ------------------------------------------------------------------------------------------------------------
// Triangle helpers.
// ------------------------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(4000))]

    #[test]
    fn point_in_triangle_agrees_with_barycentric(tri in triangle_q(0.1), u in -1.0f32..2.0, v in -1.0f32..2.0) {
        let p = tri.a + (tri.b - tri.a) * u + (tri.c - tri.a) * v;
        let m = 0.01;
        let inside = u >= m && v >= m && u + v <= 1.0 - m;
        let outside = u <= -m || v <= -m || u + v >= 1.0 + m;
        let got = triangle::point_in_triangle(p, &tri);
        if inside {
            prop_assert!(got, "({u}, {v}) is inside, point_in_triangle says no");
        } else if outside {
            prop_assert!(!got, "({u}, {v}) is outside, point_in_triangle says yes");
        }
        let m = 0.05;
        let angle_sum = triangle::point_in_triangle_angle_sum(p, &tri);
        if u >= m && v >= m && u + v <= 1.0 - m {
            prop_assert!(angle_sum, "({u}, {v}) is inside, angle sum says no");
        } else if u <= -m || v <= -m || u + v >= 1.0 + m {
            prop_assert!(!angle_sum, "({u}, {v}) is outside, angle sum says yes");
        }
    }

    #[test]
    fn moller_trumbore_reconstructs_the_hit(
        tri in triangle_q(0.05), o in v3(15.0), u in -0.3f32..1.3, v in -0.3f32..1.3, k in -1.0f32..3.0,
        noise in v3(1.0), aimed in proptest::bool::weighted(0.85),
    ) {
        let target = tri.a + (tri.b - tri.a) * u + (tri.c - tri.a) * v;
        let r = make_ray(o, target, k, noise, aimed);
        let (a, b, c) = (d(tri.a), d(tri.b), d(tri.c));
        let n = (b - a).cross(c - a).normalize();
        let od = d(r.origin);
        let dir = d(r.dir);
        let scale = scale_of(&[od, a, b, c]);
        let both = triangle::moller_trumbore(&r, &tri, Cull::None);
        let back = triangle::moller_trumbore(&r, &tri, Cull::Back);
        let dn = dir.normalize().dot(n);
        if let Some(h) = both {
            prop_assert!(h.t.is_finite() && h.t >= 0.0, "t {}", h.t);
            let (hu, hv) = (f64::from(h.u), f64::from(h.v));
            prop_assert!(hu >= -1e-4 && hv >= -1e-4 && hu + hv <= 1.0 + 1e-4, "barycentric ({hu}, {hv})");
            if dn.abs() > 1e-3 {
                let on_ray = od + dir * f64::from(h.t);
                let on_tri = a * (1.0 - hu - hv) + b * hu + c * hv;
                let tol = 1e-4 * scale.max(f64::from(h.t) * dir.length());
                prop_assert!((on_ray - on_tri).length() <= tol, "origin + t dir {on_ray:?} != barycentric {on_tri:?}");
            }
        }
        if let Some(h) = back {
            if dn.abs() > 1e-4 {
                prop_assert!(dn < 0.0, "Cull::Back hit {h:?} on the back face");
            }
            let hb = both.ok_or_else(|| TestCaseError::fail(format!("Cull::Back hit {h:?}, Cull::None misses")))?;
            let close = |x: f32, y: f32| (x - y).abs() <= 1e-4 * x.abs().max(1.0);
            prop_assert!(close(h.t, hb.t) && close(h.u, hb.u) && close(h.v, hb.v), "Cull::Back {h:?} vs None {hb:?}");
        }
        // A clear front or back crossing well inside the triangle is found.
        let t_plane = n.dot(a - od) / n.dot(dir);
        if dn.abs() > 1e-2 && t_plane > 1e-3 {
            let (bu, bv) = barycentric(od + dir * t_plane, &tri);
            if bu > 1e-3 && bv > 1e-3 && bu + bv < 1.0 - 1e-3 {
                let h = both.ok_or_else(|| TestCaseError::fail(format!("missed hit at t {t_plane} ({bu}, {bv})")))?;
                prop_assert!((f64::from(h.t) - t_plane).abs() <= 1e-4 * t_plane.max(1.0), "t {} vs {t_plane}", h.t);
                prop_assert!((f64::from(h.u) - bu).abs() <= 1e-3 && (f64::from(h.v) - bv).abs() <= 1e-3,
                    "(u, v) = ({}, {}), want ({bu}, {bv})", h.u, h.v);
                if dn < 0.0 {
                    prop_assert!(back.is_some(), "front-face hit culled by Cull::Back");
                }
            } else if bu < -1e-3 || bv < -1e-3 || bu + bv > 1.0 + 1e-3 {
                prop_assert!(both.is_none(), "hit {both:?} outside the triangle ({bu}, {bv})");
            }
        } else if dn.abs() > 1e-2 && t_plane < -1e-3 {
            prop_assert!(both.is_none(), "hit {both:?} behind the origin (plane at t {t_plane})");
        }
    }

    #[test]
    fn walk_test_point_is_on_segment_and_triangle(
        tri in triangle_q(0.05), u in -0.3f32..1.3, v in -0.3f32..1.3, dirn in unit3(), k1 in -1.0f32..4.0,
        k2 in -1.0f32..4.0,
    ) {
        let target = tri.a + (tri.b - tri.a) * u + (tri.c - tri.a) * v;
        let from = target + dirn * k1;
        let to = target - dirn * k2;
        let got = triangle::walk_test(from, to, &tri);
        let (a, b, c) = (d(tri.a), d(tri.b), d(tri.c));
        let scale = scale_of(&[d(from), d(to), a, b, c]);
        let tol = 1e-4 * scale;
        if let Some(p) = got {
            prop_assert!(p.is_finite(), "walk_test point {p:?}");
            let pd = d(p);
            let on_seg = (pd - closest_segment(pd, d(from), d(to))).length();
            prop_assert!(on_seg <= tol, "walk_test point {p:?} is {on_seg} off the move");
            prop_assert!(dist_triangle(pd, &tri) <= tol, "walk_test point {p:?} is off the triangle");
        }
        // A move crossing the plane well inside the triangle, with both ends clearly off the plane.
        let n = (b - a).cross(c - a).normalize();
        let (s0, s1) = (n.dot(d(from) - a), n.dot(d(to) - a));
        let (bu, bv) = (f64::from(u), f64::from(v));
        if s0 * s1 < 0.0 && s0.abs() > 1e-3 && s1.abs() > 1e-3 && dirn.as_dvec3().dot(n).abs() > 0.05 {
            if bu > 1e-2 && bv > 1e-2 && bu + bv < 1.0 - 1e-2 {
                prop_assert!(got.is_some(), "move {from:?} -> {to:?} crosses the triangle at ({u}, {v})");
            } else if bu < -1e-2 || bv < -1e-2 || bu + bv > 1.0 + 1e-2 {
                prop_assert!(got.is_none(), "move crosses the plane outside the triangle, got {got:?}");
            }
        } else if s0 * s1 > 0.0 && s0.abs() > tol && s1.abs() > tol {
            prop_assert!(got.is_none(), "move stays on one side, got {got:?}");
        }
    }
}
