//! Clip planes: each contact a plane the motion left is kept out of (Quake's way), held in a fixed array so a
//! move allocates nothing for them.

use glam::Vec3;

use super::TINY;
use crate::character::result::Constraint;
use crate::id::ObjectId;
use crate::scene::SceneToi;

/// A contact plane the motion left is kept out of.
#[derive(Clone, Copy, Debug)]
pub(super) struct Plane {
    pub(super) normal: Vec3,
    pub(super) constraint: Constraint,
    pub(super) object: ObjectId,
}

/// Most planes kept per move (the oldest are dropped).
const MAX_PLANES: usize = 6;

/// The planes of one slide: at most [`MAX_PLANES`], the oldest dropped first.
#[derive(Clone, Copy, Debug)]
pub(super) struct Planes {
    items: [Plane; MAX_PLANES],
    len: usize,
}

impl Planes {
    /// No planes.
    pub(super) fn new() -> Self {
        let none = Plane {
            normal: Vec3::ZERO,
            constraint: Constraint::Wall,
            object: ObjectId(0),
        };
        Self {
            items: [none; MAX_PLANES],
            len: 0,
        }
    }

    /// One plane.
    pub(super) fn one(p: Plane) -> Self {
        let mut out = Self::new();
        out.push(p);
        out
    }

    /// The planes, oldest first.
    pub(super) fn as_slice(&self) -> &[Plane] {
        &self.items[..self.len]
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn clear(&mut self) {
        self.len = 0;
    }

    /// Add a plane, dropping the oldest when full.
    fn push(&mut self, p: Plane) {
        if self.len == MAX_PLANES {
            self.items.copy_within(1.., 0);
            self.len -= 1;
        }
        self.items[self.len] = p;
        self.len += 1;
    }
}

/// Keep a contact's plane (two for a too-steep surface: itself, and its horizontal direction as a wall for the
/// horizontal motion), replacing one about equal.
pub(super) fn add_plane(planes: &mut Planes, hit: &SceneToi, constraint: Constraint, left: Vec3) {
    let mut push = |normal: Vec3, constraint: Constraint| {
        if let Some(p) = planes.items[..planes.len]
            .iter_mut()
            .find(|p| p.normal.dot(normal) > 0.9999 && p.constraint == constraint)
        {
            // The contact just met replaces it whole: a motion grazing a rounded edge is turned by its
            // normal, not by the face's (the walk along a wall top's rim, met at 0.5° off its face's normal,
            // was clipped by the face it stood on, met the rim again where it was, and never moved).
            p.normal = normal;
            p.object = hit.object;
            return;
        }
        planes.push(Plane {
            normal,
            constraint,
            object: hit.object,
        });
    };
    push(hit.normal, constraint);
    if constraint == Constraint::Steep && left.y <= 0.0 {
        let flat = Vec3::new(hit.normal.x, 0.0, hit.normal.z);
        if flat.length_squared() > 1e-12 {
            push(flat.normalize(), Constraint::Wall);
        }
    }
}

/// `v` kept out of one plane: a walkable plane keeps the horizontal part and follows the surface; any other
/// loses its component into the plane.
fn project(v: Vec3, p: &Plane) -> Vec3 {
    let into = v.dot(p.normal);
    if into >= 0.0 {
        return v;
    }
    if p.constraint == Constraint::Ground && p.normal.y > 1e-3 {
        Vec3::new(
            v.x,
            -(v.x * p.normal.x + v.z * p.normal.z) / p.normal.y,
            v.z,
        )
    } else {
        v - p.normal * into
    }
}

/// The motion left kept out of every plane (Quake's clip planes): each plane alone, then each crease of two,
/// else nothing (a corner). A way that turns back against the move's own motion (`primal`) is no way: in an
/// obtuse corner, the wall met second would otherwise send the body back out along itself. Nor is one that
/// turns back against the motion's horizontal direction, but for sliding down a surface too steep to stand on
/// (what the fall does there): a sloping ceiling met by a jump would otherwise send the body back under it.
/// Answers the motion and whether it is a corner.
pub(super) fn clip(left: Vec3, planes: &[Plane], primal: Vec3) -> (Vec3, bool) {
    if planes.is_empty() {
        return (left, false);
    }
    let tol = 1e-6 * left.length() + 1e-9;
    let heading = Vec3::new(primal.x, 0.0, primal.z);
    let fits = |v: Vec3, down_steep: bool| {
        planes.iter().all(|p| v.dot(p.normal) >= -tol)
            && v.dot(primal) >= 0.0
            && ((down_steep && v.y < 0.0) || v.dot(heading) >= -tol * heading.length())
    };
    let steep = |p: &Plane| p.constraint == Constraint::Steep;
    for p in planes.iter().rev() {
        let v = project(left, p);
        if fits(v, steep(p)) {
            return (v, false);
        }
    }
    for i in (0..planes.len()).rev() {
        for j in (0..i).rev() {
            let crease = planes[i].normal.cross(planes[j].normal);
            if crease.length_squared() < 1e-10 {
                continue;
            }
            let c = crease.normalize();
            let v = c * left.dot(c);
            if fits(v, steep(&planes[i]) || steep(&planes[j])) {
                return (v, v.length_squared() <= TINY * TINY);
            }
        }
    }
    (Vec3::ZERO, true)
}
