//! What movers and one-way surfaces look like in the 3D preview, as plain lines (no egui): each mover's path
//! as a polyline through the moved object's centre (a floor or ceiling mover's through its surface), the
//! object's box (a sector's outline at the moved height) where the shown scene time has it, and an arrow up
//! from the top of each one-way object: the way things pass through it. The views' time comes from
//! [`super::shown`].

use glam::{Vec2, Vec3};

use crate::editor::draw::Lines;
use crate::level::{Level, MoverObject, MoverPart, ObjectId, SectorObject};
use crate::shape::Aabb;

/// The movers' colour in the 3D preview (the top-down view's [`super::paint::MOVER`]).
pub const MOVER_RGBA: [u8; 4] = [255, 200, 60, 255];
/// One-way surfaces' arrows.
pub const ONE_WAY_RGBA: [u8; 4] = [120, 230, 255, 255];
/// How tall a one-way arrow stands, metres.
const ARROW: f32 = 0.8;

/// The 3D box of object `id` (boxes, cylinders, triangles, meshes; `None` for sectors and the rest).
#[must_use]
pub fn bounds3(level: &Level, id: ObjectId) -> Option<Aabb> {
    let of = |pts: &mut dyn Iterator<Item = Vec3>| {
        pts.fold(None, |acc: Option<(Vec3, Vec3)>, p| {
            Some(acc.map_or((p, p), |(lo, hi)| (lo.min(p), hi.max(p))))
        })
        .map(|(lo, hi)| Aabb::new(lo, hi))
    };
    let b = if let Some(b) = level.aabbs.iter().find(|o| o.id == id) {
        Some(Aabb::new(b.min, b.max))
    } else if let Some(b) = level.obbs.iter().find(|o| o.id == id) {
        of(&mut b.obb().corners().into_iter())
    } else if let Some(c) = level.cylinders.iter().find(|o| o.id == id) {
        let r = Vec3::splat(c.radius);
        Some(Aabb::new(c.a.min(c.b) - r, c.a.max(c.b) + r))
    } else if let Some(t) = level.triangles.iter().find(|o| o.id == id) {
        of(&mut [t.a, t.b, t.c].into_iter())
    } else {
        let m = level.meshes.iter().find(|o| o.id == id)?;
        of(&mut m.vertices.iter().copied())
    };
    b.filter(|b| b.min.is_finite() && b.max.is_finite())
}

/// The centre of a sector's outline (the mean of its points) and its floor and ceiling heights.
fn sector_centre(s: &SectorObject) -> Option<(Vec2, f32, f32)> {
    if s.outline.is_empty() {
        return None;
    }
    let c = s.outline.iter().copied().sum::<Vec2>() / s.outline.len() as f32;
    c.is_finite()
        .then_some((c, s.floor.height, s.ceiling.height))
}

/// A sector's outline at height `y`, moved by `d`.
fn outline_at(lines: &mut Lines, s: &SectorObject, y: f32, d: Vec3, rgba: [u8; 4]) {
    let mut pts: Vec<Vec3> = s
        .outline
        .iter()
        .map(|p| Vec3::new(p.x, y, p.y) + d)
        .collect();
    if let Some(&first) = pts.first() {
        pts.push(first);
    }
    lines.strip(&pts, rgba);
}

/// Where mover `m`'s path is drawn from: its object's centre (a sector's outline centre at the height of
/// the surface it moves; its floor's when whole). A path point `p` is drawn at `anchor + p`.
#[must_use]
pub fn anchor(level: &Level, m: &MoverObject) -> Option<Vec3> {
    if let Some(s) = level.sectors.iter().find(|s| s.id == m.object) {
        let (c, floor, ceiling) = sector_centre(s)?;
        let y = if m.part == MoverPart::Ceiling {
            ceiling
        } else {
            floor
        };
        Some(Vec3::new(c.x, y, c.y))
    } else {
        bounds3(level, m.object).map(|b| b.center())
    }
}

