//! The editor window: menus, tool palette, top-down view, inspector, history, problems and status bar, plus
//! files (open, save, export, recent, drag and drop, autosave and recovery).

mod autosave;
mod character;
mod command;
mod derived;
mod dialogs;
mod files;
mod greybox;
mod menus;
mod nav;
mod panels;
mod preview;
mod preview_lines;
mod recording;
mod view;

pub use crate::editor::command::{Command, Dir, Spec};
pub use crate::editor::reach::floor_name;
pub use crate::editor::tools::Tool;
pub use derived::LiveWalker;
pub(crate) use derived::Problems;
pub(crate) use dialogs::Dialog;
pub use files::export_level;
pub(crate) use files::{PathPurpose, Pending, Source};
pub use nav::Nav3;
pub use preview::{Action3, Preview3};
pub use preview_lines::{Input3, Reach3, move_lines};

use std::path::{Path, PathBuf};

use egui::{Pos2, Rect, Ui};
use glam::Vec2;

use crate::editor::analysis::ProbeState;
use crate::editor::debugger::panel::{DebugPanel, Sync, Tab};
use crate::editor::document::{DocKey, Document};
use crate::editor::inspector::InspectorState;
use crate::editor::tools::Tools;
use crate::editor::view2d::TopDown;
use crate::level::{Level, Problem};

/// The level the editor opens when no file is given, built into the binary.
pub const EMBEDDED_LEVEL: &str = include_str!("../../../levels/house.ron");
/// Its display name.
pub const EMBEDDED_NAME: &str = "house.ron (built-in)";
/// The app id eframe stores settings (recent files) under.
pub const APP_ID: &str = "Collidoscope";
/// The lower panel's default height, points.
pub(crate) const LOWER_PANEL_PX: f32 = 200.0;
/// Seconds between autosaves of a changed level to the recovery file.
pub const AUTOSAVE_SECS: f64 = 30.0;
/// Most recent files remembered.
pub(crate) const MAX_RECENT: usize = 10;

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

/// The editor application: it composes the document, the features' own states and the two views.
pub struct EditorApp {
    /// The level being edited.
    pub doc: Document,
    /// The last message for the status bar.
    pub status: String,
    /// The editing session around the document: its name, recent files, options, autosave, the dialog.
    pub session: Session,
    /// The lower and side panels: which show, the lower panel's tab.
    pub panels: Panels,
    /// The tools: the active one, snapping, the palette's choices, the chain and gesture in progress.
    pub tools: Tools,
    /// The top-down view: its camera, framing, pointer and drawn scene.
    pub view2d: TopDown,
    /// The problems of the level (and of its reachability map), kept per document key.
    pub(crate) problems: Problems,
    /// The inspector's state (typing buffers, refusals, a pending pick in the view).
    pub inspector: InspectorState,
    /// The Entity types tab.
    pub entity_types: crate::editor::entity_types::EntityTypesState,
    /// The step debugger.
    pub debug: DebugPanel,
    /// The probe ray, its hits and the Compare tab's rows.
    pub probe: ProbeState,
    /// A game's recording, opened from a file or received live.
    pub recording: Option<crate::editor::recording::RecordingSession>,
    /// The live link: its listener while listening for a game, and the port it listens on.
    pub live: crate::editor::recording::live::LiveLink,
    /// The level's runtime scene (what a game queries), shared by the probe, walking, picking in 3D and the
    /// recording's re-ask; built once per document revision.
    pub(crate) level_scene: crate::editor::greybox::scene::LiveScene,
    /// The 3D preview: its view, the character walked in it and the walker's comparison.
    pub view3d: Preview3,
    /// The reachability overlay: the map (built off the UI thread), the Reach tool's spot.
    pub reach: crate::editor::reach::ReachOverlay,
    /// The overlay's cells in the top-down view as last drawn.
    pub(crate) reach_paint: crate::editor::reach::paint::ReachPaintCache,
    /// Greybox sectors: the storey filter and the sectors' edges as drawn.
    pub greybox: crate::editor::greybox::Greybox,
    /// The navigation overlay: the map (built and updated off the UI thread), the agents, the path and the
    /// agent walking it.
    pub nav: crate::editor::nav::Nav,
}

