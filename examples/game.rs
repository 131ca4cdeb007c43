//! A small game loop to copy: a level queried as a whole (`Scene`), a character walking in 3D with the
//! character controller (the level's gravity, jumps, steps and slopes, its own velocity kept), a camera ray,
//! the level's balls simulated, pickups and trigger volumes met by the character's body, everything recorded
//! by the flight recorder, the level hot-reloaded when it is saved, and the live link to the editor on
//! request.
//!
//! ```sh
//! cargo run --example game                                   # the built-in courtyard, in real time
//! cargo run --example game -- --level levels/magic_room.ron  # a level file, reloaded when saved
//! cargo run --example game -- --connect                      # stream to the editor (File → Listen for a game)
//! cargo run --example game -- --headless --frames 600 --record game.crec   # as fast as possible (CI)
//! collidoscope replay game.crec --level levels/courtyard.ron # did a level edit change what the game saw?
//! ```
//!
//! There is no window: the controls are scripted (`input`), the same in real time and headless, so a run is
//! the same every time (CI replays its recording). A game with a window reads its keys there instead: walk
//! with WASD, jump with Space. `--connect` may be given before the editor listens: the recorder retries every
//! second and the game plays on meanwhile.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use collidoscope::character::{Body, BodyInput, CharacterController, CharacterMove};
use collidoscope::glam::{Vec2, Vec3};
use collidoscope::level::{Level, LevelWatcher, ObjectId};
use collidoscope::query::closest::point_capsule;
use collidoscope::record::{DEFAULT_PORT, Recorder, RecorderConfig};
use collidoscope::scene::Scene;
use collidoscope::shape::{Capsule, Ray, Sphere};
use collidoscope::sim::World;

/// The level used without `--level` (it has a ground to walk on; a level without one is played too: the
/// character falls, and is put back at its start once it is [`FALL_LIMIT`] below it).
const DEFAULT_LEVEL: &str = include_str!("../levels/courtyard.ron");

/// Walking speed, metres per second.
const SPEED: f32 = 6.0;
/// A character this far below its start has fallen out of the level, metres.
const FALL_LIMIT: f32 = 50.0;
/// How close to the body a pickup is collected, metres.
const REACH: f32 = 0.5;

/// Command-line options.
#[derive(Debug, Default)]
pub struct Options {
    /// `--level PATH`: the level to play (watched for changes).
    pub level: Option<PathBuf>,
    /// `--headless`: no real-time pacing, no status lines.
    pub headless: bool,
    /// `--frames N`: stop after N frames (default: 600 headless, forever otherwise).
    pub frames: Option<u64>,
    /// `--record FILE`: save the recording there at the end.
    pub record: Option<PathBuf>,
    /// `--connect [ADDR]`: stream frames to the editor (default 127.0.0.1:47474).
    pub connect: Option<SocketAddr>,
}

/// A pickup's typed fields (the level's `pickup` entity type), read with `fields_as`.
#[derive(Debug, serde::Deserialize)]
struct Pickup {
    kind: String,
    amount: i64,
}

/// What a run did.
#[derive(Debug)]
pub struct Summary {
    /// Frames played.
    pub frames: u64,
    /// Queries asked.
    pub queries: u64,
    /// Simulation steps.
    pub steps: u64,
    /// Level reloads.
    pub reloads: u64,
    /// Where the character ended, top-down `(x, z)`.
    pub position: Vec2,
    /// Where its feet ended.
    pub feet: Vec3,
    /// Jumps taken.
    pub jumps: u64,
    /// Frames that ended on the ground.
    pub grounded_frames: u64,
    /// Times the character fell out of the level and was put back at its start.
    pub fell: u64,
    /// Encoded bytes the recorder held at the end.
    pub recorded_bytes: usize,
    /// Pickups collected: (entity id, kind, amount).
    pub picked: Vec<(u32, String, i64)>,
    /// Triggers the character entered, by name (or id), in order.
    pub entered: Vec<String>,
}

/// Parse `args` (without the program name).
///
/// # Errors
/// A message naming the bad argument.
pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut it = args.iter().peekable();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--level" => o.level = Some(value("--level")?.into()),
            "--headless" => o.headless = true,
            "--frames" => {
                let v = value("--frames")?;
                o.frames = Some(
                    v.parse()
                        .map_err(|_| format!("--frames: not a number: {v}"))?,
                );
            }
            "--record" => o.record = Some(value("--record")?.into()),
            "--connect" => {
                let addr = match it.peek() {
                    Some(v) if !v.starts_with("--") => {
                        let v = it.next().cloned().unwrap_or_default();
                        v.parse()
                            .map_err(|_| format!("--connect: not an address: {v}"))?
                    }
                    _ => SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)),
                };
                o.connect = Some(addr);
            }
            "--help" | "-h" => {
                return Err(
                    "usage: game [--level PATH] [--headless] [--frames N] [--record FILE] \
                            [--connect [ADDR]]"
                        .into(),
                );
            }
            other => return Err(format!("unknown argument: {other} (see --help)")),
        }
    }
    Ok(o)
}

