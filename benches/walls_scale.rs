//! Walls at scale (issue 7): `move_and_slide` through a `WallGrid` against the free function
//! `walls::move_and_slide`, which scans every wall (the seed's method), at 100, 10,000 and 100,000 walls.
//!
//! # Scenes and moves
//! The walls of `generate::maze(&MazeParams { walls: N, balls: 0, seed: 1, cell: 2.0 })`: unit-cell grid
//! walls 2 m long with a collision distance of 0.1 m, exactly `N` of them, a closed outer boundary. The grid is
//! built once per size (`WallGrid::new`, its time is reported too).
//!
//! [`MOVES`] moves per size (SplitMix64, seeded): a walker of radius [`WALKER_RADIUS`] starts at a random
//! cell's centre, jittered by up to 0.4 m (so it starts clear of every wall), and moves by a random
//! direction times a length uniform in 0.05..3 m: from a small per-frame step to a move across one or two
//! cells, so many moves hit a wall and slide, some hit two. Both methods run exactly the same moves; before
//! timing, the bench checks that they give the same end points (the grid only narrows the wall list the
//! scan sees, so the answers should be bit-identical) and prints how many moves were shortened by a wall.
//!
//! # Timing
//! Criterion 0.8, one group per size (`walls_100`, ...) with the functions `grid` and `linear`; one iteration
//! runs all [`MOVES`] moves, `Throughput::Elements(MOVES)`. 10 samples, flat sampling, 0.5 s warm-up, 2 s
//! measurement (the linear scan at 100,000 walls takes longer: criterion needs at least 10 iterations). At the
//! end a table gives microseconds per move (fastest sample: on a shared
//! machine the least disturbed one) and the ratio linear / grid; issue 7's
//! goal is >= 1000x at 100,000 walls.
//!
//! Without `--bench` (e.g. `cargo test --benches`) criterion runs each function once and only the 100 and
//! 10,000 wall scenes are used.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use collidoscope::generate::{MazeParams, maze};
use collidoscope::glam::Vec2;
use collidoscope::shape::Wall;
use collidoscope::walls::{WallGrid, move_and_slide};
use criterion::{Bencher, Criterion, SamplingMode, Throughput};

/// Wall counts benchmarked.
const SIZES: [usize; 3] = [100, 10_000, 100_000];
/// Moves per iteration (the same for both methods).
const MOVES: usize = 128;
/// Walker radius, metres.
const WALKER_RADIUS: f32 = 0.3;
/// Maze cell side, metres.
const CELL: f32 = 2.0;
/// Seed of the moves.
const MOVE_SEED: u64 = 0x3a11_5ca1e;

/// SplitMix64: a tiny seeded PRNG, so every run sees the same moves.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// One size: the walls, their grid and the moves.
struct Scene {
    walls: Vec<Wall>,
    grid: WallGrid,
    grid_build: Duration,
    moves: Vec<(Vec2, Vec2)>,
}

