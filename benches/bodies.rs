//! Many character bodies (issue 35): `character::step_bodies` stepping 250, 1,000 and 2,000 bodies one 60 Hz
//! frame at a time on the 100,000-triangle terrain of `benches/character.rs` (`benches/terrain.rs`), each body
//! walking its own seeded route (a new heading and speed, 1.5 to 6 m/s, every 0.5 to 1.5 s, a jump now and
//! then), side by side with the same bodies stepped one after another by `Body::step` on one thread.
//!
//! Run it with the `parallel` feature (`cargo bench --bench bodies --features parallel`) for `step_bodies` on
//! every core; without it both rows are one thread. One iteration is one frame of every body (the bodies go on
//! walking from frame to frame, so every sample is a fresh stretch of their routes); the report after the
//! groups gives the frame time and the time per move at each count.
//!
//! Two modes skip criterion: `-- --report [COUNT]` prints the report alone (at one count when given), and
//! `-- --hash` prints a hash of every step's answer (workings included) and every body's state over 300 bodies
//! stepped 300 frames by `Body::step`, then 2,000 bodies stepped 45 frames by `step_bodies`: 180,000 steps
//! whose bits a change meant to keep the answers must leave alone.

#[path = "common/terrain.rs"]
mod terrain;

use std::hash::{DefaultHasher, Hasher};
use std::hint::black_box;
use std::time::Instant;

use collidoscope::character::{Body, BodyInput, CharacterController, step_bodies};
use collidoscope::generate::SplitMix64;
use collidoscope::glam::{Vec2, Vec3};
use collidoscope::scene::Scene;
use criterion::Criterion;

/// The frame time, seconds (60 Hz).
const DT: f32 = 1.0 / 60.0;
/// Gravity.
const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);
/// The body counts timed.
const COUNTS: [usize; 3] = [250, 1_000, 2_000];

/// Bodies walking their routes: each body's input changes on its own seeded schedule, and turns back toward
/// the centre when it strays past 80 m.
struct Crowd {
    bodies: Vec<Body>,
    inputs: Vec<BodyInput>,
    /// Frames until each body's next change of heading.
    until: Vec<u32>,
    rng: SplitMix64,
}

impl Crowd {
    fn new(scene: &Scene, c: &CharacterController, n: usize) -> Self {
        let feet = terrain::starts(scene, c, Vec2::splat(-60.0), Vec2::splat(60.0), n, 101);
        let mut crowd = Self {
            bodies: feet.into_iter().map(Body::new).collect(),
            inputs: vec![BodyInput::default(); n],
            until: vec![0; n],
            rng: SplitMix64::new(202),
        };
        crowd.next_inputs();
        crowd
    }

    /// One frame: the next inputs, then every body stepped, by `step_bodies` or one after another on this
    /// thread.
    fn frame(&mut self, scene: &Scene, ctl: &CharacterController, all_cores: bool) {
        self.next_inputs();
        if all_cores {
            step_bodies(scene, &[*ctl], &self.inputs, &mut self.bodies, GRAVITY, DT)
                .expect("one controller, one input per body");
        } else {
            for (body, input) in self.bodies.iter_mut().zip(&self.inputs) {
                black_box(body.step(ctl, scene, input, GRAVITY, DT));
            }
        }
        black_box(&self.bodies);
    }

    /// This frame's inputs.
    fn next_inputs(&mut self) {
        for ((input, until), body) in self
            .inputs
            .iter_mut()
            .zip(&mut self.until)
            .zip(&self.bodies)
        {
            input.jump = false;
            if *until == 0 {
                let heading = self.rng.range(0.0, std::f32::consts::TAU);
                let speed = self.rng.range(1.5, 6.0);
                input.wish = Vec2::new(heading.cos(), heading.sin()) * speed;
                input.jump = self.rng.range(0.0, 1.0) < 0.1;
                *until = self.rng.range(30.0, 90.0) as u32;
            }
            *until -= 1;
            let at = Vec2::new(body.feet.x, body.feet.z);
            if at.length() > 80.0 && input.wish.dot(at) > 0.0 {
                input.wish = -input.wish;
            }
        }
    }
}

