//! Movers in the editor: Walk mode riding the sample level's lift and stepping back through the ride, the
//! debugger playing a ball on a moving paddle back and forth exactly, and a mover made with the Mover tool
//! by mouse and keys, then undone.

use super::*;
use collidoscope::editor::character::CharacterWalk;
use collidoscope::shape::Ray;

fn movers_level() -> (Level, std::path::PathBuf) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/movers.ron");
    (Level::load(&path).unwrap(), path)
}

#[test]
fn walk_mode_rides_the_lift_and_steps_back_through_the_ride() {
    let (level, path) = movers_level();
    let mut h = harness3d(EditorApp::new(level, Some(path), options(None)));
    click_label(&mut h, "Walk");
    assert_eq!(h.state().view3d.cam.mode, CameraMode::Walk);
    // On the lift (box 40, top 0.2 m) at the walk's time 0.
    h.state_mut().view3d.character = CharacterWalk::new(Vec3::new(-5.0, 0.21, 1.0));
    h.run_steps(40);
    let c = &h.state().view3d.character;
    let carried = c
        .moves()
        .iter()
        .flat_map(|m| &m.result.movers)
        .any(|e| matches!(e, collidoscope::character::MoverEvent::Carried { object, .. } if *object == ObjectId(40)));
    assert!(carried, "carried by the lift");
    assert!(c.body.feet.y > 1.0, "rode up: {}", c.body.feet);
    assert!(
        c.moves().iter().all(|m| m.after.grounded),
        "grounded every step"
    );
    // Pause (Q) and step back through the ride (Alt+,): each selected move's body stands on the lift where
    // the lift was at that move's time.
    key(&mut h, Modifiers::NONE, Key::Q);
    assert!(h.state().view3d.character.paused);
    let skin = collidoscope::character::CharacterController::default().skin;
    for _ in 0..10 {
        key(&mut h, Modifiers::ALT, Key::Comma);
        let c = &h.state().view3d.character;
        let m = c.selected_move().unwrap().clone();
        let mut scene = c.timed_scene().unwrap().clone();
        scene.set_time(c.shown_time());
        let top = scene
            .cast_ray(&Ray::new(m.after.feet + Vec3::Y, Vec3::NEG_Y), 10.0)
            .unwrap();
        assert_eq!(top.object, ObjectId(40));
        let gap = m.after.feet.y - top.point.y;
        assert!(gap >= 0.0 && gap <= 2.0 * skin, "feet {gap} above the lift");
    }
}

#[test]
fn the_debugger_plays_the_paddle_and_steps_back_exactly() {
    let (level, path) = movers_level();
    let mut h = harness(EditorApp::new(level, Some(path), options(None)));
    let ball = |h: &Harness<'_, EditorApp>| {
        h.state().debug.debugger.as_ref().unwrap().world().balls()[0].center
    };
    let mut history = Vec::new();
    for _ in 0..40 {
        key(&mut h, Modifiers::NONE, Key::Period);
        history.push(ball(&h));
    }
    for n in (1..40).rev() {
        key(&mut h, Modifiers::NONE, Key::Comma);
        assert_eq!(ball(&h), history[n - 1], "back to frame {n}");
    }
}

