//! Triangle-mesh tests (issue 7): the BVH against brute force, watertightness on closed meshes, degenerate
//! input, OBJ import of the Stanford bunny (`tests/data/bunny.obj`, see `tests/data/README.md`), and sphere
//! overlap / sweep against brute force.
//!
//! Brute force is the obvious loop over every triangle with the single-triangle queries
//! (`query::ray::ray_triangle`, `query::overlap::sphere_triangle`, `query::sweep::sphere_triangle`). The BVH's
//! ray test is watertight (Woop–Benthin–Wald) while `ray_triangle` is Möller–Trumbore, so the two may
//! legitimately disagree for a ray that passes within rounding of a triangle's edge or ends at `max_t`; such
//! cases are recognised (in f64), counted, printed and limited to a tiny fraction. Everything else must agree.
//!
//! The watertight test aims rays exactly at points of shared edges (and at shared vertices) of closed meshes
//! from origins in front of every face around the point; every ray must hit. The same rays go through
//! parry3d's `TriMesh::cast_ray`, whose misses are printed for comparison, not asserted (1,000,000 rays in
//! all). Each leak is also re-cast against every triangle with a copy of the Woop–Benthin–Wald test alone (no
//! BVH) to tell a leaky triangle test from a leaky tree traversal.
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

use crate::parry_glam::ToParry;
use collidoscope::generate::terrain;
use collidoscope::mesh::{MeshError, MeshHit, TriMesh};
use collidoscope::query::{overlap, ray::ray_triangle, sweep};
use collidoscope::shape::{Ray, Sphere, Triangle};
use glam::Vec3;
use parry3d::math::Pose;
use parry3d::query::{Ray as PRay, RayCast};

// ---------------------------------------------------------------------------------------------------------
// Random numbers and geometry helpers

/// SplitMix64: deterministic, platform-independent.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    fn f(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.f()
    }
    /// Log-uniform in `lo..hi` (both positive).
    fn log_range(&mut self, lo: f32, hi: f32) -> f32 {
        (lo.ln() + (hi.ln() - lo.ln()) * self.f()).exp()
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    fn in_box(&mut self, lo: Vec3, hi: Vec3) -> Vec3 {
        Vec3::new(
            self.range(lo.x, hi.x),
            self.range(lo.y, hi.y),
            self.range(lo.z, hi.z),
        )
    }
    fn unit(&mut self) -> Vec3 {
        loop {
            let v = self.in_box(Vec3::splat(-1.0), Vec3::ONE);
            let l = v.length_squared();
            if l > 1e-4 && l <= 1.0 {
                return v / l.sqrt();
            }
        }
    }
    /// Random barycentric weights `(w0, w1, w2)`, all `>= 0`, summing to 1.
    fn bary(&mut self) -> (f32, f32, f32) {
        let (mut u, mut v) = (self.f(), self.f());
        if u + v > 1.0 {
            (u, v) = (1.0 - u, 1.0 - v);
        }
        (1.0 - u - v, u, v)
    }
}

fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(name)
}

type Geometry = (Vec<Vec3>, Vec<[u32; 3]>);

/// Triangles of a mesh as shapes, in index order.
fn triangles(vertices: &[Vec3], indices: &[[u32; 3]]) -> Vec<Triangle> {
    indices
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| vertices[i as usize]);
            Triangle::new(a, b, c)
        })
        .collect()
}

fn build(name: &str, geometry: &Geometry) -> TriMesh {
    let mesh = TriMesh::new(geometry.0.clone(), geometry.1.clone())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    mesh.assert_well_formed();
    assert_eq!(mesh.triangle_count(), geometry.1.len(), "{name}");
    mesh
}

/// An icosphere (closed, vertices shared, outward front faces): [`collidoscope::generate::icosphere`].
fn icosphere(subdivisions: u32, center: Vec3, radius: f32) -> Geometry {
    collidoscope::generate::icosphere(subdivisions, center, radius)
}

/// The bunny, parsed by hand from the OBJ's `v`/`f` lines (an independent reading to check `from_obj`).
fn bunny_by_hand() -> Geometry {
    let text = std::fs::read_to_string(data_path("bunny.obj")).unwrap();
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => {
                let p: Vec<f32> = words.map(|w| w.parse().unwrap()).collect();
                vertices.push(Vec3::new(p[0], p[1], p[2]));
            }
            Some("f") => {
                let f: Vec<u32> = words.map(|w| w.parse::<u32>().unwrap() - 1).collect();
                assert_eq!(f.len(), 3);
                indices.push([f[0], f[1], f[2]]);
            }
            _ => {}
        }
    }
    (vertices, indices)
}

/// For each undirected edge, the triangles using it.
fn edge_map(indices: &[[u32; 3]]) -> HashMap<(u32, u32), Vec<u32>> {
    let mut edges: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
    for (t, tri) in indices.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            edges
                .entry((a.min(b), a.max(b)))
                .or_default()
                .push(t as u32);
        }
    }
    edges
}

/// Closed and consistently oriented: every edge in exactly two triangles, once in each direction.
fn is_closed(indices: &[[u32; 3]]) -> bool {
    let mut directed: HashMap<(u32, u32), u32> = HashMap::new();
    for tri in indices {
        for k in 0..3 {
            *directed.entry((tri[k], tri[(k + 1) % 3])).or_default() += 1;
        }
    }
    edge_map(indices).values().all(|ts| ts.len() == 2) && directed.values().all(|&n| n == 1)
}

fn signed_volume(vertices: &[Vec3], indices: &[[u32; 3]]) -> f64 {
    indices
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| vertices[i as usize].as_dvec3());
            a.dot(b.cross(c)) / 6.0
        })
        .sum()
}

// ---------------------------------------------------------------------------------------------------------
// Random meshes

/// `n` independent triangles (no shared vertices) with centres in `lo..hi` and sizes log-uniform in
/// `size_lo..size_hi`.
fn soup(rng: &mut Rng, n: usize, lo: Vec3, hi: Vec3, size_lo: f32, size_hi: f32) -> Geometry {
    let mut vertices = Vec::with_capacity(3 * n);
    for _ in 0..n {
        let c = rng.in_box(lo, hi);
        let s = rng.log_range(size_lo, size_hi);
        for _ in 0..3 {
            vertices.push(c + rng.unit() * s);
        }
    }
    let indices = (0..n as u32)
        .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
        .collect();
    (vertices, indices)
}

/// `n` triangles over a shared pool of `pool` vertices: shared edges, repeated vertices and (through repeated
/// indices) zero-area triangles.
fn pooled_soup(rng: &mut Rng, n: usize, pool: usize, extent: f32) -> Geometry {
    let vertices: Vec<Vec3> = (0..pool)
        .map(|_| rng.in_box(Vec3::splat(-extent), Vec3::splat(extent)))
        .collect();
    let mut indices = Vec::with_capacity(n);
    for _ in 0..n {
        let a = rng.below(pool) as u32;
        // Mostly local triangles: pick the others near `a` in the pool order (not in space), sometimes equal.
        let b = ((a as usize + 1 + rng.below(8)) % pool) as u32;
        let c = if rng.below(40) == 0 {
            a
        } else {
            ((a as usize + 1 + rng.below(8)) % pool) as u32
        };
        indices.push([a, b, c]);
    }
    (vertices, indices)
}

