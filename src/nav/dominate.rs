//! Whether walking makes a jump link useless: a search over the agent's moves alone (walks, and drops where
//! the settings allow them) from the take-off, cut off at the jump's own cost. A link the moves already match
//! or beat in the path search's costs never makes a path shorter or a place reachable, so the bake drops it
//! before the checks that cost most (the take-offs steering makes, each one flight).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::Vec3;

use super::astar::{self, Via};
use super::consts::move_cost;
use crate::character::MoveGraph;

/// Whether the moves from `from` reach `to` at a cost of at most `budget` (the jump's), with `drops` saying
/// whether drops count. `seen` is called with the feet of every node the search settles and of every node a
/// move out of those leads to, so an update can tell whether an edit could change the answer.
pub(super) fn walk_matches(
    graph: &MoveGraph,
    from: u32,
    to: u32,
    budget: f32,
    drops: bool,
    seen: &mut dyn FnMut(Vec3),
) -> bool {
    if from == to {
        return true;
    }
    let step = graph.controller().max_step;
    astar::with_costs(graph.len(), |costs| {
        let mut heap = BinaryHeap::new();
        costs.set(from, 0.0, Via::Start);
        heap.push(Reverse((0u32, from)));
        while let Some(Reverse((k, n))) = heap.pop() {
            let Some((cost, _)) = costs.get(n) else {
                continue;
            };
            if k > cost.to_bits() {
                continue;
            }
            let at = graph.feet(n);
            seen(at);
            if n == to {
                return true;
            }
            for &m in graph.moves(n) {
                let feet = graph.feet(m);
                seen(feet);
                if !drops && at.y - feet.y > step {
                    continue;
                }
                let c = cost + move_cost(at, feet);
                if c <= budget && costs.get(m).is_none_or(|(b, _)| c < b) {
                    costs.set(m, c, Via::Move(n));
                    heap.push(Reverse((c.to_bits(), m)));
                }
            }
        }
        false
    })
}
