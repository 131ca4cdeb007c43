//! The builders' sectors: steps welded and rising exactly, a ramp's slope to 0.01°, a room, and a doorway a
//! character walks through while the rest of the shared wall stays a wall.

use glam::{Vec2, Vec3};

use super::*;
use crate::character::{Body, BodyInput, CharacterController};
use crate::level::{Level, ObjectId};
use crate::scene::Scene;
use crate::sector::{FaceKind, SectorCook};
use crate::shape::Ray;

const G: Vec3 = Vec3::new(0.0, -9.81, 0.0);
const DT: f32 = 1.0 / 60.0;

fn level(mut sectors: Vec<SectorObject>) -> Level {
    for (i, s) in sectors.iter_mut().enumerate() {
        s.id = ObjectId(i as u32 + 1);
    }
    Level {
        sectors,
        ..Level::default()
    }
}

/// Walk a body from `from` toward `wish` (m/s, x and z) for `secs`: its feet at the end.
fn walk(scene: &Scene, from: Vec3, wish: Vec2, secs: f32) -> Body {
    let c = CharacterController::default();
    let mut body = Body::new(from);
    let input = BodyInput {
        wish,
        ..BodyInput::default()
    };
    for _ in 0..(secs / DT) as usize {
        body.step(&c, scene, &input, G, DT);
    }
    body
}

#[test]
fn a_drag_climbs_along_its_longer_side_from_where_it_started() {
    let r = Run::of_drag(Vec2::new(4.0, 1.0), Vec2::new(0.0, 2.0)).unwrap();
    assert_eq!((r.axis, r.from, r.to), (0, 4.0, 0.0));
    assert_eq!(r.forward(), Vec2::new(-1.0, 0.0));
    let r = Run::of_drag(Vec2::new(0.0, 0.0), Vec2::new(1.0, 3.0)).unwrap();
    assert_eq!(
        (r.axis, r.side_lo, r.side_hi, r.length()),
        (1, 0.0, 1.0, 3.0)
    );
    assert!(Run::of_drag(Vec2::ZERO, Vec2::new(2.0, 0.0)).is_none());
}

#[test]
fn stairs_have_n_welded_steps_and_rise_exactly() {
    let run = Run::of_drag(Vec2::new(0.0, 0.0), Vec2::new(3.0, 1.2)).unwrap();
    let steps = stairs(&run, 10, 0.25, 2.0, 3.0).unwrap();
    assert_eq!(steps.len(), 10);
    assert_eq!(steps[9].floor.height, 2.25);
    for (k, s) in steps.iter().enumerate() {
        let riser = s.floor.height
            - if k == 0 {
                0.25
            } else {
                steps[k - 1].floor.height
            };
        assert!((riser - 0.2).abs() < 1e-5, "step {k}: {riser}");
        assert_eq!(s.ceiling.height, s.floor.height + 3.0);
    }
    for w in steps.windows(2) {
        // Step k's far edge is step k + 1's near edge, the same bits.
        assert_eq!(w[0].outline[2], w[1].outline[1]);
        assert_eq!(w[0].outline[3], w[1].outline[0]);
    }
    assert_eq!(steps[0].outline[0], Vec2::new(0.0, 0.0));
    assert_eq!(steps[9].outline[2], Vec2::new(3.0, 1.2));
    assert!(level(steps).is_valid());
    assert!(stairs(&run, 0, 0.0, 1.0, 3.0).is_err());
    assert!(stairs(&run, 3, 0.0, f32::NAN, 3.0).is_err());
}

#[test]
fn a_character_climbs_a_built_stair_to_a_balcony() {
    // Ground from x = -4 to 0, ten 0.2 m steps from 0 to 3, a balcony at 2 m from 3 to 6.
    let ground = room(Vec2::new(-4.0, 0.0), Vec2::new(0.0, 2.0), 0.0, 3.0).unwrap();
    let run = Run::of_drag(Vec2::new(0.0, 0.0), Vec2::new(3.0, 2.0)).unwrap();
    let mut all = vec![ground];
    all.extend(stairs(&run, 10, 0.0, 2.0, 3.0).unwrap());
    all.push(room(Vec2::new(3.0, 0.0), Vec2::new(6.0, 2.0), 2.0, 3.0).unwrap());
    let level = level(all);
    assert!(level.is_valid(), "{:?}", level.validate());
    let scene = Scene::from_level(&level).unwrap();
    let body = walk(&scene, Vec3::new(-2.0, 0.01, 1.0), Vec2::new(3.0, 0.0), 4.0);
    assert!(body.feet.x > 4.0 && body.grounded, "{:?}", body.feet);
    assert!((body.feet.y - 2.0).abs() < 0.05, "{:?}", body.feet);
}

#[test]
fn a_ramp_slopes_by_its_degrees_exactly() {
    let run = Run::of_drag(Vec2::new(0.0, 2.0), Vec2::new(1.5, -4.0)).unwrap();
    let r = ramp(&run, 0.5, 30.0, 3.0).unwrap();
    assert_eq!(
        r.floor.slope,
        Some(Slope {
            edge: 0,
            degrees: 30.0
        })
    );
    let level = level(vec![r]);
    assert!(level.is_valid(), "{:?}", level.validate());
    let cook = SectorCook::new(level.sectors.iter().map(|s| s.geom()));
    let c = cook.sector(ObjectId(1)).unwrap();
    let mut floors = 0;
    for (t, kind) in c.indices.iter().zip(&c.faces) {
        if *kind != FaceKind::Floor {
            continue;
        }
        let [a, b, d] = t.map(|k| c.vertices[k as usize].as_dvec3());
        let n = (b - a).cross(d - a).normalize();
        let deg = n.y.abs().acos().to_degrees();
        assert!((deg - 30.0).abs() < 0.01, "{deg}");
        floors += 1;
    }
    assert!(floors > 0);
    // Down from the top end: 0.5 + 6·tan 30°.
    let scene = Scene::from_level(&level).unwrap();
    let want = 0.5 + 5.99 * 30f32.to_radians().tan();
    let hit = scene
        .cast_ray(
            &Ray::new(Vec3::new(0.75, want + 1.0, -3.99), Vec3::NEG_Y),
            20.0,
        )
        .unwrap();
    assert!((hit.point.y - want).abs() < 1e-3, "{} {want}", hit.point.y);
    assert!((ramp_degrees(6.0, 0.5, 0.5 + 6.0 * 30f32.to_radians().tan()) - 30.0).abs() < 1e-4);
    assert!(ramp(&run, 0.0, 89.0, 3.0).is_err());
}

