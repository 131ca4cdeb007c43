//! Walk mode: the level's character in the 3D preview, moved with the keys as a person would (the pointer
//! over the preview), the Character tab naming why a move ended short, pause and stepping through the moves,
//! and a game's recorded character moves asked again of the edited level.

use super::*;
use collidoscope::character::Limit;
use collidoscope::editor::Command;
use collidoscope::editor::debugger::panel::Tab;
use collidoscope::editor::document::{Edit, LabelledEdit, Object};
use collidoscope::record::{QueryRecord, Recorder, RecorderConfig};
use collidoscope::scene::Scene;

fn playground() -> Harness<'static, EditorApp> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/playground.ron");
    let level = Level::load(&path).unwrap();
    harness3d(EditorApp::new(level, Some(path), options(None)))
}

fn feet(h: &Harness<'_, EditorApp>) -> Vec3 {
    h.state().view3d.character.body.feet
}

/// Hold `k` (Shift too when `run`) with the pointer over the 3D preview until `done` holds, at most `max`
/// frames of 0.05 s; returns the frames it took.
fn hold_until(
    h: &mut Harness<'_, EditorApp>,
    k: Key,
    run: bool,
    max: usize,
    done: impl Fn(&EditorApp) -> bool,
) -> usize {
    let c = h.state().view3d.rect.center();
    h.event(Event::PointerMoved(c));
    if run {
        h.event(Event::ModifiersChanged(Modifiers::SHIFT));
    }
    h.key_down(k);
    let mut frames = 0;
    while frames < max && !done(h.state()) {
        h.step();
        frames += 1;
    }
    h.key_up(k);
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.run_steps(3);
    frames
}

#[test]
fn walk_up_the_low_stairs_with_keys_and_be_blocked_by_the_high_riser() {
    let mut h = playground();
    click_label(&mut h, "Walk");
    assert_eq!(h.state().view3d.cam.mode, CameraMode::Walk);
    // The character stands on the floor under the walker's start, its eyes at 1.7 m.
    let start = feet(&h);
    assert!(
        (start - Vec3::new(-1.0, 0.01, 0.0)).length() < 1e-3,
        "{start}"
    );
    let (eye, _) = h.state().view3d.cam.eye_forward(None);
    assert!((eye.y - 1.71).abs() < 1e-3, "{eye}");
    // Run west (A: left of the facing, −z) to the low stairs' foot: A walks, it does not pick a tool.
    hold_until(&mut h, Key::A, true, 80, |s| {
        s.view3d.character.body.feet.x < -16.3
    });
    assert_eq!(h.state().tools.tool, Tool::Select);
    assert!(h.state().view3d.character.body.grounded);
    // W up the 0.2 m stairs onto their landing, 1 m up: five risers climbed.
    hold_until(&mut h, Key::W, false, 80, |s| {
        s.view3d.character.body.feet.z < -6.8
    });
    let f = feet(&h);
    assert!((f.y - 1.01).abs() < 0.01, "on the landing: {f}");
    let climbed: f32 = h
        .state()
        .view3d
        .character
        .moves()
        .iter()
        .map(|m| m.result.stepped_up)
        .sum();
    assert!((climbed - 1.0).abs() < 0.01, "{climbed}");
    // Back down, east along the front of the stairs, then north into the 0.42 m riser.
    hold_until(&mut h, Key::S, false, 80, |s| {
        s.view3d.character.body.feet.z > -2.5
    });
    assert!(feet(&h).y < 0.05);
    hold_until(&mut h, Key::D, true, 80, |s| {
        s.view3d.character.body.feet.x > -6.5
    });
    // Held against it, Q pauses the character on the move that was refused.
    let c = h.state().view3d.rect.center();
    h.event(Event::PointerMoved(c));
    h.key_down(Key::W);
    h.run_steps(30);
    key(&mut h, Modifiers::NONE, Key::Q);
    h.key_up(Key::W);
    h.run_steps(2);
    let f = feet(&h);
    assert!(
        f.y < 0.05 && f.z > -4.0 - 0.3 - 0.02,
        "stopped at the riser: {f}"
    );
    let last = h.state().view3d.character.last().unwrap().clone();
    assert!(
        matches!(last.result.limit, Some(Limit::StepTooHigh { object, .. }) if object == ObjectId(133)),
        "{:?}",
        last.result.limit
    );
    // Pausing opened the Character tab on that move, which names the riser and the box.
    let named = "riser 0.42 m is above max_step 0.35 m: box (AABB) #133";
    let s = h.state();
    assert!(s.view3d.character.paused);
    assert_eq!(s.panels.tab, Tab::Character);
    assert_eq!(s.view3d.character.selected, Some(last.tick));
    // In the list (its row scrolled into view, in red) and in the selected move's workings.
    assert!(
        h.query_all_by_label_contains(named).count() >= 2,
        "the tab names it"
    );
    // Its step-up attempt against box #133, refused.
    assert!(
        last.result
            .trace
            .steps
            .iter()
            .all(|s| !s.taken && s.obstacle == ObjectId(133))
    );
    h.get_by_label_contains("Step-up attempts").scroll_to_me();
    h.run_steps(2);
    assert!(h.query_by_label_contains("refused: ").is_some());
    // The selected move is drawn in both views: its capsules in 3D, its footprints in the top-down view.
    assert!(h.state().selected_character_move().is_some());
    // Frozen: W moves nothing while paused.
    hold_until(&mut h, Key::W, false, 10, |_| false);
    assert_eq!(feet(&h), f);
    assert_eq!(h.state().view3d.character.last().unwrap().tick, last.tick);
    // Replayed from the inputs it keeps, the ring's moves come again bit for bit.
    let s = h.state();
    let scene = Scene::build(s.doc.level());
    let physics = collidoscope::editor::character::walk::physics(&s.doc, &scene);
    let (body, inputs) = s.view3d.character.inputs().unwrap();
    let again = collidoscope::editor::character::model::replay(&physics, &scene, body, &inputs);
    assert!(
        again
            .iter()
            .zip(s.view3d.character.moves())
            .all(|(a, b)| *a == b.result)
    );
}

