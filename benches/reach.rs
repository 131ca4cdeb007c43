//! Reachability maps (issue 24): `ReachMap::build` at the default 0.25 m cell on square levels of 25, 50 and
//! 100 m (a maze of rooms, 4 m cells with walls 2.5 m high, on a floor plane, with crates and platforms between
//! them: about 16 places per square metre to test), on both cores. The goal: the 100 m square in at most 1 s.
//! After the groups, the counts of each build (places, reached, edges, single sweeps, whole moves) and how the
//! time grows with the area (the exponent of time against area between the sizes) are printed.

use std::hint::black_box;
use std::time::{Duration, Instant};

use collidoscope::character::{CharacterController, ReachMap, ReachSettings};
use collidoscope::generate::{MazeParams, maze};
use collidoscope::glam::{Vec2, Vec3};
use collidoscope::level::{AabbObject, Level, ObjectId};
use collidoscope::scene::Scene;
use criterion::Criterion;

/// A square level `size` metres across: a maze of 4 m rooms on a floor box, with a crate (0.3 m, climbed) or
/// a platform (0.6 m, not climbed) in every third room.
fn level(size: f32) -> Level {
    let rooms = (size / 4.0).round() as usize;
    let mut l = maze(&MazeParams {
        walls: rooms * rooms + 2 * rooms,
        balls: 0,
        seed: 7,
        cell: 4.0,
    });
    let mut next = 1_000_000u32;
    let mut add = |l: &mut Level, min: Vec3, max: Vec3| {
        next += 1;
        l.aabbs.push(AabbObject {
            id: ObjectId(next),
            name: None,
            min,
            max,
            properties: Default::default(),
            one_way: false,
        });
    };
    for i in 0..rooms {
        for k in 0..rooms {
            if (i * 7 + k * 3) % 3 != 0 {
                continue;
            }
            // The maze is centred on the origin, its rooms 4 m across.
            let half = rooms as f32 * 2.0;
            let c = Vec2::new(i as f32 * 4.0 + 2.0 - half, k as f32 * 4.0 + 2.0 - half);
            let h = if (i + k) % 2 == 0 { 0.3 } else { 0.6 };
            add(
                &mut l,
                Vec3::new(c.x - 0.6, 0.0, c.y - 0.6),
                Vec3::new(c.x + 0.6, h, c.y + 0.6),
            );
        }
    }
    l
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8))
        .configure_from_args();
    let ctl = CharacterController::default();
    let settings = ReachSettings::default();
    let mut report = Vec::new();
    let mut group = c.benchmark_group("reach_build");
    for size in [25.0f32, 50.0, 100.0] {
        let level = level(size);
        let scene = Scene::from_level(&level).expect("a valid level");
        let w = level
            .walker
            .as_ref()
            .expect("the maze has a walker start")
            .position;
        let start = Vec3::new(w.x, 0.0, w.y);
        let began = Instant::now();
        let map = ReachMap::try_build(&scene, &ctl, start, &settings).expect("a map");
        let once = began.elapsed();
        report.push((size, once, *map.stats()));
        group.bench_function(format!("{size}m"), |b| {
            b.iter(|| black_box(ReachMap::build(&scene, &ctl, start, &settings)));
        });
    }
    group.finish();
    println!("\nsize   build (one run)  places   reached  edges    sweeps   moves");
    for (size, t, s) in &report {
        println!(
            "{size:>4} m {:>10.3} s  {:>8} {:>8} {:>8} {:>8} {:>7}",
            t.as_secs_f64(),
            s.places,
            s.reached,
            s.edges,
            s.sweeps,
            s.moves
        );
    }
    for w in report.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        let exponent = (b.1.as_secs_f64() / a.1.as_secs_f64()).ln()
            / f64::from((b.0 * b.0) / (a.0 * a.0)).ln();
        println!("time ~ area^{exponent:.2} from {} m to {} m", a.0, b.0);
    }
    c.final_summary();
}
