//! The whole move graph: every place to stand (the same scan as a map's, `spots.rs`) and every move the
//! breadth-first search (`edges.rs`) could make out of each of them, from any start, not only the places one
//! start reaches. Navigation (`crate::nav`) searches it for paths between any two points; reachability in it is
//! what [`ReachMap`] finds from a start, because its nodes are the map's places and its edges the map's moves
//! (made with `every`: each landing a node's search could keep, whatever was reached before it).
//!
//! A landing where the scan found no place (the edge of a sloped triangle, say) is a node of its own, found
//! and expanded in later rounds, as the search finds it.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use glam::{Vec2, Vec3};

use super::super::CharacterController;
use super::edges::{EdgeWork, Key, Node, Places};
use super::memo::KeyHasher;
use super::spots::{Grid, Spot, find_spots};
use super::{ReachError, ReachMap, ReachSettings, nearest_item, nearest_start, window, within};
use crate::scene::Scene;
use crate::shape::Aabb;

/// Every place to stand for one controller, and the controller's moves between them.
#[derive(Clone, Debug)]
pub(crate) struct MoveGraph {
    pub(super) grid: Grid,
    pub(super) ctl: CharacterController,
    pub(super) spots: Vec<Spot>,
    pub(super) col_start: Vec<u32>,
    /// Node `j < spots.len()` is place `j`; the rest are landings where the scan found no place.
    pub(super) nodes: Vec<Node>,
    /// The key of each landing beyond the places (`loose_keys[i]` is node `spots.len() + i`'s).
    pub(super) loose_keys: Vec<Key>,
    /// Every move that landed where the scan found no place, `(from, landing, key)`, in the order the search
    /// found them (by `from`): an update replays the unchanged nodes' ones in that order, so the landings are
    /// numbered, and placed, as a fresh build numbers and places them.
    pub(super) landings: Vec<(u32, Node, Key)>,
    /// The landings beyond the places, by column: `loose[loose_start[c]..loose_start[c + 1]]`.
    loose: Vec<u32>,
    loose_start: Vec<u32>,
    /// Node `n`'s moves land on `edges[edge_start[n]..edge_start[n + 1]]`.
    edge_start: Vec<u32>,
    edges: Vec<u32>,
    /// The moves onto a place none of whose landings was on the place's feet (within a millimetre across: on a
    /// slope a move lands at the height its own sweep finds), with the
    /// first landing, `(from, to, landing)` sorted: a path goes by the landing. A move aimed elsewhere that
    /// lands within a skin of the place is that place, and a move turned within the place's column lands
    /// where a move on to the place's feet lands there; but a body aimed at the place's feet straight from
    /// the move's start may not get there (past a corner, aimed 9 mm aside of where the move went, a body
    /// stops against it: found on the gallery).
    pub(super) off_feet: Vec<(u32, u32, Vec3)>,
    work: EdgeWork,
}

/// The moves found out of a run of nodes: `(from, landing, key)`.
type Found = Vec<(u32, Node, Key)>;

/// Where one node's moves land (`MoveGraph::connect`): the nodes, and for each landing on a place, the place,
/// the landing and whether it is on the place's feet.
type Landed<'a> = (&'a mut Vec<u32>, &'a mut Vec<(u32, Vec3, bool)>);

/// What an update keeps of the graph before the edit (`regraph.rs`): a node outside `fresh` whose place (or
/// landing) is unchanged makes the moves it made before.
pub(super) struct Reuse<'a> {
    /// The graph before the edit.
    pub(super) old: &'a MoveGraph,
    /// For each new place, the old place it is (`NONE` for a place of a column scanned again).
    pub(super) spot_old: Vec<u32>,
    /// For each old place, the new place it is (`NONE` for a place of a column scanned again).
    pub(super) spot_new: Vec<u32>,
    /// Whether column `c`'s nodes are expanded again (their moves may have changed).
    pub(super) fresh: Box<dyn Fn(usize) -> bool + 'a>,
    /// The old landings beyond the places, by key.
    pub(super) old_loose: KeyMap<u32>,
    /// Old node `o`'s landings are `old.landings[landing_at[o]..landing_at[o + 1]]` and its moves onto places
    /// off their feet `old.off_feet[off_at[o]..off_at[o + 1]]` ([`starts`]): an update reads every kept node's
    /// without searching the lists.
    pub(super) landing_at: Vec<u32>,
    pub(super) off_at: Vec<u32>,
}

