//! The courtyard as a Bevy game: the level is an asset, its pickups are components read from their typed
//! fields, the player is a `CharacterBody` walked by the level's character controller, the camera asks the
//! level through `LevelScene`, the exit trigger ends the level, a saved level reloads while it runs, and the
//! flight recorder keeps everything for `collidoscope replay` and the editor.
//!
//! ```sh
//! cargo run -p bevy_collidoscope --example courtyard                       # in real time, no window
//! cargo run -p bevy_collidoscope --example courtyard -- --connect          # live in the editor (File → Listen for a game)
//! cargo run -p bevy_collidoscope --example courtyard -- --headless --frames 900 --record game.crec   # CI
//! collidoscope replay game.crec                                             # did a level edit change what the game saw?
//! ```
//!
//! Without a window the player walks a scripted route (every pickup, past the fountain, through the east door
//! into the exit). The route is the game's input: a real game sets the body's input from its controls instead.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_collidoscope::collidoscope::glam;
use bevy_collidoscope::collidoscope::record::DEFAULT_PORT;
use bevy_collidoscope::collidoscope::shape::{Ray, Sphere};
use bevy_collidoscope::*;

/// The asset folder of the example: the repository's sample levels.
const LEVELS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../levels");

/// Frames per second of the game's fixed step (the courtyard's own `simulation.dt`).
const HZ: f64 = 60.0;

/// Walking speed, metres per second.
const SPEED: f32 = 6.0;

/// Command-line options.
#[derive(Debug)]
pub struct Options {
    /// `--assets DIR`: the asset folder (default: the repository's `levels`).
    pub assets: PathBuf,
    /// `--level PATH`: the level, relative to the asset folder (default `courtyard.ron`).
    pub level: String,
    /// `--headless`: as fast as possible, one fixed step per frame, no status lines.
    pub headless: bool,
    /// `--frames N`: stop after N frames (default: 900 headless, until the exit otherwise).
    pub frames: Option<u64>,
    /// `--record FILE`: save the flight recording there when the game ends.
    pub record: Option<PathBuf>,
    /// `--connect [ADDR]`: stream frames to the editor (default 127.0.0.1:47474).
    pub connect: Option<SocketAddr>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            assets: PathBuf::from(LEVELS),
            level: "courtyard.ron".into(),
            headless: false,
            frames: None,
            record: None,
            connect: None,
        }
    }
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
            "--assets" => o.assets = value("--assets")?.into(),
            "--level" => o.level = value("--level")?,
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
                o.connect = Some(match it.peek() {
                    Some(v) if !v.starts_with("--") => {
                        let v = it.next().cloned().unwrap_or_default();
                        v.parse()
                            .map_err(|_| format!("--connect: not an address: {v}"))?
                    }
                    _ => SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)),
                });
            }
            "--help" | "-h" => {
                return Err(
                    "usage: courtyard [--assets DIR] [--level PATH] [--headless] [--frames N] \
                            [--record FILE] [--connect [ADDR]]"
                        .into(),
                );
            }
            other => return Err(format!("unknown argument: {other} (see --help)")),
        }
    }
    Ok(o)
}

/// A pickup's typed fields (the level's `pickup` entity type): a component, straight from the level.
#[derive(Component, Debug, Clone, serde::Deserialize)]
pub struct Pickup {
    /// `coin` or `health`.
    pub kind: String,
    /// How much it gives.
    pub amount: i64,
}

/// The player: the scripted route's next waypoint.
#[derive(Component, Debug, Default)]
struct Player {
    waypoint: usize,
}

/// The scripted route, top-down `(x, z)`: the west pickup, round the fountain's north side to the north-east
/// pickup, back to the south one, then through the east door into the exit hall.
const ROUTE: [(f32, f32); 7] = [
    (-6.0, 0.0),
    (-6.0, 6.0),
    (6.0, 6.0),
    (0.0, -6.0),
    (8.0, 0.0),
    (12.0, 0.0),
    (15.0, 0.0),
];

