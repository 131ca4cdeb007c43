//! Landmarks for the path search on large maps (ALT: A*, landmarks and the triangle inequality).
//!
//! For a few nodes `L` (landmarks) the least cost from `L` to every node and from every node to `L` is found
//! once, over all of the map's edges (moves, drops, jumps, rides, each at the search's cost). Then for any
//! node `v` and goal `g`, `d(L, g) - d(L, v)` and `d(v, L) - d(g, L)` are lower bounds of the cost from `v` to
//! `g` (the triangle inequality), and the largest of them over the landmarks is a heuristic far closer than
//! the distance as the crow flies: in a maze, whose corridors the straight line ignores, the search then
//! settles the nodes near the best path instead of most of the maze. Bounds computed over all edges stay
//! lower bounds when a query leaves some out (`drops: false`): a subgraph's costs are never lower.
//!
//! Toward a set of goals the bound is taken to the nearest: `min_g d(L, g) - d(L, v)` and
//! `d(v, L) - max_g d(g, L)`. A node that cannot reach a landmark every goal reaches cannot reach a goal: the
//! bound is infinite and the search leaves it.
//!
//! Landmarks are picked farthest first (each the node farthest from those picked, by the search's cost), and
//! made only for maps of [`MIN_NODES`] nodes or more, on the first query that needs them: below that the
//! straight-line heuristic already settles few nodes. With a second thread the costs to each landmark are
//! found while the next is picked (the picking needs only the costs from them): half the wait on two cores.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A graph's edges out of a node: `out(n, f)` calls `f(to, cost)` for each edge out of node `n` (costs not
/// negative).
pub(super) type OutEdges<'a> = &'a dyn Fn(u32, &mut dyn FnMut(u32, f32));

/// How many landmarks a map holds at most (each costs two floats a node).
const COUNT: usize = 8;

/// The fewest nodes a map has for landmarks to be made.
pub(super) const MIN_NODES: usize = 20_000;

/// A lower bound is lowered by this fraction of the costs it is made of (the largest cost between the goals
/// and a landmark), so that rounding in the sums of `f32` costs never makes it exceed the cost the search adds
/// up along another order of the same edges. The same amount for every node of a query: along the best path the
/// bound then falls exactly as the cost so far grows, and the search's estimates there stay equal, so it can
/// settle the node nearer the goal first (a bound shrunk by a fraction of itself grew the estimates along the
/// path, and the search settled every node of about the same estimate nearer the start before going on).
const SHRINK: f32 = 1e-4;

/// Edges in compressed rows: node `n`'s are `to[start[n]..start[n + 1]]` with costs `cost[..]`.
struct Edges {
    start: Vec<u32>,
    to: Vec<u32>,
    cost: Vec<f32>,
}

impl Edges {
    /// The edges of a graph of `n` nodes (`out`).
    fn of(n: usize, out: OutEdges<'_>) -> Self {
        let mut start = Vec::with_capacity(n + 1);
        let (mut to, mut cost) = (Vec::new(), Vec::new());
        start.push(0u32);
        for a in 0..n as u32 {
            out(a, &mut |b, c| {
                if (b as usize) < n {
                    to.push(b);
                    cost.push(c.max(0.0));
                }
            });
            start.push(to.len() as u32);
        }
        Self { start, to, cost }
    }

    /// The same edges each turned around (a counting sort by the node they end at: within a node's row, the
    /// nodes they came from in increasing order).
    fn reversed(&self) -> Self {
        let n = self.start.len().saturating_sub(1);
        let mut start = vec![0u32; n + 1];
        for &b in &self.to {
            start[b as usize + 1] += 1;
        }
        for k in 1..start.len() {
            start[k] += start[k - 1];
        }
        let mut fill = start.clone();
        let (mut to, mut cost) = (vec![0u32; self.to.len()], vec![0f32; self.to.len()]);
        for a in 0..n {
            for e in self.start[a] as usize..self.start[a + 1] as usize {
                let b = self.to[e] as usize;
                let slot = fill[b] as usize;
                to[slot] = a as u32;
                cost[slot] = self.cost[e];
                fill[b] += 1;
            }
        }
        Self { start, to, cost }
    }

