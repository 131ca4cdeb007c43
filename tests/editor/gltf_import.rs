//! File → Import mesh with a glTF file: outside the level's folder every placed primitive becomes an inlined
//! mesh named after its node; inside it, one mesh references the file; either is one undo step.

use super::*;

/// A right triangle's three f32 positions and u16 indices (44 bytes with padding), base64.
fn triangle_buffer() -> String {
    let mut b = Vec::new();
    for v in [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]] {
        for c in v {
            b.extend_from_slice(&c.to_le_bytes());
        }
    }
    for i in [0u16, 1, 2, 0] {
        b.extend_from_slice(&i.to_le_bytes());
    }
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in b.chunks(3) {
        let n = c
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &x)| n | u32::from(x) << (16 - 8 * i));
        for k in 0..=c.len() {
            s.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
    s
}

/// Two nodes using one triangle mesh: "low" at the origin and "high" raised 2 m.
fn two_nodes_gltf() -> String {
    format!(
        r#"{{"asset": {{"version": "2.0"}}, "scenes": [{{"nodes": [0, 1]}}],
  "nodes": [{{"name": "low", "mesh": 0}}, {{"name": "high", "mesh": 0, "translation": [0, 2, 0]}}],
  "meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}, "indices": 1}}]}}],
  "accessors": [{{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}},
                {{"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"}}],
  "bufferViews": [{{"buffer": 0, "byteLength": 36}}, {{"buffer": 0, "byteOffset": 36, "byteLength": 6}}],
  "buffers": [{{"byteLength": 44, "uri": "data:application/octet-stream;base64,{}"}}]}}"#,
        triangle_buffer()
    )
}

#[test]
fn import_a_gltf_inlined_per_node_or_referenced_whole() {
    let outside = tempfile::tempdir().unwrap();
    let file = outside.path().join("tri.gltf");
    std::fs::write(&file, two_nodes_gltf()).unwrap();
    let mut h = house();
    let before = h.state().doc.history().0.len();
    key(&mut h, Modifiers::COMMAND, Key::I);
    type_into(
        &mut h,
        "File path (.obj, .gltf, .glb):",
        &file.display().to_string(),
    );
    click_label(&mut h, "OK");
    let meshes = h.state().doc.level().meshes.clone();
    let names: Vec<_> = meshes.iter().map(|m| m.name.clone().unwrap()).collect();
    assert_eq!(names, ["tri/low", "tri/high"]);
    assert!(
        meshes
            .iter()
            .all(|m| m.obj.is_none() && m.indices.len() == 1)
    );
    assert_eq!(meshes[1].vertices[0], Vec3::new(0.0, 2.0, 0.0));
    assert_eq!(h.state().doc.history().0.len(), before + 1, "one undo step");
    h.state_mut().undo();
    assert!(h.state().doc.level().meshes.is_empty());

    // Inside the level's folder: one mesh referencing the file, both nodes' triangles merged.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tri.gltf"), two_nodes_gltf()).unwrap();
    let level_path = dir.path().join("level.ron");
    assert!(h.state_mut().save_to(&level_path));
    assert!(h.state_mut().import_obj(&dir.path().join("tri.gltf")));
    let meshes = &h.state().doc.level().meshes;
    assert_eq!(meshes.len(), 1);
    assert_eq!(meshes[0].obj.as_deref(), Some("tri.gltf"));
    assert_eq!(meshes[0].indices.len(), 2);
    assert!(h.state_mut().save_to(&level_path));
    assert_eq!(Level::load(&level_path).unwrap().meshes[0].indices.len(), 2);

    // A damaged file: a message, nothing added.
    std::fs::write(dir.path().join("bad.glb"), b"glTF\x02\0\0\0\xff\0\0\0").unwrap();
    assert!(!h.state_mut().import_obj(&dir.path().join("bad.glb")));
    assert_eq!(h.state().doc.level().meshes.len(), 1);
}