/// Clusters of very different scales (1e-2 to 1e2) far apart: unbalanced SAH splits.
fn clustered_soup(rng: &mut Rng, clusters: usize, per_cluster: usize) -> Geometry {
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for k in 0..clusters {
        let scale = 10f32.powf(-2.0 + 4.0 * k as f32 / (clusters - 1) as f32);
        let centre = rng.in_box(Vec3::splat(-200.0), Vec3::splat(200.0));
        let (v, t) = soup(
            rng,
            per_cluster,
            centre - Vec3::splat(scale),
            centre + Vec3::splat(scale),
            scale * 0.05,
            scale,
        );
        let base = vertices.len() as u32;
        vertices.extend(v);
        indices.extend(t.into_iter().map(|t| t.map(|i| i + base)));
    }
    (vertices, indices)
}

/// Triangles all in the plane `y = 0.5`: flat node boxes.
fn flat_soup(rng: &mut Rng, n: usize) -> Geometry {
    let (mut v, t) = soup(
        rng,
        n,
        Vec3::new(-10.0, 0.5, -10.0),
        Vec3::new(10.0, 0.5, 10.0),
        0.1,
        3.0,
    );
    for p in &mut v {
        p.y = 0.5;
    }
    (v, t)
}

/// Every triangle has the same bounding box (the cube `[-10, 10]³`: two fixed vertices at opposite corners
/// and a third inside), so every SAH split costs the same and the builder peels the top bin off at every
/// level: a tree far deeper than log2(n), with every node box entered at the same `t`.
fn same_box_fan(rng: &mut Rng, n: usize) -> Geometry {
    let mut vertices = vec![Vec3::new(-10.0, 10.0, -10.0), Vec3::new(10.0, -10.0, 10.0)];
    let mut indices = Vec::with_capacity(n);
    for i in 0..n {
        vertices.push(Vec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-10.0, 10.0),
            rng.range(-1.0, 1.0),
        ));
        indices.push([0, 1, (i + 2) as u32]);
    }
    (vertices, indices)
}

// ---------------------------------------------------------------------------------------------------------
// BVH against brute force

/// Farthest ray origins, in mesh diagonals.
const FAR: f32 = 100.0;

/// Nearest brute-force hit: `(t, triangle)`.
fn brute_ray(ray: &Ray, tris: &[Triangle], max_t: f32) -> Option<(f32, u32)> {
    let mut best: Option<(f32, u32)> = None;
    for (i, tri) in tris.iter().enumerate() {
        if let Some(h) = ray_triangle(ray, tri, max_t)
            && best.is_none_or(|(t, _)| h.t < t)
        {
            best = Some((h.t, i as u32));
        }
    }
    best
}

/// f64 ray/triangle: `t` where the ray's line crosses the triangle's plane and the cosine between the ray and
/// the triangle's normal, or `None` when (numerically) parallel.
fn crossing_f64(ray: &Ray, tri: &Triangle) -> Option<(f64, f64)> {
    let (o, d) = (ray.origin.as_dvec3(), ray.dir.as_dvec3());
    let (a, b, c) = (tri.a.as_dvec3(), tri.b.as_dvec3(), tri.c.as_dvec3());
    let n = (b - a).cross(c - a);
    let denom = n.dot(d);
    if denom.abs() < 1e-300 {
        return None;
    }
    Some((n.dot(a - o) / denom, denom / (n.length() * d.length())))
}