    /// The least cost from `source` to every node into `out` (infinite where none), by Dijkstra.
    fn costs_from(&self, source: u32, out: &mut [f32]) {
        out.fill(f32::INFINITY);
        let Some(first) = out.get_mut(source as usize) else {
            return;
        };
        *first = 0.0;
        let mut heap = BinaryHeap::new();
        heap.push(Reverse((0u32, source)));
        while let Some(Reverse((k, n))) = heap.pop() {
            let d = out[n as usize];
            if k > d.to_bits() {
                continue;
            }
            let (lo, hi) = (
                self.start[n as usize] as usize,
                self.start[n as usize + 1] as usize,
            );
            for (&m, &w) in self.to[lo..hi].iter().zip(&self.cost[lo..hi]) {
                let c = d + w;
                if c < out[m as usize] {
                    out[m as usize] = c;
                    heap.push(Reverse((c.to_bits(), m)));
                }
            }
        }
    }
}

/// The landmarks of one agent's map and the costs to and from them.
#[derive(Clone, Debug, Default)]
pub(super) struct Landmarks {
    /// How many landmarks.
    count: usize,
    /// Node by node (a node's numbers side by side, one cache line for eight landmarks): for node `v`,
    /// `costs[v * 2 * count + k]` is the least cost from landmark `k` to `v` and
    /// `costs[v * 2 * count + count + k]` the least from `v` to landmark `k` (infinite: none).
    costs: Vec<f32>,
}

impl Landmarks {
    /// The landmarks of a graph of `nodes` nodes whose edges are `out`, when it has `min` nodes or more (none
    /// otherwise).
    pub(super) fn at_least(nodes: usize, out: OutEdges<'_>, min: usize, threads: usize) -> Self {
        if nodes < min.max(1) || nodes >= u32::MAX as usize {
            return Self::default();
        }
        let forward = Edges::of(nodes, out);
        // The costs to each landmark (over the edges turned around) need only the landmark: with a second
        // thread they are found while the next landmark is picked, each as soon as its landmark is.
        let (from, to) = if threads >= 2 {
            std::thread::scope(|s| {
                let (send, marks) = std::sync::mpsc::channel::<u32>();
                let forward = &forward;
                let back = s.spawn(move || costs_to(&forward.reversed(), nodes, marks));
                let from = pick(forward, nodes, &mut |mark| {
                    // The receiver lives until every landmark is sent (it ends only with the channel).
                    let _ = send.send(mark);
                });
                drop(send);
                let to = back.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
                (from, to)
            })
        } else {
            let mut marks = Vec::new();
            let from = pick(&forward, nodes, &mut |mark| marks.push(mark));
            (from, costs_to(&forward.reversed(), nodes, marks))
        };
        let count = from.len() / nodes;
        let mut costs = Vec::with_capacity(2 * count * nodes);
        for v in 0..nodes {
            costs.extend((0..count).map(|k| from[k * nodes + v]));
            costs.extend((0..count).map(|k| to[k * nodes + v]));
        }
        Self { count, costs }
    }

    /// Node `v`'s costs from the landmarks and to them.
    fn of(&self, v: u32) -> Option<(&[f32], &[f32])> {
        let k = self.count;
        let all = self
            .costs
            .get(v as usize * 2 * k..(v as usize + 1) * 2 * k)?;
        Some(all.split_at(k))
    }

    /// The bound toward the nodes `goals`: `None` without landmarks.
    pub(super) fn toward(&self, goals: &[u32]) -> Option<Bound<'_>> {
        let k = self.count;
        if k == 0 || goals.is_empty() {
            return None;
        }
        let mut near = vec![f32::INFINITY; k];
        let mut far = vec![0.0f32; k];
        for &g in goals {
            let (from, to) = self.of(g)?;
            near.iter_mut().zip(from).for_each(|(n, &f)| *n = n.min(f));
            far.iter_mut().zip(to).for_each(|(x, &t)| *x = x.max(t));
        }
        let scale = near
            .iter()
            .chain(&far)
            .copied()
            .filter(|c| c.is_finite())
            .fold(0.0f32, f32::max);
        Some(Bound {
            marks: self,
            near,
            far,
            slack: scale * SHRINK,
        })
    }
}

