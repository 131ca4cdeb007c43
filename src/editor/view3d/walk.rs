//! Walk mode: the level's character in the 3D preview. The keys (W A S D or the arrows with the pointer over
//! the preview, Shift runs, E jumps) become a [`TickInput`] each frame; the character runs fixed steps of
//! [`CharacterWalk`]; the camera sits at its eyes or behind it (F4); the selected move's workings are drawn
//! as capsule wire frames, paths and normals.

use egui::{Key, Ui};
use glam::{Vec2, Vec3};

use crate::editor::character::model::{self, CharacterWalk, FALL_LIMIT, Physics, TickInput};
use crate::editor::character::workings::{limit_text, short_name, v3};
use crate::editor::character::{MarkKind, MoveMarks};
use crate::editor::document::Document;
use crate::editor::view3d::scene::{CHARACTER_RGBA, CameraMode, Lines, eye_height};
use crate::editor::view3d::{Input3, View3d};
use crate::scene::Scene;

/// The key that jumps in Walk mode (Space is the debugger's).
pub const JUMP_KEY: Key = Key::E;
/// The key held to crouch in Walk mode (the Cylinder tool's C yields to walking, as W, S and E do).
pub const CROUCH_KEY: Key = Key::C;

/// The character's world for the document: its character (or the default), the level's gravity, and the
/// height below which it has fallen out ([`FALL_LIMIT`] under the lowest object).
#[must_use]
pub fn physics(doc: &Document, scene: &Scene) -> Physics {
    let level = doc.level();
    Physics {
        controller: crate::editor::document::character::effective(level),
        gravity: level.simulation.gravity,
        floor_limit: scene.bounds().map_or(0.0, |b| b.min.y) - FALL_LIMIT,
    }
}

impl View3d {
    /// Enter Walk mode: the level's character at the walker's start (or under where the orbit camera
    /// looks), its feet on the ground under it, nothing recorded yet.
    pub fn start_character(&mut self, doc: &Document, scene: &Scene) {
        let c = crate::editor::document::character::effective(doc.level());
        let (at, from_y, facing) = match &doc.level().walker {
            Some(w) => (w.position, w.eye_height, w.facing_deg),
            None => (
                Vec2::new(self.cam.target.x, self.cam.target.z),
                scene.bounds().map_or(1.0, |b| b.max.y + 1.0),
                self.cam.walker.facing_deg,
            ),
        };
        let feet = model::start_feet(scene, &c, at, from_y);
        let third_person = self.cam.character.third_person;
        self.character = CharacterWalk::new(feet);
        self.cam.mode = CameraMode::Walk;
        self.cam.walker.position = at;
        self.cam.walker.facing_deg = facing;
        self.cam.look_pitch = 0.0;
        self.cam.character.third_person = third_person;
        self.sync_character_camera(&c);
    }

    /// Walk `path` (feet positions from the walker start, as the reachability map gives them): the character
    /// is put at its first point and makes one `move_character` a point, paced at the walking speed (see
    /// [`crate::editor::character::follow`]), seen from behind (F4 goes back to its eyes).
    pub fn walk_path(&mut self, path: Vec<Vec3>, c: &crate::character::CharacterController) {
        let facing = path
            .windows(2)
            .map(|w| w[1] - w[0])
            .find(|d| d.x != 0.0 || d.z != 0.0)
            .map_or(self.cam.walker.facing_deg, |d| {
                (-d.x).atan2(-d.z).to_degrees()
            });
        self.character = CharacterWalk::on_path(path);
        self.cam.mode = CameraMode::Walk;
        self.cam.walker.facing_deg = facing;
        self.cam.look_pitch = 0.0;
        self.cam.character.third_person = true;
        self.sync_character_camera(c);
    }

    /// The camera follows the body.
    fn sync_character_camera(&mut self, c: &crate::character::CharacterController) {
        let body = self.character.body;
        self.cam.character.feet = body.feet;
        self.cam.character.height = c.height;
        self.cam.character.eye_height = eye_height(c.height, c.radius);
        self.cam.walker.position = Vec2::new(body.feet.x, body.feet.z);
    }

