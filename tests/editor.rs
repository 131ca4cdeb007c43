//! The editor driven through its UI as a person would: pointer clicks and drags in the top-down view, keys,
//! the inspector's fields, menus and dialogs (egui_kittest; no GPU needed), and the 3D preview rendered by
//! wgpu under Mesa's software Vulkan (lavapipe).
#![allow(clippy::unwrap_used)]

use std::path::Path;

use collidoscope::editor::view3d::scene::CameraMode;
use collidoscope::editor::{EditorApp, EditorOptions, Tool};
use collidoscope::level::{Level, ObjectId};
use collidoscope::walker::WalkMode;
use egui::accesskit::Role;
use egui::{Event, Key, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::{Vec2, Vec3};

#[path = "editor/game_data.rs"]
mod game_data;

#[path = "editor/characters.rs"]
mod characters;

#[path = "editor/walk.rs"]
mod walk;

#[path = "editor/gltf_import.rs"]
mod gltf_import;

#[path = "editor/reach.rs"]
mod reach;

#[path = "editor/greybox_draw.rs"]
mod greybox_draw;

#[path = "editor/greybox_build.rs"]
mod greybox_build;

#[path = "editor/greybox_3d.rs"]
mod greybox_3d;

#[path = "editor/heights_wheel.rs"]
mod heights_wheel;

#[path = "editor/greybox_scratch.rs"]
mod greybox_scratch;

#[path = "editor/nav.rs"]
mod nav;

fn options(recovery: Option<&Path>) -> EditorOptions {
    EditorOptions {
        recovery_dir: recovery.map(Path::to_path_buf),
        native_dialogs: false,
    }
}

/// The editor with the 3D preview closed: the top-down view gets the whole centre, as these tests' screen
/// positions assume.
fn harness(mut app: EditorApp) -> Harness<'static, EditorApp> {
    app.view3d.open = false;
    harness3d(app)
}

/// The editor as it starts, the 3D preview beside the top-down view.
fn harness3d(app: EditorApp) -> Harness<'static, EditorApp> {
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_step_dt(0.05)
        .build_ui_state(|ui, app: &mut EditorApp| app.frame(ui), app);
    h.run_steps(3);
    h
}

fn house() -> Harness<'static, EditorApp> {
    harness(EditorApp::embedded(options(None)))
}

fn screen(h: &Harness<'_, EditorApp>, x: f32, z: f32) -> Pos2 {
    h.state().screen_from_world(Vec2::new(x, z))
}

fn press(h: &mut Harness<'_, EditorApp>, pos: Pos2, pressed: bool, modifiers: Modifiers) {
    h.event(Event::PointerMoved(pos));
    h.event(Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers,
    });
    h.step();
}

fn click(h: &mut Harness<'_, EditorApp>, x: f32, z: f32) {
    let p = screen(h, x, z);
    press(h, p, true, Modifiers::NONE);
    press(h, p, false, Modifiers::NONE);
    // Past the double-click interval (0.3 s), so the next click is a new one.
    h.run_steps(8);
}

fn drag(h: &mut Harness<'_, EditorApp>, from: (f32, f32), to: (f32, f32), modifiers: Modifiers) {
    let a = screen(h, from.0, from.1);
    let b = screen(h, to.0, to.1);
    h.event(Event::ModifiersChanged(modifiers));
    press(h, a, true, modifiers);
    for k in 1..=8 {
        let p = a + (b - a) * (k as f32 / 8.0);
        h.event(Event::PointerMoved(p));
        h.step();
    }
    press(h, b, false, modifiers);
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.run_steps(2);
}

/// Click the button labelled `label` and let the UI settle (press, release, then the next frame's layout).
fn click_label(h: &mut Harness<'_, EditorApp>, label: &str) {
    // Scrolled into view first, as a person scrolls a panel to a control below its fold.
    h.get_by_label(label).scroll_to_me();
    h.run_steps(12);
    h.get_by_label(label).click();
    h.run_steps(4);
}

/// Focus the text field labelled `label`, select its text and type `text` over it.
fn type_into(h: &mut Harness<'_, EditorApp>, label: &str, text: &str) {
    h.get_by_role_and_label(Role::TextInput, label).focus();
    h.run_steps(1);
    key(h, Modifiers::COMMAND, Key::A);
    h.get_by_role_and_label(Role::TextInput, label)
        .type_text(text);
    h.run_steps(2);
}

fn key(h: &mut Harness<'_, EditorApp>, modifiers: Modifiers, k: Key) {
    h.key_press_modifiers(modifiers, k);
    h.run_steps(2);
}

