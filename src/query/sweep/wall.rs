//! Sweeps against a wall extruded from the floor (seed 003's top-down walls made solid): a sphere's, and a
//! top-down circle's against the wall's outline.

use glam::{DVec3, Vec2, Vec3};

use super::super::closest::point_segment_d;
use super::super::{Toi, Toi2, d3};
use super::{
    ROOT_TOLERANCE, contact_at, earliest, first_root_convex, ray_capsule_entry, touching_now,
};
use crate::shape::{Sphere, Wall};

/// The point of a wall extruded from the floor to `height` closest to `p`: the solid made of every point
/// whose top-down distance to the wall's segment is at most `radius` and whose `y` is in `0..=height`.
pub(super) fn point_wall_solid_d(p: DVec3, a: DVec3, b: DVec3, wall_r: f64, height: f64) -> DVec3 {
    let flat = DVec3::new(p.x, 0.0, p.z);
    let q = point_segment_d(flat, a, b);
    let off = flat - q;
    let d = off.length();
    let xz = if d <= wall_r {
        flat
    } else {
        q + off * (wall_r / d)
    };
    DVec3::new(xz.x, p.y.clamp(0.0, height), xz.z)
}

/// For a point inside a wall's solid (segment `a..b` on the floor, radius `wr`, height `h`): the outward normal
/// of the nearest of its side, top and bottom, and the point's projection on it.
pub(super) fn wall_exit(o: DVec3, a: DVec3, b: DVec3, wr: f64, h: f64) -> (DVec3, DVec3) {
    let flat = DVec3::new(o.x, 0.0, o.z);
    let q = point_segment_d(flat, a, b);
    let side_depth = wr - flat.distance(q);
    let side_n = (flat - q).try_normalize().unwrap_or_else(|| {
        let e = (b - a).try_normalize().unwrap_or(DVec3::X);
        DVec3::new(-e.z, 0.0, e.x)
    });
    let (top, bottom) = (h - o.y, o.y);
    if side_depth <= top && side_depth <= bottom {
        (side_n, o + side_n * side_depth)
    } else if top <= bottom {
        (DVec3::Y, DVec3::new(o.x, h, o.z))
    } else {
        (-DVec3::Y, DVec3::new(o.x, 0.0, o.z))
    }
}

/// A moving sphere against a wall extruded from the floor (`y = 0`) to `height`: the solid of all points within
/// the wall's collision radius of its segment (top-down) with `y` in `0..=height`. Its side is the wall's
/// capsule outline; its top and bottom are flat; the edges between are rounded by the sphere.
///
/// ```
/// use collidoscope::{glam::{Vec2, Vec3}, shape::{Sphere, Wall}, query::sweep::sphere_wall};
/// // A wall along x at z = 0, collision radius 0.25, 2 high; a ball of radius 0.5 rolling toward it.
/// let wall = Wall::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0), 0.25);
/// let toi = sphere_wall(&Sphere::new(Vec3::new(0.0, 0.5, 4.0), 0.5), Vec3::new(0.0, 0.0, -5.0), &wall, 2.0).unwrap();
/// // It touches when z = 0.25 + 0.5: after 3.25 of 5.
/// assert!((toi.t - 0.65).abs() < 1e-6);
/// assert_eq!(toi.normal, Vec3::Z);
/// // Over the top: a ball at y = 2.6 (0.6 above it) passes.
/// assert!(sphere_wall(&Sphere::new(Vec3::new(0.0, 2.6, 4.0), 0.5), Vec3::new(0.0, 0.0, -8.0), &wall, 2.0).is_none());
/// ```
#[must_use]
pub fn sphere_wall(sphere: &Sphere, motion: Vec3, wall: &Wall, height: f32) -> Option<Toi> {
    if !sphere.is_valid()
        || !wall.is_valid()
        || !motion.is_finite()
        || !(height >= 0.0)
        || !height.is_finite()
    {
        return None;
    }
    let lift = |v: Vec2| DVec3::new(f64::from(v.x), 0.0, f64::from(v.y));
    let (a, b) = (lift(wall.a), lift(wall.b));
    let (wr, h) = (f64::from(wall.radius), f64::from(height));
    let o = d3(sphere.center);
    let m = d3(motion);
    let r = f64::from(sphere.radius);
    let closest = |p: DVec3| point_wall_solid_d(p, a, b, wr, h);
    let q0 = closest(o);
    if o.distance_squared(q0) <= r * r {
        // Inside the wall: out through the nearest of its side, top and bottom.
        let inside = (o == q0).then(|| wall_exit(o, a, b, wr, h));
        return touching_now(o, q0, m, inside);
    }
    if m == DVec3::ZERO {
        return None;
    }
    // Closed forms first: the vertical capsule of radius wr + r (the path's top-down projection), reached at a
    // height within the wall; the top face offset by r, reached within the outline.
    let flat_o = DVec3::new(o.x, 0.0, o.z);
    let flat_m = DVec3::new(m.x, 0.0, m.z);
    let side = ray_capsule_entry(flat_o, flat_m, a, b, wr + r).filter(|&t| {
        let y = o.y + m.y * t;
        (0.0..=h).contains(&y)
    });
    let face = |level: f64, up: f64| {
        let s0 = up * (o.y - level) - r;
        let speed = up * m.y;
        if s0 < 0.0 || !(speed < 0.0) {
            return None;
        }
        let t = -s0 / speed;
        let p = flat_o + flat_m * t;
        (p.distance(point_segment_d(p, a, b)) <= wr).then_some(t)
    };
    let t = match earliest([side, face(h, 1.0), face(0.0, -1.0)]) {
        Some(t) => t,
        None => {
            // The rounded top and bottom edges can only be touched by a path that leaves the wall's height
            // range: within it, the inflated wall is the vertical capsule the side test already missed.
            let (y0, y1) = (o.y, o.y + m.y);
            if y0.min(y1) >= 0.0 && y0.max(y1) <= h {
                return None;
            }
            first_root_convex(o, m, r, ROOT_TOLERANCE, closest)?
        }
    };
    let center_then = o + m * t;
    contact_at(t, center_then, closest(center_then), -m.normalize())
}

