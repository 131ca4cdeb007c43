//! Running commands: the shortcut dispatcher and [`EditorApp::run_command`], the one place a
//! [`Command`] runs, and the actions commands run: editing (undo and redo, clipboard, delete, nudge, tool
//! changes, `apply_edit`) and files (open, save, export, import; the session does the file work).

use std::path::Path;

use egui::{Key, KeyboardShortcut};

use glam::Vec2;

use super::dialogs::DialogAnswer;
use super::files::display_name;
use super::{Dialog, EditorApp, PathPurpose, Pending, Source, Tool};
use crate::editor::command::{Command, Dir};
use crate::editor::document::{Document, Edit, Header, LabelledEdit, Object, count_noun};
use crate::editor::inspector::InspectorState;
use crate::editor::tools::Gesture;
use crate::level::{Level, ObjectId};

impl EditorApp {
    /// Start listening for a game on loopback (port 47474), or stop.
    pub fn toggle_listen(&mut self) {
        self.status =
            crate::editor::recording::live::toggle_listen(&mut self.live.listener, self.live.port);
    }

    /// Run the commands whose shortcuts were pressed this frame, most specific first (Ctrl+Shift+S before
    /// Ctrl+S: egui matches Shift loosely). Space plays and pauses on release, unless it was held to pan.
    pub(super) fn shortcuts(&mut self, ctx: &egui::Context) {
        let typing = ctx.egui_wants_keyboard_input();
        // Walking in the 3D preview owns W A S D and the arrows while the pointer is over it.
        let walking = self
            .view3d
            .captures_keys(ctx.input(|i| i.pointer.hover_pos()));
        let mut bound: Vec<(KeyboardShortcut, &Command)> = Command::ALL
            .iter()
            .filter(|c| (c.while_typing() || !typing) && !(walking && c.yields_to_walking()))
            .flat_map(|c| c.spec().keys.iter().map(move |k| (*k, c)))
            .collect();
        bound.sort_by_key(|(k, _)| {
            std::cmp::Reverse(u8::from(k.modifiers.shift) + u8::from(k.modifiers.alt))
        });
        let mut pressed = Vec::new();
        for (k, c) in bound {
            let hit = if *c == Command::PlayPause {
                self.space_released(ctx)
            } else {
                ctx.input_mut(|i| i.consume_shortcut(&k))
            };
            if hit {
                pressed.push(c.clone());
            }
        }
        if !typing {
            // The system clipboard arrives as events; the keys themselves only in tests (no clipboard there).
            for e in ctx.input(|i| i.events.clone()) {
                match e {
                    egui::Event::Copy => pressed.push(Command::Copy),
                    egui::Event::Cut => pressed.push(Command::Cut),
                    egui::Event::Paste(text) => pressed.push(Command::PasteText(text)),
                    _ => {}
                }
            }
        }
        for c in pressed {
            self.run_command(ctx, c);
        }
    }

    /// Space was tapped (released without panning).
    fn space_released(&mut self, ctx: &egui::Context) -> bool {
        if !ctx.input(|i| i.key_released(Key::Space)) {
            return false;
        }
        !std::mem::take(&mut self.view2d.space_panned)
    }
}