/// Distance from the ray's line to the segment `a..b`, in f64.
fn line_segment_distance(ray: &Ray, a: Vec3, b: Vec3) -> f64 {
    let (o, d) = (ray.origin.as_dvec3(), ray.dir.as_dvec3());
    let (a, e) = (a.as_dvec3(), (b - a).as_dvec3());
    let w0 = a - o;
    let (dd, de, ee) = (d.dot(d), d.dot(e), e.dot(e));
    let (dw, ew) = (d.dot(w0), e.dot(w0));
    let denom = dd * ee - de * de;
    let s = if denom > 1e-12 * dd * ee {
        ((de * dw - dd * ew) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let t = (dw + s * de) / dd;
    (w0 + e * s - d * t).length()
}

/// Rounding scale of a ray/triangle pair in f32: both tests subtract the origin from the vertices, so every
/// edge moves by up to a few ulps of the largest coordinate involved.
fn rounding(ray: &Ray, tri: &Triangle) -> f64 {
    let m = ray
        .origin
        .abs()
        .max(tri.a.abs())
        .max(tri.b.abs())
        .max(tri.c.abs())
        .max_element();
    64.0 * f64::from(f32::EPSILON) * f64::from(m)
}

/// Allowed difference in `t` (units of `dir`) for a hit on `tri`: the rounding scale divided by the cosine
/// (grazing rays move the hit far along the ray), plus a relative hair.
fn t_tolerance(ray: &Ray, tri: &Triangle, t: f32) -> f64 {
    let cos = crossing_f64(ray, tri).map_or(0.0, |(_, c)| c.abs());
    let len = ray.dir.as_dvec3().length();
    rounding(ray, tri) / cos.max(1e-6) / len + 1e-6 * f64::from(t.abs())
}

/// Whether one method may see `tri` and the other not, by rounding: the ray's line passes within rounding of
/// one of its edges (this covers grazing rays, whose projected triangle is thin), or the crossing is within
/// rounding of `t = 0` or `max_t`.
fn borderline(ray: &Ray, tri: &Triangle, max_t: f32) -> bool {
    let Some((t, cos)) = crossing_f64(ray, tri) else {
        return true;
    };
    let slack = 4.0 * rounding(ray, tri);
    let near_edge = [(tri.a, tri.b), (tri.b, tri.c), (tri.c, tri.a)]
        .iter()
        .any(|&(a, b)| line_segment_distance(ray, a, b) <= slack);
    let tol = slack / cos.abs().max(1e-6) / ray.dir.as_dvec3().length() + 1e-6 * t.abs();
    near_edge
        || cos.abs() < 1e-3
        || t.abs() <= tol
        || (max_t.is_finite() && (t - f64::from(max_t)).abs() <= tol)
}

/// Check one BVH hit for internal consistency: finite, within `max_t`, the barycentric point on the ray,
/// unit normal of the hit triangle facing against the ray.
fn check_hit(ray: &Ray, tris: &[Triangle], max_t: f32, h: &MeshHit, scale: f32) {
    assert!(
        h.t.is_finite() && h.t >= 0.0 && h.t <= max_t,
        "{ray:?}: {h:?}"
    );
    let tri = &tris[h.triangle as usize];
    assert!(tri.is_valid(), "hit a degenerate triangle: {ray:?} {h:?}");
    let p = tri.a * (1.0 - h.u - h.v) + tri.b * h.u + tri.c * h.v;
    let q = ray.at(h.t);
    let tol = t_tolerance(ray, tri, h.t) * ray.dir.as_dvec3().length() + 1e-5 * f64::from(scale);
    assert!(
        f64::from(p.distance(q)) <= tol,
        "barycentric point {p} != ray point {q}: {ray:?} {h:?}"
    );
    assert!(
        h.u >= -1e-6 && h.v >= -1e-6 && h.u + h.v <= 1.0 + 1e-6,
        "{h:?}"
    );
    assert!((h.normal.length() - 1.0).abs() < 1e-5, "{h:?}");
    assert!(
        h.normal.dot(ray.dir) <= 0.0,
        "normal faces along the ray: {h:?}"
    );
    let n = (tri.b - tri.a).cross(tri.c - tri.a).normalize();
    assert!(h.normal.dot(n).abs() > 1.0 - 1e-4, "{h:?} vs {n}");
}

#[derive(Default)]
struct Tally {
    rays: usize,
    hits: usize,
    excused: usize,
}

/// Cast `count` random rays at `geometry` and compare every answer with brute force.
/// `far` is how far (in mesh diagonals) the farthest origins are: f32 cannot resolve triangles much smaller
/// than an ulp of the origin's coordinates, so meshes with tiny features use a smaller one.
fn compare_with_brute_force(
    name: &str,
    geometry: &Geometry,
    count: usize,
    seed: u64,
    far: f32,
) -> Tally {
    let start = Instant::now();
    let mesh = build(name, geometry);
    let tris = triangles(&geometry.0, &geometry.1);
    let valid: Vec<u32> = (0..tris.len() as u32)
        .filter(|&i| tris[i as usize].is_valid())
        .collect();
    let bounds = mesh.bounds();
    let (lo, hi) = (bounds.min, bounds.max);
    let diag = (hi - lo).length().max(1e-6);
    let centre = (lo + hi) * 0.5;
    let mut rng = Rng(seed);
    let mut tally = Tally::default();
    let mut rays = Vec::with_capacity(count);
    for i in 0..count {
        // Origins: around the mesh, inside its box, or far away.
        let origin = match rng.below(4) {
            0 => rng.in_box(lo, hi),
            1 => centre + rng.unit() * diag * rng.range(0.5, 3.0),
            2 => rng.in_box(lo - (hi - lo) * 0.2, hi + (hi - lo) * 0.2),
            _ => centre + rng.unit() * diag * far,
        };
        let dir = match rng.below(10) {
            // Aimed at a random point of a random triangle (usually a hit).
            0..=5 => {
                let tri = &tris[valid[rng.below(valid.len())] as usize];
                let (w0, w1, w2) = rng.bary();
                let target = tri.a * w0 + tri.b * w1 + tri.c * w2;
                (target - origin) * rng.log_range(0.1, 10.0)
            }
            // Random direction, random length.
            6..=7 => rng.unit() * rng.log_range(1e-3, 1e3),
            // Axis-aligned (infinite reciprocals in the slab test).
            _ => {
                let mut d = Vec3::ZERO;
                d[rng.below(3)] = if rng.below(2) == 0 { 1.0 } else { -1.0 };
                d * rng.log_range(0.1, 10.0)
            }
        };
        let ray = Ray::new(origin, dir);
        let max_t = match i % 3 {
            0 => f32::INFINITY,
            1 => rng.range(0.0, 2.0) * diag / dir.length(),
            _ => f32::MAX,
        };
        rays.push((ray, max_t));
    }
    for (ray, max_t) in &rays {
        let (ray, max_t) = (*ray, *max_t);
        tally.rays += 1;
        let fast = mesh.cast_ray(&ray, max_t);
        let brute = brute_ray(&ray, &tris, max_t);
        if let Some(h) = &fast {
            tally.hits += 1;
            check_hit(&ray, &tris, max_t, h, diag);
        }
        let excused = match (&fast, brute) {
            (None, None) => continue,
            (Some(h), Some((t, i))) => {
                let (tf, tb) = (&tris[h.triangle as usize], &tris[i as usize]);
                let tol = t_tolerance(&ray, tf, h.t) + t_tolerance(&ray, tb, t);
                if f64::from((h.t - t).abs()) <= tol {
                    continue;
                }
                // Someone missed the nearer triangle: excused only when that triangle is borderline.
                if h.t > t {
                    borderline(&ray, tb, max_t)
                } else {
                    borderline(&ray, tf, max_t)
                }
            }
            (Some(h), None) => borderline(&ray, &tris[h.triangle as usize], max_t),
            (None, Some((_, i))) => borderline(&ray, &tris[i as usize], max_t),
        };
        assert!(
            excused,
            "{name}: BVH and brute force disagree on {ray:?} max_t={max_t}: bvh {fast:?}, brute {brute:?} \
             (brute triangle {:?})",
            brute.map(|(_, i)| tris[i as usize])
        );
        if tally.excused < 3 {
            eprintln!(
                "{name}: excused (edge/max_t borderline) {ray:?} max_t={max_t}: bvh {fast:?} brute {brute:?}"
            );
        }
        tally.excused += 1;
    }
    // The batch API gives the same answers.
    let batch: Vec<Ray> = rays.iter().take(2_000).map(|(r, _)| *r).collect();
    let one_by_one: Vec<_> = batch
        .iter()
        .map(|r| mesh.cast_ray(r, f32::INFINITY))
        .collect();
    assert_eq!(mesh.cast_rays(&batch), one_by_one, "{name}: cast_rays");
    let one_by_one: Vec<_> = batch.iter().map(|r| mesh.cast_ray(r, 3.0)).collect();
    assert_eq!(
        mesh.cast_rays_max(&batch, 3.0),
        one_by_one,
        "{name}: cast_rays_max"
    );
    eprintln!(
        "{name}: {} triangles, {} rays, {} hits, {} excused borderline disagreements, {:.2?}",
        geometry.1.len(),
        tally.rays,
        tally.hits,
        tally.excused,
        start.elapsed()
    );
    assert!(
        tally.excused * 100 <= tally.rays,
        "{name}: too many borderline disagreements"
    );
    assert!(
        tally.hits * 10 >= tally.rays,
        "{name}: too few hits to mean much"
    );
    tally
}

#[test]
fn bvh_equals_brute_force_on_triangle_soups() {
    let mut rng = Rng(11);
    let mut total = 0;
    let g = soup(
        &mut rng,
        1_000,
        Vec3::splat(-10.0),
        Vec3::splat(10.0),
        0.05,
        4.0,
    );
    total += compare_with_brute_force("uniform soup", &g, 20_000, 1, FAR).rays;
    let g = pooled_soup(&mut rng, 800, 300, 5.0);
    total += compare_with_brute_force("pooled soup", &g, 10_000, 2, FAR).rays;
    let g = clustered_soup(&mut rng, 8, 120);
    total += compare_with_brute_force("clustered soup", &g, 10_000, 3, 2.0).rays;
    let g = flat_soup(&mut rng, 600);
    total += compare_with_brute_force("flat soup", &g, 10_000, 4, FAR).rays;
    // A few tiny meshes: one triangle, two, a handful (leaf-only trees).
    for n in [1, 2, 5, 9] {
        let g = soup(&mut rng, n, Vec3::splat(-1.0), Vec3::ONE, 0.5, 1.0);
        total +=
            compare_with_brute_force(&format!("{n}-triangle soup"), &g, 1_000, 5 + n as u64, FAR)
                .rays;
    }
    assert_eq!(total, 54_000);
}

#[test]
fn bvh_equals_brute_force_on_terrain_bunny_and_icosphere() {
    let t = terrain(4_000, 100.0, 7);
    let mut total = compare_with_brute_force("terrain", &t, 20_000, 21, FAR).rays;
    total += compare_with_brute_force("bunny", &bunny_by_hand(), 12_000, 22, FAR).rays;
    let ico = icosphere(3, Vec3::new(3.0, -2.0, 5.0), 2.5);
    total += compare_with_brute_force("icosphere", &ico, 8_000, 23, FAR).rays;
    assert_eq!(total, 40_000);
}

/// A tree much deeper than the traversal's stack: every triangle has the same box, so every node box is
/// entered at the same `t` and the traversal keeps the far child of every level on its stack.
#[test]
fn bvh_equals_brute_force_on_a_deep_tree() {
    let mut rng = Rng(31);
    let g = same_box_fan(&mut rng, 4_000);
    compare_with_brute_force("same-box fan (deep tree)", &g, 6_000, 32, FAR);
}

/// The smallest reproduction found of a nearest hit missed in a deep tree: 2,000 triangles sharing the edge
/// from `(-10, 10, -10)` to `(10, -10, 10)` (so all have the same bounding box), third vertices spread along
/// y. Triangle 12 is crossed well inside (f64 barycentrics 0.227, 0.019, 0.753) at `t = 0.794022`, before
/// any other triangle.
#[test]
fn nearest_hit_in_a_tree_deeper_than_the_traversal_stack() {
    let n = 2_000u32;
    let mut vertices = vec![Vec3::new(-10.0, 10.0, -10.0), Vec3::new(10.0, -10.0, 10.0)];
    for k in 0..n {
        vertices.push(Vec3::new(
            ((k * 37) % 101) as f32 / 50.0 - 1.0,
            -10.0 + 20.0 * (k as f32 + 0.5) / n as f32,
            ((k * 61) % 103) as f32 / 51.5 - 1.0,
        ));
    }
    let indices: Vec<[u32; 3]> = (0..n).map(|k| [0, 1, k + 2]).collect();
    let tris = triangles(&vertices, &indices);
    let mesh = build("deep fan", &(vertices, indices));
    let ray = Ray::new(Vec3::new(-7.0, -26.0, -13.0), Vec3::new(6.0, 26.0, 13.0));
    let (t, i) = brute_ray(&ray, &tris, f32::INFINITY).unwrap();
    assert_eq!(i, 12);
    assert!((t - 0.794_022).abs() < 1e-5, "{t}");
    let hit = mesh.cast_ray(&ray, f32::INFINITY).unwrap();
    assert_eq!(
        (hit.triangle, (hit.t - t).abs() < 1e-5),
        (12, true),
        "BVH: {hit:?}, brute force: t = {t} on triangle 12"
    );
}

// ---------------------------------------------------------------------------------------------------------
// Watertightness

/// A point aimed at: on a shared edge (or a shared vertex) with the unit outward normals of the faces
/// around it.
struct Target {
    point: Vec3,
    faces: Vec<u32>,
    /// `faces` and their neighbours through a vertex: a ray aimed near a vertex may, by rounding of the aim,
    /// land on one of these.
    near: Vec<u32>,
    normals: Vec<Vec3>,
    vertex: bool,
}

/// Points on every edge at a few fractions (exact vertex hits included, once per vertex, with the whole fan
/// around it).
fn targets(geometry: &Geometry) -> Vec<Target> {
    let (vertices, indices) = geometry;
    let orientation = signed_volume(vertices, indices).signum() as f32;
    let normal = |t: u32| {
        let [a, b, c] = indices[t as usize].map(|i| vertices[i as usize]);
        ((b - a).cross(c - a) * orientation).normalize()
    };
    let mut fans: Vec<Vec<u32>> = vec![Vec::new(); vertices.len()];
    for (t, tri) in indices.iter().enumerate() {
        for &v in tri {
            fans[v as usize].push(t as u32);
        }
    }
    // Triangles touching any vertex of `faces`.
    let near = |faces: &[u32]| {
        let mut near: Vec<u32> = faces
            .iter()
            .flat_map(|&f| indices[f as usize])
            .flat_map(|v| fans[v as usize].iter().copied())
            .collect();
        near.sort_unstable();
        near.dedup();
        near
    };
    let mut out = Vec::new();
    let mut edges: Vec<_> = edge_map(indices).into_iter().collect();
    edges.sort_unstable();
    const FRACTIONS: [f32; 8] = [0.5, 0.25, 0.75, 1.0 / 3.0, 0.1, 0.9, 0.01, 0.999];
    for ((a, b), faces) in &edges {
        let normals: Vec<Vec3> = faces.iter().map(|&t| normal(t)).collect();
        let near = near(faces);
        for f in FRACTIONS {
            out.push(Target {
                point: vertices[*a as usize].lerp(vertices[*b as usize], f),
                faces: faces.clone(),
                near: near.clone(),
                normals: normals.clone(),
                vertex: false,
            });
        }
    }
    for (v, fan) in fans.iter().enumerate() {
        if !fan.is_empty() {
            out.push(Target {
                point: vertices[v],
                faces: fan.clone(),
                near: near(fan),
                normals: fan.iter().map(|&t| normal(t)).collect(),
                vertex: true,
            });
        }
    }
    out
}

/// A direction from which the target is in front of every face around it (`cos >= 0.05` with each outward
/// normal), or `None` (a saddle or a crease sharper than that).
fn front_direction(rng: &mut Rng, target: &Target) -> Option<Vec3> {
    let mean = target
        .normals
        .iter()
        .copied()
        .sum::<Vec3>()
        .normalize_or_zero();
    let ok = |u: Vec3| target.normals.iter().all(|n| n.dot(u) >= 0.05);
    for spread in [1.0, 0.6, 0.3, 0.1] {
        for _ in 0..8 {
            let u = (mean + rng.unit() * spread).normalize_or_zero();
            if ok(u) {
                return Some(u);
            }
        }
    }
    ok(mean).then_some(mean)
}

/// Nearest crossing of the ray (its f32 origin and direction taken exactly) with any triangle, in f64, with
/// barycentric weights down to `-slack`: the answer up to f64 rounding, to tell a leak from a ray whose aim
/// was lost to the f32 rounding of `origin` and `dir`.
fn nearest_f64(ray: &Ray, tris: &[Triangle], slack: f64) -> f64 {
    let (o, d) = (ray.origin.as_dvec3(), ray.dir.as_dvec3());
    let mut best = f64::INFINITY;
    for tri in tris {
        let (a, b, c) = (tri.a.as_dvec3(), tri.b.as_dvec3(), tri.c.as_dvec3());
        let (e1, e2) = (b - a, c - a);
        let p = d.cross(e2);
        let det = e1.dot(p);
        if det == 0.0 {
            continue;
        }
        let s = o - a;
        let u = s.dot(p) / det;
        let q = s.cross(e1);
        let v = d.dot(q) / det;
        let t = e2.dot(q) / det;
        if u >= -slack && v >= -slack && u + v <= 1.0 + slack && t >= 0.0 {
            best = best.min(t);
        }
    }
    best
}

/// A copy of the Woop–Benthin–Wald test of `src/mesh.rs` (with its f64 fallback on exact zeros), used only
/// to diagnose leaks: `t` of a hit on either face.
fn wbw(ray: &Ray, tri: &Triangle) -> Option<f32> {
    let d = ray.dir;
    let a = d.abs();
    let kz = if a.x >= a.y && a.x >= a.z {
        0
    } else if a.y >= a.z {
        1
    } else {
        2
    };
    let (mut kx, mut ky) = ((kz + 1) % 3, (kz + 2) % 3);
    if d[kz] < 0.0 {
        std::mem::swap(&mut kx, &mut ky);
    }
    let (sx, sy, sz) = (d[kx] / d[kz], d[ky] / d[kz], 1.0 / d[kz]);
    let rel = [tri.a - ray.origin, tri.b - ray.origin, tri.c - ray.origin];
    let p = rel.map(|p| (p[kx] - sx * p[kz], p[ky] - sy * p[kz]));
    let [(ax, ay), (bx, by), (cx, cy)] = p;
    let mut e = [cx * by - cy * bx, ax * cy - ay * cx, bx * ay - by * ax];
    if e.contains(&0.0) {
        let [(ax, ay), (bx, by), (cx, cy)] = p.map(|(x, y)| (f64::from(x), f64::from(y)));
        e = [
            (cx * by - cy * bx) as f32,
            (ax * cy - ay * cx) as f32,
            (bx * ay - by * ax) as f32,
        ];
    }
    if e.iter().any(|&x| x < 0.0) && e.iter().any(|&x| x > 0.0) {
        return None;
    }
    let det = e[0] + e[1] + e[2];
    if det == 0.0 {
        return None;
    }
    let t = (e[0] * rel[0][kz] + e[1] * rel[1][kz] + e[2] * rel[2][kz]) * sz / det;
    (t >= 0.0 && t.is_finite()).then_some(t)
}

struct WatertightReport {
    rays: usize,
    skipped_targets: usize,
    misses: usize,
    occluded: usize,
    parry_misses: usize,
    ours: std::time::Duration,
    parry: std::time::Duration,
}

/// Cast `count` rays at shared edges and vertices of the closed `geometry`. `convex` asserts that the first
/// hit is the aimed point itself, on one of the faces around it.
fn watertight(
    name: &str,
    geometry: &Geometry,
    count: usize,
    seed: u64,
    convex: bool,
) -> WatertightReport {
    assert!(is_closed(&geometry.1), "{name} is not closed");
    let mesh = build(name, geometry);
    let parry = parry3d::shape::TriMesh::new(
        geometry.0.iter().map(|v| v.p()).collect(),
        geometry.1.clone(),
    )
    .unwrap();
    let mut rng = Rng(seed);
    let all = targets(geometry);
    let diag = (mesh.bounds().max - mesh.bounds().min).length();
    // Rays: round-robin over the targets (each gets about count / targets rays from different origins).
    let mut usable: Vec<(usize, Vec3)> = Vec::new();
    let mut skipped_targets = 0;
    for (i, target) in all.iter().enumerate() {
        match front_direction(&mut rng, target) {
            Some(u) => usable.push((i, u)),
            None => skipped_targets += 1,
        }
    }
    let mut rays = Vec::with_capacity(count);
    for k in 0..count {
        let (i, first) = usable[k % usable.len()];
        let target = &all[i];
        let out = if k < usable.len() {
            first
        } else {
            front_direction(&mut rng, target).unwrap_or(first)
        };
        let distance = diag
            * match rng.below(8) {
                0 => rng.log_range(1e-4, 1e-2),
                1 => rng.log_range(10.0, 1000.0),
                _ => rng.log_range(0.01, 3.0),
            };
        let origin = target.point + out * distance;
        let towards = target.point - origin;
        // `dir` exactly `point - origin` (t = 1 at the target) or normalised (t = distance).
        let (dir, t_target) = if rng.below(2) == 0 {
            (towards, 1.0)
        } else {
            let l = towards.length();
            (towards / l, l)
        };
        rays.push((Ray::new(origin, dir), t_target, i));
    }
    let start = Instant::now();
    let hits: Vec<Option<MeshHit>> = rays
        .iter()
        .map(|(r, _, _)| mesh.cast_ray(r, f32::INFINITY))
        .collect();
    let ours = start.elapsed();
    // parry's rays in its glam, made before its clock starts.
    let prays: Vec<PRay> = rays
        .iter()
        .map(|(r, _, _)| PRay::new(r.origin.p(), r.dir.p()))
        .collect();
    let start = Instant::now();
    let parry_misses = prays
        .iter()
        .filter(|r| {
            parry
                .cast_ray(&Pose::IDENTITY, r, f32::MAX, false)
                .is_none()
        })
        .count();
    let parry_time = start.elapsed();
    let mut misses = 0;
    let mut occluded = 0;
    let mut on_faces = 0;
    let mut elsewhere = 0;
    let mut triangle_test_leaks = 0;
    let mut aim_lost = 0;
    let tris = triangles(&geometry.0, &geometry.1);
    for ((ray, t_target, i), hit) in rays.iter().zip(&hits) {
        let target = &all[*i];
        // The aimed point itself is only known to a few ulps of the coordinates (origin + dir rounds), and
        // every ray makes an angle of at least acos(0.05) with the faces around it.
        let scale = ray.origin.abs().max(target.point.abs()).max_element();
        let tol = 64.0 * f32::EPSILON * scale / ray.dir.length() / 0.05 + 1e-5 * t_target;
        // A miss, or a hit beyond the aimed point (the ray went through the surface there), is a leak.
        let Some(h) = hit.filter(|h| h.t <= t_target + tol) else {
            // The same ray against every triangle with the triangle test alone.
            let alone = tris
                .iter()
                .filter_map(|t| wbw(ray, t))
                .fold(f32::INFINITY, f32::min);
            let exact = nearest_f64(ray, &tris, 0.0);
            if alone > t_target + tol {
                // The triangle test misses too. A leak only if, in f64, this exact ray crosses some triangle by
                // the target clearly inside (farther than rounding from its edges); otherwise the f32 aim
                // drifted onto a silhouette or outside, where f32 and f64 may legitimately differ.
                let clear = tris.iter().any(|t| {
                    nearest_f64(ray, std::slice::from_ref(t), 0.0) <= f64::from(t_target + tol)
                        && !borderline(ray, t, f32::INFINITY)
                });
                if !clear {
                    aim_lost += 1;
                    continue;
                }
                triangle_test_leaks += 1;
            }
            if misses < 12 {
                eprintln!(
                    "{name}: LEAK {ray:?} aimed at {} (t = {t_target}, {}, faces {:?}): got {hit:?}; the \
                     triangle test alone over all triangles: nearest t = {alone}; f64: {exact}",
                    target.point,
                    if target.vertex { "vertex" } else { "edge" },
                    target.faces
                );
            }
            misses += 1;
            continue;
        };
        if h.t < t_target - tol {
            occluded += 1;
        }
        if convex {
            if (h.t - t_target).abs() > tol || !target.near.contains(&h.triangle) {
                if elsewhere < 5 {
                    eprintln!(
                        "{name}: {ray:?} t_target={t_target} hit {h:?}, not around the target {:?}",
                        target.faces
                    );
                }
                elsewhere += 1;
            }
            if target.faces.contains(&h.triangle) {
                on_faces += 1;
            }
        }
    }
    eprintln!(
        "{name}: {} rays at {} edge/vertex targets ({} targets skipped: no direction in front of all \
         their faces): collidoscope {misses} misses ({triangle_test_leaks} of them also with the triangle test \
         alone, without the BVH; {occluded} rays hit something before the target{}) in {ours:.2?}; {aim_lost} \
         more rays missed by the triangle test where f64 only grazes an edge (rounding; not counted); \
         parry3d {parry_misses} misses in {parry_time:.2?}",
        rays.len(),
        usable.len(),
        skipped_targets,
        if convex {
            format!(
                ", {on_faces} on a face around the target, the rest on a neighbour through a vertex"
            )
        } else {
            String::new()
        },
    );
    assert_eq!(
        elsewhere, 0,
        "{name}: convex mesh hit away from the aimed point"
    );
    WatertightReport {
        rays: rays.len(),
        skipped_targets,
        misses,
        occluded,
        parry_misses,
        ours,
        parry: parry_time,
    }
}

fn watertight_suite(total: usize) {
    let ico = icosphere(4, Vec3::new(3.0, -2.0, 5.0), 2.5);
    let bunny = bunny_by_hand();
    let a = watertight("icosphere (5,120 triangles)", &ico, total * 2 / 5, 41, true);
    let b = watertight("bunny (3,674 triangles)", &bunny, total / 2, 42, false);
    // The rest: a small icosphere with no vertex index shared (every triangle has its own three copies), aimed
    // at through its shared-index twin's edges and vertices.
    let c = {
        let shared = icosphere(2, Vec3::new(-7.0, 1.0, 0.5), 0.75);
        let (v, t) = &shared;
        let vertices: Vec<Vec3> = t.iter().flat_map(|t| t.map(|i| v[i as usize])).collect();
        let indices = (0..t.len() as u32)
            .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
            .collect();
        let mesh = build("icosphere soup", &(vertices, indices));
        let mut rng = Rng(43);
        let all = targets(&shared);
        let mut misses = 0;
        let n = total - a.rays - b.rays;
        for k in 0..n {
            let target = &all[k % all.len()];
            let out = front_direction(&mut rng, target).unwrap();
            let origin = target.point + out * rng.log_range(0.01, 5.0);
            let ray = Ray::new(origin, target.point - origin);
            let h = mesh.cast_ray(&ray, f32::INFINITY);
            let tol = 64.0 * f32::EPSILON * 8.0 / ray.dir.length() / 0.05 + 1e-5;
            if h.is_none_or(|h| (h.t - 1.0).abs() > tol) {
                misses += 1;
            }
        }
        eprintln!("icosphere with duplicated vertices: {n} rays, {misses} misses");
        misses
    };
    eprintln!(
        "watertight total: {} rays; collidoscope {} misses ({:.2?}); parry3d {} misses ({:.2?}) on the icosphere \
         and bunny rays",
        total,
        a.misses + b.misses + c,
        a.ours + b.ours,
        a.parry_misses + b.parry_misses,
        a.parry + b.parry
    );
    assert_eq!(a.skipped_targets, 0, "the icosphere is convex");
    assert_eq!(
        a.occluded, 0,
        "nothing on a convex mesh is in front of its surface"
    );
    assert_eq!(
        (a.misses, b.misses, c),
        (0, 0, 0),
        "rays leaked through shared edges/vertices"
    );
}

/// 1,000,000 rays (about 8 s in the test profile on two cores).
#[test]
fn watertight_on_shared_edges_and_vertices() {
    watertight_suite(1_000_000);
}

/// The unit cube `[-1, 1]³` as 12 triangles.
fn cube() -> Geometry {
    let vertices = (0..8)
        .map(|i| {
            let s = |bit: u32| if i & bit == 0 { -1.0 } else { 1.0 };
            Vec3::new(s(1), s(2), s(4))
        })
        .collect();
    let indices = vec![
        [0, 2, 3],
        [0, 3, 1], // z = -1
        [4, 5, 7],
        [4, 7, 6], // z = +1
        [0, 1, 5],
        [0, 5, 4], // y = -1
        [2, 6, 7],
        [2, 7, 3], // y = +1
        [0, 4, 6],
        [0, 6, 2], // x = -1
        [1, 3, 7],
        [1, 7, 5], // x = +1
    ];
    (vertices, indices)
}

/// Integer rays at the cube's edges and corners from integer origins 10 to 1,000 away: every one must stop
/// at the aimed point. The cube's edges lie on the boundary of its faces' boxes, so this also checks that the
/// BVH's ray/box test stays conservative when the origin is far away.
#[test]
fn cube_edges_and_corners_from_far_origins() {
    let g = cube();
    assert!(is_closed(&g.1) && signed_volume(&g.0, &g.1) > 0.0);
    let mesh = build("cube", &g);
    // The first leak found: aimed at the edge point (1, 1, 0), exactly origin + dir.
    let ray = Ray::new(Vec3::new(55.0, 83.0, 19.0), Vec3::new(-54.0, -82.0, -19.0));
    let hit = mesh.cast_ray(&ray, f32::INFINITY);
    let leaked = hit.is_none_or(|h| h.t > 1.0 + 1e-6);
    let mut rng = Rng(81);
    let mut leaks = 0;
    let mut cast = 0;
    for k in 0..30_000 {
        // Corners, edge midpoints, and other points on the edges (coordinates exact in f32).
        let mut target = Vec3::new(
            if rng.below(2) == 0 { -1.0 } else { 1.0 },
            if rng.below(2) == 0 { -1.0 } else { 1.0 },
            if rng.below(2) == 0 { -1.0 } else { 1.0 },
        );
        if k % 3 != 0 {
            target[rng.below(3)] = (rng.below(257) as f32 - 128.0) / 128.0;
        }
        // An origin in front of both (or all three) faces at the target.
        let out = Vec3::new(
            if target.x.abs() == 1.0 {
                target.x * rng.range(0.2, 1.0)
            } else {
                rng.range(-0.1, 0.1)
            },
            if target.y.abs() == 1.0 {
                target.y * rng.range(0.2, 1.0)
            } else {
                rng.range(-0.1, 0.1)
            },
            if target.z.abs() == 1.0 {
                target.z * rng.range(0.2, 1.0)
            } else {
                rng.range(-0.1, 0.1)
            },
        );
        let origin = (target + out.normalize() * [10.0, 100.0, 1000.0][k % 3]).round();
        let ray = Ray::new(origin, target - origin);
        cast += 1;
        let h = mesh.cast_ray(&ray, f32::INFINITY);
        if h.is_none_or(|h| h.t > 1.0 + 1e-6) {
            if leaks < 5 {
                eprintln!("cube: LEAK {ray:?} aimed at {target}: {h:?}");
            }
            leaks += 1;
        }
    }
    eprintln!("cube: {cast} rays at edges and corners, {leaks} leaks");
    assert!(
        !leaked,
        "the ray from (55, 83, 19) along (-54, -82, -19) goes through the cube's edge at (1, 1, 0) (t = 1) \
         but the mesh answers {hit:?}"
    );
    assert_eq!(leaks, 0, "rays leaked through the cube's edges or corners");
}

// ---------------------------------------------------------------------------------------------------------
// Degenerate meshes and queries

fn square_with_degenerates() -> Geometry {
    let vertices = vec![
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(1.0, 1.0, 0.0),
        Vec3::new(0.0, 1.0, 0.0),
        // Collinear points off the square, at z = 0.
        Vec3::new(3.0, 0.0, 0.0),
        Vec3::new(4.0, 0.0, 0.0),
        Vec3::new(5.0, 0.0, 0.0),
        // A sliver at x = 3..4: doubled area far below 1e-6 of the longest edge squared.
        Vec3::new(3.5, 1e-9, 0.0),
    ];
    let indices = vec![
        [4, 5, 6], // 0: collinear
        [0, 1, 2], // 1: valid
        [1, 1, 2], // 2: repeated index
        [4, 5, 7], // 3: sliver
        [0, 2, 3], // 4: valid
        [3, 3, 3], // 5: a point
    ];
    (vertices, indices)
}

#[test]
fn empty_meshes_are_errors() {
    assert_eq!(TriMesh::new(vec![], vec![]).unwrap_err(), MeshError::Empty);
    assert_eq!(
        TriMesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![]).unwrap_err(),
        MeshError::Empty
    );
}

#[test]
fn zero_area_triangles_are_skipped_and_the_others_still_hit() {
    let g = square_with_degenerates();
    let mesh = build("square with degenerates", &g);
    assert_eq!(mesh.triangle_count(), 6);
    // Down through each valid triangle: hit, with the index it has in `indices`.
    for (p, expected) in [(Vec3::new(0.7, 0.2, 2.0), 1), (Vec3::new(0.2, 0.7, 2.0), 4)] {
        for dir in [-Vec3::Z, Vec3::new(0.01, 0.02, -1.0)] {
            let h = mesh.cast_ray(&Ray::new(p, dir), 10.0).unwrap();
            assert_eq!(h.triangle, expected);
            assert!((h.t - 2.0).abs() < 0.01, "{h:?}");
            assert_eq!(h.normal, Vec3::Z);
        }
    }
    // Across the degenerate ones (on their segment, and through the sliver's area): nothing.
    for p in [
        Vec3::new(3.5, 0.0, 2.0),
        Vec3::new(4.5, 0.0, 2.0),
        Vec3::new(3.5, 1e-10, 2.0),
    ] {
        assert_eq!(mesh.cast_ray(&Ray::new(p, -Vec3::Z), 10.0), None);
    }
    // Along the collinear triangles' line, in their plane.
    assert_eq!(
        mesh.cast_ray(&Ray::new(Vec3::new(10.0, 0.0, 0.0), -Vec3::X), 5.0),
        None
    );
    // A sphere touching only the degenerate ones does not overlap; nor does a sweep through them hit.
    let s = Sphere::new(Vec3::new(4.0, 0.0, 0.1), 0.2);
    assert!(!mesh.overlaps_sphere(&s));
    assert_eq!(mesh.sweep_sphere(&s, Vec3::new(0.0, 0.0, -1.0)), None);
    // But the valid ones do.
    assert!(mesh.overlaps_sphere(&Sphere::new(Vec3::new(0.5, 0.5, 0.1), 0.2)));
    let (toi, tri) = mesh
        .sweep_sphere(
            &Sphere::new(Vec3::new(0.7, 0.2, 1.0), 0.25),
            Vec3::new(0.0, 0.0, -1.0),
        )
        .unwrap();
    assert_eq!(tri, 1);
    assert!((toi.t - 0.75).abs() < 1e-4, "{toi:?}");
}

#[test]
fn all_degenerate_is_an_error() {
    let (v, _) = square_with_degenerates();
    assert_eq!(
        TriMesh::new(v.clone(), vec![[4, 5, 6], [1, 1, 2], [4, 5, 7], [3, 3, 3]]).unwrap_err(),
        MeshError::AllDegenerate(4)
    );
    assert_eq!(
        TriMesh::new(vec![Vec3::ONE; 3], vec![[0, 1, 2]]).unwrap_err(),
        MeshError::AllDegenerate(1)
    );
}

#[test]
fn duplicate_vertices_and_duplicate_triangles() {
    // A unit square whose two triangles do not share vertex indices: rays down the diagonal still hit.
    let vertices = vec![
        Vec3::ZERO,
        Vec3::X,
        Vec3::new(1.0, 1.0, 0.0),
        Vec3::ZERO,
        Vec3::new(1.0, 1.0, 0.0),
        Vec3::Y,
    ];
    let mesh = build("split square", &(vertices, vec![[0, 1, 2], [3, 4, 5]]));
    let mut rng = Rng(51);
    for k in 0..=1000 {
        let p = Vec3::ZERO.lerp(Vec3::new(1.0, 1.0, 0.0), k as f32 / 1000.0);
        let origin = p + Vec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(0.1, 3.0),
        );
        let h = mesh.cast_ray(&Ray::new(origin, p - origin), 2.0);
        assert!(
            h.is_some_and(|h| (h.t - 1.0).abs() < 1e-4),
            "{p} from {origin}: {h:?}"
        );
    }
    // The same triangle 200 times: every centroid equal, the builder must still split or stop.
    let v = vec![Vec3::ZERO, Vec3::X, Vec3::Y];
    let mesh = build("200 copies", &(v, vec![[0, 1, 2]; 200]));
    let h = mesh
        .cast_ray(&Ray::new(Vec3::new(0.2, 0.2, 1.0), -Vec3::Z), 2.0)
        .unwrap();
    assert!(h.triangle < 200 && h.t == 1.0, "{h:?}");
    assert!(mesh.overlaps_sphere(&Sphere::new(Vec3::new(0.2, 0.2, 0.5), 0.5)));
    // Vertices repeated in the buffer but only some used; unused vertices are fine.
    let v = vec![Vec3::ZERO; 10]
        .into_iter()
        .chain([Vec3::X, Vec3::Y, Vec3::Z])
        .collect::<Vec<_>>();
    let mesh = build("unused vertices", &(v, vec![[3, 10, 11], [7, 11, 12]]));
    assert_eq!(mesh.triangle_count(), 2);
}