#[test]
fn a_room_is_a_floor_and_a_ceiling() {
    let r = room(Vec2::new(2.0, 3.0), Vec2::new(-1.0, 0.0), 0.5, 3.0).unwrap();
    assert_eq!((r.floor.height, r.ceiling.height), (0.5, 3.5));
    assert_eq!(r.outline[0], Vec2::new(-1.0, 0.0));
    assert!(room(Vec2::ZERO, Vec2::new(0.0, 4.0), 0.0, 3.0).is_err());
    assert!(room(Vec2::ZERO, Vec2::ONE, 0.0, 0.0).is_err());
}

/// Two 4 × 4 rooms sharing the edge x = 0 and a doorway in it at z = 1.
fn two_rooms_and_a_door() -> Level {
    let a = room(Vec2::new(-4.0, -2.0), Vec2::new(0.0, 2.0), 0.0, 3.0).unwrap();
    // Wound the other way: both edges run the same way along x = 0 (either winding is taken).
    let mut b = room(Vec2::new(0.0, -2.0), Vec2::new(4.0, 2.0), 0.0, 3.0).unwrap();
    b.outline.reverse();
    let d = doorway(&a, &b, Some(Vec2::new(0.3, 1.0)), DoorSize::default()).unwrap();
    let [ra, rb] = d.rooms;
    level(vec![ra, rb, d.door])
}

#[test]
fn a_doorway_sits_in_the_gap_of_the_pulled_back_wall() {
    let level = two_rooms_and_a_door();
    assert!(level.is_valid(), "{:?}", level.validate());
    let door = &level.sectors[2];
    assert_eq!((door.floor.height, door.ceiling.height), (0.0, 2.1));
    let xs: Vec<f32> = door.outline.iter().map(|p| p.x).collect();
    let zs: Vec<f32> = door.outline.iter().map(|p| p.y).collect();
    assert_eq!(xs.iter().cloned().fold(f32::MAX, f32::min), -0.1);
    assert_eq!(xs.iter().cloned().fold(f32::MIN, f32::max), 0.1);
    assert_eq!(zs.iter().cloned().fold(f32::MAX, f32::min), 0.5);
    assert_eq!(zs.iter().cloned().fold(f32::MIN, f32::max), 1.5);
    // The rooms' corners on the old edge moved back by half the wall.
    assert!(level.sectors[0].outline.contains(&Vec2::new(-0.1, 2.0)));
    assert!(level.sectors[1].outline.contains(&Vec2::new(0.1, -2.0)));
}

#[test]
fn a_character_walks_through_the_doorway_and_not_through_the_wall_beside_it() {
    let level = two_rooms_and_a_door();
    let scene = Scene::from_level(&level).unwrap();
    // Through the doorway at z = 1.
    let body = walk(&scene, Vec3::new(-2.0, 0.01, 1.0), Vec2::new(3.0, 0.0), 2.0);
    assert!(body.feet.x > 2.0 && body.grounded, "{:?}", body.feet);
    // Beside it at z = -1: stopped at the wall, a radius short of the gap.
    let body = walk(
        &scene,
        Vec3::new(-2.0, 0.01, -1.0),
        Vec2::new(3.0, 0.0),
        2.0,
    );
    assert!(body.feet.x < -0.35, "{:?}", body.feet);
    // A ray across the shared line beside the doorway hits a wall; one through the doorway passes.
    let across = |z: f32, y: f32| scene.cast_ray(&Ray::new(Vec3::new(-1.0, y, z), Vec3::X), 2.0);
    assert_eq!(across(-1.0, 1.0).map(|h| h.object), Some(ObjectId(1)));
    assert!(across(1.0, 1.0).is_none());
    // Above the door's height the lintel closes the opening.
    assert!(across(1.0, 2.5).is_some());
}

#[test]
fn a_doorway_needs_a_shared_wall_wide_enough() {
    let a = room(Vec2::new(-4.0, -2.0), Vec2::new(0.0, 2.0), 0.0, 3.0).unwrap();
    let far = room(Vec2::new(1.0, -2.0), Vec2::new(4.0, 2.0), 0.0, 3.0).unwrap();
    assert!(doorway(&a, &far, None, DoorSize::default()).is_err());
    let b = room(Vec2::new(0.0, 1.5), Vec2::new(4.0, 2.0), 0.0, 3.0).unwrap();
    let err = doorway(&a, &b, None, DoorSize::default()).unwrap_err();
    assert!(err.contains("too narrow"), "{err}");
    // A partly shared edge: notches, not moved corners.
    let b = room(Vec2::new(0.0, -1.0), Vec2::new(4.0, 1.0), 0.0, 3.0).unwrap();
    let d = doorway(&a, &b, None, DoorSize::default()).unwrap();
    assert_eq!(d.rooms[0].outline.len(), 8, "{:?}", d.rooms[0].outline);
    let [ra, rb] = d.rooms;
    assert!(level(vec![ra, rb, d.door]).is_valid());
}
