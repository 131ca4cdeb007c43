//! The modal dialogs: unsaved changes, wall splits, recovery, messages, the shortcut list and the path
//! dialog.

use std::path::PathBuf;

use egui::Key;
use glam::Vec2;

use crate::editor::app::*;
use crate::editor::document::count_noun;
use crate::editor::tools::*;
use crate::level::Level;

/// The modal dialog on screen, if any.
pub(crate) enum Dialog {
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

/// What the user answered in a dialog, for the app to carry out.
pub(crate) enum DialogAnswer {
    /// Save, then (if saved) do what was waiting.
    SaveThen(Pending),
    /// Drop the changes and do what was waiting.
    DiscardThen(Pending),
    /// Add the new walls, split where they cross these points (none: keep the walls whole).
    AddWalls(Vec<(Vec2, Vec2)>, Vec<Crossing>),
    /// Open the autosaved level.
    Recover(Box<Level>, Option<PathBuf>),
    /// Forget the autosaved level.
    DropRecovery,
    /// Use the path typed for this purpose.
    UsePath(PathPurpose, PathBuf),
}

impl Session {
    /// Show the dialog on screen, if any: it stays while open, and the answer given (if any) is returned
    /// for the app to carry out.
    pub(crate) fn show_dialog(&mut self, ctx: &egui::Context) -> Option<DialogAnswer> {
        let dialog = self.dialog.take()?;
        let mut answer = None;
        if let Dialog::Path { purpose, mut text } = dialog {
            if path_dialog(ctx, purpose, &mut text, &mut answer) {
                self.dialog = Some(Dialog::Path { purpose, text });
            }
            return answer;
        }
        let mut keep = true;
        let modal = egui::Modal::new(egui::Id::unique("dialog")).show(ctx, |ui| {
            ui.set_max_width(520.0);
            keep = match &dialog {
                Dialog::ConfirmDiscard(action) => {
                    confirm_discard(ui, &self.display_name, action, &mut answer)
                }
                Dialog::Split { walls, crossings } => {
                    split_dialog(ui, walls, crossings, &mut answer)
                }
                Dialog::Recover {
                    level,
                    original,
                    age,
                } => recover_dialog(ui, level, original.as_ref(), age, &mut answer),
                Dialog::Message { title, text } => {
                    ui.heading(title);
                    ui.label(text);
                    !ui.button("OK").clicked()
                }
                Dialog::Shortcuts => shortcuts_dialog(ui),
                Dialog::Path { .. } => false,
            };
        });
        if modal.should_close() && !matches!(dialog, Dialog::Recover { .. } | Dialog::Split { .. })
        {
            keep = false;
        }
        if keep && answer.is_none() {
            self.dialog = Some(dialog);
        }
        answer
    }
}

fn confirm_discard(
    ui: &mut Ui,
    name: &str,
    action: &Pending,
    answer: &mut Option<DialogAnswer>,
) -> bool {
    ui.heading("Unsaved changes");
    ui.label(format!("{name} has changes that are not saved."));
    let mut keep = true;
    ui.horizontal(|ui| {
        if ui.button("Save").clicked() {
            keep = false;
            *answer = Some(DialogAnswer::SaveThen(action.clone()));
        }
        if ui.button("Discard changes").clicked() {
            keep = false;
            // The document stays until what replaces it has loaded: a failed open loses nothing.
            *answer = Some(DialogAnswer::DiscardThen(action.clone()));
        }
        if ui.button("Cancel").clicked() {
            keep = false;
        }
    });
    keep
}

fn split_dialog(
    ui: &mut Ui,
    walls: &[(Vec2, Vec2)],
    crossings: &[Crossing],
    answer: &mut Option<DialogAnswer>,
) -> bool {
    let mut ids: Vec<_> = crossings.iter().map(|c| c.wall).collect();
    ids.dedup();
    ui.heading("The new walls cross existing ones");
    ui.label(format!(
        "{} meet {} at {}. Split them there (their ends weld), or keep the walls whole?",
        count_noun(walls.len(), "new wall"),
        count_noun(ids.len(), "existing wall"),
        count_noun(crossings.len(), "point")
    ));
    let mut keep = true;
    ui.horizontal(|ui| {
        if ui.button("Split").clicked() {
            keep = false;
            *answer = Some(DialogAnswer::AddWalls(walls.to_vec(), crossings.to_vec()));
        }
        if ui.button("Don't split").clicked() {
            keep = false;
            *answer = Some(DialogAnswer::AddWalls(walls.to_vec(), Vec::new()));
        }
        if ui.button("Cancel").clicked() {
            keep = false;
        }
    });
    keep
}

fn recover_dialog(
    ui: &mut Ui,
    level: &Level,
    original: Option<&PathBuf>,
    age: &str,
    answer: &mut Option<DialogAnswer>,
) -> bool {
    ui.heading("Recover unsaved work?");
    ui.label(format!(
        "The editor closed with unsaved changes to {} (autosaved {age}).",
        original.map_or_else(|| "an unsaved level".into(), |p| p.display().to_string())
    ));
    let mut keep = true;
    ui.horizontal(|ui| {
        if ui.button("Recover").clicked() {
            keep = false;
            *answer = Some(DialogAnswer::Recover(
                Box::new(level.clone()),
                original.cloned(),
            ));
        }
        if ui.button("Discard it").clicked() {
            keep = false;
            *answer = Some(DialogAnswer::DropRecovery);
        }
    });
    keep
}

/// The editor's own path dialog (where the system has no file dialog, and in tests); whether it stays.
fn path_dialog(
    ctx: &egui::Context,
    purpose: PathPurpose,
    text: &mut String,
    answer: &mut Option<DialogAnswer>,
) -> bool {
    let title = match purpose {
        PathPurpose::Open => "Open level",
        PathPurpose::SaveAs => "Save level as",
        PathPurpose::Export => "Export game-ready level",
        PathPurpose::ImportObj => "Import a mesh (OBJ, glTF)",
        PathPurpose::OpenRecording => "Open a game's recording",
    };
    let mut keep = true;
    egui::Modal::new(egui::Id::unique("path dialog")).show(ctx, |ui| {
        ui.heading(title);
        let l = ui.label(match purpose {
            PathPurpose::ImportObj => "File path (.obj, .gltf, .glb):",
            PathPurpose::OpenRecording => "File path (.crec):",
            PathPurpose::Open | PathPurpose::SaveAs | PathPurpose::Export => "File path (.ron):",
        });
        let resp = ui
            .add(egui::TextEdit::singleline(text).desired_width(400.0))
            .labelled_by(l.id);
        let enter = resp.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
        ui.horizontal(|ui| {
            if (ui.button("OK").clicked() || enter) && !text.trim().is_empty() {
                *answer = Some(DialogAnswer::UsePath(purpose, PathBuf::from(text.trim())));
                keep = false;
            }
            if ui.button("Cancel").clicked() {
                keep = false;
            }
        });
    });
    keep
}

/// The F1 window: every command with a key, scrolled in a window of fixed size (so it does not move under
/// the pointer as the list lays out).
fn shortcuts_dialog(ui: &mut Ui) -> bool {
    ui.heading("Keyboard shortcuts");
    let screen = ui.ctx().content_rect();
    let height = (screen.height() - 160.0).max(120.0);
    // The longest help lines wrap inside the window, so it never grows past the screen (and its Close
    // button with it).
    let width = (screen.width() - 120.0).clamp(300.0, 900.0);
    ui.set_max_width(width);
    egui::ScrollArea::vertical()
        .max_height(height)
        .max_width(width)
        .auto_shrink([false, false])
        .show(ui, super::menus::shortcut_list);
    !ui.button("Close").clicked()
}
