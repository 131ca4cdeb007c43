//! The greybox sample's layout (`levels/greybox.ron`) built from an empty level with mouse and keys only: the
//! Build tool's keys and drags in the top-down view, its typed parameters in the palette, heights typed in
//! the inspector, the walker start, an entity type that must be reached and its entities. Each user action
//! (a key, a click, a drag, a typed field) is counted by the feature it serves; the counts are printed and
//! held to the goals. Then the document's sectors are checked, the level cooked and its
//! reachability asked (the too-high riser named, the balcony reached), and one undo takes back a whole build.

use super::*;
use collidoscope::character::ReachSettings;
use collidoscope::editor::greybox::build::BuildParams;
use collidoscope::level::SectorObject;
use collidoscope::scene::Scene;

/// The editor driven by counted actions: each one is charged to the feature being built.
struct Scratch {
    h: Harness<'static, EditorApp>,
    feature: &'static str,
    counts: Vec<(&'static str, u32)>,
    /// Pans of the view (to keep the work on it), not counted in any feature.
    pans: u32,
    /// Palette fields the typing did not reach (set by their accessibility action instead).
    set_value_fallbacks: Vec<String>,
}

impl Scratch {
    fn new() -> Self {
        Self {
            h: harness(EditorApp::new(Level::default(), None, options(None))),
            feature: "",
            counts: Vec::new(),
            pans: 0,
            set_value_fallbacks: Vec::new(),
        }
    }

    /// From now on actions count toward `feature`.
    fn feature(&mut self, feature: &'static str) {
        self.feature = feature;
        self.counts.push((feature, 0));
    }

    fn count(&mut self) {
        if let Some(c) = self.counts.iter_mut().find(|c| c.0 == self.feature) {
            c.1 += 1;
        }
    }

    fn actions(&self, feature: &str) -> u32 {
        self.counts
            .iter()
            .find(|c| c.0 == feature)
            .map_or(0, |c| c.1)
    }

    /// Make sure the points `pts` are well inside the top-down view, else pan it (a middle-button drag,
    /// counted apart from the features) to centre them: a click off the view would be lost.
    fn on_view(&mut self, pts: &[(f32, f32)]) {
        let inside = |s: &Self| {
            let rect = s.h.state().view_rect().shrink(30.0);
            pts.iter().all(|&(x, z)| rect.contains(screen(&s.h, x, z)))
        };
        if inside(self) {
            return;
        }
        let n = pts.len() as f32;
        let mid = pts
            .iter()
            .fold((0.0, 0.0), |m, p| (m.0 + p.0 / n, m.1 + p.1 / n));
        let centre = self.h.state().view_rect().center();
        let delta = centre - screen(&self.h, mid.0, mid.1);
        self.pans += 1;
        self.h.event(Event::PointerMoved(centre));
        self.h.event(Event::PointerButton {
            pos: centre,
            button: PointerButton::Middle,
            pressed: true,
            modifiers: Modifiers::NONE,
        });
        self.h.step();
        for k in 1..=6 {
            self.h
                .event(Event::PointerMoved(centre + delta * (k as f32 / 6.0)));
            self.h.step();
        }
        self.h.event(Event::PointerButton {
            pos: centre + delta,
            button: PointerButton::Middle,
            pressed: false,
            modifiers: Modifiers::NONE,
        });
        self.h.run_steps(2);
        let rect = self.h.state().view_rect();
        for &(x, z) in pts {
            let p = screen(&self.h, x, z);
            assert!(
                rect.contains(p),
                "({x}, {z}) at {p:?} is off the view {rect:?}"
            );
        }
    }

    fn key(&mut self, k: Key) {
        self.count();
        key(&mut self.h, Modifiers::NONE, k);
    }

    fn click(&mut self, x: f32, z: f32) {
        self.on_view(&[(x, z)]);
        self.count();
        click(&mut self.h, x, z);
    }

    fn drag(&mut self, from: (f32, f32), to: (f32, f32)) {
        self.on_view(&[from, to]);
        self.count();
        drag(&mut self.h, from, to, Modifiers::NONE);
    }

