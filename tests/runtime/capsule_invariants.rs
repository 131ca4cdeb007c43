//! Property tests (proptest) of the capsule queries, against the f64 referee (`capsule_referee`) and against
//! each other.
//!
//! - Sweeps, every obstacle kind and meshes: the capsule never overlaps the obstacle before the returned `t`
//!   (64 positions along `[0, t)`, each within API.md's allowance `1e-5·(1 + |motion|)` of touching at worst);
//!   at `t > 0` it touches (distance minus radius within the allowance); `None` means no overlap anywhere
//!   along the motion (256 positions) unless it starts in overlap and the motion leaves; the normal is unit
//!   and points from the obstacle's closest point toward the capsule's segment; the point lies on the
//!   obstacle's boundary and on the capsule; a start in overlap gives `t = 0` or `None`, `None` only when the
//!   motion separates them.
//! - Consistency: `overlap::capsule_*` answers exactly whether the sweep starts touching (`t = 0` with no
//!   motion), and a sweep starts at `t = 0` exactly when the overlap test says they touch (or `None` when the
//!   motion leaves); a capsule with `a == b` sweeps, overlaps, casts and projects as the sphere queries do;
//!   `capsule_obb` with the identity rotation equals `capsule_aabb`.
//!
//! Comparisons inside the rounding band (touching within `1e-9` of the scale) are excluded, never loosened.
//! The runs use a fixed seed (override with `PROPTEST_RNG_SEED`) and no failure persistence files.
#![allow(clippy::unwrap_used)]

use super::capsule_differential::{Obs, Rng};
use super::capsule_referee::{self as referee, D, Seg, Solid, d};
use collidoscope::glam::{Mat3, Vec2, Vec3};
use collidoscope::mesh::TriMesh;
use collidoscope::query::{Toi, closest, overlap, ray, sweep};
use collidoscope::shape::{Aabb, Capsule, Obb, Ray, Sphere, Triangle};
use proptest::prelude::*;
use proptest::test_runner::{RngSeed, TestCaseError};

