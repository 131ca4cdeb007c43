//! Moving parts (issue 37): a level of 1,000 box movers (platforms going back and forth over a few metres)
//! over a 100,000-triangle terrain mesh, against the same level frozen (every object a static at its place at
//! the same time). Rays and capsule sweeps in both, and `Scene::set_time`. Goals: rays and sweeps at most
//! 1.2× the frozen level's time, `set_time` at most 50 µs. The ratios are printed after the groups.
//!
//! The simulation row: [`BALLS`] balls dropped over the same level, one `World::step` (1/60 s) per
//! iteration, against the same level with no movers (its platforms static where they start). Each world is
//! warmed up [`WARMUP`] steps, then timed on steps `WARMUP + 1 ..= WARMUP + WINDOW` (it goes back to its warmed
//! state, untimed, every [`WINDOW`] steps), so both are timed on the same stretch of their scenes.
//! `MOVERS_BENCH=sim` runs only the simulation row and its ratio, `MOVERS_BENCH=set_time` only `set_time`
//! (wall and CPU time: on a loaded machine the thread's CPU time leaves out its waits for a core, and the
//! best of many short rounds of wall time most of them).

use std::hint::black_box;
use std::time::{Duration, Instant};

use collidoscope::generate::{SplitMix64, terrain};
use collidoscope::glam::Vec3;
use collidoscope::level::{
    AabbObject, BallObject, Level, MeshObject, MoverObject, MoverPart, MoverStart, ObjectId, Repeat,
};
use collidoscope::scene::Scene;
use collidoscope::shape::{Capsule, Ray};
use collidoscope::sim::{World, WorldState};
use criterion::Criterion;

/// Box movers in the level.
const MOVERS: usize = 1_000;
/// Rays and sweeps per batch.
const BATCH: usize = 4_096;
/// Balls of the simulation row.
const BALLS: usize = 1_000;
/// Steps before the simulation row's timing starts, and steps timed before the world goes back.
const WARMUP: usize = 30;
const WINDOW: usize = 120;
/// The simulation's step, seconds.
const DT: f32 = 1.0 / 60.0;

/// The terrain (heights scaled to a few metres) and `MOVERS` platforms 3 to 10 m above it, each moving
/// back and forth along a random offset of up to 5 m sideways and 3 m up or down.
fn level() -> Level {
    let (mut vertices, indices) = terrain(100_000, 200.0, 7);
    for v in &mut vertices {
        v.y *= 0.15;
    }
    let mut level = Level {
        meshes: vec![MeshObject {
            id: ObjectId(1),
            name: None,
            obj: None,
            vertices,
            indices,
            one_way: false,
            properties: Default::default(),
        }],
        ..Level::default()
    };
    let mut rng = SplitMix64::new(37);
    for k in 0..MOVERS {
        let c = Vec3::new(
            rng.range(-90.0, 90.0),
            rng.range(3.0, 10.0),
            rng.range(-90.0, 90.0),
        );
        let half = Vec3::new(0.75, 0.1, 0.75);
        let id = ObjectId(2 + k as u32);
        level.aabbs.push(AabbObject {
            id,
            name: None,
            min: c - half,
            max: c + half,
            one_way: false,
            properties: Default::default(),
        });
        let to = Vec3::new(
            rng.range(-5.0, 5.0),
            rng.range(-3.0, 3.0),
            rng.range(-5.0, 5.0),
        );
        level.movers.push(MoverObject {
            id: ObjectId(10_000 + k as u32),
            name: None,
            object: id,
            part: MoverPart::Whole,
            path: vec![Vec3::ZERO, to],
            speed: rng.range(1.0, 5.0),
            wait: rng.range(0.0, 1.0),
            repeat: Repeat::PingPong,
            start: MoverStart::Always,
        });
    }
    level
}

/// Rays from 15 m up in random directions (mostly down), and upright capsules among the platforms moving
/// 2 m in random directions.
fn probes() -> (Vec<Ray>, Vec<(Capsule, Vec3)>) {
    let mut rng = SplitMix64::new(5);
    let dir = |rng: &mut SplitMix64, down: f32| {
        Vec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, down),
            rng.range(-1.0, 1.0),
        )
        .normalize_or(Vec3::NEG_Y)
    };
    let rays = (0..BATCH)
        .map(|_| {
            let o = Vec3::new(rng.range(-90.0, 90.0), 15.0, rng.range(-90.0, 90.0));
            Ray::new(o, dir(&mut rng, -0.2))
        })
        .collect();
    let sweeps = (0..BATCH)
        .map(|_| {
            let p = Vec3::new(
                rng.range(-90.0, 90.0),
                rng.range(2.0, 11.0),
                rng.range(-90.0, 90.0),
            );
            let c = Capsule::new(p, p + Vec3::new(0.0, 1.2, 0.0), 0.3);
            (c, dir(&mut rng, 1.0) * 2.0)
        })
        .collect();
    (rays, sweeps)
}