fn scene(n: usize) -> Scene {
    let level = maze(&MazeParams {
        walls: n,
        balls: 0,
        seed: 1,
        cell: CELL,
    });
    let walls: Vec<Wall> = level
        .walls
        .iter()
        .map(|w| Wall::new(w.a, w.b, w.radius))
        .collect();
    assert_eq!(walls.len(), n, "maze wall count");
    let start = Instant::now();
    let grid = WallGrid::new(walls.iter().copied());
    let grid_build = start.elapsed();
    // The maze spans `lo..hi` in whole cells.
    let (lo, hi) = walls.iter().fold(
        (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
        |(lo, hi), w| (lo.min(w.a).min(w.b), hi.max(w.a).max(w.b)),
    );
    let cells = (((hi.x - lo.x) / CELL).round() as usize).max(1);
    let mut rng = SplitMix64(MOVE_SEED ^ n as u64);
    let moves = (0..MOVES)
        .map(|_| {
            let (cx, cy) = (rng.below(cells), rng.below(cells));
            let from = lo
                + Vec2::new(
                    (cx as f32 + 0.5) * CELL + rng.range(-0.4, 0.4),
                    (cy as f32 + 0.5) * CELL + rng.range(-0.4, 0.4),
                );
            let angle = rng.range(0.0, std::f32::consts::TAU);
            let len = rng.range(0.05, 3.0);
            (from, Vec2::new(angle.cos(), angle.sin()) * len)
        })
        .collect();
    Scene {
        walls,
        grid,
        grid_build,
        moves,
    }
}

/// Check that both methods agree and print how many moves a wall shortened.
fn agreement(n: usize, s: &Scene) {
    let mut differ = 0;
    let mut worst = 0.0f32;
    let mut shortened = 0;
    for &(from, motion) in &s.moves {
        let linear = move_and_slide(from, WALKER_RADIUS, motion, &s.walls);
        let grid = s.grid.move_and_slide(from, WALKER_RADIUS, motion);
        if linear != grid {
            differ += 1;
            worst = worst.max(linear.distance(grid));
        }
        if linear.distance(from + motion) > 1e-3 {
            shortened += 1;
        }
    }
    eprintln!(
        "walls_{n}: {} moves, {shortened} stopped or deflected by a wall; grid and linear differ on {differ} \
         (largest distance {worst:e}); WallGrid::new {:.2} ms",
        s.moves.len(),
        s.grid_build.as_secs_f64() * 1e3
    );
}

/// Per-iteration durations recorded by [`timed`]: (group, function) -> (iterations, elapsed) per call.
type Samples = BTreeMap<(String, String), Vec<(u64, Duration)>>;
static TIMES: Mutex<Samples> = Mutex::new(BTreeMap::new());

/// Time `f` with criterion and keep every sample for the summary.
fn timed(b: &mut Bencher, group: &str, name: &str, mut f: impl FnMut() -> f32) {
    let key = (group.to_string(), name.to_string());
    b.iter_custom(|iters| {
        let start = Instant::now();
        for _ in 0..iters {
            black_box(f());
        }
        let elapsed = start.elapsed();
        TIMES
            .lock()
            .expect("timing lock")
            .entry(key.clone())
            .or_default()
            .push((iters, elapsed));
        elapsed
    });
}

/// Seconds per iteration of a recorded function's fastest sample (the machine may be shared: the fastest
/// sample is the one least disturbed by other processes; criterion's own report gives the mean and spread).
fn best_secs(times: &Samples, group: &str, name: &str) -> Option<f64> {
    let samples = times.get(&(group.to_string(), name.to_string()))?;
    let per: Vec<f64> = samples
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, d)| d.as_secs_f64() / *n as f64)
        .collect();
    if per.is_empty() {
        return None;
    }
    per.into_iter().reduce(f64::min)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bench_mode = args.iter().any(|a| a == "--bench");
    let sizes: Vec<usize> = SIZES
        .iter()
        .copied()
        .filter(|&n| bench_mode || n <= 10_000)
        .collect();
    let scenes: Vec<(usize, Scene)> = sizes.iter().map(|&n| (n, scene(n))).collect();

    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    for (n, s) in &scenes {
        agreement(*n, s);
        let group = format!("walls_{n}");
        let mut g = c.benchmark_group(&group);
        g.sampling_mode(SamplingMode::Flat);
        g.throughput(Throughput::Elements(s.moves.len() as u64));
        g.bench_function("grid", |b| {
            timed(b, &group, "grid", || {
                s.moves
                    .iter()
                    .map(|&(from, motion)| s.grid.move_and_slide(from, WALKER_RADIUS, motion).x)
                    .sum()
            });
        });
        g.bench_function("linear", |b| {
            timed(b, &group, "linear", || {
                s.moves
                    .iter()
                    .map(|&(from, motion)| move_and_slide(from, WALKER_RADIUS, motion, &s.walls).x)
                    .sum()
            });
        });
        g.finish();
    }
    c.final_summary();

    let times = TIMES.lock().expect("timing lock");
    let mut out = String::from(
        "\n## move_and_slide: microseconds per move (fastest sample), WallGrid against the linear scan\n\n\
         | walls | WallGrid::new ms | grid us/move | linear us/move | linear / grid |\n\
         |---|---|---|---|---|\n",
    );
    for (n, s) in &scenes {
        let group = format!("walls_{n}");
        let per_move = |name| best_secs(&times, &group, name).map(|t| t / s.moves.len() as f64);
        let (grid, linear) = (per_move("grid"), per_move("linear"));
        let us = |t: Option<f64>| t.map_or("-".into(), |t| format!("{:.3}", t * 1e6));
        let ratio = match (grid, linear) {
            (Some(g), Some(l)) if g > 0.0 => format!("{:.0}x", l / g),
            _ => "-".into(),
        };
        out.push_str(&format!(
            "| {n} | {:.2} | {} | {} | {ratio} |\n",
            s.grid_build.as_secs_f64() * 1e3,
            us(grid),
            us(linear)
        ));
    }
    out.push_str("\nIssue 7 goal: linear / grid >= 1000x at 100,000 walls.\n");
    println!("{out}");
}
