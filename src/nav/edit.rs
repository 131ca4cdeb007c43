//! What an edit changed: the map keeps the scene it was baked from, so an update compares it with the edited
//! one object by object (by id) and redoes only what lies near the objects added, removed or changed. The box
//! the caller gives is what an editor knows (a whole room, say, where one block was raised in it); the objects
//! say more. Where the scenes differ in what objects cannot show (movers, which carry bodies and are surveyed
//! for rides whole; one-way objects), the given box stands.

use std::collections::HashMap;

use crate::id::ObjectId;
use crate::scene::Scene;
use crate::shape::Aabb;
use crate::statics::Static;

/// What an update has to redo after an edit from `old` to `new`, of which the caller says `given` bounds the
/// change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Edit {
    /// No object was added, removed or changed: the map stands as it is.
    Nothing,
    /// Redo what lies near this box: around every object that changed, before and after.
    Within(Aabb),
    /// A plane (it has no bounds) changed: everything.
    Everything,
}

/// The edit from `old` to `new` (see the module): `Within(given)` where objects cannot tell.
pub(super) fn edit_between(old: &Scene, new: &Scene, given: Aabb) -> Edit {
    if old.has_movers() || new.has_movers() || old.has_one_way() || new.has_one_way() {
        return Edit::Within(given);
    }
    let (before, after) = (by_id(old), by_id(new));
    let mut out: Option<Aabb> = None;
    let mut unbounded = false;
    let mut add = |shapes: &[&Static]| {
        for shape in shapes {
            match shape.bounds() {
                Some(b) => out = Some(out.map_or(b, |o| o.union(&b))),
                None => unbounded = true,
            }
        }
    };
    let none: Vec<&Static> = Vec::new();
    for (id, now) in &after {
        let was = before.get(id).unwrap_or(&none);
        let kept = was.len() == now.len() && was.iter().zip(now).all(|(a, b)| same(a, b));
        if !kept {
            add(was);
            add(now);
        }
    }
    for (id, was) in &before {
        if !after.contains_key(id) {
            add(was);
        }
    }
    match (unbounded, out) {
        (true, _) => Edit::Everything,
        (false, Some(b)) => Edit::Within(b),
        (false, None) => Edit::Nothing,
    }
}

/// Each object's entries by its id: an id may stand for several (in the scene's order), compared as lists.
fn by_id(scene: &Scene) -> HashMap<ObjectId, Vec<&Static>> {
    let mut m: HashMap<ObjectId, Vec<&Static>> = HashMap::new();
    for (id, shape) in scene.objects() {
        m.entry(id).or_default().push(shape);
    }
    m
}

