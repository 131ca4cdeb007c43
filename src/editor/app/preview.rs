//! The 3D preview's panel, composed: the view ([`View3d`], which draws plain data and knows no feature), the
//! level's character walked in it (the character feature steps it) and the seeds' walker's comparison (the
//! analysis feature keeps it). Each frame the view's camera moves first, then the character, then a click
//! becomes an action, then the features' lines are handed to the view (`preview_lines.rs`).

use std::ops::{Deref, DerefMut};

use egui::Ui;
use glam::{Vec2, Vec3};

use super::preview_lines::{Input3, Walking, dynamic, reach_labels, scene_lines};
use crate::editor::analysis::walk_report::WalkReport;
use crate::editor::character::CharacterWalk;
use crate::editor::character::walk;
use crate::editor::command::Command;
use crate::editor::document::Document;
use crate::editor::heights::{Heights, HeightsOut, PointerInput};
use crate::editor::movers::points3d::PathPoints;
use crate::editor::view3d::scene::{CameraMode, Lines, eye_height};
use crate::editor::view3d::{Ball, Dynamic, StaticInput, View3d};
use crate::level::ObjectId;
use crate::scene::Scene;
use crate::shape::Ray;

/// How long past a wheel gesture's deadline the frame that ends it is asked for, seconds (a frame a little
/// early would find the wheel not yet quiet and ask again).
const REPAINT_PAST_DEADLINE_SECS: f64 = 0.005;

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
    /// Run a command (the toolbar's buttons).
    Run(Command),
    /// A click with the Reach tool: the feet on the surface under it (`None`: nothing there).
    Reach(Option<Vec3>),
    /// A Shift+click with the navigation overlay on: the feet on the surface under it (`None`: nothing).
    Nav(Option<Vec3>),
    /// A height gesture's preview or end (see [`crate::editor::heights`]).
    Heights(HeightsOut),
}

/// The 3D preview: the view, and what the features keep for it. It reads as the view (`Deref`) so the
/// camera and the panel's rectangle are where they always were.
pub struct Preview3 {
    /// The view: camera, the seeds' walker, the drawn scene.
    pub view: View3d,
    /// The level's character (Walk mode): its body, its last moves, pause and the selected move.
    pub character: CharacterWalk,
    /// The seeds' walker's last step and its comparison (Walker mode).
    pub walk: WalkReport,
    /// Heights edited here: the aimed surface, the gesture, the limits the changed heights meet.
    pub heights: Heights,
    /// The selected mover's path points, raised and lowered here too (aimed before the surfaces).
    pub points: PathPoints,
}

impl Deref for Preview3 {
    type Target = View3d;
    fn deref(&self) -> &View3d {
        &self.view
    }
}

impl DerefMut for Preview3 {
    fn deref_mut(&mut self) -> &mut View3d {
        &mut self.view
    }
}

impl Default for Preview3 {
    fn default() -> Self {
        Self::new()
    }
}

impl Preview3 {
    /// A fresh preview, open.
    #[must_use]
    pub fn new() -> Self {
        Self {
            view: View3d::new(),
            character: CharacterWalk::default(),
            walk: WalkReport::default(),
            heights: Heights::default(),
            points: PathPoints::default(),
        }
    }

    /// Switch the camera: Walk puts the level's character at its start, Walker the seeds' walker, Follow
    /// follows the selected ball.
    pub fn set_camera(&mut self, mode: CameraMode, doc: &Document, scene: &Scene) {
        match mode {
            CameraMode::Walk => self.start_character(doc, scene),
            CameraMode::Walker => {
                self.view.start_walking(doc);
                self.walk = WalkReport::default();
            }
            CameraMode::Follow => self.view.follow_selected(doc),
            CameraMode::Orbit => self.view.cam.mode = mode,
        }
    }

    /// Enter Walk mode: the level's character at the walker's start (or under where the orbit camera
    /// looks), its feet on the ground under it, nothing recorded yet.
    pub fn start_character(&mut self, doc: &Document, scene: &Scene) {
        let cam = &mut self.view.cam;
        let around = Vec2::new(cam.target.x, cam.target.z);
        let (character, at, facing) = walk::start(doc, scene, around, cam.walker.facing_deg);
        self.character = character;
        cam.mode = CameraMode::Walk;
        cam.walker.position = at;
        cam.walker.facing_deg = facing;
        cam.look_pitch = 0.0;
        self.sync_character_camera(&crate::editor::document::character::effective(doc.level()));
    }

