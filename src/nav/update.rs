//! Updating a map after an edit: each agent size's graph keeps the moves of the nodes the edit cannot have
//! changed (`MoveGraph::update`), and its jump links the take-offs whose every simulated flight stayed clear of
//! the edit; its ride links are found again whole. What is done again is what a fresh build does there, so
//! the map answers as a fresh build would.

use std::sync::Arc;
use std::time::Instant;

use super::NavMap;
use super::bake::{self, AgentMap, Flight, JumpLink};
use super::ride;
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
    if !(settings.jump && ctl.jump_height > 0.0) {
        return Ok(map);
    }
    // A flight whose feet came within a body (and a frame's flight) of what changed may go otherwise; one that
    // landed where no node was may find one now. Either is simulated again; the others' links keep their
    // landings, each joined to the node nearest it now (as a fresh build joins it).
    let (cell, step) = (map.graph.cell(), ctl.max_step);
    let grow = ctl.radius + 2.0 * ctl.skin + 0.1;
    let near = |f: &Flight| {
        let a = &f.across;
        (a[0] - grow <= changed.max.x
            && a[2] + grow >= changed.min.x
            && a[1] - grow <= changed.max.z
            && a[3] + grow >= changed.min.z)
            || f.missed
                .iter()
                .any(|&l| map.graph.node_near(l, cell, step).is_some())
    };
    let mut again = Vec::new();
    let mut jumps = Vec::new();
    let mut flights = Vec::new();
    for (n, &o) in reused.iter().enumerate() {
        let n = n as u32;
        if o == u32::MAX {
            again.push(n);
            continue;
        }
        let k = old.flights.partition_point(|f| f.0 < o);
        let flight = old.flights.get(k).filter(|f| f.0 == o).map(|f| &f.1);
        match flight {
            None => {}
            Some(f) if near(f) => again.push(n),
            Some(f) => {
                flights.push((n, f.clone()));
                for j in old.jumps_from(o) {
                    if let Some(to) = map.graph.node_near(j.landing, cell, step) {
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
    let (new_jumps, new_flights) = bake::find_jumps(scene, &map.graph, settings, &again);
    jumps.extend(new_jumps);
    flights.extend(new_flights);
    jumps.sort_by_key(|j| (j.from, j.to));
    jumps.dedup_by_key(|j| (j.from, j.to));
    flights.sort_by_key(|f| f.0);
    map.jumps = jumps;
    map.flights = flights;
    Ok(map)
}
