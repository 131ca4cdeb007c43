//! Where a Shift+click in the top-down view stands the path's start or goal. A plan point has many heights;
//! a designer clicking inside a room means that room: its floor, or what stands on it under its ceiling (a
//! crate), never the roof above it. Outside every room the highest surface of the column is taken.

use glam::{Vec2, Vec3};

use crate::editor::document::sector::in_storey;
use crate::level::{Level, SectorObject};
use crate::scene::Scene;
use crate::sector::HeightFn;
use crate::sector::ring::contains;
use crate::shape::Ray;

/// The point a click at plan point `w` stands on, `skin` above the surface: inside a sector shown under the
/// storey filter `storey` (the highest floor where shown sectors are stacked), the first surface a ray meets
/// going down from just under that sector's ceiling (its floor, or a crate on it); else the highest surface
/// under `w`; else `(w.x, 0, w.y)`.
#[must_use]
pub fn click_spot(
    level: &Level,
    scene: &Scene,
    w: Vec2,
    storey: Option<(f32, f32)>,
    skin: f32,
) -> Vec3 {
    if !w.is_finite() {
        return Vec3::ZERO;
    }
    let room = level
        .sectors
        .iter()
        .filter(|s| in_storey(s.floor.height, storey) && inside(s, w))
        .map(|s| {
            let floor = HeightFn::new(&s.floor, &s.outline).at(w);
            let ceiling = HeightFn::new(&s.ceiling, &s.outline).at(w);
            (floor, ceiling)
        })
        .filter(|(f, c)| f.is_finite() && c.is_finite())
        .max_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((floor, ceiling)) = room {
        // From just under the ceiling (a closed room: from the floor's own height, which meets the floor).
        let top = (ceiling - 1e-3).max(floor);
        let hit = scene
            .cast_ray(
                &Ray::new(Vec3::new(w.x, top, w.y), Vec3::NEG_Y),
                top - floor + 0.05,
            )
            .map(|h| h.point.y);
        let y = hit.filter(|y| *y >= floor - 0.05).unwrap_or(floor);
        return Vec3::new(w.x, y + skin, w.y);
    }
    let top = scene.bounds().map_or(10.0, |b| b.max.y + 1.0);
    scene
        .cast_ray(&Ray::new(Vec3::new(w.x, top, w.y), Vec3::NEG_Y), 1e5)
        .map_or(Vec3::new(w.x, 0.0, w.y), |h| h.point + Vec3::Y * skin)
}

/// Whether plan point `w` lies in the sector's outline and in none of its holes.
fn inside(s: &SectorObject, w: Vec2) -> bool {
    contains(&s.outline, w) && !s.holes.iter().any(|h| contains(h, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A level of 4 m square sectors `(x, floor, ceiling)` beside each other along x, and `extra` boxes.
    fn level(rooms: &[(f32, f32, f32)], extra: &str) -> (Level, Scene) {
        let sectors: String = rooms
            .iter()
            .enumerate()
            .map(|(i, (x, f, c))| {
                format!(
                    "(id: {}, outline: [({x}, 0.0), ({}, 0.0), ({}, 4.0), ({x}, 4.0)], \
                     floor: (height: {f}), ceiling: (height: {c})),",
                    i + 1,
                    x + 4.0,
                    x + 4.0
                )
            })
            .collect();
        let text = format!("(version: 3, sectors: [{sectors}], aabbs: [{extra}])");
        let level = Level::from_ron_str(&text).unwrap_or_else(|e| panic!("{e}"));
        let scene = Scene::from_level(&level).unwrap_or_else(|e| panic!("{e}"));
        (level, scene)
    }

    #[test]
    fn a_click_in_a_room_stands_on_its_floor_not_its_roof() {
        let (level, scene) = level(&[(0.0, 0.5, 3.0)], "");
        let at = click_spot(&level, &scene, Vec2::new(2.0, 2.0), None, 0.01);
        assert!((at.y - 0.51).abs() < 1e-3, "{at}");
        // The column's highest surface is the room's roof (its ceiling seen from above).
        let top = scene
            .cast_ray(&Ray::new(Vec3::new(2.0, 10.0, 2.0), Vec3::NEG_Y), 1e5)
            .map(|h| h.point.y);
        assert!(top.is_some_and(|y| y > 2.9), "{top:?}");
        // Outside every room: the highest surface of the column, else the height 0.
        let out = click_spot(&level, &scene, Vec2::new(20.0, 2.0), None, 0.01);
        assert_eq!(out, Vec3::new(20.0, 0.0, 2.0));
    }

    #[test]
    fn stacked_storeys_take_the_highest_floor_shown() {
        let (level, scene) = level(&[(0.0, 0.0, 3.0), (0.0, 4.0, 7.0)], "");
        let w = Vec2::new(1.0, 1.0);
        let high = click_spot(&level, &scene, w, None, 0.0);
        assert!((high.y - 4.0).abs() < 1e-3, "{high}");
        let low = click_spot(&level, &scene, w, Some((-1.0, 1.0)), 0.0);
        assert!(low.y.abs() < 1e-3, "{low}");
    }

    #[test]
    fn a_crate_in_a_room_is_stood_on() {
        let (level, scene) = level(
            &[(0.0, 0.0, 3.0)],
            "(id: 9, min: (1.5, 0.0, 1.5), max: (2.5, 1.0, 2.5)),",
        );
        let at = click_spot(&level, &scene, Vec2::new(2.0, 2.0), None, 0.0);
        assert!((at.y - 1.0).abs() < 1e-3, "{at}");
    }

    #[test]
    fn a_point_not_finite_stands_nowhere_in_particular() {
        let (level, scene) = level(&[(0.0, 0.0, 3.0)], "");
        let at = click_spot(&level, &scene, Vec2::new(f32::NAN, 0.0), None, 0.0);
        assert!(at.is_finite());
    }
}