fn bench(c: &mut Criterion, scene: &Scene, ctl: &CharacterController) {
    for n in COUNTS {
        let mut group = c.benchmark_group(format!("bodies_{n}"));
        group.sample_size(20);
        for (name, all_cores) in [("step_bodies", true), ("one_thread", false)] {
            let mut crowd = Crowd::new(scene, ctl, n);
            group.bench_function(name, |b| b.iter(|| crowd.frame(scene, ctl, all_cores)));
        }
        group.finish();
    }
}

/// The report: frame times and µs per move at each count (or at `only`), timed over 120 frames after 60 to
/// settle.
fn report(scene: &Scene, ctl: &CharacterController, only: Option<usize>) {
    println!(
        "\nbodies on the terrain (60 Hz frames; {} threads):",
        rayon_threads()
    );
    println!(
        "| bodies | step_bodies frame | µs per move | one thread frame | µs per move | speed-up |"
    );
    println!("|---|---|---|---|---|---|");
    for n in only.map_or(COUNTS.to_vec(), |n| vec![n]) {
        let frame = |parallel: bool| {
            let mut crowd = Crowd::new(scene, ctl, n);
            for _ in 0..60 {
                crowd.frame(scene, ctl, parallel);
            }
            let t = Instant::now();
            for _ in 0..120 {
                crowd.frame(scene, ctl, parallel);
            }
            t.elapsed().as_secs_f64() / 120.0
        };
        let (par, one) = (frame(true), frame(false));
        println!(
            "| {n} | {:.2} ms | {:.2} | {:.2} ms | {:.2} | {:.2}x |",
            par * 1e3,
            par * 1e6 / n as f64,
            one * 1e3,
            one * 1e6 / n as f64,
            one / par
        );
    }
}

/// The hash of the answers and states of the `--hash` mode (see the module's doc): the `Debug` text of every
/// answer and body (floats printed to the last bit).
fn hash_steps(scene: &Scene, ctl: &CharacterController) -> (u64, u64) {
    let mut h = DefaultHasher::new();
    let mut crowd = Crowd::new(scene, ctl, 300);
    for _ in 0..300 {
        crowd.next_inputs();
        for (body, input) in crowd.bodies.iter_mut().zip(&crowd.inputs) {
            let answer = body.step(ctl, scene, input, GRAVITY, DT);
            h.write(format!("{answer:?}{body:?}").as_bytes());
        }
    }
    let traced = h.finish();
    let mut h = DefaultHasher::new();
    let mut crowd = Crowd::new(scene, ctl, 2_000);
    for _ in 0..45 {
        crowd.frame(scene, ctl, true);
        for body in &crowd.bodies {
            h.write(format!("{body:?}").as_bytes());
        }
    }
    (traced, h.finish())
}

/// Threads `step_bodies` uses.
fn rayon_threads() -> usize {
    if cfg!(feature = "parallel") {
        std::thread::available_parallelism().map_or(1, usize::from)
    } else {
        1
    }
}

fn main() {
    let (objects, _, note) = terrain::terrain_objects();
    let scene = Scene::from_objects(objects);
    let ctl = CharacterController::default();
    println!("{note}");
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--test");
    if args.iter().any(|a| a == "--hash") {
        let (traced, crowd) = hash_steps(&scene, &ctl);
        println!("hash: Body::step {traced:016x}, step_bodies {crowd:016x}");
        return;
    }
    if let Some(k) = args.iter().position(|a| a == "--report") {
        let only = args.get(k + 1).and_then(|a| a.parse().ok());
        report(&scene, &ctl, only);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    if !quick {
        bench(&mut c, &scene, &ctl);
        c.final_summary();
        report(&scene, &ctl, None);
    } else {
        // `cargo test --benches`: one frame of the smallest crowd, no timing.
        let mut crowd = Crowd::new(&scene, &ctl, 16);
        crowd.next_inputs();
        step_bodies(
            &scene,
            &[ctl],
            &crowd.inputs,
            &mut crowd.bodies,
            GRAVITY,
            DT,
        )
        .expect("one controller, one input per body");
    }
}
