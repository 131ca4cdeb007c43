//! Triangle meshes with a bounding-volume hierarchy: nearest-hit ray casts (watertight), sphere overlap and
//! sphere sweeps.
//!
//! The BVH is built top-down with binned SAH (16 bins over triangle centroids, costs counted in packets of
//! four triangles) as a binary tree, then collapsed into eight-wide nodes (each node holds its up to eight
//! children's boxes as structure-of-arrays lanes, so two SIMD slab tests check all eight), and traversed
//! iteratively front to back with early exit. Leaves keep their triangles in packets of four, tested four at a
//! time. A big mesh's nodes and packets live in memory advised for huge pages (see `pages`). Ray
//! hits use Woop, Benthin and Wald's watertight ray/triangle test ("Watertight Ray/Triangle Intersection",
//! JCGT 2013): a ray through an edge or vertex shared by two triangles hits at least one of them, so rays never
//! leak through a closed mesh.

use glam::{DVec3, Vec3, Vec4};

use crate::pages::{Pages, prefetch};
use crate::query::closest_segment::segment_triangle;
use crate::query::sweep::{
    CapD, TriangleHit, capsule_triangle_hit, sphere_triangle, triangle_contact, triangle_reach,
};
use crate::query::{Toi, closest::point_triangle_d};
use crate::shape::{Aabb, Capsule, Ray, Sphere, Triangle};

/// Largest triangle count a mesh may have.
pub const MAX_TRIANGLES: usize = 1 << 26;

/// Why a mesh cannot be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MeshError {
    /// No triangles were given.
    #[error("the mesh has no triangles")]
    Empty,
    /// A triangle refers to a vertex that does not exist.
    #[error("triangle {triangle} uses vertex {index}, but there are only {vertex_count} vertices")]
    IndexOutOfRange {
        /// Triangle number.
        triangle: usize,
        /// The bad index.
        index: u32,
        /// Number of vertices.
        vertex_count: usize,
    },
    /// A vertex is NaN or infinite.
    #[error("vertex {index} is not finite")]
    NonFiniteVertex {
        /// Vertex number.
        index: usize,
    },
    /// Every triangle has zero area.
    #[error("all {0} triangles have zero area")]
    AllDegenerate(usize),
    /// More than [`MAX_TRIANGLES`] triangles.
    #[error("{0} triangles is more than the limit of {MAX_TRIANGLES}")]
    TooLarge(usize),
    /// An OBJ file could not be read or parsed.
    #[error("cannot load the OBJ file: {0}")]
    Obj(String),
}

/// Nearest hit of a ray on a mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshHit {
    /// Ray parameter, in units of the ray's `dir`.
    pub t: f32,
    /// Index of the triangle hit (into the `indices` the mesh was built from).
    pub triangle: u32,
    /// Barycentric weight of the triangle's second vertex.
    pub u: f32,
    /// Barycentric weight of the triangle's third vertex.
    pub v: f32,
    /// Unit geometric normal of the triangle, facing against the ray.
    pub normal: Vec3,
}

/// One BVH node: 32 bytes. A leaf has `count > 0` triangles starting at `first` in the mesh's triangle order;
/// an inner node has `count == 0` and its children at `first` and `first + 1`.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Node {
    min: [f32; 3],
    first: u32,
    max: [f32; 3],
    count: u32,
}

/// Largest number of triangles in a leaf.
const MAX_LEAF: usize = 4;
/// `1 + 2γ₃` with `γₙ = nε / (1 - nε)`, `ε = 2⁻²⁴`: the exit-distance widening of a robust slab test.
const ROBUST_EXIT: f32 = 1.0 + 2.0 * (3.0 * f32::EPSILON * 0.5) / (1.0 - 3.0 * f32::EPSILON * 0.5);
/// Depth after which the builder splits at the object median (so a tie-heavy SAH cannot make the tree deeper
/// than `SAH_DEPTH + log2(triangles)`, well within the traversal stack).
const SAH_DEPTH: usize = 64;
/// Traversal stack entries kept inline (in the stack frame, zeroed for every ray, so not more than needed);
/// more spill to the heap, which a ray seldom needs (a wide node pushes at most `WIDTH - 1` more entries than
/// it pops, and front-to-back rays push little more than one per level).
const STACK: usize = 32;
/// Trees smaller than this are not prefetched: they stay in the L2 cache of the CPUs we run on, where a
/// prefetch only costs instructions (the bunny's 220 KB: about 5% faster without, alternating runs).
const PREFETCH_MIN_BYTES: usize = 512 << 10;
/// Children per wide node.
const WIDTH: usize = 8;
/// Four-lane groups per wide node.
const GROUPS: usize = WIDTH / 4;
/// SAH cost of visiting a node, relative to testing one packet of four triangles.
const TRAVERSAL_COST: f32 = 1.0;
/// Packets of four needed for `n` triangles, the unit of the SAH's intersection cost.
fn blocks(n: usize) -> f32 {
    n.div_ceil(4) as f32
}
/// SAH bins.
const BINS: usize = 16;

/// An eight-wide BVH node: its children's boxes as lanes in two groups of four (`min[group][axis]` holds that
/// axis for four children). Lanes `len..8` are unused. A child is a leaf when its `count > 0` (`count`
/// triangles in the packets from `first` on), else an inner node (wide node `first`, always after this one).
///
/// 234 bytes padded to 256 and aligned to 64, so a node is exactly four cache lines.
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(64))]
struct Wide {
    min: [[Vec4; 3]; GROUPS],
    max: [[Vec4; 3]; GROUPS],
    first: [u32; WIDTH],
    count: [u8; WIDTH],
    len: u8,
    /// Bit `k` set when lane `k` is a leaf (`count[k] > 0`), so traversal splits hit lanes into leaves and
    /// inner children with two masks instead of a branch per lane.
    leaves: u8,
    /// Explicit padding (plain data has none implicit).
    pad: [u8; WIDE_PAD],
}

/// Bytes of a [`Wide`]'s fields, and the padding that rounds it to whole cache lines.
const WIDE_FIELDS: usize = 2 * GROUPS * 48 + 5 * WIDTH + 2;
const WIDE_PAD: usize = WIDE_FIELDS.next_multiple_of(64) - WIDE_FIELDS;

impl Wide {
    const EMPTY: Self = Self {
        min: [[Vec4::INFINITY; 3]; GROUPS],
        max: [[Vec4::NEG_INFINITY; 3]; GROUPS],
        first: [0; WIDTH],
        count: [0; WIDTH],
        len: 0,
        leaves: 0,
        pad: [0; WIDE_PAD],
    };