fn config(cases: u32) -> ProptestConfig {
    let default = ProptestConfig::default();
    let rng_seed = if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
        default.rng_seed
    } else {
        RngSeed::Fixed(0x00CA_5017_1A55_0000 ^ u64::from(cases))
    };
    ProptestConfig {
        cases,
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

fn unit3() -> impl Strategy<Value = Vec3> + Clone {
    v3(1.0).prop_map(|v| {
        v.try_normalize()
            .filter(|_| v.length() > 0.1)
            .unwrap_or(Vec3::X)
    })
}

/// A capsule: centre, axis direction and half length (0 now and then: a sphere), radius.
fn capsule() -> impl Strategy<Value = Capsule> + Clone {
    (
        v3(12.0),
        unit3(),
        prop_oneof![1 => Just(0.0f32), 6 => 0.0f32..3.0],
        prop_oneof![1 => 0.005f32..0.05, 6 => 0.05f32..3.0],
    )
        .prop_map(|(c, u, h, r)| Capsule::new(c - u * h, c + u * h, r))
}

/// A motion: aimed at the obstacle (scaled), random, grazing along an axis, or none.
fn motion(cap: Capsule, target: Vec3, pick: u8, k: f32, noise: Vec3) -> Vec3 {
    let mid = (cap.a + cap.b) * 0.5;
    match pick % 8 {
        0 => Vec3::ZERO,
        1 => noise * 8.0,
        2 => Vec3::new(noise.x * 6.0, 0.0, noise.z * 6.0),
        _ => (target - mid) * k + noise * 0.5,
    }
}

// ------------------------------------------------------------------------------------------------------------
// The sweep check.
// ------------------------------------------------------------------------------------------------------------

/// The capsule and motion as the referee reads them against `obs` (an oriented box in its own frame, as the
/// differential tests explain).
fn frame(cap: &Capsule, m: Vec3, obs: &Obs) -> (Seg, D, Solid) {
    let seg = Seg::of(cap);
    match obs {
        Obs::Obb(o, _) => {
            let rt = o.rotation.as_dmat3().transpose();
            let c = d(o.center);
            (
                Seg {
                    p: rt * (seg.p - c),
                    q: rt * (seg.q - c),
                    r: seg.r,
                },
                rt * d(m),
                Solid::Box {
                    c: D::ZERO,
                    h: d(o.half_extents),
                    rot: collidoscope::glam::DMat3::IDENTITY,
                },
            )
        }
        _ => (seg, d(m), obs.solid()),
    }
}

fn scale_of(cap: &Capsule, m: Vec3, obs: &Obs) -> f64 {
    let (pts, sizes) = obs.extent_points();
    let mut s = 1.0f32;
    for p in pts.iter().chain(&[cap.a, cap.b, cap.a + m]) {
        s = s.max(p.abs().max_element());
    }
    for x in sizes.iter().chain(&[cap.radius, m.length()]) {
        s = s.max(x.abs());
    }
    f64::from(s)
}

/// Distance minus radius along the motion, as the referee reads it; the smallest over several obstacles
/// (a mesh's triangles).
fn gap(seg: &Seg, md: D, solids: &[Solid], t: f64) -> f64 {
    solids
        .iter()
        .map(|s| referee::seg_gap_at(seg, md, s, t))
        .fold(f64::INFINITY, f64::min)
}

/// The closest approach at `t` over several obstacles.
fn approach(seg: &Seg, md: D, solids: &[Solid], t: f64) -> referee::Approach {
    solids
        .iter()
        .map(|s| referee::seg_approach_at(seg, md, s, t))
        .min_by(|a, b| a.dist.total_cmp(&b.dist))
        .unwrap()
}

/// Checks one sweep answer. `seg`, `md`, `solids` are the referee's reading; `world` the same obstacles in
/// the world (for the point); `surface` is true for surfaces (a segment lying across one never separates).
#[allow(clippy::too_many_arguments)]
fn check_sweep(
    cap: &Capsule,
    m: Vec3,
    seg: &Seg,
    md: D,
    solids: &[Solid],
    world: &[Solid],
    scale: f64,
    toi: Option<Toi>,
) -> Result<(), TestCaseError> {
    let allowance = 1e-5 * (1.0 + f64::from(m.length()));
    let band = 1e-9 * scale;
    let ml = md.length();
    let g0 = gap(seg, md, solids, 0.0);
    let ap0 = approach(seg, md, solids, 0.0);
    // The rate at which the distance changes along the motion at the start (apart from the segment).
    let rate0 = if ap0.dist > 1e-9 * scale && ml > 0.0 {
        ((ap0.on_segment - ap0.on_shape) / ap0.dist).dot(md / ml)
    } else {
        0.0
    };
    let sliding = 1e-3f64.max(1e-12 * scale / ap0.dist.max(1e-300));
    match toi {
        Some(h) => {
            prop_assert!(
                h.t.is_finite()
                    && (0.0..=1.0).contains(&h.t)
                    && h.point.is_finite()
                    && (h.normal.length() - 1.0).abs() <= 1e-5,
                "malformed {h:?}"
            );
            let t = f64::from(h.t);
            if t > 0.0 {
                // No overlap before t (beyond the allowance), touching at t.
                for k in 0..64 {
                    let s = t * f64::from(k) / 64.0;
                    let g = gap(seg, md, solids, s);
                    prop_assert!(
                        g >= -allowance - band,
                        "overlap {g:e} at s = {s} before t = {t} ({h:?})"
                    );
                }
                let gt = gap(seg, md, solids, t);
                prop_assert!(
                    gt.abs() <= allowance + band,
                    "at t = {t} the gap is {gt:e} ({h:?})"
                );
                // The normal: from the obstacle's closest point toward the segment.
                let ap = approach(seg, md, solids, t);
                if ap.dist > 1e-6 * scale && matches!(world.len(), 1) && solids.len() == 1 {
                    let want = (ap.on_segment - ap.on_shape) / ap.dist;
                    let world_n = match (world[0], solids[0]) {
                        // In an oriented box's frame: compare there.
                        (Solid::Box { rot, .. }, Solid::Box { .. }) => {
                            rot.transpose() * d(h.normal)
                        }
                        _ => d(h.normal),
                    };
                    let ntol = 1e-3f64.max(20.0 * allowance / seg.r);
                    prop_assert!(
                        (world_n - want).length() <= ntol,
                        "normal {:?} vs the referee's {want:?} at t = {t}",
                        h.normal
                    );
                }
                // The point: on an obstacle's boundary, and on the capsule's surface at t.
                let ptol = 1e-3 * (1.0 + f64::from(m.length())) + 4.0 * scale * 1.2e-7;
                let p = d(h.point);
                let off = world
                    .iter()
                    .map(|s| s.boundary_distance(p))
                    .fold(f64::INFINITY, f64::min);
                prop_assert!(
                    off <= ptol,
                    "point {:?} is {off:e} off the obstacle",
                    h.point
                );
                let (a, b) = (d(cap.a) + d(m) * t, d(cap.b) + d(m) * t);
                let axis = p.distance(referee::cp_segment(p, a, b));
                prop_assert!(
                    (axis - seg.r).abs() <= ptol,
                    "point {:?} is {axis} from the axis (radius {})",
                    h.point,
                    seg.r
                );
            } else {
                // t = 0: touching or overlapping at the start (or within the allowance of it), and the motion
                // does not leave.
                if g0 > band {
                    let rf = referee::first_root(&|s| gap(seg, md, solids, s));
                    prop_assert!(
                        rf.t.is_some_and(|rt| rt * ml <= allowance),
                        "t = 0 but apart by {g0:e} at the start, first contact {rf:?}"
                    );
                } else {
                    prop_assert!(
                        rate0 <= sliding,
                        "t = 0 but the motion leaves (rate {rate0:e})"
                    );
                }
                prop_assert!(
                    d(h.normal).dot(d(m)) <= 1e-6 * f64::from(m.length()),
                    "t = 0 with a normal {:?} the motion leaves along",
                    h.normal
                );
            }
        }
        None => {
            if g0 > band {
                // No overlap anywhere along the motion.
                for k in 0..=256 {
                    let s = f64::from(k) / 256.0;
                    let g = gap(seg, md, solids, s);
                    prop_assert!(g >= -allowance - band, "missed: overlap {g:e} at s = {s}");
                }
            } else if g0 < -band && ap0.dist > 1e-9 * scale {
                // Overlapping with the segment outside the obstacle: None only when the motion separates.
                prop_assert!(
                    ml > 0.0 && rate0 >= -sliding,
                    "overlapping (gap {g0:e}), approaching (rate {rate0:e}), but None"
                );
            } else if ml == 0.0 && g0 <= 0.0 {
                prop_assert!(false, "touching with no motion, but None");
            }
        }
    }
    Ok(())
}

fn obstacle(kind: usize, seed: u64) -> Obs {
    Obs::random(kind, &mut Rng::new(seed))
}

fn target_of(obs: &Obs) -> Vec3 {
    let (pts, _) = obs.extent_points();
    pts.iter().copied().sum::<Vec3>() / pts.len() as f32
}

proptest! {
    #![proptest_config(config(1500))]

    #[test]
    fn capsule_sweeps_never_overlap_before_t_touch_at_t_and_miss_only_when_clear(
        kind in 0usize..8, seed in any::<u64>(), cap in capsule(), pick in any::<u8>(), k in 0.2f32..2.5,
        noise in v3(1.0),
    ) {
        let obs = obstacle(kind, seed);
        let m = motion(cap, target_of(&obs), pick, k, noise);
        let toi = obs.sweep(&cap, m);
        let (seg, md, solid) = frame(&cap, m, &obs);
        let scale = scale_of(&cap, m, &obs);
        let world = [obs.solid()];
        check_sweep(&cap, m, &seg, md, &[solid], &world, scale, toi)?;
    }

    #[test]
    fn capsule_resting_on_a_face_sweeps_along_it_touching(
        kind in 0usize..8, seed in any::<u64>(), r in 0.02f32..2.0, len in 0.0f32..3.0, pick in 0u8..4,
        speed in 0.01f32..4.0, lift in prop_oneof![Just(0.0f32), -1e-6f32..1e-6, 0.0f32..1e-3],
    ) {
        // A capsule put on a surface point at its radius (exactly, or a hair off), along the surface, moving
        // along it, into it, away, or at a millionth of a slope.
        let obs = obstacle(kind, seed);
        let mut rng = Rng::new(seed ^ 0x5EED);
        let f = obs.feature(&mut rng);
        let c = f.point + f.normal * (r + lift);
        let cap = Capsule::new(c - f.along * len * 0.5, c + f.along * len * 0.5, r);
        let side = f.normal.cross(f.along).normalize_or(f.along);
        let m = match pick {
            0 => f.along * speed,
            1 => (side + f.normal * 1e-6) * speed,
            2 => -f.normal * speed,
            _ => (side - f.normal * 1e-6) * speed,
        };
        let toi = obs.sweep(&cap, m);
        let (seg, md, solid) = frame(&cap, m, &obs);
        let scale = scale_of(&cap, m, &obs);
        check_sweep(&cap, m, &seg, md, &[solid], &[obs.solid()], scale, toi)?;
    }

    #[test]
    fn capsule_overlap_is_the_sweeps_start(
        kind in 0usize..8, seed in any::<u64>(), cap in capsule(), pick in any::<u8>(), k in 0.2f32..2.5,
        noise in v3(1.0),
    ) {
        let obs = obstacle(kind, seed);
        let m = motion(cap, target_of(&obs), pick, k, noise);
        let now = obs.overlap(&cap);
        prop_assert_eq!(now, obs.sweep(&cap, Vec3::ZERO).is_some(), "overlap vs the zero-motion sweep");
        match obs.sweep(&cap, m) {
            Some(h) if now => prop_assert_eq!(h.t, 0.0, "touching at the start, yet t > 0"),
            Some(h) => prop_assert!(h.t > 0.0, "apart at the start, yet t = 0: {:?}", h),
            None => {}
        }
    }
}

// ------------------------------------------------------------------------------------------------------------
// Meshes.
// ------------------------------------------------------------------------------------------------------------

/// A small mesh: a terrain patch, or an octahedron (closed).
fn small_mesh(seed: u64) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    if seed.is_multiple_of(2) {
        collidoscope::generate::terrain(50, 12.0, seed)
    } else {
        let s = 2.0 + (seed % 7) as f32;
        let v = vec![
            Vec3::X * s,
            -Vec3::X * s,
            Vec3::Y * s,
            -Vec3::Y * s,
            Vec3::Z * s,
            -Vec3::Z * s,
        ];
        let i = vec![
            [0, 2, 4],
            [2, 1, 4],
            [1, 3, 4],
            [3, 0, 4],
            [2, 0, 5],
            [1, 2, 5],
            [3, 1, 5],
            [0, 3, 5],
        ];
        (v, i)
    }
}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn mesh_capsule_sweep_never_overlaps_before_t(
        seed in any::<u64>(), cap in capsule(), pick in any::<u8>(), k in 0.2f32..2.5, noise in v3(1.0),
    ) {
        let (v, idx) = small_mesh(seed);
        let mesh = TriMesh::new(v.clone(), idx.clone()).unwrap();
        let tris: Vec<Triangle> = idx
            .iter()
            .map(|t| Triangle::new(v[t[0] as usize], v[t[1] as usize], v[t[2] as usize]))
            .collect();
        let solids: Vec<Solid> = tris.iter().map(Solid::triangle).collect();
        let m = motion(cap, Vec3::ZERO, pick, k, noise);
        let seg = Seg::of(&cap);
        let md = d(m);
        let scale = 30.0f64.max(f64::from(cap.a.abs().max_element().max(cap.b.abs().max_element())));
        let starts_on = gap(&seg, md, &solids, 0.0) <= 1e-9 * scale;
        let got = mesh.sweep_capsule(&cap, m);
        prop_assert_eq!(mesh.overlaps_capsule(&cap), tris.iter().any(|t| overlap::capsule_triangle(&cap, t)));
        if let Some((h, k)) = got {
            // The triangle named is the one hit, at that time.
            prop_assert_eq!(sweep::capsule_triangle(&cap, m, &tris[k as usize]), Some(h));
        }
        if !starts_on {
            // Apart from every triangle at the start: the mesh is a plain obstacle for the checks (a triangle the
            // capsule starts on and leaves does not stop it, by convention, so those starts are left out).
            check_sweep(&cap, m, &seg, md, &solids, &solids, scale, got.map(|(h, _)| h))?;
        }
    }
}

