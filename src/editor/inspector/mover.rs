//! A moved object's mover in the inspector: speed, wait, repeat, start (and the trigger that starts it,
//! chosen from the level's triggers), each path point's height and a button to delete the point, and a
//! button to remove the mover. Beside it, the one-way flag of the objects that have one. Every change goes
//! through `movers::edit`'s checked changes, one undo step each; a refused value stays beside its field with
//! the reason.

use egui::Ui;

use super::game::{report, show_error};
use super::{FieldEdit, FieldSpec, InspectorState, Rule, number_field};
use crate::editor::document::{Document, LabelledEdit, Object};
use crate::editor::movers::edit::{MoverChange, change_edit, one_way_edit, one_way_of};
use crate::editor::movers::remove_edit;
use crate::level::{Level, MoverObject, MoverPart, MoverStart, Repeat};

/// The mover of the selected object `one`, if it has one, pushing the edits it asks for to `out`.
pub(super) fn section(
    ui: &mut Ui,
    doc: &Document,
    state: &mut InspectorState,
    one: &Object,
    out: &mut Vec<LabelledEdit>,
) {
    let level = doc.level();
    let Some(m) = level.movers.iter().find(|m| m.object == one.id()) else {
        return;
    };
    ui.separator();
    match &m.name {
        Some(n) => ui.strong(format!("Mover {} \"{n}\"", m.id)),
        None => ui.strong(format!("Mover {}", m.id)),
    };
    let what = match m.part {
        MoverPart::Whole => "moves the whole object",
        MoverPart::Floor => "moves the sector's floor (up and down only)",
        MoverPart::Ceiling => "moves the sector's ceiling (up and down only)",
    };
    ui.weak(format!(
        "{what}; the path's points are offsets from its place"
    ));
    number_row(ui, state, (level, m), ("speed", "m/s", Rule::Positive), out);
    number_row(ui, state, (level, m), ("wait", "s", Rule::NonNegative), out);
    repeat_row(ui, state, level, m, out);
    start_row(ui, state, level, m, out);
    show_error(ui, state, &format!("mover:{}:choice", m.id));
    path_rows(ui, state, level, m, out);
    if ui.button("Remove the mover").clicked() {
        out.push(remove_edit(level, m.id));
    }
}

/// The speed or the wait: a checked number field.
fn number_row(
    ui: &mut Ui,
    state: &mut InspectorState,
    (level, m): (&Level, &MoverObject),
    (what, unit, rule): (&'static str, &'static str, Rule),
    out: &mut Vec<LabelledEdit>,
) {
    let key = format!("mover:{}:{what}", m.id);
    let current = if what == "speed" { m.speed } else { m.wait };
    let path = format!("movers.{what}");
    let spec = FieldSpec {
        key: &key,
        label: what,
        current: Some(current),
        hint: "",
        rule,
        optional: false,
        note: unit,
        path: Some(&path),
    };
    if let Some(FieldEdit::Set(Some(v))) = number_field(ui, state, &spec) {
        let change = if what == "speed" {
            MoverChange::Speed(v)
        } else {
            MoverChange::Wait(v)
        };
        let merge = Some(format!("{key}#{}", state.session));
        report(state, &key, change_edit(level, m.id, change, merge), out);
    }
    show_error(ui, state, &key);
}

fn repeat_row(
    ui: &mut Ui,
    state: &mut InspectorState,
    level: &Level,
    m: &MoverObject,
    out: &mut Vec<LabelledEdit>,
) {
    let mut repeat = m.repeat;
    ui.horizontal(|ui| {
        ui.add_sized([110.0, 18.0], egui::Label::new("repeat"));
        for (r, name) in [
            (Repeat::Once, "Once"),
            (Repeat::Loop, "Loop"),
            (Repeat::PingPong, "PingPong"),
        ] {
            ui.selectable_value(&mut repeat, r, name);
        }
    });
    if repeat != m.repeat {
        let key = format!("mover:{}:choice", m.id);
        let edit = change_edit(level, m.id, MoverChange::Repeat(repeat), None);
        report(state, &key, edit, out);
    }
}

