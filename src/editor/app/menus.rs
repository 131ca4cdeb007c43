//! The menu bar, the debugger's transport buttons and the F1 list, all generated from [`Command`]s.

use egui::Ui;

use super::EditorApp;
use crate::editor::command::{Command, POINTER_HELP};
use crate::editor::debugger::panel::Overlay;
use crate::editor::document::sector::Which;

/// One entry of a menu.
enum Item {
    Run(Command),
    Separator,
    Recent,
    Overlays,
    ReachFloors,
}

const FILE: &[Item] = &[
    Item::Run(Command::New),
    Item::Run(Command::Open),
    Item::Recent,
    Item::Separator,
    Item::Run(Command::Save),
    Item::Run(Command::SaveAs),
    Item::Run(Command::Export),
    Item::Separator,
    Item::Run(Command::ImportObj),
    Item::Run(Command::OpenRecording),
    Item::Run(Command::ListenForGame),
    Item::Separator,
    Item::Run(Command::Quit),
];

const EDIT: &[Item] = &[
    Item::Run(Command::Undo),
    Item::Run(Command::Redo),
    Item::Separator,
    Item::Run(Command::Cut),
    Item::Run(Command::Copy),
    Item::Run(Command::Paste),
    Item::Run(Command::Duplicate),
    Item::Run(Command::Delete),
    Item::Separator,
    Item::Run(Command::SelectAll),
    Item::Separator,
    Item::Run(Command::SectorHeight(Which::Floor, true)),
    Item::Run(Command::SectorHeight(Which::Floor, false)),
    Item::Run(Command::SectorHeight(Which::Ceiling, true)),
    Item::Run(Command::SectorHeight(Which::Ceiling, false)),
    Item::Run(Command::JoinSectors),
];

const VIEW: &[Item] = &[
    Item::Run(Command::FrameAll),
    Item::Run(Command::FrameSelection),
    Item::Separator,
    Item::Run(Command::Toggle3d),
    Item::Run(Command::ToggleSnap),
    Item::Run(Command::ToggleHistory),
    Item::Run(Command::ToggleLowerPanel),
    Item::Overlays,
    Item::Separator,
    Item::Run(Command::ToggleReach),
    Item::ReachFloors,
    Item::Run(Command::WalkReachPath),
    Item::Run(Command::ClearReachPath),
    Item::Separator,
    Item::Run(Command::ThirdPerson),
    Item::Run(Command::CharacterPause),
    Item::Run(Command::CharacterStepBack),
    Item::Run(Command::CharacterStepForward),
    Item::Run(Command::CharacterRestart),
];

const HELP: &[Item] = &[Item::Run(Command::Shortcuts)];

/// The debugger bar's buttons.
const TRANSPORT: &[Command] = &[
    Command::PlayPause,
    Command::StepBack,
    Command::Step,
    Command::Restart,
];

/// The shortcut as this platform writes it (`Ctrl+S`), or nothing.
fn shortcut_text(ui: &Ui, command: &Command) -> String {
    command
        .spec()
        .keys
        .first()
        .map_or_else(String::new, |k| ui.ctx().format_shortcut(k))
}

impl EditorApp {
    pub(super) fn menu_bar(&mut self, ui: &mut Ui) {
        let mut run = None;
        egui::MenuBar::new().ui(ui, |ui| {
            for (title, items) in [
                ("File", FILE),
                ("Edit", EDIT),
                ("View", VIEW),
                ("Help", HELP),
            ] {
                ui.menu_button(title, |ui| self.menu(ui, items, &mut run));
            }
        });
        if let Some(c) = run {
            self.run_command(&ui.ctx().clone(), c);
        }
    }

    fn menu(&self, ui: &mut Ui, items: &[Item], run: &mut Option<Command>) {
        for item in items {
            match item {
                Item::Run(c) => self.menu_item(ui, c.clone(), run),
                Item::Separator => {
                    ui.separator();
                }
                Item::Recent => {
                    ui.menu_button("Open Recent", |ui| {
                        if self.session.recent.is_empty() {
                            ui.label("(none yet)");
                        }
                        for p in &self.session.recent {
                            if ui.button(p.display().to_string()).clicked() {
                                *run = Some(Command::OpenRecent(p.clone()));
                            }
                        }
                        if !self.session.recent.is_empty() {
                            self.menu_item(ui, Command::ClearRecent, run);
                        }
                    });
                }
                Item::Overlays => {
                    ui.menu_button("Debugger overlays", |ui| {
                        for o in Overlay::ALL {
                            self.menu_item(ui, Command::ToggleOverlay(*o), run);
                        }
                    });
                }
                Item::ReachFloors => {
                    ui.menu_button("Reachability floor", |ui| {
                        for (f, heights) in crate::editor::reach::paint::floors(&self.reach) {
                            let on = self.reach.floor == f;
                            if ui.radio(on, super::floor_name(f, heights)).clicked() {
                                *run =
                                    Some(Command::ReachFloor(crate::editor::reach::floor_index(f)));
                            }
                        }
                    });
                }
            }
        }
    }

    /// A menu entry: a check box for a setting, else a button with its shortcut; greyed out when the command
    /// cannot run now.
    fn menu_item(&self, ui: &mut Ui, command: Command, run: &mut Option<Command>) {
        let spec = command.spec();
        let clicked = match self.is_checked(&command) {
            Some(mut on) => {
                let text = match shortcut_text(ui, &command) {
                    k if k.is_empty() => spec.name.to_owned(),
                    k => format!("{} ({k})", spec.name),
                };
                ui.checkbox(&mut on, text).clicked()
            }
            None => ui
                .add_enabled(
                    self.can_run(&command),
                    egui::Button::new(spec.name).shortcut_text(shortcut_text(ui, &command)),
                )
                .clicked(),
        };
        if clicked {
            *run = Some(command);
        }
    }

    /// The debugger bar: the transport commands as buttons, then the debugger's own controls.
    pub(super) fn debugger_bar(&mut self, ui: &mut Ui) {
        let playing = self.debug.playing;
        let mut run = None;
        let mut transport = |ui: &mut Ui| {
            for c in TRANSPORT {
                let name = match c {
                    Command::PlayPause if playing => "Pause",
                    _ => c.spec().name,
                };
                let key = shortcut_text(ui, c);
                let resp = ui.button(name);
                let resp = if key.is_empty() {
                    resp.on_hover_text(c.spec().help)
                } else {
                    resp.on_hover_text(key)
                };
                if resp.clicked() {
                    run = Some(c.clone());
                }
            }
        };
        self.debug.controls(ui, &self.doc, &mut transport);
        if let Some(c) = run {
            self.run_command(&ui.ctx().clone(), c);
        }
    }

    /// The F1 window's grid: every command with a key, then the pointer gestures.
    pub(super) fn shortcut_list(ui: &mut Ui) {
        egui::Grid::new("keys").striped(true).show(ui, |ui| {
            for c in Command::ALL {
                let spec = c.spec();
                if spec.keys.is_empty() {
                    continue;
                }
                let keys: Vec<String> = spec
                    .keys
                    .iter()
                    .map(|k| ui.ctx().format_shortcut(k))
                    .collect();
                ui.monospace(keys.join(" / "));
                match c {
                    Command::SetTool(_) => ui.label(format!("{} tool: {}", spec.name, spec.help)),
                    _ => ui.label(spec.help),
                };
                ui.end_row();
            }
            for (k, what) in POINTER_HELP {
                ui.monospace(*k);
                ui.label(*what);
                ui.end_row();
            }
        });
    }
}
