//! Moving parts and one-way surfaces in the scene: boxes and sector lifts moved by `Scene::set_time`, their
//! velocities and start rules, every query against brute force over the objects moved by hand, validation of
//! bad movers at `file:line:col`, and levels with movers and one-way objects saved and read back.

#![allow(clippy::unwrap_used)]

use collidoscope::glam::Vec3;
use collidoscope::level::{Level, MoverPart, MoverStart, ObjectId, Repeat};
use collidoscope::mover::{MoverPath, translated};
use collidoscope::scene::{Scene, Static};
use collidoscope::shape::{Aabb, Capsule, Cylinder, Obb, Ray, Sphere, Triangle};
use proptest::prelude::*;

fn level(text: &str) -> Level {
    Level::from_ron_str(text).unwrap()
}

fn down(x: f32, z: f32) -> Ray {
    Ray::new(Vec3::new(x, 20.0, z), -Vec3::Y)
}

/// A slab 2 × 0.5 × 2 lifted 4 m at 2 m/s, waiting 1 s at each end.
const LIFT_BOX: &str = r#"(version: 3,
    aabbs: [(id: 1, min: (-1.0, 0.0, -1.0), max: (1.0, 0.5, 1.0))],
    movers: [(id: 2, name: Some("lift"), object: 1, path: [(0.0, 0.0, 0.0), (0.0, 4.0, 0.0)], speed: 2.0, wait: 1.0)])"#;

#[test]
fn a_box_mover_is_met_where_it_is() {
    let mut scene = Scene::from_level(&level(LIFT_BOX)).unwrap();
    assert_eq!(scene.cast_ray(&down(0.0, 0.0), 40.0).unwrap().point.y, 0.5);
    scene.set_time(1.0);
    assert_eq!(scene.time(), 1.0);
    let hit = scene.cast_ray(&down(0.0, 0.0), 40.0).unwrap();
    assert_eq!(
        (hit.object, hit.point.y, hit.normal),
        (ObjectId(1), 2.5, Vec3::Y)
    );
    assert_eq!(scene.mover_velocity(ObjectId(1)), Vec3::new(0.0, 2.0, 0.0));
    // Not a moved object, or not an object at all.
    assert_eq!(scene.mover_velocity(ObjectId(2)), Vec3::ZERO);
    assert_eq!(scene.mover_velocity(ObjectId(99)), Vec3::ZERO);
    assert_eq!(scene.mover_of(ObjectId(1)), Some(ObjectId(2)));
    // A sphere dropped onto it lands on its moved top.
    let toi = scene
        .sweep_sphere(
            &Sphere::new(Vec3::new(0.0, 5.0, 0.0), 0.5),
            Vec3::new(0.0, -5.0, 0.0),
        )
        .unwrap();
    assert_eq!(toi.object, ObjectId(1));
    assert!((5.0 - 5.0 * toi.t - 0.5 - 2.5).abs() < 1e-4, "{toi:?}");
    let body = Capsule::new(Vec3::new(0.0, 3.0, 0.0), Vec3::new(0.0, 4.0, 0.0), 0.5);
    assert_eq!(
        scene
            .sweep_capsule(&body, Vec3::new(0.0, -2.0, 0.0))
            .unwrap()
            .object,
        ObjectId(1)
    );
    assert_eq!(
        scene.overlap_sphere(&Sphere::new(Vec3::new(0.0, 2.7, 0.0), 0.3)),
        vec![ObjectId(1)]
    );
    assert!(
        scene
            .overlap_sphere(&Sphere::new(Vec3::new(0.0, 0.3, 0.0), 0.2))
            .is_empty()
    );
    assert_eq!(
        scene.object(ObjectId(1)).unwrap().bounds().unwrap().min.y,
        2.0
    );
    // Going back in time puts it back, bit for bit.
    let before = scene.cast_ray(&down(0.3, 0.2), 40.0);
    scene.set_time(7.25);
    scene.set_time(1.0);
    assert_eq!(scene.cast_ray(&down(0.3, 0.2), 40.0), before);
    // A NaN time is ignored.
    scene.set_time(f32::NAN);
    assert_eq!(scene.time(), 1.0);
}

