//! The bake: one move graph per distinct agent size (identical controllers share one), then the jump links of
//! each, found by simulating the jump.

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use glam::{Vec2, Vec3};

use super::approach::{APPROACH, approached, on_line, slid_back, walks_onto};
use super::astar::Via;
use super::consts::{coming_down, flat, jump_cost, move_cost, rise_off};
use super::dominate;
use super::footprint::Footprint;
use super::landmarks::{self, Landmarks};
use super::ride::{self, RideLink};
use super::ways::{self, Way};
use super::{MAX_AGENT_SIZES, NavMap, NavSettings, NavStats, STEER_SPEED};
use crate::character::{
    Body, BodyInput, CharacterController, CharacterMove, Limit, MoveGraph, ReachSettings,
    on_threads, starts, thread_count,
};
use crate::scene::Scene;
use crate::shape::Aabb;

/// One agent size's map.
#[derive(Clone, Debug)]
pub(super) struct AgentMap {
    /// Its places and moves.
    pub(super) graph: MoveGraph,
    /// Its jump links, by take-off node.
    pub(super) jumps: Vec<JumpLink>,
    /// For each node jumps were tried from (by node), per direction tried, where every simulated flight
    /// went across and the link it made (`update` tries again only the directions whose flights came near an
    /// edit).
    pub(super) flights: Vec<(u32, Vec<Flight>)>,
    /// How many take-off directions the bake or update that made this map simulated jumps along.
    pub(super) simulated: u64,
    /// How many take-off directions the update that made this map kept after matching walking against their
    /// jumps again (their flights stood; `update.rs`).
    pub(super) rechecked: u64,
    /// Its ride links, by waiting node.
    pub(super) rides: Vec<RideLink>,
    /// The movers' ways for its agent (`ways.rs`), and per node whether its feet stand in one (empty
    /// without ways): walking, drops and jumps never go to such a node.
    pub(super) ways: Vec<Way>,
    pub(super) in_way: Vec<bool>,
    /// Where each node's jump and ride links begin (`LinkIndex`), made by the first query that reads them
    /// (`set_movers` forgets it; the jumps are set once, by the bake or an update making the map).
    pub(super) index: OnceLock<LinkIndex>,
    /// The path search's landmarks (`landmarks.rs`), made by the first query on a large map that needs them
    /// (`set_movers` forgets them with the index).
    pub(super) landmarks: OnceLock<Landmarks>,
}

/// For node `n`, its jump links are `jumps[jump[n]..jump[n + 1]]` and its ride links
/// `rides[ride[n]..ride[n + 1]]`: the path search reads a node's links without searching the lists.
#[derive(Clone, Debug, Default)]
pub(super) struct LinkIndex {
    jump: Vec<u32>,
    ride: Vec<u32>,
}

impl LinkIndex {
    /// The index of links sorted by the node they leave (`from`), for `nodes` nodes.
    fn new(nodes: usize, jumps: &[JumpLink], rides: &[RideLink]) -> Self {
        Self {
            jump: starts(nodes, jumps, |j| j.from),
            ride: starts(nodes, rides, |r| r.from),
        }
    }
}

/// Where the jumps simulated from one node along one of its rims' directions went, and what they made: what an
/// update needs to tell whether an edit could change them (it tries again only the directions whose flights
/// came near the edit, decides again only whether walking matches the jump where only the nodes that search
/// looked at did, and keeps the others' links).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Flight {
    /// Where the take-off's feet, the feet over every simulated frame and the node each landing was walked on
    /// to are, across (`footprint.rs`).
    pub(super) flown: Footprint,
    /// The same of the nodes the walk search that may have dropped the link looked at (`dominate.rs`).
    pub(super) seen: [f32; 4],
    /// Where the first flight landed when walking was matched against it, and whether walking matched it (the
    /// link then dropped).
    pub(super) matched: Option<(Vec3, bool)>,
    /// A landing that found no node near it (a node made there since would make a link).
    pub(super) missed: Option<Vec3>,
    /// Where the link this direction made lands (joined to the node nearest it, within a cell and a step).
    pub(super) landing: Option<Vec3>,
}

