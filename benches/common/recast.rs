//! The Recast side of the navigation bench (`benches/nav.rs`, feature `bench-recast`): a level's scene as
//! triangles, a Recast navmesh built from them with rerecast (rasterize, filter, compact, erode, distance
//! field, regions, contours, polygon mesh, detail mesh: the single-mesh pipeline of Recast's demo), and path
//! queries on it. rerecast has no Detour, so the queries are written here: the nearest polygon in a box
//! around a point (as Detour's `findNearestPoly`), A* over the polygons' shared edges (node positions at the
//! edges' midpoints, as Detour's), and the string-pulling funnel of Detour's `findStraightPath`.
//!
//! The agent is the controller's: radius, height, `max_step` as the walkable climb, `max_slope_deg` as the
//! walkable slope, on a 0.25 m cell (Recast erodes by the radius rounded up to whole cells) and 5 cm layers
//! (so the climb is exactly `max_step`). The rest are rerecast's `ConfigBuilder` defaults (Recast's demo's:
//! regions of at least 8×8 cells kept, merged below 20×20, polygons of up to 6 vertices), and no border, as
//! Recast's demo builds a single mesh.

use std::collections::BinaryHeap;
use std::time::Instant;

use collidoscope::character::CharacterController;
use collidoscope::glam::{Vec2, Vec3};
use collidoscope::scene::{Scene, Static};
use collidoscope::shape::Aabb;
use glam_parry as g;
use rerecast::{
    AreaType, Config, ConfigBuilder, DetailNavmesh, HeightfieldBuilder, PolygonNavmesh, TriMesh,
};

/// Recast's layer height, metres: fine enough that `max_step` (0.35 m) is a whole number of layers.
pub const CELL_HEIGHT: f32 = 0.05;
/// Half the box a point is looked up in (Detour's query extents), horizontally and vertically, metres.
pub const QUERY_EXTENT: f32 = 1.0;

/// A way from one polygon into another: the shared part of their edges.
pub(crate) struct Link {
    /// The other polygon.
    pub(crate) to: u32,
    /// The shared segment's ends.
    pub(crate) a: Vec3,
    pub(crate) b: Vec3,
}

/// One polygon of the mesh in world space.
pub(crate) struct Poly {
    /// Its corners (a convex polygon on the XZ plane).
    pub(crate) verts: Vec<Vec3>,
    /// The polygons joined to it and the shared part of the edge between them.
    pub(crate) links: Vec<Link>,
    /// Its detail triangles (for heights).
    tris: Vec<[Vec3; 3]>,
    /// Its horizontal bounds (x, z).
    lo: Vec2,
    hi: Vec2,
}

/// A Recast navmesh ready for path queries.
pub struct RecastMesh {
    polys: Vec<Poly>,
    /// Seconds the Recast build took (from the triangles to the detail mesh).
    pub seconds: f64,
    /// Triangles fed to Recast.
    pub triangles: usize,
    /// Tiles Recast failed on (left empty), in a tiled build.
    pub failed_tiles: usize,
}

fn flat(v: Vec3) -> Vec2 {
    Vec2::new(v.x, v.z)
}

/// The 2D cross product on the XZ plane: positive when `b` is to the left of `a` (x right, z up).
fn cross2(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}

/// Push a box's twelve triangles.
fn push_box(out: &mut Vec<[Vec3; 3]>, c: [Vec3; 8]) {
    // Corners indexed by bits x = 1, y = 2, z = 4 (as `Obb::corners`).
    const FACES: [[usize; 4]; 6] = [
        [0, 1, 3, 2],
        [4, 6, 7, 5],
        [0, 2, 6, 4],
        [1, 5, 7, 3],
        [0, 4, 5, 1],
        [2, 3, 7, 6],
    ];
    for f in FACES {
        out.push([c[f[0]], c[f[1]], c[f[2]]]);
        out.push([c[f[0]], c[f[2]], c[f[3]]]);
    }
}

/// Push a prism: the outline `ring` (x, z) from `y0` to `y1`, its top fanned.
fn push_prism(out: &mut Vec<[Vec3; 3]>, ring: &[Vec2], y0: f32, y1: f32) {
    let at = |p: Vec2, y: f32| Vec3::new(p.x, y, p.y);
    for i in 0..ring.len() {
        let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
        out.push([at(a, y0), at(b, y0), at(b, y1)]);
        out.push([at(a, y0), at(b, y1), at(a, y1)]);
        if i >= 1 && i + 1 < ring.len() {
            out.push([at(ring[0], y1), at(a, y1), at(b, y1)]);
            out.push([at(ring[0], y0), at(b, y0), at(a, y0)]);
        }
    }
}

