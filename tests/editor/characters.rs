//! Characters in the editor, driven as a person would: the level's character in the inspector (typed
//! values, refusals with the runtime's reason, one undo step per field, Add and Remove), and a 3D level read
//! from above: a mesh picked by the triangle under the pointer, not by its hull.

use super::*;
use collidoscope::character::CharacterController;

/// A level with a walker start and no character of its own; the lower panel folded, so the inspector has
/// the room to show the whole Character section.
fn open_room() -> Harness<'static, EditorApp> {
    let level = Level::from_ron_str(
        r#"(version: 2, name: "room",
            walls: [(id: 1, a: (-5.0, -5.0), b: (5.0, -5.0), radius: 0.1)],
            walker: (position: (0.0, 0.0), facing_deg: 0.0, eye_height: 1.7, radius: 0.25),
        )"#,
    )
    .unwrap();
    let mut h = harness(EditorApp::new(level, None, options(None)));
    h.state_mut().panels.lower_collapsed = true;
    h.run_steps(3);
    h
}

/// Click a button of the inspector, scrolled into view first.
fn press(h: &mut Harness<'_, EditorApp>, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run_steps(2);
    // The pointer over it first, a frame apart (the accessibility tree lags the scroll by a frame).
    let r = h.get_by_label(label).rect();
    h.hover_at(r.center());
    h.run_steps(2);
    click_label(h, label);
}

fn history_len(h: &Harness<'_, EditorApp>) -> usize {
    h.state().doc.history().1
}

#[test]
fn the_characters_fields_edit_in_one_step_each_refuse_with_the_reason_and_undo() {
    let mut h = open_room();
    assert_eq!(h.state().doc.level().character, None);
    // The level's settings show the default character it uses.
    assert!(
        h.query_by_label("the default character (not in the level)")
            .is_some()
    );
    let steps = history_len(&h);
    // Typing a radius gives the level a character of its own: the defaults with that radius. The typing
    // passes through "0" and "0." (refused: not above 0) on its way; one undo step in all.
    type_into(&mut h, "radius", "0.45");
    let c = h.state().doc.level().character.unwrap();
    assert_eq!(
        c,
        CharacterController {
            radius: 0.45,
            ..CharacterController::default()
        }
    );
    assert_eq!(history_len(&h), steps + 1);
    assert!(h.query_by_label_contains("refused:").is_none());
    // A radius over half the height breaks the height's rule: refused, the runtime's reason beside it.
    type_into(&mut h, "radius", "1.0");
    assert!(
        h.query_by_label_contains("refused: height must be at least twice the radius, 2 (is 1.8)")
            .is_some()
    );
    assert_eq!(h.state().doc.level().character.unwrap().radius, 0.45);
    assert_eq!(history_len(&h), steps + 1);
    // Another field is another step; a whole number of iterations.
    type_into(&mut h, "max_iterations", "2.5");
    assert!(
        h.query_by_label_contains("refused: must be a whole number")
            .is_some()
    );
    type_into(&mut h, "max_slope_deg", "50");
    assert!(
        h.query_by_label_contains("refused: must be a whole number")
            .is_some(),
        "the iterations' refusal stays until the field takes a valid value"
    );
    assert_eq!(h.state().doc.level().character.unwrap().max_slope_deg, 50.0);
    assert_eq!(history_len(&h), steps + 2);
    h.state_mut().undo();
    assert_eq!(h.state().doc.level().character.unwrap().max_slope_deg, 45.0);
    h.state_mut().undo();
    assert_eq!(h.state().doc.level().character, None);
    h.state_mut().redo();
    assert_eq!(h.state().doc.level().character.unwrap().radius, 0.45);
}

#[test]
fn add_writes_the_default_character_and_remove_restores_the_default() {
    let mut h = open_room();
    press(&mut h, "Add a character");
    assert_eq!(
        h.state().doc.level().character,
        Some(CharacterController::default())
    );
    assert!(h.query_by_label("the level's own character").is_some());
    type_into(&mut h, "height", "2.1");
    assert_eq!(h.state().doc.level().character.unwrap().height, 2.1);
    press(&mut h, "Remove the character");
    assert_eq!(h.state().doc.level().character, None);
    // The fields show the default again.
    let height = h.get_by_role_and_label(Role::TextInput, "height");
    assert_eq!(height.value().as_deref(), Some("1.8"));
    h.state_mut().undo();
    assert_eq!(h.state().doc.level().character.unwrap().height, 2.1);
}

#[test]
fn a_character_problem_focuses_its_field() {
    let level = Level {
        character: Some(CharacterController {
            max_step: 5.0,
            ..CharacterController::default()
        }),
        ..Level::default()
    };
    let mut h = harness(EditorApp::new(level, None, options(None)));
    h.get_by_label_contains("character.max_step").click();
    h.run_steps(4);
    assert!(
        h.state().inspector.focus.is_none(),
        "the field took the focus"
    );
    type_into(&mut h, "max_step", "0.3");
    assert!(h.state().doc.level().is_valid());
}

/// An L of three 4 m squares seen from above, rising from y = 0 to 2: (0..8, 0..4) and (0..4, 4..8). The
/// corner (6, 6) is inside its hull but over no triangle.
fn l_shaped_mesh() -> Harness<'static, EditorApp> {
    let level = Level::from_ron_str(
        r#"(version: 2, name: "L",
            meshes: [(id: 7, vertices: [(0.0, 0.0, 0.0), (8.0, 2.0, 0.0), (8.0, 2.0, 4.0), (4.0, 1.0, 4.0), (4.0, 1.0, 8.0), (0.0, 0.0, 8.0)],
                      indices: [(0, 2, 1), (0, 3, 2), (0, 4, 3), (0, 5, 4)])],
        )"#,
    )
    .unwrap();
    harness(EditorApp::new(level, None, options(None)))
}

#[test]
fn a_mesh_is_picked_by_the_triangle_under_the_pointer_not_its_hull() {
    let mut h = l_shaped_mesh();
    let selected = |h: &Harness<'_, EditorApp>| {
        h.state()
            .doc
            .selection()
            .iter()
            .map(|i| i.0)
            .collect::<Vec<_>>()
    };
    click(&mut h, 6.0, 2.0);
    assert_eq!(selected(&h), vec![7]);
    click(&mut h, 2.0, 6.0);
    assert_eq!(selected(&h), vec![7]);
    // In the L's corner: inside the hull (the old footprint), over no triangle: nothing is picked.
    click(&mut h, 6.0, 6.0);
    assert_eq!(selected(&h), Vec::<u32>::new());
    // The same view draws the mesh by its edges, shaded by height: the level has a relief to draw.
    let relief = h.state().height_range().unwrap();
    assert_eq!((relief.low, relief.high), (0.0, 2.0));
    // The legend's height under the pointer: the surface's own there.
    let y = h.state().surface_height(Vec2::new(8.0, 2.0)).unwrap();
    assert!((y - 2.0).abs() < 1e-5, "{y}");
    assert_eq!(h.state().surface_height(Vec2::new(6.0, 6.0)), None);
}
