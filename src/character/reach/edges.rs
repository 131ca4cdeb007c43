//! Where the character gets to: a breadth-first exploration from the start in which every step is one move of
//! the controller itself, replayed as a game would (`move_character(scene, at, next - at + (0, -max_step,
//! 0))`), and every place reached is where such a move actually landed — so a path is a chain of exact landings
//! that replays by construction.
//!
//! From each place reached, one move toward each neighbouring column's places (the one nearest in height
//! first). Between two places on one level floor the controller's move is exactly its first sweep (nothing
//! else can change where it ends) when the snap down from the target meets that floor first, so a clear sweep
//! lands on the target itself; any other move is made in
//! full, and its landing kept when the same move aimed at the landing lands there again (within a skin and a
//! millimetre). Where the next column has nothing near the height (a body keeps its radius and skin from a
//! riser or a rim, so places on either side of one are more than a cell apart), moves of two to a few cells
//! find the place up a step or down past a rim (a drop, one way). The frontier of each round is expanded on
//! all cores and merged in order, so the result does not depend on the thread count.

use std::collections::HashMap;

use glam::{Vec2, Vec3};

use super::super::CharacterController;
use super::spots::{Grid, Spot, grown};
use crate::scene::Scene;
use crate::shape::Ray;

/// The four neighbours of a column.
const DIRECTIONS: [(i64, i64); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// Counts of the work done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct EdgeWork {
    /// Single sweeps between level places.
    pub(super) sweeps: u64,
    /// Whole moves of the controller.
    pub(super) moves: u64,
}

/// A place reached: where a move landed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Node {
    /// The feet.
    pub(super) feet: Vec3,
    /// Its column.
    pub(super) column: u32,
    /// The place to stand (from the scan) it is, or `NONE` when it landed where the scan found none.
    pub(super) spot: u32,
    /// The node it was reached from (the start: itself).
    pub(super) parent: u32,
    /// Whether it stands on a level face (normal straight up), where moves to level places are one sweep.
    pub(super) level: bool,
}

impl Node {
    /// Scan place `j` (`spot`) as a node standing on its feet, reached from `parent`.
    pub(super) fn on_spot(spot: &Spot, j: u32, parent: u32) -> Node {
        Node {
            feet: spot.feet,
            column: spot.column,
            spot: j,
            parent,
            level: spot.normal == Vec3::Y,
        }
    }
}

/// Which node a landing is: its scan place, or its column, height in quarter-skin steps and place across in
/// skin steps (`Places::loose_key`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Key {
    Spot(u32),
    Loose(u32, i32, i32, i32),
}

const NONE: u32 = u32::MAX;

/// The places and where they are, shared by the workers.
pub(super) struct Places<'a> {
    pub(super) scene: &'a Scene,
    pub(super) ctl: &'a CharacterController,
    pub(super) grid: &'a Grid,
    pub(super) spots: &'a [Spot],
    /// `spots[col_start[c]..col_start[c + 1]]` are column `c`'s places.
    pub(super) col_start: &'a [u32],
    /// The moves an earlier map made, asked before a move is made, and where the moves made are kept
    /// (`ReachMap::update`'s memo, `memo.rs`).
    pub(super) memo: Option<&'a dyn MoveMemo>,
}

/// What a move would make, by whoever asks: `Places::try_move` on the places the memo is asked from.
pub(super) type MakeMove<'m> = dyn Fn(&mut EdgeWork) -> Option<(Vec3, bool)> + 'm;

/// Moves made before, asked before a move is made (an update's memo: `memo.rs` implements it, so this file
/// needs nothing of that one).
pub(super) trait MoveMemo: Sync {
    /// The landing of the move from `from` aimed at `target` (`None`: refused): the one remembered (its work
    /// counted into `work` as if made), else `make`'s, remembered for the next update.
    fn recall(
        &self,
        from: &Node,
        target: &Spot,
        work: &mut EdgeWork,
        make: &MakeMove<'_>,
    ) -> Option<(Vec3, bool)>;
}

