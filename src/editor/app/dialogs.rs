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

impl EditorApp {
    /// The dialog on screen, if any: each returns whether it stays open.
    pub(crate) fn dialogs(&mut self, ctx: &egui::Context) {
        let Some(dialog) = self.session.dialog.take() else {
            return;
        };
        if let Dialog::Path { purpose, text } = dialog {
            self.path_dialog(ctx, purpose, text);
            return;
        }
        let mut keep = true;
        let modal = egui::Modal::new(egui::Id::unique("dialog")).show(ctx, |ui| {
            ui.set_max_width(520.0);
            keep = match &dialog {
                Dialog::ConfirmDiscard(action) => self.confirm_discard(ui, action),
                Dialog::Split { walls, crossings } => self.split_dialog(ui, walls, crossings),
                Dialog::Recover {
                    level,
                    original,
                    age,
                } => self.recover_dialog(ui, level, original.as_ref(), age),
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
        if keep && self.session.dialog.is_none() {
            self.session.dialog = Some(dialog);
        }
    }

    fn confirm_discard(&mut self, ui: &mut Ui, action: &Pending) -> bool {
        let ctx = ui.ctx().clone();
        ui.heading("Unsaved changes");
        ui.label(format!(
            "{} has changes that are not saved.",
            self.session.display_name
        ));
        let mut keep = true;
        ui.horizontal(|ui| {
            if ui.button("Save").clicked() {
                keep = false;
                if self.save() {
                    self.run_pending(&ctx, action.clone());
                }
            }
            if ui.button("Discard changes").clicked() {
                keep = false;
                // The document stays until what replaces it has loaded: a failed open loses nothing.
                self.run_pending(&ctx, action.clone());
            }
            if ui.button("Cancel").clicked() {
                keep = false;
            }
        });
        keep
    }

    fn split_dialog(
        &mut self,
        ui: &mut Ui,
        walls: &[(Vec2, Vec2)],
        crossings: &[Crossing],
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
                let walls = walls.to_vec();
                self.with_tools(ui.ctx(), |_, cx| add_walls(cx, walls, crossings));
            }
            if ui.button("Don't split").clicked() {
                keep = false;
                let walls = walls.to_vec();
                self.with_tools(ui.ctx(), |_, cx| add_walls(cx, walls, &[]));
            }
            if ui.button("Cancel").clicked() {
                keep = false;
            }
        });
        keep
    }

    fn recover_dialog(
        &mut self,
        ui: &mut Ui,
        level: &Level,
        original: Option<&PathBuf>,
        age: &str,
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
                self.open_document(level.clone(), Source::Recovered(original.cloned()));
                self.status = "recovered the autosaved level: save it to keep it".into();
            }
            if ui.button("Discard it").clicked() {
                keep = false;
                self.session.clear_recovery();
            }
        });
        keep
    }

    /// The editor's own path dialog (where the system has no file dialog, and in tests).
    fn path_dialog(&mut self, ctx: &egui::Context, purpose: PathPurpose, mut text: String) {
        let title = match purpose {
            PathPurpose::Open => "Open level",
            PathPurpose::SaveAs => "Save level as",
            PathPurpose::Export => "Export game-ready level",
            PathPurpose::ImportObj => "Import an OBJ mesh",
            PathPurpose::OpenRecording => "Open a game's recording",
        };
        let mut keep = true;
        let mut chosen = None;
        egui::Modal::new(egui::Id::unique("path dialog")).show(ctx, |ui| {
            ui.heading(title);
            let l = ui.label(match purpose {
                PathPurpose::ImportObj => "File path (.obj):",
                PathPurpose::OpenRecording => "File path (.crec):",
                PathPurpose::Open | PathPurpose::SaveAs | PathPurpose::Export => {
                    "File path (.ron):"
                }
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
        if keep && self.session.dialog.is_none() {
            self.session.dialog = Some(Dialog::Path { purpose, text });
        }
    }
}

/// The F1 window: every command with a key, scrolled in a window of fixed size (so it does not move under
/// the pointer as the list lays out).
fn shortcuts_dialog(ui: &mut Ui) -> bool {
    ui.heading("Keyboard shortcuts");
    let height = (ui.ctx().content_rect().height() - 160.0).max(120.0);
    egui::ScrollArea::vertical()
        .max_height(height)
        .auto_shrink([false, false])
        .show(ui, super::menus::shortcut_list);
    !ui.button("Close").clicked()
}
