//! The inspector's value widgets, each with what its kind needs (checkbox, drag value with its bounds
//! shown, enum combo, colour picker, text), and the values picked in the top-down view: a point or an
//! object reference asks for a click there ([`PickRequest`]), which the app turns into the edit. The
//! entity's fields and the properties that use these widgets are `game.rs`'s.

use egui::{Color32, Ui};

use super::InspectorState;
use crate::editor::document::game as edits;
use crate::editor::document::{LabelledEdit, Object};
use crate::level::{FieldKind, Level, ObjectId, Value};

/// Where a picked value goes: a typed field of an entity, or a free-form property of any object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slot {
    /// The entity's typed field of this name.
    Field(String),
    /// The object's free-form property of this name.
    Property(String),
}

/// What the next click in the top-down view picks for the inspector.
#[derive(Clone, Debug, PartialEq)]
pub struct PickRequest {
    /// The object whose value is picked.
    pub object: ObjectId,
    /// Which of its values.
    pub slot: Slot,
    /// A point (keeping this height) or an object.
    pub what: PickWhat,
}

/// What a [`PickRequest`] picks.
#[derive(Clone, Debug, PartialEq)]
pub enum PickWhat {
    /// A point on the floor, at height `y`.
    Point {
        /// The height the point keeps.
        y: f32,
    },
    /// An object (of this entity type, if any).
    Ref {
        /// The type the target must be.
        entity_type: Option<String>,
    },
}

impl PickRequest {
    /// The status line while it waits for a click.
    #[must_use]
    pub fn prompt(&self) -> String {
        let name = match &self.slot {
            Slot::Field(n) | Slot::Property(n) => n,
        };
        match &self.what {
            PickWhat::Point { .. } => format!("click a point in the view for {name} (Esc cancels)"),
            PickWhat::Ref {
                entity_type: Some(t),
            } => format!("click a \"{t}\" entity in the view for {name} (Esc cancels)"),
            PickWhat::Ref { entity_type: None } => {
                format!("click an object in the view for {name} (Esc cancels)")
            }
        }
    }

    /// The edit that stores `value` (what was picked) where the request points, or why it cannot.
    pub fn edit(&self, level: &Level, value: Value) -> Result<LabelledEdit, String> {
        match &self.slot {
            Slot::Field(f) => edits::set_entity_field(level, self.object, f, Some(value), None),
            Slot::Property(p) => {
                let o = Object::all(level)
                    .find(|o| o.id() == self.object)
                    .ok_or_else(|| format!("{} is no longer in the level", self.object))?;
                edits::set_property(level, &o, p, Some(value), None)
            }
        }
    }

    /// The value a click at floor point `(x, z)` on object `hit` (if any) picks, or why it picks nothing.
    pub fn value_at(&self, x: f32, z: f32, hit: Option<ObjectId>) -> Result<Value, String> {
        match &self.what {
            PickWhat::Point { y } => Ok(Value::Point((x, *y, z))),
            PickWhat::Ref { .. } => hit
                .map(Value::Ref)
                .ok_or_else(|| "no object under the pointer".to_owned()),
        }
    }
}

/// The bounds of a number field beside its drag value: `[0, 100]`, `[0, …]`.
fn range_hint(ui: &mut Ui, min: Option<f64>, max: Option<f64>) {
    if min.is_some() || max.is_some() {
        let f = |v: Option<f64>| v.map_or("…".to_owned(), |v| v.to_string());
        ui.weak(format!("[{}, {}]", f(min), f(max)));
    }
}

/// What one value widget needs to know besides the value.
pub(super) struct WidgetCtx<'a> {
    pub(super) level: &'a Level,
    pub(super) object: ObjectId,
    /// Its key in the inspector's buffers and errors.
    pub(super) key: &'a str,
    /// Its path as problems name it after the object (`fields.health`), to take focus.
    pub(super) path: &'a str,
    pub(super) slot: Slot,
    pub(super) label: egui::Id,
}

