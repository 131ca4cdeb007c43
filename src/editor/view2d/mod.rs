//! The top-down view's camera and drawing: a true view from above (`x` to the right, `z` down the screen, `y`
//! toward the viewer), an adaptive metric grid, and every object batched into a few meshes, with what is off
//! screen culled and small details dropped when they would be under a pixel.

pub mod footprint;
pub(crate) mod gpu;
pub mod relief;
pub(crate) mod relief_paint;
pub mod scene;

use crate::editor::theme;
use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Stroke};
use glam::Vec2;

use crate::editor::draw::batch::arc;
pub use crate::editor::draw::{Batch, Camera, SCALE_RANGE, plane};
use crate::editor::view2d::footprint::Footprint;
use crate::editor::view2d::relief::HeightRange;

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
    /// A greybox sector's floor height: filled in its height's colour; its edges are drawn by kind.
    pub floor: Option<f32>,
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
                // A sector is filled by its floor's height (its edges are drawn by kind over the level).
                let fill = match (look, self.heights, extras.floor) {
                    (Look::Normal, Some(range), Some(f)) => {
                        let [r, g, b] = range.color(f);
                        Color32::from_rgb(r, g, b).gamma_multiply(0.35)
                    }
                    _ => fill,
                };
                for t in crate::trigger::triangulate(poly).unwrap_or_default() {
                    let pts: Vec<Pos2> = t.iter().map(|p| self.s(*p)).collect();
                    self.fills.fill_convex(&pts, fill);
                }
                let pts: Vec<Pos2> = poly.iter().map(|p| self.s(*p)).collect();
                if extras.floor.is_some() && look == Look::Normal {
                    // Its outline is the sectors' edge layer's.
                } else if extras.dashed || extras.floor.is_some() {
                    self.lines.dashed(&pts, true, w, line);
                } else {
                    self.lines.polyline(&pts, true, w, line);
                }
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

/// What the kept meshes of the level were drawn for .
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LevelPaintKey {
    pub(crate) doc: crate::editor::document::DocKey,
    pub(crate) problems: Option<crate::editor::document::DocKey>,
    /// Camera centre and scale, then the view's rectangle, as bits.
    pub(crate) view: [u32; 7],
    pub(crate) selection: u64,
    pub(crate) wall_radii: bool,
    pub(crate) simulated: bool,
    /// The greybox storey filter, as bits.
    pub(crate) storey: Option<[u32; 2]>,
}

/// The top-down view's state: its camera, framing, the pointer over it and the drawn scene with the
/// level's meshes as last drawn.
pub struct TopDown {
    /// The top-down camera.
    pub cam: Camera,
    /// The view has been framed on the document.
    pub(crate) framed: bool,
    /// The view's rectangle as last drawn.
    pub(crate) rect: Rect,
    /// The world point under the pointer this frame.
    pub(crate) cursor_world: Option<Vec2>,
    /// The last world point the pointer was over.
    pub(crate) last_cursor_world: Option<Vec2>,
    /// Frame the selection at the next frame.
    pub(crate) frame_selection: bool,
    /// Space was held to pan (its release is then no Play / Pause).
    pub(crate) space_panned: bool,
    /// The drawn scene: every object's footprint, kept per document key.
    pub(crate) scene: scene::Scene,
    /// The level's meshes as last drawn, with what they were drawn for.
    pub(crate) level_paint: Option<(LevelPaintKey, gpu::Layer)>,
}

impl Default for TopDown {
    fn default() -> Self {
        Self {
            cam: Camera::default(),
            framed: false,
            rect: Rect::NOTHING,
            cursor_world: None,
            last_cursor_world: None,
            frame_selection: false,
            space_panned: false,
            scene: scene::Scene::default(),
            level_paint: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
