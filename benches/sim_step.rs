//! Simulation step benchmark: `collidoscope::sim::World` against rapier3d 0.36 on the same scenes (issue 4).
//!
//! # Scenes
//! - `magic_room`: `levels/magic_room.ron` (5 planes, 3 cylinders, 10 balls).
//! - `box_100`, `box_1000`, `box_4000`, `box_16000`: issue 18's sparse scene, 100 to 16,000 balls (radius 0.15
//!   to 0.4 m, restitution 1) on a lattice in a closed 40 m box of six planes, random directions at 0 to
//!   20 m/s, gravity, dt 1/60 (the same box for every count, so the larger crowds are denser).
//! - `spread_1000`, `spread_4000`, `spread_16000` (report only): the box scene at the density of `box_1000`,
//!   its side growing with the cube root of the count, for a growth exponent that measures the engine rather
//!   than the rising collision rate of a denser crowd.
//! - `maze_1k`, `maze_4k`, `maze_16k`: the walls of `levels/maze_large.ron` (10,000 walls) and its floor, with
//!   1,000 / 4,000 / 16,000 balls: `generate::maze(&MazeParams { walls: 10_000, balls: N, seed: 1, cell: 2.0 })`
//!   (the report checks that its walls are those of `levels/maze_large.ron`).
//!
//! # The same scene in rapier3d
//! - Planes are half-spaces (`SharedShape::halfspace`) whose boundary is the level's plane.
//! - Cylinders are rapier cylinders (Y-aligned, centred) rotated onto the level's axis `a..b` and placed at its
//!   midpoint; both are capped.
//! - Walls (collidoscope: every point within `radius` of the segment `a..b`, extruded from `y = 0` to the
//!   wall's height, i.e. a stadium prism) are cuboids of `(length + 2 radius) x height x 2 radius`: the box
//!   that contains the stadium, so the round end caps are covered (a cuboid of the bare length would leave a
//!   notch at every free wall end). Cuboids rather than capsules because rapier's capsules are not extruded to
//!   a height, and cuboid-ball is rapier's cheapest pair besides ball-ball.
//! - Balls are dynamic bodies with a ball collider of the level's radius and mass, CCD enabled, restitution
//!   from the level (1 for every maze ball; 0.8 to 1 in the Magic Room, as collidoscope simulates them) with
//!   the combine rule `Max`, friction 0 with the combine rule `Min` (collidoscope is frictionless; with
//!   rapier's default `Average` rule a frictionless ball on a default floor would still feel friction 0.25).
//!   Statics have restitution 0 and friction 0, so `Max` gives the ball's own restitution everywhere.
//! - Gravity and `dt` are the level's (`simulation.gravity`, `simulation.dt` = 1/60); rapier's other
//!   integration parameters are its defaults (4 solver iterations, sleeping allowed).
//!
//! # Timing
//! Criterion 0.8, one group per scene with the functions `collidoscope` and `rapier3d` side by side. Each world
//! is built once (lazily, so a name filter skips the setup too) and warmed up by [`WARMUP_STEPS`] steps; each
//! criterion iteration is then one `step` of that persistent world, timed alone (`iter_custom`). After
//! [`WINDOW`] timed steps the world goes back, untimed, to its warmed-up state (collidoscope: `restore` of a
//! snapshot; rapier3d: rebuilt and warmed up again, its world is not `Clone`), so both engines are always
//! timed on steps 31 to 300 of the scene, the same stretch as the report. Without the window, criterion's
//! tens of thousands of Magic Room steps would time a room of balls at rest, asleep in rapier3d.
//! 10 samples, flat sampling, 0.5 s warm-up, 2 s measurement: the criterion part takes about a minute plus
//! the scene setups.
//!
//! # Tunnelling report
//! After the criterion benches, `main` runs each engine on each scene twice, from a fresh world:
//! - a timing pass: [`WARMUP_STEPS`] untimed steps, then [`WINDOW`] steps timed one by one, with nothing in
//!   between (repeated 40 times for the 10-ball Magic Room). It records the wall time of every step and the
//!   stepping thread's CPU time over the window (`/proc/thread-self/schedstat`): on a shared, loaded machine
//!   the CPU time leaves out the time the thread waited for a core, so its ratios are the steadier ones;
//! - a checking pass of [`REPORT_STEPS`] steps that checks every ball's centre path between consecutive steps:
//!   - planes (the maze floor, the Magic Room's five planes): tunnelled when the centre goes beyond the plane
//!     by more than the ball's radius (`n·c - d < -r`);
//!   - cylinders: tunnelled when the centre's path enters the solid cylinder (`ray_cylinder` on the path);
//!   - maze walls: tunnelled when the centre's path crosses a wall's centre segment (2D segment-segment
//!     intersection, inclusive, against every wall `WallGrid::query_box` returns for the path's box, while the
//!     path is not above the wall), or when the ball's maze cell changes to a non-adjacent cell in one step;
//!   - a non-finite centre counts as tunnelled.
//!
//! A ball is counted once however often it tunnels. The report prints a markdown table: CPU, mean and median
//! step times, the ratios rapier3d / collidoscope, the tunnelled-ball counts, the worst penetration (as a
//! fraction of the ball's radius) into planes and walls; then the scaling exponent `ln(t16k / t1k) / ln 16` of
//! both engines for the box and the maze scenes, and collidoscope's per-step counters (`StepReport::counters`).
//!
//! # Scale
//! After the report, [`scale_report`] measures collidoscope alone on `generate::maze` with 100,000 balls among
//! its 10,000 walls: the world's build time, its resident memory (built, and after stepping; measured in a
//! child process of its own) and its step time over steps 31 to 90. `SIM_STEP_REPORT=scale` runs only that.
//!
//! The report runs after the benches when no name filter is given (`cargo bench --bench sim_step`), alone with
//! `cargo bench --bench sim_step -- --exact tunnelling_report` or `SIM_STEP_REPORT=only`, and never with
//! `SIM_STEP_REPORT=0` or outside `cargo bench` (`cargo test --benches` runs each bench once and skips it).

