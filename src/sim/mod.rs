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
//! `(time, ball, other)`, candidate lists are sorted, and nothing depends on hash order or threads.

use std::cmp::Ordering;
use std::collections::{BTreeSet, BinaryHeap, HashMap};
use std::time::{Duration, Instant};

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use crate::level::{Level, LevelError, ObjectId, Severity};
use crate::mesh::TriMesh;
use crate::query::Toi;
use crate::query::sweep;
use crate::scene::Scene;
use crate::shape::{Aabb, Cylinder, Obb, Plane, Sphere, Triangle, Wall};
use crate::trigger::TriggerVolume;

/// Hits at one instant after which a ball's contacts in that instant are made inelastic.
pub const WEDGE_HITS: u32 = 4;

/// Relative approach speed below which a touching pair counts as not approaching.
const APPROACH_EPSILON: f32 = 1e-6;

/// The absolute approach-speed floor as a fraction of `rest_speed + |g|·dt`: approaches slower than this are
/// treated as resting, so a chain of ever-halving zero-time contacts ends after a few events.
const APPROACH_FLOOR_FRACTION: f32 = 1e-3;

/// Gauss-Seidel sweeps of the resting-contact settle before the event loop.
const SETTLE_ITERATIONS: usize = 16;

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
        let g = if self.gravity.is_finite() {
            self.gravity.length()
        } else {
            0.0
        };
        APPROACH_FLOOR_FRACTION * (self.rest_speed + g * dt).max(0.0)
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

/// A simulated ball.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ball {
    /// Centre, metres.
    pub center: Vec3,
    /// Velocity, metres per second.
    pub velocity: Vec3,
    /// Radius, metres.
    pub radius: f32,
    /// Mass, kilograms.
    pub mass: f32,
    /// Coefficient of restitution in `[0, 1]`.
    pub restitution: f32,
}

impl Ball {
    /// A ball from its fields, in order.
    #[must_use]
    pub const fn new(
        center: Vec3,
        velocity: Vec3,
        radius: f32,
        mass: f32,
        restitution: f32,
    ) -> Self {
        Self {
            center,
            velocity,
            radius,
            mass,
            restitution,
        }
    }

    /// The ball's sphere.
    #[must_use]
    pub fn sphere(&self) -> Sphere {
        Sphere::new(self.center, self.radius)
    }

    /// Kinetic energy, joules.
    #[must_use]
    pub fn kinetic_energy(&self) -> f64 {
        0.5 * f64::from(self.mass) * f64::from(self.velocity.length_squared())
    }

    /// Whether the ball can be simulated: finite numbers, positive radius and mass, restitution in `[0, 1]`.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.center.is_finite()
            && self.velocity.is_finite()
            && self.radius.is_finite()
            && self.radius > 0.0
            && self.mass.is_finite()
            && self.mass > 0.0
            && (0.0..=1.0).contains(&self.restitution)
    }
}

/// A ball's index in [`World::balls`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BallId(pub usize);

/// Static geometry.
#[derive(Clone, Debug)]
pub enum Static {
    /// An infinite plane (both sides).
    Plane(Plane),
    /// A capped cylinder.
    Cylinder(Cylinder),
    /// A triangle (both faces).
    Triangle(Triangle),
    /// An axis-aligned box.
    Aabb(Aabb),
    /// An oriented box.
    Obb(Obb),
    /// A top-down wall extruded from the floor (`y = 0`) to `height`.
    Wall {
        /// The wall.
        wall: Wall,
        /// Its height.
        height: f32,
    },
    /// A triangle mesh.
    Mesh(TriMesh),
}

impl Static {
    /// Bounds, or `None` for an unbounded plane or invalid geometry.
    #[must_use]
    pub fn bounds(&self) -> Option<Aabb> {
        let b = match self {
            Static::Plane(_) => return None,
            Static::Cylinder(c) => {
                let r = Vec3::splat(c.radius);
                Aabb::new(c.a.min(c.b) - r, c.a.max(c.b) + r)
            }
            Static::Triangle(t) => Aabb::new(t.a.min(t.b).min(t.c), t.a.max(t.b).max(t.c)),
            Static::Aabb(a) => *a,
            Static::Obb(o) => {
                let c = o.corners();
                let (lo, hi) = c[1..]
                    .iter()
                    .fold((c[0], c[0]), |(lo, hi), &p| (lo.min(p), hi.max(p)));
                Aabb::new(lo, hi)
            }
            Static::Wall { wall, height } => {
                let r = Vec2::splat(wall.radius);
                let (lo, hi) = (wall.a.min(wall.b) - r, wall.a.max(wall.b) + r);
                Aabb::new(Vec3::new(lo.x, 0.0, lo.y), Vec3::new(hi.x, *height, hi.y))
            }
            Static::Mesh(m) => m.bounds(),
        };
        b.is_valid().then_some(b)
    }