#[test]
fn draw_a_three_wall_chain_then_undo_and_redo_it() {
    let mut h = house();
    key(&mut h, Modifiers::NONE, Key::W);
    assert_eq!(h.state().tools.tool, Tool::Wall);
    // Off-grid clicks snap to the 0.5 m grid.
    click(&mut h, 2.1, 2.2);
    click(&mut h, 8.0, 1.9);
    click(&mut h, 8.1, 8.0);
    click(&mut h, 5.0, 5.0);
    // Backspace removes the last vertex; the fourth one goes where it should.
    key(&mut h, Modifiers::NONE, Key::Backspace);
    click(&mut h, 2.0, 8.2);
    key(&mut h, Modifiers::NONE, Key::Enter);

    let walls = &h.state().doc.level().walls;
    assert_eq!(walls.len(), 12);
    let new: Vec<(Vec2, Vec2)> = walls[9..].iter().map(|w| (w.a, w.b)).collect();
    assert_eq!(
        new,
        vec![
            (Vec2::new(2.0, 2.0), Vec2::new(8.0, 2.0)),
            (Vec2::new(8.0, 2.0), Vec2::new(8.0, 8.0)),
            (Vec2::new(8.0, 8.0), Vec2::new(2.0, 8.0)),
        ]
    );
    // Fresh ids, the house's collision radius, one named step.
    assert_eq!(walls[9].id, ObjectId(11));
    assert_eq!(walls[11].radius, 0.5);
    assert_eq!(h.state().doc.history().0, vec!["Draw 3 walls"]);
    assert!(h.state().title().ends_with('*'));

    key(&mut h, Modifiers::COMMAND, Key::Z);
    assert_eq!(h.state().doc.level().walls.len(), 9);
    assert!(!h.state().title().ends_with('*'));
    key(&mut h, Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    assert_eq!(h.state().doc.level().walls.len(), 12);
    key(&mut h, Modifiers::COMMAND, Key::Z);
    key(&mut h, Modifiers::COMMAND, Key::Y);
    assert_eq!(h.state().doc.level().walls.len(), 12);
    // The History panel lists the step; clicking "(opened)" goes back to the start.
    click_label(&mut h, "(opened)");
    assert_eq!(h.state().doc.level().walls.len(), 9);
}

#[test]
fn a_new_vertex_welds_to_an_existing_endpoint_and_crossings_offer_a_split() {
    let mut h = house();
    key(&mut h, Modifiers::NONE, Key::W);
    // Near the end of the "pantry" wall (12.4, -9.1), 0.2 m off: welded onto it exactly.
    click(&mut h, 12.6, -8.9);
    click(&mut h, 12.6, 4.0);
    // Across the "porch" wall (z = -0.15, x 13.4..18.74)? No: this one crosses nothing yet.
    key(&mut h, Modifiers::NONE, Key::Enter);
    let w = h.state().doc.level().walls.last().unwrap().clone();
    assert_eq!(w.a, Vec2::new(12.4, -9.1));
    // A wall straight across the porch: the dialog offers to split it.
    click(&mut h, 16.0, -3.0);
    click(&mut h, 16.0, 3.0);
    key(&mut h, Modifiers::NONE, Key::Enter);
    click_label(&mut h, "Split");
    let level = h.state().doc.level();
    // Porch split in two, the new wall in two: 9 + 1 + 1 + 2.
    assert_eq!(level.walls.len(), 13);
    let porch: Vec<_> = level
        .walls
        .iter()
        .filter(|w| w.name.as_deref() == Some("porch"))
        .collect();
    assert_eq!(porch.len(), 2);
    assert!((porch[0].b - Vec2::new(16.0, -0.15)).length() < 1e-4);
    h.state_mut().undo();
    assert_eq!(h.state().doc.level().walls.len(), 10);
}

#[test]
fn place_a_ball_then_set_its_radius_in_the_inspector() {
    let mut h = house();
    key(&mut h, Modifiers::NONE, Key::B);
    // Drag from (4, 10) to (6, 10): a ball with velocity (2, 0, 0) m/s.
    drag(&mut h, (4.0, 10.0), (6.0, 10.0), Modifiers::NONE);
    let ball = h.state().doc.level().balls[0].clone();
    assert_eq!((ball.center.x, ball.center.z), (4.0, 10.0));
    assert!((ball.velocity.x - 2.0).abs() < 1e-4 && ball.velocity.z.abs() < 1e-4);
    assert_eq!(h.state().doc.selection().len(), 1);

    type_into(&mut h, "radius", "-1");
    // Invalid: shown with the reason, not applied.
    assert!(h.query_by_label("must be greater than 0").is_some());
    assert_eq!(h.state().doc.level().balls[0].radius, 0.5);
    type_into(&mut h, "radius", "0.75");
    assert_eq!(h.state().doc.level().balls[0].radius, 0.75);
    assert!(h.query_by_label("must be greater than 0").is_none());
    // Typing "0.75" was one step; undo puts the radius back.
    h.state_mut().undo();
    assert_eq!(h.state().doc.level().balls[0].radius, 0.5);
}

#[test]
fn box_select_then_delete() {
    let mut h = house();
    drag(&mut h, (-21.0, -1.0), (-4.0, 12.0), Modifiers::NONE);
    let selected: Vec<u32> = h.state().doc.selection().iter().map(|i| i.0).collect();
    assert_eq!(selected, vec![3, 7]);
    // Shift adds, Ctrl removes.
    drag(&mut h, (-1.5, -10.0), (0.5, 1.5), Modifiers::SHIFT);
    assert_eq!(h.state().doc.selection().len(), 3);
    drag(&mut h, (-21.0, -1.0), (-16.0, 12.0), Modifiers::COMMAND);
    let selected: Vec<u32> = h.state().doc.selection().iter().map(|i| i.0).collect();
    assert_eq!(selected, vec![3, 4]);
    key(&mut h, Modifiers::NONE, Key::Delete);
    let ids: Vec<u32> = h.state().doc.level().walls.iter().map(|w| w.id.0).collect();
    assert_eq!(ids, vec![1, 2, 5, 6, 7, 8, 9]);
    assert_eq!(h.state().doc.history().0, vec!["Delete 2 objects"]);
}

#[test]
fn drag_moves_the_selection_in_one_snapped_step() {
    let mut h = house();
    click(&mut h, 15.0, -0.15);
    assert_eq!(h.state().doc.selection().iter().next(), Some(&ObjectId(8)));
    drag(&mut h, (15.0, -0.15), (17.1, 2.9), Modifiers::NONE);
    let porch = h.state().doc.level().walls[7].clone();
    assert!(
        (porch.a - Vec2::new(15.4, 2.85)).length() < 1e-5,
        "{}",
        porch.a
    );
    assert_eq!(h.state().doc.history().0, vec!["Move 1 object"]);
    key(&mut h, Modifiers::NONE, Key::ArrowLeft);
    key(&mut h, Modifiers::NONE, Key::ArrowLeft);
    let a = h.state().doc.level().walls[7].a;
    assert!((a - Vec2::new(14.4, 2.85)).length() < 1e-5, "{a}");
    assert_eq!(
        h.state().doc.history().0.len(),
        2,
        "nudges merge into one step"
    );
}

#[test]
fn copy_and_paste_through_the_clipboard_into_another_level() {
    let mut h = house();
    click(&mut h, -10.0, -0.1);
    assert_eq!(h.state().doc.selection().len(), 1);
    h.event(Event::Copy);
    h.step();
    let copied = h
        .output()
        .platform_output
        .commands
        .iter()
        .find_map(|c| match c {
            egui::OutputCommand::CopyText(t) => Some(t.clone()),
            _ => None,
        })
        .expect("copy puts RON on the clipboard");
    assert!(copied.contains("name: \"hall\""));

    let mut other = harness(EditorApp::new(Level::default(), None, options(None)));
    other.event(Event::PointerMoved(Pos2::new(600.0, 400.0)));
    other.event(Event::Paste(copied.clone()));
    other.run_steps(2);
    let level = other.state().doc.level();
    assert_eq!(level.walls.len(), 1);
    assert_eq!(level.walls[0].name.as_deref(), Some("hall"));
    assert!((level.walls[0].b - level.walls[0].a - Vec2::new(15.4, 0.0)).length() < 1e-4);
    // Paste again: a second copy with a fresh id.
    other.event(Event::Paste(copied));
    other.run_steps(2);
    let level = other.state().doc.level();
    assert_eq!(level.walls.len(), 2);
    assert_ne!(level.walls[0].id, level.walls[1].id);
    // Not a level: a message, nothing added.
    other.event(Event::Paste("hello".into()));
    other.run_steps(2);
    assert_eq!(other.state().doc.level().walls.len(), 2);
    assert!(other.state().status.contains("does not hold level objects"));
}

#[test]
fn duplicate_and_select_all() {
    let mut h = house();
    key(&mut h, Modifiers::COMMAND, Key::A);
    assert_eq!(h.state().doc.selection().len(), 10);
    key(&mut h, Modifiers::COMMAND, Key::D);
    assert_eq!(h.state().doc.level().walls.len(), 18);
    assert_eq!(h.state().doc.level().probes.len(), 2);
    assert_eq!(h.state().doc.selection().len(), 10);
}

#[test]
fn opening_a_bad_file_shows_the_error_and_keeps_the_document() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.ron");
    std::fs::write(
        &bad,
        "(version: 1, walls: [(id: 1, a: (0.0, 0.0), b: (1.0, 0.0), radius: \"x\")])",
    )
    .unwrap();
    let mut h = house();
    // An unsaved change first.
    key(&mut h, Modifiers::COMMAND, Key::A);
    key(&mut h, Modifiers::NONE, Key::Delete);
    key(&mut h, Modifiers::COMMAND, Key::O);
    assert!(h.query_by_label("Unsaved changes").is_some());
    click_label(&mut h, "Discard changes");
    type_into(&mut h, "File path (.ron):", &bad.display().to_string());
    click_label(&mut h, "OK");
    assert!(h.query_by_label("Cannot open the level").is_some());
    assert!(
        h.query_by_label_contains("1:67: walls[0].radius: Expected float")
            .is_some()
    );
    // The edited document is still there, still unsaved.
    assert_eq!(h.state().doc.level().walls.len(), 0);
    assert!(h.state().doc.is_dirty());
    click_label(&mut h, "OK");
    assert!(h.query_by_label("Cannot open the level").is_none());
}