#[test]
fn out_of_range_indices_are_errors() {
    let v = vec![Vec3::ZERO, Vec3::X, Vec3::Y];
    assert_eq!(
        TriMesh::new(v.clone(), vec![[0, 1, 2], [0, 1, 3]]).unwrap_err(),
        MeshError::IndexOutOfRange {
            triangle: 1,
            index: 3,
            vertex_count: 3
        }
    );
    assert!(matches!(
        TriMesh::new(v.clone(), vec![[u32::MAX, 1, 2]]),
        Err(MeshError::IndexOutOfRange {
            triangle: 0,
            index: u32::MAX,
            ..
        })
    ));
    assert!(matches!(
        TriMesh::new(vec![], vec![[0, 0, 0]]),
        Err(MeshError::IndexOutOfRange { .. })
    ));
}

#[test]
fn non_finite_vertices_are_errors() {
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let v = vec![Vec3::ZERO, Vec3::X, Vec3::new(0.0, bad, 0.0)];
        assert_eq!(
            TriMesh::new(v, vec![[0, 1, 2]]).unwrap_err(),
            MeshError::NonFiniteVertex { index: 2 }
        );
    }
    // A NaN vertex that no triangle uses: an error or ignored, never a panic.
    let v = vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::NAN];
    if let Ok(mesh) = TriMesh::new(v, vec![[0, 1, 2]]) {
        mesh.assert_well_formed();
        assert!(
            mesh.cast_ray(&Ray::new(Vec3::new(0.2, 0.2, 1.0), -Vec3::Z), 2.0)
                .is_some()
        );
    }
}