    /// Lane `k`'s box.
    fn lane(&self, k: usize) -> (Vec3, Vec3) {
        let (lo, hi, l) = (&self.min[k / 4], &self.max[k / 4], k % 4);
        (
            Vec3::new(lo[0][l], lo[1][l], lo[2][l]),
            Vec3::new(hi[0][l], hi[1][l], hi[2][l]),
        )
    }

    /// Set lane `k`'s box.
    fn set_lane(&mut self, k: usize, lo: [f32; 3], hi: [f32; 3]) {
        for axis in 0..3 {
            self.min[k / 4][axis][k % 4] = lo[axis];
            self.max[k / 4][axis][k % 4] = hi[axis];
        }
    }

    /// The mask of used lanes.
    fn used(&self) -> u32 {
        (1u32 << self.len) - 1
    }
}

/// The traversal stack: [`STACK`] entries inline, the rest (seldom needed) on the heap, so no entry is ever
/// dropped.
struct Stack<T: Copy> {
    inline: [T; STACK],
    len: usize,
    spill: Vec<T>,
}

impl<T: Copy> Stack<T> {
    fn new(fill: T) -> Self {
        Self {
            inline: [fill; STACK],
            len: 0,
            spill: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, x: T) {
        if self.len < STACK {
            self.inline[self.len] = x;
            self.len += 1;
        } else {
            self.spill.push(x);
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        if let Some(x) = self.spill.pop() {
            Some(x)
        } else if self.len > 0 {
            self.len -= 1;
            Some(self.inline[self.len])
        } else {
            None
        }
    }
}

/// Four triangles' vertices as lanes: `v[vertex][axis]` holds that coordinate of all four, so the watertight
/// test runs on four triangles at once, and their indices in the mesh (so a hit's index is read from the
/// packet just tested, not from a separate array: one cache miss less per ray on a big mesh). A leaf's last
/// packet may have unused lanes (their `id` is `u32::MAX`; they copy lane 0 and are masked off).
///
/// 160 bytes, aligned to 32.
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(32))]
struct Tri4 {
    v: [[Vec4; 3]; 3],
    id: [u32; 4],
}

impl Tri4 {
    /// Lane `k`'s triangle.
    fn lane(&self, k: usize) -> [Vec3; 3] {
        self.v.map(|p| Vec3::new(p[0][k], p[1][k], p[2][k]))
    }
}

/// A triangle mesh with its BVH.
#[derive(Clone, Debug)]
pub struct TriMesh {
    vertices: Vec<Vec3>,
    indices: Vec<[u32; 3]>,
    /// The hittable triangles' vertices in BVH order, four to a packet; a leaf owns whole packets.
    packets: Pages<Tri4>,
    /// Eight-wide nodes, the root first.
    wide: Pages<Wide>,
    /// The root's box (padded).
    bounds: Aabb,
}

impl TriMesh {
    /// Build a mesh and its BVH. Zero-area triangles are kept (indices stay valid) but never hit.
    ///
    /// # Errors
    /// [`MeshError`] for no triangles, an index out of range, a non-finite vertex, every triangle degenerate,
    /// or more than [`MAX_TRIANGLES`] triangles.
    ///
    /// ```
    /// use collidoscope::{glam::Vec3, mesh::TriMesh, shape::Ray};
    /// // A unit square at z = 0 made of two triangles.
    /// let mesh = TriMesh::new(
    ///     vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y],
    ///     vec![[0, 1, 2], [0, 2, 3]],
    /// ).unwrap();
    /// // A ray down the shared diagonal still hits (watertight).
    /// let hit = mesh.cast_ray(&Ray::new(Vec3::new(0.5, 0.5, 2.0), -Vec3::Z), 10.0).unwrap();
    /// assert_eq!((hit.t, hit.normal), (2.0, Vec3::Z));
    /// ```
    pub fn new(vertices: Vec<Vec3>, indices: Vec<[u32; 3]>) -> Result<Self, MeshError> {
        if indices.is_empty() {
            return Err(MeshError::Empty);
        }
        if indices.len() > MAX_TRIANGLES {
            return Err(MeshError::TooLarge(indices.len()));
        }
        if let Some(index) = vertices.iter().position(|v| !v.is_finite()) {
            return Err(MeshError::NonFiniteVertex { index });
        }
        for (triangle, tri) in indices.iter().enumerate() {
            if let Some(&index) = tri.iter().find(|&&i| i as usize >= vertices.len()) {
                return Err(MeshError::IndexOutOfRange {
                    triangle,
                    index,
                    vertex_count: vertices.len(),
                });
            }
        }
        let mut order: Vec<u32> = (0..indices.len() as u32)
            .filter(|&i| {
                let [a, b, c] = indices[i as usize].map(|k| vertices[k as usize]);
                Triangle::new(a, b, c).is_valid()
            })
            .collect();
        if order.is_empty() {
            return Err(MeshError::AllDegenerate(indices.len()));
        }
        let mut nodes = Vec::with_capacity(2 * order.len() / MAX_LEAF + 1);
        {
            let tri_of = |i: u32| indices[i as usize].map(|k| vertices[k as usize]);
            let centroids: Vec<Vec3> = (0..indices.len() as u32)
                .map(|i| {
                    let [a, b, c] = tri_of(i);
                    (a + b + c) / 3.0
                })
                .collect();
            let bounds_of = |i: u32| {
                let [a, b, c] = tri_of(i);
                (a.min(b).min(c), a.max(b).max(c))
            };
            nodes.push(Node {
                min: [0.0; 3],
                first: 0,
                max: [0.0; 3],
                count: 0,
            });
            let len = order.len();
            build(&mut nodes, 0, &mut order, 0, len, 0, &centroids, &bounds_of);
        }
        let bounds = Aabb::new(Vec3::from(nodes[0].min), Vec3::from(nodes[0].max));
        let tri_of = |slot: usize| indices[order[slot] as usize].map(|k| vertices[k as usize]);
        let (wide, packets) = collapse(&nodes, &order, &tri_of);
        Ok(Self {
            vertices,
            indices,
            packets: Pages::new(packets),
            wide: Pages::new(wide),
            bounds,
        })
    }