/// For `nodes` nodes and a list of items sorted by the node each belongs to (`of`), where each node's items
/// begin: node `n`'s are `items[start[n]..start[n + 1]]` (an item of a node out of range counts for none).
pub(crate) fn starts<T>(nodes: usize, items: &[T], of: impl Fn(&T) -> u32) -> Vec<u32> {
    let mut start = vec![0u32; nodes + 1];
    for item in items {
        if let Some(c) = start.get_mut(of(item) as usize + 1) {
            *c += 1;
        }
    }
    for n in 0..nodes {
        start[n + 1] += start[n];
    }
    start
}

/// `items` grouped by `of` (below `groups`), each group in the items' order: where each group begins
/// ([`starts`]) and the items' indices group by group (group `g`'s are `order[start[g]..start[g + 1]]`).
pub(super) fn grouped<T>(
    groups: usize,
    items: &[T],
    of: impl Fn(&T) -> u32,
) -> (Vec<u32>, Vec<u32>) {
    let start = starts(groups, items, &of);
    let mut fill = start.clone();
    let mut order = vec![0u32; items.len()];
    for (i, item) in items.iter().enumerate() {
        let slot = &mut fill[of(item) as usize];
        order[*slot as usize] = i as u32;
        *slot += 1;
    }
    (start, order)
}

/// A table by landing key, hashed with the reach's multiply-rotate hash (the standard one cost an update
/// more than the lookups it served).
pub(super) type KeyMap<V> = HashMap<Key, V, BuildHasherDefault<KeyHasher>>;

/// No node (an old place scanned again, a landing made anew).
pub(super) const NONE: u32 = u32::MAX;

