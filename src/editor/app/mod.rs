//! The editor window: menus, tool palette, top-down view, inspector, history, problems and status bar, plus
//! files (open, save, export, recent, drag and drop, autosave and recovery).

mod command;
mod menus;

pub use command::{Command, Dir, Spec};

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use egui::{Color32, Key, Pos2, Rect, RichText, Sense, Ui};
use glam::{Vec2, Vec3};

use super::compare::{SweepCompare, TriangleCompare};
use super::debug_ui::{DebugPanel, Sync, Tab};
use super::document::{DocKey, Document, Edit, Header, Kind, Object, Preview, count_noun};
use super::footprint::{Footprint, closest_on_segment, segments_cross};
use super::inspector::{self, InspectorState};
use super::view2d::{self, Batch, Camera, Drawer, Extras, Look, palette};
use super::view3d::{Action3, View3d};
use crate::level::{
    AabbObject, BallObject, CylinderObject, Level, MeshObject, ObbObject, ObjectId, PlaneObject,
    Problem, Severity, TriangleObject, WallObject, atomic_write,
};
use crate::shape::Ray;

/// The level the editor opens when no file is given, built into the binary.
pub const EMBEDDED_LEVEL: &str = include_str!("../../../levels/house.ron");
/// Its display name.
pub const EMBEDDED_NAME: &str = "house.ron (built-in)";
/// The app id eframe stores settings (recent files) under.
pub const APP_ID: &str = "Collidoscope";
/// Seconds between autosaves of a changed level to the recovery file.
pub const AUTOSAVE_SECS: f64 = 30.0;
/// Most recent files remembered.
const MAX_RECENT: usize = 10;
/// Pointer distance, in screen points, within which an object counts as under the pointer.
const PICK_PX: f32 = 6.0;
/// Distance in screen points within which a new wall vertex welds to an existing endpoint.
const WELD_PX: f32 = 10.0;

/// Editor settings that differ between a desktop session and a test.
#[derive(Clone, Debug)]
pub struct EditorOptions {
    /// Folder for the autosave recovery file; `None` turns autosave off.
    pub recovery_dir: Option<PathBuf>,
    /// Use the system's file dialogs (rfd). When `false`, or when none is available, the editor asks for a
    /// path in its own dialog.
    pub native_dialogs: bool,
}

impl Default for EditorOptions {
    fn default() -> Self {
        Self {
            recovery_dir: eframe::storage_dir(APP_ID).map(|d| d.join("recovery")),
            native_dialogs: true,
        }
    }
}

/// The tools of the palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Pick, box-select, move, rotate.
    Select,
    /// Click-click wall chains.
    Wall,
    /// Click to place, drag to set the velocity.
    Ball,
    /// Three clicks.
    Triangle,
    /// Click: the floor plane; drag: a vertical plane through the line.
    Plane,
    /// Click the centre, drag the radius.
    Cylinder,
    /// Drag a rectangle.
    Box,
    /// Click to place the walker's start, drag to face.
    Walker,
    /// Drag a ray: every hit, and the slab intervals of each box.
    Probe,
}

impl Tool {
    /// Every tool, in the palette's order.
    pub const ALL: &[Tool] = &[
        Tool::Select,
        Tool::Wall,
        Tool::Ball,
        Tool::Triangle,
        Tool::Plane,
        Tool::Cylinder,
        Tool::Box,
        Tool::Walker,
        Tool::Probe,
    ];

    /// The palette's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.spec().name
    }
}

/// Where an opened document comes from (see `EditorApp::open_document`).
enum Source {
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
enum Pending {
    New,
    Open(Option<PathBuf>),
    Quit,
}

/// What a path typed into the editor's own dialog is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PathPurpose {
    Open,
    SaveAs,
    Export,
    ImportObj,
}

/// The modal dialog on screen, if any.
enum Dialog {
    ConfirmDiscard(Pending),
    Split {
        walls: Vec<(Vec2, Vec2)>,
        crossings: Vec<Crossing>,
    },
    Recover {
        level: Box<Level>,
        original: Option<PathBuf>,
        age: String,
    },
    Message {
        title: String,
        text: String,
    },
    Shortcuts,
    Path {
        purpose: PathPurpose,
        text: String,
    },
}

/// A pointer gesture in progress in the view.
enum Gesture {
    Move { preview: Preview, grab: Vec2 },
    BoxSelect { start: Pos2 },
    Rotate { preview: Preview, center: Vec2 },
    Place { start: Vec2 },
    Pan,
}

/// Where a newly drawn wall meets an existing one.
#[derive(Clone, Debug)]
struct Crossing {
    wall: ObjectId,
    point: Vec2,
}

/// A drawn object, precomputed for drawing and picking; rebuilt when the document changes.
struct Entry {
    id: ObjectId,
    label: String,
    kind: Kind,
    fp: Footprint,
    bounds: Option<(Vec2, Vec2)>,
    extras: Extras,
}

#[derive(Default)]
struct Scene {
    key: Option<DocKey>,
    entries: Vec<Entry>,
    /// Mesh hulls by id with the key they were computed for (vertex count, first and last vertex).
    hulls: Vec<(ObjectId, (usize, Vec3, Vec3), Footprint)>,
}

#[derive(Default)]
struct Problems {
    key: Option<DocKey>,
    list: Vec<Problem>,
    faulty: HashSet<ObjectId>,
    walker_faulty: bool,
}

/// The editor application.
pub struct EditorApp {
    /// The level being edited.
    pub doc: Document,
    display_name: String,
    /// The top-down camera.
    pub cam: Camera,
    framed: bool,
    /// The active tool.
    pub tool: Tool,
    /// Grid snapping on (G); Shift suspends it while held.
    pub snap: bool,
    /// Snap step, metres.
    pub snap_step: f32,
    /// Whether the Box tool makes oriented boxes.
    pub box_obb: bool,
    chain: Vec<Vec2>,
    gesture: Option<Gesture>,
    /// The last message for the status bar.
    pub status: String,
    scene: Scene,
    problems: Problems,
    dialog: Option<Dialog>,
    /// Recently opened or saved files, newest first.
    pub recent: Vec<PathBuf>,
    opts: EditorOptions,
    last_autosave: f64,
    autosaved: Option<DocKey>,
    clipboard: Option<String>,
    inspector: InspectorState,
    allow_close: bool,
    last_title: String,
    cursor_world: Option<Vec2>,
    view_rect: Rect,
    frame_selection: bool,
    show_history: bool,
    show_problems: bool,
    /// The step debugger.
    pub debug: DebugPanel,
    /// The lower panel's tab.
    pub tab: Tab,
    space_panned: bool,
    /// The probe: a ray (unit direction) and its length, dragged in the top-down view at `probe_height` or
    /// clicked in the 3D preview.
    pub probe: Option<(Ray, f32)>,
    /// The height of rays dragged in the top-down view, metres (changing it moves such a ray).
    pub probe_height: f32,
    probe_flat: bool,
    probe_result: Option<((Vec3, Vec3, f32, DocKey), super::probe::ProbeResult)>,
    /// The box whose slabs the probe panel plots.
    pub probe_box: Option<ObjectId>,
    compare: Option<CompareCache>,
    /// The 3D preview.
    pub view3d: View3d,
}

/// What the Compare tab's results depend on: the level, the probe and the debugger's frame.
type CompareKey = (DocKey, Option<(Vec3, Vec3, f32)>, Option<usize>);

/// The Compare tab's results with their key: triangle rows for the probe, and the sweep disagreements
/// (with the number of pairs tested).
type CompareCache = (
    CompareKey,
    Option<Vec<TriangleCompare>>,
    Option<(usize, Vec<SweepCompare>)>,
);

impl EditorApp {
    /// An editor on `level` (from `path` when it came from a file).
    #[must_use]
    pub fn new(level: Level, path: Option<PathBuf>, opts: EditorOptions) -> Self {
        let mut app = Self::blank(opts);
        app.open_document(level, Source::Start(path));
        app.offer_recovery();
        app
    }

    /// The editor on the built-in level.
    #[must_use]
    pub fn embedded(opts: EditorOptions) -> Self {
        let mut app = Self::blank(opts);
        match Level::from_ron_str(EMBEDDED_LEVEL) {
            Ok(level) => app.open_document(level, Source::Embedded),
            Err(e) => {
                app.open_document(Level::default(), Source::Embedded);
                app.status = format!("the built-in level does not load: {e}");
            }
        }
        app.offer_recovery();
        app
    }

    /// The editor before its first document is opened.
    fn blank(opts: EditorOptions) -> Self {
        Self {
            doc: Document::new(Level::default(), None),
            display_name: String::new(),
            cam: Camera::default(),
            framed: false,
            tool: Tool::Select,
            snap: true,
            snap_step: 0.5,
            box_obb: false,
            chain: Vec::new(),
            gesture: None,
            status: String::new(),
            scene: Scene::default(),
            problems: Problems::default(),
            dialog: None,
            recent: Vec::new(),
            opts,
            last_autosave: 0.0,
            autosaved: None,
            clipboard: None,
            inspector: InspectorState::default(),
            allow_close: false,
            last_title: String::new(),
            cursor_world: None,
            view_rect: Rect::NOTHING,
            frame_selection: false,
            show_history: true,
            show_problems: true,
            debug: DebugPanel::default(),
            tab: Tab::Problems,
            space_panned: false,
            probe: None,
            probe_height: 1.0,
            probe_flat: false,
            probe_result: None,
            probe_box: None,
            compare: None,
            view3d: View3d::new(),
        }
    }

