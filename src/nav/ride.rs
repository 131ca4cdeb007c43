//! Ride links: a lift or a platform joins a place beside one end of its path to a place beside the other.
//!
//! The map is baked where the scene's objects stand, so the movers are asked about their timetable instead:
//! each mover that has started (an `Always` one from 0, an `OnTrigger` one only when the scene says it has
//! started) and comes back (sampled: a `PingPong` or `Loop` mover leaves its first point again; a `Once` one
//! never does) is surveyed, for its first point, the point of its path farthest from it and its period. For
//! each end, the nodes standing beside the moved object's top there (at its height, a body's radius and up to
//! three cells off it) are where a body waits and where it lands. A link exists only where a body stepped at
//! 60 Hz with [`Body::step`], the scene time advancing, and steered by the same rule as
//! [`NavPath::steer`](super::NavPath::steer) (`ride_input`), waits at the near end's node, boards, rides and
//! steps off at the far end onto the landing node: like jump links, only where the controller makes it. At
//! most [`MAX_RIDE_MOVERS`](super::MAX_RIDE_MOVERS) movers and four waiting and four landing nodes per end are
//! considered, so memory stays bounded.
//!
//! Steering needs to know where the mover is; a path has only points and links. The bake registers each ride's
//! timetable (the baked scene, held weakly, and the mover's offset at the near end) under the mover and the
//! ride's two points, and steering looks it up: a path from a map that is gone (or one deserialized in another
//! process) steers without it (walk to the boarding point, stand once on the mover, step off at the far end's
//! height and place).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use glam::{Vec2, Vec3};

use super::consts::{HZ, flat, toward};
use super::ways::moved_bounds;
use super::{MAX_RIDE_MOVERS, NavSettings, STEER_SPEED};
use crate::character::{Body, BodyInput, CharacterController, MoveGraph};
use crate::id::ObjectId;
use crate::mover::MoverPart;
use crate::scene::{MoverInfo, Scene};
use crate::shape::Aabb;

/// Waiting or landing nodes kept per end of a mover.
const PER_END: usize = 4;

/// How far apart (horizontally) two waiting or landing nodes of one end are kept, metres.
const SPREAD: f32 = 0.75;

/// A ride found by simulation: from waiting node `from`, board at `board` (a point on the mover's top at the
/// near end), ride to `land` (the same point at the far end), step off onto node `to`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct RideLink {
    /// Waiting node.
    pub(super) from: u32,
    /// Landing node.
    pub(super) to: u32,
    /// The moved object.
    pub(super) object: ObjectId,
    /// Where the body stands on the mover at the near end.
    pub(super) board: Vec3,
    /// The same point at the far end.
    pub(super) land: Vec3,
    /// A* cost: the walk on and off, and the travel and the worst wait at walking speed, metres.
    pub(super) cost: f32,
}

/// Where each ride step of `links` begins, and its mover: two `Ride` links of one mover in a row (to the
/// boarding point, then to the far end) not just after another `Ride` link.
pub(super) fn ride_steps(links: &[super::NavLink]) -> impl Iterator<Item = (usize, ObjectId)> + '_ {
    use super::NavLink::Ride;
    (0..links.len().saturating_sub(1)).filter_map(|w| match (links[w], links[w + 1]) {
        (Ride { mover }, Ride { mover: m2 })
            if mover == m2 && !(w > 0 && matches!(links[w - 1], Ride { .. })) =>
        {
            Some((w, mover))
        }
        _ => None,
    })
}

/// The ride step of a path as steering reads it: `wait` (points[w]), `board`, `land`, `off` (the landing).
#[derive(Clone, Copy, Debug)]
pub(super) struct Block {
    pub(super) object: ObjectId,
    pub(super) wait: Vec3,
    pub(super) board: Vec3,
    pub(super) land: Vec3,
    pub(super) off: Vec3,
}

