//! Recast's tiled build for the navigation bench (`recast.rs`, feature `bench-recast`): the level cut into
//! square tiles, each built with a border of `walkable_radius + 3` cells (as Recast's tile demo does), and
//! the tiles' polygons joined where their edges meet on the tiles' sides (as Detour's `connectExtLinks`
//! does: the overlap of two edges on the same line, heights within the climb).
//!
//! Recast's single-mesh build gives up on `maze_large` (one watershed region spans the maze, and rerecast
//! refuses the contour it cannot triangulate where Recast would log a warning): tiles are Recast's own
//! answer for large levels.

use std::collections::HashMap;

use collidoscope::glam::Vec3;
use collidoscope::shape::Aabb;
use rerecast::{Config, DetailNavmesh, PolygonNavmesh, TriMesh};

use crate::recast::{Border, Link, Poly, run_pipeline};

/// The tiles' meshes, and the tiles Recast failed on (left empty, as Recast leaves them).
pub(crate) type Tiles = (Vec<(PolygonNavmesh, DetailNavmesh)>, usize);

/// Build `tile`-cell tiles over `bounds` from `trimesh` (each tile given the triangles near it).
pub(crate) fn build_tiles(trimesh: &TriMesh, config: &Config, bounds: &Aabb, tile: u16) -> Tiles {
    let cs = config.cell_size;
    let border = config.walkable_radius + 3;
    let side = f32::from(tile) * cs;
    let pad = f32::from(border) * cs;
    let nx = ((bounds.max.x - bounds.min.x) / side).ceil().max(1.0) as usize;
    let nz = ((bounds.max.z - bounds.min.z) / side).ceil().max(1.0) as usize;
    let index =
        |v: f32, lo: f32, n: usize| ((v - lo) / side).floor().clamp(0.0, (n - 1) as f32) as usize;
    let mut buckets = vec![Vec::new(); nx * nz];
    for (i, t) in trimesh.indices.iter().enumerate() {
        let v = [0, 1, 2].map(|k| trimesh.vertices[t[k] as usize]);
        let (lo, hi) = (v[0].min(v[1]).min(v[2]), v[0].max(v[1]).max(v[2]));
        let (x0, x1) = (
            index(lo.x - pad, bounds.min.x, nx),
            index(hi.x + pad, bounds.min.x, nx),
        );
        let (z0, z1) = (
            index(lo.z - pad, bounds.min.z, nz),
            index(hi.z + pad, bounds.min.z, nz),
        );
        for z in z0..=z1 {
            for x in x0..=x1 {
                buckets[z * nx + x].push(i);
            }
        }
    }
    let mut config = config.clone();
    config.border_size = border;
    config.tile_size = tile;
    let (mut out, mut failed) = (Vec::new(), 0);
    for (k, bucket) in buckets.iter().enumerate() {
        if bucket.is_empty() {
            continue;
        }
        let (tx, tz) = ((k % nx) as f32, (k / nx) as f32);
        let min = Vec3::new(
            bounds.min.x + tx * side - pad,
            bounds.min.y,
            bounds.min.z + tz * side - pad,
        );
        let max = Vec3::new(
            min.x + side + 2.0 * pad,
            bounds.max.y,
            min.z + side + 2.0 * pad,
        );
        let mut sub = TriMesh {
            vertices: Vec::with_capacity(bucket.len() * 3),
            indices: Vec::with_capacity(bucket.len()),
            area_types: Vec::with_capacity(bucket.len()),
        };
        for (j, &i) in bucket.iter().enumerate() {
            let t = trimesh.indices[i];
            sub.vertices
                .extend([0, 1, 2].map(|c| trimesh.vertices[t[c] as usize]));
            let b = 3 * j as u32;
            sub.indices.push(glam_parry::UVec3::new(b, b + 1, b + 2));
            sub.area_types.push(trimesh.area_types[i]);
        }
        match run_pipeline(&sub, &config, &Aabb::new(min, max)) {
            Ok(m) => out.push(m),
            Err(_) => failed += 1,
        }
    }
    (out, failed)
}

/// Where along `e` (from `a` to `b`) the coordinate `axis` (0: x, 2: z) is `c`, interpolated.
fn at(a: Vec3, b: Vec3, axis: usize, c: f32) -> Vec3 {
    let d = b[axis] - a[axis];
    let t = if d.abs() < 1e-6 {
        0.0
    } else {
        ((c - a[axis]) / d).clamp(0.0, 1.0)
    };
    a.lerp(b, t)
}

/// Join the polygons whose tile-side edges (`borders`) meet: on the same line (to a hundredth of a
/// cell), overlapping along it, within `climb` of each other in height at both ends of the overlap.
pub(crate) fn stitch(polys: &mut [Poly], borders: &[Border], cell: f32, climb: f32) {
    // Sides 0 (−x) and 2 (+x) lie on lines of constant x; 1 (+z) and 3 (−z) on lines of constant z.
    let mut lines: HashMap<(u16, i64), Vec<usize>> = HashMap::new();
    for (k, b) in borders.iter().enumerate() {
        let c = if b.side % 2 == 0 { b.a.x } else { b.a.z };
        lines
            .entry((b.side % 2, (c / cell * 100.0).round() as i64))
            .or_default()
            .push(k);
    }
    for group in lines.values() {
        for &i in group {
            for &j in group {
                let (e, f) = (&borders[i], &borders[j]);
                // Each pair once: the +x side against a −x one, the +z against a −z.
                if !(e.side == 2 && f.side == 0 || e.side == 1 && f.side == 3) {
                    continue;
                }
                // Along the line: z for x sides, x for z sides.
                let along = if e.side == 2 { 2 } else { 0 };
                let lo = e.a[along].min(e.b[along]).max(f.a[along].min(f.b[along]));
                let hi = e.a[along].max(e.b[along]).min(f.a[along].max(f.b[along]));
                if hi - lo < 0.01 {
                    continue;
                }
                let (ea, eb) = (at(e.a, e.b, along, lo), at(e.a, e.b, along, hi));
                let (fa, fb) = (at(f.a, f.b, along, lo), at(f.a, f.b, along, hi));
                if (ea.y - fa.y).abs() > climb || (eb.y - fb.y).abs() > climb {
                    continue;
                }
                polys[e.poly as usize].links.push(Link {
                    to: f.poly,
                    a: ea,
                    b: eb,
                });
                polys[f.poly as usize].links.push(Link {
                    to: e.poly,
                    a: ea,
                    b: eb,
                });
            }
        }
    }
}