    /// A mesh from Wavefront OBJ text (every object and group merged; faces triangulated; normals, texture
    /// coordinates and materials ignored), parsed by the `tobj` crate.
    ///
    /// # Errors
    /// [`MeshError::Obj`] when the text is not OBJ, and the errors of [`TriMesh::new`].
    ///
    /// ```
    /// use collidoscope::mesh::TriMesh;
    /// let quad = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n";
    /// assert_eq!(TriMesh::from_obj_str(quad).unwrap().triangle_count(), 2);
    /// ```
    pub fn from_obj_str(text: &str) -> Result<Self, MeshError> {
        let options = tobj::LoadOptions {
            triangulate: true,
            single_index: true,
            ..tobj::LoadOptions::default()
        };
        let mut reader = std::io::BufReader::new(text.as_bytes());
        let (models, _materials) = tobj::load_obj_buf(&mut reader, &options, |_| {
            Err(tobj::LoadError::OpenFileFailed)
        })
        .map_err(|e| MeshError::Obj(e.to_string()))?;
        let mut vertices = Vec::new();
        let mut indices = Vec::new();
        for model in models {
            let base = vertices.len() as u32;
            vertices.extend(
                model
                    .mesh
                    .positions
                    .chunks_exact(3)
                    .map(|p| Vec3::new(p[0], p[1], p[2])),
            );
            indices.extend(
                model
                    .mesh
                    .indices
                    .chunks_exact(3)
                    .map(|t| [t[0] + base, t[1] + base, t[2] + base]),
            );
        }
        Self::new(vertices, indices)
    }

