//! Paths: A* over an agent's graph (its moves and jump links; the bookkeeping in flat arrays, `astar.rs`) from
//! the place the reach map would start on to the first node that answers for the goal, then straightened
//! (`straighten.rs`): along runs of walking, intermediate points are dropped along lines geometry proves
//! walked (`pull.rs`, `line.rs`), else while a body stepped at 60 Hz toward the farther point, as
//! [`NavPath::steer`](super::NavPath::steer) steers it, still gets there without leaving the shortcut or
//! falling (`character::reach::walk`).
//!
//! Ride links are edges of the search too, costing the walk on and off plus the mover's travel and its worst
//! wait (a whole period) at walking speed. A ride step is kept as found (waiting place, boarding point, the
//! same point at the far end, landing): straightening works on the walking between rides, never across one.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::{Vec2, Vec3};

use super::astar::{self, Costs, Via};
use super::bake::{self, AgentMap};
use super::landmarks::{self, Bound};
use super::lead_in;
use super::spur;
use super::straighten::{Ground, straightened};
use super::{NavLink, NavPath, NavSettings};
use crate::character::{CharacterController, walks};
use crate::scene::Scene;

/// How much farther (in the search's cost, about metres) the search goes on past a goal node a body does not
/// arrive at `to` from, for one it does: the nodes answering for `to` lie within a few cells of it.
const AROUND_GOAL: f32 = 4.0;

/// The horizontal distance between two points.
fn flat(a: Vec3, b: Vec3) -> f32 {
    Vec2::new(a.x - b.x, a.z - b.z).length()
}

/// A key for the heap: a non-negative `f32`'s bits order as the number does.
fn key(cost: f32) -> u32 {
    cost.max(0.0).to_bits()
}

/// How much the search leans toward the goal: the estimate of the cost left is the lower bound grown by this
/// fraction, so a path found costs at most this fraction more than the least (weighted A*). Along the best path
/// a bound that is exact then makes the estimates fall as the search goes on, so it goes on along the path
/// rather than settling every node of about the same estimate nearer the start: on the bench's 100 m maze,
/// the path across settled 33,249 nodes where the plain A* settled 61,469 (and a tie broken toward the node
/// reached at the greater cost, with estimates in steps of a centimetre, 31,910, but twice as many when the
/// path's estimates, equal but for rounding, straddled a step).
const LEAN: f32 = 2e-3;

/// The link a move from `a` to `b` is: a drop when it ends more than `max_step` lower.
fn move_link(ctl: &CharacterController, a: Vec3, b: Vec3) -> NavLink {
    let down = a.y - b.y;
    if down > ctl.max_step {
        NavLink::Drop { height: down }
    } else {
        NavLink::Walk
    }
}

/// The path for `map`'s agent from `from` to `to` (see [`NavMap::path`](super::NavMap::path)).
pub(super) fn find(
    map: &AgentMap,
    scene: &Scene,
    settings: &NavSettings,
    from: Vec3,
    to: Vec3,
) -> Option<NavPath> {
    let g = &map.graph;
    let start = g.start_node(from)?;
    let goals = g.goal_nodes(to);
    if goals.is_empty() {
        return None;
    }
    // On a large map the landmarks bound the search (`landmarks.rs`).
    let bound = prepare(map, settings).and_then(|marks| marks.toward(&goals));
    let mut path = astar::with_costs(g.len(), |costs| {
        let goal = search(map, settings, (start, &goals, to), bound.as_ref(), costs)?;
        unwind(map, costs, goal)
    })?;
    let ground = Ground {
        scene,
        map,
        ctl: *g.controller(),
        gravity: settings.gravity,
    };
    finish(&mut path, scene, &ground.ctl, settings.gravity, to);
    // Each walking piece between rides on its own (a ride step is kept as it is).
    let mut out = NavPath::default();
    for (piece, ride) in pieces(&path) {
        let piece = spur::cut(straightened(piece, &ground), &ground);
        if out.points.is_empty() {
            out.points = piece.points;
        } else {
            out.points
                .extend_from_slice(piece.points.get(1..).unwrap_or(&[]));
        }
        out.links.extend(piece.links);
        if let Some((points, links)) = ride {
            out.points.extend_from_slice(points);
            out.links.extend_from_slice(links);
        }
    }
    lead_in::lead_in(&mut out, scene, &ground.ctl, settings.gravity, from);
    Some(out)
}

/// A large map's landmarks (`landmarks.rs`), made on the first call; `None` for a map too small for them.
pub(super) fn prepare<'a>(
    map: &'a AgentMap,
    settings: &NavSettings,
) -> Option<&'a landmarks::Landmarks> {
    (map.graph.len() >= landmarks::MIN_NODES).then(|| map.landmarks(bake::threads_of(settings)))
}

/// Whether `map`'s queries need nothing made first: its landmarks are made, or it is too small for them.
pub(super) fn is_prepared(map: &AgentMap) -> bool {
    map.graph.len() < landmarks::MIN_NODES || map.landmarks.get().is_some()
}