/// Where the mover is at a scene time (its offset), its offset at the ride's near end, and how long it rests
/// there, seconds (its wait).
pub(super) type Timing<'a> = (&'a dyn Fn(f32) -> Vec3, Vec3, f32);

/// The wish that brings the feet to `to` and stops there (full speed, slower within a quarter metre).
fn arrive(feet: Vec3, to: Vec3) -> Vec2 {
    let d = Vec2::new(to.x - feet.x, to.z - feet.z);
    let l = d.length();
    if l < 0.01 {
        return Vec2::ZERO;
    }
    d / l * (l * 8.0).min(STEER_SPEED)
}

/// The input for a body on a ride step (see `steer.rs`): wait beside the near end until the mover is there
/// long enough to board, walk onto it to the boarding point (moving with the mover), stand there while it
/// travels, and walk off to the landing when it is within half a step of the far end. Without `timing`:
/// walk to the boarding point, stand once on the mover, step off at the far end's height and place.
pub(super) fn ride_input(
    block: &Block,
    body: &Body,
    ctl: &CharacterController,
    timing: Option<Timing<'_>>,
) -> BodyInput {
    let mut input = BodyInput::default();
    let feet = body.feet;
    let t = body.scene_time.unwrap_or(0.0) + 1.0 / HZ;
    let on = body.grounded && body.ground.is_some_and(|g| g.object == block.object);
    let travel = block.land - block.board;
    // How far the mover is from its near end now, when known.
    let shift = timing.map(|(f, near, _)| f(t) - near);
    let at_far = match shift {
        Some(s) => (s - travel).length() <= 0.5 * ctl.max_step,
        None => {
            (feet.y - block.land.y).abs() <= 0.5 * ctl.max_step
                && flat(feet, block.land) <= ctl.radius + 0.5
        }
    };
    if on {
        let spot = block.board + shift.unwrap_or(travel);
        // Already on the way off at the far end (the mover may turn back under the body): go on.
        let leaving = shift.is_some_and(|s| (s - travel).length() < s.length())
            && (feet.y - block.off.y).abs() <= ctl.max_step + 2.0 * ctl.skin
            && flat(feet, block.off) + 0.5 * ctl.radius < flat(spot, block.off);
        input.wish = if at_far || leaving {
            toward(feet, block.off)
        } else if shift.is_some() {
            arrive(feet, spot)
        } else {
            Vec2::ZERO
        };
        return input;
    }
    if feet.distance(block.off) < feet.distance(block.wait) {
        input.wish = toward(feet, block.off);
        return input;
    }
    input.wish = match timing {
        None => toward(feet, block.board),
        Some((f, near, rest)) => {
            let spot = block.board + (f(t) - near);
            let seconds = flat(feet, spot) / STEER_SPEED + 0.25;
            // A mover resting at its near end longer than the walk onto it is boarded only at rest there (a
            // body stepping down onto a lift's floor still rising into place was found crushed); one that does
            // not rest so long, within half a step of it on its way.
            let rise = if rest > seconds + 1.0 / HZ {
                ctl.skin
            } else {
                0.5 * ctl.max_step
            };
            let there = |dt: f32| {
                let d = f(t + dt) - near;
                d.y.abs() <= rise && Vec2::new(d.x, d.z).length() <= 0.1
            };
            if there(0.0) && there(0.5 * seconds) && there(seconds) {
                toward(feet, spot)
            } else {
                arrive(feet, block.wait)
            }
        }
    };
    input
}

/// One mover's timetable, sampled.
struct Survey {
    object: ObjectId,
    /// Scene time it started.
    start: f32,
    /// Seconds between two departures from its first point.
    period: f32,
    /// Seconds from its first point to its far point.
    travel: f32,
    /// Its offset at its first point, at its far point, and at the scene's time.
    home: Vec3,
    far: Vec3,
    now: Vec3,
    /// How long it rests at its first point and at its far point (the longest stay within a millimetre),
    /// seconds.
    rest_home: f32,
    rest_far: f32,
    /// The moved entries' bounds at the scene's time.
    bounds: Aabb,
}