// ------------------------------------------------------------------------------------------------------------
// A capsule with a == b is a sphere; an oriented box turned by nothing is an axis-aligned box.
// ------------------------------------------------------------------------------------------------------------

/// The sphere queries' answer for the obstacle (the sphere sweep of the same kind).
fn sphere_sweep(s: &Sphere, m: Vec3, obs: &Obs) -> Option<Toi> {
    match obs {
        Obs::Sphere(o) => sweep::sphere_sphere(s, m, o, Vec3::ZERO),
        Obs::Aabb(b) => sweep::sphere_aabb(s, m, b),
        Obs::Obb(o, _) => sweep::sphere_obb(s, m, o),
        Obs::Plane(p) => sweep::sphere_plane(s, m, p),
        Obs::Triangle(t) => sweep::sphere_triangle(s, m, t),
        // A capsule with a == b too: two spheres.
        Obs::Capsule(c) => sweep::sphere_sphere(s, m, &Sphere::new(c.a, c.radius), Vec3::ZERO),
        Obs::Cylinder(c) => sweep::sphere_cylinder(s, m, c),
        Obs::Wall(w, h) => sweep::sphere_wall(s, m, w, *h),
    }
}

fn sphere_overlap(s: &Sphere, obs: &Obs) -> bool {
    match obs {
        Obs::Sphere(o) => overlap::sphere_sphere(s, o),
        Obs::Aabb(b) => overlap::sphere_aabb(s, b),
        Obs::Obb(o, _) => overlap::sphere_obb(s, o),
        Obs::Plane(p) => overlap::sphere_plane(s, p),
        Obs::Triangle(t) => overlap::sphere_triangle(s, t),
        Obs::Capsule(c) => overlap::sphere_sphere(s, &Sphere::new(c.a, c.radius)),
        Obs::Cylinder(c) => overlap::sphere_cylinder(s, c),
        Obs::Wall(w, h) => overlap::sphere_wall(s, w, *h),
    }
}

