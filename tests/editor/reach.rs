//! Reachability in the editor, driven as a person would on `levels/playground.ron`: the overlay toggled with
//! its key and the View menu, a click with the Reach tool showing a path (and walking it in the 3D preview) or
//! the blocker where reach stops, and a map overtaken by an edit dropped for the edited level's.

use super::*;
use collidoscope::character::Blocker3;
use collidoscope::editor::debugger::panel::Tab;
use collidoscope::editor::reach::TargetView;

fn playground(open_3d: bool) -> Harness<'static, EditorApp> {
    playground_with(open_3d, |_| {})
}

/// The playground, changed by `edit` before the editor opens it.
fn playground_with(open_3d: bool, edit: impl FnOnce(&mut Level)) -> Harness<'static, EditorApp> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/playground.ron");
    let mut level = Level::load(&path).unwrap();
    edit(&mut level);
    let app = EditorApp::new(level, Some(path), options(None));
    if open_3d {
        harness3d(app)
    } else {
        harness(app)
    }
}

/// Step frames until the overlay shows a map of the document as it is now (the build runs on its own
/// thread: the frames never wait for it).
fn wait_for_map(h: &mut Harness<'_, EditorApp>) {
    for _ in 0..3000 {
        let s = h.state();
        if s.reach.is_current(s.doc.key()) {
            h.run_steps(2);
            return;
        }
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("the map was not made within 15 s");
}

fn target(h: &Harness<'_, EditorApp>) -> TargetView {
    h.state().reach.target().unwrap().view.clone()
}

#[test]
fn m_and_the_view_menu_toggle_the_reachability_overlay() {
    // Without entities that must be reached, no map is made until the overlay asks for one.
    let mut h = playground_with(false, |l| {
        for t in &mut l.entity_types {
            t.must_reach = false;
        }
    });
    h.run_steps(3);
    assert!(!h.state().reach.on && h.state().reach.started() == 0);
    key(&mut h, Modifiers::NONE, Key::M);
    assert!(h.state().reach.on);
    // The frames go on while the map is made; the status bar says so, then what it found.
    assert!(h.state().reach.building().is_some());
    assert!(h.query_by_label_contains("mapping reach").is_some());
    wait_for_map(&mut h);
    let found = h
        .query_by_label_contains("m² reached")
        .and_then(|n| n.value());
    assert!(
        found
            .as_deref()
            .is_some_and(|t| t.starts_with("reach: ") && t.ends_with("blockers")),
        "{found:?}"
    );
    let data = h.state().reach.data().unwrap();
    assert!(data.geometry.labels.len() > 5 && data.geometry.floors.len() >= 2);
    // View → Reachability overlay is a check box, checked; unchecking it turns the overlay off and keeps
    // the map (on again, nothing is rebuilt).
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Reachability overlay (M)").click();
    h.run_steps(3);
    assert!(!h.state().reach.on);
    assert!(h.query_by_label_contains("m² reached").is_none());
    key(&mut h, Modifiers::NONE, Key::M);
    h.run_steps(3);
    assert!(h.state().reach.on && h.state().reach.started() == 1);
    assert!(h.query_by_label_contains("m² reached").is_some());
}

#[test]
fn a_click_with_the_reach_tool_shows_the_path_and_the_character_walks_it() {
    let mut h = playground(true);
    // H picks the Reach tool, turns the overlay on and opens the Reach tab.
    key(&mut h, Modifiers::NONE, Key::H);
    assert_eq!(h.state().tools.tool, Tool::Reach);
    assert!(h.state().reach.on);
    assert_eq!(h.state().panels.tab, Tab::Reach);
    wait_for_map(&mut h);
    // A click on the landing of the low stairs, 1 m up: the path to it, every point a landing of one move.
    click(&mut h, -16.5, -7.0);
    let path = match target(&h) {
        TargetView::Path { path, length } => {
            assert!(length > 15.0, "{length}");
            path
        }
        other => panic!("{other:?}"),
    };
    let end = *path.last().unwrap();
    assert!((end.y - 1.01).abs() < 0.02, "{end}");
    assert_eq!(
        h.query_all_by_label_contains("reached: ").count(),
        2,
        "the status bar and the Reach tab say so"
    );
    assert!(
        h.state().doc.selection().is_empty(),
        "the click selected nothing"
    );
    // Walk the path: the character walks it in the 3D preview, one move a point, each landing on its point.
    click_label(&mut h, "Walk the path (Shift+H)");
    let walk = &h.state().view3d;
    assert_eq!(walk.cam.mode, CameraMode::Walk);
    assert!(walk.character.following());
    for _ in 0..600 {
        h.step();
        if !h.state().view3d.character.following() {
            break;
        }
    }
    let c = &h.state().view3d.character;
    let p = c.path.as_ref().unwrap();
    assert!(p.done() && p.strayed.is_none(), "{}", p.describe());
    assert_eq!(c.moves().len(), path.len() - 1);
    assert!(c.body.feet.distance(end) < 0.02, "{:?}", c.body);
    // Alt+H clears the path.
    key(&mut h, Modifiers::ALT, Key::H);
    assert!(h.state().reach.target().is_none());
}

#[test]
fn a_spot_out_of_reach_shows_its_blocker_labelled() {
    let mut h = playground(false);
    key(&mut h, Modifiers::NONE, Key::H);
    wait_for_map(&mut h);
    // The landing of the 0.42 m stairs: a step too high, and how far the character gets toward it.
    click(&mut h, -6.5, -7.0);
    match target(&h) {
        TargetView::Blocked {
            blocker: Blocker3::StepTooHigh { height, .. },
            short,
            partial,
            ..
        } => {
            assert!((height - 0.42).abs() < 0.01, "{height}");
            assert_eq!(short, "step 0.42 m > 0.35 m");
            assert!(partial.is_some_and(|p| p.len() > 3));
        }
        other => panic!("{other:?}"),
    }
    let words = "out of reach: riser 0.42 m is above max_step 0.35 m";
    assert_eq!(h.query_all_by_label_contains(words).count(), 2);
    // The Reach tab lists the limit with its area; a click on the row shows it.
    h.state_mut().reach.clear_target();
    h.run_steps(2);
    h.get_by_label_contains("step 0.42 m > 0.35 m").click();
    h.run_steps(3);
    let shown = target(&h);
    assert!(
        matches!(&shown, TargetView::Blocked { short, .. } if short == "step 0.42 m > 0.35 m"),
        "{shown:?} at {:?}",
        h.state().reach.target().map(|t| t.to)
    );
    // Nowhere to stand: outside the floor.
    click(&mut h, -22.0, 0.0);
    assert_eq!(target(&h), TargetView::Nowhere);
}

#[test]
fn a_map_overtaken_by_an_edit_is_dropped_and_the_edited_level_is_mapped() {
    let mut h = playground(false);
    key(&mut h, Modifiers::NONE, Key::M);
    h.step();
    let first = h.state().reach.building().unwrap().0;
    assert_eq!(first, h.state().doc.key());
    // While that map is made, the walker start moves 5 m east (selected by a click, then Shift+Right: ten
    // snap steps of 0.5 m).
    click(&mut h, -1.0, 0.0);
    assert!(h.state().doc.walker_selected());
    key(&mut h, Modifiers::SHIFT, Key::ArrowRight);
    let edited = h.state().doc.key();
    assert_ne!(edited, first);
    wait_for_map(&mut h);
    let s = h.state();
    assert_eq!(s.reach.dropped(), 1, "the first map was dropped");
    assert_eq!(s.reach.started(), 2);
    assert_eq!(s.reach.shown().unwrap().key, edited);
    let start = s.reach.data().unwrap().map.start().unwrap();
    assert!(
        (start.x - 4.0).abs() < 0.3 && start.z.abs() < 0.3,
        "{start}"
    );
}

#[test]
fn must_reach_entities_out_of_reach_are_problems_without_the_overlay() {
    let mut h = playground(false);
    // The playground's goals must be reached: the map is made in the background with the overlay off.
    assert!(!h.state().reach.on);
    wait_for_map(&mut h);
    let unreached: Vec<String> = h
        .state()
        .problems()
        .iter()
        .filter(|p| p.message.starts_with("unreachable from the walker start"))
        .map(|p| p.message.clone())
        .collect();
    // The goals past the 0.42 m stairs, through the 0.5 m door and the 1.5 m tunnel; the one on the low
    // stairs' landing is reached.
    assert_eq!(unreached.len(), 3, "{unreached:?}");
    assert!(
        unreached.iter().any(|m| m.contains("StepTooHigh")),
        "{unreached:?}"
    );
    // The Problems panel lists them.
    h.get_by_label_contains("Problems (").click();
    h.run_steps(3);
    assert_eq!(
        h.query_all_by_label_contains("unreachable from the walker start")
            .count(),
        3
    );
    // Unticking the goals' "must reach" (one command) takes the problems away, without waiting for a map.
    h.state_mut().panels.tab = Tab::EntityTypes;
    h.run_steps(3);
    h.get_by_label("must reach").click();
    h.run_steps(3);
    assert!(!h.state().doc.level().entity_types[0].must_reach);
    assert!(
        h.state()
            .problems()
            .iter()
            .all(|p| !p.message.starts_with("unreachable")),
        "{:?}",
        h.state().problems()
    );
}