/// The timetable of mover `info` moving `bounds`, if it started and comes back within two minutes.
fn survey(scene: &Scene, info: &MoverInfo, bounds: Aabb) -> Option<Survey> {
    if info.part == MoverPart::Ceiling {
        return None;
    }
    let start = info.started?;
    let off = |t: f32| scene.mover_offset_at(info.object, t);
    let h = 1.0 / 30.0;
    let samples: Vec<Vec3> = (0..=3600).map(|k| off(start + k as f32 * h)).collect();
    let home = samples[0];
    let far = samples
        .iter()
        .copied()
        .max_by(|a, b| a.distance(home).total_cmp(&b.distance(home)))?;
    if !(far.is_finite() && far.distance(home) >= 0.05) {
        return None;
    }
    let fastest = samples
        .windows(2)
        .map(|w| w[0].distance(w[1]))
        .fold(0.0f32, f32::max);
    let tol = 0.6 * fastest + 1e-4;
    let mut departures = Vec::new();
    let mut arrived_far = None;
    let mut was_home = true;
    for (k, o) in samples.iter().enumerate() {
        let home_now = o.distance(home) <= tol;
        if was_home && !home_now {
            departures.push(k as f32 * h);
        }
        if arrived_far.is_none() && o.distance(far) <= tol {
            arrived_far = Some(k as f32 * h);
        }
        was_home = home_now;
        if departures.len() == 2 {
            break;
        }
    }
    let (&[first, second], Some(reach)) = (departures.as_slice(), arrived_far) else {
        return None;
    };
    let rest = |end: Vec3| {
        let (mut run, mut best) = (0usize, 0usize);
        for o in &samples {
            run = if o.distance(end) <= 1e-3 { run + 1 } else { 0 };
            best = best.max(run);
        }
        best.saturating_sub(1) as f32 * h
    };
    Some(Survey {
        rest_home: rest(home),
        rest_far: rest(far),
        object: info.object,
        start,
        period: second - first,
        travel: (reach - first).max(h),
        home,
        far,
        now: off(scene.time()),
        bounds,
    })
}

/// The horizontal distance from `p` to the rectangle under `b` (0 inside).
fn off_rect(b: &Aabb, p: Vec3) -> f32 {
    let dx = (b.min.x - p.x).max(p.x - b.max.x).max(0.0);
    let dz = (b.min.z - p.z).max(p.z - b.max.z).max(0.0);
    Vec2::new(dx, dz).length()
}

/// Nodes beside the top of `rect` (a mover's bounds at one end): at its height within a step, a radius and
/// a skin to three cells more off it, not standing on the mover where it is now (`now`); the nearest first,
/// at most [`PER_END`], each [`SPREAD`] from the others.
fn beside(graph: &MoveGraph, rect: &Aabb, now: &Aabb) -> Vec<u32> {
    let ctl = graph.controller();
    let lo = ctl.radius + ctl.skin;
    let hi = lo + 3.0 * graph.cell();
    let top = rect.max.y;
    let c = rect.center();
    let reach = Vec2::new(rect.max.x - rect.min.x, rect.max.z - rect.min.z).length() * 0.5 + hi;
    let mut found: Vec<(f32, u32)> = graph
        .nodes_near(Vec3::new(c.x, top, c.z), reach, ctl.max_step)
        .into_iter()
        .filter_map(|n| {
            let feet = graph.feet(n);
            let d = off_rect(rect, feet);
            let on_now =
                off_rect(now, feet) < 0.5 * lo && (feet.y - now.max.y).abs() <= ctl.max_step;
            (d >= lo && d <= hi && !on_now).then_some((d, n))
        })
        .collect();
    found.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut kept: Vec<u32> = Vec::new();
    for (_, n) in found {
        let feet = graph.feet(n);
        if kept.iter().all(|&k| flat(graph.feet(k), feet) >= SPREAD) {
            kept.push(n);
            if kept.len() == PER_END {
                break;
            }
        }
    }
    kept
}

