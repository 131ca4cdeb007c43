//! The 3D preview's view: camera controls, the seeds' walker, clicks as rays and the per-frame scene. It
//! draws plain data (triangles, lines, spheres, translucent cells) and knows no feature: the app composes
//! the panel (`app/preview.rs`), handing it the features' lines and reading back what a click or a step did.
//!
//! The static geometry ([`crate::editor::view3d::scene::build_static`]) is rebuilt only when the level, the
//! selection or the relevant toggles change.

pub mod camera;
pub mod movers;
pub(crate) mod pipelines;
pub mod render;
pub mod scene;
pub mod solids;

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use egui::{Color32, Key, Pos2, Rect, RichText, Sense, Ui};
use glam::{Mat4, Vec2, Vec3, Vec4};

use crate::editor::command::Command;
use crate::editor::document::{DocId, DocKey, Document};
use crate::editor::draw::translucent::Translucent;
use crate::editor::view3d::render::{Callback3d, Frame3};
use crate::editor::view3d::scene::{
    Camera3, CameraMode, CookSectors, Lines, Paint, Spheres, StaticScene, build_static_with,
    walk_motion,
};
use crate::level::ObjectId;
use crate::shape::Ray;
use crate::walker::{WalkMode, WalkOutcome, Walker};

/// Walking speed, metres per second (Shift runs three times as fast).
pub const WALK_SPEED: f32 = 3.0;

/// A ball the camera can follow: centre, velocity, radius.
pub type Ball = (Vec3, Vec3, f32);

/// What the static scene is built from.
#[derive(Clone, Copy)]
pub struct StaticInput<'a> {
    /// The level, selection and revision.
    pub doc: &'a Document,
    /// Each object's colour.
    pub paint: Paint<'a>,
    /// Outline wall collision radii.
    pub wall_radii: bool,
    /// An overlay lies over the solids (they are painted neutral): part of the cache key.
    pub greyed: bool,
    /// How the sectors are cooked (the app's kept cook; [`scene::fresh_cook`] cooks them afresh).
    pub cook: CookSectors<'a>,
}

/// What the panel's toolbar and camera did this frame, before anything is drawn.
pub struct Began {
    /// The view's response (clicks are read from it once the app has moved what it moves).
    pub response: egui::Response,
    /// A toolbar button's command.
    pub command: Option<Command>,
    /// The document shown changed: what belongs to the old one (a walk, a report) should go.
    pub new_document: bool,
    /// The seeds' walker was put back at its start ("Back to start").
    pub walker_restarted: bool,
    /// The seeds' walker's step this frame: its eye before, the floor motion and what it met.
    pub walked: Option<(Vec3, Vec2, WalkOutcome)>,
    /// The static scene this frame, with its generation.
    pub statics: (u64, Arc<StaticScene>),
    /// The pointer over the view: its ray, the Ctrl+wheel and the Alt+drag (what a feature edits with).
    pub pointer: Pointer3,
}

/// The pointer over the view this frame, for the features that edit in 3D (the view knows none of them).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pointer3 {
    /// The ray through the hovered pixel and how far the view reaches (`None`: not over the view).
    pub ray: Option<(Ray, f32)>,
    /// Where the pointer is, when over the view.
    pub pos: Option<Pos2>,
    /// Ctrl+wheel (Cmd on a Mac) this frame, in notches: positive up.
    pub wheel: f32,
    /// Alt+drag with the primary button this frame, points: positive up; `None` when none is under way.
    pub alt_drag: Option<f32>,
    /// The primary button was released this frame.
    pub released: bool,
}

/// A click in the view as a ray from the eye.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Click {
    /// The ray through the clicked pixel (unit direction).
    pub ray: Ray,
    /// How far the view reaches (the camera's far plane).
    pub reach: f32,
    /// Shift was held.
    pub shift: bool,
}

/// What the app hands the view to draw this frame besides the statics (world space).
#[derive(Default)]
pub struct Dynamic {
    /// Balls.
    pub spheres: Spheres,
    /// Depth-tested lines.
    pub lines: Lines,
    /// Lines over everything.
    pub overlay: Lines,
    /// Translucent cells laid on surfaces, with the generation the renderer keeps them by.
    pub translucent: Option<(u64, Arc<Translucent>)>,
    /// Each mover's offset at the shown time, `(mover id, offset)`: the static scene's moved objects are
    /// drawn there (a mover not listed at its level place).
    pub movers: Vec<(ObjectId, Vec3)>,
}

/// Key of the cached static scene: the document and its revision, the hash of the selection and of whether
/// an overlay greys the solids, walker shown, wall radii shown.
type StaticKey = (DocKey, u64, bool, bool);

