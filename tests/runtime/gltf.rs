//! glTF 2.0 import (`collidoscope::mesh::read_gltf`, `parse_gltf`, `TriMesh::from_gltf`, and levels whose
//! meshes reference `.gltf` / `.glb` files): files built byte by byte here, node transforms checked against
//! hand-computed vertices, every kind of damage an error (never a panic).
#![allow(clippy::unwrap_used)]

use collidoscope::glam::Vec3;
use collidoscope::level::Level;
use collidoscope::mesh::{GltfError, TriMesh, parse_gltf, read_gltf};
use collidoscope::scene::Scene;
use collidoscope::shape::Ray;
use proptest::prelude::*;

/// The binary buffer: a right triangle (0,0,0), (1,0,0), (0,0,1) as three f32 VEC3, then u16 indices 0 1 2
/// (padded to 44 bytes).
fn bin() -> Vec<u8> {
    let mut b = Vec::new();
    for v in [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]] {
        for c in v {
            b.extend_from_slice(&c.to_le_bytes());
        }
    }
    for i in [0u16, 1, 2] {
        b.extend_from_slice(&i.to_le_bytes());
    }
    b.extend_from_slice(&[0, 0]);
    b
}

/// The usual scene: node 0 ("A": translated, rotated 90° about y, scaled 2) with child node 1 ("B":
/// translated), and node 2 ("C": a matrix), all three using mesh 0.
const NODES: &str = r#"[
  {"name": "A", "mesh": 0, "translation": [10, 2, 0], "rotation": [0, 0.70710678, 0, 0.70710678],
   "scale": [2, 2, 2], "children": [1]},
  {"name": "B", "mesh": 0, "translation": [0, 0, 5]},
  {"name": "C", "mesh": 0, "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,3,0,1]}
]"#;