/// What the player asks for in one frame.
#[derive(Clone, Copy, Debug)]
struct Input {
    /// Walking direction, top-down `(x, z)`, unit (or zero).
    walk: Vec2,
    /// The jump button went down this frame.
    jump: bool,
}

/// The scripted input of frame `f` (a real game reads its controls here: WASD and Space): straight runs of
/// 3 s, each turned about 109° from the last, so every run explores the level and meets its walls, with a jump
/// 1.25 s into each run and another 2.5 s into every other one.
fn input(f: u64) -> Input {
    let a = (f / 180) as f32 * 1.9;
    let into_run = f % 180;
    Input {
        walk: Vec2::new(a.cos(), a.sin()),
        jump: into_run == 75 || (into_run == 150 && (f / 180) % 2 == 1),
    }
}

/// The character: the level's controller and the runtime's [`Body`] (feet, velocity, grounded, crouching),
/// stepped by [`Body::step`], the one integrator the editor's Walk mode and the Bevy plugin call too (the
/// controller keeps no state; the game keeps the body).
#[derive(Clone, Copy, Debug)]
struct Character {
    controller: CharacterController,
    body: Body,
}

impl Character {
    /// Standing at `feet` (put a skin above them, so the first move starts clear of the floor).
    fn new(controller: CharacterController, feet: Vec3) -> Self {
        Self {
            controller,
            body: Body::new(feet + Vec3::Y * controller.skin),
        }
    }

    /// Where the feet are.
    fn feet(&self) -> Vec3 {
        self.body.feet
    }

    /// One frame: the input as the body's (walk at [`SPEED`], jump), stepped by [`Body::step`] with the level's
    /// gravity (recorded, through [`Recorder::step_body`]). Returns the move and whether it jumped.
    fn update(
        &mut self,
        rec: &mut Recorder,
        scene: &Scene,
        input: Input,
        gravity: Vec3,
        dt: f32,
    ) -> (CharacterMove, bool) {
        let jumped = input.jump && self.body.grounded;
        let body_input = BodyInput {
            wish: input.walk * SPEED,
            jump: input.jump,
            crouch: false,
        };
        let m = rec.step_body(
            scene,
            &mut self.body,
            &self.controller,
            &body_input,
            gravity,
            dt,
        );
        (m, jumped)
    }

    fn capsule(&self) -> Capsule {
        self.controller.capsule(self.body.feet)
    }
}

