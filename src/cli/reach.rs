//! `reach` (a level's reachability map: areas per floor, unreachable places and their blockers, a top-down
//! picture) and the reachability part of `check --reach` (every entity of a `must_reach` type that the
//! level's character cannot walk to from the walker start).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use collidoscope::character::{
    Blocker3, CharacterController, ReachError, ReachMap, ReachSettings, UnreachablePlace,
};
use collidoscope::glam::Vec3;
use collidoscope::level::{Level, LevelError, ReachProblem};
use collidoscope::nav::{NavMap, NavSettings};
use collidoscope::scene::Scene;

use super::{Format, print_json};

mod picture;

/// The default cell of a reachability map, metres (the runtime's).
pub(super) const DEFAULT_CELL: f32 = 0.25;

/// The most unreachable places `reach` lists in its text output (the largest; JSON lists them all).
const LISTED_PLACES: usize = 40;

#[derive(Debug, Args)]
pub(super) struct ReachArgs {
    /// Level file to map.
    file: PathBuf,
    /// Write a top-down picture of the map to this PNG file: reachable ground green, ground that can be
    /// stood on but not reached orange (both lighter the higher they are), each unreachable place's blocker
    /// marked in red, the walker start as a blue disc, the level's objects outlined faintly.
    #[arg(long, value_name = "MAP.png")]
    png: Option<PathBuf>,
    /// The map's grid cell, metres.
    #[arg(long, default_value_t = DEFAULT_CELL)]
    cell: f32,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

/// Why a level's map could not be built, as the commands report it (exit 2).
pub(super) struct MapError(pub(super) String);

/// The level's scene, or why there is none (a level with errors: its map would not be the game's).
fn scene_of(level: &Level) -> Result<Scene, MapError> {
    Scene::from_level(level).map_err(|e| match e {
        LevelError::Invalid { problems } => MapError(format!(
            "the level has {} error(s), so its map would not be the game's: fix them first (see \
             `collidoscope check`)",
            problems.len()
        )),
        e => MapError(e.to_string()),
    })
}

/// The level's map in `scene` from the walker start with the level's character, or why not.
fn map_in(level: &Level, scene: &Scene, cell: f32) -> Result<ReachMap, MapError> {
    let settings = ReachSettings {
        cell,
        ..ReachSettings::default()
    };
    level
        .reach_map(scene, &settings)
        .map_err(|e| MapError(explain(&e, &settings)))
}

/// A map error in words, with what to do on the command line.
fn explain(e: &ReachError, settings: &ReachSettings) -> String {
    match e {
        ReachError::TooLarge {
            columns,
            width,
            depth,
            cell,
            limit,
        } => {
            // The smallest cell, in whole centimetres, that keeps the grid within the limit.
            let fits = |c: f32| {
                ((width / c).ceil() as u64).saturating_mul((depth / c).ceil() as u64)
                    <= *limit as u64
            };
            let mut cm = (((width * depth) / *limit as f32).sqrt() * 100.0)
                .ceil()
                .max(1.0);
            while !fits(cm / 100.0) && cm < 1e6 {
                cm += 1.0;
            }
            format!(
                "the map would have {columns} columns ({width:.0} m by {depth:.0} m at {cell} m cells), more than \
                 the limit of {limit} (a map's memory grows with its columns): try --cell {:.2} or larger",
                cm / 100.0
            )
        }
        ReachError::Settings(_) if !(settings.cell.is_finite() && settings.cell >= 0.01) => {
            format!("--cell: {e}")
        }
        _ => e.to_string(),
    }
}

/// A number for JSON as written in f32's shortest form (0.3, not the f64 0.30000001192092896); `null` when not
/// finite.
pub(super) fn num(v: f32) -> serde_json::Value {
    format!("{v}")
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(serde_json::Value::Null, serde_json::Value::Number)
}

/// `[x, y, z]` for JSON.
pub(super) fn v3(v: Vec3) -> serde_json::Value {
    serde_json::Value::Array(v.to_array().into_iter().map(num).collect())
}

/// Metres to the centimetre for text, without a "-0.00".
fn cm(v: f32) -> String {
    let v = if v.abs() < 0.005 { 0.0 } else { v };
    format!("{v:.2}")
}

/// `(x, y, z)` for text.
fn p3(v: Vec3) -> String {
    format!("({}, {}, {})", cm(v.x), cm(v.y), cm(v.z))
}

/// The blocker as JSON: its kind, where, its measure under its own name with the controller's limit, and the
/// words `check` prints.
pub(super) fn blocker_json(b: &Blocker3, ctl: &CharacterController) -> serde_json::Value {
    let mut o = serde_json::json!({ "kind": b.kind(), "at": v3(b.at()) });
    let measure = match *b {
        Blocker3::StepTooHigh { height, .. } => Some(("height", height)),
        Blocker3::SlopeTooSteep { degrees, .. } => Some(("degrees", degrees)),
        Blocker3::TooNarrow { width, .. } => Some(("width", width)),
        Blocker3::TooLow { clearance, .. } => Some(("clearance", clearance)),
        Blocker3::Gap { .. } => None,
    }
    .zip(b.limit(ctl))
    .map(|((name, value), limit)| (name, value, limit));
    if let (Some((name, value, limit)), Some(map)) = (measure, o.as_object_mut()) {
        // The measure under its own name, and the controller's limit it was compared with.
        map.insert(name.into(), num(value));
        map.insert("limit".into(), num(limit));
    }
    if let Some(map) = o.as_object_mut() {
        map.insert("description".into(), serde_json::json!(b.describe(ctl)));
    }
    o
}

fn controller_json(ctl: &CharacterController) -> serde_json::Value {
    serde_json::json!({
        "radius": num(ctl.radius),
        "height": num(ctl.height),
        "skin": num(ctl.skin),
        "max_step": num(ctl.max_step),
        "max_slope_deg": num(ctl.max_slope_deg),
        "snap_distance": num(ctl.snap_distance),
        "max_iterations": ctl.max_iterations,
    })
}

/// What `check --reach` found in one level.
pub(super) struct ReachCheck {
    /// One error per unreachable `must_reach` entity, positioned.
    pub(super) problems: Vec<ReachProblem>,
    /// Entities of `must_reach` types.
    pub(super) checked: usize,
    map: ReachMap,
    /// With `--jump`: how many entities only jumps get to.
    jumped: Option<usize>,
}

impl ReachCheck {
    /// The problem as JSON: the problem's own fields, and the entity's type, feet and blocker.
    pub(super) fn problem_json(&self, r: &ReachProblem) -> serde_json::Value {
        let mut v = serde_json::to_value(&r.problem).unwrap_or(serde_json::Value::Null);
        if let Some(o) = v.as_object_mut() {
            o.insert("entity_type".into(), serde_json::json!(r.entity_type));
            o.insert("feet".into(), serde_json::json!(v3(r.feet)));
            o.insert(
                "blocker".into(),
                match &r.blocker {
                    Some(b) => blocker_json(b, self.map.controller()),
                    None => serde_json::json!({ "kind": r.kind(), "at": v3(r.feet) }),
                },
            );
        }
        v
    }

