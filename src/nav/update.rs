//! Updating a map after an edit: each agent size's graph keeps the moves of the nodes the edit cannot have
//! changed (`MoveGraph::update`), and its jump links the take-offs whose every simulated flight stayed clear of
//! the edit; its ride links are found again whole. What is done again is what a fresh build does there, so
//! the map answers as a fresh build would.

use std::sync::Arc;
use std::time::Instant;

use glam::Vec3;

use super::NavMap;
use super::bake::{self, AgentMap, Flight, JumpLink};
use super::ride;
use crate::character::MoveGraph;
use crate::scene::Scene;
use crate::shape::Aabb;

/// Rebuild what `changed` touched (see [`NavMap::update`]).
pub(super) fn update(map: &mut NavMap, scene: &Scene, changed: Aabb) {
    let began = Instant::now();
    let settings = map.settings.clone();
    let valid = changed.min.is_finite() && changed.max.is_finite();
    let bounds = bake::bounds_of(scene, &settings).ok();
    if map.error.is_some()
        || map.scene.is_none()
        || !valid
        || bounds.is_none()
        || bounds != map.bounds
    {
        *map = NavMap::build(scene, &settings);
        return;
    }
    let Some(bounds) = bounds else {
        return;
    };
    let shared = Arc::new(scene.clone());
    let mut maps = Vec::with_capacity(map.maps.len());
    for old in &map.maps {
        match update_agent(scene, old, bounds, &settings, changed) {
            Ok(mut m) => {
                // Rides are found again whole: a handful of simulations per mover, and an edit anywhere along
                // a mover's path may change them.
                m.rides = ride::find_rides(scene, &Arc::downgrade(&shared), &m.graph, &settings);
                maps.push(m);
            }
            Err(_) => {
                *map = NavMap::build(scene, &settings);
                return;
            }
        }
    }
    map.maps = maps;
    map.scene = Some(shared);
    map.stats = bake::stats_of(&map.maps, began);
}

/// No old node (a node expanded anew, or new).
const NONE: u32 = u32::MAX;

/// One agent size's map after the edit.
fn update_agent(
    scene: &Scene,
    old: &AgentMap,
    bounds: Aabb,
    settings: &super::NavSettings,
    changed: Aabb,
) -> Result<AgentMap, String> {
    let reach = bake::reach_settings(settings, bounds);
    let (graph, reused) = old
        .graph
        .update(scene, bounds, &reach, changed)
        .map_err(|e| e.to_string())?;
    let ctl = *graph.controller();
    let mut map = AgentMap {
        graph,
        jumps: Vec::new(),
        flights: Vec::new(),
        rides: Vec::new(),
    };
    if settings.jump && ctl.jump_height > 0.0 {
        (map.jumps, map.flights) = update_jumps(scene, old, &map.graph, &reused, settings, changed);
    }
    Ok(map)
}

/// The node of the old graph each new node is (`None`: new), and the box of the nodes' feet that came or went.
fn match_nodes(
    graph: &MoveGraph,
    old: &MoveGraph,
    reused: &[u32],
) -> (Vec<Option<u32>>, Option<Aabb>) {
    let mut seen = vec![false; old.len()];
    let mut moved: Option<Aabb> = None;
    let mut grow = |p: Vec3| {
        moved = Some(moved.map_or(Aabb::new(p, p), |b| Aabb::new(b.min.min(p), b.max.max(p))));
    };
    let same: Vec<Option<u32>> = reused
        .iter()
        .enumerate()
        .map(|(n, &o)| {
            let o = if o == NONE {
                graph.counterpart(n as u32, old)
            } else {
                Some(o)
            };
            match o {
                Some(o) => seen[o as usize] = true,
                None => grow(graph.feet(n as u32)),
            }
            o
        })
        .collect();
    for (o, _) in seen.iter().enumerate().filter(|(_, s)| !**s) {
        grow(old.feet(o as u32));
    }
    (same, moved)
}

/// The jump links after the edit: a node's jumps are simulated again when it is new, its rims changed (a
/// neighbouring column's places did), its flights came within a body (and a frame's walk) of what changed, or
/// within a cell and a step of a node that came or went (a landing may find another node, or one where none
/// was). The others keep their links, each joined to the node nearest its landing now, as a fresh build joins
/// it.
fn update_jumps(
    scene: &Scene,
    old: &AgentMap,
    graph: &MoveGraph,
    reused: &[u32],
    settings: &super::NavSettings,
    changed: Aabb,
) -> bake::Jumps {
    let ctl = *graph.controller();
    let (cell, step) = (graph.cell(), ctl.max_step);
    let rise = ctl.jump_height + ctl.max_step;
    let (same, moved) = match_nodes(graph, &old.graph, reused);
    let across = |a: &[f32; 4], b: &Aabb, grow: f32| {
        a[0] - grow <= b.max.x
            && a[2] + grow >= b.min.x
            && a[1] - grow <= b.max.z
            && a[3] + grow >= b.min.z
    };
    let body = ctl.radius + 2.0 * ctl.skin + 0.1;
    let near = |f: &Flight| {
        across(&f.across, &changed, body)
            || moved.is_some_and(|m| {
                let m = Aabb::new(m.min - Vec3::Y * step, m.max + Vec3::Y * step);
                across(&f.across, &m, cell + 0.01)
            })
    };
    let mut again = Vec::new();
    let mut jumps = Vec::new();
    let mut flights = Vec::new();
    for (n, o) in same.iter().enumerate() {
        let n = n as u32;
        let Some(o) = *o else {
            again.push(n);
            continue;
        };
        // Outside the columns expanded again, no neighbouring column was scanned again: the same rims.
        if reused[n as usize] == NONE && graph.rims(n, rise) != old.graph.rims(o, rise) {
            again.push(n);
            continue;
        }
        let k = old.flights.partition_point(|f| f.0 < o);
        match old.flights.get(k).filter(|f| f.0 == o).map(|f| &f.1) {
            // No rims before, the same now: no jumps.
            None => {}
            Some(f) if near(f) => again.push(n),
            Some(f) => {
                flights.push((n, f.clone()));
                for j in old.jumps_from(o) {
                    if let Some(to) = graph.node_near(j.landing, cell, step) {
                        jumps.push(JumpLink {
                            from: n,
                            to,
                            landing: j.landing,
                        });
                    }
                }
            }
        }
    }
    let (new_jumps, new_flights) = bake::find_jumps(scene, graph, settings, &again);
    jumps.extend(new_jumps);
    flights.extend(new_flights);
    jumps.sort_by_key(|j| (j.from, j.to));
    jumps.dedup_by_key(|j| (j.from, j.to));
    flights.sort_by_key(|f| f.0);
    (jumps, flights)
}
