//! The scene's moving parts: the movers' paths and start times ([`MovingSet`]), the scene time, and the
//! small tree of the moved objects.
//!
//! A moved object is held in the scene translated to where it is at the scene time: at each
//! [`Scene::set_time`] its shape becomes its unmoved shape translated by its mover's offset then (from the
//! unmoved shape every time, never cumulative, so the same time gives the same bits), so every query, every
//! [`Scene::object`] and every caller of [`Scene::shapes`] sees the current place with no other change. The
//! moved objects are kept out of the static tree, in a tree of their own refitted at each `set_time` (its
//! shape stays; a few thousand movers refit in microseconds), so motion never rebuilds nor degrades the
//! static structures; every query asks both.

use std::borrow::Cow;
use std::collections::HashMap;

use glam::Vec3;

use super::{Scene, padded};
use crate::bvh::AabbTree;
use crate::id::ObjectId;
use crate::mover::{MoverPart, MoverPath, MoverStart, MoverState, Track, translated};
use crate::shape::Aabb;
use crate::statics::Static;

#[cfg(test)]
#[path = "moving_tests.rs"]
mod tests;

/// One mover as the scene takes it: its path, its start rule and the scene entries it moves (an object's one
/// entry, or a sector's piston).
#[derive(Clone, Debug)]
pub(crate) struct MoverSetup {
    /// The mover's id.
    pub(crate) id: ObjectId,
    /// The moved object's id.
    pub(crate) object: ObjectId,
    /// What it moves of the object.
    pub(crate) part: MoverPart,
    /// Its path and timing.
    pub(crate) path: MoverPath,
    /// When it starts.
    pub(crate) start: MoverStart,
    /// The scene entries it moves (indices into the scene's objects).
    pub(crate) entries: Vec<u32>,
}

/// A mover as [`Scene::movers`] lists it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoverInfo {
    /// The mover's id.
    pub mover: ObjectId,
    /// The object it moves (a sector's id for its floor or ceiling).
    pub object: ObjectId,
    /// What it moves of the object.
    pub part: MoverPart,
    /// When it starts.
    pub start: MoverStart,
    /// When it started, scene time; `None` while it has not.
    pub started: Option<f32>,
    /// Its offset at the scene time.
    pub offset: Vec3,
    /// Its velocity at the scene time.
    pub velocity: Vec3,
}

/// What the pass at each time reads and writes of a mover, side by side for all movers (a pass reads one
/// contiguous array; the setups, with their paths on the heap, are read only when a mover changes legs).
#[derive(Clone, Copy, Debug)]
struct Hot {
    /// When it started, scene time; `None` while it has not.
    started: Option<f32>,
    /// Its path's constants and current leg.
    track: Track,
    /// Its state at the scene time.
    state: MoverState,
}

/// A moved scene entry (small, so the movers' pass at each time walks few cache lines; the unmoved shapes
/// are in `MovingSet::bases`, read only for entries that are not boxes).
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The scene index it moves.
    index: u32,
    /// Its mover (index into `movers`; entries are in mover order).
    mover: u32,
    /// The offset its scene shape has now.
    offset: Vec3,
    /// Its unmoved box when it is a box (NaN otherwise).
    base_box: Aabb,
}

/// The movers of a scene and their moved objects (see the module's notes).
#[derive(Clone, Debug, Default)]
pub(crate) struct MovingSet {
    time: f32,
    /// Each mover's setup (cold) and, at the same index, its start, track and state (hot).
    movers: Vec<MoverSetup>,
    hot: Vec<Hot>,
    entries: Vec<Entry>,
    /// Entry `k`'s unmoved shape.
    bases: Vec<Static>,
    /// Entry `k`'s padded box at `boxes[k]`, in `tree` as item `k`.
    boxes: Vec<Aabb>,
    tree: AabbTree,
    /// Which entry moves each scene index (`u32::MAX`: static); empty without movers.
    entry_of: Vec<u32>,
    /// Mover index by the moved object's id, and by the mover's own id.
    by_object: HashMap<ObjectId, u32>,
    by_id: HashMap<ObjectId, u32>,
}