/// What a run did.
#[derive(Resource, Debug, Default, Clone)]
pub struct Summary {
    /// Frames played.
    pub frames: u64,
    /// Queries the camera asked through `LevelScene`.
    pub queries: u64,
    /// Level reloads seen.
    pub reloads: u64,
    /// Pickups collected: (entity id, kind, amount).
    pub picked: Vec<(u32, String, i64)>,
    /// Triggers the player entered, by name (or id), in order.
    pub entered: Vec<String>,
    /// The player reached the exit.
    pub finished: bool,
    /// Where the player's feet ended.
    pub position: Vec3,
    /// Frames the player was there (spawned).
    pub frames_walked: u64,
    /// Frames the player stood on something.
    pub grounded_frames: u64,
}

/// The frame limit.
#[derive(Resource)]
struct FrameLimit(u64);

/// The game as a Bevy app (not yet run): the plugin with its recorder, the level, and the game's systems.
pub fn app(o: &Options) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin {
            file_path: o.assets.display().to_string(),
            ..default()
        },
        CollidoscopePlugin::with_recorder(FlightRecorderSettings {
            save_to: o.record.clone(),
            connect: o.connect,
            ..default()
        }),
    ))
    .insert_resource(Time::<Fixed>::from_hz(HZ))
    .insert_resource(Summary::default())
    .insert_resource(FrameLimit(o.frames.unwrap_or(if o.headless {
        900
    } else {
        u64::MAX
    })))
    .register_level_entity::<Pickup>("pickup")
    .add_systems(Startup, {
        let level = o.level.clone();
        move |mut commands: Commands, assets: Res<AssetServer>| {
            commands.spawn(LevelRoot(assets.load(level.clone())));
        }
    })
    .add_systems(
        Update,
        (
            spawn_player,
            steer,
            look,
            collect_pickups,
            triggers,
            count_reloads,
            end_after_frames,
        )
            .chain(),
    );
    if o.headless {
        // Deterministic: one fixed step per frame, whatever the machine's speed.
        app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    }
    app
}

/// Play: update until the exit or the frame limit (paced at 60 frames a second unless headless).
///
/// # Errors
/// A message when the game cannot start (the level does not load: its error says where).
pub fn run(o: &Options) -> Result<Summary, String> {
    let mut app = app(o);
    app.add_systems(Update, report_load_errors);
    app.finish();
    app.cleanup();
    let start = Instant::now();
    let mut frame: u32 = 0;
    while app.should_exit().is_none() {
        app.update();
        frame += 1;
        if let Some(err) = app.world_mut().remove_resource::<LoadFailed>() {
            return Err(err.0);
        }
        if !o.headless {
            let due = start + Duration::from_secs_f64(f64::from(frame) / HZ);
            std::thread::sleep(due.saturating_duration_since(Instant::now()));
        }
    }
    // The recording is saved by the plugin on `AppExit`.
    Ok(app.world().resource::<Summary>().clone())
}

/// A level that did not load at the start (a reload that fails is only reported: the game goes on).
#[derive(Resource)]
struct LoadFailed(String);

fn report_load_errors(
    mut failed: MessageReader<bevy::asset::AssetLoadFailedEvent<LevelAsset>>,
    scene: LevelScene,
    mut commands: Commands,
) {
    for f in failed.read() {
        let why = LevelLoadError::from_asset_error(&f.error)
            .map_or_else(|| f.error.to_string(), ToString::to_string);
        if scene.is_loaded() {
            eprintln!("level not reloaded: {why}");
        } else {
            commands.insert_resource(LoadFailed(why));
        }
    }
}

/// Once the level is there, the player appears at its spawn entity, with the level's character size.
fn spawn_player(
    mut commands: Commands,
    scene: LevelScene,
    players: Query<(), With<Player>>,
    spawns: Query<(&LevelEntity, &Transform)>,
) {
    let Some(level) = scene.level() else { return };
    if !players.is_empty() {
        return;
    }
    let at = spawns
        .iter()
        .find(|(e, _)| e.entity_type == "spawn")
        .map_or(Vec3::ZERO, |(_, t)| t.translation);
    commands.spawn((
        Player::default(),
        CharacterBody::for_level(level),
        // Feet a skin's width above the spawn point, so the first move starts clear of the ground.
        Transform::from_translation(at + Vec3::Y * 0.01),
        Name::new("player"),
    ));
    scene.mark("player spawned");
}

