//! Plan polygons: cleaning, area, orientation, and the segment and point tests validation needs.

use glam::{DVec2, Vec2};

/// The signed area of `ring` (`(x, z)` points, closed implicitly), positive when
/// counter-clockwise in the `x`-`z` plane (`cross(a, b) = a.x·b.y − a.y·b.x`), in `f64`.
#[must_use]
pub fn signed_area(ring: &[Vec2]) -> f64 {
    let n = ring.len();
    if n < 3 {
        return 0.0;
    }
    // About the first point, so far-off coordinates do not swamp the sum.
    let o = ring[0].as_dvec2();
    let mut twice = 0.0;
    for i in 1..n - 1 {
        let a = ring[i].as_dvec2() - o;
        let b = ring[i + 1].as_dvec2() - o;
        twice += a.perp_dot(b);
    }
    twice * 0.5
}

/// `ring` without repeated consecutive points (nor a last point equal to the first); empty when a point is not
/// finite or fewer than three points are left.
#[must_use]
pub fn clean(ring: &[Vec2]) -> Vec<Vec2> {
    if ring.iter().any(|p| !p.is_finite()) {
        return Vec::new();
    }
    let mut out: Vec<Vec2> = Vec::with_capacity(ring.len());
    for &p in ring {
        if out.last() != Some(&p) {
            out.push(p);
        }
    }
    while out.len() > 1 && out.first() == out.last() {
        out.pop();
    }
    if out.len() < 3 { Vec::new() } else { out }
}

/// The sign of the turn `a → b → c` in `f64` (positive: left), with a relative tolerance under which the
/// points count as on one line.
fn orient(a: DVec2, b: DVec2, c: DVec2) -> i8 {
    let v = (b - a).perp_dot(c - a);
    let scale = (b - a).length() * (c - a).length();
    if v.abs() <= 1e-12 * scale {
        0
    } else if v > 0.0 {
        1
    } else {
        -1
    }
}

/// Whether `p` (on the line `a`–`b`) lies within the segment's box.
fn on_segment(a: DVec2, b: DVec2, p: DVec2) -> bool {
    p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y)
}

/// Whether the segments `a`–`b` and `c`–`d` meet (touching counts; collinear overlap counts).
#[must_use]
pub fn segments_meet(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    let (a, b, c, d) = (a.as_dvec2(), b.as_dvec2(), c.as_dvec2(), d.as_dvec2());
    let (o1, o2, o3, o4) = (
        orient(a, b, c),
        orient(a, b, d),
        orient(c, d, a),
        orient(c, d, b),
    );
    if o1 != o2 && o3 != o4 && o1 * o2 <= 0 && o3 * o4 <= 0 && (o1 != 0 || o2 != 0) {
        return true;
    }
    (o1 == 0 && on_segment(a, b, c))
        || (o2 == 0 && on_segment(a, b, d))
        || (o3 == 0 && on_segment(c, d, a))
        || (o4 == 0 && on_segment(c, d, b))
}

/// Whether two edges that share the end point `shared` (`a`–`shared` and `shared`–`c`) fold back over each
/// other (overlap along a line, beyond the shared point).
#[must_use]
pub fn folds_back(a: Vec2, shared: Vec2, c: Vec2) -> bool {
    let (a, s, c) = (a.as_dvec2(), shared.as_dvec2(), c.as_dvec2());
    orient(a, s, c) == 0 && (a - s).dot(c - s) > 0.0
}

/// Whether `p` is inside `ring` (even-odd rule; points on the boundary may go either way).
#[must_use]
pub fn contains(ring: &[Vec2], p: Vec2) -> bool {
    let n = ring.len();
    let p = p.as_dvec2();
    let mut inside = false;
    let mut j = n.wrapping_sub(1);
    for i in 0..n {
        let (a, b) = (ring[i].as_dvec2(), ring[j].as_dvec2());
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                inside = !inside;
            }
        }
        j = i;
    }
    inside
}

/// The area of the intersection of two triangles (plan points), by clipping one by the other.
#[must_use]
pub fn triangle_overlap_area(t: [DVec2; 3], u: [DVec2; 3]) -> f64 {
    let mut poly: Vec<DVec2> = t.to_vec();
    // Clip by each edge of `u`, counter-clockwise.
    let u = if (u[1] - u[0]).perp_dot(u[2] - u[0]) < 0.0 {
        [u[0], u[2], u[1]]
    } else {
        u
    };
    for k in 0..3 {
        let (e0, e1) = (u[k], u[(k + 1) % 3]);
        let side = |p: DVec2| (e1 - e0).perp_dot(p - e0);
        let mut out = Vec::with_capacity(poly.len() + 2);
        for i in 0..poly.len() {
            let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
            let (sp, sq) = (side(p), side(q));
            if sp >= 0.0 {
                out.push(p);
            }
            if (sp >= 0.0) != (sq >= 0.0) {
                let t = sp / (sp - sq);
                out.push(p + (q - p) * t);
            }
        }
        poly = out;
        if poly.len() < 3 {
            return 0.0;
        }
    }
    let o = poly[0];
    let mut twice = 0.0;
    for i in 1..poly.len() - 1 {
        twice += (poly[i] - o).perp_dot(poly[i + 1] - o);
    }
    (twice * 0.5).abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn areas_meetings_and_overlaps() {
        let sq = [
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(0.0, 2.0),
        ];
        assert_eq!(signed_area(&sq), 4.0);
        assert!(contains(&sq, Vec2::new(1.0, 1.0)));
        assert!(!contains(&sq, Vec2::new(3.0, 1.0)));
        assert!(segments_meet(sq[0], sq[2], sq[1], sq[3]));
        assert!(!segments_meet(sq[0], sq[1], sq[2], sq[3]));
        // Collinear, touching at one end.
        assert!(segments_meet(
            Vec2::ZERO,
            Vec2::X,
            Vec2::X,
            Vec2::new(2.0, 0.0)
        ));
        assert!(folds_back(Vec2::ZERO, Vec2::X, Vec2::new(0.5, 0.0)));
        assert!(!folds_back(Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)));
        let d = |x: f64, y: f64| DVec2::new(x, y);
        let a = triangle_overlap_area(
            [d(0.0, 0.0), d(2.0, 0.0), d(0.0, 2.0)],
            [d(0.0, 0.0), d(0.0, 2.0), d(2.0, 0.0)],
        );
        assert!((a - 2.0).abs() < 1e-12);
        // Sharing an edge only.
        let b = triangle_overlap_area(
            [d(0.0, 0.0), d(2.0, 0.0), d(0.0, 2.0)],
            [d(2.0, 0.0), d(0.0, 2.0), d(2.0, 2.0)],
        );
        assert!(b < 1e-12);
        assert_eq!(
            clean(&[Vec2::ZERO, Vec2::ZERO, Vec2::X, Vec2::Y, Vec2::ZERO]).len(),
            3
        );
    }
}
