//! Greybox mesh data (`greybox_meshes`, no renderer needed): one flat-shaded mesh per static object of a level,
//! coloured by height; and a level whose mesh is a glTF file with an external buffer, read through the asset
//! server.

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_collidoscope::collidoscope::glam;
use bevy_collidoscope::collidoscope::level::Level;
use bevy_collidoscope::collidoscope::shape::Ray;
use bevy_collidoscope::*;

use crate::common::*;

/// A room (floor 0, ceiling 3) beside a balcony (floor 2), a box, an oriented box, a cylinder, a triangle, a
/// mesh, a wall and a plane.
const LEVEL: &str = r#"(version: 3, name: "greybox",
  walls: [(id: 1, a: (0, -5), b: (4, -5), radius: 0.1, height: 2)],
  triangles: [(id: 2, a: (0, 0, 8), b: (1, 0, 8), c: (0, 1, 8))],
  planes: [(id: 3, normal: (0, 1, 0), d: -1)],
  cylinders: [(id: 4, a: (6, 0, 6), b: (6, 2, 6), radius: 0.5)],
  aabbs: [(id: 5, min: (-3, 0, -3), max: (-2, 1, -2))],
  obbs: [(id: 6, center: (-5, 1, 0), half_extents: (1, 1, 1), rotation_deg: (0, 30, 0))],
  meshes: [(id: 7, vertices: [(0, 0, 10), (1, 0, 10), (1, 0, 11)], indices: [(0, 1, 2)])],
  sectors: [
    (id: 8, outline: [(0, 0), (4, 0), (4, 4), (0, 4)], floor: (height: 0), ceiling: (height: 3)),
    (id: 9, outline: [(4, 0), (8, 0), (8, 4), (4, 4)], floor: (height: 2), ceiling: (height: 5)),
  ])"#;

#[test]
fn every_static_object_but_the_plane_gets_a_mesh_shaded_by_height() {
    let level = Level::from_ron_str(LEVEL).unwrap();
    let meshes = greybox_meshes(&level);
    let kinds: Vec<(u32, GreyboxKind)> = meshes.iter().map(|m| (m.object.0, m.kind)).collect();
    for want in [
        (1, GreyboxKind::Wall),
        (2, GreyboxKind::Triangle),
        (4, GreyboxKind::Cylinder),
        (5, GreyboxKind::Aabb),
        (6, GreyboxKind::Obb),
        (7, GreyboxKind::Mesh),
        (8, GreyboxKind::Sector),
        (9, GreyboxKind::Sector),
    ] {
        assert!(kinds.contains(&want), "{want:?} in {kinds:?}");
    }
    assert!(!kinds.iter().any(|k| k.0 == 3), "a plane has no mesh");
    let cooked = collidoscope::sector::cook(level.sectors.iter().map(|s| s.geom()));
    let (mut low, mut high) = (f32::INFINITY, f32::NEG_INFINITY);
    for m in &meshes {
        let n = m.positions.len();
        assert!(n > 0 && n % 3 == 0, "{:?}", m.object);
        assert_eq!(
            (m.normals.len(), m.colors.len(), m.indices.len()),
            (n, n, n)
        );
        assert!(m.indices.iter().enumerate().all(|(i, &k)| k as usize == i));
        for (tri, normals) in m.positions.chunks(3).zip(m.normals.chunks(3)) {
            let [a, b, c] = [tri[0], tri[1], tri[2]].map(glam::Vec3::from);
            let face = (b - a).cross(c - a);
            let normal = glam::Vec3::from(normals[0]);
            assert!((normal.length() - 1.0).abs() < 1e-5);
            // Flat shading: the face's own normal on all three vertices.
            assert!(normals.iter().all(|n| *n == normals[0]));
            if face.length() > 1e-6 {
                assert!(face.normalize().dot(normal) > 0.999);
            }
        }
        for p in &m.positions {
            low = low.min(p[1]);
            high = high.max(p[1]);
        }
        let tris = n / 3;
        match m.kind {
            GreyboxKind::Aabb | GreyboxKind::Obb | GreyboxKind::Wall => assert_eq!(tris, 12),
            GreyboxKind::Triangle | GreyboxKind::Mesh => assert_eq!(tris, 1),
            GreyboxKind::Sector => {
                let c = cooked.iter().find(|c| c.id == m.object).unwrap();
                assert_eq!(tris, c.indices.len());
            }
            GreyboxKind::Cylinder => assert_eq!(tris, 64),
        }
    }
    // The balcony's ceiling is the highest vertex; the tilted box reaches a little below the floor.
    assert!((high - 5.0).abs() < 1e-4 && low <= 0.0, "{low} .. {high}");
    // Colours follow height: every vertex has its height's colour, the lowest and highest differ.
    for m in &meshes {
        for (p, c) in m.positions.iter().zip(&m.colors) {
            assert_eq!(*c, height_color(p[1], low, high));
        }
    }
    assert_ne!(height_color(low, low, high), height_color(high, low, high));
    // The balcony's floor (y = 2) is coloured apart from the room's (y = 0).
    let floor_color = |id: u32, y: f32| {
        let m = meshes.iter().find(|m| m.object.0 == id).unwrap();
        m.positions
            .iter()
            .zip(&m.colors)
            .find(|(p, _)| p[1] == y)
            .map(|(_, c)| *c)
    };
    assert_ne!(floor_color(8, 0.0), floor_color(9, 2.0));
}

