//! The step debugger's state, apart from drawing: a [`World`] built from the level, the frames recorded so far
//! (each step's contact events, energies and cost) and snapshots to step back and scrub with.
//!
//! Every state is kept while the recording fits its memory budget; past it, older snapshots are thinned to
//! keyframes (every 2nd, then 4th, … frame) and a frame between keyframes is re-simulated from the keyframe
//! before it. The simulation is deterministic, so a re-simulated frame is bit-identical to the first run
//! (tests compare [`World::state_hash`]).

use std::collections::BTreeMap;

use glam::Vec3;

use crate::level::{BallObject, Level, LevelError};
use crate::sim::{ContactEvent, World, WorldState};

/// Default memory budget for recorded snapshots, bytes.
pub const DEFAULT_BUDGET_BYTES: usize = 256 * 1024 * 1024;

/// What one step did.
#[derive(Clone, Debug)]
pub struct FrameRecord {
    /// Simulated seconds at the end of the step.
    pub time: f64,
    /// Contact events, in the order they were resolved.
    pub events: Vec<ContactEvent>,
    /// Balls entering and leaving trigger volumes, in time order.
    pub triggers: Vec<crate::sim::TriggerEvent>,
    /// Kinetic energy at the end of the step, joules.
    pub kinetic: f64,
    /// Potential energy at the end of the step (zero at `y = 0`), joules.
    pub potential: f64,
    /// Wall-clock microseconds the step took when first simulated.
    pub step_micros: f64,
}

/// The trajectory a recording had before a what-if edit: ball centres at the recorded frames from the
/// branch point on, and the first frame where the new run differs from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Ghost {
    /// The frame the edit branched at.
    pub from: usize,
    /// `(frame, ball centres)` of the previous run, in frame order.
    pub frames: Vec<(usize, Vec<Vec3>)>,
    /// The first frame where the new run's balls are not where the previous run had them.
    pub diverges_at: Option<usize>,
    /// The balls (by index) that differ at that frame.
    pub diverged: Vec<usize>,
}

impl Ghost {
    /// Each ball's path in the previous run.
    #[must_use]
    pub fn paths(&self) -> Vec<Vec<Vec3>> {
        let n = self.frames.first().map_or(0, |f| f.1.len());
        (0..n)
            .map(|i| {
                self.frames
                    .iter()
                    .filter_map(|f| f.1.get(i))
                    .copied()
                    .collect()
            })
            .collect()
    }

    /// Where the previous run had the diverging balls at the first frame of divergence.
    #[must_use]
    pub fn divergence_points(&self) -> Vec<Vec3> {
        let Some(k) = self.diverges_at else {
            return Vec::new();
        };
        let Ok(at) = self.frames.binary_search_by_key(&k, |f| f.0) else {
            return Vec::new();
        };
        self.diverged
            .iter()
            .filter_map(|&i| self.frames[at].1.get(i))
            .copied()
            .collect()
    }
}

/// A recorded simulation of a level with a cursor that moves both ways.
pub struct Debugger {
    world: World,
    /// The level's balls the recording started from: an edit that keeps them can branch (what-if).
    balls: Vec<BallObject>,
    dt: f32,
    cursor: usize,
    frames: Vec<FrameRecord>,
    keyframes: BTreeMap<usize, WorldState>,
    interval: usize,
    budget_bytes: usize,
    state_bytes: usize,
}

impl Debugger {
    /// A debugger at frame 0 of `level`, stepping by the level's `dt`.
    ///
    /// # Errors
    /// The level's errors, when it cannot be simulated.
    pub fn new(level: &Level, budget_bytes: usize) -> Result<Self, LevelError> {
        let world = World::from_level(level)?;
        let state = world.snapshot();
        let state_bytes = std::mem::size_of_val(state.balls()) + std::mem::size_of::<WorldState>();
        let mut keyframes = BTreeMap::new();
        keyframes.insert(0, state);
        Ok(Self {
            world,
            balls: level.balls.clone(),
            dt: level.simulation.dt,
            cursor: 0,
            frames: Vec::new(),
            keyframes,
            interval: 1,
            budget_bytes: budget_bytes.max(state_bytes * 2),
            state_bytes,
        })
    }

    /// The world at the cursor.
    #[must_use]
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The frame the world shows (0 is the level as loaded).
    #[must_use]
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// How many frames are recorded.
    #[must_use]
    pub fn recorded(&self) -> usize {
        self.frames.len()
    }

    /// What every recorded step did (`frames()[i]` took frame `i` to `i + 1`).
    #[must_use]
    pub fn frames(&self) -> &[FrameRecord] {
        &self.frames
    }

