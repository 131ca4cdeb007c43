//! Edits of a level's game data, as the inspector and the Entity types panel ask for them: entity types and
//! their fields (a rename carries every entity of the type along, in one undo step), typed field values and
//! free-form properties. Each is checked first and refused with the reason, never clamped. No egui here.

use std::collections::BTreeMap;

use super::{Edit, Header, LabelledEdit, Object, count_noun};
use crate::level::{EntityObject, EntityType, FieldDef, FieldKind, Level, ObjectId, Value};

/// Why a type or field name cannot be used (empty, padded with spaces), else `None`.
fn name_problem(name: &str, what: &str) -> Option<String> {
    if name.trim().is_empty() {
        Some(format!("a {what} needs a name"))
    } else if name.trim() != name {
        Some(format!("a {what} name cannot start or end with spaces"))
    } else {
        None
    }
}

/// The index of the entity type called `name`, or why not.
fn type_index(level: &Level, name: &str) -> Result<usize, String> {
    level
        .entity_types
        .iter()
        .position(|t| t.name == name)
        .ok_or_else(|| format!("there is no entity type \"{name}\""))
}

/// The entities of type `name`, changed by `f`, for an edit's `replace`.
fn entities_changed(
    level: &Level,
    name: &str,
    mut f: impl FnMut(&mut EntityObject),
) -> Vec<Object> {
    level
        .entities
        .iter()
        .filter(|e| e.entity_type == name)
        .map(|e| {
            let mut e = e.clone();
            f(&mut e);
            Object::Entity(e)
        })
        .collect()
}

fn header_edit(label: String, header: Header, replace: Vec<Object>) -> LabelledEdit {
    LabelledEdit::new(
        label,
        Edit {
            header: Some(header),
            replace,
            ..Edit::default()
        },
        None,
    )
}

/// A new entity type called `name` (no fields yet).
pub fn add_type(level: &Level, name: &str) -> Result<LabelledEdit, String> {
    if let Some(why) = name_problem(name, "type") {
        return Err(why);
    }
    if level.entity_type(name).is_some() {
        return Err(format!("a type called \"{name}\" already exists"));
    }
    let mut h = Header::of(level);
    h.entity_types.push(EntityType {
        name: name.to_owned(),
        color: None,
        min_count: None,
        max_count: None,
        must_reach: false,
        fields: Vec::new(),
    });
    Ok(header_edit(
        format!("Add entity type \"{name}\""),
        h,
        Vec::new(),
    ))
}

/// A new name for type `old`; every entity of it, and every reference field restricted to it, follows.
pub fn rename_type(level: &Level, old: &str, new: &str) -> Result<LabelledEdit, String> {
    let k = type_index(level, old)?;
    if old == new {
        return Err("that is its name already".into());
    }
    if let Some(why) = name_problem(new, "type") {
        return Err(why);
    }
    if level.entity_type(new).is_some() {
        return Err(format!("a type called \"{new}\" already exists"));
    }
    let mut h = Header::of(level);
    h.entity_types[k].name = new.to_owned();
    for t in &mut h.entity_types {
        for f in &mut t.fields {
            if let FieldKind::Ref {
                entity_type: Some(target),
            } = &mut f.kind
                && target == old
            {
                *target = new.to_owned();
            }
        }
    }
    let replace = entities_changed(level, old, |e| e.entity_type = new.to_owned());
    let n = replace.len();
    Ok(header_edit(
        format!(
            "Rename type \"{old}\" to \"{new}\" ({})",
            count_noun(n, "entity")
        ),
        h,
        replace,
    ))
}

/// Remove type `name` and every entity of it (one undo step brings both back).
pub fn remove_type(level: &Level, name: &str) -> Result<LabelledEdit, String> {
    let k = type_index(level, name)?;
    let mut h = Header::of(level);
    h.entity_types.remove(k);
    let remove: Vec<ObjectId> = level
        .entities
        .iter()
        .filter(|e| e.entity_type == name)
        .map(|e| e.id)
        .collect();
    let n = remove.len();
    Ok(LabelledEdit::new(
        format!("Remove type \"{name}\" and its {}", count_noun(n, "entity")),
        Edit {
            header: Some(h),
            remove,
            ..Edit::default()
        },
        None,
    ))
}