/// The 3D preview's view state.
pub struct View3d {
    /// Whether the panel is shown (View → 3D preview, F3).
    pub open: bool,
    /// The camera.
    pub cam: Camera3,
    /// The seeds' walker's collision mode (Walker mode).
    pub walk_mode: WalkMode,
    /// The followed ball (follow mode): its object id; `None` follows the first ball.
    pub follow: Option<ObjectId>,
    /// Whether the wgpu renderer is installed (else the panel explains why it is blank, and the top-down view
    /// hands its level and overlay meshes to egui instead of drawing them from GPU buffers).
    pub gpu: bool,
    /// The panel's rectangle last frame.
    pub rect: Rect,
    /// Walk mode had the keyboard last frame (see [`View3d::captures_keys`]).
    pub keys_captured: bool,
    /// A feature edits with Ctrl+wheel and Alt+drag (something editable is under the pointer): the camera
    /// neither zooms nor orbits nor looks on them. The app sets it before [`View3d::begin`].
    pub edits_with_pointer: bool,
    framed: bool,
    statics: Option<(StaticKey, u64, Arc<StaticScene>)>,
    generation: u64,
    /// The document the camera belongs to.
    shown_doc: Option<DocId>,
    /// The last frame's view-projection (labels over the view are placed with it).
    view_proj: Mat4,
    /// The moved objects' triangles the last frame drew.
    moved: Arc<movers::MovedSolids>,
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
            follow: None,
            gpu: false,
            rect: Rect::NOTHING,
            keys_captured: false,
            edits_with_pointer: false,
            framed: false,
            statics: None,
            generation: 0,
            shown_doc: None,
            view_proj: Mat4::IDENTITY,
            moved: Arc::default(),
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
    /// keyed by document and rebuild by themselves). Returns whether it did.
    fn follow_document(&mut self, doc: &Document) -> bool {
        let first = self.shown_doc.is_none();
        if self.shown_doc == Some(doc.id()) {
            return false;
        }
        self.shown_doc = Some(doc.id());
        if first {
            return false;
        }
        self.framed = false;
        self.follow = None;
        self.cam.mode = CameraMode::Orbit;
        true
    }

    /// The generation of the static scene last built: it changes only when the level, the selection or
    /// the toggles do, never with the movers' time (the renderer uploads the static scene only then).
    #[must_use]
    pub fn statics_generation(&self) -> u64 {
        self.generation
    }

    /// The moved objects' triangles the last frame drew, where the shown time had them.
    #[must_use]
    pub fn moved_shown(&self) -> &movers::MovedSolids {
        &self.moved
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
    }

    /// Follow the first selected ball (or the first ball).
    pub fn follow_selected(&mut self, doc: &Document) {
        self.cam.mode = CameraMode::Follow;
        self.follow = doc
            .level()
            .balls
            .iter()
            .find(|b| doc.selection().contains(&b.id))
            .map(|b| b.id);
    }

    /// Move the walker by `motion` against the level's walls and triangles. Returns its eye before the step
    /// and what it met.
    pub fn walk_by(&mut self, scene: &crate::scene::Scene, motion: Vec2) -> (Vec3, WalkOutcome) {
        self.cam.walker.mode = self.walk_mode;
        let from = self.cam.walker.eye();
        (from, self.cam.walker.walk_in(motion, scene))
    }

    fn static_scene(&mut self, input: &StaticInput<'_>) -> (u64, Arc<StaticScene>) {
        let mut h = DefaultHasher::new();
        input.doc.selection().hash(&mut h);
        input.doc.walker_selected().hash(&mut h);
        input.greyed.hash(&mut h);
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
        let level = input.doc.level();
        let scene = Arc::new(build_static_with(
            level,
            input.paint,
            input.cook,
            key.2,
            key.3,
        ));
        self.generation += 1;
        self.statics = Some((key, self.generation, scene.clone()));
        (self.generation, scene)
    }

    /// The panel's first half: the toolbar (`paused`: the character's pause button reads Resume), the view's
    /// room, framing and the camera's input (orbit, pan, look; the seeds' walker walks). `ball` is the
    /// followed ball. The app then moves what it moves, asks [`Self::click`] and draws with [`Self::paint`].
    pub fn begin(
        &mut self,
        ui: &mut Ui,
        input: &StaticInput<'_>,
        scene: &crate::scene::Scene,
        paused: bool,
        ball: Option<Ball>,
    ) -> Began {
        let new_document = self.follow_document(input.doc);
        let (command, walker_restarted) = self.toolbar(ui, input.doc, paused);
        let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        self.rect = rect;
        let statics = self.static_scene(input);
        if !self.framed && rect.width() > 10.0 {
            if let Some(b) = &statics.1.bounds {
                self.cam.frame(b, rect.width() / rect.height().max(1.0));
            }
            self.framed = true;
        }
        self.keys_captured = self.walking_keys(ui);
        let pointer = self.pointer(ui, &response, ball);
        let walked = self.camera_input(ui, &response, rect, scene, pointer.wheel != 0.0);
        if self.cam.mode == CameraMode::Follow
            && let Some((_, v, _)) = ball
        {
            self.cam.track(v);
        }
        Began {
            response,
            command,
            new_document,
            walker_restarted,
            walked,
            statics,
            pointer,
        }
    }

