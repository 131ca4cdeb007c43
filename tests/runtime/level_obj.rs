//! Levels that reference Wavefront OBJ meshes: paths relative to the level file, refused when absolute or when
//! they leave the level's folder (`..` or a symbolic link), read by `Level::load`, written back as the
//! reference only, and built into a simulation world.
#![allow(clippy::unwrap_used)]

use std::path::Path;

use collidoscope::level::{Level, LevelError};
use collidoscope::sim::{Static, World};

/// A unit quad at y = 0 as OBJ text.
const QUAD: &str = "v -1 0 -1\nv 1 0 -1\nv 1 0 1\nv -1 0 1\nf 1 4 3 2\n";

fn level_text(obj: &str) -> String {
    format!("(version: 1, name: \"obj\", meshes: [(id: 1, name: \"floor\", obj: \"{obj}\")])")
}

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_relative_obj_is_loaded_and_saved_as_a_reference() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "meshes/quad.obj", QUAD);
    let path = write(dir.path(), "level.ron", &level_text("meshes/quad.obj"));
    let level = Level::load(&path).unwrap();
    assert_eq!(level.meshes[0].indices.len(), 2);
    assert_eq!(level.meshes[0].vertices.len(), 4);
    assert!(level.validate().is_empty(), "{:?}", level.validate());
    // Saving keeps the reference, not the loaded geometry.
    let text = level.to_ron_string();
    assert!(text.contains("obj: \"meshes/quad.obj\""), "{text}");
    assert!(!text.contains("vertices"), "{text}");
    // The world gets the mesh as a static.
    let world = World::from_level(&level).unwrap();
    assert!(matches!(world.statics()[0], Static::Mesh(ref m) if m.triangle_count() == 2));
}

#[test]
fn unresolved_references_are_refused_by_the_world() {
    let level = Level::from_ron_str(&level_text("quad.obj")).unwrap();
    let err = World::from_level(&level).unwrap_err();
    assert!(err.to_string().contains("meshes[0].obj"), "{err}");
}

#[test]
fn paths_that_leave_the_folder_are_refused() {
    for bad in ["/etc/passwd", "../quad.obj", "meshes/../../quad.obj"] {
        let level = Level::from_ron_str(&level_text(bad)).unwrap();
        let problems = level.validate();
        assert!(
            problems.iter().any(|p| p.field == "meshes[0].obj"),
            "{bad}: {problems:?}"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "level.ron", &level_text(bad));
        let err = Level::load(&path).unwrap_err();
        assert!(matches!(err, LevelError::Invalid { .. }), "{bad}: {err}");
        assert!(err.to_string().contains("meshes[0].obj"), "{bad}: {err}");
    }
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_out_of_the_folder_is_refused() {
    let outside = tempfile::tempdir().unwrap();
    let target = write(outside.path(), "quad.obj", QUAD);
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(&target, dir.path().join("quad.obj")).unwrap();
    let path = write(dir.path(), "level.ron", &level_text("quad.obj"));
    let err = Level::load(&path).unwrap_err();
    assert!(
        err.to_string().contains("outside the level's folder"),
        "{err}"
    );
}

#[test]
fn a_missing_or_broken_obj_names_the_mesh() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "level.ron", &level_text("missing.obj"));
    let err = Level::load(&path).unwrap_err();
    assert!(err.to_string().contains("meshes[0].obj"), "{err}");
    write(dir.path(), "broken.obj", "v 0 0 0\nf 1 2 3\n");
    let path = write(dir.path(), "level2.ron", &level_text("broken.obj"));
    let err = Level::load(&path).unwrap_err();
    assert!(err.to_string().contains("meshes[0].obj"), "{err}");
}
