//! Moves into a caller's [`CharacterMove`], reusing its lists: no heap allocation once warm.

use glam::Vec3;

use super::Mover;
use crate::character::CharacterController;
use crate::character::result::{CharacterMove, Limit};
use crate::scene::Scene;

/// Moves without a fresh answer each time: for a game that moves many characters every frame and keeps one
/// [`CharacterMove`] per character (or one for all), so that moving makes no heap allocation.
impl CharacterController {
    /// [`CharacterController::move_character`] written into `out`, reusing its lists: the same answer, bit for
    /// bit, workings included. The first move with a controller reserves what any move of that controller can
    /// need (its sweeps are bounded by `max_iterations`; the reservation is capped at about 100 KB), so later
    /// moves into the same `out` make no heap allocation, scene queries included, except a start that overlaps
    /// something (its push-out) and a refused input (its reason).
    ///
    /// Like every move, it never ends farther back along its motion's horizontal direction than `2·skin`,
    /// unless its start overlapped and was pushed out, or its fall slid it down a surface too steep to stand on
    /// (then by at most the drop times `cot(max_slope_deg)`).
    ///
    /// ```
    /// use collidoscope::{character::{CharacterController, CharacterMove}, glam::Vec3, level::Level, scene::Scene};
    /// let level = Level::from_ron_str("(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)])")?;
    /// let scene = Scene::from_level(&level)?;
    /// let c = CharacterController::default();
    /// let mut m = CharacterMove::default();
    /// let mut feet = Vec3::new(0.0, c.skin, 0.0);
    /// for _ in 0..10 {
    ///     c.move_character_into(&scene, feet, Vec3::new(0.1, -0.01, 0.0), &mut m);
    ///     assert_eq!(m, c.move_character(&scene, feet, Vec3::new(0.1, -0.01, 0.0)));
    ///     feet = m.feet;
    /// }
    /// // Without the workings: the same feet, ground and hits, an empty trace.
    /// c.move_character_untraced(&scene, feet, Vec3::new(0.1, -0.01, 0.0), &mut m);
    /// assert!(m.grounded && m.trace.sweeps.is_empty());
    /// # Ok::<(), collidoscope::level::LevelError>(())
    /// ```
    pub fn move_character_into(
        &self,
        scene: &Scene,
        feet: Vec3,
        motion: Vec3,
        out: &mut CharacterMove,
    ) {
        move_into(self, scene, feet, motion, true, false, out);
    }

    /// [`CharacterController::move_character_into`] without the workings: the same answer (feet, ground,
    /// hits, step, snap, limit) with an empty [`CharacterMove::trace`], and none of the time and memory spent
    /// recording it. What a game that does not show the workings calls every frame.
    pub fn move_character_untraced(
        &self,
        scene: &Scene,
        feet: Vec3,
        motion: Vec3,
        out: &mut CharacterMove,
    ) {
        move_into(self, scene, feet, motion, false, false, out);
    }

    /// [`CharacterController::move_character_untraced`] from a start whose grown body (as every sweep's) the
    /// caller has just found overlapping nothing, when `start_clear`: the same answer without asking again.
    pub(in crate::character) fn move_untraced_from(
        &self,
        scene: &Scene,
        feet: Vec3,
        motion: Vec3,
        start_clear: bool,
        out: &mut CharacterMove,
    ) {
        move_into(self, scene, feet, motion, false, start_clear, out);
    }
}

/// One move into `out`'s buffers, its workings kept when `record`, the start's overlap test skipped when
/// `start_clear`; bad input as `move_character` answers it.
fn move_into(
    ctl: &CharacterController,
    scene: &Scene,
    feet: Vec3,
    motion: Vec3,
    record: bool,
    start_clear: bool,
    out: &mut CharacterMove,
) {
    let mut trace = std::mem::take(&mut out.trace);
    let mut hits = std::mem::take(&mut out.hits);
    let mut spare = match out.limit.take() {
        Some(Limit::Corner { objects, .. } | Limit::Inside { objects }) => objects,
        _ => Vec::new(),
    };
    if let Some(p) = trace.push_out.take()
        && p.objects.capacity() > spare.capacity()
    {
        spare = p.objects;
    }
    if !ctl.is_valid() || !feet.is_finite() || !motion.is_finite() || !(feet + motion).is_finite() {
        // The reason, worded as `move_character` words it (allocating: bad input is no frame's routine).
        *out = ctl.move_character(scene, feet, motion);
        return;
    }
    // Emptied before reserving: `reserve` counts from the length.
    trace.sweeps.clear();
    trace.steps.clear();
    hits.clear();
    if record {
        // Everything a move of this controller can record: per slide iteration (one more for the fall) its
        // sweep and a step's nine probes, two hits and a step attempt; three ground probes.
        let iterations = iterations_of(ctl);
        trace.sweeps.reserve((10 * iterations + 3).min(1024));
        trace.steps.reserve(iterations.min(1024));
    }
    hits.reserve((2 * iterations_of(ctl)).min(4096));
    let answer = Mover::with_buffers(ctl, scene, record, trace, hits, spare)
        .start_clear(start_clear)
        .run(feet, motion);
    if answer.feet.is_finite() {
        *out = answer;
    } else {
        *out = ctl.move_character(scene, feet, motion);
    }
}

/// The slide iterations a move may take, the fall's included.
fn iterations_of(ctl: &CharacterController) -> usize {
    ctl.max_iterations as usize + 1
}