/// Change type `name`'s colour and count limits (its name and fields have their own edits).
pub fn set_type_settings(
    level: &Level,
    name: &str,
    color: Option<(u8, u8, u8)>,
    min_count: Option<u32>,
    max_count: Option<u32>,
) -> Result<LabelledEdit, String> {
    let k = type_index(level, name)?;
    if let (Some(lo), Some(hi)) = (min_count, max_count)
        && lo > hi
    {
        return Err(format!("min count {lo} is above max count {hi}"));
    }
    let mut h = Header::of(level);
    let t = &mut h.entity_types[k];
    t.color = color;
    t.min_count = min_count;
    t.max_count = max_count;
    Ok(header_edit(format!("Edit type \"{name}\""), h, Vec::new()))
}

/// Whether every entity of type `name` must be reachable by the level's character from the walker start (what
/// `collidoscope check --reach` checks; saved as `must_reach: true`, left out when false).
pub fn set_type_must_reach(
    level: &Level,
    name: &str,
    must_reach: bool,
) -> Result<LabelledEdit, String> {
    let k = type_index(level, name)?;
    if level.entity_types[k].must_reach == must_reach {
        return Err("nothing changed".into());
    }
    let mut h = Header::of(level);
    h.entity_types[k].must_reach = must_reach;
    let label = if must_reach {
        format!("\"{name}\" entities must be reached")
    } else {
        format!("\"{name}\" entities need not be reached")
    };
    Ok(header_edit(label, h, Vec::new()))
}

/// A new field `def` on type `name`.
pub fn add_field(level: &Level, name: &str, def: FieldDef) -> Result<LabelledEdit, String> {
    let k = type_index(level, name)?;
    if let Some(why) = name_problem(&def.name, "field") {
        return Err(why);
    }
    if level.entity_types[k].field(&def.name).is_some() {
        return Err(format!("\"{name}\" already has a field \"{}\"", def.name));
    }
    if let Some(why) = level.field_def_problem(&def) {
        return Err(why);
    }
    let mut h = Header::of(level);
    let label = format!("Add field \"{}\" to \"{name}\"", def.name);
    h.entity_types[k].fields.push(def);
    Ok(header_edit(label, h, Vec::new()))
}

/// Replace field `field` of type `name` by `def` (kind, bounds, default, required; and its name, carried
/// to every entity's value). Entity values that no longer fit the new kind are reset to the default, and the
/// undo step's label says how many.
pub fn set_field(
    level: &Level,
    name: &str,
    field: &str,
    def: FieldDef,
) -> Result<LabelledEdit, String> {
    let k = type_index(level, name)?;
    let ty = &level.entity_types[k];
    let f = ty
        .fields
        .iter()
        .position(|d| d.name == field)
        .ok_or_else(|| format!("\"{name}\" has no field \"{field}\""))?;
    if let Some(why) = name_problem(&def.name, "field") {
        return Err(why);
    }
    if def.name != field && ty.field(&def.name).is_some() {
        return Err(format!("\"{name}\" already has a field \"{}\"", def.name));
    }
    if let Some(why) = level.field_def_problem(&def) {
        return Err(why);
    }
    if ty.fields[f] == def {
        return Err("nothing changed".into());
    }
    let mut reset = 0;
    let replace = entities_changed(level, name, |e| {
        if let Some(v) = e.fields.remove(field) {
            if def.kind == ty.fields[f].kind || level.field_value_problem(&def.kind, &v).is_none() {
                e.fields.insert(def.name.clone(), v);
            } else {
                reset += 1;
            }
        }
    });
    let renamed = def.name != field;
    let label = match (renamed, reset) {
        (true, _) => format!(
            "Rename field \"{field}\" of \"{name}\" to \"{}\" ({})",
            def.name,
            count_noun(replace.len(), "entity")
        ),
        (false, 0) => format!("Edit field \"{field}\" of \"{name}\""),
        (false, n) => format!(
            "Edit field \"{field}\" of \"{name}\" ({} reset)",
            count_noun(n, "value")
        ),
    };
    let replace = if renamed || reset > 0 {
        replace
    } else {
        Vec::new()
    };
    let mut h = Header::of(level);
    h.entity_types[k].fields[f] = def;
    Ok(header_edit(label, h, replace))
}

