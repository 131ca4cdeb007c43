//! What the pointer aims at in the 3D preview (no egui): the nearest surface along the pointer's ray as the
//! preview shows it. The runtime scene's ray ([`Scene::cast_ray_all`]) finds the objects in order; a sector
//! is then asked which of its cooked faces ([`CookedSector`], [`FaceKind`]) the ray meets **from the front**,
//! since the preview draws each sector face from the side of its air only (from above a room shows its
//! floor through the ceiling it does not draw, so the ceiling's back must not be picked).
//!
//! Which surface a face raises: a floor or a ceiling itself; a riser the floor it holds up (the riser
//! belongs to the higher floor's sector); a lintel the ceiling it hangs from (the lower ceiling's sector);
//! a solid wall the sector's floor when aimed in its lower half and its ceiling in its upper half (each
//! measured at the point aimed).

use glam::{Vec2, Vec3};

use crate::editor::document::Kind;
use crate::editor::document::sector::Which;
use crate::level::{Level, ObjectId, SectorObject};
use crate::query::ray::ray_triangle;
use crate::scene::Scene;
use crate::sector::{CookedSector, FaceKind, HeightFn, SectorCook};
use crate::shape::{Ray, Triangle};

/// What a height gesture moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A sector's floor or ceiling.
    Sector {
        /// The sector.
        id: ObjectId,
        /// The surface raised.
        which: Which,
    },
    /// A box (AABB or OBB), cylinder or level triangle, moved up or down whole.
    Solid {
        /// The object.
        id: ObjectId,
        /// Its kind.
        kind: Kind,
    },
}

impl Target {
    /// The object's id.
    #[must_use]
    pub fn id(self) -> ObjectId {
        match self {
            Target::Sector { id, .. } | Target::Solid { id, .. } => id,
        }
    }
}

/// The surface under the pointer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aim {
    /// What a gesture here moves.
    pub target: Target,
    /// The face hit: a sector's cooked face kind (`None` for the other objects).
    pub face: Option<FaceKind>,
    /// The triangle hit (a sector's cooked one), for the highlight.
    pub triangle: Option<[Vec3; 3]>,
    /// The point hit.
    pub point: Vec3,
    /// The ray parameter of the hit.
    pub t: f32,
}

/// The object kinds a height gesture moves whole.
pub const SOLIDS: [Kind; 6] = [
    Kind::Aabb,
    Kind::Obb,
    Kind::Cylinder,
    Kind::Triangle,
    Kind::Mesh,
    Kind::Wall,
];

/// The kind of the object `id` of `level` among sectors and [`SOLIDS`].
fn kind_of(level: &Level, id: ObjectId) -> Option<Kind> {
    if level.sectors.iter().any(|s| s.id == id) {
        Some(Kind::Sector)
    } else if level.aabbs.iter().any(|o| o.id == id) {
        Some(Kind::Aabb)
    } else if level.obbs.iter().any(|o| o.id == id) {
        Some(Kind::Obb)
    } else if level.cylinders.iter().any(|o| o.id == id) {
        Some(Kind::Cylinder)
    } else if level.triangles.iter().any(|o| o.id == id) {
        Some(Kind::Triangle)
    } else if level.meshes.iter().any(|o| o.id == id) {
        Some(Kind::Mesh)
    } else if level.walls.iter().any(|o| o.id == id) {
        Some(Kind::Wall)
    } else {
        None
    }
}

/// Cook sector `id` as the level cooks it: with the sectors whose plan bounds meet its own (the only ones
/// that can share an edge with it), so its risers, lintels and walls are those of the whole level.
#[must_use]
pub fn cook_near(level: &Level, id: ObjectId) -> Option<CookedSector> {
    let s = level.sectors.iter().find(|s| s.id == id)?;
    let (lo, hi) = plan_bounds(s);
    let e = 1e-3;
    let near = level.sectors.iter().filter(|n| {
        let (nlo, nhi) = plan_bounds(n);
        nlo.x <= hi.x + e && lo.x <= nhi.x + e && nlo.y <= hi.y + e && lo.y <= nhi.y + e
    });
    SectorCook::new(near.map(SectorObject::geom))
        .sector(id)
        .cloned()
}

