//! Files, as the session's work: reading a level, save, export, import, recent files, and the path dialog
//! used where the system has no file dialog. The app's own file actions (`EditorApp::open_path`, `save`,
//! `import_obj`, the one way a document is opened, `open_document`) live in `command.rs` and call these.

use std::path::{Path, PathBuf};

use crate::editor::app::*;
use crate::editor::document::{Document, Edit, LabelledEdit, Object};
use crate::level::{Level, MeshObject, ObjectId, Problem, Severity};

/// Where an opened document comes from (see `EditorApp::open_document`).
pub(crate) enum Source {
    /// File → New.
    New,
    /// The level built into the binary, as the editor starts.
    Embedded,
    /// The level the editor starts on (a file from the command line, or a test's level).
    Start(Option<PathBuf>),
    /// A level file.
    File(PathBuf),
    /// The autosaved recovery copy, with the file it was a copy of.
    Recovered(Option<PathBuf>),
}

/// A file action waiting on the unsaved-changes question.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Pending {
    New,
    Open(Option<PathBuf>),
    Quit,
}

/// What a path typed into the editor's own dialog is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PathPurpose {
    Open,
    SaveAs,
    Export,
    ImportObj,
    OpenRecording,
}

impl Session {
    /// Put `path` first among the recent files.
    pub(crate) fn remember(&mut self, path: &Path) {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(MAX_RECENT);
    }

    /// Show a message dialog.
    fn tell(&mut self, title: impl Into<String>, text: String) {
        self.dialog = Some(Dialog::Message {
            title: title.into(),
            text,
        });
    }

    /// Read the level file at `path`; when it cannot be read the dialog says why (the edited level is kept).
    pub(crate) fn read_level(&mut self, path: &Path) -> Option<Level> {
        match Level::load(path) {
            Ok(level) => Some(level),
            Err(e) => {
                self.tell(
                    "Cannot open the level",
                    format!("{e}\n\nThe level you were editing is unchanged."),
                );
                None
            }
        }
    }

    /// Save `doc` to `path` atomically: the status line, or `None` (the dialog says why).
    pub(crate) fn save(&mut self, doc: &mut Document, path: &Path) -> Option<String> {
        let path = with_ron_extension(path);
        match doc.level().save(&path) {
            Ok(()) => {
                doc.mark_saved(path.clone());
                self.display_name = display_name(Some(&path));
                self.remember(&path);
                self.clear_recovery();
                Some(format!("saved {}", path.display()))
            }
            Err(e) => {
                self.tell(
                    "Cannot save",
                    format!("{e}\n\nNothing was overwritten; your changes are still here."),
                );
                None
            }
        }
    }

    /// Export the game-ready `level` to `path`: the status line, or `None` (the dialog says why).
    pub(crate) fn export(&mut self, level: &Level, path: &Path) -> Option<String> {
        let problems = match export_level(level) {
            Ok(level) => {
                let path = with_ron_extension(path);
                return match level.save(&path) {
                    Ok(()) => Some(format!("exported {}", path.display())),
                    Err(e) => {
                        self.tell("Cannot export", e.to_string());
                        None
                    }
                };
            }
            Err(problems) => problems,
        };
        let list: Vec<String> = problems.iter().take(10).map(ToString::to_string).collect();
        self.tell(
            "Export refused",
            format!(
                "The level has {} error(s); a game could not load it. Fix them first (Problems panel):\n\n{}",
                problems.len(),
                list.join("\n")
            ),
        );
        None
    }