/// Two answers of the same sweep by two routes: both miss, or both hit within the allowance with the same
/// normal; a hit against a miss only within the rounding band (the closest approach within `band` of
/// touching); `t = 0` agrees with `t = 0`.
fn same_sweep(
    a: Option<Toi>,
    b: Option<Toi>,
    m: Vec3,
    fmin: f64,
    band: f64,
) -> Result<(), TestCaseError> {
    let allowance = 1e-5 * (1.0 + f64::from(m.length()));
    match (a, b) {
        (None, None) => {}
        (Some(x), Some(y)) => {
            let err = (f64::from(x.t) - f64::from(y.t)).abs() * f64::from(m.length());
            prop_assert!(
                err <= allowance || fmin.abs() <= band,
                "{x:?} vs {y:?}: |Δt|·|m| = {err:e}"
            );
            if err <= allowance && fmin < -band {
                prop_assert!(
                    (x.normal - y.normal).length() <= 2e-3,
                    "normals {:?} vs {:?}",
                    x.normal,
                    y.normal
                );
            }
        }
        (x, y) => prop_assert!(
            fmin.abs() <= band,
            "{x:?} vs {y:?} (closest approach {fmin:e})"
        ),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn capsule_with_a_equal_b_is_a_sphere(
        kind in 0usize..8, seed in any::<u64>(), c in v3(12.0), r in 0.02f32..3.0, pick in any::<u8>(),
        k in 0.2f32..2.5, noise in v3(1.0),
    ) {
        let mut obs = obstacle(kind, seed);
        if let Obs::Capsule(o) = &mut obs {
            o.b = o.a;
        }
        let cap = Capsule::new(c, c, r);
        let s = Sphere::new(c, r);
        let m = motion(cap, target_of(&obs), pick, k, noise);
        let (seg, md, solid) = frame(&cap, m, &obs);
        let scale = scale_of(&cap, m, &obs);
        let band = 1e-7 * scale;
        let rf = referee::first_root(&|t| referee::seg_gap_at(&seg, md, &solid, t));
        same_sweep(obs.sweep(&cap, m), sphere_sweep(&s, m, &obs), m, rf.fmin, band)?;
        let g0 = referee::seg_gap_at(&seg, md, &solid, 0.0);
        prop_assert!(
            obs.overlap(&cap) == sphere_overlap(&s, &obs) || g0.abs() <= band,
            "overlap {} vs the sphere's {} (gap {g0:e})", obs.overlap(&cap), sphere_overlap(&s, &obs)
        );
        // Rays and closest points against a capsule with a == b: the sphere's.
        let ray_ = Ray::new(c + noise * 10.0, -noise - Vec3::splat(0.01));
        let (x, y) = (ray::ray_capsule(&ray_, &cap, 50.0), ray::ray_sphere(&ray_, &s, 50.0));
        match (x, y) {
            (Some(x), Some(y)) => {
                prop_assert!((x.t - y.t).abs() * ray_.dir.length() <= 1e-5 * scale as f32, "{x:?} vs {y:?}");
                prop_assert!((x.normal - y.normal).length() <= 1e-3, "{x:?} vs {y:?}");
            }
            (None, None) => {}
            (x, y) => {
                let o = d(ray_.origin);
                let dd = d(ray_.dir);
                let rr = referee::ray_capsule(o, dd, d(c), d(c), f64::from(r), 50.0);
                prop_assert!(rr.fmin.abs() <= band, "{x:?} vs {y:?}");
            }
        }
        let p = c + noise * 4.0;
        let (x, y) = (closest::point_capsule(p, &cap), closest::point_sphere(p, &s));
        prop_assert!((x - y).length() <= 4e-7 * scale as f32, "{x} vs {y}");
    }

    #[test]
    fn capsule_obb_turned_by_nothing_is_capsule_aabb(
        c in v3(10.0), h in v3(4.0), cap in capsule(), pick in any::<u8>(), k in 0.2f32..2.5,
        noise in v3(1.0),
    ) {
        // Centre and half extents on a 1/1024 grid, so min and max are exactly centre ∓ half.
        let q = |v: Vec3| (v * 1024.0).round() / 1024.0;
        let (c, h) = (q(c), q(h.abs()) + Vec3::splat(1.0 / 1024.0));
        let b = Aabb::new(c - h, c + h);
        let o = Obb::new(c, h, Mat3::IDENTITY);
        let m = motion(cap, c, pick, k, noise);
        prop_assert_eq!(overlap::capsule_aabb(&cap, &b), overlap::capsule_obb(&cap, &o));
        let obs = Obs::Aabb(b);
        let (seg, md, solid) = frame(&cap, m, &obs);
        let scale = scale_of(&cap, m, &obs);
        let rf = referee::first_root(&|t| referee::seg_gap_at(&seg, md, &solid, t));
        same_sweep(
            sweep::capsule_aabb(&cap, m, &b),
            sweep::capsule_obb(&cap, m, &o),
            m,
            rf.fmin,
            1e-9 * scale,
        )?;
    }
}

/// Touching exactly: a capsule resting on a box's top face, a wall's top and a floor plane, sliding along
/// them: t = 0 (touching, not leaving), the overlap test agrees, and with a hair of clearance it slides free.
#[test]
fn capsule_resting_exactly_on_a_face_touches_and_slides_free_a_hair_above() {
    use collidoscope::shape::{Plane, Wall};
    let top = Aabb::new(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.5, 5.0));
    let wall = Wall::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0), 3.0);
    let floor = Plane::new(Vec3::Y, 0.5);
    for r in [0.25f32, 0.3, 0.5] {
        let lying = Capsule::new(
            Vec3::new(-1.0, 0.5 + r, 0.0),
            Vec3::new(1.0, 0.5 + r, 0.0),
            r,
        );
        let m = Vec3::new(0.7, 0.0, 0.3);
        let t = sweep::capsule_aabb(&lying, m, &top).unwrap();
        assert_eq!((t.t, t.normal), (0.0, Vec3::Y));
        assert!(overlap::capsule_aabb(&lying, &top));
        let t = sweep::capsule_wall(&lying, m, &wall, 0.5).unwrap();
        assert_eq!((t.t, t.normal), (0.0, Vec3::Y));
        let t = sweep::capsule_plane(&lying, m, &floor).unwrap();
        assert_eq!((t.t, t.normal), (0.0, Vec3::Y));
        let above = lying.translated(Vec3::new(0.0, 1e-4, 0.0));
        assert!(sweep::capsule_aabb(&above, m, &top).is_none());
        assert!(sweep::capsule_wall(&above, m, &wall, 0.5).is_none());
        assert!(sweep::capsule_plane(&above, m, &floor).is_none());
        // Lifting off: None (the motion leaves).
        assert!(sweep::capsule_aabb(&lying, Vec3::Y, &top).is_none());
    }
    let _ = Solid::aabb(&top);
}