/// A box across (`min x, min z, max x, max z`) that holds nothing yet.
pub(super) const NO_BOX: [f32; 4] = [
    f32::INFINITY,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NEG_INFINITY,
];

/// `b` grown to hold `feet` across.
fn grow(b: &mut [f32; 4], feet: Vec3) {
    *b = [
        b[0].min(feet.x),
        b[1].min(feet.z),
        b[2].max(feet.x),
        b[3].max(feet.z),
    ];
}

impl Flight {
    /// A flight from `feet` along `dir` that has not gone anywhere yet.
    fn new(feet: Vec3, dir: Vec2) -> Self {
        Self {
            flown: Footprint::new(feet, dir),
            seen: NO_BOX,
            matched: None,
            missed: None,
            landing: None,
        }
    }
}

/// A node to find jump links from: per direction of its rims (in `MoveGraph::rims` order), what an earlier
/// bake found there, kept (`Some`), or `None` to be simulated. `kept` is empty (a bake: every direction is
/// simulated) or holds one entry for each of the node's rims now (an update keeps a node's directions only where
/// its rims are the ones they were made for).
#[derive(Clone, Debug)]
pub(super) struct TakeOff {
    pub(super) node: u32,
    pub(super) kept: Vec<Option<Flight>>,
}

impl TakeOff {
    /// The directions to fly from: the node's rims (`rims`), or none to find when every direction is kept.
    fn directions(&self, rims: impl FnOnce() -> Vec<Vec2>) -> Vec<Option<Vec2>> {
        if !self.kept.is_empty() && self.kept.iter().all(Option::is_some) {
            vec![None; self.kept.len()]
        } else {
            rims().into_iter().map(Some).collect()
        }
    }
}

/// A jump found by simulation: from a node's feet, the wish held along `dir`, lands at `landing`, within a cell
/// and a step of node `to`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct JumpLink {
    /// Take-off node.
    pub(super) from: u32,
    /// Landing node.
    pub(super) to: u32,
    /// Where the simulated jump landed.
    pub(super) landing: Vec3,
}

impl AgentMap {
    /// A map of `graph`'s places and moves with no links yet.
    pub(super) fn new(graph: MoveGraph) -> Self {
        Self {
            graph,
            jumps: Vec::new(),
            flights: Vec::new(),
            simulated: 0,
            rechecked: 0,
            rides: Vec::new(),
            ways: Vec::new(),
            in_way: Vec::new(),
            index: OnceLock::new(),
            landmarks: OnceLock::new(),
        }
    }

    /// Its ride links (sorted by waiting node) and the movers' ways set, the link index made again.
    pub(super) fn set_movers(&mut self, rides: Vec<RideLink>, ways: Vec<Way>) {
        self.rides = rides;
        self.in_way = ways::nodes_in(&self.graph, &ways);
        self.ways = ways;
        self.index.take();
        self.landmarks.take();
    }

    /// The path search's landmarks, made on the first call (on up to `threads` threads).
    pub(super) fn landmarks(&self, threads: usize) -> &Landmarks {
        self.landmarks
            .get_or_init(|| self.landmarks_from(landmarks::MIN_NODES, threads))
    }

    /// This map's landmarks when it has `min` nodes or more (none otherwise), made on up to `threads` threads.
    pub(super) fn landmarks_from(&self, min: usize, threads: usize) -> Landmarks {
        Landmarks::at_least(
            self.graph.len(),
            &|n, f| self.each_edge(n, |m, cost, _| f(m, cost)),
            min,
            threads,
        )
    }

