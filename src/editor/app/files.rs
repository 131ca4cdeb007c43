//! Files: the one way a document is opened ([`EditorApp::open_document`]), save, save as, export, import,
//! recent files, and the path dialog used where the system has no file dialog.

use std::path::{Path, PathBuf};

use crate::editor::app::*;
use crate::editor::document::{Document, Edit, LabelledEdit, Object};
use crate::editor::inspector::InspectorState;
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

impl EditorApp {
    /// Open a recording file: its frames in the Recording tab, asked again of the current level.
    pub fn open_recording(&mut self, path: &std::path::Path) {
        match crate::editor::recording::live::open_file(path) {
            Ok((session, status)) => {
                self.recording = Some(session);
                self.panels.tab = crate::editor::debugger::panel::Tab::Recording;
                self.panels.lower_collapsed = false;
                self.status = status;
            }
            Err(why) => self.status = why,
        }
    }

    pub(crate) fn remember(&mut self, path: &Path) {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        self.session.recent.retain(|p| p != &path);
        self.session.recent.insert(0, path);
        self.session.recent.truncate(MAX_RECENT);
    }

    /// Ask before `action` when there are unsaved changes; otherwise do it now.
    pub(crate) fn guard(&mut self, ctx: &egui::Context, action: Pending) {
        if self.doc.is_dirty() {
            self.session.dialog = Some(Dialog::ConfirmDiscard(action));
        } else {
            self.run_pending(ctx, action);
        }
    }

