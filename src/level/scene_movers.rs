//! The level adapter's moving parts: the sectors cooked with their moving floors and ceilings at the far end of
//! their paths plus a piston each ([`crate::sector::piston`]), and each [`MoverObject`] turned into the
//! scene's [`MoverSetup`] with the entries it moves.

use std::collections::HashMap;

use super::{Level, MoverObject, MoverPart, ObjectId, SectorObject};
use crate::mover::MoverPath;
use crate::scene::MoverSetup;
use crate::sector::{CookedSector, PistonSide, SectorCook, SectorGeom, piston};
use crate::sim::Static;

/// The vertical range of a mover's path: `(lowest, highest)` offset `y` (both 0 for an empty path).
fn vertical_range(m: &MoverObject) -> (f32, f32) {
    m.path
        .iter()
        .filter(|p| p.is_finite())
        .fold((0.0f32, 0.0f32), |(lo, hi), p| (lo.min(p.y), hi.max(p.y)))
}

/// Sector `s`'s geometry as the level's scene cooks it under `m`, the first mover of `s` if any: a moving
/// floor lowered to the lowest offset of its path, a moving ceiling raised to the highest, otherwise as
/// it is. Cooking every sector so ([`SectorCook::new`]) gives the sectors the scene holds; a floor or
/// ceiling mover's moving part is then [`mover_piston`] of that cook.
#[must_use]
pub fn sector_geom_with_mover<'a>(s: &'a SectorObject, m: Option<&MoverObject>) -> SectorGeom<'a> {
    let mut g = s.geom();
    if let Some(m) = m {
        let (lo, hi) = vertical_range(m);
        match m.part {
            MoverPart::Floor => g.floor.height += lo,
            MoverPart::Ceiling => g.ceiling.height += hi,
            MoverPart::Whole => {}
        }
    }
    g
}

/// The piston that floor or ceiling mover `m` moves of sector `s`, as the level's scene builds it:
/// `cooked` is `s` cooked from [`sector_geom_with_mover`]; its floor's (ceiling's) triangles go back to the
/// sector's own height, with side faces as deep as the path's vertical range ([`piston`]). `None` for a
/// mover of the whole sector.
#[must_use]
pub fn mover_piston(
    s: &SectorObject,
    cooked: &CookedSector,
    m: &MoverObject,
) -> Option<CookedSector> {
    let (lo, hi) = vertical_range(m);
    let (side, shift) = match m.part {
        MoverPart::Floor => (PistonSide::Floor, lo),
        MoverPart::Ceiling => (PistonSide::Ceiling, hi),
        MoverPart::Whole => return None,
    };
    // The piston's sides hang from the sector's own surface, not the shifted one it was cooked with (the
    // shift taken back off the shifted height, so the same bits whoever builds it).
    let mut own = sector_geom_with_mover(s, Some(m));
    match side {
        PistonSide::Floor => own.floor.height -= shift,
        PistonSide::Ceiling => own.ceiling.height -= shift,
    }
    Some(piston(&own, cooked, side, shift, hi - lo))
}

/// Append the level's cooked sectors (each one mesh, the moving floors at their lowest and the moving ceilings
/// at their highest), then the pistons of the moving floors and ceilings, to `out` (and their one-way flags to
/// `one_way`); answer the level's movers with the entries of `out` they move.
pub(super) fn sector_parts(
    level: &Level,
    out: &mut Vec<(ObjectId, Static)>,
    one_way: &mut Vec<bool>,
) -> Vec<MoverSetup> {
    // The one mover of each object (validation refuses two; the first wins here).
    let mut mover_of: HashMap<ObjectId, &MoverObject> = HashMap::new();
    for m in &level.movers {
        mover_of.entry(m.object).or_insert(m);
    }
    let geoms: Vec<SectorGeom<'_>> = level
        .sectors
        .iter()
        .map(|s| sector_geom_with_mover(s, mover_of.get(&s.id).copied()))
        .collect();
    let cook = SectorCook::new(geoms.iter().copied());
    let flags: HashMap<ObjectId, &SectorObject> = level.sectors.iter().map(|s| (s.id, s)).collect();
    for c in cook.sectors() {
        if let Some(s) = Static::from_sector(c) {
            out.push((c.id, s));
            one_way.push(flags.get(&c.id).is_some_and(|s| s.one_way));
        }
    }
    // Where each object is (its first entry), before the pistons are added.
    let mut index: HashMap<ObjectId, u32> = HashMap::new();
    for (i, (id, _)) in out.iter().enumerate() {
        index.entry(*id).or_insert(i as u32);
    }
    let mut pistons: HashMap<ObjectId, u32> = HashMap::new();
    for sector in &level.sectors {
        let Some(m) = mover_of.get(&sector.id) else {
            continue;
        };
        let Some(cooked) = cook.sector(sector.id) else {
            continue;
        };
        let Some(p) = mover_piston(sector, cooked, m) else {
            continue;
        };
        if let Some(s) = Static::from_sector(&p) {
            pistons.insert(sector.id, out.len() as u32);
            out.push((sector.id, s));
            one_way.push(flags.get(&sector.id).is_some_and(|s| s.one_way));
        }
    }
    level
        .movers
        .iter()
        .map(|m| {
            let entry = match m.part {
                MoverPart::Whole => index.get(&m.object),
                MoverPart::Floor | MoverPart::Ceiling => pistons.get(&m.object),
            };
            // A second mover of one object (refused by validation) moves nothing.
            let first = mover_of.get(&m.object).is_some_and(|f| f.id == m.id);
            MoverSetup {
                id: m.id,
                object: m.object,
                part: m.part,
                path: MoverPath::new(&m.path, m.speed, m.wait, m.repeat),
                start: m.start,
                entries: entry
                    .filter(|_| first)
                    .map(|&i| vec![i])
                    .unwrap_or_default(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn offset(y: f32) -> Vec3 {
        Vec3::new(0.0, y, 0.0)
    }

    #[test]
    fn vertical_range_covers_the_path() {
        let m = MoverObject {
            id: ObjectId(2),
            name: None,
            object: ObjectId(1),
            part: MoverPart::Floor,
            path: vec![offset(0.0), offset(-3.0), offset(1.0)],
            speed: 1.0,
            wait: 0.0,
            repeat: crate::mover::Repeat::Once,
            start: crate::mover::MoverStart::Always,
        };
        assert_eq!(vertical_range(&m), (-3.0, 1.0));
    }
}
