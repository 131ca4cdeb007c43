//! What a step reports: its contacts in time order ([`ContactEvent`]), the overlaps it pushed apart
//! ([`PushOut`]), the balls entering and leaving trigger volumes ([`TriggerEvent`]) and its work counters
//! ([`StepCounters`]), gathered in one [`StepReport`].

use std::time::Duration;

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::BallId;
use crate::id::ObjectId;

/// What a ball touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Contact {
    /// Another ball.
    Ball(BallId),
    /// Static geometry, by its index in the order it was added.
    Static(usize),
}

/// One contact found and resolved during a step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContactEvent {
    /// Seconds into the step.
    pub time: f32,
    /// The ball.
    pub ball: BallId,
    /// What it touched.
    pub other: Contact,
    /// Contact point.
    pub point: Vec3,
    /// Unit normal from `other` toward `ball`.
    pub normal: Vec3,
    /// `time / dt`: where in the step the contact happened.
    pub toi_fraction: f32,
    /// Closing speed along the normal before the response, m/s.
    pub approach_speed: f32,
    /// Restitution applied (0 when the rest or wedge policy made it inelastic).
    pub restitution: f32,
}

/// A ball moved out of an overlap at the start of a step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PushOut {
    /// The ball.
    pub ball: BallId,
    /// What it overlapped.
    pub other: Contact,
    /// How deep it was, metres.
    pub depth: f32,
    /// Direction it was moved.
    pub normal: Vec3,
}

/// Work done by one step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StepCounters {
    /// Candidate pairs the broadphase produced (ball–ball and ball–static).
    pub pairs_tested: u64,
    /// Exact sweeps run.
    pub sweeps: u64,
    /// Contact events processed.
    pub events: u64,
    /// Predicted events dropped because a ball's velocity had changed.
    pub stale_events: u64,
    /// Slow contacts made inelastic before the event loop (resting balls), not reported as events.
    pub resting_contacts: u64,
    /// Wall-clock time of the step.
    pub elapsed: Duration,
}

/// What one step did.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StepReport {
    /// Contacts in time order.
    pub events: Vec<ContactEvent>,
    /// Overlaps resolved at the start of the step.
    pub pushed_out: Vec<PushOut>,
    /// Work counters.
    pub counters: StepCounters,
    /// Whether the event budget ran out (the rest of the step's time was dropped).
    pub budget_exhausted: bool,
    /// Seconds of the step not simulated because the budget ran out.
    pub time_dropped: f32,
    /// The step length, seconds.
    pub dt: f32,
    /// Balls entering and leaving trigger volumes, in time order.
    pub triggers: Vec<TriggerEvent>,
}

/// A ball entering or leaving a trigger volume during a step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TriggerEvent {
    /// The trigger.
    pub trigger: ObjectId,
    /// The ball.
    pub ball: BallId,
    /// `true` when the ball's sphere starts to overlap the volume, `false` when it stops.
    pub entered: bool,
    /// Seconds into the step.
    pub time: f32,
}