/// The editing session around the document: what the window shows of it, the files around it, autosave
/// and the modal dialog.
pub struct Session {
    /// The document's name in the title bar.
    pub(crate) display_name: String,
    /// Recently opened or saved files, newest first.
    pub recent: Vec<PathBuf>,
    /// The options the editor was started with.
    pub(crate) opts: EditorOptions,
    /// When the recovery file was last written (egui time, seconds).
    pub(crate) last_autosave: f64,
    /// The document key the recovery file holds.
    pub(crate) autosaved: Option<DocKey>,
    /// What the editor copied last (level RON).
    pub(crate) clipboard: Option<String>,
    /// The window may close (unsaved changes were saved or discarded).
    pub(crate) allow_close: bool,
    /// The title last sent to the window.
    pub(crate) last_title: String,
    /// The modal dialog on screen, if any.
    pub(crate) dialog: Option<Dialog>,
}

impl Session {
    fn new(opts: EditorOptions) -> Self {
        Self {
            display_name: String::new(),
            recent: Vec::new(),
            opts,
            last_autosave: 0.0,
            autosaved: None,
            clipboard: None,
            allow_close: false,
            last_title: String::new(),
            dialog: None,
        }
    }
}

/// Which panels show, and the lower panel's tab.
#[derive(Debug)]
pub struct Panels {
    /// The history under the inspector.
    pub(crate) show_history: bool,
    /// The lower panel (problems, events, plots, probe, …).
    pub(crate) show_problems: bool,
    /// The lower panel is collapsed to its tab row.
    pub lower_collapsed: bool,
    /// The lower panel's tab.
    pub tab: Tab,
    /// The tool whose options the tool palette last brought into view, and their height in points: another
    /// tool, or its options grown or shrunk (another builder), scrolls them in (in a short window they lie
    /// below the tool buttons).
    pub(crate) options_in_view: Option<(crate::editor::command::Tool, i32)>,
}

impl Default for Panels {
    fn default() -> Self {
        Self {
            show_history: true,
            show_problems: true,
            lower_collapsed: false,
            tab: Tab::Problems,
            options_in_view: None,
        }
    }
}

impl EditorApp {
    /// An editor on `level` (from `path` when it came from a file).
    #[must_use]
    pub fn new(level: Level, path: Option<PathBuf>, opts: EditorOptions) -> Self {
        let mut app = Self::blank(opts);
        app.open_document(level, Source::Start(path));
        if let Some(s) = app.session.offer_recovery() {
            app.status = s;
        }
        app
    }

    /// Keep the navigation map in step with the document while the overlay is on (off, the last map is
    /// kept), and step the walking agent.
    fn refresh_nav(&mut self, ctx: &egui::Context) {
        let build = self.nav.overlay.on && self.tools.gesture.is_none();
        if let Some(s) = self
            .nav
            .overlay
            .refresh(ctx, &self.doc, self.level_scene.as_ref(), build)
        {
            self.status = s;
        }
        if self.nav.overlay.walker.is_some() {
            let scene = self.level_scene();
            let gravity = self.doc.level().simulation.gravity;
            if let Some(s) = self.nav.overlay.walk_frame(ctx, &scene, gravity) {
                self.status = s;
            }
        }
    }

    /// The feet for a Shift+click at plan point `w`: on the floor of the room under it (or what stands on that
    /// floor), else on the highest surface under it (`skin` over it; see `nav::spot::click_spot`).
    pub(crate) fn nav_spot(&mut self, w: glam::Vec2) -> glam::Vec3 {
        let scene = self.level_scene();
        let level = self.doc.level();
        let skin = crate::editor::document::character::effective(level).skin;
        let storey = self.greybox.storey.range();
        crate::editor::nav::spot::click_spot(level, &scene, w, storey, skin)
    }