#[test]
fn extreme_coordinates_never_panic() {
    let mut rng = Rng(61);
    for scale in [1e-20f32, 1e-6, 1e6, 1e12, 1e18, 1e30, 1e37] {
        let g = soup(
            &mut rng,
            50,
            Vec3::splat(-scale),
            Vec3::splat(scale),
            scale * 0.01,
            scale,
        );
        let mesh = match TriMesh::new(g.0.clone(), g.1.clone()) {
            Ok(mesh) => mesh,
            Err(e) => {
                assert!(matches!(e, MeshError::AllDegenerate(_)), "{scale}: {e}");
                continue;
            }
        };
        mesh.assert_well_formed();
        for _ in 0..200 {
            let o = rng.in_box(Vec3::splat(-2.0 * scale), Vec3::splat(2.0 * scale));
            let ray = Ray::new(o, rng.unit() * rng.log_range(1e-3, 1e3));
            if let Some(h) = mesh.cast_ray(&ray, f32::INFINITY) {
                assert!(h.t.is_finite() && h.normal.is_finite(), "{scale}: {h:?}");
            }
            let s = Sphere::new(o, scale * 0.3);
            let _ = mesh.overlaps_sphere(&s);
            if let Some((toi, _)) = mesh.sweep_sphere(&s, rng.unit() * scale) {
                assert!(toi.t.is_finite() && (0.0..=1.0).contains(&toi.t), "{toi:?}");
            }
        }
    }
}

