//! `NavMap` beside a Recast navmesh (`recast.rs`) on one level, for the default controller (feature
//! `bench-recast`): build times, and random pairs of the map's places (seeded) with both paths walked.
//!
//! The walk is the navigation contract's measure for both: a `Body` stepped with `Body::step` at 60 Hz from
//! `from`, arrived when grounded within `cell·√2` of the path's end horizontally and `max_step` (and two
//! skins) vertically, within `1.5 × length / 4 m/s + 2 s`, never inside anything on the way. Ours follows
//! `NavPath::steer`; Recast's follows its corners, the wish toward the next corner at 4 m/s, the next taken
//! within 0.1 m of one (a frame's walk is 6.7 cm). Recast's path ends on the mesh nearest `to` (within the
//! query box), which is where it is walked to.

use std::time::Instant;

use collidoscope::character::{Body, BodyInput, CharacterController, ReachMap, ReachSettings};
use collidoscope::generate::SplitMix64;
use collidoscope::glam::{Vec2, Vec3};
use collidoscope::nav::{NavMap, NavPath, NavSettings, STEER_SPEED};
use collidoscope::scene::Scene;

use crate::recast::RecastMesh;

const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);
const DT: f32 = 1.0 / 60.0;
/// The corner follower takes the next corner within this of the current one, metres.
const CORNER_REACHED: f32 = 0.1;

/// One level's figures.
pub struct Row {
    /// The level.
    pub level: String,
    /// Recast's build, seconds (the best of up to three).
    pub recast_s: f64,
    /// Ours, seconds (the best of up to three).
    pub ours_s: f64,
    /// Triangles fed to Recast.
    pub triangles: usize,
    /// How Recast's mesh was built, when not as one mesh.
    pub note: String,
    /// Recast's polygons.
    pub polygons: usize,
    /// Sets of polygons joined by shared edges.
    pub pieces: usize,
    /// Pairs tried.
    pub pairs: usize,
    /// Recast's paths found.
    pub recast_found: usize,
    /// Recast's paths walked to their end.
    pub recast_walked: usize,
    /// Our paths found.
    pub ours_found: usize,
    /// Our paths walked to their end.
    pub ours_walked: usize,
    /// Pairs our path walks where Recast has no path.
    pub missed: usize,
    /// Pairs Recast has a path for where ours is `None`.
    pub recast_only: usize,
    /// Walks (of either) that were inside something at some frame.
    pub inside: usize,
}

fn flat(a: Vec3, b: Vec3) -> f32 {
    Vec2::new(a.x - b.x, a.z - b.z).length()
}

/// How a walk went.
struct Walk {
    arrived: bool,
    inside: bool,
    /// Where the body was last.
    end: Vec3,
}

/// Step a body from `from` with `input` until it is at `end` (the contract's tolerances) or `bound` seconds.
fn walk(
    scene: &Scene,
    ctl: &CharacterController,
    from: Vec3,
    end: Vec3,
    bound: f32,
    cell: f32,
    mut input: impl FnMut(&Body) -> BodyInput,
) -> Walk {
    let mut body = Body::new(from);
    body.grounded = true;
    let mut t = 0.0;
    let mut inside = false;
    while t < bound {
        let i = input(&body);
        body.step(ctl, scene, &i, GRAVITY, DT);
        t += DT;
        inside |= !scene.overlap_capsule(&ctl.capsule(body.feet)).is_empty();
        if flat(body.feet, end) <= cell * std::f32::consts::SQRT_2
            && (body.feet.y - end.y).abs() <= ctl.max_step + 2.0 * ctl.skin
            && body.grounded
        {
            return Walk {
                arrived: !inside,
                inside,
                end: body.feet,
            };
        }
    }
    Walk {
        arrived: false,
        inside,
        end: body.feet,
    }
}

/// Follow our path with `steer`.
fn walk_ours(
    scene: &Scene,
    ctl: &CharacterController,
    path: &NavPath,
    from: Vec3,
    to: Vec3,
    cell: f32,
) -> Walk {
    let (Some(&first), Some(&last)) = (path.points.first(), path.points.last()) else {
        return Walk {
            arrived: false,
            inside: false,
            end: from,
        };
    };
    let length = from.distance(first) + path.length() + last.distance(to);
    let bound = 1.5 * length / STEER_SPEED + 2.0;
    walk(scene, ctl, from, to, bound, cell, |b| path.steer(b, ctl))
}