#[test]
fn save_as_then_reload_gives_the_same_level() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saved.ron");
    let mut h = house();
    key(&mut h, Modifiers::NONE, Key::B);
    click(&mut h, 3.0, 3.0);
    key(&mut h, Modifiers::COMMAND, Key::S);
    // The built-in level has no file: Save asks where.
    type_into(&mut h, "File path (.ron):", &path.display().to_string());
    click_label(&mut h, "OK");
    assert!(!h.state().doc.is_dirty());
    assert_eq!(h.state().title(), "Collidoscope — saved.ron");
    let reloaded = Level::load(&path).unwrap();
    assert_eq!(&reloaded, h.state().doc.level());
    // Change, save in place with Ctrl+S, reopen.
    key(&mut h, Modifiers::COMMAND, Key::A);
    key(&mut h, Modifiers::NONE, Key::ArrowRight);
    assert!(h.state().title().ends_with('*'));
    key(&mut h, Modifiers::COMMAND, Key::S);
    assert!(!h.state().doc.is_dirty());
    let saved = h.state().doc.level().clone();
    h.state_mut().open_path(&path);
    assert_eq!(h.state().doc.level(), &saved);
    assert_eq!(
        h.state().session.recent.first().unwrap(),
        &path.canonicalize().unwrap()
    );
}

#[test]
fn export_refuses_a_level_with_errors() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = house();
    // A zero-length wall is an error.
    click(&mut h, -10.0, -0.1);
    type_into(&mut h, "b.x", "-20.2");
    key(&mut h, Modifiers::NONE, Key::Escape);
    assert!(
        h.state()
            .problems()
            .iter()
            .any(|p| p.field.starts_with("walls[2]"))
    );
    let out = dir.path().join("game.ron");
    assert!(!h.state_mut().export_to(&out));
    assert!(!out.exists());
    h.run_steps(2);
    assert!(h.query_by_label("Export refused").is_some());
}

#[test]
fn autosave_is_offered_back_on_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = EditorApp::embedded(options(Some(dir.path())));
    app.doc.select_all();
    app.doc.delete_selection();
    app.autosave();
    assert!(dir.path().join("recovery.ron").exists());

    let mut h = harness(EditorApp::embedded(options(Some(dir.path()))));
    assert!(h.query_by_label("Recover unsaved work?").is_some());
    click_label(&mut h, "Recover");
    assert_eq!(h.state().doc.level().walls.len(), 0);
    assert!(
        h.state().doc.is_dirty(),
        "recovered work is not saved anywhere yet"
    );
}

#[test]
fn problems_panel_selects_the_object() {
    let mut level = Level::from_ron_str(include_str!("../levels/house.ron")).unwrap();
    level.walls[4].radius = -2.0;
    let mut h = harness(EditorApp::new(level, None, options(None)));
    assert!(h.query_by_label("1 error · 0 warnings").is_some());
    h.get_by_label_contains("walls[4].radius").click();
    h.run_steps(4);
    let selected: Vec<u32> = h.state().doc.selection().iter().map(|i| i.0).collect();
    assert_eq!(selected, vec![5]);
}

#[test]
fn every_tool_places_its_object() {
    let mut h = harness(EditorApp::new(Level::default(), None, options(None)));
    for (k, from, to) in [
        (Key::P, (0.0, 0.0), (4.0, 0.0)),
        (Key::C, (2.0, 2.0), (3.0, 2.0)),
        (Key::X, (-4.0, -4.0), (-2.0, -1.0)),
        (Key::K, (1.0, 1.0), (1.0, 3.0)),
    ] {
        key(&mut h, Modifiers::NONE, k);
        drag(&mut h, from, to, Modifiers::NONE);
    }
    key(&mut h, Modifiers::NONE, Key::T);
    click(&mut h, 0.0, 5.0);
    click(&mut h, 2.0, 5.0);
    click(&mut h, 0.0, 7.0);
    let level = h.state().doc.level();
    assert_eq!(level.planes[0].normal, glam::Vec3::new(0.0, 0.0, 1.0));
    assert_eq!(level.cylinders[0].radius, 1.0);
    assert_eq!(level.aabbs[0].min, glam::Vec3::new(-4.0, 0.0, -4.0));
    assert_eq!(level.aabbs[0].max, glam::Vec3::new(-2.0, 1.0, -1.0));
    let w = level.walker.as_ref().unwrap();
    assert_eq!(w.position, Vec2::new(1.0, 1.0));
    assert!(
        (w.facing_deg.abs() - 180.0).abs() < 1e-3,
        "facing +z is 180°"
    );
    assert_eq!(level.triangles.len(), 1);
    assert!(level.is_valid());
    assert_eq!(h.state().doc.history().0.len(), 5);
}

#[test]
fn import_an_obj_mesh_inlined_or_referenced() {
    let bunny = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bunny.obj");
    let mut h = house();
    key(&mut h, Modifiers::COMMAND, Key::I);
    type_into(
        &mut h,
        "File path (.obj, .gltf, .glb):",
        &bunny.display().to_string(),
    );
    click_label(&mut h, "OK");
    let mesh = h.state().doc.level().meshes[0].clone();
    assert!(mesh.indices.len() > 1000);
    // The built-in level has no folder: the geometry is inlined.
    assert_eq!(mesh.obj, None);
    assert_eq!(mesh.name.as_deref(), Some("bunny"));
    h.state_mut().undo();
    assert!(h.state().doc.level().meshes.is_empty());

    // Saved next to the OBJ, the level references it by relative path, and it loads back.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(&bunny, dir.path().join("bunny.obj")).unwrap();
    let level_path = dir.path().join("level.ron");
    assert!(h.state_mut().save_to(&level_path));
    assert!(h.state_mut().import_obj(&dir.path().join("bunny.obj")));
    assert_eq!(
        h.state().doc.level().meshes[0].obj.as_deref(),
        Some("bunny.obj")
    );
    assert!(h.state_mut().save_to(&level_path));
    let text = std::fs::read_to_string(&level_path).unwrap();
    assert!(text.contains("obj: \"bunny.obj\"") && !text.contains("vertices"));
    let reloaded = Level::load(&level_path).unwrap();
    assert_eq!(
        reloaded.meshes[0].indices,
        h.state().doc.level().meshes[0].indices
    );
    // A file that is not OBJ: a message, nothing added.
    let junk = dir.path().join("junk.obj");
    std::fs::write(&junk, "f 1 2 3\n").unwrap();
    assert!(!h.state_mut().import_obj(&junk));
    assert_eq!(h.state().doc.level().meshes.len(), 1);
}

fn magic_room() -> Harness<'static, EditorApp> {
    let level = Level::from_ron_str(include_str!("../levels/magic_room.ron")).unwrap();
    harness(EditorApp::new(level, None, options(None)))
}

fn ball_positions(h: &Harness<'_, EditorApp>) -> Vec<glam::Vec3> {
    let d = h.state().debug.debugger.as_ref().unwrap();
    d.world().balls().iter().map(|b| b.center).collect()
}

fn frame_counter(h: &Harness<'_, EditorApp>) -> String {
    h.get_by_label_contains("frame ")
        .value()
        .unwrap_or_default()
}

#[test]
fn debugger_steps_forward_and_back_exactly() {
    let mut h = magic_room();
    assert!(frame_counter(&h).starts_with("frame 0"));
    let mut history = Vec::new();
    for _ in 0..30 {
        key(&mut h, Modifiers::NONE, Key::Period);
        history.push(ball_positions(&h));
    }
    assert!(
        frame_counter(&h).starts_with("frame 30 / 30"),
        "{}",
        frame_counter(&h)
    );
    for n in (1..30).rev() {
        key(&mut h, Modifiers::NONE, Key::Comma);
        assert_eq!(ball_positions(&h), history[n - 1], "back to frame {n}");
    }
    assert!(frame_counter(&h).starts_with("frame 1 / 30"));
    // The Step button does what `.` does.
    click_label(&mut h, "Step");
    assert_eq!(ball_positions(&h), history[1]);
}

