//! Meshes and level triangles seen from above, so a 3D level reads as a map: each mesh's triangles projected
//! on the floor with a grid to find the ones under the pointer (picking by the triangle, not the hull), its
//! edges listed once each with the heights of their ends, its outline (the edges of one triangle only), and
//! the colour ramp that shades edges by height. No egui here.

use std::collections::HashMap;

use glam::{Vec2, Vec3};

use crate::editor::draw::plane::{convex_hull, segment_distance};

/// The height ramp's colours, low to high: cold to hot (blue, cyan, green, yellow, red), readable on the dark
/// and on the light background, and apart from the selection's orange by its hue at each height band.
const RAMP: [[u8; 3]; 5] = [
    [60, 90, 230],
    [30, 185, 225],
    [70, 205, 100],
    [235, 215, 50],
    [235, 85, 55],
];

/// The ramp's colour at `t` (0 low, 1 high; clamped, NaN is low), linear between the stops.
#[must_use]
pub fn ramp(t: f32) -> [u8; 3] {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let x = t * (RAMP.len() - 1) as f32;
    let i = (x as usize).min(RAMP.len() - 2);
    let f = x - i as f32;
    let (a, b) = (RAMP[i], RAMP[i + 1]);
    std::array::from_fn(|k| {
        (f32::from(a[k]) + (f32::from(b[k]) - f32::from(a[k])) * f).round() as u8
    })
}

/// The heights a level's meshes and triangles span: what the ramp's ends stand for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeightRange {
    /// The lowest height, metres.
    pub low: f32,
    /// The highest height, metres.
    pub high: f32,
}

impl HeightRange {
    /// The range of the finite `heights`, `None` when there are none.
    #[must_use]
    pub fn of(heights: impl IntoIterator<Item = f32>) -> Option<Self> {
        heights
            .into_iter()
            .filter(|y| y.is_finite())
            .fold(None, |acc: Option<Self>, y| {
                Some(acc.map_or(Self { low: y, high: y }, |r| Self {
                    low: r.low.min(y),
                    high: r.high.max(y),
                }))
            })
    }

    /// Where `y` lies in the range, 0 to 1 (the middle when the range is flat).
    #[must_use]
    pub fn fraction(&self, y: f32) -> f32 {
        if self.high > self.low {
            ((y - self.low) / (self.high - self.low)).clamp(0.0, 1.0)
        } else {
            0.5
        }
    }

    /// The ramp's colour for height `y`.
    #[must_use]
    pub fn color(&self, y: f32) -> [u8; 3] {
        ramp(self.fraction(y))
    }
}

/// An edge in the world, from `a` to `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Edge {
    /// One end.
    pub a: Vec3,
    /// The other end.
    pub b: Vec3,
}

impl Edge {
    /// The height of its higher end.
    #[must_use]
    pub fn top(&self) -> f32 {
        self.a.y.max(self.b.y)
    }

    /// The height of its middle: what orders edges low to high for drawing, so a ramp's top edge draws over
    /// the diagonal that climbs to it along the same line from above.
    #[must_use]
    pub fn middle(&self) -> f32 {
        (self.a.y + self.b.y) * 0.5
    }
}

/// A point's bits, with -0 made +0, so the same position gives the same key.
fn bits(p: Vec3) -> [u32; 3] {
    (p + Vec3::ZERO).to_array().map(f32::to_bits)
}

