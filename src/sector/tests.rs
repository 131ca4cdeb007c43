//! Cooking on hand-made sectors: faces, owners, split points and incremental updates.

use glam::{Vec2, Vec3};

use super::*;

fn rect(x0: f32, z0: f32, x1: f32, z1: f32) -> Vec<Vec2> {
    vec![
        Vec2::new(x0, z0),
        Vec2::new(x1, z0),
        Vec2::new(x1, z1),
        Vec2::new(x0, z1),
    ]
}

fn flat(h: f32) -> Surface {
    Surface {
        height: h,
        slope: None,
    }
}

fn geom(id: u32, outline: &[Vec2], floor: f32, ceiling: f32) -> SectorGeom<'_> {
    SectorGeom {
        id: ObjectId(id),
        outline,
        holes: &[],
        floor: flat(floor),
        ceiling: flat(ceiling),
    }
}

fn count(c: &CookedSector, kind: FaceKind) -> usize {
    c.faces.iter().filter(|&&f| f == kind).count()
}

/// Total area of the faces of one kind, and their plan area for floors.
fn area(c: &CookedSector, kind: FaceKind) -> f64 {
    c.indices
        .iter()
        .zip(&c.faces)
        .filter(|(_, f)| **f == kind)
        .map(|(t, _)| {
            let [a, b, c] = t.map(|i| c.vertices[i as usize].as_dvec3());
            (b - a).cross(c - a).length() * 0.5
        })
        .sum()
}

#[test]
fn risers_lintels_and_walls_go_to_their_owners() {
    let (a, b) = (rect(0.0, 0.0, 2.0, 2.0), rect(2.0, 0.0, 4.0, 2.0));
    let cook = SectorCook::new([geom(1, &a, 0.0, 3.0), geom(2, &b, 0.5, 2.5)]);
    let (s1, s2) = (
        cook.sector(ObjectId(1)).unwrap(),
        cook.sector(ObjectId(2)).unwrap(),
    );
    // The riser 0..0.5 and the lintel 2.5..3 over the shared edge, both seen from sector 1, are sector 2's.
    assert_eq!(count(s2, FaceKind::Riser), 2);
    assert_eq!(count(s2, FaceKind::Lintel), 2);
    assert!((area(s2, FaceKind::Riser) - 1.0).abs() < 1e-6);
    assert!((area(s2, FaceKind::Lintel) - 1.0).abs() < 1e-6);
    assert_eq!(count(s1, FaceKind::Riser) + count(s1, FaceKind::Lintel), 0);
    // Three solid walls each.
    assert!((area(s1, FaceKind::Wall) - 3.0 * 2.0 * 3.0).abs() < 1e-5);
    assert!((area(s2, FaceKind::Wall) - 3.0 * 2.0 * 2.0).abs() < 1e-5);
    assert!((area(s1, FaceKind::Floor) - 4.0).abs() < 1e-6);
    assert_eq!(cook.neighbours(ObjectId(1)), vec![ObjectId(2)]);
}

#[test]
fn a_partial_overlap_shares_just_the_overlap() {
    // Sector 2 is shifted by 1 along the shared edge x = 2: they share z in 1..2.
    let (a, b) = (rect(0.0, 0.0, 2.0, 2.0), rect(2.0, 1.0, 4.0, 3.0));
    let cook = SectorCook::new([geom(1, &a, 0.0, 3.0), geom(2, &b, 0.0, 3.0)]);
    let (s1, s2) = (
        cook.sector(ObjectId(1)).unwrap(),
        cook.sector(ObjectId(2)).unwrap(),
    );
    // Walls: sector 1 keeps 3 full edges and half of the shared one, sector 2 likewise.
    assert!((area(s1, FaceKind::Wall) - 7.0 * 3.0).abs() < 1e-5);
    assert!((area(s2, FaceKind::Wall) - 7.0 * 3.0).abs() < 1e-5);
    // Each floor gained the other's corner as a split point: the floors meet vertex to vertex.
    let has = |c: &CookedSector, x: f32, z: f32| {
        c.vertices
            .iter()
            .any(|v| v.x == x && v.z == z && v.y == 0.0)
    };
    assert!(has(s1, 2.0, 1.0));
    assert!(has(s2, 2.0, 2.0));
}

