//! The earliest-collision event loop of one step. Each ball keeps its own clock; every ball's first contact in
//! the rest of the step is predicted with the exact sweeps of [`crate::query::sweep`] (statics from the scene's
//! tree, balls from the [`BallGrid`]) and queued by `(time, ball, other)`. The earliest event advances only the
//! balls involved, the contact policy answers it, and only their predictions are redone; predictions made stale
//! by a velocity change are dropped by version numbers when popped.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use glam::Vec3;

use super::grid::BallGrid;
use super::movers::sweep_in_frame;
use super::near::{NearStatics, margin};
use super::one_way;
use super::policy::{ContactPolicy, WEDGE_HITS, along_crease, apply_ball_impulse, static_response};
use super::{Ball, BallId, Contact, ContactEvent, Static, StepReport, World};
use crate::mover::translated as shape_at;
use crate::query::{Toi, sweep};
use crate::shape::{Plane, Sphere};

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

/// A ball's straight path from its clock to the end of the step, as [`Run::predict`] sweeps it.
#[derive(Clone)]
struct Path {
    /// The ball's clock (seconds into the step).
    t0: f64,
    /// Seconds from its clock to the end of the step.
    rest: f64,
    ball: Ball,
    sphere: Sphere,
    motion: Vec3,
    /// The swept box.
    lo: Vec3,
    hi: Vec3,
}

/// The state of one step's event loop. The world keeps one between steps so that its buffers (clocks,
/// versions, the queue, the grid) are reused rather than allocated again every step.
#[derive(Clone, Default)]
pub(super) struct Run {
    dt: f64,
    local_t: Vec<f64>,
    version: Vec<u32>,
    last_hit_time: Vec<f64>,
    hits_now: Vec<u32>,
    pub(super) valid: Vec<bool>,
    /// The balls' swept boxes (filed before the push-out, which asks it for touching balls too).
    pub(super) grid: BallGrid,
    /// Each ball's nearby statics (also used by the push-out, before the event loop).
    pub(super) near: NearStatics,
    heap: BinaryHeap<Event>,
    scratch: Vec<u32>,
    statics_scratch: Vec<usize>,
    boxes: Vec<(Vec3, Vec3)>,
    /// The pairs of balls sharing a grid cell when the step began (the push-out's and the first
    /// predictions' candidates).
    pub(super) pairs: Vec<(u32, u32)>,
    /// Balls the push-out moved to other grid cells, and a flag for each ball.
    moved: Vec<u32>,
    is_moved: Vec<bool>,
    policy: Option<ContactPolicy>,
    /// The normal of each ball's previous contact at the current instant (for wedged balls).
    last_normal: Vec<Vec3>,
    /// Whether `knots` is kept this step: only when the world has triggers, which need the exact times a
    /// ball enters and leaves them.
    pub(super) track: bool,
    /// Each ball's path through the step as (time, centre) knots, straight between them (when `track`).
    pub(super) knots: Vec<Vec<(f64, Vec3)>>,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Run").finish_non_exhaustive()
    }
}

/// Whether the ball on `path` is on one side of plane `p` by more than a rounding margin and not moving
/// toward it (a ball rolling on the floor): then the plane's sweep finds nothing, or a touching contact that is
/// not approaching (its normal is the plane's, normalised: the ball's velocity along it is at least minus a few
/// ulps, above the policy's approach threshold), so it is no event either way and the sweep is skipped.
#[inline]
fn moving_off_plane(p: &Plane, path: &Path) -> bool {
    let c = path.sphere.center;
    let side = p.normal.dot(c) - p.d;
    let margin = 1e-5 * (p.normal.abs().dot(c.abs()) + p.d.abs() + 1.0);
    let vn = p.normal.dot(path.ball.velocity);
    (side > margin && vn >= 0.0) || (side < -margin && vn <= 0.0)
}

/// Whether two boxes are apart by more than a margin far above the rounding of swept boxes (`1e-5` of their
/// coordinates' magnitude): then nothing inside one ever touches anything inside the other.
#[inline]
fn boxes_apart((alo, ahi): (Vec3, Vec3), (blo, bhi): (Vec3, Vec3)) -> bool {
    let margin =
        1e-5 * (alo.abs().max(ahi.abs()).max_element() + blo.abs().max(bhi.abs()).max_element());
    (alo - bhi).max_element() > margin || (blo - ahi).max_element() > margin
}