#[test]
fn invalid_queries_give_none_or_false() {
    let mesh = build("bunny", &bunny_by_hand());
    let o = Vec3::new(0.0, 5.0, 20.0);
    let at_bunny = Vec3::new(0.0, 4.0, 0.0) - o;
    assert!(
        mesh.cast_ray(&Ray::new(o, at_bunny), f32::INFINITY)
            .is_some()
    );
    let bad_rays = [
        Ray::new(o, Vec3::ZERO),
        Ray::new(o, Vec3::new(f32::NAN, 0.0, -1.0)),
        Ray::new(Vec3::new(f32::NAN, 5.0, 20.0), at_bunny),
        Ray::new(Vec3::new(f32::INFINITY, 5.0, 20.0), at_bunny),
        Ray::new(o, Vec3::new(0.0, f32::INFINITY, -1.0)),
        Ray::new(Vec3::NAN, Vec3::NAN),
    ];
    for ray in bad_rays {
        assert_eq!(mesh.cast_ray(&ray, f32::INFINITY), None, "{ray:?}");
        assert_eq!(mesh.cast_rays(&[ray]), vec![None], "{ray:?}");
    }
    for max_t in [f32::NAN, -1.0, f32::NEG_INFINITY] {
        assert_eq!(
            mesh.cast_ray(&Ray::new(o, at_bunny), max_t),
            None,
            "{max_t}"
        );
    }
    // max_t short of the bunny.
    assert_eq!(mesh.cast_ray(&Ray::new(o, at_bunny), 0.1), None);
    let c = Vec3::new(0.0, 4.0, 0.0);
    for s in [
        Sphere::new(c, 0.0),
        Sphere::new(c, -1.0),
        Sphere::new(c, f32::NAN),
        Sphere::new(Vec3::NAN, 1.0),
        Sphere::new(c, f32::INFINITY),
    ] {
        assert!(!mesh.overlaps_sphere(&s), "{s:?}");
        assert_eq!(mesh.sweep_sphere(&s, Vec3::X), None, "{s:?}");
    }
    let s = Sphere::new(Vec3::new(0.0, 5.0, 20.0), 0.5);
    for m in [Vec3::NAN, Vec3::new(0.0, 0.0, f32::INFINITY)] {
        assert_eq!(mesh.sweep_sphere(&s, m), None, "{m}");
    }
}

