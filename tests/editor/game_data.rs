//! Game data in the editor, driven as a person would: the Entity and Trigger tools, the Entity types tab,
//! the inspector's typed fields, picking a point and a reference in the view, free-form properties, the
//! problems list focusing a field, and trigger events in the debugger.

use super::*;
use collidoscope::editor::debugger::panel::Tab;
use collidoscope::level::{TriggerShape, Value};

fn courtyard() -> Harness<'static, EditorApp> {
    let level = Level::from_ron_str(include_str!("../../levels/courtyard.ron")).unwrap();
    harness(EditorApp::new(level, None, options(None)))
}

fn select(h: &mut Harness<'_, EditorApp>, id: u32) {
    h.state_mut().doc.select_only([ObjectId(id)]);
    h.run_steps(3);
}

#[test]
fn the_entity_tool_places_the_palette_type_facing_the_drag() {
    let mut h = courtyard();
    key(&mut h, Modifiers::NONE, Key::E);
    assert_eq!(h.state().tools.tool, Tool::Entity);
    // The palette lists the level's types; pick "door".
    click_label(&mut h, "door");
    drag(&mut h, (-4.0, 4.0), (-6.0, 4.0), Modifiers::NONE);
    let level = h.state().doc.level();
    let e = level.entities.last().unwrap();
    assert_eq!(e.entity_type, "door");
    assert_eq!((e.position.x, e.position.z), (-4.0, 4.0));
    assert!((e.yaw_deg - 90.0).abs() < 1e-3, "facing -x: {}", e.yaw_deg);
    // The new entity is selected and the inspector shows its typed fields with the defaults.
    assert!(h.query_by_label("locked").is_some());
    assert!(h.query_by_label("tint").is_some());
    h.state_mut().undo();
    assert_eq!(h.state().doc.level().entities.len(), 6);
}

#[test]
fn the_trigger_tool_makes_boxes_spheres_and_prisms_from_clicks() {
    let mut h = harness(EditorApp::new(Level::default(), None, options(None)));
    key(&mut h, Modifiers::NONE, Key::V);
    assert_eq!(h.state().tools.tool, Tool::Trigger);
    click(&mut h, 0.0, 0.0);
    click(&mut h, 2.0, 3.0);
    click_label(&mut h, "Sphere");
    click(&mut h, 5.0, 5.0);
    click(&mut h, 5.0, 7.0);
    click_label(&mut h, "Prism");
    for (x, z) in [(-4.0, -4.0), (-1.0, -4.0), (-1.0, -1.0), (-2.5, -2.0)] {
        click(&mut h, x, z);
    }
    // Clicking the first corner again closes the outline.
    click(&mut h, -4.0, -4.0);
    let level = h.state().doc.level();
    let shapes: Vec<&TriggerShape> = level.triggers.iter().map(|t| &t.shape).collect();
    assert_eq!(shapes.len(), 3, "{shapes:?}");
    let TriggerShape::Aabb(b) = shapes[0] else {
        panic!("{:?}", shapes[0])
    };
    assert_eq!((b.min, b.max), (Vec3::ZERO, Vec3::new(2.0, 2.5, 3.0)));
    let TriggerShape::Sphere(s) = shapes[1] else {
        panic!("{:?}", shapes[1])
    };
    assert_eq!((s.center, s.radius), (Vec3::new(5.0, 2.0, 5.0), 2.0));
    let TriggerShape::Prism { points, .. } = shapes[2] else {
        panic!("{:?}", shapes[2])
    };
    assert_eq!(points.len(), 4);
    assert!(level.is_valid(), "{:?}", level.validate());
    // A prism in progress: Backspace drops the last corner, Esc abandons it; nothing is added.
    click(&mut h, 8.0, 8.0);
    click(&mut h, 9.0, 8.0);
    key(&mut h, Modifiers::NONE, Key::Backspace);
    key(&mut h, Modifiers::NONE, Key::Escape);
    key(&mut h, Modifiers::NONE, Key::Enter);
    assert_eq!(h.state().doc.level().triggers.len(), 3);
}