    /// The summary of the check as JSON.
    pub(super) fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "start": self.map.start().map(v3),
            "cell": num(self.map.cell()),
            "character": controller_json(self.map.controller()),
            "checked": self.checked,
            "unreachable": self.problems.len(),
            "jump": self.jumped.is_some(),
            "reached_by_jumping": self.jumped,
            "seconds": self.map.stats().seconds,
        })
    }

    /// The summary of the check as a line (after `PATH: `).
    pub(super) fn line(&self) -> String {
        let start = self
            .map
            .start()
            .map_or_else(String::new, |s| format!(" {}", p3(s)));
        let jumps = self.jumped.map_or_else(String::new, |n| {
            format!(" with jumps ({n} only by jumping)")
        });
        format!(
            "reach: {} must_reach entit{} checked from the walker start{start}{jumps}, {} unreachable ({:.2} s)",
            self.checked,
            if self.checked == 1 { "y" } else { "ies" },
            self.problems.len(),
            self.map.stats().seconds
        )
    }
}

/// `check --reach` for one level: the map, and each `must_reach` entity it does not reach. `Ok(None)` when
/// the level has errors (no map is built; those errors are among the level's problems already). With `jump`,
/// an entity a navigation map with jump links has a path to from the walker start is reached too.
pub(super) fn check_level(
    level: &Level,
    cell: f32,
    jump: bool,
) -> Result<Option<ReachCheck>, MapError> {
    let scene = match Scene::from_level(level) {
        Ok(s) => s,
        // Without a walker start there is nothing to check from, errors or not.
        Err(LevelError::Invalid { .. }) if level.walker.is_some() => return Ok(None),
        Err(_) => Scene::build(level),
    };
    let map = map_in(level, &scene, cell)?;
    let mut problems = level.reach_problems(&map);
    let jumped = match (jump, map.start()) {
        (true, Some(start)) => {
            let before = problems.len();
            let nav = NavMap::build(
                &scene,
                &NavSettings {
                    agents: vec![*map.controller()],
                    cell,
                    jump: true,
                    gravity: level.simulation.gravity,
                    ..NavSettings::default()
                },
            );
            if let Some(why) = nav.error() {
                return Err(MapError(format!("no navigation map for --jump: {why}")));
            }
            problems.retain(|p| !p.can_stand || nav.path(0, start, p.feet).is_none());
            Some(before - problems.len())
        }
        (true, None) => Some(0),
        (false, _) => None,
    };
    Ok(Some(ReachCheck {
        problems,
        checked: level.must_reach_entities().count(),
        map,
        jumped,
    }))
}