    /// Once a frame: take what the live link received, and ask more recorded queries of the current level.
    fn refresh_recording(&mut self, ctx: &egui::Context) {
        if let Some(l) = &mut self.live.listener {
            let (status, connected) =
                crate::editor::recording::live::poll_live(l, &mut self.recording);
            if connected {
                self.panels.tab = Tab::Recording;
            }
            if let Some(s) = status {
                self.status = s;
            }
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
        }
        if self.recording.is_some() {
            let scene = self.level_scene();
            let key = self.doc.key();
            if let Some(s) = &mut self.recording
                && !s.reask_frame(scene, key)
            {
                ctx.request_repaint();
            }
        }
    }

    /// The level's runtime scene at this revision (built once per revision, shared).
    pub(crate) fn level_scene(&mut self) -> std::sync::Arc<crate::scene::Scene> {
        self.level_scene.at(&self.doc)
    }

    /// The walker as it walks in the 3D preview's Walker mode (`None` in the other modes or with the
    /// preview closed): what the top-down view draws over the level.
    #[must_use]
    pub fn live_walker(&self) -> Option<LiveWalker> {
        self.view3d.live_walker(self.doc.level())
    }

    /// Write the recovery file now when the level has unsaved changes not yet autosaved.
    pub fn autosave(&mut self) {
        if let Some(s) = self.session.autosave(&self.doc) {
            self.status = s;
        }
    }

    /// The workings of the recording's selected query when it is a character move (see
    /// [`crate::editor::recording::RecordingSession::move_marks`]).
    #[must_use]
    pub fn recording_move_marks(&self) -> Option<crate::editor::character::MoveMarks> {
        self.recording.as_ref()?.move_marks()
    }

    /// The character's selected move in the Character tab (while walking).
    #[must_use]
    pub fn selected_character_move(&self) -> Option<&crate::editor::character::MoveEntry> {
        self.view3d.selected_character_move()
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
        if let Some(s) = app.session.offer_recovery() {
            app.status = s;
        }
        app
    }

    /// The editor before its first document is opened.
    fn blank(opts: EditorOptions) -> Self {
        Self {
            doc: Document::new(Level::default(), None),
            status: String::new(),
            session: Session::new(opts),
            panels: Panels::default(),
            tools: Tools::default(),
            view2d: TopDown::default(),
            problems: Problems::default(),
            inspector: InspectorState::default(),
            entity_types: Default::default(),
            debug: DebugPanel::default(),
            probe: ProbeState::default(),
            recording: None,
            live: Default::default(),
            level_scene: Default::default(),
            view3d: Preview3::new(),
            reach: Default::default(),
            reach_paint: Default::default(),
            greybox: Default::default(),
            nav: Default::default(),
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
                app.session.dialog = Some(Dialog::Message {
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
            app.session.recent = eframe::get_value(storage, "recent").unwrap_or_default();
        }
        if let Some(f) = file
            && app.doc.path.is_some()
        {
            app.session.remember(f);
        }
        app
    }

    /// Draw the 3D preview with `rs` (eframe's wgpu renderer, or a test's), and the top-down view's level
    /// and overlay meshes from GPU buffers (the level's uploaded once per build) instead of through egui's
    /// tessellator every frame.
    pub fn enable_3d(&mut self, rs: &eframe::egui_wgpu::RenderState) {
        crate::editor::view3d::render::install(rs);
        crate::editor::view2d::gpu::install(rs);
        self.view3d.gpu = true;
    }

    /// The window title: `Collidoscope — <file name>[*]`.
    #[must_use]
    pub fn title(&self) -> String {
        let star = if self.doc.is_dirty() { "*" } else { "" };
        format!("Collidoscope — {}{star}", self.session.display_name)
    }

    /// The current problems, errors first.
    #[must_use]
    pub fn problems(&self) -> &[Problem] {
        &self.problems.list
    }

    // ---- files ------------------------------------------------------------------------------------------

    // ---- editing commands -------------------------------------------------------------------------------

    // ---- derived data -----------------------------------------------------------------------------------

    /// Screen position of world point `(x, z)` in the top-down view as last drawn.
    #[must_use]
    pub fn screen_from_world(&self, p: Vec2) -> Pos2 {
        self.view2d.cam.screen_from_world(self.view2d.rect, p)
    }

    /// The top-down view's rectangle as last drawn.
    #[must_use]
    pub fn view_rect(&self) -> Rect {
        self.view2d.rect
    }

    /// The heights the top-down view shades meshes and level triangles by (its legend), `None` when the
    /// level has neither.
    #[must_use]
    pub fn height_range(&self) -> Option<crate::editor::view2d::relief::HeightRange> {
        self.view2d.scene.relief.range
    }

    /// The height of the highest mesh or level triangle surface over floor point `(x, z)`, as the top-down
    /// view's legend shows it under the pointer.
    #[must_use]
    pub fn surface_height(&self, p: Vec2) -> Option<f32> {
        self.view2d.scene.surface_height(p)
    }

    /// Frame everything (Home).
    pub fn frame_all(&mut self) {
        self.view2d.framed = false;
    }

    // ---- wall chains ------------------------------------------------------------------------------------
}

// ---- the frame ----------------------------------------------------------------------------------------------

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.frame(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, "recent", &self.session.recent);
        self.autosave();
    }
}