/// What a ride simulation needs besides the body.
struct Sim<'a> {
    scene: &'a Scene,
    moving: Scene,
    ctl: CharacterController,
    gravity: Vec3,
}

impl Sim<'_> {
    /// Step `body` from scene time `t` with the ride's steering until `done` says so (then the time), for at
    /// most `seconds`; `None` when crushed, not finite or out of time.
    fn run(
        &mut self,
        block: &Block,
        (near, rest): (Vec3, f32),
        body: &mut Body,
        mut t: f32,
        seconds: f32,
        done: impl Fn(&Body) -> bool,
    ) -> Option<f32> {
        let scene = self.scene;
        let f = |s: f32| scene.mover_offset_at(block.object, s);
        let dt = 1.0 / HZ;
        for _ in 0..(seconds * HZ) as usize {
            let input = ride_input(block, body, &self.ctl, Some((&f, near, rest)));
            t += dt;
            self.moving.set_time(t);
            let m = body.step(&self.ctl, &self.moving, &input, self.gravity, dt);
            if m.crushed || !body.feet.is_finite() {
                return None;
            }
            if done(body) {
                return Some(t);
            }
        }
        None
    }
}

/// The ride links of `graph` (sorted by waiting node), each simulated; their timetables registered for
/// steering under `shared` (the baked scene). Empty with `rides` off or without movers that come back.
pub(super) fn find_rides(
    scene: &Scene,
    shared: &Weak<Scene>,
    graph: &MoveGraph,
    settings: &NavSettings,
) -> Vec<RideLink> {
    let infos: Vec<MoverInfo> = scene
        .movers()
        .into_iter()
        .filter(|m| m.started.is_some() && m.part != MoverPart::Ceiling)
        .take(MAX_RIDE_MOVERS)
        .collect();
    if !settings.rides || infos.is_empty() {
        return Vec::new();
    }
    let bounds = moved_bounds(scene);
    let surveys: Vec<Survey> = infos
        .iter()
        .filter_map(|m| survey(scene, m, *bounds.get(&m.object)?))
        .collect();
    if surveys.is_empty() {
        return Vec::new();
    }
    let mut sim = Sim {
        scene,
        moving: scene.clone(),
        ctl: *graph.controller(),
        gravity: settings.gravity,
    };
    let mut out = Vec::new();
    for s in &surveys {
        for (near, far) in [(s.home, s.far), (s.far, s.home)] {
            out.extend(rides_of(&mut sim, graph, s, near, far, shared));
        }
    }
    out.sort_by_key(|r| (r.from, r.to));
    out.dedup_by_key(|r| (r.from, r.to));
    out
}

