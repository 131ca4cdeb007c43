//! A map made again after an edit ([`ReachMap::update`]), answering as a fresh build: the places of the columns
//! away from the edit are the old map's, and every move the exploration asks for that an earlier map made away
//! from the edit is taken from it instead of being made again. Only the exploration's order and its tests
//! (which place is reached already) are run again in full, so the result is the fresh build's, node for node.
//!
//! Why that holds: a column's places depend on what lies within a cell and two bodies of its centre (the body
//! nudged within its cell, the opening measured a body's width each side: `spots.rs`), and a move
//! (`edges.rs`'s `try_move`) is a function of its start, the place aimed at, the controller, the cell and the
//! scene near its way. The move's body never gets farther from its start than the motion's length, and the
//! walk that checks a long move no farther than half as long again as it plus ten frames (`walk.rs`): what
//! lies beyond that, with a body and a metre to spare, cannot change it. Nothing is assumed of heights: every
//! column is whole.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use glam::{Vec2, Vec3};

use super::edges::{EdgeWork, MakeMove, MoveMemo, Node};
use super::spots::{Found, Grid, Spot, find_spots, scan_columns};
use super::{Built, ReachError, ReachMap, ReachSettings};
use crate::character::CharacterController;
use crate::scene::Scene;
use crate::shape::Aabb;

/// A move asked for: its start's feet and whether they stand on a level face, and the place aimed at (feet,
/// normal, ground), bit for bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct MoveKey([u32; 11]);

impl Hash for MoveKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for v in self.0 {
            state.write_u32(v);
        }
    }
}

impl MoveKey {
    fn of(from: &Node, to: &Spot) -> Self {
        let b = f32::to_bits;
        Self([
            b(from.feet.x),
            b(from.feet.y),
            b(from.feet.z),
            u32::from(from.level),
            b(to.feet.x),
            b(to.feet.y),
            b(to.feet.z),
            b(to.normal.x),
            b(to.normal.y),
            b(to.normal.z),
            b(to.ground),
        ])
    }

    fn from(&self) -> Vec3 {
        Vec3::new(
            f32::from_bits(self.0[0]),
            f32::from_bits(self.0[1]),
            f32::from_bits(self.0[2]),
        )
    }

    fn to(&self) -> Vec3 {
        Vec3::new(
            f32::from_bits(self.0[4]),
            f32::from_bits(self.0[5]),
            f32::from_bits(self.0[6]),
        )
    }

    /// How far from its start anything the move (and the walk that checks it) touches can lie across (see the
    /// module).
    fn reach(&self, ctl: &CharacterController) -> f32 {
        let motion = self.from().distance(self.to()) + ctl.max_step;
        2.0 * motion + ctl.radius + 4.0 * ctl.skin + 1.0
    }
}

/// What a move made: its landing (`None`: refused) and the work it took, so an update counts the same work as
/// a fresh build.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Made {
    landing: Option<(Vec3, bool)>,
    sweeps: u32,
    moves: u32,
}

/// A multiply-rotate hash for the keys, with a final mix so the low bits (the table's bucket) depend on every
/// word (floats as bits end in runs of zeros; the standard hasher is several times slower here).
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u32(u32::from(b));
        }
    }

    fn write_u32(&mut self, v: u32) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(v)).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn finish(&self) -> u64 {
        // MurmurHash3's 64-bit finaliser.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

type Moves = HashMap<MoveKey, Made, BuildHasherDefault<KeyHasher>>;

/// The moves a map made, kept for its next update.
#[derive(Clone, Default)]
pub(super) struct Kept(Option<Arc<Moves>>);

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} moves kept", self.len())
    }
}

