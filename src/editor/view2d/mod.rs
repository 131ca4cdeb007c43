//! The top-down view's camera and drawing: a true view from above (`x` to the right, `z` down the screen, `y`
//! toward the viewer), an adaptive metric grid, and every object batched into a few meshes, with what is off
//! screen culled and small details dropped when they would be under a pixel.

pub mod footprint;
pub(crate) mod gpu;
pub(crate) mod paint;
pub mod relief;
pub(crate) mod relief_paint;
pub mod scene;

use crate::editor::theme;
use egui::epaint::{Mesh, Vertex, WHITE_UV};
use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Shape, Stroke};
use glam::Vec2;

use crate::editor::view2d::footprint::Footprint;
use crate::editor::view2d::relief::HeightRange;

/// Pan and zoom of the top-down view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// World point `(x, z)` at the centre of the view.
    pub center: Vec2,
    /// Screen points per metre.
    pub scale: f32,
}

impl Default for Camera {
    fn default() -> Self {
        Self {
            center: Vec2::ZERO,
            scale: 20.0,
        }
    }
}

/// Smallest and largest zoom, screen points per metre.
pub const SCALE_RANGE: (f32, f32) = (1e-3, 1e5);

impl Camera {
    /// Screen position of world point `p` in a view occupying `rect`.
    #[must_use]
    pub fn screen_from_world(&self, rect: Rect, p: Vec2) -> Pos2 {
        let c = rect.center();
        Pos2::new(
            c.x + (p.x - self.center.x) * self.scale,
            c.y + (p.y - self.center.y) * self.scale,
        )
    }

    /// World point under screen position `s`.
    #[must_use]
    pub fn world_from_screen(&self, rect: Rect, s: Pos2) -> Vec2 {
        let c = rect.center();
        Vec2::new(
            self.center.x + (s.x - c.x) / self.scale,
            self.center.y + (s.y - c.y) / self.scale,
        )
    }

    /// The world rectangle `(min, max)` visible in `rect`.
    #[must_use]
    pub fn visible(&self, rect: Rect) -> (Vec2, Vec2) {
        (
            self.world_from_screen(rect, rect.min),
            self.world_from_screen(rect, rect.max),
        )
    }

    /// Zoom by `factor` keeping the world point under `anchor` (a screen position) where it is.
    pub fn zoom_about(&mut self, rect: Rect, anchor: Pos2, factor: f32) {
        if !(factor > 0.0) || !factor.is_finite() {
            return;
        }
        let before = self.world_from_screen(rect, anchor);
        self.scale = (self.scale * factor).clamp(SCALE_RANGE.0, SCALE_RANGE.1);
        let after = self.world_from_screen(rect, anchor);
        self.center += before - after;
    }

    /// Pan by a screen-space drag `delta`.
    pub fn pan_by(&mut self, delta: egui::Vec2) {
        self.center -= Vec2::new(delta.x, delta.y) / self.scale;
    }

    /// Show world bounds `(min, max)` with a margin; a point or empty bounds keep the zoom.
    pub fn frame(&mut self, rect: Rect, bounds: Option<(Vec2, Vec2)>) {
        let Some((min, max)) = bounds.filter(|(a, b)| a.is_finite() && b.is_finite()) else {
            return;
        };
        self.center = (min + max) * 0.5;
        let size = (max - min).max(Vec2::splat(1e-3));
        let fit = (rect.width() / size.x).min(rect.height() / size.y) * 0.9;
        if fit.is_finite() && fit > 0.0 {
            self.scale = fit.clamp(SCALE_RANGE.0, SCALE_RANGE.1);
        }
    }
}

/// Grid spacing in metres so that minor lines are at least `min_px` apart: 1, 2 or 5 times a power of ten.
#[must_use]
pub fn grid_step(scale: f32, min_px: f32) -> f32 {
    let raw = min_px / scale;
    let p = 10f32.powf(raw.log10().floor());
    for m in [1.0, 2.0, 5.0, 10.0] {
        if p * m >= raw {
            return p * m;
        }
    }
    p * 10.0
}

