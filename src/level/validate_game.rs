//! Validation of a level's game data: entity types, entities and their typed fields, triggers.

use std::collections::{HashMap, HashSet};

use super::game::{EntityObject, EntityType, FieldDef, FieldKind, TriggerShape, Value};
use super::{Level, ObjectId, Problem, Severity};

struct Out(Vec<Problem>);

impl Out {
    fn error(&mut self, object: Option<ObjectId>, field: String, message: String) {
        self.0.push(Problem {
            severity: Severity::Error,
            object,
            field,
            message,
            line: None,
            col: None,
        });
    }

    fn warning(&mut self, object: Option<ObjectId>, field: String, message: String) {
        self.0.push(Problem {
            severity: Severity::Warning,
            object,
            field,
            message,
            line: None,
            col: None,
        });
    }
}

impl Level {
    /// Why `value` does not fit a field of `kind` in this level (`None` when it does): out of bounds, not
    /// one of an enum's names, not finite, of another kind, or a reference to an object that is not in the
    /// level or not of the required entity type. The same rule [`Level::validate`] applies to every field;
    /// the editor uses it to refuse a value with its reason.
    #[must_use]
    pub fn field_value_problem(&self, kind: &FieldKind, value: &Value) -> Option<String> {
        let mut ids: HashMap<ObjectId, Option<&str>> = HashMap::new();
        if let Value::Ref(id) = value {
            if let Some(e) = self.entities.iter().find(|e| e.id == *id) {
                ids.insert(*id, Some(e.entity_type.as_str()));
            } else if self.object_ids().any(|o| o == *id) {
                ids.insert(*id, None);
            }
        }
        value_problem(kind, value, &ids)
    }

    /// Why a field definition is not valid on its own (`None` when it is): no name, bounds that are not
    /// finite or cross, an enum without values, a default that does not fit. Uniqueness within its type is
    /// the caller's to check.
    #[must_use]
    pub fn field_def_problem(&self, def: &FieldDef) -> Option<String> {
        let mut out = Out(Vec::new());
        let ids: HashMap<ObjectId, Option<&str>> = match &def.default {
            Some(Value::Ref(id)) => self
                .entities
                .iter()
                .find(|e| e.id == *id)
                .map(|e| (*id, Some(e.entity_type.as_str())))
                .or_else(|| self.object_ids().any(|o| o == *id).then_some((*id, None)))
                .into_iter()
                .collect(),
            _ => HashMap::new(),
        };
        check_def(&mut out, "field", def, &mut HashSet::new(), &ids);
        out.0.into_iter().next().map(|p| p.message)
    }
}

/// Why `value` does not fit `kind` (`None` when it does). `ids` names every object by id with its entity
/// type (`None` for objects that are not entities).
fn value_problem(
    kind: &FieldKind,
    value: &Value,
    ids: &HashMap<ObjectId, Option<&str>>,
) -> Option<String> {
    match (kind, value) {
        (FieldKind::Bool, Value::Bool(_))
        | (FieldKind::Text, Value::Text(_))
        | (FieldKind::Color, Value::Color(_)) => None,
        (FieldKind::Int { min, max }, Value::Int(v)) => match (min, max) {
            (Some(lo), _) if v < lo => Some(format!("{v} is below the minimum {lo}")),
            (_, Some(hi)) if v > hi => Some(format!("{v} is above the maximum {hi}")),
            _ => None,
        },
        (FieldKind::Float { min, max }, Value::Float(v)) => {
            if !v.is_finite() {
                Some(format!("must be a finite number (is {v})"))
            } else {
                match (min, max) {
                    (Some(lo), _) if v < lo => Some(format!("{v} is below the minimum {lo}")),
                    (_, Some(hi)) if v > hi => Some(format!("{v} is above the maximum {hi}")),
                    _ => None,
                }
            }
        }
        (FieldKind::Enum(names), Value::Enum(v)) => (!names.contains(v)).then(|| {
            format!(
                "\"{v}\" is not one of the listed values ({})",
                names.join(", ")
            )
        }),
        (FieldKind::Point, Value::Point((x, y, z))) => {
            (![x, y, z].iter().all(|c| c.is_finite())).then(|| "must be a finite point".to_owned())
        }
        (FieldKind::Ref { entity_type }, Value::Ref(id)) => match ids.get(id) {
            None => Some(format!("refers to {id}, which is not in the level")),
            Some(actual) => match (entity_type, actual) {
                (Some(want), Some(got)) if want != got => Some(format!(
                    "refers to {id}, a \"{got}\" entity, not a \"{want}\""
                )),
                (Some(want), None) => {
                    Some(format!("refers to {id}, which is not a \"{want}\" entity"))
                }
                _ => None,
            },
        },
        (kind, value) => Some(format!(
            "is {} but the field is {}",
            value.kind_name(),
            kind.name()
        )),
    }
}