    /// Every edge out of node `n` at the path search's cost: `f(to, cost, how)` for each move (walk or drop),
    /// jump link and ride link, in that order; moves and jumps to a node in a mover's way left out.
    pub(super) fn each_edge(&self, n: u32, mut f: impl FnMut(u32, f32, Via)) {
        let g = &self.graph;
        let at = g.feet(n);
        let in_way = |m: u32| self.in_way.get(m as usize).copied().unwrap_or(false);
        for &m in g.moves(n) {
            if !in_way(m) {
                f(m, move_cost(at, g.feet(m)), Via::Move(n));
            }
        }
        let (first, jumps) = self.jumps_from(n);
        for (i, j) in jumps.iter().enumerate() {
            if in_way(j.to) {
                continue;
            }
            f(
                j.to,
                jump_cost(at, j.landing),
                Via::Jump((first + i) as u32),
            );
        }
        let (first, rides) = self.rides_from(n);
        for (i, r) in rides.iter().enumerate() {
            f(r.to, r.cost, Via::Ride((first + i) as u32));
        }
    }

    /// The jump links out of node `n`, with the index of the first.
    pub(super) fn jumps_from(&self, n: u32) -> (usize, &[JumpLink]) {
        let (lo, hi) = self.span(n, |x| &x.jump);
        (lo, self.jumps.get(lo..hi).unwrap_or(&[]))
    }

    /// The ride links out of node `n`, with the index of the first.
    pub(super) fn rides_from(&self, n: u32) -> (usize, &[RideLink]) {
        let (lo, hi) = self.span(n, |x| &x.ride);
        (lo, self.rides.get(lo..hi).unwrap_or(&[]))
    }

    /// Where node `n`'s links begin and end in the list `of` picks from the index.
    fn span(&self, n: u32, of: impl Fn(&LinkIndex) -> &Vec<u32>) -> (usize, usize) {
        let index = self
            .index
            .get_or_init(|| LinkIndex::new(self.graph.len(), &self.jumps, &self.rides));
        let start = of(index);
        let at = |k: usize| start.get(k).map_or(0, |&v| v as usize);
        (at(n as usize), at(n as usize + 1))
    }
}

/// Simulated frames per second (`steer` and `path` still name it here).
pub(super) use super::consts::HZ;

/// Check the settings and find the bounds, or say why not.
pub(super) fn bounds_of(scene: &Scene, settings: &NavSettings) -> Result<Aabb, String> {
    if settings.agents.is_empty() {
        return Err("no agents: give at least one character controller".into());
    }
    for (i, a) in settings.agents.iter().enumerate() {
        if let Some((field, message)) = a.problems().into_iter().next() {
            return Err(format!("agent {i}: character {field} {message}"));
        }
    }
    let cell = settings.cell;
    if !(cell.is_finite() && cell >= 0.01) {
        return Err(format!("the cell must be at least 0.01 m (is {cell})"));
    }
    if !settings.gravity.is_finite() {
        return Err("the gravity must be finite".into());
    }
    let b = match settings.bounds {
        Some(b) => b,
        None => scene.bounds().ok_or_else(|| {
            "the scene has no bounded objects (planes alone): give NavSettings::bounds".to_owned()
        })?,
    };
    if !(b.is_valid() && b.min.x < b.max.x && b.min.z < b.max.z) {
        return Err(format!(
            "the bounds must be finite with some width and depth (are {:?} to {:?})",
            b.min, b.max
        ));
    }
    Ok(b)
}

/// The distinct agent sizes (first appearance first) and, for each agent, its slot.
fn distinct(agents: &[CharacterController]) -> (Vec<CharacterController>, Vec<usize>) {
    let mut sizes: Vec<CharacterController> = Vec::new();
    let slots = agents
        .iter()
        .map(|a| {
            sizes.iter().position(|s| s == a).unwrap_or_else(|| {
                sizes.push(*a);
                sizes.len() - 1
            })
        })
        .collect();
    (sizes, slots)
}

