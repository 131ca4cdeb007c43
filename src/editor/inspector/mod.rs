//! The inspector: every field of the selected objects (or of the level when nothing is selected) as a
//! validated number field. A value that does not parse or breaks the field's rule is shown in red with the
//! reason and not applied; a valid value applies at once, and one field's edit is one undo step.

use std::collections::HashMap;

mod character;
pub mod game;
mod mover;
mod sector;
pub mod value;

pub use value::{PickRequest, PickWhat, Slot};

use egui::{Color32, RichText, Ui};

use crate::editor::document::{Document, Edit, Header, Kind, LabelledEdit, Object};
use crate::level::{TriggerShape, WalkerStart};

/// What values a field accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Any finite number.
    Finite,
    /// Greater than zero.
    Positive,
    /// Zero or more.
    NonNegative,
    /// Between 0 and 1 inclusive.
    Unit,
}

impl Rule {
    /// Parse `text` under this rule: the value, or why not. Empty text is `Ok(None)`.
    pub fn parse(self, text: &str) -> Result<Option<f32>, String> {
        let t = text.trim();
        if t.is_empty() {
            return Ok(None);
        }
        let v: f32 = t.parse().map_err(|_| format!("\"{t}\" is not a number"))?;
        if !v.is_finite() {
            return Err("must be a finite number".into());
        }
        match self {
            Rule::Finite => Ok(Some(v)),
            Rule::Positive if v > 0.0 => Ok(Some(v)),
            Rule::Positive => Err("must be greater than 0".into()),
            Rule::NonNegative if v >= 0.0 => Ok(Some(v)),
            Rule::NonNegative => Err("must not be negative".into()),
            Rule::Unit if (0.0..=1.0).contains(&v) => Ok(Some(v)),
            Rule::Unit => Err("must be between 0 and 1".into()),
        }
    }
}

/// One editable number of a `T` (an [`Object`] or the level [`Header`]).
pub struct Field<T> {
    /// Label, such as `center.y`.
    pub label: &'static str,
    /// Its value, `None` when unset (optional fields) or when `T` is another kind.
    pub get: fn(&T) -> Option<f32>,
    /// Set it; `None` clears an optional field.
    pub set: fn(&mut T, Option<f32>),
    /// Accepted values.
    pub rule: Rule,
    /// Whether empty means "use the default".
    pub optional: bool,
}

macro_rules! field {
    ($label:expr, $V:ident, $rule:ident, $($path:tt)+) => {
        Field::<Object> {
            label: $label,
            get: |o| match o { Object::$V(x) => Some(x.$($path)+), _ => None },
            set: |o, v| {
                if let (Object::$V(x), Some(v)) = (o, v) {
                    x.$($path)+ = v;
                }
            },
            rule: Rule::$rule,
            optional: false,
        }
    };
}

macro_rules! vec3_fields {
    ($V:ident, $rule:ident, $name:ident) => {
        [
            field!(concat!(stringify!($name), ".x"), $V, $rule, $name.x),
            field!(concat!(stringify!($name), ".y"), $V, $rule, $name.y),
            field!(concat!(stringify!($name), ".z"), $V, $rule, $name.z),
        ]
    };
}

