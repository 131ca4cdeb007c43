//! Characters: an upright capsule moved through a [`Scene`] by [`CharacterController::move_character`], which
//! slides along walls, climbs steps, walks slopes, snaps down stairs and never ends inside anything, and
//! returns its workings with the answer; and [`ReachMap`], where that character can stand and go.
//!
//! The controller keeps no state: a game calls it once a frame with the feet position and the motion it wants
//! (its own velocity times the time step, gravity included), and keeps its own velocity.
//!
//! # What a move guarantees
//! Each is a test of ours (`tests/character/`: hand-worked moves and properties over random levels).
//! - **Never inside**: if the body at `feet`, its radius grown by half the skin, overlaps nothing, neither does
//!   it at the result, whatever the motion's length. Every sweep is of that grown body and stops short of its
//!   contact, so the real body keeps a whole skin from what it met. A start that overlaps is first pushed out
//!   by the shortest way found (the move's [`MoveTrace::push_out`] says so); one that cannot be (a gap
//!   narrower than the body) moves nothing and reports [`Limit::Inside`].
//! - **Never stuck**: against a wall the motion keeps its part along the wall; into a corner it ends in the
//!   corner. Each contact is a plane the motion left is kept out of (Quake's clip planes: one plane, else the
//!   crease of two, else a corner), and no way that turns back against the move's own motion is taken.
//! - **Never back**: a move never ends farther back along its motion's horizontal direction than `2·skin`,
//!   unless its start overlapped and was pushed out, or its fall slid it down a surface too steep to stand on
//!   (then by at most the drop times `cot(max_slope_deg)`). A step-up lands ahead along the motion or is not
//!   taken; a slide never turns back against the motion's horizontal direction (a sloping ceiling stops a jump
//!   instead of sending the body back under it).
//! - **Steps**: a contact above the feet and no higher than `max_step` that is not on a walkable face is tried
//!   as a riser: lift by `max_step` (and a skin), move on at that height, settle onto the tread (moving the
//!   body fully onto it when it would rest on the nosing). `stepped_up` is the tread's height over the ground
//!   before, measured straight under the feet; a higher riser blocks and is reported with its height.
//! - **Slopes**: a surface whose normal is within `max_slope_deg` of up is walked (the motion keeps its
//!   horizontal part and follows it) and supports; a steeper one is a wall for the horizontal motion, which may
//!   only slide down it.
//! - **Snap**: a move that was not upward and ends off the ground, with a supporting surface within
//!   `snap_distance` below, is put on it (`snapped_down`).
//! - **Seams**: standing within the skin band, the ground takes the motion's downward part while it supports
//!   the body, so the feet keep their height exactly and no contact is made with the floor's pieces; what is
//!   left of the fall once off the ground (walking off a ledge) is fallen in the same move.
//! - **Ground**: [`Ground::normal`] is the most level face through the contact (at a stair's nosing, the
//!   tread's), always within `max_slope_deg` of up. An edge met on the body's rounded side higher above the
//!   feet than a step climbs from there (`max_step` less a skin: the riser from the feet's floor, a skin under
//!   them), and outside the walkable cone under the axis, or at the body's side
//!   (more than 60° from up and outside the cone) however low, is not ground unless something walkable lies
//!   under the body within the probe's reach: the body hangs beside it, not on it, and slides off it as off a
//!   steep face.
//! - **Steps from an edge**: a body standing on a tread's edge by its rounded bottom (a rim over a slot) that
//!   steps onto that tread climbs by its feet's rise (within `max_step`); a body in the air (a move without a
//!   snap, as [`Body::step`] moves it there) steps up nothing.
//! - **Bounded and deterministic**: at most `max_iterations` slide sweeps a move, plus a bounded number of
//!   probes; the same input gives the same bits.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::scene::Scene;
use crate::shape::Capsule;

mod bodies;
mod body;
mod movement;
mod movers;
mod pushout;
mod reach;
/// The whole move graph, for navigation (`crate::nav`).
pub(crate) use reach::graph::{MoveGraph, starts};
pub(crate) use reach::par::{on_threads, thread_count};
pub(crate) use reach::walk::{drop_carry, drop_speed, walks};
mod result;
mod support;

pub use bodies::{StepBodiesError, step_bodies};
pub use body::{Body, BodyInput, jump_speed};
pub use reach::{
    Blocker3, FloorArea, ReachError, ReachGrid, ReachMap, ReachPlace, ReachSettings, ReachStats,
    UnreachablePlace,
};
pub use result::{
    CharacterHit, CharacterMove, Constraint, Ground, Limit, MoveTrace, MoverEvent, PushOut,
    StepAttempt, StepRefusal, SweepHit, SweepPhase, SweepRecord,
};