    /// Ask for a path for `purpose` (`level` the document's file): the system's dialog where there is one,
    /// else the editor's own. `Ok` is a path chosen now; `Err` the status line to show, if any (the own
    /// dialog answers later, through [`Dialog::Path`]).
    pub(crate) fn choose_path(
        &mut self,
        purpose: PathPurpose,
        level: Option<&Path>,
    ) -> Result<PathBuf, Option<String>> {
        if !self.opts.native_dialogs {
            let text = suggested_path_for(purpose, level);
            self.dialog = Some(Dialog::Path { purpose, text });
            return Err(None);
        }
        let mut dialog = rfd::FileDialog::new().add_filter("Collidoscope level", &["ron"]);
        if let Some(dir) = level.and_then(|p| p.parent()) {
            dialog = dialog.set_directory(dir);
        }
        let chosen = match purpose {
            PathPurpose::Open => dialog.set_title("Open level").pick_file(),
            PathPurpose::SaveAs => dialog
                .set_title("Save level as")
                .set_file_name(suggested_name(level))
                .save_file(),
            PathPurpose::Export => dialog
                .set_title("Export game-ready level")
                .set_file_name(suggested_name(level))
                .save_file(),
            PathPurpose::ImportObj => rfd::FileDialog::new()
                .add_filter("Meshes (OBJ, glTF)", &["obj", "gltf", "glb"])
                .add_filter("Wavefront OBJ", &["obj"])
                .add_filter("glTF 2.0", &["gltf", "glb"])
                .set_title("Import a mesh")
                .pick_file(),
            PathPurpose::OpenRecording => rfd::FileDialog::new()
                .add_filter("Collidoscope recording", &["crec"])
                .add_filter("Any file", &["*"])
                .set_title("Open a game's recording")
                .pick_file(),
        };
        match chosen {
            Some(path) => Ok(path),
            None if native_dialog_available() => Err(Some("cancelled".into())),
            None => {
                // No portal and no zenity: ask in our own dialog instead.
                self.opts.native_dialogs = false;
                let text = suggested_path_for(purpose, level);
                self.dialog = Some(Dialog::Path { purpose, text });
                Err(Some("no system file dialog (install xdg-desktop-portal or zenity); type a path instead".into()))
            }
        }
    }

    /// The edit adding the triangles of a mesh file, read as glTF or as OBJ (`level` the document's file;
    /// see [`EditorApp::import_obj`]), with the status line, or `None` (the dialog says why).
    pub(crate) fn import_mesh(
        &mut self,
        path: &Path,
        level: Option<&Path>,
        gltf: bool,
    ) -> Option<(LabelledEdit, String)> {
        let read = if gltf {
            gltf_edit(path, level).map_err(|e| ("glTF", e))
        } else {
            obj_edit(path, level).map_err(|e| ("OBJ", e))
        };
        match read {
            Ok(done) => Some(done),
            Err((format, why)) => {
                self.tell(
                    format!("Cannot import the {format} file"),
                    format!("{}: {why}", path.display()),
                );
                None
            }
        }
    }
}

/// A Wavefront OBJ file as one mesh object: referenced by its path relative to the level's folder when it
/// lies inside it, as levels store it; inlined otherwise, since a level may only reference files in its own
/// folder.
fn obj_edit(path: &Path, level: Option<&Path>) -> Result<(LabelledEdit, String), String> {
    let mesh = crate::mesh::TriMesh::from_obj(path).map_err(|e| e.to_string())?;
    let relative = relative_mesh_path(level, path);
    let name = path.file_stem().map(|s| s.to_string_lossy().into_owned());
    let how = if relative.is_some() {
        "referenced"
    } else {
        "inlined: outside the level's folder"
    };
    let n = mesh.triangle_count();
    let object = mesh_object(
        name,
        relative,
        mesh.vertices().to_vec(),
        mesh.indices().to_vec(),
    );
    let label = "Import OBJ mesh";
    let edit = LabelledEdit::new(
        label,
        Edit {
            add: vec![Object::Mesh(object)],
            ..Edit::default()
        },
        None,
    );
    Ok((
        edit,
        format!("imported {} ({n} triangles, {how})", path.display()),
    ))
}

