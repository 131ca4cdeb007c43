//! What a move answers: where the feet ended, the ground, what was hit, and the move's workings (every sweep,
//! the motion left after each, the step-up and snap probes, the push-out) for the debugger, the recording
//! viewer and tests, which all read this one value.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::id::ObjectId;

/// The surface a character stands on: at most `max_slope_deg` from up.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ground {
    /// The object stood on.
    pub object: ObjectId,
    /// The contact point, on the object.
    pub point: Vec3,
    /// The supporting face's unit normal (at an edge, such as a stair's nosing, the most level face through
    /// the contact, not the edge's own normal).
    pub normal: Vec3,
}

/// A surface the motion met during a move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CharacterHit {
    /// The object hit.
    pub object: ObjectId,
    /// The contact point, on the object.
    pub point: Vec3,
    /// Unit contact normal, from the object toward the character.
    pub normal: Vec3,
    /// The slide iteration (from 0) whose sweep met it.
    pub iteration: u32,
}

/// Which part of a move a sweep belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SweepPhase {
    /// The motion itself (collide and slide).
    Slide,
    /// A step-up probe: lifting the body by up to `max_step`.
    StepUp,
    /// A step-up probe: moving forward at the lifted height.
    StepForward,
    /// A step-up probe: settling down onto the tread.
    StepDown,
    /// The ground probe at the start or the end of the move (a short sweep down).
    Ground,
    /// The snap probe: down by up to `snap_distance`.
    Snap,
}

/// How a sweep's contact constrained the motion left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Constraint {
    /// A walkable surface: the motion keeps its horizontal part and follows the surface.
    Ground,
    /// A surface steeper than `max_slope_deg` facing up: a wall for the horizontal motion, which may only slide
    /// down it.
    Steep,
    /// A wall (about vertical).
    Wall,
    /// A surface facing down.
    Ceiling,
}

/// One sweep of the body, as the move made it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepRecord {
    /// What the sweep was for.
    pub phase: SweepPhase,
    /// The slide iteration it belongs to.
    pub iteration: u32,
    /// Feet position the sweep started from.
    pub from: Vec3,
    /// The motion swept.
    pub motion: Vec3,
    /// The first contact, if any.
    pub hit: Option<SweepHit>,
    /// Where the feet were moved to after it (short of the contact by the skin).
    pub to: Vec3,
    /// The motion left after projecting it along the contact (slide sweeps; zero for the others).
    pub left: Vec3,
}

/// A sweep's first contact.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepHit {
    /// The object met.
    pub object: ObjectId,
    /// Fraction of the swept motion at contact.
    pub t: f32,
    /// The contact point, on the object.
    pub point: Vec3,
    /// Unit contact normal, from the object toward the body.
    pub normal: Vec3,
    /// How the contact constrains the motion (slide sweeps).
    pub constraint: Option<Constraint>,
}

/// A step-up attempt: lift, move forward, settle.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepAttempt {
    /// The slide iteration that tried it.
    pub iteration: u32,
    /// The obstacle that blocked the motion.
    pub obstacle: ObjectId,
    /// The height it could lift (up to `max_step` plus the skin, less where a ceiling stops it).
    pub lift: f32,
    /// The horizontal distance it could move at that height.
    pub forward: f32,
    /// The riser found: the tread's height over the ground the step started from (or the obstacle's height
    /// above it, measured, when no tread was reached).
    pub riser: Option<f32>,
    /// Whether the step was taken.
    pub taken: bool,
    /// Why not, when it was not.
    pub refused: Option<StepRefusal>,
}

/// Why a step-up was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum StepRefusal {
    /// The obstacle is higher than `max_step` (the lifted body could not pass it).
    TooHigh,
    /// A ceiling leaves no room to lift.
    NoHeadroom,
    /// Nothing walkable under the body past the obstacle (a slope too steep, or no ground within reach).
    NoTread,
    /// The tread is steeper than `max_slope_deg`.
    TreadTooSteep,
    /// Stepping would not get farther than sliding.
    NoProgress,
}

/// A push-out of a start that overlapped something.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PushOut {
    /// Feet before.
    pub from: Vec3,
    /// Feet after.
    pub to: Vec3,
    /// The objects the body overlapped (radius grown by half the skin), ids ascending.
    pub objects: Vec<ObjectId>,
    /// Whether the body is clear now; when it is not, the move did not move.
    pub resolved: bool,
}

