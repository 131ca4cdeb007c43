//! The greybox builders driven as a person would: rooms dragged with the Room builder (3), a balcony raised
//! by its key, a 10-step stair dragged between them with the Stairs builder (1) rising to the balcony's floor,
//! undone and redone; a doorway dragged across the wall two rooms share (4), and built again from the two
//! rooms selected and Enter. Each build is one undo step.

use super::*;
use collidoscope::editor::command::Builder;
use collidoscope::level::SectorObject;

fn empty() -> Harness<'static, EditorApp> {
    harness(EditorApp::new(Level::default(), None, options(None)))
}

fn sectors(h: &Harness<'_, EditorApp>) -> Vec<SectorObject> {
    h.state().doc.level().sectors.clone()
}

/// The steps done (up to the history's cursor).
fn history(h: &Harness<'_, EditorApp>) -> Vec<String> {
    let (labels, cursor) = h.state().doc.history();
    labels[..cursor.min(labels.len())]
        .iter()
        .map(|l| l.to_string())
        .collect()
}

/// A click with `modifiers` held (Shift adds to the selection).
fn click_with(h: &mut Harness<'_, EditorApp>, x: f32, z: f32, modifiers: Modifiers) {
    let p = screen(h, x, z);
    h.event(Event::ModifiersChanged(modifiers));
    press(h, p, true, modifiers);
    press(h, p, false, modifiers);
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.run_steps(8);
}