/// A glTF 2.0 file: one mesh object referencing it (all its primitives merged, re-read whenever the level
/// loads) when it lies in the level's folder; else one inlined mesh object per placed primitive, named
/// after its node.
fn gltf_edit(path: &Path, level: Option<&Path>) -> Result<(LabelledEdit, String), String> {
    let scene = crate::mesh::read_gltf(path).map_err(|e| e.to_string())?;
    let stem = path
        .file_stem()
        .map_or_else(|| "gltf".into(), |s| s.to_string_lossy().into_owned());
    let n = scene.triangle_count();
    let (objects, how) = match relative_mesh_path(level, path) {
        Some(rel) => {
            let (vertices, indices) = scene.merged();
            let mesh = mesh_object(Some(stem), Some(rel), vertices, indices);
            (vec![Object::Mesh(mesh)], "referenced".to_owned())
        }
        None => {
            let meshes: Vec<Object> = scene
                .primitives
                .into_iter()
                .map(|p| {
                    let name = Some(format!("{stem}/{}", p.name));
                    Object::Mesh(mesh_object(name, None, p.vertices, p.indices))
                })
                .collect();
            let how = format!(
                "{} meshes inlined: outside the level's folder",
                meshes.len()
            );
            (meshes, how)
        }
    };
    let edit = LabelledEdit::new(
        "Import glTF meshes",
        Edit {
            add: objects,
            ..Edit::default()
        },
        None,
    );
    let notes = if scene.notes.is_empty() {
        String::new()
    } else {
        format!("; {}", scene.notes.join("; "))
    };
    Ok((
        edit,
        format!("imported {} ({n} triangles, {how}{notes})", path.display()),
    ))
}

/// What the editor's own path dialog starts with (`level` the document's file): the level's path for the
/// level's own files, its folder (ending in a separator) for another kind of file, a mesh or a recording.
pub(crate) fn suggested_path_for(purpose: PathPurpose, level: Option<&Path>) -> String {
    match purpose {
        PathPurpose::Open | PathPurpose::SaveAs | PathPurpose::Export => {
            level.map_or_else(String::new, |p| p.display().to_string())
        }
        PathPurpose::ImportObj | PathPurpose::OpenRecording => level
            .and_then(|p| p.parent())
            .filter(|d| !d.as_os_str().is_empty())
            .map_or_else(String::new, |d| {
                format!("{}{}", d.display(), std::path::MAIN_SEPARATOR)
            }),
    }
}

/// The file name a save dialog offers: the level's, or `level.ron`.
fn suggested_name(level: Option<&Path>) -> String {
    level
        .and_then(|p| p.file_name())
        .map_or_else(|| "level.ron".into(), |n| n.to_string_lossy().into_owned())
}

/// The path of `file` relative to the folder of `level` (the document's file), when there is one and the
/// file is inside it.
fn relative_mesh_path(level: Option<&Path>, file: &Path) -> Option<String> {
    level
        .and_then(|level| level.parent())
        .and_then(|dir| Some((dir.canonicalize().ok()?, file.canonicalize().ok()?)))
        .and_then(|(dir, file)| {
            let rel = file.strip_prefix(&dir).ok()?.to_string_lossy().into_owned();
            crate::level::obj_path_problem(&rel)
                .is_none()
                .then_some(rel)
        })
}

/// A mesh object to add (its id is given when it is added).
fn mesh_object(
    name: Option<String>,
    obj: Option<String>,
    vertices: Vec<glam::Vec3>,
    indices: Vec<[u32; 3]>,
) -> MeshObject {
    MeshObject {
        id: ObjectId(0),
        name,
        obj,
        vertices,
        indices,
        one_way: false,
        properties: Default::default(),
    }
}

pub(crate) fn display_name(path: Option<&Path>) -> String {
    path.and_then(|p| p.file_name()).map_or_else(
        || "untitled.ron".into(),
        |n| n.to_string_lossy().into_owned(),
    )
}

pub(crate) fn with_ron_extension(path: &Path) -> PathBuf {
    if path.extension().is_none() {
        path.with_extension("ron")
    } else {
        path.to_path_buf()
    }
}

/// Whether rfd can show a dialog here: an XDG desktop portal on the session bus or zenity on the PATH.
pub(crate) fn native_dialog_available() -> bool {
    let zenity = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join("zenity").is_file()));
    zenity || std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some()
}

/// The game-ready form of `level`: validated, OBJ meshes inlined, probes (debugger data) left out.
///
/// # Errors
/// The level's errors when it has any.
pub fn export_level(level: &Level) -> Result<Level, Vec<Problem>> {
    let errors: Vec<Problem> = level
        .validate()
        .into_iter()
        .filter(|p| p.severity == Severity::Error)
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut out = level.clone();
    for m in &mut out.meshes {
        m.obj = None;
    }
    out.probes.clear();
    Ok(out)
}
