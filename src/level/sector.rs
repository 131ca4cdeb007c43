//! Greybox sectors in a level (format version 3): a polygon outline with optional holes, a floor and a
//! ceiling, cooked into triangles by [`crate::sector`].

use std::collections::BTreeMap;

use glam::Vec2;
use serde::{Deserialize, Serialize};

use super::{ObjectId, Value};
use crate::sector::SectorGeom;
pub use crate::sector::{Slope, Surface};

/// A sector: a room of a 2.5D level. Points are `(x, z)` in metres, either winding; its floor faces up, its
/// ceiling down, and each outline or hole edge is cooked by what lies across it (see [`crate::sector`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SectorObject {
    /// Stable id (the cooked triangles' object in the scene).
    pub id: ObjectId,
    /// Optional name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The outline, `(x, z)` points in order (not repeating the first at the end).
    pub outline: Vec<Vec2>,
    /// Holes inside the outline (pillars, pits, other sectors set into this one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<Vec<Vec2>>,
    /// The floor: faces up.
    pub floor: Surface,
    /// The ceiling: faces down; never below the floor.
    pub ceiling: Surface,
    /// A one-way surface: it supports from above and lets everything through from below and the sides
    /// (characters and balls; see `Scene`'s one-way rules). Written only when `true`.
    #[serde(default, skip_serializing_if = "super::mover::is_false")]
    pub one_way: bool,
    /// Free-form properties (not checked against any type): `properties: {"lava": Bool(true)}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, Value>,
}

impl SectorObject {
    /// The sector's geometry as the cooking takes it.
    #[must_use]
    pub fn geom(&self) -> SectorGeom<'_> {
        SectorGeom {
            id: self.id,
            outline: &self.outline,
            holes: &self.holes,
            floor: self.floor,
            ceiling: self.ceiling,
        }
    }
}