use std::hint::black_box;
use std::time::{Duration, Instant};

use collidoscope::generate::{MazeParams, maze};
use collidoscope::glam::{Quat, Vec2, Vec3};
use collidoscope::level::Level;
use collidoscope::query::ray::ray_cylinder;
use collidoscope::shape::{Cylinder, Ray, Wall};
use collidoscope::sim::{StepCounters, World, WorldState};
use collidoscope::walls::{WallGrid, distance_point_wall};
use criterion::{Criterion, SamplingMode};
use parry_glam::{FromParry, ToParry};
use rapier3d::math::Pose;
use rapier3d::prelude::{
    CoefficientCombineRule, ColliderBuilder, PhysicsWorld, RigidBodyBuilder, RigidBodyHandle,
    SharedShape,
};

// The runtime's glam is Bevy's, rapier3d's another: the scene is copied into its glam when its world is built
// and the ball centres back when they are compared, outside the timed steps.
#[path = "../tests/runtime/parry_glam.rs"]
mod parry_glam;

/// Steps run before timing starts (criterion) or before step times are recorded (report).
const WARMUP_STEPS: usize = 30;
/// Steps of the tunnelling report, warm-up included.
const REPORT_STEPS: usize = 300;
/// Ball counts of the maze scenes.
const MAZE_BALLS: [usize; 3] = [1_000, 4_000, 16_000];
/// Balls of the sparse box scenes (issue 18).
const BOX_BALLS: [usize; 4] = [100, 1_000, 4_000, 16_000];
/// Balls of the box scenes at a fixed density (report only, for the growth exponent).
const SPREAD_BALLS: [usize; 3] = [1_000, 4_000, 16_000];
/// Walls of the maze scenes (those of `levels/maze_large.ron`).
const MAZE_WALLS: usize = 10_000;
/// Cell side of the maze, metres.
const MAZE_CELL: f32 = 2.0;

/// A named level.
struct Scene {
    name: String,
    level: Level,
}

impl Scene {
    fn dt(&self) -> f32 {
        self.level.simulation.dt
    }
}

fn magic_room() -> Scene {
    let level = Level::from_ron_str(include_str!("../levels/magic_room.ron"))
        .expect("levels/magic_room.ron parses");
    Scene {
        name: "magic_room".into(),
        level,
    }
}

fn maze_params(balls: usize) -> MazeParams {
    MazeParams {
        walls: MAZE_WALLS,
        balls,
        seed: 1,
        cell: MAZE_CELL,
    }
}

fn maze_scene(balls: usize) -> Scene {
    Scene {
        name: format!("maze_{}k", balls / 1000),
        level: maze(&maze_params(balls)),
    }
}

/// Issue 18's sparse scene: `n` balls (radius 0.15 to 0.4 m, mass 1, restitution 1) on a lattice inside a
/// closed 40 m box of six planes, moving in random directions at 0 to 20 m/s, under gravity, dt 1/60.
fn box_scene(n: usize) -> Scene {
    box_scene_in(n, 20.0, format!("box_{n}"))
}

/// The box scene at the density of `box_1000` whatever the count: the box's side grows with the cube root of
/// the count (40 m at 1,000 balls, 63.5 m at 4,000, 100.8 m at 16,000). In the fixed 40 m box the collisions
/// per ball grow with the count, so the work grows faster than the count whatever the engine; at a fixed
/// density the growth exponent measures the engine alone.
fn spread_scene(n: usize) -> Scene {
    let half = 20.0 * (n as f32 / 1_000.0).cbrt();
    box_scene_in(n, half, format!("spread_{n}"))
}