#[test]
fn make_a_mover_with_the_tool_by_mouse_and_keys_then_undo_it() {
    let level = Level::from_ron_str(
        r#"(version: 3,
        aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (2.0, 0.2, 2.0))],
        planes: [(id: 2, normal: (0.0, 1.0, 0.0), d: 0.0)])"#,
    )
    .unwrap();
    let mut h = harness(EditorApp::new(level, None, options(None)));
    // The view frames the 2 m box at about 230 px/m, which puts the path's points (up to 4 m away) off
    // the view: the clicks there reached no widget. Frame the whole path instead.
    h.state_mut().view2d.cam.center = Vec2::new(3.0, 2.5);
    h.state_mut().view2d.cam.scale = 60.0;
    h.run_steps(1);
    key(&mut h, Modifiers::NONE, Key::L);
    assert_eq!(h.state().tools.tool, Tool::Mover);
    click(&mut h, 1.0, 1.0);
    click(&mut h, 5.0, 1.0);
    click(&mut h, 5.0, 4.0);
    click(&mut h, 2.0, 4.0);
    // Backspace drops the last point (and deletes nothing).
    key(&mut h, Modifiers::NONE, Key::Backspace);
    assert_eq!(h.state().doc.level().aabbs.len(), 1);
    key(&mut h, Modifiers::NONE, Key::Enter);
    let level = h.state().doc.level();
    assert_eq!(level.movers.len(), 1, "{}", h.state().status);
    let m = &level.movers[0];
    assert_eq!(m.object, ObjectId(1));
    assert_eq!(
        m.path,
        vec![
            Vec3::ZERO,
            Vec3::new(4.0, 0.0, 0.0),
            Vec3::new(4.0, 0.0, 3.0)
        ]
    );
    assert!(level.is_valid(), "{:?}", level.validate());
    // One undo step.
    key(&mut h, Modifiers::COMMAND, Key::Z);
    assert!(h.state().doc.level().movers.is_empty());
    assert_eq!(h.state().doc.level().aabbs.len(), 1);
}

/// A box moved by a mover, a trigger to start it on, and a one-way box; the box selected, the lower panel
/// folded so the inspector has the height.
fn mover_inspector() -> Harness<'static, EditorApp> {
    let level = Level::from_ron_str(
        r#"(version: 3,
        aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (2.0, 0.2, 2.0)),
                (id: 4, min: (5.0, 1.0, 0.0), max: (7.0, 1.1, 2.0))],
        triggers: [(id: 3, name: "plate", shape: Sphere((center: (0.0, 1.0, 4.0), radius: 1.0)))],
        movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (4.0, 0.0, 0.0), (4.0, 0.0, 3.0)],
            speed: 1.0)])"#,
    )
    .unwrap();
    let mut h = harness(EditorApp::new(level, None, options(None)));
    h.state_mut().panels.lower_collapsed = true;
    h.state_mut().doc.select_only([ObjectId(1)]);
    h.run_steps(3);
    h
}

/// Click a widget of the inspector, scrolled into view first (the tree lags the scroll by a frame).
fn press_in_inspector(h: &mut Harness<'_, EditorApp>, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run_steps(2);
    let r = h.get_by_label(label).rect();
    h.hover_at(r.center());
    h.run_steps(2);
    click_label(h, label);
}

fn the_mover(h: &Harness<'_, EditorApp>) -> collidoscope::level::MoverObject {
    h.state().doc.level().movers[0].clone()
}

#[test]
fn the_inspector_edits_a_mover_one_undo_step_each_and_refuses_bad_values() {
    use collidoscope::level::{MoverStart, Repeat};
    let mut h = mover_inspector();
    assert!(h.query_by_label_contains("Mover #2").is_some());
    let steps = h.state().doc.history().1;
    // A speed of 0 is refused with the reason and changes nothing; 3 is one undo step.
    type_into(&mut h, "speed", "0");
    assert!(
        h.query_by_label_contains("must be greater than 0")
            .is_some()
    );
    assert_eq!(the_mover(&h).speed, 1.0);
    type_into(&mut h, "speed", "3");
    assert_eq!(the_mover(&h).speed, 3.0);
    key(&mut h, Modifiers::NONE, Key::Tab);
    type_into(&mut h, "wait", "0.25");
    key(&mut h, Modifiers::NONE, Key::Tab);
    press_in_inspector(&mut h, "Loop");
    assert_eq!(the_mover(&h).repeat, Repeat::Loop);
    // The start: on the level's trigger, chosen from the list.
    h.get_by_role_and_label(Role::ComboBox, "start").click();
    h.run_steps(3);
    click_label(&mut h, "on trigger #3 \"plate\"");
    assert_eq!(the_mover(&h).start, MoverStart::OnTrigger(ObjectId(3)));
    // The second point's height, then the first path point after the start deleted.
    type_into(&mut h, "point 2 y", "1.5");
    key(&mut h, Modifiers::NONE, Key::Tab);
    assert_eq!(the_mover(&h).path[2], Vec3::new(4.0, 1.5, 3.0));
    let deletes = h.query_all_by_label("Delete").count();
    assert_eq!(deletes, 2, "points 1 and 2 can go");
    h.get_all_by_label("Delete").next().unwrap().click();
    h.run_steps(3);
    assert_eq!(
        the_mover(&h).path,
        vec![Vec3::ZERO, Vec3::new(4.0, 1.5, 3.0)]
    );
    assert!(
        h.query_all_by_label("Delete").next().is_none(),
        "a path keeps two points"
    );
    assert!(h.state().doc.level().is_valid());
    // speed, wait, repeat, start, height, delete: six steps; undone one by one.
    assert_eq!(h.state().doc.history().1, steps + 6);
    for _ in 0..6 {
        h.state_mut().undo();
    }
    assert_eq!(the_mover(&h).speed, 1.0);
    assert_eq!(the_mover(&h).path.len(), 3);
    assert_eq!(the_mover(&h).start, MoverStart::Always);
}