/// The input: towards the route's next waypoint at walking speed (the plugin steps the body with it and the
/// level's gravity).
fn steer(mut players: Query<(&mut Player, &mut CharacterBody, &Transform)>) {
    for (mut player, mut body, transform) in &mut players {
        let feet = transform.translation.xz();
        while let Some(&(x, z)) = ROUTE.get(player.waypoint) {
            if feet.distance(Vec2::new(x, z)) > 0.25 {
                break;
            }
            player.waypoint += 1;
        }
        let dir = ROUTE.get(player.waypoint).map_or(Vec2::ZERO, |&(x, z)| {
            (Vec2::new(x, z) - feet).normalize_or_zero()
        });
        body.input.wish = dir * SPEED;
    }
}

/// The camera: what the eye looks at, whether the way ahead is clear for a ball-sized probe, and what is
/// around the feet; each asked of the level through `LevelScene` (and so recorded).
fn look(
    scene: LevelScene,
    players: Query<(&CharacterBody, &Transform), With<Player>>,
    mut summary: ResMut<Summary>,
) {
    for (body, transform) in &players {
        let feet = transform.translation;
        let heading = body.body.velocity.xz().normalize_or(Vec2::X);
        let eye = feet + glam::Vec3::Y * (body.controller.height - 0.1);
        let look = glam::Vec3::new(heading.x, -0.1, heading.y);
        let _ = scene.cast_ray(&Ray::new(eye, look), 50.0);
        let _ = scene.sweep_sphere(&Sphere::new(eye, body.controller.radius), look * 2.0);
        let _ = scene.overlap_sphere(&Sphere::new(
            feet + glam::Vec3::Y * body.controller.radius,
            body.controller.radius * 1.5,
        ));
        summary.queries += 3;
        summary.position = transform.translation;
        summary.frames_walked += 1;
        summary.grounded_frames += u64::from(body.body.grounded);
    }
}

/// Pickups within reach are collected: their component says what they give.
fn collect_pickups(
    mut commands: Commands,
    scene: LevelScene,
    players: Query<(&CharacterBody, &Transform), With<Player>>,
    pickups: Query<(Entity, &LevelEntity, &Pickup, &Transform)>,
    mut summary: ResMut<Summary>,
) {
    for (body, player) in &players {
        for (entity, level_entity, pickup, at) in &pickups {
            let reach = body.controller.radius + 0.5;
            if player.translation.xz().distance(at.translation.xz()) <= reach {
                scene.mark(&format!(
                    "picked up {} ({} {})",
                    level_entity.id, pickup.amount, pickup.kind
                ));
                summary
                    .picked
                    .push((level_entity.id.0, pickup.kind.clone(), pickup.amount));
                commands.entity(entity).despawn();
            }
        }
    }
}

/// Triggers the player enters, by name; the exit ends the level.
fn triggers(
    mut entered: MessageReader<TriggerEntered>,
    scene: LevelScene,
    mut summary: ResMut<Summary>,
    mut exit: MessageWriter<AppExit>,
) {
    for m in entered.read() {
        let name = scene
            .level()
            .and_then(|l| l.triggers.iter().find(|t| t.id == m.trigger))
            .and_then(|t| t.name.clone())
            .unwrap_or_else(|| m.trigger.to_string());
        scene.mark(&format!("entered trigger {name}"));
        if name == "exit" && !summary.finished {
            summary.finished = true;
            exit.write(AppExit::Success);
        }
        summary.entered.push(name);
    }
}

fn count_reloads(mut spawned: MessageReader<LevelSpawned>, mut summary: ResMut<Summary>) {
    summary.reloads += spawned.read().filter(|s| s.reload).count() as u64;
}

fn end_after_frames(
    mut summary: ResMut<Summary>,
    limit: Res<FrameLimit>,
    mut exit: MessageWriter<AppExit>,
) {
    summary.frames += 1;
    if summary.frames == limit.0 {
        exit.write(AppExit::Success);
    }
}

#[allow(dead_code)] // The tests include this file as a module and call `run` themselves.
fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse(&args).and_then(|o| run(&o)) {
        Ok(s) => {
            println!(
                "{} frames, {} queries, {} reloads; picked {:?}; entered {:?}; {}; player at ({:.2}, {:.2}, {:.2})",
                s.frames,
                s.queries,
                s.reloads,
                s.picked,
                s.entered,
                if s.finished {
                    "reached the exit"
                } else {
                    "did not reach the exit"
                },
                s.position.x,
                s.position.y,
                s.position.z,
            );
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("courtyard: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