/// `n` balls in a closed box of six planes, `2 * half` on a side (see the module's scenes).
fn box_scene_in(n: usize, half: f32, name: String) -> Scene {
    use collidoscope::level::{BallObject, ObjectId, PlaneObject};
    let mut rng = collidoscope::generate::SplitMix64::new(18);
    let mut level = Level {
        name: name.clone(),
        ..Level::default()
    };
    let walls = [
        (Vec3::Y, 0.0),
        (-Vec3::Y, -2.0 * half),
        (Vec3::X, -half),
        (-Vec3::X, -half),
        (Vec3::Z, -half),
        (-Vec3::Z, -half),
    ];
    for (k, (normal, d)) in walls.into_iter().enumerate() {
        level.planes.push(PlaneObject {
            id: ObjectId(k as u32 + 1),
            name: None,
            normal,
            d,
            properties: Default::default(),
        });
    }
    // A cubic lattice with spacing 1 m (room for the largest balls), centred in the box.
    let side = (n as f32).cbrt().ceil() as usize;
    let spacing = (2.0 * half - 2.0) / side as f32;
    for i in 0..n {
        let (x, y, z) = (i % side, (i / side) % side, i / (side * side));
        let center = Vec3::new(
            -half + 1.0 + (x as f32 + 0.5) * spacing,
            1.0 + (y as f32 + 0.5) * spacing,
            -half + 1.0 + (z as f32 + 0.5) * spacing,
        );
        let dir = Vec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        )
        .normalize_or(Vec3::X);
        level.balls.push(BallObject {
            id: ObjectId(100 + i as u32),
            name: None,
            center,
            velocity: dir * rng.range(0.0, 20.0),
            radius: rng.range(0.15, 0.4),
            mass: 1.0,
            restitution: 1.0,
            properties: Default::default(),
        });
    }
    Scene { name, level }
}

fn collidoscope_world(level: &Level) -> World {
    World::from_level(level).expect("the level builds a World")
}

/// A rapier world of the same scene, and its balls' bodies in the level's order.
struct Rapier {
    world: PhysicsWorld,
    balls: Vec<RigidBodyHandle>,
}

impl Rapier {
    fn from_level(level: &Level) -> Self {
        let mut world = PhysicsWorld::new();
        world.gravity = level.simulation.gravity.p();
        world.integration_parameters.dt = level.simulation.dt;
        let stat = |b: ColliderBuilder| b.restitution(0.0).friction(0.0);
        for p in &level.planes {
            let n = p.normal.normalize();
            let collider =
                ColliderBuilder::new(SharedShape::halfspace(n.p())).translation((n * p.d).p());
            world.insert_collider(stat(collider), None);
        }
        for c in &level.cylinders {
            let axis = c.b - c.a;
            let len = axis.length();
            let rot = Quat::from_rotation_arc(Vec3::Y, axis / len);
            let collider = ColliderBuilder::cylinder(len * 0.5, c.radius)
                .position(Pose::from_parts(((c.a + c.b) * 0.5).p(), rot.p()));
            world.insert_collider(stat(collider), None);
        }
        for w in &level.walls {
            let h = w.height.unwrap_or(level.default_wall_height);
            let d = w.b - w.a;
            let len = d.length();
            let rot = if len > 0.0 {
                Quat::from_rotation_arc(Vec3::X, Vec3::new(d.x, 0.0, d.y) / len)
            } else {
                Quat::IDENTITY
            };
            let mid = (w.a + w.b) * 0.5;
            let collider =
                ColliderBuilder::cuboid(len * 0.5 + w.radius, h * 0.5, w.radius).position(
                    Pose::from_parts(Vec3::new(mid.x, h * 0.5, mid.y).p(), rot.p()),
                );
            world.insert_collider(stat(collider), None);
        }
        let mut balls = Vec::with_capacity(level.balls.len());
        for b in &level.balls {
            let body = RigidBodyBuilder::dynamic()
                .translation(b.center.p())
                .linvel(b.velocity.p())
                .ccd_enabled(true);
            let collider = ColliderBuilder::ball(b.radius)
                .mass(b.mass)
                .restitution(b.restitution)
                .restitution_combine_rule(CoefficientCombineRule::Max)
                .friction(0.0)
                .friction_combine_rule(CoefficientCombineRule::Min);
            let (handle, _) = world.insert(body, collider);
            balls.push(handle);
        }
        Self { world, balls }
    }

    fn step(&mut self) {
        self.world.step();
    }

    /// Total kinetic energy of the balls (translation only: frictionless balls do not spin).
    fn kinetic_energy(&self) -> f64 {
        self.balls
            .iter()
            .map(|&h| {
                let b = &self.world.bodies[h];
                0.5 * f64::from(b.mass()) * f64::from(b.linvel().length_squared())
            })
            .sum()
    }

    fn centers(&self, out: &mut Vec<Vec3>) {
        out.clear();
        out.extend(
            self.balls
                .iter()
                .map(|&h| self.world.bodies[h].translation().ours()),
        );
    }
}

/// Steps timed per window: steps `WARMUP_STEPS + 1 ..= REPORT_STEPS` of the scene, as in the report.
const WINDOW: usize = REPORT_STEPS - WARMUP_STEPS;

