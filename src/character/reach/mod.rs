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

mod edges;
mod explain;
pub(crate) mod graph;
mod memo;
pub(crate) mod par;
mod regions;
mod regraph;
mod spots;
mod view;
pub(crate) mod walk;
pub(super) mod words;

pub use explain::Blocker3;
use spots::{Grid, Rejected, Spot};
pub use view::{ReachGrid, ReachPlace};

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
    /// Where each node is moved on from: a place's own feet (within a skin of where the move landed), a
    /// landing off the places where it landed (`edges::explore`).
    stood: Vec<Vec3>,
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
    /// The moves made, kept for [`ReachMap::update`] (empty for a map from [`ReachMap::try_build`]).
    moves: memo::Kept,
}

/// A map's places found, with what the rest of its build needs.
struct Built {
    grid: Grid,
    found: spots::Found,
    threads: usize,
    began: Instant,
}

const NONE: u32 = u32::MAX;

/// The columns a search within `horizontal` across of `feet` looks at: the column holding `feet` (for a point
/// off the grid, the nearest column on its edge) and how many columns either side of it ([`Grid::around`]).
/// `None` for a point not finite or a grid without columns.
fn window(grid: &Grid, feet: Vec3, horizontal: f32) -> Option<(usize, i64)> {
    if !feet.is_finite() {
        return None;
    }
    let centre = grid.column_near(Vec2::new(feet.x, feet.z))?;
    Some((centre, (horizontal / grid.cell).ceil() as i64 + 1))
}

/// Whether `p` lies within `horizontal` across and `vertical` up or down of `feet`: what every column search
/// of the map counts as near.
fn within(p: Vec3, feet: Vec3, horizontal: f32, vertical: f32) -> bool {
    Vec2::new(p.x - feet.x, p.z - feet.z).length() <= horizontal && (p.y - feet.y).abs() <= vertical
}

/// The item nearest `feet` (3D) within `horizontal` across and `vertical` up or down, searched over the
/// columns of its [`window`]: `items(c)` lists column `c`'s items, `at(i)` is item `i`'s feet. On a tie the
/// first found wins. The one nearest-item search of the map: places, landings and the start are all found by
/// it.
fn nearest_item<I: Iterator<Item = u32>>(
    grid: &Grid,
    feet: Vec3,
    horizontal: f32,
    vertical: f32,
    items: impl Fn(usize) -> I,
    at: impl Fn(u32) -> Vec3,
) -> Option<u32> {
    let (centre, r) = window(grid, feet, horizontal)?;
    let mut best: Option<(f32, u32)> = None;
    for c in grid.around(centre, r) {
        for i in items(c) {
            let p = at(i);
            if within(p, feet, horizontal, vertical) {
                let d = p.distance(feet);
                if best.is_none_or(|(b, _)| d < b) {
                    best = Some((d, i));
                }
            }
        }
    }
    best.map(|(_, i)| i)
}

