//! The level's character in the top-down view: where it is (footprint and facing), what stopped its last
//! move, the selected move's workings (the body's footprint at each contact, the sweeps' paths, the
//! normals, the step probes) and the recording's selected character move. The character feature hands
//! world-space marks ([`MoveMarks`]); these draw them with the top-down view's camera.

use egui::{Color32, Rect};
use glam::{Vec2, Vec3};

use super::Preview3;
use crate::editor::character::{MarkKind, MoveMarks, marks};
use crate::editor::view2d::{Batch, Camera};

/// The top-down view's character marks: the recording's selected character move, and in Walk mode the
/// selected move's workings, the character (footprint and facing) and what stopped its last move.
pub(super) fn paint_character_moves(
    cam: &Camera,
    rect: Rect,
    lines: &mut Batch,
    recording: Option<&MoveMarks>,
    preview: &Preview3,
) {
    if let Some(m) = recording {
        paint_move_marks(cam, rect, lines, m);
    }
    if !preview.walking_character() {
        return;
    }
    if let Some(m) = preview.selected_character_move() {
        paint_move_marks(cam, rect, lines, &MoveMarks::of(&m.controller, &m.result));
    }
    let w = &preview.character;
    let s = |p: Vec3| cam.screen_from_world(rect, Vec2::new(p.x, p.z));
    if let Some(last) = w.last()
        && let Some(at) = last.result.limit.as_ref().and_then(marks::limit_at)
    {
        cross(lines, s(at), 6.0, rgb(MarkKind::Limit));
    }
    let c = w.last().map(|m| m.controller).unwrap_or_default();
    let feet = w.body.feet;
    let r = (c.radius * cam.scale).max(3.0);
    let colour = rgb(MarkKind::End);
    lines.disc(s(feet), r, colour.gamma_multiply(0.35));
    lines.circle(s(feet), r, 2.0, colour);
    let f = preview.cam.walker.forward();
    let tip = feet + Vec3::new(f.x, 0.0, f.y) * (c.radius * 2.5).max(0.5);
    lines.arrow(s(feet), s(tip), 2.0, 8.0, colour);
}

/// One move's marks from above: the body's footprint at each contact, each sweep's path, the normals
/// (their horizontal part; a vertical one is a dot) and where a limit stopped it.
fn paint_move_marks(cam: &Camera, rect: Rect, lines: &mut Batch, m: &MoveMarks) {
    let s = |p: Vec3| cam.screen_from_world(rect, Vec2::new(p.x, p.z));
    let r = (m.radius * cam.scale).max(2.0);
    for (feet, kind) in &m.bodies {
        let width = if *kind == MarkKind::End { 2.0 } else { 1.2 };
        lines.circle(s(*feet), r, width, rgb(*kind));
    }
    for (a, b, kind) in &m.paths {
        lines.line(s(*a), s(*b), 1.5, rgb(*kind));
    }
    for (p, n, kind) in &m.normals {
        let flat = Vec3::new(n.x, 0.0, n.z);
        if flat.length() > 0.05 {
            lines.arrow(s(*p), s(*p + flat * 0.5), 1.5, 6.0, rgb(*kind));
        }
        lines.disc(s(*p), 2.5, rgb(*kind));
    }
    if let Some(at) = m.limit_at {
        cross(lines, s(at), 7.0, rgb(MarkKind::Limit));
    }
}

fn rgb(kind: MarkKind) -> Color32 {
    let [r, g, b, _] = kind.rgba();
    Color32::from_rgb(r, g, b)
}

fn cross(lines: &mut Batch, c: egui::Pos2, size: f32, colour: Color32) {
    lines.line(
        c + egui::vec2(-size, -size),
        c + egui::vec2(size, size),
        2.0,
        colour,
    );
    lines.line(
        c + egui::vec2(-size, size),
        c + egui::vec2(size, -size),
        2.0,
        colour,
    );
}