#[test]
fn ping_pong_waits_and_once_stops() {
    let mut scene = Scene::from_level(&level(LIFT_BOX)).unwrap();
    let top = |s: &Scene| s.cast_ray(&down(0.0, 0.0), 40.0).unwrap().point.y;
    // Up 0..2, waits 2..3 at the top, down 3..5, waits 5..6 at the bottom.
    for (t, y, vy) in [
        (2.5, 4.5, 0.0),
        (4.0, 2.5, -2.0),
        (5.5, 0.5, 0.0),
        (7.0, 2.5, 2.0),
    ] {
        scene.set_time(t);
        assert_eq!(
            (top(&scene), scene.mover_velocity(ObjectId(1)).y),
            (y, vy),
            "t = {t}"
        );
    }
    let once = LIFT_BOX.replace("wait: 1.0", "wait: 1.0, repeat: Once");
    let mut scene = Scene::from_level(&level(&once)).unwrap();
    for t in [2.0, 3.5, 100.0] {
        scene.set_time(t);
        assert_eq!(
            (top(&scene), scene.mover_velocity(ObjectId(1))),
            (4.5, Vec3::ZERO)
        );
    }
}

#[test]
fn triggers_start_only_their_movers() {
    let text = r#"(version: 3,
        aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 1.0)), (id: 2, min: (5.0, 0.0, 0.0), max: (6.0, 1.0, 1.0)),
                (id: 3, min: (10.0, 0.0, 0.0), max: (11.0, 1.0, 1.0))],
        triggers: [(id: 20, shape: Sphere((center: (0.0, 0.0, 0.0), radius: 1.0))),
                   (id: 21, shape: Sphere((center: (9.0, 0.0, 0.0), radius: 1.0)))],
        movers: [
            (id: 11, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 2.0, 0.0)], speed: 1.0, repeat: Once, start: OnTrigger(20)),
            (id: 12, object: 2, path: [(0.0, 0.0, 0.0), (0.0, 2.0, 0.0)], speed: 1.0, repeat: Once, start: OnTrigger(21)),
            (id: 13, object: 3, path: [(0.0, 0.0, 0.0), (0.0, 2.0, 0.0)], speed: 1.0, repeat: Once),
        ])"#;
    let mut scene = Scene::from_level(&level(text)).unwrap();
    scene.set_time(10.0);
    let ys =
        |s: &Scene| [0.5f32, 5.5, 10.5].map(|x| s.cast_ray(&down(x, 0.5), 40.0).unwrap().point.y);
    // Only the `Always` mover has moved (it started at 0).
    assert_eq!(ys(&scene), [1.0, 1.0, 3.0]);
    assert_eq!(scene.start_triggered(ObjectId(20), 9.5), vec![ObjectId(11)]);
    assert_eq!(ys(&scene), [1.5, 1.0, 3.0]);
    // Started already: a second entry does not restart it.
    assert!(scene.start_triggered(ObjectId(20), 10.0).is_empty());
    assert_eq!(ys(&scene), [1.5, 1.0, 3.0]);
    let info = scene.movers();
    assert_eq!(info.len(), 3);
    assert_eq!(
        (info[0].mover, info[0].started, info[0].part),
        (ObjectId(11), Some(9.5), MoverPart::Whole)
    );
    assert_eq!(info[1].started, None);
    assert_eq!(info[1].start, MoverStart::OnTrigger(ObjectId(21)));
    scene.start_mover(ObjectId(12), 10.0);
    scene.set_time(10.5);
    assert_eq!(ys(&scene), [2.0, 1.5, 3.0]);
    assert_eq!(
        scene.mover_offset_at(ObjectId(2), 11.0),
        Vec3::new(0.0, 1.0, 0.0)
    );
    scene.reset_movers();
    assert_eq!(ys(&scene), [1.0, 1.0, 3.0]);
    scene.set_mover_start(ObjectId(11), Some(10.0));
    assert_eq!(ys(&scene), [1.5, 1.0, 3.0]);
}