/// Play the game.
///
/// # Errors
/// A message when the level cannot be loaded or the recording cannot be saved.
pub fn run(o: &Options) -> Result<Summary, String> {
    let mut watcher = match &o.level {
        Some(p) => Some(LevelWatcher::new(p).map_err(|e| e.to_string())?),
        None => None,
    };
    let mut level = match &watcher {
        Some(w) => w.level().clone(),
        None => Level::from_ron_str(DEFAULT_LEVEL).map_err(|e| e.to_string())?,
    };
    let mut scene = Scene::from_level(&level).map_err(|e| e.to_string())?;
    let mut world = World::from_level(&level).map_err(|e| e.to_string())?;
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    if let Some(addr) = o.connect {
        // Never fatal: with no editor listening yet the recorder retries every second (see its messages).
        rec.connect(addr).map_err(|e| e.to_string())?;
    }
    let walker = level.walker.clone().unwrap_or_default();
    // The level's game data: start at its spawn entity, if it has one, else at the walker's start.
    let start = level
        .entities_of("spawn")
        .next()
        .map_or(Vec3::new(walker.position.x, 0.0, walker.position.y), |s| {
            s.position
        });
    let mut player = Character::new(level.character.unwrap_or_default(), start);
    let mut inside: Vec<ObjectId> = Vec::new();
    let mut blocked = false;
    let dt = level.simulation.dt;
    let frames = o.frames.unwrap_or(if o.headless { 600 } else { u64::MAX });
    let mut summary = Summary {
        frames: 0,
        queries: 0,
        steps: 0,
        reloads: 0,
        position: Vec2::new(player.feet().x, player.feet().z),
        feet: player.feet(),
        jumps: 0,
        grounded_frames: 0,
        fell: 0,
        recorded_bytes: 0,
        picked: Vec::new(),
        entered: Vec::new(),
    };
    let started = Instant::now();
    for f in 0..frames {
        rec.begin_frame(f64::from(dt) * f as f64);
        for m in rec.live_messages() {
            eprintln!("live link: {m}");
        }
        // Hot reload: a saved level replaces the scene, the world and the character's size and limits; the
        // character stays where it is.
        if let Some(w) = &mut watcher {
            match w.poll() {
                Some(Ok(new)) => match (Scene::from_level(&new), World::from_level(&new)) {
                    (Ok(s), Ok(wd)) => {
                        (level, scene, world) = (new, s, wd);
                        player.controller = level.character.unwrap_or_default();
                        summary.reloads += 1;
                        rec.mark(&format!("level reloaded: {}", level.name));
                    }
                    (Err(e), _) | (_, Err(e)) => eprintln!("reloaded level refused: {e}"),
                },
                Some(Err(e)) => eprintln!("level not reloaded: {e}"),
                None => {}
            }
        }
        // The character: walk at 6 m/s, jump now and then, fall under the level's gravity.
        let controls = input(f);
        let (m, jumped) = player.update(&mut rec, &scene, controls, level.simulation.gravity, dt);
        summary.jumps += u64::from(jumped);
        summary.grounded_frames += u64::from(m.grounded);
        // Marked when it starts to be blocked (not every frame it stays against a wall), with why.
        let now_blocked = m.limit.is_some();
        if let Some(limit) = &m.limit
            && !blocked
        {
            let c = &player.controller;
            let why = limit.describe(c.max_step, c.max_slope_deg, |id| id.to_string());
            rec.mark(&format!("character blocked: {why}"));
        }
        blocked = now_blocked;
        if player.feet().y < start.y - FALL_LIMIT {
            rec.mark("character fell out of the level");
            player = Character::new(player.controller, start);
            summary.fell += 1;
        }
        // The camera: what the eye looks at, and whether the way ahead is clear for a ball-sized probe.
        let facing = controls.walk.normalize_or(Vec2::X);
        let eye_at = player.feet() + Vec3::Y * walker.eye_height.min(player.controller.height);
        let radius = player.controller.radius;
        let look = Vec3::new(facing.x, -0.1, facing.y);
        let _ = rec.cast_ray(&scene, &Ray::new(eye_at, look), 50.0);
        let _ = rec.sweep_sphere(&scene, &Sphere::new(eye_at, radius), look * 2.0);
        // What is around the character's feet.
        let _ = rec.overlap_sphere(
            &scene,
            &Sphere::new(player.feet() + Vec3::Y * radius, radius * 1.5),
        );
        summary.queries += 4;
        // Pickups within reach of the body are collected (their typed fields say what they give).
        let body = player.capsule();
        for p in level.entities_of("pickup") {
            let near = point_capsule(p.position, &body).distance(p.position) <= REACH;
            if near && !summary.picked.iter().any(|(id, ..)| *id == p.id.0) {
                match p.fields_as::<Pickup>(&level) {
                    Ok(got) => {
                        rec.mark(&format!("picked up {} ({} {})", p.id, got.amount, got.kind));
                        summary.picked.push((p.id.0, got.kind, got.amount));
                    }
                    Err(e) => eprintln!("{e}"),
                }
            }
        }
        // Triggers the character's body is in: report the ones it just entered.
        // The whole capsule, tested exactly (a sphere at the feet would miss a volume at head height).
        let now = scene.triggers_at_capsule(&body);
        for id in now.iter().filter(|id| !inside.contains(id)) {
            let name = level
                .triggers
                .iter()
                .find(|t| t.id == *id)
                .and_then(|t| t.name.clone())
                .unwrap_or_else(|| id.to_string());
            rec.mark(&format!("entered trigger {name}"));
            summary.entered.push(name);
        }
        inside = now;
        // The level's balls.
        if !world.balls().is_empty() {
            let report = world.step(dt);
            rec.record_step(&world, &report);
            summary.steps += 1;
        }
        summary.frames += 1;
        if !o.headless {
            if f % 60 == 0 {
                let p = player.feet();
                println!(
                    "frame {f}: feet at ({:.2}, {:.2}, {:.2}){}, {} KB recorded{}",
                    p.x,
                    p.y,
                    p.z,
                    if player.body.grounded {
                        ""
                    } else {
                        " in the air"
                    },
                    rec.bytes() / 1024,
                    rec.live_stats()
                        .map(|s| format!(", live: {} sent, {} dropped", s.frames, s.dropped))
                        .unwrap_or_default()
                );
            }
            let due = started + Duration::from_secs_f64(f64::from(dt) * (f + 1) as f64);
            std::thread::sleep(due.saturating_duration_since(Instant::now()));
        }
    }
    rec.flush();
    for m in rec.live_messages() {
        eprintln!("live link: {m}");
    }
    summary.feet = player.feet();
    summary.position = Vec2::new(player.feet().x, player.feet().z);
    summary.recorded_bytes = rec.bytes();
    if let Some(path) = &o.record {
        rec.save(path).map_err(|e| e.to_string())?;
    }
    Ok(summary)
}

#[allow(dead_code)] // The tests include this file as a module and call `run` themselves.
fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse(&args).and_then(|o| run(&o)) {
        Ok(s) => {
            println!(
                "{} frames, {} queries, {} steps, {} reloads; character's feet at ({:.2}, {:.2}, {:.2}) \
                 after {} jumps; {} KB recorded",
                s.frames,
                s.queries,
                s.steps,
                s.reloads,
                s.feet.x,
                s.feet.y,
                s.feet.z,
                s.jumps,
                s.recorded_bytes / 1024
            );
            if s.fell > 0 {
                println!(
                    "the character fell out of the level {} times (it has no ground there?)",
                    s.fell
                );
            }
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("game: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
