//! Trigger volumes: which spheres overlap them, and exactly when a moving sphere enters and leaves them.
//!
//! A box or a sphere is one convex piece; a prism (a top-down polygon between two heights, convex or not) is
//! cut into triangular prisms by ear clipping. Along a straight move the set of times at which a sphere
//! overlaps a convex piece is one interval (the distance to a convex solid is a convex function of time); its
//! ends are the first contact of the move (an exact sweep against the piece's faces) and the first contact of
//! the move backwards. The volume's intervals are the union of its pieces'.

use glam::{Vec2, Vec3};

use serde::{Deserialize, Serialize};

use crate::id::ObjectId;
use crate::query::{overlap, sweep};
use crate::shape::{Aabb, Sphere, Triangle};

/// A trigger volume's shape (as a level stores it: `collidoscope::level::TriggerShape` is this type).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TriggerShape {
    /// An axis-aligned box.
    Aabb(Aabb),
    /// A sphere.
    Sphere(Sphere),
    /// A vertical prism: a top-down polygon (`(x, z)` points, in order, at least 3) between two heights.
    Prism {
        /// The outline.
        points: Vec<Vec2>,
        /// Bottom height.
        bottom: f32,
        /// Top height.
        top: f32,
    },
}

/// One convex piece.
#[derive(Clone, Debug)]
enum Piece {
    Aabb(Aabb),
    Sphere(Sphere),
    /// A triangular prism: its base triangle `(x, z)` and heights, with its 8 face triangles.
    Prism {
        base: [Vec2; 3],
        bottom: f32,
        top: f32,
        faces: Vec<Triangle>,
    },
}

/// A trigger volume ready for queries.
#[derive(Clone, Debug)]
pub struct TriggerVolume {
    /// The trigger's id.
    pub id: ObjectId,
    pieces: Vec<Piece>,
    bounds: Aabb,
}

/// Ear clipping of a simple polygon (either winding) into triangles; `None` when it is degenerate or
/// self-intersecting badly enough that no ear is found. (The editor fills prism outlines with it.)
#[must_use]
pub fn triangulate(points: &[Vec2]) -> Option<Vec<[Vec2; 3]>> {
    let n = points.len();
    if n < 3 {
        return None;
    }
    let area: f32 = (0..n)
        .map(|i| points[i].perp_dot(points[(i + 1) % n]))
        .sum();
    if !(area.abs() > 0.0) {
        return None;
    }
    let ccw = area > 0.0;
    let mut idx: Vec<usize> = (0..n).collect();
    let mut out = Vec::with_capacity(n - 2);
    let cross = |a: Vec2, b: Vec2, c: Vec2| (b - a).perp_dot(c - a);
    let mut guard = 0;
    while idx.len() > 3 {
        guard += 1;
        if guard > 4 * n * n {
            return None;
        }
        let m = idx.len();
        let mut clipped = false;
        for k in 0..m {
            let (ia, ib, ic) = (idx[(k + m - 1) % m], idx[k], idx[(k + 1) % m]);
            let (a, b, c) = (points[ia], points[ib], points[ic]);
            let turn = cross(a, b, c);
            if (ccw && turn <= 0.0) || (!ccw && turn >= 0.0) {
                continue;
            }
            let inside = idx.iter().any(|&j| {
                if j == ia || j == ib || j == ic {
                    return false;
                }
                let p = points[j];
                let (d1, d2, d3) = (cross(a, b, p), cross(b, c, p), cross(c, a, p));
                if ccw {
                    d1 >= 0.0 && d2 >= 0.0 && d3 >= 0.0
                } else {
                    d1 <= 0.0 && d2 <= 0.0 && d3 <= 0.0
                }
            });
            if inside {
                continue;
            }
            out.push([a, b, c]);
            idx.remove(k);
            clipped = true;
            break;
        }
        if !clipped {
            return None;
        }
    }
    out.push([points[idx[0]], points[idx[1]], points[idx[2]]]);
    Some(out)
}

