//! What the features show in the 3D preview, turned into the view's plain lines and spheres: the debugger's
//! balls and `Marks`, a recording's step, query and character move, the probe ray, the walking character
//! and the selected move's workings, the reachability overlay's pins, path and labels. The features hand
//! world-space data; this is the one place that knows both them and the view's primitives.

use std::sync::Arc;

use egui::{Color32, Ui};
use glam::Vec3;

use crate::editor::analysis::probe::ProbeResult;
use crate::editor::character::{CharacterWalk, MarkKind, MoveMarks};
use crate::editor::debugger::overlay::Marks;
use crate::editor::debugger::panel::DebugPanel;
use crate::editor::document::{DocKey, Document};
use crate::editor::draw::translucent::Translucent;
use crate::editor::heights::{Heights, Verdict};
use crate::editor::movers::points3d::PathPoints;
use crate::editor::reach::ReachOverlay;
use crate::editor::reach::geometry::Label;
use crate::editor::reach::model::{Target, TargetView};
use crate::editor::reach::paint::place_label;
use crate::editor::theme;
use crate::editor::view3d::View3d;
use crate::editor::view3d::scene::{CHARACTER_RGBA, Lines, Paint, Spheres};
use crate::level::ObjectId;
use crate::shape::Ray;

/// What the preview reads each frame.
pub struct Input3<'a> {
    /// The level, selection and revision.
    pub doc: &'a Document,
    /// The debugger (balls and overlays of the current frame).
    pub debug: &'a DebugPanel,
    /// The debugger's overlays at its current frame.
    pub marks: &'a Marks,
    /// Each object's colour.
    pub paint: Paint<'a>,
    /// The probe ray and length.
    pub probe: Option<(Ray, f32)>,
    /// The probe's hits.
    pub probe_result: Option<&'a ProbeResult>,
    /// Clicks set the probe instead of selecting.
    pub probe_tool: bool,
    /// Outline wall collision radii.
    pub wall_radii: bool,
    /// The level's runtime scene (walking and picking query it).
    pub scene: Arc<crate::scene::Scene>,
    /// The selected query of an open recording (a game's ray, sweep, overlap or slide).
    pub recording_query: Option<crate::editor::recording::QueryShape>,
    /// The last simulation step the game recorded in the recording's current frame: its balls and contacts.
    pub recording_step: Option<&'a crate::record::StepRecord>,
    /// The workings of the recording's selected character move.
    pub recording_move: Option<MoveMarks>,
    /// The reachability overlay, when it is on.
    pub reach: Option<Reach3<'a>>,
    /// Clicks ask the reachability map (the Reach tool).
    pub reach_tool: bool,
    /// The navigation overlay, when it is on (Shift+clicks set its ends).
    pub nav: Option<super::nav::Nav3<'a>>,
    /// The step a height gesture moves by (the snap step), metres.
    pub height_step: f32,
    /// An open recording's frame that kept its scene time: the time and the movers' starts (the movers
    /// are drawn there when neither Walk mode nor the debugger shows a time).
    pub recorded_movers: Option<crate::editor::movers::shown::Recorded<'a>>,
}

/// The character walking in Walk mode, as the preview draws it.
pub struct Walking<'a> {
    /// Its body, moves and selected move.
    pub walk: &'a CharacterWalk,
    /// Seen from behind: its capsule is drawn.
    pub third_person: bool,
    /// The eye (a capsule around it is left out).
    pub eye: Vec3,
}

/// How high a blocker's pin stands over it, metres.
const PIN: f32 = 0.6;
const RED: [u8; 4] = [235, 40, 40, 255];
const PATH: [u8; 4] = [80, 210, 255, 255];

/// What the preview draws of the reachability overlay.
pub struct Reach3<'a> {
    /// The cells on the surfaces, with the generation the renderer keeps them by.
    pub surface: (u64, Arc<Translucent>),
    /// The blockers' labels, largest area first.
    pub labels: &'a [Label],
    /// The clicked spot.
    pub target: Option<&'a Target>,
    /// A newer map is being made: drawn faint.
    pub faint: bool,
}

impl<'a> Reach3<'a> {
    /// What the preview draws of `overlay` for the document at `key` (nothing while it is off or there is no
    /// map; faint while the map is not of `key`).
    #[must_use]
    pub fn of(overlay: &'a ReachOverlay, key: DocKey) -> Option<Self> {
        if !overlay.on {
            return None;
        }
        let built = overlay.shown()?;
        let data = built.outcome.as_ref().ok()?;
        let faint = !overlay.is_current(key);
        let surface = if faint {
            data.geometry.surface_dimmed.clone()
        } else {
            data.geometry.surface.clone()
        };
        Some(Self {
            surface: (built.generation * 2 + u64::from(faint), surface),
            labels: &data.geometry.labels,
            target: overlay.target(),
            faint,
        })
    }
}