#[test]
fn build_a_ten_step_stair_to_a_balcony_then_undo_and_redo_it() {
    let mut h = empty();
    // The ground and, 4 m on, the balcony: the Room builder, one drag each.
    key(&mut h, Modifiers::NONE, Key::Num3);
    assert_eq!(h.state().tools.tool, Tool::Build);
    assert_eq!(h.state().greybox.build.builder, Builder::Room);
    drag(&mut h, (-4.0, 0.0), (0.0, 2.0), Modifiers::NONE);
    drag(&mut h, (4.0, 0.0), (7.0, 2.0), Modifiers::NONE);
    assert_eq!(sectors(&h).len(), 2, "{}", h.state().status);
    // Raise the balcony to 2 m: a click selects it, PageUp raises it by the 0.5 m snap step.
    click(&mut h, 5.5, 1.0);
    for _ in 0..4 {
        key(&mut h, Modifiers::NONE, Key::PageUp);
    }
    assert_eq!(sectors(&h)[1].floor.height, 2.0);
    // The stair: 1, then drag its run from the ground's corner to the balcony's.
    key(&mut h, Modifiers::NONE, Key::Num1);
    assert_eq!(h.state().greybox.build.builder, Builder::Stairs);
    drag(&mut h, (0.0, 0.0), (4.0, 2.0), Modifiers::NONE);
    let built = sectors(&h);
    assert_eq!(built.len(), 12, "{}", h.state().status);
    let steps = &built[2..];
    for (k, s) in steps.iter().enumerate() {
        let want = 0.2 * (k + 1) as f32;
        assert!(
            (s.floor.height - want).abs() < 1e-5,
            "step {k}: {}",
            s.floor.height
        );
    }
    assert_eq!(steps[9].floor.height, 2.0);
    assert_eq!(steps[0].outline[0], Vec2::new(0.0, 0.0));
    assert_eq!(steps[9].outline[2], Vec2::new(4.0, 2.0));
    assert!(h.state().doc.level().is_valid());
    assert_eq!(history(&h).last().map(String::as_str), Some("Build stairs"));
    // One undo step.
    key(&mut h, Modifiers::COMMAND, Key::Z);
    assert_eq!(sectors(&h).len(), 2);
    key(&mut h, Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
    assert_eq!(sectors(&h), built);
}

#[test]
fn build_two_rooms_and_a_doorway_by_a_drag_and_from_the_selection() {
    let mut h = empty();
    key(&mut h, Modifiers::NONE, Key::Num3);
    drag(&mut h, (-4.0, -2.0), (0.0, 2.0), Modifiers::NONE);
    // The second room welds to the first's corners: they share the wall x = 0.
    drag(&mut h, (0.0, -2.0), (4.0, 2.0), Modifiers::NONE);
    let rooms = sectors(&h);
    assert_eq!(rooms.len(), 2, "{}", h.state().status);
    assert_eq!((rooms[1].floor.height, rooms[1].ceiling.height), (0.0, 3.0));
    // The doorway: 4, then drag from one room into the other across the wall.
    key(&mut h, Modifiers::NONE, Key::Num4);
    drag(&mut h, (-1.0, 0.0), (1.0, 0.5), Modifiers::NONE);
    let built = sectors(&h);
    assert_eq!(built.len(), 3, "{}", h.state().status);
    let door = &built[2];
    assert_eq!((door.floor.height, door.ceiling.height), (0.0, 2.1));
    assert!(h.state().doc.level().is_valid());
    assert_eq!(history(&h).len(), 3);
    assert_eq!(history(&h)[2], "Build doorway");
    // Undone, then built again from the two rooms selected and Enter.
    key(&mut h, Modifiers::COMMAND, Key::Z);
    assert_eq!(sectors(&h), rooms);
    click(&mut h, -2.0, 1.0);
    click_with(&mut h, 2.0, 1.0, Modifiers::SHIFT);
    assert_eq!(h.state().doc.selection().len(), 2);
    key(&mut h, Modifiers::NONE, Key::Enter);
    let again = sectors(&h);
    assert_eq!(again.len(), 3, "{}", h.state().status);
    assert!(h.state().doc.level().is_valid());
    // U cycles the builders.
    key(&mut h, Modifiers::NONE, Key::U);
    assert_eq!(h.state().greybox.build.builder, Builder::Stairs);
}

// ---------------------------------------------------------------------------------------------------------
// levels/greybox.ron, made by the builders' functions.

/// Numbers the sectors from 1 in order.
fn numbered(mut sectors: Vec<SectorObject>) -> Vec<SectorObject> {
    for (i, s) in sectors.iter_mut().enumerate() {
        s.id = ObjectId(i as u32 + 1);
    }
    sectors
}

/// The greybox sample: a hall (0 to 2.8 m) with a 10-step stair up to the upper storey (a landing and a
/// balcony over the hall at 3 m), a 30° ramp up to a platform, a room through a doorway, a closet at the end of
/// a passage 1.5 m low, and a 5-step stair whose third riser is 0.45 m (over max_step 0.35 m). A goal on each:
/// `check --reach` reaches the first three and names the riser and the low passage.
fn greybox_sample() -> Level {
    use collidoscope::editor::greybox::builders::{self as b, DoorSize, Run};
    let run = |from: (f32, f32), to: (f32, f32)| {
        Run::of_drag(Vec2::new(from.0, from.1), Vec2::new(to.0, to.1)).unwrap()
    };
    let room = |lo: (f32, f32), hi: (f32, f32), floor: f32, height: f32, name: &str| {
        let mut r = b::room(Vec2::new(lo.0, lo.1), Vec2::new(hi.0, hi.1), floor, height).unwrap();
        r.name = Some(name.into());
        r
    };
    let hall = room((0.0, 0.0), (10.0, 10.0), 0.0, 2.8, "hall");
    let west = room((-6.0, 0.5), (0.0, 5.5), 0.0, 3.0, "west room");
    // North: a closet at the end of a passage 2 m long and 1.5 m low (the body is 1.8 m tall).
    let low_passage = room((2.0, -2.0), (3.0, 0.0), 0.0, 1.5, "low passage");
    let closet = room((1.0, -5.0), (4.0, -2.0), 0.0, 3.0, "closet");
    // The doorway into the west room, in the wall they share.
    let door = b::doorway(&hall, &west, Some(Vec2::new(0.0, 3.0)), DoorSize::default()).unwrap();
    let [hall, west] = door.rooms;
    let mut doorway = door.door;
    doorway.name = Some("doorway".into());
    // Up to the upper storey: 10 steps of 0.3 m east from the hall's east wall.
    let steps = b::stairs(&run((10.0, 0.0), (14.0, 2.0)), 10, 0.0, 3.0, 3.0).unwrap();
    let landing = room((14.0, 0.0), (16.0, 6.0), 3.0, 3.0, "landing");
    let balcony = room((4.0, 2.0), (14.0, 6.0), 3.0, 3.0, "balcony over the hall");
    // A 30° ramp south from the hall to a platform.
    let ramp = b::ramp(&run((0.0, 10.0), (2.0, 14.0)), 0.0, 30.0, 3.0).unwrap();
    let top = 4.0 * 30f32.to_radians().tan();
    let platform = room((0.0, 14.0), (2.0, 16.0), top, 3.0, "platform");
    // North from the hall: 5 steps of 0.3 m, the third raised 0.15 m (a 0.45 m riser).
    let mut bad = b::stairs(&run((6.0, 0.0), (8.0, -2.5)), 5, 0.0, 1.5, 3.0).unwrap();
    for s in &mut bad[2..4] {
        s.floor.height += 0.15;
        s.ceiling.height += 0.15;
    }
    for s in &mut bad {
        s.name = s.name.take().map(|n| format!("high {n}"));
    }
    let top_landing = room((6.0, -4.5), (8.0, -2.5), 1.5, 3.0, "top landing");
    let mut sectors = vec![hall, west, closet, doorway, low_passage];
    sectors.extend(steps);
    sectors.extend([landing, balcony, ramp, platform]);
    sectors.extend(bad);
    sectors.push(top_landing);
    let mut level = Level::from_ron_str(&format!(
        r#"(
    version: 3,
    name: "greybox",
    walker: (position: (5.0, 5.0), facing_deg: 0.0, eye_height: 1.7, radius: 0.3),
    entity_types: [(name: "goal", color: (255, 215, 0), must_reach: true)],
    entities: [
        (id: 101, name: "goal on the balcony, up the 10-step stair", entity_type: "goal", position: (8.0, 3.0, 4.0)),
        (id: 102, name: "goal in the west room, through the doorway", entity_type: "goal", position: (-3.0, 0.0, 3.0)),
        (id: 103, name: "goal on the platform, up the 30 degree ramp", entity_type: "goal", position: (1.0, {top}, 15.0)),
        (id: 104, name: "goal on the top landing (a riser of 0.45 m on the way)", entity_type: "goal", position: (7.0, 1.5, -3.5)),
        (id: 105, name: "goal in the closet at the end of the 1.5 m passage (too low)", entity_type: "goal", position: (2.5, 0.0, -4.0)),
    ],
)"#
    ))
    .unwrap();
    level.sectors = numbered(sectors);
    level
}