impl EditorApp {
    /// Run one command: the only way menus, shortcuts, buttons and dialogs change the document or the
    /// editor's settings.
    pub fn run_command(&mut self, ctx: &egui::Context, command: Command) {
        match command {
            Command::New
            | Command::Open
            | Command::OpenRecent(_)
            | Command::ClearRecent
            | Command::Save
            | Command::SaveAs
            | Command::Export
            | Command::ImportObj
            | Command::Quit => self.run_file_command(ctx, command),
            Command::OpenRecording => self.choose_path(super::files::PathPurpose::OpenRecording),
            Command::ListenForGame => self.toggle_listen(),
            Command::SetTool(Tool::Reach) => self.run_reach_command(command),
            Command::SetTool(Tool::Build) if self.tools.tool == Tool::Build => {
                // The Build tool's key again: the next builder.
                let b = self.greybox.build.builder.next();
                self.greybox.build.builder = b;
                self.status = format!("Build tool: {}", b.name());
            }
            Command::SetTool(t) => self.set_tool(t),
            Command::SetBuilder(b) => {
                self.greybox.build.builder = b;
                self.set_tool(Tool::Build);
                self.status = format!("Build tool: {}", b.name());
            }
            Command::PlayPause => self.debug.toggle_play(&self.doc),
            Command::Step => self.debug.step(&self.doc),
            Command::StepBack => self.debug.step_back(&self.doc),
            Command::Restart => self.debug.restart(&self.doc),
            Command::SetCamera(_)
            | Command::CharacterPause
            | Command::CharacterStepBack
            | Command::CharacterStepForward
            | Command::CharacterRestart
            | Command::ThirdPerson => self.run_character_command(command),
            Command::ToggleReach
            | Command::ReachTo(_)
            | Command::WalkReachPath
            | Command::ClearReachPath
            | Command::ReachFloor(_) => self.run_reach_command(command),
            Command::ToggleNav
            | Command::NavPoint(_)
            | Command::NavAgent(_)
            | Command::NavAddAgent(..)
            | Command::WalkNavPath
            | Command::ClearNavPath => {
                let answer = self.nav.run(&command, self.doc.level());
                self.view3d.open |= answer.open_3d;
                if let Some(status) = answer.status {
                    self.status = status;
                }
            }
            Command::Shortcuts => self.session.dialog = Some(Dialog::Shortcuts),
            Command::SectorHeight(..)
            | Command::JoinSectors
            | Command::BuildAt(..)
            | Command::BuildSelected => {
                let step = self.tools.snap_step;
                match super::greybox::greybox_edit(&self.doc, &self.greybox, step, &command) {
                    Some(Ok(e)) => {
                        self.status = e.label.to_lowercase();
                        self.apply_edit(e);
                    }
                    Some(Err(why)) => self.status = format!("not changed: {why}"),
                    None => {}
                }
            }
            Command::FrameAll
            | Command::FrameSelection
            | Command::Toggle3d
            | Command::ToggleSnap
            | Command::HalveSnap
            | Command::DoubleSnap
            | Command::ToggleHistory
            | Command::ToggleLowerPanel
            | Command::ToggleOverlay(_) => self.run_view_command(command),
            _ => self.run_edit_command(ctx, command),
        }
    }

    fn run_file_command(&mut self, ctx: &egui::Context, command: Command) {
        match command {
            Command::New => self.guard(ctx, Pending::New),
            Command::Open => self.guard(ctx, Pending::Open(None)),
            Command::OpenRecent(path) => self.guard(ctx, Pending::Open(Some(path))),
            Command::ClearRecent => self.session.recent.clear(),
            Command::Save => {
                self.save();
            }
            Command::SaveAs => self.choose_path(PathPurpose::SaveAs),
            Command::Export => self.choose_path(PathPurpose::Export),
            Command::ImportObj => self.choose_path(PathPurpose::ImportObj),
            Command::Quit => self.guard(ctx, Pending::Quit),
            _ => {}
        }
    }

    fn run_edit_command(&mut self, ctx: &egui::Context, command: Command) {
        match command {
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::GoToHistory(c) => {
                self.cancel_gesture();
                self.doc.go_to(c);
            }
            Command::Apply(e) => {
                self.apply_edit(*e);
            }
            Command::Cut => self.copy(ctx, true),
            Command::Copy => self.copy(ctx, false),
            Command::Paste => match self.session.clipboard.clone() {
                Some(text) => self.paste(&text),
                None => self.status = "nothing copied yet".into(),
            },
            Command::PasteText(text) => self.paste(&text),
            Command::Duplicate => {
                let n = self
                    .doc
                    .duplicate_selection(Vec2::splat(self.tools.snap_step.max(0.1)));
                self.status = format!("duplicated {}", count_noun(n, "object"));
            }
            Command::Delete => self.delete(),
            Command::DeleteBack => self.delete_back(),
            Command::SelectAll => self.doc.select_all(),
            Command::Cancel => self.cancel(),
            Command::Nudge(d, big) => {
                let v = match d {
                    Dir::Left => Vec2::NEG_X,
                    Dir::Right => Vec2::X,
                    Dir::Up => Vec2::NEG_Y,
                    Dir::Down => Vec2::Y,
                };
                let step = self.tools.snap_step.max(0.01) * if big { 10.0 } else { 1.0 };
                self.nudge(v * step);
            }
            Command::FinishChain => self.with_tools(ctx, |tools, cx| tools.finish_chain(cx)),
            Command::KeepProbe => self.keep_probe(),
            _ => {}
        }
    }

