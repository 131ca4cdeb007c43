//! Navigation for every character of a game: paths from anywhere to anywhere that the character controller
//! itself walks, for several agent sizes from one bake.
//!
//! The map is the reachability map's machinery turned global: every place to stand (the same column scan as
//! [`ReachMap`](crate::character::ReachMap)) and every move the map's search could make out of each place, from
//! any start (`character::reach::graph`). So [`NavMap::path`] is `None` exactly where a `ReachMap` built from
//! `from` says `to` is unreachable (with jumps and rides off: the map walks, steps, slides and drops off
//! ledges, as the reach map does, on the scene as it stands). On top of the moves, jump links are found by running [`Body::step`] with `jump` from the
//! places at a rim (a link only where the simulated jump lands on a place).
//!
//! - [`NavSettings`]: the agents (controllers), the grid's cell, the bounds, jumps and drops on or off.
//! - [`NavMap::build`]: one graph per distinct agent size; [`NavMap::update`] after an edit.
//! - [`NavMap::path`]: A* over the graph, then straightened (intermediate points dropped while a body walking
//!   the shortcut, stepped as [`Body::step`] steps it, still gets there on the ground).
//! - [`NavPath::steer`]: the [`BodyInput`] that follows a path from wherever the body is.
//!
//! Ride links ([`NavLink::Ride`], `rides: true`): the movers that have started and come back (`PingPong`,
//! `Loop`; an `OnTrigger` mover only once the scene says it started, a `Once` mover never) join a place
//! beside one end of their path to a place beside the other, where a body steered by [`NavPath::steer`] and
//! stepped with [`Body::step`], the scene time advancing, waits, boards, rides and steps off (simulated at
//! the bake, as jumps are). A path's ride step is three points: the waiting place, the boarding point on the
//! mover's top at the near end and the same point at the far end (two `Ride` links), then the landing. At
//! most [`MAX_RIDE_MOVERS`] movers are considered. A ride's cost counts its worst wait (a whole period of the
//! mover), and a body following a ride step takes as long as the mover makes it wait: more than the walking
//! time the contract bounds a path's following by.
//!
//! Bad input never panics: invalid settings give an empty map whose [`NavMap::error`] says why; a path query
//! with an agent out of range, a point that is not finite, in the air or inside something (no place to stand
//! within 1.5 cells), or an unreachable goal answers `None`.

use std::sync::Arc;

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::character::{Body, BodyInput, CharacterController};
use crate::id::ObjectId;
use crate::scene::Scene;
use crate::shape::Aabb;

mod approach;
mod astar;
mod bake;
mod consts;
mod dominate;
mod edit;
mod footprint;
mod landmarks;
mod lead_in;
mod line;
mod path;
mod pull;
mod ride;
mod spur;
mod steer;
mod straighten;
mod update;
mod ways;

use bake::AgentMap;

/// The most distinct agent sizes one map holds (identical controllers share one graph). More is refused with
/// a clear error, so memory stays bounded (bake several maps instead).
pub const MAX_AGENT_SIZES: usize = 16;

/// The most movers one map considers for ride links (the first in the scene's order), so the bake's time and
/// memory stay bounded.
pub const MAX_RIDE_MOVERS: usize = 32;

/// The speed [`NavPath::steer`] asks for, metres per second.
pub const STEER_SPEED: f32 = 4.0;

/// The seconds the contract gives a body following a path of `length` metres with [`NavPath::steer`] at
/// 60 Hz, rides aside: `1.5 × length / STEER_SPEED + 2 s`.
#[must_use]
pub fn walking_seconds(length: f32) -> f32 {
    1.5 * length / STEER_SPEED + 2.0
}

