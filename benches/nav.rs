//! Navigation (issue 38): `NavMap::build` on the playground, the courtyard and a 100 m maze (the reach bench's:
//! 4 m rooms, walls 2.5 m high, crates and platforms) for three agent sizes; `update` after an edit of one
//! 4 m room of the maze; `path` across the maze. A table of one build of each level is printed first
//! (`NAV_QUICK=1`: the table alone, no criterion groups).
//!
//! With the feature `bench-recast` (`cargo bench --no-default-features --features bench-recast --bench nav`),
//! a Recast navmesh (rerecast) is put beside `NavMap` first, for the default controller on the playground,
//! the courtyard, the rolling terrain and `maze_large`: build times, and 300 random pairs of places each, both
//! paths walked with `Body::step` (`benches/common/recast.rs`, `benches/common/nav_compare.rs`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use collidoscope::character::{Body, CharacterController};
use collidoscope::generate::{MazeParams, maze};
use collidoscope::glam::{Vec2, Vec3};
use collidoscope::level::{AabbObject, Level, ObjectId};
use collidoscope::nav::{NavMap, NavPath, NavSettings};
use collidoscope::scene::Scene;
use collidoscope::shape::Aabb;
use criterion::Criterion;

#[cfg(feature = "bench-recast")]
#[path = "common/nav_compare.rs"]
mod nav_compare;
#[cfg(feature = "bench-recast")]
#[path = "common/recast.rs"]
mod recast;
#[cfg(feature = "bench-recast")]
#[path = "common/recast_tiles.rs"]
mod recast_tiles;

/// A square level `size` metres across: a maze of 4 m rooms on a floor box, with a crate (0.3 m, climbed) or
/// a platform (0.6 m, not climbed) in every third room (the reach bench's level).
fn maze_level(size: f32) -> Level {
    let rooms = (size / 4.0).round() as usize;
    let mut l = maze(&MazeParams {
        walls: rooms * rooms + 2 * rooms,
        balls: 0,
        seed: 7,
        cell: 4.0,
    });
    let mut next = 1_000_000u32;
    for i in 0..rooms {
        for k in 0..rooms {
            if (i * 7 + k * 3) % 3 != 0 {
                continue;
            }
            let half = rooms as f32 * 2.0;
            let c = Vec2::new(i as f32 * 4.0 + 2.0 - half, k as f32 * 4.0 + 2.0 - half);
            let h = if (i + k) % 2 == 0 { 0.3 } else { 0.6 };
            next += 1;
            l.aabbs.push(AabbObject {
                id: ObjectId(next),
                name: None,
                min: Vec3::new(c.x - 0.6, 0.0, c.y - 0.6),
                max: Vec3::new(c.x + 0.6, h, c.y + 0.6),
                properties: Default::default(),
                one_way: false,
            });
        }
    }
    l
}

/// The three agent sizes: small, the default, large.
fn agents() -> Vec<CharacterController> {
    let d = CharacterController::default();
    vec![
        CharacterController {
            radius: 0.2,
            height: 1.2,
            crouch_height: 0.8,
            ..d
        },
        d,
        CharacterController {
            radius: 0.45,
            height: 2.2,
            ..d
        },
    ]
}

/// The scene of the level at `path` (from the crate's root).
fn level_scene(path: &str) -> Scene {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the sample level");
    Scene::from_level(&Level::from_ron_str(&text).expect("it parses")).expect("it builds")
}

/// One build of each sample level for the three agent sizes: its time and counts.
fn table() {
    println!("level       build (3 sizes)   nodes     moves     jumps");
    // The rolling terrain's slopes make the most landings off the scan's places (`Key::Loose` nodes).
    for (name, path) in [
        ("playground", "levels/playground.ron"),
        ("courtyard", "levels/courtyard.ron"),
        ("rolling", "tests/character/data/rolling_terrain_reach.ron"),
    ] {
        let scene = level_scene(path);
        let map = NavMap::build(
            &scene,
            &NavSettings {
                agents: agents(),
                ..NavSettings::default()
            },
        );
        let s = map.stats();
        println!(
            "{name:<11} {:>10.3} s {:>11} {:>9} {:>9}",
            s.seconds, s.nodes, s.moves, s.jumps
        );
    }
}