#[test]
fn the_greybox_sample_is_what_the_builders_make() {
    let made = greybox_sample();
    let problems = made.validate();
    assert!(problems.is_empty(), "{problems:?}");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/levels/greybox.ron");
    // `GREYBOX_WRITE=1 cargo test --test editor greybox_sample` writes it again.
    if std::env::var_os("GREYBOX_WRITE").is_some() {
        std::fs::write(path, made.to_ron_string()).unwrap();
    }
    let committed = Level::load(Path::new(path)).unwrap();
    assert_eq!(committed, made);
}

#[test]
fn a_chosen_tools_options_come_into_view_in_an_800_pixel_window() {
    let mut h = empty();
    // The bottom of the tool palette's scrolled area: the objects list's heading sits just under it.
    let shown = |h: &Harness<'_, EditorApp>, label: &str| {
        h.get_by_label(label).rect().bottom() <= h.get_by_label("Objects").rect().top()
    };
    key(&mut h, Modifiers::NONE, Key::O);
    assert_eq!(h.state().tools.tool, Tool::Sector);
    assert!(shown(&h, "Storey filter"));
    // The stairs builder's fields, its last one too (they are taller than the room's).
    key(&mut h, Modifiers::NONE, Key::Num3);
    key(&mut h, Modifiers::NONE, Key::Num1);
    assert_eq!(h.state().greybox.build.builder, Builder::Stairs);
    assert!(shown(&h, "up to the floor beyond"));
    assert!(shown(&h, "headroom"));
    // Back to Select: the first tools are in view again once scrolled back up (nothing forces them out).
    key(&mut h, Modifiers::NONE, Key::S);
    assert_eq!(h.state().tools.tool, Tool::Select);
}