/// The most slide iterations a controller may ask for: a motion of any length costs at most this many sweeps
/// of its own (plus a bounded number of step and ground probes per iteration).
pub const MAX_ITERATIONS_LIMIT: u32 = 1024;

/// A character's size and movement limits. Up is `+y`; the body is the upright capsule from `feet` to
/// `feet + height` ([`CharacterController::capsule`]). In a level file every field may be left out (its default
/// is taken); an unknown field is an error.
///
/// ```
/// use collidoscope::{character::CharacterController, glam::Vec3};
/// let c = CharacterController::default();
/// assert_eq!((c.radius, c.height, c.skin, c.max_step), (0.3, 1.8, 0.01, 0.35));
/// let body = c.capsule(Vec3::new(1.0, 0.0, 2.0));
/// assert_eq!((body.a, body.b, body.radius), (Vec3::new(1.0, 0.3, 2.0), Vec3::new(1.0, 1.5, 2.0), 0.3));
/// assert!(c.problems().is_empty());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CharacterController {
    /// Radius of the capsule, metres (above 0).
    pub radius: f32,
    /// Height from the feet to the top of the head, metres (at least `2 * radius`).
    pub height: f32,
    /// The gap kept between the body and everything it touches, metres (above 0, below `radius`): feet on a
    /// floor rest between `skin / 2` and `2 * skin` above it.
    pub skin: f32,
    /// The highest riser climbed without jumping, metres (0 or more, below `height`).
    pub max_step: f32,
    /// The steepest surface that supports the character and can be walked up, degrees from level (0 or more,
    /// below 90).
    pub max_slope_deg: f32,
    /// How far below the end of a move a supporting surface pulls the feet down onto it, metres (0 or more).
    pub snap_distance: f32,
    /// The most slide iterations (sweeps) a move may take (1 to [`MAX_ITERATIONS_LIMIT`]).
    pub max_iterations: u32,
    /// How high a jump lifts the feet under the level's gravity, metres (0 or more): [`Body::step`].
    pub jump_height: f32,
    /// How fast the horizontal velocity turns toward the wanted one in the air, metres per second squared (0 or
    /// more): [`Body::step`].
    pub air_accel: f32,
    /// The body's height while crouching, metres (above 0; kept within what the body can be, see
    /// [`CharacterController::crouching_height`]): [`Body::step`].
    pub crouch_height: f32,
}

impl Default for CharacterController {
    fn default() -> Self {
        Self {
            radius: 0.3,
            height: 1.8,
            skin: 0.01,
            max_step: 0.35,
            max_slope_deg: 45.0,
            snap_distance: 0.4,
            max_iterations: 8,
            jump_height: 1.0,
            air_accel: 10.0,
            crouch_height: 1.0,
        }
    }
}

impl CharacterController {
    /// The body with its feet at `feet`: the upright capsule from `feet + radius·y` to
    /// `feet + (height − radius)·y`.
    #[must_use]
    pub fn capsule(&self, feet: Vec3) -> Capsule {
        Capsule::new(
            feet + Vec3::Y * self.radius,
            feet + Vec3::Y * (self.height - self.radius),
            self.radius,
        )
    }