    fn run_view_command(&mut self, command: Command) {
        match command {
            Command::FrameAll => self.frame_all(),
            Command::FrameSelection => self.view2d.frame_selection = true,
            Command::Toggle3d => self.view3d.open = !self.view3d.open,
            Command::ToggleSnap => {
                self.tools.snap = !self.tools.snap;
                self.status = format!("snap {}", if self.tools.snap { "on" } else { "off" });
            }
            Command::HalveSnap => {
                self.tools.snap_step = (self.tools.snap_step / 2.0).max(1.0 / 64.0)
            }
            Command::DoubleSnap => self.tools.snap_step = (self.tools.snap_step * 2.0).min(64.0),
            Command::ToggleHistory => self.panels.show_history = !self.panels.show_history,
            Command::ToggleLowerPanel => self.panels.show_problems = !self.panels.show_problems,
            Command::ToggleOverlay(o) => {
                let flag = self.debug.overlays.flag_mut(o);
                *flag = !*flag;
            }
            _ => {}
        }
    }

    /// Backspace: the wall chain's last vertex, or with no chain the selection.
    fn delete_back(&mut self) {
        // The Mover tool's pick without points yet is not a selection to delete.
        if self.tools.chain.pop().is_none() && self.tools.mover.is_none() {
            self.delete();
        }
    }

    /// Whether the command can run now (menus grey out the rest).
    #[must_use]
    pub fn can_run(&self, command: &Command) -> bool {
        let some = !self.doc.selection().is_empty();
        match command {
            Command::Undo => self.doc.can_undo_redo().0,
            Command::Redo => self.doc.can_undo_redo().1,
            Command::Cut | Command::Copy | Command::Duplicate => some,
            Command::SectorHeight(..) | Command::JoinSectors => {
                let level = self.doc.level();
                self.doc
                    .selection()
                    .iter()
                    .any(|id| level.sectors.iter().any(|s| s.id == *id))
            }
            Command::Delete => some || self.doc.walker_selected(),
            Command::Paste => self.session.clipboard.is_some(),
            Command::KeepProbe => self.probe.ray.is_some(),
            Command::WalkReachPath => self.reach.path_to_walk(self.doc.key()).is_ok(),
            Command::ClearReachPath => self.reach.target().is_some(),
            Command::WalkNavPath => self
                .nav
                .overlay
                .route
                .as_ref()
                .is_some_and(|r| r.path.is_some()),
            Command::ClearNavPath => {
                self.nav.overlay.route.is_some() || self.nav.overlay.start.is_some()
            }
            _ => true,
        }
    }

    /// Whether a toggling command's setting is on (menus show a check box).
    #[must_use]
    pub fn is_checked(&self, command: &Command) -> Option<bool> {
        Some(match command {
            Command::Toggle3d => self.view3d.open,
            Command::ToggleSnap => self.tools.snap,
            Command::ToggleHistory => self.panels.show_history,
            Command::ToggleLowerPanel => self.panels.show_problems,
            Command::ToggleOverlay(o) => *self.debug.overlays.flag(*o),
            Command::ToggleReach => self.reach.on,
            Command::ToggleNav => self.nav.overlay.on,
            Command::ReachFloor(f) => self.reach.floor == crate::editor::reach::floor_view(*f),
            Command::ThirdPerson => self.view3d.cam.character.third_person,
            _ => return None,
        })
    }

