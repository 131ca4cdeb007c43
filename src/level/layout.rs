//! The level file's layouts on disk, one per version, and how each becomes a [`Level`]; the writer's layout.

use crate::character::CharacterController;
use std::collections::BTreeMap;

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use super::{
    AabbObject, BallObject, CylinderObject, EntityObject, EntityType, LEVEL_VERSION, Level,
    MeshObject, MoverObject, ObbObject, ObjectId, PlaneObject, Probe, SectorObject,
    SimulationConfig, Source, TriangleObject, TriggerObject, Units, Value, WalkerStart, WallObject,
};

/// How a mesh is written: an OBJ reference without its loaded geometry, or inline geometry.
#[derive(Serialize)]
pub(super) struct MeshOut<'a> {
    id: ObjectId,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    obj: &'a Option<String>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    vertices: &'a [Vec3],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    indices: &'a [[u32; 3]],
    #[serde(skip_serializing_if = "super::mover::is_false")]
    one_way: bool,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    properties: &'a BTreeMap<String, Value>,
}

impl<'a> From<&'a MeshObject> for MeshOut<'a> {
    fn from(m: &'a MeshObject) -> Self {
        let inline = m.obj.is_none();
        Self {
            id: m.id,
            name: &m.name,
            obj: &m.obj,
            vertices: if inline { &m.vertices } else { &[] },
            indices: if inline { &m.indices } else { &[] },
            one_way: m.one_way,
            properties: &m.properties,
        }
    }
}

/// The current layout borrowing a level, for writing without a copy.
#[derive(Serialize)]
#[serde(rename = "Level")]
pub(super) struct LevelRef<'a> {
    version: u32,
    name: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    description: &'a str,
    units: Units,
    default_wall_height: f32,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub(super) walls: &'a [WallObject],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub(super) triangles: &'a [TriangleObject],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub(super) balls: &'a [BallObject],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub(super) planes: &'a [PlaneObject],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub(super) cylinders: &'a [CylinderObject],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub(super) aabbs: &'a [AabbObject],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub(super) obbs: &'a [ObbObject],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    meshes: Vec<MeshOut<'a>>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub(super) sectors: &'a [SectorObject],
    #[serde(skip_serializing_if = "Option::is_none")]
    walker: Option<&'a WalkerStart>,
    #[serde(skip_serializing_if = "Option::is_none")]
    character: Option<&'a CharacterController>,
    simulation: &'a SimulationConfig,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    probes: &'a [Probe],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    entity_types: &'a [EntityType],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub(super) entities: &'a [EntityObject],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    triggers: &'a [TriggerObject],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub(super) movers: &'a [MoverObject],
}

impl<'a> From<&'a Level> for LevelRef<'a> {
    fn from(l: &'a Level) -> Self {
        Self {
            version: LEVEL_VERSION,
            name: &l.name,
            description: &l.description,
            units: l.units,
            default_wall_height: l.default_wall_height,
            walls: &l.walls,
            triangles: &l.triangles,
            balls: &l.balls,
            planes: &l.planes,
            cylinders: &l.cylinders,
            aabbs: &l.aabbs,
            obbs: &l.obbs,
            meshes: l.meshes.iter().map(MeshOut::from).collect(),
            sectors: &l.sectors,
            walker: l.walker.as_ref(),
            character: l.character.as_ref(),
            simulation: &l.simulation,
            probes: &l.probes,
            entity_types: &l.entity_types,
            entities: &l.entities,
            triggers: &l.triggers,
            movers: &l.movers,
        }
    }
}

/// Version 1, as it is on disk.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Level")]
pub(super) struct LevelV1 {
    version: u32,
    #[serde(default)]
    name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    description: String,
    #[serde(default)]
    units: Units,
    #[serde(default = "default_wall_height")]
    default_wall_height: f32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    walls: Vec<WallObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    triangles: Vec<TriangleObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    balls: Vec<BallObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    planes: Vec<PlaneObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    cylinders: Vec<CylinderObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    aabbs: Vec<AabbObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    obbs: Vec<ObbObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    meshes: Vec<MeshObject>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    walker: Option<WalkerStart>,
    #[serde(default)]
    simulation: SimulationConfig,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    probes: Vec<Probe>,
}

/// Version 2, as it is on disk: version 1 and the game data.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Level")]
pub(super) struct LevelV2 {
    version: u32,
    #[serde(default)]
    name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    description: String,
    #[serde(default)]
    units: Units,
    #[serde(default = "default_wall_height")]
    default_wall_height: f32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    walls: Vec<WallObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    triangles: Vec<TriangleObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    balls: Vec<BallObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    planes: Vec<PlaneObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    cylinders: Vec<CylinderObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    aabbs: Vec<AabbObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    obbs: Vec<ObbObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    meshes: Vec<MeshObject>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    walker: Option<WalkerStart>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    character: Option<CharacterController>,
    #[serde(default)]
    simulation: SimulationConfig,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    probes: Vec<Probe>,
    #[serde(default)]
    entity_types: Vec<EntityType>,
    #[serde(default)]
    entities: Vec<EntityObject>,
    #[serde(default)]
    triggers: Vec<TriggerObject>,
}

