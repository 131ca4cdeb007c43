//! [`Batch`]: shapes gathered into one untextured mesh (lines, joined strips, rings, discs, arrows), and the
//! circle and arc points it draws with.

use egui::epaint::{Mesh, Vertex, WHITE_UV};
use egui::{Color32, Pos2, Shape};

/// Shapes gathered into one untextured mesh: one draw call, no per-shape tessellation.
#[derive(Default)]
pub struct Batch {
    mesh: Mesh,
}

impl Batch {
    fn vertex(&mut self, pos: Pos2, color: Color32) -> u32 {
        let i = self.mesh.vertices.len() as u32;
        self.mesh.vertices.push(Vertex {
            pos,
            uv: WHITE_UV,
            color,
        });
        i
    }

    /// A straight line `width` points wide.
    pub fn line(&mut self, a: Pos2, b: Pos2, width: f32, color: Color32) {
        self.line2(a, b, width, color, color);
    }

    /// A straight line `width` points wide, its colour running from `ca` at `a` to `cb` at `b`.
    pub fn line2(&mut self, a: Pos2, b: Pos2, width: f32, ca: Color32, cb: Color32) {
        let d = b - a;
        let len = screen_length(d);
        let n = if len > 0.0 {
            egui::vec2(-d.y, d.x) / len * (width * 0.5)
        } else {
            egui::vec2(width * 0.5, 0.0)
        };
        self.quad(a, b, n, ca, cb);
    }

    /// The quad of a line from `a` to `b` whose half width across is the vector `n`.
    fn quad(&mut self, a: Pos2, b: Pos2, n: egui::Vec2, ca: Color32, cb: Color32) {
        let i = self.vertex(a + n, ca);
        self.vertex(a - n, ca);
        self.vertex(b - n, cb);
        self.vertex(b + n, cb);
        self.mesh.add_triangle(i, i + 1, i + 2);
        self.mesh.add_triangle(i, i + 2, i + 3);
    }

    /// A polyline, closed or open.
    pub fn polyline(&mut self, pts: &[Pos2], closed: bool, width: f32, color: Color32) {
        for w in pts.windows(2) {
            self.line(w[0], w[1], width, color);
        }
        if closed && pts.len() > 2 {
            self.line(pts[pts.len() - 1], pts[0], width, color);
        }
    }

    /// A polyline as one joined strip: two vertices a point (mitred joins, the mitre capped at twice the
    /// half width) instead of [`Batch::polyline`]'s quad a segment. Half the vertices, and a translucent line
    /// has no darker overlaps at its joins: for the debugger's thousand trails and ball outlines a frame.
    pub fn strip(&mut self, pts: &[Pos2], closed: bool, width: f32, color: Color32) {
        let n = pts.len();
        if n < 2 {
            return;
        }
        let closed = closed && n > 2;
        let half = width * 0.5;
        let unit = |a: Pos2, b: Pos2| {
            let d = b - a;
            let len = screen_length(d);
            (len > 0.0).then(|| d / len)
        };
        let segments = if closed { n } else { n - 1 };
        self.reserve(2 * n, 2 * segments);
        let first = self.mesh.vertices.len() as u32;
        // Each segment's direction is found once and serves both of its ends.
        let closing = if closed {
            unit(pts[n - 1], pts[0])
        } else {
            None
        };
        let mut prev = closing;
        for i in 0..n {
            let next = if i + 1 < n {
                unit(pts[i], pts[i + 1])
            } else {
                closing
            };
            let offset = match (prev, next) {
                (Some(a), Some(b)) => {
                    // The mitre along mid = a + b, of length half / cos(half the turn), capped at twice the
                    // half width. With unit a and b: mid · b = 1 + a · b = |mid|² / 2 and
                    // cos² = (mid · b)² / |mid|² = (mid · b) / 2, so mid times half / (mid · b) is the mitre,
                    // without a square root while the turn is under 120 degrees (mid · b >= 1/2).
                    let mid = a + b;
                    let along = mid.dot(b);
                    let perp = egui::vec2(-mid.y, mid.x);
                    if along >= 0.5 {
                        perp * (half / along)
                    } else if along > 1e-6 {
                        perp * (2.0 * half / (2.0 * along).sqrt())
                    } else {
                        egui::vec2(-b.y, b.x) * half
                    }
                }
                (Some(d), None) | (None, Some(d)) => egui::vec2(-d.y, d.x) * half,
                (None, None) => egui::vec2(half, 0.0),
            };
            self.vertex(pts[i] + offset, color);
            self.vertex(pts[i] - offset, color);
            prev = next;
        }
        self.strip_indices(first, n, segments);
    }

