//! A ray against a solid capsule.

use super::super::closest::point_segment_d;
use super::super::sweep::ray_capsule_entry;
use super::super::{RayHit, d3, f3, finite_hit, unit};
use super::max_t_ok;
use crate::shape::{Capsule, Ray};

/// A ray against a solid capsule: the entry into the side (a cylinder about the segment) or an end sphere,
/// solved in f64. A ray starting inside (or on) the capsule hits at `t = 0` with `normal = -dir.normalize()`.
/// `t` is in units of `dir`; hits beyond `max_t`, a NaN or negative `max_t`, or invalid input give `None`.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Capsule, Ray}, query::ray::ray_capsule};
/// let c = Capsule::new(Vec3::ZERO, Vec3::new(0.0, 2.0, 0.0), 0.5);
/// // Along -x at mid height: the side at x = 0.5.
/// let hit = ray_capsule(&Ray::new(Vec3::new(3.0, 1.0, 0.0), -Vec3::X), &c, 10.0).unwrap();
/// assert_eq!((hit.t, hit.point, hit.normal), (2.5, Vec3::new(0.5, 1.0, 0.0), Vec3::X));
/// // Straight down onto the top: the end sphere's pole at y = 2.5.
/// let hit = ray_capsule(&Ray::new(Vec3::new(0.0, 5.0, 0.0), -Vec3::Y), &c, 10.0).unwrap();
/// assert_eq!((hit.t, hit.normal), (2.5, Vec3::Y));
/// // From inside: t = 0, facing back along the ray.
/// assert_eq!(ray_capsule(&Ray::new(Vec3::Y, Vec3::X), &c, 1.0).unwrap().normal, -Vec3::X);
/// ```
#[must_use]
pub fn ray_capsule(ray: &Ray, capsule: &Capsule, max_t: f32) -> Option<RayHit> {
    if !ray.is_valid() || !capsule.is_valid() || !max_t_ok(max_t) {
        return None;
    }
    let (o, d) = (d3(ray.origin), d3(ray.dir));
    let (p, q, r) = (d3(capsule.a), d3(capsule.b), f64::from(capsule.radius));
    if o.distance_squared(point_segment_d(o, p, q)) <= r * r {
        return finite_hit(RayHit {
            t: 0.0,
            point: ray.origin,
            normal: -unit(ray.dir),
        });
    }
    let t = ray_capsule_entry(o, d, p, q, r)?;
    if t > f64::from(max_t) {
        return None;
    }
    let at = o + d * t;
    let normal = (at - point_segment_d(at, p, q)).try_normalize()?;
    finite_hit(RayHit {
        t: t as f32,
        point: f3(at),
        normal: f3(normal),
    })
}
