//! Rays against walls extruded from the floor: the stadium outline from the floor to the wall's height.

use glam::{DVec2, DVec3};

use super::super::{RayHit, d3, f3, finite_hit, unit};
use super::max_t_ok;
use crate::shape::{Ray, Wall};

/// The `t` interval (f64) in which the top-down ray `o + t d` lies within `r` of the segment `a..b` (the
/// wall's outline: a rectangle and two end discs, whose union is convex, so the interval is the union of
/// theirs). `None` when it misses. A ray with `d = 0` is inside for every `t` or for none.
fn stadium_interval(o: DVec2, d: DVec2, a: DVec2, b: DVec2, r: f64) -> Option<(f64, f64)> {
    if d == DVec2::ZERO {
        let ab = b - a;
        let len2 = ab.length_squared();
        let s = if len2 > 0.0 {
            ((o - a).dot(ab) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        return (o.distance_squared(a + ab * s) <= r * r)
            .then_some((f64::NEG_INFINITY, f64::INFINITY));
    }
    let disc = |c: DVec2| -> Option<(f64, f64)> {
        // |o + t d - c|^2 = r^2, with the cancellation-free discriminant a r^2 - (oc x d)^2.
        let oc = o - c;
        let qa = d.length_squared();
        let cross = oc.perp_dot(d);
        let disc = qa * r * r - cross * cross;
        if disc < 0.0 {
            return None;
        }
        let mid = -oc.dot(d) / qa;
        let half = disc.sqrt() / qa;
        Some((mid - half, mid + half))
    };
    let slab1 = |o: f64, d: f64, min: f64, max: f64| -> Option<(f64, f64)> {
        if d == 0.0 {
            (o >= min && o <= max).then_some((f64::NEG_INFINITY, f64::INFINITY))
        } else {
            let (t1, t2) = ((min - o) / d, (max - o) / d);
            Some((t1.min(t2), t1.max(t2)))
        }
    };
    let ab = b - a;
    let len = ab.length();
    // The rectangle (along the segment 0..len, across it -r..r), and which of its slabs bound the interval.
    let mut rect = None;
    let mut ends_bind = true;
    if len > 0.0 {
        let e = ab / len;
        let n = e.perp();
        let rel = o - a;
        if let (Some((u0, u1)), Some((v0, v1))) = (
            slab1(rel.dot(e), d.dot(e), 0.0, len),
            slab1(rel.dot(n), d.dot(n), -r, r),
        ) {
            let (t0, t1) = (u0.max(v0), u1.min(v1));
            if t0 <= t1 {
                rect = Some((t0, t1));
                // Entered and left through the long sides: the end discs lie inside the band |v| <= r, so
                // they cannot be entered earlier or left later.
                ends_bind = u0 > v0 || u1 < v1;
            }
        }
    }
    if !ends_bind {
        return rect;
    }
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for (t0, t1) in [disc(a), disc(b), rect].into_iter().flatten() {
        lo = lo.min(t0);
        hi = hi.max(t1);
    }
    (lo <= hi).then_some((lo, hi))
}

/// A ray against a wall extruded from the floor (`y = 0`) to `height`: the solid of every point whose
/// top-down distance to the wall's segment is at most its collision radius, with `y` in `0..=height` (the
/// same solid as [`crate::query::sweep::sphere_wall`] and `sim::Static::Wall`).
///
/// Conventions as for every ray cast here: a ray starting inside the wall hits at `t = 0` with
/// `normal = -dir.normalize()`; on its surface heading in, at `t = 0` with the surface normal. The normal is the
/// outline's outward normal on the side (horizontal), or `±y` on the top and bottom faces; where a side and a
/// face are entered at the same `t` (an edge), the side's normal is reported. A wall of collision radius 0 is a
/// vertical surface (two-sided, like a triangle): the normal faces against the ray; a ray lying in it hits where
/// it enters it. An invalid wall or ray, or a negative or non-finite `height`, gives `None`.
///
/// ```
/// use collidoscope::{glam::{Vec2, Vec3}, shape::{Ray, Wall}, query::ray::ray_wall};
/// // A wall along x at z = 0 with collision radius 0.5, 2 high; a ray at y = 1 from z = 5 toward it.
/// let wall = Wall::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0), 0.5);
/// let hit = ray_wall(&Ray::new(Vec3::new(0.0, 1.0, 5.0), -Vec3::Z), &wall, 2.0, 10.0).unwrap();
/// // It meets the outline at z = 0.5: t = 4.5, normal +z.
/// assert_eq!((hit.t, hit.point, hit.normal), (4.5, Vec3::new(0.0, 1.0, 0.5), Vec3::Z));
/// // A ray at y = 2.5 passes over it.
/// assert!(ray_wall(&Ray::new(Vec3::new(0.0, 2.5, 5.0), -Vec3::Z), &wall, 2.0, 10.0).is_none());
/// // Falling onto the top from y = 4: the top face at y = 2, t = 2, normal +y.
/// let hit = ray_wall(&Ray::new(Vec3::new(1.0, 4.0, 0.2), -Vec3::Y), &wall, 2.0, 10.0).unwrap();
/// assert_eq!((hit.t, hit.normal), (2.0, Vec3::Y));
/// ```
#[must_use]
pub fn ray_wall(ray: &Ray, wall: &Wall, height: f32, max_t: f32) -> Option<RayHit> {
    wall_entry(ray, wall, height, max_t).and_then(|e| wall_hit(ray, wall, &e))
}

/// Where a ray enters a wall's solid: the first half of [`ray_wall`], without the normal (the scene asks
/// many walls and completes only the nearest).
#[derive(Clone, Copy, Debug)]
pub(crate) struct WallEntry {
    /// Entry parameter in f64 (negative when the origin is inside).
    t0: f64,
    /// Whether the top or bottom face is entered (else the side).
    y_face: bool,
}

impl WallEntry {
    /// The answer's `t`.
    pub(crate) fn t(&self) -> f32 {
        if self.t0 < 0.0 { 0.0 } else { self.t0 as f32 }
    }
}

pub(crate) fn wall_entry(ray: &Ray, wall: &Wall, height: f32, max_t: f32) -> Option<WallEntry> {
    if !max_t_ok(max_t)
        || !ray.is_valid()
        || !wall.is_valid()
        || !height.is_finite()
        || !(height >= 0.0)
    {
        return None;
    }
    let o = d3(ray.origin);
    let d = d3(ray.dir);
    let (a, b) = (wall.a.as_dvec2(), wall.b.as_dvec2());
    let (r, h) = (f64::from(wall.radius), f64::from(height));
    let (o2, d2) = (DVec2::new(o.x, o.z), DVec2::new(d.x, d.z));
    let (ty0, ty1) = if d.y == 0.0 {
        if o.y < 0.0 || o.y > h {
            return None;
        }
        (f64::NEG_INFINITY, f64::INFINITY)
    } else {
        let (t1, t2) = (-o.y / d.y, (h - o.y) / d.y);
        (t1.min(t2), t1.max(t2))
    };
    let (ts0, ts1) = stadium_interval(o2, d2, a, b, r)?;
    let (t0, t1) = (ty0.max(ts0), ty1.min(ts1));
    // `max_t` is compared with the f32 answer (an f64 entry just above it may round to it).
    if t0 > t1 || t1 < 0.0 || t0 as f32 > max_t {
        return None;
    }
    Some(WallEntry {
        t0,
        y_face: ty0 > ts0,
    })
}

/// The hit of a [`wall_entry`]: point and normal.
pub(crate) fn wall_hit(ray: &Ray, wall: &Wall, e: &WallEntry) -> Option<RayHit> {
    if e.t0 < 0.0 {
        // Inside (or on the surface heading out).
        return finite_hit(RayHit {
            t: 0.0,
            point: ray.origin,
            normal: -unit(ray.dir),
        });
    }
    let o = d3(ray.origin);
    let d = d3(ray.dir);
    let t0 = e.t0;
    let normal = if e.y_face {
        DVec3::new(0.0, -d.y.signum(), 0.0)
    } else {
        let (a, b) = (wall.a.as_dvec2(), wall.b.as_dvec2());
        let (o2, d2) = (DVec2::new(o.x, o.z), DVec2::new(d.x, d.z));
        let p = o2 + d2 * t0;
        let ab = b - a;
        let len2 = ab.length_squared();
        let s = if len2 > 0.0 {
            ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let off = p - (a + ab * s);
        let n2 = off
            .try_normalize()
            .or_else(|| {
                // On the segment itself (collision radius 0): the segment's normal, against the ray.
                let e = ab.try_normalize()?.perp();
                Some(if e.dot(d2) > 0.0 { -e } else { e })
            })
            .or_else(|| (-d2).try_normalize())
            .unwrap_or(DVec2::Y);
        DVec3::new(n2.x, 0.0, n2.y)
    };
    finite_hit(RayHit {
        t: t0 as f32,
        point: f3(o + d * t0),
        normal: f3(normal),
    })
}