#[test]
fn scrubbing_to_a_frame_equals_stepping_to_it() {
    let mut h = magic_room();
    for _ in 0..40 {
        key(&mut h, Modifiers::NONE, Key::Period);
    }
    let at_40 = ball_positions(&h);
    let hash_40 = h
        .state()
        .debug
        .debugger
        .as_ref()
        .unwrap()
        .world()
        .state_hash();
    // Drag the timeline back to 0 with the keyboard-free accessibility value, then to 40 again.
    h.get_by_role_and_label(Role::Slider, "timeline")
        .set_value_accesskit(12.0);
    h.run_steps(3);
    assert!(
        frame_counter(&h).starts_with("frame 12 / 40"),
        "{}",
        frame_counter(&h)
    );
    h.get_by_role_and_label(Role::Slider, "timeline")
        .set_value_accesskit(40.0);
    h.run_steps(3);
    assert_eq!(ball_positions(&h), at_40);
    assert_eq!(
        h.state()
            .debug
            .debugger
            .as_ref()
            .unwrap()
            .world()
            .state_hash(),
        hash_40
    );
}

#[test]
fn space_plays_and_an_edit_restarts_the_recording() {
    let mut h = magic_room();
    key(&mut h, Modifiers::NONE, Key::Space);
    assert!(h.state().debug.playing);
    h.run_steps(20);
    let d = h.state().debug.debugger.as_ref().unwrap();
    assert!(
        d.cursor() >= 10,
        "20 frames of 50 ms play about 60 steps (capped), got {}",
        d.cursor()
    );
    key(&mut h, Modifiers::NONE, Key::Space);
    assert!(!h.state().debug.playing);
    // An edit drops the recording: the view shows the level again.
    h.state_mut().doc.select_all();
    key(&mut h, Modifiers::NONE, Key::ArrowRight);
    assert!(h.state().debug.debugger.is_none());
    assert!(h.state().status.contains("recording starts again"));
}

#[test]
fn clicking_an_event_jumps_to_its_frame() {
    let mut h = magic_room();
    for _ in 0..120 {
        key(&mut h, Modifiers::NONE, Key::Period);
    }
    let d = h.state().debug.debugger.as_ref().unwrap();
    let (frame, event) = d
        .frames()
        .iter()
        .enumerate()
        .find_map(|(f, r)| r.events.first().map(|e| (f + 1, *e)))
        .expect("the magic room has contacts in its first two seconds");
    click_label(&mut h, "Events");
    h.get_by_label_contains(&format!("frame {frame:>5}"))
        .click();
    h.run_steps(4);
    let d = h.state().debug.debugger.as_ref().unwrap();
    assert_eq!(d.cursor(), frame);
    assert_eq!(h.state().debug.highlighted, Some((frame, 0)));
    let ball = d.world().ball_object_ids()[event.ball.0].unwrap();
    assert_eq!(h.state().doc.selection().iter().next(), Some(&ball));
}

#[test]
fn a_level_with_errors_says_why_it_cannot_play() {
    let mut level = Level::from_ron_str(include_str!("../levels/magic_room.ron")).unwrap();
    level.simulation.dt = 0.0;
    let mut h = harness(EditorApp::new(level, None, options(None)));
    key(&mut h, Modifiers::NONE, Key::Period);
    assert!(
        h.query_by_label_contains("the level cannot be simulated")
            .is_some()
    );
    assert!(h.state().debug.debugger.is_none());
}

fn boxes() -> Harness<'static, EditorApp> {
    let level = Level::from_ron_str(
        "(version: 1, aabbs: [(id: 1, min: (2.0, 0.0, -1.0), max: (4.0, 2.0, 1.0)),
                              (id: 2, min: (7.0, 0.0, -1.0), max: (8.0, 2.0, 1.0))])",
    )
    .unwrap();
    harness(EditorApp::new(level, None, options(None)))
}

#[test]
fn the_probe_shows_the_slab_intervals_of_a_known_box() {
    let mut h = boxes();
    // Zoom out so that the ray's start is in view too.
    h.state_mut().view2d.cam.scale /= 2.0;
    h.run_steps(2);
    key(&mut h, Modifiers::NONE, Key::R);
    let origin = h.state().screen_from_world(Vec2::ZERO);
    drag(&mut h, (0.0, 0.0), (10.0, 0.0), Modifiers::NONE);
    h.run_steps(2);
    assert_eq!(
        h.state().screen_from_world(Vec2::ZERO),
        origin,
        "the panels keep their size"
    );
    // The ray at height 1 along +x meets box 1 at t = 2 and box 2 at t = 7.
    assert!(
        h.query_by_label_contains("2 hit(s) within 10.00 m")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("t 2.0000  box (AABB) #1")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("t 7.0000  box (AABB) #2")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("overlap [2.000, 4.000]")
            .is_some(),
        "the slab plot of the first box hit"
    );
    // Above both boxes the y slab is missed: the plot reports the gap.
    h.state_mut().probe.height = 3.0;
    h.run_steps(3);
    assert!(h.query_by_label_contains("0 hit(s)").is_some());
    assert!(h.query_by_label_contains("gap").is_some());
}

#[test]
fn the_sat_panel_names_the_separating_axis() {
    let mut h = boxes();
    key(&mut h, Modifiers::COMMAND, Key::A);
    click_label(&mut h, "SAT");
    assert!(
        h.query_by_label_contains("separated on A face x (1.000, 0.000, 0.000)")
            .is_some()
    );
    assert!(h.query_all_by_label("[2.000, 4.000]").next().is_some());
    assert!(h.query_all_by_label("[7.000, 8.000]").next().is_some());
    // Move box 2 onto box 1: they overlap.
    h.state_mut().doc.select_only([ObjectId(2)]);
    for _ in 0..8 {
        key(&mut h, Modifiers::NONE, Key::ArrowLeft);
    }
    h.state_mut().doc.select_only([ObjectId(1), ObjectId(2)]);
    h.run_steps(3);
    assert!(
        h.query_by_label_contains("overlap (no axis separates them)")
            .is_some()
    );
}

#[test]
fn editing_while_paused_branches_a_what_if_with_a_ghost() {
    let mut h = magic_room();
    for _ in 0..200 {
        key(&mut h, Modifiers::NONE, Key::Period);
    }
    h.get_by_role_and_label(Role::Slider, "timeline")
        .set_value_accesskit(60.0);
    h.run_steps(3);
    // Move the east wall (plane #3, x = 4) in by two nudges of 0.5 m: the balls keep their state at frame
    // 60, and the ghost stays the run before the first edit (frames 60 to 200).
    h.state_mut().doc.select_only([ObjectId(3)]);
    key(&mut h, Modifiers::NONE, Key::ArrowLeft);
    key(&mut h, Modifiers::NONE, Key::ArrowLeft);
    assert_eq!(h.state().doc.level().planes[2].d, -3.0);
    assert!(h.state().status.contains("what-if"), "{}", h.state().status);
    let ghost = h
        .state()
        .debug
        .ghost
        .clone()
        .expect("a ghost of the previous run");
    assert_eq!((ghost.from, ghost.frames.len()), (60, 141));
    assert!(h.query_by_label_contains("What-if from frame 60").is_some());
    for _ in 0..140 {
        key(&mut h, Modifiers::NONE, Key::Period);
    }
    let k = h.state().debug.ghost.as_ref().unwrap().diverges_at;
    assert!(
        k.is_some_and(|k| k > 60),
        "a ball meets the moved wall: {k:?}"
    );
    assert!(
        h.query_by_label_contains("leaves the previous one (ghost) at frame")
            .is_some()
    );
    click_label(&mut h, "Dismiss ghost");
    assert!(h.state().debug.ghost.is_none());
}

