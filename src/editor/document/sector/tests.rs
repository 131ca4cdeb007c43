use glam::Vec2;

use super::*;
use crate::editor::document::Document;

fn rect(x0: f32, z0: f32, x1: f32, z1: f32) -> Vec<Vec2> {
    vec![
        Vec2::new(x0, z0),
        Vec2::new(x1, z0),
        Vec2::new(x1, z1),
        Vec2::new(x0, z1),
    ]
}

/// Two 4 × 4 rooms side by side sharing the edge x = 4.
fn two_rooms() -> Document {
    let mut doc = Document::new(Level::default(), None);
    let e = add_sectors(
        doc.level(),
        vec![
            new_sector(rect(0.0, 0.0, 4.0, 4.0), 0.0, 3.0),
            new_sector(rect(4.0, 0.0, 8.0, 4.0), 0.0, 3.0),
        ],
        "Draw 2 sectors",
    )
    .unwrap();
    assert!(doc.apply(e.label, e.edit));
    doc
}

fn apply(doc: &mut Document, f: impl FnOnce(&Level) -> Result<LabelledEdit, String>) {
    let e = f(doc.level()).unwrap();
    assert!(doc.apply_merging(e.label, e.edit, e.merge_key));
}

fn area(s: &SectorObject) -> f64 {
    ring::signed_area(&s.outline).abs()
        - s.holes
            .iter()
            .map(|h| ring::signed_area(h).abs())
            .sum::<f64>()
}

#[test]
fn a_shared_vertex_moves_in_both_sectors_and_undoes() {
    let mut doc = two_rooms();
    let before = doc.level().clone();
    apply(&mut doc, |l| {
        move_vertex(l, Vec2::new(4.0, 0.0), Vec2::new(5.0, -1.0))
    });
    let l = doc.level();
    assert!(l.sectors[0].outline.contains(&Vec2::new(5.0, -1.0)));
    assert!(l.sectors[1].outline.contains(&Vec2::new(5.0, -1.0)));
    assert!(l.is_valid(), "{:?}", l.validate());
    assert_eq!(
        doc.history().0,
        vec!["Draw 2 sectors", "Move sector vertex"]
    );
    doc.undo();
    assert_eq!(doc.level(), &before);
}

#[test]
fn a_shared_edge_moves_in_both_sectors() {
    let mut doc = two_rooms();
    apply(&mut doc, |l| {
        move_edge(
            l,
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 4.0),
            Vec2::new(1.0, 0.0),
        )
    });
    let l = doc.level();
    assert!((area(&l.sectors[0]) - 20.0).abs() < 1e-6);
    assert!((area(&l.sectors[1]) - 12.0).abs() < 1e-6);
}

#[test]
fn a_move_that_crosses_an_outline_is_refused_with_the_reason() {
    let doc = two_rooms();
    let why = move_vertex(doc.level(), Vec2::new(0.0, 0.0), Vec2::new(6.0, 6.0)).unwrap_err();
    assert!(why.contains("outline") || why.contains("overlaps"), "{why}");
}

#[test]
fn insert_vertex_goes_into_every_sector_sharing_the_edge() {
    let mut doc = two_rooms();
    apply(&mut doc, |l| {
        insert_vertex(
            l,
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 4.0),
            Vec2::new(4.2, 1.0),
        )
    });
    let l = doc.level();
    assert_eq!(l.sectors[0].outline.len(), 5);
    assert_eq!(l.sectors[1].outline.len(), 5);
    assert!(l.sectors[1].outline.contains(&Vec2::new(4.0, 1.0)));
}

#[test]
fn split_then_join_keeps_the_area() {
    let mut doc = two_rooms();
    let id = doc.level().sectors[0].id;
    apply(&mut doc, |l| {
        split_sector(l, id, Vec2::new(-1.0, 1.0), Vec2::new(5.0, 1.0))
    });
    let l = doc.level();
    assert_eq!(l.sectors.len(), 3);
    let (a, c) = (area(&l.sectors[0]), area(&l.sectors[2]));
    assert!((a + c - 16.0).abs() < 1e-6 && a > 1.0 && c > 1.0, "{a} {c}");
    // The neighbour across x = 4 got the cut's point, so the seam stays welded.
    assert!(l.sectors[1].outline.contains(&Vec2::new(4.0, 1.0)));
    assert!(l.is_valid(), "{:?}", l.validate());
    let other = l.sectors[2].id;
    apply(&mut doc, |l| join_sectors(l, id, other));
    let l = doc.level();
    assert_eq!(l.sectors.len(), 2);
    assert!((area(&l.sectors[0]) - 16.0).abs() < 1e-6);
    doc.undo();
    doc.undo();
    assert_eq!(doc.level().sectors.len(), 2);
    assert_eq!(doc.level().sectors[0].outline, rect(0.0, 0.0, 4.0, 4.0));
}

