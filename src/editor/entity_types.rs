//! The Entity types tab: the level's entity types (add, rename, remove; colour, count limits, must reach) and each
//! type's typed fields (add, rename, remove; kind, bounds, enum values, reference target, required,
//! default). Renames carry every entity along in one undo step; invalid definitions are refused with the
//! reason (see `document::game`).

use std::collections::HashMap;

use egui::{Color32, RichText, Ui};

use crate::editor::document::game as edits;
use crate::editor::document::{Document, LabelledEdit, count_noun};
use crate::editor::theme;
use crate::level::{EntityType, FieldDef, FieldKind, Level, ObjectId, Value};

/// The tab's own state: the type shown, names being typed, the last refusal.
#[derive(Default)]
pub struct EntityTypesState {
    /// The type whose fields are shown.
    pub selected: Option<String>,
    new_type: String,
    new_field: (String, usize),
    buffers: HashMap<String, String>,
    /// Why the last change was refused.
    pub error: Option<String>,
    /// Counts pointer releases and keyboard focus changes: changes of one setting within one session (a
    /// drag, typing) merge into one undo step.
    session: u64,
}

const KINDS: [&str; 8] = [
    "Bool", "Int", "Float", "Text", "Enum", "Color", "Point", "Ref",
];

fn kind_index(k: &FieldKind) -> usize {
    KINDS.iter().position(|n| *n == k.name()).unwrap_or(0)
}

fn kind_named(i: usize, old: &FieldKind) -> FieldKind {
    match i {
        0 => FieldKind::Bool,
        1 => FieldKind::Int {
            min: None,
            max: None,
        },
        2 => FieldKind::Float {
            min: None,
            max: None,
        },
        3 => FieldKind::Text,
        4 => match old {
            FieldKind::Enum(v) => FieldKind::Enum(v.clone()),
            _ => FieldKind::Enum(vec!["a".into(), "b".into()]),
        },
        5 => FieldKind::Color,
        6 => FieldKind::Point,
        _ => FieldKind::Ref { entity_type: None },
    }
}

/// The tab. Returns the edits it asks for (applied by the caller as commands).
pub fn panel(ui: &mut Ui, doc: &Document, state: &mut EntityTypesState) -> Vec<LabelledEdit> {
    let level = doc.level();
    let mut out = Vec::new();
    if ui.input(|i| i.pointer.any_released() || i.key_pressed(egui::Key::Tab)) {
        state.session += 1;
    }
    let mut push = |state: &mut EntityTypesState, e: Result<LabelledEdit, String>| match e {
        Ok(e) => {
            state.error = None;
            out.push(e);
        }
        Err(why) => state.error = Some(why),
    };
    if state
        .selected
        .as_ref()
        .is_none_or(|s| level.entity_type(s).is_none())
    {
        state.selected = level.entity_types.first().map(|t| t.name.clone());
    }
    if let Some(why) = &state.error {
        ui.colored_label(theme::ERROR_TEXT, format!("refused: {why}"));
    }
    ui.horizontal_top(|ui| {
        ui.vertical(|ui| {
            ui.set_width(190.0);
            type_list(ui, level, state, &mut push);
        });
        ui.separator();
        ui.vertical(|ui| {
            let Some(ty) = state
                .selected
                .clone()
                .and_then(|s| level.entity_type(&s).cloned())
            else {
                ui.weak("No entity types yet. Name one on the left and press Add: a spawn point, a pickup, a door. Then place entities of it with the Entity tool (E).");
                return;
            };
            egui::ScrollArea::vertical()
                .id_salt("entity type fields")
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    type_settings(ui, level, &ty, state, &mut push);
                    ui.separator();
                    fields_grid(ui, level, &ty, state, &mut push);
                });
        });
    });
    out
}

type Push<'a> = dyn FnMut(&mut EntityTypesState, Result<LabelledEdit, String>) + 'a;

