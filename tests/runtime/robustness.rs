//! Robustness property tests (proptest): every public query and shape constructor of the API contract is fed
//! arbitrary `f32` (NaN, ±inf, ±1e30, ±1e-30, 0, -0.0 and ordinary values mixed) and degenerate shapes (zero
//! radius, `min > max` boxes, zero normals, collinear or coincident triangle vertices, `a == b` cylinders and
//! segments, zero ray directions, non-orthonormal rotations).
//!
//! Every query must return without panicking, never put a NaN in any returned number (hits, times of impact,
//! points, intervals), keep closest points finite, and answer `None` / `false` whenever an input is invalid in
//! the sense of the shapes' `is_valid` (the crate-wide convention). The runs use a fixed seed (override with
//! `PROPTEST_RNG_SEED`) and write no persistence files.

#![allow(clippy::unwrap_used)]

use collidoscope::glam::{Mat3, Quat, Vec2, Vec3};
use collidoscope::mesh::TriMesh;
use collidoscope::query::{
    Cull, RayHit, SlabTrace, Toi, Toi2, closest, overlap, ray, sat, segment, sweep, triangle,
};
use collidoscope::shape::{
    Aabb, Capsule, Cylinder, Interval, Obb, Plane, Ray, Segment, Sphere, Triangle, Wall,
};
use collidoscope::walls;
use proptest::prelude::*;
use proptest::test_runner::{RngSeed, TestCaseError};

const CASES: u32 = 3000;

fn config() -> ProptestConfig {
    let default = ProptestConfig::default();
    let rng_seed = if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
        default.rng_seed
    } else {
        RngSeed::Fixed(0x0B05_7000_0000_0001)
    };
    ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        rng_seed,
        ..default
    }
}

// ------------------------------------------------------------------------------------------------------------
// Strategies.
// ------------------------------------------------------------------------------------------------------------

/// Any `f32`, with the troublesome values and small integers (exact boundaries, axis-parallel directions)
/// well represented among ordinary values.
fn wild() -> BoxedStrategy<f32> {
    prop_oneof![
        10 => -100.0f32..100.0,
        4 => (-4i32..=4).prop_map(|i| i as f32),
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(1e30f32),
        1 => Just(-1e30f32),
        1 => Just(1e-30f32),
        1 => Just(-1e-30f32),
        1 => Just(0.0f32),
        1 => Just(-0.0f32),
        1 => Just(f32::MAX),
        1 => Just(f32::MIN_POSITIVE),
        2 => any::<f32>(),
    ]
    .boxed()
}

/// Ordinary coordinates.
fn ord() -> BoxedStrategy<f32> {
    prop_oneof![3 => -20.0f32..20.0, 1 => (-4i32..=4).prop_map(|i| i as f32)].boxed()
}

fn wv3() -> BoxedStrategy<Vec3> {
    (wild(), wild(), wild())
        .prop_map(|(x, y, z)| Vec3::new(x, y, z))
        .boxed()
}

fn ov3() -> BoxedStrategy<Vec3> {
    (ord(), ord(), ord())
        .prop_map(|(x, y, z)| Vec3::new(x, y, z))
        .boxed()
}

/// A vector that is ordinary, wild, or huge/tiny as a whole.
fn any3() -> BoxedStrategy<Vec3> {
    prop_oneof![
        4 => ov3(),
        3 => wv3(),
        1 => ov3().prop_map(|v| v * 1e30),
        1 => ov3().prop_map(|v| v * 1e-30),
        // Up to f32::MAX: sums and products of these overflow in f32.
        1 => ov3().prop_map(|v| v / 20.0 * f32::MAX),
        1 => Just(Vec3::ZERO),
    ]
    .boxed()
}

fn wv2() -> BoxedStrategy<Vec2> {
    (wild(), wild()).prop_map(|(x, y)| Vec2::new(x, y)).boxed()
}

fn any2() -> BoxedStrategy<Vec2> {
    prop_oneof![
        4 => (ord(), ord()).prop_map(|(x, y)| Vec2::new(x, y)),
        3 => wv2(),
        1 => (ord(), ord()).prop_map(|(x, y)| Vec2::new(x, y) * 1e30),
        1 => Just(Vec2::ZERO),
    ]
    .boxed()
}

fn any_radius() -> BoxedStrategy<f32> {
    prop_oneof![3 => 0.001f32..10.0, 1 => Just(0.0f32), 1 => Just(-1.0f32), 2 => wild()].boxed()
}

fn rotation() -> BoxedStrategy<Mat3> {
    (-1.0f32..=1.0, -1.0f32..=1.0, -1.0f32..=1.0, -1.0f32..=1.0)
        .prop_map(|(x, y, z, w)| {
            let q = Quat::from_xyzw(x, y, z, w);
            if q.length() < 0.1 {
                Mat3::IDENTITY
            } else {
                Mat3::from_quat(q.normalize())
            }
        })
        .boxed()
}

fn any_rotation() -> BoxedStrategy<Mat3> {
    prop_oneof![
        4 => rotation(),
        1 => Just(Mat3::IDENTITY),
        // Within the orthonormality tolerance, but not exactly orthonormal.
        1 => rotation().prop_map(|m| m * 1.0004),
        // Not orthonormal at all.
        1 => (ov3(), ov3(), ov3()).prop_map(|(x, y, z)| Mat3::from_cols(x, y, z)),
        1 => Just(Mat3::ZERO),
        1 => (wv3(), wv3(), wv3()).prop_map(|(x, y, z)| Mat3::from_cols(x, y, z)),
        // A reflection (accepted as the same box).
        1 => rotation().prop_map(|m| Mat3::from_cols(m.x_axis, m.y_axis, -m.z_axis)),
    ]
    .boxed()
}

fn ray_s() -> BoxedStrategy<Ray> {
    prop_oneof![
        4 => (any3(), any3()).prop_map(|(o, d)| Ray::new(o, d)),
        1 => any3().prop_map(|o| Ray::new(o, Vec3::ZERO)),
        1 => (any3(), -1i32..=1, 0usize..3).prop_map(|(o, s, i)| {
            let mut d = Vec3::ZERO;
            d[i] = s as f32;
            Ray::new(o, d)
        }),
    ]
    .boxed()
}

fn segment_s() -> BoxedStrategy<Segment> {
    prop_oneof![
        4 => (any3(), any3()).prop_map(|(a, b)| Segment::new(a, b)),
        1 => any3().prop_map(|a| Segment::new(a, a)),
    ]
    .boxed()
}