/// Draw the adaptive grid with its axes and metre labels along the view's left and bottom edges.
pub fn draw_grid(painter: &Painter, rect: Rect, cam: &Camera, dark: bool) {
    let minor = grid_step(cam.scale, 12.0);
    let (min, max) = cam.visible(rect);
    let minor_c = if dark {
        Color32::from_gray(38)
    } else {
        Color32::from_gray(225)
    };
    let major_c = if dark {
        Color32::from_gray(58)
    } else {
        Color32::from_gray(195)
    };
    let axis_c = if dark {
        Color32::from_rgb(110, 110, 140)
    } else {
        Color32::from_rgb(120, 120, 170)
    };
    let text_c = if dark {
        Color32::from_gray(150)
    } else {
        Color32::from_gray(90)
    };
    let mut batch = Batch::default();
    for (i, x) in grid_lines(min.x, max.x, minor) {
        let c = if i % 5 == 0 { major_c } else { minor_c };
        let sx = cam.screen_from_world(rect, Vec2::new(x, 0.0)).x;
        batch.line(
            Pos2::new(sx, rect.top()),
            Pos2::new(sx, rect.bottom()),
            1.0,
            c,
        );
    }
    for (i, z) in grid_lines(min.y, max.y, minor) {
        let c = if i % 5 == 0 { major_c } else { minor_c };
        let sy = cam.screen_from_world(rect, Vec2::new(0.0, z)).y;
        batch.line(
            Pos2::new(rect.left(), sy),
            Pos2::new(rect.right(), sy),
            1.0,
            c,
        );
    }
    let o = cam.screen_from_world(rect, Vec2::ZERO);
    batch.line(
        Pos2::new(o.x, rect.top()),
        Pos2::new(o.x, rect.bottom()),
        1.5,
        axis_c,
    );
    batch.line(
        Pos2::new(rect.left(), o.y),
        Pos2::new(rect.right(), o.y),
        1.5,
        axis_c,
    );
    painter.add(batch.finish());

    grid_labels(painter, rect, cam, minor, text_c);
}

/// Grid line indices and positions from `lo` to `hi`, `step` apart.
fn grid_lines(lo: f32, hi: f32, step: f32) -> impl Iterator<Item = (i64, f32)> {
    let first = (lo / step).floor() as i64;
    let last = (hi / step).ceil() as i64;
    // Never more lines than a screen can show (guards against an extreme zoom).
    (first..=last.min(first + 2000)).map(move |i| (i, i as f32 * step))
}

/// The major lines' metre labels along the bottom and left edges, and the axes' legend.
fn grid_labels(painter: &Painter, rect: Rect, cam: &Camera, minor: f32, text_c: Color32) {
    let major = minor * 5.0;
    let (min, max) = cam.visible(rect);
    let font = FontId::monospace(10.0);
    for (_, x) in grid_lines(min.x, max.x, major) {
        let sx = cam.screen_from_world(rect, Vec2::new(x, 0.0)).x;
        painter.text(
            Pos2::new(sx + 2.0, rect.bottom() - 2.0),
            Align2::LEFT_BOTTOM,
            format_metres(x, major),
            font.clone(),
            text_c,
        );
    }
    for (_, z) in grid_lines(min.y, max.y, major) {
        let sy = cam.screen_from_world(rect, Vec2::new(0.0, z)).y;
        painter.text(
            Pos2::new(rect.left() + 2.0, sy - 1.0),
            Align2::LEFT_BOTTOM,
            format_metres(z, major),
            font.clone(),
            text_c,
        );
    }
    painter.text(
        Pos2::new(rect.right() - 6.0, rect.top() + 4.0),
        Align2::RIGHT_TOP,
        format!("x →   z ↓   grid {} m", trim_number(minor)),
        font,
        text_c,
    );
}