/// Rename field `old` of type `name` to `new`, in the type and in every entity of it.
pub fn rename_field(
    level: &Level,
    name: &str,
    old: &str,
    new: &str,
) -> Result<LabelledEdit, String> {
    let ty = &level.entity_types[type_index(level, name)?];
    let mut def = ty
        .field(old)
        .cloned()
        .ok_or_else(|| format!("\"{name}\" has no field \"{old}\""))?;
    if old == new {
        return Err("that is its name already".into());
    }
    def.name = new.to_owned();
    set_field(level, name, old, def)
}

/// Remove field `field` of type `name` and every entity's value of it.
pub fn remove_field(level: &Level, name: &str, field: &str) -> Result<LabelledEdit, String> {
    let k = type_index(level, name)?;
    let f = level.entity_types[k]
        .fields
        .iter()
        .position(|d| d.name == field)
        .ok_or_else(|| format!("\"{name}\" has no field \"{field}\""))?;
    let mut h = Header::of(level);
    h.entity_types[k].fields.remove(f);
    let replace: Vec<Object> = entities_changed(level, name, |e| {
        e.fields.remove(field);
    });
    Ok(header_edit(
        format!("Remove field \"{field}\" of \"{name}\""),
        h,
        replace,
    ))
}

/// Set (`Some`) or reset to the type's default (`None`) field `field` of the entity `id`; a value that does
/// not fit the field is refused with the reason. `merge` merges with the previous step of the same key
/// (one undo step for a whole drag).
pub fn set_entity_field(
    level: &Level,
    id: ObjectId,
    field: &str,
    value: Option<Value>,
    merge: Option<String>,
) -> Result<LabelledEdit, String> {
    let e = level
        .entity(id)
        .ok_or_else(|| format!("{id} is not an entity"))?;
    let ty = level
        .entity_type(&e.entity_type)
        .ok_or_else(|| format!("unknown entity type \"{}\"", e.entity_type))?;
    let def = ty
        .field(field)
        .ok_or_else(|| format!("type \"{}\" has no field \"{field}\"", ty.name))?;
    if let Some(v) = &value
        && let Some(why) = level.field_value_problem(&def.kind, v)
    {
        return Err(format!("{field} {why}"));
    }
    let mut e = e.clone();
    let label = match value {
        Some(v) => {
            e.fields.insert(field.to_owned(), v);
            format!("Set {field} of entity {id}")
        }
        None => {
            e.fields.remove(field);
            format!("Reset {field} of entity {id}")
        }
    };
    Ok(LabelledEdit::new(
        label,
        Edit {
            replace: vec![Object::Entity(e)],
            ..Edit::default()
        },
        merge,
    ))
}

/// Change the type of entity `id` to `new_type`; values of fields the new type does not have are dropped
/// (and come back with undo).
pub fn set_entity_type(
    level: &Level,
    id: ObjectId,
    new_type: &str,
) -> Result<LabelledEdit, String> {
    let e = level
        .entity(id)
        .ok_or_else(|| format!("{id} is not an entity"))?;
    let ty = level
        .entity_type(new_type)
        .ok_or_else(|| format!("there is no entity type \"{new_type}\""))?;
    let mut e = e.clone();
    e.entity_type = new_type.to_owned();
    e.fields.retain(|k, v| {
        ty.field(k)
            .is_some_and(|d| level.field_value_problem(&d.kind, v).is_none())
    });
    Ok(LabelledEdit::new(
        format!("Make entity {id} a \"{new_type}\""),
        Edit {
            replace: vec![Object::Entity(e)],
            ..Edit::default()
        },
        None,
    ))
}

