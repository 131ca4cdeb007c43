//! `Scene`: every whole-level query equals a brute-force loop over the objects' own queries, on random levels
//! and on every sample level; `WallGrid::move_and_slide` equals `walls::move_and_slide`. The capsule queries
//! too, with capsules touching objects to within rounding, tiny and huge ones, far from the origin and at
//! every scale.

#![allow(clippy::unwrap_used)]

use collidoscope::glam::{Vec2, Vec3};
use collidoscope::level::{
    AabbObject, CylinderObject, Level, MeshObject, ObbObject, ObjectId, PlaneObject,
    TriangleObject, WallObject,
};
use collidoscope::query::{overlap, ray, sweep};
use collidoscope::scene::{Scene, SceneHit, SceneToi};
use collidoscope::shape::{Capsule, Ray, Sphere, Wall};
use collidoscope::sim::Static;
use collidoscope::walls::{self, WallGrid};
use proptest::prelude::*;

/// A small deterministic generator (the tests' own, so the cases do not depend on proptest's shrinking).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
    fn v(&mut self, s: f32) -> Vec3 {
        Vec3::new(self.f(-s, s), self.f(-s, s), self.f(-s, s))
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random level with every kind of static object; ids shuffled so ties are decided by id, not order.
fn random_level(rng: &mut Rng, n: usize) -> Level {
    let mut level = Level {
        default_wall_height: 2.5,
        ..Level::default()
    };
    let mut ids: Vec<u32> = (1..=(n as u32 * 7 + 10)).collect();
    for i in (1..ids.len()).rev() {
        let j = rng.below(i + 1);
        ids.swap(i, j);
    }
    let mut next = ids.into_iter();
    let mut id = || ObjectId(next.next().unwrap());
    for _ in 0..n {
        let a = Vec2::new(rng.f(-20.0, 20.0), rng.f(-20.0, 20.0));
        let b = a + Vec2::new(rng.f(-6.0, 6.0), rng.f(-6.0, 6.0));
        let height = (rng.below(3) == 0).then(|| rng.f(0.5, 4.0));
        level.walls.push(WallObject {
            id: id(),
            name: None,
            a,
            b,
            radius: if rng.below(4) == 0 {
                0.0
            } else {
                rng.f(0.05, 0.6)
            },
            height,
            properties: Default::default(),
        });
        let c = rng.v(20.0);
        level.triangles.push(TriangleObject {
            id: id(),
            name: None,
            a: c + rng.v(3.0),
            b: c + rng.v(3.0),
            c: c + rng.v(3.0),
            properties: Default::default(),
            one_way: false,
        });
        let c = rng.v(20.0);
        let h = Vec3::new(rng.f(0.1, 3.0), rng.f(0.1, 3.0), rng.f(0.1, 3.0));
        level.aabbs.push(AabbObject {
            id: id(),
            name: None,
            min: c - h,
            max: c + h,
            properties: Default::default(),
            one_way: false,
        });
        level.obbs.push(ObbObject {
            id: id(),
            name: None,
            center: rng.v(20.0),
            half_extents: Vec3::new(rng.f(0.1, 3.0), rng.f(0.1, 3.0), rng.f(0.1, 3.0)),
            rotation_deg: Vec3::new(
                rng.f(-180.0, 180.0),
                rng.f(-90.0, 90.0),
                rng.f(-180.0, 180.0),
            ),
            properties: Default::default(),
            one_way: false,
        });
        let a = rng.v(20.0);
        level.cylinders.push(CylinderObject {
            id: id(),
            name: None,
            a,
            b: a + rng.v(4.0),
            radius: rng.f(0.1, 1.5),
            properties: Default::default(),
        });
    }
    for _ in 0..2 {
        let normal = rng.v(1.0).try_normalize().unwrap_or(Vec3::Y);
        level.planes.push(PlaneObject {
            id: id(),
            name: None,
            normal,
            d: rng.f(-25.0, 25.0),
            properties: Default::default(),
        });
    }
    // A small closed mesh (an octahedron) somewhere.
    let c = rng.v(15.0);
    let s = rng.f(0.5, 3.0);
    let vertices = vec![
        c + Vec3::X * s,
        c - Vec3::X * s,
        c + Vec3::Y * s,
        c - Vec3::Y * s,
        c + Vec3::Z * s,
        c - Vec3::Z * s,
    ];
    let indices = vec![
        [0, 2, 4],
        [2, 1, 4],
        [1, 3, 4],
        [3, 0, 4],
        [2, 0, 5],
        [1, 2, 5],
        [3, 1, 5],
        [0, 3, 5],
    ];
    level.meshes.push(MeshObject {
        id: id(),
        name: None,
        obj: None,
        vertices,
        indices,
        properties: Default::default(),
        one_way: false,
    });
    level
}

/// The level's statics with their ids (the scene's own list: what is checked here is the acceleration
/// structure against each object's own query; the list itself is the simulation's, checked by its tests).
fn statics(level: &Level) -> Vec<(ObjectId, Static)> {
    Scene::build(level)
        .objects()
        .map(|(id, s)| (id, s.clone()))
        .collect()
}

/// Brute force: each object's own public query, smallest `t`, ties to the lower id.
fn brute_ray(objects: &[(ObjectId, Static)], r: &Ray, max_t: f32) -> Option<SceneHit> {
    let mut best: Option<SceneHit> = None;
    for (id, s) in objects {
        let h = match s {
            Static::Plane(p) => ray::ray_plane(r, p, max_t),
            Static::Cylinder(c) => ray::ray_cylinder(r, c, max_t),
            Static::Triangle(t) => ray::ray_triangle(r, t, max_t),
            Static::Aabb(a) => ray::ray_aabb(r, a, max_t),
            Static::Obb(o) => ray::ray_obb(r, o, max_t),
            Static::Wall { wall, height } => ray::ray_wall(r, wall, *height, max_t),
            Static::Mesh(m) => m.cast_ray(r, max_t).map(|h| collidoscope::query::RayHit {
                t: h.t,
                point: r.at(h.t),
                normal: h.normal,
            }),
        };
        if let Some(h) = h
            && best.is_none_or(|b| h.t < b.t || (h.t == b.t && *id < b.object))
        {
            best = Some(SceneHit {
                object: *id,
                t: h.t,
                point: h.point,
                normal: h.normal,
            });
        }
    }
    best
}

fn brute_sweep(objects: &[(ObjectId, Static)], s: &Sphere, m: Vec3) -> Option<SceneToi> {
    let mut best: Option<SceneToi> = None;
    for (id, shape) in objects {
        let t = match shape {
            Static::Plane(p) => sweep::sphere_plane(s, m, p),
            Static::Cylinder(c) => sweep::sphere_cylinder(s, m, c),
            Static::Triangle(t) => sweep::sphere_triangle(s, m, t),
            Static::Aabb(a) => sweep::sphere_aabb(s, m, a),
            Static::Obb(o) => sweep::sphere_obb(s, m, o),
            Static::Wall { wall, height } => sweep::sphere_wall(s, m, wall, *height),
            Static::Mesh(mesh) => mesh.sweep_sphere(s, m).map(|(t, _)| t),
        };
        if let Some(t) = t
            && best.is_none_or(|b| t.t < b.t || (t.t == b.t && *id < b.object))
        {
            best = Some(SceneToi {
                object: *id,
                t: t.t,
                point: t.point,
                normal: t.normal,
            });
        }
    }
    best
}

fn brute_overlap(objects: &[(ObjectId, Static)], s: &Sphere) -> Vec<ObjectId> {
    let mut out: Vec<ObjectId> = objects
        .iter()
        .filter(|(_, shape)| match shape {
            Static::Plane(p) => overlap::sphere_plane(s, p),
            Static::Cylinder(c) => overlap::sphere_cylinder(s, c),
            Static::Triangle(t) => overlap::sphere_triangle(s, t),
            Static::Aabb(a) => overlap::sphere_aabb(s, a),
            Static::Obb(o) => overlap::sphere_obb(s, o),
            Static::Wall { wall, height } => overlap::sphere_wall(s, wall, *height),
            Static::Mesh(m) => m.overlaps_sphere(s),
        })
        .map(|(id, _)| *id)
        .collect();
    out.sort_unstable();
    out
}

/// Brute force for capsules: each object's own public query, smallest `t`, ties to the lower id.
fn brute_sweep_capsule(objects: &[(ObjectId, Static)], c: &Capsule, m: Vec3) -> Option<SceneToi> {
    let mut best: Option<SceneToi> = None;
    for (id, shape) in objects {
        let t = match shape {
            Static::Plane(p) => sweep::capsule_plane(c, m, p),
            Static::Cylinder(cy) => sweep::capsule_cylinder(c, m, cy),
            Static::Triangle(t) => sweep::capsule_triangle(c, m, t),
            Static::Aabb(a) => sweep::capsule_aabb(c, m, a),
            Static::Obb(o) => sweep::capsule_obb(c, m, o),
            Static::Wall { wall, height } => sweep::capsule_wall(c, m, wall, *height),
            Static::Mesh(mesh) => mesh.sweep_capsule(c, m).map(|(t, _)| t),
        };
        if let Some(t) = t
            && best.is_none_or(|b| t.t < b.t || (t.t == b.t && *id < b.object))
        {
            best = Some(SceneToi {
                object: *id,
                t: t.t,
                point: t.point,
                normal: t.normal,
            });
        }
    }
    best
}

fn brute_overlap_capsule(objects: &[(ObjectId, Static)], c: &Capsule) -> Vec<ObjectId> {
    let mut out: Vec<ObjectId> = objects
        .iter()
        .filter(|(_, shape)| match shape {
            Static::Plane(p) => overlap::capsule_plane(c, p),
            Static::Cylinder(cy) => overlap::capsule_cylinder(c, cy),
            Static::Triangle(t) => overlap::capsule_triangle(c, t),
            Static::Aabb(a) => overlap::capsule_aabb(c, a),
            Static::Obb(o) => overlap::capsule_obb(c, o),
            Static::Wall { wall, height } => overlap::capsule_wall(c, wall, *height),
            Static::Mesh(m) => m.overlaps_capsule(c),
        })
        .map(|(id, _)| *id)
        .collect();
    out.sort_unstable();
    out
}

/// A capsule for the scene tests: random (a sphere now and then, tiny or huge), or put against an object's
/// box to within rounding: resting on its top, against a side, or along an edge.
fn scene_capsule(rng: &mut Rng, objects: &[(ObjectId, Static)], span: f32) -> Capsule {
    let r = match rng.below(10) {
        0 => rng.f(0.001, 0.01),
        1 => rng.f(2.0, 8.0),
        _ => rng.f(0.05, 1.5),
    };
    let half = match rng.below(10) {
        0 => Vec3::ZERO,
        1 => rng.v(1.0).normalize_or(Vec3::X) * span,
        2 => Vec3::Y * rng.f(0.2, 1.0),
        _ => rng.v(2.0),
    };
    let (_, s) = &objects[rng.below(objects.len())];
    let b = s.bounds();
    let c = match (b, rng.below(4)) {
        (Some(b), 0) => {
            // Resting on the top of the object's box, upright or lying.
            let p = Vec3::new(rng.f(b.min.x, b.max.x), b.max.y, rng.f(b.min.z, b.max.z));
            return if rng.below(2) == 0 {
                Capsule::new(p + Vec3::Y * r, p + Vec3::Y * (r + half.length()), r)
            } else {
                let along = Vec3::new(half.x, 0.0, half.z);
                let c = p + Vec3::Y * r;
                Capsule::new(c - along, c + along, r)
            };
        }
        (Some(b), 1) => {
            // Against the side x = min.x, upright.
            let p = Vec3::new(
                b.min.x - r,
                rng.f(b.min.y, b.max.y),
                rng.f(b.min.z, b.max.z),
            );
            return Capsule::new(p, p + Vec3::Y * half.length(), r);
        }
        _ => rng.v(span),
    };
    Capsule::new(c - half, c + half, r)
}

/// Capsule sweeps and overlaps against one level, compared with brute force (same bits).
fn compare_capsules(level: &Level, rng: &mut Rng, cases: usize, span: f32) -> [usize; 2] {
    let scene = Scene::from_level(level).unwrap();
    let objects = statics(level);
    let mut hits = [0usize; 2];
    for _ in 0..cases {
        let c = scene_capsule(rng, &objects, span);
        let m = match rng.below(6) {
            0 => Vec3::ZERO,
            1 => rng.v(0.05),
            2 => Vec3::new(rng.f(-0.05, 0.05), 0.0, rng.f(-0.05, 0.05)),
            _ => rng.v(span * 0.6),
        };
        let got = scene.sweep_capsule(&c, m);
        assert_eq!(
            got,
            brute_sweep_capsule(&objects, &c, m),
            "sweep {c:?} by {m}"
        );
        hits[0] += usize::from(got.is_some());
        let got = scene.overlap_capsule(&c);
        assert_eq!(got, brute_overlap_capsule(&objects, &c), "overlap {c:?}");
        hits[1] += usize::from(!got.is_empty());
    }
    hits
}

/// The level scaled by `k` about the origin, then moved by `off` (walls and planes keep the floor: `off.y` is
/// ignored for walls).
fn transformed(level: &Level, k: f32, off: Vec3) -> Level {
    let mut l = level.clone();
    let t = |v: Vec3| v * k + off;
    let off2 = Vec2::new(off.x, off.z);
    l.default_wall_height *= k;
    for w in &mut l.walls {
        (w.a, w.b, w.radius) = (w.a * k + off2, w.b * k + off2, w.radius * k);
        w.height = w.height.map(|h| h * k);
    }
    for tr in &mut l.triangles {
        (tr.a, tr.b, tr.c) = (t(tr.a), t(tr.b), t(tr.c));
    }
    for b in &mut l.aabbs {
        (b.min, b.max) = (t(b.min), t(b.max));
    }
    for o in &mut l.obbs {
        (o.center, o.half_extents) = (t(o.center), o.half_extents * k);
    }
    for c in &mut l.cylinders {
        (c.a, c.b, c.radius) = (t(c.a), t(c.b), c.radius * k);
    }
    for p in &mut l.planes {
        p.d = p.d * k + p.normal.dot(off);
    }
    for m in &mut l.meshes {
        for v in &mut m.vertices {
            *v = t(*v);
        }
    }
    l
}

#[test]
fn scene_capsule_queries_equal_brute_force_on_random_levels() {
    let mut rng = Rng(0xCA75);
    let mut hits = [0usize; 2];
    for level_seed in 0..16 {
        let mut lrng = Rng(level_seed + 100);
        let level = random_level(&mut lrng, 5 + level_seed as usize * 5);
        let h = compare_capsules(&level, &mut rng, 250, 25.0);
        hits[0] += h[0];
        hits[1] += h[1];
    }
    assert!(hits.iter().all(|&h| h > 800), "{hits:?}");
}

#[test]
fn scene_capsule_queries_equal_brute_force_far_away_and_at_every_scale() {
    let mut rng = Rng(0xFA7);
    for (i, (k, off)) in [
        (1.0, Vec3::new(3e3, -2e3, 5e3)),
        (1.0, Vec3::new(-1e5, 0.0, 7e4)),
        (1e-3, Vec3::ZERO),
        (1e3, Vec3::ZERO),
        (1e-2, Vec3::new(50.0, 3.0, -20.0)),
    ]
    .into_iter()
    .enumerate()
    {
        let mut lrng = Rng(500 + i as u64);
        let level = transformed(&random_level(&mut lrng, 20), k, off);
        let _ = compare_capsules(&level, &mut rng, 600, 25.0 * k);
    }
}

/// Levels with movers or one-way surfaces are left to `tests/runtime/movers.rs`, which compares every query with
/// the same scene frozen with its objects moved by hand: the brute force here knows neither the one-way rules
/// nor a piston sharing its sector's id.
fn has_movers(level: &Level) -> bool {
    !level.movers.is_empty()
        || level.aabbs.iter().any(|o| o.one_way)
        || level.obbs.iter().any(|o| o.one_way)
        || level.triangles.iter().any(|o| o.one_way)
        || level.meshes.iter().any(|o| o.one_way)
        || level.sectors.iter().any(|o| o.one_way)
}

#[test]
fn scene_capsule_queries_equal_brute_force_on_every_sample_level() {
    let mut rng = Rng(78);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ron") {
            continue;
        }
        let level = Level::load(&path).unwrap();
        if level.walls.len() + level.triangles.len() + level.aabbs.len() + level.meshes.len() == 0
            || has_movers(&level)
        {
            continue;
        }
        let span = level
            .bounds()
            .map_or(20.0, |b| (b.max - b.min).max_element().max(4.0) * 0.6);
        let cases = if level.walls.len() > 1000 { 20 } else { 300 };
        let _ = compare_capsules(&level, &mut rng, cases, span);
    }
}