/// A 4 × 4 lift sector (floor 0, rising 3 m) beside a 4 × 4 room with its floor at 0, both 6 m high.
const LIFT_SECTOR: &str = r#"(version: 3,
    sectors: [
        (id: 1, outline: [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)], floor: (height: 0.0), ceiling: (height: 6.0)),
        (id: 2, outline: [(4.0, 0.0), (8.0, 0.0), (8.0, 4.0), (4.0, 4.0)], floor: (height: 0.0), ceiling: (height: 6.0)),
    ],
    movers: [(id: 3, object: 1, part: Floor, path: [(0.0, 0.0, 0.0), (0.0, 3.0, 0.0)], speed: 1.5, wait: 2.0)])"#;

#[test]
fn a_sector_lift_rises_with_its_sides() {
    let mut scene = Scene::from_level(&level(LIFT_SECTOR)).unwrap();
    let side = Ray::new(Vec3::new(6.0, 1.0, 2.0), -Vec3::X);
    let floor_at = |s: &Scene| {
        s.cast_ray(&Ray::new(Vec3::new(2.0, 5.0, 2.0), -Vec3::Y), 10.0)
            .unwrap()
    };
    // At the bottom: the lift's floor at 0, and a ray across at 1 m crosses the lift to its far wall.
    let f = floor_at(&scene);
    assert_eq!((f.object, f.point.y), (ObjectId(1), 0.0));
    let h = scene.cast_ray(&side, 20.0).unwrap();
    assert!((h.point.x - 0.0).abs() < 1e-4, "{h:?}");
    // At the top (2 s up): the floor at 3 and its side a riser facing the room.
    scene.set_time(2.5);
    let f = floor_at(&scene);
    assert_eq!(f.object, ObjectId(1));
    assert!((f.point.y - 3.0).abs() < 1e-5, "{f:?}");
    let h = scene.cast_ray(&side, 20.0).unwrap();
    assert_eq!(h.object, ObjectId(1));
    assert!(
        (h.point.x - 4.0).abs() < 1e-4 && h.normal == Vec3::X,
        "{h:?}"
    );
    // Up 0..2 s, waiting 2..4 s, then down: half-way at 5 s, moving down at 1.5 m/s.
    scene.set_time(5.0);
    assert!((floor_at(&scene).point.y - 1.5).abs() < 1e-5);
    assert_eq!(scene.mover_velocity(ObjectId(1)), Vec3::new(0.0, -1.5, 0.0));
    // The room's floor never moves.
    assert_eq!(
        scene
            .cast_ray(&Ray::new(Vec3::new(6.0, 5.0, 2.0), -Vec3::Y), 10.0)
            .unwrap()
            .point
            .y,
        0.0
    );
}