#[test]
fn entity_types_tab_adds_a_type_and_a_field_and_renames_in_one_step() {
    let mut h = courtyard();
    h.state_mut().panels.tab = Tab::EntityTypes;
    h.state_mut().panels.lower_collapsed = false;
    h.run_steps(3);
    type_into(&mut h, "New type", "crate");
    click_label(&mut h, "Add");
    assert!(h.state().doc.level().entity_type("crate").is_some());
    type_into(&mut h, "New field", "weight");
    click_label(&mut h, "Add field");
    let t = h.state().doc.level().entity_type("crate").unwrap();
    assert_eq!(t.fields.len(), 1);
    assert_eq!(t.fields[0].name, "weight");
    // A duplicate type name is refused with the reason.
    type_into(&mut h, "New type", "crate");
    click_label(&mut h, "Add");
    assert!(
        h.query_by_label_contains("a type called \"crate\" already exists")
            .is_some()
    );
    assert_eq!(h.state().doc.level().entity_types.len(), 5);
    // Renaming "pickup" (3 entities) through the model is one undo step.
    let before = h.state().doc.level().clone();
    let e = collidoscope::editor::document::game::rename_type(&before, "pickup", "loot").unwrap();
    h.state_mut().doc.apply(e.label, e.edit);
    assert_eq!(h.state().doc.level().entities_of("loot").count(), 3);
    h.state_mut().undo();
    assert_eq!(h.state().doc.level(), &before);
}

#[test]
fn entity_types_tab_marks_a_type_as_must_reach_in_one_step() {
    let mut h = courtyard();
    h.state_mut().panels.tab = Tab::EntityTypes;
    h.state_mut().panels.lower_collapsed = false;
    h.run_steps(3);
    // The first type is shown: "spawn".
    assert!(!h.state().doc.level().entity_types[0].must_reach);
    let before = h.state().doc.level().clone();
    h.get_by_label("must reach").click();
    h.run_steps(3);
    let level = h.state().doc.level();
    assert!(
        level.entity_types[0].must_reach,
        "{:?}",
        level.entity_types[0]
    );
    assert!(level.entity_types[1..].iter().all(|t| !t.must_reach));
    assert!(level.to_ron_string().contains("must_reach: true"));
    // The courtyard has a walker start: no warning.
    assert!(level.validate().is_empty(), "{:?}", level.validate());
    assert_eq!(
        h.state().doc.history().0.last().copied(),
        Some("\"spawn\" entities must be reached")
    );
    // Unticked again, then undone twice: the level as it was, byte for byte when saved.
    h.get_by_label("must reach").click();
    h.run_steps(3);
    assert!(!h.state().doc.level().entity_types[0].must_reach);
    h.state_mut().undo();
    assert!(h.state().doc.level().entity_types[0].must_reach);
    h.state_mut().undo();
    assert_eq!(h.state().doc.level(), &before);
    assert_eq!(
        h.state().doc.level().to_ron_string(),
        before.to_ron_string()
    );
}

#[test]
fn typed_fields_use_their_widgets_and_refuse_wrong_references() {
    let mut h = courtyard();
    // The door's "locked" is a checkbox; its default is true, so one click makes it false.
    select(&mut h, 34);
    h.get_by_label("locked").click();
    h.run_steps(3);
    let door = h.state().doc.level().entity(ObjectId(34)).unwrap().clone();
    assert_eq!(door.fields.get("locked"), Some(&Value::Bool(false)));
    // The switch's "opens" must be a door: picking a wall in the view is refused with the reason.
    select(&mut h, 35);
    let pick = h
        .get_all_by_label("Pick")
        .next()
        .expect("a pick button beside the reference");
    pick.click();
    h.run_steps(3);
    assert!(h.state().inspector.pick.is_some());
    click(&mut h, 0.0, -10.0); // the south wall
    assert!(
        h.state().status.contains("not a \"door\" entity"),
        "{}",
        h.state().status
    );
    let switch = h.state().doc.level().entity(ObjectId(35)).unwrap();
    assert_eq!(switch.fields.get("opens"), Some(&Value::Ref(ObjectId(34))));
    // Esc cancels the pick.
    key(&mut h, Modifiers::NONE, Key::Escape);
    assert!(h.state().inspector.pick.is_none());
}