/// Follow Recast's corners.
fn walk_corners(
    scene: &Scene,
    ctl: &CharacterController,
    corners: &[Vec3],
    from: Vec3,
    cell: f32,
) -> Walk {
    let Some(&end) = corners.last() else {
        return Walk {
            arrived: false,
            inside: false,
            end: from,
        };
    };
    let length =
        from.distance(corners[0]) + corners.windows(2).map(|w| w[0].distance(w[1])).sum::<f32>();
    let bound = 1.5 * length / STEER_SPEED + 2.0;
    let mut next = 1.min(corners.len() - 1);
    walk(scene, ctl, from, end, bound, cell, |b| {
        while next + 1 < corners.len() && flat(b.feet, corners[next]) < CORNER_REACHED {
            next += 1;
        }
        let d = Vec2::new(corners[next].x - b.feet.x, corners[next].z - b.feet.z);
        BodyInput {
            wish: d.normalize_or_zero() * STEER_SPEED,
            ..BodyInput::default()
        }
    })
}

/// Why a pair only Recast has a path for is not a path ours misses: where Recast's path starts and ends
/// against `from` and `to`, whether its corners walked from `from` on to `to` itself arrive there, and what the
/// reach map from `from` says of `to` (reachable, or the limit that keeps it out).
fn recast_only_evidence(
    level: &str,
    scene: &Scene,
    ctl: &CharacterController,
    corners: &[Vec3],
    from: Vec3,
    to: Vec3,
    walked: bool,
) {
    let (Some(&first), Some(&last)) = (corners.first(), corners.last()) else {
        return;
    };
    let mut whole = vec![from];
    whole.extend_from_slice(corners);
    whole.push(to);
    let walk = walk_corners(scene, ctl, &whole, from, NavSettings::default().cell);
    let reach = ReachMap::build(scene, ctl, from, &ReachSettings::default());
    let to_to = if walk.arrived {
        format!(
            "true, at {} (which the reach map from `from` says is {})",
            walk.end,
            if reach.reachable(walk.end) {
                "reachable"
            } else {
                "unreachable"
            }
        )
    } else {
        "false".into()
    };
    let says = if reach.reachable(to) {
        "reachable".to_string()
    } else {
        reach
            .blocker(to)
            .map_or("unreachable, no blocker".into(), |b| {
                format!("unreachable: {}", b.describe(ctl))
            })
    };
    println!(
        "  {level}: only Recast has {from} -> {to}: its path starts {:.2} m across and {:+.2} m up from `from`, \
         ends {:.2} m across and {:+.2} m up from `to`; walked to its end: {walked}, on to `to`: {to_to}; \
         the reach map from `from`: {says}; corners {corners:?}",
        flat(first, from),
        first.y - from.y,
        flat(last, to),
        last.y - to.y,
    );
}

/// The best of up to three runs of `f` (fewer when they pass five seconds together), and its last value.
fn best_of<T>(mut f: impl FnMut() -> T) -> (f64, T) {
    let began = Instant::now();
    let mut best = f64::INFINITY;
    let mut runs = 0;
    loop {
        let t = Instant::now();
        let v = f();
        best = best.min(t.elapsed().as_secs_f64());
        runs += 1;
        if runs == 3 || began.elapsed().as_secs_f64() > 5.0 {
            return (best, v);
        }
    }
}

