//! Moving parts (issue 37): a level of 1,000 box movers (platforms going back and forth over a few metres)
//! over a 100,000-triangle terrain mesh, against the same level frozen (every object a static at its place at
//! the same time). Rays and capsule sweeps in both, and `Scene::set_time`. Goals: rays and sweeps at most
//! 1.2× the frozen level's time, `set_time` at most 50 µs. The ratios are printed after the groups.

use std::hint::black_box;
use std::time::{Duration, Instant};

use collidoscope::generate::{SplitMix64, terrain};
use collidoscope::glam::Vec3;
use collidoscope::level::{
    AabbObject, Level, MeshObject, MoverObject, MoverPart, MoverStart, ObjectId, Repeat,
};
use collidoscope::scene::Scene;
use collidoscope::shape::{Capsule, Ray};
use criterion::Criterion;

/// Box movers in the level.
const MOVERS: usize = 1_000;
/// Rays and sweeps per batch.
const BATCH: usize = 4_096;

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
    (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                f();
            }
            t.elapsed().as_secs_f64() / reps as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn bench(c: &mut Criterion) {
    let level = level();
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
    let ray_m = best(5, 3, || {
        black_box(rays(&moving, &ray_batch));
    });
    let ray_f = best(5, 3, || {
        black_box(rays(&frozen, &ray_batch));
    });
    let sw_m = best(5, 3, || {
        black_box(sweeps(&moving, &sweep_batch));
    });
    let sw_f = best(5, 3, || {
        black_box(sweeps(&frozen, &sweep_batch));
    });
    let mut t = t0;
    let set = best(5, 600, || {
        t += 1.0 / 60.0;
        moving.set_time(black_box(t));
    });
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
        "set_time with {MOVERS} movers: {:.1} us (goal <= 50 us)",
        set * 1e6
    );
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