/// Set (`Some`) or remove (`None`) free-form property `key` of `object`. Properties are not checked
/// against a type, but a number must be finite and a reference must name an object of the level.
pub fn set_property(
    level: &Level,
    object: &Object,
    key: &str,
    value: Option<Value>,
    merge: Option<String>,
) -> Result<LabelledEdit, String> {
    if let Some(why) = name_problem(key, "property") {
        return Err(why);
    }
    if let Some(v) = &value
        && let Some(why) = property_problem(level, v)
    {
        return Err(format!("{key} {why}"));
    }
    let mut o = object.clone();
    let label = match value {
        Some(v) => {
            o.properties_mut().insert(key.to_owned(), v);
            format!("Set property {key} of {}", object.label())
        }
        None => {
            o.properties_mut().remove(key);
            format!("Remove property {key} of {}", object.label())
        }
    };
    Ok(LabelledEdit::new(
        label,
        Edit {
            replace: vec![o],
            ..Edit::default()
        },
        merge,
    ))
}

/// A new free-form property `key` (of `value`'s kind) on `object`; refused when it has one of that name.
pub fn add_property(
    level: &Level,
    object: &Object,
    key: &str,
    value: Value,
) -> Result<LabelledEdit, String> {
    if object.properties().contains_key(key) {
        return Err(format!("it already has a property \"{key}\""));
    }
    set_property(level, object, key, Some(value), None)
}

/// Rename free-form property `old` of `object` to `new`.
pub fn rename_property(object: &Object, old: &str, new: &str) -> Result<LabelledEdit, String> {
    if let Some(why) = name_problem(new, "property") {
        return Err(why);
    }
    let mut o = object.clone();
    let props: &mut BTreeMap<String, Value> = o.properties_mut();
    if props.contains_key(new) {
        return Err(format!("it already has a property \"{new}\""));
    }
    let v = props
        .remove(old)
        .ok_or_else(|| format!("it has no property \"{old}\""))?;
    props.insert(new.to_owned(), v);
    Ok(LabelledEdit::new(
        format!("Rename property {old} to {new}"),
        Edit {
            replace: vec![o],
            ..Edit::default()
        },
        None,
    ))
}

/// Why a free-form property value cannot be stored (`None` when it can).
fn property_problem(level: &Level, v: &Value) -> Option<String> {
    level.field_value_problem(&property_kind(v), v)
}

/// The kind of a free-form property holding `v`: its value's own, unbounded, so a property's kind always
/// accepts the value it holds. An enum value's kind lists its one name (a property declares no others).
/// The inspector edits a property with this kind's widget and the document checks the edit against it:
/// one rule for both.
#[must_use]
pub fn property_kind(v: &Value) -> FieldKind {
    match v {
        Value::Bool(_) => FieldKind::Bool,
        Value::Int(_) => FieldKind::Int {
            min: None,
            max: None,
        },
        Value::Float(_) => FieldKind::Float {
            min: None,
            max: None,
        },
        Value::Text(_) => FieldKind::Text,
        Value::Enum(name) => FieldKind::Enum(vec![name.clone()]),
        Value::Color(_) => FieldKind::Color,
        Value::Point(_) => FieldKind::Point,
        Value::Ref(_) => FieldKind::Ref { entity_type: None },
    }
}