/// Every problem of the level's game data: its entity types, its entities, the types' counts and its triggers,
/// in that order.
pub(super) fn problems(level: &Level) -> Vec<Problem> {
    let mut out = Out(Vec::new());
    if level.entity_types.is_empty() && level.entities.is_empty() && level.triggers.is_empty() {
        return out.0;
    }
    let mut ids: HashMap<ObjectId, Option<&str>> =
        level.object_ids().map(|id| (id, None)).collect();
    for e in &level.entities {
        ids.insert(e.id, Some(e.entity_type.as_str()));
    }
    check_types(&mut out, level, &ids);
    let counts = check_entities(&mut out, level, &ids);
    check_counts(&mut out, level, &counts);
    check_triggers(&mut out, level);
    out.0
}

/// The entity types' problems: a missing or repeated name, crossed counts, a reach requirement without a
/// walker, and their field definitions'.
fn check_types(out: &mut Out, level: &Level, ids: &HashMap<ObjectId, Option<&str>>) {
    let mut type_names = HashSet::new();
    for (k, t) in level.entity_types.iter().enumerate() {
        let at = format!("entity_types[{k}]");
        if t.name.trim().is_empty() {
            out.error(
                None,
                format!("{at}.name"),
                "an entity type needs a name".into(),
            );
        }
        if !type_names.insert(t.name.as_str()) {
            out.error(
                None,
                format!("{at}.name"),
                format!("type \"{}\" is defined twice", t.name),
            );
        }
        if let (Some(lo), Some(hi)) = (t.min_count, t.max_count)
            && lo > hi
        {
            out.error(
                None,
                format!("{at}.min_count"),
                format!("min_count {lo} is above max_count {hi}"),
            );
        }
        if t.must_reach && level.walker.is_none() {
            out.warning(
                None,
                format!("{at}.must_reach"),
                format!(
                    "\"{}\" entities must be reachable, but the level has no walker start to reach them from \
                     (`collidoscope check --reach` needs one)",
                    t.name
                ),
            );
        }
        let mut field_names = HashSet::new();
        for (f, def) in t.fields.iter().enumerate() {
            let fat = format!("{at}.fields[{f}]");
            check_def(out, &fat, def, &mut field_names, ids);
        }
    }
}

/// The entities' problems (position, type, fields), and how many entities each known type has.
fn check_entities<'a>(
    out: &mut Out,
    level: &'a Level,
    ids: &HashMap<ObjectId, Option<&str>>,
) -> HashMap<&'a str, u32> {
    let mut counts: HashMap<&str, u32> = HashMap::new();
    for (i, e) in level.entities.iter().enumerate() {
        let at = format!("entities[{i}]");
        if !(e.position.is_finite() && e.yaw_deg.is_finite()) {
            out.error(
                Some(e.id),
                format!("{at}.position"),
                "must be finite numbers".into(),
            );
        }
        let Some(ty) = level.entity_type(&e.entity_type) else {
            out.error(
                Some(e.id),
                format!("{at}.entity_type"),
                format!("unknown entity type \"{}\"", e.entity_type),
            );
            continue;
        };
        *counts.entry(ty.name.as_str()).or_default() += 1;
        check_entity_fields(out, &at, e, ty, ids);
    }
    counts
}

/// Entity `e`'s (at `at`) field problems against its type `ty`: a value that does not fit, a required field
/// missing, a field the type does not have.
fn check_entity_fields(
    out: &mut Out,
    at: &str,
    e: &EntityObject,
    ty: &EntityType,
    ids: &HashMap<ObjectId, Option<&str>>,
) {
    for def in &ty.fields {
        let fat = format!("{at}.fields.{}", def.name);
        match e.fields.get(&def.name) {
            Some(v) => {
                if let Some(why) = value_problem(&def.kind, v, ids) {
                    out.error(Some(e.id), fat, why);
                }
            }
            None if def.required => {
                out.error(
                    Some(e.id),
                    fat,
                    format!("required field \"{}\" is missing", def.name),
                );
            }
            None => {}
        }
    }
    for name in e.fields.keys() {
        if ty.field(name).is_none() {
            out.error(
                Some(e.id),
                format!("{at}.fields.{name}"),
                format!("type \"{}\" has no field \"{name}\"", ty.name),
            );
        }
    }
}