/// The number fields of objects of `kind`.
#[must_use]
pub fn object_fields(kind: Kind) -> Vec<Field<Object>> {
    match kind {
        Kind::Wall => wall_fields(),
        Kind::Triangle => concat([
            vec3_fields!(Triangle, Finite, a).into(),
            vec3_fields!(Triangle, Finite, b).into(),
            vec3_fields!(Triangle, Finite, c).into(),
        ]),
        Kind::Ball => concat([
            vec3_fields!(Ball, Finite, center).into(),
            vec3_fields!(Ball, Finite, velocity).into(),
            vec![
                field!("radius", Ball, Positive, radius),
                field!("mass", Ball, Positive, mass),
                field!("restitution", Ball, Unit, restitution),
            ],
        ]),
        Kind::Plane => concat([
            vec3_fields!(Plane, Finite, normal).into(),
            vec![field!("d", Plane, Finite, d)],
        ]),
        Kind::Cylinder => concat([
            vec3_fields!(Cylinder, Finite, a).into(),
            vec3_fields!(Cylinder, Finite, b).into(),
            vec![field!("radius", Cylinder, Positive, radius)],
        ]),
        Kind::Aabb => concat([
            vec3_fields!(Aabb, Finite, min).into(),
            vec3_fields!(Aabb, Finite, max).into(),
        ]),
        Kind::Obb => concat([
            vec3_fields!(Obb, Finite, center).into(),
            vec3_fields!(Obb, NonNegative, half_extents).into(),
            vec![
                field!("yaw (y)", Obb, Finite, rotation_deg.x),
                field!("pitch (x)", Obb, Finite, rotation_deg.y),
                field!("roll (z)", Obb, Finite, rotation_deg.z),
            ],
        ]),
        // A sector's heights have their own section (`inspector::sector`).
        Kind::Mesh | Kind::Sector => Vec::new(),
        Kind::Entity => concat([
            vec3_fields!(Entity, Finite, position).into(),
            vec![field!("facing (deg)", Entity, Finite, yaw_deg)],
        ]),
        Kind::Trigger => trigger_fields(),
        Kind::Probe => concat([
            vec3_fields!(Probe, Finite, origin).into(),
            vec3_fields!(Probe, Finite, dir).into(),
            vec![field!("max_t", Probe, NonNegative, max_t)],
        ]),
    }
}

fn concat<const N: usize>(groups: [Vec<Field<Object>>; N]) -> Vec<Field<Object>> {
    groups.into_iter().flatten().collect()
}

/// A wall's ends, radius and optional height.
fn wall_fields() -> Vec<Field<Object>> {
    vec![
        field!("a.x", Wall, Finite, a.x),
        field!("a.z", Wall, Finite, a.y),
        field!("b.x", Wall, Finite, b.x),
        field!("b.z", Wall, Finite, b.y),
        field!("radius", Wall, NonNegative, radius),
        Field {
            label: "height",
            get: |o| match o {
                Object::Wall(w) => w.height,
                _ => None,
            },
            set: |o, v| {
                if let Object::Wall(w) = o {
                    w.height = v;
                }
            },
            rule: Rule::Positive,
            optional: true,
        },
    ]
}

/// A number of a trigger's shape: `None` for triggers of another shape.
macro_rules! shape_field {
    ($label:expr, $rule:ident, $Shape:ident($b:ident) => $($path:tt)+) => {
        Field::<Object> {
            label: $label,
            get: |o| match o {
                Object::Trigger(t) => match &t.shape {
                    TriggerShape::$Shape($b) => Some($b.$($path)+),
                    _ => None,
                },
                _ => None,
            },
            set: |o, v| {
                if let (Object::Trigger(t), Some(v)) = (o, v)
                    && let TriggerShape::$Shape($b) = &mut t.shape
                {
                    $b.$($path)+ = v;
                }
            },
            rule: Rule::$rule,
            optional: false,
        }
    };
}

/// A prism trigger's bottom or top height.
macro_rules! prism_field {
    ($label:expr, $h:ident) => {
        Field::<Object> {
            label: $label,
            get: |o| match o {
                Object::Trigger(t) => match &t.shape {
                    TriggerShape::Prism { $h, .. } => Some(*$h),
                    _ => None,
                },
                _ => None,
            },
            set: |o, v| {
                if let (Object::Trigger(t), Some(v)) = (o, v)
                    && let TriggerShape::Prism { $h, .. } = &mut t.shape
                {
                    *$h = v;
                }
            },
            rule: Rule::Finite,
            optional: false,
        }
    };
}

/// The number fields of triggers: each shape's own (the inspector shows those the selection has).
fn trigger_fields() -> Vec<Field<Object>> {
    vec![
        shape_field!("min.x", Finite, Aabb(b) => min.x),
        shape_field!("min.y", Finite, Aabb(b) => min.y),
        shape_field!("min.z", Finite, Aabb(b) => min.z),
        shape_field!("max.x", Finite, Aabb(b) => max.x),
        shape_field!("max.y", Finite, Aabb(b) => max.y),
        shape_field!("max.z", Finite, Aabb(b) => max.z),
        shape_field!("center.x", Finite, Sphere(s) => center.x),
        shape_field!("center.y", Finite, Sphere(s) => center.y),
        shape_field!("center.z", Finite, Sphere(s) => center.z),
        shape_field!("radius", Positive, Sphere(s) => radius),
        prism_field!("bottom", bottom),
        prism_field!("top", top),
    ]
}

