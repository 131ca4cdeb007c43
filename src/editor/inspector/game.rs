//! The inspector's game data: an entity's type and typed fields, each drawn with the widget its kind needs
//! (`value.rs`: the widgets and the values picked in the view), a trigger prism's corners, and the
//! free-form properties of any object. A value that breaks its field's rule is refused and the reason
//! stays beside the field (`report`, `show_error`, which the other sections share); it is never
//! clamped.

use egui::{RichText, Ui};

use super::InspectorState;
use super::value::{Slot, WidgetCtx, value_widget};
use crate::editor::document::game as edits;
use crate::editor::document::{Document, LabelledEdit, Object};
use crate::editor::theme;
use crate::level::{EntityObject, FieldKind, Level};

const LABEL_W: f32 = 110.0;

/// The typed fields of one entity (and its type), pushing the edits they ask for to `out`.
pub(super) fn entity_section(
    ui: &mut Ui,
    doc: &Document,
    state: &mut InspectorState,
    e: &EntityObject,
    out: &mut Vec<LabelledEdit>,
) {
    let level = doc.level();
    type_row(ui, level, state, e, out);
    let Some(ty) = level.entity_type(&e.entity_type) else {
        ui.colored_label(
            theme::ERROR_TEXT,
            format!(
                "unknown type \"{}\": define it in the Entity types tab",
                e.entity_type
            ),
        );
        return;
    };
    if ty.fields.is_empty() {
        ui.weak("its type has no fields (add them in the Entity types tab)");
    }
    for def in &ty.fields {
        typed_field_row(ui, level, state, e, def, out);
    }
    for (name, v) in e.fields.iter().filter(|(n, _)| ty.field(n).is_none()) {
        ui.horizontal(|ui| {
            ui.colored_label(
                theme::ERROR_TEXT,
                format!("{name} = {v}: not a field of \"{}\"", ty.name),
            );
            if ui.small_button("Remove").clicked() {
                let mut e = e.clone();
                e.fields.remove(name);
                out.push(LabelledEdit::new(
                    format!("Remove field {name} of entity {}", e.id),
                    crate::editor::document::Edit {
                        replace: vec![Object::Entity(e)],
                        ..Default::default()
                    },
                    None,
                ));
            }
        });
    }
}

/// The entity's type, as a combo of the level's types.
fn type_row(
    ui: &mut Ui,
    level: &Level,
    state: &mut InspectorState,
    e: &EntityObject,
    out: &mut Vec<LabelledEdit>,
) {
    ui.horizontal(|ui| {
        let l = ui.add_sized([LABEL_W, 18.0], egui::Label::new("type"));
        let mut chosen = None;
        egui::ComboBox::from_id_salt(("entity type", e.id))
            .selected_text(&e.entity_type)
            .show_ui(ui, |ui| {
                for t in &level.entity_types {
                    if ui
                        .selectable_label(t.name == e.entity_type, &t.name)
                        .clicked()
                    {
                        chosen = Some(t.name.clone());
                    }
                }
            })
            .response
            .labelled_by(l.id);
        if let Some(t) = chosen.filter(|t| *t != e.entity_type) {
            let edit = edits::set_entity_type(level, e.id, &t);
            report(state, "entity type", edit, out);
        }
    });
    show_error(ui, state, "entity type");
}

/// One typed field: its name (bold when required), its widget showing the value or the type's default,
/// and Reset when the entity gives its own value.
fn typed_field_row(
    ui: &mut Ui,
    level: &Level,
    state: &mut InspectorState,
    e: &EntityObject,
    def: &crate::level::FieldDef,
    out: &mut Vec<LabelledEdit>,
) {
    let key = format!("entity:{}:{}", e.id.0, def.name);
    let given = e.fields.get(&def.name);
    ui.horizontal(|ui| {
        let mut label = RichText::new(&def.name);
        if def.required {
            label = label.strong();
        }
        let l = ui
            .add_sized([LABEL_W, 18.0], egui::Label::new(label))
            .on_hover_text(field_help(&def.kind, def.required));
        let path = format!("fields.{}", def.name);
        let value = given
            .or(def.default.as_ref())
            .cloned()
            .unwrap_or_else(|| edits::starting_value(&def.kind, e.id));
        let ctx = WidgetCtx {
            level,
            object: e.id,
            key: &key,
            path: &path,
            slot: Slot::Field(def.name.clone()),
            label: l.id,
        };
        if let Some(v) = value_widget(ui, state, &ctx, &def.kind, &value) {
            let merge = Some(format!("{key}#{}", state.session));
            let edit = edits::set_entity_field(level, e.id, &def.name, Some(v), merge);
            report(state, &key, edit, out);
        }
        if given.is_none() {
            ui.weak(if def.default.is_some() {
                "default"
            } else {
                "unset"
            });
        } else if ui
            .small_button("Reset")
            .on_hover_text("Reset to the type's default")
            .clicked()
        {
            let edit = edits::set_entity_field(level, e.id, &def.name, None, None);
            report(state, &key, edit, out);
        }
    });
    show_error(ui, state, &key);
}