/// A* over the agent's graph from `start` to a node of `goals` (sorted) answering for `to`: the goal node
/// reached, with `costs` holding how every node on the way was reached.
fn search(
    map: &AgentMap,
    settings: &NavSettings,
    (start, goals, to): (u32, &[u32], Vec3),
    bound: Option<&Bound<'_>>,
    costs: &mut Costs,
) -> Option<u32> {
    let g = &map.graph;
    let ctl = *g.controller();
    let slack = 2.0 * g.cell();
    // The landmarks' bound too, where given (the larger of two lower bounds is one), lowered by the same amount
    // for every node (`landmarks::SHRINK`), then leaned on ([`LEAN`]). The heap settles the least estimate
    // first, and of equal ones the node reached at the greater cost.
    let less = bound.map_or(0.0, Bound::slack);
    let h = |n: u32| {
        let crow = (flat(g.feet(n), to) - slack).max(0.0);
        (bound.map_or(crow, |b| crow.max(b.at(n))) - less).max(0.0) * (1.0 + LEAN)
    };
    let mut heap = BinaryHeap::new();
    costs.set(start, 0.0, Via::Start);
    heap.push(Reverse((key(h(start)), Reverse(key(0.0)), start)));
    // A goal node a body arrives at counts for `to` (within the contract's `cell·√2` across and a step and two
    // skins up or down); the others answer for `to` as the reach map does but may stand farther (up to two
    // cells across), so the first of those found is kept while the search goes on a little for an arriving one.
    let arrives = |n: u32| {
        let p = g.feet(n);
        flat(p, to) <= g.cell() * std::f32::consts::SQRT_2
            && (p.y - to.y).abs() <= ctl.max_step + 2.0 * ctl.skin
    };
    let mut fallback: Option<(f32, u32)> = None;
    while let Some(Reverse((k, Reverse(reached), n))) = heap.pop() {
        if fallback.is_some_and(|(c, _)| f32::from_bits(k) > c + AROUND_GOAL) {
            break;
        }
        let Some((cost, _)) = costs.get(n) else {
            continue;
        };
        // A stale entry: the node was reached more cheaply since (and pushed again).
        if reached > key(cost) {
            continue;
        }
        if goals.binary_search(&n).is_ok() {
            if arrives(n) {
                return Some(n);
            }
            if fallback.is_none() {
                fallback = Some((cost, n));
            }
        }
        let at = g.feet(n);
        let mut relax = |m: u32, step: f32, via: Via| {
            let c = cost + step;
            if costs.get(m).is_none_or(|(b, _)| c < b) {
                let left = h(m);
                // Infinite: no goal is reachable from `m`.
                if left.is_finite() {
                    costs.set(m, c, via);
                    heap.push(Reverse((key(c + left), Reverse(key(c)), m)));
                }
            }
        };
        map.each_edge(n, |m, step, via| {
            // A drop (a move ending more than a step lower) only where the settings allow drops.
            let drop = matches!(via, Via::Move(_)) && at.y - g.feet(m).y > ctl.max_step;
            if settings.drops || !drop {
                relax(m, step, via);
            }
        });
    }
    fallback.map(|(_, n)| n)
}

/// A walking piece of a path and the ride step after it (its boarding point, far point and landing, and
/// their three links).
type Piece<'a> = (NavPath, Option<(&'a [Vec3], &'a [NavLink])>);

/// The path cut at its ride steps: each walking piece (from the start or a landing to a waiting place or the
/// end) with the ride step that follows it.
fn pieces(path: &NavPath) -> Vec<Piece<'_>> {
    let (points, links) = (&path.points, &path.links);
    let mut out = Vec::new();
    let mut begin = 0;
    let mut i = 0;
    while i < links.len() {
        if matches!(links[i], NavLink::Ride { .. }) && i + 3 <= links.len() && points.len() > i + 3
        {
            let piece = NavPath {
                points: points[begin..=i].to_vec(),
                links: links[begin..i].to_vec(),
            };
            out.push((piece, Some((&points[i + 1..=i + 3], &links[i..i + 3]))));
            begin = i + 3;
            i += 3;
        } else {
            i += 1;
        }
    }
    let rest = NavPath {
        points: points[begin.min(points.len())..].to_vec(),
        links: links[begin.min(links.len())..].to_vec(),
    };
    out.push((rest, None));
    out
}