/// The place a search from `feet` starts on: the nearest within 1.5 cells horizontally (and a step, a snap and
/// two skins vertically), unless a body set down there does not stay (`Spot::rests`): then the nearest there
/// where one stays, no higher than that place (the body slides down off it, pushed by a steeper face just
/// above), else at any height; the nearest of any when none stays. No move out of a place where the body
/// does not stay replays, so a search starting there found nothing but its start. [`ReachMap`] and the move
/// graph (`graph.rs`) both start here, so they agree.
fn nearest_start(
    grid: &Grid,
    ctl: &CharacterController,
    spots: &[Spot],
    col_start: &[u32],
    feet: Vec3,
) -> Option<u32> {
    let reach = grid.cell * 1.5;
    let dy = ctl.max_step + ctl.snap_distance + ctl.skin * 2.0;
    let find = |keep: &dyn Fn(&Spot) -> bool| {
        let places =
            |c: usize| (col_start[c]..col_start[c + 1]).filter(|&j| keep(&spots[j as usize]));
        nearest_item(grid, feet, reach, dy, places, |j| spots[j as usize].feet)
    };
    let nearest = find(&|_| true)?;
    let top = spots[nearest as usize].feet.y + ctl.skin;
    if spots[nearest as usize].rests {
        return Some(nearest);
    }
    find(&|s| s.rests && s.feet.y <= top)
        .or_else(|| find(&|s| s.rests))
        .or(Some(nearest))
}

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
        let (grid, threads) = Self::prepare(scene, controller, start_feet, settings)?;
        let found = spots::find_spots(scene, controller, &grid, threads);
        let built = Built {
            grid,
            found,
            threads,
            began,
        };
        Self::finish(scene, *controller, start_feet, built, None)
    }

    /// The checks every build makes first (see [`ReachMap::try_build`]): the grid and the threads to use.
    fn prepare(
        scene: &Scene,
        controller: &CharacterController,
        start_feet: Vec3,
        settings: &ReachSettings,
    ) -> Result<(Grid, usize), ReachError> {
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
        let grid = Self::grid_for(scene, &ctl, start_feet, settings)?;
        let threads = if settings.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            settings.threads
        };
        Ok((grid, threads))
    }

    /// The map over `built`'s places: the start's place, the exploration from it (its moves asked of `memo`
    /// first, when there is one: see `memo.rs`), the unreached regions explained, the counts.
    fn finish(
        scene: &Scene,
        ctl: CharacterController,
        start_feet: Vec3,
        built: Built,
        memo: Option<&memo::Memo>,
    ) -> Result<ReachMap, ReachError> {
        let Built {
            grid,
            found,
            threads,
            began,
        } = built;
        let columns = grid.nx as u64 * grid.nz as u64;
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
            memo: memo.map(|m| m as &dyn edges::MoveMemo),
        };
        let first = edges::Node::on_spot(&map.spots[start as usize], start, 0);
        let (nodes, stood, work) = edges::explore(&places, first, threads);
        map.adopt(start, nodes, stood);
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
    fn adopt(&mut self, start: u32, nodes: Vec<edges::Node>, stood: Vec<Vec3>) {
        self.start = Some(start);
        self.stood = stood;
        for (i, n) in nodes.iter().enumerate() {
            if n.spot != NONE {
                self.parent[n.spot as usize] = i as u32;
            }
        }
        let columns = self.col_start.len().saturating_sub(1);
        let (start_of, order) = graph::grouped(columns, &nodes, |n| n.column);
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

    /// The node nearest `feet` within `horizontal` and `vertical` of it, each node where it is moved on from
    /// (a place's feet, or a landing off the places where it landed): what the move graph's nodes are, so
    /// `reachable` answers as the graph's goal nodes do (`MoveGraph::goal_nodes`). Where the move that reached a
    /// place landed depends on the search's order (the first to land on it): a place 0.24 m from a query
    /// reached by a landing 0.27 m from it answered unreachable, where the navigation map (whose node is the
    /// place) had a path (the sample-levels soak's seed 114).
    fn node_near(&self, feet: Vec3, horizontal: f32, vertical: f32) -> Option<u32> {
        let nodes = |c: usize| {
            self.node_order[self.node_start[c] as usize..self.node_start[c + 1] as usize]
                .iter()
                .copied()
        };
        nearest_item(&self.grid?, feet, horizontal, vertical, nodes, |i| {
            self.stood
                .get(i as usize)
                .copied()
                .unwrap_or(self.nodes[i as usize].feet)
        })
    }

    /// Column `c`'s places (indices into `spots`), from the top down.
    fn in_column(&self, c: usize) -> std::ops::Range<usize> {
        self.col_start[c] as usize..self.col_start[c + 1] as usize
    }

    /// The grid over the mapped box ([`ReachMap::bounds_for`]), or why not: more columns than
    /// `settings.max_columns`.
    fn grid_for(
        scene: &Scene,
        ctl: &CharacterController,
        start: Vec3,
        settings: &ReachSettings,
    ) -> Result<Grid, ReachError> {
        let bounds = Self::bounds_for(scene, ctl, start, settings)?;
        let grid = Grid::over(&bounds, settings.cell, ctl.height);
        let columns = grid.nx as u64 * grid.nz as u64;
        if columns > settings.max_columns as u64 {
            return Err(ReachError::TooLarge {
                columns,
                width: bounds.max.x - bounds.min.x,
                depth: bounds.max.z - bounds.min.z,
                cell: settings.cell,
                limit: settings.max_columns,
            });
        }
        Ok(grid)
    }

    /// The mapped box: the settings' bounds, or the scene's with the start (planes are unbounded: a level of
    /// planes alone maps 20 m around the start).
    fn bounds_for(
        scene: &Scene,
        ctl: &CharacterController,
        start: Vec3,
        settings: &ReachSettings,
    ) -> Result<Aabb, ReachError> {
        let b = match settings.bounds {
            Some(b) => b,
            None => {
                let around = Aabb::from_center_half_extents(start, Vec3::new(20.0, 2.0, 20.0));
                match scene.bounds() {
                    Some(s) => Self::holding(s, start, ctl.radius + 2.0 * ctl.skin + settings.cell),
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

    /// The scene's box `s` grown to hold `start` (and a metre above and below it), but across only where the
    /// start lies more than `edge` outside it. A place of the map may stand up to a radius and a skin past the
    /// box (`fit` pushes a column's body off the faces near it), and a start there is on the map's edge: grown
    /// to hold it, the box moved every column by how far out the start was (9 cm past the gallery's ramp, 0.32 m
    /// past the courtyard's wall), and the reach map disagreed with the navigation map, whose columns stay on
    /// the scene's box, from there.
    fn holding(s: Aabb, start: Vec3, edge: f32) -> Aabb {
        let out = |lo: f32, hi: f32, at: f32| at < lo - edge || at > hi + edge;
        let held = s.union(&Aabb::new(start - Vec3::Y, start + Vec3::Y));
        if out(s.min.x, s.max.x, start.x) || out(s.min.z, s.max.z, start.z) {
            return held;
        }
        // Across as it is; up and down as held.
        Aabb::new(
            Vec3::new(s.min.x, held.min.y, s.min.z),
            Vec3::new(s.max.x, held.max.y, s.max.z),
        )
    }

    /// The place a search from `feet` starts on ([`nearest_start`]).
    fn start_place(&self, feet: Vec3) -> Option<u32> {
        nearest_start(
            &self.grid?,
            &self.controller,
            &self.spots,
            &self.col_start,
            feet,
        )
    }

    /// The place nearest `feet` (3D) within `horizontal` and `vertical` of it, among those `keep` accepts.
    fn nearest(
        &self,
        feet: Vec3,
        horizontal: f32,
        vertical: f32,
        keep: impl Fn(usize) -> bool,
    ) -> Option<u32> {
        let places = |c: usize| self.in_column(c).filter(|&j| keep(j)).map(|j| j as u32);
        nearest_item(&self.grid?, feet, horizontal, vertical, places, |j| {
            self.spots[j as usize].feet
        })
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
    /// start: a landing of a move there, else the place nearest `feet` is reached.
    ///
    /// The nearest place answers, not only the landings: a move aimed at a place on a slope lands a little off
    /// it (its column's landing may lie a cell away), so a point within a cell of a reached place can be
    /// farther than that from every landing. It can be stood on, so it must be reached or blocked; asking the
    /// nearest place makes it one or the other, as that place is, and a place itself answers as it is marked.
    #[must_use]
    pub fn reachable(&self, feet: Vec3) -> bool {
        self.reached_node(feet, self.cell()).is_some()
    }

    /// The landing a query at `feet` is reached through: the landing nearest `feet` within `horizontal` and
    /// `max_step`, else, when the place nearest `feet` within one cell and `max_step` is reached, the landing
    /// that reached it.
    fn reached_node(&self, feet: Vec3, horizontal: f32) -> Option<u32> {
        self.node_near(feet, horizontal, self.controller.max_step)
            .or_else(|| {
                let j = self.spot_near(feet, |_| true)?;
                let node = self.parent[j as usize];
                (node != NONE).then_some(node)
            })
    }

    /// Feet positions from the start to the reached place nearest `to` (a landing within `cell·√2`
    /// horizontally and `max_step` vertically, else the landing that reached the place within a cell of `to`),
    /// each where one `move_character(scene, prev, next - prev + (0, -max_step, 0))` from the one before lands
    /// within a skin and a millimetre: each place reached is where its move landed, then (where that is not
    /// exactly on it) the place's own feet, which the search moves on from. `None` when no place near `to` is
    /// reached ([`ReachMap::reachable`] is false).
    #[must_use]
    pub fn path(&self, to: Vec3) -> Option<Vec<Vec3>> {
        let mut at = self.reached_node(to, self.cell() * std::f32::consts::SQRT_2)?;
        // Each node where its move landed, then (when elsewhere) the place's feet it moves on from.
        let mut out = Vec::new();
        loop {
            let node = self.nodes.get(at as usize)?;
            if let Some(&stood) = self.stood.get(at as usize)
                && stood != node.feet
            {
                out.push(stood);
            }
            out.push(node.feet);
            if at == 0 {
                break;
            }
            at = node.parent;
            if out.len() > 2 * self.nodes.len() {
                return None;
            }
        }
        out.reverse();
        Some(out)
    }

    /// For a place that can be stood on but is not reached (within one cell of `to` and `max_step`), the limit
    /// that keeps it out (its region's, for the place nearest `to`); `None` for reached places and where nothing
    /// can be stood on. Every point that can be stood on is [`ReachMap::reachable`] or has a blocker, never both.
    #[must_use]
    pub fn blocker(&self, to: Vec3) -> Option<Blocker3> {
        if self.reachable(to) {
            return None;
        }
        // Not reachable: the place nearest `to` is not reached, and its region says why.
        let j = self.spot_near(to, |_| true)?;
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
    /// from the bottom up (the lowest is on floor 0, the next above it on floor 1, …, as
    /// [`ReachMap::column`] lists them), so a deck over the ground is a floor of its own and the ramp between
    /// them belongs to the ground's.
    #[must_use]
    pub fn floors(&self) -> Vec<FloorArea> {
        let area = self.cell() * self.cell();
        let mut out: Vec<FloorArea> = Vec::new();
        for (_, places) in self.columns() {
            for (level, p) in places.into_iter().enumerate() {
                if out.len() <= level {
                    out.push(FloorArea {
                        heights: (f32::INFINITY, f32::NEG_INFINITY),
                        standable: 0.0,
                        reachable: 0.0,
                    });
                }
                let f = &mut out[level];
                f.heights = (f.heights.0.min(p.ground), f.heights.1.max(p.ground));
                f.standable += area;
                if p.reached {
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