#[test]
fn a_point_property_is_added_then_picked_in_the_view() {
    let mut h = courtyard();
    select(&mut h, 1);
    type_into(&mut h, "New property", "anchor");
    // The kind combo (Bool first), then Point.
    h.get_by_role_and_label(Role::ComboBox, "New property")
        .click();
    h.run_steps(3);
    click_label(&mut h, "Point");
    click_label(&mut h, "Add");
    let wall = h.state().doc.object(ObjectId(1)).unwrap();
    assert_eq!(
        wall.properties().get("anchor"),
        Some(&Value::Point((0.0, 0.0, 0.0)))
    );
    h.get_all_by_label("Pick").next().unwrap().click();
    h.run_steps(3);
    click(&mut h, 3.0, -4.0);
    let wall = h.state().doc.object(ObjectId(1)).unwrap();
    assert_eq!(
        wall.properties().get("anchor"),
        Some(&Value::Point((3.0, 0.0, -4.0)))
    );
    // Adding, then picking: two undo steps.
    h.state_mut().undo();
    h.state_mut().undo();
    assert!(
        !h.state()
            .doc
            .object(ObjectId(1))
            .unwrap()
            .properties()
            .contains_key("anchor")
    );
}

#[test]
fn a_problem_selects_the_entity_and_focuses_its_field() {
    let mut level = Level::from_ron_str(include_str!("../../levels/courtyard.ron")).unwrap();
    level.entities[0].fields.clear(); // the spawn's required "team"
    let mut h = harness(EditorApp::new(level, None, options(None)));
    h.get_by_label_contains("entities[0].fields.team").click();
    h.run_steps(4);
    let selected: Vec<u32> = h.state().doc.selection().iter().map(|i| i.0).collect();
    assert_eq!(selected, vec![30]);
    assert!(
        h.state().inspector.focus.is_none(),
        "the inspector took the focus request"
    );
    assert!(h.query_by_label("team").is_some());
}

#[test]
fn balls_crossing_a_trigger_show_enter_and_leave_on_the_events_tab() {
    let level = Level::from_ron_str(
        r#"(version: 2,
            balls: [(id: 1, center: (0.0, 0.5, 0.0), velocity: (4.0, 0.0, 0.0), radius: 0.5, mass: 1.0, restitution: 1.0)],
            triggers: [(id: 2, name: "gate", shape: Aabb((min: (2.0, 0.0, -1.0), max: (3.0, 2.0, 1.0))))],
            simulation: (gravity: (0.0, 0.0, 0.0), dt: 0.05),
        )"#,
    )
    .unwrap();
    let mut h = harness(EditorApp::new(level, None, options(None)));
    for _ in 0..30 {
        key(&mut h, Modifiers::NONE, Key::Period);
    }
    let d = h.state().debug.debugger.as_ref().unwrap();
    let events: Vec<(bool, f64)> = d
        .frames()
        .iter()
        .flat_map(|f| {
            f.triggers
                .iter()
                .map(move |t| (t.entered, f.time - 0.05 + f64::from(t.time)))
        })
        .collect();
    // Enters when its front reaches x = 2 (centre 1.5: t = 0.375 s), leaves when its back passes x = 3
    // (centre 3.5: t = 0.875 s).
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(
        events[0].0 && (events[0].1 - 0.375).abs() < 1e-4,
        "{events:?}"
    );
    assert!(
        !events[1].0 && (events[1].1 - 0.875).abs() < 1e-4,
        "{events:?}"
    );
    h.state_mut().panels.tab = Tab::Events;
    h.state_mut().panels.lower_collapsed = false;
    h.run_steps(3);
    assert!(h.query_by_label_contains("entered trigger #2").is_some());
    assert!(h.query_by_label_contains("left trigger #2").is_some());
}
