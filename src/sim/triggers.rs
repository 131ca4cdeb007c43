//! The simulation's side of trigger volumes: which balls entered and left which volumes during a step, and
//! when. The volumes themselves (geometry, overlap, the intervals of a straight path) are [`crate::trigger`]'s,
//! beneath the scene; what a ball is, and what a step reports, are the simulation's.

use glam::Vec3;

use super::{Ball, BallId, TriggerEvent};
use crate::trigger::TriggerVolume;

/// The trigger events of one step from each ball's path (`knots[ball]`: (time, centre) points, straight
/// between them), updating which (trigger, ball) pairs are inside. A ball inside a volume before any step
/// counts as entering at time 0 of its first step.
pub(crate) fn step_events(
    volumes: &[TriggerVolume],
    inside: &mut std::collections::BTreeSet<(u32, u32)>,
    knots: &[Vec<(f64, Vec3)>],
    balls: &[Ball],
    dt: f32,
    out: &mut Vec<TriggerEvent>,
) {
    for (bi, path) in knots.iter().enumerate() {
        let Some(ball) = balls.get(bi) else { continue };
        if !ball.is_valid() || path.is_empty() {
            continue;
        }
        let r = ball.radius;
        let (lo, hi) = path.iter().fold(
            (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
            |(l, h), (_, p)| (l.min(*p), h.max(*p)),
        );
        let (lo, hi) = (lo - Vec3::splat(r), hi + Vec3::splat(r));
        for (vi, v) in volumes.iter().enumerate() {
            let key = (vi as u32, bi as u32);
            let mut is_in = inside.contains(&key);
            let b = v.bounds();
            if lo.cmpgt(b.max).any() || hi.cmplt(b.min).any() {
                if is_in {
                    // Far from the volume for the whole step: it left at the start.
                    out.push(TriggerEvent {
                        trigger: v.id,
                        ball: BallId(bi),
                        entered: false,
                        time: 0.0,
                    });
                    inside.remove(&key);
                }
                continue;
            }
            let mut emit = |entered: bool, t: f64| {
                out.push(TriggerEvent {
                    trigger: v.id,
                    ball: BallId(bi),
                    entered,
                    time: (t as f32).clamp(0.0, dt),
                });
            };
            // A single knot (a ball that did not move through the step) is a segment of zero length.
            let segments: Vec<((f64, Vec3), (f64, Vec3))> = if path.len() == 1 {
                vec![(path[0], (f64::from(dt), path[0].1))]
            } else {
                path.windows(2).map(|w| (w[0], w[1])).collect()
            };
            for ((ta, pa), (tb, pb)) in segments {
                let span = tb - ta;
                let parts = v.intervals(pa, pb, r);
                let at = |f: f32| ta + span * f64::from(f);
                if is_in && parts.first().is_none_or(|p| p.0 > 0.0) {
                    emit(false, ta);
                    is_in = false;
                }
                for (k, (f0, f1)) in parts.iter().enumerate() {
                    if !is_in {
                        emit(true, at(*f0));
                        is_in = true;
                    }
                    let last = k + 1 == parts.len();
                    if *f1 < 1.0 || !last {
                        emit(false, at(*f1));
                        is_in = false;
                    }
                }
            }
            if is_in {
                inside.insert(key);
            } else {
                inside.remove(&key);
            }
        }
    }
    out.sort_by(|a, b| {
        a.time
            .total_cmp(&b.time)
            .then(a.ball.cmp(&b.ball))
            .then(a.trigger.cmp(&b.trigger))
            .then(a.entered.cmp(&b.entered))
    });
}
