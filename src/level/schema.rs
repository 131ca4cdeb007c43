//! The objects a level holds (walls, triangles, balls, planes, cylinders, boxes, meshes, the walker's start,
//! simulation settings, probes), as they are in the file and in memory.

use std::collections::BTreeMap;
use std::path::Path;

use glam::{EulerRot, Mat3, Vec2, Vec3};
use serde::{Deserialize, Serialize};

use super::Value;
pub use crate::id::ObjectId;
use crate::shape::{Aabb, Cylinder, Obb, Plane, Triangle, Wall};

/// Units and axes. Only metres with `y` up are defined; the field exists so files say what they mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Units {
    /// Metres; `y` is up; the floor is the XZ plane.
    #[default]
    MetresYUp,
}

/// A wall: a top-down segment with a collision radius, extruded from the floor to a height.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WallObject {
    /// Stable id.
    pub id: ObjectId,
    /// Optional name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// First end, `(x, z)`.
    pub a: Vec2,
    /// Second end, `(x, z)`.
    pub b: Vec2,
    /// Collision distance (seed 003).
    pub radius: f32,
    /// Height; `None` uses the level's `default_wall_height`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<f32>,
    /// Free-form properties (not checked against any type): `properties: {"glass": Bool(true)}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, Value>,
}

impl WallObject {
    /// The wall's shape.
    #[must_use]
    pub fn wall(&self) -> Wall {
        Wall::new(self.a, self.b, self.radius)
    }
}

/// A triangle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TriangleObject {
    /// Stable id.
    pub id: ObjectId,
    /// Optional name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// First vertex.
    pub a: Vec3,
    /// Second vertex.
    pub b: Vec3,
    /// Third vertex (front face: `(b - a) × (c - a)`).
    pub c: Vec3,
    /// A one-way surface: it supports from above and lets everything through from below and the sides
    /// (characters and balls; see `Scene`'s one-way rules). Written only when `true`.
    #[serde(default, skip_serializing_if = "super::mover::is_false")]
    pub one_way: bool,
    /// Free-form properties (not checked against any type): `properties: {"glass": Bool(true)}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, Value>,
}

impl TriangleObject {
    /// The triangle's shape.
    #[must_use]
    pub fn triangle(&self) -> Triangle {
        Triangle::new(self.a, self.b, self.c)
    }
}

/// A ball for the simulation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BallObject {
    /// Stable id.
    pub id: ObjectId,
    /// Optional name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Centre, metres.
    pub center: Vec3,
    /// Velocity, metres per second.
    pub velocity: Vec3,
    /// Radius, metres.
    pub radius: f32,
    /// Mass, kilograms.
    pub mass: f32,
    /// Coefficient of restitution in `[0, 1]`.
    pub restitution: f32,
    /// Free-form properties (not checked against any type): `properties: {"glass": Bool(true)}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, Value>,
}

/// An infinite plane `normal · x = d`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaneObject {
    /// Stable id.
    pub id: ObjectId,
    /// Optional name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Unit normal.
    pub normal: Vec3,
    /// Offset along the normal.
    pub d: f32,
    /// Free-form properties (not checked against any type): `properties: {"glass": Bool(true)}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, Value>,
}

impl PlaneObject {
    /// The plane's shape.
    #[must_use]
    pub fn plane(&self) -> Plane {
        Plane::new(self.normal, self.d)
    }
}

/// A finite capped cylinder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CylinderObject {
    /// Stable id.
    pub id: ObjectId,
    /// Optional name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Centre of the first cap.
    pub a: Vec3,
    /// Centre of the second cap.
    pub b: Vec3,
    /// Radius.
    pub radius: f32,
    /// Free-form properties (not checked against any type): `properties: {"glass": Bool(true)}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, Value>,
}

impl CylinderObject {
    /// The cylinder's shape.
    #[must_use]
    pub fn cylinder(&self) -> Cylinder {
        Cylinder::new(self.a, self.b, self.radius)
    }
}

/// An axis-aligned box.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AabbObject {
    /// Stable id.
    pub id: ObjectId,
    /// Optional name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Minimum corner.
    pub min: Vec3,
    /// Maximum corner.
    pub max: Vec3,
    /// A one-way surface: it supports from above and lets everything through from below and the sides
    /// (characters and balls; see `Scene`'s one-way rules). Written only when `true`.
    #[serde(default, skip_serializing_if = "super::mover::is_false")]
    pub one_way: bool,
    /// Free-form properties (not checked against any type): `properties: {"glass": Bool(true)}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, Value>,
}

impl AabbObject {
    /// The box's shape.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        Aabb::new(self.min, self.max)
    }
}