fn sphere_s() -> BoxedStrategy<Sphere> {
    prop_oneof![
        3 => (any3(), any_radius()).prop_map(|(c, r)| Sphere::new(c, r)),
        1 => any3().prop_map(|c| Sphere::new(c, 0.0)),
        1 => any3().prop_map(|c| Sphere::new(c, 1e-30)),
        1 => any3().prop_map(|c| Sphere::new(c, 1e30)),
    ]
    .boxed()
}

fn aabb_s() -> BoxedStrategy<Aabb> {
    prop_oneof![
        3 => (any3(), any3()).prop_map(|(a, b)| Aabb::new(a, b)),
        2 => (any3(), ov3()).prop_map(|(a, s)| Aabb::new(a, a + s.abs())),
        1 => any3().prop_map(|a| Aabb::new(a, a)),
        1 => Just(Aabb::new(Vec3::splat(f32::MAX * 0.75), Vec3::splat(f32::MAX))),
        1 => Just(Aabb::new(Vec3::splat(-f32::MAX), Vec3::splat(f32::MAX))),
        // min > max on one axis.
        1 => (ov3(), 0usize..3).prop_map(|(a, i)| {
            let mut b = a + Vec3::ONE;
            b[i] = a[i] - 1.0;
            Aabb::new(a, b)
        }),
    ]
    .boxed()
}

fn obb_s() -> BoxedStrategy<Obb> {
    prop_oneof![
        3 => (any3(), any3(), any_rotation()).prop_map(|(c, h, r)| Obb::new(c, h, r)),
        2 => (any3(), ov3(), any_rotation()).prop_map(|(c, h, r)| Obb::new(c, h.abs(), r)),
        1 => (any3(), any_rotation()).prop_map(|(c, r)| Obb::new(c, Vec3::ZERO, r)),
        1 => (any3(), ov3(), any_rotation()).prop_map(|(c, h, r)| Obb::new(c, -h.abs() - Vec3::X, r)),
    ]
    .boxed()
}

fn plane_s() -> BoxedStrategy<Plane> {
    prop_oneof![
        3 => (any3(), wild()).prop_map(|(n, d)| Plane::new(n, d)),
        2 => (ov3(), ord()).prop_map(|(n, d)| Plane::new(n.normalize_or(Vec3::Y), d)),
        1 => wild().prop_map(|d| Plane::new(Vec3::ZERO, d)),
        // Valid (non-zero) but so small that normalising in f32 underflows.
        1 => (0usize..3, wild()).prop_map(|(i, d)| {
            let mut n = Vec3::ZERO;
            n[i] = 1e-30;
            Plane::new(n, d)
        }),
        1 => (ov3(), ord()).prop_map(|(n, d)| Plane::new(n * 1e30, d)),
    ]
    .boxed()
}

fn triangle_s() -> BoxedStrategy<Triangle> {
    prop_oneof![
        4 => (any3(), any3(), any3()).prop_map(|(a, b, c)| Triangle::new(a, b, c)),
        2 => (ov3(), ov3(), ov3()).prop_map(|(a, b, c)| Triangle::new(a, b, c)),
        // Collinear.
        1 => (any3(), ov3(), -3.0f32..3.0).prop_map(|(a, e, k)| Triangle::new(a, a + e, a + e * k)),
        // Coincident vertices.
        1 => any3().prop_map(|a| Triangle::new(a, a, a)),
        1 => (any3(), any3()).prop_map(|(a, b)| Triangle::new(a, b, a)),
        // A sliver.
        1 => (ov3(), ov3()).prop_map(|(a, e)| Triangle::new(a, a + e, a + e * 0.5 + e.any_orthonormal_vector() * 1e-7)),
    ]
    .boxed()
}

fn cylinder_s() -> BoxedStrategy<Cylinder> {
    prop_oneof![
        4 => (any3(), any3(), any_radius()).prop_map(|(a, b, r)| Cylinder::new(a, b, r)),
        1 => (any3(), any_radius()).prop_map(|(a, r)| Cylinder::new(a, a, r)),
        1 => (any3(), any3()).prop_map(|(a, b)| Cylinder::new(a, b, 0.0)),
        1 => (ov3(), ov3()).prop_map(|(a, e)| Cylinder::new(a, a + e * 1e-30 + Vec3::X * 1e-30, 1.0)),
    ]
    .boxed()
}

fn wall_s() -> BoxedStrategy<Wall> {
    prop_oneof![
        4 => (any2(), any2(), any_radius()).prop_map(|(a, b, r)| Wall::new(a, b, r)),
        1 => (any2(), any_radius()).prop_map(|(a, r)| Wall::new(a, a, r)),
        1 => (any2(), any2()).prop_map(|(a, b)| Wall::new(a, b, 0.0)),
    ]
    .boxed()
}

fn max_t_s() -> BoxedStrategy<f32> {
    prop_oneof![2 => Just(f32::INFINITY), 3 => wild(), 1 => 0.0f32..50.0].boxed()
}

// ------------------------------------------------------------------------------------------------------------
// Result checks.
// ------------------------------------------------------------------------------------------------------------

fn v3_ok(v: Vec3) -> bool {
    !v.is_nan()
}

fn interval_ok(i: &Interval) -> bool {
    !i.min.is_nan() && !i.max.is_nan()
}

fn max_t_ok(max_t: f32) -> bool {
    !max_t.is_nan() && max_t >= 0.0
}

/// A ray hit: no NaN, `t` in `[0, max_t]`, and no hit at all for invalid input.
fn check_hit(
    what: &str,
    hit: Option<RayHit>,
    valid: bool,
    max_t: f32,
) -> Result<(), TestCaseError> {
    if let Some(h) = hit {
        prop_assert!(valid, "{what}: hit {h:?} for invalid input");
        prop_assert!(
            !h.t.is_nan() && v3_ok(h.point) && v3_ok(h.normal),
            "{what}: NaN in {h:?}"
        );
        prop_assert!(
            h.t >= 0.0 && h.t <= max_t,
            "{what}: t {} outside [0, {max_t}]",
            h.t
        );
    }
    Ok(())
}

fn check_slabs(what: &str, trace: &SlabTrace, valid: bool) -> Result<(), TestCaseError> {
    for (i, iv) in trace.axes.iter().enumerate() {
        prop_assert!(interval_ok(iv), "{what}: NaN in slab {i}: {iv:?}");
    }
    if let Some(iv) = trace.hit {
        prop_assert!(valid, "{what}: hit {iv:?} for invalid input");
        prop_assert!(interval_ok(&iv), "{what}: NaN in hit {iv:?}");
        prop_assert!(
            iv.min >= 0.0 && iv.min <= iv.max,
            "{what}: hit interval {iv:?}"
        );
    }
    Ok(())
}