#[test]
fn one_way_surfaces_support_from_above_only() {
    let text = r#"(version: 3,
        aabbs: [(id: 1, min: (-2.0, 1.0, -2.0), max: (2.0, 1.2, 2.0), one_way: true)],
        triangles: [(id: 2, a: (5.0, 1.0, -1.0), b: (7.0, 1.0, -1.0), c: (6.0, 1.0, 1.0), one_way: true)])"#;
    let scene = Scene::from_level(&level(text)).unwrap();
    assert!(scene.is_one_way(ObjectId(1)) && scene.is_one_way(ObjectId(2)));
    // Rays: from above they hit, from below and the side they pass.
    assert!((scene.cast_ray(&down(0.0, 0.0), 40.0).unwrap().point.y - 1.2).abs() < 1e-5);
    assert!(
        scene
            .cast_ray(&Ray::new(Vec3::ZERO, Vec3::Y), 40.0)
            .is_none()
    );
    assert!(
        scene
            .cast_ray(&Ray::new(Vec3::new(-5.0, 1.1, 0.0), Vec3::X), 40.0)
            .is_none()
    );
    assert_eq!(
        scene.cast_ray(&down(6.0, 0.0), 40.0).unwrap().object,
        ObjectId(2)
    );
    assert!(
        scene
            .cast_ray(&Ray::new(Vec3::new(6.0, 0.0, 0.0), Vec3::Y), 40.0)
            .is_none()
    );
    assert_eq!(scene.cast_ray_all(&down(0.0, 0.0), 40.0).len(), 1);
    // A body jumping up through it is not stopped; falling onto it, it lands.
    let body = |y: f32| {
        Capsule::new(
            Vec3::new(0.0, y + 0.3, 0.0),
            Vec3::new(0.0, y + 1.5, 0.0),
            0.3,
        )
    };
    assert!(
        scene
            .sweep_capsule(&body(0.0), Vec3::new(0.0, 2.0, 0.0))
            .is_none()
    );
    let land = scene
        .sweep_capsule(&body(2.0), Vec3::new(0.0, -2.0, 0.0))
        .unwrap();
    assert!((2.0 - 2.0 * land.t - 1.2).abs() < 1e-4, "{land:?}");
    // Half-way through (from below): no overlap; standing on it (within the tolerance): supported.
    assert!(scene.overlap_capsule(&body(0.8)).is_empty());
    assert_eq!(scene.overlap_capsule(&body(1.2 - 5e-4)), vec![ObjectId(1)]);
    assert_eq!(scene.overlap_capsule(&body(1.2)), vec![ObjectId(1)]);
    assert!(
        scene
            .overlap_sphere(&Sphere::new(Vec3::new(0.0, 1.1, 0.0), 0.3))
            .is_empty()
    );
    assert_eq!(
        scene.overlap_sphere(&Sphere::new(Vec3::new(0.0, 1.5, 0.0), 0.3)),
        vec![ObjectId(1)]
    );
    // Resting on it, a sphere moving down is stopped at once; inside it, it falls through.
    let rest = Sphere::new(Vec3::new(0.0, 1.5, 0.0), 0.3);
    assert_eq!(
        scene
            .sweep_sphere(&rest, Vec3::new(0.0, -1.0, 0.0))
            .unwrap()
            .t,
        0.0
    );
    let inside = Sphere::new(Vec3::new(0.0, 1.3, 0.0), 0.3);
    assert!(
        scene
            .sweep_sphere(&inside, Vec3::new(0.0, -1.0, 0.0))
            .is_none()
    );
}