macro_rules! header_field {
    ($label:literal, $rule:ident, $($path:tt)+) => {
        Field::<Header> {
            label: $label,
            get: |h| Some(h.$($path)+),
            set: |h, v| {
                if let Some(v) = v {
                    h.$($path)+ = v;
                }
            },
            rule: Rule::$rule,
            optional: false,
        }
    };
}

macro_rules! walker_field {
    ($label:literal, $rule:ident, $($path:tt)+) => {
        Field::<Header> {
            label: $label,
            get: |h| h.walker.as_ref().map(|w| w.$($path)+),
            set: |h, v| {
                if let (Some(w), Some(v)) = (h.walker.as_mut(), v) {
                    w.$($path)+ = v;
                }
            },
            rule: Rule::$rule,
            optional: false,
        }
    };
}

/// The level's number fields.
#[must_use]
pub fn header_fields() -> Vec<Field<Header>> {
    vec![
        header_field!("default wall height", Positive, default_wall_height),
        header_field!("gravity.x", Finite, simulation.gravity.x),
        header_field!("gravity.y", Finite, simulation.gravity.y),
        header_field!("gravity.z", Finite, simulation.gravity.z),
        header_field!("dt (s)", Positive, simulation.dt),
    ]
}

/// The walker's number fields.
#[must_use]
pub fn walker_fields() -> Vec<Field<Header>> {
    vec![
        walker_field!("walker x", Finite, position.x),
        walker_field!("walker z", Finite, position.y),
        walker_field!("facing (deg)", Finite, facing_deg),
        walker_field!("eye height", Positive, eye_height),
        walker_field!("walker radius", Positive, radius),
    ]
}

/// Text being typed into fields (kept while a field has focus) and the current edit session, so that one
/// field's typing is one undo step and the next visit to the field a new one.
#[derive(Default)]
pub struct InspectorState {
    buffers: HashMap<String, String>,
    session: u64,
    /// Refused values' reasons, by field key, shown beside the field until it takes a valid value.
    errors: HashMap<String, String>,
    /// A point or reference to pick with the next click in the top-down view.
    pub pick: Option<PickRequest>,
    /// The free-form property being added: its name and kind.
    new_property: (String, usize),
    /// A field to focus (its path after the object, as problems name it: `radius`, `fields.health`).
    pub focus: Option<String>,
}

impl InspectorState {
    /// Whether the field at `path` (`center.x`, `fields.team`) should take the focus now; a request for
    /// `center` focuses `center.x`. Taking it clears the request.
    pub fn take_focus(&mut self, path: &str) -> bool {
        let hit = self.focus.as_deref().is_some_and(|f| {
            path == f
                || path
                    .strip_prefix(f)
                    .is_some_and(|rest| rest.starts_with('.'))
        });
        if hit {
            self.focus = None;
        }
        hit
    }

    /// Forget refusals and edit buffers (another selection, another document).
    pub fn clear_errors(&mut self) {
        self.errors.clear();
    }
}

/// What a number field asks for.
enum FieldEdit {
    Set(Option<f32>),
}

/// What a number field shows: `current` is `None` when unset or mixed (`hint` says which).
struct FieldSpec<'a> {
    key: &'a str,
    label: &'a str,
    current: Option<f32>,
    hint: &'a str,
    rule: Rule,
    optional: bool,
    /// Shown after the field, weak (a unit, the limits); empty for none.
    note: &'a str,
    /// What a problem calls it (see [`InspectorState::take_focus`]); `None`: its label.
    path: Option<&'a str>,
}

