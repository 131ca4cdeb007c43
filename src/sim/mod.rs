//! The simulation (seed 004): balls under gravity among static geometry, stepped by the earliest-collision
//! event loop with exact times of impact.
//!
//! # The step
//! 1. **Gravity** (semi-implicit Euler, as seed 004): every velocity gains `gravity * dt`; the ball then moves
//!    in a straight line until its next contact.
//! 2. **Push-out**: a ball that starts the step overlapping a static shape or another ball by more than
//!    [`SimSettings::penetration_slop`] is moved out along the contact normal and reported in
//!    [`StepReport::pushed_out`] (a level may spawn balls inside walls; rounding may sink a resting ball by a
//!    hair).
//! 3. **Events**: every ball's first contact in the rest of the step is predicted with the exact sweeps of
//!    [`crate::query::sweep`] against the statics its swept box touches (a BVH) and the balls whose swept boxes
//!    share a grid cell. The earliest event is taken from a priority queue, only the balls involved are
//!    advanced to its time (each ball keeps its own clock), the response is applied, and only their
//!    predictions are redone; predictions made stale by a velocity change are dropped by version numbers.
//!    Nothing is sub-stepped, so fast or grazing balls never tunnel.
//! 4. Every ball is advanced to the end of the step.
//!
//! # Responses
//! Against statics, the reflection `R = 2(-I·N)N + I` of seed 004 scaled by restitution:
//! `v' = v - (1 + e)(v·n)n`. Between balls, an impulse along the centre line with unequal masses:
//! `j = -(1 + e) v_rel·n / (1/m_a + 1/m_b)`, which conserves momentum exactly and, with `e = 1`, kinetic
//! energy. The restitution of a ball pair is the larger of the two (Box2D's mixing rule).
//!
//! # Resting and wedged balls (the contact policy)
//! A contact whose approach speed is below `rest_speed + 2|g·n|·dt` is resolved with restitution 0: the ball
//! keeps its tangential velocity and loses the normal one, so a ball on the floor neither jitters nor sinks,
//! and gravity's one-step velocity never makes it hop. Balls already touching (within the slop) at the start
//! of a step are settled before the event loop by a few Gauss–Seidel sweeps over all their contacts (stacks
//! and grooves), counted in [`StepCounters::resting_contacts`] rather than reported as events, so a floor full
//! of resting balls costs one contact query per ball, not an event. A contact at `t = 0` that is not
//! approaching by more than [`SimSettings::approach_floor`] (a ball resting or sliding along a surface) is no
//! event at all, so there is no endless zero-time loop. A ball hit more than [`WEDGE_HITS`] times at the same
//! instant (wedged between surfaces) keeps only its motion along their crease. If a step still needs more than
//! [`SimSettings::max_events_per_step`] events, the rest of its time is dropped (balls stay where the last
//! event left them) and
//! [`StepReport::budget_exhausted`] says so: never a hang.
//!
//! # Determinism
//! The same world and steps give bit-identical results on the same build: events are ordered by
//! `(time, ball, other)` (a total order, so the order predictions are queued in does not matter), the
//! push-out's contacts are ordered by the balls' `(lowest x, index)` keys, candidate lists are sorted, and
//! nothing depends on hash order or threads. Caches (the grid's cells, each ball's nearby statics) only decide
//! which exact tests run, never their answers.
//!
//! # Rooms
//! [`World`] and its public API live here; `body` holds [`Ball`], [`BallId`] and [`Static`]; `policy` holds
//! [`SimSettings`] and the contact policy (the rest threshold, the approach test, the crease rule, the
//! responses), each rule written once; `pushout` the start of a step; `events` the event loop; `grid` its ball
//! broad phase; `near` each ball's cached nearby statics (never the moved ones); `movers` the level's movers,
//! obstacles that move during a step (times of impact in the mover's frame, responses on the relative
//! velocity, the bound at a path's corners); `one_way` one-way surfaces; `report` what a step reports; `hash`
//! the FNV-1a state and trace hashes. The step's buffers (and the statics cache) stay in the world between steps, so a step
//! allocates only what it returns. The simulation knows nothing of levels: [`World::from_level`] is an adapter
//! in `level`.