fn check_bool(what: &str, got: bool, valid: bool) -> Result<(), TestCaseError> {
    prop_assert!(valid || !got, "{what}: true for invalid input");
    Ok(())
}

fn check_closest(what: &str, q: Vec3) -> Result<(), TestCaseError> {
    prop_assert!(q.is_finite(), "{what}: closest point {q:?} not finite");
    Ok(())
}

fn check_toi(what: &str, toi: Option<Toi>, valid: bool) -> Result<(), TestCaseError> {
    if let Some(t) = toi {
        prop_assert!(valid, "{what}: contact {t:?} for invalid input");
        prop_assert!(
            !t.t.is_nan() && v3_ok(t.point) && v3_ok(t.normal),
            "{what}: NaN in {t:?}"
        );
        prop_assert!(
            (0.0..=1.0).contains(&t.t),
            "{what}: t {} outside [0, 1]",
            t.t
        );
    }
    Ok(())
}

fn check_toi2(what: &str, toi: Option<Toi2>, valid: bool) -> Result<(), TestCaseError> {
    if let Some(t) = toi {
        prop_assert!(valid, "{what}: contact {t:?} for invalid input");
        prop_assert!(
            !t.t.is_nan() && !t.point.is_nan() && !t.normal.is_nan(),
            "{what}: NaN in {t:?}"
        );
        prop_assert!(
            (0.0..=1.0).contains(&t.t),
            "{what}: t {} outside [0, 1]",
            t.t
        );
    }
    Ok(())
}

fn check_sat(what: &str, rep: &sat::SatReport, valid: bool) -> Result<(), TestCaseError> {
    prop_assert!(rep.axes.len() <= 15, "{what}: {} axes", rep.axes.len());
    for (i, ax) in rep.axes.iter().enumerate() {
        prop_assert!(
            v3_ok(ax.axis) && interval_ok(&ax.a) && interval_ok(&ax.b),
            "{what}: NaN in axis {i}: {ax:?}"
        );
    }
    if let Some(i) = rep.separating {
        prop_assert!(
            i < rep.axes.len(),
            "{what}: separating index {i} of {} axes",
            rep.axes.len()
        );
    }
    if !valid {
        prop_assert!(
            rep.axes.is_empty() && rep.separating.is_none(),
            "{what}: report for invalid input: {rep:?}"
        );
    }
    Ok(())
}

// ------------------------------------------------------------------------------------------------------------
// Shape constructors.
// ------------------------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    #[test]
    fn constructors_keep_fields_and_validity_rejects_non_finite(
        a in any3(), b in any3(), c in any3(), r in wild(), lo in wild(), hi in wild(), rot in any_rotation(),
        w in any2(),
    ) {
        // `new` keeps its fields as given.
        let ray = Ray::new(a, b);
        prop_assert!(ray.origin == a || a.is_nan());
        let seg = Segment::new(a, b);
        prop_assert!(seg.b == b || b.is_nan());
        let s = Sphere::new(a, r);
        prop_assert!(s.radius.to_bits() == r.to_bits());
        let bx = Aabb::new(a, b);
        prop_assert!(bx.max == b || b.is_nan());
        let o = Obb::new(a, b, rot);
        prop_assert!(o.rotation == rot || rot.is_nan());
        let pl = Plane::new(a, r);
        prop_assert!(pl.d.to_bits() == r.to_bits());
        let tri = Triangle::new(a, b, c);
        let cy = Cylinder::new(a, b, r);
        let wall = Wall::new(w, -w, r);
        let iv = Interval::new(lo, hi);
        prop_assert!(iv.min.to_bits() == lo.to_bits() && iv.max.to_bits() == hi.to_bits());

        // Validity never panics, and NaN / inf is never valid.
        let fin = |vs: &[Vec3], fs: &[f32]| vs.iter().all(|v| v.is_finite()) && fs.iter().all(|f| f.is_finite());
        prop_assert!(!ray.is_valid() || fin(&[a, b], &[]), "valid ray {ray:?}");
        prop_assert!(!seg.is_valid() || fin(&[a, b], &[]), "valid segment {seg:?}");
        prop_assert!(!s.is_valid() || fin(&[a], &[r]), "valid sphere {s:?}");
        prop_assert!(!bx.is_valid() || fin(&[a, b], &[]), "valid aabb {bx:?}");
        prop_assert!(!o.is_valid() || (fin(&[a, b], &[]) && rot.is_finite()), "valid obb {o:?}");
        prop_assert!(!pl.is_valid() || fin(&[a], &[r]), "valid plane {pl:?}");
        prop_assert!(!tri.is_valid() || fin(&[a, b, c], &[]), "valid triangle {tri:?}");
        prop_assert!(!cy.is_valid() || fin(&[a, b], &[r]), "valid cylinder {cy:?}");
        prop_assert!(!wall.is_valid() || (w.is_finite() && r.is_finite() && r >= 0.0));
    }

    #[test]
    fn plane_from_triangle_never_nan(tri in triangle_s()) {
        // No NaN, and a unit normal whenever the triangle is valid.
        let p = Plane::from_triangle(&tri);
        prop_assert!(v3_ok(p.normal) && !p.d.is_nan(), "from_triangle({tri:?}) = {p:?}");
        if tri.is_valid() {
            prop_assert!((p.normal.length() - 1.0).abs() <= 1e-4, "from_triangle({tri:?}) normal {:?}", p.normal);
        } else {
            prop_assert!(!p.is_valid(), "from_triangle of an invalid triangle gave a valid plane {p:?}");
        }
    }
}

// ------------------------------------------------------------------------------------------------------------
// Overlap tests (15): never panic, `false` for invalid input, and a valid shape overlaps itself.
// ------------------------------------------------------------------------------------------------------------

