//! The adapter from levels to the game's [`Scene`]: [`Scene::from_level`], [`Scene::build`] and
//! [`Scene::skipped`], and the one conversion of a level's static objects ([`level_statics`]) that the
//! simulation's adapter ([`crate::sim::World::from_level`], in `world.rs`) shares. The scene sits below the
//! level format and knows nothing of it; this is where a level becomes a scene, each object keeping its
//! [`ObjectId`].

use super::{Level, LevelError, ObjectId, Problem, SectorObject, Severity};
use crate::mesh::TriMesh;
use crate::scene::{MoverSetup, Scene};
use crate::sector::{CookedSector, SectorCook};
use crate::sim::Static;
use crate::trigger::TriggerVolume;

/// A level as the scene and the simulation take it: its static objects in the order the simulation numbers
/// them, each entry's one-way flag, its movers with the entries they move, and the problems of the meshes that
/// could not be built (they are left out).
pub(crate) struct LevelParts {
    /// The objects: planes, cylinders, triangles, axis-aligned boxes, oriented boxes, walls at their height,
    /// meshes, then each sector's cooked triangles as one mesh, then the pistons of moving sector floors and
    /// ceilings (each with its sector's id).
    pub(crate) statics: Vec<(ObjectId, Static)>,
    /// `one_way[i]` for `statics[i]`.
    pub(crate) one_way: Vec<bool>,
    /// The movers, in level order.
    pub(crate) movers: Vec<MoverSetup>,
    /// The meshes left out.
    pub(crate) problems: Vec<Problem>,
}

/// The static objects of a level in the order the simulation numbers them (see [`LevelParts::statics`]), and
/// the problems of the meshes that could not be built (they are left out).
#[allow(dead_code)] // `World::from_level` takes the movers too, through `level_parts`.
pub(crate) fn level_statics(level: &Level) -> (Vec<(ObjectId, Static)>, Vec<Problem>) {
    let parts = level_parts(level);
    (parts.statics, parts.problems)
}

/// The level's objects, flags and movers ([`LevelParts`]).
pub(crate) fn level_parts(level: &Level) -> LevelParts {
    let mut out = Vec::new();
    let mut one_way = Vec::new();
    let mut add = |out: &mut Vec<(ObjectId, Static)>, id: ObjectId, s: Static, ow: bool| {
        out.push((id, s));
        one_way.push(ow);
    };
    for p in &level.planes {
        add(&mut out, p.id, Static::Plane(p.plane()), false);
    }
    for c in &level.cylinders {
        add(&mut out, c.id, Static::Cylinder(c.cylinder()), false);
    }
    for t in &level.triangles {
        add(&mut out, t.id, Static::Triangle(t.triangle()), t.one_way);
    }
    for a in &level.aabbs {
        add(&mut out, a.id, Static::Aabb(a.aabb()), a.one_way);
    }
    for o in &level.obbs {
        add(&mut out, o.id, Static::Obb(o.obb()), o.one_way);
    }
    for w in &level.walls {
        let height = w.height.unwrap_or(level.default_wall_height);
        let wall = Static::Wall {
            wall: w.wall(),
            height,
        };
        add(&mut out, w.id, wall, false);
    }
    let mut problems = Vec::new();
    for (i, m) in level.meshes.iter().enumerate() {
        if m.obj.is_some() && m.indices.is_empty() {
            problems.push(Problem {
                severity: Severity::Error,
                object: Some(m.id),
                field: format!("meshes[{i}].obj"),
                message: "the OBJ file was not read: load the level with Level::load, or call \
                          Level::resolve_meshes with its folder"
                    .into(),
                line: None,
                col: None,
            });
            continue;
        }
        match TriMesh::new(m.vertices.clone(), m.indices.clone()) {
            Ok(mesh) => add(&mut out, m.id, Static::Mesh(mesh), m.one_way),
            Err(e) => problems.push(Problem {
                severity: Severity::Error,
                object: Some(m.id),
                field: format!("meshes[{i}]"),
                message: e.to_string(),
                line: None,
                col: None,
            }),
        }
    }
    let movers = super::scene_movers::sector_parts(level, &mut out, &mut one_way);
    LevelParts {
        statics: out,
        one_way,
        movers,
        problems,
    }
}
/// A cooked sector as a scene object: its triangles as one mesh (`None` when it cooked to nothing).
#[must_use]
pub fn sector_static(cooked: &CookedSector) -> Option<Static> {
    Static::from_sector(cooked)
}