    /// Type `value` over a number field of the Build tool's palette, as a person would: the pointer onto it,
    /// a click (a drag value turns into a text field with its text selected), the digits (the value follows
    /// the typing). A drag in the view ends the typing. `got` reads the parameter back; should the typing
    /// not have reached it, the field's accessibility "set value" action sets it, and that is counted apart.
    fn type_param(&mut self, label: &str, value: f32, got: impl Fn(&BuildParams) -> f32) {
        self.count();
        let at = self
            .h
            .get_by_role_and_label(Role::SpinButton, label)
            .rect()
            .center();
        self.h.event(Event::PointerMoved(at));
        self.h.step();
        press(&mut self.h, at, true, Modifiers::NONE);
        press(&mut self.h, at, false, Modifiers::NONE);
        self.h.run_steps(1);
        self.h.event(Event::Text(value.to_string()));
        self.h.run_steps(2);
        let now = got(&self.h.state().greybox.build);
        if now != value {
            eprintln!("{label}: clicked at {at:?}, the value is {now}");
            self.set_value_fallbacks.push(label.to_owned());
            key(&mut self.h, Modifiers::NONE, Key::Escape);
            self.h
                .get_by_role_and_label(Role::SpinButton, label)
                .set_value_accesskit(f64::from(value));
            self.h.run_steps(2);
            assert_eq!(got(&self.h.state().greybox.build), value, "{label}");
        }
    }

    /// Type `text` over the inspector's field `label`.
    fn type_field(&mut self, label: &str, text: &str) {
        self.count();
        type_into(&mut self.h, label, text);
    }

    fn click_label(&mut self, label: &str) {
        self.count();
        click_label(&mut self.h, label);
    }

    fn sectors(&self) -> Vec<SectorObject> {
        self.h.state().doc.level().sectors.clone()
    }

