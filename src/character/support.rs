//! What a contact point is on: the faces of an object through it (a nosing is on a tread's top face and on a
//! riser's front face), and how to push a body out of an object by the shortest way. Both read the level's
//! shapes as [`Static`]s, for any kind: each kind's own geometry is a method of [`Static`].

use glam::{DVec3, Vec3};

use crate::mesh::Near;
use crate::query::f3;
use crate::query::sweep::CapD;
use crate::scene::Static;
use crate::shape::{Capsule, Triangle};

/// At most this many faces are reported through one point (a box corner has three; a mesh vertex, one per
/// triangle around it: the first ones are kept).
pub(crate) const MAX_FACES: usize = 12;

/// Unit normals of faces through a point, pointing out of the object (for surfaces: toward the body).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Faces {
    normals: [Vec3; MAX_FACES],
    len: usize,
}

impl Faces {
    fn push(&mut self, n: Vec3) {
        if self.len < MAX_FACES && n.is_finite() && n != Vec3::ZERO {
            self.normals[self.len] = n.normalize();
            self.len += 1;
        }
    }

    /// The normals.
    pub(crate) fn as_slice(&self) -> &[Vec3] {
        &self.normals[..self.len]
    }

    /// The most level face (largest `y`), if any.
    pub(crate) fn most_level(&self) -> Option<Vec3> {
        self.as_slice()
            .iter()
            .copied()
            .max_by(|a, b| a.y.total_cmp(&b.y))
    }

    /// Whether a face's normal is `normal` (to a tenth of a degree, far above the rounding of a contact normal
    /// and below the tilt of any edge contact that matters): the contact is on that face's interior rather
    /// than on an edge or corner.
    pub(crate) fn has(&self, normal: Vec3) -> bool {
        self.as_slice().iter().any(|n| n.dot(normal) >= 1.0 - 1e-6)
    }
}

/// The faces of `shape` through `point` (within `tol`), their normals pointing out of a solid, or for a surface
/// (plane, triangle, mesh triangle) toward `body` (the body's point nearest the contact).
pub(crate) fn faces_at(shape: &Static, point: Vec3, body: Vec3, tol: f32) -> Faces {
    faces_near(shape, None, point, body, tol)
}

/// [`faces_at`], a mesh's through its triangles gathered near the move (`near`, the same faces).
pub(crate) fn faces_near(
    shape: &Static,
    near: Option<&Near<'_>>,
    point: Vec3,
    body: Vec3,
    tol: f32,
) -> Faces {
    let mut out = Faces::default();
    shape.faces_through(near, point, body, tol, |n| out.push(n));
    out
}

/// Candidate directions for pushing the body (axis `cap.p..cap.q`) out of `shape`, each unit and both ways:
/// the closest pair's direction, then the shape's separating directions (its face normals, and its edges
/// crossed with the body's axis).
fn candidates(shape: &Static, cap: &CapD, pair: Option<(DVec3, DVec3)>, out: &mut Vec<DVec3>) {
    out.clear();
    let mut add = |d: DVec3| {
        if let Some(d) = d.try_normalize() {
            out.push(d);
            out.push(-d);
        }
    };
    if let Some((s, o)) = pair {
        add(s - o);
    }
    shape.separating_directions(cap.p, cap.q, &mut add);
}

/// The shortest push found that takes the body (its radius grown to `target_r`) clear of `shape`: along each
/// candidate direction, the least move that leaves the two extents apart by `target_r` (which separates them
/// by at least that); the smallest wins. `None` for meshes (pushed triangle by triangle) and when no candidate
/// works.
pub(crate) fn shortest_push(shape: &Static, body: &Capsule, target_r: f32) -> Option<Vec3> {
    let cap = CapD::of(body);
    let pair = shape.closest_to_segment(cap.p, cap.q);
    let mut dirs = Vec::with_capacity(24);
    candidates(shape, &cap, pair, &mut dirs);
    let target = f64::from(target_r);
    let mut best: Option<(f64, DVec3)> = None;
    for d in dirs {
        let Some((_, obj_max)) = shape.extent_along(d) else {
            continue;
        };
        let seg_min = cap.p.dot(d).min(cap.q.dot(d));
        let need = obj_max - seg_min + target;
        if need.is_finite() && best.is_none_or(|(b, _)| need < b) {
            best = Some((need.max(0.0), d));
        }
    }
    best.map(|(len, d)| f3(d * len))
}

/// The triangle `t` as a shape, for pushing a body out of a mesh one triangle at a time.
pub(crate) fn triangle_shape(t: Triangle) -> Static {
    Static::Triangle(t)
}

/// The point of `shape` nearest `p` within `reach` of it (solids: their surface or `p` itself inside; a mesh:
/// its nearest triangle within reach).
pub(crate) fn closest_point(shape: &Static, p: Vec3, reach: f32) -> Option<Vec3> {
    shape.closest_point(p, reach)
}