#[test]
fn the_one_way_checkbox_flags_a_box_in_one_step() {
    let mut h = mover_inspector();
    h.state_mut().doc.select_only([ObjectId(4)]);
    h.run_steps(3);
    assert!(
        h.query_by_label_contains("Mover #").is_none(),
        "box 4 does not move"
    );
    press_in_inspector(&mut h, "one-way");
    assert!(h.state().doc.level().aabbs[1].one_way);
    h.state_mut().undo();
    assert!(!h.state().doc.level().aabbs[1].one_way);
}

#[test]
fn the_drawn_movers_follow_the_debuggers_step_step_back_and_scrub_exactly() {
    let (level, path) = movers_level();
    let mut h = harness(EditorApp::new(level.clone(), Some(path), options(None)));
    let lift = ObjectId(41);
    let drawn = |h: &Harness<'_, EditorApp>| h.state().movers_clock().offset(&level, lift);
    let world = |h: &Harness<'_, EditorApp>| {
        let d = h.state().debug.debugger.as_ref().unwrap();
        let m = d.world().scene().movers();
        m.iter().find(|m| m.mover == lift).unwrap().offset
    };
    assert_eq!(drawn(&h), Vec3::ZERO, "the level's time 0");
    let mut history = Vec::new();
    for _ in 0..30 {
        key(&mut h, Modifiers::NONE, Key::Period);
        assert_eq!(drawn(&h), world(&h));
        history.push(drawn(&h));
    }
    assert!(
        history[29].y > history[0].y,
        "the lift rose: {:?}",
        history[29]
    );
    for n in (1..30).rev() {
        key(&mut h, Modifiers::NONE, Key::Comma);
        assert_eq!(drawn(&h), history[n - 1], "back to frame {n}");
    }
    // Scrub: straight to frame 20 and back to 5.
    for k in [20, 5] {
        h.state_mut().debug.debugger.as_mut().unwrap().seek(k);
        h.run_steps(1);
        assert_eq!(drawn(&h), history[k - 1], "scrubbed to frame {k}");
    }
}

/// The highest point of the moved solids drawn over the lift's footprint (box 40: x -6..-4, z 0..2).
fn lift_top(h: &Harness<'_, EditorApp>) -> f32 {
    let s = &h.state().view3d.moved_shown().solids;
    s.data
        .chunks(collidoscope::editor::view3d::scene::SOLID_FLOATS)
        .filter(|v| (-6.0..=-4.0).contains(&v[0]) && (0.0..=2.0).contains(&v[2]))
        .map(|v| v[1])
        .fold(f32::NEG_INFINITY, f32::max)
}

#[test]
fn the_lift_rises_in_the_3d_preview_while_the_static_scene_stays_uploaded() {
    let (level, path) = movers_level();
    let mut h = harness3d(EditorApp::new(level.clone(), Some(path), options(None)));
    click_label(&mut h, "Walk");
    h.run_steps(2);
    let statics = h.state().view3d.statics_generation();
    let mut tops = Vec::new();
    for _ in 0..40 {
        h.run_steps(1);
        // Drawn where the shown clock has the lift: its level top (0.2 m) plus the offset, to the bit.
        let lift = h.state().movers_clock().offset(&level, ObjectId(41));
        assert_eq!(lift_top(&h), 0.2 + lift.y);
        tops.push(lift_top(&h));
    }
    assert!(tops[39] > tops[0] + 0.5, "the lift rose: {tops:?}");
    assert_eq!(
        h.state().view3d.statics_generation(),
        statics,
        "time going on rebuilt no static scene"
    );
}