#[test]
fn joining_sectors_without_a_common_edge_is_refused() {
    let mut doc = Document::new(Level::default(), None);
    apply(&mut doc, |l| {
        add_sectors(
            l,
            vec![
                new_sector(rect(0.0, 0.0, 1.0, 1.0), 0.0, 3.0),
                new_sector(rect(5.0, 0.0, 6.0, 1.0), 0.0, 3.0),
            ],
            "Draw",
        )
    });
    let (a, b) = (doc.level().sectors[0].id, doc.level().sectors[1].id);
    assert!(
        join_sectors(doc.level(), a, b)
            .unwrap_err()
            .contains("share no edge")
    );
}

#[test]
fn raise_and_set_surfaces_are_checked_not_clamped() {
    let mut doc = two_rooms();
    let ids: Vec<ObjectId> = doc.level().sectors.iter().map(|s| s.id).collect();
    apply(&mut doc, |l| raise(l, &ids[..1], Which::Floor, 0.5));
    assert_eq!(doc.level().sectors[0].floor.height, 0.5);
    assert_eq!(doc.level().sectors[1].floor.height, 0.0);
    let why = raise(doc.level(), &ids, Which::Floor, 10.0).unwrap_err();
    assert!(why.contains("ceiling"), "{why}");
    let bad = Surface {
        height: 0.0,
        slope: Some(Slope {
            edge: 9,
            degrees: 10.0,
        }),
    };
    assert!(set_surface(doc.level(), &ids, Which::Floor, bad).is_err());
    assert_eq!(doc.history().0.len(), 2);
    doc.undo();
    assert_eq!(doc.level().sectors[0].floor.height, 0.0);
}

#[test]
fn overlapping_sectors_in_one_storey_are_refused_and_storeys_are_not() {
    let doc = two_rooms();
    let over = new_sector(rect(1.0, 1.0, 2.0, 2.0), 0.0, 3.0);
    assert!(
        add_sectors(doc.level(), vec![over], "Draw")
            .unwrap_err()
            .contains("overlaps")
    );
    let upper = new_sector(rect(1.0, 1.0, 2.0, 2.0), 3.0, 6.0);
    assert!(add_sectors(doc.level(), vec![upper], "Draw").is_ok());
}

#[test]
fn a_self_crossing_outline_is_found() {
    let bow = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(2.0, 2.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(0.0, 2.0),
    ];
    assert!(self_crossing(&bow).is_some());
    assert_eq!(self_crossing(&rect(0.0, 0.0, 1.0, 1.0)), None);
    let doc = Document::new(Level::default(), None);
    assert!(add_sectors(doc.level(), vec![new_sector(bow, 0.0, 3.0)], "Draw").is_err());
}

#[test]
fn a_loop_of_sector_edges_is_found_around_a_point() {
    // A ring of four sectors around an empty 2 × 2 courtyard.
    let mut doc = Document::new(Level::default(), None);
    let ring = vec![
        new_sector(rect(0.0, 0.0, 6.0, 2.0), 0.0, 3.0),
        new_sector(rect(0.0, 4.0, 6.0, 6.0), 0.0, 3.0),
        new_sector(
            vec![
                Vec2::new(0.0, 2.0),
                Vec2::new(2.0, 2.0),
                Vec2::new(2.0, 4.0),
                Vec2::new(0.0, 4.0),
            ],
            0.0,
            3.0,
        ),
        new_sector(rect(4.0, 2.0, 6.0, 4.0), 0.0, 3.0),
    ];
    apply(&mut doc, |l| add_sectors(l, ring, "Draw"));
    let l = doc.level();
    let found = loop_around(l, Vec2::new(3.0, 3.0), |_| true).unwrap();
    assert!((ring::signed_area(&found) - 4.0).abs() < 1e-6, "{found:?}");
    assert_eq!(loop_around(l, Vec2::new(30.0, 3.0), |_| true), None);
    apply(&mut doc, |l| {
        add_sectors(l, vec![new_sector(found, 0.0, 3.0)], "Fill")
    });
    assert!(doc.level().is_valid());
}

#[test]
fn copy_paste_brings_sectors_along() {
    let mut doc = two_rooms();
    doc.select_all();
    let text = doc.copy_selection().unwrap();
    let mut other = Document::new(Level::default(), None);
    assert_eq!(other.paste(&text, Some(Vec2::new(100.0, 0.0))).unwrap(), 2);
    assert_eq!(other.level().sectors.len(), 2);
    assert!(other.level().sectors[0].outline[0].x > 90.0);
}

