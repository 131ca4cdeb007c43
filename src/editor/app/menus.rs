//! The menu bar, the debugger's transport buttons and the F1 list, all generated from [`Command`]s.

use egui::Ui;

use std::path::PathBuf;

use crate::editor::command::{Command, POINTER_HELP};
use crate::editor::debugger::panel::DebugPanel;
use crate::editor::debugger::panel::Overlay;
use crate::editor::document::Document;
use crate::editor::document::sector::Which;
use crate::editor::reach::ReachOverlay;

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
    Item::Run(Command::ToggleNav),
    Item::Run(Command::WalkNavPath),
    Item::Run(Command::ClearNavPath),
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

/// What the menus read to draw themselves: the recent files, the reachability overlay's floors, and
/// whether each command is a setting that is on and whether it can run now.
pub(super) struct MenuContext<'a> {
    /// The recently opened files, newest first.
    pub recent: &'a [PathBuf],
    /// The reachability overlay (its floors and the one shown).
    pub reach: &'a ReachOverlay,
    /// A setting's state, or `None` for a command that is not a setting.
    pub checked: &'a dyn Fn(&Command) -> Option<bool>,
    /// Whether a command can run now.
    pub can_run: &'a dyn Fn(&Command) -> bool,
}

/// The menu bar; the command chosen, if any.
pub(super) fn menu_bar(ui: &mut Ui, cx: &MenuContext<'_>) -> Option<Command> {
    let mut run = None;
    egui::MenuBar::new().ui(ui, |ui| {
        for (title, items) in [
            ("File", FILE),
            ("Edit", EDIT),
            ("View", VIEW),
            ("Help", HELP),
        ] {
            ui.menu_button(title, |ui| menu(cx, ui, items, &mut run));
        }
    });
    run
}

fn menu(cx: &MenuContext<'_>, ui: &mut Ui, items: &[Item], run: &mut Option<Command>) {
    for item in items {
        match item {
            Item::Run(c) => menu_item(cx, ui, c.clone(), run),
            Item::Separator => {
                ui.separator();
            }
            Item::Recent => {
                ui.menu_button("Open Recent", |ui| {
                    if cx.recent.is_empty() {
                        ui.label("(none yet)");
                    }
                    for p in cx.recent {
                        if ui.button(p.display().to_string()).clicked() {
                            *run = Some(Command::OpenRecent(p.clone()));
                        }
                    }
                    if !cx.recent.is_empty() {
                        menu_item(cx, ui, Command::ClearRecent, run);
                    }
                });
            }
            Item::Overlays => {
                ui.menu_button("Debugger overlays", |ui| {
                    for o in Overlay::ALL {
                        menu_item(cx, ui, Command::ToggleOverlay(*o), run);
                    }
                });
            }
            Item::ReachFloors => {
                ui.menu_button("Reachability floor", |ui| {
                    for (f, heights) in crate::editor::reach::paint::floors(cx.reach) {
                        let on = cx.reach.floor == f;
                        if ui.radio(on, super::floor_name(f, heights)).clicked() {
                            *run = Some(Command::ReachFloor(crate::editor::reach::floor_index(f)));
                        }
                    }
                });
            }
        }
    }
}

/// A menu entry: a check box for a setting, else a button with its shortcut; greyed out when the command
/// cannot run now.
fn menu_item(cx: &MenuContext<'_>, ui: &mut Ui, command: Command, run: &mut Option<Command>) {
    let spec = command.spec();
    let clicked = match (cx.checked)(&command) {
        Some(mut on) => {
            let text = match shortcut_text(ui, &command) {
                k if k.is_empty() => spec.name.to_owned(),
                k => format!("{} ({k})", spec.name),
            };
            ui.checkbox(&mut on, text).clicked()
        }
        None => ui
            .add_enabled(
                (cx.can_run)(&command),
                egui::Button::new(spec.name).shortcut_text(shortcut_text(ui, &command)),
            )
            .clicked(),
    };
    if clicked {
        *run = Some(command);
    }
}

/// The debugger bar: the transport commands as buttons, then the debugger's own controls.
pub(super) fn debugger_bar(ui: &mut Ui, debug: &mut DebugPanel, doc: &Document) -> Option<Command> {
    let playing = debug.playing;
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
    debug.controls(ui, doc, &mut transport);
    run
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
                Command::SetTool(_) => {
                    ui.add(egui::Label::new(format!("{} tool: {}", spec.name, spec.help)).wrap())
                }
                _ => ui.add(egui::Label::new(spec.help).wrap()),
            };
            ui.end_row();
        }
        for (k, what) in POINTER_HELP {
            ui.monospace(*k);
            ui.add(egui::Label::new(*what).wrap());
            ui.end_row();
        }
    });
}
