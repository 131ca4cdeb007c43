//! The navigation overlay driven as a person would: N turns it on, the map is made off the frame, a Shift+click
//! sets a start on a ledge and another a goal below it, the path (with its drop) shows and the agent walks it
//! in the 3D preview until it arrives; an edit updates the map from the box it touched.

use super::*;
use collidoscope::editor::nav::WalkState;
use collidoscope::editor::nav::model::Made;
use collidoscope::nav::NavLink;

/// A 6 m room with a 0.8 m ledge along one side (down is a drop; up is too high to walk).
fn ledge_room() -> Harness<'static, EditorApp> {
    let level = Level::from_ron_str(
        "(version: 2, aabbs: [
            (id: 1, min: (-3.0, -0.2, -3.0), max: (3.0, 0.0, 3.0)),
            (id: 2, min: (1.0, 0.0, -3.0), max: (3.0, 0.8, 3.0)),
        ])",
    )
    .unwrap();
    harness3d(EditorApp::new(level, None, options(None)))
}

/// The editor (3D preview open) on the level `ron`, the navigation overlay on and its map made.
fn with_nav(ron: &str) -> Harness<'static, EditorApp> {
    let level = Level::from_ron_str(ron).unwrap();
    let mut h = harness3d(EditorApp::new(level, None, options(None)));
    key(&mut h, Modifiers::NONE, Key::N);
    wait_for_nav(&mut h);
    h
}

/// Step frames until the overlay shows a map of the document as it is (made on its own thread).
fn wait_for_nav(h: &mut Harness<'_, EditorApp>) {
    for _ in 0..3000 {
        let s = h.state();
        if s.nav.overlay.is_current(s.doc.key()) && s.nav.overlay.building().is_none() {
            h.run_steps(2);
            return;
        }
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("the navigation map was not made within 15 s");
}

/// Step frames (at most `frames`) while the overlay's agent walks, calling `each` with it before each frame;
/// the agent as it ended.
fn walk_out(
    h: &mut Harness<'_, EditorApp>,
    frames: usize,
    mut each: impl FnMut(&collidoscope::editor::nav::NavWalker),
) -> collidoscope::editor::nav::NavWalker {
    for _ in 0..frames {
        let w = h.state().nav.overlay.walker.as_ref().unwrap();
        if w.state != WalkState::Walking {
            break;
        }
        each(w);
        h.step();
    }
    h.state().nav.overlay.walker.clone().unwrap()
}

/// The walk ended with the agent arrived (else where and when it stopped, and why).
fn assert_arrived(w: &collidoscope::editor::nav::NavWalker) {
    assert!(
        matches!(w.state, WalkState::Arrived(_)),
        "{:?} after {} s at {}",
        w.state,
        w.time,
        w.body.feet
    );
}

fn shift_click(h: &mut Harness<'_, EditorApp>, x: f32, z: f32) {
    let p = screen(h, x, z);
    shift_press(h, p);
}

/// A Shift+click at screen point `p` (in either view).
fn shift_press(h: &mut Harness<'_, EditorApp>, p: Pos2) {
    h.event(Event::ModifiersChanged(Modifiers::SHIFT));
    press(h, p, true, Modifiers::SHIFT);
    press(h, p, false, Modifiers::SHIFT);
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.run_steps(8);
}

#[test]
fn shift_clicks_give_a_path_the_agent_walks_and_an_edit_updates_the_map() {
    let mut h = ledge_room();
    assert!(!h.state().nav.overlay.on);
    key(&mut h, Modifiers::NONE, Key::N);
    assert!(h.state().nav.overlay.on);
    assert!(h.state().status.starts_with("navigation overlay on"));
    wait_for_nav(&mut h);
    {
        let d = h.state().nav.overlay.data().unwrap();
        assert_eq!(d.made, Made::Baked);
        assert!(d.geometry.agents[0].places.len() > 300);
        assert!(d.geometry.agents[0].heights.1 > 0.7, "the ledge's top");
    }
    assert!(h.query_by_label_contains("places ·").is_some());
    // The start on the ledge, the goal on the floor below: a path that drops.
    shift_click(&mut h, 2.0, 0.0);
    assert!(h.state().nav.overlay.start.is_some());
    shift_click(&mut h, -2.0, 1.0);
    let route = h.state().nav.overlay.route.clone().unwrap();
    let path = route.path.clone().expect("a path down the ledge");
    assert!(route.from.y > 0.7 && route.to.y < 0.1, "{route:?}");
    assert!(
        path.links.iter().any(|l| matches!(l, NavLink::Drop { .. })),
        "{:?}",
        path.links
    );
    // The agent walks it in the 3D preview and arrives.
    let w = walk_out(&mut h, 200, |_| {});
    assert_arrived(&w);
    assert!(h.state().status.contains("arrived"), "{}", h.state().status);
    // An edit (the ledge deleted): the map is updated from the box it touched, off the frame, and answers
    // as a fresh bake of the edited level.
    h.state_mut().doc.select_only([ObjectId(2)]);
    key(&mut h, Modifiers::NONE, Key::Delete);
    assert_eq!(h.state().doc.level().aabbs.len(), 1);
    wait_for_nav(&mut h);
    let s = h.state();
    let d = s.nav.overlay.data().unwrap();
    assert!(matches!(d.made, Made::Updated(_)), "{:?}", d.made);
    let fresh = collidoscope::nav::NavMap::build(&d.scene, d.map.settings());
    assert_eq!(d.map.places(0).len(), fresh.places(0).len());
    // The ledge's top is gone: every place is on the floor now.
    assert!(
        d.geometry.agents[0].heights.1 < 0.1,
        "{:?}",
        d.geometry.agents[0].heights
    );
    // The path was asked again of the new map: the start is in the air now, so there is none.
    assert!(s.nav.overlay.route.as_ref().unwrap().path.is_none());
}

/// A ground floor, a 3 m balcony (box 2) and a lift plate (box 3) going up 2.8 m at 1 m/s and back, waiting
/// 4 s at each end: a period of 13.6 s, longer than the walking's own time.
fn lift_room() -> Harness<'static, EditorApp> {
    let level = Level::from_ron_str(
        "(version: 3, aabbs: [
            (id: 1, min: (-6.0, -1.0, -4.0), max: (6.0, 0.0, 4.0)),
            (id: 2, min: (2.0, 0.0, -4.0), max: (6.0, 3.0, 4.0)),
            (id: 3, min: (0.0, 0.0, -1.0), max: (2.0, 0.2, 1.0)),
        ], movers: [(id: 10, object: 3, path: [(0.0, 0.0, 0.0), (0.0, 2.8, 0.0)], speed: 1.0, wait: 4.0)])",
    )
    .unwrap();
    harness3d(EditorApp::new(level, None, options(None)))
}