/// One labelled, validated number field.
fn number_field(
    ui: &mut Ui,
    state: &mut InspectorState,
    spec: &FieldSpec<'_>,
) -> Option<FieldEdit> {
    let FieldSpec {
        key,
        label,
        current,
        hint,
        rule,
        optional,
        note,
        path,
    } = *spec;
    let mut out = None;
    ui.horizontal(|ui| {
        let l = ui.add_sized([110.0, 18.0], egui::Label::new(label));
        let path = path.unwrap_or(label);
        let shown = current.map(|v| format!("{v}")).unwrap_or_default();
        let mut text = state
            .buffers
            .get(key)
            .cloned()
            .unwrap_or_else(|| shown.clone());
        let parsed = rule.parse(&text);
        let error = match &parsed {
            Err(e) => Some(e.clone()),
            Ok(None) if !optional && state.buffers.contains_key(key) => {
                Some("a number is needed".to_owned())
            }
            _ => None,
        };
        // Narrower beside a note, so the row keeps the inspector's width.
        let mut edit = egui::TextEdit::singleline(&mut text)
            .hint_text(hint)
            .desired_width(if note.is_empty() { 90.0 } else { 56.0 });
        if error.is_some() {
            edit = edit.text_color(Color32::from_rgb(255, 90, 90));
        }
        let resp = ui.add(edit).labelled_by(l.id);
        if resp.changed() {
            match rule.parse(&text) {
                Ok(Some(v)) if Some(v) != current => out = Some(FieldEdit::Set(Some(v))),
                Ok(None) if optional && current.is_some() => out = Some(FieldEdit::Set(None)),
                _ => {}
            }
            state.buffers.insert(key.to_owned(), text);
        }
        if resp.lost_focus() {
            state.buffers.remove(key);
            state.session += 1;
        }
        if state.take_focus(path) {
            resp.request_focus();
            resp.scroll_to_me(Some(egui::Align::Center));
        }
        if !note.is_empty() {
            ui.weak(RichText::new(note).small());
        }
        if let Some(e) = error {
            ui.label(
                RichText::new(e)
                    .color(Color32::from_rgb(255, 90, 90))
                    .small(),
            );
        }
    });
    out
}

/// The inspector for the document's selection (or the level when nothing is selected). Edits become undo
/// steps on `doc`.
pub fn show(ui: &mut Ui, doc: &Document, state: &mut InspectorState) -> Vec<LabelledEdit> {
    let mut out = Vec::new();
    fields(ui, doc, state, &mut out);
    out
}

/// The fields of the selection (or of the level), pushing the edits they ask for to `out`.
fn fields(ui: &mut Ui, doc: &Document, state: &mut InspectorState, out: &mut Vec<LabelledEdit>) {
    let selected = doc.selected_objects();
    if selected.is_empty() && !doc.walker_selected() {
        level_fields(ui, doc, state, out);
        return;
    }
    if doc.walker_selected() {
        ui.heading("Walker start");
        header_number_fields(ui, doc, state, &walker_fields(), out);
        character::section(ui, doc, state, out);
        ui.separator();
    }
    if let [one] = selected.as_slice() {
        ui.heading(one.label());
        name_field(ui, state, one, out);
        if let Object::Entity(e) = one {
            game::entity_section(ui, doc, state, e, out);
        }
        if let Object::Trigger(t) = one {
            game::prism_points(ui, state, t, out);
        }
    } else if !selected.is_empty() {
        ui.heading(format!("{} objects", selected.len()));
    }
    let mut kinds: Vec<Kind> = selected.iter().map(Object::kind).collect();
    kinds.dedup();
    for kind in kinds {
        let of_kind: Vec<&Object> = selected.iter().filter(|o| o.kind() == kind).collect();
        if selected.len() > 1 {
            ui.separator();
            ui.strong(format!("{} ({})", kind.noun(), of_kind.len()));
        }
        kind_notes(ui, &of_kind, out);
        kind_fields(ui, state, kind, &of_kind, out);
        if kind == Kind::Sector {
            sector::section(ui, doc, state, &of_kind, out);
        }
        mover::one_way_row(ui, &of_kind, out);
    }
    if let [one] = selected.as_slice() {
        mover::section(ui, doc, state, one, out);
    }
    if let [one] = selected.as_slice() {
        ui.separator();
        game::properties_section(ui, doc, state, one, out);
    } else if !selected.is_empty() {
        ui.separator();
        ui.weak("select one object to edit its properties");
    }
}

