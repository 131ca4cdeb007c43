//! Greybox sectors drawn as a person would: two rooms side by side with the Sector tool (the second welded
//! to the first's corners, so they share the edge), a floor raised by its key and undone, and a
//! self-crossing outline refused with the reason while its points stay.

use super::*;
use collidoscope::level::SectorObject;

fn empty() -> Harness<'static, EditorApp> {
    harness(EditorApp::new(Level::default(), None, options(None)))
}

fn sectors(h: &Harness<'_, EditorApp>) -> Vec<SectorObject> {
    h.state().doc.level().sectors.clone()
}

#[test]
fn draw_two_rooms_sharing_an_edge_raise_a_floor_by_key_and_undo() {
    let mut h = empty();
    key(&mut h, Modifiers::NONE, Key::O);
    assert_eq!(h.state().tools.tool, Tool::Sector);
    // The first room, closed by a click on its first point (off-grid clicks snap to the 0.5 m grid).
    for (x, z) in [
        (-3.1, -2.0),
        (0.0, -2.1),
        (0.1, 2.0),
        (-3.0, 2.0),
        (-3.0, -2.0),
    ] {
        click(&mut h, x, z);
    }
    assert_eq!(sectors(&h).len(), 1, "{}", h.state().status);
    // The second room against it: its first and last points weld to the first room's corners; Enter closes.
    for (x, z) in [(0.15, -1.9), (3.0, -2.0), (3.0, 2.0), (-0.1, 2.1)] {
        click(&mut h, x, z);
    }
    key(&mut h, Modifiers::NONE, Key::Enter);
    let s = sectors(&h);
    assert_eq!(s.len(), 2, "{}", h.state().status);
    for corner in [Vec2::new(0.0, -2.0), Vec2::new(0.0, 2.0)] {
        assert!(s[0].outline.contains(&corner), "{:?}", s[0].outline);
        assert!(s[1].outline.contains(&corner), "{:?}", s[1].outline);
    }
    assert_eq!((s[1].floor.height, s[1].ceiling.height), (0.0, 3.0));
    assert!(h.state().doc.level().is_valid());
    assert_eq!(
        h.state().doc.history().0,
        vec!["Draw sector", "Draw sector"]
    );

    // Select the second room by its area and raise its floor by the snap step.
    key(&mut h, Modifiers::NONE, Key::S);
    click(&mut h, 1.5, 0.3);
    assert_eq!(
        h.state()
            .doc
            .selection()
            .iter()
            .copied()
            .collect::<Vec<_>>(),
        vec![s[1].id]
    );
    key(&mut h, Modifiers::NONE, Key::PageUp);
    let raised = sectors(&h);
    assert_eq!(raised[1].floor.height, 0.5);
    assert_eq!(raised[0].floor.height, 0.0);
    key(&mut h, Modifiers::SHIFT, Key::PageDown);
    assert_eq!(sectors(&h)[1].ceiling.height, 2.5);
    key(&mut h, Modifiers::COMMAND, Key::Z);
    key(&mut h, Modifiers::COMMAND, Key::Z);
    assert_eq!(sectors(&h), s);
}

#[test]
fn a_self_crossing_outline_is_refused_and_its_points_stay() {
    let mut h = empty();
    key(&mut h, Modifiers::NONE, Key::O);
    for (x, z) in [(0.0, 0.0), (3.0, 3.0), (3.0, 0.0), (0.0, 3.0)] {
        click(&mut h, x, z);
    }
    key(&mut h, Modifiers::NONE, Key::Enter);
    assert!(sectors(&h).is_empty());
    assert!(
        h.state().status.contains("crosses itself"),
        "{}",
        h.state().status
    );
    assert_eq!(h.state().tools.chain_points().len(), 4);
    // Backspace removes the last points; the points kept close into a triangle.
    key(&mut h, Modifiers::NONE, Key::Backspace);
    key(&mut h, Modifiers::NONE, Key::Backspace);
    click(&mut h, 0.0, 3.0);
    key(&mut h, Modifiers::NONE, Key::Enter);
    let s = sectors(&h);
    assert_eq!(s.len(), 1, "{}", h.state().status);
    assert_eq!(
        s[0].outline,
        vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(3.0, 3.0),
            Vec2::new(0.0, 3.0)
        ]
    );
    assert!(h.state().tools.chain_points().is_empty());
}

#[test]
fn the_inspector_sets_heights_and_refuses_a_ceiling_under_the_floor() {
    let mut level = Level::default();
    let e = collidoscope::editor::document::sector::new_sector(
        vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 4.0),
            Vec2::new(0.0, 4.0),
        ],
        0.0,
        3.0,
    );
    level.sectors.push(SectorObject {
        id: ObjectId(1),
        ..e
    });
    let mut h = harness(EditorApp::new(level, None, options(None)));
    click(&mut h, 2.0, 2.0);
    assert_eq!(h.state().doc.selection().len(), 1);
    type_into(&mut h, "floor", "1.5");
    assert_eq!(sectors(&h)[0].floor.height, 1.5);
    type_into(&mut h, "ceiling", "1");
    assert_eq!(sectors(&h)[0].ceiling.height, 3.0, "refused, not clamped");
    assert!(h.query_by_label_contains("refused:").is_some());
    type_into(&mut h, "floor slope (°)", "20");
    assert_eq!(sectors(&h)[0].floor.slope.map(|s| s.degrees), Some(20.0));
}

#[test]
fn dragging_a_shared_vertex_moves_it_in_both_sectors_in_one_step() {
    use collidoscope::editor::document::sector::new_sector;
    let rect = |x0: f32, x1: f32| {
        vec![
            Vec2::new(x0, 0.0),
            Vec2::new(x1, 0.0),
            Vec2::new(x1, 4.0),
            Vec2::new(x0, 4.0),
        ]
    };
    let mut level = Level::default();
    for (i, (x0, x1)) in [(-4.0, 0.0), (0.0, 4.0)].into_iter().enumerate() {
        level.sectors.push(SectorObject {
            id: ObjectId(i as u32 + 1),
            ..new_sector(rect(x0, x1), 0.0, 3.0)
        });
    }
    let mut h = harness(EditorApp::new(level, None, options(None)));
    drag(&mut h, (0.0, 0.0), (1.0, -1.0), Modifiers::NONE);
    let s = sectors(&h);
    assert!(
        s[0].outline.contains(&Vec2::new(1.0, -1.0)),
        "{:?} {}",
        s[0].outline,
        h.state().status
    );
    assert!(
        s[1].outline.contains(&Vec2::new(1.0, -1.0)),
        "{:?}",
        s[1].outline
    );
    assert_eq!(h.state().doc.history().0, vec!["Move sector vertex"]);
    key(&mut h, Modifiers::COMMAND, Key::Z);
    assert_eq!(sectors(&h)[1].outline, rect(0.0, 4.0));
}