/// Why a move ended short of its motion, or stopped going somewhere, as the debugger explains it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Limit {
    /// A riser above `max_step`.
    StepTooHigh {
        /// The obstacle.
        object: ObjectId,
        /// Its height above the ground, metres (measured; `None` when taller than the body).
        height: Option<f32>,
        /// Where.
        at: Vec3,
    },
    /// A surface steeper than `max_slope_deg`.
    SlopeTooSteep {
        /// The surface.
        object: ObjectId,
        /// Its slope, degrees from level.
        degrees: f32,
        /// Where.
        at: Vec3,
    },
    /// A wall.
    Wall {
        /// The wall.
        object: ObjectId,
        /// Where.
        at: Vec3,
    },
    /// A ceiling stopped upward motion or a step.
    Ceiling {
        /// The ceiling.
        object: ObjectId,
        /// Where.
        at: Vec3,
    },
    /// Two or more surfaces together left no way on (a corner, a gap narrower than the body).
    Corner {
        /// The surfaces, ids ascending.
        objects: Vec<ObjectId>,
        /// Where.
        at: Vec3,
    },
    /// The start overlapped and could not be pushed out.
    Inside {
        /// The objects overlapped, ids ascending.
        objects: Vec<ObjectId>,
    },
    /// The move used `max_iterations` slide iterations before its motion was done.
    Iterations,
    /// The controller or the input was invalid: nothing moved.
    Invalid {
        /// What was wrong.
        reason: String,
    },
}

/// A move's workings: every sweep in order, the step attempts, the push-out.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MoveTrace {
    /// Every sweep, in the order made.
    pub sweeps: Vec<SweepRecord>,
    /// Every step-up attempt.
    pub steps: Vec<StepAttempt>,
    /// The push-out of an overlapping start.
    pub push_out: Option<PushOut>,
    /// The ground under the start (the short probe down), if any.
    pub ground_at_start: Option<Ground>,
}

/// One move's answer (see [`super::CharacterController::move_character`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CharacterMove {
    /// Where the feet ended.
    pub feet: Vec3,
    /// Whether the feet ended on a walkable surface (`ground` is then `Some`).
    pub grounded: bool,
    /// The supporting surface at the end, when grounded.
    pub ground: Option<Ground>,
    /// The surfaces the motion met, in order.
    pub hits: Vec<CharacterHit>,
    /// How high a step-up lifted the feet in this move (the sum of the risers climbed), metres.
    pub stepped_up: f32,
    /// How far the snap pulled the feet down onto the ground, metres.
    pub snapped_down: f32,
    /// Where the feet started (as given).
    pub start: Vec3,
    /// The motion asked for (as given).
    pub motion: Vec3,
    /// Why the move ended short of its motion (or the input was refused), if it did.
    pub limit: Option<Limit>,
    /// The workings.
    pub trace: MoveTrace,
}

/// A move of nothing at the origin: the buffers [`super::CharacterController::move_character_into`] and
/// [`super::CharacterController::move_character_untraced`] write into (its lists keep their memory from move to
/// move).
impl Default for CharacterMove {
    fn default() -> Self {
        Self {
            feet: Vec3::ZERO,
            grounded: false,
            ground: None,
            hits: Vec::new(),
            stepped_up: 0.0,
            snapped_down: 0.0,
            start: Vec3::ZERO,
            motion: Vec3::ZERO,
            limit: None,
            trace: MoveTrace::default(),
        }
    }
}

impl CharacterMove {
    /// The move's displacement.
    #[must_use]
    pub fn displacement(&self) -> Vec3 {
        self.feet - self.start
    }
}

/// A kind name for objects in explanations ("box #12"); the scene knows kinds, the result only ids.
pub(crate) fn degrees_from_up(normal: Vec3) -> f32 {
    normal.y.clamp(-1.0, 1.0).acos().to_degrees()
}

impl Limit {
    /// The limit in words, naming the object with `name` (e.g. "box #12"), with the controller's own limits for
    /// comparison: "riser 0.42 m is above max_step 0.35 m: box #12" (worded as a reachability map's
    /// `Blocker3::describe` words the same limit).
    #[must_use]
    pub fn describe(
        &self,
        max_step: f32,
        max_slope_deg: f32,
        name: impl Fn(ObjectId) -> String,
    ) -> String {
        match self {
            Limit::StepTooHigh { object, height, .. } => match height {
                Some(h) => format!(
                    "{}: {}",
                    super::reach::words::riser(*h, max_step),
                    name(*object)
                ),
                None => format!("a wall taller than the body: {}", name(*object)),
            },
            Limit::SlopeTooSteep {
                object, degrees, ..
            } => format!(
                "{}: {}",
                super::reach::words::slope(*degrees, max_slope_deg),
                name(*object)
            ),
            Limit::Wall { object, .. } => format!("blocked by a wall: {}", name(*object)),
            Limit::Ceiling { object, .. } => format!("a ceiling stops it: {}", name(*object)),
            Limit::Corner { objects, .. } => {
                let names: Vec<String> = objects.iter().map(|o| name(*o)).collect();
                format!(
                    "wedged in a corner or a gap narrower than the body: {}",
                    names.join(", ")
                )
            }
            Limit::Inside { objects } => {
                let names: Vec<String> = objects.iter().map(|o| name(*o)).collect();
                format!(
                    "started inside {} and could not be pushed out",
                    names.join(", ")
                )
            }
            Limit::Iterations => {
                "used every slide iteration (max_iterations) before the motion was done".into()
            }
            Limit::Invalid { reason } => format!("nothing moved: {reason}"),
        }
    }
}