    /// The pointer's ray, Ctrl+wheel and Alt+drag this frame.
    fn pointer(&self, ui: &Ui, resp: &egui::Response, ball: Option<Ball>) -> Pointer3 {
        let rect = self.rect;
        let pos = resp.hover_pos().or_else(|| {
            resp.dragged()
                .then(|| resp.interact_pointer_pos())
                .flatten()
        });
        let aspect = rect.width() / rect.height().max(1.0);
        let ray = pos.and_then(|p| {
            let uv = Vec2::new(
                (p.x - rect.left()) / rect.width().max(1.0),
                (p.y - rect.top()) / rect.height().max(1.0),
            );
            self.cam.ray(uv, aspect, ball).map(|r| (r, self.cam.clip.1))
        });
        let wheel = if pos.is_some() {
            ui.input(|i| {
                // Lines (a wheel's clicks, which may arrive as more than one event on X11) count one notch
                // a frame, their way; points (a trackpad) add up, 40 a notch.
                let (mut lines, mut points) = (0.0f32, 0.0f32);
                for e in &i.events {
                    if let egui::Event::MouseWheel {
                        unit,
                        delta,
                        modifiers,
                        ..
                    } = e
                        && (modifiers.command || modifiers.ctrl)
                    {
                        match unit {
                            egui::MouseWheelUnit::Point => points += delta.y / 40.0,
                            _ => lines += delta.y.signum(),
                        }
                    }
                }
                lines.clamp(-1.0, 1.0) + points
            })
        } else {
            0.0
        };
        let alt = ui.input(|i| i.modifiers.alt);
        let alt_drag =
            (alt && resp.dragged_by(egui::PointerButton::Primary)).then(|| -resp.drag_delta().y);
        Pointer3 {
            ray,
            pos,
            wheel,
            alt_drag,
            released: resp.drag_stopped() || ui.input(|i| i.pointer.primary_released()),
        }
    }

    /// Drags orbit, pan or look; the wheel zooms; in Walker mode the keys walk (the step is returned).
    fn camera_input(
        &mut self,
        ui: &Ui,
        resp: &egui::Response,
        rect: Rect,
        scene: &crate::scene::Scene,
        ctrl_wheel: bool,
    ) -> Option<(Vec3, Vec2, WalkOutcome)> {
        let hover = resp.hovered();
        let drag = resp.drag_delta();
        let drag = Vec2::new(drag.x, drag.y);
        let primary = resp.dragged_by(egui::PointerButton::Primary);
        let pan = resp.dragged_by(egui::PointerButton::Secondary)
            || resp.dragged_by(egui::PointerButton::Middle);
        // Alt+drag and Ctrl+wheel belong to the feature editing under the pointer.
        let (alt, ctrl) = ui.input(|i| (i.modifiers.alt, i.modifiers.command || i.modifiers.ctrl));
        let primary = primary && !(self.edits_with_pointer && alt);
        match self.cam.mode {
            CameraMode::Orbit | CameraMode::Follow => {
                if primary && self.cam.mode == CameraMode::Orbit {
                    self.cam.orbit_by(drag);
                } else if pan && self.cam.mode == CameraMode::Orbit {
                    self.cam.pan_by(drag, rect.height());
                }
                if hover && !(self.edits_with_pointer && (ctrl || ctrl_wheel)) {
                    let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
                    let f = zoom * (scroll * 0.002).exp();
                    if f != 1.0 {
                        self.cam.zoom_by(f);
                    }
                }
                None
            }
            CameraMode::Walker => {
                if primary || pan {
                    self.cam.look_by(drag);
                }
                if self.keys_captured {
                    self.walk_keys(ui, scene)
                } else {
                    None
                }
            }
            CameraMode::Walk => {
                if primary || pan {
                    self.cam.look_by(drag);
                }
                None
            }
        }
    }

    /// Walk by the keys held (W A S D or the arrows; Shift runs).
    fn walk_keys(
        &mut self,
        ui: &Ui,
        scene: &crate::scene::Scene,
    ) -> Option<(Vec3, Vec2, WalkOutcome)> {
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
        let step = (motion != Vec2::ZERO).then(|| {
            let (from, outcome) = self.walk_by(scene, motion);
            (from, motion, outcome)
        });
        if fwd != 0.0 || right != 0.0 {
            ui.ctx().request_repaint();
        }
        step
    }