    /// The fixed step, seconds.
    #[must_use]
    pub fn dt(&self) -> f32 {
        self.dt
    }

    /// Bytes the kept snapshots take, and how many frames apart keyframes are now.
    #[must_use]
    pub fn memory(&self) -> (usize, usize) {
        (self.keyframes.len() * self.state_bytes, self.interval)
    }

    /// The kept snapshots at or before frame `upto`, newest last (for trails).
    pub fn states_before(
        &self,
        upto: usize,
    ) -> impl DoubleEndedIterator<Item = (&usize, &WorldState)> {
        self.keyframes.range(..=upto)
    }

    /// Step forward once: a new frame is simulated and recorded; a recorded one is replayed.
    pub fn step(&mut self) {
        let started = std::time::Instant::now();
        let report = self.world.step(self.dt);
        let micros = started.elapsed().as_secs_f64() * 1e6;
        self.cursor += 1;
        if self.cursor > self.frames.len() {
            self.frames.push(FrameRecord {
                time: self.world.time(),
                events: report.events,
                triggers: report.triggers,
                kinetic: self.world.kinetic_energy(),
                potential: self.world.potential_energy(),
                step_micros: micros,
            });
            if self.cursor.is_multiple_of(self.interval) {
                self.keyframes.insert(self.cursor, self.world.snapshot());
                self.thin();
            }
        }
    }

    /// Step back once (nothing at frame 0).
    pub fn step_back(&mut self) {
        if self.cursor > 0 {
            self.seek(self.cursor - 1);
        }
    }

    /// Go to frame `target`: restore the nearest keyframe before it and re-simulate the rest. A frame past
    /// the recording is simulated (and recorded) on the way.
    pub fn seek(&mut self, target: usize) {
        if target == self.cursor {
            return;
        }
        // Backwards, or forwards past a keyframe: start from the last keyframe at or before the target.
        // (`cursor + 1 <= target` here, so the range is never reversed.)
        if (target < self.cursor
            || self
                .keyframes
                .range(self.cursor + 1..=target)
                .next()
                .is_some())
            && let Some((&k, state)) = self.keyframes.range(..=target).next_back()
        {
            self.world.restore(state);
            self.cursor = k;
        }
        while self.cursor < target {
            self.step();
        }
    }

    /// Back to frame 0, keeping the recording.
    pub fn restart(&mut self) {
        self.seek(0);
    }

    /// What-if: continue from the current frame in an edited level. When the edit kept the balls and the
    /// time step (it moved walls, boxes, planes, …), the world takes the edited static geometry, the frames
    /// after the cursor are dropped and returned as the ghost of the previous future (ball centres by frame),
    /// and stepping on simulates the new one. Returns `None` (and changes nothing) when the balls or `dt`
    /// changed or the edited level cannot be simulated: then the recording must start again.
    pub fn branch(&mut self, level: &Level) -> Option<Ghost> {
        if level.balls != self.balls || level.simulation.dt != self.dt {
            return None;
        }
        let mut world = World::from_level(level).ok()?;
        world.restore(&self.world.snapshot());
        let from = self.cursor;
        let frames: Vec<(usize, Vec<Vec3>)> = self
            .keyframes
            .range(from..)
            .map(|(&k, st)| (k, st.balls().iter().map(|b| b.center).collect()))
            .collect();
        self.world = world;
        self.frames.truncate(from);
        self.keyframes.retain(|&k, _| k <= from);
        self.keyframes.insert(from, self.world.snapshot());
        Some(Ghost {
            from,
            frames,
            diverges_at: None,
            diverged: Vec::new(),
        })
    }

    /// Compare the world at the cursor with the ghost's frame there; marks the first frame that differs.
    pub fn compare(&self, ghost: &mut Ghost) {
        if ghost.diverges_at.is_some() {
            return;
        }
        let Ok(i) = ghost.frames.binary_search_by_key(&self.cursor, |f| f.0) else {
            return;
        };
        let differ: Vec<usize> = ghost.frames[i]
            .1
            .iter()
            .zip(self.world.balls())
            .enumerate()
            .filter(|(_, (was, now))| **was != now.center)
            .map(|(k, _)| k)
            .collect();
        if !differ.is_empty() {
            ghost.diverges_at = Some(self.cursor);
            ghost.diverged = differ;
        }
    }