#[test]
fn the_agent_waits_for_the_lift_rides_it_and_arrives() {
    let mut h = lift_room();
    key(&mut h, Modifiers::NONE, Key::N);
    wait_for_nav(&mut h);
    // From the ground to the balcony: up by the lift only.
    shift_click(&mut h, -4.0, 0.0);
    shift_click(&mut h, 4.5, 0.5);
    let route = h.state().nav.overlay.route.clone().unwrap();
    let path = route.path.clone().expect("a path up by the lift");
    assert!(
        path.links.iter().any(|l| matches!(l, NavLink::Ride { .. })),
        "{:?}",
        path.links
    );
    // The preview's scene stands at one time; the agent's walk advances the lift's (it used to wait for a
    // lift that never came, and gave up after the walking's time).
    // The preview draws the movers at the walk's time: the lift up under the agent at some frame.
    let mut lift_up = false;
    let w = walk_out(&mut h, 600, |w| {
        lift_up |= w
            .clock()
            .is_some_and(|(s, t)| s.mover_offset_at(ObjectId(3), t).y > 2.0);
    });
    assert_arrived(&w);
    assert!(w.body.feet.y > 2.9, "on the balcony: {}", w.body.feet);
    assert!(lift_up, "the walk's clock never had the lift up");
    assert!(w.clock().is_none(), "no clock once arrived");
}

/// Two greybox rooms side by side, the east one's floor 0.3 m up (a step), both under ceilings whose tops (the
/// rooms' roofs) are the highest surfaces of their columns: Shift+clicks in the top-down view stand on the
/// rooms' floors, and the path between them is walked.
#[test]
fn shift_clicks_in_greybox_rooms_stand_on_their_floors() {
    let mut h = with_nav(
        "(version: 3, sectors: [
            (id: 1, outline: [(-4.0, -2.0), (0.0, -2.0), (0.0, 2.0), (-4.0, 2.0)],
                floor: (height: 0.0), ceiling: (height: 3.0)),
            (id: 2, outline: [(0.0, -2.0), (4.0, -2.0), (4.0, 2.0), (0.0, 2.0)],
                floor: (height: 0.3), ceiling: (height: 3.0)),
        ])",
    );
    shift_click(&mut h, -2.0, 0.0);
    shift_click(&mut h, 2.0, 0.5);
    let route = h.state().nav.overlay.route.clone().unwrap();
    assert!(route.from.y < 0.1, "the west room's floor: {route:?}");
    assert!(
        route.to.y > 0.29 && route.to.y < 0.4,
        "the east room's floor: {route:?}"
    );
    assert!(route.path.is_some(), "{route:?}");
    let w = walk_out(&mut h, 400, |_| {});
    assert_arrived(&w);
}

#[test]
fn a_shift_click_in_3d_on_an_upper_storeys_floor_stands_there_not_on_its_roof() {
    // A hall (floor 0, ceiling 3) with a room over it (floor 3, ceiling 6). The preview draws the upper
    // room's floor and not the top of its ceiling: the click is on the floor.
    let mut h = with_nav(
        "(version: 3, sectors: [
            (id: 1, outline: [(0.0, 0.0), (6.0, 0.0), (6.0, 6.0), (0.0, 6.0)],
                floor: (height: 0.0), ceiling: (height: 3.0)),
            (id: 2, outline: [(0.0, 0.0), (6.0, 0.0), (6.0, 6.0), (0.0, 6.0)],
                floor: (height: 3.0), ceiling: (height: 6.0)),
        ])",
    );
    let at = h.state().view3d.project(Vec3::new(3.0, 3.0, 3.0)).unwrap();
    shift_press(&mut h, at);
    let from = h.state().nav.overlay.start;
    let from = from.unwrap_or_else(|| panic!("no start set: {}", h.state().status));
    assert!(
        (from.y - 3.0).abs() < 0.05 && from.distance(Vec3::new(3.0, from.y, 3.0)) < 0.1,
        "the upper room's floor under the pointer: {from}"
    );
}