/// Bake every agent size, or say why not.
pub(super) fn build(scene: &Scene, settings: &NavSettings) -> Result<NavMap, String> {
    let began = Instant::now();
    let bounds = bounds_of(scene, settings)?;
    let (sizes, slots) = distinct(&settings.agents);
    if sizes.len() > MAX_AGENT_SIZES {
        return Err(format!(
            "{} distinct agent sizes, more than the {MAX_AGENT_SIZES} one map holds: bake several maps",
            sizes.len()
        ));
    }
    let columns = ((bounds.max.x - bounds.min.x) / settings.cell).ceil() as f64
        * ((bounds.max.z - bounds.min.z) / settings.cell).ceil() as f64;
    let total = columns * sizes.len() as f64;
    if total > settings.max_columns as f64 {
        return Err(format!(
            "the map would have {total:.0} columns ({} agent sizes, {:.0} m by {:.0} m at {} m cells), more \
             than the limit of {}: give smaller bounds or a larger cell",
            sizes.len(),
            bounds.max.x - bounds.min.x,
            bounds.max.z - bounds.min.z,
            settings.cell,
            settings.max_columns
        ));
    }
    // The scene the map keeps; its rides' timetables are registered against it.
    let shared = Arc::new(scene.clone());
    let mut maps = Vec::with_capacity(sizes.len());
    let swept = ways::swept(scene);
    for ctl in &sizes {
        let mut m = bake_agent(scene, ctl, bounds, settings)?;
        let rides = ride::find_rides(scene, &Arc::downgrade(&shared), &m.graph, settings);
        let ways = ways::ways(&swept, m.graph.controller());
        m.set_movers(rides, ways);
        maps.push(m);
    }
    let mut map = NavMap {
        settings: settings.clone(),
        slots,
        maps,
        scene: Some(shared),
        bounds: Some(bounds),
        stats: NavStats::default(),
        error: None,
    };
    map.stats = stats_of(&map.maps, began);
    Ok(map)
}

/// The counts of a bake.
pub(super) fn stats_of(maps: &[AgentMap], began: Instant) -> NavStats {
    NavStats {
        agent_sizes: maps.len(),
        nodes: maps.iter().map(|m| m.graph.len() as u64).sum(),
        moves: maps.iter().map(|m| m.graph.edge_count() as u64).sum(),
        jumps: maps.iter().map(|m| m.jumps.len() as u64).sum(),
        rides: maps.iter().map(|m| m.rides.len() as u64).sum(),
        jumps_simulated: maps.iter().map(|m| m.simulated).sum(),
        seconds: began.elapsed().as_secs_f64(),
    }
}

/// The reach settings one agent's graph is built with.
pub(super) fn reach_settings(settings: &NavSettings, bounds: Aabb) -> ReachSettings {
    ReachSettings {
        cell: settings.cell,
        bounds: Some(bounds),
        max_columns: settings.max_columns,
        threads: settings.threads,
    }
}

/// One agent size's graph and jumps (its rides are found against the scene the map keeps:
/// `ride::find_rides`).
pub(super) fn bake_agent(
    scene: &Scene,
    ctl: &CharacterController,
    bounds: Aabb,
    settings: &NavSettings,
) -> Result<AgentMap, String> {
    let graph = MoveGraph::build(scene, ctl, bounds, &reach_settings(settings, bounds))
        .map_err(|e| e.to_string())?;
    let mut map = AgentMap::new(graph);
    if settings.jump && ctl.jump_height > 0.0 {
        let all: Vec<TakeOff> = (0..map.graph.len() as u32)
            .map(|node| TakeOff {
                node,
                kept: Vec::new(),
            })
            .collect();
        (map.jumps, map.flights, map.simulated) = find_jumps(scene, &map.graph, settings, &all);
    }
    Ok(map)
}

/// The threads the settings allow (`threads`, or every core for 0), from 1 to 64.
pub(super) fn threads_of(settings: &NavSettings) -> usize {
    thread_count(settings.threads)
}

/// Jump links (sorted by take-off); per node jumps were tried from (by node), where the flights along each of
/// its directions went; and how many directions were simulated (the others were kept).
pub(super) type Jumps = (Vec<JumpLink>, Vec<(u32, Vec<Flight>)>, u64);