/// The edges of `tris`, each once: an edge shared by several triangles (the same two end positions, in
/// either direction, bit for bit) is listed once, in the order first met. Degenerate edges (both ends the
/// same point) and edges with a non-finite end are left out. Also returns which of the listed edges belong
/// to one triangle only (the outline of an open surface).
#[must_use]
pub fn unique_edges(tris: impl IntoIterator<Item = [Vec3; 3]>) -> (Vec<Edge>, Vec<u32>) {
    let mut points: HashMap<[u32; 3], u32> = HashMap::new();
    let mut seen: HashMap<(u32, u32), u32> = HashMap::new();
    let mut edges = Vec::new();
    let mut uses: Vec<u32> = Vec::new();
    let id = |p: Vec3, points: &mut HashMap<[u32; 3], u32>| {
        let n = points.len() as u32;
        *points.entry(bits(p)).or_insert(n)
    };
    for t in tris {
        if !t.iter().all(|p| p.is_finite()) {
            continue;
        }
        let ids = t.map(|p| id(p, &mut points));
        for (i, j) in [(0, 1), (1, 2), (2, 0)] {
            let (p, q) = (ids[i], ids[j]);
            if p == q {
                continue;
            }
            let k = seen.entry((p.min(q), p.max(q))).or_insert_with(|| {
                edges.push(Edge { a: t[i], b: t[j] });
                uses.push(0);
                edges.len() as u32 - 1
            });
            uses[*k as usize] += 1;
        }
    }
    let boundary = (0..edges.len() as u32)
        .filter(|&k| uses[k as usize] == 1)
        .collect();
    (edges, boundary)
}

/// Height bands the edges are sorted into for drawing (low ones first, so higher floors draw over lower).
pub const BANDS: usize = 32;

/// Every mesh's and level triangle's edges, sorted into [`BANDS`] height bands from low to high (by their
/// middle's height), with the heights they span: what the top-down view draws shaded by height.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Relief {
    /// The heights of every edge's ends, `None` when there are no edges.
    pub range: Option<HeightRange>,
    /// The edges, band by band: band `k` is `edges[starts[k]..starts[k + 1]]`.
    pub edges: Vec<Edge>,
    /// Where each band starts in `edges` (`BANDS + 1` entries; empty when there are no edges).
    pub starts: Vec<u32>,
}

impl Relief {
    /// The relief of these lists of edges (a counting sort by band: linear in the edges).
    #[must_use]
    pub fn new(parts: &[&[Edge]]) -> Self {
        let all = || parts.iter().flat_map(|p| p.iter());
        let Some(range) = HeightRange::of(all().flat_map(|e| [e.a.y, e.b.y])) else {
            return Self::default();
        };
        let band = |e: &Edge| ((range.fraction(e.middle()) * BANDS as f32) as usize).min(BANDS - 1);
        let mut starts = vec![0u32; BANDS + 1];
        for e in all() {
            starts[band(e) + 1] += 1;
        }
        for k in 1..=BANDS {
            starts[k] += starts[k - 1];
        }
        let mut fill = starts.clone();
        let mut edges = vec![
            Edge {
                a: Vec3::ZERO,
                b: Vec3::ZERO
            };
            starts[BANDS] as usize
        ];
        for e in all() {
            let k = band(e);
            edges[fill[k] as usize] = *e;
            fill[k] += 1;
        }
        Self {
            range: Some(range),
            edges,
            starts,
        }
    }

    /// The edges of band `k` (0 lowest).
    #[must_use]
    pub fn band(&self, k: usize) -> &[Edge] {
        match (self.starts.get(k), self.starts.get(k + 1)) {
            (Some(&a), Some(&b)) => &self.edges[a as usize..b as usize],
            _ => &[],
        }
    }
}

/// A quick fingerprint of a mesh's geometry (every vertex's bits and every index), to keep its plan while
/// the mesh stays the same.
#[must_use]
pub fn fingerprint(vertices: &[Vec3], indices: &[[u32; 3]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ (vertices.len() as u64) << 32 ^ indices.len() as u64;
    let mut mix = |w: u32| {
        h = (h ^ u64::from(w))
            .wrapping_mul(0x0100_0000_01b3)
            .rotate_left(5)
    };
    for v in vertices {
        for c in v.to_array() {
            mix(c.to_bits());
        }
    }
    for t in indices {
        for &i in t {
            mix(i);
        }
    }
    h
}

/// A mesh as the top-down view needs it: drawn by its edges, picked by the triangle under the pointer.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshPlan {
    /// The finite triangles, in the mesh's order.
    tris: Vec<[Vec3; 3]>,
    grid: TriGrid,
    /// Bounds of the triangles from above, `None` when there are none.
    pub bounds: Option<(Vec2, Vec2)>,
    /// Every edge once, with its heights.
    pub edges: Vec<Edge>,
    /// What a selected or hovered mesh is outlined by, from above: the edges of one triangle only, or the
    /// convex hull's edges for a closed mesh (which has none).
    pub outline: Vec<[Vec2; 2]>,
}