    /// A mesh from a Wavefront OBJ file (see [`TriMesh::from_obj_str`]).
    ///
    /// # Errors
    /// [`MeshError::Obj`] when the file cannot be read or parsed, and the errors of [`TriMesh::new`].
    pub fn from_obj(path: &std::path::Path) -> Result<Self, MeshError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| MeshError::Obj(format!("{}: {e}", path.display())))?;
        Self::from_obj_str(&text)
    }

    /// Nearest hits of many rays (unbounded `t`), in order. With the `parallel` feature the rays are spread
    /// over all cores with rayon; the answers are the same either way.
    #[must_use]
    pub fn cast_rays(&self, rays: &[Ray]) -> Vec<Option<MeshHit>> {
        self.cast_rays_max(rays, f32::INFINITY)
    }

    /// [`TriMesh::cast_rays`] with a largest `t`.
    #[must_use]
    pub fn cast_rays_max(&self, rays: &[Ray], max_t: f32) -> Vec<Option<MeshHit>> {
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            rays.par_iter().map(|r| self.cast_ray(r, max_t)).collect()
        }
        #[cfg(not(feature = "parallel"))]
        {
            rays.iter().map(|r| self.cast_ray(r, max_t)).collect()
        }
    }

    /// Number of triangles (including zero-area ones).
    #[must_use]
    pub fn triangle_count(&self) -> usize {
        self.indices.len()
    }

    /// The vertices.
    #[must_use]
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// The triangles' vertex indices.
    #[must_use]
    pub fn indices(&self) -> &[[u32; 3]] {
        &self.indices
    }

    /// Triangle `i` as a shape.
    #[must_use]
    pub fn triangle(&self, i: u32) -> Option<Triangle> {
        let [a, b, c] = self
            .indices
            .get(i as usize)?
            .map(|k| self.vertices[k as usize]);
        Some(Triangle::new(a, b, c))
    }

    /// Bounds of all hittable triangles.
    #[must_use]
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }

    /// Memory held by the BVH and the triangle copies, in bytes (for the bytes-per-triangle figure).
    #[must_use]
    pub fn bvh_bytes(&self) -> usize {
        self.wide.len() * std::mem::size_of::<Wide>()
            + self.packets.len() * std::mem::size_of::<Tri4>()
    }

    /// Nearest hit of the ray on either face of any triangle, with `t <= max_t`.
    ///
    /// Watertight: rays through shared edges and vertices never slip between triangles. Ties (a shared edge)
    /// go to the triangle met first in BVH order. An invalid ray or a NaN/negative `max_t` gives `None`.
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray, max_t: f32) -> Option<MeshHit> {
        if !ray.is_valid() || !(max_t >= 0.0) {
            return None;
        }
        let wt = Watertight::new(ray);
        let inv = ray.dir.recip();
        let (ox, oy, oz) = (
            Vec4::splat(ray.origin.x),
            Vec4::splat(ray.origin.y),
            Vec4::splat(ray.origin.z),
        );
        let (ix, iy, iz) = (Vec4::splat(inv.x), Vec4::splat(inv.y), Vec4::splat(inv.z));
        let mut best_t = max_t;
        let mut best: Option<(usize, f32, f32, f32)> = None;
        let (wide, packets) = (&*self.wide, &*self.packets);
        let prefetching = self.bvh_bytes() >= PREFETCH_MIN_BYTES;
        // (wide node, entry t), nearest on top.
        let mut stack = Stack::new((0u32, 0.0f32));
        stack.push((0, 0.0));
        while let Some((w, entry)) = stack.pop() {
            if entry > best_t {
                continue;
            }
            let n = &wide[w as usize];
            // The slab test of four children at once, twice. A slab whose plane holds the origin of a ray parallel
            // to it gives 0 * inf = NaN: the boxes are padded at build time, so such a ray cannot reach the
            // triangles inside and whichever way the NaN falls is right. Ize's robust traversal ("Robust BVH
            // Ray Traversal", JCGT 2013): the exit is widened by 1 + 2γ₃ so that rounding in the slab
            // distances never culls a box the ray touches, however far away its origin.
            let mut nears = [0.0f32; WIDTH];
            let mut bits = 0;
            for g in 0..GROUPS {
                let (lo, hi) = (&n.min[g], &n.max[g]);
                let t1x = (lo[0] - ox) * ix;
                let t2x = (hi[0] - ox) * ix;
                let t1y = (lo[1] - oy) * iy;
                let t2y = (hi[1] - oy) * iy;
                let t1z = (lo[2] - oz) * iz;
                let t2z = (hi[2] - oz) * iz;
                let near = t1x
                    .min(t2x)
                    .max(t1y.min(t2y))
                    .max(t1z.min(t2z))
                    .max(Vec4::ZERO);
                let far = (t1x.max(t2x).min(t1y.max(t2y)).min(t1z.max(t2z)) * ROBUST_EXIT)
                    .min(Vec4::splat(best_t));
                bits |= near.cmple(far).bitmask() << (4 * g);
                nears[4 * g..4 * g + 4].copy_from_slice(&near.to_array());
            }
            bits &= n.used();
            if bits == 0 {
                continue;
            }
            let leaves = u32::from(n.leaves);
            // Start loading every hit child now, so that on a big mesh their cache misses overlap with each
            // other and with the leaf tests below instead of each stalling the ray in turn.
            if prefetching {
                for lane in lanes(bits) {
                    let (first, count) = (n.first[lane], n.count[lane]);
                    let at = first as usize;
                    if leaves & (1 << lane) == 0 {
                        prefetch(wide.get(at..=at).unwrap_or_default());
                    } else {
                        let end = at + leaf_packets(first, count).len();
                        prefetch(packets.get(at..end).unwrap_or_default());
                    }
                }
            }
            // The hit leaves nearest first, so that a hit in one skips the leaves behind it (at the bottom of
            // a big mesh a node's children are all leaves, and a grazing ray crosses several).
            let (order, order_len) = nearest_first(bits & leaves, &nears);
            for &lane in &order[..order_len] {
                let lane = usize::from(lane);
                if nears[lane] > best_t {
                    break;
                }
                for (p, valid) in leaf_packets(n.first[lane], n.count[lane]) {
                    for (l, t, u, v) in wt.intersect4(&packets[p], valid, best_t) {
                        // Ties (a shared edge) go to the lowest BVH slot, whatever the visiting order.
                        let k = p * 4 + l;
                        if best.is_none_or(|(bk, bt, _, _)| t < bt || (t == bt && k < bk)) {
                            best_t = t;
                            best = Some((k, t, u, v));
                        }
                    }
                }
            }
            let inner_bits = bits & !leaves;
            if inner_bits & (inner_bits.wrapping_sub(1)) == 0 {
                // At most one inner child hit (the common case): no sorting.
                if inner_bits != 0 {
                    let lane = inner_bits.trailing_zeros() as usize;
                    if nears[lane] <= best_t {
                        stack.push((n.first[lane], nears[lane]));
                    }
                }
                continue;
            }
            // Farthest first, so the nearest is popped next.
            let (order, order_len) = nearest_first(inner_bits, &nears);
            for &lane in order[..order_len].iter().rev() {
                let lane = usize::from(lane);
                if nears[lane] <= best_t {
                    stack.push((n.first[lane], nears[lane]));
                }
            }
        }
        best.and_then(|(k, t, u, v)| self.finish_hit(ray, k, t, u, v))
    }

    /// The public hit for triangle slot `k` of the BVH order.
    fn finish_hit(&self, ray: &Ray, k: usize, t: f32, u: f32, v: f32) -> Option<MeshHit> {
        let [a, b, c] = self.slot(k);
        let n = (b - a).cross(c - a).normalize();
        let normal = if n.dot(ray.dir) > 0.0 { -n } else { n };
        (t.is_finite() && normal.is_finite()).then_some(MeshHit {
            t,
            triangle: self.id(k),
            u,
            v,
            normal,
        })
    }

    /// Whether the solid sphere touches any triangle.
    #[must_use]
    pub fn overlaps_sphere(&self, sphere: &Sphere) -> bool {
        if !sphere.is_valid() {
            return false;
        }
        let r = Vec3::splat(sphere.radius);
        let (lo, hi) = (sphere.center - r, sphere.center + r);
        let c = sphere.center.as_dvec3();
        let rr = f64::from(sphere.radius) * f64::from(sphere.radius);
        let mut found = false;
        self.visit_box(lo, hi, |k| {
            let [a, b, cc] = self.slot(k).map(Vec3::as_dvec3);
            if c.distance_squared(point_triangle_d(c, a, b, cc)) <= rr {
                found = true;
            }
            !found
        });
        found
    }

    /// First contact of a sphere moving by `motion` with any triangle (both faces), and which triangle:
    /// [`sphere_triangle`] on the triangles whose boxes the swept sphere's box touches.
    #[must_use]
    pub fn sweep_sphere(&self, sphere: &Sphere, motion: Vec3) -> Option<(Toi, u32)> {
        self.sweep_sphere_where(sphere, motion, |_| true)
    }

    /// [`TriMesh::sweep_sphere`] keeping only the contacts `accept` approves: the simulation skips contacts
    /// the sphere is merely resting on, so that the triangles it is moving toward are still found (a mesh is
    /// not convex: the floor it rolls on must not hide the wall ahead).
    #[must_use]
    pub fn sweep_sphere_where(
        &self,
        sphere: &Sphere,
        motion: Vec3,
        accept: impl Fn(&Toi) -> bool,
    ) -> Option<(Toi, u32)> {
        if !sphere.is_valid() || !motion.is_finite() {
            return None;
        }
        let r = Vec3::splat(sphere.radius);
        let end = sphere.center + motion;
        let (lo, hi) = (sphere.center.min(end) - r, sphere.center.max(end) + r);
        let mut best: Option<(Toi, u32)> = None;
        self.visit_box(lo, hi, |k| {
            let [a, b, c] = self.slot(k);
            if let Some(toi) = sphere_triangle(sphere, motion, &Triangle::new(a, b, c))
                && best.is_none_or(|(t, _)| toi.t < t.t)
                && accept(&toi)
            {
                best = Some((toi, self.id(k)));
            }
            true
        });
        best
    }

    /// Whether the solid capsule touches any triangle (the per-triangle test of
    /// [`crate::query::overlap::capsule_triangle`] on the triangles whose boxes the capsule's box touches).
    #[must_use]
    pub fn overlaps_capsule(&self, capsule: &Capsule) -> bool {
        if !capsule.is_valid() {
            return false;
        }
        let bounds = capsule.bounds();
        let cap = CapD::of(capsule);
        let rr = cap.r * cap.r;
        let mut found = false;
        self.visit_box(bounds.min, bounds.max, |k| {
            let [a, b, c] = self.slot(k).map(Vec3::as_dvec3);
            let (on_segment, on_triangle) = segment_triangle(cap.p, cap.q, a, b, c);
            found = on_segment.distance_squared(on_triangle) <= rr;
            !found
        });
        found
    }

    /// First contact of a capsule moving by `motion` with any triangle (both faces), and which triangle:
    /// [`crate::query::sweep::capsule_triangle`] on the triangles whose boxes the swept capsule's box
    /// touches; equal times go to the triangle met first (by the bound below, then by slot). Each triangle is
    /// judged on its own, as by `capsule_triangle`: a triangle the capsule starts on and moves away from does
    /// not stop it (a mesh is not convex: the floor it stands on must not hide the wall ahead).
    ///
    /// Each triangle gets a lower bound on its contact time from its plane (when the capsule first comes within
    /// its radius of it, a few operations; a triangle whose plane it never reaches is dropped there), and they
    /// are met in full nearest bound first, only while they can still come before the earliest contact found;
    /// the contact point and normal are read off for the earliest triangle only. The time is the smallest of
    /// the triangles' own `capsule_triangle` times, bit for bit.
    #[must_use]
    pub fn sweep_capsule(&self, capsule: &Capsule, motion: Vec3) -> Option<(Toi, u32)> {
        if !capsule.is_valid() || !motion.is_finite() {
            return None;
        }
        let (from, to) = (capsule.bounds(), capsule.translated(motion).bounds());
        let cap = CapD::of(capsule);
        let m = motion.as_dvec3();
        // Every triangle the swept box reaches, with the time its plane comes within reach (a lower bound on
        // its contact), nearest first; each is met in full only while it can still come first.
        let mut reach: Vec<(f64, usize)> = Vec::new();
        self.visit_box(from.min.min(to.min), from.max.max(to.max), |k| {
            let [a, b, c] = self.slot(k).map(Vec3::as_dvec3);
            if let Some(t0) = triangle_reach(&cap, m, a, b, c) {
                reach.push((t0, k));
            }
            true
        });
        reach.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let mut best: Option<(TriangleHit, u32, [DVec3; 3])> = None;
        for (t0, k) in reach {
            let bound = best.map_or(f64::INFINITY, |(hit, ..)| hit.t());
            if t0 >= bound {
                break;
            }
            let tri = self.slot(k).map(Vec3::as_dvec3);
            if let Some(hit) = capsule_triangle_hit(&cap, m, tri, t0, bound)
                && hit.t() < bound
            {
                best = Some((hit, self.id(k), tri));
            }
        }
        let (hit, triangle, [a, b, c]) = best?;
        let toi = match hit {
            TriangleHit::Touching(toi) => toi,
            TriangleHit::Entry(t) => triangle_contact(&cap, m, a, b, c, t)?,
        };
        Some((toi.to_f32()?, triangle))
    }

    /// Call `f` with the index and the triangle of every hittable (non-degenerate) triangle whose bounding box
    /// touches the box `lo..=hi` (in BVH order).
    pub fn triangles_in_box(&self, lo: Vec3, hi: Vec3, mut f: impl FnMut(u32, Triangle)) {
        self.visit_box(lo, hi, |k| {
            let [a, b, c] = self.slot(k);
            if a.min(b).min(c).cmple(hi).all() && a.max(b).max(c).cmpge(lo).all() {
                f(self.id(k), Triangle::new(a, b, c));
            }
            true
        });
    }

    /// The index in the mesh of the triangle in slot `k` (`packet * 4 + lane`), `u32::MAX` for an unused lane.
    fn id(&self, k: usize) -> u32 {
        self.packets[k / 4].id[k % 4]
    }

    /// The triangle in slot `k` (`packet * 4 + lane`).
    fn slot(&self, k: usize) -> [Vec3; 3] {
        self.packets[k / 4].lane(k % 4)
    }

    /// Call `f` with the BVH slot of every triangle whose node boxes touch `lo..=hi`, until it returns false.
    fn visit_box(&self, lo: Vec3, hi: Vec3, mut f: impl FnMut(usize) -> bool) {
        let (lx, ly, lz) = (Vec4::splat(lo.x), Vec4::splat(lo.y), Vec4::splat(lo.z));
        let (hx, hy, hz) = (Vec4::splat(hi.x), Vec4::splat(hi.y), Vec4::splat(hi.z));
        let mut stack = vec![0u32];
        while let Some(w) = stack.pop() {
            let n = &self.wide[w as usize];
            let mut bits = 0;
            for g in 0..GROUPS {
                let (lo, hi) = (&n.min[g], &n.max[g]);
                let touch = lo[0].cmple(hx)
                    & lo[1].cmple(hy)
                    & lo[2].cmple(hz)
                    & hi[0].cmpge(lx)
                    & hi[1].cmpge(ly)
                    & hi[2].cmpge(lz);
                bits |= touch.bitmask() << (4 * g);
            }
            for lane in lanes(bits & n.used()) {
                if n.count[lane] > 0 {
                    for (p, valid) in leaf_packets(n.first[lane], n.count[lane]) {
                        for l in lanes(valid) {
                            if !f(p * 4 + l) {
                                return;
                            }
                        }
                    }
                } else {
                    stack.push(n.first[lane]);
                }
            }
        }
    }

    /// Check the BVH's invariants: every node's box contains its children's boxes or its triangles, every
    /// hittable triangle is in exactly one leaf, leaves are non-empty and children are in range.
    ///
    /// # Panics
    /// When an invariant is broken (a bug in the builder), with a description.
    pub fn assert_well_formed(&self) {
        let mut seen = vec![0u32; self.packets.len() * 4];
        let mut reached = vec![0u32; self.wide.len()];
        let mut stack = vec![0usize];
        reached[0] = 1;
        let contains = |(olo, ohi): (Vec3, Vec3), lo: Vec3, hi: Vec3| {
            olo.cmple(lo).all() && ohi.cmpge(hi).all()
        };
        while let Some(i) = stack.pop() {
            let n = &self.wide[i];
            assert!(
                (1..=WIDTH).contains(&usize::from(n.len)),
                "node {i} has {} children",
                n.len
            );
            for lane in 0..n.len as usize {
                let lane_box = n.lane(lane);
                assert_eq!(
                    n.leaves >> lane & 1 == 1,
                    n.count[lane] > 0,
                    "node {i}.{lane}: leaf bit and count disagree"
                );
                if n.count[lane] > 0 {
                    for (p, valid) in leaf_packets(n.first[lane], n.count[lane]) {
                        assert!(p < self.packets.len(), "leaf {i}.{lane} out of range");
                        for l in lanes(valid) {
                            let k = p * 4 + l;
                            assert!(self.id(k) != u32::MAX, "slot {k} is used but empty");
                            let [a, b, c] = self.slot(k);
                            assert!(
                                contains(lane_box, a.min(b).min(c), a.max(b).max(c)),
                                "leaf {i}.{lane} does not contain triangle slot {k}"
                            );
                            seen[k] += 1;
                        }
                    }
                } else {
                    let c = n.first[lane] as usize;
                    assert!(
                        c > i && c < self.wide.len(),
                        "node {i} has a child out of order or range"
                    );
                    let child = &self.wide[c];
                    for l in 0..child.len as usize {
                        let (lo, hi) = child.lane(l);
                        assert!(
                            contains(lane_box, lo, hi),
                            "node {i}.{lane} does not contain its child's lane {l}"
                        );
                    }
                    reached[c] += 1;
                    stack.push(c);
                }
            }
        }
        assert!(
            seen.iter()
                .enumerate()
                .all(|(k, &s)| s == u32::from(self.id(k) != u32::MAX)),
            "a triangle is in no leaf or in several"
        );
        assert!(
            reached.iter().all(|&r| r == 1),
            "a node is unreachable or shared"
        );
    }
}