    /// The two triangles of each of `segments` segments of a strip of `n` points (two vertices each, from
    /// vertex `first` on); segment `n - 1`, when asked for, closes the strip back to its first point.
    fn strip_indices(&mut self, first: u32, n: usize, segments: usize) {
        let last = n as u32 - 1;
        for k in 0..segments as u32 {
            let next = if k == last { 0 } else { k + 1 };
            let (a, b) = (first + 2 * k, first + 2 * next);
            self.mesh
                .indices
                .extend_from_slice(&[a, a + 1, b + 1, a, b + 1, b]);
        }
    }

    /// A dashed polyline (6 points on, 4 off), closed or open. An edge that would need more than 500
    /// dashes (zoomed far in) is drawn solid.
    pub fn dashed(&mut self, pts: &[Pos2], closed: bool, width: f32, color: Color32) {
        const ON: f32 = 6.0;
        const PERIOD: f32 = 10.0;
        let n = pts.len();
        let edges = if closed && n > 2 {
            n
        } else {
            n.saturating_sub(1)
        };
        for i in 0..edges {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            let len = (b - a).length();
            if !len.is_finite() || len / PERIOD > 500.0 {
                self.line(a, b, width, color);
                continue;
            }
            let dir = (b - a) / len.max(f32::MIN_POSITIVE);
            let mut t = 0.0;
            while t < len {
                self.line(a + dir * t, a + dir * (t + ON).min(len), width, color);
                t += PERIOD;
            }
        }
    }

    /// A filled convex polygon (a fan).
    pub fn fill_convex(&mut self, pts: &[Pos2], color: Color32) {
        if pts.len() < 3 {
            return;
        }
        let first = self.vertex(pts[0], color);
        for p in &pts[1..] {
            self.vertex(*p, color);
        }
        for k in 1..pts.len() as u32 - 1 {
            self.mesh.add_triangle(first, first + k, first + k + 1);
        }
    }

    /// Room for `vertices` more vertices and `triangles` more triangles.
    pub fn reserve(&mut self, vertices: usize, triangles: usize) {
        self.mesh.reserve_vertices(vertices);
        self.mesh.reserve_triangles(triangles);
    }

    /// Segments for a circle of `r` screen points: fewer when small.
    pub(crate) fn segments(r: f32) -> usize {
        ((r * 0.8) as usize).clamp(8, 64)
    }

    /// A circle's outline (its points on the stack: a thousand balls a frame allocate nothing).
    pub fn circle(&mut self, c: Pos2, r: f32, width: f32, color: Color32) {
        let (pts, len) = circle_points(c, r, Self::segments(r));
        self.polyline(&pts[..len], true, width, color);
    }

    /// A dashed circle's outline.
    pub fn dashed_circle(&mut self, c: Pos2, r: f32, width: f32, color: Color32) {
        let pts = arc(c, r, 0.0, std::f32::consts::TAU, Self::segments(r) * 2);
        self.dashed(&pts, true, width, color);
    }

    /// A circle's outline as one joined strip: the same vertices and triangles as [`Batch::strip`] gives
    /// the circle's points, found without a square root or a per-point direction. On a regular polygon the
    /// mitre at each corner is radial, half the width over the cosine of half the turn, so each corner is
    /// its unit direction from the table at two radii. (A thousand balls a frame while playing.)
    pub fn ring(&mut self, c: Pos2, r: f32, width: f32, color: Color32) {
        let unit = circle_unit(Self::segments(r));
        let n = unit.len();
        let mitre = width * 0.5 / (std::f32::consts::PI / n as f32).cos();
        // The strip's order: its first vertex of a point is on the left of the way round, here inside.
        let (inner, outer) = (r - mitre, r + mitre);
        self.reserve(2 * n, 2 * n);
        let first = self.mesh.vertices.len() as u32;
        for u in unit {
            self.vertex(c + *u * inner, color);
            self.vertex(c + *u * outer, color);
        }
        self.strip_indices(first, n, n);
    }

    /// A filled disc: a fan over the circle's points, from the table (nothing computed per point but the
    /// scaling).
    pub fn disc(&mut self, c: Pos2, r: f32, color: Color32) {
        let unit = circle_unit(Self::segments(r));
        let n = unit.len() as u32;
        self.reserve(unit.len(), unit.len() - 2);
        let first = self.mesh.vertices.len() as u32;
        for u in unit {
            self.vertex(c + *u * r, color);
        }
        for k in 1..n - 1 {
            self.mesh.add_triangle(first, first + k, first + k + 1);
        }
    }

    /// The outline of a capsule around screen segment `ab` with screen radius `r` (seed 003's debug draw of
    /// a wall's collision distance).
    pub fn capsule(&mut self, a: Pos2, b: Pos2, r: f32, width: f32, color: Color32) {
        let d = b - a;
        let angle = d.y.atan2(d.x);
        let n = Self::segments(r) / 2;
        let half = std::f32::consts::PI;
        let mut pts = arc(b, r, angle - half / 2.0, half, n);
        pts.extend(arc(a, r, angle + half / 2.0, half, n));
        self.polyline(&pts, true, width, color);
    }

