//! The 3D preview panel: camera controls, walking, following a ball, picking and the per-frame scene.
//!
//! The static geometry ([`crate::editor::view3d::scene::build_static`]) is rebuilt only when the level, the selection or
//! the relevant toggles change; balls and the debugger's overlays are built every frame from the
//! debugger's current frame, the same data the top-down view draws.

pub mod camera;
pub(crate) mod pipelines;
mod query_lines;
pub mod reach;
pub mod render;
pub mod scene;
pub mod translucent;
pub mod walk;

use crate::editor::debugger::overlay::Marks;
use crate::editor::theme;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use egui::{Color32, Key, Rect, RichText, Sense, Ui};
use glam::{Vec2, Vec3};

use crate::editor::analysis::compare::TriangleCompare;
use crate::editor::analysis::probe::ProbeResult;
use crate::editor::debugger::panel::DebugPanel;
use crate::editor::document::{DocId, DocKey, Document};
use crate::editor::view3d::render::{Callback3d, Frame3};
use crate::editor::view3d::scene::{
    Camera3, CameraMode, Lines, Paint, Spheres, StaticScene, build_static, walk_motion,
};
use crate::level::ObjectId;
use crate::shape::Ray;
use crate::walker::{Blocker, WalkMode, WalkOutcome, Walker};

/// Walking speed, metres per second (Shift runs three times as fast).
pub const WALK_SPEED: f32 = 3.0;

/// What the preview asks the editor to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Action3 {
    /// Select the object under a click (`None`: clicked empty space); `add` toggles instead (Shift).
    Select {
        /// The object hit nearest the eye.
        hit: Option<ObjectId>,
        /// Shift was held.
        add: bool,
    },
    /// Set the probe to this ray (unit direction) and length (a click with the Probe tool).
    Probe(Ray, f32),
    /// Run a command (the toolbar's character buttons).
    Run(crate::editor::command::Command),
    /// A click with the Reach tool: the feet on the surface under it (`None`: nothing there).
    Reach(Option<Vec3>),
}

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
    pub scene: std::sync::Arc<crate::scene::Scene>,
    /// The selected query of an open recording (a game's ray, sweep, overlap or slide).
    pub recording_query: Option<crate::editor::recording::QueryShape>,
    /// The last simulation step the game recorded in the recording's current frame: its balls and contacts.
    pub recording_step: Option<&'a crate::record::StepRecord>,
    /// The workings of the recording's selected character move.
    pub recording_move: Option<crate::editor::character::MoveMarks>,
    /// The reachability overlay, when it is on.
    pub reach: Option<reach::Reach3<'a>>,
    /// Clicks ask the reachability map (the Reach tool).
    pub reach_tool: bool,
}

/// The last walking step compared between the walk test and Möller–Trumbore.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WalkReport {
    /// What the walker did.
    pub outcome: Option<WalkOutcome>,
    /// Triangles the eye's path touched by either method, with both answers.
    pub compared: Vec<TriangleCompare>,
}

/// Key of the cached static scene: the document and its revision, the hash of the selection and of whether
/// the reachability overlay is on (it greys the solids), walker shown, wall radii shown.
type StaticKey = (DocKey, u64, bool, bool);

/// The 3D preview's state.
pub struct View3d {
    /// Whether the panel is shown (View → 3D preview, F3).
    pub open: bool,
    /// The camera.
    pub cam: Camera3,
    /// The seeds' walker's collision mode (Walker mode).
    pub walk_mode: WalkMode,
    /// The level's character (Walk mode): its body, its last moves, pause and the selected move.
    pub character: crate::editor::character::CharacterWalk,
    /// The followed ball (follow mode): its object id; `None` follows the first ball.
    pub follow: Option<ObjectId>,
    /// The last walk step and its comparison.
    pub walk: WalkReport,
    /// Whether the wgpu renderer is installed (else the panel explains why it is blank, and the top-down view
    /// hands its level and overlay meshes to egui instead of drawing them from GPU buffers).
    pub gpu: bool,
    /// The panel's rectangle last frame.
    pub rect: Rect,
    /// Walk mode had the keyboard last frame (see [`View3d::captures_keys`]).
    pub keys_captured: bool,
    framed: bool,
    statics: Option<(StaticKey, u64, Arc<StaticScene>)>,
    generation: u64,
    /// The document the camera and walk state belong to.
    shown_doc: Option<DocId>,
}

