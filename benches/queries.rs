//! Side-by-side criterion benchmarks: collidoscope against parry3d 0.31 on the same inputs.
//!
//! Every group benchmarks one query with two functions, `collidoscope` and `parry3d`. Both run over the same
//! batch of [`CASES`] pre-generated cases (a seeded SplitMix64 PRNG, so every run sees the same inputs); the
//! shapes are built once, outside the timed loop, in each library's own representation (parry's poses are
//! quaternions, collidoscope's OBBs carry a `Mat3`). One iteration runs the whole batch; each result goes
//! through `std::hint::black_box` and the hits are counted, so nothing is optimised out. Before timing, each
//! group prints both hit counts on stderr: they should agree (up to boundary cases) and sit in the 30-70 %
//! range the generators are tuned for.
//!
//! Like-for-like choices (and the differences that remain):
//! - `moller_trumbore`: `moller_trumbore(&ray, &tri, Cull::None)` (t, u, v; no upper bound on `t`) against
//!   `Triangle::cast_local_ray_and_get_normal(&ray, f32::MAX, true)` (parry's only triangle ray cast; it also
//!   normalises the face normal, which Moller-Trumbore does not compute). Both are two-sided.
//! - `ray_aabb`: `ray_aabb` against parry's `Aabb::cast_local_ray_and_get_normal` on a world-space `Aabb`
//!   (`solid = true`). That is parry's fastest equivalent: a `Cuboid` with a translated pose goes through the
//!   same slab code after transforming the ray into the cuboid's frame.
//! - `ray_obb`: `ray_obb` against `Cuboid::cast_ray_and_get_normal` with a rotated, translated pose
//!   (`solid = true`; parry transforms the ray into the box frame and the normal back).
//! - `ray_sphere`: `ray_sphere` against `Ball::cast_local_ray_and_get_normal` on the ray translated into the
//!   ball's frame (`solid = true`), which skips the pose's quaternion work: parry's fastest equivalent.
//! - `obb_obb`: `overlap::obb_obb` against `parry3d::query::intersection_test(cuboid, cuboid)`, which includes
//!   parry's dynamic shape dispatch and the relative-pose computation (`pos1.inv_mul(pos2)`).
//! - `sweep_sphere_sphere` / `sweep_sphere_triangle`: `sweep::sphere_sphere` / `sweep::sphere_triangle`
//!   against `parry3d::query::cast_shapes` with `max_time_of_impact = 1` (motions are whole-step
//!   displacements, so parry's time of impact is our fraction of the motion) and `stop_at_penetration =
//!   false`, the closest match to our rule "overlapping at `t = 0` gives `t = 0` unless the motion separates
//!   them". parry only applies that separation check when its time of impact is below 1e-4, and its
//!   ball/triangle cast is GJK-based (iterative) where ours is closed-form. `cast_shapes` also includes the
//!   dynamic dispatch.
//! - Capsule groups (`sweep_capsule_*`, `overlap_capsule_*`, `mesh_sweep_capsule*`): `sweep::capsule_*`,
//!   `overlap::capsule_*` and `TriMesh::sweep_capsule` against `cast_shapes` / `intersection_test` with a
//!   `parry3d::shape::Capsule` posed at the capsule's middle (its segment in that frame), the same options as
//!   the sphere sweeps, and a `parry3d::shape::TriMesh` built from the same vertices. parry's capsule casts
//!   are GJK (iterative, in f32); ours are the earliest of the feature pairs' closed forms in f64. The `_floor`
//!   and `_near` groups are the character controller's common case: an upright character-sized capsule moving
//!   a few centimetres over a floor it rests on (with its end sphere) or clears by a little.
//! - All rays share `MAX_T`; ray directions are deliberately not unit length (both libraries report `t` in
//!   units of `dir`). collidoscope's `RayHit` also carries the hit `point`, which parry leaves to the caller,
//!   and every collidoscope query checks its shapes' validity first (finite numbers, orthonormal rotation,
//!   non-degenerate triangle); parry assumes valid input.
//!
//! Timing: 0.5 s warm-up and 2 s measurement per function, 50 samples, so the suite takes a minute or two.
//! `cargo bench --bench queries -- --quick` is faster still; `python3 benches/ratios.py --per-case 1024`
//! prints the comparison table (ns per query, parry3d / collidoscope) from the last run.

use std::hint::black_box;
use std::time::Duration;