#[test]
fn a_pasted_duplicated_or_moved_sector_onto_a_room_of_its_storey_is_refused() {
    let mut doc = two_rooms();
    let first = doc.level().sectors[0].id;
    doc.select_only([first]);
    let text = doc.copy_selection().unwrap();
    // Pasted over the second room (centred at (6, 2)): refused, nothing added, the reason kept.
    assert_eq!(doc.paste(&text, Some(Vec2::new(6.0, 2.0))).unwrap(), 0);
    assert_eq!(doc.level().sectors.len(), 2);
    let why = doc.take_refused().unwrap();
    assert!(
        why.starts_with("refused: ") && why.contains("overlaps"),
        "{why}"
    );
    assert_eq!(doc.take_refused(), None);
    // Half over it: refused too. Beside it, sharing the edge x = 8: accepted.
    assert_eq!(doc.paste(&text, Some(Vec2::new(8.0, 2.0))).unwrap(), 0);
    assert_eq!(doc.paste(&text, Some(Vec2::new(10.0, 2.0))).unwrap(), 1);
    assert!(doc.level().is_valid());
    // A duplicate 1 m along overlaps the original.
    doc.select_only([first]);
    assert_eq!(doc.duplicate_selection(Vec2::ONE), 0);
    assert!(doc.take_refused().is_some());
    // Moving the first room 1 m into the second: refused, the room where it was.
    let before = doc.level().clone();
    assert!(!doc.move_selection(Vec2::new(1.0, 0.0), "Move"));
    assert_eq!(doc.level(), &before);
    assert!(doc.take_refused().is_some());
    // Moved away from everything: accepted.
    assert!(doc.move_selection(Vec2::new(0.0, 20.0), "Move"));
    // A storey above (its heights clear of the rooms'): pasted over them, accepted.
    let mut upper = doc.level().sectors[1].clone();
    upper.floor.height = 3.0;
    upper.ceiling.height = 6.0;
    let clip = Level {
        sectors: vec![upper],
        ..Level::default()
    };
    assert_eq!(
        doc.paste(&clip.to_ron_string(), Some(Vec2::new(6.0, 2.0)))
            .unwrap(),
        1
    );
    assert!(doc.level().is_valid(), "{:?}", doc.level().validate());
}

#[test]
fn a_level_read_with_an_overlap_can_still_be_edited() {
    let mut a = new_sector(rect(0.0, 0.0, 4.0, 4.0), 0.0, 3.0);
    a.id = ObjectId(1);
    let mut b = new_sector(rect(2.0, 0.0, 6.0, 4.0), 0.0, 3.0);
    b.id = ObjectId(2);
    let mut doc = Document::new(
        Level {
            sectors: vec![a, b.clone()],
            ..Level::default()
        },
        None,
    );
    b.name = Some("overlapping".into());
    assert!(doc.apply(
        "Rename",
        Edit {
            replace: vec![Object::Sector(b)],
            ..Edit::default()
        }
    ));
}

mod random {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Any line across a room either splits it into two sectors whose areas sum to the room's, or is
        /// refused with a reason; nothing panics, and joining the halves gives the room's area back.
        #[test]
        fn split_keeps_the_area_or_says_why(
            ax in -6.0f32..6.0, az in -6.0f32..6.0, bx in -6.0f32..6.0, bz in -6.0f32..6.0,
        ) {
            let mut doc = two_rooms();
            let id = doc.level().sectors[0].id;
            match split_sector(doc.level(), id, Vec2::new(ax, az), Vec2::new(bx, bz)) {
                Ok(e) => {
                    prop_assert!(doc.apply(e.label, e.edit));
                    let l = doc.level();
                    prop_assert_eq!(l.sectors.len(), 3);
                    let total = area(&l.sectors[0]) + area(&l.sectors[2]);
                    prop_assert!((total - 16.0).abs() < 1e-3, "{}", total);
                    let other = l.sectors[2].id;
                    if let Ok(j) = join_sectors(l, id, other) {
                        prop_assert!(doc.apply(j.label, j.edit));
                        prop_assert!((area(&doc.level().sectors[0]) - 16.0).abs() < 1e-3);
                    }
                }
                Err(why) => prop_assert!(!why.is_empty()),
            }
        }

        /// Moving any vertex gives a valid level or the runtime's reason.
        #[test]
        fn a_vertex_move_is_valid_or_refused(x in -10.0f32..10.0, z in -10.0f32..10.0) {
            let doc = two_rooms();
            match move_vertex(doc.level(), Vec2::new(4.0, 4.0), Vec2::new(x, z)) {
                Ok(e) => {
                    let mut doc = doc;
                    doc.apply(e.label, e.edit);
                    let errors = doc.level().validate().into_iter()
                        .filter(|p| p.severity == Severity::Error).count();
                    prop_assert_eq!(errors, 0);
                }
                Err(why) => prop_assert!(!why.is_empty()),
            }
        }
    }
}