fn xz(p: Vec3) -> Vec2 {
    Vec2::new(p.x, p.z)
}

impl MeshPlan {
    /// The plan of the mesh with these vertices and triangles (indices out of range are skipped).
    #[must_use]
    pub fn new(vertices: &[Vec3], indices: &[[u32; 3]]) -> Self {
        let tris: Vec<[Vec3; 3]> = indices
            .iter()
            .filter_map(|t| {
                let v = |i: u32| vertices.get(i as usize).copied();
                Some([v(t[0])?, v(t[1])?, v(t[2])?])
            })
            .filter(|t| t.iter().all(|p| p.is_finite()))
            .collect();
        let (edges, boundary) = unique_edges(tris.iter().copied());
        let mut outline: Vec<[Vec2; 2]> = boundary
            .iter()
            .map(|&k| {
                let e = edges[k as usize];
                [xz(e.a), xz(e.b)]
            })
            .collect();
        if outline.is_empty() {
            let hull = convex_hull(tris.iter().flatten().map(|&p| xz(p)));
            outline = (0..hull.len())
                .map(|i| [hull[i], hull[(i + 1) % hull.len()]])
                .collect();
        }
        let grid = TriGrid::new(&tris);
        Self {
            bounds: grid.bounds,
            tris,
            grid,
            edges,
            outline,
        }
    }

    /// Number of (finite) triangles.
    #[must_use]
    pub fn triangles(&self) -> usize {
        self.tris.len()
    }

    /// Distance from floor point `p` to the nearest triangle seen from above (0 over one), when at most
    /// `tol`; `None` when no triangle is that close.
    #[must_use]
    pub fn distance_within(&self, p: Vec2, tol: f32) -> Option<f32> {
        let mut best: Option<f32> = None;
        for i in self.grid.near(p, tol) {
            let t = self.tris[i as usize].map(xz);
            let d = if inside_triangle(p, t) {
                0.0
            } else {
                segment_distance(p, t[0], t[1])
                    .min(segment_distance(p, t[1], t[2]))
                    .min(segment_distance(p, t[2], t[0]))
            };
            if d <= tol && best.is_none_or(|b| d < b) {
                best = Some(d);
                if d == 0.0 {
                    break;
                }
            }
        }
        best
    }

    /// The height of the highest triangle over floor point `p` (its plane's height there), `None` where no
    /// triangle is under it. Triangles seen edge-on from above (walls) are not under any point.
    #[must_use]
    pub fn height_at(&self, p: Vec2) -> Option<f32> {
        let mut best: Option<f32> = None;
        for i in self.grid.near(p, 0.0) {
            let t = self.tris[i as usize];
            if let Some(y) = height_in(p, t) {
                best = Some(best.map_or(y, |b| b.max(y)));
            }
        }
        best
    }
}

/// The height of triangle `t` over floor point `p`, if `p` is over it (and it is not edge-on from above).
#[must_use]
pub fn height_in(p: Vec2, t: [Vec3; 3]) -> Option<f32> {
    let (a, b, c) = (xz(t[0]), xz(t[1]), xz(t[2]));
    let area = (b - a).perp_dot(c - a);
    if area.abs() <= f32::EPSILON * (b - a).length() * (c - a).length() {
        return None;
    }
    let u = (p - a).perp_dot(c - a) / area;
    let v = (b - a).perp_dot(p - a) / area;
    let w = 1.0 - u - v;
    let eps = -1e-6;
    (u >= eps && v >= eps && w >= eps).then(|| t[0].y * w + t[1].y * u + t[2].y * v)
}

/// Whether `p` is inside triangle `t` (either winding, edges included).
fn inside_triangle(p: Vec2, t: [Vec2; 3]) -> bool {
    let d = |a: Vec2, b: Vec2| (b - a).perp_dot(p - a);
    let (d0, d1, d2) = (d(t[0], t[1]), d(t[1], t[2]), d(t[2], t[0]));
    let neg = d0 < 0.0 || d1 < 0.0 || d2 < 0.0;
    let pos = d0 > 0.0 || d1 > 0.0 || d2 > 0.0;
    !(neg && pos)
}

