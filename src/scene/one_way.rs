//! One-way surfaces: objects that support from above and let everything through from below and the sides
//! (a level's boxes, triangles, meshes and sectors with `one_way: true`). Every scene query applies the rules
//! below to a one-way object's own answer, so balls and characters get them through the queries:
//! - a ray hit counts only where the ray goes down (`dir.y < 0`) onto a face whose normal points up
//!   (`normal.y > 0`);
//! - a sweep's contact counts only where the motion goes down (`motion.y < 0`), the contact normal points up
//!   (`normal.y > 0`), and the moving shape was not already in the object at the start (a contact at `t = 0`
//!   counts only where the overlap rule below counts);
//! - an overlap counts only where the shape is on top: its lowest point is at or above the object's top
//!   surface under it, less [`ONE_WAY_TOLERANCE`]. Measured exactly with the object's own sweep: the shape
//!   raised by its height comes down onto the object; the overlap counts when that first contact is within
//!   the tolerance of where the shape is. So a character standing on the surface at skin distance (or resting
//!   on it) is supported, and one passing up through it is not blocked.
//!
//! The rules look at the object's first contact only: a one-way mesh whose nearest hit along a ray is a side
//! face lets the ray through even where a floor of the same mesh lies beyond it (one-way objects are floors;
//! their sides let things through anyway).

use glam::Vec3;

use super::Scene;
use crate::id::ObjectId;
use crate::query::Toi;
use crate::shape::{Capsule, Ray, Sphere};
use crate::statics::Static;

/// How far (metres) a shape's lowest point may be below a one-way surface's top and still be on it.
pub const ONE_WAY_TOLERANCE: f32 = 1e-3;

/// The moving or tested shape of a query.
#[derive(Clone, Copy, Debug)]
pub(super) enum Probe<'a> {
    Sphere(&'a Sphere),
    Capsule(&'a Capsule),
}

impl Probe<'_> {
    /// The shape moved by `d`, swept by `motion` against `shape`.
    fn sweep_moved(&self, shape: &Static, d: Vec3, motion: Vec3) -> Option<Toi> {
        match *self {
            Probe::Sphere(s) => shape.sweep_sphere(&Sphere::new(s.center + d, s.radius), motion),
            Probe::Capsule(c) => {
                shape.sweep_capsule(&Capsule::new(c.a + d, c.b + d, c.radius), motion)
            }
        }
    }

    /// Its height from its lowest point to its highest.
    fn height(&self) -> f32 {
        match *self {
            Probe::Sphere(s) => 2.0 * s.radius,
            Probe::Capsule(c) => (c.a.y - c.b.y).abs() + 2.0 * c.radius,
        }
    }
}

/// Whether a ray's hit on a one-way object counts: going down onto an upward face.
#[inline]
pub(super) fn ray_counts(ray: &Ray, normal: Vec3) -> bool {
    ray.dir.y < 0.0 && normal.y > 0.0
}

/// Whether `probe`, where it is, is on top of the one-way `shape` (see the module's notes).
pub(super) fn on_top(shape: &Static, probe: Probe<'_>) -> bool {
    let h = probe.height() + 2.0 * ONE_WAY_TOLERANCE;
    if !h.is_finite() {
        return false;
    }
    let up = Vec3::new(0.0, h, 0.0);
    match probe.sweep_moved(shape, up, -up) {
        // Coming down from above, the first contact is at most the tolerance above where the shape is.
        Some(toi) => h * (1.0 - toi.t) <= ONE_WAY_TOLERANCE,
        // Touching at most (the sweep from above reaches no contact): nothing to refuse.
        None => true,
    }
}

/// Whether a sweep's contact `toi` of `probe` moving by `motion` with the one-way `shape` counts.
pub(super) fn sweep_counts(shape: &Static, probe: Probe<'_>, motion: Vec3, toi: &Toi) -> bool {
    motion.y < 0.0 && toi.normal.y > 0.0 && (toi.t > 0.0 || on_top(shape, probe))
}

/// The one-way flags of a scene's entries (empty when no object is one-way).
#[derive(Clone, Debug, Default)]
pub(super) struct OneWay {
    flags: Vec<bool>,
}

impl OneWay {
    /// Whether scene entry `i` is one-way.
    #[inline]
    pub(super) fn is(&self, i: usize) -> bool {
        self.flags.get(i).copied().unwrap_or(false)
    }

    /// Scene index `i` was removed.
    pub(super) fn removed(&mut self, i: usize) {
        if i < self.flags.len() {
            self.flags.remove(i);
        }
    }
}

impl Scene {
    /// Mark the scene's entries one-way by index (`flags[i]` for entry `i`; missing ones are not).
    pub(crate) fn set_one_way_flags(&mut self, flags: Vec<bool>) {
        self.one_way.flags = if flags.iter().any(|&f| f) {
            flags
        } else {
            Vec::new()
        };
        self.generation += 1;
    }

    /// Whether any object of the scene is a one-way surface (a character's step looks for the ones it passed
    /// through only then).
    pub(crate) fn has_one_way(&self) -> bool {
        !self.one_way.flags.is_empty()
    }

    /// Whether object `id` (its first entry) is a one-way surface.
    #[must_use]
    pub fn is_one_way(&self, id: ObjectId) -> bool {
        self.by_id
            .get(&id)
            .is_some_and(|&i| self.one_way.is(i as usize))
    }

    /// Whether scene entry `i` (an index into [`Scene::shapes`]) is a one-way surface.
    #[must_use]
    pub fn is_one_way_entry(&self, i: usize) -> bool {
        self.one_way.is(i)
    }

    /// Whether entry `i`'s overlap with `probe` counts (always for other than one-way objects).
    #[inline]
    pub(super) fn overlap_counts(&self, i: usize, probe: Probe<'_>) -> bool {
        !self.one_way.is(i) || on_top(&self.shapes[i], probe)
    }
}
