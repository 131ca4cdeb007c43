//! Rays against capped cylinders.

use glam::DVec3;

use super::super::{RayHit, d3, f3, finite_hit, unit};
use super::max_t_ok;
use crate::shape::{Cylinder, Ray};

/// Entry/exit interval of the line `o + t d` (f64) in a finite capped cylinder, with which feature is
/// entered. Returns `(t_enter, t_exit, entered_side)` or `None` when the line misses.
pub(crate) fn line_cylinder_d(
    o: DVec3,
    d: DVec3,
    a: DVec3,
    b: DVec3,
    r: f64,
) -> Option<(f64, f64, bool)> {
    let ab = b - a;
    let height = ab.length();
    let u = ab / height;
    let oc = o - a;
    let o_ax = oc.dot(u);
    let d_ax = d.dot(u);
    // Slab between the caps.
    let (s0, s1) = if d_ax == 0.0 {
        if o_ax < 0.0 || o_ax > height {
            return None;
        }
        (f64::NEG_INFINITY, f64::INFINITY)
    } else {
        let t1 = -o_ax / d_ax;
        let t2 = (height - o_ax) / d_ax;
        (t1.min(t2), t1.max(t2))
    };
    // Infinite side surface.
    let oc_p = oc - u * o_ax;
    let d_p = d - u * d_ax;
    let qa = d_p.length_squared();
    let qc = oc_p.length_squared() - r * r;
    let (c0, c1) = if qa <= 0.0 {
        if qc > 0.0 {
            return None;
        }
        (f64::NEG_INFINITY, f64::INFINITY)
    } else {
        let half_b = oc_p.dot(d_p);
        // Cancellation-free discriminant: r² minus the squared distance from the axis to the line.
        let perp = oc_p - d_p * (half_b / qa);
        let disc = qa * (r * r - perp.length_squared());
        if disc < 0.0 {
            return None;
        }
        let s = disc.sqrt();
        let q = if half_b >= 0.0 {
            -(half_b + s)
        } else {
            -half_b + s
        };
        if q == 0.0 {
            (0.0, 0.0)
        } else {
            let (r0, r1) = (q / qa, qc / q);
            (r0.min(r1), r0.max(r1))
        }
    };
    let enter = s0.max(c0);
    let exit = s1.min(c1);
    (enter <= exit).then_some((enter, exit, c0 >= s0))
}

/// Ray against a solid, finite, capped cylinder (in f64).
///
/// The side is an infinite cylinder clipped by the slab between the caps. The normal is radial on the side,
/// along the axis on a cap (the side's at the rim). Conventions in the module docs.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Cylinder, Ray}, query::ray::ray_cylinder};
/// // Axis from (5, 0, 0) to (5, 4, 0), radius 1: the side facing the origin is at x = 4.
/// let c = Cylinder::new(Vec3::new(5.0, 0.0, 0.0), Vec3::new(5.0, 4.0, 0.0), 1.0);
/// let hit = ray_cylinder(&Ray::new(Vec3::new(0.0, 2.0, 0.0), Vec3::X), &c, 10.0).unwrap();
/// assert_eq!((hit.t, hit.normal), (4.0, -Vec3::X));
/// // From above, straight down onto the cap y = 4.
/// let hit = ray_cylinder(&Ray::new(Vec3::new(5.0, 9.0, 0.0), -Vec3::Y), &c, 10.0).unwrap();
/// assert_eq!((hit.t, hit.normal), (5.0, Vec3::Y));
/// ```
#[must_use]
pub fn ray_cylinder(ray: &Ray, cylinder: &Cylinder, max_t: f32) -> Option<RayHit> {
    if !max_t_ok(max_t) || !ray.is_valid() || !cylinder.is_valid() {
        return None;
    }
    let o = d3(ray.origin);
    let d = d3(ray.dir);
    let a = d3(cylinder.a);
    let b = d3(cylinder.b);
    let (enter, exit, side) = line_cylinder_d(o, d, a, b, f64::from(cylinder.radius))?;
    if exit < 0.0 {
        return None;
    }
    if enter < 0.0 {
        return finite_hit(RayHit {
            t: 0.0,
            point: ray.origin,
            normal: -unit(ray.dir),
        });
    }
    if enter > f64::from(max_t) {
        return None;
    }
    let point = o + d * enter;
    let u = (b - a).normalize();
    let normal = if side {
        let rel = point - a;
        (rel - u * rel.dot(u)).normalize()
    } else if d.dot(u) > 0.0 {
        -u
    } else {
        u
    };
    finite_hit(RayHit {
        t: enter as f32,
        point: f3(point),
        normal: f3(normal),
    })
}
