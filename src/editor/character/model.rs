//! The level's character walked in the 3D preview (no egui): the runtime's [`Body`], stepped by
//! [`Body::step`] (the one integrator a game calls too, so the preview is what the game does) with the keys
//! turned into a [`BodyInput`], the ring of the last moves with the input that made each, pause and the
//! selected move.
//!
//! Steps are fixed ([`TICK_HZ`], accumulated from the frame time), so the same keys give the same moves bit
//! for bit, and [`replay`] makes them again from the inputs the ring keeps.

use std::collections::VecDeque;

use glam::{Vec2, Vec3};

pub use crate::character::Body;
use crate::character::{BodyInput, CharacterController, CharacterMove, Limit};
use crate::editor::document::DocKey;
use crate::scene::Scene;
use crate::shape::Ray;

/// Fixed steps per second.
pub const TICK_HZ: f64 = 60.0;
/// Moves the ring keeps: ten seconds of walking at [`TICK_HZ`].
pub const RING_MOVES: usize = 600;
/// Most fixed steps one frame may run (a frame slower than this drops the rest of its time: no catching up
/// with a long stall).
pub const MAX_TICKS_PER_FRAME: u32 = 6;
/// Walking speed, metres per second (Shift runs [`RUN_FACTOR`] times as fast).
pub const WALK_SPEED: f32 = 3.0;
/// Shift's speed factor.
pub const RUN_FACTOR: f32 = 3.0;
/// How far below the level's lowest object a falling character stops being simulated, metres.
pub const FALL_LIMIT: f32 = 50.0;

/// The keys of one fixed step, and the facing they are relative to.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TickInput {
    /// +1 forward (W, ↑), −1 back (S, ↓), 0 neither or both.
    pub forward: i8,
    /// +1 right (D, →), −1 left (A, ←).
    pub right: i8,
    /// Shift: run.
    pub run: bool,
    /// The jump key was pressed (E).
    pub jump: bool,
    /// The crouch key is held (C).
    pub crouch: bool,
    /// Facing, degrees about `y` (0 looks down `−z`, 90 down `−x`), as the walker's.
    pub facing_deg: f32,
}

impl TickInput {
    /// No movement key and no jump (crouching in place is idle too: it changes nothing while held, and
    /// standing up again is a step the body takes when it next moves).
    #[must_use]
    pub fn idle(&self) -> bool {
        self.forward == 0 && self.right == 0 && !self.jump
    }

    /// The keys in a few letters for lists: `W`, `W+D run`, `jump`, `–`.
    #[must_use]
    pub fn keys_text(&self) -> String {
        let mut keys = Vec::new();
        match self.forward {
            1 => keys.push("W"),
            -1 => keys.push("S"),
            _ => {}
        }
        match self.right {
            1 => keys.push("D"),
            -1 => keys.push("A"),
            _ => {}
        }
        let mut s = if keys.is_empty() {
            String::from("–")
        } else {
            keys.join("+")
        };
        if self.run && !keys.is_empty() {
            s.push_str(" run");
        }
        if self.jump {
            s.push_str(" jump");
        }
        if self.crouch {
            s.push_str(" crouch");
        }
        s
    }

    /// The body's input for this step: the keys' horizontal velocity, jump and crouch.
    #[must_use]
    pub fn body_input(&self) -> BodyInput {
        BodyInput {
            wish: self.wish(),
            jump: self.jump,
            crouch: self.crouch,
        }
    }

    /// The horizontal velocity the keys ask for, `(x, z)`, metres per second.
    #[must_use]
    pub fn wish(&self) -> Vec2 {
        let a = self.facing_deg.to_radians();
        let forward = Vec2::new(-a.sin(), -a.cos());
        let right = Vec2::new(-forward.y, forward.x);
        let dir =
            (forward * f32::from(self.forward) + right * f32::from(self.right)).normalize_or_zero();
        let speed = if self.run {
            WALK_SPEED * RUN_FACTOR
        } else {
            WALK_SPEED
        };
        dir * speed
    }
}

/// The world a step runs in: the character, gravity and the fixed step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Physics {
    /// The level's character (or the default).
    pub controller: CharacterController,
    /// The level's `simulation.gravity`.
    pub gravity: Vec3,
    /// Below this height the character has fallen out of the level and stops.
    pub floor_limit: f32,
}

