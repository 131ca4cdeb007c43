//! The places that can be stood on but are not reached, grouped into regions, and for each region the limit
//! that keeps it out: one on its border (a surface too steep, a ceiling too low, an opening too narrow, a pit, a
//! reached place more than a step below), else the one met walking to it from the nearest reached place
//! (`explain.rs`), found for the regions on all cores.

use std::collections::BTreeMap;

use glam::{Vec2, Vec3};

use super::explain::{Blocker3, Walk};
use super::spots::{Grid, Rejection, Spot};
use super::{NONE, ReachMap, UnreachablePlace};
use crate::scene::Scene;

/// Union-find's root of `x`, halving the path on the way.
fn find(root: &mut [u32], mut x: u32) -> u32 {
    while root[x as usize] != x {
        root[x as usize] = root[root[x as usize] as usize];
        x = root[x as usize];
    }
    x
}

impl ReachMap {
    /// The unreached places grouped into regions, each a list of places in ascending order, the regions in the
    /// order of their first place.
    ///
    /// Unreached places within a body's height of each other in neighbouring columns are one region: the
    /// treads of a flight too steep to climb are one place out of reach, with one limit (its first riser).
    /// Places are nudged up to a cell from their column's centre, so the places of two treads can be two
    /// columns apart: places two columns apart are one region too when they are closer than two cells (and
    /// than the body's width, so never across a wall: places on either side of one are farther apart).
    fn regions(&self, grid: &Grid) -> Vec<Vec<u32>> {
        let n = self.spots.len();
        let mut root: Vec<u32> = (0..n as u32).collect();
        let step = self.controller.height;
        let join = (2.0 * grid.cell).min(2.0 * self.controller.radius);
        for a in (0..n).filter(|&a| self.parent[a] == NONE) {
            let s = self.spots[a];
            for dk in 0..=2i64 {
                for di in -2..=2i64 {
                    if dk == 0 && di <= 0 {
                        continue;
                    }
                    let adjacent = di.abs() + dk == 1;
                    let Some(c) = grid.neighbour(s.column as usize, di, dk) else {
                        continue;
                    };
                    for b in self.in_column(c) {
                        let t = self.spots[b].feet;
                        let near =
                            adjacent || Vec2::new(t.x - s.feet.x, t.z - s.feet.z).length() <= join;
                        if self.parent[b] == NONE && near && (t.y - s.feet.y).abs() <= step {
                            let (ra, rb) = (find(&mut root, a as u32), find(&mut root, b as u32));
                            if ra != rb {
                                root[ra.max(rb) as usize] = ra.min(rb);
                            }
                        }
                    }
                }
            }
        }
        let mut members: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        for i in (0..n as u32).filter(|&i| self.parent[i as usize] == NONE) {
            members.entry(find(&mut root, i)).or_default().push(i);
        }
        members.into_values().collect()
    }

    /// Group the unreached places into regions and explain each: the limit on its border nearest to passable,
    /// or the one met walking to it from the nearest reached place. Answers the controller moves it made.
    pub(super) fn explain(&mut self, scene: &Scene, threads: usize) -> u64 {
        let Some(grid) = self.grid else { return 0 };
        // For each region, its place nearest a reached place, and that reached place.
        let reached: Vec<u32> = (0..self.spots.len() as u32)
            .filter(|&i| self.parent[i as usize] != NONE)
            .collect();
        let jobs: Vec<(Vec<u32>, u32, u32)> = self
            .regions(&grid)
            .into_iter()
            .filter_map(|m| {
                let (target, from) = self.closest_pair(&m, &reached, &grid)?;
                Some((m, target, from))
            })
            .collect();
        let walk = Walk {
            scene,
            ctl: &self.controller,
            top: grid.top,
        };
        let this = &*self;
        let threads = threads.clamp(1, 64).min(jobs.len().max(1));
        // Job `k` on thread `k % threads`: regions near one another (alike in cost) spread over the threads.
        let parts = super::par::on_threads(threads, |t| {
            jobs.iter()
                .enumerate()
                .filter(|(k, _)| k % threads == t)
                .map(|(k, (members, target, from))| {
                    if let Some(b) = this.boundary_blocker(members, &grid) {
                        return (k, (b, 0));
                    }
                    let (a, b) = (&this.spots[*from as usize], &this.spots[*target as usize]);
                    (
                        k,
                        walk.blocker(a.feet, a.ground, b.feet, b.ground, grid.cell),
                    )
                })
                .collect::<Vec<_>>()
        });
        let mut blockers: Vec<(usize, (Blocker3, u64))> = parts.into_iter().flatten().collect();
        blockers.sort_by_key(|(k, _)| *k);
        let cell_area = grid.cell * grid.cell;
        let mut moves = 0;
        for ((m, target, _), (_, (blocker, walked))) in jobs.iter().zip(blockers) {
            moves += walked;
            let index = self.places.len() as u32;
            for &i in m {
                self.region[i as usize] = index;
            }
            self.places.push(UnreachablePlace {
                feet: self.spots[*target as usize].feet,
                area: m.len() as f32 * cell_area,
                blocker,
            });
        }
        moves
    }