fn swatch(ui: &mut Ui, c: Color32) {
    let (r, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
    ui.painter().rect_filled(r, 2.0, c);
}

fn type_list(ui: &mut Ui, level: &Level, state: &mut EntityTypesState, push: &mut Push<'_>) {
    ui.strong("Entity types");
    egui::ScrollArea::vertical()
        .id_salt("entity types")
        .max_height(ui.available_height() - 30.0)
        .show(ui, |ui| {
            for t in &level.entity_types {
                ui.horizontal(|ui| {
                    swatch(ui, theme::entity_color(level, &t.name));
                    let n = level.entities_of(&t.name).count();
                    let sel = state.selected.as_deref() == Some(t.name.as_str());
                    if ui
                        .selectable_label(sel, format!("{} ({n})", t.name))
                        .clicked()
                    {
                        state.selected = Some(t.name.clone());
                    }
                });
            }
        });
    ui.horizontal(|ui| {
        let l = ui.label("New type");
        let r = ui
            .add(
                egui::TextEdit::singleline(&mut state.new_type)
                    .hint_text("name")
                    .desired_width(90.0),
            )
            .labelled_by(l.id);
        let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Add").clicked() || enter {
            let name = state.new_type.trim().to_owned();
            let e = edits::add_type(level, &name);
            if e.is_ok() {
                state.new_type.clear();
                state.selected = Some(name);
            }
            push(state, e);
        }
    });
}

/// A text field that commits on Enter or leaving it: returns the new text then.
fn committed_text(
    ui: &mut Ui,
    buffers: &mut HashMap<String, String>,
    key: &str,
    current: &str,
    width: f32,
) -> Option<String> {
    let mut text = buffers
        .get(key)
        .cloned()
        .unwrap_or_else(|| current.to_owned());
    let r = ui.add_sized(
        [width, 20.0],
        egui::TextEdit::singleline(&mut text).desired_width(width),
    );
    if r.changed() {
        buffers.insert(key.to_owned(), text.clone());
    }
    if r.lost_focus() {
        buffers.remove(key);
        return (text != current).then_some(text);
    }
    None
}

fn type_settings(
    ui: &mut Ui,
    level: &Level,
    ty: &EntityType,
    state: &mut EntityTypesState,
    push: &mut Push<'_>,
) {
    let n = level.entities_of(&ty.name).count();
    ui.horizontal(|ui| {
        ui.label("name");
        if let Some(new) = committed_text(
            ui,
            &mut state.buffers,
            &format!("type:{}", ty.name),
            &ty.name,
            140.0,
        ) {
            let e = edits::rename_type(level, &ty.name, new.trim());
            if e.is_ok() {
                state.selected = Some(new.trim().to_owned());
            }
            push(state, e);
        }
        let mut has_color = ty.color.is_some();
        let (r, g, b) = ty.color.unwrap_or((250, 120, 120));
        let mut c = Color32::from_rgb(r, g, b);
        let mut changed = ui.checkbox(&mut has_color, "colour").changed();
        if has_color {
            changed |= ui.color_edit_button_srgba(&mut c).changed();
        }
        let mut min = ty.min_count;
        let mut max = ty.max_count;
        changed |= optional_count(ui, "at least", &mut min);
        changed |= optional_count(ui, "at most", &mut max);
        if changed {
            let color = has_color.then(|| (c.r(), c.g(), c.b()));
            let merge = format!("type:{}#{}", ty.name, state.session);
            let e = edits::set_type_settings(level, &ty.name, color, min, max).map(|mut e| {
                e.merge_key = Some(merge);
                e
            });
            push(state, e);
        }
        let mut must_reach = ty.must_reach;
        if ui
            .checkbox(&mut must_reach, "must reach")
            .on_hover_text(
                "Every entity of this type must be reachable by the level's character from the walker start \
                 (its position taken as the feet). `collidoscope check --reach` reports each one that is not, \
                 with the limit in the way (a step too high, a door too narrow, a ceiling too low, …).",
            )
            .changed()
        {
            push(
                state,
                edits::set_type_must_reach(level, &ty.name, must_reach),
            );
        }
        if ui
            .button(RichText::new("Remove type").color(theme::ERROR_TEXT))
            .on_hover_text(format!(
                "Remove \"{}\" and its {} (Ctrl+Z brings them back)",
                ty.name,
                count_noun(n, "entity")
            ))
            .clicked()
        {
            push(state, edits::remove_type(level, &ty.name));
        }
    });
}

