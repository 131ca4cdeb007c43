//! Levels in version control: a semantic diff (by object id, field by field), a one-line-per-object text form
//! for `git diff`'s textconv, and a three-way merge by object id (the `collidoscope diff` and `merge`
//! commands; feature `cli`).
//!
//! Objects are matched by id within their kind (walls, triangles, …, entities, triggers), entity types by
//! name, and the level's own settings as one pseudo-object `level`. Unchanged objects are recognised by
//! comparing the typed values, so a 100,000-wall level costs little more than reading it; only objects that
//! differ are broken into fields (through their serde form) to say which fields changed or to merge them.

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{
    AabbObject, BallObject, CylinderObject, EntityObject, EntityType, Level, MeshObject, ObbObject,
    PlaneObject, Probe, SectorObject, TriangleObject, TriggerObject, WallObject,
};

/// A kind of object: how to name it, find its id, and read it back from its serde form.
trait Obj: Clone + PartialEq + Serialize + DeserializeOwned {
    fn key(&self) -> Key;
}

/// What matches objects across versions: an id, or a name (entity types); shown as `#12` or `"spawn"`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Key {
    Id(u32),
    Name(String),
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Key::Id(id) => write!(f, "#{id}"),
            Key::Name(n) => f.write_str(n),
        }
    }
}

macro_rules! by_id {
    ($($t:ty),*) => {$(
        impl Obj for $t {
            fn key(&self) -> Key {
                Key::Id(self.id.0)
            }
        }
    )*};
}
by_id!(
    WallObject,
    TriangleObject,
    BallObject,
    PlaneObject,
    CylinderObject,
    AabbObject,
    ObbObject,
    MeshObject,
    SectorObject,
    Probe,
    EntityObject,
    TriggerObject
);

impl Obj for EntityType {
    fn key(&self) -> Key {
        Key::Name(format!("\"{}\"", self.name))
    }
}

/// The level's own settings as one object.
#[derive(Clone, PartialEq, Serialize, serde::Deserialize)]
struct Settings {
    name: String,
    description: String,
    units: super::Units,
    default_wall_height: f32,
    walker: Option<super::WalkerStart>,
    character: Option<crate::character::CharacterController>,
    simulation: super::SimulationConfig,
}

impl Obj for Settings {
    fn key(&self) -> Key {
        Key::Name(String::new())
    }
}

fn settings(l: &Level) -> Settings {
    Settings {
        name: l.name.clone(),
        description: l.description.clone(),
        units: l.units,
        default_wall_height: l.default_wall_height,
        walker: l.walker.clone(),
        character: l.character,
        simulation: l.simulation.clone(),
    }
}

fn fields<T: Obj>(o: &T) -> Map<String, Value> {
    match serde_json::to_value(o) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

/// A value in the level file's notation: tuples for number lists, `Variant(..)` for enum values, `(field:
/// ..)` for objects, `None` for a missing option, numbers as the f32 they were.
#[must_use]
pub fn ron_text(v: &Value) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f64::from(f as f32) == f => format!("{:?}", f as f32),
            Some(f) if n.is_f64() => format!("{f:?}"),
            _ => n.to_string(),
        },
        Value::String(s) => format!("{s:?}"),
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(ron_text).collect();
            if items.iter().all(Value::is_number) {
                format!("({})", inner.join(", "))
            } else {
                format!("[{}]", inner.join(", "))
            }
        }
        Value::Object(m) => {
            // An externally tagged enum value: one capitalised key.
            if m.len() == 1
                && let Some((k, inner)) = m.iter().next()
                && k.starts_with(|c: char| c.is_ascii_uppercase())
            {
                return format!("{k}({})", ron_text(inner));
            }
            let inner: Vec<String> = m
                .iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| {
                    if k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                        format!("{k}: {}", ron_text(v))
                    } else {
                        format!("{k:?}: {}", ron_text(v))
                    }
                })
                .collect();
            format!("({})", inner.join(", "))
        }
    }
}

/// One difference between two levels.
#[derive(Debug, Serialize)]
pub struct Change {
    /// `level`, `walls`, `entity_types`, …
    pub kind: &'static str,
    /// `#12`, `"spawn"` or empty for the level's settings.
    pub key: String,
    /// `added`, `removed` or `changed`.
    pub what: &'static str,
    /// The field, for `changed`.
    pub field: Option<String>,
    /// The object or field before (`removed`, `changed`).
    pub before: Option<Value>,
    /// The object or field after (`added`, `changed`).
    pub after: Option<Value>,
}

