//! A game's recording in the top-down view: the game's balls after its current frame's last step with that
//! step's contacts, and the selected query. The recording feature opens, receives and re-asks recordings
//! (`recording::live`); this draws what it holds with the view's camera.

use egui::{Color32, Rect};

use crate::editor::recording::{RecordingSession, query_shape};
use crate::editor::view2d::{Batch, Camera};
use crate::glam::Vec2;

/// The colour of a recorded query in the views.
const QUERY: Color32 = Color32::from_rgb(90, 220, 255);
/// The game's own balls (a recording's steps), apart from the editor's simulated ones.
const BALL: Color32 = Color32::from_rgb(255, 150, 90);

/// The recording's current frame in the top-down view: the game's balls after its last step with that
/// step's contacts, and the selected query.
pub(super) fn paint_recording_query(
    cam: &Camera,
    rect: Rect,
    lines: &mut Batch,
    session: Option<&RecordingSession>,
) {
    let Some(session) = session else {
        return;
    };
    let flat = |p: crate::glam::Vec3| cam.screen_from_world(rect, Vec2::new(p.x, p.z));
    if let Some(step) = session.frame().and_then(|f| f.steps.last()) {
        for b in &step.balls {
            lines.circle(flat(b.center), b.radius * cam.scale, 1.5, BALL);
        }
        for e in &step.events {
            lines.disc(flat(e.point), 3.0, Color32::WHITE);
            lines.line(
                flat(e.point),
                flat(e.point + e.normal * 0.5),
                1.0,
                Color32::WHITE,
            );
        }
    }
    let Some(q) = session.selected_query() else {
        return;
    };
    let shape = query_shape(q, 0.0);
    let s = flat;
    for (a, b) in &shape.lines {
        lines.line(s(*a), s(*b), 2.0, QUERY);
    }
    for p in &shape.points {
        lines.disc(s(*p), 4.0, QUERY);
    }
    for sp in &shape.spheres {
        lines.circle(s(sp.center), sp.radius * cam.scale, 1.5, QUERY);
    }
    for (a, b) in &shape.arrows {
        lines.line(s(*a), s(*b), 1.5, Color32::WHITE);
    }
}
