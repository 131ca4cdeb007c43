//! A small game loop to copy: a level queried as a whole (`Scene`), a character that slides along walls, a
//! camera ray, the level's balls simulated, everything recorded by the flight recorder, the level hot-reloaded
//! when it is saved, and the live link to the editor on request.
//!
//! ```sh
//! cargo run --example game                                   # the built-in house, in real time
//! cargo run --example game -- --level levels/magic_room.ron  # a level file, reloaded when saved
//! cargo run --example game -- --connect                      # stream to the editor (File → Listen for a game)
//! cargo run --example game -- --headless --frames 600 --record game.crec   # as fast as possible (CI)
//! collidoscope replay game.crec --level levels/house.ron     # did a level edit change what the game saw?
//! ```

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use collidoscope::glam::{Vec2, Vec3};
use collidoscope::level::{Level, LevelWatcher};
use collidoscope::record::{DEFAULT_PORT, Recorder, RecorderConfig};
use collidoscope::scene::Scene;
use collidoscope::shape::{Ray, Sphere};
use collidoscope::sim::World;

/// The level used without `--level`.
const DEFAULT_LEVEL: &str = include_str!("../levels/house.ron");

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
    /// Where the character ended, top-down.
    pub position: Vec2,
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

/// The scripted input of frame `f` (a real game reads its controls here): straight runs of 3 s, each turned
/// about 109° from the last, so every run explores the level and meets its walls.
fn input(f: u64) -> Vec2 {
    let a = (f / 180) as f32 * 1.9;
    Vec2::new(a.cos(), a.sin())
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
        rec.connect(addr).map_err(|e| e.to_string())?;
    }
    let walker = level.walker.clone().unwrap_or_default();
    let (radius, eye) = (walker.radius, walker.eye_height);
    // The level's game data: start at its spawn entity, if it has one.
    let mut pos = level
        .entities_of("spawn")
        .next()
        .map_or(walker.position, |s| Vec2::new(s.position.x, s.position.z));
    let mut inside: Vec<collidoscope::level::ObjectId> = Vec::new();
    let mut blocked = false;
    let dt = level.simulation.dt;
    let frames = o.frames.unwrap_or(if o.headless { 600 } else { u64::MAX });
    let mut summary = Summary {
        frames: 0,
        queries: 0,
        steps: 0,
        reloads: 0,
        position: pos,
        recorded_bytes: 0,
        picked: Vec::new(),
        entered: Vec::new(),
    };
    let start = Instant::now();
    for f in 0..frames {
        rec.begin_frame(f64::from(dt) * f as f64);
        // Hot reload: a saved level replaces the scene and the world; the character stays where it is.
        if let Some(w) = &mut watcher {
            match w.poll() {
                Some(Ok(new)) => match (Scene::from_level(&new), World::from_level(&new)) {
                    (Ok(s), Ok(wd)) => {
                        (level, scene, world) = (new, s, wd);
                        summary.reloads += 1;
                        rec.mark(&format!("level reloaded: {}", level.name));
                    }
                    (Err(e), _) | (_, Err(e)) => eprintln!("reloaded level refused: {e}"),
                },
                Some(Err(e)) => eprintln!("level not reloaded: {e}"),
                None => {}
            }
        }
        // The character: slide along the walls at 6 m/s.
        let motion = input(f) * 6.0 * dt;
        let before = pos;
        pos = rec.move_and_slide(&scene, pos, radius, motion);
        // Marked when it starts to be blocked (not every frame it stays against a wall).
        let now_blocked = (pos - (before + motion)).length() > 1e-3;
        if now_blocked && !blocked {
            rec.mark("character blocked");
        }
        blocked = now_blocked;
        // The camera: what the eye looks at, and whether the way ahead is clear for a ball-sized probe.
        let facing = input(f).normalize_or(Vec2::X);
        let eye_at = Vec3::new(pos.x, eye, pos.y);
        let look = Vec3::new(facing.x, -0.1, facing.y);
        let _ = rec.cast_ray(&scene, &Ray::new(eye_at, look), 50.0);
        let _ = rec.sweep_sphere(&scene, &Sphere::new(eye_at, radius), look * 2.0);
        let _ = rec.overlap_sphere(
            &scene,
            &Sphere::new(Vec3::new(pos.x, radius, pos.y), radius * 1.5),
        );
        summary.queries += 4;
        // Pickups within reach are collected (their typed fields say what they give).
        for p in level.entities_of("pickup") {
            let near = Vec2::new(p.position.x, p.position.z).distance(pos) <= radius + 0.5;
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
        let body = Sphere::new(Vec3::new(pos.x, radius, pos.y), radius);
        let now = scene.triggers_at(&body);
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
                println!(
                    "frame {f}: at ({:.2}, {:.2}), {} KB recorded{}",
                    pos.x,
                    pos.y,
                    rec.bytes() / 1024,
                    rec.live_stats()
                        .map(|s| format!(", live: {} sent, {} dropped", s.frames, s.dropped))
                        .unwrap_or_default()
                );
            }
            let due = start + Duration::from_secs_f64(f64::from(dt) * (f + 1) as f64);
            std::thread::sleep(due.saturating_duration_since(Instant::now()));
        }
    }
    rec.flush();
    summary.position = pos;
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
                "{} frames, {} queries, {} steps, {} reloads; character at ({:.2}, {:.2}); {} KB recorded",
                s.frames,
                s.queries,
                s.steps,
                s.reloads,
                s.position.x,
                s.position.y,
                s.recorded_bytes / 1024
            );
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("game: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
