//! The agent walking a path in the 3D preview (no egui): a [`Body`] stepped at 60 Hz with
//! [`NavPath::steer`]'s input, as a game's agent is, until it arrives (within `cell·√2` of the goal
//! horizontally and a step vertically, on the ground: the contract's test) or its time is up.

use glam::{Vec2, Vec3};

use crate::character::{Body, CharacterController};
use crate::nav::{NavPath, walking_seconds};
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
    /// Did not arrive in the contract's time (`1.5 × length / 4 m/s + 2 s`, and each ride step's worst wait and
    /// travel).
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
    /// Where the level has movers: the scene the agent walks, its time advanced with the walk's (the frame's
    /// scene stands at one time, so a lift would never come), the address of the frame's scene it was copied
    /// from (an edit gives a new one, copied again), and the scene time the walk set off at.
    timed: Option<(usize, Scene, f32)>,
}

impl NavWalker {
    /// An agent at `from` about to walk `path` to `to`, given the contract's time for the walking and `waits`
    /// seconds more (its ride steps' worst waits and travel: [`NavMap::ride_seconds`]).
    ///
    /// [`NavMap::ride_seconds`]: crate::nav::NavMap::ride_seconds
    #[must_use]
    pub fn new(
        path: NavPath,
        (from, to): (Vec3, Vec3),
        controller: CharacterController,
        waits: f32,
    ) -> Self {
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
            limit: walking_seconds(length) + waits.max(0.0),
            timed: None,
        }
    }

    /// Walk `dt` seconds of real time (at most `MAX_STEPS` steps) in `scene` under `gravity`. Returns
    /// whether the agent is still walking (the frame should be drawn again).
    pub fn advance(&mut self, dt: f32, scene: &Scene, gravity: Vec3, cell: f32) -> bool {
        if self.state != WalkState::Walking {
            return false;
        }
        self.pending = (self.pending + dt.clamp(0.0, 0.1)).min(DT * MAX_STEPS as f32);
        if scene.has_movers() {
            let address = std::ptr::from_ref(scene) as usize;
            match &mut self.timed {
                Some((a, _, _)) if *a == address => {}
                Some((a, copy, _)) => (*a, *copy) = (address, scene.clone()),
                None => self.timed = Some((address, scene.clone(), scene.time() - self.time)),
            }
        } else {
            self.timed = None;
        }
        while self.pending >= DT * 0.999 && self.state == WalkState::Walking {
            self.pending -= DT;
            let input = self.path.steer(&self.body, &self.controller);
            let walked = match &mut self.timed {
                Some((_, copy, set_off)) => {
                    copy.set_time(*set_off + self.time + DT);
                    &*copy
                }
                None => scene,
            };
            self.body
                .step(&self.controller, walked, &input, gravity, DT);
            self.time += DT;
            if self.arrived(cell) {
                self.state = WalkState::Arrived(self.time);
            } else if self.time > self.limit || !self.body.feet.is_finite() {
                self.state = WalkState::GaveUp;
            }
        }
        self.state == WalkState::Walking
    }

    /// While it walks a level with movers: the scene it walks and that scene's time (the preview draws the
    /// movers there, so a lift the agent rides is drawn under it).
    #[must_use]
    pub fn clock(&self) -> Option<(&Scene, f32)> {
        let (_, scene, _) = self.timed.as_ref()?;
        (self.state == WalkState::Walking).then(|| (scene, scene.time()))
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