/// The lines over the scene, in this order: the probe, the recording's query and character move (`eye`: a
/// capsule around it is left out), the walking character, the reachability overlay.
pub(super) fn scene_lines(
    input: &Input3<'_>,
    eye: Vec3,
    character: Option<Walking<'_>>,
    lines: &mut Lines,
    overlay: &mut Lines,
) {
    if let Some((ray, max_t)) = input.probe {
        probe_lines(overlay, &ray, max_t, input.probe_result);
    }
    if let Some(q) = &input.recording_query {
        query_lines(overlay, q);
    }
    if let Some(m) = &input.recording_move {
        move_lines(m, eye, lines, overlay);
    }
    if let Some(w) = character {
        character_lines(&w, lines, overlay);
    }
    if let Some(r) = &input.reach {
        reach_lines(r, overlay);
    }
    if let Some(n) = &input.nav {
        super::nav::nav_lines(n, lines, overlay);
    }
}

fn rgba(c: Color32) -> [u8; 4] {
    c.to_srgba_unmultiplied()
}

/// Balls and the debugger's overlays in world space: (balls, depth-tested lines, lines over everything).
/// The overlays come from the debugger's [`Marks`], built once per frame for both views.
pub(super) fn dynamic(input: &Input3<'_>) -> (Spheres, Lines, Lines) {
    let mut spheres = Spheres::default();
    let mut lines = Lines::default();
    let mut overlay = Lines::default();
    let selected = |id: Option<ObjectId>| id.is_some_and(|id| input.doc.selection().contains(&id));
    let ball_color = |sel: bool| {
        if sel {
            theme::SELECTED.to_srgba_unmultiplied()
        } else {
            rgba(theme::palette::BALL)
        }
    };
    if input.debug.active() {
        for b in &input.marks.balls {
            spheres.push(b.center, b.radius, ball_color(selected(b.id)));
        }
    } else {
        for b in &input.doc.level().balls {
            spheres.push(b.center, b.radius, ball_color(selected(Some(b.id))));
            if input.debug.overlays.velocities && b.velocity.length_squared() > 0.0 {
                overlay.arrow(b.center, b.center + b.velocity * 0.25, [120, 220, 255, 255]);
            }
        }
    }
    if let Some(step) = input.recording_step {
        // The game's own balls (a recording's step), in the recording's colour, with their contacts.
        for b in &step.balls {
            spheres.push(b.center, b.radius, [90, 200, 255, 255]);
        }
        for e in &step.events {
            overlay.cross(e.point, 0.1, [255, 255, 255, 255]);
            overlay.arrow(e.point, e.point + e.normal * 0.5, [255, 255, 255, 255]);
        }
    }
    input.marks.lines_3d(&mut lines, &mut overlay);
    (spheres, lines, overlay)
}

/// A game's recorded query: its path, the points it found with their normals, and its spheres (three great
/// circles each).
fn query_lines(out: &mut Lines, q: &crate::editor::recording::QueryShape) {
    let color = [90, 220, 255, 255];
    for (a, b) in &q.lines {
        out.line(*a, *b, color);
    }
    for p in &q.points {
        out.cross(*p, 0.12, [255, 255, 255, 255]);
    }
    for (a, b) in &q.arrows {
        out.arrow(*a, *b, [255, 230, 80, 255]);
    }
    for s in &q.spheres {
        for n in [Vec3::X, Vec3::Y, Vec3::Z] {
            out.circle(s.center, n, s.radius, color);
        }
    }
}

/// The probe ray, its hits with their normals, and the chosen box's entry and exit.
fn probe_lines(out: &mut Lines, ray: &Ray, max_t: f32, result: Option<&ProbeResult>) {
    let accent = [230, 100, 200, 255];
    let shown = result
        .and_then(|r| r.hits.last())
        .map_or(max_t.min(1e3), |h| (h.t * 1.2).max(1.0).min(max_t));
    out.line(ray.origin, ray.at(shown), accent);
    if let Some(r) = result {
        for h in &r.hits {
            out.cross(h.point, 0.12, [255, 255, 255, 255]);
            out.arrow(h.point, h.point + h.normal * 0.6, [255, 230, 80, 255]);
        }
    }
}