/// The maze with its edit: a 4 m room of the maze gets a 1 m block in its middle (the update's bench).
fn room_edit(level: &Level) -> Level {
    let mut edited = level.clone();
    edited.aabbs.push(AabbObject {
        id: ObjectId(2_000_000),
        name: None,
        min: Vec3::new(-0.5, 0.0, -0.5),
        max: Vec3::new(0.5, 1.0, 0.5),
        properties: Default::default(),
        one_way: false,
    });
    edited
}

/// The three agent sizes' settings the maze is baked with.
fn maze_settings() -> NavSettings {
    NavSettings {
        agents: agents(),
        // `NAV_JUMP=0`: without jump links (the moves' part of the bake alone).
        jump: std::env::var("NAV_JUMP").map_or(true, |v| v != "0"),
        ..NavSettings::default()
    }
}

/// The scene of `level` (a generated, valid level).
fn map_scene(level: &Level) -> Scene {
    Scene::from_level(level).expect("a valid level")
}

/// The maze `size` metres across and its map for the three sizes, the build's time and counts printed.
fn maze_built(size: f32) -> (Level, NavMap) {
    let level = maze_level(size);
    let began = Instant::now();
    let map = NavMap::build(&map_scene(&level), &maze_settings());
    println!(
        "maze {size} m, 3 sizes: build {:.3} s {:?}",
        began.elapsed().as_secs_f64(),
        map.stats()
    );
    (level, map)
}

