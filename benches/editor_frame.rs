//! CPU time of one editor frame (egui_kittest harness: layout, drawing and egui's tessellation of the
//! output) on `levels/maze_large.ron` (10,000 walls, 1,000 balls), with everything in view and zoomed in,
//! beside the same frame on the small house level and on an empty level (budget 8 ms); and the same maze
//! with the debugger playing — one simulation step, its recording and the UI per frame (budget 16 ms). The
//! setup also reports the memory 10,000 recorded frames of the maze take. `maze_100k_all_in_view` and
//! `maze_100k_playing` do the same on a generated maze of 100,000 walls and 1,000 balls. `terrain_100k_all_in_view`
//! and `terrain_100k_zoomed_8x` are a still frame of one 100,000-triangle mesh (`generate::terrain`, 200 m a side),
//! the 3D level's case: the top-down view draws its edges shaded by height. `maze_large_playing_desktop` and
//! `maze_100k_playing_desktop` are the playing frames on a plain egui context, as eframe runs the editor where
//! no screen reader is listening: without the AccessKit tree egui_kittest always builds.
#![allow(missing_docs, clippy::unwrap_used)]

use collidoscope::editor::{EditorApp, EditorOptions};
use collidoscope::level::Level;
use criterion::{Criterion, criterion_group, criterion_main};
use egui::{Event, Pos2};
use egui_kittest::Harness;

fn harness(level: Level) -> Harness<'static, EditorApp> {
    harness_at(level, 0.25)
}

/// The editor in a kittest harness whose frames advance the clock by `step_dt` seconds, with a wgpu render
/// state (Mesa's lavapipe here) installed as eframe installs the desktop's: the 3D preview and the top-down
/// view's level meshes take their GPU paths. Frames are laid out and tessellated, never rendered, so the
/// figures are the CPU's work for a frame; the GPU uploads of the level's meshes happen once per build and
/// are not in them.
fn harness_at(level: Level, step_dt: f32) -> Harness<'static, EditorApp> {
    use egui_kittest::wgpu::WgpuTestRenderer;
    let (app, rs) = editor_with_gpu(level);
    let mut h = Harness::builder()
        .with_size([1600.0, 1000.0])
        .with_accessibility_check(false)
        .with_step_dt(step_dt)
        .renderer(WgpuTestRenderer::from_render_state(rs))
        .build_ui_state(|ui, app: &mut EditorApp| app.frame(ui), app);
    h.run_steps(3);
    h
}

/// The editor and the wgpu render state (Mesa's lavapipe here) its 3D preview and level meshes use.
fn editor_with_gpu(level: Level) -> (EditorApp, eframe::egui_wgpu::RenderState) {
    use egui_kittest::wgpu::{create_render_state, default_wgpu_setup};
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
    (app, rs)
}

/// The editor on a plain egui context without AccessKit, as eframe runs it where no screen reader is
/// listening: eframe turns AccessKit on only when an assistive technology asks for the tree, while
/// egui_kittest always builds it (its queries read it), which is a sixth of a playing maze frame. Everything
/// else is set up as the harness does it, so that AccessKit is the only difference: the same window, theme and
/// style settings (no animations, no cursor blink), the same frame around the editor (kittest's central panel
/// with an 8-point outer margin), the same clock steps, pointer moves, copy of the shapes and tessellation;
/// texture updates are dropped (the harness hands them to a renderer that never draws here). Nothing rendered.
struct Desktop {
    ctx: egui::Context,
    input: egui::RawInput,
    app: EditorApp,
    /// Kept alive for the app's GPU paths.
    _gpu: eframe::egui_wgpu::RenderState,
}

impl Desktop {
    fn new(level: Level, step_dt: f32) -> Self {
        let (app, gpu) = editor_with_gpu(level);
        let ctx = egui::Context::default();
        ctx.set_theme(egui::Theme::Dark);
        ctx.all_styles_mut(|style| {
            style.visuals.text_cursor.blink = false;
            style.scroll_animation = egui::style::ScrollAnimation::none();
            style.animation_time = 0.0;
        });
        let mut d = Self {
            ctx,
            input: egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(
                    Pos2::ZERO,
                    egui::vec2(1600.0, 1000.0),
                )),
                predicted_dt: step_dt,
                ..Default::default()
            },
            app,
            _gpu: gpu,
        };
        for _ in 0..3 {
            d.frame(600.0);
        }
        d
    }

    fn frame(&mut self, x: f32) {
        self.input
            .events
            .push(Event::PointerMoved(Pos2::new(x, 500.0)));
        let app = &mut self.app;
        let mut out = self.ctx.run_ui(self.input.take(), |ui| {
            ui.scope(|ui| {
                egui::Frame::central_panel(ui.style())
                    .outer_margin(8.0)
                    .inner_margin(0.0)
                    .show(ui, |ui| app.frame(ui));
            });
        });
        assert!(
            out.platform_output.accesskit_update.is_none(),
            "AccessKit is on"
        );
        out.textures_delta.clear();
        let shapes = out.shapes.clone();
        let meshes = self.ctx.tessellate(shapes, out.pixels_per_point);
        std::hint::black_box((meshes, out));
    }
}

