//! Greybox sectors: cooking (areas, heights, watertight seams, risers, lintels, portals, slopes, storeys),
//! validation at `file:line:col`, migration of older files, incremental re-cooking, and a character climbing
//! sector stairs.

#![allow(clippy::unwrap_used)]

use collidoscope::character::CharacterController;
use collidoscope::glam::{Vec2, Vec3};
use collidoscope::level::{Level, ObjectId, SectorObject, Slope, Surface};
use collidoscope::scene::Scene;
use collidoscope::sector::{FaceKind, SectorCook};
use collidoscope::shape::Ray;
use proptest::prelude::*;

fn flat(h: f32) -> Surface {
    Surface {
        height: h,
        slope: None,
    }
}

fn rect(x0: f32, z0: f32, x1: f32, z1: f32) -> Vec<Vec2> {
    vec![
        Vec2::new(x0, z0),
        Vec2::new(x1, z0),
        Vec2::new(x1, z1),
        Vec2::new(x0, z1),
    ]
}

fn sector(id: u32, outline: Vec<Vec2>, floor: f32, ceiling: f32) -> SectorObject {
    SectorObject {
        id: ObjectId(id),
        name: None,
        outline,
        holes: Vec::new(),
        floor: flat(floor),
        ceiling: flat(ceiling),
        properties: Default::default(),
        one_way: false,
    }
}

fn level_of(sectors: Vec<SectorObject>) -> Level {
    Level {
        sectors,
        ..Level::default()
    }
}

fn down(scene: &Scene, x: f32, y: f32, z: f32) -> Option<(ObjectId, f32)> {
    scene
        .cast_ray(&Ray::new(Vec3::new(x, y, z), -Vec3::Y), 1e4)
        .map(|h| (h.object, h.point.y))
}

#[test]
fn a_riser_belongs_to_the_higher_floor_and_a_portal_lets_rays_through() {
    let level = level_of(vec![
        sector(1, rect(0.0, 0.0, 2.0, 2.0), 0.0, 3.0),
        sector(2, rect(2.0, 0.0, 4.0, 2.0), 0.2, 3.0),
    ]);
    assert!(level.validate().is_empty(), "{:?}", level.validate());
    let scene = Scene::from_level(&level).unwrap();
    assert_eq!(down(&scene, 1.0, 2.0, 1.0), Some((ObjectId(1), 0.0)));
    let (id, y) = down(&scene, 3.0, 2.0, 1.0).unwrap();
    assert!(id == ObjectId(2) && (y - 0.2).abs() < 1e-6, "{id} {y}");
    // Between the floors: the riser at x = 2, held by the higher floor's sector.
    let hit = scene
        .cast_ray(&Ray::new(Vec3::new(1.0, 0.1, 1.0), Vec3::X), 100.0)
        .unwrap();
    assert_eq!(
        (hit.object, hit.t, hit.normal),
        (ObjectId(2), 1.0, -Vec3::X)
    );
    // Above the higher floor: open to the far wall at x = 4.
    let hit = scene
        .cast_ray(&Ray::new(Vec3::new(1.0, 1.0, 1.0), Vec3::X), 100.0)
        .unwrap();
    assert!(
        hit.object == ObjectId(2) && (hit.t - 3.0).abs() < 1e-5,
        "{hit:?}"
    );
    // Up: the ceiling.
    let hit = scene
        .cast_ray(&Ray::new(Vec3::new(1.0, 1.0, 1.0), Vec3::Y), 100.0)
        .unwrap();
    assert_eq!((hit.object, hit.normal), (ObjectId(1), -Vec3::Y));
    assert!((hit.point.y - 3.0).abs() < 1e-5);
}

/// A room of [`rows_of_rooms`]: its id, `[x0, z0, x1, z1]`, floor and ceiling.
type Room = (u32, [f32; 4], f32, f32);