/// A box moved along a two-point path, selected, in the 3D preview (the lower panel folded).
fn a_selected_mover_in_3d() -> Harness<'static, EditorApp> {
    let level = Level::from_ron_str(
        r#"(version: 3,
        aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (2.0, 0.2, 2.0))],
        movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (3.0, 1.0, 0.0)], speed: 1.0)])"#,
    )
    .unwrap();
    let mut h = harness3d(EditorApp::new(level, None, options(None)));
    h.state_mut().panels.lower_collapsed = true;
    h.state_mut().doc.select_only([ObjectId(1)]);
    h.run_steps(3);
    h
}

fn ctrl_wheel(h: &mut Harness<'_, EditorApp>, notches: f32) {
    use egui::{MouseWheelSource, MouseWheelUnit, TouchPhase};
    h.event(Event::ModifiersChanged(Modifiers::CTRL));
    h.event(Event::MouseWheel {
        unit: MouseWheelUnit::Line,
        delta: egui::vec2(0.0, notches),
        phase: TouchPhase::Move,
        source: MouseWheelSource::Unknown,
        modifiers: Modifiers::CTRL,
    });
    h.step();
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.step();
}

#[test]
fn a_path_point_is_raised_in_3d_by_the_wheel_in_one_undo_step() {
    let mut h = a_selected_mover_in_3d();
    // The second point: the box's centre (1, 0.1, 1) plus (3, 1, 0).
    let point = Vec3::new(4.0, 1.1, 1.0);
    let at = h.state().view3d.project(point).unwrap();
    h.event(Event::PointerMoved(at));
    h.run_steps(2);
    let hover = h.state().view3d.points.hover.unwrap();
    assert_eq!((hover.mover, hover.index), (ObjectId(2), 1));
    let steps = h.state().doc.history().1;
    let step = h.state().tools.snap_step;
    ctrl_wheel(&mut h, 1.0);
    ctrl_wheel(&mut h, 1.0);
    let g = h.state().view3d.points.gesture.clone().unwrap();
    assert_eq!(g.height(), 1.0 + 2.0 * step);
    assert_eq!(
        h.state().doc.level().movers[0].path[1].y,
        1.0,
        "written once, at the end"
    );
    // The wheel goes quiet: one step.
    h.run_steps(12);
    assert!(h.state().view3d.points.gesture.is_none());
    let m = &h.state().doc.level().movers[0];
    assert_eq!(m.path[1], Vec3::new(3.0, 1.0 + 2.0 * step, 0.0));
    assert_eq!(h.state().doc.history().1, steps + 1);
    assert_eq!(h.state().doc.selection().len(), 1, "still selected");
    h.state_mut().undo();
    assert_eq!(h.state().doc.level().movers[0].path[1].y, 1.0);
}

#[test]
fn the_debuggers_step_and_step_back_move_the_lifts_solid_exactly() {
    let (level, path) = movers_level();
    let mut h = harness3d(EditorApp::new(level.clone(), Some(path), options(None)));
    let statics = h.state().view3d.statics_generation();
    let mut tops = Vec::new();
    for _ in 0..15 {
        key(&mut h, Modifiers::NONE, Key::Period);
        let lift = h.state().movers_clock().offset(&level, ObjectId(41));
        assert_eq!(lift_top(&h), 0.2 + lift.y);
        tops.push(lift_top(&h));
    }
    assert!(tops[14] > tops[0], "the lift rose: {tops:?}");
    for n in (1..15).rev() {
        key(&mut h, Modifiers::NONE, Key::Comma);
        assert_eq!(lift_top(&h), tops[n - 1], "back to frame {n}");
    }
    assert_eq!(h.state().view3d.statics_generation(), statics);
}
