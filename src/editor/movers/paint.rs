//! The movers' marks drawn in the top-down view: each path a polyline with its points, the moved object's
//! footprint where it is at the shown time, and the Mover tool's path in progress.

use egui::{Color32, Rect};
use glam::Vec2;

use super::marks::MoverMarks;
use crate::editor::draw::{Batch, Camera};
use crate::level::MoverPart;

/// The colour of movers' paths and places.
pub const MOVER: Color32 = Color32::from_rgb(255, 200, 60);

/// Draw `marks` into `lines`.
pub fn paint(lines: &mut Batch, rect: Rect, cam: &Camera, marks: &[MoverMarks]) {
    let s = |p: Vec2| cam.screen_from_world(rect, p);
    for m in marks {
        let pts: Vec<_> = m.path.iter().map(|p| s(*p)).collect();
        lines.polyline(&pts, false, 2.0, MOVER);
        for p in &pts {
            lines.disc(*p, 3.5, MOVER);
        }
        let (lo, hi) = m.now;
        let corners = [
            s(lo),
            s(Vec2::new(hi.x, lo.y)),
            s(hi),
            s(Vec2::new(lo.x, hi.y)),
        ];
        let w = if m.part == MoverPart::Whole { 2.0 } else { 1.0 };
        lines.polyline(&corners, true, w, MOVER.gamma_multiply(0.8));
    }
}

/// Draw the Mover tool's path in progress: from the pick through the clicked points.
pub fn paint_chain(lines: &mut Batch, rect: Rect, cam: &Camera, from: Vec2, chain: &[Vec2]) {
    let pts: Vec<_> = std::iter::once(from)
        .chain(chain.iter().copied())
        .map(|p| cam.screen_from_world(rect, p))
        .collect();
    lines.polyline(&pts, false, 2.0, MOVER);
    for p in &pts {
        lines.disc(*p, 3.5, MOVER);
    }
}

/// The colour of one-way marks (the 3D preview's [`super::marks3d::ONE_WAY_RGBA`]).
pub const ONE_WAY: Color32 = Color32::from_rgb(120, 230, 255);

/// Mark each one-way object at `spots` (`(x, z)`, its top's centre): a ring with a dot, the drawing
/// convention for an arrow pointing out of the page, since things pass through it upwards, towards the
/// viewer of the top-down view.
pub fn paint_one_way(lines: &mut Batch, rect: Rect, cam: &Camera, spots: &[Vec2]) {
    for p in spots {
        let c = cam.screen_from_world(rect, *p);
        lines.circle(c, 8.0, 1.5, ONE_WAY);
        lines.disc(c, 2.5, ONE_WAY);
    }
}