/// One fixed step of `dt` seconds: [`Body::step`] with the keys' input and the level's gravity.
#[must_use]
pub fn step(
    physics: &Physics,
    scene: &Scene,
    body: Body,
    input: &TickInput,
    dt: f32,
) -> (Body, CharacterMove) {
    let mut next = body;
    let m = next.step(
        &physics.controller,
        scene,
        &input.body_input(),
        physics.gravity,
        dt,
    );
    (next, m)
}

/// The moves made again from `start` with `inputs`, one fixed step each (what [`CharacterWalk`] recorded
/// from the same start and inputs, bit for bit).
#[must_use]
pub fn replay(
    physics: &Physics,
    scene: &Scene,
    start: Body,
    inputs: &[TickInput],
) -> Vec<CharacterMove> {
    let dt = (1.0 / TICK_HZ) as f32;
    let mut body = start;
    inputs
        .iter()
        .map(|input| {
            let (next, m) = step(physics, scene, body, input, dt);
            body = next;
            m
        })
        .collect()
}

/// Where the character starts: on the ground under `at` = `(x, z)`, the first surface a ray down from
/// `from_y` meets (the feet a skin above it), or at `y = 0` when there is none.
#[must_use]
pub fn start_feet(scene: &Scene, controller: &CharacterController, at: Vec2, from_y: f32) -> Vec3 {
    let origin = Vec3::new(at.x, from_y, at.y);
    let ground = scene
        .cast_ray(&Ray::new(origin, Vec3::NEG_Y), 1e4)
        .map(|h| h.point.y);
    Vec3::new(at.x, ground.map_or(0.0, |y| y + controller.skin), at.y)
}

/// One move in the ring: the step that made it and what it answered.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveEntry {
    /// Fixed step number since the walk started (0 first).
    pub tick: u64,
    /// The keys of that step.
    pub input: TickInput,
    /// The body before the step.
    pub before: Body,
    /// The body after it.
    pub after: Body,
    /// The character that made it (the level's at the time).
    pub controller: CharacterController,
    /// The move, with its workings.
    pub result: CharacterMove,
    /// For a move made walking a reachability path (not by keys), the index of the path's point it went to.
    pub path_step: Option<u32>,
}

impl MoveEntry {
    /// Seconds since the walk started, at the end of this move.
    #[must_use]
    pub fn time(&self) -> f64 {
        (self.tick + 1) as f64 / TICK_HZ
    }
}

/// The character walking in the 3D preview: the body, the ring of its last moves, pause and the selected
/// move.
#[derive(Clone, Debug)]
pub struct CharacterWalk {
    /// The body now.
    pub body: Body,
    /// Frozen: no steps run (the ring can be stepped through).
    pub paused: bool,
    /// The selected move, by its tick (drawn in both views, its workings in the Character tab).
    pub selected: Option<u64>,
    /// The character fell below [`Physics::floor_limit`] and stopped.
    pub fell_out: bool,
    /// The reachability path it walks, while it walks one (see `follow.rs`); keys take over from it.
    pub path: Option<super::path::PathWalk>,
    moves: VecDeque<MoveEntry>,
    next_tick: u64,
    accumulator: f64,
    jump_queued: bool,
    /// The walk's own scene with movers at its time (see `ride.rs`); `None` on a level without movers.
    pub(super) timed: Option<TimedScene>,
}

/// The walk's scene with movers: the document revision it was made from, and the scene itself (kept here,
/// beside the walk that owns it, so `ride.rs` builds on this file and this file imports nothing of it).
#[derive(Clone, Debug)]
pub struct TimedScene {
    /// The revision the copy was made from (an edit makes a new copy, keeping the starts).
    pub key: DocKey,
    /// The copy, its movers at the walk's time.
    pub scene: Box<Scene>,
}

impl Default for CharacterWalk {
    fn default() -> Self {
        Self::new(Vec3::ZERO)
    }
}