/// Every coordinate within 1e30 (self-overlap is only promised where f32 products cannot overflow).
fn modest(vs: &[Vec3]) -> bool {
    vs.iter().all(|v| v.abs().max_element() <= 1e30)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn overlap_sphere_sphere(a in sphere_s(), b in sphere_s()) {
        check_bool("sphere_sphere", overlap::sphere_sphere(&a, &b), a.is_valid() && b.is_valid())?;
        prop_assert_eq!(overlap::sphere_sphere(&a, &a), a.is_valid(), "{:?} with itself", a);
    }

    #[test]
    fn overlap_sphere_aabb(a in sphere_s(), b in aabb_s()) {
        check_bool("sphere_aabb", overlap::sphere_aabb(&a, &b), a.is_valid() && b.is_valid())?;
    }

    #[test]
    fn overlap_sphere_obb(a in sphere_s(), b in obb_s()) {
        check_bool("sphere_obb", overlap::sphere_obb(&a, &b), a.is_valid() && b.is_valid())?;
    }

    #[test]
    fn overlap_sphere_plane(a in sphere_s(), b in plane_s()) {
        check_bool("sphere_plane", overlap::sphere_plane(&a, &b), a.is_valid() && b.is_valid())?;
    }

    #[test]
    fn overlap_sphere_triangle(a in sphere_s(), b in triangle_s()) {
        check_bool("sphere_triangle", overlap::sphere_triangle(&a, &b), a.is_valid() && b.is_valid())?;
    }

    #[test]
    fn overlap_aabb_aabb(a in aabb_s(), b in aabb_s()) {
        check_bool("aabb_aabb", overlap::aabb_aabb(&a, &b), a.is_valid() && b.is_valid())?;
        prop_assert_eq!(overlap::aabb_aabb(&a, &a), a.is_valid(), "{:?} with itself", a);
    }

    #[test]
    fn overlap_aabb_obb(a in aabb_s(), b in obb_s()) {
        check_bool("aabb_obb", overlap::aabb_obb(&a, &b), a.is_valid() && b.is_valid())?;
    }

    #[test]
    fn overlap_aabb_plane(a in aabb_s(), b in plane_s()) {
        check_bool("aabb_plane", overlap::aabb_plane(&a, &b), a.is_valid() && b.is_valid())?;
    }

    #[test]
    fn overlap_aabb_triangle(a in aabb_s(), b in triangle_s()) {
        check_bool("aabb_triangle", overlap::aabb_triangle(&a, &b), a.is_valid() && b.is_valid())?;
    }

    #[test]
    fn overlap_obb_obb(a in obb_s(), b in obb_s()) {
        check_bool("obb_obb", overlap::obb_obb(&a, &b), a.is_valid() && b.is_valid())?;
        if modest(&[a.center, a.half_extents]) {
            prop_assert_eq!(overlap::obb_obb(&a, &a), a.is_valid(), "{:?} with itself", a);
        }
    }

    #[test]
    fn overlap_obb_plane(a in obb_s(), b in plane_s()) {
        check_bool("obb_plane", overlap::obb_plane(&a, &b), a.is_valid() && b.is_valid())?;
    }

    #[test]
    fn overlap_obb_triangle(a in obb_s(), b in triangle_s()) {
        check_bool("obb_triangle", overlap::obb_triangle(&a, &b), a.is_valid() && b.is_valid())?;
    }

    #[test]
    fn overlap_plane_plane(a in plane_s(), b in plane_s()) {
        check_bool("plane_plane", overlap::plane_plane(&a, &b), a.is_valid() && b.is_valid())?;
        prop_assert_eq!(overlap::plane_plane(&a, &a), a.is_valid(), "{:?} with itself", a);
    }

    #[test]
    fn overlap_triangle_plane(a in triangle_s(), b in plane_s()) {
        check_bool("triangle_plane", overlap::triangle_plane(&a, &b), a.is_valid() && b.is_valid())?;
    }

    #[test]
    fn overlap_triangle_triangle(a in triangle_s(), b in triangle_s()) {
        check_bool("triangle_triangle", overlap::triangle_triangle(&a, &b), a.is_valid() && b.is_valid())?;
        if modest(&[a.a, a.b, a.c]) {
            prop_assert_eq!(overlap::triangle_triangle(&a, &a), a.is_valid(), "{:?} with itself", a);
        }
    }
}

// ------------------------------------------------------------------------------------------------------------
// Ray casts (6) and slab traces (2): random rays, plus rays from the centre of solids and from their corners.
// ------------------------------------------------------------------------------------------------------------