#[test]
fn the_compare_tab_flags_nehe_slices_tunnelling() {
    let level = Level::from_ron_str(
        "(version: 1, aabbs: [(id: 1, min: (4.03, 0.0, -1.0), max: (4.05, 2.0, 1.0))],
          balls: [(id: 2, center: (0.0, 1.0, 0.0), velocity: (600.0, 0.0, 0.0), radius: 0.01, mass: 1.0, restitution: 1.0)],
          simulation: (gravity: (0.0, 0.0, 0.0), dt: 0.016666668))",
    )
    .unwrap();
    let mut h = harness(EditorApp::new(level, None, options(None)));
    click_label(&mut h, "Compare");
    assert!(
        h.query_by_label_contains("1 ball–shape pairs tested, 1 disagreement(s)")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("ball #2 vs #1: exact 0.4020  slices miss")
            .is_some()
    );
}

// ---- the 3D preview -------------------------------------------------------------------------------------

/// Point the orbit camera at `target` from `distance` along `+z` (level, no tilt).
fn look_from_front(h: &mut Harness<'_, EditorApp>, target: Vec3, distance: f32) {
    let cam = &mut h.state_mut().view3d.cam;
    cam.mode = CameraMode::Orbit;
    cam.target = target;
    cam.yaw = 0.0;
    cam.pitch = 0.0;
    cam.distance = distance;
    h.run_steps(2);
}

/// Where world point `p` appears in the 3D panel, in points.
fn screen3(h: &Harness<'_, EditorApp>, p: Vec3) -> Pos2 {
    let v = &h.state().view3d;
    let r = v.rect;
    let m = v.cam.projection(r.width() / r.height()) * v.cam.view(None);
    let ndc = m.project_point3(p);
    Pos2::new(
        r.left() + (ndc.x + 1.0) * 0.5 * r.width(),
        r.top() + (1.0 - ndc.y) * 0.5 * r.height(),
    )
}

fn click_at(h: &mut Harness<'_, EditorApp>, p: Pos2, modifiers: Modifiers) {
    press(h, p, true, modifiers);
    press(h, p, false, modifiers);
    h.run_steps(8);
}

/// One box standing on the origin, two metres tall.
fn one_box() -> Harness<'static, EditorApp> {
    let level = Level::from_ron_str(
        "(version: 1, aabbs: [(id: 1, min: (-1.0, 0.0, -1.0), max: (1.0, 2.0, 1.0))])",
    )
    .unwrap();
    harness3d(EditorApp::new(level, None, options(None)))
}

#[test]
fn clicking_in_the_3d_preview_selects_what_is_under_the_pointer() {
    let mut h = one_box();
    assert!(
        h.state().view3d.open,
        "the preview opens beside the top-down view"
    );
    look_from_front(&mut h, Vec3::new(0.0, 1.0, 0.0), 8.0);
    let on_box = screen3(&h, Vec3::new(0.0, 1.0, 1.0));
    click_at(&mut h, on_box, Modifiers::NONE);
    assert!(h.state().doc.selection().iter().eq([ObjectId(1)].iter()));
    assert!(h.state().status.contains("picked box (AABB) #1"));
    // The sky above the box: nothing there, the selection clears.
    let sky = screen3(&h, Vec3::new(0.0, 3.5, 0.0));
    click_at(&mut h, sky, Modifiers::NONE);
    assert!(h.state().doc.selection().is_empty());
    // F3 hides the preview (and gives the top-down view the room).
    let narrow = h.state().view3d.rect.width();
    key(&mut h, Modifiers::NONE, Key::F3);
    assert!(!h.state().view3d.open);
    key(&mut h, Modifiers::NONE, Key::F3);
    assert!(h.state().view3d.open);
    assert!(narrow > 100.0);
}

#[test]
fn a_probe_click_in_3d_casts_the_ray_through_the_pixel() {
    let mut h = one_box();
    look_from_front(&mut h, Vec3::new(0.0, 1.0, 0.0), 8.0);
    key(&mut h, Modifiers::NONE, Key::R);
    let on_box = screen3(&h, Vec3::new(0.5, 1.5, 1.0));
    click_at(&mut h, on_box, Modifiers::NONE);
    let (ray, _) = h.state().probe.ray.expect("a probe ray");
    // From the eye (on the near plane), toward the picked point.
    assert!((ray.origin.z - 8.0).abs() < 0.1, "{ray:?}");
    let at_face = ray.at((ray.origin.z - 1.0) / -ray.dir.z);
    assert!(
        at_face.distance(Vec3::new(0.5, 1.5, 1.0)) < 0.02,
        "{at_face}"
    );
    assert!(h.query_by_label_contains("1 hit(s)").is_some());
}

/// A walker at the origin facing `-z`, a vertical triangle across its path at `z = -2` and a wall at
/// `z = -4`.
fn corridor() -> Harness<'static, EditorApp> {
    let level = Level::from_ron_str(
        "(version: 1,
          walls: [(id: 1, a: (-5.0, -4.0), b: (5.0, -4.0), radius: 0.25)],
          triangles: [(id: 2, a: (-2.0, 0.0, -2.0), b: (2.0, 0.0, -2.0), c: (0.0, 3.0, -2.0))],
          walker: (position: (0.0, 0.0), facing_deg: 0.0, eye_height: 1.0, radius: 0.3))",
    )
    .unwrap();
    harness3d(EditorApp::new(level, None, options(None)))
}

/// Hold `k` with the pointer over the 3D preview for `steps` frames of 0.05 s. The pointer arrives in the
/// same frame as the key, as it does when a person moves in and presses at once.
fn hold(h: &mut Harness<'_, EditorApp>, k: Key, steps: usize) {
    let c = h.state().view3d.rect.center();
    h.event(Event::PointerMoved(c));
    h.key_down(k);
    h.run_steps(steps);
    h.key_up(k);
    h.run_steps(2);
}

#[test]
fn walking_in_3d_collides_with_triangles_and_walls_by_mode() {
    let mut h = corridor();
    click_label(&mut h, "Walker");
    assert_eq!(h.state().view3d.cam.mode, CameraMode::Walker);
    assert_eq!(h.state().view3d.walk_mode, WalkMode::Slide);
    // Four seconds of W toward the triangle: the walk test stops the eye before it crosses.
    hold(&mut h, Key::W, 80);
    let s = h.state();
    assert_eq!(
        s.tools.tool,
        Tool::Select,
        "W walks instead of picking the wall tool"
    );
    let p = s.view3d.cam.walker.position;
    assert!(p.x == 0.0 && p.y > -2.0 && p.y < -1.7, "{p}");
    let report = &s.view3d.walk;
    assert_eq!(
        report.outcome.and_then(|o| o.blocked_by),
        Some(collidoscope::walker::Blocker::Triangle(0))
    );
    // Both methods saw the eye's path meet the triangle, at the same point.
    assert_eq!(report.compared.len(), 1);
    assert!(!report.compared[0].disagrees());
    let crossing = report.compared[0].walk_test.unwrap();
    assert!(
        crossing.distance(Vec3::new(0.0, 1.0, -2.0)) < 1e-5,
        "{crossing}"
    );

    // Ghost walks through the triangle and the wall.
    h.state_mut().view3d.walk_mode = WalkMode::Ghost;
    hold(&mut h, Key::W, 60);
    assert!(h.state().view3d.cam.walker.position.y < -4.5);

    // Back to the start in Stop mode, turned to dodge the triangle: the wall stops the walker outside its
    // collision distance plus the walker's radius.
    h.state_mut().view3d.walk_mode = WalkMode::Stop;
    click_label(&mut h, "Back to start");
    assert_eq!(h.state().view3d.cam.walker.position, Vec2::ZERO);
    h.state_mut().view3d.cam.walker.position = Vec2::new(3.0, 0.0);
    hold(&mut h, Key::W, 80);
    let p = h.state().view3d.cam.walker.position;
    assert!(p.y > -4.0 + 0.25 + 0.3 - 1e-4 && p.y < -2.9, "{p}");
    assert_eq!(
        h.state().view3d.walk.outcome.and_then(|o| o.blocked_by),
        Some(collidoscope::walker::Blocker::Wall(0))
    );
    // The level's walker start is not an edit.
    assert!(!h.state().doc.is_dirty());
    // Dragging looks around: 40 px to the right turns the walker 10° clockwise seen from above.
    let c = h.state().view3d.rect.center();
    press(&mut h, c, true, Modifiers::NONE);
    for k in 1..=4 {
        h.event(Event::PointerMoved(c + egui::vec2(10.0 * k as f32, 0.0)));
        h.step();
    }
    press(&mut h, c + egui::vec2(40.0, 0.0), false, Modifiers::NONE);
    assert!((h.state().view3d.cam.walker.facing_deg - 350.0).abs() < 1e-3);
    // While a text field has the keyboard, W types there even with the pointer over the preview.
    h.get_by_role_and_label(Role::TextInput, "name").focus();
    h.run_steps(1);
    let before = h.state().view3d.cam.walker.position;
    hold(&mut h, Key::W, 10);
    assert_eq!(h.state().view3d.cam.walker.position, before);
    key(&mut h, Modifiers::NONE, Key::Escape);
    // Away from the preview, W is the wall tool again.
    h.event(Event::PointerMoved(Pos2::new(300.0, 300.0)));
    key(&mut h, Modifiers::NONE, Key::W);
    assert_eq!(h.state().tools.tool, Tool::Wall);
}

