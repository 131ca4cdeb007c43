//! A Ctrl+wheel height change in the 3D preview becomes one undo step when the wheel goes quiet, with no
//! input after the last notch (it once waited for the next input event: under a virtual display, until the
//! pointer moved). The preview asks for a frame just past the quiet time, and that frame ends the gesture.

use super::*;
use egui::{MouseWheelSource, MouseWheelUnit, TouchPhase, ViewportId};

/// The delay before the next frame the last one asked for.
fn repaint_delay(h: &Harness<'_, EditorApp>) -> f64 {
    h.output().viewport_output[&ViewportId::ROOT]
        .repaint_delay
        .as_secs_f64()
}

#[test]
fn a_wheel_height_change_is_one_undo_step_when_the_wheel_goes_quiet_without_input() {
    let level = Level::from_ron_str(
        "(version: 3, aabbs: [(id: 9, min: (-0.5, 0.0, -0.5), max: (0.5, 1.0, 0.5))])",
    )
    .unwrap();
    let mut h = harness3d(EditorApp::new(level, None, options(None)));
    let at = h.state().view3d.project(Vec3::new(0.0, 1.0, 0.0)).unwrap();
    h.event(Event::PointerMoved(at));
    h.run_steps(2);
    assert!(h.state().view3d.heights.hover.is_some(), "the box is aimed");
    let steps = h.state().doc.history().1;
    h.event(Event::ModifiersChanged(Modifiers::CTRL));
    h.event(Event::MouseWheel {
        unit: MouseWheelUnit::Line,
        delta: egui::vec2(0.0, 1.0),
        phase: TouchPhase::Move,
        source: MouseWheelSource::Unknown,
        modifiers: Modifiers::CTRL,
    });
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.step();
    // The frames the edit asks for at once (as a window's loop runs them), then no more input: the last
    // frame asked for the next one at the end of the quiet time, not sooner.
    h.run_ok().unwrap();
    assert!(h.state().view3d.heights.gesture.is_some());
    let delay = repaint_delay(&h);
    let now = h.ctx.input(|i| i.time);
    let deadline = h.state().view3d.heights.deadline().unwrap();
    assert!(
        now + delay >= deadline && now + delay <= deadline + 0.01,
        "a frame asked for {delay} s on at {now} s, the wheel quiet at {deadline} s"
    );
    // That one frame, and no other, ends the gesture as one undo step.
    h.input_mut().time = Some(now + delay);
    h.step();
    assert!(h.state().view3d.heights.gesture.is_none());
    assert_eq!(h.state().doc.history().1, steps + 1);
    assert_eq!(
        h.state().doc.history().0.last().copied(),
        Some("Raise box #9 by 0.50 m")
    );
    assert_eq!(h.state().doc.level().aabbs[0].max.y, 1.5);
}