    /// Run a camera or character command through the preview; its message goes to the status line, and a
    /// pause shows the Character tab.
    fn run_character_command(&mut self, command: Command) {
        let scene = self.level_scene();
        let (status, show_tab) = self
            .view3d
            .run_character_command(command, &self.doc, &scene);
        if let Some(s) = status {
            self.status = s;
        }
        if show_tab {
            self.panels.tab = crate::editor::debugger::panel::Tab::Character;
            self.panels.show_problems = true;
        }
    }

    /// Run a reachability command (the Reach tool's too: it turns the overlay on and opens the Reach tab).
    pub(super) fn run_reach_command(&mut self, command: Command) {
        match command {
            Command::ToggleReach => {
                self.reach.on = !self.reach.on;
                self.status = if self.reach.on {
                    "reachability overlay on: green is reached from the walker start, orange can be stood on but not reached".into()
                } else {
                    "reachability overlay off".into()
                };
            }
            Command::ReachTo(to) => {
                if !self.reach.on {
                    self.reach.on = true;
                }
                self.reach.set_target(to);
                self.status = crate::editor::reach::panel::target_text(&self.reach);
            }
            Command::WalkReachPath => self.walk_reach_path(),
            Command::ClearReachPath if self.reach.clear_target() => {
                self.status = "path cleared".into();
            }
            Command::ReachFloor(f) => self.reach.floor = crate::editor::reach::floor_view(f),
            Command::SetTool(Tool::Reach) => {
                self.set_tool(Tool::Reach);
                self.reach.on = true;
                self.panels.tab = crate::editor::debugger::panel::Tab::Reach;
                self.panels.show_problems = true;
                self.panels.lower_collapsed = false;
            }
            _ => {}
        }
    }

    /// Walk the shown path with the level's character in the 3D preview.
    fn walk_reach_path(&mut self) {
        let key = self.doc.key();
        let path = match self.reach.path_to_walk(key) {
            Ok(p) => p.to_vec(),
            Err(why) => {
                self.status = why.into();
                return;
            }
        };
        let scene = self.level_scene();
        let c = crate::editor::document::character::effective(self.doc.level());
        let v = &mut self.view3d;
        v.open = true;
        v.set_camera(
            crate::editor::view3d::scene::CameraMode::Walk,
            &self.doc,
            &scene,
        );
        v.walk_path(path, &c);
        self.status =
            "the character walks the path in the 3D preview (third person; F4 for its eyes)".into();
    }

    /// Whether a map is wanted: the overlay is on, or the Reach tool is in hand.
    fn reach_wanted(&self) -> bool {
        self.reach.on || self.tools.tool == Tool::Reach
    }

    /// Keep the reachability map in step with the document: when it is shown, or when the level has entities
    /// that must be reached (their problems go to the Problems panel, as `collidoscope check --reach` finds),
    /// and not during a live drag (it changes the level every frame: mapped when the gesture ends).
    pub(super) fn refresh_reach(&mut self, ctx: &egui::Context) {
        let needed = self.reach_wanted() || self.doc.level().must_reach_entities().next().is_some();
        let dragging = matches!(
            self.tools.gesture,
            Some(Gesture::Move { .. } | Gesture::Rotate { .. })
        );
        if needed && !dragging {
            // The scene of this revision (followed from the last one after a sector edit), shared with the
            // map's builder rather than built again on its thread.
            let _ = self.level_scene();
        }
        let scene = self.level_scene.as_ref();
        if let Some(s) = self
            .reach
            .refresh(ctx, &self.doc, scene, needed && !dragging)
        {
            self.status = s;
        }
    }

    /// The status bar's reachability part, while a map is wanted.
    pub(super) fn reach_status(&self, ui: &mut egui::Ui) {
        if self.reach_wanted() {
            self.reach.status_ui(ui);
        }
    }

    /// The feet of the place the top-down view shows at floor point `w`, else the surface under it.
    pub(super) fn reach_spot(&mut self, w: glam::Vec2) -> glam::Vec3 {
        let scene = self.level_scene();
        let skin = crate::editor::document::character::effective(self.doc.level()).skin;
        self.reach.spot(w, &scene, skin)
    }
}

impl EditorApp {
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

    pub(crate) fn cancel_gesture(&mut self) {
        self.tools.cancel_gesture(&mut self.doc);
    }