/// Time `iters` single steps of a persistent world; after [`WINDOW`] timed steps the world is put back (untimed)
/// to its state after the warm-up, so every engine is always timed on the same stretch of the scene.
fn windowed<W>(
    iters: u64,
    state: &mut (W, usize),
    reset: &mut impl FnMut(&mut W),
    step: &mut impl FnMut(&mut W),
) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        if state.1 >= WINDOW {
            reset(&mut state.0);
            state.1 = 0;
        }
        let start = Instant::now();
        step(&mut state.0);
        total += start.elapsed();
        state.1 += 1;
    }
    total
}

/// Both engines on one scene, side by side in one criterion group.
fn bench_scene(c: &mut Criterion, scene: &Scene) {
    let dt = scene.dt();
    let mut group = c.benchmark_group(scene.name.as_str());
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    // collidoscope: the warmed-up state is a snapshot, restored in place.
    let mut ours: Option<((World, usize), WorldState)> = None;
    group.bench_function("collidoscope", |b| {
        let (state, warm) = ours.get_or_insert_with(|| {
            let mut w = collidoscope_world(&scene.level);
            for _ in 0..WARMUP_STEPS {
                w.step(dt);
            }
            let snapshot = w.snapshot();
            ((w, 0), snapshot)
        });
        let mut reset = |w: &mut World| w.restore(warm);
        let mut step = |w: &mut World| {
            black_box(w.step(dt));
        };
        b.iter_custom(|iters| windowed(iters, state, &mut reset, &mut step));
    });
    drop(ours);
    // rapier3d: its world is not `Clone`, so a fresh one is built and warmed up again.
    let warmed = || {
        let mut w = Rapier::from_level(&scene.level);
        for _ in 0..WARMUP_STEPS {
            w.step();
        }
        w
    };
    let mut theirs: Option<(Rapier, usize)> = None;
    group.bench_function("rapier3d", |b| {
        let state = theirs.get_or_insert_with(|| (warmed(), 0));
        let mut reset = |w: &mut Rapier| *w = warmed();
        let mut step = |w: &mut Rapier| w.step();
        b.iter_custom(|iters| windowed(iters, state, &mut reset, &mut step));
    });
    drop(theirs);
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_scene(c, &magic_room());
    for n in BOX_BALLS {
        bench_scene(c, &box_scene(n));
    }
    for n in MAZE_BALLS {
        bench_scene(c, &maze_scene(n));
    }
}

// ---------------------------------------------------------------------------------------------------------
// Tunnelling report.
// ---------------------------------------------------------------------------------------------------------

/// Whether the closed segments `p0..p1` and `a..b` share a point (2D, inclusive).
fn segments_intersect(p0: Vec2, p1: Vec2, a: Vec2, b: Vec2) -> bool {
    let orient = |p: Vec2, q: Vec2, r: Vec2| (q - p).perp_dot(r - p);
    let on_segment = |p: Vec2, q: Vec2, r: Vec2| {
        // r is collinear with p..q: is it within the box of p..q?
        r.x >= p.x.min(q.x) && r.x <= p.x.max(q.x) && r.y >= p.y.min(q.y) && r.y <= p.y.max(q.y)
    };
    let (d1, d2) = (orient(a, b, p0), orient(a, b, p1));
    let (d3, d4) = (orient(p0, p1, a), orient(p0, p1, b));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    (d1 == 0.0 && on_segment(a, b, p0))
        || (d2 == 0.0 && on_segment(a, b, p1))
        || (d3 == 0.0 && on_segment(p0, p1, a))
        || (d4 == 0.0 && on_segment(p0, p1, b))
}

/// The scene's obstacles, for checking ball paths.
struct Checker {
    planes: Vec<(Vec3, f32)>,
    cylinders: Vec<Cylinder>,
    grid: WallGrid,
    heights: Vec<f32>,
    /// Origin and side of the maze's cells (`None` without walls).
    cells: Option<(Vec2, f32)>,
}

/// What the checks found for one engine on one scene.
#[derive(Default)]
struct Findings {
    tunnelled: Vec<bool>,
    /// Worst `(r - distance to plane) / r` seen (0 = touching, 1 = centre on the plane).
    plane_penetration: f32,
    /// Worst `(r + wall radius - distance to wall segment) / r` seen.
    wall_penetration: f32,
    /// Kinetic energy after the last step over that before the first.
    energy_kept: f64,
}

impl Findings {
    fn count(&self) -> usize {
        self.tunnelled.iter().filter(|t| **t).count()
    }
}

impl Checker {
    fn new(level: &Level) -> Self {
        let walls: Vec<Wall> = level.walls.iter().map(|w| w.wall()).collect();
        let cells = (!walls.is_empty()).then(|| {
            let lo = walls
                .iter()
                .fold(Vec2::splat(f32::INFINITY), |m, w| m.min(w.a).min(w.b));
            (lo, MAZE_CELL)
        });
        Self {
            planes: level
                .planes
                .iter()
                .map(|p| (p.normal.normalize(), p.d / p.normal.length()))
                .collect(),
            cylinders: level.cylinders.iter().map(|c| c.cylinder()).collect(),
            heights: level
                .walls
                .iter()
                .map(|w| w.height.unwrap_or(level.default_wall_height))
                .collect(),
            grid: WallGrid::new(walls),
            cells,
        }
    }

