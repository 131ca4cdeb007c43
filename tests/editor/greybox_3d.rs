//! Heights edited in the 3D preview as a person would: the pointer on a sector's floor, two Ctrl+wheel
//! notches raising it as one undo step while its height and the riser it makes against `max_step` are
//! shown, then undone; a box raised the same way.

use super::*;
use collidoscope::editor::document::sector::Which;
use collidoscope::editor::heights::{Target, Verdict, WarnKind};
use egui::{MouseWheelSource, MouseWheelUnit, TouchPhase};

/// Two rooms side by side (floors at 0, ceilings at 3), with a box beyond them.
const ROOMS: &str = r"(version: 3,
    aabbs: [(id: 9, min: (11.0, 0.0, 1.0), max: (12.0, 1.0, 2.0))],
    sectors: [
        (id: 1, outline: [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)],
            floor: (height: 0.0), ceiling: (height: 3.0)),
        (id: 2, outline: [(4.0, 0.0), (8.0, 0.0), (8.0, 4.0), (4.0, 4.0)],
            floor: (height: 0.0), ceiling: (height: 3.0)),
    ])";

fn rooms() -> Harness<'static, EditorApp> {
    let level = Level::from_ron_str(ROOMS).unwrap();
    let mut h = harness3d(EditorApp::new(level, None, options(None)));
    h.run_steps(3);
    h
}

/// Put the pointer on world point `p` as the 3D preview shows it.
fn aim_at(h: &mut Harness<'_, EditorApp>, p: Vec3) {
    let at = h.state().view3d.project(p).unwrap();
    h.event(Event::PointerMoved(at));
    h.run_steps(2);
}

fn ctrl_wheel(h: &mut Harness<'_, EditorApp>, notches: f32) {
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

fn floor(h: &Harness<'_, EditorApp>, id: u32) -> f32 {
    h.state()
        .doc
        .level()
        .sectors
        .iter()
        .find(|s| s.id == ObjectId(id))
        .map_or(f32::NAN, |s| s.floor.height)
}

#[test]
fn raise_a_floor_two_steps_in_3d_as_one_undo_step_with_its_riser_shown() {
    let mut h = rooms();
    let steps = h.state().doc.history().0.len();
    aim_at(&mut h, Vec3::new(6.0, 0.0, 2.0));
    let heights = &h.state().view3d.heights;
    assert_eq!(
        heights.hover.map(|a| a.target),
        Some(Target::Sector {
            id: ObjectId(2),
            which: Which::Floor
        })
    );
    assert_eq!(
        heights.label(h.state().doc.level()).as_deref(),
        Some("floor 0.00 m")
    );
    // Two notches (the snap step is 0.5 m): the floor follows at once.
    ctrl_wheel(&mut h, 1.0);
    ctrl_wheel(&mut h, 1.0);
    assert_eq!(floor(&h, 2), 1.0);
    let label = h.state().view3d.heights.label(h.state().doc.level());
    assert_eq!(label.as_deref(), Some("floor 1.00 m (+1.00)"));
    let w = {
        let s = h.state_mut();
        s.view3d.heights.warnings(&s.doc)
    };
    let r = w.iter().find(|w| w.kind == WarnKind::Riser).unwrap();
    assert_eq!(r.verdict, Verdict::Over);
    assert_eq!(r.text(), "riser 1.00 m > max_step 0.35 m");
    // The wheel goes quiet: one step in the history.
    h.run_steps(12);
    assert!(h.state().view3d.heights.gesture.is_none());
    let (history, _) = h.state().doc.history();
    assert_eq!(history.len(), steps + 1);
    assert_eq!(
        history.last().copied(),
        Some("Raise floor of sector #2 by 1.00 m")
    );
    assert_eq!(floor(&h, 2), 1.0);
    key(&mut h, Modifiers::COMMAND, Key::Z);
    assert_eq!(floor(&h, 2), 0.0);
    assert_eq!(h.state().doc.history().1, steps);
}

#[test]
fn raise_a_box_in_3d() {
    let mut h = rooms();
    aim_at(&mut h, Vec3::new(11.5, 1.0, 1.5));
    assert!(matches!(
        h.state().view3d.heights.hover.map(|a| a.target),
        Some(Target::Solid {
            id: ObjectId(9),
            ..
        })
    ));
    ctrl_wheel(&mut h, 1.0);
    h.run_steps(12);
    let b = &h.state().doc.level().aabbs[0];
    assert_eq!((b.min.y, b.max.y), (0.5, 1.5));
    assert_eq!(
        h.state().doc.history().0.last().copied(),
        Some("Raise box #9 by 0.50 m")
    );
}