/// A prism trigger's outline: each corner's `x` and `z` as drag values, Remove (refused below three
/// corners), and Add (a corner halfway along the last edge). An outline that encloses no area is refused
/// with the reason.
pub(super) fn prism_points(
    ui: &mut Ui,
    state: &mut InspectorState,
    t: &crate::level::TriggerObject,
    out: &mut Vec<LabelledEdit>,
) {
    let crate::level::TriggerShape::Prism { points, .. } = &t.shape else {
        return;
    };
    let key = format!("prism:{}", t.id.0);
    let mut new_points = None;
    let mut label = "";
    ui.label(format!("outline ({} corners)", points.len()));
    for (k, p) in points.iter().enumerate() {
        ui.horizontal(|ui| {
            let (mut x, mut z) = (p.x, p.y);
            ui.add_sized([LABEL_W, 18.0], egui::Label::new(format!("corner {k}")));
            let rx = ui.add(egui::DragValue::new(&mut x).speed(0.05).prefix("x "));
            let rz = ui.add(egui::DragValue::new(&mut z).speed(0.05).prefix("z "));
            if rx.changed() || rz.changed() {
                let mut v = points.clone();
                v[k] = glam::Vec2::new(x, z);
                new_points = Some(v);
                label = "Move a prism corner";
            }
            if rx.drag_stopped() || rz.drag_stopped() || rx.lost_focus() || rz.lost_focus() {
                state.session += 1;
            }
            if ui.small_button("Remove").clicked() {
                let mut v = points.clone();
                v.remove(k);
                new_points = Some(v);
                label = "Remove a prism corner";
            }
        });
    }
    if ui.small_button("Add corner").clicked()
        && let (Some(&a), Some(&b)) = (points.last(), points.first())
    {
        let mut v = points.clone();
        v.push((a + b) * 0.5);
        new_points = Some(v);
        label = "Add a prism corner";
    }
    if let Some(v) = new_points {
        let e = prism_edit(t, v, label, Some(format!("{key}#{}", state.session)));
        report(state, &key, e, out);
    }
    show_error(ui, state, &key);
}

/// The edit giving trigger `t` (a prism) the outline `points`, or why not: fewer than three corners, a
/// corner not finite, no area, an outline that crosses itself.
fn prism_edit(
    t: &crate::level::TriggerObject,
    points: Vec<glam::Vec2>,
    label: &str,
    merge: Option<String>,
) -> Result<LabelledEdit, String> {
    if points.len() < 3 {
        return Err("a prism needs at least 3 corners".into());
    }
    if !points.iter().all(|p| p.is_finite()) {
        return Err("corners must be finite".into());
    }
    if crate::trigger::triangulate(&points).is_none() {
        return Err("the outline must enclose some area without crossing itself".into());
    }
    let mut t = t.clone();
    if let crate::level::TriggerShape::Prism { points: p, .. } = &mut t.shape {
        *p = points;
    }
    Ok(LabelledEdit::new(
        label,
        crate::editor::document::Edit {
            replace: vec![Object::Trigger(t)],
            ..Default::default()
        },
        merge,
    ))
}