    fn cell(&self, p: Vec2) -> Option<(i64, i64)> {
        let (origin, side) = self.cells?;
        let c = (p - origin) / side;
        Some((c.x.floor() as i64, c.y.floor() as i64))
    }

    /// Check every ball's move from `prev` to `next`.
    fn check(&self, prev: &[Vec3], next: &[Vec3], radii: &[f32], found: &mut Findings) {
        found.tunnelled.resize(next.len(), false);
        for (i, (&p0, &p1)) in prev.iter().zip(next).enumerate() {
            let r = radii[i];
            if !p1.is_finite() {
                found.tunnelled[i] = true;
                continue;
            }
            let mut bad = false;
            for &(n, d) in &self.planes {
                let dist = n.dot(p1) - d;
                found.plane_penetration = found.plane_penetration.max((r - dist) / r);
                bad |= dist < -r;
            }
            let path = Ray::new(p0, p1 - p0);
            for c in &self.cylinders {
                bad |= ray_cylinder(&path, c, 1.0).is_some();
            }
            if self.cells.is_some() {
                let (a, b) = (Vec2::new(p0.x, p0.z), Vec2::new(p1.x, p1.z));
                if let (Some(ca), Some(cb)) = (self.cell(a), self.cell(b)) {
                    bad |= (ca.0 - cb.0).abs() > 1 || (ca.1 - cb.1).abs() > 1;
                }
                let margin = Vec2::splat(r + 0.5);
                for k in self.grid.query_box(a.min(b) - margin, a.max(b) + margin) {
                    let w = &self.grid.walls()[k];
                    let below = p0.y.min(p1.y) <= self.heights[k];
                    bad |= below && segments_intersect(a, b, w.a, w.b);
                    if p1.y <= self.heights[k] + r {
                        let pen = (r + w.radius - distance_point_wall(b, w)) / r;
                        found.wall_penetration = found.wall_penetration.max(pen);
                    }
                }
            }
            found.tunnelled[i] |= bad;
        }
    }
}

/// This thread's CPU time so far, seconds (`/proc/thread-self/schedstat`, Linux), or `None`. Updated by the
/// kernel at every tick and context switch, so it is exact to a tick over a block of steps, and unlike wall time
/// it does not count time the thread spent waiting for a core on a loaded machine.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 * 1e-9)
}

/// Step times of the timing pass.
struct Timing {
    /// Wall time of every timed step, seconds.
    wall: Vec<f64>,
    /// CPU time of the timed steps per step, seconds (`None` without `/proc`).
    cpu: Option<f64>,
}

impl Timing {
    fn mean(&self) -> f64 {
        self.wall.iter().sum::<f64>() / self.wall.len().max(1) as f64
    }

    fn median(&self) -> f64 {
        let mut t = self.wall.clone();
        t.sort_by(f64::total_cmp);
        t.get(t.len() / 2).copied().unwrap_or(f64::NAN)
    }

    /// CPU time per step, or the mean wall time without `/proc`.
    fn cpu_or_mean(&self) -> f64 {
        self.cpu.unwrap_or_else(|| self.mean())
    }
}

/// Collidoscope's counters summed over the timed steps.
#[derive(Default)]
struct Totals {
    counters: StepCounters,
    pushed_out: usize,
    budget_exhausted: usize,
    steps: usize,
}

/// How often the timing pass repeats the scene's window: enough for a tick-exact CPU time on small scenes.
fn repetitions(scene: &Scene) -> usize {
    if scene.level.balls.len() < 100 { 40 } else { 1 }
}

/// Timing pass: `reps` times, a fresh world, [`WARMUP_STEPS`] untimed steps, then [`WINDOW`] timed steps with
/// nothing else in between.
fn time_engine(reps: usize, mut fresh: impl FnMut() -> Box<dyn FnMut()>) -> Timing {
    let mut wall = Vec::with_capacity(WINDOW * reps);
    let mut cpu = Some(0.0);
    for _ in 0..reps {
        let mut step = fresh();
        for _ in 0..WARMUP_STEPS {
            step();
        }
        let cpu0 = thread_cpu_seconds();
        for _ in 0..WINDOW {
            let start = Instant::now();
            step();
            wall.push(start.elapsed().as_secs_f64());
        }
        cpu = match (cpu, cpu0, thread_cpu_seconds()) {
            (Some(sum), Some(c0), Some(c1)) => Some(sum + (c1 - c0)),
            _ => None,
        };
    }
    let steps = wall.len().max(1) as f64;
    Timing {
        wall,
        cpu: cpu.map(|c| c / steps),
    }
}