/// The unreachable places, largest first (ties by position, so the order is the same run to run).
fn places_by_area(map: &ReachMap) -> Vec<UnreachablePlace> {
    let mut places = map.unreachable_places().to_vec();
    places.sort_by(|a, b| {
        b.area
            .total_cmp(&a.area)
            .then(a.feet.x.total_cmp(&b.feet.x))
            .then(a.feet.z.total_cmp(&b.feet.z))
            .then(a.feet.y.total_cmp(&b.feet.y))
    });
    places
}

/// `collidoscope reach LEVEL`: exit 0 when every place that can be stood on is reached, 1 when some are not,
/// 2 when the map cannot be built or the picture cannot be written.
pub(super) fn reach(args: &ReachArgs) -> ExitCode {
    let file = &args.file;
    let level = match Level::load(file) {
        Ok(l) => l,
        Err(e) => {
            errln!("{e}");
            return ExitCode::from(2);
        }
    };
    let map = match scene_of(&level).and_then(|scene| map_in(&level, &scene, args.cell)) {
        Ok(m) => m,
        Err(MapError(why)) => {
            errln!(
                "{}: cannot build the reachability map: {why}",
                file.display()
            );
            return ExitCode::from(2);
        }
    };
    let picture = match &args.png {
        None => None,
        Some(path) => match picture::write(&map, &level, path) {
            Ok(p) => Some((path.as_path(), p)),
            Err(e) => {
                errln!("{}: cannot write the picture: {e}", path.display());
                return ExitCode::from(2);
            }
        },
    };
    let all_reached = map.places().all(|(_, reached)| reached);
    match args.format {
        Format::Json => print_json(&report_json(file, &map, picture)),
        Format::Human => print_report(file, &map, picture),
    }
    ExitCode::from(if all_reached { 0 } else { 1 })
}