impl Kept {
    fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |m| m.len())
    }

    /// The moves that start far enough from `changed` (across) to be the same in the edited scene.
    fn away_from(&self, changed: &Aabb, ctl: &CharacterController) -> Moves {
        let Some(moves) = &self.0 else {
            return Moves::default();
        };
        // A copy of the table (its entries are plain data), thinned in place: no entry is hashed again.
        let mut kept = (**moves).clone();
        let (lo, hi) = (
            Vec2::new(changed.min.x, changed.min.z),
            Vec2::new(changed.max.x, changed.max.z),
        );
        if lo.x <= hi.x && lo.y <= hi.y {
            kept.retain(|k, _| {
                let from = k.from();
                let p = Vec2::new(from.x, from.z);
                p.clamp(lo, hi).distance(p) > k.reach(ctl)
            });
        }
        // Else nothing changed: every move stands.
        kept
    }
}

/// The moves an update may take from the map before, and the moves it makes (kept with them for the next
/// update).
pub(super) struct Memo {
    old: Moves,
    /// Moves asked for, made or taken.
    asked: AtomicUsize,
    made: Mutex<Vec<(MoveKey, Made)>>,
}

impl Memo {
    fn new(old: Moves) -> Self {
        Self {
            old,
            asked: AtomicUsize::new(0),
            made: Mutex::new(Vec::new()),
        }
    }

    /// The moves for the next update: those taken and those made. Moves of the map before that no longer
    /// came up are kept too (a later edit may bring them back) until the moves kept are more than twice those
    /// asked for; then only the moves made are kept (the next update makes the others again), so memory stays
    /// within a few maps' moves.
    fn into_kept(self) -> Kept {
        let made = self
            .made
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let asked = self.asked.into_inner();
        let mut moves = self.old;
        if moves.len() > 2 * asked {
            moves.clear();
        }
        moves.extend(made);
        Kept(Some(Arc::new(moves)))
    }
}

impl MoveMemo for Memo {
    fn recall(
        &self,
        from: &Node,
        target: &Spot,
        work: &mut EdgeWork,
        make: &MakeMove<'_>,
    ) -> Option<(Vec3, bool)> {
        self.asked.fetch_add(1, Ordering::Relaxed);
        let key = MoveKey::of(from, target);
        if let Some(m) = self.old.get(&key) {
            work.sweeps += u64::from(m.sweeps);
            work.moves += u64::from(m.moves);
            return m.landing;
        }
        let before = *work;
        let landing = make(work);
        let made = Made {
            landing,
            sweeps: (work.sweeps - before.sweeps) as u32,
            moves: (work.moves - before.moves) as u32,
        };
        // A worker that panicked leaves the list as it was: what it holds is still right.
        self.made
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((key, made));
        landing
    }
}

impl ReachMap {
    /// The map [`ReachMap::try_build`] would make over the edited `scene` (with the same controller, start and
    /// settings arguments), made from `self` (a map of the scene before the edit): `changed` bounds what the
    /// edit moved, its old and new places. The columns away from it keep their places and the moves away from
    /// it are not made again, so an edit costs about what it touches. A box with its minimum above its maximum
    /// (across) says nothing changed; a box that is not finite says anything may have (a fresh build). A map
    /// with another controller or cell, or one that could not be built, is no help: a fresh build. Either way
    /// the map returned keeps its moves for its own next update (about 80 bytes a move, a few moves a place).
    ///
    /// # Errors
    /// As [`ReachMap::try_build`].
    pub fn update(
        &self,
        scene: &Scene,
        controller: &CharacterController,
        start_feet: Vec3,
        settings: &ReachSettings,
        changed: Aabb,
    ) -> Result<ReachMap, ReachError> {
        let began = Instant::now();
        let (grid, threads) = Self::prepare(scene, controller, start_feet, settings)?;
        let everything = !(changed.min.is_finite() && changed.max.is_finite());
        let same = !everything
            && self.error.is_none()
            && self.controller == *controller
            && self.grid.is_some_and(|g| g.cell == grid.cell);
        let found = match self.grid {
            Some(g) if same && g == grid => self.respot(scene, &grid, &changed, threads),
            _ => find_spots(scene, controller, &grid, threads),
        };
        let memo = Memo::new(if same {
            self.moves.away_from(&changed, controller)
        } else {
            Moves::default()
        });
        let built = Built {
            grid,
            found,
            threads,
            began,
        };
        let mut map = Self::finish(scene, *controller, start_feet, built, Some(&memo))?;
        map.moves = memo.into_kept();
        Ok(map)
    }