/// From the centre of a valid solid, any valid ray hits at `t = 0` (inside, or on a flat box's surface).
fn check_from_inside(
    what: &str,
    valid: bool,
    max_t: f32,
    hit: Option<RayHit>,
) -> Result<(), TestCaseError> {
    if valid && max_t_ok(max_t) {
        let h = hit.ok_or_else(|| TestCaseError::fail(format!("{what}: no hit from inside")))?;
        prop_assert_eq!(h.t, 0.0, "{}: from inside, t = {}", what, h.t);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn ray_sphere_robust(r in ray_s(), s in sphere_s(), dir in any3(), mt in max_t_s()) {
        let ok = r.is_valid() && max_t_ok(mt);
        check_hit("ray_sphere", ray::ray_sphere(&r, &s, mt), ok && s.is_valid(), mt)?;
        for origin in [s.center, s.center + Vec3::X * s.radius] {
            let r = Ray::new(origin, dir);
            check_hit("ray_sphere", ray::ray_sphere(&r, &s, mt), r.is_valid() && s.is_valid() && max_t_ok(mt), mt)?;
        }
        let r = Ray::new(s.center, dir);
        check_from_inside("ray_sphere", r.is_valid() && s.is_valid(), mt, ray::ray_sphere(&r, &s, mt))?;
    }

    #[test]
    fn ray_aabb_robust(r in ray_s(), b in aabb_s(), dir in any3(), mt in max_t_s()) {
        let ok = r.is_valid() && max_t_ok(mt);
        check_hit("ray_aabb", ray::ray_aabb(&r, &b, mt), ok && b.is_valid(), mt)?;
        for origin in [b.min, b.max, (b.min + b.max) * 0.5] {
            let r = Ray::new(origin, dir);
            check_hit("ray_aabb", ray::ray_aabb(&r, &b, mt), r.is_valid() && b.is_valid() && max_t_ok(mt), mt)?;
        }
        let r = Ray::new((b.min + b.max) * 0.5, dir);
        check_from_inside("ray_aabb", r.is_valid() && b.is_valid(), mt, ray::ray_aabb(&r, &b, mt))?;
    }

    #[test]
    fn ray_aabb_slabs_robust(r in ray_s(), b in aabb_s(), dir in any3()) {
        check_slabs("ray_aabb_slabs", &ray::ray_aabb_slabs(&r, &b), r.is_valid() && b.is_valid())?;
        for origin in [b.min, b.max, (b.min + b.max) * 0.5] {
            let r = Ray::new(origin, dir);
            check_slabs("ray_aabb_slabs", &ray::ray_aabb_slabs(&r, &b), r.is_valid() && b.is_valid())?;
        }
    }

    #[test]
    fn ray_obb_robust(r in ray_s(), o in obb_s(), dir in any3(), mt in max_t_s()) {
        let ok = r.is_valid() && max_t_ok(mt);
        check_hit("ray_obb", ray::ray_obb(&r, &o, mt), ok && o.is_valid(), mt)?;
        for origin in [o.center, o.center + o.rotation * o.half_extents] {
            let r = Ray::new(origin, dir);
            check_hit("ray_obb", ray::ray_obb(&r, &o, mt), r.is_valid() && o.is_valid() && max_t_ok(mt), mt)?;
        }
        let r = Ray::new(o.center, dir);
        check_from_inside("ray_obb", r.is_valid() && o.is_valid(), mt, ray::ray_obb(&r, &o, mt))?;
    }

    #[test]
    fn ray_obb_slabs_robust(r in ray_s(), o in obb_s(), dir in any3()) {
        check_slabs("ray_obb_slabs", &ray::ray_obb_slabs(&r, &o), r.is_valid() && o.is_valid())?;
        for origin in [o.center, o.center + o.rotation * o.half_extents] {
            let r = Ray::new(origin, dir);
            check_slabs("ray_obb_slabs", &ray::ray_obb_slabs(&r, &o), r.is_valid() && o.is_valid())?;
        }
    }

    #[test]
    fn ray_plane_robust(r in ray_s(), pl in plane_s(), dir in any3(), mt in max_t_s()) {
        let ok = r.is_valid() && max_t_ok(mt);
        check_hit("ray_plane", ray::ray_plane(&r, &pl, mt), ok && pl.is_valid(), mt)?;
        let on = Ray::new(pl.normal * pl.d, dir);
        check_hit("ray_plane", ray::ray_plane(&on, &pl, mt), on.is_valid() && pl.is_valid() && max_t_ok(mt), mt)?;
    }

    #[test]
    fn ray_cylinder_robust(r in ray_s(), cy in cylinder_s(), dir in any3(), mt in max_t_s()) {
        let ok = r.is_valid() && max_t_ok(mt);
        check_hit("ray_cylinder", ray::ray_cylinder(&r, &cy, mt), ok && cy.is_valid(), mt)?;
        for origin in [cy.a, cy.b, (cy.a + cy.b) * 0.5] {
            let r = Ray::new(origin, dir);
            let v = r.is_valid() && cy.is_valid() && max_t_ok(mt);
            check_hit("ray_cylinder", ray::ray_cylinder(&r, &cy, mt), v, mt)?;
        }
        // The f32 midpoint counts as inside only when it is well within the radius of the axis (f64) and the
        // radius is resolvable at the coordinates' scale (f64 arithmetic on them rounds by ~1e-16 of it).
        let mid = (cy.a + cy.b) * 0.5;
        let (a, b, m) = (cy.a.as_dvec3(), cy.b.as_dvec3(), mid.as_dvec3());
        let axis = b - a;
        let s = (m - a).dot(axis) / axis.length_squared();
        let off_axis = (m - (a + axis * s)).length();
        let scale = a.abs().max(b.abs()).max_element();
        let inside = (0.01..=0.99).contains(&s)
            && off_axis < 0.5 * f64::from(cy.radius)
            && f64::from(cy.radius) > 1e-9 * scale
            && axis.length() > 1e-9 * scale;
        let r = Ray::new(mid, dir);
        check_from_inside("ray_cylinder", inside && r.is_valid() && cy.is_valid(), mt, ray::ray_cylinder(&r, &cy, mt))?;
    }

    #[test]
    fn ray_triangle_robust(r in ray_s(), tri in triangle_s(), dir in any3(), mt in max_t_s()) {
        let ok = r.is_valid() && max_t_ok(mt);
        check_hit("ray_triangle", ray::ray_triangle(&r, &tri, mt), ok && tri.is_valid(), mt)?;
        for origin in [tri.a, (tri.a + tri.b) * 0.5] {
            let r = Ray::new(origin, dir);
            let v = r.is_valid() && tri.is_valid() && max_t_ok(mt);
            check_hit("ray_triangle", ray::ray_triangle(&r, &tri, mt), v, mt)?;
        }
    }
}

// ------------------------------------------------------------------------------------------------------------
// Line tests (5).
// ------------------------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    #[test]
    fn segment_sphere_robust(seg in segment_s(), s in sphere_s()) {
        check_bool("segment_sphere", segment::segment_sphere(&seg, &s), seg.is_valid() && s.is_valid())?;
    }

    #[test]
    fn segment_aabb_robust(seg in segment_s(), b in aabb_s()) {
        check_bool("segment_aabb", segment::segment_aabb(&seg, &b), seg.is_valid() && b.is_valid())?;
    }

    #[test]
    fn segment_obb_robust(seg in segment_s(), o in obb_s()) {
        check_bool("segment_obb", segment::segment_obb(&seg, &o), seg.is_valid() && o.is_valid())?;
    }

    #[test]
    fn segment_plane_robust(seg in segment_s(), pl in plane_s()) {
        check_bool("segment_plane", segment::segment_plane(&seg, &pl), seg.is_valid() && pl.is_valid())?;
    }

    #[test]
    fn segment_triangle_robust(seg in segment_s(), tri in triangle_s()) {
        check_bool("segment_triangle", segment::segment_triangle(&seg, &tri), seg.is_valid() && tri.is_valid())?;
    }
}

// ------------------------------------------------------------------------------------------------------------
// Triangle tests (4).
// ------------------------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    #[test]
    fn moller_trumbore_robust(r in ray_s(), tri in triangle_s(), dir in any3()) {
        let at_vertex = Ray::new(tri.a, dir);
        for ray in [r, at_vertex] {
            for cull in [Cull::Back, Cull::None] {
                if let Some(h) = triangle::moller_trumbore(&ray, &tri, cull) {
                    prop_assert!(ray.is_valid() && tri.is_valid(), "moller_trumbore hit {h:?} for invalid input");
                    prop_assert!(!h.t.is_nan() && !h.u.is_nan() && !h.v.is_nan(), "moller_trumbore NaN {h:?}");
                    prop_assert!(h.t >= 0.0, "moller_trumbore t {}", h.t);
                }
            }
        }
    }

    #[test]
    fn point_in_triangle_robust(tri in triangle_s(), p in any3(), u in wild(), v in wild()) {
        // Points on the triangle's plane too, not just anywhere.
        let on_plane = tri.a + (tri.b - tri.a) * u + (tri.c - tri.a) * v;
        for q in [p, on_plane, tri.a, (tri.a + tri.b) * 0.5] {
            let valid = tri.is_valid() && q.is_finite();
            check_bool("point_in_triangle", triangle::point_in_triangle(q, &tri), valid)?;
        }
    }

    #[test]
    fn point_in_triangle_angle_sum_robust(tri in triangle_s(), p in any3(), u in wild(), v in wild()) {
        let on_plane = tri.a + (tri.b - tri.a) * u + (tri.c - tri.a) * v;
        for q in [p, on_plane, tri.a, (tri.a + tri.b) * 0.5] {
            let valid = tri.is_valid() && q.is_finite();
            check_bool("point_in_triangle_angle_sum", triangle::point_in_triangle_angle_sum(q, &tri), valid)?;
        }
    }

    #[test]
    fn walk_test_robust(tri in triangle_s(), from in any3(), to in any3(), u in wild(), v in wild()) {
        let on_plane = tri.a + (tri.b - tri.a) * u + (tri.c - tri.a) * v;
        for (f, t) in [(from, to), (from, from), (tri.a + from, tri.a - from), (on_plane, to), (to, on_plane)] {
            if let Some(x) = triangle::walk_test(f, t, &tri) {
                prop_assert!(tri.is_valid() && f.is_finite() && t.is_finite(), "walk_test {x:?} for invalid input");
                prop_assert!(v3_ok(x), "walk_test NaN {x:?} for {f:?} -> {t:?}");
            }
        }
    }
}