#[test]
fn movers_and_one_way_flags_round_trip() {
    let text = r#"(version: 3,
        aabbs: [(id: 1, min: (-1.0, 0.0, -1.0), max: (1.0, 0.5, 1.0), one_way: true)],
        triangles: [(id: 4, a: (0.0, 0.0, 0.0), b: (1.0, 0.0, 0.0), c: (0.0, 0.0, 1.0))],
        sectors: [(id: 5, outline: [(10.0, 0.0), (14.0, 0.0), (14.0, 4.0), (10.0, 4.0)], floor: (height: 0.0), ceiling: (height: 3.0), one_way: true)],
        triggers: [(id: 9, shape: Sphere((center: (0.0, 0.0, 0.0), radius: 1.0)))],
        movers: [
            (id: 2, name: Some("door"), object: 1, path: [(0.0, 0.0, 0.0), (0.0, 3.0, 0.0), (2.0, 3.0, 0.0)], speed: 1.5, wait: 0.25, repeat: Loop, start: OnTrigger(9)),
            (id: 3, object: 5, part: Ceiling, path: [(0.0, 0.0, 0.0), (0.0, -2.0, 0.0)], speed: 3.0, repeat: Once),
            (id: 6, object: 4, path: [(0.0, 0.0, 0.0), (0.0, -0.0, 1.0)], speed: 1.0),
        ])"#;
    let a = level(text);
    assert!(a.validate().is_empty(), "{:?}", a.validate());
    assert_eq!(a.movers.len(), 3);
    assert_eq!(a.movers[0].repeat, Repeat::Loop);
    assert_eq!(a.movers[2].repeat, Repeat::PingPong);
    assert_eq!(a.movers[2].start, MoverStart::Always);
    assert!(a.aabbs[0].one_way && a.sectors[0].one_way && !a.triangles[0].one_way);
    let saved = a.to_ron_string();
    let b = level(&saved);
    assert_eq!(a, b);
    assert_eq!(b.to_ron_string(), saved);
    assert_eq!(b.movers[2].path[1].y.to_bits(), (-0.0f32).to_bits());
    // Defaults are left out of the file: a level without movers or one-way objects writes neither.
    assert!(
        !saved.contains("one_way: false") && !saved.contains("PingPong"),
        "{saved}"
    );
    assert!(
        !level(r#"(version: 3, aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 1.0))])"#)
            .to_ron_string()
            .contains("movers")
    );
}

#[test]
fn bad_movers_are_located_at_their_line_and_column() {
    let text = r#"(version: 3,
    walls: [(id: 1, a: (0.0, 0.0), b: (1.0, 0.0), radius: 0.1)],
    aabbs: [(id: 2, min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 1.0)), (id: 3, min: (5.0, 0.0, 0.0), max: (6.0, 1.0, 1.0))],
    sectors: [(id: 4, outline: [(10.0, 0.0), (14.0, 0.0), (14.0, 4.0), (10.0, 4.0)], floor: (height: 0.0), ceiling: (height: 3.0))],
    planes: [(id: 5, normal: (0.0, 1.0, 0.0), d: 0.0)],
    movers: [
        (id: 10, object: 2, path: [(0.0, 0.0, 0.0), (NaN, 1.0, 0.0)], speed: 1.0),
        (id: 11, object: 3, path: [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0)], speed: 0.0, wait: -1.0),
        (id: 12, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0)], speed: 1.0),
        (id: 13, object: 4, part: Floor, path: [(0.0, 0.0, 0.0), (1.0, 1.0, 0.0)], speed: 1.0),
        (id: 14, object: 2, path: [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0)], speed: 1.0),
        (id: 15, object: 10, path: [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0)], speed: 1.0),
        (id: 16, object: 3, part: Ceiling, path: [(1.0, 0.0, 0.0)], speed: 1.0, start: OnTrigger(77)),
        (id: 17, object: 99, path: [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0)], speed: inf),
        (id: 17, object: 5, path: [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0)], speed: 1.0),
    ],
)"#;
    let level = level(text);
    let problems = level.validate();
    let at = |field: &str| {
        problems
            .iter()
            .find(|p| p.field == field)
            .map(|p| (p.line, p.col, p.message.clone()))
            .unwrap_or_else(|| panic!("no problem at {field}: {problems:#?}"))
    };
    let nan = at("movers[0].path[1]");
    assert_eq!((nan.0, nan.1), (Some(7), Some(53)), "{nan:?}");
    assert!(nan.2.contains("finite"));
    assert!(at("movers[1].speed").2.contains("greater than 0"));
    assert_eq!(at("movers[1].speed").0, Some(8));
    assert!(at("movers[1].wait").2.contains("0 or more"));
    assert!(at("movers[2].object").2.contains("not supported"));
    assert!(at("movers[2].object").2.contains("wall"));
    assert!(at("movers[3].path[1]").2.contains("vertical"));
    assert_eq!(at("movers[3].path[1]").0, Some(10));
    assert!(
        at("movers[4].object")
            .2
            .contains("already moved by mover #10")
    );
    assert!(at("movers[5].object").2.contains("mover of a mover"));
    assert!(at("movers[6].path").2.contains("at least 2 points"));
    assert!(at("movers[6].part").2.contains("not a sector"));
    assert!(at("movers[6].start").2.contains("trigger #77 not found"));
    assert!(at("movers[7].object").2.contains("not found"));
    assert!(at("movers[7].speed").2.contains("finite"));
    assert!(at("movers[8].id").2.contains("duplicate id"));
    assert!(at("movers[8].object").2.contains("plane"));
    assert!(
        problems.iter().all(|p| p.line.is_some() && p.col.is_some()),
        "{problems:#?}"
    );
    assert!(Scene::from_level(&level).is_err());
    // A path whose first point is not the object's place.
    let off = r#"(version: 3, aabbs: [(id: 2, min: (0.0, 0.0, 0.0), max: (1.0, 1.0, 1.0))],
        movers: [(id: 10, object: 2, path: [(0.0, 1.0, 0.0), (0.0, 2.0, 0.0)], speed: 1.0)])"#;
    let problems = Level::from_ron_str(off).unwrap().validate();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].field, "movers[0].path[0]");
}