// ---------------------------------------------------------------------------------------------------------
// OBJ import

#[test]
fn bunny_obj_loads_with_the_documented_counts() {
    let by_hand = bunny_by_hand();
    // tests/data/README.md: 1,839 vertices, 3,674 triangles, closed, outward.
    assert_eq!((by_hand.0.len(), by_hand.1.len()), (1_839, 3_674));
    assert!(is_closed(&by_hand.1));
    let edges = edge_map(&by_hand.1);
    assert_eq!(edges.len(), 5_511);
    assert!((signed_volume(&by_hand.0, &by_hand.1) - 194.288).abs() < 0.01);
    let from_file = TriMesh::from_obj(&data_path("bunny.obj")).unwrap();
    from_file.assert_well_formed();
    assert_eq!(from_file.triangle_count(), 3_674);
    let text = std::fs::read_to_string(data_path("bunny.obj")).unwrap();
    let from_str = TriMesh::from_obj_str(&text).unwrap();
    assert_eq!(from_str.triangle_count(), 3_674);
    // The same triangles, in the same order, as the hand-parsed file.
    let expected = triangles(&by_hand.0, &by_hand.1);
    for mesh in [&from_file, &from_str] {
        for (i, tri) in expected.iter().enumerate() {
            assert_eq!(mesh.triangle(i as u32).as_ref(), Some(tri), "triangle {i}");
        }
        assert!(
            expected.iter().all(Triangle::is_valid),
            "the bunny has a degenerate triangle"
        );
    }
}