    pub(crate) fn run_pending(&mut self, ctx: &egui::Context, action: Pending) {
        match action {
            Pending::New => {
                self.open_document(Level::default(), Source::New);
                self.status = "new level".into();
            }
            Pending::Open(Some(path)) => self.open_path(&path),
            Pending::Open(None) => self.choose_path(PathPurpose::Open),
            Pending::Quit => {
                self.session.allow_close = true;
                self.session.clear_recovery();
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    /// Make `level` the edited document: the one way a document is opened (file, new, recovery, the
    /// built-in level). It gets a fresh [`DocKey`], so every derived cache (drawn scene, problems, 3D scene,
    /// recording, probe and compare results) rebuilds by itself; only the editing session's own state (a
    /// half-drawn chain, a gesture, the framing, the probe ray, typed field text) is reset here.
    pub(crate) fn open_document(&mut self, level: Level, source: Source) {
        let recovered = matches!(source, Source::Recovered(_));
        let left_previous = matches!(source, Source::New | Source::File(_));
        let (path, name) = match source {
            Source::New => (None, "untitled.ron".to_owned()),
            Source::Embedded => (None, EMBEDDED_NAME.to_owned()),
            Source::Start(path) => {
                let name = display_name(path.as_deref());
                (path, name)
            }
            Source::File(path) | Source::Recovered(Some(path)) => {
                let name = display_name(Some(&path));
                (Some(path), name)
            }
            Source::Recovered(None) => (None, display_name(None)),
        };
        self.session.display_name = name;
        self.doc = Document::new(level, path);
        self.tools.chain.clear();
        self.tools.gesture = None;
        self.view2d.framed = false;
        self.view2d.frame_selection = false;
        // The level's first saved probe shows in the Probe tab (and the views) at once.
        self.probe.ray = self.doc.level().probes.first().and_then(|p| {
            let dir = p.dir.normalize_or_zero();
            (dir != glam::Vec3::ZERO && p.origin.is_finite() && p.max_t > 0.0)
                .then(|| (crate::shape::Ray::new(p.origin, dir), p.max_t))
        });
        self.probe.flat = false;
        self.probe.box_id = None;
        self.inspector = InspectorState::default();
        match (recovered, left_previous) {
            // The recovered work exists only in the recovery file until it is saved: keep that file.
            (true, _) => self.doc.mark_unsaved(),
            // The previous document was saved or its changes discarded: its recovery copy goes.
            (false, true) => self.session.clear_recovery(),
            // The editor is starting: the previous session's recovery copy is still to be offered.
            (false, false) => {}
        }
    }

    /// Open a level file, keeping the current document when it cannot be read.
    pub fn open_path(&mut self, path: &Path) {
        match Level::load(path) {
            Ok(level) => {
                self.open_document(level, Source::File(path.to_path_buf()));
                self.remember(path);
                self.status = format!("opened {}", path.display());
            }
            Err(e) => {
                self.status = format!("could not open {}", path.display());
                self.session.dialog = Some(Dialog::Message {
                    title: "Cannot open the level".into(),
                    text: format!("{e}\n\nThe level you were editing is unchanged."),
                });
            }
        }
    }

    /// Save to the document's file (Save As when it has none). Returns whether it saved.
    pub fn save(&mut self) -> bool {
        match self.doc.path.clone() {
            Some(p) => self.save_to(&p),
            None => {
                self.choose_path(PathPurpose::SaveAs);
                false
            }
        }
    }

    /// Save to `path` atomically.
    pub fn save_to(&mut self, path: &Path) -> bool {
        let path = with_ron_extension(path);
        match self.doc.level().save(&path) {
            Ok(()) => {
                self.doc.mark_saved(path.clone());
                self.session.display_name = display_name(Some(&path));
                self.remember(&path);
                self.session.clear_recovery();
                self.status = format!("saved {}", path.display());
                true
            }
            Err(e) => {
                self.session.dialog = Some(Dialog::Message {
                    title: "Cannot save".into(),
                    text: format!("{e}\n\nNothing was overwritten; your changes are still here."),
                });
                false
            }
        }
    }

    /// Export the game-ready level to `path`: validated (refused with errors), OBJ meshes inlined so the file
    /// stands alone, and the debugger's probes left out.
    pub fn export_to(&mut self, path: &Path) -> bool {
        match export_level(self.doc.level()) {
            Ok(level) => {
                let path = with_ron_extension(path);
                match level.save(&path) {
                    Ok(()) => {
                        self.status = format!("exported {}", path.display());
                        true
                    }
                    Err(e) => {
                        self.session.dialog = Some(Dialog::Message {
                            title: "Cannot export".into(),
                            text: e.to_string(),
                        });
                        false
                    }
                }
            }
            Err(problems) => {
                let list: Vec<String> = problems.iter().take(10).map(ToString::to_string).collect();
                self.session.dialog = Some(Dialog::Message {
                    title: "Export refused".into(),
                    text: format!(
                        "The level has {} error(s); a game could not load it. Fix them first (Problems panel):\n\n{}",
                        problems.len(),
                        list.join("\n")
                    ),
                });
                false
            }
        }
    }

    pub(crate) fn choose_path(&mut self, purpose: PathPurpose) {
        if self.session.opts.native_dialogs {
            let mut dialog = rfd::FileDialog::new().add_filter("Collidoscope level", &["ron"]);
            if let Some(dir) = self.doc.path.as_ref().and_then(|p| p.parent()) {
                dialog = dialog.set_directory(dir);
            }
            let chosen = match purpose {
                PathPurpose::Open => dialog.set_title("Open level").pick_file(),
                PathPurpose::SaveAs => dialog
                    .set_title("Save level as")
                    .set_file_name(self.suggested_name())
                    .save_file(),
                PathPurpose::Export => dialog
                    .set_title("Export game-ready level")
                    .set_file_name(self.suggested_name())
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
                Some(path) => self.use_path(purpose, &path),
                None if native_dialog_available() => self.status = "cancelled".into(),
                None => {
                    // No portal and no zenity: ask in our own dialog instead.
                    self.status = "no system file dialog (install xdg-desktop-portal or zenity); type a path instead".into();
                    self.session.opts.native_dialogs = false;
                    self.session.dialog = Some(Dialog::Path {
                        purpose,
                        text: self.suggested_path_for(purpose),
                    });
                }
            }
        } else {
            self.session.dialog = Some(Dialog::Path {
                purpose,
                text: self.suggested_path_for(purpose),
            });
        }
    }

    /// What the editor's own path dialog starts with: the level's path for the level's own files, its
    /// folder (ending in a separator) for another kind of file, a mesh or a recording.
    pub(crate) fn suggested_path_for(&self, purpose: PathPurpose) -> String {
        match purpose {
            PathPurpose::Open | PathPurpose::SaveAs | PathPurpose::Export => self.suggested_path(),
            PathPurpose::ImportObj | PathPurpose::OpenRecording => self
                .doc
                .path
                .as_ref()
                .and_then(|p| p.parent())
                .filter(|d| !d.as_os_str().is_empty())
                .map_or_else(String::new, |d| {
                    format!("{}{}", d.display(), std::path::MAIN_SEPARATOR)
                }),
        }
    }

    pub(crate) fn suggested_name(&self) -> String {
        self.doc
            .path
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or_else(|| "level.ron".into(), |n| n.to_string_lossy().into_owned())
    }

    pub(crate) fn suggested_path(&self) -> String {
        self.doc
            .path
            .as_ref()
            .map_or_else(String::new, |p| p.display().to_string())
    }

    pub(crate) fn use_path(&mut self, purpose: PathPurpose, path: &Path) {
        match purpose {
            PathPurpose::Open => self.open_path(path),
            PathPurpose::SaveAs => {
                self.save_to(path);
            }
            PathPurpose::Export => {
                self.export_to(path);
            }
            PathPurpose::ImportObj => {
                self.import_obj(path);
            }
            PathPurpose::OpenRecording => self.open_recording(path),
        }
    }

    /// Add the triangles of a mesh file as mesh objects (one undo step): a Wavefront OBJ file, or a glTF 2.0
    /// file (`.gltf`, `.glb`: see [`EditorApp::import_gltf`]). A file inside the level's folder is referenced
    /// by its relative path, as levels store it; any other file is inlined, since a level may only reference
    /// files in its own folder.
    pub fn import_obj(&mut self, path: &Path) -> bool {
        if crate::mesh::is_gltf_path(&path.to_string_lossy()) {
            return self.import_gltf(path);
        }
        let mesh = match crate::mesh::TriMesh::from_obj(path) {
            Ok(m) => m,
            Err(e) => return self.import_failed("OBJ", path, &e.to_string()),
        };
        let relative = self.relative_mesh_path(path);
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
        self.add_object("Import OBJ mesh", Object::Mesh(object));
        self.status = format!("imported {} ({n} triangles, {how})", path.display());
        self.view2d.frame_selection = true;
        true
    }

    /// Add the triangles of a glTF 2.0 file (one undo step): every triangle primitive its scene places, node
    /// transforms applied. A file inside the level's folder becomes one mesh object referencing it (all its
    /// primitives merged, re-read whenever the level loads); any other file gives one inlined mesh object per
    /// placed primitive, named after its node.
    pub fn import_gltf(&mut self, path: &Path) -> bool {
        let scene = match crate::mesh::read_gltf(path) {
            Ok(s) => s,
            Err(e) => return self.import_failed("glTF", path, &e.to_string()),
        };
        let stem = path
            .file_stem()
            .map_or_else(|| "gltf".into(), |s| s.to_string_lossy().into_owned());
        let n = scene.triangle_count();
        let (objects, how) = match self.relative_mesh_path(path) {
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
        self.apply_edit(LabelledEdit::new(
            "Import glTF meshes",
            Edit {
                add: objects,
                ..Edit::default()
            },
            None,
        ));
        let notes = if scene.notes.is_empty() {
            String::new()
        } else {
            format!("; {}", scene.notes.join("; "))
        };
        self.status = format!("imported {} ({n} triangles, {how}{notes})", path.display());
        self.view2d.frame_selection = true;
        true
    }

    /// Show why a mesh file cannot be imported; always `false` (nothing was added).
    fn import_failed(&mut self, format: &str, path: &Path, why: &str) -> bool {
        self.session.dialog = Some(Dialog::Message {
            title: format!("Cannot import the {format} file"),
            text: format!("{}: {why}", path.display()),
        });
        false
    }

    /// The path of `file` relative to the level's folder, when the level has a folder and the file is inside it.
    fn relative_mesh_path(&self, file: &Path) -> Option<String> {
        self.doc
            .path
            .as_ref()
            .and_then(|level| level.parent())
            .and_then(|dir| Some((dir.canonicalize().ok()?, file.canonicalize().ok()?)))
            .and_then(|(dir, file)| {
                let rel = file.strip_prefix(&dir).ok()?.to_string_lossy().into_owned();
                crate::level::obj_path_problem(&rel)
                    .is_none()
                    .then_some(rel)
            })
    }
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