/// Every mover's path and its object where `offset_of(mover id)` has it (see [`super::shown`]).
pub fn movers(lines: &mut Lines, level: &Level, offset_of: &dyn Fn(ObjectId) -> Vec3) {
    for m in &level.movers {
        let d = offset_of(m.id);
        let d = if d.is_finite() { d } else { Vec3::ZERO };
        let Some(anchor) = anchor(level, m) else {
            continue;
        };
        if let Some(s) = level.sectors.iter().find(|s| s.id == m.object) {
            let (floor, ceiling) = (s.floor.height, s.ceiling.height);
            match m.part {
                MoverPart::Floor => outline_at(lines, s, floor, d, MOVER_RGBA),
                MoverPart::Ceiling => outline_at(lines, s, ceiling, d, MOVER_RGBA),
                MoverPart::Whole => {
                    outline_at(lines, s, floor, d, MOVER_RGBA);
                    outline_at(lines, s, ceiling, d, MOVER_RGBA);
                }
            }
        } else if let Some(b) = bounds3(level, m.object) {
            lines.aabb(&Aabb::new(b.min + d, b.max + d), MOVER_RGBA);
        }
        let pts: Vec<Vec3> = m
            .path
            .iter()
            .filter(|p| p.is_finite())
            .map(|p| anchor + *p)
            .collect();
        lines.strip(&pts, MOVER_RGBA);
        for p in &pts {
            lines.cross(*p, 0.12, MOVER_RGBA);
        }
    }
}

/// The top centre of one-way object `id` (boxes, triangles, meshes, sectors' floors), where its arrow starts.
fn one_way_tops(level: &Level) -> Vec<(ObjectId, Vec3)> {
    let top = |b: Aabb| {
        Vec3::new(
            (b.min.x + b.max.x) * 0.5,
            b.max.y,
            (b.min.z + b.max.z) * 0.5,
        )
    };
    let boxes = level
        .aabbs
        .iter()
        .filter(|o| o.one_way)
        .map(|o| o.id)
        .chain(level.obbs.iter().filter(|o| o.one_way).map(|o| o.id))
        .chain(level.triangles.iter().filter(|o| o.one_way).map(|o| o.id))
        .chain(level.meshes.iter().filter(|o| o.one_way).map(|o| o.id));
    let mut out: Vec<(ObjectId, Vec3)> = boxes
        .filter_map(|id| Some((id, top(bounds3(level, id)?))))
        .collect();
    out.extend(level.sectors.iter().filter(|s| s.one_way).filter_map(|s| {
        let (c, floor, _) = sector_centre(s)?;
        Some((s.id, Vec3::new(c.x, floor, c.y)))
    }));
    out
}

/// Each one-way object's arrow, up from its top (moved with its mover): things pass through it that way.
/// `offset_of_object` is the moved object's offset (zero for one that does not move).
pub fn one_way(lines: &mut Lines, level: &Level, offset_of_object: &dyn Fn(ObjectId) -> Vec3) {
    for (id, top) in one_way_tops(level) {
        let d = offset_of_object(id);
        let p = top + if d.is_finite() { d } else { Vec3::ZERO };
        lines.arrow(p, p + Vec3::Y * ARROW, ONE_WAY_RGBA);
        lines.circle(p, Vec3::Y, 0.25, ONE_WAY_RGBA);
    }
}

/// Where the top-down view marks each one-way object: its top's `(x, z)` moved with its mover.
#[must_use]
pub fn one_way_spots(level: &Level, offset_of_object: &dyn Fn(ObjectId) -> Vec3) -> Vec<Vec2> {
    one_way_tops(level)
        .into_iter()
        .map(|(id, top)| {
            let d = offset_of_object(id);
            let p = top + if d.is_finite() { d } else { Vec3::ZERO };
            Vec2::new(p.x, p.z)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moved_box_is_drawn_at_its_offset_with_its_path_and_a_one_way_arrow() {
        let level = Level::from_ron_str(
            r#"(version: 3,
            aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (2.0, 0.2, 2.0), one_way: true)],
            movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 3.0, 0.0)], speed: 1.0)])"#,
        )
        .unwrap();
        let mut lines = Lines::default();
        movers(&mut lines, &level, &|_| Vec3::new(0.0, 1.5, 0.0));
        // 12 box edges, 1 path segment, 2 crosses of 3 segments.
        assert_eq!(lines.vertices(), 2 * (12 + 1 + 6));
        let ys: Vec<f32> = lines.data.chunks(4).map(|v| v[1]).collect();
        assert!(
            ys.iter().any(|y| (y - 1.7).abs() < 1e-6),
            "the box's top where the offset has it"
        );
        let spots = one_way_spots(&level, &|id| {
            if id == ObjectId(1) {
                Vec3::X
            } else {
                Vec3::ZERO
            }
        });
        assert_eq!(spots, vec![Vec2::new(2.0, 1.0)]);
        let mut arrows = Lines::default();
        one_way(&mut arrows, &level, &|_| Vec3::ZERO);
        assert!(arrows.data.chunks(4).any(|v| v[1] == 0.2 + ARROW));
    }
}
