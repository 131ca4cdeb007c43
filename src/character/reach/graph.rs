//! The whole move graph: every place to stand (the same scan as a map's, `spots.rs`) and every move the
//! breadth-first search (`edges.rs`) could make out of each of them, from any start, not only the places one
//! start reaches. Navigation (`crate::nav`) searches it for paths between any two points; reachability in it is
//! what [`ReachMap`] finds from a start, because its nodes are the map's places and its edges the map's moves
//! (made with `every`: each landing a node's search could keep, whatever was reached before it).
//!
//! A landing where the scan found no place (the edge of a sloped triangle, say) is a node of its own, found
//! and expanded in later rounds, as the search finds it.

use std::collections::HashMap;

use glam::{Vec2, Vec3};

use super::super::CharacterController;
use super::edges::{EdgeWork, Key, Node, Places};
use super::spots::{Grid, Spot, find_spots};
use super::{ReachError, ReachMap, ReachSettings, nearest_item};
use crate::scene::Scene;
use crate::shape::Aabb;

/// Every place to stand for one controller, and the controller's moves between them.
#[derive(Clone, Debug)]
pub(crate) struct MoveGraph {
    grid: Grid,
    ctl: CharacterController,
    spots: Vec<Spot>,
    col_start: Vec<u32>,
    /// Node `j < spots.len()` is place `j`; the rest are landings where the scan found no place.
    nodes: Vec<Node>,
    /// The landings beyond the places, by column: `loose[loose_start[c]..loose_start[c + 1]]`.
    loose: Vec<u32>,
    loose_start: Vec<u32>,
    /// Node `n`'s moves land on `edges[edge_start[n]..edge_start[n + 1]]`.
    edge_start: Vec<u32>,
    edges: Vec<u32>,
    work: EdgeWork,
}

/// The moves found out of a run of nodes: `(from, landing, key)`.
type Found = Vec<(u32, Node, Key)>;