    /// The places with the columns near `changed` scanned again (on `threads` threads) and the others kept.
    fn respot(&self, scene: &Scene, grid: &Grid, changed: &Aabb, threads: usize) -> Found {
        let columns = near_columns(grid, changed, &self.controller);
        let mut again = scan_columns(scene, &self.controller, grid, &columns, threads);
        let mut found = Found {
            spots: Vec::with_capacity(self.spots.len()),
            col_start: Vec::with_capacity(self.col_start.len()),
            rejected: Vec::with_capacity(self.rejected.len()),
            rej_start: Vec::with_capacity(self.rej_start.len()),
            empty: Vec::with_capacity(self.empty.len()),
        };
        found.col_start.push(0);
        found.rej_start.push(0);
        for c in 0..grid.columns() {
            if let Some(col) = again.remove(&c) {
                found.spots.extend(col.spots);
                found.rejected.extend(col.rejected);
                found.empty.push(col.empty);
            } else {
                let (s, r) = (self.in_column(c), self.rej_start[c]..self.rej_start[c + 1]);
                found.spots.extend_from_slice(&self.spots[s]);
                found
                    .rejected
                    .extend_from_slice(&self.rejected[r.start as usize..r.end as usize]);
                found.empty.push(self.empty[c]);
            }
            found.col_start.push(found.spots.len() as u32);
            found.rej_start.push(found.rejected.len() as u32);
        }
        found
    }
}

