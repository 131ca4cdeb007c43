//! Criterion benchmark of level loading and saving at scale: a generated maze of 100,000 walls and 1,000 balls
//! (`collidoscope::generate::maze`, seed 1, about 8 MB of RON).
//!
//! - `from_ron_str`: parse the text (peek at the version, parse with field paths, count objects).
//! - `to_ron_string`: serialise the level to canonical pretty RON.
//! - `save`: `Level::save` to a file in a temporary folder (serialise, write, fsync, rename, fsync the folder).
//! - `load`: `Level::load` of that file (read, UTF-8 check, parse).
//!
//! The goal is under 0.5 s for loading and for saving. Ten samples per function keep the run short:
//! `cargo bench --bench level_io`.

use std::hint::black_box;
use std::time::Duration;

use collidoscope::generate::{MazeParams, maze};
use collidoscope::level::Level;
use criterion::{Criterion, criterion_group, criterion_main};

fn level_io(c: &mut Criterion) {
    let level = maze(&MazeParams {
        walls: 100_000,
        balls: 1_000,
        ..MazeParams::default()
    });
    assert_eq!(level.walls.len(), 100_000);
    assert_eq!(level.balls.len(), 1_000);
    let text = level.to_ron_string();
    eprintln!(
        "level_io: {} walls, {} balls, {:.1} MB of RON",
        level.walls.len(),
        level.balls.len(),
        text.len() as f64 / 1e6
    );
    let dir = tempfile::tempdir().expect("temporary folder");
    let path = dir.path().join("maze_100k.ron");
    level.save(&path).expect("save");

    let mut group = c.benchmark_group("level_io_100k_walls");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));
    group.bench_function("from_ron_str", |b| {
        b.iter(|| Level::from_ron_str(black_box(&text)).expect("parses"));
    });
    group.bench_function("to_ron_string", |b| {
        b.iter(|| black_box(&level).to_ron_string());
    });
    group.bench_function("save", |b| {
        b.iter(|| black_box(&level).save(&path).expect("saves"));
    });
    group.bench_function("load", |b| {
        b.iter(|| Level::load(black_box(&path)).expect("loads"));
    });
    group.finish();
}

criterion_group!(benches, level_io);
criterion_main!(benches);
