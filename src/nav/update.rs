//! Updating a map after an edit: each agent size's graph keeps the moves of the nodes the edit cannot have
//! changed (`MoveGraph::update`), and its jump links the take-offs whose every simulated flight stayed clear of
//! the edit; its ride links are found again whole. What is done again is what a fresh build does there, so
//! the map answers as a fresh build would.

use std::sync::Arc;
use std::time::Instant;

use glam::Vec3;

use super::NavMap;
use super::bake::{self, AgentMap, Flight, TakeOff};
use super::edit::{Edit, edit_between};
use super::footprint::{Footprint, boxes_meet};
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
    let (Some(bounds), Some(before)) = (bounds, map.scene.as_deref()) else {
        return;
    };
    // What the objects say changed (`edit.rs`): nothing, everything, or a box (often far smaller than the
    // one given: the block raised in a room rather than the room).
    let changed = match edit_between(before, scene, changed) {
        Edit::Nothing => {
            map.maps
                .iter_mut()
                .for_each(|m| (m.simulated, m.rechecked) = (0, 0));
            map.stats = bake::stats_of(&map.maps, began);
            return;
        }
        Edit::Everything => {
            *map = NavMap::build(scene, &settings);
            return;
        }
        Edit::Within(b) => b,
    };
    let shared = Arc::new(scene.clone());
    // The agent sizes side by side: each one's update has long single-threaded stretches (the walk over
    // every node that keeps the moves and jumps from before).
    let updated: Vec<Result<AgentMap, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = map
            .maps
            .iter()
            .map(|old| s.spawn(|| update_agent(scene, old, bounds, &settings, changed)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let swept = super::ways::swept(scene);
    let mut maps = Vec::with_capacity(updated.len());
    for m in updated {
        let Ok(mut m) = m else {
            *map = NavMap::build(scene, &settings);
            return;
        };
        // Rides are found again whole: a handful of simulations per mover, and an edit anywhere along a
        // mover's path may change them.
        let rides = ride::find_rides(scene, &Arc::downgrade(&shared), &m.graph, &settings);
        let ways = super::ways::ways(&swept, m.graph.controller());
        m.set_movers(rides, ways);
        maps.push(m);
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
    let mut map = AgentMap::new(graph);
    if settings.jump && ctl.jump_height > 0.0 {
        ((map.jumps, map.flights, map.simulated), map.rechecked) =
            update_jumps(scene, old, &map.graph, &reused, settings, changed);
    }
    Ok(map)
}

/// The node of the old graph each new node is (`None`: new), and the feet of the nodes that came or went (by x).
fn match_nodes(
    graph: &MoveGraph,
    old: &MoveGraph,
    reused: &[u32],
) -> (Vec<Option<u32>>, Vec<Vec3>) {
    let mut seen = vec![false; old.len()];
    let mut moved = Vec::new();
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
                None => moved.push(graph.feet(n as u32)),
            }
            o
        })
        .collect();
    for (o, _) in seen.iter().enumerate().filter(|(_, s)| !**s) {
        moved.push(old.feet(o as u32));
    }
    moved.sort_by(|a, b| a.x.total_cmp(&b.x));
    (same, moved)
}