    /// This frame's keys as the character's input (idle when walking does not own the keys).
    fn character_input(&self, ui: &Ui) -> TickInput {
        let facing_deg = self.cam.walker.facing_deg;
        if !self.keys_captured {
            return TickInput {
                facing_deg,
                ..TickInput::default()
            };
        }
        ui.input(|i| {
            let axis = |p: [Key; 2], n: [Key; 2]| {
                i8::from(p.iter().any(|k| i.key_down(*k)))
                    - i8::from(n.iter().any(|k| i.key_down(*k)))
            };
            TickInput {
                forward: axis([Key::W, Key::ArrowUp], [Key::S, Key::ArrowDown]),
                right: axis([Key::D, Key::ArrowRight], [Key::A, Key::ArrowLeft]),
                run: i.modifiers.shift,
                jump: i.key_pressed(JUMP_KEY),
                crouch: i.key_down(CROUCH_KEY),
                facing_deg,
            }
        })
    }

    /// Once a frame in Walk mode: the fixed steps this frame's time makes, with the keys held.
    pub(super) fn walk_character(&mut self, ui: &Ui, input: &Input3<'_>) {
        let physics = physics(input.doc, &input.scene);
        let keys = self.character_input(ui);
        let dt = f64::from(ui.input(|i| i.stable_dt));
        let following = self.character.following();
        self.character.advance(&physics, &input.scene, keys, dt);
        if following && let Some(m) = self.character.last() {
            // Walking a path: the camera faces the way it goes.
            self.cam.walker.facing_deg = m.input.facing_deg;
        }
        self.sync_character_camera(&physics.controller);
        if !self.character.paused && !self.character.at_rest(&keys) {
            ui.ctx().request_repaint();
        }
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
        let physics = physics(doc, scene);
        self.character.step_forward(&physics, scene);
        self.sync_character_camera(&physics.controller);
    }

    /// The character's lines for this frame: its body seen from behind (third person) or its footprint on
    /// the ground (first person), and the selected move's workings.
    pub(super) fn character_lines(&self, lines: &mut Lines, overlay: &mut Lines) {
        let c = self
            .character
            .last()
            .map(|m| m.controller)
            .unwrap_or_default();
        let feet = self.character.body.feet;
        if self.cam.character.third_person {
            let body = c.capsule(feet);
            lines.capsule(body.a, body.b, body.radius, CHARACTER_RGBA);
        }
        lines.circle(feet + Vec3::Y * 0.02, Vec3::Y, c.radius, CHARACTER_RGBA);
        if let Some(m) = self.character.selected_move() {
            let (eye, _) = self.cam.eye_forward(None);
            move_lines(
                &MoveMarks::of(&m.controller, &m.result),
                eye,
                lines,
                overlay,
            );
        }
    }

    /// The HUD's text in Walk mode: where the character is, what it stands on, why its last move ended
    /// short, and the keys.
    pub(super) fn character_hud(&self, doc: &Document) -> String {
        let w = &self.character;
        let b = &w.body;
        // The speed the last move made (a blocked character asks for more than it makes).
        let made = match w.last() {
            // A path's moves are a step each, paced at the walking speed.
            _ if w.following() => model::WALK_SPEED,
            Some(m) => {
                let d = m.result.displacement();
                Vec2::new(d.x, d.z).length() * model::TICK_HZ as f32
            }
            None => 0.0,
        };
        let mut text = format!(
            "character at {} {}, moving {:.1} m/s{}",
            v3(b.feet),
            if b.grounded {
                "on the ground"
            } else {
                "in the air"
            },
            if w.at_rest(&TickInput::default()) {
                0.0
            } else {
                made
            },
            if w.paused { " — PAUSED (Q)" } else { "" }
        );
        if let Some(m) = w.last() {
            if let Some(g) = &m.result.ground {
                text.push_str(&format!(" ({})", short_name(doc, g.object)));
            }
            if let Some(l) = limit_text(&m.controller, &m.result, doc) {
                text.push_str(&format!("\nlast move: {l}"));
            }
        }
        if w.fell_out {
            text.push_str("\nfell out of the level: Back to start");
        }
        if let Some(p) = &w.path {
            text.push('\n');
            text.push_str(&p.describe());
        }
        text.push_str(
            "\nW A S D with the pointer here, Shift runs, E jumps, drag looks, Q pauses, F4 third person",
        );
        text
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