/// One object as triangles: boxes and walls as closed solids (a wall's round ends as half octagons, a
/// cylinder as a 12-sided prism), a plane as a quad over `bounds` grown by 2 m.
fn push_static(out: &mut Vec<[Vec3; 3]>, shape: &Static, bounds: &Aabb) {
    match shape {
        Static::Aabb(b) => {
            let (lo, hi) = (b.min, b.max);
            push_box(
                out,
                std::array::from_fn(|i| {
                    Vec3::new(
                        if i & 1 == 0 { lo.x } else { hi.x },
                        if i & 2 == 0 { lo.y } else { hi.y },
                        if i & 4 == 0 { lo.z } else { hi.z },
                    )
                }),
            );
        }
        Static::Obb(o) => push_box(out, o.corners()),
        Static::Triangle(t) => out.push([t.a, t.b, t.c]),
        Static::Mesh(m) => {
            let v = m.vertices();
            out.extend(m.indices().iter().map(|t| t.map(|i| v[i as usize])));
        }
        Static::Wall { wall, height } => {
            let d = (wall.b - wall.a).normalize_or(Vec2::X);
            let mut ring = Vec::with_capacity(10);
            for (end, dir) in [(wall.b, d), (wall.a, -d)] {
                let side = Vec2::new(-dir.y, dir.x);
                for k in 0..=4 {
                    let a = -std::f32::consts::FRAC_PI_2 + k as f32 * std::f32::consts::FRAC_PI_4;
                    ring.push(end + (dir * a.cos() + side * a.sin()) * wall.radius);
                }
            }
            push_prism(out, &ring, 0.0, *height);
        }
        Static::Cylinder(c) => {
            let axis = (c.b - c.a).normalize_or(Vec3::Y);
            let u = axis.any_orthonormal_vector();
            let w = axis.cross(u);
            let ring: Vec<Vec3> = (0..12)
                .map(|k| {
                    let a = k as f32 * std::f32::consts::TAU / 12.0;
                    (u * a.cos() + w * a.sin()) * c.radius
                })
                .collect();
            for i in 0..12 {
                let (p, q) = (ring[i], ring[(i + 1) % 12]);
                out.push([c.a + p, c.a + q, c.b + q]);
                out.push([c.a + p, c.b + q, c.b + p]);
                out.push([c.a, c.a + q, c.a + p]);
                out.push([c.b, c.b + p, c.b + q]);
            }
        }
        Static::Plane(p) => {
            let n = p.normal.normalize_or(Vec3::Y);
            let centre = bounds.center();
            let on = centre - n * (n.dot(centre) - p.d / p.normal.length().max(1e-6));
            let r = (bounds.max - bounds.min).length() * 0.5 + 2.0;
            let u = n.any_orthonormal_vector() * r;
            let w = n.cross(u.normalize_or(Vec3::X)) * r;
            let (a, b, c, d) = (on - u - w, on + u - w, on + u + w, on - u + w);
            out.push([a, b, c]);
            out.push([a, c, d]);
        }
    }
}

/// The scene's objects as triangles (every one turned to face up: the runtime's triangles are two-sided).
pub fn scene_triangles(scene: &Scene, bounds: &Aabb) -> Vec<[Vec3; 3]> {
    let mut out = Vec::new();
    for (_, shape) in scene.objects() {
        push_static(&mut out, shape, bounds);
    }
    for t in &mut out {
        if (t[1] - t[0]).cross(t[2] - t[0]).y < 0.0 {
            t.swap(1, 2);
        }
    }
    out
}

fn v33(v: Vec3) -> g::Vec3 {
    g::Vec3::new(v.x, v.y, v.z)
}

fn v32(v: g::Vec3) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

/// The triangles as Recast's input, walkable where they are no steeper than `slope` (radians).
pub(crate) fn walkable_trimesh(tris: &[[Vec3; 3]], slope: f32) -> TriMesh {
    let mut trimesh = TriMesh {
        vertices: Vec::with_capacity(tris.len() * 3),
        indices: Vec::with_capacity(tris.len()),
        area_types: Vec::with_capacity(tris.len()),
    };
    for (i, t) in tris.iter().enumerate() {
        trimesh
            .vertices
            .extend(t.iter().map(|&v| g::Vec3A::from(v33(v))));
        let k = 3 * i as u32;
        trimesh.indices.push(g::UVec3::new(k, k + 1, k + 2));
        trimesh.area_types.push(AreaType::NOT_WALKABLE);
    }
    trimesh.mark_walkable_triangles(slope);
    trimesh
}

