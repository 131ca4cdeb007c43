//! The adapter from levels to the game's [`Scene`]: [`Scene::from_level`], [`Scene::build`] and
//! [`Scene::skipped`], and the one conversion of a level's static objects ([`level_statics`]) that the
//! simulation's adapter ([`crate::sim::World::from_level`], in `world.rs`) shares. The scene sits below the
//! level format and knows nothing of it; this is where a level becomes a scene, each object keeping its
//! [`ObjectId`].

use super::{Level, LevelError, ObjectId, Problem, Severity};
use crate::mesh::TriMesh;
use crate::scene::Scene;
use crate::sim::Static;
use crate::trigger::TriggerVolume;

/// The static objects of a level in the order the simulation numbers them (planes, cylinders, triangles,
/// axis-aligned boxes, oriented boxes, walls at their height, meshes), and the problems of the meshes that
/// could not be built (they are left out).
pub(crate) fn level_statics(level: &Level) -> (Vec<(ObjectId, Static)>, Vec<Problem>) {
    let mut out = Vec::new();
    out.extend(
        level
            .planes
            .iter()
            .map(|p| (p.id, Static::Plane(p.plane()))),
    );
    out.extend(
        level
            .cylinders
            .iter()
            .map(|c| (c.id, Static::Cylinder(c.cylinder()))),
    );
    out.extend(
        level
            .triangles
            .iter()
            .map(|t| (t.id, Static::Triangle(t.triangle()))),
    );
    out.extend(level.aabbs.iter().map(|a| (a.id, Static::Aabb(a.aabb()))));
    out.extend(level.obbs.iter().map(|o| (o.id, Static::Obb(o.obb()))));
    out.extend(level.walls.iter().map(|w| {
        let height = w.height.unwrap_or(level.default_wall_height);
        (
            w.id,
            Static::Wall {
                wall: w.wall(),
                height,
            },
        )
    }));
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
            Ok(mesh) => out.push((m.id, Static::Mesh(mesh))),
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
    (out, problems)
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
        let (statics, skipped) = level_statics(level);
        let triggers = level
            .triggers
            .iter()
            .filter_map(|t| TriggerVolume::new(t.id, &t.shape))
            .collect();
        let notes = (!skipped.is_empty()).then(|| {
            std::sync::Arc::new(Skipped(skipped)) as std::sync::Arc<dyn std::any::Any + Send + Sync>
        });
        Scene::from_parts(statics, triggers, notes)
    }

    /// Objects left out by [`Scene::build`] because they could not be built.
    #[must_use]
    pub fn skipped(&self) -> &[Problem] {
        self.notes::<Skipped>().map_or(&[], |s| s.0.as_slice())
    }
}
