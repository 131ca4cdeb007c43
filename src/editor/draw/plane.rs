//! Plane geometry of the floor `(x, z)`: hulls, segment distances and crossings (no egui). Footprints,
//! the relief and the Wall tool share it.

use glam::Vec2;

/// Convex hull (Andrew's monotone chain), counter-clockwise, without repeated points. Non-finite points are
/// skipped.
#[must_use]
pub fn convex_hull(points: impl IntoIterator<Item = Vec2>) -> Vec<Vec2> {
    let mut pts: Vec<Vec2> = points.into_iter().filter(|p| p.is_finite()).collect();
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut hull: Vec<Vec2> = Vec::with_capacity(pts.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// Distance from `p` to segment `ab` (a point segment is a point).
#[must_use]
pub fn segment_distance(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    p.distance(closest_on_segment(p, a, b))
}

/// The point of segment `ab` nearest to `p`.
#[must_use]
pub fn closest_on_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= 0.0 {
        return a;
    }
    a + ab * ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
}

/// Where segments `p1p2` and `q1q2` cross strictly inside both (not at an end), as the parameter along
/// `p1p2` and the point.
#[must_use]
pub fn segments_cross(p1: Vec2, p2: Vec2, q1: Vec2, q2: Vec2) -> Option<(f32, Vec2)> {
    let r = p2 - p1;
    let s = q2 - q1;
    let denom = r.perp_dot(s);
    if denom.abs() <= f32::EPSILON * r.length() * s.length() {
        return None;
    }
    let t = (q1 - p1).perp_dot(s) / denom;
    let u = (q1 - p1).perp_dot(r) / denom;
    let eps = 1e-4;
    (t > eps && t < 1.0 - eps && u > eps && u < 1.0 - eps).then(|| (u, q1 + s * u))
}