impl MoveGraph {
    /// The graph of `ctl`'s places and moves over `bounds` (the settings' cell, column limit and threads). The
    /// errors are [`ReachMap::try_build`]'s: an invalid controller or cell, bounds without area, too many
    /// columns.
    pub(crate) fn build(
        scene: &Scene,
        ctl: &CharacterController,
        bounds: Aabb,
        settings: &ReachSettings,
    ) -> Result<MoveGraph, ReachError> {
        if let Some((field, message)) = ctl.problems().into_iter().next() {
            return Err(ReachError::Settings(format!("character {field} {message}")));
        }
        let cell = settings.cell;
        if !(cell.is_finite() && cell >= 0.01) {
            return Err(ReachError::Settings(format!(
                "the cell must be at least 0.01 m (is {cell})"
            )));
        }
        let with_bounds = ReachSettings {
            bounds: Some(bounds),
            ..*settings
        };
        let grid = ReachMap::grid_for(scene, ctl, bounds.center(), &with_bounds)?;
        let threads = if settings.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            settings.threads
        }
        .clamp(1, 64);
        let found = find_spots(scene, ctl, &grid, threads);
        let nodes: Vec<Node> = found
            .spots
            .iter()
            .enumerate()
            .map(|(j, s)| Node {
                feet: s.feet,
                column: s.column,
                spot: j as u32,
                parent: j as u32,
                level: s.normal == Vec3::Y,
            })
            .collect();
        let mut graph = MoveGraph {
            grid,
            ctl: *ctl,
            spots: found.spots,
            col_start: found.col_start,
            nodes,
            loose: Vec::new(),
            loose_start: Vec::new(),
            edge_start: Vec::new(),
            edges: Vec::new(),
            work: EdgeWork::default(),
        };
        graph.connect(scene, threads);
        Ok(graph)
    }

    /// Expand every node (the landings found on the way too, round by round) and keep the moves.
    fn connect(&mut self, scene: &Scene, threads: usize) {
        let mut loose_keys: HashMap<Key, u32> = HashMap::new();
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        let mut todo: Vec<u32> = (0..self.nodes.len() as u32).collect();
        let empty = HashMap::new();
        while !todo.is_empty() {
            let places = Places {
                scene,
                ctl: &self.ctl,
                grid: &self.grid,
                spots: &self.spots,
                col_start: &self.col_start,
            };
            let nodes = &self.nodes;
            let threads = threads.min(todo.len().div_ceil(256)).max(1);
            let chunk = todo.len().div_ceil(threads);
            let parts: Vec<(Found, EdgeWork)> = super::par::on_threads(threads, |t| {
                let mut out = Vec::new();
                let mut work = EdgeWork::default();
                let end = ((t + 1) * chunk).min(todo.len());
                for &n in &todo[(t * chunk).min(end)..end] {
                    places.expand(n, &nodes[n as usize], &empty, true, &mut out, &mut work);
                }
                (out, work)
            });
            let mut next = Vec::new();
            for (found, work) in parts {
                self.work.sweeps += work.sweeps;
                self.work.moves += work.moves;
                for (from, node, key) in found {
                    let to = match key {
                        Key::Spot(j) => j,
                        Key::Loose(..) => *loose_keys.entry(key).or_insert_with(|| {
                            let index = self.nodes.len() as u32;
                            self.nodes.push(Node {
                                parent: index,
                                ..node
                            });
                            next.push(index);
                            index
                        }),
                    };
                    if to != from {
                        pairs.push((from, to));
                    }
                }
            }
            todo = next;
        }
        pairs.sort_unstable();
        pairs.dedup();
        let n = self.nodes.len();
        self.edge_start = vec![0; n + 1];
        for &(from, _) in &pairs {
            self.edge_start[from as usize + 1] += 1;
        }
        for i in 0..n {
            self.edge_start[i + 1] += self.edge_start[i];
        }
        self.edges = pairs.into_iter().map(|(_, to)| to).collect();
        self.index_loose();
    }

    /// The landings beyond the places, by column.
    fn index_loose(&mut self) {
        let columns = self.grid.columns();
        let first = self.spots.len();
        let mut start = vec![0u32; columns + 1];
        for node in &self.nodes[first..] {
            start[node.column as usize + 1] += 1;
        }
        for c in 0..columns {
            start[c + 1] += start[c];
        }
        let mut fill = start.clone();
        let mut loose = vec![0u32; self.nodes.len() - first];
        for (i, node) in self.nodes.iter().enumerate().skip(first) {
            loose[fill[node.column as usize] as usize] = i as u32;
            fill[node.column as usize] += 1;
        }
        self.loose = loose;
        self.loose_start = start;
    }

    /// The controller the graph is for.
    pub(crate) fn controller(&self) -> &CharacterController {
        &self.ctl
    }

    /// The grid's cell, metres.
    pub(crate) fn cell(&self) -> f32 {
        self.grid.cell
    }

    /// Number of nodes (places, then landings off them).
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Number of moves.
    pub(crate) fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// Node `n`'s feet.
    pub(crate) fn feet(&self, n: u32) -> Vec3 {
        self.nodes[n as usize].feet
    }

    /// Where node `n`'s moves land.
    pub(crate) fn moves(&self, n: u32) -> &[u32] {
        &self.edges[self.edge_start[n as usize] as usize..self.edge_start[n as usize + 1] as usize]
    }

    /// Every node in column `c`: its places, then its landings.
    fn in_column(&self, c: usize) -> impl Iterator<Item = u32> + '_ {
        let spots = self.col_start[c]..self.col_start[c + 1];
        let loose = &self.loose[self.loose_start[c] as usize..self.loose_start[c + 1] as usize];
        spots.chain(loose.iter().copied())
    }

    /// The node nearest `feet` within `horizontal` and `vertical` of it (any node).
    pub(crate) fn node_near(&self, feet: Vec3, horizontal: f32, vertical: f32) -> Option<u32> {
        nearest_item(
            &self.grid,
            feet,
            horizontal,
            vertical,
            |c| self.in_column(c),
            |n| self.feet(n),
        )
    }

    /// Every node within `horizontal` and `vertical` of `feet`.
    pub(crate) fn nodes_near(&self, feet: Vec3, horizontal: f32, vertical: f32) -> Vec<u32> {
        let mut out = Vec::new();
        if !feet.is_finite() {
            return out;
        }
        let Some(centre) = self.grid.column_near(Vec2::new(feet.x, feet.z)) else {
            return out;
        };
        let r = (horizontal / self.grid.cell).ceil() as i64 + 1;
        for c in self.grid.around(centre, r) {
            for n in self.in_column(c) {
                let p = self.feet(n);
                let flat = Vec2::new(p.x - feet.x, p.z - feet.z).length();
                if flat <= horizontal && (p.y - feet.y).abs() <= vertical {
                    out.push(n);
                }
            }
        }
        out
    }

    /// The place a search from `feet` starts on, as [`ReachMap::build`] picks it: the nearest within 1.5
    /// cells across and a step, a snap and two skins up or down.
    pub(crate) fn start_node(&self, feet: Vec3) -> Option<u32> {
        let c = &self.ctl;
        let dy = c.max_step + c.snap_distance + c.skin * 2.0;
        self.spot_near(feet, self.grid.cell * 1.5, dy)
    }

    /// The place nearest `feet` within `horizontal` and `vertical` (places only, not landings).
    pub(crate) fn spot_near(&self, feet: Vec3, horizontal: f32, vertical: f32) -> Option<u32> {
        let spots = |c: usize| self.col_start[c]..self.col_start[c + 1];
        nearest_item(&self.grid, feet, horizontal, vertical, spots, |j| {
            self.spots[j as usize].feet
        })
    }

    /// The nodes a query at `to` is answered by, as [`ReachMap::reachable`] decides: `to` is reached when one
    /// of them is. Every node within a cell and a step of `to`, the place nearest `to` within that, and every
    /// node within a cell and a step of that place (a place near a landing counts as reached).
    pub(crate) fn goal_nodes(&self, to: Vec3) -> Vec<u32> {
        let (cell, step) = (self.grid.cell, self.ctl.max_step);
        let mut out = self.nodes_near(to, cell, step);
        if let Some(j) = self.spot_near(to, cell, step) {
            out.push(j);
            out.extend(self.nodes_near(self.spots[j as usize].feet, cell, step));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The horizontal directions from node `n` (of the eight compass ones) toward a rim: the next column
    /// holds nothing within a step of its height, but a place lower down, a place higher up within
    /// `rise`, or nothing at all (a pit).
    pub(crate) fn rims(&self, n: u32, rise: f32) -> Vec<Vec2> {
        let node = &self.nodes[n as usize];
        let y = node.feet.y;
        let step = self.ctl.max_step + 2.0 * self.ctl.skin;
        let mut out = Vec::new();
        for (di, dk) in [
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ] {
            let Some(c) = self.grid.neighbour(node.column as usize, di, dk) else {
                continue;
            };
            let heights: Vec<f32> = (self.col_start[c]..self.col_start[c + 1])
                .map(|j| self.spots[j as usize].feet.y)
                .collect();
            if heights.iter().any(|h| (h - y).abs() <= step) {
                continue;
            }
            let useful = heights.is_empty() || heights.iter().any(|&h| h < y || h <= y + rise);
            if useful {
                out.push(Vec2::new(di as f32, dk as f32).normalize());
            }
        }
        out
    }
}