/// A generated sector map: rows of rooms whose x splits differ from row to row (so the edges between rows
/// overlap partially), random floors and ceilings; `(level, rooms as (id, x0, z0, x1, z1, floor, ceiling))`.
fn rows_of_rooms(splits: &[Vec<f32>], heights: &[(f32, f32)]) -> (Level, Vec<Room>) {
    let mut sectors = Vec::new();
    let mut rooms = Vec::new();
    let mut k = 0;
    for (row, xs) in splits.iter().enumerate() {
        let (z0, z1) = (row as f32 * 3.0, row as f32 * 3.0 + 3.0);
        // A row's outline holds every x split of the rows above and below it as points, the way an editor
        // that welds points writes them (the cooking also copes without).
        for w in xs.windows(2) {
            let (f, c) = heights[k % heights.len()];
            let id = k as u32 + 1;
            sectors.push(sector(id, rect(w[0], z0, w[1], z1), f, c));
            rooms.push((id, [w[0], z0, w[1], z1], f, c));
            k += 1;
        }
    }
    (level_of(sectors), rooms)
}

fn splits_strategy() -> impl Strategy<Value = Vec<Vec<f32>>> {
    prop::collection::vec(prop::collection::btree_set(1u32..40, 2..6), 2..5).prop_map(|rows| {
        rows.into_iter()
            .map(|set| {
                let mut xs = vec![0.0];
                xs.extend(set.into_iter().map(|v| v as f32 * 0.25));
                xs.push(10.5);
                xs
            })
            .collect()
    })
}

fn heights_strategy() -> impl Strategy<Value = Vec<(f32, f32)>> {
    prop::collection::vec((0u32..8, 0u32..6), 4..16).prop_map(|v| {
        v.into_iter()
            .map(|(f, c)| (f as f32 * 0.15, f as f32 * 0.15 + 2.0 + c as f32 * 0.1))
            .collect()
    })
}

/// The plan area of a cooked sector's floor triangles.
fn floor_area(cook: &SectorCook, id: u32) -> f64 {
    let c = cook.sector(ObjectId(id)).unwrap();
    c.indices
        .iter()
        .zip(&c.faces)
        .filter(|(_, f)| **f == FaceKind::Floor)
        .map(|(t, _)| {
            let [a, b, c] = t.map(|i| c.vertices[i as usize].as_dvec3());
            ((b.x - a.x) * (c.z - a.z) - (b.z - a.z) * (c.x - a.x)).abs() * 0.5
        })
        .sum()
}

/// The angle of `n` from up, degrees, measured as `atan2` of its horizontal and vertical parts in `f64`: an
/// `acos` of an `f32` dot product cannot tell angles under about 0.02° from 0 (the cosine rounds to 1).
fn angle_from_up(n: Vec3) -> f64 {
    let n = n.as_dvec3();
    n.x.hypot(n.z).atan2(n.y).to_degrees()
}