impl MovingSet {
    /// `boxes` with the moved entries' boxes made NaN (the static tree leaves them out).
    pub(super) fn static_boxes<'a>(&self, boxes: &'a [Aabb]) -> Cow<'a, [Aabb]> {
        if self.entries.is_empty() {
            return Cow::Borrowed(boxes);
        }
        let mut out = boxes.to_vec();
        for e in &self.entries {
            if let Some(b) = out.get_mut(e.index as usize) {
                *b = Aabb::new(Vec3::NAN, Vec3::NAN);
            }
        }
        Cow::Owned(out)
    }

    /// Rebuild the moved objects' tree from the scene's boxes (after the scene's structures were rebuilt).
    pub(super) fn rebuild(&mut self, scene_boxes: &[Aabb], len: usize) {
        let nan = Aabb::new(Vec3::NAN, Vec3::NAN);
        self.boxes = self
            .entries
            .iter()
            .map(|e| scene_boxes.get(e.index as usize).copied().unwrap_or(nan))
            .collect();
        self.tree = AabbTree::new(&self.boxes);
        self.entry_of.clear();
        if !self.entries.is_empty() {
            self.entry_of.resize(len, u32::MAX);
            for (k, e) in self.entries.iter().enumerate() {
                if let Some(x) = self.entry_of.get_mut(e.index as usize) {
                    *x = k as u32;
                }
            }
        }
    }

    /// Scene index `i` was removed: forget its entry and renumber the ones after it.
    pub(super) fn removed(&mut self, i: usize) {
        if let Some(k) = self.entries.iter().position(|e| e.index as usize == i) {
            self.entries.remove(k);
            self.bases.remove(k);
        }
        for e in &mut self.entries {
            if e.index as usize > i {
                e.index -= 1;
            }
        }
    }

    /// The entry moving scene index `i`, if any.
    fn entry_at(&self, i: usize) -> Option<usize> {
        match self.entry_of.get(i) {
            Some(&k) if k != u32::MAX => Some(k as usize),
            _ => None,
        }
    }
}

/// Put a moved entry at `offset`: its scene shape `now` becomes its unmoved shape `base` (with its unmoved box
/// `base_box` when it is a box) translated by `offset`. Returns its padded box (NaN when it has none).
#[inline]
fn place(base_box: Aabb, base: &Static, now: &mut Static, offset: Vec3) -> Aabb {
    // Boxes (most movers) in place, with no match on the shape's bounds; other shapes rebuilt from their base.
    let b = match now {
        Static::Aabb(now) if base_box.is_valid() => {
            // The box from the local value, not read back from the shape just written (a load straddling
            // two stores stalls).
            let b = Aabb::new(base_box.min + offset, base_box.max + offset);
            *now = b;
            b.is_valid().then_some(b)
        }
        now => {
            *now = translated(base, offset);
            now.bounds()
        }
    };
    b.map_or(Aabb::new(Vec3::NAN, Vec3::NAN), padded)
}

/// `consider` (a cast's answer for each item) that also keeps the lowest `t` it answered in `low`: the static
/// structures are cast first, and the moved objects' tree only below their nearest answer.
pub(super) fn lowest<'a>(
    low: &'a std::cell::Cell<f32>,
    mut consider: impl FnMut(usize) -> Option<f32> + 'a,
) -> impl FnMut(usize) -> Option<f32> + 'a {
    move |i| {
        let t = consider(i);
        if let Some(t) = t
            && t < low.get()
        {
            low.set(t);
        }
        t
    }
}

impl Scene {
    /// A scene of the given objects (unmoved), trigger volumes, front-end notes, one-way flags (by entry) and
    /// movers: the `Always` movers started at 0, everything at time 0. The structures are built once.
    pub(crate) fn from_parts_moving(
        statics: Vec<(ObjectId, Static)>,
        triggers: Vec<crate::trigger::TriggerVolume>,
        notes: Option<std::sync::Arc<dyn std::any::Any + Send + Sync>>,
        one_way: Vec<bool>,
        movers: Vec<MoverSetup>,
    ) -> Scene {
        let (ids, shapes) = statics.into_iter().unzip();
        let mut scene = Scene {
            shapes,
            ids,
            triggers,
            notes,
            dirty: true,
            ..Scene::default()
        };
        scene.set_one_way_flags(one_way);
        scene.take_movers(movers);
        scene.refresh();
        scene.apply_movers();
        scene
    }