    /// The editor as eframe starts it: recent files from eframe's storage, then `file` or the built-in
    /// level. A file that cannot be read opens the built-in level and shows why.
    #[must_use]
    pub fn start(
        cc: &eframe::CreationContext<'_>,
        file: Option<&Path>,
        opts: EditorOptions,
    ) -> Self {
        let mut app = match file.map(|f| (f, Level::load(f))) {
            None => Self::embedded(opts),
            Some((f, Ok(level))) => Self::new(level, Some(f.to_path_buf()), opts),
            Some((f, Err(e))) => {
                let mut app = Self::embedded(opts);
                app.dialog = Some(Dialog::Message {
                    title: "Cannot open the level".into(),
                    text: format!("{}\n\n{e}", f.display()),
                });
                app
            }
        };
        if let Some(rs) = &cc.wgpu_render_state {
            app.enable_3d(rs);
        }
        if let Some(storage) = cc.storage {
            app.recent = eframe::get_value(storage, "recent").unwrap_or_default();
        }
        if let Some(f) = file
            && app.doc.path.is_some()
        {
            app.remember(f);
        }
        app
    }

    /// Draw the 3D preview with `rs` (eframe's wgpu renderer, or a test's).
    pub fn enable_3d(&mut self, rs: &eframe::egui_wgpu::RenderState) {
        super::render3d::install(rs);
        self.view3d.gpu = true;
    }

    /// The window title: `Collidoscope — <file name>[*]`.
    #[must_use]
    pub fn title(&self) -> String {
        let star = if self.doc.is_dirty() { "*" } else { "" };
        format!("Collidoscope — {}{star}", self.display_name)
    }

    /// The current problems, errors first.
    #[must_use]
    pub fn problems(&self) -> &[Problem] {
        &self.problems.list
    }

    fn remember(&mut self, path: &Path) {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(MAX_RECENT);
    }

    // ---- files ------------------------------------------------------------------------------------------

    fn recovery_files(&self) -> Option<(PathBuf, PathBuf)> {
        let dir = self.opts.recovery_dir.as_ref()?;
        Some((dir.join("recovery.ron"), dir.join("recovery.path")))
    }

    fn offer_recovery(&mut self) {
        let Some((level_file, path_file)) = self.recovery_files() else {
            return;
        };
        let Ok(text) = std::fs::read_to_string(&level_file) else {
            return;
        };
        let age = std::fs::metadata(&level_file)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .map_or_else(String::new, |d| format!("{} min ago", d.as_secs() / 60));
        match Level::from_ron_str(&text) {
            Ok(level) => {
                let original = std::fs::read_to_string(&path_file)
                    .ok()
                    .filter(|s| !s.is_empty())
                    .map(PathBuf::from);
                self.dialog = Some(Dialog::Recover {
                    level: Box::new(level),
                    original,
                    age,
                });
            }
            Err(e) => {
                self.status = format!("the recovery file {} is damaged: {e}", level_file.display());
            }
        }
    }

    fn clear_recovery(&mut self) {
        if let Some((a, b)) = self.recovery_files() {
            let _ = std::fs::remove_file(a);
            let _ = std::fs::remove_file(b);
        }
        self.autosaved = None;
    }

    /// Write the recovery file now when the level has unsaved changes not yet autosaved.
    pub fn autosave(&mut self) {
        if !self.doc.is_dirty() || self.autosaved == Some(self.doc.key()) {
            return;
        }
        let Some((level_file, path_file)) = self.recovery_files() else {
            return;
        };
        let result = std::fs::create_dir_all(level_file.parent().unwrap_or(Path::new(".")))
            .map_err(|e| e.to_string())
            .and_then(|()| {
                atomic_write(&level_file, self.doc.level().to_ron_string().as_bytes())
                    .map_err(|e| e.to_string())
            })
            .and_then(|()| {
                let original = self
                    .doc
                    .path
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default();
                atomic_write(&path_file, original.as_bytes()).map_err(|e| e.to_string())
            });
        match result {
            Ok(()) => self.autosaved = Some(self.doc.key()),
            Err(e) => self.status = format!("autosave failed: {e}"),
        }
    }

    /// Ask before `action` when there are unsaved changes; otherwise do it now.
    fn guard(&mut self, ctx: &egui::Context, action: Pending) {
        if self.doc.is_dirty() {
            self.dialog = Some(Dialog::ConfirmDiscard(action));
        } else {
            self.run_pending(ctx, action);
        }
    }