/// One frame as the desktop app pays for it: the pointer moves (hover picking runs), the UI is laid out
/// and drawn, and the shapes are tessellated into meshes.
fn frame(h: &mut Harness<'static, EditorApp>, x: f32) {
    h.event(Event::PointerMoved(Pos2::new(x, 500.0)));
    h.step();
    let out = h.output();
    let shapes = out.shapes.clone();
    let ppp = out.pixels_per_point;
    let meshes = h.ctx.tessellate(shapes, ppp);
    std::hint::black_box(meshes);
}

/// How many simulation steps a playing run took and their mean time.
fn report_steps(name: &str, app: &EditorApp) {
    if let Some(d) = &app.debug.debugger {
        let n = d.recorded().max(1);
        let mean_ms = d.frames().iter().map(|f| f.step_micros).sum::<f64>() / n as f64 / 1e3;
        eprintln!(
            "{name}: {n} frames simulated while measured, mean simulation step {mean_ms:.2} ms \
             (the rest of each frame is recording, the 2D and 3D overlays and the UI)"
        );
    }
}

fn bench(c: &mut Criterion) {
    let maze = Level::load(std::path::Path::new("levels/maze_large.ron")).unwrap();
    let maze_level = maze.clone();
    let house = Level::from_ron_str(collidoscope::editor::app::EMBEDDED_LEVEL).unwrap();
    let mut group = c.benchmark_group("editor_frame");
    group.sample_size(30);
    let maze_100k = collidoscope::generate::maze(&collidoscope::generate::MazeParams {
        walls: 100_000,
        balls: 1_000,
        ..collidoscope::generate::MazeParams::default()
    });
    let (vertices, indices) = collidoscope::generate::terrain(100_000, 200.0, 1);
    let mut terrain = Level::default();
    terrain.meshes.push(collidoscope::level::MeshObject {
        id: collidoscope::level::ObjectId(1),
        name: None,
        obj: None,
        vertices,
        indices,
        properties: Default::default(),
        one_way: false,
    });
    for (name, level, zoom) in [
        ("empty", Level::default(), 1.0),
        ("house", house, 1.0),
        ("maze_large_all_in_view", maze.clone(), 1.0),
        ("maze_large_zoomed_8x", maze, 8.0),
        ("maze_100k_all_in_view", maze_100k.clone(), 1.0),
        ("terrain_100k_all_in_view", terrain.clone(), 1.0),
        ("terrain_100k_zoomed_8x", terrain, 8.0),
    ] {
        let mut h = harness(level);
        if zoom != 1.0 {
            let app = h.state_mut();
            app.view2d.cam.scale *= zoom;
        }
        let mut x = 600.0;
        group.bench_function(name, |b| {
            b.iter(|| {
                x = if x > 900.0 { 600.0 } else { x + 7.0 };
                frame(&mut h, x);
            });
        });
    }

    // Playing on a 60 Hz display: each frame advances the clock by 1/60 s, one simulation step of the
    // maze's dt (kittest's default of 0.25 s per frame would be a 4 fps display catching up six steps a frame).
    for (name, level) in [
        ("maze_large_playing", maze_level.clone()),
        ("maze_100k_playing", maze_100k),
    ] {
        let mut h = harness_at(level.clone(), 1.0 / 60.0);
        {
            let app = h.state_mut();
            app.debug.toggle_play(&app.doc);
        }
        let mut x = 600.0;
        group.bench_function(name, |b| {
            b.iter(|| {
                x = if x > 900.0 { 600.0 } else { x + 7.0 };
                frame(&mut h, x);
            });
        });
        report_steps(name, h.state());
        drop(h);
        // The same frames without egui_kittest's AccessKit tree (see `Desktop`).
        let mut d = Desktop::new(level, 1.0 / 60.0);
        d.app.debug.toggle_play(&d.app.doc);
        group.bench_function(format!("{name}_desktop"), |b| {
            b.iter(|| {
                x = if x > 900.0 { 600.0 } else { x + 7.0 };
                d.frame(x);
            });
        });
        report_steps(&format!("{name}_desktop"), &d.app);
    }
    group.finish();

    let mut d = collidoscope::editor::debugger::model::Debugger::new(
        &maze_level,
        collidoscope::editor::debugger::model::DEFAULT_BUDGET_BYTES,
    )
    .unwrap();
    for _ in 0..10_000 {
        d.step();
    }
    let (bytes, every) = d.memory();
    let mean_step_ms =
        d.frames().iter().map(|f| f.step_micros).sum::<f64>() / d.recorded() as f64 / 1e3;
    eprintln!(
        "maze_large, 10000 recorded frames: {:.1} MB of snapshots (budget {} MB), keyframes every {every} frame(s); \
         {} frame records; mean simulation step {mean_step_ms:.2} ms",
        bytes as f64 / 1e6,
        collidoscope::editor::debugger::model::DEFAULT_BUDGET_BYTES / (1024 * 1024),
        d.recorded()
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