/// How a navigation map is baked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct NavSettings {
    /// The agent sizes (each a controller: radius, height, step, slope, jump); `path`'s `agent` indexes it.
    pub agents: Vec<CharacterController>,
    /// The grid's cell, metres (0.25).
    pub cell: f32,
    /// The part of the level mapped (`None`: the scene's bounds).
    pub bounds: Option<Aabb>,
    /// Jump links, found by simulating [`Body::step`] with `jump` (true).
    pub jump: bool,
    /// Drop links: falling off a ledge to a place more than `max_step` lower (true).
    pub drops: bool,
    /// Ride links across the movers that have started and come back, found by simulating the ride (true).
    pub rides: bool,
    /// The gravity jumps and the straightening simulate with (the level's; `(0, -9.81, 0)`).
    pub gravity: Vec3,
    /// The most grid columns over all agent sizes together (4,000,000), so memory stays bounded.
    pub max_columns: usize,
    /// Threads for the bake and for the landmarks a large map's first path query makes (0: every core).
    pub threads: usize,
}

impl Default for NavSettings {
    fn default() -> Self {
        Self {
            agents: vec![CharacterController::default()],
            cell: 0.25,
            bounds: None,
            jump: true,
            drops: true,
            rides: true,
            gravity: Vec3::new(0.0, -9.81, 0.0),
            max_columns: 4_000_000,
            threads: 0,
        }
    }
}

/// How one step of a path is made.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum NavLink {
    /// Walking (steps up and down within `max_step` and slopes included).
    Walk,
    /// Walking off a ledge and falling: `height` is the descent, metres (> 0).
    Drop {
        /// How far down the landing is, metres.
        height: f32,
    },
    /// A jump: `height` is the landing's rise over the take-off (negative: lower), `length` the horizontal
    /// distance, metres.
    Jump {
        /// The landing's rise over the take-off, metres.
        height: f32,
        /// The horizontal distance from take-off to landing, metres.
        length: f32,
    },
    /// Riding a mover (a lift or platform) between the ends of its path. A ride step is two such links:
    /// from the waiting place beside the near end to the boarding point on the mover's top there, and from
    /// that point to the same point at the far end (then a walk off to the landing).
    Ride {
        /// The moved object (the box's or the sector's id: what a body standing on it has as its ground).
        mover: ObjectId,
    },
}

/// A ride link of a map ([`NavMap::rides`]): a path's ride step between a waiting place and a landing.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct NavRide {
    /// Where the body waits beside the mover's near end (a place of the map).
    pub wait: Vec3,
    /// Where it stands on the mover's top at the near end.
    pub board: Vec3,
    /// The same point at the far end.
    pub land: Vec3,
    /// Where it steps off to (a place of the map).
    pub landing: Vec3,
    /// The moved object.
    pub mover: ObjectId,
}

/// A path: the points to pass through and how each step between two is made (`links[i]` joins `points[i]`
/// to `points[i + 1]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NavPath {
    /// Feet positions, from near the start to near the goal.
    pub points: Vec<Vec3>,
    /// One link per step: `links.len() == points.len() - 1`.
    pub links: Vec<NavLink>,
}

impl NavPath {
    /// The polyline's length through the points, metres (3D).
    #[must_use]
    pub fn length(&self) -> f32 {
        self.points.windows(2).map(|w| w[0].distance(w[1])).sum()
    }

    /// The input that follows the path from wherever `body` is (see [`STEER_SPEED`]): toward the end of the
    /// nearest segment, or back to the path first when pushed more than a radius off it; `jump` at a jump
    /// link's take-off when grounded; on a ride step, wait beside the mover until it is there, board, stand,
    /// step off at the far end (reading the body's `scene_time` and the ride's timetable, which the map that
    /// made the path registered); slower near the goal, so the body stops there. A function of the path, the
    /// body and the controller (and, for rides, of the map the path came from while it lives).
    #[must_use]
    pub fn steer(&self, body: &Body, controller: &CharacterController) -> BodyInput {
        steer::steer(self, body, controller)
    }
}

/// What a bake made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NavStats {
    /// Distinct agent sizes baked.
    pub agent_sizes: usize,
    /// Nodes (places to stand and landings) over all agent sizes.
    pub nodes: u64,
    /// Moves between them (walks and drops).
    pub moves: u64,
    /// Jump links.
    pub jumps: u64,
    /// Ride links.
    pub rides: u64,
    /// Take-off directions whose jumps were simulated: by a bake, every one tried; by an update, those it
    /// tried again (the others kept their links).
    #[serde(default)]
    pub jumps_simulated: u64,
    /// Seconds the bake took.
    pub seconds: f64,
}