fn time_collidoscope(scene: &Scene) -> (Timing, Totals) {
    let dt = scene.dt();
    let totals = std::rc::Rc::new(std::cell::RefCell::new(Totals::default()));
    let timing = time_engine(repetitions(scene), || {
        let mut world = collidoscope_world(&scene.level);
        let totals = std::rc::Rc::clone(&totals);
        let mut taken = 0usize;
        Box::new(move || {
            let report = world.step(dt);
            taken += 1;
            if taken > WARMUP_STEPS {
                let mut totals = totals.borrow_mut();
                let c = &report.counters;
                let t = &mut totals.counters;
                t.pairs_tested += c.pairs_tested;
                t.sweeps += c.sweeps;
                t.events += c.events;
                t.stale_events += c.stale_events;
                t.resting_contacts += c.resting_contacts;
                t.elapsed += c.elapsed;
                totals.pushed_out += report.pushed_out.len();
                totals.budget_exhausted += usize::from(report.budget_exhausted);
                totals.steps += 1;
            }
        })
    });
    let totals = std::mem::take(&mut *totals.borrow_mut());
    (timing, totals)
}

fn time_rapier(scene: &Scene) -> Timing {
    time_engine(repetitions(scene), || {
        let mut world = Rapier::from_level(&scene.level);
        Box::new(move || world.step())
    })
}

/// Checking pass: [`REPORT_STEPS`] steps of a fresh world, every ball's move checked.
fn check_collidoscope(scene: &Scene, checker: &Checker) -> Findings {
    let dt = scene.dt();
    let mut world = collidoscope_world(&scene.level);
    let radii: Vec<f32> = world.balls().iter().map(|b| b.radius).collect();
    let mut prev: Vec<Vec3> = world.balls().iter().map(|b| b.center).collect();
    let mut next = Vec::with_capacity(prev.len());
    let mut found = Findings::default();
    let e0 = world.kinetic_energy();
    for _ in 0..REPORT_STEPS {
        world.step(dt);
        next.clear();
        next.extend(world.balls().iter().map(|b| b.center));
        checker.check(&prev, &next, &radii, &mut found);
        std::mem::swap(&mut prev, &mut next);
    }
    found.energy_kept = world.kinetic_energy() / e0;
    found
}

fn check_rapier(scene: &Scene, checker: &Checker) -> Findings {
    let mut world = Rapier::from_level(&scene.level);
    let radii: Vec<f32> = scene.level.balls.iter().map(|b| b.radius).collect();
    let mut prev = Vec::new();
    world.centers(&mut prev);
    let mut next = Vec::with_capacity(prev.len());
    let mut found = Findings::default();
    let e0 = world.kinetic_energy();
    for _ in 0..REPORT_STEPS {
        world.step();
        world.centers(&mut next);
        checker.check(&prev, &next, &radii, &mut found);
        std::mem::swap(&mut prev, &mut next);
    }
    found.energy_kept = world.kinetic_energy() / e0;
    found
}

/// The checker must flag a path straight through the first wall and one that ends below the floor, and pass a
/// ball standing still at its start.
fn self_test(checker: &Checker, scene: &Scene) {
    let Some(ball) = scene.level.balls.first() else {
        return;
    };
    let r = [ball.radius];
    let mut found = Findings::default();
    checker.check(&[ball.center], &[ball.center], &r, &mut found);
    assert_eq!(
        found.count(),
        0,
        "{}: a ball at rest is not tunnelled",
        scene.name
    );
    let below = ball.center - Vec3::Y * (ball.center.y + 2.0 * ball.radius);
    checker.check(&[ball.center], &[below], &r, &mut found);
    assert_eq!(found.count(), 1, "{}: through the floor", scene.name);
    if let Some(w) = scene.level.walls.first() {
        let mid = (w.a + w.b) * 0.5;
        let across = (w.b - w.a).perp().normalize() * 0.3;
        let (p0, p1) = (mid - across, mid + across);
        let mut found = Findings::default();
        checker.check(
            &[Vec3::new(p0.x, ball.radius, p0.y)],
            &[Vec3::new(p1.x, ball.radius, p1.y)],
            &r,
            &mut found,
        );
        assert_eq!(found.count(), 1, "{}: through a wall", scene.name);
    }
}