fn report_json(
    file: &Path,
    map: &ReachMap,
    picture: Option<(&Path, picture::Placement)>,
) -> serde_json::Value {
    let ctl = map.controller();
    let floors: Vec<serde_json::Value> = map
        .floors()
        .iter()
        .enumerate()
        .map(|(i, f)| {
            serde_json::json!({
                "floor": i,
                "heights": [num(f.heights.0), num(f.heights.1)],
                "standable_m2": num(f.standable),
                "reachable_m2": num(f.reachable),
            })
        })
        .collect();
    let places: Vec<serde_json::Value> = places_by_area(map)
        .iter()
        .map(|p| {
            serde_json::json!({
                "feet": v3(p.feet),
                "area_m2": num(p.area),
                "blocker": blocker_json(&p.blocker, ctl),
            })
        })
        .collect();
    let s = map.stats();
    let extent = map.extent().map(|(min, max, nx, nz)| {
        serde_json::json!({
            "min": [num(min.x), num(min.y)],
            "max": [num(max.x), num(max.y)],
            "columns": [nx, nz],
        })
    });
    serde_json::json!({
        "file": file,
        "start": map.start().map(v3),
        "cell": num(map.cell()),
        "character": controller_json(ctl),
        "extent": extent,
        "standable_m2": num(map.floors().iter().map(|f| f.standable).sum::<f32>()),
        "reachable_m2": num(map.floors().iter().map(|f| f.reachable).sum::<f32>()),
        "all_reachable": map.places().all(|(_, r)| r),
        "floors": floors,
        "unreachable": places,
        "stats": {
            "columns": s.columns,
            "places": s.places,
            "reached": s.reached,
            "edges": s.edges,
            "sweeps": s.sweeps,
            "moves": s.moves,
            "seconds": s.seconds,
        },
        "png": picture.map(|(path, p)| serde_json::json!({
            "path": path,
            "width": p.width,
            "height": p.height,
            "origin": [num(p.origin.x), num(p.origin.y)],
            "metres_per_pixel": num(p.metres_per_pixel),
        })),
    })
}

fn print_report(file: &Path, map: &ReachMap, picture: Option<(&Path, picture::Placement)>) {
    let ctl = map.controller();
    let start = map.start().map_or_else(|| "?".to_owned(), p3);
    outln!(
        "{}: from the walker start {start}, cell {} m; character radius {} m, height {} m, max_step {} m, \
         max_slope {}°",
        file.display(),
        map.cell(),
        ctl.radius,
        ctl.height,
        ctl.max_step,
        ctl.max_slope_deg
    );
    for (i, f) in map.floors().iter().enumerate() {
        let share = if f.standable > 0.0 {
            100.0 * f.reachable / f.standable
        } else {
            0.0
        };
        outln!(
            "  floor {i} (ground {} to {} m): {:.1} m² standable, {:.1} m² reachable ({share:.1}%)",
            cm(f.heights.0),
            cm(f.heights.1),
            f.standable,
            f.reachable
        );
    }
    let places = places_by_area(map);
    if places.is_empty() {
        outln!("  every place that can be stood on is reachable");
    } else {
        let area: f32 = places.iter().map(|p| p.area).sum();
        outln!(
            "  {} unreachable place(s), {area:.1} m² in all, largest first:",
            places.len()
        );
        for p in places.iter().take(LISTED_PLACES) {
            outln!(
                "    {:>8.2} m² at {}: {} ({})",
                p.area,
                p3(p.feet),
                p.blocker.describe(ctl),
                p.blocker.kind()
            );
        }
        if places.len() > LISTED_PLACES {
            let rest: f32 = places[LISTED_PLACES..].iter().map(|p| p.area).sum();
            outln!(
                "    … and {} smaller place(s), {rest:.2} m² in all (--format json lists every one)",
                places.len() - LISTED_PLACES
            );
        }
    }
    let s = map.stats();
    let (nx, nz) = map.extent().map_or((0, 0), |(_, _, nx, nz)| (nx, nz));
    outln!(
        "  map: {nx} × {nz} columns, {} places ({} reached), {} controller moves, built in {:.2} s",
        s.places,
        s.reached,
        s.moves,
        s.seconds
    );
    if let Some((path, p)) = picture {
        outln!(
            "  picture: {} ({} × {} px, {:.4} m a pixel)",
            path.display(),
            p.width,
            p.height,
            p.metres_per_pixel
        );
    }
}
