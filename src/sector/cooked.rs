//! What cooking answers: one sector's triangles ([`CookedSector`]) and what each triangle is ([`FaceKind`]).
//! A room of its own beneath the cooking (`cook.rs`) and the edge faces (`walls.rs`), which both fill it.

use glam::Vec3;

use crate::id::ObjectId;

/// What a cooked triangle is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaceKind {
    /// The floor (faces up).
    Floor,
    /// The ceiling (faces down).
    Ceiling,
    /// A solid wall from floor to ceiling along an edge shared with nothing.
    Wall,
    /// From a lower floor across an edge up to this sector's floor.
    Riser,
    /// From this sector's ceiling up to a higher ceiling across an edge.
    Lintel,
}

/// One sector's cooked triangles: the sector's object in a scene.
#[derive(Clone, Debug, PartialEq)]
pub struct CookedSector {
    /// The sector.
    pub id: ObjectId,
    /// Vertex positions.
    pub vertices: Vec<Vec3>,
    /// Triangles (front faces toward the air they bound).
    pub indices: Vec<[u32; 3]>,
    /// What each triangle is.
    pub faces: Vec<FaceKind>,
}

impl CookedSector {
    /// No triangles, for sector `id`.
    #[must_use]
    pub fn empty(id: ObjectId) -> Self {
        Self {
            id,
            vertices: Vec::new(),
            indices: Vec::new(),
            faces: Vec::new(),
        }
    }

    /// Whether the sector cooked to no triangles (an invalid outline).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// Add a triangle.
    pub(super) fn push(&mut self, t: [Vec3; 3], kind: FaceKind) {
        let n = self.vertices.len() as u32;
        self.vertices.extend_from_slice(&t);
        self.indices.push([n, n + 1, n + 2]);
        self.faces.push(kind);
    }
}