/// The free-form properties of one object: each value with its kind's widget, rename, remove, and a row
/// to add one.
pub(super) fn properties_section(
    ui: &mut Ui,
    doc: &Document,
    state: &mut InspectorState,
    object: &Object,
    out: &mut Vec<LabelledEdit>,
) {
    let level = doc.level();
    let n = object.properties().len();
    let focus_here = state
        .focus
        .as_deref()
        .is_some_and(|f| f.starts_with("properties"));
    egui::CollapsingHeader::new(format!("Properties ({n})"))
        .id_salt(("properties", object.id()))
        .default_open(true)
        .open(focus_here.then_some(true))
        .show(ui, |ui| {
            for (name, v) in object.properties() {
                let key = format!("prop:{}:{name}", object.id().0);
                ui.horizontal(|ui| {
                    let l = property_name(ui, state, object, name, out);
                    let kind = edits::property_kind(v);
                    let path = format!("properties.{name}");
                    let ctx = WidgetCtx {
                        level,
                        object: object.id(),
                        key: &key,
                        path: &path,
                        slot: Slot::Property(name.clone()),
                        label: l,
                    };
                    if let Some(nv) = value_widget(ui, state, &ctx, &kind, v) {
                        let merge = Some(format!("{key}#{}", state.session));
                        let e = edits::set_property(level, object, name, Some(nv), merge);
                        report(state, &key, e, out);
                    }
                    if ui
                        .small_button("Remove")
                        .on_hover_text("Remove this property")
                        .clicked()
                    {
                        let e = edits::set_property(level, object, name, None, None);
                        report(state, &key, e, out);
                    }
                });
                show_error(ui, state, &key);
            }
            add_property_row(ui, state, level, object, out);
        });
}

/// A property's name as an editable text; renames on Enter or leaving the field.
fn property_name(
    ui: &mut Ui,
    state: &mut InspectorState,
    object: &Object,
    name: &str,
    out: &mut Vec<LabelledEdit>,
) -> egui::Id {
    let key = format!("propname:{}:{name}", object.id().0);
    let mut text = state
        .buffers
        .get(&key)
        .cloned()
        .unwrap_or_else(|| name.to_owned());
    let resp = ui.add(egui::TextEdit::singleline(&mut text).desired_width(LABEL_W - 8.0));
    if resp.changed() {
        state.buffers.insert(key.clone(), text.clone());
    }
    if resp.lost_focus() {
        state.buffers.remove(&key);
        if text != name {
            report(
                state,
                &format!("prop:{}:{name}", object.id().0),
                edits::rename_property(object, name, text.trim()),
                out,
            );
        }
    }
    resp.id
}

/// The row that adds a property: its name, its kind, Add.
fn add_property_row(
    ui: &mut Ui,
    state: &mut InspectorState,
    level: &Level,
    object: &Object,
    out: &mut Vec<LabelledEdit>,
) {
    const KINDS: [&str; 7] = ["Bool", "Int", "Float", "Text", "Color", "Point", "Ref"];
    let key = format!("prop-new:{}", object.id().0);
    ui.horizontal(|ui| {
        let l = ui.label("New property");
        let mut text = state.new_property.0.clone();
        ui.add(
            egui::TextEdit::singleline(&mut text)
                .hint_text("name")
                .desired_width(LABEL_W - 8.0),
        )
        .labelled_by(l.id);
        state.new_property.0 = text;
        egui::ComboBox::from_id_salt(("new property kind", object.id()))
            .width(64.0)
            .selected_text(KINDS[state.new_property.1.min(KINDS.len() - 1)])
            .show_ui(ui, |ui| {
                for (i, k) in KINDS.iter().enumerate() {
                    ui.selectable_value(&mut state.new_property.1, i, *k);
                }
            })
            .response
            .labelled_by(l.id);
        if ui.button("Add").clicked() {
            let kind = match state.new_property.1 {
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
                4 => FieldKind::Color,
                5 => FieldKind::Point,
                _ => FieldKind::Ref { entity_type: None },
            };
            let name = state.new_property.0.trim().to_owned();
            let v = edits::starting_value(&kind, object.id());
            let e = edits::add_property(level, object, &name, v);
            if e.is_ok() {
                state.new_property.0.clear();
            }
            report(state, &key, e, out);
        }
    });
    show_error(ui, state, &key);
}

/// What a field accepts, for its tooltip.
fn field_help(kind: &FieldKind, required: bool) -> String {
    let what = match kind {
        FieldKind::Int { min, max } => format!(
            "a whole number{}",
            bounds_text(min.map(|v| v as f64), max.map(|v| v as f64))
        ),
        FieldKind::Float { min, max } => format!("a number{}", bounds_text(*min, *max)),
        FieldKind::Enum(names) => format!("one of {}", names.join(", ")),
        FieldKind::Ref {
            entity_type: Some(t),
        } => format!("a \"{t}\" entity"),
        FieldKind::Ref { entity_type: None } => "any object of the level".into(),
        k => k.name().to_lowercase(),
    };
    if required {
        format!("{what} (required)")
    } else {
        what
    }
}

