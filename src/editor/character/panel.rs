//! The Character tab: the character's last moves (the ring), pause and stepping through them, and the
//! selected move's workings.

use egui::{RichText, Ui};

use crate::character::Limit;
use crate::editor::character::model::{CharacterWalk, MoveEntry, RING_MOVES, TICK_HZ};
use crate::editor::character::workings::{self, limit_text, v3};
use crate::editor::command::Command;
use crate::editor::document::Document;
use crate::editor::theme;

/// What a click in the tab asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum PanelAction {
    /// Run a command (pause, step, back to start).
    Run(Command),
    /// Select the move of this tick.
    Select(u64),
}

/// Whether a limit is one a designer set (a riser, a slope) rather than an ordinary wall.
fn is_designed_limit(l: &Limit) -> bool {
    matches!(
        l,
        Limit::StepTooHigh { .. } | Limit::SlopeTooSteep { .. } | Limit::Inside { .. }
    )
}

/// The keys of a move, or the path point it walked to.
fn keys_text(m: &MoveEntry) -> String {
    m.path_step
        .map_or_else(|| m.input.keys_text(), |k| format!("path {k}"))
}

fn row_text(m: &MoveEntry, doc: &Document) -> RichText {
    let state = if m.after.grounded {
        "grounded"
    } else {
        "in the air"
    };
    let mut text = format!(
        "{:>6}  {:>6.2} s  {:<12} {}  {:<10}",
        m.tick,
        m.time(),
        keys_text(m),
        v3(m.result.feet),
        state
    );
    if m.result.stepped_up > 0.0 {
        text.push_str(&format!(" stepped up {:.2} m", m.result.stepped_up));
    }
    if let Some(l) = limit_text(&m.controller, &m.result, doc) {
        text.push_str("  ");
        text.push_str(&l);
    }
    if let Some(t) = workings::mover_text(&m.result, doc) {
        text.push_str("  ");
        text.push_str(&t);
    }
    let rich = RichText::new(text).monospace();
    match &m.result.limit {
        Some(l) if is_designed_limit(l) => rich.color(theme::ERROR_TEXT),
        Some(_) => rich.color(theme::WARNING_TEXT),
        None => rich,
    }
}

fn buttons(ui: &mut Ui, walk: &CharacterWalk, walking: bool, action: &mut Option<PanelAction>) {
    ui.horizontal_wrapped(|ui| {
        let pause = Command::CharacterPause;
        let name = if walk.paused { "Resume" } else { "Pause" };
        for (c, label) in [
            (pause, name),
            (
                Command::CharacterStepBack,
                Command::CharacterStepBack.spec().name,
            ),
            (
                Command::CharacterStepForward,
                Command::CharacterStepForward.spec().name,
            ),
            (
                Command::CharacterRestart,
                Command::CharacterRestart.spec().name,
            ),
        ] {
            let help = c.spec().help;
            if ui
                .add_enabled(walking, egui::Button::new(label))
                .on_hover_text(help)
                .clicked()
            {
                *action = Some(PanelAction::Run(c));
            }
        }
        ui.separator();
        let state = if !walking {
            "not walking".to_owned()
        } else if walk.paused {
            "paused: the character is frozen".to_owned()
        } else if walk.fell_out {
            "fell out of the level (Back to start)".to_owned()
        } else {
            "walking".to_owned()
        };
        ui.label(RichText::new(state).strong());
        ui.label(format!(
            "{} moves kept (the last {:.0} s at {:.0} Hz)",
            walk.moves().len(),
            RING_MOVES as f64 / TICK_HZ,
            TICK_HZ
        ));
    });
}

fn list(ui: &mut Ui, walk: &CharacterWalk, doc: &Document, action: &mut Option<PanelAction>) {
    const ROW: f32 = 18.0;
    let moves = walk.moves();
    let mut area = egui::ScrollArea::vertical()
        .id_salt("character_moves")
        .auto_shrink([false, false])
        .stick_to_bottom(!walk.paused);
    // A newly selected move (pause, the step commands) is scrolled into view, two rows from the top; the
    // list only lays out the rows in view, so the offset is computed.
    let seen = ui.make_persistent_id("character_moves_selection");
    if ui.data(|d| d.get_temp::<Option<u64>>(seen)) != Some(walk.selected) {
        ui.data_mut(|d| d.insert_temp(seen, walk.selected));
        if let (Some(m), Some(first)) = (walk.selected_move(), moves.front()) {
            let pitch = ROW + ui.spacing().item_spacing.y;
            let k = (m.tick - first.tick) as f32;
            area = area.vertical_scroll_offset(((k - 2.0) * pitch).max(0.0));
        }
    }
    area.show_rows(ui, ROW, moves.len(), |ui, rows| {
        for k in rows {
            let Some(m) = moves.get(k) else { continue };
            let selected = walk.selected == Some(m.tick);
            let text = row_text(m, doc);
            let full = text.text().to_owned();
            let row = ui
                .add(egui::Button::selectable(selected, text).truncate())
                .on_hover_text(full);
            if row.clicked() {
                *action = Some(PanelAction::Select(m.tick));
            }
        }
    });
}

/// The whole tab. `walking`: the 3D preview is in Walk mode (the commands apply).
pub fn character_panel(
    ui: &mut Ui,
    walk: &CharacterWalk,
    doc: &Document,
    walking: bool,
) -> Option<PanelAction> {
    let mut action = None;
    buttons(ui, walk, walking, &mut action);
    if walk.moves().is_empty() {
        ui.label(
            "No moves yet. Choose Walk in the 3D preview and move the level's character with W A S D \
             (the pointer over the preview; E jumps, Shift runs): every move and its workings show here.",
        );
        return action;
    }
    // The list on the left (two fifths), the selected move's workings on the right.
    let height = ui.available_height();
    let width = ui.available_width();
    let down = egui::Layout::top_down(egui::Align::Min);
    ui.horizontal_top(|ui| {
        ui.allocate_ui_with_layout(egui::vec2(width * 0.4, height), down, |ui| {
            list(ui, walk, doc, &mut action);
        });
        ui.separator();
        let rest = egui::vec2(ui.available_width(), height);
        ui.allocate_ui_with_layout(rest, down, |ui| selected(ui, walk, doc));
    });
    action
}

/// The selected move's workings, scrolled.
fn selected(ui: &mut Ui, walk: &CharacterWalk, doc: &Document) {
    egui::ScrollArea::vertical()
        .id_salt("character_workings")
        .auto_shrink([false, false])
        .show(ui, |ui| match walk.selected_move() {
            Some(m) => {
                ui.label(
                    RichText::new(format!(
                        "Move {} at {:.2} s: {}, velocity {} m/s",
                        m.tick,
                        m.time(),
                        m.path_step.map_or_else(
                            || format!("keys {}", m.input.keys_text()),
                            |k| format!("to the reach path's point {k}")
                        ),
                        v3(m.before.velocity)
                    ))
                    .strong(),
                );
                workings::workings(ui, "character", &m.controller, &m.result, doc);
            }
            None => {
                ui.weak("Select a move (or pause) to see its workings here and in both views.");
            }
        });
}