/// A grid label: as many decimals as the step needs.
#[must_use]
pub fn format_metres(v: f32, step: f32) -> String {
    let decimals = (-step.log10().floor()).clamp(0.0, 6.0) as usize;
    let v = if v.abs() < step * 1e-3 { 0.0 } else { v };
    format!("{v:.decimals$}")
}

/// A number without trailing zeros: `0.5`, `2`, `0.01`.
#[must_use]
pub fn trim_number(v: f32) -> String {
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_owned() }
}

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
        let last = n as u32 - 1;
        for k in 0..n as u32 {
            let next = if k == last { 0 } else { k + 1 };
            let (a, b) = (first + 2 * k, first + 2 * next);
            self.mesh
                .indices
                .extend_from_slice(&[a, a + 1, b + 1, a, b + 1, b]);
        }
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
        self.line(a, b, width, color);
        let d = b - a;
        let len = d.length();
        if len > 0.0 {
            let dir = d / len;
            let side = egui::vec2(-dir.y, dir.x);
            let h = head.min(len * 0.5);
            self.line(b, b - dir * h + side * h * 0.5, width, color);
            self.line(b, b - dir * h - side * h * 0.5, width, color);
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
fn arc(c: Pos2, r: f32, start: f32, sweep: f32, n: usize) -> Vec<Pos2> {
    (0..=n)
        .map(|i| arc_point(c, r, start, sweep, i, n))
        .collect()
}

/// How an object is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// Not selected.
    Normal,
    /// Under the pointer.
    Hovered,
    /// Selected.
    Selected,
    /// Has a validation error.
    Faulty,
}

/// Colours of one look: the line and the translucent fill.
fn colors(look: Look, base: Color32) -> (Color32, Color32) {
    let line = match look {
        Look::Normal => base,
        Look::Hovered => Color32::from_rgb(255, 240, 150),
        Look::Selected => theme::SELECTED,
        Look::Faulty => Color32::from_rgb(240, 60, 60),
    };
    (line, line.gamma_multiply(0.25))
}

pub use crate::editor::theme::palette;

/// Extra per-object data the drawing needs beyond the footprint.
#[derive(Clone, Copy, Debug, Default)]
pub struct Extras {
    /// Ball velocity `(vx, vz)` (drawn as the distance covered in one second).
    pub velocity: Option<Vec2>,
    /// Triangle normal `(nx, nz)` projected on the floor, and its vertical part.
    pub normal: Option<(Vec2, f32)>,
    /// An entity's facing `(x, z)` (unit), drawn as an arrow out of its marker.
    pub facing: Option<Vec2>,
    /// The colour instead of the kind's (an entity's type colour).
    pub color: Option<Color32>,
    /// A volume rather than a solid (triggers): dashed outline, lighter fill.
    pub dashed: bool,
    /// A level triangle's corner heights (its fill is shaded by height; its edges are the relief's).
    pub heights: Option<[f32; 3]>,
}

/// Draws footprints into batches: fills first, then lines, so outlines stay visible.
pub struct Drawer<'a> {
    /// The view's rectangle.
    pub rect: Rect,
    /// The camera.
    pub cam: &'a Camera,
    /// Fills.
    pub fills: Batch,
    /// Lines.
    pub lines: Batch,
    /// Outline each wall's collision radius.
    pub wall_radii: bool,
    /// Plain walls that continue each other (the next starts where the last ended, in the same direction)
    /// drawn as one line: `(start, end, width)` of the run not drawn yet (see [`Drawer::flush`]). A maze's
    /// rows are runs of such walls, so a still frame of 100,000 walls draws far fewer quads.
    pub run: Option<(Vec2, Vec2, f32)>,
    /// The heights the relief's colours span: a plain level triangle is filled in its height's colour and
    /// leaves its edges to the relief (see `relief_paint`). `None`: triangles drawn in their kind's colour.
    pub heights: Option<HeightRange>,
}