    /// Take `movers` (the scene's objects are unmoved: each entry's current shape is its base); the
    /// structures are rebuilt by the next refresh.
    fn take_movers(&mut self, movers: Vec<MoverSetup>) {
        let set = &mut self.moving;
        set.movers.clear();
        set.hot.clear();
        set.entries.clear();
        set.bases.clear();
        set.by_object.clear();
        set.by_id.clear();
        for (m, setup) in movers.into_iter().enumerate() {
            for &index in &setup.entries {
                if let Some(base) = self.shapes.get(index as usize) {
                    set.entries.push(Entry {
                        index,
                        mover: m as u32,
                        offset: Vec3::ZERO,
                        base_box: match base {
                            Static::Aabb(b) => *b,
                            _ => Aabb::new(Vec3::NAN, Vec3::NAN),
                        },
                    });
                    set.bases.push(base.clone());
                }
            }
            set.by_object.entry(setup.object).or_insert(m as u32);
            set.by_id.entry(setup.id).or_insert(m as u32);
            set.hot.push(Hot {
                started: (setup.start == MoverStart::Always).then_some(0.0),
                track: Track::new(&setup.path),
                state: MoverState::default(),
            });
            set.movers.push(setup);
        }
        self.dirty = true;
    }

    /// Replace the scene's movers by `movers` (the scene's objects moved by the old ones go back to their
    /// unmoved shapes first), start the `Always` ones at 0 and put everything at the scene time. Rebuilds the
    /// structures (the simulation installs a level's movers once, after adding its objects).
    #[allow(dead_code)] // For the simulation's world, which builds its scene object by object.
    pub(crate) fn install_movers(&mut self, movers: Vec<MoverSetup>) {
        for (e, base) in self.moving.entries.iter().zip(&self.moving.bases) {
            if let Some(s) = self.shapes.get_mut(e.index as usize) {
                *s = base.clone();
            }
        }
        self.take_movers(movers);
        self.refresh();
        self.apply_movers();
    }

    /// Put every mover where its path has it at time `t` (seconds, the scene's clock; a pure function of `t`
    /// and the movers' start times: the same `t` gives the same bits). Every query then answers against the
    /// moved objects at their new places. A NaN or infinite `t` is ignored (the scene stays at its time).
    ///
    /// ```
    /// use collidoscope::{glam::Vec3, level::{Level, ObjectId}, scene::Scene, shape::Ray};
    /// let level = Level::from_ron_str(r#"(version: 3,
    ///     aabbs: [(id: 1, min: (-1.0, 0.0, -1.0), max: (1.0, 0.5, 1.0))],
    ///     movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (0.0, 4.0, 0.0)], speed: 2.0)])"#).unwrap();
    /// let mut scene = Scene::from_level(&level).unwrap();
    /// scene.set_time(1.0); // 2 m up, rising at 2 m/s
    /// let hit = scene.cast_ray(&Ray::new(Vec3::new(0.0, 10.0, 0.0), -Vec3::Y), 20.0).unwrap();
    /// assert_eq!((hit.object, hit.point.y), (ObjectId(1), 2.5));
    /// assert_eq!(scene.mover_velocity(ObjectId(1)), Vec3::new(0.0, 2.0, 0.0));
    /// ```
    pub fn set_time(&mut self, t: f32) {
        if !t.is_finite() {
            return;
        }
        self.moving.time = t;
        self.apply_movers();
    }

    /// The scene time ([`Scene::set_time`]; 0 when never set).
    #[must_use]
    pub fn time(&self) -> f32 {
        self.moving.time
    }

    /// Start mover `mover` (a mover's id) at scene time `at`. A mover already started is left alone (a
    /// `Once` mover that finished stays at its last point; [`Scene::reset_movers`] or
    /// [`Scene::set_mover_start`] start one over). An unknown id or a non-finite `at` changes nothing. The
    /// mover's place follows at once (at the current scene time).
    pub fn start_mover(&mut self, mover: ObjectId, at: f32) {
        let Some(&m) = self.moving.by_id.get(&mover) else {
            return;
        };
        let Some(h) = self.moving.hot.get_mut(m as usize) else {
            return;
        };
        if at.is_finite() && h.started.is_none() {
            h.started = Some(at);
            self.apply_movers();
        }
    }