    /// An arrow from `a` to `b` with a head of `head` points.
    pub fn arrow(&mut self, a: Pos2, b: Pos2, width: f32, head: f32, color: Color32) {
        let d = b - a;
        let len = screen_length(d);
        if len > 0.0 {
            // The shaft's quad from the direction the head needs anyway (the same numbers as `line`).
            let dir = d / len;
            let side = egui::vec2(-dir.y, dir.x);
            self.quad(a, b, side * (width * 0.5), color, color);
            let h = head.min(len * 0.5);
            self.line(b, b - dir * h + side * h * 0.5, width, color);
            self.line(b, b - dir * h - side * h * 0.5, width, color);
        } else {
            self.line(a, b, width, color);
        }
    }

    /// Vertices added so far.
    #[must_use]
    pub fn vertices(&self) -> usize {
        self.mesh.vertices.len()
    }

    /// Whether nothing has been added.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.mesh.is_empty()
    }

    /// The mesh as a shape.
    pub fn finish(self) -> Shape {
        Shape::mesh(self.mesh)
    }

    /// The mesh built so far.
    #[must_use]
    pub fn into_mesh(self) -> Mesh {
        self.mesh
    }
}

/// [`arc_direction`]s of a whole circle for each `n` in `0..=64`, computed once: the same numbers as
/// [`arc_point`] without a sine and cosine per point. Entry `n` has `n + 1` directions, the last at angle
/// `TAU` (the first's, up to rounding).
fn circle_table() -> &'static [Vec<egui::Vec2>] {
    static UNIT: std::sync::OnceLock<Vec<Vec<egui::Vec2>>> = std::sync::OnceLock::new();
    UNIT.get_or_init(|| {
        (0..=64usize)
            .map(|n| {
                (0..=n)
                    .map(|i| arc_direction(0.0, std::f32::consts::TAU, i, n))
                    .collect()
            })
            .collect()
    })
}

/// The `n` distinct unit directions of a circle of `n` segments (`n` clamped to `3..=64`).
fn circle_unit(n: usize) -> &'static [egui::Vec2] {
    let n = n.clamp(3, 64);
    &circle_table()[n][..n]
}

/// [`arc`]'s points of a whole circle (`n + 1` of them, the same numbers), in an array: `n` is at most 64
/// ([`Batch::segments`]).
fn circle_points(c: Pos2, r: f32, n: usize) -> ([Pos2; 65], usize) {
    let n = n.clamp(1, 64);
    let mut pts = [Pos2::ZERO; 65];
    for (p, u) in pts.iter_mut().zip(&circle_table()[n]) {
        *p = c + *u * r;
    }
    (pts, n + 1)
}

/// Point `i` of `n` segments on an arc of `r` around `c` from angle `start` over `sweep`.
#[inline]
fn arc_point(c: Pos2, r: f32, start: f32, sweep: f32, i: usize, n: usize) -> Pos2 {
    c + arc_direction(start, sweep, i, n) * r
}

/// `(cos t, sin t)` at point `i` of `n` segments on an arc from angle `start` over `sweep`.
#[inline]
fn arc_direction(start: f32, sweep: f32, i: usize, n: usize) -> egui::Vec2 {
    let t = start + sweep * i as f32 / n as f32;
    egui::vec2(t.cos(), t.sin())
}

/// The length of a screen-space vector: `sqrt(x² + y²)`, which is several times faster than egui's `hypot`,
/// and `hypot` only where the squares overflow (a point past 1e19 screen points, zoomed absurdly far in).
#[inline]
pub(crate) fn screen_length(d: egui::Vec2) -> f32 {
    let len = (d.x * d.x + d.y * d.y).sqrt();
    if len.is_finite() { len } else { d.length() }
}

