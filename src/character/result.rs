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
    /// Whether a mover left the body no free place ([`super::Body::step`]: pushed by a mover against something
    /// else, or a ceiling coming down lower than the body can crouch): the body stayed where the push left it,
    /// the only case a body may end inside something. Always false for [`super::CharacterController::move_character`].
    #[serde(default)]
    pub crushed: bool,
    /// What movers did to the body this step, in order ([`super::Body::step`]: carried, pushed, crushed, made to
    /// crouch, passed through a one-way surface, the platform's velocity taken on leaving it); empty for a move
    /// among static objects. [`MoverEvent::describe`] words each.
    #[serde(default)]
    pub movers: Vec<MoverEvent>,
}

/// What a mover (or a one-way surface) did to a body in one [`super::Body::step`]. Objects are the moved
/// objects' ids (a box's, a sector's), as the scene's queries name them; `mover` is the mover's own id.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MoverEvent {
    /// The body stood on a moved object and was carried by its displacement since the body's previous step.
    Carried {
        /// The moved object stood on.
        object: ObjectId,
        /// Its mover.
        mover: ObjectId,
        /// The displacement the body was carried by, metres.
        by: Vec3,
    },
    /// A moved object moved into the body, which was pushed out along that object's motion.
    Pushed {
        /// The moved object.
        object: ObjectId,
        /// Its mover.
        mover: ObjectId,
        /// How far the body was pushed, metres.
        by: Vec3,
    },
    /// A moved object coming down on the standing body made it crouch (its crouched height fits).
    Crouched {
        /// The moved object.
        object: ObjectId,
    },
    /// No free place within the push: the body is inside something ([`CharacterMove::crushed`]).
    Crushed {
        /// The moved objects overlapping the body, ids ascending.
        movers: Vec<ObjectId>,
        /// The other objects overlapping it (what it was crushed against), ids ascending.
        against: Vec<ObjectId>,
    },
    /// The body moved through a one-way surface (from below or from the side), which let it pass.
    PassedThrough {
        /// The one-way object.
        object: ObjectId,
        /// Whether the body was going up (jumped up through it).
        up: bool,
    },
    /// The body left a moving platform (jumped or walked off) and took on its velocity: the horizontal part
    /// always, the upward part when it jumped.
    Left {
        /// The moved object left.
        object: ObjectId,
        /// The velocity added to the body's, metres per second.
        velocity: Vec3,
    },
}

impl MoverEvent {
    /// The event in words, naming objects with `name` (e.g. "mover #12" or "box #12"): "carried 0.083 m by
    /// box #12", "pushed 0.040 m by box #14", "crushed between box #14 and wall #3", "passed up through
    /// one-way box #20".
    #[must_use]
    pub fn describe(&self, name: impl Fn(ObjectId) -> String) -> String {
        let list = |ids: &[ObjectId]| {
            let names: Vec<String> = ids.iter().map(|o| name(*o)).collect();
            names.join(" and ")
        };
        match self {
            MoverEvent::Carried { object, by, .. } => {
                format!("carried {:.3} m by {}", by.length(), name(*object))
            }
            MoverEvent::Pushed { object, by, .. } => {
                format!("pushed {:.3} m by {}", by.length(), name(*object))
            }
            MoverEvent::Crouched { object } => {
                format!("made to crouch by {} coming down", name(*object))
            }
            MoverEvent::Crushed { movers, against } if against.is_empty() => {
                format!("crushed by {}", list(movers))
            }
            MoverEvent::Crushed { movers, against } => {
                format!("crushed between {} and {}", list(movers), list(against))
            }
            MoverEvent::PassedThrough { object, up } => format!(
                "passed {}through one-way {}",
                if *up { "up " } else { "" },
                name(*object)
            ),
            MoverEvent::Left { object, velocity } => format!(
                "left {} taking its velocity ({:.2}, {:.2}, {:.2}) m/s",
                name(*object),
                velocity.x,
                velocity.y,
                velocity.z
            ),
        }
    }
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
            crushed: false,
            movers: Vec::new(),
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