    /// Start every mover that starts on trigger `trigger` ([`MoverStart::OnTrigger`]) at scene time `at`, as
    /// [`Scene::start_mover`] (those already started are left alone). Movers of other triggers and `Always`
    /// movers (started at 0) are not touched. Returns the movers started now, ids ascending.
    pub fn start_triggered(&mut self, trigger: ObjectId, at: f32) -> Vec<ObjectId> {
        let mut started = Vec::new();
        if !at.is_finite() {
            return started;
        }
        for (m, h) in self.moving.movers.iter().zip(&mut self.moving.hot) {
            if m.start == MoverStart::OnTrigger(trigger) && h.started.is_none() {
                h.started = Some(at);
                started.push(m.id);
            }
        }
        if !started.is_empty() {
            self.apply_movers();
        }
        started.sort_unstable();
        started
    }

    /// Set mover `mover`'s start time exactly (`None`: not started), whatever it was: a replay restores the
    /// recorded starts with it. An unknown id or a non-finite time changes nothing.
    pub fn set_mover_start(&mut self, mover: ObjectId, started: Option<f32>) {
        let Some(&m) = self.moving.by_id.get(&mover) else {
            return;
        };
        if started.is_some_and(|t| !t.is_finite()) {
            return;
        }
        if let Some(h) = self.moving.hot.get_mut(m as usize) {
            h.started = started;
            self.apply_movers();
        }
    }

    /// Every mover back to its start rule: `Always` movers started at 0, the others not started.
    pub fn reset_movers(&mut self) {
        for (m, h) in self.moving.movers.iter().zip(&mut self.moving.hot) {
            h.started = (m.start == MoverStart::Always).then_some(0.0);
        }
        self.apply_movers();
    }

    /// The velocity of object `object` (a moved box's or sector's id) at the scene time, m/s: its mover's
    /// velocity, zero while it waits, before it starts and after a `Once` mover's end; zero for a static or
    /// unknown object.
    #[must_use]
    pub fn mover_velocity(&self, object: ObjectId) -> Vec3 {
        self.moving
            .by_object
            .get(&object)
            .and_then(|&m| self.moving.hot.get(m as usize))
            .map_or(Vec3::ZERO, |h| h.state.velocity)
    }

    /// The mover that moves object `object` (its id), if one does.
    #[must_use]
    pub fn mover_of(&self, object: ObjectId) -> Option<ObjectId> {
        let &m = self.moving.by_object.get(&object)?;
        Some(self.moving.movers.get(m as usize)?.id)
    }

    /// Object `object`'s offset from its level place at scene time `t` (with its mover's current start time;
    /// zero for a static or unknown object): the displacement between two times carries a rider exactly.
    #[must_use]
    pub fn mover_offset_at(&self, object: ObjectId, t: f32) -> Vec3 {
        let Some(&m) = self.moving.by_object.get(&object) else {
            return Vec3::ZERO;
        };
        match (
            self.moving.movers.get(m as usize),
            self.moving.hot.get(m as usize),
        ) {
            (Some(m), Some(h)) => m.path.at(f64::from(t), h.started.map(f64::from)).offset,
            _ => Vec3::ZERO,
        }
    }

    /// Each moved entry's scene index and its displacement from the scene time to time `t`: what
    /// `mover_offset_at(object, t) - mover_offset_at(object, self.time())` gives for the entry's object, bit
    /// for bit (the offset now is the mover's state; the one at `t` comes from a copy of its track, whose leg
    /// is most often still the right one), for the simulation's step.
    pub(crate) fn moved_displacements(&self, t: f32, mut f: impl FnMut(usize, Vec3)) {
        let set = &self.moving;
        let t = f64::from(t);
        for e in &set.entries {
            let m = e.mover as usize;
            if let (Some(setup), Some(h)) = (set.movers.get(m), set.hot.get(m)) {
                let mut track = h.track;
                let then = track.at(&setup.path, t, h.started.map(f64::from));
                f(e.index as usize, then.offset - h.state.offset);
            }
        }
    }

    /// Every mover, in level order, with its start and its state at the scene time.
    #[must_use]
    pub fn movers(&self) -> Vec<MoverInfo> {
        self.moving
            .movers
            .iter()
            .zip(&self.moving.hot)
            .map(|(m, h)| MoverInfo {
                mover: m.id,
                object: m.object,
                part: m.part,
                start: m.start,
                started: h.started,
                offset: h.state.offset,
                velocity: h.state.velocity,
            })
            .collect()
    }

