//! One-way surfaces for balls: a level's one-way boxes, triangles, meshes and sectors support a ball from
//! above and let it through from below and the sides, by the scene's own rules (`scene/one_way.rs`), applied
//! to the ball's motion relative to the surface (a moving one-way platform is met in its frame):
//! - a contact during a step counts only where the ball moves down onto the surface (relative motion
//!   `y < 0`) and the contact normal points up (`normal.y > 0`);
//! - a contact at the start of the motion (touching, or overlapping) counts only where the ball is on top:
//!   coming down from above its own height, it meets the surface within [`ONE_WAY_TOLERANCE`] of where it is.
//!
//! The push-out and the resting settle take a one-way surface's contact only where the ball is on top, so a
//! ball passing up through a one-way floor is never pushed back down.

use glam::Vec3;

use crate::query::Toi;
use crate::scene::ONE_WAY_TOLERANCE;
use crate::shape::Sphere;
use crate::statics::Static;

/// Whether `sphere`, where it is, is on top of the one-way `shape`.
pub(super) fn on_top(shape: &Static, sphere: &Sphere) -> bool {
    let h = 2.0 * sphere.radius + 2.0 * ONE_WAY_TOLERANCE;
    if !h.is_finite() {
        return false;
    }
    let up = Vec3::new(0.0, h, 0.0);
    match shape.sweep_sphere(&Sphere::new(sphere.center + up, sphere.radius), -up) {
        Some(toi) => h * (1.0 - toi.t) <= ONE_WAY_TOLERANCE,
        None => true,
    }
}

/// Whether a sweep's contact `toi` of `sphere` moving by `motion` (relative to the surface) with the one-way
/// `shape` counts.
pub(super) fn sweep_counts(shape: &Static, sphere: &Sphere, motion: Vec3, toi: &Toi) -> bool {
    motion.y < 0.0 && toi.normal.y > 0.0 && (toi.t > 0.0 || on_top(shape, sphere))
}