/// What one object of a kind shows besides its numbers: a mesh's size and source, a plane's Normalise.
fn kind_notes(ui: &mut Ui, of_kind: &[&Object], out: &mut Vec<LabelledEdit>) {
    if let [Object::Mesh(m)] = of_kind {
        ui.label(format!(
            "{} vertices, {} triangles",
            m.vertices.len(),
            m.indices.len()
        ));
        if let Some(obj) = &m.obj {
            ui.label(format!(
                "geometry from {obj} (cannot be moved in the editor)"
            ));
        }
    }
    if let [Object::Plane(p)] = of_kind
        && (p.normal.length() - 1.0).abs() > 1e-5
        && p.normal.length() > 0.0
        && ui.button("Normalise the normal").clicked()
    {
        let mut q = p.clone();
        let len = q.normal.length();
        q.normal /= len;
        q.d /= len;
        out.push(LabelledEdit::new(
            "Normalise plane",
            Edit {
                replace: vec![Object::Plane(q)],
                ..Edit::default()
            },
            None,
        ));
    }
}

/// The number fields of the selected objects of one kind (several edit together).
fn kind_fields(
    ui: &mut Ui,
    state: &mut InspectorState,
    kind: Kind,
    of_kind: &[&Object],
    out: &mut Vec<LabelledEdit>,
) {
    for f in object_fields(kind) {
        let values: Vec<Option<f32>> = of_kind.iter().map(|o| (f.get)(o)).collect();
        if !f.optional && values.iter().all(Option::is_none) {
            // A field of another variant (a sphere trigger's radius when boxes are selected).
            continue;
        }
        let first = values.first().copied().flatten();
        let same = values.iter().all(|v| *v == values[0]);
        let (current, hint) = if same {
            (first, if f.optional { "default" } else { "" })
        } else {
            (None, "mixed")
        };
        let ids: Vec<String> = of_kind.iter().map(|o| o.id().0.to_string()).collect();
        let key = format!("{}:{}:{}", kind.field(), f.label, ids.join(","));
        let spec = FieldSpec {
            key: &key,
            label: f.label,
            current,
            hint,
            rule: f.rule,
            optional: f.optional,
            note: "",
            path: None,
        };
        if let Some(FieldEdit::Set(v)) = number_field(ui, state, &spec) {
            let replace = of_kind
                .iter()
                .map(|o| {
                    let mut o = (*o).clone();
                    (f.set)(&mut o, v);
                    o
                })
                .collect();
            out.push(LabelledEdit::new(
                format!("Set {} of {}", f.label, count(of_kind.len(), kind)),
                Edit {
                    replace,
                    ..Edit::default()
                },
                Some(format!("{key}#{}", state.session)),
            ));
        }
    }
}

fn count(n: usize, kind: Kind) -> String {
    if n == 1 {
        format!("1 {}", kind.noun())
    } else {
        format!("{n} {}s", kind.noun())
    }
}

fn name_field(ui: &mut Ui, state: &mut InspectorState, one: &Object, out: &mut Vec<LabelledEdit>) {
    ui.horizontal(|ui| {
        let l = ui.add_sized([110.0, 18.0], egui::Label::new("name"));
        let key = format!("name:{}", one.id().0);
        let mut text = state
            .buffers
            .get(&key)
            .cloned()
            .unwrap_or_else(|| one.name().unwrap_or_default().to_owned());
        let resp = ui
            .add(egui::TextEdit::singleline(&mut text).desired_width(150.0))
            .labelled_by(l.id);
        if resp.changed() {
            let mut o = one.clone();
            let name = text.trim();
            o.set_name((!name.is_empty()).then(|| name.to_owned()));
            out.push(LabelledEdit::new(
                format!("Rename {}", one.kind().noun()),
                Edit {
                    replace: vec![o],
                    ..Edit::default()
                },
                Some(format!("{key}#{}", state.session)),
            ));
            state.buffers.insert(key.clone(), text);
        }
        if resp.lost_focus() {
            state.buffers.remove(&key);
            state.session += 1;
        }
    });
}

