//! Reachability: where the character can stand, and which of those places it can walk to from a start with
//! horizontal moves plus gravity (no jumps), decided by the controller's own steps, slopes and snapping; for
//! every place it cannot reach, the limit that keeps it out; paths a game can replay with `move_character`.
//!
//! Built in three parts: the places (`spots.rs`: every supporting surface under each column of a grid, floors
//! over one another included, where the body fits), the moves between neighbouring places (`edges.rs`, on all
//! cores), then a breadth-first search from the start and, for each unreachable region, the limit met walking
//! toward it from the nearest reached place (`explain.rs`).

use std::time::Instant;

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use super::CharacterController;
use crate::scene::Scene;
use crate::shape::Aabb;

#[cfg(test)]
mod debug_hole;
mod edges;
mod explain;
mod spots;

pub use explain::Blocker3;
use spots::{ColumnOut, Grid, Rejected, Rejection, Spot};

/// How a reachability map is built.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ReachSettings {
    /// The grid's cell, metres (0.25).
    pub cell: f32,
    /// The part of the level mapped (`None`: the scene's bounds, with the start).
    pub bounds: Option<Aabb>,
    /// The most grid columns a map may have (4,000,000: 500 m by 500 m at 0.25 m); more is refused with the
    /// sizes, so memory stays bounded whatever the level.
    pub max_columns: usize,
    /// Threads for the moves between places (0: every core).
    pub threads: usize,
}

impl Default for ReachSettings {
    fn default() -> Self {
        Self {
            cell: 0.25,
            bounds: None,
            max_columns: 4_000_000,
            threads: 0,
        }
    }
}

/// Why a map could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum ReachError {
    /// The settings or the controller are unusable.
    #[error("{0}")]
    Settings(String),
    /// The start is not a place to stand.
    #[error("{0}")]
    Start(String),
    /// The grid would be too large.
    #[error(
        "the map would have {columns} columns ({width:.0} m by {depth:.0} m at {cell} m cells), more than the \
         limit of {limit}: give smaller bounds or a larger cell"
    )]
    TooLarge {
        /// Columns needed.
        columns: u64,
        /// Width (x), metres.
        width: f32,
        /// Depth (z), metres.
        depth: f32,
        /// The cell asked for.
        cell: f32,
        /// The limit.
        limit: usize,
    },
}

/// A region of places that can be stood on but not reached, with what keeps it out.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnreachablePlace {
    /// The region's place nearest to what is reached.
    pub feet: Vec3,
    /// Its area, square metres (places times the cell's area).
    pub area: f32,
    /// The limit met walking to it from the nearest reached place.
    pub blocker: Blocker3,
}

/// The places of one floor: a band of heights.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FloorArea {
    /// The lowest and highest ground in the band, metres.
    pub heights: (f32, f32),
    /// Area that can be stood on, square metres.
    pub standable: f32,
    /// Of that, the area reached from the start.
    pub reachable: f32,
}

/// The work a build did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReachStats {
    /// Grid columns.
    pub columns: u64,
    /// Places to stand found.
    pub places: u64,
    /// Of them, reached.
    pub reached: u64,
    /// Edges between places.
    pub edges: u64,
    /// Single sweeps between level places.
    pub sweeps: u64,
    /// Whole moves of the controller (edges and explanations).
    pub moves: u64,
    /// Seconds the build took.
    pub seconds: f64,
}

/// Where a character can stand and where it can go (see the module).
#[derive(Clone, Debug, Default)]
pub struct ReachMap {
    grid: Option<Grid>,
    controller: CharacterController,
    spots: Vec<Spot>,
    col_start: Vec<u32>,
    /// For each place, the node that landed on it, or the landing within a cell of it (`u32::MAX`: not
    /// reached).
    parent: Vec<u32>,
    /// Every place reached, where a move landed, with the node it was reached from.
    nodes: Vec<edges::Node>,
    /// `nodes` by column: `node_order[node_start[c]..node_start[c + 1]]`.
    node_order: Vec<u32>,
    node_start: Vec<u32>,
    start: Option<u32>,
    /// For each place not reached, its region (an index into `places`).
    region: Vec<u32>,
    /// Surfaces that are no place to stand for a reason a way could meet, by column
    /// (`rejected[rej_start[c]..rej_start[c + 1]]`).
    rejected: Vec<Rejected>,
    rej_start: Vec<u32>,
    /// Columns with no surface at all within the bounds (pits).
    empty: Vec<bool>,
    places: Vec<UnreachablePlace>,
    stats: ReachStats,
    error: Option<ReachError>,
}