/// An oriented box, its rotation given as Euler angles in degrees (yaw about `y`, then pitch about `x`, then
/// roll about `z`), which people can read and type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObbObject {
    /// Stable id.
    pub id: ObjectId,
    /// Optional name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Centre.
    pub center: Vec3,
    /// Half size along each local axis.
    pub half_extents: Vec3,
    /// `(yaw, pitch, roll)` in degrees: about `y`, then `x`, then `z`.
    pub rotation_deg: Vec3,
    /// A one-way surface: it supports from above and lets everything through from below and the sides
    /// (characters and balls; see `Scene`'s one-way rules). Written only when `true`.
    #[serde(default, skip_serializing_if = "super::mover::is_false")]
    pub one_way: bool,
    /// Free-form properties (not checked against any type): `properties: {"glass": Bool(true)}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, Value>,
}

impl ObbObject {
    /// The rotation matrix of `rotation_deg`.
    #[must_use]
    pub fn rotation(&self) -> Mat3 {
        let r = self.rotation_deg;
        Mat3::from_euler(
            EulerRot::YXZ,
            r.x.to_radians(),
            r.y.to_radians(),
            r.z.to_radians(),
        )
    }

    /// The box's shape.
    #[must_use]
    pub fn obb(&self) -> Obb {
        Obb::new(self.center, self.half_extents, self.rotation())
    }
}

/// A triangle mesh: inline vertices and triangles, or a Wavefront OBJ or glTF file next to the level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshObject {
    /// Stable id.
    pub id: ObjectId,
    /// Optional name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A mesh file, relative to the level file's folder and inside it (no `..`, not absolute): Wavefront OBJ,
    /// or glTF 2.0 when it ends in `.gltf` or `.glb` (every triangle primitive of the file's scene, placed by
    /// its node transforms, merged into this one mesh). When set, the geometry comes from the file
    /// ([`super::Level::load`] reads it into `vertices` and `indices`) and is not written back into the level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub obj: Option<String>,
    /// Vertex positions.
    #[serde(default)]
    pub vertices: Vec<Vec3>,
    /// Triangles as indices into `vertices`.
    #[serde(default)]
    pub indices: Vec<[u32; 3]>,
    /// A one-way surface: it supports from above and lets everything through from below and the sides
    /// (characters and balls; see `Scene`'s one-way rules). Written only when `true`.
    #[serde(default, skip_serializing_if = "super::mover::is_false")]
    pub one_way: bool,
    /// Free-form properties (not checked against any type): `properties: {"glass": Bool(true)}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, Value>,
}

/// Why an OBJ reference is not acceptable, or `None` when it is a plain relative path inside the folder.
#[must_use]
pub fn obj_path_problem(path: &str) -> Option<&'static str> {
    let p = Path::new(path);
    if path.is_empty() {
        return Some("the OBJ path is empty");
    }
    if p.is_absolute() || p.has_root() {
        return Some("the OBJ path must be relative to the level file's folder, not absolute");
    }
    if p.components().any(|c| {
        !matches!(
            c,
            std::path::Component::Normal(_) | std::path::Component::CurDir
        )
    }) {
        return Some("the OBJ path must stay inside the level file's folder (no `..`)");
    }
    None
}

/// Where the first-person walker starts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WalkerStart {
    /// Position on the floor, `(x, z)`.
    pub position: Vec2,
    /// Facing, in degrees about `y` (0 looks down `-z`, 90 down `-x`).
    pub facing_deg: f32,
    /// Eye height above the floor, metres.
    pub eye_height: f32,
    /// Collision radius, metres.
    pub radius: f32,
    /// The start's storey (format version 3): the character starts on the first supporting surface at or
    /// below `height + max_step` over `position` ([`super::Level::start_feet`]); `None` means `0`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<f32>,
}

impl Default for WalkerStart {
    fn default() -> Self {
        Self {
            position: Vec2::ZERO,
            facing_deg: 0.0,
            eye_height: 1.7,
            radius: 0.3,
            height: None,
        }
    }
}

/// Simulation settings stored with the level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimulationConfig {
    /// Gravity, metres per second squared.
    pub gravity: Vec3,
    /// Fixed time step, seconds.
    pub dt: f32,
}

impl Default for SimulationConfig {
    fn default() -> Self {
        Self {
            gravity: Vec3::new(0.0, -9.81, 0.0),
            dt: 1.0 / 60.0,
        }
    }
}

/// A saved probe: a ray the debugger casts and shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Probe {
    /// Stable id.
    pub id: ObjectId,
    /// Optional name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Ray origin.
    pub origin: Vec3,
    /// Ray direction (any length; `t` is in its units).
    pub dir: Vec3,
    /// Longest `t` shown.
    pub max_t: f32,
    /// Free-form properties (not checked against any type): `properties: {"glass": Bool(true)}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, Value>,
}