fn bounds_text(min: Option<f64>, max: Option<f64>) -> String {
    match (min, max) {
        (Some(lo), Some(hi)) => format!(" from {lo} to {hi}"),
        (Some(lo), None) => format!(", at least {lo}"),
        (None, Some(hi)) => format!(", at most {hi}"),
        (None, None) => String::new(),
    }
}

/// Push an accepted edit (clearing the field's error) or keep the refusal's reason beside the field.
pub(super) fn report(
    state: &mut InspectorState,
    key: &str,
    edit: Result<LabelledEdit, String>,
    out: &mut Vec<LabelledEdit>,
) {
    match edit {
        Ok(e) => {
            state.errors.remove(key);
            out.push(e);
        }
        Err(why) => {
            state.errors.insert(key.to_owned(), why);
        }
    }
}

pub(super) fn show_error(ui: &mut Ui, state: &InspectorState, key: &str) {
    if let Some(why) = state.errors.get(key) {
        ui.label(
            RichText::new(format!("refused: {why}"))
                .color(theme::ERROR_TEXT)
                .small(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{ObjectId, Value};

    #[test]
    fn prism_outlines_are_checked() {
        let t = crate::level::TriggerObject {
            id: ObjectId(4),
            name: None,
            shape: crate::level::TriggerShape::Prism {
                points: vec![glam::Vec2::ZERO, glam::Vec2::X, glam::Vec2::Y],
                bottom: 0.0,
                top: 1.0,
            },
            properties: Default::default(),
        };
        let v = |pts: &[(f32, f32)]| pts.iter().map(|&(x, z)| glam::Vec2::new(x, z)).collect();
        assert!(prism_edit(&t, v(&[(0.0, 0.0), (1.0, 0.0)]), "x", None).is_err());
        assert!(prism_edit(&t, v(&[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)]), "x", None).is_err());
        assert!(prism_edit(&t, v(&[(0.0, 0.0), (f32::NAN, 0.0), (0.0, 1.0)]), "x", None).is_err());
        let ok = prism_edit(
            &t,
            v(&[(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)]),
            "x",
            None,
        );
        let Object::Trigger(moved) = &ok.unwrap().edit.replace[0] else {
            panic!()
        };
        assert!(
            matches!(&moved.shape, crate::level::TriggerShape::Prism { points, .. } if points.len() == 4)
        );
    }

    /// The one value-to-kind rule reaches both of its users: the inspector draws every kind of property
    /// value with its kind's own widget (never the "make it" button of a value of another kind), and the
    /// document stores every such value when it is set again.
    #[test]
    fn every_property_value_fits_the_kind_both_sides_use() {
        use egui_kittest::kittest::Queryable;
        let values = [
            Value::Bool(true),
            Value::Int(3),
            Value::Float(0.5),
            Value::Text("hello".into()),
            Value::Enum("red".into()),
            Value::Color((1, 2, 3, 4)),
            Value::Point((1.0, 2.0, 3.0)),
            Value::Ref(ObjectId(1)),
        ];
        let mut level = Level::default();
        level.entities.push(EntityObject {
            id: ObjectId(1),
            name: None,
            entity_type: "crate".into(),
            position: glam::Vec3::ZERO,
            yaw_deg: 0.0,
            fields: Default::default(),
            properties: values
                .iter()
                .enumerate()
                .map(|(k, v)| (format!("p{k}"), v.clone()))
                .collect(),
        });
        let doc = Document::new(level, None);
        let object = doc.object(ObjectId(1)).expect("the entity");
        for (name, v) in object.properties() {
            let kind = edits::property_kind(v);
            assert_eq!(doc.level().field_value_problem(&kind, v), None, "{name}");
            assert!(
                edits::set_property(doc.level(), &object, name, Some(v.clone()), None).is_ok(),
                "{name}"
            );
        }
        let mut state = InspectorState::default();
        let mut out = Vec::new();
        // The row's widgets are named by the inspector's grid around them, which this test leaves out.
        let harness = egui_kittest::Harness::builder()
            .with_accessibility_check(false)
            .build_ui(|ui| {
                properties_section(ui, &doc, &mut state, &object, &mut out);
            });
        assert!(harness.query_by_label_contains("make it").is_none());
        drop(harness);
        assert!(out.is_empty());
    }
}
