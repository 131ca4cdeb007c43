//! The moved objects' solids in the 3D preview (no GPU, unit-tested). The static scene leaves out what a
//! mover moves and keeps it here at its unmoved place ([`MovedScene`], built with the static scene, so once
//! per edit); each frame [`MovedScene::at`] places every part at its mover's offset from the shown clock
//! (`movers::shown`), and the renderer draws that small buffer beside the kept static one. Time going on
//! never rebuilds nor re-uploads the static scene.
//!
//! The parts are placed the way the runtime's `Scene::set_time` places the shapes (`mover::translated`): a
//! box's corners are its `min` and `max` plus the offset, a triangle's and a mesh's vertices each plus the
//! offset, an oriented box drawn about its centre plus the offset, a cylinder between its ends plus the
//! offset. Sectors are cooked by the runtime's own level adapter when a mover moves one of them
//! (`level::sector_geom_with_mover`: a moving floor at the lowest height its path reaches, a moving ceiling
//! at the highest), and its moving part is the runtime's piston (`level::mover_piston`): the floor's
//! (ceiling's) triangles at the sector's own height with side faces hanging down (standing up) by the
//! path's vertical range. A whole sector mover moves the sector's cooked triangles.

use std::collections::{HashMap, HashSet};

use glam::Vec3;

use super::solids::{CYLINDER_SEGMENTS, Paint, Solids, corner_box, face_color};
use crate::editor::document::Kind;
use crate::level::{
    Level, MoverObject, MoverPart, ObjectId, SectorObject, mover_piston, sector_geom_with_mover,
};
use crate::sector::{CookedSector, SectorCook};

/// What one moved part looks like at its unmoved place.
#[derive(Clone, Debug, PartialEq)]
enum Shape {
    /// An axis-aligned box from its corners (placed as `min + offset`, `max + offset`).
    Aabb { min: Vec3, max: Vec3 },
    /// An oriented box about its centre.
    Obb {
        center: Vec3,
        axes: [Vec3; 3],
        half: Vec3,
    },
    /// A capped cylinder between two ends.
    Cylinder { a: Vec3, b: Vec3, radius: f32 },
    /// Triangles (a level triangle, a mesh, a sector or its piston), each with its colour.
    Triangles(Vec<([Vec3; 3], [u8; 4])>),
}

/// One moved part: its mover, its shape at the unmoved place and how it is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct MovedPart {
    /// The mover's id (the clock's offsets are by mover).
    pub mover: ObjectId,
    /// The moved object's id.
    pub object: ObjectId,
    shape: Shape,
    rgba: [u8; 4],
    /// Drawn from its front only (sectors and pistons, as the static sectors are).
    front_only: bool,
}

/// The moved objects of a level at their unmoved places (see the module's notes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MovedScene {
    /// The parts, in the level's mover order.
    pub parts: Vec<MovedPart>,
}

/// The moved objects' triangles at one time: the lit ones seen from both sides and the front-only ones.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MovedSolids {
    /// Drawn from both sides (boxes, triangles, cylinders, meshes).
    pub solids: Solids,
    /// Drawn from their front only (sectors and pistons).
    pub planes: Solids,
}

impl MovedSolids {
    /// Whether there is nothing to draw.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.solids.data.is_empty() && self.planes.data.is_empty()
    }
}

impl MovedScene {
    /// Whether no object moves.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// Every part placed at `offset_of(mover id)` (a non-finite offset counts as none).
    #[must_use]
    pub fn at(&self, offset_of: &dyn Fn(ObjectId) -> Vec3) -> MovedSolids {
        let mut out = MovedSolids::default();
        for p in &self.parts {
            let d = offset_of(p.mover);
            let d = if d.is_finite() { d } else { Vec3::ZERO };
            let s = if p.front_only {
                &mut out.planes
            } else {
                &mut out.solids
            };
            match &p.shape {
                Shape::Aabb { min, max } => corner_box(s, *min + d, *max + d, p.rgba),
                Shape::Obb { center, axes, half } => s.cuboid(*center + d, *axes, *half, p.rgba),
                Shape::Cylinder { a, b, radius } => {
                    s.cylinder(*a + d, *b + d, *radius, CYLINDER_SEGMENTS, p.rgba);
                }
                Shape::Triangles(tris) => {
                    for ([a, b, c], rgba) in tris {
                        s.tri_as_wound(*a + d, *b + d, *c + d, *rgba);
                    }
                }
            }
        }
        out
    }
}

/// What the movers of a level take out of its static scene.
#[derive(Debug, Default)]
pub struct Moving {
    /// Objects moved whole (left out of the static scene; a sector moved whole too).
    pub whole: HashSet<ObjectId>,
    /// The sectors cooked as the runtime cooks them with movers (moving floors at their lowest, moving
    /// ceilings at their highest); `None` when no mover moves a sector (the kept cook serves then).
    pub cook: Option<SectorCook>,
    /// The first mover of each moved object (the runtime's rule: a second one moves nothing).
    first: HashMap<ObjectId, MoverObject>,
}