impl Default for View3d {
    fn default() -> Self {
        Self::new()
    }
}

impl View3d {
    /// A fresh preview, open.
    #[must_use]
    pub fn new() -> Self {
        Self {
            open: true,
            cam: Camera3::default(),
            walk_mode: WalkMode::Slide,
            character: crate::editor::character::CharacterWalk::default(),
            follow: None,
            walk: WalkReport::default(),
            gpu: false,
            rect: Rect::NOTHING,
            keys_captured: false,
            framed: false,
            statics: None,
            generation: 0,
            shown_doc: None,
        }
    }

    /// Frame the whole level again on the next frame.
    pub fn reframe(&mut self) {
        self.framed = false;
    }

    /// Whether walking owns W A S D, the arrows and the jump key: Walk or Walker mode with the pointer over
    /// the preview. The editor asks before its shortcuts run, with this frame's pointer, so the first key
    /// press already walks.
    #[must_use]
    pub fn captures_keys(&self, pointer: Option<egui::Pos2>) -> bool {
        self.open && self.walking_any() && pointer.is_some_and(|p| self.rect.contains(p))
    }

    /// In Walk (the character) or Walker (the seeds' walker) mode.
    #[must_use]
    pub fn walking_any(&self) -> bool {
        matches!(self.cam.mode, CameraMode::Walk | CameraMode::Walker)
    }

    /// In Walk mode: the level's character moves.
    #[must_use]
    pub fn walking_character(&self) -> bool {
        self.open && self.cam.mode == CameraMode::Walk
    }

    /// Whether walking reads the keys this frame: it owns them and no text field is being typed into.
    fn walking_keys(&self, ui: &Ui) -> bool {
        self.captures_keys(ui.input(|i| i.pointer.hover_pos()))
            && !ui.ctx().egui_wants_keyboard_input()
    }

    /// Another document replaced the shown one: frame it anew and leave walk or follow mode (the caches are
    /// keyed by document and rebuild by themselves).
    fn follow_document(&mut self, doc: &Document) {
        let first = self.shown_doc.is_none();
        if self.shown_doc == Some(doc.id()) {
            return;
        }
        self.shown_doc = Some(doc.id());
        if first {
            return;
        }
        self.framed = false;
        self.follow = None;
        self.walk = WalkReport::default();
        self.character = crate::editor::character::CharacterWalk::default();
        self.cam.mode = CameraMode::Orbit;
    }

    /// Bounds of the static scene the preview last drew (the level as the preview shows it).
    #[must_use]
    pub fn shown_bounds(&self) -> Option<crate::shape::Aabb> {
        self.statics.as_ref().and_then(|(_, _, s)| s.bounds)
    }

    /// Enter Walker mode (the seeds' walker) at the level's walker start (or where the orbit camera looks).
    pub fn start_walking(&mut self, doc: &Document) {
        self.cam.mode = CameraMode::Walker;
        self.cam.walker = match &doc.level().walker {
            Some(w) => Walker::from_start(w, self.walk_mode),
            None => Walker {
                position: Vec2::new(self.cam.target.x, self.cam.target.z),
                mode: self.walk_mode,
                ..self.cam.walker
            },
        };
        self.cam.look_pitch = 0.0;
        self.walk = WalkReport::default();
    }

    /// The followed ball's centre, velocity and radius, from the debugger's frame (or the level when the
    /// debugger is idle).
    fn followed(&self, input: &Input3<'_>) -> Option<(Vec3, Vec3, f32)> {
        if let Some(d) = &input.debug.debugger {
            let w = d.world();
            let k = self
                .follow
                .and_then(|id| w.ball_object_ids().iter().position(|b| *b == Some(id)))
                .unwrap_or(0);
            w.balls().get(k).map(|b| (b.center, b.velocity, b.radius))
        } else {
            let balls = &input.doc.level().balls;
            self.follow
                .and_then(|id| balls.iter().find(|b| b.id == id))
                .or(balls.first())
                .map(|b| (b.center, b.velocity, b.radius))
        }
    }