    /// Walk `path` (feet positions from the walker start, as the reachability map gives them): the character
    /// is put at its first point and makes one `move_character` a point, paced at the walking speed (see
    /// [`crate::editor::character::follow`]), seen from behind (F4 goes back to its eyes).
    pub fn walk_path(&mut self, path: Vec<Vec3>, c: &crate::character::CharacterController) {
        let cam = &mut self.view.cam;
        let facing = walk::path_facing(&path).unwrap_or(cam.walker.facing_deg);
        self.character = CharacterWalk::on_path(path);
        cam.mode = CameraMode::Walk;
        cam.walker.facing_deg = facing;
        cam.look_pitch = 0.0;
        cam.character.third_person = true;
        self.sync_character_camera(c);
    }

    /// The camera follows the body.
    fn sync_character_camera(&mut self, c: &crate::character::CharacterController) {
        let feet = self.character.body.feet;
        let cam = &mut self.view.cam;
        cam.character.feet = feet;
        cam.character.height = c.height;
        cam.character.eye_height = eye_height(c.height, c.radius);
        cam.walker.position = Vec2::new(feet.x, feet.z);
    }

    /// Run a camera or character command. Returns the status line's message, and whether the Character tab
    /// should show (a pause, to step through the moves).
    pub fn run_character_command(
        &mut self,
        command: Command,
        doc: &Document,
        scene: &Scene,
    ) -> (Option<String>, bool) {
        let walking = self.walking_character();
        let say = |s: &str| Some(s.to_owned());
        match command {
            Command::SetCamera(mode) => {
                self.view.open = true;
                self.set_camera(mode, doc, scene);
                (None, false)
            }
            Command::ThirdPerson => {
                let third = &mut self.view.cam.character.third_person;
                *third = !*third;
                let at = if *third {
                    "the walk camera is behind the character"
                } else {
                    "the walk camera is at the character's eyes"
                };
                (say(at), false)
            }
            _ if !walking => (
                say("the character walks in the 3D preview's Walk mode"),
                false,
            ),
            Command::CharacterPause => {
                self.toggle_character_pause();
                if self.character.paused {
                    let m = "character paused: step through its moves in the Character tab";
                    (say(m), true)
                } else {
                    (say("character resumed"), false)
                }
            }
            Command::CharacterStepBack => {
                self.character_step_back();
                (None, false)
            }
            Command::CharacterStepForward => {
                self.character_step_forward(doc, scene);
                (None, false)
            }
            Command::CharacterRestart => {
                self.start_character(doc, scene);
                (None, false)
            }
            _ => (None, false),
        }
    }

    /// The character's selected move in the Character tab (while walking).
    #[must_use]
    pub fn selected_character_move(&self) -> Option<&crate::editor::character::MoveEntry> {
        if !self.walking_character() {
            return None;
        }
        self.character.selected_move()
    }

    /// Freeze or unfreeze the character (Walk mode).
    pub fn toggle_character_pause(&mut self) {
        self.character.toggle_pause();
    }

    /// Select the move before the selected one.
    pub fn character_step_back(&mut self) {
        self.character.step_back();
    }

    /// Select the move after the selected one; at the newest, a paused character makes one more step.
    pub fn character_step_forward(&mut self, doc: &Document, scene: &Scene) {
        let physics = walk::physics(doc, scene);
        self.character.follow_scene(doc.key(), scene);
        self.character.step_forward(&physics, scene);
        self.sync_character_camera(&physics.controller);
    }

    /// Once a frame in Walk mode: the character steps with the keys held, the camera follows it.
    fn walk_character(&mut self, ui: &Ui, doc: &Document, scene: &Scene) {
        let physics = walk::physics(doc, scene);
        let keys = walk::keys(ui, self.view.keys_captured, self.view.cam.walker.facing_deg);
        // Movers ride along: the walk keeps its own copy of a scene with movers at its time.
        self.character.follow_scene(doc.key(), scene);
        if let Some(facing) = self.character.walk_frame(ui, &physics, scene, keys) {
            // Walking a path: the camera faces the way it goes.
            self.view.cam.walker.facing_deg = facing;
        }
        self.sync_character_camera(&physics.controller);
    }

    /// Walk mode's scene and the time it shows (the selected move's), while the character walks.
    #[must_use]
    pub fn walk_clock(&self) -> Option<(&Scene, f32)> {
        self.character
            .timed_scene()
            .filter(|_| self.walking_character())
            .map(|s| (s, self.character.shown_time()))
    }