fn diff_list<T: Obj>(kind: &'static str, a: &[T], b: &[T], out: &mut Vec<Change>) {
    let index: HashMap<Key, &T> = b.iter().map(|o| (o.key(), o)).collect();
    let in_a: std::collections::HashSet<Key> = a.iter().map(Obj::key).collect();
    for o in a {
        match index.get(&o.key()) {
            None => out.push(Change {
                kind,
                key: o.key().to_string(),
                what: "removed",
                field: None,
                before: Some(Value::Object(fields(o))),
                after: None,
            }),
            Some(n) if *n == o => {}
            Some(n) => {
                let (fa, fb) = (fields(o), fields(*n));
                let names: BTreeSet<&String> = fa.keys().chain(fb.keys()).collect();
                for name in names {
                    let (va, vb) = (fa.get(name), fb.get(name));
                    if va != vb {
                        out.push(Change {
                            kind,
                            key: o.key().to_string(),
                            what: "changed",
                            field: Some(name.clone()),
                            before: va.cloned(),
                            after: vb.cloned(),
                        });
                    }
                }
            }
        }
    }
    for o in b {
        if !in_a.contains(&o.key()) {
            out.push(Change {
                kind,
                key: o.key().to_string(),
                what: "added",
                field: None,
                before: None,
                after: Some(Value::Object(fields(o))),
            });
        }
    }
}

/// Every difference from `a` to `b`: the level settings, then each kind in file order.
#[must_use]
pub fn diff_levels(a: &Level, b: &Level) -> Vec<Change> {
    let mut out = Vec::new();
    diff_list("level", &[settings(a)], &[settings(b)], &mut out);
    // One call per kind (each list has its own element type).
    macro_rules! go {
        ($($k:literal => $field:ident),*) => {$( diff_list($k, &a.$field, &b.$field, &mut out); )*};
    }
    go!("walls" => walls, "triangles" => triangles, "balls" => balls, "planes" => planes,
        "cylinders" => cylinders, "aabbs" => aabbs, "obbs" => obbs, "meshes" => meshes,
        "sectors" => sectors, "probes" => probes,
        "entity_types" => entity_types, "entities" => entities, "triggers" => triggers);
    out
}

/// The level as one line per object, sorted by kind and id: a text `git diff` compares object by object.
#[must_use]
pub fn textconv(l: &Level) -> String {
    let mut out = String::new();
    let mut line = |kind: &str, key: String, v: Map<String, Value>| {
        out.push_str(&format!("{kind} {key}: {}\n", ron_text(&Value::Object(v))));
    };
    line("level", String::new(), fields(&settings(l)));
    macro_rules! go {
        ($($k:literal => $field:ident),*) => {$(
            let mut items: Vec<_> = l.$field.iter().collect();
            items.sort_by_key(|o| sort_key(o.key()));
            for o in items {
                line($k, o.key().to_string(), fields(o));
            }
        )*};
    }
    go!("walls" => walls, "triangles" => triangles, "balls" => balls, "planes" => planes,
        "cylinders" => cylinders, "aabbs" => aabbs, "obbs" => obbs, "meshes" => meshes,
        "sectors" => sectors, "probes" => probes,
        "entity_types" => entity_types, "entities" => entities, "triggers" => triggers);
    out
}

/// Ids sort as numbers, names as text, after the ids.
fn sort_key(key: Key) -> (u64, String) {
    match key {
        Key::Id(n) => (u64::from(n), String::new()),
        Key::Name(n) => (u64::MAX, n),
    }
}

/// A conflict: the kind, the object and the field both sides changed differently.
pub struct Conflict(pub String);