    fn status(&self) -> String {
        self.h.state().status.clone()
    }
}

/// The sector holding plan point `(x, z)` whose floor (at its base height) is nearest `floor`.
fn at(sectors: &[SectorObject], x: f32, z: f32, floor: f32) -> &SectorObject {
    let p = Vec2::new(x, z);
    sectors
        .iter()
        .filter(|s| collidoscope::sector::ring::contains(&s.outline, p))
        .min_by(|a, b| {
            (a.floor.height - floor)
                .abs()
                .total_cmp(&(b.floor.height - floor).abs())
        })
        .unwrap_or_else(|| panic!("no sector at ({x}, {z})"))
}

fn near(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-4
}

/// The hall, the room west of it through a doorway, the 10-step stair up to the upper storey (a landing and a
/// balcony over the hall at 3 m), the 30° ramp to a platform, the low passage to a closet and the 5-step
/// stair with one riser too high.
fn build_the_sectors(s: &mut Scratch) {
    // At 1280 × 800 the lower panel covers the palette's lower fields (the Stairs builder's total rise):
    // collapse it to its tabs.
    s.feature("setup");
    s.click_label("Hide panel");
    // The hall: its ceiling at 2.8 m, under the balcony's floor at 3 m.
    s.feature("hall");
    s.key(Key::Num3);
    s.type_param("height", 2.8, |p| p.room_height);
    s.drag((0.0, 0.0), (10.0, 10.0));
    assert_eq!(s.sectors().len(), 1, "{}", s.status());

    // A room with a doorway and a ceiling: the Room builder's drag against the hall, then the Doorway
    // builder's drag across the wall they share (centred on z = 3).
    s.feature("room with a doorway and a ceiling");
    s.key(Key::Num3);
    s.drag((-6.0, 0.5), (0.0, 5.5));
    s.key(Key::Num4);
    s.drag((-1.0, 2.75), (1.0, 3.25));
    assert_eq!(s.sectors().len(), 3, "{}", s.status());

    // The 10-step stair to the balcony: 10 steps is the default, the rise is typed; the landing dragged on
    // from the last step's edge takes that step's floor.
    s.feature("10-step stair to a balcony");
    s.key(Key::Num1);
    s.type_param("total rise", 3.0, |p| p.rise);
    let before = s.sectors();
    s.drag((10.0, 0.0), (14.0, 2.0));
    assert_eq!(s.sectors().len(), 13, "{}", s.status());
    // One undo takes back the whole stair, redo brings it back.
    let stair = s.sectors();
    key(&mut s.h, Modifiers::COMMAND, Key::Z);
    assert_eq!(s.sectors(), before);
    key(&mut s.h, Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
    assert_eq!(s.sectors(), stair);
    s.key(Key::Num3);
    s.drag((14.0, 0.0), (16.0, 2.0));
    assert_eq!(s.sectors().len(), 14, "{}", s.status());

    // The rest of the upper storey, each room welded to the last and so at its floor: north of the
    // landing, then west over the hall.
    s.feature("upper storey over the hall");
    s.drag((14.0, 2.0), (16.0, 6.0));
    s.drag((4.0, 2.0), (14.0, 6.0));
    assert_eq!(s.sectors().len(), 16, "{}", s.status());

    // The 30° ramp south of the hall (30° is the default), then a platform at its top: a room dragged on
    // from the ramp's top edge starts at the ramp's height there.
    s.feature("30° ramp");
    s.key(Key::Num2);
    s.drag((0.0, 10.0), (2.0, 14.0));
    assert_eq!(s.sectors().len(), 17, "{}", s.status());
    s.feature("platform at the ramp's top");
    s.key(Key::Num3);
    s.drag((0.0, 14.0), (2.0, 16.0));
    assert_eq!(s.sectors().len(), 18, "{}", s.status());

    // The low passage (1.5 m) to a closet (3 m).
    s.feature("low passage and closet");
    s.type_param("height", 1.5, |p| p.room_height);
    s.drag((2.0, -2.0), (3.0, 0.0));
    s.type_param("height", 3.0, |p| p.room_height);
    s.drag((1.0, -5.0), (4.0, -2.0));
    assert_eq!(s.sectors().len(), 20, "{}", s.status());

    // The stair with one riser too high: 5 steps of 0.3 m north of the hall, a landing welded to its top,
    // the third step's floor typed 0.15 m higher (a 0.45 m riser).
    s.feature("stair with a riser too high");
    s.key(Key::Num1);
    s.type_param("steps", 5.0, |p| p.steps as f32);
    s.type_param("total rise", 1.5, |p| p.rise);
    s.drag((6.0, 0.0), (8.0, -2.5));
    assert_eq!(s.sectors().len(), 25, "{}", s.status());
    s.key(Key::Num3);
    s.drag((6.0, -4.5), (8.0, -2.5));
    assert_eq!(s.sectors().len(), 26, "{}", s.status());
    s.click(7.0, -1.25);
    s.type_field("floor", "1.05");
}

/// The walker start in the hall, a "goal" type, a goal in each place, and the type marked "must reach".
fn place_the_goals(s: &mut Scratch) {
    s.feature("walker start and goals");
    // The tab's click also leaves the inspector's field typed last.
    s.click_label("Entity types");
    s.key(Key::K);
    s.click(5.0, 5.0);
    assert!(s.h.state().doc.level().walker.is_some(), "{}", s.status());
    s.type_field("New type", "goal");
    s.key(Key::Enter);
    assert!(s.h.state().doc.level().entity_type("goal").is_some());
    s.key(Key::E);
    for (x, z, y) in [
        (8.0, 4.0, Some("3")),
        (-3.0, 3.0, None),
        (1.0, 15.0, Some("2.309401")),
        (7.0, -3.5, Some("1.5")),
        (2.5, -4.0, None),
    ] {
        s.click(x, z);
        if let Some(y) = y {
            s.type_field("position.y", y);
        }
    }
    // Last, so the editor's reachability map (made for must-reach entities) is not made again for each
    // goal placed.
    s.click_label("must reach");
    assert!(
        s.h.state()
            .doc
            .level()
            .entity_type("goal")
            .is_some_and(|t| t.must_reach)
    );
}

/// The sectors are those intended: count, floors, ceilings, slopes.
fn check_the_sectors(sectors: &[SectorObject]) {
    assert_eq!(sectors.len(), 26);
    let hall = at(sectors, 5.0, 5.0, 0.0);
    assert_eq!((hall.floor.height, hall.ceiling.height), (0.0, 2.8));
    let west = at(sectors, -3.0, 3.0, 0.0);
    assert_eq!((west.floor.height, west.ceiling.height), (0.0, 2.8));
    let door = at(sectors, 0.0, 3.0, 0.0);
    assert_eq!((door.floor.height, door.ceiling.height), (0.0, 2.1));
    for k in 0..10 {
        let step = at(sectors, 10.2 + 0.4 * k as f32, 1.0, 0.0);
        let want = 0.3 * (k + 1) as f32;
        assert!(
            near(step.floor.height, want),
            "step {k}: {}",
            step.floor.height
        );
        assert!(near(step.ceiling.height, want + 3.0));
    }
    for (x, z) in [(15.0, 1.0), (15.0, 4.0), (8.0, 4.0)] {
        let upper = at(sectors, x, z, 3.0);
        assert!(
            near(upper.floor.height, 3.0),
            "({x}, {z}): {:?}",
            upper.floor
        );
        assert!(upper.ceiling.height >= 5.8 - 1e-4);
    }
    let ramp = at(sectors, 1.0, 12.0, 0.0);
    let slope = ramp.floor.slope.unwrap();
    assert_eq!(
        (ramp.floor.height, slope.edge, slope.degrees),
        (0.0, 0, 30.0)
    );
    let platform = at(sectors, 1.0, 15.0, 2.3);
    assert!(near(platform.floor.height, 4.0 * 30f32.to_radians().tan()));
    let passage = at(sectors, 2.5, -1.0, 0.0);
    assert_eq!(passage.ceiling.height, 1.5);
    let closet = at(sectors, 2.5, -4.0, 0.0);
    assert_eq!(closet.ceiling.height, 3.0);
    let high: Vec<f32> = (0..5)
        .map(|k| at(sectors, 7.0, -0.25 - 0.5 * k as f32, 0.0).floor.height)
        .collect();
    for (got, want) in high.iter().zip([0.3, 0.6, 1.05, 1.2, 1.5]) {
        assert!(near(*got, want), "{high:?}");
    }
    assert!(near(at(sectors, 7.0, -3.5, 1.5).floor.height, 1.5));
}

#[test]
fn build_the_greybox_level_from_scratch_with_mouse_and_keys() {
    let mut s = Scratch::new();
    build_the_sectors(&mut s);
    place_the_goals(&mut s);
    let counts: Vec<String> = s.counts.iter().map(|(f, n)| format!("{f}: {n}")).collect();
    println!(
        "greybox from scratch, actions: {} (and {} pans of the view)",
        counts.join("; "),
        s.pans
    );

    let level = s.h.state().doc.level().clone();
    assert!(level.is_valid(), "{:?}", level.validate());
    check_the_sectors(&level.sectors);
    assert_eq!(level.entities.len(), 5);

    // The level cooks; reachability reaches the balcony, the room and the platform and names the riser.
    let scene = Scene::from_level(&level).unwrap();
    let map = level.reach_map(&scene, &ReachSettings::default()).unwrap();
    let problems = level.reach_problems(&map);
    let unreached: Vec<(Vec3, &str)> = problems.iter().map(|p| (p.feet, p.kind())).collect();
    println!(
        "{:?}",
        problems
            .iter()
            .map(|p| &p.problem.message)
            .collect::<Vec<_>>()
    );
    assert!(map.reachable(Vec3::new(8.0, 3.0, 4.0)), "{unreached:?}");
    assert!(
        unreached.contains(&(Vec3::new(7.0, 1.5, -3.5), "StepTooHigh")),
        "{unreached:?}"
    );
    assert_eq!(unreached.len(), 2, "{unreached:?}");

    // The goals.
    for (feature, goal) in [
        ("10-step stair to a balcony", 5),
        ("30° ramp", 4),
        ("room with a doorway and a ceiling", 5),
    ] {
        let n = s.actions(feature);
        assert!(n <= goal, "{feature}: {n} actions, the goal is {goal}");
    }
    assert!(
        s.set_value_fallbacks.is_empty(),
        "typing did not reach {:?}",
        s.set_value_fallbacks
    );
}