/// Rays, sweeps, overlaps and slides of every kind against one level, compared with brute force.
fn compare(level: &Level, rng: &mut Rng, cases: usize, span: f32) -> [usize; 4] {
    let scene = Scene::from_level(level).unwrap();
    let objects = statics(level);
    let wall_list: Vec<Wall> = level.walls.iter().map(|w| w.wall()).collect();
    let mut hits = [0usize; 4];
    for _ in 0..cases {
        // Rays: mostly random, some axis-parallel, some aimed at an object's point (edges and ties).
        let origin = rng.v(span);
        let dir = match rng.below(4) {
            0 => {
                [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z][rng.below(6)]
                    * rng.f(0.1, 3.0)
            }
            1 => {
                let (_, s) = &objects[rng.below(objects.len())];
                let target = s
                    .bounds()
                    .map_or(Vec3::ZERO, |b| b.min.lerp(b.max, rng.f(0.0, 1.0)));
                target - origin
            }
            _ => rng.v(1.0),
        };
        let r = Ray::new(origin, dir);
        let max_t = if rng.below(3) == 0 {
            f32::INFINITY
        } else {
            rng.f(0.0, 60.0)
        };
        let got = scene.cast_ray(&r, max_t);
        assert_eq!(
            got,
            brute_ray(&objects, &r, max_t),
            "ray {r:?} max_t {max_t}"
        );
        hits[0] += usize::from(got.is_some());

        let s = Sphere::new(rng.v(span), rng.f(0.05, 2.0));
        let m = if rng.below(8) == 0 {
            Vec3::ZERO
        } else {
            rng.v(span * 0.6)
        };
        let got = scene.sweep_sphere(&s, m);
        assert_eq!(got, brute_sweep(&objects, &s, m), "sweep {s:?} by {m}");
        hits[1] += usize::from(got.is_some());

        let s = Sphere::new(rng.v(span), rng.f(0.05, 4.0));
        let got = scene.overlap_sphere(&s);
        assert_eq!(got, brute_overlap(&objects, &s), "overlap {s:?}");
        hits[2] += usize::from(!got.is_empty());

        let from = Vec2::new(rng.f(-span, span), rng.f(-span, span));
        let motion = Vec2::new(rng.f(-span, span), rng.f(-span, span)) * rng.f(0.0, 0.5);
        let radius = rng.f(0.0, 1.0);
        let got = scene.move_and_slide(from, radius, motion);
        let want = walls::move_and_slide(from, radius, motion, &wall_list);
        assert_eq!(
            got.to_array().map(f32::to_bits),
            want.to_array().map(f32::to_bits),
            "slide {from} r {radius} by {motion}"
        );
        hits[3] += usize::from((got - (from + motion)).length() > 1e-4);
    }
    hits
}

