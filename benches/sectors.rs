//! Greybox sectors (issue 36): cooking generated sector maps of 1,000, 10,000 and 100,000 sectors (rows of
//! 2 m rooms whose splits differ from row to row, so edges between rows overlap partly, with floors and
//! ceilings of a few heights: risers, lintels, portals and walls), and re-cooking one edited sector with the
//! scene update (`Scene::update_sectors`) in the 10,000-sector map. Goals: 10,000 cooked in at most 100 ms,
//! one re-cook and scene update in at most 2 ms. After the groups, the growth of the cooking time with the
//! sector count (the exponent of time against count) is printed.

use std::hint::black_box;
use std::time::{Duration, Instant};

use collidoscope::glam::Vec2;
use collidoscope::level::{Level, ObjectId, SectorObject, Surface};
use collidoscope::scene::Scene;
use collidoscope::sector::SectorCook;
use criterion::Criterion;

/// About `n` sectors: rows of rooms 2 m deep, 1.5 to 2.5 m wide, each row's splits shifted from the last.
fn map(n: usize) -> Level {
    let per_row = (n as f64).sqrt().ceil() as usize;
    let mut sectors = Vec::with_capacity(n);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rand = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 40) as f32 / (1u64 << 24) as f32
    };
    let mut row = 0;
    while sectors.len() < n {
        let (z0, z1) = (row as f32 * 2.0, row as f32 * 2.0 + 2.0);
        let mut x = 0.0f32;
        for _ in 0..per_row {
            if sectors.len() >= n {
                break;
            }
            let w = ((1.5 + rand()) * 4.0).round() / 4.0;
            let floor = (rand() * 4.0).floor() * 0.15;
            let ceiling = floor + 2.5 + (rand() * 3.0).floor() * 0.25;
            let id = sectors.len() as u32 + 1;
            sectors.push(SectorObject {
                id: ObjectId(id),
                name: None,
                outline: vec![
                    Vec2::new(x, z0),
                    Vec2::new(x + w, z0),
                    Vec2::new(x + w, z1),
                    Vec2::new(x, z1),
                ],
                holes: Vec::new(),
                floor: Surface {
                    height: floor,
                    slope: None,
                },
                ceiling: Surface {
                    height: ceiling,
                    slope: None,
                },
                properties: Default::default(),
                one_way: false,
            });
            x += w;
        }
        row += 1;
    }
    Level {
        sectors,
        ..Level::default()
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("sectors");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3));
    let mut times = Vec::new();
    for n in [1_000usize, 10_000, 100_000] {
        let level = map(n);
        let t = Instant::now();
        let cook = level.cook_sectors();
        let once = t.elapsed();
        let triangles: usize = cook.sectors().map(|s| s.indices.len()).sum();
        println!("{n} sectors: {triangles} triangles, one cook {once:?}");
        group.bench_function(format!("cook_{n}"), |b| {
            b.iter(|| black_box(level.cook_sectors()))
        });
        let t = Instant::now();
        let reps = if n >= 100_000 { 2 } else { 10 };
        for _ in 0..reps {
            black_box(level.cook_sectors());
        }
        times.push((n, t.elapsed().as_secs_f64() / f64::from(reps)));
    }
    let level = map(10_000);
    let mut cook = level.cook_sectors();
    let mut scene = Scene::build(&level);
    let mut edited = level.clone();
    let mut k = 0usize;
    group.bench_function("recook_one_and_update_scene_10000", |b| {
        b.iter(|| {
            k = (k + 7919) % edited.sectors.len();
            let id = edited.sectors[k].id;
            edited.sectors[k].floor.height += 0.05;
            black_box(scene.update_sectors(&mut cook, &edited, &[id]));
        });
    });
    let t = Instant::now();
    let builds = 3;
    for _ in 0..builds {
        black_box(Scene::build(&level));
    }
    println!(
        "Scene::build of the 10,000-sector map (cook and meshes): {:?}",
        t.elapsed() / builds
    );
    group.finish();
    for w in times.windows(2) {
        let ((n0, t0), (n1, t1)) = (w[0], w[1]);
        let exponent = (t1 / t0).ln() / (n1 as f64 / n0 as f64).ln();
        println!(
            "cook {n0} -> {n1} sectors: {:.2} ms -> {:.2} ms, time grows as count^{exponent:.2}",
            t0 * 1e3,
            t1 * 1e3
        );
    }
    let _ = SectorCook::default();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
