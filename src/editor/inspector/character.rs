//! The level's character in the inspector: its values (the controller's and the body's), each a number field with its unit and limits,
//! checked by the runtime's own rule (a refusal stays beside the field with the reason, nothing is
//! clamped); a level without a character shows the defaults it uses, with Add (write them into the level)
//! and, once it has one, Remove (back to the default).

use egui::Ui;

use super::game::{report, show_error};
use super::{FieldEdit, FieldSpec, InspectorState, Rule, number_field};
use crate::editor::document::character::{self as edits, CharacterField};
use crate::editor::document::{Document, LabelledEdit};

/// The "Character" section, pushing the edits it asks for to `out`.
pub(super) fn section(
    ui: &mut Ui,
    doc: &Document,
    state: &mut InspectorState,
    out: &mut Vec<LabelledEdit>,
) {
    let level = doc.level();
    let c = edits::effective(level);
    let focus_here = state
        .focus
        .as_deref()
        .is_some_and(|f| f.starts_with("character"));
    egui::CollapsingHeader::new("Character")
        .default_open(true)
        .open(focus_here.then_some(true))
        .show(ui, |ui| {
            ui.weak(format!(
                "capsule {} m wide, {} m tall (drawn at the walker start)",
                c.radius * 2.0,
                c.height
            ));
            // The words on a line of their own: beside them the button went past the panel's edge.
            if level.character.is_some() {
                ui.label("the level's own character");
                if ui
                    .button("Remove the character")
                    .on_hover_text("Remove it from the level: the default character is used")
                    .clicked()
                {
                    report(state, "character", edits::remove(level), out);
                }
            } else {
                ui.weak("the default character (not in the level)");
                if ui
                    .button("Add a character")
                    .on_hover_text("Write the default character into the level")
                    .clicked()
                {
                    report(state, "character", edits::add(level), out);
                }
            }
            for f in CharacterField::ALL {
                field_row(ui, doc, state, f, out);
            }
        });
}

/// One value: its field, unit and limits, and the reason when a value was refused.
fn field_row(
    ui: &mut Ui,
    doc: &Document,
    state: &mut InspectorState,
    f: CharacterField,
    out: &mut Vec<LabelledEdit>,
) {
    let level = doc.level();
    let key = format!("character:{}", f.name());
    let path = format!("character.{}", f.name());
    let note = format!("{} {}", f.unit(), f.limits());
    let current = f.get(&edits::effective(level)) as f32;
    let spec = FieldSpec {
        key: &key,
        label: f.name(),
        current: Some(current),
        hint: "",
        rule: Rule::Finite,
        optional: false,
        note: note.trim(),
        path: Some(&path),
    };
    let asked = ui.scope(|ui| number_field(ui, state, &spec));
    asked.response.on_hover_text(f.help());
    if let Some(FieldEdit::Set(Some(v))) = asked.inner {
        let merge = Some(format!("{key}#{}", state.session));
        let edit = edits::set_field(level, f, f64::from(v), merge);
        report(state, &key, edit, out);
    }
    show_error(ui, state, &key);
}