/// The jump links out of the take-offs `nodes` (sorted by take-off), and where the flights tried from each
/// went: each direction of a take-off's rims kept from before or simulated.
pub(super) fn find_jumps(
    scene: &Scene,
    graph: &MoveGraph,
    settings: &NavSettings,
    nodes: &[TakeOff],
) -> Jumps {
    let threads = threads_of(settings).min(nodes.len().div_ceil(16).max(1));
    let ctl = graph.controller();
    let rise = ctl.jump_height + ctl.max_step;
    let (cell, step) = (graph.cell(), ctl.max_step);
    // Movers carry a body standing on them (and fling one leaving them) by what it stood on, which a body set
    // down does not know: with movers about, every approach is stepped (`take_offs_land`).
    let still = scene.movers().is_empty();
    // Thread `t` takes every `threads`-th node: the take-offs cluster (ledges, crates), so contiguous runs of
    // nodes gave one thread most of the simulations. Each node's links stay on one thread in their order, so
    // the stable sort below gives what one thread would.
    let work = |t: usize| {
        let (mut out, mut flights, mut simulated) = (Vec::new(), Vec::new(), 0);
        for take_off in nodes.iter().skip(t).step_by(threads) {
            let n = take_off.node;
            let mut tries = Vec::new();
            let directions = take_off.directions(|| graph.rims(n, rise));
            for (k, dir) in directions.into_iter().enumerate() {
                let kept = take_off.kept.get(k).cloned().flatten();
                let Some(f) = kept.or_else(|| {
                    simulated += 1;
                    let mut f = Flight::new(graph.feet(n), dir?);
                    f.landing = try_jump(scene, graph, settings, (n, dir?), still, &mut f);
                    Some(f)
                }) else {
                    continue;
                };
                // The link joins the node nearest its landing (as `try_jump` found it, or as it is now).
                if let Some(landing) = f.landing
                    && let Some(to) = graph.node_near(landing, cell, step)
                {
                    out.push(JumpLink {
                        from: n,
                        to,
                        landing,
                    });
                }
                tries.push(f);
            }
            if !tries.is_empty() {
                flights.push((n, tries));
            }
        }
        (out, flights, simulated)
    };
    let parts: Vec<Jumps> = on_threads(threads, work);
    let (mut jumps, mut flights, mut simulated) = (Vec::new(), Vec::new(), 0);
    for (j, f, s) in parts {
        jumps.extend(j);
        flights.extend(f);
        simulated += s;
    }
    jumps.sort_by_key(|j| (j.from, j.to));
    jumps.dedup_by_key(|j| (j.from, j.to));
    flights.sort_by_key(|f| f.0);
    (jumps, flights, simulated)
}

/// Where a jump from `feet` with the wish held along `dir` lands, stepped as [`Body::step`] steps it at 60 Hz
/// (the first step jumps): `None` when it never leaves the ground or does not land within 3 s. `flown` grows to
/// hold every place the feet were.
pub(super) fn simulate_jump(
    scene: &Scene,
    ctl: &CharacterController,
    gravity: Vec3,
    feet: Vec3,
    dir: Vec2,
    flown: &mut Footprint,
) -> Option<Vec3> {
    let mut body = Body::new(feet);
    body.grounded = true;
    fly(scene, ctl, gravity, (body, feet), dir, flown)
}

/// How far aside of its line (metres, horizontally) a flight may be carried before it is given up. A link's
/// landing is within 2 % of the jump's length of the line (`try_jump`), and a flight of at most 3 s at the wish's
/// 4 m/s is at most 12 m long, so a flight this far aside lands on no link unless something pushes it back;
/// such a flight (a diagonal jump sliding along a wall) used to be flown to its landing only to be turned down.
const ASIDE: f32 = 0.5;

