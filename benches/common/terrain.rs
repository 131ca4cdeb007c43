//! The character benches' terrain (shared by `benches/character.rs` and `benches/bodies.rs` through
//! `#[path]`): `generate::terrain(100_000, 200.0, 7)` with its heights scaled by [`TERRAIN_RELIEF`], crates
//! (some turned about `y`) 0.2 to 0.6 m above the highest ground under them and sunk 0.3 m below the lowest,
//! and tall blocks, all within 70 m of the centre.

use collidoscope::character::CharacterController;
use collidoscope::generate::{SplitMix64, terrain};
use collidoscope::glam::{Mat3, Vec2, Vec3};
use collidoscope::level::ObjectId;
use collidoscope::mesh::TriMesh;
use collidoscope::scene::{Scene, Static};
use collidoscope::shape::{Aabb, Obb, Ray};

/// Triangles asked of `generate::terrain`.
pub const TERRAIN_TRIANGLES: usize = 100_000;
/// The terrain's side, metres.
pub const TERRAIN_SIZE: f32 = 200.0;
/// The terrain's heights are `generate::terrain`'s times this (a few metres of relief over 200 m).
pub const TERRAIN_RELIEF: f32 = 0.15;
/// Axis-aligned crates on the terrain.
pub const CRATES: usize = 240;
/// Crates turned about `y` on the terrain.
pub const TURNED_CRATES: usize = 80;
/// Tall blocks on the terrain.
pub const BLOCKS: usize = 60;

/// The terrain's heights on its grid, for the floor height anywhere (the mesh's own triangles, interpolated).
pub struct Heightfield {
    /// Vertices per side.
    pub n: usize,
    /// The grid's cell, metres.
    pub step: f32,
    /// Half the side, metres.
    pub half: f32,
    /// Heights, row by row (`z`), `n` a row.
    pub heights: Vec<f32>,
}

impl Heightfield {
    /// The height of the terrain's surface at `(x, z)`, or `None` outside it. The cell `(i, j)` is split along
    /// its diagonal from `(i + 1, j)` to `(i, j + 1)`, as `generate::terrain` splits it.
    pub fn height(&self, x: f32, z: f32) -> Option<f32> {
        let cells = self.n - 1;
        let (u, v) = ((x + self.half) / self.step, (z + self.half) / self.step);
        if !(u >= 0.0 && v >= 0.0 && u <= cells as f32 && v <= cells as f32) {
            return None;
        }
        let (i, j) = ((u as usize).min(cells - 1), (v as usize).min(cells - 1));
        let (fu, fv) = (u - i as f32, v - j as f32);
        let h = |i: usize, j: usize| self.heights[j * self.n + i];
        let (a, b, c, d) = (h(i, j), h(i + 1, j), h(i, j + 1), h(i + 1, j + 1));
        Some(if fu + fv <= 1.0 {
            a + fu * (b - a) + fv * (c - a)
        } else {
            d + (1.0 - fu) * (c - d) + (1.0 - fv) * (b - d)
        })
    }
}

/// A box sitting on the terrain: its top `rise` above the highest ground under its footprint, its bottom
/// 0.3 m below the lowest (the footprint sampled at its corners, edge midpoints and centre).
pub fn on_ground(field: &Heightfield, center: Vec2, half: Vec2, yaw: f32, rise: f32) -> (f32, f32) {
    let (s, c) = yaw.sin_cos();
    let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
    for i in -1..=1 {
        for k in -1..=1 {
            let p = Vec2::new(i as f32 * half.x, k as f32 * half.y);
            let w = center + Vec2::new(c * p.x + s * p.y, -s * p.x + c * p.y);
            let h = field.height(w.x, w.y).unwrap_or(0.0);
            lo = lo.min(h);
            hi = hi.max(h);
        }
    }
    (lo - 0.3, hi + rise)
}