fn rays(scene: &Scene, rays: &[Ray]) -> usize {
    rays.iter()
        .filter(|r| scene.cast_ray(r, 300.0).is_some())
        .count()
}

fn sweeps(scene: &Scene, sweeps: &[(Capsule, Vec3)]) -> usize {
    sweeps
        .iter()
        .filter(|(c, m)| scene.sweep_capsule(c, *m).is_some())
        .count()
}

/// Seconds per call of `f`, the best of `rounds` rounds of `reps` calls.
fn best(rounds: usize, reps: usize, mut f: impl FnMut()) -> f64 {
    best_cpu(rounds, reps, &mut f).0
}

/// Seconds per call of `a` and of `b`, each the best of 20 rounds of one call, the rounds of the two
/// alternated (so a change of the machine's load meets both: the ratio of the two is what is reported).
fn alternated(mut a: impl FnMut(), mut b: impl FnMut()) -> (f64, f64) {
    let (mut ta, mut tb) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..20 {
        ta = ta.min(best(1, 1, &mut a));
        tb = tb.min(best(1, 1, &mut b));
    }
    (ta, tb)
}

/// This thread's CPU time so far, seconds (`/proc/thread-self/schedstat`; `None` where there is none): on a
/// shared machine it leaves out the time the thread waited for a core.
fn cpu_time() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns * 1e-9)
}

/// Seconds per call of `f`, wall and CPU (NaN without a CPU clock), each the best of `rounds` rounds of
/// `reps` calls.
fn best_cpu(rounds: usize, reps: usize, mut f: impl FnMut()) -> (f64, f64) {
    let (mut wall, mut cpu) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..rounds {
        let c = cpu_time();
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        wall = wall.min(t.elapsed().as_secs_f64() / reps as f64);
        let used = match (c, cpu_time()) {
            (Some(a), Some(b)) => (b - a) / reps as f64,
            _ => f64::NAN,
        };
        cpu = cpu.min(used);
    }
    (wall, cpu)
}

/// `Scene::set_time` of `scene` at 60 Hz steps from `t`, seconds per call: wall, the best of 400 rounds of 20
/// calls (a round lasts about a millisecond, so on a loaded machine many rounds run without losing the core),
/// and CPU, the best of 3 rounds of 3,000 calls (the thread's CPU clock may advance by whole scheduler ticks
/// of a few milliseconds: rounds of 600 calls read it in steps of about 7 us a call).
fn set_time_figures(scene: &mut Scene, t: &mut f32) -> (f64, f64) {
    let mut step = || {
        *t += 1.0 / 60.0;
        scene.set_time(black_box(*t));
    };
    let wall = best(400, 20, &mut step);
    let cpu = best_cpu(3, 3_000, &mut step).1;
    (wall, cpu)
}

/// `MOVERS_BENCH=set_time`: `Scene::set_time` alone, wall and CPU time ([`set_time_figures`]).
fn set_time_only(level: &Level) {
    let mut scene = Scene::from_level(level).expect("the bench level is valid");
    let mut t = 7.3;
    let (wall, cpu) = set_time_figures(&mut scene, &mut t);
    println!(
        "set_time with {MOVERS} movers: {:.1} us wall, {:.1} us CPU (goal <= 50 us)",
        wall * 1e6,
        cpu * 1e6
    );
}

/// `level` with [`BALLS`] balls dropped from 11 to 16 m (above every platform) with a few m/s sideways.
fn with_balls(mut level: Level) -> Level {
    let mut rng = SplitMix64::new(11);
    for k in 0..BALLS {
        level.balls.push(BallObject {
            id: ObjectId(50_000 + k as u32),
            name: None,
            center: Vec3::new(
                rng.range(-90.0, 90.0),
                rng.range(11.0, 16.0),
                rng.range(-90.0, 90.0),
            ),
            velocity: Vec3::new(rng.range(-3.0, 3.0), 0.0, rng.range(-3.0, 3.0)),
            radius: 0.25,
            mass: 1.0,
            restitution: 0.9,
            properties: Default::default(),
        });
    }
    level
}

/// A world of `level` warmed up by [`WARMUP`] steps, and its state then.
fn warmed(level: &Level) -> (World, WorldState) {
    let mut world = World::from_level(level).expect("the bench level is valid");
    for _ in 0..WARMUP {
        world.step(DT);
    }
    let state = world.snapshot();
    (world, state)
}

/// Seconds of `iters` steps of `world`, timed one by one; every [`WINDOW`] steps (counted in `done`) the world
/// goes back to `state`, untimed.
fn windowed(world: &mut World, state: &WorldState, done: &mut usize, iters: u64) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        if *done == WINDOW {
            world.restore(state);
            *done = 0;
        }
        let t = Instant::now();
        black_box(world.step(DT));
        total += t.elapsed();
        *done += 1;
    }
    total
}