fn prism_faces(base: [Vec2; 3], bottom: f32, top: f32) -> Vec<Triangle> {
    let at = |p: Vec2, y: f32| Vec3::new(p.x, y, p.y);
    let [a, b, c] = base;
    let mut faces = vec![
        Triangle::new(at(a, bottom), at(b, bottom), at(c, bottom)),
        Triangle::new(at(a, top), at(b, top), at(c, top)),
    ];
    for (p, q) in [(a, b), (b, c), (c, a)] {
        faces.push(Triangle::new(at(p, bottom), at(q, bottom), at(q, top)));
        faces.push(Triangle::new(at(p, bottom), at(q, top), at(p, top)));
    }
    // A flat prism (bottom == top) has degenerate side triangles: the caps alone are its surface.
    faces.retain(Triangle::is_valid);
    faces
}

/// Whether `p` (top-down) is inside or on the triangle.
fn in_triangle(p: Vec2, [a, b, c]: [Vec2; 3]) -> bool {
    let (d1, d2, d3) = (
        (b - a).perp_dot(p - a),
        (c - b).perp_dot(p - b),
        (a - c).perp_dot(p - c),
    );
    let neg = d1 < 0.0 || d2 < 0.0 || d3 < 0.0;
    let pos = d1 > 0.0 || d2 > 0.0 || d3 > 0.0;
    !(neg && pos)
}

impl Piece {
    fn overlaps(&self, s: &Sphere) -> bool {
        match self {
            Piece::Aabb(b) => overlap::sphere_aabb(s, b),
            Piece::Sphere(t) => overlap::sphere_sphere(s, t),
            Piece::Prism {
                base,
                bottom,
                top,
                faces,
            } => {
                let c = s.center;
                (c.y >= *bottom && c.y <= *top && in_triangle(Vec2::new(c.x, c.z), *base))
                    || faces.iter().any(|f| overlap::sphere_triangle(s, f))
            }
        }
    }

    /// First contact, as a fraction of `motion`, of a sphere starting outside the piece.
    fn first_contact(&self, s: &Sphere, motion: Vec3) -> Option<f32> {
        match self {
            Piece::Aabb(b) => sweep::sphere_aabb(s, motion, b).map(|t| t.t),
            Piece::Sphere(t) => sweep::sphere_sphere(s, motion, t, Vec3::ZERO).map(|t| t.t),
            Piece::Prism { faces, .. } => faces
                .iter()
                .filter_map(|f| sweep::sphere_triangle(s, motion, f).map(|t| t.t))
                .reduce(f32::min),
        }
    }

    /// The fractions of the move `p0 -> p1` during which a sphere of `radius` overlaps the piece.
    fn interval(&self, p0: Vec3, p1: Vec3, radius: f32) -> Option<(f32, f32)> {
        let motion = p1 - p0;
        let s0 = Sphere::new(p0, radius);
        let s1 = Sphere::new(p1, radius);
        let start = if self.overlaps(&s0) {
            0.0
        } else {
            self.first_contact(&s0, motion)?
        };
        let end = if self.overlaps(&s1) {
            1.0
        } else {
            1.0 - self.first_contact(&s1, -motion)?
        };
        (start <= end).then_some((start, end))
    }
}

impl TriggerVolume {
    /// The volume of a trigger's shape; `None` for an invalid shape (see `Level::validate`).
    #[must_use]
    pub fn new(id: ObjectId, shape: &TriggerShape) -> Option<TriggerVolume> {
        let (pieces, bounds) = match shape {
            TriggerShape::Aabb(b) => (b.is_valid().then(|| vec![Piece::Aabb(*b)])?, *b),
            TriggerShape::Sphere(s) => (
                s.is_valid().then(|| vec![Piece::Sphere(*s)])?,
                Aabb::new(
                    s.center - Vec3::splat(s.radius),
                    s.center + Vec3::splat(s.radius),
                ),
            ),
            TriggerShape::Prism {
                points,
                bottom,
                top,
            } => {
                if !(bottom <= top
                    && bottom.is_finite()
                    && top.is_finite()
                    && points.iter().all(|p| p.is_finite()))
                {
                    return None;
                }
                let tris = triangulate(points)?;
                let (lo, hi) = points
                    .iter()
                    .fold((points[0], points[0]), |(l, h), &p| (l.min(p), h.max(p)));
                let pieces = tris
                    .into_iter()
                    .map(|base| Piece::Prism {
                        base,
                        bottom: *bottom,
                        top: *top,
                        faces: prism_faces(base, *bottom, *top),
                    })
                    .collect();
                (
                    pieces,
                    Aabb::new(Vec3::new(lo.x, *bottom, lo.y), Vec3::new(hi.x, *top, hi.y)),
                )
            }
        };
        Some(TriggerVolume { id, pieces, bounds })
    }