fn tunnelling_report() {
    eprintln!(
        "\n# sim_step report: tunnelling over {REPORT_STEPS} steps; times over steps {}..={REPORT_STEPS} \
         (a separate pass, nothing else between steps)",
        WARMUP_STEPS + 1
    );
    // Are the generated walls those of levels/maze_large.ron?
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/levels/maze_large.ron");
    match Level::load(std::path::Path::new(path)) {
        Ok(file) => {
            let generated = maze(&maze_params(1_000));
            let same = file.walls.len() == generated.walls.len()
                && file
                    .walls
                    .iter()
                    .zip(&generated.walls)
                    .all(|(a, b)| a.a == b.a && a.b == b.b && a.radius == b.radius);
            eprintln!(
                "levels/maze_large.ron: {} walls, identical to generate::maze(seed 1): {same}",
                file.walls.len()
            );
        }
        Err(e) => eprintln!("levels/maze_large.ron does not load: {e}"),
    }
    let mut scenes = vec![magic_room()];
    scenes.extend(BOX_BALLS.iter().map(|&n| box_scene(n)));
    scenes.extend(MAZE_BALLS.iter().map(|&n| maze_scene(n)));
    scenes.extend(SPREAD_BALLS.iter().map(|&n| spread_scene(n)));
    let mut rows = Vec::new();
    let mut counter_rows = Vec::new();
    // (family, balls, [collidoscope CPU, rapier3d CPU, collidoscope median, rapier3d median]).
    let mut scaling: Vec<(String, usize, [f64; 4])> = Vec::new();
    for scene in &scenes {
        let checker = Checker::new(&scene.level);
        self_test(&checker, scene);
        let (ct, totals) = time_collidoscope(scene);
        let rt = time_rapier(scene);
        eprintln!(
            "{}: timed; collidoscope {:.3} ms/step, rapier3d {:.3} ms/step (CPU)",
            scene.name,
            ct.cpu_or_mean() * 1e3,
            rt.cpu_or_mean() * 1e3
        );
        let cf = check_collidoscope(scene, &checker);
        let rf = check_rapier(scene, &checker);
        let n = scene.level.balls.len();
        if n == 1_000 || n == 16_000 {
            let family = scene.name.split('_').next().unwrap_or_default().to_string();
            let times = [ct.cpu_or_mean(), rt.cpu_or_mean(), ct.median(), rt.median()];
            scaling.push((family, n, times));
        }
        let ms = |t: Option<f64>| t.map_or_else(|| "-".to_string(), |t| format!("{:.3}", t * 1e3));
        rows.push(format!(
            "| {} | {} | {} / {:.3} / {:.3} | {} / {:.3} / {:.3} | {:.2} | {:.2} | {} | {} | {:.3} / {:.3} | {:.3} / {:.3} | {:.3} / {:.3} |",
            scene.name,
            scene.level.balls.len(),
            ms(ct.cpu),
            ct.mean() * 1e3,
            ct.median() * 1e3,
            ms(rt.cpu),
            rt.mean() * 1e3,
            rt.median() * 1e3,
            rt.cpu_or_mean() / ct.cpu_or_mean(),
            rt.median() / ct.median(),
            cf.count(),
            rf.count(),
            cf.plane_penetration,
            rf.plane_penetration,
            cf.wall_penetration,
            rf.wall_penetration,
            cf.energy_kept,
            rf.energy_kept,
        ));
        let s = totals.steps.max(1) as f64;
        let c = &totals.counters;
        counter_rows.push(format!(
            "| {} | {:.0} | {:.0} | {:.1} | {:.1} | {:.1} | {:.2} | {} | {:.3} |",
            scene.name,
            c.pairs_tested as f64 / s,
            c.sweeps as f64 / s,
            c.events as f64 / s,
            c.stale_events as f64 / s,
            c.resting_contacts as f64 / s,
            totals.pushed_out as f64 / s,
            totals.budget_exhausted,
            c.elapsed.as_secs_f64() * 1e3 / s,
        ));
    }
    let mut out = String::new();
    out.push_str(
        "\nTimes are ms per step: CPU time of the stepping thread / wall mean / wall median. Ratios are \
         rapier3d / collidoscope (above 1: collidoscope is faster). Penetrations are (c / r) = \
         (collidoscope / rapier3d), as fractions of the ball's radius.\n\n\
         | scene | balls | collidoscope ms/step (CPU / mean / median) | rapier3d ms/step (CPU / mean / median) \
         | ratio (CPU) | ratio (median) | tunnelled: collidoscope | tunnelled: rapier3d \
         | worst plane penetration / r (c / r) | worst wall penetration / r (c / r) \
         | kinetic energy end / start (c / r) |\n",
    );
    out.push_str("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for r in &rows {
        out.push_str(r);
        out.push('\n');
    }
    for (family, _, first) in scaling.iter().filter(|s| s.1 == 1_000) {
        let Some((_, _, last)) = scaling.iter().find(|s| &s.0 == family && s.1 == 16_000) else {
            continue;
        };
        let k = 16f64.ln();
        let e = |i: usize| (last[i] / first[i]).ln() / k;
        out.push_str(&format!(
            "\nScaling exponent of the {family} scenes, 1k -> 16k balls, ln(t16k / t1k) / ln 16: collidoscope \
             {:.3} (CPU), {:.3} (wall median); rapier3d {:.3} (CPU), {:.3} (wall median)\n",
            e(0),
            e(2),
            e(1),
            e(3),
        ));
    }
    out.push_str(
        "\ncollidoscope counters per step (timing pass, after warm-up):\n\n\
         | scene | pairs_tested | sweeps | events | stale_events | resting_contacts | pushed_out \
         | budget exhausted (steps) | counters.elapsed ms |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in &counter_rows {
        out.push_str(r);
        out.push('\n');
    }
    println!("{out}");
}

// ---------------------------------------------------------------------------------------------------------
// Scale: 100,000 balls in the 10,000-wall maze.
// ---------------------------------------------------------------------------------------------------------