impl CharacterWalk {
    /// A character standing (not yet settled) with its feet at `feet`, nothing recorded.
    #[must_use]
    pub fn new(feet: Vec3) -> Self {
        Self {
            body: Body::new(feet),
            paused: false,
            selected: None,
            fell_out: false,
            path: None,
            moves: VecDeque::with_capacity(RING_MOVES),
            next_tick: 0,
            accumulator: 0.0,
            jump_queued: false,
            timed: None,
        }
    }

    /// The moves kept, oldest first (at most [`RING_MOVES`]).
    #[must_use]
    pub fn moves(&self) -> &VecDeque<MoveEntry> {
        &self.moves
    }

    /// The newest move.
    #[must_use]
    pub fn last(&self) -> Option<&MoveEntry> {
        self.moves.back()
    }

    /// The selected move, while it is still in the ring.
    #[must_use]
    pub fn selected_move(&self) -> Option<&MoveEntry> {
        let tick = self.selected?;
        let first = self.moves.front()?.tick;
        self.moves
            .get(usize::try_from(tick.checked_sub(first)?).ok()?)
    }

    /// Whether a step would change nothing: no key, standing on the ground, still (or the last move was
    /// refused as invalid, or the character fell out of the level). Resting steps are not run, so the ring
    /// keeps moves, not waiting.
    #[must_use]
    pub fn at_rest(&self, input: &TickInput) -> bool {
        if !input.idle() || self.jump_queued || self.following() {
            return false;
        }
        let invalid = self
            .last()
            .is_some_and(|m| matches!(m.result.limit, Some(Limit::Invalid { .. })));
        // Crouching or standing up is a step; a body that could not stand up (a low ceiling) with the key
        // let go in its last step is settled as it is.
        let posture_settled = input.crouch == self.body.crouching
            || (!input.crouch && self.last().is_some_and(|m| !m.input.crouch));
        // Movers move on while the character stands: its time (and its ride) goes on.
        self.fell_out
            || invalid
            || (self.timed.is_none()
                && self.body.grounded
                && self.body.velocity == Vec3::ZERO
                && posture_settled)
    }