/// Whether two objects are the same geometry (a mesh: the same vertices and triangles).
fn same(a: &Static, b: &Static) -> bool {
    match (a, b) {
        (Static::Plane(p), Static::Plane(q)) => p == q,
        (Static::Cylinder(p), Static::Cylinder(q)) => p == q,
        (Static::Triangle(p), Static::Triangle(q)) => p == q,
        (Static::Aabb(p), Static::Aabb(q)) => p == q,
        (Static::Obb(p), Static::Obb(q)) => p == q,
        (Static::Wall { wall: p, height: h }, Static::Wall { wall: q, height: k }) => {
            p == q && h == k
        }
        (Static::Mesh(p), Static::Mesh(q)) => {
            p.vertices() == q.vertices() && p.indices() == q.indices()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::level::Level;

    fn scene(more: &str) -> Scene {
        let text = format!(
            "(version: 2, aabbs: [(id: 1, min: (-3.0, -0.5, -3.0), max: (3.0, 0.0, 3.0)){more}])"
        );
        Scene::build(&Level::from_ron_str(&text).unwrap_or_else(|e| panic!("{e}")))
    }

    fn room() -> Aabb {
        Aabb::new(Vec3::splat(-2.0), Vec3::splat(2.0))
    }

    #[test]
    fn an_edit_is_the_box_of_what_was_added_removed_or_changed_before_and_after() {
        let old = scene(", (id: 2, min: (0.0, 0.0, 0.0), max: (0.5, 1.0, 0.5))");
        // Nothing changed (the given box says a room might have).
        assert_eq!(edit_between(&old, &old.clone(), room()), Edit::Nothing);
        // Added.
        let added = scene(
            ", (id: 2, min: (0.0, 0.0, 0.0), max: (0.5, 1.0, 0.5)), (id: 3, min: (1.0, 0.0, 1.0), max: (1.5, 0.3, 1.5))",
        );
        let Edit::Within(b) = edit_between(&old, &added, room()) else {
            panic!("a box");
        };
        assert!(b.min.abs_diff_eq(Vec3::new(1.0, 0.0, 1.0), 0.02), "{b:?}");
        assert!(b.max.abs_diff_eq(Vec3::new(1.5, 0.3, 1.5), 0.02), "{b:?}");
        // Removed: the old one's box.
        let Edit::Within(b) = edit_between(&added, &old, room()) else {
            panic!("a box");
        };
        assert!(b.min.abs_diff_eq(Vec3::new(1.0, 0.0, 1.0), 0.02), "{b:?}");
        // Moved: before and after.
        let moved = scene(", (id: 2, min: (-1.0, 0.0, -1.0), max: (-0.5, 1.0, -0.5))");
        let Edit::Within(b) = edit_between(&old, &moved, room()) else {
            panic!("a box");
        };
        assert!(b.min.abs_diff_eq(Vec3::new(-1.0, 0.0, -1.0), 0.02), "{b:?}");
        assert!(b.max.abs_diff_eq(Vec3::new(0.5, 1.0, 0.5), 0.02), "{b:?}");
    }

    #[test]
    fn a_changed_plane_is_everything_and_a_mover_leaves_the_given_box() {
        let plane = |d: f32| {
            Scene::build(
                &Level::from_ron_str(&format!(
                    "(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: {d:.1})])"
                ))
                .unwrap_or_else(|e| panic!("{e}")),
            )
        };
        assert_eq!(
            edit_between(&plane(0.0), &plane(1.0), room()),
            Edit::Everything
        );
        assert_eq!(
            edit_between(&plane(0.0), &plane(0.0), room()),
            Edit::Nothing
        );
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/movers.ron"))
                .unwrap_or_else(|e| panic!("{e}"));
        let movers = Scene::build(&Level::from_ron_str(&text).unwrap_or_else(|e| panic!("{e}")));
        assert_eq!(
            edit_between(&movers, &movers.clone(), room()),
            Edit::Within(room())
        );
    }

    #[test]
    fn an_id_standing_for_several_entries_is_compared_entry_by_entry() {
        let cube = |x: f32| {
            Static::Aabb(Aabb::new(
                Vec3::new(x, 0.0, 0.0),
                Vec3::new(x + 1.0, 1.0, 1.0),
            ))
        };
        let (a, b) = (ObjectId(1), ObjectId(2));
        let old = Scene::from_objects([(a, cube(0.0)), (a, cube(2.0)), (b, cube(5.0))]);
        // The second id taken away, the first's two entries kept.
        let removed = Scene::from_objects([(a, cube(0.0)), (a, cube(2.0))]);
        assert_eq!(
            edit_between(&old, &removed, room()),
            Edit::Within(Aabb::new(
                Vec3::new(5.0, 0.0, 0.0),
                Vec3::new(6.0, 1.0, 1.0)
            ))
        );
        // The first id's second entry moved: its entries before and after.
        let moved = Scene::from_objects([(a, cube(0.0)), (a, cube(3.0)), (b, cube(5.0))]);
        assert_eq!(
            edit_between(&old, &moved, room()),
            Edit::Within(Aabb::new(Vec3::ZERO, Vec3::new(4.0, 1.0, 1.0)))
        );
        assert_eq!(edit_between(&old, &old.clone(), room()), Edit::Nothing);
    }
}