/// The set bits of `bits` (a wide node's lanes), lowest first.
fn lanes(mut bits: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let lane = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            lane
        })
    })
}

/// The lanes set in `bits`, nearest first by their entry distances `nears` (an insertion sort: eight at most),
/// and how many there are.
fn nearest_first(bits: u32, nears: &[f32; WIDTH]) -> ([u8; WIDTH], usize) {
    let mut order = [0u8; WIDTH];
    let mut len = 0;
    for lane in lanes(bits) {
        let mut j = len;
        while j > 0 && nears[usize::from(order[j - 1])] > nears[lane] {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = lane as u8;
        len += 1;
    }
    (order, len)
}

/// Collapse the binary tree into eight-wide nodes: each wide node takes its binary node's children and
/// keeps opening the inner child with the largest surface area until it has eight.
/// Also lay the leaves' triangles out in packets of four (a leaf owns whole packets).
fn collapse(
    nodes: &[Node],
    order: &[u32],
    tri_of: &dyn Fn(usize) -> [Vec3; 3],
) -> (Vec<Wide>, Vec<Tri4>) {
    let area = |n: &Node| {
        let d = (Vec3::from(n.max) - Vec3::from(n.min)).max(Vec3::ZERO);
        d.x * d.y + d.y * d.z + d.z * d.x
    };
    let mut wide = Vec::with_capacity(nodes.len() / 3 + 1);
    let mut packets: Vec<Tri4> = Vec::with_capacity(order.len() / 3 + 1);
    wide.push(Wide::EMPTY);
    let mut work = vec![(0usize, 0usize)];
    while let Some((b, w)) = work.pop() {
        let root = &nodes[b];
        let mut kids = [0usize; WIDTH];
        let mut len = if root.count > 0 {
            kids[0] = b;
            1
        } else {
            kids[0] = root.first as usize;
            kids[1] = root.first as usize + 1;
            2
        };
        while len < WIDTH {
            let open = (0..len)
                .filter(|&k| nodes[kids[k]].count == 0)
                .max_by(|&x, &y| area(&nodes[kids[x]]).total_cmp(&area(&nodes[kids[y]])));
            let Some(k) = open else {
                break;
            };
            let first = nodes[kids[k]].first as usize;
            kids[k] = first;
            kids[len] = first + 1;
            len += 1;
        }
        let mut out = Wide::EMPTY;
        out.len = len as u8;
        for (lane, &k) in kids[..len].iter().enumerate() {
            let n = &nodes[k];
            out.set_lane(lane, n.min, n.max);
            if n.count > 0 {
                // Leaves hold at most 2 * MAX_LEAF triangles.
                debug_assert!(n.count as usize <= 2 * MAX_LEAF);
                out.first[lane] = packets.len() as u32;
                out.count[lane] = n.count as u8;
                out.leaves |= 1 << lane;
                let (start, end) = (n.first as usize, (n.first + n.count) as usize);
                for chunk in (start..end).collect::<Vec<_>>().chunks(4) {
                    let mut packet = Tri4 {
                        v: [[Vec4::ZERO; 3]; 3],
                        id: [u32::MAX; 4],
                    };
                    for l in 0..4 {
                        // Unused lanes copy lane 0 (masked off in every use).
                        let slot = chunk.get(l).copied().unwrap_or(chunk[0]);
                        for (vertex, p) in tri_of(slot).iter().enumerate() {
                            for axis in 0..3 {
                                packet.v[vertex][axis][l] = p[axis];
                            }
                        }
                        if let Some(&s) = chunk.get(l) {
                            packet.id[l] = order[s];
                        }
                    }
                    packets.push(packet);
                }
            } else {
                out.first[lane] = wide.len() as u32;
                wide.push(Wide::EMPTY);
                work.push((k, wide.len() - 1));
            }
        }
        wide[w] = out;
    }
    (wide, packets)
}

/// The packets of a leaf of `count` triangles from packet `first`, each with its mask of used lanes.
fn leaf_packets(first: u32, count: u8) -> impl ExactSizeIterator<Item = (usize, u32)> {
    let count = u32::from(count);
    (0..count.div_ceil(4)).map(move |p| {
        let used = (count - p * 4).min(4);
        ((first + p) as usize, (1u32 << used) - 1)
    })
}

/// Recursive binned-SAH build of node `node` over `order[start..end]`.
#[allow(clippy::too_many_arguments)]
fn build(
    nodes: &mut Vec<Node>,
    node: usize,
    order: &mut [u32],
    start: usize,
    end: usize,
    depth: usize,
    centroids: &[Vec3],
    bounds_of: &dyn Fn(u32) -> (Vec3, Vec3),
) {
    let mut lo = Vec3::splat(f32::INFINITY);
    let mut hi = Vec3::splat(f32::NEG_INFINITY);
    let mut clo = lo;
    let mut chi = hi;
    for &i in &order[start..end] {
        let (l, h) = bounds_of(i);
        lo = lo.min(l);
        hi = hi.max(h);
        clo = clo.min(centroids[i as usize]);
        chi = chi.max(centroids[i as usize]);
    }
    // Pad by a relative hair so rays lying on a face plane still enter (watertight traversal).
    let pad =
        (hi - lo).max(hi.abs().max(lo.abs())) * 4.0 * f32::EPSILON + Vec3::splat(f32::MIN_POSITIVE);
    nodes[node].min = (lo - pad).to_array();
    nodes[node].max = (hi + pad).to_array();
    let count = end - start;
    let make_leaf = |nodes: &mut Vec<Node>| {
        nodes[node].first = start as u32;
        nodes[node].count = count as u32;
    };
    if count <= MAX_LEAF {
        make_leaf(nodes);
        return;
    }
    // Binned SAH along the centroid bounds' longest axis.
    let extent = chi - clo;
    let axis = if extent.x >= extent.y && extent.x >= extent.z {
        0
    } else if extent.y >= extent.z {
        1
    } else {
        2
    };
    if !(extent[axis] > 0.0) || depth >= SAH_DEPTH {
        // All centroids coincide, or the tree is already deep: split at the object median.
        let mid = count / 2;
        order[start..end].select_nth_unstable_by(mid, |&a, &b| {
            centroids[a as usize][axis]
                .total_cmp(&centroids[b as usize][axis])
                .then(a.cmp(&b))
        });
        split_at(
            nodes,
            node,
            order,
            start,
            start + mid,
            end,
            depth,
            centroids,
            bounds_of,
        );
        return;
    }
    let scale = BINS as f32 / extent[axis];
    let bin_of =
        |i: u32| (((centroids[i as usize][axis] - clo[axis]) * scale) as usize).min(BINS - 1);
    let mut bin_count = [0usize; BINS];
    let mut bin_lo = [Vec3::splat(f32::INFINITY); BINS];
    let mut bin_hi = [Vec3::splat(f32::NEG_INFINITY); BINS];
    for &i in &order[start..end] {
        let b = bin_of(i);
        let (l, h) = bounds_of(i);
        bin_count[b] += 1;
        bin_lo[b] = bin_lo[b].min(l);
        bin_hi[b] = bin_hi[b].max(h);
    }
    let area = |l: Vec3, h: Vec3| {
        let d = (h - l).max(Vec3::ZERO);
        d.x * d.y + d.y * d.z + d.z * d.x
    };
    // Sweep from the left and from the right.
    let mut left_area = [0.0f32; BINS];
    let mut left_count = [0usize; BINS];
    let (mut l, mut h, mut c) = (
        Vec3::splat(f32::INFINITY),
        Vec3::splat(f32::NEG_INFINITY),
        0,
    );
    for b in 0..BINS - 1 {
        l = l.min(bin_lo[b]);
        h = h.max(bin_hi[b]);
        c += bin_count[b];
        left_area[b] = area(l, h);
        left_count[b] = c;
    }
    let (mut l, mut h, mut c) = (
        Vec3::splat(f32::INFINITY),
        Vec3::splat(f32::NEG_INFINITY),
        0,
    );
    let mut best = (f32::INFINITY, 0usize);
    for b in (1..BINS).rev() {
        l = l.min(bin_lo[b]);
        h = h.max(bin_hi[b]);
        c += bin_count[b];
        let cost = left_area[b - 1] * blocks(left_count[b - 1]) + area(l, h) * blocks(c);
        if left_count[b - 1] > 0 && c > 0 && cost < best.0 {
            best = (cost, b);
        }
    }
    // Split cost: one more node to traverse, then each side's packets weighted by its area.
    let best = (best.0 + TRAVERSAL_COST * area(lo, hi), best.1);
    let leaf_cost = area(lo, hi) * blocks(count);
    if best.0 >= leaf_cost && count <= 2 * MAX_LEAF || best.0 == f32::INFINITY {
        if count <= 2 * MAX_LEAF {
            make_leaf(nodes);
        } else {
            split_at(
                nodes,
                node,
                order,
                start,
                start + count / 2,
                end,
                depth,
                centroids,
                bounds_of,
            );
        }
        return;
    }
    // Partition by bin.
    let split_bin = best.1;
    let slice = &mut order[start..end];
    let mut i = 0;
    let mut j = slice.len();
    while i < j {
        if bin_of(slice[i]) < split_bin {
            i += 1;
        } else {
            j -= 1;
            slice.swap(i, j);
        }
    }
    let mid = start + i;
    split_at(
        nodes, node, order, start, mid, end, depth, centroids, bounds_of,
    );
}

/// Make `node` an inner node whose children cover `start..mid` and `mid..end`, and build them.
#[allow(clippy::too_many_arguments)]
fn split_at(
    nodes: &mut Vec<Node>,
    node: usize,
    order: &mut [u32],
    start: usize,
    mid: usize,
    end: usize,
    depth: usize,
    centroids: &[Vec3],
    bounds_of: &dyn Fn(u32) -> (Vec3, Vec3),
) {
    if mid == start || mid == end {
        nodes[node].first = start as u32;
        nodes[node].count = (end - start) as u32;
        return;
    }
    let left = nodes.len();
    let empty = Node {
        min: [0.0; 3],
        first: 0,
        max: [0.0; 3],
        count: 0,
    };
    nodes.push(empty);
    nodes.push(empty);
    nodes[node].first = left as u32;
    nodes[node].count = 0;
    build(
        nodes,
        left,
        order,
        start,
        mid,
        depth + 1,
        centroids,
        bounds_of,
    );
    build(
        nodes,
        left + 1,
        order,
        mid,
        end,
        depth + 1,
        centroids,
        bounds_of,
    );
}

/// Per-ray constants of the watertight test: the axis permutation and shear that make the ray `+z` from the
/// origin.
struct Watertight {
    origin: Vec3,
    /// The ray's dominant axis and the two others, ordered to keep the winding: `(kx, ky, kz)`.
    k: [usize; 3],
    /// `d[kx] / d[kz]`, `d[ky] / d[kz]`, `1 / d[kz]`.
    shear: Vec3,
}

impl Watertight {
    fn new(ray: &Ray) -> Self {
        let d = ray.dir;
        let a = d.abs();
        let kz = if a.x >= a.y && a.x >= a.z {
            0
        } else if a.y >= a.z {
            1
        } else {
            2
        };
        let mut kx = (kz + 1) % 3;
        let mut ky = (kx + 1) % 3;
        // Keep the winding: swap x and y when the ray points down its z axis.
        if d[kz] < 0.0 {
            std::mem::swap(&mut kx, &mut ky);
        }
        Self {
            origin: ray.origin,
            k: [kx, ky, kz],
            shear: Vec3::new(d[kx] / d[kz], d[ky] / d[kz], 1.0 / d[kz]),
        }
    }

    /// The hits `(lane, t, u, v)` with `t <= max_t` of the lanes of `packet` in the mask `valid`: the same
    /// arithmetic as [`Watertight::intersect`] on four triangles at once (the same operations in the same
    /// order, so the same bits); lanes with an edge function exactly zero go through the scalar test and
    /// its f64 retry.
    #[inline]
    fn intersect4<'a>(
        &'a self,
        packet: &'a Tri4,
        valid: u32,
        max_t: f32,
    ) -> impl Iterator<Item = (usize, f32, f32, f32)> + use<'a> {
        let [kx, ky, kz] = self.k;
        let (ox, oy, oz) = (
            Vec4::splat(self.origin[kx]),
            Vec4::splat(self.origin[ky]),
            Vec4::splat(self.origin[kz]),
        );
        let (sx, sy) = (Vec4::splat(self.shear.x), Vec4::splat(self.shear.y));
        // Vertex `i` relative to the origin, sheared: the scalar test's operations, lane by lane.
        let rel = |i: usize| {
            let p = &packet.v[i];
            let z = p[kz] - oz;
            ((p[kx] - ox) - sx * z, (p[ky] - oy) - sy * z, z)
        };
        let (ax, ay, az) = rel(0);
        let (bx, by, bz) = rel(1);
        let (cx, cy, cz) = rel(2);
        let u = cx * by - cy * bx;
        let v = ax * cy - ay * cx;
        let w = bx * ay - by * ax;
        let zero = Vec4::ZERO;
        let exact_zero = (u.cmpeq(zero) | v.cmpeq(zero) | w.cmpeq(zero)).bitmask() & valid;
        let mixed = (u.cmplt(zero) | v.cmplt(zero) | w.cmplt(zero))
            & (u.cmpgt(zero) | v.cmpgt(zero) | w.cmpgt(zero));
        let det = u + v + w;
        let sz = Vec4::splat(self.shear.z);
        let t_scaled = u * (sz * az) + v * (sz * bz) + w * (sz * cz);
        let behind =
            (det.cmpgt(zero) & t_scaled.cmplt(zero)) | (det.cmplt(zero) & t_scaled.cmpgt(zero));
        let inv = Vec4::ONE / det;
        let t = t_scaled * inv;
        let (bu, bv) = (v * inv, w * inv);
        let ok = !(mixed | behind | det.cmpeq(zero)) & t.cmple(Vec4::splat(max_t));
        let fast = ok.bitmask() & valid & !exact_zero;
        lanes(fast | exact_zero).filter_map(move |l| {
            if exact_zero & (1 << l) != 0 {
                self.intersect(&packet.lane(l))
                    .filter(|h| h.0 <= max_t)
                    .map(|(t, u, v)| (l, t, u, v))
            } else {
                let hit = (l, t[l], bu[l], bv[l]);
                hit.1.is_finite().then_some(hit)
            }
        })
    }

    /// `(t, u, v)` of a hit on either face, or `None`.
    #[inline]
    fn intersect(&self, tri: &[Vec3; 3]) -> Option<(f32, f32, f32)> {
        let [kx, ky, kz] = self.k;
        let (o, sh) = (self.origin, self.shear);
        let rel = |p: Vec3| {
            let z = p[kz] - o[kz];
            ((p[kx] - o[kx]) - sh.x * z, (p[ky] - o[ky]) - sh.y * z, z)
        };
        let (ax, ay, az) = rel(tri[0]);
        let (bx, by, bz) = rel(tri[1]);
        let (cx, cy, cz) = rel(tri[2]);
        let mut u = cx * by - cy * bx;
        let mut v = ax * cy - ay * cx;
        let mut w = bx * ay - by * ax;
        if u == 0.0 || v == 0.0 || w == 0.0 {
            // Exactly on an edge in f32: decide in f64 so both neighbours agree.
            let (ax, ay, bx, by, cx, cy) = (
                f64::from(ax),
                f64::from(ay),
                f64::from(bx),
                f64::from(by),
                f64::from(cx),
                f64::from(cy),
            );
            u = (cx * by - cy * bx) as f32;
            v = (ax * cy - ay * cx) as f32;
            w = (bx * ay - by * ax) as f32;
        }
        if (u < 0.0 || v < 0.0 || w < 0.0) && (u > 0.0 || v > 0.0 || w > 0.0) {
            return None;
        }
        let det = u + v + w;
        if det == 0.0 {
            return None;
        }
        let t_scaled = u * (sh.z * az) + v * (sh.z * bz) + w * (sh.z * cz);
        // t >= 0 with the determinant's sign, without dividing first.
        if (det > 0.0 && t_scaled < 0.0) || (det < 0.0 && t_scaled > 0.0) {
            return None;
        }
        let inv = 1.0 / det;
        let t = t_scaled * inv;
        t.is_finite().then_some((t, v * inv, w * inv))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::ray::ray_triangle;

    fn grid_mesh(n: usize) -> TriMesh {
        let mut v = Vec::new();
        let mut idx = Vec::new();
        for y in 0..=n {
            for x in 0..=n {
                let h = ((x * 7 + y * 13) % 5) as f32 * 0.1;
                v.push(Vec3::new(x as f32, h, y as f32));
            }
        }
        let w = (n + 1) as u32;
        for y in 0..n as u32 {
            for x in 0..n as u32 {
                let i = y * w + x;
                idx.push([i, i + w, i + 1]);
                idx.push([i + 1, i + w, i + w + 1]);
            }
        }
        TriMesh::new(v, idx).unwrap()
    }

    #[test]
    fn nearest_first_orders_only_the_set_lanes_and_keeps_ties_in_lane_order() {
        let nears = [5.0, 1.0, 9.0, 1.0, 0.0, 3.0, 7.0, 2.0];
        let (order, len) = nearest_first(0b1010_1110, &nears);
        assert_eq!(&order[..len], &[1, 3, 7, 5, 2]);
        assert_eq!(nearest_first(0, &nears).1, 0);
        let (order, len) = nearest_first(0xff, &nears);
        assert_eq!(&order[..len], &[4, 1, 3, 7, 5, 0, 6, 2]);
    }

    #[test]
    fn bvh_matches_brute_force() {
        let mesh = grid_mesh(20);
        mesh.assert_well_formed();
        let mut rng = crate::generate::SplitMix64::new(5);
        for _ in 0..2_000 {
            let o = Vec3::new(
                rng.range(-5.0, 25.0),
                rng.range(-3.0, 5.0),
                rng.range(-5.0, 25.0),
            );
            let target = Vec3::new(
                rng.range(0.0, 20.0),
                rng.range(0.0, 0.5),
                rng.range(0.0, 20.0),
            );
            let ray = Ray::new(o, target - o);
            let brute = (0..mesh.triangle_count() as u32)
                .filter_map(|i| ray_triangle(&ray, &mesh.triangle(i).unwrap(), 10.0).map(|h| h.t))
                .fold(None, |acc: Option<f32>, t| {
                    Some(acc.map_or(t, |a| a.min(t)))
                });
            let fast = mesh.cast_ray(&ray, 10.0).map(|h| h.t);
            match (brute, fast) {
                (Some(a), Some(b)) => assert!((a - b).abs() <= 1e-4 * (1.0 + a), "{a} vs {b}"),
                (None, None) => {}
                other => panic!("mismatch {other:?} for {ray:?}"),
            }
        }
    }

    #[test]
    fn stack_spills_past_its_inline_entries_and_stays_last_in_first_out() {
        let mut stack = Stack::new(0u32);
        assert_eq!(stack.pop(), None);
        // Fill past the inline part, pop some (into the inline part again), push again.
        for i in 0..(STACK as u32 + 40) {
            stack.push(i);
        }
        for i in (STACK as u32 - 10..STACK as u32 + 40).rev() {
            assert_eq!(stack.pop(), Some(i));
        }
        for i in 1000..1100 {
            stack.push(i);
        }
        for i in (1000..1100).rev() {
            assert_eq!(stack.pop(), Some(i));
        }
        for i in (0..STACK as u32 - 10).rev() {
            assert_eq!(stack.pop(), Some(i));
        }
        assert_eq!(stack.pop(), None);
    }

    #[test]
    fn errors() {
        assert_eq!(TriMesh::new(vec![], vec![]).unwrap_err(), MeshError::Empty);
        assert!(matches!(
            TriMesh::new(vec![Vec3::ZERO], vec![[0, 0, 1]]),
            Err(MeshError::IndexOutOfRange { index: 1, .. })
        ));
        assert_eq!(
            TriMesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![[0, 0, 1]]).unwrap_err(),
            MeshError::AllDegenerate(1)
        );
    }
}
