//! Closest points between a segment and each shape, in f64: the distance a capsule (a segment grown by its
//! radius) keeps from everything. The capsule overlaps, the capsule sweeps' contacts and a character's push-out
//! are built on these.
//!
//! Each function answers a pair `(on_segment, on_shape)`; the two are equal where the segment meets the shape
//! (solids: boxes, cylinders, walls; surfaces: planes, triangles). Polytopes (planes, triangles, boxes) are
//! exact: the closest pair of two convex shapes lies on a pair of features, and every pair that can be the
//! closest is tried (a segment's interior against a face's interior is closest only when parallel to it, and
//! then an end point is as close). Curved solids (cylinders, walls) minimise the convex distance along the
//! segment by golden-section search to f64 precision.

use glam::DVec3;

use super::closest::{point_aabb_d, point_segment_d, point_triangle_d};
use super::segment::closest_segment_segment_d;

/// A closest pair: the point on the segment, then the point on the shape.
pub(crate) type Pair = (DVec3, DVec3);

/// The closer of two pairs (the first on a tie).
#[inline]
pub(crate) fn nearer(best: Pair, other: Pair) -> Pair {
    if other.0.distance_squared(other.1) < best.0.distance_squared(best.1) {
        other
    } else {
        best
    }
}

/// Segment `p..q` and the point `c`.
#[inline]
pub(crate) fn segment_point(p: DVec3, q: DVec3, c: DVec3) -> Pair {
    (point_segment_d(c, p, q), c)
}

/// Segment `p..q` and the plane `n·x = d` (`n` unit): a crossing point, or the nearer end and its foot.
pub(crate) fn segment_plane(p: DVec3, q: DVec3, n: DVec3, d: f64) -> Pair {
    let (sp, sq) = (n.dot(p) - d, n.dot(q) - d);
    if sp == 0.0 {
        return (p, p);
    }
    if sq == 0.0 {
        return (q, q);
    }
    if (sp < 0.0) != (sq < 0.0) {
        let x = p + (q - p) * (sp / (sp - sq));
        return (x, x);
    }
    if sp.abs() <= sq.abs() {
        (p, p - n * sp)
    } else {
        (q, q - n * sq)
    }
}

/// Where segment `p..q` crosses the triangle `a, b, c` (both faces), if it does: the crossing point. A segment
/// lying in the triangle's plane is left to the end point and edge pairs.
fn segment_crosses_triangle(p: DVec3, q: DVec3, a: DVec3, b: DVec3, c: DVec3) -> Option<DVec3> {
    let n = (b - a).cross(c - a);
    let (sp, sq) = (n.dot(p - a), n.dot(q - a));
    if (sp > 0.0 && sq > 0.0) || (sp < 0.0 && sq < 0.0) || (sp == 0.0 && sq == 0.0) {
        return None;
    }
    let x = p + (q - p) * (sp / (sp - sq));
    let inside = n.dot((b - a).cross(x - a)) >= 0.0
        && n.dot((c - b).cross(x - b)) >= 0.0
        && n.dot((a - c).cross(x - c)) >= 0.0;
    inside.then_some(x)
}

/// Segment `p..q` and the triangle `a, b, c` (a surface).
pub(crate) fn segment_triangle(p: DVec3, q: DVec3, a: DVec3, b: DVec3, c: DVec3) -> Pair {
    if let Some(x) = segment_crosses_triangle(p, q, a, b, c) {
        return (x, x);
    }
    let mut best = (p, point_triangle_d(p, a, b, c));
    best = nearer(best, (q, point_triangle_d(q, a, b, c)));
    for (e0, e1) in [(a, b), (b, c), (c, a)] {
        best = nearer(best, closest_segment_segment_d(p, q, e0, e1));
    }
    best
}

/// Where segment `p..q` first enters the solid box `min..=max`, if it meets it (the slab method on `0..=1`).
fn segment_enters_box(p: DVec3, q: DVec3, min: DVec3, max: DVec3) -> Option<DVec3> {
    let d = q - p;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for i in 0..3 {
        if d[i] == 0.0 {
            if p[i] < min[i] || p[i] > max[i] {
                return None;
            }
        } else {
            let (a, b) = ((min[i] - p[i]) / d[i], (max[i] - p[i]) / d[i]);
            t0 = t0.max(a.min(b));
            t1 = t1.min(a.max(b));
            if t0 > t1 {
                return None;
            }
        }
    }
    // The entry point, clamped into the box against rounding.
    Some((p + d * t0).clamp(min, max))
}

/// The twelve edges of the box `min..=max`.
pub(crate) fn box_edges(min: DVec3, max: DVec3) -> [(DVec3, DVec3); 12] {
    let corner = |bits: usize| {
        DVec3::new(
            if bits & 1 != 0 { max.x } else { min.x },
            if bits & 2 != 0 { max.y } else { min.y },
            if bits & 4 != 0 { max.z } else { min.z },
        )
    };
    let mut out = [(DVec3::ZERO, DVec3::ZERO); 12];
    let mut k = 0;
    for axis in [1usize, 2, 4] {
        for bits in 0..8usize {
            if bits & axis == 0 {
                out[k] = (corner(bits), corner(bits | axis));
                k += 1;
            }
        }
    }
    out
}