#[test]
fn follow_ball_tracks_the_selected_ball() {
    let level = Level::from_ron_str(include_str!("../levels/magic_room.ron")).unwrap();
    let mut h = harness3d(EditorApp::new(level, None, options(None)));
    let id = h.state().doc.level().balls[1].id;
    h.state_mut().doc.select_only([id]);
    click_label(&mut h, "Follow ball");
    assert_eq!(h.state().view3d.cam.mode, CameraMode::Follow);
    assert_eq!(h.state().view3d.follow, Some(id));
    // Step the simulation: the camera stays behind the ball as it moves.
    for _ in 0..20 {
        key(&mut h, Modifiers::NONE, Key::Period);
    }
    let s = h.state();
    let d = s.debug.debugger.as_ref().unwrap();
    let k = d
        .world()
        .ball_object_ids()
        .iter()
        .position(|b| *b == Some(id))
        .unwrap();
    let b = d.world().balls()[k];
    let (eye, forward) = s
        .view3d
        .cam
        .eye_forward(Some((b.center, b.velocity, b.radius)));
    assert!((b.center - eye).normalize().dot(forward) > 0.999);
    assert!(eye.distance(b.center) < 20.0);
}

/// The editor on `level` with a wgpu render state in Mesa's software Vulkan (lavapipe), as eframe gives the
/// desktop app one: the 3D preview and the top-down view's layers take their GPU paths, and `render` draws.
fn wgpu_harness(level: Level) -> Harness<'static, EditorApp> {
    use egui_kittest::wgpu::{WgpuTestRenderer, create_render_state, default_wgpu_setup};
    let rs = create_render_state(
        default_wgpu_setup(),
        eframe::egui_wgpu::RendererOptions::PREDICTABLE,
    );
    let mut app = EditorApp::new(level, None, options(None));
    app.enable_3d(&rs);
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_step_dt(0.05)
        .renderer(WgpuTestRenderer::from_render_state(rs))
        .build_ui_state(|ui, app: &mut EditorApp| app.frame(ui), app);
    h.run_steps(3);
    h
}

/// The preview rendered by wgpu in Mesa's software Vulkan (lavapipe), as CI runs it: pixels checked where
/// the camera puts known objects, and a snapshot of the whole editor kept in `tests/snapshots/`.
#[test]
fn the_3d_preview_renders_under_lavapipe() {
    // A triangle facing the camera (front, its own green), one facing away (back, the magenta tint) and a
    // ball between them.
    let level = Level::from_ron_str(
        "(version: 1,
          triangles: [(id: 1, a: (-3.0, 0.0, 0.0), b: (-0.5, 0.0, 0.0), c: (-1.75, 2.5, 0.0)),
                      (id: 2, a: (0.5, 0.0, 0.0), b: (1.75, 2.5, 0.0), c: (3.0, 0.0, 0.0))],
          balls: [(id: 3, center: (0.0, 2.5, 0.0), velocity: (0.0, 0.0, 0.0), radius: 0.4, mass: 1.0, restitution: 0.5)])",
    )
    .unwrap();
    let mut h = wgpu_harness(level);
    look_from_front(&mut h, Vec3::new(0.0, 1.2, 0.0), 7.0);
    let img = h.render().expect("wgpu renders");
    let ppp = img.width() as f32 / 1280.0;
    let px = |h: &Harness<'_, EditorApp>, p: Vec3| {
        let s = screen3(h, p);
        let c = img.get_pixel((s.x * ppp) as u32, (s.y * ppp) as u32).0;
        (i32::from(c[0]), i32::from(c[1]), i32::from(c[2]))
    };
    let front = px(&h, Vec3::new(-1.75, 0.8, 0.0));
    let back = px(&h, Vec3::new(1.75, 0.8, 0.0));
    let ball = px(&h, Vec3::new(0.0, 2.5, 0.4));
    let sky = px(&h, Vec3::new(0.0, 5.0, -30.0));
    assert!(
        front.1 > front.0 + 30 && front.1 > front.2,
        "front face {front:?}"
    );
    assert!(back.0 > back.1 + 30, "back face {back:?}");
    assert!(ball.0 > 150 && ball.2 < ball.0 - 60, "ball {ball:?}");
    assert!(sky.0 < 60 && sky.1 < 60 && sky.2 < 70, "background {sky:?}");

    // The built-in house beside its top-down view.
    let level = Level::from_ron_str(include_str!("../levels/house.ron")).unwrap();
    let mut h = wgpu_harness(level);
    h.run_steps(2);
    h.snapshot("preview_3d_house");
}

/// The top-down view's level and overlay meshes go through wgpu paint callbacks when the app has a render
/// state (as the desktop app always does): egui's output then holds no copy of them, the rendered picture
/// still shows the level where the camera puts it, and a camera move (a new build of the meshes) is drawn
/// at the new place, not from the old upload.
#[test]
fn the_top_down_level_is_drawn_from_gpu_buffers_and_follows_the_camera() {
    let level = Level::from_ron_str(
        "(version: 1, walls: [(id: 1, a: (-6.0, 0.0), b: (6.0, 0.0), radius: 0.3)])",
    )
    .unwrap();
    let mut h = wgpu_harness(level);
    // No mesh in egui's output is as big as the level's: the wall's outline went to the GPU.
    let (mut callbacks, mut biggest) = (0, 0);
    for s in &h.output().shapes {
        match &s.shape {
            egui::Shape::Callback(_) => callbacks += 1,
            egui::Shape::Mesh(m) => biggest = biggest.max(m.vertices.len()),
            _ => {}
        }
    }
    assert!(
        callbacks >= 3,
        "level, overlays and 3D preview: {callbacks}"
    );
    // Whether a column of pixels across world point (x, z) has the wall's bright outline in it.
    let bright_near = |h: &mut Harness<'_, EditorApp>, x: f32, z: f32| {
        let img = h.render().expect("wgpu renders");
        let app = h.state();
        let ppp = img.width() as f32 / 1280.0;
        let p = app
            .view2d
            .cam
            .screen_from_world(app.view_rect(), Vec2::new(x, z));
        (-12..=12).any(|dy| {
            let c = img
                .get_pixel((p.x * ppp) as u32, ((p.y + dy as f32) * ppp) as u32)
                .0;
            c[0].min(c[1]).min(c[2]) > 150
        })
    };
    assert!(bright_near(&mut h, 2.0, 0.0), "the wall is drawn");
    assert!(!bright_near(&mut h, 2.0, 4.0), "nothing 4 m beside it");
    // Pan the view so the wall lands where the empty place was: the new build is uploaded and drawn.
    h.state_mut().view2d.cam.center += Vec2::new(0.0, -4.0);
    h.run_steps(2);
    let rect = h.state().view_rect();
    let moved = h
        .state()
        .view2d
        .cam
        .screen_from_world(rect, Vec2::new(2.0, 0.0));
    assert!(rect.contains(moved), "the wall stays in view");
    assert!(
        bright_near(&mut h, 2.0, 0.0),
        "the wall is drawn after the pan"
    );
    assert!(
        biggest < 2_000,
        "egui's output kept a mesh of {biggest} vertices"
    );
}