    pub(crate) fn copy(&mut self, ctx: &egui::Context, cut: bool) {
        match self.doc.copy_selection() {
            Some(text) => {
                ctx.copy_text(text.clone());
                self.session.clipboard = Some(text);
                let n = self.doc.selection().len();
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
        let at = self
            .view2d
            .cursor_world
            .map(|p| self.tools.snapped(p, false));
        match self.doc.paste(text, at) {
            Ok(n) => self.status = format!("pasted {}", count_noun(n, "object")),
            Err(e) => self.status = format!("the clipboard does not hold level objects: {e}"),
        }
    }

    pub(crate) fn delete(&mut self) {
        let mut n = self.doc.delete_selection();
        if self.doc.walker_selected() {
            let mut h = Header::of(self.doc.level());
            h.walker = None;
            self.apply_edit(LabelledEdit::new(
                "Delete walker",
                Edit {
                    header: Some(h),
                    ..Edit::default()
                },
                None,
            ));
            n += 1;
        }
        self.status = format!("deleted {}", count_noun(n, "object"));
    }

    pub(crate) fn nudge(&mut self, d: Vec2) {
        let mut objects = self.doc.selected_objects();
        objects.iter_mut().for_each(|o| o.translate(d));
        let header = self.doc.walker_selected().then(|| {
            let mut h = Header::of(self.doc.level());
            if let Some(w) = &mut h.walker {
                w.position += d;
            }
            h
        });
        let ids: Vec<String> = self
            .doc
            .selection()
            .iter()
            .map(|i| i.0.to_string())
            .collect();
        self.apply_edit(LabelledEdit::new(
            "Nudge",
            Edit {
                replace: objects,
                header,
                ..Edit::default()
            },
            Some(format!("nudge:{}", ids.join(","))),
        ));
    }

    pub(crate) fn set_tool(&mut self, tool: Tool) {
        self.tools.set_tool(&mut self.doc, tool);
    }

    /// Esc: cancel a drawing or a drag; with neither, clear the selection.
    pub(crate) fn cancel(&mut self) {
        if self.inspector.pick.take().is_some() {
            self.status = "picking cancelled".into();
        } else if !self.tools.chain.is_empty()
            || self.tools.gesture.is_some()
            || self.tools.mover.is_some()
        {
            self.tools.chain.clear();
            self.tools.mover = None;
            self.cancel_gesture();
        } else {
            self.doc.clear_selection();
        }
    }

    /// Add the probe ray to the level as a probe object.
    pub(crate) fn keep_probe(&mut self) {
        if let Some((ray, max_t)) = self.probe.ray {
            self.add_object(
                "Add probe",
                Object::Probe(crate::level::Probe {
                    id: ObjectId(0),
                    name: None,
                    origin: ray.origin,
                    dir: ray.dir,
                    max_t,
                    properties: Default::default(),
                }),
            );
        }
    }

    pub(crate) fn add_object(&mut self, label: &str, o: Object) {
        self.apply_edit(LabelledEdit::new(
            label,
            Edit {
                add: vec![o],
                ..Edit::default()
            },
            None,
        ));
        self.status = label.to_lowercase();
    }

    /// The dialog on screen, if any, and then what its answer asks for.
    pub(crate) fn dialogs(&mut self, ctx: &egui::Context) {
        let Some(answer) = self.session.show_dialog(ctx) else {
            return;
        };
        match answer {
            DialogAnswer::SaveThen(action) => {
                if self.save() {
                    self.run_pending(ctx, action);
                }
            }
            DialogAnswer::DiscardThen(action) => self.run_pending(ctx, action),
            DialogAnswer::AddWalls(walls, crossings) => {
                self.with_tools(ctx, |_, cx| {
                    crate::editor::tools::add_walls(cx, walls, &crossings)
                });
            }
            DialogAnswer::Recover(level, original) => {
                self.open_document(*level, Source::Recovered(original));
                self.status = "recovered the autosaved level: save it to keep it".into();
            }
            DialogAnswer::DropRecovery => self.session.clear_recovery(),
            DialogAnswer::UsePath(purpose, path) => self.use_path(purpose, &path),
        }
    }

    /// Apply an edit as one undo step: the one way the tools and panels change the level (previews of a live
    /// drag aside). Returns whether it changed anything.
    pub(crate) fn apply_edit(&mut self, e: LabelledEdit) -> bool {
        self.doc.apply_merging(e.label, e.edit, e.merge_key)
    }
}

/// File actions: the one way a document is opened, open, save, export, import and recordings. The
/// session does the file work (`files.rs`); these put its answers into the document and the status line.
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

    /// Ask before `action` when there are unsaved changes; otherwise do it now.
    pub(crate) fn guard(&mut self, ctx: &egui::Context, action: Pending) {
        if self.doc.is_dirty() {
            self.session.dialog = Some(Dialog::ConfirmDiscard(action));
        } else {
            self.run_pending(ctx, action);
        }
    }

    /// Do a file action the unsaved-changes question let through.
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
    /// built-in level). It gets a fresh [`crate::editor::document::DocKey`], so every derived cache (drawn
    /// scene, problems, 3D scene, recording, probe and compare results) rebuilds by itself; only the editing
    /// session's own state (a half-drawn chain, a gesture, the framing, the probe ray, typed field text) is
    /// reset here.
    pub(crate) fn open_document(&mut self, level: Level, source: Source) {
        let recovered = matches!(source, Source::Recovered(_));
        let left_previous = matches!(source, Source::New | Source::File(_));
        let (path, name) = match source {
            Source::New => (None, "untitled.ron".to_owned()),
            Source::Embedded => (None, super::EMBEDDED_NAME.to_owned()),
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
        let Some(level) = self.session.read_level(path) else {
            self.status = format!("could not open {}", path.display());
            return;
        };
        self.open_document(level, Source::File(path.to_path_buf()));
        self.session.remember(path);
        self.status = format!("opened {}", path.display());
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

    /// Save to `path` atomically. Returns whether it saved.
    pub fn save_to(&mut self, path: &Path) -> bool {
        let status = self.session.save(&mut self.doc, path);
        self.show_status(status)
    }

    /// Export the game-ready level to `path`: validated (refused with errors), OBJ meshes inlined so the file
    /// stands alone, and the debugger's probes left out. Returns whether it exported.
    pub fn export_to(&mut self, path: &Path) -> bool {
        let status = self.session.export(self.doc.level(), path);
        self.show_status(status)
    }

    /// The status line, when there is one; whether there was.
    fn show_status(&mut self, status: Option<String>) -> bool {
        status.map(|s| self.status = s).is_some()
    }

    /// Ask for a path for `purpose`, then use it (now, or when the editor's own dialog answers).
    pub(crate) fn choose_path(&mut self, purpose: PathPurpose) {
        match self.session.choose_path(purpose, self.doc.path.as_deref()) {
            Ok(path) => self.use_path(purpose, &path),
            Err(status) => {
                self.show_status(status);
            }
        }
    }

    /// Do what a path was chosen for.
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
    /// files in its own folder. Returns whether it added anything.
    pub fn import_obj(&mut self, path: &Path) -> bool {
        let gltf = crate::mesh::is_gltf_path(&path.to_string_lossy());
        self.import_mesh(path, gltf)
    }

    /// Add the triangles of a glTF 2.0 file (one undo step): every triangle primitive its scene places, node
    /// transforms applied. A file inside the level's folder becomes one mesh object referencing it (all its
    /// primitives merged, re-read whenever the level loads); any other file gives one inlined mesh object per
    /// placed primitive, named after its node. Returns whether it added anything.
    pub fn import_gltf(&mut self, path: &Path) -> bool {
        self.import_mesh(path, true)
    }

    /// Add a mesh file's objects, read as glTF or as OBJ, as one undo step and frame them.
    fn import_mesh(&mut self, path: &Path, gltf: bool) -> bool {
        let level = self.doc.path.as_deref();
        let Some((edit, status)) = self.session.import_mesh(path, level, gltf) else {
            return false;
        };
        self.apply_edit(edit);
        self.status = status;
        self.view2d.frame_selection = true;
        true
    }
}