/// A value of `kind` to start a new field or property with: the field's lower bound (or zero), the first
/// enum name, white, the origin, or `target` for references.
#[must_use]
pub fn starting_value(kind: &FieldKind, target: ObjectId) -> Value {
    match kind {
        FieldKind::Bool => Value::Bool(false),
        FieldKind::Int { min, max } => Value::Int(min.unwrap_or(0).min(max.unwrap_or(i64::MAX))),
        FieldKind::Float { min, max } => {
            Value::Float(min.unwrap_or(0.0).min(max.unwrap_or(f64::MAX)))
        }
        FieldKind::Text => Value::Text(String::new()),
        FieldKind::Enum(names) => Value::Enum(names.first().cloned().unwrap_or_default()),
        FieldKind::Color => Value::Color((255, 255, 255, 255)),
        FieldKind::Point => Value::Point((0.0, 0.0, 0.0)),
        FieldKind::Ref { .. } => Value::Ref(target),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::document::Document;

    fn courtyard() -> Document {
        let level = Level::from_ron_str(include_str!("../../../levels/courtyard.ron")).unwrap();
        Document::new(level, None)
    }

    fn run(doc: &mut Document, f: impl FnOnce(&Level) -> Result<LabelledEdit, String>) {
        let e = f(doc.level()).unwrap();
        assert!(doc.apply(e.label, e.edit));
    }

    #[test]
    fn renaming_a_field_updates_every_entity_in_one_undo_step() {
        let mut doc = courtyard();
        let before = doc.level().clone();
        let ty = before
            .entity_types
            .iter()
            .find(|t| !t.fields.is_empty() && before.entities_of(&t.name).count() > 1)
            .expect("courtyard has a type with fields and several entities")
            .clone();
        let field = ty.fields[0].name.clone();
        let given = before
            .entities_of(&ty.name)
            .filter(|e| e.fields.contains_key(&field))
            .count();
        run(&mut doc, |l| rename_field(l, &ty.name, &field, "renamed"));
        let after = doc.level();
        let t = after.entity_type(&ty.name).unwrap();
        assert!(t.field("renamed").is_some() && t.field(&field).is_none());
        assert_eq!(
            after
                .entities_of(&ty.name)
                .filter(|e| e.fields.contains_key("renamed"))
                .count(),
            given
        );
        assert!(
            after
                .entities_of(&ty.name)
                .all(|e| !e.fields.contains_key(&field))
        );
        assert!(after.validate().len() <= before.validate().len());
        assert!(doc.undo().is_some());
        assert_eq!(doc.level(), &before, "one undo step brings it all back");
    }

    #[test]
    fn renaming_a_type_carries_entities_and_reference_fields() {
        let mut doc = courtyard();
        let before = doc.level().clone();
        let name = before.entities[0].entity_type.clone();
        let n = before.entities_of(&name).count();
        run(&mut doc, |l| rename_type(l, &name, "thing"));
        assert_eq!(doc.level().entities_of("thing").count(), n);
        assert_eq!(doc.level().entities_of(&name).count(), 0);
        assert!(
            doc.level()
                .entity_types
                .iter()
                .flat_map(|t| &t.fields)
                .all(|f| f.kind
                    != FieldKind::Ref {
                        entity_type: Some(name.clone())
                    })
        );
        assert_eq!(doc.level().validate(), before.validate());
        assert!(doc.undo().is_some());
        assert_eq!(doc.level(), &before);
    }

    #[test]
    fn bad_names_and_values_are_refused_with_the_reason() {
        let doc = courtyard();
        let level = doc.level();
        let existing = level.entity_types[0].name.clone();
        assert!(add_type(level, "").unwrap_err().contains("needs a name"));
        assert!(add_type(level, " x").unwrap_err().contains("spaces"));
        assert!(add_type(level, &existing).unwrap_err().contains("already"));
        let bounded = FieldDef {
            name: "hp".into(),
            kind: FieldKind::Int {
                min: Some(0),
                max: Some(10),
            },
            required: false,
            default: Some(Value::Int(11)),
        };
        let why = add_field(level, &existing, bounded).unwrap_err();
        assert!(why.contains("above the maximum 10"), "{why}");
        // A value out of bounds is refused, not clamped.
        let mut doc = courtyard();
        run(&mut doc, |l| {
            add_field(
                l,
                &existing,
                FieldDef {
                    name: "hp".into(),
                    kind: FieldKind::Int {
                        min: Some(0),
                        max: Some(10),
                    },
                    required: false,
                    default: None,
                },
            )
        });
        let e = doc.level().entities_of(&existing).next().unwrap().id;
        let why = set_entity_field(doc.level(), e, "hp", Some(Value::Int(12)), None).unwrap_err();
        assert_eq!(why, "hp 12 is above the maximum 10");
        let why =
            set_entity_field(doc.level(), e, "hp", Some(Value::Float(1.0)), None).unwrap_err();
        assert!(why.contains("is Float but the field is Int"), "{why}");
        run(&mut doc, |l| {
            set_entity_field(l, e, "hp", Some(Value::Int(7)), None)
        });
        assert_eq!(
            doc.level().entity(e).unwrap().fields.get("hp"),
            Some(&Value::Int(7))
        );
        let wall = doc.object(doc.level().walls[0].id).unwrap();
        let why = set_property(
            doc.level(),
            &wall,
            "target",
            Some(Value::Ref(ObjectId(999_999))),
            None,
        )
        .unwrap_err();
        assert!(why.contains("not in the level"), "{why}");
        let why =
            set_property(doc.level(), &wall, "w", Some(Value::Float(f64::NAN)), None).unwrap_err();
        assert!(why.contains("finite"), "{why}");
    }

    #[test]
    fn properties_add_rename_remove_and_undo() {
        let mut doc = courtyard();
        let before = doc.level().clone();
        let id = doc.level().walls[0].id;
        let wall = doc.object(id).unwrap();
        run(&mut doc, |l| {
            add_property(l, &wall, "glass", Value::Bool(true))
        });
        let wall = doc.object(id).unwrap();
        assert!(
            add_property(doc.level(), &wall, "glass", Value::Bool(false))
                .unwrap_err()
                .contains("already")
        );
        run(&mut doc, |_| rename_property(&wall, "glass", "window"));
        let wall = doc.object(id).unwrap();
        assert_eq!(wall.properties().get("window"), Some(&Value::Bool(true)));
        run(&mut doc, |l| set_property(l, &wall, "window", None, None));
        assert_eq!(
            doc.object(id).unwrap().properties(),
            &before.walls[0].properties
        );
        for _ in 0..3 {
            assert!(doc.undo().is_some());
        }
        assert_eq!(doc.level(), &before);
    }

    #[test]
    fn must_reach_is_one_header_step_and_saved_only_when_true() {
        let mut doc = courtyard();
        let before = doc.level().clone();
        let name = before.entity_types[0].name.clone();
        run(&mut doc, |l| set_type_must_reach(l, &name, true));
        assert!(doc.level().entity_types[0].must_reach);
        assert!(doc.level().to_ron_string().contains("must_reach: true"));
        assert_eq!(
            set_type_must_reach(doc.level(), &name, true).unwrap_err(),
            "nothing changed"
        );
        assert!(
            set_type_must_reach(doc.level(), "nobody", true)
                .unwrap_err()
                .contains("no entity type")
        );
        assert!(doc.undo().is_some());
        assert_eq!(doc.level(), &before);
        assert_eq!(doc.level().to_ron_string(), before.to_ron_string());
    }

    #[test]
    fn removing_a_type_removes_its_entities_and_undo_restores_them() {
        let mut doc = courtyard();
        let before = doc.level().clone();
        let name = before.entities[0].entity_type.clone();
        run(&mut doc, |l| remove_type(l, &name));
        assert!(doc.level().entity_type(&name).is_none());
        assert_eq!(doc.level().entities_of(&name).count(), 0);
        assert!(doc.undo().is_some());
        assert_eq!(doc.level(), &before);
    }

    #[test]
    fn changing_a_kind_resets_only_values_that_no_longer_fit() {
        let mut doc = courtyard();
        run(&mut doc, |l| add_type(l, "crate"));
        let def = FieldDef {
            name: "weight".into(),
            kind: FieldKind::Float {
                min: None,
                max: None,
            },
            required: false,
            default: None,
        };
        run(&mut doc, |l| add_field(l, "crate", def.clone()));
        for (i, w) in [1.5, 80.0].into_iter().enumerate() {
            let mut fields = BTreeMap::new();
            fields.insert("weight".to_owned(), Value::Float(w));
            doc.apply(
                "add",
                Edit {
                    add: vec![Object::Entity(EntityObject {
                        id: ObjectId(0),
                        name: None,
                        entity_type: "crate".into(),
                        position: glam::Vec3::new(i as f32, 0.0, 0.0),
                        yaw_deg: 0.0,
                        fields,
                        properties: BTreeMap::new(),
                    })],
                    ..Edit::default()
                },
            );
        }
        let narrow = FieldDef {
            kind: FieldKind::Float {
                min: Some(0.0),
                max: Some(10.0),
            },
            ..def
        };
        let e = set_field(doc.level(), "crate", "weight", narrow).unwrap();
        assert!(e.label.contains("1 value reset"), "{}", e.label);
        assert!(doc.apply(e.label, e.edit));
        let kept: Vec<_> = doc
            .level()
            .entities_of("crate")
            .filter_map(|e| e.fields.get("weight").cloned())
            .collect();
        assert_eq!(kept, vec![Value::Float(1.5)]);
    }
}
