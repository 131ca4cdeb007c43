//! What a mover looks like in the top-down view (no egui): its path as a polyline through the object's
//! footprint centre, and the footprint where the mover has it at the shown scene time. The view draws these
//! with the draw layer ([`super::paint`]).

use glam::{Vec2, Vec3};

use crate::level::{Level, MoverPart, ObjectId};

/// One mover's marks, `(x, z)` world points.
#[derive(Clone, Debug, PartialEq)]
pub struct MoverMarks {
    /// The mover's id.
    pub mover: ObjectId,
    /// The path's points through the footprint's centre (a vertical path is one point).
    pub path: Vec<Vec2>,
    /// The footprint's corners (min, max) moved to the shown place.
    pub now: (Vec2, Vec2),
    /// Whether it moves a sector's floor or ceiling (drawn dashed: its outline stays, its height moves).
    pub part: MoverPart,
}

/// The `(x, z)` box of object `id` (boxes, cylinders, triangles, sectors; `None` for others).
#[must_use]
pub fn footprint(level: &Level, id: ObjectId) -> Option<(Vec2, Vec2)> {
    let xz = |v: Vec3| Vec2::new(v.x, v.z);
    let of = |pts: &mut dyn Iterator<Item = Vec2>| {
        pts.fold(None, |acc: Option<(Vec2, Vec2)>, p| {
            Some(acc.map_or((p, p), |(lo, hi)| (lo.min(p), hi.max(p))))
        })
    };
    if let Some(b) = level.aabbs.iter().find(|o| o.id == id) {
        return Some((xz(b.min), xz(b.max)));
    }
    if let Some(b) = level.obbs.iter().find(|o| o.id == id) {
        let r = Vec2::splat(xz(b.half_extents).length());
        return Some((xz(b.center) - r, xz(b.center) + r));
    }
    if let Some(c) = level.cylinders.iter().find(|o| o.id == id) {
        let r = Vec2::splat(c.radius);
        return Some((xz(c.a).min(xz(c.b)) - r, xz(c.a).max(xz(c.b)) + r));
    }
    if let Some(t) = level.triangles.iter().find(|o| o.id == id) {
        return of(&mut [t.a, t.b, t.c].into_iter().map(xz));
    }
    let s = level.sectors.iter().find(|o| o.id == id)?;
    of(&mut s.outline.iter().copied())
}

/// Every mover's marks with the movers' offsets `offset_of(mover id)` at the shown time.
#[must_use]
pub fn marks(level: &Level, offset_of: impl Fn(ObjectId) -> Vec3) -> Vec<MoverMarks> {
    level
        .movers
        .iter()
        .filter_map(|m| {
            let (lo, hi) = footprint(level, m.object)?;
            let centre = (lo + hi) * 0.5;
            let mut path: Vec<Vec2> = m
                .path
                .iter()
                .filter(|p| p.is_finite())
                .map(|p| centre + Vec2::new(p.x, p.z))
                .collect();
            path.dedup();
            let d = offset_of(m.id);
            let d = if d.is_finite() {
                Vec2::new(d.x, d.z)
            } else {
                Vec2::ZERO
            };
            Some(MoverMarks {
                mover: m.id,
                path,
                now: (lo + d, hi + d),
                part: m.part,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_platform_path_runs_through_its_centre_and_its_place_follows_the_offset() {
        let level = Level::from_ron_str(
            r#"(version: 3, aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (2.0, 0.2, 2.0))],
            movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (4.0, 0.0, 0.0)], speed: 1.0)])"#,
        )
        .unwrap();
        let m = marks(&level, |_| Vec3::new(1.0, 0.0, 0.0));
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].path, vec![Vec2::new(1.0, 1.0), Vec2::new(5.0, 1.0)]);
        assert_eq!(m[0].now, (Vec2::new(1.0, 0.0), Vec2::new(3.0, 2.0)));
    }
}