    /// The movers' paths and places, and the one-way arrows, at the shown scene time (Walk mode's, else the
    /// debugger's frame, else a recording's frame, else the level's: `movers::shown`). Returns each mover's
    /// offset then, where the view draws the moved objects.
    fn mover_lines(&self, input: &Input3<'_>, overlay: &mut Lines) -> Vec<(ObjectId, Vec3)> {
        use crate::editor::movers::{marks3d, shown};
        let level = input.doc.level();
        if level.movers.is_empty()
            && !level.aabbs.iter().any(|o| o.one_way)
            && !level.obbs.iter().any(|o| o.one_way)
            && !level.triangles.iter().any(|o| o.one_way)
            && !level.meshes.iter().any(|o| o.one_way)
            && !level.sectors.iter().any(|o| o.one_way)
        {
            return Vec::new();
        }
        let debugger = input
            .debug
            .debugger
            .as_ref()
            .filter(|_| input.debug.active())
            .map(|d| d.world().scene());
        // Walk mode's clock, else the navigation agent's while it walks (it rides a copy of the level whose
        // time runs with its walk).
        let walk = self.walk_clock().or_else(|| {
            input
                .nav
                .as_ref()
                .and_then(|n| n.walker)
                .and_then(|w| w.clock())
        });
        let clock = shown::clock(walk, debugger, input.recorded_movers);
        marks3d::movers(overlay, level, &|m| clock.offset(level, m));
        marks3d::one_way(overlay, level, &|o| clock.object_offset(level, o));
        level
            .movers
            .iter()
            .map(|m| (m.id, clock.offset(level, m.id)))
            .collect()
    }