/// A navigation map: for each agent size, every place to stand and the moves between them (see the module).
#[derive(Clone, Debug, Default)]
pub struct NavMap {
    settings: NavSettings,
    /// For each agent of the settings, its graph in `maps`.
    slots: Vec<usize>,
    maps: Vec<AgentMap>,
    /// The scene the map was baked from (paths are straightened against it).
    scene: Option<Arc<Scene>>,
    /// The part of the level mapped (an update over other bounds is a fresh build).
    bounds: Option<Aabb>,
    stats: NavStats,
    error: Option<String>,
}

impl NavMap {
    /// Bake the map of every agent size of `settings` over `scene`. Never fails: invalid settings (no agents,
    /// a cell not finite or under 0.01 m, an invalid controller, more than [`MAX_AGENT_SIZES`] distinct
    /// sizes, more than `max_columns` columns, a scene of planes alone without bounds) give an empty map whose
    /// [`NavMap::error`] says why.
    #[must_use]
    pub fn build(scene: &Scene, settings: &NavSettings) -> NavMap {
        bake::build(scene, settings).unwrap_or_else(|error| NavMap {
            settings: settings.clone(),
            error: Some(error),
            ..NavMap::default()
        })
    }

    /// Rebuild what an edit touched: `changed` bounds what moved in the level (its old and new places; the map
    /// grows it by the agents' sizes itself). Answers as [`NavMap::build`] on the edited scene would. The map
    /// compares its scene with `scene` object by object (by id) and redoes only what lies near the objects
    /// added, removed or changed (nothing, when none was; everything, when a plane was), so a box larger than
    /// the edit costs nothing more; where movers or one-way objects are about, `changed` is taken as given.
    pub fn update(&mut self, scene: &Scene, changed: Aabb) {
        update::update(self, scene, changed);
    }

    /// A path for agent `agent` from `from` to `to`, or `None`: the agent index is out of range, the map is
    /// empty, `from` or `to` is not finite, `from` has no place to stand within 1.5 cells (in the air, inside
    /// something), or `to` is not reachable from there (as [`ReachMap::reachable`](crate::character::ReachMap)
    /// decides: no place reached within a cell and `max_step` of it). The path begins on the place nearest
    /// `from` the search starts on, or at `from` itself with a walk to that place where a body standing at
    /// `from`, steered there, gets there on the ground.
    #[must_use]
    pub fn path(&self, agent: usize, from: Vec3, to: Vec3) -> Option<NavPath> {
        let map = &self.maps[*self.slots.get(agent)?];
        let scene = self.scene.as_deref()?;
        if !(from.is_finite() && to.is_finite()) {
            return None;
        }
        path::find(map, scene, &self.settings, from, to)
    }

    /// Make now what agent `agent`'s path queries would otherwise make on the first one: on a large map
    /// (20,000 places or more) the path search's landmarks, a few Dijkstra searches over the whole map (about
    /// 150 ms on a 100 m maze's 160,000 places, on the settings' threads). Call it where a wait is harmless
    /// (after loading a level, on the thread that built or updated the map) so a game's or an editor's first
    /// query does not pay for it. Nothing for a small map or an agent out of range; the answers are the same
    /// either way.
    pub fn prepare(&self, agent: usize) {
        if let Some(map) = self.slots.get(agent).and_then(|&s| self.maps.get(s)) {
            path::prepare(map, &self.settings);
        }
    }

    /// Whether agent `agent`'s path queries are ready to answer at their own cost: [`NavMap::prepare`] (or a
    /// query) has made what a large map's first query would make, or the map is too small to need it. True
    /// for an agent out of range (its query answers `None` at once).
    #[must_use]
    pub fn is_prepared(&self, agent: usize) -> bool {
        self.slots
            .get(agent)
            .and_then(|&s| self.maps.get(s))
            .is_none_or(path::is_prepared)
    }