    fn run_pending(&mut self, ctx: &egui::Context, action: Pending) {
        match action {
            Pending::New => {
                self.open_document(Level::default(), Source::New);
                self.status = "new level".into();
            }
            Pending::Open(Some(path)) => self.open_path(&path),
            Pending::Open(None) => self.choose_path(PathPurpose::Open),
            Pending::Quit => {
                self.allow_close = true;
                self.clear_recovery();
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    /// Make `level` the edited document: the one way a document is opened (file, new, recovery, the
    /// built-in level). It gets a fresh [`DocKey`], so every derived cache (drawn scene, problems, 3D scene,
    /// recording, probe and compare results) rebuilds by itself; only the editing session's own state (a
    /// half-drawn chain, a gesture, the framing, the probe ray, typed field text) is reset here.
    fn open_document(&mut self, level: Level, source: Source) {
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
        self.display_name = name;
        self.doc = Document::new(level, path);
        self.chain.clear();
        self.gesture = None;
        self.framed = false;
        self.frame_selection = false;
        self.probe = None;
        self.probe_flat = false;
        self.probe_box = None;
        self.inspector = InspectorState::default();
        match (recovered, left_previous) {
            // The recovered work exists only in the recovery file until it is saved: keep that file.
            (true, _) => self.doc.mark_unsaved(),
            // The previous document was saved or its changes discarded: its recovery copy goes.
            (false, true) => self.clear_recovery(),
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
                self.dialog = Some(Dialog::Message {
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
                self.display_name = display_name(Some(&path));
                self.remember(&path);
                self.clear_recovery();
                self.status = format!("saved {}", path.display());
                true
            }
            Err(e) => {
                self.dialog = Some(Dialog::Message {
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
                        self.dialog = Some(Dialog::Message {
                            title: "Cannot export".into(),
                            text: e.to_string(),
                        });
                        false
                    }
                }
            }
            Err(problems) => {
                let list: Vec<String> = problems.iter().take(10).map(ToString::to_string).collect();
                self.dialog = Some(Dialog::Message {
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

    fn choose_path(&mut self, purpose: PathPurpose) {
        if self.opts.native_dialogs {
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
                    .add_filter("Wavefront OBJ", &["obj"])
                    .set_title("Import an OBJ mesh")
                    .pick_file(),
            };
            match chosen {
                Some(path) => self.use_path(purpose, &path),
                None if native_dialog_available() => self.status = "cancelled".into(),
                None => {
                    // No portal and no zenity: ask in our own dialog instead.
                    self.status = "no system file dialog (install xdg-desktop-portal or zenity); type a path instead".into();
                    self.opts.native_dialogs = false;
                    self.dialog = Some(Dialog::Path {
                        purpose,
                        text: self.suggested_path(),
                    });
                }
            }
        } else {
            self.dialog = Some(Dialog::Path {
                purpose,
                text: self.suggested_path(),
            });
        }
    }

    fn suggested_name(&self) -> String {
        self.doc
            .path
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or_else(|| "level.ron".into(), |n| n.to_string_lossy().into_owned())
    }

    fn suggested_path(&self) -> String {
        self.doc
            .path
            .as_ref()
            .map_or_else(String::new, |p| p.display().to_string())
    }

    fn use_path(&mut self, purpose: PathPurpose, path: &Path) {
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
        }
    }

    /// Add the triangles of a Wavefront OBJ file as a mesh object (one undo step). A file inside the level's
    /// folder is referenced by its relative path, as levels store it; any other file is inlined, since a
    /// level may only reference files in its own folder.
    pub fn import_obj(&mut self, path: &Path) -> bool {
        let mesh = match crate::mesh::TriMesh::from_obj(path) {
            Ok(m) => m,
            Err(e) => {
                self.dialog = Some(Dialog::Message {
                    title: "Cannot import the OBJ file".into(),
                    text: format!("{}: {e}", path.display()),
                });
                return false;
            }
        };
        let relative = self
            .doc
            .path
            .as_ref()
            .and_then(|level| level.parent())
            .and_then(|dir| Some((dir.canonicalize().ok()?, path.canonicalize().ok()?)))
            .and_then(|(dir, file)| {
                let rel = file.strip_prefix(&dir).ok()?.to_string_lossy().into_owned();
                crate::level::obj_path_problem(&rel)
                    .is_none()
                    .then_some(rel)
            });
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned());
        let how = if relative.is_some() {
            "referenced"
        } else {
            "inlined: outside the level's folder"
        };
        let n = mesh.triangle_count();
        self.add_object(
            "Import OBJ mesh",
            Object::Mesh(MeshObject {
                id: ObjectId(0),
                name,
                obj: relative,
                vertices: mesh.vertices().to_vec(),
                indices: mesh.indices().to_vec(),
            }),
        );
        self.status = format!("imported {} ({n} triangles, {how})", path.display());
        self.frame_selection = true;
        true
    }

    // ---- editing commands -------------------------------------------------------------------------------

    /// Undo one step.
    pub fn undo(&mut self) {
        self.cancel_gesture();
        self.status = match self.doc.undo() {
            Some(l) => format!("undid {l}"),
            None => "nothing to undo".into(),
        };
    }

    /// Redo one step.
    pub fn redo(&mut self) {
        self.cancel_gesture();
        self.status = match self.doc.redo() {
            Some(l) => format!("redid {l}"),
            None => "nothing to redo".into(),
        };
    }

    fn cancel_gesture(&mut self) {
        if let Some(Gesture::Move { preview, .. } | Gesture::Rotate { preview, .. }) =
            self.gesture.take()
        {
            self.doc.cancel_preview(preview);
        }
    }

    fn copy(&mut self, ctx: &egui::Context, cut: bool) {
        match self.doc.copy_selection() {
            Some(text) => {
                ctx.copy_text(text.clone());
                self.clipboard = Some(text);
                let n = self.doc.selection.len();
                if cut {
                    self.doc.delete_selection();
                    self.status = format!("cut {}", count_noun(n, "object"));
                } else {
                    self.status = format!("copied {} as RON", count_noun(n, "object"));
                }
            }
            None => self.status = "nothing selected to copy".into(),
        }
    }

    /// Paste level RON text at the cursor (or offset by 1 m).
    pub fn paste(&mut self, text: &str) {
        let at = self.cursor_world.map(|p| self.snapped(p, false));
        match self.doc.paste(text, at) {
            Ok(n) => self.status = format!("pasted {}", count_noun(n, "object")),
            Err(e) => self.status = format!("the clipboard does not hold level objects: {e}"),
        }
    }

    fn delete(&mut self) {
        let mut n = self.doc.delete_selection();
        if self.doc.walker_selected {
            let mut h = Header::of(self.doc.level());
            h.walker = None;
            self.doc.apply(
                "Delete walker",
                Edit {
                    header: Some(h),
                    ..Edit::default()
                },
            );
            n += 1;
        }
        self.status = format!("deleted {}", count_noun(n, "object"));
    }

    fn nudge(&mut self, d: Vec2) {
        let mut objects = self.doc.selected_objects();
        objects.iter_mut().for_each(|o| o.translate(d));
        let header = self.doc.walker_selected.then(|| {
            let mut h = Header::of(self.doc.level());
            if let Some(w) = &mut h.walker {
                w.position += d;
            }
            h
        });
        let ids: Vec<String> = self.doc.selection.iter().map(|i| i.0.to_string()).collect();
        self.doc.apply_merging(
            "Nudge",
            Edit {
                replace: objects,
                header,
                ..Edit::default()
            },
            Some(format!("nudge:{}", ids.join(","))),
        );
    }

    fn set_tool(&mut self, tool: Tool) {
        if self.tool != tool {
            self.chain.clear();
            self.cancel_gesture();
            self.tool = tool;
        }
    }

    /// Esc: cancel a drawing or a drag; with neither, clear the selection.
    fn cancel(&mut self) {
        if !self.chain.is_empty() || self.gesture.is_some() {
            self.chain.clear();
            self.cancel_gesture();
        } else {
            self.doc.selection.clear();
            self.doc.walker_selected = false;
        }
    }

    /// Add the probe ray to the level as a probe object.
    fn keep_probe(&mut self) {
        if let Some((ray, max_t)) = self.probe {
            self.add_object(
                "Add probe",
                Object::Probe(crate::level::Probe {
                    id: ObjectId(0),
                    name: None,
                    origin: ray.origin,
                    dir: ray.dir,
                    max_t,
                }),
            );
        }
    }

    // ---- derived data -----------------------------------------------------------------------------------

    fn refresh_scene(&mut self) {
        if self.scene.key == Some(self.doc.key()) {
            return;
        }
        let level = self.doc.level();
        let mut entries = Vec::with_capacity(level.walls.len() + level.balls.len() + 16);
        for &kind in Kind::ALL {
            if kind == Kind::Mesh {
                continue;
            }
            for i in 0..kind.count(level) {
                let Some(o) = Object::get(level, kind, i) else {
                    continue;
                };
                let extras = match &o {
                    Object::Ball(b) => Extras {
                        velocity: Some(Vec2::new(b.velocity.x, b.velocity.z)),
                        ..Extras::default()
                    },
                    Object::Triangle(t) => {
                        let n = (t.b - t.a).cross(t.c - t.a).normalize_or_zero();
                        Extras {
                            normal: Some((Vec2::new(n.x, n.z), n.y)),
                            ..Extras::default()
                        }
                    }
                    _ => Extras::default(),
                };
                let fp = Footprint::of(&o);
                entries.push(Entry {
                    id: o.id(),
                    label: o.label(),
                    kind,
                    bounds: fp.bounds(),
                    fp,
                    extras,
                });
            }
        }
        let mut hulls = Vec::new();
        for m in &level.meshes {
            let key = (
                m.vertices.len(),
                m.vertices.first().copied().unwrap_or_default(),
                m.vertices.last().copied().unwrap_or_default(),
            );
            let fp = self
                .scene
                .hulls
                .iter()
                .find(|(id, k, _)| *id == m.id && *k == key)
                .map(|(_, _, fp)| fp.clone())
                .unwrap_or_else(|| Footprint::of(&Object::Mesh(mesh_outline(m))));
            entries.push(Entry {
                id: m.id,
                label: match &m.name {
                    Some(n) => format!("mesh {} \"{n}\"", m.id),
                    None => format!("mesh {}", m.id),
                },
                kind: Kind::Mesh,
                bounds: fp.bounds(),
                fp: fp.clone(),
                extras: Extras::default(),
            });
            hulls.push((m.id, key, fp));
        }
        self.scene = Scene {
            key: Some(self.doc.key()),
            entries,
            hulls,
        };
    }

    fn refresh_problems(&mut self) {
        // While dragging, the level changes every frame: validate when the gesture ends.
        if self.problems.key == Some(self.doc.key())
            || (self.problems.key.is_some() && self.gesture.is_some())
        {
            return;
        }
        let mut list = self.doc.level().validate();
        list.sort_by_key(|p| p.severity);
        self.problems.faulty = list
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .filter_map(|p| p.object)
            .collect();
        self.problems.walker_faulty = list
            .iter()
            .any(|p| p.severity == Severity::Error && p.field.starts_with("walker"));
        self.problems.list = list;
        self.problems.key = Some(self.doc.key());
    }

    fn refresh_compare(&mut self) {
        let key: CompareKey = (
            self.doc.key(),
            self.probe.map(|(r, t)| (r.origin, r.dir, t)),
            self.debug.debugger.as_ref().map(|d| d.cursor()),
        );
        if self.compare.as_ref().is_some_and(|(k, _, _)| *k == key) {
            return;
        }
        let tris = self
            .probe
            .map(|(ray, max_t)| super::compare::triangles(self.doc.level(), &ray, max_t));
        let dt = self.doc.level().simulation.dt;
        let sweeps = match &self.debug.debugger {
            Some(d) => Some(super::compare::sweeps(d.world(), dt)),
            None => crate::sim::World::from_level(self.doc.level())
                .ok()
                .map(|w| super::compare::sweeps(&w, dt)),
        };
        self.compare = Some((key, tris, sweeps));
    }

    fn refresh_probe(&mut self) {
        if self.probe_flat
            && let Some((ray, _)) = &mut self.probe
            && self.probe_height.is_finite()
        {
            ray.origin.y = self.probe_height;
        }
        let Some((ray, max_t)) = self.probe else {
            self.probe_result = None;
            return;
        };
        let key = (ray.origin, ray.dir, max_t, self.doc.key());
        if self.probe_result.as_ref().is_some_and(|(k, _)| *k == key) {
            return;
        }
        self.probe_result = Some((key, super::probe::cast(self.doc.level(), &ray, max_t)));
    }

    fn level_bounds(&self) -> Option<(Vec2, Vec2)> {
        let mut acc: Option<(Vec2, Vec2)> = None;
        let mut add = |b: (Vec2, Vec2)| {
            acc = Some(match acc {
                Some((lo, hi)) => (lo.min(b.0), hi.max(b.1)),
                None => b,
            });
        };
        for e in &self.scene.entries {
            if let Some(b) = e.bounds {
                add(b);
            }
        }
        if let Some(w) = &self.doc.level().walker {
            add((
                w.position - Vec2::splat(w.radius),
                w.position + Vec2::splat(w.radius),
            ));
        }
        acc
    }

    fn selection_bounds(&self) -> Option<(Vec2, Vec2)> {
        let mut acc: Option<(Vec2, Vec2)> = None;
        for e in &self.scene.entries {
            if self.doc.selection.contains(&e.id)
                && let Some(b) = e.bounds
            {
                acc = Some(match acc {
                    Some((lo, hi)) => (lo.min(b.0), hi.max(b.1)),
                    None => b,
                });
            }
        }
        acc
    }

    /// Screen position of world point `(x, z)` in the top-down view as last drawn.
    #[must_use]
    pub fn screen_from_world(&self, p: Vec2) -> Pos2 {
        self.cam.screen_from_world(self.view_rect, p)
    }

    /// Frame everything (Home).
    pub fn frame_all(&mut self) {
        self.framed = false;
    }

    /// The object (or walker, as `None` inside `Some`) under world point `p`.
    fn pick(&self, p: Vec2) -> Option<Option<ObjectId>> {
        let tol = PICK_PX / self.cam.scale;
        let mut best: Option<(f32, f32, Option<ObjectId>)> = None;
        let mut consider = |d: f32, area: f32, id: Option<ObjectId>| {
            if d <= tol && best.is_none_or(|(bd, ba, _)| (d, area) < (bd, ba)) {
                best = Some((d, area, id));
            }
        };
        for e in &self.scene.entries {
            if let Some((lo, hi)) = e.bounds
                && (p.x < lo.x - tol || p.y < lo.y - tol || p.x > hi.x + tol || p.y > hi.y + tol)
            {
                continue;
            }
            if let Some(d) = e.fp.distance(p) {
                let area = e
                    .bounds
                    .map_or(f32::INFINITY, |(lo, hi)| (hi - lo).x * (hi - lo).y);
                consider(d, area, Some(e.id));
            }
        }
        if let Some(w) = &self.doc.level().walker {
            let r = w.radius.max(5.0 / self.cam.scale);
            consider((p.distance(w.position) - r).max(0.0), r * r * 4.0, None);
        }
        best.map(|b| b.2)
    }

    fn snapped(&self, p: Vec2, suspend: bool) -> Vec2 {
        if self.snap && !suspend && self.snap_step > 0.0 {
            (p / self.snap_step).round() * self.snap_step
        } else {
            p
        }
    }

    /// Snap a wall vertex: weld to a nearby wall endpoint (or chain vertex) first, then the grid.
    fn snap_vertex(&self, p: Vec2, suspend_grid: bool) -> (Vec2, bool) {
        let tol = WELD_PX / self.cam.scale;
        let mut best: Option<(f32, Vec2)> = None;
        let endpoints = self
            .doc
            .level()
            .walls
            .iter()
            .flat_map(|w| [w.a, w.b])
            .chain(self.chain.iter().copied());
        for e in endpoints {
            let d = e.distance(p);
            if d <= tol && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, e));
            }
        }
        match best {
            Some((_, e)) => (e, true),
            None => (self.snapped(p, suspend_grid), false),
        }
    }

    // ---- wall chains ------------------------------------------------------------------------------------

    /// Finish the wall chain: commit it, or ask first when it crosses existing walls.
    pub fn finish_chain(&mut self) {
        let pts = std::mem::take(&mut self.chain);
        let walls: Vec<(Vec2, Vec2)> = pts
            .windows(2)
            .filter(|w| w[0] != w[1])
            .map(|w| (w[0], w[1]))
            .collect();
        if walls.is_empty() {
            return;
        }
        let crossings = self.crossings(&walls);
        if crossings.is_empty() {
            self.add_walls(walls, &[]);
        } else {
            self.dialog = Some(Dialog::Split { walls, crossings });
        }
    }

    /// Existing walls the new segments cross, or touch in their interior with a new vertex.
    fn crossings(&self, walls: &[(Vec2, Vec2)]) -> Vec<Crossing> {
        let mut out = Vec::new();
        let eps = 1e-4;
        for w in &self.doc.level().walls {
            for &(a, b) in walls {
                if let Some((_, point)) = segments_cross(a, b, w.a, w.b) {
                    out.push(Crossing { wall: w.id, point });
                }
                for v in [a, b] {
                    let q = closest_on_segment(v, w.a, w.b);
                    if q.distance(v) < eps && v.distance(w.a) > eps && v.distance(w.b) > eps {
                        out.push(Crossing {
                            wall: w.id,
                            point: v,
                        });
                    }
                }
            }
        }
        out.sort_by(|x, y| {
            (x.wall, x.point.x, x.point.y)
                .partial_cmp(&(y.wall, y.point.x, y.point.y))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        out.dedup_by(|x, y| x.wall == y.wall && x.point.distance(y.point) < eps);
        out
    }

    /// Add drawn walls; with `split`, existing walls are cut at the crossings and the new ones too.
    fn add_walls(&mut self, walls: Vec<(Vec2, Vec2)>, split: &[Crossing]) {
        let radius = self.doc.level().walls.last().map_or(0.5, |w| w.radius);
        let cut = |a: Vec2, b: Vec2, points: &mut Vec<Vec2>| -> Vec<(Vec2, Vec2)> {
            let d = b - a;
            points.retain(|p| p.distance(a) > 1e-4 && p.distance(b) > 1e-4);
            points.sort_by(|p, q| (*p - a).dot(d).total_cmp(&(*q - a).dot(d)));
            let mut all = vec![a];
            all.extend(points.iter().copied());
            all.push(b);
            all.windows(2).map(|w| (w[0], w[1])).collect()
        };
        let mut new_walls = Vec::new();
        for (a, b) in walls {
            let mut points: Vec<Vec2> = split
                .iter()
                .map(|c| c.point)
                .filter(|p| closest_on_segment(*p, a, b).distance(*p) < 1e-4)
                .collect();
            new_walls.extend(cut(a, b, &mut points));
        }
        let mut edit = Edit::default();
        let mut split_ids: Vec<ObjectId> = split.iter().map(|c| c.wall).collect();
        split_ids.dedup();
        for id in &split_ids {
            let Some(Object::Wall(w)) = self.doc.object(*id) else {
                continue;
            };
            let mut points: Vec<Vec2> = split
                .iter()
                .filter(|c| c.wall == *id)
                .map(|c| c.point)
                .collect();
            let pieces = cut(w.a, w.b, &mut points);
            edit.remove.push(*id);
            for (k, (a, b)) in pieces.into_iter().enumerate() {
                edit.add.push(Object::Wall(WallObject {
                    id: if k == 0 { w.id } else { ObjectId(0) },
                    name: w.name.clone(),
                    a,
                    b,
                    radius: w.radius,
                    height: w.height,
                }));
            }
        }
        let n = new_walls.len();
        for (a, b) in new_walls {
            edit.add.push(Object::Wall(WallObject {
                id: ObjectId(0),
                name: None,
                a,
                b,
                radius,
                height: None,
            }));
        }
        let label = if split_ids.is_empty() {
            format!("Draw {}", count_noun(n, "wall"))
        } else {
            format!(
                "Draw {} (splitting {})",
                count_noun(n, "wall"),
                count_noun(split_ids.len(), "wall")
            )
        };
        self.doc.apply(label.clone(), edit);
        self.status = label.to_lowercase();
    }

    fn add_object(&mut self, label: &str, o: Object) {
        self.doc.apply(
            label,
            Edit {
                add: vec![o],
                ..Edit::default()
            },
        );
        self.status = label.to_lowercase();
    }
}

/// A mesh without its index list, for its outline (the hull needs the vertices only).
fn mesh_outline(m: &MeshObject) -> MeshObject {
    MeshObject {
        id: m.id,
        name: None,
        obj: None,
        vertices: m.vertices.clone(),
        indices: Vec::new(),
    }
}

fn display_name(path: Option<&Path>) -> String {
    path.and_then(|p| p.file_name()).map_or_else(
        || "untitled.ron".into(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn with_ron_extension(path: &Path) -> PathBuf {
    if path.extension().is_none() {
        path.with_extension("ron")
    } else {
        path.to_path_buf()
    }
}

/// Whether rfd can show a dialog here: an XDG desktop portal on the session bus or zenity on the PATH.
fn native_dialog_available() -> bool {
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

// ---- the frame ----------------------------------------------------------------------------------------------

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.frame(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, "recent", &self.recent);
        self.autosave();
    }
}

impl EditorApp {
    /// One frame of the whole editor in `ui` (what [`eframe::App::ui`] calls; tests call it directly).
    pub fn frame(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        match self.debug.sync(&self.doc, self.gesture.is_some()) {
            Sync::Unchanged | Sync::Replaced => {}
            Sync::Branched(from) => {
                self.status = format!(
                    "what-if: the simulation continues from frame {from} in the edited level; the previous run shows as a ghost"
                );
            }
            Sync::Restarted => {
                self.status = "the level changed: the recording starts again from frame 0".into();
            }
        }
        let real_dt = ctx.input(|i| f64::from(i.unstable_dt));
        self.debug.advance(real_dt);
        if self.debug.playing {
            ctx.request_repaint();
        }
        self.refresh_scene();
        self.refresh_problems();
        self.refresh_probe();
        self.window_events(&ctx);
        if self.dialog.is_none() {
            self.shortcuts(&ctx);
        }
        let title = self.title();
        if title != self.last_title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.last_title = title;
        }

        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui));
        egui::Panel::bottom("debugger").show(ui, |ui| self.debugger_bar(ui));
        if self.show_problems {
            egui::Panel::bottom("problems")
                .resizable(true)
                .default_size(240.0)
                .show(ui, |ui| self.lower_panel(ui));
        }
        egui::Panel::left("tools")
            .resizable(false)
            .default_size(150.0)
            .show(ui, |ui| self.tool_panel(ui));
        egui::Panel::right("inspector")
            .resizable(true)
            .default_size(300.0)
            .show(ui, |ui| self.right_panel(ui));
        if self.view3d.open {
            let half = (ui.available_width() * 0.45).max(200.0);
            egui::Panel::right("view3d")
                .resizable(true)
                .default_size(half)
                .min_size(160.0)
                .show(ui, |ui| self.preview3d(ui));
        }
        egui::CentralPanel::no_frame().show(ui, |ui| self.view(ui));
        self.dialogs(&ctx);

        // Autosave needs a frame now and then even when nothing happens.
        if self.doc.is_dirty() && self.opts.recovery_dir.is_some() {
            let now = ctx.input(|i| i.time);
            if now - self.last_autosave >= AUTOSAVE_SECS {
                self.last_autosave = now;
                self.autosave();
            }
            ctx.request_repaint_after(std::time::Duration::from_secs_f64(AUTOSAVE_SECS));
        }
    }

    fn preview3d(&mut self, ui: &mut Ui) {
        let faulty = &self.problems.faulty;
        let selection = &self.doc.selection;
        let paint = |id: ObjectId, kind: Kind| -> [u8; 4] {
            let c = if faulty.contains(&id) {
                Color32::from_rgb(235, 70, 70)
            } else if selection.contains(&id) {
                Color32::from_rgb(255, 160, 40)
            } else {
                base_color(kind)
            };
            c.to_srgba_unmultiplied()
        };
        let input = super::view3d::Input3 {
            doc: &self.doc,
            debug: &self.debug,
            paint: &paint,
            probe: self.probe,
            probe_result: self.probe_result.as_ref().map(|(_, r)| r),
            probe_tool: self.tool == Tool::Probe,
            wall_radii: self.debug.overlays.wall_radii,
        };
        match self.view3d.ui(ui, &input) {
            None => {}
            Some(Action3::Probe(ray, max_t)) => {
                self.probe = Some((ray, max_t));
                self.probe_flat = false;
                self.tab = Tab::Probe;
                self.show_problems = true;
            }
            Some(Action3::Select { hit, add }) => {
                match hit {
                    Some(id) if add => toggle(&mut self.doc.selection, id),
                    Some(id) => self.doc.selection = [id].into(),
                    None if add => {}
                    None => self.doc.selection.clear(),
                }
                if !add {
                    self.doc.walker_selected = false;
                }
                self.status = match hit.and_then(|id| self.doc.object(id)) {
                    Some(o) => format!("3D: picked {}", o.label()),
                    None => "3D: nothing under the pointer".into(),
                };
            }
        }
    }

    fn window_events(&mut self, ctx: &egui::Context) {
        if ctx.input(|i| i.viewport().close_requested()) && !self.allow_close {
            if self.doc.is_dirty() {
                ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
                self.dialog = Some(Dialog::ConfirmDiscard(Pending::Quit));
            } else {
                self.clear_recovery();
            }
        }
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        });
        if let Some(path) = dropped.into_iter().next() {
            if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("ron"))
            {
                self.guard(ctx, Pending::Open(Some(path)));
            } else {
                self.status = format!("{} is not a .ron level", path.display());
            }
        }
    }

    // ---- panels -----------------------------------------------------------------------------------------

    fn status_bar(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            match self.cursor_world {
                Some(p) => ui.monospace(format!("x {:>9.3} m  z {:>9.3} m", p.x, p.y)),
                None => ui.monospace("x         – m  z         – m"),
            };
            ui.separator();
            ui.label(if self.snap {
                format!("snap {} m", view2d::trim_number(self.snap_step))
            } else {
                "snap off".into()
            });
            ui.separator();
            let n = self.doc.selection.len() + usize::from(self.doc.walker_selected);
            ui.label(format!("{n} selected"));
            ui.separator();
            let errors = self
                .problems
                .list
                .iter()
                .filter(|p| p.severity == Severity::Error)
                .count();
            let warnings = self.problems.list.len() - errors;
            let text = format!(
                "{} · {}",
                count_noun(errors, "error"),
                count_noun(warnings, "warning")
            );
            let color = if errors > 0 {
                Color32::from_rgb(255, 100, 100)
            } else if warnings > 0 {
                Color32::from_rgb(230, 190, 80)
            } else {
                ui.visuals().text_color()
            };
            if ui
                .add(egui::Button::new(RichText::new(text).color(color)).frame(false))
                .clicked()
            {
                self.show_problems = !self.show_problems;
            }
            ui.separator();
            ui.label(self.tool.name());
            ui.separator();
            ui.label(&self.status);
        });
    }

    fn lower_panel(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let problems = format!("Problems ({})", self.problems.list.len());
            ui.selectable_value(&mut self.tab, Tab::Problems, problems);
            ui.selectable_value(&mut self.tab, Tab::Events, "Events");
            ui.selectable_value(&mut self.tab, Tab::Plots, "Plots");
            ui.selectable_value(&mut self.tab, Tab::Probe, "Probe");
            ui.selectable_value(&mut self.tab, Tab::Sat, "SAT");
            ui.selectable_value(&mut self.tab, Tab::Compare, "Compare");
        });
        ui.separator();
        // The tab's content gets exactly the panel's remaining room (clipped), so switching tabs or a tall plot
        // never resizes the panel and moves the view.
        let rect = ui.available_rect_before_wrap();
        ui.allocate_rect(rect, Sense::hover());
        let mut content = ui.new_child(egui::UiBuilder::new().max_rect(rect));
        content.set_clip_rect(rect.intersect(ui.clip_rect()));
        let ui = &mut content;
        match self.tab {
            Tab::Problems => self.problems_panel(ui),
            Tab::Events => {
                if let Some(id) = self.debug.events(ui) {
                    self.doc.selection = [id].into();
                    self.doc.walker_selected = false;
                }
            }
            Tab::Plots => self.debug.plots(ui),
            Tab::Probe => {
                let max_t = self.probe.map_or(0.0, |(_, t)| t);
                if self.probe.is_some() && ui.button(Command::KeepProbe.spec().name).clicked() {
                    self.run_command(&ui.ctx().clone(), Command::KeepProbe);
                }
                let result = self.probe_result.as_ref().map(|(_, r)| r);
                super::probe::probe_panel(ui, result, &mut self.probe_box, max_t);
            }
            Tab::Compare => {
                self.refresh_compare();
                let (tris, sweeps) = match &self.compare {
                    Some((_, tris, sweeps)) => (tris.as_deref(), sweeps.as_ref()),
                    None => (None, None),
                };
                super::compare::panel(ui, tris, sweeps);
            }
            Tab::Sat => {
                let selected = self.doc.selected_objects();
                let report = match selected.as_slice() {
                    [a, b] => super::probe::sat_of(a, b).map(|r| (a.label(), b.label(), r)),
                    _ => None,
                };
                super::probe::sat_panel(ui, report.as_ref());
            }
        }
    }

    fn problems_panel(&mut self, ui: &mut Ui) {
        if self.problems.list.is_empty() {
            ui.label("No problems: the level is ready to simulate and export.");
            return;
        }
        let mut clicked: Option<Problem> = None;
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show_rows(ui, 18.0, self.problems.list.len(), |ui, rows| {
                for p in &self.problems.list[rows] {
                    let color = match p.severity {
                        Severity::Error => Color32::from_rgb(255, 100, 100),
                        Severity::Warning => Color32::from_rgb(230, 190, 80),
                    };
                    let text = RichText::new(p.to_string()).color(color);
                    if ui.add(egui::Button::new(text).frame(false)).clicked() {
                        clicked = Some(p.clone());
                    }
                }
            });
        if let Some(p) = clicked {
            self.doc.walker_selected = p.field.starts_with("walker");
            self.doc.selection = p.object.into_iter().collect();
            self.frame_selection = true;
            if p.field.starts_with("walker")
                && let Some(w) = &self.doc.level().walker
            {
                let c = w.position;
                self.cam.center = c;
                self.frame_selection = false;
            }
        }
    }

    fn tool_panel(&mut self, ui: &mut Ui) {
        ui.strong("Tools");
        let mut run = None;
        for &tool in Tool::ALL {
            let spec = tool.spec();
            let key = spec.keys.first().map_or("", |k| k.logical_key.name());
            if ui
                .add_sized(
                    [130.0, 22.0],
                    egui::Button::selectable(self.tool == tool, format!("{}  ({key})", spec.name)),
                )
                .on_hover_text(spec.help)
                .clicked()
            {
                run = Some(Command::SetTool(tool));
            }
        }
        if let Some(c) = run {
            self.run_command(&ui.ctx().clone(), c);
        }
        ui.separator();
        ui.checkbox(&mut self.snap, "Snap (G)");
        ui.horizontal(|ui| {
            let l = ui.label("step");
            ui.add(
                egui::DragValue::new(&mut self.snap_step)
                    .range(1.0 / 64.0..=64.0)
                    .speed(0.05)
                    .suffix(" m"),
            )
            .labelled_by(l.id);
        });
        if self.tool == Tool::Probe {
            ui.separator();
            ui.horizontal(|ui| {
                let l = ui.label("height");
                ui.add(
                    egui::DragValue::new(&mut self.probe_height)
                        .range(-1e4..=1e4)
                        .speed(0.05)
                        .suffix(" m"),
                )
                .labelled_by(l.id);
            });
        }
        if self.tool == Tool::Box {
            ui.separator();
            ui.radio_value(&mut self.box_obb, false, "AABB");
            ui.radio_value(&mut self.box_obb, true, "OBB");
        }
        ui.separator();
        ui.strong("Objects");
        let mut clicked = None;
        let n = self.scene.entries.len();
        egui::ScrollArea::vertical()
            .id_salt("objects")
            .auto_shrink([false, false])
            .show_rows(ui, 18.0, n, |ui, rows| {
                for e in &self.scene.entries[rows] {
                    let selected = self.doc.selection.contains(&e.id);
                    if ui
                        .add(egui::Button::selectable(selected, e.label.as_str()))
                        .clicked()
                    {
                        clicked = Some(e.id);
                    }
                }
            });
        if let Some(id) = clicked {
            let shift = ui.input(|i| i.modifiers.shift);
            if shift {
                self.doc.selection.insert(id);
            } else {
                self.doc.selection = [id].into();
                self.doc.walker_selected = false;
            }
            self.frame_selection = true;
        }
    }

    fn right_panel(&mut self, ui: &mut Ui) {
        let history_height = if self.show_history { 170.0 } else { 0.0 };
        egui::ScrollArea::vertical()
            .id_salt("inspector")
            .max_height((ui.available_height() - history_height).max(100.0))
            .show(ui, |ui| {
                inspector::show(ui, &mut self.doc, &mut self.inspector);
            });
        if self.show_history {
            ui.separator();
            ui.strong("History");
            let (labels, cursor) = self.doc.history();
            let labels: Vec<String> = labels.into_iter().map(str::to_owned).collect();
            let mut go = None;
            egui::ScrollArea::vertical()
                .id_salt("history")
                .stick_to_bottom(true)
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    if ui
                        .add(egui::Button::selectable(cursor == 0, "(opened)"))
                        .clicked()
                    {
                        go = Some(0);
                    }
                    for (i, l) in labels.iter().enumerate() {
                        let text = if i < cursor {
                            RichText::new(l)
                        } else {
                            RichText::new(l).weak().italics()
                        };
                        if ui
                            .add(egui::Button::selectable(cursor == i + 1, text))
                            .clicked()
                        {
                            go = Some(i + 1);
                        }
                    }
                });
            if let Some(c) = go {
                self.run_command(&ui.ctx().clone(), Command::GoToHistory(c));
            }
        }
    }

    fn dialogs(&mut self, ctx: &egui::Context) {
        let Some(dialog) = self.dialog.take() else {
            return;
        };
        let mut keep = true;
        let modal = egui::Modal::new(egui::Id::unique("dialog")).show(ctx, |ui| {
            ui.set_max_width(520.0);
            match &dialog {
                Dialog::ConfirmDiscard(action) => {
                    ui.heading("Unsaved changes");
                    ui.label(format!("{} has changes that are not saved.", self.display_name));
                    ui.horizontal(|ui| {
                        if ui.button("Save").clicked() {
                            keep = false;
                            if self.save() {
                                self.run_pending(ctx, action.clone());
                            }
                        }
                        if ui.button("Discard changes").clicked() {
                            keep = false;
                            // The document stays until what replaces it has loaded: a failed open loses
                            // nothing.
                            self.run_pending(ctx, action.clone());
                        }
                        if ui.button("Cancel").clicked() {
                            keep = false;
                        }
                    });
                }
                Dialog::Split { walls, crossings } => {
                    ui.heading("The new walls cross existing ones");
                    ui.label(format!(
                        "{} meet {} at {}. Split them there (their ends weld), or keep the walls whole?",
                        count_noun(walls.len(), "new wall"),
                        count_noun(
                            {
                                let mut ids: Vec<_> = crossings.iter().map(|c| c.wall).collect();
                                ids.dedup();
                                ids.len()
                            },
                            "existing wall"
                        ),
                        count_noun(crossings.len(), "point")
                    ));
                    ui.horizontal(|ui| {
                        if ui.button("Split").clicked() {
                            keep = false;
                            self.add_walls(walls.clone(), crossings);
                        }
                        if ui.button("Don't split").clicked() {
                            keep = false;
                            self.add_walls(walls.clone(), &[]);
                        }
                        if ui.button("Cancel").clicked() {
                            keep = false;
                        }
                    });
                }
                Dialog::Recover { level, original, age } => {
                    ui.heading("Recover unsaved work?");
                    ui.label(format!(
                        "The editor closed with unsaved changes to {} (autosaved {age}).",
                        original
                            .as_ref()
                            .map_or_else(|| "an unsaved level".into(), |p| p.display().to_string())
                    ));
                    ui.horizontal(|ui| {
                        if ui.button("Recover").clicked() {
                            keep = false;
                            self.open_document(
                                (**level).clone(),
                                Source::Recovered(original.clone()),
                            );
                            self.status = "recovered the autosaved level: save it to keep it".into();
                        }
                        if ui.button("Discard it").clicked() {
                            keep = false;
                            self.clear_recovery();
                        }
                    });
                }
                Dialog::Message { title, text } => {
                    ui.heading(title);
                    ui.label(text);
                    if ui.button("OK").clicked() {
                        keep = false;
                    }
                }
                Dialog::Shortcuts => {
                    ui.heading("Keyboard shortcuts");
                    let height = (ctx.content_rect().height() - 160.0).max(120.0);
                    // A fixed size, so the window does not move under the pointer as the list lays out.
                    egui::ScrollArea::vertical()
                        .max_height(height)
                        .auto_shrink([false, false])
                        .show(ui, Self::shortcut_list);
                    if ui.button("Close").clicked() {
                        keep = false;
                    }
                }
                Dialog::Path { .. } => {}
            }
        });
        if let Dialog::Path { purpose, mut text } = dialog {
            let title = match purpose {
                PathPurpose::Open => "Open level",
                PathPurpose::SaveAs => "Save level as",
                PathPurpose::Export => "Export game-ready level",
                PathPurpose::ImportObj => "Import an OBJ mesh",
            };
            let mut chosen = None;
            egui::Modal::new(egui::Id::unique("path dialog")).show(ctx, |ui| {
                ui.heading(title);
                let l = ui.label(if purpose == PathPurpose::ImportObj {
                    "File path (.obj):"
                } else {
                    "File path (.ron):"
                });
                let resp = ui
                    .add(egui::TextEdit::singleline(&mut text).desired_width(400.0))
                    .labelled_by(l.id);
                let enter = resp.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
                ui.horizontal(|ui| {
                    if (ui.button("OK").clicked() || enter) && !text.trim().is_empty() {
                        chosen = Some(PathBuf::from(text.trim()));
                    }
                    if ui.button("Cancel").clicked() {
                        keep = false;
                    }
                });
            });
            if let Some(path) = chosen {
                self.use_path(purpose, &path);
                keep = false;
            }
            if keep && self.dialog.is_none() {
                self.dialog = Some(Dialog::Path { purpose, text });
            }
            return;
        }
        if modal.should_close() && !matches!(dialog, Dialog::Recover { .. } | Dialog::Split { .. })
        {
            keep = false;
        }
        if keep && self.dialog.is_none() {
            self.dialog = Some(dialog);
        }
    }

    // ---- the view -----------------------------------------------------------------------------------------

    fn view(&mut self, ui: &mut Ui) {
        let (rect, resp) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        self.view_rect = rect;
        if !self.framed && rect.width() > 10.0 {
            let b = self.level_bounds();
            if b.is_some() {
                self.cam.frame(rect, b);
            } else {
                self.cam = Camera::default();
            }
            self.framed = true;
        }
        if self.frame_selection {
            self.frame_selection = false;
            let b = self.selection_bounds();
            self.cam.frame(rect, b);
        }
        let (shift, space, hover) = ui.input(|i| {
            (
                i.modifiers.shift,
                i.key_down(Key::Space),
                i.pointer.hover_pos(),
            )
        });
        let hover = hover.filter(|p| rect.contains(*p));
        self.cursor_world = hover.map(|p| self.cam.world_from_screen(rect, p));

        // Zoom about the pointer; pan with the middle or right button, or Space + drag.
        if let Some(p) = hover {
            let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
            let factor = zoom * (scroll * 0.002).exp();
            if factor != 1.0 {
                self.cam.zoom_about(rect, p, factor);
            }
        }
        let panning = resp.dragged_by(egui::PointerButton::Middle)
            || resp.dragged_by(egui::PointerButton::Secondary)
            || (space && resp.dragged_by(egui::PointerButton::Primary));
        if panning {
            self.space_panned |= space;
            self.cam.pan_by(resp.drag_delta());
            if resp.drag_started() && self.gesture.is_none() {
                self.gesture = Some(Gesture::Pan);
            }
        } else {
            self.pointer(ui, &resp, rect, shift);
        }
        if resp.drag_stopped() && matches!(self.gesture, Some(Gesture::Pan)) {
            self.gesture = None;
        }
        self.paint(ui, rect, hover, shift);
    }

    fn pointer(&mut self, ui: &Ui, resp: &egui::Response, rect: Rect, shift: bool) {
        let ctrl = ui.input(|i| i.modifiers.command);
        let press = resp.interact_pointer_pos();
        let cam = self.cam;
        let world = move |p: Pos2| cam.world_from_screen(rect, p);
        if resp.clicked_by(egui::PointerButton::Secondary) && self.tool == Tool::Wall {
            self.finish_chain();
            return;
        }
        match self.tool {
            Tool::Select => {
                if resp.drag_started_by(egui::PointerButton::Primary)
                    && let Some(p) = ui.input(|i| i.pointer.press_origin()).or(press)
                {
                    let w = world(p);
                    if let Some(center) = self.rotation_handle_hit(rect, p) {
                        self.gesture = Some(Gesture::Rotate {
                            preview: self.doc.begin_preview(),
                            center,
                        });
                    } else {
                        match self.pick(w) {
                            Some(hit) if !shift && !ctrl => {
                                let selected = match hit {
                                    Some(id) => self.doc.selection.contains(&id),
                                    None => self.doc.walker_selected,
                                };
                                if !selected {
                                    self.doc.selection = hit.into_iter().collect();
                                    self.doc.walker_selected = hit.is_none();
                                }
                                self.gesture = Some(Gesture::Move {
                                    preview: self.doc.begin_preview(),
                                    grab: w,
                                });
                            }
                            _ => self.gesture = Some(Gesture::BoxSelect { start: p }),
                        }
                    }
                }
                if let Some(now) = resp.interact_pointer_pos() {
                    let w = world(now);
                    match &self.gesture {
                        Some(Gesture::Move { preview, grab }) => {
                            let d = self.snapped(w - *grab, shift);
                            let objects = preview
                                .originals
                                .iter()
                                .cloned()
                                .map(|mut o| {
                                    o.translate(d);
                                    o
                                })
                                .collect();
                            let header = self.doc.walker_selected.then(|| {
                                let mut h = preview.header.clone();
                                if let Some(wk) = &mut h.walker {
                                    wk.position += d;
                                }
                                h
                            });
                            self.doc.preview(objects, header);
                        }
                        Some(Gesture::Rotate { preview, center }) => {
                            let v = w - *center;
                            let mut yaw = (-v.y).atan2(v.x).to_degrees();
                            if !shift {
                                yaw = (yaw / 15.0).round() * 15.0;
                            }
                            let objects = preview
                                .originals
                                .iter()
                                .cloned()
                                .map(|mut o| {
                                    if let Object::Obb(b) = &mut o {
                                        b.rotation_deg.x = yaw;
                                    }
                                    o
                                })
                                .collect();
                            self.doc.preview(objects, None);
                        }
                        _ => {}
                    }
                }
                if resp.drag_stopped() {
                    match self.gesture.take() {
                        Some(Gesture::Move { preview, .. }) => {
                            let n = preview.originals.len() + usize::from(self.doc.walker_selected);
                            let label = format!("Move {}", count_noun(n, "object"));
                            if self.doc.commit_preview(preview, label.clone()) {
                                self.status = label.to_lowercase();
                            }
                        }
                        Some(Gesture::Rotate { preview, .. }) => {
                            self.doc.commit_preview(preview, "Rotate box");
                        }
                        Some(Gesture::BoxSelect { start }) => {
                            if let Some(end) = resp
                                .interact_pointer_pos()
                                .or(ui.input(|i| i.pointer.latest_pos()))
                            {
                                self.box_select(world(start), world(end), shift, ctrl);
                            }
                        }
                        other => self.gesture = other,
                    }
                }
                if resp.clicked() {
                    let hit = press.map(world).and_then(|w| self.pick(w));
                    let walker = hit == Some(None);
                    match (hit.flatten(), shift, ctrl) {
                        (Some(id), true, _) => toggle(&mut self.doc.selection, id),
                        (Some(id), false, true) => {
                            self.doc.selection.remove(&id);
                        }
                        (Some(id), false, false) => {
                            self.doc.selection = [id].into();
                            self.doc.walker_selected = false;
                        }
                        (None, _, _) if walker => {
                            if !shift {
                                self.doc.selection.clear();
                            }
                            self.doc.walker_selected = !ctrl;
                        }
                        (None, false, false) => {
                            self.doc.selection.clear();
                            self.doc.walker_selected = false;
                        }
                        _ => {}
                    }
                }
            }
            Tool::Wall => {
                if resp.double_clicked() {
                    self.finish_chain();
                } else if resp.clicked()
                    && let Some(p) = press
                {
                    let (v, _) = self.snap_vertex(world(p), shift);
                    if self.chain.last() != Some(&v) {
                        self.chain.push(v);
                    }
                }
            }
            Tool::Triangle => {
                if resp.clicked()
                    && let Some(p) = press
                {
                    let v = self.snapped(world(p), shift);
                    if self.chain.last() != Some(&v) {
                        self.chain.push(v);
                    }
                    if self.chain.len() == 3 {
                        let pts = std::mem::take(&mut self.chain);
                        let at = |v: Vec2| Vec3::new(v.x, 0.0, v.y);
                        self.add_object(
                            "Add triangle",
                            Object::Triangle(TriangleObject {
                                id: ObjectId(0),
                                name: None,
                                a: at(pts[0]),
                                b: at(pts[1]),
                                c: at(pts[2]),
                            }),
                        );
                    }
                }
            }
            Tool::Probe => {
                if resp.drag_started_by(egui::PointerButton::Primary)
                    && let Some(p) = ui.input(|i| i.pointer.press_origin()).or(press)
                {
                    self.gesture = Some(Gesture::Place {
                        start: self.snapped(world(p), shift),
                    });
                }
                if let (Some(Gesture::Place { start }), Some(now)) =
                    (&self.gesture, resp.interact_pointer_pos())
                {
                    let end = self.snapped(world(now), shift);
                    if end != *start {
                        self.probe = super::probe::probe_ray(*start, end, self.probe_height);
                        self.probe_flat = true;
                    }
                }
                if resp.drag_stopped() {
                    self.gesture = None;
                    // Show the results once the ray is down (not mid-drag: the panels must not move).
                    self.tab = Tab::Probe;
                    self.show_problems = true;
                }
            }
            Tool::Ball | Tool::Plane | Tool::Cylinder | Tool::Box | Tool::Walker => {
                if resp.drag_started_by(egui::PointerButton::Primary)
                    && let Some(p) = ui.input(|i| i.pointer.press_origin()).or(press)
                {
                    self.gesture = Some(Gesture::Place {
                        start: self.snapped(world(p), shift),
                    });
                }
                if resp.drag_stopped()
                    && let Some(Gesture::Place { start }) = self.gesture.take()
                {
                    let end = resp
                        .interact_pointer_pos()
                        .or(ui.input(|i| i.pointer.latest_pos()))
                        .map_or(start, |p| self.snapped(world(p), shift));
                    self.place(start, Some(end));
                } else if resp.clicked()
                    && let Some(p) = press
                {
                    let at = self.snapped(world(p), shift);
                    self.place(at, None);
                }
            }
        }
    }

    /// Create the placing tool's object from a click at `start` or a drag from `start` to `end`.
    fn place(&mut self, start: Vec2, end: Option<Vec2>) {
        let drag = end.filter(|e| e.distance(start) > 1e-4);
        let h = self.doc.level().default_wall_height;
        match self.tool {
            Tool::Ball => {
                let v = drag.map_or(Vec2::ZERO, |e| e - start);
                let radius = 0.5;
                self.add_object(
                    "Add ball",
                    Object::Ball(BallObject {
                        id: ObjectId(0),
                        name: None,
                        center: Vec3::new(start.x, radius, start.y),
                        velocity: Vec3::new(v.x, 0.0, v.y),
                        radius,
                        mass: 1.0,
                        restitution: 0.9,
                    }),
                );
            }
            Tool::Plane => {
                let (normal, d) = match drag {
                    Some(e) => {
                        let dir = (e - start).normalize();
                        let n = Vec3::new(-dir.y, 0.0, dir.x);
                        (n, n.x * start.x + n.z * start.y)
                    }
                    None => (Vec3::Y, 0.0),
                };
                self.add_object(
                    "Add plane",
                    Object::Plane(PlaneObject {
                        id: ObjectId(0),
                        name: None,
                        normal,
                        d,
                    }),
                );
            }
            Tool::Cylinder => {
                let r = drag.map_or(0.5, |e| e.distance(start));
                self.add_object(
                    "Add cylinder",
                    Object::Cylinder(CylinderObject {
                        id: ObjectId(0),
                        name: None,
                        a: Vec3::new(start.x, 0.0, start.y),
                        b: Vec3::new(start.x, h, start.y),
                        radius: r,
                    }),
                );
            }
            Tool::Box => {
                let e = drag.unwrap_or(start + Vec2::ONE);
                let (lo, hi) = (start.min(e), start.max(e));
                let (lo, hi) = (
                    Vec2::new(lo.x, lo.y),
                    Vec2::new(hi.x.max(lo.x + 0.01), hi.y.max(lo.y + 0.01)),
                );
                let o = if self.box_obb {
                    let c = (lo + hi) * 0.5;
                    let half = (hi - lo) * 0.5;
                    Object::Obb(ObbObject {
                        id: ObjectId(0),
                        name: None,
                        center: Vec3::new(c.x, 0.5, c.y),
                        half_extents: Vec3::new(half.x, 0.5, half.y),
                        rotation_deg: Vec3::ZERO,
                    })
                } else {
                    Object::Aabb(AabbObject {
                        id: ObjectId(0),
                        name: None,
                        min: Vec3::new(lo.x, 0.0, lo.y),
                        max: Vec3::new(hi.x, 1.0, hi.y),
                    })
                };
                self.add_object("Add box", o);
            }
            Tool::Walker => {
                let mut h = Header::of(self.doc.level());
                let mut w = h.walker.clone().unwrap_or_default();
                w.position = start;
                if let Some(e) = drag {
                    let d = e - start;
                    // Facing 0 looks down -z, 90 down -x.
                    w.facing_deg = (-d.x).atan2(-d.y).to_degrees();
                }
                h.walker = Some(w);
                self.doc.apply(
                    "Place walker",
                    Edit {
                        header: Some(h),
                        ..Edit::default()
                    },
                );
                self.doc.selection.clear();
                self.doc.walker_selected = true;
                self.status = "placed the walker".into();
            }
            Tool::Select | Tool::Wall | Tool::Triangle | Tool::Probe => {}
        }
    }

    fn box_select(&mut self, a: Vec2, b: Vec2, add: bool, remove: bool) {
        let (lo, hi) = (a.min(b), a.max(b));
        let inside: Vec<ObjectId> = self
            .scene
            .entries
            .iter()
            .filter(|e| {
                e.bounds
                    .is_some_and(|(l, h)| l.cmpge(lo).all() && h.cmple(hi).all())
            })
            .map(|e| e.id)
            .collect();
        let walker_inside = self
            .doc
            .level()
            .walker
            .as_ref()
            .is_some_and(|w| w.position.cmpge(lo).all() && w.position.cmple(hi).all());
        if remove {
            for id in &inside {
                self.doc.selection.remove(id);
            }
            self.doc.walker_selected &= !walker_inside;
        } else {
            if !add {
                self.doc.selection.clear();
                self.doc.walker_selected = false;
            }
            self.doc.selection.extend(inside);
            self.doc.walker_selected |= walker_inside;
        }
        self.status = format!(
            "{} selected",
            count_noun(self.doc.selection.len(), "object")
        );
    }

    /// The rotation handle of a single selected OBB: its screen position and the box's centre.
    fn rotation_handle(&self, rect: Rect) -> Option<(Pos2, Vec2, Pos2)> {
        if self.doc.selection.len() != 1 {
            return None;
        }
        let id = *self.doc.selection.first()?;
        let Some(Object::Obb(b)) = self.doc.object(id) else {
            return None;
        };
        let c = Vec2::new(b.center.x, b.center.z);
        let yaw = b.rotation_deg.x.to_radians();
        let reach = Vec2::new(b.half_extents.x, b.half_extents.z).length() + 24.0 / self.cam.scale;
        // Yaw turns +x toward -z seen from above (right-handed about +y).
        let tip = c + Vec2::new(yaw.cos(), -yaw.sin()) * reach;
        Some((
            self.cam.screen_from_world(rect, tip),
            c,
            self.cam.screen_from_world(rect, c),
        ))
    }

    fn rotation_handle_hit(&self, rect: Rect, p: Pos2) -> Option<Vec2> {
        let (h, c, _) = self.rotation_handle(rect)?;
        (h.distance(p) <= 8.0).then_some(c)
    }

    fn paint(&mut self, ui: &Ui, rect: Rect, hover: Option<Pos2>, shift: bool) {
        let painter = ui.painter_at(rect);
        let dark = ui.visuals().dark_mode;
        painter.rect_filled(
            rect,
            0.0,
            if dark {
                Color32::from_gray(24)
            } else {
                Color32::from_gray(245)
            },
        );
        view2d::draw_grid(&painter, rect, &self.cam, dark);

        let (vis_lo, vis_hi) = self.cam.visible(rect);
        let hovered = match (&self.gesture, self.tool, hover) {
            (None, Tool::Select, Some(p)) => self.pick(self.cam.world_from_screen(rect, p)),
            _ => None,
        };
        let mut drawer = Drawer {
            rect,
            cam: &self.cam,
            fills: Batch::default(),
            lines: Batch::default(),
            wall_radii: self.debug.overlays.wall_radii,
        };
        // Selected objects last, so they draw on top.
        let mut later = Vec::new();
        let simulated = self.debug.active();
        for (i, e) in self.scene.entries.iter().enumerate() {
            if simulated && e.kind == Kind::Ball {
                continue;
            }
            if let Some((lo, hi)) = e.bounds
                && (hi.x < vis_lo.x || hi.y < vis_lo.y || lo.x > vis_hi.x || lo.y > vis_hi.y)
            {
                continue;
            }
            let look = if self.doc.selection.contains(&e.id) {
                later.push(i);
                continue;
            } else if hovered == Some(Some(e.id)) {
                Look::Hovered
            } else if self.problems.faulty.contains(&e.id) {
                Look::Faulty
            } else {
                Look::Normal
            };
            drawer.draw(&e.fp, base_color(e.kind), look, e.extras);
        }
        for i in later {
            let e = &self.scene.entries[i];
            drawer.draw(&e.fp, base_color(e.kind), Look::Selected, e.extras);
        }
        let Drawer {
            fills, mut lines, ..
        } = drawer;
        if let Some(w) = &self.doc.level().walker {
            let look = if self.doc.walker_selected {
                Look::Selected
            } else if hovered == Some(None) {
                Look::Hovered
            } else if self.problems.walker_faulty {
                Look::Faulty
            } else {
                Look::Normal
            };
            view2d::draw_walker(
                &mut lines,
                rect,
                &self.cam,
                w.position,
                w.facing_deg,
                w.radius,
                look,
            );
        }
        if let Some((ray, max_t)) = self.probe {
            let result = self.probe_result.as_ref().map(|(_, r)| r);
            let end = ray.at(max_t);
            let flat = (
                Vec2::new(ray.origin.x, ray.origin.z),
                Vec2::new(end.x, end.z),
            );
            super::probe::paint(&mut lines, rect, &self.cam, flat, result, self.probe_box);
        }
        if self.tab == Tab::Compare
            && self.show_problems
            && let Some((_, tris, sweeps)) = &self.compare
        {
            let red = Color32::from_rgb(255, 60, 60);
            let cross = |lines: &mut Batch, p: Vec3| {
                let c = self.cam.screen_from_world(rect, Vec2::new(p.x, p.z));
                let d = egui::vec2(7.0, 7.0);
                lines.line(c - d, c + d, 2.5, red);
                lines.line(
                    c + egui::vec2(-7.0, 7.0),
                    c + egui::vec2(7.0, -7.0),
                    2.5,
                    red,
                );
            };
            for t in tris.iter().flatten().filter(|t| t.disagrees()) {
                for p in [t.moller_trumbore, t.walk_test, t.plane_point.map(|p| p.0)]
                    .into_iter()
                    .flatten()
                {
                    cross(&mut lines, p);
                }
            }
            for sw in sweeps.iter().flat_map(|s| &s.1) {
                cross(&mut lines, sw.center);
            }
        }
        let selection = &self.doc.selection;
        self.debug
            .paint(&mut lines, rect, &self.cam, &|id| selection.contains(&id));
        painter.add(fills.finish());
        painter.add(lines.finish());

        // Tool overlays.
        let accent = Color32::from_rgb(255, 160, 40);
        if let Some((h, _, c)) = self.rotation_handle(rect) {
            painter.line_segment([c, h], egui::Stroke::new(1.0, accent));
            painter.circle_filled(h, 6.0, accent);
        }
        let cursor = hover.map(|p| self.cam.world_from_screen(rect, p));
        match self.tool {
            Tool::Wall => {
                let snap = cursor.map(|w| self.snap_vertex(w, shift));
                let mut pts: Vec<Pos2> = self
                    .chain
                    .iter()
                    .map(|p| self.cam.screen_from_world(rect, *p))
                    .collect();
                if let Some((v, _)) = snap
                    && !self.chain.is_empty()
                {
                    pts.push(self.cam.screen_from_world(rect, v));
                }
                let mut b = Batch::default();
                b.polyline(&pts, false, 2.0, accent);
                for p in &pts {
                    b.disc(*p, 3.5, accent);
                }
                if let Some((v, welded)) = snap {
                    let s = self.cam.screen_from_world(rect, v);
                    if welded {
                        b.circle(s, 8.0, 2.0, Color32::from_rgb(80, 220, 120));
                    } else {
                        b.circle(s, 4.0, 1.5, accent);
                    }
                }
                painter.add(b.finish());
            }
            Tool::Triangle => {
                let mut pts: Vec<Pos2> = self
                    .chain
                    .iter()
                    .map(|p| self.cam.screen_from_world(rect, *p))
                    .collect();
                if let Some(c) = cursor {
                    pts.push(self.cam.screen_from_world(rect, self.snapped(c, shift)));
                }
                let mut b = Batch::default();
                b.polyline(&pts, pts.len() == 3, 2.0, accent);
                painter.add(b.finish());
            }
            _ => {}
        }
        if let (Some(Gesture::Place { start }), Some(c)) = (&self.gesture, cursor)
            && self.tool != Tool::Probe
        {
            let a = self.cam.screen_from_world(rect, *start);
            let e = self.cam.screen_from_world(rect, self.snapped(c, shift));
            let stroke = egui::Stroke::new(1.5, accent);
            match self.tool {
                Tool::Box => {
                    painter.rect_stroke(
                        Rect::from_two_pos(a, e),
                        0.0,
                        stroke,
                        egui::StrokeKind::Inside,
                    );
                }
                Tool::Cylinder => {
                    painter.circle_stroke(a, a.distance(e), stroke);
                }
                _ => {
                    painter.arrow(a, e - a, stroke);
                }
            }
        }
        if let (Some(Gesture::BoxSelect { start }), Some(h)) = (&self.gesture, hover) {
            view2d::selection_rect(&painter, *start, h);
        }
        if self.scene.entries.is_empty() && self.doc.level().walker.is_none() {
            painter.text(
                rect.center() - egui::vec2(0.0, 40.0),
                egui::Align2::CENTER_CENTER,
                "An empty level. Draw walls with W, place balls with B — F1 lists every shortcut.",
                egui::FontId::proportional(15.0),
                ui.visuals().weak_text_color(),
            );
        }
    }
}