/// The eight corners of the box `min..=max`.
pub(crate) fn box_corners(min: DVec3, max: DVec3) -> [DVec3; 8] {
    std::array::from_fn(|bits| {
        DVec3::new(
            if bits & 1 != 0 { max.x } else { min.x },
            if bits & 2 != 0 { max.y } else { min.y },
            if bits & 4 != 0 { max.z } else { min.z },
        )
    })
}

/// Segment `p..q` and the solid box `min..=max`.
pub(crate) fn segment_aabb(p: DVec3, q: DVec3, min: DVec3, max: DVec3) -> Pair {
    if let Some(x) = segment_enters_box(p, q, min, max) {
        return (x, x);
    }
    let mut best = (p, point_aabb_d(p, min, max));
    best = nearer(best, (q, point_aabb_d(q, min, max)));
    for (e0, e1) in box_edges(min, max) {
        best = nearer(best, closest_segment_segment_d(p, q, e0, e1));
    }
    best
}

/// Segment `p..q` and a convex solid given by its closest-point function: the distance from a point moving
/// along the segment is convex, so a golden-section search finds its minimum (both ends tried too).
pub(crate) fn segment_convex(p: DVec3, q: DVec3, closest: impl Fn(DVec3) -> DVec3) -> Pair {
    let at = |s: f64| {
        let x = p + (q - p) * s;
        (x, closest(x))
    };
    let dist2 = |pair: &Pair| pair.0.distance_squared(pair.1);
    let mut best = nearer(at(0.0), at(1.0));
    if p == q || dist2(&best) == 0.0 {
        return best;
    }
    let g = 0.5 * (5f64.sqrt() - 1.0);
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let (mut x1, mut x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
    let (mut f1, mut f2) = (at(x1), at(x2));
    for _ in 0..90 {
        if dist2(&f1) <= dist2(&f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = at(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = at(x2);
        }
        if hi - lo <= 1e-15 {
            break;
        }
    }
    best = nearer(best, f1);
    nearer(best, f2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(p: DVec3, q: DVec3, closest: impl Fn(DVec3) -> DVec3) -> f64 {
        (0..=20_000)
            .map(|k| {
                let x = p + (q - p) * (f64::from(k) / 20_000.0);
                x.distance(closest(x))
            })
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    fn pairs_are_no_farther_than_a_fine_scan() {
        let (min, max) = (DVec3::new(-1.0, 0.0, -2.0), DVec3::new(1.0, 3.0, 2.0));
        let (a, b, c) = (
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(3.0, 0.5, 0.0),
            DVec3::new(0.0, 1.0, 3.0),
        );
        let mut state = 7u64;
        let mut rnd = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 11) as f64 / (1u64 << 53) as f64) * 10.0 - 5.0
        };
        for _ in 0..300 {
            let p = DVec3::new(rnd(), rnd(), rnd());
            let q = DVec3::new(rnd(), rnd(), rnd());
            let got = segment_aabb(p, q, min, max);
            let want = brute(p, q, |x| point_aabb_d(x, min, max));
            let d = got.0.distance(got.1);
            assert!(d <= want + 1e-9 && d >= want - 1e-3, "box {d} {want}");
            let got = segment_triangle(p, q, a, b, c);
            let want = brute(p, q, |x| point_triangle_d(x, a, b, c));
            let d = got.0.distance(got.1);
            assert!(d <= want + 1e-9 && d >= want - 1e-3, "triangle {d} {want}");
            let got = segment_convex(p, q, |x| point_aabb_d(x, min, max));
            let exact = segment_aabb(p, q, min, max);
            let d = got.0.distance(got.1);
            assert!((d - exact.0.distance(exact.1)).abs() < 1e-7, "convex {d}");
        }
    }

    #[test]
    fn a_segment_through_a_box_or_a_triangle_meets_it() {
        let (p, q) = (DVec3::new(-5.0, 0.5, 0.0), DVec3::new(5.0, 0.5, 0.0));
        let (s, b) = segment_aabb(p, q, DVec3::ZERO, DVec3::ONE);
        assert_eq!(s, b);
        assert_eq!(s, DVec3::new(0.0, 0.5, 0.0));
        let tri = (
            DVec3::new(0.0, -1.0, -1.0),
            DVec3::new(0.0, 2.0, -1.0),
            DVec3::new(0.0, -1.0, 2.0),
        );
        let (s, t) = segment_triangle(p, q, tri.0, tri.1, tri.2);
        assert_eq!(s, t);
        assert_eq!(s.x, 0.0);
    }
}