#[test]
fn scene_equals_brute_force_on_random_levels() {
    let mut rng = Rng(0x5CE7E);
    let mut hits = [0usize; 4];
    for level_seed in 0..30 {
        let mut lrng = Rng(level_seed);
        let level = random_level(&mut lrng, 5 + level_seed as usize * 3);
        let h = compare(&level, &mut rng, 400, 25.0);
        for k in 0..4 {
            hits[k] += h[k];
        }
    }
    // The cases must exercise the answers, not only misses.
    assert!(hits.iter().all(|&h| h > 1_000), "{hits:?}");
}

#[test]
fn scene_equals_brute_force_on_every_sample_level() {
    let mut rng = Rng(77);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ron") {
            continue;
        }
        let level = Level::load(&path).unwrap();
        if has_movers(&level) {
            continue;
        }
        let span = level
            .bounds()
            .map_or(20.0, |b| (b.max - b.min).max_element().max(4.0) * 0.6);
        let cases = if level.walls.len() > 1000 { 150 } else { 600 };
        let _ = compare(&level, &mut rng, cases, span);
        seen += 1;
    }
    assert!(seen >= 5, "{seen} sample levels");
}

/// Rays meet walls along the wall grid's cells: on a maze (walls end to end on the lattice, duplicates with
/// other ids for ties, radius-0 walls), rays that graze walls along their lines, aim at their end points and
/// at lattice corners, run flat at the floor and at the tops, fall straight down, start inside walls or outside
/// the grid, all agree with brute force.
#[test]
fn scene_rays_through_the_wall_grid_equal_brute_force() {
    use collidoscope::generate::{MazeParams, maze};
    let mut level = maze(&MazeParams {
        walls: 600,
        balls: 0,
        seed: 3,
        cell: 2.0,
    });
    level.planes.clear();
    let mut next = 1_000_000;
    // Ties: a copy of every tenth wall under another id; radius-0 walls on some lattice lines.
    let copies: Vec<WallObject> = level.walls.iter().step_by(10).cloned().collect();
    for mut w in copies {
        w.id = ObjectId(next);
        next += 1;
        level.walls.push(w);
    }
    for k in 0..8 {
        level.walls.push(WallObject {
            id: ObjectId(next),
            name: None,
            a: Vec2::new(2.0 * k as f32, 1.0),
            b: Vec2::new(2.0 * k as f32, 9.0),
            radius: 0.0,
            height: Some(1.5),
            properties: Default::default(),
        });
        next += 1;
    }
    level.aabbs.push(AabbObject {
        id: ObjectId(next),
        name: None,
        min: Vec3::new(3.0, 0.5, 3.0),
        max: Vec3::new(3.5, 4.0, 3.5),
        properties: Default::default(),
        one_way: false,
    });
    let scene = Scene::from_level(&level).unwrap();
    let objects = statics(&level);
    let heights: Vec<f32> = level
        .walls
        .iter()
        .map(|w| w.height.unwrap_or(level.default_wall_height))
        .collect();
    let mut rng = Rng(0xD0A);
    let mut hits = 0;
    let mut cases = 0;
    let mut check = |r: Ray, max_t: f32| {
        let got = scene.cast_ray(&r, max_t);
        assert_eq!(
            got,
            brute_ray(&objects, &r, max_t),
            "ray {r:?} max_t {max_t}"
        );
        hits += usize::from(got.is_some());
        cases += 1;
    };
    let lattice = |rng: &mut Rng| 2.0 * rng.below(30) as f32 - 4.0;
    for _ in 0..4_000 {
        let w = &level.walls[rng.below(level.walls.len())];
        let h = heights[rng.below(heights.len())];
        let y = [0.0, h, h * 0.5, rng.f(-0.5, 4.0)][rng.below(4)];
        let (a, b) = (Vec3::new(w.a.x, y, w.a.y), Vec3::new(w.b.x, y, w.b.y));
        let max_t = [f32::INFINITY, 60.0, rng.f(0.0, 10.0), 0.0][rng.below(4)];
        let (origin, dir) = match rng.below(6) {
            // Along the wall's own line, from beyond an end.
            0 => (a + (a - b) * rng.f(0.0, 3.0), b - a),
            // At an end point, from anywhere.
            1 => {
                let o = Vec3::new(lattice(&mut rng), y, lattice(&mut rng));
                (o, a - o)
            }
            // Along a lattice line (cell boundaries), flat.
            2 => {
                let c = lattice(&mut rng);
                let d = [Vec3::X, -Vec3::X, Vec3::Z, -Vec3::Z][rng.below(4)];
                let o = if d.x != 0.0 {
                    Vec3::new(rng.f(-10.0, 60.0), y, c)
                } else {
                    Vec3::new(c, y, rng.f(-10.0, 60.0))
                };
                (o, d * rng.f(0.1, 5.0))
            }
            // Diagonal through lattice corners.
            3 => {
                let o = Vec3::new(lattice(&mut rng), y, lattice(&mut rng));
                let d = Vec3::new([1.0, -1.0][rng.below(2)], 0.0, [1.0, -1.0][rng.below(2)]);
                (o, d)
            }
            // Straight down or up, at a wall's end or middle.
            4 => {
                let p = a.lerp(b, [0.0, 0.5, 1.0][rng.below(3)]);
                let d = [Vec3::Y, -Vec3::Y][rng.below(2)];
                (p + Vec3::Y * rng.f(-1.0, 6.0), d)
            }
            // From inside a wall, or from far outside the maze.
            _ => {
                let o = if rng.below(2) == 0 {
                    a.lerp(b, rng.f(0.0, 1.0))
                } else {
                    Vec3::new(rng.f(-200.0, 200.0), rng.f(-1.0, 5.0), rng.f(-200.0, 200.0))
                };
                (o, rng.v(1.0))
            }
        };
        check(Ray::new(origin, dir), max_t);
    }
    assert!(hits > cases / 3, "{hits} of {cases} rays hit");
}