/// The columns whose places what lies in `changed` may change: those within a cell and two bodies of it
/// across (see the module), with a little to spare; none for an empty box.
fn near_columns(grid: &Grid, changed: &Aabb, ctl: &CharacterController) -> Vec<usize> {
    let margin = 2.0 * grid.cell + 2.0 * (ctl.radius + 2.0 * ctl.skin) + 0.1;
    let lo = (Vec2::new(changed.min.x, changed.min.z) - margin - grid.min) / grid.cell;
    let hi = (Vec2::new(changed.max.x, changed.max.z) + margin - grid.min) / grid.cell;
    let (nx, nz) = (grid.nx as f32, grid.nz as f32);
    if !(lo.x <= hi.x && lo.y <= hi.y) || hi.x < 0.0 || hi.y < 0.0 || lo.x >= nx || lo.y >= nz {
        return Vec::new();
    }
    // The casts saturate: a box far past the grid's edge clamps to it.
    let (i0, i1) = (
        lo.x.floor().max(0.0) as usize,
        (hi.x.floor() as usize).min(grid.nx - 1),
    );
    let (k0, k1) = (
        lo.y.floor().max(0.0) as usize,
        (hi.y.floor() as usize).min(grid.nz - 1),
    );
    (k0..=k1)
        .flat_map(|k| (i0..=i1).map(move |i| k * grid.nx + i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    /// A 9 m room: a floor, a 0.3 m crate (climbed), a 0.6 m platform (not), a wall with a gap.
    fn room() -> Level {
        Level::from_ron_str(
            r"(version: 2, aabbs: [
                (id: 1, min: (-4.5, -0.2, -4.5), max: (4.5, 0.0, 4.5)),
                (id: 2, min: (1.0, 0.0, -2.0), max: (2.0, 0.3, -1.0)),
                (id: 3, min: (1.0, 0.0, 1.0), max: (3.0, 0.6, 3.0)),
                (id: 4, min: (-1.0, 0.0, -4.5), max: (-0.8, 2.5, 0.5)),
            ],
            walker: (position: (-3.0, -3.0), facing_deg: 0.0, eye_height: 1.7, radius: 0.3))",
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    fn settings() -> ReachSettings {
        ReachSettings {
            threads: 2,
            ..ReachSettings::default()
        }
    }

    fn start(level: &Level, scene: &Scene) -> Vec3 {
        level
            .start_feet(scene)
            .or_else(|| level.walker_feet())
            .unwrap_or_else(|| panic!("a start"))
    }

    /// Everything a map answers from, compared field by field (the seconds aside).
    fn assert_same(a: &ReachMap, b: &ReachMap) {
        assert_eq!(a.grid, b.grid);
        assert_eq!(a.spots, b.spots);
        assert_eq!(a.col_start, b.col_start);
        assert_eq!(a.rejected, b.rejected);
        assert_eq!(a.rej_start, b.rej_start);
        assert_eq!(a.empty, b.empty);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.parent, b.parent);
        assert_eq!(a.node_order, b.node_order);
        assert_eq!(a.start, b.start);
        assert_eq!(a.region, b.region);
        assert_eq!(a.places, b.places);
        let (mut sa, mut sb) = (a.stats, b.stats);
        (sa.seconds, sb.seconds) = (0.0, 0.0);
        assert_eq!(sa, sb);
    }

    fn bounds_of(scene: &Scene, ids: &[u32]) -> Aabb {
        let boxes: Vec<Aabb> = ids
            .iter()
            .filter_map(|&i| scene.object(crate::id::ObjectId(i))?.bounds())
            .collect();
        boxes.iter().fold(boxes[0], |o, b| o.union(b))
    }

    #[test]
    fn an_update_after_each_edit_is_the_fresh_map() {
        let mut level = room();
        let scene = Scene::build(&level);
        let ctl = level.character.unwrap_or_default();
        let first = ReachMap::default()
            .update(
                &scene,
                &ctl,
                start(&level, &scene),
                &settings(),
                Aabb::new(Vec3::NAN, Vec3::NAN),
            )
            .unwrap_or_else(|e| panic!("{e}"));
        let fresh = level
            .reach_map(&scene, &settings())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_same(&first, &fresh);
        let (mut map, mut before) = (first, scene);
        // The crate raised past a step, the platform lowered to one, the wall moved: each an update of the
        // one before.
        let edits: [(usize, Vec3, Vec3); 3] = [
            (1, Vec3::ZERO, Vec3::new(0.0, 0.3, 0.0)),
            (2, Vec3::ZERO, Vec3::new(0.0, -0.35, 0.0)),
            (3, Vec3::new(0.0, 0.0, 1.0), Vec3::new(0.0, 0.0, 1.0)),
        ];
        for (k, dmin, dmax) in edits {
            level.aabbs[k].min += dmin;
            level.aabbs[k].max += dmax;
            let after = Scene::build(&level);
            let id = level.aabbs[k].id.0;
            let changed = bounds_of(&before, &[id]).union(&bounds_of(&after, &[id]));
            let updated = map
                .update(&after, &ctl, start(&level, &after), &settings(), changed)
                .unwrap_or_else(|e| panic!("{e}"));
            let fresh = level
                .reach_map(&after, &settings())
                .unwrap_or_else(|e| panic!("{e}"));
            assert_same(&updated, &fresh);
            let kept = map.moves.away_from(&changed, &ctl).len();
            assert!(kept > 0 && kept < updated.moves.len());
            (map, before) = (updated, after);
        }
        // Nothing changed (an empty box): the same map, every move kept.
        let same = map
            .update(
                &before,
                &ctl,
                start(&level, &before),
                &settings(),
                Aabb::new(Vec3::ONE, Vec3::ZERO),
            )
            .unwrap_or_else(|e| panic!("{e}"));
        assert_same(&same, &map);
    }
}