/// Coordinates of 1e7 and motions of 1e6 (f32 spacing 1 there): every sweep still meets the referee within
/// API.md's allowance, with finite answers, on every obstacle kind.
#[test]
fn capsule_sweeps_at_1e7_with_motions_of_1e6_meet_the_referee() {
    let mut rng = Rng::new(0x1E7);
    let mut hits = 0;
    for kind in 0..8 {
        for _ in 0..60 {
            let far = Vec3::new(1e7, if kind == 7 { 0.0 } else { -1e7 }, 2e7);
            let obs = Obs::random(kind, &mut rng).transformed(1.0, far);
            if !obs.is_valid() {
                // Rounded to a degenerate shape at f32's spacing of 1 (a short cylinder's axis, a small triangle).
                assert!(obs.sweep(&Capsule::new(far, far, 1.0), Vec3::X).is_none());
                continue;
            }
            let target = target_of(&obs);
            let dir = Vec3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5)
                .normalize_or(Vec3::X);
            let c0 = target - dir * 1e6;
            let cap = Capsule::new(c0, c0 + Vec3::new(0.0, 1.5, 0.0), 0.5 + 2.0 * rng.unit());
            let m = dir * 2e6 + Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 4.0;
            let toi = obs.sweep(&cap, m);
            let (seg, md, solid) = frame(&cap, m, &obs);
            let rf = referee::first_root(&|t| referee::seg_gap_at(&seg, md, &solid, t));
            let allowance = 1e-5 * (1.0 + f64::from(m.length()));
            match (toi, rf.t) {
                (Some(h), Some(t)) => {
                    hits += 1;
                    assert!(
                        h.point.is_finite() && (h.normal.length() - 1.0).abs() < 1e-5,
                        "{h:?}"
                    );
                    let err = (f64::from(h.t) - t).abs() * md.length();
                    assert!(err <= allowance, "{obs:?}: {h:?} vs {t} ({err})");
                    let off = obs.solid().boundary_distance(d(h.point));
                    assert!(
                        off <= 1e-3 * (1.0 + f64::from(m.length())),
                        "{obs:?}: {h:?} is {off} off"
                    );
                }
                (None, None) => {}
                (x, y) => assert!(
                    rf.fmin.abs() <= 1e-6 * 3e7,
                    "{obs:?} {cap:?} {m}: {x:?} vs {y:?} ({rf:?})"
                ),
            }
        }
    }
    assert!(hits > 300, "{hits} hits");
}