mod body;
mod events;
mod grid;
mod hash;
mod movers;
mod near;
mod one_way;
mod policy;
mod pushout;
mod report;
mod triggers;

use std::collections::BTreeSet;
use std::time::Instant;

use serde::{Deserialize, Serialize};

pub use crate::statics::Static;
pub use body::{Ball, BallId};
pub use hash::Fnv;
pub use policy::{SimSettings, WEDGE_HITS};
pub use report::{Contact, ContactEvent, PushOut, StepCounters, StepReport, TriggerEvent};

use crate::id::ObjectId;
use crate::scene::Scene;
use crate::trigger::TriggerVolume;
use events::Run;

/// A copy of everything that changes while stepping, for stepping back and replaying.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorldState {
    balls: Vec<Ball>,
    time: f64,
    steps: u64,
    /// (trigger index, ball index) pairs overlapping at the end of the last step.
    #[serde(default)]
    inside: Vec<(u32, u32)>,
    /// Each mover's id and start time (scene time; `None`: not started), in level order.
    #[serde(default)]
    movers: Vec<(ObjectId, Option<f32>)>,
}

impl WorldState {
    /// The balls.
    #[must_use]
    pub fn balls(&self) -> &[Ball] {
        &self.balls
    }
    /// Simulated seconds.
    #[must_use]
    pub fn time(&self) -> f64 {
        self.time
    }
    /// Steps taken.
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.steps
    }
}

/// Balls and static geometry, stepped by the earliest-collision event loop.
#[derive(Clone, Debug)]
pub struct World {
    settings: SimSettings,
    balls: Vec<Ball>,
    /// The statics and their acceleration structure: the same `Scene` a game queries, so the simulation and
    /// the game's own queries share one whole-level query path.
    scene: Scene,
    time: f64,
    steps: u64,
    ball_ids: Vec<Option<ObjectId>>,
    static_ids: Vec<Option<ObjectId>>,
    triggers: Vec<TriggerVolume>,
    /// (trigger index, ball index) pairs overlapping now.
    inside: BTreeSet<(u32, u32)>,
    /// The event loop's buffers, kept between steps so a step allocates nothing once they have grown.
    run: Run,
    /// The push-out's buffers, kept between steps as well.
    push: pushout::PushBuffers,
    /// The moved statics and their motion in the current step (`movers.rs`).
    movers: movers::Movers,
    /// Bumped whenever statics are added or movers installed: the nearby-statics caches are kept while it
    /// stays (the scene's own generation also counts every mover's motion).
    structure: u64,
}

impl World {
    /// An empty world.
    #[must_use]
    pub fn new(settings: SimSettings) -> Self {
        Self {
            settings,
            balls: Vec::new(),
            scene: Scene::default(),
            time: 0.0,
            steps: 0,
            ball_ids: Vec::new(),
            static_ids: Vec::new(),
            triggers: Vec::new(),
            inside: BTreeSet::new(),
            run: Run::default(),
            push: pushout::PushBuffers::default(),
            movers: movers::Movers::default(),
            structure: 0,
        }
    }

    /// Add a trigger volume: [`StepReport::triggers`] reports balls entering and leaving it, with the exact
    /// time inside the step. (A level's trigger shapes are added by `World::add_trigger`, in `level`.)
    pub fn add_trigger_volume(&mut self, volume: TriggerVolume) {
        self.triggers.push(volume);
    }

    /// The trigger volumes, in the order they were added.
    #[must_use]
    pub fn triggers(&self) -> &[TriggerVolume] {
        &self.triggers
    }

    /// Add a ball; its id indexes [`World::balls`].
    pub fn add_ball(&mut self, ball: Ball) -> BallId {
        self.push_ball(None, ball)
    }

