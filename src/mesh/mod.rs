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

mod build;
mod gltf;
mod layout;
mod near;
pub(crate) use near::{Near, NearTriangle, TrianglePre};
mod ray;
mod translate;
mod volume;

#[cfg(test)]
mod tests;

use glam::Vec3;

pub use gltf::{
    GltfError, GltfPrimitive, GltfScene, MAX_GLTF_BYTES, gltf_external_uris, is_gltf_path,
    parse_gltf, read_gltf,
};

use crate::pages::Pages;
use crate::shape::{Aabb, Triangle};
use layout::{Tri4, Wide};

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
        let order: Vec<u32> = (0..indices.len() as u32)
            .filter(|&i| {
                let [a, b, c] = indices[i as usize].map(|k| vertices[k as usize]);
                Triangle::new(a, b, c).is_valid()
            })
            .collect();
        if order.is_empty() {
            return Err(MeshError::AllDegenerate(indices.len()));
        }
        let (bounds, wide, packets) = build::tree(&vertices, &indices, order);
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

    /// The index in the mesh of the triangle in slot `k` (`packet * 4 + lane`), `u32::MAX` for an unused lane.
    fn id(&self, k: usize) -> u32 {
        self.packets[k / 4].id[k % 4]
    }

    /// The triangle in slot `k` (`packet * 4 + lane`).
    pub(super) fn slot(&self, k: usize) -> [Vec3; 3] {
        self.packets[k / 4].lane(k % 4)
    }
}
