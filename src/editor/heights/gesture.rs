//! One height gesture's steps, whatever it moves (a surface here, a mover's path point in `movers`): the
//! pointer's input gathered into whole snap steps, each counted from where the gesture began (no drift),
//! a refused step not taken, and the gesture's end: the Alt+drag released, or the wheel quiet for
//! [`WHEEL_QUIET_SECS`]. What it moves and how a step is checked are the caller's.

/// Seconds without a wheel notch after which a wheel gesture ends (and becomes one undo step).
pub const WHEEL_QUIET_SECS: f64 = 0.4;
/// Points of vertical Alt+drag per snap step.
pub const DRAG_POINTS_PER_STEP: f32 = 16.0;

/// The pointer over the 3D preview this frame, as the height gestures read it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointerInput {
    /// The ray through the pointer and how far the view reaches (`None`: the pointer is not over the view).
    pub ray: Option<(crate::shape::Ray, f32)>,
    /// Ctrl+wheel this frame, in notches (positive: up, raise).
    pub wheel: f32,
    /// The vertical Alt+drag this frame, points (positive: up, raise); `None` when no Alt+drag is under way.
    pub drag: Option<f32>,
    /// The Alt+drag ended this frame (the button was released).
    pub drag_ended: bool,
    /// The time now, seconds.
    pub now: f64,
    /// The height step, metres (the snap step).
    pub step: f32,
}

impl PointerInput {
    /// Whether this frame's input starts a gesture (a notch, or an Alt+drag that moved).
    #[must_use]
    pub fn starts(&self) -> bool {
        self.wheel != 0.0 || self.drag.is_some_and(|d| d != 0.0)
    }
}

/// The steps of a height gesture under way.
#[derive(Clone, Debug, PartialEq)]
pub struct Gesture {
    /// Steps taken (positive: up).
    pub steps: i32,
    /// The step, metres.
    pub step: f32,
    /// Ctrl+wheel (ends when quiet) rather than an Alt+drag (ends on release).
    pub by_wheel: bool,
    /// The time of the last notch or drag, seconds.
    pub last_input: f64,
    /// Wheel notches or drag steps not yet a whole step.
    pub pending: f32,
    /// Why the last step was refused.
    pub refused: Option<String>,
}

impl Gesture {
    /// A gesture begun by `input` (its first notch or drag is counted by the first [`Self::frame`]).
    #[must_use]
    pub fn begin(input: &PointerInput) -> Self {
        Self {
            steps: 0,
            step: input.step.max(0.01),
            by_wheel: input.wheel != 0.0,
            last_input: input.now,
            pending: 0.0,
            refused: None,
        }
    }

    /// How far the steps taken move, metres (positive: up).
    #[must_use]
    pub fn delta(&self) -> f32 {
        self.steps as f32 * self.step
    }

    /// When a wheel gesture ends if no notch comes before (`None` for an Alt+drag, which ends on release).
    #[must_use]
    pub fn deadline(&self) -> Option<f64> {
        self.by_wheel.then_some(self.last_input + WHEEL_QUIET_SECS)
    }

    /// One frame of `input`. When whole steps have gathered, `check` is asked about the move of that
    /// many steps from the start (`Ok`: taken, `Err(why)`: refused, the gesture stays where it was).
    /// Returns whether a step was taken and whether the gesture ended this frame.
    pub fn frame(
        &mut self,
        input: &PointerInput,
        check: impl FnOnce(i32) -> Result<(), String>,
    ) -> (bool, bool) {
        let ended = if self.by_wheel {
            self.pending += input.wheel;
            if input.wheel != 0.0 {
                self.last_input = input.now;
            }
            self.deadline().is_some_and(|d| input.now >= d)
        } else {
            self.pending += input.drag.unwrap_or(0.0) / DRAG_POINTS_PER_STEP;
            input.drag_ended || input.drag.is_none()
        };
        let whole = self.pending.trunc();
        let mut stepped = false;
        if whole != 0.0 {
            self.pending -= whole;
            let steps = self.steps.saturating_add(whole as i32);
            match check(steps) {
                Ok(()) => {
                    self.steps = steps;
                    self.refused = None;
                    stepped = true;
                }
                Err(why) => self.refused = Some(why),
            }
        }
        (stepped, ended)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notches_gather_into_steps_and_the_wheel_ends_when_quiet() {
        let at = |wheel: f32, now: f64| PointerInput {
            wheel,
            now,
            step: 0.5,
            ..PointerInput::default()
        };
        let mut g = Gesture::begin(&at(1.0, 0.0));
        assert_eq!(g.frame(&at(1.0, 0.0), |_| Ok(())), (true, false));
        // A refused step is not taken.
        assert_eq!(g.frame(&at(1.0, 0.1), |_| Err("no".into())), (false, false));
        assert_eq!((g.steps, g.refused.as_deref()), (1, Some("no")));
        assert_eq!(g.deadline(), Some(0.1 + WHEEL_QUIET_SECS));
        assert_eq!(g.frame(&at(0.0, 0.3), |_| Ok(())), (false, false));
        assert!(g.frame(&at(0.0, 0.1 + WHEEL_QUIET_SECS), |_| Ok(())).1);
        assert_eq!(g.delta(), 0.5);
        // A drag ends on release, not when quiet.
        let drag = PointerInput {
            drag: Some(-DRAG_POINTS_PER_STEP * 2.0),
            ..at(0.0, 5.0)
        };
        let mut d = Gesture::begin(&drag);
        assert_eq!(d.deadline(), None);
        let two_down = |s: i32| {
            if s == -2 {
                Ok(())
            } else {
                Err(format!("{s} steps"))
            }
        };
        assert_eq!(d.frame(&drag, two_down), (true, false));
        assert!(d.frame(&PointerInput { drag: None, ..drag }, |_| Ok(())).1);
    }
}