impl Drawer<'_> {
    fn s(&self, p: Vec2) -> Pos2 {
        self.cam.screen_from_world(self.rect, p)
    }

    /// A wall: its segment, and its collision radius as a capsule outline once it is big enough to see.
    fn wall(&mut self, a: Vec2, b: Vec2, r: f32, look: Look, line: Color32, w: f32) {
        let rs = r * self.cam.scale;
        if look == Look::Normal && !(rs >= 2.0 && self.wall_radii) {
            if let Some((ra, rb, rw)) = &mut self.run
                && *rb == a
                && *rw == w + 0.5
                && (*rb - *ra).perp_dot(b - a) == 0.0
                && (*rb - *ra).dot(b - a) > 0.0
            {
                *rb = b;
                return;
            }
            self.flush();
            self.run = Some((a, b, w + 0.5));
            return;
        }
        let (sa, sb) = (self.s(a), self.s(b));
        let wall_line = if look == Look::Normal {
            palette::WALL
        } else {
            line
        };
        self.lines.line(sa, sb, w + 0.5, wall_line);
        // The collision radius, once it is big enough to see.
        if rs >= 2.0 && self.wall_radii {
            let c = if look == Look::Normal {
                palette::WALL_RADIUS
            } else {
                line
            };
            self.lines.capsule(sa, sb, rs, 1.0, c.gamma_multiply(0.8));
        }
    }

    /// A disc (balls, sphere triggers dashed, entities with their facing), with a ball's velocity arrow.
    fn disc(&mut self, c: Vec2, r: f32, (line, fill): (Color32, Color32), w: f32, extras: Extras) {
        let scale = self.cam.scale;
        let sc = self.s(c);
        let rs = (r * scale).max(2.0);
        self.fills.disc(sc, rs, fill);
        if extras.dashed {
            let ring = arc(sc, rs, 0.0, std::f32::consts::TAU, Batch::segments(rs) * 2);
            self.lines.dashed(&ring, true, w, line);
        } else {
            self.lines.circle(sc, rs, w, line);
        }
        if let Some(f) = extras.facing {
            let tip = self.s(c + f * ((rs * 2.2).max(14.0) / scale));
            self.lines.arrow(sc, tip, w, 7.0, line);
        }
        if let Some(v) = extras.velocity
            && v.length_squared() > 0.0
        {
            let tip = self.s(c + v);
            self.lines.arrow(sc, tip, 1.5, 8.0, line);
        }
    }

    /// Draw the pending run of plain walls.
    pub fn flush(&mut self) {
        if let Some((a, b, w)) = self.run.take() {
            let (sa, sb) = (self.s(a), self.s(b));
            self.lines.line(sa, sb, w, palette::WALL);
        }
    }

    /// Draw one object's footprint.
    pub fn draw(&mut self, fp: &Footprint, base: Color32, look: Look, extras: Extras) {
        if !matches!(fp, Footprint::Capsule { .. }) {
            self.flush();
        }
        let (line, fill) = colors(look, extras.color.unwrap_or(base));
        let fill = if extras.dashed {
            fill.gamma_multiply(0.5)
        } else {
            fill
        };
        let w = if look == Look::Normal { 1.5 } else { 2.5 };
        let scale = self.cam.scale;
        match fp {
            Footprint::Capsule { a, b, r } => self.wall(*a, *b, *r, look, line, w),
            Footprint::Circle { c, r } => self.disc(*c, *r, (line, fill), w, extras),
            Footprint::Polygon(poly) => {
                let pts: Vec<Pos2> = poly.iter().map(|p| self.s(*p)).collect();
                self.fills.fill_convex(&pts, fill);
                if extras.dashed {
                    self.lines.dashed(&pts, true, w, line);
                } else {
                    self.lines.polyline(&pts, true, w, line);
                }
            }
            Footprint::Area(poly) => {
                for t in crate::trigger::triangulate(poly).unwrap_or_default() {
                    let pts: Vec<Pos2> = t.iter().map(|p| self.s(*p)).collect();
                    self.fills.fill_convex(&pts, fill);
                }
                let pts: Vec<Pos2> = poly.iter().map(|p| self.s(*p)).collect();
                self.lines.dashed(&pts, true, w, line);
            }
            Footprint::Triangle(t) => {
                let pts: Vec<Pos2> = t.iter().map(|p| self.s(*p)).collect();
                let (line, fill) = match (look, self.heights, extras.heights) {
                    (Look::Normal, Some(range), Some(h)) => {
                        let [r, g, b] = range.color((h[0] + h[1] + h[2]) / 3.0);
                        let c = Color32::from_rgb(r, g, b);
                        (c, c.gamma_multiply(0.25))
                    }
                    _ => {
                        self.lines.polyline(&pts, true, w, line);
                        (line, fill)
                    }
                };
                self.fills.fill_convex(&pts, fill);
                if let Some((n, ny)) = extras.normal {
                    let c = self.s((t[0] + t[1] + t[2]) / 3.0);
                    // A tick along the normal's floor part; a dot when the triangle faces straight up/down.
                    if n.length_squared() > 1e-6 {
                        let tip = c + egui::vec2(n.x, n.y).normalized() * 12.0;
                        self.lines.line(c, tip, 1.5, line);
                    } else {
                        let r = if ny >= 0.0 { 3.0 } else { 1.5 };
                        self.lines.circle(c, r, 1.5, line);
                    }
                }
            }
            Footprint::Arrow { a, b } => {
                let (sa, sb) = (self.s(*a), self.s(*b));
                self.lines.arrow(sa, sb, w, 10.0, line);
                self.lines.circle(sa, 4.0, w, line);
            }
            Footprint::Line { p, dir } => {
                // Long enough to cross the view in either direction.
                let half = (self.rect.size().length() / scale).max(1.0) * 2.0
                    + (*p - self.cam.center).length();
                let (sa, sb) = (self.s(*p - *dir * half), self.s(*p + *dir * half));
                self.lines.line(sa, sb, w, line);
            }
            Footprint::Mesh(m) => {
                // Its edges are the relief's; a look outlines its border.
                if look != Look::Normal {
                    self.outline(&m.outline, w, line);
                }
            }
            Footprint::Everywhere => {}
        }
    }

    /// Floor segments, culled to the view; a segment inside one pixel is dropped (its neighbours in a chain
    /// cover it at this width).
    fn outline(&mut self, segments: &[[Vec2; 2]], w: f32, color: Color32) {
        let view = self.rect.expand(w);
        for [a, b] in segments {
            let (sa, sb) = (self.s(*a), self.s(*b));
            if (sa.x.floor(), sa.y.floor()) == (sb.x.floor(), sb.y.floor())
                || !Rect::from_two_pos(sa, sb).intersects(view)
            {
                continue;
            }
            self.lines.line(sa, sb, w, color);
        }
    }
}