/// Pick the landmarks over `forward` (a graph of `nodes` nodes), farthest first (see the module), telling
/// `picked` each as it is picked; the least costs from each, landmark after landmark (`nodes` a landmark).
fn pick(forward: &Edges, nodes: usize, picked: &mut dyn FnMut(u32)) -> Vec<f32> {
    let mut row = vec![f32::INFINITY; nodes];
    // The first landmark: the node farthest from a node that leads anywhere (the first of node 0 and the
    // nodes a quarter, half and three quarters through), then each the farthest from those picked.
    let mut nearest = vec![f32::INFINITY; nodes];
    let mut next = None;
    for s in [0, nodes / 2, nodes / 4, 3 * nodes / 4] {
        forward.costs_from(s as u32, &mut row);
        next = farthest(&row, &nearest);
        if next.is_some() {
            break;
        }
    }
    let mut from = Vec::with_capacity(COUNT * nodes);
    let mut marks = Vec::with_capacity(COUNT);
    while let Some(mark) = next {
        if marks.len() == COUNT {
            break;
        }
        marks.push(mark);
        picked(mark);
        forward.costs_from(mark, &mut row);
        nearest
            .iter_mut()
            .zip(&row)
            .for_each(|(n, &r)| *n = n.min(r));
        from.extend_from_slice(&row);
        next = farthest(&nearest, &nearest).filter(|m| !marks.contains(m));
    }
    from
}

/// The least costs to each of `marks` over `backward` (the edges turned around), landmark after landmark.
fn costs_to(backward: &Edges, nodes: usize, marks: impl IntoIterator<Item = u32>) -> Vec<f32> {
    let mut row = vec![f32::INFINITY; nodes];
    let mut to = Vec::with_capacity(COUNT * nodes);
    for mark in marks {
        backward.costs_from(mark, &mut row);
        to.extend_from_slice(&row);
    }
    to
}

/// The node with the largest finite `of` whose `among` is not zero (`None` when every `of` is infinite or
/// zero).
fn farthest(of: &[f32], among: &[f32]) -> Option<u32> {
    of.iter()
        .zip(among)
        .enumerate()
        .filter(|(_, (d, a))| d.is_finite() && **d > 0.0 && **a > 0.0)
        .max_by(|a, b| a.1.0.total_cmp(b.1.0))
        .map(|(i, _)| i as u32)
}

/// The landmarks' lower bound of the cost from a node to the nearest of a set of goals.
pub(super) struct Bound<'a> {
    marks: &'a Landmarks,
    /// Per landmark, the least cost from it to a goal.
    near: Vec<f32>,
    /// Per landmark, the greatest cost from a goal to it.
    far: Vec<f32>,
    /// What every bound is lowered by ([`SHRINK`]).
    slack: f32,
}