impl EditorApp {
    /// One frame of the whole editor in `ui` (what [`eframe::App::ui`] calls; tests call it directly).
    pub fn frame(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        match self.debug.sync(&self.doc, self.tools.gesture.is_some()) {
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
        self.view2d.scene.refresh(&self.doc);
        self.refresh_reach(&ctx);
        self.refresh_nav(&ctx);
        let dragging = self.tools.gesture.is_some();
        self.problems
            .refresh(&ctx, &self.doc, &self.reach, dragging);
        self.probe.refresh(&self.doc, &mut self.level_scene);
        self.refresh_recording(&ctx);
        self.window_events(&ctx);
        if self.session.dialog.is_none() {
            self.shortcuts(&ctx);
        }
        let title = self.title();
        if title != self.session.last_title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.session.last_title = title;
        }

        let menu = egui::Panel::top("menu").show(ui, |ui| {
            let cx = menus::MenuContext {
                recent: &self.session.recent,
                reach: &self.reach,
                checked: &|c| self.is_checked(c),
                can_run: &|c| self.can_run(c),
            };
            menus::menu_bar(ui, &cx)
        });
        if let Some(c) = menu.inner {
            self.run_command(&ctx, c);
        }
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui));
        let transport = egui::Panel::bottom("debugger")
            .show(ui, |ui| menus::debugger_bar(ui, &mut self.debug, &self.doc));
        if let Some(c) = transport.inner {
            self.run_command(&ctx, c);
        }
        if self.panels.show_problems && self.panels.lower_collapsed {
            egui::Panel::bottom("lower tabs")
                .resizable(false)
                .show(ui, |ui| self.lower_tabs(ui));
        } else if self.panels.show_problems {
            // Resizable by its top edge; short by default so the top-down view gets the room.
            egui::Panel::bottom("problems")
                .resizable(true)
                .default_size(LOWER_PANEL_PX)
                .min_size(90.0)
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
        // An edit refused this frame (a sector pasted or moved onto a room of its storey) says why.
        if let Some(why) = self.doc.take_refused() {
            self.status = why;
            ctx.request_repaint();
        }

        // Autosave needs a frame now and then even when nothing happens.
        if self.doc.is_dirty() && self.session.opts.recovery_dir.is_some() {
            let now = ctx.input(|i| i.time);
            if now - self.session.last_autosave >= AUTOSAVE_SECS {
                self.session.last_autosave = now;
                self.autosave();
            }
            ctx.request_repaint_after(std::time::Duration::from_secs_f64(AUTOSAVE_SECS));
        }
    }

    fn window_events(&mut self, ctx: &egui::Context) {
        if ctx.input(|i| i.viewport().close_requested()) && !self.session.allow_close {
            if self.doc.is_dirty() {
                ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
                self.session.dialog = Some(Dialog::ConfirmDiscard(Pending::Quit));
            } else {
                self.session.clear_recovery();
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
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("crec"))
            {
                self.open_recording(&path);
            } else {
                self.status = format!(
                    "{} is not a .ron level or a .crec recording",
                    path.display()
                );
            }
        }
    }

    // ---- panels -----------------------------------------------------------------------------------------

    // ---- the view -----------------------------------------------------------------------------------------
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