#[test]
fn bad_obj_text_is_an_obj_error() {
    for text in [
        "v 1 2\nv 0 0 0\nv 1 0 0\nf 1 2 3\n",
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x\n",
        "v a b c\n",
    ] {
        let e = TriMesh::from_obj_str(text).unwrap_err();
        assert!(matches!(e, MeshError::Obj(_)), "{text:?}: {e:?}");
    }
    // Not OBJ errors, but errors: no faces; faces outside the vertex list (tobj or TriMesh::new).
    assert!(TriMesh::from_obj_str("").is_err());
    assert!(TriMesh::from_obj_str("v 0 0 0\nv 1 0 0\nv 0 1 0\n").is_err());
    assert!(TriMesh::from_obj_str("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n").is_err());
    // A two-vertex face: tobj accepts it; the mesh has no usable triangle.
    assert!(TriMesh::from_obj_str("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n").is_err());
    let missing = data_path("no such file.obj");
    assert!(matches!(
        TriMesh::from_obj(&missing),
        Err(MeshError::Obj(_))
    ));
    // A quad and a pentagon are triangulated.
    let polys = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv -1 0.5 0\nf 1 2 3 4\nf 1 4 5\n";
    assert_eq!(TriMesh::from_obj_str(polys).unwrap().triangle_count(), 3);
}

// ---------------------------------------------------------------------------------------------------------
// Sphere overlap and sweep against brute force

fn sphere_cases(rng: &mut Rng, tris: &[Triangle], diag: f32, n: usize) -> Vec<(Sphere, Vec3)> {
    let valid: Vec<&Triangle> = tris.iter().filter(|t| t.is_valid()).collect();
    (0..n)
        .map(|_| {
            let tri = valid[rng.below(valid.len())];
            let (w0, w1, w2) = rng.bary();
            let on = tri.a * w0 + tri.b * w1 + tri.c * w2;
            let r = diag * rng.log_range(1e-4, 0.2);
            // Centre near the surface: about one radius away, so both answers are common.
            let centre = on + rng.unit() * r * rng.range(0.0, 2.0);
            let motion = rng.unit() * diag * rng.log_range(1e-3, 1.0);
            (Sphere::new(centre, r), motion)
        })
        .collect()
}

fn compare_spheres(name: &str, geometry: &Geometry, n: usize, seed: u64) {
    let start = Instant::now();
    let mesh = build(name, geometry);
    let tris = triangles(&geometry.0, &geometry.1);
    let diag = (mesh.bounds().max - mesh.bounds().min).length();
    let mut rng = Rng(seed);
    let (mut overlaps, mut sweeps) = (0, 0);
    for (sphere, motion) in sphere_cases(&mut rng, &tris, diag, n) {
        let brute = tris.iter().any(|t| overlap::sphere_triangle(&sphere, t));
        assert_eq!(mesh.overlaps_sphere(&sphere), brute, "{name}: {sphere:?}");
        overlaps += usize::from(brute);
        let brute = tris
            .iter()
            .enumerate()
            .filter_map(|(i, t)| {
                sweep::sphere_triangle(&sphere, motion, t).map(|toi| (toi, i as u32))
            })
            .min_by(|a, b| a.0.t.total_cmp(&b.0.t));
        let fast = mesh.sweep_sphere(&sphere, motion);
        match (fast, brute) {
            (None, None) => {}
            (Some((f, fi)), Some((b, _))) => {
                sweeps += 1;
                assert_eq!(f.t, b.t, "{name}: {sphere:?} {motion}: {f:?} vs {b:?}");
                // The triangle reported gives that time on its own.
                let own = sweep::sphere_triangle(&sphere, motion, &tris[fi as usize]).unwrap();
                assert_eq!(own, f, "{name}: triangle {fi}");
            }
            other => panic!("{name}: {sphere:?} motion {motion}: mesh/brute {other:?}"),
        }
    }
    eprintln!(
        "{name}: {n} spheres, {overlaps} overlapping, {sweeps} sweeps hitting, {:.2?}",
        start.elapsed()
    );
    assert!(overlaps >= n / 20 && n - overlaps >= n / 50, "{overlaps}");
    assert!(sweeps > n / 10, "{sweeps}");
}

#[test]
fn overlaps_and_sweeps_equal_brute_force() {
    let mut rng = Rng(71);
    let g = soup(
        &mut rng,
        800,
        Vec3::splat(-10.0),
        Vec3::splat(10.0),
        0.05,
        3.0,
    );
    compare_spheres("uniform soup", &g, 5_000, 72);
    compare_spheres(
        "pooled soup",
        &pooled_soup(&mut rng, 800, 300, 5.0),
        3_000,
        73,
    );
    compare_spheres("terrain", &terrain(3_000, 50.0, 9), 5_000, 74);
    compare_spheres("bunny", &bunny_by_hand(), 5_000, 75);
    compare_spheres("same-box fan", &same_box_fan(&mut rng, 1_000), 2_000, 76);
}