impl Bound<'_> {
    /// What a bound is to be lowered by, the same for every node ([`SHRINK`]): [`Bound::at`] less this is a
    /// lower bound of the cost the search adds up.
    pub(super) fn slack(&self) -> f32 {
        self.slack
    }

    /// The landmarks' bound of the cost from node `v` to the nearest goal before the [`Bound::slack`] is taken
    /// off (infinite: no goal is reachable from it).
    pub(super) fn at(&self, v: u32) -> f32 {
        let Some((froms, tos)) = self.marks.of(v) else {
            return 0.0;
        };
        let mut best = 0.0f32;
        for (((&near, &far), &from), &to) in self.near.iter().zip(&self.far).zip(froms).zip(tos) {
            // From the landmark: the goals are at least `near` from it, `v` only `from`.
            if near.is_finite() && from.is_finite() {
                best = best.max(near - from);
            }
            // To the landmark: every goal reaches it within `far`; from `v` it takes `to`.
            if far.is_finite() {
                if !to.is_finite() {
                    return f32::INFINITY;
                }
                best = best.max(to - far);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::character::MoveGraph;
    use crate::nav::consts::{flat, move_cost};
    use crate::nav::line::fixture;

    fn maze() -> MoveGraph {
        fixture::two_walls().1
    }

    /// The graph's moves at the path search's cost.
    fn moves(g: &MoveGraph) -> impl Fn(u32, &mut dyn FnMut(u32, f32)) + '_ {
        |n, f| {
            for &m in g.moves(n) {
                f(m, move_cost(g.feet(n), g.feet(m)));
            }
        }
    }

    #[test]
    fn the_bound_never_exceeds_the_least_cost_and_beats_the_crow_across_walls() {
        let g = maze();
        let n = g.len();
        let marks = Landmarks::at_least(n, &moves(&g), 0, 2);
        assert_eq!(marks.count, COUNT);
        let edges = Edges::of(n, &moves(&g));
        let mut row = vec![0.0; n];
        let mut better = 0;
        for v in (0..n as u32).step_by(7) {
            edges.costs_from(v, &mut row);
            for goal in (0..n as u32).step_by(11) {
                let b = marks.toward(&[goal]).expect("landmarks");
                let bound = b.at(v) - b.slack();
                let least = row[goal as usize];
                assert!(
                    bound <= least,
                    "{v} -> {goal}: bound {bound} above the least cost {least}"
                );
                let crow = flat(g.feet(v), g.feet(goal));
                better += usize::from(least.is_finite() && bound > crow + 1.0);
            }
        }
        // Across a wall the landmarks see the way round that the straight line does not.
        assert!(
            better > 100,
            "only {better} pairs bounded above the straight line"
        );
    }

    #[test]
    fn toward_several_goals_the_bound_is_to_the_nearest() {
        let g = maze();
        let n = g.len() as u32;
        let marks = Landmarks::at_least(g.len(), &moves(&g), 0, 1);
        let edges = Edges::of(g.len(), &moves(&g));
        let goals = [3, n / 2, n - 5];
        let mut row = vec![0.0; n as usize];
        for v in (0..n).step_by(5) {
            edges.costs_from(v, &mut row);
            let nearest = goals
                .iter()
                .map(|&goal| row[goal as usize])
                .fold(f32::INFINITY, f32::min);
            let b = marks.toward(&goals).expect("landmarks");
            let bound = b.at(v) - b.slack();
            assert!(bound <= nearest, "{v}: {bound} > {nearest}");
        }
    }

    #[test]
    fn the_landmarks_are_the_same_made_on_one_thread_or_two() {
        let g = maze();
        let one = Landmarks::at_least(g.len(), &moves(&g), 0, 1);
        let two = Landmarks::at_least(g.len(), &moves(&g), 0, 2);
        assert_eq!(one.count, COUNT);
        assert_eq!((one.count, &one.costs), (two.count, &two.costs));
    }

    #[test]
    fn edges_turned_around_are_each_edge_reversed() {
        let g = maze();
        let forward = Edges::of(g.len(), &moves(&g));
        let back = forward.reversed();
        let row = |e: &Edges, n: usize| {
            let (lo, hi) = (e.start[n] as usize, e.start[n + 1] as usize);
            let mut r: Vec<(u32, u32)> = e.to[lo..hi]
                .iter()
                .zip(&e.cost[lo..hi])
                .map(|(&m, &c)| (m, c.to_bits()))
                .collect();
            r.sort_unstable();
            r
        };
        assert_eq!(back.to.len(), forward.to.len());
        // Every edge as (where it ends, where it starts, cost), from the forward rows; then the same read off
        // the turned rows.
        let mut turned: Vec<(u32, u32, u32)> = (0..g.len())
            .flat_map(|a| {
                row(&forward, a)
                    .into_iter()
                    .map(move |(m, c)| (m, a as u32, c))
            })
            .collect();
        turned.sort_unstable();
        let read: Vec<(u32, u32, u32)> = (0..g.len())
            .flat_map(|b| {
                row(&back, b)
                    .into_iter()
                    .map(move |(a, c)| (b as u32, a, c))
            })
            .collect();
        assert_eq!(read, turned);
    }

    #[test]
    fn a_small_map_has_none() {
        let g = maze();
        assert!(g.len() < MIN_NODES);
        let marks = Landmarks::at_least(g.len(), &moves(&g), MIN_NODES, 2);
        assert!(marks.toward(&[0]).is_none());
    }
}
