//! Why a place that can be stood on cannot be reached: walking from the nearest reached place toward it with
//! the controller itself, the first limit met — a step too high, a slope too steep, an opening too narrow, a
//! ceiling too low, or a pit — measured where it is met.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::super::{CharacterController, Limit};
use super::words;
use crate::scene::Scene;
use crate::shape::{Ray, Sphere};

/// The limit that keeps a place out of reach, where it is and its measure.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Blocker3 {
    /// A riser higher than `max_step`: `height` from the ground before it to its top, metres.
    StepTooHigh {
        /// Where (on the riser).
        at: Vec3,
        /// Its height, metres.
        height: f32,
    },
    /// A surface steeper than `max_slope_deg`.
    SlopeTooSteep {
        /// Where (on the slope).
        at: Vec3,
        /// Its slope, degrees from level.
        degrees: f32,
    },
    /// An opening narrower than the body.
    TooNarrow {
        /// Where (in the opening).
        at: Vec3,
        /// The clear opening across the way, metres.
        width: f32,
    },
    /// A ceiling lower than the body.
    TooLow {
        /// Where (under the ceiling's edge).
        at: Vec3,
        /// Floor to ceiling, metres.
        clearance: f32,
    },
    /// A pit: the way falls off a rim into it (with nothing beneath inside the bounds, or no way back up).
    Gap {
        /// The rim.
        at: Vec3,
    },
}

impl Blocker3 {
    /// Where the limit is.
    #[must_use]
    pub fn at(&self) -> Vec3 {
        match *self {
            Blocker3::StepTooHigh { at, .. }
            | Blocker3::SlopeTooSteep { at, .. }
            | Blocker3::TooNarrow { at, .. }
            | Blocker3::TooLow { at, .. }
            | Blocker3::Gap { at } => at,
        }
    }

    /// The kind's name, as `collidoscope check --reach` prints it (`StepTooHigh`, …).
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Blocker3::StepTooHigh { .. } => "StepTooHigh",
            Blocker3::SlopeTooSteep { .. } => "SlopeTooSteep",
            Blocker3::TooNarrow { .. } => "TooNarrow",
            Blocker3::TooLow { .. } => "TooLow",
            Blocker3::Gap { .. } => "Gap",
        }
    }

    /// The controller's limit the blocker's measure passes: `max_step` for a step, `max_slope_deg` for a slope,
    /// for an opening the body's width with a skin each side (`2 (radius + skin)`), for a ceiling its height with
    /// a skin above and below (`height + 2 skin`); a gap has none.
    #[must_use]
    pub fn limit(&self, ctl: &CharacterController) -> Option<f32> {
        match self {
            Blocker3::StepTooHigh { .. } => Some(ctl.max_step),
            Blocker3::SlopeTooSteep { .. } => Some(ctl.max_slope_deg),
            Blocker3::TooNarrow { .. } => Some(2.0 * (ctl.radius + ctl.skin)),
            Blocker3::TooLow { .. } => Some(ctl.height + 2.0 * ctl.skin),
            Blocker3::Gap { .. } => None,
        }
    }

    /// In words, with the controller's own limits, worded as a move's [`Limit::describe`] words the same limit:
    /// "riser 0.42 m is above max_step 0.35 m at (3.00, 0.40, 1.00)".
    #[must_use]
    pub fn describe(&self, ctl: &CharacterController) -> String {
        let at = |p: Vec3| format!("({:.2}, {:.2}, {:.2})", p.x, p.y, p.z);
        let (limit, p) = match *self {
            Blocker3::StepTooHigh { at: p, height } => (words::riser(height, ctl.max_step), p),
            Blocker3::SlopeTooSteep { at: p, degrees } => {
                (words::slope(degrees, ctl.max_slope_deg), p)
            }
            Blocker3::TooNarrow { at: p, width } => {
                (words::opening(width, ctl.radius, ctl.skin), p)
            }
            Blocker3::TooLow { at: p, clearance } => {
                (words::clearance(clearance, ctl.height, ctl.skin), p)
            }
            Blocker3::Gap { at: p } => ("a gap: the way falls off the rim".to_owned(), p),
        };
        format!("{limit} at {}", at(p))
    }
}

/// What the walk toward a place found.
pub(super) struct Walk<'a> {
    pub(super) scene: &'a Scene,
    pub(super) ctl: &'a CharacterController,
    /// The top of the mapped space (measuring rays start there).
    pub(super) top: f32,
}