// ------------------------------------------------------------------------------------------------------------
// Closest points (6): always finite, for points anywhere and on the shapes' own features.
// ------------------------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    #[test]
    fn closest_point_segment_robust(p in any3(), seg in segment_s(), other in any3()) {
        for q in [p, seg.a, seg.b, (seg.a + seg.b) * 0.5, other] {
            check_closest("point_segment", closest::point_segment(q, &seg))?;
        }
    }

    #[test]
    fn closest_point_aabb_robust(p in any3(), b in aabb_s(), other in any3()) {
        for q in [p, b.min, b.max, (b.min + b.max) * 0.5, other] {
            check_closest("point_aabb", closest::point_aabb(q, &b))?;
        }
    }

    #[test]
    fn closest_point_obb_robust(p in any3(), o in obb_s(), other in any3()) {
        for q in [p, o.center, o.center + o.half_extents, other] {
            check_closest("point_obb", closest::point_obb(q, &o))?;
        }
    }

    #[test]
    fn closest_point_plane_robust(p in any3(), pl in plane_s(), other in any3()) {
        for q in [p, pl.normal * pl.d, other] {
            check_closest("point_plane", closest::point_plane(q, &pl))?;
        }
    }

    #[test]
    fn closest_point_sphere_robust(p in any3(), s in sphere_s(), other in any3()) {
        for q in [p, s.center, s.center + Vec3::X * s.radius, other] {
            check_closest("point_sphere", closest::point_sphere(q, &s))?;
        }
    }

    #[test]
    fn closest_point_triangle_robust(p in any3(), tri in triangle_s(), other in any3()) {
        for q in [p, tri.a, tri.b, tri.c, (tri.a + tri.b) * 0.5, other] {
            check_closest("point_triangle", closest::point_triangle(q, &tri))?;
        }
    }
}

// ------------------------------------------------------------------------------------------------------------
// Separating axes (2).
// ------------------------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    #[test]
    fn sat_aabb_obb_axes_robust(b in aabb_s(), o in obb_s()) {
        check_sat("aabb_obb_axes", &sat::aabb_obb_axes(&b, &o), b.is_valid() && o.is_valid())?;
        // Axis-aligned: every cross axis is degenerate.
        let aligned = Obb::new(o.center, o.half_extents, Mat3::IDENTITY);
        let rep = sat::aabb_obb_axes(&b, &aligned);
        check_sat("aabb_obb_axes (parallel)", &rep, b.is_valid() && aligned.is_valid())?;
    }

    #[test]
    fn sat_obb_obb_axes_robust(o1 in obb_s(), o2 in obb_s(), shift in any3()) {
        check_sat("obb_obb_axes", &sat::obb_obb_axes(&o1, &o2), o1.is_valid() && o2.is_valid())?;
        // Coincident and parallel boxes.
        let same = Obb::new(o1.center + shift, o1.half_extents, o1.rotation);
        let rep = sat::obb_obb_axes(&o1, &same);
        check_sat("obb_obb_axes (parallel)", &rep, o1.is_valid() && same.is_valid())?;
    }
}

// ------------------------------------------------------------------------------------------------------------
// Sweeps (6): random starts, starts on the obstacle, and zero motion.
// ------------------------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    #[test]
    fn sweep_sphere_plane_robust(s in sphere_s(), m in any3(), pl in plane_s()) {
        for c in [s.center, pl.normal * pl.d] {
            let s = Sphere::new(c, s.radius);
            for m in [m, Vec3::ZERO] {
                let v = s.is_valid() && m.is_finite() && pl.is_valid();
                check_toi("sweep::sphere_plane", sweep::sphere_plane(&s, m, &pl), v)?;
            }
        }
    }

    #[test]
    fn sweep_sphere_sphere_robust(a in sphere_s(), ma in any3(), b in sphere_s(), mb in any3()) {
        for c in [a.center, b.center, b.center + Vec3::X * (a.radius + b.radius)] {
            let a = Sphere::new(c, a.radius);
            for (ma, mb) in [(ma, mb), (ma, Vec3::ZERO), (Vec3::ZERO, Vec3::ZERO), (ma, ma)] {
                let v = a.is_valid() && b.is_valid() && ma.is_finite() && mb.is_finite();
                check_toi("sweep::sphere_sphere", sweep::sphere_sphere(&a, ma, &b, mb), v)?;
            }
        }
    }

    #[test]
    fn sweep_sphere_cylinder_robust(s in sphere_s(), m in any3(), cy in cylinder_s()) {
        for c in [s.center, cy.a, cy.b, (cy.a + cy.b) * 0.5] {
            let s = Sphere::new(c, s.radius);
            for m in [m, Vec3::ZERO, cy.b - cy.a] {
                let v = s.is_valid() && m.is_finite() && cy.is_valid();
                check_toi("sweep::sphere_cylinder", sweep::sphere_cylinder(&s, m, &cy), v)?;
            }
        }
    }

    #[test]
    fn sweep_sphere_triangle_robust(s in sphere_s(), m in any3(), tri in triangle_s()) {
        for c in [s.center, tri.a, (tri.a + tri.b) * 0.5] {
            let s = Sphere::new(c, s.radius);
            for m in [m, Vec3::ZERO, tri.c - tri.a] {
                let v = s.is_valid() && m.is_finite() && tri.is_valid();
                check_toi("sweep::sphere_triangle", sweep::sphere_triangle(&s, m, &tri), v)?;
            }
        }
    }

    #[test]
    fn sweep_sphere_aabb_robust(s in sphere_s(), m in any3(), b in aabb_s()) {
        for c in [s.center, b.min, b.max, (b.min + b.max) * 0.5] {
            let s = Sphere::new(c, s.radius);
            for m in [m, Vec3::ZERO] {
                let v = s.is_valid() && m.is_finite() && b.is_valid();
                check_toi("sweep::sphere_aabb", sweep::sphere_aabb(&s, m, &b), v)?;
            }
        }
    }

    #[test]
    fn sweep_circle_wall_robust(c in any2(), r in any_radius(), m in any2(), w in wall_s()) {
        // A zero-radius circle is a moving point: still valid against a wall with its own radius.
        for c in [c, w.a, w.b, (w.a + w.b) * 0.5] {
            for m in [m, Vec2::ZERO, w.b - w.a] {
                let valid = c.is_finite() && r.is_finite() && r >= 0.0 && m.is_finite() && w.is_valid();
                check_toi2("circle_wall", sweep::circle_wall(c, r, m, &w), valid)?;
            }
        }
    }
}

