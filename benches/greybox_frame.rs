//! The editor's frame with 10,000 greybox sectors in view (issue 36, goal 4 ms): a still frame, and a frame
//! after an edit (one sector's floor raised and lowered in turn: the 2D view's sector edges re-cooked for the
//! changed sector and its neighbours, the level's meshes rebuilt). Beside them, the sector edges alone: a
//! full cook of the shown sectors (what every revision paid before they were kept) against the kept cook
//! following one edit. The harness is `editor_frame`'s: egui_kittest with a wgpu render state (lavapipe),
//! frames laid out and tessellated, never rendered.
//!
//! `greybox_reach`: live walkability on the playground (issue 36, goal 200 ms): a box raised or lowered by
//! 5 cm after a quiet spell, timed from the edit to the frame that shows the new reachability map (frames a
//! millisecond apart, the scene built on the frame as the editor does, the map made from the one before);
//! beside it the map and its drawing built afresh, as every edit did before.
#![allow(missing_docs, clippy::unwrap_used)]

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use collidoscope::editor::document::sector::{Which, new_sector, raise};
use collidoscope::editor::document::{Document, Edit, Object};
use collidoscope::editor::greybox::{EdgeCook, SectorEdges, Storey};
use collidoscope::editor::reach::model::SETTLE;
use collidoscope::editor::reach::{ReachOverlay, ReachRequest};
use collidoscope::editor::{EditorApp, EditorOptions};
use collidoscope::glam::Vec2;
use collidoscope::level::{Level, ObjectId};
use collidoscope::scene::Scene;
use criterion::{Criterion, criterion_group, criterion_main};
use egui::{Event, Pos2};
use egui_kittest::Harness;

/// A 100 × 100 grid of 2 m rooms, floors 0 to 0.45 m and ceilings 2.5 to 3 m above: risers, lintels,
/// portals and the outer walls.
fn rooms(side: usize) -> Level {
    let mut sectors = Vec::with_capacity(side * side);
    for i in 0..side {
        for j in 0..side {
            let (x, z) = (i as f32 * 2.0, j as f32 * 2.0);
            let outline = vec![
                Vec2::new(x, z),
                Vec2::new(x + 2.0, z),
                Vec2::new(x + 2.0, z + 2.0),
                Vec2::new(x, z + 2.0),
            ];
            let floor = ((i * 7 + j * 3) % 4) as f32 * 0.15;
            let ceiling = floor + 2.5 + ((i + j) % 3) as f32 * 0.25;
            let mut s = new_sector(outline, floor, ceiling);
            s.id = ObjectId(sectors.len() as u32 + 1);
            sectors.push(s);
        }
    }
    Level {
        name: "rooms".into(),
        sectors,
        ..Level::default()
    }
}

fn harness(level: Level) -> Harness<'static, EditorApp> {
    use egui_kittest::wgpu::{WgpuTestRenderer, create_render_state, default_wgpu_setup};
    let rs = create_render_state(
        default_wgpu_setup(),
        eframe::egui_wgpu::RendererOptions::PREDICTABLE,
    );
    let mut app = EditorApp::new(
        level,
        None,
        EditorOptions {
            recovery_dir: None,
            native_dialogs: false,
        },
    );
    app.enable_3d(&rs);
    let mut h = Harness::builder()
        .with_size([1600.0, 1000.0])
        .with_accessibility_check(false)
        .with_step_dt(0.25)
        .renderer(WgpuTestRenderer::from_render_state(rs))
        .build_ui_state(|ui, app: &mut EditorApp| app.frame(ui), app);
    h.run_steps(3);
    h
}

/// One frame: the pointer moves, the UI is laid out and drawn, the shapes tessellated.
fn frame(h: &mut Harness<'static, EditorApp>, x: f32) {
    h.event(Event::PointerMoved(Pos2::new(x, 500.0)));
    h.step();
    let out = h.output();
    let meshes = h.ctx.tessellate(out.shapes.clone(), out.pixels_per_point);
    black_box(meshes);
}