impl Places<'_> {
    fn in_column(&self, c: usize) -> std::ops::Range<usize> {
        self.col_start[c] as usize..self.col_start[c + 1] as usize
    }

    /// Whether a drop from `a` to `b` passes over a gap: a point between the two ends' columns (sampled every
    /// half cell, or radius when smaller) under which nothing lies from a step above `a` down to a step below
    /// `b` (a ray straight down: a gap or a pit lower than the landing). Only over such a gap can a body
    /// walking the drop fall short of where the move's one sweep lands.
    fn over_a_gap(&self, a: Vec3, b: Vec3) -> bool {
        let ctl = self.ctl;
        let (lo, hi) = (b.y - ctl.max_step - 2.0 * ctl.skin, a.y + ctl.max_step);
        let (pa, pb) = (Vec2::new(a.x, a.z), Vec2::new(b.x, b.z));
        let ends = (self.grid.column_near(pa), self.grid.column_near(pb));
        let spacing = (0.5 * self.grid.cell).min(ctl.radius).max(1e-3);
        let samples = ((pb - pa).length() / spacing).ceil().min(4096.0) as usize;
        (1..samples).any(|k| {
            let p = pa.lerp(pb, k as f32 / samples as f32);
            let c = self.grid.column_near(p);
            c != ends.0 && c != ends.1 && {
                let ray = Ray::new(Vec3::new(p.x, hi, p.y), Vec3::NEG_Y);
                self.scene.cast_ray(&ray, hi - lo).is_none()
            }
        })
    }

    /// Whether `y` is within a step up or a snap down of `from`.
    fn within_step(&self, from: f32, y: f32) -> bool {
        let ctl = self.ctl;
        y <= from + ctl.max_step + 2.0 * ctl.skin && y >= from - ctl.snap_distance - 2.0 * ctl.skin
    }

    /// The key of a landing: the scan place in its column within half a step of its height, else its column
    /// and height.
    pub(super) fn key_of(&self, feet: Vec3) -> Option<(Key, u32, u32)> {
        let c = self.grid.column_at(Vec2::new(feet.x, feet.z))?;
        let tol = (self.ctl.max_step * 0.5).max(2.0 * self.ctl.skin);
        let spot = self
            .in_column(c)
            .filter(|&j| (self.spots[j].feet.y - feet.y).abs() <= tol)
            .min_by(|&a, &b| {
                let d = |j: usize| (self.spots[j].feet.y - feet.y).abs();
                d(a).total_cmp(&d(b))
            });
        Some(match spot {
            Some(j) => (Key::Spot(j as u32), c as u32, j as u32),
            None => (self.loose_key(c as u32, feet), c as u32, NONE),
        })
    }

    /// The key of a landing in column `c` that is no scan place: its column, its height in quarter-skin steps
    /// and where it stands across in skin steps. Landings with one key are one node, moved on from where the
    /// first found landed, and the graph (every node in turn) and the reach map (breadth first from a start)
    /// find them in different orders: keyed by column and height alone, two landings 9.5 cm apart in one
    /// column were one node, and from the one the graph kept a body walked out of a corner the reach map's
    /// could not (the sector soak's seed 76).
    fn loose_key(&self, c: u32, feet: Vec3) -> Key {
        let step = (self.ctl.skin * 0.25).max(1e-4);
        // Four height steps: a skin (at least 0.4 mm).
        let across = 4.0 * step;
        let q = |v: f32, s: f32| (v / s).round() as i32;
        Key::Loose(c, q(feet.y, step), q(feet.x, across), q(feet.z, across))
    }

    /// The key of a landing at `feet` that did not land on the place it aimed at: the place of its column at
    /// its height ([`Places::key_of`]) when a move from the landing aimed at that place lands on it (a body
    /// stopped in a corner a cell from its column's place, which a wall keeps it from, is not there), else a
    /// node of its own.
    fn landing_key(&self, feet: Vec3, level: bool, work: &mut EdgeWork) -> Option<(Key, u32, u32)> {
        let (key, column, spot) = self.key_of(feet)?;
        let Key::Spot(j) = key else {
            return Some((key, column, spot));
        };
        let place = &self.spots[j as usize];
        let there = |at: Vec3| at.distance(place.feet) <= self.ctl.skin + 1e-3;
        if there(feet) {
            return Some((key, column, spot));
        }
        let from = Node {
            feet,
            column,
            spot: NONE,
            parent: 0,
            level,
        };
        if self
            .try_move(&from, place, work)
            .is_some_and(|(at, _)| there(at))
        {
            Some((key, column, spot))
        } else {
            Some((self.loose_key(column, feet), column, NONE))
        }
    }

    /// [`Places::try_move`], taken from the memo when there is one.
    fn remembered_move(
        &self,
        from: &Node,
        target: &Spot,
        work: &mut EdgeWork,
    ) -> Option<(Vec3, bool)> {
        match self.memo {
            Some(memo) => memo.recall(from, target, work, &|w| self.try_move(from, target, w)),
            None => self.try_move(from, target, work),
        }
    }

    /// One move from `from` aimed at `target`, kept when it lands on ground where the same move aimed at the
    /// landing lands again: the landing.
    pub(super) fn try_move(
        &self,
        from: &Node,
        target: &Spot,
        work: &mut EdgeWork,
    ) -> Option<(Vec3, bool)> {
        let (feet, level, stepped) = self.one_move(from, target, work)?;
        let flat = Vec2::new(feet.x - from.feet.x, feet.z - from.feet.z).length();
        let drop = feet.y < from.feet.y - self.ctl.max_step - 2.0 * self.ctl.skin;
        // One move of several cells sweeps straight over a pit the body is narrower than; a body walking it
        // step by step falls in: such a move stands only when the walk makes it too, by a body a little
        // narrower (a body arriving a little aside, or one a little narrower than the pit's edges hold, falls
        // in where this one would) and by the agent's own (over a gap a little narrower than the body, the
        // agent's body sinks until both rims hold it, deeper than a step, where the narrower one, falling
        // between them, is thrown up onto the far rim by its rounded edge).
        // And a step up a riser of more than half a step: one move of a cell carries the body over the riser's
        // edge onto the tread, where a body walking it at 60 Hz, lifted a step and carried a frame's walk on,
        // may not get its middle past the edge and stay against the riser (a riser near the step's height
        // under a sloped tread, higher on one side of the body than the other: found by the navigation soak).
        // A drop of more than a cell and a half likewise: one move sweeps over a gap between a ledge and a
        // riser beyond it that a body walking off the ledge (slowly where the snap does not catch the fall, as
        // navigation steers it) falls into and is held in, narrower than the body (the navigation soak's seed
        // 24: a 0.6 m body off a crate's top toward a floor 0.36 m lower past a 0.5 m gap). Walked only where
        // the drop passes over such a gap (`over_a_gap`): the walks of every long drop (off the 40 m maze's
        // wall tops, say) made its navigation bake nearly four times as long.
        // And any step up from feet held off their column's centre (a place the scan set down a skin off a
        // riser or a wall, or a landing stopped against one): a body steered there stands touching what held
        // it, and 60 Hz frames from there may press it into the riser's corner where the one move, from the
        // same feet, stepped over (found by the navigation soak, sector seeds 52 and 80).
        let centre = self.grid.center(from.column as usize);
        let held = Vec2::new(from.feet.x - centre.x, from.feet.z - centre.y).length() > 1e-3;
        // And any move that steps up a riser (session 26, sector seed 159: a 0.1 m riser whose top edge rises
        // along it, beside a wall; a frame's walk onto it was turned along the edge into the wall's corner and
        // stood there, where the one move of a cell carried the body onto the tread). A climb up a slope is no
        // step and is not walked.
        let rise = (held && (!from.level || feet.y - from.feet.y > 2.0 * self.ctl.skin))
            || feet.y - from.feet.y > 0.5 * self.ctl.max_step
            || stepped;
        // A long drop from such feet too: walked off slowly, the body's rounded bottom may meet the corner of
        // the riser beside it, which the controller steps it up onto (carrying it onto the tread, a radius
        // aside), where the one move fell clear (the sector soak's seed 82: a 0.54 m body by a roof 8 cm
        // higher was carried 21 cm onto it on each try and never dropped).
        // Every such walk but a drop's stays on the ground all the way: navigation steers onto the move's end at
        // full speed, and a body that left the ground on the way (thrown up a face too steep to stand on while
        // climbing a 43° slope, or across a gully in the air) arrives flying, carried past the turn or the jump's
        // take-off the next move starts from at rest (two paths on the rolling terrain; a walk from the feet a
        // body steered there stands on, a few millimetres lower, met the face sooner).
        // And a step down off a face that is not level onto one that is (more than two skins down): off a
        // round log's far flank a body walking at 60 Hz comes to where the flank is too steep to stand on,
        // over the floor by more than the skin band, and leaves the ground at full speed, where the one move
        // swept past the log and snapped down (the navigation soak's shapes seed 22: a 0.66 m body off a
        // 0.21 m log flew 0.4 m past the move's end and off the floor's edge). Walking every step down would
        // walk every move down a terrain's slopes.
        let off = !from.level && level && feet.y < from.feet.y - 2.0 * self.ctl.skin;
        let walked = if drop {
            flat > 1.5 * self.grid.cell && (held || self.over_a_gap(from.feet, feet))
        } else {
            flat > 1.5 * self.grid.cell || rise || off
        };
        if walked {
            work.moves += 2;
            let arrives = |ctl: &CharacterController| {
                let end = if drop {
                    super::walk::drops(self.scene, ctl, super::walk::GRAVITY, from.feet, feet)
                } else {
                    super::walk::walks(self.scene, ctl, super::walk::GRAVITY, from.feet, feet, true)
                };
                end.is_some_and(|end| (end.y - feet.y).abs() <= ctl.max_step + 2.0 * ctl.skin)
            };
            if !(arrives(&self.thin()) && arrives(self.ctl)) {
                return None;
            }
        }
        Some((feet, level))
    }

    /// The agent a little narrower (by a quarter of its radius, at most 5 cm) whose walks a move of several
    /// cells must make too: a body arriving a little aside, or one a little narrower than a pit's edges hold,
    /// falls in where the agent's would.
    fn thin(&self) -> CharacterController {
        let margin = (0.25 * self.ctl.radius).min(0.05);
        CharacterController {
            radius: self.ctl.radius - margin,
            skin: self.ctl.skin.min(0.5 * (self.ctl.radius - margin)),
            ..*self.ctl
        }
    }

    /// The move itself (see [`Places::try_move`]).
    /// Answers the landing, whether it stands on a level face, and whether the move stepped up a riser (by more
    /// than two skins).
    fn one_move(
        &self,
        from: &Node,
        target: &Spot,
        work: &mut EdgeWork,
    ) -> Option<(Vec3, bool, bool)> {
        let ctl = self.ctl;
        let level =
            from.level && target.normal == Vec3::Y && (from.feet.y - target.feet.y).abs() <= 1e-5;
        if level {
            work.sweeps += 1;
            let motion = Vec3::new(
                target.feet.x - from.feet.x,
                0.0,
                target.feet.z - from.feet.z,
            );
            if self
                .scene
                .sweep_capsule(&grown(ctl, from.feet), motion)
                .is_none()
            {
                // The move's snap down from there must meet this floor first: a steep face nearer than the
                // floor beside the place (a slanted triangle rising from it) turns the motion's fall into a
                // slide along that face, and the move ends elsewhere. Then the whole move decides.
                let to = from.feet + motion;
                let down = Vec3::NEG_Y * super::super::movement::snap_probe_length(ctl);
                work.sweeps += 1;
                let floor_first =
                    self.scene
                        .sweep_capsule(&grown(ctl, to), down)
                        .is_some_and(|h| {
                            h.normal == Vec3::Y
                                && (h.point.y - target.ground).abs()
                                    <= 1e-4 * (1.0 + target.ground.abs())
                        });
                if floor_first {
                    return Some((to, true, false));
                }
            }
        }
        let down = Vec3::NEG_Y * ctl.max_step;
        work.moves += 1;
        let m = ctl.move_character(self.scene, from.feet, target.feet - from.feet + down);
        let ground = m.ground?;
        let landing = m.feet;
        if landing != target.feet {
            work.moves += 1;
            let again = ctl.move_character(self.scene, from.feet, landing - from.feet + down);
            if again.feet.distance(landing) > ctl.skin + 1e-3 {
                return None;
            }
        }
        let stepped = m.stepped_up > 2.0 * ctl.skin;
        Some((landing, ground.normal == Vec3::Y, stepped))
    }

    /// The moves out of node `n`: every landing of every target tried in each direction (the search goes on
    /// past a landing, up to the first column that holds a place within a step), so the graph (`graph.rs`)
    /// holds each move a search from any start makes from there, and the reach map's search (`explore`)
    /// makes the same ones.
    pub(super) fn expand(
        &self,
        n: u32,
        node: &Node,
        out: &mut Vec<(u32, Node, Key)>,
        work: &mut EdgeWork,
    ) {
        let ctl = self.ctl;
        let reach = ((ctl.radius + 2.0 * ctl.skin) / self.grid.cell).ceil() as i64 + 1;
        for &(di, dk) in &DIRECTIONS {
            for k in 1..=reach.max(2) {
                let Some(c) = self.grid.neighbour(node.column as usize, di * k, dk * k) else {
                    break;
                };
                // Within a step (nearest in height first); past the first cell, also the highest place below.
                // Only places that lie on along the direction (a place nudged within its cell may lie back).
                let dir = Vec3::new(di as f32, 0.0, dk as f32);
                let ahead =
                    |j: usize| (self.spots[j].feet - node.feet).dot(dir) > 0.25 * self.grid.cell;
                let mut targets: Vec<usize> = self
                    .in_column(c)
                    .filter(|&j| ahead(j) && self.within_step(node.feet.y, self.spots[j].feet.y))
                    .collect();
                targets.sort_by(|&a, &b| {
                    let h = |j: usize| (self.spots[j].feet.y - node.feet.y).abs();
                    h(a).total_cmp(&h(b))
                });
                let near = !targets.is_empty();
                if k > 1 {
                    let below = self
                        .in_column(c)
                        .filter(|&j| {
                            ahead(j)
                                && self.spots[j].feet.y
                                    < node.feet.y - ctl.snap_distance - 2.0 * ctl.skin
                        })
                        .max_by(|&a, &b| self.spots[a].feet.y.total_cmp(&self.spots[b].feet.y));
                    targets.extend(below);
                }
                for j in targets {
                    let Some((feet, level)) = self.remembered_move(node, &self.spots[j], work)
                    else {
                        continue;
                    };
                    // Landing on the place aimed at is that place (whatever column a nudged place lies in).
                    let aimed = &self.spots[j];
                    let known = (feet.distance(aimed.feet) <= ctl.skin + 1e-3).then_some((
                        Key::Spot(j as u32),
                        aimed.column,
                        j as u32,
                    ));
                    let Some((key, column, spot)) =
                        known.or_else(|| self.landing_key(feet, level, work))
                    else {
                        continue;
                    };
                    out.push((
                        n,
                        Node {
                            feet,
                            column,
                            spot,
                            parent: n,
                            level,
                        },
                        key,
                    ));
                }
                if near {
                    break;
                }
            }
        }
    }
}