/// The widget for a value of `kind`; returns the new value when the user changed it (not yet checked).
pub(super) fn value_widget(
    ui: &mut Ui,
    state: &mut InspectorState,
    ctx: &WidgetCtx<'_>,
    kind: &FieldKind,
    value: &Value,
) -> Option<Value> {
    let (out, resp) = match (kind, value) {
        (FieldKind::Bool, Value::Bool(b)) => {
            let mut b = *b;
            let r = ui.checkbox(&mut b, "");
            (r.changed().then_some(Value::Bool(b)), r)
        }
        (FieldKind::Int { min, max }, Value::Int(v)) => {
            let mut v = *v;
            let r = ui.add(egui::DragValue::new(&mut v).speed(0.1));
            range_hint(ui, min.map(|v| v as f64), max.map(|v| v as f64));
            (r.changed().then_some(Value::Int(v)), r)
        }
        (FieldKind::Float { min, max }, Value::Float(v)) => {
            let mut v = *v;
            let speed = (v.abs() * 0.01).clamp(0.001, 10.0);
            let r = ui.add(egui::DragValue::new(&mut v).speed(speed).max_decimals(4));
            range_hint(ui, *min, *max);
            (r.changed().then_some(Value::Float(v)), r)
        }
        (FieldKind::Enum(names), Value::Enum(v)) => {
            let mut chosen = None;
            let r = egui::ComboBox::from_id_salt(ctx.key)
                .selected_text(v.as_str())
                .show_ui(ui, |ui| {
                    for n in names {
                        if ui.selectable_label(n == v, n).clicked() {
                            chosen = Some(Value::Enum(n.clone()));
                        }
                    }
                })
                .response;
            (chosen, r)
        }
        (FieldKind::Color, Value::Color((r, g, b, a))) => {
            let mut c = Color32::from_rgba_unmultiplied(*r, *g, *b, *a);
            let resp = ui.color_edit_button_srgba(&mut c);
            let [r, g, b, a] = c.to_srgba_unmultiplied();
            (resp.changed().then_some(Value::Color((r, g, b, a))), resp)
        }
        (FieldKind::Point, Value::Point(p)) => point_widget(ui, state, ctx, *p),
        (FieldKind::Ref { entity_type }, Value::Ref(id)) => {
            ref_widget(ui, state, ctx, entity_type.as_deref(), *id)
        }
        (_, Value::Text(t) | Value::Enum(t)) => text_widget(ui, state, ctx, t),
        (kind, value) => {
            // A value of another kind than its field (the problems list names it): replace it.
            let r = ui.button(format!("{value}: make it {}", kind.name()));
            let fresh = edits::starting_value(kind, ctx.object);
            (r.clicked().then_some(fresh), r)
        }
    };
    let resp = resp.labelled_by(ctx.label);
    if resp.drag_stopped() || resp.lost_focus() {
        state.session += 1;
    }
    if state.take_focus(ctx.path) {
        resp.request_focus();
        resp.scroll_to_me(Some(egui::Align::Center));
    }
    out
}

fn text_widget(
    ui: &mut Ui,
    state: &mut InspectorState,
    ctx: &WidgetCtx<'_>,
    t: &str,
) -> (Option<Value>, egui::Response) {
    let mut text = state
        .buffers
        .get(ctx.key)
        .cloned()
        .unwrap_or_else(|| t.to_owned());
    let r = ui.add(egui::TextEdit::singleline(&mut text).desired_width(150.0));
    let out = if r.changed() {
        state.buffers.insert(ctx.key.to_owned(), text.clone());
        Some(Value::Text(text))
    } else {
        None
    };
    if r.lost_focus() {
        state.buffers.remove(ctx.key);
    }
    (out, r)
}