/// A slope of a hundredth of a degree has that angle (found by the property below with an `f32` `acos`, which
/// read 0 for 0.013°).
#[test]
fn a_tiny_slope_has_its_angle() {
    for deg in [0.013f32, -0.013, 0.001, 0.05] {
        let mut s = sector(1, rect(-2.0, -1.0, 3.0, 2.5), 0.0, 10.0);
        s.floor.slope = Some(Slope {
            edge: 0,
            degrees: deg,
        });
        let scene = Scene::from_level(&level_of(vec![s])).unwrap();
        let hit = scene
            .cast_ray(&Ray::new(Vec3::new(0.5, 5.0, 0.75), -Vec3::Y), 100.0)
            .unwrap();
        let angle = angle_from_up(hit.normal);
        assert!(
            (angle - f64::from(deg.abs())).abs() < 0.001,
            "{angle} for {deg}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Areas, heights, no leaks near shared edges, risers hit and portals passed, on random sector maps with
    /// partial overlaps.
    #[test]
    fn random_maps_cook_watertight(splits in splits_strategy(), heights in heights_strategy(), seed in 0u64..1000) {
        let (level, rooms) = rows_of_rooms(&splits, &heights);
        prop_assert!(level.validate().is_empty(), "{:?}", level.validate());
        let scene = Scene::from_level(&level).unwrap();
        let cook = level.cook_sectors();
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng >> 11) as f32 / (1u64 << 53) as f32
        };
        for &(id, [x0, z0, x1, z1], f, c) in &rooms {
            let area = f64::from(x1 - x0) * f64::from(z1 - z0);
            prop_assert!((floor_area(&cook, id) - area).abs() <= 1e-5 * area);
            for k in 0..40 {
                // Near the edges for most rays: 1 to 5 mm inside.
                let room = (x1 - x0).min(z1 - z0);
                let far = if k < 30 { 0.004 } else { room * 0.5 - 0.002 };
                let inset = 0.001 + next() * far.min(room * 0.5 - 0.002);
                let side = (next() * 4.0) as u32;
                let u = next();
                let (x, z) = match side {
                    0 => (x0 + inset, z0 + inset + u * (z1 - z0 - 2.0 * inset)),
                    1 => (x1 - inset, z0 + inset + u * (z1 - z0 - 2.0 * inset)),
                    2 => (x0 + inset + u * (x1 - x0 - 2.0 * inset), z0 + inset),
                    _ => (x0 + inset + u * (x1 - x0 - 2.0 * inset), z1 - inset),
                };
                let y = f + 0.01 + next() * (c - f - 0.02);
                let d = scene.cast_ray(&Ray::new(Vec3::new(x, y, z), -Vec3::Y), 100.0);
                prop_assert!(d.is_some_and(|h| h.object == ObjectId(id) && (h.point.y - f).abs() <= 1e-4),
                    "down from ({x}, {y}, {z}) in #{id}: {d:?}");
                let u = scene.cast_ray(&Ray::new(Vec3::new(x, y, z), Vec3::Y), 100.0);
                prop_assert!(u.is_some_and(|h| h.object == ObjectId(id) && (h.point.y - c).abs() <= 1e-4),
                    "up from ({x}, {y}, {z}) in #{id}: {u:?}");
            }
        }
        // Across each shared edge between rooms of a row: the riser, then the portal.
        for w in rooms.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            if a.1[1] != b.1[1] || a.1[2] != b.1[0] {
                continue;
            }
            let edge_x = a.1[2];
            let z = (a.1[1] + a.1[3]) * 0.5;
            let ((lo_id, lo_box, lo_f, lo_c), (hi_id, _, hi_f, hi_c)) = if a.2 <= b.2 { (a, b) } else { (b, a) };
            let dir = if lo_box[0] < edge_x { Vec3::X } else { -Vec3::X };
            let off = ((lo_box[2] - lo_box[0]) * 0.5).min(0.25);
            let start = Vec3::new(edge_x - dir.x * off, 0.0, z);
            if hi_f - lo_f > 0.01 {
                let y = (lo_f + hi_f) * 0.5;
                let h = scene.cast_ray(&Ray::new(start + Vec3::Y * y, dir), 100.0).unwrap();
                prop_assert!(h.object == ObjectId(*hi_id) && (h.t - off).abs() < 1e-4, "riser {h:?}");
            }
            let (top, bottom) = (lo_c.min(*hi_c), *hi_f);
            if top - bottom > 0.02 {
                let y = (top + bottom) * 0.5;
                let h = scene.cast_ray(&Ray::new(start + Vec3::Y * y, dir), 100.0);
                prop_assert!(h.is_none_or(|h| h.t > off + 0.01), "portal {h:?} (#{lo_id} to #{hi_id})");
            }
        }
    }

    /// A slope's normal is its angle from up, and its floor passes through its edge at its height.
    #[test]
    fn slopes_have_their_angle(deg in -70.0f32..70.0, edge in 0u32..4, h in -3.0f32..3.0) {
        let mut s = sector(1, rect(-2.0, -1.0, 3.0, 2.5), h, h + 10.0);
        s.floor.slope = Some(Slope { edge, degrees: deg });
        s.ceiling.height = h + 20.0;
        let level = level_of(vec![s]);
        prop_assert!(level.validate().is_empty(), "{:?}", level.validate());
        let scene = Scene::from_level(&level).unwrap();
        let hit = scene.cast_ray(&Ray::new(Vec3::new(0.5, 15.0 + h, 0.75), -Vec3::Y), 100.0).unwrap();
        let angle = angle_from_up(hit.normal);
        prop_assert!((angle - f64::from(deg.abs())).abs() < 0.01, "{angle} for {deg}");
        let o = &level.sectors[0].outline;
        let (a, b) = (o[edge as usize], o[(edge as usize + 1) % 4]);
        let mid = (a + b) * 0.5;
        let at_edge = scene.cast_ray(&Ray::new(Vec3::new(mid.x, 15.0 + h, mid.y) + Vec3::new(
            (0.5 - mid.x) * 1e-3, 0.0, (0.75 - mid.y) * 1e-3), -Vec3::Y), 100.0).unwrap();
        prop_assert!((at_edge.point.y - h).abs() < 1e-2, "{} vs {h}", at_edge.point.y);
    }

    /// An edit re-cooked incrementally gives what a fresh cook gives, and so does the scene.
    #[test]
    fn incremental_updates_match_a_fresh_cook(splits in splits_strategy(), heights in heights_strategy(),
        pick in 0usize..100, lift in 0u32..5, remove in any::<bool>()) {
        let (mut level, rooms) = rows_of_rooms(&splits, &heights);
        let mut cook = level.cook_sectors();
        let mut scene = Scene::build(&level);
        let k = pick % rooms.len();
        let id = level.sectors[k].id;
        if remove {
            level.sectors.remove(k);
        } else {
            level.sectors[k].floor.height += lift as f32 * 0.1;
        }
        let changed = scene.update_sectors(&mut cook, &level, &[id]);
        prop_assert!(changed.contains(&id) || lift == 0);
        let fresh = level.cook_sectors();
        for s in &level.sectors {
            prop_assert_eq!(cook.sector(s.id), fresh.sector(s.id));
        }
        let fresh_scene = Scene::build(&level);
        for &(_, [x0, z0, x1, z1], ..) in &rooms {
            let p = Vec3::new((x0 + x1) * 0.5, 1.0, (z0 + z1) * 0.5);
            for dir in [-Vec3::Y, Vec3::X, Vec3::Z, Vec3::new(0.3, -0.2, 0.9)] {
                let r = Ray::new(p, dir);
                prop_assert_eq!(scene.cast_ray(&r, 100.0), fresh_scene.cast_ray(&r, 100.0));
            }
        }
    }
}