#[test]
fn height_colours_are_finite_for_any_input() {
    for (y, lo, hi) in [
        (f32::NAN, 0.0, 1.0),
        (1.0, 1.0, 1.0),
        (-1e30, 0.0, 1.0),
        (1e30, 0.0, 1.0),
    ] {
        assert!(
            height_color(y, lo, hi)
                .iter()
                .all(|c| c.is_finite() && (0.0..=1.0).contains(c))
        );
    }
}

/// A 2 × 2 square at y = 0.5 as glTF JSON with its buffer in `floor.bin`, and that buffer.
fn floor_gltf() -> (String, Vec<u8>) {
    let mut bin = Vec::new();
    for v in [
        [-1.0f32, 0.5, -1.0],
        [1.0, 0.5, -1.0],
        [1.0, 0.5, 1.0],
        [-1.0, 0.5, 1.0],
    ] {
        for c in v {
            bin.extend_from_slice(&c.to_le_bytes());
        }
    }
    for i in [0u16, 1, 2, 0, 2, 3] {
        bin.extend_from_slice(&i.to_le_bytes());
    }
    let json = r#"{"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
      "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
      "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"},
                    {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"}],
      "bufferViews": [{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 12}],
      "buffers": [{"byteLength": 60, "uri": "floor.bin"}]}"#;
    (json.to_owned(), bin)
}

#[test]
fn a_gltf_mesh_and_its_buffer_load_through_the_asset_server() {
    let assets = AssetDir::new();
    std::fs::create_dir_all(assets.path("levels/art")).unwrap();
    let (json, bin) = floor_gltf();
    std::fs::write(assets.path("levels/art/floor.gltf"), json).unwrap();
    std::fs::write(assets.path("levels/art/floor.bin"), bin).unwrap();
    std::fs::write(
        assets.path("levels/gltf.ron"),
        r#"(version: 3, meshes: [(id: 5, obj: "art/floor.gltf")])"#,
    )
    .unwrap();
    let mut app = app(assets.root());
    let root = spawn_root(&mut app, "levels/gltf.ron");
    update_until(&mut app, "the glTF level", |app| spawned(app, root));
    let hit = app
        .world_mut()
        .run_system_once(|scene: LevelScene| {
            scene.cast_ray(
                &Ray::new(glam::Vec3::new(0.2, 10.0, 0.3), -glam::Vec3::Y),
                100.0,
            )
        })
        .unwrap()
        .unwrap();
    assert_eq!(hit.object, ObjectId(5));
    assert!((hit.point.y - 0.5).abs() < 1e-5, "{hit:?}");
}

/// With the `greybox` feature (not built by CI: `cargo test -p bevy_collidoscope --features greybox`), the
/// plugin spawns one mesh entity per object under the root and replaces them when the level file changes;
/// meshes and materials are plain assets, so no GPU is needed.
#[cfg(feature = "greybox")]
#[test]
fn the_greybox_plugin_spawns_meshes_and_replaces_them_on_reload() {
    use std::collections::BTreeSet;

    let assets = AssetDir::new();
    std::fs::write(assets.path("levels/grey.ron"), LEVEL).unwrap();
    let mut app = app(assets.root());
    app.init_asset::<Mesh>()
        .init_asset::<StandardMaterial>()
        .add_plugins(GreyboxPlugin);
    collect::<LevelSpawned>(&mut app);
    let root = spawn_root(&mut app, "levels/grey.ron");
    let greybox = |app: &mut App| -> BTreeSet<u32> {
        let mut q = app.world_mut().query::<(&Greybox, &ChildOf, &Mesh3d)>();
        q.iter(app.world())
            .filter(|(_, c, _)| c.parent() == root)
            .map(|(g, _, _)| g.object.0)
            .collect()
    };
    update_until(&mut app, "the greybox", |app| !greybox(app).is_empty());
    let want: BTreeSet<u32> = greybox_meshes(&Level::from_ron_str(LEVEL).unwrap())
        .iter()
        .map(|m| m.object.0)
        .collect();
    assert_eq!(greybox(&mut app), want);
    // A saved edit (only the room left) replaces them: none of the old ones stays.
    let room = r#"(version: 3, sectors: [
        (id: 8, outline: [(0, 0), (4, 0), (4, 4), (0, 4)], floor: (height: 0), ceiling: (height: 3))])"#;
    write_atomically(&assets.path("levels/grey.ron"), room);
    update_until(&mut app, "the reload", |app| {
        collected::<LevelSpawned>(app).len() == 2 && greybox(app) == BTreeSet::from([8])
    });
}