#[test]
fn pause_and_step_through_the_moves_with_the_commands() {
    let mut h = playground();
    click_label(&mut h, "Walk");
    hold_until(&mut h, Key::W, false, 10, |_| false);
    let n = h.state().view3d.character.moves().len();
    assert!(n >= 20, "{n} moves");
    let newest = h.state().view3d.character.last().unwrap().tick;
    key(&mut h, Modifiers::NONE, Key::Q);
    assert_eq!(h.state().view3d.character.selected, Some(newest));
    // Alt+, twice back, Alt+. once forward: the debugger's own frame keys stay the debugger's.
    key(&mut h, Modifiers::ALT, Key::Comma);
    key(&mut h, Modifiers::ALT, Key::Comma);
    key(&mut h, Modifiers::ALT, Key::Period);
    assert_eq!(h.state().view3d.character.selected, Some(newest - 1));
    assert!(
        h.state().debug.debugger.is_none(),
        "the simulation did not step"
    );
    // Clicking a move in the list selects it; the tab shows its workings.
    h.get_by_label("Next move").click();
    h.run_steps(2);
    assert_eq!(h.state().view3d.character.selected, Some(newest));
    assert!(
        h.query_by_label_contains(&format!("Move {newest} at"))
            .is_some()
    );
    // Stepping forward at the newest move of a paused character makes one more move (a frame advance).
    key(&mut h, Modifiers::ALT, Key::Period);
    assert_eq!(h.state().view3d.character.selected, Some(newest + 1));
    assert_eq!(h.state().view3d.character.moves().len(), n + 1);
    // Resume, jump (E; Space stays the debugger's) and land.
    key(&mut h, Modifiers::NONE, Key::Q);
    assert!(!h.state().view3d.character.paused);
    let y0 = feet(&h).y;
    let c = h.state().view3d.rect.center();
    h.event(Event::PointerMoved(c));
    h.key_press(Key::E);
    let mut top = y0;
    for _ in 0..30 {
        h.step();
        top = top.max(feet(&h).y);
    }
    assert!(top > y0 + 0.8, "jumped {top}");
    assert!(h.state().view3d.character.body.grounded);
    assert_eq!(
        h.state().tools.tool,
        Tool::Select,
        "E jumped, it did not pick the entity tool"
    );
    // F4: the camera behind the character.
    let (eye, _) = h.state().view3d.cam.eye_forward(None);
    key(&mut h, Modifiers::NONE, Key::F4);
    let (behind, _) = h.state().view3d.cam.eye_forward(None);
    assert!(h.state().view3d.cam.character.third_person);
    assert!(behind.distance(eye) > 2.0);
    // The seeds' walker is its own mode and keeps its Stop / Slide / Ghost choice.
    click_label(&mut h, "Walker");
    assert_eq!(h.state().view3d.cam.mode, CameraMode::Walker);
    assert_eq!(h.state().view3d.walk_mode, WalkMode::Slide);
}