    /// The volume's bounds.
    #[must_use]
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }

    /// Whether the sphere touches or overlaps the volume.
    #[must_use]
    pub fn overlaps(&self, sphere: &Sphere) -> bool {
        sphere.is_valid() && self.pieces.iter().any(|p| p.overlaps(sphere))
    }

    /// The parts of the straight move `p0 -> p1` (fractions in `[0, 1]`, sorted, merged) during which a sphere
    /// of `radius` overlaps the volume.
    #[must_use]
    pub fn intervals(&self, p0: Vec3, p1: Vec3, radius: f32) -> Vec<(f32, f32)> {
        if !(p0.is_finite() && p1.is_finite() && radius > 0.0 && radius.is_finite()) {
            return Vec::new();
        }
        let r = Vec3::splat(radius);
        let (lo, hi) = (p0.min(p1) - r, p0.max(p1) + r);
        if lo.cmpgt(self.bounds.max).any() || hi.cmplt(self.bounds.min).any() {
            return Vec::new();
        }
        let mut parts: Vec<(f32, f32)> = self
            .pieces
            .iter()
            .filter_map(|p| p.interval(p0, p1, radius))
            .collect();
        parts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut merged: Vec<(f32, f32)> = Vec::with_capacity(parts.len());
        for (a, b) in parts {
            match merged.last_mut() {
                Some(last) if a <= last.1 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        merged
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ear_clipping_covers_an_l_shape() {
        let l = [
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 2.0),
            Vec2::new(0.0, 2.0),
        ];
        for pts in [l.to_vec(), l.iter().rev().copied().collect()] {
            let tris = triangulate(&pts).unwrap();
            assert_eq!(tris.len(), 4);
            let area: f32 = tris
                .iter()
                .map(|[a, b, c]| ((*b - *a).perp_dot(*c - *a)).abs() * 0.5)
                .sum();
            assert!((area - 3.0).abs() < 1e-5, "{area}");
        }
    }

    #[test]
    fn crossing_a_box_enters_and_leaves_at_the_touching_times() {
        // Box x in [4, 6]; a ball of radius 1 moving from x = 0 to x = 10 touches it from x = 3 to x = 7.
        let v = TriggerVolume::new(
            ObjectId(1),
            &TriggerShape::Aabb(Aabb::new(
                Vec3::new(4.0, 0.0, -1.0),
                Vec3::new(6.0, 2.0, 1.0),
            )),
        )
        .unwrap();
        let got = v.intervals(Vec3::new(0.0, 1.0, 0.0), Vec3::new(10.0, 1.0, 0.0), 1.0);
        assert_eq!(got.len(), 1);
        assert!(
            (got[0].0 - 0.3).abs() < 1e-6 && (got[0].1 - 0.7).abs() < 1e-6,
            "{got:?}"
        );
    }

    #[test]
    fn a_u_shaped_prism_is_entered_twice() {
        // A U open toward +z: a ball moving along x through its two arms enters and leaves twice.
        let u = TriggerShape::Prism {
            points: vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(3.0, 0.0),
                Vec2::new(3.0, 3.0),
                Vec2::new(2.0, 3.0),
                Vec2::new(2.0, 1.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(1.0, 3.0),
                Vec2::new(0.0, 3.0),
            ],
            bottom: 0.0,
            top: 2.0,
        };
        let v = TriggerVolume::new(ObjectId(2), &u).unwrap();
        let got = v.intervals(Vec3::new(-2.0, 1.0, 2.0), Vec3::new(5.0, 1.0, 2.0), 0.25);
        assert_eq!(got.len(), 2, "{got:?}");
        // Arms x in [0, 1] and [2, 3], grown by 0.25: x from -0.25 to 1.25 and 1.75 to 3.25, over 7 m.
        let want = [(1.75 / 7.0, 3.25 / 7.0), (3.75 / 7.0, 5.25 / 7.0)];
        for (g, w) in got.iter().zip(want) {
            assert!(
                (g.0 - w.0).abs() < 1e-5 && (g.1 - w.1).abs() < 1e-5,
                "{got:?}"
            );
        }
        assert!(v.overlaps(&Sphere::new(Vec3::new(0.5, 1.0, 2.0), 0.1)));
        assert!(!v.overlaps(&Sphere::new(Vec3::new(1.5, 1.0, 2.0), 0.1)));
    }
}