    /// Add a ball that stands for the level object `id` ([`World::ball_object_ids`]).
    pub fn add_ball_object(&mut self, id: ObjectId, ball: Ball) -> BallId {
        self.push_ball(Some(id), ball)
    }

    fn push_ball(&mut self, id: Option<ObjectId>, ball: Ball) -> BallId {
        self.balls.push(ball);
        self.ball_ids.push(id);
        BallId(self.balls.len() - 1)
    }

    /// Add static geometry; [`Contact::Static`] names it by the order of these calls.
    pub fn add_static(&mut self, shape: Static) {
        self.scene.push(ObjectId(u32::MAX), shape);
        self.static_ids.push(None);
        self.structure += 1;
    }

    /// Add static geometry that stands for the level object `id` ([`World::static_object_ids`]); it is
    /// numbered with the others, in the order of the calls.
    pub fn add_static_object(&mut self, id: ObjectId, shape: Static) {
        self.scene.push(id, shape);
        self.static_ids.push(Some(id));
        self.structure += 1;
    }

    /// Install movers on the statics added so far (the level adapter, after adding a level's statics): they
    /// move by the world's clock, the `Always` ones started at 0 (see `movers.rs` for how a step meets them).
    pub(crate) fn install_movers(&mut self, setups: Vec<crate::scene::MoverSetup>) {
        self.scene.install_movers(setups);
        self.scene.set_time(self.time as f32);
        self.movers.install(&self.scene);
        self.structure += 1;
    }

    /// Mark the statics one-way by the order they were added (`flags[i]` for static `i`; the level adapter
    /// passes a level's `one_way` flags): a ball passes up through them and rests on them (`one_way.rs`).
    pub(crate) fn set_one_way(&mut self, flags: Vec<bool>) {
        self.scene.set_one_way_flags(flags);
    }

    /// The scene the world steps in: its statics where the world's clock has its movers
    /// ([`Scene::time`], [`Scene::movers`]).
    #[must_use]
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// Start every mover that starts on trigger `trigger` at world time `at` (seconds; as
    /// [`Scene::start_triggered`]); the movers move from the next step. A ball entering a trigger starts its
    /// movers itself, at the end of that step. Returns the movers started now, ids ascending.
    pub fn start_triggered(&mut self, trigger: ObjectId, at: f32) -> Vec<ObjectId> {
        let started = self.scene.start_triggered(trigger, at);
        self.scene.set_time(self.time as f32);
        started
    }

    /// The balls, in the order they were added.
    #[must_use]
    pub fn balls(&self) -> &[Ball] {
        &self.balls
    }

    /// Replace a ball (the editor's what-if edits). Returns `false` for an unknown id.
    pub fn set_ball(&mut self, id: BallId, ball: Ball) -> bool {
        match self.balls.get_mut(id.0) {
            Some(b) => {
                *b = ball;
                true
            }
            None => false,
        }
    }

    /// The static geometry, in the order it was added.
    #[must_use]
    pub fn statics(&self) -> &[Static] {
        self.scene.shapes()
    }

    /// The level object each ball came from ([`World::from_level`], [`World::add_ball_object`]), by ball index.
    #[must_use]
    pub fn ball_object_ids(&self) -> &[Option<ObjectId>] {
        &self.ball_ids
    }

