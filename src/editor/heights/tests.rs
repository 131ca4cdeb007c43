use glam::{Vec2, Vec3};

use super::*;
use crate::editor::document::sector::new_sector;
use crate::sector::FaceKind;

fn rect(x0: f32, x1: f32) -> Vec<Vec2> {
    vec![
        Vec2::new(x0, 0.0),
        Vec2::new(x1, 0.0),
        Vec2::new(x1, 2.0),
        Vec2::new(x0, 2.0),
    ]
}

fn doc() -> Document {
    let mut a = new_sector(rect(0.0, 2.0), 0.0, 3.0);
    a.id = ObjectId(1);
    let mut b = new_sector(rect(2.0, 4.0), 0.2, 3.0);
    b.id = ObjectId(2);
    let mut level = Level::from_ron_str(
        "(version: 3, aabbs: [(id: 5, min: (10.0, 0.0, 0.0), max: (11.0, 1.0, 1.0))])",
    )
    .unwrap_or_default();
    level.sectors = vec![a, b];
    Document::new(level, None)
}

/// The pointer straight above floor point `(x, z)`, looking down.
fn down_at(x: f32, z: f32, now: f64) -> PointerInput {
    PointerInput {
        ray: Some((Ray::new(Vec3::new(x, 20.0, z), Vec3::NEG_Y), 100.0)),
        now,
        step: 0.25,
        ..PointerInput::default()
    }
}

/// Run a frame and write what it asks into the document, as the app does: a preview in place, a finish
/// as the original put back and the edit applied as one step.
fn run(h: &mut Heights, d: &mut Document, input: PointerInput) -> HeightsOut {
    let scene = Scene::build(d.level());
    let out = h.frame(d, &scene, &input, false);
    match &out {
        HeightsOut::Preview(o) => d.preview(vec![(**o).clone()], None),
        HeightsOut::Finish { original, edit } => {
            d.preview(vec![(**original).clone()], None);
            if let Some(e) = edit {
                d.apply(e.label.clone(), e.edit.clone());
            }
        }
        HeightsOut::Nothing => {}
    }
    out
}

fn floor(d: &Document, id: u32) -> f32 {
    d.level()
        .sectors
        .iter()
        .find(|s| s.id == ObjectId(id))
        .map_or(f32::NAN, |s| s.floor.height)
}

#[test]
fn two_wheel_notches_are_one_undo_step_after_the_wheel_goes_quiet() {
    let mut d = doc();
    let mut h = Heights::default();
    run(&mut h, &mut d, down_at(3.0, 1.0, 0.0));
    let aim = h.hover.unwrap();
    assert_eq!(aim.face, Some(FaceKind::Floor));
    assert_eq!(h.label(d.level()).as_deref(), Some("floor 0.20 m"));
    let before = d.history().0.len();
    for (k, t) in [0.1, 0.2].into_iter().enumerate() {
        let out = run(
            &mut h,
            &mut d,
            PointerInput {
                wheel: 1.0,
                ..down_at(3.0, 1.0, t)
            },
        );
        assert!(matches!(out, HeightsOut::Preview(_)), "{out:?}");
        assert!((floor(&d, 2) - (0.2 + 0.25 * (k + 1) as f32)).abs() < 1e-6);
    }
    assert_eq!(h.label(d.level()).as_deref(), Some("floor 0.70 m (+0.50)"));
    // The riser to the room is now 0.70 m: red against max_step.
    let w = h.warnings(&d);
    assert!(
        w.iter()
            .any(|w| w.over() && w.text() == "riser 0.70 m > max_step 0.35 m")
    );
    // Still turning: no step yet. Quiet for 0.4 s: one step.
    assert_eq!(
        run(&mut h, &mut d, down_at(3.0, 1.0, 0.5)),
        HeightsOut::Nothing
    );
    assert_eq!(d.history().0.len(), before);
    let out = run(&mut h, &mut d, down_at(3.0, 1.0, 0.61));
    assert!(matches!(out, HeightsOut::Finish { edit: Some(_), .. }));
    assert_eq!(d.history().0.len(), before + 1);
    assert_eq!(
        d.history().0.last().copied(),
        Some("Raise floor of sector #2 by 0.50 m")
    );
    assert!((floor(&d, 2) - 0.7).abs() < 1e-6);
    d.undo();
    assert_eq!(floor(&d, 2), 0.2);
}

#[test]
fn a_step_through_the_ceiling_is_refused_and_the_gesture_stays() {
    let mut d = doc();
    let mut h = Heights::default();
    run(&mut h, &mut d, down_at(1.0, 1.0, 0.0));
    // Twenty notches at once would put the floor at 5 m, over the 3 m ceiling.
    let out = run(
        &mut h,
        &mut d,
        PointerInput {
            wheel: 20.0,
            ..down_at(1.0, 1.0, 0.1)
        },
    );
    assert_eq!(out, HeightsOut::Nothing);
    let label = h.label(d.level()).unwrap_or_default();
    assert!(
        label.starts_with("floor 0.00 m (+0.00) — not lower or higher:"),
        "{label}"
    );
    let out = run(&mut h, &mut d, down_at(1.0, 1.0, 1.0));
    assert_eq!(
        out,
        HeightsOut::Finish {
            original: Box::new(d.object(ObjectId(1)).unwrap()),
            edit: None
        }
    );
}

