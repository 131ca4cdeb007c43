//! The moved objects drawn where the runtime puts them, and left out of the static scene.

use glam::Vec3;

use super::*;
use crate::editor::document::Kind;
use crate::editor::view3d::movers::{MovedSolids, Moving};
use crate::editor::view3d::solids::corner_box;
use crate::level::ObjectId;
use crate::scene::Scene;
use crate::sim::Static;

/// One of each movable kind, a lift's floor beside a room, a door's ceiling and a sector moved whole.
const LEVEL: &str = r#"(version: 3,
    aabbs: [(id: 1, min: (-3.0, 0.0, -3.0), max: (-1.7, 0.2, -1.1))],
    obbs: [(id: 2, center: (5.0, 1.0, -5.0), half_extents: (0.5, 0.3, 0.7),
            rotation_deg: (10.0, 33.0, -7.0))],
    cylinders: [(id: 3, a: (3.0, 0.1, -3.0), b: (3.3, 2.0, -3.1), radius: 0.4)],
    triangles: [(id: 4, a: (0.1, 0.3, -8.0), b: (1.7, 0.3, -8.0), c: (0.1, 0.9, -6.3))],
    meshes: [(id: 5, vertices: [(0.0, 0.0, 8.0), (2.0, 0.0, 8.0), (0.0, 0.0, 10.0), (2.0, 0.5, 10.0)],
              indices: [(0, 2, 1), (1, 2, 3)])],
    sectors: [
        (id: 6, outline: [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)],
         floor: (height: 0.0), ceiling: (height: 6.0)),
        (id: 7, outline: [(4.0, 0.0), (8.0, 0.0), (8.0, 4.0), (4.0, 4.0)],
         floor: (height: 0.5), ceiling: (height: 6.0)),
        (id: 8, outline: [(8.0, 0.0), (10.0, 0.0), (10.0, 4.0), (8.0, 4.0)],
         floor: (height: 0.0), ceiling: (height: 0.2)),
        (id: 9, outline: [(20.0, 0.0), (22.0, 0.0), (22.0, 2.0), (20.0, 2.0)],
         floor: (height: 1.0), ceiling: (height: 3.0)),
    ],
    movers: [
        (id: 11, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 3.0, 0.0)], speed: 1.3, wait: 0.2),
        (id: 12, object: 2, path: [(0.0, 0.0, 0.0), (2.0, 0.5, 1.0)], speed: 0.7),
        (id: 13, object: 3, path: [(0.0, 0.0, 0.0), (-1.0, 0.0, 0.3), (0.0, 1.0, 0.0)], speed: 0.9,
         repeat: Loop),
        (id: 14, object: 4, path: [(0.0, 0.0, 0.0), (0.3, 0.1, 0.0)], speed: 0.11),
        (id: 15, object: 5, path: [(0.0, 0.0, 0.0), (0.0, 0.0, 1.7)], speed: 0.6),
        (id: 16, object: 6, part: Floor, path: [(0.0, 0.0, 0.0), (0.0, 2.5, 0.0), (0.0, -0.5, 0.0)],
         speed: 1.1),
        (id: 18, object: 8, part: Ceiling, path: [(0.0, 0.0, 0.0), (0.0, 2.4, 0.0)], speed: 1.5),
        (id: 19, object: 9, path: [(0.0, 0.0, 0.0), (0.0, 0.0, 3.0)], speed: 0.8),
    ])"#;

fn plain(_: ObjectId, _: Kind) -> [u8; 4] {
    [200, 200, 200, 255]
}

/// The vertex positions of `s`, as bits.
fn positions(s: &Solids) -> Vec<[u32; 3]> {
    s.data
        .chunks(SOLID_FLOATS)
        .map(|v| [v[0].to_bits(), v[1].to_bits(), v[2].to_bits()])
        .collect()
}

/// `shape` (a scene's, where the runtime put it) drawn as the moved parts are.
fn draw_runtime(s: &mut Solids, shape: &Static) {
    let rgba = plain(ObjectId(0), Kind::Aabb);
    match shape {
        Static::Aabb(b) => corner_box(s, b.min, b.max, rgba),
        Static::Obb(o) => {
            let r = o.rotation;
            s.cuboid(
                o.center,
                [r.x_axis, r.y_axis, r.z_axis],
                o.half_extents,
                rgba,
            );
        }
        Static::Cylinder(c) => s.cylinder(c.a, c.b, c.radius, CYLINDER_SEGMENTS, rgba),
        Static::Triangle(t) => s.tri_as_wound(t.a, t.b, t.c, rgba),
        Static::Mesh(m) => {
            for t in m.indices() {
                let [a, b, c] = t.map(|i| m.vertices()[i as usize]);
                s.tri_as_wound(a, b, c, rgba);
            }
        }
        Static::Plane(_) | Static::Wall { .. } => panic!("not movable"),
    }
}