/// A uniform grid over a mesh's triangles seen from above (CSR: `starts[cell]..starts[cell + 1]` in
/// `items`), about two triangles a cell; triangles spanning many cells are always looked at.
#[derive(Clone, Debug, Default, PartialEq)]
struct TriGrid {
    bounds: Option<(Vec2, Vec2)>,
    cell: f32,
    dims: (usize, usize),
    starts: Vec<u32>,
    items: Vec<u32>,
    always: Vec<u32>,
}

/// Cells a triangle may span before it goes to the always-checked list.
const MAX_CELLS_PER_TRIANGLE: usize = 64;
/// Cells along the longer side at most.
const MAX_CELLS_A_SIDE: usize = 1024;

impl TriGrid {
    fn new(tris: &[[Vec3; 3]]) -> Self {
        let mut grid = TriGrid::default();
        let Some((lo, hi)) = tris
            .iter()
            .flatten()
            .fold(None, |acc: Option<(Vec2, Vec2)>, &p| {
                let q = xz(p);
                Some(acc.map_or((q, q), |(l, h)| (l.min(q), h.max(q))))
            })
        else {
            return grid;
        };
        grid.bounds = Some((lo, hi));
        let extent = (hi - lo).max(Vec2::splat(1e-3));
        grid.cell = (extent.x * extent.y / (tris.len().max(1) as f32 * 0.5))
            .sqrt()
            .max(extent.max_element() / MAX_CELLS_A_SIDE as f32)
            .max(1e-4);
        grid.dims = (
            ((extent.x / grid.cell) as usize + 1).min(MAX_CELLS_A_SIDE + 1),
            ((extent.y / grid.cell) as usize + 1).min(MAX_CELLS_A_SIDE + 1),
        );
        let mut counts = vec![0u32; grid.dims.0 * grid.dims.1 + 1];
        let spans: Vec<Option<(usize, usize, usize, usize)>> = tris
            .iter()
            .map(|t| {
                let (l, h) = (
                    xz(t[0]).min(xz(t[1])).min(xz(t[2])),
                    xz(t[0]).max(xz(t[1])).max(xz(t[2])),
                );
                let s = grid.span(l, h);
                ((s.2 - s.0 + 1) * (s.3 - s.1 + 1) <= MAX_CELLS_PER_TRIANGLE).then_some(s)
            })
            .collect();
        for (i, s) in spans.iter().enumerate() {
            match s {
                Some((x0, y0, x1, y1)) => {
                    for y in *y0..=*y1 {
                        for x in *x0..=*x1 {
                            counts[y * grid.dims.0 + x + 1] += 1;
                        }
                    }
                }
                None => grid.always.push(i as u32),
            }
        }
        for c in 1..counts.len() {
            counts[c] += counts[c - 1];
        }
        grid.items = vec![0; counts[counts.len() - 1] as usize];
        let mut fill = counts.clone();
        for (i, s) in spans.iter().enumerate() {
            if let Some((x0, y0, x1, y1)) = s {
                for y in *y0..=*y1 {
                    for x in *x0..=*x1 {
                        let c = y * grid.dims.0 + x;
                        grid.items[fill[c] as usize] = i as u32;
                        fill[c] += 1;
                    }
                }
            }
        }
        grid.starts = counts;
        grid
    }

    /// The cells a floor box overlaps, clamped to the grid: `(x0, y0, x1, y1)` inclusive.
    fn span(&self, l: Vec2, h: Vec2) -> (usize, usize, usize, usize) {
        let origin = self.bounds.map_or(Vec2::ZERO, |b| b.0);
        let c = |v: f32, n: usize| ((v / self.cell).floor().max(0.0) as usize).min(n - 1);
        let (l, h) = (l - origin, h - origin);
        (
            c(l.x, self.dims.0),
            c(l.y, self.dims.1),
            c(h.x, self.dims.0),
            c(h.y, self.dims.1),
        )
    }