fn point_widget(
    ui: &mut Ui,
    state: &mut InspectorState,
    ctx: &WidgetCtx<'_>,
    p: (f32, f32, f32),
) -> (Option<Value>, egui::Response) {
    let (mut x, mut y, mut z) = p;
    let rx = ui.add(egui::DragValue::new(&mut x).speed(0.05).prefix("x "));
    let ry = ui.add(egui::DragValue::new(&mut y).speed(0.05).prefix("y "));
    let rz = ui.add(egui::DragValue::new(&mut z).speed(0.05).prefix("z "));
    let picking = state.pick.as_ref().is_some_and(|r| {
        r.object == ctx.object && r.slot == ctx.slot && matches!(r.what, PickWhat::Point { .. })
    });
    if ui
        .selectable_label(picking, "Pick")
        .on_hover_text("Pick the point with a click in the top-down view")
        .clicked()
    {
        state.pick = (!picking).then(|| PickRequest {
            object: ctx.object,
            slot: ctx.slot.clone(),
            what: PickWhat::Point { y },
        });
    }
    let changed = rx.changed() || ry.changed() || rz.changed();
    let r = rx.union(ry).union(rz);
    (changed.then_some(Value::Point((x, y, z))), r)
}

/// At most this many candidates in a reference's list (pick in the view for the rest).
const MAX_REF_CHOICES: usize = 200;

fn ref_widget(
    ui: &mut Ui,
    state: &mut InspectorState,
    ctx: &WidgetCtx<'_>,
    entity_type: Option<&str>,
    id: ObjectId,
) -> (Option<Value>, egui::Response) {
    let level = ctx.level;
    let target = Object::all(level).find(|o| o.id() == id);
    let shown = target
        .as_ref()
        .map_or_else(|| format!("{id} (missing)"), Object::label);
    let mut chosen = None;
    let r = egui::ComboBox::from_id_salt(ctx.key)
        .width(150.0)
        .selected_text(shown)
        .show_ui(ui, |ui| {
            let candidates: Box<dyn Iterator<Item = Object>> = match entity_type {
                Some(t) => Box::new(level.entities_of(t).cloned().map(Object::Entity)),
                None => {
                    Box::new(Object::all(level).filter(|o| o.name().is_some() || is_game_object(o)))
                }
            };
            for o in candidates.take(MAX_REF_CHOICES) {
                if ui.selectable_label(o.id() == id, o.label()).clicked() {
                    chosen = Some(Value::Ref(o.id()));
                }
            }
        })
        .response;
    let picking = state.pick.as_ref().is_some_and(|r| {
        r.object == ctx.object && r.slot == ctx.slot && matches!(r.what, PickWhat::Ref { .. })
    });
    if ui
        .selectable_label(picking, "Pick")
        .on_hover_text("Pick the target by clicking it in the top-down view")
        .clicked()
    {
        state.pick = (!picking).then(|| PickRequest {
            object: ctx.object,
            slot: ctx.slot.clone(),
            what: PickWhat::Ref {
                entity_type: entity_type.map(str::to_owned),
            },
        });
    }
    (chosen, r)
}

fn is_game_object(o: &Object) -> bool {
    matches!(o, Object::Entity(_) | Object::Trigger(_))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picked_point_keeps_its_height_and_a_ref_needs_a_target() {
        let req = PickRequest {
            object: ObjectId(1),
            slot: Slot::Field("to".into()),
            what: PickWhat::Point { y: 2.0 },
        };
        assert_eq!(
            req.value_at(1.0, -3.0, None),
            Ok(Value::Point((1.0, 2.0, -3.0)))
        );
        let req = PickRequest {
            what: PickWhat::Ref { entity_type: None },
            ..req
        };
        assert!(req.value_at(0.0, 0.0, None).is_err());
        assert_eq!(
            req.value_at(0.0, 0.0, Some(ObjectId(7))),
            Ok(Value::Ref(ObjectId(7)))
        );
        assert!(req.prompt().contains("Esc"));
    }
}