#[test]
fn storeys_share_nothing() {
    let (a, b) = (rect(0.0, 0.0, 2.0, 2.0), rect(2.0, 0.0, 4.0, 2.0));
    let cook = SectorCook::new([geom(1, &a, 0.0, 3.0), geom(2, &b, 3.0, 6.0)]);
    let (s1, s2) = (
        cook.sector(ObjectId(1)).unwrap(),
        cook.sector(ObjectId(2)).unwrap(),
    );
    assert!((area(s1, FaceKind::Wall) - 8.0 * 3.0).abs() < 1e-4);
    assert!((area(s2, FaceKind::Wall) - 8.0 * 3.0).abs() < 1e-4);
}

#[test]
fn an_update_recooks_the_neighbours_only() {
    let rooms: Vec<Vec<Vec2>> = (0..5)
        .map(|i| rect(i as f32 * 2.0, 0.0, i as f32 * 2.0 + 2.0, 2.0))
        .collect();
    let mut cook = SectorCook::new(
        rooms
            .iter()
            .enumerate()
            .map(|(i, r)| geom(i as u32 + 1, r, 0.0, 3.0)),
    );
    let changed = cook.update([(ObjectId(3), Some(geom(3, &rooms[2], 0.3, 3.0)))]);
    assert_eq!(changed, vec![ObjectId(3)]);
    // The risers into sector 3 are its own: its neighbours' triangles did not change.
    assert_eq!(count(cook.sector(ObjectId(3)).unwrap(), FaceKind::Riser), 4);
    let fresh = SectorCook::new(
        rooms
            .iter()
            .enumerate()
            .map(|(i, r)| geom(i as u32 + 1, r, if i == 2 { 0.3 } else { 0.0 }, 3.0)),
    );
    for id in 1..=5 {
        assert_eq!(
            cook.sector(ObjectId(id)),
            fresh.sector(ObjectId(id)),
            "sector {id}"
        );
    }
    // Lowering a neighbour's ceiling: the lintels seen from 3 and 5 are its own.
    let changed = cook.update([(ObjectId(4), Some(geom(4, &rooms[3], 0.0, 2.0)))]);
    assert_eq!(changed, vec![ObjectId(4)]);
    // Removing one: its neighbour's lintel toward it goes, and a wall comes.
    let changed = cook.update([(ObjectId(5), None)]);
    assert_eq!(changed, vec![ObjectId(4), ObjectId(5)]);
    assert!(cook.sector(ObjectId(5)).is_none());
    let fresh = SectorCook::new(rooms[..4].iter().enumerate().map(|(i, r)| {
        let floor = if i == 2 { 0.3 } else { 0.0 };
        geom(i as u32 + 1, r, floor, if i == 3 { 2.0 } else { 3.0 })
    }));
    for id in 1..=4 {
        assert_eq!(
            cook.sector(ObjectId(id)),
            fresh.sector(ObjectId(id)),
            "sector {id}"
        );
    }
}

#[test]
fn sloped_floors_meet_with_faces_that_follow_them() {
    let (a, b) = (rect(0.0, 0.0, 2.0, 2.0), rect(2.0, 0.0, 4.0, 2.0));
    // Sector 1 rises toward +z from its edge 0 (z = 0): at the shared edge x = 2 its floor runs 0..2 tan 30°.
    let s1 = SectorGeom {
        floor: Surface {
            height: 0.0,
            slope: Some(Slope {
                edge: 0,
                degrees: 30.0,
            }),
        },
        ..geom(1, &a, 0.0, 5.0)
    };
    let cook = SectorCook::new([s1, geom(2, &b, 0.5, 5.0)]);
    let (c1, c2) = (
        cook.sector(ObjectId(1)).unwrap(),
        cook.sector(ObjectId(2)).unwrap(),
    );
    // The lines cross at z = 0.5 / tan 30°: sector 2 holds the riser before, sector 1 after.
    let cross = 0.5 / 30f64.to_radians().tan();
    let before = 0.5 * cross * 0.5;
    let rise_end = 2.0 * 30f64.to_radians().tan();
    let after = (rise_end - 0.5) * (2.0 - cross) * 0.5;
    assert!(
        (area(c2, FaceKind::Riser) - before).abs() < 1e-5,
        "{}",
        area(c2, FaceKind::Riser)
    );
    assert!(
        (area(c1, FaceKind::Riser) - after).abs() < 1e-5,
        "{}",
        area(c1, FaceKind::Riser)
    );
}