    /// The followed ball's centre, velocity and radius, from the debugger's frame (or the level when the
    /// debugger is idle).
    fn followed(&self, input: &Input3<'_>) -> Option<Ball> {
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

    /// The panel: a toolbar, then the view. Returns what a click asked for.
    pub fn ui(&mut self, ui: &mut Ui, input: &Input3<'_>) -> Option<Action3> {
        let ball = self.followed(input);
        let statics = StaticInput {
            doc: input.doc,
            paint: input.paint,
            wall_radii: input.wall_radii,
            greyed: input.reach.is_some(),
            cook: &|level, f| crate::editor::greybox::scene::with_cooked_sectors(level, |c| f(c)),
        };
        let paused = self.character.paused;
        self.view.edits_with_pointer = self.heights.wants_pointer() || self.points.wants_pointer();
        let began = self.view.begin(ui, &statics, &input.scene, paused, ball);
        let heights = self.heights_frame(ui, input, &began.pointer);
        if began.new_document {
            self.walk = WalkReport::default();
            self.character = CharacterWalk::default();
            self.heights = Heights::default();
            self.points = PathPoints::default();
        }
        if began.walker_restarted {
            self.walk = WalkReport::default();
        }
        if let Some((from, motion, outcome)) = began.walked {
            self.walk.record(input.doc.level(), from, motion, outcome);
        }
        if self.view.cam.mode == CameraMode::Walk {
            self.walk_character(ui, input.doc, &input.scene);
        }
        // A path point's height gesture ended: its one step runs as a command.
        let path_step = self.points.take_finished().map(Command::Apply);
        let action = began
            .command
            .map(Action3::Run)
            .or(heights.map(Action3::Heights))
            .or(path_step.map(Action3::Run))
            .or_else(|| self.click(ui, &began.response, input, ball));
        self.view
            .paint(ui, ball, began.statics, self.dynamic(input, ball));
        reach_labels(&self.view, ui, input);
        super::preview_lines::height_labels(
            &self.view,
            ui,
            input,
            &mut self.heights,
            &self.points,
            &began.pointer,
        );
        let mut hud = match self.view.cam.mode {
            CameraMode::Walk => self.character.hud(input.doc),
            _ => self.view.hud_text(),
        };
        if self.view.cam.mode == CameraMode::Walker {
            hud.push_str(&self.walk.describe());
        }
        self.view.draw_hud(ui, hud);
        action
    }

    /// The height feature's frame: the pointer's aim, a gesture's step or end (`None`: nothing to write).
    fn heights_frame(
        &mut self,
        ui: &Ui,
        input: &Input3<'_>,
        pointer: &crate::editor::view3d::Pointer3,
    ) -> Option<HeightsOut> {
        let p = PointerInput {
            ray: pointer.ray,
            wheel: pointer.wheel,
            drag: pointer.alt_drag,
            drag_ended: pointer.released,
            now: ui.input(|i| i.time),
            step: input.height_step,
        };
        // A path point aimed takes the pointer before the surfaces behind it.
        if self.heights.gesture.is_none() {
            self.points.frame(input.doc, &p);
        }
        let taken = self.heights.gesture.is_none() && self.points.wants_pointer();
        let out = self.heights.frame(input.doc, &input.scene, &p, taken);
        if let Some(end) = self.heights.deadline().or(self.points.deadline()) {
            // The wheel going quiet ends the gesture, and no input may come then (the pointer resting):
            // a frame is asked for just past the deadline, which ends it.
            let wait = (end - p.now).max(0.0) + REPAINT_PAST_DEADLINE_SECS;
            // (`_secs` ignores a delay no `Duration` holds rather than panicking.)
            ui.ctx().request_repaint_after_secs(wait as f32);
        }
        (out != HeightsOut::Nothing).then_some(out)
    }

    /// The place a click along `ray` asks about (a path's start or goal, the Reach tool's spot): a skin above
    /// the surface the preview shows there. A sector's faces count from the side the preview draws them (the
    /// heights' pick), so from above a room gives its floor, not the top of the ceiling it does not draw
    /// (an upper storey's floor, not its roof); anything else is what the scene's ray meets first.
    fn spot_under(&mut self, input: &Input3<'_>, ray: &Ray, reach: f32) -> Option<Vec3> {
        let skin = crate::editor::document::character::effective(input.doc.level()).skin;
        let shown = self.heights.aim(input.doc, &input.scene, ray, reach);
        let point = match shown {
            Some(aim) => Some(aim.point),
            None => input.scene.cast_ray(ray, reach).map(|h| h.point),
        };
        point.map(|p| p + Vec3::Y * skin)
    }

    /// A click selects what is under the pointer (a sector's surface aimed is remembered), casts the probe
    /// with the Probe tool, or asks the reachability map with the Reach tool.
    fn click(
        &mut self,
        ui: &Ui,
        resp: &egui::Response,
        input: &Input3<'_>,
        ball: Option<Ball>,
    ) -> Option<Action3> {
        let click = self.view.click(ui, resp, ball)?;
        let (ray, reach) = (click.ray, click.reach);
        Some(if input.probe_tool {
            Action3::Probe(ray, reach)
        } else if input.nav.is_some() && click.shift {
            Action3::Nav(self.spot_under(input, &ray, reach))
        } else if input.reach_tool {
            Action3::Reach(self.spot_under(input, &ray, reach))
        } else if self.points.hover.is_some() {
            // A click on a mover's path point keeps the mover selected (its points stay to drag).
            return None;
        } else if let Some(aim) = self.heights.hover {
            self.heights.chosen = Some(aim.target);
            Action3::Select {
                hit: Some(aim.target.id()),
                add: click.shift,
            }
        } else {
            self.heights.chosen = None;
            let hits = crate::editor::analysis::probe::cast_in(
                input.doc.level(),
                &input.scene,
                &ray,
                reach,
            );
            Action3::Select {
                hit: hits.hits.first().map(|h| h.object),
                add: click.shift,
            }
        })
    }

    /// This frame's balls and lines: the debugger's, the walker's crossing, the probe, the recording's
    /// query and move, the character, the reachability overlay.
    fn dynamic(&self, input: &Input3<'_>, ball: Option<Ball>) -> Dynamic {
        let (spheres, mut lines, mut overlay) = dynamic(input);
        if self.view.cam.mode == CameraMode::Walker
            && let Some(p) = self.walk.outcome.and_then(|o| o.crossing)
        {
            overlay.cross(p, 0.15, [255, 80, 80, 255]);
        }
        let (eye, _) = self.view.cam.eye_forward(ball);
        let character = (self.view.cam.mode == CameraMode::Walk).then(|| Walking {
            walk: &self.character,
            third_person: self.view.cam.character.third_person,
            eye: self.view.cam.eye_forward(None).0,
        });
        scene_lines(input, eye, character, &mut lines, &mut overlay);
        let movers = self.mover_lines(input, &mut overlay);
        super::preview_lines::height_lines(
            input.doc.level(),
            &self.heights,
            &self.points,
            &mut overlay,
        );
        Dynamic {
            spheres,
            lines,
            overlay,
            translucent: input.reach.as_ref().map(|r| r.surface.clone()),
            movers,
        }
    }
}
