//! Floors and ceilings: a constrained Delaunay triangulation of the outline and holes (spade, exact
//! predicates), the triangles inside kept by flood fill across the rings' edges.

use glam::Vec2;
use spade::handles::FixedFaceHandle;
use spade::{ConstrainedDelaunayTriangulation, HasPosition, Point2, Triangulation};

/// A plan point and its index in the caller's list (spade merges equal points and keeps the first).
#[derive(Clone, Copy, Debug)]
struct Vertex {
    at: Point2<f64>,
    index: u32,
}

impl HasPosition for Vertex {
    type Scalar = f64;
    fn position(&self) -> Point2<f64> {
        self.at
    }
}

/// Triangles covering the inside of `rings` (the outline first, then holes; any winding) by the even-odd
/// rule, as indices into the rings' points taken in order (ring 0's, then ring 1's, …), each
/// counter-clockwise in the `x`-`z` plane (`(b − a) × (c − a)` points down: the caller flips floors).
/// Rings crossing themselves or each other lose the crossing edges (never a panic); anything spade refuses
/// gives no triangles.
#[must_use]
pub fn triangulate(rings: &[Vec<Vec2>]) -> Vec<[u32; 3]> {
    let total: usize = rings.iter().map(Vec::len).sum();
    let mut vertices = Vec::with_capacity(total);
    let mut edges = Vec::with_capacity(total);
    for ring in rings {
        let first = vertices.len();
        let n = ring.len();
        if n < 3 {
            continue;
        }
        for (k, p) in ring.iter().enumerate() {
            vertices.push(Vertex {
                at: Point2::new(f64::from(p.x), f64::from(p.y)),
                index: (first + k) as u32,
            });
            edges.push([first + k, first + (k + 1) % n]);
        }
    }
    if vertices.len() < 3
        || vertices
            .iter()
            .any(|v| !v.at.x.is_finite() || !v.at.y.is_finite())
    {
        return Vec::new();
    }
    let Ok(cdt) =
        ConstrainedDelaunayTriangulation::<Vertex>::try_bulk_load_cdt(vertices, edges, |_| {})
    else {
        return Vec::new();
    };
    inside_faces(&cdt)
}

/// The inner faces an odd number of constraint edges away from the outside.
fn inside_faces(cdt: &ConstrainedDelaunayTriangulation<Vertex>) -> Vec<[u32; 3]> {
    let mut parity = vec![u8::MAX; cdt.num_all_faces()];
    let mut stack: Vec<(FixedFaceHandle<spade::handles::InnerTag>, u8)> = Vec::new();
    for e in cdt.convex_hull() {
        let inner = if e.face().is_outer() {
            e.rev().face()
        } else {
            e.face()
        };
        if let Some(f) = inner.as_inner() {
            let p = u8::from(cdt.is_constraint_edge(e.fix().as_undirected()));
            stack.push((f.fix(), p));
        }
    }
    let mut out = Vec::with_capacity(cdt.num_inner_faces());
    while let Some((f, p)) = stack.pop() {
        let slot = &mut parity[f.index()];
        if *slot != u8::MAX {
            continue;
        }
        *slot = p;
        let face = cdt.face(f);
        if p == 1 {
            let [a, b, c] = face.vertices().map(|v| v.data().index);
            out.push([a, b, c]);
        }
        for e in face.adjacent_edges() {
            if let Some(g) = e.rev().face().as_inner()
                && parity[g.fix().index()] == u8::MAX
            {
                let q = p ^ u8::from(cdt.is_constraint_edge(e.fix().as_undirected()));
                stack.push((g.fix(), q));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(rings: &[Vec<Vec2>], tris: &[[u32; 3]]) -> f64 {
        let pts: Vec<Vec2> = rings.iter().flatten().copied().collect();
        tris.iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| pts[i as usize].as_dvec2());
                (b - a).perp_dot(c - a) * 0.5
            })
            .sum()
    }

    #[test]
    fn a_square_with_a_hole_and_collinear_points() {
        let outer = vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 4.0),
            Vec2::new(0.0, 4.0),
        ];
        let hole = vec![
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 2.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(2.0, 1.0),
        ];
        let rings = vec![outer, hole];
        let tris = triangulate(&rings);
        assert!((area(&rings, &tris) - 15.0).abs() < 1e-9);
        // Counter-clockwise each.
        let pts: Vec<Vec2> = rings.iter().flatten().copied().collect();
        for t in &tris {
            let [a, b, c] = t.map(|i| pts[i as usize].as_dvec2());
            assert!((b - a).perp_dot(c - a) > 0.0);
        }
    }

    #[test]
    fn bad_rings_never_panic() {
        let bow = vec![vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(0.0, 2.0),
        ]];
        let _ = triangulate(&bow);
        let line = vec![vec![Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)]];
        assert!(triangulate(&line).is_empty());
        let dup = vec![vec![Vec2::ZERO, Vec2::X, Vec2::X, Vec2::Y]];
        let _ = triangulate(&dup);
    }
}