#[test]
fn at_any_time_the_moved_triangles_are_where_the_runtime_puts_them_bit_for_bit() {
    let level = Level::from_ron_str(LEVEL).unwrap_or_else(|e| panic!("{e}"));
    assert!(level.is_valid(), "{:?}", level.validate());
    let moved = Moving::of(&level).scene(&level, &plain);
    assert_eq!(moved.parts.len(), level.movers.len());
    let mut scene = Scene::from_level(&level).unwrap_or_else(|e| panic!("{e}"));
    for k in 0..24 {
        let t = k as f32 * 0.37;
        scene.set_time(t);
        let offsets: Vec<(ObjectId, Vec3)> =
            scene.movers().iter().map(|m| (m.mover, m.offset)).collect();
        let drawn = moved.at(&|id| {
            offsets
                .iter()
                .find(|(m, _)| *m == id)
                .map_or(Vec3::NAN, |(_, d)| *d)
        });
        let mut want = MovedSolids::default();
        for m in &level.movers {
            let i = (0..scene.len())
                .find(|&i| scene.ids()[i] == m.object && scene.is_moving_entry(i))
                .unwrap_or_else(|| panic!("mover {} moves an entry", m.id));
            let sector = level.sectors.iter().any(|s| s.id == m.object);
            let s = if sector {
                &mut want.planes
            } else {
                &mut want.solids
            };
            draw_runtime(s, &scene.shapes()[i]);
        }
        assert_eq!(positions(&drawn.solids), positions(&want.solids), "t {t}");
        assert_eq!(positions(&drawn.planes), positions(&want.planes), "t {t}");
        // Normals too (the same vertices in the same order give the same faces).
        assert_eq!(drawn.solids.data.len(), want.solids.data.len());
    }
    // And an offset does move them.
    let (at0, up) = (moved.at(&|_| Vec3::ZERO), moved.at(&|_| Vec3::Y));
    assert_ne!(positions(&at0.planes), positions(&up.planes));
    assert_ne!(positions(&at0.solids), positions(&up.solids));
}

#[test]
fn the_static_scene_leaves_the_moved_objects_out_and_cooks_sectors_as_the_runtime() {
    let level = Level::from_ron_str(LEVEL).unwrap_or_else(|e| panic!("{e}"));
    let s = build_static(&level, &plain, false, false);
    // Every box, cylinder, triangle and mesh moves: none is left in the kept solids.
    assert_eq!(s.solids.vertices(), 0);
    assert_eq!(s.moved.parts.len(), 8);
    let ys = |pred: &dyn Fn(f32, f32) -> bool| {
        s.planes
            .data
            .chunks(SOLID_FLOATS)
            .filter(|v| pred(v[0], v[2]))
            .map(|v| v[1])
            .collect::<Vec<f32>>()
    };
    // The sector moved whole is not in the kept scene.
    assert!(ys(&|x, _| x >= 20.0).is_empty());
    // The lift's floor is kept at the lowest its path reaches (-0.5 m), the door's ceiling at the highest
    // (0.2 + 2.4 m): the runtime's cook, so no gap opens at any height.
    let lift = ys(&|x, z| x > 0.5 && x < 3.5 && z > 0.5 && z < 3.5);
    assert!(lift.contains(&-0.5), "{lift:?}");
    let door = ys(&|x, z| x > 8.5 && x < 9.5 && z > 0.5 && z < 3.5);
    assert!(door.iter().any(|y| (y - 2.6).abs() < 1e-5), "{door:?}");
    // Without movers the kept scene draws everything.
    let frozen = Level {
        movers: Vec::new(),
        ..level
    };
    let f = build_static(&frozen, &plain, false, false);
    assert!(f.moved.is_empty() && f.solids.vertices() > 0);
}

#[test]
fn a_floor_piston_faces_the_air_around_it() {
    let level = Level::from_ron_str(LEVEL).unwrap_or_else(|e| panic!("{e}"));
    let moved = Moving::of(&level).scene(&level, &plain);
    let lift = moved.at(&|id| {
        if id == ObjectId(16) {
            Vec3::Y * 2.0
        } else {
            Vec3::ZERO
        }
    });
    // The lift's floor (up) and its sides, facing out of the shaft toward the neighbours' air.
    let mut up = 0;
    for t in lift.planes.data.chunks(SOLID_FLOATS * 3) {
        let p = Vec3::new(t[0], t[1], t[2]);
        if !(p.x <= 4.0 && p.z <= 4.0 && p.x >= 0.0 && p.z >= 0.0) {
            continue;
        }
        let n = Vec3::new(t[3], t[4], t[5]);
        let c = (Vec3::new(t[0], t[1], t[2])
            + Vec3::new(t[7], t[8], t[9])
            + Vec3::new(t[14], t[15], t[16]))
            / 3.0;
        if n.y > 0.99 {
            up += 1;
            assert_eq!(c.y, 2.0);
        } else {
            let out = Vec3::new(c.x - 2.0, 0.0, c.z - 2.0);
            assert!(n.dot(out) > 0.0, "side {c} faces {n}");
        }
    }
    assert!(up >= 2);
}
