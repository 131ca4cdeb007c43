//! What each level object looks like from above (its projection onto the floor, `(x, z)`): used to draw the
//! top-down view, to pick objects under the cursor and to box-select them.

use std::sync::Arc;

use glam::{Vec2, Vec3};

use crate::editor::document::Object;
pub use crate::editor::draw::plane::{
    closest_on_segment, convex_hull, segment_distance, segments_cross,
};
use crate::editor::view2d::relief::MeshPlan;
use crate::level::TriggerShape;

/// Radius of an entity's marker in the top-down view, in metres.
pub const ENTITY_MARKER_RADIUS: f32 = 0.3;

/// An object's top-down projection.
#[derive(Clone, Debug, PartialEq)]
pub enum Footprint {
    /// A segment swept by a disc: walls.
    Capsule {
        /// First end.
        a: Vec2,
        /// Second end.
        b: Vec2,
        /// Collision radius.
        r: f32,
    },
    /// A disc: balls.
    Circle {
        /// Centre.
        c: Vec2,
        /// Radius.
        r: f32,
    },
    /// A convex polygon, counter-clockwise: boxes, cylinders.
    Polygon(Vec<Vec2>),
    /// Any simple polygon (concave allowed), in order: prism triggers.
    Area(Vec<Vec2>),
    /// A triangle (kept apart from polygons for its normal tick).
    Triangle([Vec2; 3]),
    /// A mesh: its triangles from above (picked by the one under the pointer), drawn by its edges.
    Mesh(Arc<MeshPlan>),
    /// An arrow from `a` to `b`: probes.
    Arrow {
        /// Origin.
        a: Vec2,
        /// Tip.
        b: Vec2,
    },
    /// An infinite line through `p` along `dir` (unit): a plane that is not horizontal.
    Line {
        /// A point on the line.
        p: Vec2,
        /// Unit direction.
        dir: Vec2,
    },
    /// Covers the whole floor: a horizontal plane (or one with a degenerate normal).
    Everywhere,
}

fn xz(p: Vec3) -> Vec2 {
    Vec2::new(p.x, p.z)
}

/// A trigger volume from above: a box's rectangle, a sphere's circle, a prism's outline.
fn trigger_footprint(shape: &TriggerShape) -> Footprint {
    match shape {
        TriggerShape::Aabb(b) => Footprint::Polygon(vec![
            Vec2::new(b.min.x, b.min.z),
            Vec2::new(b.max.x, b.min.z),
            Vec2::new(b.max.x, b.max.z),
            Vec2::new(b.min.x, b.max.z),
        ]),
        TriggerShape::Sphere(s) => Footprint::Circle {
            c: xz(s.center),
            r: s.radius,
        },
        TriggerShape::Prism { points, .. } => Footprint::Area(points.clone()),
    }
}

impl Footprint {
    /// The footprint of `object`.
    #[must_use]
    pub fn of(object: &Object) -> Self {
        match object {
            Object::Wall(w) => Footprint::Capsule {
                a: w.a,
                b: w.b,
                r: w.radius,
            },
            Object::Ball(b) => Footprint::Circle {
                c: xz(b.center),
                r: b.radius,
            },
            Object::Triangle(t) => Footprint::Triangle([xz(t.a), xz(t.b), xz(t.c)]),
            Object::Plane(p) => {
                let n = xz(p.normal);
                let len2 = p.normal.length_squared();
                // Vertical enough to meet the floor in a line: n·(x, 0, z) = d.
                if n.length_squared() > 1e-6 * len2 && n.is_finite() && p.d.is_finite() {
                    let p0 = n * (p.d / n.length_squared());
                    Footprint::Line {
                        p: p0,
                        dir: n.perp().normalize(),
                    }
                } else {
                    Footprint::Everywhere
                }
            }
            Object::Cylinder(c) => {
                let axis = c.b - c.a;
                let (e1, e2) = if axis.length_squared() > 0.0 && axis.is_finite() {
                    axis.normalize().any_orthonormal_pair()
                } else {
                    (Vec3::X, Vec3::Z)
                };
                let ring = (0..24).flat_map(|i| {
                    let u = i as f32 / 24.0 * std::f32::consts::TAU;
                    let off = (e1 * u.cos() + e2 * u.sin()) * c.radius;
                    [xz(c.a + off), xz(c.b + off)]
                });
                Footprint::Polygon(convex_hull(ring))
            }
            Object::Aabb(b) => Footprint::Polygon(vec![
                Vec2::new(b.min.x, b.min.z),
                Vec2::new(b.max.x, b.min.z),
                Vec2::new(b.max.x, b.max.z),
                Vec2::new(b.min.x, b.max.z),
            ]),
            Object::Obb(b) => {
                let r = b.rotation();
                let corners = (0..8).map(|i| {
                    let s = Vec3::new(
                        if i & 1 == 0 { -1.0 } else { 1.0 },
                        if i & 2 == 0 { -1.0 } else { 1.0 },
                        if i & 4 == 0 { -1.0 } else { 1.0 },
                    );
                    xz(b.center + r * (s * b.half_extents))
                });
                Footprint::Polygon(convex_hull(corners))
            }
            Object::Mesh(m) => Footprint::Mesh(Arc::new(MeshPlan::new(&m.vertices, &m.indices))),
            Object::Probe(p) => {
                let dir = p.dir.normalize_or_zero();
                let len = if p.max_t.is_finite() {
                    p.max_t.min(1e4)
                } else {
                    1e4
                };
                Footprint::Arrow {
                    a: xz(p.origin),
                    b: xz(p.origin + dir * len),
                }
            }
            Object::Entity(e) => Footprint::Circle {
                c: xz(e.position),
                r: ENTITY_MARKER_RADIUS,
            },
            Object::Trigger(t) => trigger_footprint(&t.shape),
            Object::Sector(s) => Footprint::Area(s.outline.clone()),
        }
    }