fn plan_bounds(s: &SectorObject) -> (Vec2, Vec2) {
    s.outline.iter().fold(
        (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    )
}

/// The nearest face of `cooked` that `ray` meets from its front (the side of the air it bounds), within
/// `max_t`: its ray parameter, kind and corners.
#[must_use]
pub fn front_face(
    cooked: &CookedSector,
    ray: &Ray,
    max_t: f32,
) -> Option<(f32, FaceKind, [Vec3; 3])> {
    let mut best: Option<(f32, FaceKind, [Vec3; 3])> = None;
    for (tri, kind) in cooked.indices.iter().zip(&cooked.faces) {
        let [Some(a), Some(b), Some(c)] = tri.map(|i| cooked.vertices.get(i as usize).copied())
        else {
            continue;
        };
        // The winding's normal faces the air: seen from the front when the ray runs against it.
        if (b - a).cross(c - a).dot(ray.dir) >= 0.0 {
            continue;
        }
        let bound = best.map_or(max_t, |b| b.0);
        if let Some(h) = ray_triangle(ray, &Triangle { a, b, c }, bound)
            && best.is_none_or(|b| h.t < b.0)
        {
            best = Some((h.t, *kind, [a, b, c]));
        }
    }
    best
}

/// The surface a sector's face raises (see the module's rule for walls): `point` is where it was hit.
#[must_use]
pub fn surface_of(s: &SectorObject, face: FaceKind, point: Vec3) -> Which {
    match face {
        FaceKind::Floor | FaceKind::Riser => Which::Floor,
        FaceKind::Ceiling | FaceKind::Lintel => Which::Ceiling,
        FaceKind::Wall => {
            let p = Vec2::new(point.x, point.z);
            let floor = HeightFn::new(&s.floor, &s.outline).at(p);
            let ceiling = HeightFn::new(&s.ceiling, &s.outline).at(p);
            if point.y - floor <= ceiling - point.y {
                Which::Floor
            } else {
                Which::Ceiling
            }
        }
    }
}

/// What `ray` aims at in `level` (whose runtime scene is `scene`) within `max_t`: the nearest sector face
/// seen from its front or solid; `None` when the nearest thing is something else (a wall, a mesh, a plane:
/// nothing a height gesture moves) or nothing. `cooked` gives a sector's cooked triangles (the caller keeps
/// them between frames; [`cook_near`] makes them).
pub fn pick(
    level: &Level,
    scene: &Scene,
    ray: &Ray,
    max_t: f32,
    mut cooked: impl FnMut(ObjectId) -> Option<std::sync::Arc<CookedSector>>,
) -> Option<Aim> {
    let mut best: Option<Aim> = None;
    for h in scene.cast_ray_all(ray, max_t) {
        if best.is_some_and(|b| b.t <= h.t) {
            break;
        }
        match kind_of(level, h.object) {
            Some(Kind::Sector) => {
                // The scene's hit may be a face seen from behind; the sector's front faces decide.
                let Some(c) = cooked(h.object) else { continue };
                let bound = best.map_or(max_t, |b| b.t);
                let Some((t, face, tri)) = front_face(&c, ray, bound) else {
                    continue;
                };
                let Some(s) = level.sectors.iter().find(|s| s.id == h.object) else {
                    continue;
                };
                let point = ray.at(t);
                best = Some(Aim {
                    target: Target::Sector {
                        id: h.object,
                        which: surface_of(s, face, point),
                    },
                    face: Some(face),
                    triangle: Some(tri),
                    point,
                    t,
                });
            }
            Some(kind) => {
                return Some(Aim {
                    target: Target::Solid { id: h.object, kind },
                    face: None,
                    triangle: None,
                    point: h.point,
                    t: h.t,
                });
            }
            // A wall, mesh or plane in front hides what lies behind it.
            None => return best,
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::document::sector::new_sector;
    use std::sync::Arc;

    fn rect(x0: f32, x1: f32) -> Vec<Vec2> {
        vec![
            Vec2::new(x0, 0.0),
            Vec2::new(x1, 0.0),
            Vec2::new(x1, 2.0),
            Vec2::new(x0, 2.0),
        ]
    }

    /// A room (floor 0, ceiling 3) beside a step (floor 0.3, ceiling 2.5), and a box standing apart.
    fn level() -> Level {
        let mut a = new_sector(rect(0.0, 2.0), 0.0, 3.0);
        a.id = ObjectId(1);
        let mut b = new_sector(rect(2.0, 4.0), 0.3, 2.5);
        b.id = ObjectId(2);
        Level::from_ron_str(
            "(version: 3, aabbs: [(id: 5, min: (10.0, 0.0, 0.0), max: (11.0, 1.0, 1.0))])",
        )
        .map(|mut l| {
            l.sectors = vec![a, b];
            l
        })
        .unwrap_or_default()
    }

    fn aim(l: &Level, from: Vec3, to: Vec3) -> Option<Aim> {
        let scene = Scene::build(l);
        let ray = Ray::new(from, (to - from).normalize());
        pick(l, &scene, &ray, 100.0, |id| cook_near(l, id).map(Arc::new))
    }

    #[test]
    fn from_above_the_floor_through_the_unseen_ceiling() {
        let l = level();
        let a = aim(&l, Vec3::new(1.0, 10.0, 1.0), Vec3::new(1.0, 0.0, 1.0)).unwrap();
        assert_eq!(
            a.target,
            Target::Sector {
                id: ObjectId(1),
                which: Which::Floor
            }
        );
        assert_eq!(a.face, Some(FaceKind::Floor));
        assert!(a.point.y.abs() < 1e-4);
    }

    #[test]
    fn from_inside_the_ceiling_from_beside_the_riser() {
        let l = level();
        // Looking up from inside the room.
        let a = aim(&l, Vec3::new(1.0, 1.0, 1.0), Vec3::new(1.2, 5.0, 1.0)).unwrap();
        assert_eq!(a.face, Some(FaceKind::Ceiling));
        assert_eq!(
            a.target,
            Target::Sector {
                id: ObjectId(1),
                which: Which::Ceiling
            }
        );
        // Low across the edge at x = 2: the riser, held by the step, raises the step's floor.
        let a = aim(&l, Vec3::new(0.5, 0.15, 1.0), Vec3::new(3.0, 0.15, 1.0)).unwrap();
        assert_eq!(a.face, Some(FaceKind::Riser));
        assert_eq!(
            a.target,
            Target::Sector {
                id: ObjectId(2),
                which: Which::Floor
            }
        );
        // High across it: the lintel from the step's ceiling up to the room's, the step's ceiling.
        let a = aim(&l, Vec3::new(0.5, 2.8, 1.0), Vec3::new(3.0, 2.8, 1.0)).unwrap();
        assert_eq!(a.face, Some(FaceKind::Lintel));
        assert_eq!(
            a.target,
            Target::Sector {
                id: ObjectId(2),
                which: Which::Ceiling
            }
        );
    }

    #[test]
    fn a_wall_raises_the_nearer_surface_and_a_box_is_a_solid() {
        let l = level();
        // The room's outer wall at x = 0, aimed low and high from inside.
        let low = aim(&l, Vec3::new(1.5, 0.5, 1.0), Vec3::new(-1.0, 0.5, 1.0)).unwrap();
        assert_eq!(low.face, Some(FaceKind::Wall));
        assert!(matches!(
            low.target,
            Target::Sector {
                which: Which::Floor,
                ..
            }
        ));
        let high = aim(&l, Vec3::new(1.5, 2.5, 1.0), Vec3::new(-1.0, 2.5, 1.0)).unwrap();
        assert!(matches!(
            high.target,
            Target::Sector {
                which: Which::Ceiling,
                ..
            }
        ));
        let b = aim(&l, Vec3::new(10.5, 5.0, 0.5), Vec3::new(10.5, 0.0, 0.5)).unwrap();
        assert_eq!(
            b.target,
            Target::Solid {
                id: ObjectId(5),
                kind: Kind::Aabb
            }
        );
        assert!((b.point.y - 1.0).abs() < 1e-5);
        assert_eq!(
            aim(&l, Vec3::new(50.0, 5.0, 50.0), Vec3::new(50.0, 0.0, 50.0)),
            None
        );
    }
}