/// Add `id` to the set, or remove it when it is there (Shift+click).
fn toggle(set: &mut std::collections::BTreeSet<ObjectId>, id: ObjectId) {
    if !set.remove(&id) {
        set.insert(id);
    }
}

fn base_color(kind: Kind) -> Color32 {
    match kind {
        Kind::Wall => palette::WALL,
        Kind::Triangle => palette::TRIANGLE,
        Kind::Ball => palette::BALL,
        Kind::Plane => palette::PLANE,
        Kind::Cylinder => palette::CYLINDER,
        Kind::Aabb | Kind::Obb => palette::BOX,
        Kind::Mesh => palette::MESH,
        Kind::Probe => palette::PROBE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_inlines_and_refuses_errors() {
        let mut level = Level::from_ron_str(EMBEDDED_LEVEL).unwrap();
        let ok = export_level(&level).unwrap();
        assert!(ok.probes.is_empty());
        level.walls[0].radius = -1.0;
        let errors = export_level(&level).unwrap_err();
        assert_eq!(errors[0].field, "walls[0].radius");
    }

    #[test]
    fn default_level_starts_clean() {
        let app = EditorApp::embedded(EditorOptions {
            recovery_dir: None,
            native_dialogs: false,
        });
        assert_eq!(app.title(), "Collidoscope — house.ron (built-in)");
        assert_eq!(app.doc.level().walls.len(), 9);
    }
}