/// The character's lines for this frame: its body seen from behind (third person) or its footprint on the
/// ground (first person), and the selected move's workings.
fn character_lines(w: &Walking<'_>, lines: &mut Lines, overlay: &mut Lines) {
    let c = w.walk.last().map(|m| m.controller).unwrap_or_default();
    let feet = w.walk.body.feet;
    if w.third_person {
        let body = c.capsule(feet);
        lines.capsule(body.a, body.b, body.radius, CHARACTER_RGBA);
    }
    lines.circle(feet + Vec3::Y * 0.02, Vec3::Y, c.radius, CHARACTER_RGBA);
    if let Some(m) = w.walk.selected_move() {
        move_lines(
            &MoveMarks::of(&m.controller, &m.result),
            w.eye,
            lines,
            overlay,
        );
    }
}

/// A move's marks as 3D lines: the body's capsule at each contact (depth-tested), the sweeps' paths, and
/// the normals and the limit over everything. A capsule around `eye` is left out (seen from inside, its
/// rings only surround the view).
pub fn move_lines(marks: &MoveMarks, eye: Vec3, lines: &mut Lines, overlay: &mut Lines) {
    let c = crate::character::CharacterController {
        radius: marks.radius,
        height: marks.height,
        ..Default::default()
    };
    for (feet, kind) in &marks.bodies {
        let body = c.capsule(*feet);
        let axis = crate::shape::Segment::new(body.a, body.b);
        let around_eye =
            crate::query::closest::point_segment(eye, &axis).distance(eye) <= body.radius;
        if body.radius > 0.0 && body.radius.is_finite() && !around_eye {
            lines.capsule(body.a, body.b, body.radius, kind.rgba());
        }
    }
    for (a, b, kind) in &marks.paths {
        overlay.line(*a, *b, kind.rgba());
    }
    for (p, n, kind) in &marks.normals {
        overlay.cross(*p, 0.05, [255, 255, 255, 255]);
        overlay.arrow(*p, *p + *n * 0.5, kind.rgba());
    }
    if let Some(at) = marks.limit_at {
        overlay.cross(at, 0.2, MarkKind::Limit.rgba());
    }
}

/// A polyline through feet, a little over the floor.
fn feet_line(out: &mut Lines, path: &[Vec3], rgba: [u8; 4]) {
    let lifted: Vec<Vec3> = path.iter().map(|p| *p + Vec3::Y * 0.06).collect();
    out.strip(&lifted, rgba);
}

/// The reachability overlay's lines: a pin at each blocker, the clicked spot's path (its start and end
/// ringed) or, out of reach, how far the character gets and a line on to the spot; a cross where there is
/// nowhere to stand.
fn reach_lines(reach: &Reach3<'_>, overlay: &mut Lines) {
    let alpha = if reach.faint { 90 } else { 255 };
    for l in reach.labels {
        let red = [RED[0], RED[1], RED[2], alpha];
        overlay.line(l.at, l.at + Vec3::Y * PIN, red);
        overlay.cross(l.at, 0.12, red);
    }
    let Some(t) = reach.target else {
        return;
    };
    match &t.view {
        TargetView::Path { path, .. } => {
            feet_line(overlay, path, PATH);
            if let Some(first) = path.first() {
                overlay.circle(*first + Vec3::Y * 0.06, Vec3::Y, 0.3, PATH);
            }
            overlay.circle(t.to + Vec3::Y * 0.06, Vec3::Y, 0.3, [255, 255, 255, 255]);
        }
        TargetView::Blocked {
            blocker, partial, ..
        } => {
            if let Some(p) = partial {
                feet_line(overlay, p, PATH);
            }
            overlay.line(blocker.at(), t.to, [255, 120, 90, 255]);
            overlay.circle(t.to + Vec3::Y * 0.06, Vec3::Y, 0.3, [255, 160, 60, 255]);
            overlay.cross(blocker.at(), 0.3, RED);
        }
        TargetView::Nowhere | TargetView::NoMap => overlay.cross(t.to, 0.25, [200, 200, 200, 255]),
    }
}

/// The blockers' labels over the view, at the top of their pins: those in front of the eye, nearer than the
/// fog's end, largest area first, none covering another; the clicked spot's blocker always.
pub(super) fn reach_labels(view: &View3d, ui: &Ui, input: &Input3<'_>) {
    let Some(reach) = &input.reach else {
        return;
    };
    let painter = ui.painter_at(view.rect);
    let (eye, _) = view.cam.eye_forward(None);
    let far = view.cam.clip.1;
    let mut placed = Vec::new();
    if let Some(Target {
        view: TargetView::Blocked { blocker, short, .. },
        ..
    }) = reach.target
        && let Some(at) = view.project(blocker.at() + Vec3::Y * PIN)
    {
        let c = Color32::from_rgb(255, 200, 120);
        place_label(&painter, at, short, c, &mut placed, true);
    }
    let text = Color32::from_gray(if reach.faint { 150 } else { 240 });
    for l in reach.labels.iter().take(40) {
        let top = l.at + Vec3::Y * PIN;
        if top.distance(eye) > far {
            continue;
        }
        if let Some(at) = view.project(top) {
            place_label(&painter, at, &l.text, text, &mut placed, false);
        }
    }
}