    /// Move the walker by `motion` against the level's walls and triangles, comparing the eye's path
    /// through the triangles by both methods.
    pub fn walk_by(&mut self, doc: &Document, scene: &crate::scene::Scene, motion: Vec2) {
        self.cam.walker.mode = self.walk_mode;
        let from = self.cam.walker.eye();
        let outcome = self.cam.walker.walk_in(motion, scene);
        let len = motion.length();
        let compared = if len > 0.0 {
            let ray = Ray::new(from, Vec3::new(motion.x, 0.0, motion.y) / len);
            crate::editor::analysis::compare::triangles(doc.level(), &ray, len)
                .into_iter()
                .filter(|c| c.moller_trumbore.is_some() || c.walk_test.is_some())
                .collect()
        } else {
            Vec::new()
        };
        if outcome.blocked_by.is_some() || !compared.is_empty() || self.walk.outcome.is_none() {
            self.walk = WalkReport {
                outcome: Some(outcome),
                compared,
            };
        }
    }

    fn static_scene(&mut self, input: &Input3<'_>) -> (u64, Arc<StaticScene>) {
        let mut h = DefaultHasher::new();
        input.doc.selection().hash(&mut h);
        input.doc.walker_selected().hash(&mut h);
        input.reach.is_some().hash(&mut h);
        let key = (
            input.doc.key(),
            h.finish(),
            !self.walking_any(),
            input.wall_radii,
        );
        if let Some((k, g, s)) = &self.statics
            && *k == key
        {
            return (*g, s.clone());
        }
        let scene = Arc::new(build_static(input.doc.level(), input.paint, key.2, key.3));
        self.generation += 1;
        self.statics = Some((key, self.generation, scene.clone()));
        (self.generation, scene)
    }