/// Balls of the scale measurement (issue 18), in the maze of [`MAZE_WALLS`] walls.
const SCALE_BALLS: usize = 100_000;
/// Steps timed by the scale measurement, after [`WARMUP_STEPS`] untimed ones.
const SCALE_STEPS: usize = 60;

/// This process's resident and peak resident memory, bytes (`/proc/self/status`, Linux), or `None`.
fn memory() -> Option<(u64, u64)> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// `generate::maze` with [`SCALE_BALLS`] balls (up to four per maze cell on the floor, the rest in layers
/// above that fall onto them) among its 10,000 walls: the world's memory (resident memory grown while
/// building it and while stepping) and its step time, collidoscope alone (rapier3d takes minutes here).
fn scale_report() {
    let mb = |b: u64| b as f64 / (1024.0 * 1024.0);
    let before = memory();
    let level = maze(&maze_params(SCALE_BALLS));
    let with_level = memory();
    let started = Instant::now();
    let mut world = collidoscope_world(&level);
    let build = started.elapsed();
    let built = memory();
    let dt = level.simulation.dt;
    for _ in 0..WARMUP_STEPS {
        world.step(dt);
    }
    let mut wall = Vec::with_capacity(SCALE_STEPS);
    let mut totals = Totals::default();
    let cpu0 = thread_cpu_seconds();
    for _ in 0..SCALE_STEPS {
        let start = Instant::now();
        let report = black_box(world.step(dt));
        wall.push(start.elapsed().as_secs_f64());
        totals.counters.events += report.counters.events;
        totals.counters.resting_contacts += report.counters.resting_contacts;
        totals.pushed_out += report.pushed_out.len();
        totals.budget_exhausted += usize::from(report.budget_exhausted);
    }
    let cpu = thread_cpu_seconds()
        .zip(cpu0)
        .map(|(c1, c0)| (c1 - c0) / SCALE_STEPS as f64);
    let stepped = memory();
    let timing = Timing { wall, cpu };
    let escaped = world
        .balls()
        .iter()
        .filter(|b| !b.center.is_finite() || b.center.y < -b.radius)
        .count();
    let steps = SCALE_STEPS as f64;
    let mut out = format!(
        "\n# Scale: {} balls, {} walls (generate::maze, seed 1), dt {dt:.4} s, steps {}..={} timed\n\n",
        level.balls.len(),
        level.walls.len(),
        WARMUP_STEPS + 1,
        WARMUP_STEPS + SCALE_STEPS,
    );
    out.push_str(&format!(
        "- step: {} ms CPU / {:.2} ms wall mean / {:.2} ms wall median; {:.0} events, {:.0} resting contacts, \
         {:.1} push-outs per step; budget exhausted in {} steps; balls below the floor at the end: {escaped}\n",
        timing
            .cpu
            .map_or_else(|| "-".to_string(), |c| format!("{:.2}", c * 1e3)),
        timing.mean() * 1e3,
        timing.median() * 1e3,
        totals.counters.events as f64 / steps,
        totals.counters.resting_contacts as f64 / steps,
        totals.pushed_out as f64 / steps,
        totals.budget_exhausted,
    ));
    out.push_str(&format!(
        "- World::from_level: {:.3} s\n",
        build.as_secs_f64()
    ));
    if let (Some(b), Some(l), Some(w), Some(s)) = (before, with_level, built, stepped) {
        out.push_str(&format!(
            "- resident memory: the level {:.1} MB; the world {:.1} MB when built, {:.1} MB after stepping \
             (its step buffers grown); peak of the process {:.1} MB\n",
            mb(l.0.saturating_sub(b.0)),
            mb(w.0.saturating_sub(l.0)),
            mb(s.0.saturating_sub(l.0)),
            mb(s.1),
        ));
    }
    println!("{out}");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = std::env::var("SIM_STEP_REPORT").unwrap_or_default();
    if mode == "scale" {
        scale_report();
        return;
    }
    let in_cargo_bench = args.iter().any(|a| a == "--bench");
    let report_named = args.iter().any(|a| a == "tunnelling_report");
    let only_report = report_named || mode == "only";
    if !only_report {
        let mut c = Criterion::default().configure_from_args();
        benches(&mut c);
        c.final_summary();
    }
    // A name filter (any argument that is not a flag) selects benches: the report runs only when named.
    let filtered = args.iter().any(|a| !a.starts_with('-'));
    let run_report =
        mode != "0" && (only_report || (in_cargo_bench && !filtered && mode != "skip"));
    if run_report {
        tunnelling_report();
        // In a fresh process, so its resident memory counts this world alone (freed pages of the scenes above
        // would otherwise be reused unseen).
        let child = std::env::current_exe().and_then(|exe| {
            std::process::Command::new(exe)
                .env("SIM_STEP_REPORT", "scale")
                .status()
        });
        if !child.is_ok_and(|s| s.success()) {
            scale_report();
        }
    }
}