/// The start: Always, or on one of the level's triggers (a level without triggers can only start always).
fn start_row(
    ui: &mut Ui,
    state: &mut InspectorState,
    level: &Level,
    m: &MoverObject,
    out: &mut Vec<LabelledEdit>,
) {
    let mut start = m.start;
    let name = |s: MoverStart| match s {
        MoverStart::Always => "Always".to_owned(),
        MoverStart::OnTrigger(t) => {
            let named = level.triggers.iter().find(|tr| tr.id == t);
            match named.and_then(|tr| tr.name.as_deref()) {
                Some(n) => format!("on trigger {t} \"{n}\""),
                None => format!("on trigger {t}"),
            }
        }
    };
    ui.horizontal(|ui| {
        let l = ui.add_sized([110.0, 18.0], egui::Label::new("start"));
        egui::ComboBox::from_id_salt(("mover start", m.id.0))
            .selected_text(name(start))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut start, MoverStart::Always, "Always");
                for t in &level.triggers {
                    let s = MoverStart::OnTrigger(t.id);
                    ui.selectable_value(&mut start, s, name(s));
                }
            })
            .response
            .labelled_by(l.id);
    });
    if level.triggers.is_empty() {
        ui.weak("no triggers in the level: add one with the Trigger tool to start this on it");
    }
    if start != m.start {
        let key = format!("mover:{}:choice", m.id);
        let edit = change_edit(level, m.id, MoverChange::Start(start), None);
        report(state, &key, edit, out);
    }
}

/// Each path point: its `(x, z)` offset, its height (editable but for the first, the object's own place)
/// and a button deleting it (while the path keeps two points).
fn path_rows(
    ui: &mut Ui,
    state: &mut InspectorState,
    level: &Level,
    m: &MoverObject,
    out: &mut Vec<LabelledEdit>,
) {
    ui.weak(format!(
        "path: {} points (x, z from the Mover tool; heights here)",
        m.path.len()
    ));
    let labels: Vec<String> = (0..m.path.len()).map(|i| format!("point {i} y")).collect();
    for (i, p) in m.path.iter().enumerate().skip(1) {
        let key = format!("mover:{}:point{i}", m.id);
        ui.horizontal(|ui| {
            ui.weak(format!("x {} z {}", p.x, p.z));
            if m.path.len() > 2
                && ui
                    .small_button("Delete")
                    .on_hover_text(format!("delete point {i} of the path"))
                    .clicked()
            {
                let edit = change_edit(level, m.id, MoverChange::RemovePoint(i), None);
                report(state, &key, edit, out);
            }
        });
        let path = format!("movers.path.{i}.y");
        let spec = FieldSpec {
            key: &key,
            label: &labels[i],
            current: Some(p.y),
            hint: "",
            rule: Rule::Finite,
            optional: false,
            note: "m",
            path: Some(&path),
        };
        if let Some(FieldEdit::Set(Some(y))) = number_field(ui, state, &spec) {
            let merge = Some(format!("{key}#{}", state.session));
            let edit = change_edit(level, m.id, MoverChange::PointHeight(i, y), merge);
            report(state, &key, edit, out);
        }
        show_error(ui, state, &key);
    }
}

/// The one-way flag of the selected objects of one kind that have it (boxes, triangles, meshes, sectors):
/// a checkbox, one undo step.
pub(super) fn one_way_row(ui: &mut Ui, of_kind: &[&Object], out: &mut Vec<LabelledEdit>) {
    let flags: Vec<bool> = of_kind.iter().filter_map(|o| one_way_of(o)).collect();
    let Some(&first) = flags.first() else {
        return;
    };
    let mut on = first;
    let mixed = flags.iter().any(|f| *f != first);
    let text = if mixed { "one-way (mixed)" } else { "one-way" };
    let resp = ui
        .checkbox(&mut on, text)
        .on_hover_text("supports from above; characters and balls pass up through it from below");
    if resp.changed()
        && let Some(e) = one_way_edit(of_kind, on)
    {
        out.push(e);
    }
}