fn optional_count(ui: &mut Ui, label: &str, v: &mut Option<u32>) -> bool {
    let mut on = v.is_some();
    let mut n = v.unwrap_or(1);
    let mut changed = ui.checkbox(&mut on, label).changed();
    if on {
        changed |= ui.add(egui::DragValue::new(&mut n).speed(0.1)).changed();
    }
    *v = on.then_some(n);
    changed
}

fn fields_grid(
    ui: &mut Ui,
    level: &Level,
    ty: &EntityType,
    state: &mut EntityTypesState,
    push: &mut Push<'_>,
) {
    egui::Grid::new(("fields", &ty.name))
        .striped(true)
        .num_columns(6)
        .show(ui, |ui| {
            for h in ["field", "kind", "details", "required", "default", ""] {
                ui.strong(h);
            }
            ui.end_row();
            for def in &ty.fields {
                field_row(ui, level, ty, def, state, push);
            }
        });
    new_field_row(ui, level, ty, state, push);
}

/// One field of a type: name, kind, details, required, default and Remove, each edit one checked step.
fn field_row(
    ui: &mut Ui,
    level: &Level,
    ty: &EntityType,
    def: &FieldDef,
    state: &mut EntityTypesState,
    push: &mut Push<'_>,
) {
    let mut new = def.clone();
    let key = format!("field:{}:{}", ty.name, def.name);
    if let Some(name) = committed_text(ui, &mut state.buffers, &key, &def.name, 110.0) {
        new.name = name.trim().to_owned();
    }
    let mut k = kind_index(&def.kind);
    egui::ComboBox::from_id_salt((&key, "kind"))
        .width(60.0)
        .selected_text(KINDS[k])
        .show_ui(ui, |ui| {
            for (i, name) in KINDS.iter().enumerate() {
                ui.selectable_value(&mut k, i, *name);
            }
        });
    if k != kind_index(&def.kind) {
        new.kind = kind_named(k, &def.kind);
        new.default = None;
    }
    ui.horizontal(|ui| kind_details(ui, level, &mut new.kind, &mut state.buffers, &key));
    ui.checkbox(&mut new.required, "");
    ui.horizontal(|ui| default_editor(ui, &mut new));
    let remove = ui
        .small_button("Remove")
        .on_hover_text("Remove the field and every entity's value of it");
    ui.end_row();
    if remove.clicked() {
        push(state, edits::remove_field(level, &ty.name, &def.name));
    } else if new != *def {
        // A rename is its own step; kind, bounds, required and default changes of one field
        // in one session (a drag, typing) merge.
        let merge = (new.name == def.name).then(|| format!("{key}#{}", state.session));
        let e = edits::set_field(level, &ty.name, &def.name, new).map(|mut e| {
            e.merge_key = merge;
            e
        });
        push(state, e);
    }
}

/// The row that adds a field by name and kind.
fn new_field_row(
    ui: &mut Ui,
    level: &Level,
    ty: &EntityType,
    state: &mut EntityTypesState,
    push: &mut Push<'_>,
) {
    ui.horizontal(|ui| {
        let l = ui.label("New field");
        ui.add(
            egui::TextEdit::singleline(&mut state.new_field.0)
                .hint_text("name")
                .desired_width(110.0),
        )
        .labelled_by(l.id);
        egui::ComboBox::from_id_salt("new field kind")
            .width(60.0)
            .selected_text(KINDS[state.new_field.1.min(KINDS.len() - 1)])
            .show_ui(ui, |ui| {
                for (i, name) in KINDS.iter().enumerate() {
                    ui.selectable_value(&mut state.new_field.1, i, *name);
                }
            });
        if ui.button("Add field").clicked() {
            let def = FieldDef {
                name: state.new_field.0.trim().to_owned(),
                kind: kind_named(state.new_field.1, &FieldKind::Bool),
                required: false,
                default: None,
            };
            let e = edits::add_field(level, &ty.name, def);
            if e.is_ok() {
                state.new_field.0.clear();
            }
            push(state, e);
        }
    });
}