/// A recording of a character walking north at x = −16.5 onto the first of the playground's 0.2 m stairs
/// (box #121, its front at z = −4), one move a frame.
fn stairs_recording(dir: &Path) -> std::path::PathBuf {
    let level = Level::from_ron_str(include_str!("../../levels/playground.ron")).unwrap();
    let scene = Scene::from_level(&level).unwrap();
    let c = level.character.unwrap_or_default();
    let mut rec = Recorder::new(RecorderConfig::default(), &level);
    let mut feet = Vec3::new(-16.5, c.skin, -3.0);
    for f in 0..4 {
        rec.begin_frame(f64::from(f) / 60.0);
        feet = rec
            .move_character(&scene, &c, feet, Vec3::new(0.0, -0.01, -0.3))
            .feet;
    }
    assert!(
        feet.y > 0.2,
        "the recorded character climbed the step: {feet}"
    );
    let path = dir.join("stairs.crec");
    rec.save(&path).unwrap();
    path
}

#[test]
fn a_recorded_character_move_is_asked_again_of_the_edited_level_and_shown_with_its_workings() {
    let dir = tempfile::tempdir().unwrap();
    let path = stairs_recording(dir.path());
    let mut h = playground();
    h.state_mut().open_recording(&path);
    h.run_steps(3);
    assert_eq!(h.state().recording.as_ref().unwrap().changed_count(), 0);
    // Raise the first step to 0.5 m, above max_step: would the character still climb it? No.
    let Some(Object::Aabb(mut step)) = h.state().doc.object(ObjectId(121)) else {
        panic!("box #121 is the first step");
    };
    step.max.y = 0.5;
    let edit = Edit {
        replace: vec![Object::Aabb(step)],
        ..Edit::default()
    };
    let ctx = h.ctx.clone();
    h.state_mut().run_command(
        &ctx,
        Command::Apply(Box::new(LabelledEdit::new("raise the step", edit, None))),
    );
    h.run_steps(4);
    let s = h.state().recording.as_ref().unwrap();
    assert!(s.changed_count() >= 1, "raising the step changes a move");
    let changed = (0..s.frames.len()).find(|&f| s.changed(f, 0)).unwrap();
    h.state_mut().recording.as_mut().unwrap().seek(changed);
    h.state_mut().recording.as_mut().unwrap().selected = Some(0);
    h.run_steps(2);
    // The list marks it, the details say so, and the level's answer names the riser that now blocks.
    assert!(h.query_by_label_contains("changed by the edit").is_some());
    assert!(
        h.query_by_label_contains("stepped_up").is_some(),
        "the workings as recorded"
    );
    h.get_by_label("as the level answers now").scroll_to_me();
    h.run_steps(2);
    let r = h.get_by_label("as the level answers now").rect();
    h.hover_at(r.center());
    h.run_steps(2);
    h.get_by_label("as the level answers now").click();
    h.run_steps(2);
    assert!(h.state().recording.as_ref().unwrap().show_reasked);
    assert!(
        h.query_by_label_contains("riser 0.50 m is above max_step 0.35 m: box (AABB) #121")
            .is_some()
    );
    // Drawn in both views from the answer shown: where the riser stopped it.
    let marks = h.state().recording_move_marks().unwrap();
    assert!(marks.limit_at.is_some());
    assert!(matches!(
        h.state().recording.as_ref().unwrap().reasked(changed, 0),
        Some(QueryRecord::Character { .. })
    ));
}
