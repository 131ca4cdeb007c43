//! A moving floor or ceiling's "piston": the part of a sector a lift or a crusher moves. The sector itself is
//! cooked with its floor at the lowest height its mover reaches (its ceiling at the highest); the piston is
//! the floor's triangles (the ceiling's) at the sector's own height plus side faces around the outline and
//! holes going down (up) by the mover's vertical range. Moved up, a lift shows its sides as risers to its
//! neighbours; moved down, its sides sink below their floors: no gap opens at any height.

use glam::{Vec2, Vec3};

use super::cooked::{CookedSector, FaceKind};
use super::{HeightFn, SectorGeom};

/// Which surface a piston carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PistonSide {
    /// The floor: sides go down.
    Floor,
    /// The ceiling: sides go up.
    Ceiling,
}

/// The piston of sector `g`'s floor or ceiling: `cooked` is the sector cooked with that surface moved by
/// `shift` (the lowest floor offset, or the highest ceiling offset, of its mover); its floor (ceiling)
/// triangles are taken from it and moved back by `-shift` to the sector's own height, and side faces
/// `depth` metres deep (the mover's vertical range) are added along every outline and hole edge, hanging
/// down from the floor (standing up from the ceiling). Face kinds: the surface's own, and `Riser` (`Lintel`)
/// for the sides. Empty when the sector cooked to nothing.
#[must_use]
pub fn piston(
    g: &SectorGeom<'_>,
    cooked: &CookedSector,
    side: PistonSide,
    shift: f32,
    depth: f32,
) -> CookedSector {
    let mut out = CookedSector::empty(g.id);
    let (kind, side_kind, surface, dir) = match side {
        PistonSide::Floor => (FaceKind::Floor, FaceKind::Riser, &g.floor, -1.0),
        PistonSide::Ceiling => (FaceKind::Ceiling, FaceKind::Lintel, &g.ceiling, 1.0),
    };
    let back = Vec3::new(0.0, -shift, 0.0);
    for (tri, &k) in cooked.indices.iter().zip(&cooked.faces) {
        if k == kind {
            out.push(tri.map(|i| cooked.vertices[i as usize] + back), kind);
        }
    }
    if out.is_empty() || !(depth > 0.0) || !depth.is_finite() {
        return out;
    }
    let height = HeightFn::new(surface, g.outline);
    let at = |p: Vec2| Vec3::new(p.x, height.at(p), p.y);
    let down = Vec3::new(0.0, dir * depth, 0.0);
    for ring in std::iter::once(g.outline).chain(g.holes.iter().map(Vec::as_slice)) {
        for (k, &a) in ring.iter().enumerate() {
            let b = ring[(k + 1) % ring.len()];
            if !(a.is_finite() && b.is_finite()) || a == b {
                continue;
            }
            let (ta, tb) = (at(a), at(b));
            out.push([ta, tb, tb + down], side_kind);
            out.push([ta, tb + down, ta + down], side_kind);
        }
    }
    out
}