use collidoscope::glam::{Mat3, Quat, Vec3};
use collidoscope::mesh::TriMesh;
use collidoscope::query::Cull;
use collidoscope::query::overlap::obb_obb;
use collidoscope::query::overlap::{
    capsule_aabb as overlap_capsule_aabb, capsule_triangle as overlap_capsule_triangle,
};
use collidoscope::query::ray::{ray_aabb, ray_obb, ray_sphere};
use collidoscope::query::sweep::{
    capsule_aabb, capsule_capsule, capsule_cylinder, capsule_triangle, capsule_wall,
};
use collidoscope::query::sweep::{sphere_sphere, sphere_triangle};
use collidoscope::query::triangle::moller_trumbore;
use collidoscope::shape::{Aabb, Capsule, Cylinder, Obb, Ray, Sphere, Triangle, Wall};
use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use parry_glam::ToParry;
use parry3d::bounding_volume::Aabb as PAabb;
use parry3d::math::Pose;
use parry3d::query::{Ray as PRay, RayCast, ShapeCastOptions, cast_shapes, intersection_test};
use parry3d::shape::{
    Ball, Capsule as PCapsule, Compound, Cuboid, Cylinder as PCylinder, SharedShape,
    TriMesh as PTriMesh, Triangle as PTriangle,
};

// The runtime's glam is Bevy's, parry3d's another: the parry side's inputs are copied into its glam here,
// outside the timed loops.
#[path = "../tests/runtime/parry_glam.rs"]
mod parry_glam;

/// A vector in parry's glam.
type PVec3 = glam_parry::Vec3;

/// Cases per batch; one benchmark iteration runs all of them.
const CASES: usize = 1024;
/// The `max_t` given to every ray cast, in units of the ray's `dir`.
const MAX_T: f32 = 10.0;
/// PRNG seed shared by all groups (each group derives its own stream from it).
const SEED: u64 = 0x00C0_111D_05C0_9E00;

/// SplitMix64 (Steele, Lea and Flood): tiny, seeded, deterministic.
struct SplitMix64(u64);