#[test]
fn storeys_overlap_in_plan_and_the_walker_starts_on_its_own() {
    let mut level = level_of(vec![
        sector(1, rect(0.0, 0.0, 4.0, 4.0), 0.0, 3.0),
        sector(2, rect(1.0, 1.0, 3.0, 3.0), 3.0, 6.0),
    ]);
    assert!(level.validate().is_empty(), "{:?}", level.validate());
    let scene = Scene::from_level(&level).unwrap();
    // The upper storey stands on the lower one's ceiling: each ray meets its own sector's surface.
    assert_eq!(down(&scene, 2.0, 5.0, 2.0), Some((ObjectId(2), 3.0)));
    assert_eq!(down(&scene, 2.0, 2.0, 2.0), Some((ObjectId(1), 0.0)));
    let up = scene
        .cast_ray(&Ray::new(Vec3::new(2.0, 2.0, 2.0), Vec3::Y), 100.0)
        .unwrap();
    assert!(
        up.object == ObjectId(1) && (up.point.y - 3.0).abs() < 1e-5,
        "{up:?}"
    );
    // The walker's storey: absent height is the ground floor, 3 the upper one.
    level.walker = Some(collidoscope::level::WalkerStart {
        position: Vec2::new(2.0, 2.0),
        ..Default::default()
    });
    assert_eq!(level.start_feet(&scene), Some(Vec3::new(2.0, 0.0, 2.0)));
    level.walker.as_mut().unwrap().height = Some(3.0);
    assert_eq!(level.start_feet(&scene), Some(Vec3::new(2.0, 3.0, 2.0)));
    // `check --reach` maps from that storey: the upper room is reached, the lower one under it is not (its
    // walls close it all round: a walled room with no way down).
    let settings = collidoscope::character::ReachSettings::default();
    let map = level.reach_map(&scene, &settings).unwrap();
    assert!(map.reachable(Vec3::new(2.0, 3.0, 2.0)));
    assert!(!map.reachable(Vec3::new(0.5, 0.0, 0.5)));
    level.walker.as_mut().unwrap().height = None;
    let map = level.reach_map(&scene, &settings).unwrap();
    assert!(map.reachable(Vec3::new(0.5, 0.0, 0.5)));
    assert!(!map.reachable(Vec3::new(2.0, 3.0, 2.0)));
    level.walker.as_mut().unwrap().height = Some(3.0);
    // The same two overlapping where their heights overlap: an error naming both.
    level.sectors[1].floor.height = 2.0;
    let problems = level.validate();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].field, "sectors[1]");
    assert!(
        problems[0].message.contains("#1"),
        "{}",
        problems[0].message
    );
}