#[test]
fn wall_grid_slides_like_the_plain_loop() {
    // Dense random walls: slides that leave the start-to-end box (the defect the grid had) are common here.
    let mut rng = Rng(2024);
    let mut disagreements = 0;
    for round in 0..20 {
        let walls: Vec<Wall> = (0..300)
            .map(|_| {
                let a = Vec2::new(rng.f(-30.0, 30.0), rng.f(-30.0, 30.0));
                let len = if round % 2 == 0 { 8.0 } else { 2.0 };
                Wall::new(
                    a,
                    a + Vec2::new(rng.f(-len, len), rng.f(-len, len)),
                    rng.f(0.0, 1.5),
                )
            })
            .collect();
        let grid = WallGrid::new(walls.iter().copied());
        for _ in 0..500 {
            let from = Vec2::new(rng.f(-30.0, 30.0), rng.f(-30.0, 30.0));
            let motion = Vec2::new(rng.f(-12.0, 12.0), rng.f(-12.0, 12.0));
            let radius = rng.f(0.0, 1.2);
            let a = grid.move_and_slide(from, radius, motion);
            let b = walls::move_and_slide(from, radius, motion, &walls);
            if a.to_array().map(f32::to_bits) != b.to_array().map(f32::to_bits) {
                disagreements += 1;
            }
        }
    }
    assert_eq!(disagreements, 0, "of 10,000 slides");
}