    /// First contact of a sphere moving by `motion` with this shape.
    #[must_use]
    pub fn sweep_sphere(&self, sphere: &Sphere, motion: Vec3) -> Option<Toi> {
        match self {
            Static::Plane(p) => sweep::sphere_plane(sphere, motion, p),
            Static::Cylinder(c) => sweep::sphere_cylinder(sphere, motion, c),
            Static::Triangle(t) => sweep::sphere_triangle(sphere, motion, t),
            Static::Aabb(a) => sweep::sphere_aabb(sphere, motion, a),
            Static::Obb(o) => sweep::sphere_obb(sphere, motion, o),
            Static::Wall { wall, height } => sweep::sphere_wall(sphere, motion, wall, *height),
            Static::Mesh(m) => m.sweep_sphere(sphere, motion).map(|(toi, _)| toi),
        }
    }
}

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

/// A copy of everything that changes while stepping, for stepping back and replaying.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorldState {
    balls: Vec<Ball>,
    time: f64,
    steps: u64,
    /// (trigger index, ball index) pairs overlapping at the end of the last step.
    #[serde(default)]
    inside: Vec<(u32, u32)>,
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
        }
    }

    /// Add a trigger volume: [`StepReport::triggers`] reports balls entering and leaving it, with the exact
    /// time inside the step. Returns `false` (and adds nothing) for an invalid shape.
    pub fn add_trigger(&mut self, id: ObjectId, shape: &crate::level::TriggerShape) -> bool {
        match TriggerVolume::new(id, shape) {
            Some(v) => {
                self.triggers.push(v);
                true
            }
            None => false,
        }
    }

    /// The trigger volumes, in the order they were added.
    #[must_use]
    pub fn triggers(&self) -> &[TriggerVolume] {
        &self.triggers
    }

    /// Add a ball; its id indexes [`World::balls`].
    pub fn add_ball(&mut self, ball: Ball) -> BallId {
        self.balls.push(ball);
        self.ball_ids.push(None);
        BallId(self.balls.len() - 1)
    }

    /// Add static geometry; [`Contact::Static`] names it by the order of these calls.
    pub fn add_static(&mut self, shape: Static) {
        self.scene.push(ObjectId(u32::MAX), shape);
        self.static_ids.push(None);
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

    /// The level object each ball came from ([`World::from_level`]), by ball index.
    #[must_use]
    pub fn ball_object_ids(&self) -> &[Option<ObjectId>] {
        &self.ball_ids
    }

    /// The level object each static came from, by static index.
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
        }
    }

    /// Return to a snapshot (statics and settings are kept).
    pub fn restore(&mut self, state: &WorldState) {
        self.balls.clone_from(&state.balls);
        self.ball_ids.resize(self.balls.len(), None);
        self.time = state.time;
        self.steps = state.steps;
        self.inside = state.inside.iter().copied().collect();
    }

    /// A 64-bit FNV-1a hash of the balls' exact bits, the time and the step count: equal hashes mean
    /// bit-identical states.
    #[must_use]
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv::new();
        h.u64(self.steps);
        h.u64(self.time.to_bits());
        for b in &self.balls {
            h.vec3(b.center);
            h.vec3(b.velocity);
            h.f32(b.radius);
            h.f32(b.mass);
            h.f32(b.restitution);
        }
        h.finish()
    }

    /// A world from a level: its balls, planes, cylinders, triangles, boxes, walls (at their height) and
    /// meshes, with the level's gravity.
    ///
    /// # Errors
    /// [`LevelError::Invalid`] when [`Level::validate`] finds errors, or a mesh cannot be built.
    pub fn from_level(level: &Level) -> Result<World, LevelError> {
        let mut problems = level.validate();
        problems.retain(|p| p.severity == Severity::Error);
        if !problems.is_empty() {
            return Err(LevelError::Invalid { problems });
        }
        let mut world = World::new(SimSettings {
            gravity: level.simulation.gravity,
            ..SimSettings::default()
        });
        // The same objects, in the same order, as the game's `Scene` (one conversion of a level's statics).
        let (statics, problems) = crate::scene::level_statics(level);
        if !problems.is_empty() {
            return Err(LevelError::Invalid { problems });
        }
        for (id, s) in statics {
            world.add_static(s);
            if let Some(last) = world.static_ids.last_mut() {
                *last = Some(id);
            }
        }
        for b in &level.balls {
            world.add_ball(Ball::new(
                b.center,
                b.velocity,
                b.radius,
                b.mass,
                b.restitution,
            ));
            if let Some(last) = world.ball_ids.last_mut() {
                *last = Some(b.id);
            }
        }
        for t in &level.triggers {
            world.add_trigger(t.id, &t.shape);
        }
        Ok(world)
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
        let g = self.settings.gravity;
        let gravity_ok = g.is_finite();
        for b in &mut self.balls {
            if b.is_valid() && gravity_ok {
                b.velocity += g * dt;
            }
        }
        self.push_out(dt, &mut report);
        let mut run = Run::new(self, dt);
        run.simulate(self, &mut report);
        if let Some(knots) = &run.knots {
            crate::trigger::step_events(
                &self.triggers,
                &mut self.inside,
                knots,
                &self.balls,
                dt,
                &mut report.triggers,
            );
        }
        self.time += f64::from(dt);
        self.steps += 1;
        report.counters.elapsed = started.elapsed();
        report
    }

    /// Push overlapping balls out of statics and each other.
    fn push_out(&mut self, dt: f32, report: &mut StepReport) {
        let slop = self.settings.penetration_slop.max(0.0);
        let g = if self.settings.gravity.is_finite() {
            self.settings.gravity
        } else {
            Vec3::ZERO
        };
        let rest_speed = self.settings.rest_speed;
        let rest_below = |n: Vec3| rest_speed + 2.0 * g.dot(n).abs() * dt;
        // Contacts within the slop: (ball, static, normal) and (ball, ball, normal from the second to the first).
        let mut static_contacts: Vec<(usize, usize, Vec3)> = Vec::new();
        let mut ball_contacts: Vec<(usize, usize, Vec3)> = Vec::new();
        let mut candidates: Vec<usize> = Vec::new();
        for i in 0..self.balls.len() {
            let ball = self.balls[i];
            if !ball.is_valid() {
                continue;
            }
            let reach = Vec3::splat(ball.radius + slop);
            candidates.clear();
            self.scene
                .candidates(ball.center - reach, ball.center + reach, |k| {
                    candidates.push(k);
                });
            candidates.sort_unstable();
            for &s in &candidates {
                let ball = self.balls[i];
                // A zero-motion sweep of the sphere grown by the slop reports every contact within the slop,
                // with its normal and surface point.
                let probe = Sphere::new(ball.center, ball.radius + slop);
                let Some(toi) = self.scene.shapes()[s].sweep_sphere(&probe, Vec3::ZERO) else {
                    continue;
                };
                let depth = ball.radius - (ball.center - toi.point).dot(toi.normal);
                if depth > slop {
                    self.balls[i].center = toi.point + toi.normal * ball.radius;
                    report.pushed_out.push(PushOut {
                        ball: BallId(i),
                        other: Contact::Static(s),
                        depth,
                        normal: toi.normal,
                    });
                }
                static_contacts.push((i, s, toi.normal));
            }
        }
        // Ball pairs: sort by x and sweep.
        let mut order: Vec<usize> = (0..self.balls.len())
            .filter(|&i| self.balls[i].is_valid())
            .collect();
        order.sort_by(|&a, &b| {
            let (ba, bb) = (&self.balls[a], &self.balls[b]);
            (ba.center.x - ba.radius)
                .total_cmp(&(bb.center.x - bb.radius))
                .then(a.cmp(&b))
        });
        for k in 0..order.len() {
            let i = order[k];
            for &j in &order[k + 1..] {
                let (a, b) = (self.balls[i], self.balls[j]);
                if b.center.x - b.radius > a.center.x + a.radius + slop {
                    break;
                }
                let d = a.center - b.center;
                let sum = a.radius + b.radius;
                let dist = d.length();
                if dist > sum + slop {
                    continue;
                }
                let n = d.try_normalize().unwrap_or(Vec3::Y);
                let depth = sum - dist;
                if depth > slop {
                    let (wa, wb) = (1.0 / a.mass, 1.0 / b.mass);
                    let share_a = wa / (wa + wb);
                    self.balls[i].center += n * (depth * share_a);
                    self.balls[j].center -= n * (depth * (1.0 - share_a));
                    report.pushed_out.push(PushOut {
                        ball: BallId(i),
                        other: Contact::Ball(BallId(j)),
                        depth,
                        normal: n,
                    });
                }
                ball_contacts.push((i, j, n));
            }
        }
        // Settle slow approaches in all touching contacts together: a few Gauss-Seidel sweeps of inelastic
        // projections, so stacks and grooves come to rest here instead of ping-ponging in the event loop.
        let mut settled = vec![false; static_contacts.len() + ball_contacts.len()];
        let settle_floor = self.settings.approach_floor(dt);
        for _ in 0..SETTLE_ITERATIONS {
            let mut changed = false;
            for (k, &(i, _, n)) in static_contacts.iter().enumerate() {
                let vn = self.balls[i].velocity.dot(n);
                if vn < -settle_floor && -vn < rest_below(n) {
                    self.balls[i].velocity -= n * vn;
                    settled[k] = true;
                    changed = true;
                }
            }
            for (k, &(i, j, n)) in ball_contacts.iter().enumerate() {
                let (a, b) = (self.balls[i], self.balls[j]);
                let vrel = (a.velocity - b.velocity).dot(n);
                if vrel < -settle_floor && -vrel < rest_below(n) {
                    // Perfectly inelastic along the normal: momentum kept, the approach removed.
                    let (wa, wb) = (1.0 / a.mass, 1.0 / b.mass);
                    let impulse = -vrel / (wa + wb);
                    self.balls[i].velocity += n * (impulse * wa);
                    self.balls[j].velocity -= n * (impulse * wb);
                    settled[static_contacts.len() + k] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // A ball still pressing into two surfaces after the sweeps (a narrow groove converges slowly) keeps only
        // its motion along their crease, as the event loop does for wedged balls.
        let mut by_ball: Vec<(usize, Vec3)> =
            static_contacts.iter().map(|&(i, _, n)| (i, n)).collect();
        by_ball.sort_by_key(|&(i, _)| i);
        for group in by_ball.chunk_by(|a, b| a.0 == b.0) {
            let i = group[0].0;
            let v = self.balls[i].velocity;
            let mut pressing: Vec<(f32, Vec3)> = group
                .iter()
                .map(|&(_, n)| (v.dot(n), n))
                .filter(|&(vn, n)| vn < -settle_floor && -vn < rest_below(n))
                .collect();
            if pressing.is_empty() || group.len() < 2 {
                continue;
            }
            pressing.sort_by(|a, b| a.0.total_cmp(&b.0));
            let first = pressing[0].1;
            let other = group
                .iter()
                .map(|&(_, n)| n)
                .find(|n| first.cross(*n).length_squared() > 1e-12);
            self.balls[i].velocity = match other {
                Some(n2) => {
                    let d = first.cross(n2).normalize();
                    d * v.dot(d)
                }
                None => v - first * v.dot(first),
            };
        }
        report.counters.resting_contacts += settled.iter().filter(|&&s| s).count() as u64;
    }
}

/// FNV-1a, for state and trace hashes.
pub struct Fnv(u64);

impl Fnv {
    /// A fresh hasher.
    #[must_use]
    pub fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
    /// Mix in bytes.
    pub fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    /// Mix in a u64.
    pub fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }
    /// Mix in an f32's bits.
    pub fn f32(&mut self, v: f32) {
        self.bytes(&v.to_bits().to_le_bytes());
    }
    /// Mix in a vector's bits.
    pub fn vec3(&mut self, v: Vec3) {
        self.f32(v.x);
        self.f32(v.y);
        self.f32(v.z);
    }
    /// Mix in a contact event.
    pub fn event(&mut self, e: &ContactEvent) {
        self.f32(e.time);
        self.u64(e.ball.0 as u64);
        match e.other {
            Contact::Ball(b) => self.u64(b.0 as u64),
            Contact::Static(s) => self.u64((s as u64) | (1 << 63)),
        }
        self.vec3(e.point);
        self.vec3(e.normal);
        self.f32(e.restitution);
    }
    /// The hash.
    #[must_use]
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv {
    fn default() -> Self {
        Self::new()
    }
}

/// A predicted contact in the queue.
#[derive(Clone, Copy, Debug)]
struct Event {
    time: f64,
    ball: u32,
    other: Contact,
    ver_ball: u32,
    ver_other: u32,
    point: Vec3,
    normal: Vec3,
}

impl Event {
    fn key(&self) -> (f64, u32, Contact) {
        (self.time, self.ball, self.other)
    }
}

impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Event {}
impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Event {
    // Reversed: BinaryHeap is a max-heap and we want the earliest first.
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (self.key(), other.key());
        b.0.total_cmp(&a.0)
            .then_with(|| b.1.cmp(&a.1))
            .then_with(|| b.2.cmp(&a.2))
    }
}

/// A fast hasher for grid cell keys (multiply-rotate, as rustc's FxHash): cell keys are small integers that
/// the default SipHash would spend most of the grid's time on. Only lookups use it; nothing iterates the map,
/// so determinism does not depend on it.
#[derive(Default, Clone, Copy)]
struct CellHasher(u64);

impl std::hash::Hasher for CellHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_i32(&mut self, v: i32) {
        self.write_u64(u64::from(v as u32));
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type CellMap = HashMap<(i32, i32, i32), Vec<u32>, std::hash::BuildHasherDefault<CellHasher>>;

/// Cells a swept box may span before the ball is kept in the "big" list instead.
const MAX_CELLS: i64 = 64;

/// A uniform grid of balls' swept boxes for the rest of the step.
struct BallGrid {
    inv_cell: f32,
    cells: CellMap,
    ranges: Vec<Option<([i32; 3], [i32; 3])>>,
    big: Vec<u32>,
    is_big: Vec<bool>,
}

impl BallGrid {
    fn new(n: usize, cell: f32) -> Self {
        Self {
            inv_cell: 1.0 / cell,
            cells: CellMap::default(),
            ranges: vec![None; n],
            big: Vec::new(),
            is_big: vec![false; n],
        }
    }

    fn range(&self, lo: Vec3, hi: Vec3) -> Option<([i32; 3], [i32; 3])> {
        let to = |v: f32| {
            let c = (v * self.inv_cell).floor();
            if c.is_finite() && c.abs() < 1e9 {
                Some(c as i32)
            } else {
                None
            }
        };
        let a = [to(lo.x)?, to(lo.y)?, to(lo.z)?];
        let b = [to(hi.x)?, to(hi.y)?, to(hi.z)?];
        let count: i64 = (0..3).map(|k| i64::from(b[k] - a[k] + 1)).product();
        (count <= MAX_CELLS).then_some((a, b))
    }

    fn insert(&mut self, i: usize, lo: Vec3, hi: Vec3) {
        match self.range(lo, hi) {
            Some((a, b)) => {
                for x in a[0]..=b[0] {
                    for y in a[1]..=b[1] {
                        for z in a[2]..=b[2] {
                            self.cells.entry((x, y, z)).or_default().push(i as u32);
                        }
                    }
                }
                self.ranges[i] = Some((a, b));
            }
            None => {
                self.is_big[i] = true;
                self.big.push(i as u32);
            }
        }
    }

    fn remove(&mut self, i: usize) {
        if self.is_big[i] {
            self.is_big[i] = false;
            self.big.retain(|&k| k as usize != i);
            return;
        }
        if let Some((a, b)) = self.ranges[i].take() {
            for x in a[0]..=b[0] {
                for y in a[1]..=b[1] {
                    for z in a[2]..=b[2] {
                        if let Some(v) = self.cells.get_mut(&(x, y, z))
                            && let Some(p) = v.iter().position(|&k| k as usize == i)
                        {
                            v.swap_remove(p);
                        }
                    }
                }
            }
        }
    }

    /// Balls whose swept boxes may touch `lo..=hi`, sorted, each once (`None`: every ball).
    fn query(&self, lo: Vec3, hi: Vec3, out: &mut Vec<u32>) -> bool {
        out.clear();
        let Some((a, b)) = self.range(lo, hi) else {
            return false;
        };
        for x in a[0]..=b[0] {
            for y in a[1]..=b[1] {
                for z in a[2]..=b[2] {
                    if let Some(v) = self.cells.get(&(x, y, z)) {
                        out.extend_from_slice(v);
                    }
                }
            }
        }
        out.extend_from_slice(&self.big);
        out.sort_unstable();
        out.dedup();
        true
    }
}

/// The state of one step's event loop.
struct Run {
    dt: f64,
    local_t: Vec<f64>,
    version: Vec<u32>,
    last_hit_time: Vec<f64>,
    hits_now: Vec<u32>,
    valid: Vec<bool>,
    grid: BallGrid,
    heap: BinaryHeap<Event>,
    scratch: Vec<u32>,
    statics_scratch: Vec<usize>,
    /// Approach speeds below this count as resting (an absolute floor, so halving speeds cannot loop forever).
    approach_floor: f32,
    /// The normal of each ball's previous contact at the current instant (for wedged balls).
    last_normal: Vec<Vec3>,
    /// Each ball's path through the step as (time, centre) knots, straight between them: kept only when the
    /// world has triggers, which need the exact times a ball enters and leaves them.
    knots: Option<Vec<Vec<(f64, Vec3)>>>,
}

impl Run {
    fn new(world: &World, dt: f32) -> Self {
        let n = world.balls.len();
        let dt64 = f64::from(dt);
        // Cells about twice the typical swept extent.
        let mut total = 0.0f64;
        let mut count = 0usize;
        for b in &world.balls {
            if b.is_valid() {
                total += f64::from(b.radius) + f64::from(b.velocity.length()) * dt64;
                count += 1;
            }
        }
        let cell = if count > 0 {
            ((2.0 * total / count as f64) as f32).max(1e-3)
        } else {
            1.0
        };
        Self {
            dt: dt64,
            local_t: vec![0.0; n],
            version: vec![0; n],
            last_hit_time: vec![-1.0; n],
            hits_now: vec![0; n],
            valid: world.balls.iter().map(Ball::is_valid).collect(),
            grid: BallGrid::new(n, cell),
            heap: BinaryHeap::new(),
            scratch: Vec::new(),
            statics_scratch: Vec::new(),
            approach_floor: world.settings.approach_floor(dt),
            last_normal: vec![Vec3::ZERO; n],
            knots: (!world.triggers.is_empty())
                .then(|| world.balls.iter().map(|b| vec![(0.0, b.center)]).collect()),
        }
    }

    /// Swept box of ball `i` from its clock to the end of the step.
    fn swept_box(&self, b: &Ball, i: usize) -> (Vec3, Vec3) {
        let rest = (self.dt - self.local_t[i]) as f32;
        let end = b.center + b.velocity * rest;
        let r = Vec3::splat(b.radius);
        (b.center.min(end) - r, b.center.max(end) + r)
    }

    fn simulate(&mut self, world: &mut World, report: &mut StepReport) {
        let n = world.balls.len();
        for i in 0..n {
            if self.valid[i] {
                let (lo, hi) = self.swept_box(&world.balls[i], i);
                self.grid.insert(i, lo, hi);
            }
        }
        for i in 0..n {
            if self.valid[i] {
                self.predict(world, i, true, report);
            }
        }
        let budget = world.settings.max_events_per_step;
        let mut processed = 0usize;
        while let Some(ev) = self.heap.pop() {
            let i = ev.ball as usize;
            let stale = self.version[i] != ev.ver_ball
                || matches!(ev.other, Contact::Ball(BallId(j)) if self.version[j] != ev.ver_other);
            if stale {
                report.counters.stale_events += 1;
                continue;
            }
            if processed >= budget {
                report.budget_exhausted = true;
                report.time_dropped = (self.dt - ev.time) as f32;
                // Stop every clock where it is: no ball moves through the dropped time.
                for k in 0..n {
                    if self.valid[k] {
                        let b = &mut world.balls[k];
                        b.center += b.velocity * (ev.time - self.local_t[k]) as f32;
                        self.local_t[k] = self.dt;
                        if let Some(kn) = &mut self.knots {
                            kn[k].push((ev.time, b.center));
                        }
                    }
                }
                break;
            }
            processed += 1;
            self.resolve(world, &ev, report);
        }
        for k in 0..n {
            if self.valid[k] {
                let b = &mut world.balls[k];
                b.center += b.velocity * (self.dt - self.local_t[k]) as f32;
                if let Some(kn) = &mut self.knots {
                    kn[k].push((self.dt, b.center));
                }
            }
        }
        report.counters.events = processed as u64;
    }

    /// Move ball `i` along its path to time `t`.
    fn advance(&mut self, world: &mut World, i: usize, t: f64) {
        let b = &mut world.balls[i];
        b.center += b.velocity * (t - self.local_t[i]) as f32;
        self.local_t[i] = t;
        if let Some(k) = &mut self.knots {
            k[i].push((t, b.center));
        }
    }

    /// Restitution for a contact: the policy of the module docs.
    fn restitution(
        &mut self,
        world: &World,
        i: usize,
        t: f64,
        e: f32,
        approach: f32,
        normal: Vec3,
    ) -> f32 {
        if t - self.last_hit_time[i] <= 1e-12 * self.dt.max(1e-30) {
            self.hits_now[i] += 1;
        } else {
            self.hits_now[i] = 1;
        }
        self.last_hit_time[i] = t;
        let g_n = world.settings.gravity.dot(normal).abs();
        let threshold = world.settings.rest_speed + 2.0 * g_n * self.dt as f32;
        if approach < threshold || self.hits_now[i] > WEDGE_HITS {
            0.0
        } else {
            e
        }
    }

    fn resolve(&mut self, world: &mut World, ev: &Event, report: &mut StepReport) {
        let i = ev.ball as usize;
        let t = ev.time;
        self.advance(world, i, t);
        let (point, normal, approach, e) = match ev.other {
            Contact::Static(_) => {
                let b = world.balls[i];
                let vn = b.velocity.dot(ev.normal);
                let approach = -vn;
                let e = self.restitution(world, i, t, b.restitution, approach, ev.normal);
                world.balls[i].velocity -= ev.normal * ((1.0 + e) * vn);
                if self.hits_now[i] > WEDGE_HITS {
                    // Wedged between two surfaces: keep only the motion along their crease.
                    let prev = self.last_normal[i];
                    let crease = prev.cross(ev.normal);
                    let v = world.balls[i].velocity;
                    if crease.length_squared() > 1e-12 && v.dot(prev) < 0.0 {
                        let d = crease.normalize();
                        world.balls[i].velocity = d * v.dot(d);
                    }
                }
                self.last_normal[i] = ev.normal;
                (ev.point, ev.normal, approach, e)
            }
            Contact::Ball(BallId(j)) => {
                self.advance(world, j, t);
                let (a, b) = (world.balls[i], world.balls[j]);
                let normal = (a.center - b.center).try_normalize().unwrap_or(ev.normal);
                let vrel = (a.velocity - b.velocity).dot(normal);
                let approach = -vrel;
                let e0 = a.restitution.max(b.restitution);
                let e = self.restitution(world, i, t, e0, approach, normal);
                let e = self.restitution(world, j, t, e, approach, normal).min(e);
                let (wa, wb) = (1.0 / a.mass, 1.0 / b.mass);
                let impulse = -(1.0 + e) * vrel / (wa + wb);
                world.balls[i].velocity += normal * (impulse * wa);
                world.balls[j].velocity -= normal * (impulse * wb);
                self.version[j] = self.version[j].wrapping_add(1);
                (b.center + normal * b.radius, normal, approach, e)
            }
        };
        self.version[i] = self.version[i].wrapping_add(1);
        report.events.push(ContactEvent {
            time: t as f32,
            ball: BallId(i),
            other: ev.other,
            point,
            normal,
            toi_fraction: (t / self.dt) as f32,
            approach_speed: approach,
            restitution: e,
        });
        self.regrid(world, i);
        self.predict(world, i, false, report);
        if let Contact::Ball(BallId(j)) = ev.other {
            self.regrid(world, j);
            self.predict(world, j, false, report);
        }
    }

    fn regrid(&mut self, world: &World, i: usize) {
        self.grid.remove(i);
        let (lo, hi) = self.swept_box(&world.balls[i], i);
        self.grid.insert(i, lo, hi);
    }

    /// Predict ball `i`'s contacts from its clock to the end of the step and queue them. `initial`: only
    /// balls with a higher index (each pair once).
    fn predict(&mut self, world: &World, i: usize, initial: bool, report: &mut StepReport) {
        let t0 = self.local_t[i];
        let rest = self.dt - t0;
        if !(rest > 0.0) {
            return;
        }
        let b = world.balls[i];
        let motion = b.velocity * rest as f32;
        let sphere = b.sphere();
        let (lo, hi) = self.swept_box(&b, i);
        // Statics.
        let mut statics = std::mem::take(&mut self.statics_scratch);
        statics.clear();
        world.scene.candidates(lo, hi, |k| statics.push(k));
        report.counters.pairs_tested += statics.len() as u64;
        let scale = b.velocity.length();
        let floor = self.approach_floor;
        for &s in &statics {
            report.counters.sweeps += 1;
            // A contact at t = 0 that is not approaching (resting, sliding) is no event; for a mesh, whose
            // other triangles may still be ahead, the sweep skips such contacts itself.
            let approaching =
                |toi: &Toi| b.velocity.dot(toi.normal) < -(APPROACH_EPSILON * scale).max(floor);
            let found = match &world.scene.shapes()[s] {
                Static::Mesh(m) => m
                    .sweep_sphere_where(&sphere, motion, approaching)
                    .map(|(toi, _)| toi),
                other => other
                    .sweep_sphere(&sphere, motion)
                    .filter(|toi| approaching(toi)),
            };
            if let Some(toi) = found {
                self.heap.push(Event {
                    time: t0 + f64::from(toi.t) * rest,
                    ball: i as u32,
                    other: Contact::Static(s),
                    ver_ball: self.version[i],
                    ver_other: 0,
                    point: toi.point,
                    normal: toi.normal,
                });
            }
        }
        self.statics_scratch = statics;
        // Balls.
        let mut candidates = std::mem::take(&mut self.scratch);
        let all = !self.grid.query(lo, hi, &mut candidates);
        let n = world.balls.len();
        let range: Box<dyn Iterator<Item = usize>> = if all {
            Box::new(0..n)
        } else {
            Box::new(candidates.iter().map(|&k| k as usize))
        };
        for j in range {
            if j == i || !self.valid[j] || (initial && j < i) {
                continue;
            }
            report.counters.pairs_tested += 1;
            let o = world.balls[j];
            // Bring j to our clock (it moves in a straight line until its next event).
            let oc = o.center + o.velocity * (t0 - self.local_t[j]) as f32;
            report.counters.sweeps += 1;
            let Some(toi) = sweep::sphere_sphere(
                &sphere,
                motion,
                &Sphere::new(oc, o.radius),
                o.velocity * rest as f32,
            ) else {
                continue;
            };
            let vrel = (b.velocity - o.velocity).dot(toi.normal);
            if !(vrel < -(APPROACH_EPSILON * (b.velocity - o.velocity).length()).max(floor)) {
                continue;
            }
            // Queue under the lower index so a pair's event is ordered the same way from either side.
            let (first, second) = if i < j { (i, j) } else { (j, i) };
            self.heap.push(Event {
                time: t0 + f64::from(toi.t) * rest,
                ball: first as u32,
                other: Contact::Ball(BallId(second)),
                ver_ball: self.version[first],
                ver_other: self.version[second],
                point: toi.point,
                normal: if first == i { toi.normal } else { -toi.normal },
            });
        }
        self.scratch = candidates;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_room_keeps_every_ball_inside() {
        let text = include_str!("../levels/magic_room.ron");
        let level = Level::from_ron_str(text).unwrap();
        let mut world = World::from_level(&level).unwrap();
        let dt = level.simulation.dt;
        let mut events = 0;
        for _ in 0..600 {
            let r = world.step(dt);
            events += r.events.len();
            assert!(!r.budget_exhausted);
            for b in world.balls() {
                assert!(b.center.is_finite());
                assert!(b.center.x.abs() <= 4.0 - b.radius + 1e-3, "{b:?}");
                assert!(b.center.z.abs() <= 4.0 - b.radius + 1e-3, "{b:?}");
                assert!(b.center.y >= b.radius - 1e-3, "{b:?}");
            }
        }
        assert!(events > 100, "{events}");
    }

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