fn bench(c: &mut Criterion) {
    let level = rooms(100);
    assert_eq!(level.sectors.len(), 10_000);
    let mut group = c.benchmark_group("greybox_frame");
    group.sample_size(20);

    let mut edges = EdgeCook::new(&level, Storey::default());
    group.bench_function("sector_edges_10k_full_cook", |b| {
        b.iter(|| black_box(SectorEdges::of(&level, Storey::default())));
    });
    let mut edited = level.clone();
    let mut up = true;
    group.bench_function("sector_edges_10k_after_one_edit", |b| {
        b.iter(|| {
            edited.sectors[5050].floor.height += if up { 0.15 } else { -0.15 };
            up = !up;
            edges.update(&edited);
            black_box(edges.edges())
        });
    });

    let mut h = harness(level);
    let mut x = 600.0;
    group.bench_function("sectors_10k_all_in_view_still", |b| {
        b.iter(|| {
            x = if x > 900.0 { 600.0 } else { x + 7.0 };
            frame(&mut h, x);
        });
    });
    let id = ObjectId(5051);
    let mut up = true;
    group.bench_function("sectors_10k_all_in_view_edit", |b| {
        b.iter(|| {
            let app = h.state_mut();
            let e = raise(
                app.doc.level(),
                &[id],
                Which::Floor,
                if up { 0.15 } else { -0.15 },
            )
            .unwrap();
            up = !up;
            app.doc.apply_merging(e.label, e.edit, e.merge_key);
            x = if x > 900.0 { 600.0 } else { x + 7.0 };
            frame(&mut h, x);
        });
    });
    group.finish();
}

/// Frames a millisecond apart until the overlay shows the map of `doc` as it is (the scene built on the
/// first, as the editor's frame does after an edit).
fn until_current(o: &mut ReachOverlay, ctx: &egui::Context, doc: &Document) -> Duration {
    let began = Instant::now();
    let scene = (doc.key(), Arc::new(Scene::build(doc.level())));
    while !o.is_current(doc.key()) {
        assert!(began.elapsed() < Duration::from_secs(60), "no map");
        let _ = o.refresh(ctx, doc, Some(&scene), true);
        std::thread::sleep(Duration::from_millis(1));
    }
    began.elapsed()
}

/// The playground's stair box (`aabbs[3]`) raised by `dy`.
fn raise_box(doc: &mut Document, dy: f32) {
    let mut b = doc.level().aabbs[3].clone();
    b.max.y += dy;
    doc.apply(
        "raise",
        Edit {
            replace: vec![Object::Aabb(b)],
            ..Edit::default()
        },
    );
}

fn reach(c: &mut Criterion) {
    let level = Level::from_ron_str(include_str!("../levels/playground.ron")).unwrap();
    let mut doc = Document::new(level, None);
    let ctx = egui::Context::default();
    let mut o = ReachOverlay::default();
    o.on = true;
    until_current(&mut o, &ctx, &doc);
    let mut group = c.benchmark_group("greybox_reach");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(8));
    let mut up = true;
    group.bench_function("playground_edit_to_overlay", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                raise_box(&mut doc, if up { 0.05 } else { -0.05 });
                up = !up;
                // Timed from the edit, so the sleeps between frames count as the user waits them.
                total += until_current(&mut o, &ctx, &doc);
                // A quiet spell, untimed: the next edit is one on its own, not part of a burst (a burst's
                // last edit waits `SETTLE` before its map starts).
                std::thread::sleep(SETTLE + Duration::from_millis(10));
            }
            total
        });
    });
    let scene = Arc::new(Scene::build(doc.level()));
    group.bench_function("playground_map_afresh", |b| {
        b.iter(|| black_box(ReachRequest::of(&doc, scene.clone()).build()));
    });
    group.finish();
}

criterion_group!(benches, bench, reach);
criterion_main!(benches);