/// The path from the search's parents: node feet, with each jump's landing point after its take-off.
fn unwind(map: &AgentMap, costs: &Costs, goal: u32) -> Option<NavPath> {
    let g = &map.graph;
    let ctl = g.controller();
    let mut chain = vec![(goal, Via::Start)];
    let mut n = goal;
    loop {
        let (_, via) = costs.get(n)?;
        let last = chain.len() - 1;
        chain[last].1 = via;
        n = match via {
            Via::Start => break,
            Via::Move(p) => p,
            Via::Jump(i) => map.jumps[i as usize].from,
            Via::Ride(i) => map.rides[i as usize].from,
        };
        chain.push((n, Via::Start));
        if chain.len() > g.len() + 1 {
            return None;
        }
    }
    chain.reverse();
    let mut path = NavPath {
        points: vec![g.feet(chain[0].0)],
        links: Vec::new(),
    };
    for &(node, via) in &chain[1..] {
        let prev = *path.points.last()?;
        let feet = g.feet(node);
        if let Via::Ride(i) = via {
            let r = &map.rides[i as usize];
            let ride = NavLink::Ride { mover: r.object };
            path.links
                .extend([ride, ride, move_link(ctl, r.land, feet)]);
            path.points.extend([r.board, r.land, feet]);
        } else if let Via::Jump(i) = via {
            let landing = map.jumps[i as usize].landing;
            path.links.push(NavLink::Jump {
                height: landing.y - prev.y,
                length: flat(landing, prev),
            });
            path.points.push(landing);
            if landing.distance(feet) > 0.01 {
                path.links.push(move_link(ctl, landing, feet));
                path.points.push(feet);
            }
        } else {
            // A move that landed off the place's feet (stopped in its column) goes by where it landed.
            let by = match via {
                Via::Move(p) => g.landing(p, node),
                _ => None,
            };
            let mut at = prev;
            for point in by.into_iter().chain([feet]) {
                path.links.push(move_link(ctl, at, point));
                path.points.push(point);
                at = point;
            }
        }
    }
    Some(path)
}

/// Walk on from the goal node toward `to` itself when a body gets closer to it that way.
fn finish(path: &mut NavPath, scene: &Scene, ctl: &CharacterController, gravity: Vec3, to: Vec3) {
    let Some(&last) = path.points.last() else {
        return;
    };
    let target = Vec3::new(to.x, last.y, to.z);
    if flat(last, to) < 0.02 {
        return;
    }
    if let Some(end) = walks(scene, ctl, gravity, last, target, true)
        && flat(end, to) + 0.01 < flat(last, to)
        && (end.y - to.y).abs() <= ctl.max_step
    {
        path.points.push(end);
        path.links.push(NavLink::Walk);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nav::line::fixture;

    #[test]
    fn prepare_makes_a_large_maps_landmarks_and_nothing_else() {
        use crate::level::Level;
        use crate::nav::NavMap;
        // A 72 m floor at half-metre cells: 20,736 places, just past the landmarks' threshold.
        let text =
            "(version: 2, aabbs: [(id: 1, min: (-36.0, -0.5, -36.0), max: (36.0, 0.0, 36.0))])";
        let scene = Scene::build(&Level::from_ron_str(text).unwrap_or_else(|e| panic!("{e}")));
        let settings = NavSettings {
            cell: 0.5,
            jump: false,
            ..NavSettings::default()
        };
        let map = NavMap::build(&scene, &settings);
        assert!(map.error().is_none(), "{:?}", map.error());
        let agent = &map.maps[map.slots[0]];
        assert!(
            agent.graph.len() >= landmarks::MIN_NODES,
            "{}",
            agent.graph.len()
        );
        assert!(agent.landmarks.get().is_none());
        assert!(!map.is_prepared(0) && map.is_prepared(7));
        map.prepare(0);
        map.prepare(7);
        assert!(map.is_prepared(0));
        assert!(
            agent
                .landmarks
                .get()
                .is_some_and(|m| m.toward(&[0]).is_some())
        );
        // A small map makes none, prepared or not.
        let small = NavMap::build(&fixture::floor("").0, &NavSettings::default());
        assert!(small.is_prepared(0));
        small.prepare(0);
        assert!(small.maps[0].landmarks.get().is_none());
    }

    #[test]
    fn the_landmarks_change_what_the_search_settles_not_what_it_costs() {
        let map = AgentMap::new(fixture::two_walls().1);
        let marks = map.landmarks_from(0, 2);
        let settings = NavSettings::default();
        let g = &map.graph;
        let n = g.len() as u32;
        let mut compared = 0;
        for a in (0..n).step_by(13) {
            for b in (0..n).step_by(17) {
                let to = g.feet(b);
                let goals = g.goal_nodes(to);
                let bound = marks.toward(&goals);
                let cost = |bound: Option<&Bound<'_>>| {
                    astar::with_costs(g.len(), |costs| {
                        let goal = search(&map, &settings, (a, &goals, to), bound, costs)?;
                        costs.get(goal).map(|(c, _)| c)
                    })
                };
                let (plain, marked) = (cost(None), cost(bound.as_ref()));
                match (plain, marked) {
                    // The search leans on its estimates: within `LEAN` of the least, both ways.
                    (Some(p), Some(m)) => {
                        let within = (LEAN + 1e-3) * p.min(m).max(1.0);
                        assert!((p - m).abs() <= within, "{a} -> {b}: {p} vs {m}")
                    }
                    (p, m) => assert_eq!(p.is_some(), m.is_some(), "{a} -> {b}"),
                }
                compared += 1;
            }
        }
        assert!(compared > 500);
    }
}