#[test]
fn bad_sectors_are_located_at_their_line_and_column() {
    let text = r#"(version: 3,
    sectors: [
        (id: 1, outline: [(0.0, 0.0), (1.0, 0.0)], floor: (height: 0.0), ceiling: (height: 2.0)),
        (id: 2, outline: [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)], floor: (height: 0.0), ceiling: (height: 2.0)),
        (id: 3, outline: [(10.0, 0.0), (12.0, 2.0), (12.0, 0.0), (10.0, 3.0)], floor: (height: 0.0), ceiling: (height: 2.0)),
        (id: 4, outline: [(20.0, 0.0), (24.0, 0.0), (24.0, 4.0), (20.0, 4.0)], holes: [[(30.0, 1.0), (31.0, 1.0), (31.0, 2.0)]],
            floor: (height: 0.0, slope: (edge: 7, degrees: 10.0)), ceiling: (height: 2.0, slope: (edge: 0, degrees: 89.0))),
        (id: 5, outline: [(40.0, 0.0), (44.0, 0.0), (44.0, 4.0), (40.0, 4.0)], floor: (height: 1.0), ceiling: (height: 0.5)),
        (id: 6, outline: [(50.0, 0.0), (54.0, 0.0), (54.0, 4.0), (50.0, 4.0)], holes: [[(53.0, 1.0), (56.0, 1.0), (53.0, 2.0)]],
            floor: (height: 0.0), ceiling: (height: 2.0, slope: (edge: 0, degrees: -40.0))),
    ],
)"#;
    let level = Level::from_ron_str(text).unwrap();
    let problems = level.validate();
    let at = |field: &str| {
        problems
            .iter()
            .find(|p| p.field == field)
            .map(|p| (p.line, p.col, p.message.clone()))
            .unwrap_or_else(|| panic!("no problem at {field}: {problems:#?}"))
    };
    assert_eq!(at("sectors[0].outline").0, Some(3));
    assert_eq!(at("sectors[0].outline").1, Some(17));
    assert!(at("sectors[1].outline").2.contains("zero area"));
    let crossing = at("sectors[2].outline[0]");
    assert!(crossing.2.contains("crosses itself"), "{}", crossing.2);
    assert_eq!(crossing.0, Some(5));
    assert!(at("sectors[3].holes[0]").2.contains("outside"));
    assert!(at("sectors[3].floor.slope.edge").2.contains("out of range"));
    assert!(at("sectors[3].ceiling.slope.degrees").2.contains("89"));
    assert_eq!(at("sectors[3].floor.slope.edge").0, Some(7));
    assert!(at("sectors[4].ceiling").2.contains("below the floor"));
    assert!(at("sectors[5].holes[0]").2.contains("crosses the outline"));
    // The sloped ceiling falls 4 tan 40° = 3.36 m across: below the floor at the far side.
    assert!(at("sectors[5].ceiling").2.contains("below the floor"));
    assert!(Scene::from_level(&level).is_err());
    // Non-finite values never panic and are named.
    let nan = r#"(version: 3, sectors: [(id: 1, outline: [(0.0, 0.0), (1.0, 0.0), (NaN, 1.0)],
        floor: (height: inf), ceiling: (height: 2.0))])"#;
    let problems = Level::from_ron_str(nan).unwrap().validate();
    let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
    assert!(fields.contains(&"sectors[0].outline[2]"), "{fields:?}");
    assert!(fields.contains(&"sectors[0].floor.height"), "{fields:?}");
}