/// The entity types' counts (`counts`, by type name) outside their `min_count..=max_count`.
fn check_counts(out: &mut Out, level: &Level, counts: &HashMap<&str, u32>) {
    for (k, t) in level.entity_types.iter().enumerate() {
        let n = counts.get(t.name.as_str()).copied().unwrap_or(0);
        if let Some(lo) = t.min_count
            && n < lo
        {
            out.error(
                None,
                format!("entity_types[{k}].min_count"),
                format!("{n} \"{}\" entities, fewer than the minimum {lo}", t.name),
            );
        }
        if let Some(hi) = t.max_count
            && n > hi
        {
            out.error(
                None,
                format!("entity_types[{k}].max_count"),
                format!("{n} \"{}\" entities, more than the maximum {hi}", t.name),
            );
        }
    }
}

/// The triggers' shape problems.
fn check_triggers(out: &mut Out, level: &Level) {
    for (i, t) in level.triggers.iter().enumerate() {
        let at = format!("triggers[{i}].shape");
        if let Some(why) = trigger_shape_problem(&t.shape) {
            out.error(Some(t.id), at, why.into());
        }
    }
}

/// Why a trigger's shape is not valid (`None` when it is).
fn trigger_shape_problem(shape: &TriggerShape) -> Option<&'static str> {
    match shape {
        TriggerShape::Aabb(b) => {
            (!b.is_valid()).then_some("the box needs finite corners with min <= max")
        }
        TriggerShape::Sphere(s) => {
            (!s.is_valid()).then_some("the sphere needs a finite centre and a radius > 0")
        }
        TriggerShape::Prism {
            points,
            bottom,
            top,
        } => {
            if points.len() < 3 {
                Some("a prism needs at least 3 points")
            } else if !(points.iter().all(|p| p.is_finite())
                && bottom.is_finite()
                && top.is_finite())
            {
                Some("a prism needs finite points and heights")
            } else if bottom > top {
                Some("a prism's bottom is above its top")
            } else if prism_area(points).abs() <= f32::EPSILON {
                Some("a prism's outline encloses no area")
            } else {
                None
            }
        }
    }
}

fn check_def(
    out: &mut Out,
    at: &str,
    def: &FieldDef,
    names: &mut HashSet<String>,
    ids: &HashMap<ObjectId, Option<&str>>,
) {
    if def.name.trim().is_empty() {
        out.error(None, format!("{at}.name"), "a field needs a name".into());
    }
    if !names.insert(def.name.clone()) {
        out.error(
            None,
            format!("{at}.name"),
            format!("field \"{}\" is defined twice", def.name),
        );
    }
    match &def.kind {
        FieldKind::Int {
            min: Some(lo),
            max: Some(hi),
        } if lo > hi => {
            out.error(
                None,
                format!("{at}.kind"),
                format!("min {lo} is above max {hi}"),
            );
        }
        FieldKind::Float { min, max } => {
            if min.is_some_and(|v| !v.is_finite()) || max.is_some_and(|v| !v.is_finite()) {
                out.error(None, format!("{at}.kind"), "bounds must be finite".into());
            } else if let (Some(lo), Some(hi)) = (min, max)
                && lo > hi
            {
                out.error(
                    None,
                    format!("{at}.kind"),
                    format!("min {lo} is above max {hi}"),
                );
            }
        }
        FieldKind::Enum(names) if names.is_empty() => {
            out.error(
                None,
                format!("{at}.kind"),
                "an enum needs at least one value".into(),
            );
        }
        _ => {}
    }
    if let Some(d) = &def.default
        && let Some(why) = value_problem(&def.kind, d, ids)
    {
        out.error(None, format!("{at}.default"), format!("the default {why}"));
    }
}

/// Signed area of a top-down outline (shoelace).
fn prism_area(points: &[glam::Vec2]) -> f32 {
    let n = points.len();
    (0..n)
        .map(|i| points[i].perp_dot(points[(i + 1) % n]))
        .sum::<f32>()
        * 0.5
}