/// Three-way merge of one list by key: unchanged objects are taken whole from the side that changed them;
/// objects changed on both sides are merged field by field.
fn merge_list<T: Obj>(
    kind: &str,
    base: &[T],
    ours: &[T],
    theirs: &[T],
    conflicts: &mut Vec<Conflict>,
) -> Vec<T> {
    let b: HashMap<Key, &T> = base.iter().map(|o| (o.key(), o)).collect();
    let t: HashMap<Key, &T> = theirs.iter().map(|o| (o.key(), o)).collect();
    let o_keys: std::collections::HashSet<Key> = ours.iter().map(Obj::key).collect();
    let mut out = Vec::with_capacity(ours.len().max(theirs.len()));
    for mine in ours {
        let key = mine.key();
        match (b.get(&key), t.get(&key)) {
            (Some(&old), Some(&their)) => {
                if mine == old {
                    out.push(their.clone());
                } else if their == old || their == mine {
                    out.push(mine.clone());
                } else {
                    out.push(merge_fields(
                        kind,
                        &key.to_string(),
                        old,
                        mine,
                        their,
                        conflicts,
                    ));
                }
            }
            (Some(&old), None) => {
                // They deleted it: fine unless we changed it.
                if mine != old {
                    conflicts.push(Conflict(format!(
                        "{kind} {key}: changed here, deleted on the other side"
                    )));
                    out.push(mine.clone());
                }
            }
            (None, Some(&their)) => {
                if their != mine {
                    conflicts.push(Conflict(format!(
                        "{kind} {key}: added on both sides, differently"
                    )));
                }
                out.push(mine.clone());
            }
            (None, None) => out.push(mine.clone()),
        }
    }
    for their in theirs {
        let key = their.key();
        if o_keys.contains(&key) {
            continue;
        }
        match b.get(&key) {
            // We deleted it: fine unless they changed it.
            Some(&old) if old != their => {
                conflicts.push(Conflict(format!(
                    "{kind} {key}: deleted here, changed on the other side"
                )));
            }
            Some(_) => {}
            None => out.push(their.clone()),
        }
    }
    out
}

fn merge_fields<T: Obj>(
    kind: &str,
    key: &str,
    old: &T,
    mine: &T,
    their: &T,
    conflicts: &mut Vec<Conflict>,
) -> T {
    let (fb, fo, ft) = (fields(old), fields(mine), fields(their));
    let names: BTreeSet<&String> = fb.keys().chain(fo.keys()).chain(ft.keys()).collect();
    let mut merged = Map::new();
    let mut clash = false;
    for name in names {
        let (vb, vo, vt) = (fb.get(name), fo.get(name), ft.get(name));
        let pick = if vo == vb {
            vt
        } else if vt == vb || vt == vo {
            vo
        } else {
            clash = true;
            conflicts.push(Conflict(format!(
                "{kind} {key} {name}: base {}, ours {}, theirs {}",
                vb.map_or("(none)".into(), ron_text),
                vo.map_or("(none)".into(), ron_text),
                vt.map_or("(none)".into(), ron_text)
            )));
            vo
        };
        if let Some(v) = pick {
            merged.insert(name.clone(), v.clone());
        }
    }
    if clash {
        return mine.clone();
    }
    serde_json::from_value(Value::Object(merged)).unwrap_or_else(|_| {
        conflicts.push(Conflict(format!(
            "{kind} {key}: the merged fields do not form a valid object"
        )));
        mine.clone()
    })
}

/// Three-way merge: the merged level, with every conflict pushed to `conflicts` (a conflicting field keeps
/// ours).
pub fn merge_levels(
    base: &Level,
    ours: &Level,
    theirs: &Level,
    conflicts: &mut Vec<Conflict>,
) -> Level {
    let s = merge_list(
        "level",
        &[settings(base)],
        &[settings(ours)],
        &[settings(theirs)],
        conflicts,
    );
    // Ours' settings unless the merge of the settings says otherwise; every list is merged below (no copy
    // of ours' objects, and no source text: the merged level's positions are not ours').
    let mut out = Level {
        name: ours.name.clone(),
        description: ours.description.clone(),
        units: ours.units,
        default_wall_height: ours.default_wall_height,
        walker: ours.walker.clone(),
        character: ours.character,
        simulation: ours.simulation.clone(),
        ..Level::default()
    };
    if let Some(s) = s.into_iter().next() {
        out.name = s.name;
        out.description = s.description;
        out.units = s.units;
        out.default_wall_height = s.default_wall_height;
        out.walker = s.walker;
        out.character = s.character;
        out.simulation = s.simulation;
    }
    macro_rules! go {
        ($($k:literal => $field:ident),*) => {$(
            out.$field = merge_list($k, &base.$field, &ours.$field, &theirs.$field, conflicts);
        )*};
    }
    go!("walls" => walls, "triangles" => triangles, "balls" => balls, "planes" => planes,
        "cylinders" => cylinders, "aabbs" => aabbs, "obbs" => obbs, "meshes" => meshes,
        "sectors" => sectors, "probes" => probes,
        "entity_types" => entity_types, "entities" => entities, "triggers" => triggers);
    out
}
