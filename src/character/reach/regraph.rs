//! Updating a move graph after an edit: only the columns near what changed are scanned again, and only the
//! nodes near them expanded again; every other node makes the moves it made before (`graph.rs`'s `Reuse`).
//! The result is the graph a fresh build makes: the same places, landings, numbering and moves.
//!
//! How far an edit reaches, across (nothing is assumed of heights: every column is whole):
//! - a column's places: the body at the column's centre, pushed out within a cell (`spots.rs`): what lies
//!   within a cell and a body of the centre. Those columns are scanned again;
//! - a node's moves: toward the places of the columns up to `reach` cells away (its search, `edges.rs`), each
//!   swept, walked or slid with the body, from feet (and to places) that may lie a cell off their column's
//!   centre: what lies within `reach` and two cells and a body, and the places of the columns `reach` away.
//!   Both hold for the nodes of the columns within `reach`, two cells and a body of what changed, which are
//!   expanded again.

use std::collections::HashMap;

use glam::Vec2;

use super::graph::{KeyMap, MoveGraph, NONE, Reuse, starts, threads_of};
use super::spots::{Grid, Spot, scan_columns};
use super::{ReachError, ReachSettings};
use crate::scene::Scene;
use crate::shape::Aabb;

/// A rectangle of columns, bounds included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ColumnRect {
    i0: usize,
    i1: usize,
    k0: usize,
    k1: usize,
}

impl ColumnRect {
    /// The columns of `grid` whose cells come within `margin` of `changed` across (`None`: none do).
    fn near(grid: &Grid, changed: &Aabb, margin: f32) -> Option<ColumnRect> {
        let lo = (Vec2::new(changed.min.x, changed.min.z) - margin - grid.min) / grid.cell;
        let hi = (Vec2::new(changed.max.x, changed.max.z) + margin - grid.min) / grid.cell;
        let (nx, nz) = (grid.nx as f32, grid.nz as f32);
        if hi.x < 0.0 || hi.y < 0.0 || lo.x >= nx || lo.y >= nz {
            return None;
        }
        // The casts saturate: a box far past the grid's edge clamps to it.
        Some(ColumnRect {
            i0: lo.x.floor().max(0.0) as usize,
            i1: (hi.x.floor() as usize).min(grid.nx - 1),
            k0: lo.y.floor().max(0.0) as usize,
            k1: (hi.y.floor() as usize).min(grid.nz - 1),
        })
    }

    /// Whether column `c` of a grid `nx` columns wide is inside.
    fn contains(&self, nx: usize, c: usize) -> bool {
        let (i, k) = (c % nx, c / nx);
        (self.i0..=self.i1).contains(&i) && (self.k0..=self.k1).contains(&k)
    }
}

impl MoveGraph {
    /// The graph a fresh [`MoveGraph::build`] over the edited `scene` would make, where `changed` bounds what
    /// moved (old and new places) and `self` was built over the scene before with the same bounds and
    /// settings. Returns the graph and, for each of its nodes, the node of `self` whose moves it kept (`NONE`:
    /// expanded anew). A different grid (other bounds) is a fresh build, nothing kept.
    pub(crate) fn update(
        &self,
        scene: &Scene,
        bounds: Aabb,
        settings: &ReachSettings,
        changed: Aabb,
    ) -> Result<(MoveGraph, Vec<u32>), ReachError> {
        let grid = Self::grid_of(scene, &self.ctl, bounds, settings)?;
        let everything = !(changed.min.is_finite() && changed.max.is_finite());
        if grid != self.grid || everything {
            let graph = Self::build(scene, &self.ctl, bounds, settings)?;
            let n = graph.len();
            return Ok((graph, vec![NONE; n]));
        }
        let (ctl, cell) = (self.ctl, grid.cell);
        // The margins (see the module), with a few centimetres to spare for rounding.
        let body = ctl.radius + 2.0 * ctl.skin;
        let scan_margin = cell + body + 0.05;
        let reach = ((body / cell).ceil() as usize + 1).max(2) as f32 * cell;
        let rescanned = ColumnRect::near(&grid, &changed, scan_margin);
        let expanded = ColumnRect::near(&grid, &changed, scan_margin + reach + cell + 0.05);
        let threads = threads_of(settings);
        let (spots, col_start, spot_old, spot_new) = self.rescan(scene, rescanned, threads);
        let mut graph = Self::with_spots(grid, ctl, spots, col_start);
        let first = self.spots.len() as u32;
        let old_loose: KeyMap<u32> = self
            .loose_keys
            .iter()
            .enumerate()
            .map(|(i, &k)| (k, first + i as u32))
            .collect();
        let nx = grid.nx;
        let reuse = Reuse {
            old: self,
            spot_old,
            spot_new,
            fresh: Box::new(move |c| expanded.is_some_and(|r| r.contains(nx, c))),
            old_loose,
            landing_at: starts(self.nodes.len(), &self.landings, |l| l.0),
            off_at: starts(self.nodes.len(), &self.off_feet, |f| f.0),
        };
        let reused = graph.connect(scene, threads, Some(&reuse));
        Ok((graph, reused))
    }

    /// The places with the columns of `rect` scanned again: the places, their columns' ranges, and for each new
    /// place its old one and for each old place its new one (`NONE` in the columns scanned again).
    #[allow(clippy::type_complexity)]
    fn rescan(
        &self,
        scene: &Scene,
        rect: Option<ColumnRect>,
        threads: usize,
    ) -> (Vec<Spot>, Vec<u32>, Vec<u32>, Vec<u32>) {
        let grid = &self.grid;
        let columns: Vec<usize> = match rect {
            Some(r) => (r.k0..=r.k1)
                .flat_map(|k| (r.i0..=r.i1).map(move |i| k * grid.nx + i))
                .collect(),
            None => Vec::new(),
        };
        let mut again: HashMap<usize, Vec<Spot>> =
            scan_columns(scene, &self.ctl, grid, &columns, threads)
                .into_iter()
                .map(|(c, col)| (c, col.spots))
                .collect();
        let mut spots = Vec::with_capacity(self.spots.len());
        let mut col_start = Vec::with_capacity(self.col_start.len());
        col_start.push(0u32);
        let mut spot_old = Vec::with_capacity(self.spots.len());
        let mut spot_new = vec![NONE; self.spots.len()];
        for c in 0..grid.columns() {
            let (lo, hi) = (self.col_start[c], self.col_start[c + 1]);
            let scanned = rect.is_some_and(|r| r.contains(grid.nx, c));
            if let Some(fresh) = scanned.then(|| again.remove(&c)).flatten() {
                spot_old.extend(std::iter::repeat_n(NONE, fresh.len()));
                spots.extend(fresh);
            } else {
                for j in lo..hi {
                    spot_new[j as usize] = spots.len() as u32;
                    spot_old.push(j);
                    spots.push(self.spots[j as usize]);
                }
            }
            col_start.push(spots.len() as u32);
        }
        (spots, col_start, spot_old, spot_new)
    }
}