/// Compare on `scene`: both built for the default controller at 0.25 m cells (ours with its default
/// settings: drops and jumps on), then `pairs` random pairs of our places (`seed`).
pub fn compare(level: &str, scene: &Scene, pairs: usize, seed: u64) -> Result<Row, String> {
    let ctl = CharacterController::default();
    // `NAV_NO_JUMP=1`: our map without jump links (walks and drops only).
    let settings = NavSettings {
        jump: std::env::var_os("NAV_NO_JUMP").is_none(),
        ..NavSettings::default()
    };
    let cell = settings.cell;
    // Recast's time is its pipeline's (from the triangles to the detail mesh), not the conversion of the
    // scene's objects to triangles nor that of the mesh for the queries.
    // Recast's single mesh first; where it fails, tiles of 32 cells (8 m), Recast's way with large levels.
    let mut note = String::new();
    let mut recast_s = f64::INFINITY;
    let mut tile = None;
    let (_, recast) = best_of(|| {
        let mut r = RecastMesh::build(scene, &ctl, cell, tile);
        if let (Err(e), None) = (&r, tile) {
            note = format!("single mesh: {e}; 32-cell tiles");
            tile = Some(32);
            recast_s = f64::INFINITY;
            r = RecastMesh::build(scene, &ctl, cell, tile);
        }
        if let Ok(m) = &r {
            recast_s = recast_s.min(m.seconds);
            if m.failed_tiles > 0 && !note.contains("failed") {
                note = format!("{note} ({} tiles failed)", m.failed_tiles);
            }
        }
        r
    });
    let recast = recast?;
    let (ours_s, map) = best_of(|| NavMap::build(scene, &settings));
    if let Some(e) = map.error() {
        return Err(e.to_string());
    }
    let places = map.places(0);
    if places.is_empty() {
        return Err("no places".into());
    }
    // `NAV_RECAST_DUMP=DIR`: the mesh's polygons and our places as text, for a picture.
    if let Some(dir) = std::env::var_os("NAV_RECAST_DUMP") {
        use std::fmt::Write as _;
        let mut text = String::new();
        for o in recast.outlines() {
            let _ = writeln!(
                text,
                "P {}",
                o.iter()
                    .map(|v| format!("{} {} {}", v.x, v.y, v.z))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
        for p in &places {
            let _ = writeln!(text, "S {} {} {}", p.x, p.y, p.z);
        }
        let _ = std::fs::write(
            std::path::Path::new(&dir).join(format!("{level}.txt")),
            text,
        );
    }
    let mut row = Row {
        level: level.to_string(),
        recast_s,
        ours_s,
        triangles: recast.triangles,
        note: note.clone(),
        polygons: recast.polygons(),
        pieces: recast.pieces(),
        pairs,
        recast_found: 0,
        recast_walked: 0,
        ours_found: 0,
        ours_walked: 0,
        missed: 0,
        recast_only: 0,
        inside: 0,
    };
    let mut rng = SplitMix64::new(seed);
    for _ in 0..pairs {
        let from = places[rng.below(places.len())];
        let to = places[rng.below(places.len())];
        let ours = map.path(0, from, to);
        let theirs = recast.path(from, to);
        let mut ours_walks = false;
        if let Some(p) = &ours {
            row.ours_found += 1;
            let w = walk_ours(scene, &ctl, p, from, to, cell);
            ours_walks = w.arrived;
            if !w.arrived && std::env::var_os("NAV_RECAST_DEBUG").is_some() {
                println!(
                    "  {level}: our path {from} -> {to} not walked ({} points)",
                    p.points.len()
                );
                if std::env::var("NAV_RECAST_DEBUG").as_deref() == Ok("2") {
                    println!("    points {:?}\n    links {:?}", p.points, p.links);
                    let mut body = Body::new(from);
                    body.grounded = true;
                    for frame in 0..300 {
                        let i = p.steer(&body, &ctl);
                        body.step(&ctl, scene, &i, GRAVITY, DT);
                        println!(
                            "    {frame}: {} g {} wish {} jump {}",
                            body.feet, body.grounded, i.wish, i.jump
                        );
                    }
                }
            }
            row.ours_walked += usize::from(w.arrived);
            row.inside += usize::from(w.inside);
        }
        match &theirs {
            Some(c) => {
                row.recast_found += 1;
                let w = walk_corners(scene, &ctl, c, from, cell);
                row.recast_walked += usize::from(w.arrived);
                row.inside += usize::from(w.inside);
                row.recast_only += usize::from(ours.is_none());
                if ours.is_none() && std::env::var_os("NAV_RECAST_DEBUG").is_some() {
                    recast_only_evidence(level, scene, &ctl, c, from, to, w.arrived);
                }
            }
            None => {
                row.missed += usize::from(ours_walks);
                if ours_walks && std::env::var_os("NAV_RECAST_DEBUG").is_some() && row.missed <= 8 {
                    println!(
                        "  {level}: Recast misses {from} -> {to}: nearest {:?} / {:?}",
                        recast.nearest_anywhere(from),
                        recast.nearest_anywhere(to)
                    );
                }
            }
        }
    }
    Ok(row)
}

fn percent(n: usize, of: usize) -> String {
    if of == 0 {
        "-".into()
    } else {
        format!("{:.1} % ({n}/{of})", 100.0 * n as f64 / of as f64)
    }
}

/// Print the table.
pub fn print(rows: &[Row]) {
    println!(
        "{:<16} {:>9} {:>9} {:>6}  {:<22} {:<22} {:>8} {:>8} {:>12}",
        "level",
        "Recast s",
        "ours s",
        "ratio",
        "Recast walked",
        "ours walked",
        "missed",
        "R only",
        "polys/pieces"
    );
    for r in rows {
        println!(
            "{:<16} {:>9.3} {:>9.3} {:>6.1}  {:<22} {:<22} {:>8} {:>8} {:>12}",
            r.level,
            r.recast_s,
            r.ours_s,
            r.ours_s / r.recast_s.max(1e-9),
            percent(r.recast_walked, r.recast_found),
            percent(r.ours_walked, r.ours_found),
            format!("{}/{}", r.missed, r.pairs),
            r.recast_only,
            format!("{}/{}", r.polygons, r.pieces),
        );
        println!(
            "  ({} triangles to Recast; ours found {} paths, Recast {}; {} walks inside something at some frame) {}",
            r.triangles, r.ours_found, r.recast_found, r.inside, r.note
        );
    }
    println!(
        "missed: pairs our path walks where Recast finds no path; R only: Recast has a path, ours is None"
    );
}