/// [`simulate_jump`] from `body` as it is (grounded: its first step jumps) for the take-off `feet`, given up
/// (`None`) once carried [`ASIDE`] of its line, or where steering would take the body for one coming down onto
/// the take-off rather than flying the jump (`coming_down`).
fn fly(
    scene: &Scene,
    ctl: &CharacterController,
    gravity: Vec3,
    (mut body, feet): (Body, Vec3),
    dir: Vec2,
    flown: &mut Footprint,
) -> Option<Vec3> {
    let wish = dir * STEER_SPEED;
    let start = body.feet;
    let mut left = false;
    for frame in 0..(3.0 * HZ) as usize {
        let input = BodyInput {
            wish,
            jump: frame == 0,
            crouch: false,
        };
        let m = body.step(ctl, scene, &input, gravity, 1.0 / HZ);
        if !m.feet.is_finite() || !body.feet.is_finite() {
            return None;
        }
        flown.grow(body.feet);
        // Turned aside: no link is straight enough (see `try_jump`), so the rest of the flight is not needed.
        let d = Vec2::new(body.feet.x - start.x, body.feet.z - start.z);
        if (d - dir * d.dot(dir)).length() > ASIDE {
            return None;
        }
        if coming_down(&body, feet, dir, ctl)
            || thrown_up(&body, start, ctl)
            || cut_short(&m, &body, feet, ctl)
        {
            return None;
        }
        if !body.grounded {
            left = true;
        } else if left {
            return Some(body.feet);
        } else {
            return None;
        }
    }
    None
}

/// How much higher than a jump rises (and a step up onto a rim at its top) a flight may carry the feet before
/// it is given up, metres: the 60 Hz steps' rounding of the flight's top.
const RISE_SLACK: f32 = 0.05;

/// Whether a flight taken off at `start` has carried the body higher than a jump rises: the take-off's height
/// plus `jump_height`, a step onto a rim at the top and [`RISE_SLACK`]. Only something pushing it up does that
/// (a wide body's rounded bottom run up a flight of edges, as up a ramp: on the greybox's stair of sector
/// roofs a 1.28 m body jumping 0.54 m was carried 3.2 m up), which a steered body taking off a little
/// elsewhere does not repeat, and steering's reading of a flight (its top `vy²/2g` above the feet within a
/// step of the take-off's plus the jump's, `steer.rs`) does not hold there.
fn thrown_up(body: &Body, start: Vec3, ctl: &CharacterController) -> bool {
    body.feet.y - start.y > ctl.jump_height + ctl.max_step + 2.0 * ctl.skin + RISE_SLACK
}

/// Whether a flight's head met a ceiling that took more of its rise than steering's reading of a flight
/// allows (the height its feet and vertical speed are worth more than a step and two skins from the take-off's
/// plus `jump_height`, `rise_off`): a body bumped so is no longer read as flying the jump (`steer.rs` turns it
/// back toward the segment before), and under a low ceiling one that is (the bake's own flight, its wish held
/// along the link) may land where steering's never does (the navigation soak's sector seed 33: a 0.4 m body
/// with a 1.2 m jump under a 2 m ceiling jumped, bumped, turned back and jumped again for good). A ceiling's
/// edge met by the head is a corner to the step, not a ceiling, but takes the rise all the same: any contact
/// facing down counts (the sector soak's seed 157: a jump taken off under an edge 4 cm over the head was cut at
/// once; the bake's flight, its wish held along the link, landed, while steering turned the body back).
fn cut_short(m: &CharacterMove, body: &Body, take_off: Vec3, ctl: &CharacterController) -> bool {
    let bumped =
        matches!(m.limit, Some(Limit::Ceiling { .. })) || m.hits.iter().any(|h| h.normal.y < 0.0);
    bumped && rise_off(body, take_off, ctl) > ctl.max_step + 2.0 * ctl.skin
}

