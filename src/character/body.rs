//! The one character body: [`Body`] and [`Body::step`], the integrator the editor's Walk mode, the Bevy
//! plugin's `CharacterBody` and the example game all call, so what the editor previews is what a game does.
//!
//! The controller ([`CharacterController::move_character`]) keeps no state and answers one move; the body
//! keeps what a game keeps between moves (feet, velocity, grounded, crouching, the ground) and turns input
//! into the motion of the next move:
//! - **on the ground** the horizontal velocity becomes the input's `wish`, and `jump` sets the vertical speed
//!   to `sqrt(2·g·jump_height)` (`g = −gravity.y`);
//! - **in the air** the horizontal velocity turns toward `wish` by at most `air_accel·dt`;
//! - the motion is exact under constant gravity, `velocity·dt + ½·gravity·dt²` (a jump's height does not
//!   depend on the frame rate), then `velocity += gravity·dt`;
//! - after the move, **landing** (grounded) clears a downward speed, a surface facing down (a ceiling) the
//!   speed into it, and in the air every surface met the speed into it (a wall stops the drift into it, a
//!   too-steep slope is slid down); a body in the air lands only on a move that does not rise (one rising
//!   past a riser's edge is not standing there, so it never jumps again before it comes down);
//! - **crouching** moves the body with `crouch_height` as its height; letting go stands it up only where the
//!   full height fits (`crouching` stays true under a low ceiling);
//! - the controller's **snap** (onto ground within `snap_distance` below) applies to a body that was on the
//!   ground (walking down stairs stays grounded), never to one in the air (it falls onto the ground).

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use super::result::MoverEvent;
use super::{CharacterController, CharacterMove, Ground, Limit, movers};
use crate::id::ObjectId;
use crate::scene::Scene;
use crate::shape::Capsule;

/// What a game (or the editor's keys) asks of a body for one step. Build it as a literal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BodyInput {
    /// The wanted horizontal velocity `(x, z)`, metres per second.
    pub wish: Vec2,
    /// Jump: taken when the body is on the ground.
    pub jump: bool,
    /// Crouch: held, the body has `crouch_height`; let go, it stands up where the full height fits.
    pub crouch: bool,
}

/// A character's state between steps: what a game keeps (the controller keeps nothing).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Body {
    /// Feet position: the bottom of the upright capsule.
    pub feet: Vec3,
    /// Velocity, metres per second.
    pub velocity: Vec3,
    /// Whether the last step ended on a supporting surface.
    pub grounded: bool,
    /// Whether the body is crouching (its height is the controller's `crouch_height`).
    pub crouching: bool,
    /// The supporting surface the last step ended on.
    pub ground: Option<Ground>,
    /// The scene time ([`Scene::time`]) of the last step: a body standing on a mover is carried by the mover's
    /// displacement from then to the next step's scene time. `None` before the first step.
    #[serde(default)]
    pub scene_time: Option<f32>,
}

impl Body {
    /// A body at rest with its feet at `feet`: not grounded (its first step finds out), standing.
    #[must_use]
    pub fn new(feet: Vec3) -> Self {
        Self {
            feet,
            velocity: Vec3::ZERO,
            grounded: false,
            crouching: false,
            ground: None,
            scene_time: None,
        }
    }

    /// The controller the body moves with now: `controller` itself standing, with
    /// [`CharacterController::crouching_height`] as its height while crouching.
    #[must_use]
    pub fn moving_controller(&self, controller: &CharacterController) -> CharacterController {
        if self.crouching {
            CharacterController {
                height: controller.crouching_height(),
                ..*controller
            }
        } else {
            *controller
        }
    }

    /// One step of `dt` seconds: input to velocity, the exact motion under `gravity`, the move through `scene`
    /// ([`CharacterController::move_character`]), and the velocity kept after it (see the module's rules).
    /// Returns the move, with its workings.
    ///
    /// Bad input (non-finite or negative `dt`, non-finite `gravity` or `wish`, an invalid controller) moves
    /// nothing, keeps the body as it was, and says why in [`CharacterMove::limit`] ([`Limit::Invalid`]).
    ///
    /// ```
    /// use collidoscope::{character::{Body, BodyInput, CharacterController}, glam::{Vec2, Vec3}};
    /// use collidoscope::{level::Level, scene::Scene};
    /// let level = Level::from_ron_str("(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)])")?;
    /// let scene = Scene::from_level(&level)?;
    /// let c = CharacterController::default();
    /// let gravity = Vec3::new(0.0, -9.81, 0.0);
    /// let mut body = Body::new(Vec3::new(0.0, c.skin, 0.0));
    /// body.step(&c, &scene, &BodyInput::default(), gravity, 1.0 / 60.0);
    /// assert!(body.grounded);
    /// // A jump: the feet peak at jump_height (1 m) above the floor's skin band.
    /// let start = body.feet.y;
    /// body.step(&c, &scene, &BodyInput { jump: true, ..BodyInput::default() }, gravity, 1.0 / 60.0);
    /// let mut top = body.feet.y;
    /// while !body.grounded {
    ///     body.step(&c, &scene, &BodyInput::default(), gravity, 1.0 / 60.0);
    ///     top = top.max(body.feet.y);
    /// }
    /// assert!((top - start - c.jump_height).abs() < 0.02 * c.jump_height);
    /// # Ok::<(), collidoscope::level::LevelError>(())
    /// ```
    pub fn step(
        &mut self,
        controller: &CharacterController,
        scene: &Scene,
        input: &BodyInput,
        gravity: Vec3,
        dt: f32,
    ) -> CharacterMove {
        let mut m = CharacterMove::default();
        let step = Step {
            controller,
            scene,
            input,
            gravity,
            dt,
        };
        self.step_into(
            &step,
            |c, feet, motion, clear, out| *out = c.move_character_from(scene, feet, motion, clear),
            &mut m,
        );
        m
    }