/// Explore from the start node: every node reached (where the move that reached it landed), with the scan place
/// each one is (or `NONE`); where each is moved on from (a place from its own feet); and the work done.
///
/// The moves out of a node are the whole move graph's (`graph.rs`): every landing of every target tried,
/// nothing pruned for being reached, each place moved on from its feet as the graph moves from it. So what the
/// map reaches from a start is what the graph reaches from that start's place, and a navigation path exists
/// where the map says reached (with jumps and rides off). A landing off the places stands where the first move
/// to find it landed, and the search's order and the graph's may pick different moves: its key holds where it
/// stands to a skin across (`Places::loose_key`), so those are at most a skin apart. Moving on from where a move
/// landed instead (within a skin of the place) and trying only targets not yet reached made the two disagree
/// on knife edges: a body 0.23 mm off a place's feet getting out of a pocket the place's feet do not, a move
/// toward a place already reached landing on one that was not.
pub(super) fn explore(
    places: &Places<'_>,
    start: Node,
    threads: usize,
) -> (Vec<Node>, Vec<Vec3>, EdgeWork) {
    let mut nodes = vec![start];
    let mut stood = vec![start];
    let mut reached: HashMap<Key, u32> = HashMap::new();
    // The start is the place it stands on. Its feet's key (`key_of`) named another: a place nudged within its
    // cell lies in a neighbouring column, and that column's place was taken for reached and never moved on
    // from, where the graph moves on from both (the sample levels' seed 110: a wide body's pocket in the
    // gallery, left by that other place only).
    let key = if start.spot == NONE {
        places.key_of(start.feet).map(|(key, _, _)| key)
    } else {
        Some(Key::Spot(start.spot))
    };
    if let Some(key) = key {
        reached.insert(key, 0);
    }
    let mut frontier: Vec<u32> = vec![0];
    let mut work = EdgeWork::default();
    let threads = threads.clamp(1, 64);
    while !frontier.is_empty() {
        let found = expand_all(places, &stood, &frontier, threads, &mut work);
        let mut next = Vec::new();
        for (_, node, key) in found {
            if reached.contains_key(&key) {
                continue;
            }
            let index = nodes.len() as u32;
            reached.insert(key, index);
            stood.push(match key {
                Key::Spot(j) => places
                    .spots
                    .get(j as usize)
                    .map_or(node, |s| Node::on_spot(s, j, node.parent)),
                Key::Loose(..) => node,
            });
            nodes.push(node);
            next.push(index);
        }
        frontier = next;
    }
    let stood = stood.into_iter().map(|n| n.feet).collect();
    (nodes, stood, work)
}