/// Recast's configuration for `ctl` on `cell` cells over `bounds`.
pub(crate) fn recast_config(ctl: &CharacterController, cell: f32, bounds: &Aabb) -> Config {
    let mut config = ConfigBuilder {
        agent_radius: ctl.radius,
        agent_height: ctl.height,
        walkable_climb: ctl.max_step,
        walkable_slope_angle: ctl.max_slope_deg.to_radians(),
        cell_size_fraction: ctl.radius / cell,
        cell_height_fraction: ctl.radius / CELL_HEIGHT,
        aabb: aabb3d(bounds),
        ..ConfigBuilder::default()
    }
    .build();
    // Exact cells, a climb of exactly `max_step`, the radius rounded up as Recast rounds it, no border.
    config.cell_size = cell;
    config.cell_height = CELL_HEIGHT;
    config.walkable_height = (ctl.height / CELL_HEIGHT - 1e-3).ceil() as u16;
    config.walkable_climb = (ctl.max_step / CELL_HEIGHT + 1e-3).floor() as u16;
    config.walkable_radius = (ctl.radius / cell - 1e-3).ceil() as u16;
    config.max_edge_len = config.walkable_radius * 8;
    config.border_size = 0;
    config.detail_sample_dist = cell * 6.0;
    config.detail_sample_max_error = CELL_HEIGHT;
    config
}

fn aabb3d(b: &Aabb) -> rerecast::Aabb3d {
    rerecast::Aabb3d {
        min: v33(b.min),
        max: v33(b.max),
    }
}

/// Recast's pipeline on `trimesh` over the box `aabb` (a tile's grown by `config.border_size` cells).
pub(crate) fn run_pipeline(
    trimesh: &TriMesh,
    config: &Config,
    aabb: &Aabb,
) -> Result<(PolygonNavmesh, DetailNavmesh), String> {
    let mut hf = HeightfieldBuilder {
        aabb: aabb3d(aabb),
        cell_size: config.cell_size,
        cell_height: config.cell_height,
    }
    .build()
    .map_err(|e| format!("heightfield: {e:?}"))?;
    hf.rasterize_triangles(trimesh, config.walkable_climb)
        .map_err(|e| format!("rasterize: {e:?}"))?;
    hf.filter_low_hanging_walkable_obstacles(config.walkable_climb);
    hf.filter_ledge_spans(config.walkable_height, config.walkable_climb);
    hf.filter_walkable_low_height_spans(config.walkable_height);
    let mut chf = hf
        .into_compact(config.walkable_height, config.walkable_climb)
        .map_err(|e| format!("compact: {e:?}"))?;
    chf.erode_walkable_area(config.walkable_radius);
    chf.build_distance_field();
    chf.build_regions(
        config.border_size,
        config.min_region_area,
        config.merge_region_area,
    )
    .map_err(|e| format!("regions: {e:?}"))?;
    let contours = chf.build_contours(
        config.max_simplification_error,
        config.max_edge_len,
        config.contour_flags,
    );
    let mesh = contours
        .into_polygon_mesh(config.max_vertices_per_polygon)
        .map_err(|e| format!("polygon mesh: {e:?}"))?;
    let detail = DetailNavmesh::new(
        &mesh,
        &chf,
        config.detail_sample_dist,
        config.detail_sample_max_error,
    )
    .map_err(|e| format!("detail mesh: {e:?}"))?;
    Ok((mesh, detail))
}

/// A polygon edge on a tile's side (Recast flags it `0x8000 | side`), to be joined to the next tile's.
pub(crate) struct Border {
    /// The polygon.
    pub(crate) poly: u32,
    /// The side: 0 −x, 1 +z, 2 +x, 3 −z.
    pub(crate) side: u16,
    /// The edge's ends.
    pub(crate) a: Vec3,
    pub(crate) b: Vec3,
}