#[test]
fn hand_worked_house_queries() {
    // levels/house.ron: the CodeProject house. A ray from inside along +x at eye height meets a wall; the
    // answer names a wall of the level, and a sphere at the walker's start overlaps nothing.
    let level =
        Level::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/house.ron"))
            .unwrap();
    let scene = Scene::from_level(&level).unwrap();
    assert_eq!(
        scene.len(),
        level.walls.len()
            + level.triangles.len()
            + level.planes.len()
            + level.aabbs.len()
            + level.obbs.len()
            + level.cylinders.len()
            + level.meshes.len()
    );
    let start = level.walker.as_ref().unwrap().position;
    let eye = Vec3::new(start.x, 1.0, start.y);
    let hit = scene.cast_ray(&Ray::new(eye, Vec3::X), 100.0).unwrap();
    assert!(level.walls.iter().any(|w| w.id == hit.object));
    assert_eq!(hit.normal, -Vec3::X);
    assert!(scene.overlap_sphere(&Sphere::new(eye, 0.1)).is_empty());
}

#[test]
fn wall_ray_hand_worked() {
    let wall = Wall::new(Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0), 0.5);
    // Toward the round end at a = (0, 0) from -x: meets the disc at x = -0.5.
    let h = ray::ray_wall(
        &Ray::new(Vec3::new(-3.0, 1.0, 0.0), Vec3::X),
        &wall,
        2.0,
        10.0,
    )
    .unwrap();
    assert_eq!((h.t, h.normal), (2.5, -Vec3::X));
    // Zero-thickness wall: a plain vertical surface, two-sided.
    let thin = Wall::new(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0), 0.0);
    let h = ray::ray_wall(
        &Ray::new(Vec3::new(2.0, 1.0, 0.0), -Vec3::X),
        &thin,
        2.0,
        10.0,
    )
    .unwrap();
    assert_eq!((h.t, h.normal), (2.0, Vec3::X));
    let h = ray::ray_wall(
        &Ray::new(Vec3::new(-2.0, 1.0, 0.0), Vec3::X),
        &thin,
        2.0,
        10.0,
    )
    .unwrap();
    assert_eq!((h.t, h.normal), (2.0, -Vec3::X));
    // Inside: t = 0 facing back.
    let h = ray::ray_wall(
        &Ray::new(Vec3::new(2.0, 1.0, 0.1), Vec3::Z),
        &wall,
        2.0,
        10.0,
    )
    .unwrap();
    assert_eq!((h.t, h.normal), (0.0, -Vec3::Z));
    // Degenerate input.
    assert!(ray::ray_wall(&Ray::new(Vec3::ZERO, Vec3::ZERO), &wall, 2.0, 10.0).is_none());
    assert!(
        ray::ray_wall(
            &Ray::new(Vec3::new(-3.0, 1.0, 0.0), Vec3::X),
            &wall,
            f32::NAN,
            10.0
        )
        .is_none()
    );
    assert!(
        ray::ray_wall(
            &Ray::new(Vec3::new(-3.0, 1.0, 0.0), Vec3::X),
            &wall,
            2.0,
            f32::NAN
        )
        .is_none()
    );
}