impl Walk<'_> {
    /// Walk from `from` (a reached place's feet, standing on `ground`) toward `to` in half-cell moves and name
    /// the first limit met; with the number of moves made.
    pub(super) fn blocker(
        &self,
        from: Vec3,
        ground: f32,
        to: Vec3,
        to_ground: f32,
        cell: f32,
    ) -> (Blocker3, u64) {
        let mut moves = 0;
        let b = self.walk(from, ground, to, to_ground, cell, &mut moves);
        (b, moves)
    }

    fn walk(
        &self,
        from: Vec3,
        ground: f32,
        to: Vec3,
        to_ground: f32,
        cell: f32,
        count: &mut u64,
    ) -> Blocker3 {
        let ctl = self.ctl;
        let flat = Vec3::new(to.x - from.x, 0.0, to.z - from.z);
        let dist = flat.length();
        let dir = flat.normalize_or_zero();
        let step = (cell * 0.5).max(ctl.skin * 4.0);
        let mut pos = from;
        let mut base = ground;
        let moves = ((dist / step).ceil() as usize + 4).min(400);
        for _ in 0..moves {
            *count += 1;
            let m = ctl.move_character(self.scene, pos, dir * step + Vec3::NEG_Y * ctl.max_step);
            if !m.grounded {
                return Blocker3::Gap { at: pos };
            }
            let progress = (m.feet - pos).dot(dir);
            if progress < step * 0.25 {
                if let Some(b) = m
                    .limit
                    .as_ref()
                    .and_then(|l| self.blocker_of(l, pos, base, dir))
                {
                    return b;
                }
                break;
            }
            if let Some(g) = m.ground {
                base = g.point.y;
            }
            pos = m.feet;
            if Vec3::new(to.x - pos.x, 0.0, to.z - pos.z).length() <= cell {
                break;
            }
        }
        // Nothing met on the straight way (the place lies off the grid's reach rather than behind a limit): the
        // difference in height is what stands between.
        if to_ground > base {
            Blocker3::StepTooHigh {
                at: to,
                height: to_ground - base,
            }
        } else {
            Blocker3::Gap { at: pos }
        }
    }

    /// A move's limit as a blocker, measured.
    fn blocker_of(&self, limit: &Limit, pos: Vec3, base: f32, dir: Vec3) -> Option<Blocker3> {
        Some(match limit {
            Limit::StepTooHigh { height, at, .. } => Blocker3::StepTooHigh {
                at: *at,
                height: height.unwrap_or_else(|| self.obstacle_height(*at, base, dir)),
            },
            Limit::SlopeTooSteep { degrees, at, .. } => Blocker3::SlopeTooSteep {
                at: *at,
                degrees: *degrees,
            },
            Limit::Ceiling { at, .. } => Blocker3::TooLow {
                at: *at,
                clearance: self.clearance(*at, base),
            },
            Limit::Corner { at, .. } => Blocker3::TooNarrow {
                at: *at,
                width: self.opening(pos, dir),
            },
            Limit::Wall { at, .. } => Blocker3::StepTooHigh {
                at: *at,
                height: self.obstacle_height(*at, base, dir),
            },
            Limit::Inside { .. } | Limit::Iterations | Limit::Invalid { .. } => return None,
        })
    }

    /// The height above `base` of the top of the obstacle met at `at` (a ray down onto it from above
    /// everything, just past the contact along `dir`).
    fn obstacle_height(&self, at: Vec3, base: f32, dir: Vec3) -> f32 {
        let probe = Vec3::new(at.x, self.top, at.z) + dir * 0.02;
        let ray = Ray::new(probe, Vec3::NEG_Y);
        match self.scene.cast_ray(&ray, self.top - base) {
            Some(h) => (h.point.y - base).max(0.0),
            None => 0.0,
        }
    }

    /// Floor to ceiling under the ceiling met at `at`.
    fn clearance(&self, at: Vec3, base: f32) -> f32 {
        let ray = Ray::new(at - Vec3::Y * 1e-3, Vec3::NEG_Y);
        let floor = self
            .scene
            .cast_ray(&ray, at.y - base + 1.0)
            .map_or(base, |h| h.point.y);
        (at.y - floor).max(0.0)
    }

    /// The clear opening across `dir` just ahead of `pos`, at the body's mid-height: the free interval (points
    /// in no object) along the crossing line nearest the body's axis, measured by rays from its middle.
    fn opening(&self, pos: Vec3, dir: Vec3) -> f32 {
        let ctl = self.ctl;
        let across = Vec3::new(-dir.z, 0.0, dir.x);
        let centre = pos + dir * (ctl.radius + ctl.skin + 0.05) + Vec3::Y * (ctl.height * 0.5);
        let free = |o: f32| {
            self.scene
                .overlap_sphere(&Sphere::new(centre + across * o, 1e-3))
                .is_empty()
        };
        let span = 2.0 * ctl.radius + 0.5;
        let steps = 60;
        let mut best: Option<(f32, f32)> = None;
        let mut run: Option<f32> = None;
        for k in 0..=steps {
            let o = -span + 2.0 * span * k as f32 / steps as f32;
            match (free(o), run) {
                (true, None) => run = Some(o),
                (false, Some(start)) => {
                    best = nearest_run(best, (start, o));
                    run = None;
                }
                _ => {}
            }
        }
        if let Some(start) = run {
            best = nearest_run(best, (start, span));
        }
        let Some((a, b)) = best else { return 0.0 };
        let mid = centre + across * ((a + b) * 0.5);
        let reach = span * 2.0;
        let side = |d: Vec3| {
            self.scene
                .cast_ray(&Ray::new(mid, d), reach)
                .map_or(reach, |h| h.t)
        };
        side(across) + side(-across)
    }
}

/// The free run nearer the axis (offset 0).
fn nearest_run(best: Option<(f32, f32)>, run: (f32, f32)) -> Option<(f32, f32)> {
    let gap = |r: (f32, f32)| {
        if r.0 <= 0.0 && r.1 >= 0.0 {
            0.0
        } else {
            r.0.abs().min(r.1.abs())
        }
    };
    match best {
        Some(b) if gap(b) <= gap(run) => Some(b),
        _ => Some(run),
    }
}