#[test]
fn an_alt_drag_moves_a_box_up_and_ends_on_release() {
    let mut d = doc();
    let mut h = Heights::default();
    run(&mut h, &mut d, down_at(10.5, 0.5, 0.0));
    assert_eq!(
        h.hover.map(|a| a.target),
        Some(Target::Solid {
            id: ObjectId(5),
            kind: Kind::Aabb
        })
    );
    assert_eq!(h.label(d.level()).as_deref(), Some("box top 1.00 m"));
    for t in 1..=4 {
        run(
            &mut h,
            &mut d,
            PointerInput {
                drag: Some(DRAG_POINTS_PER_STEP * 0.5),
                ..down_at(10.5, 0.5, f64::from(t) * 0.05)
            },
        );
    }
    assert!(h.highlight(d.level()).len() == 12, "a box's twelve edges");
    let out = run(
        &mut h,
        &mut d,
        PointerInput {
            drag_ended: true,
            ..down_at(10.5, 0.5, 0.3)
        },
    );
    assert!(matches!(out, HeightsOut::Finish { edit: Some(_), .. }));
    let b = &d.level().aabbs[0];
    assert_eq!((b.min.y, b.max.y), (0.5, 1.5));
    assert_eq!(
        d.history().0.last().copied(),
        Some("Raise box #5 by 0.50 m")
    );
}

#[test]
fn an_edit_under_the_gesture_ends_it_with_nothing_applied() {
    let mut d = doc();
    let mut h = Heights::default();
    run(&mut h, &mut d, down_at(3.0, 1.0, 0.0));
    run(
        &mut h,
        &mut d,
        PointerInput {
            wheel: 1.0,
            ..down_at(3.0, 1.0, 0.1)
        },
    );
    assert!(h.gesture.is_some());
    // Something else writes the sector meanwhile.
    let mut s = d.level().sectors[1].clone();
    s.ceiling.height = 2.9;
    d.preview(vec![Object::Sector(s)], None);
    assert_eq!(
        run(&mut h, &mut d, down_at(3.0, 1.0, 0.2)),
        HeightsOut::Nothing
    );
    assert!(h.gesture.is_none());
}

#[test]
fn meshes_and_walls_move_up_and_down_like_boxes_one_step_a_gesture() {
    let mut d = doc();
    let mut level = d.level().clone();
    level.meshes.push(crate::level::MeshObject {
        id: ObjectId(6),
        name: None,
        obj: None,
        vertices: vec![
            Vec3::new(20.0, 0.5, 0.0),
            Vec3::new(21.0, 0.5, 0.0),
            Vec3::new(21.0, 0.5, 1.0),
            Vec3::new(20.0, 0.5, 1.0),
        ],
        indices: vec![[0, 1, 2], [0, 2, 3]],
        one_way: false,
        properties: Default::default(),
    });
    level.walls.push(crate::level::WallObject {
        id: ObjectId(7),
        name: None,
        a: Vec2::new(30.0, 0.0),
        b: Vec2::new(30.0, 2.0),
        radius: 0.1,
        height: Some(2.0),
        properties: Default::default(),
    });
    d = Document::new(level, None);
    // The mesh: an Alt+drag of two steps up, one undo step.
    let mut h = Heights::default();
    run(&mut h, &mut d, down_at(20.5, 0.5, 0.0));
    assert_eq!(
        h.hover.map(|a| a.target),
        Some(Target::Solid {
            id: ObjectId(6),
            kind: Kind::Mesh
        })
    );
    assert_eq!(h.label(d.level()).as_deref(), Some("mesh top 0.50 m"));
    let drag = |t: f64| PointerInput {
        drag: Some(DRAG_POINTS_PER_STEP),
        ..down_at(20.5, 0.5, t)
    };
    run(&mut h, &mut d, drag(0.05));
    run(&mut h, &mut d, drag(0.1));
    assert_eq!(h.highlight(d.level()).len(), 12, "the mesh's box");
    let out = run(
        &mut h,
        &mut d,
        PointerInput {
            drag_ended: true,
            ..down_at(20.5, 0.5, 0.2)
        },
    );
    assert!(matches!(out, HeightsOut::Finish { edit: Some(_), .. }));
    assert!(d.level().meshes[0].vertices.iter().all(|v| v.y == 1.0));
    assert_eq!(
        d.history().0.last().copied(),
        Some("Raise mesh #6 by 0.50 m")
    );
    // The wall, aimed from its side: the wheel lowers its top; below the ground it is refused.
    let side = |t: f64, wheel: f32| PointerInput {
        ray: Some((Ray::new(Vec3::new(25.0, 1.0, 1.0), Vec3::X), 100.0)),
        now: t,
        step: 0.25,
        wheel,
        ..PointerInput::default()
    };
    let mut h = Heights::default();
    run(&mut h, &mut d, side(1.0, 0.0));
    assert_eq!(
        h.hover.map(|a| a.target),
        Some(Target::Solid {
            id: ObjectId(7),
            kind: Kind::Wall
        })
    );
    run(&mut h, &mut d, side(1.1, -1.0));
    run(&mut h, &mut d, side(1.2, -1.0));
    let out = run(&mut h, &mut d, side(3.0, 0.0));
    assert!(matches!(out, HeightsOut::Finish { edit: Some(_), .. }));
    assert_eq!(d.level().walls[0].height, Some(1.5));
    assert_eq!(
        d.history().0.last().copied(),
        Some("Lower wall #7 by 0.50 m")
    );
    let w = d.object(ObjectId(7)).unwrap();
    let target = Target::Solid {
        id: ObjectId(7),
        kind: Kind::Wall,
    };
    assert!(moved(d.level(), &w, target, -1.5).is_err());
    assert!(moved(d.level(), &w, target, -1.0).is_ok());
}
