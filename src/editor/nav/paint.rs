//! The navigation overlay in the top-down view: the chosen agent's places as one kept mesh (rebuilt only
//! when the map, the agent, the camera or the view change), its jump links as arcs bowed to one side (seen
//! from above a jump is a straight line), the start and goal, the path with each link in its colour, and the
//! walking agent's footprint.

use egui::{Color32, Pos2, Rect, Shape};
use glam::{Vec2, Vec3};

use super::geometry::{AgentGeometry, LinkKind, path_pieces};
use super::model::NavOverlay;
use crate::editor::document::DocKey;
use crate::editor::draw::{Batch, Camera};

/// What the kept places were drawn for.
#[derive(Clone, Copy, Debug, PartialEq)]
struct PaintKey {
    generation: u64,
    agent: usize,
    view: [u32; 7],
    dim: bool,
}

/// The places as last drawn.
#[derive(Default)]
pub struct NavPaintCache {
    kept: Option<(PaintKey, Shape)>,
}

fn rgb(c: [u8; 4]) -> Color32 {
    Color32::from_rgb(c[0], c[1], c[2])
}

/// A place's colour: teal low to pale yellow high over the agent's heights.
fn place_color(y: f32, (lo, hi): (f32, f32), dim: bool) -> Color32 {
    let t = if hi > lo {
        ((y - lo) / (hi - lo)).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let lerp = |a: f32, b: f32| (a + (b - a) * t) as u8;
    let c = Color32::from_rgb(lerp(40.0, 240.0), lerp(170.0, 230.0), lerp(200.0, 90.0));
    c.gamma_multiply(if dim { 0.15 } else { 0.4 })
}

/// The agent's places, one square of a cell each, culled to the view.
fn places_shape(a: &AgentGeometry, cell: f32, cam: &Camera, rect: Rect, dim: bool) -> Shape {
    let mut batch = Batch::default();
    let (lo, hi) = cam.visible(rect);
    let half = cell * 0.5 * 0.9;
    for p in &a.places {
        if p.x + half < lo.x || p.x - half > hi.x || p.z + half < lo.y || p.z - half > hi.y {
            continue;
        }
        let q0 = cam.screen_from_world(rect, Vec2::new(p.x - half, p.z - half));
        let q1 = cam.screen_from_world(rect, Vec2::new(p.x + half, p.z + half));
        // At least a pixel, so a zoomed-out map still shows.
        let q1 = Pos2::new(q1.x.max(q0.x + 1.0), q1.y.max(q0.y + 1.0));
        let quad = [q0, Pos2::new(q1.x, q0.y), q1, Pos2::new(q0.x, q1.y)];
        batch.fill_convex(&quad, place_color(p.y, a.heights, dim));
    }
    batch.finish()
}

impl NavPaintCache {
    /// The chosen agent's places (kept between frames); `None` when the overlay is off or has no map.
    pub fn places(
        &mut self,
        o: &NavOverlay,
        doc_key: DocKey,
        cam: &Camera,
        rect: Rect,
    ) -> Option<Shape> {
        if !o.on {
            return None;
        }
        let built = o.shown()?.clone();
        let data = built.outcome.as_ref().ok()?;
        let agent = data.geometry.agents.get(o.agent)?;
        let key = PaintKey {
            generation: built.generation,
            agent: o.agent,
            view: [
                cam.center.x,
                cam.center.y,
                cam.scale,
                rect.min.x,
                rect.min.y,
                rect.max.x,
                rect.max.y,
            ]
            .map(f32::to_bits),
            dim: !o.is_current(doc_key),
        };
        if let Some((k, shape)) = &self.kept
            && *k == key
        {
            return Some(shape.clone());
        }
        let shape = places_shape(agent, data.geometry.cell, cam, rect, key.dim);
        self.kept = Some((key, shape.clone()));
        Some(shape)
    }
}

/// A link from `a` to `b` seen from above, bowed to its left by an eighth of its length, with a head at `b`.
fn bowed(lines: &mut Batch, a: Pos2, b: Pos2, color: Color32) {
    let d = b - a;
    let bow = egui::vec2(d.y, -d.x) * 0.12;
    let pts: Vec<Pos2> = (0..=12)
        .map(|k| {
            let s = k as f32 / 12.0;
            a + d * s + bow * (4.0 * s * (1.0 - s))
        })
        .collect();
    lines.polyline(&pts, false, 1.6, color);
    if let [.., p, q] = pts.as_slice() {
        let dir = (*q - *p).normalized() * 7.0;
        let side = egui::vec2(-dir.y, dir.x) * 0.5;
        lines.line(*q, *q - dir + side, 1.6, color);
        lines.line(*q, *q - dir - side, 1.6, color);
    }
}

/// The overlay's marks over the level: jump and ride links, the start, the path and the agent.
pub fn paint_marks(o: &NavOverlay, doc_key: DocKey, cam: &Camera, rect: Rect, lines: &mut Batch) {
    if !o.on {
        return;
    }
    let s = |p: Vec3| cam.screen_from_world(rect, Vec2::new(p.x, p.z));
    let faint = !o.is_current(doc_key);
    let alpha = if faint { 0.35 } else { 1.0 };
    if let Some(data) = o.data()
        && let Some(a) = data.geometry.agents.get(o.agent)
    {
        let (lo, hi) = cam.visible(rect);
        let jump = rgb(LinkKind::Jump.rgba()).gamma_multiply(0.45 * alpha);
        for arc in &a.jumps {
            let (Some(p), Some(q)) = (arc.first(), arc.last()) else {
                continue;
            };
            let inside = |v: &Vec3| v.x >= lo.x && v.x <= hi.x && v.z >= lo.y && v.z <= hi.y;
            if inside(p) || inside(q) {
                bowed(lines, s(*p), s(*q), jump);
            }
        }
        // Rides: from the waiting place along the mover to the landing, with a head there.
        let ride = rgb(LinkKind::Ride.rgba()).gamma_multiply(0.6 * alpha);
        for r in &a.rides {
            let pts: Vec<Pos2> = r.iter().map(|p| s(*p)).collect();
            lines.polyline(&pts, false, 1.6, ride);
            if let [.., p, q] = pts.as_slice()
                && (*q - *p).length() > 1.0
            {
                let dir = (*q - *p).normalized() * 7.0;
                let side = egui::vec2(-dir.y, dir.x) * 0.5;
                lines.line(*q, *q - dir + side, 1.6, ride);
                lines.line(*q, *q - dir - side, 1.6, ride);
            }
        }
    }
    let white = Color32::WHITE.gamma_multiply(alpha);
    if let Some(start) = o.start {
        lines.circle(s(start), 7.0, 2.0, white);
    }
    if let Some(r) = &o.route {
        lines.circle(s(r.from), 7.0, 2.0, white);
        lines.circle(s(r.to), 7.0, 2.0, white);
        lines.line(
            s(r.to) - egui::vec2(5.0, 0.0),
            s(r.to) + egui::vec2(5.0, 0.0),
            2.0,
            white,
        );
        match (&r.path, o.data()) {
            (Some(path), Some(d)) => {
                let c = d
                    .map
                    .settings()
                    .agents
                    .get(r.agent)
                    .copied()
                    .unwrap_or_default();
                let g = d.map.settings().gravity.y;
                for (pts, kind) in path_pieces(path, r.from, r.to, &c, g) {
                    let color = rgb(kind.rgba()).gamma_multiply(alpha);
                    let (Some(a), Some(b)) = (pts.first(), pts.last()) else {
                        continue;
                    };
                    if matches!(kind, LinkKind::Jump | LinkKind::Drop) {
                        bowed(lines, s(*a), s(*b), color);
                    } else {
                        lines.line(s(*a), s(*b), 3.0, color);
                    }
                }
            }
            _ => {
                // No path: a dashed line from the start to the goal in the warning colour.
                let red = Color32::from_rgb(235, 60, 60).gamma_multiply(alpha);
                lines.dashed(&[s(r.from), s(r.to)], false, 2.0, red);
            }
        }
    }
    if let Some(w) = &o.walker {
        let r = (w.controller.radius * cam.scale).max(3.0);
        let c = rgb(super::AGENT_RGBA);
        lines.disc(s(w.body.feet), r, c.gamma_multiply(0.4));
        lines.circle(s(w.body.feet), r, 2.0, c);
    }
}