#[test]
fn older_versions_migrate_and_version_3_round_trips() {
    for old in [
        "(version: 1, walls: [(id: 1, a: (0.0, 0.0), b: (4.0, 0.0), radius: 0.25)])",
        "(version: 2, walls: [(id: 1, a: (0.0, 0.0), b: (4.0, 0.0), radius: 0.25)], entities: [])",
    ] {
        let level = Level::from_ron_str(old).unwrap();
        assert!(level.sectors.is_empty());
        let text = level.to_ron_string();
        assert!(text.contains("version: 3,"), "{text}");
        assert_eq!(Level::from_ron_str(&text).unwrap(), level);
    }
    // Sectors in a version 2 file are an unknown field.
    assert!(Level::from_ron_str("(version: 2, sectors: [])").is_err());
    let mut level = level_of(vec![
        sector(1, rect(0.0, 0.0, 2.0, 2.0), 0.0, 3.0),
        sector(2, rect(2.0, 0.0, 4.0, 2.0), 0.2, 3.0),
    ]);
    level.sectors[1].name = Some("step".into());
    level.sectors[1].holes = vec![rect(2.5, 0.5, 3.0, 1.0)];
    level.sectors[1].ceiling.slope = Some(Slope {
        edge: 1,
        degrees: -5.0,
    });
    level.walker = Some(collidoscope::level::WalkerStart {
        height: Some(0.2),
        ..Default::default()
    });
    let text = level.to_ron_string();
    assert!(text.contains("slope: (edge: 1, degrees: -5.0)"), "{text}");
    assert_eq!(Level::from_ron_str(&text).unwrap(), level);
    // name, holes, slope and properties may be left out.
    let short = "(version: 3, sectors: [(id: 7, outline: [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)], \
        floor: (height: 0.0), ceiling: (height: 0.0))])";
    let l = Level::from_ron_str(short).unwrap();
    assert!(
        l.validate().is_empty(),
        "a closed door is valid: {:?}",
        l.validate()
    );
}

#[test]
fn a_character_climbs_sector_stairs() {
    // Ten steps of 0.2 m risers and 0.5 m treads up to a 2 m balcony, each step its own sector.
    let mut sectors = vec![sector(1, rect(-3.0, 0.0, 0.0, 2.0), 0.0, 5.0)];
    for k in 0..10u32 {
        let x = k as f32 * 0.5;
        sectors.push(sector(
            k + 2,
            rect(x, 0.0, x + 0.5, 2.0),
            0.2 * (k + 1) as f32,
            5.0,
        ));
    }
    sectors.push(sector(20, rect(5.0, 0.0, 8.0, 2.0), 2.0, 5.0));
    let level = level_of(sectors);
    assert!(level.validate().is_empty(), "{:?}", level.validate());
    let scene = Scene::from_level(&level).unwrap();
    let ctl = CharacterController::default();
    let mut feet = Vec3::new(-2.0, 0.0 + ctl.skin, 1.0);
    let mut max_step = 0.0f32;
    for _ in 0..200 {
        let m = ctl.move_character(&scene, feet, Vec3::new(0.05, -0.05, 0.0));
        max_step = max_step.max(m.stepped_up);
        feet = m.feet;
        if feet.x > 6.5 {
            break;
        }
    }
    assert!(feet.x > 6.5, "stuck at {feet}");
    assert!(
        (feet.y - 2.0).abs() < 2.0 * ctl.skin,
        "on the balcony: {feet}"
    );
    assert!(
        (max_step - 0.2).abs() < 1e-3 || max_step < 0.2 + 1e-3,
        "{max_step}"
    );
}

#[test]
fn a_large_sector_file_round_trips_and_validates() {
    // 25,000 rooms: above the sizes where lists are written and read in pieces on every core.
    let mut sectors = Vec::new();
    for k in 0..25_000u32 {
        let (x, z) = ((k % 250) as f32 * 2.0, (k / 250) as f32 * 2.0);
        let mut s = sector(
            k + 1,
            rect(x, z, x + 2.0, z + 2.0),
            (k % 5) as f32 * 0.1,
            3.0,
        );
        if k % 7 == 0 {
            s.name = Some(format!("room \"{k}\", with (brackets)"));
        }
        sectors.push(s);
    }
    let level = level_of(sectors);
    let text = level.to_ron_string();
    assert!(text.len() > 1 << 20);
    let back = Level::from_ron_str(&text).unwrap();
    assert_eq!(back, level);
    assert!(back.validate().is_empty());
    // A kilometre-wide sector beside them cooks and validates too.
    let mut big = level;
    big.sectors
        .push(sector(99_999, rect(-1000.0, -1000.0, 0.0, 0.0), 0.0, 10.0));
    assert!(big.validate().is_empty());
    let scene = Scene::from_level(&big).unwrap();
    assert_eq!(
        down(&scene, -500.0, 5.0, -500.0),
        Some((ObjectId(99_999), 0.0))
    );
}