/// Version 3, as it is on disk: version 2 and the greybox sectors.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Level")]
pub(super) struct LevelV3 {
    version: u32,
    #[serde(default)]
    name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    description: String,
    #[serde(default)]
    units: Units,
    #[serde(default = "default_wall_height")]
    default_wall_height: f32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    walls: Vec<WallObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    triangles: Vec<TriangleObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    balls: Vec<BallObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    planes: Vec<PlaneObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    cylinders: Vec<CylinderObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    aabbs: Vec<AabbObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    obbs: Vec<ObbObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    meshes: Vec<MeshObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    sectors: Vec<SectorObject>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    walker: Option<WalkerStart>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    character: Option<CharacterController>,
    #[serde(default)]
    simulation: SimulationConfig,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    probes: Vec<Probe>,
    #[serde(default)]
    entity_types: Vec<EntityType>,
    #[serde(default)]
    entities: Vec<EntityObject>,
    #[serde(default)]
    triggers: Vec<TriggerObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    movers: Vec<MoverObject>,
}

fn default_wall_height() -> f32 {
    2.5
}

impl From<LevelV1> for Level {
    fn from(v: LevelV1) -> Self {
        Self {
            name: v.name,
            description: v.description,
            units: v.units,
            default_wall_height: v.default_wall_height,
            walls: v.walls,
            triangles: v.triangles,
            balls: v.balls,
            planes: v.planes,
            cylinders: v.cylinders,
            aabbs: v.aabbs,
            obbs: v.obbs,
            meshes: v.meshes,
            sectors: Vec::new(),
            walker: v.walker,
            character: None,
            simulation: v.simulation,
            probes: v.probes,
            entity_types: Vec::new(),
            entities: Vec::new(),
            triggers: Vec::new(),
            movers: Vec::new(),
            source: Source::none(),
        }
    }
}

impl From<LevelV2> for Level {
    fn from(v: LevelV2) -> Self {
        Self {
            name: v.name,
            description: v.description,
            units: v.units,
            default_wall_height: v.default_wall_height,
            walls: v.walls,
            triangles: v.triangles,
            balls: v.balls,
            planes: v.planes,
            cylinders: v.cylinders,
            aabbs: v.aabbs,
            obbs: v.obbs,
            meshes: v.meshes,
            sectors: Vec::new(),
            walker: v.walker,
            character: v.character,
            simulation: v.simulation,
            probes: v.probes,
            entity_types: v.entity_types,
            entities: v.entities,
            triggers: v.triggers,
            movers: Vec::new(),
            source: Source::none(),
        }
    }
}

impl From<LevelV3> for Level {
    fn from(v: LevelV3) -> Self {
        Self {
            name: v.name,
            description: v.description,
            units: v.units,
            default_wall_height: v.default_wall_height,
            walls: v.walls,
            triangles: v.triangles,
            balls: v.balls,
            planes: v.planes,
            cylinders: v.cylinders,
            aabbs: v.aabbs,
            obbs: v.obbs,
            meshes: v.meshes,
            sectors: v.sectors,
            walker: v.walker,
            character: v.character,
            simulation: v.simulation,
            probes: v.probes,
            entity_types: v.entity_types,
            entities: v.entities,
            triggers: v.triggers,
            movers: v.movers,
            source: Source::none(),
        }
    }
}

/// Version 0, the early draft: numbered nothing, one collision distance for all walls.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename = "Level")]
pub(super) struct LevelV0 {
    #[allow(dead_code)] // Read so that it is accepted; its value is known to be 0.
    version: u32,
    #[serde(default)]
    name: String,
    collision_distance: f32,
    #[serde(default)]
    walls: Vec<(Vec2, Vec2)>,
    #[serde(default)]
    balls: Vec<BallV0>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BallV0 {
    center: Vec3,
    velocity: Vec3,
    radius: f32,
}

impl From<LevelV0> for Level {
    fn from(v: LevelV0) -> Self {
        let mut next = 1u32;
        let mut id = || {
            let i = ObjectId(next);
            next += 1;
            i
        };
        let walls = v
            .walls
            .into_iter()
            .map(|(a, b)| WallObject {
                id: id(),
                name: None,
                a,
                b,
                radius: v.collision_distance,
                height: None,
                properties: BTreeMap::new(),
            })
            .collect();
        let balls = v
            .balls
            .into_iter()
            .map(|b| BallObject {
                id: id(),
                name: None,
                center: b.center,
                velocity: b.velocity,
                radius: b.radius,
                mass: 1.0,
                restitution: 1.0,
                properties: BTreeMap::new(),
            })
            .collect();
        Self {
            name: v.name,
            walls,
            balls,
            ..Self::default()
        }
    }
}
