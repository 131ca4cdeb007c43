//! A limit in words, one wording for a move's [`Limit`](super::super::Limit) and a map's [`Blocker3`]: "riser
//! 0.42 m is above max_step 0.35 m", "slope 52° is above 45°", so the debugger's explanation of a move and
//! `collidoscope check --reach` say the same thing of the same limit.

/// A riser above the step limit: "riser 0.42 m is above max_step 0.35 m".
#[must_use]
pub(in crate::character) fn riser(height: f32, max_step: f32) -> String {
    format!("riser {height:.2} m is above max_step {max_step:.2} m")
}

/// A surface steeper than the slope limit: "slope 52° is above 45°".
#[must_use]
pub(in crate::character) fn slope(degrees: f32, max_slope_deg: f32) -> String {
    format!("slope {degrees:.0}° is above {max_slope_deg:.0}°")
}

/// An opening narrower than the body with a skin each side: "opening 0.50 m is below 0.62 m (the body's
/// 0.60 m and a skin each side)".
#[must_use]
pub(in crate::character) fn opening(width: f32, radius: f32, skin: f32) -> String {
    format!(
        "opening {width:.2} m is below {:.2} m (the body's {:.2} m and a skin each side)",
        2.0 * (radius + skin),
        2.0 * radius
    )
}

/// A ceiling lower than the body with a skin above and below: "clearance 1.50 m is below 1.82 m (the body's
/// 1.80 m and a skin above and below)".
#[must_use]
pub(in crate::character) fn clearance(clearance: f32, height: f32, skin: f32) -> String {
    format!(
        "clearance {clearance:.2} m is below {:.2} m (the body's {height:.2} m and a skin above and below)",
        height + 2.0 * skin
    )
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::super::super::{CharacterController, Limit};
    use super::super::Blocker3;
    use crate::id::ObjectId;

    /// What a move's limit and a map's blocker say of the same limit, as each puts it.
    fn both(limit: &Limit, blocker: &Blocker3) -> (String, String) {
        let ctl = CharacterController::default();
        (
            limit.describe(ctl.max_step, ctl.max_slope_deg, |o| format!("#{}", o.0)),
            blocker.describe(&ctl),
        )
    }

    #[test]
    fn a_move_and_a_map_word_a_limit_alike() {
        let at = Vec3::new(3.0, 0.4, 1.0);
        let object = ObjectId(12);
        let (l, b) = both(
            &Limit::StepTooHigh {
                object,
                height: Some(0.42),
                at,
            },
            &Blocker3::StepTooHigh { at, height: 0.42 },
        );
        assert_eq!(l, "riser 0.42 m is above max_step 0.35 m: #12");
        assert_eq!(
            b,
            "riser 0.42 m is above max_step 0.35 m at (3.00, 0.40, 1.00)"
        );
        let (l, b) = both(
            &Limit::SlopeTooSteep {
                object,
                degrees: 52.2,
                at,
            },
            &Blocker3::SlopeTooSteep { at, degrees: 52.2 },
        );
        assert_eq!(l, "slope 52° is above 45°: #12");
        assert_eq!(b, "slope 52° is above 45° at (3.00, 0.40, 1.00)");
        // The figures a move's limit does not measure are worded the same way.
        let ctl = CharacterController::default();
        let narrow = Blocker3::TooNarrow { at, width: 0.5 }.describe(&ctl);
        assert!(
            narrow.starts_with("opening 0.50 m is below 0.62 m"),
            "{narrow}"
        );
        let low = Blocker3::TooLow { at, clearance: 1.5 }.describe(&ctl);
        assert!(low.starts_with("clearance 1.50 m is below 1.82 m"), "{low}");
    }
}