/// The jump links after the edit: a node's jumps are simulated again when it is new or its rims changed (a
/// neighbouring column's places did), and along each of its directions whose flights came within a body (and
/// a frame's walk) of what changed, or within a cell and a step of a node that came or went (a landing may find
/// another node, or one where none was). The other directions keep their links, each joined to the node
/// nearest its landing now, as a fresh build joins it. With the links, how many directions were kept after their
/// walk search was made again.
fn update_jumps(
    scene: &Scene,
    old: &AgentMap,
    graph: &MoveGraph,
    reused: &[u32],
    settings: &super::NavSettings,
    changed: Aabb,
) -> (bake::Jumps, u64) {
    let ctl = *graph.controller();
    let (cell, step) = (graph.cell(), ctl.max_step);
    let rise = ctl.jump_height + ctl.max_step;
    let (same, moved) = match_nodes(graph, &old.graph, reused);
    let body = ctl.radius + 2.0 * ctl.skin + 0.1;
    // Each node that came or went on its own (their box spans the room when a wall top's corner is one of
    // them, and every flight in the room met it): whether one within `grown` across of x from `x0` to `x1`
    // passes `near`.
    let grown = cell + 0.01;
    let moved_near = |(x0, x1): (f32, f32), near: &dyn Fn(Vec3) -> bool| {
        moved[moved.partition_point(|p| p.x < x0 - grown)..]
            .iter()
            .take_while(|p| p.x <= x1 + grown)
            .any(|&p| near(p))
    };
    let near_seen = |b: &[f32; 4]| {
        boxes_meet(b, &changed, body)
            || moved_near((b[0], b[2]), &|p| boxes_meet(b, &Aabb::new(p, p), grown))
    };
    // The flights' footprints: their box and their strip along the direction flown (`footprint.rs`), and the
    // heights the feet were at. Every sweep a step makes stays within a frame's fall and the snap's probe (or a
    // step down) under the feet, and a step up and the body's height over them (the skins and 5 cm for the
    // frame's motion and rounding); a node that came or went matters to a flight as the node its landing (one of
    // its points) is joined to, within a step up or down.
    let reach = (
        ctl.snap_distance.max(ctl.max_step) + ctl.max_step + 4.0 * ctl.skin + 0.05,
        ctl.height + ctl.max_step + 4.0 * ctl.skin + 0.05,
    );
    let landing_reach = (step + 0.01, step + 0.01);
    let near_flown = |f: &Footprint| {
        f.near_at(&changed, body, reach)
            || moved_near(f.x_range(), &|p| f.holds_at(p, grown, landing_reach))
    };
    // A direction is kept when nothing it simulated came near the edit; where only the walk search that
    // matched walking against its jump did, that search is made again (the flights stand), and the direction
    // kept when it decides as before.
    let rechecked = std::cell::Cell::new(0);
    let keep = |node: u32, f: &Flight| -> Option<Flight> {
        if near_flown(&f.flown) {
            return None;
        }
        if !near_seen(&f.seen) {
            return Some(f.clone());
        }
        let (landing, matched) = f.matched?;
        let to = graph.node_near(landing, cell, step)?;
        let mut seen = bake::NO_BOX;
        let same = bake::walk_matched(graph, settings, (node, to), landing, &mut seen) == matched;
        rechecked.set(rechecked.get() + u64::from(same));
        same.then(|| Flight { seen, ..f.clone() })
    };
    // Each old node's entry in the old flights (`NONE`: none), read node by node below.
    let mut flights_of = vec![NONE; old.graph.len()];
    for (k, f) in old.flights.iter().enumerate() {
        if let Some(at) = flights_of.get_mut(f.0 as usize) {
            *at = k as u32;
        }
    }
    let mut take_offs = Vec::new();
    for (n, o) in same.iter().enumerate() {
        let node = n as u32;
        // New, or its rims changed (a neighbouring column's places did): every direction again. Outside the
        // columns expanded again, no neighbouring column was scanned again: the same rims.
        let kept = match *o {
            Some(o) if reused[n] != NONE || graph.rims(node, rise) == old.graph.rims(o, rise) => {
                // No rims before, the same now: no jumps.
                let Some(tries) = flights_of
                    .get(o as usize)
                    .and_then(|&k| old.flights.get(k as usize))
                else {
                    continue;
                };
                let tries = &tries.1;
                tries.iter().map(|f| keep(node, f)).collect()
            }
            _ => Vec::new(),
        };
        take_offs.push(TakeOff { node, kept });
    }
    // `find_jumps` deals the take-offs out over the settings' threads in turn (they cluster), simulating the
    // directions not kept.
    (
        bake::find_jumps(scene, graph, settings, &take_offs),
        rechecked.get(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::character::CharacterController;
    use crate::level::Level;
    use crate::nav::NavSettings;

    /// A 7 m room on a floor: a wall across part of it, a crate (climbed), a platform (jumped onto) and a
    /// 3 m post in a corner (so the bounds stay whatever the edits do). The boxes are `(id, min, max)`.
    fn room(boxes: &[(u32, Vec3, Vec3)]) -> Scene {
        let mut items = vec!["(id: 1, min: (-3.5, -0.5, -3.5), max: (3.5, 0.0, 3.5))".to_owned()];
        items.push("(id: 2, min: (3.0, 0.0, 3.0), max: (3.5, 3.0, 3.5))".to_owned());
        for (id, a, b) in boxes {
            items.push(format!(
                "(id: {id}, min: ({}, {}, {}), max: ({}, {}, {}))",
                a.x, a.y, a.z, b.x, b.y, b.z
            ));
        }
        let text = format!("(version: 2, aabbs: [{}])", items.join(", "));
        Scene::build(&Level::from_ron_str(&text).unwrap_or_else(|e| panic!("{e}")))
    }

    /// A box of the room: its id, min and max.
    type Box3 = (u32, Vec3, Vec3);

    /// Everything the two maps answer from: each agent size's nodes (feet), moves (so their links and kinds),
    /// jump links and flights, ride links.
    fn assert_same(a: &NavMap, b: &NavMap, what: &str) {
        assert_eq!((&a.slots, a.maps.len()), (&b.slots, b.maps.len()), "{what}");
        for (x, y) in a.maps.iter().zip(&b.maps) {
            let (g, h) = (&x.graph, &y.graph);
            assert_eq!(g.len(), h.len(), "{what}: nodes");
            for n in 0..g.len() as u32 {
                assert_eq!(g.feet(n), h.feet(n), "{what}: node {n}");
                assert_eq!(g.moves(n), h.moves(n), "{what}: node {n}'s moves");
                for &m in g.moves(n) {
                    assert_eq!(g.landing(n, m), h.landing(n, m), "{what}: {n} to {m}");
                }
            }
            assert_eq!(x.jumps, y.jumps, "{what}: jumps");
            assert_eq!(x.flights, y.flights, "{what}: flights");
            assert_eq!(x.rides, y.rides, "{what}: rides");
        }
    }

    /// A chain of edits (a wall added, moved, taken away; a crate raised past a step), each an
    /// update of the map before over the edit's old and new places, for two agent sizes: each the fresh
    /// build of the edited room, node for node, link for link, and the same paths.
    #[test]
    fn each_update_is_the_fresh_build() {
        let small = CharacterController {
            radius: 0.2,
            height: 1.2,
            crouch_height: 0.8,
            ..CharacterController::default()
        };
        let settings = NavSettings {
            agents: vec![CharacterController::default(), small],
            threads: 2,
            ..NavSettings::default()
        };
        let (v, crate_top) = (Vec3::new, 0.3);
        let mut boxes = vec![
            (10, v(-1.0, 0.0, -3.5), v(-0.8, 2.5, 0.5)),
            (11, v(1.0, 0.0, -2.0), v(1.8, crate_top, -1.2)),
            (12, v(0.8, 0.0, 1.0), v(2.4, 0.6, 2.4)),
        ];
        let mut map = NavMap::build(&room(&boxes), &settings);
        assert!(map.error().is_none(), "{:?}", map.error());
        assert!(map.stats().jumps > 0, "jumps onto the platform");
        // What each edit is called, the box it leaves (`None`: taken away), and its id.
        let edits: [(&str, Option<Box3>, u32); 4] = [
            (
                "a wall added",
                Some((13, v(-3.5, 0.0, 2.0), v(-1.5, 2.5, 2.2))),
                13,
            ),
            (
                "the wall moved",
                Some((13, v(-3.5, 0.0, 1.2), v(-1.5, 2.5, 1.4))),
                13,
            ),
            ("the wall taken away", None, 13),
            (
                "the crate raised",
                Some((11, v(1.0, 0.0, -2.0), v(1.8, 0.9, -1.2))),
                11,
            ),
        ];
        let pairs = [
            (v(-3.0, 0.0, -3.0), v(2.0, 0.6, 2.0)),
            (v(-3.0, 0.0, 3.0), v(1.4, 0.9, -1.6)),
        ];
        for (what, edit, id) in edits {
            let was = boxes.iter().position(|b| b.0 == id);
            let mut changed = was.map(|i| Aabb::new(boxes[i].1, boxes[i].2));
            if let Some(i) = was {
                boxes.remove(i);
            }
            if let Some(b) = edit {
                let bx = Aabb::new(b.1, b.2);
                changed = Some(changed.map_or(bx, |c| c.union(&bx)));
                boxes.push(b);
            }
            let scene = room(&boxes);
            let changed = changed.unwrap_or_else(|| panic!("{what}: a box"));
            map.update(&scene, changed);
            let fresh = NavMap::build(&scene, &settings);
            assert_same(&map, &fresh, what);
            for agent in 0..2 {
                for (from, to) in pairs {
                    assert_eq!(
                        map.path(agent, from, to),
                        fresh.path(agent, from, to),
                        "{what}"
                    );
                }
            }
        }
    }

    /// An edit only the walk searches that decide whether walking matches a jump came near (a low block on
    /// the floor a couple of metres from a platform the floor's take-offs jump onto, clear of their flights):
    /// those searches are made again and the directions kept without a flight, and the map is the fresh build.
    #[test]
    fn an_edit_near_only_the_walk_searches_is_decided_again_without_flights() {
        let settings = NavSettings {
            threads: 2,
            ..NavSettings::default()
        };
        let v = Vec3::new;
        let platform = (12, v(0.8, 0.0, 1.0), v(2.4, 0.6, 2.4));
        let map = NavMap::build(&room(&[platform]), &settings);
        assert!(map.stats().jumps > 0, "jumps onto the platform");
        let pebble = (14, v(-1.6, 0.0, 1.4), v(-1.3, 0.2, 1.7));
        let after = room(&[platform, pebble]);
        let mut updated = map.clone();
        updated.update(&after, Aabb::new(pebble.1, pebble.2));
        let fresh = NavMap::build(&after, &settings);
        assert_same(&updated, &fresh, "a pebble");
        let (again, all) = (
            updated.stats().jumps_simulated,
            fresh.stats().jumps_simulated,
        );
        assert!(updated.maps[0].rechecked > 0, "no walk search made again");
        // Measured: 46 of 349, one direction decided again.
        assert!(4 * again < all, "{again} directions flown again of {all}");
    }

    /// The box given is what the caller knows; the objects say what changed: a box that misses the edit, or
    /// one around the whole room, still gives the fresh build, and an update where nothing changed keeps
    /// the map as it is.
    #[test]
    fn the_objects_not_the_box_given_say_what_an_update_redoes() {
        let settings = NavSettings {
            threads: 2,
            ..NavSettings::default()
        };
        let v = Vec3::new;
        let crate_at = |top: f32| (11, v(1.0, 0.0, -2.0), v(1.8, top, -1.2));
        let wall = (10, v(-1.0, 0.0, -3.5), v(-0.8, 2.5, 0.5));
        let before = room(&[wall, crate_at(0.3)]);
        let map = NavMap::build(&before, &settings);
        let after = room(&[wall, crate_at(0.9)]);
        let fresh = NavMap::build(&after, &settings);
        // A box in the far corner, nowhere near the crate raised; and one around the whole room.
        let elsewhere = Aabb::new(v(-3.5, 0.0, 2.5), v(-3.0, 1.0, 3.0));
        let everywhere = Aabb::new(v(-3.5, -0.5, -3.5), v(3.5, 3.0, 3.5));
        for given in [elsewhere, everywhere] {
            let mut updated = map.clone();
            updated.update(&after, given);
            assert_same(&updated, &fresh, "the crate raised");
        }
        assert_eq!(
            edit_between(&before, &after, elsewhere),
            Edit::Within(Aabb::new(v(1.0, 0.0, -2.0), v(1.8, 0.9, -1.2)))
        );
        // Nothing changed: the same map.
        let mut same = map.clone();
        same.update(&room(&[wall, crate_at(0.3)]), everywhere);
        assert_same(&same, &map, "nothing");
    }
}