    /// Bounds `(min, max)`, or `None` for unbounded footprints (lines, everywhere) and empty polygons.
    #[must_use]
    pub fn bounds(&self) -> Option<(Vec2, Vec2)> {
        let (min, max) = match self {
            Footprint::Capsule { a, b, r } => {
                (a.min(*b) - Vec2::splat(*r), a.max(*b) + Vec2::splat(*r))
            }
            Footprint::Circle { c, r } => (*c - Vec2::splat(*r), *c + Vec2::splat(*r)),
            Footprint::Polygon(p) | Footprint::Area(p) => p.iter().fold(
                (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
                |(lo, hi), &q| (lo.min(q), hi.max(q)),
            ),
            Footprint::Triangle(t) => (t[0].min(t[1]).min(t[2]), t[0].max(t[1]).max(t[2])),
            Footprint::Mesh(m) => m.bounds?,
            Footprint::Arrow { a, b } => (a.min(*b), a.max(*b)),
            Footprint::Line { .. } | Footprint::Everywhere => return None,
        };
        (min.is_finite() && max.is_finite() && min.cmple(max).all()).then_some((min, max))
    }

    /// Distance from `p` to the footprint's outline or area (0 inside filled shapes); `None` when the
    /// footprint cannot be picked with the pointer (everywhere) or has non-finite data.
    #[must_use]
    pub fn distance(&self, p: Vec2) -> Option<f32> {
        self.distance_within(p, f32::INFINITY)
    }

    /// [`Footprint::distance`] when it is at most `tol`, else `None` (a mesh looks only at its triangles
    /// near `p`).
    #[must_use]
    pub fn distance_within(&self, p: Vec2, tol: f32) -> Option<f32> {
        let d = match self {
            Footprint::Capsule { a, b, r } => (segment_distance(p, *a, *b) - r).max(0.0),
            Footprint::Circle { c, r } => (p.distance(*c) - r).max(0.0),
            Footprint::Polygon(poly) | Footprint::Area(poly) => polygon_distance(p, poly),
            Footprint::Triangle(t) => polygon_distance(p, t),
            Footprint::Mesh(m) => return m.distance_within(p, tol),
            Footprint::Arrow { a, b } => segment_distance(p, *a, *b),
            Footprint::Line { p: q, dir } => (p - *q).perp_dot(*dir).abs(),
            Footprint::Everywhere => return None,
        };
        (d.is_finite() && d <= tol).then_some(d)
    }
}

/// 0 inside a polygon (either winding), else the distance to its nearest edge.
fn polygon_distance(p: Vec2, poly: &[Vec2]) -> f32 {
    match poly.len() {
        0 => f32::INFINITY,
        1 => p.distance(poly[0]),
        n => {
            let mut inside = false;
            let mut best = f32::INFINITY;
            for i in 0..n {
                let (a, b) = (poly[i], poly[(i + 1) % n]);
                best = best.min(segment_distance(p, a, b));
                if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x)
                {
                    inside = !inside;
                }
            }
            if inside && n >= 3 { 0.0 } else { best }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_of_a_square_with_an_inner_point() {
        let h = convex_hull([
            Vec2::ZERO,
            Vec2::X,
            Vec2::ONE,
            Vec2::Y,
            Vec2::splat(0.5),
            Vec2::X,
        ]);
        assert_eq!(h, vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y]);
    }

    #[test]
    fn distances() {
        let cap = Footprint::Capsule {
            a: Vec2::ZERO,
            b: Vec2::new(4.0, 0.0),
            r: 0.5,
        };
        assert_eq!(cap.distance(Vec2::new(2.0, 2.0)), Some(1.5));
        assert_eq!(cap.distance(Vec2::new(2.0, 0.2)), Some(0.0));
        let sq = Footprint::Polygon(convex_hull([Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y]));
        assert_eq!(sq.distance(Vec2::splat(0.5)), Some(0.0));
        assert_eq!(sq.distance(Vec2::new(3.0, 0.5)), Some(2.0));
        assert_eq!(Footprint::Everywhere.distance(Vec2::ZERO), None);
        let line = Footprint::Line {
            p: Vec2::ZERO,
            dir: Vec2::Y,
        };
        assert_eq!(line.distance(Vec2::new(-3.0, 9.0)), Some(3.0));
    }

    #[test]
    fn crossing_segments() {
        let (u, p) = segments_cross(
            Vec2::new(0.0, -1.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(-2.0, 0.0),
            Vec2::new(2.0, 0.0),
        )
        .unwrap();
        assert_eq!((u, p), (0.5, Vec2::ZERO));
        // Touching at an end is not a crossing.
        assert!(segments_cross(Vec2::ZERO, Vec2::X, Vec2::X, Vec2::new(1.0, 1.0)).is_none());
    }
}
