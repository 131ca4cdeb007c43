//! Walk mode's stepping: the keys (W A S D or the arrows with the pointer over the 3D preview, Shift runs, E
//! jumps, C crouches) become a [`TickInput`] each frame and the character runs the fixed steps of
//! [`CharacterWalk`] that the frame's time makes. The preview only places its camera where the body is;
//! what the body does is decided here.

use egui::{Key, Ui};
use glam::{Vec2, Vec3};

use super::model::{self, CharacterWalk, FALL_LIMIT, Physics, TickInput};
use super::workings::{limit_text, short_name, v3};
use crate::editor::document::Document;
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

/// Where Walk mode starts: at the walker's start, or at floor point `around` facing `facing_deg` when the
/// level has none. Returns the character (its feet on the ground under the spot, nothing recorded yet), the
/// floor point and the facing.
#[must_use]
pub fn start(
    doc: &Document,
    scene: &Scene,
    around: Vec2,
    facing_deg: f32,
) -> (CharacterWalk, Vec2, f32) {
    let level = doc.level();
    let c = crate::editor::document::character::effective(level);
    let (at, from_y, facing) = match &level.walker {
        Some(w) => (
            w.position,
            w.height.unwrap_or(0.0) + w.eye_height,
            w.facing_deg,
        ),
        None => (
            around,
            scene.bounds().map_or(1.0, |b| b.max.y + 1.0),
            facing_deg,
        ),
    };
    // The walker start's storey: the first supporting surface at or below its height plus max_step (what
    // `check --reach` starts from too), a skin above it; else the first surface under the eye.
    let feet = level
        .walker
        .as_ref()
        .and_then(|_| level.start_feet(scene))
        .map_or_else(
            || model::start_feet(scene, &c, at, from_y),
            |ground| ground + Vec3::Y * c.skin,
        );
    (CharacterWalk::new(feet), at, facing)
}

/// The facing (degrees, 0 looking down `-z`) of a path's first move along the floor.
#[must_use]
pub fn path_facing(path: &[Vec3]) -> Option<f32> {
    path.windows(2)
        .map(|w| w[1] - w[0])
        .find(|d| d.x != 0.0 || d.z != 0.0)
        .map(|d| (-d.x).atan2(-d.z).to_degrees())
}

/// This frame's keys as the character's input, facing `facing_deg` (idle when walking does not own the
/// keys: `captured` is false).
#[must_use]
pub fn keys(ui: &Ui, captured: bool, facing_deg: f32) -> TickInput {
    if !captured {
        return TickInput {
            facing_deg,
            ..TickInput::default()
        };
    }
    ui.input(|i| {
        let axis = |p: [Key; 2], n: [Key; 2]| {
            i8::from(p.iter().any(|k| i.key_down(*k))) - i8::from(n.iter().any(|k| i.key_down(*k)))
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

impl CharacterWalk {
    /// Once a frame in Walk mode: the fixed steps this frame's time makes with `keys`. Asks for a repaint
    /// while the character moves. Returns the facing of the last move while walking a path (the camera faces
    /// the way it goes).
    pub fn walk_frame(
        &mut self,
        ui: &Ui,
        physics: &Physics,
        scene: &Scene,
        keys: TickInput,
    ) -> Option<f32> {
        let dt = f64::from(ui.input(|i| i.stable_dt));
        let following = self.following();
        self.advance(physics, scene, keys, dt);
        if !self.paused && !self.at_rest(&keys) {
            ui.ctx().request_repaint();
        }
        following
            .then(|| self.last().map(|m| m.input.facing_deg))
            .flatten()
    }

    /// The HUD's text in Walk mode: where the character is, what it stands on, why its last move ended
    /// short, and the keys.
    #[must_use]
    pub fn hud(&self, doc: &Document) -> String {
        let b = &self.body;
        // The speed the last move made (a blocked character asks for more than it makes).
        let made = match self.last() {
            // A path's moves are a step each, paced at the walking speed.
            _ if self.following() => model::WALK_SPEED,
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
            if self.at_rest(&TickInput::default()) {
                0.0
            } else {
                made
            },
            if self.paused { " — PAUSED (Q)" } else { "" }
        );
        if let Some(m) = self.last() {
            if let Some(g) = &m.result.ground {
                text.push_str(&format!(" ({})", short_name(doc, g.object)));
            }
            if let Some(l) = limit_text(&m.controller, &m.result, doc) {
                text.push_str(&format!("\nlast move: {l}"));
            }
            if let Some(t) = super::workings::mover_text(&m.result, doc) {
                text.push_str(&format!("\nmovers: {t}"));
            }
        }
        if self.fell_out {
            text.push_str("\nfell out of the level: Back to start");
        }
        if let Some(p) = &self.path {
            text.push('\n');
            text.push_str(&p.describe());
        }
        text.push_str(
            "\nW A S D with the pointer here, Shift runs, E jumps, drag looks, Q pauses, F4 third person",
        );
        text
    }
}