/// Grid cells about three times the typical swept extent (radius plus motion) of the valid balls in a step of
/// `dt` seconds: a swept box then spans one or two cells on each axis. (Measured: twice spent more time filing
/// balls in eight cells each and meeting each pair in several; six, in testing more pairs.)
fn grid_cell(balls: &[Ball], dt: f64) -> f32 {
    let mut total = 0.0f64;
    let mut count = 0usize;
    for b in balls {
        if b.is_valid() {
            total += f64::from(b.radius) + f64::from(b.velocity.length()) * dt;
            count += 1;
        }
    }
    if count > 0 {
        ((3.0 * total / count as f64) as f32).max(1e-3)
    } else {
        1.0
    }
}

impl Run {
    /// Make ready for a step of `dt` seconds of `world`: every clock at 0, every version 0, the queue empty,
    /// every valid ball filed in the grid under its swept box for the step.
    pub(super) fn begin(&mut self, world: &World, dt: f32) {
        let n = world.balls.len();
        let dt64 = f64::from(dt);
        self.dt = dt64;
        let reset = |v: &mut Vec<_>, x| {
            v.clear();
            v.resize(n, x);
        };
        reset(&mut self.local_t, 0.0);
        reset(&mut self.last_hit_time, -1.0);
        self.version.clear();
        self.version.resize(n, 0);
        self.hits_now.clear();
        self.hits_now.resize(n, 0);
        self.last_normal.clear();
        self.last_normal.resize(n, Vec3::ZERO);
        self.valid.clear();
        self.valid.extend(world.balls.iter().map(Ball::is_valid));
        self.heap.clear();
        self.policy = Some(ContactPolicy::new(&world.settings, dt));
        self.grid.reset(n, grid_cell(&world.balls, dt64));
        // Grown by the push-out's slop, so balls within the slop of touching share a cell (`grid.pairs`).
        let slop = world.settings.penetration_slop.max(0.0);
        for i in 0..n {
            if self.valid[i] {
                let (lo, hi) = self.swept_box(&world.balls[i], i);
                let grow = slop + 1e-5 * (slop + lo.abs().max(hi.abs()).max_element());
                self.grid
                    .insert(i, lo - Vec3::splat(grow), hi + Vec3::splat(grow));
            }
        }
        self.grid.filed_all();
        self.grid.pairs(&mut self.pairs);
    }

    /// After the push-out, which moved or slowed the balls in `touched` (and no other): their validity and
    /// grid cells are brought up to date, and the paths for the triggers start from where the balls now are.
    pub(super) fn after_push_out(&mut self, world: &World, touched: &[usize]) {
        self.moved.clear();
        self.is_moved.clear();
        self.is_moved.resize(world.balls.len(), false);
        for &i in touched {
            let was_valid = self.valid[i];
            self.valid[i] = world.balls[i].is_valid();
            let moved = if self.valid[i] {
                let (lo, hi) = self.swept_box(&world.balls[i], i);
                self.grid.refile(i, lo, hi)
            } else {
                self.grid.remove(i);
                was_valid
            };
            if moved {
                self.moved.push(i as u32);
                self.is_moved[i] = true;
            }
        }
        let n = world.balls.len();
        self.track = !world.triggers.is_empty();
        if self.track {
            self.knots.resize_with(n, Vec::new);
            self.knots.truncate(n);
            for (k, b) in self.knots.iter_mut().zip(&world.balls) {
                k.clear();
                k.push((0.0, b.center));
            }
        }
    }

    fn policy(&self) -> ContactPolicy {
        self.policy.expect("Run::begin sets the policy")
    }

    /// Swept box of ball `i` from its clock to the end of the step.
    fn swept_box(&self, b: &Ball, i: usize) -> (Vec3, Vec3) {
        let rest = (self.dt - self.local_t[i]) as f32;
        let end = b.center + b.velocity * rest;
        let r = Vec3::splat(b.radius);
        (b.center.min(end) - r, b.center.max(end) + r)
    }