    /// Drop every other keyframe (never frame 0) until the snapshots fit the budget again.
    fn thin(&mut self) {
        while self.keyframes.len() * self.state_bytes > self.budget_bytes
            && self.keyframes.len() > 2
        {
            self.interval *= 2;
            let interval = self.interval;
            self.keyframes.retain(|&k, _| k % interval == 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn magic_room() -> Level {
        Level::from_ron_str(include_str!("../../../levels/magic_room.ron")).unwrap()
    }

    #[test]
    fn back_and_forth_and_seeking_equal_straight_stepping() {
        let level = magic_room();
        let mut reference = World::from_level(&level).unwrap();
        let mut hashes = vec![reference.state_hash()];
        for _ in 0..300 {
            reference.step(level.simulation.dt);
            hashes.push(reference.state_hash());
        }
        // A budget of a few states forces thinning to keyframes.
        let mut d = Debugger::new(&level, 1).unwrap();
        for _ in 0..300 {
            d.step();
        }
        assert_eq!(d.world().state_hash(), hashes[300]);
        assert!(d.memory().1 > 1, "keyframes were thinned");
        for n in [0, 1, 17, 150, 299, 64, 300, 3] {
            d.seek(n);
            assert_eq!(d.cursor(), n);
            assert_eq!(d.world().state_hash(), hashes[n], "seek to {n}");
        }
        d.seek(120);
        for n in (100..120).rev() {
            d.step_back();
            assert_eq!(d.world().state_hash(), hashes[n]);
        }
        d.step();
        assert_eq!(d.world().state_hash(), hashes[101]);
        assert_eq!(d.recorded(), 300);
        d.restart();
        assert_eq!(d.world().state_hash(), hashes[0]);
        // Seeking past the recording simulates the new frames.
        d.seek(310);
        assert_eq!(d.recorded(), 310);
    }

    #[test]
    fn records_events_and_energy() {
        let level = magic_room();
        let mut d = Debugger::new(&level, DEFAULT_BUDGET_BYTES).unwrap();
        for _ in 0..200 {
            d.step();
        }
        assert!(d.frames().iter().any(|f| !f.events.is_empty()));
        let f = &d.frames()[199];
        assert!((f.time - 200.0 * f64::from(level.simulation.dt)).abs() < 1e-4);
        assert!(f.kinetic.is_finite() && f.potential.is_finite());
        assert_eq!(d.memory().1, 1);
    }

    #[test]
    fn what_if_branches_at_the_cursor_and_marks_the_divergence() {
        let level = magic_room();
        let mut d = Debugger::new(&level, DEFAULT_BUDGET_BYTES).unwrap();
        for _ in 0..200 {
            d.step();
        }
        d.seek(60);
        let at_60 = d.world().state_hash();
        // Move the plane at x = 4 (a wall of the room) inwards by 1 m.
        let mut edited = level.clone();
        let wall = edited
            .planes
            .iter_mut()
            .find(|p| p.normal.x < -0.5)
            .unwrap();
        wall.d += 1.0;
        let mut ghost = d.branch(&edited).unwrap();
        assert_eq!((ghost.from, d.cursor(), d.recorded()), (60, 60, 60));
        assert_eq!(
            ghost.frames.len(),
            141,
            "frames 60 to 200 of the previous run"
        );
        assert_eq!(
            d.world().state_hash(),
            at_60,
            "the branch starts from the same state"
        );
        for _ in 0..140 {
            d.step();
            d.compare(&mut ghost);
        }
        let k = ghost.diverges_at.expect("a ball reaches the moved wall");
        assert!(k > 60);
        // What the views draw: one path per ball through every ghost frame, and the diverging balls where
        // the previous run had them at frame k.
        let paths = ghost.paths();
        assert_eq!(paths.len(), level.balls.len());
        assert!(paths.iter().all(|p| p.len() == 141));
        let at = ghost.frames.iter().position(|f| f.0 == k).unwrap();
        let expected: Vec<Vec3> = ghost
            .diverged
            .iter()
            .map(|&i| ghost.frames[at].1[i])
            .collect();
        assert!(!expected.is_empty());
        assert_eq!(ghost.divergence_points(), expected);
        // Unchanged geometry never diverges.
        let mut same = Debugger::new(&level, DEFAULT_BUDGET_BYTES).unwrap();
        for _ in 0..100 {
            same.step();
        }
        same.seek(30);
        let mut g = same.branch(&level).unwrap();
        for _ in 0..70 {
            same.step();
            same.compare(&mut g);
        }
        assert_eq!(g.diverges_at, None);
        // Changing a ball cannot branch.
        let mut moved = level.clone();
        moved.balls[0].center.x += 0.1;
        assert!(same.branch(&moved).is_none());
    }

    #[test]
    fn a_level_with_errors_is_refused() {
        let mut level = magic_room();
        level.simulation.dt = -1.0;
        assert!(Debugger::new(&level, DEFAULT_BUDGET_BYTES).is_err());
    }
}
