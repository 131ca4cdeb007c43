//! An f64 referee for the capsule queries, written apart from the code under test: its own closest-point
//! functions (Ericson's region test for triangles, clamping in a box's frame, the cylinder and the extruded
//! wall by their parts), the distance from a segment to a shape by golden-section search along the segment
//! (the distance from a point moving along a line to a convex set is a convex function of the line
//! parameter), and the first contact of a moving segment as the first root of that distance minus the radius
//! (convex in the time too: a golden-section search for the smallest value, then bisection before it).
//!
//! It shares no code with `collidoscope::query` (only the shape structs' fields are read), so an error in the
//! crate's feature-pair closed forms cannot hide in the reference. It is slow (a few thousand closest-point
//! evaluations per time of impact), so the differential tests call it where parry3d and collidoscope disagree
//! and on a fixed share of all cases.

#![allow(clippy::unwrap_used)]

use collidoscope::glam::{DMat3, DVec3, Vec3};
use collidoscope::shape::{Aabb, Capsule, Cylinder, Obb, Plane, Sphere, Triangle, Wall};

pub type D = DVec3;

pub fn d(v: Vec3) -> D {
    v.as_dvec3()
}

/// The closest point of segment `a..b` to `p`.
pub fn cp_segment(p: D, a: D, b: D) -> D {
    let ab = b - a;
    let l2 = ab.length_squared();
    if l2 == 0.0 {
        return a;
    }
    let s = ((p - a).dot(ab) / l2).clamp(0.0, 1.0);
    a + ab * s
}