// ---- regressions: derived state follows the document ------------------------------------------------------

/// Bug: after playing one file and opening another, the debugger kept the old world and balls (the caches
/// were keyed by revision alone, and a new document starts at the same revision).
#[test]
fn opening_another_file_drops_the_old_recording() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let magic = root.join("levels/magic_room.ron");
    let house = root.join("levels/house.ron");
    let mut h = harness(EditorApp::new(
        Level::load(&magic).unwrap(),
        Some(magic.clone()),
        options(None),
    ));
    key(&mut h, Modifiers::NONE, Key::Space);
    h.run_steps(10);
    key(&mut h, Modifiers::NONE, Key::Space);
    assert!(h.state().debug.active(), "magic room played a few steps");
    key(&mut h, Modifiers::COMMAND, Key::O);
    type_into(&mut h, "File path (.ron):", &house.display().to_string());
    click_label(&mut h, "OK");
    assert_eq!(h.state().doc.level().walls.len(), 9, "the house is open");
    assert!(
        frame_counter(&h).starts_with("frame 0"),
        "the timeline starts again: {}",
        frame_counter(&h)
    );
    assert!(
        !h.state().debug.active(),
        "the view shows the house's own objects"
    );
    let balls = h
        .state()
        .debug
        .debugger
        .as_ref()
        .map_or(0, |d| d.world().balls().len());
    assert_eq!(balls, 0, "the house has no balls");
    // Stepping now simulates the house.
    key(&mut h, Modifiers::NONE, Key::Period);
    assert_eq!(
        h.state()
            .debug
            .debugger
            .as_ref()
            .unwrap()
            .world()
            .balls()
            .len(),
        0
    );
}

/// Bug: after Recover, the 3D preview kept showing the built-in house.
#[test]
fn recovering_rebuilds_the_3d_preview() {
    let dir = tempfile::tempdir().unwrap();
    let far = Level::from_ron_str(
        "(version: 1, walls: [(id: 1, a: (100.0, 100.0), b: (104.0, 100.0), radius: 0.5)])",
    )
    .unwrap();
    // What autosave leaves behind: the level, and no original path (it was never saved).
    std::fs::write(dir.path().join("recovery.ron"), far.to_ron_string()).unwrap();

    let mut h = harness3d(EditorApp::embedded(options(Some(dir.path()))));
    let before = h.state().view3d.shown_bounds().unwrap();
    assert!(before.max.x < 50.0, "the house is shown first");
    click_label(&mut h, "Recover");
    h.run_steps(2);
    assert_eq!(h.state().doc.level().walls[0].b.x, 104.0);
    let after = h.state().view3d.shown_bounds().unwrap();
    assert!(
        after.max.x >= 104.0 && after.max.z >= 100.0,
        "the preview shows the recovered level: {after:?}"
    );
}

// ---- commands -----------------------------------------------------------------------------------------------

/// The menu, the shortcut and the F1 list are one command each: the menu's Duplicate says what it did, as
/// Ctrl+D always has.
#[test]
fn a_menu_item_and_its_shortcut_run_the_same_command() {
    let mut h = house();
    key(&mut h, Modifiers::COMMAND, Key::A);
    // A menu entry's accessible label is its name and its shortcut.
    click_label(&mut h, "Edit");
    click_label(&mut h, "Duplicate Ctrl+D");
    assert_eq!(h.state().doc.level().walls.len(), 18);
    assert_eq!(h.state().status, "duplicated 10 objects");
    key(&mut h, Modifiers::COMMAND, Key::D);
    assert_eq!(h.state().doc.level().walls.len(), 27);
    assert_eq!(h.state().status, "duplicated 10 objects");
    // Undo from the menu, redo with the key.
    click_label(&mut h, "Edit");
    click_label(&mut h, "Undo Ctrl+Z");
    assert_eq!(h.state().doc.level().walls.len(), 18);
    key(&mut h, Modifiers::COMMAND, Key::Y);
    assert_eq!(h.state().doc.level().walls.len(), 27);
}

#[test]
fn the_shortcut_list_shows_every_command_with_a_key() {
    use collidoscope::editor::Command;
    let mut h = house();
    key(&mut h, Modifiers::NONE, Key::F1);
    // A new window takes some frames to find its size and settle in place.
    h.run_steps(20);
    assert!(h.query_by_label("Keyboard shortcuts").is_some());
    for c in Command::ALL {
        let spec = c.spec();
        let line = match c {
            Command::SetTool(_) => format!("{} tool: {}", spec.name, spec.help),
            _ => spec.help.to_owned(),
        };
        assert!(
            spec.keys.is_empty() || h.query_all_by_label(&line).next().is_some(),
            "{line}"
        );
    }
    assert!(
        h.query_all_by_label("Ctrl+Shift+Z / Ctrl+Y")
            .next()
            .is_some()
    );
    click_label(&mut h, "Close");
    assert!(h.query_by_label("Keyboard shortcuts").is_none());
}

// ---- panels and views as used -------------------------------------------------------------------------------

#[test]
fn a_levels_saved_probe_shows_in_the_probe_tab_when_it_opens() {
    let mut h = house();
    click_label(&mut h, "Probe");
    assert!(
        h.query_by_label_contains("hit(s) within 40.00 m").is_some(),
        "the house's probe \"to the hall\" is cast at once"
    );
    assert!(
        h.query_all_by_label_contains("  wall #3").next().is_some(),
        "a hit row names the hall wall"
    );
}

#[test]
fn the_lower_panel_collapses_to_its_tabs_and_the_view_takes_the_room() {
    let mut h = house();
    let open = h.state().view_rect().height();
    click_label(&mut h, "Hide panel");
    let collapsed = h.state().view_rect().height();
    assert!(collapsed > open + 100.0, "{open} -> {collapsed}");
    assert!(
        h.query_by_label("No problems: the level is ready to simulate and export.")
            .is_none()
    );
    // A tab opens it again.
    click_label(&mut h, "Events");
    assert!((h.state().view_rect().height() - open).abs() < 1.0);
    assert!(h.query_by_label("Hide panel").is_some());
}

#[test]
fn the_status_bar_keeps_the_last_position_with_units() {
    let mut h = house();
    let p = screen(&h, 3.2, -1.05);
    h.event(Event::PointerMoved(p));
    h.run_steps(2);
    assert!(h.query_by_label("x 3.20 m  z -1.05 m").is_some());
    h.event(Event::PointerGone);
    h.run_steps(2);
    assert!(
        h.query_by_label("x 3.20 m  z -1.05 m").is_some(),
        "the last position stays when the pointer leaves the view"
    );
}

#[test]
fn walking_shows_the_walker_live_in_the_top_down_view() {
    let mut h = corridor();
    assert_eq!(
        h.state().live_walker(),
        None,
        "orbit mode: only the start marker"
    );
    click_label(&mut h, "Walker");
    // Turn away from the triangle, toward the wall at z = -4, and walk into it.
    h.state_mut().view3d.cam.walker.position = Vec2::new(3.0, 0.0);
    hold(&mut h, Key::W, 80);
    let live = h.state().live_walker().expect("walking");
    assert_eq!(live.position, h.state().view3d.cam.walker.position);
    assert!(live.position.y < -3.0, "{}", live.position);
    assert_eq!((live.radius, live.facing_deg), (0.3, 0.0));
    assert_eq!(
        live.blocked_by,
        Some(ObjectId(1)),
        "the wall it walked into"
    );
    click_label(&mut h, "Orbit");
    assert_eq!(h.state().live_walker(), None);
}