/// Where the jump link from node `n` along `dir` lands (the link joins the node nearest it), when the
/// simulated jump lands on a place of the graph more than two cells away, and lands there again taken off
/// wherever a steered body takes off: from the node at rest, and where bodies walking to it (as steering walks,
/// from behind the take-off, from ahead, from either side and between) are on the ground within
/// [`AT`](super::consts::AT) of it. A body that walks up to it but is never on the ground that near (a crest
/// that throws it into the air, a slope it cannot stand on) makes no link. Nor does a jump the moves from `n` match in the path
/// search's cost (`dominate.rs`): it would never be taken. `flight` records what was simulated and decided.
fn try_jump(
    scene: &Scene,
    graph: &MoveGraph,
    settings: &NavSettings,
    (n, dir): (u32, Vec2),
    still: bool,
    flight: &mut Flight,
) -> Option<Vec3> {
    let gravity = settings.gravity;
    let ctl = graph.controller();
    let (cell, step) = (graph.cell(), ctl.max_step);
    let feet = graph.feet(n);
    flight.flown.grow(feet);
    let landing = simulate_jump(scene, ctl, gravity, feet, dir, &mut flight.flown)?;
    if flat(landing, feet) < 2.0 * cell {
        return None;
    }
    let Some(to) = graph.node_near(landing, cell, step) else {
        flight.missed = Some(landing);
        return None;
    };
    // The steering jumps along the link (take-off to landing): the flight must have gone straight (nothing
    // turned it aside), and the jump along the link from every take-off must land there too.
    let along = Vec2::new(landing.x - feet.x, landing.z - feet.z);
    let side = (along - dir * along.dot(dir)).length();
    if side > 0.02 * along.length() {
        return None;
    }
    // A link the moves match in the path search's cost would never be taken: it is not checked further.
    let matched = walk_matched(graph, settings, (n, to), landing, &mut flight.seen);
    flight.matched = Some((landing, matched));
    if matched {
        return None;
    }
    links_from(
        scene,
        graph,
        settings,
        (n, dir, to),
        (landing, still),
        flight,
    )
}

/// Whether the moves from take-off `n` reach `to`, the node nearest where its jump landed (`landing`), at no
/// more than the jump's cost in the path search (`dominate.rs`); `seen` grows to hold the nodes the search
/// looked at.
pub(super) fn walk_matched(
    graph: &MoveGraph,
    settings: &NavSettings,
    (n, to): (u32, u32),
    landing: Vec3,
    seen: &mut [f32; 4],
) -> bool {
    let budget = jump_cost(graph.feet(n), landing);
    dominate::walk_matches(graph, n, to, budget, settings.drops, &mut |p| grow(seen, p))
}

/// The rest of [`try_jump`] once walking does not match the jump from `n` along `dir` that landed at `landing`
/// near node `to`: the jump along the link lands there again from every take-off steering uses.
fn links_from(
    scene: &Scene,
    graph: &MoveGraph,
    settings: &NavSettings,
    (n, dir, to): (u32, Vec2, u32),
    (landing, still): (Vec3, bool),
    flight: &mut Flight,
) -> Option<Vec3> {
    let (gravity, ctl) = (settings.gravity, graph.controller());
    let (cell, step) = (graph.cell(), ctl.max_step);
    let feet = graph.feet(n);
    let aim = Vec2::new(landing.x - feet.x, landing.z - feet.z).normalize_or_zero();
    // Each flight lands near the first, and a body set down there walks on to the node the link joins (the
    // path's next point): one held on a rim's corner by its rounded bottom may not get up onto the tread.
    let node = graph.feet(to);
    flight.flown.grow(node);
    let lands = |at: Vec3| {
        flat(at, landing) <= cell
            && (at.y - landing.y).abs() <= step
            && walks_onto(scene, ctl, gravity, at, node)
    };
    // Along the link itself: where that is the compass direction flown (a jump nothing turned), the same
    // simulation as the first, so the same landing.
    let again = if aim == dir {
        landing
    } else {
        simulate_jump(scene, ctl, gravity, feet, aim, &mut flight.flown)?
    };
    if !lands(again) {
        return None;
    }
    take_offs_land(
        scene,
        graph,
        gravity,
        (n, feet, aim),
        still,
        &mut flight.flown,
        &lands,
    )?;
    Some(landing)
}