impl Level {
    /// The level's sectors cooked and kept for incremental re-cooking ([`Scene::update_sectors`]).
    #[must_use]
    pub fn cook_sectors(&self) -> SectorCook {
        SectorCook::new(self.sectors.iter().map(SectorObject::geom))
    }

    /// Where the walker starts: the first supporting surface (no steeper than the level's character's
    /// `max_slope_deg`) at or below `(x, height + max_step, z)` in `scene`, with `height` the walker start's
    /// (`0` when absent), so a start on an upper storey says its height. `None` without a walker start or
    /// with nothing supporting below.
    #[must_use]
    pub fn start_feet(&self, scene: &Scene) -> Option<glam::Vec3> {
        let w = self.walker.as_ref()?;
        let ctl = self.character.unwrap_or_default();
        let h = w.height.unwrap_or(0.0);
        let top = glam::Vec3::new(w.position.x, h + ctl.max_step, w.position.y);
        supporting_below(scene, top, ctl.max_slope_deg)
    }
}

/// The first surface below `from` (straight down, `from` included) whose normal is within `max_slope_deg` of
/// up: where feet stand.
fn supporting_below(scene: &Scene, from: glam::Vec3, max_slope_deg: f32) -> Option<glam::Vec3> {
    if !from.is_finite() {
        return None;
    }
    let min_up = max_slope_deg.to_radians().cos();
    let mut at = from;
    // Steep faces are passed by restarting just below them (a bounded number of times).
    for _ in 0..64 {
        let hit = scene.cast_ray(&crate::shape::Ray::new(at, -glam::Vec3::Y), f32::INFINITY)?;
        if hit.normal.y >= min_up {
            return Some(hit.point);
        }
        let next = hit.point.y - 1e-4 * (1.0 + hit.point.y.abs());
        at = glam::Vec3::new(from.x, next, from.z);
    }
    None
}

/// What the level adapter notes on a scene it built (kept opaque by the scene): the objects it left out.
struct Skipped(Vec<Problem>);

impl Scene {
    /// Every static object of `level` in one structure.
    ///
    /// # Errors
    /// [`LevelError::Invalid`] when [`Level::validate`] finds errors, or a mesh cannot be built (an OBJ
    /// reference that was not read, say).
    pub fn from_level(level: &Level) -> Result<Scene, LevelError> {
        let mut problems = level.validate();
        problems.retain(|p| p.severity == Severity::Error);
        if !problems.is_empty() {
            return Err(LevelError::Invalid { problems });
        }
        let scene = Scene::build(level);
        if scene.skipped().is_empty() {
            Ok(scene)
        } else {
            Err(LevelError::Invalid {
                problems: scene.skipped().to_vec(),
            })
        }
    }

    /// Every static object of `level` that can be built, whatever its validation problems (the editor queries
    /// levels that are being fixed): invalid shapes stay in but are never hit (their queries answer `None` /
    /// `false`); meshes that cannot be built are left out and listed by [`Scene::skipped`].
    #[must_use]
    pub fn build(level: &Level) -> Scene {
        let parts = level_parts(level);
        let (statics, skipped) = (parts.statics, parts.problems);
        let triggers = level
            .triggers
            .iter()
            .filter_map(|t| TriggerVolume::new(t.id, &t.shape))
            .collect();
        let notes = (!skipped.is_empty()).then(|| {
            std::sync::Arc::new(Skipped(skipped)) as std::sync::Arc<dyn std::any::Any + Send + Sync>
        });
        Scene::from_parts_moving(statics, triggers, notes, parts.one_way, parts.movers)
    }

    /// Apply edits of `level`'s sectors `edited` (changed, added or removed since `cook` last saw them) to
    /// `cook` and to this scene (built from the level): only the edited sectors and their neighbours are
    /// re-cooked, and only the objects whose triangles changed are replaced ([`Scene::set_object`]). Returns
    /// those ids, ascending.
    pub fn update_sectors(
        &mut self,
        cook: &mut SectorCook,
        level: &Level,
        edited: &[ObjectId],
    ) -> Vec<ObjectId> {
        let changes = edited.iter().map(|&id| {
            let geom = level
                .sectors
                .iter()
                .find(|s| s.id == id)
                .map(SectorObject::geom);
            (id, geom)
        });
        let changed = cook.update(changes);
        for &id in &changed {
            self.set_object(id, cook.sector(id).and_then(sector_static));
        }
        changed
    }

    /// Objects left out by [`Scene::build`] because they could not be built.
    #[must_use]
    pub fn skipped(&self) -> &[Problem] {
        self.notes::<Skipped>().map_or(&[], |s| s.0.as_slice())
    }
}