/// The terrain's objects (the mesh as object 1, then the crates and blocks), its heightfield, and a line
/// describing it (triangles, grid, steepest triangle).
pub fn terrain_objects() -> (Vec<(ObjectId, Static)>, Heightfield, String) {
    let (mut vertices, indices) = terrain(TERRAIN_TRIANGLES, TERRAIN_SIZE, 7);
    for v in &mut vertices {
        v.y *= TERRAIN_RELIEF;
    }
    let n = (vertices.len() as f64).sqrt().round() as usize;
    assert_eq!(n * n, vertices.len(), "the terrain is a square grid");
    let field = Heightfield {
        n,
        step: TERRAIN_SIZE / (n - 1) as f32,
        half: TERRAIN_SIZE * 0.5,
        heights: vertices.iter().map(|v| v.y).collect(),
    };
    let steepest = indices
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| vertices[i as usize]);
            (b - a).cross(c - a).normalize().y.abs().acos().to_degrees()
        })
        .fold(0.0f32, f32::max);
    let triangles = indices.len();
    let mut objects = vec![(
        ObjectId(1),
        Static::Mesh(TriMesh::new(vertices, indices).expect("the terrain mesh")),
    )];
    let mut rng = SplitMix64::new(23);
    let mut next = 100u32;
    let mut id = || {
        next += 1;
        ObjectId(next)
    };
    let place = |rng: &mut SplitMix64| Vec2::new(rng.range(-70.0, 70.0), rng.range(-70.0, 70.0));
    for k in 0..CRATES + TURNED_CRATES {
        let center = place(&mut rng);
        let half = Vec2::new(rng.range(0.25, 1.0), rng.range(0.25, 1.0));
        let rise = rng.range(0.2, 0.6);
        let yaw = if k < CRATES {
            0.0
        } else {
            rng.range(0.0, std::f32::consts::PI)
        };
        let (bottom, top) = on_ground(&field, center, half, yaw, rise);
        let (c3, h3) = (
            Vec3::new(center.x, (bottom + top) * 0.5, center.y),
            Vec3::new(half.x, (top - bottom) * 0.5, half.y),
        );
        let shape = if k < CRATES {
            Static::Aabb(Aabb::from_center_half_extents(c3, h3))
        } else {
            Static::Obb(Obb::new(c3, h3, Mat3::from_rotation_y(yaw)))
        };
        objects.push((id(), shape));
    }
    for _ in 0..BLOCKS {
        let center = place(&mut rng);
        let half = Vec2::new(rng.range(0.5, 2.0), rng.range(0.5, 2.0));
        let rise = rng.range(1.5, 4.0);
        let (bottom, top) = on_ground(&field, center, half, 0.0, rise);
        objects.push((
            id(),
            Static::Aabb(Aabb::new(
                Vec3::new(center.x - half.x, bottom, center.y - half.y),
                Vec3::new(center.x + half.x, top, center.y + half.y),
            )),
        ));
    }
    let note = format!(
        "terrain: {triangles} triangles ({n} x {n} vertices, {:.2} m cells, heights x {TERRAIN_RELIEF}, \
         steepest triangle {steepest:.1}°), {CRATES} crates, {TURNED_CRATES} turned crates, {BLOCKS} blocks",
        field.step
    );
    (objects, field, note)
}

/// `n` starting feet in `lo..hi` (x, z): 2 cm above what a ray down from 60 m finds (raised by up to 0.3 m
/// where the body would touch a slope), clear of everything by a skin.
pub fn starts(
    scene: &Scene,
    c: &CharacterController,
    lo: Vec2,
    hi: Vec2,
    n: usize,
    seed: u64,
) -> Vec<Vec3> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let (x, z) = (rng.range(lo.x, hi.x), rng.range(lo.y, hi.y));
        let Some(hit) = scene.cast_ray(&Ray::new(Vec3::new(x, 60.0, z), -Vec3::Y), 200.0) else {
            continue;
        };
        for lift in [0.02, 0.1, 0.2, 0.3] {
            let feet = hit.point + Vec3::Y * lift;
            let mut body = c.capsule(feet);
            body.radius += c.skin;
            if scene.overlap_capsule(&body).is_empty() {
                out.push(feet);
                break;
            }
        }
    }
    out
}