/// How high in the skin band over a take-off (a fraction of the skin) the bake sets a body down for the
/// flight from the band's top (`take_offs_land`): near the top, inside it.
const HIGH: f32 = 0.9;

/// `Some` when the jump along `aim` from node `n` (feet `feet`) lands (`lands`) from every take-off steering
/// uses: where bodies walked to it from behind, from ahead, from either side and between are on the ground
/// within [`AT`](super::consts::AT) of it (each way's walk must get there), and where a slide leaves a body
/// that cannot stand still there. `None`: no link.
/// `still` (the scene has no movers) lets an approach along a proven line be set down (`on_line`).
fn take_offs_land(
    scene: &Scene,
    graph: &MoveGraph,
    gravity: Vec3,
    (n, feet, aim): (u32, Vec3, Vec2),
    still: bool,
    flown: &mut Footprint,
    lands: &dyn Fn(Vec3) -> bool,
) -> Option<()> {
    let ctl = graph.controller();
    let diagonal = std::f32::consts::FRAC_1_SQRT_2;
    // Steering walks to the take-off and jumps within `AT` of it, whichever way it came: from behind, from
    // ahead (a path may come to a take-off from the side its jump goes to, walking out along a box top and
    // back over it), from either side and between. Each way's walk must get there; where it does, its flight
    // starts within a millimetre of the take-off (on a slope or against a wall a walk may settle a little
    // differently by way: each is flown unless it stands on the take-off exactly, the flight already made).
    // Where the way back leaves the ground (a rim: no path comes from there) there is no such walk.
    let turns = [
        Vec2::X,
        Vec2::NEG_X,
        Vec2::new(diagonal, diagonal),
        Vec2::new(diagonal, -diagonal),
        Vec2::Y,
        Vec2::NEG_Y,
    ];
    // Where a body cannot stand still (it slides off), every approach must be walked: one that leaves the
    // ground there is the way steering's bodies come too.
    let rests = graph.rests(n);
    // The walks go up to `APPROACH` back from the take-off every way: an edit there may change where they
    // arrive (an update flies such a direction again).
    for corner in [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)] {
        flown.grow(feet + Vec3::new(corner.0, 0.0, corner.1) * APPROACH);
    }
    for turn in turns {
        let way = turn.rotate(aim);
        let body = match still
            .then(|| on_line(scene, graph, (feet, APPROACH), way))
            .flatten()
        {
            Some(body) => Some(body),
            None => approached(scene, ctl, gravity, (feet, APPROACH), way, flown)?,
        };
        let Some(body) = body else {
            if rests {
                continue;
            }
            return None;
        };
        // On the ground a body's state is its feet (the step sets its velocity from the wish): one standing
        // on the take-off exactly flies the flight along the link already made (without movers, which carry
        // a body by what it stands on).
        if still && body.grounded && body.feet == feet {
            continue;
        }
        if !lands(fly(scene, ctl, gravity, (body, feet), aim, flown)?) {
            return None;
        }
    }
    // A body that came down onto the take-off (off a jump or a drop) stands anywhere in the skin band over
    // it (a move settles within a skin without snapping), and walks on at that height: it jumps from the top
    // of the band too. A diagonal jump grazing the rim of a rise beside its take-off landed from rest and hit
    // the rise's wall from 4 mm higher (the navigation soak's sector seed 107).
    let high = Body {
        grounded: true,
        ..Body::new(feet + Vec3::Y * (HIGH * ctl.skin))
    };
    if !lands(fly(scene, ctl, gravity, (high, feet), aim, flown)?) {
        return None;
    }
    // Where a body cannot stand still, steering jumps from wherever the slide lets it get back to.
    if !rests {
        let body = slid_back(scene, ctl, gravity, feet, flown)?;
        if !lands(fly(scene, ctl, gravity, (body, feet), aim, flown)?) {
            return None;
        }
    }
    Some(())
}
