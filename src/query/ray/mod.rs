//! Ray casts (Game Physics Cookbook, chapter 11): `fn(&Ray, &Shape, max_t) -> Option<RayHit>`.
//!
//! Conventions (every function here):
//! - `t` is in units of `ray.dir` (which need not be unit); a hit counts when `0 <= t <= max_t`. A NaN or
//!   negative `max_t` gives `None`; `f32::INFINITY` means unbounded.
//! - Touching counts: a ray that grazes a sphere, a box edge or a cylinder rim hits it.
//! - A ray whose origin is strictly inside a solid (sphere, box, cylinder), or on its surface heading out,
//!   hits at `t = 0` with `normal = -dir.normalize()`. On the surface heading in, it hits at `t = 0` with the
//!   surface normal.
//! - Planes and triangles are two-sided: the normal is flipped to face against `dir`.
//! - An invalid ray (zero or non-finite `dir`, non-finite origin) or shape gives `None`.

use super::triangle::moller_trumbore;
use super::{Cull, RayHit, d3, f3, finite_hit};
use crate::shape::{Plane, Ray, Triangle};

mod capsule;

mod cylinder;
mod slab;
mod sphere;
#[cfg(test)]
mod tests;
mod wall;

pub use capsule::ray_capsule;
pub use cylinder::ray_cylinder;
pub use slab::{SlabTrace, ray_aabb, ray_aabb_slabs, ray_obb, ray_obb_slabs};
pub use sphere::ray_sphere;
#[cfg(test)]
use sphere::{ray_sphere_f64, valid_hit};
pub use wall::ray_wall;
pub(crate) use wall::{wall_entry, wall_hit};

/// Whether `max_t` admits some hit (a NaN or negative bound admits none).
#[inline]
pub(crate) fn max_t_ok(max_t: f32) -> bool {
    max_t >= 0.0
}

/// Ray against a plane's surface, from either side.
///
/// A ray starting on the plane hits at `t = 0`; a ray parallel to the plane and off it misses. The normal is
/// the plane's unit normal, flipped to face against `dir` (the plane's own normal when `dir` lies in the
/// plane).
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Plane, Ray}, query::ray::ray_plane};
/// let floor = Plane::new(Vec3::Y, 0.0);
/// // From y = 3 going down 1.5 per unit of t: t = 3 / 1.5 = 2.
/// let hit = ray_plane(&Ray::new(Vec3::new(0.0, 3.0, 0.0), Vec3::new(0.0, -1.5, 0.0)), &floor, 5.0).unwrap();
/// assert_eq!((hit.t, hit.normal), (2.0, Vec3::Y));
/// // From below going up: the normal is flipped to face the ray.
/// let hit = ray_plane(&Ray::new(Vec3::new(0.0, -1.0, 0.0), Vec3::Y), &floor, 5.0).unwrap();
/// assert_eq!((hit.t, hit.normal), (1.0, -Vec3::Y));
/// ```
#[must_use]
pub fn ray_plane(ray: &Ray, plane: &Plane, max_t: f32) -> Option<RayHit> {
    if !max_t_ok(max_t) || !ray.is_valid() || !plane.is_valid() {
        return None;
    }
    let n = d3(plane.normal);
    let n_unit = n.normalize();
    let d = d3(ray.dir);
    let o = d3(ray.origin);
    let dist = n.dot(o) - f64::from(plane.d);
    let denom = n.dot(d);
    let facing = |denom: f64| if denom > 0.0 { -n_unit } else { n_unit };
    if dist == 0.0 {
        return finite_hit(RayHit {
            t: 0.0,
            point: ray.origin,
            normal: f3(facing(denom)),
        });
    }
    if denom == 0.0 {
        return None;
    }
    let t = -dist / denom;
    if t < 0.0 || t > f64::from(max_t) {
        return None;
    }
    finite_hit(RayHit {
        t: t as f32,
        point: f3(o + d * t),
        normal: f3(facing(denom)),
    })
}

/// Ray against a triangle, both faces (Möller–Trumbore without culling).
///
/// The normal is the triangle's unit normal flipped to face against `dir`. A ray exactly parallel to the
/// triangle's plane does not hit it (edge-on). Edges and vertices count as hits.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Ray, Triangle}, query::ray::ray_triangle};
/// let t = Triangle::new(Vec3::new(-1.0, -1.0, 5.0), Vec3::new(1.0, -1.0, 5.0), Vec3::new(0.0, 1.0, 5.0));
/// // Its front faces +z; from the origin along +z we hit its back at t = 5, normal toward us (-z).
/// let hit = ray_triangle(&Ray::new(Vec3::ZERO, Vec3::Z), &t, 10.0).unwrap();
/// assert_eq!((hit.t, hit.point, hit.normal), (5.0, Vec3::new(0.0, 0.0, 5.0), -Vec3::Z));
/// ```
#[must_use]
pub fn ray_triangle(ray: &Ray, triangle: &Triangle, max_t: f32) -> Option<RayHit> {
    if !max_t_ok(max_t) || !triangle.is_valid() {
        return None;
    }
    let hit = moller_trumbore(ray, triangle, Cull::None)?;
    if hit.t > max_t {
        return None;
    }
    let n = triangle.normal_unnormalized().normalize();
    let normal = if n.dot(ray.dir) > 0.0 { -n } else { n };
    finite_hit(RayHit {
        t: hit.t,
        point: ray.at(hit.t),
        normal,
    })
}