/// One block of the frontier and the moves out of its nodes.
type Block = (usize, Vec<(u32, Node, Key)>);

/// Expand every frontier node (as it stands, `nodes`), on `threads` threads over interleaved blocks, the results
/// in frontier order.
fn expand_all(
    places: &Places<'_>,
    nodes: &[Node],
    frontier: &[u32],
    threads: usize,
    work: &mut EdgeWork,
) -> Vec<(u32, Node, Key)> {
    const BLOCK: usize = 64;
    // Threads are started for each round: a small frontier is expanded on this one (measured on the 100 m
    // maze, rounds of a few blocks cost more to share than they gain).
    const SHARED_FROM: usize = 8 * BLOCK;
    let threads = if frontier.len() < SHARED_FROM {
        1
    } else {
        threads.min(frontier.len().div_ceil(BLOCK)).max(1)
    };
    if threads == 1 {
        let mut out = Vec::new();
        for &n in frontier {
            places.expand(n, &nodes[n as usize], &mut out, work);
        }
        return out;
    }
    // Block `b` on thread `b % threads`: neighbouring blocks (alike in cost) spread over the threads.
    let parts: Vec<(Vec<Block>, EdgeWork)> = super::par::on_threads(threads, |t| {
        let mut blocks = Vec::new();
        let mut w = EdgeWork::default();
        let mut b = t;
        while b * BLOCK < frontier.len() {
            let mut out = Vec::new();
            for &n in &frontier[b * BLOCK..((b + 1) * BLOCK).min(frontier.len())] {
                places.expand(n, &nodes[n as usize], &mut out, &mut w);
            }
            blocks.push((b, out));
            b += threads;
        }
        (blocks, w)
    });
    let mut blocks = Vec::new();
    for (b, w) in parts {
        blocks.extend(b);
        work.sweeps += w.sweeps;
        work.moves += w.moves;
    }
    blocks.sort_by_key(|(b, _)| *b);
    blocks.into_iter().flat_map(|(_, out)| out).collect()
}