#[test]
fn invalid_input_answers_nothing() {
    let mut rng = Rng(5);
    let level = random_level(&mut rng, 10);
    let scene = Scene::from_level(&level).unwrap();
    assert!(
        scene
            .cast_ray(&Ray::new(Vec3::NAN, Vec3::X), 10.0)
            .is_none()
    );
    assert!(
        scene
            .cast_ray(&Ray::new(Vec3::ZERO, Vec3::ZERO), 10.0)
            .is_none()
    );
    assert!(
        scene
            .cast_ray(&Ray::new(Vec3::ZERO, Vec3::X), -1.0)
            .is_none()
    );
    assert!(
        scene
            .sweep_sphere(&Sphere::new(Vec3::ZERO, 0.0), Vec3::X)
            .is_none()
    );
    assert!(
        scene
            .sweep_sphere(&Sphere::new(Vec3::ZERO, 1.0), Vec3::NAN)
            .is_none()
    );
    assert!(
        scene
            .overlap_sphere(&Sphere::new(Vec3::NAN, 1.0))
            .is_empty()
    );
    assert_eq!(
        scene.move_and_slide(Vec2::ONE, f32::NAN, Vec2::X),
        Vec2::ONE
    );
}

#[test]
fn scene_refuses_invalid_levels_and_builds_them_leniently() {
    let mut level = Level::default();
    level.aabbs.push(AabbObject {
        id: ObjectId(1),
        name: None,
        min: Vec3::ONE,
        max: Vec3::ZERO,
        properties: Default::default(),
        one_way: false,
    });
    assert!(Scene::from_level(&level).is_err());
    let scene = Scene::build(&level);
    assert_eq!(scene.len(), 1);
    assert!(
        scene
            .cast_ray(&Ray::new(Vec3::splat(-1.0), Vec3::ONE), 10.0)
            .is_none()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Boxes, spheres-as-cylinders and walls placed to touch: the scene agrees with brute force on rays aimed
    /// exactly at shared faces and corners.
    #[test]
    fn touching_boxes_grid(cols in 1usize..5, rows in 1usize..5, ox in -3.0f32..3.0, oz in -3.0f32..3.0, dx in -1.0f32..1.0, dz in -1.0f32..1.0) {
        let mut level = Level::default();
        let mut id = 1;
        for i in 0..cols {
            for j in 0..rows {
                let min = Vec3::new(i as f32, 0.0, j as f32);
                level.aabbs.push(AabbObject { id: ObjectId(id), name: None, min, max: min + Vec3::ONE, properties: Default::default(), one_way: false });
                id += 1;
            }
        }
        let scene = Scene::from_level(&level).unwrap();
        let objects = statics(&level);
        let r = Ray::new(Vec3::new(ox, 1.0, oz), Vec3::new(dx, -1.0, dz));
        prop_assert_eq!(scene.cast_ray(&r, 100.0), brute_ray(&objects, &r, 100.0));
        let s = Sphere::new(Vec3::new(ox, 2.0, oz), 0.5);
        let m = Vec3::new(dx, -3.0, dz);
        prop_assert_eq!(scene.sweep_sphere(&s, m), brute_sweep(&objects, &s, m));
    }
}

#[test]
fn walker_in_a_scene_walks_as_against_every_wall_and_triangle() {
    use collidoscope::walker::{WalkMode, Walker};
    let mut rng = Rng(404);
    for seed in 0..10 {
        let mut lrng = Rng(seed + 100);
        let mut level = random_level(&mut lrng, 30);
        // Triangles standing on the floor at eye height, so the walk test meets them.
        for t in &mut level.triangles {
            t.a.y = 0.0;
            t.b.y = 3.0;
            t.c.y = 3.0;
        }
        let scene = Scene::build(&level);
        let grid = WallGrid::new(level.walls.iter().map(|w| w.wall()));
        let tris: Vec<_> = level.triangles.iter().map(|t| t.triangle()).collect();
        let mut blocked = 0;
        for _ in 0..300 {
            let mode = [WalkMode::Stop, WalkMode::Slide, WalkMode::Ghost][rng.below(3)];
            let mut a = Walker {
                position: Vec2::new(rng.f(-20.0, 20.0), rng.f(-20.0, 20.0)),
                facing_deg: 0.0,
                eye_height: 1.7,
                radius: rng.f(0.1, 0.5),
                mode,
            };
            let mut b = a;
            for _ in 0..5 {
                let motion = Vec2::new(rng.f(-3.0, 3.0), rng.f(-3.0, 3.0));
                let x = a.walk_in(motion, &scene);
                let y = b.walk(motion, &grid, &tris);
                assert_eq!(x, y, "{mode:?} from {:?}", b.position);
                blocked += usize::from(x.blocked_by.is_some());
            }
        }
        assert!(blocked > 50, "{blocked}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// The grid walk far from the origin and at any scale: a small maze moved by up to 100 km and scaled from
    /// a millimetre to a kilometre per cell, rays aimed at wall ends and along walls, equal brute force.
    #[test]
    fn scene_rays_among_walls_at_any_offset_and_scale(
        seed in 0u64..1_000,
        offset_x in -1.0e5f32..1.0e5,
        offset_z in -1.0e5f32..1.0e5,
        scale_exp in -3.0f32..3.0,
    ) {
        use collidoscope::generate::{MazeParams, maze};
        let scale = 10f32.powf(scale_exp);
        let mut level = maze(&MazeParams { walls: 120, balls: 0, seed, cell: 2.0 });
        level.planes.clear();
        let off = Vec2::new(offset_x, offset_z);
        for w in &mut level.walls {
            w.a = w.a * scale + off;
            w.b = w.b * scale + off;
            w.radius *= scale;
            w.height = Some(w.height.unwrap_or(level.default_wall_height) * scale);
        }
        // Far out and tiny, f32 cannot tell some walls' ends apart: the lenient build leaves those out, as
        // brute force over the same objects does.
        let scene = Scene::build(&level);
        let objects = statics(&level);
        let mut rng = Rng(seed ^ 0xA5A5);
        for _ in 0..40 {
            let w = &level.walls[rng.below(level.walls.len())];
            let y = w.height.unwrap() * rng.f(0.0, 1.0);
            let (a, b) = (Vec3::new(w.a.x, y, w.a.y), Vec3::new(w.b.x, y, w.b.y));
            let from = Vec3::new(
                off.x + rng.f(-4.0, 24.0) * scale,
                y + rng.f(-1.0, 1.0) * scale,
                off.y + rng.f(-4.0, 24.0) * scale,
            );
            for r in [Ray::new(from, a - from), Ray::new(from, b - from), Ray::new(a + (a - b), b - a)] {
                prop_assert_eq!(scene.cast_ray(&r, f32::INFINITY), brute_ray(&objects, &r, f32::INFINITY));
            }
        }
    }
}
