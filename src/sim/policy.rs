//! The settings and the contact policy: every rule deciding how a contact is answered, written once and used by
//! both the push-out (before the event loop) and the event loop itself.
//!
//! - **Rest threshold** ([`ContactPolicy::rest_threshold`]): an approach slower than `rest_speed + 2|g·n|·dt`
//!   does not bounce.
//! - **Approaching** ([`ContactPolicy::approaching`]): a touching pair whose normal speed is not below
//!   `-max(APPROACH_EPSILON·speed, approach floor)` is not approaching, so it is no event.
//! - **Crease** ([`along_crease`]): a ball pressed into two surfaces keeps only its motion along the line where
//!   they meet.
//! - **Responses** ([`static_response`], [`apply_ball_impulse`]): the reflection against statics and the impulse
//!   between balls, with the restitution the policy chose (0 for resting contacts).

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::Ball;

/// Hits at one instant after which a ball's contacts in that instant are made inelastic.
pub const WEDGE_HITS: u32 = 4;

/// Relative approach speed below which a touching pair counts as not approaching.
const APPROACH_EPSILON: f32 = 1e-6;

/// The absolute approach-speed floor as a fraction of `rest_speed + |g|·dt`: approaches slower than this are
/// treated as resting, so a chain of ever-halving zero-time contacts ends after a few events.
const APPROACH_FLOOR_FRACTION: f32 = 1e-3;

/// Squared length of the cross product of two unit normals below which they count as parallel (no crease).
const CREASE_EPSILON_SQ: f32 = 1e-12;

/// Simulation settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimSettings {
    /// Gravity, metres per second squared.
    pub gravity: Vec3,
    /// Most contact events one step may process before the rest of its time is dropped.
    pub max_events_per_step: usize,
    /// Approach speed (m/s) below which a contact does not bounce (on top of `2|g·n|·dt`).
    pub rest_speed: f32,
    /// Overlap (m) at the start of a step beyond which a ball is pushed out.
    pub penetration_slop: f32,
}

impl SimSettings {
    /// Approach speed below which a touching pair counts as resting in a step of `dt` seconds (an absolute
    /// floor, so chains of ever-halving zero-time contacts end); non-finite gravity counts as none.
    #[must_use]
    pub fn approach_floor(&self, dt: f32) -> f32 {
        let g = self.finite_gravity().length();
        APPROACH_FLOOR_FRACTION * (self.rest_speed + g * dt).max(0.0)
    }

    /// Gravity as the contact policy sees it: non-finite gravity counts as none (the step applies none either).
    fn finite_gravity(&self) -> Vec3 {
        if self.gravity.is_finite() {
            self.gravity
        } else {
            Vec3::ZERO
        }
    }
}

impl Default for SimSettings {
    fn default() -> Self {
        Self {
            gravity: Vec3::new(0.0, -9.81, 0.0),
            max_events_per_step: 1_000_000,
            rest_speed: 1e-3,
            penetration_slop: 1e-4,
        }
    }
}

/// The contact policy of one step of `dt` seconds under given settings.
#[derive(Clone, Copy, Debug)]
pub(super) struct ContactPolicy {
    gravity: Vec3,
    rest_speed: f32,
    dt: f32,
    /// Approach speeds below this count as resting (an absolute floor, so halving speeds cannot loop forever).
    floor: f32,
}

impl ContactPolicy {
    pub(super) fn new(settings: &SimSettings, dt: f32) -> Self {
        Self {
            gravity: settings.finite_gravity(),
            rest_speed: settings.rest_speed,
            dt,
            floor: settings.approach_floor(dt),
        }
    }

    /// Approach speed below which a contact with unit normal `normal` does not bounce: `rest_speed` plus twice
    /// the speed gravity adds along the normal in one step, so gravity's one-step velocity never makes a
    /// resting ball hop.
    pub(super) fn rest_threshold(&self, normal: Vec3) -> f32 {
        self.rest_speed + 2.0 * self.gravity.dot(normal).abs() * self.dt
    }

    /// Whether a contact approaching at `approach` (m/s, positive when closing) is resolved without bounce.
    pub(super) fn is_resting(&self, approach: f32, normal: Vec3) -> bool {
        approach < self.rest_threshold(normal)
    }

    /// Whether a touching contact approaching at `approach` is settled before the event loop: closing faster
    /// than the floor (else it is no contact at all) but slower than the rest threshold.
    pub(super) fn settles(&self, approach: f32, normal: Vec3) -> bool {
        approach > self.floor && self.is_resting(approach, normal)
    }

    /// Whether a pair touching with relative normal velocity `vn` (negative when closing) and relative speed
    /// `speed` is approaching, i.e. their contact is an event: a pair resting or sliding along is not.
    pub(super) fn approaching(&self, vn: f32, speed: f32) -> bool {
        vn < -(APPROACH_EPSILON * speed).max(self.floor)
    }
}

/// The velocity `v` keeps along the crease where surfaces with normals `a` and `b` meet, or `None` when the
/// normals are (nearly) parallel and there is no crease.
pub(super) fn along_crease(v: Vec3, a: Vec3, b: Vec3) -> Option<Vec3> {
    let crease = a.cross(b);
    (crease.length_squared() > CREASE_EPSILON_SQ).then(|| {
        let d = crease.normalize();
        d * v.dot(d)
    })
}

/// A ball's velocity `v` after hitting a static surface with unit normal `n` at normal speed `vn = v·n` with
/// restitution `e`: `v' = v - (1 + e)(v·n)n` (seed 004's reflection scaled by restitution; `e = 0` removes the
/// approach).
pub(super) fn static_response(v: Vec3, n: Vec3, vn: f32, e: f32) -> Vec3 {
    v - n * ((1.0 + e) * vn)
}

/// Apply the impulse between balls `i` and `j` along the unit normal `n` (from `j` toward `i`) for a relative
/// normal velocity `vrel` and restitution `e`: `j = -(1 + e) vrel / (1/m_a + 1/m_b)`, which conserves momentum
/// exactly and, with `e = 1`, kinetic energy (`e = 0` removes the approach).
pub(super) fn apply_ball_impulse(
    balls: &mut [Ball],
    i: usize,
    j: usize,
    n: Vec3,
    vrel: f32,
    e: f32,
) {
    let (wa, wb) = (1.0 / balls[i].mass, 1.0 / balls[j].mass);
    let impulse = -(1.0 + e) * vrel / (wa + wb);
    balls[i].velocity += n * (impulse * wa);
    balls[j].velocity -= n * (impulse * wb);
}