/// How many vertices are drawn in the selection colour this frame, and how wide they spread on screen.
fn selected_vertices(h: &Harness<'_, EditorApp>) -> (usize, f32) {
    use collidoscope::editor::theme::SELECTED;
    let xs: Vec<f32> = h
        .output()
        .shapes
        .iter()
        .filter_map(|c| match &c.shape {
            egui::Shape::Mesh(m) => Some(m.vertices.clone()),
            _ => None,
        })
        .flatten()
        .filter(|v| v.color == SELECTED)
        .map(|v| v.pos.x)
        .collect();
    let width =
        xs.iter().copied().fold(f32::MIN, f32::max) - xs.iter().copied().fold(f32::MAX, f32::min);
    (xs.len(), width.max(0.0))
}

/// The level's meshes are kept between frames: they must still follow the selection and the camera.
#[test]
fn the_kept_level_meshes_follow_the_selection_and_the_camera() {
    let mut h = house();
    h.run_steps(2);
    assert_eq!(selected_vertices(&h).0, 0);
    click(&mut h, -10.0, -0.1);
    assert!(h.state().doc.selection().contains(&ObjectId(3)));
    let (n, width) = selected_vertices(&h);
    assert!(n > 0, "the hall wall is drawn selected");
    // Zoomed in twice, the wall is drawn again for the new camera: twice as wide on screen.
    h.state_mut().view2d.cam.scale *= 2.0;
    h.run_steps(2);
    let (n2, width2) = selected_vertices(&h);
    assert_eq!(n2, n);
    assert!(
        (width2 - 2.0 * width).abs() < 0.05 * width,
        "{width} -> {width2}"
    );
    key(&mut h, Modifiers::NONE, Key::Escape);
    assert_eq!(selected_vertices(&h).0, 0, "deselected");
}

/// A recording of a game in the house: a character sliding toward the south wall and a ray at it, 20 frames.
fn house_recording(dir: &Path) -> std::path::PathBuf {
    use collidoscope::record::{Recorder, RecorderConfig};
    use collidoscope::scene::Scene;
    use collidoscope::shape::Ray;
    let level = Level::from_ron_str(collidoscope::editor::app::EMBEDDED_LEVEL).unwrap();
    let scene = Scene::from_level(&level).unwrap();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    let mut pos = Vec2::new(5.0, -10.0);
    for f in 0..20 {
        rec.begin_frame(f64::from(f) / 60.0);
        pos = rec.move_and_slide(&scene, pos, 0.3, Vec2::new(0.0, -0.5));
        rec.cast_ray(
            &scene,
            &Ray::new(Vec3::new(pos.x, 1.0, pos.y), -Vec3::Z),
            50.0,
        );
        if f == 10 {
            rec.mark("at the wall");
        }
    }
    let path = dir.join("game.crec");
    rec.save(&path).unwrap();
    path
}

#[test]
fn an_opened_recording_is_asked_again_of_the_edited_level() {
    let dir = tempfile::tempdir().unwrap();
    let path = house_recording(dir.path());
    let mut h = house();
    h.state_mut().open_recording(&path);
    h.run_steps(3);
    // In the tab's header and in the status bar's message.
    assert_eq!(h.query_all_by_label_contains("game.crec").count(), 2);
    h.get_by_label_contains("20 frames of \"house\"");
    h.get_by_label_contains("0 of 40 answers changed");
    assert_eq!(
        h.state().recording.as_ref().unwrap().marks(),
        [(10, "at the wall")]
    );
    // Select a query: it is drawn, and its detail shows what the game got.
    h.get_by_label_contains("2 of 2 queries");
    h.state_mut().recording.as_mut().unwrap().selected = Some(1);
    h.run_steps(2);
    h.get_by_label_contains("the game got");
    // Delete the south wall (what the game slid along and cast at): its answers change.
    let south = h
        .state()
        .doc
        .level()
        .walls
        .iter()
        .find(|w| w.name.as_deref() == Some("south"))
        .unwrap()
        .id;
    h.state_mut().doc.select_only([south]);
    h.key_press(Key::Delete);
    h.run_steps(3);
    let changed = h.state().recording.as_ref().unwrap().changed_count();
    assert!(changed >= 20, "{changed}");
    h.get_by_label_contains(&format!("{changed} of 40 answers changed"));
}

#[test]
fn a_game_streams_its_frames_to_the_listening_editor() {
    use collidoscope::record::{Recorder, RecorderConfig};
    let mut h = house();
    // A free port for this test.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    h.state_mut().live.port = Some(port);
    let ctx = h.ctx.clone();
    h.state_mut()
        .run_command(&ctx, collidoscope::editor::Command::ListenForGame);
    h.run_steps(2);
    h.get_by_label_contains(&format!("listening on 127.0.0.1:{port}"));
    let level = h.state().doc.level().clone();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    rec.connect(std::net::SocketAddr::from(([127, 0, 0, 1], port)))
        .unwrap();
    for f in 0..5 {
        rec.begin_frame(f64::from(f));
        rec.mark("tick");
    }
    rec.flush();
    for _ in 0..100 {
        h.run_steps(1);
        if h.state()
            .recording
            .as_ref()
            .is_some_and(|r| r.frames.len() == 5)
        {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert_eq!(h.state().recording.as_ref().unwrap().frames.len(), 5);
    h.get_by_label_contains("game connected: 5 frames, 0 dropped");
    h.get_by_label_contains("live from 127.0.0.1");
}

/// File → Open Recording in the editor's own dialog (no system file dialog): the field asks for a `.crec`
/// and starts in the level's folder (not at the level's own path), and OK opens the recording in its tab.
#[test]
fn open_recording_asks_for_a_recording_in_the_levels_folder() {
    use collidoscope::record::{Recorder, RecorderConfig};
    use collidoscope::scene::Scene;
    use collidoscope::shape::Ray;
    let dir = tempfile::tempdir().unwrap();
    let level_path = dir.path().join("room.ron");
    let level = Level::from_ron_str(collidoscope::editor::app::EMBEDDED_LEVEL).unwrap();
    level.save(&level_path).unwrap();
    let scene = Scene::from_level(&level).unwrap();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    for k in 0..3 {
        rec.begin_frame(f64::from(k) / 60.0);
        let _ = rec.cast_ray(
            &scene,
            &Ray::new(Vec3::new(0.0, 1.0, k as f32), Vec3::X),
            100.0,
        );
    }
    let rec_path = dir.path().join("game.crec");
    rec.save(&rec_path).unwrap();

    let mut h = harness(EditorApp::new(level, Some(level_path), options(None)));
    key(&mut h, Modifiers::COMMAND | Modifiers::SHIFT, Key::O);
    assert!(h.query_by_label("Open a game's recording").is_some());
    assert!(h.query_by_label("File path (.ron):").is_none());
    let field = h.get_by_role_and_label(Role::TextInput, "File path (.crec):");
    let folder = format!("{}{}", dir.path().display(), std::path::MAIN_SEPARATOR);
    assert_eq!(field.value().as_deref(), Some(folder.as_str()));
    type_into(
        &mut h,
        "File path (.crec):",
        &rec_path.display().to_string(),
    );
    click_label(&mut h, "OK");
    assert!(
        h.state().status.starts_with("opened recording"),
        "{}",
        h.state().status
    );
    assert_eq!(h.state().recording.as_ref().unwrap().frames.len(), 3);
}

#[path = "editor/movers.rs"]
mod movers;