/// Points on an arc of `r` around `c` from angle `start` over `sweep`, `n` segments.
pub(crate) fn arc(c: Pos2, r: f32, start: f32, sweep: f32, n: usize) -> Vec<Pos2> {
    (0..=n)
        .map(|i| arc_point(c, r, start, sweep, i, n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arrows_shaft_is_the_line_it_replaces_and_a_zero_arrow_stays_finite() {
        for (a, b) in [
            (Pos2::new(3.5, -2.0), Pos2::new(40.25, 17.0)),
            (Pos2::new(0.0, 0.0), Pos2::new(0.0, -9.0)),
            (Pos2::new(1e6, 3.0), Pos2::new(1e6 + 0.5, 3.25)),
        ] {
            let (mut arrow, mut line) = (Batch::default(), Batch::default());
            arrow.arrow(a, b, 1.5, 7.0, Color32::WHITE);
            line.line(a, b, 1.5, Color32::WHITE);
            let (arrow, line) = (arrow.into_mesh(), line.into_mesh());
            assert_eq!(arrow.vertices.len(), 12);
            assert_eq!(arrow.vertices[..4], line.vertices[..]);
            assert!(arrow.is_valid());
        }
        let mut b = Batch::default();
        b.arrow(
            Pos2::new(2.0, 2.0),
            Pos2::new(2.0, 2.0),
            1.0,
            5.0,
            Color32::WHITE,
        );
        let m = b.into_mesh();
        assert_eq!(m.vertices.len(), 4);
        assert!(
            m.vertices
                .iter()
                .all(|v| v.pos.x.is_finite() && v.pos.y.is_finite())
        );
    }

    #[test]
    fn a_strip_is_two_vertices_a_point_and_covers_its_line() {
        let mut b = Batch::default();
        let pts = [
            Pos2::new(0.0, 0.0),
            Pos2::new(10.0, 0.0),
            Pos2::new(10.0, 10.0),
        ];
        b.strip(&pts, false, 2.0, Color32::WHITE);
        let m = b.into_mesh();
        assert_eq!((m.vertices.len(), m.indices.len()), (6, 12));
        // The ends are offset by the half width across the line; the corner by the mitre (sqrt 2 each way).
        assert_eq!(m.vertices[0].pos, Pos2::new(0.0, 1.0));
        assert_eq!(m.vertices[1].pos, Pos2::new(0.0, -1.0));
        let corner = m.vertices[2].pos - Pos2::new(10.0, 0.0);
        assert!(
            (corner - egui::vec2(-1.0, 1.0)).length() < 1e-5,
            "{corner:?}"
        );
        assert!(m.is_valid());
        // A closed ring joins its last point to its first: as many segments as points.
        let mut b = Batch::default();
        b.ring(Pos2::new(50.0, 50.0), 5.0, 1.5, Color32::WHITE);
        let m = b.into_mesh();
        let n = Batch::segments(5.0);
        assert_eq!((m.vertices.len(), m.indices.len()), (2 * n, 6 * n));
        assert!(m.is_valid());
        for v in &m.vertices {
            let r = (v.pos - Pos2::new(50.0, 50.0)).length();
            assert!((4.0..=6.0).contains(&r), "{r}");
        }
    }

    #[test]
    fn a_ring_and_a_disc_from_the_table_match_the_strip_and_fan_of_the_circles_points() {
        for (r, width) in [
            (0.5, 1.0),
            (3.0, 1.5),
            (5.0, 2.5),
            (40.0, 2.0),
            (200.0, 1.0),
        ] {
            let c = Pos2::new(37.25, -12.5);
            let (pts, len) = circle_points(c, r, Batch::segments(r));
            let (mut table, mut general) = (Batch::default(), Batch::default());
            table.ring(c, r, width, Color32::WHITE);
            general.strip(&pts[..len - 1], true, width, Color32::WHITE);
            table.disc(c, r, Color32::RED);
            general.fill_convex(&pts[..len - 1], Color32::RED);
            let (a, b) = (table.into_mesh(), general.into_mesh());
            assert!(a.is_valid());
            assert_eq!(a.indices, b.indices, "r {r}");
            assert_eq!(a.vertices.len(), b.vertices.len());
            for (u, v) in a.vertices.iter().zip(&b.vertices) {
                assert_eq!(u.color, v.color);
                let tolerance = 1e-5 * (r + width + c.x.abs());
                assert!((u.pos - v.pos).length() <= tolerance, "r {r}: {u:?} {v:?}");
            }
        }
    }

    #[test]
    fn degenerate_strips_draw_nothing_or_stay_finite() {
        let mut b = Batch::default();
        b.strip(&[], false, 1.0, Color32::WHITE);
        b.strip(&[Pos2::new(1.0, 1.0)], true, 1.0, Color32::WHITE);
        assert!(b.is_empty());
        // Repeated points, a turn straight back, a closed pair: finite vertices, valid indices.
        let p = Pos2::new(3.0, 4.0);
        b.strip(&[p, p, p], false, 1.0, Color32::WHITE);
        b.strip(
            &[p, p + egui::vec2(5.0, 0.0), p],
            false,
            1.0,
            Color32::WHITE,
        );
        b.strip(&[p, p + egui::vec2(0.0, 5.0)], true, 1.0, Color32::WHITE);
        let m = b.into_mesh();
        assert!(m.is_valid());
        assert!(
            m.vertices
                .iter()
                .all(|v| v.pos.x.is_finite() && v.pos.y.is_finite())
        );
    }
}
