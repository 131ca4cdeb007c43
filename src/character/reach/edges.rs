//! Which places lead to which: from each place, one move toward each neighbouring column's places, decided by
//! the controller itself (`move_character` with the motion a game would replay, `next - at + (0, -max_step,
//! 0)`): an edge when the move lands within a skin of the place. Between two places on the same level floor the
//! move is a single horizontal sweep (the controller's own first sweep; nothing else can change its end), so
//! that sweep alone decides, once for both directions; a sweep that meets something falls back to the whole
//! move. Past a rim, where the next column has nowhere to stand near the height, moves of two or more cells
//! find where a walk off the edge lands (a drop is a one-way edge).

use glam::Vec3;

use super::super::CharacterController;
use super::spots::{Grid, Spot, grown};
use crate::scene::Scene;

/// The four neighbours of a column.
const DIRECTIONS: [(i64, i64); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// Counts of the work done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct EdgeWork {
    /// Single sweeps between level places.
    pub(super) sweeps: u64,
    /// Whole moves of the controller.
    pub(super) moves: u64,
}

/// The places and where they are, shared by the workers.
pub(super) struct Places<'a> {
    pub(super) scene: &'a Scene,
    pub(super) ctl: &'a CharacterController,
    pub(super) grid: &'a Grid,
    pub(super) spots: &'a [Spot],
    /// `spots[col_start[c]..col_start[c + 1]]` are column `c`'s places.
    pub(super) col_start: &'a [u32],
}

impl Places<'_> {
    fn in_column(&self, c: usize) -> std::ops::Range<usize> {
        self.col_start[c] as usize..self.col_start[c + 1] as usize
    }

    /// Whether one move from `a` replayed as a game would (toward `b`, plus `max_step` down) lands within a
    /// skin (and a millimetre) of `b`.
    fn move_lands(&self, a: &Spot, b: &Spot, work: &mut EdgeWork) -> bool {
        work.moves += 1;
        let motion = b.feet - a.feet + Vec3::NEG_Y * self.ctl.max_step;
        let m = self.ctl.move_character(self.scene, a.feet, motion);
        m.feet.distance(b.feet) <= self.ctl.skin + 1e-3
    }

    /// Whether two places are on the same level floor (both surfaces facing straight up, at one height), where
    /// the move between them is one horizontal sweep.
    fn level_pair(&self, a: &Spot, b: &Spot) -> bool {
        a.normal == Vec3::Y && b.normal == Vec3::Y && (a.feet.y - b.feet.y).abs() <= 1e-5
    }

    /// Whether `b` is within a step up or a snap down of `a`.
    fn within_step(&self, a: &Spot, b: &Spot) -> bool {
        let ctl = self.ctl;
        b.feet.y <= a.feet.y + ctl.max_step + 2.0 * ctl.skin
            && b.feet.y >= a.feet.y - ctl.snap_distance - 2.0 * ctl.skin
    }

    /// The edges out of place `i` (and, for level pairs toward +x and +z, the edge back too), appended to `out`.
    pub(super) fn edges_from(&self, i: usize, out: &mut Vec<(u32, u32)>, work: &mut EdgeWork) {
        let a = &self.spots[i];
        let ctl = self.ctl;
        let column = a.column as usize;
        for (d, &(di, dk)) in DIRECTIONS.iter().enumerate() {
            let Some(n) = self.grid.neighbour(column, di, dk) else {
                continue;
            };
            let mut any = false;
            for j in self.in_column(n) {
                let b = &self.spots[j];
                if !self.within_step(a, b) {
                    continue;
                }
                any = true;
                if self.level_pair(a, b) {
                    // Once per pair, from the side toward +x or +z.
                    if d < 2 {
                        work.sweeps += 1;
                        let motion = b.feet - a.feet;
                        if self
                            .scene
                            .sweep_capsule(&grown(ctl, a.feet), motion)
                            .is_none()
                        {
                            out.push((i as u32, j as u32));
                            out.push((j as u32, i as u32));
                        } else {
                            if self.move_lands(a, b, work) {
                                out.push((i as u32, j as u32));
                            }
                            if self.move_lands(b, a, work) {
                                out.push((j as u32, i as u32));
                            }
                        }
                    }
                } else if self.move_lands(a, b, work) {
                    out.push((i as u32, j as u32));
                }
            }
            if !any {
                self.farther_from(i, di, dk, out, work);
            }
        }
    }

    /// Where the next column has no place near the height (the body keeps its radius and skin from a riser, a
    /// rim or a wall, so the places on either side of one are more than a cell apart): the nearest place one
    /// to a few cells on that one move reaches, up a step, on the level, or down past a rim (a drop, taken one
    /// way).
    fn farther_from(
        &self,
        i: usize,
        di: i64,
        dk: i64,
        out: &mut Vec<(u32, u32)>,
        work: &mut EdgeWork,
    ) {
        let a = &self.spots[i];
        let ctl = self.ctl;
        let reach = ((ctl.radius + 2.0 * ctl.skin) / self.grid.cell).ceil() as i64 + 1;
        for k in 2..=reach.max(2) {
            let Some(n) = self.grid.neighbour(a.column as usize, di * k, dk * k) else {
                return;
            };
            // Within a step first (the nearest height first), then the highest place below the rim.
            let mut near: Vec<usize> = self
                .in_column(n)
                .filter(|&j| self.within_step(a, &self.spots[j]))
                .collect();
            near.sort_by(|&x, &y| {
                let h = |j: usize| (self.spots[j].feet.y - a.feet.y).abs();
                h(x).total_cmp(&h(y))
            });
            let below = self
                .in_column(n)
                .filter(|&j| self.spots[j].feet.y < a.feet.y - ctl.snap_distance - 2.0 * ctl.skin)
                .max_by(|&x, &y| self.spots[x].feet.y.total_cmp(&self.spots[y].feet.y));
            for j in near.into_iter().chain(below) {
                if self.move_lands(a, &self.spots[j], work) {
                    out.push((i as u32, j as u32));
                    return;
                }
            }
        }
    }
}

/// Every edge, computed on `threads` threads over interleaved blocks of places; sorted by (from, to).
pub(super) fn all_edges(places: &Places<'_>, threads: usize) -> (Vec<(u32, u32)>, EdgeWork) {
    let n = places.spots.len();
    let threads = threads.clamp(1, 64).min(n.max(1));
    const BLOCK: usize = 256;
    let results: Vec<(Vec<(u32, u32)>, EdgeWork)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    let mut work = EdgeWork::default();
                    let mut start = t * BLOCK;
                    while start < n {
                        for i in start..(start + BLOCK).min(n) {
                            places.edges_from(i, &mut out, &mut work);
                        }
                        start += threads * BLOCK;
                    }
                    (out, work)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut edges = Vec::new();
    let mut work = EdgeWork::default();
    for (e, w) in results {
        edges.extend(e);
        work.sweeps += w.sweeps;
        work.moves += w.moves;
    }
    edges.sort_unstable();
    edges.dedup();
    (edges, work)
}