    /// What is wrong with these settings, as (field, message) pairs; empty when the controller is valid. A move
    /// with an invalid controller moves nothing (see `move_character`).
    #[must_use]
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        // The messages are made only for the fields at fault (every move checks its controller).
        let mut need = |ok: bool, field: &'static str, what: &dyn Fn() -> String| {
            if !ok {
                out.push((field, what()));
            }
        };
        let (r, h, s) = (self.radius, self.height, self.skin);
        need(r.is_finite() && r > 0.0, "radius", &|| {
            format!("must be greater than 0 (is {r})")
        });
        need(h.is_finite() && h >= 2.0 * r, "height", &|| {
            format!("must be at least twice the radius, {} (is {h})", 2.0 * r)
        });
        need(s.is_finite() && s > 0.0 && s < r, "skin", &|| {
            format!("must be greater than 0 and less than the radius {r} (is {s})")
        });
        let step = self.max_step;
        need(
            step.is_finite() && step >= 0.0 && step < h,
            "max_step",
            &|| format!("must be 0 or more and less than the height {h} (is {step})"),
        );
        let slope = self.max_slope_deg;
        need(
            slope.is_finite() && (0.0..90.0).contains(&slope),
            "max_slope_deg",
            &|| format!("must be at least 0 and less than 90 degrees (is {slope})"),
        );
        let snap = self.snap_distance;
        need(snap.is_finite() && snap >= 0.0, "snap_distance", &|| {
            format!("must be 0 or more (is {snap})")
        });
        let jump = self.jump_height;
        need(jump.is_finite() && jump >= 0.0, "jump_height", &|| {
            format!("must be 0 or more (is {jump})")
        });
        let accel = self.air_accel;
        need(accel.is_finite() && accel >= 0.0, "air_accel", &|| {
            format!("must be 0 or more (is {accel})")
        });
        let crouch = self.crouch_height;
        need(crouch.is_finite() && crouch > 0.0, "crouch_height", &|| {
            format!("must be greater than 0 (is {crouch})")
        });
        let it = self.max_iterations;
        need(
            (1..=MAX_ITERATIONS_LIMIT).contains(&it),
            "max_iterations",
            &|| format!("must be between 1 and {MAX_ITERATIONS_LIMIT} (is {it})"),
        );
        out
    }

    /// The height the body has while crouching: `crouch_height` kept between the least a body can be (twice
    /// the radius, and a skin above `max_step`) and the standing `height`, so a small character's default
    /// crouch is its own height and a large one's at least its diameter.
    #[must_use]
    pub fn crouching_height(&self) -> f32 {
        let least = (2.0 * self.radius)
            .max(self.max_step + self.skin)
            .min(self.height);
        self.crouch_height.max(least).min(self.height.max(least))
    }

    /// Whether [`CharacterController::problems`] is empty.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.problems().is_empty()
    }

    /// One move of the body with its feet at `feet` by `motion` (the game adds gravity to `motion` itself and
    /// keeps its own velocity): collide and slide, step up, walk slopes, snap down. See the module's guarantees;
    /// among them, a move never ends farther back along its motion's horizontal direction than `2·skin` unless
    /// its start overlapped and was pushed out (or its fall slid it down a face too steep to stand on).
    ///
    /// Bad input (an invalid controller, non-finite `feet` or `motion`) moves nothing and says why in
    /// [`CharacterMove::limit`] ([`Limit::Invalid`]); it never panics.
    ///
    /// ```
    /// use collidoscope::{character::CharacterController, glam::Vec3, level::Level, scene::Scene};
    /// let level = Level::from_ron_str(r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
    ///     aabbs: [(id: 2, min: (1.0, 0.0, -1.0), max: (4.0, 0.2, 1.0))])"#).unwrap();
    /// let scene = Scene::from_level(&level).unwrap();
    /// let c = CharacterController::default();
    /// // Standing on the floor a skin above it, walking +x with a little gravity: onto the 0.2 m step.
    /// let mut feet = Vec3::new(0.0, c.skin, 0.0);
    /// let mut climbed = 0.0;
    /// for _ in 0..20 {
    ///     let m = c.move_character(&scene, feet, Vec3::new(0.1, -0.01, 0.0));
    ///     assert!(m.grounded);
    ///     climbed += m.stepped_up;
    ///     feet = m.feet;
    /// }
    /// assert!((climbed - 0.2).abs() < 1e-3);
    /// assert!(feet.x > 1.0 && (feet.y - 0.2 - c.skin).abs() < c.skin);
    /// ```
    #[must_use]
    pub fn move_character(&self, scene: &Scene, feet: Vec3, motion: Vec3) -> CharacterMove {
        self.move_character_from(scene, feet, motion, false)
    }

    /// [`CharacterController::move_character`] from a start whose grown body (the capsule every sweep moves,
    /// its radius grown by half the skin) the caller has just found overlapping nothing, when `start_clear`:
    /// the same answer, without the start's overlap test.
    pub(crate) fn move_character_from(
        &self,
        scene: &Scene,
        feet: Vec3,
        motion: Vec3,
        start_clear: bool,
    ) -> CharacterMove {
        let invalid = |reason: String| CharacterMove {
            feet,
            start: feet,
            motion,
            limit: Some(Limit::Invalid { reason }),
            ..CharacterMove::default()
        };
        if let Some((field, message)) = self.problems().into_iter().next() {
            return invalid(format!("controller {field} {message}"));
        }
        if !feet.is_finite() || !motion.is_finite() || !(feet + motion).is_finite() {
            return invalid("feet and motion must be finite".into());
        }
        let answer = movement::Mover::new(self, scene)
            .start_clear(start_clear)
            .run(feet, motion);
        if answer.feet.is_finite() {
            answer
        } else {
            invalid("the move left the range of f32".into())
        }
    }
}