    /// Run the fixed steps that `dt_secs` of frame time makes (at most [`MAX_TICKS_PER_FRAME`]), each with
    /// `input`; a jump pressed this frame goes to the first step. Nothing runs while paused or at rest.
    /// Returns the number of steps run.
    pub fn advance(
        &mut self,
        physics: &Physics,
        scene: &Scene,
        input: TickInput,
        dt_secs: f64,
    ) -> u32 {
        if input.jump {
            self.jump_queued = true;
        }
        if !input.idle() {
            // The keys take over from a path.
            self.path = None;
        }
        if self.paused || self.at_rest(&input) {
            self.accumulator = 0.0;
            self.jump_queued = false;
            return 0;
        }
        let step_secs = 1.0 / TICK_HZ;
        self.accumulator += if dt_secs.is_finite() {
            dt_secs.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let mut ran = 0;
        while self.accumulator >= step_secs && ran < MAX_TICKS_PER_FRAME {
            self.accumulator -= step_secs;
            if self.following() {
                self.path_tick(physics, scene);
            } else {
                let jump = std::mem::take(&mut self.jump_queued);
                self.tick(physics, scene, TickInput { jump, ..input });
            }
            ran += 1;
            if self.at_rest(&input) {
                break;
            }
        }
        if ran == MAX_TICKS_PER_FRAME {
            self.accumulator = self.accumulator.min(step_secs);
        }
        ran
    }

    /// One fixed step with `input`, kept in the ring.
    pub fn tick(&mut self, physics: &Physics, scene: &Scene, input: TickInput) {
        let before = self.body;
        let dt = (1.0 / TICK_HZ) as f32;
        let (after, result, _started) = self.on_timed_scene(self.next_tick, scene, physics, |s| {
            step(physics, s, before, &input, dt)
        });
        self.record(physics, before, after, input, result, None);
    }

    /// Keep a move made from `before` in the ring, the body now `after`.
    pub(super) fn record(
        &mut self,
        physics: &Physics,
        before: Body,
        after: Body,
        input: TickInput,
        result: CharacterMove,
        path_step: Option<u32>,
    ) {
        self.body = after;
        self.fell_out = after.feet.y < physics.floor_limit;
        if self.moves.len() == RING_MOVES {
            self.moves.pop_front();
        }
        self.moves.push_back(MoveEntry {
            tick: self.next_tick,
            input,
            before,
            after,
            controller: physics.controller,
            result,
            path_step,
        });
        self.next_tick += 1;
        if self.selected_move().is_none() {
            self.selected = None;
        }
    }

    /// Freeze or unfreeze the character. Pausing selects the newest move (its workings show at once).
    pub fn toggle_pause(&mut self) {
        self.paused = !self.paused;
        self.accumulator = 0.0;
        if self.paused && self.selected.is_none() {
            self.selected = self.last().map(|m| m.tick);
        }
    }

    /// Select the move before the selected one (the newest when none is).
    pub fn step_back(&mut self) {
        let Some(first) = self.moves.front().map(|m| m.tick) else {
            return;
        };
        self.selected = Some(match self.selected_move() {
            Some(m) => m.tick.saturating_sub(1).max(first),
            None => self.last().map_or(first, |m| m.tick),
        });
    }

    /// Select the move after the selected one. At the newest move of a paused character, one more step is
    /// made with the newest move's keys (a frame advance) and selected.
    pub fn step_forward(&mut self, physics: &Physics, scene: &Scene) {
        let Some(last) = self.last().map(|m| (m.tick, m.input)) else {
            return;
        };
        match self.selected_move().map(|m| m.tick) {
            Some(t) if t < last.0 => self.selected = Some(t + 1),
            _ if self.paused && !self.fell_out => {
                self.tick(
                    physics,
                    scene,
                    TickInput {
                        jump: false,
                        ..last.1
                    },
                );
                self.selected = self.last().map(|m| m.tick);
            }
            _ => self.selected = Some(last.0),
        }
    }

    /// The keys of every move kept, oldest first, with the body before the oldest (what [`replay`] needs);
    /// `None` when a kept move was made walking a path (it had no keys).
    #[must_use]
    pub fn inputs(&self) -> Option<(Body, Vec<TickInput>)> {
        let first = self.moves.front()?;
        if self.moves.iter().any(|m| m.path_step.is_some()) {
            return None;
        }
        Some((first.before, self.moves.iter().map(|m| m.input).collect()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    fn playground() -> (Scene, Physics) {
        let level = Level::from_ron_str(include_str!("../../../levels/playground.ron"))
            .unwrap_or_else(|e| panic!("{e}"));
        let scene = Scene::build(&level);
        let physics = Physics {
            controller: level.character.unwrap_or_default(),
            gravity: level.simulation.gravity,
            floor_limit: -FALL_LIMIT,
        };
        (scene, physics)
    }

    fn keys(forward: i8, right: i8) -> TickInput {
        TickInput {
            forward,
            right,
            ..TickInput::default()
        }
    }

    /// Hold `input` for at most `ticks` steps (frames of 0.05 s), until `done`.
    fn hold(
        w: &mut CharacterWalk,
        (scene, physics): &(Scene, Physics),
        input: TickInput,
        ticks: usize,
        done: impl Fn(&CharacterWalk) -> bool,
    ) {
        for _ in 0..ticks {
            w.advance(physics, scene, input, 0.05);
            if done(w) {
                return;
            }
        }
    }

    #[test]
    fn the_character_climbs_the_low_stairs_and_is_stopped_by_the_high_riser() {
        let world = playground();
        let (scene, physics) = &world;
        let feet = start_feet(scene, &physics.controller, Vec2::new(-16.5, -2.0), 1.7);
        assert!((feet.y - 0.01).abs() < 1e-5, "{feet}");
        let mut w = CharacterWalk::new(feet);
        // Up the 0.2 m stairs onto their landing, 1 m up.
        hold(&mut w, &world, keys(1, 0), 200, |w| w.body.feet.z < -7.0);
        assert!(
            (w.body.feet.y - 1.01).abs() < 0.01 && w.body.grounded,
            "{:?}",
            w.body
        );
        let climbed: f32 = w.moves().iter().map(|m| m.result.stepped_up).sum();
        assert!((climbed - 1.0).abs() < 0.01, "{climbed}");
        // Back down (every move grounded: the snap), east along the front of the stairs, north into the
        // 0.42 m riser.
        hold(&mut w, &world, keys(-1, 0), 200, |w| w.body.feet.z > -2.5);
        assert!(w.body.grounded && w.body.feet.y < 0.05);
        hold(&mut w, &world, keys(0, 1), 400, |w| w.body.feet.x > -6.5);
        hold(&mut w, &world, keys(1, 0), 40, |_| false);
        let last = w.last().unwrap_or_else(|| unreachable!());
        assert!(w.body.feet.z > -4.0 - 0.3 - 0.02, "{:?}", w.body);
        match &last.result.limit {
            Some(Limit::StepTooHigh {
                object,
                height: Some(h),
                ..
            }) => {
                assert_eq!(object.0, 133);
                assert!((h - 0.42).abs() < 1e-3, "{h}");
            }
            other => panic!("{other:?}"),
        }
        // The ring replays bit for bit from its inputs.
        let (start, inputs) = w.inputs().unwrap_or_else(|| unreachable!());
        let again = replay(physics, scene, start, &inputs);
        let kept: Vec<&CharacterMove> = w.moves().iter().map(|m| &m.result).collect();
        assert_eq!(again.iter().collect::<Vec<_>>(), kept);
    }

    #[test]
    fn the_character_walks_up_the_30_degree_ramp_and_not_the_52_degree_one() {
        let world = playground();
        let (scene, physics) = &world;
        // The 30° ramp rises 2.31 m from z = -4 to z = -8 between x = 3 and 6.
        let mut w = CharacterWalk::new(start_feet(
            scene,
            &physics.controller,
            Vec2::new(4.5, -2.0),
            1.7,
        ));
        hold(&mut w, &world, keys(1, 0), 200, |w| w.body.feet.z < -7.0);
        assert!(w.body.grounded && w.body.feet.y > 1.5, "{:?}", w.body);
        // The 52° one, between x = 9 and 12: a wall for the walk, named with its slope.
        let mut w = CharacterWalk::new(start_feet(
            scene,
            &physics.controller,
            Vec2::new(10.5, -2.0),
            1.7,
        ));
        hold(&mut w, &world, keys(1, 0), 60, |_| false);
        assert!(
            w.body.feet.y <= physics.controller.max_step + 0.02,
            "{:?}",
            w.body
        );
        let limits: Vec<&Limit> = w
            .moves()
            .iter()
            .filter_map(|m| m.result.limit.as_ref())
            .collect();
        assert!(
            limits.iter().any(|l| matches!(
                l,
                Limit::SlopeTooSteep { object, degrees, .. }
                    if object.0 == 140 && (degrees - 52.0).abs() < 1.0
            )),
            "{limits:?}"
        );
    }

    #[test]
    fn gravity_jumps_and_falls_off_edges() {
        let world = playground();
        let (scene, physics) = &world;
        // On the low stairs' landing, 1 m up, walking east off its edge at x = -15.
        let feet = start_feet(scene, &physics.controller, Vec2::new(-16.0, -7.0), 1.7);
        assert!((feet.y - 1.01).abs() < 1e-4);
        let mut w = CharacterWalk::new(feet);
        hold(&mut w, &world, keys(0, 1), 60, |w| w.body.feet.y < 0.5);
        assert!(!w.body.grounded && w.body.velocity.y < 0.0);
        hold(&mut w, &world, keys(0, 0), 60, |w| w.body.grounded);
        assert!(w.body.grounded && w.body.feet.y < 0.05 && w.body.velocity.y == 0.0);
        // The landing step kept the drift it fell with; the next one, on the ground, takes the keys' none.
        hold(&mut w, &world, keys(0, 0), 1, |_| false);
        assert_eq!(w.body.velocity, Vec3::ZERO);
        // At rest no step runs; a jump lifts the feet about the controller's jump_height and lands again.
        let n = w.moves().len();
        hold(&mut w, &world, keys(0, 0), 5, |_| false);
        assert_eq!(w.moves().len(), n, "resting makes no moves");
        let jump = TickInput {
            jump: true,
            ..keys(0, 0)
        };
        let before = w.body.feet.y;
        w.advance(physics, scene, jump, 0.05);
        let mut top = before;
        for _ in 0..40 {
            w.advance(physics, scene, keys(0, 0), 0.05);
            top = top.max(w.body.feet.y);
        }
        let jump = physics.controller.jump_height;
        assert!((top - before - jump).abs() < 0.02 * jump, "{top}");
        assert!(w.body.grounded && (w.body.feet.y - before).abs() < 1e-3);
    }

    #[test]
    fn the_ring_is_bounded_and_pause_freezes_and_steps() {
        let world = playground();
        let (scene, physics) = &world;
        let feet = start_feet(scene, &physics.controller, Vec2::new(-1.0, 0.0), 1.7);
        let mut w = CharacterWalk::new(feet);
        // Walking round in circles for 15 s: the ring keeps the last 10 s.
        for k in 0..300 {
            let input = TickInput {
                forward: 1,
                facing_deg: k as f32 * 6.0,
                ..TickInput::default()
            };
            w.advance(physics, scene, input, 0.05);
        }
        assert_eq!(w.moves().len(), RING_MOVES);
        let newest = w.last().map(|m| m.tick).unwrap_or_default();
        assert_eq!(w.moves()[0].tick, newest + 1 - RING_MOVES as u64);
        // Paused: nothing moves, the newest move is selected, stepping walks the ring.
        w.toggle_pause();
        assert_eq!(w.selected, Some(newest));
        let body = w.body;
        w.advance(physics, scene, keys(1, 0), 0.5);
        assert_eq!((w.body, w.moves().len()), (body, RING_MOVES));
        w.step_back();
        w.step_back();
        assert_eq!(w.selected, Some(newest - 2));
        w.step_forward(physics, scene);
        w.step_forward(physics, scene);
        assert_eq!(w.selected, Some(newest));
        // At the newest, one more step with the same keys (a frame advance).
        w.step_forward(physics, scene);
        assert_eq!(w.selected, Some(newest + 1));
        assert_ne!(w.body, body);
        // Far back, selection stops at the oldest kept.
        for _ in 0..(RING_MOVES + 5) {
            w.step_back();
        }
        assert_eq!(w.selected, Some(w.moves()[0].tick));
    }

    #[test]
    fn the_walk_is_the_runtimes_body_step_bit_for_bit() {
        // The same keys through the editor's fixed steps and straight through `Body::step`: the same bodies.
        let world = playground();
        let (scene, physics) = &world;
        let feet = start_feet(scene, &physics.controller, Vec2::new(-16.5, -2.0), 1.7);
        let mut w = CharacterWalk::new(feet);
        let mut body = Body::new(feet);
        let dt = (1.0 / TICK_HZ) as f32;
        for k in 0..400u32 {
            let keys = TickInput {
                forward: 1,
                right: i8::from(k % 90 > 60),
                run: k % 200 > 150,
                jump: k % 75 == 40,
                crouch: (300..340).contains(&k),
                facing_deg: k as f32 * 0.5,
            };
            w.tick(physics, scene, keys);
            let m = body.step(
                &physics.controller,
                scene,
                &keys.body_input(),
                physics.gravity,
                dt,
            );
            assert_eq!(w.body, body, "tick {k}");
            assert_eq!(
                w.body.feet.to_array().map(f32::to_bits),
                body.feet.to_array().map(f32::to_bits)
            );
            assert_eq!(w.last().map(|e| &e.result), Some(&m));
        }
        assert!(w.moves().iter().any(|m| m.after.crouching));
    }

    #[test]
    fn keys_read_as_words_and_directions() {
        let k = TickInput {
            forward: 1,
            right: -1,
            run: true,
            jump: true,
            crouch: false,
            facing_deg: 90.0,
        };
        assert_eq!(k.keys_text(), "W+A run jump");
        assert_eq!(TickInput::default().keys_text(), "–");
        // Facing −x: forward is −x, left is +z; running, 9 m/s.
        let wish = k.wish();
        let dir = Vec2::new(-1.0, 1.0).normalize() * WALK_SPEED * RUN_FACTOR;
        assert!((wish - dir).length() < 1e-5, "{wish}");
        let b = k.body_input();
        assert_eq!((b.wish, b.jump, b.crouch), (wish, true, false));
    }
}