impl Moving {
    /// The moved objects of `level`.
    #[must_use]
    pub fn of(level: &Level) -> Self {
        let mut first: HashMap<ObjectId, MoverObject> = HashMap::new();
        for m in &level.movers {
            first.entry(m.object).or_insert_with(|| m.clone());
        }
        let whole = first
            .values()
            .filter(|m| m.part == MoverPart::Whole)
            .map(|m| m.object)
            .collect();
        let cook = level
            .sectors
            .iter()
            .any(|s| first.contains_key(&s.id))
            .then(|| {
                SectorCook::new(
                    level
                        .sectors
                        .iter()
                        .map(|s| sector_geom_with_mover(s, first.get(&s.id))),
                )
            });
        Self { whole, cook, first }
    }

    /// The moved parts of `level` at their unmoved places, coloured by `paint`.
    #[must_use]
    pub fn scene(&self, level: &Level, paint: Paint<'_>) -> MovedScene {
        let mut parts = Vec::new();
        for m in &level.movers {
            if self.first.get(&m.object).is_none_or(|f| f.id != m.id) {
                continue;
            }
            let part = |shape: Shape, kind: Kind, front_only: bool| MovedPart {
                mover: m.id,
                object: m.object,
                shape,
                rgba: paint(m.object, kind),
                front_only,
            };
            if let Some((mut shape, kind)) = object_part(level, m.object) {
                if let Shape::Triangles(tris) = &mut shape {
                    let rgba = paint(m.object, kind);
                    tris.iter_mut().for_each(|t| t.1 = rgba);
                }
                parts.push(part(shape, kind, false));
            } else if let Some(s) = level.sectors.iter().find(|s| s.id == m.object)
                && let Some(cooked) = self.sector_part(s, m)
            {
                let base = paint(m.object, Kind::Sector);
                let tris = cooked
                    .indices
                    .iter()
                    .zip(&cooked.faces)
                    .filter_map(|(t, f)| {
                        let [a, b, c] = t.map(|i| cooked.vertices.get(i as usize).copied());
                        Some(([a?, b?, c?], face_color(base, *f)))
                    })
                    .collect();
                parts.push(part(Shape::Triangles(tris), Kind::Sector, true));
            }
        }
        MovedScene { parts }
    }

    /// What mover `m` moves of sector `s`: the cooked sector when whole, else the piston of its floor or
    /// ceiling, as the runtime's level adapter builds them ([`mover_piston`]).
    fn sector_part(&self, s: &SectorObject, m: &MoverObject) -> Option<CookedSector> {
        let cooked = self.cook.as_ref()?.sector(s.id)?;
        match m.part {
            MoverPart::Whole => Some(cooked.clone()),
            MoverPart::Floor | MoverPart::Ceiling => mover_piston(s, cooked, m),
        }
    }
}

/// The shape of object `id` when it is a box, cylinder, triangle or mesh, with its kind.
fn object_part(level: &Level, id: ObjectId) -> Option<(Shape, Kind)> {
    if let Some(b) = level.aabbs.iter().find(|o| o.id == id) {
        return Some((
            Shape::Aabb {
                min: b.min,
                max: b.max,
            },
            Kind::Aabb,
        ));
    }
    if let Some(b) = level.obbs.iter().find(|o| o.id == id) {
        let r = b.rotation();
        let shape = Shape::Obb {
            center: b.center,
            axes: [r.x_axis, r.y_axis, r.z_axis],
            half: b.half_extents,
        };
        return Some((shape, Kind::Obb));
    }
    if let Some(c) = level.cylinders.iter().find(|o| o.id == id) {
        let shape = Shape::Cylinder {
            a: c.a,
            b: c.b,
            radius: c.radius,
        };
        return Some((shape, Kind::Cylinder));
    }
    if let Some(t) = level.triangles.iter().find(|o| o.id == id) {
        return Some((
            Shape::Triangles(vec![([t.a, t.b, t.c], [0; 4])]),
            Kind::Triangle,
        ));
    }
    let m = level.meshes.iter().find(|o| o.id == id)?;
    let tris = m
        .indices
        .iter()
        .filter_map(|t| {
            let [a, b, c] = t.map(|i| m.vertices.get(i as usize).copied());
            Some(([a?, b?, c?], [0; 4]))
        })
        .collect();
    Some((Shape::Triangles(tris), Kind::Mesh))
}

// Its tests are the scene's (`movers_tests.rs`): they compare the moved parts with the static scene and
// the runtime's, and the scene builds on this file, not the other way.
