//! The search's bookkeeping: the best cost found to each node and how it was reached, in flat arrays indexed
//! by node, reused from query to query (one set per thread) and cleared in O(1) by a generation stamp, so a
//! query touches only the nodes it reaches (no hashing, no allocation once warm).

use std::cell::RefCell;

/// How a node was reached in the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Via {
    /// The start node.
    Start,
    /// A move (walk or drop) from a node.
    Move(u32),
    /// Jump link `i` of the map.
    Jump(u32),
    /// Ride link `i` of the map.
    Ride(u32),
}

/// One node's entry: the best cost found and how, valid in the query whose generation `stamp` holds (one
/// entry a node, so a look-up touches one cache line).
#[derive(Clone, Copy, Debug)]
struct Slot {
    cost: f32,
    stamp: u32,
    via: Via,
}

/// The best cost to each node reached and how, for one query.
#[derive(Debug, Default)]
pub(super) struct Costs {
    slots: Vec<Slot>,
    generation: u32,
}

impl Costs {
    /// Ready for a query over `nodes` nodes: nothing reached.
    fn reset(&mut self, nodes: usize) {
        if self.slots.len() != nodes {
            let empty = Slot {
                cost: 0.0,
                stamp: 0,
                via: Via::Start,
            };
            self.slots = vec![empty; nodes];
            self.generation = 0;
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Wrapped: old stamps could read as this generation's.
            self.slots.iter_mut().for_each(|s| s.stamp = 0);
            self.generation = 1;
        }
    }

    /// The best cost to `n` found so far and how, if reached.
    pub(super) fn get(&self, n: u32) -> Option<(f32, Via)> {
        self.slots
            .get(n as usize)
            .filter(|s| s.stamp == self.generation)
            .map(|s| (s.cost, s.via))
    }

    /// Record `cost` and `via` for `n` (a node index below the query's node count).
    pub(super) fn set(&mut self, n: u32, cost: f32, via: Via) {
        if let Some(s) = self.slots.get_mut(n as usize) {
            *s = Slot {
                cost,
                stamp: self.generation,
                via,
            };
        }
    }
}

thread_local! {
    static COSTS: RefCell<Costs> = RefCell::new(Costs::default());
}

/// Run `f` with this thread's bookkeeping, reset for `nodes` nodes (a fresh one should `f` be re-entered).
pub(super) fn with_costs<R>(nodes: usize, f: impl FnOnce(&mut Costs) -> R) -> R {
    COSTS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut costs) => {
            costs.reset(nodes);
            f(&mut costs)
        }
        Err(_) => {
            let mut costs = Costs::default();
            costs.reset(nodes);
            f(&mut costs)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_query_forgets_the_last() {
        with_costs(10, |c| {
            c.set(3, 1.5, Via::Move(2));
            c.set(3, 1.0, Via::Jump(0));
            c.set(99, 1.0, Via::Start);
            assert_eq!(c.get(3), Some((1.0, Via::Jump(0))));
        });
        with_costs(10, |c| {
            assert_eq!(c.get(3), None);
            assert_eq!(c.get(99), None);
        });
    }
}