    /// The limit on a region's border (within two cells of its places), the one nearest to passable: a
    /// surface too steep, a ceiling too low, an opening too narrow, a pit, or a reached place more than a step
    /// below. Each is scored by how far past the controller's limit it is (relative to that limit; a pit 1),
    /// the least wins, the nearest the start on a tie. `None` when the border holds none of them.
    fn boundary_blocker(&self, members: &[u32], grid: &Grid) -> Option<Blocker3> {
        let ctl = &self.controller;
        let mut best: Option<(f32, f32, Blocker3)> = None;
        // Ties go to the limit nearest the start: the side the way comes from.
        let start = self.start().unwrap_or(Vec3::ZERO);
        let mut consider = |score: f32, _from: Vec3, b: Blocker3| {
            let d = start.distance(b.at());
            if best.is_none_or(|(s, bd, _)| score < s || (score == s && d < bd)) {
                best = Some((score, d, b));
            }
        };
        for &t in members {
            let s = &self.spots[t as usize];
            for dk in -2..=2i64 {
                for di in -2..=2i64 {
                    let Some(c) = grid.neighbour(s.column as usize, di, dk) else {
                        continue;
                    };
                    let centre = grid.center(c);
                    for r in
                        &self.rejected[self.rej_start[c] as usize..self.rej_start[c + 1] as usize]
                    {
                        if r.point.y < s.ground - ctl.height
                            || r.point.y > s.ground + ctl.max_step + 0.5
                        {
                            continue;
                        }
                        // A passage too low or too narrow keeps out only what lies within a step above
                        // its floor (a tunnel's roof, higher, is kept out by its own height).
                        let passage =
                            matches!(r.why, Rejection::Low { .. } | Rejection::Narrow { .. });
                        if passage && r.point.y < s.ground - ctl.max_step - 2.0 * ctl.skin {
                            continue;
                        }
                        let at = r.point;
                        match r.why {
                            Rejection::Steep { degrees } => consider(
                                (degrees - ctl.max_slope_deg) / ctl.max_slope_deg,
                                s.feet,
                                Blocker3::SlopeTooSteep { at, degrees },
                            ),
                            Rejection::Low { clearance } => consider(
                                (ctl.height - clearance) / ctl.height,
                                s.feet,
                                Blocker3::TooLow { at, clearance },
                            ),
                            Rejection::Narrow { width } => consider(
                                (2.0 * ctl.radius - width).max(0.0) / (2.0 * ctl.radius),
                                s.feet,
                                Blocker3::TooNarrow { at, width },
                            ),
                        }
                    }
                    if self.empty[c] && self.reached_across(s, di, dk, grid) {
                        consider(
                            1.0,
                            s.feet,
                            Blocker3::Gap {
                                at: Vec3::new(centre.x, s.ground, centre.y),
                            },
                        );
                    }
                    for j in self.in_column(c) {
                        let below = &self.spots[j];
                        let height = s.ground - below.ground;
                        if self.parent[j] != NONE && height > ctl.max_step + 1e-3 {
                            let mid = (s.feet + below.feet) * 0.5;
                            consider(
                                (height - ctl.max_step) / ctl.max_step.max(1e-3),
                                s.feet,
                                Blocker3::StepTooHigh {
                                    at: Vec3::new(mid.x, s.ground, mid.z),
                                    height,
                                },
                            );
                        }
                    }
                }
            }
        }
        best.map(|(_, _, b)| b)
    }

    /// Whether, going from place `s` through the empty column `(di, dk)` from it and on in that direction (up to
    /// eight cells), there is a reached place within a body's height of `s`'s ground: a pit between the region
    /// and what is reached, not the edge of the world.
    fn reached_across(&self, s: &Spot, di: i64, dk: i64, grid: &Grid) -> bool {
        if di == 0 && dk == 0 {
            return false;
        }
        (2..=8i64).any(|k| {
            grid.neighbour(s.column as usize, di * k, dk * k)
                .is_some_and(|c| {
                    self.in_column(c).any(|j| {
                        self.parent[j] != NONE
                            && (self.spots[j].ground - s.ground).abs() <= self.controller.height
                    })
                })
        })
    }

    /// Of the region `m`, the place nearest a reached place, and that reached place (by a search outward over
    /// the grid's columns from each of the region's places, nearest first).
    fn closest_pair(&self, m: &[u32], reached: &[u32], grid: &Grid) -> Option<(u32, u32)> {
        if reached.is_empty() {
            return None;
        }
        let mut best: Option<(f32, u32, u32)> = None;
        // Search rings of growing radius around each member until something reached is found.
        for ring in 1..=64i64 {
            for &t in m {
                let s = &self.spots[t as usize];
                for c in grid.ring(s.column as usize, ring) {
                    for j in self.in_column(c) {
                        if self.parent[j] == NONE {
                            continue;
                        }
                        let d = self.spots[j].feet.distance(s.feet);
                        if best.is_none_or(|(b, _, _)| d < b) {
                            best = Some((d, t, j as u32));
                        }
                    }
                }
            }
            if let Some((d, t, j)) = best
                && d <= ring as f32 * grid.cell
            {
                return Some((t, j));
            }
        }
        // Far from everything reached: the nearest reached place overall.
        let t = m[0];
        let from = *reached.iter().min_by(|&&a, &&b| {
            let p = self.spots[t as usize].feet;
            self.spots[a as usize]
                .feet
                .distance(p)
                .total_cmp(&self.spots[b as usize].feet.distance(p))
        })?;
        Some(best.map_or((t, from), |(_, t, j)| (t, j)))
    }
}