    /// [`Body::step`] with the move made by `make_move(controller, feet, motion)` instead of
    /// [`CharacterController::move_character`] directly: a recorder (`record::Recorder::step_body`) records it
    /// on the way. `make_move` must answer as `move_character` would for the step to be [`Body::step`].
    pub fn step_with(
        &mut self,
        controller: &CharacterController,
        scene: &Scene,
        input: &BodyInput,
        gravity: Vec3,
        dt: f32,
        make_move: impl FnOnce(&CharacterController, Vec3, Vec3) -> CharacterMove,
    ) -> CharacterMove {
        let mut m = CharacterMove::default();
        let step = Step {
            controller,
            scene,
            input,
            gravity,
            dt,
        };
        self.step_into(
            &step,
            |c, feet, motion, _, out| *out = make_move(c, feet, motion),
            &mut m,
        );
        m
    }

    /// [`Body::step_with`] writing its answer into `out`, with the move made by `make_move(controller, feet,
    /// motion, start_clear, out)` into `out` itself, so that a caller that keeps one answer (as
    /// [`super::step_bodies`] does, moving untraced) reuses its lists from step to step. `start_clear` says
    /// the step has just found the move's grown body at `feet` overlapping nothing (the move may skip that test).
    pub(super) fn step_into(
        &mut self,
        step: &Step<'_>,
        make_move: impl FnOnce(&CharacterController, Vec3, Vec3, bool, &mut CharacterMove),
        out: &mut CharacterMove,
    ) {
        let Step {
            controller,
            scene,
            input,
            gravity,
            dt,
        } = *step;
        if let Some(reason) = step_problem(controller, input, gravity, dt) {
            *out = refused(self.feet, reason);
            return;
        }
        // The answer's list of mover events, reused (the move below writes every other field).
        let mut events = std::mem::take(&mut out.movers);
        events.clear();
        let riding = self.ground.filter(|g| scene.mover_of(g.object).is_some());
        let before = movers::before_move(
            &self.moving_controller(controller),
            (!self.crouching).then_some(controller),
            scene,
            self.feet,
            riding,
            self.scene_time,
            dt,
            &mut events,
        );
        self.scene_time = Some(scene.time());
        if let Some((movers, against)) = before.crushed {
            *out = self.crushed(before.feet, movers, against, events);
            return;
        }
        let start = self.feet;
        self.feet = before.feet;
        self.crouching = if input.crouch || before.crouch {
            true
        } else {
            self.crouching && !fits_standing(controller, scene, self.feet)
        };
        let mut v = self.velocity;
        let wish = input.wish;
        let jumped = self.grounded && input.jump;
        if self.grounded {
            v.x = wish.x;
            v.z = wish.y;
            if input.jump {
                v.y = jump_speed(controller.jump_height, gravity);
            }
        } else {
            let h = Vec2::new(v.x, v.z);
            let h = h + (wish - h).clamp_length_max(controller.air_accel * dt);
            v.x = h.x;
            v.z = h.y;
        }
        let motion = v * dt + gravity * (0.5 * dt * dt);
        let mut mover = self.moving_controller(controller);
        if !self.grounded {
            // The snap keeps a walking body on stairs going down; a body in the air falls, it is not pulled
            // `snap_distance` down onto the ground as it nears it (a short jump would lose most of its fall).
            mover.snap_distance = 0.0;
        }
        // The body the movers' check found clear is the move's own when the crouch left its height as it was.
        let clear = before.clear == Some(grown(&mover, self.feet));
        make_move(&mover, self.feet, motion, clear, out);
        let m = out;
        // A body in the air lands on the way down: a move still rising that ends over ground (a riser's edge
        // met on the way up, within the walkable cone) is not a landing, or the body could jump again from the
        // air and rise past its jump height.
        if !self.grounded && motion.y > 0.0 && m.grounded {
            m.grounded = false;
            m.ground = None;
        }
        if matches!(m.limit, Some(Limit::Invalid { .. })) {
            self.feet = start;
            return;
        }
        v += gravity * dt;
        self.velocity = kept_velocity(v, m);
        if let Some(g) = riding
            && !m.grounded
        {
            // Leaving a moving platform keeps its motion, as most games do: its horizontal velocity always, its
            // upward velocity when jumping off it (walking off a rising lift does not fling the body up).
            let pv = scene.mover_velocity(g.object);
            let add = Vec3::new(pv.x, if jumped { pv.y.max(0.0) } else { 0.0 }, pv.z);
            if add != Vec3::ZERO && add.is_finite() {
                self.velocity += add;
                events.push(MoverEvent::Left {
                    object: g.object,
                    velocity: add,
                });
            }
        }
        movers::passed_one_way(
            &mover,
            scene,
            m.start,
            m.feet,
            m.ground.map(|g| g.object),
            &mut events,
        );
        self.feet = m.feet;
        self.grounded = m.grounded;
        self.ground = m.ground;
        m.movers = events;
    }

