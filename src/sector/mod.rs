//! Greybox sectors cooked into exact triangles: the rooms of a 2.5D level (Doom's sectors, Build's slopes).
//!
//! A sector is a plan polygon (outline and holes, `(x, z)` metres, either winding) with a floor and a
//! ceiling, each flat or sloped ([`Surface`], [`Slope`]). Cooking ([`SectorCook`]) turns each into one
//! triangle soup ([`CookedSector`]):
//! - **Floors and ceilings**: a constrained Delaunay triangulation of the outline and holes (spade, with exact
//!   predicates: robust on the collinear and nearly degenerate input where an ear clipper is not), every
//!   vertex raised to its surface's plane. Floors face up, ceilings down.
//! - **Edges**: every outline or hole edge is split at the end points of the collinear edges of other sectors
//!   that overlap it (within [`SHARE_TOLERANCE`]), taking their points exactly, so both sides of a seam have
//!   the same vertices and there are no T-junctions to leak through. Two sectors *share* a part of an edge when
//!   they lie on opposite sides of it and their height ranges (lowest floor to highest ceiling) overlap. Seen
//!   from a sector's air over an edge part, what the sectors across leave uncovered is a face: a **riser** up to
//!   a higher floor (the object of the sector whose floor it holds up), a **lintel** down to a lower ceiling
//!   (the object of the sector whose ceiling it is), or a solid **wall** from floor to ceiling where nothing is
//!   shared (the sector's own). Where both sides are air it is open (a portal). Sloped surfaces give faces that
//!   follow their lines, split where two lines cross.
//! - **Storeys**: sectors may overlap in plan where their height ranges do not; they share nothing.
//!
//! Edges are matched through a hash grid ([`grid`]), so cooking grows with the number of edges, not their
//! square. [`SectorCook::update`] re-cooks an edited sector and its neighbours only.
//!
//! ```
//! use collidoscope::glam::Vec2;
//! use collidoscope::level::ObjectId;
//! use collidoscope::sector::{SectorCook, SectorGeom, Surface};
//!
//! let square = |x: f32| vec![Vec2::new(x, 0.0), Vec2::new(x + 2.0, 0.0), Vec2::new(x + 2.0, 2.0),
//!     Vec2::new(x, 2.0)];
//! let (low, high) = (square(0.0), square(2.0));
//! let flat = |h: f32| Surface { height: h, slope: None };
//! let cook = SectorCook::new([
//!     SectorGeom { id: ObjectId(1), outline: &low, holes: &[], floor: flat(0.0), ceiling: flat(3.0) },
//!     SectorGeom { id: ObjectId(2), outline: &high, holes: &[], floor: flat(0.2), ceiling: flat(3.0) },
//! ]);
//! // The 0.2 m riser between them belongs to the higher floor's sector.
//! let risers = cook.sector(ObjectId(2)).unwrap().faces.iter()
//!     .filter(|f| **f == collidoscope::sector::FaceKind::Riser).count();
//! assert_eq!(risers, 2);
//! ```

mod cook;
mod cooked;
pub mod grid;
mod piston;
mod plane;
pub mod ring;
mod triangulate;
mod walls;

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::id::ObjectId;

pub use cook::SectorCook;
pub use cooked::{CookedSector, FaceKind};
pub use piston::{PistonSide, piston};
pub use plane::{CEILING_DROP_ULPS, HeightFn, MAX_SLOPE_DEGREES};
pub use triangulate::triangulate;

/// Edges closer than this (metres) to collinear and overlapping are shared; split points closer than this to
/// each other are one.
pub const SHARE_TOLERANCE: f32 = 1e-4;

/// A slope: the surface's plane passes through the outline's edge `edge` (from `outline[edge]` to the next
/// point) at the surface's height and rises `degrees` (negative: falls) away from that edge into the sector.
/// `|degrees| < 89`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slope {
    /// The outline edge the plane passes through.
    pub edge: u32,
    /// The angle from horizontal, degrees; positive rises into the sector.
    pub degrees: f32,
}

/// A floor or ceiling: a height and an optional slope.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Surface {
    /// Metres (along the slope's edge, for a sloped surface).
    pub height: f32,
    /// Flat when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slope: Option<Slope>,
}

/// A sector's geometry as the cooking takes it (the level's `SectorObject` lends one).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SectorGeom<'a> {
    /// The object the cooked triangles belong to.
    pub id: ObjectId,
    /// The outline.
    pub outline: &'a [Vec2],
    /// The holes.
    pub holes: &'a [Vec<Vec2>],
    /// The floor.
    pub floor: Surface,
    /// The ceiling.
    pub ceiling: Surface,
}

/// The sector's height range: its lowest floor and highest ceiling over the outline (sharing and storeys
/// compare these). `(0, 0)` for an outline with no finite point.
#[must_use]
pub fn height_range(g: &SectorGeom<'_>) -> (f32, f32) {
    let floor = HeightFn::new(&g.floor, g.outline);
    let ceiling = HeightFn::new(&g.ceiling, g.outline);
    let mut lo = f32::INFINITY;
    let mut hi = f32::NEG_INFINITY;
    for &p in g.outline.iter().filter(|p| p.is_finite()) {
        lo = lo.min(floor.at(p));
        hi = hi.max(ceiling.at(p));
    }
    if lo.is_finite() && hi.is_finite() {
        (lo, hi)
    } else {
        (0.0, 0.0)
    }
}

/// Cook `sectors` once (no incremental updates to follow): each sector's triangles, in the given order.
#[must_use]
pub fn cook<'a>(sectors: impl IntoIterator<Item = SectorGeom<'a>>) -> Vec<CookedSector> {
    SectorCook::new(sectors).into_cooked()
}

#[cfg(test)]
mod tests;
