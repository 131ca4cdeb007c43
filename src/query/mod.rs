//! Pure geometric queries: overlap tests, ray casts, line tests, triangle tests, closest points, separating
//! axes and sweeps (time of impact).
//!
//! # Conventions shared by every query
//! - **Touching counts**: boundaries are inclusive. Distance-based tests compare exactly; separating-axis tests
//!   only call an axis separating when the gap exceeds [`SAT_EPSILON`] times the scale of the pair.
//! - **Invalid input** (see `is_valid` on each shape: NaN or infinite numbers, zero radius, zero-area triangle,
//!   zero ray direction, …) gives `None` / `false`, never a panic and never a NaN.
//! - **Rays** report `t` in units of `dir`; a ray starting inside a solid hits at `t = 0` with
//!   `normal = -dir.normalize()`; hits beyond `max_t` are `None`.
//! - **Sweeps** report the fraction of the motion at first contact; shapes that already touch give `t = 0`
//!   unless the motion separates them, then `None`.

use glam::{DVec3, Vec2, Vec3};
use serde::{Deserialize, Serialize};

pub mod closest;
pub(crate) mod closest_segment;
pub mod overlap;
pub mod ray;
pub mod sat;
pub mod segment;
pub mod sweep;
pub mod triangle;

pub use ray::SlabTrace;
pub use sat::{SatAxis, SatReport};

/// Relative gap below which a separating-axis test still calls two shapes touching.
pub const SAT_EPSILON: f32 = 1e-6;

/// A ray hit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RayHit {
    /// Ray parameter of the hit, in units of the ray's `dir`.
    pub t: f32,
    /// The hit point, `origin + t * dir`.
    pub point: Vec3,
    /// Unit normal of the surface that was hit, facing against the ray's `dir`.
    pub normal: Vec3,
}

/// A Möller–Trumbore hit: `point = (1 - u - v) * a + u * b + v * c`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TriHit {
    /// Ray parameter, in units of the ray's `dir`.
    pub t: f32,
    /// Barycentric weight of vertex `b`.
    pub u: f32,
    /// Barycentric weight of vertex `c`.
    pub v: f32,
}

/// Time of impact of a moving shape.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Toi {
    /// Fraction of the motion, in `[0, 1]`, at first contact.
    pub t: f32,
    /// The contact point at that time (on the obstacle's surface).
    pub point: Vec3,
    /// Unit normal pointing from the obstacle toward the moving shape.
    pub normal: Vec3,
}

/// Time of impact in the top-down plane.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Toi2 {
    /// Fraction of the motion, in `[0, 1]`, at first contact.
    pub t: f32,
    /// The contact point at that time, on the wall's collision outline (its segment's closest point moved
    /// `wall.radius` toward the circle).
    pub point: Vec2,
    /// Unit normal pointing from the wall toward the moving circle.
    pub normal: Vec2,
}

/// Face culling for [`triangle::moller_trumbore`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cull {
    /// Reject hits on the back face (determinant at or below epsilon, as in seed 001).
    Back,
    /// Accept both faces.
    None,
}

// ---- Internal helpers shared by the query families. ----

/// `v` in f64.
#[inline]
pub(crate) fn d3(v: Vec3) -> DVec3 {
    v.as_dvec3()
}

/// `v` back in f32.
#[inline]
pub(crate) fn f3(v: DVec3) -> Vec3 {
    v.as_vec3()
}

/// `v` scaled to unit length, also for tiny vectors whose squared length underflows f32 (scaled by its
/// largest component first). `v` must be finite and non-zero for a finite answer.
#[inline]
pub(crate) fn unit(v: Vec3) -> Vec3 {
    let m = v.abs().max_element();
    (v / m).normalize()
}

/// Whether every component of a ray hit is finite.
#[inline]
pub(crate) fn finite_hit(hit: RayHit) -> Option<RayHit> {
    // One branch in the common case: a finite sum means every term is finite (an infinity or NaN anywhere
    // makes it non-finite); only a sum that overflowed needs the component checks.
    let sum = hit.t + hit.point.element_sum() + hit.normal.element_sum();
    (sum.is_finite() || (hit.t.is_finite() && hit.point.is_finite() && hit.normal.is_finite()))
        .then_some(hit)
}

/// Whether every component of a time of impact is finite.
#[inline]
pub(crate) fn finite_toi(toi: Toi) -> Option<Toi> {
    (toi.t.is_finite() && toi.point.is_finite() && toi.normal.is_finite()).then_some(toi)
}