    /// The panel: a toolbar, then the view. Returns what a click asked for.
    pub fn ui(&mut self, ui: &mut Ui, input: &Input3<'_>) -> Option<Action3> {
        self.follow_document(input.doc);
        let bar = self.toolbar(ui, input);
        let (rect, resp) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        self.rect = rect;
        let (generation, statics) = self.static_scene(input);
        if !self.framed && rect.width() > 10.0 {
            if let Some(b) = &statics.bounds {
                self.cam.frame(b, rect.width() / rect.height().max(1.0));
            }
            self.framed = true;
        }
        self.keys_captured = self.walking_keys(ui);
        self.camera_input(ui, &resp, rect, input);
        let ball = self.followed(input);
        if self.cam.mode == CameraMode::Follow
            && let Some((_, v, _)) = ball
        {
            self.cam.track(v);
        }
        let action = bar.or_else(|| self.click(ui, &resp, rect, input, ball));
        let frame = self.frame(rect, input, ball, (generation, statics));
        let view_proj = frame.view_proj;
        if self.gpu {
            ui.painter().add(egui_wgpu_callback(rect, frame));
        } else {
            ui.painter()
                .rect_filled(rect, 0.0, Color32::from_rgb(30, 32, 38));
            ui.painter().text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                "The 3D preview needs the wgpu renderer (not available here).",
                egui::FontId::proportional(14.0),
                Color32::GRAY,
            );
        }
        self.reach_labels(ui, rect, input, view_proj);
        self.hud(ui, rect, input.doc);
        action
    }

    /// Drags orbit, pan or look; the wheel zooms; in walk mode the keys walk.
    fn camera_input(&mut self, ui: &Ui, resp: &egui::Response, rect: Rect, input: &Input3<'_>) {
        let hover = resp.hovered();
        let drag = resp.drag_delta();
        let drag = Vec2::new(drag.x, drag.y);
        let primary = resp.dragged_by(egui::PointerButton::Primary);
        let pan = resp.dragged_by(egui::PointerButton::Secondary)
            || resp.dragged_by(egui::PointerButton::Middle);
        match self.cam.mode {
            CameraMode::Orbit | CameraMode::Follow => {
                if primary && self.cam.mode == CameraMode::Orbit {
                    self.cam.orbit_by(drag);
                } else if pan && self.cam.mode == CameraMode::Orbit {
                    self.cam.pan_by(drag, rect.height());
                }
                if hover {
                    let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
                    let f = zoom * (scroll * 0.002).exp();
                    if f != 1.0 {
                        self.cam.zoom_by(f);
                    }
                }
            }
            CameraMode::Walker => {
                if primary || pan {
                    self.cam.look_by(drag);
                }
                if self.keys_captured {
                    self.walk_keys(ui, input);
                }
            }
            CameraMode::Walk => {
                if primary || pan {
                    self.cam.look_by(drag);
                }
                self.walk_character(ui, input);
            }
        }
    }

    /// Walk by the keys held (W A S D or the arrows; Shift runs).
    fn walk_keys(&mut self, ui: &Ui, input: &Input3<'_>) {
        let (fwd, right, run, dt) = ui.input(|i| {
            let axis = |p: [Key; 2], n: [Key; 2]| {
                f32::from(u8::from(p.iter().any(|k| i.key_down(*k))))
                    - f32::from(u8::from(n.iter().any(|k| i.key_down(*k))))
            };
            (
                axis([Key::W, Key::ArrowUp], [Key::S, Key::ArrowDown]),
                axis([Key::D, Key::ArrowRight], [Key::A, Key::ArrowLeft]),
                i.modifiers.shift,
                i.stable_dt,
            )
        });
        let speed = if run { WALK_SPEED * 3.0 } else { WALK_SPEED };
        let motion = walk_motion(&self.cam.walker, fwd, right, speed, dt);
        if motion != Vec2::ZERO {
            self.walk_by(input.doc, &input.scene, motion);
        }
        if fwd != 0.0 || right != 0.0 {
            ui.ctx().request_repaint();
        }
    }

    /// A click selects what is under the pointer, or casts the probe with the Probe tool.
    fn click(
        &self,
        ui: &Ui,
        resp: &egui::Response,
        rect: Rect,
        input: &Input3<'_>,
        ball: Option<(Vec3, Vec3, f32)>,
    ) -> Option<Action3> {
        let aspect = rect.width() / rect.height().max(1.0);
        let mut action = None;
        if resp.clicked()
            && let Some(p) = resp.interact_pointer_pos()
        {
            let uv = Vec2::new(
                (p.x - rect.left()) / rect.width().max(1.0),
                (p.y - rect.top()) / rect.height().max(1.0),
            );
            if let Some(ray) = self.cam.ray(uv, aspect, ball) {
                let reach = self.cam.clip.1;
                if input.probe_tool {
                    action = Some(Action3::Probe(ray, reach));
                } else if input.reach_tool {
                    let skin =
                        crate::editor::document::character::effective(input.doc.level()).skin;
                    let hit = input.scene.cast_ray(&ray, reach);
                    action = Some(Action3::Reach(hit.map(|h| h.point + Vec3::Y * skin)));
                } else {
                    let hits = crate::editor::analysis::probe::cast_in(
                        input.doc.level(),
                        &input.scene,
                        &ray,
                        reach,
                    );
                    let add = ui.input(|i| i.modifiers.shift);
                    action = Some(Action3::Select {
                        hit: hits.hits.first().map(|h| h.object),
                        add,
                    });
                }
            }
        }

        action
    }

    /// This frame's scene for the renderer: the statics, the balls and every line.
    fn frame(
        &self,
        rect: Rect,
        input: &Input3<'_>,
        ball: Option<(Vec3, Vec3, f32)>,
        statics: (u64, Arc<StaticScene>),
    ) -> Frame3 {
        let aspect = rect.width() / rect.height().max(1.0);
        let (spheres, mut lines, mut overlay) = dynamic(input);
        if self.cam.mode == CameraMode::Walker
            && let Some(p) = self.walk.outcome.and_then(|o| o.crossing)
        {
            overlay.cross(p, 0.15, [255, 80, 80, 255]);
        }
        if let Some((ray, max_t)) = input.probe {
            query_lines::probe_lines(&mut overlay, &ray, max_t, input.probe_result);
        }
        if let Some(q) = &input.recording_query {
            query_lines::query_lines(&mut overlay, q);
        }
        if let Some(m) = &input.recording_move {
            walk::move_lines(m, self.cam.eye_forward(ball).0, &mut lines, &mut overlay);
        }
        if self.cam.mode == CameraMode::Walk {
            self.character_lines(&mut lines, &mut overlay);
        }
        if let Some(r) = &input.reach {
            reach::reach_lines(r, &mut overlay);
        }
        if self.cam.mode == CameraMode::Walker {
            // Where the walker stands, seen from its own eye: its collision circle on the floor.
            let w = &self.cam.walker;
            lines.circle(
                Vec3::new(w.position.x, 0.02, w.position.y),
                Vec3::Y,
                w.radius,
                [100, 230, 120, 255],
            );
        }
        let (eye, _) = self.cam.eye_forward(ball);
        let reach = self.cam.clip.1;
        Frame3 {
            view_proj: self.cam.projection(aspect) * self.cam.view(ball),
            eye,
            fog: (reach * 0.25, reach),
            statics,
            spheres,
            lines,
            overlay,
            translucent: input.reach.as_ref().map(|r| r.surface.clone()),
        }
    }

    fn toolbar(&mut self, ui: &mut Ui, input: &Input3<'_>) -> Option<Action3> {
        use crate::editor::command::Command;
        let mut action = None;
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new("3D").strong());
            for mode in [
                CameraMode::Orbit,
                CameraMode::Walk,
                CameraMode::Walker,
                CameraMode::Follow,
            ] {
                let c = Command::SetCamera(mode);
                let spec = c.spec();
                if ui
                    .selectable_label(self.cam.mode == mode, spec.name)
                    .on_hover_text(spec.help)
                    .clicked()
                    && self.cam.mode != mode
                {
                    action = Some(Action3::Run(c));
                }
            }
            if self.cam.mode == CameraMode::Walk {
                ui.separator();
                let pause = if self.character.paused {
                    "Resume"
                } else {
                    "Pause"
                };
                for (c, name) in [
                    (Command::CharacterPause, pause),
                    (Command::ThirdPerson, Command::ThirdPerson.spec().name),
                    (
                        Command::CharacterRestart,
                        Command::CharacterRestart.spec().name,
                    ),
                ] {
                    let selected = c == Command::ThirdPerson && self.cam.character.third_person;
                    if ui
                        .selectable_label(selected, name)
                        .on_hover_text(c.spec().help)
                        .clicked()
                    {
                        action = Some(Action3::Run(c));
                    }
                }
            }
            if self.cam.mode == CameraMode::Walker {
                egui::ComboBox::from_id_salt("walk mode")
                    .selected_text(walk_mode_name(self.walk_mode))
                    .show_ui(ui, |ui| {
                        for m in [WalkMode::Stop, WalkMode::Slide, WalkMode::Ghost] {
                            ui.selectable_value(&mut self.walk_mode, m, walk_mode_name(m));
                        }
                    });
                if ui.button("Back to start").clicked() {
                    self.start_walking(input.doc);
                }
            }
            if self.cam.mode == CameraMode::Orbit && ui.button("Frame all").clicked() {
                self.reframe();
            }
        });
        action
    }

    /// Switch the camera: Walk puts the level's character at its start, Walker the seeds' walker, Follow
    /// follows the selected ball.
    pub fn set_camera(&mut self, mode: CameraMode, doc: &Document, scene: &crate::scene::Scene) {
        match mode {
            CameraMode::Walk => self.start_character(doc, scene),
            CameraMode::Walker => self.start_walking(doc),
            CameraMode::Follow => {
                self.cam.mode = mode;
                self.follow = selected_ball(doc);
            }
            CameraMode::Orbit => self.cam.mode = mode,
        }
    }

    /// Text over the view: the camera's state and, walking, the last step's collision and comparison.
    fn hud(&self, ui: &Ui, rect: Rect, doc: &Document) {
        let mut text = match self.cam.mode {
            CameraMode::Orbit => String::from("orbit: drag rotates, right-drag pans, wheel zooms"),
            CameraMode::Follow => match self.follow {
                Some(id) => format!("following ball #{}", id.0),
                None => String::from("following the first ball (select one, then Follow ball)"),
            },
            CameraMode::Walk => self.character_hud(doc),
            CameraMode::Walker => {
                let w = &self.cam.walker;
                format!(
                    "walker at ({:.2}, {:.2}) facing {:.0}° ({}); W A S D with the pointer here",
                    w.position.x,
                    w.position.y,
                    w.facing_deg,
                    walk_mode_name(self.walk_mode)
                )
            }
        };
        if self.cam.mode == CameraMode::Walker
            && let Some(o) = &self.walk.outcome
        {
            match o.blocked_by {
                Some(Blocker::Wall(k)) => text.push_str(&format!("\nblocked by wall #{k}")),
                Some(Blocker::Triangle(k)) => text.push_str(&format!(
                    "\nblocked by triangle #{k}: the walk test found the eye crossing it"
                )),
                None => {}
            }
            for c in &self.walk.compared {
                let fmt = |p: Option<Vec3>| {
                    p.map_or("miss".to_owned(), |p| {
                        format!("({:.2}, {:.2}, {:.2})", p.x, p.y, p.z)
                    })
                };
                text.push_str(&format!(
                    "\ntriangle {}: walk test {} · Möller–Trumbore {}{}",
                    c.object.0,
                    fmt(c.walk_test),
                    fmt(c.moller_trumbore),
                    if c.disagrees() {
                        "  DISAGREE"
                    } else {
                        "  agree"
                    }
                ));
                if let Some((_, robust, angle_sum)) = c.plane_point {
                    let word = |b: bool| if b { "inside" } else { "outside" };
                    text.push_str(&format!(
                        "; its plane point: robust test {}, angle sum {}",
                        word(robust),
                        word(angle_sum)
                    ));
                }
            }
        }
        let painter = ui.painter_at(rect);
        let galley = painter.layout(
            text,
            egui::FontId::proportional(12.0),
            Color32::from_gray(220),
            rect.width() - 16.0,
        );
        let at = rect.left_bottom() + egui::vec2(8.0, -8.0 - galley.size().y);
        painter.rect_filled(
            Rect::from_min_size(at, galley.size()).expand(4.0),
            3.0,
            Color32::from_black_alpha(150),
        );
        painter.galley(at, galley, Color32::WHITE);
    }
}