    /// Triangles whose cells meet the box `p ± tol` (possibly more than once), then the always-checked ones.
    fn near(&self, p: Vec2, tol: f32) -> impl Iterator<Item = u32> + '_ {
        let cells = self.bounds.and_then(|(lo, hi)| {
            let (l, h) = (p - Vec2::splat(tol), p + Vec2::splat(tol));
            let outside = h.x < lo.x || h.y < lo.y || l.x > hi.x || l.y > hi.y || !p.is_finite();
            (!outside).then(|| self.span(l, h))
        });
        cells
            .into_iter()
            .flat_map(move |(x0, y0, x1, y1)| {
                (y0..=y1).flat_map(move |y| {
                    (x0..=x1).flat_map(move |x| {
                        let c = y * self.dims.0 + x;
                        self.items[self.starts[c] as usize..self.starts[c + 1] as usize]
                            .iter()
                            .copied()
                    })
                })
            })
            .chain(self.always.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ramp_runs_from_blue_to_red_and_clamps() {
        assert_eq!(ramp(0.0), RAMP[0]);
        assert_eq!(ramp(1.0), RAMP[4]);
        assert_eq!(ramp(0.5), RAMP[2]);
        assert_eq!(ramp(-3.0), ramp(0.0));
        assert_eq!(ramp(7.0), ramp(1.0));
        assert_eq!(ramp(f32::NAN), ramp(0.0));
        // Low is cold (more blue than red), high is hot, and every step between stops moves.
        assert!(ramp(0.0)[2] > ramp(0.0)[0] && ramp(1.0)[0] > ramp(1.0)[2]);
        let mut last = ramp(0.0);
        for i in 1..=40 {
            let c = ramp(i as f32 / 40.0);
            assert_ne!(c, last, "at {i}");
            last = c;
        }
        let r = HeightRange::of([0.5, f32::NAN, -1.0, 2.0]).unwrap();
        assert_eq!((r.low, r.high), (-1.0, 2.0));
        assert_eq!(r.fraction(0.5), 0.5);
        assert_eq!(r.color(2.0), RAMP[4]);
        assert_eq!(r.color(-5.0), RAMP[0]);
        assert_eq!(HeightRange::of([3.0]).unwrap().fraction(3.0), 0.5);
        assert!(HeightRange::of([f32::INFINITY]).is_none());
    }

    #[test]
    fn shared_edges_are_listed_once_and_the_outline_is_the_open_border() {
        // A unit square of two triangles sharing the diagonal: 5 edges, 4 of them on the border.
        let v = |x: f32, z: f32| Vec3::new(x, 0.0, z);
        let (e, border) = unique_edges([
            [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0)],
            [v(0.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)],
        ]);
        assert_eq!(e.len(), 5);
        assert_eq!(border.len(), 4);
        assert!(!border.contains(&2), "the diagonal is inside: {border:?}");
        // The same triangles with their own (unwelded) vertices, -0 for 0 and a degenerate one: still 5.
        let (e2, _) = unique_edges([
            [v(-0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0)],
            [v(1.0, 1.0), v(0.0, 1.0), v(0.0, 0.0)],
            [v(2.0, 2.0), v(2.0, 2.0), v(2.0, 2.0)],
            [v(f32::NAN, 0.0), v(1.0, 0.0), v(1.0, 1.0)],
        ]);
        assert_eq!(e2.len(), 5);
        // A closed tetrahedron has 6 edges and no border: its plan outlines the hull instead.
        let t = [
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(0.0, 2.0),
            Vec3::new(0.5, 1.0, 0.5),
        ];
        let idx = [[0, 2, 1], [0, 1, 3], [1, 2, 3], [2, 0, 3]];
        let plan = MeshPlan::new(&t, &idx);
        assert_eq!(plan.edges.len(), 6);
        assert_eq!(plan.outline.len(), 3);
    }