    /// The seconds a body following `path` (agent `agent`'s, from this map) with [`NavPath::steer`] at 60 Hz
    /// is given to arrive: the contract's `1.5 × length / STEER_SPEED + 2 s` ([`walking_seconds`]), and
    /// [`NavMap::ride_seconds`] for its ride steps.
    #[must_use]
    pub fn follow_seconds(&self, agent: usize, path: &NavPath) -> f32 {
        walking_seconds(path.length()) + self.ride_seconds(agent, path)
    }

    /// For each ride step of `path` (agent `agent`'s, from this map), the mover's worst wait (a whole period)
    /// and its travel, seconds: what a follow takes beyond the walk's length (a ride's boarding and landing
    /// points are in it, the waiting is not). A ride step this map did not make (or an agent out of range)
    /// counts a minute, the most a ride's simulation at the bake lasts.
    #[must_use]
    pub fn ride_seconds(&self, agent: usize, path: &NavPath) -> f32 {
        let map = self.slots.get(agent).map(|&s| &self.maps[s]);
        ride::ride_steps(&path.links)
            .filter_map(|(i, mover)| {
                let (board, land) = (*path.points.get(i + 1)?, *path.points.get(i + 2)?);
                let found = map.and_then(|m| {
                    let r = m.rides.iter().find(|r| {
                        r.object == mover
                            && r.board.distance(board) < 1e-3
                            && r.land.distance(land) < 1e-3
                    })?;
                    Some((m, r))
                });
                Some(found.map_or(60.0, |(m, r)| {
                    let walk = consts::flat(m.graph.feet(r.from), r.board)
                        + consts::flat(r.land, m.graph.feet(r.to));
                    ((r.cost - walk) / STEER_SPEED).max(0.0)
                }))
            })
            .sum()
    }

    /// Why the map is empty, when it could not be built.
    #[must_use]
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The settings the map was baked with.
    #[must_use]
    pub fn settings(&self) -> &NavSettings {
        &self.settings
    }

    /// What the bake made and how long it took.
    #[must_use]
    pub fn stats(&self) -> &NavStats {
        &self.stats
    }

    /// Whether agent `agent` can stand within a cell of `feet` and `max_step` (a place of its graph there).
    #[must_use]
    pub fn can_stand(&self, agent: usize, feet: Vec3) -> bool {
        let Some(map) = self.slots.get(agent).map(|&s| &self.maps[s]) else {
            return false;
        };
        let g = &map.graph;
        g.spot_near(feet, g.cell(), g.controller().max_step)
            .is_some()
    }

    /// Every place of agent `agent` to stand (its feet), for drawing and tests; empty out of range.
    #[must_use]
    pub fn places(&self, agent: usize) -> Vec<Vec3> {
        self.slots
            .get(agent)
            .map(|&s| {
                let g = &self.maps[s].graph;
                (0..g.len() as u32).map(|n| g.feet(n)).collect()
            })
            .unwrap_or_default()
    }

    /// Agent `agent`'s ride links, for drawing and tests; empty out of range.
    #[must_use]
    pub fn rides(&self, agent: usize) -> Vec<NavRide> {
        self.slots
            .get(agent)
            .map(|&s| {
                let m = &self.maps[s];
                m.rides
                    .iter()
                    .map(|r| NavRide {
                        wait: m.graph.feet(r.from),
                        board: r.board,
                        land: r.land,
                        landing: m.graph.feet(r.to),
                        mover: r.object,
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Agent `agent`'s jump links: take-off, landing, for drawing and tests; empty out of range.
    #[must_use]
    pub fn jumps(&self, agent: usize) -> Vec<(Vec3, Vec3)> {
        self.slots
            .get(agent)
            .map(|&s| {
                let m = &self.maps[s];
                m.jumps
                    .iter()
                    .map(|j| (m.graph.feet(j.from), j.landing))
                    .collect()
            })
            .unwrap_or_default()
    }
}