/// Random movable shapes near the origin.
fn shape_strategy() -> impl Strategy<Value = Static> {
    let v = || (-4.0f32..4.0, -1.0f32..3.0, -4.0f32..4.0).prop_map(|(x, y, z)| Vec3::new(x, y, z));
    let size = || (0.1f32..1.5, 0.1f32..1.5, 0.1f32..1.5).prop_map(|(x, y, z)| Vec3::new(x, y, z));
    prop_oneof![
        (v(), size()).prop_map(|(c, h)| Static::Aabb(Aabb::new(c - h, c + h))),
        (v(), size(), -3.0f32..3.0).prop_map(|(c, h, yaw)| {
            Static::Obb(Obb::new(
                c,
                h,
                collidoscope::glam::Mat3::from_rotation_y(yaw),
            ))
        }),
        (v(), v(), v()).prop_map(|(a, b, c)| Static::Triangle(Triangle::new(a, b, c))),
        (v(), size(), 0.1f32..1.0).prop_map(|(a, d, r)| Static::Cylinder(Cylinder::new(
            a,
            a + d,
            r
        ))),
    ]
}

fn path_strategy() -> impl Strategy<Value = (Vec<Vec3>, f32, f32, Repeat)> {
    let p = (-3.0f32..3.0, -2.0f32..2.0, -3.0f32..3.0).prop_map(|(x, y, z)| Vec3::new(x, y, z));
    (
        prop::collection::vec(p, 1..4),
        0.5f32..5.0,
        0.0f32..1.0,
        prop_oneof![
            Just(Repeat::Once),
            Just(Repeat::Loop),
            Just(Repeat::PingPong)
        ],
    )
        .prop_map(|(mut pts, s, w, r)| {
            pts.insert(0, Vec3::ZERO);
            (pts, s, w, r)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Every query of a scene with movers equals the same query of a frozen scene holding the objects moved
    /// by hand to their places at that time.
    #[test]
    fn queries_equal_the_objects_moved_by_hand(
        objects in prop::collection::vec((shape_strategy(), prop::option::of(path_strategy()), any::<bool>()), 1..12),
        t in 0.0f32..20.0,
        probes in prop::collection::vec(((-5.0f32..5.0, -2.0f32..5.0, -5.0f32..5.0), (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0)), 8),
    ) {
        let mut statics = Vec::new();
        let mut movers = Vec::new();
        let mut frozen = Vec::new();
        for (k, (shape, path, one_way)) in objects.iter().enumerate() {
            let id = ObjectId(k as u32 + 1);
            statics.push((id, shape.clone(), *one_way));
            let offset = match path {
                Some((pts, speed, wait, repeat)) => {
                    movers.push((ObjectId(1000 + k as u32), id, pts.clone(), *speed, *wait, *repeat));
                    MoverPath::new(pts, *speed, *wait, *repeat).at(f64::from(t), Some(0.0)).offset
                }
                None => Vec3::ZERO,
            };
            frozen.push((id, translated(shape, offset), *one_way));
        }
        let mut scene = Scene::from_level(&level_of(&statics, &movers)).unwrap();
        scene.set_time(t);
        let hand = Scene::from_level(&level_of(&frozen, &[])).unwrap();
        for ((ox, oy, oz), (dx, dy, dz)) in probes {
            let (o, d) = (Vec3::new(ox, oy, oz), Vec3::new(dx, dy, dz));
            let ray = Ray::new(o, d);
            prop_assert_eq!(scene.cast_ray(&ray, 20.0), hand.cast_ray(&ray, 20.0));
            prop_assert_eq!(scene.cast_ray_all(&ray, 20.0), hand.cast_ray_all(&ray, 20.0));
            let s = Sphere::new(o, 0.4);
            prop_assert_eq!(scene.sweep_sphere(&s, d * 4.0), hand.sweep_sphere(&s, d * 4.0));
            prop_assert_eq!(scene.overlap_sphere(&s), hand.overlap_sphere(&s));
            let c = Capsule::new(o, o + Vec3::Y, 0.3);
            prop_assert_eq!(scene.sweep_capsule(&c, d * 4.0), hand.sweep_capsule(&c, d * 4.0));
            prop_assert_eq!(scene.overlap_capsule(&c), hand.overlap_capsule(&c));
        }
    }
}

/// A mover of the property test: `(id, object, path, speed, wait, repeat)`.
type TestMover = (ObjectId, ObjectId, Vec<Vec3>, f32, f32, Repeat);

/// A level of the given shapes (boxes, oriented boxes, triangles, cylinders) with their one-way flags, and
/// movers.
fn level_of(statics: &[(ObjectId, Static, bool)], movers: &[TestMover]) -> Level {
    let mut l = Level::default();
    for (id, s, one_way) in statics {
        let (id, one_way) = (*id, *one_way);
        let properties = Default::default();
        match s {
            Static::Aabb(b) => l.aabbs.push(collidoscope::level::AabbObject {
                id,
                name: None,
                min: b.min,
                max: b.max,
                one_way,
                properties,
            }),
            Static::Obb(o) => {
                // The level's boxes turn by degrees about y; the frozen copy keeps the same matrix bits only when
                // built the same way, so oriented boxes go through the level as well.
                let yaw = o.rotation.x_axis.z.atan2(o.rotation.x_axis.x);
                l.obbs.push(collidoscope::level::ObbObject {
                    id,
                    name: None,
                    center: o.center,
                    half_extents: o.half_extents,
                    rotation_deg: Vec3::new(-yaw.to_degrees(), 0.0, 0.0),
                    one_way,
                    properties,
                });
            }
            Static::Triangle(t) => l.triangles.push(collidoscope::level::TriangleObject {
                id,
                name: None,
                a: t.a,
                b: t.b,
                c: t.c,
                one_way,
                properties,
            }),
            Static::Cylinder(c) => l.cylinders.push(collidoscope::level::CylinderObject {
                id,
                name: None,
                a: c.a,
                b: c.b,
                radius: c.radius,
                properties,
            }),
            _ => {}
        }
    }
    for (id, object, path, speed, wait, repeat) in movers {
        l.movers.push(collidoscope::level::MoverObject {
            id: *id,
            name: None,
            object: *object,
            part: MoverPart::Whole,
            path: path.clone(),
            speed: *speed,
            wait: *wait,
            repeat: *repeat,
            start: MoverStart::Always,
        });
    }
    l
}