/// Append `mesh`'s polygons (with their detail triangles) to `polys`, their tile-side edges to `borders`.
pub(crate) fn append(
    polys: &mut Vec<Poly>,
    borders: &mut Vec<Border>,
    mesh: &PolygonNavmesh,
    detail: &DetailNavmesh,
) {
    let nvp = mesh.max_vertices_per_polygon as usize;
    let base = polys.len() as u32;
    let orig = v32(mesh.aabb.min);
    let world = |i: u16| {
        let v = mesh.vertices[i as usize];
        orig + Vec3::new(
            v.x as f32 * mesh.cell_size,
            v.y as f32 * mesh.cell_height,
            v.z as f32 * mesh.cell_size,
        )
    };
    for p in 0..mesh.polygon_count() {
        let idx = &mesh.polygons[p * nvp..(p + 1) * nvp];
        let nei = &mesh.polygon_neighbors[p * nvp..(p + 1) * nvp];
        let n = idx
            .iter()
            .take_while(|&&i| i != PolygonNavmesh::NO_INDEX)
            .count();
        let verts: Vec<Vec3> = idx[..n].iter().map(|&i| world(i)).collect();
        let mut links = Vec::new();
        for (i, &k) in nei[..n].iter().enumerate() {
            let (a, b) = (verts[i], verts[(i + 1) % n]);
            if k == PolygonNavmesh::NO_CONNECTION {
                continue;
            }
            if k & 0x8000 != 0 {
                let (poly, side) = (base + p as u32, k & 0x3);
                borders.push(Border { poly, side, a, b });
            } else {
                let to = base + u32::from(k);
                links.push(Link { to, a, b });
            }
        }
        let tris = detail.meshes.get(p).map_or_else(Vec::new, |m| {
            let vb = m.base_vertex_index as usize;
            let t0 = m.base_triangle_index as usize;
            detail.triangles[t0..t0 + m.triangle_count as usize]
                .iter()
                .map(|t| t.map(|k| v32(detail.vertices[vb + k as usize])))
                .collect()
        });
        let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        for v in &verts {
            lo = lo.min(flat(*v));
            hi = hi.max(flat(*v));
        }
        polys.push(Poly {
            verts,
            links,
            tris,
            lo,
            hi,
        });
    }
}

impl RecastMesh {
    /// Build the navmesh of `scene` for `ctl` on `cell` cells (the scene's bounds, planes left out, grown
    /// by a metre): one mesh (Recast's "solo mesh"), or with `tile`, tiles of that many cells a side joined
    /// where their polygons' edges meet on the tiles' sides (as Detour joins tiles).
    pub fn build(
        scene: &Scene,
        ctl: &CharacterController,
        cell: f32,
        tile: Option<u16>,
    ) -> Result<RecastMesh, String> {
        let b = scene.bounds().ok_or("a scene of planes alone")?;
        let bounds = Aabb::new(b.min - Vec3::splat(1.0), b.max + Vec3::splat(1.0));
        let tris = scene_triangles(scene, &bounds);
        let began = Instant::now();
        let trimesh = walkable_trimesh(&tris, ctl.max_slope_deg.to_radians());
        let config = recast_config(ctl, cell, &bounds);
        let (meshes, failed_tiles) = match tile {
            None => (vec![run_pipeline(&trimesh, &config, &bounds)?], 0),
            Some(t) => crate::recast_tiles::build_tiles(&trimesh, &config, &bounds, t),
        };
        let seconds = began.elapsed().as_secs_f64();
        let (mut polys, mut borders) = (Vec::new(), Vec::new());
        for (mesh, detail) in &meshes {
            append(&mut polys, &mut borders, mesh, detail);
        }
        crate::recast_tiles::stitch(&mut polys, &borders, cell, ctl.max_step);
        Ok(RecastMesh {
            polys,
            seconds,
            triangles: tris.len(),
            failed_tiles,
        })
    }

    /// Polygons in the mesh.
    pub fn polygons(&self) -> usize {
        self.polys.len()
    }

    /// How many pieces the mesh is in (sets of polygons joined by shared edges).
    pub fn pieces(&self) -> usize {
        let mut seen = vec![false; self.polys.len()];
        let mut pieces = 0;
        let mut stack = Vec::new();
        for s in 0..self.polys.len() {
            if seen[s] {
                continue;
            }
            pieces += 1;
            seen[s] = true;
            stack.push(s);
            while let Some(p) = stack.pop() {
                for l in &self.polys[p].links {
                    if !seen[l.to as usize] {
                        seen[l.to as usize] = true;
                        stack.push(l.to as usize);
                    }
                }
            }
        }
        pieces
    }