/// A moving top-down circle (centre `center`, radius `radius`, motion `motion`, all `Vec2(x, z)`) against a
/// wall: the centre's ray against the capsule of radius `wall.radius + radius` around the wall's segment.
///
/// `radius` may be 0 (seed 003's camera point). The contact point is on the wall's collision outline (the
/// segment's closest point moved `wall.radius` toward the circle); the normal points from the wall to the
/// circle.
///
/// ```
/// use collidoscope::{glam::Vec2, shape::Wall, query::sweep::circle_wall};
/// // A wall along x from (0, 0) to (10, 0) with collision distance 0.5.
/// let wall = Wall::new(Vec2::ZERO, Vec2::new(10.0, 0.0), 0.5);
/// // A circle of radius 0.5 at z = 4 moving -6 in z: it touches when z = 1, after 3 of 6.
/// let toi = circle_wall(Vec2::new(5.0, 4.0), 0.5, Vec2::new(0.0, -6.0), &wall).unwrap();
/// assert_eq!((toi.t, toi.point, toi.normal), (0.5, Vec2::new(5.0, 0.5), Vec2::Y));
/// ```
#[must_use]
pub fn circle_wall(center: Vec2, radius: f32, motion: Vec2, wall: &Wall) -> Option<Toi2> {
    if !wall.is_valid()
        || !center.is_finite()
        || !motion.is_finite()
        || !radius.is_finite()
        || radius < 0.0
    {
        return None;
    }
    // Work in 3D on the plane y = 0 to reuse the capsule machinery.
    let lift = |v: Vec2| DVec3::new(f64::from(v.x), 0.0, f64::from(v.y));
    let (a, b) = (lift(wall.a), lift(wall.b));
    let o = lift(center);
    let m = lift(motion);
    let big_r = f64::from(wall.radius) + f64::from(radius);
    let wall_r = f64::from(wall.radius);
    let flat = |v: DVec3| Vec2::new(v.x as f32, v.z as f32);
    let answer = |t: f64, c: DVec3, normal_fallback: DVec3| {
        let q = point_segment_d(c, a, b);
        let normal = (c - q).try_normalize().unwrap_or(normal_fallback);
        let toi = Toi2 {
            t: t.clamp(0.0, 1.0) as f32,
            point: flat(q + normal * wall_r),
            normal: flat(normal),
        };
        (toi.t.is_finite() && toi.point.is_finite() && toi.normal.is_finite()).then_some(toi)
    };
    let q0 = point_segment_d(o, a, b);
    if o.distance_squared(q0) <= big_r * big_r {
        let away = o - q0;
        let normal = if away.length_squared() > 0.0 {
            away.normalize()
        } else {
            // On the core segment: take the side the motion comes from.
            let fallback = (-m).try_normalize().unwrap_or(DVec3::Z);
            let along = (b - a).try_normalize();
            match along {
                Some(e) => {
                    let side = DVec3::new(-e.z, 0.0, e.x);
                    if side.dot(m) > 0.0 {
                        -side
                    } else if side.dot(m) < 0.0 {
                        side
                    } else {
                        fallback
                    }
                }
                None => fallback,
            }
        };
        if normal.dot(m) > 0.0 {
            return None;
        }
        let toi = Toi2 {
            t: 0.0,
            point: flat(q0 + normal * wall_r),
            normal: flat(normal),
        };
        return (toi.point.is_finite() && toi.normal.is_finite()).then_some(toi);
    }
    let t = earliest([ray_capsule_entry(o, m, a, b, big_r)])?;
    let c = o + m * t;
    answer(t, c, -m.normalize())
}