/// Draw the walker's start: a disc of its radius with a facing arrow.
pub fn draw_walker(
    batch: &mut Batch,
    rect: Rect,
    cam: &Camera,
    pos: Vec2,
    facing_deg: f32,
    r: f32,
    look: Look,
) {
    let (line, _) = colors(look, palette::WALKER);
    let c = cam.screen_from_world(rect, pos);
    let rs = (r * cam.scale).max(5.0);
    batch.circle(c, rs, 2.0, line);
    // Facing 0 looks down -z, 90 down -x.
    let f = facing_deg.to_radians();
    let dir = Vec2::new(-f.sin(), -f.cos());
    let tip = cam.screen_from_world(rect, pos + dir * (rs * 2.5 / cam.scale));
    batch.arrow(c, tip, 2.0, 8.0, line);
}

/// Draw a translucent selection rectangle.
pub fn selection_rect(painter: &Painter, a: Pos2, b: Pos2) {
    let r = Rect::from_two_pos(a, b);
    painter.rect_filled(r, 0.0, Color32::from_rgba_unmultiplied(80, 140, 255, 30));
    painter.rect_stroke(
        r,
        0.0,
        Stroke::new(1.0, Color32::from_rgb(80, 140, 255)),
        egui::StrokeKind::Inside,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

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
        for (r, width) in [(0.5, 1.0), (3.0, 1.5), (5.0, 2.5), (40.0, 2.0), (200.0, 1.0)] {
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

    #[test]
    fn camera_round_trip_and_zoom_anchor() {
        let rect = Rect::from_min_size(Pos2::new(10.0, 20.0), egui::vec2(800.0, 600.0));
        let mut cam = Camera {
            center: Vec2::new(3.0, -2.0),
            scale: 25.0,
        };
        let w = Vec2::new(7.5, 4.25);
        let s = cam.screen_from_world(rect, w);
        assert!((cam.world_from_screen(rect, s) - w).length() < 1e-4);
        let anchor = Pos2::new(100.0, 500.0);
        let under = cam.world_from_screen(rect, anchor);
        cam.zoom_about(rect, anchor, 1.7);
        assert!((cam.world_from_screen(rect, anchor) - under).length() < 1e-3);
        cam.zoom_about(rect, anchor, f32::NAN);
        assert_eq!(cam.scale, 25.0 * 1.7);
    }

    #[test]
    fn plain_walls_that_continue_each_other_are_one_line() {
        let cam = Camera::default();
        let rect = Rect::from_min_size(Pos2::ZERO, egui::vec2(800.0, 600.0));
        let draw = |walls: &[(Vec2, Vec2)], look: Look| {
            let mut d = Drawer {
                rect,
                cam: &cam,
                fills: Batch::default(),
                lines: Batch::default(),
                wall_radii: false,
                run: None,
                heights: None,
            };
            for &(a, b) in walls {
                let fp = Footprint::Capsule { a, b, r: 0.1 };
                d.draw(&fp, palette::WALL, look, Extras::default());
            }
            d.flush();
            d.lines.vertices()
        };
        let v = |x: f32, z: f32| Vec2::new(x, z);
        let row = [
            (v(0.0, 0.0), v(2.0, 0.0)),
            (v(2.0, 0.0), v(4.0, 0.0)),
            (v(4.0, 0.0), v(6.0, 0.0)),
        ];
        assert_eq!(draw(&row, Look::Normal), 4, "one quad for the row");
        // A turn, a gap, or walking back breaks the run; selected walls are drawn one by one.
        let turn = [(v(0.0, 0.0), v(2.0, 0.0)), (v(2.0, 0.0), v(2.0, 2.0))];
        let gap = [(v(0.0, 0.0), v(2.0, 0.0)), (v(3.0, 0.0), v(5.0, 0.0))];
        let back = [(v(0.0, 0.0), v(2.0, 0.0)), (v(2.0, 0.0), v(1.0, 0.0))];
        for walls in [&turn[..], &gap, &back] {
            assert_eq!(draw(walls, Look::Normal), 8);
        }
        assert_eq!(draw(&row, Look::Selected), 12);
    }

    #[test]
    fn grid_steps_are_one_two_five() {
        assert_eq!(grid_step(20.0, 12.0), 1.0);
        assert_eq!(grid_step(100.0, 12.0), 0.2);
        assert_eq!(grid_step(1.0, 12.0), 20.0);
        assert_eq!(trim_number(0.5), "0.5");
        assert_eq!(trim_number(2.0), "2");
        assert_eq!(format_metres(2.5, 0.5), "2.5");
    }
}