impl SplitMix64 {
    fn new(stream: u64) -> Self {
        Self(SEED ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03))
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)` with 24 random bits.
    fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    fn vec3(&mut self, lo: f32, hi: f32) -> Vec3 {
        Vec3::new(self.range(lo, hi), self.range(lo, hi), self.range(lo, hi))
    }

    /// Uniform on the unit sphere (rejection sampling in the unit ball).
    fn direction(&mut self) -> Vec3 {
        loop {
            let v = self.vec3(-1.0, 1.0);
            let len2 = v.length_squared();
            if len2 > 1e-4 && len2 <= 1.0 {
                return v / len2.sqrt();
            }
        }
    }

    /// Uniform random rotation (Shoemake's method).
    fn rotation(&mut self) -> Quat {
        let (u1, u2, u3) = (self.unit(), self.unit(), self.unit());
        let tau = std::f32::consts::TAU;
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        Quat::from_xyzw(
            a * (tau * u2).sin(),
            a * (tau * u2).cos(),
            b * (tau * u3).sin(),
            b * (tau * u3).cos(),
        )
        .normalize()
    }

    /// A ray starting `dist_lo..dist_hi` away from `target`, aimed at a point within `spread` of it, with a
    /// non-unit direction (length 0.5..2).
    fn aimed_ray(&mut self, target: Vec3, spread: f32, dist_lo: f32, dist_hi: f32) -> Ray {
        let origin = target + self.direction() * self.range(dist_lo, dist_hi);
        let aim = target + self.vec3(-spread, spread);
        let dir = (aim - origin).normalize() * self.range(0.5, 2.0);
        Ray { origin, dir }
    }

    /// A triangle with vertices in the cube `center ± 1`, never close to degenerate.
    fn triangle(&mut self, center: Vec3) -> Triangle {
        loop {
            let a = center + self.vec3(-1.0, 1.0);
            let b = center + self.vec3(-1.0, 1.0);
            let c = center + self.vec3(-1.0, 1.0);
            if (b - a).cross(c - a).length() > 0.05 {
                return Triangle { a, b, c };
            }
        }
    }
}

/// What counts as a hit for the counts printed before each group.
trait Outcome {
    fn hit(&self) -> bool;
}

impl<T> Outcome for Option<T> {
    fn hit(&self) -> bool {
        self.is_some()
    }
}

impl Outcome for bool {
    fn hit(&self) -> bool {
        *self
    }
}

/// Runs `query` over the whole batch; every result goes through `black_box`. Returns the number of hits.
#[inline]
fn run_batch<T, R: Outcome>(cases: &[T], query: &impl Fn(&T) -> R) -> usize {
    let mut hits = 0usize;
    for case in black_box(cases) {
        let result = black_box(query(black_box(case)));
        hits += usize::from(result.hit());
    }
    hits
}

/// One criterion group named `group` with the functions `collidoscope` and `parry3d`.
fn compare<T, U, R: Outcome, S: Outcome>(
    c: &mut Criterion,
    group: &str,
    sampling: SamplingMode,
    ours: (&[T], impl Fn(&T) -> R),
    theirs: (&[U], impl Fn(&U) -> S),
) {
    let (our_cases, our_query) = ours;
    let (their_cases, their_query) = theirs;
    assert_eq!(
        our_cases.len(),
        their_cases.len(),
        "{group}: batches differ"
    );
    eprintln!(
        "{group}: hits over {} cases: collidoscope {}, parry3d {}",
        our_cases.len(),
        run_batch(our_cases, &our_query),
        run_batch(their_cases, &their_query),
    );
    let mut g = c.benchmark_group(group);
    g.sampling_mode(sampling);
    g.bench_function("collidoscope", |b| {
        b.iter(|| black_box(run_batch(our_cases, &our_query)));
    });
    g.bench_function("parry3d", |b| {
        b.iter(|| black_box(run_batch(their_cases, &their_query)));
    });
    g.finish();
}

fn p_ray(ray: &Ray) -> PRay {
    PRay::new(ray.origin.p(), ray.dir.p())
}

fn p_triangle(tri: &Triangle) -> PTriangle {
    PTriangle::new(tri.a.p(), tri.b.p(), tri.c.p())
}

/// `stop_at_penetration = false`: see the module documentation.
fn sweep_options() -> ShapeCastOptions {
    ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: false,
        compute_impact_geometry_on_penetration: true,
    }
}

fn bench_moller_trumbore(c: &mut Criterion) {
    let mut rng = SplitMix64::new(1);
    let cases: Vec<(Ray, Triangle)> = (0..CASES)
        .map(|_| {
            let tri = rng.triangle(Vec3::ZERO);
            let centroid = (tri.a + tri.b + tri.c) / 3.0;
            (rng.aimed_ray(centroid, 0.3, 2.0, 5.0), tri)
        })
        .collect();
    let parry: Vec<(PRay, PTriangle)> = cases
        .iter()
        .map(|(ray, tri)| (p_ray(ray), p_triangle(tri)))
        .collect();
    compare(
        c,
        "moller_trumbore",
        SamplingMode::Auto,
        (&cases, |(ray, tri): &(Ray, Triangle)| {
            moller_trumbore(ray, tri, Cull::None)
        }),
        (&parry, |(ray, tri): &(PRay, PTriangle)| {
            tri.cast_local_ray_and_get_normal(ray, f32::MAX, true)
        }),
    );
}

fn bench_ray_aabb(c: &mut Criterion) {
    let mut rng = SplitMix64::new(2);
    let cases: Vec<(Ray, Aabb)> = (0..CASES)
        .map(|_| {
            let center = rng.vec3(-2.0, 2.0);
            let half = rng.vec3(0.2, 1.5);
            let aabb = Aabb {
                min: center - half,
                max: center + half,
            };
            (rng.aimed_ray(center, 1.5, 1.0, 8.0), aabb)
        })
        .collect();
    let parry: Vec<(PRay, PAabb)> = cases
        .iter()
        .map(|(ray, aabb)| (p_ray(ray), PAabb::new(aabb.min.p(), aabb.max.p())))
        .collect();
    compare(
        c,
        "ray_aabb",
        SamplingMode::Auto,
        (&cases, |(ray, aabb): &(Ray, Aabb)| {
            ray_aabb(ray, aabb, MAX_T)
        }),
        (&parry, |(ray, aabb): &(PRay, PAabb)| {
            aabb.cast_local_ray_and_get_normal(ray, MAX_T, true)
        }),
    );
}

fn bench_ray_obb(c: &mut Criterion) {
    let mut rng = SplitMix64::new(3);
    let mut parry = Vec::with_capacity(CASES);
    let cases: Vec<(Ray, Obb)> = (0..CASES)
        .map(|_| {
            let center = rng.vec3(-2.0, 2.0);
            let half_extents = rng.vec3(0.2, 1.5);
            let rotation = rng.rotation();
            let obb = Obb {
                center,
                half_extents,
                rotation: Mat3::from_quat(rotation),
            };
            let ray = rng.aimed_ray(center, 1.6, 1.0, 8.0);
            parry.push((
                p_ray(&ray),
                Pose::from_parts(center.p(), rotation.p()),
                Cuboid::new(half_extents.p()),
            ));
            (ray, obb)
        })
        .collect();
    compare(
        c,
        "ray_obb",
        SamplingMode::Auto,
        (&cases, |(ray, obb): &(Ray, Obb)| ray_obb(ray, obb, MAX_T)),
        (&parry, |(ray, pose, cuboid): &(PRay, Pose, Cuboid)| {
            cuboid.cast_ray_and_get_normal(pose, ray, MAX_T, true)
        }),
    );
}

fn bench_ray_sphere(c: &mut Criterion) {
    let mut rng = SplitMix64::new(4);
    let cases: Vec<(Ray, Sphere)> = (0..CASES)
        .map(|_| {
            let center = rng.vec3(-2.0, 2.0);
            let radius = rng.range(0.3, 1.5);
            let sphere = Sphere { center, radius };
            (rng.aimed_ray(center, 1.2, 1.0, 8.0), sphere)
        })
        .collect();
    let parry: Vec<(PRay, PVec3, Ball)> = cases
        .iter()
        .map(|(ray, s)| (p_ray(ray), s.center.p(), Ball::new(s.radius)))
        .collect();
    compare(
        c,
        "ray_sphere",
        SamplingMode::Auto,
        (&cases, |(ray, sphere): &(Ray, Sphere)| {
            ray_sphere(ray, sphere, MAX_T)
        }),
        (&parry, |(ray, center, ball): &(PRay, PVec3, Ball)| {
            let local = PRay::new(ray.origin - *center, ray.dir);
            ball.cast_local_ray_and_get_normal(&local, MAX_T, true)
        }),
    );
}

/// A box at `center` with a random rotation, in both libraries' representations.
fn random_obb(rng: &mut SplitMix64, center: Vec3) -> (Obb, Pose, Cuboid) {
    let half_extents = rng.vec3(0.2, 1.0);
    let rotation = rng.rotation();
    let obb = Obb {
        center,
        half_extents,
        rotation: Mat3::from_quat(rotation),
    };
    (
        obb,
        Pose::from_parts(center.p(), rotation.p()),
        Cuboid::new(half_extents.p()),
    )
}

fn bench_obb_obb(c: &mut Criterion) {
    let mut rng = SplitMix64::new(5);
    let mut parry = Vec::with_capacity(CASES);
    let cases: Vec<(Obb, Obb)> = (0..CASES)
        .map(|_| {
            let (a, pose_a, cuboid_a) = random_obb(&mut rng, Vec3::ZERO);
            let offset = rng.direction() * rng.range(0.0, 2.9);
            let (b, pose_b, cuboid_b) = random_obb(&mut rng, offset);
            parry.push((pose_a, cuboid_a, pose_b, cuboid_b));
            (a, b)
        })
        .collect();
    compare(
        c,
        "obb_obb",
        SamplingMode::Auto,
        (&cases, |(a, b): &(Obb, Obb)| obb_obb(a, b)),
        (
            &parry,
            |(pose_a, a, pose_b, b): &(Pose, Cuboid, Pose, Cuboid)| {
                intersection_test(pose_a, a, pose_b, b).is_ok_and(|i| i.intersecting)
            },
        ),
    );
}

fn bench_sweep_sphere_sphere(c: &mut Criterion) {
    let mut rng = SplitMix64::new(6);
    let cases: Vec<(Sphere, Vec3, Sphere, Vec3)> = (0..CASES)
        .map(|_| {
            let a = Sphere {
                center: rng.vec3(-0.5, 0.5),
                radius: rng.range(0.2, 1.0),
            };
            let b = Sphere {
                center: rng.direction() * rng.range(2.0, 5.0),
                radius: rng.range(0.2, 1.0),
            };
            let aim = b.center + rng.vec3(-1.0, 1.0);
            let motion_a = (aim - a.center).normalize() * rng.range(1.0, 5.0);
            let motion_b = rng.vec3(-1.0, 1.0);
            (a, motion_a, b, motion_b)
        })
        .collect();
    let parry: Vec<(Pose, PVec3, Ball, Pose, PVec3, Ball)> = cases
        .iter()
        .map(|(a, ma, b, mb)| {
            (
                Pose::from_translation(a.center.p()),
                ma.p(),
                Ball::new(a.radius),
                Pose::from_translation(b.center.p()),
                mb.p(),
                Ball::new(b.radius),
            )
        })
        .collect();
    compare(
        c,
        "sweep_sphere_sphere",
        SamplingMode::Auto,
        (&cases, |(a, ma, b, mb): &(Sphere, Vec3, Sphere, Vec3)| {
            sphere_sphere(a, *ma, b, *mb)
        }),
        (
            &parry,
            |(pa, ma, a, pb, mb, b): &(Pose, PVec3, Ball, Pose, PVec3, Ball)| {
                cast_shapes(pa, *ma, a, pb, *mb, b, sweep_options())
                    .ok()
                    .flatten()
            },
        ),
    );
}

fn bench_sweep_sphere_triangle(c: &mut Criterion) {
    let mut rng = SplitMix64::new(7);
    let cases: Vec<(Sphere, Vec3, Triangle)> = (0..CASES)
        .map(|_| {
            let tri = rng.triangle(Vec3::ZERO);
            let sphere = Sphere {
                center: rng.direction() * rng.range(2.0, 4.0),
                radius: rng.range(0.1, 0.6),
            };
            let aim = rng.vec3(-0.5, 0.5);
            let motion = (aim - sphere.center) * rng.range(0.6, 1.6);
            (sphere, motion, tri)
        })
        .collect();
    let parry: Vec<(Pose, PVec3, Ball, PTriangle)> = cases
        .iter()
        .map(|(s, m, tri)| {
            (
                Pose::from_translation(s.center.p()),
                m.p(),
                Ball::new(s.radius),
                p_triangle(tri),
            )
        })
        .collect();
    let identity = Pose::IDENTITY;
    compare(
        c,
        "sweep_sphere_triangle",
        // parry's GJK cast takes milliseconds per batch: linear sampling would overrun the 2 s target.
        SamplingMode::Flat,
        (&cases, |(s, m, tri): &(Sphere, Vec3, Triangle)| {
            sphere_triangle(s, *m, tri)
        }),
        (
            &parry,
            move |(ps, m, ball, tri): &(Pose, PVec3, Ball, PTriangle)| {
                cast_shapes(ps, *m, ball, &identity, PVec3::ZERO, tri, sweep_options())
                    .ok()
                    .flatten()
            },
        ),
    );
}

/// A capsule in parry's terms: its segment about its middle, posed there.
fn p_capsule(c: &Capsule) -> (Pose, PCapsule) {
    let mid = (c.a + c.b) * 0.5;
    (
        Pose::from_translation(mid.p()),
        PCapsule::new((c.a - mid).p(), (c.b - mid).p(), c.radius),
    )
}

/// A capsule of random orientation about `center`: radius 0.1..0.4, segment 0.3..1.5 long.
fn random_capsule(rng: &mut SplitMix64, center: Vec3) -> Capsule {
    let half = rng.direction() * rng.range(0.15, 0.75);
    Capsule::new(center - half, center + half, rng.range(0.1, 0.4))
}

/// A character-sized upright capsule (radius 0.3, 1.8 tall) with its feet at `feet`.
fn character(feet: Vec3) -> Capsule {
    Capsule::new(feet + Vec3::Y * 0.3, feet + Vec3::Y * 1.5, 0.3)
}

/// A character's step over a floor at `y = 0`: the feet resting on it (exactly, as after a snap) or a
/// little above, a few centimetres of horizontal motion and a little gravity.
fn floor_step(rng: &mut SplitMix64, span: f32) -> (Capsule, Vec3) {
    let lift = match (rng.next_u64() % 3) as u32 {
        0 => 0.0,
        1 => rng.range(0.0, 0.01),
        _ => rng.range(0.01, 0.1),
    };
    let feet = Vec3::new(rng.range(-span, span), lift, rng.range(-span, span));
    let m = Vec3::new(
        rng.range(-0.05, 0.05),
        -rng.range(0.0, 0.02),
        rng.range(-0.05, 0.05),
    );
    (character(feet), m)
}

fn bench_sweep_capsule_triangle(c: &mut Criterion) {
    let mut rng = SplitMix64::new(8);
    let cases: Vec<(Capsule, Vec3, Triangle)> = (0..CASES)
        .map(|_| {
            let tri = rng.triangle(Vec3::ZERO);
            let c = rng.direction() * 2.5;
            let cap = random_capsule(&mut rng, c);
            let mid = (cap.a + cap.b) * 0.5;
            let aim = rng.vec3(-0.8, 0.8);
            (cap, (aim - mid) * rng.range(0.6, 1.6), tri)
        })
        .collect();
    sweep_capsule_triangle_group(c, "sweep_capsule_triangle", &cases);
    // The common case: a floor triangle under a character moving a few centimetres.
    let cases: Vec<(Capsule, Vec3, Triangle)> = (0..CASES)
        .map(|_| {
            let (cap, m) = floor_step(&mut rng, 0.5);
            let c = Vec3::new(rng.range(-0.5, 0.5), 0.0, rng.range(-0.5, 0.5));
            let (a, b) = (rng.range(0.3, 1.0), rng.range(0.3, 1.0));
            let tri = Triangle::new(
                c + Vec3::new(-a, 0.0, -b),
                c + Vec3::new(0.0, 0.0, b),
                c + Vec3::new(a, 0.0, -b),
            );
            (cap, m, tri)
        })
        .collect();
    sweep_capsule_triangle_group(c, "sweep_capsule_triangle_floor", &cases);
}

fn sweep_capsule_triangle_group(
    c: &mut Criterion,
    name: &str,
    cases: &[(Capsule, Vec3, Triangle)],
) {
    let parry: Vec<(Pose, PCapsule, PVec3, PTriangle)> = cases
        .iter()
        .map(|(cap, m, tri)| {
            let (pose, pc) = p_capsule(cap);
            (pose, pc, m.p(), p_triangle(tri))
        })
        .collect();
    let identity = Pose::IDENTITY;
    compare(
        c,
        name,
        SamplingMode::Flat,
        (cases, |(cap, m, tri): &(Capsule, Vec3, Triangle)| {
            capsule_triangle(cap, *m, tri)
        }),
        (
            &parry,
            move |(pose, cap, m, tri): &(Pose, PCapsule, PVec3, PTriangle)| {
                cast_shapes(pose, *m, cap, &identity, PVec3::ZERO, tri, sweep_options())
                    .ok()
                    .flatten()
            },
        ),
    );
}

fn bench_sweep_capsule_aabb(c: &mut Criterion) {
    let mut rng = SplitMix64::new(9);
    let cases: Vec<(Capsule, Vec3, Aabb)> = (0..CASES)
        .map(|_| {
            let half = rng.vec3(0.2, 1.0);
            let aabb = Aabb::new(-half, half);
            let c = rng.direction() * rng.range(2.0, 3.5);
            let cap = random_capsule(&mut rng, c);
            let mid = (cap.a + cap.b) * 0.5;
            let aim = rng.vec3(-1.0, 1.0);
            (cap, (aim - mid) * rng.range(0.6, 1.6), aabb)
        })
        .collect();
    sweep_capsule_aabb_group(c, "sweep_capsule_aabb", &cases);
    // The common case: a floor box (top at y = 0) under a character moving a few centimetres.
    let cases: Vec<(Capsule, Vec3, Aabb)> = (0..CASES)
        .map(|_| {
            let (cap, m) = floor_step(&mut rng, 1.0);
            let c = Vec3::new(rng.range(-1.0, 1.0), -0.25, rng.range(-1.0, 1.0));
            let half = Vec3::new(rng.range(0.2, 1.0), 0.25, rng.range(0.2, 1.0));
            (cap, m, Aabb::new(c - half, c + half))
        })
        .collect();
    sweep_capsule_aabb_group(c, "sweep_capsule_aabb_floor", &cases);
}

fn sweep_capsule_aabb_group(c: &mut Criterion, name: &str, cases: &[(Capsule, Vec3, Aabb)]) {
    let parry: Vec<(Pose, PCapsule, PVec3, Pose, Cuboid)> = cases
        .iter()
        .map(|(cap, m, b)| {
            let (pose, pc) = p_capsule(cap);
            (
                pose,
                pc,
                m.p(),
                Pose::from_translation(((b.min + b.max) * 0.5).p()),
                Cuboid::new(((b.max - b.min) * 0.5).p()),
            )
        })
        .collect();
    compare(
        c,
        name,
        SamplingMode::Flat,
        (cases, |(cap, m, b): &(Capsule, Vec3, Aabb)| {
            capsule_aabb(cap, *m, b)
        }),
        (
            &parry,
            |(pose, cap, m, bp, b): &(Pose, PCapsule, PVec3, Pose, Cuboid)| {
                cast_shapes(pose, *m, cap, bp, PVec3::ZERO, b, sweep_options())
                    .ok()
                    .flatten()
            },
        ),
    );
}

fn bench_sweep_capsule_capsule(c: &mut Criterion) {
    let mut rng = SplitMix64::new(10);
    let cases: Vec<(Capsule, Vec3, Capsule)> = (0..CASES)
        .map(|_| {
            let other = random_capsule(&mut rng, Vec3::ZERO);
            let c = rng.direction() * rng.range(2.0, 3.5);
            let cap = random_capsule(&mut rng, c);
            let mid = (cap.a + cap.b) * 0.5;
            let aim = rng.vec3(-0.7, 0.7);
            (cap, (aim - mid) * rng.range(0.6, 1.6), other)
        })
        .collect();
    let parry: Vec<(Pose, PCapsule, PVec3, Pose, PCapsule)> = cases
        .iter()
        .map(|(cap, m, o)| {
            let (pose, pc) = p_capsule(cap);
            let (po, oc) = p_capsule(o);
            (pose, pc, m.p(), po, oc)
        })
        .collect();
    compare(
        c,
        "sweep_capsule_capsule",
        SamplingMode::Flat,
        (&cases, |(cap, m, o): &(Capsule, Vec3, Capsule)| {
            capsule_capsule(cap, *m, o)
        }),
        (
            &parry,
            |(pose, cap, m, po, o): &(Pose, PCapsule, PVec3, Pose, PCapsule)| {
                cast_shapes(pose, *m, cap, po, PVec3::ZERO, o, sweep_options())
                    .ok()
                    .flatten()
            },
        ),
    );
}

fn bench_overlap_capsule(c: &mut Criterion) {
    let mut rng = SplitMix64::new(11);
    let cases: Vec<(Capsule, Triangle)> = (0..CASES)
        .map(|_| {
            let tri = rng.triangle(Vec3::ZERO);
            let c = rng.direction() * rng.range(0.0, 1.6);
            (random_capsule(&mut rng, c), tri)
        })
        .collect();
    let parry: Vec<(Pose, PCapsule, PTriangle)> = cases
        .iter()
        .map(|(cap, tri)| {
            let (pose, pc) = p_capsule(cap);
            (pose, pc, p_triangle(tri))
        })
        .collect();
    let identity = Pose::IDENTITY;
    compare(
        c,
        "overlap_capsule_triangle",
        SamplingMode::Auto,
        (&cases, |(cap, tri): &(Capsule, Triangle)| {
            overlap_capsule_triangle(cap, tri)
        }),
        (
            &parry,
            move |(pose, cap, tri): &(Pose, PCapsule, PTriangle)| {
                intersection_test(pose, cap, &identity, tri).is_ok_and(|i| i.intersecting)
            },
        ),
    );
    let cases: Vec<(Capsule, Aabb)> = (0..CASES)
        .map(|_| {
            let half = rng.vec3(0.2, 1.0);
            let c = rng.direction() * rng.range(0.0, 2.0);
            (random_capsule(&mut rng, c), Aabb::new(-half, half))
        })
        .collect();
    let parry: Vec<(Pose, PCapsule, Cuboid)> = cases
        .iter()
        .map(|(cap, b)| {
            let (pose, pc) = p_capsule(cap);
            (pose, pc, Cuboid::new(b.max.p()))
        })
        .collect();
    compare(
        c,
        "overlap_capsule_aabb",
        SamplingMode::Auto,
        (&cases, |(cap, b): &(Capsule, Aabb)| {
            overlap_capsule_aabb(cap, b)
        }),
        (&parry, move |(pose, cap, b): &(Pose, PCapsule, Cuboid)| {
            intersection_test(pose, cap, &identity, b).is_ok_and(|i| i.intersecting)
        }),
    );
}

fn bench_sweep_capsule_cylinder(c: &mut Criterion) {
    // Pillars (upright, radius 0.2..0.8, 1..3 high) and a character walking past or into them, or any capsule
    // flying at a tilted one.
    let mut rng = SplitMix64::new(13);
    let cases: Vec<(Capsule, Vec3, Cylinder)> = (0..CASES)
        .map(|_| {
            let (r, h) = (rng.range(0.2, 0.8), rng.range(1.0, 3.0));
            if rng.unit() < 0.5 {
                let cy = Cylinder::new(Vec3::ZERO, Vec3::Y * h, r);
                let dir = rng.direction();
                let feet =
                    Vec3::new(dir.x, 0.0, dir.z).normalize_or(Vec3::X) * (r + rng.range(0.3, 1.5));
                let aim = Vec3::new(rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0));
                (character(feet), (aim - feet) * rng.range(0.3, 1.2), cy)
            } else {
                let axis = rng.direction() * h * 0.5;
                let cy = Cylinder::new(-axis, axis, r);
                let c0 = rng.direction() * rng.range(2.0, 3.5);
                let cap = random_capsule(&mut rng, c0);
                let aim = rng.vec3(-1.0, 1.0);
                (cap, (aim - c0) * rng.range(0.6, 1.6), cy)
            }
        })
        .collect();
    let parry: Vec<(Pose, PCapsule, PVec3, Pose, PCylinder)> = cases
        .iter()
        .map(|(cap, m, cy)| {
            let (pose, pc) = p_capsule(cap);
            let axis = cy.b - cy.a;
            let q = Quat::from_rotation_arc(Vec3::Y, axis.normalize());
            (
                pose,
                pc,
                m.p(),
                Pose::from_parts(((cy.a + cy.b) * 0.5).p(), q.p()),
                PCylinder::new(axis.length() * 0.5, cy.radius),
            )
        })
        .collect();
    compare(
        c,
        "sweep_capsule_cylinder",
        SamplingMode::Flat,
        (&cases, |(cap, m, cy): &(Capsule, Vec3, Cylinder)| {
            capsule_cylinder(cap, *m, cy)
        }),
        (
            &parry,
            |(pose, cap, m, cp, cy): &(Pose, PCapsule, PVec3, Pose, PCylinder)| {
                cast_shapes(pose, *m, cap, cp, PVec3::ZERO, cy, sweep_options())
                    .ok()
                    .flatten()
            },
        ),
    );
}

fn bench_sweep_capsule_wall(c: &mut Criterion) {
    // A wall 2.5 high along x (0.1..0.3 thick, 2..8 long) and a character walking along it, into it or past its
    // end, a few centimetres to a metre per step (parry: a compound of its box core and two cylinder posts).
    let mut rng = SplitMix64::new(14);
    let cases: Vec<(Capsule, Vec3, Wall)> = (0..CASES)
        .map(|_| {
            let (len, wr) = (rng.range(2.0, 8.0), rng.range(0.1, 0.3));
            let wall = Wall::new(
                collidoscope::glam::Vec2::new(-len * 0.5, 0.0),
                collidoscope::glam::Vec2::new(len * 0.5, 0.0),
                wr,
            );
            let side = if rng.unit() < 0.5 { 1.0 } else { -1.0 };
            let feet = Vec3::new(
                rng.range(-len * 0.5 - 1.0, len * 0.5 + 1.0),
                0.0,
                side * (wr + 0.3 + rng.range(0.0, 0.6)),
            );
            let m = Vec3::new(rng.range(-1.0, 1.0), -0.01, -side * rng.range(0.0, 0.8));
            (character(feet), m, wall)
        })
        .collect();
    let parry: Vec<(Pose, PCapsule, PVec3, Compound)> = cases
        .iter()
        .map(|(cap, m, w)| {
            let (pose, pc) = p_capsule(cap);
            let h = 2.5;
            let len = (w.b - w.a).length();
            let parts = vec![
                (
                    Pose::from_translation(PVec3::new(0.0, h * 0.5, 0.0)),
                    SharedShape::cuboid(len * 0.5, h * 0.5, w.radius),
                ),
                (
                    Pose::from_translation(PVec3::new(w.a.x, h * 0.5, w.a.y)),
                    SharedShape::cylinder(h * 0.5, w.radius),
                ),
                (
                    Pose::from_translation(PVec3::new(w.b.x, h * 0.5, w.b.y)),
                    SharedShape::cylinder(h * 0.5, w.radius),
                ),
            ];
            (pose, pc, m.p(), Compound::new(parts))
        })
        .collect();
    let identity = Pose::IDENTITY;
    compare(
        c,
        "sweep_capsule_wall",
        SamplingMode::Flat,
        (&cases, |(cap, m, w): &(Capsule, Vec3, Wall)| {
            capsule_wall(cap, *m, w, 2.5)
        }),
        (
            &parry,
            move |(pose, cap, m, wall): &(Pose, PCapsule, PVec3, Compound)| {
                cast_shapes(pose, *m, cap, &identity, PVec3::ZERO, wall, sweep_options())
                    .ok()
                    .flatten()
            },
        ),
    );
}

fn bench_mesh_sweep_capsule(c: &mut Criterion) {
    // A floor of 20,000 triangles (a gentle terrain 40 m across); the character moves a few centimetres over
    // it (`_near`), or anywhere with larger motions.
    let (vertices, indices) = collidoscope::generate::terrain(20_000, 40.0, 12);
    let mesh = TriMesh::new(vertices.clone(), indices.clone()).expect("valid terrain");
    let pmesh =
        PTriMesh::new(vertices.iter().map(|v| v.p()).collect(), indices).expect("valid terrain");
    let height = |x: f32, z: f32| {
        mesh.cast_ray(&Ray::new(Vec3::new(x, 100.0, z), -Vec3::Y), 200.0)
            .map_or(0.0, |h| 100.0 - h.t)
    };
    let mut rng = SplitMix64::new(12);
    let near: Vec<(Capsule, Vec3)> = (0..CASES)
        .map(|_| {
            let (cap, m) = floor_step(&mut rng, 15.0);
            let ground = height(cap.a.x, cap.a.z);
            let up = Vec3::Y * (ground + rng.range(0.0, 0.05));
            (Capsule::new(cap.a + up, cap.b + up, cap.radius), m)
        })
        .collect();
    let far: Vec<(Capsule, Vec3)> = (0..CASES)
        .map(|_| {
            let (x, z) = (rng.range(-15.0, 15.0), rng.range(-15.0, 15.0));
            let cap = character(Vec3::new(x, height(x, z) + rng.range(0.0, 1.0), z));
            (
                cap,
                Vec3::new(
                    rng.range(-2.0, 2.0),
                    -rng.range(0.0, 1.5),
                    rng.range(-2.0, 2.0),
                ),
            )
        })
        .collect();
    for (name, cases) in [
        ("mesh_sweep_capsule_near", near),
        ("mesh_sweep_capsule", far),
    ] {
        let parry: Vec<(Pose, PCapsule, PVec3)> = cases
            .iter()
            .map(|(cap, m)| {
                let (pose, pc) = p_capsule(cap);
                (pose, pc, m.p())
            })
            .collect();
        let identity = Pose::IDENTITY;
        let (mesh, pmesh) = (&mesh, &pmesh);
        compare(
            c,
            name,
            SamplingMode::Flat,
            (&cases, move |(cap, m): &(Capsule, Vec3)| {
                mesh.sweep_capsule(cap, *m)
            }),
            (&parry, move |(pose, cap, m): &(Pose, PCapsule, PVec3)| {
                cast_shapes(
                    pose,
                    *m,
                    cap,
                    &identity,
                    PVec3::ZERO,
                    pmesh,
                    sweep_options(),
                )
                .ok()
                .flatten()
            }),
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50);
    targets = bench_moller_trumbore,
        bench_ray_aabb,
        bench_ray_obb,
        bench_ray_sphere,
        bench_obb_obb,
        bench_sweep_sphere_sphere,
        bench_sweep_sphere_triangle,
        bench_sweep_capsule_triangle,
        bench_sweep_capsule_aabb,
        bench_sweep_capsule_capsule,
        bench_overlap_capsule,
        bench_sweep_capsule_cylinder,
        bench_sweep_capsule_wall,
        bench_mesh_sweep_capsule
}
criterion_main!(benches);