    /// A click on the view, as a ray from the eye through the pointer (`ball`: the followed ball).
    #[must_use]
    pub fn click(&self, ui: &Ui, resp: &egui::Response, ball: Option<Ball>) -> Option<Click> {
        let rect = self.rect;
        if !resp.clicked() {
            return None;
        }
        let p = resp.interact_pointer_pos()?;
        let uv = Vec2::new(
            (p.x - rect.left()) / rect.width().max(1.0),
            (p.y - rect.top()) / rect.height().max(1.0),
        );
        let aspect = rect.width() / rect.height().max(1.0);
        let ray = self.cam.ray(uv, aspect, ball)?;
        Some(Click {
            ray,
            reach: self.cam.clip.1,
            shift: ui.input(|i| i.modifiers.shift),
        })
    }

    /// The panel's second half: this frame's scene (the statics and what the app hands) rendered into the
    /// view, or a note where there is no renderer.
    pub fn paint(
        &mut self,
        ui: &Ui,
        ball: Option<Ball>,
        statics: (u64, Arc<StaticScene>),
        dynamic: Dynamic,
    ) {
        let rect = self.rect;
        let Dynamic {
            spheres,
            mut lines,
            overlay,
            translucent,
            movers,
        } = dynamic;
        let moved = if statics.1.moved.is_empty() {
            Arc::default()
        } else {
            let offset = |id: ObjectId| {
                movers
                    .iter()
                    .find(|(m, _)| *m == id)
                    .map_or(Vec3::ZERO, |(_, d)| *d)
            };
            Arc::new(statics.1.moved.at(&offset))
        };
        self.moved = Arc::clone(&moved);
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
        let aspect = rect.width() / rect.height().max(1.0);
        let (eye, _) = self.cam.eye_forward(ball);
        let reach = self.cam.clip.1;
        let frame = Frame3 {
            view_proj: self.cam.projection(aspect) * self.cam.view(ball),
            eye,
            fog: (reach * 0.25, reach),
            statics,
            moved,
            spheres,
            lines,
            overlay,
            translucent,
        };
        self.view_proj = frame.view_proj;
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
    }

    /// Screen point of world point `p` as the last painted frame shows it, when it is in front of the eye
    /// and inside the view.
    #[must_use]
    pub fn project(&self, p: Vec3) -> Option<Pos2> {
        let rect = self.rect;
        let clip = self.view_proj * Vec4::new(p.x, p.y, p.z, 1.0);
        if !(clip.w > 1e-4) {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        (ndc.x.abs() <= 1.0 && ndc.y.abs() <= 1.0 && ndc.z <= 1.0).then(|| {
            Pos2::new(
                rect.left() + (ndc.x + 1.0) * 0.5 * rect.width(),
                rect.top() + (1.0 - ndc.y) * 0.5 * rect.height(),
            )
        })
    }

    /// The toolbar: camera modes, the character's buttons in Walk mode (`paused`: Pause reads Resume), the
    /// walker's mode and its Back to start, Frame all. Returns a command and whether the walker restarted.
    fn toolbar(&mut self, ui: &mut Ui, doc: &Document, paused: bool) -> (Option<Command>, bool) {
        let mut action = None;
        let mut restarted = false;
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
                    action = Some(c);
                }
            }
            if self.cam.mode == CameraMode::Walk {
                ui.separator();
                let pause = if paused { "Resume" } else { "Pause" };
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
                        action = Some(c);
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
                    self.start_walking(doc);
                    restarted = true;
                }
            }
            if self.cam.mode == CameraMode::Orbit && ui.button("Frame all").clicked() {
                self.reframe();
            }
        });
        (action, restarted)
    }

    /// The HUD's text for the camera's state in orbit, follow and Walker mode (Walk mode's is the
    /// character's, which the app supplies).
    #[must_use]
    pub fn hud_text(&self) -> String {
        match self.cam.mode {
            CameraMode::Orbit => String::from("orbit: drag rotates, right-drag pans, wheel zooms"),
            CameraMode::Follow => match self.follow {
                Some(id) => format!("following ball #{}", id.0),
                None => String::from("following the first ball (select one, then Follow ball)"),
            },
            CameraMode::Walk => String::new(),
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
        }
    }

    /// Text over the view's lower left corner, on a dark plate.
    pub fn draw_hud(&self, ui: &Ui, text: String) {
        let rect = self.rect;
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

/// A walk mode's name.
#[must_use]
pub fn walk_mode_name(m: WalkMode) -> &'static str {
    match m {
        WalkMode::Stop => "Stop",
        WalkMode::Slide => "Slide",
        WalkMode::Ghost => "Ghost",
    }
}