fn egui_wgpu_callback(rect: Rect, frame: Frame3) -> egui::PaintCallback {
    eframe::egui_wgpu::Callback::new_paint_callback(
        rect,
        Callback3d {
            frame: Arc::new(frame),
            rect,
        },
    )
}

/// The first selected ball.
fn selected_ball(doc: &Document) -> Option<ObjectId> {
    doc.level()
        .balls
        .iter()
        .find(|b| doc.selection().contains(&b.id))
        .map(|b| b.id)
}

/// A walk mode's name.
#[must_use]
pub fn walk_mode_name(m: WalkMode) -> &'static str {
    match m {
        WalkMode::Stop => "Stop",
        WalkMode::Slide => "Slide",
        WalkMode::Ghost => "Ghost",
    }
}

fn rgba(c: Color32) -> [u8; 4] {
    c.to_srgba_unmultiplied()
}

/// Balls and the debugger's overlays in world space: (balls, depth-tested lines, lines over everything).
/// The overlays come from the debugger's [`Marks`], built once per frame for both views.
fn dynamic(input: &Input3<'_>) -> (Spheres, Lines, Lines) {
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
        };
        let (without, _, overlay_without) = dynamic(&input);
        input.recording_step = Some(&step);
        let (with, _, overlay_with) = dynamic(&input);
        assert_eq!(with.len(), without.len() + step.balls.len());
        assert!(overlay_with.vertices() > overlay_without.vertices());
    }
}
