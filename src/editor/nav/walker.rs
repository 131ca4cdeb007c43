//! The agent walking a path in the 3D preview (no egui): a [`Body`] stepped at 60 Hz with
//! [`NavPath::steer`]'s input, as a game's agent is, until it arrives (within `cell·√2` of the goal
//! horizontally and a step vertically, on the ground: the contract's test) or its time is up.

use glam::{Vec2, Vec3};

use crate::character::{Body, CharacterController};
use crate::nav::{NavPath, STEER_SPEED};
use crate::scene::Scene;

/// The step, seconds (60 Hz, as the contract's walks).
pub const DT: f32 = 1.0 / 60.0;
/// Most steps one frame makes (a slow frame does not make the agent run away).
const MAX_STEPS: u32 = 6;

/// Where the walk is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WalkState {
    /// Walking.
    Walking,
    /// Arrived after this many seconds.
    Arrived(f32),
    /// Did not arrive in the contract's time (`1.5 × length / 4 m/s + 2 s`).
    GaveUp,
}

/// An agent walking a path.
#[derive(Clone, Debug)]
pub struct NavWalker {
    /// The body.
    pub body: Body,
    /// The agent.
    pub controller: CharacterController,
    /// The path walked.
    pub path: NavPath,
    /// The goal clicked.
    pub goal: Vec3,
    /// Seconds walked.
    pub time: f32,
    /// Walking, arrived or given up.
    pub state: WalkState,
    /// Time not yet stepped (less than a step).
    pending: f32,
    /// The time allowed.
    limit: f32,
}

impl NavWalker {
    /// An agent at `from` about to walk `path` to `to`.
    #[must_use]
    pub fn new(path: NavPath, from: Vec3, to: Vec3, controller: CharacterController) -> Self {
        let mut length = 0.0;
        let mut last = from;
        for p in path.points.iter().copied().chain(std::iter::once(to)) {
            length += last.distance(p);
            last = p;
        }
        Self {
            body: Body::new(from),
            controller,
            path,
            goal: to,
            time: 0.0,
            state: WalkState::Walking,
            pending: 0.0,
            limit: 1.5 * length / STEER_SPEED + 2.0,
        }
    }

    /// Walk `dt` seconds of real time (at most `MAX_STEPS` steps) in `scene` under `gravity`. Returns
    /// whether the agent is still walking (the frame should be drawn again).
    pub fn advance(&mut self, dt: f32, scene: &Scene, gravity: Vec3, cell: f32) -> bool {
        if self.state != WalkState::Walking {
            return false;
        }
        self.pending = (self.pending + dt.clamp(0.0, 0.1)).min(DT * MAX_STEPS as f32);
        while self.pending >= DT * 0.999 && self.state == WalkState::Walking {
            self.pending -= DT;
            let input = self.path.steer(&self.body, &self.controller);
            self.body.step(&self.controller, scene, &input, gravity, DT);
            self.time += DT;
            if self.arrived(cell) {
                self.state = WalkState::Arrived(self.time);
            } else if self.time > self.limit || !self.body.feet.is_finite() {
                self.state = WalkState::GaveUp;
            }
        }
        self.state == WalkState::Walking
    }

    /// On the ground within `cell·√2` of the goal horizontally and `max_step` vertically.
    fn arrived(&self, cell: f32) -> bool {
        let f = self.body.feet;
        let flat = Vec2::new(f.x - self.goal.x, f.z - self.goal.z).length();
        self.body.grounded
            && flat <= cell * std::f32::consts::SQRT_2
            && (f.y - self.goal.y).abs() <= self.controller.max_step
    }
}