/// The surface the pointer aims at (yellow) or the gesture moves (orange), and a cross at each limit the
/// watched sectors meet (red beyond it, orange crouching, grey within).
pub(super) fn height_lines(
    level: &crate::level::Level,
    heights: &Heights,
    points: &PathPoints,
    overlay: &mut Lines,
) {
    let col = if heights.gesture.is_some() || points.gesture.is_some() {
        [255, 150, 40, 255]
    } else {
        [255, 225, 60, 255]
    };
    // A path point aimed or moved is highlighted instead of the surfaces.
    let lines = if points.wants_pointer() {
        points.highlight(level)
    } else {
        heights.highlight(level)
    };
    for [a, b] in lines {
        overlay.line(a, b, col);
    }
}

/// A limit's colour: red beyond it, orange crouching, light grey within.
fn verdict_color(v: Verdict) -> Color32 {
    match v {
        Verdict::Over => Color32::from_rgb(255, 70, 60),
        Verdict::Crouch => Color32::from_rgb(255, 180, 80),
        Verdict::Fits => Color32::from_gray(215),
    }
}

/// The height by the pointer ("floor 2.40 m") and the watched sectors' limits at their edges ("riser
/// 0.42 m > max_step 0.35 m" in red).
pub(super) fn height_labels(
    view: &View3d,
    ui: &Ui,
    input: &Input3<'_>,
    heights: &mut Heights,
    points: &PathPoints,
    pointer: &crate::editor::view3d::Pointer3,
) {
    let painter = ui.painter_at(view.rect);
    let mut placed = Vec::new();
    let level = input.doc.level();
    let warnings = heights.warnings(input.doc);
    for w in warnings.iter().take(12) {
        if let Some(at) = view.project(w.at) {
            place_label(
                &painter,
                at,
                &w.text(),
                verdict_color(w.verdict),
                &mut placed,
                w.over(),
            );
        }
    }
    let Some(text) = points.label(level).or_else(|| heights.label(level)) else {
        return;
    };
    // By the pointer, or where the gesture began when the pointer has left the view.
    let at = pointer.pos.or_else(|| {
        let g = heights.gesture.as_ref()?;
        view.project(g.aim.point)
    });
    if let Some(at) = at {
        let c = if heights.gesture.is_some() || points.gesture.is_some() {
            Color32::from_rgb(255, 200, 120)
        } else {
            Color32::from_rgb(255, 235, 140)
        };
        place_label(
            &painter,
            at + egui::vec2(14.0, -18.0),
            &text,
            c,
            &mut placed,
            true,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::{EditorApp, EditorOptions};
    use crate::record::StepRecord;
    use crate::sim::World;

    /// A recording's current step is drawn as the game's balls (in the recording's colour) with a cross and
    /// a normal arrow at each contact.
    #[test]
    fn a_recorded_step_draws_the_game_balls_and_contacts() {
        let mut app = EditorApp::embedded(EditorOptions {
            recovery_dir: None,
            native_dialogs: false,
        });
        let marks = app.debug.marks();
        let level =
            crate::level::Level::from_ron_str(include_str!("../../../levels/magic_room.ron"))
                .unwrap();
        let mut world = World::from_level(&level).unwrap();
        let mut events = Vec::new();
        for _ in 0..400 {
            events = world.step(level.simulation.dt).events;
            if !events.is_empty() {
                break;
            }
        }
        assert!(!events.is_empty(), "the magic room's balls meet something");
        let step = StepRecord {
            balls: world.balls().to_vec(),
            events,
        };
        let scene = app.level_scene();
        let paint = |_: ObjectId, _: crate::editor::document::Kind| [0, 0, 0, 255];
        let mut input = Input3 {
            scene,
            doc: &app.doc,
            debug: &app.debug,
            marks: &marks,
            paint: &paint,
            probe: None,
            probe_result: None,
            probe_tool: false,
            wall_radii: false,
            recording_query: None,
            recording_step: None,
            recording_move: None,
            reach: None,
            reach_tool: false,
            nav: None,
            height_step: 0.5,
            recorded_movers: None,
        };
        let (without, _, overlay_without) = dynamic(&input);
        input.recording_step = Some(&step);
        let (with, _, overlay_with) = dynamic(&input);
        assert_eq!(with.len(), without.len() + step.balls.len());
        assert!(overlay_with.vertices() > overlay_without.vertices());
    }
}