/// The links of one mover from its end `near` to its end `far` (offsets).
fn rides_of(
    sim: &mut Sim<'_>,
    graph: &MoveGraph,
    s: &Survey,
    near: Vec3,
    far: Vec3,
    shared: &Weak<Scene>,
) -> Vec<RideLink> {
    let at = |o: Vec3| Aabb::new(s.bounds.min + (o - s.now), s.bounds.max + (o - s.now));
    let (from_rect, to_rect) = (at(near), at(far));
    let waits = beside(graph, &from_rect, &s.bounds);
    let lands = beside(graph, &to_rect, &s.bounds);
    let mut out = Vec::new();
    if waits.is_empty() || lands.is_empty() {
        return out;
    }
    let c = from_rect.center();
    let board = Vec3::new(c.x, from_rect.max.y, c.z);
    let land = board + (far - near);
    let (ctl, scene) = (sim.ctl, sim.scene);
    let object = s.object;
    let rest = if near == s.home {
        s.rest_home
    } else {
        s.rest_far
    };
    let on_far = |b: &Body| {
        b.grounded
            && b.ground.is_some_and(|g| g.object == object)
            && (sim_offset(scene, object, b) - far).length() <= 0.5 * ctl.max_step
    };
    for &w in &waits {
        let wait = graph.feet(w);
        let block = Block {
            object,
            wait,
            board,
            land,
            off: graph.feet(lands[0]),
        };
        let mut body = Body::new(wait);
        body.grounded = true;
        body.scene_time = Some(s.start);
        let horizon = (2.0 * s.period + s.travel + 4.0).min(60.0);
        let Some(t) = sim.run(&block, (near, rest), &mut body, s.start, horizon, on_far) else {
            continue;
        };
        for &x in &lands {
            let off = graph.feet(x);
            let block = Block { off, ..block };
            let mut rider = body;
            let seconds = 1.5 * flat(land, off) / STEER_SPEED + 1.5;
            let landed = |b: &Body| {
                b.grounded
                    && b.ground.is_some_and(|g| g.object != object)
                    && flat(b.feet, off) <= graph.cell()
                    && (b.feet.y - off.y).abs() <= ctl.max_step
            };
            if sim
                .run(&block, (near, rest), &mut rider, t, seconds, landed)
                .is_some()
            {
                out.push(RideLink {
                    from: w,
                    to: x,
                    object,
                    board,
                    land,
                    cost: flat(wait, board) + flat(land, off) + STEER_SPEED * (s.travel + s.period),
                });
            }
        }
    }
    if !out.is_empty() {
        register(object, (board, land), shared, (near, rest));
    }
    out
}

/// The mover's offset at the time of the body's last step.
fn sim_offset(scene: &Scene, object: ObjectId, body: &Body) -> Vec3 {
    scene.mover_offset_at(object, body.scene_time.unwrap_or(0.0))
}

/// A registered timetable: the baked scene (held weakly: it goes with its map), the near end's offset and
/// the mover's rest there.
type Entry = (Weak<Scene>, Vec3, f32);

/// A ride's key: the moved object and its two points' bits.
type Key = (u32, [u32; 6]);

/// The timetables of the rides baked in this process, by ride.
fn table() -> &'static Mutex<HashMap<Key, Vec<Entry>>> {
    static TABLE: OnceLock<Mutex<HashMap<Key, Vec<Entry>>>> = OnceLock::new();
    TABLE.get_or_init(|| Mutex::new(HashMap::new()))
}

fn key(object: ObjectId, board: Vec3, land: Vec3) -> Key {
    let [a, b, c] = board.to_array().map(f32::to_bits);
    let [d, e, f] = land.to_array().map(f32::to_bits);
    (object.0, [a, b, c, d, e, f])
}

/// Keep the timetable of a ride for steering (entries of maps that are gone are dropped on the way).
fn register(object: ObjectId, (board, land): (Vec3, Vec3), scene: &Weak<Scene>, near: (Vec3, f32)) {
    let mut t = table().lock().unwrap_or_else(|e| e.into_inner());
    if t.len() > 4096 {
        t.retain(|_, v| {
            v.retain(|e| e.0.strong_count() > 0);
            !v.is_empty()
        });
    }
    let v = t.entry(key(object, board, land)).or_default();
    v.retain(|e| e.0.strong_count() > 0 && !Weak::ptr_eq(&e.0, scene));
    v.push((scene.clone(), near.0, near.1));
}

/// The timetable registered for a ride, if its map is still alive: the baked scene, the near end's offset and
/// the mover's rest there.
pub(super) fn timetable(
    object: ObjectId,
    board: Vec3,
    land: Vec3,
) -> Option<(Arc<Scene>, Vec3, f32)> {
    let t = table().lock().unwrap_or_else(|e| e.into_inner());
    t.get(&key(object, board, land))?
        .iter()
        .rev()
        .find_map(|(w, near, rest)| Some((w.upgrade()?, *near, *rest)))
}
