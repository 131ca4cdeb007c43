//! Game data in levels (format version 2): typed entity definitions, entities, trigger volumes, and free-form
//! properties; typed access for games ([`Level::entities_of`], [`Level::entity_field`],
//! [`EntityObject::fields_as`]).
//!
//! ```
//! use collidoscope::level::{Level, Value};
//! #[derive(serde::Deserialize)]
//! struct Spawn { team: String, health: f64 }
//!
//! let level = Level::from_ron_str(r#"(version: 2,
//!     entity_types: [(name: "spawn", fields: [
//!         (name: "team", kind: Enum(["red", "blue"]), required: true),
//!         (name: "health", kind: Float(min: Some(0.0), max: Some(100.0)), default: Some(Float(100.0))),
//!     ])],
//!     entities: [(id: 12, entity_type: "spawn", position: (1.0, 0.0, 2.0), fields: {"team": Enum("red")})],
//! )"#).unwrap();
//! let spawn = level.entities_of("spawn").next().unwrap();
//! assert_eq!(level.entity_field(spawn, "health"), Some(&Value::Float(100.0))); // the type's default
//! let s: Spawn = spawn.fields_as(&level).unwrap();
//! assert_eq!((s.team.as_str(), s.health), ("red", 100.0));
//! ```

use std::collections::BTreeMap;
use std::fmt;

use glam::Vec3;
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use serde::{Deserialize, Serialize};

use super::{Level, LevelError, ObjectId, Problem, Severity};

/// The kind of a typed entity field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FieldKind {
    /// `true` / `false`.
    Bool,
    /// A whole number, optionally bounded (inclusive).
    Int {
        /// Smallest allowed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min: Option<i64>,
        /// Largest allowed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max: Option<i64>,
    },
    /// A number, optionally bounded (inclusive).
    Float {
        /// Smallest allowed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min: Option<f64>,
        /// Largest allowed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max: Option<f64>,
    },
    /// Free text.
    Text,
    /// One of the listed names.
    Enum(Vec<String>),
    /// An RGBA colour.
    Color,
    /// A point in the level.
    Point,
    /// Another object of the level, by id; with `entity_type`, an entity of that type.
    Ref {
        /// The type the target must be, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        entity_type: Option<String>,
    },
}

impl FieldKind {
    /// The kind's name, as in the file (`Bool`, `Int`, ...).
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            FieldKind::Bool => "Bool",
            FieldKind::Int { .. } => "Int",
            FieldKind::Float { .. } => "Float",
            FieldKind::Text => "Text",
            FieldKind::Enum(_) => "Enum",
            FieldKind::Color => "Color",
            FieldKind::Point => "Point",
            FieldKind::Ref { .. } => "Ref",
        }
    }
}

/// A field's value (typed fields and free-form properties).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Value {
    /// A boolean.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number.
    Float(f64),
    /// Text.
    Text(String),
    /// An enum value, by name.
    Enum(String),
    /// RGBA.
    Color((u8, u8, u8, u8)),
    /// A point.
    Point((f32, f32, f32)),
    /// Another object's id (in RON `Ref(12)`).
    Ref(ObjectId),
}

impl Value {
    /// The kind's name (`Bool`, `Int`, ...), as [`FieldKind::name`].
    #[must_use]
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Bool(_) => "Bool",
            Value::Int(_) => "Int",
            Value::Float(_) => "Float",
            Value::Text(_) => "Text",
            Value::Enum(_) => "Enum",
            Value::Color(_) => "Color",
            Value::Point(_) => "Point",
            Value::Ref(_) => "Ref",
        }
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One typed field of an entity type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldDef {
    /// The field's name, unique within its type.
    pub name: String,
    /// Its kind.
    pub kind: FieldKind,
    /// Whether every entity must give it (a default does not count).
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    /// The value of entities that do not give one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
}

/// An entity type: its typed fields, editor colour and how many entities of it a level may have.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntityType {
    /// The type's name, unique within the level.
    pub name: String,
    /// Colour in the editor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<(u8, u8, u8)>,
    /// Fewest entities of the type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_count: Option<u32>,
    /// Most entities of the type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_count: Option<u32>,
    /// Whether the level's character must be able to walk to every entity of the type from the walker start
    /// (its position taken as its feet). [`Level::validate`] does not check it (that needs a reachability map:
    /// `collidoscope check --reach` builds one, or [`Level::reach_problems`]); left out of the file when false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub must_reach: bool,
    /// Typed fields.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldDef>,
}

impl EntityType {
    /// The field definition with this name.
    #[must_use]
    pub fn field(&self, name: &str) -> Option<&FieldDef> {
        self.fields.iter().find(|f| f.name == name)
    }
}

fn is_zero(v: &f32) -> bool {
    *v == 0.0
}

/// An entity: a typed, placed thing of the game (a spawn point, a pickup, a door).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntityObject {
    /// Stable id.
    pub id: ObjectId,
    /// Optional name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its type's name (in `entity_types`).
    pub entity_type: String,
    /// Where it is.
    pub position: Vec3,
    /// Facing, degrees about `y` (0 looks down `-z`, as the walker).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub yaw_deg: f32,
    /// Values of the type's fields (those left out take the type's default).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub fields: BTreeMap<String, Value>,
    /// Free-form properties, not checked against the type.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, Value>,
}

/// A trigger volume's shape: defined beside the trigger volumes it becomes ([`crate::trigger`]), which know
/// nothing of levels.
pub use crate::trigger::TriggerShape;