/// Bounds of numbers, an enum's names (comma separated), a reference's target type.
fn kind_details(
    ui: &mut Ui,
    level: &Level,
    kind: &mut FieldKind,
    buffers: &mut HashMap<String, String>,
    key: &str,
) {
    match kind {
        FieldKind::Int { min, max } => {
            optional_number(ui, "min", min);
            optional_number(ui, "max", max);
        }
        FieldKind::Float { min, max } => {
            optional_number(ui, "min", min);
            optional_number(ui, "max", max);
        }
        FieldKind::Enum(names) => {
            let joined = names.join(", ");
            if let Some(text) = committed_text(ui, buffers, &format!("{key}:enum"), &joined, 150.0)
            {
                *names = text
                    .split(',')
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty())
                    .collect();
            }
        }
        FieldKind::Ref { entity_type } => {
            egui::ComboBox::from_id_salt((key, "target"))
                .width(100.0)
                .selected_text(entity_type.as_deref().unwrap_or("any object"))
                .show_ui(ui, |ui| {
                    ui.selectable_value(entity_type, None, "any object");
                    for t in &level.entity_types {
                        ui.selectable_value(entity_type, Some(t.name.clone()), &t.name);
                    }
                });
        }
        _ => {
            ui.weak("—");
        }
    }
}

fn optional_number<T: egui::emath::Numeric + Default>(ui: &mut Ui, label: &str, v: &mut Option<T>) {
    let mut on = v.is_some();
    ui.checkbox(&mut on, label);
    let mut n = v.unwrap_or_default();
    if on {
        ui.add(egui::DragValue::new(&mut n).speed(0.1));
    }
    *v = on.then_some(n);
}

/// Whether the field has a default, and its value.
fn default_editor(ui: &mut Ui, def: &mut FieldDef) {
    let mut on = def.default.is_some();
    if ui.checkbox(&mut on, "").changed() {
        def.default = on.then(|| edits::starting_value(&def.kind, ObjectId(0)));
    }
    let Some(v) = &mut def.default else { return };
    match v {
        Value::Bool(b) => {
            ui.checkbox(b, "");
        }
        Value::Int(i) => {
            ui.add(egui::DragValue::new(i).speed(0.1));
        }
        Value::Float(f) => {
            ui.add(egui::DragValue::new(f).speed(0.05));
        }
        Value::Text(t) => {
            ui.add(egui::TextEdit::singleline(t).desired_width(80.0));
        }
        Value::Enum(e) => {
            if let FieldKind::Enum(names) = &def.kind {
                egui::ComboBox::from_id_salt(("default", &def.name))
                    .width(70.0)
                    .selected_text(e.as_str())
                    .show_ui(ui, |ui| {
                        for n in names {
                            ui.selectable_value(e, n.clone(), n);
                        }
                    });
            }
        }
        Value::Color((r, g, b, a)) => {
            let mut c = Color32::from_rgba_unmultiplied(*r, *g, *b, *a);
            if ui.color_edit_button_srgba(&mut c).changed() {
                [*r, *g, *b, *a] = c.to_srgba_unmultiplied();
            }
        }
        Value::Point((x, y, z)) => {
            for c in [x, y, z] {
                ui.add(egui::DragValue::new(c).speed(0.05));
            }
        }
        Value::Ref(id) => {
            ui.add(egui::DragValue::new(&mut id.0).prefix("#"));
        }
    }
}