/// A glTF document around `buffer` (its JSON object), with the usual accessors unless `accessors` is given.
fn document(buffer: &str, nodes: &str, accessors: Option<&str>, primitive: Option<&str>) -> String {
    let accessors = accessors.unwrap_or(
        r#"[{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"},
            {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}]"#,
    );
    let primitive = primitive.unwrap_or(r#"{"attributes": {"POSITION": 0}, "indices": 1}"#);
    format!(
        r#"{{"asset": {{"version": "2.0"}}, "scene": 0, "scenes": [{{"nodes": [0, 2]}}],
  "nodes": {nodes},
  "meshes": [{{"name": "tri", "primitives": [{primitive}]}}],
  "accessors": {accessors},
  "bufferViews": [{{"buffer": 0, "byteOffset": 0, "byteLength": 36}},
                  {{"buffer": 0, "byteOffset": 36, "byteLength": 6}}],
  "buffers": [{buffer}]}}"#
    )
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in bytes.chunks(3) {
        let n = c
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for k in 0..=c.len() {
            s.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
    while !s.len().is_multiple_of(4) {
        s.push('=');
    }
    s
}

fn data_uri_gltf(nodes: &str) -> String {
    let uri = format!("data:application/octet-stream;base64,{}", base64(&bin()));
    document(
        &format!(r#"{{"byteLength": 44, "uri": "{uri}"}}"#),
        nodes,
        None,
        None,
    )
}

/// A `.glb`: the 12-byte header, the JSON chunk (space-padded), the BIN chunk (zero-padded).
fn glb(json: &str, bin: &[u8]) -> Vec<u8> {
    let mut j = json.as_bytes().to_vec();
    while !j.len().is_multiple_of(4) {
        j.push(b' ');
    }
    let mut b = bin.to_vec();
    while !b.len().is_multiple_of(4) {
        b.push(0);
    }
    let total = 12 + 8 + j.len() + 8 + b.len();
    let mut out = b"glTF".to_vec();
    for w in [2u32, total as u32, j.len() as u32, 0x4E4F_534A] {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&j);
    for w in [b.len() as u32, 0x004E_4942] {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&b);
    out
}

fn usual_glb() -> Vec<u8> {
    glb(
        &document(r#"{"byteLength": 44}"#, NODES, None, None),
        &bin(),
    )
}

fn no_files(uri: &str) -> Result<Vec<u8>, String> {
    Err(format!("no file {uri} in this test"))
}

/// The placed triangles, worked by hand: A is T(10,2,0)·R(y, 90°)·S(2), which takes (x,y,z) to
/// (10 + 2z, 2 + 2y, -2x); B is A·T(0,0,5); C is T(0,3,0).
fn expected() -> Vec<(&'static str, [Vec3; 3])> {
    vec![
        (
            "A",
            [
                Vec3::new(10.0, 2.0, 0.0),
                Vec3::new(10.0, 2.0, -2.0),
                Vec3::new(12.0, 2.0, 0.0),
            ],
        ),
        (
            "B",
            [
                Vec3::new(20.0, 2.0, 0.0),
                Vec3::new(20.0, 2.0, -2.0),
                Vec3::new(22.0, 2.0, 0.0),
            ],
        ),
        (
            "C",
            [
                Vec3::new(0.0, 3.0, 0.0),
                Vec3::new(1.0, 3.0, 0.0),
                Vec3::new(0.0, 3.0, 1.0),
            ],
        ),
    ]
}

fn assert_placed(scene: &collidoscope::mesh::GltfScene) {
    let want = expected();
    assert_eq!(scene.primitives.len(), want.len(), "{scene:?}");
    for (p, (name, tri)) in scene.primitives.iter().zip(want) {
        assert_eq!(p.name, name);
        assert_eq!(p.mesh, 0, "one mesh used by every node");
        assert_eq!(p.indices, vec![[0, 1, 2]]);
        for (got, want) in p.vertices.iter().zip(tri) {
            assert!(got.distance(want) < 1e-5, "{name}: {got} vs {want}");
        }
    }
    assert_eq!(
        scene.primitives.iter().map(|p| p.node).collect::<Vec<_>>(),
        [0, 1, 2]
    );
}

#[test]
fn a_gltf_with_a_data_uri_places_each_node_and_child() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tri.gltf");
    std::fs::write(&path, data_uri_gltf(NODES)).unwrap();
    assert_placed(&read_gltf(&path).unwrap());
    assert_eq!(TriMesh::from_gltf(&path).unwrap().triangle_count(), 3);
}

#[test]
fn a_glb_gives_the_same_triangles() {
    assert_placed(&parse_gltf(&usual_glb(), no_files).unwrap());
}

#[test]
fn an_external_buffer_is_read_beside_the_file_and_a_missing_one_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let text = document(
        r#"{"byteLength": 44, "uri": "tri%20data.bin"}"#,
        NODES,
        None,
        None,
    );
    let path = dir.path().join("tri.gltf");
    std::fs::write(&path, &text).unwrap();
    let err = read_gltf(&path).unwrap_err();
    assert!(matches!(err, GltfError::Buffer { buffer: 0, .. }), "{err}");
    assert!(err.to_string().contains("tri data.bin"), "{err}");
    std::fs::write(dir.path().join("tri data.bin"), bin()).unwrap();
    assert_placed(&read_gltf(&path).unwrap());
    // A buffer URI may not leave the file's folder.
    let out = document(
        r#"{"byteLength": 44, "uri": "../tri.bin"}"#,
        NODES,
        None,
        None,
    );
    std::fs::write(&path, out).unwrap();
    assert!(matches!(read_gltf(&path), Err(GltfError::Buffer { .. })));
}

#[test]
fn every_truncation_of_a_glb_is_an_error() {
    let full = usual_glb();
    for len in 0..full.len() {
        assert!(parse_gltf(&full[..len], no_files).is_err(), "cut at {len}");
    }
    let err = parse_gltf(&full[..full.len() - 10], no_files).unwrap_err();
    assert!(matches!(err, GltfError::Glb(_)), "{err}");
}

#[test]
fn bad_accessors_indices_and_counts_are_errors() {
    let glb_with = |accessors: Option<&str>, primitive: Option<&str>| {
        let json = document(r#"{"byteLength": 44}"#, NODES, accessors, primitive);
        parse_gltf(&glb(&json, &bin()), no_files)
    };
    let err = glb_with(
        None,
        Some(r#"{"attributes": {"POSITION": 7}, "indices": 1}"#),
    )
    .unwrap_err();
    assert!(
        matches!(err, GltfError::Accessor { accessor: 7, .. }),
        "{err}"
    );
    // An absurd count is checked against the bytes present, not allocated.
    let absurd = r#"[{"bufferView": 0, "componentType": 5126, "count": 4000000000, "type": "VEC3"},
                     {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}]"#;
    let err = glb_with(Some(absurd), None).unwrap_err();
    assert!(
        matches!(err, GltfError::Accessor { accessor: 0, .. }),
        "{err}"
    );
    // Positions read as indices: the wrong type.
    let err = glb_with(
        None,
        Some(r#"{"attributes": {"POSITION": 1}, "indices": 0}"#),
    )
    .unwrap_err();
    assert!(matches!(err, GltfError::Accessor { .. }), "{err}");
    // An index past the vertices.
    let mut b = bin();
    b[38] = 9;
    let json = document(r#"{"byteLength": 44}"#, NODES, None, None);
    let err = parse_gltf(&glb(&json, &b), no_files).unwrap_err();
    assert_eq!(
        err,
        GltfError::IndexOutOfRange {
            mesh: 0,
            primitive: 0,
            index: 9,
            vertex_count: 3
        }
    );
    // A buffer shorter than it says.
    let json = document(r#"{"byteLength": 44}"#, NODES, None, None);
    assert!(matches!(
        parse_gltf(&glb(&json, &b[..20]), no_files),
        Err(GltfError::Buffer { .. })
    ));
}

#[test]
fn other_modes_are_skipped_with_a_note_and_cycles_are_refused() {
    let lines = r#"{"attributes": {"POSITION": 0}, "indices": 1, "mode": 1}"#;
    let json = document(r#"{"byteLength": 44}"#, NODES, None, Some(lines));
    match parse_gltf(&glb(&json, &bin()), no_files) {
        Err(GltfError::NoTriangles(notes)) => assert!(notes[0].contains("Lines"), "{notes:?}"),
        other => panic!("{other:?}"),
    }
    let cycle = r#"[{"mesh": 0, "children": [1]}, {"children": [0]}, {"mesh": 0}]"#;
    let json = document(r#"{"byteLength": 44}"#, cycle, None, None);
    let err = parse_gltf(&glb(&json, &bin()), no_files).unwrap_err();
    assert!(matches!(err, GltfError::Node { .. }), "{err}");
}

#[test]
fn node_graphs_that_fan_out_are_refused_before_they_fill_memory() {
    // Each of 40 nodes lists the next twice: 2^40 paths through a valid-looking tree.
    let doubling: Vec<String> = (0..40)
        .map(|i| format!(r#"{{"mesh": 0, "children": [{0}, {0}]}}"#, i + 1))
        .chain([r#"{"mesh": 0}"#.to_owned(), r#"{"mesh": 0}"#.to_owned()])
        .collect();
    // One node listing the same child a million times.
    let wide = format!(
        r#"[{{"children": [{}]}}, {{"mesh": 0}}, {{"mesh": 0}}]"#,
        vec!["1"; (1 << 20) + 1].join(",")
    );
    for nodes in [format!("[{}]", doubling.join(",")), wide] {
        let json = document(r#"{"byteLength": 44}"#, &nodes, None, None);
        let err = parse_gltf(&glb(&json, &bin()), no_files).unwrap_err();
        assert!(matches!(err, GltfError::Node { .. }), "{err}");
        assert!(err.to_string().contains("too big"), "{err}");
    }
}

#[test]
fn a_level_referencing_gltf_and_glb_files_loads_into_the_scene() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("art.gltf"), data_uri_gltf(NODES)).unwrap();
    std::fs::write(dir.path().join("art.glb"), usual_glb()).unwrap();
    for (file, id) in [("art.gltf", 1u32), ("art.glb", 2)] {
        let text = format!(
            "(version: 3, name: \"g\", meshes: [(id: {id}, name: \"art\", obj: \"{file}\")])"
        );
        let path = dir.path().join("level.ron");
        std::fs::write(&path, text).unwrap();
        let level = Level::load(&path).unwrap();
        assert_eq!(level.meshes[0].indices.len(), 3);
        assert!(level.to_ron_string().contains(&format!("obj: \"{file}\"")));
        let scene = Scene::from_level(&level).unwrap();
        // Down onto C (y = 3) and onto A (y = 2, where the rotation and scale put it).
        for (x, z, t) in [(0.2, 0.2, 7.0), (10.6, -0.6, 8.0)] {
            let ray = Ray::new(Vec3::new(x, 10.0, z), -Vec3::Y);
            let hit = scene.cast_ray(&ray, 100.0).unwrap();
            assert_eq!(hit.object.0, id);
            assert!((hit.t - t).abs() < 1e-4, "{file} at ({x}, {z}): {}", hit.t);
        }
    }
}

/// A file's bytes changed at random: whatever the damage, the loader answers (usually an error) and never
/// panics or allocates by a damaged length.
fn mutated() -> impl Strategy<Value = Vec<u8>> {
    let base = usual_glb();
    let n = base.len();
    (
        prop::collection::vec((0..n, any::<u8>()), 1..8),
        prop::option::of(0..n),
    )
        .prop_map(move |(flips, cut)| {
            let mut b = base.clone();
            for (i, v) in flips {
                b[i] = v;
            }
            if let Some(c) = cut {
                b.truncate(c);
            }
            b
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn mutated_glb_files_never_panic(bytes in mutated()) {
        if let Ok(scene) = parse_gltf(&bytes, no_files) {
            prop_assert!(scene.primitives.iter().all(|p| p.vertices.iter().all(|v| v.is_finite())));
            for p in &scene.primitives {
                prop_assert!(p.indices.iter().flatten().all(|&i| (i as usize) < p.vertices.len()));
            }
        }
    }
}