/// The closest point of the triangle `a, b, c` (a surface) to `p`: Ericson's region test (5.1.5).
pub fn cp_triangle(p: D, a: D, b: D, c: D) -> D {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// A static shape as the referee sees it, in f64.
#[derive(Clone, Copy, Debug)]
pub enum Solid {
    /// Solid ball.
    Ball { c: D, r: f64 },
    /// Solid box: centre, half extents, and the rotation whose columns are its axes.
    Box { c: D, h: D, rot: DMat3 },
    /// A plane's surface `n·x = d`, `n` unit.
    Plane { n: D, d: f64 },
    /// A triangle's surface.
    Triangle { a: D, b: D, c: D },
    /// Solid capsule.
    Capsule { a: D, b: D, r: f64 },
    /// Solid capped cylinder.
    Cylinder { a: D, b: D, r: f64 },
    /// A wall extruded from `y = 0` to `h`: top-down within `r` of `a..b` (on the floor), `0 <= y <= h`.
    Wall { a: D, b: D, r: f64, h: f64 },
}

impl Solid {
    pub fn sphere(s: &Sphere) -> Self {
        Self::Ball {
            c: d(s.center),
            r: f64::from(s.radius),
        }
    }
    pub fn aabb(b: &Aabb) -> Self {
        let (lo, hi) = (d(b.min), d(b.max));
        Self::Box {
            c: (lo + hi) * 0.5,
            h: (hi - lo) * 0.5,
            rot: DMat3::IDENTITY,
        }
    }
    pub fn obb(o: &Obb) -> Self {
        Self::Box {
            c: d(o.center),
            h: d(o.half_extents),
            rot: o.rotation.as_dmat3(),
        }
    }
    pub fn plane(p: &Plane) -> Self {
        let n = d(p.normal);
        let l = n.length();
        Self::Plane {
            n: n / l,
            d: f64::from(p.d) / l,
        }
    }
    pub fn triangle(t: &Triangle) -> Self {
        Self::Triangle {
            a: d(t.a),
            b: d(t.b),
            c: d(t.c),
        }
    }
    pub fn capsule(c: &Capsule) -> Self {
        Self::Capsule {
            a: d(c.a),
            b: d(c.b),
            r: f64::from(c.radius),
        }
    }
    pub fn cylinder(c: &Cylinder) -> Self {
        Self::Cylinder {
            a: d(c.a),
            b: d(c.b),
            r: f64::from(c.radius),
        }
    }
    pub fn wall(w: &Wall, height: f32) -> Self {
        Self::Wall {
            a: D::new(f64::from(w.a.x), 0.0, f64::from(w.a.y)),
            b: D::new(f64::from(w.b.x), 0.0, f64::from(w.b.y)),
            r: f64::from(w.radius),
            h: f64::from(height),
        }
    }

    /// A surface (no inside) rather than a solid.
    pub fn is_surface(&self) -> bool {
        matches!(self, Self::Plane { .. } | Self::Triangle { .. })
    }

    /// The closest point of the shape to `p` (`p` itself inside a solid).
    pub fn closest(&self, p: D) -> D {
        match *self {
            Self::Ball { c, r } => {
                let v = p - c;
                let l = v.length();
                if l <= r { p } else { c + v * (r / l) }
            }
            Self::Box { c, h, rot } => {
                let local = rot.transpose() * (p - c);
                let clamped = local.clamp(-h, h);
                if clamped == local {
                    p
                } else {
                    c + rot * clamped
                }
            }
            Self::Plane { n, d } => p - n * (n.dot(p) - d),
            Self::Triangle { a, b, c } => cp_triangle(p, a, b, c),
            Self::Capsule { a, b, r } => {
                let s = cp_segment(p, a, b);
                let v = p - s;
                let l = v.length();
                if l <= r { p } else { s + v * (r / l) }
            }
            Self::Cylinder { a, b, r } => {
                let axis = b - a;
                let h = axis.length();
                let u = axis / h;
                let s = (p - a).dot(u);
                let radial = (p - a) - u * s;
                let rl = radial.length();
                if (0.0..=h).contains(&s) && rl <= r {
                    return p;
                }
                let radial = if rl > r { radial * (r / rl) } else { radial };
                a + u * s.clamp(0.0, h) + radial
            }
            Self::Wall { a, b, r, h } => {
                let flat = D::new(p.x, 0.0, p.z);
                let q = cp_segment(flat, a, b);
                let off = flat - q;
                let l = off.length();
                let xz = if l <= r { flat } else { q + off * (r / l) };
                D::new(xz.x, p.y.clamp(0.0, h), xz.z)
            }
        }
    }

    pub fn distance(&self, p: D) -> f64 {
        p.distance(self.closest(p))
    }

    /// Distance from `p` to the shape's boundary (its surface; for a surface, the distance to it).
    pub fn boundary_distance(&self, p: D) -> f64 {
        let out = self.distance(p);
        if out > 0.0 || self.is_surface() {
            return out;
        }
        // Inside a solid: the depth, by its parts.
        match *self {
            Self::Ball { c, r } => r - p.distance(c),
            Self::Box { c, h, rot } => {
                let l = rot.transpose() * (p - c);
                (h - l.abs()).min_element()
            }
            Self::Capsule { a, b, r } => r - p.distance(cp_segment(p, a, b)),
            Self::Cylinder { a, b, r } => {
                let axis = b - a;
                let hh = axis.length();
                let u = axis / hh;
                let s = (p - a).dot(u);
                let rl = ((p - a) - u * s).length();
                (r - rl).min(s).min(hh - s)
            }
            Self::Wall { a, b, r, h } => {
                let flat = D::new(p.x, 0.0, p.z);
                let side = r - flat.distance(cp_segment(flat, a, b));
                side.min(p.y).min(h - p.y)
            }
            Self::Plane { .. } | Self::Triangle { .. } => 0.0,
        }
    }
}

/// The closest approach of segment `p..q` to a shape: the distance, the point on the segment and the
/// shape's point.
#[derive(Clone, Copy, Debug)]
pub struct Approach {
    pub dist: f64,
    pub on_segment: D,
    pub on_shape: D,
}

const GOLDEN: f64 = 0.618_033_988_749_894_9;

/// Distance from segment `p..q` to `shape`: golden-section search on the convex distance along the segment
/// (both ends tried too). Where the distance is positive it is smooth at its minimum, so the value found is
/// exact to rounding even where the minimiser is only known to ~1e-11 of the segment.
pub fn segment_approach(p: D, q: D, shape: &Solid) -> Approach {
    let at = |s: f64| {
        let x = p + (q - p) * s;
        let y = shape.closest(x);
        Approach {
            dist: x.distance(y),
            on_segment: x,
            on_shape: y,
        }
    };
    let mut best = at(0.0);
    let end = at(1.0);
    if end.dist < best.dist {
        best = end;
    }
    if p == q || best.dist == 0.0 {
        return best;
    }
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let mut x1 = hi - GOLDEN * (hi - lo);
    let mut x2 = lo + GOLDEN * (hi - lo);
    let (mut f1, mut f2) = (at(x1), at(x2));
    for _ in 0..56 {
        if f1.dist == 0.0 || f2.dist == 0.0 {
            break;
        }
        if f1.dist <= f2.dist {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - GOLDEN * (hi - lo);
            f1 = at(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + GOLDEN * (hi - lo);
            f2 = at(x2);
        }
    }
    for f in [f1, f2] {
        if f.dist < best.dist {
            best = f;
        }
    }
    best
}

/// The referee's time of impact of a capsule moving by `m` against a shape.
#[derive(Clone, Copy, Debug)]
pub struct RefToi {
    /// First `t` in `[0, 1]` at which the distance reaches the radius (`Some(0.0)` when touching at the start).
    pub t: Option<f64>,
    /// Distance minus radius at `t = 0`.
    pub f0: f64,
    /// Smallest distance minus radius over the motion, and where.
    pub fmin: f64,
    pub tmin: f64,
}

/// A capsule in f64 as the referee reads it: segment `p..q`, radius `r`.
#[derive(Clone, Copy, Debug)]
pub struct Seg {
    pub p: D,
    pub q: D,
    pub r: f64,
}

impl Seg {
    pub fn of(c: &Capsule) -> Self {
        Self {
            p: d(c.a),
            q: d(c.b),
            r: f64::from(c.radius),
        }
    }
}

/// Distance minus radius of the capsule moved by `m * t`.
pub fn gap_at(cap: &Capsule, m: D, shape: &Solid, t: f64) -> f64 {
    seg_gap_at(&Seg::of(cap), m, shape, t)
}

pub fn seg_gap_at(s: &Seg, m: D, shape: &Solid, t: f64) -> f64 {
    segment_approach(s.p + m * t, s.q + m * t, shape).dist - s.r
}

/// The closest approach of the capsule's segment moved by `m * t`.
pub fn approach_at(cap: &Capsule, m: D, shape: &Solid, t: f64) -> Approach {
    seg_approach_at(&Seg::of(cap), m, shape, t)
}

pub fn seg_approach_at(s: &Seg, m: D, shape: &Solid, t: f64) -> Approach {
    segment_approach(s.p + m * t, s.q + m * t, shape)
}

/// Minimum of a convex function on `[0, 1]` (golden-section search), stopping early once a value is at or
/// below `stop`: `(argmin, min)`.
pub fn convex_min(f: &dyn Fn(f64) -> f64, stop: f64) -> (f64, f64) {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let mut x1 = hi - GOLDEN * (hi - lo);
    let mut x2 = lo + GOLDEN * (hi - lo);
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..64 {
        if f1 <= stop || f2 <= stop {
            break;
        }
        if f1 <= f2 {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - GOLDEN * (hi - lo);
            f1 = f(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + GOLDEN * (hi - lo);
            f2 = f(x2);
        }
    }
    let mut best = if f1 <= f2 { (x1, f1) } else { (x2, f2) };
    let end = f(1.0);
    if end < best.1 {
        best = (1.0, end);
    }
    best
}

/// First root in `[0, 1]` of a convex function (a distance minus a radius).
pub fn first_root(f: &dyn Fn(f64) -> f64) -> RefToi {
    let f0 = f(0.0);
    if f0 <= 0.0 {
        return RefToi {
            t: Some(0.0),
            f0,
            fmin: f0,
            tmin: 0.0,
        };
    }
    // Find the true minimum (for the boundary band), not just a point below zero.
    let (tmin, fmin) = convex_min(f, f64::NEG_INFINITY);
    if fmin > 0.0 {
        return RefToi {
            t: None,
            f0,
            fmin,
            tmin,
        };
    }
    let (mut lo, mut hi) = (0.0f64, tmin);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    RefToi {
        t: Some(hi),
        f0,
        fmin,
        tmin,
    }
}

/// The referee's first contact of a capsule moving by `m` with `shape`.
pub fn sweep(cap: &Capsule, m: Vec3, shape: &Solid) -> RefToi {
    seg_sweep(&Seg::of(cap), d(m), shape)
}

pub fn seg_sweep(s: &Seg, m: D, shape: &Solid) -> RefToi {
    first_root(&|t| seg_gap_at(s, m, shape, t))
}

/// First contact of the ray `o + t dir` (`t` in `0..=t_end`) with the solid capsule `a..b`, radius `r`.
pub fn ray_capsule(o: D, dir: D, a: D, b: D, r: f64, t_end: f64) -> RefToi {
    first_root(&|s| {
        let x = o + dir * (s * t_end);
        x.distance(cp_segment(x, a, b)) - r
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn referee_hand_worked() {
        // An upright capsule moving +x by 4 toward the unit box at x in 2..3: side meets x = 2 at axis 1.5.
        let cap = Capsule::new(Vec3::new(0.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0), 0.5);
        let b = Solid::aabb(&Aabb::new(
            Vec3::new(2.0, -1.0, -1.0),
            Vec3::new(3.0, 2.0, 1.0),
        ));
        let r = sweep(&cap, Vec3::new(4.0, 0.0, 0.0), &b);
        assert!((r.t.unwrap() - 1.5 / 4.0).abs() < 1e-12, "{r:?}");
        // The same against a triangle in the plane x = 2 whose corner (2, 0.25, 0) the side meets.
        let t = Solid::triangle(&Triangle::new(
            Vec3::new(2.0, 0.25, 0.0),
            Vec3::new(2.0, 0.25, 5.0),
            Vec3::new(2.0, 5.0, 0.0),
        ));
        let r = sweep(&cap, Vec3::new(4.0, 0.0, 0.0), &t);
        assert!((r.t.unwrap() - 1.5 / 4.0).abs() < 1e-12, "{r:?}");
        // Passing 0.1 above a wall 2 high: the lower end sphere clears it by 0.1.
        let w = Solid::wall(
            &Wall::new(
                collidoscope::glam::Vec2::new(-5.0, 0.0),
                collidoscope::glam::Vec2::new(5.0, 0.0),
                0.25,
            ),
            2.0,
        );
        let cap = Capsule::new(Vec3::new(0.0, 2.6, 3.0), Vec3::new(0.0, 4.0, 3.0), 0.5);
        let r = sweep(&cap, Vec3::new(0.0, 0.0, -6.0), &w);
        assert!(r.t.is_none() && (r.fmin - 0.1).abs() < 1e-6, "{r:?}");
    }
}