    /// The point of polygon `p` nearest `q` horizontally, at the detail mesh's height there.
    fn closest_on(&self, p: usize, q: Vec3) -> Vec3 {
        let poly = &self.polys[p];
        let f = flat(q);
        let n = poly.verts.len();
        // Inside when on one side of every edge (either winding: only the sides' agreement counts).
        let (mut left, mut right) = (false, false);
        for i in 0..n {
            let (a, b) = (flat(poly.verts[i]), flat(poly.verts[(i + 1) % n]));
            let c = cross2(b - a, f - a);
            left |= c > 0.0;
            right |= c < 0.0;
        }
        let inside = !(left && right);
        let at = if inside {
            f
        } else {
            let mut best = (f32::INFINITY, f);
            for i in 0..n {
                let (a, b) = (flat(poly.verts[i]), flat(poly.verts[(i + 1) % n]));
                let ab = b - a;
                let t = ((f - a).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
                let c = a + ab * t;
                let d = c.distance_squared(f);
                if d < best.0 {
                    best = (d, c);
                }
            }
            best.1
        };
        Vec3::new(at.x, self.height(p, at), at.y)
    }

    /// The detail mesh's height at `at` (x, z) in polygon `p`: the triangle that holds it best (its smallest
    /// barycentric coordinate the largest), interpolated with the coordinates clamped to the triangle.
    fn height(&self, p: usize, at: Vec2) -> f32 {
        let poly = &self.polys[p];
        let mut best = (f32::NEG_INFINITY, poly.verts[0].y);
        for t in &poly.tris {
            let (a, b, c) = (flat(t[0]), flat(t[1]), flat(t[2]));
            let det = cross2(b - a, c - a);
            if det.abs() < 1e-12 {
                continue;
            }
            let v = cross2(at - a, c - a) / -det;
            let w = cross2(b - a, at - a) / det;
            let u = 1.0 - v - w;
            let m = u.min(v).min(w);
            if m > best.0 {
                let (u, v, w) = (u.max(0.0), v.max(0.0), w.max(0.0));
                let s = (u + v + w).max(1e-12);
                best = (m, (u * t[0].y + v * t[1].y + w * t[2].y) / s);
            }
        }
        best.1
    }

    /// The polygon nearest `q` within the query box (Detour's `findNearestPoly`), with the point on it.
    fn nearest(&self, q: Vec3) -> Option<(usize, Vec3)> {
        let e = QUERY_EXTENT;
        let f = flat(q);
        let mut best: Option<(f32, usize, Vec3)> = None;
        for (i, p) in self.polys.iter().enumerate() {
            if f.x < p.lo.x - e || f.x > p.hi.x + e || f.y < p.lo.y - e || f.y > p.hi.y + e {
                continue;
            }
            let c = self.closest_on(i, q);
            let d = c - q;
            if d.x.abs() > e || d.z.abs() > e || d.y.abs() > e {
                continue;
            }
            if best.is_none_or(|b| d.length_squared() < b.0) {
                best = Some((d.length_squared(), i, c));
            }
        }
        best.map(|(_, i, c)| (i, c))
    }

    /// The nearest point of any polygon to `q` and its offset from `q`, whatever the distance (for
    /// reports on misses).
    pub fn nearest_anywhere(&self, q: Vec3) -> Option<(usize, Vec3)> {
        (0..self.polys.len())
            .map(|i| (i, self.closest_on(i, q)))
            .min_by(|a, b| a.1.distance_squared(q).total_cmp(&b.1.distance_squared(q)))
            .map(|(i, c)| (i, c - q))
    }

    /// The polygons' corners, for pictures.
    pub fn outlines(&self) -> Vec<Vec<Vec3>> {
        self.polys.iter().map(|p| p.verts.clone()).collect()
    }

    /// The portal (left, right as seen going from `a` into `b`) on `a`'s edge to `b`.
    fn portal(&self, a: usize, b: usize) -> Option<(Vec3, Vec3)> {
        let p = &self.polys[a];
        let n = p.verts.len();
        let link = p.links.iter().find(|l| l.to == b as u32)?;
        let (v0, v1) = (link.a, link.b);
        // Left and right of the way out of `a` through the edge (whatever the polygons' winding).
        let c = p.verts.iter().fold(Vec2::ZERO, |s, v| s + flat(*v)) / n as f32;
        let dir = (flat(v0) + flat(v1)) * 0.5 - c;
        if cross2(dir, flat(v0) - c) >= cross2(dir, flat(v1) - c) {
            Some((v0, v1))
        } else {
            Some((v1, v0))
        }
    }

    /// A* from polygon `s` (at `from`) to polygon `t` (at `to`): the polygons in order.
    fn corridor(&self, s: usize, from: Vec3, t: usize, to: Vec3) -> Option<Vec<usize>> {
        #[derive(PartialEq)]
        struct Open(f32, usize);
        impl Eq for Open {}
        impl PartialOrd for Open {
            fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(o))
            }
        }
        impl Ord for Open {
            fn cmp(&self, o: &Self) -> std::cmp::Ordering {
                o.0.total_cmp(&self.0)
            }
        }
        let n = self.polys.len();
        let mut g = vec![f32::INFINITY; n];
        let mut pos = vec![Vec3::ZERO; n];
        let mut parent = vec![usize::MAX; n];
        let mut closed = vec![false; n];
        let mut open = BinaryHeap::new();
        g[s] = 0.0;
        pos[s] = from;
        open.push(Open(from.distance(to), s));
        while let Some(Open(_, a)) = open.pop() {
            if closed[a] {
                continue;
            }
            if a == t {
                let mut out = vec![t];
                while let Some(&p) = out.last().map(|&k| &parent[k]) {
                    if p == usize::MAX {
                        break;
                    }
                    out.push(p);
                }
                out.reverse();
                return Some(out);
            }
            closed[a] = true;
            for link in &self.polys[a].links {
                let b = link.to as usize;
                if closed[b] {
                    continue;
                }
                let Some((l, r)) = self.portal(a, b) else {
                    continue;
                };
                let mid = (l + r) * 0.5;
                let mut cost = g[a] + pos[a].distance(mid);
                if b == t {
                    cost += mid.distance(to);
                }
                if cost < g[b] {
                    g[b] = cost;
                    pos[b] = mid;
                    parent[b] = a;
                    open.push(Open(cost + mid.distance(to), b));
                }
            }
        }
        None
    }

    /// A straight path from `from` to `to`: the start and goal on the mesh and the corners between, or `None`
    /// where either has no polygon within the query box or no polygons join them.
    pub fn path(&self, from: Vec3, to: Vec3) -> Option<Vec<Vec3>> {
        let (s, start) = self.nearest(from)?;
        let (t, goal) = self.nearest(to)?;
        let corridor = self.corridor(s, start, t, goal)?;
        let mut portals = Vec::with_capacity(corridor.len());
        for w in corridor.windows(2) {
            portals.push(self.portal(w[0], w[1])?);
        }
        portals.push((goal, goal));
        Some(funnel(start, &portals))
    }
}