/// A trigger volume: the game is told when balls (or its own movers, through the scene) enter and leave it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TriggerObject {
    /// Stable id.
    pub id: ObjectId,
    /// Optional name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its volume.
    pub shape: TriggerShape,
    /// Free-form properties.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, Value>,
}

impl Level {
    /// The entity type with this name.
    #[must_use]
    pub fn entity_type(&self, name: &str) -> Option<&EntityType> {
        self.entity_types.iter().find(|t| t.name == name)
    }

    /// The entities of a type, in file order.
    pub fn entities_of<'a>(
        &'a self,
        entity_type: &'a str,
    ) -> impl Iterator<Item = &'a EntityObject> + 'a {
        self.entities
            .iter()
            .filter(move |e| e.entity_type == entity_type)
    }

    /// The entity with this id.
    #[must_use]
    pub fn entity(&self, id: ObjectId) -> Option<&EntityObject> {
        self.entities.iter().find(|e| e.id == id)
    }

    /// An entity's field: its own value, else its type's default; `None` when neither gives one.
    #[must_use]
    pub fn entity_field<'a>(&'a self, entity: &'a EntityObject, field: &str) -> Option<&'a Value> {
        entity.fields.get(field).or_else(|| {
            self.entity_type(&entity.entity_type)?
                .field(field)?
                .default
                .as_ref()
        })
    }
}

impl EntityObject {
    /// The entity's fields, defaults filled in, as the game's own struct (through serde): `Bool` as a bool,
    /// `Int` i64, `Float` f64, `Text` and `Enum` strings, `Color` a 4-tuple of u8, `Point` a 3-tuple of f32,
    /// `Ref` the id as u32 (so `ObjectId` works).
    ///
    /// # Errors
    /// [`LevelError::Invalid`] naming the entity and the field (`entities[3].fields.health`) when a value
    /// does not fit the struct or a field it needs has no value.
    pub fn fields_as<T: DeserializeOwned>(&self, level: &Level) -> Result<T, LevelError> {
        let mut map: BTreeMap<String, Plain> = BTreeMap::new();
        if let Some(ty) = level.entity_type(&self.entity_type) {
            for f in &ty.fields {
                if let Some(d) = &f.default {
                    map.insert(f.name.clone(), Plain::from(d));
                }
            }
        }
        for (k, v) in &self.fields {
            map.insert(k.clone(), Plain::from(v));
        }
        let index = level
            .entities
            .iter()
            .position(|e| e.id == self.id)
            .unwrap_or(0);
        let de = de::value::MapDeserializer::new(map.into_iter());
        serde_path_to_error::deserialize::<_, T>(de).map_err(|e| {
            let path = e.path().to_string();
            let field = if path == "." || path == "?" {
                format!("entities[{index}].fields")
            } else {
                format!("entities[{index}].fields.{path}")
            };
            LevelError::Invalid {
                problems: vec![Problem {
                    severity: Severity::Error,
                    object: Some(self.id),
                    field,
                    message: format!(
                        "entity {} ({}): {}",
                        self.id,
                        self.entity_type,
                        e.into_inner()
                    ),
                    line: None,
                    col: None,
                }],
            }
        })
    }
}

/// A value in its plain serde form, for [`EntityObject::fields_as`].
#[derive(Clone, Debug)]
enum Plain {
    Bool(bool),
    I64(i64),
    F64(f64),
    F32(f32),
    U8(u8),
    U32(u32),
    Str(String),
    Seq(Vec<Plain>),
}

impl From<&Value> for Plain {
    fn from(v: &Value) -> Self {
        match v {
            Value::Bool(b) => Plain::Bool(*b),
            Value::Int(i) => Plain::I64(*i),
            Value::Float(f) => Plain::F64(*f),
            Value::Text(s) | Value::Enum(s) => Plain::Str(s.clone()),
            Value::Color((r, g, b, a)) => {
                Plain::Seq([*r, *g, *b, *a].into_iter().map(Plain::U8).collect())
            }
            Value::Point((x, y, z)) => {
                Plain::Seq([*x, *y, *z].into_iter().map(Plain::F32).collect())
            }
            Value::Ref(id) => Plain::U32(id.0),
        }
    }
}

impl<'de> IntoDeserializer<'de, de::value::Error> for Plain {
    type Deserializer = Plain;
    fn into_deserializer(self) -> Plain {
        self
    }
}

impl<'de> de::Deserializer<'de> for Plain {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self {
            Plain::Bool(b) => visitor.visit_bool(b),
            Plain::I64(i) => visitor.visit_i64(i),
            Plain::F64(f) => visitor.visit_f64(f),
            Plain::F32(f) => visitor.visit_f32(f),
            Plain::U8(u) => visitor.visit_u8(u),
            Plain::U32(u) => visitor.visit_u32(u),
            Plain::Str(s) => visitor.visit_string(s),
            Plain::Seq(items) => {
                visitor.visit_seq(de::value::SeqDeserializer::new(items.into_iter()))
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self {
            // A unit variant by name (a game's own enum for an `Enum` field).
            Plain::Str(s) => visitor.visit_enum(s.into_deserializer()),
            other => {
                de::Deserializer::deserialize_any(other, visitor).map_err(|e: de::value::Error| {
                    de::Error::custom(format!("{e} (expected one of {variants:?} of {name})"))
                })
            }
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Text(s) => write!(f, "{s:?}"),
            Value::Enum(s) => write!(f, "{s}"),
            Value::Color((r, g, b, a)) => write!(f, "#{r:02x}{g:02x}{b:02x}{a:02x}"),
            Value::Point((x, y, z)) => write!(f, "({x}, {y}, {z})"),
            Value::Ref(id) => write!(f, "{id}"),
        }
    }
}