// ------------------------------------------------------------------------------------------------------------
// Walls (3).
// ------------------------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    #[test]
    fn distance_point_wall_robust(p in any2(), w in wall_s()) {
        for q in [p, w.a, (w.a + w.b) * 0.5] {
            let dist = walls::distance_point_wall(q, &w);
            prop_assert!(!dist.is_nan(), "distance_point_wall({q:?}, {w:?}) is NaN");
            prop_assert!(dist >= 0.0, "distance_point_wall({q:?}, {w:?}) = {dist}");
        }
    }

    #[test]
    fn blocked_robust(p in any2(), ws in proptest::collection::vec(wall_s(), 0..5)) {
        let blocked = walls::blocked(p, &ws);
        prop_assert!(!blocked || p.is_finite(), "blocked at a non-finite point {p:?}");
        prop_assert!(!blocked || ws.iter().any(Wall::is_valid), "blocked by invalid walls only");
        if let Some(w) = ws.first() {
            // On a valid wall's segment: blocked.
            if w.is_valid() && modest2(&[w.a, w.b]) {
                prop_assert!(walls::blocked(w.a, &ws), "{:?} not blocked by its own wall", w.a);
            }
        }
    }

    #[test]
    fn move_and_slide_robust(
        p in any2(), ws in proptest::collection::vec(wall_s(), 0..5), r in any_radius(), m in any2(),
    ) {
        let starts = [p, ws.first().map_or(p, |w| w.a), ws.first().map_or(p, |w| (w.a + w.b) * 0.5)];
        for start in starts {
            for m in [m, Vec2::ZERO] {
                let end = walls::move_and_slide(start, r, m, &ws);
                prop_assert!(!end.is_nan(), "move_and_slide({start:?}, {r}, {m:?}, {ws:?}) = {end:?}");
                if start.is_finite() {
                    prop_assert!(end.is_finite(), "move_and_slide from {start:?} ended at {end:?}");
                }
            }
        }
    }
}

fn modest2(vs: &[Vec2]) -> bool {
    vs.iter().all(|v| v.abs().max_element() <= 1e30)
}

// ------------------------------------------------------------------------------------------------------------
// Capsules: every query of API.md's "Capsules" section (overlaps, ray, closest point, sweeps, meshes, scenes)
// fed the same wild input plus capsules with `a == b`, zero, negative, NaN and infinite radii, NaN / negative /
// infinite `max_t`, wall heights of every sign, motions of 1e6 and more, coordinates of 1e7 and more: never a
// panic, never a NaN, `None` / `false` for invalid input, `t` in `[0, 1]` with a unit normal.
// ------------------------------------------------------------------------------------------------------------

fn capsule_s() -> BoxedStrategy<Capsule> {
    prop_oneof![
        4 => (any3(), any3(), any_radius()).prop_map(|(a, b, r)| Capsule::new(a, b, r)),
        2 => (any3(), any_radius()).prop_map(|(a, r)| Capsule::new(a, a, r)),
        2 => (ov3(), ov3(), 0.01f32..3.0).prop_map(|(a, e, r)| Capsule::new(a, a + e, r)),
        // Around 1e7 (f32 spacing 1 there).
        1 => (ov3(), ov3(), 0.01f32..3.0).prop_map(|(a, e, r)| {
            let far = Vec3::new(1e7, -2e7, 3e7);
            Capsule::new(far + a, far + a + e, r)
        }),
        1 => any3().prop_map(|a| Capsule::new(a, a + Vec3::X, 0.0)),
        1 => any3().prop_map(|a| Capsule::new(a, a + Vec3::X, -1.0)),
        1 => any3().prop_map(|a| Capsule::new(a, a + Vec3::Y, f32::NAN)),
    ]
    .boxed()
}

fn motion_s() -> BoxedStrategy<Vec3> {
    prop_oneof![
        4 => any3(),
        1 => ov3().prop_map(|v| v.normalize_or(Vec3::X) * 1e6),
        1 => Just(Vec3::ZERO),
    ]
    .boxed()
}

fn height_s() -> BoxedStrategy<f32> {
    prop_oneof![3 => 0.0f32..5.0, 1 => Just(0.0f32), 1 => Just(-1.0f32), 1 => wild()].boxed()
}