const NONE: u32 = u32::MAX;

impl ReachMap {
    /// Map where the character `controller` can stand and go from `start_feet` in `scene`. Never fails: a map
    /// that could not be built is empty and says why in [`ReachMap::error`] (see [`ReachMap::try_build`]).
    #[must_use]
    pub fn build(
        scene: &Scene,
        controller: &CharacterController,
        start_feet: Vec3,
        settings: &ReachSettings,
    ) -> ReachMap {
        Self::try_build(scene, controller, start_feet, settings).unwrap_or_else(|e| ReachMap {
            controller: *controller,
            error: Some(e),
            ..ReachMap::default()
        })
    }

    /// [`ReachMap::build`], with the reason when it cannot be built: an invalid controller, a cell of 0 or NaN,
    /// bounds that are not finite, a grid past `max_columns`, or a start with nowhere to stand within 1.5
    /// cells (in the air, inside a wall).
    pub fn try_build(
        scene: &Scene,
        controller: &CharacterController,
        start_feet: Vec3,
        settings: &ReachSettings,
    ) -> Result<ReachMap, ReachError> {
        let began = Instant::now();
        let ctl = *controller;
        if let Some((field, message)) = ctl.problems().into_iter().next() {
            return Err(ReachError::Settings(format!("character {field} {message}")));
        }
        let cell = settings.cell;
        if !(cell.is_finite() && cell >= 0.01) {
            return Err(ReachError::Settings(format!(
                "the cell must be at least 0.01 m (is {cell})"
            )));
        }
        if !start_feet.is_finite() {
            return Err(ReachError::Start("the start is not a finite point".into()));
        }
        let bounds = Self::bounds_for(scene, start_feet, settings)?;
        let grid = Grid::over(&bounds, cell, ctl.height);
        let columns = grid.nx as u64 * grid.nz as u64;
        if columns > settings.max_columns as u64 {
            return Err(ReachError::TooLarge {
                columns,
                width: bounds.max.x - bounds.min.x,
                depth: bounds.max.z - bounds.min.z,
                cell,
                limit: settings.max_columns,
            });
        }
        let threads = if settings.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            settings.threads
        };
        let found = find_spots(scene, &ctl, &grid, threads);
        let mut map = ReachMap {
            grid: Some(grid),
            controller: ctl,
            parent: vec![NONE; found.spots.len()],
            region: vec![NONE; found.spots.len()],
            spots: found.spots,
            col_start: found.col_start,
            rejected: found.rejected,
            rej_start: found.rej_start,
            empty: found.empty,
            ..ReachMap::default()
        };
        let start = map.start_place(start_feet).ok_or_else(|| {
            ReachError::Start(format!(
                "nowhere to stand within 1.5 cells of the start ({:.2}, {:.2}, {:.2}): it is in the air, inside \
                 something, or on a surface steeper than {}°",
                start_feet.x, start_feet.y, start_feet.z, ctl.max_slope_deg
            ))
        })?;
        let places = edges::Places {
            scene,
            ctl: &ctl,
            grid: &grid,
            spots: &map.spots,
            col_start: &map.col_start,
        };
        let s = &map.spots[start as usize];
        let first = edges::Node {
            feet: s.feet,
            column: s.column,
            spot: start,
            parent: 0,
            level: s.normal == Vec3::Y,
        };
        let (nodes, work) = edges::explore(&places, first, threads);
        map.adopt(start, nodes);
        let moves = map.explain(scene, threads);
        map.stats = ReachStats {
            columns,
            places: map.spots.len() as u64,
            reached: map.parent.iter().filter(|&&p| p != NONE).count() as u64,
            edges: map.nodes.len().saturating_sub(1) as u64,
            sweeps: work.sweeps,
            moves: work.moves + moves,
            seconds: began.elapsed().as_secs_f64(),
        };
        Ok(map)
    }

    /// Keep the exploration's nodes: mark the places they landed on, index them by column.
    fn adopt(&mut self, start: u32, nodes: Vec<edges::Node>) {
        self.start = Some(start);
        for (i, n) in nodes.iter().enumerate() {
            if n.spot != NONE {
                self.parent[n.spot as usize] = i as u32;
            }
        }
        let columns = self.col_start.len().saturating_sub(1);
        let mut start_of = vec![0u32; columns + 1];
        for n in &nodes {
            start_of[n.column as usize + 1] += 1;
        }
        for c in 0..columns {
            start_of[c + 1] += start_of[c];
        }
        let mut fill = start_of.clone();
        let mut order = vec![0u32; nodes.len()];
        for (i, n) in nodes.iter().enumerate() {
            order[fill[n.column as usize] as usize] = i as u32;
            fill[n.column as usize] += 1;
        }
        self.nodes = nodes;
        self.node_order = order;
        self.node_start = start_of;
        // A place no move landed on but within a cell and a step of a landing is reached, as `reachable` says
        // of any point there: a place nudged toward a wall can lie just behind the landing in the column next
        // to it, off every move's way out of it, and two places that close have nothing between them (each
        // keeps the body's radius from everything). Without this, strips along walls were listed as unreachable
        // places, with a made-up blocker.
        let (cell, step) = (self.cell(), self.controller.max_step);
        for j in 0..self.spots.len() {
            if self.parent[j] == NONE
                && let Some(i) = self.node_near(self.spots[j].feet, cell, step)
            {
                self.parent[j] = i;
            }
        }
    }

    /// The node nearest `feet` within `horizontal` and `vertical` of it.
    fn node_near(&self, feet: Vec3, horizontal: f32, vertical: f32) -> Option<u32> {
        let grid = self.grid?;
        if !feet.is_finite() || self.nodes.is_empty() {
            return None;
        }
        let r = (horizontal / grid.cell).ceil() as i64 + 1;
        let centre = grid.column_at(Vec2::new(feet.x, feet.z)).or_else(|| {
            let top = grid.min + Vec2::new(grid.nx as f32, grid.nz as f32) * grid.cell - 1e-3;
            grid.column_at(Vec2::new(feet.x, feet.z).clamp(grid.min, top))
        })?;
        let mut best: Option<(f32, u32)> = None;
        for dk in -r..=r {
            for di in -r..=r {
                let Some(c) = grid.neighbour(centre, di, dk) else {
                    continue;
                };
                for &i in
                    &self.node_order[self.node_start[c] as usize..self.node_start[c + 1] as usize]
                {
                    let n = &self.nodes[i as usize];
                    let flat = Vec2::new(n.feet.x - feet.x, n.feet.z - feet.z).length();
                    if flat <= horizontal && (n.feet.y - feet.y).abs() <= vertical {
                        let d = n.feet.distance(feet);
                        if best.is_none_or(|(b, _)| d < b) {
                            best = Some((d, i));
                        }
                    }
                }
            }
        }
        best.map(|(_, i)| i)
    }

    /// The mapped box: the settings' bounds, or the scene's with the start (planes are unbounded: a level of
    /// planes alone maps 20 m around the start).
    fn bounds_for(
        scene: &Scene,
        start: Vec3,
        settings: &ReachSettings,
    ) -> Result<Aabb, ReachError> {
        let b = match settings.bounds {
            Some(b) => b,
            None => {
                let around = Aabb::from_center_half_extents(start, Vec3::new(20.0, 2.0, 20.0));
                match scene.bounds() {
                    Some(s) => Aabb::new(s.min.min(start - Vec3::Y), s.max.max(start + Vec3::Y)),
                    None => around,
                }
            }
        };
        if !(b.is_valid() && b.min.x < b.max.x && b.min.z < b.max.z) {
            return Err(ReachError::Settings(format!(
                "the bounds must be finite with some width and depth (are {:?} to {:?})",
                b.min, b.max
            )));
        }
        Ok(b)
    }

    /// The place nearest the start within 1.5 cells horizontally (and a step and a snap vertically).
    fn start_place(&self, feet: Vec3) -> Option<u32> {
        let grid = self.grid?;
        let reach = grid.cell * 1.5;
        let dy =
            self.controller.max_step + self.controller.snap_distance + self.controller.skin * 2.0;
        self.nearest(feet, reach, dy, |_| true)
    }

    /// The place nearest `feet` (3D) within `horizontal` and `vertical` of it, among those `keep` accepts.
    fn nearest(
        &self,
        feet: Vec3,
        horizontal: f32,
        vertical: f32,
        keep: impl Fn(usize) -> bool,
    ) -> Option<u32> {
        let grid = self.grid?;
        let r = (horizontal / grid.cell).ceil() as i64 + 1;
        let centre = grid.column_at(Vec2::new(feet.x, feet.z)).or_else(|| {
            // Outside the grid: the nearest column on its edge.
            let p = Vec2::new(feet.x, feet.z).clamp(
                grid.min,
                grid.min + Vec2::new(grid.nx as f32, grid.nz as f32) * grid.cell - 1e-3,
            );
            grid.column_at(p)
        })?;
        let mut best: Option<(f32, u32)> = None;
        for dk in -r..=r {
            for di in -r..=r {
                let Some(c) = grid.neighbour(centre, di, dk) else {
                    continue;
                };
                for j in self.col_start[c] as usize..self.col_start[c + 1] as usize {
                    let s = &self.spots[j];
                    let flat = Vec2::new(s.feet.x - feet.x, s.feet.z - feet.z).length();
                    if flat <= horizontal && (s.feet.y - feet.y).abs() <= vertical && keep(j) {
                        let d = s.feet.distance(feet);
                        if best.is_none_or(|(b, _)| d < b) {
                            best = Some((d, j as u32));
                        }
                    }
                }
            }
        }
        best.map(|(_, j)| j)
    }

    /// Group the unreached places into regions (places in neighbouring columns within a body's height) and
    /// explain each: the limit on its border nearest to passable, or the one met walking to it from the nearest
    /// reached place. Answers the controller moves it made.
    fn explain(&mut self, scene: &Scene, threads: usize) -> u64 {
        let Some(grid) = self.grid else { return 0 };
        let n = self.spots.len();
        let mut root: Vec<u32> = (0..n as u32).collect();
        fn find(root: &mut [u32], mut x: u32) -> u32 {
            while root[x as usize] != x {
                root[x as usize] = root[root[x as usize] as usize];
                x = root[x as usize];
            }
            x
        }
        // Unreached places within a body's height of each other in neighbouring columns are one region: the
        // treads of a flight too steep to climb are one place out of reach, with one limit (its first riser).
        // Places are nudged up to a cell from their column's centre, so the places of two treads can be two
        // columns apart: places two columns apart are one region too when they are closer than two cells (and
        // than the body's width, so never across a wall: places on either side of one are farther apart).
        let step = self.controller.height;
        let join = (2.0 * grid.cell).min(2.0 * self.controller.radius);
        for a in 0..n {
            if self.parent[a] != NONE {
                continue;
            }
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
                    for b in self.col_start[c] as usize..self.col_start[c + 1] as usize {
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
        let mut members: std::collections::BTreeMap<u32, Vec<u32>> =
            std::collections::BTreeMap::new();
        for i in 0..n as u32 {
            if self.parent[i as usize] == NONE {
                members.entry(find(&mut root, i)).or_default().push(i);
            }
        }
        // For each region, its place nearest a reached place, and that reached place.
        let reached: Vec<u32> = (0..n as u32)
            .filter(|&i| self.parent[i as usize] != NONE)
            .collect();
        let jobs: Vec<(Vec<u32>, u32, u32)> = members
            .into_values()
            .filter_map(|m| {
                let (target, from) = self.closest_pair(&m, &reached, &grid)?;
                Some((m, target, from))
            })
            .collect();
        let walk = explain::Walk {
            scene,
            ctl: &self.controller,
            top: grid.top,
        };
        let this = &*self;
        let threads = threads.clamp(1, 64).min(jobs.len().max(1));
        let blockers: Vec<(Blocker3, u64)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let (jobs, walk) = (&jobs, &walk);
                    s.spawn(move || {
                        jobs.iter()
                            .enumerate()
                            .filter(|(k, _)| k % threads == t)
                            .map(|(k, (members, target, from))| {
                                if let Some(b) = this.boundary_blocker(members, &grid) {
                                    return (k, (b, 0));
                                }
                                let (a, b) =
                                    (&this.spots[*from as usize], &this.spots[*target as usize]);
                                (
                                    k,
                                    walk.blocker(a.feet, a.ground, b.feet, b.ground, grid.cell),
                                )
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            let mut all: Vec<(usize, (Blocker3, u64))> = handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect();
            all.sort_by_key(|(k, _)| *k);
            all.into_iter().map(|(_, b)| b).collect()
        });
        let cell_area = grid.cell * grid.cell;
        let mut moves = 0;
        for ((m, target, _), (blocker, walked)) in jobs.iter().zip(blockers) {
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
                    for j in self.col_start[c] as usize..self.col_start[c + 1] as usize {
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
                    (self.col_start[c] as usize..self.col_start[c + 1] as usize).any(|j| {
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
                for dk in -ring..=ring {
                    for di in -ring..=ring {
                        if di.abs() != ring && dk.abs() != ring {
                            continue;
                        }
                        let Some(c) = grid.neighbour(s.column as usize, di, dk) else {
                            continue;
                        };
                        for j in self.col_start[c] as usize..self.col_start[c + 1] as usize {
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

    /// Why the map is empty, if it could not be built.
    #[must_use]
    pub fn error(&self) -> Option<&ReachError> {
        self.error.as_ref()
    }

    /// The controller the map was built for.
    #[must_use]
    pub fn controller(&self) -> &CharacterController {
        &self.controller
    }

    /// The grid's cell, metres (0 for a map that could not be built).
    #[must_use]
    pub fn cell(&self) -> f32 {
        self.grid.map_or(0.0, |g| g.cell)
    }

    /// What the build did and how long it took.
    #[must_use]
    pub fn stats(&self) -> &ReachStats {
        &self.stats
    }

    /// The place within one cell of `feet` horizontally and `max_step` vertically, nearest it, among those
    /// `keep` accepts.
    fn spot_near(&self, feet: Vec3, keep: impl Fn(usize) -> bool) -> Option<u32> {
        if !feet.is_finite() {
            return None;
        }
        self.nearest(feet, self.cell(), self.controller.max_step, keep)
    }

    /// Whether the character can stand within one cell of `feet` horizontally and `max_step` vertically: a
    /// place the scan found there, or a reached one (a move that landed where the scan under the columns'
    /// centres found no place, on the edge of a sloped triangle say, stood there). Whatever is reachable can be
    /// stood on.
    #[must_use]
    pub fn can_stand(&self, feet: Vec3) -> bool {
        self.spot_near(feet, |_| true).is_some() || self.reachable(feet)
    }

    /// Whether a place within one cell of `feet` horizontally and `max_step` vertically is reached from the
    /// start: a place to stand that is reached, or a landing of a move (where the scan found no place).
    ///
    /// Asked of the places themselves, not only of the landings: a move aimed at a place on a slope lands a
    /// little off it (its column's own landing may lie a cell away), so a point within a cell of a reached place
    /// can be farther than that from every landing; it can be stood on there, so it must be reached or blocked,
    /// and what keeps it from being reached is nothing.
    #[must_use]
    pub fn reachable(&self, feet: Vec3) -> bool {
        self.reached_node(feet, self.cell()).is_some()
    }

    /// The landing a query at `feet` is reached through: the landing nearest `feet` within `horizontal` and
    /// `max_step`, else the one that reached the nearest reached place within one cell and `max_step`.
    fn reached_node(&self, feet: Vec3, horizontal: f32) -> Option<u32> {
        self.node_near(feet, horizontal, self.controller.max_step)
            .or_else(|| {
                let j = self.spot_near(feet, |j| self.parent[j] != NONE)?;
                Some(self.parent[j as usize])
            })
    }

    /// Feet positions from the start to the reached place nearest `to` (a landing within `cell·√2`
    /// horizontally and `max_step` vertically, else the landing that reached the place within a cell of `to`),
    /// each where one `move_character(scene, prev, next - prev + (0, -max_step, 0))` from the one before lands
    /// (every place reached is such a landing, so the path replays within a skin). `None` when no place near
    /// `to` is reached ([`ReachMap::reachable`] is false).
    #[must_use]
    pub fn path(&self, to: Vec3) -> Option<Vec<Vec3>> {
        let mut at = self.reached_node(to, self.cell() * std::f32::consts::SQRT_2)?;
        let mut out = vec![self.nodes[at as usize].feet];
        while at != 0 {
            at = self.nodes[at as usize].parent;
            out.push(self.nodes[at as usize].feet);
            if out.len() > self.nodes.len() {
                return None;
            }
        }
        out.reverse();
        Some(out)
    }

    /// For a place that can be stood on but is not reached (within one cell of `to` and `max_step`), the limit
    /// that keeps it out; `None` for reached places and where nothing can be stood on.
    #[must_use]
    pub fn blocker(&self, to: Vec3) -> Option<Blocker3> {
        if self.reachable(to) {
            return None;
        }
        let j = self.spot_near(to, |j| self.parent[j] == NONE)?;
        let r = self.region[j as usize];
        self.places.get(r as usize).map(|p| p.blocker)
    }

    /// Every region that can be stood on but is not reached, with its blocker.
    #[must_use]
    pub fn unreachable_places(&self) -> &[UnreachablePlace] {
        &self.places
    }

    /// Every place to stand: its feet and whether it is reached.
    pub fn places(&self) -> impl Iterator<Item = (Vec3, bool)> + '_ {
        self.spots
            .iter()
            .zip(&self.parent)
            .map(|(s, &p)| (s.feet, p != NONE))
    }

    /// The start's place (its feet), when the map was built.
    #[must_use]
    pub fn start(&self) -> Option<Vec3> {
        self.start.map(|s| self.spots[s as usize].feet)
    }

    /// Every place reached, where its move landed (the points paths are made of).
    pub fn reached_places(&self) -> impl Iterator<Item = Vec3> + '_ {
        self.nodes.iter().map(|n| n.feet)
    }

    /// The places grouped into floors, lowest first, with their areas: in each column the places are layered
    /// from the bottom up (the lowest is on floor 0, the next above it on floor 1, …), so a deck over the ground
    /// is a floor of its own and the ramp between them belongs to the ground's.
    #[must_use]
    pub fn floors(&self) -> Vec<FloorArea> {
        let area = self.cell() * self.cell();
        let mut out: Vec<FloorArea> = Vec::new();
        for c in 0..self.col_start.len().saturating_sub(1) {
            let range = self.col_start[c] as usize..self.col_start[c + 1] as usize;
            let mut layer: Vec<usize> = range.collect();
            layer.sort_by(|&a, &b| self.spots[a].ground.total_cmp(&self.spots[b].ground));
            for (level, i) in layer.into_iter().enumerate() {
                if out.len() <= level {
                    out.push(FloorArea {
                        heights: (f32::INFINITY, f32::NEG_INFINITY),
                        standable: 0.0,
                        reachable: 0.0,
                    });
                }
                let f = &mut out[level];
                let g = self.spots[i].ground;
                f.heights = (f.heights.0.min(g), f.heights.1.max(g));
                f.standable += area;
                if self.parent[i] != NONE {
                    f.reachable += area;
                }
            }
        }
        out
    }

    /// The mapped area's corner and size on the floor plane, `(x, z)` min and max, and the grid's columns.
    #[must_use]
    pub fn extent(&self) -> Option<(Vec2, Vec2, usize, usize)> {
        let g = self.grid?;
        Some((
            g.min,
            g.min + Vec2::new(g.nx as f32, g.nz as f32) * g.cell,
            g.nx,
            g.nz,
        ))
    }
}

/// Every column's places and rejected surfaces, in column order, with each column's ranges.
struct Found {
    spots: Vec<Spot>,
    col_start: Vec<u32>,
    rejected: Vec<Rejected>,
    rej_start: Vec<u32>,
    empty: Vec<bool>,
}

/// One thread's columns: what they hold, each one's counts of places and rejected surfaces, which are pits.
type Part = (ColumnOut, Vec<(u32, u32)>, Vec<bool>);

/// Every place, column by column (on `threads` threads, each a contiguous run of columns).
fn find_spots(scene: &Scene, ctl: &CharacterController, grid: &Grid, threads: usize) -> Found {
    let n = grid.columns();
    let threads = threads.clamp(1, 64).min(n.max(1));
    let chunk = n.div_ceil(threads);
    let parts: Vec<Part> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut out = ColumnOut::default();
                    let mut counts = Vec::with_capacity(chunk);
                    let mut empty = Vec::with_capacity(chunk);
                    let mut scratch = Vec::new();
                    for c in t * chunk..((t + 1) * chunk).min(n) {
                        let (before, rej) = (out.spots.len(), out.rejected.len());
                        spots::column_spots(scene, ctl, grid, c, &mut scratch, &mut out);
                        counts.push((
                            (out.spots.len() - before) as u32,
                            (out.rejected.len() - rej) as u32,
                        ));
                        empty.push(out.empty);
                    }
                    (out, counts, empty)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut found = Found {
        spots: Vec::new(),
        col_start: vec![0],
        rejected: Vec::new(),
        rej_start: vec![0],
        empty: Vec::with_capacity(n),
    };
    for (out, counts, empty) in parts {
        found.spots.extend(out.spots);
        found.rejected.extend(out.rejected);
        found.empty.extend(empty);
        for (spots, rejected) in counts {
            let (a, b) = (
                *found.col_start.last().unwrap_or(&0),
                *found.rej_start.last().unwrap_or(&0),
            );
            found.col_start.push(a + spots);
            found.rej_start.push(b + rejected);
        }
    }
    found
}