    #[test]
    fn the_relief_sorts_edges_into_height_bands_low_to_high() {
        let e = |y0: f32, y1: f32| Edge {
            a: Vec3::new(0.0, y0, 0.0),
            b: Vec3::new(1.0, y1, 0.0),
        };
        let a = [e(3.0, 3.0), e(0.0, 0.0), e(0.0, 1.5)];
        let b = [e(1.0, 1.0)];
        let r = Relief::new(&[&a, &b]);
        assert_eq!(
            r.range,
            Some(HeightRange {
                low: 0.0,
                high: 3.0
            })
        );
        let order: Vec<f32> = (0..BANDS)
            .flat_map(|k| r.band(k).iter().map(Edge::top))
            .collect();
        // By the middle's height: the slope from 0 to 1.5 (middle 0.75) before the flat edge at 1.
        assert_eq!(order, vec![0.0, 1.5, 1.0, 3.0]);
        assert_eq!(r.band(BANDS - 1), &[e(3.0, 3.0)]);
        assert_eq!(Relief::new(&[]), Relief::default());
        assert!(Relief::default().band(0).is_empty());
        assert_ne!(
            fingerprint(&[Vec3::ZERO], &[[0, 0, 0]]),
            fingerprint(&[Vec3::X], &[[0, 0, 0]])
        );
    }

    #[test]
    fn a_grid_of_n_by_n_cells_has_the_euler_count_of_edges() {
        let (vertices, indices) = crate::generate::terrain(2 * 30 * 30, 30.0, 7);
        let plan = MeshPlan::new(&vertices, &indices);
        // n² cells: n(n+1) edges each way plus n² diagonals; the border is 4n.
        assert_eq!(plan.edges.len(), 2 * 30 * 31 + 30 * 30);
        assert_eq!(plan.outline.len(), 4 * 30);
        let top = plan.edges.iter().map(Edge::top).fold(f32::MIN, f32::max);
        assert!(top > 0.0);
    }

    #[test]
    fn picking_finds_the_triangle_under_the_pointer_not_the_hull() {
        // An L of three unit squares: (0..2, 0..1) and (0..1, 1..2); the corner (1.5, 1.5) is in the hull
        // but over no triangle.
        let v = |x: f32, z: f32, y: f32| Vec3::new(x, y, z);
        let vertices = [
            v(0.0, 0.0, 0.0),
            v(2.0, 0.0, 1.0),
            v(2.0, 1.0, 1.0),
            v(1.0, 1.0, 0.5),
            v(1.0, 2.0, 0.5),
            v(0.0, 2.0, 0.0),
        ];
        let indices = [[0, 1, 2], [0, 2, 3], [0, 3, 4], [0, 4, 5]];
        let plan = MeshPlan::new(&vertices, &indices);
        assert_eq!(plan.distance_within(Vec2::new(1.5, 0.5), 0.1), Some(0.0));
        assert_eq!(plan.distance_within(Vec2::new(0.5, 1.5), 0.1), Some(0.0));
        assert_eq!(plan.distance_within(Vec2::new(1.5, 1.5), 0.1), None);
        let d = plan.distance_within(Vec2::new(1.5, 1.05), 0.1).unwrap();
        assert!((d - 0.05).abs() < 1e-6, "{d}");
        // The height of the surface under the pointer.
        let y = plan.height_at(Vec2::new(2.0, 0.5)).unwrap();
        assert!((y - 1.0).abs() < 1e-6, "{y}");
        assert_eq!(plan.height_at(Vec2::new(1.5, 1.5)), None);
        assert_eq!(plan.height_at(Vec2::new(0.0, 0.0)), Some(0.0));
        // The border of the L: its six sides.
        assert_eq!(plan.outline.len(), 6);
    }

    #[test]
    fn the_grid_finds_what_a_scan_finds_on_a_terrain() {
        let (vertices, indices) = crate::generate::terrain(5_000, 100.0, 3);
        let plan = MeshPlan::new(&vertices, &indices);
        assert!(!plan.grid.items.is_empty());
        let scan = MeshPlan {
            grid: TriGrid {
                always: (0..plan.tris.len() as u32).collect(),
                ..TriGrid::default()
            },
            ..plan.clone()
        };
        for i in 0..400 {
            let p = Vec2::new((i % 20) as f32 * 5.6 - 53.0, (i / 20) as f32 * 5.6 - 53.0);
            assert_eq!(
                plan.distance_within(p, 0.5),
                scan.distance_within(p, 0.5),
                "at {p}"
            );
            assert_eq!(plan.height_at(p), scan.height_at(p), "at {p}");
        }
    }
}