/// The maze's build alone (`NAV_MAZE=1`, `NAV_SIZE=metres`, 100 by default): three agent sizes, timed once,
/// with the bake's counts, then the update after the room edit (`NAV_REPEAT=n`: timed n times, the best kept).
fn maze_row() {
    let size: f32 = std::env::var("NAV_SIZE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100.0);
    let (level, map) = maze_built(size);
    let edited = Scene::from_level(&room_edit(&level)).expect("a valid level");
    let room = Aabb::new(Vec3::new(-2.0, 0.0, -2.0), Vec3::new(2.0, 2.5, 2.0));
    // `NAV_REPEAT=n`: the update timed n times, the best kept (many repeats make a profile of it alone).
    let repeat: usize = std::env::var("NAV_REPEAT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
        .max(1);
    let mut best = f64::INFINITY;
    let mut updated = map.clone();
    for _ in 0..repeat {
        updated = map.clone();
        let began = Instant::now();
        updated.update(&edited, room);
        best = best.min(began.elapsed().as_secs_f64());
    }
    println!(
        "update after a 4 m room edit: {:.2} ms (the best of {repeat}), {} jump directions flown again",
        best * 1e3,
        updated.stats().jumps_simulated
    );
    // `NAV_FRESH=1`: a fresh build of the edited maze too, its counts beside the update's.
    if std::env::var_os("NAV_FRESH").is_some() {
        let fresh = NavMap::build(&edited, &maze_settings());
        println!("updated {:?}\nfresh   {:?}", updated.stats(), fresh.stats());
    }
}

/// Recast beside `NavMap` on four levels (300 seeded pairs each), printed as a table.
#[cfg(feature = "bench-recast")]
fn recast_table() {
    let levels = [
        ("playground", "levels/playground.ron"),
        ("courtyard", "levels/courtyard.ron"),
        (
            "rolling terrain",
            "tests/character/data/rolling_terrain_reach.ron",
        ),
        ("maze_large", "levels/maze_large.ron"),
    ];
    // `NAV_RECAST_LEVELS=playground,courtyard`: those levels alone.
    let only = std::env::var("NAV_RECAST_LEVELS").ok();
    let mut rows = Vec::new();
    for (name, path) in levels {
        if only
            .as_deref()
            .is_some_and(|o| !o.split(',').any(|n| n == name))
        {
            continue;
        }
        let scene = level_scene(path);
        match nav_compare::compare(name, &scene, 300, 38) {
            Ok(row) => rows.push(row),
            Err(e) => println!("{name}: {e}"),
        }
    }
    nav_compare::print(&rows);
    if only.is_some() {
        std::process::exit(0);
    }
}

/// Follow `path` from `from` as the contract measures it: a `Body` stepped at 60 Hz with `steer`, within
/// `cell·√2` across and `max_step` up or down of `to`, grounded, in `1.5 × length / 4 m/s + 2 s`.
fn walked(scene: &Scene, ctl: &CharacterController, path: &NavPath, from: Vec3, to: Vec3) -> bool {
    let (Some(&first), Some(&last)) = (path.points.first(), path.points.last()) else {
        return false;
    };
    let flat = |a: Vec3, b: Vec3| Vec2::new(a.x - b.x, a.z - b.z).length();
    let length = flat(from, first) + path.length() + last.distance(to);
    let mut body = Body::new(first);
    body.grounded = true;
    let dt = 1.0 / 60.0;
    for _ in 0..((1.5 * length / 4.0 + 2.0) / dt) as usize {
        let input = path.steer(&body, ctl);
        body.step(ctl, scene, &input, Vec3::new(0.0, -9.81, 0.0), dt);
        if flat(body.feet, to) <= 0.25 * std::f32::consts::SQRT_2
            && (body.feet.y - to.y).abs() <= ctl.max_step
            && body.grounded
        {
            return true;
        }
    }
    if std::env::var_os("NAV_TRACE").is_some() {
        println!(
            "  the body ended at {:?} (grounded {})",
            body.feet, body.grounded
        );
    }
    false
}

/// The place of `places` nearest `p` (the maze has places).
fn nearest_place(places: &[Vec3], p: Vec3) -> Vec3 {
    places
        .iter()
        .copied()
        .min_by(|a, b| a.distance(p).total_cmp(&b.distance(p)))
        .expect("the maze has places")
}

/// The path row alone (`NAV_PATH=1`, `NAV_SIZE=metres`, 100 by default): the maze baked for the default
/// agent only (`NAV_AGENT=k`: the three sizes, the k-th's paths), the path across it timed (the best of
/// `NAV_REPEAT`, five by default: many repeats make a profile of the query alone) and walked, then
/// `NAV_PAIRS` (20) seeded random pairs of places timed and walked.
fn path_row() {
    let size: f32 = std::env::var("NAV_SIZE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100.0);
    let pairs: usize = std::env::var("NAV_PAIRS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    // `NAV_AGENT=k`: the three sizes baked, the paths for the k-th (0 small, 1 default, 2 large).
    let agent: Option<usize> = std::env::var("NAV_AGENT")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&k| k < 3);
    let scene = Scene::from_level(&maze_level(size)).expect("a valid level");
    let (settings, a) = match agent {
        Some(k) => (maze_settings(), k),
        None => (NavSettings::default(), 0),
    };
    let ctl = settings.agents[a];
    let began = Instant::now();
    let map = NavMap::build(&scene, &settings);
    println!(
        "maze {size} m, agent {a} of {}: build {:.3} s",
        settings.agents.len(),
        began.elapsed().as_secs_f64()
    );
    let places = map.places(a);
    let nearest = |p: Vec3| nearest_place(&places, p);
    let corner = 0.48 * size;
    let mut all = vec![(
        nearest(Vec3::new(-corner, 0.0, -corner)),
        nearest(Vec3::new(corner, 0.0, corner)),
    )];
    let mut seed = 38u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % places.len()
    };
    for _ in 0..pairs {
        all.push((places[next()], places[next()]));
    }
    let repeat: usize = std::env::var("NAV_REPEAT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5)
        .max(1);
    let (mut found, mut walks, mut total) = (0, 0, 0.0);
    for (k, &(from, to)) in all.iter().enumerate() {
        let mut best = f64::INFINITY;
        let mut path = None;
        for r in 0..if k == 0 { repeat } else { 1 } {
            let began = Instant::now();
            path = map.path(a, from, to);
            let took = began.elapsed().as_secs_f64();
            if k == 0 && r == 0 {
                // The map's first query makes the landmarks (`landmarks.rs`).
                println!("first query (the landmarks made): {:.1} ms", took * 1e3);
            }
            best = best.min(took);
        }
        total += best;
        let ok = path
            .as_ref()
            .is_some_and(|p| walked(&scene, &ctl, p, from, to));
        found += usize::from(path.is_some());
        walks += usize::from(ok);
        if let (Some(p), false) = (&path, ok) {
            println!("not walked: {from:?} to {to:?}: {p:?}");
        }
        if k == 0 {
            println!(
                "path across the maze: {:.3} ms, {:?} points, {:.1} m, walked {ok}",
                best * 1e3,
                path.as_ref().map(|p| p.points.len()),
                path.as_ref().map_or(0.0, |p| p.length())
            );
        }
    }
    println!(
        "{} pairs: {found} paths, {walks} walked, mean {:.3} ms a path",
        all.len(),
        total / all.len() as f64 * 1e3
    );
}

fn main() {
    if std::env::var_os("NAV_PATH").is_some() {
        path_row();
        return;
    }
    if std::env::var_os("NAV_MAZE").is_some() {
        maze_row();
        return;
    }
    let quick = std::env::var_os("NAV_QUICK").is_some();
    #[cfg(feature = "bench-recast")]
    recast_table();
    table();
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .configure_from_args();
    let (level, map) = maze_built(100.0);
    let (scene, settings) = (map_scene(&level), maze_settings());
    let edited = room_edit(&level);
    let edited_scene = Scene::from_level(&edited).expect("a valid level");
    let room = Aabb::new(Vec3::new(-2.0, 0.0, -2.0), Vec3::new(2.0, 2.5, 2.0));
    let mut updated = map.clone();
    let began = Instant::now();
    updated.update(&edited_scene, room);
    let took = began.elapsed().as_secs_f64();
    println!(
        "update after a 4 m room edit: {:.2} ms ({:.4} of the build's {:.3} s; {} jumps)",
        took * 1e3,
        took / map.stats().seconds.max(1e-9),
        map.stats().seconds,
        updated.stats().jumps
    );
    // The same update of a map without jump links: the moves' part alone.
    let walk = NavSettings {
        jump: false,
        ..settings.clone()
    };
    let walk_map = NavMap::build(&scene, &walk);
    let mut walk_updated = walk_map.clone();
    let began = Instant::now();
    walk_updated.update(&edited_scene, room);
    println!(
        "update without jumps: {:.2} ms (build {:.3} s)",
        began.elapsed().as_secs_f64() * 1e3,
        walk_map.stats().seconds
    );
    // A path across the maze: from the place nearest one corner to the place nearest the other.
    let places = map.places(1);
    let nearest = |p: Vec3| nearest_place(&places, p);
    let (from, to) = (
        nearest(Vec3::new(-48.0, 0.0, -48.0)),
        nearest(Vec3::new(48.0, 0.0, 48.0)),
    );
    let began = Instant::now();
    let path = map.path(1, from, to);
    println!(
        "path across the maze ({from:?} to {to:?}): {:.3} ms, {:?} points, {:.1} m",
        began.elapsed().as_secs_f64() * 1e3,
        path.as_ref().map(|p| p.points.len()),
        path.as_ref().map_or(0.0, |p| p.length())
    );
    if quick {
        return;
    }
    let mut group = c.benchmark_group("nav");
    group.bench_function("maze_path_across_100m", |b| {
        b.iter(|| black_box(map.path(1, from, to)));
    });
    // The map's copy is made outside the timing: the row is the update alone.
    group.bench_function("maze_update_4m_room", |b| {
        b.iter_batched(
            || map.clone(),
            |mut m| {
                m.update(&edited_scene, room);
                m
            },
            criterion::BatchSize::LargeInput,
        );
    });
    group.finish();
    c.final_summary();
}