    /// Run the step's events in time order, within the event budget, and move every ball to the end of the
    /// step.
    pub(super) fn simulate(&mut self, world: &mut World, report: &mut StepReport) {
        self.predict_all(world, report);
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
                self.advance_all(world, ev.time);
                self.local_t.fill(self.dt);
                break;
            }
            processed += 1;
            self.resolve(world, &ev, report);
        }
        self.advance_all(world, self.dt);
        report.counters.events = processed as u64;
    }

    /// Move every valid ball along its path to time `t`.
    fn advance_all(&mut self, world: &mut World, t: f64) {
        for k in 0..world.balls.len() {
            if self.valid[k] {
                self.advance(world, k, t);
            }
        }
    }

    /// Move ball `i` along its path to time `t`.
    fn advance(&mut self, world: &mut World, i: usize, t: f64) {
        let b = &mut world.balls[i];
        b.center += b.velocity * (t - self.local_t[i]) as f32;
        self.local_t[i] = t;
        if self.track {
            self.knots[i].push((t, b.center));
        }
    }

    /// Restitution for ball `i`'s contact at time `t` (the policy of the module docs): `e`, or 0 for a resting
    /// approach or a wedged ball (more than [`WEDGE_HITS`] hits at this instant).
    fn restitution(&mut self, i: usize, t: f64, e: f32, approach: f32, normal: Vec3) -> f32 {
        if t - self.last_hit_time[i] <= 1e-12 * self.dt.max(1e-30) {
            self.hits_now[i] += 1;
        } else {
            self.hits_now[i] = 1;
        }
        self.last_hit_time[i] = t;
        if self.policy().is_resting(approach, normal) || self.hits_now[i] > WEDGE_HITS {
            0.0
        } else {
            e
        }
    }

    /// Answer an event: move the balls involved to its time, apply the response, report it and predict their
    /// next contacts.
    fn resolve(&mut self, world: &mut World, ev: &Event, report: &mut StepReport) {
        let i = ev.ball as usize;
        let t = ev.time;
        self.advance(world, i, t);
        let (point, normal, approach, e) = match ev.other {
            Contact::Static(_) => self.respond_static(world, ev, i),
            Contact::Ball(BallId(j)) => self.respond_ball(world, ev, i, j),
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

    /// Ball `i` meets a static: reflect it, and if it is wedged keep only its motion along the crease of this
    /// surface and the previous one. Returns (point, normal, approach speed, restitution).
    fn respond_static(
        &mut self,
        world: &mut World,
        ev: &Event,
        i: usize,
    ) -> (Vec3, Vec3, f32, f32) {
        let b = world.balls[i];
        // The response is the policy's on the velocity relative to the static (a mover's, zero otherwise),
        // with the static's velocity added back (`movers.rs`).
        let u = match ev.other {
            Contact::Static(s) if world.movers.is_moving(s) => Some(world.movers.velocity(s)),
            _ => None,
        };
        // Exactly the static rule when nothing moves (no `+ 0` that would turn a `-0.0` into `0.0`).
        let add = |v: Vec3| u.map_or(v, |u| u + v);
        let rel = u.map_or(b.velocity, |u| b.velocity - u);
        let vn = rel.dot(ev.normal);
        let approach = -vn;
        let e = self.restitution(i, ev.time, b.restitution, approach, ev.normal);
        world.balls[i].velocity = add(static_response(rel, ev.normal, vn, e));
        if self.hits_now[i] > WEDGE_HITS {
            // Wedged between two surfaces: keep only the motion along their crease (relative to this one).
            let prev = self.last_normal[i];
            let v = u.map_or(world.balls[i].velocity, |u| world.balls[i].velocity - u);
            if v.dot(prev) < 0.0
                && let Some(along) = along_crease(v, prev, ev.normal)
            {
                world.balls[i].velocity = add(along);
            }
        }
        self.last_normal[i] = ev.normal;
        (ev.point, ev.normal, approach, e)
    }

    /// Balls `i` and `j` meet: bring `j` to the event's time and exchange the impulse along their centre line,
    /// with the larger restitution of the two unless the policy makes it inelastic. Returns (point, normal,
    /// approach speed, restitution).
    fn respond_ball(
        &mut self,
        world: &mut World,
        ev: &Event,
        i: usize,
        j: usize,
    ) -> (Vec3, Vec3, f32, f32) {
        let t = ev.time;
        self.advance(world, j, t);
        let (a, b) = (world.balls[i], world.balls[j]);
        let normal = (a.center - b.center).try_normalize().unwrap_or(ev.normal);
        let vrel = (a.velocity - b.velocity).dot(normal);
        let approach = -vrel;
        let e0 = a.restitution.max(b.restitution);
        let e = self.restitution(i, t, e0, approach, normal);
        let e = self.restitution(j, t, e, approach, normal).min(e);
        apply_ball_impulse(&mut world.balls, i, j, normal, vrel, e);
        self.version[j] = self.version[j].wrapping_add(1);
        (b.center + normal * b.radius, normal, approach, e)
    }

    fn regrid(&mut self, world: &World, i: usize) {
        self.grid.remove(i);
        let (lo, hi) = self.swept_box(&world.balls[i], i);
        self.grid.insert(i, lo, hi);
    }

    /// The first predictions of the step: every valid ball against the statics, and every pair of balls filed
    /// in a common cell (each pair once, swept from its lower index, as [`Run::predict`] with `initial` does).
    /// The queue orders events by `(time, ball, other)`, and no two of these share that key, so the order
    /// they are queued in does not matter.
    fn predict_all(&mut self, world: &World, report: &mut StepReport) {
        let n = world.balls.len();
        let mut boxes = std::mem::take(&mut self.boxes);
        boxes.clear();
        for i in 0..n {
            let path = self.path(world, i);
            if self.valid[i] {
                self.predict_statics(world, i, &path, report);
            }
            boxes.push((path.lo, path.hi));
        }
        // The pairs listed before the push-out, but for the balls it moved to other cells: those are asked
        // of the grid again (each pair of two moved balls from the lower one). Pairs whose swept boxes are
        // apart are dropped here, from the compact boxes, as `predict_pair` would drop them.
        let pairs = std::mem::take(&mut self.pairs);
        for &(i, j) in &pairs {
            let (i, j) = (i as usize, j as usize);
            if self.valid[i]
                && !self.is_moved[i]
                && !self.is_moved[j]
                && !boxes_apart(boxes[i], boxes[j])
            {
                let path = self.path(world, i);
                self.predict_pair(world, i, j, &path, true, report);
            }
        }
        let moved = std::mem::take(&mut self.moved);
        let mut found = std::mem::take(&mut self.scratch);
        for &m in &moved {
            let m = m as usize;
            if !self.valid[m] {
                continue;
            }
            let is_moved = &self.is_moved;
            let valid = &self.valid;
            let keep = |j: u32| {
                let j = j as usize;
                j != m && valid[j] && !(is_moved[j] && j < m)
            };
            let (lo, hi) = boxes[m];
            if !self.grid.query(lo, hi, keep, &mut found) {
                found.clear();
                found.extend((0..n as u32).filter(|&j| keep(j)));
            }
            for &j in &found {
                let (a, b) = (m.min(j as usize), m.max(j as usize));
                let path = self.path(world, a);
                self.predict_pair(world, a, b, &path, true, report);
            }
        }
        self.scratch = found;
        self.moved = moved;
        self.pairs = pairs;
        self.boxes = boxes;
    }

    /// Ball `i`'s straight path from its clock to the end of the step.
    fn path(&self, world: &World, i: usize) -> Path {
        let t0 = self.local_t[i];
        let rest = self.dt - t0;
        let ball = world.balls[i];
        let (lo, hi) = self.swept_box(&ball, i);
        Path {
            t0,
            rest,
            ball,
            sphere: ball.sphere(),
            motion: ball.velocity * rest as f32,
            lo,
            hi,
        }
    }

    /// Predict ball `i`'s contacts from its clock to the end of the step and queue them. `initial`: only
    /// balls with a higher index (each pair once).
    fn predict(&mut self, world: &World, i: usize, initial: bool, report: &mut StepReport) {
        if !(self.dt - self.local_t[i] > 0.0) {
            return;
        }
        let path = self.path(world, i);
        self.predict_statics(world, i, &path, report);
        self.predict_balls(world, i, &path, initial, report);
    }

    /// Queue ball `i`'s first approaching contact with each static its swept box touches.
    fn predict_statics(&mut self, world: &World, i: usize, path: &Path, report: &mut StepReport) {
        let mut statics = std::mem::take(&mut self.statics_scratch);
        statics.clear();
        let reach = margin(
            path.ball.radius,
            path.ball.velocity.length(),
            self.dt as f32,
        );
        self.near
            .candidates(&world.scene, i, path.lo, path.hi, reach, |k| {
                statics.push(k)
            });
        report.counters.pairs_tested += statics.len() as u64;
        let v = path.ball.velocity;
        let scale = v.length();
        let policy = self.policy();
        for &s in &statics {
            let shape = &world.scene.shapes()[s];
            if let Static::Plane(p) = shape
                && moving_off_plane(p, path)
            {
                continue;
            }
            report.counters.sweeps += 1;
            // A contact at t = 0 that is not approaching (resting, sliding) is no event; for a mesh, whose
            // other triangles may still be ahead, the sweep skips such contacts itself.
            let one_way = world.scene.is_one_way_entry(s);
            let approaching = |toi: &Toi| {
                policy.approaching(v.dot(toi.normal), scale)
                    && (!one_way || one_way::sweep_counts(shape, &path.sphere, path.motion, toi))
            };
            let found = match shape {
                Static::Mesh(m) => m
                    .sweep_sphere_where(&path.sphere, path.motion, approaching)
                    .map(|(toi, _)| toi),
                other => other
                    .sweep_sphere(&path.sphere, path.motion)
                    .filter(|toi| approaching(toi)),
            };
            if let Some(toi) = found {
                self.queue_static(i, s, path, &toi);
            }
        }
        self.statics_scratch = statics;
        if world.movers.any() {
            self.predict_movers(world, i, path, report);
        }
    }

    /// Queue ball `i`'s first approaching contact with each moved static its swept box may touch, swept in
    /// the mover's frame (`movers.rs`).
    fn predict_movers(&mut self, world: &World, i: usize, path: &Path, report: &mut StepReport) {
        let policy = self.policy();
        let movers = &world.movers;
        let shapes = world.scene.shapes();
        let mut found = Vec::new();
        movers.touching(path.lo, path.hi, |m| {
            let s = m.index as usize;
            let Some(shape) = shapes.get(s) else { return };
            report.counters.pairs_tested += 1;
            report.counters.sweeps += 1;
            let rel = path.ball.velocity - movers.velocity(s);
            let scale = rel.length();
            let one_way = world.scene.is_one_way_entry(s);
            // In the mover's frame: the ball where it is against the entry where it is now, moving
            // relative to it (what the one-way rules look at).
            let here = movers.shift(m, path.t0);
            let start = one_way.then(|| shape_at(shape, here));
            let relm = path.motion - movers.shift(m, path.t0 + path.rest) + here;
            let approaching = |toi: &Toi| {
                policy.approaching(rel.dot(toi.normal), scale)
                    && start
                        .as_ref()
                        .is_none_or(|st| one_way::sweep_counts(st, &path.sphere, relm, toi))
            };
            let toi = sweep_in_frame(
                movers,
                m,
                shape,
                &path.sphere,
                path.motion,
                (path.t0, path.rest),
                approaching,
            );
            if let Some(toi) = toi {
                found.push((s, toi));
            }
        });
        for (s, toi) in found {
            self.queue_static(i, s, path, &toi);
        }
    }

    /// Queue ball `i`'s contact `toi` (a fraction of `path`'s rest) with static `s`.
    fn queue_static(&mut self, i: usize, s: usize, path: &Path, toi: &Toi) {
        self.heap.push(Event {
            time: path.t0 + f64::from(toi.t) * path.rest,
            ball: i as u32,
            other: Contact::Static(s),
            ver_ball: self.version[i],
            ver_other: 0,
            point: toi.point,
            normal: toi.normal,
        });
    }

    /// Queue ball `i`'s first approaching contact with each ball whose swept box may touch its own (`initial`:
    /// only balls with a higher index).
    fn predict_balls(
        &mut self,
        world: &World,
        i: usize,
        path: &Path,
        initial: bool,
        report: &mut StepReport,
    ) {
        let mut candidates = std::mem::take(&mut self.scratch);
        let valid = &self.valid;
        let keep = |j: u32| {
            let j = j as usize;
            j != i && valid[j] && (!initial || j > i)
        };
        let all = !self.grid.query(path.lo, path.hi, keep, &mut candidates);
        if all {
            for j in 0..world.balls.len() {
                self.predict_pair(world, i, j, path, initial, report);
            }
        } else {
            for &j in &candidates {
                self.predict_pair(world, i, j as usize, path, initial, report);
            }
        }
        self.scratch = candidates;
    }

    /// Queue the first approaching contact of ball `i` (on `path`) with ball `j`, if they meet in the rest of
    /// the step (`initial`: only when `j > i`).
    fn predict_pair(
        &mut self,
        world: &World,
        i: usize,
        j: usize,
        path: &Path,
        initial: bool,
        report: &mut StepReport,
    ) {
        if j == i || !self.valid[j] || (initial && j < i) {
            return;
        }
        let (t0, rest, b) = (path.t0, path.rest, path.ball);
        report.counters.pairs_tested += 1;
        let o = world.balls[j];
        // Ball j's swept box from its clock (never later than ours) holds its path through the rest of the
        // step: boxes apart by more than a margin far above their rounding cannot meet, and the sweep would
        // find nothing.
        if boxes_apart(self.swept_box(&o, j), (path.lo, path.hi)) {
            return;
        }
        // Bring j to our clock (it moves in a straight line until its next event).
        let oc = o.center + o.velocity * (t0 - self.local_t[j]) as f32;
        report.counters.sweeps += 1;
        let Some(toi) = sweep::sphere_sphere(
            &path.sphere,
            path.motion,
            &Sphere::new(oc, o.radius),
            o.velocity * rest as f32,
        ) else {
            return;
        };
        let vrel = (b.velocity - o.velocity).dot(toi.normal);
        if !self
            .policy()
            .approaching(vrel, (b.velocity - o.velocity).length())
        {
            return;
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
}
