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
//!
//! Game data (issue 16), side by side: `load_validate/walls_100k` (100,000 walls) against
//! `load_validate/walls_90k_entities_10k` (90,000 walls and 10,000 entities of 5 types, each with typed fields,
//! some defaulted, references between them) and `load_validate/walls_90k` (the same level without its
//! entities): load + validate, goal at most 1.2x.
//!
//! Version control: `vcs_100k_walls/diff` (two 100,000-wall levels, 100 walls changed) and
//! `vcs_100k_walls/merge` (base, ours and theirs, 100 walls changed on each side), in process, beside
//! `vcs_100k_walls/parse_two` (parsing the two texts, which the commands also do): goal under 0.5 s.
//!
//! As processes (issue 18: at most 0.2 s for `check` and `fmt`; issue 16: diff and merge under 0.5 s):
//! `cli_100k_walls/{check, fmt_check, diff, merge}` run the built `collidoscope` binary on 100,000-wall files.

use std::hint::black_box;
use std::time::Duration;

use collidoscope::generate::{MazeParams, maze};
use collidoscope::glam::Vec3;
use collidoscope::level::{EntityObject, EntityType, FieldDef, FieldKind, Level, ObjectId, Value};
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

/// `level` with its last `n` walls replaced by `n` entities of 5 types.
fn with_entities(mut level: Level, n: usize) -> Level {
    level.walls.truncate(level.walls.len() - n);
    let kinds = ["spawn", "pickup", "door", "switch", "light"];
    for (k, name) in kinds.iter().enumerate() {
        level.entity_types.push(EntityType {
            name: (*name).into(),
            color: Some((40 * k as u8, 200, 100)),
            min_count: None,
            max_count: None,
            must_reach: false,
            fields: vec![
                FieldDef {
                    name: "amount".into(),
                    kind: FieldKind::Int {
                        min: Some(0),
                        max: Some(1000),
                    },
                    required: false,
                    default: Some(Value::Int(1)),
                },
                FieldDef {
                    name: "speed".into(),
                    kind: FieldKind::Float {
                        min: Some(0.0),
                        max: None,
                    },
                    required: true,
                    default: None,
                },
                FieldDef {
                    name: "team".into(),
                    kind: FieldKind::Enum(vec!["red".into(), "blue".into()]),
                    required: false,
                    default: Some(Value::Enum("red".into())),
                },
                FieldDef {
                    name: "target".into(),
                    kind: FieldKind::Ref { entity_type: None },
                    required: false,
                    default: None,
                },
            ],
        });
    }
    let first = level.next_id().0;
    for i in 0..n {
        let mut fields = std::collections::BTreeMap::new();
        fields.insert("speed".to_owned(), Value::Float(i as f64 * 0.5));
        if i % 3 == 0 {
            fields.insert("team".to_owned(), Value::Enum("blue".into()));
        }
        if i > 0 && i % 5 == 0 {
            fields.insert(
                "target".to_owned(),
                Value::Ref(ObjectId(first + i as u32 - 1)),
            );
        }
        level.entities.push(EntityObject {
            id: ObjectId(first + i as u32),
            name: None,
            entity_type: kinds[i % 5].into(),
            position: Vec3::new(i as f32 * 0.1, 0.0, (i % 100) as f32),
            yaw_deg: 0.0,
            fields,
            properties: std::collections::BTreeMap::new(),
        });
    }
    level
}

fn game_data(c: &mut Criterion) {
    let walls = maze(&MazeParams {
        walls: 100_000,
        balls: 0,
        ..MazeParams::default()
    });
    let mixed = with_entities(walls.clone(), 10_000);
    assert!(
        mixed.validate().is_empty(),
        "{:?}",
        mixed.validate().first()
    );
    let mut plain = mixed.clone();
    plain.entities.clear();
    plain.entity_types.clear();
    let texts = [
        ("walls_100k", walls.to_ron_string()),
        ("walls_90k_entities_10k", mixed.to_ron_string()),
        ("walls_90k", plain.to_ron_string()),
    ];
    let mut group = c.benchmark_group("load_validate");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(6));
    for (name, text) in &texts {
        group.bench_function(*name, |b| {
            b.iter(|| {
                let l = Level::from_ron_str(black_box(text)).expect("parses");
                black_box(l.validate())
            });
        });
    }
    group.finish();

    // Version control on two 100,000-wall levels.
    let base = maze(&MazeParams {
        walls: 100_000,
        balls: 0,
        ..MazeParams::default()
    });
    let mut ours = base.clone();
    let mut theirs = base.clone();
    for k in 0..100 {
        ours.walls[k * 997].radius += 0.1;
        theirs.walls[k * 991 + 1].height = Some(3.0);
    }
    let (tb, to) = (base.to_ron_string(), ours.to_ron_string());
    let mut group = c.benchmark_group("vcs_100k_walls");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(6));
    group.bench_function("diff", |b| {
        b.iter(|| black_box(collidoscope::level::vcs::diff_levels(&base, &ours)).len());
    });
    group.bench_function("merge", |b| {
        b.iter(|| {
            let mut conflicts = Vec::new();
            let m = collidoscope::level::vcs::merge_levels(&base, &ours, &theirs, &mut conflicts);
            assert!(conflicts.is_empty());
            black_box(m)
        });
    });
    group.bench_function("parse_two", |b| {
        b.iter(|| {
            (
                Level::from_ron_str(black_box(&tb)).expect("parses"),
                Level::from_ron_str(black_box(&to)).expect("parses"),
            )
        });
    });
    group.finish();
    cli(c, &base, &ours, &theirs);
}

/// The commands as a game's CI or git runs them: one `collidoscope` process each, on 100,000-wall files
/// (`check`, `fmt --check`, `diff`, `merge -o`), process start to exit.
fn cli(c: &mut Criterion, base: &Level, ours: &Level, theirs: &Level) {
    let dir = tempfile::tempdir().expect("temporary folder");
    let file = |name: &str, l: &Level| {
        let p = dir.path().join(name);
        l.save(&p).expect("save");
        p
    };
    let (b, o, t) = (
        file("base.ron", base),
        file("ours.ron", ours),
        file("theirs.ron", theirs),
    );
    let merged = dir.path().join("merged.ron");
    let run = |args: &[&std::ffi::OsStr]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_collidoscope"))
            .args(args)
            .output()
            .expect("the collidoscope binary runs");
        black_box(out.status.code())
    };
    let mut group = c.benchmark_group("cli_100k_walls");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(6));
    group.bench_function("check", |bn| {
        bn.iter(|| run(&["check".as_ref(), b.as_os_str()]));
    });
    group.bench_function("fmt_check", |bn| {
        bn.iter(|| run(&["fmt".as_ref(), "--check".as_ref(), b.as_os_str()]));
    });
    group.bench_function("diff", |bn| {
        bn.iter(|| run(&["diff".as_ref(), b.as_os_str(), o.as_os_str()]));
    });
    group.bench_function("merge", |bn| {
        bn.iter(|| {
            run(&[
                "merge".as_ref(),
                b.as_os_str(),
                o.as_os_str(),
                t.as_os_str(),
                "-o".as_ref(),
                merged.as_os_str(),
            ])
        });
    });
    group.finish();
}

criterion_group!(benches, level_io, game_data);
criterion_main!(benches);