    /// Whether any object of the scene moves (a mover's object).
    pub(crate) fn has_movers(&self) -> bool {
        !self.moving.entries.is_empty()
    }

    /// Whether scene entry `i` (an index into [`Scene::shapes`]) is moved by a mover.
    #[must_use]
    pub fn is_moving_entry(&self, i: usize) -> bool {
        self.moving.entry_at(i).is_some()
    }

    /// Every mover's state at the scene time, and each moved entry's shape and box at its offset; the moved
    /// objects' tree is refitted and the generation bumped when anything moved.
    fn apply_movers(&mut self) {
        let set = &mut self.moving;
        let t = f64::from(set.time);
        let mut changed = false;
        // One pass: each mover's state, then its entries (they follow in mover order). An entry already at
        // its offset (a waiting, finished or unstarted mover) is left as it is.
        let mut k = 0;
        for (m, (setup, hot)) in set.movers.iter().zip(&mut set.hot).enumerate() {
            // The state in SIMD registers, stored once and used from the registers: built in memory and read
            // back, its fields straddled stores and stalled the pass at each mover.
            let (offset, velocity) = hot.track.at_a(&setup.path, t, hot.started.map(f64::from));
            let offset = Vec3::from(offset);
            hot.state = MoverState {
                offset,
                velocity: velocity.into(),
            };
            while let Some(e) = set.entries.get_mut(k)
                && e.mover as usize == m
            {
                let same =
                    offset.to_array().map(f32::to_bits) == e.offset.to_array().map(f32::to_bits);
                let i = e.index as usize;
                if let (false, Some(s), Some(sb), Some(base), Some(tb)) = (
                    same,
                    self.shapes.get_mut(i),
                    self.boxes.get_mut(i),
                    set.bases.get(k),
                    set.boxes.get_mut(k),
                ) {
                    e.offset = offset;
                    let b = place(e.base_box, base, s, offset);
                    *sb = b;
                    *tb = b;
                    changed = true;
                }
                k += 1;
            }
        }
        if changed {
            if !set.tree.refit_all(&set.boxes) {
                set.tree = AabbTree::new(&set.boxes);
            }
            self.generation += 1;
        }
    }

    /// Scene entry `i` was given a new unmoved shape ([`Scene::set_object`]): it becomes the entry's base, put
    /// at the entry's offset. `false` when `i` is not moved.
    pub(super) fn set_moving_base(&mut self, i: usize, shape: &Static) -> bool {
        let Some(k) = self.moving.entry_at(i) else {
            return false;
        };
        let e = &mut self.moving.entries[k];
        e.base_box = match shape {
            Static::Aabb(b) => *b,
            _ => Aabb::new(Vec3::NAN, Vec3::NAN),
        };
        // Forces the entry to be put at its offset again.
        e.offset = Vec3::NAN;
        self.moving.bases[k] = shape.clone();
        self.apply_movers();
        true
    }

    /// The moved objects whose boxes touch `lo..=hi`, as scene indices.
    #[inline]
    pub(super) fn moving_query(&self, lo: Vec3, hi: Vec3, mut f: impl FnMut(usize)) {
        let set = &self.moving;
        set.tree.query(lo, hi, |k| f(set.entries[k].index as usize));
    }

    /// The moved entries whose padded boxes touch `lo..=hi`, as scene indices ascending, in `out` (cleared
    /// first): the simulation's push-out asks the moved objects' tree instead of every mover.
    pub(crate) fn moving_near(&self, lo: Vec3, hi: Vec3, out: &mut Vec<usize>) {
        out.clear();
        self.moving_query(lo, hi, |i| out.push(i));
        out.sort_unstable();
    }

    /// [`AabbTree::cast_box`] over the moved objects (scene indices to `f`); returns `max_t` lowered by the
    /// hits `f` answered, for the static tree's cast that follows.
    #[inline]
    pub(super) fn moving_cast(
        &self,
        origin: Vec3,
        dir: Vec3,
        grow: Vec3,
        max_t: f32,
        mut f: impl FnMut(usize) -> Option<f32>,
    ) -> f32 {
        let set = &self.moving;
        let mut bound = max_t;
        set.tree.cast_box(origin, dir, grow, max_t, |k| {
            let t = f(set.entries[k].index as usize);
            if let Some(t) = t {
                bound = bound.min(t);
            }
            t
        });
        bound
    }
}