/// Detour's string pulling: the corners of the shortest way from `start` through `portals` (left, right),
/// the last portal being the goal twice.
fn funnel(start: Vec3, portals: &[(Vec3, Vec3)]) -> Vec<Vec3> {
    let mut out = vec![start];
    let (mut apex, mut left, mut right) = (start, start, start);
    let (mut left_i, mut right_i) = (0usize, 0usize);
    let same = |a: Vec3, b: Vec3| flat(a).distance_squared(flat(b)) < 1e-8;
    let mut i = 0;
    while i < portals.len() {
        let (l, r) = portals[i];
        let (fa, fl, fr) = (flat(apex), flat(left), flat(right));
        // The right side: tightened when the new right is left of (or on) it.
        if cross2(fr - fa, flat(r) - fa) >= 0.0 {
            if same(apex, right) || cross2(fl - fa, flat(r) - fa) < 0.0 {
                right = r;
                right_i = i;
            } else {
                // Past the left side: the left becomes a corner.
                out.push(left);
                apex = left;
                right = apex;
                right_i = left_i;
                i = left_i + 1;
                continue;
            }
        }
        let (fa, fl, fr) = (flat(apex), flat(left), flat(right));
        if cross2(fl - fa, flat(l) - fa) <= 0.0 {
            if same(apex, left) || cross2(fr - fa, flat(l) - fa) > 0.0 {
                left = l;
                left_i = i;
            } else {
                out.push(right);
                apex = right;
                left = apex;
                left_i = right_i;
                i = right_i + 1;
                continue;
            }
        }
        i += 1;
    }
    let goal = portals.last().map_or(start, |p| p.0);
    if out.last().is_none_or(|&c| !same(c, goal)) {
        out.push(goal);
    }
    out
}
