//! Whether walking makes a jump link useless: an A* search over the agent's moves alone (walks, and drops where
//! the settings allow them) from the take-off to the landing, cut off at the jump's own cost in the path
//! search. A link the moves already match or beat never makes a path shorter or a place reachable (the path
//! search would take the moves), so the bake drops it before the checks that cost most (the take-offs steering
//! makes, each one flight).
//!
//! A looser cut (the moves up to half again the jump's cost) was measured: it took 30 % off the rolling
//! terrain's build, but paths that walked where they had jumped then failed to arrive, three of 295: the walking part of
//! such paths needs work first.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::Vec3;

use super::astar::{self, Via};
use super::consts::{flat, move_cost};
use crate::character::MoveGraph;

/// Whether the moves from `from` reach `to` at a cost of at most `budget`, with `drops` saying
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
    let goal = graph.feet(to);
    // A*: the horizontal distance to the landing never exceeds the moves' cost there.
    let h = |p: Vec3| flat(p, goal);
    astar::with_costs(graph.len(), |costs| {
        let mut heap = BinaryHeap::new();
        costs.set(from, 0.0, Via::Start);
        heap.push(Reverse((h(graph.feet(from)).to_bits(), from)));
        while let Some(Reverse((k, n))) = heap.pop() {
            let Some((cost, _)) = costs.get(n) else {
                continue;
            };
            let at = graph.feet(n);
            if k > (cost + h(at)).to_bits() {
                continue;
            }
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
                if c + h(feet) <= budget && costs.get(m).is_none_or(|(b, _)| c < b) {
                    costs.set(m, c, Via::Move(n));
                    heap.push(Reverse(((c + h(feet)).to_bits(), m)));
                }
            }
        }
        false
    })
}