/// The distinct corners of `c`'s triangles of one kind on the line `x = 2` strictly between its ends `z = 0`
/// and `z = 2`.
fn inside_seam(c: &CookedSector, kind: FaceKind) -> Vec<Vec3> {
    let mut out: Vec<Vec3> = Vec::new();
    for (t, _) in c.indices.iter().zip(&c.faces).filter(|(_, f)| **f == kind) {
        for v in t.map(|i| c.vertices[i as usize]) {
            if v.x == 2.0 && v.z > 0.0 && v.z < 2.0 && !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

fn sloped(id: u32, outline: &[Vec2], floor: f32, edge: u32, degrees: f32) -> SectorGeom<'_> {
    SectorGeom {
        floor: Surface {
            height: floor,
            slope: Some(Slope { edge, degrees }),
        },
        ..geom(id, outline, floor, 5.0)
    }
}

#[test]
fn sloped_floors_crossing_share_the_crossing_vertex() {
    // Sector 1 is flat at 0.5; sector 2 rises 45° from its edge z = 0, so along the shared edge x = 2 its
    // floor runs from 0 to 2 and crosses sector 1's at z = 0.5: from the lesser end (2, 0) the gaps are 0.5
    // and -1.5, u = 0.5 / 2 = 0.25 exactly.
    let (a, b) = (rect(0.0, 0.0, 2.0, 2.0), rect(2.0, 0.0, 4.0, 2.0));
    let cook = SectorCook::new([geom(1, &a, 0.5, 5.0), sloped(2, &b, 0.0, 0, 45.0)]);
    let (c1, c2) = (
        cook.sector(ObjectId(1)).unwrap(),
        cook.sector(ObjectId(2)).unwrap(),
    );
    let p = Vec3::new(2.0, 0.5, 0.5);
    assert_eq!(inside_seam(c1, FaceKind::Floor), vec![p]);
    assert_eq!(inside_seam(c2, FaceKind::Floor), vec![p]);
    // Each holds the riser on its side of the crossing (sector 1 before it, sector 2 after), both ending
    // at the floors' vertex: no T-junction.
    assert!(inside_seam(c1, FaceKind::Riser).contains(&p));
    assert!(inside_seam(c2, FaceKind::Riser).contains(&p));
    assert!(inside_seam(c1, FaceKind::Riser).iter().all(|v| v.z <= 0.5));
    assert!(inside_seam(c2, FaceKind::Riser).iter().all(|v| v.z >= 0.5));
}

#[test]
fn a_crossing_is_the_same_point_whichever_way_the_edges_run() {
    // Along x = 2 sector 1's floor is 0.1 + z tan 10° and sector 2's 0.4 − z tan 5°: they cross at
    // z = 0.3 / (tan 10° + tan 5°), about 1.137, not a round number.
    let a = rect(0.0, 0.0, 2.0, 2.0);
    let ccw = rect(2.0, 0.0, 4.0, 2.0);
    // Clockwise from the same corner: edge 3 runs along z = 0; the shared edge runs as sector 1's does.
    let cw: Vec<Vec2> = [0, 3, 2, 1].iter().map(|&i| ccw[i]).collect();
    let z = 0.3 / (10f64.to_radians().tan() + 5f64.to_radians().tan());
    let mut points = Vec::new();
    for b in [sloped(2, &ccw, 0.4, 0, -5.0), sloped(2, &cw, 0.4, 3, -5.0)] {
        let cook = SectorCook::new([sloped(1, &a, 0.1, 0, 10.0), b]);
        let (c1, c2) = (
            cook.sector(ObjectId(1)).unwrap(),
            cook.sector(ObjectId(2)).unwrap(),
        );
        let (f1, f2) = (
            inside_seam(c1, FaceKind::Floor),
            inside_seam(c2, FaceKind::Floor),
        );
        // One vertex each, the same bit for bit (the two floors' own heights there may round an ulp apart:
        // both take the higher).
        assert_eq!((f1.len(), f2.len()), (1, 1), "{f1:?} {f2:?}");
        let p = f1[0];
        assert_eq!(p, f2[0]);
        assert!((f64::from(p.z) - z).abs() < 1e-6, "{p}");
        let (h1, h2) = (
            0.1 + z * 10f64.to_radians().tan(),
            0.4 - z * 5f64.to_radians().tan(),
        );
        assert!((f64::from(p.y) - h1).abs() < 1e-6 && (f64::from(p.y) - h2).abs() < 1e-6);
        // The risers either side meet there and nowhere else inside the seam.
        for c in [c1, c2] {
            assert_eq!(inside_seam(c, FaceKind::Riser), vec![p]);
        }
        points.push(p);
    }
    assert_eq!(points[0], points[1]);
}