/// A capsule contact: no NaN, `t` in `[0, 1]`, a unit normal; none at all for invalid input.
fn check_capsule_toi(what: &str, toi: Option<Toi>, valid: bool) -> Result<(), TestCaseError> {
    check_toi(what, toi, valid)?;
    if let Some(t) = toi {
        prop_assert!(
            t.point.is_finite() && (t.normal.length() - 1.0).abs() <= 1e-4,
            "{what}: {t:?}"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn capsule_overlaps_robust(
        c in capsule_s(), s in sphere_s(), b in aabb_s(), o in obb_s(), pl in plane_s(), tri in triangle_s(),
        other in capsule_s(), cy in cylinder_s(), w in wall_s(), h in height_s(),
    ) {
        let ok = c.is_valid();
        check_bool("capsule_sphere", overlap::capsule_sphere(&c, &s), ok && s.is_valid())?;
        check_bool("capsule_aabb", overlap::capsule_aabb(&c, &b), ok && b.is_valid())?;
        check_bool("capsule_obb", overlap::capsule_obb(&c, &o), ok && o.is_valid())?;
        check_bool("capsule_plane", overlap::capsule_plane(&c, &pl), ok && pl.is_valid())?;
        check_bool("capsule_triangle", overlap::capsule_triangle(&c, &tri), ok && tri.is_valid())?;
        check_bool("capsule_capsule", overlap::capsule_capsule(&c, &other), ok && other.is_valid())?;
        check_bool("capsule_cylinder", overlap::capsule_cylinder(&c, &cy), ok && cy.is_valid())?;
        let wall_ok = w.is_valid() && h.is_finite() && h >= 0.0;
        check_bool("capsule_wall", overlap::capsule_wall(&c, &w, h), ok && wall_ok)?;
        // A valid capsule overlaps itself and a sphere at its end, wherever f64 resolves its radius (the
        // segment's points are rebuilt as a + (b - a)·s, which loses what is below 1e-16 of the coordinates).
        let resolved = c.a.abs().max_element().max(c.b.abs().max_element()) * 1e-14 < c.radius;
        if ok && modest(&[c.a, c.b]) && c.radius <= 1e30 && resolved {
            prop_assert!(overlap::capsule_capsule(&c, &c), "{c:?} does not overlap itself");
            prop_assert!(overlap::capsule_sphere(&c, &Sphere::new(c.b, c.radius)));
        }
    }

    #[test]
    fn capsule_ray_and_closest_point_robust(c in capsule_s(), r in ray_s(), mt in max_t_s(), p in any3()) {
        let hit = ray::ray_capsule(&r, &c, mt);
        check_hit("ray_capsule", hit, c.is_valid() && r.is_valid() && max_t_ok(mt), mt)?;
        if let Some(h) = hit {
            prop_assert!((h.normal.length() - 1.0).abs() <= 1e-4, "ray_capsule normal {h:?}");
        }
        // From inside (the capsule's own end, when finite): t = 0, facing back along the ray.
        if c.is_valid() && r.is_valid() && max_t_ok(mt) && modest(&[c.a, c.b, r.dir]) && c.radius <= 1e30 {
            let inside = Ray::new(c.a, r.dir);
            let h = ray::ray_capsule(&inside, &c, mt);
            // The direction normalised after scaling by its largest component (tiny ones underflow otherwise).
            let unit = (r.dir / r.dir.abs().max_element()).normalize();
            prop_assert!(h.is_some_and(|h| h.t == 0.0 && (h.normal + unit).length() <= 1e-5),
                "ray_capsule from inside: {h:?}");
        }
        check_closest("point_capsule", closest::point_capsule(p, &c))?;
    }

    #[test]
    fn capsule_sweeps_robust(
        c in capsule_s(), m in motion_s(), s in sphere_s(), b in aabb_s(), o in obb_s(), pl in plane_s(),
        tri in triangle_s(), other in capsule_s(), cy in cylinder_s(), w in wall_s(), h in height_s(),
    ) {
        let ok = c.is_valid() && m.is_finite();
        check_capsule_toi("capsule_sphere", sweep::capsule_sphere(&c, m, &s), ok && s.is_valid())?;
        check_capsule_toi("capsule_aabb", sweep::capsule_aabb(&c, m, &b), ok && b.is_valid())?;
        check_capsule_toi("capsule_obb", sweep::capsule_obb(&c, m, &o), ok && o.is_valid())?;
        check_capsule_toi("capsule_plane", sweep::capsule_plane(&c, m, &pl), ok && pl.is_valid())?;
        check_capsule_toi("capsule_triangle", sweep::capsule_triangle(&c, m, &tri), ok && tri.is_valid())?;
        check_capsule_toi("capsule_capsule", sweep::capsule_capsule(&c, m, &other), ok && other.is_valid())?;
        check_capsule_toi("capsule_cylinder", sweep::capsule_cylinder(&c, m, &cy), ok && cy.is_valid())?;
        let wall_ok = w.is_valid() && h.is_finite() && h >= 0.0;
        check_capsule_toi("capsule_wall", sweep::capsule_wall(&c, m, &w, h), ok && wall_ok)?;
    }

    #[test]
    fn capsule_mesh_and_scene_queries_robust(c in capsule_s(), m in motion_s(), seed in 0u64..4) {
        let (v, i) = collidoscope::generate::terrain(40, 10.0, seed);
        let mesh = TriMesh::new(v, i).unwrap();
        let ok = c.is_valid() && m.is_finite();
        check_capsule_toi("TriMesh::sweep_capsule", mesh.sweep_capsule(&c, m).map(|(t, _)| t), ok)?;
        check_bool("TriMesh::overlaps_capsule", mesh.overlaps_capsule(&c), c.is_valid())?;
        let scene = capsule_scene(seed);
        let toi = scene.sweep_capsule(&c, m);
        if let Some(t) = &toi {
            prop_assert!(ok, "Scene::sweep_capsule: {t:?} for invalid input");
            prop_assert!((0.0..=1.0).contains(&t.t) && t.point.is_finite() && t.normal.is_finite(), "{t:?}");
        }
        let over = scene.overlap_capsule(&c);
        prop_assert!(c.is_valid() || over.is_empty(), "Scene::overlap_capsule: {over:?} for invalid input");
    }
}

/// A small scene with one object of every kind (a mesh too).
fn capsule_scene(seed: u64) -> collidoscope::scene::Scene {
    let ron = format!(
        r#"(version: 2,
        planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: -1.0)],
        walls: [(id: 2, a: (-3.0, -3.0), b: (3.0, -3.0), radius: 0.2), (id: 3, a: (5.0, 5.0), b: (5.0, 5.0), radius: 0.0)],
        aabbs: [(id: 4, min: (1.0, 0.0, 1.0), max: (2.0, {h}, 2.0))],
        obbs: [(id: 5, center: (-2.0, 1.0, 2.0), half_extents: (0.5, 1.0, 0.5), rotation_deg: (0.0, 30.0, 0.0))],
        cylinders: [(id: 6, a: (0.0, 0.0, 4.0), b: (0.0, 2.0, 4.0), radius: 0.5)],
        triangles: [(id: 7, a: (-4.0, 0.0, -1.0), b: (-3.0, 2.0, -1.0), c: (-2.0, 0.0, -1.0))],
        meshes: [(id: 8, vertices: [(6.0, 0.0, 0.0), (8.0, 0.0, 0.0), (7.0, 2.0, 1.0)], indices: [(0, 1, 2)])])"#,
        h = 1.0 + seed as f32
    );
    // Built leniently: the level checks refuse the zero-length wall (a post of no radius) the scene takes.
    collidoscope::scene::Scene::build(&collidoscope::level::Level::from_ron_str(&ron).unwrap())
}