fn header_number_fields(
    ui: &mut Ui,
    doc: &Document,
    state: &mut InspectorState,
    fields: &[Field<Header>],
    out: &mut Vec<LabelledEdit>,
) {
    let header = Header::of(doc.level());
    for f in fields {
        let key = format!("level:{}", f.label);
        let spec = FieldSpec {
            key: &key,
            label: f.label,
            current: (f.get)(&header),
            hint: "",
            rule: f.rule,
            optional: f.optional,
            note: "",
            path: None,
        };
        if let Some(FieldEdit::Set(v)) = number_field(ui, state, &spec) {
            let mut h = header.clone();
            (f.set)(&mut h, v);
            out.push(LabelledEdit::new(
                format!("Set {}", f.label),
                Edit {
                    header: Some(h),
                    ..Edit::default()
                },
                Some(format!("{key}#{}", state.session)),
            ));
        }
    }
}

fn level_fields(
    ui: &mut Ui,
    doc: &Document,
    state: &mut InspectorState,
    out: &mut Vec<LabelledEdit>,
) {
    ui.heading("Level");
    let header = Header::of(doc.level());
    for (label, multiline) in [("name", false), ("description", true)] {
        ui.horizontal(|ui| {
            let l = ui.add_sized([110.0, 18.0], egui::Label::new(label));
            let key = format!("level:{label}");
            let current = if multiline {
                &header.description
            } else {
                &header.name
            };
            let mut text = state
                .buffers
                .get(&key)
                .cloned()
                .unwrap_or_else(|| current.clone());
            let edit = if multiline {
                egui::TextEdit::multiline(&mut text).desired_rows(3)
            } else {
                egui::TextEdit::singleline(&mut text)
            };
            let resp = ui.add(edit.desired_width(170.0)).labelled_by(l.id);
            if resp.changed() {
                let mut h = header.clone();
                if multiline {
                    h.description.clone_from(&text);
                } else {
                    h.name.clone_from(&text);
                }
                out.push(LabelledEdit::new(
                    format!("Set level {label}"),
                    Edit {
                        header: Some(h),
                        ..Edit::default()
                    },
                    Some(format!("{key}#{}", state.session)),
                ));
                state.buffers.insert(key.clone(), text);
            }
            if resp.lost_focus() {
                state.buffers.remove(&key);
                state.session += 1;
            }
        });
    }
    header_number_fields(ui, doc, state, &header_fields(), out);
    ui.separator();
    if header.walker.is_some() {
        header_number_fields(ui, doc, state, &walker_fields(), out);
        if ui.button("Remove the walker").clicked() {
            let mut h = header;
            h.walker = None;
            out.push(LabelledEdit::new(
                "Remove walker",
                Edit {
                    header: Some(h),
                    ..Edit::default()
                },
                None,
            ));
        }
    } else if ui.button("Add a walker start at the origin").clicked() {
        let mut h = header;
        h.walker = Some(WalkerStart::default());
        out.push(LabelledEdit::new(
            "Place walker",
            Edit {
                header: Some(h),
                ..Edit::default()
            },
            None,
        ));
    }
    ui.separator();
    character::section(ui, doc, state, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules() {
        assert_eq!(Rule::Positive.parse(" 2.5 "), Ok(Some(2.5)));
        assert_eq!(Rule::Positive.parse(""), Ok(None));
        assert!(Rule::Positive.parse("0").is_err());
        assert!(Rule::Finite.parse("NaN").is_err());
        assert!(Rule::Finite.parse("inf").is_err());
        assert!(Rule::Unit.parse("1.5").is_err());
        assert!(Rule::NonNegative.parse("-1").is_err());
        assert_eq!(
            Rule::Finite.parse("abc"),
            Err("\"abc\" is not a number".into())
        );
    }

    #[test]
    fn every_kind_with_fields_round_trips_them() {
        let level =
            crate::level::Level::from_ron_str(include_str!("../../../levels/cookbook_gallery.ron"))
                .unwrap();
        for o in Object::all(&level) {
            for f in object_fields(o.kind()) {
                let mut p = o.clone();
                (f.set)(&mut p, Some(1.25));
                assert_eq!((f.get)(&p), Some(1.25), "{} {}", o.label(), f.label);
            }
        }
    }
}