    /// A step that found no free place: the body stays where the pushes left it, off the ground and at rest.
    fn crushed(
        &mut self,
        feet: Vec3,
        movers: Vec<ObjectId>,
        against: Vec<ObjectId>,
        events: Vec<MoverEvent>,
    ) -> CharacterMove {
        let start = self.feet;
        self.feet = feet;
        self.velocity = Vec3::ZERO;
        self.grounded = false;
        self.ground = None;
        let mut objects: Vec<ObjectId> = movers.into_iter().chain(against).collect();
        objects.sort_unstable();
        CharacterMove {
            feet,
            start,
            limit: Some(Limit::Inside { objects }),
            crushed: true,
            movers: events,
            ..CharacterMove::default()
        }
    }
}

/// The arguments of one step besides the body and its move: what [`Body::step`] takes.
#[derive(Clone, Copy)]
pub(super) struct Step<'a> {
    pub(super) controller: &'a CharacterController,
    pub(super) scene: &'a Scene,
    pub(super) input: &'a BodyInput,
    pub(super) gravity: Vec3,
    pub(super) dt: f32,
}

/// Why a step cannot be taken with these arguments, if it cannot.
fn step_problem(
    controller: &CharacterController,
    input: &BodyInput,
    gravity: Vec3,
    dt: f32,
) -> Option<String> {
    if !(dt.is_finite() && dt >= 0.0) {
        return Some(format!("dt must be finite and 0 or more (is {dt})"));
    }
    if !gravity.is_finite() {
        return Some(format!("gravity must be finite (is {gravity})"));
    }
    if !input.wish.is_finite() {
        return Some(format!("wish must be finite (is {})", input.wish));
    }
    let (field, message) = controller.problems().into_iter().next()?;
    Some(format!("controller {field} {message}"))
}

/// A refused step: nothing moved.
fn refused(feet: Vec3, reason: String) -> CharacterMove {
    CharacterMove {
        feet,
        start: feet,
        limit: Some(Limit::Invalid { reason }),
        ..CharacterMove::default()
    }
}

/// The upward speed that lifts the feet `height` against `gravity` (none without downward gravity).
#[must_use]
pub fn jump_speed(height: f32, gravity: Vec3) -> f32 {
    let g = -gravity.y;
    let v = (2.0 * g * height).sqrt();
    if v.is_finite() && g > 0.0 { v } else { 0.0 }
}

/// Whether the standing body fits at `feet`: its capsule, grown by half the skin as every move's start is,
/// overlaps nothing.
fn fits_standing(controller: &CharacterController, scene: &Scene, feet: Vec3) -> bool {
    !scene.overlaps_capsule_any(&grown(controller, feet))
}

/// The body of `controller` at `feet` with its radius grown by half the skin, as every move's sweeps have it.
fn grown(controller: &CharacterController, feet: Vec3) -> Capsule {
    let mut capsule = controller.capsule(feet);
    capsule.radius += controller.skin * 0.5;
    capsule
}

/// The velocity after a move: landing clears a downward speed; every surface met takes the speed into it,
/// except the ground while standing on it (the walk keeps its speed along the floor as the next step sets it).
fn kept_velocity(mut v: Vec3, m: &CharacterMove) -> Vec3 {
    if m.grounded && v.y <= 0.0 {
        v.y = 0.0;
    }
    for hit in &m.hits {
        let n = hit.normal;
        // On the ground only a face turned down (a ceiling) takes speed: the next step sets the walk anew.
        if m.grounded && n.y >= 0.0 {
            continue;
        }
        let into = v.dot(n);
        if into < 0.0 {
            v -= n * into;
        }
    }
    if m.grounded && v.y < 0.0 {
        v.y = 0.0;
    }
    if v.is_finite() { v } else { Vec3::ZERO }
}