impl Reuse<'_> {
    /// Old node `o`'s moves onto places that are places still, as the new places they are, into `targets`
    /// (ascending: the new places are numbered in the old ones' order), and those of them none of whose
    /// landings was on the place's feet, as node `n`'s, into `off` (`MoveGraph::note_off_feet` keeps the
    /// same for a node expanded here).
    fn moves_onto_places(
        &self,
        (o, n): (u32, u32),
        targets: &mut Vec<u32>,
        off: &mut Vec<(u32, u32, Vec3)>,
    ) {
        let old_first = self.old.spots.len() as u32;
        let new_of = |t: u32| {
            self.spot_new
                .get(t as usize)
                .copied()
                .filter(|&m| t < old_first && m != NONE)
        };
        targets.extend(self.old.moves(o).iter().filter_map(|&t| new_of(t)));
        for &(_, t, feet) in self.range(&self.off_at, o, &self.old.off_feet) {
            if let Some(m) = new_of(t) {
                off.push((n, m, feet));
            }
        }
    }

    /// Old node `o`'s landings beyond the places, in the order they were found.
    fn landings_of(&self, o: u32) -> &[(u32, Node, Key)] {
        self.range(&self.landing_at, o, &self.old.landings)
    }

    /// Old node `o`'s part of `items` by the starts `at` (empty for a node out of range).
    fn range<'b, T>(&self, at: &[u32], o: u32, items: &'b [T]) -> &'b [T] {
        let o = o as usize;
        match (at.get(o), at.get(o + 1)) {
            (Some(&a), Some(&b)) => items.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// The old node whose moves new node `n` (`node`, landing key `key` for a landing) makes, if any.
    fn old_of(&self, n: u32, node: &Node, key: Option<Key>) -> Option<u32> {
        if (self.fresh)(node.column as usize) {
            return None;
        }
        let o = match key {
            None => self.spot_old[n as usize],
            Some(k) => *self.old_loose.get(&k)?,
        };
        let was = self.old.nodes.get(o as usize)?;
        (was.feet == node.feet && was.level == node.level && was.column == node.column).then_some(o)
    }
}

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
        let grid = Self::grid_of(scene, ctl, bounds, settings)?;
        let threads = threads_of(settings);
        let found = find_spots(scene, ctl, &grid, threads);
        let mut graph = Self::with_spots(grid, *ctl, found.spots, found.col_start);
        graph.connect(scene, threads, None);
        Ok(graph)
    }

    /// The grid of a graph over `bounds`, or why not (see [`MoveGraph::build`]).
    pub(super) fn grid_of(
        scene: &Scene,
        ctl: &CharacterController,
        bounds: Aabb,
        settings: &ReachSettings,
    ) -> Result<Grid, ReachError> {
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
        ReachMap::grid_for(scene, ctl, bounds.center(), &with_bounds)
    }

    /// A graph of these places, not yet connected.
    pub(super) fn with_spots(
        grid: Grid,
        ctl: CharacterController,
        spots: Vec<Spot>,
        col_start: Vec<u32>,
    ) -> MoveGraph {
        let nodes: Vec<Node> = spots
            .iter()
            .enumerate()
            .map(|(j, s)| Node::on_spot(s, j as u32, j as u32))
            .collect();
        MoveGraph {
            grid,
            ctl,
            spots,
            col_start,
            nodes,
            loose_keys: Vec::new(),
            landings: Vec::new(),
            loose: Vec::new(),
            loose_start: Vec::new(),
            edge_start: Vec::new(),
            edges: Vec::new(),
            off_feet: Vec::new(),
            work: EdgeWork::default(),
        }
    }

    /// Expand every node (the landings found on the way too, round by round) and keep the moves; with `reuse`,
    /// a node that makes the moves an old node made takes them from there. Returns, for each node, the old
    /// node whose moves it took (`NONE`: expanded here).
    ///
    /// Nodes are expanded in index order (the places, then each round's landings in the order they were
    /// found), so each node's moves are appended to the edge lists in turn, sorted and without repeats.
    pub(super) fn connect(
        &mut self,
        scene: &Scene,
        threads: usize,
        reuse: Option<&Reuse<'_>>,
    ) -> Vec<u32> {
        let first = self.spots.len() as u32;
        let mut loose_index: KeyMap<u32> = KeyMap::default();
        loose_index.reserve(reuse.map_or(0, |r| r.old.loose_keys.len()));
        let mut todo: Vec<u32> = (0..self.nodes.len() as u32).collect();
        let mut reused = Vec::with_capacity(self.nodes.len());
        // About as many moves and landings as before the edit: room made once, not by doubling as they come.
        if let Some(r) = reuse {
            self.edges.reserve(r.old.edges.len());
            self.landings.reserve(r.old.landings.len());
            self.off_feet.reserve(r.old.off_feet.len());
        }
        self.edge_start = Vec::with_capacity(self.nodes.len() + 1);
        self.edge_start.push(0);
        self.off_feet.clear();
        let mut targets: Vec<u32> = Vec::new();
        // This node's landings on places: `(place, landing, on its feet)`.
        let mut onto: Vec<(u32, Vec3, bool)> = Vec::new();
        while !todo.is_empty() {
            let olds: Vec<u32> = todo
                .iter()
                .map(|&n| {
                    reuse
                        .and_then(|r| {
                            let key = (n >= first).then(|| self.loose_keys[(n - first) as usize]);
                            r.old_of(n, &self.nodes[n as usize], key)
                        })
                        .unwrap_or(NONE)
                })
                .collect();
            let fresh: Vec<u32> = todo
                .iter()
                .zip(&olds)
                .filter(|(_, o)| **o == NONE)
                .map(|(n, _)| *n)
                .collect();
            let found = self.expand_all(scene, threads, &fresh);
            let mut at = 0;
            let mut next = Vec::new();
            for (&n, &o) in todo.iter().zip(&olds) {
                reused.push(o);
                targets.clear();
                onto.clear();
                let mut sorted = 0;
                let mut land =
                    |graph: &mut MoveGraph, node: &Node, key: Key, out: &mut Landed<'_>| {
                        let (targets, onto) = out;
                        let to = match key {
                            Key::Spot(j) => {
                                onto.push((j, node.feet, graph.on_feet(j, node.feet)));
                                j
                            }
                            Key::Loose(..) => {
                                graph.landings.push((n, *node, key));
                                *loose_index.entry(key).or_insert_with(|| {
                                    let index = graph.nodes.len() as u32;
                                    graph.nodes.push(Node {
                                        parent: index,
                                        ..*node
                                    });
                                    graph.loose_keys.push(key);
                                    next.push(index);
                                    index
                                })
                            }
                        };
                        if to != n {
                            targets.push(to);
                        }
                    };
                if o == NONE {
                    while at < found.len() && found[at].0 == n {
                        let (_, node, key) = found[at];
                        land(self, &node, key, &mut (&mut targets, &mut onto));
                        at += 1;
                    }
                } else if let Some(r) = reuse {
                    // A kept node's moves onto places come ascending, its off-feet ones as they were (its
                    // landings are all off the places: none lies in a column scanned again).
                    r.moves_onto_places((o, n), &mut targets, &mut self.off_feet);
                    sorted = targets.len();
                    for (_, node, key) in r.landings_of(o) {
                        land(self, node, *key, &mut (&mut targets, &mut onto));
                    }
                }
                // Every landing beyond the places is numbered after them: only those need sorting.
                targets[sorted..].sort_unstable();
                targets.dedup();
                self.note_off_feet(n, &mut onto);
                self.edges.extend_from_slice(&targets);
                self.edge_start.push(self.edges.len() as u32);
            }
            todo = next;
        }
        self.index_loose();
        reused
    }

    /// Whether `feet` is on node `j`'s feet: within a millimetre across (on a slope a move lands at the
    /// height its own sweep finds).
    fn on_feet(&self, j: u32, feet: Vec3) -> bool {
        self.nodes
            .get(j as usize)
            .is_some_and(|p| Vec2::new(p.feet.x - feet.x, p.feet.z - feet.z).length() <= 1e-3)
    }

    /// Keep node `n`'s moves onto places none of whose landings was on the place's feet (`onto`: each landing
    /// on a place, whether on its feet), with the first such landing.
    fn note_off_feet(&mut self, n: u32, onto: &mut [(u32, Vec3, bool)]) {
        // Stable: the first landing of each place stays first.
        onto.sort_by_key(|o| o.0);
        for (k, &(j, feet, _)) in onto.iter().enumerate() {
            let first = k == 0 || onto[k - 1].0 != j;
            if first && !onto[k..].iter().take_while(|o| o.0 == j).any(|o| o.2) {
                self.off_feet.push((n, j, feet));
            }
        }
    }

    /// Where the move from node `from` onto place `to` lands when none of its landings is on the place's feet
    /// (a path goes by there first); `None` when one is, or there is no such move.
    pub(crate) fn landing(&self, from: u32, to: u32) -> Option<Vec3> {
        let i = self
            .off_feet
            .binary_search_by(|o| (o.0, o.1).cmp(&(from, to)))
            .ok()?;
        Some(self.off_feet[i].2)
    }

    /// The moves out of `nodes` (in their order), on up to `threads` threads.
    fn expand_all(&mut self, scene: &Scene, threads: usize, nodes: &[u32]) -> Found {
        if nodes.is_empty() {
            return Vec::new();
        }
        let places = Places {
            scene,
            ctl: &self.ctl,
            grid: &self.grid,
            spots: &self.spots,
            col_start: &self.col_start,
            memo: None,
        };
        let all = &self.nodes;
        let threads = threads.min(nodes.len().div_ceil(256)).max(1);
        let chunk = nodes.len().div_ceil(threads);
        let parts: Vec<(Found, EdgeWork)> = super::par::on_threads(threads, |t| {
            let mut out = Vec::new();
            let mut work = EdgeWork::default();
            let end = ((t + 1) * chunk).min(nodes.len());
            for &n in &nodes[(t * chunk).min(end)..end] {
                places.expand(n, &all[n as usize], &mut out, &mut work);
            }
            (out, work)
        });
        let mut found = Vec::new();
        for (part, work) in parts {
            self.work.sweeps += work.sweeps;
            self.work.moves += work.moves;
            found.extend(part);
        }
        found
    }

    /// The landings beyond the places, by column.
    fn index_loose(&mut self) {
        let first = self.spots.len();
        let (start, order) = grouped(self.grid.columns(), &self.nodes[first..], |n| n.column);
        self.loose = order.into_iter().map(|i| i + first as u32).collect();
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

    /// Whether a body set down on node `n` stays there (a place's `rests`; a landing stays, a move ended there).
    pub(crate) fn rests(&self, n: u32) -> bool {
        self.spots.get(n as usize).is_none_or(|s| s.rests)
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

    /// The node of `old` (a graph over the same grid) that node `n` is: in the same column, with the same feet
    /// and the same kind of ground (`None`: `n` is new, or the grids differ).
    pub(crate) fn counterpart(&self, n: u32, old: &MoveGraph) -> Option<u32> {
        let node = self.nodes.get(n as usize)?;
        if old.grid != self.grid {
            return None;
        }
        old.in_column(node.column as usize).find(|&o| {
            let was = &old.nodes[o as usize];
            was.feet == node.feet && was.level == node.level
        })
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
        let Some((centre, r)) = window(&self.grid, feet, horizontal) else {
            return Vec::new();
        };
        self.grid
            .around(centre, r)
            .flat_map(|c| self.in_column(c))
            .filter(|&n| within(self.feet(n), feet, horizontal, vertical))
            .collect()
    }

    /// The place a search from `feet` starts on, as [`ReachMap::build`] picks it: the nearest within 1.5
    /// cells across and a step, a snap and two skins up or down where a body set down stays, else the nearest.
    pub(crate) fn start_node(&self, feet: Vec3) -> Option<u32> {
        nearest_start(&self.grid, &self.ctl, &self.spots, &self.col_start, feet)
    }

    /// The place nearest `feet` within `horizontal` and `vertical` (places only, not landings).
    pub(crate) fn spot_near(&self, feet: Vec3, horizontal: f32, vertical: f32) -> Option<u32> {
        let spots = |c: usize| self.col_start[c]..self.col_start[c + 1];
        nearest_item(&self.grid, feet, horizontal, vertical, spots, |j| {
            self.spots[j as usize].feet
        })
    }

    /// Whether a place lies within `horizontal` and `vertical` of `feet`: `spot_near(..).is_some()`, with the
    /// column under `feet` looked at first and the look stopped at the first place found.
    pub(crate) fn has_spot_near(&self, feet: Vec3, horizontal: f32, vertical: f32) -> bool {
        let Some((centre, r)) = window(&self.grid, feet, horizontal) else {
            return false;
        };
        let holds = |c: usize| {
            (self.col_start[c]..self.col_start[c + 1])
                .any(|j| within(self.spots[j as usize].feet, feet, horizontal, vertical))
        };
        holds(centre) || self.grid.around(centre, r).any(holds)
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

    /// Whether a column past column `c`'s neighbour along `(di, dk)`, within a radius and a skin of it (the
    /// band before a riser where the body is too near the riser's face to stand), holds a place higher up
    /// within `heights` (`(lo, hi]`): the top of a riser a jump may climb, which the neighbour alone does not
    /// show. A place lower down (the floor on past a thin obstacle) ends the band.
    fn riser_beyond(&self, c: usize, (di, dk): (i64, i64), (lo, hi): (f32, f32)) -> bool {
        let band = ((self.ctl.radius + self.ctl.skin) / self.grid.cell).ceil() as i64;
        for k in 2..=band + 1 {
            let Some(b) = self.grid.neighbour(c, di * k, dk * k) else {
                return false;
            };
            let spots = self.spots_in(b);
            if spots.iter().any(|s| s.feet.y > lo && s.feet.y <= hi) {
                return true;
            }
            if spots.iter().any(|s| s.feet.y <= lo) {
                return false;
            }
        }
        false
    }

    /// Column `c`'s places, from the top down.
    fn spots_in(&self, c: usize) -> &[Spot] {
        &self.spots[self.col_start[c] as usize..self.col_start[c + 1] as usize]
    }

    /// The horizontal directions from node `n` (of the eight compass ones) toward a rim: the next column
    /// holds nothing within a step of its height, but a place lower down, a place higher up within
    /// `rise`, or nothing at all (a pit); or a riser within `rise` lies past a band of columns too near its
    /// face to stand in (`riser_beyond`), where the next column holds nothing within a step, or only places
    /// pushed back off that face no more than half a cell farther along than `n`.
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
            let dir = Vec2::new(di as f32, dk as f32).normalize();
            let spots = self.spots_in(c);
            let beyond = || self.riser_beyond(node.column as usize, (di, dk), (y + step, y + rise));
            let level = |s: &&Spot| (s.feet.y - y).abs() <= step;
            if spots.iter().any(|s| level(&s)) {
                // Walking on goes that way, unless the places there lie no farther along than half a cell
                // (pushed back off a riser's face a jump may climb: a body there is at the riser's foot too).
                let along =
                    |s: &Spot| Vec2::new(s.feet.x - node.feet.x, s.feet.z - node.feet.z).dot(dir);
                let on = spots
                    .iter()
                    .filter(level)
                    .any(|s| along(s) > 0.5 * self.grid.cell);
                if !on && beyond() {
                    out.push(dir);
                }
                continue;
            }
            // A pit, a place lower down or higher up within the jump, or a riser that high past a band of
            // columns too near its face to stand in.
            let useful = spots.is_empty() || spots.iter().any(|s| s.feet.y <= y + rise) || beyond();
            if useful {
                out.push(dir);
            }
        }
        out
    }
}

/// The threads a bake runs on (0 in the settings: every core).
pub(super) fn threads_of(settings: &ReachSettings) -> usize {
    super::par::thread_count(settings.threads)
}