    /// The level object each static came from ([`World::add_static_object`]), by static index.
    #[must_use]
    pub fn static_object_ids(&self) -> &[Option<ObjectId>] {
        &self.static_ids
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> &SimSettings {
        &self.settings
    }

    /// Simulated seconds so far.
    #[must_use]
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Steps taken so far.
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Total kinetic energy, joules.
    #[must_use]
    pub fn kinetic_energy(&self) -> f64 {
        self.balls.iter().map(Ball::kinetic_energy).sum()
    }

    /// Total potential energy in the gravity field relative to the origin, joules.
    #[must_use]
    pub fn potential_energy(&self) -> f64 {
        let g = self.settings.gravity.as_dvec3();
        self.balls
            .iter()
            .map(|b| -f64::from(b.mass) * g.dot(b.center.as_dvec3()))
            .sum()
    }

    /// A copy of the changing state.
    #[must_use]
    pub fn snapshot(&self) -> WorldState {
        WorldState {
            balls: self.balls.clone(),
            time: self.time,
            steps: self.steps,
            inside: self.inside.iter().copied().collect(),
            movers: self
                .scene
                .movers()
                .iter()
                .map(|m| (m.mover, m.started))
                .collect(),
        }
    }

    /// Return to a snapshot (statics and settings are kept).
    pub fn restore(&mut self, state: &WorldState) {
        self.balls.clone_from(&state.balls);
        self.ball_ids.resize(self.balls.len(), None);
        self.time = state.time;
        self.steps = state.steps;
        self.inside = state.inside.iter().copied().collect();
        if self.movers.any() {
            // Movers not in the snapshot (taken before they were installed) go back to their start rule.
            self.scene.reset_movers();
            for &(id, started) in &state.movers {
                self.scene.set_mover_start(id, started);
            }
            self.scene.set_time(self.time as f32);
        }
    }

    /// Advance the world by `dt` seconds (see the module docs for the event loop and contact policy).
    ///
    /// A non-finite or non-positive `dt` does nothing. Invalid balls (NaN, zero radius or mass) are left
    /// where they are and take part in no contact.
    pub fn step(&mut self, dt: f32) -> StepReport {
        let started = Instant::now();
        let mut report = StepReport {
            dt,
            ..StepReport::default()
        };
        if !(dt.is_finite() && dt > 0.0) {
            return report;
        }
        self.scene.refresh();
        let (t0, t1) = (self.time as f32, (self.time + f64::from(dt)) as f32);
        if self.movers.any() {
            if self.scene.time().to_bits() != t0.to_bits() {
                self.scene.set_time(t0);
            }
            self.movers.begin(&self.scene, t0, t1, f64::from(dt));
        }
        let g = self.settings.gravity;
        let gravity_ok = g.is_finite();
        for b in &mut self.balls {
            if b.is_valid() && gravity_ok {
                b.velocity += g * dt;
            }
        }
        let mut run = std::mem::take(&mut self.run);
        run.near.begin(self.balls.len(), self.structure);
        run.begin(self, dt);
        self.push_out(dt, &mut run, &mut report);
        run.simulate(self, &mut report);
        if run.track {
            triggers::step_events(
                &self.triggers,
                &mut self.inside,
                &run.knots,
                &self.balls,
                dt,
                &mut report.triggers,
            );
        }
        self.run = run;
        self.time += f64::from(dt);
        self.steps += 1;
        if self.movers.any() {
            // A ball entering a trigger starts its movers at the end of the step (see `movers.rs`).
            for ev in &report.triggers {
                if ev.entered {
                    self.scene.start_triggered(ev.trigger, t1);
                }
            }
            self.scene.set_time(t1);
        }
        report.counters.elapsed = started.elapsed();
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn equal_balls_head_on_swap_velocities() {
        let mut w = World::new(SimSettings {
            gravity: Vec3::ZERO,
            ..SimSettings::default()
        });
        w.add_ball(Ball::new(Vec3::ZERO, Vec3::X, 0.5, 1.0, 1.0));
        w.add_ball(Ball::new(Vec3::new(3.0, 0.0, 0.0), -Vec3::X, 0.5, 1.0, 1.0));
        let r = w.step(2.0);
        assert_eq!(r.events.len(), 1);
        assert!((r.events[0].time - 1.0).abs() < 1e-6);
        assert!((w.balls()[0].velocity + Vec3::X).length() < 1e-6);
        assert!((w.balls()[1].velocity - Vec3::X).length() < 1e-6);
    }
}
