//! The spatial index of sector edges: a hash grid over the plan, each edge entered in the cells its segment
//! (grown by the sharing tolerance) crosses, so matching collinear edges costs a few cells per edge whatever
//! the level's size. Edges far longer than a cell (more than [`MAX_CELLS`] cells) are kept in a list of
//! their own, checked against every query.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use glam::{DVec2, Vec2};

use super::SHARE_TOLERANCE;

/// The most cells one edge is entered in; longer edges go to the grid's list of long edges.
pub const MAX_CELLS: usize = 1 << 16;

/// An edge of a sector: its slot in the cook, its ring (0 the outline, then the holes) and its index there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EdgeRef {
    /// The sector's slot.
    pub slot: u32,
    /// The ring.
    pub ring: u32,
    /// The edge (from point `edge` to the next).
    pub edge: u32,
}

/// A cheap multiplicative hasher for cell keys (the default SipHash costs more than the lookups).
#[derive(Default)]
pub struct CellHasher(u64);

impl Hasher for CellHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_i64(&mut self, v: i64) {
        self.0 = (self.0.rotate_left(5) ^ v as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The hash grid of edges.
#[derive(Clone, Debug, Default)]
pub struct EdgeGrid {
    cell: f64,
    cells: HashMap<(i64, i64), Vec<EdgeRef>, BuildHasherDefault<CellHasher>>,
    long: Vec<EdgeRef>,
}

impl EdgeGrid {
    /// An empty grid of square cells `cell` metres wide (at least a millimetre).
    #[must_use]
    pub fn new(cell: f64) -> Self {
        Self {
            cell: if cell.is_finite() {
                cell.max(1e-3)
            } else {
                1.0
            },
            cells: HashMap::default(),
            long: Vec::new(),
        }
    }

    /// Call `f` with every cell the segment `a`–`b`, grown by the sharing tolerance, touches; `false` (and no
    /// call) when that is more than [`MAX_CELLS`] cells or a point is not finite.
    fn cells_of(&self, a: Vec2, b: Vec2, mut f: impl FnMut((i64, i64))) -> bool {
        let (a, b) = (a.as_dvec2(), b.as_dvec2());
        if !a.is_finite() || !b.is_finite() {
            return false;
        }
        let t = f64::from(SHARE_TOLERANCE);
        let c = self.cell;
        let lo = a.min(b) - DVec2::splat(t);
        let hi = a.max(b) + DVec2::splat(t);
        let along = ((hi.x - lo.x) / c).ceil() + ((hi.y - lo.y) / c).ceil() + 2.0;
        if !(along <= MAX_CELLS as f64) {
            return false;
        }
        let (row0, row1) = ((lo.y / c).floor() as i64, (hi.y / c).floor() as i64);
        for row in row0..=row1 {
            // The part of the segment whose z lies in this row (grown by the tolerance).
            let z0 = (row as f64 * c - t).max(lo.y);
            let z1 = ((row + 1) as f64 * c + t).min(hi.y);
            let dz = b.y - a.y;
            let (x0, x1) = if dz.abs() < 1e-12 {
                (lo.x, hi.x)
            } else {
                let u0 = ((z0 - a.y) / dz).clamp(0.0, 1.0);
                let u1 = ((z1 - a.y) / dz).clamp(0.0, 1.0);
                let (xa, xb) = (a.x + (b.x - a.x) * u0, a.x + (b.x - a.x) * u1);
                (xa.min(xb) - t, xa.max(xb) + t)
            };
            for col in (x0 / c).floor() as i64..=(x1 / c).floor() as i64 {
                f((col, row));
            }
        }
        true
    }

    /// Enter the edge `r` from `a` to `b`.
    pub fn insert(&mut self, r: EdgeRef, a: Vec2, b: Vec2) {
        let mut keys = Vec::new();
        if self.cells_of(a, b, |k| keys.push(k)) {
            for k in keys {
                self.cells.entry(k).or_default().push(r);
            }
        } else {
            self.long.push(r);
        }
    }

    /// Take out the edges of `slot` that were entered along `a`–`b`.
    pub fn remove(&mut self, slot: u32, a: Vec2, b: Vec2) {
        let mut keys = Vec::new();
        if self.cells_of(a, b, |k| keys.push(k)) {
            for k in keys {
                if let Some(v) = self.cells.get_mut(&k) {
                    v.retain(|e| e.slot != slot);
                    if v.is_empty() {
                        self.cells.remove(&k);
                    }
                }
            }
        } else {
            self.long.retain(|e| e.slot != slot);
        }
    }

    /// Every edge that may lie within the tolerance of `a`–`b`, into `out` (with repeats); `false` when the
    /// segment is too long for the grid and the caller must check every edge itself.
    pub fn query(&self, a: Vec2, b: Vec2, out: &mut Vec<EdgeRef>) -> bool {
        out.extend_from_slice(&self.long);
        self.cells_of(a, b, |k| {
            if let Some(v) = self.cells.get(&k) {
                out.extend_from_slice(v);
            }
        })
    }
}