/// The simulation row: moving and frozen worlds side by side, then their ratio (the best of 5 windows each,
/// alternated so a change of machine load meets both).
fn bench_sim(c: &mut Criterion, level: &Level) {
    let moving_level = with_balls(level.clone());
    let mut frozen_level = moving_level.clone();
    frozen_level.movers.clear();
    let (mut moving, moving_state) = warmed(&moving_level);
    let (mut frozen, frozen_state) = warmed(&frozen_level);
    let mut group = c.benchmark_group("movers");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    let mut done = 0;
    group.bench_function("sim_step_moving", |b| {
        b.iter_custom(|iters| windowed(&mut moving, &moving_state, &mut done, iters))
    });
    let mut done = 0;
    group.bench_function("sim_step_frozen", |b| {
        b.iter_custom(|iters| windowed(&mut frozen, &frozen_state, &mut done, iters))
    });
    group.finish();
    // Wall and CPU seconds a step, the best of 5 windows each.
    let mut best = [[f64::INFINITY; 2]; 2];
    for _ in 0..5 {
        let [bm, bf] = &mut best;
        for (w, s, best) in [
            (&mut moving, &moving_state, bm),
            (&mut frozen, &frozen_state, bf),
        ] {
            w.restore(s);
            let mut done = 0;
            let c = cpu_time();
            let t = windowed(w, s, &mut done, WINDOW as u64);
            let cpu = match (c, cpu_time()) {
                (Some(a), Some(b)) => b - a,
                _ => f64::NAN,
            };
            best[0] = best[0].min(t.as_secs_f64() / WINDOW as f64);
            best[1] = best[1].min(cpu / WINDOW as f64);
        }
    }
    let [[wm, cm], [wf, cf]] = best;
    println!(
        "simulation, {BALLS} balls: {:.0} us a step moving, {:.0} us frozen: {:.3}x wall; CPU {:.0} / {:.0} us: {:.3}x",
        wm * 1e6,
        wf * 1e6,
        wm / wf,
        cm * 1e6,
        cf * 1e6,
        cm / cf
    );
}

fn bench(c: &mut Criterion) {
    let level = level();
    match std::env::var("MOVERS_BENCH").as_deref() {
        Ok("sim") => return bench_sim(c, &level),
        Ok("set_time") => return set_time_only(&level),
        _ => {}
    }
    let mut moving = Scene::from_level(&level).expect("the bench level is valid");
    let t0 = 7.3;
    moving.set_time(t0);
    // The same objects where the movers have them at `t0`, all static.
    let frozen = Scene::from_objects(moving.objects().map(|(id, s)| (id, s.clone())));
    let (ray_batch, sweep_batch) = probes();
    // Same answers, or the comparison means nothing.
    assert_eq!(rays(&moving, &ray_batch), rays(&frozen, &ray_batch));
    assert_eq!(sweeps(&moving, &sweep_batch), sweeps(&frozen, &sweep_batch));
    let mut group = c.benchmark_group("movers");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    group.bench_function("rays_moving", |b| {
        b.iter(|| black_box(rays(&moving, &ray_batch)))
    });
    group.bench_function("rays_frozen", |b| {
        b.iter(|| black_box(rays(&frozen, &ray_batch)))
    });
    group.bench_function("capsule_sweeps_moving", |b| {
        b.iter(|| black_box(sweeps(&moving, &sweep_batch)))
    });
    group.bench_function("capsule_sweeps_frozen", |b| {
        b.iter(|| black_box(sweeps(&frozen, &sweep_batch)))
    });
    let mut t = t0;
    group.bench_function("set_time_1000_movers", |b| {
        b.iter(|| {
            t += 1.0 / 60.0;
            moving.set_time(black_box(t));
        })
    });
    group.finish();
    moving.set_time(t0);
    let (ray_m, ray_f) = alternated(
        || {
            black_box(rays(&moving, &ray_batch));
        },
        || {
            black_box(rays(&frozen, &ray_batch));
        },
    );
    let (sw_m, sw_f) = alternated(
        || {
            black_box(sweeps(&moving, &sweep_batch));
        },
        || {
            black_box(sweeps(&frozen, &sweep_batch));
        },
    );
    let mut t = t0;
    let (set, set_cpu) = set_time_figures(&mut moving, &mut t);
    let per = |s: f64| s / BATCH as f64 * 1e9;
    println!(
        "rays: {:.0} ns moving, {:.0} ns frozen: {:.3}x (goal <= 1.2x)",
        per(ray_m),
        per(ray_f),
        ray_m / ray_f
    );
    println!(
        "capsule sweeps: {:.0} ns moving, {:.0} ns frozen: {:.3}x (goal <= 1.2x)",
        per(sw_m),
        per(sw_f),
        sw_m / sw_f
    );
    println!(
        "set_time with {MOVERS} movers: {:.1} us wall, {:.1} us CPU (goal <= 50 us)",
        set * 1e6,
        set_cpu * 1e6
    );
    bench_sim(c, &level);
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
